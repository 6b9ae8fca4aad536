/* SPDX-License-Identifier: MIT */
/*
 * The segment query (DRM_IOCTL_VSEG_QUERY_SEGMENTS), the segments of a
 * queried table and the rules every queried table obeys.
 *
 * Copyright (c) 2026 The vseg authors
 */
#ifndef IGT_VSEG_QUERY_H
#define IGT_VSEG_QUERY_H

#include <stdbool.h>
#include <stdint.h>

#include "vseg_drm.h"

/*
 * DRM_IOCTL_VSEG_DEVICE_QUERY of @query with @size bytes at @data: 0 or
 * -errno; *@size receives the result's size on success.
 */
int __vseg_device_query(int fd, uint32_t query, void *data, uint32_t *size);
/*
 * Both calls of DEVICE_QUERY @query; asserts success and returns the
 * result (malloc()ed, free() it), its size in *@size.
 */
void *vseg_device_query(int fd, uint32_t query, uint32_t *size);

/* DRM_IOCTL_VSEG_QUERY_SEGMENTS: 0 or -errno. */
int __vseg_query_segments(int fd, struct drm_vseg_query_segments *q);
/* The count call (num_segments = 0); asserts success. */
void vseg_query_count(int fd, struct drm_vseg_query_segments *q);
/*
 * Both calls; asserts success and returns the array (malloc()ed, free() it).
 * @q receives the result of the fill call.
 */
struct drm_vseg_segment_info *vseg_query_all(int fd,
					     struct drm_vseg_query_segments *q);

/* The segment with id @id of a queried table (asserts it exists). */
const struct drm_vseg_segment_info *
vseg_segment(const struct drm_vseg_query_segments *q,
	     const struct drm_vseg_segment_info *segs, uint32_t id);
/* Id of the aperture segment of a queried table (asserts there is one). */
uint32_t vseg_aperture_id(const struct drm_vseg_query_segments *q,
			  const struct drm_vseg_segment_info *segs);
/* Id of the segment named @name (asserts it exists). */
uint32_t vseg_segment_by_name(const struct drm_vseg_query_segments *q,
			      const struct drm_vseg_segment_info *segs,
			      const char *name);
/*
 * Bitmask of every segment of the table, a client's set: bit 0 (system
 * memory) is never in it (GEM_CREATE: -EINVAL since driver 0.8), the
 * aperture's bit naming system memory.
 */
uint32_t vseg_all_segments(const struct drm_vseg_query_segments *q);
/*
 * The supported set that names system memory on @fd's device: the
 * aperture's bit (segment 0 is not a client's to name since driver 0.8).
 */
uint32_t vseg_system_set(int fd);

/* Assert that a queried table obeys the WDDM rules the driver enforces. */
void vseg_check_table_rules(const struct drm_vseg_query_segments *q,
			    const struct drm_vseg_segment_info *segs);
/*
 * Assert that every usage counter (and reserved usage field) is zero, but
 * the aperture's commit and mapping of the paging buffer when it is there.
 */
void vseg_check_usage_zero(const struct drm_vseg_query_segments *q,
			   const struct drm_vseg_segment_info *segs);
/* Bytes segment @id commits to the paging buffer (0 unless the aperture). */
uint64_t vseg_paging_buffer_commit(const struct drm_vseg_query_segments *q,
				   uint32_t id);

/* WDDM (DXGK_SEGMENTFLAGS) name of flag @bit, or NULL. */
const char *vseg_flag_name(unsigned int bit);

#endif /* IGT_VSEG_QUERY_H */
