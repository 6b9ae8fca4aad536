// SPDX-License-Identifier: MIT
/*
 * vseg_paging: the paging buffer and the paging engine. Where the buffer
 * lives and what it commits, moves written as paging operations and split
 * across flushes of a small buffer with every byte checked, EVICT returning
 * before its transfer ends, DISCARD, the paging counters, and a second
 * client moving its own buffers through the same paging buffer.
 *
 * Copyright (c) 2026 The vseg authors
 */
/**
 * TEST: vseg paging
 * Category: Core
 * Mega feature: General Core features
 * Sub-category: Memory management
 * Functionality: paging engine
 * Description: The paging buffer (in the aperture or in system memory) and
 *	the paging engine that runs every buffer move: transfers split across
 *	buffer flushes, asynchronous EVICT, DISCARD, exact counters, and two
 *	clients sharing the engine.
 *
 * SUBTEST: buffer-aperture
 * Description: With PagingBufferSegmentId naming the aperture, the paging
 *	buffer is a GART-mapped range of the aperture (debugfs "aperture"
 *	lists it) that counts against the commit limit, with no private data.
 *
 * SUBTEST: buffer-system
 * Description: With PagingBufferSegmentId 0, the paging buffer is system
 *	memory: nothing committed to the aperture; the private data has its
 *	size and is zero.
 *
 * SUBTEST: scattered-moves
 * Description: A multi-MiB buffer moves into fragmented vram (64 KiB
 *	holes) and back through a paging buffer of 4 operations, each 2 MiB
 *	window of the move (two UPDATE_PTs, a FLUSH_TLB, a TransferVirtual
 *	over scattered pages) filling it: each move is split across several
 *	flushes, every byte arrives.
 *
 * SUBTEST: one-operation
 * Description: A paging buffer with room for one operation still moves
 *	buffers of many operations, one flush each, every byte intact.
 *
 * SUBTEST: evict-async
 * Description: EVICT returns while the transfer is still running (the
 *	buffer's dma-buf fence is pending); a CPU read right after waits for
 *	it and sees every byte; so does a move right after.
 *
 * SUBTEST: discard
 * Description: EVICT with DRM_VSEG_RESIDENCY_DISCARD from a memory segment,
 *	the aperture and system memory: nothing is transferred, the buffer
 *	reads zero, an aperture range goes; a pinned buffer is refused
 *	(EBUSY) and keeps its data; bad flags are refused.
 *
 * SUBTEST: counters
 * Description: Creation into a memory segment counts one Fill, each move
 *	one Transfer on both segments, a DISCARD one Discard, a closed buffer
 *	one Discard; the engine's operation and byte counters grow with them
 *	(the buffer is not AccessedPhysically: FillVirtual, TransferVirtual).
 *
 * SUBTEST: virtual-ops
 * Description: A 3 MiB buffer without AccessedPhysically, in the 64 KiB-
 *	page vram of the discrete profile: its creation clear counts two
 *	FillVirtual (one per 2 MiB window), each move two TransferVirtual,
 *	two UPDATE_PTs per window and a FLUSH_TLB, and no physical Fill or
 *	Transfer; every byte arrives; the paging VA space (debugfs paging,
 *	va_*) shows its windows pointing at the last window's pages: 64 KiB
 *	entries for vram, system ones for pages, the source read-only.
 *
 * SUBTEST: physical-ops
 * Description: An AccessedPhysically buffer's creation counts a physical
 *	Fill and its moves physical Transfers, no FillVirtual or
 *	TransferVirtual, and the paging VA space is left untouched; every
 *	byte arrives.
 *
 * SUBTEST: hostile-client
 * Description: Another process moves and discards its own buffers through
 *	the same small paging buffer while this one moves its own; it cannot
 *	reach this one's buffers (ENOENT), and no byte of either is lost.
 *
 * SUBTEST: recycled-pages
 * Description: Pages another client's buffers held come back through the
 *	page pool, unzeroed, to the destinations of later moves; this
 *	client's new buffers read zero wherever they land and however they
 *	move, and its content survives moves into recycled pages.
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <unistd.h>

#include <linux/dma-buf.h>
#include <xf86drm.h>

#include "igt.h"
#include "igt_vseg.h"

IGT_TEST_DESCRIPTION("The paging buffer (in the aperture or in system "
		     "memory) and the paging engine that runs every buffer "
		     "move: transfers split across buffer flushes, "
		     "asynchronous EVICT, DISCARD, exact counters, and two "
		     "clients sharing the engine.");

#define AP_FLAG		DRM_VSEG_GEM_CREATE_ACCESSED_PHYSICALLY
#define PIN		DRM_VSEG_RESIDENCY_PIN
#define UNPIN		DRM_VSEG_RESIDENCY_UNPIN
#define DISCARD		DRM_VSEG_RESIDENCY_DISCARD
#define RW		(PROT_READ | PROT_WRITE)
#define OP_SIZE		32	/* one paging operation */

/* A small GPU: a CPU-visible memory segment and an aperture. */
#define SEGMENTS \
	"memory:name=vram,size=32M,flags=cpuvisible,cpu=0xe0000000;" \
	"aperture:name=gart,size=16M,commit=8M"

static struct vseg_ctx ctx = VSEG_CTX_INIT(VSEG_LEFTOVERS_NONE_OURS);
static uint32_t vram_id;

static void load(const char *paging)
{
	vseg_ctx_load_f(&ctx, "discrete table=" SEGMENTS ";%s", paging);
	vram_id = vseg_segment_by_name(&ctx.q, ctx.segs, "vram");
}

static struct vseg_paging_engine engine(void)
{
	struct vseg_paging p;

	vseg_debugfs_read_paging(ctx.fd, &p);
	return p.engine;
}

static void make_resident(int fd, uint32_t h, uint32_t seg)
{
	vseg_make_resident(fd, &h, 1);
	igt_assert_eq_u32(vseg_gem_segment(fd, h), seg);
}

static void evict(int fd, uint32_t h)
{
	vseg_evict(fd, &h, 1);
	igt_assert_eq_u32(vseg_gem_segment(fd, h), 0);
}

/* --- where the buffer lives --------------------------------------------- */

static void test_buffer_aperture(void)
{
	struct vseg_aperture_state ap;
	const struct vseg_aperture_range *r;
	struct vseg_paging_engine e;
	struct vseg_usage_snapshot u;
	uint32_t h;

	load("paging:seg=2,size=64K");
	e = engine();
	igt_assert_eq_u32(e.segment, ctx.ap_id);
	igt_assert_eq_u64(e.size, SZ_64K);
	igt_assert_eq_u64(e.operations, SZ_64K / OP_SIZE);
	igt_assert_eq_u64(e.private, 0);

	/* A range of the aperture, mapped, owned by no user buffer. */
	vseg_debugfs_read_aperture(ctx.fd, &ap);
	r = vseg_aperture_find(&ap, 0);
	igt_assert_f(r, "debugfs aperture lists no range for the paging buffer\n");
	igt_assert_eq_u64(r->start, e.offset);
	igt_assert_eq_u64(r->size, SZ_64K);
	igt_assert_eq_u64(ap.committed, SZ_64K);
	igt_assert_eq_u64(ap.mapped, SZ_64K);
	vseg_debugfs_free_aperture(&ap);

	/* Committed, and the commit limit counts it. */
	vseg_usage_read(ctx.fd, &u);
	igt_assert_eq_u64(u.usage[ctx.ap_id].committed, SZ_64K);
	igt_assert_eq_u64(u.usage[ctx.ap_id].resident, 0);
	h = vseg_gem_create_simple(ctx.fd, SZ_1M, BIT(ctx.ap_id), AP_FLAG);
	vseg_usage_read(ctx.fd, &u);
	igt_assert_eq_u64(u.usage[ctx.ap_id].committed, SZ_64K + SZ_1M);
	vseg_gem_close(ctx.fd, h);
}

static void test_buffer_system(void)
{
	struct vseg_aperture_state ap;
	struct vseg_paging_engine e;

	load("paging:seg=0,size=8K,priv=100");
	e = engine();
	igt_assert_eq_u32(e.segment, 0);
	igt_assert_eq_u64(e.size, (2 * SZ_4K));
	igt_assert_eq_u64(e.operations, (2 * SZ_4K) / OP_SIZE);
	igt_assert_eq_u64(e.private, 100);
	igt_assert(e.private_zero);

	vseg_debugfs_read_aperture(ctx.fd, &ap);
	igt_assert(!vseg_aperture_find(&ap, 0));
	igt_assert_eq_u64(ap.committed, 0);
	igt_assert_eq_u64(ap.mapped, 0);
	vseg_debugfs_free_aperture(&ap);
}

/* --- moves --------------------------------------------------------------- */

#define HOLE	SZ_64K

/*
 * Fill vram with 64 KiB buffers and close every other one: what moves in
 * afterwards lands in 64 KiB holes, one paging operation per hole.
 * Returns how many buffers it keeps in @keep (closed by unfragment()).
 */
static unsigned int fragment_vram(uint32_t *keep, unsigned int max)
{
	uint64_t n = vseg_ctx_seg(&ctx, vram_id)->size / HOLE;
	uint32_t *h = calloc(n, sizeof(*h));
	unsigned int kept = 0;

	igt_assert(h && n / 2 <= max);
	for (uint64_t i = 0; i < n; i++)
		h[i] = vseg_gem_create_simple(ctx.fd, HOLE, BIT(vram_id), 0);
	for (uint64_t i = 0; i < n; i++) {
		igt_assert_eq_u32(vseg_gem_segment(ctx.fd, h[i]), vram_id);
		if (i % 2)
			vseg_gem_close(ctx.fd, h[i]);
		else
			keep[kept++] = h[i];
	}
	free(h);
	return kept;
}

static void unfragment(const uint32_t *keep, unsigned int n)
{
	while (n--)
		vseg_gem_close(ctx.fd, keep[n]);
}

/*
 * A buffer (without AccessedPhysically) moves into fragmented vram and
 * back, each 2 MiB window of it four operations, its window's entries
 * scattered over 64 KiB holes: more than the paging buffer holds.
 */
static void move_round_trip(uint64_t size, uint32_t seed)
{
	struct vseg_paging_engine e0, e1;
	uint32_t h;

	h = vseg_gem_create_simple(ctx.fd, size, BIT(ctx.ap_id) | BIT(vram_id), 0);
	evict(ctx.fd, h);
	vseg_bo_fill_pattern(ctx.fd, h, size, seed);

	e0 = engine();
	make_resident(ctx.fd, h, vram_id);
	vseg_bo_check_pattern(ctx.fd, h, size, seed,
			      "after the move into vram");
	evict(ctx.fd, h);
	vseg_bo_check_pattern(ctx.fd, h, size, seed, "after the move back");
	e1 = engine();

	igt_info("%llu bytes there and back: %llu batches, %llu waits for room, %llu transfers\n",
		 (unsigned long long)size,
		 (unsigned long long)(e1.batches - e0.batches),
		 (unsigned long long)(e1.full - e0.full),
		 (unsigned long long)(e1.op[VSEG_PAGING_OP_TRANSFER] -
				      e0.op[VSEG_PAGING_OP_TRANSFER]));
	igt_assert_f(e1.full - e0.full >= 2,
		     "the moves never filled the paging buffer of %llu operations\n",
		     (unsigned long long)e1.operations);
	igt_assert_lt_u64(e0.batches + 2, e1.batches);
	igt_assert_lte_u64(e0.bytes + 2 * size, e1.bytes);
	igt_assert_eq_u64(e1.failed, 0);
	igt_assert_eq_u64(e1.pending, 0);
	vseg_gem_close(ctx.fd, h);
}

static void test_scattered_moves(void)
{
	uint32_t keep[512];
	unsigned int n;

	load("paging:seg=2,size=128");
	igt_assert_eq_u64(engine().operations, 128 / OP_SIZE);
	n = fragment_vram(keep, ARRAY_SIZE(keep));
	move_round_trip(SZ_4M, 1);
	move_round_trip((2 * SZ_1M) + SZ_4K, 2);
	unfragment(keep, n);
}

static void test_one_operation(void)
{
	uint32_t keep[512];
	unsigned int n;

	load("paging:seg=0,size=32");
	igt_assert_eq_u64(engine().operations, 1);
	n = fragment_vram(keep, ARRAY_SIZE(keep));
	move_round_trip(SZ_1M, 3);
	unfragment(keep, n);
}

/* Is a fence still pending on the dma-buf @dmabuf (its implicit fences)? */
static bool fence_pending(int dmabuf)
{
	struct dma_buf_export_sync_file arg = {
		.flags = DMA_BUF_SYNC_READ,
		.fd = -1,
	};
	struct pollfd p = { .events = POLLIN };
	int ret;

	igt_assert_eq(ioctl(dmabuf, DMA_BUF_IOCTL_EXPORT_SYNC_FILE, &arg), 0);
	p.fd = arg.fd;
	ret = poll(&p, 1, 0);
	close(arg.fd);
	igt_assert(ret >= 0);
	return ret == 0;
}

static void test_evict_async(void)
{
	const uint64_t size = SZ_16M;
	unsigned int pending = 0;
	int dmabuf;
	uint32_t h;

	/* Room for every operation: EVICT never waits for the engine. */
	load("paging:seg=0,size=1M");
	h = vseg_gem_create_in(ctx.fd, size, vram_id, 0);
	igt_assert_eq(drmPrimeHandleToFD(ctx.fd, h, DRM_CLOEXEC, &dmabuf), 0);
	/*
	 * A busy host may run the engine's worker before the ioctl returns
	 * to us now and then: a few rounds, until one sees it pending.
	 */
	for (unsigned int round = 0; round < 8 && (round < 3 || !pending);
	     round++) {
		make_resident(ctx.fd, h, vram_id);
		vseg_bo_fill_pattern(ctx.fd, h, size, 10 + round);
		/* The placement changes at once; the bytes follow. */
		evict(ctx.fd, h);
		pending += fence_pending(dmabuf);
		vseg_bo_check_pattern(ctx.fd, h, size, 10 + round,
				      "read right after EVICT");
		/* Moves in a row: each waits for the one before. */
		make_resident(ctx.fd, h, vram_id);
		evict(ctx.fd, h);
		make_resident(ctx.fd, h, vram_id);
		vseg_bo_check_pattern(ctx.fd, h, size, 10 + round,
				      "after moves in a row");
	}
	igt_info("EVICT of %llu bytes returned before its transfer ended %u times\n",
		 (unsigned long long)size, pending);
	igt_assert_f(pending > 0,
		     "EVICT always returned after its transfer: moves are synchronous\n");
	close(dmabuf);
	vseg_gem_close(ctx.fd, h);
}

/* --- discard -------------------------------------------------------------- */

static void discard_one(uint32_t h, uint64_t size, uint32_t seg,
			const char *what)
{
	struct vseg_paging p0, p1;

	vseg_debugfs_read_paging(ctx.fd, &p0);
	igt_assert_eq(__vseg_evict_flags(ctx.fd, &h, 1, DISCARD, NULL), 0);
	igt_assert_eq_u32(vseg_gem_segment(ctx.fd, h), 0);
	vseg_bo_check_zero(ctx.fd, h, size, what);
	vseg_debugfs_read_paging(ctx.fd, &p1);
	igt_assert_eq_u64(p1.seg[seg].discards, p0.seg[seg].discards + 1);
	for (uint32_t id = 0; id <= ctx.q.num_segments; id++)
		igt_assert_eq_u64(p1.seg[id].transfers, p0.seg[id].transfers);
}

static void test_discard(void)
{
	struct vseg_aperture_state ap;
	struct drm_vseg_gem_info info;
	uint32_t h, flags;

	load("paging:seg=2,size=64K");

	/* From a memory segment. */
	h = vseg_gem_create_in(ctx.fd, (2 * SZ_1M), vram_id, 0);
	vseg_bo_fill_pattern(ctx.fd, h, (2 * SZ_1M), 20);
	igt_assert_eq_u32(vseg_gem_segment(ctx.fd, h), vram_id);
	discard_one(h, (2 * SZ_1M), vram_id, "discarded from vram");
	/* It can be used again. */
	vseg_bo_fill_pattern(ctx.fd, h, (2 * SZ_1M), 21);
	make_resident(ctx.fd, h, vram_id);
	vseg_bo_check_pattern(ctx.fd, h, 2 * SZ_1M, 21,
			      "refilled after a discard");
	vseg_gem_close(ctx.fd, h);

	/* From the aperture: its range goes too. */
	h = vseg_gem_create_simple(ctx.fd, SZ_1M, BIT(ctx.ap_id),
				   AP_FLAG);
	vseg_bo_fill_pattern(ctx.fd, h, SZ_1M, 22);
	igt_assert_eq_u32(vseg_gem_segment(ctx.fd, h), ctx.ap_id);
	vseg_gem_info(ctx.fd, h, &info);
	discard_one(h, SZ_1M, ctx.ap_id, "discarded from the aperture");
	vseg_debugfs_read_aperture(ctx.fd, &ap);
	igt_assert(!vseg_aperture_find(&ap, info.buffer_id));
	vseg_debugfs_free_aperture(&ap);
	vseg_gem_close(ctx.fd, h);

	/* From system memory. */
	h = vseg_gem_create_simple(ctx.fd, SZ_1M, BIT(ctx.ap_id), 0);
	/* created committed to the aperture: evicted, in system memory */
	vseg_evict(ctx.fd, &h, 1);
	vseg_bo_fill_pattern(ctx.fd, h, SZ_1M, 23);
	igt_assert_eq_u32(vseg_gem_segment(ctx.fd, h), 0);
	discard_one(h, SZ_1M, 0, "discarded in system memory");
	vseg_gem_close(ctx.fd, h);

	/* Pinned: refused, the data stays; with UNPIN it goes. */
	h = vseg_gem_create_in(ctx.fd, SZ_1M, vram_id, 0);
	vseg_bo_fill_pattern(ctx.fd, h, SZ_1M, 24);
	igt_assert_eq(__vseg_make_resident_flags(ctx.fd, &h, 1, PIN, NULL), 0);
	igt_assert_eq(__vseg_evict_flags(ctx.fd, &h, 1, DISCARD, NULL),
		      -EBUSY);
	igt_assert_eq_u32(vseg_gem_segment(ctx.fd, h), vram_id);
	vseg_bo_check_pattern(ctx.fd, h, SZ_1M, 24,
			      "pinned buffer after a refused discard");
	igt_assert_eq(__vseg_evict_flags(ctx.fd, &h, 1, UNPIN | DISCARD, NULL),
		      0);
	vseg_bo_check_zero(ctx.fd, h, SZ_1M, "discarded with UNPIN");

	/* Unknown flags, and DISCARD on MAKE_RESIDENT: refused. */
	vseg_bo_fill_pattern(ctx.fd, h, SZ_1M, 25);
	make_resident(ctx.fd, h, vram_id);
	for (flags = DISCARD << 1; flags; flags <<= 1)
		igt_assert_eq(__vseg_evict_flags(ctx.fd, &h, 1, flags, NULL),
			      -EINVAL);
	igt_assert_eq(__vseg_make_resident_flags(ctx.fd, &h, 1, DISCARD,
						 NULL), -EINVAL);
	igt_assert_eq_u32(vseg_gem_segment(ctx.fd, h), vram_id);
	vseg_bo_check_pattern(ctx.fd, h, SZ_1M, 25, "after refused flags");
	vseg_gem_close(ctx.fd, h);
}

/* --- virtual and physical operations -------------------------------------- */

/* The paging VA space's windows, in debugfs "paging". */
static void space_expect(const struct vseg_paging *p, uint64_t v4,
			 uint64_t v64, uint64_t ro, uint64_t sys,
			 const char *what)
{
	const struct vseg_paging_engine *e = &p->engine;

	igt_assert_f(e->va && e->va_valid == v4 + v64 &&
		     e->va_valid_4k == v4 && e->va_valid_64k == v64 &&
		     e->va_readonly == ro && e->va_system == sys,
		     "%s: paging VA space %d, entries 4k %llu (want %llu) 64k %llu (want %llu) readonly %llu (want %llu) system %llu (want %llu)\n",
		     what, e->va, (unsigned long long)e->va_valid_4k,
		     (unsigned long long)v4, (unsigned long long)e->va_valid_64k,
		     (unsigned long long)v64,
		     (unsigned long long)e->va_readonly, (unsigned long long)ro,
		     (unsigned long long)e->va_system, (unsigned long long)sys);
}

/* Operations of kind @op run between @a and @b. */
static uint64_t ran(const struct vseg_paging *a, const struct vseg_paging *b,
		    unsigned int op)
{
	return b->engine.op[op] - a->engine.op[op];
}

/*
 * Between @a and @b: @fill Fill, @transfer Transfer, @fillv FillVirtual,
 * @transferv TransferVirtual; each window (a virtual operation) two
 * UPDATE_PTs at most and one FLUSH_TLB at least; nothing failed.
 */
static void ops_expect(const struct vseg_paging *a, const struct vseg_paging *b,
		       uint64_t fill, uint64_t transfer, uint64_t fillv,
		       uint64_t transferv, const char *what)
{
	uint64_t windows = fillv + transferv;

	igt_info("%s: fill %llu transfer %llu fill_virtual %llu transfer_virtual %llu update_pt %llu flush_tlb %llu bytes %llu\n",
		 what, (unsigned long long)ran(a, b, VSEG_PAGING_OP_FILL),
		 (unsigned long long)ran(a, b, VSEG_PAGING_OP_TRANSFER),
		 (unsigned long long)ran(a, b, VSEG_PAGING_OP_FILL_VIRTUAL),
		 (unsigned long long)ran(a, b,
					 VSEG_PAGING_OP_TRANSFER_VIRTUAL),
		 (unsigned long long)ran(a, b, VSEG_PAGING_OP_UPDATE_PT),
		 (unsigned long long)ran(a, b, VSEG_PAGING_OP_FLUSH_TLB),
		 (unsigned long long)(b->engine.bytes - a->engine.bytes));
	if (fill != UINT64_MAX)
		igt_assert_eq_u64(ran(a, b, VSEG_PAGING_OP_FILL), fill);
	else
		igt_assert_lt_u64(0, ran(a, b, VSEG_PAGING_OP_FILL));
	if (transfer != UINT64_MAX)
		igt_assert_eq_u64(ran(a, b, VSEG_PAGING_OP_TRANSFER), transfer);
	else
		igt_assert_lt_u64(0, ran(a, b, VSEG_PAGING_OP_TRANSFER));
	igt_assert_eq_u64(ran(a, b, VSEG_PAGING_OP_FILL_VIRTUAL), fillv);
	igt_assert_eq_u64(ran(a, b, VSEG_PAGING_OP_TRANSFER_VIRTUAL),
			  transferv);
	igt_assert_eq_u64(ran(a, b, VSEG_PAGING_OP_UPDATE_PT),
			  fillv + 2 * transferv);
	igt_assert_eq_u64(ran(a, b, VSEG_PAGING_OP_FLUSH_TLB), windows);
	igt_assert_eq_u64(b->engine.failed, a->engine.failed);
}

#define ANY	UINT64_MAX

static void load_discrete(void)
{
	vseg_ctx_load(&ctx, "discrete");
	vram_id = vseg_segment_by_name(&ctx.q, ctx.segs, "vram");
}

static void test_virtual_ops(void)
{
	/* Two windows: 2 MiB, then 1 MiB (256 pages, 16 of 64 KiB). */
	const uint64_t size = 3 * SZ_1M;
	struct vseg_paging p0, p1, p2, p3;
	uint32_t h;

	load_discrete();
	vseg_debugfs_read_paging(ctx.fd, &p0);

	h = vseg_gem_create_in(ctx.fd, size, vram_id, 0);
	igt_assert_eq_u32(vseg_gem_segment(ctx.fd, h), vram_id);
	vseg_bo_check_zero(ctx.fd, h, size, "a new buffer");
	vseg_bo_fill_pattern(ctx.fd, h, size, 41);
	vseg_debugfs_read_paging(ctx.fd, &p1);
	ops_expect(&p0, &p1, 0, 0, 2, 0, "creation");
	/* The destination window: the last 1 MiB, in 64 KiB pages. */
	space_expect(&p1, 0, 256, 0, 0, "after the creation clear");

	evict(ctx.fd, h);
	vseg_bo_check_pattern(ctx.fd, h, size, 41, "after EVICT");
	vseg_debugfs_read_paging(ctx.fd, &p2);
	ops_expect(&p1, &p2, 0, 0, 0, 2, "eviction");
	igt_assert_lte_u64(p1.engine.bytes + size, p2.engine.bytes);
	/* Into system pages, out of vram's 64 KiB pages (read-only). */
	space_expect(&p2, 256, 256, 256, 256, "after the eviction");

	make_resident(ctx.fd, h, vram_id);
	vseg_bo_check_pattern(ctx.fd, h, size, 41, "after MAKE_RESIDENT");
	vseg_debugfs_read_paging(ctx.fd, &p3);
	ops_expect(&p2, &p3, 0, 0, 0, 2, "back into vram");
	igt_assert_lte_u64(p2.engine.bytes + size, p3.engine.bytes);
	space_expect(&p3, 256, 256, 256, 256, "after MAKE_RESIDENT");
	igt_assert_eq_u64(p3.seg[vram_id].transfers,
			  p1.seg[vram_id].transfers + 2);

	vseg_gem_close(ctx.fd, h);
}

static void test_physical_ops(void)
{
	const uint64_t size = SZ_1M;
	struct vseg_paging p0, p1, p2, p3;
	uint32_t h;

	load_discrete();
	vseg_debugfs_read_paging(ctx.fd, &p0);

	h = vseg_gem_create_in(ctx.fd, size, vram_id, AP_FLAG);
	igt_assert_eq_u32(vseg_gem_segment(ctx.fd, h), vram_id);
	vseg_bo_check_zero(ctx.fd, h, size, "a new buffer");
	vseg_bo_fill_pattern(ctx.fd, h, size, 42);
	vseg_debugfs_read_paging(ctx.fd, &p1);
	/* Contiguous: one Fill. */
	ops_expect(&p0, &p1, 1, 0, 0, 0, "creation");

	evict(ctx.fd, h);
	vseg_bo_check_pattern(ctx.fd, h, size, 42, "after EVICT");
	vseg_debugfs_read_paging(ctx.fd, &p2);
	ops_expect(&p1, &p2, 0, ANY, 0, 0, "eviction");
	igt_assert_lte_u64(p1.engine.bytes + size, p2.engine.bytes);

	make_resident(ctx.fd, h, vram_id);
	vseg_bo_check_pattern(ctx.fd, h, size, 42, "after MAKE_RESIDENT");
	vseg_debugfs_read_paging(ctx.fd, &p3);
	ops_expect(&p2, &p3, 0, ANY, 0, 0, "back into vram");
	igt_assert_lte_u64(p2.engine.bytes + size, p3.engine.bytes);

	/* The paging VA space's windows were not touched. */
	space_expect(&p3, p0.engine.va_valid_4k, p0.engine.va_valid_64k,
		     p0.engine.va_readonly, p0.engine.va_system,
		     "after the physical moves");
	vseg_gem_close(ctx.fd, h);
}

/* --- counters ------------------------------------------------------------- */

static void test_counters(void)
{
	const uint64_t size = SZ_1M;
	struct vseg_paging p0, p1, p2, p3, p4, p5;
	uint32_t h;

	load("paging:seg=2,size=64K");
	vseg_debugfs_read_paging(ctx.fd, &p0);

	/*
	 * Born in vram, with no content yet: one Fill. The engine's counters
	 * move when it has run the operations: a CPU access waits for that.
	 */
	h = vseg_gem_create_in(ctx.fd, size, vram_id, 0);
	igt_assert_eq_u32(vseg_gem_segment(ctx.fd, h), vram_id);
	vseg_bo_fill_pattern(ctx.fd, h, size, 30);
	vseg_debugfs_read_paging(ctx.fd, &p1);
	igt_assert_eq_u64(p1.seg[vram_id].fills, p0.seg[vram_id].fills + 1);
	igt_assert_eq_u64(p1.seg[vram_id].transfers, p0.seg[vram_id].transfers);
	igt_assert_lt_u64(p0.engine.op[VSEG_PAGING_OP_FILL_VIRTUAL],
			  p1.engine.op[VSEG_PAGING_OP_FILL_VIRTUAL]);

	/* Out and in: one Transfer on each side each time. */
	evict(ctx.fd, h);
	vseg_bo_check_pattern(ctx.fd, h, size, 30, "after EVICT");
	vseg_debugfs_read_paging(ctx.fd, &p2);
	igt_assert_eq_u64(p2.seg[vram_id].transfers,
			  p1.seg[vram_id].transfers + 1);
	igt_assert_eq_u64(p2.seg[0].transfers, p1.seg[0].transfers + 1);
	make_resident(ctx.fd, h, vram_id);
	vseg_bo_check_pattern(ctx.fd, h, size, 30, "after MAKE_RESIDENT");
	vseg_debugfs_read_paging(ctx.fd, &p3);
	igt_assert_eq_u64(p3.seg[vram_id].transfers,
			  p2.seg[vram_id].transfers + 1);
	igt_assert_eq_u64(p3.seg[0].transfers, p2.seg[0].transfers + 1);
	igt_assert_lt_u64(p1.engine.op[VSEG_PAGING_OP_TRANSFER_VIRTUAL] + 1,
			  p3.engine.op[VSEG_PAGING_OP_TRANSFER_VIRTUAL]);
	igt_assert_lte_u64(p1.engine.bytes + 2 * size, p3.engine.bytes);

	/* A discard: one Discard, no Transfer. */
	igt_assert_eq(__vseg_evict_flags(ctx.fd, &h, 1, DISCARD, NULL), 0);
	vseg_bo_check_zero(ctx.fd, h, size, "after DISCARD");
	vseg_debugfs_read_paging(ctx.fd, &p4);
	igt_assert_eq_u64(p4.seg[vram_id].discards,
			  p3.seg[vram_id].discards + 1);
	igt_assert_eq_u64(p4.seg[vram_id].transfers,
			  p3.seg[vram_id].transfers);
	igt_assert_lt_u64(p3.engine.op[VSEG_PAGING_OP_DISCARD],
			  p4.engine.op[VSEG_PAGING_OP_DISCARD]);

	/* A buffer that goes drops its content: one Discard where it was. */
	vseg_gem_close(ctx.fd, h);
	vseg_usage_wait(ctx.fd, &ctx.base_usage, 2000, "after the close");
	vseg_debugfs_read_paging(ctx.fd, &p5);
	igt_assert_eq_u64(p5.seg[0].discards, p4.seg[0].discards + 1);
	igt_assert_eq_u64(p5.engine.failed, 0);
}

/* --- another client ------------------------------------------------------- */

#define HOSTILE_BUFS	4
#define HOSTILE_ROUNDS	8

static void move_rounds(int fd, uint32_t seed, bool discard)
{
	uint32_t h[HOSTILE_BUFS];

	for (unsigned int i = 0; i < HOSTILE_BUFS; i++) {
		h[i] = vseg_gem_create_simple(fd, SZ_1M, BIT(ctx.ap_id) | BIT(vram_id),
					      0);
		vseg_bo_fill_pattern(fd, h[i], SZ_1M, seed + i);
	}
	for (unsigned int r = 0; r < HOSTILE_ROUNDS; r++) {
		vseg_make_resident(fd, h, HOSTILE_BUFS);
		vseg_evict(fd, h, HOSTILE_BUFS);
		for (unsigned int i = 0; i < HOSTILE_BUFS; i++)
			vseg_bo_check_pattern(fd, h[i], SZ_1M, seed + i,
					      "a client's buffer");
		if (discard) {
			igt_assert_eq(__vseg_evict_flags(fd, h, 1, DISCARD,
							 NULL), 0);
			vseg_bo_check_zero(fd, h[0], SZ_1M, "discarded");
			vseg_bo_fill_pattern(fd, h[0], SZ_1M, seed);
		}
	}
	for (unsigned int i = 0; i < HOSTILE_BUFS; i++)
		vseg_gem_close(fd, h[i]);
}

static void test_hostile_client(void)
{
	uint32_t mine;

	load("paging:seg=2,size=1K");
	mine = vseg_gem_create_in(ctx.fd, SZ_1M, vram_id, 0);
	vseg_bo_fill_pattern(ctx.fd, mine, SZ_1M, 40);

	igt_fork(child, 1) {
		int fd = drm_open_vseg_render();

		/* Handle numbers of the other file mean nothing here. */
		for (uint32_t guess = 1; guess < 64; guess++)
			igt_assert_eq(__vseg_evict_flags(fd, &guess, 1,
							 DISCARD, NULL),
				      -ENOENT);
		move_rounds(fd, 1000, true);
		close(fd);
	}
	move_rounds(ctx.fd, 2000, false);
	igt_waitchildren();

	igt_assert_eq_u32(vseg_gem_segment(ctx.fd, mine), vram_id);
	vseg_bo_check_pattern(ctx.fd, mine, SZ_1M, 40, "the victim's buffer");
	vseg_gem_close(ctx.fd, mine);
	igt_assert_eq_u64(engine().failed, 0);
}

/* --- recycled pages ------------------------------------------------------ */

static struct vseg_page_pool page_pool(void)
{
	struct vseg_paging p;

	vseg_debugfs_read_paging(ctx.fd, &p);
	return p.pool;
}

/*
 * In another process: a buffer full of a secret moves through system
 * memory and vram, then goes; its pages go to the pool.
 */
static void leave_secret(uint64_t size, uint32_t seed)
{
	igt_fork(child, 1) {
		int fd = drm_open_vseg_render();
		uint32_t h = vseg_gem_create_in(fd, size, vram_id, 0);

		vseg_bo_fill_pattern(fd, h, size, seed);
		evict(fd, h);
		make_resident(fd, h, vram_id);
		evict(fd, h);
		vseg_bo_check_pattern(fd, h, size, seed, "the secret");
		vseg_gem_close(fd, h);
		close(fd);
	}
	igt_waitchildren();
}

static void test_recycled_pages(void)
{
	const uint64_t size = 4 * SZ_1M;
	struct vseg_page_pool p0, p1, p2;
	uint32_t h[3];

	load("paging:seg=2,size=64K");
	p0 = page_pool();
	igt_require_f(p0.max, "the page pool is off (page_pool_mb=0)\n");

	leave_secret(size, 7);
	p1 = page_pool();
	igt_assert_f(p1.pages >= size / 4096 || p1.overflows > p0.overflows,
		     "the secret's %llu pages did not reach the pool (%llu pages in it)\n",
		     (unsigned long long)(size / 4096),
		     (unsigned long long)p1.pages);

	/* New buffers: in vram, in system memory, AccessedPhysically. */
	h[0] = vseg_gem_create_in(ctx.fd, size, vram_id, 0);
	h[1] = vseg_gem_create_in(ctx.fd, size, vram_id, 0);
	evict(ctx.fd, h[1]);
	h[2] = vseg_gem_create_in(ctx.fd, size, vram_id, AP_FLAG);
	for (unsigned int i = 0; i < ARRAY_SIZE(h); i++)
		vseg_bo_check_zero(ctx.fd, h[i], size, "a new buffer");

	/* Moves into recycled pages write them whole. */
	evict(ctx.fd, h[0]);
	vseg_bo_check_zero(ctx.fd, h[0], size, "moved to system memory");
	make_resident(ctx.fd, h[0], vram_id);
	vseg_bo_check_zero(ctx.fd, h[0], size, "moved back into vram");
	evict(ctx.fd, h[2]);
	vseg_bo_check_zero(ctx.fd, h[2], size, "AccessedPhysically, evicted");

	/* And carry content: a pattern through vram and back. */
	vseg_bo_fill_pattern(ctx.fd, h[1], size, 8);
	make_resident(ctx.fd, h[1], vram_id);
	vseg_bo_check_pattern(ctx.fd, h[1], size, 8, "moved into vram");

	p2 = page_pool();
	igt_info("page pool: %llu hits, %llu misses, %llu pages now\n",
		 (unsigned long long)(p2.hits - p1.hits),
		 (unsigned long long)(p2.misses - p1.misses),
		 (unsigned long long)p2.pages);
	igt_assert_f(p2.hits > p1.hits,
		     "no move took a page from the pool\n");
	for (unsigned int i = 0; i < ARRAY_SIZE(h); i++)
		vseg_gem_close(ctx.fd, h[i]);
	igt_assert_eq_u64(engine().failed, 0);
}

igt_main
{
	static const struct {
		const char *name;
		void (*test)(void);
		const char *describe;
	} tests[] = {
		{ "buffer-aperture", test_buffer_aperture,
		  "With PagingBufferSegmentId naming the aperture, the paging "
		  "buffer is a GART-mapped range of the aperture that counts "
		  "against the commit limit." },
		{ "buffer-system", test_buffer_system,
		  "With PagingBufferSegmentId 0, the paging buffer is system "
		  "memory: nothing committed to the aperture; the private "
		  "data has its size and is zero." },
		{ "scattered-moves", test_scattered_moves,
		  "A multi-MiB buffer moves into fragmented vram and back "
		  "through a paging buffer of 32 operations, split across "
		  "flushes, every byte checked." },
		{ "one-operation", test_one_operation,
		  "A paging buffer with room for one operation still moves "
		  "buffers of many operations, every byte intact." },
		{ "evict-async", test_evict_async,
		  "EVICT returns while the transfer is still running; a CPU "
		  "read and a move right after wait for it." },
		{ "discard", test_discard,
		  "EVICT with DISCARD drops the content from vram, the "
		  "aperture and system memory: the buffer reads zero; pinned "
		  "buffers and bad flags are refused." },
		{ "counters", test_counters,
		  "Fill, Transfer and Discard are counted exactly per segment; "
		  "the engine's counters follow." },
		{ "virtual-ops", test_virtual_ops,
		  "Moves of a buffer without AccessedPhysically count "
		  "FillVirtual and TransferVirtual through the paging VA "
		  "space's windows, no physical Fill or Transfer; bytes "
		  "verified." },
		{ "physical-ops", test_physical_ops,
		  "An AccessedPhysically buffer's moves count Fill and "
		  "Transfer, no virtual operation; bytes verified." },
		{ "hostile-client", test_hostile_client,
		  "Another process moves and discards its own buffers through "
		  "the same paging buffer; it cannot reach ours, no byte of "
		  "either is lost." },
		{ "recycled-pages", test_recycled_pages,
		  "Pages another client's buffers held come back through the "
		  "page pool to later moves; new buffers read zero wherever "
		  "they land and however they move." },
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
