// SPDX-License-Identifier: GPL-2.0-only
/*
 * Copyright (c) 2026 The vseg authors
 *
 * TTM glue: the TTM device, its callbacks, and the segment table's memory
 * types (vseg_layout_init() decides which type stands for which segment):
 *
 *   segment 0 (system)      -> TTM_PL_SYSTEM, registered by TTM itself
 *   the aperture segment    -> TTM_PL_TT, vseg_aperture_mgr (commit limit
 *                              and software GART)
 *   memory segment k (0..5) -> TTM_PL_VRAM for k == 0, else TTM_PL_PRIV +
 *                              k - 1, each with its own vseg_vram_mgr
 */

#include <linux/dma-fence.h>
#include <linux/dma-resv.h>
#include <linux/highmem.h>
#include <linux/slab.h>
#include <linux/vmalloc.h>
#include <linux/io.h>
#include <drm/drm_drv.h>
#include <drm/drm_file.h>
#include <drm/drm_managed.h>
#include <drm/drm_prime.h>
#include <drm/ttm/ttm_pool.h>
#include <drm/ttm/ttm_tt.h>

#include "vseg_aperture_mgr.h"
#include "vseg_bo.h"
#include "vseg_budget.h"
#include "vseg_compat.h"
#include "vseg_device_types.h"
#include "vseg_gart.h"
#include "vseg_host_aperture.h"
#include "vseg_page_pool.h"
#include "vseg_paging.h"
#include "vseg_paging_va.h"
#include "vseg_pt.h"
#include "vseg_res_cursor.h"
#include "vseg_trace.h"
#include "vseg_ttm.h"
#include "vseg_vpr.h"
#include "vseg_vram_mgr.h"

/**
 * struct vseg_tt - a buffer's pages in system memory
 * @ttm: TTM's part
 * @overwrite: the populate in progress is for a move that transfers
 *	content over every page: the pages need not be zeroed first
 */
struct vseg_tt {
	struct ttm_tt ttm;
	bool overwrite;
};

static struct ttm_tt *vseg_ttm_tt_create(struct ttm_buffer_object *bo,
					 u32 page_flags)
{
	struct vseg_tt *tt;

	tt = kzalloc(sizeof(*tt), GFP_KERNEL_ACCOUNT);
	if (!tt)
		return NULL;
	/* Buffers start zeroed wherever they first land. */
	if (ttm_tt_init(&tt->ttm, bo, page_flags | TTM_TT_FLAG_ZERO_ALLOC,
			ttm_cached, 0)) {
		kfree(tt);
		return NULL;
	}
	return &tt->ttm;
}

static void vseg_ttm_tt_destroy(struct ttm_device *bdev, struct ttm_tt *tt)
{
	ttm_tt_fini(tt);
	kfree(container_of(tt, struct vseg_tt, ttm));
}

/*
 * The pages come from vseg's pool (see vseg_page_pool.c); an imported
 * buffer's are the exporter's, listed in the scatter table it gave: they
 * are only looked up, never allocated or freed here.
 */
static int vseg_ttm_tt_populate(struct ttm_device *bdev, struct ttm_tt *tt,
				struct ttm_operation_ctx *ctx)
{
	bool overwrite = container_of(tt, struct vseg_tt, ttm)->overwrite;

	if (tt->page_flags & TTM_TT_FLAG_EXTERNAL)
		return tt->sg ? drm_prime_sg_to_page_array(tt->sg, tt->pages,
							   tt->num_pages) :
				-EINVAL;
	return vseg_pages_get(tt->pages, tt->num_pages,
			      overwrite ? VSEG_PAGE_OVERWRITTEN :
					  VSEG_PAGE_ZERO);
}

static void vseg_ttm_tt_unpopulate(struct ttm_device *bdev,
				   struct ttm_tt *tt)
{
	if (tt->page_flags & TTM_TT_FLAG_EXTERNAL)
		return;
	vseg_pages_put(tt->pages, tt->num_pages);
}

/*
 * Populate for a move that overwrites every page (@overwrite) or not; a
 * move that then fails zeroes the pages it did not write (tt_scrub()).
 */
static int tt_populate(struct ttm_buffer_object *bo,
		       struct ttm_operation_ctx *ctx, bool overwrite)
{
	struct vseg_tt *tt = container_of(bo->ttm, struct vseg_tt, ttm);
	int err;

	tt->overwrite = overwrite;
	err = vseg_tt_populate(bo, ctx);
	tt->overwrite = false;
	return err;
}

static void tt_scrub(struct ttm_tt *tt)
{
	pgoff_t i;

	for (i = 0; i < tt->num_pages; i++)
		clear_highpage(tt->pages[i]);
}

static const struct ttm_place vseg_sys_place = {
	.mem_type = TTM_PL_SYSTEM,
};

static void vseg_ttm_evict_flags(struct ttm_buffer_object *bo,
				 struct ttm_placement *placement)
{
	struct vseg_bo *vbo;
	unsigned int n;

	/* An offered buffer is discarded to system memory (vseg_ttm_move()). */
	if (!vseg_is_vseg_bo(bo) || !bo->resource || to_vseg_bo(bo)->offered) {
		vseg_placement_set(placement, &vseg_sys_place, 1);
		return;
	}
	vbo = to_vseg_bo(bo);
	n = vseg_place_evict(&bdev_to_vseg(bo->bdev)->layout, &vbo->params,
			     bo->resource->mem_type, vbo->evict_places);
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
	return vseg_vram(vdev, vseg_mem_type_to_seg(vdev, res->mem_type));
}

/* The paging address of a run of a buffer's bytes in one placement. */
static u64 span(struct vseg_device *vdev, struct vseg_cursor *c, u64 off,
		u64 max, u64 *addr)
{
	u64 len, where;
	u32 seg;

	len = vseg_cursor_span(c, off, max, &seg, &where);
	*addr = vseg_paging_addr(vdev, seg, where);
	return len;
}

/*
 * One operation per run of bytes that is contiguous both where it goes
 * and where it comes from (@src NULL: FILL or DISCARD, of @dst's bytes).
 */
static int emit_runs(struct vseg_paging *pg, u32 opcode, u32 flags,
		     struct vseg_cursor *dst, struct vseg_cursor *src,
		     u64 size, bool now)
{
	u64 off = 0, len, daddr, saddr = 0;
	int err;

	while (off < size) {
		len = span(pg->vdev, dst, off, size - off, &daddr);
		if (src)
			len = span(pg->vdev, src, off, len, &saddr);
		if (now)
			err = vseg_paging_run(pg, opcode, flags, daddr, saddr,
					      len);
		else
			err = vseg_paging_emit(pg, opcode, flags, daddr, saddr,
					       len);
		if (err)
			return err;
		off += len;
	}
	return 0;
}

/* MAP_APERTURE of a placement's GART range, one operation per page run. */
static int emit_map(struct vseg_device *vdev, struct ttm_buffer_object *bo,
		    struct ttm_resource *res)
{
	u64 start, range, off = 0, len, phys;
	struct vseg_cursor c;
	u32 seg;
	int err;

	if (!vseg_aperture_res_mapped(res))
		return 0;
	vseg_aperture_res_range(res, &start, &range);
	vseg_cursor_init(&c, vdev, bo->ttm, res);
	while (off < bo->base.size) {
		len = vseg_cursor_span(&c, off, bo->base.size - off, &seg,
				       &phys);
		err = vseg_paging_emit(&vdev->pager,
				       VSEG_PAGING_OP_MAP_APERTURE,
				       off ? 0 : VSEG_PAGING_F_NEW_RANGE,
				       start + off, phys, len);
		if (err)
			return err;
		off += len;
	}
	return 0;
}

/* UNMAP_APERTURE of a placement's GART range. */
static int emit_unmap(struct vseg_device *vdev, struct ttm_resource *res)
{
	u64 start, range;

	if (!vseg_aperture_res_mapped(res))
		return 0;
	vseg_aperture_res_range(res, &start, &range);
	return vseg_paging_emit(&vdev->pager, VSEG_PAGING_OP_UNMAP_APERTURE, 0,
				start, 0, range);
}

/*
 * A protected buffer's content crossing between its segment and system
 * memory: the CRYPT_CONTEXT operation before its TRANSFERs, which encrypt
 * on the way out, under a new nonce the buffer keeps, and decrypt on the
 * way back (vseg_vpr.c). Nothing for other moves.
 */
static int emit_crypt(struct vseg_device *vdev, struct ttm_buffer_object *bo,
		      struct ttm_resource *old, struct ttm_resource *new_mem,
		      struct vseg_cursor *dst, struct vseg_cursor *src,
		      u32 *flags)
{
	struct vseg_bo *vbo;
	u64 base;
	bool out;

	if (!vseg_tbo_is_protected(bo) ||
	    res_uses_pages(old) == res_uses_pages(new_mem))
		return 0;
	vbo = to_vseg_bo(bo);
	out = res_uses_pages(new_mem);
	if (out)
		vbo->crypt_nonce = atomic64_inc_return(&vdev->pager.vpr_nonce);
	else if (!vbo->crypt_nonce)
		return -EINVAL;	/* never encrypted: a driver bug */
	span(vdev, out ? src : dst, 0, bo->base.size, &base);
	*flags = out ? VSEG_PAGING_F_ENCRYPT : VSEG_PAGING_F_DECRYPT;
	return vseg_paging_emit(&vdev->pager, VSEG_PAGING_OP_CRYPT_CONTEXT, 0,
				base, vbo->crypt_nonce, 0);
}

/*
 * Does a move of @bo copy and clear its content through the paging VA
 * space (TRANSFER_VIRTUAL, FILL_VIRTUAL: vseg_paging_va.c)? A buffer
 * without AccessedPhysically does; kernel buffers, AccessedPhysically and
 * protected ones keep the physical operations.
 */
static bool moves_virtually(struct vseg_paging *pg,
			    struct ttm_buffer_object *bo)
{
	return vseg_paging_va_ready(pg) && vseg_is_vseg_bo(bo) &&
	       !(to_vseg_bo(bo)->params.flags & VSEG_BO_ACCESSED_PHYSICALLY) &&
	       !vseg_tbo_is_protected(bo);
}

/* The content's part of a move: Transfer, Fill or Discard. */
static int emit_content(struct vseg_device *vdev, struct ttm_buffer_object *bo,
			struct ttm_resource *old, struct ttm_resource *new_mem,
			bool has_content, bool discard)
{
	struct vseg_paging *pg = &vdev->pager;
	bool virt = moves_virtually(pg, bo), now;
	struct vseg_cursor src, dst;
	u32 flags = 0;
	int err = 0;

	if (res_uses_pages(old) && res_uses_pages(new_mem))
		return 0;	/* the pages stay: only the GART changes */
	vseg_cursor_init(&dst, vdev, bo->ttm, new_mem);
	vseg_cursor_init(&src, vdev, bo->ttm, old);
	if (discard && !res_uses_pages(old)) {
		err = emit_runs(pg, VSEG_PAGING_OP_DISCARD, 0, &src, NULL,
				bo->base.size, false);
		if (!err)
			vseg_count(vdev, old, VSEG_PAGING_DISCARDS);
	} else if (has_content) {
		err = emit_crypt(vdev, bo, old, new_mem, &dst, &src, &flags);
		if (!err && virt)
			err = vseg_paging_va_emit(pg, &dst, &src, bo->base.size,
						  false);
		else if (!err)
			err = emit_runs(pg, VSEG_PAGING_OP_TRANSFER, flags, &dst,
					&src, bo->base.size, false);
		if (!err) {
			vseg_count(vdev, old, VSEG_PAGING_TRANSFERS);
			vseg_count(vdev, new_mem, VSEG_PAGING_TRANSFERS);
		}
	} else if (!res_uses_pages(new_mem)) {
		/*
		 * New segment memory that no page backs reads zero already:
		 * its Fill has nothing to wait for or write, and runs now.
		 */
		now = !vseg_vram_res_backed(new_mem);
		if (virt)
			err = vseg_paging_va_emit(pg, &dst, NULL,
						  bo->base.size, now);
		else
			err = emit_runs(pg, VSEG_PAGING_OP_FILL, 0, &dst, NULL,
					bo->base.size, now);
		if (!err)
			vseg_count(vdev, new_mem, VSEG_PAGING_FILLS);
	}
	return err;
}

/*
 * Back what the move's operations will write (the engine cannot
 * allocate): the pages of a buffer going to system memory or the aperture,
 * the segment pages of one going to a memory segment with its content.
 */
static int move_prepare(struct vseg_device *vdev, struct ttm_buffer_object *bo,
			struct ttm_operation_ctx *ctx,
			struct ttm_resource *old, struct ttm_resource *new_mem,
			bool discard, bool *has_content, bool *overwritten)
{
	/* Pages only, to system memory: they come at first touch, if ever. */
	bool lazy = res_uses_pages(old) && new_mem->mem_type == TTM_PL_SYSTEM;
	/* Content leaving a segment is dropped, else transferred whole. */
	bool drop = discard && !res_uses_pages(old);
	int err;

	*overwritten = false;
	if (bo->ttm && ((res_uses_pages(new_mem) && !lazy) ||
			(bo->ttm->page_flags & TTM_TT_FLAG_SWAPPED))) {
		bool ow = !res_uses_pages(old) && !drop &&
			  !ttm_tt_is_populated(bo->ttm) &&
			  !(bo->ttm->page_flags & TTM_TT_FLAG_SWAPPED);

		err = tt_populate(bo, ctx, ow);
		if (err)
			return err;
		*overwritten = ow;
	}
	*has_content = !res_uses_pages(old) ||
		       (bo->ttm && ttm_tt_is_populated(bo->ttm));
	if (*has_content && !res_uses_pages(new_mem))
		return vseg_vram_res_populate(new_mem,
					      drop ? 0 : bo->base.size);
	return 0;
}

/*
 * Every operation of a move; the old range's UNMAP goes last, so that a
 * move that fails half-way leaves the buffer whole where it was.
 */
static int move_emit(struct vseg_device *vdev, struct ttm_buffer_object *bo,
		     struct ttm_resource *old, struct ttm_resource *new_mem,
		     bool has_content, bool discard)
{
	int err;

	err = emit_content(vdev, bo, old, new_mem, has_content, discard);
	if (!err)
		err = emit_map(vdev, bo, new_mem);
	if (!err)
		err = emit_unmap(vdev, old);
	return err;
}

/* The segment of a placement TTM accounts in a manager, or NULL. */
static struct vseg_segment *res_seg(struct vseg_device *vdev,
				    const struct ttm_resource *res)
{
	u32 id = res ? vseg_mem_type_to_seg(vdev, res->mem_type) : 0;

	return id ? vseg_seg(vdev, id) : NULL;
}

/*
 * End a move when its operations have been queued: TTM hangs the old
 * placement on a ghost object that goes when the fence signals (an
 * eviction TTM makes to find room waits instead, so that the room is
 * free when it returns). The ghost's bytes are in flight until then.
 */
static void move_pipelined(struct vseg_device *vdev,
			   struct ttm_buffer_object *bo, struct dma_fence *fence,
			   bool evict, struct ttm_resource *new_mem)
{
	struct vseg_segment *from = evict ? NULL : res_seg(vdev, bo->resource);
	u64 size = vseg_res_size(bo->resource);

	/* Before the ghost exists: it may go at once. */
	if (from)
		atomic64_add(size, &from->in_flight);
	if (ttm_bo_move_accel_cleanup(bo, fence, evict, false, new_mem)) {
		/* No memory for the ghost: wait, and finish in place. */
		if (from)
			atomic64_sub(size, &from->in_flight);
		dma_fence_wait(fence, false);
		ttm_bo_move_sync_cleanup(bo, new_mem);
	}
}

/* The vseg_bo_move tracepoint of a move done (placed on @vbo's resource). */
static void trace_move(struct vseg_device *vdev, struct vseg_bo *vbo,
		       s32 from, bool evicted)
{
	u32 to = vseg_mem_type_to_seg(vdev, vbo->tbo.resource->mem_type);

	u32 why = vbo->move_reason;

	/* TTM's evictions: for room, or to empty a segment losing power. */
	if (evicted)
		why = READ_ONCE(vdev->pm.state) == VSEG_PM_NONE ?
		      VSEG_MOVE_EVICTION : VSEG_MOVE_POWER;
	trace_vseg_bo_move(vbo->id, from, to, vbo->tbo.base.size, why);
}

/*
 * A move through the paging engine: its operations are written into the
 * paging buffer, as jobs of the paging queue that run once every job and
 * move already using the buffer is done, and the move ends with the
 * paging fence, TTM keeping the old placement until it signals; neither
 * the move nor the ioctl that moved the buffer waits. Evictions TTM makes
 * to find room are the exception: TTM waits for their fence before it
 * reuses the room (a memory segment's backing pages go with its
 * placement, so the room cannot be handed on before the copy has read it).
 */
static int vseg_ttm_move(struct ttm_buffer_object *bo, bool evict,
			 struct ttm_operation_ctx *ctx,
			 struct ttm_resource *new_mem,
			 struct ttm_place *hop)
{
	struct vseg_device *vdev = bdev_to_vseg(bo->bdev);
	struct vseg_paging *pg = &vdev->pager;
	struct ttm_resource *old = bo->resource;
	s32 from = old ? vseg_mem_type_to_seg(vdev, old->mem_type) : -1;
	bool has_content, discard, offer_discard, overwritten;
	struct vseg_pt_move pt = {};
	struct dma_fence *fence;
	int err;

	/* TTM removed its user mappings: its window slots go too. */
	if (vseg_is_vseg_bo(bo))
		vseg_host_aperture_drop(to_vseg_bo(bo));
	/* A page-table page leaves its tree before its GART entry goes. */
	if (vseg_pt_is_page(bo))
		vseg_pt_evicting(bo, new_mem);
	discard = vseg_is_vseg_bo(bo) && to_vseg_bo(bo)->discard;
	/*
	 * An offered buffer evicted from a memory segment is discarded, not
	 * copied: the paging engine's DISCARD, with the teardown of its GART
	 * and page-table entries as any move (not TTM's pipeline gutting).
	 */
	offer_discard = evict && !discard && vseg_is_vseg_bo(bo) &&
			to_vseg_bo(bo)->offered && !res_uses_pages(old);
	discard |= offer_discard;
	err = move_prepare(vdev, bo, ctx, old, new_mem, discard, &has_content,
			   &overwritten);
	/* The page-table entries of the buffer's mappings follow it. */
	if (!err && vseg_is_vseg_bo(bo))
		err = vseg_pt_move_prepare(&pt, vdev, &bo->base,
					   vseg_gem_gpuva_lock(&bo->base),
					   &to_vseg_bo(bo)->pt, new_mem,
					   bo->ttm);
	if (!err) {
		vseg_paging_begin(pg, bo->base.resv);
		if (vseg_is_vseg_bo(bo))
			vseg_paging_charge(pg, to_vseg_bo(bo)->stats);
		/* Entries invalid, TLB flushed, before the old pages can go. */
		err = vseg_pt_move_emit(&pt, pg, true);
		if (!err)
			err = move_emit(vdev, bo, old, new_mem, has_content,
					discard);
		if (!err)
			err = vseg_pt_move_emit(&pt, pg, false);
		/* Nothing to run: the old placement still waits for its users. */
		if (!err && old)
			err = vseg_paging_barrier(pg);
		if (err) {
			vseg_paging_abort(pg);
			vseg_pt_move_fail(&pt);
		}
	}
	vseg_pt_move_end(&pt);
	if (err) {
		/* The buffer stays; pages the Transfer did not write go. */
		if (overwritten)
			tt_scrub(bo->ttm);
		return err;
	}
	fence = vseg_paging_end(pg);
	if (fence && (!old || (old->mem_type == TTM_PL_SYSTEM &&
			       !has_content))) {
		/*
		 * A new buffer (or one without pages yet): no old placement
		 * to keep until the engine is done. A ghost would hold the
		 * buffer itself too, and its memory past its last handle.
		 */
		dma_resv_add_fence(bo->base.resv, fence, DMA_RESV_USAGE_KERNEL);
		ttm_bo_move_null(bo, new_mem);
	} else if (fence) {
		move_pipelined(vdev, bo, fence, evict, new_mem);
	} else if (!old) {
		/* Nothing to wait for or to free: not even a resource. */
		ttm_bo_move_null(bo, new_mem);
	} else {
		ttm_bo_move_sync_cleanup(bo, new_mem);
	}
	dma_fence_put(fence);
	/* Back in its segment: the decrypting TRANSFERs hold the nonce. */
	if (vseg_tbo_is_protected(bo) && !res_uses_pages(bo->resource))
		to_vseg_bo(bo)->crypt_nonce = 0;
	if (offer_discard)
		to_vseg_bo(bo)->offer_discarded = true;
	if (vseg_is_vseg_bo(bo)) {
		trace_move(vdev, to_vseg_bo(bo), from, evict && old);
		vseg_bo_update_state(to_vseg_bo(bo), bo->resource,
				     evict && old);
	}
	return 0;
}

static void vseg_ttm_delete_mem_notify(struct ttm_buffer_object *bo)
{
	struct vseg_device *vdev = bdev_to_vseg(bo->bdev);

	/* Called before the pages are freed: no GART entry may survive. */
	vseg_aperture_unbind(&vdev->aperture, bo->resource);
	if (!vseg_is_vseg_bo(bo)) {
		struct vseg_segment *seg = res_seg(vdev, bo->resource);

		/* TTM's ghost of a move: the old placement is done with. */
		if (seg && bo->type != ttm_bo_type_kernel)
			atomic64_sub(vseg_res_size(bo->resource),
				     &seg->in_flight);
		return;
	}
	vseg_host_aperture_drop(to_vseg_bo(bo));
	/* Unbound by now: no entry points at it. */
	to_vseg_bo(bo)->pt = (struct vseg_pt_bo){};
	/* The contents go away with the buffer: a discard. */
	if (bo->resource)
		vseg_count(vdev, bo->resource, VSEG_PAGING_DISCARDS);
	vseg_bo_update_state(to_vseg_bo(bo), NULL, false);
}

static int vseg_ttm_io_mem_reserve(struct ttm_device *bdev,
				   struct ttm_resource *mem)
{
	if (res_uses_pages(mem))
		return 0;
	/*
	 * Segment memory is system pages here, allocated as it is written:
	 * cached, reached page by page through io_mem_pfn, never linear. A
	 * placement in a segment's PCI BAR is the BAR's memory at its bus
	 * address, mapped write-combined.
	 */
	mem->bus.is_iomem = true;
	mem->bus.caching = vseg_vram_res_on_bar(mem) ? ttm_write_combined :
						       ttm_cached;
	mem->bus.offset = 0;
	mem->bus.addr = NULL;
	return 0;
}

static unsigned long vseg_ttm_io_mem_pfn(struct ttm_buffer_object *bo,
					 unsigned long page_offset)
{
	struct vseg_device *vdev = bdev_to_vseg(bo->bdev);

	/* The fault backed the pages it maps (vseg_gem.c). */
	return vseg_vram_pfn(res_vram(vdev, bo->resource),
			     vseg_cursor_vram_offset(vdev, bo->resource,
						     (u64)page_offset <<
						     PAGE_SHIFT));
}

/**
 * vseg_ttm_vmap() - a kernel mapping of a pinned buffer where it is
 * @bo: the buffer, reserved and pinned
 * @map: receives the mapping; undone by vseg_ttm_vunmap()
 *
 * System memory and the aperture: TTM's mapping of the buffer's pages. A
 * memory segment's pages are backed first and mapped page by page (they
 * are system pages, never linear: TTM's iomem mapping does not apply); a
 * placement wholly in a segment's BAR and contiguous there is its bus
 * range, mapped write-combined.
 *
 * Return: 0, -EOPNOTSUPP for a placement partly in a BAR or scattered in
 * it, -ENOMEM.
 */
int vseg_ttm_vmap(struct ttm_buffer_object *bo, struct iosys_map *map)
{
	struct vseg_device *vdev = bdev_to_vseg(bo->bdev);
	struct ttm_resource *res = bo->resource;
	unsigned long i, n = PFN_UP(bo->base.size);
	struct vseg_vram_mgr *mgr;
	unsigned long *pfns;
	struct page **pages;
	bool bar, linear;
	void *vaddr;
	int err;

	dma_resv_assert_held(bo->base.resv);
	if (res_uses_pages(res))
		return ttm_bo_vmap(bo, map);
	err = vseg_cursor_populate(vdev, res, 0, bo->base.size);
	if (err)
		return err;
	pfns = kvmalloc_array(n, sizeof(*pfns) + sizeof(*pages), GFP_KERNEL);
	if (!pfns)
		return -ENOMEM;
	pages = (struct page **)(pfns + n);
	mgr = res_vram(vdev, res);
	bar = vseg_vram_res_on_bar(res);
	linear = true;
	err = 0;
	for (i = 0; i < n && !err; i++) {
		pfns[i] = vseg_vram_pfn(mgr, vseg_cursor_vram_offset(vdev, res,
								     (u64)i << PAGE_SHIFT));
		if (!pfns[i])
			err = -ENOMEM;
		else if (!bar && !pfn_valid(pfns[i]))
			err = -EOPNOTSUPP;
		else if (!bar)
			pages[i] = pfn_to_page(pfns[i]);
		else if (i && pfns[i] != pfns[i - 1] + 1)
			linear = false;
	}
	if (!err && bar && !linear)
		err = -EOPNOTSUPP;
	if (!err && bar) {
		void __iomem *io = ioremap_wc(PFN_PHYS(pfns[0]),
					      (size_t)n << PAGE_SHIFT);

		if (io)
			iosys_map_set_vaddr_iomem(map, io);
		else
			err = -ENOMEM;
	} else if (!err) {
		vaddr = vmap(pages, n, VM_MAP, PAGE_KERNEL);
		if (vaddr)
			iosys_map_set_vaddr(map, vaddr);
		else
			err = -ENOMEM;
	}
	kvfree(pfns);
	return err;
}

/**
 * vseg_ttm_vunmap() - undo vseg_ttm_vmap()
 * @bo: the buffer, reserved and still pinned where it was mapped
 * @map: the mapping
 */
void vseg_ttm_vunmap(struct ttm_buffer_object *bo, struct iosys_map *map)
{
	dma_resv_assert_held(bo->base.resv);
	if (res_uses_pages(bo->resource))
		ttm_bo_vunmap(bo, map);
	else if (map->is_iomem)
		iounmap(map->vaddr_iomem);
	else
		vunmap(map->vaddr);
	iosys_map_clear(map);
}

/*
 * A debugger's (ptrace's) access to the bytes of a buffer, reserved,
 * wherever it is: its system pages or its segment's. It first waits for
 * the buffer's moves and jobs, as a CPU fault does: a move's destination
 * holds whatever its pages held before (the page pool hands a Transfer
 * pages it overwrites, vseg_page_pool.c) until the move's fence signals.
 */
static int access_locked(struct ttm_buffer_object *bo, unsigned long offset,
			 void *buf, int len, int write)
{
	struct ttm_operation_ctx ctx = { .interruptible = true };
	struct vseg_device *vdev = bdev_to_vseg(bo->bdev);
	struct vseg_cursor c;
	u64 done = 0, n;
	long wait;
	void *p;
	int err;

	dma_resv_assert_held(bo->base.resv);
	if (!bo->resource)
		return -ENODATA;
	/* A debugger does not read protected content either. */
	if (vseg_tbo_is_protected(bo))
		return -EPERM;
	/* The move filling the placement, and the jobs writing it, first. */
	wait = dma_resv_wait_timeout(bo->base.resv, DMA_RESV_USAGE_WRITE,
				     true, MAX_SCHEDULE_TIMEOUT);
	if (wait < 0)
		return wait;
	if (res_uses_pages(bo->resource)) {
		/* Only vseg's own pages: an imported buffer's are not. */
		if (!bo->ttm || (bo->ttm->page_flags & TTM_TT_FLAG_EXTERNAL))
			return -EIO;
		err = vseg_tt_populate(bo, &ctx);
		if (err)
			return err;
	}
	vseg_cursor_init(&c, vdev, bo->ttm, bo->resource);
	while (done < (u64)len) {
		p = vseg_cursor_map(&c, offset + done, &n, write);
		if (!p)
			return done ? done : -ENOMEM;
		n = min_t(u64, n, (u64)len - done);
		if (write)
			memcpy(p, buf + done, n);
		else
			memcpy(buf + done, p, n);
		vseg_cursor_unmap(&c);
		done += n;
	}
	return len;
}

/* TTM's access_memory, for its own callers: the buffer is reserved. */
static int vseg_ttm_access_memory(struct ttm_buffer_object *bo,
				  unsigned long offset, void *buf, int len,
				  int write)
{
	return access_locked(bo, offset, buf, len, write);
}

/**
 * vseg_ttm_access() - read or write a buffer's bytes for a debugger
 * @bo: the buffer, not reserved
 * @offset: byte offset in the buffer; @offset + @len is within it
 * @buf: the caller's bytes
 * @len: how many, at least 1
 * @write: write @buf into the buffer instead of reading
 *
 * &vm_operations_struct.access of vseg's mappings (ptrace, /proc/PID/mem),
 * for every placement: system memory, the aperture and memory segments.
 * It waits for the buffer's pending moves and jobs first, so that it never
 * shows a page a move has not filled yet (TTM's ttm_bo_vm_access() reads
 * system pages without waiting).
 *
 * Return: @len, the bytes done before a page could not be had, or a
 * negative error code: -EPERM for a protected buffer, -ENODEV after an
 * unplug, -EINTR/-ERESTARTSYS, -ENOMEM, -EIO for an imported buffer.
 */
int vseg_ttm_access(struct ttm_buffer_object *bo, unsigned long offset,
		    void *buf, int len, int write)
{
	int err, idx;

	if (!drm_dev_enter(bo->base.dev, &idx))
		return -ENODEV;
	err = ttm_bo_reserve(bo, true, false, NULL);
	if (!err) {
		err = access_locked(bo, offset, buf, len, write);
		ttm_bo_unreserve(bo);
	}
	drm_dev_exit(idx);
	return err;
}

/*
 * Memory pressure skips a protected buffer that may not leave its segment
 * (no EncryptedPagingSupported): it behaves as if it were pinned. A power
 * transition never evicts a protected buffer: it keeps it aside
 * (vseg_pm.c). Nor does it take a page table of a VA space a job queued
 * or running may walk (its fence is on the space's reservation): the
 * eviction leaves the tree at once, not when that job is done.
 *
 * Nor does memory pressure take a buffer whose process reserved the
 * bytes it holds in the segment's budget group (vseg_budget.c), unless it
 * is that process asking for room: TTM walks its LRU and asks this
 * callback, which is where its eviction can be told "not this one"; a
 * power transition empties the segments whatever was reserved.
 */
static bool vseg_ttm_eviction_valuable(struct ttm_buffer_object *bo,
				       const struct ttm_place *place)
{
	struct vseg_device *vdev = bdev_to_vseg(bo->bdev);

	if (vseg_pt_is_page(bo) &&
	    !dma_resv_test_signaled(bo->base.resv, DMA_RESV_USAGE_BOOKKEEP))
		return false;

	if (vseg_is_vseg_bo(bo) &&
	    (!vseg_vpr_evictable(vdev, vseg_bo_is_protected(to_vseg_bo(bo)),
				 bo->resource) ||
	     (vseg_bo_is_protected(to_vseg_bo(bo)) &&
	      READ_ONCE(vdev->pm.state) != VSEG_PM_NONE)))
		return false;
	/* Offered: its owner gave it up; no reservation protects it. */
	if (vseg_is_vseg_bo(bo) && bo->resource && !to_vseg_bo(bo)->offered &&
	    READ_ONCE(vdev->pm.state) == VSEG_PM_NONE &&
	    vseg_budget_protects(to_vseg_bo(bo)->owner,
				 vseg_mem_type_to_seg(vdev,
						      bo->resource->mem_type),
				 bo->base.size))
		return false;
	return ttm_bo_eviction_valuable(bo, place);
}

static VSEG_TTM_FUNCS_CONST struct ttm_device_funcs vseg_ttm_funcs = {
	.ttm_tt_create = vseg_ttm_tt_create,
	.ttm_tt_populate = vseg_ttm_tt_populate,
	.ttm_tt_unpopulate = vseg_ttm_tt_unpopulate,
	.ttm_tt_destroy = vseg_ttm_tt_destroy,
	.eviction_valuable = vseg_ttm_eviction_valuable,
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
	/* TTM_NUM_MEM_TYPES: 8 on 6.12, 9 on 7.3 */
	static const char * const names[] = {
		"SYSTEM", "TT", "VRAM", "PRIV0", "PRIV1", "PRIV2", "PRIV3",
		"PRIV4", "PRIV5",
	};

	return mem_type < ARRAY_SIZE(names) ? names[mem_type] : "?";
}

static void ttm_device_release(struct drm_device *drm, void *arg)
{
	struct vseg_device *vdev = arg;

	ttm_device_fini(&vdev->bdev);
	if (vdev->num_bos)
		drm_err(&vdev->drm, "leak: %llu buffers still alive\n",
			vdev->num_bos);
}

/*
 * Buffers released while a job still used them go before the managers:
 * registered after them, so it runs first at release.
 */
static void ttm_deferred_release(struct drm_device *drm, void *arg)
{
	vseg_ttm_flush_deferred(arg);
}

/**
 * vseg_ttm_init() - create the TTM device and one manager per segment
 * @vdev: the device, with a validated table
 *
 * Everything is torn down with the DRM device (drmm actions, in reverse).
 *
 * Return: 0 or a negative error code.
 */
int vseg_ttm_init(struct vseg_device *vdev)
{
	struct drm_device *drm = &vdev->drm;
	unsigned int i;
	int err;

	vseg_layout_init(&vdev->layout, &vdev->table);
	err = vseg_ttm_device_init(&vdev->bdev, &vseg_ttm_funcs, drm->dev,
				   drm->anon_inode->i_mapping,
				   drm->vma_offset_manager);
	if (err)
		return err;
	err = drmm_add_action_or_reset(drm, ttm_device_release, vdev);
	if (err)
		return err;

	for (i = 0; i < vdev->table.num_segments; i++) {
		const struct vseg_segment_desc *desc = &vdev->table.seg[i];

		vdev->seg[i].desc = desc;
		if (desc->kind == VSEG_SEGMENT_APERTURE)
			err = vseg_aperture_mgr_init(vdev, desc->id);
		else
			err = vseg_vram_mgr_init(vdev, desc->id,
						 vseg_tbo_is_protected);
		if (!err && desc->kind == VSEG_SEGMENT_MEMORY)
			err = vseg_host_aperture_init(vdev, desc->id);
		if (err)
			return err;
	}
	return drmm_add_action_or_reset(drm, ttm_deferred_release, &vdev->bdev);
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
	if (vseg_seg_is_memory(vdev, id)) {
		u->committed = vseg_vram_mgr_committed(&seg->vram);
	} else {
		u->committed = vseg_aperture_mgr_committed(&vdev->aperture);
		u->aperture_mapped =
			vseg_gart_mapped_bytes(&vdev->aperture.gart);
	}
	/* What buffers hold: not the old placements of moves going on. */
	u->committed -= min_t(u64, u->committed,
			      atomic64_read(&seg->in_flight));
}
