/* SPDX-License-Identifier: MIT */
/*
 * The vseg device's debugfs directory, its files, and the "segments"
 * file.
 *
 * Copyright (c) 2026 The vseg authors
 */
#ifndef IGT_VSEG_DEBUGFS_H
#define IGT_VSEG_DEBUGFS_H

#include <stdint.h>

#include "vseg_drm.h"

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

#endif /* IGT_VSEG_DEBUGFS_H */
