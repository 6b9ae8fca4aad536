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

static void parse_allocation(const struct vseg_debugfs_line *l,
			     struct vseg_allocation *bo)
{
	const char *owner = vseg_debugfs_value(l, "owner");
	const char *colon = owner ? strchr(owner, ':') : NULL;
	uint64_t pid;
	char *num;

	memset(bo, 0, sizeof(*bo));
	bo->buffer_id = l->id;
	igt_assert_f(owner, "debugfs allocations: no owner in \"%s\"\n",
		     l->text);
	igt_assert_f(colon && colon != owner,
		     "debugfs allocations: owner is not pid:comm in \"%s\"\n",
		     l->text);
	num = strndup(owner, colon - owner);
	igt_assert(num);
	pid = strtoull(num, NULL, 10);
	free(num);
	bo->pid = pid;
	snprintf(bo->comm, sizeof(bo->comm), "%s", colon + 1);

	bo->size = vseg_debugfs_u64(l, "size");
	bo->flags = vseg_debugfs_u64(l, "flags");
	bo->segment = vseg_debugfs_u64(l, "segment");
	bo->offset = vseg_debugfs_u64(l, "offset");
	bo->contiguous = vseg_debugfs_bool(l, "contiguous");
	bo->moves = vseg_debugfs_u64(l, "moves");
	bo->resident = vseg_debugfs_bool(l, "resident");
	bo->pinned = vseg_debugfs_bool(l, "pinned");
	bo->mapped = vseg_debugfs_range(l, "aperture", &bo->ap_start,
					&bo->ap_size);
}

void vseg_debugfs_parse_allocations(const char *text,
				    struct vseg_allocations *a)
{
	struct vseg_debugfs_file f;
	const struct vseg_debugfs_line *header;

	memset(a, 0, sizeof(*a));
	/* The owner's command name may have spaces. */
	vseg_debugfs_parse("allocations", text, "owner", &f);
	header = &f.line[0];
	igt_assert_f(f.num_lines &&
		     !strcmp(header->head, "vseg allocations:"),
		     "unexpected first line of allocations: \"%s\"\n",
		     f.num_lines ? header->text : "");
	a->count = vseg_debugfs_u64(header, "count");
	a->bo = calloc(f.num_lines, sizeof(*a->bo));
	igt_assert(a->bo);
	for (unsigned int i = 1; i < f.num_lines; i++) {
		igt_assert_f(vseg_debugfs_is(&f.line[i], "bo"),
			     "unexpected line in allocations: \"%s\"\n",
			     f.line[i].text);
		parse_allocation(&f.line[i], &a->bo[a->num++]);
		for (unsigned int j = 0; j + 1 < a->num; j++)
			igt_assert_f(a->bo[j].buffer_id !=
				     a->bo[a->num - 1].buffer_id,
				     "debugfs allocations: buffer %llu listed twice\n",
				     (unsigned long long)a->bo[j].buffer_id);
	}
	vseg_debugfs_free(&f);
	igt_assert_f(a->num == a->count,
		     "debugfs allocations: count=%u but %u buffer lines\n",
		     a->count, a->num);
}

void vseg_debugfs_read_allocations(int fd, struct vseg_allocations *a)
{
	char *text = vseg_debugfs_read_text(fd, "allocations");

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

/*
 * Parse "aperture" and check its form; returns the bytes the ranges add
 * up to, which the caller compares with the header's "mapped".
 */
static uint64_t aperture_parse(const char *text, struct vseg_aperture_state *s)
{
	struct vseg_debugfs_file f;
	const struct vseg_debugfs_line *header;
	uint64_t sum = 0;

	memset(s, 0, sizeof(*s));
	vseg_debugfs_parse("aperture", text, NULL, &f);
	header = &f.line[0];
	igt_assert_f(f.num_lines && !strcmp(header->head, "vseg aperture:"),
		     "unexpected first line of aperture: \"%s\"\n",
		     f.num_lines ? header->text : "");
	s->segment = vseg_debugfs_u64(header, "segment");
	s->size = vseg_debugfs_u64(header, "size");
	s->commit_limit = vseg_debugfs_u64(header, "commit_limit");
	s->committed = vseg_debugfs_u64(header, "committed");
	s->mapped = vseg_debugfs_u64(header, "mapped");

	s->range = calloc(f.num_lines, sizeof(*s->range));
	igt_assert(s->range);
	for (unsigned int i = 1; i < f.num_lines; i++) {
		const struct vseg_debugfs_line *l = &f.line[i];
		struct vseg_aperture_range *r = &s->range[s->num_ranges++];

		igt_assert_f(!strcmp(l->head, "range"),
			     "unexpected line in aperture: \"%s\"\n", l->text);
		r->start = vseg_debugfs_u64(l, "start");
		r->size = vseg_debugfs_u64(l, "size");
		r->buffer_id = vseg_debugfs_u64(l, "bo");
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
	vseg_debugfs_free(&f);
	return sum;
}

static void aperture_assert_consistent(const struct vseg_aperture_state *s,
				       uint64_t sum)
{
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

void vseg_debugfs_parse_aperture(const char *text,
				 struct vseg_aperture_state *s)
{
	aperture_assert_consistent(s, aperture_parse(text, s));
}

/*
 * The header's "mapped" counts valid GART entries, the range lines count
 * allocated ranges: the file reads them one after the other. They differ
 * for a moment after a move out of the aperture, while TTM's ghost object
 * still holds the old range whose entries the move already cleared, until
 * its delayed delete. Read again until they agree, as usage does.
 */
void vseg_debugfs_read_aperture(int fd, struct vseg_aperture_state *s)
{
	struct timespec start = {};
	uint64_t sum;

	igt_gettime(&start);
	for (;;) {
		char *text = vseg_debugfs_read_text(fd, "aperture");

		sum = aperture_parse(text, s);
		free(text);
		if (sum == s->mapped ||
		    igt_nsec_elapsed(&start) / 1000000 >= VSEG_USAGE_SETTLE_MS)
			break;
		vseg_debugfs_free_aperture(s);
		usleep(10000);
	}
	aperture_assert_consistent(s, sum);
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
