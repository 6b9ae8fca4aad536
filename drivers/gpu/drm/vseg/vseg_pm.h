/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Copyright (c) 2026 The vseg authors
 */
#ifndef __VSEG_PM_H__
#define __VSEG_PM_H__

#include <linux/mm_types.h>

#include "vseg_pm_types.h"

struct seq_file;
struct vseg_device;
struct vm_fault;

int vseg_pm_init(struct vseg_device *vdev);
int vseg_pm_enter(struct vseg_device *vdev, enum vseg_pm_kind kind);
int vseg_pm_exit(struct vseg_device *vdev, bool power_lost);
int vseg_pm_cycle(struct vseg_device *vdev, enum vseg_pm_kind kind,
		  bool power_lost);
bool vseg_pm_busy(struct vseg_device *vdev);
vm_fault_t vseg_pm_fault_wait(struct vseg_device *vdev, struct vm_fault *vmf);
void vseg_pm_counts_get(struct vseg_device *vdev, u32 id,
			struct vseg_pm_counts *c, enum vseg_pm_kind *last);
void vseg_pm_restore(struct vseg_device *vdev);
void vseg_pm_unplug(struct vseg_device *vdev);
void vseg_pm_show(struct vseg_device *vdev, struct seq_file *m);

#endif /* __VSEG_PM_H__ */
