// SPDX-License-Identifier: MIT
/*
 * Fallbacks for the upstream IGT functions of igt_vseg_compat.h: weak, so
 * that the stand-in's own definitions win as soon as it has them.
 *
 * Copyright (c) 2026 The vseg authors
 */
#include <fcntl.h>
#include <stdio.h>
#include <unistd.h>

#include "igt.h"
#include "igt_vseg.h"

/*
 * As upstream: tell igt_runner to ignore the kernel warnings and errors
 * matching @ignore_dmesg_regex until the next (dynamic) subtest starts.
 * One write() per record, as /dev/kmsg wants.
 */
__attribute__((weak))
void igt_emit_ignore_dmesg_regex(const char *ignore_dmesg_regex)
{
	char line[1024];
	int fd, n;

	n = snprintf(line, sizeof(line),
		     KMSG_INFO "add ignored dmesg regex: %s\n",
		     ignore_dmesg_regex);
	igt_assert(n > 0 && (size_t)n < sizeof(line));
	fd = open("/dev/kmsg", O_WRONLY | O_CLOEXEC);
	if (fd < 0)
		return;
	if (write(fd, line, n) != n)
		igt_debug("writing to /dev/kmsg: %m\n");
	close(fd);
}
