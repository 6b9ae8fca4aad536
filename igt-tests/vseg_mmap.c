// SPDX-License-Identifier: MIT
/*
 * vseg_mmap: CPU access to buffers through DRM_IOCTL_VSEG_GEM_MMAP_OFFSET
 * and mmap(): in every CPU-reachable placement, across moves, moves on
 * fault out of memory the CPU cannot reach, MMAP_OFFSET refused for a
 * buffer the CPU can never reach, SIGBUS when a pinned buffer cannot move
 * where the CPU sees it, and the CPU-visible part of a small-BAR segment.
 *
 * Copyright (c) 2026 The vseg authors
 */
/**
 * TEST: vseg mmap
 * Category: Core
 * Mega feature: General Core features
 * Sub-category: Memory management
 * Functionality: CPU mapping
 * Description: Map vseg buffers into the CPU: data written is read back in
 *	every CPU-reachable placement and survives moves; faults move buffers
 *	out of memory the CPU cannot reach, or raise SIGBUS when they are
 *	pinned there; buffers the CPU can never reach get no mapping.
 *
 * SUBTEST: mmap-segments
 * Description: Write and read back through mmap in every CPU-reachable
 *	placement of each profile: new buffers are zero, data survives
 *	eviction, memory is cleared before reuse. Dynamic subtests: one per
 *	built-in profile, named after it.
 *
 * SUBTEST: mmap-after-close
 * Description: A mapping keeps its buffer alive after GEM_CLOSE.
 *
 * SUBTEST: mmap-invalid
 * Description: Unknown offsets, other files and closed buffers cannot be
 *	mapped.
 *
 * SUBTEST: fault-move
 * Description: A CPU fault on a buffer in the non-visible segment moves it to
 *	a CPU-visible placement it supports, with its data, also through a
 *	mapping made before it moved back.
 *
 * SUBTEST: fault-sigbus
 * Description: MMAP_OFFSET of a buffer that can only live in memory the CPU
 *	cannot reach fails with EINVAL; a CPU fault on a buffer pinned there
 *	raises SIGBUS and moves nothing; unpinned, it moves and works.
 *
 * SUBTEST: smallbar
 * Description: Small BAR: faults move buffers into the CPU-visible part,
 *	CPU_VISIBLE buffers start there, and a full visible part is made room
 *	in without losing data.
 */
#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include "igt.h"
#include "igt_vseg.h"

IGT_TEST_DESCRIPTION("Map vseg buffers into the CPU: data written is read "
		     "back in every CPU-reachable placement and survives "
		     "moves; faults move buffers out of memory the CPU cannot "
		     "reach, or raise SIGBUS when they are pinned there; "
		     "buffers the CPU can never reach get no mapping.");

#define AP_FLAG		DRM_VSEG_GEM_CREATE_ACCESSED_PHYSICALLY
#define CPU_VISIBLE	DRM_VSEG_GEM_CREATE_CPU_VISIBLE
#define TOP_DOWN	DRM_VSEG_PREF_TOP_DOWN
#define RW		(PROT_READ | PROT_WRITE)

static struct vseg_ctx ctx = VSEG_CTX_INIT(VSEG_LEFTOVERS_NONE_OURS);

/* Can the CPU reach the whole of [offset, offset + size) of segment @id? */
static bool cpu_reachable(uint32_t id, uint64_t offset, uint64_t size)
{
	if (!vseg_ctx_is_memory(&ctx, id))
		return true;
	return offset + size <= vseg_ctx_seg(&ctx, id)->cpu_visible_size;
}

static void check_pattern(const void *ptr, uint64_t size, uint32_t seed,
			  const char *what)
{
	int64_t bad = vseg_pattern_check(ptr, size, seed);

	igt_assert_f(bad < 0, "%s: data differs at offset %#llx of %#llx\n",
		     what, (unsigned long long)bad, (unsigned long long)size);
}

static void check_zero(const void *ptr, uint64_t size, const char *what)
{
	int64_t bad = vseg_zero_check(ptr, size);

	igt_assert_f(bad < 0, "%s: byte at %#llx of a new buffer is not zero\n",
		     what, (unsigned long long)bad);
}

/* Map @h, check it holds @seed's pattern (or zeros if @seed is 0), unmap. */
static void verify(uint32_t h, uint64_t size, uint32_t seed, const char *what)
{
	void *ptr = vseg_gem_mmap(ctx.fd, h, size, PROT_READ);

	if (seed)
		check_pattern(ptr, size, seed, what);
	else
		check_zero(ptr, size, what);
	munmap(ptr, size);
}

static void write_pattern(uint32_t h, uint64_t size, uint32_t seed)
{
	void *ptr = vseg_gem_mmap(ctx.fd, h, size, RW);

	vseg_pattern_fill(ptr, size, seed);
	munmap(ptr, size);
}

/* --- every CPU-reachable placement ------------------------------------------ */

/*
 * A buffer in segment @id; system memory (0) is named by the aperture's
 * id, where the buffer is created committed to the aperture: evicted, it
 * is in system memory.
 */
static uint32_t create_in_seg(uint32_t id, uint64_t size, uint32_t flags)
{
	uint32_t h = vseg_gem_create_simple(ctx.fd, size,
					    BIT(id ? id : ctx.ap_id), flags);

	if (!id)
		vseg_evict(ctx.fd, &h, 1);
	return h;
}

static void mmap_one(uint32_t id, uint32_t flags, uint32_t seed)
{
	const uint64_t size = SZ_1M;
	struct drm_vseg_gem_info before, after;
	char what[96];
	void *a, *b;
	uint32_t h, h2;
	uint32_t other;

	snprintf(what, sizeof(what), "%s, flags %#x",
		 vseg_ctx_seg_name(&ctx, id), flags);
	h = create_in_seg(id, size, flags);
	vseg_gem_info(ctx.fd, h, &before);
	igt_assert_eq_u32(before.segment_id, id);
	igt_assert_f(before.placement_flags & DRM_VSEG_INFO_CPU_MAPPABLE,
		     "%s: not CPU-mappable\n", what);

	/* New contents are zero; what is written is read back. */
	a = vseg_gem_mmap(ctx.fd, h, size, RW);
	check_zero(a, size, what);
	vseg_pattern_fill(a, size, seed);
	check_pattern(a, size, seed, what);

	/* A second mapping sees the same memory. */
	b = vseg_gem_mmap(ctx.fd, h, size, RW);
	check_pattern(b, size, seed, what);
	((uint64_t *)b)[size / 16] ^= ~0ull;
	igt_assert_eq_u64(((uint64_t *)a)[size / 16],
			  ((uint64_t *)b)[size / 16]);
	((uint64_t *)b)[size / 16] ^= ~0ull;
	munmap(b, size);
	munmap(a, size);

	/* Mapping more than the buffer is refused. */
	{
		uint64_t off;
		void *big;

		igt_assert_eq(__vseg_gem_mmap_offset(ctx.fd, h, &off), 0);
		big = mmap(NULL, size + SZ_64K, RW, MAP_SHARED, ctx.fd, off);
		igt_assert_f(big == MAP_FAILED,
			     "%s: a mapping larger than the buffer was allowed\n",
			     what);
		errno = 0;
	}

	/* CPU access to a reachable placement moves nothing. */
	verify(h, size, seed, what);
	vseg_gem_info(ctx.fd, h, &after);
	igt_assert_f(after.segment_id == id && after.moves == before.moves &&
		     after.offset == before.offset,
		     "%s: CPU access moved the buffer to %s at %#llx (%llu moves)\n",
		     what, vseg_ctx_seg_name(&ctx, after.segment_id),
		     (unsigned long long)after.offset,
		     (unsigned long long)after.moves);

	/* The data survives an eviction and the way back. */
	if (id) {
		vseg_evict(ctx.fd, &h, 1);
		vseg_gem_info(ctx.fd, h, &after);
		igt_assert_eq_u32(after.segment_id, 0);
		igt_assert_eq_u64(after.moves, before.moves + 1);
		verify(h, size, seed, "after EVICT");
		vseg_make_resident(ctx.fd, &h, 1);
		vseg_gem_info(ctx.fd, h, &after);
		igt_assert_eq_u32(after.segment_id, id);
		verify(h, size, seed, "after EVICT and MAKE_RESIDENT");
	}

	/* Memory given back is cleared before it is handed out again. */
	vseg_gem_close(ctx.fd, h);
	h2 = create_in_seg(id, size, flags);
	verify(h2, size, 0, "a buffer created where another one was");
	vseg_gem_close(ctx.fd, h2);

	/* Another buffer's data is not seen through this buffer's offset. */
	other = create_in_seg(id, size, flags);
	h2 = create_in_seg(id, size, flags);
	write_pattern(other, size, seed + 1);
	write_pattern(h2, size, seed + 2);
	verify(other, size, seed + 1, "first of two buffers");
	verify(h2, size, seed + 2, "second of two buffers");
	vseg_gem_close(ctx.fd, other);
	vseg_gem_close(ctx.fd, h2);
}

static void test_mmap_segments(const char *profile)
{
	uint32_t seed = 0x100;

	vseg_ctx_load(&ctx, profile);
	for (uint32_t id = 1; id <= ctx.q.num_segments; id++) {
		const bool mem = vseg_ctx_is_memory(&ctx, id);

		if (mem && !vseg_ctx_seg(&ctx, id)->cpu_visible_size)
			continue;
		igt_info("%s: %s\n", profile, vseg_ctx_seg_name(&ctx, id));
		mmap_one(id, 0 | (mem ? CPU_VISIBLE : 0), seed += 16);
		mmap_one(id, AP_FLAG | (mem ? CPU_VISIBLE : 0), seed += 16);
	}
	igt_info("%s: system\n", profile);
	mmap_one(0, 0, seed += 16);
	vseg_ctx_finish(&ctx, "after unmapping and closing every buffer");
}

/* --- a mapping outlives its handle ------------------------------------------ */

static void test_mmap_after_close(void)
{
	struct vseg_usage_snapshot during;

	vseg_ctx_load(&ctx, "discrete");
	for (uint32_t id = 0; id <= ctx.q.num_segments; id++) {
		const uint64_t size = SZ_1M;
		uint32_t h;
		void *ptr;

		if (vseg_ctx_is_memory(&ctx, id) &&
		    !vseg_ctx_seg(&ctx, id)->cpu_visible_size)
			continue;
		h = create_in_seg(id, size, 0);
		ptr = vseg_gem_mmap(ctx.fd, h, size, RW);
		vseg_pattern_fill(ptr, size, 0x77 + id);
		vseg_gem_close(ctx.fd, h);

		/* The mapping keeps the buffer, and its memory, alive. */
		vseg_usage_read(ctx.fd, &during);
		igt_assert_f(during.usage[id].committed >=
			     ctx.base_usage.usage[id].committed + size,
			     "%s: closing a mapped buffer gave its memory back\n",
			     vseg_ctx_seg_name(&ctx, id));
		check_pattern(ptr, size, 0x77 + id, "after GEM_CLOSE");
		vseg_pattern_fill(ptr, size, 0x99 + id);
		check_pattern(ptr, size, 0x99 + id, "written after GEM_CLOSE");
		munmap(ptr, size);
		vseg_usage_wait(ctx.fd, &ctx.base_usage, 2000, "after munmap");
	}
	vseg_ctx_finish(&ctx, "after unmapping and closing every buffer");
}

/* --- bad mappings ----------------------------------------------------------- */

static void test_mmap_invalid(void)
{
	uint32_t vram, h;
	uint64_t off;
	void *ptr;
	int fd2;

	vseg_ctx_load(&ctx, "discrete");
	vram = vseg_segment_by_name(&ctx.q, ctx.segs, "vram");
	h = vseg_gem_create_simple(ctx.fd, SZ_1M, BIT(vram), 0);
	igt_assert_eq(__vseg_gem_mmap_offset(ctx.fd, h, &off), 0);

	/* The same offset twice. */
	{
		uint64_t off2;

		igt_assert_eq(__vseg_gem_mmap_offset(ctx.fd, h, &off2), 0);
		igt_assert_eq_u64(off, off2);
	}

	/* An offset no buffer has. */
	ptr = mmap(NULL, SZ_64K, RW, MAP_SHARED, ctx.fd, off + SZ_64M);
	igt_assert_f(ptr == MAP_FAILED, "mmap at an unknown offset worked\n");

	/* Another file has no access to this file's buffer. */
	fd2 = drm_open_vseg();
	ptr = mmap(NULL, SZ_1M, RW, MAP_SHARED, fd2, off);
	igt_assert_f(ptr == MAP_FAILED,
		     "another file mapped this file's buffer\n");
	drm_close_driver(fd2);

	/* Part of the buffer, from its start, is fine. */
	ptr = mmap(NULL, SZ_64K, RW, MAP_SHARED, ctx.fd, off);
	igt_assert(ptr != MAP_FAILED);
	memset(ptr, 0x5a, SZ_64K);
	munmap(ptr, SZ_64K);
	errno = 0;

	vseg_gem_close(ctx.fd, h);
	ptr = mmap(NULL, SZ_1M, RW, MAP_SHARED, ctx.fd, off);
	igt_assert_f(ptr == MAP_FAILED,
		     "the offset of a closed buffer can still be mapped\n");
	errno = 0;
	vseg_ctx_finish(&ctx, "after unmapping and closing every buffer");
}

/* --- moves on fault --------------------------------------------------------- */

struct access {
	volatile uint64_t *p;
	bool write;
};

static void do_access(void *arg)
{
	struct access *a = arg;

	if (a->write)
		a->p[0] = 0x1234;
	else
		(void)a->p[0];
}

/* Does a CPU access (read or write) to @p raise SIGBUS? */
static bool access_sigbus(volatile uint64_t *p, bool write)
{
	struct access a = { .p = p, .write = write };

	return vseg_catch_sigbus(do_access, &a);
}

/* Does a child process that writes to @p die of SIGBUS? */
static bool child_dies_of_sigbus(volatile uint64_t *p)
{
	int status;
	pid_t pid;

	fflush(stdout);
	fflush(stderr);
	pid = fork();
	igt_assert(pid >= 0);
	if (pid == 0) {
		signal(SIGBUS, SIG_DFL);
		p[1] = 0x5678;
		_exit(0);
	}
	igt_assert_eq(waitpid(pid, &status, 0), pid);
	igt_debug("child status %#x\n", status);
	return WIFSIGNALED(status) && WTERMSIG(status) == SIGBUS;
}

/*
 * A buffer in the non-visible segment that also supports @alt: writing
 * through a mapping moves it to a CPU-visible placement, the data survives
 * MAKE_RESIDENT back into the segment and the next fault.
 */
static void fault_move(uint32_t local, uint32_t alt_set, uint32_t flags,
		       uint32_t seed)
{
	const uint64_t size = SZ_1M;
	struct drm_vseg_gem_create c;
	struct drm_vseg_gem_info i0, i1;
	uint32_t h, processed;
	uint64_t *ptr;

	vseg_create_args(&c, size, BIT(local) | alt_set, flags);
	vseg_create_prefer(&c, local, 0);
	h = vseg_gem_create(ctx.fd, &c);
	vseg_check_allocation(ctx.fd, h, &i0);
	igt_assert_eq_u32(i0.segment_id, local);
	igt_assert_f(!(i0.placement_flags & DRM_VSEG_INFO_CPU_MAPPABLE),
		     "a buffer in %s is CPU-mappable\n",
		     vseg_ctx_seg_name(&ctx, local));

	/* mmap itself moves nothing; the first access does. */
	ptr = vseg_gem_mmap(ctx.fd, h, size, RW);
	vseg_gem_info(ctx.fd, h, &i1);
	igt_assert_eq_u32(i1.segment_id, local);
	vseg_pattern_fill(ptr, size, seed);
	vseg_check_allocation(ctx.fd, h, &i1);
	igt_assert_f(i1.segment_id != local &&
		     vseg_ctx_set_holds(&ctx, alt_set, i1.segment_id) &&
		     cpu_reachable(i1.segment_id, i1.offset, size),
		     "after a CPU fault the buffer is in %s (supported %#x)\n",
		     vseg_ctx_seg_name(&ctx, i1.segment_id),
		     (unsigned int)(alt_set | BIT(local)));
	igt_assert(i1.placement_flags & DRM_VSEG_INFO_CPU_MAPPABLE);
	igt_assert_f(i1.moves > i0.moves, "moves %llu after the fault\n",
		     (unsigned long long)i1.moves);
	if ((flags & AP_FLAG) && i1.segment_id == ctx.ap_id)
		igt_assert_f(i1.placement_flags & DRM_VSEG_INFO_APERTURE_MAPPED,
			     "an AP buffer moved into the aperture is not mapped\n");
	check_pattern(ptr, size, seed, "after the move on fault");

	/*
	 * Back into the segment while the mapping exists: the old CPU
	 * mapping must not reach the buffer's old pages any more.
	 */
	igt_assert_eq(__vseg_evict(ctx.fd, &h, 1, &processed), 0);
	igt_assert_eq_u32(processed, 1);
	vseg_make_resident(ctx.fd, &h, 1);
	vseg_gem_info(ctx.fd, h, &i1);
	igt_assert_f(i1.segment_id == local,
		     "MAKE_RESIDENT put the buffer in %s, not its preferred %s\n",
		     vseg_ctx_seg_name(&ctx, i1.segment_id),
		     vseg_ctx_seg_name(&ctx, local));
	igt_assert(!(i1.placement_flags & DRM_VSEG_INFO_CPU_MAPPABLE));
	check_pattern(ptr, size, seed, "old mapping after moving back and faulting again");
	vseg_gem_info(ctx.fd, h, &i1);
	igt_assert_f(i1.segment_id != local,
		     "reading through the old mapping left the buffer in %s\n",
		     vseg_ctx_seg_name(&ctx, local));
	munmap(ptr, size);

	/* And once more with a fresh mapping. */
	vseg_evict(ctx.fd, &h, 1);
	vseg_make_resident(ctx.fd, &h, 1);
	vseg_gem_info(ctx.fd, h, &i1);
	igt_assert_f(i1.segment_id == local,
		     "EVICT and MAKE_RESIDENT put the buffer in %s, not its preferred %s\n",
		     vseg_ctx_seg_name(&ctx, i1.segment_id),
		     vseg_ctx_seg_name(&ctx, local));
	verify(h, size, seed, "fresh mapping after moving back");
	vseg_gem_close(ctx.fd, h);
}

static void test_fault_move(void)
{
	uint32_t local;

	vseg_ctx_load(&ctx, "discrete");
	local = vseg_segment_by_name(&ctx.q, ctx.segs, "local");
	igt_require(!vseg_ctx_seg(&ctx, local)->cpu_visible_size);

	fault_move(local, BIT(ctx.ap_id), 0, 0x2001);
	fault_move(local, BIT(ctx.ap_id), 0, 0x2002);
	fault_move(local, BIT(ctx.ap_id), AP_FLAG, 0x2003);
	fault_move(local, BIT(ctx.ap_id), AP_FLAG, 0x2004);
	fault_move(local, BIT(ctx.ap_id) |
		   BIT(vseg_segment_by_name(&ctx.q, ctx.segs, "vram")), 0,
		   0x2005);
	vseg_ctx_finish(&ctx, "after unmapping and closing every buffer");
}

/*
 * A buffer with no CPU-reachable place at all (supported only in the
 * non-visible segment) has no mapping to give: MMAP_OFFSET refuses it up
 * front with -EINVAL, and the buffer stays where it is. One that could
 * move where the CPU sees it but is pinned in the non-visible segment
 * maps fine, but touching it raises SIGBUS (it cannot move now); unpinned,
 * the same mapping works and finds its contents.
 */
static void test_sigbus(void)
{
	const uint64_t size = SZ_1M;
	uint32_t local;

	vseg_ctx_load(&ctx, "discrete");
	local = vseg_segment_by_name(&ctx.q, ctx.segs, "local");
	igt_require(!vseg_ctx_seg(&ctx, local)->cpu_visible_size);

	for (unsigned int k = 0; k < 2; k++) {
		struct drm_vseg_gem_create c;
		struct drm_vseg_gem_info i0, i1;
		uint64_t *ptr, off;
		uint32_t h;
		int err;

		/* Nowhere the CPU could reach it. */
		h = vseg_gem_create_simple(ctx.fd, size, BIT(local),
					   k ? AP_FLAG : 0);
		vseg_gem_info(ctx.fd, h, &i0);
		igt_assert_eq_u32(i0.segment_id, local);
		err = __vseg_gem_mmap_offset(ctx.fd, h, &off);
		igt_assert_f(err == -EINVAL,
			     "MMAP_OFFSET of a buffer that only lives in %s: %d (%s), expected -EINVAL\n",
			     vseg_ctx_seg_name(&ctx, local), err,
			     vseg_errname(err));
		vseg_check_allocation(ctx.fd, h, &i1);
		igt_assert_eq_u32(i1.segment_id, local);
		igt_assert_eq_u64(i1.moves, i0.moves);
		igt_assert_eq_u64(i1.offset, i0.offset);
		vseg_gem_close(ctx.fd, h);

		/* It could go to system memory, but it is pinned in local. */
		vseg_create_args(&c, size, BIT(local) | BIT(ctx.ap_id),
				 k ? AP_FLAG : 0);
		vseg_create_prefer(&c, local, 0);
		h = vseg_gem_create(ctx.fd, &c);
		err = __vseg_make_resident_flags(ctx.fd, &h, 1,
						 DRM_VSEG_RESIDENCY_PIN, NULL);
		igt_assert_f(err == 0, "MAKE_RESIDENT(PIN): %d (%s)\n", err,
			     vseg_errname(err));
		vseg_gem_info(ctx.fd, h, &i0);
		igt_assert_eq_u32(i0.segment_id, local);
		igt_assert(i0.placement_flags & DRM_VSEG_INFO_PINNED);
		ptr = vseg_gem_mmap(ctx.fd, h, size, RW);
		igt_assert_f(access_sigbus(ptr, false),
			     "reading a buffer pinned in %s did not raise SIGBUS\n",
			     vseg_ctx_seg_name(&ctx, local));
		igt_assert_f(access_sigbus(ptr + size / 16, true),
			     "writing a buffer pinned in %s did not raise SIGBUS\n",
			     vseg_ctx_seg_name(&ctx, local));
		igt_assert_f(child_dies_of_sigbus(ptr),
			     "a child writing the buffer did not die of SIGBUS\n");

		/* It stayed where it was, and still works otherwise. */
		vseg_check_allocation(ctx.fd, h, &i1);
		igt_assert_eq_u32(i1.segment_id, local);
		igt_assert_eq_u64(i1.moves, i0.moves);
		igt_assert_eq_u64(i1.offset, i0.offset);

		/* Unpinned, the same mapping moves it and reads zeroes. */
		err = __vseg_evict_flags(ctx.fd, &h, 1,
					 DRM_VSEG_RESIDENCY_UNPIN, NULL);
		igt_assert_f(err == 0, "EVICT(UNPIN): %d (%s)\n", err,
			     vseg_errname(err));
		check_zero(ptr, size, "unpinned, after the SIGBUS");
		vseg_pattern_fill(ptr, size, 0x3000 + k);
		check_pattern(ptr, size, 0x3000 + k, "unpinned, written");
		munmap(ptr, size);
		vseg_gem_close(ctx.fd, h);
	}
	vseg_ctx_finish(&ctx, "after unmapping and closing every buffer");
}

/* --- small BAR ---------------------------------------------------------------- */

static uint32_t create_topdown(uint32_t id, uint64_t size, uint32_t flags,
			       struct drm_vseg_gem_info *i)
{
	struct drm_vseg_gem_create c;
	uint32_t h;

	vseg_create_args(&c, size, BIT(id), flags);
	vseg_create_prefer(&c, id, TOP_DOWN);
	h = vseg_gem_create(ctx.fd, &c);
	vseg_check_allocation(ctx.fd, h, i);
	igt_assert_eq_u32(i->segment_id, id);
	return h;
}

static void test_smallbar(void)
{
	const uint64_t size = SZ_1M;
	const struct drm_vseg_segment_info *s;
	struct drm_vseg_gem_info i0, i1;
	uint64_t vis, *ptr;
	uint32_t vram, h;

	vseg_ctx_load(&ctx, "smallbar");
	vram = vseg_segment_by_name(&ctx.q, ctx.segs, "vram");
	s = vseg_ctx_seg(&ctx, vram);
	vis = s->cpu_visible_size;
	igt_require(vis && vis < s->size);

	for (unsigned int k = 0; k < 2; k++) {
		const uint32_t flags = k ? AP_FLAG : 0;

		/* Top-down: above the visible part. */
		h = create_topdown(vram, size, flags, &i0);
		igt_assert_f(i0.offset >= vis,
			     "top-down buffer at %#llx, inside the visible %#llx\n",
			     (unsigned long long)i0.offset,
			     (unsigned long long)vis);
		igt_assert(!(i0.placement_flags & DRM_VSEG_INFO_CPU_MAPPABLE));

		/* The first access moves it into the visible part. */
		ptr = vseg_gem_mmap(ctx.fd, h, size, RW);
		check_zero(ptr, size, "above the visible part");
		vseg_check_allocation(ctx.fd, h, &i1);
		igt_assert_f(i1.segment_id == vram &&
			     (k ? i1.offset + size <= vis : i1.offset < vis),
			     "after a fault the buffer is in %s at %#llx (visible %#llx)\n",
			     vseg_ctx_seg_name(&ctx, i1.segment_id),
			     (unsigned long long)i1.offset,
			     (unsigned long long)vis);
		igt_assert(i1.placement_flags & DRM_VSEG_INFO_CPU_MAPPABLE);
		igt_assert_eq_u64(i1.moves, i0.moves + 1);
		if (k)
			igt_assert(i1.placement_flags & DRM_VSEG_INFO_CONTIGUOUS);
		vseg_pattern_fill(ptr, size, 0x3000 + k);
		munmap(ptr, size);

		/* Out, and back to the top: data moves with it both ways. */
		vseg_evict(ctx.fd, &h, 1);
		vseg_make_resident(ctx.fd, &h, 1);
		vseg_gem_info(ctx.fd, h, &i1);
		igt_assert_f(i1.segment_id == vram && i1.offset >= vis,
			     "MAKE_RESIDENT of a top-down buffer put it at %#llx\n",
			     (unsigned long long)i1.offset);
		verify(h, size, 0x3000 + k, "moved into the visible part on fault");
		vseg_gem_info(ctx.fd, h, &i1);
		igt_assert_f(cpu_reachable(vram, i1.offset,
					   k ? size : s->page_size),
			     "after the fault the buffer is at %#llx\n",
			     (unsigned long long)i1.offset);
		vseg_gem_close(ctx.fd, h);
	}

	/* CPU_VISIBLE: in the visible part from the start, even top-down. */
	h = create_topdown(vram, size, CPU_VISIBLE | AP_FLAG, &i0);
	igt_assert_f(i0.offset + size <= vis,
		     "CPU_VISIBLE buffer at %#llx, visible part %#llx\n",
		     (unsigned long long)i0.offset, (unsigned long long)vis);
	igt_assert(i0.placement_flags & DRM_VSEG_INFO_CPU_MAPPABLE);
	write_pattern(h, size, 0x3100);
	vseg_gem_info(ctx.fd, h, &i1);
	igt_assert_eq_u64(i1.moves, i0.moves);
	igt_assert_eq_u64(i1.offset, i0.offset);
	vseg_gem_close(ctx.fd, h);

	/*
	 * The visible part full of CPU_VISIBLE buffers: a fault on a buffer
	 * above it has to push one out; no data may be lost.
	 */
	{
		unsigned int n = vis / size;
		uint32_t *fill = calloc(n, sizeof(uint32_t));

		igt_assert(fill);
		for (unsigned int i = 0; i < n; i++) {
			fill[i] = vseg_gem_create_simple(ctx.fd, size, BIT(vram),
							 CPU_VISIBLE);
			write_pattern(fill[i], size, 0x4000 + i);
		}
		h = create_topdown(vram, size, AP_FLAG, &i0);
		igt_assert(i0.offset >= vis);
		ptr = vseg_gem_mmap(ctx.fd, h, size, RW);
		vseg_pattern_fill(ptr, size, 0x3200);
		munmap(ptr, size);
		vseg_gem_info(ctx.fd, h, &i1);
		igt_assert_f(i1.segment_id == vram && i1.offset + size <= vis,
			     "with the visible part full, a fault put the buffer in %s at %#llx\n",
			     vseg_ctx_seg_name(&ctx, i1.segment_id),
			     (unsigned long long)i1.offset);
		for (unsigned int i = 0; i < n; i++)
			verify(fill[i], size, 0x4000 + i, "a CPU_VISIBLE buffer");
		verify(h, size, 0x3200, "the buffer moved into the full visible part");
		for (unsigned int i = 0; i < n; i++)
			vseg_gem_close(ctx.fd, fill[i]);
		vseg_gem_close(ctx.fd, h);
		free(fill);
	}
	vseg_ctx_finish(&ctx, "after unmapping and closing every buffer");
}

igt_main
{
	igt_fixture
		vseg_ctx_setup(&ctx);

	igt_describe("Write and read back through mmap in every CPU-reachable "
		     "placement of each profile: new buffers are zero, data "
		     "survives eviction, memory is cleared before reuse.");
	igt_subtest_with_dynamic("mmap-segments")
		vseg_dynamic_profiles(test_mmap_segments);

	igt_describe("A mapping keeps its buffer alive after GEM_CLOSE.");
	igt_subtest("mmap-after-close")
		test_mmap_after_close();

	igt_describe("Unknown offsets, other files and closed buffers cannot "
		     "be mapped.");
	igt_subtest("mmap-invalid")
		test_mmap_invalid();

	igt_describe("A CPU fault on a buffer in the non-visible segment "
		     "moves it to a CPU-visible placement it supports, with "
		     "its data, also through a mapping made before it moved "
		     "back.");
	igt_subtest("fault-move")
		test_fault_move();

	igt_describe("MMAP_OFFSET of a buffer that can only live in memory "
		     "the CPU cannot reach fails with EINVAL; a CPU fault on "
		     "a buffer pinned there raises SIGBUS and moves nothing; "
		     "unpinned, it moves and works.");
	igt_subtest("fault-sigbus")
		test_sigbus();

	igt_describe("Small BAR: faults move buffers into the CPU-visible "
		     "part, CPU_VISIBLE buffers start there, and a full "
		     "visible part is made room in without losing data.");
	igt_subtest("smallbar")
		test_smallbar();

	igt_fixture {
		vseg_ctx_unload(&ctx);
	}
}
