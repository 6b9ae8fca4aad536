/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Copyright (c) 2026 The vseg authors
 */
#ifndef __VSEG_APERTURE_MGR_H__
#define __VSEG_APERTURE_MGR_H__

#include <linux/types.h>

#include "vseg_aperture_mgr_types.h"

struct ttm_buffer_object;
struct ttm_device;
struct ttm_resource;
struct ttm_tt;
struct vseg_device;
struct vseg_hw;

/* res->start of an aperture resource that has no GART range. */
#define VSEG_APERTURE_NO_RANGE	(~0UL)

int vseg_aperture_mgr_init(struct vseg_device *vdev, u32 id);
int __vseg_aperture_mgr_init(struct vseg_aperture_mgr *mgr,
			     struct ttm_device *bdev,
			     const struct vseg_segment_desc *desc,
			     struct vseg_hw *hw);
void vseg_aperture_mgr_fini(struct vseg_aperture_mgr *mgr,
			    struct ttm_device *bdev);
u64 vseg_aperture_mgr_committed(struct vseg_aperture_mgr *mgr);

bool vseg_aperture_res_mapped(struct ttm_resource *res);
void vseg_aperture_res_range(struct ttm_resource *res, u64 *start, u64 *size);
int vseg_aperture_bind(struct vseg_aperture_mgr *mgr, struct ttm_resource *res,
		       struct ttm_tt *tt);
void vseg_aperture_unbind(struct vseg_aperture_mgr *mgr,
			  struct ttm_resource *res);
int vseg_aperture_map(struct vseg_aperture_mgr *mgr, struct ttm_resource *res,
		      struct ttm_tt *tt);
void vseg_aperture_unmap(struct vseg_aperture_mgr *mgr,
			 struct ttm_resource *res);

void vseg_aperture_mgr_walk_ranges(struct vseg_aperture_mgr *mgr,
				   void (*fn)(void *arg, u64 start, u64 size,
					      struct ttm_buffer_object *bo),
				   void *arg);

#endif /* __VSEG_APERTURE_MGR_H__ */
