/* SPDX-License-Identifier: MIT */
/*
 * Helpers for the vseg engine tests: command buffers with their allocation
 * and patch-location lists, DRM_IOCTL_VSEG_SUBMIT, syncobjs and fence
 * status, VM_BIND / VM_UNBIND, physical addresses and buffer contents.
 *
 * Written against upstream IGT's library API and libdrm only, so that it
 * can live in upstream's lib/ next to the other driver helpers.
 *
 * Copyright (c) 2026 The vseg authors
 */
#ifndef IGT_VSEG_EXEC_H
#define IGT_VSEG_EXEC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "vseg_drm.h"

/*
 * For igt_emit_ignore_dmesg_regex(): what vseg logs for each job it stops
 * at the time limit (module parameter job_timeout_ms).
 */
#define VSEG_JOB_TIMEOUT_DMESG	"a job ran longer than [0-9]+ ms: stopped"

/* Most commands one command buffer can hold. */
#define VSEG_MAX_CMDS \
	(DRM_VSEG_MAX_CMD_BYTES / sizeof(struct drm_vseg_cmd))
/* Byte offsets of the address fields inside a command. */
#define VSEG_CMD_DST	offsetof(struct drm_vseg_cmd, dst)
#define VSEG_CMD_SRC	offsetof(struct drm_vseg_cmd, src)
/* Byte offset, in a command buffer, of @field of command @index. */
#define VSEG_PATCH_OFFSET(index, field) \
	((uint64_t)(index) * sizeof(struct drm_vseg_cmd) + (field))

/* Default time a test waits for a job (the engine runs in an emulator). */
#define VSEG_JOB_TIMEOUT_MS	10000

/*
 * GPU virtual addresses: the granularity the tests hand them out in (the
 * kernel's is the page, DRM_VSEG_DEVICE_QUERY_LIMITS' va_alignment) and
 * the end of the address space.
 */
#define VSEG_VA_ALIGN		0x10000ull
#define VSEG_VA_END		(1ull << 47)

/* igt_require() that the device has the engine (DRM_CAP_SYNCOBJ). */
void vseg_require_engine(int fd);

/* --- command buffers ---------------------------------------------------- */

/**
 * struct vseg_cmdbuf - a command buffer under construction
 * @cmds: the commands.
 * @num_cmds: commands used.
 * @cap_cmds: commands allocated.
 * @allocs: the allocation list (copy engine).
 * @num_allocs: entries used.
 * @cap_allocs: entries allocated.
 * @patches: the patch-location list (copy engine).
 * @num_patches: entries used.
 * @cap_patches: entries allocated.
 *
 * The arrays grow without limit, so that tests can build lists past the
 * kernel's limits on purpose.
 */
struct vseg_cmdbuf {
	struct drm_vseg_cmd *cmds;
	uint32_t num_cmds;
	uint32_t cap_cmds;
	struct drm_vseg_allocation *allocs;
	uint32_t num_allocs;
	uint32_t cap_allocs;
	struct drm_vseg_patch *patches;
	uint32_t num_patches;
	uint32_t cap_patches;
};

void vseg_cb_init(struct vseg_cmdbuf *cb);
/* Forget every command, allocation and patch (keeps the memory). */
void vseg_cb_reset(struct vseg_cmdbuf *cb);
void vseg_cb_fini(struct vseg_cmdbuf *cb);

/* Append one command; returns its index. No argument is checked. */
uint32_t vseg_cb_emit(struct vseg_cmdbuf *cb, uint32_t opcode, uint64_t dst,
		      uint64_t src, uint64_t size, uint64_t value);
uint32_t vseg_cb_nop(struct vseg_cmdbuf *cb);
/* FILL @size bytes at @dst with the 32-bit @value. */
uint32_t vseg_cb_fill(struct vseg_cmdbuf *cb, uint64_t dst, uint64_t size,
		      uint32_t value);
/* COPY @size bytes from @src to @dst. */
uint32_t vseg_cb_copy(struct vseg_cmdbuf *cb, uint64_t dst, uint64_t src,
		      uint64_t size);
/* WRITE the 64-bit @value at @dst. */
uint32_t vseg_cb_write(struct vseg_cmdbuf *cb, uint64_t dst, uint64_t value);

/*
 * Index of @handle in the allocation list, appending it if it is not there
 * yet; @flags (DRM_VSEG_ALLOCATION_*) are or-ed into its entry.
 */
uint32_t vseg_cb_allocation(struct vseg_cmdbuf *cb, uint32_t handle,
			    uint32_t flags);
/* Append an allocation-list entry, even for a handle already listed. */
uint32_t vseg_cb_add_allocation(struct vseg_cmdbuf *cb, uint32_t handle,
				uint32_t flags);
/* Append a patch-location entry. */
void vseg_cb_add_patch(struct vseg_cmdbuf *cb, uint32_t allocation_index,
		       uint64_t allocation_offset, uint64_t patch_offset);
/*
 * Have the kernel patch @field (VSEG_CMD_DST or VSEG_CMD_SRC) of command
 * @cmd with the physical address of byte @offset of buffer @handle
 * (listed, with DRM_VSEG_ALLOCATION_WRITE if @write).
 */
void vseg_cb_patch(struct vseg_cmdbuf *cb, uint32_t cmd, size_t field,
		   uint32_t handle, uint64_t offset, bool write);

/*
 * Physically addressed commands: the address fields are left 0 and
 * patched by the kernel from the allocation and patch-location lists.
 */
uint32_t vseg_cb_fill_phys(struct vseg_cmdbuf *cb, uint32_t handle,
			   uint64_t offset, uint64_t size, uint32_t value);
uint32_t vseg_cb_copy_phys(struct vseg_cmdbuf *cb, uint32_t dst_handle,
			   uint64_t dst_offset, uint32_t src_handle,
			   uint64_t src_offset, uint64_t size);
uint32_t vseg_cb_write_phys(struct vseg_cmdbuf *cb, uint32_t handle,
			    uint64_t offset, uint64_t value);

/* --- submission --------------------------------------------------------- */

/*
 * Fill @s for submitting @cb on @engine: commands, and the allocation and
 * patch-location lists when they are not empty; no syncobjs yet, but
 * @sync_size set to this header's struct drm_vseg_sync.
 */
void vseg_submit_args(struct drm_vseg_submit *s, uint32_t engine,
		      const struct vseg_cmdbuf *cb);
/* DRM_IOCTL_VSEG_SUBMIT: 0 or -errno. */
int __vseg_submit(int fd, struct drm_vseg_submit *s);
/*
 * Submit @cb on @engine waiting for the points @in and signalling the
 * points @out (timeline or binary syncobjs): 0 or -errno.
 */
int __vseg_cb_submit_syncs(int fd, uint32_t engine,
			   const struct vseg_cmdbuf *cb,
			   const struct drm_vseg_sync *in, uint32_t num_in,
			   const struct drm_vseg_sync *out, uint32_t num_out);
/* @n binary sync entries (point 0) of @handles, calloc'ed: free() them. */
struct drm_vseg_sync *vseg_binary_syncs(const uint32_t *handles, uint32_t n);
/*
 * Submit @cb on @engine waiting for the binary syncobjs @in and
 * signalling the binary syncobjs @out: 0 or -errno.
 */
int __vseg_cb_submit(int fd, uint32_t engine, const struct vseg_cmdbuf *cb,
		     const uint32_t *in, uint32_t num_in, const uint32_t *out,
		     uint32_t num_out);
/* The same, asserting success. */
void vseg_cb_submit(int fd, uint32_t engine, const struct vseg_cmdbuf *cb,
		    const uint32_t *in, uint32_t num_in, const uint32_t *out,
		    uint32_t num_out);
/*
 * Submit @cb on @engine with a new out-syncobj (asserting the submission
 * is accepted), wait for the job (asserting it ends within
 * VSEG_JOB_TIMEOUT_MS) and return its fence status: 0, or the job's
 * negative error.
 */
int vseg_cb_exec(int fd, uint32_t engine, const struct vseg_cmdbuf *cb);
/* vseg_cb_exec(), asserting the job succeeded; @what names it. */
void vseg_cb_exec_ok(int fd, uint32_t engine, const struct vseg_cmdbuf *cb,
		     const char *what);

/* --- syncobjs ----------------------------------------------------------- */

/* drmSyncobjCreate() with @flags (DRM_SYNCOBJ_CREATE_SIGNALED or 0). */
uint32_t vseg_syncobj_create(int fd, uint32_t flags);
void vseg_syncobj_destroy(int fd, uint32_t handle);
/*
 * drmSyncobjWait() for all of @handles, at most @timeout_ms: 0, -ETIME on
 * timeout, or another -errno (-EINVAL when one has no fence).
 */
int __vseg_syncobj_wait(int fd, const uint32_t *handles, uint32_t count,
			unsigned int timeout_ms);
/* Wait for @handle, asserting it signals within @timeout_ms. */
void vseg_syncobj_wait(int fd, uint32_t handle, unsigned int timeout_ms);
/*
 * Status of the fence in syncobj @handle, through a sync_file export and
 * SYNC_IOC_FILE_INFO: 1 signalled without error, 0 not signalled yet, a
 * negative error if it signalled with one. Returns 0 and sets *@status,
 * or returns the export's -errno (-EINVAL: the syncobj has no fence).
 */
int __vseg_syncobj_status(int fd, uint32_t handle, int *status);
/* The same, asserting the syncobj has a fence. */
int vseg_syncobj_status(int fd, uint32_t handle);
/* Does the syncobj hold a fence? */
bool vseg_syncobj_has_fence(int fd, uint32_t handle);
/*
 * Wait for @handle (asserting it signals within @timeout_ms) and return the
 * fence's error: 0 if the job succeeded.
 */
int vseg_syncobj_wait_error(int fd, uint32_t handle, unsigned int timeout_ms);

/* --- GPU virtual address space ------------------------------------------- */

/* DRM_IOCTL_VSEG_VM_BIND / VM_UNBIND with a whole argument: 0 or -errno. */
int __vseg_vm_bind_ioctl(int fd, struct drm_vseg_vm_bind *b);
int __vseg_vm_unbind_ioctl(int fd, struct drm_vseg_vm_bind *b);
/* Bind @handle at @gpu_va: 0 or -errno; *@size (if not NULL) as returned. */
int __vseg_vm_bind(int fd, uint32_t handle, uint64_t gpu_va, uint64_t *size);
/* The same, asserting success; returns the bytes mapped. */
uint64_t vseg_vm_bind(int fd, uint32_t handle, uint64_t gpu_va);
/* Unbind the mapping at @gpu_va: 0 or -errno. */
int __vseg_vm_unbind(int fd, uint64_t gpu_va);
void vseg_vm_unbind(int fd, uint64_t gpu_va);
/*
 * VM_BIND of @size bytes (0: the rest of the buffer) of @handle from its
 * byte @offset at @gpu_va, with DRM_VSEG_VM_BIND_* @flags, waiting for the
 * binary syncobjs @in and signalling @out once applied: 0 or -errno.
 */
int __vseg_vm_bind_range(int fd, uint32_t handle, uint64_t gpu_va,
			 uint64_t offset, uint64_t size, uint32_t flags,
			 const uint32_t *in, uint32_t num_in,
			 const uint32_t *out, uint32_t num_out);
/* The same, asserting success; returns the bytes mapped. */
uint64_t vseg_vm_bind_range(int fd, uint32_t handle, uint64_t gpu_va,
			    uint64_t offset, uint64_t size, uint32_t flags,
			    const uint32_t *in, uint32_t num_in,
			    const uint32_t *out, uint32_t num_out);
/*
 * VM_UNBIND of [@gpu_va, @gpu_va + @size) (@size 0: the mapping that
 * starts at @gpu_va), waiting for @in and signalling @out: 0 or -errno.
 */
int __vseg_vm_unbind_range(int fd, uint64_t gpu_va, uint64_t size,
			   const uint32_t *in, uint32_t num_in,
			   const uint32_t *out, uint32_t num_out);
void vseg_vm_unbind_range(int fd, uint64_t gpu_va, uint64_t size,
			  const uint32_t *in, uint32_t num_in,
			  const uint32_t *out, uint32_t num_out);

/**
 * struct vseg_va_space - a trivial allocator of GPU virtual addresses
 * @next: next free address.
 * @end: end of the range handed out.
 */
struct vseg_va_space {
	uint64_t next;
	uint64_t end;
};

/* Hand out addresses from [@start, @end); @start aligned to VSEG_VA_ALIGN. */
void vseg_va_init(struct vseg_va_space *va, uint64_t start, uint64_t end);
/*
 * A VSEG_VA_ALIGN-aligned range of @size bytes, followed by an unmapped
 * hole of at least VSEG_VA_ALIGN bytes (so that running past the end of a
 * mapping hits nothing). Asserts the space is not exhausted.
 */
uint64_t vseg_va_alloc(struct vseg_va_space *va, uint64_t size);

/* --- physical addresses --------------------------------------------------- */

/*
 * The GPU physical address of byte @offset of the buffer described by
 * @info: its gpu_address (the segment's base address + offset when it is
 * contiguous in a memory segment, the aperture's base address +
 * aperture_offset when it is mapped into the aperture) + @offset. False
 * when it has none (DRM_VSEG_GPU_ADDRESS_NONE).
 */
bool vseg_phys_addr_of(const struct drm_vseg_gem_info *info, uint64_t offset,
		       uint64_t *addr);
/* The same for @handle, from its GEM_INFO now; asserts it is reachable. */
uint64_t vseg_phys_addr(int fd, uint32_t handle, uint64_t offset);

/* --- buffer contents ------------------------------------------------------ */

/* Copy @size bytes at @offset of @handle out through a fresh mmap. */
void vseg_bo_read(int fd, uint32_t handle, uint64_t offset, void *dst,
		  uint64_t size);
/* Copy @size bytes into @handle at @offset through a fresh mmap. */
void vseg_bo_write(int fd, uint32_t handle, uint64_t offset, const void *src,
		   uint64_t size);
/* Store the 32-bit @value over @size bytes of @dst (what FILL does). */
void vseg_fill32(void *dst, uint64_t size, uint32_t value);
/*
 * Compare @size bytes of @got and @want; on a difference, fail naming
 * @what and the first differing offset (plus @base) with both values.
 */
void vseg_assert_same(const void *got, const void *want, uint64_t size,
		      uint64_t base, const char *what);

#endif /* IGT_VSEG_EXEC_H */
