// SPDX-License-Identifier: MIT
/*
 * DRM syncobj helpers, as upstream IGT's lib/igt_syncobj.c.
 *
 * Copyright (c) 2026 The vseg authors
 */
#include <errno.h>
#include <stdint.h>
#include <string.h>

#include <xf86drm.h>

#include "drmtest.h"
#include "igt_core.h"
#include "igt_syncobj.h"
#include "ioctl_wrappers.h"

/* igt_ioctl(): 0 or -errno, errno cleared. */
static int syncobj_ioctl(int fd, unsigned long request, void *arg)
{
	int err = 0;

	if (igt_ioctl(fd, request, arg))
		err = -errno;
	errno = 0;
	return err;
}

uint32_t syncobj_create(int fd, uint32_t flags)
{
	struct drm_syncobj_create create;

	memset(&create, 0, sizeof(create));
	create.flags = flags;
	igt_assert_eq(syncobj_ioctl(fd, DRM_IOCTL_SYNCOBJ_CREATE, &create), 0);
	igt_assert(create.handle);
	return create.handle;
}

void syncobj_destroy(int fd, uint32_t handle)
{
	struct drm_syncobj_destroy destroy;

	memset(&destroy, 0, sizeof(destroy));
	destroy.handle = handle;
	igt_assert_eq(syncobj_ioctl(fd, DRM_IOCTL_SYNCOBJ_DESTROY, &destroy),
		      0);
}

int __syncobj_handle_to_fd(int fd, struct drm_syncobj_handle *args)
{
	return syncobj_ioctl(fd, DRM_IOCTL_SYNCOBJ_HANDLE_TO_FD, args);
}

int __syncobj_fd_to_handle(int fd, struct drm_syncobj_handle *args)
{
	return syncobj_ioctl(fd, DRM_IOCTL_SYNCOBJ_FD_TO_HANDLE, args);
}

int syncobj_handle_to_fd(int fd, uint32_t handle, uint32_t flags)
{
	struct drm_syncobj_handle args;

	memset(&args, 0, sizeof(args));
	args.handle = handle;
	args.flags = flags;
	igt_assert_eq(__syncobj_handle_to_fd(fd, &args), 0);
	igt_assert(args.fd >= 0);
	return args.fd;
}

uint32_t syncobj_fd_to_handle(int fd, int syncobj_fd, uint32_t flags)
{
	struct drm_syncobj_handle args;

	memset(&args, 0, sizeof(args));
	args.fd = syncobj_fd;
	args.flags = flags;
	igt_assert_eq(__syncobj_fd_to_handle(fd, &args), 0);
	igt_assert(args.handle > 0);
	return args.handle;
}

void syncobj_import_sync_file(int fd, uint32_t handle, int sync_file)
{
	struct drm_syncobj_handle args;

	memset(&args, 0, sizeof(args));
	args.handle = handle;
	args.fd = sync_file;
	args.flags = DRM_SYNCOBJ_FD_TO_HANDLE_FLAGS_IMPORT_SYNC_FILE;
	igt_assert_eq(__syncobj_fd_to_handle(fd, &args), 0);
}

int __syncobj_wait(int fd, struct drm_syncobj_wait *args)
{
	return syncobj_ioctl(fd, DRM_IOCTL_SYNCOBJ_WAIT, args);
}

int syncobj_wait_err(int fd, uint32_t *handles, uint32_t count,
		     uint64_t abs_timeout_nsec, uint32_t flags)
{
	struct drm_syncobj_wait wait;

	memset(&wait, 0, sizeof(wait));
	wait.handles = (uintptr_t)handles;
	wait.timeout_nsec = abs_timeout_nsec;
	wait.count_handles = count;
	wait.flags = flags;
	return __syncobj_wait(fd, &wait);
}

bool syncobj_wait(int fd, uint32_t *handles, uint32_t count,
		  uint64_t abs_timeout_nsec, uint32_t flags,
		  uint32_t *first_signaled)
{
	struct drm_syncobj_wait wait;
	int ret;

	memset(&wait, 0, sizeof(wait));
	wait.handles = (uintptr_t)handles;
	wait.timeout_nsec = abs_timeout_nsec;
	wait.count_handles = count;
	wait.flags = flags;
	ret = __syncobj_wait(fd, &wait);
	if (ret == -ETIME)
		return false;
	igt_assert_eq(ret, 0);
	if (first_signaled)
		*first_signaled = wait.first_signaled;
	return true;
}

void syncobj_reset(int fd, uint32_t *handles, uint32_t count)
{
	struct drm_syncobj_array array;

	memset(&array, 0, sizeof(array));
	array.handles = (uintptr_t)handles;
	array.count_handles = count;
	igt_assert_eq(syncobj_ioctl(fd, DRM_IOCTL_SYNCOBJ_RESET, &array), 0);
}

void syncobj_signal(int fd, uint32_t *handles, uint32_t count)
{
	struct drm_syncobj_array array;

	memset(&array, 0, sizeof(array));
	array.handles = (uintptr_t)handles;
	array.count_handles = count;
	igt_assert_eq(syncobj_ioctl(fd, DRM_IOCTL_SYNCOBJ_SIGNAL, &array), 0);
}
