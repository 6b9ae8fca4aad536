// SPDX-License-Identifier: GPL-2.0-only
/*
 * Copyright (c) 2026 The vseg authors
 *
 * Buffers and their placement: WDDM allocation properties turned into TTM
 * places, following the AccessedPhysically table of the segment model.
 *
 *                  AccessedPhysically=0    AccessedPhysically=1   Primary
 *   memory seg.    set of pages            CONTIGUOUS             CONTIGUOUS
 *   aperture (TT)  no GART range           GART range (lpfn)      no range
 *   system         TTM_PL_SYSTEM, never mapped, no commit
 *
 * Preferred segments come first, in order, each bottom-up or top-down
 * (TTM_PL_FLAG_TOPDOWN); hinted banks of the first preferred segment become
 * fpfn/lpfn places before the whole segment; then the other supported
 * segments. CPU_VISIBLE keeps only places the CPU can reach, with lpfn
 * clamped to the CPU-visible part of a small-BAR segment.
 */

#include <linux/delay.h>
#include <linux/mm.h>
#include <linux/slab.h>
#include <drm/drm_drv.h>
#include <drm/drm_gem.h>
#include <drm/drm_prime.h>
#include <drm/ttm/ttm_tt.h>

#include "vseg_aperture_mgr.h"
#include "vseg_bo.h"
#include "vseg_compat.h"
#include "vseg_drv.h"
#include "vseg_file.h"
#include "vseg_vram_mgr.h"

static const struct vm_operations_struct vseg_vm_ops;

/*
 * ttm_bo_validate() reports "no placement has room" as -ENOMEM, for old
 * userspace; the UAPI says -ENOSPC for a full segment.
 */
static int space_err(int err)
{
	return err == -ENOMEM ? -ENOSPC : err;
}

/**
 * vseg_mem_type_to_seg() - segment id behind a TTM memory type
 * @vdev: the device
 * @mem_type: TTM_PL_*
 *
 * Return: the segment id, 0 for system memory.
 */
u32 vseg_mem_type_to_seg(struct vseg_device *vdev, u32 mem_type)
{
	return mem_type == TTM_PL_SYSTEM ? 0 : vdev->mem_type_to_id[mem_type];
}

static const struct vseg_segment_desc *seg_desc(struct vseg_device *vdev,
						u32 id)
{
	return &vdev->table.seg[id - 1];
}

static bool seg_is_memory(struct vseg_device *vdev, u32 id)
{
	return id && seg_desc(vdev, id)->kind == VSEG_SEGMENT_MEMORY;
}

/* Whether the CPU can reach some part of a segment (0 = system). */
static bool seg_cpu_visible(struct vseg_device *vdev, u32 id)
{
	return !seg_is_memory(vdev, id) || seg_desc(vdev, id)->cpu_visible_size;
}

/*
 * Fill @pl for segment @id; fpfn/lpfn restrict a memory segment (banks).
 * Returns false if nothing of the segment is usable for this buffer.
 */
static bool seg_place(struct vseg_device *vdev, const struct vseg_bo_params *p,
		      u32 id, bool topdown, u64 fpfn, u64 lpfn, bool cpu_only,
		      struct ttm_place *pl)
{
	const struct vseg_segment_desc *d;

	memset(pl, 0, sizeof(*pl));
	if (!id) {
		pl->mem_type = TTM_PL_SYSTEM;
		return true;
	}
	d = seg_desc(vdev, id);
	pl->mem_type = vseg_seg(vdev, id)->mem_type;
	if (topdown || (p->flags & VSEG_BO_FROM_END))
		pl->flags |= TTM_PL_FLAG_TOPDOWN;

	if (d->kind == VSEG_SEGMENT_APERTURE) {
		/* A GART range whenever resident, for physical access. */
		if (p->flags & VSEG_BO_ACCESSED_PHYSICALLY)
			pl->lpfn = d->size >> PAGE_SHIFT;
		return true;
	}

	if (p->flags & (VSEG_BO_ACCESSED_PHYSICALLY | VSEG_BO_PRIMARY))
		pl->flags |= TTM_PL_FLAG_CONTIGUOUS;
	if (cpu_only) {
		u64 vis = d->cpu_visible_size >> PAGE_SHIFT;

		if (!vis)
			return false;
		if (vis < d->size >> PAGE_SHIFT)
			lpfn = lpfn ? min(lpfn, vis) : vis;
	}
	if (lpfn && fpfn >= lpfn)
		return false;
	if (lpfn && ((lpfn - fpfn) << PAGE_SHIFT) < p->size)
		return false;
	pl->fpfn = fpfn;
	pl->lpfn = lpfn;
	return true;
}

static u64 bank_start(const struct vseg_segment_desc *d, u32 bank)
{
	return bank ? d->bank_end[bank - 1] : 0;
}

/* The places to try when creating the buffer or making it resident. */
static unsigned int home_places(struct vseg_device *vdev,
				const struct vseg_bo_params *p,
				bool cpu_only, bool resident_only,
				struct ttm_place *places)
{
	u32 done = 0, order[VSEG_MAX_SEGMENTS + 1], n_order = 0;
	unsigned int n = 0, i;
	u32 id;

	cpu_only |= p->flags & VSEG_BO_CPU_VISIBLE;

	for (i = 0; i < p->num_preferred; i++) {
		id = p->pref_seg[i];
		if (done & BIT(id))
			continue;
		done |= BIT(id);
		if (cpu_only && !seg_cpu_visible(vdev, id))
			continue;
		if (resident_only && !id)
			continue;
		if (i == 0 && p->num_banks) {
			const struct vseg_segment_desc *d = seg_desc(vdev, id);
			unsigned int b;

			for (b = 0; b < p->num_banks; b++) {
				u32 bank = p->banks[b];

				if (seg_place(vdev, p, id, p->pref_topdown[i],
					      bank_start(d, bank) >> PAGE_SHIFT,
					      d->bank_end[bank] >> PAGE_SHIFT,
					      cpu_only, &places[n]))
					n++;
			}
		}
		if (seg_place(vdev, p, id, p->pref_topdown[i], 0, 0, cpu_only,
			      &places[n]))
			n++;
	}

	/* The rest of the supported set: memory segments, aperture, system. */
	for (id = 1; id <= vdev->table.num_segments; id++)
		if (seg_is_memory(vdev, id))
			order[n_order++] = id;
	order[n_order++] = vdev->aperture_id;
	order[n_order++] = 0;
	for (i = 0; i < n_order; i++) {
		id = order[i];
		if (!(p->supported & BIT(id)) || (done & BIT(id)))
			continue;
		done |= BIT(id);
		if (cpu_only && !seg_cpu_visible(vdev, id))
			continue;
		if (resident_only && !id)
			continue;
		if (seg_place(vdev, p, id, false, 0, 0, cpu_only, &places[n]))
			n++;
	}
	return n;
}

/* Largest buffer TTM lets system memory hold (its page limit: half of RAM). */
static u64 system_capacity(void)
{
	return ((u64)totalram_pages() << PAGE_SHIFT) / 2;
}

/* An invalid range of a segment, widened to whole segment pages. */
static void invalid_span(const struct vseg_segment_desc *d, unsigned int i,
			 u64 *start, u64 *end)
{
	u64 page = d->kind == VSEG_SEGMENT_MEMORY ? d->page_size : PAGE_SIZE;

	*start = round_down(d->invalid[i].start, page);
	*end = round_up(d->invalid[i].start + d->invalid[i].size, page);
}

/*
 * Longest run of [lo, hi) clear of the segment's invalid ranges that starts
 * at a multiple of @align: the largest contiguous buffer that could ever
 * be placed there.
 */
static u64 largest_run(const struct vseg_segment_desc *d, u64 lo, u64 hi,
		       u64 align)
{
	u64 best = 0, s, e, is, ie;
	unsigned int c, i;

	for (c = 0; c <= d->num_invalid; c++) {
		if (c)
			invalid_span(d, c - 1, &is, &s);
		else
			s = lo;
		s = round_up(max(s, lo), align);
		e = hi;
		for (i = 0; i < d->num_invalid && s < e; i++) {
			invalid_span(d, i, &is, &ie);
			if (is <= s && ie > s)
				e = s;		/* starts inside an invalid range */
			else if (is > s && is < e)
				e = is;
		}
		if (s < e)
			best = max(best, e - s);
	}
	return best;
}

/* Bytes of [lo, hi) outside the segment's invalid ranges. */
static u64 free_bytes(const struct vseg_segment_desc *d, u64 lo, u64 hi)
{
	u64 total = hi - lo, is, ie;
	unsigned int i;

	for (i = 0; i < d->num_invalid; i++) {
		invalid_span(d, i, &is, &ie);
		is = clamp(is, lo, hi);
		ie = clamp(ie, lo, hi);
		total -= ie - is;
	}
	return total;
}

/* The largest buffer a place could ever hold, with nothing else placed. */
static u64 place_capacity(struct vseg_device *vdev,
			  const struct vseg_bo_params *p,
			  const struct ttm_place *pl)
{
	u32 id = vseg_mem_type_to_seg(vdev, pl->mem_type);
	const struct vseg_segment_desc *d;
	u64 lo, hi, align;

	if (!id)
		return system_capacity();
	d = seg_desc(vdev, id);
	if (d->kind == VSEG_SEGMENT_APERTURE) {
		if (!pl->lpfn)
			return d->commit_limit;
		return min(d->commit_limit,
			   largest_run(d, 0, d->size,
				       max_t(u64, p->alignment, PAGE_SIZE)));
	}
	lo = (u64)pl->fpfn << PAGE_SHIFT;
	hi = pl->lpfn ? (u64)pl->lpfn << PAGE_SHIFT : d->size;
	if (!(pl->flags & TTM_PL_FLAG_CONTIGUOUS))
		return free_bytes(d, lo, hi);
	align = max_t(u64, p->alignment, d->page_size);
	return largest_run(d, lo, hi, align);
}

/**
 * vseg_bo_check_params() - check creation properties against the table
 * @vdev: the device
 * @p: the properties
 * @real_size: receives the size rounded to the largest page size in use
 *
 * Every property is checked against the real size: a buffer that passes
 * has at least one place that could hold it, were nothing else placed.
 *
 * Return: 0, or -EINVAL for contradictions and for a buffer no supported
 * place could ever hold.
 */
int vseg_bo_check_params(struct vseg_device *vdev,
			 const struct vseg_bo_params *p, u64 *real_size)
{
	u32 all = GENMASK(vdev->table.num_segments, 0);
	struct ttm_place places[VSEG_BO_MAX_PLACES];
	struct vseg_bo_params q = *p;
	u64 page = PAGE_SIZE;
	unsigned int i, n;
	u32 id;

	if (!p->size || !PAGE_ALIGNED(p->size) || p->size > VSEG_BO_MAX_SIZE)
		return -EINVAL;
	if (p->alignment && (!is_power_of_2(p->alignment) ||
			     p->alignment > VSEG_BO_MAX_ALIGNMENT))
		return -EINVAL;
	if (!p->supported || (p->supported & ~all))
		return -EINVAL;
	if (p->eviction && (p->eviction != BIT(vdev->aperture_id) ||
			    !(p->supported & p->eviction)))
		return -EINVAL;
	for (i = 0; i < p->num_preferred; i++) {
		id = p->pref_seg[i];
		if (id > vdev->table.num_segments || !(p->supported & BIT(id)))
			return -EINVAL;
	}
	if (p->num_banks) {
		const struct vseg_segment_desc *d;

		if (!p->num_preferred || !seg_is_memory(vdev, p->pref_seg[0]))
			return -EINVAL;
		d = seg_desc(vdev, p->pref_seg[0]);
		if (!(d->flags & VSEG_SEGF_USE_BANKING))
			return -EINVAL;
		for (i = 0; i < p->num_banks; i++)
			if (p->banks[i] >= d->num_banks)
				return -EINVAL;
	}
	if (p->flags & (VSEG_BO_ACCESSED_PHYSICALLY | VSEG_BO_PRIMARY)) {
		/*
		 * Physical access and scanout need a memory segment or the
		 * aperture, one the CPU reaches if CPU_VISIBLE asks for it.
		 */
		bool cpu = p->flags & VSEG_BO_CPU_VISIBLE;
		bool ok = false;

		for (id = 1; id <= vdev->table.num_segments; id++)
			ok |= (p->supported & BIT(id)) &&
			      (!cpu || seg_cpu_visible(vdev, id));
		if (!ok)
			return -EINVAL;
	}

	for (id = 1; id <= vdev->table.num_segments; id++)
		if ((p->supported & BIT(id)) && seg_is_memory(vdev, id))
			page = max_t(u64, page, seg_desc(vdev, id)->page_size);
	q.size = round_up(p->size, page);

	/* Some place must be able to hold the real size, ever. */
	n = home_places(vdev, &q, false, false, places);
	for (i = 0; i < n; i++)
		if (q.size <= place_capacity(vdev, &q, &places[i]))
			break;
	if (i == n)
		return -EINVAL;
	*real_size = q.size;
	return 0;
}

static void vseg_bo_destroy(struct ttm_buffer_object *tbo)
{
	struct vseg_bo *vbo = to_vseg_bo(tbo);
	struct vseg_device *vdev = bdev_to_vseg(tbo->bdev);

	mutex_lock(&vdev->bo_lock);
	if (!list_empty(&vbo->link)) {
		list_del(&vbo->link);
		vdev->num_bos--;
	}
	mutex_unlock(&vdev->bo_lock);
	drm_gem_object_release(&tbo->base);
	kfree(vbo);
}

/**
 * vseg_is_vseg_bo() - is a TTM BO one of vseg's buffers
 * @tbo: the BO
 *
 * Return: false for TTM's ghost objects.
 */
bool vseg_is_vseg_bo(struct ttm_buffer_object *tbo)
{
	return tbo->destroy == vseg_bo_destroy;
}

/* Pins hold references (the display's and each file's): none is left. */
static void vseg_gem_free(struct drm_gem_object *gem)
{
	ttm_bo_put(drm_gem_ttm_of_gem(gem));
}

/*
 * Other devices cannot import vseg buffers yet: refuse the attachment
 * (the same way on every kernel) rather than hand out pages.
 */
static int vseg_gem_pin(struct drm_gem_object *gem)
{
	return -EOPNOTSUPP;
}

static struct sg_table *vseg_gem_get_sg_table(struct drm_gem_object *gem)
{
	return ERR_PTR(-EOPNOTSUPP);
}

static int vseg_gem_mmap(struct drm_gem_object *gem, struct vm_area_struct *vma)
{
	struct ttm_buffer_object *tbo = drm_gem_ttm_of_gem(gem);
	int err;

	vma->vm_ops = &vseg_vm_ops;
	err = ttm_bo_mmap_obj(vma, tbo);
	if (err)
		return err;
	/* TTM holds its own reference through vm_private_data. */
	drm_gem_object_put(gem);
	return 0;
}

static const struct drm_gem_object_funcs vseg_gem_funcs = {
	.free = vseg_gem_free,
	.close = vseg_file_gem_close,
	.pin = vseg_gem_pin,
	.get_sg_table = vseg_gem_get_sg_table,
	.mmap = vseg_gem_mmap,
	.print_info = drm_gem_ttm_print_info,
};

/*
 * Validate with eviction. Buffers other threads hold reserved cannot be
 * evicted this instant, so a failure under contention is retried a few
 * times before it counts as a full segment. A buffer locked in a ww
 * transaction is not retried here: its caller must back off first.
 */
static int validate_evicting(struct ttm_buffer_object *tbo,
			     struct ttm_placement *placement,
			     struct ttm_operation_ctx *ctx)
{
	bool ticket = dma_resv_locking_ctx(tbo->base.resv);
	unsigned int tries = 0;
	int err;

	for (;;) {
		err = space_err(ttm_bo_validate(tbo, placement, ctx));
		if ((err != -ENOSPC && err != -EBUSY) || ticket ||
		    ++tries > VSEG_EVICT_RETRIES)
			return err == -EBUSY ? -ENOSPC : err;
		usleep_range(200, 500);
	}
}

/**
 * vseg_bo_create() - create and place a buffer
 * @vdev: the device
 * @p: checked properties (vseg_bo_check_params()), size already real
 * @out: receives the buffer, holding one GEM reference
 *
 * The places before the first system-memory place are tried in order
 * without evicting anything; then system memory, if the buffer supports
 * it; otherwise every place again, evicting least-recently-used buffers.
 *
 * Return: 0, -ENOSPC when no supported segment has room even after
 * eviction, -ENOMEM, or another negative error code.
 */
int vseg_bo_create(struct vseg_device *vdev, const struct vseg_bo_params *p,
		   struct vseg_bo **out)
{
	struct ttm_operation_ctx ctx = { .interruptible = true };
	struct ttm_place sys = { .mem_type = TTM_PL_SYSTEM };
	struct ttm_place places[VSEG_BO_MAX_PLACES];
	struct ttm_placement placement = {};
	struct vseg_bo *vbo;
	unsigned int first;
	bool direct = true;
	int err;

again:
	vbo = kzalloc(sizeof(*vbo), GFP_KERNEL);
	if (!vbo)
		return -ENOMEM;
	vbo->params = *p;
	vbo->accounted_seg = VSEG_BO_NOWHERE;
	vbo->owner_pid = task_tgid_nr(current);
	get_task_comm(vbo->owner_comm, current);
	INIT_LIST_HEAD(&vbo->link);
	vbo->num_home = home_places(vdev, p, false, false, vbo->home_places);

	vbo->tbo.base.funcs = &vseg_gem_funcs;
	drm_gem_private_object_init(&vdev->drm, &vbo->tbo.base, p->size);

	mutex_lock(&vdev->bo_lock);
	vbo->id = ++vdev->next_bo_id;
	list_add_tail(&vbo->link, &vdev->bos);
	vdev->num_bos++;
	mutex_unlock(&vdev->bo_lock);

	memcpy(places, vbo->home_places, sizeof(places));
	for (first = 0; first < vbo->num_home; first++)
		if (places[first].mem_type == TTM_PL_SYSTEM)
			break;
	/*
	 * Straight into the places before system memory, without evicting,
	 * when one has room: one placement instead of two. Else born in
	 * system memory without pages, and placed below.
	 */
	direct = direct && first;
	if (direct)
		vseg_placement_set_no_evict(&placement, places, first);
	else
		vseg_placement_set(&placement, &sys, 1);
	/* On failure TTM calls vseg_bo_destroy() itself. */
	err = ttm_bo_init_reserved(&vdev->bdev, &vbo->tbo, ttm_bo_type_device,
				   &placement, p->alignment >> PAGE_SHIFT,
				   &ctx, NULL, NULL, vseg_bo_destroy);
	if (direct && space_err(err) == -ENOSPC) {
		direct = false;
		goto again;
	}
	if (err)
		return space_err(err);

	memcpy(places, vbo->home_places, sizeof(places));
	err = direct ? 0 : -ENOSPC;
	if (!direct && first) {
		vseg_placement_set_no_evict(&placement, places, first);
		err = space_err(ttm_bo_validate(&vbo->tbo, &placement, &ctx));
	}
	if (err == -ENOSPC && first < vbo->num_home)
		err = 0; /* System memory: where it already is. */
	if (err == -ENOSPC) {
		vseg_placement_set(&placement, vbo->home_places, vbo->num_home);
		err = validate_evicting(&vbo->tbo, &placement, &ctx);
	}
	/* A BO may start in system memory without a move (6.1). */
	if (!err && vbo->accounted_seg == VSEG_BO_NOWHERE)
		vseg_bo_update_state(vbo, vbo->tbo.resource, false);
	ttm_bo_unreserve(&vbo->tbo);
	if (err) {
		drm_gem_object_put(&vbo->tbo.base);
		return err;
	}
	/* Getting to its first place is not a move. */
	mutex_lock(&vdev->bo_lock);
	vbo->state.moves = 0;
	mutex_unlock(&vdev->bo_lock);
	*out = vbo;
	return 0;
}

/**
 * vseg_bo_evict_places() - where a buffer goes when evicted
 * @vbo: the buffer
 * @from_mem_type: the memory type it is evicted from
 * @places: receives up to two places
 *
 * From a memory segment: its eviction set (the aperture, with a GART range
 * if it is AccessedPhysically), then system memory. From the aperture:
 * system memory.
 *
 * Return: the number of places.
 */
unsigned int vseg_bo_evict_places(struct vseg_bo *vbo, u32 from_mem_type,
				  struct ttm_place *places)
{
	struct vseg_device *vdev = bdev_to_vseg(vbo->tbo.bdev);
	unsigned int n = 0;

	if (from_mem_type != TTM_PL_TT && from_mem_type != TTM_PL_SYSTEM &&
	    vbo->params.eviction &&
	    seg_place(vdev, &vbo->params, vdev->aperture_id, false, 0, 0,
		      false, &places[n]))
		n++;
	seg_place(vdev, &vbo->params, 0, false, 0, 0, false, &places[n++]);
	return n;
}

/**
 * vseg_bo_cpu_places() - CPU-visible places a buffer supports
 * @vbo: the buffer
 * @places: receives them, best first
 *
 * Return: the number of places; 0 if the CPU can never reach the buffer.
 */
unsigned int vseg_bo_cpu_places(struct vseg_bo *vbo, struct ttm_place *places)
{
	return home_places(bdev_to_vseg(vbo->tbo.bdev), &vbo->params, true,
			   false, places);
}

/**
 * vseg_bo_cpu_accessible() - can the CPU map the buffer where it is
 * @vbo: the buffer, reserved
 *
 * Return: true in system memory, the aperture, or wholly inside the
 * CPU-visible part of a memory segment.
 */
bool vseg_bo_cpu_accessible(struct vseg_bo *vbo)
{
	struct ttm_resource *res = vbo->tbo.resource;
	struct vseg_device *vdev = bdev_to_vseg(vbo->tbo.bdev);
	const struct vseg_segment_desc *d;
	struct vseg_vram_res *vres;
	struct drm_buddy_block *block;
	u32 id;

	if (!res)
		return false;
	id = vseg_mem_type_to_seg(vdev, res->mem_type);
	if (!seg_is_memory(vdev, id))
		return true;
	d = seg_desc(vdev, id);
	vres = to_vseg_vram_res(res);
	list_for_each_entry(block, &vres->blocks, link) {
		u64 end = drm_buddy_block_offset(block) +
			  drm_buddy_block_size(&vseg_seg(vdev, id)->vram->mm,
					       block);

		if (end > d->cpu_visible_size)
			return false;
	}
	return true;
}

static void fill_state(struct vseg_device *vdev, struct ttm_resource *res,
		       struct vseg_bo_state *st)
{
	u32 id;

	if (!res)
		return;
	id = vseg_mem_type_to_seg(vdev, res->mem_type);
	st->seg = id;
	if (seg_is_memory(vdev, id)) {
		st->offset = (u64)res->start << PAGE_SHIFT;
		st->contiguous = to_vseg_vram_res(res)->contiguous;
	} else if (res->mem_type == TTM_PL_TT &&
		   vseg_aperture_res_has_range(res)) {
		st->ap_mapped = true;
		st->contiguous = true;
		st->ap_start = (u64)res->start << PAGE_SHIFT;
		st->ap_size = to_vseg_aperture_res(res)->node.size << PAGE_SHIFT;
		st->offset = st->ap_start;
	}
}

/* Redo the snapshot after a change in place (a GART range came or went). */
static void refresh_state(struct vseg_bo *vbo)
{
	struct vseg_device *vdev = bdev_to_vseg(vbo->tbo.bdev);
	struct vseg_bo_state st = {};

	fill_state(vdev, vbo->tbo.resource, &st);
	mutex_lock(&vdev->bo_lock);
	st.moves = vbo->state.moves;
	vbo->state = st;
	mutex_unlock(&vdev->bo_lock);
}

/**
 * vseg_bo_update_state() - account a buffer's new placement
 * @vbo: the buffer, reserved
 * @res: its new resource, or NULL when its backing goes away
 * @evicted: the move is an eviction
 *
 * Keeps the per-segment resident and evicted counters and the placement
 * snapshot read by GEM_INFO and debugfs.
 */
void vseg_bo_update_state(struct vseg_bo *vbo, struct ttm_resource *res,
			  bool evicted)
{
	struct vseg_device *vdev = bdev_to_vseg(vbo->tbo.bdev);
	u64 size = vbo->tbo.base.size;
	u32 old = vbo->accounted_seg;
	u32 new = res ? vseg_mem_type_to_seg(vdev, res->mem_type) :
			VSEG_BO_NOWHERE;
	struct vseg_bo_state st = {};

	if (old != VSEG_BO_NOWHERE)
		atomic64_sub(size, old ? &vseg_seg(vdev, old)->resident :
					 &vdev->system_resident);
	if (vbo->evicted_from) {
		atomic64_sub(size, &vseg_seg(vdev, vbo->evicted_from)->evicted);
		vbo->evicted_from = 0;
	}
	if (evicted && old && old != VSEG_BO_NOWHERE && new != VSEG_BO_NOWHERE) {
		vbo->evicted_from = old;
		atomic64_add(size, &vseg_seg(vdev, old)->evicted);
	}
	if (new != VSEG_BO_NOWHERE)
		atomic64_add(size, new ? &vseg_seg(vdev, new)->resident :
					 &vdev->system_resident);
	vbo->accounted_seg = new;

	fill_state(vdev, res, &st);
	mutex_lock(&vdev->bo_lock);
	st.moves = vbo->state.moves;
	if (old != VSEG_BO_NOWHERE && res)
		st.moves++;
	vbo->state = st;
	mutex_unlock(&vdev->bo_lock);
}

/**
 * vseg_bo_get_state() - read a buffer's placement snapshot
 * @vbo: the buffer
 * @st: receives it
 */
void vseg_bo_get_state(struct vseg_bo *vbo, struct vseg_bo_state *st)
{
	struct vseg_device *vdev = bdev_to_vseg(vbo->tbo.bdev);

	mutex_lock(&vdev->bo_lock);
	*st = vbo->state;
	mutex_unlock(&vdev->bo_lock);
}

/* Does the BO's current resource satisfy @place? */
static bool res_fits_place(struct ttm_buffer_object *tbo,
			   const struct ttm_place *place)
{
	struct ttm_resource *res = tbo->resource;
	struct ttm_resource_manager *man;

	if (!res || res->mem_type != place->mem_type)
		return false;
	man = ttm_manager_type(tbo->bdev, res->mem_type);
	return !man->func->compatible ||
	       man->func->compatible(man, res, place, tbo->base.size);
}

/* Keep the places in segments of @mask (bit 0: system memory). */
static unsigned int places_in(struct vseg_device *vdev, struct ttm_place *places,
			      unsigned int n, u32 mask)
{
	unsigned int i, k = 0;

	for (i = 0; i < n; i++)
		if (mask & BIT(vseg_mem_type_to_seg(vdev, places[i].mem_type)))
			places[k++] = places[i];
	return k;
}

/**
 * vseg_bo_make_resident() - bring a buffer into a memory segment or the
 * aperture (D3DKMTMakeResident)
 * @vbo: the buffer
 * @pin: pin it there
 * @pin_segments: with @pin: the segments it may be pinned in (bit 0:
 *	system memory); places elsewhere are not tried
 * @pinned_seg: with @pin: receives the segment it was pinned in
 *
 * Tries the buffer's places best first, each evicting others as needed;
 * a resident buffer with no room in a better place stays where it is.
 *
 * Return: 0, -ENOSPC if no resident placement has room even after
 * eviction (or, to pin, none in @pin_segments, or the pin count is at its
 * limit), or another negative error code.
 */
int vseg_bo_make_resident(struct vseg_bo *vbo, bool pin, u32 pin_segments,
			  u32 *pinned_seg)
{
	struct vseg_device *vdev = bdev_to_vseg(vbo->tbo.bdev);
	struct ttm_operation_ctx ctx = { .interruptible = true };
	struct ttm_place places[VSEG_BO_MAX_PLACES];
	struct ttm_placement placement = {};
	unsigned int n, cur, i;
	u32 seg;
	int err;

	n = home_places(vdev, &vbo->params, false, true, places);
	if (!n) /* Supported in system memory only: that is its home. */
		n = home_places(vdev, &vbo->params, false, false, places);
	if (pin)
		n = places_in(vdev, places, n, pin_segments);
	if (!n)
		return -ENOSPC;

	err = ttm_bo_reserve(&vbo->tbo, true, false, NULL);
	if (err)
		return err;
	if (pin && vbo->tbo.pin_count >= VSEG_BO_MAX_PINS) {
		err = -ENOSPC;
		goto out;
	}
	/* Only places better than where it is now are worth a move. */
	for (cur = 0; cur < n; cur++)
		if (res_fits_place(&vbo->tbo, &places[cur]))
			break;
	err = cur ? -ENOSPC : 0;
	for (i = 0; i < cur && !vbo->tbo.pin_count; i++) {
		vseg_placement_set(&placement, &places[i], 1);
		err = space_err(ttm_bo_validate(&vbo->tbo, &placement, &ctx));
		if (err != -ENOSPC && err != -EBUSY)
			break;
	}
	/* Not resident at all: insist a little, others may hold the room. */
	if ((err == -ENOSPC || err == -EBUSY) && cur == n) {
		vseg_placement_set(&placement, places, n);
		err = validate_evicting(&vbo->tbo, &placement, &ctx);
	}
	if (err == -EBUSY)
		err = -ENOSPC;
	/* No room anywhere better: it stays resident where it was. */
	if (err == -ENOSPC && (cur < n || vbo->tbo.pin_count))
		err = 0;
	if (err || !pin)
		goto out;
	/* Pinned elsewhere already, where this pin may not go. */
	seg = vseg_mem_type_to_seg(vdev, vbo->tbo.resource->mem_type);
	if (!(pin_segments & BIT(seg))) {
		err = -ENOSPC;
		goto out;
	}
	ttm_bo_pin(&vbo->tbo);
	vbo->user_pins++;
	*pinned_seg = seg;
out:
	ttm_bo_unreserve(&vbo->tbo);
	return err;
}

/**
 * vseg_bo_evict() - move a buffer to system memory (D3DKMTEvict)
 * @vbo: the buffer
 * @unpin: drop one pin first; while the buffer keeps other user pins (to
 *	be dropped by later entries of the same EVICT) it is not moved yet
 * @unpinned: with @unpin: set when the pin was dropped (the move may still
 *	fail after that)
 *
 * Return: 0, -EBUSY if it stays pinned, -EINVAL to unpin a buffer that is
 * not pinned, or another negative error code.
 */
int vseg_bo_evict(struct vseg_bo *vbo, bool unpin, bool *unpinned)
{
	struct ttm_operation_ctx ctx = { .interruptible = true };
	struct ttm_placement placement = {};
	struct ttm_place sys = { .mem_type = TTM_PL_SYSTEM };
	int err;

	err = ttm_bo_reserve(&vbo->tbo, true, false, NULL);
	if (err)
		return err;
	if (unpin) {
		if (!vbo->user_pins) {
			err = -EINVAL;
			goto out;
		}
		vbo->user_pins--;
		ttm_bo_unpin(&vbo->tbo);
		*unpinned = true;
		/* More pins to drop (later entries of the same list). */
		if (vbo->tbo.pin_count && vbo->user_pins)
			goto out;
	}
	if (vbo->tbo.pin_count) {
		err = -EBUSY;
		goto out;
	}
	vseg_placement_set(&placement, &sys, 1);
	vbo->evicting = true;
	err = ttm_bo_validate(&vbo->tbo, &placement, &ctx);
	vbo->evicting = false;
out:
	ttm_bo_unreserve(&vbo->tbo);
	return err;
}

/**
 * vseg_bo_unpin() - drop pins taken by vseg_bo_make_resident()
 * @vbo: the buffer
 * @count: how many
 *
 * The buffer stays where it is. Uninterruptible: pins are always dropped.
 */
void vseg_bo_unpin(struct vseg_bo *vbo, unsigned int count)
{
	ttm_bo_reserve(&vbo->tbo, false, false, NULL);
	while (count-- && vbo->user_pins) {
		vbo->user_pins--;
		ttm_bo_unpin(&vbo->tbo);
	}
	ttm_bo_unreserve(&vbo->tbo);
}

/* The places from which an engine can reach the buffer physically. */
static unsigned int physical_places(struct vseg_bo *vbo, bool map_aperture,
				    struct ttm_place *places)
{
	struct vseg_device *vdev = bdev_to_vseg(vbo->tbo.bdev);
	unsigned int i, n = 0;

	for (i = 0; i < vbo->num_home; i++) {
		struct ttm_place pl = vbo->home_places[i];

		if (pl.mem_type == TTM_PL_SYSTEM)
			continue;
		if (pl.mem_type == TTM_PL_TT) {
			if (!map_aperture && !pl.lpfn)
				continue;
			pl.lpfn = seg_desc(vdev, vdev->aperture_id)->size >>
				  PAGE_SHIFT;
		} else {
			pl.flags |= TTM_PL_FLAG_CONTIGUOUS;
		}
		places[n++] = pl;
	}
	return n;
}

static int make_reachable(struct vseg_bo *vbo, bool map_aperture,
			  struct ttm_operation_ctx *ctx)
{
	struct vseg_device *vdev = bdev_to_vseg(vbo->tbo.bdev);
	struct ttm_place places[VSEG_BO_MAX_PLACES];
	struct ttm_placement placement = {};
	struct ttm_resource *res = vbo->tbo.resource;
	unsigned int n, i;
	int err;

	n = physical_places(vbo, map_aperture, places);
	if (!n)
		return -EINVAL;
	/* In the aperture without a range: take one in place, no move. */
	if (res && res->mem_type == TTM_PL_TT &&
	    !vseg_aperture_res_has_range(res)) {
		struct vseg_aperture_mgr *mgr =
			vseg_seg(vdev, vdev->aperture_id)->aperture;

		err = vseg_aperture_res_map(mgr, res, false);
		if (!err)
			err = vseg_gart_bind(&mgr->gart,
					     &to_vseg_aperture_res(res)->node,
					     vbo->tbo.ttm->pages,
					     vbo->tbo.ttm->num_pages);
		if (err) {
			vseg_aperture_res_unmap(mgr, res);
			return err;
		}
		refresh_state(vbo);
		return 0;
	}
	for (i = 0; i < n; i++)
		if (res_fits_place(&vbo->tbo, &places[i]))
			return 0;
	vseg_placement_set(&placement, places, n);
	return validate_evicting(&vbo->tbo, &placement, ctx);
}

/**
 * vseg_bo_make_physical() - make a buffer reachable by physical address
 * @vbo: an AccessedPhysically buffer, reserved
 * @ctx: TTM operation context
 *
 * Contiguous in a memory segment, or mapped into the aperture.
 *
 * Return: 0, -ENOSPC, or another negative error code.
 */
int vseg_bo_make_physical(struct vseg_bo *vbo, struct ttm_operation_ctx *ctx)
{
	return make_reachable(vbo, false, ctx);
}

/**
 * vseg_bo_phys_addr() - the physical reference of a reachable buffer
 * @vbo: the buffer, reserved, after vseg_bo_make_physical()
 * @seg: receives the segment id
 * @offset: receives the offset of the buffer's first byte
 *
 * Return: false if the buffer is not physically reachable where it is.
 */
bool vseg_bo_phys_addr(struct vseg_bo *vbo, u32 *seg, u64 *offset)
{
	struct vseg_device *vdev = bdev_to_vseg(vbo->tbo.bdev);
	struct ttm_resource *res = vbo->tbo.resource;
	u32 id;

	if (!res)
		return false;
	id = vseg_mem_type_to_seg(vdev, res->mem_type);
	if (seg_is_memory(vdev, id)) {
		if (!to_vseg_vram_res(res)->contiguous)
			return false;
	} else if (res->mem_type != TTM_PL_TT ||
		   !vseg_aperture_res_has_range(res)) {
		return false;
	}
	*seg = id;
	*offset = (u64)res->start << PAGE_SHIFT;
	return true;
}

/**
 * vseg_bo_display() - pin a primary where the display can scan it out
 * @vbo: a primary buffer, reserved
 *
 * Contiguous in a memory segment, or mapped into the aperture (only now:
 * a primary without AccessedPhysically is not mapped until displayed).
 *
 * Return: 0 or a negative error code.
 */
int vseg_bo_display(struct vseg_bo *vbo)
{
	struct ttm_operation_ctx ctx = { .interruptible = true };
	int err;

	dma_resv_assert_held(vbo->tbo.base.resv);
	err = make_reachable(vbo, true, &ctx);
	if (!err) {
		ttm_bo_pin(&vbo->tbo);
		vbo->displayed++;
	}
	return err;
}

/**
 * vseg_bo_undisplay() - unpin a primary taken off a display head
 * @vbo: the buffer, reserved
 *
 * A primary without AccessedPhysically also leaves the aperture once no
 * head shows it, whatever other pins it has: a pin keeps a buffer
 * resident, not mapped (the "mapped when displayed" cell of the
 * AccessedPhysically table).
 */
void vseg_bo_undisplay(struct vseg_bo *vbo)
{
	struct vseg_device *vdev = bdev_to_vseg(vbo->tbo.bdev);
	struct ttm_resource *res = vbo->tbo.resource;

	dma_resv_assert_held(vbo->tbo.base.resv);
	ttm_bo_unpin(&vbo->tbo);
	vbo->displayed--;
	if (vbo->displayed ||
	    (vbo->params.flags & VSEG_BO_ACCESSED_PHYSICALLY) ||
	    !res || res->mem_type != TTM_PL_TT)
		return;
	vseg_aperture_res_unmap(vseg_seg(vdev, vdev->aperture_id)->aperture,
				res);
	refresh_state(vbo);
}

/*
 * CPU faults: move the buffer where the CPU can see it, or SIGBUS; after an
 * unplug, a dummy page.
 */
static vm_fault_t vseg_vm_fault(struct vm_fault *vmf)
{
	struct vm_area_struct *vma = vmf->vma;
	struct ttm_buffer_object *tbo = vma->vm_private_data;
	struct vseg_bo *vbo = to_vseg_bo(tbo);
	struct ttm_operation_ctx ctx = { .interruptible = true };
	struct ttm_place places[VSEG_BO_MAX_PLACES];
	struct ttm_placement placement = {};
	vm_fault_t ret;
	unsigned int n;
	int idx, err;

	ret = ttm_bo_vm_reserve(tbo, vmf);
	if (ret)
		return ret;

	/*
	 * The device is gone (unbound): the mapping shows a zeroed dummy page
	 * from now on, as Documentation/gpu/drm-uapi.rst asks of hot-unplug.
	 */
	if (!drm_dev_enter(tbo->base.dev, &idx)) {
		ret = ttm_bo_vm_dummy_page(vmf, vma->vm_page_prot);
		goto out_unlock;
	}
	/* Jobs that use the buffer finish before the CPU sees it. */
	if (dma_resv_wait_timeout(tbo->base.resv, DMA_RESV_USAGE_WRITE, true,
				  MAX_SCHEDULE_TIMEOUT) < 0) {
		ret = VM_FAULT_NOPAGE;
		goto out_exit;
	}
	if (!vseg_bo_cpu_accessible(vbo)) {
		n = vseg_bo_cpu_places(vbo, places);
		if (!n || tbo->pin_count) {
			ret = VM_FAULT_SIGBUS;
			goto out_exit;
		}
		vseg_placement_set(&placement, places, n);
		err = ttm_bo_validate(tbo, &placement, &ctx);
		if (err) {
			/*
			 * The CPU-visible memory may be held by buffers other
			 * threads have reserved right now: drop our lock and
			 * let the access fault again, a bounded number of
			 * times before giving up.
			 */
			if (err == -ERESTARTSYS || err == -EINTR ||
			    atomic_inc_return(&vbo->fault_retries) <
			    VSEG_FAULT_RETRIES) {
				ret = VM_FAULT_NOPAGE;
				drm_dev_exit(idx);
				dma_resv_unlock(tbo->base.resv);
				usleep_range(100, 200);
				return ret;
			}
			ret = VM_FAULT_SIGBUS;
			goto out_reset;
		}
	}
	ret = ttm_bo_vm_fault_reserved(vmf, vma->vm_page_prot,
				       TTM_BO_VM_NUM_PREFAULT);
	/* CPU use counts as use: the buffer is the last one to evict. */
	if (!(ret & VM_FAULT_ERROR))
		ttm_bo_move_to_lru_tail_unlocked(tbo);
out_reset:
	atomic_set(&vbo->fault_retries, 0);
out_exit:
	drm_dev_exit(idx);
	if (ret == VM_FAULT_RETRY && !(vmf->flags & FAULT_FLAG_RETRY_NOWAIT))
		return ret;
out_unlock:
	dma_resv_unlock(tbo->base.resv);
	return ret;
}

static const struct vm_operations_struct vseg_vm_ops = {
	.fault = vseg_vm_fault,
	.open = ttm_bo_vm_open,
	.close = ttm_bo_vm_close,
	.access = ttm_bo_vm_access,
};
