// SPDX-License-Identifier: MIT
/*
 * dma-buf fences as sync_files, as upstream IGT's lib/dmabuf_sync_file.c.
 *
 * Copyright (c) 2026 The vseg authors
 */
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include <xf86drm.h>

#include "dmabuf_sync_file.h"
#include "drmtest.h"
#include "igt_core.h"
#include "igt_vgem.h"
#include "ioctl_wrappers.h"

bool has_dmabuf_export_sync_file(int fd)
{
	struct dma_buf_export_sync_file arg;
	struct drm_gem_close close_bo;
	struct vgem_bo bo;
	int dmabuf, ret;

	memset(&bo, 0, sizeof(bo));
	bo.width = 1;
	bo.height = 1;
	bo.bpp = 32;
	vgem_create(fd, &bo);
	igt_assert_eq(drmPrimeHandleToFD(fd, bo.handle, DRM_CLOEXEC, &dmabuf),
		      0);
	memset(&close_bo, 0, sizeof(close_bo));
	close_bo.handle = bo.handle;
	do_ioctl(fd, DRM_IOCTL_GEM_CLOSE, &close_bo);

	memset(&arg, 0, sizeof(arg));
	arg.flags = DMA_BUF_SYNC_WRITE;
	arg.fd = -1;
	ret = igt_ioctl(dmabuf, DMA_BUF_IOCTL_EXPORT_SYNC_FILE, &arg);
	if (ret == 0)
		close(arg.fd);
	close(dmabuf);
	return ret == 0 || errno == ENOTTY;
}

int dmabuf_export_sync_file(int dmabuf, uint32_t flags)
{
	struct dma_buf_export_sync_file arg;

	memset(&arg, 0, sizeof(arg));
	arg.flags = flags;
	arg.fd = -1;
	do_ioctl(dmabuf, DMA_BUF_IOCTL_EXPORT_SYNC_FILE, &arg);
	return arg.fd;
}

void dmabuf_import_sync_file(int dmabuf, uint32_t flags, int sync_fd)
{
	struct dma_buf_import_sync_file arg;

	memset(&arg, 0, sizeof(arg));
	arg.flags = flags;
	arg.fd = sync_fd;
	do_ioctl(dmabuf, DMA_BUF_IOCTL_IMPORT_SYNC_FILE, &arg);
}

bool dmabuf_busy(int dmabuf, uint32_t flags)
{
	struct pollfd pfd = { .fd = dmabuf };

	/* POLLIN alone would report a buffer with readers only as idle. */
	if (flags & DMA_BUF_SYNC_WRITE)
		pfd.events |= POLLOUT;
	else if (flags & DMA_BUF_SYNC_READ)
		pfd.events |= POLLIN;
	return poll(&pfd, 1, 0) == 0;
}

bool sync_file_busy(int sync_file)
{
	struct pollfd pfd = { .fd = sync_file, .events = POLLIN };

	return poll(&pfd, 1, 0) == 0;
}

bool dmabuf_sync_file_busy(int dmabuf, uint32_t flags)
{
	int sync_file = dmabuf_export_sync_file(dmabuf, flags);
	bool busy = sync_file_busy(sync_file);

	close(sync_file);
	return busy;
}
