// SPDX-License-Identifier: MIT
/*
 * The vseg device's debugfs directory, its files, and the "segments"
 * file.
 *
 * Copyright (c) 2026 The vseg authors
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "igt.h"
#include "igt_vseg.h"

int vseg_debugfs_dir(int fd)
{
	char name[256];
	int dir;

	dir = igt_debugfs_dir(fd);
	if (dir < 0)
		return -1;
	if (igt_debugfs_simple_read(dir, "name", name, sizeof(name)) <= 0 ||
	    strncmp(name, VSEG_DRIVER, strlen(VSEG_DRIVER)) ||
	    (name[strlen(VSEG_DRIVER)] != ' ' &&
	     name[strlen(VSEG_DRIVER)] != '\n' &&
	     name[strlen(VSEG_DRIVER)] != '\0')) {
		close(dir);
		return -1;
	}
	return dir;
}

/* Split "k=v k=v ..." (modified in place) into @l. */
static void parse_pairs(struct vseg_debugfs_line *l, char *text,
			const char *what)
{
	char *save = NULL;

	for (char *tok = strtok_r(text, " ", &save); tok;
	     tok = strtok_r(NULL, " ", &save)) {
		char *eq = strchr(tok, '=');

		igt_assert_f(eq && eq != tok && eq[1],
			     "%s: \"%s\" is not key=value\n", what, tok);
		igt_assert_f(l->num_keys < VSEG_DEBUGFS_MAX_KEYS,
			     "%s: too many keys\n", what);
		*eq = '\0';
		igt_assert_f(!vseg_debugfs_value(l, tok),
			     "%s: duplicate key %s\n", what, tok);
		l->key[l->num_keys] = tok;
		l->value[l->num_keys] = eq + 1;
		l->num_keys++;
	}
}

void vseg_debugfs_read_segments(int fd, struct vseg_debugfs_segments *s)
{
	const size_t size = 1 << 16;
	char *text;
	int dir, len;

	dir = vseg_debugfs_dir(fd);
	igt_assert_f(dir >= 0, "no debugfs directory for the vseg device\n");
	text = malloc(size);
	igt_assert(text);
	len = igt_debugfs_simple_read(dir, "segments", text, size);
	close(dir);
	igt_assert_f(len > 0, "reading debugfs segments failed: %d (%s)\n",
		     len, strerror(-len));
	igt_assert_f((size_t)len < size - 1, "debugfs segments is too large\n");
	igt_debug("debugfs segments:\n%s", text);
	vseg_debugfs_parse_segments(text, s);
	free(text);
}

void vseg_debugfs_parse_segments(const char *text,
				 struct vseg_debugfs_segments *s)
{
	struct vseg_debugfs_line header;
	char *line, *save = NULL;

	memset(s, 0, sizeof(*s));
	s->text = strdup(text);
	igt_assert(s->text);

	line = strtok_r(s->text, "\n", &save);
	igt_assert_f(line && !strncmp(line, "vseg segment table: ", 20),
		     "unexpected first line of segments: \"%s\"\n",
		     line ? line : "");
	memset(&header, 0, sizeof(header));
	parse_pairs(&header, line + 20, "segments header");
	s->num_segments = vseg_debugfs_u64(&header, "segments");
	s->paging_segment = vseg_debugfs_u64(&header, "paging_segment");
	s->paging_size = vseg_debugfs_u64(&header, "paging_size");
	s->paging_private = vseg_debugfs_u64(&header, "paging_private");

	while ((line = strtok_r(NULL, "\n", &save))) {
		struct vseg_debugfs_line *l;
		char *end;
		unsigned long id;

		if (!line[0])
			continue;
		igt_assert_f(!strncmp(line, "segment ", 8),
			     "unexpected line in segments: \"%s\"\n", line);
		igt_assert_f(s->num_lines <= DRM_VSEG_MAX_SEGMENTS,
			     "too many segment lines\n");
		l = &s->line[s->num_lines++];
		id = strtoul(line + 8, &end, 10);
		igt_assert_f(end != line + 8 && (*end == ' ' || !*end),
			     "bad segment id in \"%s\"\n", line);
		l->id = id;
		parse_pairs(l, end, "segment line");
	}
}

void vseg_debugfs_free_segments(struct vseg_debugfs_segments *s)
{
	free(s->text);
	s->text = NULL;
}

const char *vseg_debugfs_value(const struct vseg_debugfs_line *line,
			       const char *key)
{
	for (unsigned int i = 0; i < line->num_keys; i++)
		if (!strcmp(line->key[i], key))
			return line->value[i];
	return NULL;
}

uint64_t vseg_debugfs_u64(const struct vseg_debugfs_line *line,
			  const char *key)
{
	const char *v = vseg_debugfs_value(line, key);
	unsigned long long val;
	char *end;

	igt_assert_f(v, "segment %u: debugfs key %s missing\n", line->id, key);
	errno = 0;
	val = strtoull(v, &end, 0);
	igt_assert_f(!errno && end != v && !*end,
		     "segment %u: debugfs %s=%s is not a number\n", line->id,
		     key, v);
	return val;
}

char *vseg_debugfs_read_file(int fd, const char *name)
{
	size_t len = 0, cap = 1 << 16;
	char *buf;
	int dir, file;

	dir = vseg_debugfs_dir(fd);
	if (dir < 0)
		return NULL;
	file = openat(dir, name, O_RDONLY | O_CLOEXEC);
	close(dir);
	if (file < 0)
		return NULL;
	buf = malloc(cap);
	igt_assert(buf);
	for (;;) {
		ssize_t r;

		if (cap - len < 4096) {
			cap *= 2;
			buf = realloc(buf, cap);
			igt_assert(buf);
		}
		r = read(file, buf + len, cap - len - 1);
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0) {
			igt_warn("reading debugfs %s: %s\n", name,
				 strerror(errno));
			free(buf);
			close(file);
			errno = 0;
			return NULL;
		}
		if (r == 0)
			break;
		len += r;
	}
	close(file);
	buf[len] = '\0';
	return buf;
}
