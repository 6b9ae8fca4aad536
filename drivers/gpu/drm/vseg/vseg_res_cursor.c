// SPDX-License-Identifier: GPL-2.0-only
/*
 * Copyright (c) 2026 The vseg authors
 *
 * A cursor over the bytes of a buffer in one placement: the segment pages
 * of a memory segment (possibly scattered: the buddy blocks in buffer
 * order) or the system pages of its ttm_tt. TTM's own memcpy move treats
 * device memory as linear, which a scattered segment is not. Moves, the
 * render engine, CPU faults and ptrace access all walk buffers with it.
 */

#include <linux/dma-resv.h>
#include <linux/highmem.h>
#include <linux/string.h>
#include <drm/drm_gem_ttm_helper.h>
#include <drm/ttm/ttm_resource.h>
#include <drm/ttm/ttm_tt.h>

#include "vseg_compat.h"
#include "vseg_device_types.h"
#include "vseg_res_cursor.h"
#include "vseg_vram_mgr.h"

static bool res_uses_pages(const struct ttm_resource *res)
{
	return !res || res->mem_type == TTM_PL_SYSTEM ||
	       res->mem_type == TTM_PL_TT;
}

/**
 * vseg_cursor_init() - start a cursor over a buffer in one placement
 * @c: the cursor
 * @vdev: the device
 * @tt: the buffer's page array (used for system memory and the aperture)
 * @res: the placement
 */
void vseg_cursor_init(struct vseg_cursor *c, struct vseg_device *vdev,
		      struct ttm_tt *tt, struct ttm_resource *res)
{
	memset(c, 0, sizeof(*c));
	if (res_uses_pages(res)) {
		c->tt = tt;
		return;
	}
	c->mgr = vseg_vram(vdev, vseg_mem_type_to_seg(vdev, res->mem_type));
	c->blocks = &to_vseg_vram_res(res)->blocks;
	c->block = list_first_entry(c->blocks, struct drm_buddy_block, link);
}

/* Move to the block holding @off (forwards is O(1) amortized). */
static void cursor_seek(struct vseg_cursor *c, u64 off, u64 *size)
{
	if (off < c->block_start) {
		/* going back: start over */
		c->block = list_first_entry(c->blocks, struct drm_buddy_block,
					    link);
		c->block_start = 0;
	}
	for (;;) {
		*size = drm_buddy_block_size(&c->mgr->mm, c->block);
		if (off < c->block_start + *size)
			return;
		c->block_start += *size;
		c->block = list_next_entry(c->block, link);
	}
}

/**
 * vseg_cursor_map() - kernel address of a byte of the buffer
 * @c: the cursor
 * @off: byte offset in the buffer; walking forwards is O(1) amortized,
 *	going back walks again from the first block
 * @len: receives how many bytes follow contiguously (at most to the end
 *	of the host page)
 * @write: the bytes will be written (a memory segment's page is allocated
 *	if it is not backed yet, unless the cursor is @populated)
 *
 * Return: the address, or NULL when a page to write cannot be had;
 * vseg_cursor_unmap() before the next call.
 */
void *vseg_cursor_map(struct vseg_cursor *c, u64 off, u64 *len, bool write)
{
	u64 size, in, seg_off, n;
	void *p;

	if (c->tt) {
		in = off & ~PAGE_MASK;
		*len = PAGE_SIZE - in;
		c->kmapped = kmap_local_page(c->tt->pages[off >> PAGE_SHIFT]);
		return c->kmapped + in;
	}
	cursor_seek(c, off, &size);
	in = off - c->block_start;
	seg_off = drm_buddy_block_offset(c->block) + in;
	if (c->populated && write)
		p = vseg_vram_map_populated(c->mgr, seg_off, &n, &c->kmapped);
	else
		p = vseg_vram_map(c->mgr, seg_off, &n, write, &c->kmapped);
	if (!p) {
		c->kmapped = NULL;
		return NULL;
	}
	*len = min(n, size - in);
	return p;
}

/**
 * vseg_cursor_span() - where a run of the buffer's bytes lies
 * @c: the cursor
 * @off: byte offset in the buffer
 * @max: the caller needs at most this many bytes
 * @seg: receives the segment id: 0 for system memory (and the aperture,
 *	whose pages are system pages)
 * @addr: receives the offset in the segment, or the physical address of
 *	the system page byte
 *
 * For the paging engine's operations, which address memory as (segment,
 * offset) pairs and system pages physically.
 *
 * Return: how many bytes, at most @max, follow contiguously from @off:
 * to the end of the buddy block, or of a run of physically contiguous
 * pages.
 */
u64 vseg_cursor_span(struct vseg_cursor *c, u64 off, u64 max, u32 *seg,
		     u64 *addr)
{
	u64 size, len;

	if (c->tt) {
		pgoff_t i = off >> PAGE_SHIFT;
		unsigned long pfn = page_to_pfn(c->tt->pages[i]);

		*seg = 0;
		*addr = PFN_PHYS(pfn) + offset_in_page(off);
		len = PAGE_SIZE - offset_in_page(off);
		while (len < max && ++i < c->tt->num_pages &&
		       page_to_pfn(c->tt->pages[i]) == ++pfn)
			len += PAGE_SIZE;
		return min(len, max);
	}
	cursor_seek(c, off, &size);
	*seg = c->mgr->desc->id;
	*addr = drm_buddy_block_offset(c->block) + off - c->block_start;
	return min(size - (off - c->block_start), max);
}

/**
 * vseg_cursor_unmap() - drop the mapping of the last vseg_cursor_map()
 * @c: the cursor
 */
void vseg_cursor_unmap(struct vseg_cursor *c)
{
	if (c->kmapped) {
		kunmap_local(c->kmapped);
		c->kmapped = NULL;
	}
}

/**
 * vseg_cursor_vram_offset() - segment offset of a byte of a placement
 * @vdev: the device
 * @res: a placement in a memory segment, its buffer reserved
 * @off: byte offset in the buffer
 *
 * CPU faults ask for consecutive pages (TTM prefaults a run of them): the
 * position reached is kept in the resource, so that a run costs O(1) per
 * page instead of a walk from the first block each time.
 *
 * Return: the offset in the segment.
 */
u64 vseg_cursor_vram_offset(struct vseg_device *vdev, struct ttm_resource *res,
			    u64 off)
{
	struct vseg_vram_res *vres = to_vseg_vram_res(res);
	struct vseg_cursor c;
	u64 size;

	dma_resv_assert_held(res->bo->base.resv);
	vseg_cursor_init(&c, vdev, NULL, res);
	if (vres->pfn_block && off >= vres->pfn_block_start) {
		c.block = vres->pfn_block;
		c.block_start = vres->pfn_block_start;
	}
	cursor_seek(&c, off, &size);
	vres->pfn_block = c.block;
	vres->pfn_block_start = c.block_start;
	return drm_buddy_block_offset(c.block) + off - c.block_start;
}

/**
 * vseg_cursor_populate() - back some pages of a segment placement
 * @vdev: the device
 * @res: a placement in a memory segment, its buffer reserved
 * @off: byte offset in the buffer of the first page
 * @size: bytes
 *
 * For a CPU fault, before it maps the pages (io_mem_pfn cannot allocate).
 *
 * Return: 0 or -ENOMEM.
 */
int vseg_cursor_populate(struct vseg_device *vdev, struct ttm_resource *res,
			 u64 off, u64 size)
{
	struct vseg_vram_mgr *mgr;
	u64 end = min(off + size, res->bo->base.size);
	int err;

	mgr = vseg_vram(vdev, vseg_mem_type_to_seg(vdev, res->mem_type));
	for (off = round_down(off, PAGE_SIZE); off < end; off += PAGE_SIZE) {
		err = vseg_vram_populate(mgr, vseg_cursor_vram_offset(vdev, res,
								      off),
					 PAGE_SIZE);
		if (err)
			return err;
	}
	return 0;
}
