/* SPDX-License-Identifier: MIT */
/*
 * Reading the kernel log (/dev/kmsg).
 *
 * Copyright (c) 2026 The vseg authors
 */
#ifndef IGT_VSEG_KMSG_H
#define IGT_VSEG_KMSG_H

#include <stdbool.h>

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

#endif /* IGT_VSEG_KMSG_H */
