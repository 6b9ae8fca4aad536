// SPDX-License-Identifier: GPL-2.0-only
/*
 * Copyright (c) 2026 The vseg authors
 *
 * TTM glue: the TTM device, its callbacks, and the segment table's memory
 * types (vseg_layout_init() decides which type stands for which segment):
 *
 *   segment 0 (system)      -> TTM_PL_SYSTEM, registered by TTM itself
 *   the aperture segment    -> TTM_PL_TT, vseg_aperture_mgr (commit limit
 *                              and software GART)
 *   memory segment k (0..5) -> TTM_PL_VRAM for k == 0, else TTM_PL_PRIV +
 *                              k - 1, each with its own vseg_vram_mgr
 */

#include <linux/slab.h>
#include <drm/drm_drv.h>
#include <drm/drm_file.h>
#include <drm/drm_managed.h>
#include <drm/ttm/ttm_tt.h>

#include "vseg_aperture_mgr.h"
#include "vseg_bo.h"
#include "vseg_compat.h"
#include "vseg_device_types.h"
#include "vseg_gart.h"
#include "vseg_res_cursor.h"
#include "vseg_ttm.h"
#include "vseg_vram_mgr.h"

static struct ttm_tt *vseg_ttm_tt_create(struct ttm_buffer_object *bo,
					 u32 page_flags)
{
	struct ttm_tt *tt;

	tt = kzalloc(sizeof(*tt), GFP_KERNEL);
	if (!tt)
		return NULL;
	/* Buffers start zeroed wherever they first land. */
	if (ttm_tt_init(tt, bo, page_flags | TTM_TT_FLAG_ZERO_ALLOC,
			ttm_cached, 0)) {
		kfree(tt);
		return NULL;
	}
	return tt;
}

static void vseg_ttm_tt_destroy(struct ttm_device *bdev, struct ttm_tt *tt)
{
	ttm_tt_fini(tt);
	kfree(tt);
}

static const struct ttm_place vseg_sys_place = {
	.mem_type = TTM_PL_SYSTEM,
};

static void vseg_ttm_evict_flags(struct ttm_buffer_object *bo,
				 struct ttm_placement *placement)
{
	struct vseg_bo *vbo;
	unsigned int n;

	if (!vseg_is_vseg_bo(bo) || !bo->resource) {
		vseg_placement_set(placement, &vseg_sys_place, 1);
		return;
	}
	vbo = to_vseg_bo(bo);
	n = vseg_place_evict(&bdev_to_vseg(bo->bdev)->layout, &vbo->params,
			     bo->resource->mem_type, vbo->evict_places);
	vseg_placement_set(placement, vbo->evict_places, n);
}

static bool res_uses_pages(const struct ttm_resource *res)
{
	return !res || res->mem_type == TTM_PL_SYSTEM ||
	       res->mem_type == TTM_PL_TT;
}

static struct vseg_vram_mgr *res_vram(struct vseg_device *vdev,
				      const struct ttm_resource *res)
{
	return vseg_vram(vdev, vseg_mem_type_to_seg(vdev, res->mem_type));
}

/**
 * vseg_count() - count a paging operation on the segment of a placement
 * @vdev: the device
 * @res: the placement
 * @op: VSEG_PAGING_*
 */
void vseg_count(struct vseg_device *vdev, const struct ttm_resource *res,
		enum vseg_paging_op op)
{
	atomic64_inc(&vdev->paging[vseg_mem_type_to_seg(vdev, res->mem_type)].op[op]);
}

/* Copy @size bytes from one placement to another. */
static int vseg_copy(struct vseg_cursor *dst, struct vseg_cursor *src,
		     u64 size)
{
	u64 off = 0, dlen, slen, n;
	void *d, *s;

	while (off < size) {
		d = vseg_cursor_map(dst, off, &dlen, true);
		if (!d)
			return -ENOMEM;
		s = vseg_cursor_map(src, off, &slen, false);
		n = min3(dlen, slen, size - off);
		memcpy(d, s, n);
		vseg_cursor_unmap(src);
		vseg_cursor_unmap(dst);
		off += n;
	}
	return 0;
}

/* System memory <-> aperture: the pages stay, only the GART changes. */
static int move_pages(struct vseg_device *vdev, struct ttm_buffer_object *bo,
		      struct ttm_resource *new_mem)
{
	int err;

	vseg_aperture_unbind(&vdev->aperture, bo->resource);
	err = vseg_aperture_bind(&vdev->aperture, new_mem, bo->ttm);
	if (err)
		return err;
	ttm_bo_move_null(bo, new_mem);
	return 0;
}

/* Into or out of a memory segment: copy (or clear) through cursors. */
static int move_copy(struct vseg_device *vdev, struct ttm_buffer_object *bo,
		     struct ttm_operation_ctx *ctx,
		     struct ttm_resource *new_mem)
{
	struct ttm_resource *old = bo->resource;
	struct vseg_cursor src, dst;
	bool has_content;
	int err;

	if (bo->ttm && (res_uses_pages(new_mem) ||
			(bo->ttm->page_flags & TTM_TT_FLAG_SWAPPED))) {
		err = vseg_tt_populate(bo, ctx);
		if (err)
			return err;
	}
	has_content = !res_uses_pages(old) ||
		      (bo->ttm && ttm_tt_is_populated(bo->ttm));

	vseg_cursor_init(&dst, vdev, bo->ttm, new_mem);
	if (has_content) {
		vseg_cursor_init(&src, vdev, bo->ttm, old);
		err = vseg_copy(&dst, &src, bo->base.size);
		if (err)
			return err;
		vseg_count(vdev, old, VSEG_PAGING_TRANSFERS);
		vseg_count(vdev, new_mem, VSEG_PAGING_TRANSFERS);
	} else if (!res_uses_pages(new_mem)) {
		/* Freed segment memory reads zero already: nothing to clear. */
		vseg_count(vdev, new_mem, VSEG_PAGING_FILLS);
	}
	err = vseg_aperture_bind(&vdev->aperture, new_mem, bo->ttm);
	if (err)
		return err;
	/* The old pages go before the old resource: unmap them first. */
	vseg_aperture_unbind(&vdev->aperture, old);
	ttm_bo_move_sync_cleanup(bo, new_mem);
	return 0;
}

static int vseg_ttm_move(struct ttm_buffer_object *bo, bool evict,
			 struct ttm_operation_ctx *ctx,
			 struct ttm_resource *new_mem,
			 struct ttm_place *hop)
{
	struct vseg_device *vdev = bdev_to_vseg(bo->bdev);
	struct ttm_resource *old = bo->resource;
	int err;

	/* Queued jobs may use the buffer where it is: let them finish. */
	if (old) {
		err = ttm_bo_wait_ctx(bo, ctx);
		if (err)
			return err;
	}
	if (res_uses_pages(old) && res_uses_pages(new_mem))
		err = move_pages(vdev, bo, new_mem);
	else
		err = move_copy(vdev, bo, ctx, new_mem);
	if (err)
		return err;
	if (vseg_is_vseg_bo(bo))
		vseg_bo_update_state(to_vseg_bo(bo), bo->resource,
				     evict && old);
	return 0;
}

static void vseg_ttm_delete_mem_notify(struct ttm_buffer_object *bo)
{
	struct vseg_device *vdev = bdev_to_vseg(bo->bdev);

	/* Called before the pages are freed: no GART entry may survive. */
	vseg_aperture_unbind(&vdev->aperture, bo->resource);
	/* The contents go away with the buffer: a discard. */
	if (bo->resource)
		vseg_count(vdev, bo->resource, VSEG_PAGING_DISCARDS);
	if (vseg_is_vseg_bo(bo))
		vseg_bo_update_state(to_vseg_bo(bo), NULL, false);
}

static int vseg_ttm_io_mem_reserve(struct ttm_device *bdev,
				   struct ttm_resource *mem)
{
	if (res_uses_pages(mem))
		return 0;
	/*
	 * Segment memory is system pages here, allocated as it is written:
	 * cached, reached page by page through io_mem_pfn, never linear.
	 */
	mem->bus.is_iomem = true;
	mem->bus.caching = ttm_cached;
	mem->bus.offset = 0;
	mem->bus.addr = NULL;
	return 0;
}

static unsigned long vseg_ttm_io_mem_pfn(struct ttm_buffer_object *bo,
					 unsigned long page_offset)
{
	struct vseg_device *vdev = bdev_to_vseg(bo->bdev);

	/* The fault backed the pages it maps (vseg_gem.c). */
	return vseg_vram_pfn(res_vram(vdev, bo->resource),
			     vseg_cursor_vram_offset(vdev, bo->resource,
						     (u64)page_offset <<
						     PAGE_SHIFT));
}

static int vseg_ttm_access_memory(struct ttm_buffer_object *bo,
				  unsigned long offset, void *buf, int len,
				  int write)
{
	struct vseg_device *vdev = bdev_to_vseg(bo->bdev);
	struct vseg_cursor c;
	u64 done = 0, n;
	void *p;

	if (res_uses_pages(bo->resource))
		return -EIO;
	vseg_cursor_init(&c, vdev, bo->ttm, bo->resource);
	while (done < (u64)len) {
		p = vseg_cursor_map(&c, offset + done, &n, write);
		if (!p)
			return done ? done : -ENOMEM;
		n = min_t(u64, n, (u64)len - done);
		if (write)
			memcpy(p, buf + done, n);
		else
			memcpy(buf + done, p, n);
		vseg_cursor_unmap(&c);
		done += n;
	}
	return len;
}

static VSEG_TTM_FUNCS_CONST struct ttm_device_funcs vseg_ttm_funcs = {
	.ttm_tt_create = vseg_ttm_tt_create,
	.ttm_tt_destroy = vseg_ttm_tt_destroy,
	.eviction_valuable = ttm_bo_eviction_valuable,
	.evict_flags = vseg_ttm_evict_flags,
	.move = vseg_ttm_move,
	.delete_mem_notify = vseg_ttm_delete_mem_notify,
	.io_mem_reserve = vseg_ttm_io_mem_reserve,
	.io_mem_pfn = vseg_ttm_io_mem_pfn,
	.access_memory = vseg_ttm_access_memory,
};

/**
 * vseg_ttm_mem_type_name() - name of a TTM memory type, for dumps
 * @mem_type: TTM_PL_*
 *
 * Return: "SYSTEM", "TT", "VRAM" or "PRIVn".
 */
const char *vseg_ttm_mem_type_name(u32 mem_type)
{
	static const char * const names[TTM_NUM_MEM_TYPES] = {
		"SYSTEM", "TT", "VRAM", "PRIV0", "PRIV1", "PRIV2", "PRIV3",
		"PRIV4",
	};

	return mem_type < TTM_NUM_MEM_TYPES ? names[mem_type] : "?";
}

static void ttm_device_release(struct drm_device *drm, void *arg)
{
	struct vseg_device *vdev = arg;

	ttm_device_fini(&vdev->bdev);
	if (vdev->num_bos)
		drm_err(&vdev->drm, "leak: %llu buffers still alive\n",
			vdev->num_bos);
}

/*
 * Buffers released while a job still used them go before the managers:
 * registered after them, so it runs first at release.
 */
static void ttm_deferred_release(struct drm_device *drm, void *arg)
{
	vseg_ttm_flush_deferred(arg);
}

/**
 * vseg_ttm_init() - create the TTM device and one manager per segment
 * @vdev: the device, with a validated table
 *
 * Everything is torn down with the DRM device (drmm actions, in reverse).
 *
 * Return: 0 or a negative error code.
 */
int vseg_ttm_init(struct vseg_device *vdev)
{
	struct drm_device *drm = &vdev->drm;
	unsigned int i;
	int err;

	vseg_layout_init(&vdev->layout, &vdev->table);
	err = ttm_device_init(&vdev->bdev, &vseg_ttm_funcs, drm->dev,
			      drm->anon_inode->i_mapping,
			      drm->vma_offset_manager, false, false);
	if (err)
		return err;
	err = drmm_add_action_or_reset(drm, ttm_device_release, vdev);
	if (err)
		return err;

	for (i = 0; i < vdev->table.num_segments; i++) {
		const struct vseg_segment_desc *desc = &vdev->table.seg[i];

		vdev->seg[i].desc = desc;
		if (desc->kind == VSEG_SEGMENT_APERTURE)
			err = vseg_aperture_mgr_init(vdev, desc->id);
		else
			err = vseg_vram_mgr_init(vdev, desc->id);
		if (err)
			return err;
	}
	return drmm_add_action_or_reset(drm, ttm_deferred_release, &vdev->bdev);
}

/**
 * vseg_ttm_usage() - live usage of a segment
 * @vdev: the device
 * @id: segment id, 0 for the system segment
 * @u: receives the counters
 */
void vseg_ttm_usage(struct vseg_device *vdev, u32 id, struct vseg_usage *u)
{
	struct vseg_segment *seg;

	memset(u, 0, sizeof(*u));
	if (!id) {
		u->resident = atomic64_read(&vdev->system_resident);
		u->committed = u->resident;
		return;
	}
	seg = vseg_seg(vdev, id);
	u->resident = atomic64_read(&seg->resident);
	u->evicted = atomic64_read(&seg->evicted);
	if (vseg_seg_is_memory(vdev, id)) {
		u->committed = vseg_vram_mgr_committed(&seg->vram);
	} else {
		u->committed = vseg_aperture_mgr_committed(&vdev->aperture);
		u->aperture_mapped =
			vseg_gart_mapped_bytes(&vdev->aperture.gart);
	}
}
