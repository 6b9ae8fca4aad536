/* SPDX-License-Identifier: MIT */
/*
 * vseg's small implementation of IGT's dmabuf_sync_file.h: a dma-buf's
 * fences as a sync_file (DMA_BUF_IOCTL_EXPORT_SYNC_FILE, Linux 6.0) and
 * busy checks, with upstream's names and signatures (a subset of them).
 *
 * Copyright (c) 2026 The vseg authors
 */
#ifndef DMABUF_SYNC_FILE_H
#define DMABUF_SYNC_FILE_H

#include <linux/dma-buf.h>
#include <poll.h>
#include <stdbool.h>
#include <stdint.h>

/* Does the kernel export sync_files from dma-bufs? @fd: a vgem fd. */
bool has_dmabuf_export_sync_file(int fd);
/*
 * A sync_file of the fences of @dmabuf a DMA_BUF_SYNC_READ and/or
 * DMA_BUF_SYNC_WRITE access (@flags) would wait for; asserts success.
 */
int dmabuf_export_sync_file(int dmabuf, uint32_t flags);
void dmabuf_import_sync_file(int dmabuf, uint32_t flags, int sync_fd);
/* Are fences of @dmabuf for such an access still unsignalled (poll)? */
bool dmabuf_busy(int dmabuf, uint32_t flags);
/* Is @sync_file still unsignalled (poll)? */
bool sync_file_busy(int sync_file);
bool dmabuf_sync_file_busy(int dmabuf, uint32_t flags);

#endif /* DMABUF_SYNC_FILE_H */
