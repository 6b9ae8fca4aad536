// SPDX-License-Identifier: GPL-2.0-only
/*
 * Copyright (c) 2026 The vseg authors
 *
 * TTM glue: the TTM device and the mapping of the segment table onto TTM
 * memory types.
 *
 *   segment 0 (system)      -> TTM_PL_SYSTEM, registered by TTM itself
 *   the aperture segment    -> TTM_PL_TT, vseg_aperture_mgr (commit limit
 *                              and software GART)
 *   memory segment k (0..5) -> TTM_PL_VRAM for k == 0, else TTM_PL_PRIV +
 *                              k - 1, each with its own vseg_vram_mgr
 */

#include <linux/highmem.h>
#include <linux/slab.h>
#include <linux/vmalloc.h>
#include <drm/drm_drv.h>
#include <drm/drm_file.h>
#include <drm/ttm/ttm_tt.h>

#include "vseg_aperture_mgr.h"
#include "vseg_bo.h"
#include "vseg_compat.h"
#include "vseg_drv.h"
#include "vseg_ttm.h"
#include "vseg_vram_mgr.h"

static struct ttm_tt *vseg_ttm_tt_create(struct ttm_buffer_object *bo,
					 u32 page_flags)
{
	struct ttm_tt *tt;

	tt = kzalloc(sizeof(*tt), GFP_KERNEL);
	if (!tt)
		return NULL;
	/* Buffers start zeroed wherever they first land. */
	if (ttm_tt_init(tt, bo, page_flags | TTM_TT_FLAG_ZERO_ALLOC,
			ttm_cached, 0)) {
		kfree(tt);
		return NULL;
	}
	return tt;
}

static void vseg_ttm_tt_destroy(struct ttm_device *bdev, struct ttm_tt *tt)
{
	ttm_tt_fini(tt);
	kfree(tt);
}

static const struct ttm_place vseg_sys_place = {
	.mem_type = TTM_PL_SYSTEM,
};

static void vseg_ttm_evict_flags(struct ttm_buffer_object *bo,
				 struct ttm_placement *placement)
{
	struct vseg_bo *vbo;
	unsigned int n;

	if (!vseg_is_vseg_bo(bo) || !bo->resource) {
		vseg_placement_set(placement, &vseg_sys_place, 1);
		return;
	}
	vbo = to_vseg_bo(bo);
	n = vseg_bo_evict_places(vbo, bo->resource->mem_type,
				 vbo->evict_places);
	vseg_placement_set(placement, vbo->evict_places, n);
}

static bool res_uses_pages(const struct ttm_resource *res)
{
	return !res || res->mem_type == TTM_PL_SYSTEM ||
	       res->mem_type == TTM_PL_TT;
}

static struct vseg_vram_mgr *res_vram(struct vseg_device *vdev,
				      const struct ttm_resource *res)
{
	return vseg_seg(vdev, vdev->mem_type_to_id[res->mem_type])->vram;
}

/**
 * vseg_count() - count a paging operation on the segment of a placement
 * @vdev: the device
 * @res: the placement
 * @op: VSEG_PAGING_*
 */
void vseg_count(struct vseg_device *vdev, const struct ttm_resource *res,
		enum vseg_paging_op op)
{
	u32 id = res->mem_type == TTM_PL_SYSTEM ? 0 :
		 vdev->mem_type_to_id[res->mem_type];

	atomic64_inc(&vdev->paging[id].op[op]);
}

/*
 * A cursor over the bytes of a buffer in one placement: the segment pages
 * of a memory segment (possibly scattered: the blocks in allocation order)
 * or the system pages of its ttm_tt. TTM's own memcpy move treats device
 * memory as linear, which a scattered segment is not.
 */
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
	c->mgr = res_vram(vdev, res);
	c->blocks = &to_vseg_vram_res(res)->blocks;
	c->block = list_first_entry(c->blocks, struct drm_buddy_block, link);
}

/**
 * vseg_cursor_map() - kernel address of a byte of the buffer
 * @c: the cursor
 * @off: byte offset in the buffer; walking forwards is O(1) amortized,
 *	going back walks again from the first block
 * @len: receives how many bytes follow contiguously
 *
 * Return: the address; vseg_cursor_unmap() before the next call.
 */
void *vseg_cursor_map(struct vseg_cursor *c, u64 off, u64 *len)
{
	u64 size, in;

	if (c->tt) {
		in = off & ~PAGE_MASK;
		*len = PAGE_SIZE - in;
		c->kmapped = kmap_local_page(c->tt->pages[off >> PAGE_SHIFT]);
		return c->kmapped + in;
	}
	if (off < c->block_start) {
		/* going back: start over */
		c->block = list_first_entry(c->blocks, struct drm_buddy_block,
					    link);
		c->block_start = 0;
	}
	for (;;) {
		size = drm_buddy_block_size(&c->mgr->mm, c->block);
		if (off < c->block_start + size)
			break;
		c->block_start += size;
		c->block = list_next_entry(c->block, link);
	}
	in = off - c->block_start;
	*len = size - in;
	return c->mgr->vaddr + drm_buddy_block_offset(c->block) + in;
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

/* Copy @size bytes from one placement to another; NULL @src clears. */
static void vseg_copy(struct vseg_cursor *dst, struct vseg_cursor *src,
		      u64 size)
{
	u64 off = 0, dlen, slen, n;
	void *d, *s;

	while (off < size) {
		d = vseg_cursor_map(dst, off, &dlen);
		n = min(dlen, size - off);
		if (src) {
			s = vseg_cursor_map(src, off, &slen);
			n = min(n, slen);
			memcpy(d, s, n);
			vseg_cursor_unmap(src);
		} else {
			memset(d, 0, n);
		}
		vseg_cursor_unmap(dst);
		off += n;
	}
}

/*
 * A memory-segment placement about to be written whole (@clear false: a
 * move copies into it) or handed out zeroed (@clear true: only the pages
 * that may be dirty are cleared, see vseg_vram_clear()).
 */
static void vram_res_prepare(struct vseg_device *vdev,
			     struct ttm_resource *res, bool clear)
{
	struct vseg_vram_mgr *mgr = res_vram(vdev, res);
	struct drm_buddy_block *block;

	list_for_each_entry(block, &to_vseg_vram_res(res)->blocks, link) {
		u64 start = drm_buddy_block_offset(block);
		u64 size = drm_buddy_block_size(&mgr->mm, block);

		if (clear)
			vseg_vram_clear(mgr, start, size);
		else
			vseg_vram_mark_dirty(mgr, start, size);
	}
}

static int bind_gart(struct vseg_device *vdev, struct ttm_buffer_object *bo,
		     struct ttm_resource *res)
{
	struct vseg_aperture_mgr *mgr = vseg_seg(vdev, vdev->aperture_id)->aperture;

	if (res->mem_type != TTM_PL_TT || !vseg_aperture_res_has_range(res))
		return 0;
	return vseg_gart_bind(&mgr->gart, &to_vseg_aperture_res(res)->node,
			      bo->ttm->pages, bo->ttm->num_pages);
}

/*
 * Invalidate the GART entries of an aperture placement that is going away.
 * TTM frees a buffer's pages before its old resource (the move and delete
 * paths destroy the ttm_tt first): the entries must not outlive the pages,
 * or an engine could still reach them. Cleared under the GART lock.
 */
static void unbind_gart(struct vseg_device *vdev, struct ttm_resource *res)
{
	if (!res || res->mem_type != TTM_PL_TT ||
	    !vseg_aperture_res_has_range(res))
		return;
	vseg_gart_unbind(&vseg_seg(vdev, vdev->aperture_id)->aperture->gart,
			 &to_vseg_aperture_res(res)->node);
}

static int vseg_ttm_move(struct ttm_buffer_object *bo, bool evict,
			 struct ttm_operation_ctx *ctx,
			 struct ttm_resource *new_mem,
			 struct ttm_place *hop)
{
	struct vseg_device *vdev = bdev_to_vseg(bo->bdev);
	struct ttm_resource *old = bo->resource;
	struct vseg_bo *vbo = vseg_is_vseg_bo(bo) ? to_vseg_bo(bo) : NULL;
	bool evicted = evict || (vbo && vbo->evicting);
	struct vseg_cursor src, dst;
	bool has_content;
	int err;

	/* Queued jobs may use the buffer where it is: let them finish. */
	if (old) {
		err = ttm_bo_wait_ctx(bo, ctx);
		if (err)
			return err;
	}
	if (res_uses_pages(old) && res_uses_pages(new_mem)) {
		/* The pages stay where they are; only the GART changes. */
		unbind_gart(vdev, old);
		if (new_mem->mem_type == TTM_PL_TT) {
			err = bind_gart(vdev, bo, new_mem);
			if (err)
				return err;
		}
		ttm_bo_move_null(bo, new_mem);
		goto out;
	}

	if (bo->ttm && (res_uses_pages(new_mem) ||
			(bo->ttm->page_flags & TTM_TT_FLAG_SWAPPED))) {
		err = vseg_tt_populate(bo, ctx);
		if (err)
			return err;
	}
	has_content = !res_uses_pages(old) ||
		      (bo->ttm && ttm_tt_is_populated(bo->ttm));

	vseg_cursor_init(&dst, vdev, bo->ttm, new_mem);
	if (has_content) {
		if (!res_uses_pages(new_mem))
			vram_res_prepare(vdev, new_mem, false);
		vseg_cursor_init(&src, vdev, bo->ttm, old);
		vseg_copy(&dst, &src, bo->base.size);
		vseg_count(vdev, old, VSEG_PAGING_TRANSFERS);
		vseg_count(vdev, new_mem, VSEG_PAGING_TRANSFERS);
	} else if (!res_uses_pages(new_mem)) {
		vram_res_prepare(vdev, new_mem, true);
		vseg_count(vdev, new_mem, VSEG_PAGING_FILLS);
	}
	err = bind_gart(vdev, bo, new_mem);
	if (err)
		return err;
	/* The old pages go before the old resource: unmap them first. */
	unbind_gart(vdev, old);
	ttm_bo_move_sync_cleanup(bo, new_mem);
out:
	if (vbo)
		vseg_bo_update_state(vbo, bo->resource, evicted && old);
	return 0;
}

static void vseg_ttm_delete_mem_notify(struct ttm_buffer_object *bo)
{
	/* Called before the pages are freed: no GART entry may survive. */
	unbind_gart(bdev_to_vseg(bo->bdev), bo->resource);
	/* The contents go away with the buffer: a discard. */
	if (bo->resource)
		vseg_count(bdev_to_vseg(bo->bdev), bo->resource,
			   VSEG_PAGING_DISCARDS);
	if (vseg_is_vseg_bo(bo))
		vseg_bo_update_state(to_vseg_bo(bo), NULL, false);
}

static int vseg_ttm_io_mem_reserve(struct ttm_device *bdev,
				   struct ttm_resource *mem)
{
	struct vseg_device *vdev = bdev_to_vseg(bdev);
	struct vseg_vram_res *vres;

	if (res_uses_pages(mem))
		return 0;
	vres = to_vseg_vram_res(mem);
	/* Segment memory is RAM here: cached, reached through io_mem_pfn. */
	mem->bus.is_iomem = true;
	mem->bus.caching = ttm_cached;
	mem->bus.offset = 0;
	mem->bus.addr = vres->contiguous ?
			res_vram(vdev, mem)->vaddr + ((u64)mem->start << PAGE_SHIFT) :
			NULL;
	return 0;
}

static unsigned long vseg_ttm_io_mem_pfn(struct ttm_buffer_object *bo,
					 unsigned long page_offset)
{
	struct vseg_device *vdev = bdev_to_vseg(bo->bdev);
	struct vseg_vram_res *vres = to_vseg_vram_res(bo->resource);
	struct vseg_vram_mgr *mgr = res_vram(vdev, bo->resource);
	u64 off = (u64)page_offset << PAGE_SHIFT, len;
	struct vseg_cursor c;
	void *p;

	/* the CPU may write whatever it maps */
	if (vres->contiguous) {
		off += (u64)bo->resource->start << PAGE_SHIFT;
		vseg_vram_mark_dirty(mgr, off, PAGE_SIZE);
		return vmalloc_to_pfn(mgr->vaddr + off);
	}
	/*
	 * Scattered: faults ask for consecutive pages (TTM prefaults a
	 * run of them); go on from the block of the last call rather than
	 * walking the blocks from the first every time. Faults hold the
	 * reservation, which serializes the use of the cached position.
	 */
	dma_resv_assert_held(bo->base.resv);
	vseg_cursor_init(&c, vdev, bo->ttm, bo->resource);
	if (vres->pfn_block && off >= vres->pfn_block_start) {
		c.block = vres->pfn_block;
		c.block_start = vres->pfn_block_start;
	}
	p = vseg_cursor_map(&c, off, &len);
	vres->pfn_block = c.block;
	vres->pfn_block_start = c.block_start;
	vseg_vram_mark_dirty(mgr, p - mgr->vaddr, PAGE_SIZE);
	return vmalloc_to_pfn(p);
}

static int vseg_ttm_access_memory(struct ttm_buffer_object *bo,
				  unsigned long offset, void *buf, int len,
				  int write)
{
	struct vseg_device *vdev = bdev_to_vseg(bo->bdev);
	struct vseg_cursor c;
	u64 done = 0, n;
	void *p;

	if (res_uses_pages(bo->resource))
		return -EIO;
	vseg_cursor_init(&c, vdev, bo->ttm, bo->resource);
	while (done < (u64)len) {
		p = vseg_cursor_map(&c, offset + done, &n);
		n = min_t(u64, n, (u64)len - done);
		if (write) {
			vseg_vram_mark_dirty(c.mgr, p - c.mgr->vaddr, n);
			memcpy(p, buf + done, n);
		} else {
			memcpy(buf + done, p, n);
		}
		done += n;
	}
	return len;
}

static VSEG_TTM_FUNCS_CONST struct ttm_device_funcs vseg_ttm_funcs = {
	.ttm_tt_create = vseg_ttm_tt_create,
	.ttm_tt_destroy = vseg_ttm_tt_destroy,
	.eviction_valuable = ttm_bo_eviction_valuable,
	.evict_flags = vseg_ttm_evict_flags,
	.move = vseg_ttm_move,
	.delete_mem_notify = vseg_ttm_delete_mem_notify,
	.io_mem_reserve = vseg_ttm_io_mem_reserve,
	.io_mem_pfn = vseg_ttm_io_mem_pfn,
	.access_memory = vseg_ttm_access_memory,
};

/**
 * vseg_ttm_mem_type_name() - name of a TTM memory type, for dumps
 * @mem_type: TTM_PL_*
 *
 * Return: "SYSTEM", "TT", "VRAM" or "PRIVn".
 */
const char *vseg_ttm_mem_type_name(u32 mem_type)
{
	static const char * const names[TTM_NUM_MEM_TYPES] = {
		"SYSTEM", "TT", "VRAM", "PRIV0", "PRIV1", "PRIV2", "PRIV3",
		"PRIV4",
	};

	return mem_type < TTM_NUM_MEM_TYPES ? names[mem_type] : "?";
}

/**
 * vseg_ttm_init() - create the TTM device and one manager per segment
 * @vdev: the device, with a validated table
 *
 * Return: 0 or a negative error code; on error nothing is left set up.
 */
int vseg_ttm_init(struct vseg_device *vdev)
{
	struct drm_device *drm = &vdev->drm;
	unsigned int i, next_mem = 0;
	int err;

	err = ttm_device_init(&vdev->bdev, &vseg_ttm_funcs, drm->dev,
			      drm->anon_inode->i_mapping,
			      drm->vma_offset_manager, false, false);
	if (err)
		return err;

	for (i = 0; i < vdev->table.num_segments; i++) {
		const struct vseg_segment_desc *desc = &vdev->table.seg[i];
		struct vseg_segment *seg = &vdev->seg[i];

		seg->desc = desc;
		atomic64_set(&seg->resident, 0);
		atomic64_set(&seg->evicted, 0);
		if (desc->kind == VSEG_SEGMENT_APERTURE) {
			seg->mem_type = TTM_PL_TT;
			vdev->aperture_id = desc->id;
			err = vseg_aperture_mgr_init(vdev, seg);
		} else {
			seg->mem_type = next_mem ? TTM_PL_PRIV + next_mem - 1 :
						   TTM_PL_VRAM;
			next_mem++;
			err = vseg_vram_mgr_init(vdev, seg);
		}
		if (err)
			goto err_fini;
		vdev->mem_type_to_id[seg->mem_type] = desc->id;
	}
	return 0;

err_fini:
	vseg_ttm_fini(vdev);
	return err;
}

/**
 * vseg_ttm_fini() - tear down the managers and the TTM device
 * @vdev: the device
 */
void vseg_ttm_fini(struct vseg_device *vdev)
{
	unsigned int i;

	/* Buffers released while a job still used them go now. */
	vseg_ttm_flush_deferred(&vdev->bdev);

	for (i = vdev->table.num_segments; i-- > 0;) {
		struct vseg_segment *seg = &vdev->seg[i];

		if (seg->aperture)
			vseg_aperture_mgr_fini(vdev, seg);
		if (seg->vram)
			vseg_vram_mgr_fini(vdev, seg);
	}
	ttm_device_fini(&vdev->bdev);
	if (vdev->num_bos)
		drm_err(&vdev->drm, "leak: %llu buffers still alive\n",
			vdev->num_bos);
}

/**
 * vseg_ttm_usage() - live usage of a segment
 * @vdev: the device
 * @id: segment id, 0 for the system segment
 * @u: receives the counters
 */
void vseg_ttm_usage(struct vseg_device *vdev, u32 id, struct vseg_usage *u)
{
	struct vseg_segment *seg;

	memset(u, 0, sizeof(*u));
	if (!id) {
		u->resident = atomic64_read(&vdev->system_resident);
		u->committed = u->resident;
		return;
	}
	seg = vseg_seg(vdev, id);
	u->resident = atomic64_read(&seg->resident);
	u->evicted = atomic64_read(&seg->evicted);
	if (seg->vram) {
		u->committed = vseg_vram_mgr_committed(seg->vram);
	} else if (seg->aperture) {
		u->committed = vseg_aperture_mgr_committed(seg->aperture);
		u->aperture_mapped =
			vseg_gart_mapped_bytes(&seg->aperture->gart);
	}
}
