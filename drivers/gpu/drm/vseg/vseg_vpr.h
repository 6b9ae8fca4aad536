/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Copyright (c) 2026 The vseg authors
 */
#ifndef __VSEG_VPR_H__
#define __VSEG_VPR_H__

#include <linux/list.h>
#include <linux/types.h>

struct ttm_resource;
struct vseg_device;
struct vseg_paging;

void vseg_vpr_key_init(struct vseg_paging *pg);
bool vseg_vpr_res_inside(struct vseg_device *vdev, struct ttm_resource *res);
bool vseg_vpr_phys_inside(struct vseg_device *vdev, u64 addr, u64 len);
bool vseg_vpr_evictable(struct vseg_device *vdev, bool protected,
			struct ttm_resource *res);

#endif /* __VSEG_VPR_H__ */
