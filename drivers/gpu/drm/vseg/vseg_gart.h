/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Copyright (c) 2026 The vseg authors
 */
#ifndef __VSEG_GART_H__
#define __VSEG_GART_H__

#include <linux/mutex.h>
#include <linux/types.h>
#include <drm/drm_mm.h>

struct drm_printer;
struct page;

/* A GART entry: the physical address of a system page, plus a valid bit. */
#define VSEG_GART_PTE_VALID	BIT_ULL(0)
#define VSEG_GART_PTE_ADDR	PAGE_MASK
/* drm_mm colour of a range held for an invalid range of the aperture. */
#define VSEG_GART_RESERVED	1

/**
 * struct vseg_gart - the software GART behind the aperture segment
 * @num_pages: aperture size in host pages.
 * @lock: protects @mm, @pte and @mapped; a physical job holds it over each
 *	command that may touch aperture pages.
 * @mm: the aperture's address space, in host pages: who owns which range.
 * @pte: one entry per aperture page; the engine translates through it.
 * @mapped: entries currently valid.
 * @ranges: ranges currently allocated.
 * @binds: ranges bound to pages so far (paging: map aperture).
 * @unbinds: bound ranges invalidated so far (paging: unmap aperture).
 */
struct vseg_gart {
	u64 num_pages;
	struct mutex lock; /* protects mm, pte, mapped, ranges */
	struct drm_mm mm;
	u64 *pte;
	u64 mapped;
	u64 ranges;
	u64 binds;
	u64 unbinds;
};

int vseg_gart_init(struct vseg_gart *gart, u64 size);
void vseg_gart_fini(struct vseg_gart *gart);
int vseg_gart_alloc(struct vseg_gart *gart, struct drm_mm_node *node,
		    u64 num_pages, u64 align_pages, u64 fpfn, u64 lpfn,
		    bool topdown);
void vseg_gart_free(struct vseg_gart *gart, struct drm_mm_node *node);
int vseg_gart_reserve(struct vseg_gart *gart, struct drm_mm_node *node,
		      u64 start, u64 num_pages);
void vseg_gart_unreserve(struct vseg_gart *gart, struct drm_mm_node *node);
int vseg_gart_bind(struct vseg_gart *gart, const struct drm_mm_node *node,
		   struct page **pages, u64 num_pages);
void vseg_gart_unbind(struct vseg_gart *gart, const struct drm_mm_node *node);
int vseg_gart_translate(struct vseg_gart *gart, u64 offset,
			phys_addr_t *phys);
int __vseg_gart_translate(struct vseg_gart *gart, u64 offset,
			  phys_addr_t *phys);
u64 vseg_gart_mapped_bytes(struct vseg_gart *gart);
void vseg_gart_counts(struct vseg_gart *gart, u64 *binds, u64 *unbinds);
void vseg_gart_print(struct vseg_gart *gart, struct drm_printer *p);

#endif /* __VSEG_GART_H__ */
