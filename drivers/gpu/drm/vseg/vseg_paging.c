// SPDX-License-Identifier: GPL-2.0-only
/*
 * Copyright (c) 2026 The vseg authors
 *
 * The paging buffer and the paging engine (WDDM's DxgkDdiBuildPagingBuffer
 * and the paging queue). The segment table names where the buffer lives
 * (PagingBufferSegmentId): a pinned kernel buffer mapped into the aperture,
 * which counts against the aperture's commit limit, or contiguous
 * write-combined system memory (id 0). It holds PagingBufferSize bytes of
 * fixed-size operations, used as a ring.
 *
 * A TTM move (vseg_ttm.c) writes its Transfer, Fill, Discard and aperture
 * Map/Unmap operations between vseg_paging_begin() and vseg_paging_end().
 * Written operations go to the engine in batches: when the move ends, or
 * when the buffer is full, in which case the move waits for the engine to
 * free room. Each batch is a job of the paging queue's scheduler
 * (vseg_sched.c), queued on the memory manager's own entity, so batches
 * run in the order they were written and their fences, on that entity's
 * timeline, signal in order. A batch depends on every fence of the
 * buffer it moves (the jobs and moves already using it): the move itself
 * never waits for them. The move ends with the fence of its last batch,
 * which TTM hangs on the buffer (ttm_bo_move_accel_cleanup()), so that CPU
 * faults, jobs and later moves wait for it while the ioctl that moved the
 * buffer has returned.
 *
 * The engine is the hardware's (vseg_hw_ops.run_paging, the software
 * GPU's in sim/vseg_sim_paging.c): it runs a batch inside the fence
 * signalling path, never allocates, and the move wrote nothing it would
 * have to look up (the memory it touches was backed, and addresses are
 * GPU physical addresses: vseg_paging_addr()). Before the buffer exists
 * (probe) and after teardown, operations run at once, in the caller.
 */

#include <linux/dma-fence.h>
#include <linux/dma-mapping.h>
#include <linux/highmem.h>
#include <linux/ktime.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/vmalloc.h>
#include <linux/workqueue.h>
#include <drm/drm_gem.h>
#include <drm/drm_managed.h>
#include <drm/ttm/ttm_tt.h>

#include "vseg_client_stats.h"
#include "vseg_compat.h"
#include "vseg_device_types.h"
#include "vseg_engine.h"
#include "vseg_gart.h"
#include "vseg_page_pool.h"
#include "vseg_hw.h"
#include "vseg_paging.h"
#include "vseg_phys.h"
#include "vseg_sched.h"
#include "vseg_trace.h"
#include "vseg_vpr.h"

static_assert(sizeof(struct vseg_paging_op) == VSEG_PAGING_BUFFER_MIN);

/**
 * struct vseg_paging_batch - operations handed to the engine together
 * @base: the paging queue's job; its fence signals when every operation
 *	of the batch has run.
 * @pg: the paging state.
 * @first: index in the buffer of the first operation.
 * @count: operations in the batch.
 */
struct vseg_paging_batch {
	struct vseg_job base;
	struct vseg_paging *pg;
	u64 first;
	u64 count;
};

/**
 * vseg_paging_addr() - the paging engine's address of a byte
 * @vdev: the device
 * @seg: a memory segment's id, or 0 for a system page
 * @offset: the offset in the segment, or the system page's physical
 *	address
 *
 * The paging engine reaches memory physically: a memory segment's byte
 * at its GPU physical address, a system page's by the bus's system
 * class (VSEG_HW_SYSTEM_ADDR()).
 *
 * Return: the GPU physical address.
 */
u64 vseg_paging_addr(struct vseg_device *vdev, u32 seg, u64 offset)
{
	if (!seg)
		return VSEG_HW_SYSTEM_ADDR(offset);
	return vseg_phys_base(vdev, seg) + offset;
}

/*
 * Run operations on the paging engine (vseg_hw_ops.run_paging) and count
 * what it reports; the aperture operations' effect on the GART follows
 * in the GART's counters and trace events.
 */
static int paging_exec(struct vseg_paging *pg, const struct vseg_paging_op *ops,
		       u32 num)
{
	struct vseg_hw *hw = &pg->vdev->hw;
	struct vseg_hw_paging_result res = {};
	u32 i;
	int err;

	err = hw->ops->run_paging(hw, ops, num, &res);
	for (i = 0; i < VSEG_PAGING_NUM_OPCODES; i++)
		if (res.executed[i])
			atomic64_add(res.executed[i], &pg->executed[i]);
	atomic64_add(res.bytes, &pg->bytes);
	atomic64_add(res.failed, &pg->failed);
	vseg_gart_account(&pg->vdev->aperture.gart, &res);
	if (!res.executed[VSEG_PAGING_OP_MAP_APERTURE] &&
	    !res.gart_unbinds)
		return err;
	for (i = 0; i < num; i++) {
		if (ops[i].opcode == VSEG_PAGING_OP_MAP_APERTURE)
			trace_vseg_gart_map(ops[i].dst, ops[i].size);
		else if (ops[i].opcode == VSEG_PAGING_OP_UNMAP_APERTURE &&
			 res.gart_unbinds)
			trace_vseg_gart_unmap(ops[i].dst, ops[i].size);
	}
	return err;
}

/*
 * Run the UPDATE_PT @op of @u alone, its page tables' lock held: @u's
 * values are made current for the entries a bind or unbind changed since
 * they were computed (@u->prepare), and no bind or unbind changes an
 * entry until the copy is done; an update whose table was evicted since
 * does not run. Then @u is done with. The engine copies bytes; which
 * entries it may overwrite is the core's to decide.
 */
static int paging_exec_update(struct vseg_paging *pg,
			      const struct vseg_paging_op *op,
			      struct vseg_paging_pte_update *u)
{
	int err = 0;

	mutex_lock(u->lock);
	if (u->prepare(u))
		err = paging_exec(pg, op, 1);
	mutex_unlock(u->lock);
	u->done(u);
	return err;
}

/*
 * The engine: run a batch, free its room in the buffer. The operations
 * go to the hardware a stretch at a time: those of one owner (whose
 * drm-engine-paging the stretch's time is charged to), up to the end of
 * the ring; an UPDATE_PT alone (paging_exec_update()).
 */
static int paging_run(struct vseg_job *job)
{
	struct vseg_paging_batch *b = container_of(job, typeof(*b), base);
	struct vseg_paging *pg = b->pg;
	u64 i = 0, idx = b->first, n, k, start;
	struct vseg_paging_pte_update *u;
	struct vseg_client_stats *owner;
	int err = 0, ret;

	while (i < b->count) {
		owner = pg->owners[idx];
		u = pg->updates[idx];
		n = 1;
		while (!u && i + n < b->count && idx + n < pg->capacity &&
		       n < U32_MAX && pg->owners[idx + n] == owner &&
		       !pg->updates[idx + n])
			n++;
		start = ktime_get_ns();
		if (u) {
			pg->updates[idx] = NULL;
			ret = paging_exec_update(pg, &pg->ops[idx], u);
		} else {
			ret = paging_exec(pg, &pg->ops[idx], n);
		}
		err = err ?: ret;
		vseg_client_stats_add(owner, VSEG_ENGINE_PAGING,
				      ktime_get_ns() - start);
		for (k = 0; k < n; k++) {
			vseg_client_stats_put(pg->owners[idx + k]);
			pg->owners[idx + k] = NULL;
		}
		i += n;
		idx += n;
		if (idx == pg->capacity)
			idx = 0;
	}
	atomic64_inc(&pg->batches);
	/* The slots are free once every operation in them has been read. */
	smp_store_release(&pg->tail, pg->tail + b->count);
	wake_up_all(&pg->room);
	return err;
}

static void paging_batch_free(struct vseg_job *job)
{
	kfree(container_of(job, struct vseg_paging_batch, base));
}

static const struct vseg_job_ops paging_job_ops = {
	.run = paging_run,
	.free = paging_batch_free,
};

/* Free operation slots in the buffer. */
static u64 paging_room(struct vseg_paging *pg)
{
	/* Pairs with paging_run(): the engine has read the freed slots. */
	return pg->capacity - (pg->head - smp_load_acquire(&pg->tail));
}

/* Hand what is written to the engine. */
static void paging_flush(struct vseg_paging *pg)
{
	struct vseg_paging_batch *b = pg->batch;
	struct dma_fence *fence;

	lockdep_assert_held(&pg->lock);
	if (!b)
		return;
	pg->batch = NULL;
	fence = vseg_job_arm(&b->base);
	dma_fence_put(pg->last);
	pg->last = dma_fence_get(fence);
	dma_fence_put(pg->move_fence);
	pg->move_fence = dma_fence_get(fence);
	vseg_job_push(&b->base);
}

/*
 * A new batch, after every fence of the buffer being moved (the batches
 * of the memory manager's entity run in order anyway).
 */
static struct vseg_paging_batch *paging_batch_new(struct vseg_paging *pg)
{
	struct vseg_paging_batch *b = kzalloc(sizeof(*b), GFP_KERNEL);
	int err;

	if (!b)
		return NULL;
	err = vseg_job_init(&b->base, pg->vdev, &paging_job_ops, &pg->entity,
			    VSEG_QUEUE_PAGING, 0, NULL);
	if (err) {
		kfree(b);
		return NULL;
	}
	if (pg->move_resv && vseg_job_add_resv_deps(&b->base, pg->move_resv)) {
		vseg_job_abandon(&b->base);
		return NULL;
	}
	b->pg = pg;
	b->first = pg->head % pg->capacity;
	return b;
}

static struct vseg_paging_op paging_op(u32 opcode, u32 flags, u64 dst,
				       u64 src, u64 size)
{
	return (struct vseg_paging_op){
		.opcode = opcode,
		.flags = flags,
		.dst = dst,
		.src = src,
		.size = size,
	};
}

/**
 * vseg_paging_begin() - start writing the operations of one move
 * @pg: the paging state
 * @resv: the reservation of the buffer being moved, locked: the move's
 *	operations run after every fence on it; or NULL
 *
 * Moves write one at a time; end with vseg_paging_end(), or
 * vseg_paging_abort() after vseg_paging_emit() failed.
 */
void vseg_paging_begin(struct vseg_paging *pg, struct dma_resv *resv)
{
	mutex_lock(&pg->lock);
	pg->move_resv = resv;
}

/**
 * vseg_paging_charge() - name the file the move's operations work for
 * @pg: the paging state, between begin and end
 * @owner: its counters, or NULL: the time the engine spends on the
 *	operations written from now on to the end of the move is charged to
 *	them (drm-engine-paging in its fdinfo)
 */
void vseg_paging_charge(struct vseg_paging *pg, struct vseg_client_stats *owner)
{
	lockdep_assert_held(&pg->lock);
	pg->owner = owner;
}

/*
 * Write @op, the UPDATE_PT of @u when @u is not NULL (then @u is done
 * with, whatever this returns).
 */
static int paging_write(struct vseg_paging *pg, const struct vseg_paging_op *op,
			struct vseg_paging_pte_update *u)
{
	lockdep_assert_held(&pg->lock);
	if (!pg->ready)
		return u ? paging_exec_update(pg, op, u) : paging_exec(pg, op, 1);
	if (!paging_room(pg)) {
		paging_flush(pg);
		atomic64_inc(&pg->full);
		wait_event(pg->room, paging_room(pg));
	}
	if (!pg->batch) {
		pg->batch = paging_batch_new(pg);
		if (!pg->batch) {
			if (u)
				u->done(u);
			return -ENOMEM;
		}
	}
	pg->ops[pg->head % pg->capacity] = *op;
	pg->owners[pg->head % pg->capacity] = vseg_client_stats_get(pg->owner);
	pg->updates[pg->head % pg->capacity] = u;
	pg->head++;
	pg->batch->count++;
	return 0;
}

/**
 * vseg_paging_emit() - write one operation
 * @pg: the paging state, between begin and end
 * @opcode: &enum vseg_paging_opcode
 * @flags: VSEG_PAGING_F_*
 * @dst: destination, see &struct vseg_paging_op
 * @src: source, pattern or physical address, see &struct vseg_paging_op
 * @size: bytes; TRANSFER and FILL: a multiple of 4, MAP and UNMAP: whole
 *	pages
 *
 * The memory the operation writes must be backed already: the engine
 * cannot allocate. When the buffer is full, what is written goes to the
 * engine and the caller waits for room. UPDATE_PT goes through
 * vseg_paging_emit_update().
 *
 * Return: 0, or -ENOMEM (nothing of this operation was written); without
 * the engine (before the buffer exists), the error of running it.
 */
int vseg_paging_emit(struct vseg_paging *pg, u32 opcode, u32 flags, u64 dst,
		     u64 src, u64 size)
{
	struct vseg_paging_op op = paging_op(opcode, flags, dst, src, size);

	return paging_write(pg, &op, NULL);
}

/**
 * vseg_paging_emit_update() - write one UPDATE_PT operation
 * @pg: the paging state, between begin and end
 * @dst: bus address of the first page-table entry it writes
 * @u: its values and the core's record of it; done with (@u->done)
 *	once it has run, or at once if it cannot be written, whatever this
 *	returns
 *
 * The operation copies @u->count entries from @u->pte (by the bus address
 * of their system page) to @dst. It runs alone, @u->lock held and
 * @u->prepare called right before, in the batch's run (paging_run()).
 *
 * Return: 0 or -ENOMEM; without the engine, the error of running it.
 */
int vseg_paging_emit_update(struct vseg_paging *pg, u64 dst,
			    struct vseg_paging_pte_update *u)
{
	struct vseg_paging_op op =
		paging_op(VSEG_PAGING_OP_UPDATE_PT, 0, dst,
			  VSEG_HW_SYSTEM_ADDR(virt_to_phys(u->pte)),
			  u->count * sizeof(u64));

	return paging_write(pg, &op, u);
}

/**
 * vseg_paging_run() - run one operation at once, on the CPU
 * @pg: the paging state, between begin and end
 * @opcode: &enum vseg_paging_opcode
 * @flags: VSEG_PAGING_F_*
 * @dst: destination, see &struct vseg_paging_op
 * @src: source, pattern or physical address, see &struct vseg_paging_op
 * @size: bytes, as for vseg_paging_emit()
 *
 * For an operation that waits for nothing and has nothing to do that
 * would be worth a trip to the engine: a Fill of zero over segment memory
 * that no page backs (it reads zero already). Counted as the engine
 * counts what it runs.
 *
 * Return: 0 or the operation's error.
 */
int vseg_paging_run(struct vseg_paging *pg, u32 opcode, u32 flags, u64 dst,
		    u64 src, u64 size)
{
	struct vseg_paging_op op = paging_op(opcode, flags, dst, src, size);

	lockdep_assert_held(&pg->lock);
	return paging_exec(pg, &op, 1);
}

/**
 * vseg_paging_idle() - is the paging engine done with every operation?
 * @pg: the paging state, between begin and end
 *
 * True when nothing is written and not handed over, and every batch
 * queued has run: an operation run at once (vseg_paging_run()) cannot
 * overtake one of an earlier move then. Stays true until the caller
 * writes an operation: no other move writes meanwhile.
 *
 * Return: whether the engine is idle.
 */
bool vseg_paging_idle(struct vseg_paging *pg)
{
	lockdep_assert_held(&pg->lock);
	return !pg->batch && (!pg->last || dma_fence_is_signaled(pg->last));
}

/**
 * vseg_paging_end() - hand the move's operations to the engine
 * @pg: the paging state, between begin and end
 *
 * Return: the fence that signals when all of the move's operations have
 * run (a reference), or NULL if none is pending (they ran at once, or
 * there were none).
 */
struct dma_fence *vseg_paging_end(struct vseg_paging *pg)
{
	struct dma_fence *fence;

	paging_flush(pg);
	fence = pg->move_fence;
	pg->move_fence = NULL;
	pg->owner = NULL;
	pg->move_resv = NULL;
	mutex_unlock(&pg->lock);
	return fence;
}

/**
 * vseg_paging_barrier() - a fence for a move that wrote no operation
 * @pg: the paging state, between begin and end
 *
 * An empty batch, which signals once every fence of the moved buffer has:
 * a move that only changes the placement's bookkeeping still may not free
 * the old placement while a job uses it.
 *
 * Return: 0 or -ENOMEM.
 */
int vseg_paging_barrier(struct vseg_paging *pg)
{
	lockdep_assert_held(&pg->lock);
	if (!pg->ready || pg->batch || pg->move_fence)
		return 0;
	pg->batch = paging_batch_new(pg);
	return pg->batch ? 0 : -ENOMEM;
}

/**
 * vseg_paging_abort() - end a move that failed half-way
 * @pg: the paging state, between begin and end
 *
 * What was written runs, and is waited for: the memory it touches may be
 * freed as soon as the caller returns its error.
 */
void vseg_paging_abort(struct vseg_paging *pg)
{
	struct dma_fence *fence = vseg_paging_end(pg);

	if (fence) {
		dma_fence_wait(fence, false);
		dma_fence_put(fence);
	}
}

/**
 * vseg_paging_wait_idle() - wait for every operation written so far to run
 * @pg: the paging state
 */
void vseg_paging_wait_idle(struct vseg_paging *pg)
{
	struct dma_fence *fence;

	mutex_lock(&pg->lock);
	fence = dma_fence_get(pg->last);
	mutex_unlock(&pg->lock);
	if (fence) {
		dma_fence_wait(fence, false);
		dma_fence_put(fence);
	}
}

static void paging_bo_destroy(struct ttm_buffer_object *tbo)
{
	drm_gem_object_release(&tbo->base);
	kfree(tbo);
}

/*
 * The paging buffer in the aperture: a pinned kernel buffer with a range
 * of the aperture, mapped into the GART (by the operations of its own
 * move, run at once), and into the kernel.
 */
static int paging_bo_create(struct vseg_paging *pg)
{
	struct vseg_device *vdev = pg->vdev;
	struct ttm_operation_ctx ctx = { .interruptible = false };
	struct ttm_place place = {
		.mem_type = TTM_PL_TT,
		.lpfn = vseg_seg(vdev, pg->segment)->desc->size >> PAGE_SHIFT,
	};
	struct ttm_placement placement = {};
	struct ttm_buffer_object *tbo;
	int err;

	tbo = kzalloc(sizeof(*tbo), GFP_KERNEL);
	if (!tbo)
		return -ENOMEM;
	drm_gem_private_object_init(&vdev->drm, &tbo->base,
				    PAGE_ALIGN(pg->size));
	vseg_placement_set(&placement, &place, 1);
	/* On failure TTM calls paging_bo_destroy() itself. */
	err = ttm_bo_init_reserved(&vdev->bdev, tbo, ttm_bo_type_kernel,
				   &placement, 0, &ctx, NULL, NULL,
				   paging_bo_destroy);
	if (err)
		return err == -ENOSPC || err == -EBUSY ? -ENOSPC : err;
	ttm_bo_pin(tbo);
	ttm_bo_unreserve(tbo);
	pg->bo = tbo;
	pg->ops = vmap(tbo->ttm->pages, tbo->ttm->num_pages, VM_MAP,
		       PAGE_KERNEL);
	return pg->ops ? 0 : -ENOMEM;
}

static void paging_release(struct drm_device *drm, void *arg)
{
	struct vseg_paging *pg = arg;

	mutex_lock(&pg->lock);
	pg->ready = false;
	mutex_unlock(&pg->lock);
	if (pg->last) {
		dma_fence_wait(pg->last, false);
		dma_fence_put(pg->last);
		pg->last = NULL;
	}
	if (pg->entity_ready)
		vseg_sched_entity_fini(&pg->entity);
	if (pg->bo) {
		if (pg->ops)
			vunmap(pg->ops);
		ttm_bo_reserve(pg->bo, false, false, NULL);
		ttm_bo_unpin(pg->bo);
		ttm_bo_unreserve(pg->bo);
		vseg_ttm_bo_put(pg->bo);
	} else if (pg->ops) {
		dma_free_wc(drm->dev, PAGE_ALIGN(pg->size), pg->ops, pg->dma);
	}
	pg->ops = NULL;
	if (pg->owners) {
		u64 i;

		for (i = 0; i < pg->capacity; i++)
			vseg_client_stats_put(pg->owners[i]);
		kvfree(pg->owners);
	}
	if (pg->updates) {
		u64 i;

		/* Every batch has run: none is left, unless one never did. */
		for (i = 0; i < pg->capacity; i++)
			if (pg->updates[i])
				pg->updates[i]->done(pg->updates[i]);
		kvfree(pg->updates);
	}
	kvfree(pg->private);
	mutex_destroy(&pg->lock);
}

/**
 * vseg_paging_init() - create the paging buffer, start the paging engine
 * @vdev: the device, its managers and engines started
 *
 * The buffer goes where the table says (PagingBufferSegmentId), with
 * PagingBufferSize bytes (checked by the table's rules) and the private
 * data, zeroed. Torn down with the DRM device (drmm): pending operations
 * run first.
 *
 * Return: 0, -ENOSPC if the aperture has no room for it, -ENOMEM.
 */
int vseg_paging_init(struct vseg_device *vdev)
{
	const struct vseg_segment_table *t = &vdev->table;
	struct vseg_paging *pg = &vdev->pager;
	struct drm_device *drm = &vdev->drm;
	int err;

	pg->vdev = vdev;
	pg->engine = &vdev->engine[VSEG_ENGINE_PAGING];
	pg->segment = t->paging_buffer_segment_id;
	pg->size = t->paging_buffer_size;
	pg->capacity = pg->size / sizeof(struct vseg_paging_op);
	pg->private_size = t->paging_buffer_private_data_size;
	mutex_init(&pg->lock);
	init_waitqueue_head(&pg->room);
	vseg_vpr_key_init(pg);
	err = drmm_add_action_or_reset(drm, paging_release, pg);
	if (err)
		return err;
	err = vseg_sched_entity_init(vdev, &pg->entity, VSEG_QUEUE_PAGING,
				     DRM_SCHED_PRIORITY_KERNEL);
	if (err)
		return err;
	pg->entity_ready = true;

	pg->owners = kvcalloc(pg->capacity, sizeof(*pg->owners), GFP_KERNEL);
	if (!pg->owners)
		return -ENOMEM;
	pg->updates = kvcalloc(pg->capacity, sizeof(*pg->updates), GFP_KERNEL);
	if (!pg->updates)
		return -ENOMEM;
	if (pg->private_size) {
		pg->private = kvzalloc(pg->private_size, GFP_KERNEL);
		if (!pg->private)
			return -ENOMEM;
	}
	if (pg->segment) {
		err = paging_bo_create(pg);
	} else {
		err = dma_coerce_mask_and_coherent(drm->dev, DMA_BIT_MASK(64));
		if (!err) {
			pg->ops = dma_alloc_wc(drm->dev, PAGE_ALIGN(pg->size),
					       &pg->dma, GFP_KERNEL);
			err = pg->ops ? 0 : -ENOMEM;
		}
	}
	if (err)
		return err;
	mutex_lock(&pg->lock);
	pg->ready = true;
	mutex_unlock(&pg->lock);
	return 0;
}

/*
 * The paging VA space's windows (vseg_paging_va.c): whether it exists,
 * and their valid entries (4 KiB and 64 KiB ones, read-only, naming
 * system pages). Under @pg->lock.
 */
static void paging_va_show(struct vseg_paging *pg, struct seq_file *m)
{
	struct vseg_hw_pte_count c = {};
	u64 *k;
	u32 w;

	for (w = VSEG_PAGING_VA_LEAF_DST;
	     pg->va_ready && w <= VSEG_PAGING_VA_LEAF_SRC; w++) {
		k = kmap_local_page(pg->va_table[w]);
		vseg_hw_pte_count(k, &c);
		kunmap_local(k);
	}
	seq_printf(m, " va=%d va_valid=%llu va_valid_4k=%llu va_valid_64k=%llu va_readonly=%llu va_system=%llu",
		   pg->va_ready, c.valid, c.valid - c.big, c.big, c.readonly,
		   c.system);
}

/**
 * vseg_paging_show() - the paging buffer and engine, for debugfs
 *
 * One line: the buffer, the engine's counters, the paging VA space's
 * windows; the page pool's figures (vseg_page_pool_show()) end it.
 * @pg: the paging state
 * @m: the file
 */
void vseg_paging_show(struct vseg_paging *pg, struct seq_file *m)
{
	static const char * const names[VSEG_PAGING_NUM_OPCODES] = {
		"transfer", "fill", "discard", "map", "unmap", "crypt",
		"update_pt", "flush_tlb", "transfer_virtual", "fill_virtual",
	};
	u64 offset = 0;
	bool zero;
	u32 i;

	mutex_lock(&pg->lock);
	if (pg->bo && pg->bo->resource)
		offset = (u64)pg->bo->resource->start << PAGE_SHIFT;
	zero = !pg->private ||
	       !memchr_inv(pg->private, 0, pg->private_size);
	seq_printf(m, "engine %u name=%s buffer_segment=%u buffer_size=%u operations=%llu offset=0x%llx private=%u private_zero=%d",
		   pg->engine->id, pg->engine->name, pg->segment, pg->size,
		   pg->capacity, offset, pg->private_size, zero);
	seq_printf(m, " batches=%llu pending=%llu full=%llu failed=%llu bytes=%llu",
		   (u64)atomic64_read(&pg->batches),
		   /* the engine's progress, as paging_room() reads it */
		   pg->head - smp_load_acquire(&pg->tail),
		   (u64)atomic64_read(&pg->full),
		   (u64)atomic64_read(&pg->failed),
		   (u64)atomic64_read(&pg->bytes));
	for (i = 0; i < VSEG_PAGING_NUM_OPCODES; i++)
		seq_printf(m, " %s=%llu", names[i],
			   (u64)atomic64_read(&pg->executed[i]));
	paging_va_show(pg, m);
	vseg_page_pool_show(m);
	seq_putc(m, '\n');
	mutex_unlock(&pg->lock);
}
