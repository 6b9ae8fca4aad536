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
#include <drm/drm_gem.h>
#include <drm/drm_vma_manager.h>

#include <uapi/drm/vseg_drm.h>
#include "vseg_bo.h"
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

static_assert(DRM_VSEG_GEM_CREATE_ACCESSED_PHYSICALLY ==
	      VSEG_BO_ACCESSED_PHYSICALLY);
static_assert(DRM_VSEG_GEM_CREATE_PRIMARY == VSEG_BO_PRIMARY);
static_assert(DRM_VSEG_GEM_CREATE_CPU_VISIBLE == VSEG_BO_CPU_VISIBLE);
static_assert(DRM_VSEG_GEM_CREATE_FROM_END_OF_SEGMENT == VSEG_BO_FROM_END);
static_assert(DRM_VSEG_MAX_PREFERRED == VSEG_BO_MAX_PREFERRED);
static_assert(DRM_VSEG_MAX_HINTED_BANKS == VSEG_BO_MAX_BANKS);

/**
 * vseg_ioctl_gem_create() - DRM_IOCTL_VSEG_GEM_CREATE
 * @drm: the device
 * @data: &struct drm_vseg_gem_create
 * @file: the caller
 *
 * Return: 0 or a negative error code, as the UAPI documents.
 */
int vseg_ioctl_gem_create(struct drm_device *drm, void *data,
			  struct drm_file *file)
{
	struct vseg_device *vdev = to_vseg(drm);
	struct drm_vseg_gem_create *args = data;
	struct vseg_bo_params p = {};
	struct vseg_bo *vbo;
	u64 real_size;
	u32 handle;
	unsigned int i;
	int err;

	if (args->extensions || args->handle ||
	    (args->flags & ~DRM_VSEG_GEM_CREATE_FLAGS_ALL) ||
	    !mbz(args->reserved, sizeof(args->reserved)))
		return -EINVAL;
	if (args->num_preferred > DRM_VSEG_MAX_PREFERRED ||
	    args->num_hinted_banks > DRM_VSEG_MAX_HINTED_BANKS)
		return -E2BIG;
	for (i = 0; i < DRM_VSEG_MAX_PREFERRED; i++) {
		const struct drm_vseg_segment_pref *pref = &args->preferred[i];

		if (i >= args->num_preferred) {
			if (pref->segment_id || pref->flags)
				return -EINVAL;
			continue;
		}
		if (pref->flags & ~DRM_VSEG_PREF_TOP_DOWN ||
		    pref->segment_id >= 32)
			return -EINVAL;
		p.pref_seg[i] = pref->segment_id;
		p.pref_topdown[i] = pref->flags & DRM_VSEG_PREF_TOP_DOWN;
	}
	for (i = 0; i < DRM_VSEG_MAX_HINTED_BANKS; i++) {
		if (i >= args->num_hinted_banks) {
			if (args->hinted_banks[i])
				return -EINVAL;
			continue;
		}
		p.banks[i] = args->hinted_banks[i];
	}
	p.size = args->size;
	p.alignment = args->alignment;
	p.flags = args->flags;
	p.supported = args->supported_segments;
	p.eviction = args->eviction_segments;
	p.num_preferred = args->num_preferred;
	p.num_banks = args->num_hinted_banks;

	err = vseg_bo_check_params(vdev, &p, &real_size);
	if (err)
		return err;
	p.size = real_size;

	err = vseg_bo_create(vdev, &p, &vbo);
	if (err)
		return err;
	err = drm_gem_handle_create(file, &vbo->tbo.base, &handle);
	drm_gem_object_put(&vbo->tbo.base);
	if (err)
		return err;

	args->handle = handle;
	args->size = real_size;
	return 0;
}

static struct vseg_bo *lookup_bo(struct drm_file *file, u32 handle)
{
	struct drm_gem_object *gem = drm_gem_object_lookup(file, handle);

	return gem ? gem_to_vseg_bo(gem) : NULL;
}

/**
 * vseg_ioctl_gem_info() - DRM_IOCTL_VSEG_GEM_INFO
 * @drm: the device
 * @data: &struct drm_vseg_gem_info
 * @file: the caller
 *
 * Return: 0, -EINVAL for bad arguments, -ENOENT for an unknown handle.
 */
int vseg_ioctl_gem_info(struct drm_device *drm, void *data,
			struct drm_file *file)
{
	struct vseg_device *vdev = to_vseg(drm);
	struct drm_vseg_gem_info *args = data;
	struct vseg_bo_state st;
	struct vseg_bo *vbo;
	u32 flags = 0;

	if (args->extensions || !mbz(args->reserved, sizeof(args->reserved)))
		return -EINVAL;
	vbo = lookup_bo(file, args->handle);
	if (!vbo)
		return -ENOENT;

	vseg_bo_get_state(vbo, &st);
	if (st.contiguous)
		flags |= DRM_VSEG_INFO_CONTIGUOUS;
	if (st.ap_mapped)
		flags |= DRM_VSEG_INFO_APERTURE_MAPPED;
	if (st.seg)
		flags |= DRM_VSEG_INFO_RESIDENT;
	if (READ_ONCE(vbo->tbo.pin_count))
		flags |= DRM_VSEG_INFO_PINNED;
	if (!dma_resv_lock_interruptible(vbo->tbo.base.resv, NULL)) {
		if (vseg_bo_cpu_accessible(vbo))
			flags |= DRM_VSEG_INFO_CPU_MAPPABLE;
		dma_resv_unlock(vbo->tbo.base.resv);
	}

	args->segment_id = st.seg;
	args->offset = st.offset;
	args->aperture_offset = st.ap_mapped ? st.ap_start : 0;
	args->size = vbo->tbo.base.size;
	args->resident_bytes = st.seg ? vbo->tbo.base.size : 0;
	args->placement_flags = flags;
	args->create_flags = vbo->params.flags;
	args->moves = st.moves;
	args->buffer_id = vbo->id;
	drm_gem_object_put(&vbo->tbo.base);
	(void)vdev;
	return 0;
}

/**
 * vseg_ioctl_gem_mmap_offset() - DRM_IOCTL_VSEG_GEM_MMAP_OFFSET
 * @drm: the device
 * @data: &struct drm_vseg_gem_mmap_offset
 * @file: the caller
 *
 * Return: 0, -EINVAL, -ENOENT, or -ENOMEM.
 */
int vseg_ioctl_gem_mmap_offset(struct drm_device *drm, void *data,
			       struct drm_file *file)
{
	struct drm_vseg_gem_mmap_offset *args = data;
	struct drm_gem_object *gem;
	int err;

	if (args->extensions || args->flags)
		return -EINVAL;
	gem = drm_gem_object_lookup(file, args->handle);
	if (!gem)
		return -ENOENT;
	err = drm_gem_create_mmap_offset(gem);
	if (!err)
		args->offset = drm_vma_node_offset_addr(&gem->vma_node);
	drm_gem_object_put(gem);
	return err;
}

static int residency(struct drm_file *file, struct drm_vseg_residency *args,
		     bool make_resident)
{
	u32 allowed = make_resident ? DRM_VSEG_RESIDENCY_PIN :
				      DRM_VSEG_RESIDENCY_UNPIN;
	struct vseg_bo **bos;
	u32 *handles;
	u32 i, n = 0;
	int err = 0;

	if (args->extensions || args->pad || (args->flags & ~allowed) ||
	    !mbz(args->reserved, sizeof(args->reserved)) || !args->count)
		return -EINVAL;
	if (args->count > DRM_VSEG_MAX_RESIDENCY_HANDLES)
		return -E2BIG;

	handles = kvmalloc_array(args->count, sizeof(*handles), GFP_KERNEL);
	bos = kvcalloc(args->count, sizeof(*bos), GFP_KERNEL);
	if (!handles || !bos) {
		err = -ENOMEM;
		goto out;
	}
	if (copy_from_user(handles, u64_to_user_ptr(args->handles),
			   args->count * sizeof(*handles))) {
		err = -EFAULT;
		goto out;
	}
	/* Check the whole list before moving anything. */
	for (n = 0; n < args->count; n++) {
		bos[n] = lookup_bo(file, handles[n]);
		if (!bos[n]) {
			err = -ENOENT;
			goto out;
		}
		if (!make_resident) {
			u32 pins = READ_ONCE(bos[n]->tbo.pin_count);

			if (args->flags & DRM_VSEG_RESIDENCY_UNPIN)
				err = !pins ? -EINVAL : pins > 1 ? -EBUSY : 0;
			else if (pins)
				err = -EBUSY;
			if (err) {
				n++;
				goto out;
			}
		}
	}
	args->processed = 0;
	for (i = 0; i < n; i++) {
		err = make_resident ?
		      vseg_bo_make_resident(bos[i],
					    args->flags & DRM_VSEG_RESIDENCY_PIN) :
		      vseg_bo_evict(bos[i],
				    args->flags & DRM_VSEG_RESIDENCY_UNPIN);
		if (err)
			break;
		args->processed++;
	}
out:
	while (n--)
		drm_gem_object_put(&bos[n]->tbo.base);
	kvfree(bos);
	kvfree(handles);
	return err;
}

/**
 * vseg_ioctl_make_resident() - DRM_IOCTL_VSEG_MAKE_RESIDENT
 * @drm: the device
 * @data: &struct drm_vseg_residency
 * @file: the caller
 *
 * Return: 0 or a negative error code, as the UAPI documents.
 */
int vseg_ioctl_make_resident(struct drm_device *drm, void *data,
			     struct drm_file *file)
{
	return residency(file, data, true);
}

/**
 * vseg_ioctl_evict() - DRM_IOCTL_VSEG_EVICT
 * @drm: the device
 * @data: &struct drm_vseg_residency
 * @file: the caller
 *
 * Return: 0 or a negative error code, as the UAPI documents.
 */
int vseg_ioctl_evict(struct drm_device *drm, void *data,
		     struct drm_file *file)
{
	return residency(file, data, false);
}
