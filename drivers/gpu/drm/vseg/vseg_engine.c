// SPDX-License-Identifier: GPL-2.0-only
/*
 * Copyright (c) 2026 The vseg authors
 *
 * The engines of the software GPU, their hardware side: a physically
 * addressed copy engine, a virtually addressed render engine and the
 * paging engine, each an ordered kernel work queue that runs the jobs its
 * scheduler (vseg_sched.c, drm_sched) hands it, one after the other, and
 * signals each job's hardware fence, on the engine's own timeline, in
 * order. What to run comes from the job (vseg_hw_job.exec); the command
 * set of the copy and render engines is here.
 *
 * The engine resolves every address as hardware would: a physical address
 * to its segment by the segments' GPU address ranges, then memory-segment
 * offsets directly, aperture offsets through the GART, virtual addresses
 * through the job's view of the file's address space, and checks a
 * physical job's commands against its allocation list once more. Whatever
 * it cannot resolve ends the job with -EFAULT on its fence. A job the
 * scheduler stops for running too long ends at its next step with -ETIME.
 */

#include <linux/dma-fence.h>
#include <linux/dma-resv.h>
#include <linux/highmem.h>
#include <linux/ktime.h>
#include <linux/sizes.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/workqueue.h>
#include <drm/drm_gem.h>
#include <drm/drm_managed.h>
#include <uapi/drm/vseg_drm.h>

#include "vseg_bo.h"
#include "vseg_client_stats.h"
#include "vseg_device_types.h"
#include "vseg_engine.h"
#include "vseg_gart.h"
#include "vseg_job.h"
#include "vseg_phys.h"
#include "vseg_res_cursor.h"
#include "vseg_trace.h"
#include "vseg_vm.h"
#include "vseg_vpr.h"
#include "vseg_vram_mgr.h"

/*
 * Most bytes a command touches in one step: the engine reschedules between
 * steps, holds the GART lock for one step at most, and notices a request
 * to stop (vseg_engine_stop_job()) between steps.
 */
#define VSEG_ENGINE_STEP	SZ_256K

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

/*
 * Does [addr, addr + len) lie inside one listed allocation? The ranges are
 * sorted and never overlap (two buffers never share segment bytes, two
 * segments never share GPU addresses), so the candidate is the last range
 * that starts at or below the address. An address in no segment (a gap
 * between segments, past a segment's end) is in no listed range.
 */
static const struct vseg_phys_range *phys_range(const struct vseg_cmd_job *job,
						u64 addr)
{
	const struct vseg_phys_range *r = NULL;
	u32 lo = 0, hi = job->num_bos, mid;

	while (lo < hi) {
		mid = lo + (hi - lo) / 2;
		if (job->ranges[mid].start <= addr) {
			r = &job->ranges[mid];
			lo = mid + 1;
		} else {
			hi = mid;
		}
	}
	return r;
}

static bool phys_span_listed(const struct vseg_cmd_job *job, u64 addr, u64 len)
{
	const struct vseg_phys_range *r = phys_range(job, addr);

	return r && addr <= r->last && (!len || len - 1 <= r->last - addr);
}

/**
 * vseg_job_cmd_listed() - does a command stay inside the allocation list
 * @job: a physical job, its ranges recorded and sorted
 * @c: one of its commands, patched
 *
 * The copy engine's security model (WDDM's): a command may touch memory
 * only through its allocation list. Every byte a command reads or writes
 * must lie inside one listed allocation, whatever address it carries.
 *
 * Return: true if it does (a NOP always does).
 */
bool vseg_job_cmd_listed(const struct vseg_cmd_job *job,
			 const struct drm_vseg_cmd *c)
{
	switch (c->opcode) {
	case DRM_VSEG_CMD_FILL:
		return phys_span_listed(job, c->dst, c->size);
	case DRM_VSEG_CMD_COPY:
		return phys_span_listed(job, c->dst, c->size) &&
		       phys_span_listed(job, c->src, c->size);
	case DRM_VSEG_CMD_WRITE:
		return phys_span_listed(job, c->dst, sizeof(u64));
	default:
		return true;
	}
}

/*
 * A GPU address resolved to kernel memory; unmap with ptr_put(). A virtual
 * address keeps its cursor over the mapping across ptr_put(), so that a
 * command walking a scattered buffer goes on from the block it reached
 * instead of walking the blocks from the first for every chunk.
 */
struct vseg_ptr {
	void *kmapped;
	struct vseg_cursor cursor;
	int bo;
};

static void ptr_put(struct vseg_ptr *p)
{
	if (p->kmapped)
		kunmap_local(p->kmapped);
	p->kmapped = NULL;
	vseg_cursor_unmap(&p->cursor);
}

/* The GART of a physical job, held over each step; else NULL. */
static struct vseg_gart *job_gart(const struct vseg_cmd_job *job)
{
	return job->vm ? NULL : &job->base.vdev->aperture.gart;
}

/*
 * Memory segments were backed with pages for the job at submission
 * (vseg_vram_res_populate()): the engine never allocates.
 */
static void *resolve_phys(struct vseg_cmd_job *job, u64 addr, u64 *len,
			  bool write, struct vseg_ptr *p)
{
	struct vseg_device *vdev = job->base.vdev;
	struct vseg_vram_mgr *mgr;
	phys_addr_t phys;
	u64 off;
	u32 id;

	if (!vseg_phys_resolve(vdev, addr, &id, &off))
		return NULL;
	if (vseg_seg_is_memory(vdev, id)) {
		mgr = vseg_vram(vdev, id);
		if (off >= mgr->desc->size)
			return NULL;
		if (write)
			return vseg_vram_map_populated(mgr, off, len,
						       &p->kmapped);
		return vseg_vram_map(mgr, off, len, false, &p->kmapped);
	}
	/* The caller holds the GART lock: the page cannot go. */
	if (vseg_gart_translate_locked(&vdev->aperture.gart, off, &phys))
		return NULL;
	p->kmapped = kmap_local_page(pfn_to_page(PHYS_PFN(phys)));
	*len = PAGE_SIZE - offset_in_page(phys);
	return p->kmapped + offset_in_page(phys);
}

/* The index of a buffer in a job's sorted list, or -1 if it is not there. */
static int job_bo_index(const struct vseg_cmd_job *job,
			const struct drm_gem_object *obj)
{
	u32 lo = 0, hi = job->num_bos, mid;

	while (lo < hi) {
		mid = lo + (hi - lo) / 2;
		if (&job->bos[mid]->tbo.base == obj)
			return mid;
		if ((uintptr_t)&job->bos[mid]->tbo.base < (uintptr_t)obj)
			lo = mid + 1;
		else
			hi = mid;
	}
	return -1;
}

/*
 * Through the address space as it is now; only the buffers fenced for
 * the job are reached, where they were when it was queued. A mapping of
 * anything else, a hole, or a write to a read-only mapping faults.
 */
static void *resolve_virt(struct vseg_cmd_job *job, u64 va, u64 *len,
			  bool write, struct vseg_ptr *p)
{
	struct vseg_vm_target t;
	void *ptr;
	int i;

	if (!vseg_vm_resolve(job->vm, va, &t) || (write && t.readonly))
		return NULL;
	i = job_bo_index(job, t.obj);
	if (i < 0)
		return NULL;
	if (p->bo != i + 1) {
		vseg_cursor_init(&p->cursor, job->base.vdev, job->tt[i],
				 job->res[i]);
		p->cursor.populated = true;
		p->bo = i + 1;
	}
	ptr = vseg_cursor_map(&p->cursor, t.offset, len, write);
	if (ptr)
		*len = min(*len, t.len);
	return ptr;
}

static void *resolve(struct vseg_cmd_job *job, u64 addr, u64 *len, bool write,
		     struct vseg_ptr *p)
{
	return job->vm ? resolve_virt(job, addr, len, write, p) :
			 resolve_phys(job, addr, len, write, p);
}

/*
 * Run one FILL, COPY or WRITE in steps of at most VSEG_ENGINE_STEP bytes,
 * each resolving its addresses anew (under the GART lock for a physical
 * job, dropped between steps).
 */
static int run_cmd(struct vseg_cmd_job *job, const struct drm_vseg_cmd *c)
{
	bool copy = c->opcode == DRM_VSEG_CMD_COPY;
	u64 total = c->opcode == DRM_VSEG_CMD_WRITE ? sizeof(u64) : c->size;
	struct vseg_gart *gart = job_gart(job);
	struct vseg_ptr dp = {}, sp = {};
	u64 done = 0, n = 0, slen = U64_MAX;
	void *d, *s = NULL;
	int err = 0;

	while (done < total && !err) {
		/* Past the time limit: the scheduler wants the engine back. */
		if (vseg_hw_job_stopping(&job->base.hw))
			return -ETIME;
		if (gart)
			vseg_gart_lock(gart);
		d = resolve(job, c->dst + done, &n, true, &dp);
		if (d && copy)
			s = resolve(job, c->src + done, &slen, false, &sp);
		if (!d || (copy && !s)) {
			err = -EFAULT;
		} else {
			n = min3(n, slen, min_t(u64, total - done,
						VSEG_ENGINE_STEP));
			if (copy)
				memcpy(d, s, n);
			else if (c->opcode == DRM_VSEG_CMD_FILL)
				memset32(d, (u32)c->value, n / 4);
			else if (n < sizeof(u64))
				err = -EFAULT;
			else
				*(u64 *)d = c->value;
		}
		ptr_put(&sp);
		ptr_put(&dp);
		if (gart)
			vseg_gart_unlock(gart);
		done += n;
		cond_resched();
	}
	return err;
}

/*
 * Does [va, va + len) of a virtual job's address space reach a buffer
 * that is (@protected) or is not protected? Unmapped holes reach nothing.
 */
static bool obj_protected(struct drm_gem_object *obj, void *arg)
{
	return vseg_bo_is_protected(gem_to_vseg_bo(obj)) == *(bool *)arg;
}

static bool virt_reaches(const struct vseg_cmd_job *job, u64 va, u64 len,
			 bool protected)
{
	return vseg_vm_reaches(job->vm, va, len, obj_protected, &protected);
}

/*
 * A buffer of the job that is not protected, or not inside a VPR where
 * the job found it. One the job may not reach faults anyway.
 */
static bool obj_outside_vpr(struct drm_gem_object *obj, void *arg)
{
	const struct vseg_cmd_job *job = arg;
	int i = job_bo_index(job, obj);

	return i >= 0 && (!vseg_bo_is_protected(job->bos[i]) ||
			  !vseg_vpr_res_inside(job->base.vdev, job->res[i]));
}

/*
 * Protected content stays in protected buffers inside a VPR: a COPY from a
 * protected buffer into one that is not, or into memory outside every
 * VPR, fails before it writes a byte. A physical command lies in one
 * listed allocation each side (checked before).
 */
static bool copy_leaks(const struct vseg_cmd_job *job, const struct drm_vseg_cmd *c)
{
	struct vseg_device *vdev = job->base.vdev;

	if (c->opcode != DRM_VSEG_CMD_COPY || !c->size)
		return false;
	if (job->vm)
		return virt_reaches(job, c->src, c->size, true) &&
		       vseg_vm_reaches(job->vm, c->dst, c->size,
				       obj_outside_vpr, (void *)job);
	return phys_range(job, c->src)->protected &&
	       (!phys_range(job, c->dst)->protected ||
		!vseg_vpr_phys_inside(vdev, c->dst, c->size));
}

/**
 * vseg_engine_run_commands() - run a command job's commands
 * @job: the job, its buffers reachable and fenced (vseg_submit.c)
 *
 * Runs inside the fence signalling path, on the engine's queue: it never
 * allocates, and only takes the GART lock.
 *
 * Return: 0, -EFAULT at the first command that reaches memory it may not
 * (the rest is skipped), or -ETIME when the job was stopped for running
 * past the time limit.
 */
int vseg_engine_run_commands(struct vseg_cmd_job *job)
{
	u32 i;
	int err = 0;

	for (i = 0; i < job->num_cmds && !err; i++) {
		const struct drm_vseg_cmd *c = &job->cmds[i];

		if (c->opcode == DRM_VSEG_CMD_NOP)
			continue;
		/*
		 * Check again that the command stays inside the listed
		 * allocations, where they were when the job was queued (a
		 * move of them since keeps that placement until the job is
		 * done: its operations wait for the job's fence), before it
		 * touches a byte.
		 */
		if (!job->vm && !vseg_job_cmd_listed(job, c))
			err = -EFAULT;
		else if (copy_leaks(job, c))
			err = -EFAULT;
		else
			err = run_cmd(job, c);
	}
	return err;
}

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
 * The engine stops it at its next step (at most VSEG_ENGINE_STEP bytes
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
