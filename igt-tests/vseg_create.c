// SPDX-License-Identifier: MIT
/*
 * vseg_create: DRM_IOCTL_VSEG_GEM_CREATE and GEM_INFO: a buffer in each
 * kind of segment, the real size, and the rejection of every bad argument
 * without any trace in the segment usage or in debugfs.
 *
 * Copyright (c) 2026 The vseg authors
 */
/**
 * TEST: vseg create
 * Category: Core
 * Mega feature: General Core features
 * Sub-category: Memory management
 * Functionality: buffer creation
 * Description: Create buffers in every kind of vseg segment, check where they
 *	land and what they cost, and check that bad creation arguments are
 *	refused without side effects.
 *
 * SUBTEST: create-each-segment
 * Description: A buffer supported in one segment lands there, is charged its
 *	size there only, is listed in debugfs, and closing it gives everything
 *	back. Dynamic subtests: one per segment of the discrete profile, named
 *	after it (system memory is the aperture's: segment-zero-refused).
 *
 * SUBTEST: segment-zero-refused
 * Description: Segment 0 (system memory) in the supported set or in the
 *	preferred list is refused with EINVAL, for root and for an
 *	unprivileged process on the render node, and nothing is created
 *	(usage and debugfs allocations unchanged); system memory is named by
 *	the aperture's id: such a buffer lands in the aperture, and in plain
 *	system memory (segment 0) when it is larger than the aperture's
 *	commit limit.
 *
 * SUBTEST: create-size-rounding
 * Description: The real size is rounded up to the largest page size of the
 *	supported memory segments.
 *
 * SUBTEST: invalid-size
 * Description: Zero, unaligned, too large and absurd sizes (larger than every
 *	supported place could ever hold: a segment, the aperture's commit
 *	limit, half of RAM) are refused with EINVAL without side effects; a
 *	buffer too large for one supported place lands in another.
 *
 * SUBTEST: create-alignment
 * Description: Alignments that are not a power of two or above 1 GiB are
 *	refused; the others are honoured.
 *
 * SUBTEST: invalid-flags
 * Description: Unknown create and preference flags are refused.
 *
 * SUBTEST: invalid-mbz
 * Description: Wild extension chains, nonzero reserved fields and unused
 *	list entries are refused.
 *
 * SUBTEST: invalid-segments
 * Description: Empty or unknown supported sets, unknown preferred segments
 *	and bad eviction sets are refused.
 *
 * SUBTEST: invalid-preferred
 * Description: A preferred segment outside the supported set is refused with
 *	EINVAL.
 *
 * SUBTEST: invalid-list-length
 * Description: More than 5 preferred segments or 4 hinted banks give E2BIG;
 *	the limits themselves are accepted.
 *
 * SUBTEST: invalid-banks
 * Description: Hinted banks on a segment without banking and bank indices out
 *	of range are refused.
 *
 * SUBTEST: invalid-placement-flags
 * Description: CPU_VISIBLE without a CPU-visible segment and
 *	AccessedPhysically in system memory only are refused; with an
 *	alternative they pick it.
 *
 * SUBTEST: invalid-handle
 * Description: GEM_INFO and MMAP_OFFSET on unknown handles give ENOENT; their
 *	must-be-zero fields are checked.
 *
 * SUBTEST: double-close
 * Description: A second GEM_CLOSE of a handle fails with EINVAL.
 *
 * SUBTEST: fd-close
 * Description: Buffers still open are released when the file is closed.
 *
 * SUBTEST: render-node
 * Description: The buffer ioctls work on the render node.
 *
 * SUBTEST: create-many
 * Description: A thousand buffers: distinct handles and ids, all in debugfs,
 *	all gone after closing.
 *
 * SUBTEST: other-file
 * Description: A handle is not valid on another file.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "igt.h"
#include "igt_vseg.h"

IGT_TEST_DESCRIPTION("Create buffers in every kind of vseg segment, check "
		     "where they land and what they cost, and check that bad "
		     "creation arguments are refused without side effects.");

#define AP_FLAG		DRM_VSEG_GEM_CREATE_ACCESSED_PHYSICALLY
#define CPU_VISIBLE	DRM_VSEG_GEM_CREATE_CPU_VISIBLE
#define PRIMARY		DRM_VSEG_GEM_CREATE_PRIMARY

/*
 * Every subtest works on a file of its own (vseg_ctx_start()), so that
 * buffers a failed subtest left behind go away with its file.
 */
static struct vseg_ctx ctx = VSEG_CTX_INIT(VSEG_LEFTOVERS_BASE_COUNT);
/* Segment ids of the discrete profile, looked up by name. */
static uint32_t vram_id, local_id;

/* GEM_CREATE with @c fails with one of @errs (negative) and leaves no trace. */
static void create_fails_any(struct drm_vseg_gem_create *c, const int *errs,
			     unsigned int num_errs, const char *what)
{
	struct drm_vseg_gem_create arg = *c;
	struct vseg_usage_snapshot before;
	unsigned int count = vseg_allocation_count(ctx.fd);
	bool ok = false;
	int ret;

	vseg_usage_read(ctx.fd, &before);
	ret = __vseg_gem_create(ctx.fd, &arg);
	if (ret == 0)
		vseg_gem_close(ctx.fd, arg.handle);
	for (unsigned int i = 0; i < num_errs; i++)
		ok |= ret == errs[i];
	igt_assert_f(ok, "%s: GEM_CREATE returned %d (%s), expected %d (%s)%s\n",
		     what, ret, vseg_errname(ret), errs[0],
		     vseg_errname(errs[0]),
		     num_errs > 1 ? " or another listed error" : "");
	igt_debug("%s: %d (%s) as expected\n", what, ret, vseg_errname(ret));
	vseg_usage_assert(ctx.fd, &before, what);
	igt_assert_f(vseg_allocation_count(ctx.fd) == count,
		     "%s: the failed create left a buffer in debugfs allocations\n",
		     what);
}

static void create_fails(struct drm_vseg_gem_create *c, int err,
			 const char *what)
{
	create_fails_any(c, &err, 1, what);
}

/* The memory segment page size a buffer supported in @supported gets. */
static uint64_t real_size(uint64_t size, uint32_t supported)
{
	uint64_t page = SZ_4K;

	for (unsigned int i = 0; i < ctx.q.num_segments; i++)
		if ((supported & BIT(ctx.segs[i].id)) &&
		    ctx.segs[i].kind == DRM_VSEG_SEGMENT_KIND_MEMORY &&
		    ctx.segs[i].page_size > page)
			page = ctx.segs[i].page_size;
	return ALIGN(size, page);
}

static bool cpu_reachable(uint32_t id)
{
	return !vseg_ctx_is_memory(&ctx, id) ||
	       vseg_ctx_seg(&ctx, id)->cpu_visible_size;
}

/*
 * A buffer supported only in segment @id (0: system memory) lands there,
 * costs exactly its size there and nothing elsewhere, shows up in debugfs,
 * and closing it gives everything back.
 */
static void create_in_segment(uint32_t id, uint32_t flags)
{
	const uint64_t size = 4 * SZ_64K;
	struct vseg_usage_snapshot before, after;
	struct drm_vseg_gem_create c;
	struct drm_vseg_gem_info info;
	struct vseg_aperture_state ap;
	uint32_t handle;

	vseg_usage_read(ctx.fd, &before);
	vseg_create_args(&c, size, BIT(id), flags);
	handle = vseg_gem_create(ctx.fd, &c);
	igt_assert_eq_u64(c.size, size);
	vseg_check_allocation(ctx.fd, handle, &info);
	igt_assert_eq(vseg_allocation_count(ctx.fd), ctx.base_count + 1);

	igt_assert_eq_u32(info.segment_id, id);
	igt_assert_eq_u64(info.size, size);
	igt_assert_eq_u32(info.create_flags, flags);
	igt_assert_eq_u64(info.moves, 0);
	igt_assert_f(info.buffer_id, "buffer id 0\n");
	igt_assert_f(!(info.placement_flags & DRM_VSEG_INFO_APERTURE_MAPPED),
		     "a buffer without AccessedPhysically is aperture-mapped\n");
	igt_assert_f(!(info.placement_flags & DRM_VSEG_INFO_PINNED),
		     "a new buffer is pinned\n");
	igt_assert_f(!!(info.placement_flags & DRM_VSEG_INFO_CPU_MAPPABLE) ==
		     cpu_reachable(id),
		     "segment %u: CPU_MAPPABLE is %d\n", id,
		     !!(info.placement_flags & DRM_VSEG_INFO_CPU_MAPPABLE));
	if (id) {
		igt_assert_f(info.placement_flags & DRM_VSEG_INFO_RESIDENT,
			     "a buffer in segment %u is not resident\n", id);
		igt_assert_eq_u64(info.resident_bytes, size);
	} else {
		igt_assert_f(!(info.placement_flags & DRM_VSEG_INFO_RESIDENT),
			     "a buffer in system memory is resident\n");
		igt_assert_eq_u64(info.resident_bytes, 0);
	}
	if (vseg_ctx_is_memory(&ctx, id))
		igt_assert_f(info.offset + size <=
			     vseg_ctx_seg(&ctx, id)->size,
			     "offset %#llx outside the segment\n",
			     (unsigned long long)info.offset);

	/*
	 * It costs its size where it is, nothing anywhere else. (System
	 * memory counts what it holds too, against no limit.)
	 */
	after = before;
	after.usage[id].committed += size;
	after.usage[id].resident += size;
	vseg_usage_assert(ctx.fd, &after, "after create");

	vseg_debugfs_read_aperture(ctx.fd, &ap);
	igt_assert_eq_u64(ap.committed, after.usage[ctx.ap_id].committed);
	igt_assert_eq_u64(ap.mapped, after.usage[ctx.ap_id].aperture_mapped);
	igt_assert_f(!vseg_aperture_find(&ap, info.buffer_id),
		     "the buffer has a GART range\n");
	vseg_debugfs_free_aperture(&ap);

	vseg_gem_close(ctx.fd, handle);
	vseg_usage_wait(ctx.fd, &before, 2000, "after close");
	igt_assert_eq(vseg_allocation_count(ctx.fd), ctx.base_count);
}

static void test_create_each(uint32_t id)
{
	vseg_ctx_start(&ctx);
	create_in_segment(id, 0);
	if (cpu_reachable(id))
		create_in_segment(id, CPU_VISIBLE);
	vseg_ctx_finish(&ctx, "create-each-segment");
}

struct rounding {
	uint64_t size;
	uint32_t supported;	/* of the discrete profile */
};

static void test_size_rounding(void)
{
	/* System memory is named by the aperture's id. */
	const uint32_t sys = BIT(ctx.ap_id), vram = BIT(vram_id),
		       local = BIT(local_id), ap = BIT(ctx.ap_id);
	const struct rounding cases[] = {
		{ SZ_4K, vram }, { SZ_64K, vram }, { SZ_64K + SZ_4K, vram },
		{ 3 * SZ_4K, local }, { SZ_4K, local }, { SZ_4K, vram | local },
		{ 5 * SZ_4K, local | ap | sys }, { SZ_4K, ap }, { SZ_4K, sys },
		{ 7 * SZ_4K, vram | ap }, { SZ_1M + SZ_4K, vram | local | ap | sys },
	};

	vseg_ctx_start(&ctx);
	for (unsigned int i = 0; i < ARRAY_SIZE(cases); i++) {
		struct vseg_usage_snapshot before, after;
		struct drm_vseg_gem_create c;
		struct drm_vseg_gem_info info;
		uint64_t want = real_size(cases[i].size, cases[i].supported);
		uint32_t handle;

		vseg_usage_read(ctx.fd, &before);
		vseg_create_args(&c, cases[i].size, cases[i].supported, 0);
		handle = vseg_gem_create(ctx.fd, &c);
		igt_assert_f(c.size == want,
			     "size %#llx in %#x: real size %#llx, expected %#llx\n",
			     (unsigned long long)cases[i].size,
			     cases[i].supported, (unsigned long long)c.size,
			     (unsigned long long)want);
		vseg_check_allocation(ctx.fd, handle, &info);
		igt_assert_eq_u64(info.size, want);
		igt_assert_f(vseg_ctx_set_holds(&ctx, cases[i].supported,
						 info.segment_id),
			     "landed in segment %u outside %#x\n",
			     info.segment_id, cases[i].supported);

		/* The segment it lands in is charged the real size. */
		after = before;
		after.usage[info.segment_id].committed += want;
		after.usage[info.segment_id].resident += want;
		vseg_usage_assert(ctx.fd, &after, "after create");
		vseg_gem_close(ctx.fd, handle);
		vseg_usage_wait(ctx.fd, &before, 2000, "after close");
	}
	vseg_ctx_finish(&ctx, "create-size-rounding");
}

static void test_invalid_size(void)
{
	const uint64_t bad[] = {
		0, 1, 100, SZ_4K - 1, SZ_4K + 1, SZ_64K - 8, SZ_64K + 1,
		SZ_1M + 2048, (1ull << 63) + 1,
	};
	const uint64_t absurd[] = {
		1ull << 62, 1ull << 63, ~0ull & ~0xfffull, 0x100000000ull << 8,
	};
	struct drm_vseg_gem_create c;
	const struct drm_vseg_segment_info *s;
	const uint32_t sets[] = { BIT(vram_id), BIT(local_id), BIT(ctx.ap_id),
				  BIT(vram_id) | BIT(ctx.ap_id),
				  vseg_all_segments(&ctx.q) };
	char what[96];
	uint64_t ram;

	vseg_ctx_start(&ctx);

	for (unsigned int i = 0; i < ARRAY_SIZE(bad); i++) {
		for (unsigned int j = 0; j < ARRAY_SIZE(sets); j++) {
			vseg_create_args(&c, bad[i], sets[j], 0);
			snprintf(what, sizeof(what), "size %#llx in %#x",
				 (unsigned long long)bad[i], sets[j]);
			create_fails(&c, -EINVAL, what);
		}
	}

	/*
	 * Larger than any supported place could ever hold: -EINVAL (not
	 * -ENOSPC, which means "could fit, but no room now"), nothing
	 * evicted. (The aperture's id also names plain system memory,
	 * which holds what the aperture cannot: see below.)
	 */
	for (unsigned int i = 0; i < ctx.q.num_segments; i++) {
		s = &ctx.segs[i];
		if (s->id == ctx.ap_id)
			continue;
		vseg_create_args(&c, s->size + SZ_64K, BIT(s->id), 0);
		snprintf(what, sizeof(what), "size of segment %u + 64K", s->id);
		create_fails(&c, -EINVAL, what);
		vseg_create_args(&c, 2 * s->size, BIT(s->id), AP_FLAG);
		snprintf(what, sizeof(what), "twice segment %u, AP", s->id);
		create_fails(&c, -EINVAL, what);
	}
	s = vseg_ctx_seg(&ctx, ctx.ap_id);
	igt_assert_lt_u64(vseg_ctx_seg(&ctx, local_id)->size,
			  vseg_ctx_seg(&ctx, vram_id)->size + SZ_64K);
	vseg_create_args(&c, vseg_ctx_seg(&ctx, vram_id)->size +
			 SZ_64K, BIT(vram_id) | BIT(local_id), 0);
	create_fails(&c, -EINVAL, "more than vram in vram | local");

	/* System memory holds at most half of RAM. */
	/* not sysinfo(): <sys/sysinfo.h> defines _AC, as IGT's headers do */
	ram = (uint64_t)sysconf(_SC_PHYS_PAGES) * sysconf(_SC_PAGE_SIZE);
	vseg_create_args(&c, ALIGN(ram / 2 + SZ_1M, SZ_64K), BIT(ctx.ap_id),
			 0);
	create_fails(&c, -EINVAL,
		     "more than half of RAM in system memory (the aperture's id)");
	vseg_create_args(&c, ALIGN(ram / 2 + SZ_1M, SZ_64K),
			 BIT(local_id) | BIT(ctx.ap_id), 0);
	create_fails(&c, -EINVAL,
		     "more than half of RAM in local | system memory");

	/*
	 * One supported place too small, another large enough: created,
	 * in the one that can hold it.
	 */
	{
		struct drm_vseg_gem_info info;
		uint32_t h;

		vseg_create_args(&c, s->commit_limit + SZ_4K,
				 BIT(ctx.ap_id), 0);
		vseg_create_prefer(&c, ctx.ap_id, 0);
		h = vseg_gem_create(ctx.fd, &c);
		vseg_gem_info(ctx.fd, h, &info);
		igt_assert_f(info.segment_id == 0,
			     "a buffer larger than the aperture's commit limit is in %s\n",
			     vseg_ctx_seg_name(&ctx, info.segment_id));
		vseg_gem_close(ctx.fd, h);
	}

	/*
	 * Absurd sizes, also ones whose rounding to 64K overflows: no
	 * supported segment can ever hold them.
	 */
	for (unsigned int i = 0; i < ARRAY_SIZE(absurd); i++) {
		const uint32_t gpu_sets[] = { BIT(vram_id), BIT(local_id),
					      BIT(ctx.ap_id),
					      BIT(vram_id) | BIT(ctx.ap_id),
					      BIT(local_id) | BIT(ctx.ap_id),
					      vseg_all_segments(&ctx.q) };

		for (unsigned int j = 0; j < ARRAY_SIZE(gpu_sets); j++) {
			vseg_create_args(&c, absurd[i], gpu_sets[j], 0);
			snprintf(what, sizeof(what), "size %#llx in %#x",
				 (unsigned long long)absurd[i], gpu_sets[j]);
			create_fails(&c, -EINVAL, what);
		}
	}
	vseg_ctx_finish(&ctx, "invalid-size");
}

static void test_alignment(void)
{
	const uint64_t bad[] = {
		3, 6, 4097, 0x3000, 0x18000, SZ_1M + SZ_64K,
		(1ull << 63) | 1, ~0ull,
		/* Powers of two above the 1 GiB limit. */
		1ull << 31, 1ull << 40, 1ull << 63,
	};
	const uint64_t good[] = { 0, 1, 2, SZ_4K, SZ_64K, 4 * SZ_64K, SZ_1M };
	struct drm_vseg_gem_create c;
	char what[64];

	vseg_ctx_start(&ctx);
	for (unsigned int i = 0; i < ARRAY_SIZE(bad); i++) {
		vseg_create_args(&c, SZ_64K, BIT(vram_id), AP_FLAG);
		c.alignment = bad[i];
		snprintf(what, sizeof(what), "alignment %#llx",
			 (unsigned long long)bad[i]);
		create_fails(&c, -EINVAL, what);
		vseg_create_args(&c, SZ_64K, BIT(ctx.ap_id), 0);
		c.alignment = bad[i];
		snprintf(what, sizeof(what), "alignment %#llx, system memory",
			 (unsigned long long)bad[i]);
		create_fails(&c, -EINVAL, what);
	}

	/* Powers of two are accepted, and honoured for contiguous buffers. */
	for (unsigned int i = 0; i < ARRAY_SIZE(good); i++) {
		struct drm_vseg_gem_info info;
		uint32_t small, handle;

		/* Something at the bottom so that offset 0 is taken. */
		small = vseg_gem_create_simple(ctx.fd, SZ_64K, BIT(vram_id),
					       AP_FLAG);
		vseg_create_args(&c, SZ_64K, BIT(vram_id), AP_FLAG);
		c.alignment = good[i];
		handle = vseg_gem_create(ctx.fd, &c);
		vseg_check_allocation(ctx.fd, handle, &info);
		igt_assert_eq_u32(info.segment_id, vram_id);
		igt_assert(info.placement_flags & DRM_VSEG_INFO_CONTIGUOUS);
		igt_assert_f(!(info.offset % (good[i] > SZ_64K ? good[i] : SZ_64K)),
			     "alignment %#llx: offset %#llx\n",
			     (unsigned long long)good[i],
			     (unsigned long long)info.offset);
		vseg_gem_close(ctx.fd, handle);
		vseg_gem_close(ctx.fd, small);
	}
	vseg_ctx_finish(&ctx, "create-alignment");
}

static void test_invalid_flags(void)
{
	struct drm_vseg_gem_create c;
	char what[64];

	vseg_ctx_start(&ctx);
	for (unsigned int bit = 0; bit < 32; bit++) {
		if (VSEG_GEM_CREATE_FLAGS_KNOWN & (1u << bit))
			continue;
		vseg_create_args(&c, SZ_64K, BIT(vram_id) | BIT(ctx.ap_id),
				 1u << bit);
		snprintf(what, sizeof(what), "create flag bit %u", bit);
		create_fails(&c, -EINVAL, what);
	}
	vseg_create_args(&c, SZ_64K, BIT(vram_id), ~0u);
	create_fails(&c, -EINVAL, "create flags ~0");

	/* Unknown preference flags. */
	for (unsigned int bit = 0; bit < 32; bit++) {
		if (DRM_VSEG_PREF_TOP_DOWN & (1u << bit))
			continue;
		vseg_create_args(&c, SZ_64K, BIT(vram_id), 0);
		vseg_create_prefer(&c, vram_id, 1u << bit);
		snprintf(what, sizeof(what), "preference flag bit %u", bit);
		create_fails(&c, -EINVAL, what);
	}
	vseg_ctx_finish(&ctx, "invalid-flags");
}

static void test_invalid_mbz(void)
{
	struct drm_vseg_gem_create c;
	char what[64];

	vseg_ctx_start(&ctx);
	vseg_create_args(&c, SZ_64K, BIT(vram_id), 0);
	/* A chain of extensions (vseg_query tests them): a wild one fails. */
	c.extensions = 1;
	create_fails(&c, -EFAULT, "extensions = 1");
	vseg_create_args(&c, SZ_64K, BIT(vram_id), 0);
	c.extensions = (uintptr_t)&c;
	create_fails(&c, -E2BIG, "extensions = a link to itself");
	{
		struct drm_vseg_user_extension ext = { .name = 0x1234 };

		vseg_create_args(&c, SZ_64K, BIT(vram_id), 0);
		c.extensions = (uintptr_t)&ext;
		create_fails(&c, -EINVAL, "an unknown extension");
	}

	for (unsigned int i = 0; i < ARRAY_SIZE(c.reserved); i++) {
		vseg_create_args(&c, SZ_64K, BIT(vram_id), 0);
		c.reserved[i] = 1ull << (i * 13);
		snprintf(what, sizeof(what), "reserved[%u]", i);
		create_fails(&c, -EINVAL, what);
	}

	/* Unused preferred entries must be zero. */
	for (unsigned int used = 0; used < DRM_VSEG_MAX_PREFERRED; used++) {
		for (unsigned int field = 0; field < 2; field++) {
			vseg_create_args(&c, SZ_64K,
					 BIT(vram_id) | BIT(local_id), 0);
			for (unsigned int k = 0; k < used; k++)
				vseg_create_prefer(&c, k & 1 ? local_id : vram_id,
						   0);
			if (field)
				c.preferred[DRM_VSEG_MAX_PREFERRED - 1].flags =
					DRM_VSEG_PREF_TOP_DOWN;
			else
				c.preferred[DRM_VSEG_MAX_PREFERRED - 1].segment_id =
					vram_id;
			snprintf(what, sizeof(what),
				 "unused preferred[4].%s with %u used",
				 field ? "flags" : "segment_id", used);
			create_fails(&c, -EINVAL, what);
		}
	}

	/* Unused hinted banks must be zero. */
	for (unsigned int used = 0; used < DRM_VSEG_MAX_HINTED_BANKS; used++) {
		vseg_create_args(&c, SZ_64K, BIT(vram_id), 0);
		vseg_create_prefer(&c, vram_id, 0);
		c.num_hinted_banks = used;
		for (unsigned int k = 0; k < used; k++)
			c.hinted_banks[k] = k & 1;
		c.hinted_banks[DRM_VSEG_MAX_HINTED_BANKS - 1] = 1;
		snprintf(what, sizeof(what), "unused hinted_banks[3] with %u used",
			 used);
		create_fails(&c, -EINVAL, what);
	}
	vseg_ctx_finish(&ctx, "invalid-mbz");
}

static void test_invalid_segments(void)
{
	const uint32_t n = ctx.q.num_segments;
	const uint32_t bad_ids[] = { n + 1, DRM_VSEG_MAX_SEGMENTS + 1, 31, 32,
				     33, 64, 0x80000000u, ~0u };
	struct drm_vseg_gem_create c;
	char what[80];

	vseg_ctx_start(&ctx);
	vseg_create_args(&c, SZ_64K, 0, 0);
	create_fails(&c, -EINVAL, "empty supported set");
	vseg_create_args(&c, SZ_64K, 0, AP_FLAG);
	create_fails(&c, -EINVAL, "empty supported set, AP");

	for (unsigned int bit = n + 1; bit < 32; bit++) {
		vseg_create_args(&c, SZ_64K, BIT(vram_id) | (1u << bit), 0);
		snprintf(what, sizeof(what), "supported bit %u", bit);
		create_fails(&c, -EINVAL, what);
		vseg_create_args(&c, SZ_64K, BIT(ctx.ap_id), 0);
		c.eviction_segments = 1u << bit;
		snprintf(what, sizeof(what), "eviction bit %u", bit);
		create_fails(&c, -EINVAL, what);
	}

	for (unsigned int i = 0; i < ARRAY_SIZE(bad_ids); i++) {
		vseg_create_args(&c, SZ_64K, vseg_all_segments(&ctx.q), 0);
		vseg_create_prefer(&c, bad_ids[i], 0);
		snprintf(what, sizeof(what), "preferred segment %u", bad_ids[i]);
		create_fails(&c, -EINVAL, what);

		/* Also when it is not the first one. */
		vseg_create_args(&c, SZ_64K, vseg_all_segments(&ctx.q), 0);
		vseg_create_prefer(&c, vram_id, 0);
		vseg_create_prefer(&c, bad_ids[i], 0);
		snprintf(what, sizeof(what), "second preferred segment %u",
			 bad_ids[i]);
		create_fails(&c, -EINVAL, what);
	}

	/* The eviction set holds the aperture, or nothing. */
	vseg_create_args(&c, SZ_64K, vseg_all_segments(&ctx.q), 0);
	c.eviction_segments = BIT(vram_id);
	create_fails(&c, -EINVAL, "eviction set = a memory segment");
	vseg_create_args(&c, SZ_64K, vseg_all_segments(&ctx.q), 0);
	c.eviction_segments = BIT(local_id) | BIT(ctx.ap_id);
	create_fails(&c, -EINVAL, "eviction set = local | aperture");
	vseg_create_args(&c, SZ_64K, vseg_all_segments(&ctx.q), 0);
	c.eviction_segments = BIT(0);
	create_fails(&c, -EINVAL, "eviction set = system memory bit");
	vseg_create_args(&c, SZ_64K, BIT(vram_id) | BIT(local_id), 0);
	c.eviction_segments = BIT(ctx.ap_id);
	create_fails(&c, -EINVAL, "eviction to an unsupported aperture");
	vseg_ctx_finish(&ctx, "invalid-segments");
}

static void test_invalid_preferred(void)
{
	const uint32_t vram = BIT(vram_id), local = BIT(local_id),
		       ap = BIT(ctx.ap_id);
	struct {
		uint32_t supported;
		uint32_t pref[2];
		unsigned int num;
	} cases[] = {
		{ vram, { local_id }, 1 },
		{ vram, { ctx.ap_id }, 1 },
		{ vram | local, { ctx.ap_id }, 1 },
		{ ap, { vram_id }, 1 },
		{ ap, { ctx.ap_id, local_id }, 2 },
		{ local, { ctx.ap_id }, 1 },
		{ local | ap, { local_id, vram_id }, 2 },
	};
	struct drm_vseg_gem_create c;
	char what[96];

	vseg_ctx_start(&ctx);
	for (unsigned int i = 0; i < ARRAY_SIZE(cases); i++) {
		vseg_create_args(&c, SZ_64K, cases[i].supported, 0);
		for (unsigned int k = 0; k < cases[i].num; k++)
			vseg_create_prefer(&c, cases[i].pref[k], 0);
		snprintf(what, sizeof(what),
			 "preferred %u,%u (%u used) outside supported %#x",
			 cases[i].pref[0], cases[i].pref[1], cases[i].num,
			 cases[i].supported);
		create_fails(&c, -EINVAL, what);
	}
	vseg_ctx_finish(&ctx, "invalid-preferred");
}

static void test_list_length(void)
{
	const uint32_t too_many[] = { DRM_VSEG_MAX_PREFERRED + 1, 16, 1000,
				      0x80000000u, ~0u };
	const uint32_t too_many_banks[] = { DRM_VSEG_MAX_HINTED_BANKS + 1, 16,
					    ~0u };
	struct drm_vseg_gem_create c;
	struct drm_vseg_gem_info info;
	uint32_t handle;
	char what[64];

	vseg_ctx_start(&ctx);
	for (unsigned int i = 0; i < ARRAY_SIZE(too_many); i++) {
		vseg_create_args(&c, SZ_64K, vseg_all_segments(&ctx.q), 0);
		for (unsigned int k = 0; k < DRM_VSEG_MAX_PREFERRED; k++)
			c.preferred[k].segment_id = (k % 3) ? local_id : vram_id;
		c.num_preferred = too_many[i];
		snprintf(what, sizeof(what), "num_preferred %u", too_many[i]);
		create_fails(&c, -E2BIG, what);
	}
	for (unsigned int i = 0; i < ARRAY_SIZE(too_many_banks); i++) {
		vseg_create_args(&c, SZ_64K, BIT(vram_id), 0);
		vseg_create_prefer(&c, vram_id, 0);
		c.num_hinted_banks = too_many_banks[i];
		snprintf(what, sizeof(what), "num_hinted_banks %u",
			 too_many_banks[i]);
		create_fails(&c, -E2BIG, what);
	}

	/* The limits themselves are fine. */
	vseg_create_args(&c, SZ_64K, vseg_all_segments(&ctx.q), 0);
	vseg_create_prefer(&c, local_id, 0);
	vseg_create_prefer(&c, vram_id, 0);
	vseg_create_prefer(&c, ctx.ap_id, 0);
	vseg_create_prefer(&c, local_id, DRM_VSEG_PREF_TOP_DOWN);
	handle = vseg_gem_create(ctx.fd, &c);
	vseg_check_allocation(ctx.fd, handle, &info);
	igt_assert_eq_u32(info.segment_id, local_id);
	vseg_gem_close(ctx.fd, handle);

	vseg_create_args(&c, SZ_64K, BIT(vram_id), AP_FLAG);
	vseg_create_prefer(&c, vram_id, 0);
	c.num_hinted_banks = DRM_VSEG_MAX_HINTED_BANKS;
	c.hinted_banks[0] = 1;
	c.hinted_banks[1] = 0;
	c.hinted_banks[2] = 1;
	c.hinted_banks[3] = 0;
	handle = vseg_gem_create(ctx.fd, &c);
	vseg_check_allocation(ctx.fd, handle, &info);
	igt_assert_eq_u32(info.segment_id, vram_id);
	igt_assert_f(info.offset >= vseg_ctx_seg(&ctx, vram_id)->bank_end[0],
		     "hinted bank 1 first, offset %#llx\n",
		     (unsigned long long)info.offset);
	vseg_gem_close(ctx.fd, handle);
	vseg_ctx_finish(&ctx, "invalid-list-length");
}

static void test_invalid_banks(void)
{
	const struct drm_vseg_segment_info *vram =
		vseg_ctx_seg(&ctx, vram_id);
	const uint32_t bad_banks[] = { vram->num_banks, vram->num_banks + 1,
				       DRM_VSEG_MAX_BANKS, 0x80000000u, ~0u };
	struct drm_vseg_gem_create c;
	char what[80];

	igt_require(vram->num_banks == 2);
	vseg_ctx_start(&ctx);

	/* Banks need a first preferred segment that uses banking. */
	vseg_create_args(&c, SZ_64K, vseg_all_segments(&ctx.q), 0);
	c.num_hinted_banks = 1;
	create_fails(&c, -EINVAL, "hinted bank without preferred segment");
	{
		const uint32_t firsts[] = { local_id, ctx.ap_id, 0 };

		for (unsigned int i = 0; i < ARRAY_SIZE(firsts); i++) {
			vseg_create_args(&c, SZ_64K,
					 vseg_all_segments(&ctx.q), 0);
			vseg_create_prefer(&c, firsts[i], 0);
			vseg_create_prefer(&c, vram_id, 0);
			c.num_hinted_banks = 1;
			snprintf(what, sizeof(what),
				 "hinted bank 0 with first preferred %u",
				 firsts[i]);
			create_fails(&c, -EINVAL, what);
		}
	}

	/* Bank indices past the segment's banks. */
	for (unsigned int i = 0; i < ARRAY_SIZE(bad_banks); i++) {
		for (unsigned int pos = 0; pos < 2; pos++) {
			vseg_create_args(&c, SZ_64K, BIT(vram_id), 0);
			vseg_create_prefer(&c, vram_id, 0);
			c.num_hinted_banks = pos + 1;
			c.hinted_banks[pos] = bad_banks[i];
			snprintf(what, sizeof(what), "hinted_banks[%u] = %u", pos,
				 bad_banks[i]);
			create_fails(&c, -EINVAL, what);
		}
	}
	vseg_ctx_finish(&ctx, "invalid-banks");
}

static void test_invalid_placement_flags(void)
{
	struct drm_vseg_gem_create c;
	struct drm_vseg_gem_info info;
	uint32_t handle;

	vseg_ctx_start(&ctx);
	/* CPU_VISIBLE needs a CPU-visible supported segment. */
	vseg_create_args(&c, SZ_64K, BIT(local_id), CPU_VISIBLE);
	create_fails(&c, -EINVAL, "CPU_VISIBLE in local only");
	vseg_create_args(&c, SZ_64K, BIT(local_id), CPU_VISIBLE | AP_FLAG);
	create_fails(&c, -EINVAL, "CPU_VISIBLE | AP in local only");
	vseg_create_args(&c, SZ_64K, BIT(local_id), CPU_VISIBLE | PRIMARY);
	create_fails(&c, -EINVAL, "CPU_VISIBLE | PRIMARY in local only");


	/* With a CPU-visible alternative, CPU_VISIBLE picks it. */
	vseg_create_args(&c, SZ_64K, BIT(local_id) | BIT(vram_id), CPU_VISIBLE);
	handle = vseg_gem_create(ctx.fd, &c);
	vseg_check_allocation(ctx.fd, handle, &info);
	igt_assert_eq_u32(info.segment_id, vram_id);
	igt_assert(info.placement_flags & DRM_VSEG_INFO_CPU_MAPPABLE);
	vseg_gem_close(ctx.fd, handle);

	vseg_create_args(&c, SZ_64K, BIT(local_id) | BIT(ctx.ap_id),
			 CPU_VISIBLE);
	handle = vseg_gem_create(ctx.fd, &c);
	vseg_check_allocation(ctx.fd, handle, &info);
	igt_assert_eq_u32(info.segment_id, ctx.ap_id);
	vseg_gem_close(ctx.fd, handle);

	/* AP with system memory (the aperture's id): the aperture, mapped. */
	vseg_create_args(&c, SZ_64K, BIT(ctx.ap_id), AP_FLAG);
	handle = vseg_gem_create(ctx.fd, &c);
	vseg_check_allocation(ctx.fd, handle, &info);
	igt_assert_eq_u32(info.segment_id, ctx.ap_id);
	igt_assert(info.placement_flags & DRM_VSEG_INFO_APERTURE_MAPPED);
	vseg_gem_close(ctx.fd, handle);
	vseg_ctx_finish(&ctx, "invalid-placement-flags");
}

static void test_invalid_handle(void)
{
	const uint32_t bad[] = { 0, 1, 2, 1000, 0x7fffffff, ~0u };
	struct drm_vseg_gem_mmap_offset mo;
	struct drm_vseg_gem_info info;
	uint64_t offset;
	uint32_t handle;
	int err;

	vseg_ctx_start(&ctx);
	handle = vseg_gem_create_simple(ctx.fd, SZ_64K, BIT(vram_id), 0);
	for (unsigned int i = 0; i < ARRAY_SIZE(bad); i++) {
		if (bad[i] == handle)
			continue;
		err = __vseg_gem_info(ctx.fd, bad[i], &info);
		igt_assert_f(err == -ENOENT, "GEM_INFO of handle %u: %d (%s)\n",
			     bad[i], err, vseg_errname(err));
		err = __vseg_gem_mmap_offset(ctx.fd, bad[i], &offset);
		igt_assert_f(err == -ENOENT,
			     "MMAP_OFFSET of handle %u: %d (%s)\n", bad[i], err,
			     vseg_errname(err));
	}

	/* Must-be-zero fields of GEM_INFO and MMAP_OFFSET. */
	memset(&info, 0, sizeof(info));
	info.handle = handle;
	info.extensions = 1;
	do_ioctl_err(ctx.fd, DRM_IOCTL_VSEG_GEM_INFO, &info, EINVAL);
	for (unsigned int r = 0; r < ARRAY_SIZE(info.reserved); r++) {
		memset(&info, 0, sizeof(info));
		info.handle = handle;
		info.reserved[r] = 1;
		do_ioctl_err(ctx.fd, DRM_IOCTL_VSEG_GEM_INFO, &info, EINVAL);
	}
	memset(&mo, 0, sizeof(mo));
	mo.handle = handle;
	mo.flags = 1;
	do_ioctl_err(ctx.fd, DRM_IOCTL_VSEG_GEM_MMAP_OFFSET, &mo, EINVAL);
	memset(&mo, 0, sizeof(mo));
	mo.handle = handle;
	mo.flags = 0x80000000u;
	do_ioctl_err(ctx.fd, DRM_IOCTL_VSEG_GEM_MMAP_OFFSET, &mo, EINVAL);
	memset(&mo, 0, sizeof(mo));
	mo.handle = handle;
	mo.extensions = 1;
	do_ioctl_err(ctx.fd, DRM_IOCTL_VSEG_GEM_MMAP_OFFSET, &mo, EINVAL);

	/* Bad argument pointers. */
	do_ioctl_err(ctx.fd, DRM_IOCTL_VSEG_GEM_CREATE, NULL, EFAULT);
	do_ioctl_err(ctx.fd, DRM_IOCTL_VSEG_GEM_INFO, NULL, EFAULT);
	do_ioctl_err(ctx.fd, DRM_IOCTL_VSEG_GEM_MMAP_OFFSET, NULL, EFAULT);

	/* The valid handle still works; once closed it is unknown. */
	vseg_gem_info(ctx.fd, handle, &info);
	igt_assert_eq_u32(info.segment_id, vram_id);
	vseg_gem_close(ctx.fd, handle);
	err = __vseg_gem_info(ctx.fd, handle, &info);
	igt_assert_f(err == -ENOENT, "GEM_INFO of a closed handle: %d (%s)\n",
		     err, vseg_errname(err));
	err = __vseg_gem_mmap_offset(ctx.fd, handle, &offset);
	igt_assert_f(err == -ENOENT, "MMAP_OFFSET of a closed handle: %d (%s)\n",
		     err, vseg_errname(err));
	vseg_ctx_finish(&ctx, "invalid-handle");
}

static void test_double_close(void)
{
	uint32_t handle[3];
	int err;

	vseg_ctx_start(&ctx);
	for (unsigned int i = 0; i < 3; i++)
		handle[i] = vseg_gem_create_simple(ctx.fd, SZ_64K,
						   BIT(i == 0 ? vram_id :
						       i == 1 ? ctx.ap_id :
						       local_id),
						   0);
	for (unsigned int i = 0; i < 3; i++) {
		vseg_gem_close(ctx.fd, handle[i]);
		err = __vseg_gem_close(ctx.fd, handle[i]);
		igt_assert_f(err == -EINVAL,
			     "second GEM_CLOSE of handle %u: %d (%s)\n",
			     handle[i], err, vseg_errname(err));
	}
	vseg_ctx_finish(&ctx, "double-close");
}

/* Buffers left open are released with the file. */
static void test_fd_close(void)
{
	struct vseg_usage_snapshot during;
	int fd;

	vseg_ctx_start(&ctx);
	fd = drm_open_vseg();
	for (unsigned int i = 0; i < 4; i++) {
		vseg_gem_create_simple(fd, SZ_1M, BIT(vram_id), i & 1 ? AP_FLAG : 0);
		vseg_gem_create_simple(fd, SZ_64K, BIT(local_id), 0);
		vseg_gem_create_simple(fd, SZ_64K, BIT(ctx.ap_id),
				       i & 1 ? AP_FLAG : 0);
		vseg_gem_create_simple(fd, SZ_64K, BIT(local_id) | BIT(ctx.ap_id),
				       0);
	}
	igt_assert_eq(vseg_allocation_count(ctx.fd), ctx.base_count + 16);
	vseg_usage_read(ctx.fd, &during);
	igt_assert_eq_u64(during.usage[vram_id].committed,
			  ctx.base_usage.usage[vram_id].committed + 4 * SZ_1M);
	igt_assert_eq_u64(during.usage[ctx.ap_id].aperture_mapped,
			  ctx.base_usage.usage[ctx.ap_id].aperture_mapped +
			  2 * SZ_64K);
	drm_close_driver(fd);
	vseg_ctx_finish(&ctx, "after closing the file with buffers open");
}

/*
 * Every way a client could name segment 0 in GEM_CREATE: in the supported
 * set, alone or with others, and in the preferred list, first or not.
 */
static int segment_zero_creates(int fd)
{
	const uint32_t all = vseg_all_segments(&ctx.q);
	struct drm_vseg_gem_create c;
	int n = 0, err;

#define SEG0_EXPECT(_what)						\
	do {								\
		err = __vseg_gem_create(fd, &c);			\
		igt_assert_f(err == -EINVAL,				\
			     "%s: GEM_CREATE returned %d (%s)\n",	\
			     _what, err, vseg_errname(err));		\
		n++;							\
	} while (0)

	vseg_create_args(&c, SZ_64K, BIT(0), 0);
	SEG0_EXPECT("supported = segment 0");
	vseg_create_args(&c, SZ_64K, BIT(0) | BIT(ctx.ap_id), 0);
	SEG0_EXPECT("supported = segment 0 | aperture");
	vseg_create_args(&c, SZ_64K, all | BIT(0), 0);
	SEG0_EXPECT("supported = every segment | segment 0");
	vseg_create_args(&c, SZ_64K, BIT(0) | BIT(vram_id), AP_FLAG);
	vseg_create_prefer(&c, vram_id, 0);
	SEG0_EXPECT("supported = segment 0 | vram, AccessedPhysically");
	vseg_create_args(&c, SZ_64K, all, 0);
	vseg_create_prefer(&c, 0, 0);
	SEG0_EXPECT("preferred segment 0");
	vseg_create_args(&c, SZ_64K, all, 0);
	vseg_create_prefer(&c, vram_id, 0);
	vseg_create_prefer(&c, local_id, 0);
	vseg_create_prefer(&c, 0, DRM_VSEG_PREF_TOP_DOWN);
	SEG0_EXPECT("third preferred segment 0");
	vseg_create_args(&c, SZ_64K, BIT(0), 0);
	vseg_create_prefer(&c, 0, 0);
	SEG0_EXPECT("segment 0 supported and preferred");
#undef SEG0_EXPECT
	return n;
}

/*
 * Seed 004: system memory is the implicit segment 0; a client places a
 * buffer there through the aperture's id, never names 0.
 */
static void test_segment_zero(void)
{
	struct vseg_usage_snapshot before;
	struct drm_vseg_gem_create c;
	struct drm_vseg_gem_info info;
	uint32_t h;
	int rfd;

	vseg_ctx_start(&ctx);
	vseg_usage_read(ctx.fd, &before);
	igt_assert_eq(segment_zero_creates(ctx.fd), 7);
	vseg_usage_assert(ctx.fd, &before, "after the refused creates");
	igt_assert_eq(vseg_allocation_count(ctx.fd), ctx.base_count);

	/* An unprivileged process on the render node: the same. */
	rfd = __drm_open_vseg_render();
	igt_assert_f(rfd >= 0, "vseg has no render node\n");
	igt_fork(child, 1) {
		vseg_drop_privileges();
		igt_assert_eq(segment_zero_creates(rfd), 7);
	}
	igt_waitchildren();
	close(rfd);
	vseg_usage_assert(ctx.fd, &before, "after an unprivileged process");
	igt_assert_eq(vseg_allocation_count(ctx.fd), ctx.base_count);

	/* The aperture's id names system memory: committed to the aperture. */
	vseg_create_args(&c, SZ_64K, BIT(ctx.ap_id), 0);
	vseg_create_prefer(&c, ctx.ap_id, 0);
	h = vseg_gem_create(ctx.fd, &c);
	vseg_check_allocation(ctx.fd, h, &info);
	igt_assert_eq_u32(info.segment_id, ctx.ap_id);
	igt_assert_f(!(info.placement_flags & DRM_VSEG_INFO_APERTURE_MAPPED),
		     "a plain buffer in system memory is aperture-mapped\n");
	vseg_gem_close(ctx.fd, h);

	/* Larger than the aperture's commit limit: plain system memory. */
	vseg_create_args(&c, vseg_ctx_seg(&ctx, ctx.ap_id)->commit_limit +
			 SZ_64K, BIT(ctx.ap_id), 0);
	h = vseg_gem_create(ctx.fd, &c);
	vseg_check_allocation(ctx.fd, h, &info);
	igt_assert_eq_u32(info.segment_id, 0);
	igt_assert_f(!(info.placement_flags & DRM_VSEG_INFO_RESIDENT),
		     "a buffer in plain system memory is resident\n");
	vseg_gem_close(ctx.fd, h);

	/* Memory segments only: never plain system memory at creation. */
	vseg_create_args(&c, vseg_ctx_seg(&ctx, local_id)->size + SZ_64K,
			 BIT(local_id), 0);
	create_fails(&c, -EINVAL, "larger than local, local only");
	vseg_ctx_finish(&ctx, "segment-zero-refused");
}

/* Handles are per file: another file cannot use them. */
static void test_other_file(void)
{
	struct drm_vseg_gem_info info;
	uint32_t handle;
	int fd, err;

	vseg_ctx_start(&ctx);
	fd = drm_open_vseg();
	handle = vseg_gem_create_simple(ctx.fd, SZ_64K, BIT(vram_id), 0);
	err = __vseg_gem_info(fd, handle, &info);
	igt_assert_f(err == -ENOENT, "GEM_INFO of another file's handle: %d (%s)\n",
		     err, vseg_errname(err));
	drm_close_driver(fd);
	vseg_gem_close(ctx.fd, handle);
	vseg_ctx_finish(&ctx, "other-file");
}

/* The buffer ioctls work on the render node, for the render node's file. */
static void test_render_node(void)
{
	const uint64_t size = SZ_1M;
	struct drm_vseg_gem_info info;
	uint32_t h, processed;
	void *ptr;
	int rfd;

	vseg_ctx_start(&ctx);
	rfd = __drm_open_vseg_render();
	igt_assert_f(rfd >= 0, "vseg has no render node\n");
	h = vseg_gem_create_simple(rfd, size, BIT(vram_id) | BIT(ctx.ap_id), 0);
	vseg_check_allocation(rfd, h, &info);
	igt_assert_eq_u32(info.segment_id, vram_id);
	ptr = vseg_gem_mmap(rfd, h, size, PROT_READ | PROT_WRITE);
	vseg_pattern_fill(ptr, size, 0xabc);
	munmap(ptr, size);
	igt_assert_eq(__vseg_evict(rfd, &h, 1, &processed), 0);
	igt_assert_eq_u32(processed, 1);
	vseg_gem_info(rfd, h, &info);
	igt_assert_eq_u32(info.segment_id, 0);
	igt_assert_eq(__vseg_make_resident(rfd, &h, 1, &processed), 0);
	igt_assert_eq_u32(processed, 1);
	vseg_gem_info(rfd, h, &info);
	igt_assert_eq_u32(info.segment_id, vram_id);
	ptr = vseg_gem_mmap(rfd, h, size, PROT_READ);
	igt_assert(vseg_pattern_check(ptr, size, 0xabc) < 0);
	munmap(ptr, size);
	/* The card node's file does not see the render node's handle. */
	igt_assert_eq(__vseg_gem_info(ctx.fd, h, &info), -ENOENT);
	vseg_gem_close(rfd, h);
	drm_close_driver(rfd);
	vseg_ctx_finish(&ctx, "render-node");
}

/* Many buffers: distinct ids, all listed, all gone after closing. */
static void test_many(void)
{
	const unsigned int n = 1000;
	uint32_t *h = calloc(n, sizeof(uint32_t));
	uint64_t *ids = calloc(n, sizeof(uint64_t));
	struct vseg_allocations a;

	igt_assert(h && ids);
	vseg_ctx_start(&ctx);
	for (unsigned int i = 0; i < n; i++) {
		struct drm_vseg_gem_info info;
		const uint32_t sets[] = { BIT(vram_id), BIT(local_id),
					  BIT(ctx.ap_id),
					  BIT(local_id) | BIT(ctx.ap_id) };

		h[i] = vseg_gem_create_simple(ctx.fd, SZ_4K, sets[i % 4],
					      i % 8 == 2 ? AP_FLAG : 0);
		vseg_gem_info(ctx.fd, h[i], &info);
		ids[i] = info.buffer_id;
		for (unsigned int j = 0; j < i; j++)
			igt_assert_f(h[j] != h[i] && ids[j] != ids[i],
				     "buffers %u and %u share handle %u or id %llu\n",
				     j, i, h[i], (unsigned long long)ids[i]);
	}
	vseg_debugfs_read_allocations(ctx.fd, &a);
	igt_assert_eq(a.num, ctx.base_count + n);
	for (unsigned int i = 0; i < n; i++)
		igt_assert_f(vseg_allocation_find(&a, ids[i]),
			     "buffer %llu is not listed\n",
			     (unsigned long long)ids[i]);
	vseg_check_no_overlap(&a, &ctx.q, ctx.segs);
	vseg_debugfs_free_allocations(&a);
	vseg_check_allocations(ctx.fd, h, n);
	for (unsigned int i = 0; i < n; i++)
		vseg_gem_close(ctx.fd, h[i]);
	free(h);
	free(ids);
	vseg_ctx_finish(&ctx, "create-many");
}

igt_main
{
	igt_fixture {
		vseg_ctx_setup(&ctx);
		vseg_ctx_reload(&ctx, "discrete");
		vseg_ctx_query(&ctx);
		vseg_ctx_close(&ctx);
		vram_id = vseg_segment_by_name(&ctx.q, ctx.segs, "vram");
		local_id = vseg_segment_by_name(&ctx.q, ctx.segs, "local");
	}

	igt_describe("A buffer supported in one segment lands there, is "
		     "charged its size there only, is listed in debugfs, and "
		     "closing it gives everything back.");
	igt_subtest_with_dynamic("create-each-segment") {
		for (unsigned int i = 1; i <= ctx.q.num_segments; i++)
			igt_dynamic(ctx.segs[i - 1].name)
				test_create_each(i);
	}

	igt_describe("The real size is rounded up to the largest page size "
		     "of the supported memory segments.");
	igt_subtest("create-size-rounding")
		test_size_rounding();

	igt_describe("Zero, unaligned, too large and absurd sizes (larger "
		     "than every supported place could ever hold: a segment, "
		     "the aperture's commit limit, half of RAM) are refused "
		     "with EINVAL without side effects; a buffer too large "
		     "for one supported place lands in another.");
	igt_subtest("invalid-size")
		test_invalid_size();

	igt_describe("Alignments that are not a power of two or above 1 GiB "
		     "are refused; the others are honoured.");
	igt_subtest("create-alignment")
		test_alignment();

	igt_describe("Unknown create and preference flags are refused.");
	igt_subtest("invalid-flags")
		test_invalid_flags();

	igt_describe("Wild extension chains, nonzero reserved fields and unused "
		     "list entries are refused.");
	igt_subtest("invalid-mbz")
		test_invalid_mbz();

	igt_describe("Empty or unknown supported sets, unknown preferred "
		     "segments and bad eviction sets are refused.");
	igt_subtest("invalid-segments")
		test_invalid_segments();

	igt_describe("Segment 0 (system memory) in the supported set or in "
		     "the preferred list is refused with EINVAL, for root and "
		     "for an unprivileged process, and nothing is created; "
		     "system memory is named by the aperture's id.");
	igt_subtest("segment-zero-refused")
		test_segment_zero();

	igt_describe("A preferred segment outside the supported set is "
		     "refused with EINVAL.");
	igt_subtest("invalid-preferred")
		test_invalid_preferred();

	igt_describe("More than 5 preferred segments or 4 hinted banks give "
		     "E2BIG; the limits themselves are accepted.");
	igt_subtest("invalid-list-length")
		test_list_length();

	igt_describe("Hinted banks on a segment without banking and bank "
		     "indices out of range are refused.");
	igt_subtest("invalid-banks")
		test_invalid_banks();

	igt_describe("CPU_VISIBLE without a CPU-visible segment and "
		     "AccessedPhysically in system memory only are refused; "
		     "with an alternative they pick it.");
	igt_subtest("invalid-placement-flags")
		test_invalid_placement_flags();

	igt_describe("GEM_INFO and MMAP_OFFSET on unknown handles give "
		     "ENOENT; their must-be-zero fields are checked.");
	igt_subtest("invalid-handle")
		test_invalid_handle();

	igt_describe("A second GEM_CLOSE of a handle fails with EINVAL.");
	igt_subtest("double-close")
		test_double_close();

	igt_describe("Buffers still open are released when the file is "
		     "closed.");
	igt_subtest("fd-close")
		test_fd_close();

	igt_describe("The buffer ioctls work on the render node.");
	igt_subtest("render-node")
		test_render_node();

	igt_describe("A thousand buffers: distinct handles and ids, all in "
		     "debugfs, all gone after closing.");
	igt_subtest("create-many")
		test_many();

	igt_describe("A handle is not valid on another file.");
	igt_subtest("other-file")
		test_other_file();

	igt_fixture {
		vseg_ctx_unload(&ctx);
	}
}
