/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Copyright (c) 2026 The vseg authors
 */
#ifndef __VSEG_SYNCS_H__
#define __VSEG_SYNCS_H__

#include <linux/types.h>

struct dma_fence;
struct dma_fence_chain;
struct drm_file;
struct drm_syncobj;
struct vseg_job;

/**
 * struct vseg_out_sync - an output syncobj, looked up before the job exists
 * @so: the syncobj (a reference).
 * @chain: for a timeline point, the chain link that will hold the job's
 *	fence; NULL for a binary syncobj.
 * @point: the timeline point, or 0.
 */
struct vseg_out_sync {
	struct drm_syncobj *so;
	struct dma_fence_chain *chain;
	u64 point;
};

void *vseg_copy_array(u64 uptr, u32 count, size_t size, int *err);
int vseg_syncs_check(u32 num_in, u32 num_out, u32 sync_size);
int vseg_syncs_wait_in(struct vseg_job *job, struct drm_file *file,
		       u64 uptr, u32 count, u32 stride);
int vseg_syncs_get_out(struct drm_file *file, u64 uptr, u32 count,
		       u32 stride, struct vseg_out_sync **outp);
void vseg_syncs_signal_out(struct vseg_out_sync *out, u32 n,
			   struct dma_fence *fence);
void vseg_syncs_put_out(struct vseg_out_sync *out, u32 n);

#endif /* __VSEG_SYNCS_H__ */
