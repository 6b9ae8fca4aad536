/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Copyright (c) 2026 The vseg authors
 */
#ifndef __VSEG_GART_TYPES_H__
#define __VSEG_GART_TYPES_H__

#include <linux/mutex.h>
#include <linux/types.h>
#include <drm/drm_mm.h>

/* A GART entry: the physical address of a system page, plus a valid bit. */
#define VSEG_GART_PTE_VALID	BIT_ULL(0)
#define VSEG_GART_PTE_ADDR	PAGE_MASK
/* drm_mm colour of a range held for an invalid range of the aperture. */
#define VSEG_GART_RESERVED	1

/**
 * struct vseg_gart - the software GART behind the aperture segment
 * @num_pages: aperture size in host pages.
 * @lock: protects @mm, @pte and the counters; a physical job holds it over
 *	each step of a command that may touch aperture pages
 *	(vseg_gart_lock()).
 * @mm: the aperture's address space, in host pages: who owns which range.
 * @pte: one entry per aperture page; the engine translates through it.
 * @mapped: entries currently valid.
 * @ranges: ranges currently allocated (reserved ones not counted).
 * @binds: ranges bound to pages so far (paging: map aperture).
 * @unbinds: bound ranges invalidated so far (paging: unmap aperture).
 */
struct vseg_gart {
	u64 num_pages;
	struct mutex lock; /* see above */
	struct drm_mm mm;
	u64 *pte;
	u64 mapped;
	u64 ranges;
	u64 binds;
	u64 unbinds;
};

#endif /* __VSEG_GART_TYPES_H__ */
