// SPDX-License-Identifier: GPL-2.0-only
/*
 * Copyright (c) 2026 The vseg authors
 *
 * A command job as the hardware sees it (vseg_hw.h): the core's side of
 * its execution. The engine asks the job, before each command, whether
 * the command may run (the policy: a physical job stays inside its
 * allocation list, protected content stays inside a video protected
 * region). A virtual job's addresses are translated by the GPU's MMU
 * through the submitting file's page tables (vseg_pt.c), whose root the
 * job carries: the buffers fenced for the job are where the entries say
 * (a move of one waits for the job's fence before it rewrites them).
 */

#include <drm/drm_gem.h>
#include <uapi/drm/vseg_drm.h>

#include "vseg_bo.h"
#include "vseg_device_types.h"
#include "vseg_hw.h"
#include "vseg_job.h"
#include "vseg_pt.h"
#include "vseg_vm.h"
#include "vseg_vpr.h"

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
 * A buffer that is not protected, or not inside a VPR where the job found
 * it; or one the job does not hold (bound since it was queued), which the
 * page tables may reach all the same: counted as outside.
 */
static bool obj_outside_vpr(struct drm_gem_object *obj, void *arg)
{
	const struct vseg_cmd_job *job = arg;
	int i = job_bo_index(job, obj);

	return i < 0 || !vseg_bo_is_protected(job->bos[i]) ||
	       !vseg_vpr_res_inside(job->base.vdev, job->res[i]);
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

static struct vseg_cmd_job *hw_to_cmd_job(struct vseg_hw_cmd_job *hw)
{
	return container_of(hw, struct vseg_cmd_job, exec);
}

/*
 * Check again that the command stays inside the listed allocations, where
 * they were when the job was queued, and that it leaks no protected
 * content.
 */
static bool job_allowed(struct vseg_hw_cmd_job *hw, const struct drm_vseg_cmd *c)
{
	struct vseg_cmd_job *job = hw_to_cmd_job(hw);

	if (!job->vm && !vseg_job_cmd_listed(job, c))
		return false;
	return !copy_leaks(job, c);
}

static const struct vseg_hw_cmd_job_ops vseg_cmd_job_hw_ops = {
	.allowed = job_allowed,
};

/**
 * vseg_job_run_commands() - have the engine run a command job's commands
 * @job: the job, its buffers reachable and fenced (vseg_submit.c)
 *
 * Runs inside the fence signalling path, on the engine's queue: never
 * allocates.
 *
 * Return: 0, -EFAULT at the first command that reaches memory it may not
 * (the rest is skipped), or -ETIME when the job was stopped for running
 * past the time limit.
 */
int vseg_job_run_commands(struct vseg_cmd_job *job)
{
	struct vseg_hw *hw = &job->base.vdev->hw;

	job->exec.ops = &vseg_cmd_job_hw_ops;
	job->exec.cmds = job->cmds;
	job->exec.num_cmds = job->num_cmds;
	job->exec.virtual = job->vm;
	job->exec.pt_root = job->vm ? vseg_pt_root(job->vm->pt) : 0;
	job->exec.stop = &job->base.hw.stop;
	return hw->ops->run_commands(hw, &job->exec);
}
