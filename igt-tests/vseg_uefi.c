// SPDX-License-Identifier: MIT
/*
 * vseg_uefi: the UEFI frame buffers of a memory segment
 * (DXGK_SEGMENTDESCRIPTOR4.NumUEFIFrameBufferRanges).
 *
 * The firmware scans out of them when vseg loads: they are held as the
 * firmware image, in no buffer, painted with a splash, and shown by head 0
 * in debugfs "display", until the first KMS modeset hands the display over;
 * then their memory is allocatable like the rest.
 *
 * Copyright (c) 2026 The vseg authors
 */
/**
 * TEST: vseg uefi
 * Category: Core
 * Mega feature: General Core features
 * Sub-category: Display
 * Functionality: firmware frame buffers
 * Description: The UEFI frame-buffer ranges of a memory segment are held as
 *	the firmware image until the first KMS modeset: never allocated before it,
 *	shown with their splash in debugfs, allocatable after it; a client
 *	that is not the DRM master can neither hand them over nor read them.
 *
 * SUBTEST: held-before-scanout
 * Description: QUERY_SEGMENTS lists the table's UEFI ranges; filling the
 *	segment with contiguous buffers puts none of them in a UEFI range,
 *	and usage does not count the held ranges.
 *
 * SUBTEST: firmware-image
 * Description: debugfs "display" shows the firmware image on head 0 (its
 *	segment, ranges and splash word) with the checksum of the splash the
 *	documentation gives; the segments file lists the held ranges as the
 *	query does.
 *
 * SUBTEST: handover
 * Description: The first KMS modeset, on head 1, releases the ranges: the query
 *	lists none, head 0 no longer shows the firmware image, and a segment
 *	filled with buffers puts one in each former range, reading zero (not
 *	the splash).
 *
 * SUBTEST: hostile-client
 * Description: Another file of the card node and a render node cannot
 *	KMS (EACCES), so the ranges stay held and the image unchanged;
 *	the copy engine refuses their COPY from a range's raw GPU address;
 *	their buffers, filling the segment, never land in a range and read
 *	zero.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "igt.h"
#include "igt_vseg.h"
#include "igt_vseg_exec.h"

IGT_TEST_DESCRIPTION("The UEFI frame-buffer ranges of a memory segment are "
		     "held as the firmware image until the first KMS modeset, "
		     "then allocatable; a client that is not the DRM master "
		     "can neither hand them over nor read them.");

/* 16 MiB of memory segment, firmware frame buffers at 0 and 8 MiB. */
#define TABLE	"discrete table=memory:name=vram,size=16M,flags=cpuvisible," \
		"cpu=0xe0000000,visible=16M,uefi=0+1M/8M+1M;" \
		"aperture:name=aperture,size=32M"
#define SEG		1u
#define SEG_SIZE	(16ull << 20)
#define MIB		(1ull << 20)
#define NUM_UEFI	2u
#define MAX_BUFS	16u

static const struct drm_vseg_range uefi[NUM_UEFI] = {
	{ .start = 0, .size = MIB },
	{ .start = 8 * MIB, .size = MIB },
};

static struct vseg_ctx ctx = VSEG_CTX_INIT_ENGINE(VSEG_LEFTOVERS_BASE_COUNT);

/* The splash of the documentation: the word at segment offset @off. */
static uint32_t splash_word(uint64_t off)
{
	return 0x7e000000u | (uint32_t)((off >> 2) & 0x00ffffffu);
}

/* FNV-1a over the 32-bit words of the ranges, as debugfs computes it. */
static uint64_t splash_checksum(void)
{
	uint64_t h = 0xcbf29ce484222325ull;

	for (unsigned int r = 0; r < NUM_UEFI; r++)
		for (uint64_t off = uefi[r].start;
		     off < uefi[r].start + uefi[r].size; off += 4)
			h = (h ^ splash_word(off)) * 0x100000001b3ull;
	return h;
}

static bool overlaps(uint64_t a, uint64_t alen, uint64_t b, uint64_t blen)
{
	return a < b + blen && b < a + alen;
}

static struct drm_vseg_segment_info query_seg(int fd)
{
	struct drm_vseg_query_segments q;
	struct drm_vseg_segment_info *segs, s;

	segs = vseg_query_all(fd, &q);
	igt_assert(q.num_segments >= SEG);
	s = segs[SEG - 1];
	free(segs);
	return s;
}

static void check_held(int fd, bool held)
{
	struct drm_vseg_segment_info s = query_seg(fd);

	if (!held) {
		igt_assert_f(s.num_uefi_frame_buffer_ranges == 0,
			     "%u UEFI ranges still held after the handover\n",
			     s.num_uefi_frame_buffer_ranges);
		return;
	}
	igt_assert_eq_u32(s.num_uefi_frame_buffer_ranges, NUM_UEFI);
	for (unsigned int i = 0; i < NUM_UEFI; i++) {
		igt_assert_eq_u64(s.uefi_frame_buffer_ranges[i].start,
				  uefi[i].start);
		igt_assert_eq_u64(s.uefi_frame_buffer_ranges[i].size,
				  uefi[i].size);
	}
}

/*
 * Fill the segment from @fd with 1 MiB contiguous buffers: @want of them
 * must land in it; none overlaps a held range. Returns how many were
 * created (in @h), and in @in_range, per UEFI range, a buffer in it or 0.
 */
static unsigned int fill(int fd, uint32_t *h, unsigned int n, unsigned int want,
			 bool held, uint32_t *in_range)
{
	struct drm_vseg_gem_info info;
	unsigned int in_seg = 0;

	for (unsigned int i = 0; i < NUM_UEFI; i++)
		in_range[i] = 0;
	for (unsigned int i = 0; i < n; i++) {
		h[i] = vseg_gem_create_in(fd, MIB, SEG,
					  DRM_VSEG_GEM_CREATE_ACCESSED_PHYSICALLY);
	}
	for (unsigned int i = 0; i < n; i++) {
		vseg_gem_info(fd, h[i], &info);
		if (info.segment_id != SEG)
			continue;
		igt_assert_f(info.placement_flags & DRM_VSEG_INFO_CONTIGUOUS,
			     "a buffer with AccessedPhysically is not contiguous\n");
		in_seg++;
		for (unsigned int r = 0; r < NUM_UEFI; r++) {
			if (!overlaps(info.offset, MIB, uefi[r].start,
				      uefi[r].size))
				continue;
			igt_assert_f(!held,
				     "buffer at 0x%llx overlaps held UEFI range [0x%llx, +0x%llx)\n",
				     (unsigned long long)info.offset,
				     (unsigned long long)uefi[r].start,
				     (unsigned long long)uefi[r].size);
			in_range[r] = h[i];
		}
	}
	igt_assert_f(in_seg >= want,
		     "%u of %u buffers in the segment, expected at least %u\n",
		     in_seg, n, want);
	return n;
}

static void close_all(int fd, const uint32_t *h, unsigned int n)
{
	for (unsigned int i = 0; i < n; i++)
		vseg_gem_close(fd, h[i]);
}

/* Head 0's line of debugfs "display". */
static void check_image(int fd, bool shown)
{
	struct vseg_debugfs_file f;
	const struct vseg_debugfs_line *l = NULL;
	const char *v;
	char want[128];

	vseg_debugfs_read(fd, "display", NULL, &f);
	for (unsigned int i = 0; i < f.num_lines && !l; i++)
		if (vseg_debugfs_is(&f.line[i], "head") && f.line[i].id == 0)
			l = &f.line[i];
	igt_assert_f(l, "debugfs display has no head 0\n");
	v = vseg_debugfs_value(l, "firmware");
	if (!shown) {
		igt_assert_f(!v, "head 0 still shows the firmware image: \"%s\"\n",
			     l->text);
		vseg_debugfs_free(&f);
		return;
	}
	igt_assert_f(v && !strcmp(v, "1"),
		     "head 0 does not show the firmware image: \"%s\"\n",
		     l->text);
	igt_assert_eq_u64(vseg_debugfs_u64(l, "segment"), SEG);
	igt_assert_eq_u64(vseg_debugfs_u64(l, "offset"), uefi[0].start);
	snprintf(want, sizeof(want), "0x%llx+0x%llx,0x%llx+0x%llx",
		 (unsigned long long)uefi[0].start,
		 (unsigned long long)uefi[0].size,
		 (unsigned long long)uefi[1].start,
		 (unsigned long long)uefi[1].size);
	v = vseg_debugfs_value(l, "uefi_ranges");
	igt_assert_f(v && !strcmp(v, want), "head 0 uefi_ranges=%s, expected %s\n",
		     v ? v : "(none)", want);
	igt_assert_eq_u64(vseg_debugfs_u64(l, "splash"), splash_word(0));
	igt_assert_f(vseg_debugfs_u64(l, "checksum") == splash_checksum(),
		     "firmware image checksum 0x%llx, the splash gives 0x%llx\n",
		     (unsigned long long)vseg_debugfs_u64(l, "checksum"),
		     (unsigned long long)splash_checksum());
	vseg_debugfs_free(&f);
}

static void test_held(void)
{
	uint32_t h[MAX_BUFS], in_range[NUM_UEFI];
	struct drm_vseg_segment_info s;
	unsigned int n;

	check_held(ctx.fd, true);
	/* 14 MiB are free: exactly 14 buffers, none in a held range. */
	n = fill(ctx.fd, h, SEG_SIZE / MIB - NUM_UEFI, SEG_SIZE / MIB - NUM_UEFI,
		 true, in_range);
	s = query_seg(ctx.fd);
	igt_assert_eq_u64(s.usage.committed, (SEG_SIZE / MIB - NUM_UEFI) * MIB);
	close_all(ctx.fd, h, n);
	/* More than fits: still none in a held range. */
	n = fill(ctx.fd, h, MAX_BUFS, 1, true, in_range);
	close_all(ctx.fd, h, n);
	check_held(ctx.fd, true);
}

static void test_image(void)
{
	struct vseg_debugfs_segments d;
	const char *v;

	check_image(ctx.fd, true);
	vseg_debugfs_read_segments(ctx.fd, &d);
	igt_assert(d.num_lines > SEG);
	igt_assert_eq_u64(vseg_debugfs_u64(&d.line[SEG], "uefi"), NUM_UEFI);
	v = vseg_debugfs_value(&d.line[SEG], "uefi_ranges");
	igt_assert_f(v && !strcmp(v, "0x0+0x100000,0x800000+0x100000"),
		     "segments: uefi_ranges=%s\n", v ? v : "(none)");
	vseg_debugfs_free_segments(&d);
}

static void test_handover(void)
{
	uint32_t h[MAX_BUFS], in_range[NUM_UEFI], p;
	unsigned int n;

	p = vseg_gem_create_simple(ctx.fd, MIB, BIT(SEG),
				   DRM_VSEG_GEM_CREATE_PRIMARY);
	vseg_display_show(ctx.fd, 1, p);
	check_held(ctx.fd, false);
	check_image(ctx.fd, false);

	/* The primary has 1 MiB; the 15 others fill the rest, ranges too. */
	n = fill(ctx.fd, h, SEG_SIZE / MIB - 1, SEG_SIZE / MIB - 1, false,
		 in_range);
	for (unsigned int r = 0; r < NUM_UEFI; r++) {
		igt_assert_f(in_range[r],
			     "no buffer in former UEFI range [0x%llx, +0x%llx)\n",
			     (unsigned long long)uefi[r].start,
			     (unsigned long long)uefi[r].size);
		vseg_bo_check_zero(ctx.fd, in_range[r], MIB,
				   "a buffer in a former UEFI range");
	}
	close_all(ctx.fd, h, n);
	vseg_display_show(ctx.fd, 1, 0);
	vseg_gem_close(ctx.fd, p);
}

/*
 * The copy engine from @fd: COPY from the raw GPU address of each held
 * range into a buffer of @fd's own is refused at SUBMIT.
 */
static void raw_read_refused(int fd)
{
	uint32_t own = vseg_gem_create_in(fd, 4096, SEG,
					  DRM_VSEG_GEM_CREATE_ACCESSED_PHYSICALLY);
	struct drm_vseg_submit sub;
	struct vseg_cmdbuf cb;
	uint32_t cmd;
	int err;

	vseg_cb_init(&cb);
	for (unsigned int r = 0; r < NUM_UEFI; r++) {
		vseg_cb_reset(&cb);
		cmd = vseg_cb_copy(&cb, 0, vseg_ctx_gpu_addr(&ctx, SEG,
							     uefi[r].start),
				   4096);
		vseg_cb_patch(&cb, cmd, VSEG_CMD_DST, own, 0, true);
		vseg_submit_args(&sub, DRM_VSEG_ENGINE_COPY, &cb);
		err = __vseg_submit(fd, &sub);
		igt_assert_f(err == -EINVAL,
			     "COPY from held UEFI range %u: SUBMIT gave %d (%s), not -EINVAL\n",
			     r, err, vseg_errname(err));
	}
	vseg_cb_fini(&cb);
	vseg_bo_check_zero(fd, own, 4096, "after the refused COPY");
	vseg_gem_close(fd, own);
}

static void test_hostile(void)
{
	int fds[2] = { drm_open_vseg(), drm_open_vseg_render() };
	uint32_t h[MAX_BUFS], in_range[NUM_UEFI], p;
	unsigned int n;
	int err;

	for (unsigned int i = 0; i < 2; i++) {
		p = vseg_gem_create_simple(fds[i], MIB, BIT(SEG),
					   DRM_VSEG_GEM_CREATE_PRIMARY);
		for (uint32_t head = 0; head < DRM_VSEG_NUM_HEADS; head++) {
			err = __vseg_display_show(fds[i], head, p);
			igt_assert_f(err == -EACCES,
				     "showing from a %s: %d (%s), expected -EACCES\n",
				     i ? "render node" : "file that is not the master",
				     err, vseg_errname(err));
			err = __vseg_display_show(fds[i], head, 0);
			igt_assert_eq(err, -EACCES);
		}
		vseg_gem_close(fds[i], p);
		check_held(fds[i], true);
		check_image(ctx.fd, true);
		raw_read_refused(fds[i]);

		/* Its buffers never land in a range, nor show the splash. */
		n = fill(fds[i], h, SEG_SIZE / MIB - NUM_UEFI,
			 SEG_SIZE / MIB - NUM_UEFI, true, in_range);
		for (unsigned int b = 0; b < n; b++)
			vseg_bo_check_zero(fds[i], h[b], MIB,
					   "a hostile client's buffer");
		close_all(fds[i], h, n);
	}
	drm_close_driver(fds[1]);
	drm_close_driver(fds[0]);
	check_held(ctx.fd, true);
	check_image(ctx.fd, true);
}

static const struct vseg_subtest tests[] = {
	{ "held-before-scanout", test_held,
	  "QUERY_SEGMENTS lists the table's UEFI ranges; filling the segment "
	  "with contiguous buffers puts none of them in a UEFI range, and "
	  "usage does not count the held ranges." },
	{ "firmware-image", test_image,
	  "debugfs display shows the firmware image on head 0 with the "
	  "checksum of the documented splash; the segments file lists the "
	  "held ranges." },
	{ "handover", test_handover,
	  "The first KMS modeset releases the ranges: the query lists none, head "
	  "0 no longer shows the firmware image, and buffers land in the "
	  "former ranges, reading zero." },
	{ "hostile-client", test_hostile,
	  "Another file of the card node and a render node cannot modeset, "
	  "so the ranges stay held; the copy engine refuses their COPY from "
	  "a range's raw address; their buffers never land there and read "
	  "zero." },
};

igt_main
{
	igt_fixture
		vseg_ctx_setup(&ctx);

	vseg_ctx_subtests(&ctx, TABLE, tests, ARRAY_SIZE(tests),
			  "after closing every buffer");

	igt_fixture
		vseg_ctx_unload(&ctx);
}
