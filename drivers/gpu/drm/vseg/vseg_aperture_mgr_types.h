/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Copyright (c) 2026 The vseg authors
 */
#ifndef __VSEG_APERTURE_MGR_TYPES_H__
#define __VSEG_APERTURE_MGR_TYPES_H__

#include <linux/spinlock.h>
#include <drm/drm_mm.h>
#include <drm/ttm/ttm_resource.h>

#include "vseg_gart_types.h"
#include "vseg_segment.h"

/**
 * struct vseg_aperture_mgr - TTM_PL_TT manager of the aperture segment
 * @manager: the TTM manager; its usage (ttm_resource_manager_usage()) is
 *	what is committed to the aperture, never above the commit limit.
 * @gart: the aperture's page table.
 * @desc: the aperture segment.
 * @lock: makes the commit-limit check and the commitment one step.
 * @invalid: the GART ranges held for the segment's invalid ranges.
 */
struct vseg_aperture_mgr {
	struct ttm_resource_manager manager;
	struct vseg_gart gart;
	const struct vseg_segment_desc *desc;
	spinlock_t lock; /* see above */
	struct drm_mm_node invalid[VSEG_MAX_INVALID_RANGES];
};

/**
 * struct vseg_aperture_res - a resource in the aperture segment
 * @base: the TTM resource.
 * @node: its GART range, if it has one.
 */
struct vseg_aperture_res {
	struct ttm_resource base;
	struct drm_mm_node node;
};

#endif /* __VSEG_APERTURE_MGR_TYPES_H__ */
