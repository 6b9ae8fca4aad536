/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Copyright (c) 2026 The vseg authors
 */
#ifndef __VSEG_RANGES_H__
#define __VSEG_RANGES_H__

#include <linux/types.h>

struct dentry;
struct seq_file;
struct vseg_device;

int vseg_invalid_range_add(struct vseg_device *vdev, u32 id, u64 start,
			   u64 size);
int vseg_invalid_range_del(struct vseg_device *vdev, u32 id, u64 start,
			   u64 size);
void vseg_firmware_handover(struct vseg_device *vdev);
bool vseg_firmware_show(struct vseg_device *vdev, struct seq_file *m);
void vseg_ranges_debugfs_init(struct vseg_device *vdev, struct dentry *root);

#endif /* __VSEG_RANGES_H__ */
