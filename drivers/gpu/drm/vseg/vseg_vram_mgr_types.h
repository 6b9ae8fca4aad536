/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Copyright (c) 2026 The vseg authors
 */
#ifndef __VSEG_VRAM_MGR_TYPES_H__
#define __VSEG_VRAM_MGR_TYPES_H__

#include <linux/list.h>
#include <linux/mutex.h>
#include <drm/ttm/ttm_resource.h>

#include "vseg_compat.h"
#include "vseg_segment.h"

struct dmem_cgroup_region;
struct page;
struct vseg_segment_desc;

/* Pages per table of the backing store (one page of pointers). */
#define VSEG_BACKING_TABLE	(PAGE_SIZE / sizeof(struct page *))

/* Freed single-page blocks a memory segment keeps for its next buffers. */
#define VSEG_VRAM_CACHE_MAX	256

/**
 * struct vseg_vram_hold - a range of a memory segment held out of the
 *	allocator (an invalid range or a UEFI frame buffer)
 * @range: the range, in bytes, a whole number of segment pages.
 * @blocks: the buddy blocks that hold it.
 */
struct vseg_vram_hold {
	struct vseg_range range;
	struct list_head blocks;
};

/**
 * struct vseg_vram_mgr - TTM resource manager of one memory segment
 * @manager: the TTM manager, registered for the segment's memory type.
 * @mem_type: that memory type.
 * @mm: buddy allocator over the segment, in units of its page size.
 * @lock: protects @mm, @committed, @invalid, @num_invalid, @uefi,
 *	@num_uefi, @free_hint, @vpr, @cache and @cached.
 * @desc: the segment.
 * @backing: the backing store: a directory of tables of
 *	%VSEG_BACKING_TABLE pages, allocated on first use, holding the
 *	system page behind each host page of the segment that was written
 *	since it was last freed; absent pages read as zero.
 * @backing_tables: entries of @backing.
 * @backed: bytes of pages in @backing.
 * @edit_lock: serializes the run-time edits of @invalid (vseg_ranges.c);
 *	taken before @lock and before any reservation.
 * @num_invalid: entries of @invalid.
 * @invalid: the live invalid ranges: the table's, then those added at run
 *	time, less those removed.
 * @num_uefi: entries of @uefi; 0 once the firmware handed over.
 * @uefi: the UEFI frame-buffer ranges the firmware image holds.
 * @committed: bytes handed out (in whole segment pages).
 * @free_hint: no byte below this offset is free in @mm: range
 *	allocations start their search there.
 * @cache: blocks of one segment page that buffers freed, by ascending
 *	offset, still allocated in @mm: the next single-page buffer takes
 *	one without splitting and merging the buddy tree. Their bytes were
 *	released when they were freed (they read zero), they count neither
 *	in @committed nor as free, and the cache is emptied into @mm before
 *	any allocation it cannot serve exactly as @mm would (see
 *	vram_cache_take()), so that nothing is placed differently.
 * @cached: blocks in @cache, at most %VSEG_VRAM_CACHE_MAX.
 * @vpr: the protected buffers' placements, by offset
 *	(&vseg_vram_res.vpr_link): the extents of the video protected region.
 * @protected: is a buffer protected (its placement joins @vpr)? The
 *	core's policy (vseg_vpr.c), handed down at init; NULL: none is.
 * @bar: a segment on a PCI BAR: its first @bar_size bytes are the BAR's
 *	memory, mapped write-combined here (the rest is in @backing); NULL
 *	for a segment wholly in @backing.
 * @bar_size: bytes of the segment on the BAR; 0 once the device is gone
 *	(vseg_vram_mgr_detach_bar()): from then on @backing holds them all.
 * @bar_phys: CPU physical (bus) address of the segment's first byte.
 * @dmem: the segment's dmem cgroup region (vseg_dmem.c), NULL where the
 *	kernel has no dmem controller; TTM charges placements to it.
 */
struct vseg_vram_mgr {
	struct ttm_resource_manager manager;
	u32 mem_type;
	struct drm_buddy mm;
	struct mutex lock; /* see above */
	const struct vseg_segment_desc *desc;
	struct page ***backing;
	unsigned long backing_tables;
	atomic64_t backed;
	struct mutex edit_lock; /* see above */
	u32 num_invalid;
	struct vseg_vram_hold invalid[VSEG_MAX_INVALID_RANGES];
	u32 num_uefi;
	struct vseg_vram_hold uefi[VSEG_MAX_UEFI_RANGES];
	u64 committed;
	u64 free_hint;
	struct list_head vpr;
	bool (*protected)(struct ttm_buffer_object *tbo);
	struct list_head cache;
	unsigned int cached;
	void *bar;
	u64 bar_size;
	phys_addr_t bar_phys;
	struct dmem_cgroup_region *dmem;
};

/**
 * struct vseg_vram_res - a resource in a memory segment
 * @base: the TTM resource.
 * @blocks: the buddy blocks backing it, in buffer order.
 * @size: bytes allocated (the buffer size rounded to the segment page).
 * @contiguous: the blocks form one range starting at @base.start.
 * @pfn_block: CPU faults: the block of the last page looked up (under the
 *	buffer's reservation), so that consecutive pages cost O(1).
 * @pfn_block_start: buffer offset where @pfn_block starts.
 * @vpr_link: a protected buffer's placement: in &vseg_vram_mgr.vpr, under
 *	its lock; empty otherwise.
 */
struct vseg_vram_res {
	struct ttm_resource base;
	struct list_head blocks;
	u64 size;
	bool contiguous;
	struct drm_buddy_block *pfn_block;
	u64 pfn_block_start;
	struct list_head vpr_link;
};

#endif /* __VSEG_VRAM_MGR_TYPES_H__ */
