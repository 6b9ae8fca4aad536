/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Copyright (c) 2026 The vseg authors
 */
#ifndef __VSEG_IOCTL_H__
#define __VSEG_IOCTL_H__

struct drm_device;
struct drm_file;
struct drm_vseg_segment_info;
struct drm_vseg_segment_usage;
struct vseg_device;
struct vseg_segment_desc;
struct vseg_usage;

void vseg_usage_to_uapi(const struct vseg_usage *u,
			struct drm_vseg_segment_usage *out);
void vseg_segment_to_uapi(struct vseg_device *vdev,
			  const struct vseg_segment_desc *d,
			  struct drm_vseg_segment_info *out);

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
int vseg_ioctl_device_query(struct drm_device *drm, void *data,
			    struct drm_file *file);
int vseg_ioctl_offer(struct drm_device *drm, void *data,
		     struct drm_file *file);
int vseg_ioctl_reclaim(struct drm_device *drm, void *data,
		       struct drm_file *file);
int vseg_ioctl_budget_notify(struct drm_device *drm, void *data,
			     struct drm_file *file);
int vseg_ioctl_set_priority(struct drm_device *drm, void *data,
			    struct drm_file *file);
int vseg_ioctl_set_reservation(struct drm_device *drm, void *data,
			       struct drm_file *file);

#endif /* __VSEG_IOCTL_H__ */
