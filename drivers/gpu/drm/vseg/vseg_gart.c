// SPDX-License-Identifier: GPL-2.0-only
/*
 * Copyright (c) 2026 The vseg authors
 *
 * The software GART: the page table of the aperture segment. The aperture
 * is an address range of the GPU; each of its host pages has one entry
 * that points at a system page. A buffer that must be reached physically
 * while it lives in system memory gets a range of the aperture and entries
 * that point at exactly its pages, so that the GPU sees it as contiguous.
 *
 * Ranges are handed out by a drm_mm over the aperture; entries are written
 * only when a range is bound to pages, and cleared when it is unbound.
 */

#include <kunit/visibility.h>
#include <linux/io.h>
#include <linux/mm.h>
#include <linux/slab.h>
#include <drm/drm_print.h>

#include "vseg_gart.h"
#include "vseg_trace.h"

/**
 * vseg_gart_init() - create an empty GART
 * @gart: the GART
 * @size: aperture size in bytes, a multiple of PAGE_SIZE
 *
 * Return: 0 or -ENOMEM.
 */
int vseg_gart_init(struct vseg_gart *gart, u64 size)
{
	gart->num_pages = size >> PAGE_SHIFT;
	gart->pte = kvcalloc(gart->num_pages, sizeof(*gart->pte), GFP_KERNEL);
	if (!gart->pte)
		return -ENOMEM;
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
	kvfree(gart->pte);
	gart->pte = NULL;
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

static void gart_clear_pages(struct vseg_gart *gart, u64 start, u64 num_pages)
{
	bool was_bound = false;
	u64 i;

	lockdep_assert_held(&gart->lock);
	for (i = start; i < start + num_pages; i++) {
		if (gart->pte[i] & VSEG_GART_PTE_VALID) {
			gart->mapped--;
			was_bound = true;
		}
		WRITE_ONCE(gart->pte[i], 0);
	}
	if (was_bound) {
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
 * Return: 0, or -EINVAL if the pages do not fit the range.
 */
int vseg_gart_bind(struct vseg_gart *gart, const struct drm_mm_node *node,
		   struct page **pages, u64 num_pages)
{
	u64 i;

	if (!drm_mm_node_allocated(node) || num_pages > node->size)
		return -EINVAL;
	mutex_lock(&gart->lock);
	gart_clear(gart, node);
	for (i = 0; i < num_pages; i++) {
		WRITE_ONCE(gart->pte[node->start + i],
			   page_to_phys(pages[i]) | VSEG_GART_PTE_VALID);
		gart->mapped++;
	}
	gart->binds++;
	mutex_unlock(&gart->lock);
	trace_vseg_gart_map(node->start << PAGE_SHIFT, num_pages << PAGE_SHIFT);
	return 0;
}
EXPORT_SYMBOL_IF_KUNIT(vseg_gart_bind);

/* Is [first, first + num_pages) inside the aperture? */
static bool gart_run_valid(struct vseg_gart *gart, u64 first, u64 num_pages)
{
	return first < gart->num_pages && num_pages &&
	       num_pages <= gart->num_pages - first;
}

/**
 * vseg_gart_map_run() - point entries at physically contiguous pages
 * @gart: the GART
 * @first: first aperture page
 * @phys: physical address of the first system page, page aligned
 * @num_pages: entries to write
 * @new_range: the first run of a range: count one bind
 *
 * For the paging engine, which maps a buffer's pages run by run: it
 * neither allocates nor checks who owns the entries (the range's owner
 * wrote the operation).
 *
 * Return: 0, or -EINVAL if the run is not inside the aperture.
 */
int vseg_gart_map_run(struct vseg_gart *gart, u64 first, phys_addr_t phys,
		      u64 num_pages, bool new_range)
{
	u64 i;

	if (!gart_run_valid(gart, first, num_pages) || offset_in_page(phys))
		return -EINVAL;
	mutex_lock(&gart->lock);
	for (i = 0; i < num_pages; i++) {
		if (!(gart->pte[first + i] & VSEG_GART_PTE_VALID))
			gart->mapped++;
		WRITE_ONCE(gart->pte[first + i],
			   (phys + (i << PAGE_SHIFT)) | VSEG_GART_PTE_VALID);
	}
	if (new_range)
		gart->binds++;
	mutex_unlock(&gart->lock);
	trace_vseg_gart_map(first << PAGE_SHIFT, num_pages << PAGE_SHIFT);
	return 0;
}
EXPORT_SYMBOL_IF_KUNIT(vseg_gart_map_run);

/**
 * vseg_gart_unmap_run() - invalidate entries, keeping their range
 * @gart: the GART
 * @first: first aperture page
 * @num_pages: entries to clear
 *
 * The paging engine's unmap; counts one unbind if an entry was valid.
 *
 * Return: 0, or -EINVAL if the run is not inside the aperture.
 */
int vseg_gart_unmap_run(struct vseg_gart *gart, u64 first, u64 num_pages)
{
	if (!gart_run_valid(gart, first, num_pages))
		return -EINVAL;
	mutex_lock(&gart->lock);
	gart_clear_pages(gart, first, num_pages);
	mutex_unlock(&gart->lock);
	return 0;
}
EXPORT_SYMBOL_IF_KUNIT(vseg_gart_unmap_run);

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
 * vseg_gart_lock() - hold the GART still
 * @gart: the GART
 *
 * While it is held no entry changes: a page found through
 * vseg_gart_translate_locked() stays mapped, and allocated, until
 * vseg_gart_unlock(). Hold it briefly (one step of a command).
 */
void vseg_gart_lock(struct vseg_gart *gart)
{
	mutex_lock(&gart->lock);
}
EXPORT_SYMBOL_IF_KUNIT(vseg_gart_lock);

/**
 * vseg_gart_unlock() - let the GART change again
 * @gart: the GART, locked by vseg_gart_lock()
 */
void vseg_gart_unlock(struct vseg_gart *gart)
{
	mutex_unlock(&gart->lock);
}
EXPORT_SYMBOL_IF_KUNIT(vseg_gart_unlock);

/**
 * vseg_gart_translate_locked() - vseg_gart_translate() under the GART lock
 * @gart: the GART, locked by the caller (vseg_gart_lock())
 * @offset: byte offset into the aperture
 * @phys: receives the system physical address
 *
 * The page stays mapped, and allocated, until the caller drops the lock.
 *
 * Return: 0, or -EFAULT for an offset outside the aperture or behind an
 * invalid entry.
 */
int vseg_gart_translate_locked(struct vseg_gart *gart, u64 offset,
			       phys_addr_t *phys)
{
	u64 idx = offset >> PAGE_SHIFT;
	u64 pte;

	lockdep_assert_held(&gart->lock);
	if (idx >= gart->num_pages)
		return -EFAULT;
	pte = gart->pte[idx];
	if (!(pte & VSEG_GART_PTE_VALID))
		return -EFAULT;
	*phys = (pte & VSEG_GART_PTE_ADDR) | (offset & ~PAGE_MASK);
	return 0;
}
EXPORT_SYMBOL_IF_KUNIT(vseg_gart_translate_locked);

/**
 * vseg_gart_translate() - resolve an aperture offset as the GPU does
 * @gart: the GART
 * @offset: byte offset into the aperture
 * @phys: receives the system physical address
 *
 * Takes the GART lock for the lookup only: callers that go on to use the
 * page hold the lock themselves and call vseg_gart_translate_locked().
 *
 * Return: 0, or -EFAULT for an offset outside the aperture or behind an
 * invalid entry.
 */
int vseg_gart_translate(struct vseg_gart *gart, u64 offset, phys_addr_t *phys)
{
	int err;

	mutex_lock(&gart->lock);
	err = vseg_gart_translate_locked(gart, offset, phys);
	mutex_unlock(&gart->lock);
	return err;
}
EXPORT_SYMBOL_IF_KUNIT(vseg_gart_translate);

/**
 * vseg_gart_mapped_bytes() - bytes of the aperture with valid entries
 * @gart: the GART
 *
 * Return: mapped bytes.
 */
u64 vseg_gart_mapped_bytes(struct vseg_gart *gart)
{
	u64 mapped;

	mutex_lock(&gart->lock);
	mapped = gart->mapped;
	mutex_unlock(&gart->lock);
	return mapped << PAGE_SHIFT;
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

/**
 * vseg_gart_print() - describe the GART state
 * @gart: the GART
 * @p: where to print
 */
void vseg_gart_print(struct vseg_gart *gart, struct drm_printer *p)
{
	mutex_lock(&gart->lock);
	drm_printf(p, "gart: %llu pages, %llu ranges, %llu entries valid\n",
		   gart->num_pages, gart->ranges, gart->mapped);
	drm_mm_print(&gart->mm, p);
	mutex_unlock(&gart->lock);
}
EXPORT_SYMBOL_IF_KUNIT(vseg_gart_print);
