// SPDX-License-Identifier: GPL-2.0-only
/*
 * Copyright (c) 2026 The vseg authors
 *
 * The software GPU: command execution of its copy and render engines
 * (vseg_hw_ops.run_commands). The copy engine addresses memory
 * physically: a memory segment's bytes through the bus the core hands it,
 * aperture pages through the GART (vseg_sim_gart.c) to system pages,
 * which it reaches through the bus too; the render engine
 * virtually, through the job's translation. Whatever an address does not
 * resolve to ends the job with -EFAULT; a command the job's policy
 * refuses (outside the allocation list, protected content leaving a
 * video protected region) too, before it touches a byte.
 */

#include <linux/minmax.h>
#include <linux/mutex.h>
#include <linux/sched.h>
#include <linux/sizes.h>
#include <linux/string.h>
#include <uapi/drm/vseg_drm.h>

#include "vseg_sim.h"

/*
 * Most bytes a command touches in one step: the engine reschedules between
 * steps, holds the GART's lock for one step at most, and notices a
 * request to stop between steps.
 */
#define VSEG_SIM_STEP	SZ_256K

/* One side of a command, mapped for one step. */
struct sim_port {
	struct vseg_hw_mapping m;
	bool translated;
};

static void *port_map(struct vseg_hw *hw, struct vseg_hw_cmd_job *job,
		      enum vseg_hw_port port, struct sim_port *p, u64 addr,
		      u64 *len, bool write)
{
	void *ptr;

	if (job->virtual) {
		ptr = job->ops->translate(job, port, addr, len, write);
		p->translated = ptr;
		return ptr;
	}
	return vseg_sim_gart_map(to_vseg_sim(hw), addr, len, write, &p->m);
}

static void port_unmap(struct vseg_hw *hw, struct vseg_hw_cmd_job *job,
		       enum vseg_hw_port port, struct sim_port *p)
{
	if (job->virtual) {
		if (p->translated)
			job->ops->untranslate(job, port);
		p->translated = false;
		return;
	}
	hw->bus->ops->unmap(hw->bus, &p->m);
}

/*
 * Run one FILL, COPY or WRITE in steps of at most VSEG_SIM_STEP bytes,
 * each resolving its addresses anew (holding the GART still for a
 * physical job, let go between steps).
 */
static int run_cmd(struct vseg_hw *hw, struct vseg_hw_cmd_job *job,
		   const struct drm_vseg_cmd *c)
{
	bool copy = c->opcode == DRM_VSEG_CMD_COPY;
	u64 total = c->opcode == DRM_VSEG_CMD_WRITE ? sizeof(u64) : c->size;
	struct mutex *gart = job->virtual ? NULL : &to_vseg_sim(hw)->gart.lock;
	struct sim_port dp = {}, sp = {};
	u64 done = 0, n = 0, slen = U64_MAX;
	void *d, *s = NULL;
	int err = 0;

	while (done < total && !err) {
		/* Past the time limit: the scheduler wants the engine back. */
		if (atomic_read(job->stop))
			return -ETIME;
		if (gart)
			mutex_lock(gart);
		d = port_map(hw, job, VSEG_HW_DST, &dp, c->dst + done, &n,
			     true);
		if (d && copy)
			s = port_map(hw, job, VSEG_HW_SRC, &sp, c->src + done,
				     &slen, false);
		if (!d || (copy && !s)) {
			err = -EFAULT;
		} else {
			n = min3(n, slen, min_t(u64, total - done,
						VSEG_SIM_STEP));
			if (copy)
				memcpy(d, s, n);
			else if (c->opcode == DRM_VSEG_CMD_FILL)
				memset32(d, (u32)c->value, n / 4);
			else if (n < sizeof(u64))
				err = -EFAULT;
			else
				*(u64 *)d = c->value;
		}
		if (copy)
			port_unmap(hw, job, VSEG_HW_SRC, &sp);
		port_unmap(hw, job, VSEG_HW_DST, &dp);
		if (gart)
			mutex_unlock(gart);
		done += n;
		cond_resched();
	}
	return err;
}

/**
 * vseg_sim_run_commands() - run a command job on its engine
 * @hw: the software GPU
 * @job: the job
 *
 * Return: 0, -EFAULT at the first command that reaches memory it may not
 * or that the job's policy refuses (the rest is skipped), or -ETIME when
 * the job was stopped.
 */
int vseg_sim_run_commands(struct vseg_hw *hw, struct vseg_hw_cmd_job *job)
{
	u32 i;
	int err = 0;

	for (i = 0; i < job->num_cmds && !err; i++) {
		const struct drm_vseg_cmd *c = &job->cmds[i];

		if (c->opcode == DRM_VSEG_CMD_NOP)
			continue;
		if (!job->ops->allowed(job, c))
			err = -EFAULT;
		else
			err = run_cmd(hw, job, c);
	}
	return err;
}
