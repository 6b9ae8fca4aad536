// SPDX-License-Identifier: GPL-2.0-only
/*
 * Copyright (c) 2026 The vseg authors
 *
 * DRM_IOCTL_VSEG_SUBMIT: a command buffer becomes a job of the copy or
 * render engine's scheduler (vseg_sched.c). Every buffer the job may
 * touch is locked with drm_exec and made reachable inside the locking
 * loop, the way its engine addresses memory (physical: contiguous in a
 * memory segment or mapped into the aperture; virtual: pages present);
 * physical addresses are patched into the command buffer and every
 * command is checked against the allocation list; the job waits for its
 * input syncobjs and, implicitly, for every fence on its buffers; its
 * fence goes on each buffer, so that TTM moves, eviction and CPU faults
 * wait for it, and into its output syncobjs.
 */

#include <linux/dma-fence.h>
#include <linux/dma-resv.h>
#include <linux/moduleparam.h>
#include <linux/sizes.h>
#include <linux/slab.h>
#include <linux/sort.h>
#include <drm/drm_exec.h>
#include <drm/drm_file.h>
#include <drm/drm_gem.h>
#include <uapi/drm/vseg_drm.h>

#include "vseg_bo.h"
#include "vseg_budget.h"
#include "vseg_client_stats.h"
#include "vseg_compat.h"
#include "vseg_device_types.h"
#include "vseg_file.h"
#include "vseg_job.h"
#include "vseg_limits.h"
#include "vseg_phys.h"
#include "vseg_pt.h"
#include "vseg_submit.h"
#include "vseg_syncs.h"
#include "vseg_trace.h"
#include "vseg_vm.h"
#include "vseg_vram_mgr.h"

static unsigned int job_max_mb = 1024;
module_param(job_max_mb, uint, 0444);
MODULE_PARM_DESC(job_max_mb,
		 "Most MiB one job's commands may read and write together (default 1024; 0: no bound)");

/**
 * vseg_submit_max_bytes() - the bound on the bytes one job touches
 *
 * Return: job_max_mb in bytes, 0 for no bound.
 */
u64 vseg_submit_max_bytes(void)
{
	return (u64)job_max_mb * SZ_1M;
}

/**
 * struct vseg_submit - a submission, its arguments checked
 * @engine: VSEG_ENGINE_*.
 * @cmds: the command buffer (kernel copy; patched in place).
 * @num_cmds: commands in @cmds.
 * @bos: copy engine: the allocation list (references).
 * @num_bos: entries in @bos.
 * @patches: copy engine: the patch-location list.
 * @num_patches: entries in @patches.
 */
struct vseg_submit {
	u32 engine;
	struct drm_vseg_cmd *cmds;
	u32 num_cmds;
	struct vseg_bo **bos;
	u32 num_bos;
	struct drm_vseg_patch *patches;
	u32 num_patches;
};

static struct vseg_bo *lookup_bo(struct drm_file *file, u32 handle)
{
	struct drm_gem_object *gem = drm_gem_object_lookup(file, handle);

	return gem ? gem_to_vseg_bo(gem) : NULL;
}

static int check_cmd(const struct drm_vseg_cmd *c)
{
	if (c->flags)
		return -EINVAL;
	switch (c->opcode) {
	case DRM_VSEG_CMD_NOP:
		return c->dst || c->src || c->size || c->value ? -EINVAL : 0;
	case DRM_VSEG_CMD_FILL:
		return c->src || (c->size & 3) || (c->value >> 32) ||
		       (c->dst & 3) ? -EINVAL : 0;
	case DRM_VSEG_CMD_COPY:
		return c->value ? -EINVAL : 0;
	case DRM_VSEG_CMD_WRITE:
		return c->src || c->size || (c->dst & 7) ? -EINVAL : 0;
	default:
		return -EINVAL;
	}
}

/* Bytes a command reads and writes (a COPY counts both sides). */
static u64 cmd_bytes(const struct drm_vseg_cmd *c)
{
	switch (c->opcode) {
	case DRM_VSEG_CMD_FILL:
		return c->size;
	case DRM_VSEG_CMD_COPY:
		return c->size > U64_MAX / 2 ? U64_MAX : 2 * c->size;
	case DRM_VSEG_CMD_WRITE:
		return sizeof(u64);
	default:
		return 0;
	}
}

/*
 * The commands, each checked, and the bytes they touch together bounded
 * by job_max_mb (vseg_submit_max_bytes()).
 */
static int submit_commands(struct drm_vseg_submit *args, struct vseg_submit *s)
{
	u64 bytes = 0, max = vseg_submit_max_bytes();
	u32 i;
	int err;

	s->num_cmds = args->commands_size / sizeof(struct drm_vseg_cmd);
	s->cmds = vseg_copy_array(args->commands, s->num_cmds, sizeof(*s->cmds),
				  &err);
	for (i = 0; !err && i < s->num_cmds; i++) {
		err = check_cmd(&s->cmds[i]);
		bytes += min(cmd_bytes(&s->cmds[i]), max + 1);
		if (!err && max && bytes > max)
			err = -E2BIG;
	}
	return err;
}

static int submit_allocations(struct drm_file *file,
			      struct drm_vseg_submit *args,
			      struct vseg_submit *s)
{
	struct drm_vseg_allocation *list;
	u32 i;
	int err;

	list = vseg_copy_array(args->allocations, args->num_allocations,
			       sizeof(*list), &err);
	if (err)
		return err;
	s->bos = kvcalloc(args->num_allocations, sizeof(*s->bos),
			  GFP_KERNEL_ACCOUNT);
	if (args->num_allocations && !s->bos) {
		err = -ENOMEM;
		goto out;
	}
	s->num_bos = args->num_allocations;
	for (i = 0; i < args->num_allocations && !err; i++) {
		if (list[i].flags & ~DRM_VSEG_ALLOCATION_WRITE) {
			err = -EINVAL;
			break;
		}
		s->bos[i] = lookup_bo(file, list[i].handle);
		if (!s->bos[i])
			err = -ENOENT;
		/* WDDM: such a submission is rejected as a whole. */
		else if (!(s->bos[i]->params.flags & VSEG_BO_ACCESSED_PHYSICALLY))
			err = -EINVAL;
	}
out:
	kvfree(list);
	return err;
}

/*
 * A patch may only write an address field the command uses: the
 * destination of FILL, COPY and WRITE, the source of COPY.
 */
static bool patch_targets_address(const struct vseg_submit *s, u64 offset)
{
	const struct drm_vseg_cmd *c = &s->cmds[offset / sizeof(*c)];
	u64 field = offset % sizeof(*c);

	if (field == offsetof(struct drm_vseg_cmd, dst))
		return c->opcode != DRM_VSEG_CMD_NOP;
	if (field == offsetof(struct drm_vseg_cmd, src))
		return c->opcode == DRM_VSEG_CMD_COPY;
	return false;
}

static int submit_patches(struct drm_vseg_submit *args, struct vseg_submit *s)
{
	u32 i;
	int err;

	s->patches = vseg_copy_array(args->patches, args->num_patches,
				     sizeof(*s->patches), &err);
	if (err)
		return err;
	s->num_patches = args->num_patches;
	for (i = 0; i < s->num_patches; i++) {
		const struct drm_vseg_patch *pt = &s->patches[i];

		if (pt->pad || pt->allocation_index >= s->num_bos ||
		    !IS_ALIGNED(pt->patch_offset, sizeof(u64)) ||
		    pt->patch_offset > args->commands_size - sizeof(u64) ||
		    !patch_targets_address(s, pt->patch_offset) ||
		    pt->allocation_offset >=
		    s->bos[pt->allocation_index]->tbo.base.size)
			return -EINVAL;
	}
	return 0;
}

static void submit_release(struct vseg_submit *s)
{
	u32 i;

	for (i = 0; i < s->num_bos; i++)
		if (s->bos[i])
			drm_gem_object_put(&s->bos[i]->tbo.base);
	kvfree(s->bos);
	kvfree(s->patches);
	kvfree(s->cmds);
}

static int ptr_cmp(const void *a, const void *b)
{
	uintptr_t x = (uintptr_t)*(void * const *)a;
	uintptr_t y = (uintptr_t)*(void * const *)b;

	return x < y ? -1 : x > y;
}

/* The allocation list's distinct buffers, sorted, each with a reference. */
static int listed_bos(struct vseg_cmd_job *job, struct vseg_submit *s)
{
	u32 i;

	job->bos = kvcalloc(s->num_bos, sizeof(*job->bos), GFP_KERNEL_ACCOUNT);
	if (s->num_bos && !job->bos)
		return -ENOMEM;
	memcpy(job->bos, s->bos, s->num_bos * sizeof(*job->bos));
	/* Sorted, duplicates are neighbours: O(n log n). */
	sort(job->bos, s->num_bos, sizeof(*job->bos), ptr_cmp, NULL);
	for (i = 0; i < s->num_bos; i++) {
		if (job->num_bos && job->bos[job->num_bos - 1] == job->bos[i])
			continue;
		job->bos[job->num_bos++] = job->bos[i];
	}
	for (i = 0; i < job->num_bos; i++)
		drm_gem_object_get(&job->bos[i]->tbo.base);
	return 0;
}

/*
 * The buffers a render job's commands may reach: those mapped in the
 * ranges they use, now or by a bind still queued (vseg_vm_collect_bos()).
 * Only these are made resident, locked and fenced for the job; the engine
 * faults on any other it meets.
 */
static int mapped_bos(struct vseg_cmd_job *job)
{
	struct vseg_va_range *r;
	unsigned int count;
	u32 i, n = 0;
	int err;

	r = kvcalloc(2 * job->num_cmds, sizeof(*r), GFP_KERNEL_ACCOUNT);
	if (!r)
		return -ENOMEM;
	for (i = 0; i < job->num_cmds; i++) {
		const struct drm_vseg_cmd *c = &job->cmds[i];

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
	err = vseg_vm_collect_bos(job->vm, r, n, &job->bos, &count);
	job->num_bos = count;
	kvfree(r);
	return err;
}

/* Every distinct buffer the job may touch, and room to record them. */
static int collect_bos(struct vseg_cmd_job *job, struct vseg_submit *s)
{
	u32 n, i;
	int err;

	err = job->vm ? mapped_bos(job) : listed_bos(job, s);
	if (err)
		return err;
	n = job->num_bos;
	job->objs = kvcalloc(n, sizeof(*job->objs), GFP_KERNEL_ACCOUNT);
	job->res = kvcalloc(n, sizeof(*job->res), GFP_KERNEL_ACCOUNT);
	job->tt = kvcalloc(n, sizeof(*job->tt), GFP_KERNEL_ACCOUNT);
	if (!job->vm)
		job->ranges = kvcalloc(n, sizeof(*job->ranges),
				       GFP_KERNEL_ACCOUNT);
	if (n && (!job->objs || !job->res || !job->tt ||
		  (!job->vm && !job->ranges)))
		return -ENOMEM;
	for (i = 0; i < n; i++)
		job->objs[i] = &job->bos[i]->tbo.base;
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
static int prepare_bo(struct vseg_cmd_job *job, struct vseg_bo *bo)
{
	struct ttm_operation_ctx ctx = { .interruptible = true };
	struct ttm_buffer_object *tbo = &bo->tbo;
	int err;

	if (!tbo->resource)
		return -EINVAL;
	/* Offered: unused until RECLAIM. */
	if (bo->offered)
		return -EBUSY;
	bo->move_reason = VSEG_MOVE_SUBMISSION;
	if (job->base.queue == VSEG_QUEUE_COPY)
		err = vseg_bo_make_reachable(bo, &ctx);
	else
		err = vseg_bo_commit_for_gpu(bo, &ctx);
	if (!err && tbo->resource->mem_type != TTM_PL_SYSTEM &&
	    tbo->resource->mem_type != TTM_PL_TT)
		err = vseg_vram_res_populate(tbo->resource, 0);
	return err;
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
static int phys_check(struct vseg_cmd_job *job)
{
	struct vseg_device *vdev = job->base.vdev;
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
	for (i = 0; i < job->num_cmds; i++)
		if (!vseg_job_cmd_listed(job, &job->cmds[i]))
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
static int apply_patches(struct vseg_cmd_job *job, struct vseg_submit *s)
{
	struct vseg_device *vdev = job->base.vdev;
	u32 i;

	for (i = 0; i < s->num_patches; i++) {
		const struct drm_vseg_patch *pt = &s->patches[i];
		u64 *slot = (u64 *)((u8 *)job->cmds + pt->patch_offset);
		u32 seg;
		u64 off;

		if (!vseg_bo_phys_addr(s->bos[pt->allocation_index], &seg, &off))
			return -EINVAL;
		*slot = vseg_phys_base(vdev, seg) + off + pt->allocation_offset;
		if (!patched_dst_aligned(&job->cmds[pt->patch_offset /
						    sizeof(*job->cmds)]))
			return -EINVAL;
	}
	return 0;
}

/*
 * The buffers are locked: make each reachable, patch and check the
 * commands. Making room may evict, locking other buffers with the
 * transaction's ticket.
 */
static int job_prepare(struct vseg_cmd_job *job, struct vseg_submit *s)
{
	u32 i;
	int err;

	for (i = 0; i < job->num_bos; i++) {
		err = prepare_bo(job, job->bos[i]);
		if (err)
			return err;
	}
	err = apply_patches(job, s);
	if (!err && !job->vm)
		err = phys_check(job);
	/* The page tables TTM evicted come back before the job's fence. */
	if (!err && job->vm)
		err = vseg_vm_restore_tables(job->vm);
	return err;
}

/* Every buffer and page table is where the job needs it: nothing moves. */
static bool job_in_place(struct vseg_cmd_job *job)
{
	bool physical = job->base.queue == VSEG_QUEUE_COPY;
	u32 i;

	if (job->vm && !vseg_pt_all_resident(job->vm->pt))
		return false;
	for (i = 0; i < job->num_bos; i++)
		if (!vseg_bo_in_place(job->bos[i], physical))
			return false;
	return true;
}

/* job_lock_prepare()'s lockless try found something to move. */
#define VSEG_JOB_MOVES	1

/*
 * Lock the job's buffers with drm_exec and prepare them inside the
 * locking loop, as its contract asks: contention on a buffer restarts the
 * loop; no room for one runs the transaction again holding the validation
 * lock exclusive (struct vseg_validation). A job whose buffers are all in
 * place, the common case, runs first without the validation lock: it
 * never waits behind another process's evictions. On success the buffers
 * stay locked in @exec, and @val held, until job_unlock().
 */
static int job_lock_prepare(struct vseg_cmd_job *job, struct vseg_submit *s,
			    struct drm_exec *exec, struct vseg_validation *val)
{
	bool lockless;
	u32 i;
	int err;

	vseg_validation_init(val, job->base.vdev);
	lockless = vseg_validation_begin_lockless(val);
	for (;;) {
		if (!lockless) {
			err = vseg_validation_begin(val);
			if (err)
				return err;
		}
		/* VM-private buffers share their address space's reservation. */
		drm_exec_init(exec, DRM_EXEC_INTERRUPTIBLE_WAIT |
			      DRM_EXEC_IGNORE_DUPLICATES, job->num_bos);
		drm_exec_until_all_locked(exec) {
			/*
			 * Each pass starts afresh: it must lock something, or
			 * drm_exec never takes the contended object and
			 * loops.
			 */
			err = 0;
			/* Its page tables share the address space's. */
			if (job->vm) {
				err = drm_exec_prepare_obj(exec,
							   vseg_vm_resv_obj(job->vm),
							   1);
				drm_exec_retry_on_contention(exec);
			}
			for (i = 0; i < job->num_bos && !err; i++) {
				err = drm_exec_prepare_obj(exec, job->objs[i], 1);
				drm_exec_retry_on_contention(exec);
				if (err)
					break;
			}
			if (!err && lockless && !job_in_place(job))
				err = VSEG_JOB_MOVES;
			if (!err)
				err = job_prepare(job, s);
		}
		if (!err)
			return 0;
		drm_exec_fini(exec);
		vseg_validation_end(val);
		if (lockless) {
			/* Something to move: as any validation. */
			lockless = false;
			if (err == VSEG_JOB_MOVES || err == -ENOSPC)
				continue;
			return err;
		}
		if (!vseg_validation_retry(val, err))
			return err;
	}
}

static void job_unlock(struct drm_exec *exec, struct vseg_validation *val)
{
	drm_exec_fini(exec);
	vseg_validation_end(val);
}

/* Implicit dependencies: every fence already on the job's buffers. */
static int job_add_deps(struct vseg_cmd_job *job)
{
	u32 i;
	int err;

	for (i = 0; i < job->num_bos; i++) {
		err = vseg_job_add_resv_deps(&job->base,
					     job->bos[i]->tbo.base.resv);
		if (err)
			return err;
	}
	return 0;
}

/*
 * The job's fence goes on every buffer; the CPU's next access waits. On
 * the address space's reservation too, as BOOKKEEP: TTM evicts none of
 * its page tables while the job may walk them.
 */
static void job_publish(struct vseg_cmd_job *job, struct dma_fence *fence)
{
	u32 i;

	if (job->vm)
		dma_resv_add_fence(vseg_vm_resv_obj(job->vm)->resv, fence,
				   DMA_RESV_USAGE_BOOKKEEP);
	for (i = 0; i < job->num_bos; i++) {
		struct ttm_buffer_object *tbo = &job->bos[i]->tbo;

		job->res[i] = tbo->resource;
		job->tt[i] = tbo->ttm;
		dma_resv_add_fence(tbo->base.resv, fence,
				   DMA_RESV_USAGE_WRITE);
		ttm_bo_unmap_virtual(tbo);
	}
}

static int cmd_job_run(struct vseg_job *base)
{
	struct vseg_cmd_job *job = to_cmd_job(base);
	u64 start = ktime_get_ns();
	int err;

	err = vseg_job_run_commands(job);
	vseg_client_stats_add(job->stats, base->queue, ktime_get_ns() - start);
	return err;
}

static void cmd_job_free(struct vseg_job *base)
{
	struct vseg_cmd_job *job = to_cmd_job(base);
	u32 i;

	for (i = 0; i < job->num_bos; i++)
		drm_gem_object_put(&job->bos[i]->tbo.base);
	kvfree(job->bos);
	kvfree(job->objs);
	kvfree(job->res);
	kvfree(job->tt);
	kvfree(job->ranges);
	vseg_vm_put(job->vm);
	vseg_client_stats_put(job->stats);
	/* Room for another job of its process, user and device. */
	vseg_limits_uncharge(job->limits, VSEG_LIMIT_JOBS, 0, 1);
	vseg_limits_client_put(job->limits);
	wake_up_all(&base->vdev->job_room);
	kvfree(job->cmds);
	kfree(job);
}

static const struct vseg_job_ops cmd_job_ops = {
	.run = cmd_job_run,
	.free = cmd_job_free,
};

/*
 * Build the job: its buffers locked, reachable and checked, its
 * dependencies added. On success the buffers stay locked in @exec.
 */
static int job_build(struct vseg_cmd_job *job, struct vseg_file *vf,
		     struct drm_file *file, struct drm_vseg_submit *args,
		     struct vseg_submit *s, struct drm_exec *exec,
		     struct vseg_validation *val)
{
	int err;

	if (s->engine == VSEG_ENGINE_RENDER)
		job->vm = vseg_vm_get(vf->vm);
	err = collect_bos(job, s);
	if (!err)
		err = vseg_syncs_wait_in(&job->base, file, args->in_syncs,
					 args->num_in_syncs, args->sync_size);
	if (err)
		return err;
	err = job_lock_prepare(job, s, exec, val);
	if (err)
		return err;
	err = job_add_deps(job);
	if (err)
		job_unlock(exec, val);
	return err;
}

/**
 * vseg_ioctl_submit() - DRM_IOCTL_VSEG_SUBMIT
 * @drm: the device
 * @data: &struct drm_vseg_submit
 * @file: the caller
 *
 * Return: 0 or a negative error code, as the UAPI documents; on error
 * nothing is queued and no syncobj changes.
 */
int vseg_ioctl_submit(struct drm_device *drm, void *data,
		      struct drm_file *file)
{
	struct vseg_device *vdev = to_vseg(drm);
	struct vseg_file *vf = file->driver_priv;
	struct drm_vseg_submit *args = data;
	struct vseg_out_sync *out = NULL;
	struct vseg_submit s = {};
	struct vseg_cmd_job *job;
	struct vseg_validation val;
	struct dma_fence *fence;
	struct drm_exec exec;
	u64 paged_in;
	int err;

	if (args->extensions || args->flags ||
	    memchr_inv(args->reserved, 0, sizeof(args->reserved)) ||
	    args->engine > DRM_VSEG_ENGINE_RENDER || !args->commands_size ||
	    args->commands_size % sizeof(struct drm_vseg_cmd))
		return -EINVAL;
	err = vseg_syncs_check(args->num_in_syncs, args->num_out_syncs,
			       args->sync_size);
	if (err)
		return err;
	if (args->commands_size > DRM_VSEG_MAX_CMD_BYTES ||
	    args->num_allocations > DRM_VSEG_MAX_ALLOCATIONS ||
	    args->num_patches > DRM_VSEG_MAX_PATCHES)
		return -E2BIG;
	/* Virtual addressing only: no allocation list on the render engine. */
	if (args->engine == DRM_VSEG_ENGINE_RENDER &&
	    (args->num_allocations || args->num_patches))
		return -EINVAL;

	s.engine = args->engine;
	err = submit_commands(args, &s);
	if (!err)
		err = submit_allocations(file, args, &s);
	if (!err)
		err = submit_patches(args, &s);
	if (!err)
		err = vseg_syncs_get_out(file, args->out_syncs,
					 args->num_out_syncs, args->sync_size,
					 &out);
	if (err)
		goto out_release;

	/* The paging its last jobs caused over its budget, paid for first. */
	err = vseg_budget_throttle(vf->limits);
	if (err)
		goto out_release;
	/*
	 * A bounded number of unfinished jobs per process, per user and for
	 * the device: wait for room (one of them to end).
	 */
	err = wait_event_interruptible(vdev->job_room,
				       !vseg_limits_charge(vf->limits,
							   VSEG_LIMIT_JOBS,
							   0, 1));
	if (err)
		goto out_release;
	job = kzalloc(sizeof(*job), GFP_KERNEL_ACCOUNT);
	if (!job) {
		vseg_limits_uncharge(vf->limits, VSEG_LIMIT_JOBS, 0, 1);
		wake_up_all(&vdev->job_room);
		err = -ENOMEM;
		goto out_release;
	}
	job->limits = vseg_limits_client_get(vf->limits);
	job->stats = vseg_client_stats_get(vf->stats);
	job->cmds = s.cmds;
	job->num_cmds = s.num_cmds;
	s.cmds = NULL;
	err = vseg_job_init(&job->base, vdev, &cmd_job_ops,
			    &vf->entity[s.engine], s.engine,
			    vseg_file_client_id(file), vf);
	if (err) {
		cmd_job_free(&job->base);
		goto out_release;
	}
	paged_in = vseg_budget_paged_in(vf->limits);
	err = job_build(job, vf, file, args, &s, &exec, &val);
	/* What preparing it paged in counts, even if it failed after. */
	vseg_budget_paged(vf->limits, paged_in);
	if (err) {
		vseg_job_abandon(&job->base);
		goto out_release;
	}

	/* Arm and push in one order per file: its fences' seqno order. */
	mutex_lock(&vf->push_lock);
	fence = dma_fence_get(vseg_job_arm(&job->base));
	job_publish(job, fence);
	trace_vseg_job_queue(s.engine, fence->context, fence->seqno, 0);
	vseg_job_push(&job->base);
	dma_fence_put(vf->last[s.engine]);
	vf->last[s.engine] = dma_fence_get(fence);
	mutex_unlock(&vf->push_lock);
	job_unlock(&exec, &val);

	vseg_syncs_signal_out(out, args->num_out_syncs, fence);
	dma_fence_put(fence);
out_release:
	vseg_syncs_put_out(out, args->num_out_syncs);
	submit_release(&s);
	return err;
}
