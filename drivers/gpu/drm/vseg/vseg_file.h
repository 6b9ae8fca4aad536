/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Copyright (c) 2026 The vseg authors
 */
#ifndef __VSEG_FILE_H__
#define __VSEG_FILE_H__

#include <linux/mutex.h>
#include <linux/types.h>
#include <linux/xarray.h>

#include "vseg_engine.h"
#include "vseg_segment.h"
#include "vseg_vm.h"

struct dma_fence;
struct drm_file;
struct drm_gem_object;
struct vseg_bo;
struct vseg_client_stats;
struct vseg_device;
struct vseg_limits_client;

/* Jobs one file may have queued before SUBMIT waits for the oldest. */
#define VSEG_FILE_MAX_JOBS	64

/**
 * struct vseg_file - per open file state
 * @vdev: the device.
 * @client_id: the file's id for fdinfo where DRM has none (6.1).
 * @stats: the time each engine spent on the file's work (fdinfo).
 * @vm: the file's GPU virtual address space.
 * @limits: where the file's charges go: the process and the user that
 *	opened it, and the device (vseg_limits.c).
 * @pin_lock: protects @pins; taken before any reservation.
 * @pins: &struct vseg_file_pin of each buffer the file pinned, by buffer id;
 *	each pin is charged to @limits.
 * @submit_lock: serializes the file's submissions; protects @inflight,
 *	@next and @last.
 * @inflight: the fences of the file's last VSEG_FILE_MAX_JOBS jobs, a ring.
 * @next: the ring's oldest entry, the next one to be replaced.
 * @last: the fence of the file's last job on each engine: the next job on
 *	that engine runs after it.
 */
struct vseg_file {
	struct vseg_device *vdev;
	u64 client_id;
	struct vseg_client_stats *stats;
	struct vseg_vm vm;
	struct vseg_limits_client *limits;
	struct mutex pin_lock; /* see above */
	struct xarray pins;
	struct mutex submit_lock; /* see above */
	struct dma_fence *inflight[VSEG_FILE_MAX_JOBS];
	u32 next;
	struct dma_fence *last[VSEG_NUM_USER_ENGINES];
};

int vseg_file_init(struct vseg_file *vf, struct vseg_device *vdev);
void vseg_file_fini(struct vseg_file *vf);
void vseg_file_limits_init(struct vseg_device *vdev);
int vseg_file_make_resident(struct vseg_file *vf, struct vseg_bo **bos,
			    u32 n, bool pin, u32 *done);
int vseg_file_can_unpin(struct vseg_file *vf, struct vseg_bo *vbo,
			u32 times);
int vseg_file_unpin_evict(struct vseg_file *vf, struct vseg_bo *vbo,
			  bool discard);
void vseg_file_gem_close(struct drm_gem_object *obj, struct drm_file *file);
int vseg_file_throttle(struct vseg_file *vf, u32 engine,
		       struct dma_fence **after);
void vseg_file_unthrottle(struct vseg_file *vf, u32 engine,
			  struct dma_fence *fence);

#endif /* __VSEG_FILE_H__ */
