/* SPDX-License-Identifier: MIT */
/*
 * vseg's small implementation of IGT's igt_syncobj.h: the DRM syncobj
 * ioctls, with upstream's names and signatures (a subset of them).
 *
 * Copyright (c) 2026 The vseg authors
 */
#ifndef IGT_SYNCOBJ_H
#define IGT_SYNCOBJ_H

#include <stdbool.h>
#include <stdint.h>

#include <drm.h>

/* A new syncobj (DRM_SYNCOBJ_CREATE_SIGNALED in @flags: with a fence). */
uint32_t syncobj_create(int fd, uint32_t flags);
void syncobj_destroy(int fd, uint32_t handle);
/* DRM_IOCTL_SYNCOBJ_HANDLE_TO_FD / FD_TO_HANDLE as given: 0 or -errno. */
int __syncobj_handle_to_fd(int fd, struct drm_syncobj_handle *args);
int __syncobj_fd_to_handle(int fd, struct drm_syncobj_handle *args);
/*
 * An fd of syncobj @handle: the syncobj itself, or with
 * DRM_SYNCOBJ_HANDLE_TO_FD_FLAGS_EXPORT_SYNC_FILE a sync_file of its fence.
 */
int syncobj_handle_to_fd(int fd, uint32_t handle, uint32_t flags);
uint32_t syncobj_fd_to_handle(int fd, int syncobj_fd, uint32_t flags);
/* Replace the fence of syncobj @handle with that of @sync_file. */
void syncobj_import_sync_file(int fd, uint32_t handle, int sync_file);
int __syncobj_wait(int fd, struct drm_syncobj_wait *args);
/* DRM_IOCTL_SYNCOBJ_WAIT: 0 or -errno (-ETIME on timeout). */
int syncobj_wait_err(int fd, uint32_t *handles, uint32_t count,
		     uint64_t abs_timeout_nsec, uint32_t flags);
/*
 * The same with an absolute CLOCK_MONOTONIC timeout: false on timeout,
 * true when signalled (asserting no other error).
 */
bool syncobj_wait(int fd, uint32_t *handles, uint32_t count,
		  uint64_t abs_timeout_nsec, uint32_t flags,
		  uint32_t *first_signaled);
void syncobj_reset(int fd, uint32_t *handles, uint32_t count);
void syncobj_signal(int fd, uint32_t *handles, uint32_t count);

#endif /* IGT_SYNCOBJ_H */
