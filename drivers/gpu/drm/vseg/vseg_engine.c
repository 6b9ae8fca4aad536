// SPDX-License-Identifier: GPL-2.0-only
/*
 * Copyright (c) 2026 The vseg authors
 *
 * The engines of the software GPU, their queues: a physically addressed
 * copy engine, a virtually addressed render engine and the paging engine,
 * each an ordered kernel work queue that runs the jobs its scheduler
 * (vseg_sched.c, drm_sched) hands it, one after the other, and signals
 * each job's hardware fence, on the engine's own timeline, in order. What
 * to run comes from the job (vseg_hw_job.exec); the command set of the
 * copy and render engines is the hardware's (vseg_hw.h, sim/). A job the
 * scheduler stops for running too long ends at its next step with -ETIME.
 */

#include <linux/dma-fence.h>
#include <linux/slab.h>
#include <linux/workqueue.h>
#include <drm/drm_managed.h>

#include "vseg_device_types.h"
#include "vseg_engine.h"
#include "vseg_trace.h"

/**
 * struct vseg_fence - an engine's hardware fence
 * @base: the fence.
 * @lock: its own: it may outlive the engine and the job.
 * @engine: VSEG_ENGINE_*, for its timeline name.
 */
struct vseg_fence {
	struct dma_fence base;
	spinlock_t lock; /* the fence's own */
	u32 engine;
};

static const char * const vseg_engine_names[VSEG_NUM_ENGINES] = {
	"copy", "render", "paging",
};

static const char *vseg_fence_driver_name(struct dma_fence *f)
{
	return "vseg";
}

static const char *vseg_fence_timeline_name(struct dma_fence *f)
{
	return vseg_engine_names[container_of(f, struct vseg_fence, base)->engine];
}

static const struct dma_fence_ops vseg_fence_ops = {
	.get_driver_name = vseg_fence_driver_name,
	.get_timeline_name = vseg_fence_timeline_name,
};

/* The engine: run the job it was handed, then signal its fence. */
static void engine_run(struct work_struct *work)
{
	struct vseg_hw_job *hw = container_of(work, struct vseg_hw_job, work);
	struct dma_fence *fence = &hw->fence->base;
	bool cookie;
	int err;

	cookie = dma_fence_begin_signalling();
	trace_vseg_job_run(hw->engine->id, hw->trace_context, hw->trace_seqno,
			   0);
	err = hw->exec(hw);
	if (!err && vseg_hw_job_stopping(hw))
		err = -ETIME;
	if (err) {
		dma_fence_set_error(fence, err);
		atomic64_inc(&hw->engine->failed);
	}
	trace_vseg_job_done(hw->engine->id, hw->trace_context, hw->trace_seqno,
			    err);
	/* The job may be freed as soon as this signals: not touched after. */
	dma_fence_signal(fence);
	dma_fence_end_signalling(cookie);
	dma_fence_put(fence);
}

/**
 * vseg_hw_job_init() - prepare a job for an engine
 * @hw: the job's hardware part
 * @e: the engine
 * @exec: what the engine runs
 *
 * Allocates the job's hardware fence now: the engine cannot allocate when
 * it takes the job.
 *
 * Return: 0 or -ENOMEM.
 */
int vseg_hw_job_init(struct vseg_hw_job *hw, struct vseg_engine *e,
		     int (*exec)(struct vseg_hw_job *hw))
{
	hw->fence = kzalloc(sizeof(*hw->fence), GFP_KERNEL_ACCOUNT);
	if (!hw->fence)
		return -ENOMEM;
	spin_lock_init(&hw->fence->lock);
	hw->fence->engine = e->id;
	hw->engine = e;
	hw->exec = exec;
	atomic_set(&hw->stop, 0);
	hw->started = false;
	INIT_WORK(&hw->work, engine_run);
	return 0;
}

/**
 * vseg_hw_job_fini() - drop a job's hardware part
 * @hw: the job's hardware part; the engine is done with it
 */
void vseg_hw_job_fini(struct vseg_hw_job *hw)
{
	if (!hw->fence)
		return;
	if (hw->started)
		dma_fence_put(&hw->fence->base);
	else
		kfree(hw->fence);
	hw->fence = NULL;
}

/**
 * vseg_engine_start() - hand a job to its engine
 * @hw: the job's hardware part, initialized
 *
 * The job's hardware fence gets the next seqno of the engine's timeline:
 * the engine runs its jobs in the order they are handed to it, so its
 * fences signal in seqno order. Called from the scheduler's run_job, in
 * the fence signalling path: allocates nothing.
 *
 * Return: the hardware fence, a new reference.
 */
struct dma_fence *vseg_engine_start(struct vseg_hw_job *hw)
{
	struct vseg_engine *e = hw->engine;
	unsigned long flags;
	u64 seqno;

	spin_lock_irqsave(&e->fence_lock, flags);
	seqno = ++e->seqno;
	spin_unlock_irqrestore(&e->fence_lock, flags);
	dma_fence_init(&hw->fence->base, &vseg_fence_ops, &hw->fence->lock,
		       e->context, seqno);
	hw->start = jiffies;
	hw->started = true;
	atomic64_inc(&e->submitted);
	/* One reference for the job, one for the engine until it signals. */
	dma_fence_get(&hw->fence->base);
	queue_work(e->wq, &hw->work);
	return dma_fence_get(&hw->fence->base);
}

/**
 * vseg_hw_job_fence() - a started job's hardware fence
 * @hw: the job's hardware part
 *
 * Return: the fence (no new reference), or NULL before the engine took it.
 */
struct dma_fence *vseg_hw_job_fence(struct vseg_hw_job *hw)
{
	return hw->started ? &hw->fence->base : NULL;
}

/**
 * vseg_engine_stop_job() - end a job that runs too long
 * @hw: the job's hardware part
 *
 * The engine stops it at its next step (at most VSEG_SIM_STEP bytes
 * later) and its fence signals -ETIME; the engine goes on with the next
 * job. As a hardware engine reset of one context would.
 */
void vseg_engine_stop_job(struct vseg_hw_job *hw)
{
	atomic_set(&hw->stop, 1);
}

static void engine_release(struct drm_device *drm, void *arg)
{
	struct vseg_engine *e = arg;

	destroy_workqueue(e->wq);
}

/**
 * vseg_engine_init() - start the copy, render and paging engines
 * @vdev: the device
 *
 * Torn down with the DRM device (drmm), after their schedulers.
 *
 * Return: 0 or -ENOMEM.
 */
int vseg_engine_init(struct vseg_device *vdev)
{
	u32 i;
	int err;

	for (i = 0; i < VSEG_NUM_ENGINES; i++) {
		struct vseg_engine *e = &vdev->engine[i];

		e->vdev = vdev;
		e->id = i;
		e->name = vseg_engine_names[i];
		e->context = dma_fence_context_alloc(1);
		spin_lock_init(&e->fence_lock);
		e->wq = alloc_ordered_workqueue("vseg-%s", 0, e->name);
		if (!e->wq)
			return -ENOMEM;
		err = drmm_add_action_or_reset(&vdev->drm, engine_release, e);
		if (err)
			return err;
	}
	return 0;
}

/**
 * vseg_engine_flush() - wait until the engines have run what they were given
 * @vdev: the device
 */
void vseg_engine_flush(struct vseg_device *vdev)
{
	u32 i;

	for (i = 0; i < VSEG_NUM_ENGINES; i++)
		flush_workqueue(vdev->engine[i].wq);
}
