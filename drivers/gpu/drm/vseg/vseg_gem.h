/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Copyright (c) 2026 The vseg authors
 */
#ifndef __VSEG_GEM_H__
#define __VSEG_GEM_H__

struct dma_resv;
struct sg_table;
struct vseg_bo;
struct vseg_bo_params;
struct vseg_device;

int vseg_gem_create(struct vseg_device *vdev, const struct vseg_bo_params *p,
		    struct vseg_bo **out);
int vseg_gem_create_imported(struct vseg_device *vdev,
			     const struct vseg_bo_params *p,
			     struct sg_table *sgt, struct dma_resv *resv,
			     struct vseg_bo **out);

#endif /* __VSEG_GEM_H__ */
