/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Copyright (c) 2026 The vseg authors
 */
#ifndef __VSEG_GART_TYPES_H__
#define __VSEG_GART_TYPES_H__

#include <linux/mutex.h>
#include <linux/types.h>
#include <drm/drm_mm.h>

struct vseg_hw;

/* drm_mm colour of a range held for an invalid range of the aperture. */
#define VSEG_GART_RESERVED	1

/**
 * struct vseg_gart - the aperture segment's ranges and its GART's counters
 * @hw: the GPU, whose GART holds the entries (vseg_hw_ops.gart_write).
 * @num_pages: aperture size in host pages.
 * @lock: protects @mm and the counters; taken before the GPU's GART
 *	lock, never under it.
 * @mm: the aperture's address space, in host pages: who owns which range.
 * @mapped: entries currently valid (as the GPU reported writing them;
 *	see vseg_gart_account()).
 * @ranges: ranges currently allocated (reserved ones not counted).
 * @binds: ranges bound to pages so far (paging: map aperture).
 * @unbinds: bound ranges invalidated so far (paging: unmap aperture).
 */
struct vseg_gart {
	struct vseg_hw *hw;
	u64 num_pages;
	struct mutex lock; /* see above */
	struct drm_mm mm;
	u64 *pte;
	s64 mapped;
	u64 ranges;
	u64 binds;
	u64 unbinds;
};

#endif /* __VSEG_GART_TYPES_H__ */
