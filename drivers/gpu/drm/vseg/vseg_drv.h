/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Copyright (c) 2026 The vseg authors
 */
#ifndef __VSEG_DRV_H__
#define __VSEG_DRV_H__

#include <linux/atomic.h>
#include <linux/list.h>
#include <linux/mutex.h>
#include <drm/drm_device.h>
#include <drm/drm_print.h>
#include <drm/ttm/ttm_device.h>

#include "vseg_segment.h"

#define DRIVER_NAME	"vseg"
#define DRIVER_DESC	"WDDM GPU segment memory model on TTM"
#define DRIVER_DATE	"20261121"
#define DRIVER_MAJOR	0
#define DRIVER_MINOR	1

struct vseg_vram_mgr;
struct vseg_engine;
struct vseg_display;

/* Paging operations, counted per segment (WDDM's DXGK_BUILDPAGINGBUFFER). */
enum vseg_paging_op {
	VSEG_PAGING_TRANSFERS,
	VSEG_PAGING_FILLS,
	VSEG_PAGING_DISCARDS,
	VSEG_PAGING_MAP,
	VSEG_PAGING_UNMAP,
	VSEG_PAGING_NUM
};

/**
 * struct vseg_paging_counts - paging operations on one segment
 * @op: one counter per &enum vseg_paging_op.
 */
struct vseg_paging_counts {
	atomic64_t op[VSEG_PAGING_NUM];
};

struct vseg_aperture_mgr;

/**
 * struct vseg_usage - usage counters of one segment
 * @committed: bytes allocated from the segment's manager.
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
 * @mem_type: the TTM memory type that stands for the segment.
 * @vram: memory segments: the buddy manager (owns the backing store).
 * @aperture: the aperture segment: the commit-limited GART manager.
 * @resident: bytes of buffers resident here (maintained by the BO layer).
 * @evicted: bytes of buffers evicted from here (maintained by the BO layer).
 */
struct vseg_segment {
	const struct vseg_segment_desc *desc;
	u32 mem_type;
	struct vseg_vram_mgr *vram;
	struct vseg_aperture_mgr *aperture;
	atomic64_t resident;
	atomic64_t evicted;
};

/**
 * struct vseg_device - a vseg GPU
 * @drm: the DRM device.
 * @bdev: the TTM device.
 * @table: the validated segment table.
 * @seg: runtime state, @seg[id - 1] for segment id.
 * @aperture_id: id of the aperture segment.
 * @system_resident: bytes of buffers resident in system memory (segment 0).
 * @mem_type_to_id: segment id of each TTM memory type (0 for system).
 * @bo_lock: protects @bos, @num_bos, @next_bo_id and each BO's state.
 * @bos: every live buffer, for debugfs.
 * @num_bos: number of buffers in @bos.
 * @next_bo_id: last buffer id handed out.
 * @paging: paging operations per segment id (0 = system).
 * @engine: the copy and render engines.
 * @display: the virtual display.
 */
struct vseg_device {
	struct drm_device drm;
	struct ttm_device bdev;
	struct vseg_segment_table table;
	struct vseg_segment seg[VSEG_MAX_SEGMENTS];
	u32 aperture_id;
	atomic64_t system_resident;
	u32 mem_type_to_id[TTM_NUM_MEM_TYPES];
	struct mutex bo_lock; /* see above */
	struct list_head bos;
	u64 num_bos;
	u64 next_bo_id;
	struct vseg_paging_counts paging[VSEG_MAX_SEGMENTS + 1];
	struct vseg_engine *engine[2];
	struct vseg_display *display;
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

#endif /* __VSEG_DRV_H__ */
