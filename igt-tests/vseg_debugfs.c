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

static void check_invalid_ranges(const struct vseg_debugfs_line *l,
				 const struct drm_vseg_segment_info *s)
{
	const char *v = vseg_debugfs_value(l, "invalid_ranges");
	unsigned int n;
	char **items;

	check_u64(l, "invalid", s->num_invalid_ranges);
	igt_assert_f(v, "segment %u: debugfs key invalid_ranges missing\n",
		     l->id);
	n = split_list(v, &items);
	igt_assert_f(n == s->num_invalid_ranges,
		     "segment %u: invalid_ranges=%s lists %u ranges, the query %u\n",
		     l->id, v, n, s->num_invalid_ranges);
	for (unsigned int i = 0; i < n; i++) {
		char *plus = strchr(items[i], '+');

		igt_assert_f(plus, "segment %u: invalid range %s is not START+LEN\n",
			     l->id, items[i]);
		*plus = '\0';
		igt_assert_eq_u64(parse_num(items[i], l->id, "invalid_ranges"),
				  s->invalid_ranges[i].start);
		igt_assert_eq_u64(parse_num(plus + 1, l->id, "invalid_ranges"),
				  s->invalid_ranges[i].size);
	}
	free_list(items);
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

	igt_fixture {
		vseg_ctx_unload(&ctx);
	}
}
