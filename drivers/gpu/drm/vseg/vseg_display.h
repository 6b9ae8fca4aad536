/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Copyright (c) 2026 The vseg authors
 */
#ifndef __VSEG_DISPLAY_H__
#define __VSEG_DISPLAY_H__

#include <linux/types.h>

#include "vseg_display_types.h"

struct seq_file;
struct vseg_bo;
struct vseg_device;

int vseg_display_init(struct vseg_device *vdev);
void vseg_display_unplug(struct vseg_device *vdev);
int vseg_display_pin(struct vseg_bo *bo);
void vseg_display_unpin(struct vseg_bo *bo);
u64 vseg_display_address(struct vseg_device *vdev, struct vseg_bo *bo);
struct vseg_hw_scanout;
void vseg_display_kms_show(struct vseg_device *vdev, u32 head,
			   struct vseg_bo *bo, const struct vseg_hw_scanout *s);
struct vseg_hw_cursor;
void vseg_display_kms_cursor(struct vseg_device *vdev, u32 head,
			     const struct vseg_hw_cursor *c);
void vseg_display_kms_changed(struct vseg_device *vdev, u32 head);
int vseg_display_suspend(struct vseg_device *vdev);
int vseg_display_resume(struct vseg_device *vdev);
void vseg_display_show(struct vseg_device *vdev, struct seq_file *m);
void vseg_display_show_regs(struct vseg_device *vdev, struct seq_file *m);
int vseg_display_check(struct vseg_device *vdev, u32 head,
		       const struct vseg_hw_scanout *s);

#endif /* __VSEG_DISPLAY_H__ */
