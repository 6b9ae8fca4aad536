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

#include "vseg_hw.h"

struct dma_fence;
struct dma_resv;
struct ttm_buffer_object;
struct vseg_device;
struct vseg_engine;
struct vseg_client_stats;
struct vseg_paging_batch;
struct page;

/*
 * Page-table pages of the paging VA space (vseg_paging_va.c), as
 * &vseg_paging.va_table indexes them: the directories from the root
 * down, then the leaves of the destination and source windows.
 */
enum {
	VSEG_PAGING_VA_ROOT,
	VSEG_PAGING_VA_L1,
	VSEG_PAGING_VA_L2,
	VSEG_PAGING_VA_LEAF_DST,
	VSEG_PAGING_VA_LEAF_SRC,
	VSEG_PAGING_VA_TABLES
};

/**
 * struct vseg_paging_pte_update - the entries of one UPDATE_PT operation
 * @lock: the VA space's page-table lock: held by the core while the
 *	operation runs (vseg_paging.c runs it alone), so that no bind or
 *	unbind changes the entries between @prepare and the copy.
 * @prepare: called under @lock right before the operation runs: makes
 *	every value of @pte whose entry no longer belongs to the mapping
 *	the values were computed for (a later bind or unbind changed it)
 *	the entry's current value, so that the copy leaves it as it is;
 *	returns false when the operation must not run at all (its table
 *	page was evicted since: it is rewritten whole when it comes back).
 * @done: called once the operation has run (or will never run), to free
 *	this; in the core's batch-completion path (paging_run()), never by
 *	the engine.
 * @owner: the page tables it writes, for @prepare and @done.
 * @table: the leaf page-table page it writes (vseg_pt.c's record).
 * @gen: the generation of @table the operation was made for.
 * @first: the index of its first entry there.
 * @tag: the mapping the values were computed for (vseg_pt.c).
 * @count: entries.
 * @pte: their values: the staging memory the paging engine copies from
 *	(kmalloc'ed, so physically contiguous: the operation's source is
 *	VSEG_HW_SYSTEM_ADDR() of its physical address).
 *
 * WDDM's UpdatePageTable hands the driver an array of entries the same
 * way (in system memory, for the paging engine to copy). Core state only:
 * the engine sees the operation, a copy from bus address to bus address.
 */
struct vseg_paging_pte_update {
	struct mutex *lock; /* see above */
	bool (*prepare)(struct vseg_paging_pte_update *u);
	void (*done)(struct vseg_paging_pte_update *u);
	void *owner;
	void *table;
	u32 gen;
	u32 first;
	u64 tag;
	u32 count;
	u64 pte[] __counted_by(count);
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
 * @updates: for each operation slot of the buffer, the core's record of
 *	the UPDATE_PT written there (its staging values, its page tables'
 *	lock), or NULL.
 * @owner: the counters the current move's operations are charged to.
 * @private: PagingBufferPrivateDataSize bytes, zeroed, never interpreted.
 * @private_size: bytes in @private.
 * @lock: one move writes operations at a time; protects @head, @batch,
 *	@last, @move_fence, @move_resv, @owner and the entries of @owners
 *	and @updates.
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
 * @vpr_nonce: the last nonce given to an encrypted eviction.
 * @va_ready: the paging engine's own VA space exists
 *	(vseg_paging_va.c): moves may use the virtual operations. Set at
 *	load, cleared at teardown, under @lock.
 * @va_table: its page-table pages: the root, a level-1 and a level-2
 *	directory, the leaves of the destination and source windows.
 * @va_lock: held while an UPDATE_PT of a window runs (it has no bind or
 *	unbind to keep out: the engine's own operations alone write them).
 * @va_used: per window (destination, source), the entries its last
 *	UPDATE_PT written may have left valid; every entry past them is
 *	invalid. Under @lock.
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
	struct vseg_paging_pte_update **updates;
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
	atomic64_t vpr_nonce;
	bool va_ready;
	struct page *va_table[VSEG_PAGING_VA_TABLES];
	struct mutex va_lock; /* see above */
	u32 va_used[2];
};

#endif /* __VSEG_PAGING_TYPES_H__ */
