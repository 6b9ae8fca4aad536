/* SPDX-License-Identifier: MIT */
/*
 * Buffers: GEM_CREATE, GEM_INFO, GEM_CLOSE, mmap, MAKE_RESIDENT and EVICT.
 *
 * Copyright (c) 2026 The vseg authors
 */
#ifndef IGT_VSEG_BO_H
#define IGT_VSEG_BO_H

#include <stdint.h>

#include "vseg_drm.h"

/*
 * Fill @c for a buffer of @size bytes that may live in @supported (a
 * bitmask of segment ids, bit 0 system memory), with create @flags and no
 * preferred segment, alignment, eviction set or hinted bank.
 */
void vseg_create_args(struct drm_vseg_gem_create *c, uint64_t size,
		      uint32_t supported, uint32_t flags);
/* Append @segment_id (with DRM_VSEG_PREF_* @pref_flags) to c->preferred. */
void vseg_create_prefer(struct drm_vseg_gem_create *c, uint32_t segment_id,
			uint32_t pref_flags);
/* DRM_IOCTL_VSEG_GEM_CREATE: 0 or -errno. */
int __vseg_gem_create(int fd, struct drm_vseg_gem_create *c);
/* The same, asserting success; returns the handle. */
uint32_t vseg_gem_create(int fd, struct drm_vseg_gem_create *c);
/* A buffer of @size in @supported with @flags; returns the handle. */
uint32_t vseg_gem_create_simple(int fd, uint64_t size, uint32_t supported,
				uint32_t flags);
/*
 * A buffer of @size with @flags, supported in segment @seg and system
 * memory, preferring @seg; returns the handle.
 */
uint32_t vseg_gem_create_in(int fd, uint64_t size, uint32_t seg,
			    uint32_t flags);
/* DRM_IOCTL_VSEG_GEM_INFO on @handle: 0 or -errno. */
int __vseg_gem_info(int fd, uint32_t handle, struct drm_vseg_gem_info *info);
void vseg_gem_info(int fd, uint32_t handle, struct drm_vseg_gem_info *info);
/* The segment the buffer is in now (0: system memory). */
uint32_t vseg_gem_segment(int fd, uint32_t handle);
/* DRM_IOCTL_GEM_CLOSE: 0 or -errno. */
int __vseg_gem_close(int fd, uint32_t handle);
void vseg_gem_close(int fd, uint32_t handle);
/* DRM_IOCTL_VSEG_GEM_MMAP_OFFSET: 0 or -errno; the fake offset in @offset. */
int __vseg_gem_mmap_offset(int fd, uint32_t handle, uint64_t *offset);
/* MMAP_OFFSET + mmap(MAP_SHARED) of @size bytes; NULL on failure. */
void *__vseg_gem_mmap(int fd, uint32_t handle, uint64_t size, int prot);
/* The same, asserting success. */
void *vseg_gem_mmap(int fd, uint32_t handle, uint64_t size, int prot);
/*
 * DRM_IOCTL_VSEG_MAKE_RESIDENT / DRM_IOCTL_VSEG_EVICT on @count handles:
 * 0 or -errno; @processed (if not NULL) receives the processed count.
 */
int __vseg_make_resident(int fd, const uint32_t *handles, uint32_t count,
			 uint32_t *processed);
int __vseg_evict(int fd, const uint32_t *handles, uint32_t count,
		 uint32_t *processed);
/* The same, asserting success and that every handle was processed. */
void vseg_make_resident(int fd, const uint32_t *handles, uint32_t count);
void vseg_evict(int fd, const uint32_t *handles, uint32_t count);
/* The same as __vseg_make_resident() / __vseg_evict(), with @flags. */
int __vseg_make_resident_flags(int fd, const uint32_t *handles,
			       uint32_t count, uint32_t flags,
			       uint32_t *processed);
int __vseg_evict_flags(int fd, const uint32_t *handles, uint32_t count,
		       uint32_t flags, uint32_t *processed);
/*
 * DRM_IOCTL_VSEG_MAKE_RESIDENT or DRM_IOCTL_VSEG_EVICT (@ioc) with @r as it
 * is: 0 or -errno (errno is cleared).
 */
int __vseg_residency(int fd, unsigned long ioc, struct drm_vseg_residency *r);
/* "success" for 0, else strerror(-@err). */
const char *vseg_errname(int err);

/* Fill buffer @handle with vseg_pattern_fill(@seed) through a CPU mapping. */
void vseg_bo_fill_pattern(int fd, uint32_t handle, uint64_t size,
			  uint32_t seed);
/* Assert that it holds pattern @seed (@what names the moment). */
void vseg_bo_check_pattern(int fd, uint32_t handle, uint64_t size,
			   uint32_t seed, const char *what);
/* Assert that it reads zero. */
void vseg_bo_check_zero(int fd, uint32_t handle, uint64_t size,
			const char *what);

#endif /* IGT_VSEG_BO_H */
