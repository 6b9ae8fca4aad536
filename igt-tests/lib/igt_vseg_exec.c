// SPDX-License-Identifier: MIT
/*
 * Helpers for the vseg engine tests.
 *
 * Copyright (c) 2026 The vseg authors
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#include <linux/sync_file.h>
#include <xf86drm.h>

#include "igt.h"
#include "igt_vseg.h"
#include "igt_vseg_exec.h"

void vseg_require_engine(int fd)
{
	uint64_t cap = 0;

	igt_require_f(drmGetCap(fd, DRM_CAP_SYNCOBJ, &cap) == 0 && cap,
		      "vseg has no engine yet (no DRM_CAP_SYNCOBJ)\n");
	errno = 0;
}

/* --- command buffers ---------------------------------------------------- */

static void *grow(void *array, uint32_t *cap, uint32_t used, size_t elem)
{
	if (used < *cap)
		return array;
	*cap = *cap ? 2 * *cap : 16;
	array = realloc(array, (size_t)*cap * elem);
	igt_assert(array);
	return array;
}

void vseg_cb_init(struct vseg_cmdbuf *cb)
{
	memset(cb, 0, sizeof(*cb));
}

void vseg_cb_reset(struct vseg_cmdbuf *cb)
{
	cb->num_cmds = 0;
	cb->num_allocs = 0;
	cb->num_patches = 0;
}

void vseg_cb_fini(struct vseg_cmdbuf *cb)
{
	free(cb->cmds);
	free(cb->allocs);
	free(cb->patches);
	memset(cb, 0, sizeof(*cb));
}

uint32_t vseg_cb_emit(struct vseg_cmdbuf *cb, uint32_t opcode, uint64_t dst,
		      uint64_t src, uint64_t size, uint64_t value)
{
	struct drm_vseg_cmd *c;

	cb->cmds = grow(cb->cmds, &cb->cap_cmds, cb->num_cmds, sizeof(*c));
	c = &cb->cmds[cb->num_cmds];
	memset(c, 0, sizeof(*c));
	c->opcode = opcode;
	c->dst = dst;
	c->src = src;
	c->size = size;
	c->value = value;
	return cb->num_cmds++;
}

uint32_t vseg_cb_nop(struct vseg_cmdbuf *cb)
{
	return vseg_cb_emit(cb, DRM_VSEG_CMD_NOP, 0, 0, 0, 0);
}

uint32_t vseg_cb_fill(struct vseg_cmdbuf *cb, uint64_t dst, uint64_t size,
		      uint32_t value)
{
	return vseg_cb_emit(cb, DRM_VSEG_CMD_FILL, dst, 0, size, value);
}

uint32_t vseg_cb_copy(struct vseg_cmdbuf *cb, uint64_t dst, uint64_t src,
		      uint64_t size)
{
	return vseg_cb_emit(cb, DRM_VSEG_CMD_COPY, dst, src, size, 0);
}

uint32_t vseg_cb_write(struct vseg_cmdbuf *cb, uint64_t dst, uint64_t value)
{
	return vseg_cb_emit(cb, DRM_VSEG_CMD_WRITE, dst, 0, 0, value);
}

uint32_t vseg_cb_add_allocation(struct vseg_cmdbuf *cb, uint32_t handle,
				uint32_t flags)
{
	struct drm_vseg_allocation *a;

	cb->allocs = grow(cb->allocs, &cb->cap_allocs, cb->num_allocs,
			  sizeof(*a));
	a = &cb->allocs[cb->num_allocs];
	a->handle = handle;
	a->flags = flags;
	return cb->num_allocs++;
}

uint32_t vseg_cb_allocation(struct vseg_cmdbuf *cb, uint32_t handle,
			    uint32_t flags)
{
	for (uint32_t i = 0; i < cb->num_allocs; i++) {
		if (cb->allocs[i].handle == handle) {
			cb->allocs[i].flags |= flags;
			return i;
		}
	}
	return vseg_cb_add_allocation(cb, handle, flags);
}

void vseg_cb_add_patch(struct vseg_cmdbuf *cb, uint32_t allocation_index,
		       uint64_t allocation_offset, uint64_t patch_offset)
{
	struct drm_vseg_patch *p;

	cb->patches = grow(cb->patches, &cb->cap_patches, cb->num_patches,
			   sizeof(*p));
	p = &cb->patches[cb->num_patches++];
	memset(p, 0, sizeof(*p));
	p->allocation_index = allocation_index;
	p->allocation_offset = allocation_offset;
	p->patch_offset = patch_offset;
}

void vseg_cb_patch(struct vseg_cmdbuf *cb, uint32_t cmd, size_t field,
		   uint32_t handle, uint64_t offset, bool write)
{
	uint32_t index;

	index = vseg_cb_allocation(cb, handle,
				   write ? DRM_VSEG_ALLOCATION_WRITE : 0);
	vseg_cb_add_patch(cb, index, offset, VSEG_PATCH_OFFSET(cmd, field));
}

uint32_t vseg_cb_fill_phys(struct vseg_cmdbuf *cb, uint32_t handle,
			   uint64_t offset, uint64_t size, uint32_t value)
{
	uint32_t cmd = vseg_cb_fill(cb, 0, size, value);

	vseg_cb_patch(cb, cmd, VSEG_CMD_DST, handle, offset, true);
	return cmd;
}

uint32_t vseg_cb_copy_phys(struct vseg_cmdbuf *cb, uint32_t dst_handle,
			   uint64_t dst_offset, uint32_t src_handle,
			   uint64_t src_offset, uint64_t size)
{
	uint32_t cmd = vseg_cb_copy(cb, 0, 0, size);

	vseg_cb_patch(cb, cmd, VSEG_CMD_DST, dst_handle, dst_offset, true);
	vseg_cb_patch(cb, cmd, VSEG_CMD_SRC, src_handle, src_offset, false);
	return cmd;
}

uint32_t vseg_cb_write_phys(struct vseg_cmdbuf *cb, uint32_t handle,
			    uint64_t offset, uint64_t value)
{
	uint32_t cmd = vseg_cb_write(cb, 0, value);

	vseg_cb_patch(cb, cmd, VSEG_CMD_DST, handle, offset, true);
	return cmd;
}

/* --- submission --------------------------------------------------------- */

void vseg_submit_args(struct drm_vseg_submit *s, uint32_t engine,
		      const struct vseg_cmdbuf *cb)
{
	memset(s, 0, sizeof(*s));
	s->engine = engine;
	s->commands = (uintptr_t)cb->cmds;
	s->commands_size = cb->num_cmds * sizeof(struct drm_vseg_cmd);
	s->sync_size = sizeof(struct drm_vseg_sync);
	if (cb->num_allocs) {
		s->num_allocations = cb->num_allocs;
		s->allocations = (uintptr_t)cb->allocs;
	}
	if (cb->num_patches) {
		s->num_patches = cb->num_patches;
		s->patches = (uintptr_t)cb->patches;
	}
}

int __vseg_submit(int fd, struct drm_vseg_submit *s)
{
	return __vseg_ioctl(fd, DRM_IOCTL_VSEG_SUBMIT, s);
}

int __vseg_cb_submit_syncs(int fd, uint32_t engine,
			   const struct vseg_cmdbuf *cb,
			   const struct drm_vseg_sync *in, uint32_t num_in,
			   const struct drm_vseg_sync *out, uint32_t num_out)
{
	struct drm_vseg_submit s;

	vseg_submit_args(&s, engine, cb);
	s.in_syncs = (uintptr_t)in;
	s.num_in_syncs = num_in;
	s.out_syncs = (uintptr_t)out;
	s.num_out_syncs = num_out;
	return __vseg_submit(fd, &s);
}

struct drm_vseg_sync *vseg_binary_syncs(const uint32_t *handles, uint32_t n)
{
	struct drm_vseg_sync *syncs = calloc(n ? n : 1, sizeof(*syncs));

	igt_assert(syncs);
	for (uint32_t i = 0; i < n; i++)
		syncs[i].handle = handles[i];
	return syncs;
}

int __vseg_cb_submit(int fd, uint32_t engine, const struct vseg_cmdbuf *cb,
		     const uint32_t *in, uint32_t num_in, const uint32_t *out,
		     uint32_t num_out)
{
	struct drm_vseg_sync *si = vseg_binary_syncs(in, num_in);
	struct drm_vseg_sync *so = vseg_binary_syncs(out, num_out);
	int err;

	err = __vseg_cb_submit_syncs(fd, engine, cb, num_in ? si : NULL,
				     num_in, num_out ? so : NULL, num_out);
	free(si);
	free(so);
	return err;
}

void vseg_cb_submit(int fd, uint32_t engine, const struct vseg_cmdbuf *cb,
		    const uint32_t *in, uint32_t num_in, const uint32_t *out,
		    uint32_t num_out)
{
	int err = __vseg_cb_submit(fd, engine, cb, in, num_in, out, num_out);

	igt_assert_f(err == 0,
		     "SUBMIT on engine %u (%u commands, %u allocations, %u patches) failed: %d (%s)\n",
		     engine, cb->num_cmds, cb->num_allocs, cb->num_patches,
		     err, strerror(-err));
}

int vseg_cb_exec(int fd, uint32_t engine, const struct vseg_cmdbuf *cb)
{
	uint32_t sync = vseg_syncobj_create(fd, 0);
	int status;

	vseg_cb_submit(fd, engine, cb, NULL, 0, &sync, 1);
	status = vseg_syncobj_wait_error(fd, sync, VSEG_JOB_TIMEOUT_MS);
	vseg_syncobj_destroy(fd, sync);
	return status;
}

void vseg_cb_exec_ok(int fd, uint32_t engine, const struct vseg_cmdbuf *cb,
		     const char *what)
{
	int status = vseg_cb_exec(fd, engine, cb);

	igt_assert_f(status == 0, "%s: the job failed with %d (%s)\n", what,
		     status, strerror(-status));
}

/* --- syncobjs ----------------------------------------------------------- */

uint32_t vseg_syncobj_create(int fd, uint32_t flags)
{
	uint32_t handle = 0;
	int ret;

	ret = drmSyncobjCreate(fd, flags, &handle);
	igt_assert_f(ret == 0, "drmSyncobjCreate failed: %d (%s)\n", ret,
		     strerror(errno));
	igt_assert(handle);
	errno = 0;
	return handle;
}

void vseg_syncobj_destroy(int fd, uint32_t handle)
{
	int ret = drmSyncobjDestroy(fd, handle);

	igt_assert_f(ret == 0, "drmSyncobjDestroy(%u) failed: %s\n", handle,
		     strerror(errno));
	errno = 0;
}

int __vseg_syncobj_wait(int fd, const uint32_t *handles, uint32_t count,
			unsigned int timeout_ms)
{
	struct timespec now;
	int64_t deadline;
	uint32_t *copy;
	int ret;

	clock_gettime(CLOCK_MONOTONIC, &now);
	deadline = (int64_t)now.tv_sec * NSEC_PER_SEC + now.tv_nsec +
		   (int64_t)timeout_ms * NSEC_PER_MSEC;
	/* drmSyncobjWait() takes a non-const array. */
	copy = malloc(count * sizeof(*copy) + 1);
	igt_assert(copy);
	memcpy(copy, handles, count * sizeof(*copy));
	ret = drmSyncobjWait(fd, copy, count, deadline,
			     DRM_SYNCOBJ_WAIT_FLAGS_WAIT_ALL, NULL);
	free(copy);
	errno = 0;
	return ret;
}

void vseg_syncobj_wait(int fd, uint32_t handle, unsigned int timeout_ms)
{
	int ret = __vseg_syncobj_wait(fd, &handle, 1, timeout_ms);

	igt_assert_f(ret == 0,
		     "waiting %u ms for syncobj %u: %d (%s)%s\n", timeout_ms,
		     handle, ret, strerror(-ret),
		     ret == -ETIME ? ": the job did not complete" : "");
}

int __vseg_syncobj_status(int fd, uint32_t handle, int *status)
{
	struct sync_file_info info;
	int sync_fd = -1, ret;

	ret = drmSyncobjExportSyncFile(fd, handle, &sync_fd);
	if (ret) {
		ret = errno ? -errno : ret;
		errno = 0;
		return ret;
	}
	memset(&info, 0, sizeof(info));
	ret = ioctl(sync_fd, SYNC_IOC_FILE_INFO, &info);
	igt_assert_f(ret == 0, "SYNC_IOC_FILE_INFO failed: %s\n",
		     strerror(errno));
	close(sync_fd);
	*status = info.status;
	errno = 0;
	return 0;
}

int vseg_syncobj_status(int fd, uint32_t handle)
{
	int status = 0, err;

	err = __vseg_syncobj_status(fd, handle, &status);
	igt_assert_f(err == 0,
		     "exporting syncobj %u as a sync_file failed: %d (%s)\n",
		     handle, err, strerror(-err));
	return status;
}

bool vseg_syncobj_has_fence(int fd, uint32_t handle)
{
	int status;

	return __vseg_syncobj_status(fd, handle, &status) == 0;
}

int vseg_syncobj_wait_error(int fd, uint32_t handle, unsigned int timeout_ms)
{
	int status;

	vseg_syncobj_wait(fd, handle, timeout_ms);
	status = vseg_syncobj_status(fd, handle);
	igt_assert_f(status != 0,
		     "syncobj %u signalled for drmSyncobjWait but its sync_file is still active\n",
		     handle);
	return status > 0 ? 0 : status;
}

/* --- GPU virtual address space ------------------------------------------- */

static int vm_ioctl(int fd, unsigned long ioc, struct drm_vseg_vm_bind *b)
{
	return __vseg_ioctl(fd, ioc, b);
}

int __vseg_vm_bind_ioctl(int fd, struct drm_vseg_vm_bind *b)
{
	return vm_ioctl(fd, DRM_IOCTL_VSEG_VM_BIND, b);
}

int __vseg_vm_unbind_ioctl(int fd, struct drm_vseg_vm_bind *b)
{
	return vm_ioctl(fd, DRM_IOCTL_VSEG_VM_UNBIND, b);
}

int __vseg_vm_bind(int fd, uint32_t handle, uint64_t gpu_va, uint64_t *size)
{
	struct drm_vseg_vm_bind b = { .handle = handle, .gpu_va = gpu_va };
	int err = __vseg_vm_bind_ioctl(fd, &b);

	if (size)
		*size = b.size;
	return err;
}

uint64_t vseg_vm_bind(int fd, uint32_t handle, uint64_t gpu_va)
{
	uint64_t size = 0;
	int err = __vseg_vm_bind(fd, handle, gpu_va, &size);

	igt_assert_f(err == 0, "VM_BIND of handle %u at %#llx failed: %d (%s)\n",
		     handle, (unsigned long long)gpu_va, err, strerror(-err));
	igt_assert_f(size, "VM_BIND of handle %u returned size 0\n", handle);
	return size;
}

int __vseg_vm_unbind(int fd, uint64_t gpu_va)
{
	struct drm_vseg_vm_bind b = { .gpu_va = gpu_va };

	return __vseg_vm_unbind_ioctl(fd, &b);
}

void vseg_vm_unbind(int fd, uint64_t gpu_va)
{
	int err = __vseg_vm_unbind(fd, gpu_va);

	igt_assert_f(err == 0, "VM_UNBIND at %#llx failed: %d (%s)\n",
		     (unsigned long long)gpu_va, err, strerror(-err));
}

/* A bind argument with its binary sync arrays (free() *@si and *@so). */
static void bind_args(struct drm_vseg_vm_bind *b, uint64_t gpu_va,
		      uint64_t size, const uint32_t *in, uint32_t num_in,
		      const uint32_t *out, uint32_t num_out,
		      struct drm_vseg_sync **si, struct drm_vseg_sync **so)
{
	memset(b, 0, sizeof(*b));
	b->gpu_va = gpu_va;
	b->size = size;
	*si = vseg_binary_syncs(in, num_in);
	*so = vseg_binary_syncs(out, num_out);
	if (num_in || num_out)
		b->sync_size = sizeof(struct drm_vseg_sync);
	b->num_in_syncs = num_in;
	b->in_syncs = num_in ? (uintptr_t)*si : 0;
	b->num_out_syncs = num_out;
	b->out_syncs = num_out ? (uintptr_t)*so : 0;
}

/* VM_BIND of a range; *@bound: the size the kernel says it mapped. */
static int bind_range(int fd, uint32_t handle, uint64_t gpu_va,
		      uint64_t offset, uint64_t size, uint32_t flags,
		      const uint32_t *in, uint32_t num_in,
		      const uint32_t *out, uint32_t num_out, uint64_t *bound)
{
	struct drm_vseg_sync *si, *so;
	struct drm_vseg_vm_bind b;
	int err;

	bind_args(&b, gpu_va, size, in, num_in, out, num_out, &si, &so);
	b.handle = handle;
	b.offset = offset;
	b.flags = flags;
	err = __vseg_vm_bind_ioctl(fd, &b);
	free(si);
	free(so);
	*bound = b.size;
	return err;
}

int __vseg_vm_bind_range(int fd, uint32_t handle, uint64_t gpu_va,
			 uint64_t offset, uint64_t size, uint32_t flags,
			 const uint32_t *in, uint32_t num_in,
			 const uint32_t *out, uint32_t num_out)
{
	uint64_t bound;

	return bind_range(fd, handle, gpu_va, offset, size, flags, in, num_in,
			  out, num_out, &bound);
}

uint64_t vseg_vm_bind_range(int fd, uint32_t handle, uint64_t gpu_va,
			    uint64_t offset, uint64_t size, uint32_t flags,
			    const uint32_t *in, uint32_t num_in,
			    const uint32_t *out, uint32_t num_out)
{
	uint64_t bound;
	int err = bind_range(fd, handle, gpu_va, offset, size, flags, in,
			     num_in, out, num_out, &bound);

	igt_assert_f(err == 0,
		     "VM_BIND of handle %u [%#llx, +%#llx) at %#llx failed: %d (%s)\n",
		     handle, (unsigned long long)offset,
		     (unsigned long long)size, (unsigned long long)gpu_va,
		     err, strerror(-err));
	igt_assert_f(bound && (!size || bound == size),
		     "VM_BIND of %#llx bytes mapped %#llx\n",
		     (unsigned long long)size, (unsigned long long)bound);
	return bound;
}

int __vseg_vm_unbind_range(int fd, uint64_t gpu_va, uint64_t size,
			   const uint32_t *in, uint32_t num_in,
			   const uint32_t *out, uint32_t num_out)
{
	struct drm_vseg_sync *si, *so;
	struct drm_vseg_vm_bind b;
	int err;

	bind_args(&b, gpu_va, size, in, num_in, out, num_out, &si, &so);
	err = __vseg_vm_unbind_ioctl(fd, &b);
	free(si);
	free(so);
	return err;
}

void vseg_vm_unbind_range(int fd, uint64_t gpu_va, uint64_t size,
			  const uint32_t *in, uint32_t num_in,
			  const uint32_t *out, uint32_t num_out)
{
	int err = __vseg_vm_unbind_range(fd, gpu_va, size, in, num_in, out,
					 num_out);

	igt_assert_f(err == 0, "VM_UNBIND of [%#llx, +%#llx) failed: %d (%s)\n",
		     (unsigned long long)gpu_va, (unsigned long long)size, err,
		     strerror(-err));
}

void vseg_va_init(struct vseg_va_space *va, uint64_t start, uint64_t end)
{
	igt_assert(!(start % VSEG_VA_ALIGN) && start && start < end &&
		   end <= VSEG_VA_END);
	va->next = start;
	va->end = end;
}

uint64_t vseg_va_alloc(struct vseg_va_space *va, uint64_t size)
{
	uint64_t addr = va->next;
	uint64_t len = (size + VSEG_VA_ALIGN - 1) & ~(VSEG_VA_ALIGN - 1);

	igt_assert_f(len >= size && addr + len + VSEG_VA_ALIGN <= va->end,
		     "GPU virtual address range exhausted\n");
	va->next = addr + len + VSEG_VA_ALIGN;
	return addr;
}

/* --- physical addresses --------------------------------------------------- */

bool vseg_phys_addr_of(const struct drm_vseg_gem_info *info, uint64_t offset,
		       uint64_t *addr)
{
	if (info->gpu_address == DRM_VSEG_GPU_ADDRESS_NONE)
		return false;
	*addr = info->gpu_address + offset;
	return true;
}

uint64_t vseg_phys_addr(int fd, uint32_t handle, uint64_t offset)
{
	struct drm_vseg_gem_info info;
	uint64_t addr = 0;

	vseg_gem_info(fd, handle, &info);
	igt_assert_f(vseg_phys_addr_of(&info, offset, &addr),
		     "handle %u (segment %u, placement flags %#x) is not physically reachable\n",
		     handle, info.segment_id, info.placement_flags);
	return addr;
}

/* --- buffer contents ------------------------------------------------------ */

static void *map_whole(int fd, uint32_t handle, int prot, uint64_t *size)
{
	struct drm_vseg_gem_info info;

	vseg_gem_info(fd, handle, &info);
	*size = info.size;
	return vseg_gem_mmap(fd, handle, info.size, prot);
}

void vseg_bo_read(int fd, uint32_t handle, uint64_t offset, void *dst,
		  uint64_t size)
{
	uint64_t bo_size;
	void *ptr = map_whole(fd, handle, PROT_READ, &bo_size);

	igt_assert(offset <= bo_size && size <= bo_size - offset);
	memcpy(dst, (char *)ptr + offset, size);
	munmap(ptr, bo_size);
}

void vseg_bo_write(int fd, uint32_t handle, uint64_t offset, const void *src,
		   uint64_t size)
{
	uint64_t bo_size;
	void *ptr = map_whole(fd, handle, PROT_READ | PROT_WRITE, &bo_size);

	igt_assert(offset <= bo_size && size <= bo_size - offset);
	memcpy((char *)ptr + offset, src, size);
	munmap(ptr, bo_size);
}

void vseg_fill32(void *dst, uint64_t size, uint32_t value)
{
	uint32_t *p = dst;

	for (uint64_t i = 0; i < size / 4; i++)
		p[i] = value;
}

void vseg_assert_same(const void *got, const void *want, uint64_t size,
		      uint64_t base, const char *what)
{
	const uint8_t *g = got, *w = want;
	uint64_t i, j;

	if (!memcmp(got, want, size))
		return;
	for (i = 0; i < size && g[i] == w[i]; i++)
		;
	/* The extent of the first differing run, for the report. */
	for (j = i; j < size && g[j] != w[j]; j++)
		;
	igt_assert_f(false,
		     "%s: data differs at offset %#llx (for %#llx bytes): got %02x, expected %02x\n",
		     what, (unsigned long long)(base + i),
		     (unsigned long long)(j - i), g[i], w[i]);
}
