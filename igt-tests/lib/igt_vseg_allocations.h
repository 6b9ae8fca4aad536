/* SPDX-License-Identifier: MIT */
/*
 * The debugfs files "allocations" and "aperture", checked against
 * GEM_INFO.
 *
 * Copyright (c) 2026 The vseg authors
 */
#ifndef IGT_VSEG_ALLOCATIONS_H
#define IGT_VSEG_ALLOCATIONS_H

#include <stdbool.h>
#include <stdint.h>

#include "vseg_drm.h"

/**
 * struct vseg_allocation - one buffer line of debugfs "allocations"
 * @buffer_id: the id (GEM_INFO buffer_id).
 * @pid: the owner's pid.
 * @comm: the owner's command name.
 * @size: bytes.
 * @flags: create flags.
 * @segment: segment id it lives in (0: system memory).
 * @offset: offset in the segment.
 * @contiguous: one range.
 * @mapped: it has an aperture range, @ap_start + @ap_size.
 * @ap_start: start of the aperture range.
 * @ap_size: length of the aperture range.
 * @moves: moves between segments.
 * @resident: resident in a memory segment or the aperture.
 * @pinned: pinned.
 */
struct vseg_allocation {
	uint64_t buffer_id;
	int pid;
	char comm[32];
	uint64_t size;
	uint32_t flags;
	uint32_t segment;
	uint64_t offset;
	bool contiguous;
	bool mapped;
	uint64_t ap_start;
	uint64_t ap_size;
	uint64_t moves;
	bool resident;
	bool pinned;
};

/**
 * struct vseg_allocations - the parsed "allocations" file
 * @count: the count of the header line.
 * @num: buffer lines (@count if the file is consistent).
 * @bo: those lines (malloc()ed).
 */
struct vseg_allocations {
	unsigned int count;
	unsigned int num;
	struct vseg_allocation *bo;
};

/* Read and parse "allocations"; asserts it is well-formed. */
void vseg_debugfs_read_allocations(int fd, struct vseg_allocations *a);
/* Parse the text of "allocations"; asserts it is well-formed. */
void vseg_debugfs_parse_allocations(const char *text,
				    struct vseg_allocations *a);
void vseg_debugfs_free_allocations(struct vseg_allocations *a);
/* The line of buffer @buffer_id, or NULL. */
const struct vseg_allocation *
vseg_allocation_find(const struct vseg_allocations *a, uint64_t buffer_id);
/*
 * Assert that the "allocations" line of @handle agrees with its GEM_INFO
 * (segment, offset, size, flags, contiguity, aperture range, moves,
 * residency, owner pid) and return that GEM_INFO in @info if not NULL.
 */
void vseg_check_allocation(int fd, uint32_t handle,
			   struct drm_vseg_gem_info *info);

/*
 * The same for @n handles at once, with one read of "allocations"; also
 * asserts that no two contiguous buffers of a memory segment overlap.
 */
void vseg_check_allocations(int fd, const uint32_t *handles, unsigned int n);
/*
 * Assert that no two contiguous buffers listed in "allocations" overlap in
 * their memory segment (@segs: the queried table).
 */
void vseg_check_no_overlap(const struct vseg_allocations *a,
			   const struct drm_vseg_query_segments *q,
			   const struct drm_vseg_segment_info *segs);

/**
 * struct vseg_aperture_range - one GART range of debugfs "aperture"
 * @start: aperture offset.
 * @size: bytes.
 * @buffer_id: the buffer it maps.
 */
struct vseg_aperture_range {
	uint64_t start;
	uint64_t size;
	uint64_t buffer_id;
};

/**
 * struct vseg_aperture_state - the parsed "aperture" file
 * @segment: the aperture's segment id.
 * @size: aperture size.
 * @commit_limit: its commit limit.
 * @committed: bytes committed.
 * @mapped: bytes of GART entries in use.
 * @num_ranges: entries of @range, in address order.
 * @range: the GART ranges (malloc()ed).
 */
struct vseg_aperture_state {
	uint32_t segment;
	uint64_t size;
	uint64_t commit_limit;
	uint64_t committed;
	uint64_t mapped;
	unsigned int num_ranges;
	struct vseg_aperture_range *range;
};

/* Read and parse "aperture"; asserts it is well-formed and consistent. */
void vseg_debugfs_read_aperture(int fd, struct vseg_aperture_state *s);
void vseg_debugfs_parse_aperture(const char *text,
				 struct vseg_aperture_state *s);
void vseg_debugfs_free_aperture(struct vseg_aperture_state *s);
/* The range of buffer @buffer_id, or NULL. */
const struct vseg_aperture_range *
vseg_aperture_find(const struct vseg_aperture_state *s, uint64_t buffer_id);

/* Buffer lines of debugfs "allocations" (asserts it is well-formed). */
unsigned int vseg_allocation_count(int fd);

#endif /* IGT_VSEG_ALLOCATIONS_H */
