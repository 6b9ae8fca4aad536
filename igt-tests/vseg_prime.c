// SPDX-License-Identifier: MIT
/*
 * vseg_prime: PRIME. vseg buffers exported as dma-bufs (imported again by
 * vseg, or by vgem), vgem's dma-bufs imported by vseg and used by its
 * engines, the dma-buf's CPU mapping across moves, implicit fences on the
 * shared reservation in both directions, and hostile uses.
 *
 * Copyright (c) 2026 The vseg authors
 */
/**
 * TEST: vseg prime
 * Category: Core
 * Mega feature: General Core features
 * Sub-category: Memory management
 * Functionality: PRIME buffer sharing
 * Description: Export and import of vseg buffers through dma-bufs, with
 *	vseg itself and with vgem: placement while attached, data through
 *	every mapping, jobs on imported buffers, implicit fences, hostile
 *	clients.
 *
 * SUBTEST: self-import
 * Description: A vseg buffer exported and imported by vseg again is the
 *	same buffer: the same handle in the exporting file, the same buffer id
 *	and bytes in another file; self-import pins nothing.
 *
 * SUBTEST: export-vgem
 * Description: vgem attaches to a vseg buffer in vram: the buffer moves to
 *	system memory and stays there, pinned (GEM_INFO; EVICT: EBUSY), its bytes
 *	intact; after vgem lets go it moves again. Closing vseg's handle while
 *	attached keeps the buffer alive for the dma-buf.
 *
 * SUBTEST: import-vgem
 * Description: A vgem buffer imported by vseg is a system-memory buffer
 *	(GEM_INFO), not mappable through vseg (EINVAL, not CPU_MAPPABLE); a
 *	render job writes it
 *	through the aperture, where it is committed, and vgem's mapping reads
 *	the job's bytes; EVICT keeps its content and DISCARD is EPERM.
 *
 * SUBTEST: mmap-evict
 * Description: The dma-buf's CPU mapping of a vseg buffer stays coherent
 *	while the buffer moves between vram and system memory and a job
 *	writes it: every byte checked after each step.
 *
 * SUBTEST: fence-export
 * Description: A vseg job writing an exported buffer puts its fence on the
 *	dma-buf: while the job waits, poll() reports the dma-buf busy and vgem
 *	refuses to fence it (EBUSY); once it ran, the job's bytes are there.
 *
 * SUBTEST: fence-import
 * Description: A vseg job reading an imported vgem buffer waits for vgem's
 *	write fence on it, and reads what was written before the fence
 *	signalled.
 *
 * SUBTEST: hostile
 * Description: Importing a file that is not a dma-buf (EINVAL) or a closed
 *	descriptor (EBADF) fails and leaves nothing behind; another process
 *	without the dma-buf cannot reach the buffer by handle; a process given
 *	the dma-buf cannot unpin or evict a buffer vgem holds; a buffer pinned
 *	in vram cannot be attached (EBUSY); a copy job cannot move an attached
 *	buffer (EBUSY).
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>
#include <linux/dma-buf.h>
#include <drm/vgem_drm.h>
#include <xf86drm.h>

#include "igt.h"
#include "igt_kmod.h"
#include "igt_vseg.h"
#include "igt_vseg_exec.h"

IGT_TEST_DESCRIPTION("PRIME: export and import of vseg buffers through "
		     "dma-bufs, with vseg itself and with vgem; placement "
		     "while attached, mappings, jobs, implicit fences, "
		     "hostile clients.");

#define RENDER		DRM_VSEG_ENGINE_RENDER
#define RW		(PROT_READ | PROT_WRITE)
#define VRAM		1
#define VA		0x100000000ull
#define SEED		0x5eed

static struct vseg_ctx ctx = VSEG_CTX_INIT(VSEG_LEFTOVERS_NONE);

static void assert_seg(int fd, uint32_t handle, uint32_t seg, const char *what)
{
	uint32_t got = vseg_gem_segment(fd, handle);

	igt_assert_f(got == seg, "%s: buffer in %s, expected %s\n", what,
		     vseg_ctx_seg_name(&ctx, got), vseg_ctx_seg_name(&ctx, seg));
}

static int export(int fd, uint32_t handle)
{
	int dmabuf;

	igt_assert_eq(drmPrimeHandleToFD(fd, handle, DRM_CLOEXEC | DRM_RDWR,
					 &dmabuf), 0);
	return dmabuf;
}

static int open_vgem(void)
{
	igt_require(igt_kmod_load("vgem", NULL) == 0);
	return drm_open_driver(DRIVER_VGEM);
}

/* A vgem buffer of @size bytes (a multiple of 4 KiB). */
static uint32_t vgem_create_size(int vgem, uint64_t size)
{
	struct vgem_bo bo = { .width = 1024, .height = size / 4096, .bpp = 32 };

	vgem_create(vgem, &bo);
	igt_assert(bo.size >= size);
	return bo.handle;
}

static void *vgem_mmap_size(int vgem, uint32_t handle, uint64_t size)
{
	struct vgem_bo bo = { .handle = handle, .size = size };

	return vgem_mmap(vgem, &bo, RW);
}

/* Attach a vgem fence to @handle: 0 and the fence's id, or -errno. */
static int vgem_fence(int vgem, uint32_t handle, uint32_t *fence)
{
	struct drm_vgem_fence_attach a = {
		.handle = handle, .flags = VGEM_FENCE_WRITE,
	};

	if (igt_ioctl(vgem, DRM_IOCTL_VGEM_FENCE_ATTACH, &a))
		return -errno;
	*fence = a.out_fence;
	return 0;
}

static void vgem_signal(int vgem, uint32_t fence)
{
	struct drm_vgem_fence_signal s = { .fence = fence };

	do_ioctl(vgem, DRM_IOCTL_VGEM_FENCE_SIGNAL, &s);
}

/* Is the dma-buf free of unsignalled write fences right now? */
static bool dmabuf_idle(int dmabuf)
{
	struct pollfd p = { .fd = dmabuf, .events = POLLIN };

	return poll(&p, 1, 0) == 1;
}

static void check_map(const void *map, uint64_t size, uint32_t seed,
		      const char *what)
{
	int64_t bad = vseg_pattern_check(map, size, seed);

	igt_assert_f(bad < 0, "%s: byte 0x%llx differs from its pattern\n",
		     what, (unsigned long long)bad);
}

/* FILL @size bytes at @offset of the buffer bound at @va with @value. */
static void job_fill(int fd, uint64_t va, uint64_t offset, uint64_t size,
		     uint32_t value, uint32_t in, uint32_t out)
{
	struct vseg_cmdbuf cb;

	vseg_cb_init(&cb);
	vseg_cb_fill(&cb, va + offset, size, value);
	vseg_cb_submit(fd, RENDER, &cb, in ? &in : NULL, in ? 1 : 0,
		       out ? &out : NULL, out ? 1 : 0);
	vseg_cb_fini(&cb);
}

static void check_fill(const uint32_t *p, uint64_t size, uint32_t value,
		       const char *what)
{
	for (uint64_t i = 0; i < size / 4; i++)
		igt_assert_f(p[i] == value,
			     "%s: word %llu is %#x, expected %#x\n", what,
			     (unsigned long long)i, p[i], value);
}

/* --- self-import ------------------------------------------------------------------ */

static void test_self_import(void)
{
	const uint64_t size = SZ_256K;
	struct drm_vseg_gem_info a, b;
	uint32_t h, same, other;
	int dmabuf, fd;

	vseg_ctx_start(&ctx);
	h = vseg_gem_create_in(ctx.fd, size, VRAM, 0);
	vseg_bo_fill_pattern(ctx.fd, h, size, SEED);
	vseg_make_resident(ctx.fd, &h, 1);
	assert_seg(ctx.fd, h, VRAM, "made resident");
	dmabuf = export(ctx.fd, h);

	igt_assert_eq(drmPrimeFDToHandle(ctx.fd, dmabuf, &same), 0);
	igt_assert_eq(same, h);

	fd = drm_open_vseg_render();
	igt_assert_eq(drmPrimeFDToHandle(fd, dmabuf, &other), 0);
	vseg_gem_info(ctx.fd, h, &a);
	vseg_gem_info(fd, other, &b);
	igt_assert_eq_u64(a.buffer_id, b.buffer_id);
	igt_assert_eq_u64(a.size, b.size);
	/* Nothing attached: it stayed in vram, unpinned. */
	igt_assert_eq(b.segment_id, VRAM);
	vseg_bo_check_pattern(fd, other, size, SEED, "self-imported buffer");
	vseg_bo_fill_pattern(fd, other, size, SEED + 1);
	vseg_evict(fd, &other, 1);
	assert_seg(ctx.fd, h, 0, "evicted by the importer");
	vseg_bo_check_pattern(ctx.fd, h, size, SEED + 1,
			      "bytes written by the importer");

	vseg_gem_close(fd, other);
	close(fd);
	close(dmabuf);
	vseg_gem_close(ctx.fd, h);
}

/* --- export to vgem --------------------------------------------------------------- */

static void test_export_vgem(void)
{
	const uint64_t size = SZ_1M;
	struct drm_vseg_gem_info info;
	uint32_t h, vh, again;
	int vgem, dmabuf;
	void *map;

	vseg_ctx_start(&ctx);
	vgem = open_vgem();
	h = vseg_gem_create_in(ctx.fd, size, VRAM, 0);
	vseg_bo_fill_pattern(ctx.fd, h, size, SEED);
	vseg_make_resident(ctx.fd, &h, 1);
	assert_seg(ctx.fd, h, VRAM, "made resident");
	dmabuf = export(ctx.fd, h);

	/* vgem attaches: the buffer goes to system memory, pinned. */
	igt_assert_eq(drmPrimeFDToHandle(vgem, dmabuf, &vh), 0);
	assert_seg(ctx.fd, h, 0, "attached by vgem");
	vseg_gem_info(ctx.fd, h, &info);
	igt_assert(info.placement_flags & DRM_VSEG_INFO_PINNED);
	igt_assert(info.placement_flags & DRM_VSEG_INFO_CPU_MAPPABLE);
	igt_assert_eq(__vseg_evict(ctx.fd, &h, 1, NULL), -EBUSY);
	vseg_make_resident(ctx.fd, &h, 1);
	assert_seg(ctx.fd, h, 0, "MAKE_RESIDENT while attached");
	vseg_bo_check_pattern(ctx.fd, h, size, SEED, "attached buffer");
	map = mmap(NULL, size, RW, MAP_SHARED, dmabuf, 0);
	igt_assert(map != MAP_FAILED);
	check_map(map, size, SEED, "dma-buf mapping while attached");
	vseg_pattern_fill(map, size, SEED + 1);

	/* vseg's handle goes; the dma-buf and vgem keep the buffer. */
	vseg_gem_close(ctx.fd, h);
	igt_assert_eq(drmPrimeFDToHandle(ctx.fd, dmabuf, &again), 0);
	assert_seg(ctx.fd, again, 0, "imported again while attached");
	vseg_bo_check_pattern(ctx.fd, again, size, SEED + 1,
			      "buffer imported again while attached");

	/* vgem lets go: it may move again. */
	vseg_gem_close(vgem, vh);
	vseg_gem_info(ctx.fd, again, &info);
	igt_assert(!(info.placement_flags & DRM_VSEG_INFO_PINNED));
	vseg_make_resident(ctx.fd, &again, 1);
	assert_seg(ctx.fd, again, VRAM, "made resident after vgem let go");
	check_map(map, size, SEED + 1, "dma-buf mapping after the move");
	vseg_evict(ctx.fd, &again, 1);

	munmap(map, size);
	close(dmabuf);
	close(vgem);
	vseg_gem_close(ctx.fd, again);
}

/* --- import from vgem ------------------------------------------------------------- */

static void test_import_vgem(void)
{
	const uint64_t size = SZ_256K;
	struct drm_vseg_gem_info info;
	uint64_t offset;
	uint32_t vh, h;
	int vgem, dmabuf;
	uint32_t *map;

	vseg_ctx_start(&ctx);
	vgem = open_vgem();
	vh = vgem_create_size(vgem, size);
	map = vgem_mmap_size(vgem, vh, size);
	vseg_pattern_fill(map, size, SEED);
	dmabuf = export(vgem, vh);
	igt_assert_eq(drmPrimeFDToHandle(ctx.fd, dmabuf, &h), 0);

	vseg_gem_info(ctx.fd, h, &info);
	igt_assert_eq(info.segment_id, 0);
	igt_assert_eq_u64(info.size, size);
	igt_assert_eq(info.create_flags, 0);
	igt_assert(!(info.placement_flags & (DRM_VSEG_INFO_CPU_MAPPABLE |
					     DRM_VSEG_INFO_PINNED)));
	igt_assert_eq(__vseg_gem_mmap_offset(ctx.fd, h, &offset), -EINVAL);

	/* A job writes it through the aperture; vgem reads the bytes. */
	vseg_vm_bind(ctx.fd, h, VA);
	job_fill(ctx.fd, VA, SZ_64K, SZ_64K, 0xc0ffee00, 0, 0);
	vseg_gem_info(ctx.fd, h, &info);
	igt_assert_f(info.segment_id == ctx.ap_id,
		     "imported buffer used by a job in %s, not the aperture\n",
		     vseg_ctx_seg_name(&ctx, info.segment_id));
	vseg_make_resident(ctx.fd, &h, 1);	/* waits for nothing */
	{
		uint32_t s = vseg_syncobj_create(ctx.fd, 0);

		job_fill(ctx.fd, VA, 2 * SZ_64K, 4, 0x12345678, 0, s);
		vseg_syncobj_wait(ctx.fd, s, VSEG_JOB_TIMEOUT_MS);
		igt_assert_eq(vseg_syncobj_status(ctx.fd, s), 1);
		vseg_syncobj_destroy(ctx.fd, s);
	}
	check_map(map, SZ_64K, SEED, "bytes before the FILL");
	check_fill(map + SZ_64K / 4, SZ_64K, 0xc0ffee00, "FILL by vseg");
	igt_assert_eq_u32(map[2 * SZ_64K / 4], 0x12345678);

	/* EVICT moves it out of the aperture; DISCARD is vgem's, not ours. */
	vseg_evict(ctx.fd, &h, 1);
	assert_seg(ctx.fd, h, 0, "evicted");
	igt_assert_eq(__vseg_evict_flags(ctx.fd, &h, 1,
					 DRM_VSEG_RESIDENCY_DISCARD, NULL),
		      -EPERM);
	check_fill(map + SZ_64K / 4, SZ_64K, 0xc0ffee00,
		   "after EVICT with DISCARD");
	vseg_make_resident(ctx.fd, &h, 1);
	assert_seg(ctx.fd, h, ctx.ap_id, "made resident");

	vseg_vm_unbind(ctx.fd, VA);
	vseg_gem_close(ctx.fd, h);
	close(dmabuf);
	munmap(map, size);
	close(vgem);
}

/* --- mapping across moves ----------------------------------------------------------- */

static void test_mmap_evict(void)
{
	const uint64_t size = SZ_1M;
	uint32_t h, s;
	int dmabuf;
	void *map;

	vseg_ctx_start(&ctx);
	h = vseg_gem_create_in(ctx.fd, size, VRAM, 0);
	dmabuf = export(ctx.fd, h);
	map = mmap(NULL, size, RW, MAP_SHARED, dmabuf, 0);
	igt_assert(map != MAP_FAILED);
	vseg_pattern_fill(map, size, SEED);

	for (unsigned int round = 0; round < 3; round++) {
		vseg_make_resident(ctx.fd, &h, 1);
		assert_seg(ctx.fd, h, VRAM, "made resident");
		check_map(map, size, SEED + round, "in vram");
		vseg_evict(ctx.fd, &h, 1);
		assert_seg(ctx.fd, h, 0, "evicted");
		check_map(map, size, SEED + round, "evicted");
		vseg_pattern_fill(map, size, SEED + round + 1);
	}

	/* A job writes it in vram; the mapping sees the job's bytes. */
	vseg_make_resident(ctx.fd, &h, 1);
	vseg_vm_bind(ctx.fd, h, VA);
	s = vseg_syncobj_create(ctx.fd, 0);
	job_fill(ctx.fd, VA, SZ_4K, size - 2 * SZ_4K, 0xabcdef01, 0, s);
	vseg_syncobj_wait(ctx.fd, s, VSEG_JOB_TIMEOUT_MS);
	igt_assert_eq(vseg_syncobj_status(ctx.fd, s), 1);
	check_map(map, SZ_4K, SEED + 3, "first page, not written by the job");
	check_fill((uint32_t *)map + SZ_4K / 4, size - 2 * SZ_4K, 0xabcdef01,
		   "written by the job");
	vseg_evict(ctx.fd, &h, 1);
	check_fill((uint32_t *)map + SZ_4K / 4, size - 2 * SZ_4K, 0xabcdef01,
		   "written by the job, evicted");

	vseg_syncobj_destroy(ctx.fd, s);
	vseg_vm_unbind(ctx.fd, VA);
	munmap(map, size);
	close(dmabuf);
	vseg_gem_close(ctx.fd, h);
}

/* --- implicit fences ---------------------------------------------------------------- */

static void test_fence_export(void)
{
	const uint64_t size = SZ_64K;
	uint32_t h, vh, gate, done, unused = 0;
	struct vseg_gate g;
	int vgem, dmabuf;
	uint32_t *map;

	vseg_ctx_start(&ctx);
	vgem = open_vgem();
	h = vseg_gem_create_in(ctx.fd, size, VRAM, 0);
	vseg_bo_fill_pattern(ctx.fd, h, size, SEED);
	dmabuf = export(ctx.fd, h);
	igt_assert_eq(drmPrimeFDToHandle(vgem, dmabuf, &vh), 0);

	/* A gate: an unsignalled vgem fence on a buffer of vgem's own. */
	vseg_gate_init(&g);
	gate = vseg_gate_syncobj(&g, ctx.fd);

	igt_assert(dmabuf_idle(dmabuf));
	vseg_vm_bind(ctx.fd, h, VA);
	done = vseg_syncobj_create(ctx.fd, 0);
	job_fill(ctx.fd, VA, 0, size, 0x600df00d, gate, done);

	/* The job cannot have run: the importer must wait for it. */
	igt_assert_eq(__vseg_syncobj_wait(ctx.fd, &done, 1, 0), -ETIME);
	igt_assert(!dmabuf_idle(dmabuf));
	igt_assert_eq(vgem_fence(vgem, vh, &unused), -EBUSY);
	vseg_gate_assert_closed(&g, "a job held back by the gate");

	vseg_gate_open(&g);
	vseg_syncobj_wait(ctx.fd, done, VSEG_JOB_TIMEOUT_MS);
	igt_assert_eq(vseg_syncobj_status(ctx.fd, done), 1);
	{
		struct pollfd p = { .fd = dmabuf, .events = POLLIN };

		igt_assert_eq(poll(&p, 1, VSEG_JOB_TIMEOUT_MS), 1);
	}
	map = mmap(NULL, size, RW, MAP_SHARED, dmabuf, 0);
	igt_assert(map != MAP_FAILED);
	check_fill(map, size, 0x600df00d, "job's bytes through the dma-buf");
	/* Idle now: vgem may fence it. */
	igt_assert_eq(vgem_fence(vgem, vh, &unused), 0);
	vgem_signal(vgem, unused);

	munmap(map, size);
	vseg_syncobj_destroy(ctx.fd, done);
	vseg_syncobj_destroy(ctx.fd, gate);
	vseg_gate_fini(&g);
	vseg_vm_unbind(ctx.fd, VA);
	vseg_gem_close(ctx.fd, h);
	close(dmabuf);
	close(vgem);
}

static void test_fence_import(void)
{
	const uint64_t size = SZ_64K;
	uint32_t vh, h, dst, fence = 0, done;
	struct vseg_cmdbuf cb;
	int vgem, dmabuf;
	uint32_t *map, *out;

	vseg_ctx_start(&ctx);
	vgem = open_vgem();
	vh = vgem_create_size(vgem, size);
	map = vgem_mmap_size(vgem, vh, size);
	vseg_fill32(map, size, 0xaaaaaaaa);
	dmabuf = export(vgem, vh);
	igt_assert_eq(drmPrimeFDToHandle(ctx.fd, dmabuf, &h), 0);
	/* In the aperture now: the job moves nothing. */
	vseg_make_resident(ctx.fd, &h, 1);
	assert_seg(ctx.fd, h, ctx.ap_id, "imported, made resident");
	dst = vseg_gem_create_simple(ctx.fd, size, BIT(ctx.ap_id), 0);
	vseg_vm_bind(ctx.fd, h, VA);
	vseg_vm_bind(ctx.fd, dst, VA + SZ_1M);
	/*
	 * The move into the aperture runs on the paging engine; vgem refuses
	 * a fence (EBUSY) while the dma-buf has one pending.
	 */
	igt_assert_eq(poll(&(struct pollfd){ .fd = dmabuf, .events = POLLOUT },
			   1, VSEG_JOB_TIMEOUT_MS), 1);

	/* vgem is writing it: the copy must wait for vgem's fence. */
	igt_assert_eq(vgem_fence(vgem, vh, &fence), 0);
	done = vseg_syncobj_create(ctx.fd, 0);
	vseg_cb_init(&cb);
	vseg_cb_copy(&cb, VA + SZ_1M, VA, size);
	vseg_cb_submit(ctx.fd, RENDER, &cb, NULL, 0, &done, 1);
	vseg_cb_fini(&cb);
	igt_assert_eq(__vseg_syncobj_wait(ctx.fd, &done, 1, 0), -ETIME);
	vseg_fill32(map, size, 0x55555555);
	vgem_signal(vgem, fence);
	vseg_syncobj_wait(ctx.fd, done, VSEG_JOB_TIMEOUT_MS);
	igt_assert_eq(vseg_syncobj_status(ctx.fd, done), 1);

	out = malloc(size);
	igt_assert(out);
	vseg_bo_read(ctx.fd, dst, 0, out, size);
	check_fill(out, size, 0x55555555, "bytes vgem wrote before signalling");
	free(out);

	vseg_syncobj_destroy(ctx.fd, done);
	vseg_vm_unbind(ctx.fd, VA);
	vseg_vm_unbind(ctx.fd, VA + SZ_1M);
	vseg_gem_close(ctx.fd, dst);
	vseg_gem_close(ctx.fd, h);
	close(dmabuf);
	munmap(map, size);
	close(vgem);
}

/* --- hostile clients ---------------------------------------------------------------- */

static void test_hostile(void)
{
	const uint64_t size = SZ_256K;
	struct drm_vseg_gem_info info;
	uint32_t h, vh, imported;
	int vgem, dmabuf, nul, status;
	pid_t pid;

	vseg_ctx_start(&ctx);
	vgem = open_vgem();
	h = vseg_gem_create_in(ctx.fd, size, VRAM, 0);
	vseg_bo_fill_pattern(ctx.fd, h, size, SEED);

	/* Not a dma-buf, or no file at all. */
	nul = open("/dev/null", O_RDWR);
	igt_assert(nul >= 0);
	igt_assert_neq(drmPrimeFDToHandle(ctx.fd, nul, &imported), 0);
	igt_assert_eq(errno, EINVAL);
	igt_assert_neq(drmPrimeFDToHandle(ctx.fd, ctx.fd, &imported), 0);
	igt_assert_eq(errno, EINVAL);
	close(nul);
	igt_assert_neq(drmPrimeFDToHandle(ctx.fd, nul, &imported), 0);
	igt_assert_eq(errno, EBADF);

	dmabuf = export(ctx.fd, h);
	igt_assert_eq(drmPrimeFDToHandle(vgem, dmabuf, &vh), 0);

	/* Without the dma-buf: no way to the buffer by its handle. */
	pid = fork();
	igt_assert(pid >= 0);
	if (pid == 0) {
		int fd = drm_open_vseg_render();

		close(dmabuf);
		if (__vseg_gem_info(fd, h, &info) != -ENOENT ||
		    __vseg_evict(fd, &h, 1, NULL) != -ENOENT)
			_exit(1);
		_exit(0);
	}
	igt_assert_eq(waitpid(pid, &status, 0), pid);
	igt_assert_f(WIFEXITED(status) && WEXITSTATUS(status) == 0,
		     "a process without the dma-buf reached the buffer\n");

	/* With it: it may use the buffer, not unpin what vgem holds. */
	pid = fork();
	igt_assert(pid >= 0);
	if (pid == 0) {
		int fd = drm_open_vseg_render();
		uint32_t mine;

		if (drmPrimeFDToHandle(fd, dmabuf, &mine) ||
		    __vseg_evict(fd, &mine, 1, NULL) != -EBUSY ||
		    __vseg_evict_flags(fd, &mine, 1, DRM_VSEG_RESIDENCY_UNPIN,
				       NULL) != -EPERM ||
		    __vseg_evict_flags(fd, &mine, 1,
				       DRM_VSEG_RESIDENCY_DISCARD,
				       NULL) != -EPERM)
			_exit(1);
		_exit(0);
	}
	igt_assert_eq(waitpid(pid, &status, 0), pid);
	igt_assert_f(WIFEXITED(status) && WEXITSTATUS(status) == 0,
		     "a process with the dma-buf unpinned or evicted it\n");
	assert_seg(ctx.fd, h, 0, "still attached");
	vseg_bo_check_pattern(ctx.fd, h, size, SEED,
			      "the attached buffer after the attempts");

	vseg_gem_close(vgem, vh);
	close(dmabuf);
	vseg_evict(ctx.fd, &h, 1);
	vseg_gem_close(ctx.fd, h);

	/* Pinned in vram: no other device may attach, nothing changes. */
	h = vseg_gem_create_in(ctx.fd, size, VRAM, 0);
	vseg_bo_fill_pattern(ctx.fd, h, size, SEED + 2);
	igt_assert_eq(__vseg_make_resident_flags(ctx.fd, &h, 1,
						 DRM_VSEG_RESIDENCY_PIN, NULL),
		      0);
	assert_seg(ctx.fd, h, VRAM, "pinned");
	dmabuf = export(ctx.fd, h);
	igt_assert_neq(drmPrimeFDToHandle(vgem, dmabuf, &vh), 0);
	igt_assert_eq(errno, EBUSY);
	assert_seg(ctx.fd, h, VRAM, "pinned, after vgem's attempt");
	vseg_bo_check_pattern(ctx.fd, h, size, SEED + 2,
			      "pinned buffer after vgem's attempt");
	igt_assert_eq(__vseg_evict_flags(ctx.fd, &h, 1,
					 DRM_VSEG_RESIDENCY_UNPIN, NULL), 0);
	close(dmabuf);
	vseg_gem_close(ctx.fd, h);

	/* Attached: the copy engine cannot have it moved into vram. */
	{
		struct drm_vseg_gem_create c;
		struct vseg_cmdbuf cb;

		vseg_create_args(&c, size, BIT(VRAM) | BIT(ctx.ap_id),
				 DRM_VSEG_GEM_CREATE_ACCESSED_PHYSICALLY);
		h = vseg_gem_create(ctx.fd, &c);
		vseg_evict(ctx.fd, &h, 1);
		dmabuf = export(ctx.fd, h);
		igt_assert_eq(drmPrimeFDToHandle(vgem, dmabuf, &vh), 0);
		vseg_cb_init(&cb);
		vseg_cb_fill_phys(&cb, h, 0, SZ_4K, 0xbad);
		igt_assert_eq(__vseg_cb_submit(ctx.fd, DRM_VSEG_ENGINE_COPY,
					       &cb, NULL, 0, NULL, 0), -EBUSY);
		vseg_cb_fini(&cb);
		assert_seg(ctx.fd, h, 0, "attached, after a copy job");
		vseg_gem_close(vgem, vh);
		close(dmabuf);
		vseg_gem_close(ctx.fd, h);
	}
	close(vgem);
}

igt_main
{
	static const struct {
		const char *name;
		void (*test)(void);
		const char *describe;
	} tests[] = {
		{ "self-import", test_self_import,
		  "A vseg buffer imported by vseg again is the same buffer." },
		{ "export-vgem", test_export_vgem,
		  "vgem attaches to a vseg buffer: moved to system memory and "
		  "pinned there while attached." },
		{ "import-vgem", test_import_vgem,
		  "A vgem buffer imported by vseg: a system-memory buffer a "
		  "job writes through the aperture." },
		{ "mmap-evict", test_mmap_evict,
		  "The dma-buf's CPU mapping across moves and a job." },
		{ "fence-export", test_fence_export,
		  "A job writing an exported buffer makes its importer wait." },
		{ "fence-import", test_fence_import,
		  "A job reading an imported buffer waits for the exporter's "
		  "fence." },
		{ "hostile", test_hostile,
		  "Bad descriptors, processes without the dma-buf, and ones "
		  "with it trying to unpin an attached buffer." },
	};

	igt_fixture {
		vseg_ctx_setup(&ctx);
		vseg_ctx_load(&ctx, "discrete");
		vseg_require_engine(ctx.fd);
	}

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
