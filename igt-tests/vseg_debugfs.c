// SPDX-License-Identifier: MIT
/*
 * vseg_debugfs: the debugfs files of a vseg device agree with the segment
 * query and read without errors.
 *
 * Copyright (c) 2026 The vseg authors
 */
/**
 * TEST: vseg debugfs
 * Category: Core
 * Mega feature: General Core features
 * Sub-category: Memory management
 * Functionality: debugfs
 * Description: Check the vseg debugfs files: the segments file matches the
 *	segment query field by field, every TTM manager has its _mm file, and
 *	every file reads without error.
 *
 * SUBTEST: segments
 * Description: The debugfs segments file agrees with the segment query, field
 *	by field, for each built-in profile. Dynamic subtests: one per
 *	built-in profile, named after it.
 *
 * SUBTEST: mm-files
 * Description: Every segment's TTM manager has a readable, non-empty
 *	<name>_mm file, and system_mm exists. Dynamic subtests: one per
 *	built-in profile, named after it.
 *
 * SUBTEST: read-all
 * Description: Every readable file of the vseg debugfs directory reads to the
 *	end without error. Dynamic subtests: one per built-in profile, named
 *	after it.
 *
 * SUBTEST: invalid-range-evict
 * Description: Adding an invalid range through <name>_invalid evicts the
 *	buffer in it, its data intact; the query and the file list it, and no
 *	buffer is placed there afterwards.
 *
 * SUBTEST: invalid-range-pinned
 * Description: Adding a range over a displayed (pinned) primary fails with
 *	EBUSY and changes nothing; once off the display, the same add evicts
 *	it.
 *
 * SUBTEST: invalid-range-remove
 * Description: Removing an invalid range makes it allocatable again; a
 *	buffer placed there reads zero.
 *
 * SUBTEST: invalid-range-errors
 * Description: Bad ranges and commands are refused (EINVAL, ENOENT), a
 *	fifth range with ENOSPC, and the list is unchanged each time.
 *
 * SUBTEST: invalid-range-query
 * Description: A render node's query shows the live list, never torn while
 *	another process adds and removes a range, and its buffers keep out of
 *	the ranges.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "igt.h"
#include "igt_vseg.h"

IGT_TEST_DESCRIPTION("Check the vseg debugfs files: the segments file "
		     "matches the segment query field by field, every TTM "
		     "manager has its _mm file, and every file reads without "
		     "error.");

/* Only the device: these tests query the table themselves. */
static struct vseg_ctx ctx = VSEG_CTX_INIT(VSEG_LEFTOVERS_NONE);

static void check_str(const struct vseg_debugfs_line *l, const char *key,
		      const char *want)
{
	const char *v = vseg_debugfs_value(l, key);

	igt_assert_f(v, "segment %u: debugfs key %s missing\n", l->id, key);
	igt_assert_f(!strcmp(v, want), "segment %u: debugfs %s=%s, expected %s\n",
		     l->id, key, v, want);
}

static void check_u64(const struct vseg_debugfs_line *l, const char *key,
		      uint64_t want)
{
	uint64_t v = vseg_debugfs_u64(l, key);

	igt_assert_f(v == want,
		     "segment %u: debugfs %s=%#llx, the query says %#llx\n",
		     l->id, key, (unsigned long long)v,
		     (unsigned long long)want);
}

static void check_usage(const struct vseg_debugfs_line *l,
			const struct drm_vseg_segment_usage *u)
{
	check_u64(l, "committed", u->committed);
	check_u64(l, "resident", u->resident);
	check_u64(l, "evicted", u->evicted);
	check_u64(l, "mapped", u->aperture_mapped);
}

static void check_flag_names(const struct vseg_debugfs_line *l, uint64_t flags)
{
	const char *v = vseg_debugfs_value(l, "flag_names");
	uint64_t seen = 0;
	char *copy, *save = NULL;

	igt_assert_f(v, "segment %u: debugfs key flag_names missing\n", l->id);
	if (!flags) {
		igt_assert_f(!strcmp(v, "-"),
			     "segment %u: flag_names=%s without flags\n",
			     l->id, v);
		return;
	}
	copy = strdup(v);
	igt_assert(copy);
	for (char *tok = strtok_r(copy, "|", &save); tok;
	     tok = strtok_r(NULL, "|", &save)) {
		unsigned int bit;

		for (bit = 0; vseg_flag_name(bit); bit++)
			if (!strcmp(tok, vseg_flag_name(bit)))
				break;
		igt_assert_f(vseg_flag_name(bit),
			     "segment %u: unknown flag name %s\n", l->id, tok);
		igt_assert_f(!(seen & (1ull << bit)),
			     "segment %u: flag %s listed twice\n", l->id, tok);
		seen |= 1ull << bit;
	}
	free(copy);
	igt_assert_f(seen == flags,
		     "segment %u: flag_names=%s is %#llx, flags are %#llx\n",
		     l->id, v, (unsigned long long)seen,
		     (unsigned long long)flags);
}

/* "-" or a comma-separated list; returns the number of entries. */
static unsigned int split_list(const char *v, char ***items)
{
	unsigned int n = 0;
	char *copy, *save = NULL;

	*items = calloc(DRM_VSEG_MAX_BANKS + 1, sizeof(char *));
	igt_assert(*items);
	if (!strcmp(v, "-"))
		return 0;
	copy = strdup(v);
	igt_assert(copy);
	for (char *tok = strtok_r(copy, ",", &save); tok;
	     tok = strtok_r(NULL, ",", &save)) {
		igt_assert_f(n < DRM_VSEG_MAX_BANKS, "list %s is too long\n", v);
		(*items)[n++] = strdup(tok);
	}
	free(copy);
	return n;
}

static void free_list(char **items)
{
	for (char **i = items; *i; i++)
		free(*i);
	free(items);
}

static uint64_t parse_num(const char *s, unsigned int id, const char *what)
{
	unsigned long long v;
	char *end;

	errno = 0;
	v = strtoull(s, &end, 0);
	igt_assert_f(!errno && end != s && !*end,
		     "segment %u: bad number %s in %s\n", id, s, what);
	return v;
}

static void check_banks(const struct vseg_debugfs_line *l,
			const struct drm_vseg_segment_info *s)
{
	const char *v = vseg_debugfs_value(l, "bank_end");
	unsigned int n;
	char **items;

	check_u64(l, "banks", s->num_banks);
	igt_assert_f(v, "segment %u: debugfs key bank_end missing\n", l->id);
	n = split_list(v, &items);
	igt_assert_f(n == s->num_banks, "segment %u: bank_end=%s lists %u banks, the query %u\n",
		     l->id, v, n, s->num_banks);
	for (unsigned int i = 0; i < n; i++)
		igt_assert_f(parse_num(items[i], l->id, "bank_end") == s->bank_end[i],
			     "segment %u: bank %u ends at %s, the query says %#llx\n",
			     l->id, i, items[i],
			     (unsigned long long)s->bank_end[i]);
	free_list(items);
}

/* "<key>=N <key>_ranges=S+L,...": the same list as the query's. */
static void check_ranges(const struct vseg_debugfs_line *l, const char *key,
			 uint32_t num, const struct drm_vseg_range *r)
{
	char rkey[32];
	const char *v;
	unsigned int n;
	char **items;

	snprintf(rkey, sizeof(rkey), "%s_ranges", key);
	v = vseg_debugfs_value(l, rkey);
	check_u64(l, key, num);
	igt_assert_f(v, "segment %u: debugfs key %s missing\n", l->id, rkey);
	n = split_list(v, &items);
	igt_assert_f(n == num,
		     "segment %u: %s=%s lists %u ranges, the query %u\n",
		     l->id, rkey, v, n, num);
	for (unsigned int i = 0; i < n; i++) {
		char *plus = strchr(items[i], '+');

		igt_assert_f(plus, "segment %u: %s range %s is not START+LEN\n",
			     l->id, key, items[i]);
		*plus = '\0';
		igt_assert_eq_u64(parse_num(items[i], l->id, rkey), r[i].start);
		igt_assert_eq_u64(parse_num(plus + 1, l->id, rkey), r[i].size);
	}
	free_list(items);
}

static void check_invalid_ranges(const struct vseg_debugfs_line *l,
				 const struct drm_vseg_segment_info *s)
{
	check_ranges(l, "invalid", s->num_invalid_ranges, s->invalid_ranges);
	check_ranges(l, "uefi", s->num_uefi_frame_buffer_ranges,
		     s->uefi_frame_buffer_ranges);
}

static void test_segments(const char *profile)
{
	struct vseg_debugfs_segments d;
	struct drm_vseg_query_segments q;
	struct drm_vseg_segment_info *segs;
	const struct vseg_debugfs_line *sys;
	unsigned int next_mem_ttm = 2;

	vseg_ctx_reload(&ctx, profile);
	segs = vseg_query_all(ctx.fd, &q);
	vseg_debugfs_read_segments(ctx.fd, &d);

	igt_assert_eq_u32(d.num_segments, q.num_segments);
	igt_assert_eq_u64(d.paging_segment, q.paging_buffer_segment_id);
	igt_assert_eq_u64(d.paging_size, q.paging_buffer_size);
	igt_assert_eq_u64(d.paging_private, q.paging_buffer_private_data_size);
	igt_assert_f(d.num_lines == q.num_segments + 1,
		     "%u segment lines, expected %u\n", d.num_lines,
		     q.num_segments + 1);

	sys = &d.line[0];
	igt_assert_eq_u32(sys->id, 0);
	check_str(sys, "name", "system");
	check_str(sys, "kind", "system");
	check_u64(sys, "ttm", 0);
	check_usage(sys, &q.system_usage);

	for (unsigned int i = 0; i < q.num_segments; i++) {
		const struct drm_vseg_segment_info *s = &segs[i];
		const struct vseg_debugfs_line *l = &d.line[i + 1];
		bool ap = s->kind == DRM_VSEG_SEGMENT_KIND_APERTURE;

		igt_assert_f(l->id == s->id, "line %u is segment %u, expected %u\n",
			     i + 1, l->id, s->id);
		check_str(l, "name", s->name);
		check_str(l, "kind", ap ? "aperture" : "memory");
		check_u64(l, "ttm", ap ? 1 : next_mem_ttm++);
		check_u64(l, "flags", s->flags);
		check_flag_names(l, s->flags);
		check_u64(l, "base", s->base_address);
		check_u64(l, "cpu", s->cpu_translated_address);
		check_u64(l, "size", s->size);
		check_u64(l, "visible", s->cpu_visible_size);
		check_u64(l, "commit", s->commit_limit);
		check_u64(l, "page", s->page_size);
		check_u64(l, "sysend", s->system_memory_end_address);
		check_banks(l, s);
		check_invalid_ranges(l, s);
		check_u64(l, "vpr_start", s->vpr_range_start_offset);
		check_u64(l, "vpr_size", s->vpr_range_size);
		check_u64(l, "vpr_align", s->vpr_alignment);
		check_u64(l, "vpr_count", s->num_vpr_supported);
		check_u64(l, "vpr_reserve", s->vpr_reserve_size);
		check_usage(l, &s->usage);
		check_u64(l, "host_aperture", s->cpu_host_aperture_address);
		check_u64(l, "host_aperture_size", s->cpu_host_aperture_size);
	}

	vseg_debugfs_free_segments(&d);
	free(segs);
	vseg_ctx_unload(&ctx);
}

/* Read a whole file; returns bytes read or -errno. */
static long read_all(int dir, const char *name)
{
	char buf[4096];
	long total = 0;
	int fd;

	fd = openat(dir, name, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	for (;;) {
		ssize_t r = read(fd, buf, sizeof(buf));

		if (r < 0) {
			if (errno == EINTR)
				continue;
			total = -errno;
			break;
		}
		if (r == 0)
			break;
		total += r;
	}
	close(fd);
	return total;
}

static void test_mm_files(const char *profile)
{
	struct drm_vseg_query_segments q;
	struct drm_vseg_segment_info *segs;
	struct dirent *de;
	DIR *d;
	long len;
	int dir;

	vseg_ctx_reload(&ctx, profile);
	segs = vseg_query_all(ctx.fd, &q);
	dir = vseg_debugfs_dir(ctx.fd);
	igt_assert_f(dir >= 0, "no debugfs directory for the vseg device\n");

	len = read_all(dir, "system_mm");
	igt_assert_f(len >= 0, "reading system_mm failed: %s\n",
		     strerror(-len));

	for (unsigned int i = 0; i < q.num_segments; i++) {
		char name[32];

		snprintf(name, sizeof(name), "%s_mm", segs[i].name);
		len = read_all(dir, name);
		igt_assert_f(len != -ENOENT, "no debugfs file %s\n", name);
		igt_assert_f(len >= 0, "reading %s failed: %s\n", name,
			     strerror(-len));
		igt_assert_f(len > 0, "%s is empty\n", name);
	}

	/* Report (not fail on) other manager files. */
	d = fdopendir(dup(dir));
	igt_assert(d);
	while ((de = readdir(d))) {
		size_t n = strlen(de->d_name);
		bool known = !strcmp(de->d_name, "system_mm");

		if (n < 4 || strcmp(de->d_name + n - 3, "_mm"))
			continue;
		for (unsigned int i = 0; i < q.num_segments && !known; i++)
			known = n - 3 == strlen(segs[i].name) &&
				!strncmp(de->d_name, segs[i].name, n - 3);
		if (!known)
			igt_info("other manager file: %s\n", de->d_name);
	}
	closedir(d);

	close(dir);
	free(segs);
	vseg_ctx_unload(&ctx);
}

static int read_tree(int dir, const char *path, int depth, int *files)
{
	struct dirent *de;
	int failures = 0;
	DIR *d;

	d = fdopendir(dup(dir));
	igt_assert(d);
	while ((de = readdir(d))) {
		struct stat st;
		char sub[512];

		if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, ".."))
			continue;
		snprintf(sub, sizeof(sub), "%s/%s", path, de->d_name);
		if (fstatat(dir, de->d_name, &st, AT_SYMLINK_NOFOLLOW)) {
			igt_warn("stat %s: %s\n", sub, strerror(errno));
			failures++;
			continue;
		}
		if (S_ISDIR(st.st_mode)) {
			int child;

			if (depth >= 4)
				continue;
			child = openat(dir, de->d_name,
				       O_RDONLY | O_DIRECTORY | O_CLOEXEC);
			if (child < 0) {
				igt_warn("open %s: %s\n", sub, strerror(errno));
				failures++;
				continue;
			}
			failures += read_tree(child, sub, depth + 1, files);
			close(child);
		} else if (S_ISREG(st.st_mode) && (st.st_mode & 0444)) {
			long len = read_all(dir, de->d_name);

			/*
			 * DRM core's files of a connector without a CRTC
			 * (output_bpc, vrr_range) answer ENODEV: nothing
			 * drives it, there is nothing to show.
			 */
			if (len == -ENODEV && depth == 1 &&
			    (!strcmp(de->d_name, "output_bpc") ||
			     !strcmp(de->d_name, "vrr_range"))) {
				igt_debug("%s: no CRTC drives it\n", sub);
				continue;
			}
			/*
			 * A CRTC's CRC data (DRM core's) answers EIO while
			 * the CRTC is off, and EINVAL where the display
			 * controller has no CRC generator.
			 */
			if ((len == -EIO || len == -EINVAL) && depth == 2 &&
			    !strcmp(de->d_name, "data") &&
			    strstr(path, "/crc")) {
				igt_debug("%s: no CRCs now\n", sub);
				continue;
			}
			if (len < 0) {
				igt_warn("reading %s failed: %s\n", sub,
					 strerror(-len));
				failures++;
			} else {
				igt_debug("%s: %ld bytes\n", sub, len);
				(*files)++;
			}
		}
	}
	closedir(d);
	return failures;
}

static void test_read_all(const char *profile)
{
	int dir, files = 0, failures;
	char name[256];

	vseg_ctx_reload(&ctx, profile);
	dir = vseg_debugfs_dir(ctx.fd);
	igt_assert_f(dir >= 0, "no debugfs directory for the vseg device\n");

	igt_assert_lt(0, igt_debugfs_simple_read(dir, "name", name,
						 sizeof(name)));
	igt_assert_f(!strncmp(name, "vseg", 4), "name file reads \"%s\"\n",
		     name);

	failures = read_tree(dir, ".", 0, &files);
	close(dir);
	igt_info("read %d debugfs files\n", files);
	igt_assert_f(!failures, "%d debugfs entries could not be read\n",
		     failures);
	igt_assert_lt(0, files);
	vseg_ctx_unload(&ctx);
}

/* --- live invalid ranges: debugfs <name>_invalid ------------------------------- */

/* 16 MiB of memory segment; the table makes its last MiB invalid. */
#define INV_TABLE	"discrete table=memory:name=vram,size=16M,flags=cpuvisible," \
			"cpu=0xe0000000,visible=16M,invalid=15M+1M;" \
			"aperture:name=aperture,size=32M"
#define INV_SEG		1u
#define MIB		(1ull << 20)
#define INV_BUFS	16u

/* Write @cmd to vram_invalid: 0 or -errno. */
static int invalid_write(int fd, const char *cmd)
{
	int dir = vseg_debugfs_dir(fd), f, err = 0;

	igt_assert_f(dir >= 0, "no debugfs directory for the vseg device\n");
	f = openat(dir, "vram_invalid", O_WRONLY | O_CLOEXEC);
	close(dir);
	igt_assert_f(f >= 0, "cannot open debugfs vram_invalid: %s\n",
		     strerror(errno));
	if (write(f, cmd, strlen(cmd)) < 0)
		err = -errno;
	close(f);
	return err;
}

static int invalid_cmd(int fd, const char *op, uint64_t start, uint64_t size)
{
	char cmd[64];

	snprintf(cmd, sizeof(cmd), "%s 0x%llx+0x%llx\n", op,
		 (unsigned long long)start, (unsigned long long)size);
	return invalid_write(fd, cmd);
}

static void invalid_ok(int fd, const char *op, uint64_t start, uint64_t size)
{
	int err = invalid_cmd(fd, op, start, size);

	igt_assert_f(!err, "%s 0x%llx+0x%llx: %d (%s)\n", op,
		     (unsigned long long)start, (unsigned long long)size, err,
		     strerror(-err));
}

/* The query's invalid ranges of the segment, from @fd. */
static uint32_t query_invalid(int fd, struct drm_vseg_range *r)
{
	struct drm_vseg_query_segments q;
	struct drm_vseg_segment_info *segs;
	uint32_t n;

	segs = vseg_query_all(fd, &q);
	n = segs[INV_SEG - 1].num_invalid_ranges;
	igt_assert(n <= DRM_VSEG_MAX_INVALID_RANGES);
	memcpy(r, segs[INV_SEG - 1].invalid_ranges, n * sizeof(*r));
	free(segs);
	return n;
}

/* The query (from @fd) and debugfs list exactly @want. */
static void check_invalid_list(int fd, const struct drm_vseg_range *want,
			       uint32_t n)
{
	struct drm_vseg_range r[DRM_VSEG_MAX_INVALID_RANGES];
	char *text, *line, *save, expect[64];
	uint32_t got = query_invalid(fd, r), lines = 0;

	igt_assert_f(got == n, "the query lists %u invalid ranges, expected %u\n",
		     got, n);
	for (uint32_t i = 0; i < n; i++) {
		igt_assert_eq_u64(r[i].start, want[i].start);
		igt_assert_eq_u64(r[i].size, want[i].size);
	}
	text = vseg_debugfs_read_text(ctx.fd, "vram_invalid");
	for (line = strtok_r(text, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save), lines++) {
		igt_assert_f(lines < n, "vram_invalid lists more than %u ranges\n",
			     n);
		snprintf(expect, sizeof(expect), "0x%llx+0x%llx",
			 (unsigned long long)want[lines].start,
			 (unsigned long long)want[lines].size);
		igt_assert_f(!strcmp(line, expect),
			     "vram_invalid line %u is \"%s\", expected \"%s\"\n",
			     lines, line, expect);
	}
	free(text);
	igt_assert_eq_u32(lines, n);
}

static bool overlaps(uint64_t a, uint64_t alen, uint64_t b, uint64_t blen)
{
	return a < b + blen && b < a + alen;
}

/*
 * Fill the segment from @fd with 1 MiB contiguous buffers; none in the
 * segment overlaps [@start, +@size) when @blocked; returns in @inside a
 * buffer there (or 0) and how many landed in the segment.
 */
static unsigned int fill_around(int fd, uint32_t *h, uint64_t start,
				uint64_t size, bool blocked, uint32_t *inside)
{
	struct drm_vseg_gem_info info;
	unsigned int in_seg = 0;

	*inside = 0;
	for (unsigned int i = 0; i < INV_BUFS; i++)
		h[i] = vseg_gem_create_in(fd, MIB, INV_SEG,
					  DRM_VSEG_GEM_CREATE_ACCESSED_PHYSICALLY);
	for (unsigned int i = 0; i < INV_BUFS; i++) {
		vseg_gem_info(fd, h[i], &info);
		if (info.segment_id != INV_SEG)
			continue;
		in_seg++;
		if (!overlaps(info.offset, MIB, start, size))
			continue;
		igt_assert_f(!blocked,
			     "buffer at 0x%llx placed in invalid range [0x%llx, +0x%llx)\n",
			     (unsigned long long)info.offset,
			     (unsigned long long)start,
			     (unsigned long long)size);
		*inside = h[i];
	}
	return in_seg;
}

static void close_bufs(int fd, const uint32_t *h, unsigned int n)
{
	for (unsigned int i = 0; i < n; i++)
		vseg_gem_close(fd, h[i]);
}

static const struct drm_vseg_range table_range = { 15 * MIB, MIB };

/* A new range evicts the buffer in it, data intact, and blocks placement. */
static void test_invalid_evict(void)
{
	struct drm_vseg_range want[2] = { table_range };
	struct drm_vseg_gem_info info;
	uint32_t b, h[INV_BUFS], inside;
	unsigned int n;

	b = vseg_gem_create_in(ctx.fd, MIB, INV_SEG,
			       DRM_VSEG_GEM_CREATE_ACCESSED_PHYSICALLY);
	vseg_bo_fill_pattern(ctx.fd, b, MIB, 0x1badd00d);
	vseg_gem_info(ctx.fd, b, &info);
	igt_assert_eq_u32(info.segment_id, INV_SEG);
	want[1].start = info.offset;
	want[1].size = MIB;

	invalid_ok(ctx.fd, "add", want[1].start, want[1].size);
	vseg_gem_info(ctx.fd, b, &info);
	igt_assert_f(info.segment_id != INV_SEG ||
		     !overlaps(info.offset, MIB, want[1].start, MIB),
		     "the buffer stayed in the new invalid range\n");
	igt_assert_lt_u64(0, info.moves);
	vseg_bo_check_pattern(ctx.fd, b, MIB, 0x1badd00d,
			      "after its range became invalid");
	check_invalid_list(ctx.fd, want, 2);

	/* 14 MiB are left: none of the buffers lands in either range. */
	n = fill_around(ctx.fd, h, want[1].start, MIB, true, &inside);
	igt_assert_f(n >= 13, "only %u buffers in the segment\n", n);
	close_bufs(ctx.fd, h, INV_BUFS);
	n = fill_around(ctx.fd, h, table_range.start, MIB, true, &inside);
	close_bufs(ctx.fd, h, INV_BUFS);
	vseg_gem_close(ctx.fd, b);
	invalid_ok(ctx.fd, "del", want[1].start, want[1].size);
	check_invalid_list(ctx.fd, want, 1);
}

/* A pinned buffer in the way: EBUSY, nothing changes. */
static void test_invalid_pinned(void)
{
	struct drm_vseg_range want[2] = { table_range };
	struct drm_vseg_gem_info info, after;
	uint32_t p;
	int err;

	p = vseg_gem_create_simple(ctx.fd, MIB, BIT(INV_SEG),
				   DRM_VSEG_GEM_CREATE_PRIMARY);
	vseg_display_show(ctx.fd, 0, p);
	vseg_gem_info(ctx.fd, p, &info);
	igt_assert(info.segment_id == INV_SEG &&
		   (info.placement_flags & DRM_VSEG_INFO_PINNED));

	err = invalid_cmd(ctx.fd, "add", info.offset, MIB);
	igt_assert_f(err == -EBUSY, "add over a displayed primary: %d (%s)\n",
		     err, strerror(-err));
	/* Partly over it, from the page after its start. */
	err = invalid_cmd(ctx.fd, "add", info.offset + 4096, MIB);
	igt_assert_f(err == -EBUSY, "add partly over a displayed primary: %d (%s)\n",
		     err, strerror(-err));
	check_invalid_list(ctx.fd, want, 1);
	vseg_gem_info(ctx.fd, p, &after);
	igt_assert_eq_u32(after.segment_id, info.segment_id);
	igt_assert_eq_u64(after.offset, info.offset);
	igt_assert_eq_u64(after.moves, info.moves);

	/* Off the display, the same range evicts it. */
	vseg_display_show(ctx.fd, 0, 0);
	want[1].start = info.offset;
	want[1].size = MIB;
	invalid_ok(ctx.fd, "add", info.offset, MIB);
	check_invalid_list(ctx.fd, want, 2);
	vseg_gem_info(ctx.fd, p, &after);
	igt_assert(after.segment_id != INV_SEG ||
		   !overlaps(after.offset, MIB, info.offset, MIB));
	/* Shown again, it finds room elsewhere. */
	vseg_display_show(ctx.fd, 0, p);
	vseg_gem_info(ctx.fd, p, &after);
	igt_assert(!overlaps(after.offset, MIB, info.offset, MIB));
	vseg_display_show(ctx.fd, 0, 0);
	invalid_ok(ctx.fd, "del", info.offset, MIB);
	vseg_gem_close(ctx.fd, p);
}

/* Removing a range makes it allocatable again; it reads zero. */
static void test_invalid_remove(void)
{
	struct drm_vseg_range want[2] = { table_range, { 0, 8 * MIB } };
	uint32_t h[INV_BUFS], inside;
	unsigned int n;

	invalid_ok(ctx.fd, "add", 0, 8 * MIB);
	check_invalid_list(ctx.fd, want, 2);
	n = fill_around(ctx.fd, h, 0, 8 * MIB, true, &inside);
	igt_assert_f(n <= 7, "%u buffers in the 7 MiB left\n", n);
	close_bufs(ctx.fd, h, INV_BUFS);

	invalid_ok(ctx.fd, "del", 0, 8 * MIB);
	check_invalid_list(ctx.fd, want, 1);
	n = fill_around(ctx.fd, h, 0, 8 * MIB, false, &inside);
	igt_assert_f(n == 15, "%u buffers in the 15 MiB left\n", n);
	igt_assert_f(inside, "no buffer in the removed range\n");
	vseg_bo_check_zero(ctx.fd, inside, MIB, "a buffer in a removed range");
	close_bufs(ctx.fd, h, INV_BUFS);
}

/* Bad writes: the error, and the list unchanged. */
static void test_invalid_errors(void)
{
	static const struct {
		const char *cmd;
		int err;
	} bad[] = {
		{ "add 0x800+0x1000", -EINVAL },	/* unaligned start */
		{ "add 0x1000+0x800", -EINVAL },	/* unaligned size */
		{ "add 0x1000+0", -EINVAL },		/* empty */
		{ "add 0xf00000+0x200000", -EINVAL },	/* outside */
		{ "add 0x1000+0xfffffffffffff000", -EINVAL },	/* wraps */
		{ "add 0xf80000+0x1000", -EINVAL },	/* overlaps the table's */
		{ "add 0x100000", -EINVAL },		/* no size */
		{ "add", -EINVAL },
		{ "grow 0x0+0x1000", -EINVAL },
		{ "del 0x0+0x1000", -ENOENT },		/* not listed */
		{ "del 0xf00000+0x1000", -ENOENT },	/* part of one */
	};
	struct drm_vseg_range want[DRM_VSEG_MAX_INVALID_RANGES] = { table_range };
	int err;

	for (unsigned int i = 0; i < ARRAY_SIZE(bad); i++) {
		err = invalid_write(ctx.fd, bad[i].cmd);
		igt_assert_f(err == bad[i].err, "\"%s\": %d (%s), expected %d\n",
			     bad[i].cmd, err, strerror(-err), bad[i].err);
		check_invalid_list(ctx.fd, want, 1);
	}
	/* Up to DRM_VSEG_MAX_INVALID_RANGES, then ENOSPC. */
	for (unsigned int i = 1; i < DRM_VSEG_MAX_INVALID_RANGES; i++) {
		want[i].start = i * MIB;
		want[i].size = 4096;
		invalid_ok(ctx.fd, "add", want[i].start, want[i].size);
	}
	err = invalid_cmd(ctx.fd, "add", 8 * MIB, 4096);
	igt_assert_f(err == -ENOSPC, "a fifth range: %d (%s), expected ENOSPC\n",
		     err, strerror(-err));
	check_invalid_list(ctx.fd, want, DRM_VSEG_MAX_INVALID_RANGES);
	for (unsigned int i = 1; i < DRM_VSEG_MAX_INVALID_RANGES; i++)
		invalid_ok(ctx.fd, "del", want[i].start, want[i].size);
	check_invalid_list(ctx.fd, want, 1);
}

/*
 * QUERY_SEGMENTS shows the live list to every client: a render node sees
 * each add and remove, never a torn list while another process edits, and
 * its buffers keep out of the ranges.
 */
static void test_invalid_query(void)
{
	struct drm_vseg_range want[2] = { table_range, { 4 * MIB, 2 * MIB } };
	uint32_t h[INV_BUFS], inside;
	int other = drm_open_vseg_render();

	invalid_ok(ctx.fd, "add", want[1].start, want[1].size);
	check_invalid_list(other, want, 2);
	fill_around(other, h, want[1].start, want[1].size, true, &inside);
	close_bufs(other, h, INV_BUFS);

	/* While the parent adds and removes, a child's query is whole. */
	igt_fork(child, 1) {
		int fd = drm_open_vseg_render();
		struct drm_vseg_range r[DRM_VSEG_MAX_INVALID_RANGES];

		for (unsigned int i = 0; i < 400; i++) {
			uint32_t n = query_invalid(fd, r);

			igt_assert_f(n == 1 || n == 2, "%u ranges listed\n", n);
			igt_assert_eq_u64(r[0].start, table_range.start);
			igt_assert_eq_u64(r[0].size, table_range.size);
			if (n == 2) {
				igt_assert_eq_u64(r[1].start, want[1].start);
				igt_assert_eq_u64(r[1].size, want[1].size);
			}
		}
		drm_close_driver(fd);
	}
	for (unsigned int i = 0; i < 50; i++) {
		invalid_ok(ctx.fd, "del", want[1].start, want[1].size);
		invalid_ok(ctx.fd, "add", want[1].start, want[1].size);
	}
	igt_waitchildren();
	invalid_ok(ctx.fd, "del", want[1].start, want[1].size);
	check_invalid_list(other, want, 1);
	drm_close_driver(other);
}

static const struct vseg_subtest invalid_tests[] = {
	{ "invalid-range-evict", test_invalid_evict,
	  "Adding an invalid range evicts the buffer in it, its data intact; "
	  "the query and vram_invalid list it, and no buffer is placed there "
	  "afterwards." },
	{ "invalid-range-pinned", test_invalid_pinned,
	  "Adding a range over a displayed primary fails with EBUSY and "
	  "changes nothing; once off the display, the same add evicts it." },
	{ "invalid-range-remove", test_invalid_remove,
	  "Removing an invalid range makes it allocatable again; a buffer "
	  "placed there reads zero." },
	{ "invalid-range-errors", test_invalid_errors,
	  "Bad ranges and commands are refused (EINVAL, ENOENT), a fifth "
	  "range with ENOSPC, and the list is unchanged." },
	{ "invalid-range-query", test_invalid_query,
	  "A render node's query shows the live list, never torn while "
	  "another process edits it, and its buffers keep out of the "
	  "ranges." },
};

igt_main
{
	igt_fixture {
		vseg_require_module();
		igt_require_f(igt_debugfs_mount(), "debugfs is not available\n");
		vseg_ctx_install_exit_handler(&ctx);
	}

	igt_describe("The debugfs segments file agrees with the segment "
		     "query, field by field, for each built-in profile.");
	igt_subtest_with_dynamic("segments")
		vseg_dynamic_profiles(test_segments);

	igt_describe("Every segment's TTM manager has a readable, non-empty "
		     "<name>_mm file, and system_mm exists.");
	igt_subtest_with_dynamic("mm-files")
		vseg_dynamic_profiles(test_mm_files);

	igt_describe("Every readable file of the vseg debugfs directory reads "
		     "to the end without error.");
	igt_subtest_with_dynamic("read-all")
		vseg_dynamic_profiles(test_read_all);

	vseg_ctx_subtests(&ctx, INV_TABLE, invalid_tests,
			  ARRAY_SIZE(invalid_tests), "after closing every buffer");

	igt_fixture {
		vseg_ctx_unload(&ctx);
	}
}
