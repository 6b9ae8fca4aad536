// SPDX-License-Identifier: GPL-2.0-only
/*
 * Copyright (c) 2026 The vseg authors
 *
 * DRM_IOCTL_VSEG_DEVICE_QUERY: each query builds its whole result in a
 * kernel buffer, then the ioctl copies the part the caller asked for.
 * Everything a query returns is what any client of the device may know:
 * the segment table and its usage totals, the engines, whether each head
 * is on, and limits.
 */

#include <linux/minmax.h>
#include <linux/mutex.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/uaccess.h>
#include <drm/drm_device.h>
#include <drm/drm_drv.h>
#include <drm/drm_file.h>
#include <uapi/drm/vseg_drm.h>

#include "vseg_budget.h"
#include "vseg_device_types.h"
#include "vseg_dmem.h"
#include "vseg_file.h"
#include "vseg_ioctl.h"
#include "vseg_ttm.h"
#include "vseg_vm.h"

static_assert(DRM_VSEG_BUDGET_GROUP_LOCAL == VSEG_BUDGET_LOCAL);
static_assert(DRM_VSEG_BUDGET_GROUP_NON_LOCAL == VSEG_BUDGET_NON_LOCAL);
static_assert(DRM_VSEG_BUDGET_NUM_GROUPS == VSEG_BUDGET_NUM_GROUPS);
static_assert(DRM_VSEG_ENGINE_COPY == VSEG_ENGINE_COPY);
static_assert(DRM_VSEG_ENGINE_RENDER == VSEG_ENGINE_RENDER);
static_assert(DRM_VSEG_ENGINE_PAGING == VSEG_ENGINE_PAGING);
static_assert(DRM_VSEG_NUM_HEADS == VSEG_NUM_HEADS);
static_assert(DRM_VSEG_MAX_VM_MAPPINGS == VSEG_VM_MAX_MAPPINGS);
/* Every result's array starts 64-bit aligned after its header. */
static_assert(sizeof(struct drm_vseg_query_segment_table) % 8 == 0);
static_assert(sizeof(struct drm_vseg_query_engines) % 8 == 0);
static_assert(sizeof(struct drm_vseg_query_heads) % 8 == 0);

/* A result: @len bytes at @buf, kmalloc'ed and zeroed. */
struct query_result {
	void *buf;
	size_t len;
};

static int result_alloc(struct query_result *r, size_t len)
{
	r->buf = kzalloc(len, GFP_KERNEL_ACCOUNT);
	r->len = len;
	return r->buf ? 0 : -ENOMEM;
}

static int query_version(struct vseg_device *vdev, struct query_result *r)
{
	const struct drm_driver *drv = vdev->drm.driver;
	struct drm_vseg_query_version *v;
	int err = result_alloc(r, sizeof(*v));

	if (err)
		return err;
	v = r->buf;
	v->major = drv->major;
	v->minor = drv->minor;
	v->patchlevel = drv->patchlevel;
	return 0;
}

static int query_segments(struct vseg_device *vdev, struct query_result *r)
{
	const struct vseg_segment_table *t = &vdev->table;
	struct drm_vseg_query_segment_table *h;
	struct drm_vseg_segment_info *info;
	struct vseg_usage u;
	unsigned int i;
	int err;

	err = result_alloc(r, sizeof(*h) + t->num_segments * sizeof(*info));
	if (err)
		return err;
	h = r->buf;
	info = (void *)(h + 1);
	h->num_segments = t->num_segments;
	h->segment_size = sizeof(*info);
	h->paging_buffer_segment_id = t->paging_buffer_segment_id;
	h->paging_buffer_size = t->paging_buffer_size;
	h->paging_buffer_private_data_size = t->paging_buffer_private_data_size;
	vseg_ttm_usage(vdev, 0, &u);
	vseg_usage_to_uapi(&u, &h->system_usage);
	for (i = 0; i < t->num_segments; i++)
		vseg_segment_to_uapi(vdev, &t->seg[i], &info[i]);
	return 0;
}

static int query_engines(struct vseg_device *vdev, struct query_result *r)
{
	struct drm_vseg_query_engines *h;
	struct drm_vseg_engine_info *e;
	unsigned int i;
	int err;

	err = result_alloc(r, sizeof(*h) + VSEG_NUM_ENGINES * sizeof(*e));
	if (err)
		return err;
	h = r->buf;
	e = (void *)(h + 1);
	h->num_engines = VSEG_NUM_ENGINES;
	h->engine_size = sizeof(*e);
	for (i = 0; i < VSEG_NUM_ENGINES; i++) {
		e[i].id = vdev->engine[i].id;
		switch (e[i].id) {
		case VSEG_ENGINE_COPY:
			e[i].flags = DRM_VSEG_ENGINE_INFO_PHYSICAL |
				     DRM_VSEG_ENGINE_INFO_SUBMIT;
			break;
		case VSEG_ENGINE_RENDER:
			e[i].flags = DRM_VSEG_ENGINE_INFO_VIRTUAL |
				     DRM_VSEG_ENGINE_INFO_SUBMIT;
			break;
		default:
			e[i].flags = DRM_VSEG_ENGINE_INFO_PHYSICAL;
			break;
		}
		strscpy(e[i].name, vdev->engine[i].name, sizeof(e[i].name));
	}
	return 0;
}

static int query_heads(struct vseg_device *vdev, struct query_result *r)
{
	struct drm_vseg_query_heads *h;
	struct drm_vseg_head_info *hi;
	unsigned int i;
	int err;

	err = result_alloc(r, sizeof(*h) + VSEG_NUM_HEADS * sizeof(*hi));
	if (err)
		return err;
	h = r->buf;
	hi = (void *)(h + 1);
	h->num_heads = VSEG_NUM_HEADS;
	h->head_size = sizeof(*hi);
	mutex_lock(&vdev->display.lock);
	for (i = 0; i < VSEG_NUM_HEADS; i++) {
		hi[i].id = i;
		hi[i].flags = vdev->display.kms[i].shown ?
			      DRM_VSEG_HEAD_ACTIVE : 0;
	}
	mutex_unlock(&vdev->display.lock);
	return 0;
}

static int query_limits(struct vseg_device *vdev, struct query_result *r)
{
	unsigned int pct[VSEG_LIMIT_NUM_SCOPES];
	struct drm_vseg_query_limits *l;
	int err = result_alloc(r, sizeof(*l));

	if (err)
		return err;
	l = r->buf;
	l->max_segments = DRM_VSEG_MAX_SEGMENTS;
	l->max_banks = DRM_VSEG_MAX_BANKS;
	l->max_invalid_ranges = DRM_VSEG_MAX_INVALID_RANGES;
	l->max_preferred = DRM_VSEG_MAX_PREFERRED;
	l->max_hinted_banks = DRM_VSEG_MAX_HINTED_BANKS;
	l->max_residency_handles = DRM_VSEG_MAX_RESIDENCY_HANDLES;
	l->max_cmd_bytes = DRM_VSEG_MAX_CMD_BYTES;
	l->max_allocations = DRM_VSEG_MAX_ALLOCATIONS;
	l->max_patches = DRM_VSEG_MAX_PATCHES;
	l->max_syncs = DRM_VSEG_MAX_SYNCS;
	l->max_jobs_in_flight = DRM_VSEG_MAX_JOBS_IN_FLIGHT;
	l->max_vm_mappings = DRM_VSEG_MAX_VM_MAPPINGS;
	l->max_extensions = DRM_VSEG_MAX_EXTENSIONS;
	l->num_heads = DRM_VSEG_NUM_HEADS;
	vseg_limits_pin_percents(pct);
	l->pin_limit_percent = pct[VSEG_LIMIT_PROCESS];
	l->pin_user_limit_percent = pct[VSEG_LIMIT_USER];
	l->pin_device_limit_percent = pct[VSEG_LIMIT_DEVICE];
	l->sync_size_max = DRM_VSEG_SYNC_SIZE_MAX;
	l->va_size = VSEG_VM_END;
	l->va_alignment = VSEG_VM_ALIGN;
	return 0;
}

/* The calling process's budgets (vseg_budget.c). */
static int query_budget(struct drm_file *file, struct query_result *r)
{
	struct vseg_file *vf = file->driver_priv;
	struct drm_vseg_query_budget *b;
	struct vseg_budget_info info;
	int err = result_alloc(r, sizeof(*b));
	u32 g;

	if (err)
		return err;
	b = r->buf;
	b->num_groups = DRM_VSEG_BUDGET_NUM_GROUPS;
	for (g = 0; g < DRM_VSEG_BUDGET_NUM_GROUPS; g++) {
		vseg_dmem_budget_query(vf->vdev, vf->limits, g, &info);
		b->groups[g].budget = info.budget;
		b->groups[g].current_usage = info.usage;
		b->groups[g].available_for_reservation = info.available;
		b->groups[g].current_reservation = info.reservation;
		b->groups[g].group_size = info.size;
	}
	return 0;
}

/*
 * The caller's @size bytes: ours first, zeros after them. @size is at
 * most DRM_VSEG_DEVICE_QUERY_SIZE_MAX.
 */
static int copy_result(const struct query_result *r, u64 uptr, u32 size)
{
	void __user *dst = u64_to_user_ptr(uptr);
	size_t n = min_t(size_t, size, r->len);

	if (copy_to_user(dst, r->buf, n))
		return -EFAULT;
	if (size > n && clear_user(dst + n, size - n))
		return -EFAULT;
	return 0;
}

/**
 * vseg_ioctl_device_query() - DRM_IOCTL_VSEG_DEVICE_QUERY
 * @drm: the device
 * @data: &struct drm_vseg_device_query, copied in and out by DRM
 * @file: the caller
 *
 * Return: 0, -EINVAL for an unknown query or nonzero reserved fields,
 * -E2BIG for a size above DRM_VSEG_DEVICE_QUERY_SIZE_MAX, -EFAULT for a bad data
 * pointer, -ENOMEM.
 */
int vseg_ioctl_device_query(struct drm_device *drm, void *data,
			    struct drm_file *file)
{
	struct vseg_device *vdev = to_vseg(drm);
	struct drm_vseg_device_query *q = data;
	struct query_result r = {};
	int err;

	if (q->extensions || q->flags || q->pad ||
	    memchr_inv(q->reserved, 0, sizeof(q->reserved)))
		return -EINVAL;
	switch (q->query) {
	case DRM_VSEG_DEVICE_QUERY_VERSION:
		err = query_version(vdev, &r);
		break;
	case DRM_VSEG_DEVICE_QUERY_SEGMENTS:
		err = query_segments(vdev, &r);
		break;
	case DRM_VSEG_DEVICE_QUERY_ENGINES:
		err = query_engines(vdev, &r);
		break;
	case DRM_VSEG_DEVICE_QUERY_HEADS:
		err = query_heads(vdev, &r);
		break;
	case DRM_VSEG_DEVICE_QUERY_LIMITS:
		err = query_limits(vdev, &r);
		break;
	case DRM_VSEG_DEVICE_QUERY_BUDGET:
		err = query_budget(file, &r);
		break;
	default:
		return -EINVAL;
	}
	if (err)
		return err;
	if (q->size > DRM_VSEG_DEVICE_QUERY_SIZE_MAX)
		err = -E2BIG;
	else if (q->size)
		err = copy_result(&r, q->data, q->size);
	/* DRM copies the struct back even on error: write it only now. */
	if (!err)
		q->size = r.len;
	kfree(r.buf);
	return err;
}

/**
 * vseg_ioctl_set_reservation() - DRM_IOCTL_VSEG_SET_RESERVATION
 * @drm: the device
 * @data: &struct drm_vseg_set_reservation
 * @file: the caller; the reservation is its process's
 *
 * Return: 0, -EINVAL for an unknown group or nonzero reserved fields,
 * -ENOSPC above AvailableForReservation; on error nothing changes.
 */
int vseg_ioctl_set_reservation(struct drm_device *drm, void *data,
			       struct drm_file *file)
{
	struct vseg_file *vf = file->driver_priv;
	struct drm_vseg_set_reservation *a = data;
	struct vseg_budget_info info;

	if (a->extensions || a->flags ||
	    memchr_inv(a->reserved, 0, sizeof(a->reserved)) ||
	    a->group >= DRM_VSEG_BUDGET_NUM_GROUPS)
		return -EINVAL;
	/* Never more than the process's dmem cgroup lets it hold. */
	vseg_dmem_budget_query(vf->vdev, vf->limits, a->group, &info);
	if (a->reservation > info.available)
		return -ENOSPC;
	return vseg_budget_set_reservation(vf->limits, a->group,
					   a->reservation);
}

/**
 * vseg_ioctl_budget_notify() - DRM_IOCTL_VSEG_BUDGET_NOTIFY
 * @drm: the device
 * @data: &struct drm_vseg_budget_notify
 * @file: the caller, which gets the event
 *
 * Return: 0, -EINVAL for nonzero reserved fields, -EBUSY if the file
 * waits already, -ENOMEM.
 */
int vseg_ioctl_budget_notify(struct drm_device *drm, void *data,
			     struct drm_file *file)
{
	struct vseg_file *vf = file->driver_priv;
	struct drm_vseg_budget_notify *a = data;

	if (a->extensions || a->flags || a->pad ||
	    memchr_inv(a->reserved, 0, sizeof(a->reserved)))
		return -EINVAL;
	return vseg_budget_notify(vf->limits, file, a->user_data);
}
