/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Copyright (c) 2026 The vseg authors
 */
#ifndef __VSEG_APERTURE_MGR_H__
#define __VSEG_APERTURE_MGR_H__

#include <linux/spinlock.h>
#include <drm/drm_mm.h>
#include <drm/ttm/ttm_resource.h>

#include "vseg_gart.h"
#include "vseg_segment.h"

struct vseg_device;
struct vseg_segment;
struct vseg_segment_desc;

/* res->start of an aperture resource that has no GART range. */
#define VSEG_APERTURE_NO_RANGE	(~0UL)

/**
 * struct vseg_aperture_mgr - TTM_PL_TT manager of the aperture segment
 * @manager: the TTM manager.
 * @gart: the aperture's page table.
 * @desc: the aperture segment.
 * @lock: protects @committed.
 * @committed: bytes committed, never above the segment's commit limit.
 * @invalid: the GART ranges held for the segment's invalid ranges.
 */
struct vseg_aperture_mgr {
	struct ttm_resource_manager manager;
	struct vseg_gart gart;
	const struct vseg_segment_desc *desc;
	spinlock_t lock; /* protects committed */
	u64 committed;
	struct drm_mm_node invalid[VSEG_MAX_INVALID_RANGES];
};

/**
 * struct vseg_aperture_res - a resource in the aperture segment
 * @base: the TTM resource.
 * @node: its GART range, if it has one.
 * @size: bytes committed for it.
 */
struct vseg_aperture_res {
	struct ttm_resource base;
	struct drm_mm_node node;
	u64 size;
};

static inline struct vseg_aperture_res *
to_vseg_aperture_res(struct ttm_resource *res)
{
	return container_of(res, struct vseg_aperture_res, base);
}

int vseg_aperture_mgr_init(struct vseg_device *vdev, struct vseg_segment *seg);
void vseg_aperture_mgr_fini(struct vseg_device *vdev, struct vseg_segment *seg);
u64 vseg_aperture_mgr_committed(struct vseg_aperture_mgr *mgr);
bool vseg_aperture_res_has_range(struct ttm_resource *res);
int vseg_aperture_res_map(struct vseg_aperture_mgr *mgr,
			  struct ttm_resource *res, bool topdown);
void vseg_aperture_res_unmap(struct vseg_aperture_mgr *mgr,
			     struct ttm_resource *res);

void vseg_aperture_mgr_walk_ranges(struct vseg_aperture_mgr *mgr,
				   void (*fn)(void *arg, u64 start, u64 size,
					      struct ttm_buffer_object *bo),
				   void *arg);

#endif /* __VSEG_APERTURE_MGR_H__ */
