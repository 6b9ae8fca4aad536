/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Copyright (c) 2026 The vseg authors
 */
#ifndef __VSEG_PRIME_H__
#define __VSEG_PRIME_H__

struct dma_buf_attachment;
struct drm_device;
struct drm_gem_object;
struct iosys_map;
struct sg_table;

int vseg_prime_pin(struct drm_gem_object *gem);
void vseg_prime_unpin(struct drm_gem_object *gem);
struct sg_table *vseg_prime_get_sg_table(struct drm_gem_object *gem);
int vseg_prime_vmap(struct drm_gem_object *gem, struct iosys_map *map);
void vseg_prime_vunmap(struct drm_gem_object *gem, struct iosys_map *map);
struct drm_gem_object *
vseg_prime_import_sg_table(struct drm_device *drm,
			   struct dma_buf_attachment *attach,
			   struct sg_table *sgt);

#endif /* __VSEG_PRIME_H__ */
