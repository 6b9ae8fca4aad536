/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Copyright (c) 2026 The vseg authors
 */
#ifndef __VSEG_PRIME_H__
#define __VSEG_PRIME_H__

struct dma_buf;
struct drm_gem_object;
struct iosys_map;
struct sg_table;
struct vseg_bo_params;
struct vseg_device;

struct dma_buf *vseg_prime_export(struct drm_gem_object *gem, int flags);
int vseg_prime_pin(struct drm_gem_object *gem);
void vseg_prime_unpin(struct drm_gem_object *gem);
struct sg_table *vseg_prime_get_sg_table(struct drm_gem_object *gem);
int vseg_prime_vmap(struct drm_gem_object *gem, struct iosys_map *map);
void vseg_prime_vunmap(struct drm_gem_object *gem, struct iosys_map *map);
int vseg_prime_import_params(struct vseg_device *vdev,
			     const struct dma_buf *dmabuf,
			     struct vseg_bo_params *p);

#endif /* __VSEG_PRIME_H__ */
