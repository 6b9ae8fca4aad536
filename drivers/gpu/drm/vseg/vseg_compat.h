/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Copyright (c) 2026 The vseg authors
 *
 * Every difference between the kernels vseg supports (6.1 LTS and 6.12 LTS)
 * lives here and nowhere else.
 */
#ifndef __VSEG_COMPAT_H__
#define __VSEG_COMPAT_H__

#include <linux/version.h>
#include <linux/log2.h>
#include <linux/dma-resv.h>
#include <drm/drm_buddy.h>
#include <drm/drm_gem.h>
#include <drm/drm_gem_ttm_helper.h>
#include <drm/ttm/ttm_placement.h>
#include <drm/ttm/ttm_resource.h>
#include <drm/ttm/ttm_tt.h>
#include <drm/ttm/ttm_device.h>

/* The only place that compares kernel versions. */
#define VSEG_KERNEL_AT_LEAST(maj, min) \
	(KERNEL_VERSION(maj, min, 0) <= LINUX_VERSION_CODE)

#if VSEG_KERNEL_AT_LEAST(6, 5)
#define VSEG_TTM_FUNCS_CONST const
#else
#define VSEG_TTM_FUNCS_CONST
#endif

/*
 * PRIME export, self-import and dma-buf mmap: DRM's defaults from 6.6 on;
 * 6.1 answers -ENOSYS unless the driver names DRM's helpers itself.
 */
#if VSEG_KERNEL_AT_LEAST(6, 6)
#define VSEG_DRM_DRIVER_PRIME
#else
#define VSEG_DRM_DRIVER_PRIME						\
	.prime_handle_to_fd = drm_gem_prime_handle_to_fd,		\
	.prime_fd_to_handle = drm_gem_prime_fd_to_handle,		\
	.gem_prime_mmap = drm_gem_prime_mmap,
#endif

/* Size of a TTM resource in bytes (6.1 counts pages). */
static inline u64 vseg_res_size(const struct ttm_resource *res)
{
#if VSEG_KERNEL_AT_LEAST(6, 2)
	return res->size;
#else
	return (u64)res->num_pages << PAGE_SHIFT;
#endif
}

/* Point a placement at its places; 6.1 tries only busy_placement with eviction. */
static inline void vseg_placement_set(struct ttm_placement *pl,
				      const struct ttm_place *places,
				      unsigned int num)
{
	pl->placement = places;
	pl->num_placement = num;
#if !VSEG_KERNEL_AT_LEAST(6, 9)
	pl->busy_placement = places;
	pl->num_busy_placement = num;
#endif
}

static inline void vseg_buddy_free_list(struct drm_buddy *mm,
					struct list_head *blocks)
{
#if VSEG_KERNEL_AT_LEAST(6, 9)
	drm_buddy_free_list(mm, blocks, 0);
#else
	drm_buddy_free_list(mm, blocks);
#endif
}

static inline int vseg_buddy_trim(struct drm_buddy *mm, u64 size,
				  struct list_head *blocks)
{
#if VSEG_KERNEL_AT_LEAST(6, 10)
	return drm_buddy_block_trim(mm, NULL, size, blocks);
#else
	return drm_buddy_block_trim(mm, size, blocks);
#endif
}

/**
 * vseg_buddy_alloc_contig() - allocate one contiguous range from a buddy
 * @mm: the allocator
 * @start: lowest offset the range may start at
 * @end: offset the range must end before
 * @size: bytes, a multiple of the chunk size
 * @align: alignment of the start, a power of two >= the chunk size
 * @blocks: list that receives the block(s)
 * @flags: DRM_BUDDY_RANGE_ALLOCATION / DRM_BUDDY_TOPDOWN_ALLOCATION
 *
 * 6.7+ has DRM_BUDDY_CONTIGUOUS_ALLOCATION, which also finds ranges that
 * straddle two power-of-two blocks, but it aligns to the rounded-up size
 * only. Otherwise (and on 6.1) one power-of-two block at least as large as
 * @size and @align is allocated and trimmed down to @size.
 *
 * Return: 0 or a negative error code.
 */
static inline int vseg_buddy_alloc_contig(struct drm_buddy *mm, u64 start,
					  u64 end, u64 size, u64 align,
					  struct list_head *blocks,
					  unsigned long flags)
{
	u64 pow2 = roundup_pow_of_two(max(size, align));
	int err;

#ifdef DRM_BUDDY_CONTIGUOUS_ALLOCATION
	if (align <= roundup_pow_of_two(size))
		return drm_buddy_alloc_blocks(mm, start, end, size, align,
					      blocks,
					      flags | DRM_BUDDY_CONTIGUOUS_ALLOCATION);
#endif
	if (pow2 > mm->size)
		return -ENOSPC;
	err = drm_buddy_alloc_blocks(mm, start, end, pow2, pow2, blocks, flags);
	if (err)
		return err;
	if (pow2 != size) {
		err = vseg_buddy_trim(mm, size, blocks);
		if (err) {
			vseg_buddy_free_list(mm, blocks);
			return err;
		}
	}
	return 0;
}

/* Places TTM may fill only without evicting anything (DESIRED from 6.9). */
static inline void vseg_placement_set_no_evict(struct ttm_placement *pl,
					       struct ttm_place *places,
					       unsigned int num)
{
#if VSEG_KERNEL_AT_LEAST(6, 9)
	unsigned int i;

	for (i = 0; i < num; i++)
		places[i].flags |= TTM_PL_FLAG_DESIRED;
	pl->placement = places;
	pl->num_placement = num;
#else
	pl->placement = places;
	pl->num_placement = num;
	pl->busy_placement = NULL;
	pl->num_busy_placement = 0;
#endif
}

/* Run TTM's deferred buffer destruction now (a work queue from 6.4 on). */
static inline void vseg_ttm_flush_deferred(struct ttm_device *bdev)
{
#if VSEG_KERNEL_AT_LEAST(6, 4)
	flush_workqueue(bdev->wq);
#else
	flush_delayed_work(&bdev->wq);
#endif
}

/* Populate a BO's ttm_tt (ttm_bo_populate() from 6.13 on). */
static inline int vseg_tt_populate(struct ttm_buffer_object *bo,
				   struct ttm_operation_ctx *ctx)
{
	return ttm_tt_populate(bo->bdev, bo->ttm, ctx);
}

/* Non-contiguous allocation; 6.1 wants the size aligned to min_block. */
static inline int vseg_buddy_alloc(struct drm_buddy *mm, u64 start, u64 end,
				   u64 size, u64 min_block,
				   struct list_head *blocks, unsigned long flags)
{
	return drm_buddy_alloc_blocks(mm, start, end, round_up(size, min_block),
				      min_block, blocks, flags);
}

/*
 * Submission locks a job's buffers through one helper: drm_exec where the
 * kernel has it (6.8 on: the three-argument drm_exec_init()), the same
 * wound-wait protocol by hand otherwise. vseg_exec_lock() locks all of
 * @objs (no duplicates) or none; vseg_exec_fini() unlocks them.
 */
#if VSEG_KERNEL_AT_LEAST(6, 8)
#include <drm/drm_exec.h>

struct vseg_exec {
	struct drm_exec exec;
};

static inline int vseg_exec_lock(struct vseg_exec *x,
				 struct drm_gem_object **objs, unsigned int n)
{
	unsigned int i;
	int err = 0;

	drm_exec_init(&x->exec, DRM_EXEC_INTERRUPTIBLE_WAIT, n);
	drm_exec_until_all_locked(&x->exec) {
		for (i = 0; i < n; i++) {
			err = drm_exec_lock_obj(&x->exec, objs[i]);
			drm_exec_retry_on_contention(&x->exec);
			if (err)
				break;
		}
	}
	if (err)
		drm_exec_fini(&x->exec);
	return err;
}

static inline void vseg_exec_fini(struct vseg_exec *x)
{
	drm_exec_fini(&x->exec);
}
#else
struct vseg_exec {
	struct ww_acquire_ctx ticket;
	struct drm_gem_object **objs;
	unsigned int num;
};

static inline void vseg_exec_unlock(struct vseg_exec *x, unsigned int n,
				    int skip)
{
	unsigned int i;

	for (i = 0; i < n; i++)
		if ((int)i != skip)
			dma_resv_unlock(x->objs[i]->resv);
}

static inline int vseg_exec_lock(struct vseg_exec *x,
				 struct drm_gem_object **objs, unsigned int n)
{
	int contended = -1, err = 0;
	unsigned int i;

	x->objs = objs;
	x->num = n;
	ww_acquire_init(&x->ticket, &reservation_ww_class);
retry:
	if (contended >= 0) {
		err = dma_resv_lock_slow_interruptible(objs[contended]->resv,
						       &x->ticket);
		if (err)
			goto fini;
	}
	for (i = 0; i < n; i++) {
		if ((int)i == contended)
			continue;
		err = dma_resv_lock_interruptible(objs[i]->resv, &x->ticket);
		if (!err)
			continue;
		vseg_exec_unlock(x, i, contended);
		if (contended >= 0)
			dma_resv_unlock(objs[contended]->resv);
		if (err != -EDEADLK)
			goto fini;
		contended = i;
		goto retry;
	}
	return 0;
fini:
	ww_acquire_fini(&x->ticket);
	return err;
}

static inline void vseg_exec_fini(struct vseg_exec *x)
{
	vseg_exec_unlock(x, x->num, -1);
	ww_acquire_fini(&x->ticket);
}
#endif

#endif /* __VSEG_COMPAT_H__ */
