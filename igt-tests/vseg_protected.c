// SPDX-License-Identifier: MIT
/*
 * vseg_protected: protected buffers (DRM_VSEG_GEM_CREATE_PROTECTED) in the
 * video protected region of a VprSupported segment. They stay inside the
 * region past its reserve, never reach the CPU (mmap, PRIME), never leak
 * through a copy into unprotected memory, count against NumVprSupported
 * as extents, page out only encrypted (EncryptedPagingSupported) and lose
 * their content in a standby without VprPreservedDuringStandby. The
 * content of a protected buffer is checked through debugfs's "vpr" file,
 * which shows its CRC32 and first bytes where it is (plaintext in its
 * segment, ciphertext in system memory).
 *
 * Copyright (c) 2026 The vseg authors
 */
/**
 * TEST: vseg protected
 * Category: Core
 * Mega feature: General Core features
 * Sub-category: Memory management
 * Functionality: protected memory
 * Description: Protected buffers in the video protected region (VPR):
 *	placement, CPU and PRIME refusal, copy-out refusal, the
 *	NumVprSupported bound, encrypted paging and standby loss.
 *
 * SUBTEST: placement
 * Description: Protected buffers are contiguous inside the VPR past its
 *	reserve (GEM_INFO), never CPU-mappable; PROTECTED with CPU_VISIBLE,
 *	without a VprSupported segment, with anything but VprSupported
 *	segments supported, with an eviction set or larger than the region
 *	is EINVAL.
 *
 * SUBTEST: mmap-refused
 * Description: GEM_MMAP_OFFSET of a protected buffer is EPERM; an offset
 *	from MODE_MAP_DUMB cannot be mapped.
 *
 * SUBTEST: prime-refused
 * Description: PRIME export of a protected buffer is EPERM.
 *
 * SUBTEST: copy-out-refused
 * Description: A COPY from a protected buffer into an unprotected one
 *	fails the job's fence with EFAULT and leaves the destination
 *	untouched; FILL into a protected buffer works.
 *
 * SUBTEST: copy-protected
 * Description: A COPY between two protected buffers carries the content
 *	(same CRC32 and first bytes in debugfs).
 *
 * SUBTEST: extents
 * Description: NumVprSupported bounds the disjoint extents: a buffer
 *	touching an extent joins it, one that would add an extent beyond the
 *	bound is ENOSPC.
 *
 * SUBTEST: encrypted-paging
 * Description: With EncryptedPagingSupported, EVICT moves a protected
 *	buffer to system memory encrypted (its bytes there differ from the
 *	plaintext) and MAKE_RESIDENT brings it back intact.
 *
 * SUBTEST: evict-busy
 * Description: Without EncryptedPagingSupported, EVICT of a protected
 *	buffer is EBUSY and memory pressure does not move it.
 *
 * SUBTEST: hostile-client
 * Description: Another process cannot map, export or copy out its own
 *	protected buffers, cannot reach the victim's, and uses the
 *	NumVprSupported bound only through its own buffers, which it gives
 *	back when it exits; the victim's content is unchanged.
 *
 * SUBTEST: standby-lost
 * Description: A standby wipes the protected buffers of a segment without
 *	VprPreservedDuringStandby (GEM_INFO CONTENT_LOST, zero content) and
 *	keeps those of a segment with it.
 */

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <unistd.h>

#include "igt.h"
#include "igt_vseg.h"

#define COPY		DRM_VSEG_ENGINE_COPY
#define BUF		SZ_64K
#define PROT		DRM_VSEG_GEM_CREATE_PROTECTED
/* Protected and listed by physical jobs (contiguous anyway). */
#define PROT_AP		(PROT | DRM_VSEG_GEM_CREATE_ACCESSED_PHYSICALLY)

/*
 * "enc": EncryptedPagingSupported and VprPreservedDuringStandby, VPR
 * [4M, 6M) with a 64K reserve, no extent bound. "fixed": neither, VPR
 * [0, 1M), at most two extents. "plain": no VPR, CPU-visible.
 */
#define SEGMENTS \
	"memory:name=enc,size=16M,flags=vpr|vprstandby|encryptedpaging," \
	"vprstart=4M,vprsize=2M,vpralign=1M,vprreserve=64K;" \
	"memory:name=fixed,size=8M,flags=vpr,vprstart=0,vprsize=1M," \
	"vpralign=1M,vprcount=2;" \
	"memory:name=plain,size=8M,flags=cpuvisible,cpu=0xe0000000;" \
	"aperture:name=gart,size=16M"

static struct vseg_ctx ctx = VSEG_CTX_INIT_ENGINE(VSEG_LEFTOVERS_NONE_OURS);
static uint32_t enc, fixed, plain;

static void load(void)
{
	vseg_ctx_load_f(&ctx, "discrete table=%s", SEGMENTS);
	enc = vseg_segment_by_name(&ctx.q, ctx.segs, "enc");
	fixed = vseg_segment_by_name(&ctx.q, ctx.segs, "fixed");
	plain = vseg_segment_by_name(&ctx.q, ctx.segs, "plain");
}

static int __create_prot(int fd, uint32_t seg, uint64_t size,
			 uint64_t alignment, uint32_t *handle)
{
	struct drm_vseg_gem_create c;
	int err;

	vseg_create_args(&c, size, 1u << seg, PROT_AP);
	c.alignment = alignment;
	err = __vseg_gem_create(fd, &c);
	*handle = c.handle;
	return err;
}

static uint32_t create_prot(int fd, uint32_t seg, uint64_t size)
{
	uint32_t h;
	int err = __create_prot(fd, seg, size, 0, &h);

	igt_assert_f(!err, "protected create in segment %u: %s\n", seg,
		     vseg_errname(err));
	return h;
}

/* A contiguous CPU-visible buffer in "plain", filled with @value. */
static uint32_t create_plain(int fd, uint32_t value)
{
	uint32_t h = vseg_gem_create_simple(fd, BUF, 1u << plain,
					    DRM_VSEG_GEM_CREATE_ACCESSED_PHYSICALLY |
					    DRM_VSEG_GEM_CREATE_CPU_VISIBLE);
	uint32_t *p = vseg_gem_mmap(fd, h, BUF, PROT_READ | PROT_WRITE);

	for (unsigned int i = 0; i < BUF / 4; i++)
		p[i] = value;
	munmap(p, BUF);
	return h;
}

/* Assert, through a CPU mapping, that every word of @h is @value. */
static void check_plain(int fd, uint32_t h, uint32_t value, const char *what)
{
	uint32_t *p = vseg_gem_mmap(fd, h, BUF, PROT_READ);

	for (unsigned int i = 0; i < BUF / 4; i++)
		igt_assert_f(p[i] == value, "%s: word %u is 0x%08x, not 0x%08x\n",
			     what, i, p[i], value);
	munmap(p, BUF);
}

static void fill(int fd, uint32_t h, uint32_t value)
{
	struct vseg_cmdbuf cb;

	vseg_cb_init(&cb);
	vseg_cb_fill_phys(&cb, h, 0, BUF, value);
	vseg_cb_exec_ok(fd, COPY, &cb, "FILL of a protected buffer");
	vseg_cb_fini(&cb);
}

static int copy(int fd, uint32_t dst, uint32_t src)
{
	struct vseg_cmdbuf cb;
	int ret;

	vseg_cb_init(&cb);
	vseg_cb_copy_phys(&cb, dst, 0, src, 0, BUF);
	ret = vseg_cb_exec(fd, COPY, &cb);
	vseg_cb_fini(&cb);
	return ret;
}

/* What debugfs "vpr" says of a protected buffer. */
struct vpr_view {
	uint32_t segment;
	bool encrypted, lost;
	char crc[16];
	char head[40];
};

static void vpr_view(int fd, uint32_t h, struct vpr_view *v)
{
	struct drm_vseg_gem_info info;
	struct vseg_debugfs_file f;
	bool found = false;

	vseg_gem_info(fd, h, &info);
	vseg_debugfs_read(fd, "vpr", NULL, &f);
	for (unsigned int i = 0; i < f.num_lines; i++) {
		const struct vseg_debugfs_line *l = &f.line[i];

		if (!vseg_debugfs_is(l, "bo") || l->id != info.buffer_id)
			continue;
		found = true;
		v->segment = vseg_debugfs_u64(l, "segment");
		v->encrypted = vseg_debugfs_bool(l, "encrypted");
		v->lost = vseg_debugfs_bool(l, "content_lost");
		igt_assert(vseg_debugfs_value(l, "crc32"));
		igt_assert(vseg_debugfs_value(l, "head"));
		snprintf(v->crc, sizeof(v->crc), "%s",
			 vseg_debugfs_value(l, "crc32"));
		snprintf(v->head, sizeof(v->head), "%s",
			 vseg_debugfs_value(l, "head"));
	}
	vseg_debugfs_free(&f);
	igt_assert_f(found, "buffer %llu is not in debugfs vpr\n",
		     (unsigned long long)info.buffer_id);
}

/* The first 16 bytes of a buffer filled with @value, as debugfs prints them. */
static void pattern_head(uint32_t value, char *out)
{
	for (int i = 0; i < 4; i++)
		sprintf(out + 8 * i, "%02x%02x%02x%02x", value & 0xff,
			(value >> 8) & 0xff, (value >> 16) & 0xff, value >> 24);
}

static void assert_content(int fd, uint32_t h, uint32_t value,
			   const char *what)
{
	struct vpr_view v;
	char want[40];

	pattern_head(value, want);
	vpr_view(fd, h, &v);
	igt_assert_f(!strcmp(v.head, want), "%s: head=%s, expected %s\n",
		     what, v.head, want);
}

static uint64_t extents(int fd, uint32_t seg)
{
	struct vseg_debugfs_file f;
	uint64_t n = UINT64_MAX;

	vseg_debugfs_read(fd, "vpr", NULL, &f);
	for (unsigned int i = 0; i < f.num_lines; i++)
		if (vseg_debugfs_is(&f.line[i], "segment") &&
		    f.line[i].id == seg)
			n = vseg_debugfs_u64(&f.line[i], "extents");
	vseg_debugfs_free(&f);
	igt_assert(n != UINT64_MAX);
	return n;
}

static int prime_export(int fd, uint32_t h)
{
	struct drm_prime_handle args = { .handle = h, .flags = DRM_CLOEXEC };

	if (ioctl(fd, DRM_IOCTL_PRIME_HANDLE_TO_FD, &args))
		return -errno;
	close(args.fd);
	return 0;
}

/* --- subtests ----------------------------------------------------------- */

static void test_placement(void)
{
	const struct drm_vseg_segment_info *s = &ctx.segs[enc - 1];
	uint64_t lo = s->vpr_range_start_offset + s->vpr_reserve_size;
	uint64_t hi = s->vpr_range_start_offset + s->vpr_range_size;
	struct drm_vseg_gem_create c;
	struct drm_vseg_gem_info info;
	uint32_t h[4];

	igt_assert_eq_u64(lo, 4 * SZ_1M + SZ_64K);
	for (int i = 0; i < 4; i++) {
		h[i] = create_prot(ctx.fd, enc, BUF);
		vseg_gem_info(ctx.fd, h[i], &info);
		igt_assert_eq_u32(info.segment_id, enc);
		igt_assert(info.placement_flags & DRM_VSEG_INFO_CONTIGUOUS);
		igt_assert(!(info.placement_flags & DRM_VSEG_INFO_CPU_MAPPABLE));
		igt_assert(!(info.placement_flags & DRM_VSEG_INFO_CONTENT_LOST));
		igt_assert_eq_u32(info.create_flags, PROT_AP);
		igt_assert_f(info.offset >= lo && info.offset + BUF <= hi,
			     "protected buffer at 0x%llx, outside [0x%llx, 0x%llx)\n",
			     (unsigned long long)info.offset,
			     (unsigned long long)lo, (unsigned long long)hi);
	}

	/* Contradictions. */
	vseg_create_args(&c, BUF, 1u << enc,
			 PROT | DRM_VSEG_GEM_CREATE_CPU_VISIBLE);
	igt_assert_eq(__vseg_gem_create(ctx.fd, &c), -EINVAL);
	vseg_create_args(&c, BUF, 1u << plain | 1u, PROT);
	igt_assert_eq(__vseg_gem_create(ctx.fd, &c), -EINVAL);
	vseg_create_args(&c, BUF, 1u << enc | 1u << ctx.ap_id, PROT);
	c.eviction_segments = 1u << ctx.ap_id;
	igt_assert_eq(__vseg_gem_create(ctx.fd, &c), -EINVAL);
	/*
	 * Since 0.6 VprSupported segments only: system memory (reached by
	 * eviction only, encrypted), the aperture or an ordinary segment
	 * beside the VPR is EINVAL too.
	 */
	vseg_create_args(&c, BUF, 1u << enc | 1u, PROT);
	igt_assert_eq(__vseg_gem_create(ctx.fd, &c), -EINVAL);
	vseg_create_args(&c, BUF, 1u << enc | 1u << ctx.ap_id, PROT);
	igt_assert_eq(__vseg_gem_create(ctx.fd, &c), -EINVAL);
	vseg_create_args(&c, BUF, 1u << enc | 1u << plain, PROT);
	igt_assert_eq(__vseg_gem_create(ctx.fd, &c), -EINVAL);
	/* Two VprSupported segments are fine. */
	vseg_create_args(&c, BUF, 1u << enc | 1u << fixed, PROT);
	igt_assert_eq(__vseg_gem_create(ctx.fd, &c), 0);
	vseg_gem_close(ctx.fd, c.handle);
	/* The region less its reserve is the most a buffer can have. */
	vseg_create_args(&c, hi - lo + SZ_64K, 1u << enc, PROT);
	igt_assert_eq(__vseg_gem_create(ctx.fd, &c), -EINVAL);
	/* An unknown flag next to it is still refused. */
	vseg_create_args(&c, BUF, 1u << enc, PROT | (1u << 31));
	igt_assert_eq(__vseg_gem_create(ctx.fd, &c), -EINVAL);

	for (int i = 0; i < 4; i++)
		vseg_gem_close(ctx.fd, h[i]);
}

static void test_mmap_refused(void)
{
	uint32_t h = create_prot(ctx.fd, enc, BUF);
	struct drm_mode_map_dumb md = { .handle = h };
	uint64_t off;
	void *p;

	igt_assert_eq(__vseg_gem_mmap_offset(ctx.fd, h, &off), -EPERM);
	if (!ioctl(ctx.fd, DRM_IOCTL_MODE_MAP_DUMB, &md)) {
		p = mmap(NULL, BUF, PROT_READ, MAP_SHARED, ctx.fd, md.offset);
		igt_assert_f(p == MAP_FAILED,
			     "a protected buffer was mapped through MAP_DUMB\n");
		igt_assert_eq(errno, EPERM);
	}
	vseg_gem_close(ctx.fd, h);
}

static void test_prime_refused(void)
{
	uint32_t h = create_prot(ctx.fd, enc, BUF);
	uint32_t other = create_plain(ctx.fd, 0x1);

	igt_assert_eq(prime_export(ctx.fd, h), -EPERM);
	/* An ordinary buffer still exports. */
	igt_assert_eq(prime_export(ctx.fd, other), 0);
	vseg_gem_close(ctx.fd, h);
	vseg_gem_close(ctx.fd, other);
}

static void test_copy_out_refused(void)
{
	uint32_t h = create_prot(ctx.fd, enc, BUF);
	uint32_t dst = create_plain(ctx.fd, 0x11111111);

	fill(ctx.fd, h, 0x5eca5eca);
	assert_content(ctx.fd, h, 0x5eca5eca, "the filled protected buffer");
	igt_assert_eq(copy(ctx.fd, dst, h), -EFAULT);
	check_plain(ctx.fd, dst, 0x11111111, "the refused copy's destination");
	/* The other way is allowed. */
	igt_assert_eq(copy(ctx.fd, h, dst), 0);
	assert_content(ctx.fd, h, 0x11111111, "protected after a copy in");
	vseg_gem_close(ctx.fd, h);
	vseg_gem_close(ctx.fd, dst);
}

static void test_copy_protected(void)
{
	uint32_t a = create_prot(ctx.fd, enc, BUF);
	uint32_t b = create_prot(ctx.fd, fixed, BUF);
	struct vpr_view va, vb;

	fill(ctx.fd, a, 0xc0ffee00);
	igt_assert_eq(copy(ctx.fd, b, a), 0);
	vpr_view(ctx.fd, a, &va);
	vpr_view(ctx.fd, b, &vb);
	igt_assert_f(!strcmp(va.crc, vb.crc), "crc32 %s after copying %s\n",
		     vb.crc, va.crc);
	assert_content(ctx.fd, b, 0xc0ffee00, "the copy");
	vseg_gem_close(ctx.fd, a);
	vseg_gem_close(ctx.fd, b);
}

static void test_extents(void)
{
	uint32_t p1, p2, p3, p4;

	/* p1 at the start of "fixed"'s region, p2 apart: two extents. */
	p1 = create_prot(ctx.fd, fixed, BUF);
	igt_assert_eq_u64(extents(ctx.fd, fixed), 1);
	igt_assert_eq(__create_prot(ctx.fd, fixed, BUF, SZ_512K, &p2), 0);
	igt_assert_eq_u64(extents(ctx.fd, fixed), 2);
	/* A third apart is over the bound of two. */
	igt_assert_eq(__create_prot(ctx.fd, fixed, BUF, SZ_256K, &p3),
		      -ENOSPC);
	igt_assert_eq_u64(extents(ctx.fd, fixed), 2);
	/* One touching p1 joins its extent. */
	p4 = create_prot(ctx.fd, fixed, BUF);
	igt_assert_eq_u64(extents(ctx.fd, fixed), 2);
	vseg_gem_close(ctx.fd, p2);
	igt_assert_eq_u64(extents(ctx.fd, fixed), 1);
	igt_assert_eq(__create_prot(ctx.fd, fixed, BUF, SZ_256K, &p3), 0);
	igt_assert_eq_u64(extents(ctx.fd, fixed), 2);
	vseg_gem_close(ctx.fd, p1);
	vseg_gem_close(ctx.fd, p3);
	vseg_gem_close(ctx.fd, p4);
	igt_assert_eq_u64(extents(ctx.fd, fixed), 0);
}

static void test_encrypted_paging(void)
{
	uint32_t h = create_prot(ctx.fd, enc, BUF);
	uint32_t b = create_prot(ctx.fd, enc, BUF);
	struct vpr_view before, out, back, vb;
	char plain_head[40];

	fill(ctx.fd, h, 0x600dcafe);
	pattern_head(0x600dcafe, plain_head);
	vpr_view(ctx.fd, h, &before);
	igt_assert_eq_u32(before.segment, enc);
	igt_assert(!before.encrypted);

	vseg_evict(ctx.fd, &h, 1);
	igt_assert_eq_u32(vseg_gem_segment(ctx.fd, h), 0);
	vpr_view(ctx.fd, h, &out);
	igt_assert_eq_u32(out.segment, 0);
	igt_assert(out.encrypted);
	igt_assert_f(strcmp(out.head, plain_head),
		     "the system copy shows the plaintext %s\n", out.head);
	igt_assert_f(strcmp(out.crc, before.crc),
		     "the system copy has the plaintext's crc32 %s\n", out.crc);

	vseg_make_resident(ctx.fd, &h, 1);
	igt_assert_eq_u32(vseg_gem_segment(ctx.fd, h), enc);
	vpr_view(ctx.fd, h, &back);
	igt_assert(!back.encrypted);
	igt_assert_f(!strcmp(back.crc, before.crc),
		     "crc32 %s after the round trip, %s before\n", back.crc,
		     before.crc);
	assert_content(ctx.fd, h, 0x600dcafe, "after the round trip");

	/* A second trip takes a new stream: another ciphertext. */
	vseg_evict(ctx.fd, &h, 1);
	vpr_view(ctx.fd, h, &vb);
	igt_assert(vb.encrypted);
	igt_assert_f(strcmp(vb.head, out.head),
		     "two evictions gave the same ciphertext %s\n", vb.head);
	/* A job brings it back too; the engine sees the plaintext. */
	igt_assert_eq(copy(ctx.fd, b, h), 0);
	assert_content(ctx.fd, b, 0x600dcafe, "copied after a second trip");
	vseg_gem_close(ctx.fd, h);
	vseg_gem_close(ctx.fd, b);
}

static void test_evict_busy(void)
{
	uint32_t h = create_prot(ctx.fd, fixed, BUF);
	struct drm_vseg_gem_info before, after;
	struct drm_vseg_gem_create c;

	fill(ctx.fd, h, 0xb05b05);
	vseg_gem_info(ctx.fd, h, &before);
	igt_assert_eq(__vseg_evict(ctx.fd, &h, 1, NULL), -EBUSY);
	/* Pressure: a buffer that needs the whole segment cannot evict it. */
	vseg_create_args(&c, 8 * SZ_1M, 1u << fixed,
			 DRM_VSEG_GEM_CREATE_ACCESSED_PHYSICALLY);
	igt_assert_eq(__vseg_gem_create(ctx.fd, &c), -ENOSPC);
	vseg_gem_info(ctx.fd, h, &after);
	igt_assert_eq_u32(after.segment_id, fixed);
	igt_assert_eq_u64(after.offset, before.offset);
	igt_assert_eq_u64(after.moves, before.moves);
	assert_content(ctx.fd, h, 0xb05b05, "after EVICT and pressure");
	vseg_gem_close(ctx.fd, h);
}

static void attacker(const struct drm_vseg_gem_info *victim)
{
	int fd = drm_open_vseg_render();
	uint32_t own = create_prot(fd, fixed, BUF), p, q;
	uint32_t dst = create_plain(fd, 0x22222222);
	struct vseg_cmdbuf cb;
	uint64_t off;
	uint32_t cmd;

	/* Its own protected buffer: no map, no export, no copy out. */
	igt_assert_eq(__vseg_gem_mmap_offset(fd, own, &off), -EPERM);
	igt_assert_eq(prime_export(fd, own), -EPERM);
	fill(fd, own, 0x0b0b0b0b);
	igt_assert_eq(copy(fd, dst, own), -EFAULT);
	check_plain(fd, dst, 0x22222222, "the refused copy's destination");

	/* The victim's, by its physical address: not listed, refused. */
	vseg_cb_init(&cb);
	cmd = vseg_cb_copy(&cb, 0, victim->gpu_address, BUF);
	vseg_cb_patch(&cb, cmd, VSEG_CMD_DST, dst, 0, true);
	igt_assert_eq(__vseg_cb_submit(fd, COPY, &cb, NULL, 0, NULL, 0),
		      -EINVAL);
	vseg_cb_fini(&cb);
	check_plain(fd, dst, 0x22222222, "after the raw-address copy");

	/* The bound: its own extents only, up to the device's two. */
	igt_assert_eq(__create_prot(fd, fixed, BUF, SZ_512K, &p), 0);
	igt_assert_eq(__create_prot(fd, fixed, BUF, SZ_256K, &q), -ENOSPC);
	close(fd);
}

static void test_hostile_client(void)
{
	uint32_t h = create_prot(ctx.fd, fixed, BUF), p;
	struct drm_vseg_gem_info info;
	struct vpr_view before, after;

	fill(ctx.fd, h, 0x7777aaaa);
	vseg_gem_info(ctx.fd, h, &info);
	vpr_view(ctx.fd, h, &before);

	igt_fork(child, 1)
		attacker(&info);
	igt_waitchildren();

	vpr_view(ctx.fd, h, &after);
	igt_assert_f(!strcmp(before.crc, after.crc),
		     "the victim's content changed: crc32 %s, was %s\n",
		     after.crc, before.crc);
	/* The attacker's extents went with it. */
	igt_assert_eq(__create_prot(ctx.fd, fixed, BUF, SZ_512K, &p), 0);
	igt_assert_eq_u64(extents(ctx.fd, fixed), 2);
	vseg_gem_close(ctx.fd, p);
	vseg_gem_close(ctx.fd, h);
}

/* Write "standby" to the device's sysfs pm. */
static void standby(void)
{
	int f = open("/sys/bus/platform/devices/vseg/pm", O_WRONLY | O_CLOEXEC);

	igt_require_f(f >= 0, "no sysfs pm: %s\n", strerror(errno));
	igt_assert_eq(write(f, "standby", 7), 7);
	close(f);
}

static void test_standby_lost(void)
{
	uint32_t kept = create_prot(ctx.fd, enc, BUF);
	uint32_t lost = create_prot(ctx.fd, fixed, BUF);
	uint32_t zero = create_prot(ctx.fd, fixed, BUF);
	struct drm_vseg_gem_info info;
	struct vpr_view vl, vz;

	fill(ctx.fd, kept, 0x5a5a1234);
	fill(ctx.fd, lost, 0x5a5a5678);
	standby();

	vseg_gem_info(ctx.fd, lost, &info);
	igt_assert(info.placement_flags & DRM_VSEG_INFO_CONTENT_LOST);
	igt_assert_eq_u32(info.segment_id, fixed);
	assert_content(ctx.fd, lost, 0, "the wiped buffer");
	vpr_view(ctx.fd, lost, &vl);
	vpr_view(ctx.fd, zero, &vz);
	igt_assert(vl.lost);
	igt_assert_f(!strcmp(vl.crc, vz.crc),
		     "the wiped buffer's crc32 %s is not a zero buffer's %s\n",
		     vl.crc, vz.crc);

	vseg_gem_info(ctx.fd, kept, &info);
	igt_assert(!(info.placement_flags & DRM_VSEG_INFO_CONTENT_LOST));
	assert_content(ctx.fd, kept, 0x5a5a1234, "the preserved buffer");
	/* Lost stays lost, even once written again. */
	fill(ctx.fd, lost, 0x1);
	vseg_gem_info(ctx.fd, lost, &info);
	igt_assert(info.placement_flags & DRM_VSEG_INFO_CONTENT_LOST);

	vseg_gem_close(ctx.fd, kept);
	vseg_gem_close(ctx.fd, lost);
	vseg_gem_close(ctx.fd, zero);
}

igt_main
{
	static const struct {
		const char *name;
		void (*test)(void);
		const char *describe;
	} tests[] = {
		{ "placement", test_placement,
		  "Protected buffers lie inside the VPR past its reserve; "
		  "contradictory creates are EINVAL." },
		{ "mmap-refused", test_mmap_refused,
		  "A protected buffer cannot be mapped for the CPU." },
		{ "prime-refused", test_prime_refused,
		  "A protected buffer cannot be exported." },
		{ "copy-out-refused", test_copy_out_refused,
		  "A copy from protected into unprotected memory fails with "
		  "EFAULT and writes nothing." },
		{ "copy-protected", test_copy_protected,
		  "A copy between protected buffers works." },
		{ "extents", test_extents,
		  "NumVprSupported bounds the disjoint protected extents." },
		{ "encrypted-paging", test_encrypted_paging,
		  "Eviction encrypts the system copy; the way back decrypts "
		  "it intact." },
		{ "evict-busy", test_evict_busy,
		  "Without encrypted paging a protected buffer never leaves "
		  "its segment." },
		{ "hostile-client", test_hostile_client,
		  "A second process cannot read, map, export or copy out "
		  "protected content, nor hold the extent bound past its "
		  "exit." },
		{ "standby-lost", test_standby_lost,
		  "Standby wipes protected content unless the segment has "
		  "VprPreservedDuringStandby." },
	};

	igt_fixture {
		vseg_ctx_setup(&ctx);
		load();
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
