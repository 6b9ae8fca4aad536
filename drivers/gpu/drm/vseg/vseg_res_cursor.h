/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Copyright (c) 2026 The vseg authors
 */
#ifndef __VSEG_RES_CURSOR_H__
#define __VSEG_RES_CURSOR_H__

#include <linux/types.h>

struct drm_buddy_block;
struct list_head;
struct ttm_resource;
struct ttm_tt;
struct vseg_device;
struct vseg_vram_mgr;

/**
 * struct vseg_cursor - walks the bytes of a buffer in one placement
 * @mgr: memory segments: the segment's manager.
 * @blocks: memory segments: the buddy blocks, in buffer order.
 * @block: the current block.
 * @block_start: buffer offset where @block starts.
 * @tt: system memory and the aperture: the buffer's pages.
 * @kmapped: the page mapped by the last vseg_cursor_map(), if any.
 * @populated: memory segments: the placement is backed already
 *	(vseg_vram_res_populate()): never allocate a page to write (the
 *	engines, which cannot allocate while they run a job).
 *
 * Memory-segment buffers may be scattered; TTM's linear memcpy and kmap
 * helpers cannot walk them (the amdgpu/xe res_cursor idea).
 */
struct vseg_cursor {
	struct vseg_vram_mgr *mgr;
	struct list_head *blocks;
	struct drm_buddy_block *block;
	u64 block_start;
	struct ttm_tt *tt;
	void *kmapped;
	bool populated;
};

void vseg_cursor_init(struct vseg_cursor *c, struct vseg_device *vdev,
		      struct ttm_tt *tt, struct ttm_resource *res);
void *vseg_cursor_map(struct vseg_cursor *c, u64 off, u64 *len, bool write);
void vseg_cursor_unmap(struct vseg_cursor *c);
u64 vseg_cursor_span(struct vseg_cursor *c, u64 off, u64 max, u32 *seg,
		     u64 *addr);
u64 vseg_cursor_vram_offset(struct vseg_device *vdev, struct ttm_resource *res,
			    u64 off);
int vseg_cursor_populate(struct vseg_device *vdev, struct ttm_resource *res,
			 u64 off, u64 size);

#endif /* __VSEG_RES_CURSOR_H__ */
