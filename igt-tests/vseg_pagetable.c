// SPDX-License-Identifier: MIT
/*
 * vseg_pagetable: the GPU page tables (WDDM v2 GpuMmu) the render engine
 * walks. A bind writes its mapping's entries (4 KiB ones, 64 KiB ones in a
 * 64 KiB-page segment, system-page ones in the aperture), which debugfs
 * "pagetables" shows; render jobs read and write through them; an unbound
 * or read-only address faults the job; a move of a bound buffer rewrites
 * its entries through UPDATE_PT and FLUSH_TLB paging operations; another,
 * unprivileged, process never reaches this one's buffers.
 *
 * Copyright (c) 2026 The vseg authors
 */
/**
 * TEST: vseg pagetable
 * Category: Core
 * Mega feature: General Core features
 * Sub-category: Memory management
 * Functionality: GPU page tables
 * Description: GPU page tables: entries per bind and page size (debugfs),
 *	jobs through them, faults on unbound and read-only addresses, entries
 *	that follow moves (UPDATE_PT, FLUSH_TLB), and process isolation.
 *
 * SUBTEST: entries
 * Description: A 1 MiB buffer bound in the 64 KiB-page segment gets 256
 *	valid 64 KiB-page entries, in the 4 KiB-page segment 256 4 KiB ones,
 *	in the aperture 256 4 KiB system-page ones; bound read-only, they
 *	are read-only; evicted to system memory while bound, its entries go
 *	invalid; made resident again they come back; unbound they are gone.
 *
 * SUBTEST: read-write
 * Description: FILL, WRITE and COPY by GPU virtual address through the
 *	page tables, between buffers in the 64 KiB-page segment, the 4 KiB-page
 *	segment and the aperture; every byte checked through mmap.
 *
 * SUBTEST: unbind-fault
 * Description: After VM_UNBIND a job on the address fails with EFAULT and
 *	the buffer keeps its bytes; bound again it works.
 *
 * SUBTEST: readonly-fault
 * Description: A write (FILL, WRITE, COPY into) through a read-only mapping
 *	fails the job with EFAULT and leaves the buffer untouched; a COPY out
 *	of it works.
 *
 * SUBTEST: evict-follow
 * Description: A bound buffer written by a job is evicted to system memory
 *	and made resident again, four times: its entries follow each move
 *	(the UPDATE_PT and FLUSH_TLB counters grow) and a job still reads the
 *	right bytes through the same address.
 *
 * SUBTEST: hostile-process
 * Description: An unprivileged process on the render node, with its own
 *	address space: the addresses where this one's buffers are bound, and
 *	addresses guessed around them, fault its jobs (before and after this
 *	one unbinds and moves its buffers); bound in its own space at the same
 *	addresses, its own buffers are what its jobs reach; this process's
 *	bytes never change.
 *
 * SUBTEST: table-bound
 * Description: An unprivileged process binds and unbinds a buffer at
 *	addresses 2 MiB apart, each needing a new page-table page, until
 *	VM_BIND fails: it fails with ENOSPC once the process's tables reach
 *	its pin bound of the aperture (pin_limit_percent, loaded as 5% of
 *	the commit limit to keep the loop short), not before nine tenths of
 *	it; meanwhile this process still makes a buffer of a third of the
 *	aperture resident there and reads its bytes back.
 *
 * SUBTEST: tables-evicted
 * Description: An unprivileged process fills the aperture with its own
 *	buffers, made resident there: TTM evicts this process's idle page
 *	tables (debugfs counts the evictions, the evicted leaves map
 *	nothing); this process's next job brings them back (debugfs counts
 *	the restores, every entry valid again) and copies the right bytes
 *	through them; the other process's buffers, evicted to make room,
 *	keep their bytes.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "igt.h"
#include "igt_vseg.h"
#include "igt_vseg_exec.h"

IGT_TEST_DESCRIPTION("GPU page tables: entries per bind and page size "
		     "(debugfs), jobs through them, faults on unbound and "
		     "read-only addresses, entries that follow moves "
		     "(UPDATE_PT, FLUSH_TLB), and process isolation.");

#define RENDER		DRM_VSEG_ENGINE_RENDER
#define VA_BASE		0x200000000ull
#define SIZE		0x100000ull	/* 1 MiB: 256 pages of 4 KiB */
#define PAGES		(SIZE / 4096)

static struct vseg_ctx ctx = VSEG_CTX_INIT_ENGINE(VSEG_LEFTOVERS_BASE_COUNT);
/* The discrete profile: "vram" has 64 KiB pages, "local" 4 KiB. */
static uint32_t big_id, small_id;

/**
 * struct pt_figures - this process's VA spaces in debugfs "pagetables"
 * @valid: valid leaf entries.
 * @valid_4k: of which 4 KiB ones.
 * @valid_64k: of which parts of 64 KiB pages.
 * @readonly: of which read-only.
 * @system: of which naming system pages.
 */
struct pt_figures {
	uint64_t valid;
	uint64_t valid_4k;
	uint64_t valid_64k;
	uint64_t readonly;
	uint64_t system;
};

/*
 * This process's VA space's evicted pages now, evictions and restores so
 * far (debugfs "pagetables").
 */
static void pt_read_evictions(uint64_t *evicted, uint64_t *evictions,
			      uint64_t *restores)
{
	char *text = vseg_debugfs_read_text(ctx.fd, "pagetables"), *l;
	unsigned long long e, ev, r;
	int pid, found = 0;

	for (l = text; l && *l; l = strchr(l, '\n'), l = l ? l + 1 : NULL) {
		const char *p = strstr(l, " evicted=");

		if (sscanf(l, "space pid=%d", &pid) != 1 || pid != getpid())
			continue;
		igt_assert_f(p && sscanf(p, " evicted=%llu evictions=%llu restores=%llu",
					 &e, &ev, &r) == 3,
			     "debugfs pagetables: a line without eviction figures\n");
		*evicted = e;
		*evictions = ev;
		*restores = r;
		found++;
	}
	free(text);
	igt_assert_eq(found, 1);
}

/* The sum over this process's VA spaces. */
static void pt_read(struct pt_figures *f)
{
	char *text = vseg_debugfs_read_text(ctx.fd, "pagetables"), *l;
	unsigned long long v, v4, v64, ro, sys;
	int pid;

	memset(f, 0, sizeof(*f));
	for (l = text; l && *l; l = strchr(l, '\n'), l = l ? l + 1 : NULL) {
		const char *p = strstr(l, " valid=");

		if (sscanf(l, "space pid=%d", &pid) != 1 || pid != getpid())
			continue;
		igt_assert_f(p && sscanf(p, " valid=%llu valid_4k=%llu valid_64k=%llu readonly=%llu system=%llu",
					 &v, &v4, &v64, &ro, &sys) == 5,
			     "debugfs pagetables: a line without figures\n");
		f->valid += v;
		f->valid_4k += v4;
		f->valid_64k += v64;
		f->readonly += ro;
		f->system += sys;
	}
	free(text);
}

static void pt_expect(const struct pt_figures *before, uint64_t v4,
		      uint64_t v64, uint64_t ro, uint64_t sys,
		      const char *what)
{
	struct pt_figures now;

	pt_read(&now);
	igt_assert_f(now.valid_4k == before->valid_4k + v4 &&
		     now.valid_64k == before->valid_64k + v64 &&
		     now.readonly == before->readonly + ro &&
		     now.system == before->system + sys,
		     "%s: entries 4k %llu (want %llu) 64k %llu (want %llu) readonly %llu (want %llu) system %llu (want %llu)\n",
		     what, (unsigned long long)now.valid_4k,
		     (unsigned long long)(before->valid_4k + v4),
		     (unsigned long long)now.valid_64k,
		     (unsigned long long)(before->valid_64k + v64),
		     (unsigned long long)now.readonly,
		     (unsigned long long)(before->readonly + ro),
		     (unsigned long long)now.system,
		     (unsigned long long)(before->system + sys));
}

/* A 1 MiB buffer of @fd that may live in @seg or the aperture, in @seg. */
static uint32_t create_in(int fd, uint32_t seg)
{
	struct drm_vseg_gem_create c;
	uint32_t h;

	vseg_create_args(&c, SIZE, BIT(seg) | BIT(ctx.ap_id), 0);
	vseg_create_prefer(&c, seg, 0);
	h = vseg_gem_create(fd, &c);
	vseg_make_resident(fd, &h, 1);
	igt_assert_eq_u32(vseg_gem_segment(fd, h), seg);
	return h;
}

static uint64_t paging_op(unsigned int op)
{
	struct vseg_paging p;

	vseg_debugfs_read_paging(ctx.fd, &p);
	return p.engine.op[op];
}

static void check_bytes(int fd, uint32_t h, const void *want, const char *what)
{
	void *got = malloc(SIZE);

	igt_assert(got);
	vseg_bo_read(fd, h, 0, got, SIZE);
	vseg_assert_same(got, want, SIZE, 0, what);
	free(got);
}

/*
 * Moves end on the paging engine after the ioctl: wait for a buffer's
 * last one. In system memory, a CPU read (which waits for it); else a
 * render job copying 8 bytes of it onto themselves (which waits for it,
 * and keeps the buffer where it is).
 */
static void settle(uint32_t h, uint64_t va)
{
	struct vseg_cmdbuf cb;
	uint64_t x;

	if (!vseg_gem_segment(ctx.fd, h)) {
		vseg_bo_read(ctx.fd, h, 0, &x, sizeof(x));
		return;
	}
	vseg_cb_init(&cb);
	vseg_cb_copy(&cb, va, va, 8);
	vseg_cb_exec_ok(ctx.fd, RENDER, &cb, "a job after a move");
	vseg_cb_fini(&cb);
}

/* Unbind the pair bound at VA_BASE and VA_BASE + 2 * SIZE, close them. */
static void release_pair(uint32_t h, uint32_t o)
{
	vseg_vm_unbind(ctx.fd, VA_BASE);
	vseg_vm_unbind(ctx.fd, VA_BASE + 2 * SIZE);
	vseg_gem_close(ctx.fd, h);
	vseg_gem_close(ctx.fd, o);
}

/* --- entries ------------------------------------------------------------ */

static void test_entries(void)
{
	const uint32_t segs[] = { big_id, small_id, ctx.ap_id };
	struct pt_figures base, tmp;
	uint64_t va = VA_BASE;

	pt_read(&base);
	for (unsigned int i = 0; i < ARRAY_SIZE(segs); i++, va += 2 * SIZE) {
		bool big = segs[i] == big_id, sys = segs[i] == ctx.ap_id;
		uint32_t h = create_in(ctx.fd, segs[i]);
		char what[64];

		snprintf(what, sizeof(what), "bound in %s",
			 vseg_ctx_seg_name(&ctx, segs[i]));
		vseg_vm_bind(ctx.fd, h, va);
		pt_expect(&base, big ? 0 : PAGES, big ? PAGES : 0, 0,
			  sys ? PAGES : 0, what);

		/* Evicted while bound: nothing to reach. */
		vseg_evict(ctx.fd, &h, 1);
		igt_assert_eq_u32(vseg_gem_segment(ctx.fd, h), 0);
		settle(h, va);
		pt_expect(&base, 0, 0, 0, 0, "evicted while bound");
		vseg_make_resident(ctx.fd, &h, 1);
		settle(h, va);
		pt_expect(&base, vseg_gem_segment(ctx.fd, h) == big_id ? 0 : PAGES,
			  vseg_gem_segment(ctx.fd, h) == big_id ? PAGES : 0, 0,
			  vseg_gem_segment(ctx.fd, h) == ctx.ap_id ? PAGES : 0,
			  "resident again");
		vseg_vm_unbind(ctx.fd, va);
		pt_expect(&base, 0, 0, 0, 0, "unbound");

		/* Read-only. */
		vseg_vm_bind_range(ctx.fd, h, va, 0, 0,
				   DRM_VSEG_VM_BIND_READONLY, NULL, 0, NULL, 0);
		pt_read(&tmp);
		igt_assert_eq_u64(tmp.readonly, base.readonly + PAGES);
		vseg_vm_unbind(ctx.fd, va);
		vseg_gem_close(ctx.fd, h);
	}
}

/* --- jobs through the tables ------------------------------------------------ */

static void test_read_write(void)
{
	const uint32_t segs[] = { big_id, small_id, ctx.ap_id };
	uint8_t *model[3];
	uint32_t h[3];
	uint64_t va[3];
	struct vseg_cmdbuf cb;

	for (unsigned int i = 0; i < 3; i++) {
		h[i] = create_in(ctx.fd, segs[i]);
		va[i] = VA_BASE + 2 * i * SIZE;
		vseg_vm_bind(ctx.fd, h[i], va[i]);
		model[i] = malloc(SIZE);
		igt_assert(model[i]);
		vseg_pattern_fill(model[i], SIZE, 0x1000 + i);
		vseg_bo_write(ctx.fd, h[i], 0, model[i], SIZE);
	}
	vseg_cb_init(&cb);
	for (unsigned int i = 0; i < 3; i++) {
		unsigned int j = (i + 1) % 3;
		uint64_t v = 0x1122334455667788ull + i;

		vseg_cb_reset(&cb);
		/* Half of i into j, a fill and a write across pages. */
		vseg_cb_copy(&cb, va[j], va[i] + SIZE / 4, SIZE / 2);
		memmove(model[j], model[i] + SIZE / 4, SIZE / 2);
		vseg_cb_fill(&cb, va[i] + 4096 - 64, 8192, 0xa5a50000 + i);
		vseg_fill32(model[i] + 4096 - 64, 8192, 0xa5a50000 + i);
		vseg_cb_write(&cb, va[j] + SIZE - 8, v);
		memcpy(model[j] + SIZE - 8, &v, 8);
		vseg_cb_exec_ok(ctx.fd, RENDER, &cb, "a job through the tables");
		check_bytes(ctx.fd, h[i], model[i], "source and fill");
		check_bytes(ctx.fd, h[j], model[j], "copy destination");
	}
	vseg_cb_fini(&cb);
	for (unsigned int i = 0; i < 3; i++) {
		vseg_vm_unbind(ctx.fd, va[i]);
		vseg_gem_close(ctx.fd, h[i]);
		free(model[i]);
	}
}

static void test_unbind_fault(void)
{
	uint8_t *model = malloc(SIZE);
	struct vseg_cmdbuf cb;
	uint32_t h = create_in(ctx.fd, small_id);

	igt_assert(model);
	vseg_pattern_fill(model, SIZE, 0x2000);
	vseg_bo_write(ctx.fd, h, 0, model, SIZE);
	vseg_vm_bind(ctx.fd, h, VA_BASE);
	vseg_vm_unbind(ctx.fd, VA_BASE);
	vseg_cb_init(&cb);
	vseg_cb_fill(&cb, VA_BASE, SIZE, 0xdeadbeef);
	igt_assert_eq(vseg_cb_exec(ctx.fd, RENDER, &cb), -EFAULT);
	check_bytes(ctx.fd, h, model, "a buffer unbound before a fill");

	vseg_vm_bind(ctx.fd, h, VA_BASE);
	vseg_cb_exec_ok(ctx.fd, RENDER, &cb, "bound again");
	vseg_fill32(model, SIZE, 0xdeadbeef);
	check_bytes(ctx.fd, h, model, "bound again");
	vseg_vm_unbind(ctx.fd, VA_BASE);
	vseg_cb_fini(&cb);
	vseg_gem_close(ctx.fd, h);
	free(model);
}

static void test_readonly_fault(void)
{
	uint8_t *model = malloc(SIZE), *out = malloc(SIZE);
	uint32_t h = create_in(ctx.fd, big_id), o = create_in(ctx.fd, small_id);
	struct vseg_cmdbuf cb;

	igt_assert(model && out);
	vseg_pattern_fill(model, SIZE, 0x3000);
	vseg_bo_write(ctx.fd, h, 0, model, SIZE);
	vseg_vm_bind_range(ctx.fd, h, VA_BASE, 0, 0, DRM_VSEG_VM_BIND_READONLY,
			   NULL, 0, NULL, 0);
	vseg_vm_bind(ctx.fd, o, VA_BASE + 2 * SIZE);
	vseg_cb_init(&cb);
	vseg_cb_fill(&cb, VA_BASE, SIZE, 0);
	igt_assert_eq(vseg_cb_exec(ctx.fd, RENDER, &cb), -EFAULT);
	vseg_cb_reset(&cb);
	vseg_cb_write(&cb, VA_BASE + 4096, 1);
	igt_assert_eq(vseg_cb_exec(ctx.fd, RENDER, &cb), -EFAULT);
	vseg_cb_reset(&cb);
	vseg_cb_copy(&cb, VA_BASE, VA_BASE + 2 * SIZE, SIZE);
	igt_assert_eq(vseg_cb_exec(ctx.fd, RENDER, &cb), -EFAULT);
	check_bytes(ctx.fd, h, model, "a read-only mapping written");

	vseg_cb_reset(&cb);
	vseg_cb_copy(&cb, VA_BASE + 2 * SIZE, VA_BASE, SIZE);
	vseg_cb_exec_ok(ctx.fd, RENDER, &cb, "a copy out of a read-only mapping");
	check_bytes(ctx.fd, o, model, "copied out of a read-only mapping");

	vseg_cb_fini(&cb);
	release_pair(h, o);
	free(model);
	free(out);
}

/* --- moves ------------------------------------------------------------------ */

/*
 * Bind @h at VA_BASE and @o two sizes above it, and fill @h through its
 * entries with @pattern and @value at @off (@model follows); @cb is left
 * initialised for the caller's next jobs.
 */
static void bind_pair_seeded(uint32_t h, uint32_t o, struct vseg_cmdbuf *cb,
			     uint8_t *model, uint32_t pattern, uint64_t off,
			     uint64_t value)
{
	vseg_vm_bind(ctx.fd, h, VA_BASE);
	vseg_vm_bind(ctx.fd, o, VA_BASE + 2 * SIZE);
	vseg_cb_init(cb);
	vseg_cb_fill(cb, VA_BASE, SIZE, pattern);
	vseg_cb_write(cb, VA_BASE + off, value);
	vseg_cb_exec_ok(ctx.fd, RENDER, cb, "the first fill");
	vseg_fill32(model, SIZE, pattern);
	memcpy(model + off, &value, sizeof(value));
}

static void test_evict_follow(void)
{
	uint8_t *model = malloc(SIZE);
	uint32_t h = create_in(ctx.fd, big_id), o = create_in(ctx.fd, ctx.ap_id);
	uint64_t upd0 = paging_op(VSEG_PAGING_OP_UPDATE_PT);
	uint64_t flush0 = paging_op(VSEG_PAGING_OP_FLUSH_TLB);
	struct vseg_cmdbuf cb;

	igt_assert(model);
	bind_pair_seeded(h, o, &cb, model, 0x5a5a5a5a, 0x12340,
			 0x0102030405060708ull);

	for (unsigned int i = 0; i < 4; i++) {
		uint64_t upd = paging_op(VSEG_PAGING_OP_UPDATE_PT);
		uint64_t flush = paging_op(VSEG_PAGING_OP_FLUSH_TLB);

		/* Out to system memory (entries invalid), and back. */
		vseg_evict(ctx.fd, &h, 1);
		vseg_make_resident(ctx.fd, &h, 1);
		igt_info("move %u: now in %s\n", i,
			 vseg_ctx_seg_name(&ctx, vseg_gem_segment(ctx.fd, h)));
		/* A job reads it through the same address, after the moves. */
		vseg_cb_reset(&cb);
		vseg_cb_copy(&cb, VA_BASE + 2 * SIZE, VA_BASE, SIZE);
		vseg_cb_exec_ok(ctx.fd, RENDER, &cb, "a copy after a move");
		check_bytes(ctx.fd, o, model, "read through moved entries");
		igt_assert_lt_u64(upd, paging_op(VSEG_PAGING_OP_UPDATE_PT));
		igt_assert_lt_u64(flush, paging_op(VSEG_PAGING_OP_FLUSH_TLB));
	}
	igt_info("UPDATE_PT %llu, FLUSH_TLB %llu over the moves\n",
		 (unsigned long long)(paging_op(VSEG_PAGING_OP_UPDATE_PT) - upd0),
		 (unsigned long long)(paging_op(VSEG_PAGING_OP_FLUSH_TLB) - flush0));
	check_bytes(ctx.fd, h, model, "the moved buffer");
	vseg_cb_fini(&cb);
	release_pair(h, o);
	free(model);
}

/* --- another process ---------------------------------------------------------- */

/* In the hostile child: a job of @fd on @va faults. */
static void child_expect_fault(int fd, uint64_t dst, uint64_t src,
			       const char *what)
{
	struct vseg_cmdbuf cb;
	int err;

	vseg_cb_init(&cb);
	if (src)
		vseg_cb_copy(&cb, dst, src, 4096);
	else
		vseg_cb_fill(&cb, dst, 4096, 0x66666666);
	err = vseg_cb_exec(fd, RENDER, &cb);
	igt_assert_f(err == -EFAULT, "%s: %d, expected -EFAULT\n", what, err);
	vseg_cb_fini(&cb);
}

static void test_hostile_process(void)
{
	uint8_t *model = malloc(SIZE);
	uint32_t h = create_in(ctx.fd, small_id), h2 = create_in(ctx.fd, big_id);
	int go[2], done[2];
	char c;

	igt_assert(model);
	vseg_pattern_fill(model, SIZE, 0x4000);
	vseg_bo_write(ctx.fd, h, 0, model, SIZE);
	vseg_bo_write(ctx.fd, h2, 0, model, SIZE);
	vseg_vm_bind(ctx.fd, h, VA_BASE);
	vseg_vm_bind(ctx.fd, h2, VA_BASE + 2 * SIZE);
	igt_assert(pipe(go) == 0 && pipe(done) == 0);

	igt_fork(child, 1) {
		int fd = drm_open_vseg_render();
		uint8_t *mine = malloc(SIZE), *got = malloc(SIZE);
		uint64_t own = VA_BASE + 8 * SIZE;
		struct vseg_cmdbuf cb;
		uint32_t b;

		vseg_drop_privileges();
		igt_assert(mine && got);
		b = vseg_gem_create_simple(fd, SIZE, BIT(ctx.ap_id), 0);
		vseg_make_resident(fd, &b, 1);
		vseg_vm_bind(fd, b, own);
		for (unsigned int round = 0; round < 2; round++) {
			/* The other process's addresses, and guesses. */
			for (uint64_t a = VA_BASE - 4096; a < VA_BASE + 4 * SIZE;
			     a += 0x11000) {
				child_expect_fault(fd, a, 0, "a fill of another's address");
				child_expect_fault(fd, own, a, "a copy from another's address");
			}
			igt_assert_eq(write(done[1], "r", 1), 1);
			igt_assert_eq(read(go[0], &c, 1), 1);
		}
		/* Its own buffer at the other's address: its own bytes. */
		vseg_vm_unbind(fd, own);
		vseg_pattern_fill(mine, SIZE, 0x9999);
		vseg_bo_write(fd, b, 0, mine, SIZE);
		vseg_vm_bind(fd, b, VA_BASE);
		vseg_cb_init(&cb);
		vseg_cb_write(&cb, VA_BASE + 8, 0x4141414141414141ull);
		vseg_cb_exec_ok(fd, RENDER, &cb, "its own buffer at the address");
		memcpy(mine + 8, "AAAAAAAA", 8);
		vseg_bo_read(fd, b, 0, got, SIZE);
		vseg_assert_same(got, mine, SIZE, 0, "the child's own buffer");
		vseg_cb_fini(&cb);
		vseg_vm_unbind(fd, VA_BASE);
		vseg_gem_close(fd, b);
		free(mine);
		free(got);
		drm_close_driver(fd);
	}
	/* Round 1 done: unbind one, move the other, let it try again. */
	igt_assert_eq(read(done[0], &c, 1), 1);
	vseg_vm_unbind(ctx.fd, VA_BASE);
	vseg_evict(ctx.fd, &h2, 1);
	vseg_make_resident(ctx.fd, &h2, 1);
	igt_assert_eq(write(go[1], "g", 1), 1);
	igt_assert_eq(read(done[0], &c, 1), 1);
	igt_assert_eq(write(go[1], "g", 1), 1);
	igt_waitchildren();

	check_bytes(ctx.fd, h, model, "this process's unbound buffer");
	check_bytes(ctx.fd, h2, model, "this process's moved buffer");
	vseg_vm_unbind(ctx.fd, VA_BASE + 2 * SIZE);
	vseg_gem_close(ctx.fd, h);
	vseg_gem_close(ctx.fd, h2);
	close(go[0]);
	close(go[1]);
	close(done[0]);
	close(done[1]);
	free(model);
}

/* --- bounds ------------------------------------------------------------------ */

#define LEAF_SPAN	0x200000ull	/* what one leaf page maps: 2 MiB */
#define BOUND_PCT	5

static void test_table_bound(void)
{
	uint64_t commit, bound, size;
	uint8_t *model, *got;
	int ready[2], go[2];
	uint32_t h;
	char c;

	/* A small process bound: fewer tables to make before it. */
	vseg_ctx_load_f(&ctx, "discrete pin_limit_percent=%d", BOUND_PCT);
	commit = vseg_ctx_seg(&ctx, ctx.ap_id)->commit_limit;
	bound = commit * BOUND_PCT / 100;
	size = commit / 3 & ~0xffffull;
	model = malloc(size);
	got = malloc(size);
	igt_assert(model && got);
	igt_assert(pipe(ready) == 0 && pipe(go) == 0);
	igt_fork(child, 1) {
		int fd = drm_open_vseg_render();
		uint64_t n = 0, va = VA_BASE;
		uint32_t b;
		int err;

		vseg_drop_privileges();
		b = vseg_gem_create_simple(fd, 0x10000, BIT(ctx.ap_id), 0);
		for (;;) {
			err = __vseg_vm_bind(fd, b, va, NULL);
			if (err)
				break;
			vseg_vm_unbind(fd, va);
			va += LEAF_SPAN;
			n++;
			igt_assert_f(n * 4096 <= bound,
				     "%llu leaf pages, past the bound of %llu bytes\n",
				     (unsigned long long)n,
				     (unsigned long long)bound);
		}
		igt_info("the child's binds failed (%d) after %llu leaf pages, bound %llu pages\n",
			 err, (unsigned long long)n,
			 (unsigned long long)(bound / 4096));
		igt_assert_eq(err, -ENOSPC);
		igt_assert_f(n * 4096 >= bound / 10 * 9,
			     "failed after %llu leaf pages, bound %llu pages\n",
			     (unsigned long long)n,
			     (unsigned long long)(bound / 4096));
		/* Its tables stay while it keeps its file open. */
		igt_assert_eq(write(ready[1], "r", 1), 1);
		igt_assert_eq(read(go[0], &c, 1), 1);
		vseg_gem_close(fd, b);
		drm_close_driver(fd);
	}
	igt_assert_eq(read(ready[0], &c, 1), 1);
	h = vseg_gem_create_simple(ctx.fd, size, BIT(ctx.ap_id), 0);
	vseg_make_resident(ctx.fd, &h, 1);
	igt_assert_eq_u32(vseg_gem_segment(ctx.fd, h), ctx.ap_id);
	vseg_pattern_fill(model, size, 0x7000);
	vseg_bo_write(ctx.fd, h, 0, model, size);
	vseg_bo_read(ctx.fd, h, 0, got, size);
	vseg_assert_same(got, model, size, 0, "beside another's tables");
	igt_assert_eq(write(go[1], "g", 1), 1);
	igt_waitchildren();
	vseg_gem_close(ctx.fd, h);
	close(ready[0]);
	close(ready[1]);
	close(go[0]);
	close(go[1]);
	free(model);
	free(got);
}

static void test_tables_evicted(void)
{
	const uint64_t commit = vseg_ctx_seg(&ctx, ctx.ap_id)->commit_limit;
	const unsigned int n = commit / SIZE + 2;
	uint8_t *model = malloc(SIZE);
	uint32_t h = create_in(ctx.fd, small_id), o = create_in(ctx.fd, big_id);
	uint64_t evicted, ev0, ev1, r0, r1;
	struct pt_figures f;
	struct vseg_cmdbuf cb;
	int ready[2], go[2];
	char c;

	igt_assert(model);
	igt_assert(pipe(ready) == 0 && pipe(go) == 0);
	bind_pair_seeded(h, o, &cb, model, 0x3c3c3c3c, 0x4560,
			 0x1122334455667788ull);
	pt_read_evictions(&evicted, &ev0, &r0);
	igt_assert_eq_u64(evicted, 0);

	igt_fork(child, 1) {
		int fd = drm_open_vseg_render();
		uint8_t *want = malloc(SIZE), *got = malloc(SIZE);
		uint32_t *b = calloc(n, sizeof(*b));

		vseg_drop_privileges();
		igt_assert(want && got && b);
		for (unsigned int i = 0; i < n; i++) {
			b[i] = vseg_gem_create_simple(fd, SIZE, BIT(ctx.ap_id), 0);
			vseg_pattern_fill(want, SIZE, 0x8000 + i);
			vseg_bo_write(fd, b[i], 0, want, SIZE);
		}
		/* Each resident in turn: the aperture is over-full. */
		for (unsigned int i = 0; i < n; i++)
			__vseg_make_resident(fd, &b[i], 1, NULL);
		igt_assert_eq(write(ready[1], "r", 1), 1);
		igt_assert_eq(read(go[0], &c, 1), 1);
		for (unsigned int i = 0; i < n; i++) {
			vseg_pattern_fill(want, SIZE, 0x8000 + i);
			vseg_bo_read(fd, b[i], 0, got, SIZE);
			vseg_assert_same(got, want, SIZE, 0,
					 "the other process's buffer");
			vseg_gem_close(fd, b[i]);
		}
		free(b);
		free(want);
		free(got);
		drm_close_driver(fd);
	}
	igt_assert_eq(read(ready[0], &c, 1), 1);
	pt_read_evictions(&evicted, &ev1, &r1);
	igt_info("page tables: %llu evicted now, %llu evictions\n",
		 (unsigned long long)evicted,
		 (unsigned long long)(ev1 - ev0));
	igt_assert_lt_u64(ev0, ev1);
	igt_assert_lt_u64(0, evicted);
	igt_assert_eq_u64(r1, r0);
	pt_read(&f);
	igt_assert_f(f.valid < 2 * PAGES,
		     "%llu valid entries with evicted tables\n",
		     (unsigned long long)f.valid);

	/* The next job brings them back, and reads through them. */
	vseg_cb_reset(&cb);
	vseg_cb_copy(&cb, VA_BASE + 2 * SIZE, VA_BASE, SIZE);
	vseg_cb_exec_ok(ctx.fd, RENDER, &cb, "a copy through restored tables");
	pt_read_evictions(&evicted, &ev1, &r1);
	igt_info("page tables: %llu restores\n",
		 (unsigned long long)(r1 - r0));
	igt_assert_eq_u64(evicted, 0);
	igt_assert_lt_u64(r0, r1);
	/* Before a CPU read moves "local"'s buffer to system memory. */
	pt_read(&f);
	igt_assert_eq_u64(f.valid, 2 * PAGES);
	check_bytes(ctx.fd, o, model, "copied through restored tables");
	check_bytes(ctx.fd, h, model, "the source");

	igt_assert_eq(write(go[1], "g", 1), 1);
	igt_waitchildren();
	vseg_cb_fini(&cb);
	release_pair(h, o);
	close(ready[0]);
	close(ready[1]);
	close(go[0]);
	close(go[1]);
	free(model);
}

static const struct vseg_subtest tests[] = {
	{ "entries", test_entries,
	  "Entries per bind and page size in debugfs; evicted while bound "
	  "they go invalid, resident again they come back." },
	{ "read-write", test_read_write,
	  "FILL, WRITE and COPY through the page tables, bytes checked." },
	{ "unbind-fault", test_unbind_fault,
	  "An unbound address faults the job; bound again it works." },
	{ "readonly-fault", test_readonly_fault,
	  "A write through a read-only mapping faults and changes nothing." },
	{ "evict-follow", test_evict_follow,
	  "Entries follow every move of a bound buffer (UPDATE_PT, "
	  "FLUSH_TLB counted); jobs see the right bytes." },
	{ "hostile-process", test_hostile_process,
	  "Another, unprivileged process never reaches this one's buffers "
	  "through its addresses." },
	{ "table-bound", test_table_bound,
	  "A process's page tables stop at its pin bound of the aperture; "
	  "others still use the aperture." },
	{ "tables-evicted", test_tables_evicted,
	  "Page tables evicted by another process's pressure come back "
	  "with the next job, correct." },
};

static void on_load(void)
{
	big_id = vseg_segment_by_name(&ctx.q, ctx.segs, "vram");
	small_id = vseg_segment_by_name(&ctx.q, ctx.segs, "local");
}

igt_main
{
	igt_fixture {
		vseg_ctx_setup(&ctx);
		ctx.on_load = on_load;
	}

	vseg_ctx_subtests(&ctx, "discrete", tests, ARRAY_SIZE(tests),
			  "after closing every buffer");

	igt_fixture
		vseg_ctx_unload(&ctx);
}
