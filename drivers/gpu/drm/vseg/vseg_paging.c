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
 * The engine runs a batch inside the fence signalling path: it never
 * allocates, and the move wrote nothing it would have to look up (the
 * memory it touches was backed, and addresses are physical). Before the
 * buffer exists (probe) and after teardown, operations run at once on
 * the CPU, in the caller.
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
#include "vseg_paging.h"
#include "vseg_sched.h"
#include "vseg_vpr.h"
#include "vseg_vram_mgr.h"

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

/*
 * A paging address mapped for the CPU, to the end of its page (@len).
 * ERR_PTR(-EFAULT) for an address outside every segment; NULL for a page
 * of a memory segment that is not backed (to write: the move did not
 * back it; to read, it reads zero and never returns NULL).
 */
static void *paging_map(struct vseg_paging *pg, u64 addr, bool write,
			u64 *len, void **kmapped)
{
	struct vseg_device *vdev = pg->vdev;
	u32 seg = addr >> VSEG_PAGING_SEG_SHIFT;
	u64 off = addr & (BIT_ULL(VSEG_PAGING_SEG_SHIFT) - 1);
	struct vseg_vram_mgr *mgr;

	*len = PAGE_SIZE - offset_in_page(off);
	if (!seg) {
		*kmapped = kmap_local_page(pfn_to_page(PHYS_PFN(off)));
		return *kmapped + offset_in_page(off);
	}
	if (seg > vdev->table.num_segments || !vseg_seg_is_memory(vdev, seg))
		return ERR_PTR(-EFAULT);
	mgr = vseg_vram(vdev, seg);
	if (off >= mgr->desc->size)
		return ERR_PTR(-EFAULT);
	if (write)
		return vseg_vram_map_populated(mgr, off, len, kmapped);
	return vseg_vram_map(mgr, off, len, false, kmapped);
}

static int paging_fill(struct vseg_paging *pg, u64 dst, u32 value, u64 size);

/*
 * A Transfer, encrypting or decrypting a protected buffer's bytes on the
 * way (the result is written straight into the destination: plaintext
 * never sits in the system pages of an encrypted copy). One that fails
 * part-way zeroes what it did not write: the destination may be pages of
 * another owner's that only the Transfer was to overwrite.
 */
static int paging_transfer(struct vseg_paging *pg, u64 dst, u64 src,
			   u64 size, u32 flags)
{
	bool crypt = flags & (VSEG_PAGING_F_ENCRYPT | VSEG_PAGING_F_DECRYPT);
	u64 done = 0, dlen, slen, n, prot;
	void *d, *s, *dk, *sk;
	int err = 0;

	/* The protected side's address: its offset in the buffer. */
	prot = flags & VSEG_PAGING_F_ENCRYPT ? src : dst;
	if (crypt && (prot < pg->crypt_base || !pg->crypt_nonce))
		err = -EFAULT;

	while (!err && done < size) {
		d = paging_map(pg, dst + done, true, &dlen, &dk);
		if (IS_ERR_OR_NULL(d)) {
			err = -EFAULT;
			break;
		}
		s = paging_map(pg, src + done, false, &slen, &sk);
		if (IS_ERR_OR_NULL(s)) {
			kunmap_local(dk);
			err = -EFAULT;
			break;
		}
		n = min3(dlen, slen, size - done);
		if (crypt)
			vseg_vpr_crypt(pg->vpr_key, pg->crypt_nonce,
				       prot + done - pg->crypt_base, d, s, n);
		else
			memcpy(d, s, n);
		kunmap_local(sk);
		kunmap_local(dk);
		done += n;
		cond_resched();
	}
	if (err)
		paging_fill(pg, dst + done, 0, size - done);
	return err;
}

/*
 * Zeroes into a memory segment: absent pages read zero already, so only
 * the backed pages (and the part on a BAR) are written, found a backing
 * table at a time instead of mapping every page. False if @dst..@size is
 * not whole pages of one.
 */
static bool paging_zero_segment(struct vseg_paging *pg, u64 dst, u64 size)
{
	struct vseg_device *vdev = pg->vdev;
	u32 seg = dst >> VSEG_PAGING_SEG_SHIFT;
	u64 off = dst & (BIT_ULL(VSEG_PAGING_SEG_SHIFT) - 1);
	struct vseg_vram_mgr *mgr;

	if (!seg || seg > vdev->table.num_segments ||
	    !vseg_seg_is_memory(vdev, seg) || !PAGE_ALIGNED(off) ||
	    !PAGE_ALIGNED(size))
		return false;
	mgr = vseg_vram(vdev, seg);
	if (off >= mgr->desc->size || size > mgr->desc->size - off)
		return false;
	vseg_vram_clear(mgr, off, size);
	return true;
}

/* A page of a memory segment that is not backed reads zero already. */
static int paging_fill(struct vseg_paging *pg, u64 dst, u32 value, u64 size)
{
	u64 done = 0, len;
	void *d, *dk;

	if (!value && paging_zero_segment(pg, dst, size))
		return 0;
	while (done < size) {
		d = paging_map(pg, dst + done, true, &len, &dk);
		if (IS_ERR(d) || (!d && value))
			return -EFAULT;
		len = min(len, size - done);
		if (d) {
			memset32(d, value, len / sizeof(u32));
			kunmap_local(dk);
		}
		done += len;
		cond_resched();
	}
	return 0;
}

/*
 * Write a run of page-table entries, each only if it still belongs to the
 * mapping the values were computed for, and free the values.
 */
static int paging_update_pt(struct vseg_paging *pg, u64 dst, u64 src,
			    u64 size)
{
	struct vseg_paging_pte_update *u = (void *)(uintptr_t)src;
	u64 len, *p;
	void *k;
	u32 i;
	int err = 0;

	if (!u)
		return -EINVAL;
	mutex_lock(u->lock);
	p = paging_map(pg, dst, true, &len, &k);
	if (IS_ERR_OR_NULL(p) || len < size || size != u->count * sizeof(u64)) {
		err = -EFAULT;
	} else {
		for (i = 0; i < u->count; i++)
			if (u->tags[i] == u->tag)
				WRITE_ONCE(p[i], u->pte[i]);
	}
	if (!IS_ERR_OR_NULL(p))
		kunmap_local(k);
	mutex_unlock(u->lock);
	u->done(u);
	return err;
}

/* Run one operation; it was written by a move, addresses checked there. */
static int paging_exec(struct vseg_paging *pg, const struct vseg_paging_op *o)
{
	struct vseg_gart *gart = &pg->vdev->aperture.gart;
	int err;

	switch (o->opcode) {
	case VSEG_PAGING_OP_TRANSFER:
		err = paging_transfer(pg, o->dst, o->src, o->size, o->flags);
		break;
	case VSEG_PAGING_OP_FILL:
		err = paging_fill(pg, o->dst, (u32)o->src, o->size);
		break;
	case VSEG_PAGING_OP_DISCARD:
		/* The content is not kept: nothing to do. */
		err = 0;
		break;
	case VSEG_PAGING_OP_MAP_APERTURE:
		err = vseg_gart_map_run(gart, o->dst >> PAGE_SHIFT, o->src,
					o->size >> PAGE_SHIFT,
					o->flags & VSEG_PAGING_F_NEW_RANGE);
		break;
	case VSEG_PAGING_OP_UNMAP_APERTURE:
		err = vseg_gart_unmap_run(gart, o->dst >> PAGE_SHIFT,
					  o->size >> PAGE_SHIFT);
		break;
	case VSEG_PAGING_OP_CRYPT_CONTEXT:
		pg->crypt_base = o->dst;
		pg->crypt_nonce = o->src;
		err = 0;
		break;
	case VSEG_PAGING_OP_UPDATE_PT:
		err = paging_update_pt(pg, o->dst, o->src, o->size);
		break;
	case VSEG_PAGING_OP_FLUSH_TLB:
		pg->vdev->hw.ops->flush_tlb(&pg->vdev->hw);
		err = 0;
		break;
	default:
		return -EINVAL;
	}
	if (err)
		return err;
	atomic64_inc(&pg->executed[o->opcode]);
	if (o->opcode == VSEG_PAGING_OP_TRANSFER ||
	    o->opcode == VSEG_PAGING_OP_FILL)
		atomic64_add(o->size, &pg->bytes);
	return 0;
}

/* The engine: run a batch, free its room in the buffer. */
static int paging_run(struct vseg_job *job)
{
	struct vseg_paging_batch *b = container_of(job, typeof(*b), base);
	struct vseg_paging *pg = b->pg;
	struct vseg_paging_op op;
	u64 i, idx = b->first;
	int err = 0, ret;

	for (i = 0; i < b->count; i++) {
		struct vseg_client_stats *owner = pg->owners[idx];
		u64 start = ktime_get_ns();

		/* Read once: the buffer is write-combined memory. */
		op = pg->ops[idx];
		ret = paging_exec(pg, &op);
		if (ret) {
			atomic64_inc(&pg->failed);
			err = err ?: ret;
		}
		pg->owners[idx] = NULL;
		vseg_client_stats_add(owner, VSEG_ENGINE_PAGING,
				      ktime_get_ns() - start);
		vseg_client_stats_put(owner);
		if (++idx == pg->capacity)
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
 * engine and the caller waits for room. An UPDATE_PT's values (@src) are
 * the engine's from the call on, whatever it returns.
 *
 * Return: 0, or -ENOMEM (nothing of this operation was written); without
 * the engine (before the buffer exists), the error of running it.
 */
int vseg_paging_emit(struct vseg_paging *pg, u32 opcode, u32 flags, u64 dst,
		     u64 src, u64 size)
{
	struct vseg_paging_op op = paging_op(opcode, flags, dst, src, size);
	struct vseg_paging_pte_update *u = (void *)(uintptr_t)src;

	lockdep_assert_held(&pg->lock);
	if (!pg->ready)
		return paging_exec(pg, &op);
	if (!paging_room(pg)) {
		paging_flush(pg);
		atomic64_inc(&pg->full);
		wait_event(pg->room, paging_room(pg));
	}
	if (!pg->batch) {
		pg->batch = paging_batch_new(pg);
		if (!pg->batch) {
			/* An UPDATE_PT's values are taken whatever happens. */
			if (opcode == VSEG_PAGING_OP_UPDATE_PT && u)
				u->done(u);
			return -ENOMEM;
		}
	}
	pg->ops[pg->head % pg->capacity] = op;
	pg->owners[pg->head % pg->capacity] = vseg_client_stats_get(pg->owner);
	pg->head++;
	pg->batch->count++;
	return 0;
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
	return paging_exec(pg, &op);
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

/**
 * vseg_paging_show() - the paging buffer and engine, for debugfs
 *
 * One line; the page pool's figures (vseg_page_pool_show()) end it.
 * @pg: the paging state
 * @m: the file
 */
void vseg_paging_show(struct vseg_paging *pg, struct seq_file *m)
{
	static const char * const names[VSEG_PAGING_NUM_OPCODES] = {
		"transfer", "fill", "discard", "map", "unmap", "crypt",
		"update_pt", "flush_tlb",
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
	vseg_page_pool_show(m);
	seq_putc(m, '\n');
	mutex_unlock(&pg->lock);
}
