// SPDX-License-Identifier: GPL-2.0-only
/*
 * Copyright (c) 2026 The vseg authors
 *
 * TTM glue: the TTM device and the mapping of the segment table onto TTM
 * memory types.
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
#include <drm/ttm/ttm_tt.h>

#include "vseg_aperture_mgr.h"
#include "vseg_compat.h"
#include "vseg_drv.h"
#include "vseg_ttm.h"
#include "vseg_vram_mgr.h"

static struct ttm_tt *vseg_ttm_tt_create(struct ttm_buffer_object *bo,
					 u32 page_flags)
{
	struct ttm_tt *tt;

	tt = kzalloc(sizeof(*tt), GFP_KERNEL);
	if (!tt)
		return NULL;
	if (ttm_tt_init(tt, bo, page_flags, ttm_cached, 0)) {
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
	vseg_placement_set(placement, &vseg_sys_place, 1);
}

static int vseg_ttm_move(struct ttm_buffer_object *bo, bool evict,
			 struct ttm_operation_ctx *ctx,
			 struct ttm_resource *new_mem,
			 struct ttm_place *hop)
{
	if (!bo->resource || (bo->resource->mem_type == TTM_PL_SYSTEM &&
			      !bo->ttm)) {
		ttm_bo_move_null(bo, new_mem);
		return 0;
	}
	return ttm_bo_move_memcpy(bo, ctx, new_mem);
}

static VSEG_TTM_FUNCS_CONST struct ttm_device_funcs vseg_ttm_funcs = {
	.ttm_tt_create = vseg_ttm_tt_create,
	.ttm_tt_destroy = vseg_ttm_tt_destroy,
	.eviction_valuable = ttm_bo_eviction_valuable,
	.evict_flags = vseg_ttm_evict_flags,
	.move = vseg_ttm_move,
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

/**
 * vseg_ttm_init() - create the TTM device and one manager per segment
 * @vdev: the device, with a validated table
 *
 * Return: 0 or a negative error code; on error nothing is left set up.
 */
int vseg_ttm_init(struct vseg_device *vdev)
{
	struct drm_device *drm = &vdev->drm;
	unsigned int i, next_mem = 0;
	int err;

	err = ttm_device_init(&vdev->bdev, &vseg_ttm_funcs, drm->dev,
			      drm->anon_inode->i_mapping,
			      drm->vma_offset_manager, false, false);
	if (err)
		return err;

	for (i = 0; i < vdev->table.num_segments; i++) {
		const struct vseg_segment_desc *desc = &vdev->table.seg[i];
		struct vseg_segment *seg = &vdev->seg[i];

		seg->desc = desc;
		atomic64_set(&seg->resident, 0);
		atomic64_set(&seg->evicted, 0);
		if (desc->kind == VSEG_SEGMENT_APERTURE) {
			seg->mem_type = TTM_PL_TT;
			vdev->aperture_id = desc->id;
			err = vseg_aperture_mgr_init(vdev, seg);
		} else {
			seg->mem_type = next_mem ? TTM_PL_PRIV + next_mem - 1 :
						   TTM_PL_VRAM;
			next_mem++;
			err = vseg_vram_mgr_init(vdev, seg);
		}
		if (err)
			goto err_fini;
		vdev->mem_type_to_id[seg->mem_type] = desc->id;
	}
	return 0;

err_fini:
	vseg_ttm_fini(vdev);
	return err;
}

/**
 * vseg_ttm_fini() - tear down the managers and the TTM device
 * @vdev: the device
 */
void vseg_ttm_fini(struct vseg_device *vdev)
{
	unsigned int i;

	for (i = vdev->table.num_segments; i-- > 0;) {
		struct vseg_segment *seg = &vdev->seg[i];

		if (seg->aperture)
			vseg_aperture_mgr_fini(vdev, seg);
		if (seg->vram)
			vseg_vram_mgr_fini(vdev, seg);
	}
	ttm_device_fini(&vdev->bdev);
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
	if (seg->vram) {
		u->committed = vseg_vram_mgr_committed(seg->vram);
	} else if (seg->aperture) {
		u->committed = vseg_aperture_mgr_committed(seg->aperture);
		u->aperture_mapped =
			vseg_gart_mapped_bytes(&seg->aperture->gart);
	}
}
