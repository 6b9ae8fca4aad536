// SPDX-License-Identifier: MIT
/*
 * The debugfs files "allocations" and "aperture", checked against
 * GEM_INFO.
 *
 * Copyright (c) 2026 The vseg authors
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "igt.h"
#include "igt_vseg.h"

/*
 * The value of " key=" in @line: a copy (up to the next space, or for
 * "owner" up to " size=") in @val; false if absent.
 */
static bool line_value(const char *line, const char *key, char *val,
		       size_t size)
{
	char pat[32];
	const char *p, *end;
	size_t n;

	snprintf(pat, sizeof(pat), " %s=", key);
	p = strstr(line, pat);
	if (!p)
		return false;
	p += strlen(pat);
	if (!strcmp(key, "owner"))
		end = strstr(p, " size=");
	else
		end = strchr(p, ' ');
	if (!end)
		end = p + strlen(p);
	n = end - p;
	if (!n || n >= size)
		return false;
	memcpy(val, p, n);
	val[n] = '\0';
	return true;
}

static uint64_t line_u64(const char *line, const char *key, const char *file)
{
	unsigned long long v;
	char val[64], *end;

	igt_assert_f(line_value(line, key, val, sizeof(val)),
		     "debugfs %s: no %s= in \"%s\"\n", file, key, line);
	errno = 0;
	v = strtoull(val, &end, 0);
	igt_assert_f(!errno && end != val && !*end,
		     "debugfs %s: %s=%s is not a number in \"%s\"\n", file, key,
		     val, line);
	return v;
}

static bool line_bool(const char *line, const char *key, const char *file)
{
	uint64_t v = line_u64(line, key, file);

	igt_assert_f(v <= 1, "debugfs %s: %s=%llu is not 0 or 1\n", file, key,
		     (unsigned long long)v);
	return v;
}

static void parse_allocation(char *line, struct vseg_allocation *bo)
{
	char val[128], *end, *colon;
	unsigned long long v;

	memset(bo, 0, sizeof(*bo));
	errno = 0;
	v = strtoull(line + 3, &end, 10);
	igt_assert_f(!errno && end != line + 3 && *end == ' ',
		     "debugfs allocations: bad buffer id in \"%s\"\n", line);
	bo->buffer_id = v;

	igt_assert_f(line_value(line, "owner", val, sizeof(val)),
		     "debugfs allocations: no owner in \"%s\"\n", line);
	colon = strchr(val, ':');
	igt_assert_f(colon && colon != val,
		     "debugfs allocations: owner is not pid:comm in \"%s\"\n",
		     line);
	*colon = '\0';
	bo->pid = atoi(val);
	snprintf(bo->comm, sizeof(bo->comm), "%s", colon + 1);

	bo->size = line_u64(line, "size", "allocations");
	bo->flags = line_u64(line, "flags", "allocations");
	bo->segment = line_u64(line, "segment", "allocations");
	bo->offset = line_u64(line, "offset", "allocations");
	bo->contiguous = line_bool(line, "contiguous", "allocations");
	bo->moves = line_u64(line, "moves", "allocations");
	bo->resident = line_bool(line, "resident", "allocations");
	bo->pinned = line_bool(line, "pinned", "allocations");

	igt_assert_f(line_value(line, "aperture", val, sizeof(val)),
		     "debugfs allocations: no aperture in \"%s\"\n", line);
	if (strcmp(val, "-")) {
		unsigned long long start, len;
		char *plus;

		plus = strchr(val, '+');
		igt_assert_f(plus, "debugfs allocations: aperture=%s in \"%s\"\n",
			     val, line);
		*plus = '\0';
		errno = 0;
		start = strtoull(val, &end, 16);
		igt_assert_f(!errno && !*end && !strncmp(val, "0x", 2),
			     "debugfs allocations: bad aperture start in \"%s\"\n",
			     line);
		len = strtoull(plus + 1, &end, 16);
		igt_assert_f(!errno && !*end && !strncmp(plus + 1, "0x", 2),
			     "debugfs allocations: bad aperture size in \"%s\"\n",
			     line);
		bo->mapped = true;
		bo->ap_start = start;
		bo->ap_size = len;
	}
}

void vseg_debugfs_parse_allocations(const char *text,
				    struct vseg_allocations *a)
{
	char *copy, *line, *save = NULL;
	unsigned int cap = 64;

	memset(a, 0, sizeof(*a));
	copy = strdup(text);
	igt_assert(copy);
	a->bo = calloc(cap, sizeof(*a->bo));
	igt_assert(a->bo);

	line = strtok_r(copy, "\n", &save);
	igt_assert_f(line && sscanf(line, "vseg allocations: count=%u",
				    &a->count) == 1,
		     "unexpected first line of allocations: \"%s\"\n",
		     line ? line : "");
	while ((line = strtok_r(NULL, "\n", &save))) {
		if (!line[0])
			continue;
		igt_assert_f(!strncmp(line, "bo ", 3),
			     "unexpected line in allocations: \"%s\"\n", line);
		if (a->num == cap) {
			cap *= 2;
			a->bo = realloc(a->bo, cap * sizeof(*a->bo));
			igt_assert(a->bo);
		}
		parse_allocation(line, &a->bo[a->num++]);
		for (unsigned int i = 0; i + 1 < a->num; i++)
			igt_assert_f(a->bo[i].buffer_id !=
				     a->bo[a->num - 1].buffer_id,
				     "debugfs allocations: buffer %llu listed twice\n",
				     (unsigned long long)a->bo[i].buffer_id);
	}
	free(copy);
	igt_assert_f(a->num == a->count,
		     "debugfs allocations: count=%u but %u buffer lines\n",
		     a->count, a->num);
}

void vseg_debugfs_read_allocations(int fd, struct vseg_allocations *a)
{
	char *text = vseg_debugfs_read_file(fd, "allocations");

	igt_assert_f(text, "cannot read debugfs allocations\n");
	vseg_debugfs_parse_allocations(text, a);
	free(text);
}

void vseg_debugfs_free_allocations(struct vseg_allocations *a)
{
	free(a->bo);
	a->bo = NULL;
	a->num = a->count = 0;
}

const struct vseg_allocation *
vseg_allocation_find(const struct vseg_allocations *a, uint64_t buffer_id)
{
	for (unsigned int i = 0; i < a->num; i++)
		if (a->bo[i].buffer_id == buffer_id)
			return &a->bo[i];
	return NULL;
}

/* Assert that a "allocations" line agrees with a GEM_INFO. */
static void compare_allocation(const struct vseg_allocation *bo,
			       const struct drm_vseg_gem_info *info,
			       uint32_t handle)
{
	bool contiguous, mapped, resident, pinned;

	igt_assert_f(bo, "buffer %llu (handle %u) is not in debugfs allocations\n",
		     (unsigned long long)info->buffer_id, handle);
	contiguous = info->placement_flags & DRM_VSEG_INFO_CONTIGUOUS;
	mapped = info->placement_flags & DRM_VSEG_INFO_APERTURE_MAPPED;
	resident = info->placement_flags & DRM_VSEG_INFO_RESIDENT;
	pinned = info->placement_flags & DRM_VSEG_INFO_PINNED;
	igt_assert_f(bo->pid == getpid(),
		     "buffer %llu: debugfs owner pid %d, expected %d\n",
		     (unsigned long long)info->buffer_id, bo->pid, getpid());
	igt_assert_f(bo->size == info->size &&
		     bo->flags == info->create_flags &&
		     bo->segment == info->segment_id &&
		     bo->offset == info->offset &&
		     bo->contiguous == contiguous && bo->mapped == mapped &&
		     bo->moves == info->moves && bo->resident == resident &&
		     bo->pinned == pinned &&
		     (!mapped || (bo->ap_start == info->aperture_offset &&
				  bo->ap_size == info->size)),
		     "buffer %llu: debugfs says size=%#llx flags=%#x segment=%u offset=%#llx contiguous=%d aperture=%#llx+%#llx(%d) moves=%llu resident=%d pinned=%d; "
		     "GEM_INFO says size=%#llx flags=%#x segment=%u offset=%#llx placement_flags=%#x aperture_offset=%#llx moves=%llu\n",
		     (unsigned long long)info->buffer_id,
		     (unsigned long long)bo->size, bo->flags, bo->segment,
		     (unsigned long long)bo->offset, bo->contiguous,
		     (unsigned long long)bo->ap_start,
		     (unsigned long long)bo->ap_size, bo->mapped,
		     (unsigned long long)bo->moves, bo->resident, bo->pinned,
		     (unsigned long long)info->size, info->create_flags,
		     info->segment_id, (unsigned long long)info->offset,
		     info->placement_flags,
		     (unsigned long long)info->aperture_offset,
		     (unsigned long long)info->moves);
}

void vseg_check_allocation(int fd, uint32_t handle,
			   struct drm_vseg_gem_info *out)
{
	struct drm_vseg_gem_info info;
	struct vseg_allocations a;

	vseg_gem_info(fd, handle, &info);
	vseg_debugfs_read_allocations(fd, &a);
	compare_allocation(vseg_allocation_find(&a, info.buffer_id), &info,
			   handle);
	vseg_debugfs_free_allocations(&a);
	if (out)
		*out = info;
}

void vseg_check_no_overlap(const struct vseg_allocations *a,
			   const struct drm_vseg_query_segments *q,
			   const struct drm_vseg_segment_info *segs)
{
	for (unsigned int i = 0; i < a->num; i++) {
		const struct vseg_allocation *x = &a->bo[i];
		const struct drm_vseg_segment_info *s;

		if (!x->contiguous || !x->segment ||
		    x->segment > q->num_segments)
			continue;
		s = &segs[x->segment - 1];
		if (s->kind != DRM_VSEG_SEGMENT_KIND_MEMORY)
			continue;
		igt_assert_f(x->offset < s->size &&
			     x->size <= s->size - x->offset,
			     "buffer %llu: %#llx+%#llx outside segment %u\n",
			     (unsigned long long)x->buffer_id,
			     (unsigned long long)x->offset,
			     (unsigned long long)x->size, x->segment);
		for (unsigned int j = i + 1; j < a->num; j++) {
			const struct vseg_allocation *y = &a->bo[j];

			if (!y->contiguous || y->segment != x->segment)
				continue;
			igt_assert_f(x->offset + x->size <= y->offset ||
				     y->offset + y->size <= x->offset,
				     "buffers %llu (%#llx+%#llx) and %llu (%#llx+%#llx) overlap in segment %u\n",
				     (unsigned long long)x->buffer_id,
				     (unsigned long long)x->offset,
				     (unsigned long long)x->size,
				     (unsigned long long)y->buffer_id,
				     (unsigned long long)y->offset,
				     (unsigned long long)y->size, x->segment);
		}
	}
}

void vseg_check_allocations(int fd, const uint32_t *handles, unsigned int n)
{
	struct drm_vseg_query_segments q;
	struct drm_vseg_segment_info *segs;
	struct vseg_allocations a;

	segs = vseg_query_all(fd, &q);
	vseg_debugfs_read_allocations(fd, &a);
	for (unsigned int i = 0; i < n; i++) {
		struct drm_vseg_gem_info info;

		vseg_gem_info(fd, handles[i], &info);
		compare_allocation(vseg_allocation_find(&a, info.buffer_id),
				   &info, handles[i]);
	}
	vseg_check_no_overlap(&a, &q, segs);
	vseg_debugfs_free_allocations(&a);
	free(segs);
}

void vseg_debugfs_parse_aperture(const char *text,
				 struct vseg_aperture_state *s)
{
	char *copy, *line, *save = NULL;
	unsigned int cap = 16;
	uint64_t sum = 0;

	memset(s, 0, sizeof(*s));
	copy = strdup(text);
	igt_assert(copy);
	s->range = calloc(cap, sizeof(*s->range));
	igt_assert(s->range);

	line = strtok_r(copy, "\n", &save);
	igt_assert_f(line && !strncmp(line, "vseg aperture:", 14),
		     "unexpected first line of aperture: \"%s\"\n",
		     line ? line : "");
	s->segment = line_u64(line, "segment", "aperture");
	s->size = line_u64(line, "size", "aperture");
	s->commit_limit = line_u64(line, "commit_limit", "aperture");
	s->committed = line_u64(line, "committed", "aperture");
	s->mapped = line_u64(line, "mapped", "aperture");

	while ((line = strtok_r(NULL, "\n", &save))) {
		struct vseg_aperture_range *r;
		char buf[512];

		if (!line[0])
			continue;
		igt_assert_f(!strncmp(line, "range ", 6),
			     "unexpected line in aperture: \"%s\"\n", line);
		if (s->num_ranges == cap) {
			cap *= 2;
			s->range = realloc(s->range, cap * sizeof(*s->range));
			igt_assert(s->range);
		}
		/* line_value() looks for " key=": give it a leading space. */
		snprintf(buf, sizeof(buf), " %s", line + 6);
		r = &s->range[s->num_ranges++];
		r->start = line_u64(buf, "start", "aperture");
		r->size = line_u64(buf, "size", "aperture");
		r->buffer_id = line_u64(buf, "bo", "aperture");
		igt_assert_f(r->size && !(r->start & 4095) && !(r->size & 4095) &&
			     r->start < s->size && r->size <= s->size - r->start,
			     "debugfs aperture: range %#llx+%#llx outside the %#llx-byte aperture\n",
			     (unsigned long long)r->start,
			     (unsigned long long)r->size,
			     (unsigned long long)s->size);
		if (s->num_ranges > 1) {
			const struct vseg_aperture_range *p = r - 1;

			igt_assert_f(p->start + p->size <= r->start,
				     "debugfs aperture: ranges %#llx+%#llx and %#llx+%#llx overlap or are out of order\n",
				     (unsigned long long)p->start,
				     (unsigned long long)p->size,
				     (unsigned long long)r->start,
				     (unsigned long long)r->size);
		}
		sum += r->size;
	}
	free(copy);
	igt_assert_f(sum == s->mapped,
		     "debugfs aperture: mapped=%llu but the ranges add up to %llu\n",
		     (unsigned long long)s->mapped, (unsigned long long)sum);
	igt_assert_f(s->committed <= s->commit_limit &&
		     s->commit_limit <= s->size,
		     "debugfs aperture: committed=%llu commit_limit=%llu size=%llu\n",
		     (unsigned long long)s->committed,
		     (unsigned long long)s->commit_limit,
		     (unsigned long long)s->size);
}

void vseg_debugfs_read_aperture(int fd, struct vseg_aperture_state *s)
{
	char *text = vseg_debugfs_read_file(fd, "aperture");

	igt_assert_f(text, "cannot read debugfs aperture\n");
	vseg_debugfs_parse_aperture(text, s);
	free(text);
}

void vseg_debugfs_free_aperture(struct vseg_aperture_state *s)
{
	free(s->range);
	s->range = NULL;
	s->num_ranges = 0;
}

const struct vseg_aperture_range *
vseg_aperture_find(const struct vseg_aperture_state *s, uint64_t buffer_id)
{
	for (unsigned int i = 0; i < s->num_ranges; i++)
		if (s->range[i].buffer_id == buffer_id)
			return &s->range[i];
	return NULL;
}

unsigned int vseg_allocation_count(int fd)
{
	struct vseg_allocations a;
	unsigned int n;

	vseg_debugfs_read_allocations(fd, &a);
	n = a.num;
	vseg_debugfs_free_allocations(&a);
	return n;
}
