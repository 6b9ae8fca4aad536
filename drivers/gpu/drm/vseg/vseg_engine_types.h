/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Copyright (c) 2026 The vseg authors
 */
#ifndef __VSEG_ENGINE_TYPES_H__
#define __VSEG_ENGINE_TYPES_H__

#include <linux/atomic.h>
#include <linux/spinlock.h>
#include <linux/types.h>

struct vseg_device;
struct workqueue_struct;

#define VSEG_ENGINE_COPY	0	/* physically addressed */
#define VSEG_ENGINE_RENDER	1	/* virtually addressed */
#define VSEG_ENGINE_PAGING	2	/* the memory manager's (vseg_paging.c) */
#define VSEG_NUM_ENGINES	3
#define VSEG_NUM_USER_ENGINES	2	/* the ones jobs are submitted to */

/**
 * struct vseg_engine - one engine of the software GPU (its hardware side)
 * @vdev: the device.
 * @id: VSEG_ENGINE_*.
 * @name: for fences and debugfs.
 * @context: dma-fence context of the engine's own (hardware) fences.
 * @seqno: last hardware fence seqno handed out, under @fence_lock.
 * @fence_lock: lock of @seqno.
 * @wq: ordered queue on which the engine runs the jobs its scheduler
 *	hands it (vseg_sched.c), one after the other: the engine itself.
 * @submitted: jobs the scheduler handed to the engine so far.
 * @failed: jobs whose fence signalled an error.
 */
struct vseg_engine {
	struct vseg_device *vdev;
	u32 id;
	const char *name;
	u64 context;
	u64 seqno;
	spinlock_t fence_lock; /* see above */
	struct workqueue_struct *wq;
	atomic64_t submitted;
	atomic64_t failed;
};

#endif /* __VSEG_ENGINE_TYPES_H__ */
