// SPDX-License-Identifier: GPL-2.0-only
/*
 * Copyright (c) 2026 The vseg authors
 *
 * Sync objects of SUBMIT and VM_BIND: arrays of &struct drm_vseg_sync of
 * the caller's stride, input points a job waits for (through drm_sched)
 * and output points that get its fence; and the copy of user arrays every
 * ioctl with a list uses. What a client makes the kernel allocate here is
 * charged to it (GFP_KERNEL_ACCOUNT).
 */

#include <linux/dma-fence.h>
#include <linux/dma-fence-chain.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/uaccess.h>
#include <drm/drm_file.h>
#include <drm/drm_syncobj.h>
#include <uapi/drm/vseg_drm.h>

#include "vseg_sched.h"
#include "vseg_syncs.h"

/**
 * vseg_copy_array() - copy a user array into the kernel
 * @uptr: user address of the array
 * @count: elements, bounded by the caller
 * @size: bytes per element
 * @err: receives 0, -ENOMEM or -EFAULT
 *
 * Return: the copy (kvfree() it), or NULL for an empty array or an error.
 */
void *vseg_copy_array(u64 uptr, u32 count, size_t size, int *err)
{
	void *p;

	*err = 0;
	if (!count)
		return NULL;
	p = kvmalloc_array(count, size, GFP_KERNEL_ACCOUNT);
	if (!p) {
		*err = -ENOMEM;
		return NULL;
	}
	if (copy_from_user(p, u64_to_user_ptr(uptr), (size_t)count * size)) {
		kvfree(p);
		*err = -EFAULT;
		return NULL;
	}
	return p;
}

/**
 * vseg_syncs_check() - check the lengths and stride of sync arrays
 * @num_in: input entries
 * @num_out: output entries
 * @sync_size: the arrays' stride: 0 only when both are empty, else a
 *	multiple of 8 from %DRM_VSEG_SYNC_SIZE_V1 to %DRM_VSEG_SYNC_SIZE_MAX
 *
 * Return: 0, -EINVAL for a bad stride, -E2BIG for a stride or a list
 * beyond its limit.
 */
int vseg_syncs_check(u32 num_in, u32 num_out, u32 sync_size)
{
	if ((sync_size || num_in || num_out) &&
	    (sync_size < DRM_VSEG_SYNC_SIZE_V1 || !IS_ALIGNED(sync_size, 8)))
		return -EINVAL;
	if (sync_size > DRM_VSEG_SYNC_SIZE_MAX || num_in > DRM_VSEG_MAX_SYNCS ||
	    num_out > DRM_VSEG_MAX_SYNCS)
		return -E2BIG;
	return 0;
}

/*
 * A sync array: @count elements of @stride bytes, each a struct
 * drm_vseg_sync followed by bytes this kernel does not know, which must be
 * zero. Returns the entries, packed.
 */
static struct drm_vseg_sync *copy_syncs(u64 uptr, u32 count, u32 stride,
					int *err)
{
	struct drm_vseg_sync *syncs;
	u8 *raw;
	u32 i;

	raw = vseg_copy_array(uptr, count, stride, err);
	if (!raw)
		return NULL;
	syncs = kvmalloc_array(count, sizeof(*syncs), GFP_KERNEL_ACCOUNT);
	if (!syncs) {
		*err = -ENOMEM;
		goto out;
	}
	for (i = 0; i < count; i++) {
		const u8 *e = raw + (size_t)i * stride;

		memcpy(&syncs[i], e, sizeof(*syncs));
		if (syncs[i].flags ||
		    memchr_inv(e + sizeof(*syncs), 0, stride - sizeof(*syncs))) {
			*err = -EINVAL;
			kvfree(syncs);
			syncs = NULL;
			break;
		}
	}
out:
	kvfree(raw);
	return syncs;
}

/**
 * vseg_syncs_wait_in() - make a job wait for its input points
 * @job: the job, not armed
 * @file: the caller, whose syncobjs the handles name
 * @uptr: user address of the &struct drm_vseg_sync array
 * @count: its entries, checked by vseg_syncs_check()
 * @stride: its stride
 *
 * The DRM core refuses (-EINVAL) a point on a syncobj that holds no
 * timeline, and a point not submitted yet; a point already signalled may
 * come back as no fence: it is waited for as one that has signalled.
 *
 * Return: 0, -EINVAL, -ENOENT (unknown syncobj), -EFAULT, -ENOMEM.
 */
int vseg_syncs_wait_in(struct vseg_job *job, struct drm_file *file,
		       u64 uptr, u32 count, u32 stride)
{
	struct drm_vseg_sync *syncs;
	u32 i;
	int err;

	syncs = copy_syncs(uptr, count, stride, &err);
	for (i = 0; !err && i < count; i++) {
		struct dma_fence *f = NULL;

		/* On error the core may leave @f pointing at a dropped fence. */
		err = drm_syncobj_find_fence(file, syncs[i].handle,
					     syncs[i].point, 0, &f);
		if (err)
			break;
		if (!f)
			f = dma_fence_get_stub();
		err = vseg_job_add_in_fence(job, f);
		dma_fence_put(f);
	}
	kvfree(syncs);
	return err;
}

/**
 * vseg_syncs_put_out() - drop output syncobjs looked up
 * @out: the array from vseg_syncs_get_out(), or NULL
 * @n: its entries
 */
void vseg_syncs_put_out(struct vseg_out_sync *out, u32 n)
{
	u32 i;

	if (!out)
		return;
	for (i = 0; i < n; i++) {
		if (out[i].so)
			drm_syncobj_put(out[i].so);
		dma_fence_chain_free(out[i].chain);
	}
	kvfree(out);
}

/* True if the syncobj holds a fence that is not a timeline's. */
static bool syncobj_is_binary(struct drm_syncobj *so)
{
	struct dma_fence *f = drm_syncobj_fence_get(so);
	bool binary = f && !to_dma_fence_chain(f);

	dma_fence_put(f);
	return binary;
}

/**
 * vseg_syncs_get_out() - look up the output points before the job exists
 * @file: the caller
 * @uptr: user address of the &struct drm_vseg_sync array
 * @count: its entries, checked by vseg_syncs_check()
 * @stride: its stride
 * @outp: receives the array (vseg_syncs_put_out() it, also on error)
 *
 * The chain links of timeline points are allocated now: once the job is
 * queued, signalling them cannot fail.
 *
 * Return: 0, -EINVAL (a point on a binary syncobj, bad bytes), -ENOENT,
 * -EFAULT, -ENOMEM.
 */
int vseg_syncs_get_out(struct drm_file *file, u64 uptr, u32 count,
		       u32 stride, struct vseg_out_sync **outp)
{
	struct drm_vseg_sync *syncs;
	struct vseg_out_sync *out;
	u32 i;
	int err;

	*outp = NULL;
	syncs = copy_syncs(uptr, count, stride, &err);
	if (err)
		return err;
	out = kvcalloc(count, sizeof(*out), GFP_KERNEL_ACCOUNT);
	if (count && !out)
		err = -ENOMEM;
	*outp = out;
	for (i = 0; !err && i < count; i++) {
		out[i].so = drm_syncobj_find(file, syncs[i].handle);
		out[i].point = syncs[i].point;
		if (!out[i].so) {
			err = -ENOENT;
		} else if (out[i].point && syncobj_is_binary(out[i].so)) {
			err = -EINVAL;
		} else if (out[i].point) {
			out[i].chain = dma_fence_chain_alloc();
			if (!out[i].chain)
				err = -ENOMEM;
		}
	}
	kvfree(syncs);
	return err;
}

/**
 * vseg_syncs_signal_out() - put a job's fence in its output points
 * @out: the array from vseg_syncs_get_out()
 * @n: its entries
 * @fence: the fence
 *
 * Cannot fail: every syncobj and chain link was gotten beforehand.
 */
void vseg_syncs_signal_out(struct vseg_out_sync *out, u32 n,
			   struct dma_fence *fence)
{
	u32 i;

	for (i = 0; i < n; i++) {
		if (out[i].chain) {
			drm_syncobj_add_point(out[i].so, out[i].chain, fence,
					      out[i].point);
			out[i].chain = NULL;
		} else {
			drm_syncobj_replace_fence(out[i].so, fence);
		}
	}
}
