// SPDX-License-Identifier: MIT
/*
 * vseg_exec_physical: the physically addressed copy engine. Command
 * buffers come with an allocation list and a patch-location list, as
 * WDDM's DMA buffers do; the kernel makes every listed AccessedPhysically
 * buffer reachable (contiguous in a memory segment, or mapped into the
 * aperture) and patches its physical address into the commands.
 *
 * FILL, COPY and WRITE into and between every placement cell, read back
 * through mmap and compared with a CPU-side model; every rejection rule of
 * DRM_IOCTL_VSEG_SUBMIT, with nothing changed by a rejected submission;
 * hand-written physical addresses: fine inside a listed buffer, refused
 * with -EINVAL anywhere else (the engine touches memory only through its
 * allocation list); patches only into address fields; the lists at their
 * limits; syncobjs; buffers held by a job while they are evicted, closed
 * or mapped.
 *
 * Copyright (c) 2026 The vseg authors
 */
/**
 * TEST: vseg exec physical
 * Category: Core
 * Mega feature: General Core features
 * Sub-category: Command submission
 * Functionality: physical addressing
 * Description: The vseg copy engine: physically addressed command buffers
 *	with allocation and patch-location lists, into and between every
 *	placement of AccessedPhysically buffers; every rejection rule;
 *	physical addresses outside the allocation list are refused at SUBMIT.
 *
 * SUBTEST: fill-%s
 * Description: FILL and WRITE into an AccessedPhysically buffer of every
 *	placement cell (contiguous in each memory segment, mapped in the
 *	aperture), resident and evicted; read back through mmap. On profile
 *	arg[1]. Dynamic subtests: one per placement cell, named after its
 *	segment.
 *
 * SUBTEST: copy-%s
 * Description: COPY between AccessedPhysically buffers of every pair of
 *	placement cells, and within one buffer. On profile arg[1]. Dynamic
 *	subtests: <from>-to-<to> for each pair of placement cells, named after
 *	their segments.
 *
 * SUBTEST: raw-address-%s
 * Description: Physical references from GEM_INFO of pinned buffers, written
 *	into commands by hand: refused with EINVAL while the buffer is not in
 *	the allocation list or the range runs past it; once listed they reach
 *	the same bytes as patched addresses. On profile arg[1]. Dynamic
 *	subtests: one per placement cell, named after its segment.
 *
 * SUBTEST: bad-address-%s
 * Description: Addresses outside the allocation list (system memory, past a
 *	segment's end, gaps between segments and past every segment, unmapped
 *	aperture pages, freed memory, unlisted buffers of this and of another
 *	client, ranges across two listed buffers) make SUBMIT fail with
 *	EINVAL: no job, no fence, no byte written, not even by the job's
 *	valid commands; the engine keeps serving this and other clients. On
 *	profile arg[1]. Dynamic subtests: system-memory, past-end-<segment>,
 *	gap, aperture-unmapped, unlisted-<segment>, other-client-<segment>,
 *	across-two-<segment>, whole-job.
 *
 * SUBTEST: gpu-address-%s
 * Description: GPU physical addresses are the segment's base address plus
 *	the offset: GEM_INFO's gpu_address is that of a physically
 *	addressable buffer (none for one in system memory or unmapped in the
 *	aperture) and, used directly in commands, reaches the buffer's bytes;
 *	an address in a gap between segments, or one byte past a listed
 *	buffer, is refused at SUBMIT; a hostile client that computes another
 *	file's buffer's address from the base address neither reads nor
 *	writes it. On profile arg[1]. Dynamic subtests: gem-info-<segment>,
 *	gap, one-past-end-<segment>, hostile-client-<segment>.
 *
 * SUBTEST: gpu-address-gapped
 * Description: gpu-address on a table whose segments have distinct base
 *	addresses with gaps between all of them (and below the first).
 *
 * SUBTEST: enospc-%s
 * Description: A job on a buffer that cannot be made reachable (its segment
 *	full of pinned buffers; one file may pin it all with
 *	pin_limit_percent=100) is refused with ENOSPC, changing nothing; with
 *	room it runs. On profile arg[1]. Dynamic subtests: one per segment,
 *	named after it.
 *
 * SUBTEST: evict-busy-%s
 * Description: Evicting and moving a buffer a queued job writes, and creating
 *	buffers that push it out: the job's data is all there. On profile
 *	arg[1]. Dynamic subtests: evict-<segment> for each segment,
 *	pressure-<segment> for each memory segment.
 *
 * SUBTEST: reject
 * Description: Each way a submission can be invalid is refused with its
 *	error, and nothing changes: no buffer moves, no fence is installed, no
 *	byte is written. Dynamic subtests: valid (the submission unbroken),
 *	then one per way to break it (plain-buffer, unknown-handle,
 *	patch-into-opcode, unknown-engine, bad-commands-pointer, ...),
 *	commands-too-large.
 *
 * SUBTEST: limits
 * Description: 256 allocations, 1024 patches, the largest command buffer and
 *	64 syncobjs each way in one submission.
 *
 * SUBTEST: syncobjs
 * Description: In- and out-syncobjs: a job waits for its inputs and signals
 *	every output.
 *
 * SUBTEST: close-busy
 * Description: Closing the buffers of a queued job: it still runs to success.
 *
 * SUBTEST: mmap-waits
 * Description: A CPU mapping made while a job writes the buffer sees all of
 *	the job's data.
 *
 * SUBTEST: unload-busy
 * Description: Unloading vseg with jobs queued on both engines.
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
#include "igt_vseg_exec.h"

IGT_TEST_DESCRIPTION("The vseg copy engine: physically addressed command "
		     "buffers with allocation and patch-location lists, into "
		     "and between every placement of AccessedPhysically "
		     "buffers; every rejection rule; physical addresses "
		     "outside the allocation list are refused at SUBMIT.");

#define AP_FLAG		DRM_VSEG_GEM_CREATE_ACCESSED_PHYSICALLY
#define PRIMARY		DRM_VSEG_GEM_CREATE_PRIMARY
#define COPY		DRM_VSEG_ENGINE_COPY
#define RENDER		DRM_VSEG_ENGINE_RENDER
#define RW		(PROT_READ | PROT_WRITE)
#define CMD_SIZE	sizeof(struct drm_vseg_cmd)
#ifndef SZ_256K
#define SZ_256K		0x40000ull
#endif

static struct vseg_ctx ctx = VSEG_CTX_INIT_ENGINE(VSEG_LEFTOVERS_BASE_COUNT);

/* --- placement cells ------------------------------------------------------ */

/**
 * struct cell - where an AccessedPhysically buffer is reachable physically
 * @seg: a memory segment (contiguous there) or the aperture (mapped).
 * @supported: its supported set: @seg and system memory, so that it can be
 *	evicted and, when @seg is not CPU-visible, read by the CPU.
 */
struct cell {
	uint32_t seg;
	uint32_t supported;
};

/* The name of @c's segment: what its dynamic subtests are called. */
static const char *cell_name(const struct cell *c)
{
	return vseg_ctx_seg_name(&ctx, c->seg);
}

/* Every memory segment, then the aperture; returns the count. */
static unsigned int physical_cells(struct cell *cells)
{
	unsigned int n = 0;

	for (uint32_t id = 1; id <= ctx.q.num_segments; id++) {
		cells[n].seg = id;
		cells[n].supported = BIT(id) | BIT(ctx.ap_id);
		n++;
	}
	return n;
}

static const struct cell *cell_of(uint32_t id)
{
	static struct cell cells[DRM_VSEG_MAX_SEGMENTS];
	unsigned int n = physical_cells(cells);

	for (unsigned int i = 0; i < n; i++)
		if (cells[i].seg == id)
			return &cells[i];
	igt_assert_f(false, "no cell for segment %u\n", id);
	return NULL;
}

/* --- buffers with a CPU-side model of their contents ------------------------ */

/**
 * struct tbuf - a test buffer and what it must hold
 * @handle: GEM handle.
 * @size: its size.
 * @model: the expected contents.
 */
struct tbuf {
	uint32_t handle;
	uint64_t size;
	uint8_t *model;
};

static void tbuf_create_args(struct tbuf *b, struct drm_vseg_gem_create *c)
{
	b->handle = vseg_gem_create(ctx.fd, c);
	b->size = c->size;
	b->model = calloc(1, b->size);
	igt_assert(b->model);
}

/* A buffer with @flags preferring @cell's segment, in its supported set. */
static void tbuf_create(struct tbuf *b, const struct cell *cell, uint64_t size,
			uint32_t flags)
{
	struct drm_vseg_gem_create c;

	vseg_create_args(&c, size, cell->supported, flags);
	vseg_create_prefer(&c, cell->seg, 0);
	tbuf_create_args(b, &c);
}

static void tbuf_destroy(struct tbuf *b)
{
	if (b->handle)
		vseg_gem_close(ctx.fd, b->handle);
	free(b->model);
	memset(b, 0, sizeof(*b));
}

/* Write @seed's pattern through mmap (and into the model). */
static void tbuf_cpu_pattern(struct tbuf *b, uint32_t seed)
{
	vseg_pattern_fill(b->model, b->size, seed);
	vseg_bo_write(ctx.fd, b->handle, 0, b->model, b->size);
}

/* Read the whole buffer through mmap and compare it with the model. */
static void tbuf_verify(const struct tbuf *b, const char *what)
{
	uint8_t *got = malloc(b->size);

	igt_assert(got);
	vseg_bo_read(ctx.fd, b->handle, 0, got, b->size);
	vseg_assert_same(got, b->model, b->size, 0, what);
	free(got);
}

/* Commands that also update the model (for jobs that must succeed). */
static void fill(struct vseg_cmdbuf *cb, struct tbuf *b, uint64_t off,
		 uint64_t size, uint32_t value)
{
	igt_assert(off + size <= b->size);
	vseg_cb_fill_phys(cb, b->handle, off, size, value);
	vseg_fill32(b->model + off, size, value);
}

static void copy(struct vseg_cmdbuf *cb, struct tbuf *dst, uint64_t doff,
		 struct tbuf *src, uint64_t soff, uint64_t size)
{
	igt_assert(doff + size <= dst->size && soff + size <= src->size);
	vseg_cb_copy_phys(cb, dst->handle, doff, src->handle, soff, size);
	memmove(dst->model + doff, src->model + soff, size);
}

static void write64(struct vseg_cmdbuf *cb, struct tbuf *b, uint64_t off,
		    uint64_t value)
{
	igt_assert(off + 8 <= b->size);
	vseg_cb_write_phys(cb, b->handle, off, value);
	memcpy(b->model + off, &value, 8);
}

/*
 * Assert that @b is reachable physically in @cell now: contiguous and
 * resident in a memory segment, or mapped into the aperture.
 */
static void check_reachable(const struct tbuf *b, const struct cell *cell,
			    struct drm_vseg_gem_info *out, const char *what)
{
	struct drm_vseg_gem_info info;
	uint64_t addr;

	vseg_gem_info(ctx.fd, b->handle, &info);
	/*
	 * The aperture's bit in the cell's set names system memory: a
	 * buffer the CPU moved there may stay, mapped into the aperture.
	 */
	igt_assert_f(info.segment_id == cell->seg ||
		     (info.segment_id == ctx.ap_id &&
		      (cell->supported & BIT(ctx.ap_id))),
		     "%s: the buffer is in %s, expected %s\n", what,
		     vseg_ctx_seg_name(&ctx, info.segment_id),
		     vseg_ctx_seg_name(&ctx, cell->seg));
	if (info.segment_id == ctx.ap_id)
		igt_assert_f(info.placement_flags &
			     DRM_VSEG_INFO_APERTURE_MAPPED,
			     "%s: AccessedPhysically buffer in the aperture is not mapped (flags %#x)\n",
			     what, info.placement_flags);
	else
		igt_assert_f((info.placement_flags &
			      DRM_VSEG_INFO_CONTIGUOUS) &&
			     (info.placement_flags & DRM_VSEG_INFO_RESIDENT),
			     "%s: AccessedPhysically buffer in %s is not contiguous and resident (flags %#x)\n",
			     what, vseg_ctx_seg_name(&ctx, info.segment_id),
			     info.placement_flags);
	igt_assert(vseg_phys_addr_of(&info, 0, &addr));
	if (out)
		*out = info;
}

/* --- the kernel keeps working --------------------------------------------- */

/*
 * A job of another client (a file of its own) and one of ours both
 * succeed: after a job failed, the engine still runs.
 */
static void check_engine_alive(const char *what)
{
	int fds[2] = { drm_open_vseg(), ctx.fd };

	for (unsigned int k = 0; k < 2; k++) {
		struct drm_vseg_gem_create c;
		struct vseg_cmdbuf cb;
		uint32_t h, want[4] = { 0x600d0000 | k, 0x600d0000 | k,
					0x600d0000 | k, 0x600d0000 | k };
		uint32_t got[4];

		vseg_create_args(&c, SZ_64K, BIT(ctx.ap_id), AP_FLAG);
		vseg_create_prefer(&c, ctx.ap_id, 0);
		h = vseg_gem_create(fds[k], &c);
		vseg_cb_init(&cb);
		vseg_cb_fill_phys(&cb, h, SZ_4K, sizeof(want), want[0]);
		vseg_cb_exec_ok(fds[k], COPY, &cb, what);
		vseg_bo_read(fds[k], h, SZ_4K, got, sizeof(got));
		vseg_assert_same(got, want, sizeof(got), SZ_4K, what);
		vseg_cb_fini(&cb);
		vseg_gem_close(fds[k], h);
	}
	drm_close_driver(fds[0]);
}

/* --- FILL, COPY and WRITE in every cell ------------------------------------ */

static void test_fill(const struct cell *cell)
{
	const uint64_t size = SZ_1M;
	struct drm_vseg_gem_info before, after;
	struct vseg_cmdbuf cb;
	struct tbuf b;

	tbuf_create(&b, cell, size, AP_FLAG);
	check_reachable(&b, cell, NULL, "a new AccessedPhysically buffer");
	/* Known contents around what the job writes (may move it out). */
	tbuf_cpu_pattern(&b, 0x100 + cell->seg);
	vseg_gem_info(ctx.fd, b.handle, &before);

	vseg_cb_init(&cb);
	fill(&cb, &b, SZ_4K, SZ_64K, 0xa5a5a500 | cell->seg);
	fill(&cb, &b, SZ_64K - 12, 24, 0xdeadbeef);	/* across a page */
	fill(&cb, &b, 3 * SZ_64K + 4, 5 * SZ_4K + 8, 0x5a5a5a5a);
	fill(&cb, &b, size - 4, 4, 0xcafef00d);		/* the last word */
	write64(&cb, &b, 0, 0x0123456789abcdefull);
	write64(&cb, &b, size / 2 - 8, 0xfedcba9876543210ull);
	vseg_cb_exec_ok(ctx.fd, COPY, &cb, "FILL and WRITE");
	check_reachable(&b, cell, &after, "after the job");
	if (before.segment_id == cell->seg)
		igt_assert_f(after.moves == before.moves,
			     "a reachable buffer moved for a job (%llu -> %llu moves)\n",
			     (unsigned long long)before.moves,
			     (unsigned long long)after.moves);
	tbuf_verify(&b, "after FILL and WRITE");

	/* Evicted: the next job brings it back where it can be reached. */
	vseg_evict(ctx.fd, &b.handle, 1);
	vseg_gem_info(ctx.fd, b.handle, &before);
	igt_assert_eq_u32(before.segment_id, 0);
	vseg_cb_reset(&cb);
	fill(&cb, &b, size / 2, size / 4, 0x77000000 | cell->seg);
	write64(&cb, &b, size - 16, 0x1122334455667788ull);
	vseg_cb_exec_ok(ctx.fd, COPY, &cb, "FILL of an evicted buffer");
	check_reachable(&b, cell, NULL, "after a job on an evicted buffer");
	tbuf_verify(&b, "after FILL of an evicted buffer");

	vseg_cb_fini(&cb);
	tbuf_destroy(&b);
}

static void test_copy(const struct cell *from, const struct cell *to)
{
	const uint64_t size = SZ_256K;
	struct vseg_cmdbuf cb;
	struct tbuf src, dst;

	tbuf_create(&src, from, size, AP_FLAG);
	tbuf_create(&dst, to, size, AP_FLAG);
	tbuf_cpu_pattern(&src, 0x200 + from->seg);
	tbuf_cpu_pattern(&dst, 0x300 + to->seg);

	vseg_cb_init(&cb);
	copy(&cb, &dst, 0, &src, size / 2, size / 2);
	copy(&cb, &dst, size / 2 + SZ_4K, &src, SZ_4K, 3 * SZ_4K);
	copy(&cb, &dst, size - 100, &src, 13, 7);	/* bytes, unaligned */
	vseg_cb_exec_ok(ctx.fd, COPY, &cb, "COPY between buffers");
	check_reachable(&src, from, NULL, "source after the job");
	check_reachable(&dst, to, NULL, "destination after the job");
	tbuf_verify(&src, "source after COPY");
	tbuf_verify(&dst, "destination after COPY");

	/* Within one buffer: one allocation, two patches. */
	vseg_cb_reset(&cb);
	copy(&cb, &src, size - SZ_64K, &src, 0, SZ_64K);
	igt_assert_eq_u32(cb.num_allocs, 1);
	vseg_cb_exec_ok(ctx.fd, COPY, &cb, "COPY within a buffer");
	tbuf_verify(&src, "after COPY within the buffer");

	/* The same buffer listed twice, once per patch. */
	vseg_cb_reset(&cb);
	vseg_cb_copy(&cb, 0, 0, SZ_4K);
	vseg_cb_add_allocation(&cb, dst.handle, DRM_VSEG_ALLOCATION_WRITE);
	vseg_cb_add_allocation(&cb, dst.handle, 0);
	vseg_cb_add_patch(&cb, 0, 5 * SZ_4K, VSEG_PATCH_OFFSET(0, VSEG_CMD_DST));
	vseg_cb_add_patch(&cb, 1, 0, VSEG_PATCH_OFFSET(0, VSEG_CMD_SRC));
	memmove(dst.model + 5 * SZ_4K, dst.model, SZ_4K);
	vseg_cb_exec_ok(ctx.fd, COPY, &cb, "COPY with a buffer listed twice");
	tbuf_verify(&dst, "after COPY with a buffer listed twice");

	vseg_cb_fini(&cb);
	tbuf_destroy(&src);
	tbuf_destroy(&dst);
}

/* --- hand-written physical addresses ---------------------------------------- */

static void pin(uint32_t handle)
{
	int err = __vseg_make_resident_flags(ctx.fd, &handle, 1,
					     DRM_VSEG_RESIDENCY_PIN, NULL);

	igt_assert_f(err == 0, "MAKE_RESIDENT(PIN): %s\n", vseg_errname(err));
}

static void unpin(uint32_t handle)
{
	int err = __vseg_evict_flags(ctx.fd, &handle, 1,
				     DRM_VSEG_RESIDENCY_UNPIN, NULL);

	igt_assert_f(err == 0, "EVICT(UNPIN): %s\n", vseg_errname(err));
}

/* Where @b is now, for checking that a refused submission moved nothing. */
static void tbuf_info(const struct tbuf *b, struct drm_vseg_gem_info *info)
{
	vseg_gem_info(ctx.fd, b->handle, info);
}

static bool same_place(const struct drm_vseg_gem_info *x,
		       const struct drm_vseg_gem_info *y)
{
	return x->segment_id == y->segment_id && x->offset == y->offset &&
	       x->moves == y->moves && x->placement_flags == y->placement_flags &&
	       x->aperture_offset == y->aperture_offset;
}

/*
 * Submit @cb on the copy engine with an out-syncobj: SUBMIT must fail with
 * -EINVAL, queue nothing (the syncobj gets no fence) and move none of the
 * @n buffers of @watch (all of them resident and reachable already, so
 * that placing the listed ones is a no-op).
 */
static void expect_submit_einval(const struct vseg_cmdbuf *cb,
				 const struct tbuf *const *watch,
				 unsigned int n, const char *what)
{
	struct drm_vseg_gem_info before[4], after;
	uint32_t out = vseg_syncobj_create(ctx.fd, 0);
	struct vseg_usage_snapshot usage;
	int err;

	igt_assert(n <= ARRAY_SIZE(before));
	for (unsigned int i = 0; i < n; i++)
		tbuf_info(watch[i], &before[i]);
	vseg_usage_read(ctx.fd, &usage);
	err = __vseg_cb_submit(ctx.fd, COPY, cb, NULL, 0, &out, 1);
	igt_assert_f(err == -EINVAL,
		     "%s: SUBMIT returned %d (%s), expected -EINVAL\n", what,
		     err, vseg_errname(err));
	igt_assert_f(!vseg_syncobj_has_fence(ctx.fd, out),
		     "%s: a refused submission installed a fence\n", what);
	for (unsigned int i = 0; i < n; i++) {
		tbuf_info(watch[i], &after);
		igt_assert_f(same_place(&before[i], &after),
			     "%s: buffer %u moved (%s -> %s, moves %llu -> %llu)\n",
			     what, i,
			     vseg_ctx_seg_name(&ctx, before[i].segment_id),
			     vseg_ctx_seg_name(&ctx, after.segment_id),
			     (unsigned long long)before[i].moves,
			     (unsigned long long)after.moves);
	}
	vseg_usage_assert(ctx.fd, &usage, what);
	vseg_syncobj_destroy(ctx.fd, out);
}

/*
 * A pinned buffer's physical reference from GEM_INFO, written by hand
 * into the commands: the copy engine may touch memory only through its
 * allocation list, so the addresses are refused (-EINVAL, nothing runs)
 * while the buffer is not listed, and reach the same bytes as patched
 * ones once it is listed, with or without a patch of its own. A listed
 * buffer does not make the bytes around it reachable.
 */
static void test_raw_address(const struct cell *cell)
{
	const uint64_t size = SZ_256K;
	const struct tbuf *watch[2];
	struct vseg_cmdbuf cb;
	struct tbuf b, other;
	uint64_t pa;

	tbuf_create(&b, cell, size, AP_FLAG);
	tbuf_create(&other, cell_of(ctx.ap_id), SZ_64K, AP_FLAG);
	tbuf_cpu_pattern(&b, 0x400 + cell->seg);
	tbuf_cpu_pattern(&other, 0x480 + cell->seg);
	pin(b.handle);
	check_reachable(&b, cell, NULL, "pinned");
	pa = vseg_phys_addr(ctx.fd, b.handle, 0);
	igt_info("%s: buffer at %#llx\n", vseg_ctx_seg_name(&ctx, cell->seg),
		 (unsigned long long)pa);
	watch[0] = &b;
	watch[1] = &other;

	/* Not listed at all (no allocation list): refused. */
	vseg_cb_init(&cb);
	vseg_cb_fill(&cb, pa + SZ_4K, 2 * SZ_64K, 0x0badf00d);
	vseg_cb_copy(&cb, pa + size - SZ_4K, pa + 64, SZ_4K);
	vseg_cb_write(&cb, pa + 8, 0xa0a0b0b0c0c0d0d0ull);
	expect_submit_einval(&cb, watch, 2,
			     "hand-written addresses of an unlisted buffer");

	/* Another buffer listed (and patched) instead: refused too. */
	vseg_cb_fill_phys(&cb, other.handle, 0, SZ_4K, 0x0badcafe);
	expect_submit_einval(&cb, watch, 2,
			     "hand-written addresses of a buffer not in the list");

	/* Listed, bytes outside it: refused. */
	vseg_cb_reset(&cb);
	vseg_cb_allocation(&cb, b.handle, DRM_VSEG_ALLOCATION_WRITE);
	vseg_cb_fill(&cb, pa + size - 4, 8, 0x0badbad0);
	expect_submit_einval(&cb, watch, 2, "FILL running past the listed buffer");
	vseg_cb_reset(&cb);
	vseg_cb_allocation(&cb, b.handle, DRM_VSEG_ALLOCATION_WRITE);
	vseg_cb_write(&cb, pa + size, 0xbad1);
	expect_submit_einval(&cb, watch, 2, "WRITE just past the listed buffer");
	vseg_cb_reset(&cb);
	vseg_cb_allocation(&cb, b.handle, DRM_VSEG_ALLOCATION_WRITE);
	vseg_cb_copy(&cb, pa, pa + size - SZ_4K / 2, SZ_4K);
	expect_submit_einval(&cb, watch, 2,
			     "COPY from a range running past the listed buffer");

	/*
	 * Nothing ran. Unpinned to check: a CPU fault may have to move it
	 * where the CPU can see it.
	 */
	unpin(b.handle);
	tbuf_verify(&b, "after refused hand-written addresses");
	tbuf_verify(&other, "after refused hand-written addresses");
	pin(b.handle);
	check_reachable(&b, cell, NULL, "pinned again");
	pa = vseg_phys_addr(ctx.fd, b.handle, 0);

	/* Listed without a patch: the engine decodes them the same way. */
	vseg_cb_reset(&cb);
	vseg_cb_allocation(&cb, b.handle, DRM_VSEG_ALLOCATION_WRITE);
	vseg_cb_fill(&cb, pa + SZ_4K, 2 * SZ_64K, 0x0badf00d);
	vseg_fill32(b.model + SZ_4K, 2 * SZ_64K, 0x0badf00d);
	vseg_cb_copy(&cb, pa + size - SZ_4K, pa + 64, SZ_4K);
	memmove(b.model + size - SZ_4K, b.model + 64, SZ_4K);
	vseg_cb_write(&cb, pa + 8, 0xa0a0b0b0c0c0d0d0ull);
	memcpy(b.model + 8, &(uint64_t){ 0xa0a0b0b0c0c0d0d0ull }, 8);
	/* The last byte of the buffer is inside it. */
	vseg_cb_write(&cb, pa + size - 8, 0x0102030405060708ull);
	memcpy(b.model + size - 8, &(uint64_t){ 0x0102030405060708ull }, 8);
	vseg_cb_exec_ok(ctx.fd, COPY, &cb,
			"hand-written addresses of a listed buffer");

	/* Mixed with patched commands, between two listed buffers. */
	vseg_cb_reset(&cb);
	vseg_cb_copy(&cb, pa + 3 * SZ_4K, 0, SZ_4K);
	vseg_cb_patch(&cb, 0, VSEG_CMD_SRC, other.handle, SZ_4K, false);
	vseg_cb_allocation(&cb, b.handle, DRM_VSEG_ALLOCATION_WRITE);
	memcpy(b.model + 3 * SZ_4K, other.model + SZ_4K, SZ_4K);
	copy(&cb, &other, 0, &b, 3 * SZ_4K + 16, 64);
	vseg_cb_exec_ok(ctx.fd, COPY, &cb,
			"hand-written and patched addresses together");

	unpin(b.handle);
	tbuf_verify(&b, "after jobs with hand-written addresses");
	tbuf_verify(&other, "after jobs with hand-written addresses");

	vseg_cb_fini(&cb);
	tbuf_destroy(&b);
	tbuf_destroy(&other);
}

/* --- the GPU physical address space ------------------------------------------ */

/*
 * Segments sit at their base addresses, with gaps between them that are
 * not memory; system memory has no GPU physical address.
 */

/* The address just past the segment that ends highest (none ends at 2^64). */
static uint64_t past_every_segment(void)
{
	uint64_t top = 0;

	for (uint32_t id = 1; id <= ctx.q.num_segments; id++) {
		const struct drm_vseg_segment_info *s = vseg_ctx_seg(&ctx, id);

		igt_assert_f(s->base_address + s->size > s->base_address,
			     "segment %u ends at 2^64\n", id);
		if (s->base_address + s->size > top)
			top = s->base_address + s->size;
	}
	return top;
}

/*
 * The first gap between two segments in address order: [*@start, *@end),
 * after segment *@below and before segment *@above. False if there is none.
 */
static bool find_gap(uint64_t *start, uint64_t *end, uint32_t *below,
		     uint32_t *above)
{
	for (uint32_t a = 1; a <= ctx.q.num_segments; a++) {
		const struct drm_vseg_segment_info *sa = vseg_ctx_seg(&ctx, a);
		uint64_t lo = sa->base_address + sa->size, hi = UINT64_MAX;
		uint32_t next = 0;

		/* The segment starting next above @a's end. */
		for (uint32_t b = 1; b <= ctx.q.num_segments; b++) {
			const struct drm_vseg_segment_info *sb =
				vseg_ctx_seg(&ctx, b);

			if (sb->base_address >= lo && sb->base_address < hi) {
				hi = sb->base_address;
				next = b;
			}
		}
		if (next && hi > lo) {
			*start = lo;
			*end = hi;
			*below = a;
			*above = next;
			return true;
		}
	}
	return false;
}

/* --- addresses outside the allocation list ----------------------------------- */

/*
 * One command at @addr after a FILL of the listed buffer @v: SUBMIT must
 * refuse the whole job with -EINVAL, so @v keeps its contents too.
 */
static void expect_refused(struct tbuf *v, uint32_t opcode, uint64_t addr,
			   uint64_t size, const char *what)
{
	const struct tbuf *watch[1] = { v };
	struct vseg_cmdbuf cb;
	char msg[160];

	vseg_cb_init(&cb);
	vseg_cb_fill_phys(&cb, v->handle, 0, SZ_4K, 0x0bad0bad);
	switch (opcode) {
	case DRM_VSEG_CMD_WRITE:
		vseg_cb_write(&cb, addr, 0xbad);
		break;
	case DRM_VSEG_CMD_COPY:
		/* From @addr into the listed buffer. */
		vseg_cb_copy(&cb, 0, addr, size);
		vseg_cb_patch(&cb, 1, VSEG_CMD_DST, v->handle, SZ_4K, true);
		break;
	default:
		vseg_cb_fill(&cb, addr, size, 0xbad);
		break;
	}
	snprintf(msg, sizeof(msg), "%s (address %#llx, %#llx bytes)", what,
		 (unsigned long long)addr, (unsigned long long)size);
	expect_submit_einval(&cb, watch, 1, msg);
	tbuf_verify(v, msg);
	vseg_cb_fini(&cb);
}

/* The listed buffer of the refused jobs: in the aperture, CPU-visible. */
static void victim_create(struct tbuf *v)
{
	tbuf_create(v, cell_of(ctx.ap_id), SZ_64K, AP_FLAG);
	tbuf_cpu_pattern(v, 0x700);
	check_reachable(v, cell_of(ctx.ap_id), NULL, "the listed buffer");
}

/* An aperture page with no GART entry now. */
static uint64_t unmapped_aperture_offset(void)
{
	struct vseg_aperture_state st;
	uint64_t off = 0;

	vseg_debugfs_read_aperture(ctx.fd, &st);
	for (unsigned int i = 0; i < st.num_ranges; i++) {
		if (st.range[i].start > off)
			break;
		off = st.range[i].start + st.range[i].size;
	}
	igt_assert_f(off < st.size, "the whole aperture is mapped\n");
	vseg_debugfs_free_aperture(&st);
	return off;
}

/*
 * System memory has no GPU physical address: an AccessedPhysically buffer
 * evicted from the aperture has none in GEM_INFO, and the address it had
 * there reaches nothing.
 */
static void test_refuse_system(void)
{
	struct drm_vseg_gem_info info;
	struct tbuf v, x;
	uint64_t pa;

	victim_create(&v);
	tbuf_create(&x, cell_of(ctx.ap_id), SZ_64K, AP_FLAG);
	tbuf_cpu_pattern(&x, 0x708);
	vseg_make_resident(ctx.fd, &x.handle, 1);
	pa = vseg_phys_addr(ctx.fd, x.handle, 0);
	vseg_evict(ctx.fd, &x.handle, 1);
	vseg_gem_info(ctx.fd, x.handle, &info);
	igt_assert_f(info.segment_id == 0 &&
		     info.gpu_address == DRM_VSEG_GPU_ADDRESS_NONE,
		     "a buffer in system memory: segment %u, GPU address %#llx\n",
		     info.segment_id, (unsigned long long)info.gpu_address);
	expect_refused(&v, DRM_VSEG_CMD_FILL, pa, SZ_4K,
		       "FILL at an evicted buffer's old address");
	expect_refused(&v, DRM_VSEG_CMD_COPY, pa, SZ_4K,
		       "COPY from an evicted buffer's old address");
	expect_refused(&v, DRM_VSEG_CMD_WRITE, DRM_VSEG_GPU_ADDRESS_NONE - 7,
		       0, "WRITE at the highest address");
	tbuf_verify(&x, "a buffer in system memory after refused jobs");
	tbuf_destroy(&x);
	tbuf_destroy(&v);
	check_engine_alive("after jobs addressing system memory");
}

static void test_refuse_past_end(uint32_t id)
{
	const struct drm_vseg_segment_info *seg = vseg_ctx_seg(&ctx, id);
	const uint64_t end = seg->base_address + seg->size;
	struct tbuf v;

	victim_create(&v);
	expect_refused(&v, DRM_VSEG_CMD_FILL, end, 4,
		       "FILL just past the segment's end");
	expect_refused(&v, DRM_VSEG_CMD_FILL, end - SZ_4K, 2 * SZ_4K,
		       "FILL across the segment's end");
	expect_refused(&v, DRM_VSEG_CMD_COPY, end - 1, 2,
		       "COPY from across the segment's end");
	tbuf_destroy(&v);
	check_engine_alive("after jobs past a segment's end");
}

/*
 * Addresses in a gap between two segments, across a gap's edges and past
 * every segment are not memory.
 */
static void test_refuse_gap(void)
{
	uint64_t lo, hi, top = past_every_segment();
	uint32_t below, above;
	struct tbuf v;

	victim_create(&v);
	expect_refused(&v, DRM_VSEG_CMD_FILL, top, SZ_4K,
		       "FILL past every segment");
	expect_refused(&v, DRM_VSEG_CMD_WRITE, top + SZ_1M, 0,
		       "WRITE past every segment");
	if (find_gap(&lo, &hi, &below, &above)) {
		igt_info("gap [%#llx, %#llx) between %s and %s\n",
			 (unsigned long long)lo, (unsigned long long)hi,
			 vseg_ctx_seg_name(&ctx, below),
			 vseg_ctx_seg_name(&ctx, above));
		expect_refused(&v, DRM_VSEG_CMD_FILL, lo, SZ_4K,
			       "FILL at the start of a gap");
		expect_refused(&v, DRM_VSEG_CMD_WRITE, hi - 8, 0,
			       "WRITE at the end of a gap");
		expect_refused(&v, DRM_VSEG_CMD_COPY, lo + (hi - lo) / 2 / 8 * 8,
			       8, "COPY from the middle of a gap");
		expect_refused(&v, DRM_VSEG_CMD_FILL, lo - SZ_4K, 2 * SZ_4K,
			       "FILL from a segment into a gap");
		expect_refused(&v, DRM_VSEG_CMD_FILL, hi - SZ_4K, 2 * SZ_4K,
			       "FILL from a gap into a segment");
	} else {
		igt_info("no gap between two segments in this table\n");
	}
	tbuf_destroy(&v);
	check_engine_alive("after jobs on addresses that are not memory");
}

static void test_refuse_aperture_unmapped(void)
{
	struct tbuf v;
	uint64_t off;

	victim_create(&v);
	off = unmapped_aperture_offset();
	igt_info("aperture offset %#llx has no GART entry\n",
		 (unsigned long long)off);
	expect_refused(&v, DRM_VSEG_CMD_FILL,
		       vseg_ctx_gpu_addr(&ctx, ctx.ap_id, off), SZ_4K,
		       "FILL of an unmapped aperture page");
	tbuf_destroy(&v);
	check_engine_alive("after a job on an unmapped aperture page");
}

/*
 * Memory that belonged to a buffer just closed, and a buffer this file
 * holds but does not list: neither is reachable.
 */
static void test_refuse_unlisted(uint32_t id)
{
	struct tbuf v, x;
	struct drm_vseg_gem_create c;
	uint64_t pa;
	uint32_t h;

	victim_create(&v);
	vseg_create_args(&c, SZ_64K, BIT(id), AP_FLAG);
	h = vseg_gem_create(ctx.fd, &c);
	pa = vseg_phys_addr(ctx.fd, h, 0);
	vseg_gem_close(ctx.fd, h);
	expect_refused(&v, DRM_VSEG_CMD_FILL, pa, SZ_4K,
		       "FILL of a closed buffer's memory");
	expect_refused(&v, DRM_VSEG_CMD_COPY, pa, SZ_4K,
		       "COPY from a closed buffer's memory");

	tbuf_create(&x, cell_of(id), SZ_64K, AP_FLAG);
	tbuf_cpu_pattern(&x, 0x710);
	/* Made reachable again (the CPU write may have moved it). */
	vseg_make_resident(ctx.fd, &x.handle, 1);
	pa = vseg_phys_addr(ctx.fd, x.handle, 0);
	expect_refused(&v, DRM_VSEG_CMD_FILL, pa, SZ_4K,
		       "FILL of a buffer this file holds but did not list");
	expect_refused(&v, DRM_VSEG_CMD_WRITE, pa + SZ_4K, 0,
		       "WRITE into a buffer this file holds but did not list");
	expect_refused(&v, DRM_VSEG_CMD_COPY, pa, SZ_4K,
		       "COPY from a buffer this file holds but did not list");
	tbuf_verify(&x, "an unlisted buffer after refused jobs");
	tbuf_destroy(&x);
	tbuf_destroy(&v);
	check_engine_alive("after jobs on unlisted memory");
}

/* Another client's buffer, its address read on its own file. */
static void test_refuse_other_client(uint32_t id)
{
	const uint64_t size = SZ_64K;
	int fd2 = drm_open_vseg();
	struct drm_vseg_gem_create c;
	uint8_t *want, *got;
	struct tbuf v;
	uint64_t pa;
	uint32_t h;

	want = malloc(size);
	got = malloc(size);
	igt_assert(want && got);
	victim_create(&v);
	vseg_create_args(&c, size, cell_of(id)->supported, AP_FLAG);
	vseg_create_prefer(&c, id, 0);
	h = vseg_gem_create(fd2, &c);
	vseg_pattern_fill(want, size, 0x720 + id);
	vseg_bo_write(fd2, h, 0, want, size);
	vseg_make_resident(fd2, &h, 1);
	pa = vseg_phys_addr(fd2, h, 0);
	igt_info("the other client's buffer is at %#llx\n",
		 (unsigned long long)pa);
	expect_refused(&v, DRM_VSEG_CMD_FILL, pa, size,
		       "FILL of another client's buffer");
	expect_refused(&v, DRM_VSEG_CMD_WRITE, pa + 8, 0,
		       "WRITE into another client's buffer");
	expect_refused(&v, DRM_VSEG_CMD_COPY, pa, SZ_4K,
		       "COPY from another client's buffer");
	vseg_bo_read(fd2, h, 0, got, size);
	vseg_assert_same(got, want, size, 0,
			 "another client's buffer after refused jobs");
	vseg_gem_close(fd2, h);
	drm_close_driver(fd2);
	tbuf_destroy(&v);
	free(want);
	free(got);
	check_engine_alive("after jobs on another client's buffer");
}

/*
 * Two listed buffers side by side in a segment: a range across their
 * boundary lies in neither, though every byte of it is listed.
 */
static void test_refuse_across_two(uint32_t id)
{
	const uint64_t size = SZ_64K;
	const struct tbuf *watch[2];
	struct vseg_cmdbuf cb;
	struct tbuf a, b;
	uint64_t pa, pb, lo;

	tbuf_create(&a, cell_of(id), size, AP_FLAG);
	tbuf_create(&b, cell_of(id), size, AP_FLAG);
	tbuf_cpu_pattern(&a, 0x730);
	tbuf_cpu_pattern(&b, 0x731);
	pin(a.handle);
	pin(b.handle);
	pa = vseg_phys_addr(ctx.fd, a.handle, 0);
	pb = vseg_phys_addr(ctx.fd, b.handle, 0);
	igt_info("%s: buffers at %#llx and %#llx\n",
		 vseg_ctx_seg_name(&ctx, id),
		 (unsigned long long)pa, (unsigned long long)pb);
	if (pa + size != pb && pb + size != pa) {
		igt_info("not side by side: nothing to straddle\n");
	} else {
		lo = pa < pb ? pa : pb;
		watch[0] = &a;
		watch[1] = &b;
		vseg_cb_init(&cb);
		vseg_cb_allocation(&cb, a.handle, DRM_VSEG_ALLOCATION_WRITE);
		vseg_cb_allocation(&cb, b.handle, DRM_VSEG_ALLOCATION_WRITE);
		vseg_cb_fill(&cb, lo + size - SZ_4K, 2 * SZ_4K, 0x0bad0bad);
		expect_submit_einval(&cb, watch, 2,
				     "FILL across two listed buffers");
		vseg_cb_reset(&cb);
		vseg_cb_allocation(&cb, a.handle, DRM_VSEG_ALLOCATION_WRITE);
		vseg_cb_allocation(&cb, b.handle, DRM_VSEG_ALLOCATION_WRITE);
		vseg_cb_write(&cb, lo + size - 4, 0xbad);
		expect_submit_einval(&cb, watch, 2,
				     "WRITE across two listed buffers");
		vseg_cb_reset(&cb);
		vseg_cb_allocation(&cb, a.handle, DRM_VSEG_ALLOCATION_WRITE);
		vseg_cb_allocation(&cb, b.handle, DRM_VSEG_ALLOCATION_WRITE);
		vseg_cb_copy(&cb, lo, lo + size - SZ_4K, 2 * SZ_4K);
		expect_submit_einval(&cb, watch, 2,
				     "COPY from across two listed buffers");
		vseg_cb_fini(&cb);
	}
	unpin(a.handle);
	unpin(b.handle);
	tbuf_verify(&a, "after refused jobs across two buffers");
	tbuf_verify(&b, "after refused jobs across two buffers");
	tbuf_destroy(&a);
	tbuf_destroy(&b);
}

/*
 * A job with valid commands around one bad address is refused as a
 * whole: not even the commands before it run.
 */
static void test_refuse_whole_job(void)
{
	const struct tbuf *watch[1];
	struct vseg_cmdbuf cb;
	struct tbuf b;

	tbuf_create(&b, cell_of(ctx.ap_id), SZ_64K, AP_FLAG);
	tbuf_cpu_pattern(&b, 0x500);
	watch[0] = &b;
	vseg_cb_init(&cb);
	vseg_cb_write_phys(&cb, b.handle, 0, 0x1111111111111111ull);
	vseg_cb_fill(&cb, past_every_segment(), SZ_4K, 0xbad);
	vseg_cb_write_phys(&cb, b.handle, 8, 0x2222222222222222ull);
	vseg_cb_copy_phys(&cb, b.handle, SZ_4K, b.handle, 2 * SZ_4K, SZ_4K);
	expect_submit_einval(&cb, watch, 1, "a bad address between good ones");
	tbuf_verify(&b, "no command of a refused job ran");

	/* Without the bad command the same job runs. */
	vseg_cb_reset(&cb);
	write64(&cb, &b, 0, 0x1111111111111111ull);
	write64(&cb, &b, 8, 0x2222222222222222ull);
	copy(&cb, &b, SZ_4K, &b, 2 * SZ_4K, SZ_4K);
	vseg_cb_exec_ok(ctx.fd, COPY, &cb, "the job without its bad command");
	tbuf_verify(&b, "the job without its bad command");

	vseg_cb_fini(&cb);
	tbuf_destroy(&b);
	check_engine_alive("after a refused job");
}

/* --- rejected submissions ---------------------------------------------------- */

/**
 * struct reject_env - a valid submission to break one way at a time
 * @a: AccessedPhysically buffer preferring the first memory segment.
 * @b: AccessedPhysically buffer in the aperture.
 * @plain: a buffer without AccessedPhysically.
 * @primary: a primary (AccessedPhysically=0).
 * @out: the out-syncobj, which must get no fence from a rejected submit.
 * @cb: the valid command buffer and lists.
 * @s: the submission, pointing at @cb and @out.
 *
 * @a and @b are evicted to system memory first, so that a submission that
 * starts making buffers resident before it is rejected shows.
 */
struct reject_env {
	struct tbuf a;
	struct tbuf b;
	uint32_t plain;
	uint32_t primary;
	uint32_t out;
	struct drm_vseg_sync out_sync;
	struct vseg_cmdbuf cb;
	struct drm_vseg_submit s;
};

static void *bad_ptr;

static void reject_setup(struct reject_env *e)
{
	uint32_t h[2];

	memset(e, 0, sizeof(*e));
	tbuf_create(&e->a, cell_of(1), SZ_64K, AP_FLAG);
	tbuf_create(&e->b, cell_of(ctx.ap_id), SZ_64K, AP_FLAG);
	tbuf_cpu_pattern(&e->a, 0x600);
	tbuf_cpu_pattern(&e->b, 0x601);
	e->plain = vseg_gem_create_simple(ctx.fd, SZ_64K, BIT(1) | BIT(ctx.ap_id), 0);
	e->primary = vseg_gem_create_simple(ctx.fd, SZ_64K, BIT(1) | BIT(ctx.ap_id),
					    PRIMARY);
	h[0] = e->a.handle;
	h[1] = e->b.handle;
	vseg_evict(ctx.fd, h, 2);

	vseg_cb_init(&e->cb);
	vseg_cb_fill_phys(&e->cb, e->a.handle, 0, SZ_4K, 0x12345678);
	vseg_cb_copy_phys(&e->cb, e->b.handle, 0, e->a.handle, SZ_4K, SZ_4K);
	vseg_cb_write_phys(&e->cb, e->b.handle, 2 * SZ_4K, 0x42);
	vseg_cb_nop(&e->cb);
	e->out = vseg_syncobj_create(ctx.fd, 0);
	vseg_submit_args(&e->s, COPY, &e->cb);
	e->out_sync.handle = e->out;
	e->s.out_syncs = (uintptr_t)&e->out_sync;
	e->s.num_out_syncs = 1;
}

static void reject_teardown(struct reject_env *e)
{
	vseg_syncobj_destroy(ctx.fd, e->out);
	vseg_cb_fini(&e->cb);
	tbuf_destroy(&e->a);
	tbuf_destroy(&e->b);
	vseg_gem_close(ctx.fd, e->plain);
	vseg_gem_close(ctx.fd, e->primary);
}

/*
 * Submit @e->s as it is now: it must fail with @want and change nothing:
 * no buffer moved, the usage is the same, the out-syncobj got no fence and
 * the buffers hold what they held. With @placed the kernel refuses the
 * submission only once it has placed the listed buffers (it checks the
 * commands' ranges against where they are): @a and @b may then have been
 * made reachable, but nothing else may have changed.
 */
static void expect_rejected(struct reject_env *e, int want, bool placed,
			    const char *what)
{
	const uint32_t handles[] = { e->a.handle, e->b.handle, e->plain,
				     e->primary };
	const struct cell *cells[] = { cell_of(1), cell_of(ctx.ap_id) };
	struct drm_vseg_gem_info before[4], after;
	struct vseg_usage_snapshot usage;
	int err;

	for (unsigned int i = 0; i < 4; i++)
		vseg_gem_info(ctx.fd, handles[i], &before[i]);
	vseg_usage_read(ctx.fd, &usage);

	err = __vseg_submit(ctx.fd, &e->s);
	vseg_assert_ret(err, want, "%s: SUBMIT", what);

	for (unsigned int i = 0; i < 4; i++) {
		vseg_gem_info(ctx.fd, handles[i], &after);
		if (placed && i < 2 && !same_place(&before[i], &after)) {
			check_reachable(i ? &e->b : &e->a, cells[i], NULL,
					what);
			continue;
		}
		igt_assert_f(same_place(&before[i], &after),
			     "%s: buffer %u moved (segment %u -> %u, moves %llu -> %llu) though the submission was rejected\n",
			     what, i, before[i].segment_id, after.segment_id,
			     (unsigned long long)before[i].moves,
			     (unsigned long long)after.moves);
	}
	if (!placed)
		vseg_usage_assert(ctx.fd, &usage, what);
	igt_assert_f(!vseg_syncobj_has_fence(ctx.fd, e->out),
		     "%s: the out-syncobj of a rejected submission has a fence\n",
		     what);
	tbuf_verify(&e->a, what);
	tbuf_verify(&e->b, what);
}

/* The valid submission works (and updates the models). */
static void reject_control(struct reject_env *e)
{
	int status;

	igt_assert_eq(__vseg_submit(ctx.fd, &e->s), 0);
	status = vseg_syncobj_wait_error(ctx.fd, e->out, VSEG_JOB_TIMEOUT_MS);
	igt_assert_f(status == 0, "the valid submission's job failed: %s\n",
		     vseg_errname(status));
	vseg_fill32(e->a.model, SZ_4K, 0x12345678);
	memcpy(e->b.model, e->a.model + SZ_4K, SZ_4K);
	memcpy(e->b.model + 2 * SZ_4K, &(uint64_t){ 0x42 }, 8);
	tbuf_verify(&e->a, "after the valid submission");
	tbuf_verify(&e->b, "after the valid submission");
}

/* The parts of the valid submission a case sets a field of. */
enum reject_part { R_SUBMIT, R_CMD, R_ALLOC, R_PATCH };

/**
 * struct reject_case - one way to break the valid submission
 * @name: the dynamic subtest.
 * @err: what SUBMIT must return.
 * @mutate: breaks it; NULL: @value goes into a field instead.
 * @placed: the kernel finds out only once the listed buffers are placed
 *	(a command's range outside the listed allocations).
 * @part: without @mutate: the structure the field is in ...
 * @index: ... element @index of its list (a command, an allocation or a
 *	patch) ...
 * @offset: ... the field's offset ...
 * @size: ... and size (4 or 8 bytes) ...
 * @value: ... and what it is set to.
 */
struct reject_case {
	const char *name;
	int err;
	void (*mutate)(struct reject_env *e);
	bool placed;
	enum reject_part part;
	unsigned int index;
	unsigned int offset;
	unsigned int size;
	uint64_t value;
};

#define R_FIELD(p, type, i, f, v) \
	.part = (p), .index = (i), .offset = offsetof(type, f), \
	.size = sizeof(((type *)0)->f), .value = (v)
#define SUBMIT(f, v)	R_FIELD(R_SUBMIT, struct drm_vseg_submit, 0, f, v)
#define CMD(i, f, v)	R_FIELD(R_CMD, struct drm_vseg_cmd, i, f, v)
#define ALLOC(i, f, v)	R_FIELD(R_ALLOC, struct drm_vseg_allocation, i, f, v)
#define PATCH(i, f, v)	R_FIELD(R_PATCH, struct drm_vseg_patch, i, f, v)
/* A patch of command @cmd's field @f. */
#define PATCH_OFFSET(i, cmd, f) \
	PATCH(i, patch_offset, \
	      VSEG_PATCH_OFFSET(cmd, offsetof(struct drm_vseg_cmd, f)))

/* Set the field of case @rc to its value. */
static void reject_set(struct reject_env *e, const struct reject_case *rc)
{
	char *base[] = {
		[R_SUBMIT] = (char *)&e->s,
		[R_CMD] = (char *)&e->cb.cmds[rc->index],
		[R_ALLOC] = (char *)&e->cb.allocs[rc->index],
		[R_PATCH] = (char *)&e->cb.patches[rc->index],
	};
	uint32_t v32 = rc->value;

	memcpy(base[rc->part] + rc->offset,
	       rc->size == 4 ? (const void *)&v32 : &rc->value, rc->size);
}

/* Point the submission at the (grown) lists again. */
static void relist(struct reject_env *e)
{
	e->s.allocations = (uintptr_t)e->cb.allocs;
	e->s.num_allocations = e->cb.num_allocs;
	e->s.patches = (uintptr_t)e->cb.patches;
	e->s.num_patches = e->cb.num_patches;
	e->s.commands = (uintptr_t)e->cb.cmds;
	e->s.commands_size = e->cb.num_cmds * CMD_SIZE;
}

static void r_plain(struct reject_env *e)
{
	/* Listed after valid ones, referenced by a patch. */
	vseg_cb_write_phys(&e->cb, e->plain, 0, 1);
	relist(e);
}

static void r_plain_unreferenced(struct reject_env *e)
{
	vseg_cb_add_allocation(&e->cb, e->plain, 0);
	relist(e);
}

static void r_primary(struct reject_env *e)
{
	vseg_cb_add_allocation(&e->cb, e->primary, DRM_VSEG_ALLOCATION_WRITE);
	relist(e);
}

static void r_too_many_allocations(struct reject_env *e)
{
	static struct drm_vseg_allocation list[DRM_VSEG_MAX_ALLOCATIONS + 1];

	for (unsigned int i = 0; i < DRM_VSEG_MAX_ALLOCATIONS + 1; i++)
		list[i] = e->cb.allocs[i % 2];
	e->s.allocations = (uintptr_t)list;
	e->s.num_allocations = DRM_VSEG_MAX_ALLOCATIONS + 1;
}

/* Patch list. */
static void r_index(struct reject_env *e)
{
	e->cb.patches[1].allocation_index = e->cb.num_allocs;
}

static void r_patch_outside(struct reject_env *e)
{
	e->cb.patches[2].patch_offset = e->s.commands_size;
}

static void r_patch_unaligned_last(struct reject_env *e)
{
	/* Inside the buffer, but the 8 bytes would run past its end. */
	e->cb.patches[0].patch_offset = e->s.commands_size - 4;
}

static void r_alloc_offset_end(struct reject_env *e)
{
	e->cb.patches[0].allocation_offset = e->a.size;
}

static void r_alloc_offset_far(struct reject_env *e)
{
	e->cb.patches[1].allocation_offset = e->b.size + SZ_1M;
}

static void r_too_many_patches(struct reject_env *e)
{
	static struct drm_vseg_patch list[DRM_VSEG_MAX_PATCHES + 1];

	for (unsigned int i = 0; i < DRM_VSEG_MAX_PATCHES + 1; i++)
		list[i] = e->cb.patches[0];
	e->s.patches = (uintptr_t)list;
	e->s.num_patches = DRM_VSEG_MAX_PATCHES + 1;
}

static void r_render_patches_only(struct reject_env *e)
{
	e->s.engine = RENDER;
	e->s.num_allocations = 0;
	e->s.allocations = 0;
}

/* Ranges outside the listed allocations (found once they are placed). */
static void r_raw_gap(struct reject_env *e)
{
	uint64_t lo, hi;
	uint32_t below, above;

	igt_assert(find_gap(&lo, &hi, &below, &above));
	e->cb.cmds[3].opcode = DRM_VSEG_CMD_FILL;
	e->cb.cmds[3].dst = lo;
	e->cb.cmds[3].size = SZ_4K;
}

static void r_raw_past_segments(struct reject_env *e)
{
	e->cb.cmds[3].opcode = DRM_VSEG_CMD_WRITE;
	e->cb.cmds[3].dst = past_every_segment();
}

static void r_fill_past_end(struct reject_env *e)
{
	/* Patched at offset 0, one page longer than the buffer. */
	e->cb.cmds[0].size = e->a.size + SZ_4K;
}

static void r_fill_offset_near_end(struct reject_env *e)
{
	e->cb.patches[0].allocation_offset = e->a.size - 4;
}

static void r_copy_src_near_end(struct reject_env *e)
{
	e->cb.patches[2].allocation_offset = e->a.size - 8;
}

static void r_write_near_end(struct reject_env *e)
{
	e->cb.patches[3].allocation_offset = e->b.size - 4;
}

static void r_extensions(struct reject_env *e)
{
	e->s.extensions = (uintptr_t)e->cb.cmds;
}

/* Syncobjs. */
static void r_unknown_in_sync(struct reject_env *e)
{
	static struct drm_vseg_sync in;

	in.handle = 0x7fff0000;
	e->s.in_syncs = (uintptr_t)&in;
	e->s.num_in_syncs = 1;
}

static void r_unknown_out_sync(struct reject_env *e)
{
	static struct drm_vseg_sync out[2];

	out[0].handle = e->out;
	out[1].handle = 0x7fff0000;
	e->s.out_syncs = (uintptr_t)out;
	e->s.num_out_syncs = 2;
}

static struct drm_vseg_sync many_syncs[DRM_VSEG_MAX_SYNCS + 1];

static void make_many_syncs(uint32_t flags)
{
	for (unsigned int i = 0; i < DRM_VSEG_MAX_SYNCS + 1; i++)
		many_syncs[i].handle = vseg_syncobj_create(ctx.fd, flags);
}

static void r_too_many_in_syncs(struct reject_env *e)
{
	make_many_syncs(DRM_SYNCOBJ_CREATE_SIGNALED);
	e->s.in_syncs = (uintptr_t)many_syncs;
	e->s.num_in_syncs = DRM_VSEG_MAX_SYNCS + 1;
}

static void r_too_many_out_syncs(struct reject_env *e)
{
	make_many_syncs(0);
	many_syncs[0].handle = e->out;
	e->s.out_syncs = (uintptr_t)many_syncs;
	e->s.num_out_syncs = DRM_VSEG_MAX_SYNCS + 1;
}

/* Pointers. */
static void r_bad_commands(struct reject_env *e)
{
	e->s.commands = (uintptr_t)bad_ptr;
}

static void r_bad_allocations(struct reject_env *e)
{
	e->s.allocations = (uintptr_t)bad_ptr;
}

static void r_bad_patches(struct reject_env *e)
{
	e->s.patches = (uintptr_t)bad_ptr;
}

static void r_bad_in_syncs(struct reject_env *e)
{
	e->s.in_syncs = (uintptr_t)bad_ptr;
	e->s.num_in_syncs = 1;
}

static void r_bad_out_syncs(struct reject_env *e)
{
	e->s.out_syncs = (uintptr_t)bad_ptr;
	e->s.num_out_syncs = 1;
}

static const struct reject_case reject_cases[] = {
	{ "plain-buffer", -EINVAL, .mutate = r_plain },
	{ "plain-buffer-unreferenced", -EINVAL,
	  .mutate = r_plain_unreferenced },
	{ "primary-buffer", -EINVAL, .mutate = r_primary },
	{ "allocation-flags", -EINVAL, ALLOC(0, flags, 1u << 31) },
	{ "unknown-handle", -ENOENT, ALLOC(1, handle, 0x7fff0000) },
	{ "zero-handle", -ENOENT, ALLOC(1, handle, 0) },
	{ "too-many-allocations", -E2BIG, .mutate = r_too_many_allocations },
	{ "allocation-index", -EINVAL, .mutate = r_index },
	{ "allocation-index-huge", -EINVAL, PATCH(0, allocation_index, ~0u) },
	{ "patch-offset-outside", -EINVAL, .mutate = r_patch_outside },
	{ "patch-offset-huge", -EINVAL, PATCH(2, patch_offset, ~7ull) },
	{ "patch-offset-unaligned", -EINVAL,
	  PATCH(0, patch_offset, VSEG_PATCH_OFFSET(0, VSEG_CMD_DST) + 4) },
	{ "patch-offset-straddles-end", -EINVAL,
	  .mutate = r_patch_unaligned_last },
	{ "patch-pad", -EINVAL, PATCH(1, pad, 1) },
	{ "allocation-offset-at-end", -EINVAL, .mutate = r_alloc_offset_end },
	{ "allocation-offset-beyond", -EINVAL, .mutate = r_alloc_offset_far },
	{ "allocation-offset-huge", -EINVAL,
	  PATCH(2, allocation_offset, ~0ull - 3) },
	{ "too-many-patches", -E2BIG, .mutate = r_too_many_patches },
	{ "patch-into-opcode", -EINVAL, PATCH_OFFSET(0, 0, opcode) },
	{ "patch-into-size", -EINVAL, PATCH_OFFSET(1, 1, size) },
	{ "patch-into-value", -EINVAL, PATCH_OFFSET(3, 2, value) },
	{ "patch-into-fill-src", -EINVAL, PATCH_OFFSET(0, 0, src) },
	{ "patch-into-write-src", -EINVAL, PATCH_OFFSET(3, 2, src) },
	{ "patch-into-nop-dst", -EINVAL, PATCH_OFFSET(3, 3, dst) },
	{ "patch-into-nop-src", -EINVAL, PATCH_OFFSET(2, 3, src) },
	{ "raw-gap", -EINVAL, .mutate = r_raw_gap, .placed = true },
	{ "raw-past-segments", -EINVAL,
	  .mutate = r_raw_past_segments, .placed = true },
	{ "fill-past-end", -EINVAL, .mutate = r_fill_past_end, .placed = true },
	{ "fill-offset-near-end", -EINVAL,
	  .mutate = r_fill_offset_near_end, .placed = true },
	{ "copy-src-near-end", -EINVAL,
	  .mutate = r_copy_src_near_end, .placed = true },
	{ "write-straddles-end", -EINVAL,
	  .mutate = r_write_near_end, .placed = true },
	{ "render-allocation-list", -EINVAL, SUBMIT(engine, RENDER) },
	{ "render-patch-list", -EINVAL, .mutate = r_render_patches_only },
	{ "unknown-opcode", -EINVAL, CMD(3, opcode, DRM_VSEG_CMD_WRITE + 1) },
	{ "unknown-opcode-huge", -EINVAL, CMD(0, opcode, 0x80000001) },
	{ "command-flags", -EINVAL, CMD(1, flags, 1) },
	{ "fill-src", -EINVAL, CMD(0, src, 8) },
	{ "write-src", -EINVAL, CMD(2, src, 8) },
	{ "write-size", -EINVAL, CMD(2, size, 8) },
	{ "nop-size", -EINVAL, CMD(3, size, 4) },
	{ "nop-value", -EINVAL, CMD(3, value, 1) },
	{ "nop-src", -EINVAL, CMD(3, src, 1) },
	{ "copy-value", -EINVAL, CMD(1, value, 1) },
	{ "fill-size-unaligned", -EINVAL, CMD(0, size, SZ_4K - 2) },
	{ "commands-size-zero", -EINVAL, SUBMIT(commands_size, 0) },
	{ "commands-size-partial", -EINVAL,
	  SUBMIT(commands_size, 2 * CMD_SIZE + 8) },
	{ "commands-size-short", -EINVAL, SUBMIT(commands_size, CMD_SIZE - 8) },
	{ "unknown-engine", -EINVAL, SUBMIT(engine, RENDER + 1) },
	{ "unknown-engine-huge", -EINVAL, SUBMIT(engine, ~0u) },
	{ "flags", -EINVAL, SUBMIT(flags, 1) },
	{ "sync-size-short", -EINVAL,
	  SUBMIT(sync_size, DRM_VSEG_SYNC_SIZE_V1 - 8) },
	{ "sync-size-huge", -E2BIG,
	  SUBMIT(sync_size, DRM_VSEG_SYNC_SIZE_MAX + 8) },
	{ "reserved0", -EINVAL, SUBMIT(reserved[0], 1) },
	{ "reserved1", -EINVAL, SUBMIT(reserved[1], 1ull << 63) },
	{ "extensions", -EINVAL, .mutate = r_extensions },
	{ "unknown-in-sync", -ENOENT, .mutate = r_unknown_in_sync },
	{ "unknown-out-sync", -ENOENT, .mutate = r_unknown_out_sync },
	{ "too-many-in-syncs", -E2BIG, .mutate = r_too_many_in_syncs },
	{ "too-many-out-syncs", -E2BIG, .mutate = r_too_many_out_syncs },
	{ "bad-commands-pointer", -EFAULT, .mutate = r_bad_commands },
	{ "null-commands-pointer", -EFAULT, SUBMIT(commands, 0) },
	{ "bad-allocations-pointer", -EFAULT, .mutate = r_bad_allocations },
	{ "bad-patches-pointer", -EFAULT, .mutate = r_bad_patches },
	{ "bad-in-syncs-pointer", -EFAULT, .mutate = r_bad_in_syncs },
	{ "bad-out-syncs-pointer", -EFAULT, .mutate = r_bad_out_syncs },
};

static void test_reject(const struct reject_case *rc)
{
	struct reject_env e;

	reject_setup(&e);
	memset(many_syncs, 0, sizeof(many_syncs));
	if (rc->mutate)
		rc->mutate(&e);
	else
		reject_set(&e, rc);
	expect_rejected(&e, rc->err, rc->placed, rc->name);
	for (unsigned int i = 0; i < DRM_VSEG_MAX_SYNCS + 1; i++)
		if (many_syncs[i].handle && many_syncs[i].handle != e.out)
			vseg_syncobj_destroy(ctx.fd, many_syncs[i].handle);
	reject_teardown(&e);
}

/*
 * A command buffer larger than DRM_VSEG_MAX_CMD_BYTES: the UAPI lists it
 * under "bad arguments" and "lists longer than their limit" can be read to
 * cover it too, so either error is accepted (and logged).
 */
static void test_reject_commands_too_large(void)
{
	struct reject_env e;
	struct drm_vseg_cmd *big;
	const uint32_t n = VSEG_MAX_CMDS + 1;
	int err;

	reject_setup(&e);
	big = calloc(n, CMD_SIZE);
	igt_assert(big);
	memcpy(big, e.cb.cmds, e.cb.num_cmds * CMD_SIZE);
	e.s.commands = (uintptr_t)big;
	e.s.commands_size = n * CMD_SIZE;
	err = __vseg_submit(ctx.fd, &e.s);
	igt_info("a %u-byte command buffer: %s\n", n * (unsigned int)CMD_SIZE,
		 vseg_errname(err));
	igt_assert_f(err == -EINVAL || err == -E2BIG,
		     "a %u-byte command buffer: SUBMIT returned %d (%s)\n",
		     n * (unsigned int)CMD_SIZE, err, vseg_errname(err));
	igt_assert(!vseg_syncobj_has_fence(ctx.fd, e.out));
	free(big);
	reject_teardown(&e);
}

/* --- the lists at their limits ----------------------------------------------- */

static void test_limits(void)
{
	const unsigned int n = DRM_VSEG_MAX_ALLOCATIONS;
	const unsigned int per = DRM_VSEG_MAX_PATCHES / DRM_VSEG_MAX_ALLOCATIONS;
	uint32_t in[DRM_VSEG_MAX_SYNCS], out[DRM_VSEG_MAX_SYNCS];
	struct tbuf *b = calloc(n, sizeof(*b));
	struct vseg_cmdbuf cb;
	int status;

	igt_assert(b);
	igt_assert_eq_u32(per * n, DRM_VSEG_MAX_PATCHES);
	vseg_cb_init(&cb);
	/* 256 buffers (4 KiB, in the aperture), 4 WRITEs each: 1024 patches. */
	for (unsigned int i = 0; i < n; i++)
		tbuf_create(&b[i], cell_of(ctx.ap_id), SZ_4K, AP_FLAG);
	for (unsigned int k = 0; k < per; k++)
		for (unsigned int i = 0; i < n; i++)
			write64(&cb, &b[i], 8 * k,
				(uint64_t)i << 32 | k | 0xab00);
	/* Then NOPs up to the largest command buffer. */
	while (cb.num_cmds < VSEG_MAX_CMDS)
		vseg_cb_nop(&cb);
	igt_assert_eq_u32(cb.num_allocs, DRM_VSEG_MAX_ALLOCATIONS);
	igt_assert_eq_u32(cb.num_patches, DRM_VSEG_MAX_PATCHES);
	igt_assert(cb.num_cmds * CMD_SIZE <= DRM_VSEG_MAX_CMD_BYTES);

	/* And as many in- and out-syncobjs as allowed. */
	for (unsigned int i = 0; i < DRM_VSEG_MAX_SYNCS; i++) {
		in[i] = vseg_syncobj_create(ctx.fd, DRM_SYNCOBJ_CREATE_SIGNALED);
		out[i] = vseg_syncobj_create(ctx.fd, 0);
	}
	vseg_cb_submit(ctx.fd, COPY, &cb, in, DRM_VSEG_MAX_SYNCS, out,
		       DRM_VSEG_MAX_SYNCS);
	igt_assert_eq(__vseg_syncobj_wait(ctx.fd, out, DRM_VSEG_MAX_SYNCS,
					  VSEG_JOB_TIMEOUT_MS), 0);
	for (unsigned int i = 0; i < DRM_VSEG_MAX_SYNCS; i++) {
		status = vseg_syncobj_status(ctx.fd, out[i]);
		igt_assert_f(status == 1, "out-syncobj %u: status %d\n", i,
			     status);
		vseg_syncobj_destroy(ctx.fd, in[i]);
		vseg_syncobj_destroy(ctx.fd, out[i]);
	}
	for (unsigned int i = 0; i < n; i++) {
		uint64_t got[4];

		vseg_bo_read(ctx.fd, b[i].handle, 0, got, sizeof(got));
		vseg_assert_same(got, b[i].model, sizeof(got), 0,
				 "a WRITE of the largest submission");
		tbuf_destroy(&b[i]);
	}
	free(b);
	vseg_cb_fini(&cb);
}

/* --- syncobjs ----------------------------------------------------------------- */

/* Enough FILLs over @b to keep the engine busy for a while. */
static void long_job(struct vseg_cmdbuf *cb, struct tbuf *b, unsigned int n)
{
	for (unsigned int i = 0; i < n; i++)
		fill(cb, b, 0, b->size, 0x10000000 + i);
}

static void test_syncobjs(void)
{
	struct vseg_cmdbuf cb;
	struct tbuf a, c;
	uint32_t s1, s2[2], sig;
	int status;

	tbuf_create(&a, cell_of(1), SZ_4M, AP_FLAG);
	tbuf_create(&c, cell_of(ctx.ap_id), SZ_64K, AP_FLAG);
	vseg_cb_init(&cb);

	/* Job 1 keeps the engine busy, job 2 waits for it and copies. */
	s1 = vseg_syncobj_create(ctx.fd, 0);
	s2[0] = vseg_syncobj_create(ctx.fd, 0);
	s2[1] = vseg_syncobj_create(ctx.fd, 0);
	long_job(&cb, &a, 16);
	write64(&cb, &a, SZ_4M - 8, 0x5151515151515151ull);
	vseg_cb_submit(ctx.fd, COPY, &cb, NULL, 0, &s1, 1);
	vseg_cb_reset(&cb);
	copy(&cb, &c, 0, &a, SZ_4M - SZ_64K, SZ_64K);
	vseg_cb_submit(ctx.fd, COPY, &cb, &s1, 1, s2, 2);
	/* Both out-syncobjs of job 2 get its fence. */
	igt_assert_eq(__vseg_syncobj_wait(ctx.fd, s2, 2, VSEG_JOB_TIMEOUT_MS),
		      0);
	igt_assert_eq(vseg_syncobj_status(ctx.fd, s2[0]), 1);
	igt_assert_eq(vseg_syncobj_status(ctx.fd, s2[1]), 1);
	igt_assert_eq(vseg_syncobj_status(ctx.fd, s1), 1);
	tbuf_verify(&c, "a job that waited for another one");

	/* An in-syncobj that is already signalled. */
	sig = vseg_syncobj_create(ctx.fd, DRM_SYNCOBJ_CREATE_SIGNALED);
	vseg_cb_reset(&cb);
	fill(&cb, &c, 0, SZ_4K, 0x5a5a0001);
	vseg_cb_submit(ctx.fd, COPY, &cb, &sig, 1, &s1, 1);
	status = vseg_syncobj_wait_error(ctx.fd, s1, VSEG_JOB_TIMEOUT_MS);
	igt_assert_eq(status, 0);
	tbuf_verify(&c, "a job waiting for a signalled syncobj");

	/* The same syncobj in and out: waits for the old fence, gets the new. */
	vseg_cb_reset(&cb);
	fill(&cb, &c, SZ_4K, SZ_4K, 0x5a5a0002);
	vseg_cb_submit(ctx.fd, COPY, &cb, &s1, 1, &s1, 1);
	igt_assert_eq(vseg_syncobj_wait_error(ctx.fd, s1, VSEG_JOB_TIMEOUT_MS),
		      0);
	tbuf_verify(&c, "a job with the same syncobj in and out");

	/* Without any syncobj: the buffer's fence still orders CPU access. */
	vseg_cb_reset(&cb);
	fill(&cb, &c, 2 * SZ_4K, SZ_4K, 0x5a5a0003);
	vseg_cb_submit(ctx.fd, COPY, &cb, NULL, 0, NULL, 0);
	vseg_cb_reset(&cb);
	fill(&cb, &c, 3 * SZ_4K, SZ_4K, 0x5a5a0004);
	igt_assert_eq(vseg_cb_exec(ctx.fd, COPY, &cb), 0);
	tbuf_verify(&c, "jobs with and without syncobjs");

	vseg_syncobj_destroy(ctx.fd, sig);
	vseg_syncobj_destroy(ctx.fd, s1);
	vseg_syncobj_destroy(ctx.fd, s2[0]);
	vseg_syncobj_destroy(ctx.fd, s2[1]);
	vseg_cb_fini(&cb);
	tbuf_destroy(&a);
	tbuf_destroy(&c);
}

/* --- buffers used by a queued job -------------------------------------------- */

/*
 * EVICT of a buffer a queued job writes succeeds, and the job's data is
 * all there afterwards: eviction waited for the job or moved the buffer
 * only after it.
 */
static void test_evict_busy(const struct cell *cell)
{
	struct vseg_cmdbuf cb;
	uint32_t sync;
	struct tbuf b;
	int status;

	tbuf_create(&b, cell, SZ_4M, AP_FLAG);
	vseg_cb_init(&cb);
	long_job(&cb, &b, 16);
	write64(&cb, &b, 8, 0xe71c7ed0e71c7ed0ull);
	sync = vseg_syncobj_create(ctx.fd, 0);
	vseg_cb_submit(ctx.fd, COPY, &cb, NULL, 0, &sync, 1);
	vseg_evict(ctx.fd, &b.handle, 1);
	status = vseg_syncobj_wait_error(ctx.fd, sync, VSEG_JOB_TIMEOUT_MS);
	igt_assert_f(status == 0, "the job of an evicted buffer failed: %s\n",
		     vseg_errname(status));
	tbuf_verify(&b, "a buffer evicted while a job wrote it");

	/* Brought back while another job runs on it. */
	vseg_cb_reset(&cb);
	long_job(&cb, &b, 8);
	vseg_cb_submit(ctx.fd, COPY, &cb, NULL, 0, &sync, 1);
	vseg_make_resident(ctx.fd, &b.handle, 1);
	vseg_evict(ctx.fd, &b.handle, 1);
	igt_assert_eq(vseg_syncobj_wait_error(ctx.fd, sync,
					      VSEG_JOB_TIMEOUT_MS), 0);
	tbuf_verify(&b, "a buffer moved twice while a job wrote it");

	vseg_syncobj_destroy(ctx.fd, sync);
	vseg_cb_fini(&cb);
	tbuf_destroy(&b);
}

/*
 * Memory pressure while a job runs: new buffers supported only in the
 * job's segment must evict their way in; the job's buffer may go too, but
 * only once the job is done with it.
 */
static void test_pressure_busy(uint32_t id)
{
	const uint64_t chunk = vseg_ctx_seg(&ctx, id)->size / 8;
	struct drm_vseg_gem_create c;
	uint32_t fillers[8], sync;
	struct vseg_cmdbuf cb;
	struct tbuf b;

	tbuf_create(&b, cell_of(id), chunk, AP_FLAG);
	vseg_cb_init(&cb);
	long_job(&cb, &b, 32);
	sync = vseg_syncobj_create(ctx.fd, 0);
	vseg_cb_submit(ctx.fd, COPY, &cb, NULL, 0, &sync, 1);
	for (unsigned int i = 0; i < 8; i++) {
		vseg_create_args(&c, chunk, BIT(id), AP_FLAG);
		fillers[i] = vseg_gem_create(ctx.fd, &c);
	}
	igt_assert_eq(vseg_syncobj_wait_error(ctx.fd, sync,
					      VSEG_JOB_TIMEOUT_MS), 0);
	tbuf_verify(&b, "a buffer of a running job under memory pressure");
	for (unsigned int i = 0; i < 8; i++)
		vseg_gem_close(ctx.fd, fillers[i]);
	vseg_syncobj_destroy(ctx.fd, sync);
	vseg_cb_fini(&cb);
	tbuf_destroy(&b);
}

/* Closing the handles of a queued job's buffers: the job still succeeds. */
static void test_close_busy(void)
{
	struct vseg_cmdbuf cb;
	struct tbuf a, b;
	uint32_t sync;

	tbuf_create(&a, cell_of(1), SZ_4M, AP_FLAG);
	tbuf_create(&b, cell_of(ctx.ap_id), SZ_1M, AP_FLAG);
	vseg_cb_init(&cb);
	long_job(&cb, &a, 16);
	copy(&cb, &b, 0, &a, 0, SZ_1M);
	sync = vseg_syncobj_create(ctx.fd, 0);
	vseg_cb_submit(ctx.fd, COPY, &cb, NULL, 0, &sync, 1);
	tbuf_destroy(&a);
	tbuf_destroy(&b);
	igt_assert_eq(vseg_syncobj_wait_error(ctx.fd, sync,
					      VSEG_JOB_TIMEOUT_MS), 0);
	vseg_syncobj_destroy(ctx.fd, sync);
	vseg_cb_fini(&cb);
	check_engine_alive("after closing the buffers of a running job");
}

/*
 * A CPU mapping made while a job writes the buffer sees everything the job
 * wrote: the fault waits for the job's fence.
 */
static void test_mmap_waits(void)
{
	struct vseg_cmdbuf cb;
	struct tbuf b;
	uint32_t sync;

	tbuf_create(&b, cell_of(1), SZ_4M, AP_FLAG);
	vseg_cb_init(&cb);
	long_job(&cb, &b, 32);
	write64(&cb, &b, SZ_4M - 8, 0x1a571a571a571a57ull);
	sync = vseg_syncobj_create(ctx.fd, 0);
	vseg_cb_submit(ctx.fd, COPY, &cb, NULL, 0, &sync, 1);
	tbuf_verify(&b, "a CPU mapping made while a job wrote the buffer");
	igt_assert_eq(vseg_syncobj_status(ctx.fd, sync), 1);
	vseg_syncobj_destroy(ctx.fd, sync);
	vseg_cb_fini(&cb);
	tbuf_destroy(&b);
}

/*
 * Unloading the module with jobs queued on both engines and the file
 * closed: the jobs run to their end, nothing leaks (the kernel log is
 * checked for leaks and warnings).
 */
static void test_unload_busy(void)
{
	const uint64_t va = 0x100000000ull;
	struct vseg_cmdbuf cb;
	struct tbuf a, b, r;
	struct drm_vseg_gem_create c;

	tbuf_create(&a, cell_of(1), SZ_4M, AP_FLAG);
	tbuf_create(&b, cell_of(ctx.ap_id), SZ_1M, AP_FLAG);
	vseg_create_args(&c, SZ_4M, BIT(ctx.ap_id), 0);
	tbuf_create_args(&r, &c);
	igt_assert_eq_u64(vseg_vm_bind(ctx.fd, r.handle, va), r.size);

	vseg_cb_init(&cb);
	long_job(&cb, &a, 32);
	copy(&cb, &b, 0, &a, 0, SZ_1M);
	vseg_cb_submit(ctx.fd, COPY, &cb, NULL, 0, NULL, 0);
	vseg_cb_reset(&cb);
	for (unsigned int i = 0; i < 32; i++)
		vseg_cb_fill(&cb, va, r.size, i);
	vseg_cb_submit(ctx.fd, RENDER, &cb, NULL, 0, NULL, 0);
	vseg_cb_fini(&cb);
	free(a.model);
	free(b.model);
	free(r.model);
	/* Close the file (buffers and mappings with it) and unload. */
	vseg_ctx_unload(&ctx);
}

/* --- no room to make a buffer reachable ---------------------------------------- */

/*
 * Fill segment @id with pinned AccessedPhysically buffers of @chunk bytes,
 * into @pinned (at most @max); returns how many. A memory segment refuses
 * the create that does not fit (-ENOSPC); in the aperture, creation goes
 * to system memory and the pin that does not fit fails (-ENOSPC).
 */
static unsigned int fill_pinned(uint32_t id, uint64_t chunk, uint32_t *pinned,
				unsigned int max)
{
	struct drm_vseg_gem_create c;
	unsigned int n = 0;
	int err;

	for (;;) {
		igt_assert(n < max);
		vseg_create_args(&c, chunk, BIT(id), AP_FLAG);
		err = __vseg_gem_create(ctx.fd, &c);
		if (err) {
			igt_assert_f(err == -ENOSPC,
				     "creating in a segment full of pinned buffers: %s\n",
				     vseg_errname(err));
			break;
		}
		err = __vseg_make_resident_flags(ctx.fd, &c.handle, 1,
						 DRM_VSEG_RESIDENCY_PIN, NULL);
		if (err) {
			igt_assert_f(id == ctx.ap_id && err == -ENOSPC,
				     "MAKE_RESIDENT(PIN) in %s: %s\n",
				     vseg_ctx_seg_name(&ctx, id),
				     vseg_errname(err));
			vseg_gem_close(ctx.fd, c.handle);
			break;
		}
		pinned[n++] = c.handle;
	}
	igt_info("%s: %u pinned buffers of %llu KiB\n",
		 vseg_ctx_seg_name(&ctx, id), n,
		 (unsigned long long)(chunk >> 10));
	return n;
}

static uint64_t enospc_chunk(uint32_t id)
{
	const struct drm_vseg_segment_info *s = vseg_ctx_seg(&ctx, id);

	return (vseg_ctx_is_memory(&ctx, id) ? s->size : s->commit_limit) / 8;
}

/*
 * Fill segment @id (and the aperture, the other place its cell names)
 * with pinned buffers: a job on a buffer that is in neither cannot get it
 * in (-ENOSPC, nothing changed); unpin one in @id and it can.
 */
static void test_enospc(uint32_t id)
{
	const uint64_t chunk = enospc_chunk(id);
	uint32_t pinned[16], pinned_ap[80], out;
	struct vseg_usage_snapshot usage;
	struct drm_vseg_gem_info info;
	unsigned int n, n_ap = 0;
	struct vseg_cmdbuf cb;
	struct tbuf x;
	int err;

	n = fill_pinned(id, chunk, pinned, ARRAY_SIZE(pinned));
	igt_assert(n > 0);
	if (id != ctx.ap_id) {
		/* big pieces, then pieces of the buffer's size */
		n_ap = fill_pinned(ctx.ap_id, enospc_chunk(ctx.ap_id),
				   pinned_ap, 16);
		n_ap += fill_pinned(ctx.ap_id, chunk, pinned_ap + n_ap,
				    ARRAY_SIZE(pinned_ap) - n_ap);
	}

	tbuf_create(&x, cell_of(id), chunk, AP_FLAG);
	vseg_gem_info(ctx.fd, x.handle, &info);
	igt_assert_f(info.segment_id == 0, "no room, yet created in %s\n",
		     vseg_ctx_seg_name(&ctx, info.segment_id));
	vseg_cb_init(&cb);
	fill(&cb, &x, 0, SZ_64K, 0xe0e0e0e0);
	out = vseg_syncobj_create(ctx.fd, 0);
	vseg_usage_read(ctx.fd, &usage);
	err = __vseg_cb_submit(ctx.fd, COPY, &cb, NULL, 0, &out, 1);
	igt_assert_f(err == -ENOSPC,
		     "a job on a buffer that cannot be made reachable: %d (%s), expected -ENOSPC\n",
		     err, vseg_errname(err));
	vseg_usage_assert(ctx.fd, &usage, "after the -ENOSPC submission");
	igt_assert(!vseg_syncobj_has_fence(ctx.fd, out));

	unpin(pinned[--n]);
	vseg_gem_close(ctx.fd, pinned[n]);
	igt_assert_eq(__vseg_cb_submit(ctx.fd, COPY, &cb, NULL, 0, &out, 1), 0);
	igt_assert_eq(vseg_syncobj_wait_error(ctx.fd, out,
					      VSEG_JOB_TIMEOUT_MS), 0);
	check_reachable(&x, cell_of(id), NULL, "once there is room");
	tbuf_verify(&x, "once there is room");

	for (unsigned int i = 0; i < n; i++) {
		unpin(pinned[i]);
		vseg_gem_close(ctx.fd, pinned[i]);
	}
	for (unsigned int i = 0; i < n_ap; i++) {
		unpin(pinned_ap[i]);
		vseg_gem_close(ctx.fd, pinned_ap[i]);
	}
	vseg_syncobj_destroy(ctx.fd, out);
	vseg_cb_fini(&cb);
	tbuf_destroy(&x);
}

/* --- GPU physical addresses from GEM_INFO ------------------------------------ */

/*
 * GEM_INFO's gpu_address is the segment's base address + offset (the
 * aperture's base + aperture_offset), or none; used directly, without a
 * patch, with the buffer listed, it reaches the buffer's bytes.
 */
static void test_gem_info_address(const struct cell *cell)
{
	const uint64_t size = SZ_64K;
	const struct drm_vseg_segment_info *seg = vseg_ctx_seg(&ctx, cell->seg);
	struct drm_vseg_gem_info info;
	struct drm_vseg_gem_create c;
	struct vseg_cmdbuf cb;
	uint64_t want, ga;
	struct tbuf b;
	uint32_t h;

	tbuf_create(&b, cell, size, AP_FLAG);
	tbuf_cpu_pattern(&b, 0x800 + cell->seg);
	pin(b.handle);
	check_reachable(&b, cell, &info, "pinned");
	want = seg->base_address + (cell->seg == ctx.ap_id ?
				    info.aperture_offset : info.offset);
	igt_info("%s (base %#llx): buffer at GPU address %#llx\n",
		 cell_name(cell), (unsigned long long)seg->base_address,
		 (unsigned long long)info.gpu_address);
	igt_assert_f(info.gpu_address == want,
		     "GEM_INFO gpu_address %#llx, base + offset is %#llx\n",
		     (unsigned long long)info.gpu_address,
		     (unsigned long long)want);
	ga = info.gpu_address;

	vseg_cb_init(&cb);
	vseg_cb_allocation(&cb, b.handle, DRM_VSEG_ALLOCATION_WRITE);
	vseg_cb_fill(&cb, ga + SZ_4K, SZ_4K, 0x5eed5eed);
	vseg_fill32(b.model + SZ_4K, SZ_4K, 0x5eed5eed);
	vseg_cb_write(&cb, ga, 0x0123456789abcdefull);
	memcpy(b.model, &(uint64_t){ 0x0123456789abcdefull }, 8);
	vseg_cb_copy(&cb, ga + size - SZ_4K, ga + SZ_4K - 16, 64);
	memmove(b.model + size - SZ_4K, b.model + SZ_4K - 16, 64);
	vseg_cb_write(&cb, ga + size - 8, 0xfedcba9876543210ull);
	memcpy(b.model + size - 8, &(uint64_t){ 0xfedcba9876543210ull }, 8);
	vseg_cb_exec_ok(ctx.fd, COPY, &cb, "GEM_INFO's address, used directly");
	vseg_cb_fini(&cb);
	unpin(b.handle);
	tbuf_verify(&b, "after a job on GEM_INFO's address");
	tbuf_destroy(&b);

	/* In system memory: no GPU physical address. */
	vseg_create_args(&c, size, BIT(ctx.ap_id), 0);
	h = vseg_gem_create(ctx.fd, &c);
	vseg_gem_info(ctx.fd, h, &info);
	/* named by the aperture's id: its pages, unmapped */
	igt_assert_f((info.segment_id == 0 || info.segment_id == ctx.ap_id) &&
		     !(info.placement_flags & DRM_VSEG_INFO_APERTURE_MAPPED) &&
		     info.gpu_address == DRM_VSEG_GPU_ADDRESS_NONE,
		     "a buffer in system memory: segment %u, gpu_address %#llx\n",
		     info.segment_id, (unsigned long long)info.gpu_address);
	vseg_gem_close(ctx.fd, h);
	/* In the aperture without AccessedPhysically: not mapped, none. */
	if (cell->seg == ctx.ap_id) {
		vseg_create_args(&c, size, BIT(ctx.ap_id), 0);
		h = vseg_gem_create(ctx.fd, &c);
		vseg_make_resident(ctx.fd, &h, 1);
		vseg_gem_info(ctx.fd, h, &info);
		igt_assert_f(info.segment_id == ctx.ap_id &&
			     !(info.placement_flags &
			       DRM_VSEG_INFO_APERTURE_MAPPED) &&
			     info.gpu_address == DRM_VSEG_GPU_ADDRESS_NONE,
			     "an unmapped aperture buffer: segment %u, flags %#x, gpu_address %#llx\n",
			     info.segment_id, info.placement_flags,
			     (unsigned long long)info.gpu_address);
		vseg_gem_close(ctx.fd, h);
	}
}

/* One byte past a listed buffer is refused; its last byte is inside. */
static void test_one_past_end(const struct cell *cell)
{
	const uint64_t size = SZ_64K;
	const struct tbuf *watch[1];
	struct vseg_cmdbuf cb;
	struct tbuf b;
	uint64_t ga;

	tbuf_create(&b, cell, size, AP_FLAG);
	tbuf_cpu_pattern(&b, 0x840 + cell->seg);
	pin(b.handle);
	ga = vseg_phys_addr(ctx.fd, b.handle, 0);
	watch[0] = &b;
	vseg_cb_init(&cb);
	vseg_cb_allocation(&cb, b.handle, DRM_VSEG_ALLOCATION_WRITE);
	vseg_cb_copy(&cb, ga, ga + size, 1);
	expect_submit_einval(&cb, watch, 1,
			     "COPY of the byte just past the listed buffer");
	vseg_cb_reset(&cb);
	vseg_cb_allocation(&cb, b.handle, DRM_VSEG_ALLOCATION_WRITE);
	vseg_cb_copy(&cb, ga + size, ga, 1);
	expect_submit_einval(&cb, watch, 1,
			     "COPY into the byte just past the listed buffer");
	vseg_cb_reset(&cb);
	vseg_cb_allocation(&cb, b.handle, DRM_VSEG_ALLOCATION_WRITE);
	vseg_cb_copy(&cb, ga, ga + size - 16, 17);
	expect_submit_einval(&cb, watch, 1,
			     "COPY from a range one byte longer than the buffer");
	vseg_cb_reset(&cb);
	vseg_cb_allocation(&cb, b.handle, DRM_VSEG_ALLOCATION_WRITE);
	vseg_cb_fill(&cb, ga, size + 4, 0x0bad0bad);
	expect_submit_einval(&cb, watch, 1, "FILL one word past the buffer");

	/* The last byte is the buffer's. */
	vseg_cb_reset(&cb);
	vseg_cb_allocation(&cb, b.handle, DRM_VSEG_ALLOCATION_WRITE);
	vseg_cb_copy(&cb, ga, ga + size - 1, 1);
	b.model[0] = b.model[size - 1];
	vseg_cb_exec_ok(ctx.fd, COPY, &cb, "COPY of the buffer's last byte");
	vseg_cb_fini(&cb);
	unpin(b.handle);
	tbuf_verify(&b, "after jobs around the buffer's end");
	tbuf_destroy(&b);
}

/*
 * A hostile client learns where another file's buffer is (segment and
 * offset) and computes its address from the segment's base address, as
 * the GPU sees it: reading it into its own listed buffer and writing it
 * are refused, and no byte moves either way.
 */
static void test_hostile_client(const struct cell *cell)
{
	const uint64_t size = SZ_64K;
	const struct drm_vseg_segment_info *seg;
	struct drm_vseg_segment_info *segs;
	struct drm_vseg_query_segments q;
	struct drm_vseg_gem_info info;
	int fd2 = drm_open_vseg();
	struct vseg_cmdbuf cb;
	struct tbuf victim;
	uint8_t *want, *got;
	uint64_t addr, own;
	uint32_t h;
	int err;

	want = malloc(size);
	got = malloc(size);
	igt_assert(want && got);
	tbuf_create(&victim, cell, size, AP_FLAG);
	tbuf_cpu_pattern(&victim, 0x880 + cell->seg);
	pin(victim.handle);
	check_reachable(&victim, cell, &info, "the victim, pinned");

	/* The hostile client's view: its own query, the leaked location. */
	segs = vseg_query_all(fd2, &q);
	seg = vseg_segment(&q, segs, info.segment_id);
	addr = seg->base_address + (info.segment_id == ctx.ap_id ?
				    info.aperture_offset : info.offset);
	igt_assert_eq_u64(addr, info.gpu_address);
	igt_info("the victim is at %#llx in %s\n", (unsigned long long)addr,
		 cell_name(cell));

	h = vseg_gem_create_simple(fd2, size, BIT(ctx.ap_id),
				   AP_FLAG);
	vseg_pattern_fill(want, size, 0x8c0);
	vseg_bo_write(fd2, h, 0, want, size);
	vseg_make_resident(fd2, &h, 1);
	own = vseg_phys_addr(fd2, h, 0);

	/* Read: the victim's bytes into its own listed buffer. */
	vseg_cb_init(&cb);
	vseg_cb_allocation(&cb, h, DRM_VSEG_ALLOCATION_WRITE);
	vseg_cb_copy(&cb, own, addr, size);
	err = __vseg_cb_submit(fd2, COPY, &cb, NULL, 0, NULL, 0);
	igt_assert_f(err == -EINVAL, "hostile COPY out of a victim: %s\n",
		     vseg_errname(err));
	/* The same, patched: the patch points at its own buffer only. */
	vseg_cb_reset(&cb);
	vseg_cb_copy(&cb, 0, addr + SZ_4K, SZ_4K);
	vseg_cb_patch(&cb, 0, VSEG_CMD_DST, h, 0, true);
	err = __vseg_cb_submit(fd2, COPY, &cb, NULL, 0, NULL, 0);
	igt_assert_f(err == -EINVAL,
		     "hostile patched COPY out of a victim: %s\n",
		     vseg_errname(err));
	/* Write: FILL, WRITE and COPY from its own buffer. */
	vseg_cb_reset(&cb);
	vseg_cb_allocation(&cb, h, DRM_VSEG_ALLOCATION_WRITE);
	vseg_cb_fill(&cb, addr, size, 0x0bad0bad);
	err = __vseg_cb_submit(fd2, COPY, &cb, NULL, 0, NULL, 0);
	igt_assert_f(err == -EINVAL, "hostile FILL of a victim: %s\n",
		     vseg_errname(err));
	vseg_cb_reset(&cb);
	vseg_cb_allocation(&cb, h, DRM_VSEG_ALLOCATION_WRITE);
	vseg_cb_write(&cb, addr + 8, 0xbadbadbadull);
	err = __vseg_cb_submit(fd2, COPY, &cb, NULL, 0, NULL, 0);
	igt_assert_f(err == -EINVAL, "hostile WRITE into a victim: %s\n",
		     vseg_errname(err));
	vseg_cb_reset(&cb);
	vseg_cb_allocation(&cb, h, 0);
	vseg_cb_copy(&cb, addr, own, size);
	err = __vseg_cb_submit(fd2, COPY, &cb, NULL, 0, NULL, 0);
	igt_assert_f(err == -EINVAL, "hostile COPY into a victim: %s\n",
		     vseg_errname(err));
	vseg_cb_fini(&cb);

	/* Nothing moved either way. */
	vseg_bo_read(fd2, h, 0, got, size);
	vseg_assert_same(got, want, size, 0,
			 "the hostile client's buffer after refused jobs");
	unpin(victim.handle);
	tbuf_verify(&victim, "the victim after a hostile client's jobs");
	vseg_gem_close(fd2, h);
	drm_close_driver(fd2);
	free(segs);
	tbuf_destroy(&victim);
	free(want);
	free(got);
	check_engine_alive("after a hostile client's jobs");
}

/* A table with gaps below, between and above all of its segments. */
#define GAPPED_TABLE \
	"memory:name=vram,size=32M,base=0x10000000,flags=cpuvisible|64kpages,cpu=0xe0000000;" \
	"memory:name=local,size=16M,base=0x40000000;" \
	"aperture:size=64M,commit=32M,base=0x200000000"

/* The gpu-address dynamic subtests on the table loaded now. */
static void gpu_address_tests(void)
{
	struct cell cells[DRM_VSEG_MAX_SEGMENTS];
	unsigned int n = physical_cells(cells);

	for (unsigned int i = 0; i < n; i++)
		igt_dynamic_f("gem-info-%s", cell_name(&cells[i]))
			test_gem_info_address(&cells[i]);
	igt_dynamic("gap")
		test_refuse_gap();
	for (unsigned int i = 0; i < n; i++)
		igt_dynamic_f("one-past-end-%s", cell_name(&cells[i]))
			test_one_past_end(&cells[i]);
	for (unsigned int i = 0; i < n; i++)
		igt_dynamic_f("hostile-client-%s", cell_name(&cells[i]))
			test_hostile_client(&cells[i]);
	vseg_ctx_finish(&ctx, "after closing every buffer");
}

/* Load @profile: one dynamic subtest per placement cell, running @test. */
static void each_cell(const char *profile, void (*test)(const struct cell *))
{
	struct cell cells[DRM_VSEG_MAX_SEGMENTS];
	unsigned int n;

	vseg_ctx_load(&ctx, profile);
	n = physical_cells(cells);
	for (unsigned int i = 0; i < n; i++)
		igt_dynamic(cell_name(&cells[i]))
			test(&cells[i]);
	vseg_ctx_finish(&ctx, "after closing every buffer");
}

/* The subtests on the discrete profile that need no loop. */
static const struct vseg_subtest discrete_tests[] = {
	{ "limits", test_limits,
	  "256 allocations, 1024 patches, the largest command "
	  "buffer and 64 syncobjs each way in one submission." },
	{ "syncobjs", test_syncobjs,
	  "In- and out-syncobjs: a job waits for its inputs and "
	  "signals every output." },
	{ "close-busy", test_close_busy,
	  "Closing the buffers of a queued job: it still runs "
	  "to success." },
	{ "mmap-waits", test_mmap_waits,
	  "A CPU mapping made while a job writes the buffer sees "
	  "all of the job's data." },
};

igt_main
{
	igt_fixture {
		vseg_ctx_setup(&ctx);
		bad_ptr = mmap(NULL, 4096, PROT_NONE,
			       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		igt_assert(bad_ptr != MAP_FAILED);
	}

	for_each_vseg_profile(profile) {
		igt_describe("FILL and WRITE into an AccessedPhysically buffer "
			     "of every placement cell (contiguous in each "
			     "memory segment, mapped in the aperture), resident "
			     "and evicted; read back through mmap.");
		igt_subtest_with_dynamic_f("fill-%s", profile)
			each_cell(profile, test_fill);

		igt_describe("COPY between AccessedPhysically buffers of every "
			     "pair of placement cells, and within one buffer.");
		igt_subtest_with_dynamic_f("copy-%s", profile) {
			struct cell cells[DRM_VSEG_MAX_SEGMENTS];
			unsigned int n;

			vseg_ctx_load(&ctx, profile);
			n = physical_cells(cells);
			for (unsigned int i = 0; i < n; i++)
				for (unsigned int j = 0; j < n; j++)
					igt_dynamic_f("%s-to-%s",
						      cell_name(&cells[i]),
						      cell_name(&cells[j]))
						test_copy(&cells[i], &cells[j]);
			vseg_ctx_finish(&ctx, "after closing every buffer");
		}

		igt_describe("Physical references from GEM_INFO of pinned "
			     "buffers, written into commands by hand: refused "
			     "with EINVAL while the buffer is not in the "
			     "allocation list or the range runs past it; once "
			     "listed they reach the same bytes as patched "
			     "addresses.");
		igt_subtest_with_dynamic_f("raw-address-%s", profile)
			each_cell(profile, test_raw_address);

		igt_describe("Addresses outside the allocation list (system "
			     "memory, past a segment's end, gaps between "
			     "segments and past every segment, "
			     "unmapped aperture pages, freed memory, unlisted "
			     "buffers of this and of another client, ranges "
			     "across two listed buffers) make SUBMIT fail with "
			     "EINVAL: no job, no fence, no byte written, not "
			     "even by the job's valid commands; the engine "
			     "keeps serving this and other clients.");
		igt_subtest_with_dynamic_f("bad-address-%s", profile) {
			vseg_ctx_load(&ctx, profile);
			igt_dynamic("system-memory")
				test_refuse_system();
			for (uint32_t id = 1; id <= ctx.q.num_segments; id++)
				igt_dynamic_f("past-end-%s",
					      vseg_ctx_seg_name(&ctx, id))
					test_refuse_past_end(id);
			igt_dynamic("gap")
				test_refuse_gap();
			igt_dynamic("aperture-unmapped")
				test_refuse_aperture_unmapped();
			for (uint32_t id = 1; id <= ctx.q.num_segments; id++) {
				igt_dynamic_f("unlisted-%s",
					      vseg_ctx_seg_name(&ctx, id))
					test_refuse_unlisted(id);
				igt_dynamic_f("other-client-%s",
					      vseg_ctx_seg_name(&ctx, id))
					test_refuse_other_client(id);
				igt_dynamic_f("across-two-%s",
					      vseg_ctx_seg_name(&ctx, id))
					test_refuse_across_two(id);
			}
			igt_dynamic("whole-job")
				test_refuse_whole_job();
			vseg_ctx_finish(&ctx, "after closing every buffer");
		}

		igt_describe("GPU physical addresses are the segment's base "
			     "address plus the offset: GEM_INFO's gpu_address "
			     "reaches the buffer's bytes used directly; gaps "
			     "between segments and one byte past a listed "
			     "buffer are refused; a hostile client computing "
			     "another file's buffer's address neither reads "
			     "nor writes it.");
		igt_subtest_with_dynamic_f("gpu-address-%s", profile) {
			vseg_ctx_load(&ctx, profile);
			gpu_address_tests();
		}

		igt_describe("A job on a buffer that cannot be made reachable "
			     "(its segment full of pinned buffers; one file may "
			     "pin it all with pin_limit_percent=100) is "
			     "refused with ENOSPC, changing nothing; with room "
			     "it runs.");
		igt_subtest_with_dynamic_f("enospc-%s", profile) {
			vseg_ctx_load_f(&ctx, "%s pin_limit_percent=100",
					profile);
			for (uint32_t id = 1; id <= ctx.q.num_segments; id++)
				igt_dynamic(vseg_ctx_seg_name(&ctx, id))
					test_enospc(id);
			vseg_ctx_finish(&ctx, "after closing every buffer");
		}

		igt_describe("Evicting and moving a buffer a queued job "
			     "writes, and creating buffers that push it out: "
			     "the job's data is all there.");
		igt_subtest_with_dynamic_f("evict-busy-%s", profile) {
			vseg_ctx_load(&ctx, profile);
			for (uint32_t id = 1; id <= ctx.q.num_segments; id++) {
				const char *name = vseg_ctx_seg_name(&ctx, id);

				igt_dynamic_f("evict-%s", name)
					test_evict_busy(cell_of(id));
				if (vseg_ctx_is_memory(&ctx, id))
					igt_dynamic_f("pressure-%s", name)
						test_pressure_busy(id);
			}
			vseg_ctx_finish(&ctx, "after closing every buffer");
		}
	}

	igt_describe("gpu-address on a table whose segments have distinct "
		     "base addresses with gaps between all of them.");
	igt_subtest_with_dynamic("gpu-address-gapped") {
		vseg_ctx_load(&ctx, "discrete table=" GAPPED_TABLE);
		gpu_address_tests();
	}

	igt_describe("Each way a submission can be invalid is refused with "
		     "its error, and nothing changes: no buffer moves, no "
		     "fence is installed, no byte is written.");
	igt_subtest_with_dynamic("reject") {
		vseg_ctx_load(&ctx, "discrete");
		igt_dynamic("valid") {
			struct reject_env e;

			reject_setup(&e);
			reject_control(&e);
			reject_teardown(&e);
		}
		for (unsigned int i = 0; i < ARRAY_SIZE(reject_cases); i++)
			igt_dynamic(reject_cases[i].name)
				test_reject(&reject_cases[i]);
		igt_dynamic("commands-too-large")
			test_reject_commands_too_large();
		vseg_ctx_finish(&ctx, "after closing every buffer");
	}

	vseg_ctx_subtests(&ctx, "discrete", discrete_tests,
			  ARRAY_SIZE(discrete_tests),
			  "after closing every buffer");

	igt_describe("Unloading vseg with jobs queued on both engines.");
	igt_subtest("unload-busy") {
		vseg_ctx_load(&ctx, "discrete");
		test_unload_busy();
	}

	igt_fixture {
		munmap(bad_ptr, 4096);
		vseg_ctx_unload(&ctx);
	}
}
