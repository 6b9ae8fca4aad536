/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Copyright (c) 2026 The vseg authors
 */
#ifndef __VSEG_TTM_H__
#define __VSEG_TTM_H__

#include <linux/types.h>

#include "vseg_drv.h"

struct drm_buddy_block;
struct list_head;
struct ttm_resource;
struct ttm_tt;
struct vseg_device;
struct vseg_usage;
struct vseg_vram_mgr;

/**
 * struct vseg_cursor - walks the bytes of a buffer in one placement
 * @mgr: memory segments: the segment's manager.
 * @blocks: memory segments: the buddy blocks, in buffer order.
 * @block: the current block.
 * @block_start: buffer offset where @block starts.
 * @tt: system memory and the aperture: the buffer's pages.
 * @kmapped: the page mapped by the last vseg_cursor_map(), if any.
 *
 * Memory-segment buffers may be scattered; TTM's linear memcpy and kmap
 * helpers cannot walk them.
 */
struct vseg_cursor {
	struct vseg_vram_mgr *mgr;
	struct list_head *blocks;
	struct drm_buddy_block *block;
	u64 block_start;
	struct ttm_tt *tt;
	void *kmapped;
};

void vseg_cursor_init(struct vseg_cursor *c, struct vseg_device *vdev,
		      struct ttm_tt *tt, struct ttm_resource *res);
void *vseg_cursor_map(struct vseg_cursor *c, u64 off, u64 *len);
void vseg_cursor_unmap(struct vseg_cursor *c);

int vseg_ttm_init(struct vseg_device *vdev);
void vseg_ttm_fini(struct vseg_device *vdev);
void vseg_ttm_usage(struct vseg_device *vdev, u32 id, struct vseg_usage *u);
const char *vseg_ttm_mem_type_name(u32 mem_type);
void vseg_count(struct vseg_device *vdev, const struct ttm_resource *res,
		enum vseg_paging_op op);

#endif /* __VSEG_TTM_H__ */
