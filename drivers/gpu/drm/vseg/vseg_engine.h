/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Copyright (c) 2026 The vseg authors
 */
#ifndef __VSEG_ENGINE_H__
#define __VSEG_ENGINE_H__

#include <linux/atomic.h>
#include <linux/types.h>
#include <linux/workqueue.h>

#include "vseg_engine_types.h"

struct dma_fence;
struct vseg_device;
struct vseg_fence;

/**
 * struct vseg_hw_job - a job as an engine runs it
 * @work: on the engine's queue while it runs.
 * @engine: the engine.
 * @fence: the engine's (hardware) fence of the job: allocated with the
 *	job, given its seqno when the engine takes the job.
 * @exec: runs the job; returns 0 or the error its fence signals.
 * @stop: set when the job has run too long: @exec must end soon, and
 *	the fence signals -ETIME.
 * @started: the engine took the job (@fence is a live fence).
 * @start: when it did, in jiffies (its time limit runs from then).
 * @trace_context: the dma-fence context of the job's own fence, for the
 *	vseg_job_run and vseg_job_done tracepoints.
 * @trace_seqno: its seqno.
 */
struct vseg_hw_job {
	struct work_struct work;
	struct vseg_engine *engine;
	struct vseg_fence *fence;
	int (*exec)(struct vseg_hw_job *hw);
	atomic_t stop;
	bool started;
	unsigned long start;
	u64 trace_context;
	u64 trace_seqno;
};

int vseg_engine_init(struct vseg_device *vdev);
int vseg_hw_job_init(struct vseg_hw_job *hw, struct vseg_engine *e,
		     int (*exec)(struct vseg_hw_job *hw));
void vseg_hw_job_fini(struct vseg_hw_job *hw);
struct dma_fence *vseg_engine_start(struct vseg_hw_job *hw);
struct dma_fence *vseg_hw_job_fence(struct vseg_hw_job *hw);
void vseg_engine_stop_job(struct vseg_hw_job *hw);
void vseg_engine_flush(struct vseg_device *vdev);

/* Has the job been told to stop (vseg_engine_stop_job())? */
static inline bool vseg_hw_job_stopping(const struct vseg_hw_job *hw)
{
	return atomic_read(&hw->stop);
}

#endif /* __VSEG_ENGINE_H__ */
