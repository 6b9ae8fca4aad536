// SPDX-License-Identifier: MIT
/*
 * vseg_evict: overcommit memory segments and the aperture and check that
 * no byte is lost while buffers are evicted and brought back, from one
 * process and from several at once, that the aperture never commits more
 * than its commit limit, and that MAKE_RESIDENT of a list never evicts one
 * of its buffers to make room for another.
 *
 * Copyright (c) 2026 The vseg authors
 */
/**
 * TEST: vseg evict
 * Category: Core
 * Mega feature: General Core features
 * Sub-category: Memory management
 * Functionality: eviction
 * Description: Overcommit vseg segments with random buffers, force evictions
 *	and check every byte of every buffer; several processes at once; the
 *	aperture commit limit; MAKE_RESIDENT lists.
 *
 * SUBTEST: overcommit-%s
 * Description: Overcommit each memory segment four times with random buffers
 *	(scaled by VSEG_TEST_SCALE, at least one and a half times), force
 *	evictions, check every byte. On profile arg[1]. Dynamic subtests: one
 *	per memory segment of the profile, named after it.
 *
 * SUBTEST: overcommit-parallel-%s
 * Description: The same from four processes at once. On profile arg[1].
 *
 * SUBTEST: resident-list-%s
 * Description: Regression: MAKE_RESIDENT of a list never evicts a buffer it
 *	made resident to make room for a later one: with room for only one
 *	of two buffers in a memory segment, the second one stays in the
 *	aperture, or the call fails with ENOSPC at the second one, and the
 *	first one stays resident. On profile arg[1]. Dynamic subtests: one
 *	per memory segment of the profile, named after it.
 *
 * SUBTEST: commit-limit-%s
 * Description: Fill the aperture past its commit limit: older buffers are
 *	evicted, the limit is never exceeded, and with everything pinned
 *	creation fails with ENOSPC; no data is lost. On profile arg[1].
 *
 * arg[1]:
 *
 * @discrete:	the discrete profile (the default)
 * @integrated:	the integrated profile
 * @smallbar:	the smallbar profile
 * @multi:	the multi profile
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "igt.h"
#include "igt_vseg.h"

IGT_TEST_DESCRIPTION("Overcommit vseg segments with random buffers, force "
		     "evictions and check every byte of every buffer; "
		     "several processes at once; the aperture commit limit; "
		     "MAKE_RESIDENT lists.");

#define AP_FLAG		DRM_VSEG_GEM_CREATE_ACCESSED_PHYSICALLY
#define TOP_DOWN	DRM_VSEG_PREF_TOP_DOWN
#define RW		(PROT_READ | PROT_WRITE)
#define NUM_CHILDREN	4
/*
 * How far the overcommit subtests overcommit a segment, in percent; scaled
 * by $VSEG_TEST_SCALE, but never below OVERCOMMIT_MIN, where buffers that
 * only the segment supports still have to evict others to get in.
 */
#define OVERCOMMIT	400
#define OVERCOMMIT_MIN	150

static struct vseg_ctx ctx = VSEG_CTX_INIT(VSEG_LEFTOVERS_NONE);

static uint32_t test_seed(void)
{
	return vseg_test_seed((uint32_t)time(NULL) ^ getpid());
}

struct ebuf {
	uint32_t handle;
	uint64_t size;
	uint32_t pattern;
	uint32_t supported;
};

/*
 * Every buffer here has a CPU-visible placement, so a CPU access must never
 * raise SIGBUS: catch it and report the buffer instead of dying.
 */
struct access {
	void *ptr;
	const struct ebuf *b;
	int64_t bad;
};

static void fill_access(void *arg)
{
	struct access *a = arg;

	vseg_pattern_fill(a->ptr, a->b->size, a->b->pattern);
}

static void check_access(void *arg)
{
	struct access *a = arg;

	a->bad = vseg_pattern_check(a->ptr, a->b->size, a->b->pattern);
}

static void __noreturn sigbus_fail(int fd, const struct ebuf *b,
				   const char *what)
{
	struct drm_vseg_gem_info info;

	vseg_gem_info(fd, b->handle, &info);
	igt_assert_f(false,
		     "SIGBUS %s a buffer of %#llx bytes (flags %#x, supported %#x), now in %s at %#llx, %llu moves\n",
		     what, (unsigned long long)b->size, info.create_flags,
		     b->supported, vseg_ctx_seg_name(&ctx, info.segment_id),
		     (unsigned long long)info.offset,
		     (unsigned long long)info.moves);
	abort();
}

static void fill_buffer(int fd, const struct ebuf *b)
{
	struct access a = {
		.ptr = vseg_gem_mmap(fd, b->handle, b->size, RW),
		.b = b,
	};

	if (vseg_catch_sigbus(fill_access, &a)) {
		munmap(a.ptr, b->size);
		sigbus_fail(fd, b, "writing");
	}
	munmap(a.ptr, b->size);
}

static void verify_buffer(int fd, const struct ebuf *b, unsigned int index)
{
	struct access a = {
		.ptr = vseg_gem_mmap(fd, b->handle, b->size, PROT_READ),
		.b = b,
	};
	int64_t bad;

	if (vseg_catch_sigbus(check_access, &a)) {
		munmap(a.ptr, b->size);
		sigbus_fail(fd, b, "reading");
	}
	bad = a.bad;
	munmap(a.ptr, b->size);
	if (bad >= 0) {
		struct drm_vseg_gem_info info;

		vseg_gem_info(fd, b->handle, &info);
		igt_assert_f(false,
			     "buffer %u (%#llx bytes, pattern %#x, supported %#x, now in %s, %llu moves): data differs at %#llx\n",
			     index, (unsigned long long)b->size, b->pattern,
			     b->supported,
			     vseg_ctx_seg_name(&ctx, info.segment_id),
			     (unsigned long long)info.moves,
			     (unsigned long long)bad);
	}
}

/*
 * Overcommit memory segment @id: buffers preferring it, each filled with
 * its own pattern, whose sizes add up to @target bytes (past the segment's
 * size, buffers supported only there evict older ones, the others go to
 * system memory); then rounds of MAKE_RESIDENT, EVICT and spot checks; then
 * every byte is checked, twice.
 * @strict: this process is alone on the device, so placements after
 * creation, MAKE_RESIDENT and EVICT are asserted too.
 */
static void overcommit(int fd, uint32_t id, uint64_t target, uint64_t rs,
		       bool strict)
{
	const struct drm_vseg_segment_info *s = vseg_ctx_seg(&ctx, id);
	const uint64_t page = s->page_size, max = s->size / 8;
	const bool cpu = s->cpu_visible_size > 0;
	unsigned int n = 0, cap = 64, moves_seen = 0;
	struct ebuf *b = calloc(cap, sizeof(*b));
	uint64_t total = 0;
	uint32_t next_pattern = vseg_rand32(&rs) << 8;

	igt_assert(b);
	/* Create until the segment is overcommitted @target bytes. */
	while (total < target || n < 8) {
		struct drm_vseg_gem_create c;
		struct drm_vseg_gem_info info;
		uint32_t flags = vseg_rand32(&rs) % 2 ? AP_FLAG : 0;
		uint32_t set;

		if (n == cap) {
			cap *= 2;
			b = realloc(b, cap * sizeof(*b));
			igt_assert(b);
		}
		/*
		 * Supported in the segment only (when the CPU can reach it),
		 * or also in the aperture and system memory.
		 */
		set = cpu && vseg_rand32(&rs) % 3 == 0 ? BIT(id) :
		      BIT(id) | BIT(ctx.ap_id);
		vseg_create_args(&c,
				 page * (1 + vseg_rand32(&rs) % (max / page)),
				 set,
				 flags);
		vseg_create_prefer(&c, id, vseg_rand32(&rs) % 2 ? TOP_DOWN : 0);
		if ((set & BIT(ctx.ap_id)) && vseg_rand32(&rs) % 2)
			c.eviction_segments = BIT(ctx.ap_id);
		b[n].handle = vseg_gem_create(fd, &c);
		b[n].size = c.size;
		b[n].pattern = next_pattern++;
		b[n].supported = set;
		vseg_gem_info(fd, b[n].handle, &info);
		igt_assert_f(vseg_ctx_set_holds(&ctx, set, info.segment_id),
			     "buffer %u created in %s outside %#x\n", n,
			     vseg_ctx_seg_name(&ctx, info.segment_id), set);
		/*
		 * Creation evicts nothing while system memory is an option;
		 * a buffer without that option must evict its way in.
		 */
		if (strict && !(set & BIT(ctx.ap_id)))
			igt_assert_f(info.segment_id != 0,
				     "buffer %u created in system memory though it could evict others\n",
				     n);
		fill_buffer(fd, &b[n]);
		total += c.size;
		n++;
	}

	/* Rounds of MAKE_RESIDENT, EVICT and spot checks. */
	for (unsigned int round = 0; round < n; round++) {
		uint32_t list[4], count = 1 + vseg_rand32(&rs) % 4, processed;
		struct drm_vseg_gem_info info;
		unsigned int op = vseg_rand32(&rs) % 3, k;
		int err;

		for (k = 0; k < count; k++)
			list[k] = b[vseg_rand32(&rs) % n].handle;
		if (op == 2) {
			/* A spot check, which may move the buffer out. */
			k = vseg_rand32(&rs) % n;
			verify_buffer(fd, &b[k], k);
			continue;
		}
		if (op)
			err = __vseg_evict(fd, list, count, &processed);
		else
			err = __vseg_make_resident(fd, list, count, &processed);
		igt_assert_f(err == 0, "%s of %u buffers failed: %d (%s)\n",
			     op ? "EVICT" : "MAKE_RESIDENT", count, err,
			     strerror(-err));
		igt_assert_eq_u32(processed, count);
		for (k = 0; strict && k < count; k++) {
			vseg_gem_info(fd, list[k], &info);
			igt_assert_f(op ? info.segment_id == 0 :
				     !!(info.placement_flags &
					DRM_VSEG_INFO_RESIDENT),
				     "after %s the buffer is in %s\n",
				     op ? "EVICT" : "MAKE_RESIDENT",
				     vseg_ctx_seg_name(&ctx, info.segment_id));
		}
	}

	/* Every byte of every buffer. */
	for (unsigned int i = 0; i < n; i++) {
		struct drm_vseg_gem_info info;

		vseg_gem_info(fd, b[i].handle, &info);
		moves_seen += info.moves > 0;
		verify_buffer(fd, &b[i], i);
	}
	igt_info("segment %s: %u buffers, %llu MiB, %u of them moved\n",
		 s->name, n, (unsigned long long)(total >> 20), moves_seen);
	igt_assert_f(moves_seen > 0, "overcommitting %s moved nothing\n",
		     s->name);

	/* Every byte again after bringing half of them back. */
	for (unsigned int i = 0; i < n; i += 2) {
		int err = __vseg_make_resident(fd, &b[i].handle, 1, NULL);

		igt_assert_f(err == 0, "MAKE_RESIDENT: %d (%s)\n", err,
			     strerror(-err));
	}
	for (unsigned int i = 0; i < n; i++)
		verify_buffer(fd, &b[i], i);

	for (unsigned int i = 0; i < n; i++)
		vseg_gem_close(fd, b[i].handle);
	free(b);
}

/* The bytes that overcommit segment @id, all processes together. */
static uint64_t overcommit_target(uint32_t id)
{
	uint64_t pct = vseg_test_scale(OVERCOMMIT);

	if (pct < OVERCOMMIT_MIN)
		pct = OVERCOMMIT_MIN;
	return vseg_ctx_seg(&ctx, id)->size * pct / 100;
}

static void test_overcommit(uint32_t id)
{
	uint64_t rs = test_seed() | 1;

	overcommit(ctx.fd, id, overcommit_target(id), rs, true);
	vseg_usage_wait(ctx.fd, &ctx.base_usage, 5000, "after closing");
}

static void test_overcommit_parallel(void)
{
	uint32_t seed = test_seed();

	igt_fork(child, NUM_CHILDREN) {
		int fd = drm_open_vseg();

		for (uint32_t id = 1; id <= ctx.q.num_segments; id++) {
			if (!vseg_ctx_is_memory(&ctx, id))
				continue;
			overcommit(fd, id, overcommit_target(id) / NUM_CHILDREN,
				   ((uint64_t)seed << 8 | child) * 2 + 1, false);
		}
		drm_close_driver(fd);
	}
	igt_waitchildren();
}

/* --- MAKE_RESIDENT of a list ----------------------------------------------- */

static uint32_t list_buffer(uint32_t id, uint64_t size, uint32_t supported)
{
	struct drm_vseg_gem_create c;

	vseg_create_args(&c, size, supported, 0);
	vseg_create_prefer(&c, id, 0);
	return vseg_gem_create(ctx.fd, &c);
}

static void assert_in(uint32_t handle, const char *name, uint32_t id)
{
	struct drm_vseg_gem_info info;

	vseg_gem_info(ctx.fd, handle, &info);
	igt_assert_f(info.segment_id == id, "%s is in %s, not in %s\n", name,
		     vseg_ctx_seg_name(&ctx, info.segment_id),
		     vseg_ctx_seg_name(&ctx, id));
}

/*
 * MAKE_RESIDENT made each listed buffer resident in turn, each in a ww
 * transaction of its own, so the room a later buffer needed could be
 * taken from one the same call had just made resident: the call succeeded
 * with that one evicted to system memory.
 *
 * Segment @id, in units of a sixteenth of it: 12 pinned, 4 free. A (3)
 * is made resident there; B (3) is resident in the aperture and would
 * rather be in the segment: it stays in the aperture. C (3), supported in
 * the segment only, finds no room: the call fails there, A stays.
 */
static void test_resident_list(uint32_t id)
{
	const uint64_t unit = vseg_ctx_seg(&ctx, id)->size / 16;
	const uint32_t anywhere = BIT(id) | BIT(ctx.ap_id);
	uint32_t filler, tmp, a, b, c, list[2], processed;
	int err;

	filler = list_buffer(id, 12 * unit, BIT(id));
	igt_assert_eq(__vseg_make_resident_flags(ctx.fd, &filler, 1,
						 DRM_VSEG_RESIDENCY_PIN, NULL),
		      0);
	assert_in(filler, "the pinned filler", id);
	/* B is born in the aperture while the segment is full. */
	tmp = list_buffer(id, 4 * unit, BIT(id));
	assert_in(tmp, "the buffer filling the segment", id);
	b = list_buffer(id, 3 * unit, anywhere);
	assert_in(b, "B", ctx.ap_id);
	vseg_gem_close(ctx.fd, tmp);
	a = list_buffer(id, 3 * unit, anywhere);
	assert_in(a, "A", id);
	vseg_evict(ctx.fd, &a, 1);
	assert_in(a, "A", 0);

	list[0] = a;
	list[1] = b;
	err = __vseg_make_resident(ctx.fd, list, 2, &processed);
	igt_assert_f(err == 0, "MAKE_RESIDENT [A B]: %d (%s)\n", err,
		     strerror(-err));
	igt_assert_eq_u32(processed, 2);
	assert_in(a, "after MAKE_RESIDENT [A B], A", id);
	assert_in(b, "after MAKE_RESIDENT [A B], B", ctx.ap_id);

	/* C, supported in the segment only, evicts A to be created. */
	c = list_buffer(id, 3 * unit, BIT(id));
	assert_in(c, "C", id);
	assert_in(a, "A", 0);
	vseg_evict(ctx.fd, &c, 1);
	/* [A C]: A comes back; the only room for C is A's. */
	list[1] = c;
	err = __vseg_make_resident(ctx.fd, list, 2, &processed);
	igt_assert_f(err == -ENOSPC,
		     "MAKE_RESIDENT [A C] with room for one: %d (%s)\n", err,
		     strerror(-err));
	igt_assert_eq_u32(processed, 1);
	assert_in(a, "after MAKE_RESIDENT [A C], A", id);
	assert_in(c, "after MAKE_RESIDENT [A C], C", 0);

	vseg_gem_close(ctx.fd, c);
	vseg_gem_close(ctx.fd, b);
	vseg_gem_close(ctx.fd, a);
	vseg_gem_close(ctx.fd, filler);
}

/* --- the aperture commit limit --------------------------------------------- */

/* The aperture's usage is within its limits and matches our buffers. */
static void check_aperture(const struct ebuf *b, unsigned int n)
{
	const uint64_t limit = vseg_ctx_seg(&ctx, ctx.ap_id)->commit_limit;
	struct vseg_usage_snapshot u;
	struct vseg_aperture_state st;
	uint64_t in = 0, mapped = 0;

	for (unsigned int i = 0; i < n; i++) {
		struct drm_vseg_gem_info info;

		vseg_gem_info(ctx.fd, b[i].handle, &info);
		igt_assert_f(info.segment_id == ctx.ap_id ||
			     info.segment_id == 0,
			     "an aperture-only buffer is in %s\n",
			     vseg_ctx_seg_name(&ctx, info.segment_id));
		if (info.segment_id == ctx.ap_id) {
			in += b[i].size;
			igt_assert_f(info.placement_flags &
				     DRM_VSEG_INFO_APERTURE_MAPPED,
				     "a resident AP buffer in the aperture is not mapped\n");
			mapped += b[i].size;
		} else {
			igt_assert(!(info.placement_flags &
				     DRM_VSEG_INFO_APERTURE_MAPPED));
		}
	}
	vseg_usage_read(ctx.fd, &u);
	igt_assert_f(u.usage[ctx.ap_id].committed <= limit,
		     "aperture committed %llu > commit limit %llu\n",
		     (unsigned long long)u.usage[ctx.ap_id].committed,
		     (unsigned long long)limit);
	igt_assert_eq_u64(u.usage[ctx.ap_id].committed,
			  ctx.base_usage.usage[ctx.ap_id].committed + in);
	igt_assert_eq_u64(u.usage[ctx.ap_id].aperture_mapped,
			  ctx.base_usage.usage[ctx.ap_id].aperture_mapped +
			  mapped);
	vseg_debugfs_read_aperture(ctx.fd, &st);
	igt_assert_eq_u64(st.committed, u.usage[ctx.ap_id].committed);
	igt_assert_eq_u64(st.mapped, u.usage[ctx.ap_id].aperture_mapped);
	igt_assert_eq_u64(st.commit_limit, limit);
	vseg_debugfs_free_aperture(&st);
}

static void test_commit_limit(void)
{
	const uint64_t limit = vseg_ctx_seg(&ctx, ctx.ap_id)->commit_limit;
	uint64_t rs = test_seed() | 1, total = 0;
	unsigned int n = 0, cap = 256, pinned = 0;
	struct ebuf *b = calloc(cap, sizeof(*b));
	struct vseg_usage_snapshot before;
	struct drm_vseg_gem_create c;
	int err;

	igt_assert(b);
	/*
	 * Twice the commit limit of AccessedPhysically buffers that can only
	 * live in the aperture: creating each one must succeed by evicting
	 * older ones to system memory, never committing past the limit.
	 */
	while (total < 2 * limit) {
		if (n == cap) {
			cap *= 2;
			b = realloc(b, cap * sizeof(*b));
			igt_assert(b);
		}
		vseg_create_args(&c,
				 SZ_4K * (1 + vseg_rand32(&rs) % (SZ_4M / SZ_4K)),
				 BIT(ctx.ap_id), AP_FLAG);
		err = __vseg_gem_create(ctx.fd, &c);
		igt_assert_f(err == 0,
			     "creating an aperture buffer with %llu bytes committed (limit %llu) failed: %d (%s), though older buffers could be evicted\n",
			     (unsigned long long)total,
			     (unsigned long long)limit, err, strerror(-err));
		b[n].handle = c.handle;
		b[n].size = c.size;
		b[n].pattern = 0x10000 + n;
		b[n].supported = BIT(ctx.ap_id);
		fill_buffer(ctx.fd, &b[n]);
		total += c.size;
		n++;
		check_aperture(b, n);
	}
	for (unsigned int i = 0; i < n; i++)
		verify_buffer(ctx.fd, &b[i], i);
	check_aperture(b, n);

	/*
	 * Pin buffers into the aperture until it cannot take another one:
	 * then nothing can be evicted and creation fails with -ENOSPC,
	 * changing nothing.
	 */
	for (unsigned int i = 0; i < n; i++)
		vseg_evict(ctx.fd, &b[i].handle, 1);
	check_aperture(b, n);
	for (unsigned int i = 0; i < n; i++) {
		err = __vseg_make_resident_flags(ctx.fd, &b[i].handle, 1,
						 DRM_VSEG_RESIDENCY_PIN, NULL);
		if (err == 0) {
			pinned++;
			continue;
		}
		igt_assert_f(err == -ENOSPC || err == -ENOMEM,
			     "MAKE_RESIDENT into an aperture full of pinned buffers: %d (%s)\n",
			     err, strerror(-err));
		break;
	}
	igt_info("%u buffers pinned into the aperture\n", pinned);
	igt_assert(pinned > 0);
	check_aperture(b, n);
	vseg_usage_read(ctx.fd, &before);
	igt_assert_f(before.usage[ctx.ap_id].committed + SZ_4M > limit,
		     "pinning stopped with %llu of %llu committed\n",
		     (unsigned long long)before.usage[ctx.ap_id].committed,
		     (unsigned long long)limit);
	/*
	 * The aperture's id names system memory: creation still succeeds,
	 * in plain system pages, committing nothing to the full aperture.
	 * Neither buffer can be made resident (committed to the aperture,
	 * and for AccessedPhysically mapped into it): -ENOSPC, changing
	 * nothing.
	 */
	for (unsigned int ap = 0; ap < 2; ap++) {
		struct drm_vseg_gem_info info;

		vseg_create_args(&c, SZ_4M, BIT(ctx.ap_id), ap ? AP_FLAG : 0);
		err = __vseg_gem_create(ctx.fd, &c);
		igt_assert_f(err == 0,
			     "creating (AP=%u) with the aperture full of pinned buffers: %d (%s)\n",
			     ap, err, strerror(-err));
		vseg_gem_info(ctx.fd, c.handle, &info);
		igt_assert_eq_u32(info.segment_id, 0);
		igt_assert(!(info.placement_flags &
			     DRM_VSEG_INFO_APERTURE_MAPPED));
		err = __vseg_make_resident_flags(ctx.fd, &c.handle, 1, 0, NULL);
		igt_assert_f(err == -ENOSPC || err == -ENOMEM,
			     "MAKE_RESIDENT (AP=%u) with the aperture full of pinned buffers: %d (%s)\n",
			     ap, err, strerror(-err));
		vseg_gem_info(ctx.fd, c.handle, &info);
		igt_assert_eq_u32(info.segment_id, 0);
		vseg_gem_close(ctx.fd, c.handle);
		vseg_usage_assert(ctx.fd, &before, "after the create and close");
	}

	/* Nothing was lost. */
	for (unsigned int i = 0; i < n; i++)
		verify_buffer(ctx.fd, &b[i], i);
	check_aperture(b, n);
	for (unsigned int i = 0; i < n; i++)
		vseg_gem_close(ctx.fd, b[i].handle);
	free(b);
}

igt_main
{
	igt_fixture
		vseg_ctx_setup(&ctx);

	for_each_vseg_profile(profile) {
		igt_describe("Overcommit each memory segment four times with "
			     "random buffers (scaled by VSEG_TEST_SCALE, at "
			     "least one and a half times), force evictions, "
			     "check every byte.");
		igt_subtest_with_dynamic_f("overcommit-%s", profile) {
			vseg_ctx_load(&ctx, profile);
			for (uint32_t id = 1; id <= ctx.q.num_segments; id++) {
				if (!vseg_ctx_is_memory(&ctx, id))
					continue;
				igt_dynamic(vseg_ctx_seg(&ctx, id)->name)
					test_overcommit(id);
			}
			vseg_ctx_finish(&ctx, "after closing every buffer");
		}

		igt_describe("The same from four processes at once.");
		igt_subtest_f("overcommit-parallel-%s", profile) {
			vseg_ctx_load(&ctx, profile);
			test_overcommit_parallel();
			vseg_ctx_finish(&ctx, "after closing every buffer");
		}

		igt_describe("Regression: MAKE_RESIDENT of a list never "
			     "evicts a buffer it made resident to make room "
			     "for a later one.");
		igt_subtest_with_dynamic_f("resident-list-%s", profile) {
			/* One file pins most of the segment: lift its budget. */
			vseg_ctx_load_f(&ctx, "%s pin_limit_percent=100",
					profile);
			for (uint32_t id = 1; id <= ctx.q.num_segments; id++) {
				if (!vseg_ctx_is_memory(&ctx, id))
					continue;
				igt_dynamic(vseg_ctx_seg(&ctx, id)->name)
					test_resident_list(id);
			}
			vseg_ctx_finish(&ctx, "after closing every buffer");
		}

		igt_describe("Fill the aperture past its commit limit: older "
			     "buffers are evicted, the limit is never "
			     "exceeded, and with everything pinned creation "
			     "fails with ENOSPC; no data is lost.");
		igt_subtest_f("commit-limit-%s", profile) {
			/* One file pins the whole aperture: lift its budget. */
			vseg_ctx_load_f(&ctx, "%s pin_limit_percent=100",
					profile);
			test_commit_limit();
			vseg_ctx_finish(&ctx, "after closing every buffer");
		}
	}

	igt_fixture {
		vseg_ctx_unload(&ctx);
	}
}
