/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Copyright (c) 2026 The vseg authors
 *
 * A job of the software GPU, as submission (vseg_submit.c) builds it and
 * the engines (vseg_engine.c) run it. Internal to those two files.
 */
#ifndef __VSEG_JOB_H__
#define __VSEG_JOB_H__

#include <linux/dma-fence.h>
#include <linux/list.h>
#include <linux/types.h>
#include <linux/workqueue.h>

struct drm_gem_object;
struct drm_vseg_cmd;
struct ttm_resource;
struct vseg_bo;
struct vseg_client_stats;
struct vseg_engine;
struct vseg_vm_view;

/**
 * struct vseg_phys_range - where a listed allocation is, physically
 * @start: GPU physical address of its first byte: its segment's base
 *	address (a memory segment's, or the aperture's) plus its offset.
 * @last: the address of its last byte (a buffer may end at 2^64).
 * @protected: the allocation is a protected buffer.
 *
 * The only bytes a physically addressed job may touch.
 */
struct vseg_phys_range {
	u64 start;
	u64 last;
	bool protected;
};

/**
 * struct vseg_job_dep - a fence a job waits for before it is queued
 * @cb: on the fence's callback list while the job waits.
 * @fence: the fence, referenced.
 * @job: the waiting job.
 * @explicit: an input syncobj's fence: its error cancels the job. Implicit
 *	dependencies (the buffers' reservations, the file's previous job)
 *	only order the job.
 */
struct vseg_job_dep {
	struct dma_fence_cb cb;
	struct dma_fence *fence;
	struct vseg_job *job;
	bool explicit;
};

/* Bits of &vseg_job.flags. */
#define VSEG_JOB_QUEUED		0	/* handed to the engine's queue */
#define VSEG_JOB_CANCELLED	1	/* the device went away first */

/**
 * struct vseg_job - a job, from submission to its fence
 * @work: runs it on the engine's queue.
 * @engine: the engine.
 * @fence: its completion fence.
 * @cmds: the command buffer, patched.
 * @num_cmds: commands in @cmds.
 * @deps: what it waits for before it is queued.
 * @num_deps: entries in @deps.
 * @pending: @deps not signalled yet, plus one while it is being armed.
 * @flags: VSEG_JOB_*.
 * @timeout: gives up waiting for the input syncobjs.
 * @link: in &vseg_engine.waiting until queued.
 * @bos: every distinct buffer it may touch, referenced.
 * @objs: the same, as GEM objects, for locking.
 * @res: where each of @bos was at submission.
 * @num_bos: entries in @bos.
 * @ranges: copy engine: the physical range of each of @bos, sorted.
 * @view: render engine: the mappings it was submitted with.
 * @map_res: render engine: the resource behind each mapping of @view.
 * @stats: the submitting file's engine time counters, a reference.
 */
struct vseg_job {
	struct work_struct work;
	struct vseg_engine *engine;
	struct dma_fence *fence;
	struct drm_vseg_cmd *cmds;
	u32 num_cmds;
	struct vseg_job_dep *deps;
	u32 num_deps;
	atomic_t pending;
	unsigned long flags;
	struct delayed_work timeout;
	struct list_head link;
	struct vseg_bo **bos;
	struct drm_gem_object **objs;
	struct ttm_resource **res;
	u32 num_bos;
	struct vseg_phys_range *ranges;
	struct vseg_vm_view *view;
	struct ttm_resource **map_res;
	struct vseg_client_stats *stats;
};

struct vseg_job *vseg_job_alloc(struct vseg_engine *e);
void vseg_job_free(struct vseg_job *job);
int vseg_job_fence_init(struct vseg_job *job);
void vseg_job_arm(struct vseg_job *job);
bool vseg_job_cmd_listed(const struct vseg_job *job,
			 const struct drm_vseg_cmd *c);

#endif /* __VSEG_JOB_H__ */
