/* SPDX-License-Identifier: MIT */
/*
 * vseg's small implementation of IGT's igt_vgem.h: vgem buffers and vgem
 * fences, with upstream's names and signatures. vgem is the virtual GEM
 * driver tests use as a dma-buf exporter and a source of fences another
 * driver has to wait for (DRM_IOCTL_VGEM_FENCE_ATTACH and _SIGNAL, both
 * allowed on render nodes). A vgem fence that is never signalled signals
 * by itself after 10 s (vgem's own timeout).
 *
 * Copyright (c) 2026 The vseg authors
 */
#ifndef IGT_VGEM_H
#define IGT_VGEM_H

#include <stdbool.h>
#include <stdint.h>

#include <drm/vgem_drm.h>

/**
 * struct vgem_bo - a vgem (dumb) buffer
 * @handle: GEM handle, set by vgem_create().
 * @width: in: pixels per row.
 * @height: in: rows.
 * @bpp: in: bits per pixel.
 * @pitch: out: bytes per row.
 * @size: out: bytes.
 */
struct vgem_bo {
	uint32_t handle;
	uint32_t width, height;
	uint32_t bpp, pitch;
	uint64_t size;
};

/* DRM_IOCTL_MODE_CREATE_DUMB of @bo's width, height and bpp: 0 or -errno. */
int __vgem_create(int fd, struct vgem_bo *bo);
void vgem_create(int fd, struct vgem_bo *bo);

/* mmap() of the whole buffer with @prot: NULL on failure. */
void *__vgem_mmap(int fd, struct vgem_bo *bo, unsigned prot);
void *vgem_mmap(int fd, struct vgem_bo *bo, unsigned prot);

/* Does this vgem have fences (VGEM_FENCE_SIGNAL of fence 0 is -ENOENT)? */
bool vgem_has_fences(int fd);
/* Does VGEM_FENCE_ATTACH take @flags? */
bool vgem_fence_has_flag(int fd, unsigned flags);
/*
 * Attach a new unsignalled fence to @bo (VGEM_FENCE_WRITE in @flags: an
 * exclusive one); asserts success, returns the fence's id.
 */
uint32_t vgem_fence_attach(int fd, struct vgem_bo *bo, unsigned flags);
/*
 * Signal fence @fence: 0, -ETIMEDOUT if it had signalled already (vgem's
 * own timeout), -ENOENT for an unknown id.
 */
int __vgem_fence_signal(int fd, uint32_t fence);
void vgem_fence_signal(int fd, uint32_t fence);

#endif /* IGT_VGEM_H */
