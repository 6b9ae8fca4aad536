/* SPDX-License-Identifier: MIT */
/*
 * Processes of a test: a forked child that drops root to become the
 * hostile, unprivileged user nobody, and the one-byte pipe handshake
 * between a parent and such a child.
 *
 * Copyright (c) 2026 The vseg authors
 */
#ifndef IGT_VSEG_PROC_H
#define IGT_VSEG_PROC_H

/* The uid and gid of nobody, the unprivileged user of the tests. */
#define VSEG_NOBODY	65534

/*
 * From now on nobody (VSEG_NOBODY): no supplementary groups, real,
 * effective and saved gid and uid VSEG_NOBODY; asserts each step. Files
 * opened before stay open.
 */
void vseg_drop_privileges(void);

/* Send the peer at the other end of the pipe @fd one byte; asserts. */
void vseg_sync_write(int fd);

/*
 * Wait for one byte from the peer on the pipe @fd; a peer that died or
 * stays silent for 300 s fails the test instead of hanging it.
 */
void vseg_sync_read(int fd);

#endif /* IGT_VSEG_PROC_H */
