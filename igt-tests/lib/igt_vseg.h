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

#endif /* IGT_VSEG_H */
