/* SPDX-License-Identifier: MIT */
/*
 * Expected segment tables, built by a test or read from the kernel, compared
 * field by field with a queried one.
 *
 * Copyright (c) 2026 The vseg authors
 */
#ifndef IGT_VSEG_TABLE_H
#define IGT_VSEG_TABLE_H

#include <stdint.h>

#include "vseg_drm.h"

/**
 * struct vseg_table - a whole segment table, as the query returns it
 * @num_segments: entries used in @seg.
 * @paging_segment_id: paging buffer segment.
 * @paging_size: paging buffer size.
 * @paging_private: paging buffer private data size.
 * @seg: the segments (usage counters zero).
 */
struct vseg_table {
	uint32_t num_segments;
	uint32_t paging_segment_id;
	uint32_t paging_size;
	uint32_t paging_private;
	struct drm_vseg_segment_info seg[DRM_VSEG_MAX_SEGMENTS];
};

/*
 * Append a segment to @t (id: the next one, usage zero) and return it, for
 * building expected tables.
 */
struct drm_vseg_segment_info *
vseg_table_add(struct vseg_table *t, uint32_t kind, const char *name,
	       uint64_t flags, uint64_t base, uint64_t cpu, uint64_t size,
	       uint64_t visible, uint64_t commit, uint64_t sysend,
	       uint32_t page);
/* The table of the device behind @fd, as the query returns it now. */
void vseg_table_query(int fd, struct vseg_table *t);
/* The table the query returns for @q and @segs (usage included). */
void vseg_table_from_query(struct vseg_table *t,
			   const struct drm_vseg_query_segments *q,
			   const struct drm_vseg_segment_info *segs);
/* Assert that the queried table equals @want, field by field. */
void vseg_check_table(const struct vseg_table *want,
		      const struct drm_vseg_query_segments *q,
		      const struct drm_vseg_segment_info *segs);

#endif /* IGT_VSEG_TABLE_H */
