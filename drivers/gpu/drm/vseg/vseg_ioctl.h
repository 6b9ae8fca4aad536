/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Copyright (c) 2026 The vseg authors
 */
#ifndef __VSEG_IOCTL_H__
#define __VSEG_IOCTL_H__

struct drm_device;
struct drm_file;

int vseg_ioctl_query_segments(struct drm_device *drm, void *data,
			      struct drm_file *file);

int vseg_ioctl_gem_create(struct drm_device *drm, void *data,
			  struct drm_file *file);
int vseg_ioctl_gem_info(struct drm_device *drm, void *data,
			struct drm_file *file);
int vseg_ioctl_gem_mmap_offset(struct drm_device *drm, void *data,
			       struct drm_file *file);
int vseg_ioctl_make_resident(struct drm_device *drm, void *data,
			     struct drm_file *file);
int vseg_ioctl_evict(struct drm_device *drm, void *data,
		     struct drm_file *file);
int vseg_ioctl_vm_bind(struct drm_device *drm, void *data,
		       struct drm_file *file);
int vseg_ioctl_vm_unbind(struct drm_device *drm, void *data,
			 struct drm_file *file);
int vseg_ioctl_submit(struct drm_device *drm, void *data,
		      struct drm_file *file);
int vseg_ioctl_scanout(struct drm_device *drm, void *data,
		       struct drm_file *file);

#endif /* __VSEG_IOCTL_H__ */
