/* SPDX-License-Identifier: MIT */
/*
 * vseg's small implementation of IGT's sw_sync.h: the sync_file half of it
 * (status, wait, merge), with upstream's names and signatures. The
 * sw_sync timelines are left out: Debian's kernels have no CONFIG_SW_SYNC.
 *
 * Copyright (c) 2026 The vseg authors
 */
#ifndef SW_SYNC_H
#define SW_SYNC_H

/* Merge two sync_files into a new one: its fd, or -errno. */
int sync_fence_merge(int fd1, int fd2);
/* poll() the sync_file for @timeout ms (-1: forever): 0, -ETIME, -errno. */
int sync_fence_wait(int fence, int timeout);
/*
 * The status of a sync_file of one fence: 1 signalled, 0 not yet, a
 * negative error if it signalled with one (or the ioctl's -errno).
 */
int sync_fence_status(int fence);
/* Fences in the sync_file, or -errno. */
int sync_fence_count(int fence);
/* Fences in it with @status; asserts the query works. */
int sync_fence_count_status(int fence, int status);

#endif /* SW_SYNC_H */
