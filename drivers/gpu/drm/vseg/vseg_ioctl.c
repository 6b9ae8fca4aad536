// SPDX-License-Identifier: GPL-2.0-only
/*
 * Copyright (c) 2026 The vseg authors
 *
 * The UAPI: argument checking and translation between the ioctl
 * structures of vseg_drm.h and the driver's own.
 */

#include <linux/build_bug.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/uaccess.h>
#include <drm/drm_device.h>
#include <drm/drm_file.h>

#include <uapi/drm/vseg_drm.h>
#include "vseg_drv.h"
#include "vseg_ioctl.h"
#include "vseg_ttm.h"

/* The segment layer's flags are DXGK_SEGMENTFLAGS, as are the UAPI's. */
static_assert(VSEG_SEGF_APERTURE == DRM_VSEG_SEGMENT_APERTURE);
static_assert(VSEG_SEGF_CPU_VISIBLE == DRM_VSEG_SEGMENT_CPU_VISIBLE);
static_assert(VSEG_SEGF_USE_64KB_PAGES == DRM_VSEG_SEGMENT_USE_64KB_PAGES);
static_assert(VSEG_SEGF_NON_LOCAL_BUDGET_GROUP ==
	      DRM_VSEG_SEGMENT_NON_LOCAL_BUDGET_GROUP);
static_assert(VSEG_SEGF_ALL == DRM_VSEG_SEGMENT_FLAGS_ALL);
static_assert(VSEG_MAX_SEGMENTS == DRM_VSEG_MAX_SEGMENTS);
static_assert(VSEG_MAX_BANKS == DRM_VSEG_MAX_BANKS);
static_assert(VSEG_MAX_INVALID_RANGES == DRM_VSEG_MAX_INVALID_RANGES);
static_assert(sizeof_field(struct drm_vseg_segment_info, name) == VSEG_NAME_LEN);

static bool mbz(const void *p, size_t len)
{
	return !memchr_inv(p, 0, len);
}

static void usage_to_uapi(const struct vseg_usage *u,
			  struct drm_vseg_segment_usage *out)
{
	out->committed = u->committed;
	out->resident = u->resident;
	out->evicted = u->evicted;
	out->aperture_mapped = u->aperture_mapped;
}

static void segment_to_uapi(struct vseg_device *vdev,
			    const struct vseg_segment_desc *d,
			    struct drm_vseg_segment_info *out)
{
	struct vseg_usage u;
	unsigned int i;

	out->id = d->id;
	out->kind = d->kind == VSEG_SEGMENT_APERTURE ?
		    DRM_VSEG_SEGMENT_KIND_APERTURE : DRM_VSEG_SEGMENT_KIND_MEMORY;
	out->flags = d->flags;
	out->base_address = d->base_address;
	out->cpu_translated_address = d->cpu_translated_address;
	out->size = d->size;
	out->cpu_visible_size = d->cpu_visible_size;
	out->commit_limit = d->commit_limit;
	out->system_memory_end_address = d->system_memory_end;
	out->page_size = d->page_size;
	out->num_banks = d->num_banks;
	for (i = 0; i < d->num_banks; i++)
		out->bank_end[i] = d->bank_end[i];
	out->num_invalid_ranges = d->num_invalid;
	for (i = 0; i < d->num_invalid; i++) {
		out->invalid_ranges[i].start = d->invalid[i].start;
		out->invalid_ranges[i].size = d->invalid[i].size;
	}
	strscpy(out->name, d->name, sizeof(out->name));
	vseg_ttm_usage(vdev, d->id, &u);
	usage_to_uapi(&u, &out->usage);
}

/**
 * vseg_ioctl_query_segments() - DRM_IOCTL_VSEG_QUERY_SEGMENTS
 * @drm: the device
 * @data: &struct drm_vseg_query_segments, copied in and out by DRM
 * @file: the caller
 *
 * Return: 0, -EINVAL for bad arguments, -EFAULT for a bad array pointer,
 * -ENOMEM.
 */
int vseg_ioctl_query_segments(struct drm_device *drm, void *data,
			      struct drm_file *file)
{
	struct vseg_device *vdev = to_vseg(drm);
	struct drm_vseg_query_segments *q = data;
	const struct vseg_segment_table *t = &vdev->table;
	struct drm_vseg_segment_info *info;
	struct vseg_usage u;
	unsigned int i;
	int err = 0;

	if (q->extensions || q->flags || q->pad || q->pad2 ||
	    !mbz(q->reserved, sizeof(q->reserved)))
		return -EINVAL;
	if (q->num_segments && !q->segments)
		return -EINVAL;
	if (q->num_segments && q->num_segments < t->num_segments)
		return -EINVAL;
	if (q->num_segments && q->segment_size != sizeof(*info))
		return -EINVAL;

	if (q->num_segments) {
		info = kcalloc(t->num_segments, sizeof(*info), GFP_KERNEL);
		if (!info)
			return -ENOMEM;
		for (i = 0; i < t->num_segments; i++)
			segment_to_uapi(vdev, &t->seg[i], &info[i]);
		if (copy_to_user(u64_to_user_ptr(q->segments), info,
				 t->num_segments * sizeof(*info)))
			err = -EFAULT;
		kfree(info);
		if (err)
			return err;
	}

	/* DRM copies the struct back even on error: write it only now. */
	q->num_segments = t->num_segments;
	q->segment_size = sizeof(*info);
	q->paging_buffer_segment_id = t->paging_buffer_segment_id;
	q->paging_buffer_size = t->paging_buffer_size;
	q->paging_buffer_private_data_size = t->paging_buffer_private_data_size;
	vseg_ttm_usage(vdev, 0, &u);
	memset(&q->system_usage, 0, sizeof(q->system_usage));
	usage_to_uapi(&u, &q->system_usage);
	return 0;
}
