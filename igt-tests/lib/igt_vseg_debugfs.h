/* SPDX-License-Identifier: MIT */
/*
 * The vseg device's debugfs directory and the one parser of its
 * "key=value" files (segments, allocations, aperture, display, paging),
 * and the "segments" file.
 *
 * Copyright (c) 2026 The vseg authors
 */
#ifndef IGT_VSEG_DEBUGFS_H
#define IGT_VSEG_DEBUGFS_H

#include <stdbool.h>
#include <stdint.h>

/* The vseg device's debugfs directory (its "name" file says vseg); -1. */
int vseg_debugfs_dir(int fd);
/* A whole debugfs file of the vseg device (malloc()ed), or NULL. */
char *vseg_debugfs_read_file(int fd, const char *name);
/* The same, asserting it could be read; logged with igt_debug(). */
char *vseg_debugfs_read_text(int fd, const char *name);

#define VSEG_DEBUGFS_MAX_KEYS 64

/**
 * struct vseg_debugfs_line - one line of a vseg debugfs file
 * @file: the file's name, for messages.
 * @text: the whole line, for messages.
 * @head: the words before the first key=value pair: "segment 1", "bo 7",
 *	"range", "vseg aperture:".
 * @has_id: @head is a word and a number ("segment 1").
 * @id: that number.
 * @num_keys: pairs used.
 * @key: keys.
 * @value: values, in the order of @key.
 * @buf: the storage @head, @key and @value point into.
 *
 * Every vseg debugfs file is made of such lines: a few words, then
 * space-separated key=value pairs, each key once.
 */
struct vseg_debugfs_line {
	const char *file;
	char *text;
	const char *head;
	bool has_id;
	unsigned int id;
	unsigned int num_keys;
	char *key[VSEG_DEBUGFS_MAX_KEYS];
	char *value[VSEG_DEBUGFS_MAX_KEYS];
	char *buf;
};

/**
 * struct vseg_debugfs_file - the lines of a vseg debugfs file
 * @name: the file's name.
 * @num_lines: lines that are not empty.
 * @line: those lines (malloc()ed).
 */
struct vseg_debugfs_file {
	const char *name;
	unsigned int num_lines;
	struct vseg_debugfs_line *line;
};

/*
 * Split @text, the contents of debugfs file @name, into lines of words and
 * key=value pairs; asserts that it is well-formed. The value of
 * @spaced_key (or NULL) may contain spaces: words without '=' after it
 * belong to it (the command name of "owner" in "allocations").
 */
void vseg_debugfs_parse(const char *name, const char *text,
			const char *spaced_key, struct vseg_debugfs_file *f);
/* Read debugfs file @name of the vseg device and parse it. */
void vseg_debugfs_read(int fd, const char *name, const char *spaced_key,
		       struct vseg_debugfs_file *f);
void vseg_debugfs_free(struct vseg_debugfs_file *f);

/* Is @l a line "@word <number> ..."? */
bool vseg_debugfs_is(const struct vseg_debugfs_line *l, const char *word);
/* Value of @key on @line, or NULL. */
const char *vseg_debugfs_value(const struct vseg_debugfs_line *line,
			       const char *key);
/* Value of @key as a number (decimal or 0x hex); asserts there is one. */
uint64_t vseg_debugfs_u64(const struct vseg_debugfs_line *line,
			  const char *key);
/* Value of @key as 0 or 1; asserts it is one of them. */
bool vseg_debugfs_bool(const struct vseg_debugfs_line *line, const char *key);
/*
 * Value of @key as a number (0x hex if @hex), or "-" for none: false for
 * "-", else true with the number in @v; asserts it is one of them.
 */
bool vseg_debugfs_u64_or_none(const struct vseg_debugfs_line *line,
			      const char *key, bool hex, uint64_t *v);
/*
 * Value of @key as a range "0xSTART+0xLENGTH", or "-" for none: false for
 * "-", else true with the range in @start and @size; asserts it is one of
 * them.
 */
bool vseg_debugfs_range(const struct vseg_debugfs_line *line, const char *key,
			uint64_t *start, uint64_t *size);

/**
 * struct vseg_debugfs_segments - the parsed "segments" file
 * @num_segments: from the header line.
 * @paging_segment: from the header line.
 * @paging_size: from the header line.
 * @paging_private: from the header line.
 * @num_lines: segment lines that follow the header.
 * @line: those lines; @line[0] should be segment 0.
 * @file: the file (@line points into it).
 */
struct vseg_debugfs_segments {
	unsigned int num_segments;
	uint64_t paging_segment;
	uint64_t paging_size;
	uint64_t paging_private;
	unsigned int num_lines;
	const struct vseg_debugfs_line *line;
	struct vseg_debugfs_file file;
};

/* Read and parse "segments"; asserts on a malformed file. */
void vseg_debugfs_read_segments(int fd, struct vseg_debugfs_segments *s);
/* Parse the text of "segments"; asserts it is well-formed. */
void vseg_debugfs_parse_segments(const char *text,
				 struct vseg_debugfs_segments *s);
void vseg_debugfs_free_segments(struct vseg_debugfs_segments *s);

#endif /* IGT_VSEG_DEBUGFS_H */
