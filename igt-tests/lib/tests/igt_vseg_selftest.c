// SPDX-License-Identifier: MIT
/*
 * Self-test of the vseg helpers that need no device: expected tables and
 * the segment rules, the glob matcher, the debugfs parser, the test context
 * accessors, table building, the seed, the per-profile dynamic subtests,
 * an unprivileged child and its pipe handshake.
 *
 * Copyright (c) 2026 The vseg authors
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "igt.h"
#include "igt_vseg.h"

static void query_from_table(const struct vseg_table *t,
			     struct drm_vseg_query_segments *q,
			     struct drm_vseg_segment_info *segs)
{
	memset(q, 0, sizeof(*q));
	q->num_segments = t->num_segments;
	q->segment_size = sizeof(*segs);
	q->paging_buffer_segment_id = t->paging_segment_id;
	q->paging_buffer_size = t->paging_size;
	q->paging_buffer_private_data_size = t->paging_private;
	memcpy(segs, t->seg, t->num_segments * sizeof(*segs));
}

#define F(x) DRM_VSEG_SEGMENT_##x

/* The example table of the documentation (the discrete profile). */
static void example_table(struct vseg_table *t)
{
	struct drm_vseg_segment_info *s;

	memset(t, 0, sizeof(*t));
	s = vseg_table_add(t, DRM_VSEG_SEGMENT_KIND_MEMORY, "vram",
			   F(CPU_VISIBLE) | F(USE_BANKING) | F(USE_64KB_PAGES),
			   0, 0xe0000000, SZ_32M, SZ_32M, SZ_32M, 0, SZ_64K);
	s->num_banks = 2;
	s->bank_end[0] = SZ_16M;
	s->bank_end[1] = SZ_32M;
	vseg_table_add(t, DRM_VSEG_SEGMENT_KIND_MEMORY, "local", 0, SZ_32M, 0,
		       SZ_16M, 0, SZ_16M, 0, SZ_4K);
	vseg_table_add(t, DRM_VSEG_SEGMENT_KIND_APERTURE, "aperture",
		       F(APERTURE) | F(CACHE_COHERENT), VSEG_APERTURE_BASE, 0,
		       SZ_64M, 0, SZ_32M, 0, SZ_4K);
	t->paging_segment_id = 3;
	t->paging_size = VSEG_PAGING_SIZE;
}

static const char *profiles_seen[8];
static unsigned int num_profiles_seen;

static void see_profile(const char *profile)
{
	igt_assert(num_profiles_seen < ARRAY_SIZE(profiles_seen));
	profiles_seen[num_profiles_seen++] = profile;
}

/* The first lines of the discrete profile's debugfs dump. */
static const char sample[] =
	"vseg segment table: segments=3 paging_segment=3 paging_size=65536 paging_private=0\n"
	"segment 0 name=system kind=system ttm=0 ttm_name=SYSTEM committed=0 resident=0 evicted=0 mapped=0\n"
	"segment 1 name=vram kind=memory ttm=2 ttm_name=VRAM flags=0x80c flag_names=CpuVisible|UseBanking|Use64KBPages base=0x0 cpu=0xe0000000 size=33554432 visible=33554432 commit=33554432 page=65536 sysend=0x0 banks=2 bank_end=0x1000000,0x2000000 invalid=0 invalid_ranges=- committed=0 resident=0 evicted=0 mapped=0\n"
	"segment 2 name=local kind=memory ttm=3 ttm_name=PRIV0 flags=0x0 flag_names=- base=0x2000000 cpu=0x0 size=16777216 visible=0 commit=16777216 page=4096 sysend=0x0 banks=0 bank_end=- invalid=1 invalid_ranges=0x0+0x1000 committed=0 resident=0 evicted=0 mapped=0\n";

igt_main
{
	igt_subtest("glob") {
		igt_assert(vseg_glob("abc", "abc"));
		igt_assert(!vseg_glob("abc", "abcd"));
		igt_assert(!vseg_glob("abcd", "abc"));
		igt_assert(vseg_glob("a*c", "abbbc"));
		igt_assert(vseg_glob("a*c", "ac"));
		igt_assert(vseg_glob("*", ""));
		igt_assert(vseg_glob("x \"*\": *", "x \"tok\": why not"));
		igt_assert(!vseg_glob("x \"*\": *", "x \"tok\" why"));
		igt_assert(vseg_glob("range 0 * is empty", "range 0 [0x1000, +0x0) is empty"));
		igt_assert(!vseg_glob("range 0 * is empty", "range 1 [0x1000, +0x0) is empty"));
		igt_assert(vseg_glob("a*b*c", "aXbYbZc"));
	}

	igt_subtest("example-table") {
		struct drm_vseg_segment_info segs[DRM_VSEG_MAX_SEGMENTS];
		struct drm_vseg_query_segments q;
		struct vseg_table t, back;

		example_table(&t);
		query_from_table(&t, &q, segs);
		vseg_check_table_rules(&q, segs);
		vseg_check_table(&t, &q, segs);
		vseg_table_from_query(&back, &q, segs);
		igt_assert(!memcmp(&back, &t, sizeof(t)));
		/* Idle: only the paging buffer, committed to its segment. */
		for (unsigned int i = 0; i < q.num_segments; i++) {
			uint64_t pb = vseg_paging_buffer_commit(&q, segs[i].id);

			segs[i].usage.committed = pb;
			segs[i].usage.aperture_mapped = pb;
		}
		vseg_check_usage_zero(&q, segs);
	}

	igt_subtest("table-mismatch") {
		struct drm_vseg_segment_info segs[DRM_VSEG_MAX_SEGMENTS];
		struct drm_vseg_query_segments q;
		struct vseg_table t;

		/* Must fail: the expected table differs in one field. */
		example_table(&t);
		query_from_table(&t, &q, segs);
		segs[1].size /= 2;
		vseg_check_table(&t, &q, segs);
	}

	igt_subtest_with_dynamic("dynamic-profiles") {
		vseg_dynamic_profiles(see_profile);
		igt_assert_eq(num_profiles_seen, vseg_num_profiles);
		igt_assert(!strcmp(profiles_seen[0], "discrete"));
		igt_assert(!strcmp(profiles_seen[3], "multi"));
	}

	igt_subtest("debugfs-parse") {
		struct vseg_debugfs_segments d;

		vseg_debugfs_parse_segments(sample, &d);
		igt_assert_eq(d.num_segments, 3);
		igt_assert_eq_u64(d.paging_segment, 3);
		igt_assert_eq_u64(d.paging_size, 65536);
		igt_assert_eq_u64(d.paging_private, 0);
		igt_assert_eq(d.num_lines, 3);
		igt_assert_eq(d.line[0].id, 0);
		igt_assert(!strcmp(vseg_debugfs_value(&d.line[0], "name"), "system"));
		igt_assert_eq_u64(vseg_debugfs_u64(&d.line[0], "ttm"), 0);
		igt_assert_eq(d.line[1].id, 1);
		igt_assert_eq_u64(vseg_debugfs_u64(&d.line[1], "flags"), 0x80c);
		igt_assert_eq_u64(vseg_debugfs_u64(&d.line[1], "cpu"), 0xe0000000);
		igt_assert_eq_u64(vseg_debugfs_u64(&d.line[1], "size"), SZ_32M);
		igt_assert(!strcmp(vseg_debugfs_value(&d.line[1], "bank_end"),
				   "0x1000000,0x2000000"));
		igt_assert(!strcmp(vseg_debugfs_value(&d.line[2], "invalid_ranges"),
				   "0x0+0x1000"));
		igt_assert(!vseg_debugfs_value(&d.line[2], "nonexistent"));
		vseg_debugfs_free_segments(&d);
	}

	igt_subtest("debugfs-allocations") {
		static const char text[] =
			"vseg allocations: count=2\n"
			"bo 7 owner=42:my test size=65536 flags=0x1 segment=3 offset=0x0 contiguous=1 aperture=0x10000+0x10000 moves=2 resident=1 pinned=0\n"
			"bo 9 owner=43:t size=4096 flags=0x0 segment=0 offset=0x0 contiguous=0 aperture=- moves=0 resident=0 pinned=1\n";
		static const char ap_text[] =
			"vseg aperture: segment=3 size=67108864 commit_limit=33554432 committed=65536 mapped=65536\n"
			"range start=0x10000 size=0x10000 bo=7\n";
		struct vseg_aperture_state st;
		struct vseg_allocations a;

		vseg_debugfs_parse_allocations(text, &a);
		igt_assert_eq(a.num, 2);
		igt_assert_eq_u64(a.bo[0].buffer_id, 7);
		igt_assert_eq(a.bo[0].pid, 42);
		igt_assert(!strcmp(a.bo[0].comm, "my test"));
		igt_assert_eq_u64(a.bo[0].size, SZ_64K);
		igt_assert_eq_u32(a.bo[0].segment, 3);
		igt_assert(a.bo[0].contiguous && a.bo[0].mapped &&
			   a.bo[0].resident && !a.bo[0].pinned);
		igt_assert_eq_u64(a.bo[0].ap_start, SZ_64K);
		igt_assert_eq_u64(a.bo[0].ap_size, SZ_64K);
		igt_assert_eq_u64(a.bo[0].moves, 2);
		igt_assert(!a.bo[1].mapped && a.bo[1].pinned);
		igt_assert(vseg_allocation_find(&a, 9) == &a.bo[1]);
		vseg_debugfs_free_allocations(&a);

		vseg_debugfs_parse_aperture(ap_text, &st);
		igt_assert_eq_u32(st.segment, 3);
		igt_assert_eq(st.num_ranges, 1);
		igt_assert_eq_u64(vseg_aperture_find(&st, 7)->start, SZ_64K);
		vseg_debugfs_free_aperture(&st);
	}

	igt_subtest("debugfs-malformed") {
		struct vseg_allocations a;

		/* A word without '=' that is not the owner's command name. */
		vseg_debugfs_parse_allocations("vseg allocations: count=1\n"
					       "bo 1 owner=1:t size=4096 bogus flags=0x0\n",
					       &a);
	}

	igt_subtest("ctx-segments") {
		struct drm_vseg_segment_info segs[DRM_VSEG_MAX_SEGMENTS];
		struct vseg_ctx ctx = VSEG_CTX_INIT(VSEG_LEFTOVERS_NONE);
		struct vseg_table t;

		example_table(&t);
		query_from_table(&t, &ctx.q, segs);
		ctx.segs = segs;
		igt_assert_eq(ctx.fd, -1);
		igt_assert(!strcmp(vseg_ctx_seg_name(&ctx, 0), "system"));
		igt_assert(!vseg_ctx_is_memory(&ctx, 0));
		for (uint32_t id = 1; id <= t.num_segments; id++) {
			const struct drm_vseg_segment_info *seg =
				vseg_ctx_seg(&ctx, id);

			igt_assert(seg == &segs[id - 1]);
			igt_assert(!strcmp(vseg_ctx_seg_name(&ctx, id),
					   t.seg[id - 1].name));
			igt_assert_eq(vseg_ctx_is_memory(&ctx, id),
				      t.seg[id - 1].kind ==
				      DRM_VSEG_SEGMENT_KIND_MEMORY);
		}
	}

	igt_subtest("table-add") {
		struct drm_vseg_segment_info *s;
		struct vseg_table t;

		memset(&t, 0, sizeof(t));
		vseg_table_add(&t, DRM_VSEG_SEGMENT_KIND_MEMORY, "a", 0, 0, 0,
			       SZ_16M, 0, SZ_16M, 0, SZ_4K);
		s = vseg_table_add(&t, DRM_VSEG_SEGMENT_KIND_APERTURE, "b", 1,
				   2, 3, 4, 5, 6, 7, 8);
		igt_assert_eq(t.num_segments, 2);
		igt_assert(s == &t.seg[1]);
		igt_assert_eq(s->id, 2);
		igt_assert(!strcmp(s->name, "b"));
		igt_assert_eq_u64(s->flags, 1);
		igt_assert_eq_u64(s->base_address, 2);
		igt_assert_eq_u64(s->cpu_translated_address, 3);
		igt_assert_eq_u64(s->size, 4);
		igt_assert_eq_u64(s->cpu_visible_size, 5);
		igt_assert_eq_u64(s->commit_limit, 6);
		igt_assert_eq_u64(s->system_memory_end_address, 7);
		igt_assert_eq(s->page_size, 8);
	}

	igt_subtest("seed-errname") {
		igt_assert_eq(setenv("VSEG_SEED", "0x1234", 1), 0);
		igt_assert_eq_u32(vseg_test_seed(7), 0x1234);
		igt_assert_eq(unsetenv("VSEG_SEED"), 0);
		igt_assert_eq_u32(vseg_test_seed(7), 7);
		igt_assert(!strcmp(vseg_errname(0), "success"));
		igt_assert(!strcmp(vseg_errname(-EINVAL), strerror(EINVAL)));
	}

	igt_subtest("test-scale") {
		/* (a child each: the percentage is read once per process) */
		static const struct {
			const char *env;
			unsigned int n, want;
		} cases[] = {
			{ NULL, 400, 400 },
			{ "", 400, 400 },
			{ "100", 10000, 10000 },
			{ "25", 400, 100 },
			{ "25", 10000, 2500 },
			{ "25", 3, 1 },
			{ "1", 50, 1 },
			{ "25", 0, 1 },
			{ "200", 800, 1600 },
			{ "10000", 4000000000u, 4294967295u },
			{ "0", 400, 400 },
			{ "10001", 400, 400 },
			{ "25%", 400, 400 },
			{ "-5", 400, 400 },
		};

		for (unsigned int i = 0; i < ARRAY_SIZE(cases); i++) {
			igt_fork(child, 1) {
				if (cases[i].env)
					igt_assert_eq(setenv("VSEG_TEST_SCALE",
							     cases[i].env, 1), 0);
				else
					igt_assert_eq(unsetenv("VSEG_TEST_SCALE"),
						      0);
				igt_assert_eq_u32(vseg_test_scale(cases[i].n),
						  cases[i].want);
			}
			igt_waitchildren();
		}
	}

	igt_subtest("flag-names") {
		igt_assert(!strcmp(vseg_flag_name(0), "Aperture"));
		igt_assert(!strcmp(vseg_flag_name(11), "Use64KBPages"));
		igt_assert(!strcmp(vseg_flag_name(20), "NonLocalBudgetGroup"));
		igt_assert(!strcmp(vseg_flag_name(21),
				   "PopulatedByReservedDDRByFirmware"));
		igt_assert(!vseg_flag_name(22));
	}

	igt_subtest("unprivileged-child") {
		int to_parent[2], to_child[2];

		igt_require(getuid() == 0);
		igt_assert_eq(pipe(to_parent), 0);
		igt_assert_eq(pipe(to_child), 0);
		igt_fork(child, 1) {
			uid_t r, e, s;
			gid_t rg, eg, sg;

			vseg_drop_privileges();
			igt_assert_eq(getresuid(&r, &e, &s), 0);
			igt_assert(r == VSEG_NOBODY && e == VSEG_NOBODY &&
				   s == VSEG_NOBODY);
			igt_assert_eq(getresgid(&rg, &eg, &sg), 0);
			igt_assert(rg == VSEG_NOBODY && eg == VSEG_NOBODY &&
				   sg == VSEG_NOBODY);
			igt_assert_eq(getgroups(0, NULL), 0);
			/* Root's again? Never. */
			igt_assert_eq(setresuid(0, 0, 0), -1);
			igt_assert_eq(errno, EPERM);
			vseg_sync_write(to_parent[1]);
			vseg_sync_read(to_child[0]);
		}
		vseg_sync_read(to_parent[0]);
		vseg_sync_write(to_child[1]);
		igt_waitchildren();
		igt_assert_eq(getuid(), 0);
		for (int i = 0; i < 2; i++) {
			close(to_parent[i]);
			close(to_child[i]);
		}
	}

	/* A peer that is gone fails the reader instead of hanging it. */
	igt_subtest("sync-dead-peer") {
		int p[2];

		igt_assert_eq(pipe(p), 0);
		close(p[1]);
		vseg_sync_read(p[0]);
	}
}
