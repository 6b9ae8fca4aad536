// SPDX-License-Identifier: MIT
/*
 * vseg_pm: standby and hibernate through sysfs "pm". Four memory
 * segments, one per combination of the Preserved flags, hold buffers
 * below and above SystemMemoryEndAddress, pinned and AccessedPhysically
 * ones; each transition moves exactly the buffers the flags say, keeps
 * every byte, and poisons only the memory that lost power.
 *
 * Copyright (c) 2026 The vseg authors
 */
/**
 * TEST: vseg pm
 * Category: Core
 * Mega feature: General Core features
 * Sub-category: Memory management
 * Functionality: power management
 * Description: Standby and hibernate (sysfs "pm"), driven by the
 *	segments' PreservedDuringStandby, PreservedDuringHibernate and
 *	PartiallyPreservedDuringHibernate flags and SystemMemoryEndAddress.
 *
 * SUBTEST: standby
 * Description: Standby evicts every unpinned buffer of the segment without
 *	PreservedDuringStandby, keeps the pinned one in place with its
 *	content, leaves the other segments alone; every byte of every buffer
 *	is intact; only the unpreserved segment is poisoned.
 *
 * SUBTEST: hibernate
 * Description: Hibernate evicts the unpinned buffers of the segments
 *	without a hibernate flag and, in the partially preserved segment,
 *	only the buffer ending after SystemMemoryEndAddress; the preserved
 *	segment keeps its buffers; every byte is intact.
 *
 * SUBTEST: jobs-in-flight
 * Description: A copy-engine FILL of a buffer in the unpreserved segment
 *	is still queued when standby is triggered: the transition waits for
 *	it, the buffer is evicted with the filled content.
 *
 * SUBTEST: hostile-client
 * Description: A render-node client's buffers survive a transition
 *	another process triggers, its new buffers in memory that lost power
 *	read zero, never poison; without root it cannot trigger one.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "igt.h"
#include "igt_vseg.h"

IGT_TEST_DESCRIPTION("Standby and hibernate through sysfs pm: the "
		     "Preserved flags and SystemMemoryEndAddress decide what "
		     "is evicted, saved and poisoned.");

#define AP_FLAG		DRM_VSEG_GEM_CREATE_ACCESSED_PHYSICALLY
#define TOP_FLAG	DRM_VSEG_GEM_CREATE_FROM_END_OF_SEGMENT
#define PIN		DRM_VSEG_RESIDENCY_PIN
#define RW		(PROT_READ | PROT_WRITE)
#define SEG_SIZE	SZ_8M
#define BUF		SZ_1M
#define SMALL		(256 * SZ_1K)

/* One memory segment per combination of the flags, all CPU-visible. */
#define SEGMENTS \
	"memory:name=stby,size=8M,flags=cpuvisible|standby,cpu=0xe0000000;" \
	"memory:name=hib,size=8M,flags=cpuvisible|standby|hibernate,cpu=0xe1000000;" \
	"memory:name=part,size=8M,flags=cpuvisible|standby|partialhibernate,sysend=4M,cpu=0xe2000000;" \
	"memory:name=none,size=8M,flags=cpuvisible,cpu=0xe3000000;" \
	"aperture:name=gart,size=16M,commit=8M"

enum { STBY, HIB, PART, NONE, NUM_SEGS };
static const char * const seg_names[NUM_SEGS] = { "stby", "hib", "part", "none" };

static struct vseg_ctx ctx = VSEG_CTX_INIT(VSEG_LEFTOVERS_NONE_OURS);
static uint32_t seg_id[NUM_SEGS];

/* The buffers of one segment. */
enum { LO, HI, PINNED, APHYS, NUM_BUFS };
static const uint64_t buf_size[NUM_BUFS] = { BUF, BUF, SMALL, SMALL };

struct pm_set {
	uint32_t h[NUM_SEGS][NUM_BUFS];
	uint64_t moves[NUM_SEGS][NUM_BUFS];
	uint32_t seg[NUM_SEGS][NUM_BUFS];
};

static void load(void)
{
	vseg_ctx_load_f(&ctx, "discrete table=%s", SEGMENTS);
	for (int s = 0; s < NUM_SEGS; s++)
		seg_id[s] = vseg_segment_by_name(&ctx.q, ctx.segs, seg_names[s]);
}

static uint32_t create_in(int fd, uint64_t size, uint32_t seg, uint32_t flags)
{
	struct drm_vseg_gem_create c;

	vseg_create_args(&c, size, BIT(seg) | BIT(0), flags);
	vseg_create_prefer(&c, seg, 0);
	return vseg_gem_create(fd, &c);
}

/* Write "standby" or "hibernate" to the device's sysfs pm: 0 or -errno. */
static int __trigger(const char *kind)
{
	int f = open("/sys/bus/platform/devices/vseg/pm", O_WRONLY | O_CLOEXEC);
	int ret = 0;

	if (f < 0)
		return -errno;
	if (write(f, kind, strlen(kind)) != (ssize_t)strlen(kind))
		ret = -errno;
	close(f);
	return ret;
}

static void trigger(const char *kind)
{
	int err = __trigger(kind);

	igt_assert_f(!err, "pm %s: %s\n", kind, vseg_errname(err));
}

struct pm_counts {
	uint64_t evicted, evicted_bytes, saved, saved_bytes, poisoned;
};

static bool is_value(const struct vseg_debugfs_line *l, const char *key,
		     const char *want)
{
	const char *v = vseg_debugfs_value(l, key);

	return v && !strcmp(v, want);
}

static void read_counts(struct pm_counts c[NUM_SEGS], const char *last)
{
	struct vseg_debugfs_file f;
	bool seen[NUM_SEGS] = {};

	vseg_debugfs_read(ctx.fd, "pm", NULL, &f);
	igt_assert(f.num_lines >= 1);
	igt_assert(is_value(&f.line[0], "state", "none"));
	igt_assert(is_value(&f.line[0], "last", last));
	igt_assert_eq_u64(vseg_debugfs_u64(&f.line[0], "result"), 0);
	for (unsigned int i = 1; i < f.num_lines; i++) {
		const struct vseg_debugfs_line *l = &f.line[i];

		igt_assert(vseg_debugfs_is(l, "segment"));
		for (int s = 0; s < NUM_SEGS; s++) {
			if (l->id != seg_id[s])
				continue;
			c[s].evicted = vseg_debugfs_u64(l, "evicted");
			c[s].evicted_bytes = vseg_debugfs_u64(l, "evicted_bytes");
			c[s].saved = vseg_debugfs_u64(l, "saved");
			c[s].saved_bytes = vseg_debugfs_u64(l, "saved_bytes");
			c[s].poisoned = vseg_debugfs_u64(l, "poisoned_bytes");
			seen[s] = true;
		}
	}
	vseg_debugfs_free(&f);
	for (int s = 0; s < NUM_SEGS; s++)
		igt_assert_f(seen[s], "debugfs pm has no line for %s\n",
			     seg_names[s]);
}

static uint32_t seed_of(int s, int b)
{
	return 100 + s * NUM_BUFS + b;
}

/*
 * In each segment: a buffer at the bottom (below sysend in "part"), one at
 * the top (above it), a pinned one and an AccessedPhysically one, each
 * filled with its own pattern.
 */
static void populate(struct pm_set *set)
{
	struct drm_vseg_gem_info i;

	for (int s = 0; s < NUM_SEGS; s++) {
		uint32_t *h = set->h[s];

		h[LO] = create_in(ctx.fd, BUF, seg_id[s], 0);
		h[HI] = create_in(ctx.fd, BUF, seg_id[s], TOP_FLAG);
		h[PINNED] = create_in(ctx.fd, SMALL, seg_id[s], 0);
		igt_assert_eq(__vseg_make_resident_flags(ctx.fd, &h[PINNED], 1,
							 PIN, NULL), 0);
		h[APHYS] = create_in(ctx.fd, SMALL, seg_id[s], AP_FLAG);
		for (int b = 0; b < NUM_BUFS; b++) {
			vseg_gem_info(ctx.fd, h[b], &i);
			igt_assert_eq_u32(i.segment_id, seg_id[s]);
			vseg_bo_fill_pattern(ctx.fd, h[b], buf_size[b],
					     seed_of(s, b));
			vseg_gem_info(ctx.fd, h[b], &i);
			set->moves[s][b] = i.moves;
			set->seg[s][b] = i.segment_id;
		}
		vseg_gem_info(ctx.fd, h[HI], &i);
		igt_assert_f(i.offset >= SEG_SIZE / 2,
			     "%s: top buffer at 0x%llx\n", seg_names[s],
			     (unsigned long long)i.offset);
		vseg_gem_info(ctx.fd, h[LO], &i);
		igt_assert(i.offset + BUF <= SEG_SIZE / 2);
	}
}

/*
 * After a transition: the buffers of @lost segments (bit per segment) are
 * in system memory, but the pinned one; in "part" with @partial only the
 * top buffer is; every other buffer did not move; every byte is intact.
 * The counters say so, and the pinned buffers of the @power_lost
 * segments were saved and poisoned, nothing else.
 */
static void verify(const struct pm_set *set, unsigned int lost,
		   unsigned int power_lost, bool partial, const char *last)
{
	struct pm_counts c[NUM_SEGS] = {};
	struct drm_vseg_gem_info i;

	read_counts(c, last);
	for (int s = 0; s < NUM_SEGS; s++) {
		uint64_t evicted = 0, bytes = 0;

		for (int b = 0; b < NUM_BUFS; b++) {
			bool gone = b != PINNED &&
				    ((lost & BIT(s)) ||
				     (partial && s == PART && b == HI));
			char what[64];

			vseg_gem_info(ctx.fd, set->h[s][b], &i);
			snprintf(what, sizeof(what), "%s buffer %d",
				 seg_names[s], b);
			igt_assert_f(i.segment_id == (gone ? 0 : set->seg[s][b]),
				     "%s in segment %u\n", what, i.segment_id);
			igt_assert_eq_u64(i.moves,
					  set->moves[s][b] + (gone ? 1 : 0));
			vseg_bo_check_pattern(ctx.fd, set->h[s][b],
					      buf_size[b], seed_of(s, b), what);
			if (gone) {
				evicted++;
				bytes += buf_size[b];
			}
		}
		igt_assert_eq_u64(c[s].evicted, evicted);
		igt_assert_eq_u64(c[s].evicted_bytes, bytes);
		/* The pinned buffer's pages: all that is backed there now. */
		igt_assert_eq_u64(c[s].saved, (power_lost & BIT(s)) ? 1 : 0);
		igt_assert_eq_u64(c[s].saved_bytes,
				  (power_lost & BIT(s)) ? SMALL : 0);
		igt_assert_eq_u64(c[s].poisoned,
				  (power_lost & BIT(s)) ? SMALL : 0);
	}
}

/* New buffers filling what is free of each segment read zero. */
static void check_new_zero(int fd)
{
	for (int s = 0; s < NUM_SEGS; s++) {
		uint32_t h = create_in(fd, SMALL, seg_id[s], 0);

		vseg_bo_check_zero(fd, h, SMALL, "a new buffer");
		vseg_gem_close(fd, h);
	}
}

static void close_set(struct pm_set *set)
{
	for (int s = 0; s < NUM_SEGS; s++)
		for (int b = 0; b < NUM_BUFS; b++)
			vseg_gem_close(ctx.fd, set->h[s][b]);
}

static void test_standby(void)
{
	struct pm_set set;

	load();
	populate(&set);
	trigger("standby");
	verify(&set, BIT(NONE), BIT(NONE), false, "standby");
	check_new_zero(ctx.fd);
	close_set(&set);
}

static void test_hibernate(void)
{
	struct pm_set set;

	load();
	populate(&set);
	trigger("hibernate");
	verify(&set, BIT(NONE) | BIT(STBY), BIT(NONE) | BIT(STBY), true,
	       "hibernate");
	check_new_zero(ctx.fd);
	/* And once more: nothing is left to evict, everything stays. */
	for (int s = 0; s < NUM_SEGS; s++)
		for (int b = 0; b < NUM_BUFS; b++) {
			struct drm_vseg_gem_info i;

			vseg_gem_info(ctx.fd, set.h[s][b], &i);
			set.moves[s][b] = i.moves;
			set.seg[s][b] = i.segment_id;
		}
	trigger("hibernate");
	verify(&set, 0, BIT(NONE) | BIT(STBY), false, "hibernate");
	close_set(&set);
}

static void test_jobs_in_flight(void)
{
	struct drm_vseg_gem_info i;
	struct vseg_cmdbuf cb;
	uint32_t h, *p;

	load();
	vseg_require_engine(ctx.fd);
	h = create_in(ctx.fd, SZ_4M, seg_id[NONE], AP_FLAG);
	vseg_cb_init(&cb);
	for (int r = 0; r < 16; r++)
		vseg_cb_fill_phys(&cb, h, 0, SZ_4M, 0x5a5a0000u + r);
	vseg_cb_submit(ctx.fd, DRM_VSEG_ENGINE_COPY, &cb, NULL, 0, NULL, 0);
	trigger("standby");
	vseg_gem_info(ctx.fd, h, &i);
	igt_assert_eq_u32(i.segment_id, 0);
	p = vseg_gem_mmap(ctx.fd, h, SZ_4M, PROT_READ);
	for (uint64_t k = 0; k < SZ_4M / 4; k++)
		igt_assert_f(p[k] == 0x5a5a000fu, "word %llu is 0x%x\n",
			     (unsigned long long)k, p[k]);
	munmap(p, SZ_4M);
	vseg_cb_fini(&cb);
	vseg_gem_close(ctx.fd, h);
}

static void test_hostile_client(void)
{
	int go[2], done[2];
	char c = 0;

	load();
	igt_assert(pipe(go) == 0 && pipe(done) == 0);
	igt_fork(child, 1) {
		int fd = drm_open_vseg_render();
		uint32_t h[NUM_SEGS];

		for (int s = 0; s < NUM_SEGS; s++) {
			h[s] = create_in(fd, BUF, seg_id[s], 0);
			vseg_bo_fill_pattern(fd, h[s], BUF, 7 + s);
		}
		igt_assert(write(done[1], &c, 1) == 1);
		igt_assert(read(go[0], &c, 1) == 1);
		for (int s = 0; s < NUM_SEGS; s++)
			vseg_bo_check_pattern(fd, h[s], BUF, 7 + s,
					      "the client's buffer");
		/* Memory that lost power: new buffers read zero. */
		check_new_zero(fd);
		/* Not root: no transition. */
		igt_assert(setgid(65534) == 0 && setuid(65534) == 0);
		igt_assert(__trigger("standby") != 0);
		close(fd);
	}
	igt_assert(read(done[0], &c, 1) == 1);
	trigger("hibernate");
	trigger("standby");
	igt_assert(write(go[1], &c, 1) == 1);
	igt_waitchildren();
	close(go[0]);
	close(go[1]);
	close(done[0]);
	close(done[1]);
}

igt_main
{
	static const struct {
		const char *name;
		void (*test)(void);
		const char *describe;
	} tests[] = {
		{ "standby", test_standby,
		  "Standby evicts the buffers of the segment without "
		  "PreservedDuringStandby but the pinned one; every byte is "
		  "intact; only that segment is poisoned." },
		{ "hibernate", test_hibernate,
		  "Hibernate evicts the buffers of the segments without a "
		  "hibernate flag and the partially preserved segment's "
		  "buffer ending after SystemMemoryEndAddress." },
		{ "jobs-in-flight", test_jobs_in_flight,
		  "A queued copy-engine FILL ends before its buffer is "
		  "evicted by standby." },
		{ "hostile-client", test_hostile_client,
		  "A render-node client's buffers survive another's "
		  "transition, it never sees poison and cannot trigger one." },
	};

	igt_fixture
		vseg_ctx_setup(&ctx);

	for (unsigned int i = 0; i < ARRAY_SIZE(tests); i++) {
		igt_describe(tests[i].describe);
		igt_subtest(tests[i].name) {
			tests[i].test();
			vseg_ctx_finish(&ctx, tests[i].name);
		}
	}

	igt_fixture
		vseg_ctx_unload(&ctx);
}
