// SPDX-License-Identifier: MIT
/*
 * Buffers: GEM_CREATE, GEM_INFO, GEM_CLOSE, mmap, MAKE_RESIDENT and EVICT.
 *
 * Copyright (c) 2026 The vseg authors
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>

#include "igt.h"
#include "igt_vseg.h"

void vseg_create_args(struct drm_vseg_gem_create *c, uint64_t size,
		      uint32_t supported, uint32_t flags)
{
	memset(c, 0, sizeof(*c));
	c->size = size;
	c->supported_segments = supported;
	c->flags = flags;
}

void vseg_create_prefer(struct drm_vseg_gem_create *c, uint32_t segment_id,
			uint32_t pref_flags)
{
	igt_assert(c->num_preferred < DRM_VSEG_MAX_PREFERRED);
	c->preferred[c->num_preferred].segment_id = segment_id;
	c->preferred[c->num_preferred].flags = pref_flags;
	c->num_preferred++;
}

int __vseg_gem_create(int fd, struct drm_vseg_gem_create *c)
{
	return __vseg_ioctl(fd, DRM_IOCTL_VSEG_GEM_CREATE, c);
}

uint32_t vseg_gem_create(int fd, struct drm_vseg_gem_create *c)
{
	uint64_t size = c->size;
	int err;

	err = __vseg_gem_create(fd, c);
	igt_assert_f(err == 0,
		     "GEM_CREATE size=%#llx alignment=%#llx supported=%#x flags=%#x preferred=%u(%u) failed: %d (%s)\n",
		     (unsigned long long)size,
		     (unsigned long long)c->alignment, c->supported_segments,
		     c->flags, c->num_preferred, c->preferred[0].segment_id,
		     err, strerror(-err));
	igt_assert_f(c->handle, "GEM_CREATE returned handle 0\n");
	igt_assert_f(c->size >= size, "GEM_CREATE shrank the size %#llx to %#llx\n",
		     (unsigned long long)size, (unsigned long long)c->size);
	return c->handle;
}

uint32_t vseg_gem_create_simple(int fd, uint64_t size, uint32_t supported,
				uint32_t flags)
{
	struct drm_vseg_gem_create c;

	vseg_create_args(&c, size, supported, flags);
	return vseg_gem_create(fd, &c);
}

uint32_t vseg_gem_create_in(int fd, uint64_t size, uint32_t seg,
			    uint32_t flags)
{
	struct drm_vseg_gem_create c;

	vseg_create_args(&c, size, BIT(seg) | vseg_system_set(fd), flags);
	vseg_create_prefer(&c, seg, 0);
	return vseg_gem_create(fd, &c);
}

int __vseg_gem_info(int fd, uint32_t handle, struct drm_vseg_gem_info *info)
{
	memset(info, 0, sizeof(*info));
	info->handle = handle;
	return __vseg_ioctl(fd, DRM_IOCTL_VSEG_GEM_INFO, info);
}

void vseg_gem_info(int fd, uint32_t handle, struct drm_vseg_gem_info *info)
{
	int err = __vseg_gem_info(fd, handle, info);

	igt_assert_f(err == 0, "GEM_INFO of handle %u failed: %d (%s)\n",
		     handle, err, strerror(-err));
	igt_assert_eq_u32(info->handle, handle);
	for (unsigned int i = 0; i < ARRAY_SIZE(info->reserved); i++)
		igt_assert_f(!info->reserved[i],
			     "GEM_INFO reserved[%u] = %#llx\n", i,
			     (unsigned long long)info->reserved[i]);
	igt_assert_eq_u64(info->extensions, 0);
	/* A GPU physical address exactly when contiguous in a segment. */
	igt_assert_f((info->gpu_address != DRM_VSEG_GPU_ADDRESS_NONE) ==
		     (info->segment_id &&
		      (info->placement_flags & DRM_VSEG_INFO_CONTIGUOUS)),
		     "GEM_INFO of handle %u: segment %u, flags %#x, gpu_address %#llx\n",
		     handle, info->segment_id, info->placement_flags,
		     (unsigned long long)info->gpu_address);
}

uint32_t vseg_gem_segment(int fd, uint32_t handle)
{
	struct drm_vseg_gem_info info;

	vseg_gem_info(fd, handle, &info);
	return info.segment_id;
}

int __vseg_gem_close(int fd, uint32_t handle)
{
	struct drm_gem_close arg = { .handle = handle };

	return __vseg_ioctl(fd, DRM_IOCTL_GEM_CLOSE, &arg);
}

void vseg_gem_close(int fd, uint32_t handle)
{
	int err = __vseg_gem_close(fd, handle);

	igt_assert_f(err == 0, "GEM_CLOSE of handle %u failed: %d (%s)\n",
		     handle, err, strerror(-err));
}

int __vseg_gem_mmap_offset(int fd, uint32_t handle, uint64_t *offset)
{
	struct drm_vseg_gem_mmap_offset arg = { .handle = handle };
	int err = __vseg_ioctl(fd, DRM_IOCTL_VSEG_GEM_MMAP_OFFSET, &arg);

	*offset = arg.offset;
	return err;
}

void *__vseg_gem_mmap(int fd, uint32_t handle, uint64_t size, int prot)
{
	uint64_t offset;
	void *ptr;

	if (__vseg_gem_mmap_offset(fd, handle, &offset))
		return NULL;
	ptr = mmap(NULL, size, prot, MAP_SHARED, fd, offset);
	if (ptr == MAP_FAILED) {
		igt_debug("mmap of handle %u at %#llx failed: %s\n", handle,
			  (unsigned long long)offset, strerror(errno));
		errno = 0;
		return NULL;
	}
	return ptr;
}

void *vseg_gem_mmap(int fd, uint32_t handle, uint64_t size, int prot)
{
	uint64_t offset;
	void *ptr;
	int err;

	err = __vseg_gem_mmap_offset(fd, handle, &offset);
	igt_assert_f(err == 0, "MMAP_OFFSET of handle %u failed: %d (%s)\n",
		     handle, err, strerror(-err));
	igt_assert_f(offset && !(offset & 4095),
		     "MMAP_OFFSET of handle %u gave offset %#llx\n", handle,
		     (unsigned long long)offset);
	ptr = mmap(NULL, size, prot, MAP_SHARED, fd, offset);
	igt_assert_f(ptr != MAP_FAILED,
		     "mmap of handle %u (%#llx bytes at %#llx) failed: %s\n",
		     handle, (unsigned long long)size,
		     (unsigned long long)offset, strerror(errno));
	return ptr;
}

int __vseg_residency(int fd, unsigned long ioc, struct drm_vseg_residency *r)
{
	return __vseg_ioctl(fd, ioc, r);
}

static int residency(int fd, unsigned long ioc, const uint32_t *handles,
		     uint32_t count, uint32_t flags, uint32_t *processed)
{
	struct drm_vseg_residency arg = {
		.handles = (uintptr_t)handles,
		.count = count,
		.flags = flags,
	};
	int err = __vseg_residency(fd, ioc, &arg);

	if (processed)
		*processed = arg.processed;
	return err;
}

int __vseg_make_resident(int fd, const uint32_t *handles, uint32_t count,
			 uint32_t *processed)
{
	return residency(fd, DRM_IOCTL_VSEG_MAKE_RESIDENT, handles, count, 0,
			 processed);
}

int __vseg_evict(int fd, const uint32_t *handles, uint32_t count,
		 uint32_t *processed)
{
	return residency(fd, DRM_IOCTL_VSEG_EVICT, handles, count, 0,
			 processed);
}

int __vseg_make_resident_flags(int fd, const uint32_t *handles,
			       uint32_t count, uint32_t flags,
			       uint32_t *processed)
{
	return residency(fd, DRM_IOCTL_VSEG_MAKE_RESIDENT, handles, count,
			 flags, processed);
}

int __vseg_evict_flags(int fd, const uint32_t *handles, uint32_t count,
		       uint32_t flags, uint32_t *processed)
{
	return residency(fd, DRM_IOCTL_VSEG_EVICT, handles, count, flags,
			 processed);
}

const char *vseg_errname(int err)
{
	return err ? strerror(-err) : "success";
}

/* MAKE_RESIDENT or EVICT (@ioc, named @what) of every handle, asserted. */
static void residency_all(int fd, unsigned long ioc, const char *what,
			  const uint32_t *handles, uint32_t count)
{
	uint32_t processed = 0;
	int err;

	err = residency(fd, ioc, handles, count, 0, &processed);
	igt_assert_f(err == 0, "%s of %u handles (first %u) failed: %d (%s)\n",
		     what, count, handles[0], err, strerror(-err));
	igt_assert_f(processed == count, "%s processed %u of %u handles\n",
		     what, processed, count);
}

void vseg_make_resident(int fd, const uint32_t *handles, uint32_t count)
{
	residency_all(fd, DRM_IOCTL_VSEG_MAKE_RESIDENT, "MAKE_RESIDENT",
		      handles, count);
}

void vseg_evict(int fd, const uint32_t *handles, uint32_t count)
{
	residency_all(fd, DRM_IOCTL_VSEG_EVICT, "EVICT", handles, count);
}

void vseg_bo_fill_pattern(int fd, uint32_t handle, uint64_t size,
			  uint32_t seed)
{
	void *p = vseg_gem_mmap(fd, handle, size, PROT_READ | PROT_WRITE);

	vseg_pattern_fill(p, size, seed);
	munmap(p, size);
}

void vseg_bo_check_pattern(int fd, uint32_t handle, uint64_t size,
			   uint32_t seed, const char *what)
{
	void *p = vseg_gem_mmap(fd, handle, size, PROT_READ);
	int64_t bad = vseg_pattern_check(p, size, seed);

	munmap(p, size);
	igt_assert_f(bad < 0, "%s: buffer %u differs at byte %lld of %llu\n",
		     what, handle, (long long)bad, (unsigned long long)size);
}

void vseg_bo_check_zero(int fd, uint32_t handle, uint64_t size,
			const char *what)
{
	void *p = vseg_gem_mmap(fd, handle, size, PROT_READ);
	int64_t bad = vseg_zero_check(p, size);

	munmap(p, size);
	igt_assert_f(bad < 0, "%s: buffer %u: byte %lld of %llu is not zero\n",
		     what, handle, (long long)bad, (unsigned long long)size);
}
