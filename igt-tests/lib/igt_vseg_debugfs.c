// SPDX-License-Identifier: MIT
/*
 * The vseg device's debugfs directory and the one parser of its
 * "key=value" files, and the "segments" file.
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

char *vseg_debugfs_read_file(int fd, const char *name)
{
	char *buf = NULL;
	size_t size = 0;
	int dir, file;
	FILE *f;

	dir = vseg_debugfs_dir(fd);
	if (dir < 0)
		return NULL;
	file = openat(dir, name, O_RDONLY | O_CLOEXEC);
	close(dir);
	f = file >= 0 ? fdopen(file, "r") : NULL;
	if (!f) {
		if (file >= 0)
			close(file);
		return NULL;
	}
	/* The whole file: it has no NUL byte. */
	if (getdelim(&buf, &size, '\0', f) < 0 && !feof(f)) {
		igt_warn("reading debugfs %s: %s\n", name, strerror(errno));
		free(buf);
		buf = NULL;
	} else if (!buf) {
		buf = strdup("");
		igt_assert(buf);
	}
	fclose(f);
	errno = 0;
	return buf;
}

char *vseg_debugfs_read_text(int fd, const char *name)
{
	char *text = vseg_debugfs_read_file(fd, name);

	igt_assert_f(text, "cannot read debugfs %s\n", name);
	igt_debug("debugfs %s:\n%s", name, text);
	return text;
}

/* Is @s a whole number: decimal, or hex after "0x" (only, if @hex)? */
static bool parse_number(const char *s, bool hex, uint64_t *v)
{
	unsigned long long x;
	char *end;

	if (hex && strncmp(s, "0x", 2))
		return false;
	if (*s == '-' || *s == '+' || *s == ' ')
		return false;
	errno = 0;
	x = strtoull(s, &end, 0);
	if (errno || end == s || *end) {
		errno = 0;
		return false;
	}
	*v = x;
	return true;
}

/*
 * Split @l->buf (a copy of the line) into head words and key=value pairs,
 * in place: the words of the head stay joined by spaces.
 */
static void parse_line(struct vseg_debugfs_line *l, const char *spaced_key)
{
	char *p = l->buf, *head_end = NULL;
	uint64_t id;

	l->head = l->buf;
	while (*p) {
		char *word = p, *end = strchr(p, ' '), *eq;

		if (end)
			*end = '\0';
		p = end ? end + 1 : word + strlen(word);
		if (!*word)
			continue;
		eq = strchr(word, '=');
		if (!eq && !l->num_keys) {
			head_end = word + strlen(word);
			continue;
		}
		if (!eq) {
			igt_assert_f(spaced_key &&
				     !strcmp(l->key[l->num_keys - 1],
					     spaced_key),
				     "debugfs %s: \"%s\" is not key=value in \"%s\"\n",
				     l->file, word, l->text);
			word[-1] = ' ';	/* part of the previous value */
			continue;
		}
		igt_assert_f(eq != word && eq[1],
			     "debugfs %s: \"%s\" is not key=value in \"%s\"\n",
			     l->file, word, l->text);
		igt_assert_f(l->num_keys < VSEG_DEBUGFS_MAX_KEYS,
			     "debugfs %s: too many keys in \"%s\"\n", l->file,
			     l->text);
		*eq = '\0';
		igt_assert_f(!vseg_debugfs_value(l, word),
			     "debugfs %s: key %s twice in \"%s\"\n", l->file, word,
			     l->text);
		l->key[l->num_keys] = word;
		l->value[l->num_keys] = eq + 1;
		l->num_keys++;
	}
	/* The head: its words, joined again. */
	if (head_end) {
		for (char *c = l->buf; c < head_end; c++)
			if (!*c)
				*c = ' ';
	} else {
		l->head = "";
	}

	p = strchr(l->head, ' ');
	l->has_id = p && !strchr(p + 1, ' ') &&
		    parse_number(p + 1, false, &id) && id <= UINT32_MAX;
	l->id = l->has_id ? id : 0;
}

void vseg_debugfs_parse(const char *name, const char *text,
			const char *spaced_key, struct vseg_debugfs_file *f)
{
	const char *p = text;
	unsigned int cap = 16;

	memset(f, 0, sizeof(*f));
	f->name = name;
	f->line = calloc(cap, sizeof(*f->line));
	igt_assert(f->line);
	while (*p) {
		const char *end = strchr(p, '\n');
		struct vseg_debugfs_line *l;

		if (!end)
			end = p + strlen(p);

		if (end == p) {
			p++;
			continue;
		}
		if (f->num_lines == cap) {
			cap *= 2;
			f->line = realloc(f->line, cap * sizeof(*f->line));
			igt_assert(f->line);
		}
		l = &f->line[f->num_lines++];
		memset(l, 0, sizeof(*l));
		l->file = name;
		l->text = strndup(p, end - p);
		l->buf = strdup(l->text);
		igt_assert(l->text && l->buf);
		parse_line(l, spaced_key);
		p = *end ? end + 1 : end;
	}
}

void vseg_debugfs_read(int fd, const char *name, const char *spaced_key,
		       struct vseg_debugfs_file *f)
{
	char *text = vseg_debugfs_read_text(fd, name);

	vseg_debugfs_parse(name, text, spaced_key, f);
	free(text);
}

void vseg_debugfs_free(struct vseg_debugfs_file *f)
{
	for (unsigned int i = 0; i < f->num_lines; i++) {
		free(f->line[i].text);
		free(f->line[i].buf);
	}
	free(f->line);
	memset(f, 0, sizeof(*f));
}

bool vseg_debugfs_is(const struct vseg_debugfs_line *l, const char *word)
{
	size_t n = strlen(word);

	return l->has_id && !strncmp(l->head, word, n) && l->head[n] == ' ';
}

const char *vseg_debugfs_value(const struct vseg_debugfs_line *line,
			       const char *key)
{
	for (unsigned int i = 0; i < line->num_keys; i++)
		if (!strcmp(line->key[i], key))
			return line->value[i];
	return NULL;
}

/* Value of @key; asserts it is there. */
static const char *value_of(const struct vseg_debugfs_line *l,
			    const char *key)
{
	const char *v = vseg_debugfs_value(l, key);

	igt_assert_f(v, "debugfs %s: no %s= in \"%s\"\n", l->file, key,
		     l->text);
	return v;
}

uint64_t vseg_debugfs_u64(const struct vseg_debugfs_line *line,
			  const char *key)
{
	const char *v = value_of(line, key);
	uint64_t n = 0;

	igt_assert_f(parse_number(v, false, &n),
		     "debugfs %s: %s=%s is not a number in \"%s\"\n",
		     line->file, key, v, line->text);
	return n;
}

bool vseg_debugfs_bool(const struct vseg_debugfs_line *line, const char *key)
{
	uint64_t v = vseg_debugfs_u64(line, key);

	igt_assert_f(v <= 1, "debugfs %s: %s=%llu is not 0 or 1 in \"%s\"\n",
		     line->file, key, (unsigned long long)v, line->text);
	return v;
}

bool vseg_debugfs_u64_or_none(const struct vseg_debugfs_line *line,
			      const char *key, bool hex, uint64_t *v)
{
	const char *s = value_of(line, key);

	if (!strcmp(s, "-"))
		return false;
	igt_assert_f(parse_number(s, hex, v),
		     "debugfs %s: %s=%s is not %s in \"%s\"\n", line->file,
		     key, s, hex ? "0x<hex>" : "a number or -", line->text);
	return true;
}

bool vseg_debugfs_range(const struct vseg_debugfs_line *line, const char *key,
			uint64_t *start, uint64_t *size)
{
	const char *s = value_of(line, key);
	char *copy, *plus;
	bool ok;

	if (!strcmp(s, "-"))
		return false;
	copy = strdup(s);
	igt_assert(copy);
	plus = strchr(copy, '+');
	if (plus)
		*plus = '\0';
	ok = plus && parse_number(copy, true, start) &&
	     parse_number(plus + 1, true, size);
	free(copy);
	igt_assert_f(ok,
		     "debugfs %s: %s=%s is not 0xSTART+0xLENGTH in \"%s\"\n",
		     line->file, key, s, line->text);
	return true;
}

/* --- "segments" ----------------------------------------------------------- */

void vseg_debugfs_parse_segments(const char *text,
				 struct vseg_debugfs_segments *s)
{
	const struct vseg_debugfs_line *header;

	memset(s, 0, sizeof(*s));
	vseg_debugfs_parse("segments", text, NULL, &s->file);
	header = &s->file.line[0];
	igt_assert_f(s->file.num_lines &&
		     !strcmp(header->head, "vseg segment table:"),
		     "unexpected first line of segments: \"%s\"\n",
		     s->file.num_lines ? header->text : "");
	s->num_segments = vseg_debugfs_u64(header, "segments");
	s->paging_segment = vseg_debugfs_u64(header, "paging_segment");
	s->paging_size = vseg_debugfs_u64(header, "paging_size");
	s->paging_private = vseg_debugfs_u64(header, "paging_private");

	s->line = &s->file.line[1];
	s->num_lines = s->file.num_lines - 1;
	for (unsigned int i = 0; i < s->num_lines; i++)
		igt_assert_f(vseg_debugfs_is(&s->line[i], "segment"),
			     "unexpected line in segments: \"%s\"\n",
			     s->line[i].text);
}

void vseg_debugfs_read_segments(int fd, struct vseg_debugfs_segments *s)
{
	char *text = vseg_debugfs_read_text(fd, "segments");

	vseg_debugfs_parse_segments(text, s);
	free(text);
}

void vseg_debugfs_free_segments(struct vseg_debugfs_segments *s)
{
	vseg_debugfs_free(&s->file);
	s->line = NULL;
	s->num_lines = 0;
}
