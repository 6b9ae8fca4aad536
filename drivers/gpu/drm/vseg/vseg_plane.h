/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Copyright (c) 2026 The vseg authors
 */
#ifndef __VSEG_PLANE_H__
#define __VSEG_PLANE_H__

#include <linux/types.h>

struct vseg_device;

/* The largest cursor, in pixels each way. */
#define VSEG_CURSOR_MAX	64

bool vseg_planes_have_cursor(struct vseg_device *vdev);
int vseg_planes_init(struct vseg_device *vdev, u32 head);
bool vseg_plane_format_supported(u32 format);

#endif /* __VSEG_PLANE_H__ */
