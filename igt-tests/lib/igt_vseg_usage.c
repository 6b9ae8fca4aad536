// SPDX-License-Identifier: MIT
/*
 * What every segment holds and has done: snapshots of its usage counters
 * (the query) and its paging counters (debugfs "paging").
 *
 * Copyright (c) 2026 The vseg authors
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "igt.h"
#include "igt_vseg.h"

static void usage_sub(__u64 *v, uint64_t n)
{
	*v -= n < *v ? n : *v;
}

/*
 * GPU page-table pages (debugfs "pagetables": a line per VA space, with
 * the segment they live in and how many) are kernel buffers that stay as
 * long as their VA space: left out of the figures tests compare, which
 * are the buffers'. Nothing is left out where debugfs cannot be read.
 */
static void usage_drop_pagetables(int fd, struct vseg_usage_snapshot *u)
{
	char *text = vseg_debugfs_read_file(fd, "pagetables"), *l;
	unsigned int seg, pages;

	if (!text)
		return;
	for (l = text; l && *l; l = strchr(l, '\n'), l = l ? l + 1 : NULL) {
		if (sscanf(l, "space pid=%*d root=%*s segment=%u pages=%u",
			   &seg, &pages) != 2 || seg > u->num_segments)
			continue;
		usage_sub(&u->usage[seg].committed, pages * 4096ull);
		usage_sub(&u->usage[seg].aperture_mapped, pages * 4096ull);
	}
	free(text);
}

void vseg_usage_read_now(int fd, struct vseg_usage_snapshot *u)
{
	struct drm_vseg_query_segments q;
	struct drm_vseg_segment_info *segs;

	memset(u, 0, sizeof(*u));
	segs = vseg_query_all(fd, &q);
	u->num_segments = q.num_segments;
	u->usage[0] = q.system_usage;
	for (unsigned int i = 0; i < q.num_segments; i++)
		u->usage[i + 1] = segs[i].usage;
	free(segs);
	usage_drop_pagetables(fd, u);
}

/*
 * A closed buffer's memory is freed once the paging engine is done with
 * it, and TTM frees the old placements of moves a little after: a
 * snapshot to compare later ones with is taken once two reads a while
 * apart agree.
 */
void vseg_usage_read(int fd, struct vseg_usage_snapshot *u)
{
	struct vseg_usage_snapshot again;
	struct timespec start = {};

	igt_gettime(&start);
	vseg_usage_read_now(fd, u);
	for (;;) {
		usleep(20000);
		vseg_usage_read_now(fd, &again);
		if (vseg_usage_equal(u, &again) ||
		    igt_nsec_elapsed(&start) / 1000000 >= VSEG_USAGE_SETTLE_MS)
			break;
		*u = again;
	}
}

bool vseg_usage_equal(const struct vseg_usage_snapshot *a,
		      const struct vseg_usage_snapshot *b)
{
	if (a->num_segments != b->num_segments)
		return false;
	for (unsigned int i = 0; i <= a->num_segments; i++) {
		const struct drm_vseg_segment_usage *x = &a->usage[i];
		const struct drm_vseg_segment_usage *y = &b->usage[i];

		if (x->committed != y->committed ||
		    x->resident != y->resident || x->evicted != y->evicted ||
		    x->aperture_mapped != y->aperture_mapped)
			return false;
	}
	return true;
}

void vseg_usage_print(const struct vseg_usage_snapshot *u, const char *what)
{
	for (unsigned int i = 0; i <= u->num_segments; i++)
		igt_info("%s: segment %u committed=%llu resident=%llu evicted=%llu mapped=%llu\n",
			 what, i, (unsigned long long)u->usage[i].committed,
			 (unsigned long long)u->usage[i].resident,
			 (unsigned long long)u->usage[i].evicted,
			 (unsigned long long)u->usage[i].aperture_mapped);
}

static void usage_assert_now(int fd, const struct vseg_usage_snapshot *want,
			     const char *what)
{
	struct vseg_usage_snapshot now;

	vseg_usage_read_now(fd, &now);
	if (vseg_usage_equal(&now, want))
		return;
	vseg_usage_print(want, "expected");
	vseg_usage_print(&now, "actual");
	igt_assert_f(false, "%s: segment usage differs from what was expected\n",
		     what);
}

void vseg_usage_assert(int fd, const struct vseg_usage_snapshot *want,
		       const char *what)
{
	vseg_usage_wait(fd, want, VSEG_USAGE_SETTLE_MS, what);
}

void vseg_usage_wait(int fd, const struct vseg_usage_snapshot *want,
		     unsigned int timeout_ms, const char *what)
{
	struct vseg_usage_snapshot now;
	struct timespec start = {};

	igt_gettime(&start);
	for (;;) {
		vseg_usage_read_now(fd, &now);
		if (vseg_usage_equal(&now, want))
			return;
		if (igt_nsec_elapsed(&start) / 1000000 >= timeout_ms)
			break;
		usleep(10000);
	}
	usage_assert_now(fd, want, what);
}

/* The paging engine's line (with the page pool's figures), before the segments. */
static void parse_paging_engine(const struct vseg_debugfs_line *l,
				struct vseg_paging *p)
{
	struct vseg_paging_engine *e = &p->engine;
	static const char * const ops[] = {
		"transfer", "fill", "discard", "map", "unmap", "crypt",
		"update_pt", "flush_tlb", "transfer_virtual", "fill_virtual",
	};

	if (vseg_debugfs_is(l, "engine")) {
		e->segment = vseg_debugfs_u64(l, "buffer_segment");
		e->size = vseg_debugfs_u64(l, "buffer_size");
		e->operations = vseg_debugfs_u64(l, "operations");
		e->offset = vseg_debugfs_u64(l, "offset");
		e->private = vseg_debugfs_u64(l, "private");
		e->private_zero = vseg_debugfs_bool(l, "private_zero");
		e->batches = vseg_debugfs_u64(l, "batches");
		e->pending = vseg_debugfs_u64(l, "pending");
		e->full = vseg_debugfs_u64(l, "full");
		e->failed = vseg_debugfs_u64(l, "failed");
		e->bytes = vseg_debugfs_u64(l, "bytes");
		for (unsigned int i = 0; i < ARRAY_SIZE(ops); i++)
			e->op[i] = vseg_debugfs_u64(l, ops[i]);
		e->va = vseg_debugfs_bool(l, "va");
		e->va_valid = vseg_debugfs_u64(l, "va_valid");
		e->va_valid_4k = vseg_debugfs_u64(l, "va_valid_4k");
		e->va_valid_64k = vseg_debugfs_u64(l, "va_valid_64k");
		e->va_readonly = vseg_debugfs_u64(l, "va_readonly");
		e->va_system = vseg_debugfs_u64(l, "va_system");
		p->pool.pages = vseg_debugfs_u64(l, "pool_pages");
		p->pool.max = vseg_debugfs_u64(l, "pool_max");
		p->pool.hits = vseg_debugfs_u64(l, "pool_hits");
		p->pool.misses = vseg_debugfs_u64(l, "pool_misses");
		p->pool.overflows = vseg_debugfs_u64(l, "pool_overflows");
		p->pool.shrunk = vseg_debugfs_u64(l, "pool_shrunk");
	} else {
		igt_assert_f(false,
			     "unexpected line in debugfs paging: \"%s\"\n",
			     l->text);
	}
}

void vseg_debugfs_parse_paging(const char *text, struct vseg_paging *p)
{
	struct vseg_debugfs_file f;
	bool seen = false;

	memset(p, 0, sizeof(*p));
	vseg_debugfs_parse("paging", text, NULL, &f);
	for (unsigned int i = 0; i < f.num_lines; i++) {
		const struct vseg_debugfs_line *l = &f.line[i];
		struct vseg_paging_segment *s;
		const char *name;

		if (!vseg_debugfs_is(l, "segment")) {
			igt_assert_f(!seen,
				     "unexpected line in debugfs paging: \"%s\"\n",
				     l->text);
			parse_paging_engine(l, p);
			continue;
		}
		seen = true;
		igt_assert_f(l->id <= DRM_VSEG_MAX_SEGMENTS,
			     "debugfs paging: bad segment line \"%s\"\n",
			     l->text);
		s = &p->seg[l->id];
		igt_assert_f(!s->present,
			     "debugfs paging lists segment %u twice\n", l->id);
		s->present = true;
		name = vseg_debugfs_value(l, "name");
		igt_assert_f(name && strlen(name) < sizeof(s->name),
			     "debugfs paging: no name= in \"%s\"\n", l->text);
		strcpy(s->name, name);
		s->transfers = vseg_debugfs_u64(l, "transfers");
		s->fills = vseg_debugfs_u64(l, "fills");
		s->discards = vseg_debugfs_u64(l, "discards");
		s->map = vseg_debugfs_u64(l, "map");
		s->unmap = vseg_debugfs_u64(l, "unmap");
	}
	vseg_debugfs_free(&f);
	igt_assert_f(seen, "debugfs paging has no segment line\n");
}

/*
 * Moves end on the paging engine, after the ioctl that asked for them: the
 * counters are read once it has run every operation queued (pending=0),
 * within VSEG_USAGE_SETTLE_MS.
 */
void vseg_debugfs_read_paging(int fd, struct vseg_paging *p)
{
	struct timespec start = {};

	igt_gettime(&start);
	for (;;) {
		char *text = vseg_debugfs_read_text(fd, "paging");

		vseg_debugfs_parse_paging(text, p);
		free(text);
		if (!p->engine.pending ||
		    igt_nsec_elapsed(&start) / 1000000 >= VSEG_USAGE_SETTLE_MS)
			break;
		usleep(5000);
	}
}
