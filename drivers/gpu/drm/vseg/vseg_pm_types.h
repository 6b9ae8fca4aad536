/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Copyright (c) 2026 The vseg authors
 */
#ifndef __VSEG_PM_TYPES_H__
#define __VSEG_PM_TYPES_H__

#include <linux/list.h>
#include <linux/mutex.h>
#include <linux/rwsem.h>
#include <linux/types.h>
#include <linux/wait.h>
#include <linux/workqueue.h>

#include "vseg_segment.h"

/* The byte a segment's memory reads after it lost power. */
#define VSEG_PM_POISON		0x6b

/**
 * enum vseg_pm_kind - a power transition
 * @VSEG_PM_NONE: none (the device is on).
 * @VSEG_PM_STANDBY: standby (S3, suspend to RAM).
 * @VSEG_PM_HIBERNATE: hibernate (S4, suspend to disk).
 */
enum vseg_pm_kind {
	VSEG_PM_NONE,
	VSEG_PM_STANDBY,
	VSEG_PM_HIBERNATE,
};

/**
 * struct vseg_pm_counts - what the last power transition did to a segment
 * @evicted: buffers evicted to system memory.
 * @evicted_bytes: their bytes.
 * @saved: pinned buffers whose content was saved and restored.
 * @saved_bytes: their bytes (whole segment pages).
 * @poisoned_bytes: bytes of backing pages overwritten by the power loss.
 * @recorded: buffers the entry evicted and recorded, to come back after
 *	the exit (all but the pinned and protected ones).
 * @restored: recorded buffers back in the segment after the exit.
 * @restored_bytes: their bytes.
 * @no_room: recorded buffers left where they are: the segment had no room
 *	for them without evicting anything.
 * @skipped: recorded buffers not brought back: freed, pinned or moved by
 *	their user meanwhile, or a new transition or the device's removal
 *	came first.
 */
struct vseg_pm_counts {
	u64 evicted;
	u64 evicted_bytes;
	u64 saved;
	u64 saved_bytes;
	u64 poisoned_bytes;
	u64 recorded;
	u64 restored;
	u64 restored_bytes;
	u64 no_room;
	u64 skipped;
};

/**
 * struct vseg_pm - power management state of a device
 * @lock: serialises transitions and protects everything below but @gate.
 * @gate: every ioctl holds it for read; a transition's phases take it for
 *	write, so no ioctl places or pins a buffer while one runs.
 * @exited: woken when @state goes back to %VSEG_PM_NONE; CPU faults wait
 *	there (vseg_pm_fault_wait()).
 * @state: the transition under way between its entry and its exit. Written
 *	under @lock, @gate and the reservation of every buffer the entry
 *	visits: read under a buffer's reservation (the CPU fault) or @gate.
 * @last: the last transition entered.
 * @last_result: its result (0 or a negative error code).
 * @transitions: transitions entered.
 * @saved: the pinned buffers whose content is kept aside.
 * @recorded: the buffers the entry evicted from a memory segment that loses
 *	its content, each holding a GEM reference, linked by
 *	&vseg_bo.pm_link: brought back by @restore after the exit.
 * @restore: the work (on system_unbound_wq) that brings them back.
 * @restore_pending: buffers of @recorded not yet handled.
 * @restore_stop: a transition or the device's removal wants @restore to
 *	stop; read without @lock.
 * @seg: counters of the last transition, @seg[id - 1] for segment id.
 */
struct vseg_pm {
	struct mutex lock; /* see above */
	struct rw_semaphore gate;
	wait_queue_head_t exited;
	enum vseg_pm_kind state;
	enum vseg_pm_kind last;
	int last_result;
	u64 transitions;
	struct list_head saved;
	struct list_head recorded;
	struct work_struct restore;
	u64 restore_pending;
	bool restore_stop;
	struct vseg_pm_counts seg[VSEG_MAX_SEGMENTS];
};

#endif /* __VSEG_PM_TYPES_H__ */
