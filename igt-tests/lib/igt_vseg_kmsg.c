// SPDX-License-Identifier: MIT
/*
 * Reading the kernel log (/dev/kmsg).
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

int vseg_kmsg_open(void)
{
	int fd;

	fd = open("/dev/kmsg", O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	if (lseek(fd, 0, SEEK_END) < 0) {
		int err = -errno;

		close(fd);
		return err;
	}
	return fd;
}

static int hexval(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

/* The message of one /dev/kmsg record, escapes undone. */
static char *kmsg_message(const char *rec, size_t len)
{
	const char *p = memchr(rec, ';', len), *end;
	char *msg, *o;

	if (!p)
		return NULL;
	p++;
	end = memchr(p, '\n', rec + len - p);
	if (!end)
		end = rec + len;
	msg = malloc(end - p + 1);
	if (!msg)
		return NULL;
	for (o = msg; p < end; p++) {
		if (p[0] == '\\' && end - p >= 4 && p[1] == 'x' &&
		    hexval(p[2]) >= 0 && hexval(p[3]) >= 0) {
			*o++ = (char)(hexval(p[2]) << 4 | hexval(p[3]));
			p += 3;
		} else {
			*o++ = *p;
		}
	}
	*o = '\0';
	return msg;
}

char **vseg_kmsg_read(int kmsg_fd)
{
	size_t count = 0, cap = 16;
	char **lines = calloc(cap + 1, sizeof(char *));
	char rec[8192];

	igt_assert(lines);
	for (;;) {
		ssize_t r = read(kmsg_fd, rec, sizeof(rec));
		char *msg;

		if (r < 0) {
			if (errno == EINTR || errno == EPIPE)
				continue;	/* EPIPE: records were overwritten */
			break;			/* EAGAIN: no more records */
		}
		if (r == 0)
			break;
		msg = kmsg_message(rec, r);
		if (!msg)
			continue;
		if (count == cap) {
			cap *= 2;
			lines = realloc(lines, (cap + 1) * sizeof(char *));
			igt_assert(lines);
		}
		lines[count++] = msg;
		lines[count] = NULL;
	}
	errno = 0;
	return lines;
}

void vseg_kmsg_free(char **lines)
{
	if (!lines)
		return;
	for (char **l = lines; *l; l++)
		free(*l);
	free(lines);
}

bool vseg_glob(const char *pattern, const char *text)
{
	const char *star = NULL, *resume = NULL;

	while (*text) {
		if (*pattern == '*') {
			star = pattern++;
			resume = text;
		} else if (*pattern == *text) {
			pattern++;
			text++;
		} else if (star) {
			pattern = star + 1;
			text = ++resume;
		} else {
			return false;
		}
	}
	while (*pattern == '*')
		pattern++;
	return !*pattern;
}
