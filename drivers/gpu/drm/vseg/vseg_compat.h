/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Copyright (c) 2026 The vseg authors
 *
 * Every difference between the kernels vseg supports (6.12 LTS and 7.3)
 * lives here and nowhere else. A difference is told by a feature test
 * where the kernel offers one (#ifdef of a macro that came with the
 * change); VSEG_KERNEL_AT_LEAST() only where none exists. Gates marked
 * "(7, 3)" are exact for the pair 6.12/7.3 only: the change came in an
 * earlier release not pinned here, so re-check them before supporting a
 * kernel in between.
 */
#ifndef __VSEG_COMPAT_H__
#define __VSEG_COMPAT_H__

#include <linux/version.h>
#include <linux/hrtimer.h>
#include <linux/log2.h>
#include <linux/dma-resv.h>
#include <linux/seq_file.h>
#include <linux/shrinker.h>
#include <linux/slab.h>
#include <crypto/blake2s.h>
#include <drm/drm_buddy.h>
#include <drm/drm_drv.h>
#include <drm/drm_file.h>
#include <drm/drm_gem.h>
#include <drm/drm_print.h>
#include <drm/drm_probe_helper.h>
#include <drm/drm_gem_ttm_helper.h>
#include <drm/ttm/ttm_bo.h>
#include <drm/ttm/ttm_placement.h>
#include <drm/ttm/ttm_resource.h>
#include <drm/ttm/ttm_tt.h>
#include <drm/ttm/ttm_device.h>

/*
 * Feature tests are macros the headers above define on one kernel only
 * (not __has_include(): Debian 12's sparse does not know it).
 */
#ifdef TTM_ALLOCATION_POOL_USE_DMA_ALLOC	/* <drm/ttm/ttm_allocation.h> */
#define VSEG_TTM_ALLOC_FLAGS
#endif
#ifdef GPU_BUDDY_RANGE_ALLOCATION		/* <linux/gpu_buddy.h> */
#define VSEG_GPU_BUDDY
#endif

/* The only place that compares kernel versions. */
#define VSEG_KERNEL_AT_LEAST(maj, min) \
	(KERNEL_VERSION(maj, min, 0) <= LINUX_VERSION_CODE)

#define VSEG_TTM_FUNCS_CONST const

/*
 * drm_buddy became gpu_buddy (<linux/gpu_buddy.h>, built in, included by
 * <drm/drm_buddy.h>, which keeps only drm_buddy_print() and
 * drm_buddy_block_print()): vseg is written against the drm_buddy names,
 * mapped here. Every file that uses the buddy allocator includes this
 * header (not <drm/drm_buddy.h>) first.
 */
#ifdef VSEG_GPU_BUDDY
#define drm_buddy			gpu_buddy
#define drm_buddy_block			gpu_buddy_block
#define drm_buddy_init			gpu_buddy_init
#define drm_buddy_fini			gpu_buddy_fini
#define drm_buddy_alloc_blocks		gpu_buddy_alloc_blocks
#define drm_buddy_free_list		gpu_buddy_free_list
#define drm_buddy_block_trim		gpu_buddy_block_trim
#define drm_buddy_block_offset		gpu_buddy_block_offset
#define drm_buddy_block_size		gpu_buddy_block_size
#define DRM_BUDDY_RANGE_ALLOCATION	GPU_BUDDY_RANGE_ALLOCATION
#define DRM_BUDDY_TOPDOWN_ALLOCATION	GPU_BUDDY_TOPDOWN_ALLOCATION
#define DRM_BUDDY_CONTIGUOUS_ALLOCATION	GPU_BUDDY_CONTIGUOUS_ALLOCATION
#endif

/*
 * ttm_device_init(): two bools (use_dma_alloc, use_dma32) became one
 * alloc_flags word (<drm/ttm/ttm_allocation.h>, included by
 * <drm/ttm/ttm_device.h>). vseg wants neither.
 */
static inline int vseg_ttm_device_init(struct ttm_device *bdev,
				       const struct ttm_device_funcs *funcs,
				       struct device *dev,
				       struct address_space *mapping,
				       struct drm_vma_offset_manager *vma)
{
#ifdef VSEG_TTM_ALLOC_FLAGS
	return ttm_device_init(bdev, funcs, dev, mapping, vma, 0);
#else
	return ttm_device_init(bdev, funcs, dev, mapping, vma, false, false);
#endif
}

/*
 * Drop a reference to a TTM buffer: ttm_bo_put() is gone in 7.3, where
 * ttm_bo_fini() drops the last one (still a kref inside). (7, 3)
 */
static inline void vseg_ttm_bo_put(struct ttm_buffer_object *bo)
{
#if VSEG_KERNEL_AT_LEAST(7, 3)
	ttm_bo_fini(bo);
#else
	ttm_bo_put(bo);
#endif
}

/*
 * &drm_driver.date is gone (6.14); 6.12 still has it and WARNs in
 * DRM_IOCTL_VERSION when it is NULL.
 */
#if VSEG_KERNEL_AT_LEAST(6, 14)
#define VSEG_DRM_DRIVER_DATE(d)
#else
#define VSEG_DRM_DRIVER_DATE(d)	.date = (d),
#endif

/*
 * Keyed BLAKE2s in one call: 7.3 takes (key, keylen, in, inlen, out,
 * outlen), 6.12 (out, in, key, outlen, inlen, keylen). (7, 3)
 */
static inline void vseg_blake2s(u8 *out, size_t outlen, const u8 *in,
				size_t inlen, const u8 *key, size_t keylen)
{
#if VSEG_KERNEL_AT_LEAST(7, 3)
	blake2s(key, keylen, in, inlen, out, outlen);
#else
	blake2s(out, in, key, outlen, inlen, keylen);
#endif
}

/*
 * PRIME export, self-import and dma-buf mmap are DRM's defaults on every
 * supported kernel: nothing to name.
 */
#define VSEG_DRM_DRIVER_PRIME

/*
 * fdinfo (Documentation/gpu/drm-usage-stats.rst): DRM's drm_show_fdinfo()
 * (named by the driver's file operations) prints drm-driver and
 * drm-client-id (7.3: and drm-client-name when userspace set one) and
 * calls &drm_driver.show_fdinfo for the rest (vseg_show_fdinfo()).
 */
#define VSEG_DRM_DRIVER_FDINFO	.show_fdinfo = vseg_show_fdinfo,
#define VSEG_DEFINE_FOPS(name)						\
static const struct file_operations name = {				\
	.owner = THIS_MODULE,						\
	DRM_GEM_FOPS,							\
	.show_fdinfo = drm_show_fdinfo,					\
}

/*
 * DRM calls a GEM object's pin, unpin, vmap and vunmap with its reservation
 * held on every supported kernel (drm_gem_pin(), dma_buf_vmap()); these
 * wrappers stay for the callbacks' symmetry and take nothing.
 */
#define VSEG_GEM_CALLBACKS_LOCKED	1

static inline int vseg_gem_callback_lock(struct drm_gem_object *obj)
{
	return 0;
}

static inline void vseg_gem_callback_lock_uninterruptible(struct drm_gem_object *obj)
{
}

static inline void vseg_gem_callback_unlock(struct drm_gem_object *obj)
{
}

/* Size of a TTM resource in bytes. */
static inline u64 vseg_res_size(const struct ttm_resource *res)
{
	return res->size;
}

/* Point a placement at its places. */
static inline void vseg_placement_set(struct ttm_placement *pl,
				      const struct ttm_place *places,
				      unsigned int num)
{
	pl->placement = places;
	pl->num_placement = num;
}

static inline void vseg_buddy_free_list(struct drm_buddy *mm,
					struct list_head *blocks)
{
	drm_buddy_free_list(mm, blocks, 0);
}

static inline int vseg_buddy_trim(struct drm_buddy *mm, u64 size,
				  struct list_head *blocks)
{
	return drm_buddy_block_trim(mm, NULL, size, blocks);
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
 * DRM_BUDDY_CONTIGUOUS_ALLOCATION also finds ranges that straddle two
 * power-of-two blocks, but it aligns to the rounded-up size only. For a
 * larger alignment one power-of-two block at least as large as @size and
 * @align is allocated and trimmed down to @size.
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

	if (align <= roundup_pow_of_two(size))
		return drm_buddy_alloc_blocks(mm, start, end, size, align,
					      blocks,
					      flags | DRM_BUDDY_CONTIGUOUS_ALLOCATION);
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

/* Places TTM may fill only without evicting anything. */
static inline void vseg_placement_set_no_evict(struct ttm_placement *pl,
					       struct ttm_place *places,
					       unsigned int num)
{
	unsigned int i;

	for (i = 0; i < num; i++)
		places[i].flags |= TTM_PL_FLAG_DESIRED;
	pl->placement = places;
	pl->num_placement = num;
}

/* Run TTM's deferred buffer destruction now. */
static inline void vseg_ttm_flush_deferred(struct ttm_device *bdev)
{
	flush_workqueue(bdev->wq);
}

/*
 * Populate a BO's ttm_tt: ttm_bo_populate() (6.13) also brings back a tt
 * the TTM shrinker backed up; 7.3 exports ttm_tt_populate() only to its
 * KUnit tests.
 */
static inline int vseg_tt_populate(struct ttm_buffer_object *bo,
				   struct ttm_operation_ctx *ctx)
{
#if VSEG_KERNEL_AT_LEAST(6, 13)
	return ttm_bo_populate(bo, ctx);
#else
	return ttm_tt_populate(bo->bdev, bo->ttm, ctx);
#endif
}

/* Non-contiguous allocation of whole @min_block blocks. */
static inline int vseg_buddy_alloc(struct drm_buddy *mm, u64 start, u64 end,
				   u64 size, u64 min_block,
				   struct list_head *blocks, unsigned long flags)
{
	return drm_buddy_alloc_blocks(mm, start, end, round_up(size, min_block),
				      min_block, blocks, flags);
}

/* A registered shrinker with @count and @scan. */
static inline struct shrinker *
vseg_shrinker_create(const char *name,
		     unsigned long (*count)(struct shrinker *,
					    struct shrink_control *),
		     unsigned long (*scan)(struct shrinker *,
					   struct shrink_control *))
{
	struct shrinker *s = shrinker_alloc(0, "%s", name);

	if (!s)
		return NULL;
	s->count_objects = count;
	s->scan_objects = scan;
	shrinker_register(s);
	return s;
}

static inline void vseg_shrinker_destroy(struct shrinker *s)
{
	shrinker_free(s);
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

/* 7.3 takes the object's gpuva lock itself. */
static inline struct drm_gpuvm_bo *
vseg_gpuvm_bo_obtain_prealloc(struct drm_gpuvm_bo *vm_bo, struct mutex *lock)
{
	return drm_gpuvm_bo_obtain_prealloc(vm_bo);
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

/* 6.12 expects the caller to hold the object's gpuva lock. */
static inline struct drm_gpuvm_bo *
vseg_gpuvm_bo_obtain_prealloc(struct drm_gpuvm_bo *vm_bo, struct mutex *lock)
{
	struct drm_gpuvm_bo *found;

	mutex_lock(lock);
	found = drm_gpuvm_bo_obtain_prealloc(vm_bo);
	mutex_unlock(lock);
	return found;
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

/*
 * The system's unbound workqueue: system_dfl_wq where the kernel has it
 * (it warns of work queued on system_unbound_wq, its old name).
 */
#include <linux/workqueue.h>

static inline struct workqueue_struct *vseg_system_dfl_wq(void)
{
#ifdef VSEG_HAVE_SYSTEM_DFL_WQ
	return system_dfl_wq;
#else
	return system_unbound_wq;
#endif
}

/*
 * KMS (vseg_kms.c, vseg_crtc.c, vseg_plane.c). vseg is written against
 * struct drm_atomic_state; 7.3 calls it struct drm_atomic_commit (the
 * function drm_atomic_commit() keeps its name, the helpers vseg uses take
 * the struct by pointer only).
 */
#ifdef VSEG_HAVE_ATOMIC_COMMIT
#define drm_atomic_state drm_atomic_commit
#endif

/*
 * &drm_mode_config_funcs.fb_create, and drm_gem_fb_create(), gained the
 * format's info (<=7.2): VSEG_FB_CREATE_INFO_ARG is the extra parameter,
 * VSEG_FB_CREATE_INFO the argument passed on.
 */
#ifdef VSEG_HAVE_FB_CREATE_INFO
#define VSEG_FB_CREATE_INFO_ARG	const struct drm_format_info *info,
#define VSEG_FB_CREATE_INFO	info,
#else
#define VSEG_FB_CREATE_INFO_ARG
#define VSEG_FB_CREATE_INFO
#endif

/*
 * &drm_connector_helper_funcs.mode_valid takes a const mode (6.15):
 * VSEG_MODE_VALID_CONST is that const, or nothing.
 */
#if VSEG_KERNEL_AT_LEAST(6, 15)
#define VSEG_MODE_VALID_CONST	const
#else
#define VSEG_MODE_VALID_CONST
#endif

/* A monotonic relative hrtimer calling @fn (hrtimer_setup(), 6.13). */
static inline void vseg_hrtimer_setup(struct hrtimer *t,
				      enum hrtimer_restart (*fn)(struct hrtimer *))
{
#ifdef VSEG_HAVE_HRTIMER_SETUP
	hrtimer_setup(t, fn, CLOCK_MONOTONIC, HRTIMER_MODE_REL);
#else
	hrtimer_init(t, CLOCK_MONOTONIC, HRTIMER_MODE_REL);
	t->function = fn;
#endif
}

/* Output polling for the mode-config helpers (6.12 returns an error). */
static inline int vseg_kms_poll_init(struct drm_device *drm)
{
#ifdef VSEG_HAVE_POLL_INIT_VOID
	drmm_kms_helper_poll_init(drm);
	return 0;
#else
	return drmm_kms_helper_poll_init(drm);
#endif
}

/*
 * fbdev emulation of a TTM driver: &drm_driver.fbdev_probe set by
 * DRM_FBDEV_TTM_DRIVER_OPS on both kernels. 7.3 starts the in-kernel
 * clients with drm_client_setup() from <drm/clients/>; 6.12 with
 * drm_fbdev_ttm_setup() (its drm_client_setup() exists too, but TTM
 * drivers of 6.12 call this one).
 */
#include <drm/drm_fbdev_ttm.h>
#ifdef VSEG_HAVE_CLIENTS_DIR
#include <drm/clients/drm_client_setup.h>
static inline void vseg_fbdev_setup(struct drm_device *drm)
{
	drm_client_setup(drm, NULL);
}
#else
static inline void vseg_fbdev_setup(struct drm_device *drm)
{
	drm_fbdev_ttm_setup(drm, 0);
}
#endif

/*
 * The dmem cgroup controller: a region per TTM manager, registered with a
 * struct dmem_cgroup_init (7.3; 6.12 has no controller). The region is NULL
 * where the kernel builds the controller out; elsewhere charging it is
 * dmem's own try_charge/uncharge pair. (feature test)
 */
struct dmem_cgroup_pool_state;
struct dmem_cgroup_region;
#ifdef VSEG_HAVE_TTM_DMEM_REGION
#include <linux/cgroup_dmem.h>
#include <drm/drm_drv.h>
#include <drm/ttm/ttm_resource.h>

static inline struct dmem_cgroup_region *
vseg_dmem_register_region(struct drm_device *drm, const char *name,
			  struct ttm_resource_manager *man, u64 size)
{
	static const struct dmem_cgroup_ops ops = {
		.reclaim = ttm_resource_manager_dmem_reclaim,
	};
	struct dmem_cgroup_init init = {
		.size = size,
		.ops = &ops,
		.reclaim_priv = man,
	};
	struct dmem_cgroup_region *region;

	region = drmm_cgroup_register_region(drm, name, &init);
	ttm_resource_manager_set_dmem_region(man, region);
	return region;
}

static inline int vseg_dmem_try_charge(struct dmem_cgroup_region *region,
				       u64 size,
				       struct dmem_cgroup_pool_state **pool)
{
	return dmem_cgroup_try_charge(region, size, pool, NULL);
}

static inline void vseg_dmem_uncharge(struct dmem_cgroup_pool_state *pool,
				      u64 size)
{
	dmem_cgroup_uncharge(pool, size);
}
#else
static inline struct dmem_cgroup_region *
vseg_dmem_register_region(struct drm_device *drm, const char *name,
			  struct ttm_resource_manager *man, u64 size)
{
	return NULL;
}

static inline int vseg_dmem_try_charge(struct dmem_cgroup_region *region,
				       u64 size,
				       struct dmem_cgroup_pool_state **pool)
{
	*pool = NULL;
	return 0;
}

static inline void vseg_dmem_uncharge(struct dmem_cgroup_pool_state *pool,
				      u64 size)
{
}
#endif

#endif /* __VSEG_COMPAT_H__ */
