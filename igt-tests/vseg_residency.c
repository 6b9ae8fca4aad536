// SPDX-License-Identifier: MIT
/*
 * vseg_residency: DRM_IOCTL_VSEG_MAKE_RESIDENT and DRM_IOCTL_VSEG_EVICT:
 * buffers move, GEM_INFO, the segment usage and debugfs follow, pins hold
 * buffers in place, and bad arguments are refused before anything moves.
 *
 * Copyright (c) 2026 The vseg authors
 */
/**
 * TEST: vseg residency
 * Category: Core
 * Mega feature: General Core features
 * Sub-category: Memory management
 * Functionality: residency
 * Description: Move vseg buffers with MAKE_RESIDENT and EVICT, check
 *	placement, usage accounting, pinning and the rejection of bad
 *	arguments.
 *
 * SUBTEST: evict-make-resident
 * Description: EVICT moves a buffer to system memory and MAKE_RESIDENT back,
 *	in every segment; GEM_INFO, the usage and debugfs follow; data
 *	survives; repeated calls change nothing.
 *
 * SUBTEST: pressure
 * Description: Eviction under pressure goes to the eviction set (the
 *	aperture) or to system memory; MAKE_RESIDENT pushes other buffers out.
 *
 * SUBTEST: pin
 * Description: Pinned buffers are not evicted, EVICT refuses them unless
 *	unpinning, and a segment full of pinned buffers (one file allowed to
 *	pin it all: pin_limit_percent=100) gives ENOSPC.
 *
 * SUBTEST: pin-budget
 * Description: Each process may pin half of a segment (pin_limit_percent),
 *	whatever files it opened, a pin counted each time: past that PIN fails
 *	with ENOSPC and nothing moves; another process has its own; only the
 *	creating file can unpin; a file's pins go with its last handle and with
 *	the file.
 *
 * SUBTEST: invalid
 * Description: Unknown handles, bad counts, bad pointers and nonzero flags,
 *	padding or reserved fields are refused before anything moves.
 *
 * SUBTEST: max-handles
 * Description: DRM_VSEG_MAX_RESIDENCY_HANDLES handles in one call.
 *
 * SUBTEST: accounting
 * Description: Random EVICT / MAKE_RESIDENT rounds: the usage of every
 *	segment matches the buffers' placements, and returns to its start when
 *	they are closed. Dynamic subtests: one per built-in profile, named
 *	after it.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include <xf86drm.h>

#include "igt.h"
#include "igt_vseg.h"

IGT_TEST_DESCRIPTION("Move vseg buffers with MAKE_RESIDENT and EVICT, "
		     "check placement, usage accounting, pinning and the "
		     "rejection of bad arguments.");

#define AP_FLAG		DRM_VSEG_GEM_CREATE_ACCESSED_PHYSICALLY
#define PIN		DRM_VSEG_RESIDENCY_PIN
#define UNPIN		DRM_VSEG_RESIDENCY_UNPIN
#define RW		(PROT_READ | PROT_WRITE)

static struct vseg_ctx ctx = VSEG_CTX_INIT(VSEG_LEFTOVERS_NONE_OURS);
static uint32_t vram_id, local_id;

/* @profile may be followed by more module options. */
static void load_profile(const char *profile)
{
	vseg_ctx_load(&ctx, profile);
	vram_id = local_id = 0;
	if (!strncmp(profile, "discrete", 8)) {
		vram_id = vseg_segment_by_name(&ctx.q, ctx.segs, "vram");
		local_id = vseg_segment_by_name(&ctx.q, ctx.segs, "local");
	}
}

static int residency_ioctl(unsigned long ioc, struct drm_vseg_residency *r)
{
	return __vseg_residency(ctx.fd, ioc, r);
}

static int make_resident(const uint32_t *h, uint32_t n, uint32_t flags,
			 uint32_t *processed)
{
	return __vseg_make_resident_flags(ctx.fd, h, n, flags, processed);
}

static int evict(const uint32_t *h, uint32_t n, uint32_t flags,
		 uint32_t *processed)
{
	return __vseg_evict_flags(ctx.fd, h, n, flags, processed);
}

/* A buffer's placement as GEM_INFO reports it, for before/after checks. */
struct where {
	uint32_t segment;
	uint64_t offset;
	uint64_t moves;
	uint32_t flags;
};

static struct where where(uint32_t h)
{
	struct drm_vseg_gem_info i;

	vseg_gem_info(ctx.fd, h, &i);
	return (struct where){ i.segment_id, i.offset, i.moves,
			       i.placement_flags };
}

static void assert_same(uint32_t h, struct where w, const char *what)
{
	struct where now = where(h);

	igt_assert_f(now.segment == w.segment && now.offset == w.offset &&
		     now.moves == w.moves && now.flags == w.flags,
		     "%s: buffer moved from %s@%#llx (moves %llu, flags %#x) to %s@%#llx (moves %llu, flags %#x)\n",
		     what, vseg_ctx_seg_name(&ctx, w.segment),
		     (unsigned long long)w.offset,
		     (unsigned long long)w.moves, w.flags,
		     vseg_ctx_seg_name(&ctx, now.segment),
		     (unsigned long long)now.offset,
		     (unsigned long long)now.moves, now.flags);
}

/* --- MAKE_RESIDENT and EVICT of one buffer ----------------------------------- */

static void evict_and_back(uint32_t id, uint32_t flags, uint32_t seed)
{
	const uint64_t size = 4 * SZ_64K;
	struct vseg_usage_snapshot created, evicted;
	struct drm_vseg_gem_info i0, i1;
	bool cpu = !vseg_ctx_is_memory(&ctx, id) ||
		   vseg_ctx_seg(&ctx, id)->cpu_visible_size;
	bool mapped = (flags & AP_FLAG) && id == ctx.ap_id;
	uint32_t h, processed;
	void *ptr;

	h = vseg_gem_create_simple(ctx.fd, size, BIT(id), flags);
	vseg_check_allocation(ctx.fd, h, &i0);
	igt_assert_eq_u32(i0.segment_id, id);
	igt_assert(i0.placement_flags & DRM_VSEG_INFO_RESIDENT);
	igt_assert_eq_u64(i0.resident_bytes, size);
	igt_assert_eq(!!(i0.placement_flags & DRM_VSEG_INFO_APERTURE_MAPPED),
		      mapped);
	if (cpu) {
		ptr = vseg_gem_mmap(ctx.fd, h, size, RW);
		vseg_pattern_fill(ptr, size, seed);
		munmap(ptr, size);
	}
	vseg_usage_read(ctx.fd, &created);

	/* EVICT: to system memory, out of the segment's usage. */
	igt_assert_eq(evict(&h, 1, 0, &processed), 0);
	igt_assert_eq_u32(processed, 1);
	vseg_check_allocation(ctx.fd, h, &i1);
	igt_assert_f(i1.segment_id == 0, "EVICT left the buffer in %s\n",
		     vseg_ctx_seg_name(&ctx, i1.segment_id));
	igt_assert(!(i1.placement_flags & (DRM_VSEG_INFO_RESIDENT |
					   DRM_VSEG_INFO_APERTURE_MAPPED)));
	igt_assert_eq_u64(i1.resident_bytes, 0);
	igt_assert_eq_u64(i1.moves, i0.moves + 1);
	evicted = created;
	evicted.usage[id].committed -= size;
	evicted.usage[id].resident -= size;
	evicted.usage[id].evicted += size;
	if (mapped)
		evicted.usage[ctx.ap_id].aperture_mapped -= size;
	evicted.usage[0].committed += size;
	evicted.usage[0].resident += size;
	vseg_usage_assert(ctx.fd, &evicted, "after EVICT");
	if (mapped) {
		struct vseg_aperture_state st;

		vseg_debugfs_read_aperture(ctx.fd, &st);
		igt_assert_f(!vseg_aperture_find(&st, i1.buffer_id),
			     "an evicted buffer keeps its GART range\n");
		vseg_debugfs_free_aperture(&st);
	}

	/* EVICT again: already in place, nothing changes. */
	igt_assert_eq(evict(&h, 1, 0, &processed), 0);
	igt_assert_eq_u32(processed, 1);
	igt_assert_eq_u64(where(h).moves, i1.moves);
	vseg_usage_assert(ctx.fd, &evicted, "after a second EVICT");

	/* MAKE_RESIDENT: back where it was created, usage as before. */
	igt_assert_eq(make_resident(&h, 1, 0, &processed), 0);
	igt_assert_eq_u32(processed, 1);
	vseg_check_allocation(ctx.fd, h, &i1);
	igt_assert_f(i1.segment_id == id,
		     "MAKE_RESIDENT put the buffer in %s, not %s\n",
		     vseg_ctx_seg_name(&ctx, i1.segment_id),
		     vseg_ctx_seg_name(&ctx, id));
	igt_assert(i1.placement_flags & DRM_VSEG_INFO_RESIDENT);
	igt_assert_eq_u64(i1.resident_bytes, size);
	igt_assert_eq_u64(i1.moves, i0.moves + 2);
	igt_assert_eq(!!(i1.placement_flags & DRM_VSEG_INFO_APERTURE_MAPPED),
		      mapped);
	if (flags & AP_FLAG && vseg_ctx_is_memory(&ctx, id))
		igt_assert(i1.placement_flags & DRM_VSEG_INFO_CONTIGUOUS);
	vseg_usage_assert(ctx.fd, &created, "after MAKE_RESIDENT");

	/* MAKE_RESIDENT again: already resident, nothing moves. */
	{
		struct where w = where(h);

		igt_assert_eq(make_resident(&h, 1, 0, &processed), 0);
		igt_assert_eq_u32(processed, 1);
		assert_same(h, w, "second MAKE_RESIDENT");
	}
	vseg_usage_assert(ctx.fd, &created, "after a second MAKE_RESIDENT");

	if (cpu) {
		ptr = vseg_gem_mmap(ctx.fd, h, size, PROT_READ);
		igt_assert_f(vseg_pattern_check(ptr, size, seed) < 0,
			     "data lost in EVICT and MAKE_RESIDENT from %s\n",
			     vseg_ctx_seg_name(&ctx, id));
		munmap(ptr, size);
	}
	vseg_gem_close(ctx.fd, h);
}

static void test_evict_make_resident(void)
{
	uint32_t seed = 1;

	load_profile("discrete");
	for (uint32_t id = 1; id <= ctx.q.num_segments; id++) {
		evict_and_back(id, 0, seed++);
		evict_and_back(id, AP_FLAG, seed++);
	}
	vseg_usage_assert(ctx.fd, &ctx.base_usage, "after closing");

	/* A buffer of system memory (the aperture's id) in and out. */
	{
		uint32_t h = vseg_gem_create_simple(ctx.fd, SZ_64K, BIT(ctx.ap_id), 0);
		struct where w;
		uint32_t processed;

		/*
		 * The aperture's id names system memory: the buffer is
		 * created committed to the aperture. Evicted, it is in plain
		 * system pages, and EVICT leaves it there; MAKE_RESIDENT
		 * commits it to the aperture again, once.
		 */
		vseg_evict(ctx.fd, &h, 1);
		w = where(h);
		igt_assert_eq_u32(w.segment, 0);
		igt_assert_eq(evict(&h, 1, 0, &processed), 0);
		igt_assert_eq_u32(processed, 1);
		assert_same(h, w, "EVICT of an evicted buffer");
		igt_assert_eq(make_resident(&h, 1, 0, &processed), 0);
		igt_assert_eq_u32(processed, 1);
		w = where(h);
		igt_assert_eq_u32(w.segment, ctx.ap_id);
		igt_assert_eq(make_resident(&h, 1, 0, &processed), 0);
		assert_same(h, w, "MAKE_RESIDENT of a resident buffer");
		vseg_gem_close(ctx.fd, h);
	}
	vseg_ctx_finish(&ctx, "after closing every buffer");
}

/* --- eviction under pressure ------------------------------------------------- */

static void test_pressure(void)
{
	const uint64_t size = SZ_1M;
	struct vseg_usage_snapshot u;
	struct drm_vseg_gem_create c;
	struct drm_vseg_gem_info ib, ic;
	uint32_t b, c_h, *fill, bc[2];
	unsigned int n;
	void *ptr;

	load_profile("discrete");
	n = vseg_ctx_seg(&ctx, vram_id)->size / size;

	/* B goes to the aperture when evicted, C straight to system memory. */
	vseg_create_args(&c, size, BIT(vram_id) | BIT(ctx.ap_id), 0);
	c.eviction_segments = BIT(ctx.ap_id);
	b = vseg_gem_create(ctx.fd, &c);
	vseg_create_args(&c, size, BIT(vram_id) | BIT(ctx.ap_id), 0);
	c_h = vseg_gem_create(ctx.fd, &c);
	bc[0] = b;
	bc[1] = c_h;
	for (unsigned int i = 0; i < 2; i++) {
		igt_assert_eq_u32(where(bc[i]).segment, vram_id);
		ptr = vseg_gem_mmap(ctx.fd, bc[i], size, RW);
		vseg_pattern_fill(ptr, size, 0x500 + i);
		munmap(ptr, size);
	}

	/* A whole vram of vram-only buffers pushes both out. */
	fill = calloc(n, sizeof(uint32_t));
	igt_assert(fill);
	for (unsigned int i = 0; i < n; i++)
		fill[i] = vseg_gem_create_simple(ctx.fd, size, BIT(vram_id), 0);
	vseg_check_allocation(ctx.fd, b, &ib);
	vseg_check_allocation(ctx.fd, c_h, &ic);
	igt_assert_f(ib.segment_id == ctx.ap_id,
		     "evicted with eviction set = aperture, B is in %s\n",
		     vseg_ctx_seg_name(&ctx, ib.segment_id));
	igt_assert_f(ib.placement_flags & DRM_VSEG_INFO_RESIDENT,
		     "a buffer evicted to the aperture is not resident\n");
	igt_assert_f(ic.segment_id == 0,
		     "evicted with an empty eviction set, C is in %s\n",
		     vseg_ctx_seg_name(&ctx, ic.segment_id));
	igt_assert(!(ic.placement_flags & DRM_VSEG_INFO_RESIDENT));
	for (unsigned int i = 0; i < n; i++)
		igt_assert_f(where(fill[i]).segment == vram_id,
			     "vram-only filler %u is in %s\n", i,
			     vseg_ctx_seg_name(&ctx, where(fill[i]).segment));
	vseg_usage_read(ctx.fd, &u);
	igt_assert_eq_u64(u.usage[vram_id].evicted,
			  ctx.base_usage.usage[vram_id].evicted +
			  2 * size);
	igt_assert_eq_u64(u.usage[vram_id].committed,
			  vseg_ctx_seg(&ctx, vram_id)->size);
	igt_assert_eq_u64(u.usage[ctx.ap_id].committed,
			  ctx.base_usage.usage[ctx.ap_id].committed + size);

	/* MAKE_RESIDENT of both pushes fillers out instead. */
	vseg_make_resident(ctx.fd, bc, 2);
	for (unsigned int i = 0; i < 2; i++) {
		struct where w = where(bc[i]);

		igt_assert_f(w.segment == vram_id,
			     "MAKE_RESIDENT left buffer %u in %s\n", i,
			     vseg_ctx_seg_name(&ctx, w.segment));
		ptr = vseg_gem_mmap(ctx.fd, bc[i], size, PROT_READ);
		igt_assert_f(vseg_pattern_check(ptr, size, 0x500 + i) < 0,
			     "buffer %u lost its data on the way\n", i);
		munmap(ptr, size);
	}
	{
		unsigned int out = 0;

		for (unsigned int i = 0; i < n; i++)
			out += where(fill[i]).segment != vram_id;
		igt_assert_eq(out, 2);
		vseg_usage_read(ctx.fd, &u);
		igt_assert_eq_u64(u.usage[vram_id].evicted,
				  ctx.base_usage.usage[vram_id].evicted +
				  2 * size);
	}
	for (unsigned int i = 0; i < n; i++)
		vseg_gem_close(ctx.fd, fill[i]);
	free(fill);
	vseg_gem_close(ctx.fd, b);
	vseg_gem_close(ctx.fd, c_h);
	vseg_ctx_finish(&ctx, "after closing every buffer");
}

/* --- pinning --------------------------------------------------------------------- */

static void test_pin(void)
{
	const uint64_t size = SZ_1M;
	struct drm_vseg_gem_info i;
	uint32_t a, b, ab[2], processed, *fill;
	struct where wa, wb;
	unsigned int n;
	int err;

	/* This file pins all of vram below: lift its pin budget. */
	load_profile("discrete pin_limit_percent=100");

	a = vseg_gem_create_simple(ctx.fd, size, BIT(vram_id), 0);
	b = vseg_gem_create_simple(ctx.fd, size, BIT(vram_id), 0);
	ab[0] = a;
	ab[1] = b;

	/* Pin B where it is. */
	igt_assert_eq(make_resident(&b, 1, PIN, &processed), 0);
	igt_assert_eq_u32(processed, 1);
	vseg_check_allocation(ctx.fd, b, &i);
	igt_assert_f(i.placement_flags & DRM_VSEG_INFO_PINNED,
		     "MAKE_RESIDENT with PIN did not pin\n");
	igt_assert_eq_u32(i.segment_id, vram_id);

	/* EVICT without UNPIN: -EBUSY, and A in the same list stays too. */
	wa = where(a);
	wb = where(b);
	err = evict(ab, 2, 0, NULL);
	igt_assert_f(err == -EBUSY, "EVICT of a pinned buffer: %d (%s)\n", err,
		     vseg_errname(err));
	assert_same(a, wa, "EVICT refused for a pinned buffer in the list");
	assert_same(b, wb, "EVICT of a pinned buffer");

	/* Flags of the other ioctl are refused. */
	err = make_resident(&a, 1, UNPIN, NULL);
	igt_assert_f(err == -EINVAL, "MAKE_RESIDENT with UNPIN: %d (%s)\n", err,
		     vseg_errname(err));
	err = evict(&a, 1, PIN, NULL);
	igt_assert_f(err == -EINVAL, "EVICT with PIN: %d (%s)\n", err,
		     vseg_errname(err));
	/* UNPIN of a buffer that is not pinned. */
	err = evict(ab, 2, UNPIN, NULL);
	igt_assert_f(err == -EINVAL, "EVICT with UNPIN of an unpinned buffer: %d (%s)\n",
		     err, vseg_errname(err));
	assert_same(a, wa, "EVICT with UNPIN refused");
	assert_same(b, wb, "EVICT with UNPIN refused");

	/* A pinned buffer stays put under pressure; unpinned ones go. */
	n = vseg_ctx_seg(&ctx, vram_id)->size / size;
	fill = calloc(n, sizeof(uint32_t));
	igt_assert(fill);
	for (unsigned int k = 0; k < n; k++)
		fill[k] = vseg_gem_create_simple(ctx.fd, size, BIT(vram_id), 0);
	assert_same(b, wb, "pinned buffer under pressure");
	igt_assert_eq_u32(where(a).segment, 0);

	/* Everything in vram pinned: nothing can make room any more. */
	{
		uint32_t resident[64], nr = 0;
		struct drm_vseg_gem_create c;

		for (unsigned int k = 0; k < n; k++)
			if (where(fill[k]).segment == vram_id)
				resident[nr++] = fill[k];
		igt_assert_eq(nr, n - 1);
		vseg_make_resident(ctx.fd, resident, nr);
		igt_assert_eq(make_resident(resident, nr, PIN, &processed), 0);
		igt_assert_eq_u32(processed, nr);

		vseg_create_args(&c, size, BIT(vram_id), 0);
		err = __vseg_gem_create(ctx.fd, &c);
		igt_assert_f(err == -ENOSPC,
			     "vram-only create with vram full of pinned buffers: %d (%s)\n",
			     err, vseg_errname(err));
		err = make_resident(&a, 1, 0, NULL);
		igt_assert_f(err == -ENOSPC || err == -ENOMEM,
			     "MAKE_RESIDENT into vram full of pinned buffers: %d (%s)\n",
			     err, vseg_errname(err));
		igt_info("MAKE_RESIDENT with no room: %d (%s)\n", err,
			 vseg_errname(err));
		igt_assert_eq_u32(where(a).segment, 0);

		/* With the aperture as an alternative it lands there. */
		vseg_create_args(&c, size, BIT(vram_id) | BIT(ctx.ap_id),
				 AP_FLAG);
		vseg_gem_create(ctx.fd, &c);
		igt_assert_eq_u32(where(c.handle).segment, ctx.ap_id);
		vseg_gem_close(ctx.fd, c.handle);

		/* Unpin one: it is evicted, and A can take its place. */
		igt_assert_eq(evict(&resident[0], 1, UNPIN, &processed), 0);
		igt_assert_eq_u32(processed, 1);
		vseg_check_allocation(ctx.fd, resident[0], &i);
		igt_assert(!(i.placement_flags & DRM_VSEG_INFO_PINNED));
		igt_assert_eq_u32(i.segment_id, 0);
		vseg_make_resident(ctx.fd, &a, 1);
		igt_assert_eq_u32(where(a).segment, vram_id);
	}

	/* Pinned twice: a single UNPIN is not enough to evict it. */
	igt_assert_eq(make_resident(&b, 1, PIN, &processed), 0);
	wb = where(b);
	igt_assert(wb.flags & DRM_VSEG_INFO_PINNED);
	err = evict(&b, 1, UNPIN, NULL);
	igt_assert_f(err == -EBUSY, "EVICT with UNPIN of a buffer pinned twice: %d (%s)\n",
		     err, vseg_errname(err));
	assert_same(b, wb, "EVICT with UNPIN of a buffer pinned twice");

	/* Closing pinned buffers frees them. */
	for (unsigned int k = 0; k < n; k++)
		vseg_gem_close(ctx.fd, fill[k]);
	free(fill);
	vseg_gem_close(ctx.fd, a);
	vseg_gem_close(ctx.fd, b);
	vseg_ctx_finish(&ctx, "after closing every buffer");
}

/* --- per-file pins ------------------------------------------------------------ */

/* Is @h (on @fd) pinned, and where is it? */
static bool pinned_on(int fd, uint32_t h, uint32_t *segment)
{
	struct drm_vseg_gem_info i;

	vseg_gem_info(fd, h, &i);
	if (segment)
		*segment = i.segment_id;
	return i.placement_flags & DRM_VSEG_INFO_PINNED;
}

/* @h of @from as a handle of @to, through PRIME. */
static uint32_t share(int from, uint32_t h, int to)
{
	uint32_t h2 = 0;
	int dmabuf = -1;

	igt_assert_eq(drmPrimeHandleToFD(from, h, DRM_CLOEXEC | DRM_RDWR,
					 &dmabuf), 0);
	igt_assert_eq(drmPrimeFDToHandle(to, dmabuf, &h2), 0);
	close(dmabuf);
	igt_assert(h2);
	return h2;
}

/*
 * Pins belong to the file that takes them and count for the process that
 * opened it: the files of a process may pin at most pin_limit_percent (50
 * by default) of a segment together, counted in bytes per pin, and a PIN
 * past that fails with ENOSPC, leaving the buffer where it was; only the
 * file that created a buffer can unpin it; a file's pins go with its last
 * handle of the buffer and with the file.
 */
static void test_pin_budget(void)
{
	const uint64_t size = SZ_1M;
	uint32_t *h, c, processed, seg, shared, mine;
	struct drm_vseg_gem_create cr;
	unsigned int n;
	struct where w;
	int fd2, err;

	load_profile("discrete");
	n = vseg_ctx_seg(&ctx, vram_id)->size / size / 2;
	h = calloc(n, sizeof(*h));
	igt_assert(h);

	/* Exactly half of vram: every pin fits. */
	for (unsigned int k = 0; k < n; k++)
		h[k] = vseg_gem_create_simple(ctx.fd, size, BIT(vram_id), 0);
	igt_assert_eq(make_resident(h, n, PIN, &processed), 0);
	igt_assert_eq_u32(processed, n);
	for (unsigned int k = 0; k < n; k++) {
		igt_assert(pinned_on(ctx.fd, h[k], &seg));
		igt_assert_eq_u32(seg, vram_id);
	}

	/*
	 * One more byte of pins is past the budget, though vram has room
	 * (vram only: the aperture's id would make the aperture a place).
	 */
	vseg_create_args(&cr, size, BIT(vram_id), 0);
	vseg_create_prefer(&cr, vram_id, 0);
	c = vseg_gem_create(ctx.fd, &cr);
	vseg_evict(ctx.fd, &c, 1);
	w = where(c);
	err = make_resident(&c, 1, PIN, &processed);
	igt_assert_f(err == -ENOSPC,
		     "PIN past the file's budget: %d (%s), expected -ENOSPC\n",
		     err, vseg_errname(err));
	igt_assert_eq_u32(processed, 0);
	assert_same(c, w, "a PIN past the budget");
	/* A second pin of a pinned buffer counts again. */
	err = make_resident(&h[0], 1, PIN, &processed);
	igt_assert_f(err == -ENOSPC,
		     "a second PIN of a buffer at the budget: %d (%s)\n", err,
		     vseg_errname(err));
	/* Without PIN it is no pin: fine. */
	igt_assert_eq(make_resident(&c, 1, 0, &processed), 0);
	igt_assert_eq_u32(where(c).segment, vram_id);

	/* Another file of this process shares the process's budget. */
	fd2 = drm_open_vseg();
	mine = vseg_gem_create_simple(fd2, size, BIT(vram_id), 0);
	err = __vseg_make_resident_flags(fd2, &mine, 1, PIN, NULL);
	igt_assert_f(err == -ENOSPC,
		     "PIN through a second file of the process: %d (%s), expected -ENOSPC\n",
		     err, vseg_errname(err));
	igt_assert(!pinned_on(fd2, mine, NULL));
	drm_close_driver(fd2);

	/* Another process's file has a budget of its own. */
	fd2 = drm_open_vseg_other_process(false);
	mine = vseg_gem_create_simple(fd2, size, BIT(vram_id), 0);
	igt_assert_eq(__vseg_make_resident_flags(fd2, &mine, 1, PIN, NULL), 0);
	igt_assert(pinned_on(fd2, mine, NULL));

	/* It cannot drop this file's pins, nor evict the buffer. */
	shared = share(ctx.fd, h[0], fd2);
	w = where(h[0]);
	err = __vseg_evict_flags(fd2, &shared, 1, UNPIN, NULL);
	igt_assert_f(err == -EPERM,
		     "UNPIN of another file's buffer: %d (%s), expected -EPERM\n",
		     err, vseg_errname(err));
	err = __vseg_evict_flags(fd2, &shared, 1, 0, NULL);
	igt_assert_f(err == -EBUSY,
		     "EVICT of a buffer another file pinned: %d (%s), expected -EBUSY\n",
		     err, vseg_errname(err));
	assert_same(h[0], w, "another file's UNPIN and EVICT");

	/* Its own pin of the shared buffer is charged to it, kept from ours. */
	igt_assert_eq(__vseg_make_resident_flags(fd2, &shared, 1, PIN, NULL),
		      0);
	err = evict(&h[0], 1, UNPIN, NULL);
	igt_assert_f(err == -EBUSY,
		     "UNPIN of a buffer another file pinned too: %d (%s), expected -EBUSY\n",
		     err, vseg_errname(err));
	assert_same(h[0], w, "UNPIN while another file pins it too");
	/* Its pins go with its last handle of the buffer... */
	vseg_gem_close(fd2, shared);
	igt_assert_eq(evict(&h[0], 1, UNPIN, &processed), 0);
	igt_assert_eq_u32(processed, 1);
	igt_assert(!pinned_on(ctx.fd, h[0], &seg));
	igt_assert_eq_u32(seg, 0);

	/* ...and with the file. */
	shared = share(fd2, mine, ctx.fd);
	igt_assert(pinned_on(ctx.fd, shared, NULL));
	drm_close_driver(fd2);
	igt_assert_f(!pinned_on(ctx.fd, shared, NULL),
		     "a closed file's pin survived it\n");
	vseg_evict(ctx.fd, &shared, 1);
	vseg_gem_close(ctx.fd, shared);

	/* The budget freed by the UNPIN takes the buffer refused before. */
	igt_assert_eq(make_resident(&c, 1, PIN, &processed), 0);
	igt_assert(pinned_on(ctx.fd, c, &seg));
	igt_assert_eq_u32(seg, vram_id);

	/*
	 * Closing this file's last handle of a pinned buffer gives its pin
	 * back: another buffer fits the budget in its place, one more does
	 * not.
	 */
	vseg_gem_close(ctx.fd, c);
	c = vseg_gem_create_simple(ctx.fd, size, BIT(vram_id), 0);
	igt_assert_eq(make_resident(&c, 1, PIN, &processed), 0);
	igt_assert(pinned_on(ctx.fd, c, NULL));
	mine = vseg_gem_create_simple(ctx.fd, size, BIT(vram_id), 0);
	err = make_resident(&mine, 1, PIN, &processed);
	igt_assert_f(err == -ENOSPC,
		     "PIN past the budget after a close: %d (%s)\n", err,
		     vseg_errname(err));
	igt_assert(!pinned_on(ctx.fd, mine, NULL));
	vseg_gem_close(ctx.fd, mine);
	vseg_gem_close(ctx.fd, c);
	for (unsigned int k = 0; k < n; k++)
		vseg_gem_close(ctx.fd, h[k]);
	free(h);
	vseg_ctx_finish(&ctx, "after closing every buffer");
}

/* --- bad arguments ------------------------------------------------------------ */

static void expect_err(unsigned long ioc, struct drm_vseg_residency *r,
		       int err, const uint32_t *watch, unsigned int nwatch,
		       const char *what)
{
	struct vseg_usage_snapshot before;
	struct where w[4];
	int ret;

	igt_assert(nwatch <= 4);
	vseg_usage_read(ctx.fd, &before);
	for (unsigned int i = 0; i < nwatch; i++)
		w[i] = where(watch[i]);
	ret = residency_ioctl(ioc, r);
	vseg_assert_ret(ret, err, "%s %s",
			ioc == DRM_IOCTL_VSEG_EVICT ? "EVICT" : "MAKE_RESIDENT",
			what);
	for (unsigned int i = 0; i < nwatch; i++)
		assert_same(watch[i], w[i], what);
	vseg_usage_assert(ctx.fd, &before, what);
}

static void test_invalid(void)
{
	const unsigned long iocs[] = { DRM_IOCTL_VSEG_MAKE_RESIDENT,
				       DRM_IOCTL_VSEG_EVICT };
	uint32_t in, out, list[4];
	size_t page = sysconf(_SC_PAGESIZE);
	struct drm_vseg_residency r;
	char *map;

	load_profile("discrete");
	in = vseg_gem_create_simple(ctx.fd, SZ_1M, BIT(vram_id), 0);
	out = vseg_gem_create_simple(ctx.fd, SZ_1M, BIT(vram_id), 0);
	vseg_evict(ctx.fd, &out, 1);

	for (unsigned int k = 0; k < 2; k++) {
		const unsigned long ioc = iocs[k];
		/* The buffer this ioctl would move. */
		const uint32_t mover = k ? in : out;
		const uint32_t allowed = k ? UNPIN | DRM_VSEG_RESIDENCY_DISCARD :
					     PIN;

		/* Unknown handles, anywhere in the list. */
		list[0] = mover;
		list[1] = 0xdead;
		memset(&r, 0, sizeof(r));
		r.handles = (uintptr_t)list;
		r.count = 2;
		expect_err(ioc, &r, -ENOENT, &mover, 1, "unknown second handle");
		list[0] = 0;
		list[1] = mover;
		expect_err(ioc, &r, -ENOENT, &mover, 1, "handle 0 first");
		list[0] = mover;
		list[1] = mover + 1000;
		list[2] = mover;
		r.count = 3;
		expect_err(ioc, &r, -ENOENT, &mover, 1, "unknown middle handle");

		/* Counts. */
		list[0] = mover;
		memset(&r, 0, sizeof(r));
		r.handles = (uintptr_t)list;
		expect_err(ioc, &r, -EINVAL, &mover, 1, "count 0");
		r.handles = 0;
		expect_err(ioc, &r, -EINVAL, &mover, 1, "count 0, no array");
		{
			uint32_t *big = calloc(DRM_VSEG_MAX_RESIDENCY_HANDLES + 1,
					       sizeof(uint32_t));

			igt_assert(big);
			for (unsigned int i = 0; i <= DRM_VSEG_MAX_RESIDENCY_HANDLES; i++)
				big[i] = mover;
			r.handles = (uintptr_t)big;
			r.count = DRM_VSEG_MAX_RESIDENCY_HANDLES + 1;
			expect_err(ioc, &r, -E2BIG, &mover, 1, "count 1025");
			r.count = ~0u;
			expect_err(ioc, &r, -E2BIG, &mover, 1, "count ~0");
			r.count = 0x80000000u;
			expect_err(ioc, &r, -E2BIG, &mover, 1, "count 2^31");
			free(big);
		}

		/* Bad array pointers. */
		memset(&r, 0, sizeof(r));
		r.count = 1;
		expect_err(ioc, &r, -EFAULT, &mover, 1, "NULL array");
		r.handles = (uint64_t)(uintptr_t)-4096;
		expect_err(ioc, &r, -EFAULT, &mover, 1, "kernel address");
		r.handles = 1ull << 63;
		expect_err(ioc, &r, -EFAULT, &mover, 1, "non-canonical address");
		map = mmap(NULL, 2 * page, RW, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		igt_assert(map != MAP_FAILED);
		igt_assert_eq(mprotect(map + page, page, PROT_NONE), 0);
		/* The first handle readable, the second on the PROT_NONE page. */
		((uint32_t *)(map + page))[-1] = mover;
		r.handles = (uintptr_t)(map + page - sizeof(uint32_t));
		r.count = 2;
		expect_err(ioc, &r, -EFAULT, &mover, 1,
			   "array running into a PROT_NONE page");
		munmap(map, 2 * page);

		/* Flags, padding, reserved fields, extensions. */
		for (unsigned int bit = 0; bit < 32; bit++) {
			char what[48];

			if (allowed & (1u << bit))
				continue;
			memset(&r, 0, sizeof(r));
			list[0] = mover;
			r.handles = (uintptr_t)list;
			r.count = 1;
			r.flags = 1u << bit;
			snprintf(what, sizeof(what), "flag bit %u", bit);
			expect_err(ioc, &r, -EINVAL, &mover, 1, what);
		}
		memset(&r, 0, sizeof(r));
		r.handles = (uintptr_t)list;
		r.count = 1;
		r.pad = 1;
		expect_err(ioc, &r, -EINVAL, &mover, 1, "pad");
		r.pad = 0;
		r.reserved[0] = 1;
		expect_err(ioc, &r, -EINVAL, &mover, 1, "reserved[0]");
		r.reserved[0] = 0;
		r.reserved[1] = 1ull << 63;
		expect_err(ioc, &r, -EINVAL, &mover, 1, "reserved[1]");
		r.reserved[1] = 0;
		/* MAKE_RESIDENT's is a chain (0.12): a wild link faults. */
		r.extensions = 1;
		expect_err(ioc, &r,
			   ioc == DRM_IOCTL_VSEG_MAKE_RESIDENT ? -EFAULT :
								 -EINVAL,
			   &mover, 1, "extensions");

		/* A bad argument pointer. */
		do_ioctl_err(ctx.fd, ioc, NULL, EFAULT);
	}

	/* The buffers themselves are fine: both ioctls still work. */
	vseg_make_resident(ctx.fd, &out, 1);
	igt_assert_eq_u32(where(out).segment, vram_id);
	vseg_evict(ctx.fd, &in, 1);
	igt_assert_eq_u32(where(in).segment, 0);
	vseg_gem_close(ctx.fd, in);
	vseg_gem_close(ctx.fd, out);

	/* A handle that was closed is unknown. */
	memset(&r, 0, sizeof(r));
	r.handles = (uintptr_t)&in;
	r.count = 1;
	igt_assert_eq(residency_ioctl(DRM_IOCTL_VSEG_MAKE_RESIDENT, &r), -ENOENT);
	igt_assert_eq(residency_ioctl(DRM_IOCTL_VSEG_EVICT, &r), -ENOENT);
	vseg_ctx_finish(&ctx, "after closing every buffer");
}

/* The limit itself: DRM_VSEG_MAX_RESIDENCY_HANDLES handles in one call. */
static void test_max_handles(void)
{
	const unsigned int n = DRM_VSEG_MAX_RESIDENCY_HANDLES;
	struct vseg_usage_snapshot u;
	uint32_t *h, processed;

	load_profile("discrete");
	h = calloc(n, sizeof(uint32_t));
	igt_assert(h);
	for (unsigned int i = 0; i < n; i++)
		h[i] = vseg_gem_create_simple(ctx.fd, SZ_4K, BIT(ctx.ap_id),
					      i & 1 ? AP_FLAG : 0);
	igt_assert_eq(evict(h, n, 0, &processed), 0);
	igt_assert_eq_u32(processed, n);
	vseg_usage_read(ctx.fd, &u);
	igt_assert_eq_u64(u.usage[ctx.ap_id].committed,
			  ctx.base_usage.usage[ctx.ap_id].committed);
	igt_assert_eq_u64(u.usage[ctx.ap_id].evicted,
			  ctx.base_usage.usage[ctx.ap_id].evicted + n * SZ_4K);
	igt_assert_eq_u64(u.usage[ctx.ap_id].aperture_mapped,
			  ctx.base_usage.usage[ctx.ap_id].aperture_mapped);
	for (unsigned int i = 0; i < n; i += 97)
		igt_assert_eq_u32(where(h[i]).segment, 0);

	igt_assert_eq(make_resident(h, n, 0, &processed), 0);
	igt_assert_eq_u32(processed, n);
	vseg_usage_read(ctx.fd, &u);
	igt_assert_eq_u64(u.usage[ctx.ap_id].committed,
			  ctx.base_usage.usage[ctx.ap_id].committed +
			  n * SZ_4K);
	igt_assert_eq_u64(u.usage[ctx.ap_id].aperture_mapped,
			  ctx.base_usage.usage[ctx.ap_id].aperture_mapped +
			  n / 2 * SZ_4K);
	igt_assert_eq_u64(u.usage[ctx.ap_id].evicted,
			  ctx.base_usage.usage[ctx.ap_id].evicted);
	for (unsigned int i = 0; i < n; i += 97)
		igt_assert_eq_u32(where(h[i]).segment, ctx.ap_id);

	for (unsigned int i = 0; i < n; i++)
		vseg_gem_close(ctx.fd, h[i]);
	free(h);
	vseg_ctx_finish(&ctx, "after closing every buffer");
}

/* --- accounting against a model ------------------------------------------------ */

struct buf {
	uint32_t handle;
	uint64_t size;
	uint32_t home;		/* where it was created */
	uint32_t evicted_from;	/* segment it was EVICTed from, or 0 */
};

/* The usage the model predicts from the buffers' placements. */
static void check_model(const struct buf *b, unsigned int n, const char *what)
{
	struct vseg_usage_snapshot want = ctx.base_usage;

	for (unsigned int i = 0; i < n; i++) {
		struct drm_vseg_gem_info info;

		vseg_gem_info(ctx.fd, b[i].handle, &info);
		igt_assert_eq_u64(info.size, b[i].size);
		want.usage[info.segment_id].committed += b[i].size;
		if (info.segment_id) {
			igt_assert_f(info.placement_flags & DRM_VSEG_INFO_RESIDENT,
				     "%s: buffer %u in %s is not resident\n",
				     what, i,
				     vseg_ctx_seg_name(&ctx, info.segment_id));
			igt_assert_eq_u64(info.resident_bytes, b[i].size);
		} else {
			igt_assert(!(info.placement_flags & DRM_VSEG_INFO_RESIDENT));
			igt_assert_eq_u64(info.resident_bytes, 0);
		}
		want.usage[info.segment_id].resident += b[i].size;
		if (info.placement_flags & DRM_VSEG_INFO_APERTURE_MAPPED)
			want.usage[ctx.ap_id].aperture_mapped += b[i].size;
		if (b[i].evicted_from)
			want.usage[b[i].evicted_from].evicted += b[i].size;
	}
	vseg_usage_assert(ctx.fd, &want, what);
}

static void test_accounting(const char *profile)
{
	const unsigned int n = 16;
	uint32_t ids[DRM_VSEG_MAX_SEGMENTS + 1], nids = 0, seed;
	struct buf b[16];
	char what[64];

	load_profile(profile);
	seed = vseg_test_seed((uint32_t)time(NULL));
	srandom(seed);
	for (uint32_t id = 1; id <= ctx.q.num_segments; id++)
		if (vseg_ctx_is_memory(&ctx, id))
			ids[nids++] = id;
	/* the aperture's id also names system memory (segment 0) */
	ids[nids++] = ctx.ap_id;

	/* Small buffers: the segments never run out of room. */
	for (unsigned int i = 0; i < n; i++) {
		struct drm_vseg_gem_create c;
		struct drm_vseg_gem_info info;
		uint32_t set = 0, flags;

		while (!set)
			for (unsigned int k = 0; k < nids; k++)
				if (random() % 3 == 0)
					set |= BIT(ids[k]);
		flags = (set & ~BIT(ctx.ap_id)) && random() % 2 ? AP_FLAG : 0;
		vseg_create_args(&c, (1 + random() % 4) * SZ_64K, set, flags);
		if (random() % 2) {
			/*
			 * Not system memory: MAKE_RESIDENT would then rightly
			 * put the buffer elsewhere than where it was created.
			 */
			uint32_t p = ids[random() % nids];

			if (p && (set & BIT(p)))
				vseg_create_prefer(&c, p, 0);
		}
		b[i].handle = vseg_gem_create(ctx.fd, &c);
		b[i].size = c.size;
		vseg_gem_info(ctx.fd, b[i].handle, &info);
		b[i].home = info.segment_id;
		b[i].evicted_from = 0;
	}
	check_model(b, n, "after creating");

	for (unsigned int round = 0; round < 40; round++) {
		uint32_t list[16], count = 0, processed;
		bool ev = random() % 2;

		for (unsigned int i = 0; i < n; i++)
			if (random() % 4 == 0)
				list[count++] = i;
		if (!count)
			continue;
		for (unsigned int k = 0; k < count; k++) {
			struct buf *x = &b[list[k]];

			if (ev) {
				uint32_t now = where(x->handle).segment;

				if (now && !x->evicted_from)
					x->evicted_from = now;
			}
			list[k] = x->handle;
		}
		if (ev)
			igt_assert_eq(evict(list, count, 0, &processed), 0);
		else
			igt_assert_eq(make_resident(list, count, 0, &processed), 0);
		igt_assert_eq_u32(processed, count);

		/* Evicted buffers are in system memory, the others back home. */
		for (unsigned int i = 0; i < n; i++) {
			uint32_t now = where(b[i].handle).segment;
			bool listed = false;

			for (unsigned int k = 0; k < count; k++)
				listed |= list[k] == b[i].handle;
			if (!listed)
				continue;
			if (ev) {
				igt_assert_eq_u32(now, 0);
			} else {
				igt_assert_f(now == b[i].home,
					     "MAKE_RESIDENT put buffer %u in %s, it was created in %s\n",
					     i, vseg_ctx_seg_name(&ctx, now),
					     vseg_ctx_seg_name(&ctx, b[i].home));
				b[i].evicted_from = 0;
			}
		}
		snprintf(what, sizeof(what), "round %u (%s of %u)", round,
			 ev ? "EVICT" : "MAKE_RESIDENT", count);
		check_model(b, n, what);
	}

	/* Close in random order, some while evicted. */
	for (unsigned int i = 0; i < n; i++) {
		unsigned int j = i + random() % (n - i);
		struct buf t = b[i];

		b[i] = b[j];
		b[j] = t;
		vseg_gem_close(ctx.fd, b[i].handle);
		check_model(b + i + 1, n - i - 1, "after closing");
	}
	vseg_ctx_finish(&ctx, "after closing every buffer");
}

igt_main
{
	igt_fixture
		vseg_ctx_setup(&ctx);

	igt_describe("EVICT moves a buffer to system memory and MAKE_RESIDENT "
		     "back, in every segment; GEM_INFO, the usage and debugfs "
		     "follow; data survives; repeated calls change nothing.");
	igt_subtest("evict-make-resident")
		test_evict_make_resident();

	igt_describe("Eviction under pressure goes to the eviction set (the "
		     "aperture) or to system memory; MAKE_RESIDENT pushes "
		     "other buffers out.");
	igt_subtest("pressure")
		test_pressure();

	igt_describe("Pinned buffers are not evicted, EVICT refuses them "
		     "unless unpinning, and a segment full of pinned buffers "
		     "(one file allowed to pin it all: pin_limit_percent=100) "
		     "gives ENOSPC.");
	igt_subtest("pin")
		test_pin();

	igt_describe("Each process may pin half of a segment "
		     "(pin_limit_percent), whatever files it opened, a pin "
		     "counted each time: past that PIN fails with ENOSPC and "
		     "nothing moves; only the creating file can unpin; a "
		     "file's pins go with its last handle and with the file.");
	igt_subtest("pin-budget")
		test_pin_budget();

	igt_describe("Unknown handles, bad counts, bad pointers and nonzero "
		     "flags, padding or reserved fields are refused before "
		     "anything moves.");
	igt_subtest("invalid")
		test_invalid();

	igt_describe("DRM_VSEG_MAX_RESIDENCY_HANDLES handles in one call.");
	igt_subtest("max-handles")
		test_max_handles();

	igt_describe("Random EVICT / MAKE_RESIDENT rounds: the usage of every "
		     "segment matches the buffers' placements, and returns to "
		     "its start when they are closed.");
	igt_subtest_with_dynamic("accounting")
		vseg_dynamic_profiles(test_accounting);

	igt_fixture {
		vseg_ctx_unload(&ctx);
	}
}
