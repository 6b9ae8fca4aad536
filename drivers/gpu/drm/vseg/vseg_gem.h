/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Copyright (c) 2026 The vseg authors
 */
#ifndef __VSEG_GEM_H__
#define __VSEG_GEM_H__

struct dma_buf_attachment;
struct drm_device;
struct drm_file;
struct drm_gem_object;
struct drm_mode_create_dumb;
struct sg_table;
struct vseg_bo_params;
struct vseg_device;

int vseg_gem_create(struct vseg_device *vdev, const struct vseg_bo_params *p,
		    struct drm_file *file, u32 *handle);
bool vseg_gem_is_vseg(const struct drm_gem_object *obj);
enum drm_gem_object_status vseg_gem_status(struct drm_gem_object *gem);
int vseg_gem_dumb_create(struct drm_file *file, struct drm_device *drm,
			 struct drm_mode_create_dumb *args);
struct drm_gem_object *
vseg_gem_prime_import_sg_table(struct drm_device *drm,
			       struct dma_buf_attachment *attach,
			       struct sg_table *sgt);

#endif /* __VSEG_GEM_H__ */
