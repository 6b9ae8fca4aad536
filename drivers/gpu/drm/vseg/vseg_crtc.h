/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Copyright (c) 2026 The vseg authors
 */
#ifndef __VSEG_CRTC_H__
#define __VSEG_CRTC_H__

#include <linux/types.h>

struct vseg_device;

int vseg_crtc_init(struct vseg_device *vdev, u32 head);

#endif /* __VSEG_CRTC_H__ */
