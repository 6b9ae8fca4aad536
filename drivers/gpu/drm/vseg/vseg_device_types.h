/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Copyright (c) 2026 The vseg authors
 */
#ifndef __VSEG_DEVICE_TYPES_H__
#define __VSEG_DEVICE_TYPES_H__

#include <linux/atomic.h>
#include <linux/list.h>
#include <linux/mutex.h>
#include <linux/rwsem.h>
#include <drm/drm_device.h>
#include <drm/ttm/ttm_device.h>
#include <drm/ttm/ttm_resource.h>

#include "vseg_aperture_mgr_types.h"
#include "vseg_display_types.h"
#include "vseg_engine_types.h"
#include "vseg_hw.h"
#include "vseg_limits.h"
#include "vseg_paging_types.h"
#include "vseg_phys.h"
#include "vseg_placement.h"
#include "vseg_pm_types.h"
#include "vseg_pt.h"
#include "vseg_sched.h"
#include "vseg_segment.h"
#include "vseg_vram_mgr_types.h"

/* Paging operations, counted per segment (WDDM's DXGK_BUILDPAGINGBUFFER). */
enum vseg_paging_counter {
	VSEG_PAGING_TRANSFERS,
	VSEG_PAGING_FILLS,
	VSEG_PAGING_DISCARDS,
	VSEG_PAGING_MAP,
	VSEG_PAGING_UNMAP,
	VSEG_PAGING_NUM
};

/**
 * struct vseg_paging_counts - paging operations on one segment
 * @op: one counter per &enum vseg_paging_counter.
 */
struct vseg_paging_counts {
	atomic64_t op[VSEG_PAGING_NUM];
};

struct vseg_host_window;

/**
 * struct vseg_usage - usage counters of one segment
 * @committed: bytes allocated from the segment's manager, but for the old
 *	placements of moves still going on.
 * @resident: bytes of buffers whose contents live in the segment.
 * @evicted: bytes of buffers evicted from the segment, living elsewhere.
 * @aperture_mapped: aperture only: bytes of GART entries in use.
 */
struct vseg_usage {
	u64 committed;
	u64 resident;
	u64 evicted;
	u64 aperture_mapped;
};

/**
 * struct vseg_segment - runtime state of one segment of the table
 * @desc: the segment's description, inside &vseg_device.table.
 * @resident: bytes of buffers resident here (maintained by the BO layer).
 * @evicted: bytes of buffers evicted from here (maintained by the BO layer).
 * @in_flight: bytes of old placements that moves are still reading: TTM
 *	keeps them (on a ghost object) until the paging engine is done.
 * @vram: memory segments only: the buddy manager (owns the backing store).
 * @host: memory segments with SupportsCpuHostAperture only: the CPU host
 *	aperture's window (vseg_host_aperture.c); NULL otherwise.
 */
struct vseg_segment {
	const struct vseg_segment_desc *desc;
	atomic64_t resident;
	atomic64_t evicted;
	atomic64_t in_flight;
	struct vseg_vram_mgr vram;
	struct vseg_host_window *host;
};

/**
 * struct vseg_device - a vseg GPU
 * @drm: the DRM device.
 * @bdev: the TTM device.
 * @table: the validated segment table.
 * @layout: @table laid out on TTM memory types.
 * @phys: the GPU physical address ranges of @table's segments.
 * @seg: runtime state, @seg[id - 1] for segment id.
 * @aperture: the aperture segment's manager and GART.
 * @system_resident: bytes of buffers resident in system memory (segment 0).
 * @bo_lock: protects @bos, @num_bos, @next_bo_id and each BO's state.
 * @validation: held shared by every ww transaction that makes buffers
 *	resident, exclusive by one that found no room while sharing it
 *	(struct vseg_validation).
 * @lockless: transactions running without @validation (they move
 *	nothing; vseg_validation_begin_lockless()), holding buffers now.
 * @lockless_seq: count of those transactions started.
 * @lockless_shut: an exclusive transaction shuts them out.
 * @bos: every live buffer, for debugfs.
 * @num_bos: number of buffers in @bos.
 * @use_seq: count of buffer placements, for &vseg_bo.last_use.
 * @next_bo_id: last buffer id handed out.
 * @paging: paging operations per segment id (0 = system).
 * @bus: the bus the core hands the hardware (vseg_bus.c).
 * @hw: the hardware behind vseg_hw.h (the software GPU of sim/).
 * @engine: the copy, render and paging engines (their queues).
 * @sched: the scheduler of each queue (VSEG_QUEUE_*).
 * @jobs: jobs of every queue not freed yet.
 * @job_room: SUBMITs waiting for their process, user or the device to
 *	have room for one more unfinished job; woken when a job is freed.
 * @pager: the paging buffer and what the paging engine runs.
 * @pt: the VA spaces' GPU page tables (vseg_pt.c).
 * @display: the virtual display.
 * @pm: standby and hibernate (vseg_pm.c).
 * @limits: what clients may tie up, per process, per user and for the
 *	device, and their charges (vseg_limits.c).
 *
 * Everything is owned by the DRM device: each part's init registers the
 * drmm action that tears it down.
 */
struct vseg_device {
	struct drm_device drm;
	struct ttm_device bdev;
	struct vseg_segment_table table;
	struct vseg_layout layout;
	struct vseg_phys_map phys;
	struct vseg_segment seg[VSEG_MAX_SEGMENTS];
	struct vseg_aperture_mgr aperture;
	atomic64_t system_resident;
	struct mutex bo_lock; /* see above */
	struct rw_semaphore validation;
	atomic_t lockless;
	atomic_t lockless_seq;
	bool lockless_shut;
	struct list_head bos;
	u64 num_bos;
	atomic64_t use_seq;
	u64 next_bo_id;
	struct vseg_paging_counts paging[VSEG_MAX_SEGMENTS + 1];
	struct vseg_hw_bus bus;
	struct vseg_hw hw;
	struct vseg_engine engine[VSEG_NUM_ENGINES];
	struct vseg_sched sched[VSEG_NUM_QUEUES];
	atomic_t jobs;
	wait_queue_head_t job_room;
	struct vseg_paging pager;
	struct vseg_pt_dev pt;
	struct vseg_display display;
	struct vseg_pm pm;
	struct vseg_limits limits;
};

static inline struct vseg_device *to_vseg(struct drm_device *drm)
{
	return container_of(drm, struct vseg_device, drm);
}

static inline struct vseg_device *bdev_to_vseg(struct ttm_device *bdev)
{
	return container_of(bdev, struct vseg_device, bdev);
}

static inline struct vseg_segment *vseg_seg(struct vseg_device *vdev, u32 id)
{
	return &vdev->seg[id - 1];
}

/* Is segment @id (0: system memory) a memory segment? */
static inline bool vseg_seg_is_memory(struct vseg_device *vdev, u32 id)
{
	return id && vseg_seg(vdev, id)->desc->kind == VSEG_SEGMENT_MEMORY;
}

/* The manager of memory segment @id. */
static inline struct vseg_vram_mgr *vseg_vram(struct vseg_device *vdev, u32 id)
{
	return &vseg_seg(vdev, id)->vram;
}

/* The TTM memory type of segment @id (0: TTM_PL_SYSTEM). */
static inline u32 vseg_mem_type(struct vseg_device *vdev, u32 id)
{
	return vdev->layout.mem_type[id];
}

/* The segment id behind a TTM memory type (0 for system memory). */
static inline u32 vseg_mem_type_to_seg(struct vseg_device *vdev, u32 mem_type)
{
	return vdev->layout.seg[mem_type];
}

/* Count a paging operation (VSEG_PAGING_*) on the segment of placement @res. */
static inline void vseg_count(struct vseg_device *vdev,
			      const struct ttm_resource *res,
			      enum vseg_paging_counter op)
{
	atomic64_inc(&vdev->paging[vseg_mem_type_to_seg(vdev, res->mem_type)].op[op]);
}

#endif /* __VSEG_DEVICE_TYPES_H__ */
