// SPDX-License-Identifier: MIT
/*
 * vseg_dumb: dumb buffers on vseg's primary node (DRM_IOCTL_MODE_CREATE_DUMB,
 * MAP_DUMB, DESTROY_DUMB): placed by the segment rules where the CPU sees
 * them, every byte readable and writable through mmap, bad sizes refused
 * before anything is allocated, render clients refused, other clients'
 * handles unknown.
 *
 * Copyright (c) 2026 The vseg authors
 */
/**
 * TEST: vseg dumb
 * Category: Core
 * Mega feature: General Core features
 * Sub-category: Memory management
 * Functionality: dumb buffers
 * Description: Dumb buffers on vseg's primary node: creation, mapping,
 *	placement, destruction and the refusal of bad arguments and of other
 *	clients.
 *
 * SUBTEST: create-map
 * Description: Dumb buffers of several shapes have a pitch that holds a
 *	row and a size that holds every row; they read zero, and every byte
 *	written through mmap reads back; GEM_INFO shows a CPU-mappable
 *	placement and the segment usage grows by the size.
 *
 * SUBTEST: evict
 * Description: A dumb buffer evicted to system memory and made resident
 *	again keeps its content; a mapping still sees it.
 *
 * SUBTEST: invalid
 * Description: Zero width, height or bpp, a pitch or size that overflows
 *	32 bits and a buffer larger than any segment are refused with EINVAL;
 *	nothing is allocated.
 *
 * SUBTEST: destroy
 * Description: DESTROY_DUMB frees the buffer (the usage comes back);
 *	destroying the handle again gives EINVAL (DRM's GEM handle rule),
 *	mapping it ENOENT, and a mapping made before keeps the buffer's
 *	content until unmapped.
 *
 * SUBTEST: hostile-client
 * Description: A render-node client is refused all three ioctls (EACCES);
 *	another primary-node client gets ENOENT mapping the first client's
 *	handles and EINVAL destroying them, and cannot mmap its buffer.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdint.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <unistd.h>

#include <xf86drm.h>

#include "igt.h"
#include "igt_vseg.h"

IGT_TEST_DESCRIPTION("Dumb buffers on vseg's primary node: creation, "
		     "mapping, placement, destruction and the refusal of bad "
		     "arguments and of other clients.");

static struct vseg_ctx ctx = VSEG_CTX_INIT(VSEG_LEFTOVERS_NONE_OURS);

static int __dumb_create(int fd, uint32_t width, uint32_t height,
			 uint32_t bpp, struct drm_mode_create_dumb *c)
{
	memset(c, 0, sizeof(*c));
	c->width = width;
	c->height = height;
	c->bpp = bpp;
	return igt_ioctl(fd, DRM_IOCTL_MODE_CREATE_DUMB, c) ? -errno : 0;
}

static uint32_t dumb_create(int fd, uint32_t width, uint32_t height,
			    uint32_t bpp, struct drm_mode_create_dumb *c)
{
	igt_assert_eq(__dumb_create(fd, width, height, bpp, c), 0);
	igt_assert(c->handle);
	return c->handle;
}

static int __dumb_map(int fd, uint32_t handle, uint64_t *offset)
{
	struct drm_mode_map_dumb m = { .handle = handle };
	int ret = igt_ioctl(fd, DRM_IOCTL_MODE_MAP_DUMB, &m) ? -errno : 0;

	*offset = m.offset;
	return ret;
}

static void *dumb_mmap(int fd, uint32_t handle, uint64_t size)
{
	uint64_t offset;
	void *p;

	igt_assert_eq(__dumb_map(fd, handle, &offset), 0);
	p = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, offset);
	igt_assert(p != MAP_FAILED);
	return p;
}

static int __dumb_destroy(int fd, uint32_t handle)
{
	struct drm_mode_destroy_dumb d = { .handle = handle };

	return igt_ioctl(fd, DRM_IOCTL_MODE_DESTROY_DUMB, &d) ? -errno : 0;
}

static uint64_t used(int fd)
{
	struct vseg_usage_snapshot u;
	uint64_t sum = 0;
	uint32_t id;

	vseg_usage_read_now(fd, &u);
	for (id = 0; id <= u.num_segments; id++)
		sum += u.usage[id].resident;
	return sum;
}

/* Write every byte of @p with a pattern of @seed, then read it back. */
static void fill_check(uint8_t *p, uint64_t size, uint32_t seed)
{
	vseg_pattern_fill(p, size, seed);
	igt_assert_eq_s64(vseg_pattern_check(p, size, seed), -1);
}

static void test_create_map(void)
{
	static const uint32_t shapes[][3] = {
		{ 1, 1, 32 }, { 1024, 768, 32 }, { 333, 77, 24 },
		{ 640, 480, 16 }, { 17, 1000, 8 }, { 4000, 3, 1 },
	};
	struct drm_vseg_gem_info info;
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(shapes); i++) {
		struct drm_mode_create_dumb c;
		uint64_t base = used(ctx.fd), row;
		uint8_t *p;

		dumb_create(ctx.fd, shapes[i][0], shapes[i][1], shapes[i][2],
			    &c);
		row = ((uint64_t)shapes[i][0] * shapes[i][2] + 7) / 8;
		igt_info("%ux%u@%u: pitch %u, size %" PRIu64 "\n",
			 c.width, c.height, c.bpp, c.pitch, (uint64_t)c.size);
		igt_assert(c.pitch >= row);
		igt_assert(c.size >= (uint64_t)c.pitch * c.height);
		igt_assert_eq_u64(c.size % 4096, 0);

		vseg_gem_info(ctx.fd, c.handle, &info);
		igt_assert_eq_u64(info.size, c.size);
		igt_assert(info.placement_flags & DRM_VSEG_INFO_CPU_MAPPABLE);
		igt_assert(info.create_flags & DRM_VSEG_GEM_CREATE_CPU_VISIBLE);
		igt_assert_eq_u64(used(ctx.fd) - base, c.size);

		p = dumb_mmap(ctx.fd, c.handle, c.size);
		igt_assert_eq_s64(vseg_zero_check(p, c.size), -1);
		fill_check(p, c.size, i + 1);
		munmap(p, c.size);
		/* Through a new mapping too. */
		p = dumb_mmap(ctx.fd, c.handle, c.size);
		igt_assert_eq_s64(vseg_pattern_check(p, c.size, i + 1), -1);
		munmap(p, c.size);

		igt_assert_eq(__dumb_destroy(ctx.fd, c.handle), 0);
		igt_assert_eq_u64(used(ctx.fd), base);
	}
}

static void test_evict(void)
{
	struct drm_vseg_gem_info info;
	struct drm_mode_create_dumb c;
	uint8_t *p;

	dumb_create(ctx.fd, 1024, 256, 32, &c);
	p = dumb_mmap(ctx.fd, c.handle, c.size);
	fill_check(p, c.size, 7);
	vseg_evict(ctx.fd, &c.handle, 1);
	vseg_gem_info(ctx.fd, c.handle, &info);
	igt_assert_eq_u32(info.segment_id, 0);
	vseg_make_resident(ctx.fd, &c.handle, 1);
	vseg_gem_info(ctx.fd, c.handle, &info);
	igt_assert_neq_u32(info.segment_id, 0);
	igt_assert(info.placement_flags & DRM_VSEG_INFO_CPU_MAPPABLE);
	igt_assert_eq_s64(vseg_pattern_check(p, c.size, 7), -1);
	munmap(p, c.size);
	igt_assert_eq(__dumb_destroy(ctx.fd, c.handle), 0);
}

static void test_invalid(void)
{
	struct drm_mode_create_dumb c;
	uint64_t base = used(ctx.fd), rows;

	igt_assert_eq(__dumb_create(ctx.fd, 0, 64, 32, &c), -EINVAL);
	igt_assert_eq(__dumb_create(ctx.fd, 64, 0, 32, &c), -EINVAL);
	igt_assert_eq(__dumb_create(ctx.fd, 64, 64, 0, &c), -EINVAL);
	igt_assert_eq(__dumb_create(ctx.fd, 64, 64, UINT32_MAX, &c), -EINVAL);
	igt_assert_eq(__dumb_create(ctx.fd, UINT32_MAX, 1, 32, &c), -EINVAL);
	igt_assert_eq(__dumb_create(ctx.fd, 1u << 16, 1u << 16, 32, &c),
		      -EINVAL);
	/*
	 * Fits in 32 bits, but nowhere: more than the segments (64 MiB at
	 * most) and than system memory lets a buffer have (half of RAM).
	 */
	rows = (uint64_t)sysconf(_SC_PHYS_PAGES) * sysconf(_SC_PAGESIZE) / 2 /
	       SZ_64K + 1;
	if (rows * SZ_64K < UINT32_MAX - SZ_64K)
		igt_assert_eq(__dumb_create(ctx.fd, SZ_64K / 4, rows, 32, &c),
			      -EINVAL);
	else
		igt_info("RAM too large for a 32-bit dumb buffer beyond half of it\n");
	igt_assert_eq_u64(used(ctx.fd), base);
}

static void test_destroy(void)
{
	struct drm_vseg_gem_info info;
	struct drm_mode_create_dumb c;
	uint64_t base = used(ctx.fd), offset;
	uint8_t *p;

	dumb_create(ctx.fd, 256, 256, 32, &c);
	p = dumb_mmap(ctx.fd, c.handle, c.size);
	fill_check(p, c.size, 3);
	igt_assert_eq(__dumb_destroy(ctx.fd, c.handle), 0);
	/* DRM's GEM handle deletion: EINVAL for a handle not (or no more) ours. */
	igt_assert_eq(__dumb_destroy(ctx.fd, c.handle), -EINVAL);
	igt_assert_eq(__dumb_map(ctx.fd, c.handle, &offset), -ENOENT);
	igt_assert_eq(__vseg_gem_info(ctx.fd, c.handle, &info), -ENOENT);
	/* The mapping holds the buffer. */
	igt_assert_eq_s64(vseg_pattern_check(p, c.size, 3), -1);
	munmap(p, c.size);
	vseg_usage_wait(ctx.fd, &ctx.base_usage, VSEG_USAGE_SETTLE_MS,
			"after the last mapping");
	igt_assert_eq_u64(used(ctx.fd), base);
	igt_assert_eq(__dumb_destroy(ctx.fd, 0), -EINVAL);
	igt_assert_eq(__dumb_destroy(ctx.fd, 12345), -EINVAL);
}

static void test_hostile_client(void)
{
	int render = drm_open_vseg_render(), other = drm_open_vseg();
	struct drm_mode_create_dumb c, theirs;
	uint64_t offset;
	uint8_t *p;

	dumb_create(ctx.fd, 512, 64, 32, &c);
	p = dumb_mmap(ctx.fd, c.handle, c.size);
	fill_check(p, c.size, 11);

	igt_assert_eq(__dumb_create(render, 64, 64, 32, &theirs), -EACCES);
	igt_assert_eq(__dumb_map(render, c.handle, &offset), -EACCES);
	igt_assert_eq(__dumb_destroy(render, c.handle), -EACCES);

	igt_assert_eq(__dumb_map(other, c.handle, &offset), -ENOENT);
	igt_assert_eq(__dumb_destroy(other, c.handle), -EINVAL);
	/* Its own buffer, with the same handle number maybe: not ours. */
	dumb_create(other, 512, 64, 32, &theirs);
	igt_assert_eq(__dumb_destroy(other, theirs.handle), 0);
	igt_assert_eq(__dumb_destroy(other, c.handle), -EINVAL);
	/* Guessing at mmap offsets of the device maps nothing of ours. */
	igt_assert_eq(__dumb_map(ctx.fd, c.handle, &offset), 0);
	igt_assert(mmap(NULL, c.size, PROT_READ, MAP_SHARED, other, offset) ==
		   MAP_FAILED);

	igt_assert_eq_s64(vseg_pattern_check(p, c.size, 11), -1);
	munmap(p, c.size);
	close(render);
	close(other);
	igt_assert_eq(__dumb_destroy(ctx.fd, c.handle), 0);
}

igt_main
{
	igt_fixture
		vseg_ctx_setup(&ctx);

	igt_describe("Dumb buffers of several shapes, every byte through mmap.");
	igt_subtest("create-map") {
		vseg_ctx_load(&ctx, "discrete");
		test_create_map();
		vseg_ctx_finish(&ctx, "create-map");
	}

	igt_describe("A dumb buffer keeps its content across an eviction.");
	igt_subtest("evict") {
		vseg_ctx_load(&ctx, "discrete");
		test_evict();
		vseg_ctx_finish(&ctx, "evict");
	}

	igt_describe("Bad sizes and overflows are refused, nothing allocated.");
	igt_subtest("invalid") {
		vseg_ctx_load(&ctx, "discrete");
		test_invalid();
		vseg_ctx_finish(&ctx, "invalid");
	}

	igt_describe("DESTROY_DUMB frees; the handle is gone afterwards.");
	igt_subtest("destroy") {
		vseg_ctx_load(&ctx, "discrete");
		test_destroy();
		vseg_ctx_finish(&ctx, "destroy");
	}

	igt_describe("Render clients and other clients are refused.");
	igt_subtest("hostile-client") {
		vseg_ctx_load(&ctx, "discrete");
		test_hostile_client();
		vseg_ctx_finish(&ctx, "hostile-client");
	}

	igt_fixture
		vseg_ctx_unload(&ctx);
}
