// SPDX-License-Identifier: MIT
/*
 * vgem buffers and fences, as upstream IGT's lib/igt_vgem.c.
 *
 * Copyright (c) 2026 The vseg authors
 */
#include <errno.h>
#include <string.h>
#include <sys/mman.h>

#include <xf86drm.h>

#include "drmtest.h"
#include "igt_core.h"
#include "igt_vgem.h"
#include "ioctl_wrappers.h"

int __vgem_create(int fd, struct vgem_bo *bo)
{
	struct drm_mode_create_dumb arg;

	memset(&arg, 0, sizeof(arg));
	arg.width = bo->width;
	arg.height = bo->height;
	arg.bpp = bo->bpp;
	if (drmIoctl(fd, DRM_IOCTL_MODE_CREATE_DUMB, &arg))
		return -errno;
	bo->handle = arg.handle;
	bo->pitch = arg.pitch;
	bo->size = arg.size;
	return 0;
}

void vgem_create(int fd, struct vgem_bo *bo)
{
	igt_assert_eq(__vgem_create(fd, bo), 0);
}

void *__vgem_mmap(int fd, struct vgem_bo *bo, unsigned prot)
{
	struct drm_mode_map_dumb arg;
	void *ptr;

	memset(&arg, 0, sizeof(arg));
	arg.handle = bo->handle;
	if (drmIoctl(fd, DRM_IOCTL_MODE_MAP_DUMB, &arg))
		return NULL;
	ptr = mmap(NULL, bo->size, prot, MAP_SHARED, fd, arg.offset);
	return ptr == MAP_FAILED ? NULL : ptr;
}

void *vgem_mmap(int fd, struct vgem_bo *bo, unsigned prot)
{
	void *ptr = __vgem_mmap(fd, bo, prot);

	igt_assert_f(ptr, "vgem_mmap(fd=%d, bo->handle=%d, prot=%x)\n", fd,
		     bo->handle, prot);
	return ptr;
}

bool vgem_has_fences(int fd)
{
	struct drm_vgem_fence_signal arg;
	int err = 0;

	memset(&arg, 0, sizeof(arg));
	if (drmIoctl(fd, DRM_IOCTL_VGEM_FENCE_SIGNAL, &arg))
		err = -errno;
	errno = 0;
	return err == -ENOENT;
}

static int __vgem_fence_attach(int fd, struct drm_vgem_fence_attach *arg)
{
	int err = 0;

	if (igt_ioctl(fd, DRM_IOCTL_VGEM_FENCE_ATTACH, arg))
		err = -errno;
	errno = 0;
	return err;
}

bool vgem_fence_has_flag(int fd, unsigned flags)
{
	struct drm_vgem_fence_attach arg;
	struct drm_gem_close close_bo;
	struct vgem_bo bo;
	bool ret = false;

	memset(&bo, 0, sizeof(bo));
	bo.width = 1;
	bo.height = 1;
	bo.bpp = 32;
	vgem_create(fd, &bo);

	memset(&arg, 0, sizeof(arg));
	arg.handle = bo.handle;
	arg.flags = flags;
	if (__vgem_fence_attach(fd, &arg) == 0) {
		vgem_fence_signal(fd, arg.out_fence);
		ret = true;
	}
	memset(&close_bo, 0, sizeof(close_bo));
	close_bo.handle = bo.handle;
	do_ioctl(fd, DRM_IOCTL_GEM_CLOSE, &close_bo);
	return ret;
}

uint32_t vgem_fence_attach(int fd, struct vgem_bo *bo, unsigned flags)
{
	struct drm_vgem_fence_attach arg;

	memset(&arg, 0, sizeof(arg));
	arg.handle = bo->handle;
	arg.flags = flags;
	igt_assert_eq(__vgem_fence_attach(fd, &arg), 0);
	return arg.out_fence;
}

int __vgem_fence_signal(int fd, uint32_t fence)
{
	struct drm_vgem_fence_signal arg;
	int err = 0;

	memset(&arg, 0, sizeof(arg));
	arg.fence = fence;
	if (igt_ioctl(fd, DRM_IOCTL_VGEM_FENCE_SIGNAL, &arg))
		err = -errno;
	errno = 0;
	return err;
}

void vgem_fence_signal(int fd, uint32_t fence)
{
	igt_assert_eq(__vgem_fence_signal(fd, fence), 0);
}
