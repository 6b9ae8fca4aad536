// SPDX-License-Identifier: MIT
/*
 * vseg_isolation: one client can never read, write or pin another's memory,
 * take over the display, tie up the device without a bound, or crash the
 * kernel.
 *
 * Each subtest is an attack by a second client of the same device (another
 * open of the render node, and where it matters another process) against a
 * victim. Each asserts the documented errno, that the victim's bytes are
 * unchanged, and that the attacker read nothing of the victim's (compared
 * against a pattern only the victim wrote).
 *
 * Copyright (c) 2026 The vseg authors
 */
/**
 * TEST: vseg isolation
 * Category: Core
 * Mega feature: General Core features
 * Sub-category: Memory management
 * Functionality: security
 * Description: Client isolation on a vseg device: the copy engine reaches
 *	only listed allocations, GART entries never outlive their pages,
 *	creation never lies, pins, mappings and queued jobs are bounded, the
 *	display needs DRM master, PRIME mappings follow their buffer.
 *
 * SUBTEST: raw-read
 * Description: A copy job reading another client's buffer, or an
 *	unlisted one of its own, through a raw physical address is refused.
 *	Dynamic subtests: one per segment of the discrete profile, named after
 *	it.
 *
 * SUBTEST: raw-write
 * Description: FILL, WRITE and COPY into another client's buffer through a
 *	raw physical address are refused, with and without an allocation list.
 *	Dynamic subtests: one per segment of the discrete profile, named after
 *	it.
 *
 * SUBTEST: listed-bounds
 * Description: Raw addresses inside a listed buffer work; a range running
 *	past its end is refused. Dynamic subtests: one per segment of the
 *	discrete profile, named after it.
 *
 * SUBTEST: freed-memory
 * Description: The bytes of a buffer its owner closed cannot be read back
 *	by a copy job, nor through a new buffer. Dynamic subtests: one per
 *	segment of the discrete profile, named after it.
 *
 * SUBTEST: recycled-segment-pages
 * Description: Buffers of one segment page that another process filled
 *	(through a CPU mapping and the copy engine) and closed come back,
 *	at the same offsets, to the next client's new buffers: they read
 *	zero through a CPU mapping and through an engine copy. Dynamic
 *	subtests: one per memory segment of the discrete profile, named
 *	after it.
 *
 * SUBTEST: patch-fields
 * Description: Patch locations may only target the address fields a
 *	command uses, and keep FILL's and WRITE's alignment.
 *
 * SUBTEST: scanout-privilege
 * Description: KMS needs DRM master on the primary node.
 *
 * SUBTEST: pin-budget
 * Description: One file pins at most its budget of each segment, however
 *	many times a buffer is listed; its pins go with the file.
 *
 * SUBTEST: pin-ownership
 * Description: A file cannot drop another file's pins of a shared buffer.
 *
 * SUBTEST: vm-mappings-limit
 * Description: A process's GPU virtual address spaces hold a bounded
 *	number of mappings together (another file of it gets none, another
 *	process its own), and the render engine still finds the last one.
 *
 * SUBTEST: job-time-limit
 * Description: An unprivileged client's job that would run for minutes is
 *	stopped at job_timeout_ms (-ETIME) and the victim's job behind it
 *	runs; with the default job_max_mb the same job is refused (-E2BIG).
 *
 * SUBTEST: jobs-limit
 * Description: Unfinished jobs are bounded per process whatever files it
 *	opened, and per user whatever processes it runs; another user's
 *	process is not held up.
 *
 * SUBTEST: jobs-in-flight-limit
 * Description: A file queues a bounded number of jobs; the next SUBMIT
 *	waits for the oldest. Jobs blocked on a fence hold up neither
 *	another file's SUBMIT nor its jobs.
 *
 * SUBTEST: mmap-unreachable
 * Description: MMAP_OFFSET of a buffer the CPU can never reach fails up
 *	front.
 *
 * SUBTEST: prime-mmap-evict
 * Description: A CPU mapping made through a dma-buf follows its buffer:
 *	after an eviction it never shows the bytes of whoever got the memory.
 *
 * SUBTEST: create-honest
 * Description: GEM_CREATE places the buffer where its properties allow or
 *	fails: -EINVAL for a buffer that can never fit.
 *
 * SUBTEST: smallbar-render
 * Description: On a small-BAR device, CPU-visible buffers larger than the
 *	window are refused or placed in system memory, and render jobs on
 *	them work.
 *
 * SUBTEST: gart-race
 * Description: Closing and evicting aperture buffers while copy jobs use
 *	other aperture buffers: no stale GART entry is ever used (KASAN on
 *	the debug kernel).
 *
 * SUBTEST: invalid-ranges
 * Description: Invalid ranges of a memory segment and of the aperture are
 *	never allocated, and no copy job reaches them.
 *
 * SUBTEST: primary-unmap-pinned
 * Description: A primary without AccessedPhysically leaves the aperture
 *	when its head turns off, even while it is pinned.
 *
 * SUBTEST: freed-bytes-ptrace
 * Description: An unprivileged process keeps the paging engine busy,
 *	another process frees a buffer, the first evicts one of its own
 *	mapped buffers and reads it through /proc/self/mem at once: every
 *	read gives its own bytes, never the freed buffer's, in every round.
 *
 * SUBTEST: protected-plaintext-ptrace
 * Description: The same race with a freed protected buffer as the victim
 *	and a slow encrypted eviction keeping the engine busy: its plaintext
 *	never shows.
 *
 * SUBTEST: protected-aperture-refused
 * Description: GEM_CREATE with PROTECTED and system memory, the aperture
 *	or an ordinary segment supported is EINVAL; an unprivileged process
 *	evicts a protected buffer (encrypted) and a render job copies into
 *	it from another protected buffer: the job brings it back into the
 *	VPR, never the aperture; a copy into ordinary memory fails with
 *	EFAULT.
 *
 * SUBTEST: pin-limit-process
 * Description: An unprivileged process with four files of the render node
 *	pins through all of them: it gets its process share of vram
 *	(pin_limit_percent), no more, and another process still creates a
 *	vram-only buffer.
 *
 * SUBTEST: pin-limit-user
 * Description: Three processes of one unprivileged user pin up to the
 *	user's share (pin_user_limit_percent) together, the third gets
 *	ENOSPC until one of the others exits; another user's process has a
 *	share of its own.
 *
 * SUBTEST: pin-limit-device
 * Description: Users at their shares fill the device's
 *	(pin_device_limit_percent): a third user, and root, get ENOSPC until
 *	one of them exits.
 *
 * SUBTEST: importer-discard
 * Description: EVICT with DISCARD or UNPIN by an unprivileged importer
 *	(PRIME), by another file of the owner's process, and of a foreign
 *	(vgem) dma-buf's buffer is EPERM and nothing moves; an importer's
 *	plain EVICT keeps the content; the owner's DISCARD works.
 *
 * SUBTEST: memcg-charge
 * Description: In a cgroup v2 with the memory controller, the segment
 *	pages its render job writes, the system pages it writes and the
 *	buffer structures an unprivileged client causes grow its
 *	memory.current, and closing them gives it back.
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <grp.h>
#include <inttypes.h>
#include <sys/mount.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>
#include <xf86drm.h>

#include "igt.h"
#include "igt_kmod.h"
#include "igt_vseg.h"
#include "igt_vseg_exec.h"
#include "igt_vseg_fence.h"

IGT_TEST_DESCRIPTION("Client isolation: a second client of the device can "
		     "never read, write or pin the first one's memory, take "
		     "over the display or tie up the device without a bound.");

#define AP		DRM_VSEG_GEM_CREATE_ACCESSED_PHYSICALLY
#define PRIMARY		DRM_VSEG_GEM_CREATE_PRIMARY
#define CPU_VISIBLE	DRM_VSEG_GEM_CREATE_CPU_VISIBLE
#define FROM_END	DRM_VSEG_GEM_CREATE_FROM_END_OF_SEGMENT
#define COPY		DRM_VSEG_ENGINE_COPY
#define RENDER		DRM_VSEG_ENGINE_RENDER
#define PIN		DRM_VSEG_RESIDENCY_PIN
#define UNPIN		DRM_VSEG_RESIDENCY_UNPIN
#define RW		(PROT_READ | PROT_WRITE)
#define VICTIM_SEED	0x5eed71c7u
#define ATTACK_SIZE	SZ_64K
#ifndef SZ_256K
#define SZ_256K		0x40000ull
#endif

static struct vseg_ctx ctx = VSEG_CTX_INIT(VSEG_LEFTOVERS_BASE_COUNT);

/* --- buffers --------------------------------------------------------------- */

/* An AccessedPhysically-or-not buffer preferring @seg, evictable to system. */
static uint32_t create_in(int fd, uint32_t seg, uint64_t size, uint32_t flags)
{
	struct drm_vseg_gem_create c;

	vseg_create_args(&c, size, BIT(seg) | BIT(ctx.ap_id), flags);
	vseg_create_prefer(&c, seg, 0);
	return vseg_gem_create(fd, &c);
}

/* Make @handle resident and assert it landed in @seg. */
static void resident_in(int fd, uint32_t handle, uint32_t seg)
{
	struct drm_vseg_gem_info info;

	vseg_make_resident(fd, &handle, 1);
	vseg_gem_info(fd, handle, &info);
	igt_assert_f(info.segment_id == seg,
		     "buffer in segment %u, expected %u\n", info.segment_id,
		     seg);
}

static void write_pattern(int fd, uint32_t handle, uint64_t size,
			  uint32_t seed)
{
	void *buf = malloc(size);

	igt_assert(buf);
	vseg_pattern_fill(buf, size, seed);
	vseg_bo_write(fd, handle, 0, buf, size);
	free(buf);
}

static void assert_pattern(int fd, uint32_t handle, uint64_t size,
			   uint32_t seed, const char *what)
{
	void *buf = malloc(size);
	int64_t bad;

	igt_assert(buf);
	vseg_bo_read(fd, handle, 0, buf, size);
	bad = vseg_pattern_check(buf, size, seed);
	free(buf);
	igt_assert_f(bad < 0, "%s: byte 0x%llx differs from its pattern\n",
		     what, (unsigned long long)bad);
}

static void assert_zero(int fd, uint32_t handle, uint64_t size,
			const char *what)
{
	void *buf = malloc(size);
	int64_t bad;

	igt_assert(buf);
	vseg_bo_read(fd, handle, 0, buf, size);
	bad = vseg_zero_check(buf, size);
	free(buf);
	igt_assert_f(bad < 0, "%s: byte 0x%llx is not zero\n", what,
		     (unsigned long long)bad);
}

/**
 * struct victim - a buffer of the victim, with a pattern only it wrote
 * @handle: its handle in the victim's file.
 * @size: bytes.
 * @seg: the segment it lives in.
 * @addr: its physical address there.
 */
struct victim {
	uint32_t handle;
	uint64_t size;
	uint32_t seg;
	uint64_t addr;
};

static void victim_setup(struct victim *v, uint32_t seg, uint64_t size)
{
	v->handle = create_in(ctx.fd, seg, size, AP);
	v->size = size;
	v->seg = seg;
	write_pattern(ctx.fd, v->handle, size, VICTIM_SEED);
	resident_in(ctx.fd, v->handle, seg);
	v->addr = vseg_phys_addr(ctx.fd, v->handle, 0);
}

static void victim_check(const struct victim *v, const char *what)
{
	assert_pattern(ctx.fd, v->handle, v->size, VICTIM_SEED, what);
}

static int submit_copy(int fd, const struct vseg_cmdbuf *cb)
{
	struct drm_vseg_submit s;

	vseg_submit_args(&s, COPY, cb);
	return __vseg_submit(fd, &s);
}

static void assert_refused(int fd, const struct vseg_cmdbuf *cb,
			   const char *what)
{
	int err = submit_copy(fd, cb);

	igt_assert_f(err == -EINVAL, "%s: SUBMIT gave %d (%s), not -EINVAL\n",
		     what, err, vseg_errname(err));
}

/* Segments to attack: every memory segment and the aperture. */
static unsigned int attack_segments(uint32_t *ids)
{
	unsigned int n = 0;

	for (uint32_t id = 1; id <= ctx.q.num_segments; id++)
		ids[n++] = id;
	return n;
}

/* Run @fn(attacker fd) from another file, then from another process. */
static void as_attacker(void (*fn)(int fd, const struct victim *v),
			const struct victim *v)
{
	int fd = drm_open_vseg_render();

	fn(fd, v);
	close(fd);
	igt_fork(child, 1) {
		int cfd = drm_open_vseg_render();

		fn(cfd, v);
		close(cfd);
	}
	igt_waitchildren();
}

/* --- raw physical addresses -------------------------------------------------- */

static void read_attack(int fd, const struct victim *v)
{
	uint32_t own = create_in(fd, ctx.ap_id, ATTACK_SIZE, AP);
	struct vseg_cmdbuf cb;
	uint32_t cmd;

	vseg_cb_init(&cb);
	/* COPY from the victim's raw address into the attacker's buffer. */
	cmd = vseg_cb_copy(&cb, 0, v->addr, ATTACK_SIZE);
	vseg_cb_patch(&cb, cmd, VSEG_CMD_DST, own, 0, true);
	assert_refused(fd, &cb, "COPY from another client's raw address");

	/* Starting inside the attacker's buffer makes no difference. */
	vseg_cb_reset(&cb);
	cmd = vseg_cb_copy(&cb, 0, v->addr + v->size - SZ_4K, SZ_4K);
	vseg_cb_patch(&cb, cmd, VSEG_CMD_DST, own, 0, true);
	assert_refused(fd, &cb, "COPY from the end of another client's buffer");

	/* Without any allocation list. */
	vseg_cb_reset(&cb);
	vseg_cb_copy(&cb, v->addr, v->addr + SZ_4K, SZ_4K);
	assert_refused(fd, &cb, "COPY within another client's buffer");

	vseg_cb_fini(&cb);
	assert_zero(fd, own, ATTACK_SIZE, "the attacker's buffer");
	vseg_gem_close(fd, own);
}

static void write_attack(int fd, const struct victim *v)
{
	uint32_t own = create_in(fd, ctx.ap_id, ATTACK_SIZE, AP);
	struct vseg_cmdbuf cb;
	uint32_t cmd;

	vseg_cb_init(&cb);
	vseg_cb_fill(&cb, v->addr, SZ_4K, 0xbadbad);
	assert_refused(fd, &cb, "FILL without an allocation list");

	vseg_cb_reset(&cb);
	vseg_cb_write(&cb, v->addr + 8, 0xbadbadbadull);
	assert_refused(fd, &cb, "WRITE without an allocation list");

	/* With the attacker's own buffer listed. */
	vseg_cb_reset(&cb);
	vseg_cb_fill_phys(&cb, own, 0, SZ_4K, 0x1234);
	vseg_cb_fill(&cb, v->addr, SZ_4K, 0xbadbad);
	assert_refused(fd, &cb, "FILL of another client's buffer");

	vseg_cb_reset(&cb);
	cmd = vseg_cb_copy(&cb, v->addr, 0, SZ_4K);
	vseg_cb_patch(&cb, cmd, VSEG_CMD_SRC, own, 0, false);
	assert_refused(fd, &cb, "COPY into another client's buffer");

	vseg_cb_fini(&cb);
	/* Nothing of a refused submission ran: not even the first FILL. */
	assert_zero(fd, own, ATTACK_SIZE, "the attacker's buffer");
	vseg_gem_close(fd, own);
}

static void raw_subtest(void (*attack)(int fd, const struct victim *v))
{
	uint32_t ids[DRM_VSEG_MAX_SEGMENTS];
	unsigned int n = attack_segments(ids);

	for (unsigned int i = 0; i < n; i++) {
		igt_dynamic_f("%s", vseg_ctx_seg_name(&ctx, ids[i])) {
			struct victim v;

			vseg_ctx_start(&ctx);
			victim_setup(&v, ids[i], SZ_256K);
			as_attacker(attack, &v);
			victim_check(&v, "the victim's buffer");
			vseg_gem_close(ctx.fd, v.handle);
			vseg_ctx_finish(&ctx, "after the attack");
		}
	}
}

/* Raw addresses inside a listed buffer are fine; past its end they are not. */
static void test_listed_bounds(uint32_t id)
{
	uint64_t size = SZ_64K;
	uint32_t a;
	uint64_t addr;
	struct vseg_cmdbuf cb;
	struct victim v;
	uint32_t *got = malloc(size);

	igt_assert(got);
	vseg_ctx_start(&ctx);
	/* Two buffers of the victim, one of them likely next to ours. */
	a = create_in(ctx.fd, id, size, AP);
	resident_in(ctx.fd, a, id);
	victim_setup(&v, id, SZ_256K);
	addr = vseg_phys_addr(ctx.fd, a, 0);

	{
		int fd = drm_open_vseg_render();
		uint32_t own = create_in(fd, id, size, AP);
		uint64_t own_addr;

		resident_in(fd, own, id);
		own_addr = vseg_phys_addr(fd, own, 0);

		/* A raw address of a listed buffer: the whole buffer. */
		vseg_cb_init(&cb);
		vseg_cb_allocation(&cb, own, DRM_VSEG_ALLOCATION_WRITE);
		vseg_cb_fill(&cb, own_addr, size, 0xc0ffee);
		vseg_cb_write(&cb, own_addr + size - 8, 0x1122334455667788ull);
		vseg_cb_exec_ok(fd, COPY, &cb, "raw addresses of a listed buffer");
		vseg_bo_read(fd, own, 0, got, size);
		for (uint64_t i = 0; i < size / 4 - 2; i++)
			igt_assert_eq_u32(got[i], 0xc0ffee);
		igt_assert_eq_u32(got[size / 4 - 2], 0x55667788);
		igt_assert_eq_u32(got[size / 4 - 1], 0x11223344);
		resident_in(fd, own, id);
		own_addr = vseg_phys_addr(fd, own, 0);

		/* One byte past the end: refused. */
		vseg_cb_reset(&cb);
		vseg_cb_allocation(&cb, own, DRM_VSEG_ALLOCATION_WRITE);
		vseg_cb_fill(&cb, own_addr + size - SZ_4K, SZ_4K + 4, 0xbad);
		assert_refused(fd, &cb, "FILL running past a listed buffer");
		vseg_cb_reset(&cb);
		vseg_cb_allocation(&cb, own, DRM_VSEG_ALLOCATION_WRITE);
		vseg_cb_write(&cb, own_addr + size, 0xbad);
		assert_refused(fd, &cb, "WRITE just past a listed buffer");
		vseg_cb_reset(&cb);
		vseg_cb_allocation(&cb, own, DRM_VSEG_ALLOCATION_WRITE);
		vseg_cb_copy(&cb, own_addr, own_addr - SZ_4K, SZ_4K);
		assert_refused(fd, &cb, "COPY from just before a listed buffer");
		/* A buffer of the same file that is not listed: refused too. */
		vseg_cb_reset(&cb);
		vseg_cb_allocation(&cb, own, DRM_VSEG_ALLOCATION_WRITE);
		vseg_cb_copy(&cb, own_addr, addr, SZ_4K);
		assert_refused(fd, &cb, "COPY from another client's buffer next door");
		vseg_cb_fini(&cb);
		vseg_gem_close(fd, own);
		close(fd);
	}
	victim_check(&v, "the victim's buffer");
	vseg_gem_close(ctx.fd, v.handle);
	vseg_gem_close(ctx.fd, a);
	free(got);
	vseg_ctx_finish(&ctx, "listed bounds");
}

/* A closed buffer's bytes: not through a raw address, not in a new buffer. */
static void test_freed_memory(uint32_t id)
{
	struct drm_vseg_gem_info info;
	struct vseg_cmdbuf cb;
	struct victim v;
	uint32_t own, fresh;
	int fd;

	vseg_ctx_start(&ctx);
	victim_setup(&v, id, SZ_256K);
	vseg_gem_close(ctx.fd, v.handle);
	vseg_usage_wait(ctx.fd, &ctx.base_usage, 5000, "the victim's buffer freed");

	fd = drm_open_vseg_render();
	/* Elsewhere: in the same segment it could get the freed range. */
	own = create_in(fd, id == ctx.ap_id ? 1 : ctx.ap_id, SZ_256K, AP);
	vseg_cb_init(&cb);
	vseg_cb_copy(&cb, 0, v.addr, SZ_256K);
	vseg_cb_patch(&cb, 0, VSEG_CMD_DST, own, 0, true);
	assert_refused(fd, &cb, "COPY from freed memory");
	vseg_cb_fini(&cb);
	assert_zero(fd, own, SZ_256K, "the attacker's buffer");

	/* The memory handed out again starts zeroed. */
	fresh = create_in(fd, id, SZ_256K, AP);
	vseg_gem_info(fd, fresh, &info);
	igt_info("new buffer at GPU address 0x%llx (freed: 0x%llx)\n",
		 (unsigned long long)info.gpu_address,
		 (unsigned long long)v.addr);
	assert_zero(fd, fresh, SZ_256K, "a new buffer in freed memory");
	vseg_gem_close(fd, fresh);
	vseg_gem_close(fd, own);
	close(fd);
	vseg_ctx_finish(&ctx, "freed memory");
}

/* --- recycled segment pages ------------------------------------------------------ */

#define RECYCLED	4
#define SECRET		0x5ec2e7u

/*
 * The bytes of @handle (@size, AccessedPhysically and resident) as the
 * copy engine reads them: copied into a buffer of the aperture that held a
 * pattern, so that a copy that did not run cannot pass for zeros.
 */
static void engine_read(int fd, uint32_t handle, uint64_t size, void *buf)
{
	uint32_t own = create_in(fd, ctx.ap_id, size, AP);
	struct vseg_cmdbuf cb;

	write_pattern(fd, own, size, VICTIM_SEED ^ 0xa5a5a5a5u);
	vseg_cb_init(&cb);
	vseg_cb_copy_phys(&cb, own, 0, handle, 0, size);
	vseg_cb_exec_ok(fd, COPY, &cb, "engine copy out of a segment buffer");
	vseg_cb_fini(&cb);
	vseg_bo_read(fd, own, 0, buf, size);
	vseg_gem_close(fd, own);
}

/* A one-page buffer that only segment @seg may hold, resident there. */
static uint32_t page_buffer(int fd, uint32_t seg, uint64_t page,
			    uint64_t *offset)
{
	struct drm_vseg_gem_create c;
	struct drm_vseg_gem_info info;
	uint32_t h;

	vseg_create_args(&c, page, BIT(seg), AP);
	h = vseg_gem_create(fd, &c);
	resident_in(fd, h, seg);
	vseg_gem_info(fd, h, &info);
	*offset = info.offset;
	return h;
}

/*
 * Another process fills buffers of one segment page with a secret (through
 * a CPU mapping where the segment has one, and the copy engine), checks it
 * is there, and exits; this client's next buffers of one page get the
 * same offsets back and must read zero, both ways.
 */
static void test_recycled_segment_pages(uint32_t id)
{
	uint64_t page = vseg_ctx_seg(&ctx, id)->page_size;
	bool cpu = vseg_ctx_cpu_visible(&ctx, id);
	uint64_t *freed, off;
	uint32_t h[RECYCLED];
	uint8_t *buf;
	int64_t bad;
	int fd;

	freed = mmap(NULL, sizeof(*freed) * RECYCLED, RW,
		     MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	igt_assert(freed != MAP_FAILED);
	vseg_ctx_start(&ctx);

	igt_fork(child, 1) {
		int cfd = drm_open_vseg_render();
		uint8_t *got = malloc(page);
		struct vseg_cmdbuf cb;

		igt_assert(got);
		for (unsigned int i = 0; i < RECYCLED; i++) {
			h[i] = page_buffer(cfd, id, page, &freed[i]);
			/* the first half through the CPU where it can */
			if (cpu)
				write_pattern(cfd, h[i], page / 2, SECRET + i);
			vseg_cb_init(&cb);
			vseg_cb_fill_phys(&cb, h[i], cpu ? page / 2 : 0,
					  cpu ? page / 2 : page, SECRET + i);
			vseg_cb_exec_ok(cfd, COPY, &cb, "the secret's FILL");
			vseg_cb_fini(&cb);
			/* the secret is really in the segment */
			engine_read(cfd, h[i], page, got);
			if (cpu)
				igt_assert_f(vseg_pattern_check(got, page / 2,
								SECRET + i) < 0,
					     "the secret's CPU half is not there\n");
			for (uint64_t b = cpu ? page / 2 : 0; b < page; b += 4)
				igt_assert_eq_u32(*(uint32_t *)(got + b),
						  SECRET + i);
			igt_assert_eq_u32(vseg_gem_segment(cfd, h[i]), id);
		}
		for (unsigned int i = 0; i < RECYCLED; i++)
			vseg_gem_close(cfd, h[i]);
		free(got);
		close(cfd);
	}
	igt_waitchildren();
	vseg_usage_wait(ctx.fd, &ctx.base_usage, 5000,
			"the other process's buffers freed");

	fd = drm_open_vseg_render();
	buf = malloc(page);
	igt_assert(buf);
	for (unsigned int i = 0; i < RECYCLED; i++) {
		unsigned int j;

		h[i] = page_buffer(fd, id, page, &off);
		for (j = 0; j < RECYCLED && freed[j] != off; j++)
			;
		igt_assert_f(j < RECYCLED,
			     "new buffer %u at offset 0x%llx: not one the other process freed\n",
			     i, (unsigned long long)off);
		if (cpu) {
			vseg_bo_read(fd, h[i], 0, buf, page);
			bad = vseg_zero_check(buf, page);
			igt_assert_f(bad < 0,
				     "recycled page at 0x%llx, CPU mapping: byte 0x%llx is not zero\n",
				     (unsigned long long)off,
				     (unsigned long long)bad);
		}
		engine_read(fd, h[i], page, buf);
		bad = vseg_zero_check(buf, page);
		igt_assert_f(bad < 0,
			     "recycled page at 0x%llx, engine copy: byte 0x%llx is not zero\n",
			     (unsigned long long)off, (unsigned long long)bad);
	}
	igt_info("%u pages of %llu KiB recycled, all zero%s\n", RECYCLED,
		 (unsigned long long)page >> 10,
		 cpu ? " through the CPU and the engine" : " through the engine");
	for (unsigned int i = 0; i < RECYCLED; i++)
		vseg_gem_close(fd, h[i]);
	free(buf);
	close(fd);
	munmap(freed, sizeof(*freed) * RECYCLED);
	vseg_ctx_finish(&ctx, "recycled segment pages");
}

/* --- patch locations ----------------------------------------------------------- */

static void test_patch_fields(void)
{
	static const uint32_t opcodes[] = {
		DRM_VSEG_CMD_NOP, DRM_VSEG_CMD_FILL, DRM_VSEG_CMD_COPY,
		DRM_VSEG_CMD_WRITE,
	};
	static const size_t fields[] = { 0, 4, 8, 12, 16, 24, 32 };
	struct victim v;
	uint32_t own;
	uint64_t own_addr;
	int fd;

	vseg_ctx_start(&ctx);
	victim_setup(&v, ctx.ap_id, SZ_64K);
	fd = drm_open_vseg_render();
	own = create_in(fd, ctx.ap_id, SZ_64K, AP);
	resident_in(fd, own, ctx.ap_id);
	own_addr = vseg_phys_addr(fd, own, 0);

	for (unsigned int o = 0; o < ARRAY_SIZE(opcodes); o++) {
		for (unsigned int f = 0; f < ARRAY_SIZE(fields); f++) {
			uint32_t op = opcodes[o];
			size_t field = fields[f];
			bool ok = (field == VSEG_CMD_DST &&
				   op != DRM_VSEG_CMD_NOP) ||
				  (field == VSEG_CMD_SRC &&
				   op == DRM_VSEG_CMD_COPY);
			struct vseg_cmdbuf cb;
			int err;

			vseg_cb_init(&cb);
			switch (op) {
			case DRM_VSEG_CMD_NOP:
				vseg_cb_nop(&cb);
				break;
			case DRM_VSEG_CMD_FILL:
				vseg_cb_fill(&cb, own_addr, SZ_4K, 7);
				break;
			case DRM_VSEG_CMD_COPY:
				vseg_cb_copy(&cb, own_addr + SZ_4K, own_addr,
					     SZ_4K);
				break;
			default:
				vseg_cb_write(&cb, own_addr, 9);
				break;
			}
			vseg_cb_add_allocation(&cb, own,
					       DRM_VSEG_ALLOCATION_WRITE);
			vseg_cb_add_patch(&cb, 0, SZ_4K * 2,
					  VSEG_PATCH_OFFSET(0, field));
			err = submit_copy(fd, &cb);
			igt_assert_f(ok ? err == 0 : err == -EINVAL,
				     "opcode %u, patch at field offset %zu: %d (%s)\n",
				     op, field, err, vseg_errname(err));
			vseg_cb_fini(&cb);
		}
	}
	/* A patch that breaks FILL's or WRITE's alignment is refused too. */
	for (unsigned int k = 0; k < 2; k++) {
		struct vseg_cmdbuf cb;
		uint32_t cmd;
		int err;

		vseg_cb_init(&cb);
		cmd = k ? vseg_cb_write(&cb, 0, 1) : vseg_cb_fill(&cb, 0, 8, 1);
		vseg_cb_add_allocation(&cb, own, DRM_VSEG_ALLOCATION_WRITE);
		vseg_cb_add_patch(&cb, 0, SZ_4K - (k ? 4 : 2),
				  VSEG_PATCH_OFFSET(cmd, VSEG_CMD_DST));
		err = submit_copy(fd, &cb);
		igt_assert_f(err == -EINVAL, "%s patched unaligned: %d (%s)\n",
			     k ? "WRITE" : "FILL", err, vseg_errname(err));
		vseg_cb_fini(&cb);
	}
	vseg_gem_close(fd, own);
	close(fd);
	victim_check(&v, "the victim's buffer");
	vseg_gem_close(ctx.fd, v.handle);
	vseg_ctx_finish(&ctx, "patch fields");
}

/* --- display ---------------------------------------------------------------------- */

static void assert_head_off(int fd, unsigned int head)
{
	struct vseg_display d;

	vseg_debugfs_read_display(fd, &d);
	igt_assert_f(!d.head[head].on, "head %u shows a buffer\n", head);
}

static void test_scanout_privilege(void)
{
	struct vseg_display d;
	uint32_t p, rp, cp;
	int r, c2, err;

	vseg_ctx_start(&ctx);
	igt_require_f(drmIsMaster(ctx.fd), "the card node is not DRM master\n");
	p = create_in(ctx.fd, ctx.ap_id, SZ_64K, PRIMARY);

	/* A render node: -EACCES, for a buffer of its own and for "off". */
	r = drm_open_vseg_render();
	rp = create_in(r, ctx.ap_id, SZ_64K, PRIMARY);
	err = __vseg_display_show(r, 0, rp);
	igt_assert_f(err == -EACCES, "showing on a render node: %d (%s)\n",
		     err, vseg_errname(err));
	assert_head_off(ctx.fd, 0);

	/* The primary node, not master: -EACCES. */
	c2 = drm_open_vseg();
	igt_assert(!drmIsMaster(c2));
	cp = create_in(c2, ctx.ap_id, SZ_64K, PRIMARY);
	err = __vseg_display_show(c2, 1, cp);
	igt_assert_f(err == -EACCES, "showing without DRM master: %d (%s)\n",
		     err, vseg_errname(err));
	assert_head_off(ctx.fd, 1);

	/* The master shows its primary; nobody else turns it off. */
	vseg_display_show(ctx.fd, 0, p);
	err = __vseg_display_show(r, 0, 0);
	igt_assert_eq(err, -EACCES);
	err = __vseg_display_show(c2, 0, 0);
	igt_assert_eq(err, -EACCES);
	vseg_debugfs_read_display(ctx.fd, &d);
	igt_assert(d.head[0].on);

	vseg_display_show(ctx.fd, 0, 0);
	assert_head_off(ctx.fd, 0);
	vseg_gem_close(r, rp);
	vseg_gem_close(c2, cp);
	close(r);
	close(c2);
	vseg_gem_close(ctx.fd, p);
	vseg_ctx_finish(&ctx, "scanout privilege");
}

static void test_primary_unmap_pinned(void)
{
	struct drm_vseg_gem_info info;
	uint32_t p;

	vseg_ctx_start(&ctx);
	igt_require(drmIsMaster(ctx.fd));
	p = vseg_gem_create_simple(ctx.fd, SZ_64K, BIT(ctx.ap_id),
				   PRIMARY);
	resident_in(ctx.fd, p, ctx.ap_id);
	vseg_gem_info(ctx.fd, p, &info);
	igt_assert(!(info.placement_flags & DRM_VSEG_INFO_APERTURE_MAPPED));

	vseg_display_show(ctx.fd, 0, p);
	vseg_gem_info(ctx.fd, p, &info);
	igt_assert(info.placement_flags & DRM_VSEG_INFO_APERTURE_MAPPED);
	igt_assert_eq(__vseg_make_resident_flags(ctx.fd, &p, 1, PIN, NULL), 0);

	/* Off: out of the aperture although the user pin keeps it resident. */
	vseg_display_show(ctx.fd, 0, 0);
	vseg_gem_info(ctx.fd, p, &info);
	igt_assert_f(!(info.placement_flags & DRM_VSEG_INFO_APERTURE_MAPPED),
		     "a pinned primary stayed mapped after its head turned off\n");
	igt_assert(info.placement_flags & DRM_VSEG_INFO_PINNED);
	igt_assert_eq_u32(info.segment_id, ctx.ap_id);

	/* Shown again, then unpinned: mapped while shown only. */
	vseg_display_show(ctx.fd, 1, p);
	vseg_gem_info(ctx.fd, p, &info);
	igt_assert(info.placement_flags & DRM_VSEG_INFO_APERTURE_MAPPED);
	igt_assert_eq(__vseg_evict_flags(ctx.fd, &p, 1, UNPIN, NULL), -EBUSY);
	vseg_display_show(ctx.fd, 1, 0);
	igt_assert_eq(__vseg_evict_flags(ctx.fd, &p, 1, UNPIN, NULL), 0);
	vseg_gem_info(ctx.fd, p, &info);
	igt_assert(!(info.placement_flags &
		     (DRM_VSEG_INFO_APERTURE_MAPPED | DRM_VSEG_INFO_PINNED)));
	vseg_gem_close(ctx.fd, p);
	vseg_ctx_finish(&ctx, "primary unmapped");
}

/* --- pins ------------------------------------------------------------------------ */

static void test_pin_budget(void)
{
	const uint64_t size = SZ_1M;
	uint32_t vram = 1, handles[DRM_VSEG_MAX_RESIDENCY_HANDLES];
	uint64_t limit = vseg_ctx_seg(&ctx, vram)->size / 2;
	struct drm_vseg_gem_info info;
	uint32_t processed = 0, own, mine;
	int fd, err;

	vseg_ctx_start(&ctx);
	/* The attacker's file is another process's: the budget is its own. */
	fd = drm_open_vseg_other_process(true);
	own = create_in(fd, vram, size, 0);
	for (unsigned int i = 0; i < ARRAY_SIZE(handles); i++)
		handles[i] = own;

	/* One buffer listed 1024 times: pinned up to the budget, no more. */
	err = __vseg_make_resident_flags(fd, handles, ARRAY_SIZE(handles), PIN,
					 &processed);
	igt_assert_f(err == -ENOSPC, "1024 pins of one buffer: %d (%s)\n", err,
		     vseg_errname(err));
	igt_assert_eq_u32(processed, limit / size);
	vseg_gem_info(fd, own, &info);
	igt_assert(info.placement_flags & DRM_VSEG_INFO_PINNED);
	igt_assert_eq_u32(info.segment_id, vram);

	/* The budget is the attacker's: the victim pins as it likes. */
	mine = create_in(ctx.fd, vram, size, 0);
	igt_assert_eq(__vseg_make_resident_flags(ctx.fd, &mine, 1, PIN, NULL),
		      0);
	vseg_gem_info(ctx.fd, mine, &info);
	igt_assert_eq_u32(info.segment_id, vram);

	/* Every pin can be dropped again, one per entry. */
	err = __vseg_evict_flags(fd, handles, processed + 1, UNPIN, NULL);
	igt_assert_eq(err, -EINVAL);
	igt_assert_eq(__vseg_evict_flags(fd, handles, processed, UNPIN,
					 &processed), 0);
	vseg_gem_info(fd, own, &info);
	igt_assert(!(info.placement_flags & DRM_VSEG_INFO_PINNED));

	/* Pins go with the file: the buffer is freed with it. */
	igt_assert_eq(__vseg_make_resident_flags(fd, handles, 8, PIN, NULL), 0);
	close(fd);
	igt_assert_eq(__vseg_evict_flags(ctx.fd, &mine, 1, UNPIN, NULL), 0);
	vseg_gem_close(ctx.fd, mine);
	vseg_ctx_finish(&ctx, "pins of a closed file");
}

static void test_pin_ownership(void)
{
	struct drm_vseg_gem_info info;
	uint32_t v, imported;
	int fd, dmabuf;

	vseg_ctx_start(&ctx);
	v = create_in(ctx.fd, 1, SZ_1M, 0);
	igt_assert_eq(__vseg_make_resident_flags(ctx.fd, &v, 1, PIN, NULL), 0);
	igt_assert_eq(drmPrimeHandleToFD(ctx.fd, v, DRM_CLOEXEC, &dmabuf), 0);

	fd = drm_open_vseg_other_process(true);
	igt_assert_eq(drmPrimeFDToHandle(fd, dmabuf, &imported), 0);
	close(dmabuf);

	/* The victim's pin is not the attacker's to drop, nor to evict. */
	igt_assert_eq(__vseg_evict_flags(fd, &imported, 1, UNPIN, NULL),
		      -EPERM);
	igt_assert_eq(__vseg_evict(fd, &imported, 1, NULL), -EBUSY);
	vseg_gem_info(ctx.fd, v, &info);
	igt_assert(info.placement_flags & DRM_VSEG_INFO_PINNED);
	igt_assert_eq_u32(info.segment_id, 1);

	/* Its own pin, dropped with its last handle. */
	igt_assert_eq(__vseg_make_resident_flags(fd, &imported, 1, PIN, NULL),
		      0);
	vseg_gem_close(fd, imported);
	igt_assert_eq(__vseg_evict_flags(ctx.fd, &v, 1, UNPIN, NULL), 0);
	vseg_gem_info(ctx.fd, v, &info);
	igt_assert_f(!(info.placement_flags & DRM_VSEG_INFO_PINNED),
		     "the attacker's pin outlived its handle\n");
	igt_assert_eq_u32(info.segment_id, 0);

	/* The victim's pin goes with the victim's last handle. */
	igt_assert_eq(drmPrimeHandleToFD(ctx.fd, v, DRM_CLOEXEC, &dmabuf), 0);
	igt_assert_eq(drmPrimeFDToHandle(fd, dmabuf, &imported), 0);
	close(dmabuf);
	igt_assert_eq(__vseg_make_resident_flags(ctx.fd, &v, 1, PIN, NULL), 0);
	vseg_gem_close(ctx.fd, v);
	vseg_gem_info(fd, imported, &info);
	igt_assert(!(info.placement_flags & DRM_VSEG_INFO_PINNED));
	vseg_gem_close(fd, imported);
	close(fd);
	vseg_ctx_finish(&ctx, "pin ownership");
}

/* --- bounded resources ------------------------------------------------------------- */

static void test_vm_mappings_limit(void)
{
	const uint64_t stride = VSEG_VA_ALIGN;
	struct vseg_cmdbuf cb;
	uint64_t last, got = 0;
	uint32_t bo;
	int fd, err;

	vseg_ctx_start(&ctx);
	fd = drm_open_vseg_render();
	bo = vseg_gem_create_simple(fd, SZ_4K, BIT(ctx.ap_id), 0);
	for (unsigned int i = 0; i < DRM_VSEG_MAX_VM_MAPPINGS; i++)
		igt_assert_eq(__vseg_vm_bind(fd, bo, stride * (i + 1), NULL),
			      0);
	last = stride * DRM_VSEG_MAX_VM_MAPPINGS;
	err = __vseg_vm_bind(fd, bo, last + stride, NULL);
	igt_assert_f(err == -ENOSPC, "mapping %u: %d (%s)\n",
		     DRM_VSEG_MAX_VM_MAPPINGS + 1, err, vseg_errname(err));
	/* Room again after an unbind. */
	vseg_vm_unbind(fd, stride);
	vseg_vm_bind(fd, bo, last + stride);

	/* The engine finds the highest mapping among 4096. */
	vseg_cb_init(&cb);
	vseg_cb_write(&cb, last + stride + 8, 0xabcdef0123ull);
	vseg_cb_exec_ok(fd, RENDER, &cb, "WRITE through the last mapping");
	vseg_cb_fini(&cb);
	vseg_bo_read(fd, bo, 8, &got, sizeof(got));
	igt_assert_eq_u64(got, 0xabcdef0123ull);

	/* The bound is the process's: another file of it has no room... */
	{
		int other = drm_open_vseg_render();
		uint32_t obo = vseg_gem_create_simple(other, SZ_4K, BIT(ctx.ap_id), 0);

		err = __vseg_vm_bind(other, obo, stride, NULL);
		igt_assert_f(err == -ENOSPC,
			     "a mapping in another file of the process: %d (%s)\n",
			     err, vseg_errname(err));
		vseg_gem_close(other, obo);
		close(other);
	}
	/* ...another process has its own. */
	igt_fork(child, 1) {
		int other = drm_open_vseg_render();
		uint32_t obo = vseg_gem_create_simple(other, SZ_4K, BIT(ctx.ap_id), 0);

		vseg_vm_bind(other, obo, stride);
		vseg_gem_close(other, obo);
		close(other);
	}
	igt_waitchildren();
	vseg_gem_close(fd, bo);
	close(fd);
	vseg_ctx_finish(&ctx, "VM mappings");
}

/*
 * A child that runs one job on a new file and reports when the job is done:
 * neither its SUBMIT nor its job waits behind another file's blocked jobs.
 */
static void submit_in_child(int pipe_w)
{
	int fd = drm_open_vseg_render();
	uint32_t bo = vseg_gem_create_simple(fd, SZ_4K, BIT(ctx.ap_id), 0);
	struct vseg_cmdbuf cb;
	uint64_t got = 0;
	char c = 1;

	vseg_vm_bind(fd, bo, VSEG_VA_ALIGN);
	vseg_cb_init(&cb);
	vseg_cb_write(&cb, VSEG_VA_ALIGN, 0x77);
	igt_assert_eq(vseg_cb_exec(fd, RENDER, &cb), 0);
	vseg_cb_fini(&cb);
	vseg_bo_read(fd, bo, 0, &got, sizeof(got));
	igt_assert_eq_u64(got, 0x77);
	igt_assert_eq(write(pipe_w, &c, 1), 1);
	vseg_gem_close(fd, bo);
	close(fd);
}

static bool readable(int fd, int timeout_ms)
{
	struct pollfd p = { .fd = fd, .events = POLLIN };

	return poll(&p, 1, timeout_ms) == 1;
}

static void test_jobs_in_flight_limit(void)
{
	struct vseg_gate g;
	struct vseg_cmdbuf cb;
	uint32_t done, gate;
	int fd, attacker_pipe[2], victim_pipe[2];
	char c;

	vseg_ctx_start(&ctx);
	fd = drm_open_vseg_render();
	vseg_gate_init(&g);
	gate = vseg_gate_syncobj(&g, fd);
	done = vseg_syncobj_create(fd, 0);

	/* A full queue: the first job waits for the fence, the rest behind. */
	vseg_cb_init(&cb);
	vseg_cb_nop(&cb);
	vseg_cb_submit(fd, RENDER, &cb, &gate, 1, NULL, 0);
	for (unsigned int i = 1; i < DRM_VSEG_MAX_JOBS_IN_FLIGHT; i++)
		vseg_cb_submit(fd, RENDER, &cb, NULL, 0,
			       i == DRM_VSEG_MAX_JOBS_IN_FLIGHT - 1 ? &done : NULL,
			       i == DRM_VSEG_MAX_JOBS_IN_FLIGHT - 1);
	igt_assert(!vseg_syncobj_has_fence(fd, done) ||
		   vseg_syncobj_status(fd, done) == 0);

	igt_assert_eq(pipe(attacker_pipe), 0);
	igt_assert_eq(pipe(victim_pipe), 0);
	/* One more on the same file: waits for the oldest. */
	igt_fork(child, 1) {
		struct vseg_cmdbuf one;

		vseg_cb_init(&one);
		vseg_cb_nop(&one);
		vseg_cb_submit(fd, RENDER, &one, NULL, 0, NULL, 0);
		igt_assert_eq(write(attacker_pipe[1], "x", 1), 1);
	}
	/* Another file's job runs while this file's queue is blocked. */
	igt_fork(child, 1)
		submit_in_child(victim_pipe[1]);
	igt_assert_f(readable(victim_pipe[0], 8000),
		     "another file's job waited for this file's blocked jobs\n");
	igt_assert_f(!readable(attacker_pipe[0], 500),
		     "SUBMIT queued a job beyond the file's limit\n");
	vseg_gate_assert_closed(&g, "the file's queue was full");

	vseg_gate_open(&g);
	igt_assert_f(readable(attacker_pipe[0], 20000),
		     "SUBMIT still waits after the oldest job finished\n");
	igt_assert_eq(read(attacker_pipe[0], &c, 1), 1);
	igt_waitchildren();
	igt_assert_eq(vseg_syncobj_wait_error(fd, done, 20000), 0);
	vseg_gate_fini(&g);
	vseg_cb_fini(&cb);
	for (unsigned int i = 0; i < 2; i++) {
		close(attacker_pipe[i]);
		close(victim_pipe[i]);
	}
	close(fd);
	vseg_ctx_finish(&ctx, "queued jobs");
}

static void test_mmap_unreachable(void)
{
	uint32_t hidden, ok;
	uint64_t offset;
	int err;

	vseg_ctx_start(&ctx);
	/* Supported only where the CPU cannot see: no mapping can work. */
	hidden = vseg_gem_create_simple(ctx.fd, SZ_64K, BIT(2), 0);
	err = __vseg_gem_mmap_offset(ctx.fd, hidden, &offset);
	igt_assert_f(err == -EINVAL, "MMAP_OFFSET of a buffer the CPU never reaches: %d (%s)\n",
		     err, vseg_errname(err));
	/* With system memory supported, it can be moved where the CPU is. */
	ok = vseg_gem_create_simple(ctx.fd, SZ_64K, BIT(2) | BIT(ctx.ap_id), 0);
	write_pattern(ctx.fd, ok, SZ_64K, 3);
	assert_pattern(ctx.fd, ok, SZ_64K, 3, "a buffer moved for the CPU");
	vseg_gem_close(ctx.fd, hidden);
	vseg_gem_close(ctx.fd, ok);
	vseg_ctx_finish(&ctx, "mmap of unreachable buffers");
}

/* --- PRIME -------------------------------------------------------------------------- */

static void test_prime_mmap_evict(void)
{
	const uint64_t size = SZ_1M;
	uint32_t vram = 1, v, imported;
	unsigned int n_fill = vseg_ctx_seg(&ctx, vram)->size / size;
	uint32_t *fill;
	void *map, *buf;
	int dmabuf, fd;

	vseg_ctx_start(&ctx);
	fill = calloc(n_fill, sizeof(*fill));
	buf = malloc(size);
	igt_assert(fill && buf);
	v = create_in(ctx.fd, vram, size, 0);
	write_pattern(ctx.fd, v, size, VICTIM_SEED);
	resident_in(ctx.fd, v, vram);
	igt_assert_eq(drmPrimeHandleToFD(ctx.fd, v, DRM_CLOEXEC | DRM_RDWR,
					 &dmabuf), 0);
	map = mmap(NULL, size, RW, MAP_SHARED, dmabuf, 0);
	igt_assert(map != MAP_FAILED);
	igt_assert_eq(vseg_pattern_check(map, size, VICTIM_SEED), -1);

	/* Evicted; another client takes all of vram with its own bytes. */
	vseg_evict(ctx.fd, &v, 1);
	fd = drm_open_vseg_render();
	for (unsigned int i = 0; i < n_fill; i++) {
		fill[i] = vseg_gem_create_simple(fd, size, BIT(vram), 0);
		write_pattern(fd, fill[i], size, 1000 + i);
	}
	igt_assert_eq(vseg_pattern_check(map, size, VICTIM_SEED), -1);

	/* Written through the dma-buf, moved, read through GEM: the same. */
	vseg_pattern_fill(map, size, VICTIM_SEED + 1);
	for (unsigned int i = 0; i < n_fill; i++)
		vseg_gem_close(fd, fill[i]);
	resident_in(ctx.fd, v, vram);
	assert_pattern(ctx.fd, v, size, VICTIM_SEED + 1,
		       "bytes written through the dma-buf, after a move");
	vseg_evict(ctx.fd, &v, 1);
	igt_assert_eq(vseg_pattern_check(map, size, VICTIM_SEED + 1), -1);

	/* Given through PRIME, the other client may use it. */
	igt_assert_eq(drmPrimeFDToHandle(fd, dmabuf, &imported), 0);
	assert_pattern(fd, imported, size, VICTIM_SEED + 1,
		       "the buffer imported by another client");
	vseg_gem_close(fd, imported);
	close(fd);
	munmap(map, size);
	close(dmabuf);
	vseg_gem_close(ctx.fd, v);
	free(fill);
	free(buf);
	vseg_ctx_finish(&ctx, "PRIME mapping across an eviction");
}

/* --- creation ---------------------------------------------------------------------- */

static void expect_create(int fd, struct drm_vseg_gem_create *c, int want,
			  const char *what)
{
	unsigned int before = vseg_allocation_count(fd);
	int err = __vseg_gem_create(fd, c);

	igt_assert_f(err == want, "%s: %d (%s), expected %d\n", what, err,
		     vseg_errname(err), want);
	if (err) {
		igt_assert_eq(vseg_allocation_count(fd), before);
		return;
	}
	vseg_gem_close(fd, c->handle);
}

static void test_create_honest_discrete(void)
{
	struct drm_vseg_gem_create c;
	uint64_t vram = vseg_ctx_seg(&ctx, 1)->size;

	vseg_ctx_start(&ctx);
	vseg_create_args(&c, vram + SZ_64K, BIT(1), AP);
	expect_create(ctx.fd, &c, -EINVAL, "contiguous, larger than vram");
	vseg_create_args(&c, vram + SZ_64K, BIT(1) | BIT(2), 0);
	expect_create(ctx.fd, &c, -EINVAL, "larger than every segment");
	vseg_create_args(&c, vram, BIT(1), AP);
	expect_create(ctx.fd, &c, 0, "contiguous, all of vram");
	/* A hinted bank too small for it is only a hint. */
	vseg_create_args(&c, vram / 2 + SZ_64K, BIT(1), AP);
	vseg_create_prefer(&c, 1, 0);
	c.num_hinted_banks = 1;
	c.hinted_banks[0] = 0;
	expect_create(ctx.fd, &c, 0, "larger than its hinted bank");
	/* Offset 0 is aligned to anything (vseg_fuzz --replay 40). */
	vseg_create_args(&c, 0x30000, BIT(ctx.ap_id) | BIT(1) | BIT(2), AP | FROM_END);
	c.alignment = 1ull << 30;
	expect_create(ctx.fd, &c, 0, "1 GiB alignment, from the end");
	/* More than the aperture's commit limit. */
	vseg_create_args(&c, vseg_ctx_seg(&ctx, ctx.ap_id)->commit_limit +
			 SZ_4K, BIT(ctx.ap_id), AP);
	expect_create(ctx.fd, &c, -EINVAL, "larger than the commit limit");
	vseg_create_args(&c, 1ull << 46, BIT(ctx.ap_id), 0);
	expect_create(ctx.fd, &c, -EINVAL, "larger than system memory");
	vseg_ctx_finish(&ctx, "honest creation");
}

/* On smallbar: CPU_VISIBLE larger than the window (the 6.12 oops). */
static void test_smallbar_render(void)
{
	struct drm_vseg_gem_create c;
	struct drm_vseg_gem_info info;
	uint64_t visible = vseg_ctx_seg(&ctx, 1)->cpu_visible_size;
	struct vseg_cmdbuf cb;
	uint64_t got = 0;
	uint32_t h;

	vseg_ctx_start(&ctx);
	igt_require(visible < vseg_ctx_seg(&ctx, 1)->size);
	vseg_create_args(&c, visible + SZ_1M, BIT(1), CPU_VISIBLE);
	expect_create(ctx.fd, &c, -EINVAL,
		      "CPU_VISIBLE larger than the window, vram only");

	/*
	 * With system memory supported it lives there, and jobs work: the
	 * job commits it to the aperture, which has room for it beside the
	 * paging buffer.
	 */
	vseg_create_args(&c, visible + SZ_1M, BIT(1) | BIT(ctx.ap_id), CPU_VISIBLE);
	h = vseg_gem_create(ctx.fd, &c);
	vseg_gem_info(ctx.fd, h, &info);
	/* system memory, named by the aperture's id: committed to it or not */
	igt_assert_f(info.segment_id == 0 || info.segment_id == ctx.ap_id,
		     "created in %s\n", vseg_ctx_seg_name(&ctx, info.segment_id));
	vseg_vm_bind(ctx.fd, h, VSEG_VA_ALIGN);
	vseg_cb_init(&cb);
	vseg_cb_write(&cb, VSEG_VA_ALIGN + visible, 0x5a5a5a5a5aull);
	vseg_cb_exec_ok(ctx.fd, RENDER, &cb, "WRITE into a CPU_VISIBLE buffer");
	vseg_cb_fini(&cb);
	vseg_bo_read(ctx.fd, h, visible, &got, sizeof(got));
	igt_assert_eq_u64(got, 0x5a5a5a5a5aull);
	vseg_vm_unbind(ctx.fd, VSEG_VA_ALIGN);
	vseg_gem_close(ctx.fd, h);
	vseg_ctx_finish(&ctx, "smallbar render");
}

/* --- GART lifetime ---------------------------------------------------------------------- */

#define RACE_ROUNDS	40

static void race_closer(void)
{
	int fd = drm_open_vseg_render();

	for (unsigned int i = 0; i < RACE_ROUNDS; i++) {
		uint32_t h[4];

		for (unsigned int k = 0; k < ARRAY_SIZE(h); k++) {
			h[k] = create_in(fd, ctx.ap_id, SZ_64K * (k + 1), AP);
			write_pattern(fd, h[k], SZ_64K, i);
		}
		vseg_make_resident(fd, h, ARRAY_SIZE(h));
		vseg_evict(fd, h, 2);
		for (unsigned int k = 0; k < ARRAY_SIZE(h); k++)
			vseg_gem_close(fd, h[k]);
	}
	close(fd);
}

static void race_user(void)
{
	int fd = drm_open_vseg_render();
	uint32_t a = create_in(fd, ctx.ap_id, SZ_256K, AP);
	uint32_t b = create_in(fd, ctx.ap_id, SZ_256K, AP);
	uint32_t *got = malloc(SZ_256K);
	struct vseg_cmdbuf cb;

	igt_assert(got);
	vseg_cb_init(&cb);
	for (unsigned int i = 0; i < RACE_ROUNDS; i++) {
		vseg_cb_reset(&cb);
		vseg_cb_fill_phys(&cb, a, 0, SZ_256K, i);
		vseg_cb_copy_phys(&cb, b, 0, a, 0, SZ_256K);
		vseg_cb_exec_ok(fd, COPY, &cb, "FILL + COPY in the aperture");
		if (i % 8 == 0) {
			vseg_evict(fd, &a, 1);
			vseg_bo_read(fd, b, 0, got, SZ_256K);
			for (unsigned int k = 0; k < SZ_256K / 4; k++)
				igt_assert_eq_u32(got[k], i);
		}
	}
	vseg_cb_fini(&cb);
	free(got);
	vseg_gem_close(fd, a);
	vseg_gem_close(fd, b);
	close(fd);
}

static void test_gart_race(void)
{
	vseg_ctx_start(&ctx);
	igt_fork(child, 2)
		race_closer();
	igt_fork(child, 1)
		race_user();
	igt_waitchildren();
	vseg_ctx_finish(&ctx, "GART race");
}

/* --- invalid ranges ----------------------------------------------------------------------- */

#define INVALID_TABLE \
	"memory:name=vram,size=8M,page=64K,flags=cpuvisible|64kpages," \
	"cpu=0xe0000000,invalid=0x100000+0x100000;" \
	"aperture:size=8M,commit=8M,invalid=0x200000+0x200000;" \
	"paging:seg=0,size=64K"

static bool overlaps(uint64_t a, uint64_t alen, uint64_t b, uint64_t blen)
{
	return a < b + blen && b < a + alen;
}

static void test_invalid_ranges(void)
{
	const struct drm_vseg_range *vr, *ar;
	uint32_t h[16], n = 0, own;
	struct vseg_cmdbuf cb;
	uint64_t own_addr;
	int err;

	/* Pinned, so that a new buffer cannot evict the others. */
	vseg_ctx_load(&ctx, "discrete pin_limit_percent=100 table="
		      INVALID_TABLE);
	vr = &vseg_ctx_seg(&ctx, 1)->invalid_ranges[0];
	ar = &vseg_ctx_seg(&ctx, ctx.ap_id)->invalid_ranges[0];
	igt_assert_eq_u32(vseg_ctx_seg(&ctx, ctx.ap_id)->num_invalid_ranges, 1);

	/* Fill both segments with 1 MiB contiguous buffers. */
	for (uint32_t id = 1; id <= 2; id++) {
		const struct drm_vseg_range *r = id == 1 ? vr : ar;

		for (;;) {
			struct drm_vseg_gem_create c;
			struct drm_vseg_gem_info info;
			uint64_t at;

			vseg_create_args(&c, SZ_1M, BIT(id), AP);
			if (__vseg_gem_create(ctx.fd, &c))
				break;
			/*
			 * The aperture's id also names system memory, where
			 * creation goes when the aperture is full: there the
			 * pin is what fails.
			 */
			err = __vseg_make_resident_flags(ctx.fd, &c.handle, 1,
							 PIN, NULL);
			if (err && id == ctx.ap_id) {
				igt_assert_eq(err, -ENOSPC);
				vseg_gem_close(ctx.fd, c.handle);
				break;
			}
			igt_assert_eq(err, 0);
			igt_assert(n < ARRAY_SIZE(h));
			h[n++] = c.handle;
			vseg_gem_info(ctx.fd, c.handle, &info);
			at = id == 1 ? info.offset : info.aperture_offset;
			igt_assert_f(!overlaps(at, SZ_1M, r->start, r->size),
				     "buffer at 0x%llx in segment %u's invalid range\n",
				     (unsigned long long)at, id);
		}
	}
	igt_info("%u buffers placed around the invalid ranges\n", n);
	igt_assert_eq_u32(n, 7 + 6);

	/* No copy job reaches them, listed buffers or not. */
	own = h[0];
	own_addr = vseg_phys_addr(ctx.fd, own, 0);
	vseg_cb_init(&cb);
	vseg_cb_copy(&cb, own_addr, vseg_ctx_gpu_addr(&ctx, 1, vr->start),
		     SZ_4K);
	vseg_cb_allocation(&cb, own, DRM_VSEG_ALLOCATION_WRITE);
	err = submit_copy(ctx.fd, &cb);
	igt_assert_eq(err, -EINVAL);
	vseg_cb_reset(&cb);
	vseg_cb_fill(&cb, vseg_ctx_gpu_addr(&ctx, ctx.ap_id, ar->start), SZ_4K,
		     1);
	vseg_cb_allocation(&cb, own, DRM_VSEG_ALLOCATION_WRITE);
	err = submit_copy(ctx.fd, &cb);
	igt_assert_eq(err, -EINVAL);
	vseg_cb_fini(&cb);
	for (uint32_t i = 0; i < n; i++) {
		igt_assert_eq(__vseg_evict_flags(ctx.fd, &h[i], 1, UNPIN, NULL),
			      0);
		vseg_gem_close(ctx.fd, h[i]);
	}
	vseg_ctx_finish(&ctx, "invalid ranges");
	vseg_ctx_load(&ctx, "discrete");
}

/* --- unprivileged attackers ------------------------------------------------------ */

#define NOBODY		VSEG_NOBODY

/*
 * Everyone may open the render node, as udev's rules let them on a
 * systemd machine (mode 0666); the module's reload makes it 0600 again.
 */
static void render_node_for_all(void)
{
	int fd = drm_open_vseg_render();
	struct stat st;
	char path[64];

	igt_assert_eq(fstat(fd, &st), 0);
	close(fd);
	snprintf(path, sizeof(path), "/dev/dri/renderD%u", minor(st.st_rdev));
	igt_assert_eq(chmod(path, 0666), 0);
}

/* From now on an unprivileged process of user @uid, as if started so. */
static void become_user(uid_t uid)
{
	igt_assert_eq(setgroups(0, NULL), 0);
	igt_assert_eq(setresgid(uid, uid, uid), 0);
	igt_assert_eq(setresuid(uid, uid, uid), 0);
	igt_assert_eq(geteuid(), uid);
	/* setresuid() made /proc/self root's; what a normal start is. */
	igt_assert_eq(prctl(PR_SET_DUMPABLE, 1, 0, 0, 0), 0);
}

static void send_byte(int fd, char c)
{
	igt_assert_eq(write(fd, &c, 1), 1);
}

/* The next byte, or 0 once the other side is gone. */
static char recv_byte(int fd)
{
	char c = 0;

	return read(fd, &c, 1) == 1 ? c : 0;
}

/* --- moves: another owner's bytes -------------------------------------------------- */

/*
 * A victim process frees a buffer while the attacker keeps the paging
 * engine busy with a large eviction; the attacker then evicts one of its
 * own mapped buffers, whose new system pages may be the victim's freed
 * ones, and reads it through /proc/self/mem (ptrace access) before the
 * Transfer that fills them has run. Every read must give the attacker's
 * own bytes: the access waits for the move, and no page holds the
 * victim's.
 */
#define MOVE_RACE_ROUNDS	16
#define VICTIM_WORD		0x5ec2e7a5u

/**
 * struct move_race - one flavour of the race
 * @victim_seg: where the victim's buffer lives.
 * @victim_size: its size.
 * @protected: the victim's buffer is protected (filled by the engine).
 * @big_seg: where the attacker's large buffer lives.
 * @big_size: its size.
 * @big_protected: the large buffer is protected (its eviction encrypts:
 *	slow).
 * @small_seg: where the attacker's mapped buffer lives.
 * @small_size: its size.
 */
struct move_race {
	uint32_t victim_seg;
	uint64_t victim_size;
	bool protected;
	uint32_t big_seg;
	uint64_t big_size;
	bool big_protected;
	uint32_t small_seg;
	uint64_t small_size;
};

static uint32_t race_buffer(int fd, uint32_t seg, uint64_t size, bool prot,
			    bool only)
{
	struct drm_vseg_gem_create c;

	vseg_create_args(&c, size, BIT(seg) | (prot || only ? 0 : BIT(ctx.ap_id)),
			 prot ? DRM_VSEG_GEM_CREATE_PROTECTED | AP : 0);
	vseg_create_prefer(&c, seg, 0);
	return vseg_gem_create(fd, &c);
}

/*
 * The victim's buffer, written with VICTIM_WORD everywhere; in its segment
 * only (the attacker's moves may hold the room for a moment).
 */
static uint32_t race_victim_buffer(int fd, const struct move_race *r)
{
	uint32_t h = race_buffer(fd, r->victim_seg, r->victim_size,
				 r->protected, true);
	struct vseg_cmdbuf cb;
	void *map;

	if (r->protected) {
		vseg_cb_init(&cb);
		vseg_cb_fill_phys(&cb, h, 0, r->victim_size, VICTIM_WORD);
		vseg_cb_exec_ok(fd, COPY, &cb, "the victim's FILL");
		vseg_cb_fini(&cb);
	} else {
		map = vseg_gem_mmap(fd, h, r->victim_size, RW);
		vseg_fill32(map, r->victim_size, VICTIM_WORD);
		munmap(map, r->victim_size);
	}
	/*
	 * Another process's move may have evicted it meanwhile (to system
	 * memory, its supported set being full): back into its segment, the
	 * bytes kept by the eviction, before the race starts.
	 */
	for (int i = 0; i < 100 && vseg_gem_segment(fd, h) != r->victim_seg;
	     i++) {
		__vseg_make_resident(fd, &h, 1, NULL);
		usleep(10000);
	}
	igt_assert_eq_u32(vseg_gem_segment(fd, h), r->victim_seg);
	return h;
}

/* The victim: a buffer of its bytes ready, freed when told ('f'). */
static void race_victim(const struct move_race *r, int cmd, int ack)
{
	int fd = drm_open_vseg_render();
	uint32_t h = race_victim_buffer(fd, r);

	send_byte(ack, 'r');
	while (recv_byte(cmd) == 'f') {
		vseg_gem_close(fd, h);
		send_byte(ack, 'd');
		h = race_victim_buffer(fd, r);
	}
	vseg_gem_close(fd, h);
	close(fd);
}

/* Pages of @buf holding mostly VICTIM_WORD. */
static unsigned int victim_pages(const uint32_t *buf, uint64_t size)
{
	unsigned int pages = 0;

	for (uint64_t p = 0; p < size / SZ_4K; p++) {
		unsigned int n = 0;

		for (unsigned int i = 0; i < SZ_4K / 4; i++)
			n += buf[p * SZ_4K / 4 + i] == VICTIM_WORD;
		pages += n > SZ_4K / 8;
	}
	return pages;
}

/* The attacker, unprivileged: one round after another. */
static void race_attacker(const struct move_race *r, int cmd, int ack)
{
	uint32_t bos[2], *got = malloc(r->small_size);
	unsigned int seen = 0, wrong = 0;
	int fd, mem;
	char *map;

	igt_assert(got);
	become_user(NOBODY);
	fd = drm_open_vseg_render();
	mem = open("/proc/self/mem", O_RDONLY | O_CLOEXEC);
	igt_assert_f(mem >= 0, "/proc/self/mem: %s\n", strerror(errno));
	bos[0] = race_buffer(fd, r->big_seg, r->big_size, r->big_protected,
			     false);
	bos[1] = race_buffer(fd, r->small_seg, r->small_size, false, false);
	if (r->big_protected) {
		struct vseg_cmdbuf cb;

		vseg_cb_init(&cb);
		vseg_cb_fill_phys(&cb, bos[0], 0, r->big_size, 0xb16b16);
		vseg_cb_exec_ok(fd, COPY, &cb, "the large buffer's FILL");
		vseg_cb_fini(&cb);
	} else {
		write_pattern(fd, bos[0], r->big_size, 77);
	}
	map = vseg_gem_mmap(fd, bos[1], r->small_size, RW);
	vseg_pattern_fill(map, r->small_size, 78);
	igt_assert_eq(recv_byte(ack), 'r');

	for (unsigned int round = 0; round < MOVE_RACE_ROUNDS; round++) {
		unsigned int victim;
		int64_t bad;

		/* Both back home, their moves done and old pages freed. */
		vseg_make_resident(fd, bos, 2);
		igt_assert_eq_u32(vseg_gem_segment(fd, bos[1]), r->small_seg);
		igt_assert_eq(vseg_pattern_check(map, SZ_4K, 78), -1);
		usleep(20 * 1000);

		/* The engine busy, the victim's buffer freed, then ours. */
		vseg_evict(fd, &bos[0], 1);
		send_byte(cmd, 'f');
		igt_assert_eq(recv_byte(ack), 'd');
		vseg_evict(fd, &bos[1], 1);
		igt_assert_eq(pread(mem, got, r->small_size,
				    (off_t)(uintptr_t)map),
			      (ssize_t)r->small_size);

		victim = victim_pages(got, r->small_size);
		bad = vseg_pattern_check(got, r->small_size, 78);
		seen += victim;
		wrong += bad >= 0;
		igt_info("round %u: %u of %llu pages held the victim's bytes%s\n",
			 round, victim,
			 (unsigned long long)r->small_size / SZ_4K,
			 bad >= 0 ? ", the read was not the buffer's" : "");
	}
	send_byte(cmd, 'q');
	igt_assert_f(!seen && !wrong,
		     "ptrace read the victim's bytes in %u pages, and other bytes than the buffer's in %u of %u rounds\n",
		     seen, wrong, MOVE_RACE_ROUNDS);
	munmap(map, r->small_size);
	close(mem);
	vseg_gem_close(fd, bos[0]);
	vseg_gem_close(fd, bos[1]);
	close(fd);
	free(got);
}

static void move_race(const struct move_race *r)
{
	int cmd[2], ack[2];

	render_node_for_all();
	igt_assert_eq(pipe(cmd), 0);
	igt_assert_eq(pipe(ack), 0);
	igt_fork(child, 1) {
		close(cmd[1]);
		close(ack[0]);
		race_victim(r, cmd[0], ack[1]);
	}
	igt_fork(child, 1) {
		close(cmd[0]);
		close(ack[1]);
		race_attacker(r, cmd[1], ack[0]);
	}
	/* Either side gone, the other reads the end of its pipe. */
	for (unsigned int i = 0; i < 2; i++) {
		close(cmd[i]);
		close(ack[i]);
	}
	igt_waitchildren();
}

static void test_freed_bytes_ptrace(void)
{
	const struct move_race r = {
		.victim_seg = 1, .victim_size = 4 * SZ_1M,
		.big_seg = 1, .big_size = 16 * SZ_1M,
		.small_seg = 1, .small_size = SZ_2M,
	};

	vseg_ctx_start(&ctx);
	move_race(&r);
	vseg_ctx_finish(&ctx, "freed bytes and ptrace");
}

/*
 * "enc": VprSupported with encrypted paging, VPR [4M, 6M) less a 64K
 * reserve; "plain": an ordinary CPU-visible segment.
 */
#define VPR_TABLE \
	"memory:name=enc,size=16M,flags=vpr|encryptedpaging,vprstart=4M," \
	"vprsize=2M,vpralign=1M,vprreserve=64K;" \
	"memory:name=plain,size=8M,flags=cpuvisible,cpu=0xe0000000;" \
	"aperture:name=gart,size=16M"

static uint32_t vpr_enc, vpr_plain;

static void load_vpr(void)
{
	vseg_ctx_load_f(&ctx, "discrete table=%s", VPR_TABLE);
	vpr_enc = vseg_segment_by_name(&ctx.q, ctx.segs, "enc");
	vpr_plain = vseg_segment_by_name(&ctx.q, ctx.segs, "plain");
}

static void test_protected_plaintext_ptrace(void)
{
	struct move_race r = {
		.victim_size = SZ_512K, .protected = true,
		.big_size = SZ_512K, .big_protected = true,
		.small_size = SZ_512K,
	};

	load_vpr();
	r.victim_seg = r.big_seg = vpr_enc;
	r.small_seg = vpr_plain;
	move_race(&r);
	vseg_ctx_finish(&ctx, "protected plaintext and ptrace");
	vseg_ctx_load(&ctx, "discrete");
}

/*
 * A protected buffer never lives in the aperture or system memory but
 * encrypted: creates naming them are refused, and a job using an evicted
 * protected buffer brings it back into the VPR first.
 */
#define PROT_WORD	0x9207ec7eu

static void protected_aperture_attacker(void)
{
	const uint64_t va_src = VSEG_VA_ALIGN, va_dst = 2 * VSEG_VA_ALIGN;
	const uint64_t va_plain = 3 * VSEG_VA_ALIGN;
	uint32_t src, dst, plain, *map;
	struct drm_vseg_gem_info info;
	struct vseg_cmdbuf cb;
	int fd, err;

	become_user(NOBODY);
	fd = drm_open_vseg_render();
	src = race_buffer(fd, vpr_enc, SZ_64K, true, true);
	dst = race_buffer(fd, vpr_enc, SZ_64K, true, true);
	plain = vseg_gem_create_simple(fd, SZ_64K, BIT(vpr_plain) | BIT(ctx.ap_id), 0);
	map = vseg_gem_mmap(fd, plain, SZ_64K, RW);
	vseg_fill32(map, SZ_64K, 0x11111111);
	vseg_cb_init(&cb);
	vseg_cb_fill_phys(&cb, src, 0, SZ_64K, PROT_WORD);
	vseg_cb_exec_ok(fd, COPY, &cb, "the protected source's FILL");

	/* Evicted, encrypted; then a render job copies into it. */
	vseg_evict(fd, &dst, 1);
	igt_assert_eq_u32(vseg_gem_segment(fd, dst), 0);
	vseg_vm_bind(fd, src, va_src);
	vseg_vm_bind(fd, dst, va_dst);
	vseg_vm_bind(fd, plain, va_plain);
	vseg_cb_reset(&cb);
	vseg_cb_copy(&cb, va_dst, va_src, SZ_64K);
	vseg_cb_exec_ok(fd, RENDER, &cb, "a render COPY between protected buffers");
	vseg_gem_info(fd, dst, &info);
	igt_assert_f(info.segment_id == vpr_enc,
		     "an evicted protected buffer used by a job is in segment %u, not the VPR's %u\n",
		     info.segment_id, vpr_enc);
	/* Its segment's VPR, past the reserve. */
	igt_assert_lte_u64(ctx.segs[vpr_enc - 1].vpr_range_start_offset +
			   ctx.segs[vpr_enc - 1].vpr_reserve_size, info.offset);

	/* Into an ordinary buffer: refused, whatever its placement. */
	vseg_cb_reset(&cb);
	vseg_cb_copy(&cb, va_plain, va_src, SZ_64K);
	err = vseg_cb_exec(fd, RENDER, &cb);
	igt_assert_f(err == -EFAULT, "render COPY from protected into ordinary memory: %d (%s)\n",
		     err, vseg_errname(err));
	for (unsigned int i = 0; i < SZ_64K / 4; i++)
		igt_assert_eq_u32(map[i], 0x11111111);
	vseg_cb_fini(&cb);
	munmap(map, SZ_64K);
	close(fd);
}

static void test_protected_aperture(void)
{
	static const char * const names[] = {
		"system memory", "the aperture", "an ordinary memory segment",
		"the aperture and system memory",
	};
	struct drm_vseg_gem_create c;
	uint32_t bad[ARRAY_SIZE(names)];

	load_vpr();
	render_node_for_all();
	bad[0] = BIT(0);
	bad[1] = BIT(ctx.ap_id);
	bad[2] = BIT(vpr_plain);
	bad[3] = BIT(ctx.ap_id) | BIT(0);
	for (unsigned int i = 0; i < ARRAY_SIZE(bad); i++) {
		char what[96];

		snprintf(what, sizeof(what), "PROTECTED supported in the VPR and %s",
			 names[i]);
		vseg_create_args(&c, SZ_64K, BIT(vpr_enc) | bad[i],
				 DRM_VSEG_GEM_CREATE_PROTECTED);
		expect_create(ctx.fd, &c, -EINVAL, what);
		/* Preferred first, the VPR second: the same. */
		vseg_create_args(&c, SZ_64K, BIT(vpr_enc) | bad[i],
				 DRM_VSEG_GEM_CREATE_PROTECTED);
		vseg_create_prefer(&c, ffs(bad[i]) - 1, 0);
		vseg_create_prefer(&c, vpr_enc, 0);
		expect_create(ctx.fd, &c, -EINVAL, what);
	}
	vseg_create_args(&c, SZ_64K, BIT(vpr_enc), DRM_VSEG_GEM_CREATE_PROTECTED);
	expect_create(ctx.fd, &c, 0, "PROTECTED in the VPR only");

	igt_fork(child, 1)
		protected_aperture_attacker();
	igt_waitchildren();
	vseg_ctx_finish(&ctx, "protected buffers and the aperture");
	vseg_ctx_load(&ctx, "discrete");
}

/* --- limits per process, per user, for the device ------------------------------- */

/**
 * struct pinner - a child process that pins vram when told
 * @cmd: where it reads its orders: 'p' pin as much as it can, 'q' quit.
 * @res: where it writes how many MiB it pinned (a uint32_t per order).
 */
struct pinner {
	int cmd;
	int res;
};

/* Pin 1 MiB buffers of vram through @fds in turn until every file is refused. */
static uint32_t pin_all(const int *fds, unsigned int n)
{
	unsigned int refused = 0, i = 0;
	uint32_t mib = 0;

	while (refused < n) {
		int fd = fds[i++ % n];
		struct drm_vseg_gem_create c;
		int err;

		/* vram only: the aperture's id would make it a pin place too */
		vseg_create_args(&c, SZ_1M, BIT(1), 0);
		err = __vseg_gem_create(fd, &c);
		if (err) {
			igt_assert_f(err == -ENOSPC, "create of 1 MiB: %d (%s)\n",
				     err, vseg_errname(err));
			refused++;
			continue;
		}
		err = __vseg_make_resident_flags(fd, &c.handle, 1, PIN, NULL);
		if (!err) {
			mib++;
			refused = 0;
			continue;
		}
		igt_assert_f(err == -ENOSPC, "PIN of 1 MiB: %d (%s)\n", err,
			     vseg_errname(err));
		vseg_gem_close(fd, c.handle);
		refused++;
	}
	return mib;
}

/*
 * A process of user @uid that opens @files files of the render node after
 * dropping its privileges, and pins through all of them when told.
 */
static void pinner_start(struct pinner *p, uid_t uid, unsigned int files)
{
	int cmd[2], res[2];

	igt_assert_eq(pipe(cmd), 0);
	igt_assert_eq(pipe(res), 0);
	igt_fork(child, 1) {
		int fds[8];
		uint32_t mib;

		close(cmd[1]);
		close(res[0]);
		igt_assert(files <= ARRAY_SIZE(fds));
		if (uid)
			become_user(uid);
		for (unsigned int i = 0; i < files; i++)
			fds[i] = drm_open_vseg_render();
		while (recv_byte(cmd[0]) == 'p') {
			mib = pin_all(fds, files);
			igt_assert_eq(write(res[1], &mib, sizeof(mib)),
				      (ssize_t)sizeof(mib));
		}
		for (unsigned int i = 0; i < files; i++)
			close(fds[i]);
	}
	close(cmd[0]);
	close(res[1]);
	p->cmd = cmd[1];
	p->res = res[0];
}

/* Tell a pinner to pin all it can; the MiB it got. */
static uint32_t pinner_pin(struct pinner *p)
{
	uint32_t mib = UINT32_MAX;

	send_byte(p->cmd, 'p');
	igt_assert_eq(read(p->res, &mib, sizeof(mib)), (ssize_t)sizeof(mib));
	return mib;
}

/* End a pinner: its files, and so its pins, go with it. */
static void pinner_stop(struct pinner *p)
{
	send_byte(p->cmd, 'q');
	close(p->cmd);
	/* Its end of the result pipe closes when it has exited. */
	while (recv_byte(p->res))
		;
	close(p->res);
}

/* The pin shares DEVICE_QUERY_LIMITS reports, in MiB of 32 MiB of vram. */
static void pin_shares(uint32_t *proc, uint32_t *user, uint32_t *device)
{
	uint64_t vram = vseg_ctx_seg(&ctx, 1)->size;
	struct drm_vseg_query_limits *l;
	uint32_t size;

	igt_assert_eq_u64(vram, 32 * SZ_1M);
	l = vseg_device_query(ctx.fd, DRM_VSEG_DEVICE_QUERY_LIMITS, &size);
	igt_assert_lte(offsetof(struct drm_vseg_query_limits,
				pin_device_limit_percent) + sizeof(uint32_t),
		       size);
	*proc = vram * l->pin_limit_percent / 100 / SZ_1M;
	*user = vram * l->pin_user_limit_percent / 100 / SZ_1M;
	*device = vram * l->pin_device_limit_percent / 100 / SZ_1M;
	igt_info("pin shares of vram: %u MiB per process, %u per user, %u in all\n",
		 *proc, *user, *device);
	free(l);
}

/* The victim (root, another process and user): a vram-only buffer fits. */
static void victim_creates_in_vram(uint64_t size, const char *what)
{
	struct drm_vseg_gem_create c;
	int err;

	vseg_create_args(&c, size, BIT(1), 0);
	err = __vseg_gem_create(ctx.fd, &c);
	igt_assert_f(err == 0, "%s: a vram-only create of %llu MiB: %d (%s)\n",
		     what, (unsigned long long)size >> 20, err,
		     vseg_errname(err));
	write_pattern(ctx.fd, c.handle, size, VICTIM_SEED);
	assert_pattern(ctx.fd, c.handle, size, VICTIM_SEED, what);
	vseg_gem_close(ctx.fd, c.handle);
}

/*
 * One unprivileged process opens the render node four times and pins
 * through every file: together they get the process's share, no more,
 * and another process still creates in vram.
 */
static void test_pin_limit_process(void)
{
	uint32_t proc, user, device, got;
	struct pinner a;

	vseg_ctx_start(&ctx);
	pin_shares(&proc, &user, &device);
	render_node_for_all();
	pinner_start(&a, NOBODY, 4);
	got = pinner_pin(&a);
	igt_assert_f(got == proc,
		     "one process with four files pinned %u MiB, its share is %u\n",
		     got, proc);
	victim_creates_in_vram(32 * SZ_1M - (uint64_t)proc * SZ_1M,
			       "beside a process at its pin share");
	pinner_stop(&a);
	igt_waitchildren();
	vseg_ctx_finish(&ctx, "pins of one process with many files");
}

/*
 * Three processes of one unprivileged user: the first two get a process
 * share each, up to the user's; the third none, until one of them exits.
 * Another user's process has a share of its own.
 */
static void test_pin_limit_user(void)
{
	uint32_t proc, user, device, got;
	struct pinner p[3], other;

	vseg_ctx_load(&ctx, "discrete pin_limit_percent=25 pin_user_limit_percent=50");
	pin_shares(&proc, &user, &device);
	igt_assert_eq_u32(proc, 8);
	igt_assert_eq_u32(user, 16);
	render_node_for_all();
	for (unsigned int i = 0; i < 3; i++)
		pinner_start(&p[i], NOBODY, 1);
	pinner_start(&other, NOBODY - 1, 1);

	igt_assert_eq_u32(pinner_pin(&p[0]), proc);
	igt_assert_eq_u32(pinner_pin(&p[1]), user - proc);
	got = pinner_pin(&p[2]);
	igt_assert_f(got == 0,
		     "a third process of a user at its share pinned %u MiB\n",
		     got);
	igt_assert_eq_u32(pinner_pin(&other), proc);
	victim_creates_in_vram(4 * SZ_1M, "beside two users at their shares");

	/* The first goes: its share is the user's again. */
	pinner_stop(&p[0]);
	igt_assert_eq_u32(pinner_pin(&p[2]), proc);
	pinner_stop(&p[1]);
	pinner_stop(&p[2]);
	pinner_stop(&other);
	igt_waitchildren();
	vseg_ctx_finish(&ctx, "pins of one user's processes");
	vseg_ctx_load(&ctx, "discrete");
}

/*
 * Users each at their share fill the device's: a third user, root
 * included, pins nothing until one of them goes.
 */
static void test_pin_limit_device(void)
{
	uint32_t proc, user, device, h;
	struct pinner p[3];
	int err;

	vseg_ctx_load(&ctx, "discrete pin_limit_percent=25 "
		      "pin_user_limit_percent=25 pin_device_limit_percent=50");
	pin_shares(&proc, &user, &device);
	igt_assert_eq_u32(device, 16);
	render_node_for_all();
	for (unsigned int i = 0; i < 3; i++)
		pinner_start(&p[i], NOBODY - i, 1);
	igt_assert_eq_u32(pinner_pin(&p[0]), user);
	igt_assert_eq_u32(pinner_pin(&p[1]), device - user);
	igt_assert_eq_u32(pinner_pin(&p[2]), 0);
	/* vram only: the aperture's id would make the aperture a pin place */
	h = vseg_gem_create_simple(ctx.fd, SZ_1M, BIT(1), 0);
	err = __vseg_make_resident_flags(ctx.fd, &h, 1, PIN, NULL);
	igt_assert_f(err == -ENOSPC, "root's PIN at the device's share: %d (%s)\n",
		     err, vseg_errname(err));
	victim_creates_in_vram(8 * SZ_1M, "beside a device at its pin share");

	pinner_stop(&p[1]);
	igt_assert_eq_u32(pinner_pin(&p[2]), user);
	pinner_stop(&p[0]);
	pinner_stop(&p[2]);
	igt_waitchildren();
	igt_assert_eq(__vseg_make_resident_flags(ctx.fd, &h, 1, PIN, NULL), 0);
	igt_assert_eq(__vseg_evict_flags(ctx.fd, &h, 1, UNPIN, NULL), 0);
	vseg_gem_close(ctx.fd, h);
	vseg_ctx_finish(&ctx, "pins of the whole device");
	vseg_ctx_load(&ctx, "discrete");
}

/* --- jobs: their run time, their size, their number per user ------------------------- */

/* FILLs of 16 MiB: a job of 25 GiB of writes, seconds to minutes of work. */
#define LONG_FILLS	1600
#define LONG_FILL_SIZE	SZ_16M

static uint64_t ms_since(const struct timespec *t0)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (t.tv_sec - t0->tv_sec) * 1000ull +
	       (t.tv_nsec - t0->tv_nsec) / 1000000;
}

/*
 * An unprivileged attacker queues a render job that would run for minutes
 * (with vseg loaded with a 500 ms time limit and no size bound); the
 * victim's job, queued behind it on the same engine, ends soon after the
 * attacker's is stopped (-ETIME), not minutes later; with the default
 * size bound the same job is refused at SUBMIT (-E2BIG).
 */
static void test_job_time_limit(void)
{
	int to_parent[2], attacker_done;
	struct vseg_cmdbuf cb;
	struct timespec t0;
	uint32_t h, sync;
	uint64_t got = 0, ms;
	int err;

	igt_emit_ignore_dmesg_regex(VSEG_JOB_TIMEOUT_DMESG);
	vseg_ctx_load(&ctx, "discrete job_timeout_ms=500 job_max_mb=0");
	render_node_for_all();
	igt_assert_eq(pipe(to_parent), 0);
	igt_fork(child, 1) {
		struct vseg_cmdbuf acb;
		uint32_t bo, done;
		int fd;

		become_user(NOBODY);
		fd = drm_open_vseg_render();
		bo = vseg_gem_create_simple(fd, LONG_FILL_SIZE, BIT(1), 0);
		vseg_vm_bind(fd, bo, VSEG_VA_ALIGN);
		vseg_cb_init(&acb);
		for (unsigned int i = 0; i < LONG_FILLS; i++)
			vseg_cb_fill(&acb, VSEG_VA_ALIGN, LONG_FILL_SIZE, i);
		done = vseg_syncobj_create(fd, 0);
		vseg_cb_submit(fd, RENDER, &acb, NULL, 0, &done, 1);
		send_byte(to_parent[1], 1);
		err = vseg_syncobj_wait_error(fd, done, 60000);
		send_byte(to_parent[1], err == -ETIME ? 2 : 3);
		igt_assert_f(err == -ETIME,
			     "the attacker's job of minutes: %d (%s), expected -ETIME\n",
			     err, vseg_errname(err));
		vseg_cb_fini(&acb);
		close(fd);
	}
	/* A child that dies early is an EOF here, not a hang. */
	close(to_parent[1]);
	igt_assert_eq(recv_byte(to_parent[0]), 1);

	/* The victim's job, on the same engine, behind the attacker's. */
	h = vseg_gem_create_simple(ctx.fd, SZ_4K, BIT(ctx.ap_id), 0);
	vseg_vm_bind(ctx.fd, h, VSEG_VA_ALIGN);
	vseg_cb_init(&cb);
	vseg_cb_write(&cb, VSEG_VA_ALIGN, 0x5afe);
	sync = vseg_syncobj_create(ctx.fd, 0);
	clock_gettime(CLOCK_MONOTONIC, &t0);
	vseg_cb_submit(ctx.fd, RENDER, &cb, NULL, 0, &sync, 1);
	err = vseg_syncobj_wait_error(ctx.fd, sync, 60000);
	ms = ms_since(&t0);
	igt_assert_f(err == 0, "the victim's job: %d (%s)\n", err,
		     vseg_errname(err));
	vseg_bo_read(ctx.fd, h, 0, &got, sizeof(got));
	igt_assert_eq_u64(got, 0x5afe);
	attacker_done = recv_byte(to_parent[0]);
	igt_waitchildren();
	igt_assert_eq(attacker_done, 2);
	igt_info("the victim's job ended %" PRIu64 " ms after it was queued\n",
		 ms);
	/* Minutes of writes, stopped at 500 ms: seconds at most, here. */
	igt_assert_f(ms < 20000,
		     "the victim's job waited %" PRIu64 " ms behind a stopped one\n",
		     ms);
	vseg_syncobj_destroy(ctx.fd, sync);
	vseg_vm_unbind(ctx.fd, VSEG_VA_ALIGN);
	vseg_gem_close(ctx.fd, h);
	vseg_cb_fini(&cb);
	close(to_parent[0]);

	/* With the default bound (1024 MiB), the same job is refused. */
	vseg_ctx_load(&ctx, "discrete");
	h = vseg_gem_create_simple(ctx.fd, LONG_FILL_SIZE, BIT(1), 0);
	vseg_vm_bind(ctx.fd, h, VSEG_VA_ALIGN);
	vseg_cb_init(&cb);
	for (unsigned int i = 0; i < LONG_FILLS; i++)
		vseg_cb_fill(&cb, VSEG_VA_ALIGN, LONG_FILL_SIZE, i);
	err = __vseg_cb_submit(ctx.fd, RENDER, &cb, NULL, 0, NULL, 0);
	igt_assert_f(err == -E2BIG, "a job of 25 GiB of writes: %d (%s), expected -E2BIG\n",
		     err, vseg_errname(err));
	vseg_cb_fini(&cb);
	vseg_vm_unbind(ctx.fd, VSEG_VA_ALIGN);
	vseg_gem_close(ctx.fd, h);
	vseg_ctx_finish(&ctx, "job time limit");
}

/*
 * Child of test_jobs_limit(): as user @uid, NOP jobs on @files files
 * (each waiting for the blocker), a byte to @report after each SUBMIT
 * returns, until @jobs of them or until killed.
 */
static void queue_blocked_jobs(const struct vseg_gate *g, uid_t uid,
			       unsigned int files, unsigned int jobs,
			       int report)
{
	struct vseg_cmdbuf cb;
	int fd[4];
	uint32_t in[4];

	igt_assert(files <= ARRAY_SIZE(fd));
	become_user(uid);
	for (unsigned int f = 0; f < files; f++) {
		fd[f] = drm_open_vseg_render();
		in[f] = vseg_gate_syncobj(g, fd[f]);
	}
	vseg_cb_init(&cb);
	vseg_cb_nop(&cb);
	for (unsigned int i = 0; i < jobs; i++) {
		vseg_cb_submit(fd[i % files], RENDER, &cb, &in[i % files], 1,
			       NULL, 0);
		send_byte(report, 1);
	}
	vseg_cb_fini(&cb);
}

/* Bytes @fd receives until none comes for @quiet_ms, or its EOF. */
static unsigned int count_bytes(int fd, int quiet_ms)
{
	unsigned int n = 0;

	while (readable(fd, quiet_ms) && recv_byte(fd))
		n++;
	return n;
}

/*
 * Unfinished jobs are bounded per process, whatever files it opened, and
 * per user, whatever processes it runs: with vseg loaded with 96 per
 * user, an unprivileged process queues 64 over three files (each job
 * waiting for a fence) and its 65th SUBMIT waits; a second process of the
 * same user queues the 32 left and waits; a process of another user
 * queues its 64 all the same. Once the fence signals, the waiting
 * SUBMITs go through.
 */
static void test_jobs_limit(void)
{
	const unsigned int per_process = DRM_VSEG_MAX_JOBS_IN_FLIGHT;
	struct vseg_gate g;
	int a[2], b[2], c[2];

	vseg_ctx_load(&ctx, "discrete jobs_user_limit=96");
	render_node_for_all();
	vseg_gate_init(&g);
	igt_assert_eq(pipe(a), 0);
	igt_assert_eq(pipe(b), 0);
	igt_assert_eq(pipe(c), 0);

	/*
	 * The parent keeps only the read ends: a child's exit is an EOF.
	 * SUBMITs that return a second apart are not waiting; the blocker's
	 * fence signals by itself after 10 s, so the waits stay well short.
	 */
	igt_fork(child, 1)
		queue_blocked_jobs(&g, NOBODY, 3, per_process + 1, a[1]);
	close(a[1]);
	igt_assert_eq_u32(count_bytes(a[0], 1000), per_process);
	igt_fork(child, 1)
		queue_blocked_jobs(&g, NOBODY, 1, per_process, b[1]);
	close(b[1]);
	igt_assert_eq_u32(count_bytes(b[0], 1000), 96 - per_process);
	igt_fork(child, 1)
		queue_blocked_jobs(&g, NOBODY - 1, 1, per_process, c[1]);
	close(c[1]);
	igt_assert_eq_u32(count_bytes(c[0], 1000), per_process);
	/* Still waiting, both. */
	igt_assert(!readable(a[0], 500) && !readable(b[0], 0));
	vseg_gate_assert_closed(&g, "the users' jobs were counted");

	vseg_gate_open(&g);
	/* Until each child exits, having queued all its jobs. */
	igt_assert_eq_u32(count_bytes(a[0], 10000), 1);
	igt_assert_eq_u32(count_bytes(b[0], 10000), 2 * per_process - 96);
	igt_assert_eq_u32(count_bytes(c[0], 10000), 0);
	igt_waitchildren();
	vseg_gate_fini(&g);
	close(a[0]);
	close(b[0]);
	close(c[0]);
	vseg_ctx_finish(&ctx, "jobs per process and user");
	vseg_ctx_load(&ctx, "discrete");
}

/* --- DISCARD and UNPIN: the owner's ---------------------------------------------------- */

static void assert_evict_err(int fd, uint32_t h, uint32_t flags, int want,
			     const char *what)
{
	int err = __vseg_evict_flags(fd, &h, 1, flags, NULL);

	igt_assert_f(err == want, "%s: EVICT(0x%x) gave %d (%s), expected %d\n",
		     what, flags, err, vseg_errname(err), want);
}

/*
 * A buffer shared through PRIME (read-only, as far as its owner is
 * concerned): an importer in another process, unprivileged, cannot DISCARD
 * it or UNPIN it, pinned or not; it may EVICT it (the content moves
 * intact). Another file of the owner's own process cannot either, nor can
 * anyone DISCARD a foreign dma-buf's buffer.
 */
static void test_importer_discard(void)
{
	const uint64_t size = SZ_1M;
	struct drm_mode_create_dumb dumb = {
		.width = 1024, .height = 1, .bpp = 32,
	};
	uint32_t v, mine, foreign;
	int dmabuf, fd, vgem, vbuf;

	vseg_ctx_start(&ctx);
	render_node_for_all();
	v = create_in(ctx.fd, 1, size, 0);
	write_pattern(ctx.fd, v, size, VICTIM_SEED);
	resident_in(ctx.fd, v, 1);
	igt_assert_eq(__vseg_make_resident_flags(ctx.fd, &v, 1, PIN, NULL), 0);
	igt_assert_eq(drmPrimeHandleToFD(ctx.fd, v, DRM_CLOEXEC, &dmabuf), 0);

	igt_fork(child, 1) {
		uint32_t h;

		become_user(NOBODY);
		fd = drm_open_vseg_render();
		igt_assert_eq(drmPrimeFDToHandle(fd, dmabuf, &h), 0);
		assert_evict_err(fd, h, DRM_VSEG_RESIDENCY_DISCARD, -EPERM,
				 "an importer's DISCARD of a pinned buffer");
		assert_evict_err(fd, h, UNPIN, -EPERM, "an importer's UNPIN");
		assert_evict_err(fd, h, UNPIN | DRM_VSEG_RESIDENCY_DISCARD,
				 -EPERM, "an importer's UNPIN and DISCARD");
		assert_evict_err(fd, h, 0, -EBUSY,
				 "an importer's EVICT of a pinned buffer");
		close(fd);
	}
	igt_waitchildren();
	assert_pattern(ctx.fd, v, size, VICTIM_SEED, "the pinned victim");
	igt_assert_eq(__vseg_evict_flags(ctx.fd, &v, 1, UNPIN, NULL), 0);
	resident_in(ctx.fd, v, 1);

	igt_fork(child, 1) {
		uint32_t h;

		become_user(NOBODY);
		fd = drm_open_vseg_render();
		igt_assert_eq(drmPrimeFDToHandle(fd, dmabuf, &h), 0);
		assert_evict_err(fd, h, DRM_VSEG_RESIDENCY_DISCARD, -EPERM,
				 "an importer's DISCARD");
		/* A list with one own buffer first: nothing moves either. */
		{
			uint32_t list[2] = {
				vseg_gem_create_simple(fd, SZ_64K, BIT(ctx.ap_id), 0), h,
			};

			igt_assert_eq(__vseg_evict_flags(fd, list, 2,
							 DRM_VSEG_RESIDENCY_DISCARD,
							 NULL), -EPERM);
		}
		/* Moving it is no harm: the content goes along. */
		assert_evict_err(fd, h, 0, 0, "an importer's EVICT");
		assert_pattern(fd, h, size, VICTIM_SEED,
			       "the buffer, evicted by an importer");
		close(fd);
	}
	igt_waitchildren();
	assert_pattern(ctx.fd, v, size, VICTIM_SEED, "the victim");

	/* Another file of the owner's own process is an importer too. */
	fd = drm_open_vseg_render();
	igt_assert_eq(drmPrimeFDToHandle(fd, dmabuf, &mine), 0);
	assert_evict_err(fd, mine, DRM_VSEG_RESIDENCY_DISCARD, -EPERM,
			 "another file of the owner's process");
	vseg_gem_close(fd, mine);

	/* A foreign dma-buf's buffer: its content is the exporter's. */
	igt_require(igt_kmod_load("vgem", NULL) == 0);
	vgem = drm_open_driver(DRIVER_VGEM);
	do_ioctl(vgem, DRM_IOCTL_MODE_CREATE_DUMB, &dumb);
	igt_assert_eq(drmPrimeHandleToFD(vgem, dumb.handle, DRM_CLOEXEC,
					 &vbuf), 0);
	igt_assert_eq(drmPrimeFDToHandle(fd, vbuf, &foreign), 0);
	assert_evict_err(fd, foreign, DRM_VSEG_RESIDENCY_DISCARD, -EPERM,
			 "DISCARD of a foreign dma-buf's buffer");
	vseg_gem_close(fd, foreign);
	close(vbuf);
	close(vgem);
	close(fd);

	/* The owner may. */
	igt_assert_eq(__vseg_evict_flags(ctx.fd, &v, 1,
					 DRM_VSEG_RESIDENCY_DISCARD, NULL), 0);
	assert_zero(ctx.fd, v, size, "discarded by its owner");
	close(dmabuf);
	vseg_gem_close(ctx.fd, v);
	vseg_ctx_finish(&ctx, "importers' DISCARD and UNPIN");
}

/* --- memory cgroups ----------------------------------------------------------------- */

#define CGROOT		"/sys/fs/cgroup"
#define CGDIR		CGROOT "/vseg-isolation"

static bool write_file(const char *path, const char *text)
{
	int f = open(path, O_WRONLY | O_CLOEXEC);
	bool ok;

	if (f < 0)
		return false;
	ok = write(f, text, strlen(text)) == (ssize_t)strlen(text);
	close(f);
	return ok;
}

static bool read_file(const char *path, char *buf, size_t len)
{
	int f = open(path, O_RDONLY | O_CLOEXEC);
	ssize_t n;

	if (f < 0)
		return false;
	n = read(f, buf, len - 1);
	close(f);
	if (n < 0)
		return false;
	buf[n] = '\0';
	return true;
}

static uint64_t cg_current(void)
{
	char buf[64];

	igt_assert(read_file(CGDIR "/memory.current", buf, sizeof(buf)));
	return strtoull(buf, NULL, 10);
}

/* A cgroup v2 with the memory controller for this test; false: none. */
static bool cg_setup(bool *mounted)
{
	char buf[512];

	*mounted = false;
	if (!read_file(CGROOT "/cgroup.controllers", buf, sizeof(buf))) {
		if (mount("none", CGROOT, "cgroup2", 0, NULL))
			return false;
		*mounted = true;
		if (!read_file(CGROOT "/cgroup.controllers", buf, sizeof(buf)))
			return false;
	}
	if (!strstr(buf, "memory"))
		return false;
	write_file(CGROOT "/cgroup.subtree_control", "+memory");
	if (mkdir(CGDIR, 0755) && errno != EEXIST)
		return false;
	return !access(CGDIR "/memory.current", R_OK);
}

static void cg_teardown(bool mounted)
{
	rmdir(CGDIR);
	if (mounted)
		umount(CGROOT);
}

/*
 * What an unprivileged client makes the kernel allocate is charged to its
 * memory cgroup: the backing pages of a memory segment its job writes
 * ("local", never on a PCI BAR), the system pages of its buffers, and the
 * structures of many small buffers; all of it is given back when it closes
 * them. With the page pool off, so that every page is a fresh allocation.
 */
static void test_memcg_charge(void)
{
	const uint64_t seg = 8 * SZ_1M, sys = 8 * SZ_1M;
	const unsigned int small = 4096;
	bool mounted;

	vseg_ctx_load(&ctx, "discrete page_pool_mb=0");
	igt_require_f(cg_setup(&mounted),
		      "no cgroup v2 with the memory controller\n");
	render_node_for_all();
	igt_fork(child, 1) {
		uint64_t base, after_seg, after_sys, after_small, end;
		uint32_t hs, hy, *h = calloc(small, sizeof(*h));
		struct vseg_cmdbuf cb;
		void *map;
		int fd;

		igt_assert(h);
		igt_assert(write_file(CGDIR "/cgroup.procs", "0"));
		become_user(NOBODY);
		fd = drm_open_vseg_render();
		base = cg_current();

		hs = vseg_gem_create_simple(fd, seg, BIT(2), 0);
		vseg_vm_bind(fd, hs, VSEG_VA_ALIGN);
		vseg_cb_init(&cb);
		vseg_cb_fill(&cb, VSEG_VA_ALIGN, seg, 0x5a5a5a5a);
		vseg_cb_exec_ok(fd, RENDER, &cb, "a FILL of the local buffer");
		vseg_cb_fini(&cb);
		vseg_vm_unbind(fd, VSEG_VA_ALIGN);
		igt_assert_eq_u32(vseg_gem_segment(fd, hs), 2);
		after_seg = cg_current();

		hy = vseg_gem_create_simple(fd, sys, BIT(ctx.ap_id), 0);
		map = vseg_gem_mmap(fd, hy, sys, RW);
		memset(map, 0xa5, sys);
		munmap(map, sys);
		after_sys = cg_current();

		for (unsigned int i = 0; i < small; i++)
			h[i] = vseg_gem_create_simple(fd, SZ_4K, BIT(ctx.ap_id), 0);
		after_small = cg_current();
		igt_info("memory.current: %llu KiB, %+lld KiB for %llu MiB of local, %+lld KiB for %llu MiB of system memory, %+lld KiB for %u empty buffers\n",
			 (unsigned long long)base >> 10,
			 (long long)(after_seg - base) / 1024,
			 (unsigned long long)seg >> 20,
			 (long long)(after_sys - after_seg) / 1024,
			 (unsigned long long)sys >> 20,
			 (long long)(after_small - after_sys) / 1024,
			 small);
		igt_assert_f(after_seg >= base + seg - seg / 16,
			     "8 MiB of segment pages written: memory.current grew by %lld KiB\n",
			     (long long)(after_seg - base) / 1024);
		igt_assert_f(after_sys >= after_seg + sys - sys / 16,
			     "8 MiB of system pages written: memory.current grew by %lld KiB\n",
			     (long long)(after_sys - after_seg) / 1024);
		igt_assert_f(after_small >= after_sys + small * 512ull,
			     "%u buffers: memory.current grew by %lld bytes\n",
			     small, (long long)(after_small - after_sys));

		for (unsigned int i = 0; i < small; i++)
			vseg_gem_close(fd, h[i]);
		vseg_gem_close(fd, hs);
		vseg_gem_close(fd, hy);
		close(fd);
		end = cg_current();
		igt_assert_f(end < base + (after_small - base) / 8,
			     "after closing everything memory.current is %llu KiB, %llu KiB before\n",
			     (unsigned long long)end >> 10,
			     (unsigned long long)base >> 10);
		free(h);
	}
	igt_waitchildren();
	cg_teardown(mounted);
	vseg_ctx_finish(&ctx, "memory cgroup charges");
	vseg_ctx_load(&ctx, "discrete");
}

igt_main
{
	igt_fixture {
		vseg_ctx_setup(&ctx);
		vseg_ctx_load(&ctx, "discrete");
		vseg_require_engine(ctx.fd);
	}

	igt_describe("A copy job reading another client's buffer through a "
		     "raw physical address is refused.");
	igt_subtest_with_dynamic("raw-read")
		raw_subtest(read_attack);

	igt_describe("FILL, WRITE and COPY into another client's buffer "
		     "through a raw physical address are refused.");
	igt_subtest_with_dynamic("raw-write")
		raw_subtest(write_attack);

	igt_describe("Raw addresses inside a listed buffer work; past its "
		     "end they are refused.");
	igt_subtest_with_dynamic("listed-bounds") {
		for (uint32_t id = 1; id <= ctx.q.num_segments; id++)
			igt_dynamic_f("%s", vseg_ctx_seg_name(&ctx, id))
				test_listed_bounds(id);
	}

	igt_describe("A closed buffer's bytes are never read back.");
	igt_subtest_with_dynamic("freed-memory") {
		for (uint32_t id = 1; id <= ctx.q.num_segments; id++)
			igt_dynamic_f("%s", vseg_ctx_seg_name(&ctx, id))
				test_freed_memory(id);
	}

	igt_describe("Recycled pages of a memory segment read zero.");
	igt_subtest_with_dynamic("recycled-segment-pages") {
		for (uint32_t id = 1; id <= ctx.q.num_segments; id++)
			if (vseg_ctx_is_memory(&ctx, id))
				igt_dynamic_f("%s", vseg_ctx_seg_name(&ctx, id))
					test_recycled_segment_pages(id);
	}

	igt_describe("Patches only target the address fields of a command.");
	igt_subtest("patch-fields")
		test_patch_fields();

	igt_describe("KMS needs DRM master on the primary node.");
	igt_subtest("scanout-privilege")
		test_scanout_privilege();

	igt_describe("A primary leaves the aperture when its head turns off, "
		     "even while pinned.");
	igt_subtest("primary-unmap-pinned")
		test_primary_unmap_pinned();

	igt_describe("A file pins at most its budget; its pins go with it.");
	igt_subtest("pin-budget")
		test_pin_budget();

	igt_describe("A file cannot drop another file's pins.");
	igt_subtest("pin-ownership")
		test_pin_ownership();

	igt_describe("GPU virtual address mappings per process are bounded.");
	igt_subtest("vm-mappings-limit")
		test_vm_mappings_limit();

	igt_describe("Queued jobs per file are bounded.");
	igt_subtest("jobs-in-flight-limit")
		test_jobs_in_flight_limit();

	igt_describe("MMAP_OFFSET of a buffer the CPU never reaches fails.");
	igt_subtest("mmap-unreachable")
		test_mmap_unreachable();

	igt_describe("A dma-buf mapping follows its buffer across evictions.");
	igt_subtest("prime-mmap-evict")
		test_prime_mmap_evict();

	igt_describe("GEM_CREATE never creates a buffer that cannot live.");
	igt_subtest("create-honest")
		test_create_honest_discrete();

	igt_describe("CPU_VISIBLE buffers on a small BAR, and jobs on them.");
	igt_subtest("smallbar-render") {
		vseg_ctx_load(&ctx, "smallbar");
		test_smallbar_render();
		vseg_ctx_load(&ctx, "discrete");
	}

	igt_describe("Closing and evicting aperture buffers while jobs run.");
	igt_subtest("gart-race")
		test_gart_race();

	igt_describe("Invalid ranges are never allocated nor reached.");
	igt_subtest("invalid-ranges")
		test_invalid_ranges();

	igt_describe("Pages freed by another process never show through "
		     "ptrace access to a buffer whose move is queued.");
	igt_subtest("freed-bytes-ptrace")
		test_freed_bytes_ptrace();

	igt_describe("A freed protected buffer's plaintext never shows "
		     "through ptrace access to another buffer's move.");
	igt_subtest("protected-plaintext-ptrace")
		test_protected_plaintext_ptrace();

	igt_describe("Protected buffers never live in the aperture or in "
		     "system memory but encrypted.");
	igt_subtest("protected-aperture-refused")
		test_protected_aperture();

	igt_describe("The files of one process share the process's pin "
		     "share.");
	igt_subtest("pin-limit-process")
		test_pin_limit_process();

	igt_describe("The processes of one user share the user's pin share.");
	igt_subtest("pin-limit-user")
		test_pin_limit_user();

	igt_describe("All clients together pin at most the device's share.");
	igt_subtest("pin-limit-device")
		test_pin_limit_device();

	igt_describe("A job that would run for minutes is stopped at the time "
		     "limit and holds the engine no longer; one that would "
		     "write more than job_max_mb is refused.");
	igt_subtest("job-time-limit")
		test_job_time_limit();

	igt_describe("Unfinished jobs are bounded per process and per user, "
		     "not per file.");
	igt_subtest("jobs-limit")
		test_jobs_limit();

	igt_describe("Only the owning file may DISCARD or UNPIN a buffer.");
	igt_subtest("importer-discard")
		test_importer_discard();

	igt_describe("Kernel memory a client causes is charged to its "
		     "memory cgroup.");
	igt_subtest("memcg-charge")
		test_memcg_charge();

	igt_fixture
		vseg_ctx_unload(&ctx);
}
