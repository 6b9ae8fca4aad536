// SPDX-License-Identifier: GPL-2.0-only
/*
 * Copyright (c) 2026 The vseg authors
 *
 * The aperture segment's GART, the allocator's side. The aperture is an
 * address range of the GPU; each of its host pages has one entry in the
 * GPU's GART that points at a system page. A buffer that must be reached
 * physically while it lives in system memory gets a range of the
 * aperture and entries that point at exactly its pages, so that the GPU
 * sees it as contiguous.
 *
 * Ranges are handed out by a drm_mm over the aperture; the entries are
 * the hardware's (vseg_hw_ops.gart_write, .gart_clear, and the paging
 * engine's MAP_APERTURE and UNMAP_APERTURE operations), written only when
 * a range is bound to pages and cleared when it is unbound. This file
 * keeps the ranges, the counters and what debugfs shows.
 */

#include <kunit/visibility.h>
#include <linux/mm.h>
#include <linux/slab.h>
#include <drm/drm_print.h>

#include "vseg_gart.h"
#include "vseg_hw.h"
#include "vseg_trace.h"

/**
 * vseg_gart_init() - create an empty GART
 * @gart: the GART
 * @hw: the GPU whose GART entries the aperture's are
 * @base: GPU physical address of the aperture
 * @size: aperture size in bytes, a multiple of PAGE_SIZE
 *
 * Return: 0 or -ENOMEM.
 */
int vseg_gart_init(struct vseg_gart *gart, struct vseg_hw *hw, u64 base,
		   u64 size)
{
	int err;

	gart->hw = hw;
	gart->num_pages = size >> PAGE_SHIFT;
	err = hw->ops->gart_setup(hw, base, gart->num_pages);
	if (err)
		return err;
	mutex_init(&gart->lock);
	drm_mm_init(&gart->mm, 0, gart->num_pages);
	gart->mapped = 0;
	gart->ranges = 0;
	gart->binds = 0;
	gart->unbinds = 0;
	return 0;
}
EXPORT_SYMBOL_IF_KUNIT(vseg_gart_init);

/**
 * vseg_gart_fini() - destroy a GART; every range must have been freed
 * @gart: the GART
 */
void vseg_gart_fini(struct vseg_gart *gart)
{
	drm_mm_takedown(&gart->mm);
	mutex_destroy(&gart->lock);
	gart->hw->ops->gart_setup(gart->hw, 0, 0);
}
EXPORT_SYMBOL_IF_KUNIT(vseg_gart_fini);

/**
 * vseg_gart_alloc() - take a range of the aperture
 * @gart: the GART
 * @node: receives the range (in host pages)
 * @num_pages: length
 * @align_pages: alignment of the start, 0 for none
 * @fpfn: first page the range may use
 * @lpfn: page the range must end before, 0 for the end of the aperture
 * @topdown: take the highest free range rather than the lowest
 *
 * The entries of the new range are invalid until vseg_gart_bind().
 *
 * Return: 0, or -ENOSPC when no range fits.
 */
int vseg_gart_alloc(struct vseg_gart *gart, struct drm_mm_node *node,
		    u64 num_pages, u64 align_pages, u64 fpfn, u64 lpfn,
		    bool topdown)
{
	int err;

	if (!lpfn || lpfn > gart->num_pages)
		lpfn = gart->num_pages;
	mutex_lock(&gart->lock);
	err = drm_mm_insert_node_in_range(&gart->mm, node, num_pages,
					  align_pages, 0, fpfn, lpfn,
					  topdown ? DRM_MM_INSERT_HIGH :
						    DRM_MM_INSERT_LOW);
	if (!err)
		gart->ranges++;
	mutex_unlock(&gart->lock);
	return err ? -ENOSPC : 0;
}
EXPORT_SYMBOL_IF_KUNIT(vseg_gart_alloc);

/**
 * vseg_gart_reserve() - hold a range of the aperture that is never handed out
 * @gart: the GART
 * @node: receives the range; marked %VSEG_GART_RESERVED
 * @start: first page
 * @num_pages: length
 *
 * For the aperture's invalid ranges: no buffer gets entries there, so no
 * engine ever reaches them.
 *
 * Return: 0, or -ENOSPC if the range is outside the aperture or taken.
 */
int vseg_gart_reserve(struct vseg_gart *gart, struct drm_mm_node *node,
		      u64 start, u64 num_pages)
{
	int err;

	node->start = start;
	node->size = num_pages;
	node->color = VSEG_GART_RESERVED;
	mutex_lock(&gart->lock);
	err = drm_mm_reserve_node(&gart->mm, node);
	mutex_unlock(&gart->lock);
	return err ? -ENOSPC : 0;
}
EXPORT_SYMBOL_IF_KUNIT(vseg_gart_reserve);

/**
 * vseg_gart_unreserve() - give back a range held by vseg_gart_reserve()
 * @gart: the GART
 * @node: the range; may be unallocated
 */
void vseg_gart_unreserve(struct vseg_gart *gart, struct drm_mm_node *node)
{
	if (!drm_mm_node_allocated(node))
		return;
	mutex_lock(&gart->lock);
	drm_mm_remove_node(node);
	mutex_unlock(&gart->lock);
}
EXPORT_SYMBOL_IF_KUNIT(vseg_gart_unreserve);

/*
 * Clear entries through the hardware: once it returns, no engine step
 * uses them. Counts one unbind if an entry was valid.
 */
static void gart_clear_pages(struct vseg_gart *gart, u64 start, u64 num_pages)
{
	u64 cleared = 0;

	lockdep_assert_held(&gart->lock);
	if (gart->hw->ops->gart_clear(gart->hw, start, num_pages, &cleared))
		return;
	gart->mapped -= cleared;
	if (cleared) {
		gart->unbinds++;
		trace_vseg_gart_unmap(start << PAGE_SHIFT,
				      num_pages << PAGE_SHIFT);
	}
}

static void gart_clear(struct vseg_gart *gart, const struct drm_mm_node *node)
{
	gart_clear_pages(gart, node->start, node->size);
}

/**
 * vseg_gart_free() - give a range back, clearing its entries
 * @gart: the GART
 * @node: the range; may be unallocated
 */
void vseg_gart_free(struct vseg_gart *gart, struct drm_mm_node *node)
{
	if (!drm_mm_node_allocated(node))
		return;
	mutex_lock(&gart->lock);
	gart_clear(gart, node);
	drm_mm_remove_node(node);
	gart->ranges--;
	mutex_unlock(&gart->lock);
}
EXPORT_SYMBOL_IF_KUNIT(vseg_gart_free);

/**
 * vseg_gart_bind() - point a range's entries at system pages
 * @gart: the GART
 * @node: an allocated range
 * @pages: the pages, in the order the GPU is to see them
 * @num_pages: number of @pages, at most the range's length
 *
 * The hardware's entries are written a run of physically contiguous
 * pages at a time.
 *
 * Return: 0, or -EINVAL if the pages do not fit the range.
 */
int vseg_gart_bind(struct vseg_gart *gart, const struct drm_mm_node *node,
		   struct page **pages, u64 num_pages)
{
	struct vseg_hw *hw = gart->hw;
	u64 i, n, set;
	int err = 0;

	if (!drm_mm_node_allocated(node) || num_pages > node->size)
		return -EINVAL;
	mutex_lock(&gart->lock);
	gart_clear(gart, node);
	for (i = 0; i < num_pages && !err; i += n) {
		for (n = 1; i + n < num_pages; n++)
			if (page_to_phys(pages[i + n]) !=
			    page_to_phys(pages[i]) + (n << PAGE_SHIFT))
				break;
		err = hw->ops->gart_write(hw, node->start + i,
					  page_to_phys(pages[i]), n, &set);
		gart->mapped += set;
	}
	gart->binds++;
	mutex_unlock(&gart->lock);
	trace_vseg_gart_map(node->start << PAGE_SHIFT, num_pages << PAGE_SHIFT);
	return err;
}
EXPORT_SYMBOL_IF_KUNIT(vseg_gart_bind);

/**
 * vseg_gart_account() - count what the paging engine did to the entries
 * @gart: the GART
 * @res: what a run of paging operations reported
 *
 * The paging engine's MAP_APERTURE and UNMAP_APERTURE write the
 * hardware's entries themselves: the counters follow their report. The
 * GPU counts each entry's changes exactly, under its own lock, but the
 * reports of a batch and of a clear by the core (vseg_gart_unbind()) may
 * reach the counter in either order: it may dip below zero for a moment
 * and is exact once both are in.
 */
void vseg_gart_account(struct vseg_gart *gart,
		       const struct vseg_hw_paging_result *res)
{
	if (!res->gart_set && !res->gart_cleared && !res->gart_binds &&
	    !res->gart_unbinds)
		return;
	mutex_lock(&gart->lock);
	gart->mapped += res->gart_set;
	gart->mapped -= res->gart_cleared;
	gart->binds += res->gart_binds;
	gart->unbinds += res->gart_unbinds;
	mutex_unlock(&gart->lock);
}
EXPORT_SYMBOL_IF_KUNIT(vseg_gart_account);

/**
 * vseg_gart_unbind() - invalidate a range's entries, keeping the range
 * @gart: the GART
 * @node: the range; may be unallocated
 */
void vseg_gart_unbind(struct vseg_gart *gart, const struct drm_mm_node *node)
{
	if (!drm_mm_node_allocated(node))
		return;
	mutex_lock(&gart->lock);
	gart_clear(gart, node);
	mutex_unlock(&gart->lock);
}
EXPORT_SYMBOL_IF_KUNIT(vseg_gart_unbind);

/**
 * vseg_gart_entry() - read an aperture page's entry back from the hardware
 * @gart: the GART
 * @offset: byte offset into the aperture
 * @phys: receives the system physical address of that byte
 *
 * For debugfs and tests: the entry may change as soon as it is read.
 *
 * Return: 0, or -EFAULT for an offset outside the aperture or behind an
 * invalid entry.
 */
int vseg_gart_entry(struct vseg_gart *gart, u64 offset, phys_addr_t *phys)
{
	u64 e;

	if (offset >> PAGE_SHIFT >= gart->num_pages ||
	    gart->hw->ops->gart_read(gart->hw, offset >> PAGE_SHIFT, &e, 1) != 1 ||
	    e == VSEG_HW_GART_INVALID)
		return -EFAULT;
	*phys = e | offset_in_page(offset);
	return 0;
}
EXPORT_SYMBOL_IF_KUNIT(vseg_gart_entry);

/**
 * vseg_gart_mapped_bytes() - bytes of the aperture with valid entries
 * @gart: the GART
 *
 * Return: mapped bytes.
 */
u64 vseg_gart_mapped_bytes(struct vseg_gart *gart)
{
	s64 mapped;

	mutex_lock(&gart->lock);
	mapped = gart->mapped;
	mutex_unlock(&gart->lock);
	return max_t(s64, mapped, 0) << PAGE_SHIFT;
}
EXPORT_SYMBOL_IF_KUNIT(vseg_gart_mapped_bytes);

/**
 * vseg_gart_counts() - how many times ranges were bound and unbound
 * @gart: the GART
 * @binds: receives the bind count
 * @unbinds: receives the unbind count
 */
void vseg_gart_counts(struct vseg_gart *gart, u64 *binds, u64 *unbinds)
{
	mutex_lock(&gart->lock);
	*binds = gart->binds;
	*unbinds = gart->unbinds;
	mutex_unlock(&gart->lock);
}
EXPORT_SYMBOL_IF_KUNIT(vseg_gart_counts);

/**
 * vseg_gart_walk() - walk the allocated ranges in address order
 * @gart: the GART
 * @fn: called with each range (not the reserved ones), under the GART
 *	lock: it must not sleep on other locks
 * @arg: passed to @fn
 */
void vseg_gart_walk(struct vseg_gart *gart,
		    void (*fn)(void *arg, struct drm_mm_node *node),
		    void *arg)
{
	struct drm_mm_node *node;

	mutex_lock(&gart->lock);
	drm_mm_for_each_node(node, &gart->mm)
		if (node->color != VSEG_GART_RESERVED)
			fn(arg, node);
	mutex_unlock(&gart->lock);
}
EXPORT_SYMBOL_IF_KUNIT(vseg_gart_walk);

/* How many of a range's entries the hardware holds valid. */
static u64 gart_range_valid(struct vseg_gart *gart, u64 start, u64 num)
{
	u64 e[16], valid = 0, n, i;

	while (num) {
		n = gart->hw->ops->gart_read(gart->hw, start, e,
					     min_t(u64, num, ARRAY_SIZE(e)));
		if (!n)
			break;
		for (i = 0; i < n; i++)
			valid += e[i] != VSEG_HW_GART_INVALID;
		start += n;
		num -= n;
	}
	return valid;
}

/**
 * vseg_gart_print() - describe the GART state
 * @gart: the GART
 * @p: where to print
 *
 * The counters, then each range with how many of its entries the
 * hardware holds valid, read back from it.
 */
void vseg_gart_print(struct vseg_gart *gart, struct drm_printer *p)
{
	struct drm_mm_node *node;

	mutex_lock(&gart->lock);
	drm_printf(p, "gart: %llu pages, %llu ranges, %lld entries valid\n",
		   gart->num_pages, gart->ranges, gart->mapped);
	drm_mm_print(&gart->mm, p);
	drm_mm_for_each_node(node, &gart->mm)
		if (node->color != VSEG_GART_RESERVED)
			drm_printf(p, "gart range %#llx+%#llx: %llu entries valid\n",
				   node->start, node->size,
				   gart_range_valid(gart, node->start,
						    node->size));
	mutex_unlock(&gart->lock);
}
EXPORT_SYMBOL_IF_KUNIT(vseg_gart_print);
