// SPDX-License-Identifier: GPL-2.0-only
/*
 * Copyright (c) 2026 The vseg authors
 *
 * Memory-segment manager: one TTM resource manager per memory segment, a
 * buddy allocator working in the segment's page size (4 KiB or 64 KiB).
 *
 * Requests carry the WDDM placement properties through the TTM place:
 * TTM_PL_FLAG_CONTIGUOUS for AccessedPhysically and primaries, fpfn/lpfn
 * for banks and for the CPU-visible part of a small-BAR segment, and
 * TTM_PL_FLAG_TOPDOWN for top-down preference. Without CONTIGUOUS a
 * buffer is a set of segment pages that may be scattered.
 *
 * A segment's bytes are system pages of a backing store, allocated as they
 * are written; a segment on a PCI BAR (vseg_pci.c) has its first bytes in
 * the BAR instead, reached through a write-combined mapping of it by the
 * engines and the paging operations, and by the CPU at the BAR's bus
 * address. Both read zero where nothing was written since the bytes were
 * last freed.
 */

#include <kunit/visibility.h>
#include <linux/highmem.h>
#include <linux/io.h>
#include <linux/list_sort.h>
#include <linux/moduleparam.h>
#include <linux/sysfs.h>
#include <linux/slab.h>
#include <drm/drm_managed.h>
#include <drm/drm_print.h>
#include <drm/ttm/ttm_device.h>

#include "vseg_compat.h"
#include "vseg_device_types.h"
#include "vseg_dmem.h"
#include "vseg_page_pool.h"
#include "vseg_vram_mgr.h"

static inline struct vseg_vram_mgr *
to_vram_mgr(struct ttm_resource_manager *man)
{
	return container_of(man, struct vseg_vram_mgr, manager);
}

static u64 block_start(const struct drm_buddy_block *block)
{
	return drm_buddy_block_offset((struct drm_buddy_block *)block);
}

static int block_cmp(void *priv, const struct list_head *a,
		     const struct list_head *b)
{
	u64 x = block_start(list_entry(a, struct drm_buddy_block, link));
	u64 y = block_start(list_entry(b, struct drm_buddy_block, link));

	return x < y ? -1 : x > y;
}

static bool blocks_contiguous(struct drm_buddy *mm, struct list_head *blocks,
			      u64 *first)
{
	struct drm_buddy_block *block;
	u64 lo = U64_MAX, hi = 0, sum = 0;

	list_for_each_entry(block, blocks, link) {
		u64 start = block_start(block);
		u64 size = drm_buddy_block_size(mm, block);

		lo = min(lo, start);
		hi = max(hi, start + size);
		sum += size;
	}
	*first = lo;
	return sum && hi - lo == sum;
}

/*
 * drm_buddy's range allocation walks the block tree depth first from offset
 * 0, visiting every allocated block below the first free one: with many
 * live buffers at the bottom of a segment each bottom-up allocation would
 * cost O(buffers). Nothing is free below @free_hint, so the walk can start
 * there: the result is the same block, found without the walk.
 */
static void free_hint_after_alloc(struct vseg_vram_mgr *mgr,
				  struct list_head *blocks)
{
	struct drm_buddy_block *block;

	lockdep_assert_held(&mgr->lock);
	/* range allocations hand out blocks in ascending order */
	list_for_each_entry(block, blocks, link)
		if (block_start(block) == mgr->free_hint)
			mgr->free_hint += drm_buddy_block_size(&mgr->mm, block);
}

static void free_hint_before_free(struct vseg_vram_mgr *mgr,
				  struct list_head *blocks)
{
	struct drm_buddy_block *block;

	lockdep_assert_held(&mgr->lock);
	list_for_each_entry(block, blocks, link)
		mgr->free_hint = min(mgr->free_hint, block_start(block));
}

/*
 * A bottom-up buffer that may be scattered, one block at a time, largest
 * first, each from @free_hint on: the blocks drm_buddy would pick (the
 * lowest free block of the largest order that still has one), but without
 * its walk from the bottom of the range for every block, which costs
 * O(blocks^2) for a buffer landing in many holes. An order that had no
 * free block stays without one while the lock is held, so it is asked for
 * once.
 */
static int vram_alloc_scattered(struct vseg_vram_mgr *mgr, u64 start, u64 end,
				u64 size, struct list_head *blocks,
				unsigned long flags)
{
	u64 page = mgr->desc->page_size, left = size, cap = U64_MAX;
	struct drm_buddy_block *blk;
	u64 chunk, s, at;
	LIST_HEAD(got);
	int err = 0;

	while (left) {
		chunk = min(cap, rounddown_pow_of_two(left));
		s = max(start, mgr->free_hint);
		if (s >= end) {
			err = -ENOSPC;
			break;
		}
		if (chunk > end - s) {
			err = -ENOSPC;
		} else {
			LIST_HEAD(one);

			err = vseg_buddy_alloc(&mgr->mm, s, end, chunk, chunk,
					       &one, flags);
			if (!err) {
				blk = list_first_entry(&one, typeof(*blk), link);
				at = block_start(blk);
				/*
				 * A single page found from the hint on is the
				 * lowest free page: nothing is free before
				 * its end any more.
				 */
				if (chunk == page && s == mgr->free_hint)
					mgr->free_hint = at + page;
				free_hint_after_alloc(mgr, &one);
				list_splice_tail(&one, &got);
				left -= chunk;
				continue;
			}
		}
		if (err != -ENOSPC || chunk <= page)
			break;
		cap = chunk / 2;
	}
	if (err) {
		free_hint_before_free(mgr, &got);
		vseg_buddy_free_list(&mgr->mm, &got);
		return err;
	}
	list_splice_tail(&got, blocks);
	return 0;
}

/* Give every cached block back to the buddy allocator. */
static void vram_cache_drain(struct vseg_vram_mgr *mgr)
{
	lockdep_assert_held(&mgr->lock);
	if (!mgr->cached)
		return;
	free_hint_before_free(mgr, &mgr->cache);
	vseg_buddy_free_list(&mgr->mm, &mgr->cache);
	INIT_LIST_HEAD(&mgr->cache);
	mgr->cached = 0;
}

/*
 * Keep the single-page block of a freed buffer, in offset order, instead
 * of merging it back into the buddy tree (and splitting it out again for
 * the next buffer). False when the cache is full.
 */
static bool vram_cache_put(struct vseg_vram_mgr *mgr,
			   struct drm_buddy_block *block)
{
	struct drm_buddy_block *pos;
	u64 at = block_start(block);

	lockdep_assert_held(&mgr->lock);
	if (mgr->cached >= VSEG_VRAM_CACHE_MAX)
		return false;
	/* freed buffers tend to come in ascending order: look from the end */
	list_for_each_entry_reverse(pos, &mgr->cache, link)
		if (block_start(pos) < at)
			break;
	list_add(&block->link, &pos->link);
	mgr->cached++;
	return true;
}

/*
 * A cached block for a request, if it is the block the buddy allocator
 * would give were the cache empty: a bottom-up request for one segment
 * page (range allocation: the lowest free page of the range), and the
 * lowest cached page of the range lies below every page free in @mm
 * there (at or below @free_hint, or first in the range). Any other
 * request empties the cache into @mm first, which then answers as if the
 * cache had never been: the cache changes no placement, only its cost.
 *
 * Return: true if a block was moved to @blocks.
 */
static bool vram_cache_take(struct vseg_vram_mgr *mgr, u64 start, u64 end,
			    u64 size, u64 align, unsigned long flags,
			    struct list_head *blocks)
{
	u64 page = mgr->desc->page_size;
	struct drm_buddy_block *block;
	u64 at;

	lockdep_assert_held(&mgr->lock);
	if (!mgr->cached)
		return false;
	if (size == page && align == page &&
	    (flags & DRM_BUDDY_RANGE_ALLOCATION)) {
		list_for_each_entry(block, &mgr->cache, link) {
			at = block_start(block);
			if (at < start)
				continue;
			if (at + page > end ||
			    (at != start && at > mgr->free_hint))
				break;
			list_move_tail(&block->link, blocks);
			mgr->cached--;
			return true;
		}
	}
	vram_cache_drain(mgr);
	return false;
}

static int vram_alloc(struct vseg_vram_mgr *mgr, const struct ttm_place *place,
		      u64 start, u64 end, u64 size, u64 align,
		      struct list_head *blocks, unsigned long flags)
{
	bool contig = place->flags & TTM_PL_FLAG_CONTIGUOUS;

	if (flags & DRM_BUDDY_RANGE_ALLOCATION) {
		start = max(start, mgr->free_hint);
		if (start >= end || size > end - start)
			return -ENOSPC;
	}

	/*
	 * An alignment larger than the window leaves one candidate offset:
	 * ask for exactly that range.
	 */
	if (contig && align > end - start) {
		start = round_up(start, align);
		if (start >= end || size > end - start)
			return -ENOSPC;
		return drm_buddy_alloc_blocks(&mgr->mm, start, start + size,
					      size, mgr->desc->page_size,
					      blocks,
					      DRM_BUDDY_RANGE_ALLOCATION);
	}
	if (contig)
		return vseg_buddy_alloc_contig(&mgr->mm, start, end, size,
					       roundup_pow_of_two(align),
					       blocks, flags);
	if (flags & DRM_BUDDY_RANGE_ALLOCATION)
		return vram_alloc_scattered(mgr, start, end, size, blocks,
					    flags);
	return vseg_buddy_alloc(&mgr->mm, start, end, size,
				mgr->desc->page_size, blocks, flags);
}

/*
 * How many extents the protected placements of a segment (by offset, on
 * &vseg_vram_res.vpr_link) make: runs of placements each starting where
 * the previous one ends.
 */
static u32 vpr_extents(const struct list_head *list)
{
	const struct vseg_vram_res *r;
	u64 end = U64_MAX;
	u32 n = 0;

	list_for_each_entry(r, list, vpr_link) {
		u64 start = (u64)r->base.start << PAGE_SHIFT;

		if (start != end)
			n++;
		end = start + r->size;
	}
	return n;
}

/* Add a protected placement (contiguous) to its segment's list, by offset. */
static void vpr_extent_insert(struct list_head *list, struct vseg_vram_res *vres)
{
	struct vseg_vram_res *r;

	list_for_each_entry(r, list, vpr_link)
		if (r->base.start > vres->base.start)
			break;
	list_add_tail(&vres->vpr_link, &r->vpr_link);
}

/* Does some byte of a range of a memory segment lie in its VPR? */
static bool vpr_overlaps(const struct vseg_segment_desc *desc, u64 offset,
			 u64 size)
{
	if (desc->kind != VSEG_SEGMENT_MEMORY ||
	    !(desc->flags & VSEG_SEGF_VPR_SUPPORTED) || !desc->vpr_size || !size)
		return false;
	return offset < desc->vpr_start + desc->vpr_size &&
	       (desc->vpr_start <= offset || desc->vpr_start - offset < size);
}

/**
 * vseg_vram_vpr_extents() - how many extents a segment's VPR holds
 * @mgr: the manager
 *
 * Return: the runs of protected placements each starting where the
 * previous one ends.
 */
u32 vseg_vram_vpr_extents(struct vseg_vram_mgr *mgr)
{
	u32 n;

	mutex_lock(&mgr->lock);
	n = vpr_extents(&mgr->vpr);
	mutex_unlock(&mgr->lock);
	return n;
}

/*
 * A protected buffer's placement joins the segment's extents; refused
 * (its blocks freed) if it adds an extent beyond NumVprSupported.
 */
static int vpr_extent_add(struct vseg_vram_mgr *mgr,
			  struct vseg_vram_res *vres, u64 size)
{
	u32 max = mgr->desc->num_vpr_supported, before, after;
	struct drm_buddy_block *block;
	u64 first = U64_MAX;

	list_for_each_entry(block, &vres->blocks, link)
		first = min(first, block_start(block));
	vres->base.start = first >> PAGE_SHIFT;
	vres->size = size;
	before = vpr_extents(&mgr->vpr);
	vpr_extent_insert(&mgr->vpr, vres);
	after = vpr_extents(&mgr->vpr);
	if (!max || after <= max || after <= before)
		return 0;
	list_del_init(&vres->vpr_link);
	free_hint_before_free(mgr, &vres->blocks);
	vseg_buddy_free_list(&mgr->mm, &vres->blocks);
	return -ENOSPC;
}

static int vseg_vram_mgr_alloc(struct ttm_resource_manager *man,
			       struct ttm_buffer_object *bo,
			       const struct ttm_place *place,
			       struct ttm_resource **res)
{
	struct vseg_vram_mgr *mgr = to_vram_mgr(man);
	u64 page_size = mgr->desc->page_size;
	u64 seg_size = mgr->desc->size;
	u64 start = (u64)place->fpfn << PAGE_SHIFT;
	u64 end = place->lpfn ? (u64)place->lpfn << PAGE_SHIFT : seg_size;
	u64 align = max_t(u64, (u64)bo->page_alignment << PAGE_SHIFT, page_size);
	unsigned long flags = 0;
	struct vseg_vram_res *vres;
	u64 size, first;
	int err;

	size = round_up(bo->base.size, page_size);
	end = min(end, seg_size);
	if (start >= end || size > end - start)
		return -ENOSPC;
	/*
	 * drm_buddy's free-list allocation takes the highest free block, so
	 * it serves top-down requests; bottom-up (WDDM's default direction)
	 * and bank ranges use its range allocation, which takes the lowest.
	 */
	if ((place->flags & TTM_PL_FLAG_TOPDOWN) && !start && end == seg_size)
		flags |= DRM_BUDDY_TOPDOWN_ALLOCATION;
	else
		flags |= DRM_BUDDY_RANGE_ALLOCATION;

	vres = kzalloc(sizeof(*vres), GFP_KERNEL_ACCOUNT);
	if (!vres)
		return -ENOMEM;
	INIT_LIST_HEAD(&vres->blocks);
	INIT_LIST_HEAD(&vres->vpr_link);
	ttm_resource_init(bo, place, &vres->base);

	mutex_lock(&mgr->lock);
	if (vram_cache_take(mgr, start, end, size, align, flags,
			    &vres->blocks))
		err = 0;
	else
		err = vram_alloc(mgr, place, start, end, size, align,
				 &vres->blocks, flags);
	/*
	 * The range allocator has no fallback for fragmented contiguous
	 * requests; a whole-segment bottom-up request may still fit elsewhere.
	 */
	if (err == -ENOSPC && !start && end == seg_size)
		err = vram_alloc(mgr, place, start, end, size, align,
				 &vres->blocks, flags & ~DRM_BUDDY_RANGE_ALLOCATION);
	if (!err && mgr->protected && mgr->protected(bo))
		err = vpr_extent_add(mgr, vres, size);
	if (!err) {
		mgr->committed += size;
		free_hint_after_alloc(mgr, &vres->blocks);
	}
	mutex_unlock(&mgr->lock);
	if (err) {
		ttm_resource_fini(man, &vres->base);
		kfree(vres);
		/* Out of room is -ENOSPC for TTM, whatever the buddy said. */
		return err == -ENOMEM ? -ENOMEM : -ENOSPC;
	}

	vres->size = size;
	vres->contiguous = blocks_contiguous(&mgr->mm, &vres->blocks, &first);
	/*
	 * The buffer's bytes follow the block list. A top-down or mixed-order
	 * allocation may list the blocks of a contiguous range out of address
	 * order: sort them, so that byte n of a contiguous buffer is at
	 * offset start + n for the CPU (io_mem_pfn), the engine's physical
	 * addresses and the cursor alike.
	 */
	if (vres->contiguous)
		list_sort(NULL, &vres->blocks, block_cmp);
	vres->base.start = first >> PAGE_SHIFT;
	if (vres->contiguous)
		vres->base.placement |= TTM_PL_FLAG_CONTIGUOUS;
	else
		vres->base.placement &= ~TTM_PL_FLAG_CONTIGUOUS;
	*res = &vres->base;
	return 0;
}

static void vseg_vram_mgr_free(struct ttm_resource_manager *man,
			       struct ttm_resource *res)
{
	struct vseg_vram_mgr *mgr = to_vram_mgr(man);
	struct vseg_vram_res *vres = to_vseg_vram_res(res);
	struct drm_buddy_block *block;

	/* Its contents go: the pages return to the system, read zero. */
	list_for_each_entry(block, &vres->blocks, link)
		vseg_vram_release(mgr, block_start(block),
				  drm_buddy_block_size(&mgr->mm, block));
	mutex_lock(&mgr->lock);
	list_del_init(&vres->vpr_link);
	block = list_first_entry(&vres->blocks, typeof(*block), link);
	if (vres->size != mgr->desc->page_size ||
	    !vram_cache_put(mgr, block)) {
		free_hint_before_free(mgr, &vres->blocks);
		vseg_buddy_free_list(&mgr->mm, &vres->blocks);
	}
	mgr->committed -= vres->size;
	mutex_unlock(&mgr->lock);

	ttm_resource_fini(man, res);
	kfree(vres);
}

static bool block_in_place(struct drm_buddy *mm, struct drm_buddy_block *block,
			   const struct ttm_place *place, bool whole)
{
	u64 fpfn = block_start(block) >> PAGE_SHIFT;
	u64 lpfn = fpfn + (drm_buddy_block_size(mm, block) >> PAGE_SHIFT);

	if (whole)
		return fpfn >= place->fpfn && (!place->lpfn || lpfn <= place->lpfn);
	return place->fpfn < lpfn && (!place->lpfn || place->lpfn > fpfn);
}

static bool vseg_vram_mgr_intersects(struct ttm_resource_manager *man,
				     struct ttm_resource *res,
				     const struct ttm_place *place,
				     size_t size)
{
	struct vseg_vram_mgr *mgr = to_vram_mgr(man);
	struct vseg_vram_res *vres = to_vseg_vram_res(res);
	struct drm_buddy_block *block;

	if (!place->fpfn && !place->lpfn)
		return true;
	list_for_each_entry(block, &vres->blocks, link)
		if (block_in_place(&mgr->mm, block, place, false))
			return true;
	return false;
}

static bool vseg_vram_mgr_compatible(struct ttm_resource_manager *man,
				     struct ttm_resource *res,
				     const struct ttm_place *place,
				     size_t size)
{
	struct vseg_vram_mgr *mgr = to_vram_mgr(man);
	struct vseg_vram_res *vres = to_vseg_vram_res(res);
	struct drm_buddy_block *block;

	/* TTM may ask about a place of another memory type. */
	if (res->mem_type != place->mem_type)
		return false;
	if ((place->flags & TTM_PL_FLAG_CONTIGUOUS) && !vres->contiguous)
		return false;
	if (!place->fpfn && !place->lpfn)
		return true;
	list_for_each_entry(block, &vres->blocks, link)
		if (!block_in_place(&mgr->mm, block, place, true))
			return false;
	return true;
}

static void vseg_vram_mgr_debug(struct ttm_resource_manager *man,
				struct drm_printer *p)
{
	struct vseg_vram_mgr *mgr = to_vram_mgr(man);

	mutex_lock(&mgr->lock);
	drm_printf(p, "segment: %u \"%s\" page_size: %u\n", mgr->desc->id,
		   mgr->desc->name, mgr->desc->page_size);
	drm_printf(p, "committed: %llu of %llu bytes\n", mgr->committed,
		   mgr->desc->size);
	/* Free is free: what the cache holds goes back first. */
	vram_cache_drain(mgr);
	drm_buddy_print(&mgr->mm, p);
	mutex_unlock(&mgr->lock);
}

static const struct ttm_resource_manager_func vseg_vram_mgr_func = {
	.alloc = vseg_vram_mgr_alloc,
	.free = vseg_vram_mgr_free,
	.intersects = vseg_vram_mgr_intersects,
	.compatible = vseg_vram_mgr_compatible,
	.debug = vseg_vram_mgr_debug,
};

/* Hold [start, start + size) whole, or nothing; under the lock. */
static int hold_range(struct vseg_vram_mgr *mgr, struct vseg_vram_hold *h,
		      u64 start, u64 size)
{
	h->range.start = start;
	h->range.size = size;
	INIT_LIST_HEAD(&h->blocks);
	return drm_buddy_alloc_blocks(&mgr->mm, start, start + size, size,
				      mgr->desc->page_size, &h->blocks,
				      DRM_BUDDY_RANGE_ALLOCATION);
}

/* Give a hold's blocks back to the allocator; under the lock. */
static void unhold_range(struct vseg_vram_mgr *mgr, struct vseg_vram_hold *h)
{
	free_hint_before_free(mgr, &h->blocks);
	vseg_buddy_free_list(&mgr->mm, &h->blocks);
}

/*
 * Hold the invalid ranges so that they are never handed out, and the UEFI
 * frame buffers, which the firmware image holds until the first scanout.
 */
static int vseg_vram_mgr_reserve(struct vseg_vram_mgr *mgr)
{
	const struct vseg_segment_desc *desc = mgr->desc;
	u64 page = desc->page_size;
	unsigned int i;
	int err = 0;

	mutex_lock(&mgr->lock);
	for (i = 0; i < desc->num_invalid && !err; i++) {
		const struct vseg_range *r = &desc->invalid[i];
		u64 start = round_down(r->start, page);

		err = hold_range(mgr, &mgr->invalid[i], start,
				 round_up(r->start + r->size, page) - start);
		mgr->num_invalid = i + 1;
	}
	for (i = 0; i < desc->num_uefi && !err; i++) {
		err = hold_range(mgr, &mgr->uefi[i], desc->uefi[i].start,
				 desc->uefi[i].size);
		mgr->num_uefi = i + 1;
	}
	mutex_unlock(&mgr->lock);
	return err;
}

/* Give back every hold (at teardown, or when the init fails). */
static void vseg_vram_mgr_unreserve(struct vseg_vram_mgr *mgr)
{
	unsigned int i;

	mutex_lock(&mgr->lock);
	for (i = 0; i < mgr->num_invalid; i++)
		unhold_range(mgr, &mgr->invalid[i]);
	for (i = 0; i < mgr->num_uefi; i++)
		unhold_range(mgr, &mgr->uefi[i]);
	mgr->num_invalid = 0;
	mgr->num_uefi = 0;
	mutex_unlock(&mgr->lock);
}

/*
 * A segment on a BAR: map its part of the BAR (the CPU-visible part the
 * probe found there), write-combined as the CPU's mappings, and clear it:
 * a segment starts reading zero, whatever the BAR held before.
 */
static int vram_map_bar(struct vseg_vram_mgr *mgr)
{
	const struct vseg_segment_desc *desc = mgr->desc;

	if (!desc->on_bar || !desc->cpu_visible_size)
		return 0;
	mgr->bar = memremap(desc->cpu_translated_address,
			    desc->cpu_visible_size, MEMREMAP_WC);
	if (!mgr->bar)
		return -ENOMEM;
	memset(mgr->bar, 0, desc->cpu_visible_size);
	mgr->bar_phys = desc->cpu_translated_address;
	mgr->bar_size = desc->cpu_visible_size;
	return 0;
}

/* The BAR's byte at segment offset @off, or NULL if it is not on the BAR. */
static void *bar_byte(struct vseg_vram_mgr *mgr, u64 off)
{
	return off < READ_ONCE(mgr->bar_size) ? mgr->bar + off : NULL;
}

/**
 * vseg_vram_mgr_detach_bar() - the segment's BAR is gone
 * @mgr: the manager
 *
 * For the unbind of the PCI device: from now on the manager never touches
 * the BAR (another driver, or the next vseg device, may own it). What the
 * BAR held is lost, as device memory is when its device goes: its bytes
 * read zero from the backing store. The mapping itself stays until the
 * manager goes, so that an access already under way stays harmless.
 */
void vseg_vram_mgr_detach_bar(struct vseg_vram_mgr *mgr)
{
	WRITE_ONCE(mgr->bar_size, 0);
}

/**
 * vseg_vram_res_on_bar() - is a placement wholly in its segment's BAR
 * @res: a placement in a memory segment
 *
 * Return: true if the CPU maps its bytes at the BAR's bus address.
 */
bool vseg_vram_res_on_bar(struct ttm_resource *res)
{
	struct vseg_vram_mgr *mgr = to_vram_mgr(ttm_manager_type(res->bo->bdev,
								 res->mem_type));
	u64 bar_size = READ_ONCE(mgr->bar_size);

	return bar_size && vseg_vram_res_below(res, bar_size);
}

/**
 * __vseg_vram_mgr_init() - set up the manager of a memory segment
 * @mgr: the manager, zeroed
 * @bdev: the TTM device
 * @desc: the memory segment
 * @mem_type: the TTM memory type that stands for it
 *
 * Builds the buddy allocator (the backing store fills as the segment is
 * written), holds the invalid ranges and registers the manager with TTM. Undo with
 * vseg_vram_mgr_fini().
 *
 * Return: 0 or a negative error code; nothing is left set up on error.
 */
int __vseg_vram_mgr_init(struct vseg_vram_mgr *mgr, struct ttm_device *bdev,
			 const struct vseg_segment_desc *desc, u32 mem_type)
{
	unsigned long i;
	int err;

	mutex_init(&mgr->lock);
	mutex_init(&mgr->edit_lock);
	INIT_LIST_HEAD(&mgr->vpr);
	INIT_LIST_HEAD(&mgr->cache);
	mgr->desc = desc;
	mgr->mem_type = mem_type;

	/* The backing store starts empty: absent pages read as zero. */
	mgr->backing_tables = DIV_ROUND_UP(desc->size >> PAGE_SHIFT,
					   VSEG_BACKING_TABLE);
	mgr->backing = kvcalloc(mgr->backing_tables, sizeof(*mgr->backing),
				GFP_KERNEL);
	if (!mgr->backing) {
		err = -ENOMEM;
		goto err_mutex;
	}
	atomic64_set(&mgr->backed, 0);

	err = drm_buddy_init(&mgr->mm, round_down(desc->size, desc->page_size),
			     desc->page_size);
	if (err)
		goto err_mutex;
	/* The BAR first: a UEFI range on it gets its splash there. */
	err = vram_map_bar(mgr);
	if (err)
		goto err_buddy;
	err = vseg_vram_mgr_reserve(mgr);
	if (!err)
		err = vseg_vram_mgr_fill_uefi(mgr);
	if (err)
		goto err_reserved;

	mgr->manager.use_tt = false;
	mgr->manager.func = &vseg_vram_mgr_func;
	ttm_resource_manager_init(&mgr->manager, bdev, desc->size);
	ttm_set_driver_manager(bdev, mem_type, &mgr->manager);
	ttm_resource_manager_set_used(&mgr->manager, true);
	return 0;

err_reserved:
	vseg_vram_mgr_unreserve(mgr);
	if (mgr->bar)
		memunmap(mgr->bar);
	mgr->bar = NULL;
	mgr->bar_size = 0;
err_buddy:
	drm_buddy_fini(&mgr->mm);
	vseg_vram_release(mgr, 0, desc->size);
	for (i = 0; i < mgr->backing_tables; i++)
		kfree(mgr->backing[i]);
err_mutex:
	kvfree(mgr->backing);
	mgr->backing = NULL;
	mutex_destroy(&mgr->edit_lock);
	mutex_destroy(&mgr->lock);
	return err;
}
EXPORT_SYMBOL_IF_KUNIT(__vseg_vram_mgr_init);

/**
 * vseg_vram_mgr_fini() - tear down the manager of a memory segment
 * @mgr: the manager
 * @bdev: the TTM device
 *
 * Evicts whatever is left, unregisters the manager and frees the buddy
 * allocator and the backing store; if something cannot be evicted, the
 * manager is leaked rather than freed under live memory.
 */
void vseg_vram_mgr_fini(struct vseg_vram_mgr *mgr, struct ttm_device *bdev)
{
	struct ttm_resource_manager *man = &mgr->manager;
	unsigned long i;

	ttm_resource_manager_set_used(man, false);
	if (ttm_resource_manager_evict_all(bdev, man))
		return;
	ttm_resource_manager_cleanup(man);
	ttm_set_driver_manager(bdev, mgr->mem_type, NULL);

	vseg_vram_mgr_unreserve(mgr);
	mutex_lock(&mgr->lock);
	vram_cache_drain(mgr);
	if (mgr->committed)
		pr_err("vseg: leak: segment %u \"%s\" still has %llu bytes committed\n",
		       mgr->desc->id, mgr->desc->name, mgr->committed);
	drm_buddy_fini(&mgr->mm);
	mutex_unlock(&mgr->lock);

	vseg_vram_release(mgr, 0, mgr->desc->size);
	for (i = 0; i < mgr->backing_tables; i++)
		kfree(mgr->backing[i]);
	kvfree(mgr->backing);
	mgr->backing = NULL;
	if (mgr->bar)
		memunmap(mgr->bar);
	mgr->bar = NULL;
	mutex_destroy(&mgr->edit_lock);
	mutex_destroy(&mgr->lock);
}
EXPORT_SYMBOL_IF_KUNIT(vseg_vram_mgr_fini);

static void vram_mgr_release(struct drm_device *drm, void *arg)
{
	vseg_vram_mgr_fini(arg, &to_vseg(drm)->bdev);
}

/**
 * vseg_vram_mgr_init() - the manager of one of the device's memory segments
 * @vdev: the device, with its TTM device initialized
 * @id: the segment id
 * @protected: tells the protected buffers, whose placements join the
 *	segment's VPR extents (the policy is the caller's: vseg_vpr.c)
 *
 * Torn down with the DRM device (a drmm action); a dmem cgroup region where
 * the kernel has the controller (vseg_dmem.c).
 *
 * Return: 0 or a negative error code.
 */
int vseg_vram_mgr_init(struct vseg_device *vdev, u32 id,
		       bool (*protected)(struct ttm_buffer_object *tbo))
{
	struct vseg_vram_mgr *mgr = vseg_vram(vdev, id);
	int err;

	err = __vseg_vram_mgr_init(mgr, &vdev->bdev, vseg_seg(vdev, id)->desc,
				   vseg_mem_type(vdev, id));
	if (err)
		return err;
	mgr->protected = protected;
	err = drmm_add_action_or_reset(&vdev->drm, vram_mgr_release, mgr);
	if (err)
		return err;
	/* After the release action: the region goes first. */
	return vseg_dmem_register(vdev, mgr);
}

/**
 * vseg_vram_res_contiguous() - is a memory-segment placement one range
 * @res: a placement in a memory segment
 *
 * Return: true if its blocks form one range starting at @res->start.
 */
bool vseg_vram_res_contiguous(struct ttm_resource *res)
{
	return to_vseg_vram_res(res)->contiguous;
}
EXPORT_SYMBOL_IF_KUNIT(vseg_vram_res_contiguous);

/* The backing store, further down. */
static struct page **backing_slot(struct vseg_vram_mgr *mgr, u64 off,
				  bool alloc);
static u64 backing_next_table(u64 off);
static int vram_populate(struct vseg_vram_mgr *mgr, u64 offset, u64 size,
			 enum vseg_page_init init);

/**
 * vseg_vram_res_populate() - back a whole placement with pages
 * @res: a placement in a memory segment
 * @overwritten: bytes from the buffer's start that a paging Transfer
 *	writes before anyone can read them: their pages need not be zeroed
 *	(0: every new page is zeroed)
 *
 * Return: 0 or -ENOMEM.
 */
int vseg_vram_res_populate(struct ttm_resource *res, u64 overwritten)
{
	struct vseg_vram_mgr *mgr = to_vram_mgr(ttm_manager_type(res->bo->bdev,
								 res->mem_type));
	struct drm_buddy_block *block;
	u64 at = 0, size, ow;
	int err;

	list_for_each_entry(block, &to_vseg_vram_res(res)->blocks, link) {
		size = drm_buddy_block_size(&mgr->mm, block);
		/* Whole pages only: a page's tail may not be written. */
		ow = overwritten > at ?
		     round_down(min(overwritten - at, size), PAGE_SIZE) : 0;
		err = vram_populate(mgr, block_start(block), ow,
				    VSEG_PAGE_OVERWRITTEN);
		if (!err)
			err = vram_populate(mgr, block_start(block) + ow,
					    size - ow, VSEG_PAGE_ZERO);
		if (err)
			return err;
		at += size;
	}
	return 0;
}

/**
 * vseg_vram_res_backed() - does any page back a placement
 * @res: a placement in a memory segment
 *
 * Return: true if a page of the backing store holds some of its bytes
 * (they may be nonzero); false if it all reads zero (a placement just
 * made: its BAR bytes, if any, were cleared when last freed).
 */
bool vseg_vram_res_backed(struct ttm_resource *res)
{
	struct vseg_vram_mgr *mgr = to_vram_mgr(ttm_manager_type(res->bo->bdev,
								 res->mem_type));
	struct drm_buddy_block *block;
	struct page **slot;
	u64 off, end;

	list_for_each_entry(block, &to_vseg_vram_res(res)->blocks, link) {
		end = block_start(block) + drm_buddy_block_size(&mgr->mm, block);
		/* Freed BAR bytes were cleared: the BAR part reads zero. */
		off = max(block_start(block), READ_ONCE(mgr->bar_size));
		for (; off < end; off += PAGE_SIZE) {
			slot = backing_slot(mgr, off, false);
			if (!slot)
				off = backing_next_table(off) - PAGE_SIZE;
			else if (READ_ONCE(*slot))
				return true;
		}
	}
	return false;
}

/**
 * vseg_vram_res_below() - does a placement lie wholly below an offset
 * @res: a placement in a memory segment
 * @limit: segment offset, bytes (the end of the CPU-visible part, say)
 *
 * Return: true if every block ends at or below @limit.
 */
bool vseg_vram_res_below(struct ttm_resource *res, u64 limit)
{
	struct vseg_vram_mgr *mgr = to_vram_mgr(ttm_manager_type(res->bo->bdev,
								 res->mem_type));
	struct drm_buddy_block *block;

	list_for_each_entry(block, &to_vseg_vram_res(res)->blocks, link)
		if (block_start(block) + drm_buddy_block_size(&mgr->mm, block) >
		    limit)
			return false;
	return true;
}

/**
 * vseg_vram_res_within() - does a placement lie wholly inside a range
 * @res: a placement in a memory segment
 * @lo: segment offset of the range's first byte
 * @hi: segment offset past its last byte
 *
 * Return: true if every block is inside [@lo, @hi).
 */
bool vseg_vram_res_within(struct ttm_resource *res, u64 lo, u64 hi)
{
	struct vseg_vram_mgr *mgr = to_vram_mgr(ttm_manager_type(res->bo->bdev,
								 res->mem_type));
	struct drm_buddy_block *block;

	list_for_each_entry(block, &to_vseg_vram_res(res)->blocks, link)
		if (block_start(block) < lo ||
		    block_start(block) + drm_buddy_block_size(&mgr->mm, block) >
		    hi)
			return false;
	return true;
}
EXPORT_SYMBOL_IF_KUNIT(vseg_vram_res_within);

/**
 * vseg_vram_res_size() - bytes a memory-segment placement holds
 * @res: a placement in a memory segment
 *
 * Return: its size, the buffer's rounded up to the segment page.
 */
u64 vseg_vram_res_size(struct ttm_resource *res)
{
	return to_vseg_vram_res(res)->size;
}
EXPORT_SYMBOL_IF_KUNIT(vseg_vram_res_size);

/**
 * vseg_vram_res_copy() - copy a placement's bytes to or from a buffer
 * @res: a placement in a memory segment, whose content nothing changes
 *	meanwhile (its buffer reserved and idle)
 * @buf: vseg_vram_res_size() bytes, in buffer order
 * @to_segment: write @buf into the placement (allocating its backing
 *	pages) instead of reading the placement into @buf
 *
 * Return: 0, or -ENOMEM when a page to write cannot be allocated.
 */
int vseg_vram_res_copy(struct ttm_resource *res, void *buf, bool to_segment)
{
	struct vseg_vram_mgr *mgr = to_vram_mgr(ttm_manager_type(res->bo->bdev,
								 res->mem_type));
	struct drm_buddy_block *block;
	void *kmapped, *p;
	u64 off, end, len;

	list_for_each_entry(block, &to_vseg_vram_res(res)->blocks, link) {
		off = block_start(block);
		end = off + drm_buddy_block_size(&mgr->mm, block);
		while (off < end) {
			p = vseg_vram_map(mgr, off, &len, to_segment, &kmapped);
			if (!p)
				return -ENOMEM;
			len = min(len, end - off);
			if (to_segment)
				memcpy(p, buf, len);
			else
				memcpy(buf, p, len);
			vseg_vram_unmap(kmapped);
			buf += len;
			off += len;
		}
	}
	return 0;
}

/**
 * vseg_vram_mgr_committed() - bytes handed out by a memory segment
 * @mgr: the manager
 *
 * Return: committed bytes, in whole segment pages.
 */
u64 vseg_vram_mgr_committed(struct vseg_vram_mgr *mgr)
{
	u64 committed;

	mutex_lock(&mgr->lock);
	committed = mgr->committed;
	mutex_unlock(&mgr->lock);
	return committed;
}
EXPORT_SYMBOL_IF_KUNIT(vseg_vram_mgr_committed);

/*
 * The backing store: one system page per host page of the segment,
 * allocated when first written and released when the bytes are freed or
 * discarded. An absent page reads as zero. This stands for the device
 * memory of a segment without reserving all of it at load, so that a
 * 16 GiB segment loads in a 2 GiB machine.
 */

/* Bytes of pages backing memory segments, every device together. */
static atomic64_t vseg_backing_total = ATOMIC64_INIT(0);

static int backing_kb_get(char *buf, const struct kernel_param *kp)
{
	return sysfs_emit(buf, "%lld\n",
			  atomic64_read(&vseg_backing_total) >> 10);
}

static const struct kernel_param_ops backing_kb_ops = {
	.get = backing_kb_get,
};

/*
 * Read-only: the memory segments' backing store of every vseg device, in
 * KiB; it outlives an unplugged device until the device's last user goes,
 * which is what the hot-unplug tests watch.
 */
module_param_cb(backing_kb, &backing_kb_ops, NULL, 0444);
MODULE_PARM_DESC(backing_kb,
		 "KiB of system memory backing memory segments now (read-only)");

/* The slot of the page behind segment offset @off, or NULL without table. */
static struct page **backing_slot(struct vseg_vram_mgr *mgr, u64 off,
				  bool alloc)
{
	pgoff_t idx = off >> PAGE_SHIFT;
	struct page ***dir = &mgr->backing[idx / VSEG_BACKING_TABLE];
	struct page **table = READ_ONCE(*dir), **old;

	if (!table && alloc) {
		table = kzalloc(PAGE_SIZE, GFP_KERNEL | __GFP_NOWARN);
		if (!table)
			return NULL;
		old = cmpxchg(dir, NULL, table);
		if (old) {
			kfree(table);
			table = old;
		}
	}
	return table ? &table[idx % VSEG_BACKING_TABLE] : NULL;
}

/* The segment offset of the next table's first page after @off's. */
static u64 backing_next_table(u64 off)
{
	return (u64)((off >> PAGE_SHIFT) / VSEG_BACKING_TABLE + 1) *
	       VSEG_BACKING_TABLE << PAGE_SHIFT;
}

/* Put @page in @slot unless another got there first; the page there. */
static struct page *backing_install(struct vseg_vram_mgr *mgr,
				    struct page **slot, struct page *page)
{
	struct page *old = cmpxchg(slot, NULL, page);

	if (old) {
		vseg_page_put(page);
		return old;
	}
	atomic64_add(PAGE_SIZE, &mgr->backed);
	atomic64_add(PAGE_SIZE, &vseg_backing_total);
	return page;
}

/*
 * The page behind segment offset @off; if absent and @alloc, a new one
 * holding what @init says.
 */
static struct page *vram_page(struct vseg_vram_mgr *mgr, u64 off, bool alloc,
			      enum vseg_page_init init)
{
	struct page **slot = backing_slot(mgr, off, alloc);
	struct page *page;

	if (!slot)
		return NULL;
	page = READ_ONCE(*slot);
	if (page || !alloc)
		return page;
	page = vseg_page_get(init);
	return page ? backing_install(mgr, slot, page) : NULL;
}

/* Back the absent pages of a range, a table at a time. */
static int vram_populate(struct vseg_vram_mgr *mgr, u64 offset, u64 size,
			 enum vseg_page_init init)
{
	u64 off = max(round_down(offset, PAGE_SIZE), READ_ONCE(mgr->bar_size));
	u64 end = min(offset + size, mgr->desc->size);
	struct page *batch[64], **slot;
	unsigned int n, i;
	u64 at;

	while (off < end) {
		/* The absent pages of up to a batch, in this table. */
		slot = backing_slot(mgr, off, true);
		if (!slot)
			return -ENOMEM;
		n = 0;
		for (at = off; at < end && n < ARRAY_SIZE(batch) &&
		     (at == off || (at >> PAGE_SHIFT) % VSEG_BACKING_TABLE);
		     at += PAGE_SIZE)
			n += !READ_ONCE(slot[(at - off) >> PAGE_SHIFT]);
		if (n && vseg_pages_get(batch, n, init))
			return -ENOMEM;
		for (i = 0; off < at; off += PAGE_SIZE, slot++) {
			if (READ_ONCE(*slot))
				continue;
			if (i == n)
				break;	/* emptied meanwhile: count again */
			backing_install(mgr, slot, batch[i++]);
		}
		/* Filled meanwhile by someone else: give the rest back. */
		if (i < n)
			vseg_pages_put(batch + i, n - i);
		cond_resched();
	}
	return 0;
}

/**
 * vseg_vram_populate() - back a range of a segment with pages
 * @mgr: the manager
 * @offset: segment offset of the first byte
 * @size: bytes
 *
 * For whoever will write the range where it cannot allocate (a job, a
 * paging operation, a CPU mapping): afterwards vseg_vram_map() for write
 * and vseg_vram_pfn() never allocate there. New pages read zero.
 *
 * Return: 0 or -ENOMEM (the pages already backed stay).
 */
int vseg_vram_populate(struct vseg_vram_mgr *mgr, u64 offset, u64 size)
{
	return vram_populate(mgr, offset, size, VSEG_PAGE_ZERO);
}

/**
 * vseg_vram_release() - drop the contents of a range of a segment
 * @mgr: the manager
 * @offset: segment offset, a multiple of PAGE_SIZE
 * @size: bytes, a multiple of PAGE_SIZE
 *
 * The pages go back to the pool, the BAR's bytes are cleared; the range
 * reads zero afterwards. Pages of a range that touches the video protected
 * region are cleared first: protected plaintext never sits in the pool,
 * whatever its next taker does with the page. Only
 * for bytes nobody can reach any more (freed or discarded).
 */
void vseg_vram_release(struct vseg_vram_mgr *mgr, u64 offset, u64 size)
{
	u64 off = offset, end = min(offset + size, mgr->desc->size);
	u64 bar_end = min(end, READ_ONCE(mgr->bar_size));
	/* Protected plaintext never reaches the pool, whoever takes it next. */
	bool scrub = vpr_overlaps(mgr->desc, offset, size);
	struct page *batch[64], **slot;
	unsigned int n = 0;
	u64 freed = 0;

	/* The BAR's bytes are cleared: the next user reads zero. */
	if (off < bar_end) {
		memset(mgr->bar + off, 0, bar_end - off);
		off = bar_end;
	}
	while (off < end) {
		slot = backing_slot(mgr, off, false);
		if (!slot) {
			off = backing_next_table(off);
			continue;
		}
		if (*slot) {
			if (scrub)
				clear_highpage(*slot);
			batch[n++] = *slot;
			WRITE_ONCE(*slot, NULL);
			if (n == ARRAY_SIZE(batch)) {
				vseg_pages_put(batch, n);
				freed += n;
				n = 0;
			}
		}
		off += PAGE_SIZE;
	}
	vseg_pages_put(batch, n);
	freed += n;
	atomic64_sub(freed << PAGE_SHIFT, &mgr->backed);
	atomic64_sub(freed << PAGE_SHIFT, &vseg_backing_total);
}

/**
 * vseg_vram_poison() - overwrite the backed pages of a range with a pattern
 * @mgr: the manager
 * @offset: segment offset, a multiple of PAGE_SIZE
 * @size: bytes
 * @pattern: the byte written
 *
 * Only pages that exist are written: absent pages stay absent and read
 * zero, so the cost is bounded by the backed bytes, not the segment's
 * size. The power-loss model of vseg_pm.c, and with 0 the most of
 * vseg_vram_clear(). A BAR's bytes are not written: the memory behind a
 * PCI BAR is the device's own, whose power this model does not reach.
 *
 * Return: bytes overwritten.
 */
u64 vseg_vram_poison(struct vseg_vram_mgr *mgr, u64 offset, u64 size,
		     u8 pattern)
{
	u64 off, end = min(offset + size, mgr->desc->size), done = 0;
	struct page *page, **slot;

	off = max(offset, READ_ONCE(mgr->bar_size));
	for (; off < end; off += PAGE_SIZE) {
		slot = backing_slot(mgr, off, false);
		if (!slot) {
			/* the loop adds the page back */
			off = backing_next_table(off) - PAGE_SIZE;
			continue;
		}
		page = READ_ONCE(*slot);
		if (!page)
			continue;
		memset_page(page, 0, pattern, PAGE_SIZE);
		done += PAGE_SIZE;
		cond_resched();
	}
	return done;
}

/**
 * vseg_vram_clear() - zero a range of a segment
 * @mgr: the manager
 * @offset: segment offset, a multiple of PAGE_SIZE
 * @size: bytes, a multiple of PAGE_SIZE
 *
 * The paging engine's Fill of zero: the part of the range on a BAR is
 * cleared, and of the rest only the backed pages are written (absent
 * pages read zero already).
 */
void vseg_vram_clear(struct vseg_vram_mgr *mgr, u64 offset, u64 size)
{
	u64 bar_end = min(offset + size, READ_ONCE(mgr->bar_size));

	if (offset < bar_end)
		memset(mgr->bar + offset, 0, bar_end - offset);
	vseg_vram_poison(mgr, offset, size, 0);
}

/*
 * A byte of the BAR: the callers unmap what they got in @kmapped with
 * kunmap_local(), so it gets a (free) local mapping of the zero page.
 */
static void *bar_map(void *bar, u64 *len, void **kmapped)
{
	*kmapped = kmap_local_page(ZERO_PAGE(0));
	*len = PAGE_SIZE - offset_in_page(bar);
	return bar;
}

/**
 * vseg_vram_map() - kernel address of a byte of a segment
 * @mgr: the manager
 * @offset: segment offset
 * @len: receives how many bytes follow contiguously (to the end of the
 *	host page)
 * @write: the bytes will be written: the page is allocated if absent (a
 *	read of an absent page sees the zero page)
 * @kmapped: receives what vseg_vram_unmap() takes
 *
 * Return: the address, or NULL when a page to write cannot be allocated.
 */
void *vseg_vram_map(struct vseg_vram_mgr *mgr, u64 offset, u64 *len,
		    bool write, void **kmapped)
{
	void *bar = bar_byte(mgr, offset);
	struct page *page;
	u64 in = offset & ~PAGE_MASK;

	if (bar)
		return bar_map(bar, len, kmapped);
	page = vram_page(mgr, offset, write, VSEG_PAGE_ZERO);
	if (!page && write)
		return NULL;
	*kmapped = kmap_local_page(page ?: ZERO_PAGE(0));
	*len = PAGE_SIZE - in;
	return *kmapped + in;
}

/**
 * vseg_vram_map_populated() - vseg_vram_map() for write, never allocating
 * @mgr: the manager
 * @offset: segment offset, in a range vseg_vram_populate() backed
 * @len: receives how many bytes follow contiguously
 * @kmapped: receives what vseg_vram_unmap() takes
 *
 * For the engines, which cannot allocate memory while they run a job.
 *
 * Return: the address, or NULL if the page is not backed.
 */
void *vseg_vram_map_populated(struct vseg_vram_mgr *mgr, u64 offset, u64 *len,
			      void **kmapped)
{
	void *bar = bar_byte(mgr, offset);
	struct page *page;
	u64 in = offset & ~PAGE_MASK;

	if (bar)
		return bar_map(bar, len, kmapped);
	page = vram_page(mgr, offset, false, VSEG_PAGE_ZERO);
	if (!page)
		return NULL;
	*kmapped = kmap_local_page(page);
	*len = PAGE_SIZE - in;
	return *kmapped + in;
}

/**
 * vseg_vram_unmap() - drop a mapping of vseg_vram_map()
 * @kmapped: what it returned in @kmapped
 */
void vseg_vram_unmap(void *kmapped)
{
	kunmap_local(kmapped);
}

/**
 * vseg_vram_pfn() - the page frame behind a segment offset, for the CPU
 * @mgr: the manager
 * @offset: segment offset, in a range vseg_vram_populate() backed
 *
 * Return: the pfn (the BAR's, for the part of the segment on a BAR), or 0
 * if the page is not backed.
 */
unsigned long vseg_vram_pfn(struct vseg_vram_mgr *mgr, u64 offset)
{
	struct page *page;

	if (offset < READ_ONCE(mgr->bar_size))
		return PHYS_PFN(mgr->bar_phys + offset);
	page = vram_page(mgr, offset, false, VSEG_PAGE_ZERO);

	return page ? page_to_pfn(page) : 0;
}

/**
 * vseg_vram_backed() - bytes of a segment backed by pages now
 * @mgr: the manager
 *
 * Return: bytes.
 */
u64 vseg_vram_backed(struct vseg_vram_mgr *mgr)
{
	return atomic64_read(&mgr->backed);
}
EXPORT_SYMBOL_IF_KUNIT(vseg_vram_backed);

/*
 * Ranges held out of the allocator at run time (vseg_ranges.c): the live
 * invalid ranges and the firmware's UEFI frame buffers.
 */

/* Hold the free part of [start, end), halving around what is taken. */
static u64 grab_free(struct vseg_vram_mgr *mgr, u64 start, u64 end,
		     struct list_head *blocks)
{
	u64 page = mgr->desc->page_size, mid;
	LIST_HEAD(got);

	if (start >= end)
		return 0;
	if (!drm_buddy_alloc_blocks(&mgr->mm, start, end, end - start, page,
				    &got, DRM_BUDDY_RANGE_ALLOCATION)) {
		list_splice_tail(&got, blocks);
		return end - start;
	}
	if (end - start <= page)
		return 0;
	mid = start + round_down((end - start) / 2, page);
	return grab_free(mgr, start, mid, blocks) +
	       grab_free(mgr, mid, end, blocks);
}

/**
 * vseg_vram_mgr_grab() - hold whatever is free of a range
 * @mgr: the manager
 * @start: segment offset, a multiple of the segment page
 * @size: bytes, a multiple of the segment page
 * @blocks: receives the blocks held
 *
 * No buffer can be placed in what is held; the part that buffers hold now
 * is left to them. Give the blocks back with vseg_vram_mgr_drop() or make
 * them an invalid range with vseg_vram_mgr_add_invalid().
 *
 * Return: bytes held by this call.
 */
u64 vseg_vram_mgr_grab(struct vseg_vram_mgr *mgr, u64 start, u64 size,
		       struct list_head *blocks)
{
	u64 got;

	mutex_lock(&mgr->lock);
	/* freed pages the cache keeps are free: the range may take them */
	vram_cache_drain(mgr);
	got = grab_free(mgr, start, start + size, blocks);
	mutex_unlock(&mgr->lock);
	return got;
}
EXPORT_SYMBOL_IF_KUNIT(vseg_vram_mgr_grab);

/**
 * vseg_vram_mgr_drop() - give back blocks vseg_vram_mgr_grab() held
 * @mgr: the manager
 * @blocks: the blocks; emptied
 */
void vseg_vram_mgr_drop(struct vseg_vram_mgr *mgr, struct list_head *blocks)
{
	mutex_lock(&mgr->lock);
	free_hint_before_free(mgr, blocks);
	vseg_buddy_free_list(&mgr->mm, blocks);
	mutex_unlock(&mgr->lock);
}
EXPORT_SYMBOL_IF_KUNIT(vseg_vram_mgr_drop);

/**
 * vseg_vram_mgr_add_invalid() - make a held range an invalid range
 * @mgr: the manager
 * @start: segment offset of the range
 * @size: its bytes
 * @blocks: blocks holding exactly the range (vseg_vram_mgr_grab()); they
 *	move into the invalid range unless an error is returned
 *
 * Return: 0, or -ENOSPC with %VSEG_MAX_INVALID_RANGES ranges already.
 */
int vseg_vram_mgr_add_invalid(struct vseg_vram_mgr *mgr, u64 start, u64 size,
			      struct list_head *blocks)
{
	struct vseg_vram_hold *h;
	int err = -ENOSPC;

	mutex_lock(&mgr->lock);
	if (mgr->num_invalid < VSEG_MAX_INVALID_RANGES) {
		h = &mgr->invalid[mgr->num_invalid];
		h->range.start = start;
		h->range.size = size;
		INIT_LIST_HEAD(&h->blocks);
		list_splice_init(blocks, &h->blocks);
		mgr->num_invalid++;
		err = 0;
	}
	mutex_unlock(&mgr->lock);
	return err;
}
EXPORT_SYMBOL_IF_KUNIT(vseg_vram_mgr_add_invalid);

/**
 * vseg_vram_mgr_del_invalid() - remove an invalid range
 * @mgr: the manager
 * @start: segment offset of the range, as listed
 * @size: its bytes, as listed
 *
 * Its memory may be allocated again; it reads zero. The later ranges move
 * down one entry.
 *
 * Return: 0, or -ENOENT if no invalid range is exactly that.
 */
int vseg_vram_mgr_del_invalid(struct vseg_vram_mgr *mgr, u64 start, u64 size)
{
	unsigned int i;

	mutex_lock(&mgr->lock);
	for (i = 0; i < mgr->num_invalid; i++)
		if (mgr->invalid[i].range.start == start &&
		    mgr->invalid[i].range.size == size)
			break;
	if (i == mgr->num_invalid) {
		mutex_unlock(&mgr->lock);
		return -ENOENT;
	}
	unhold_range(mgr, &mgr->invalid[i]);
	for (; i + 1 < mgr->num_invalid; i++) {
		mgr->invalid[i].range = mgr->invalid[i + 1].range;
		INIT_LIST_HEAD(&mgr->invalid[i].blocks);
		list_splice_init(&mgr->invalid[i + 1].blocks,
				 &mgr->invalid[i].blocks);
	}
	mgr->num_invalid--;
	mutex_unlock(&mgr->lock);
	return 0;
}
EXPORT_SYMBOL_IF_KUNIT(vseg_vram_mgr_del_invalid);

static u32 copy_holds(struct vseg_vram_mgr *mgr,
		      const struct vseg_vram_hold *h, const u32 *num,
		      struct vseg_range *out)
{
	u32 i, n;

	mutex_lock(&mgr->lock);
	n = *num;
	for (i = 0; i < n; i++)
		out[i] = h[i].range;
	mutex_unlock(&mgr->lock);
	return n;
}

/**
 * vseg_vram_mgr_invalid() - the live invalid ranges, in one consistent read
 * @mgr: the manager
 * @out: receives up to %VSEG_MAX_INVALID_RANGES ranges
 *
 * Return: how many.
 */
u32 vseg_vram_mgr_invalid(struct vseg_vram_mgr *mgr, struct vseg_range *out)
{
	return copy_holds(mgr, mgr->invalid, &mgr->num_invalid, out);
}
EXPORT_SYMBOL_IF_KUNIT(vseg_vram_mgr_invalid);

/**
 * vseg_vram_mgr_uefi() - the UEFI frame buffers the firmware still holds
 * @mgr: the manager
 * @out: receives up to %VSEG_MAX_UEFI_RANGES ranges
 *
 * Return: how many; 0 after the handover.
 */
u32 vseg_vram_mgr_uefi(struct vseg_vram_mgr *mgr, struct vseg_range *out)
{
	return copy_holds(mgr, mgr->uefi, &mgr->num_uefi, out);
}
EXPORT_SYMBOL_IF_KUNIT(vseg_vram_mgr_uefi);

/**
 * vseg_vram_mgr_held_overlaps() - does a range meet a held range
 * @mgr: the manager
 * @start: segment offset
 * @size: bytes, nonzero
 *
 * Return: true if it overlaps an invalid range or a UEFI frame buffer the
 * firmware still holds.
 */
bool vseg_vram_mgr_held_overlaps(struct vseg_vram_mgr *mgr, u64 start,
				 u64 size)
{
	const struct vseg_range *r;
	bool hit = false;
	unsigned int i;

	mutex_lock(&mgr->lock);
	for (i = 0; i < mgr->num_invalid + mgr->num_uefi && !hit; i++) {
		r = i < mgr->num_invalid ? &mgr->invalid[i].range :
		    &mgr->uefi[i - mgr->num_invalid].range;
		hit = start < r->start + r->size && r->start < start + size;
	}
	mutex_unlock(&mgr->lock);
	return hit;
}
EXPORT_SYMBOL_IF_KUNIT(vseg_vram_mgr_held_overlaps);

/**
 * vseg_vram_res_intersects() - does a placement touch a range
 * @mgr: the manager of its segment
 * @res: a placement in a memory segment, its buffer reserved
 * @start: segment offset
 * @size: bytes
 *
 * Return: true if one of its blocks overlaps [@start, @start + @size).
 */
bool vseg_vram_res_intersects(struct vseg_vram_mgr *mgr, struct ttm_resource *res,
			      u64 start, u64 size)
{
	struct vseg_vram_res *vres = to_vseg_vram_res(res);
	struct drm_buddy_block *block;
	u64 bs;

	list_for_each_entry(block, &vres->blocks, link) {
		bs = block_start(block);
		if (bs < start + size &&
		    start < bs + drm_buddy_block_size(&mgr->mm, block))
			return true;
	}
	return false;
}
EXPORT_SYMBOL_IF_KUNIT(vseg_vram_res_intersects);

/*
 * The firmware image: what the firmware left in its frame buffers, a
 * splash of vseg_splash_word() at every 32-bit word.
 */
static int fill_splash(struct vseg_vram_mgr *mgr, const struct vseg_range *r)
{
	u64 off, len, i;
	void *kmapped;
	u32 *p;
	int err;

	err = vseg_vram_populate(mgr, r->start, r->size);
	if (err)
		return err;
	for (off = r->start; off < r->start + r->size; off += len) {
		p = vseg_vram_map_populated(mgr, off, &len, &kmapped);
		if (!p)
			return -ENOMEM;
		for (i = 0; i < len / sizeof(*p); i++)
			p[i] = vseg_splash_word(off + i * sizeof(*p));
		vseg_vram_unmap(kmapped);
		cond_resched();
	}
	return 0;
}

/**
 * vseg_vram_mgr_fill_uefi() - paint the firmware image into the UEFI ranges
 * @mgr: the manager, its UEFI frame buffers held
 *
 * Return: 0 or -ENOMEM.
 */
int vseg_vram_mgr_fill_uefi(struct vseg_vram_mgr *mgr)
{
	unsigned int i;
	int err = 0;

	for (i = 0; i < mgr->num_uefi && !err; i++)
		err = fill_splash(mgr, &mgr->uefi[i].range);
	return err;
}

/**
 * vseg_vram_mgr_uefi_checksum() - checksum of the firmware image
 * @mgr: the manager
 * @checksum: receives the 64-bit FNV-1a hash of the 32-bit words of the
 *	held UEFI ranges, in order, each as a number (not its bytes)
 *
 * Read under the manager's lock, so that the handover cannot free the
 * pages meanwhile.
 *
 * Return: the number of held ranges; @checksum is unset with none.
 */
u32 vseg_vram_mgr_uefi_checksum(struct vseg_vram_mgr *mgr, u64 *checksum)
{
	u64 h = VSEG_FNV_OFFSET, off, end, len, i;
	void *kmapped;
	const u32 *p;
	u32 n, r;

	mutex_lock(&mgr->lock);
	n = mgr->num_uefi;
	for (r = 0; r < n; r++) {
		off = mgr->uefi[r].range.start;
		end = off + mgr->uefi[r].range.size;
		for (; off < end; off += len) {
			p = vseg_vram_map(mgr, off, &len, false, &kmapped);
			for (i = 0; i < len / sizeof(*p); i++)
				h = (h ^ p[i]) * VSEG_FNV_PRIME;
			vseg_vram_unmap(kmapped);
		}
	}
	mutex_unlock(&mgr->lock);
	if (n)
		*checksum = h;
	return n;
}

/**
 * vseg_vram_mgr_release_uefi() - the firmware hands its frame buffers over
 * @mgr: the manager
 *
 * The firmware image goes (its pages return to the system) and its ranges
 * become allocatable. Does nothing after the first call.
 *
 * Return: bytes released.
 */
u64 vseg_vram_mgr_release_uefi(struct vseg_vram_mgr *mgr)
{
	u64 bytes = 0;
	unsigned int i;

	mutex_lock(&mgr->lock);
	for (i = 0; i < mgr->num_uefi; i++) {
		vseg_vram_release(mgr, mgr->uefi[i].range.start,
				  mgr->uefi[i].range.size);
		unhold_range(mgr, &mgr->uefi[i]);
		bytes += mgr->uefi[i].range.size;
	}
	mgr->num_uefi = 0;
	mutex_unlock(&mgr->lock);
	return bytes;
}
EXPORT_SYMBOL_IF_KUNIT(vseg_vram_mgr_release_uefi);
