/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Copyright (c) 2026 The vseg authors
 */
#ifndef __VSEG_SUBMIT_H__
#define __VSEG_SUBMIT_H__

#include <linux/types.h>

struct drm_device;
struct drm_file;

u64 vseg_submit_max_bytes(void);
int vseg_ioctl_submit(struct drm_device *drm, void *data,
		      struct drm_file *file);

#endif /* __VSEG_SUBMIT_H__ */
