/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Copyright (c) 2026 The vseg authors
 */
#ifndef __VSEG_DMEM_H__
#define __VSEG_DMEM_H__

#include <linux/types.h>

struct seq_file;
struct vseg_budget_info;
struct vseg_device;
struct vseg_limits_client;
struct vseg_vram_mgr;

int vseg_dmem_register(struct vseg_device *vdev, struct vseg_vram_mgr *mgr);
void vseg_dmem_budget_query(struct vseg_device *vdev,
			    struct vseg_limits_client *c, u32 group,
			    struct vseg_budget_info *info);
void vseg_dmem_show(struct vseg_device *vdev, struct seq_file *m);

#endif /* __VSEG_DMEM_H__ */
