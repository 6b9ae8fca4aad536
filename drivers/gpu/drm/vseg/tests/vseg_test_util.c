// SPDX-License-Identifier: GPL-2.0-only
/*
 * Copyright (c) 2026 The vseg authors
 *
 * The vseg_test module: KUnit suites for the pure logic of vseg (segment
 * tables, the GART, the aperture commit limit, placement derivation), and
 * the helpers they share. The driver reports a refused segment table with
 * one kernel log line naming the rule; the suites read it back from the
 * printk ring buffer, where it lands before printk() returns.
 */

#include <linux/module.h>
#include <linux/slab.h>
#include <linux/string.h>

#include "vseg_test.h"

/**
 * vseg_klog_start() - remember the end of the kernel log
 * @k: the reader
 */
void vseg_klog_start(struct vseg_klog *k)
{
	kmsg_dump_rewind(&k->iter);
	k->iter.cur_seq = k->iter.next_seq;
}

/* The text of a record, without the "[    1.234567] " time stamp. */
static const char *vseg_klog_text(char *line, size_t len)
{
	char *end;

	while (len && (line[len - 1] == '\n' || line[len - 1] == '\r'))
		len--;
	line[len] = '\0';
	if (line[0] == '[') {
		end = strstr(line, "] ");
		if (end)
			return end + 2;
	}
	return line;
}

/**
 * vseg_klog_count() - count the new log lines that match
 * @k: the reader, advanced to the end of the log
 * @prefix: only lines starting with this are looked at
 * @pattern: glob ('*' matches any text) a line must match, or NULL for any
 * @first: if not NULL, receives the first line that starts with @prefix
 *	(empty if none)
 * @size: size of @first
 *
 * Return: the number of lines starting with @prefix and matching @pattern.
 */
unsigned int vseg_klog_count(struct vseg_klog *k, const char *prefix,
			     const char *pattern, char *first, size_t size)
{
	const size_t line_size = 1024;
	unsigned int n = 0;
	const char *text;
	char *line;
	size_t len;

	if (first && size)
		first[0] = '\0';
	line = kmalloc(line_size, GFP_KERNEL);
	if (!line)
		return 0;
	while (kmsg_dump_get_line(&k->iter, false, line, line_size - 1, &len)) {
		text = vseg_klog_text(line, len);
		if (strncmp(text, prefix, strlen(prefix)))
			continue;
		if (first && size && !first[0])
			strscpy(first, text, size);
		if (!pattern || vseg_glob(pattern, text))
			n++;
	}
	kfree(line);
	return n;
}

/**
 * vseg_glob() - match text against a pattern where '*' matches any text
 * @pattern: the pattern; every other character matches itself
 * @text: the text
 *
 * Return: true if the whole of @text matches.
 */
bool vseg_glob(const char *pattern, const char *text)
{
	const char *star = NULL, *resume = NULL;

	while (*text) {
		if (*pattern == '*') {
			star = ++pattern;
			resume = text;
		} else if (*pattern == *text) {
			pattern++;
			text++;
		} else if (star) {
			pattern = star;
			text = ++resume;
		} else {
			return false;
		}
	}
	while (*pattern == '*')
		pattern++;
	return !*pattern;
}

MODULE_DESCRIPTION("KUnit tests of the vseg segment memory model");
MODULE_AUTHOR("The vseg authors");
MODULE_LICENSE("GPL");
