// SPDX-License-Identifier: MIT
/*
 * Snapshots of the usage counters of every segment.
 *
 * Copyright (c) 2026 The vseg authors
 */
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "igt.h"
#include "igt_vseg.h"

void vseg_usage_read(int fd, struct vseg_usage_snapshot *u)
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

void vseg_usage_assert(int fd, const struct vseg_usage_snapshot *want,
		       const char *what)
{
	struct vseg_usage_snapshot now;

	vseg_usage_read(fd, &now);
	if (vseg_usage_equal(&now, want))
		return;
	vseg_usage_print(want, "expected");
	vseg_usage_print(&now, "actual");
	igt_assert_f(false, "%s: segment usage differs from what was expected\n",
		     what);
}

void vseg_usage_wait(int fd, const struct vseg_usage_snapshot *want,
		     unsigned int timeout_ms, const char *what)
{
	struct vseg_usage_snapshot now;
	struct timespec start = {};

	igt_gettime(&start);
	for (;;) {
		vseg_usage_read(fd, &now);
		if (vseg_usage_equal(&now, want))
			return;
		if (igt_nsec_elapsed(&start) / 1000000 >= timeout_ms)
			break;
		usleep(10000);
	}
	vseg_usage_assert(fd, want, what);
}
