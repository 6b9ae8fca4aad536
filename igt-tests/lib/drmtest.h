/* SPDX-License-Identifier: MIT */
/*
 * vseg's small implementation of IGT's drmtest.h: opening DRM devices and
 * the ioctl assertion macros. Names and signatures follow upstream IGT.
 *
 * Copyright (c) 2026 The vseg authors
 */
#ifndef DRMTEST_H
#define DRMTEST_H

#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <sys/mman.h>
#include <unistd.h>

#include <xf86drm.h>

#include "igt_core.h"

#define DRIVER_INTEL	(1 << 0)
#define DRIVER_VC4	(1 << 1)
#define DRIVER_VGEM	(1 << 2)
#define DRIVER_AMDGPU	(1 << 3)
#define DRIVER_V3D	(1 << 4)
#define DRIVER_PANFROST	(1 << 5)
#define DRIVER_MSM	(1 << 6)
#define DRIVER_XE	(1 << 7)
#define DRIVER_VMWGFX	(1 << 8)
#define DRIVER_VKMS	(1 << 9)

/*
 * DRIVER_ANY: any driver but the virtual ones that exist only to help
 * testing (vgem, vkms). A driver IGT has no bit for (vseg) matches only
 * DRIVER_ANY.
 */
#define DRIVER_ANY	~(DRIVER_VGEM | DRIVER_VKMS)

#define ARRAY_SIZE(arr) (sizeof(arr) / sizeof(arr[0]))
#define ALIGN(v, a) ALIGN_MASK(v, (typeof(v))(a) - 1)
#define ALIGN_MASK(v, mask) (((v) + (mask)) & ~(mask))
#define ALIGN_DOWN(x, a) ALIGN((x) - ((a) - 1), (a))
#define IS_ALIGNED(v, a) (((v) & ((typeof(v))(a) - 1)) == 0)

/*
 * __get_drm_device_name: DRM_IOCTL_VERSION's driver name into @name, at
 * most @name_size bytes and, as upstream, NOT NUL-terminated: pass a
 * zeroed buffer and its size minus one. Returns 0, or -1 if the ioctl
 * failed.
 */
int __get_drm_device_name(int fd, char *name, int name_size);
void __set_forced_driver(const char *name);

/*
 * Opening: the first of /dev/dri/card0..15 (renderD128..143) whose driver
 * fits @chipset; if none, the modules of the drivers @chipset names are
 * loaded (every known one for DRIVER_ANY) and the search is repeated.
 * $IGT_FORCE_DRIVER limits DRIVER_ANY to that driver. The fds are not
 * close-on-exec.
 */
int __drm_open_device(const char *name, unsigned int chipset);
void drm_load_module(unsigned int chipset);
int __drm_open_driver(int chipset);
int __drm_open_driver_render(int chipset);
int drm_open_driver(int chipset);
int drm_open_driver_master(int chipset);
/* Falls back to drm_open_driver() without render nodes; keeps a second fd. */
int drm_open_driver_render(int chipset);
int __drm_close_driver(int fd);
/* Only fds of /dev/dri/card* or renderD* (else -1, with a warning). */
int drm_close_driver(int fd);
/* A second fd of the same device (the first one stays open). */
int drm_reopen_driver(int fd);

#define do_or_die(x) igt_assert((x) == 0)

/* do_ioctl: the ioctl must succeed. */
#define do_ioctl(fd, ioc, ioc_data) do { \
	igt_assert_eq(igt_ioctl((fd), (ioc), (ioc_data)), 0); \
	errno = 0; \
} while (0)

/* do_ioctl_err: the ioctl must fail with errno @err. */
#define do_ioctl_err(fd, ioc, ioc_data, err) do { \
	igt_assert_eq(igt_ioctl((fd), (ioc), (ioc_data)), -1); \
	igt_assert_eq(errno, err); \
	errno = 0; \
} while (0)

#endif /* DRMTEST_H */
