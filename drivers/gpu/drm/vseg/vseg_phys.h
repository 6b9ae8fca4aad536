/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Copyright (c) 2026 The vseg authors
 */
#ifndef __VSEG_PHYS_H__
#define __VSEG_PHYS_H__

#include <linux/types.h>

#include "vseg_segment.h"

struct vseg_device;

/**
 * struct vseg_phys_seg - the GPU physical range of one segment
 * @start: its base address.
 * @last: the address of its last byte (a segment may end at 2^64).
 * @id: the segment id.
 */
struct vseg_phys_seg {
	u64 start;
	u64 last;
	u32 id;
};

/**
 * struct vseg_phys_map - the GPU physical address space
 * @num: entries used in @seg.
 * @seg: the memory segments and the aperture, sorted by @start; the
 *	ranges never overlap.
 *
 * Segment 0, system memory, has no range: the GPU reaches system memory
 * physically only through the aperture. Addresses between segments, or
 * past the last one, are not memory.
 */
struct vseg_phys_map {
	u32 num;
	struct vseg_phys_seg seg[VSEG_MAX_SEGMENTS];
};

int vseg_phys_map_init(struct vseg_device *vdev);
bool vseg_phys_resolve(const struct vseg_device *vdev, u64 addr, u32 *id,
		       u64 *off);
u64 vseg_phys_base(const struct vseg_device *vdev, u32 id);

#endif /* __VSEG_PHYS_H__ */
