/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Copyright (c) 2026 The vseg authors
 */
#ifndef __VSEG_GART_H__
#define __VSEG_GART_H__

#include <linux/types.h>

#include "vseg_gart_types.h"

struct drm_mm_node;
struct drm_printer;
struct page;
struct vseg_hw;
struct vseg_hw_paging_result;

int vseg_gart_init(struct vseg_gart *gart, struct vseg_hw *hw, u64 base,
		   u64 size);
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
void vseg_gart_account(struct vseg_gart *gart,
		       const struct vseg_hw_paging_result *res);
int vseg_gart_entry(struct vseg_gart *gart, u64 offset, phys_addr_t *phys);
void vseg_gart_walk(struct vseg_gart *gart,
		    void (*fn)(void *arg, struct drm_mm_node *node),
		    void *arg);
u64 vseg_gart_mapped_bytes(struct vseg_gart *gart);
void vseg_gart_counts(struct vseg_gart *gart, u64 *binds, u64 *unbinds);
void vseg_gart_print(struct vseg_gart *gart, struct drm_printer *p);

#endif /* __VSEG_GART_H__ */
