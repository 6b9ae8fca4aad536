/* SPDX-License-Identifier: MIT */
/*
 * Helpers for the vseg tests: opening the vseg device, loading the module,
 * the segment query, the expected tables of the built-in profiles, the
 * kernel log and the debugfs "segments" file.
 *
 * Written against upstream IGT's library API only, so that it can live in
 * upstream's lib/ next to the other driver helpers.
 *
 * Copyright (c) 2026 The vseg authors
 */
#ifndef IGT_VSEG_H
#define IGT_VSEG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "vseg_drm.h"

#define VSEG_MODULE	"vseg"
#define VSEG_DRIVER	"vseg"

#ifndef SZ_4K
#define SZ_4K	0x1000ull
#endif
#ifndef SZ_64K
#define SZ_64K	0x10000ull
#endif
#ifndef SZ_1M
#define SZ_1M	0x100000ull
#endif
#ifndef SZ_4M
#define SZ_4M	0x400000ull
#endif
#ifndef SZ_8M
#define SZ_8M	0x800000ull
#endif
#ifndef SZ_16M
#define SZ_16M	0x1000000ull
#endif
#ifndef SZ_32M
#define SZ_32M	0x2000000ull
#endif
#ifndef SZ_64M
#define SZ_64M	0x4000000ull
#endif
#define VSEG_APERTURE_BASE	0x100000000ull
#define VSEG_PAGING_SIZE	0x10000u

/* --- device nodes ------------------------------------------------------ */

/* First vseg card (or render) node, or -ENODEV; never skips. */
int __drm_open_vseg(void);
int __drm_open_vseg_render(void);
/* Same, but igt_require() that a vseg device exists. */
int drm_open_vseg(void);
int drm_open_vseg_render(void);
bool is_vseg_device(int fd);
void igt_require_vseg(int fd);
/* Number of /dev/dri nodes (cards and render nodes) driven by vseg. */
int vseg_count_nodes(void);
/* Number of entries in /dev/dri (0 if it does not exist). */
int vseg_count_dri_entries(void);

/* --- module ------------------------------------------------------------ */

/* igt_require() root (needed to load and unload modules). */
void vseg_require_root(void);
/* VmallocUsed of /proc/meminfo in KiB: where memory segments live. */
long vseg_vmalloc_used_kb(void);
/* Is vseg loaded, or vseg.ko in $IGT_KMOD_PATH or /lib/modules/`uname -r`? */
bool vseg_module_available(void);
/* igt_require() root and vseg_module_available(). */
void vseg_require_module(void);
/* Unload vseg if it is loaded; asserts that it is gone afterwards. */
void vseg_unload(void);
/* vseg_unload(), then load vseg with @opts; asserts the load succeeds. */
void vseg_reload(const char *opts);

/* --- segment query ----------------------------------------------------- */

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

/* --- expected tables --------------------------------------------------- */

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

extern const char * const vseg_profiles[];
extern const unsigned int vseg_num_profiles;

/* The table of a built-in profile, without size overrides. */
void vseg_profile_table(const char *profile, struct vseg_table *t);
/*
 * Append a segment to @t (id: the next one, usage zero) and return it, for
 * building expected tables.
 */
struct drm_vseg_segment_info *
vseg_table_add(struct vseg_table *t, uint32_t kind, const char *name,
	       uint64_t flags, uint64_t base, uint64_t cpu, uint64_t size,
	       uint64_t visible, uint64_t commit, uint64_t sysend,
	       uint32_t page);
/* The table the query returns for @q and @segs (usage included). */
void vseg_table_from_query(struct vseg_table *t,
			   const struct drm_vseg_query_segments *q,
			   const struct drm_vseg_segment_info *segs);
/* Assert that the queried table equals @want, field by field. */
void vseg_check_table(const struct vseg_table *want,
		      const struct drm_vseg_query_segments *q,
		      const struct drm_vseg_segment_info *segs);
/* Assert that a queried table obeys the WDDM rules the driver enforces. */
void vseg_check_table_rules(const struct drm_vseg_query_segments *q,
			    const struct drm_vseg_segment_info *segs);
/* Assert that every usage counter (and reserved usage field) is zero. */
void vseg_check_usage_zero(const struct drm_vseg_query_segments *q,
			   const struct drm_vseg_segment_info *segs);

/* WDDM (DXGK_SEGMENTFLAGS) name of flag @bit, or NULL. */
const char *vseg_flag_name(unsigned int bit);

/* --- kernel log -------------------------------------------------------- */

/* /dev/kmsg opened for reading, positioned after the current end; -errno. */
int vseg_kmsg_open(void);
/*
 * The messages logged since the fd was opened or last read: a
 * NULL-terminated array of malloc()ed strings (message text only, escapes
 * undone, no trailing newline). Free with vseg_kmsg_free().
 */
char **vseg_kmsg_read(int kmsg_fd);
void vseg_kmsg_free(char **lines);
/* Does @text match @pattern, where '*' in @pattern matches any text? */
bool vseg_glob(const char *pattern, const char *text);

/* --- debugfs ----------------------------------------------------------- */

/* The vseg device's debugfs directory (its "name" file says vseg); -1. */
int vseg_debugfs_dir(int fd);

#define VSEG_DEBUGFS_MAX_KEYS 40

/**
 * struct vseg_debugfs_line - one line of the debugfs "segments" file
 * @id: the number after "segment".
 * @num_keys: pairs used.
 * @key: keys.
 * @value: values, in the order of @key.
 */
struct vseg_debugfs_line {
	unsigned int id;
	unsigned int num_keys;
	char *key[VSEG_DEBUGFS_MAX_KEYS];
	char *value[VSEG_DEBUGFS_MAX_KEYS];
};

/**
 * struct vseg_debugfs_segments - the parsed "segments" file
 * @num_segments: from the header line.
 * @paging_segment: from the header line.
 * @paging_size: from the header line.
 * @paging_private: from the header line.
 * @num_lines: segment lines that follow the header.
 * @line: those lines; @line[0] should be segment 0.
 * @text: the file's text (the strings above point into it).
 */
struct vseg_debugfs_segments {
	unsigned int num_segments;
	uint64_t paging_segment;
	uint64_t paging_size;
	uint64_t paging_private;
	unsigned int num_lines;
	struct vseg_debugfs_line line[DRM_VSEG_MAX_SEGMENTS + 1];
	char *text;
};

/* Read and parse "segments"; asserts on a malformed file. */
void vseg_debugfs_read_segments(int fd, struct vseg_debugfs_segments *s);
/* Parse the text of "segments" (copied into @s); asserts it is well-formed. */
void vseg_debugfs_parse_segments(const char *text,
				 struct vseg_debugfs_segments *s);
void vseg_debugfs_free_segments(struct vseg_debugfs_segments *s);
/* Value of @key on @line, or NULL. */
const char *vseg_debugfs_value(const struct vseg_debugfs_line *line,
			       const char *key);
/* Value of @key on @line as a number; asserts it is present and numeric. */
uint64_t vseg_debugfs_u64(const struct vseg_debugfs_line *line,
			  const char *key);

/* --- buffers (GEM_CREATE, GEM_INFO, mmap, residency) ------------------- */

#define VSEG_SEG_BIT(id)	(1u << (id))

/*
 * Fill @c for a buffer of @size bytes that may live in @supported (a
 * bitmask of segment ids, bit 0 system memory), with create @flags and no
 * preferred segment, alignment, eviction set or hinted bank.
 */
void vseg_create_args(struct drm_vseg_gem_create *c, uint64_t size,
		      uint32_t supported, uint32_t flags);
/* Append @segment_id (with DRM_VSEG_PREF_* @pref_flags) to c->preferred. */
void vseg_create_prefer(struct drm_vseg_gem_create *c, uint32_t segment_id,
			uint32_t pref_flags);
/* DRM_IOCTL_VSEG_GEM_CREATE: 0 or -errno. */
int __vseg_gem_create(int fd, struct drm_vseg_gem_create *c);
/* The same, asserting success; returns the handle. */
uint32_t vseg_gem_create(int fd, struct drm_vseg_gem_create *c);
/* A buffer of @size in @supported with @flags; returns the handle. */
uint32_t vseg_gem_create_simple(int fd, uint64_t size, uint32_t supported,
				uint32_t flags);
/* DRM_IOCTL_VSEG_GEM_INFO on @handle: 0 or -errno. */
int __vseg_gem_info(int fd, uint32_t handle, struct drm_vseg_gem_info *info);
void vseg_gem_info(int fd, uint32_t handle, struct drm_vseg_gem_info *info);
/* DRM_IOCTL_GEM_CLOSE: 0 or -errno. */
int __vseg_gem_close(int fd, uint32_t handle);
void vseg_gem_close(int fd, uint32_t handle);
/* DRM_IOCTL_VSEG_GEM_MMAP_OFFSET: 0 or -errno; the fake offset in @offset. */
int __vseg_gem_mmap_offset(int fd, uint32_t handle, uint64_t *offset);
/* MMAP_OFFSET + mmap(MAP_SHARED) of @size bytes; NULL on failure. */
void *__vseg_gem_mmap(int fd, uint32_t handle, uint64_t size, int prot);
/* The same, asserting success. */
void *vseg_gem_mmap(int fd, uint32_t handle, uint64_t size, int prot);
/*
 * DRM_IOCTL_VSEG_MAKE_RESIDENT / DRM_IOCTL_VSEG_EVICT on @count handles:
 * 0 or -errno; @processed (if not NULL) receives the processed count.
 */
int __vseg_make_resident(int fd, const uint32_t *handles, uint32_t count,
			 uint32_t *processed);
int __vseg_evict(int fd, const uint32_t *handles, uint32_t count,
		 uint32_t *processed);
/* The same, asserting success and that every handle was processed. */
void vseg_make_resident(int fd, const uint32_t *handles, uint32_t count);
void vseg_evict(int fd, const uint32_t *handles, uint32_t count);
/* The same as __vseg_make_resident() / __vseg_evict(), with @flags. */
int __vseg_make_resident_flags(int fd, const uint32_t *handles,
			       uint32_t count, uint32_t flags,
			       uint32_t *processed);
int __vseg_evict_flags(int fd, const uint32_t *handles, uint32_t count,
		       uint32_t flags, uint32_t *processed);
/*
 * DRM_IOCTL_VSEG_MAKE_RESIDENT or DRM_IOCTL_VSEG_EVICT (@ioc) with @r as it
 * is: 0 or -errno (errno is cleared).
 */
int __vseg_residency(int fd, unsigned long ioc, struct drm_vseg_residency *r);
/* "success" for 0, else strerror(-@err). */
const char *vseg_errname(int err);

/* --- segments ----------------------------------------------------------- */

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
/* Bitmask of every segment of the table, system memory (bit 0) included. */
uint32_t vseg_all_segments(const struct drm_vseg_query_segments *q);

/**
 * struct vseg_usage_snapshot - usage of every segment at one time
 * @num_segments: segments of the table.
 * @usage: @usage[0] is the system segment, @usage[id] segment id.
 */
struct vseg_usage_snapshot {
	uint32_t num_segments;
	struct drm_vseg_segment_usage usage[DRM_VSEG_MAX_SEGMENTS + 1];
};

/* Query the usage of every segment. */
void vseg_usage_read(int fd, struct vseg_usage_snapshot *u);
/* Do two snapshots have the same counters? */
bool vseg_usage_equal(const struct vseg_usage_snapshot *a,
		      const struct vseg_usage_snapshot *b);
/* Assert that the usage now equals @want; @what names the situation. */
void vseg_usage_assert(int fd, const struct vseg_usage_snapshot *want,
		       const char *what);
/*
 * Wait up to @timeout_ms for the usage to equal @want (buffers may be
 * released asynchronously), then assert that it does.
 */
void vseg_usage_wait(int fd, const struct vseg_usage_snapshot *want,
		     unsigned int timeout_ms, const char *what);
/* Log a snapshot with igt_info(), prefixed with @what. */
void vseg_usage_print(const struct vseg_usage_snapshot *u, const char *what);

/* --- data patterns ------------------------------------------------------ */

/*
 * A pattern that differs for every (seed, 8-byte word) pair, so that data
 * of another buffer or another offset is told apart.
 */
void vseg_pattern_fill(void *ptr, uint64_t size, uint32_t seed);
/* Offset of the first byte that differs from the pattern, or -1. */
int64_t vseg_pattern_check(const void *ptr, uint64_t size, uint32_t seed);
/* Offset of the first nonzero byte, or -1. */
int64_t vseg_zero_check(const void *ptr, uint64_t size);

/* --- debugfs "allocations" and "aperture" ------------------------------- */

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

/* A whole debugfs file of the vseg device (malloc()ed), or NULL. */
char *vseg_debugfs_read_file(int fd, const char *name);
/* Buffer lines of debugfs "allocations" (asserts it is well-formed). */
unsigned int vseg_allocation_count(int fd);

/* --- a test's device, segment table and starting point ----------------- */

/**
 * enum vseg_leftovers - what vseg_ctx_finish() asserts of "allocations"
 * @VSEG_LEFTOVERS_BASE_COUNT: as many buffers are listed as when the base
 *	was taken (vseg_ctx_load() and vseg_ctx_start() count them).
 * @VSEG_LEFTOVERS_NONE_OURS: no buffer of this process is listed.
 * @VSEG_LEFTOVERS_NONE: no buffer at all is listed.
 */
enum vseg_leftovers {
	VSEG_LEFTOVERS_BASE_COUNT,
	VSEG_LEFTOVERS_NONE_OURS,
	VSEG_LEFTOVERS_NONE,
};

/**
 * struct vseg_ctx - the device a test works on and what it started from
 * @fd: the vseg card node, or -1.
 * @q: the segment query of @segs.
 * @segs: the queried segment table (malloc()ed), or NULL.
 * @ap_id: id of the aperture segment of @segs.
 * @base_usage: the usage when the base was taken; vseg_ctx_finish() waits
 *	for it again.
 * @base_count: buffers listed in debugfs "allocations" when the base was
 *	taken (with VSEG_LEFTOVERS_BASE_COUNT only; else 0).
 * @leftovers: what vseg_ctx_finish() checks; set with VSEG_CTX_INIT().
 */
struct vseg_ctx {
	int fd;
	struct drm_vseg_query_segments q;
	struct drm_vseg_segment_info *segs;
	uint32_t ap_id;
	struct vseg_usage_snapshot base_usage;
	unsigned int base_count;
	enum vseg_leftovers leftovers;
};

#define VSEG_CTX_INIT(check) { .fd = -1, .leftovers = (check) }

/*
 * Install an igt exit handler that closes @ctx's fd and unloads vseg if it
 * is loaded (one context per process).
 */
void vseg_ctx_install_exit_handler(struct vseg_ctx *ctx);
/* Close @ctx->fd if it is open. */
void vseg_ctx_close(struct vseg_ctx *ctx);
/*
 * Close @ctx->fd, reload vseg with "profile=@profile" and open the device;
 * @profile may be followed by more module options ("discrete table=...").
 */
void vseg_ctx_reload(struct vseg_ctx *ctx, const char *profile);
/* Query the segment table of @ctx->fd into @ctx (and the aperture id). */
void vseg_ctx_query(struct vseg_ctx *ctx);
/*
 * Take the base: the usage now (and the "allocations" count, with
 * VSEG_LEFTOVERS_BASE_COUNT).
 */
void vseg_ctx_take_base(struct vseg_ctx *ctx);
/* vseg_ctx_reload(), vseg_ctx_query() and vseg_ctx_take_base(). */
void vseg_ctx_load(struct vseg_ctx *ctx, const char *profile);
/* Reopen the device (a file of its own) and take the base again. */
void vseg_ctx_start(struct vseg_ctx *ctx);
/*
 * Wait up to @timeout_ms for the usage to be back to the base (@what names
 * the situation), check "allocations" as @ctx->leftovers says, close the fd.
 */
void vseg_ctx_finish(struct vseg_ctx *ctx, unsigned int timeout_ms,
		     const char *what);
/* Close the fd, free the table and unload vseg (asserting it is gone). */
void vseg_ctx_unload(struct vseg_ctx *ctx);
/* Segment @id of @ctx's table (asserts it exists). */
const struct drm_vseg_segment_info *
vseg_ctx_seg(const struct vseg_ctx *ctx, uint32_t id);
/* Is @id a memory segment (0, system memory, is not)? */
bool vseg_ctx_is_memory(const struct vseg_ctx *ctx, uint32_t id);
/* The name of segment @id, "system" for 0. */
const char *vseg_ctx_seg_name(const struct vseg_ctx *ctx, uint32_t id);

/*
 * The seed of a randomized test: $VSEG_SEED if it is set, else @fallback;
 * logged with igt_info() so that a run can be repeated.
 */
uint32_t vseg_test_seed(uint32_t fallback);

#endif /* IGT_VSEG_H */
