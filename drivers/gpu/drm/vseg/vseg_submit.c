// SPDX-License-Identifier: GPL-2.0-only
/*
 * Copyright (c) 2026 The vseg authors
 *
 * Submission: a checked submission (vseg_ioctl.c) becomes a job. Every
 * buffer the job may touch is locked (vseg_exec_lock()) and made reachable
 * the way its engine addresses memory (physical: contiguous in a memory
 * segment or mapped into the aperture; virtual: pages present), physical
 * addresses are patched into the command buffer and every command is
 * checked against the allocation list; the job's fence goes on each
 * buffer, so that TTM moves, eviction and CPU faults wait for it; then the
 * job waits for its dependencies (vseg_job_arm()).
 */

#include <linux/dma-fence.h>
#include <linux/dma-resv.h>
#include <linux/slab.h>
#include <linux/sort.h>
#include <drm/drm_gem.h>
#include <uapi/drm/vseg_drm.h>

#include "vseg_bo.h"
#include "vseg_client_stats.h"
#include "vseg_compat.h"
#include "vseg_device_types.h"
#include "vseg_engine.h"
#include "vseg_exec.h"
#include "vseg_job.h"
#include "vseg_phys.h"
#include "vseg_trace.h"
#include "vseg_vm.h"
#include "vseg_vram_mgr.h"

static int job_add_dep(struct vseg_job *job, struct dma_fence *f,
		       bool explicit, u32 cap)
{
	if (dma_fence_is_signaled(f) && !explicit)
		return 0;
	if (job->num_deps >= cap)
		return -ENOMEM;
	job->deps[job->num_deps].fence = dma_fence_get(f);
	job->deps[job->num_deps].explicit = explicit;
	job->num_deps++;
	return 0;
}

/*
 * A job depends on its input syncobjs, on the file's previous job on the
 * engine (jobs of one file run in order) and, implicitly, on every fence
 * already on its buffers' reservations, so that jobs on a shared buffer,
 * and moves, stay ordered. Called with the buffers locked, before the
 * job's own fence is added to them.
 */
static int job_collect_deps(struct vseg_job *job, struct vseg_submit *s)
{
	struct dma_resv_iter cursor;
	struct dma_fence *f;
	u32 i, cap = s->num_in + 1;
	int err = 0;

	for (i = 0; i < job->num_bos; i++)
		dma_resv_for_each_fence(&cursor, job->bos[i]->tbo.base.resv,
					DMA_RESV_USAGE_BOOKKEEP, f)
			cap++;
	job->deps = kvcalloc(cap, sizeof(*job->deps), GFP_KERNEL_ACCOUNT);
	if (!job->deps)
		return -ENOMEM;
	for (i = 0; i < s->num_in && !err; i++)
		err = job_add_dep(job, s->in_fences[i], true, cap);
	if (s->after && !err)
		err = job_add_dep(job, s->after, false, cap);
	for (i = 0; i < job->num_bos && !err; i++)
		dma_resv_for_each_fence(&cursor, job->bos[i]->tbo.base.resv,
					DMA_RESV_USAGE_BOOKKEEP, f) {
			err = job_add_dep(job, f, false, cap);
			if (err)
				break;
		}
	return err;
}

static int ptr_cmp(const void *a, const void *b)
{
	uintptr_t x = (uintptr_t)*(void * const *)a;
	uintptr_t y = (uintptr_t)*(void * const *)b;

	return x < y ? -1 : x > y;
}

/* The distinct buffers of a job, each with one new reference. */
static int collect_bos(struct vseg_job *job, struct vseg_submit *s)
{
	u32 n = job->view ? job->view->count : s->num_bos, i;

	job->bos = kvcalloc(n, sizeof(*job->bos), GFP_KERNEL_ACCOUNT);
	job->objs = kvcalloc(n, sizeof(*job->objs), GFP_KERNEL_ACCOUNT);
	job->res = kvcalloc(n, sizeof(*job->res), GFP_KERNEL_ACCOUNT);
	if (job->view)
		job->map_res = kvcalloc(n, sizeof(*job->map_res), GFP_KERNEL_ACCOUNT);
	else
		job->ranges = kvcalloc(n, sizeof(*job->ranges), GFP_KERNEL_ACCOUNT);
	if (n && (!job->bos || !job->objs || !job->res ||
		  (!job->map_res && !job->ranges)))
		return -ENOMEM;
	for (i = 0; i < n; i++)
		job->bos[i] = job->view ? job->view->map[i].bo : s->bos[i];
	/* Sorted, duplicates are neighbours: O(n log n) for n mappings. */
	sort(job->bos, n, sizeof(*job->bos), ptr_cmp, NULL);
	for (i = 0; i < n; i++) {
		if (job->num_bos && job->bos[job->num_bos - 1] == job->bos[i])
			continue;
		job->bos[job->num_bos++] = job->bos[i];
	}
	for (i = 0; i < job->num_bos; i++) {
		job->objs[i] = &job->bos[i]->tbo.base;
		drm_gem_object_get(job->objs[i]);
	}
	return 0;
}

/*
 * Make a buffer reachable the way the engine addresses memory: physically
 * (contiguous in a memory segment, or mapped into the aperture), or
 * virtually, where a buffer in system memory is first committed to the
 * aperture, as WDDM's memory manager does for the GPU's use of system
 * memory. Segment memory is backed with pages now: the engine cannot
 * allocate while it runs.
 */
static int prepare_bo(struct vseg_job *job, struct vseg_bo *bo)
{
	struct ttm_operation_ctx ctx = { .interruptible = true };
	struct ttm_buffer_object *tbo = &bo->tbo;
	int err;

	if (!tbo->resource)
		return -EINVAL;
	bo->move_reason = VSEG_MOVE_SUBMISSION;
	if (job->engine->id == VSEG_ENGINE_COPY)
		err = vseg_bo_make_reachable(bo, false, &ctx);
	else
		err = vseg_bo_commit_for_gpu(bo, &ctx);
	if (!err && tbo->resource->mem_type != TTM_PL_SYSTEM &&
	    tbo->resource->mem_type != TTM_PL_TT)
		err = vseg_vram_res_populate(tbo->resource, 0);
	if (!err)
		err = dma_resv_reserve_fences(tbo->base.resv, 1);
	return err;
}

static int prepare_bos(struct vseg_job *job)
{
	u32 i;
	int err;

	for (i = 0; i < job->num_bos; i++) {
		err = prepare_bo(job, job->bos[i]);
		if (err)
			return err;
	}
	return 0;
}

static int range_cmp(const void *a, const void *b)
{
	const struct vseg_phys_range *x = a, *y = b;

	if (x->start != y->start)
		return x->start < y->start ? -1 : 1;
	return 0;
}

/*
 * Record where the listed buffers are, as GPU physical address ranges, and
 * check the commands against them.
 */
static int phys_check(struct vseg_job *job, struct vseg_submit *s)
{
	struct vseg_device *vdev = job->engine->vdev;
	u32 i, seg;
	u64 off;

	for (i = 0; i < job->num_bos; i++) {
		struct vseg_phys_range *r = &job->ranges[i];

		if (!vseg_bo_phys_addr(job->bos[i], &seg, &off))
			return -EINVAL;
		r->start = vseg_phys_base(vdev, seg) + off;
		r->last = r->start + (job->bos[i]->tbo.base.size - 1);
		r->protected = vseg_bo_is_protected(job->bos[i]);
	}
	sort(job->ranges, job->num_bos, sizeof(*job->ranges), range_cmp,
	     NULL);
	for (i = 0; i < s->num_cmds; i++)
		if (!vseg_job_cmd_listed(job, &s->cmds[i]))
			return -EINVAL;
	return 0;
}

/* A patched destination keeps the alignment its opcode needs. */
static bool patched_dst_aligned(const struct drm_vseg_cmd *c)
{
	switch (c->opcode) {
	case DRM_VSEG_CMD_FILL:
		return IS_ALIGNED(c->dst, 4);
	case DRM_VSEG_CMD_WRITE:
		return IS_ALIGNED(c->dst, 8);
	default:
		return true;
	}
}

/* Each patch location gets its segment's base address + offset. */
static int apply_patches(struct vseg_device *vdev, struct vseg_submit *s)
{
	u32 i;

	for (i = 0; i < s->num_patches; i++) {
		const struct drm_vseg_patch *pt = &s->patches[i];
		u64 *slot = (u64 *)((u8 *)s->cmds + pt->patch_offset);
		u32 seg;
		u64 off;

		if (!vseg_bo_phys_addr(s->bos[pt->allocation_index], &seg, &off))
			return -EINVAL;
		*slot = vseg_phys_base(vdev, seg) + off + pt->allocation_offset;
		if (!patched_dst_aligned(&s->cmds[pt->patch_offset /
						  sizeof(*s->cmds)]))
			return -EINVAL;
	}
	return 0;
}

/**
 * vseg_submit_release() - free what a submission holds
 * @s: the submission; its arrays and references are dropped
 */
void vseg_submit_release(struct vseg_submit *s)
{
	u32 i;

	for (i = 0; i < s->num_bos; i++)
		if (s->bos[i])
			drm_gem_object_put(&s->bos[i]->tbo.base);
	kvfree(s->bos);
	kvfree(s->patches);
	for (i = 0; i < s->num_in; i++)
		if (s->in_fences[i])
			dma_fence_put(s->in_fences[i]);
	kvfree(s->in_fences);
	if (s->after)
		dma_fence_put(s->after);
	kvfree(s->cmds);
	memset(s, 0, sizeof(*s));
}

/*
 * Lock the job's buffers and make them reachable. No room may be because
 * others hold the buffers to evict, or wait for ours: the transaction is
 * left before trying again, as the wound-wait protocol requires.
 */
static int job_lock_prepare(struct vseg_job *job, struct vseg_submit *s,
			    struct vseg_exec *exec)
{
	struct vseg_exec_events *ev = &job->engine->vdev->exec_events;
	unsigned int tries;
	int err, ended;

	for (tries = 0;; tries++) {
		err = vseg_exec_lock(exec, ev, job->objs, job->num_bos);
		if (err)
			return err;
		/* Making room may lock other buffers with the same ticket. */
		err = prepare_bos(job);
		if (!err)
			err = apply_patches(job->engine->vdev, s);
		if (!err && !job->view)
			err = phys_check(job, s);
		if (!err)
			err = job_collect_deps(job, s);
		if (!err)
			return 0;
		ended = vseg_exec_fini(exec);
		if (err != -ENOSPC || tries >= VSEG_EVICT_RETRIES)
			return err;
		vseg_exec_backoff(ev, ended);
	}
}

/* The job's fence goes on every buffer; the CPU's next access waits. */
static void job_publish(struct vseg_job *job)
{
	u32 i;

	if (job->view)
		for (i = 0; i < job->view->count; i++)
			job->map_res[i] = job->view->map[i].bo->tbo.resource;
	for (i = 0; i < job->num_bos; i++) {
		struct ttm_buffer_object *tbo = &job->bos[i]->tbo;

		job->res[i] = tbo->resource;
		dma_resv_add_fence(tbo->base.resv, job->fence,
				   DMA_RESV_USAGE_WRITE);
		ttm_bo_unmap_virtual(tbo);
	}
}

/*
 * The mappings a render job's commands reach, and only those: their
 * buffers are the ones made resident, locked and fenced for the job.
 */
static struct vseg_vm_view *render_view(struct vseg_submit *s)
{
	struct vseg_va_range *r;
	struct vseg_vm_view *view;
	u32 i, n = 0;

	r = kvcalloc(2 * s->num_cmds, sizeof(*r), GFP_KERNEL_ACCOUNT);
	if (!r)
		return NULL;
	for (i = 0; i < s->num_cmds; i++) {
		const struct drm_vseg_cmd *c = &s->cmds[i];

		switch (c->opcode) {
		case DRM_VSEG_CMD_COPY:
			r[n].start = c->src;
			r[n++].len = c->size;
			fallthrough;
		case DRM_VSEG_CMD_FILL:
			r[n].start = c->dst;
			r[n++].len = c->size;
			break;
		case DRM_VSEG_CMD_WRITE:
			r[n].start = c->dst;
			r[n++].len = sizeof(u64);
			break;
		default:
			break;
		}
	}
	view = vseg_vm_view_get(s->vm, r, n);
	kvfree(r);
	return view;
}

/**
 * vseg_engine_submit() - queue a job
 * @vdev: the device
 * @s: the checked submission; the job takes its command buffer, everything
 *	else is released
 * @fence: receives a reference to the job's fence
 *
 * Return: 0, or a negative error code with nothing queued: -EINVAL when a
 * copy-engine command reaches outside its allocation list, -ENOSPC when a
 * buffer cannot be made reachable, -EINTR/-ERESTARTSYS, -ENOMEM.
 */
int vseg_engine_submit(struct vseg_device *vdev, struct vseg_submit *s,
		       struct dma_fence **fence)
{
	struct vseg_job *job;
	struct vseg_exec exec;
	int err;

	job = vseg_job_alloc(&vdev->engine[s->engine]);
	if (!job) {
		vseg_submit_release(s);
		return -ENOMEM;
	}
	job->stats = vseg_client_stats_get(s->stats);
	if (s->engine == VSEG_ENGINE_RENDER) {
		job->view = render_view(s);
		if (!job->view) {
			err = -ENOMEM;
			goto err_free;
		}
	}
	err = collect_bos(job, s);
	if (!err)
		err = job_lock_prepare(job, s, &exec);
	if (err)
		goto err_free;
	err = vseg_job_fence_init(job);
	if (err) {
		vseg_exec_fini(&exec);
		goto err_free;
	}
	job_publish(job);
	vseg_exec_fini(&exec);

	job->cmds = s->cmds;
	job->num_cmds = s->num_cmds;
	s->cmds = NULL;
	vseg_submit_release(s);
	*fence = dma_fence_get(job->fence);
	trace_vseg_job_queue(job->engine->id, job->fence->context,
			     job->fence->seqno, 0);
	vseg_job_arm(job);
	return 0;

err_free:
	vseg_job_free(job);
	vseg_submit_release(s);
	return err;
}
