// SPDX-License-Identifier: MIT
/*
 * vseg_placement: where GEM_CREATE puts a buffer, for every built-in
 * profile: every cell of the WDDM AccessedPhysically table, the preferred
 * order, the supported set, the direction, hinted banks and alignment,
 * cross-checked with debugfs.
 *
 * Copyright (c) 2026 The vseg authors
 */
/**
 * TEST: vseg placement
 * Category: Core
 * Mega feature: General Core features
 * Sub-category: Memory management
 * Functionality: placement
 * Description: Check where vseg places buffers: the AccessedPhysically table
 *	in memory segments, the aperture and system memory, preferred
 *	segments, supported sets, direction, banks and alignment, on every
 *	built-in profile.
 *
 * SUBTEST: accessed-physically
 * Description: Every cell of the AccessedPhysically table: sets of pages,
 *	contiguous buffers and primaries in memory segments; unmapped, mapped
 *	and primary buffers in the aperture; system memory. Dynamic subtests:
 *	one per built-in profile, named after it.
 *
 * SUBTEST: preferred-order
 * Description: Preferred segments are tried in order; a full one is skipped
 *	without evicting anything from it. Dynamic subtests: one per built-in
 *	profile, named after it.
 *
 * SUBTEST: preferred-system
 * Description: System memory, named by the aperture's id, as a preferred
 *	segment is honoured in its turn, before placements preferred after it
 *	or only supported.
 *	Dynamic subtests: one per built-in profile, named after it.
 *
 * SUBTEST: supported-set
 * Description: Without preferences a buffer lands in the first supported
 *	placement: memory segments by id, the aperture, system memory. Dynamic
 *	subtests: one per built-in profile, named after it.
 *
 * SUBTEST: direction
 * Description: Top-down preferences and FROM_END_OF_SEGMENT place contiguous
 *	buffers at the end of the segment. Dynamic subtests: one per built-in
 *	profile, named after it.
 *
 * SUBTEST: hinted-banks
 * Description: Hinted banks are honoured in order and fall back to the rest
 *	of the segment, then to other segments.
 *
 * SUBTEST: alignment
 * Description: The alignment of contiguous buffers is honoured. Dynamic
 *	subtests: one per built-in profile, named after it.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "igt.h"
#include "igt_vseg.h"

IGT_TEST_DESCRIPTION("Check where vseg places buffers: the "
		     "AccessedPhysically table in memory segments, the "
		     "aperture and system memory, preferred segments, "
		     "supported sets, direction, banks and alignment, on "
		     "every built-in profile.");

#define AP_FLAG		DRM_VSEG_GEM_CREATE_ACCESSED_PHYSICALLY
#define PRIMARY		DRM_VSEG_GEM_CREATE_PRIMARY
#define CPU_VISIBLE	DRM_VSEG_GEM_CREATE_CPU_VISIBLE
#define FROM_END	DRM_VSEG_GEM_CREATE_FROM_END_OF_SEGMENT
#define TOP_DOWN	DRM_VSEG_PREF_TOP_DOWN
#define NO_BANK		(~0u)

static struct vseg_ctx ctx = VSEG_CTX_INIT(VSEG_LEFTOVERS_BASE_COUNT);

/* Placement chunk used to fill and fragment a segment. */
static uint64_t chunk_of(uint32_t id)
{
	return vseg_ctx_is_memory(&ctx, id) &&
	       vseg_ctx_seg(&ctx, id)->page_size > SZ_64K ?
	       vseg_ctx_seg(&ctx, id)->page_size : SZ_64K;
}

static uint64_t room_of(uint32_t id)
{
	struct vseg_usage_snapshot u;
	uint64_t limit = vseg_ctx_is_memory(&ctx, id) ?
			 vseg_ctx_seg(&ctx, id)->size :
			 vseg_ctx_seg(&ctx, id)->commit_limit;

	vseg_usage_read(ctx.fd, &u);
	igt_assert(u.usage[id].committed <= limit);
	return limit - u.usage[id].committed;
}

static uint32_t create(uint64_t size, uint32_t supported, uint32_t flags,
		       struct drm_vseg_gem_info *info)
{
	uint32_t handle = vseg_gem_create_simple(ctx.fd, size, supported,
						 flags);

	if (info)
		vseg_gem_info(ctx.fd, handle, info);
	return handle;
}

/*
 * Fill the room left in segment @id with @chunk-sized buffers supported
 * there only (with @flags, in hinted bank @bank unless NO_BANK); none may
 * land elsewhere or move anything. Returns the number created in @handles.
 */
static unsigned int fill(uint32_t id, uint64_t chunk, uint64_t room,
			 uint32_t flags, uint32_t bank, uint32_t *handles)
{
	unsigned int n = room / chunk;

	for (unsigned int i = 0; i < n; i++) {
		struct drm_vseg_gem_create c;
		struct drm_vseg_gem_info info;

		vseg_create_args(&c, chunk, BIT(id), flags);
		if (bank != NO_BANK) {
			vseg_create_prefer(&c, id, 0);
			c.num_hinted_banks = 1;
			c.hinted_banks[0] = bank;
		}
		handles[i] = vseg_gem_create(ctx.fd, &c);
		vseg_gem_info(ctx.fd, handles[i], &info);
		igt_assert_f(info.segment_id == id && info.moves == 0,
			     "filler %u of segment %u landed in %u (moves %llu)\n",
			     i, id, info.segment_id,
			     (unsigned long long)info.moves);
	}
	return n;
}

/* Did none of @handles move? (They all still live in @id.) */
static bool unmoved(const uint32_t *handles, unsigned int n, uint32_t id)
{
	for (unsigned int i = 0; i < n; i++) {
		struct drm_vseg_gem_info info;

		if (!handles[i])
			continue;
		vseg_gem_info(ctx.fd, handles[i], &info);
		if (info.segment_id != id || info.moves)
			return false;
	}
	return true;
}

static void close_all(uint32_t *handles, unsigned int n)
{
	for (unsigned int i = 0; i < n; i++)
		if (handles[i])
			vseg_gem_close(ctx.fd, handles[i]);
}

static int cmp_offset(const void *a, const void *b)
{
	const uint64_t *x = a, *y = b;

	return x[0] < y[0] ? -1 : x[0] > y[0];
}

/*
 * Fill memory segment @id with contiguous chunks, then close every other
 * one by offset: the free space is then single chunks between buffers.
 * Returns the number of entries of @handles (closed ones are 0).
 */
static unsigned int fragment(uint32_t id, uint64_t chunk, uint32_t *handles)
{
	unsigned int n = fill(id, chunk, room_of(id), AP_FLAG, NO_BANK, handles);
	uint64_t (*by_offset)[2] = calloc(n, sizeof(*by_offset));

	igt_assert(by_offset);
	igt_assert_f(room_of(id) < chunk, "segment %u not full after filling\n",
		     id);
	for (unsigned int i = 0; i < n; i++) {
		struct drm_vseg_gem_info info;

		vseg_gem_info(ctx.fd, handles[i], &info);
		igt_assert(info.placement_flags & DRM_VSEG_INFO_CONTIGUOUS);
		by_offset[i][0] = info.offset;
		by_offset[i][1] = i;
	}
	qsort(by_offset, n, sizeof(*by_offset), cmp_offset);
	for (unsigned int i = 0; i < n; i += 2) {
		unsigned int h = by_offset[i][1];

		vseg_gem_close(ctx.fd, handles[h]);
		handles[h] = 0;
	}
	free(by_offset);
	return n;
}

/* The usage of segment @id grew by exactly @size (committed and resident). */
static void check_charged(const struct vseg_usage_snapshot *before,
			  uint32_t id, uint64_t size, uint64_t mapped)
{
	struct vseg_usage_snapshot want = *before;

	want.usage[id].committed += size;
	want.usage[id].resident += size;
	want.usage[ctx.ap_id].aperture_mapped += mapped;
	vseg_usage_assert(ctx.fd, &want, "segment usage after create");
}

/* --- the AccessedPhysically table ------------------------------------------ */

static void check_contiguous(const struct drm_vseg_gem_info *info,
			     uint32_t id, uint64_t size)
{
	const struct drm_vseg_segment_info *s = vseg_ctx_seg(&ctx, id);

	igt_assert_f(info->segment_id == id,
		     "a contiguous buffer of segment %u landed in %u\n", id,
		     info->segment_id);
	igt_assert_f(info->placement_flags & DRM_VSEG_INFO_CONTIGUOUS,
		     "a buffer with flags %#x in %s is not contiguous\n",
		     info->create_flags, s->name);
	igt_assert_f(!(info->offset % s->page_size) &&
		     info->offset + size <= s->size,
		     "contiguous buffer at %#llx+%#llx in %s\n",
		     (unsigned long long)info->offset,
		     (unsigned long long)size, s->name);
	igt_assert_f(!(info->placement_flags & DRM_VSEG_INFO_APERTURE_MAPPED),
		     "a buffer in a memory segment is aperture-mapped\n");
	igt_assert(info->placement_flags & DRM_VSEG_INFO_RESIDENT);
	igt_assert_eq_u64(info->resident_bytes, size);
}

static void ap_table_memory(uint32_t id)
{
	const uint64_t chunk = chunk_of(id), size = 4 * chunk;
	unsigned int max = vseg_ctx_seg(&ctx, id)->size / chunk + 1, n;
	uint32_t *fillers = calloc(max, sizeof(uint32_t));
	struct vseg_usage_snapshot before;
	struct drm_vseg_gem_info info;
	uint32_t h;

	igt_assert(fillers);
	igt_info("%s: fragmenting into %llu-byte holes\n",
		 vseg_ctx_seg(&ctx, id)->name,
		 (unsigned long long)chunk);

	/* AP=0: a set of pages, which fits in the holes as they are. */
	n = fragment(id, chunk, fillers);
	vseg_usage_read(ctx.fd, &before);
	h = create(size, BIT(id), 0, NULL);
	vseg_check_allocation(ctx.fd, h, &info);
	igt_assert_f(info.segment_id == id, "AP=0 in %s landed in segment %u\n",
		     vseg_ctx_seg(&ctx, id)->name, info.segment_id);
	igt_assert(info.placement_flags & DRM_VSEG_INFO_RESIDENT);
	igt_assert(!(info.placement_flags & DRM_VSEG_INFO_APERTURE_MAPPED));
	igt_assert_eq_u64(info.resident_bytes, size);
	igt_assert_f(info.offset < vseg_ctx_seg(&ctx, id)->size,
		     "first page at %#llx\n", (unsigned long long)info.offset);
	if (unmoved(fillers, n, id)) {
		/* Nothing moved: it can only be scattered over the holes. */
		igt_assert_f(!(info.placement_flags & DRM_VSEG_INFO_CONTIGUOUS),
			     "AP=0 buffer of 4 holes' size in %s claims to be contiguous though nothing moved\n",
			     vseg_ctx_seg(&ctx, id)->name);
		check_charged(&before, id, size, 0);
	} else {
		igt_info("%s: AP=0 creation evicted buffers\n",
			 vseg_ctx_seg(&ctx, id)->name);
	}
	vseg_gem_close(ctx.fd, h);

	/*
	 * AP=1, and primaries (on a freshly fragmented segment): contiguous,
	 * so something has to move out of the way.
	 */
	for (unsigned int k = 0; k < 2; k++) {
		const uint32_t flags = k ? PRIMARY : AP_FLAG;
		struct vseg_allocations a;

		if (k) {
			close_all(fillers, n);
			n = fragment(id, chunk, fillers);
		}
		igt_assert(unmoved(fillers, n, id));
		h = create(size, BIT(id), flags, NULL);
		vseg_check_allocation(ctx.fd, h, &info);
		check_contiguous(&info, id, size);
		igt_assert_f(!unmoved(fillers, n, id),
			     "a contiguous buffer (flags %#x) of 4 holes' size fit in %s without moving anything\n",
			     flags, vseg_ctx_seg(&ctx, id)->name);
		vseg_debugfs_read_allocations(ctx.fd, &a);
		vseg_check_no_overlap(&a, &ctx.q, ctx.segs);
		vseg_debugfs_free_allocations(&a);
		vseg_gem_close(ctx.fd, h);
	}
	close_all(fillers, n);

	/* On an empty segment as well. */
	for (unsigned int k = 0; k < 2; k++) {
		vseg_usage_read(ctx.fd, &before);
		h = create(size, BIT(id), k ? PRIMARY : AP_FLAG, NULL);
		vseg_check_allocation(ctx.fd, h, &info);
		check_contiguous(&info, id, size);
		check_charged(&before, id, size, 0);
		vseg_gem_close(ctx.fd, h);
	}
	free(fillers);
}

static void ap_table_aperture(void)
{
	const uint64_t size = 4 * SZ_64K;
	const struct drm_vseg_segment_info *ap = vseg_ctx_seg(&ctx, ctx.ap_id);
	struct vseg_usage_snapshot before;
	struct vseg_aperture_state st;
	struct drm_vseg_gem_info info;
	uint32_t h[3];

	/* AP=0: system pages committed to the aperture, not mapped. */
	vseg_usage_read(ctx.fd, &before);
	h[0] = create(size, BIT(ctx.ap_id), 0, NULL);
	vseg_check_allocation(ctx.fd, h[0], &info);
	igt_assert_eq_u32(info.segment_id, ctx.ap_id);
	igt_assert_f(!(info.placement_flags & DRM_VSEG_INFO_APERTURE_MAPPED),
		     "an AP=0 buffer in the aperture is mapped\n");
	igt_assert(info.placement_flags & DRM_VSEG_INFO_RESIDENT);
	igt_assert(info.placement_flags & DRM_VSEG_INFO_CPU_MAPPABLE);
	check_charged(&before, ctx.ap_id, size, 0);
	vseg_debugfs_read_aperture(ctx.fd, &st);
	igt_assert_f(!vseg_aperture_find(&st, info.buffer_id),
		     "an AP=0 buffer has a GART range\n");
	igt_assert_eq_u64(st.committed,
			  before.usage[ctx.ap_id].committed + size);
	vseg_debugfs_free_aperture(&st);

	/* AP=1: mapped, with a GART range of exactly its size. */
	vseg_usage_read(ctx.fd, &before);
	h[1] = create(size, BIT(ctx.ap_id), AP_FLAG, NULL);
	vseg_check_allocation(ctx.fd, h[1], &info);
	igt_assert_eq_u32(info.segment_id, ctx.ap_id);
	igt_assert_f(info.placement_flags & DRM_VSEG_INFO_APERTURE_MAPPED,
		     "an AP=1 buffer in the aperture is not mapped\n");
	igt_assert_f(!(info.aperture_offset & (SZ_4K - 1)) &&
		     info.aperture_offset + size <= ap->size,
		     "aperture range %#llx+%#llx\n",
		     (unsigned long long)info.aperture_offset,
		     (unsigned long long)size);
	check_charged(&before, ctx.ap_id, size, size);
	vseg_debugfs_read_aperture(ctx.fd, &st);
	{
		const struct vseg_aperture_range *r =
			vseg_aperture_find(&st, info.buffer_id);

		igt_assert_f(r, "no GART range for the AP=1 buffer\n");
		igt_assert_eq_u64(r->start, info.aperture_offset);
		igt_assert_eq_u64(r->size, size);
	}
	igt_assert_eq_u64(st.mapped,
			  before.usage[ctx.ap_id].aperture_mapped + size);
	vseg_debugfs_free_aperture(&st);

	/* A primary without AP: not mapped while it is not displayed. */
	vseg_usage_read(ctx.fd, &before);
	h[2] = create(size, BIT(ctx.ap_id), PRIMARY, NULL);
	vseg_check_allocation(ctx.fd, h[2], &info);
	igt_assert_eq_u32(info.segment_id, ctx.ap_id);
	igt_assert_f(!(info.placement_flags & DRM_VSEG_INFO_APERTURE_MAPPED),
		     "a primary that is not displayed is mapped\n");
	check_charged(&before, ctx.ap_id, size, 0);

	vseg_check_allocations(ctx.fd, h, 3);
	close_all(h, 3);
}

static void ap_table_system(void)
{
	const uint64_t size = 4 * SZ_64K;
	struct vseg_usage_snapshot before, want;
	struct drm_vseg_gem_info info;
	uint32_t h;

	/*
	 * System memory is named by the aperture's id; plain system memory
	 * (segment 0) is where such a buffer is evicted to.
	 */
	vseg_usage_read(ctx.fd, &before);
	h = create(size, BIT(ctx.ap_id), 0, NULL);
	vseg_evict(ctx.fd, &h, 1);
	vseg_check_allocation(ctx.fd, h, &info);
	igt_assert_eq_u32(info.segment_id, 0);
	igt_assert(!(info.placement_flags & DRM_VSEG_INFO_APERTURE_MAPPED));
	igt_assert(!(info.placement_flags & DRM_VSEG_INFO_RESIDENT));
	igt_assert_eq_u64(info.resident_bytes, 0);
	/*
	 * Its system pages are charged to segment 0; the aperture, which it
	 * was evicted from, counts it as evicted.
	 */
	want = before;
	want.usage[0].committed += size;
	want.usage[0].resident += size;
	want.usage[ctx.ap_id].evicted += size;
	vseg_usage_assert(ctx.fd, &want, "segment usage after the eviction");
	vseg_gem_close(ctx.fd, h);
}

static void test_ap_table(const char *profile)
{
	vseg_ctx_load(&ctx, profile);
	for (uint32_t id = 1; id <= ctx.q.num_segments; id++)
		if (vseg_ctx_is_memory(&ctx, id))
			ap_table_memory(id);
	ap_table_aperture();
	ap_table_system();
	vseg_ctx_finish(&ctx, "after closing every buffer");
}

/* --- preferred segments and supported sets --------------------------------- */

/*
 * A buffer of @size supported in @supported preferring the @n segments of
 * @prefs, in that order, lands in @want (checked against debugfs too);
 * then it is closed. @fmt... names the case.
 */
__attribute__((format(printf, 6, 7)))
static void prefer_lands(uint64_t size, uint32_t supported,
			 const uint32_t *prefs, unsigned int n, uint32_t want,
			 const char *fmt, ...)
{
	struct drm_vseg_gem_create c;
	struct drm_vseg_gem_info info;
	char what[128];
	va_list ap;
	uint32_t h;

	va_start(ap, fmt);
	vsnprintf(what, sizeof(what), fmt, ap);
	va_end(ap);
	vseg_create_args(&c, size, supported, 0);
	for (unsigned int i = 0; i < n; i++)
		vseg_create_prefer(&c, prefs[i], 0);
	h = vseg_gem_create(ctx.fd, &c);
	vseg_check_allocation(ctx.fd, h, &info);
	igt_assert_f(info.segment_id == want, "%s: landed in %s\n", what,
		     vseg_ctx_seg_name(&ctx, info.segment_id));
	vseg_gem_close(ctx.fd, h);
}

/*
 * The placements a client names: memory segments by id, then the
 * aperture, whose id also names system memory (segment 0 is not a
 * client's to name since driver 0.8).
 */
static unsigned int placements(uint32_t *ids)
{
	unsigned int n = 0;

	for (uint32_t id = 1; id <= ctx.q.num_segments; id++)
		if (vseg_ctx_is_memory(&ctx, id))
			ids[n++] = id;
	ids[n++] = ctx.ap_id;
	return n;
}

static void test_preferred(const char *profile)
{
	uint32_t ids[DRM_VSEG_MAX_SEGMENTS + 1], *fillers;
	struct drm_vseg_gem_create c;
	struct drm_vseg_gem_info info;
	unsigned int n, nf;
	uint32_t h;

	vseg_ctx_load(&ctx, profile);
	n = placements(ids);

	/*
	 * Two preferred segments with room: the first one wins. (System
	 * memory first: see test_preferred_system().)
	 */
	for (unsigned int i = 0; i < n; i++) {
		for (unsigned int j = 0; j < n; j++) {
			if (i == j || !ids[i])
				continue;
			prefer_lands(SZ_64K, BIT(ids[i]) | BIT(ids[j]),
				     (const uint32_t[]){ ids[i], ids[j] }, 2,
				     ids[i], "preferred %s then %s",
				     vseg_ctx_seg_name(&ctx, ids[i]),
				     vseg_ctx_seg_name(&ctx, ids[j]));
		}
	}

	/* Every resident placement preferred, in reverse table order. */
	vseg_create_args(&c, SZ_64K, vseg_all_segments(&ctx.q), 0);
	for (unsigned int i = n; i-- > 0 && c.num_preferred < DRM_VSEG_MAX_PREFERRED;)
		vseg_create_prefer(&c, ids[i], 0);
	h = vseg_gem_create(ctx.fd, &c);
	vseg_check_allocation(ctx.fd, h, &info);
	igt_assert_eq_u32(info.segment_id, ids[n - 1]);
	vseg_gem_close(ctx.fd, h);

	/*
	 * A full first preferred segment: the next preferred one with room
	 * gets the buffer, and nothing is evicted for it.
	 */
	for (unsigned int i = 0; i < n; i++) {
		uint32_t full = ids[i], next = ids[(i + 1) % n];
		uint64_t chunk;
		unsigned int max;

		chunk = chunk_of(full) > SZ_1M ? chunk_of(full) : SZ_1M;
		max = room_of(full) / chunk + 1;
		fillers = calloc(max, sizeof(uint32_t));
		igt_assert(fillers);
		nf = fill(full, chunk, room_of(full), 0, NO_BANK, fillers);
		igt_assert_f(room_of(full) < chunk, "%s not full\n",
			     vseg_ctx_seg_name(&ctx, full));

		prefer_lands(chunk, BIT(full) | BIT(next),
			     (const uint32_t[]){ full, next }, 2, next,
			     "%s full, %s next", vseg_ctx_seg_name(&ctx, full),
			     vseg_ctx_seg_name(&ctx, next));
		igt_assert_f(unmoved(fillers, nf, full),
			     "a buffer with room in its second preferred segment evicted buffers from the first\n");

		/* Three preferred, the full one first. */
		prefer_lands(chunk, BIT(full) | BIT(next) | BIT(ctx.ap_id),
			     (const uint32_t[]){ full, next, ctx.ap_id }, 3, next,
			     "%s full, then %s, then the aperture",
			     vseg_ctx_seg_name(&ctx, full),
			     vseg_ctx_seg_name(&ctx, next));
		igt_assert(unmoved(fillers, nf, full));

		close_all(fillers, nf);
		free(fillers);
	}
	vseg_ctx_finish(&ctx, "after closing every buffer");
}

/*
 * System memory, named by the aperture's id (segment 0 is no client's to
 * name), as a preferred segment is tried in its turn like any other:
 * before the segments preferred after it, and before the rest of the
 * supported set.
 */
static void test_preferred_system(const char *profile)
{
	uint32_t ids[DRM_VSEG_MAX_SEGMENTS + 1], *fillers;
	unsigned int n, nf;

	vseg_ctx_load(&ctx, profile);
	n = placements(ids);
	for (unsigned int i = 0; i < n; i++) {
		/* System memory (the aperture's id) first, then another. */
		prefer_lands(SZ_64K, BIT(ids[i]) | BIT(ctx.ap_id),
			     (const uint32_t[]){ ctx.ap_id, ids[i] }, 2,
			     ctx.ap_id, "preferred system then %s",
			     vseg_ctx_seg_name(&ctx, ids[i]));

		/* System memory alone preferred, everything supported. */
		prefer_lands(SZ_64K, vseg_all_segments(&ctx.q),
			     (const uint32_t[]){ ctx.ap_id }, 1, ctx.ap_id,
			     "only system preferred, all supported");
	}

	/*
	 * A full first preference, then system memory, then another one:
	 * the aperture, or the next one when the aperture is the full one.
	 */
	for (unsigned int i = 0; i < n; i++) {
		uint32_t full = ids[i], next = ids[(i + 1) % n];
		uint64_t chunk = chunk_of(full) > SZ_1M ? chunk_of(full) : SZ_1M;

		fillers = calloc(room_of(full) / chunk + 1, sizeof(uint32_t));
		igt_assert(fillers);
		nf = fill(full, chunk, room_of(full), 0, NO_BANK, fillers);
		prefer_lands(chunk, BIT(full) | BIT(next) | BIT(ctx.ap_id),
			     (const uint32_t[]){ full, ctx.ap_id, next }, 3,
			     full == ctx.ap_id ? next : ctx.ap_id,
			     "%s full, then system",
			     vseg_ctx_seg_name(&ctx, full));
		igt_assert(unmoved(fillers, nf, full));
		close_all(fillers, nf);
		free(fillers);
	}
	vseg_ctx_finish(&ctx, "after closing every buffer");
}

static void test_supported(const char *profile)
{
	uint32_t ids[DRM_VSEG_MAX_SEGMENTS + 1];
	unsigned int n;

	vseg_ctx_load(&ctx, profile);
	n = placements(ids);

	/* Without preferences: memory segments by id, aperture, system. */
	for (uint32_t sub = 1; sub < (1u << n); sub++) {
		uint32_t set = 0, want = ~0u, want_ap = ~0u;

		for (unsigned int i = 0; i < n; i++) {
			if (!(sub & (1u << i)))
				continue;
			set |= BIT(ids[i]);
			if (want == ~0u)
				want = ids[i];
			if (want_ap == ~0u && ids[i])
				want_ap = ids[i];
		}
		for (unsigned int k = 0; k < 2; k++) {
			const uint32_t flags = k ? AP_FLAG : 0;
			const uint32_t expect = k ? want_ap : want;
			struct drm_vseg_gem_info info;
			uint32_t h;

			if (expect == ~0u)
				continue;	/* AP in system memory only */
			h = create(SZ_64K, set, flags, &info);
			igt_assert_f(info.segment_id == expect,
				     "supported %#x, flags %#x: landed in %s, expected %s\n",
				     set, flags,
				     vseg_ctx_seg_name(&ctx, info.segment_id),
				     vseg_ctx_seg_name(&ctx, expect));
			igt_assert_f(!k || info.segment_id != ctx.ap_id ||
				     (info.placement_flags &
				      DRM_VSEG_INFO_APERTURE_MAPPED),
				     "AP buffer in the aperture is not mapped\n");
			vseg_gem_close(ctx.fd, h);
		}
	}

	/* CPU_VISIBLE skips memory segments the CPU cannot reach. */
	{
		uint32_t all = vseg_all_segments(&ctx.q), want = ctx.ap_id;
		struct drm_vseg_gem_info info;
		uint32_t h;

		for (unsigned int i = 0; i < n; i++)
			if (vseg_ctx_is_memory(&ctx, ids[i]) &&
			    vseg_ctx_seg(&ctx, ids[i])->cpu_visible_size) {
				want = ids[i];
				break;
			}
		h = create(SZ_64K, all, CPU_VISIBLE, &info);
		igt_assert_f(info.segment_id == want,
			     "CPU_VISIBLE in every segment: landed in %s, expected %s\n",
			     vseg_ctx_seg_name(&ctx, info.segment_id),
			     vseg_ctx_seg_name(&ctx, want));
		igt_assert(info.placement_flags & DRM_VSEG_INFO_CPU_MAPPABLE);
		vseg_gem_close(ctx.fd, h);
	}
	vseg_ctx_finish(&ctx, "after closing every buffer");
}

/* --- direction ---------------------------------------------------------------- */

static void test_direction(const char *profile)
{
	vseg_ctx_load(&ctx, profile);
	for (uint32_t id = 1; id <= ctx.q.num_segments; id++) {
		const struct drm_vseg_segment_info *s;
		struct drm_vseg_gem_info info[4];
		struct drm_vseg_gem_create c;
		uint64_t size;
		uint32_t h[4];

		if (!vseg_ctx_is_memory(&ctx, id))
			continue;
		s = vseg_ctx_seg(&ctx, id);
		size = s->size / 16;	/* a power of two */

		/* Bottom-up, top-down by preference, FROM_END (twice). */
		for (unsigned int k = 0; k < 4; k++) {
			vseg_create_args(&c, size, BIT(id),
					 AP_FLAG | (k >= 2 ? FROM_END : 0));
			if (k < 3)
				vseg_create_prefer(&c, id, k == 1 ? TOP_DOWN : 0);
			h[k] = vseg_gem_create(ctx.fd, &c);
			vseg_check_allocation(ctx.fd, h[k], &info[k]);
			check_contiguous(&info[k], id, size);
		}
		igt_info("%s: bottom-up %#llx, top-down %#llx, from end %#llx and %#llx\n",
			 s->name, (unsigned long long)info[0].offset,
			 (unsigned long long)info[1].offset,
			 (unsigned long long)info[2].offset,
			 (unsigned long long)info[3].offset);
		igt_assert_f(info[0].offset < s->size / 2,
			     "bottom-up in an empty %s at %#llx\n", s->name,
			     (unsigned long long)info[0].offset);
		igt_assert_f(info[1].offset + size == s->size,
			     "top-down in an empty %s at %#llx, not at the end\n",
			     s->name, (unsigned long long)info[1].offset);
		for (unsigned int k = 1; k < 4; k++)
			igt_assert_f(info[k].offset >= s->size / 2 &&
				     info[k].offset > info[0].offset,
				     "%s: top-down buffer %u at %#llx, bottom-up at %#llx\n",
				     s->name, k,
				     (unsigned long long)info[k].offset,
				     (unsigned long long)info[0].offset);
		vseg_check_allocations(ctx.fd, h, 4);
		close_all(h, 4);
	}
	vseg_ctx_finish(&ctx, "after closing every buffer");
}

/* --- hinted banks (discrete) ------------------------------------------------- */

static uint32_t create_banked(uint32_t id, uint64_t size, uint32_t flags,
			      uint32_t supported, const uint32_t *banks,
			      unsigned int nbanks, uint32_t pref_flags,
			      struct drm_vseg_gem_info *info)
{
	struct drm_vseg_gem_create c;
	uint32_t h;

	vseg_create_args(&c, size, supported, flags);
	vseg_create_prefer(&c, id, pref_flags);
	c.num_hinted_banks = nbanks;
	for (unsigned int i = 0; i < nbanks; i++)
		c.hinted_banks[i] = banks[i];
	h = vseg_gem_create(ctx.fd, &c);
	vseg_check_allocation(ctx.fd, h, info);
	igt_assert_f(info->segment_id == id || supported != BIT(id),
		     "banked buffer landed in %u\n", info->segment_id);
	return h;
}

static void test_hinted_banks(void)
{
	const uint32_t b0[] = { 0 }, b1[] = { 1 }, b10[] = { 1, 0 };
	uint32_t id, h, *fill1, *fill0;
	const struct drm_vseg_segment_info *s;
	struct drm_vseg_gem_info info;
	uint64_t split;
	unsigned int n1, n0;

	vseg_ctx_load(&ctx, "discrete");
	id = vseg_segment_by_name(&ctx.q, ctx.segs, "vram");
	s = vseg_ctx_seg(&ctx, id);
	igt_require(s->num_banks == 2);
	split = s->bank_end[0];

	for (unsigned int ap = 0; ap < 2; ap++) {
		const uint32_t flags = ap ? AP_FLAG : 0;

		h = create_banked(id, SZ_1M, flags, BIT(id), b1, 1, 0, &info);
		igt_assert_f(info.offset >= split && info.offset < s->size,
			     "hinted bank 1 (AP=%u): first page at %#llx\n", ap,
			     (unsigned long long)info.offset);
		vseg_gem_close(ctx.fd, h);
		h = create_banked(id, SZ_1M, flags, BIT(id), b1, 1, TOP_DOWN,
				  &info);
		igt_assert_f(info.offset >= split,
			     "hinted bank 1, top-down (AP=%u): %#llx\n", ap,
			     (unsigned long long)info.offset);
		vseg_gem_close(ctx.fd, h);
		h = create_banked(id, SZ_1M, flags, BIT(id), b0, 1, TOP_DOWN,
				  &info);
		igt_assert_f(info.offset < split,
			     "hinted bank 0, top-down (AP=%u): %#llx\n", ap,
			     (unsigned long long)info.offset);
		if (ap)
			igt_assert(info.offset + SZ_1M <= split);
		vseg_gem_close(ctx.fd, h);
		h = create_banked(id, SZ_1M, flags, BIT(id), b10, 2, 0, &info);
		igt_assert_f(info.offset >= split,
			     "hinted banks 1, 0 (AP=%u): %#llx\n", ap,
			     (unsigned long long)info.offset);
		vseg_gem_close(ctx.fd, h);
	}

	/* Fill bank 1: a buffer hinted there lands in bank 0 instead. */
	fill1 = calloc(s->size / SZ_1M, sizeof(uint32_t));
	fill0 = calloc(s->size / SZ_1M, sizeof(uint32_t));
	igt_assert(fill1 && fill0);
	n1 = (s->size - split) / SZ_1M;
	for (unsigned int i = 0; i < n1; i++) {
		fill1[i] = create_banked(id, SZ_1M, AP_FLAG, BIT(id), b1, 1, 0,
					 &info);
		igt_assert_f(info.offset >= split,
			     "filler %u of bank 1 at %#llx\n", i,
			     (unsigned long long)info.offset);
	}
	for (unsigned int ap = 0; ap < 2; ap++) {
		h = create_banked(id, SZ_1M, ap ? AP_FLAG : 0, BIT(id), b1, 1, 0,
				  &info);
		igt_assert_f(info.segment_id == id && info.offset < split,
			     "bank 1 full (AP=%u): landed in %u at %#llx\n", ap,
			     info.segment_id, (unsigned long long)info.offset);
		if (ap)
			igt_assert(info.offset + SZ_1M <= split);
		igt_assert_f(unmoved(fill1, n1, id),
			     "a buffer with room in bank 0 evicted bank 1\n");
		vseg_gem_close(ctx.fd, h);
	}

	/* Fill bank 0 as well: the next supported segment gets it. */
	n0 = split / SZ_1M;
	for (unsigned int i = 0; i < n0; i++) {
		fill0[i] = create_banked(id, SZ_1M, AP_FLAG, BIT(id), b0, 1, 0,
					 &info);
		igt_assert_f(info.offset + SZ_1M <= split,
			     "filler %u of bank 0 at %#llx\n", i,
			     (unsigned long long)info.offset);
	}
	h = create_banked(id, SZ_1M, AP_FLAG, BIT(id) | BIT(ctx.ap_id), b1, 1,
			  0, &info);
	igt_assert_f(info.segment_id == ctx.ap_id,
		     "vram full: a buffer hinted to bank 1 landed in %u\n",
		     info.segment_id);
	igt_assert(unmoved(fill1, n1, id) && unmoved(fill0, n0, id));
	vseg_gem_close(ctx.fd, h);

	close_all(fill1, n1);
	close_all(fill0, n0);
	free(fill1);
	free(fill0);
	vseg_ctx_finish(&ctx, "after closing every buffer");
}

/* --- alignment ---------------------------------------------------------------- */

static void test_alignment(const char *profile)
{
	vseg_ctx_load(&ctx, profile);
	for (uint32_t id = 1; id <= ctx.q.num_segments; id++) {
		const struct drm_vseg_segment_info *s;
		uint64_t page;
		uint32_t small;

		if (!vseg_ctx_is_memory(&ctx, id))
			continue;
		s = vseg_ctx_seg(&ctx, id);
		page = s->page_size;

		/*
		 * Alignments of the whole segment and of the 1 GiB limit:
		 * offset 0 of the empty segment qualifies.
		 */
		for (unsigned int k = 0; k < 2; k++) {
			struct drm_vseg_gem_create c;
			struct drm_vseg_gem_info info;
			uint32_t h;

			vseg_create_args(&c, page, BIT(id), AP_FLAG);
			c.alignment = k ? 1ull << 30 : s->size;
			h = vseg_gem_create(ctx.fd, &c);
			vseg_check_allocation(ctx.fd, h, &info);
			check_contiguous(&info, id, c.size);
			igt_assert_eq_u64(info.offset, 0);
			vseg_gem_close(ctx.fd, h);
		}

		/* One page at the bottom so that offset 0 is taken. */
		small = create(page, BIT(id), AP_FLAG, NULL);

		for (uint64_t align = SZ_4K; align <= s->size / 4; align *= 4) {
			for (unsigned int k = 0; k < 2; k++) {
				struct drm_vseg_gem_create c;
				struct drm_vseg_gem_info info;
				uint64_t want = align > page ? align : page;
				uint32_t h;

				vseg_create_args(&c, page, BIT(id),
						 k ? PRIMARY : AP_FLAG);
				c.alignment = align;
				h = vseg_gem_create(ctx.fd, &c);
				vseg_check_allocation(ctx.fd, h, &info);
				check_contiguous(&info, id, c.size);
				igt_assert_f(!(info.offset % want),
					     "%s: alignment %#llx, offset %#llx\n",
					     s->name, (unsigned long long)align,
					     (unsigned long long)info.offset);
				vseg_gem_close(ctx.fd, h);
			}
		}
		vseg_gem_close(ctx.fd, small);
	}
	vseg_ctx_finish(&ctx, "after closing every buffer");
}

igt_main
{
	igt_fixture
		vseg_ctx_setup(&ctx);

	igt_describe("Every cell of the AccessedPhysically table: sets of "
		     "pages, contiguous buffers and primaries in memory "
		     "segments; unmapped, mapped and primary buffers in the "
		     "aperture; system memory.");
	igt_subtest_with_dynamic("accessed-physically")
		vseg_dynamic_profiles(test_ap_table);

	igt_describe("Preferred segments are tried in order; a full one is "
		     "skipped without evicting anything from it.");
	igt_subtest_with_dynamic("preferred-order")
		vseg_dynamic_profiles(test_preferred);

	igt_describe("System memory, named by the aperture's id, as a "
		     "preferred segment is honoured in its turn, before "
		     "placements preferred after it or only supported.");
	igt_subtest_with_dynamic("preferred-system")
		vseg_dynamic_profiles(test_preferred_system);

	igt_describe("Without preferences a buffer lands in the first "
		     "supported placement: memory segments by id, the "
		     "aperture, system memory.");
	igt_subtest_with_dynamic("supported-set")
		vseg_dynamic_profiles(test_supported);

	igt_describe("Top-down preferences and FROM_END_OF_SEGMENT place "
		     "contiguous buffers at the end of the segment.");
	igt_subtest_with_dynamic("direction")
		vseg_dynamic_profiles(test_direction);

	igt_describe("Hinted banks are honoured in order and fall back to "
		     "the rest of the segment, then to other segments.");
	igt_subtest("hinted-banks")
		test_hinted_banks();

	igt_describe("The alignment of contiguous buffers is honoured.");
	igt_subtest_with_dynamic("alignment")
		vseg_dynamic_profiles(test_alignment);

	igt_fixture {
		vseg_ctx_unload(&ctx);
	}
}
