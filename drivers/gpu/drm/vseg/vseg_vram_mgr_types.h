/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Copyright (c) 2026 The vseg authors
 */
#ifndef __VSEG_VRAM_MGR_TYPES_H__
#define __VSEG_VRAM_MGR_TYPES_H__

#include <linux/list.h>
#include <linux/mutex.h>
#include <drm/drm_buddy.h>
#include <drm/ttm/ttm_resource.h>

struct page;
struct vseg_segment_desc;

/* Pages per table of the backing store (one page of pointers). */
#define VSEG_BACKING_TABLE	(PAGE_SIZE / sizeof(struct page *))

/**
 * struct vseg_vram_mgr - TTM resource manager of one memory segment
 * @manager: the TTM manager, registered for the segment's memory type.
 * @mem_type: that memory type.
 * @mm: buddy allocator over the segment, in units of its page size.
 * @lock: protects @mm, @committed, @reserved and @free_hint.
 * @desc: the segment.
 * @backing: the backing store: a directory of tables of
 *	%VSEG_BACKING_TABLE pages, allocated on first use, holding the
 *	system page behind each host page of the segment that was written
 *	since it was last freed; absent pages read as zero.
 * @backing_tables: entries of @backing.
 * @backed: bytes of pages in @backing.
 * @reserved: blocks held for the segment's invalid ranges.
 * @committed: bytes handed out (in whole segment pages).
 * @free_hint: no byte below this offset is free: range allocations start
 *	their search there.
 * @bar: a segment on a PCI BAR: its first @bar_size bytes are the BAR's
 *	memory, mapped write-combined here (the rest is in @backing); NULL
 *	for a segment wholly in @backing.
 * @bar_size: bytes of the segment on the BAR; 0 once the device is gone
 *	(vseg_vram_mgr_detach_bar()): from then on @backing holds them all.
 * @bar_phys: CPU physical (bus) address of the segment's first byte.
 */
struct vseg_vram_mgr {
	struct ttm_resource_manager manager;
	u32 mem_type;
	struct drm_buddy mm;
	struct mutex lock; /* protects mm, committed, reserved, free_hint */
	const struct vseg_segment_desc *desc;
	struct page ***backing;
	unsigned long backing_tables;
	atomic64_t backed;
	struct list_head reserved;
	u64 committed;
	u64 free_hint;
	void *bar;
	u64 bar_size;
	phys_addr_t bar_phys;
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
 */
struct vseg_vram_res {
	struct ttm_resource base;
	struct list_head blocks;
	u64 size;
	bool contiguous;
	struct drm_buddy_block *pfn_block;
	u64 pfn_block_start;
};

#endif /* __VSEG_VRAM_MGR_TYPES_H__ */
