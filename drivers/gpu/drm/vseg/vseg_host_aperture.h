/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Copyright (c) 2026 The vseg authors
 */
#ifndef __VSEG_HOST_APERTURE_H__
#define __VSEG_HOST_APERTURE_H__

#include <linux/mm_types.h>
#include <linux/types.h>

struct vseg_bo;
struct vseg_device;

/**
 * struct vseg_host_aperture_stats - a CPU host aperture's counters
 * @slots: slots of the window (its size in host pages).
 * @used: slots pointing at a buffer's page now.
 * @faults: CPU faults served through the window.
 * @remaps: slots taken from the buffer page they pointed at (the least
 *	recently used one), for another page.
 * @cached: the CPU maps the window cached (SupportsCachedCpuHostAperture),
 *	else write-combined.
 */
struct vseg_host_aperture_stats {
	u32 slots;
	u32 used;
	u64 faults;
	u64 remaps;
	bool cached;
};

int vseg_host_aperture_init(struct vseg_device *vdev, u32 id);
bool vseg_host_aperture_serves(struct vseg_bo *vbo);
bool vseg_host_aperture_reaches(struct vseg_bo *vbo);
vm_fault_t vseg_host_aperture_fault(struct vseg_bo *vbo, struct vm_fault *vmf);
void vseg_host_aperture_drop(struct vseg_bo *vbo);
bool vseg_host_aperture_stats(struct vseg_device *vdev, u32 id,
			      struct vseg_host_aperture_stats *st);

#endif /* __VSEG_HOST_APERTURE_H__ */
