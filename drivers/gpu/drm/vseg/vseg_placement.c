// SPDX-License-Identifier: GPL-2.0-only
/*
 * Copyright (c) 2026 The vseg authors
 *
 * Placement policy: WDDM allocation properties turned into TTM places,
 * following the AccessedPhysically table of the segment model. Pure
 * functions of a segment table laid out on TTM memory types and of a
 * buffer's properties; no buffer, lock or device is involved.
 *
 *                  AccessedPhysically=0    AccessedPhysically=1   Primary
 *   memory seg.    set of pages            CONTIGUOUS             CONTIGUOUS
 *   aperture (TT)  no GART range           GART range (lpfn)      no range
 *   system         TTM_PL_SYSTEM, never mapped, no commit
 *
 * Preferred segments come first, in order, each bottom-up or top-down
 * (TTM_PL_FLAG_TOPDOWN); hinted banks of the first preferred segment become
 * fpfn/lpfn places before the whole segment; then the other supported
 * segments: memory segments in id order, the aperture, system memory.
 * CPU_VISIBLE keeps only places the CPU can reach, with lpfn clamped to the
 * CPU-visible part of a small-BAR segment. *
 * A protected buffer has one place per supported VprSupported segment: its
 * video protected region less the reserve at its start, contiguous; it
 * leaves such a segment only for system memory (encrypted paging).
 */

#include <kunit/visibility.h>
#include <linux/log2.h>
#include <linux/mm.h>
#include <linux/string.h>

#include "vseg_compat.h"
#include "vseg_placement.h"

/**
 * vseg_layout_init() - lay a segment table out on TTM memory types
 * @l: the layout
 * @t: a validated table, which must outlive @l
 */
void vseg_layout_init(struct vseg_layout *l, const struct vseg_segment_table *t)
{
	unsigned int i, next_mem = 0;

	memset(l, 0, sizeof(*l));
	l->table = t;
	l->mem_type[0] = TTM_PL_SYSTEM;
	for (i = 0; i < t->num_segments; i++) {
		const struct vseg_segment_desc *d = &t->seg[i];
		u32 mt;

		if (d->kind == VSEG_SEGMENT_APERTURE) {
			mt = TTM_PL_TT;
			l->aperture_id = d->id;
		} else {
			mt = next_mem ? TTM_PL_PRIV + next_mem - 1 : TTM_PL_VRAM;
			next_mem++;
		}
		l->mem_type[d->id] = mt;
		l->seg[mt] = d->id;
	}
}
EXPORT_SYMBOL_IF_KUNIT(vseg_layout_init);

static bool seg_is_memory(const struct vseg_layout *l, u32 id)
{
	return id && vseg_layout_desc(l, id)->kind == VSEG_SEGMENT_MEMORY;
}

/* Whether the CPU can reach some part of a segment (0 = system). */
static bool seg_cpu_visible(const struct vseg_layout *l, u32 id)
{
	return !seg_is_memory(l, id) ||
	       vseg_layout_desc(l, id)->cpu_visible_size;
}

/* Does segment @id have a video protected region (0 = system: no)? */
static bool seg_has_vpr(const struct vseg_layout *l, u32 id)
{
	return seg_is_memory(l, id) &&
	       (vseg_layout_desc(l, id)->flags & VSEG_SEGF_VPR_SUPPORTED);
}

/*
 * A protected buffer's place in segment @id: the video protected region
 * less its reserve, contiguous; nothing outside a VprSupported segment.
 */
static bool vpr_place(const struct vseg_layout *l,
		      const struct vseg_bo_params *p, u32 id,
		      struct ttm_place *pl)
{
	const struct vseg_segment_desc *d;
	u64 lo, hi;

	if (!seg_has_vpr(l, id))
		return false;
	d = vseg_layout_desc(l, id);
	lo = d->vpr_start + d->vpr_reserve_size;
	hi = d->vpr_start + d->vpr_size;
	if (lo >= hi || hi - lo < p->size)
		return false;
	pl->fpfn = lo >> PAGE_SHIFT;
	pl->lpfn = hi >> PAGE_SHIFT;
	pl->flags |= TTM_PL_FLAG_CONTIGUOUS;
	return true;
}

/*
 * Fill @pl for segment @id; fpfn/lpfn restrict a memory segment (banks).
 * Returns false if nothing of the segment is usable for this buffer.
 */
static bool seg_place(const struct vseg_layout *l,
		      const struct vseg_bo_params *p, u32 id, bool topdown,
		      u64 fpfn, u64 lpfn, bool cpu_only, struct ttm_place *pl)
{
	const struct vseg_segment_desc *d;

	memset(pl, 0, sizeof(*pl));
	pl->mem_type = l->mem_type[id];
	if (p->flags & VSEG_BO_PROTECTED)
		return !cpu_only && vpr_place(l, p, id, pl);
	if (!id)
		return true;
	d = vseg_layout_desc(l, id);
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

/* The hinted banks of the first preferred segment, as places. */
static unsigned int bank_places(const struct vseg_layout *l,
				const struct vseg_bo_params *p, bool cpu_only,
				struct ttm_place *places)
{
	const struct vseg_segment_desc *d = vseg_layout_desc(l, p->pref_seg[0]);
	unsigned int b, n = 0;

	for (b = 0; b < p->num_banks; b++) {
		u32 bank = p->banks[b];

		if (seg_place(l, p, d->id, p->pref_topdown[0],
			      bank_start(d, bank) >> PAGE_SHIFT,
			      d->bank_end[bank] >> PAGE_SHIFT, cpu_only,
			      &places[n]))
			n++;
	}
	return n;
}

/*
 * The segments to try, best first: the preferred ones in order (with their
 * direction), then the other supported ones: memory segments by id, the
 * aperture, system memory. Each appears once.
 */
static unsigned int candidates(const struct vseg_layout *l,
			       const struct vseg_bo_params *p, u32 *ids,
			       bool *topdown)
{
	u32 done = 0, id, order[VSEG_MAX_SEGMENTS + 1];
	unsigned int i, n = 0, n_order = 0;

	for (i = 0; i < p->num_preferred; i++) {
		id = p->pref_seg[i];
		if (done & BIT(id))
			continue;
		done |= BIT(id);
		ids[n] = id;
		topdown[n++] = p->pref_topdown[i];
	}
	for (id = 1; id <= l->table->num_segments; id++)
		if (seg_is_memory(l, id))
			order[n_order++] = id;
	order[n_order++] = l->aperture_id;
	order[n_order++] = 0;
	for (i = 0; i < n_order; i++) {
		id = order[i];
		if (!(p->supported & BIT(id)) || (done & BIT(id)))
			continue;
		done |= BIT(id);
		ids[n] = id;
		topdown[n++] = false;
	}
	return n;
}

/**
 * vseg_place_home() - the places to create a buffer in or make it resident
 * @l: the layout
 * @p: the buffer's properties (@p->size: its real size)
 * @how: VSEG_PLACE_CPU (only what the CPU reaches; implied by
 *	CPU_VISIBLE), VSEG_PLACE_RESIDENT (no system memory), or 0
 * @places: receives up to VSEG_BO_MAX_PLACES places, best first
 *
 * Return: the number of places.
 */
unsigned int vseg_place_home(const struct vseg_layout *l,
			     const struct vseg_bo_params *p, unsigned int how,
			     struct ttm_place *places)
{
	bool cpu_only = (how & VSEG_PLACE_CPU) ||
			(p->flags & VSEG_BO_CPU_VISIBLE);
	bool topdown[VSEG_MAX_SEGMENTS + 1];
	u32 ids[VSEG_MAX_SEGMENTS + 1];
	unsigned int i, k, n = 0;

	k = candidates(l, p, ids, topdown);
	for (i = 0; i < k; i++) {
		if (cpu_only && !seg_cpu_visible(l, ids[i]))
			continue;
		if ((how & VSEG_PLACE_RESIDENT) && !ids[i])
			continue;
		if (i == 0 && p->num_preferred && p->num_banks)
			n += bank_places(l, p, cpu_only, &places[n]);
		if (seg_place(l, p, ids[i], topdown[i], 0, 0, cpu_only,
			      &places[n]))
			n++;
	}
	return n;
}
EXPORT_SYMBOL_IF_KUNIT(vseg_place_home);

/**
 * vseg_place_evict() - where a buffer goes when evicted
 * @l: the layout
 * @p: the buffer's properties
 * @from_mem_type: the memory type it is evicted from
 * @places: receives up to two places
 *
 * From a memory segment: its eviction set (the aperture, with a GART range
 * if it is AccessedPhysically), then system memory. From the aperture:
 * system memory.
 *
 * Return: the number of places.
 */
unsigned int vseg_place_evict(const struct vseg_layout *l,
			      const struct vseg_bo_params *p, u32 from_mem_type,
			      struct ttm_place *places)
{
	unsigned int n = 0;

	if (p->flags & VSEG_BO_PROTECTED) {
		/* Encrypted, to system memory: no place of its own there. */
		memset(places, 0, sizeof(*places));
		places->mem_type = TTM_PL_SYSTEM;
		return 1;
	}
	if (from_mem_type != TTM_PL_TT && from_mem_type != TTM_PL_SYSTEM &&
	    p->eviction &&
	    seg_place(l, p, l->aperture_id, false, 0, 0, false, &places[n]))
		n++;
	seg_place(l, p, 0, false, 0, 0, false, &places[n++]);
	return n;
}
EXPORT_SYMBOL_IF_KUNIT(vseg_place_evict);

/**
 * vseg_place_physical() - the places an engine reaches physically
 * @l: the layout
 * @p: the buffer's properties
 * @map_aperture: also the aperture for a buffer without AccessedPhysically
 *	(a primary about to be displayed)
 * @places: receives them, best first
 *
 * The buffer's places, contiguous in memory segments and with a GART
 * range in the aperture; never system memory.
 *
 * Return: the number of places.
 */
unsigned int vseg_place_physical(const struct vseg_layout *l,
				 const struct vseg_bo_params *p,
				 bool map_aperture, struct ttm_place *places)
{
	struct ttm_place home[VSEG_BO_MAX_PLACES];
	unsigned int i, n = 0, k;

	k = vseg_place_home(l, p, 0, home);
	for (i = 0; i < k; i++) {
		struct ttm_place pl = home[i];

		if (pl.mem_type == TTM_PL_SYSTEM)
			continue;
		if (pl.mem_type == TTM_PL_TT) {
			if (!map_aperture && !pl.lpfn)
				continue;
			pl.lpfn = vseg_layout_desc(l, l->aperture_id)->size >>
				  PAGE_SHIFT;
		} else {
			pl.flags |= TTM_PL_FLAG_CONTIGUOUS;
		}
		places[n++] = pl;
	}
	return n;
}
EXPORT_SYMBOL_IF_KUNIT(vseg_place_physical);

/**
 * vseg_place_display_reach() - keep the places the display controller reaches
 * @l: the layout; @l->display_seg is the memory segment a display
 *	controller that scans out one BAR alone reaches (its first
 *	@l->display_reach bytes: the BAR), 0 for one that reaches every place
 *	an engine reaches physically
 * @p: the buffer's properties
 * @places: places an engine reaches physically (vseg_place_physical()),
 *	filtered in place
 * @n: how many
 *
 * A display restricted to one segment keeps only that segment's places,
 * contiguous and within its reach; none when the buffer cannot be there.
 *
 * Return: the number of places kept.
 */
unsigned int vseg_place_display_reach(const struct vseg_layout *l,
				      const struct vseg_bo_params *p,
				      struct ttm_place *places, unsigned int n)
{
	u64 lim = l->display_reach >> PAGE_SHIFT;
	unsigned int i, k = 0;

	if (!l->display_seg)
		return n;
	for (i = 0; i < n; i++) {
		struct ttm_place pl = places[i];

		if (l->seg[pl.mem_type] != l->display_seg)
			continue;
		pl.lpfn = pl.lpfn ? min(pl.lpfn, lim) : lim;
		if (pl.fpfn >= pl.lpfn ||
		    ((u64)(pl.lpfn - pl.fpfn) << PAGE_SHIFT) < p->size)
			continue;
		pl.flags |= TTM_PL_FLAG_CONTIGUOUS;
		places[k++] = pl;
	}
	return k;
}
EXPORT_SYMBOL_IF_KUNIT(vseg_place_display_reach);

/* The places the display controller reaches. */
static unsigned int display_places(const struct vseg_layout *l,
				   const struct vseg_bo_params *p,
				   struct ttm_place *places)
{
	unsigned int n = vseg_place_physical(l, p, true, places);

	return vseg_place_display_reach(l, p, places, n);
}

/**
 * vseg_place_display() - where a flip scans a primary out
 * @l: the layout
 * @p: the primary's properties
 * @places: receives them, best first
 * @direct: set if they are all in DirectFlip segments
 *
 * The places the display controller reaches (vseg_place_physical(), the
 * aperture included even without AccessedPhysically; for a display that
 * reaches one BAR alone, vseg_place_display_reach()), narrowed to the
 * segments whose descriptor has the DirectFlip flag if any of them has
 * it: a flip scans a primary out in place only from a DirectFlip segment,
 * and a primary elsewhere moves into one. A primary none of whose
 * supported segments has the flag (every primary, on a table without it)
 * is scanned out wherever the display reaches it.
 *
 * Return: the number of places, 0 if the display never reaches it.
 */
unsigned int vseg_place_display(const struct vseg_layout *l,
				const struct vseg_bo_params *p,
				struct ttm_place *places, bool *direct)
{
	unsigned int i, n, k = 0;

	n = display_places(l, p, places);
	for (i = 0; i < n; i++) {
		u32 id = l->seg[places[i].mem_type];

		if (vseg_layout_desc(l, id)->flags & VSEG_SEGF_DIRECT_FLIP)
			places[k++] = places[i];
	}
	*direct = k;
	if (k)
		return k;
	/* None was kept: take them all again. */
	return display_places(l, p, places);
}
EXPORT_SYMBOL_IF_KUNIT(vseg_place_display);

/**
 * vseg_place_filter() - keep the places in some segments
 * @l: the layout
 * @places: the places, filtered in place
 * @n: how many
 * @segments: segment set to keep (bit 0: system memory)
 *
 * Return: the number of places kept.
 */
unsigned int vseg_place_filter(const struct vseg_layout *l,
			       struct ttm_place *places, unsigned int n,
			       u32 segments)
{
	unsigned int i, k = 0;

	for (i = 0; i < n; i++)
		if (segments & BIT(l->seg[places[i].mem_type]))
			places[k++] = places[i];
	return k;
}
EXPORT_SYMBOL_IF_KUNIT(vseg_place_filter);

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
static u64 place_capacity(const struct vseg_layout *l,
			  const struct vseg_bo_params *p,
			  const struct ttm_place *pl)
{
	u32 id = l->seg[pl->mem_type];
	const struct vseg_segment_desc *d;
	u64 lo, hi, align;

	if (!id)
		return system_capacity();
	d = vseg_layout_desc(l, id);
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
 * vseg_place_client_sets() - take a client's segment sets
 * @l: the layout
 * @p: properties whose @supported and @pref_seg a client gave
 *
 * System memory is the implicit segment 0 of the memory manager, which a
 * client never names (WDDM's GPU segments: the kernel-mode driver places
 * an allocation in system memory through the aperture segment's id). A
 * client's supported set with bit 0, or a preferred segment 0, is
 * refused. The aperture's bit in the supported set names system memory:
 * it makes both the aperture (system pages committed to it) and plain
 * system memory (not committed, where a buffer goes when no segment has
 * room) places of the buffer, so bit 0 is added to @p->supported.
 *
 * Return: 0, or -EINVAL (@p unchanged) if the client named segment 0.
 */
int vseg_place_client_sets(const struct vseg_layout *l,
			   struct vseg_bo_params *p)
{
	unsigned int i;

	if (p->supported & BIT(0))
		return -EINVAL;
	for (i = 0; i < p->num_preferred && i < VSEG_BO_MAX_PREFERRED; i++)
		if (!p->pref_seg[i])
			return -EINVAL;
	if (p->supported & BIT(l->aperture_id))
		p->supported |= BIT(0);
	return 0;
}
EXPORT_SYMBOL_IF_KUNIT(vseg_place_client_sets);

/* Contradictions between the properties and the table. */
static int check_sets(const struct vseg_layout *l,
		      const struct vseg_bo_params *p)
{
	u32 all = GENMASK(l->table->num_segments, 0), id;
	const struct vseg_segment_desc *d;
	unsigned int i;

	if (!p->supported || (p->supported & ~all))
		return -EINVAL;
	if (p->eviction && (p->eviction != BIT(l->aperture_id) ||
			    !(p->supported & p->eviction)))
		return -EINVAL;
	for (i = 0; i < p->num_preferred; i++) {
		id = p->pref_seg[i];
		if (id > l->table->num_segments || !(p->supported & BIT(id)))
			return -EINVAL;
	}
	if (!p->num_banks)
		return 0;
	if (!p->num_preferred || !seg_is_memory(l, p->pref_seg[0]))
		return -EINVAL;
	d = vseg_layout_desc(l, p->pref_seg[0]);
	if (!(d->flags & VSEG_SEGF_USE_BANKING))
		return -EINVAL;
	for (i = 0; i < p->num_banks; i++)
		if (p->banks[i] >= d->num_banks)
			return -EINVAL;
	return 0;
}

/*
 * Physical access and scanout need a memory segment or the aperture, one
 * the CPU reaches if CPU_VISIBLE asks for it.
 */
static int check_physical(const struct vseg_layout *l,
			  const struct vseg_bo_params *p)
{
	bool cpu = p->flags & VSEG_BO_CPU_VISIBLE;
	u32 id;

	if (!(p->flags & (VSEG_BO_ACCESSED_PHYSICALLY | VSEG_BO_PRIMARY)))
		return 0;
	for (id = 1; id <= l->table->num_segments; id++)
		if ((p->supported & BIT(id)) && (!cpu || seg_cpu_visible(l, id)))
			return 0;
	return -EINVAL;
}

/*
 * A protected buffer: VprSupported segments only (system memory, the
 * aperture and other memory segments are no places for it: it reaches
 * system memory only by eviction, encrypted), nothing the CPU reaches, no
 * bank hints, no eviction set.
 */
static int check_protected(const struct vseg_layout *l,
			   const struct vseg_bo_params *p)
{
	u32 id;

	if (!(p->flags & VSEG_BO_PROTECTED))
		return 0;
	if ((p->flags & VSEG_BO_CPU_VISIBLE) || p->num_banks || p->eviction)
		return -EINVAL;
	if (p->supported & BIT(0))
		return -EINVAL;
	for (id = 1; id <= l->table->num_segments; id++)
		if ((p->supported & BIT(id)) && !seg_has_vpr(l, id))
			return -EINVAL;
	return 0;
}

/**
 * vseg_place_check() - check creation properties against the table
 * @l: the layout
 * @p: the properties
 * @real_size: receives the size rounded to the largest page size in use
 *
 * Every property is checked against the real size: a buffer that passes
 * has at least one place that could hold it, were nothing else placed.
 *
 * Return: 0, or -EINVAL for contradictions and for a buffer no supported
 * place could ever hold.
 */
int vseg_place_check(const struct vseg_layout *l,
		     const struct vseg_bo_params *p, u64 *real_size)
{
	struct ttm_place places[VSEG_BO_MAX_PLACES];
	struct vseg_bo_params q = *p;
	u64 page = PAGE_SIZE;
	unsigned int i, n;
	u32 id;
	int err;

	if (!p->size || !PAGE_ALIGNED(p->size) || p->size > VSEG_BO_MAX_SIZE)
		return -EINVAL;
	if (p->alignment && (!is_power_of_2(p->alignment) ||
			     p->alignment > VSEG_BO_MAX_ALIGNMENT))
		return -EINVAL;
	err = check_sets(l, p);
	if (!err)
		err = check_physical(l, p);
	if (!err)
		err = check_protected(l, p);
	if (err)
		return err;

	for (id = 1; id <= l->table->num_segments; id++)
		if ((p->supported & BIT(id)) && seg_is_memory(l, id))
			page = max_t(u64, page,
				     vseg_layout_desc(l, id)->page_size);
	q.size = round_up(p->size, page);

	/*
	 * Some place must be able to hold the real size, ever: a physical
	 * one for a buffer that engines or the display reach physically
	 * (system memory, which the aperture's id also names, is none).
	 */
	if (p->flags & (VSEG_BO_ACCESSED_PHYSICALLY | VSEG_BO_PRIMARY))
		n = vseg_place_physical(l, &q, true, places);
	else
		n = vseg_place_home(l, &q, 0, places);
	/* A primary: where the display reaches, too. */
	if (p->flags & VSEG_BO_PRIMARY)
		n = vseg_place_display_reach(l, &q, places, n);
	for (i = 0; i < n; i++)
		if (q.size <= place_capacity(l, &q, &places[i]))
			break;
	if (i == n)
		return -EINVAL;
	*real_size = q.size;
	return 0;
}
EXPORT_SYMBOL_IF_KUNIT(vseg_place_check);
