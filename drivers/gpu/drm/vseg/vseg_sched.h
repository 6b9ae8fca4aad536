/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Copyright (c) 2026 The vseg authors
 */
#ifndef __VSEG_SCHED_H__
#define __VSEG_SCHED_H__

#include <linux/types.h>
#include <drm/gpu_scheduler.h>

#include "vseg_engine.h"

struct dma_fence;
struct drm_file;
struct seq_file;
struct vseg_device;
struct vseg_job;

/*
 * The queues jobs are scheduled on: one drm_gpu_scheduler each. The first
 * three feed the engines of the same id (VSEG_ENGINE_*); the bind queue
 * runs VM_BIND operations on the CPU (vseg_vm.c).
 */
#define VSEG_QUEUE_COPY		VSEG_ENGINE_COPY
#define VSEG_QUEUE_RENDER	VSEG_ENGINE_RENDER
#define VSEG_QUEUE_PAGING	VSEG_ENGINE_PAGING
#define VSEG_QUEUE_BIND		3
#define VSEG_NUM_QUEUES		4

/**
 * struct vseg_job_ops - what one kind of job does
 * @run: runs the job on its engine, inside the fence signalling path:
 *	never allocates, never waits for a fence. Returns 0 or the error
 *	its fence signals. Called by the engine's worker, or (bind queue,
 *	no engine) by the scheduler itself.
 * @free: drops what the job holds and frees it; the scheduler's part is
 *	cleaned up already. Called once, whether the job ran or not.
 */
struct vseg_job_ops {
	int (*run)(struct vseg_job *job);
	void (*free)(struct vseg_job *job);
};

/**
 * struct vseg_job - a job of any queue, from submission to its end
 * @base: drm_sched's job; its finished fence is the job's fence, on the
 *	timeline of the entity that queued it.
 * @hw: what the engine runs (not used on the bind queue).
 * @ops: the kind of job.
 * @vdev: the device.
 * @queue: VSEG_QUEUE_*.
 * @in_fences: fences of the input syncobjs, referenced: a job whose input
 *	failed does not run (its fence signals -ECANCELED).
 * @num_in: entries in @in_fences.
 */
struct vseg_job {
	struct drm_sched_job base;
	struct vseg_hw_job hw;
	const struct vseg_job_ops *ops;
	struct vseg_device *vdev;
	u32 queue;
	struct dma_fence **in_fences;
	u32 num_in;
};

static inline struct vseg_job *to_vseg_job(struct drm_sched_job *sj)
{
	return container_of(sj, struct vseg_job, base);
}

/**
 * struct vseg_sched - one queue's scheduler
 * @base: drm_sched's.
 * @vdev: the device.
 * @id: VSEG_QUEUE_*.
 * @timedout: jobs stopped for running past the time limit.
 */
struct vseg_sched {
	struct drm_gpu_scheduler base;
	struct vseg_device *vdev;
	u32 id;
	atomic64_t timedout;
	struct mutex pause_lock; /* submission paused: a timeout, an entity's end */
};

int vseg_sched_init(struct vseg_device *vdev);
void vseg_sched_unplug(struct vseg_device *vdev);
void vseg_sched_show(struct vseg_device *vdev, struct seq_file *m);
unsigned int vseg_sched_timeout_ms(void);
int vseg_sched_entity_init(struct vseg_device *vdev,
			   struct drm_sched_entity *entity, u32 queue,
			   enum drm_sched_priority prio);
void vseg_sched_entity_fini(struct drm_sched_entity *entity);
int vseg_job_init(struct vseg_job *job, struct vseg_device *vdev,
		  const struct vseg_job_ops *ops,
		  struct drm_sched_entity *entity, u32 queue, u64 client_id,
		  void *owner);
int vseg_job_add_in_fence(struct vseg_job *job, struct dma_fence *fence);
int vseg_job_add_resv_deps(struct vseg_job *job, struct dma_resv *resv);
struct dma_fence *vseg_job_arm(struct vseg_job *job);
void vseg_job_push(struct vseg_job *job);
void vseg_job_abandon(struct vseg_job *job);

#endif /* __VSEG_SCHED_H__ */
