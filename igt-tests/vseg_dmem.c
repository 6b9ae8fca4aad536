// SPDX-License-Identifier: MIT
/*
 * vseg_dmem: the dmem cgroup controller on vseg's memory segments: each
 * is a region TTM charges to the allocating process's cgroup; dmem.max
 * bounds a cgroup (and the budget its processes are told), dmem.min and
 * dmem.low keep a cgroup's buffers from being evicted by others.
 *
 * Copyright (c) 2026 The vseg authors
 */
/**
 * TEST: vseg dmem
 * Category: Core
 * Mega feature: General Core features
 * Sub-category: Memory management
 * Functionality: dmem cgroup
 * Description: The dmem cgroup controller (cgroup v2) on a kernel that has
 *	it: the memory segment's region, charges, dmem.max, dmem.min and
 *	dmem.low, and the residency budget under dmem.max, with two sibling
 *	cgroups under one parent. Skips where the kernel has no dmem
 *	controller or vseg registered no region.
 *
 * SUBTEST: region
 * Description: The memory segment is a region of dmem.capacity, named as
 *	vseg's debugfs "dmem" says, with the segment's size; making 1 MiB
 *	buffers resident there charges the process's cgroup (dmem.current)
 *	by 1 MiB each, evicting or freeing them uncharges it.
 *
 * SUBTEST: max
 * Description: An unprivileged process in a cgroup with dmem.max 2 MiB
 *	makes three 1 MiB buffers resident in the segment, which has room:
 *	the third evicts one of the cgroup's own buffers, as does a buffer
 *	that may live only in the segment, never one of the 4 MiB a sibling
 *	cgroup holds there; dmem.current never exceeds 2 MiB; the process
 *	cannot raise its dmem.max nor leave its cgroup.
 *
 * SUBTEST: max-budget
 * Description: In a cgroup with dmem.max 2 MiB of an 8 MiB group, the
 *	local Budget and AvailableForReservation are 2 MiB; a reservation
 *	above is -ENOSPC, 2 MiB is allowed; with 1 MiB resident the budget
 *	is still 2 MiB.
 *
 * SUBTEST: max-reclaim
 * Description: Lowering dmem.max below what a cgroup holds in the segment
 *	evicts the cgroup's buffers until it fits (TTM's reclaim), their
 *	content intact; another cgroup's buffers stay.
 *
 * SUBTEST: min
 * Description: A process in a cgroup with dmem.min 4 MiB holds 4 MiB in
 *	the 8 MiB segment; an unprivileged hostile process in the sibling
 *	cgroup pushing 12 MiB into it evicts none of them. With dmem.min 0 (the control), the same
 *	push evicts them.
 *
 * SUBTEST: low
 * Description: The same with dmem.low 4 MiB: the push evicts its own
 *	buffers rather than the protected ones.
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "igt.h"
#include "igt_vseg.h"

IGT_TEST_DESCRIPTION("The dmem cgroup controller on vseg's memory segments: "
		     "charges, dmem.max, dmem.min and dmem.low, budgets.");

#define MIB		(1ull << 20)
#define SEG_SIZE	(8 * MIB)
#define VRAM		1u
#define LOCAL		DRM_VSEG_BUDGET_GROUP_LOCAL
#define TABLE "discrete fbdev=0 table=" \
	"memory:name=vram,size=8M,flags=cpuvisible|applicationtarget|" \
	"localbudget,cpu=0xe0000000,visible=8M;" \
	"aperture:name=aperture,size=32M,flags=nonlocalbudget"
#define CG_ROOT		"/sys/fs/cgroup"
/*
 * Two siblings under a common parent: 7.3's dmem applies no protection
 * between cgroups whose common ancestor is the root cgroup.
 */
#define CG_P		CG_ROOT "/vseg"
#define CG_A		CG_P "/a"
#define CG_B		CG_P "/b"

static struct vseg_ctx ctx = VSEG_CTX_INIT(VSEG_LEFTOVERS_NONE);
/* "drm/<device>/seg1", from debugfs. */
static char region[128];

static int cg_write(const char *dir, const char *file, const char *val)
{
	char path[256];
	int fd, ret = 0;

	snprintf(path, sizeof(path), "%s/%s", dir, file);
	fd = open(path, O_WRONLY);
	if (fd < 0)
		return -errno;
	if (write(fd, val, strlen(val)) < 0)
		ret = -errno;
	close(fd);
	return ret;
}

/* Sets @file of cgroup @dir to "<region> <bytes>" ("max" for ~0). */
static int __cg_set(const char *dir, const char *file, uint64_t bytes)
{
	char val[192];

	if (bytes == ~0ull)
		snprintf(val, sizeof(val), "%s max", region);
	else
		snprintf(val, sizeof(val), "%s %llu", region,
			 (unsigned long long)bytes);
	return cg_write(dir, file, val);
}

static void cg_set(const char *dir, const char *file, uint64_t bytes)
{
	int err = __cg_set(dir, file, bytes);

	igt_assert_f(err == 0, "%s/%s: %d\n", dir, file, err);
}

/* The region's figure in @file of cgroup @dir (dmem.current...). */
static uint64_t cg_get(const char *dir, const char *file)
{
	char path[256], line[256];
	size_t n = strlen(region);
	uint64_t v = ~0ull;
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, file);
	f = fopen(path, "r");
	igt_assert_f(f, "cannot open %s\n", path);
	while (fgets(line, sizeof(line), f))
		if (!strncmp(line, region, n) && line[n] == ' ')
			v = strtoull(line + n + 1, NULL, 0);
	fclose(f);
	igt_assert_f(v != ~0ull, "%s has no %s\n", path, region);
	return v;
}

/* Freed buffers are uncharged when TTM releases them: wait up to 5 s. */
static void cg_wait(const char *dir, const char *file, uint64_t bytes)
{
	uint64_t v = cg_get(dir, file);

	for (int i = 0; i < 500 && v != bytes; i++) {
		usleep(10000);
		v = cg_get(dir, file);
	}
	igt_assert_f(v == bytes, "%s/%s: %llu, expected %llu\n", dir, file,
		     (unsigned long long)v, (unsigned long long)bytes);
}

static void cg_join(const char *dir)
{
	char pid[32];

	snprintf(pid, sizeof(pid), "%d", getpid());
	igt_assert_eq(cg_write(dir, "cgroup.procs", pid), 0);
}

static void cg_make(const char *dir)
{
	igt_assert(mkdir(dir, 0755) == 0 || errno == EEXIST);
	cg_set(dir, "dmem.max", ~0ull);
	cg_set(dir, "dmem.min", 0);
	cg_set(dir, "dmem.low", 0);
}

/* The fixture: cgroup v2 with dmem, and vseg's region for segment 1. */
static void dmem_setup(void)
{
	char buf[120], *p;
	struct stat st;
	int dfd;

	if (stat(CG_ROOT "/cgroup.controllers", &st) &&
	    mount("none", CG_ROOT, "cgroup2", 0, NULL))
		igt_info("mounting cgroup2 on %s: %s\n", CG_ROOT,
			 strerror(errno));
	/* The controller's files show once it is enabled for children. */
	cg_write(CG_ROOT, "cgroup.subtree_control", "+dmem");
	igt_require_f(stat(CG_ROOT "/dmem.capacity", &st) == 0,
		      "no dmem cgroup controller in this kernel\n");

	dfd = igt_debugfs_dir(ctx.fd);
	igt_require_f(dfd >= 0, "no debugfs\n");
	memset(buf, 0, sizeof(buf));
	igt_debugfs_simple_read(dfd, "dmem", buf, sizeof(buf) - 1);
	close(dfd);
	/* "1 drm/<device>/seg1" */
	igt_require_f(!strncmp(buf, "1 ", 2), "vseg registered no region\n");
	p = strchr(buf + 2, '\n');
	if (p)
		*p = 0;
	snprintf(region, sizeof(region), "%s", buf + 2);
	igt_assert(mkdir(CG_P, 0755) == 0 || errno == EEXIST);
	igt_assert_eq(cg_write(CG_P, "cgroup.subtree_control", "+dmem"), 0);
	cg_make(CG_A);
	cg_make(CG_B);
}

static void dmem_teardown(void)
{
	if (!region[0])
		return;
	rmdir(CG_A);
	rmdir(CG_B);
	rmdir(CG_P);
}

static struct drm_vseg_budget_info local_budget(int fd)
{
	struct drm_vseg_query_budget b;
	uint32_t size = sizeof(b);

	igt_assert_eq(__vseg_device_query(fd, DRM_VSEG_DEVICE_QUERY_BUDGET,
					  &b, &size), 0);
	return b.groups[LOCAL];
}

static int __reserve(int fd, uint64_t bytes)
{
	struct drm_vseg_set_reservation r = {
		.group = LOCAL,
		.reservation = bytes,
	};

	return __vseg_ioctl(fd, DRM_IOCTL_VSEG_SET_RESERVATION, &r);
}

/* A 1 MiB buffer that may live only in the memory segment. */
static uint32_t vram_only(int fd)
{
	struct drm_vseg_gem_create c;

	vseg_create_args(&c, MIB, 1u << VRAM, 0);
	vseg_create_prefer(&c, VRAM, 0);
	return vseg_gem_create(fd, &c);
}

/* @n 1 MiB buffers resident in the segment, filled with @seed + i. */
static void hold(int fd, uint32_t *h, unsigned int n, uint32_t seed)
{
	for (unsigned int i = 0; i < n; i++) {
		h[i] = vseg_gem_create_in(fd, MIB, VRAM, 0);
		vseg_make_resident(fd, &h[i], 1);
		igt_assert_eq_u32(vseg_gem_segment(fd, h[i]), VRAM);
		vseg_bo_fill_pattern(fd, h[i], MIB, seed + i);
	}
}

static unsigned int count_out(int fd, const uint32_t *h, unsigned int n)
{
	unsigned int out = 0;

	for (unsigned int i = 0; i < n; i++)
		out += vseg_gem_segment(fd, h[i]) != VRAM;
	return out;
}

static void check_release(int fd, uint32_t *h, unsigned int n, uint32_t seed,
			  const char *what)
{
	for (unsigned int i = 0; i < n; i++) {
		vseg_bo_check_pattern(fd, h[i], MIB, seed + i, what);
		vseg_gem_close(fd, h[i]);
	}
}

/* The region's size in dmem.capacity. */
static uint64_t region_capacity(void)
{
	FILE *f = fopen(CG_ROOT "/dmem.capacity", "r");
	size_t n = strlen(region);
	uint64_t size = 0;
	char line[256];

	igt_assert(f);
	while (fgets(line, sizeof(line), f))
		if (!strncmp(line, region, n) && line[n] == ' ')
			size = strtoull(line + n + 1, NULL, 0);
	fclose(f);
	return size;
}

static void test_region(void)
{
	uint32_t h[3];
	uint64_t base;
	int fd;

	vseg_ctx_start(&ctx);
	igt_assert_eq_u64(region_capacity(), SEG_SIZE);

	igt_fork(child, 1) {
		cg_join(CG_A);
		fd = drm_open_vseg_render();
		vseg_drop_privileges();
		base = cg_get(CG_A, "dmem.current");
		igt_assert_eq_u64(base, 0);
		for (unsigned int i = 0; i < 3; i++) {
			h[i] = vseg_gem_create_in(fd, MIB, VRAM, 0);
			vseg_make_resident(fd, &h[i], 1);
			igt_assert_eq_u32(vseg_gem_segment(fd, h[i]), VRAM);
			igt_assert_eq_u64(cg_get(CG_A, "dmem.current"),
					  (i + 1) * MIB);
		}
		/* The old placement goes once the move's copy is done. */
		vseg_evict(fd, &h[0], 1);
		igt_assert_neq_u32(vseg_gem_segment(fd, h[0]), VRAM);
		cg_wait(CG_A, "dmem.current", 2 * MIB);
		vseg_gem_close(fd, h[1]);
		cg_wait(CG_A, "dmem.current", MIB);
		vseg_gem_close(fd, h[0]);
		vseg_gem_close(fd, h[2]);
		cg_wait(CG_A, "dmem.current", 0);
		close(fd);
	}
	igt_waitchildren();
	vseg_ctx_finish(&ctx, "after the charges");
}

static void test_max(void)
{
	uint32_t other[4];
	int to_parent[2], to_child[2], done[2];

	vseg_ctx_start(&ctx);
	/* Another cgroup's 4 MiB in the segment. */
	igt_assert_eq(pipe(to_parent), 0);
	igt_assert_eq(pipe(to_child), 0);
	igt_assert_eq(pipe(done), 0);
	igt_fork(child, 1) {
		int fd;

		cg_join(CG_B);
		fd = drm_open_vseg_render();
		hold(fd, other, 4, 0xb0);
		vseg_sync_write(to_parent[1]);
		vseg_sync_read(to_child[0]);
		igt_assert_eq_u32(count_out(fd, other, 4), 0);
		check_release(fd, other, 4, 0xb0, "other cgroup");
		close(fd);
	}
	vseg_sync_read(to_parent[0]);

	cg_set(CG_A, "dmem.max", 2 * MIB);
	igt_fork(child, 1) {
		uint32_t h[3], only;
		int fd, err;

		cg_join(CG_A);
		fd = drm_open_vseg_render();
		vseg_drop_privileges();
		for (unsigned int i = 0; i < 3; i++) {
			h[i] = vseg_gem_create_in(fd, MIB, VRAM, 0);
			err = __vseg_make_resident(fd, &h[i], 1, NULL);
			igt_info("buffer %u: MAKE_RESIDENT %d, segment %u\n",
				 i, err, vseg_gem_segment(fd, h[i]));
			igt_assert(err == 0 || err == -ENOSPC);
			vseg_bo_fill_pattern(fd, h[i], MIB, 0xa0 + i);
			igt_assert(cg_get(CG_A, "dmem.current") <= 2 * MIB);
		}
		igt_assert_eq_u32(count_out(fd, h, 3), 1);
		igt_assert_eq_u64(cg_get(CG_A, "dmem.current"), 2 * MIB);

		/* Only the segment will do: one of its own goes. */
		only = vram_only(fd);
		vseg_make_resident(fd, &only, 1);
		igt_assert_eq_u32(vseg_gem_segment(fd, only), VRAM);
		igt_assert_eq_u32(count_out(fd, h, 3), 2);
		igt_assert_eq_u64(cg_get(CG_A, "dmem.current"), 2 * MIB);

		/* Hostile: neither a higher limit nor another cgroup. */
		igt_assert(__cg_set(CG_A, "dmem.max", ~0ull) < 0);
		igt_assert(cg_write(CG_ROOT, "cgroup.procs", "0") < 0);
		igt_assert(cg_write(CG_B, "cgroup.procs", "0") < 0);
		igt_assert_eq_u64(cg_get(CG_A, "dmem.max"), 2 * MIB);

		check_release(fd, h, 3, 0xa0, "over dmem.max");
		vseg_gem_close(fd, only);
		close(fd);
		vseg_sync_write(done[1]);
	}
	vseg_sync_read(done[0]);
	/* The first child checks its buffers stayed. */
	vseg_sync_write(to_child[1]);
	igt_waitchildren();
	for (unsigned int i = 0; i < 2; i++) {
		close(to_child[i]);
		close(to_parent[i]);
		close(done[i]);
	}
	cg_set(CG_A, "dmem.max", ~0ull);
	vseg_ctx_finish(&ctx, "after dmem.max");
}

static void test_max_budget(void)
{
	vseg_ctx_start(&ctx);
	cg_set(CG_A, "dmem.max", 2 * MIB);
	igt_fork(child, 1) {
		struct drm_vseg_budget_info l;
		uint32_t h;
		int fd;

		cg_join(CG_A);
		fd = drm_open_vseg_render();
		vseg_drop_privileges();
		l = local_budget(fd);
		igt_assert_eq_u64(l.group_size, SEG_SIZE);
		igt_info("dmem.max 2 MiB: budget %llu, available %llu\n",
			 (unsigned long long)l.budget,
			 (unsigned long long)l.available_for_reservation);
		igt_assert_eq_u64(l.budget, 2 * MIB);
		igt_assert_eq_u64(l.available_for_reservation, 2 * MIB);
		igt_assert_eq(__reserve(fd, 2 * MIB + 4096), -ENOSPC);
		igt_assert_eq_u64(local_budget(fd).current_reservation, 0);
		igt_assert_eq(__reserve(fd, 2 * MIB), 0);
		igt_assert_eq_u64(local_budget(fd).current_reservation,
				  2 * MIB);

		h = vseg_gem_create_in(fd, MIB, VRAM, 0);
		vseg_make_resident(fd, &h, 1);
		l = local_budget(fd);
		igt_assert_eq_u64(l.current_usage, MIB);
		igt_assert_eq_u64(l.budget, 2 * MIB);
		igt_assert_eq(__reserve(fd, 0), 0);
		vseg_gem_close(fd, h);
		close(fd);
	}
	igt_waitchildren();
	/* Outside the cgroup: the whole group. */
	igt_assert_eq_u64(local_budget(ctx.fd).budget, SEG_SIZE);
	cg_set(CG_A, "dmem.max", ~0ull);
	vseg_ctx_finish(&ctx, "after the budget under dmem.max");
}

static void test_max_reclaim(void)
{
	uint32_t mine[2];
	int to_parent[2], to_child[2];

	vseg_ctx_start(&ctx);
	hold(ctx.fd, mine, 2, 0x70);
	igt_assert_eq(pipe(to_parent), 0);
	igt_assert_eq(pipe(to_child), 0);
	igt_fork(child, 1) {
		uint32_t h[3];
		int fd;

		cg_join(CG_A);
		fd = drm_open_vseg_render();
		vseg_drop_privileges();
		hold(fd, h, 3, 0xc0);
		vseg_sync_write(to_parent[1]);
		vseg_sync_read(to_child[0]);
		igt_assert_eq_u32(count_out(fd, h, 3), 2);
		check_release(fd, h, 3, 0xc0, "after the reclaim");
		close(fd);
	}
	vseg_sync_read(to_parent[0]);
	igt_assert_eq_u64(cg_get(CG_A, "dmem.current"), 3 * MIB);
	cg_set(CG_A, "dmem.max", MIB);
	cg_wait(CG_A, "dmem.current", MIB);
	vseg_sync_write(to_child[1]);
	igt_waitchildren();
	igt_assert_eq_u32(count_out(ctx.fd, mine, 2), 0);
	check_release(ctx.fd, mine, 2, 0x70, "other cgroup after the reclaim");
	for (unsigned int i = 0; i < 2; i++) {
		close(to_child[i]);
		close(to_parent[i]);
	}
	cg_set(CG_A, "dmem.max", ~0ull);
	vseg_ctx_finish(&ctx, "after the reclaim");
}

/*
 * A process in CG_A holds 4 MiB in the 8 MiB segment; an unprivileged
 * hostile process in CG_B pushes 12 MiB. Returns how many of the 4 left.
 */
static unsigned int protected_push(void)
{
	int to_parent[2], to_child[2], res[2], done[2];
	unsigned int left = ~0u;

	igt_assert_eq(pipe(to_parent), 0);
	igt_assert_eq(pipe(to_child), 0);
	igt_assert_eq(pipe(res), 0);
	igt_assert_eq(pipe(done), 0);
	igt_fork(child, 1) {
		uint32_t h[4];
		unsigned int out;
		int fd;

		cg_join(CG_A);
		fd = drm_open_vseg_render();
		hold(fd, h, 4, 0xd0);
		igt_info("protected: dmem.current %llu min %llu low %llu\n",
			 (unsigned long long)cg_get(CG_A, "dmem.current"),
			 (unsigned long long)cg_get(CG_A, "dmem.min"),
			 (unsigned long long)cg_get(CG_A, "dmem.low"));
		vseg_sync_write(to_parent[1]);
		vseg_sync_read(to_child[0]);
		out = count_out(fd, h, 4);
		igt_info("protected after: dmem.current %llu, B %llu\n",
			 (unsigned long long)cg_get(CG_A, "dmem.current"),
			 (unsigned long long)cg_get(CG_B, "dmem.current"));
		igt_assert_eq(write(res[1], &out, sizeof(out)), sizeof(out));
		check_release(fd, h, 4, 0xd0, "after the push");
		close(fd);
	}
	vseg_sync_read(to_parent[0]);
	igt_fork(child, 1) {
		unsigned int in = 0;
		int fd;

		cg_join(CG_B);
		fd = drm_open_vseg_render();
		vseg_drop_privileges();
		for (unsigned int i = 0; i < 12; i++) {
			uint32_t ch = vseg_gem_create_in(fd, MIB, VRAM, 0);

			for (unsigned int k = 0; k < 2; k++)
				__vseg_make_resident(fd, &ch, 1, NULL);
			in += vseg_gem_segment(fd, ch) == VRAM;
		}
		igt_info("hostile: %u of 12 buffers in the segment\n", in);
		close(fd);
		vseg_sync_write(done[1]);
	}
	vseg_sync_read(done[0]);
	vseg_sync_write(to_child[1]);
	igt_assert_eq(read(res[0], &left, sizeof(left)), sizeof(left));
	igt_waitchildren();
	for (unsigned int i = 0; i < 2; i++) {
		close(to_child[i]);
		close(to_parent[i]);
		close(res[i]);
		close(done[i]);
	}
	return left;
}

static void test_protect(const char *file)
{
	unsigned int left;

	vseg_ctx_start(&ctx);
	cg_set(CG_A, file, 4 * MIB);
	left = protected_push();
	igt_info("%s 4 MiB: %u of 4 protected buffers evicted\n", file, left);
	igt_assert_eq_u32(left, 0);

	cg_set(CG_A, file, 0);
	left = protected_push();
	igt_info("%s 0 (control): %u of 4 buffers evicted\n", file, left);
	igt_assert_f(left > 0,
		     "the control evicted nothing: the push proves nothing\n");
	vseg_ctx_finish(&ctx, "after the pushes");
}

igt_main
{
	igt_fixture {
		vseg_ctx_setup(&ctx);
		vseg_ctx_load(&ctx, TABLE);
		dmem_setup();
	}

	igt_describe("The segment's region; charges follow residency.");
	igt_subtest("region")
		test_region();

	igt_describe("dmem.max bounds a cgroup, which evicts only its own.");
	igt_subtest("max")
		test_max();

	igt_describe("The budget respects dmem.max.");
	igt_subtest("max-budget")
		test_max_budget();

	igt_describe("A lower dmem.max reclaims the cgroup's buffers.");
	igt_subtest("max-reclaim")
		test_max_reclaim();

	igt_describe("dmem.min protects against a hostile process.");
	igt_subtest("min")
		test_protect("dmem.min");

	igt_describe("dmem.low protects against a hostile process.");
	igt_subtest("low")
		test_protect("dmem.low");

	igt_fixture {
		dmem_teardown();
		vseg_ctx_unload(&ctx);
	}
}
