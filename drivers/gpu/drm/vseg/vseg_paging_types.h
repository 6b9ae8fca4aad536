/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Copyright (c) 2026 The vseg authors
 */
#ifndef __VSEG_PAGING_TYPES_H__
#define __VSEG_PAGING_TYPES_H__

#include <linux/atomic.h>
#include <linux/bits.h>
#include <linux/mutex.h>
#include <linux/types.h>
#include <linux/wait.h>
#include <drm/gpu_scheduler.h>

struct dma_fence;
struct dma_resv;
struct ttm_buffer_object;
struct vseg_device;
struct vseg_engine;
struct vseg_client_stats;
struct vseg_paging_batch;

/* Bytes of the key protected content is encrypted with (BLAKE2s's). */
#define VSEG_VPR_KEY_SIZE	32

/**
 * enum vseg_paging_opcode - what a paging operation does
 * @VSEG_PAGING_OP_TRANSFER: copy @size bytes from @src to @dst
 *	(DXGK_BUILDPAGINGBUFFER_TRANSFER).
 * @VSEG_PAGING_OP_FILL: fill @size bytes at @dst with the 32-bit pattern
 *	in @src (DXGK_BUILDPAGINGBUFFER_FILL).
 * @VSEG_PAGING_OP_DISCARD: the content of @size bytes at @dst is dropped
 *	(DXGK_BUILDPAGINGBUFFER_DISCARDCONTENT).
 * @VSEG_PAGING_OP_MAP_APERTURE: point the aperture range at byte offset
 *	@dst, @size bytes, at the physically contiguous system pages from
 *	@src (DXGK_BUILDPAGINGBUFFER_MAPAPERTURESEGMENT).
 * @VSEG_PAGING_OP_UNMAP_APERTURE: invalidate the aperture range at byte
 *	offset @dst, @size bytes (DXGK_BUILDPAGINGBUFFER_UNMAPAPERTURESEGMENT).
 * @VSEG_PAGING_OP_CRYPT_CONTEXT: the TRANSFERs that follow with
 *	%VSEG_PAGING_F_ENCRYPT or %VSEG_PAGING_F_DECRYPT encrypt or decrypt a
 *	protected buffer whose first byte is at paging address @dst in its
 *	segment, with the nonce @src (vseg_vpr.c).
 * @VSEG_PAGING_OP_UPDATE_PT: write @size / 8 page-table entries from
 *	the first one, at paging address @dst, with the values of the
 *	&struct vseg_paging_pte_update at kernel address @src (whose @done
 *	the engine calls once run): DXGK_BUILDPAGINGBUFFER_UPDATEPAGETABLE.
 * @VSEG_PAGING_OP_FLUSH_TLB: the MMU forgets every entry it cached
 *	(DXGK_BUILDPAGINGBUFFER_FLUSHTLB).
 * @VSEG_PAGING_NUM_OPCODES: number of values.
 */
enum vseg_paging_opcode {
	VSEG_PAGING_OP_TRANSFER,
	VSEG_PAGING_OP_FILL,
	VSEG_PAGING_OP_DISCARD,
	VSEG_PAGING_OP_MAP_APERTURE,
	VSEG_PAGING_OP_UNMAP_APERTURE,
	VSEG_PAGING_OP_CRYPT_CONTEXT,
	VSEG_PAGING_OP_UPDATE_PT,
	VSEG_PAGING_OP_FLUSH_TLB,
	VSEG_PAGING_NUM_OPCODES
};

/* MAP_APERTURE: the first run of a range (counted as one bind). */
#define VSEG_PAGING_F_NEW_RANGE	BIT(0)
/* TRANSFER out of a protected buffer's segment: encrypt what is written. */
#define VSEG_PAGING_F_ENCRYPT	BIT(1)
/* TRANSFER into a protected buffer's segment: decrypt what is written. */
#define VSEG_PAGING_F_DECRYPT	BIT(2)

/**
 * struct vseg_paging_pte_update - the entries of one UPDATE_PT operation
 * @lock: the VA space's page-table lock, held while they are written.
 * @tags: the page-table page's tag array, at the first entry: which
 *	mapping each entry belongs to now (vseg_pt.c).
 * @tag: the mapping the entries were computed for: an entry whose tag
 *	differs is left alone (a later bind or unbind changed it; this
 *	update is stale for it).
 * @done: called once the operation has run (or will never run), to free
 *	this; the engine calls it, in the fence signalling path.
 * @owner: the page tables it writes, for @done.
 * @count: entries.
 * @pte: their values.
 *
 * WDDM's UpdatePageTable hands the driver an array of entries the same
 * way (in system memory, for the paging engine to copy).
 */
struct vseg_paging_pte_update {
	struct mutex *lock; /* see above */
	u64 *tags;
	u64 tag;
	void (*done)(struct vseg_paging_pte_update *u);
	void *owner;
	u32 count;
	u64 pte[] __counted_by(count);
};

/**
 * struct vseg_paging_op - one operation, as written into the paging buffer
 * @opcode: &enum vseg_paging_opcode.
 * @flags: VSEG_PAGING_F_*.
 * @dst: destination: a paging address (vseg_paging_addr()), or an
 *	aperture byte offset for MAP/UNMAP.
 * @src: source paging address; FILL: the pattern; MAP: the physical
 *	address of the first system page.
 * @size: bytes.
 *
 * Paging addresses are what the engine reaches without a page table: a
 * memory segment's (segment id, offset) pair, or a system page's physical
 * address (segment 0). Fixed size: the buffer is an array of these.
 */
struct vseg_paging_op {
	u32 opcode;
	u32 flags;
	u64 dst;
	u64 src;
	u64 size;
};

/**
 * struct vseg_paging - the paging buffer and the paging engine's state
 * @vdev: the device.
 * @engine: the paging engine, which runs the batches.
 * @entity: the memory manager's entity on the paging queue: batches run
 *	in the order they are written.
 * @entity_ready: @entity is initialized.
 * @move_resv: the reservation of the buffer the current move moves: its
 *	batches wait for its fences.
 * @segment: where the paging buffer lives: the aperture's id, or 0 for
 *	contiguous write-combined system memory.
 * @size: the paging buffer's size in bytes (PagingBufferSize).
 * @ops: the paging buffer, mapped for the CPU: a ring of operations.
 * @capacity: operations the buffer holds.
 * @bo: in the aperture: the pinned kernel buffer behind @ops.
 * @dma: in system memory: the DMA address of @ops.
 * @owners: for each operation slot of the buffer, the counters of the file
 *	whose buffer the operation moves (a reference), or NULL.
 * @owner: the counters the current move's operations are charged to.
 * @private: PagingBufferPrivateDataSize bytes, zeroed, never interpreted.
 * @private_size: bytes in @private.
 * @lock: one move writes operations at a time; protects @head, @batch,
 *	@last, @move_fence, @move_resv, @owner and the entries of @owners.
 * @ready: operations go to the engine; before the buffer exists and
 *	after teardown they run at once, on the CPU, in the caller.
 * @head: operations written so far.
 * @tail: operations executed so far (written by the engine).
 * @room: woken when the engine frees room in the buffer.
 * @batch: the batch being written, not queued yet.
 * @last: fence of the last batch queued.
 * @move_fence: fence of the last batch queued by the current move.
 * @batches: batches executed.
 * @executed: operations executed, per opcode.
 * @bytes: bytes transferred or filled.
 * @full: times a move waited for room in a full buffer.
 * @failed: operations that failed (bad addresses: a driver bug).
 * @vpr_key: the device's key for protected content in system memory,
 *	random, made at load (vseg_vpr.c).
 * @vpr_nonce: the last nonce given to an encrypted eviction.
 * @crypt_base: the engine's: paging address of the protected buffer's
 *	first byte, from the last CRYPT_CONTEXT operation.
 * @crypt_nonce: the engine's: the nonce of that operation.
 */
struct vseg_paging {
	struct vseg_device *vdev;
	struct vseg_engine *engine;
	struct drm_sched_entity entity;
	bool entity_ready;
	struct dma_resv *move_resv;
	u32 segment;
	u32 size;
	struct vseg_paging_op *ops;
	u64 capacity;
	struct ttm_buffer_object *bo;
	dma_addr_t dma;
	struct vseg_client_stats **owners;
	struct vseg_client_stats *owner;
	void *private;
	u32 private_size;
	struct mutex lock; /* see above */
	bool ready;
	u64 head;
	u64 tail;
	wait_queue_head_t room;
	struct vseg_paging_batch *batch;
	struct dma_fence *last;
	struct dma_fence *move_fence;
	atomic64_t batches;
	atomic64_t executed[VSEG_PAGING_NUM_OPCODES];
	atomic64_t bytes;
	atomic64_t full;
	atomic64_t failed;
	u8 vpr_key[VSEG_VPR_KEY_SIZE];
	atomic64_t vpr_nonce;
	u64 crypt_base;
	u64 crypt_nonce;
};

#endif /* __VSEG_PAGING_TYPES_H__ */
