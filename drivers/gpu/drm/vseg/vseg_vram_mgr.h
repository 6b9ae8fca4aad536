/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Copyright (c) 2026 The vseg authors
 */
#ifndef __VSEG_VRAM_MGR_H__
#define __VSEG_VRAM_MGR_H__

#include <linux/types.h>

#include "vseg_vram_mgr_types.h"

struct ttm_buffer_object;
struct ttm_device;
struct ttm_resource;
struct vseg_device;
struct vseg_segment_desc;

static inline struct vseg_vram_res *to_vseg_vram_res(struct ttm_resource *res)
{
	return container_of(res, struct vseg_vram_res, base);
}

u32 vseg_vram_vpr_extents(struct vseg_vram_mgr *mgr);
int vseg_vram_mgr_init(struct vseg_device *vdev, u32 id,
		       bool (*protected)(struct ttm_buffer_object *tbo));
int __vseg_vram_mgr_init(struct vseg_vram_mgr *mgr, struct ttm_device *bdev,
			 const struct vseg_segment_desc *desc, u32 mem_type);
void vseg_vram_mgr_fini(struct vseg_vram_mgr *mgr, struct ttm_device *bdev);
void vseg_vram_mgr_detach_bar(struct vseg_vram_mgr *mgr);
bool vseg_vram_res_on_bar(struct ttm_resource *res);
u64 vseg_vram_mgr_committed(struct vseg_vram_mgr *mgr);
int vseg_vram_populate(struct vseg_vram_mgr *mgr, u64 offset, u64 size);
void vseg_vram_release(struct vseg_vram_mgr *mgr, u64 offset, u64 size);
void *vseg_vram_map(struct vseg_vram_mgr *mgr, u64 offset, u64 *len,
		    bool write, void **kmapped);
void *vseg_vram_map_populated(struct vseg_vram_mgr *mgr, u64 offset, u64 *len,
			      void **kmapped);
void vseg_vram_unmap(void *kmapped);
unsigned long vseg_vram_pfn(struct vseg_vram_mgr *mgr, u64 offset);
u64 vseg_vram_backed(struct vseg_vram_mgr *mgr);
bool vseg_vram_res_contiguous(struct ttm_resource *res);
bool vseg_vram_res_backed(struct ttm_resource *res);
bool vseg_vram_res_below(struct ttm_resource *res, u64 limit);
bool vseg_vram_res_within(struct ttm_resource *res, u64 lo, u64 hi);
int vseg_vram_res_populate(struct ttm_resource *res, u64 overwritten);
u64 vseg_vram_res_size(struct ttm_resource *res);
int vseg_vram_res_copy(struct ttm_resource *res, void *buf, bool to_segment);
void vseg_vram_clear(struct vseg_vram_mgr *mgr, u64 offset, u64 size);
u64 vseg_vram_poison(struct vseg_vram_mgr *mgr, u64 offset, u64 size,
		     u8 pattern);

/* FNV-1a, 64 bits: the checksum of the firmware image (debugfs). */
#define VSEG_FNV_OFFSET	0xcbf29ce484222325ull
#define VSEG_FNV_PRIME	0x100000001b3ull

/*
 * The firmware image's splash: the 32-bit word at segment offset @off of
 * a UEFI frame buffer (an XRGB pixel: alpha 0x7e, then the word index).
 */
static inline u32 vseg_splash_word(u64 off)
{
	return 0x7e000000u | (u32)((off >> 2) & 0x00ffffffu);
}

u64 vseg_vram_mgr_grab(struct vseg_vram_mgr *mgr, u64 start, u64 size,
		       struct list_head *blocks);
void vseg_vram_mgr_drop(struct vseg_vram_mgr *mgr, struct list_head *blocks);
int vseg_vram_mgr_add_invalid(struct vseg_vram_mgr *mgr, u64 start, u64 size,
			      struct list_head *blocks);
int vseg_vram_mgr_del_invalid(struct vseg_vram_mgr *mgr, u64 start, u64 size);
u32 vseg_vram_mgr_invalid(struct vseg_vram_mgr *mgr, struct vseg_range *out);
u32 vseg_vram_mgr_uefi(struct vseg_vram_mgr *mgr, struct vseg_range *out);
bool vseg_vram_mgr_held_overlaps(struct vseg_vram_mgr *mgr, u64 start,
				 u64 size);
bool vseg_vram_res_intersects(struct vseg_vram_mgr *mgr, struct ttm_resource *res,
			      u64 start, u64 size);
int vseg_vram_mgr_fill_uefi(struct vseg_vram_mgr *mgr);
u32 vseg_vram_mgr_uefi_checksum(struct vseg_vram_mgr *mgr, u64 *checksum);
u64 vseg_vram_mgr_release_uefi(struct vseg_vram_mgr *mgr);

#endif /* __VSEG_VRAM_MGR_H__ */
