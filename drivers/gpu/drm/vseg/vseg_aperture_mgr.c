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
 * nonzero lpfn, or later through vseg_aperture_map(). Everything else in
 * system memory stays out of the GART, as WDDM wants for buffers that are
 * not AccessedPhysically. This file is the only user of the GART's range
 * and binding API; the engine only locks and translates.
 */

#include <kunit/visibility.h>
#include <linux/slab.h>
#include <drm/drm_managed.h>
#include <drm/drm_print.h>
#include <drm/ttm/ttm_device.h>
#include <drm/ttm/ttm_tt.h>

#include "vseg_aperture_mgr.h"
#include "vseg_compat.h"
#include "vseg_device_types.h"
#include "vseg_gart.h"

static inline struct vseg_aperture_mgr *
to_aperture_mgr(struct ttm_resource_manager *man)
{
	return container_of(man, struct vseg_aperture_mgr, manager);
}

static inline struct vseg_aperture_res *
to_aperture_res(struct ttm_resource *res)
{
	return container_of(res, struct vseg_aperture_res, base);
}

static int aperture_map_range(struct vseg_aperture_mgr *mgr,
			      struct vseg_aperture_res *ares, u64 fpfn,
			      u64 lpfn, bool topdown)
{
	struct ttm_buffer_object *bo = ares->base.bo;
	u64 align = bo ? bo->page_alignment : 0;
	int err;

	err = vseg_gart_alloc(&mgr->gart, &ares->node,
			      PFN_UP(vseg_res_size(&ares->base)), align, fpfn,
			      lpfn, topdown);
	if (err)
		return err;
	ares->base.start = ares->node.start;
	return 0;
}

/* Commit the resource to the aperture, or -ENOSPC at the commit limit. */
static int aperture_commit(struct vseg_aperture_mgr *mgr,
			   struct ttm_buffer_object *bo,
			   const struct ttm_place *place,
			   struct ttm_resource *res)
{
	int err = 0;

	spin_lock(&mgr->lock);
	if (ttm_resource_manager_usage(&mgr->manager) + bo->base.size >
	    mgr->desc->commit_limit)
		err = -ENOSPC;
	else
		ttm_resource_init(bo, place, res);
	spin_unlock(&mgr->lock);
	return err;
}

static int vseg_aperture_mgr_alloc(struct ttm_resource_manager *man,
				   struct ttm_buffer_object *bo,
				   const struct ttm_place *place,
				   struct ttm_resource **res)
{
	struct vseg_aperture_mgr *mgr = to_aperture_mgr(man);
	struct vseg_aperture_res *ares;
	int err;

	ares = kzalloc(sizeof(*ares), GFP_KERNEL_ACCOUNT);
	if (!ares)
		return -ENOMEM;
	err = aperture_commit(mgr, bo, place, &ares->base);
	if (err) {
		kfree(ares);
		return err;
	}
	ares->base.start = VSEG_APERTURE_NO_RANGE;
	if (place->lpfn) {
		err = aperture_map_range(mgr, ares, place->fpfn, place->lpfn,
					 place->flags & TTM_PL_FLAG_TOPDOWN);
		if (err) {
			ttm_resource_fini(man, &ares->base);
			kfree(ares);
			return err;
		}
	}
	*res = &ares->base;
	return 0;
}

static void vseg_aperture_mgr_free(struct ttm_resource_manager *man,
				   struct ttm_resource *res)
{
	struct vseg_aperture_mgr *mgr = to_aperture_mgr(man);
	struct vseg_aperture_res *ares = to_aperture_res(res);

	vseg_gart_free(&mgr->gart, &ares->node);
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
	struct vseg_aperture_res *ares = to_aperture_res(res);

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
	struct vseg_aperture_res *ares = to_aperture_res(res);

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

/* A resource of this manager that has a GART range, or NULL. */
static struct vseg_aperture_res *mapped_res(struct ttm_resource *res)
{
	if (!res || res->mem_type != TTM_PL_TT ||
	    !drm_mm_node_allocated(&to_aperture_res(res)->node))
		return NULL;
	return to_aperture_res(res);
}

/**
 * vseg_aperture_res_mapped() - does a placement own a range of the aperture
 * @res: a placement of a vseg buffer, or NULL
 *
 * Return: true for an aperture resource with a GART range.
 */
bool vseg_aperture_res_mapped(struct ttm_resource *res)
{
	return mapped_res(res);
}
EXPORT_SYMBOL_IF_KUNIT(vseg_aperture_res_mapped);

/**
 * vseg_aperture_res_range() - the aperture range of a placement
 * @res: a placement with a range (vseg_aperture_res_mapped())
 * @start: receives the byte offset of the range in the aperture
 * @size: receives its length in bytes
 */
void vseg_aperture_res_range(struct ttm_resource *res, u64 *start, u64 *size)
{
	struct vseg_aperture_res *ares = to_aperture_res(res);

	*start = ares->node.start << PAGE_SHIFT;
	*size = ares->node.size << PAGE_SHIFT;
}
EXPORT_SYMBOL_IF_KUNIT(vseg_aperture_res_range);

/**
 * vseg_aperture_bind() - point a placement's GART range at its pages
 * @mgr: the aperture manager
 * @res: the placement; nothing is done unless it has a GART range
 * @tt: the buffer's pages, populated
 *
 * Return: 0 or -EINVAL if the pages do not fit the range.
 */
int vseg_aperture_bind(struct vseg_aperture_mgr *mgr, struct ttm_resource *res,
		       struct ttm_tt *tt)
{
	struct vseg_aperture_res *ares = mapped_res(res);

	if (!ares)
		return 0;
	return vseg_gart_bind(&mgr->gart, &ares->node, tt->pages,
			      tt->num_pages);
}
EXPORT_SYMBOL_IF_KUNIT(vseg_aperture_bind);

/**
 * vseg_aperture_unbind() - invalidate a placement's GART entries
 * @mgr: the aperture manager
 * @res: the placement, or NULL; nothing is done unless it has a range
 *
 * Called before the pages behind the entries are freed (TTM frees a
 * buffer's pages before its old resource): under the GART lock, so that
 * no engine step can still use them afterwards.
 */
void vseg_aperture_unbind(struct vseg_aperture_mgr *mgr,
			  struct ttm_resource *res)
{
	struct vseg_aperture_res *ares = mapped_res(res);

	if (ares)
		vseg_gart_unbind(&mgr->gart, &ares->node);
}
EXPORT_SYMBOL_IF_KUNIT(vseg_aperture_unbind);

/**
 * vseg_aperture_map() - give an aperture placement a GART range, in place
 * @mgr: the aperture manager
 * @res: the placement, which already counts against the commit limit
 * @tt: the buffer's pages, populated
 *
 * Return: 0 (also if it already had one), -ENOSPC when the aperture's
 * address space has no room, -EINVAL.
 */
int vseg_aperture_map(struct vseg_aperture_mgr *mgr, struct ttm_resource *res,
		      struct ttm_tt *tt)
{
	struct vseg_aperture_res *ares = to_aperture_res(res);
	int err;

	if (drm_mm_node_allocated(&ares->node))
		return 0;
	err = aperture_map_range(mgr, ares, 0, 0, false);
	if (!err)
		err = vseg_aperture_bind(mgr, res, tt);
	if (err)
		vseg_aperture_unmap(mgr, res);
	return err;
}
EXPORT_SYMBOL_IF_KUNIT(vseg_aperture_map);

/**
 * vseg_aperture_unmap() - release a placement's GART range
 * @mgr: the aperture manager
 * @res: the placement; keeps its commitment
 */
void vseg_aperture_unmap(struct vseg_aperture_mgr *mgr,
			 struct ttm_resource *res)
{
	vseg_gart_free(&mgr->gart, &to_aperture_res(res)->node);
	res->start = VSEG_APERTURE_NO_RANGE;
}
EXPORT_SYMBOL_IF_KUNIT(vseg_aperture_unmap);

/**
 * vseg_aperture_mgr_committed() - bytes committed to the aperture
 * @mgr: the manager
 *
 * Return: committed bytes.
 */
u64 vseg_aperture_mgr_committed(struct vseg_aperture_mgr *mgr)
{
	return ttm_resource_manager_usage(&mgr->manager);
}
EXPORT_SYMBOL_IF_KUNIT(vseg_aperture_mgr_committed);

struct walk_ctx {
	void (*fn)(void *arg, u64 start, u64 size,
		   struct ttm_buffer_object *bo);
	void *arg;
};

static void walk_one(void *arg, struct drm_mm_node *node)
{
	struct walk_ctx *w = arg;

	w->fn(w->arg, node->start << PAGE_SHIFT, node->size << PAGE_SHIFT,
	      container_of(node, struct vseg_aperture_res, node)->base.bo);
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
	struct walk_ctx w = { .fn = fn, .arg = arg };

	vseg_gart_walk(&mgr->gart, walk_one, &w);
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
 * __vseg_aperture_mgr_init() - set up an aperture manager as TTM_PL_TT
 * @mgr: the manager, zeroed
 * @bdev: the TTM device
 * @desc: the aperture segment
 * @hw: the GPU whose GART maps the aperture, attached
 *
 * Undo with vseg_aperture_mgr_fini().
 *
 * Return: 0 or a negative error code; nothing is left set up on error.
 */
int __vseg_aperture_mgr_init(struct vseg_aperture_mgr *mgr,
			     struct ttm_device *bdev,
			     const struct vseg_segment_desc *desc,
			     struct vseg_hw *hw)
{
	int err;

	mgr->desc = desc;
	spin_lock_init(&mgr->lock);
	err = vseg_gart_init(&mgr->gart, hw, desc->base_address, desc->size);
	if (err)
		return err;
	err = aperture_reserve_invalid(mgr);
	if (err) {
		aperture_unreserve_invalid(mgr);
		vseg_gart_fini(&mgr->gart);
		return err;
	}
	mgr->manager.use_tt = true;
	mgr->manager.func = &vseg_aperture_mgr_func;
	ttm_resource_manager_init(&mgr->manager, bdev, desc->commit_limit);
	ttm_set_driver_manager(bdev, TTM_PL_TT, &mgr->manager);
	ttm_resource_manager_set_used(&mgr->manager, true);
	return 0;
}
EXPORT_SYMBOL_IF_KUNIT(__vseg_aperture_mgr_init);

/**
 * vseg_aperture_mgr_fini() - tear down an aperture manager
 * @mgr: the manager
 * @bdev: the TTM device
 *
 * Evicts whatever is left; if something cannot be evicted, the manager
 * is leaked rather than freed under live memory.
 */
void vseg_aperture_mgr_fini(struct vseg_aperture_mgr *mgr,
			    struct ttm_device *bdev)
{
	struct ttm_resource_manager *man = &mgr->manager;

	ttm_resource_manager_set_used(man, false);
	if (ttm_resource_manager_evict_all(bdev, man))
		return;
	ttm_resource_manager_cleanup(man);
	ttm_set_driver_manager(bdev, TTM_PL_TT, NULL);
	if (vseg_aperture_mgr_committed(mgr) || mgr->gart.ranges) {
		pr_err("vseg: leak: aperture still has %llu bytes committed, %llu ranges\n",
		       vseg_aperture_mgr_committed(mgr), mgr->gart.ranges);
		return;
	}
	aperture_unreserve_invalid(mgr);
	vseg_gart_fini(&mgr->gart);
}
EXPORT_SYMBOL_IF_KUNIT(vseg_aperture_mgr_fini);

static void aperture_mgr_release(struct drm_device *drm, void *arg)
{
	vseg_aperture_mgr_fini(arg, &to_vseg(drm)->bdev);
}

/**
 * vseg_aperture_mgr_init() - the device's aperture manager
 * @vdev: the device, with its TTM device initialized and its GPU attached
 * @id: the aperture's segment id
 *
 * Torn down with the DRM device (a drmm action).
 *
 * Return: 0 or a negative error code.
 */
int vseg_aperture_mgr_init(struct vseg_device *vdev, u32 id)
{
	int err;

	err = __vseg_aperture_mgr_init(&vdev->aperture, &vdev->bdev,
				       vseg_seg(vdev, id)->desc, &vdev->hw);
	if (err)
		return err;
	return drmm_add_action_or_reset(&vdev->drm, aperture_mgr_release,
					&vdev->aperture);
}
