/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Copyright (c) 2026 The vseg authors
 */
#ifndef __VSEG_FILE_TYPES_H__
#define __VSEG_FILE_TYPES_H__

#include <linux/mutex.h>
#include <linux/types.h>
#include <linux/xarray.h>
#include <drm/drm_file.h>
#include <drm/gpu_scheduler.h>

#include "vseg_engine_types.h"

struct dma_fence;
struct vseg_client_stats;
struct vseg_device;
struct vseg_limits_client;
struct vseg_vm;

/**
 * struct vseg_file - per open file state
 * @vdev: the device.
 * @client_id: the file's id while vseg is loaded: the owner of the
 *	buffers it creates.
 * @stats: the time each engine spent on the file's work (fdinfo).
 * @vm: the file's GPU virtual address space, a reference.
 * @limits: where the file's charges go: the process and the user that
 *	opened it, and the device (vseg_limits.c).
 * @pin_lock: protects @pins; taken before any reservation.
 * @pins: &struct vseg_file_pin of each buffer the file pinned, by buffer id;
 *	each pin is charged to @limits.
 * @entity: the file's scheduler entity on each user engine: its jobs on
 *	an engine run, and their fences signal, in the order they were
 *	queued.
 * @push_lock: serializes arming and queueing the file's jobs, so that
 *	each entity's fences are queued in seqno order; never held while
 *	allocating or waiting. Protects @last.
 * @last: the fence of the file's last job on each user engine (a
 *	reference), or NULL: when it signals, all of them have.
 */
struct vseg_file {
	struct vseg_device *vdev;
	u64 client_id;
	struct vseg_client_stats *stats;
	struct vseg_vm *vm;
	struct vseg_limits_client *limits;
	struct mutex pin_lock; /* see above */
	struct xarray pins;
	struct drm_sched_entity entity[VSEG_NUM_USER_ENGINES];
	struct mutex push_lock; /* see above */
	struct dma_fence *last[VSEG_NUM_USER_ENGINES];
};

/**
 * vseg_file_client_id() - the DRM client id of a file
 * @file: the file
 *
 * Return: the id fdinfo shows as drm-client-id.
 */
static inline u64 vseg_file_client_id(struct drm_file *file)
{
	return file->client_id;
}

#endif /* __VSEG_FILE_TYPES_H__ */
