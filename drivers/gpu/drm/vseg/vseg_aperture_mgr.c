// SPDX-License-Identifier: GPL-2.0-only
/*
 * Copyright (c) 2026 The vseg authors
 *
 * Aperture-segment manager: TTM_PL_TT. A resource here is a buffer whose
 * pages are system memory committed to the aperture segment; it counts
 * against the segment's commit limit, which is never exceeded.
 *
 * A resource takes a range of the aperture (and GART entries) only when
 * it must be reachable physically: when the TTM place asks for one with a
 * nonzero lpfn, or later through vseg_aperture_res_map(). Everything else
 * in system memory stays out of the GART, as WDDM wants for buffers that
 * are not AccessedPhysically.
 */

#include <linux/slab.h>
#include <drm/drm_print.h>

#include "vseg_aperture_mgr.h"
#include "vseg_compat.h"
#include "vseg_drv.h"

static inline struct vseg_aperture_mgr *
to_aperture_mgr(struct ttm_resource_manager *man)
{
	return container_of(man, struct vseg_aperture_mgr, manager);
}

static int aperture_map_range(struct vseg_aperture_mgr *mgr,
			      struct vseg_aperture_res *ares, u64 fpfn,
			      u64 lpfn, bool topdown)
{
	struct ttm_buffer_object *bo = ares->base.bo;
	u64 align = bo ? bo->page_alignment : 0;
	int err;

	err = vseg_gart_alloc(&mgr->gart, &ares->node,
			      ares->size >> PAGE_SHIFT, align, fpfn, lpfn,
			      topdown);
	if (err)
		return err;
	ares->base.start = ares->node.start;
	return 0;
}

static int vseg_aperture_mgr_alloc(struct ttm_resource_manager *man,
				   struct ttm_buffer_object *bo,
				   const struct ttm_place *place,
				   struct ttm_resource **res)
{
	struct vseg_aperture_mgr *mgr = to_aperture_mgr(man);
	u64 size = PAGE_ALIGN(bo->base.size);
	struct vseg_aperture_res *ares;
	int err;

	ares = kzalloc(sizeof(*ares), GFP_KERNEL);
	if (!ares)
		return -ENOMEM;

	spin_lock(&mgr->lock);
	if (mgr->committed + size > mgr->desc->commit_limit) {
		spin_unlock(&mgr->lock);
		kfree(ares);
		return -ENOSPC;
	}
	mgr->committed += size;
	spin_unlock(&mgr->lock);

	ttm_resource_init(bo, place, &ares->base);
	ares->size = size;
	ares->base.start = VSEG_APERTURE_NO_RANGE;
	if (place->lpfn) {
		err = aperture_map_range(mgr, ares, place->fpfn, place->lpfn,
					 place->flags & TTM_PL_FLAG_TOPDOWN);
		if (err)
			goto err_uncommit;
	}
	*res = &ares->base;
	return 0;

err_uncommit:
	ttm_resource_fini(man, &ares->base);
	spin_lock(&mgr->lock);
	mgr->committed -= size;
	spin_unlock(&mgr->lock);
	kfree(ares);
	return err;
}

static void vseg_aperture_mgr_free(struct ttm_resource_manager *man,
				   struct ttm_resource *res)
{
	struct vseg_aperture_mgr *mgr = to_aperture_mgr(man);
	struct vseg_aperture_res *ares = to_vseg_aperture_res(res);

	vseg_gart_free(&mgr->gart, &ares->node);
	spin_lock(&mgr->lock);
	mgr->committed -= ares->size;
	spin_unlock(&mgr->lock);
	ttm_resource_fini(man, res);
	kfree(ares);
}

static bool range_in_place(const struct vseg_aperture_res *ares,
			   const struct ttm_place *place, bool whole)
{
	u64 fpfn = ares->node.start, lpfn = fpfn + ares->node.size;

	if (whole)
		return fpfn >= place->fpfn && lpfn <= place->lpfn;
	return place->fpfn < lpfn && place->lpfn > fpfn;
}

static bool vseg_aperture_mgr_intersects(struct ttm_resource_manager *man,
					 struct ttm_resource *res,
					 const struct ttm_place *place,
					 size_t size)
{
	struct vseg_aperture_res *ares = to_vseg_aperture_res(res);

	if (!place->lpfn)
		return true;
	return drm_mm_node_allocated(&ares->node) &&
	       range_in_place(ares, place, false);
}

static bool vseg_aperture_mgr_compatible(struct ttm_resource_manager *man,
					 struct ttm_resource *res,
					 const struct ttm_place *place,
					 size_t size)
{
	struct vseg_aperture_res *ares = to_vseg_aperture_res(res);

	if (res->mem_type != place->mem_type)
		return false;
	if (!place->lpfn)
		return true;
	return drm_mm_node_allocated(&ares->node) &&
	       range_in_place(ares, place, true);
}

static void vseg_aperture_mgr_debug(struct ttm_resource_manager *man,
				    struct drm_printer *p)
{
	struct vseg_aperture_mgr *mgr = to_aperture_mgr(man);

	drm_printf(p, "segment: %u \"%s\" commit_limit: %llu committed: %llu\n",
		   mgr->desc->id, mgr->desc->name, mgr->desc->commit_limit,
		   vseg_aperture_mgr_committed(mgr));
	vseg_gart_print(&mgr->gart, p);
}

static const struct ttm_resource_manager_func vseg_aperture_mgr_func = {
	.alloc = vseg_aperture_mgr_alloc,
	.free = vseg_aperture_mgr_free,
	.intersects = vseg_aperture_mgr_intersects,
	.compatible = vseg_aperture_mgr_compatible,
	.debug = vseg_aperture_mgr_debug,
};

/**
 * vseg_aperture_res_has_range() - does an aperture resource own GART entries
 * @res: a TTM_PL_TT resource of vseg
 *
 * Return: true if the resource has a range of the aperture.
 */
bool vseg_aperture_res_has_range(struct ttm_resource *res)
{
	return drm_mm_node_allocated(&to_vseg_aperture_res(res)->node);
}

/**
 * vseg_aperture_res_map() - give an aperture resource a GART range in place
 * @mgr: the aperture manager
 * @res: the resource, which already counts against the commit limit
 * @topdown: take the highest free range
 *
 * Return: 0 (also if it already had one), or -ENOSPC when the aperture's
 * address space has no room.
 */
int vseg_aperture_res_map(struct vseg_aperture_mgr *mgr,
			  struct ttm_resource *res, bool topdown)
{
	struct vseg_aperture_res *ares = to_vseg_aperture_res(res);

	if (drm_mm_node_allocated(&ares->node))
		return 0;
	return aperture_map_range(mgr, ares, 0, 0, topdown);
}

/**
 * vseg_aperture_res_unmap() - release an aperture resource's GART range
 * @mgr: the aperture manager
 * @res: the resource; keeps its commitment
 */
void vseg_aperture_res_unmap(struct vseg_aperture_mgr *mgr,
			     struct ttm_resource *res)
{
	struct vseg_aperture_res *ares = to_vseg_aperture_res(res);

	vseg_gart_free(&mgr->gart, &ares->node);
	res->start = VSEG_APERTURE_NO_RANGE;
}

/**
 * vseg_aperture_mgr_committed() - bytes committed to the aperture
 * @mgr: the manager
 *
 * Return: committed bytes.
 */
u64 vseg_aperture_mgr_committed(struct vseg_aperture_mgr *mgr)
{
	u64 committed;

	spin_lock(&mgr->lock);
	committed = mgr->committed;
	spin_unlock(&mgr->lock);
	return committed;
}

/* Hold the aperture's invalid ranges so that no GART range covers them. */
static int aperture_reserve_invalid(struct vseg_aperture_mgr *mgr)
{
	const struct vseg_segment_desc *d = mgr->desc;
	unsigned int i;
	int err;

	for (i = 0; i < d->num_invalid; i++) {
		err = vseg_gart_reserve(&mgr->gart, &mgr->invalid[i],
					d->invalid[i].start >> PAGE_SHIFT,
					d->invalid[i].size >> PAGE_SHIFT);
		if (err)
			return err;
	}
	return 0;
}

static void aperture_unreserve_invalid(struct vseg_aperture_mgr *mgr)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(mgr->invalid); i++)
		vseg_gart_unreserve(&mgr->gart, &mgr->invalid[i]);
}

/**
 * vseg_aperture_mgr_init() - set up the aperture segment as TTM_PL_TT
 * @vdev: the device
 * @seg: the aperture segment; its @mem_type must be TTM_PL_TT
 *
 * Return: 0 or a negative error code.
 */
int vseg_aperture_mgr_init(struct vseg_device *vdev, struct vseg_segment *seg)
{
	struct vseg_aperture_mgr *mgr;
	int err;

	mgr = kzalloc(sizeof(*mgr), GFP_KERNEL);
	if (!mgr)
		return -ENOMEM;
	mgr->desc = seg->desc;
	spin_lock_init(&mgr->lock);
	err = vseg_gart_init(&mgr->gart, seg->desc->size);
	if (err) {
		kfree(mgr);
		return err;
	}

	err = aperture_reserve_invalid(mgr);
	if (err) {
		aperture_unreserve_invalid(mgr);
		vseg_gart_fini(&mgr->gart);
		kfree(mgr);
		return err;
	}

	mgr->manager.use_tt = true;
	mgr->manager.func = &vseg_aperture_mgr_func;
	ttm_resource_manager_init(&mgr->manager, &vdev->bdev,
				  seg->desc->commit_limit);
	ttm_set_driver_manager(&vdev->bdev, seg->mem_type, &mgr->manager);
	ttm_resource_manager_set_used(&mgr->manager, true);
	seg->aperture = mgr;
	return 0;
}

/**
 * vseg_aperture_mgr_fini() - tear down the aperture manager
 * @vdev: the device
 * @seg: the aperture segment
 */
void vseg_aperture_mgr_fini(struct vseg_device *vdev, struct vseg_segment *seg)
{
	struct vseg_aperture_mgr *mgr = seg->aperture;
	struct ttm_resource_manager *man;

	if (!mgr)
		return;
	man = &mgr->manager;
	ttm_resource_manager_set_used(man, false);
	if (ttm_resource_manager_evict_all(&vdev->bdev, man))
		return; /* Still in use: leak rather than free live memory. */
	ttm_resource_manager_cleanup(man);
	ttm_set_driver_manager(&vdev->bdev, seg->mem_type, NULL);

	if (mgr->committed || mgr->gart.ranges) {
		drm_err(&vdev->drm, "leak: aperture still has %llu bytes committed, %llu ranges\n",
			mgr->committed, mgr->gart.ranges);
		return;
	}
	aperture_unreserve_invalid(mgr);
	vseg_gart_fini(&mgr->gart);
	kfree(mgr);
	seg->aperture = NULL;
}

/**
 * vseg_aperture_mgr_walk_ranges() - walk the GART ranges in address order
 * @mgr: the aperture manager
 * @fn: called with each range (bytes) and the BO it belongs to
 * @arg: passed to @fn
 *
 * @fn runs under the GART lock and must not sleep on other locks.
 */
void vseg_aperture_mgr_walk_ranges(struct vseg_aperture_mgr *mgr,
				   void (*fn)(void *arg, u64 start, u64 size,
					      struct ttm_buffer_object *bo),
				   void *arg)
{
	struct drm_mm_node *node;

	mutex_lock(&mgr->gart.lock);
	drm_mm_for_each_node(node, &mgr->gart.mm) {
		struct vseg_aperture_res *ares =
			container_of(node, struct vseg_aperture_res, node);

		if (node->color == VSEG_GART_RESERVED)
			continue;

		fn(arg, node->start << PAGE_SHIFT, node->size << PAGE_SHIFT,
		   ares->base.bo);
	}
	mutex_unlock(&mgr->gart.lock);
}
