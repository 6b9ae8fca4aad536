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
#include <linux/seq_file.h>
#include <linux/shrinker.h>
#include <linux/slab.h>
#include <drm/drm_buddy.h>
#include <drm/drm_drv.h>
#include <drm/drm_file.h>
#include <drm/drm_gem.h>
#include <drm/drm_print.h>
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

/*
 * fdinfo (Documentation/gpu/drm-usage-stats.rst): from 6.5 on DRM's
 * drm_show_fdinfo() (named by the driver's file operations) prints
 * drm-driver and drm-client-id and calls &drm_driver.show_fdinfo for the
 * rest (vseg_show_fdinfo()). 6.1 has neither: the file operations print
 * both keys by hand, the client id being the driver's own, then call the
 * same function.
 */
#if VSEG_KERNEL_AT_LEAST(6, 5)
#define VSEG_DRM_DRIVER_FDINFO	.show_fdinfo = vseg_show_fdinfo,
#define VSEG_DEFINE_FOPS(name)						\
static const struct file_operations name = {				\
	.owner = THIS_MODULE,						\
	DRM_GEM_FOPS,							\
	.show_fdinfo = drm_show_fdinfo,					\
}

/* DRM printed the client id already. */
static inline void vseg_fdinfo_client_id(struct drm_printer *p,
					 struct drm_file *file, u64 own_id)
{
}
#else
#define VSEG_DRM_DRIVER_FDINFO
#define VSEG_DEFINE_FOPS(name)						\
static void name##_show_fdinfo(struct seq_file *m, struct file *f)	\
{									\
	vseg_compat_show_fdinfo(m, f, vseg_show_fdinfo);		\
}									\
static const struct file_operations name = {				\
	.owner = THIS_MODULE,						\
	DRM_GEM_FOPS,							\
	.show_fdinfo = name##_show_fdinfo,				\
}

static inline void vseg_compat_show_fdinfo(struct seq_file *m, struct file *f,
					   void (*fn)(struct drm_printer *p,
						      struct drm_file *file))
{
	struct drm_file *file = f->private_data;
	struct drm_printer p = drm_seq_file_printer(m);

	drm_printf(&p, "drm-driver:\t%s\n", file->minor->dev->driver->name);
	fn(&p, file);
}

static inline void vseg_fdinfo_client_id(struct drm_printer *p,
					 struct drm_file *file, u64 own_id)
{
	drm_printf(p, "drm-client-id:\t%llu\n", own_id);
}
#endif

/*
 * DRM calls a GEM object's pin, unpin, vmap and vunmap with its reservation
 * held on 6.12 (drm_gem_pin(), dma_buf_vmap()); on 6.1 it calls them
 * without, and they take it themselves. These take it only where DRM does
 * not (the two kernels supported; the change came between them).
 */
#define VSEG_GEM_CALLBACKS_LOCKED	VSEG_KERNEL_AT_LEAST(6, 9)

static inline int vseg_gem_callback_lock(struct drm_gem_object *obj)
{
	if (VSEG_GEM_CALLBACKS_LOCKED)
		return 0;
	return dma_resv_lock_interruptible(obj->resv, NULL);
}

static inline void vseg_gem_callback_lock_uninterruptible(struct drm_gem_object *obj)
{
	if (!VSEG_GEM_CALLBACKS_LOCKED)
		dma_resv_lock(obj->resv, NULL);
}

static inline void vseg_gem_callback_unlock(struct drm_gem_object *obj)
{
	if (!VSEG_GEM_CALLBACKS_LOCKED)
		dma_resv_unlock(obj->resv);
}

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

/* A registered shrinker with @count and @scan (shrinker_alloc() from 6.7 on). */
static inline struct shrinker *
vseg_shrinker_create(const char *name,
		     unsigned long (*count)(struct shrinker *,
					    struct shrink_control *),
		     unsigned long (*scan)(struct shrinker *,
					   struct shrink_control *))
{
#if VSEG_KERNEL_AT_LEAST(6, 7)
	struct shrinker *s = shrinker_alloc(0, "%s", name);

	if (!s)
		return NULL;
	s->count_objects = count;
	s->scan_objects = scan;
	shrinker_register(s);
	return s;
#else
	struct shrinker *s = kzalloc(sizeof(*s), GFP_KERNEL);

	if (!s)
		return NULL;
	s->count_objects = count;
	s->scan_objects = scan;
	s->seeks = DEFAULT_SEEKS;
	if (register_shrinker(s, "%s", name)) {
		kfree(s);
		return NULL;
	}
	return s;
#endif
}

static inline void vseg_shrinker_destroy(struct shrinker *s)
{
#if VSEG_KERNEL_AT_LEAST(6, 7)
	shrinker_free(s);
#else
	if (s) {
		unregister_shrinker(s);
		kfree(s);
	}
#endif
}

/*
 * drm_sched. Its API changed inside stable series (Debian's 6.12.95 and
 * 6.12.117 differ), so the tests are on the headers themselves, made by
 * the Makefile (VSEG_HAVE_*), not on version numbers:
 * - drm_sched_init() takes a &struct drm_sched_init_args (6.12.117, 6.15);
 * - drm_sched_job_init() takes the DRM client id (6.12.117, 6.16);
 * - drm_sched_start() takes the error of the jobs it cancels (6.13);
 * - the timedout handler's "reset done" status is
 *   DRM_GPU_SCHED_STAT_RESET, formerly DRM_GPU_SCHED_STAT_NOMINAL (6.17).
 */
#include <drm/gpu_scheduler.h>

static inline int vseg_drm_sched_init(struct drm_gpu_scheduler *sched,
				      const struct drm_sched_backend_ops *ops,
				      u32 credits, long timeout,
				      const char *name, struct device *dev)
{
#ifdef VSEG_HAVE_SCHED_INIT_ARGS
	const struct drm_sched_init_args args = {
		.ops = ops,
		.num_rqs = DRM_SCHED_PRIORITY_COUNT,
		.credit_limit = credits,
		.timeout = timeout,
		.name = name,
		.dev = dev,
	};

	return drm_sched_init(sched, &args);
#else
	return drm_sched_init(sched, ops, NULL, DRM_SCHED_PRIORITY_COUNT,
			      credits, 0, timeout, NULL, NULL, name, dev);
#endif
}

static inline int vseg_drm_sched_job_init(struct drm_sched_job *job,
					  struct drm_sched_entity *entity,
					  u32 credits, void *owner,
					  u64 client_id)
{
#ifdef VSEG_HAVE_SCHED_CLIENT_ID
	return drm_sched_job_init(job, entity, credits, owner, client_id);
#else
	return drm_sched_job_init(job, entity, credits, owner);
#endif
}

static inline void vseg_drm_sched_start(struct drm_gpu_scheduler *sched)
{
#ifdef VSEG_HAVE_SCHED_START_ERRNO
	drm_sched_start(sched, 0);
#else
	drm_sched_start(sched);
#endif
}

#ifdef VSEG_HAVE_SCHED_STAT_RESET
#define VSEG_DRM_GPU_SCHED_STAT_RESET	DRM_GPU_SCHED_STAT_RESET
#else
#define VSEG_DRM_GPU_SCHED_STAT_RESET	DRM_GPU_SCHED_STAT_NOMINAL
#endif

/*
 * drm_gpuvm. A GEM object's list of mappings is protected by its own
 * mutex, which may be taken in the fence signalling path (binds are
 * applied there): 7.3 has one in every GEM object, used when the VA
 * manager is in DRM_GPUVM_IMMEDIATE_MODE; 6.12 protects the list with the
 * object's reservation unless the driver names another lock
 * (drm_gem_gpuva_set_lock(), which vseg does, with a mutex of the buffer)
 * and asks for the list at all (DRIVER_GEM_GPUVA). drm_gpuvm_sm_map()
 * takes a &struct drm_gpuvm_map_req from 6.17 on.
 */
#include <drm/drm_gpuvm.h>

#ifdef VSEG_HAVE_GPUVM_IMMEDIATE_MODE
#define VSEG_GPUVM_FLAGS		DRM_GPUVM_IMMEDIATE_MODE
#define VSEG_DRIVER_GEM_GPUVA		0
static inline struct mutex *vseg_gpuva_lock_of(struct drm_gem_object *obj,
					       struct mutex *own)
{
	return &obj->gpuva.lock;
}

static inline void vseg_gpuva_lock_init(struct drm_gem_object *obj,
					struct mutex *own)
{
	mutex_init(own);	/* unused: the object has its own */
}
#else
#define VSEG_GPUVM_FLAGS		0
#define VSEG_DRIVER_GEM_GPUVA		DRIVER_GEM_GPUVA
static inline struct mutex *vseg_gpuva_lock_of(struct drm_gem_object *obj,
					       struct mutex *own)
{
	return own;
}

static inline void vseg_gpuva_lock_init(struct drm_gem_object *obj,
					struct mutex *own)
{
	mutex_init(own);
	drm_gem_gpuva_set_lock(obj, own);
}
#endif

static inline int vseg_drm_gpuvm_sm_map(struct drm_gpuvm *gpuvm, void *priv,
					u64 addr, u64 range,
					struct drm_gem_object *obj, u64 offset)
{
#ifdef VSEG_HAVE_GPUVM_MAP_REQ
	const struct drm_gpuvm_map_req req = {
		.map.va.addr = addr,
		.map.va.range = range,
		.map.gem.obj = obj,
		.map.gem.offset = offset,
	};

	return drm_gpuvm_sm_map(gpuvm, priv, &req);
#else
	return drm_gpuvm_sm_map(gpuvm, priv, addr, range, obj, offset);
#endif
}

/*
 * fdinfo: DRM's memory-stats helper prints drm-active only for drivers
 * that say they know it (DRM_GEM_OBJECT_ACTIVE, 6.15); 6.12 always does.
 */
#ifdef VSEG_HAVE_GEM_OBJECT_ACTIVE
#define VSEG_DRM_GEM_OBJECT_ACTIVE	DRM_GEM_OBJECT_ACTIVE
#else
#define VSEG_DRM_GEM_OBJECT_ACTIVE	0
#endif

#endif /* __VSEG_COMPAT_H__ */
