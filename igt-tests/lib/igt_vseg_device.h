/* SPDX-License-Identifier: MIT */
/*
 * Finding and opening vseg's DRM nodes, and calling its ioctls.
 *
 * Copyright (c) 2026 The vseg authors
 */
#ifndef IGT_VSEG_DEVICE_H
#define IGT_VSEG_DEVICE_H

#include <stdbool.h>

/* First vseg card (or render) node, or -ENODEV; never skips. */
int __drm_open_vseg(void);
int __drm_open_vseg_render(void);
/* Same, but igt_require() that a vseg device exists. */
int drm_open_vseg(void);
int drm_open_vseg_render(void);
/*
 * A vseg card (@render: render) node opened by a short-lived child process
 * and handed over (SCM_RIGHTS): a file whose limits are another process's.
 */
int drm_open_vseg_other_process(bool render);
bool is_vseg_device(int fd);
void igt_require_vseg(int fd);
/* Number of /dev/dri nodes (cards and render nodes) driven by vseg. */
int vseg_count_nodes(void);
/* Number of entries in /dev/dri (0 if it does not exist). */
int vseg_count_dri_entries(void);

/* igt_ioctl(): 0 or -errno, errno cleared (the vseg ioctl wrappers' core). */
int __vseg_ioctl(int fd, unsigned long request, void *arg);
/*
 * Assert that a call returned @want (0 or -errno): else fail with the
 * call named by @fmt, what it returned and what was expected.
 */
__attribute__((format(printf, 3, 4)))
void vseg_assert_ret(int ret, int want, const char *fmt, ...);

#endif /* IGT_VSEG_DEVICE_H */
