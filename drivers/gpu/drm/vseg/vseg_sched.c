// SPDX-License-Identifier: GPL-2.0-only
/*
 * Copyright (c) 2026 The vseg authors
 *
 * Scheduling: DRM's GPU scheduler (drm_sched) in front of each engine.
 *
 * One scheduler per queue: the copy, render and paging engines', and the
 * bind queue's, whose jobs (VM_BIND operations) run on the CPU. Each open
 * file has an entity per user engine and one on the bind queue; the
 * memory manager has one kernel entity on the paging queue, which runs
 * the moves (vseg_paging.c). A job's fence is drm_sched's finished fence,
 * on its entity's timeline: an entity's jobs run, and their fences signal,
 * in the order they were queued, whatever their dependencies, so the
 * seqnos of every fence context vseg hands out signal in increasing order.
 *
 * A job waits, in the scheduler and never in an engine, for its
 * dependencies: the fences of its input syncobjs (explicit) and every
 * fence on its buffers' reservations (implicit: jobs and moves of the
 * same buffers stay ordered). There is no time limit on that wait (a
 * producer may legitimately be slow); there is one on running: a job
 * that runs longer than job_timeout_ms is stopped (drm_sched's timedout
 * handler), its fence signals -ETIME, and the engine goes on with the
 * next job. A job whose input syncobj failed does not run: -ECANCELED.
 *
 * Each scheduler gives its engine one job at a time (a credit limit of
 * one): an engine runs its jobs one after the other anyway, and a stopped
 * job can then never take an innocent one down with it when the scheduler
 * is stopped and restarted around it.
 */

#include <linux/dma-fence.h>
#include <linux/dma-fence-chain.h>
#include <linux/dma-resv.h>
#include <linux/jiffies.h>
#include <linux/moduleparam.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <linux/wait_bit.h>
#include <drm/drm_file.h>
#include <drm/drm_managed.h>

#include "vseg_compat.h"
#include "vseg_device_types.h"
#include "vseg_file.h"
#include "vseg_sched.h"

static unsigned int job_timeout_ms = 5000;
module_param(job_timeout_ms, uint, 0444);
MODULE_PARM_DESC(job_timeout_ms,
		 "Longest a job may run on the copy or render engine before it is stopped with -ETIME, in ms (default 5000; 0: no limit)");

/* Jobs the bind queue runs at once: CPU work, quick. */
#define VSEG_BIND_CREDITS	64

static const char * const vseg_queue_names[VSEG_NUM_QUEUES] = {
	"vseg-copy", "vseg-render", "vseg-paging", "vseg-bind",
};

/**
 * vseg_sched_timeout_ms() - the time limit of a job on a user engine
 *
 * Return: job_timeout_ms, 0 for none.
 */
unsigned int vseg_sched_timeout_ms(void)
{
	return job_timeout_ms;
}

static int sched_hw_exec(struct vseg_hw_job *hw)
{
	struct vseg_job *job = container_of(hw, struct vseg_job, hw);

	return job->ops->run(job);
}

static struct dma_fence *vseg_sched_run_job(struct drm_sched_job *sj)
{
	struct vseg_job *job = to_vseg_job(sj);
	int err;
	u32 i;

	/*
	 * Its dependencies have signalled: did an input fail? The link of a
	 * timeline (a point) carries no error, the fence it holds does.
	 * drm_sched skips a dependency on a job of the same entity: that job
	 * has ended (an engine runs one job at a time, a bind job ends in
	 * run_job), but its fence is signalled just after the engine is
	 * given back, so wait for it, briefly, to read its error.
	 */
	for (i = 0; i < job->num_in; i++) {
		struct dma_fence *in = dma_fence_chain_contained(job->in_fences[i]);

		dma_fence_wait(in, false);
		if (in->error)
			return ERR_PTR(-ECANCELED);
	}
	if (job->queue == VSEG_QUEUE_BIND) {
		err = job->ops->run(job);
		return err ? ERR_PTR(err) : NULL;
	}
	/* The engine's tracepoints name the job by its own fence. */
	job->hw.trace_context = sj->s_fence->finished.context;
	job->hw.trace_seqno = sj->s_fence->finished.seqno;
	return vseg_engine_start(&job->hw);
}

/*
 * A job ran past the time limit: the engine stops it at its next step (its
 * hardware fence signals -ETIME, which drm_sched's callback passes on to
 * the job's fence) and takes the next job.
 *
 * Submission is paused first (drm_sched_wqueue_stop()): once the stopped
 * job's hardware fence signals, drm_sched would otherwise hand the next
 * job to the engine at once, and drm_sched_stop() would then detach that
 * job's callback for drm_sched_start() to cancel and free it while the
 * engine runs it. Paused, the engine holds no job but this one, which
 * drm_sched_stop() puts back and frees once we return (its fence has
 * signalled). The timer may also fire for a job that has just started,
 * the one before it having ended as it fired: that one is not stopped,
 * drm_sched_stop() and drm_sched_start() leave it pending with its
 * callback, and its time limit runs again.
 */
static enum drm_gpu_sched_stat vseg_sched_timedout_job(struct drm_sched_job *sj)
{
	struct vseg_job *job = to_vseg_job(sj);
	struct vseg_sched *vs = container_of(sj->sched, struct vseg_sched, base);
	struct drm_gpu_scheduler *sched = &vs->base;
	struct dma_fence *hw = vseg_hw_job_fence(&job->hw);
	unsigned long limit = msecs_to_jiffies(job_timeout_ms);

	mutex_lock(&vs->pause_lock);
	drm_sched_wqueue_stop(sched);
	if (hw && !dma_fence_is_signaled(hw) &&
	    time_after_eq(jiffies, job->hw.start + limit)) {
		atomic64_inc(&vs->timedout);
		dev_warn_ratelimited(job->vdev->drm.dev,
				     "%s: a job ran longer than %u ms: stopped\n",
				     sched->name, job_timeout_ms);
		vseg_engine_stop_job(&job->hw);
		dma_fence_wait(hw, false);
	}
	drm_sched_stop(sched, sj);
	vseg_drm_sched_start(sched);
	mutex_unlock(&vs->pause_lock);
	return VSEG_DRM_GPU_SCHED_STAT_RESET;
}

static void vseg_sched_free_job(struct drm_sched_job *sj)
{
	struct vseg_job *job = to_vseg_job(sj);
	struct vseg_device *vdev = job->vdev;
	u32 i;

	/*
	 * The job's fence may outlive vseg (on another device's dma-buf,
	 * say): it must not keep the engine's fence, whose operations are
	 * vseg's code, as its parent. The job has ended (or never ran):
	 * nothing reads the parent any more (a deadline is never set on a
	 * signalled fence).
	 */
	if (sj->s_fence)
		dma_fence_put(xchg(&sj->s_fence->parent, NULL));
	drm_sched_job_cleanup(sj);
	vseg_hw_job_fini(&job->hw);
	for (i = 0; i < job->num_in; i++)
		dma_fence_put(job->in_fences[i]);
	kfree(job->in_fences);
	job->ops->free(job);
	/* The last use of @vdev: wake_up_var() only hashes the address. */
	if (atomic_dec_and_test(&vdev->jobs))
		wake_up_var(&vdev->jobs);
}

static const struct drm_sched_backend_ops vseg_sched_ops = {
	.run_job = vseg_sched_run_job,
	.timedout_job = vseg_sched_timedout_job,
	.free_job = vseg_sched_free_job,
};

static void sched_release(struct drm_device *drm, void *arg)
{
	struct vseg_sched *vs = arg;

	/*
	 * Jobs of closed files that were cancelled while waiting for their
	 * dependencies are freed when those signal: the scheduler (and the
	 * device) must outlive them.
	 */
	wait_var_event(&vs->vdev->jobs, !atomic_read(&vs->vdev->jobs));
	drm_sched_fini(&vs->base);
	mutex_destroy(&vs->pause_lock);
}

/**
 * vseg_sched_init() - a scheduler for each queue
 * @vdev: the device, its engines started
 *
 * Torn down with the DRM device (drmm), before the engines.
 *
 * Return: 0 or a negative error code.
 */
int vseg_sched_init(struct vseg_device *vdev)
{
	u32 i;
	int err;

	init_waitqueue_head(&vdev->job_room);
	for (i = 0; i < VSEG_NUM_QUEUES; i++) {
		struct vseg_sched *vs = &vdev->sched[i];
		long timeout = MAX_SCHEDULE_TIMEOUT;
		u32 credits = 1;

		vs->vdev = vdev;
		vs->id = i;
		mutex_init(&vs->pause_lock);
		/* Moves and binds are the kernel's: bounded, never stopped. */
		if ((i == VSEG_QUEUE_COPY || i == VSEG_QUEUE_RENDER) &&
		    job_timeout_ms)
			timeout = msecs_to_jiffies(job_timeout_ms);
		if (i == VSEG_QUEUE_BIND)
			credits = VSEG_BIND_CREDITS;
		err = vseg_drm_sched_init(&vs->base, &vseg_sched_ops, credits,
					  timeout, vseg_queue_names[i],
					  vdev->drm.dev);
		if (err)
			return err;
		err = drmm_add_action_or_reset(&vdev->drm, sched_release, vs);
		if (err)
			return err;
	}
	return 0;
}

/**
 * vseg_sched_unplug() - the device is going: let queued jobs end
 * @vdev: the device, unplugged (no new job can be queued)
 *
 * Waits, for each open file, for the last job it queued on each engine
 * (and so for all of them: an entity's jobs end in order), up to the time
 * limit plus ten seconds for the jobs still waiting for their inputs;
 * then for the engines to finish what they run.
 */
void vseg_sched_unplug(struct vseg_device *vdev)
{
	long left = msecs_to_jiffies(job_timeout_ms) + 10 * HZ;
	struct drm_file *file;
	u32 i;

	mutex_lock(&vdev->drm.filelist_mutex);
	list_for_each_entry(file, &vdev->drm.filelist, lhead) {
		struct vseg_file *vf = file->driver_priv;
		struct dma_fence *f;

		for (i = 0; vf && i < VSEG_NUM_USER_ENGINES && left > 0; i++) {
			mutex_lock(&vf->push_lock);
			f = dma_fence_get(vf->last[i]);
			mutex_unlock(&vf->push_lock);
			if (f)
				left = dma_fence_wait_timeout(f, false, left) ?: -1;
			dma_fence_put(f);
		}
	}
	mutex_unlock(&vdev->drm.filelist_mutex);
	vseg_engine_flush(vdev);
}

/**
 * vseg_sched_show() - the queues and engines, for debugfs
 * @vdev: the device
 * @m: the file
 *
 * One line per queue: its scheduler's name, the jobs on its engine now
 * (its credits in use), the time limit, and for the queues of an engine
 * the jobs the engine ran, those that failed and those stopped at the
 * time limit.
 */
void vseg_sched_show(struct vseg_device *vdev, struct seq_file *m)
{
	u32 i;

	for (i = 0; i < VSEG_NUM_QUEUES; i++) {
		struct vseg_sched *vs = &vdev->sched[i];
		long t = vs->base.timeout;

		seq_printf(m, "queue %u name=%s on_engine=%d credit_limit=%u timeout_ms=%u",
			   i, vs->base.name, atomic_read(&vs->base.credit_count),
			   vs->base.credit_limit,
			   t == MAX_SCHEDULE_TIMEOUT ? 0 : jiffies_to_msecs(t));
		if (i < VSEG_NUM_ENGINES)
			seq_printf(m, " jobs=%llu failed=%llu timedout=%llu",
				   (u64)atomic64_read(&vdev->engine[i].submitted),
				   (u64)atomic64_read(&vdev->engine[i].failed),
				   (u64)atomic64_read(&vs->timedout));
		seq_putc(m, '\n');
	}
}

/**
 * vseg_sched_entity_init() - an entity on one queue
 * @vdev: the device
 * @entity: the entity
 * @queue: VSEG_QUEUE_*
 * @prio: DRM_SCHED_PRIORITY_NORMAL for a file's, _KERNEL for the
 *	memory manager's
 *
 * End it with vseg_sched_entity_fini(): jobs still queued then are
 * cancelled (their fences signal -ESRCH once their dependencies have).
 *
 * Return: 0 or a negative error code.
 */
int vseg_sched_entity_init(struct vseg_device *vdev,
			   struct drm_sched_entity *entity, u32 queue,
			   enum drm_sched_priority prio)
{
	struct drm_gpu_scheduler *sched = &vdev->sched[queue].base;

	return drm_sched_entity_init(entity, prio, &sched, 1, NULL);
}

/**
 * vseg_sched_entity_fini() - end an entity that may have jobs queued
 * @entity: an entity of vseg_sched_entity_init()
 *
 * Its jobs still queued are cancelled (drm_sched_entity_fini()), with the
 * queue's submission paused meanwhile. drm_sched_entity_fini() takes the
 * entity out of its run queue, but a run_job work popping one of the
 * entity's jobs at that moment puts it back in the run queue's tree
 * (drm_sched_rq_pop_entity() does not look at entity->stopped): the
 * entity would be freed while the scheduler can still reach it (KASAN saw
 * it on 7.3 when a process exited with jobs queued). With submission
 * paused, no run_job work runs; a job timeout waits (pause_lock).
 */
void vseg_sched_entity_fini(struct drm_sched_entity *entity)
{
	struct vseg_sched *vs = container_of(entity->rq->sched,
					     struct vseg_sched, base);

	mutex_lock(&vs->pause_lock);
	drm_sched_wqueue_stop(&vs->base);
	drm_sched_entity_fini(entity);
	drm_sched_wqueue_start(&vs->base);
	mutex_unlock(&vs->pause_lock);
}

/**
 * vseg_job_init() - start building a job
 * @job: the job, zeroed, inside its kind's structure
 * @vdev: the device
 * @ops: its kind
 * @entity: the entity it goes to
 * @queue: the entity's queue (VSEG_QUEUE_*)
 * @client_id: the DRM client id of the file it is for, 0 for the kernel
 * @owner: the file's private data, or NULL
 *
 * Then add its dependencies, vseg_job_arm() and vseg_job_push(); or give
 * it up before arming with vseg_job_abandon().
 *
 * Return: 0 or -ENOMEM.
 */
int vseg_job_init(struct vseg_job *job, struct vseg_device *vdev,
		  const struct vseg_job_ops *ops,
		  struct drm_sched_entity *entity, u32 queue, u64 client_id,
		  void *owner)
{
	int err;

	job->vdev = vdev;
	job->ops = ops;
	job->queue = queue;
	if (queue != VSEG_QUEUE_BIND) {
		err = vseg_hw_job_init(&job->hw, &vdev->engine[queue],
				       sched_hw_exec);
		if (err)
			return err;
	}
	err = vseg_drm_sched_job_init(&job->base, entity, 1, owner, client_id);
	if (err) {
		vseg_hw_job_fini(&job->hw);
		return err;
	}
	atomic_inc(&vdev->jobs);
	return 0;
}

/**
 * vseg_job_add_in_fence() - wait for an input syncobj's fence
 * @job: the job, not armed
 * @fence: the fence (the caller's reference is not taken)
 *
 * If the fence signals with an error, the job does not run: its fence
 * signals -ECANCELED.
 *
 * Return: 0 or -ENOMEM.
 */
int vseg_job_add_in_fence(struct vseg_job *job, struct dma_fence *fence)
{
	struct dma_fence **in;
	int err;

	in = krealloc_array(job->in_fences, job->num_in + 1, sizeof(*in),
			    GFP_KERNEL_ACCOUNT);
	if (!in)
		return -ENOMEM;
	job->in_fences = in;
	err = drm_sched_job_add_dependency(&job->base, dma_fence_get(fence));
	if (err)
		return err;
	in[job->num_in++] = dma_fence_get(fence);
	return 0;
}

/**
 * vseg_job_add_resv_deps() - wait for every fence of a reservation
 * @job: the job, not armed
 * @resv: a buffer's reservation, locked
 *
 * Implicit synchronization: the job runs after every job and move
 * already using the buffer.
 *
 * Return: 0 or -ENOMEM.
 */
int vseg_job_add_resv_deps(struct vseg_job *job, struct dma_resv *resv)
{
	return drm_sched_job_add_resv_dependencies(&job->base, resv,
						   DMA_RESV_USAGE_BOOKKEEP);
}

/**
 * vseg_job_arm() - give a job its fence
 * @job: the job with its dependencies
 *
 * From here on the job must be pushed (vseg_job_push()), in the order
 * jobs of its entity were armed: the caller serializes arm and push per
 * entity.
 *
 * Return: the job's fence (no new reference).
 */
struct dma_fence *vseg_job_arm(struct vseg_job *job)
{
	struct dma_fence *fence;

	drm_sched_job_arm(&job->base);
	fence = &job->base.s_fence->finished;
	/*
	 * A later job of the same scheduler that waits for this one would
	 * by default wait only until this one is scheduled: the ring keeps
	 * them in order. But vseg_sched_run_job() reads its inputs' errors,
	 * and drm_sched gives the engine's credit back before it sets this
	 * fence's error and signals it: the later job could then run on an
	 * input that is about to fail. Make it wait for this fence itself.
	 */
	set_bit(DRM_SCHED_FENCE_DONT_PIPELINE, &fence->flags);
	return fence;
}

/**
 * vseg_job_push() - queue an armed job on its entity
 * @job: the job; the scheduler owns it from now on
 */
void vseg_job_push(struct vseg_job *job)
{
	drm_sched_entity_push_job(&job->base);
}

/**
 * vseg_job_abandon() - give up a job that was never armed
 * @job: the job (vseg_job_init() succeeded); freed through its ops
 */
void vseg_job_abandon(struct vseg_job *job)
{
	vseg_sched_free_job(&job->base);
}
