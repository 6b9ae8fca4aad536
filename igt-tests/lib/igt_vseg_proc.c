// SPDX-License-Identifier: MIT
/*
 * Processes of a test: dropping root, and the pipe handshake.
 *
 * Copyright (c) 2026 The vseg authors
 */
#include <grp.h>
#include <poll.h>
#include <unistd.h>

#include "igt.h"
#include "igt_vseg.h"

void vseg_drop_privileges(void)
{
	igt_assert_eq(setgroups(0, NULL), 0);
	igt_assert_eq(setresgid(VSEG_NOBODY, VSEG_NOBODY, VSEG_NOBODY), 0);
	igt_assert_eq(setresuid(VSEG_NOBODY, VSEG_NOBODY, VSEG_NOBODY), 0);
	igt_assert_eq(geteuid(), VSEG_NOBODY);
}

void vseg_sync_write(int fd)
{
	char c = 1;

	igt_assert_eq(write(fd, &c, 1), 1);
}

void vseg_sync_read(int fd)
{
	struct pollfd p = { .fd = fd, .events = POLLIN };
	char c;

	igt_assert_f(poll(&p, 1, 300 * 1000) == 1, "no word from the peer\n");
	igt_assert_eq(read(fd, &c, 1), 1);
}
