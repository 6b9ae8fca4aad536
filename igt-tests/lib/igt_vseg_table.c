// SPDX-License-Identifier: MIT
/*
 * Expected segment tables, built by a test or read from the kernel, compared
 * field by field with a queried one.
 *
 * Copyright (c) 2026 The vseg authors
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "igt.h"
#include "igt_vseg.h"

struct drm_vseg_segment_info *
vseg_table_add(struct vseg_table *t, uint32_t kind, const char *name,
	       uint64_t flags, uint64_t base, uint64_t cpu, uint64_t size,
	       uint64_t visible, uint64_t commit, uint64_t sysend,
	       uint32_t page)
{
	struct drm_vseg_segment_info *s = &t->seg[t->num_segments];

	memset(s, 0, sizeof(*s));
	s->id = ++t->num_segments;
	s->kind = kind;
	snprintf(s->name, sizeof(s->name), "%s", name);
	s->flags = flags;
	s->base_address = base;
	s->cpu_translated_address = cpu;
	s->size = size;
	s->cpu_visible_size = visible;
	s->commit_limit = commit;
	s->system_memory_end_address = sysend;
	s->page_size = page;
	return s;
}

void vseg_table_query(int fd, struct vseg_table *t)
{
	struct drm_vseg_query_segments q;
	struct drm_vseg_segment_info *segs = vseg_query_all(fd, &q);

	vseg_table_from_query(t, &q, segs);
	free(segs);
}

void vseg_table_from_query(struct vseg_table *t,
			   const struct drm_vseg_query_segments *q,
			   const struct drm_vseg_segment_info *segs)
{
	memset(t, 0, sizeof(*t));
	igt_assert(q->num_segments <= DRM_VSEG_MAX_SEGMENTS);
	t->num_segments = q->num_segments;
	t->paging_segment_id = q->paging_buffer_segment_id;
	t->paging_size = q->paging_buffer_size;
	t->paging_private = q->paging_buffer_private_data_size;
	memcpy(t->seg, segs, q->num_segments * sizeof(*segs));
}

#define CHECK_FIELD(got, want, field) \
	igt_assert_f((got)->field == (want)->field, \
		     "segment %u \"%s\": " #field " is %#llx, expected %#llx\n", \
		     (want)->id, (want)->name, \
		     (unsigned long long)(got)->field, \
		     (unsigned long long)(want)->field)

void vseg_check_table(const struct vseg_table *want,
		      const struct drm_vseg_query_segments *q,
		      const struct drm_vseg_segment_info *segs)
{
	igt_assert_f(q->num_segments == want->num_segments,
		     "%u segments, expected %u\n", q->num_segments,
		     want->num_segments);
	igt_assert_f(q->paging_buffer_segment_id == want->paging_segment_id,
		     "paging buffer segment %u, expected %u\n",
		     q->paging_buffer_segment_id, want->paging_segment_id);
	igt_assert_f(q->paging_buffer_size == want->paging_size,
		     "paging buffer size %#x, expected %#x\n",
		     q->paging_buffer_size, want->paging_size);
	igt_assert_f(q->paging_buffer_private_data_size == want->paging_private,
		     "paging buffer private data size %#x, expected %#x\n",
		     q->paging_buffer_private_data_size, want->paging_private);

	for (unsigned int i = 0; i < want->num_segments; i++) {
		const struct drm_vseg_segment_info *got = &segs[i];
		const struct drm_vseg_segment_info *exp = &want->seg[i];

		igt_assert_f(memchr(got->name, 0, sizeof(got->name)) &&
			     !strcmp(got->name, exp->name),
			     "segment %u: name \"%.16s\", expected \"%s\"\n",
			     exp->id, got->name, exp->name);
		CHECK_FIELD(got, exp, id);
		CHECK_FIELD(got, exp, kind);
		CHECK_FIELD(got, exp, flags);
		CHECK_FIELD(got, exp, base_address);
		CHECK_FIELD(got, exp, cpu_translated_address);
		CHECK_FIELD(got, exp, size);
		CHECK_FIELD(got, exp, cpu_visible_size);
		CHECK_FIELD(got, exp, commit_limit);
		CHECK_FIELD(got, exp, system_memory_end_address);
		CHECK_FIELD(got, exp, page_size);
		CHECK_FIELD(got, exp, num_banks);
		for (unsigned int b = 0; b < DRM_VSEG_MAX_BANKS; b++)
			CHECK_FIELD(got, exp, bank_end[b]);
		CHECK_FIELD(got, exp, num_invalid_ranges);
		for (unsigned int r = 0; r < DRM_VSEG_MAX_INVALID_RANGES; r++) {
			CHECK_FIELD(got, exp, invalid_ranges[r].start);
			CHECK_FIELD(got, exp, invalid_ranges[r].size);
		}
		CHECK_FIELD(got, exp, pad);
		for (unsigned int r = 0; r < 4; r++)
			CHECK_FIELD(got, exp, reserved[r]);
		CHECK_FIELD(got, exp, cpu_host_aperture_address);
		CHECK_FIELD(got, exp, cpu_host_aperture_size);
	}
}
