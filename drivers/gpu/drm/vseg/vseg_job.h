/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Copyright (c) 2026 The vseg authors
 *
 * A command job of the copy or render engine, as submission
 * (vseg_submit.c) builds it and the engine runs it (vseg_job.c, through
 * vseg_hw.h). Internal to those files.
 */
#ifndef __VSEG_JOB_H__
#define __VSEG_JOB_H__

#include <linux/types.h>

#include "vseg_hw.h"
#include "vseg_sched.h"

struct drm_gem_object;
struct drm_vseg_cmd;
struct ttm_resource;
struct ttm_tt;
struct vseg_bo;
struct vseg_client_stats;
struct vseg_limits_client;
struct vseg_vm;

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
 * struct vseg_cmd_job - a command job, from submission to its fence
 * @base: the scheduler's job.
 * @cmds: the command buffer, patched.
 * @num_cmds: commands in @cmds.
 * @bos: every distinct buffer it may touch, referenced, sorted by
 *	address.
 * @objs: the same, as GEM objects, for locking.
 * @res: where each of @bos was when the job was queued (a move since
 *	keeps that placement until the job is done): the VPR policy's view.
 * @tt: the pages of each of @bos then.
 * @num_bos: entries in @bos.
 * @ranges: copy engine: the physical range of each of @bos, sorted.
 * @vm: render engine: the submitting file's address space (a reference),
 *	through which the engine translates while the job runs.
 * @stats: the submitting file's engine time counters, a reference.
 * @limits: the submitting file's limits client, a reference: the job is
 *	charged to its process, user and device until it is freed.
 * @exec: the job as the engine runs it (vseg_job_run_commands()).
 */
struct vseg_cmd_job {
	struct vseg_job base;
	struct drm_vseg_cmd *cmds;
	u32 num_cmds;
	struct vseg_bo **bos;
	struct drm_gem_object **objs;
	struct ttm_resource **res;
	struct ttm_tt **tt;
	u32 num_bos;
	struct vseg_phys_range *ranges;
	struct vseg_vm *vm;
	struct vseg_client_stats *stats;
	struct vseg_limits_client *limits;
	struct vseg_hw_cmd_job exec;
};

static inline struct vseg_cmd_job *to_cmd_job(struct vseg_job *job)
{
	return container_of(job, struct vseg_cmd_job, base);
}

bool vseg_job_cmd_listed(const struct vseg_cmd_job *job,
			 const struct drm_vseg_cmd *c);
int vseg_job_run_commands(struct vseg_cmd_job *job);

#endif /* __VSEG_JOB_H__ */
