/* SPDX-License-Identifier: MIT */
/*
 * vseg's small implementation of IGT's ioctl_wrappers.h: only igt_ioctl.
 *
 * Copyright (c) 2026 The vseg authors
 */
#ifndef IGT_IOCTL_WRAPPERS_H
#define IGT_IOCTL_WRAPPERS_H

/*
 * igt_ioctl: the ioctl entry point every test uses; drmIoctl() by default
 * (restarts on EINTR/EAGAIN). Returns 0, or -1 with errno set. Per thread,
 * as upstream: a thread that replaces it replaces only its own.
 */
extern __thread int (*igt_ioctl)(int fd, unsigned long request, void *arg);

#endif /* IGT_IOCTL_WRAPPERS_H */
