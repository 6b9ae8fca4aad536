/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Copyright (c) 2026 The vseg authors
 */
#ifndef __VSEG_FILE_H__
#define __VSEG_FILE_H__

#include <linux/types.h>

#include "vseg_file_types.h"
#include "vseg_segment.h"
#include "vseg_vm.h"

struct drm_file;
struct drm_gem_object;
struct vseg_bo;
struct vseg_device;

int vseg_file_init(struct vseg_file *vf, struct vseg_device *vdev);
void vseg_file_fini(struct vseg_file *vf);
int vseg_file_limits_init(struct vseg_device *vdev);
int vseg_file_make_resident(struct vseg_file *vf, struct vseg_bo **bos,
			    u32 n, bool pin, u32 *done);
int vseg_file_can_unpin(struct vseg_file *vf, struct vseg_bo *vbo,
			u32 times);
int vseg_file_unpin_evict(struct vseg_file *vf, struct vseg_bo *vbo,
			  bool discard);
void vseg_file_gem_close(struct drm_gem_object *obj, struct drm_file *file);

#endif /* __VSEG_FILE_H__ */
