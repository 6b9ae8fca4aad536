// SPDX-License-Identifier: GPL-2.0-only
/*
 * Copyright (c) 2026 The vseg authors
 *
 * The engines of the software GPU: a physically addressed copy engine and
 * a virtually addressed render engine, each an ordered kernel work queue.
 *
 * A job built by submission (vseg_submit.c) first waits, outside the
 * engine, for its dependencies (vseg_job_arm()); once ready it is queued.
 * The worker then resolves every address as hardware would: a physical
 * address to its segment by the segments' GPU address ranges, then
 * memory-segment offsets directly, aperture offsets through the GART,
 * virtual addresses
 * through the job's view of the file's address space, and checks a
 * physical job's commands against its allocation list once more. Whatever
 * it cannot resolve ends the job with -EFAULT on its fence.
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

static void vseg_job_run(struct work_struct *work);
static void job_timeout(struct work_struct *work);

/* How long a job waits for its input syncobjs before it fails. */
#define VSEG_JOB_TIMEOUT	(10 * HZ)
/*
 * Most bytes a command touches in one step: the engine reschedules between
 * steps, and holds the GART lock for one step at most.
 */
#define VSEG_ENGINE_STEP	SZ_256K

/* A job's fence; it may outlive the engine, so it has its own lock. */
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
static const struct vseg_phys_range *phys_range(const struct vseg_job *job,
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

static bool phys_span_listed(const struct vseg_job *job, u64 addr, u64 len)
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
bool vseg_job_cmd_listed(const struct vseg_job *job,
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

/* Are the listed buffers still where the job's ranges say they are? */
static bool phys_bos_in_place(const struct vseg_job *job)
{
	u32 i;

	for (i = 0; i < job->num_bos; i++)
		if (READ_ONCE(job->bos[i]->tbo.resource) != job->res[i])
			return false;
	return true;
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
	const struct vseg_vm_mapping *map;
};

static void ptr_put(struct vseg_ptr *p)
{
	if (p->kmapped)
		kunmap_local(p->kmapped);
	p->kmapped = NULL;
	vseg_cursor_unmap(&p->cursor);
}

/* The GART of a physical job, held over each step; else NULL. */
static struct vseg_gart *job_gart(const struct vseg_job *job)
{
	return job->view ? NULL : &job->engine->vdev->aperture.gart;
}

/*
 * Memory segments were backed with pages for the job at submission
 * (vseg_vram_res_populate()): the engine never allocates.
 */
static void *resolve_phys(struct vseg_job *job, u64 addr, u64 *len,
			  bool write, struct vseg_ptr *p)
{
	struct vseg_device *vdev = job->engine->vdev;
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

static void *resolve_virt(struct vseg_job *job, u64 va, u64 *len,
			  bool write, struct vseg_ptr *p)
{
	const struct vseg_vm_mapping *m = vseg_vm_view_find(job->view, va);
	unsigned int i;
	void *ptr;
	u64 off;

	if (!m)
		return NULL;
	i = m - job->view->map;
	off = va - m->va;
	if (p->map != m) {
		vseg_cursor_init(&p->cursor, job->engine->vdev, m->bo->tbo.ttm,
				 job->map_res[i]);
		p->cursor.populated = true;
		p->map = m;
	}
	ptr = vseg_cursor_map(&p->cursor, off, len, write);
	if (ptr)
		*len = min(*len, m->size - off);
	return ptr;
}

static void *resolve(struct vseg_job *job, u64 addr, u64 *len, bool write,
		     struct vseg_ptr *p)
{
	return job->view ? resolve_virt(job, addr, len, write, p) :
			   resolve_phys(job, addr, len, write, p);
}

/*
 * Run one FILL, COPY or WRITE in steps of at most VSEG_ENGINE_STEP bytes,
 * each resolving its addresses anew (under the GART lock for a physical
 * job, dropped between steps).
 */
static int run_cmd(struct vseg_job *job, const struct drm_vseg_cmd *c)
{
	bool copy = c->opcode == DRM_VSEG_CMD_COPY;
	u64 total = c->opcode == DRM_VSEG_CMD_WRITE ? sizeof(u64) : c->size;
	struct vseg_gart *gart = job_gart(job);
	struct vseg_ptr dp = {}, sp = {};
	u64 done = 0, n = 0, slen = U64_MAX;
	void *d, *s = NULL;
	int err = 0;

	while (done < total && !err) {
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
static bool virt_reaches(const struct vseg_job *job, u64 va, u64 len,
			 bool protected)
{
	const struct vseg_vm_mapping *m;
	u64 last = va + (len - 1), m_last;

	if (last < va)
		last = U64_MAX;	/* runs off the end: as far as it goes */
	for (;;) {
		m = vseg_vm_view_find(job->view, va);
		if (!m)
			return false;
		if (vseg_bo_is_protected(m->bo) == protected)
			return true;
		m_last = m->va + (m->size - 1);
		if (m_last >= last)
			return false;
		va = m_last + 1;
	}
}

/*
 * Protected content stays in protected buffers inside a VPR: a COPY from a
 * protected buffer into one that is not, or into memory outside every
 * VPR, fails before it writes a byte. A physical command lies in one
 * listed allocation each side (checked before).
 */
static bool copy_leaks(const struct vseg_job *job, const struct drm_vseg_cmd *c)
{
	struct vseg_device *vdev = job->engine->vdev;

	if (c->opcode != DRM_VSEG_CMD_COPY || !c->size)
		return false;
	if (job->view)
		return virt_reaches(job, c->src, c->size, true) &&
		       !vseg_vpr_view_inside(vdev, job->view, job->map_res,
					     c->dst, c->size);
	return phys_range(job, c->src)->protected &&
	       (!phys_range(job, c->dst)->protected ||
		!vseg_vpr_phys_inside(vdev, c->dst, c->size));
}

static int run_commands(struct vseg_job *job)
{
	u32 i;
	int err = 0;

	for (i = 0; i < job->num_cmds && !err; i++) {
		const struct drm_vseg_cmd *c = &job->cmds[i];

		if (c->opcode == DRM_VSEG_CMD_NOP)
			continue;
		/*
		 * Placements are final only now: check again that the
		 * command stays inside the listed allocations, where they
		 * are, before it touches a byte.
		 */
		if (!job->view && (!phys_bos_in_place(job) ||
				   !vseg_job_cmd_listed(job, c)))
			err = -EFAULT;
		else if (copy_leaks(job, c))
			err = -EFAULT;
		else
			err = run_cmd(job, c);
	}
	return err;
}

/**
 * vseg_job_alloc() - an empty job for an engine
 * @e: the engine
 *
 * Return: the job, or NULL without memory.
 */
struct vseg_job *vseg_job_alloc(struct vseg_engine *e)
{
	struct vseg_job *job = kzalloc(sizeof(*job), GFP_KERNEL);

	if (!job)
		return NULL;
	INIT_WORK(&job->work, vseg_job_run);
	INIT_DELAYED_WORK(&job->timeout, job_timeout);
	INIT_LIST_HEAD(&job->link);
	job->engine = e;
	return job;
}

/**
 * vseg_job_free() - drop everything a job holds
 * @job: the job, finished or never queued
 */
void vseg_job_free(struct vseg_job *job)
{
	u32 i;

	for (i = 0; i < job->num_deps; i++)
		dma_fence_put(job->deps[i].fence);
	kvfree(job->deps);
	for (i = 0; i < job->num_bos; i++)
		drm_gem_object_put(&job->bos[i]->tbo.base);
	kvfree(job->bos);
	kvfree(job->objs);
	kvfree(job->res);
	kvfree(job->ranges);
	kvfree(job->map_res);
	vseg_vm_view_put(job->view);
	vseg_client_stats_put(job->stats);
	kvfree(job->cmds);
	if (job->fence)
		dma_fence_put(job->fence);
	kfree(job);
}

/*
 * The dependencies are done with (or given up on): stop listening to them
 * and say why the job must not run, if it must not.
 */
static int job_deps_release(struct vseg_job *job)
{
	int err = 0;
	u32 i;

	cancel_delayed_work_sync(&job->timeout);
	for (i = 0; i < job->num_deps; i++) {
		struct vseg_job_dep *d = &job->deps[i];

		/* After this no callback of ours runs any more. */
		dma_fence_remove_callback(d->fence, &d->cb);
		if (!dma_fence_is_signaled(d->fence))
			err = err ?: -ETIMEDOUT;	/* given up on */
		else if (d->explicit && d->fence->error)
			err = -ECANCELED;
	}
	if (test_bit(VSEG_JOB_CANCELLED, &job->flags))
		err = -ENODEV;
	return err;
}

static void vseg_job_run(struct work_struct *work)
{
	struct vseg_job *job = container_of(work, struct vseg_job, work);
	u64 start;
	bool cookie;
	int err;

	err = job_deps_release(job);
	/* From here on the job only completes: the fence signalling path. */
	cookie = dma_fence_begin_signalling();
	trace_vseg_job_run(job->engine->id, job->fence->context,
			   job->fence->seqno, err);
	if (!err) {
		start = ktime_get_ns();
		err = run_commands(job);
		vseg_client_stats_add(job->stats, job->engine->id,
				      ktime_get_ns() - start);
	}
	if (err) {
		dma_fence_set_error(job->fence, err);
		atomic64_inc(&job->engine->failed);
	}
	dma_fence_signal(job->fence);
	trace_vseg_job_done(job->engine->id, job->fence->context,
			    job->fence->seqno, err);
	dma_fence_end_signalling(cookie);
	vseg_job_free(job);
}

/* Hand a job to its engine, once: when ready, timed out or cancelled. */
static void job_queue(struct vseg_job *job)
{
	struct vseg_engine *e = job->engine;
	unsigned long flags;

	if (test_and_set_bit(VSEG_JOB_QUEUED, &job->flags))
		return;
	spin_lock_irqsave(&e->lock, flags);
	list_del_init(&job->link);
	spin_unlock_irqrestore(&e->lock, flags);
	queue_work(e->wq, &job->work);
}

/* Fence callbacks may run in interrupt context: count, maybe queue. */
static void job_dep_signalled(struct dma_fence *f, struct dma_fence_cb *cb)
{
	struct vseg_job_dep *d = container_of(cb, struct vseg_job_dep, cb);

	if (atomic_dec_and_test(&d->job->pending))
		job_queue(d->job);
}

/*
 * The input syncobjs took too long: stop waiting for them (the job will
 * fail with -ETIMEDOUT), but not for the implicit dependencies, which are
 * vseg's own jobs and moves and always end: the order stays.
 */
static void job_timeout(struct work_struct *work)
{
	struct vseg_job *job = container_of(to_delayed_work(work),
					    struct vseg_job, timeout);
	u32 i;

	for (i = 0; i < job->num_deps; i++) {
		struct vseg_job_dep *d = &job->deps[i];

		if (d->explicit && dma_fence_remove_callback(d->fence, &d->cb) &&
		    atomic_dec_and_test(&job->pending))
			job_queue(job);
	}
}

/**
 * vseg_job_arm() - queue a job once its dependencies have signalled
 * @job: a job with its fence and dependencies
 *
 * The wait happens outside the engine: a job whose input fences are slow
 * (or never signal) does not hold up other files' jobs. It is queued when
 * the last one signals, or after VSEG_JOB_TIMEOUT for its input syncobjs.
 */
void vseg_job_arm(struct vseg_job *job)
{
	struct vseg_engine *e = job->engine;
	unsigned long flags;
	u32 i;

	atomic_set(&job->pending, job->num_deps + 1);
	spin_lock_irqsave(&e->lock, flags);
	list_add_tail(&job->link, &e->waiting);
	spin_unlock_irqrestore(&e->lock, flags);
	for (i = 0; i < job->num_deps; i++) {
		struct vseg_job_dep *d = &job->deps[i];

		d->job = job;
		if (dma_fence_add_callback(d->fence, &d->cb, job_dep_signalled))
			atomic_dec(&job->pending);	/* already signalled */
	}
	if (job->num_deps)
		schedule_delayed_work(&job->timeout, VSEG_JOB_TIMEOUT);
	if (atomic_dec_and_test(&job->pending))
		job_queue(job);
}

/**
 * vseg_engine_fence_create() - the next fence of an engine's timeline
 * @e: the engine; its work queue signals its fences in order
 *
 * Return: the fence (one reference), or NULL without memory.
 */
struct dma_fence *vseg_engine_fence_create(struct vseg_engine *e)
{
	struct vseg_fence *vf;
	unsigned long flags;
	u64 seqno;

	vf = kzalloc(sizeof(*vf), GFP_KERNEL);
	if (!vf)
		return NULL;
	spin_lock_init(&vf->lock);
	vf->engine = e->id;
	spin_lock_irqsave(&e->fence_lock, flags);
	seqno = ++e->seqno;
	spin_unlock_irqrestore(&e->fence_lock, flags);
	dma_fence_init(&vf->base, &vseg_fence_ops, &vf->lock, e->context,
		       seqno);
	atomic64_inc(&e->submitted);
	return &vf->base;
}

/**
 * vseg_job_fence_init() - give a job its completion fence
 * @job: the job
 *
 * Return: 0 or -ENOMEM.
 */
int vseg_job_fence_init(struct vseg_job *job)
{
	job->fence = vseg_engine_fence_create(job->engine);
	return job->fence ? 0 : -ENOMEM;
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
 * Torn down with the DRM device (drmm): every queued job runs first.
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
		spin_lock_init(&e->lock);
		INIT_LIST_HEAD(&e->waiting);
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
 * vseg_engine_drain() - run every queued job to its end
 * @vdev: the device, unplugged: no new job can be queued
 *
 * Jobs still waiting for their dependencies end at once with -ENODEV.
 */
void vseg_engine_drain(struct vseg_device *vdev)
{
	struct vseg_job *job;
	unsigned long flags;
	u32 i;

	for (i = 0; i < VSEG_NUM_ENGINES; i++) {
		struct vseg_engine *e = &vdev->engine[i];

		/* Jobs still waiting for dependencies run now, failed. */
		spin_lock_irqsave(&e->lock, flags);
		while (!list_empty(&e->waiting)) {
			job = list_first_entry(&e->waiting, struct vseg_job,
					       link);
			list_del_init(&job->link);
			set_bit(VSEG_JOB_CANCELLED, &job->flags);
			if (!test_and_set_bit(VSEG_JOB_QUEUED, &job->flags))
				queue_work(e->wq, &job->work);
		}
		spin_unlock_irqrestore(&e->lock, flags);
		drain_workqueue(e->wq);
	}
}
