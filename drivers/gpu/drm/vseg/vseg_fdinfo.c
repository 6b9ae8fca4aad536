// SPDX-License-Identifier: GPL-2.0-only
/*
 * Copyright (c) 2026 The vseg authors
 *
 * fdinfo: what one file holds in each segment and what its work cost each
 * engine, in the keys of Documentation/gpu/drm-usage-stats.rst, readable
 * by the file's owner in /proc/<pid>/fdinfo/<fd> (WDDM's per-process
 * segment usage). Only the buffers the file has handles of are counted.
 */

#include <linux/dma-resv.h>
#include <linux/idr.h>
#include <linux/minmax.h>
#include <linux/slab.h>
#include <linux/spinlock.h>
#include <drm/drm_file.h>
#include <drm/drm_gem.h>
#include <drm/drm_print.h>

#include "vseg_bo.h"
#include "vseg_budget.h"
#include "vseg_compat.h"
#include "vseg_device_types.h"
#include "vseg_client_stats.h"
#include "vseg_fdinfo.h"
#include "vseg_file.h"
#include "vseg_gem.h"

/* What of one file's buffers is in one segment. */
struct seg_bytes {
	struct drm_memory_stats mem;
	u64 evicted;
};

static void count_buffers(struct drm_file *file, struct seg_bytes *b, u32 n)
{
	struct drm_gem_object *obj;
	int handle;

	spin_lock(&file->table_lock);
	idr_for_each_entry(&file->object_idr, obj, handle) {
		enum drm_gem_object_status st;
		struct drm_memory_stats *m;
		struct vseg_bo *vbo;
		u32 seg, from;

		if (!vseg_gem_is_vseg(obj))
			continue;
		vbo = gem_to_vseg_bo(obj);
		/* Snapshots, without the locks that keep them exact. */
		seg = READ_ONCE(vbo->accounted_seg);
		from = READ_ONCE(vbo->evicted_from);
		if (from && from <= n)
			b[from].evicted += obj->size;
		if (seg > n)
			continue;
		m = &b[seg].mem;
		if (READ_ONCE(obj->handle_count) > 1 || READ_ONCE(obj->dma_buf))
			m->shared += obj->size;
		else
			m->private += obj->size;
		st = vseg_gem_status(obj);
		if (st & DRM_GEM_OBJECT_RESIDENT)
			m->resident += obj->size;
		if (st & DRM_GEM_OBJECT_PURGEABLE)
			m->purgeable += obj->size;
		if ((st & DRM_GEM_OBJECT_RESIDENT) &&
		    !dma_resv_test_signaled(obj->resv, DMA_RESV_USAGE_BOOKKEEP))
			m->active += obj->size;
	}
	spin_unlock(&file->table_lock);
}

static const char * const engine_keys[VSEG_NUM_ENGINES] = {
	[VSEG_ENGINE_COPY] = "copy",
	[VSEG_ENGINE_RENDER] = "render",
	[VSEG_ENGINE_PAGING] = "paging",
};

/**
 * vseg_show_fdinfo() - the vseg keys of a file's fdinfo
 * @p: where to print
 * @file: the file
 *
 * Per segment (system memory as "system", the others by their names in
 * the segment table), through DRM's memory-stats helper: drm-total (the
 * file's buffers placed there), drm-shared (those with handles in other
 * files or exported), drm-resident (those whose memory is committed: all
 * of them in a memory segment or the aperture, those with pages in system
 * memory), drm-purgeable (offered ones, DRM_IOCTL_VSEG_OFFER), drm-active
 * (resident ones a job or move still uses); and vseg-evicted (bytes of the
 * file's buffers evicted from there, living elsewhere). Per engine: drm-engine-<name>, the time
 * it spent on the file's work. vseg-paging-penalty: the time the file's
 * process waited for paging it caused over its budget (vseg_budget_paged()).
 */
void vseg_show_fdinfo(struct drm_printer *p, struct drm_file *file)
{
	struct vseg_file *vf = file->driver_priv;
	struct vseg_device *vdev = vf->vdev;
	u32 n = vdev->table.num_segments, i;
	struct seg_bytes b[VSEG_MAX_SEGMENTS + 1] = {};

	count_buffers(file, b, n);
	for (i = 0; i <= n; i++) {
		const char *name = i ? vseg_seg(vdev, i)->desc->name : "system";

		drm_print_memory_stats(p, &b[i].mem,
				       DRM_GEM_OBJECT_RESIDENT |
				       DRM_GEM_OBJECT_PURGEABLE |
				       VSEG_DRM_GEM_OBJECT_ACTIVE, name);
		drm_printf(p, "vseg-evicted-%s:\t%llu\n", name, b[i].evicted);
	}
	for (i = 0; i < VSEG_NUM_ENGINES; i++)
		drm_printf(p, "drm-engine-%s:\t%llu ns\n", engine_keys[i],
			   (u64)atomic64_read(&vf->stats->busy_ns[i]));
	drm_printf(p, "vseg-paging-penalty:\t%llu ns\n",
		   vseg_budget_penalty(vf->limits));
}
