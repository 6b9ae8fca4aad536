// SPDX-License-Identifier: GPL-2.0-only
/*
 * Copyright (c) 2026 The vseg authors
 *
 * The UAPI: argument checking and translation between the ioctl
 * structures of vseg_drm.h and the driver's own.
 */

#include <linux/build_bug.h>
#include <linux/dma-fence-unwrap.h>
#include <linux/stddef.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/uaccess.h>
#include <drm/drm_device.h>
#include <drm/drm_exec.h>
#include <drm/drm_file.h>
#include <drm/drm_gem.h>
#include <drm/drm_syncobj.h>
#include <drm/drm_vma_manager.h>

#include <uapi/drm/vseg_drm.h>
#include "vseg_bo.h"
#include "vseg_budget.h"
#include "vseg_display.h"
#include "vseg_dmem.h"
#include "vseg_ext.h"
#include "vseg_vm.h"
#include "vseg_device_types.h"
#include "vseg_file.h"
#include "vseg_gem.h"
#include "vseg_host_aperture.h"
#include "vseg_ioctl.h"
#include "vseg_phys.h"
#include "vseg_pm.h"
#include "vseg_syncs.h"
#include "vseg_trace.h"
#include "vseg_ttm.h"
#include "vseg_vram_mgr.h"

/* The segment layer's flags are DXGK_SEGMENTFLAGS, as are the UAPI's. */
static_assert(VSEG_SEGF_APERTURE == DRM_VSEG_SEGMENT_APERTURE);
static_assert(VSEG_SEGF_CPU_VISIBLE == DRM_VSEG_SEGMENT_CPU_VISIBLE);
static_assert(VSEG_SEGF_USE_64KB_PAGES == DRM_VSEG_SEGMENT_USE_64KB_PAGES);
static_assert(VSEG_SEGF_NON_LOCAL_BUDGET_GROUP ==
	      DRM_VSEG_SEGMENT_NON_LOCAL_BUDGET_GROUP);
static_assert(VSEG_SEGF_ALL ==
	      (DRM_VSEG_SEGMENT_POPULATED_BY_RESERVED_DDR_BY_FIRMWARE << 1) - 1);
static_assert(VSEG_MAX_SEGMENTS == DRM_VSEG_MAX_SEGMENTS);
static_assert(VSEG_MAX_BANKS == DRM_VSEG_MAX_BANKS);
static_assert(VSEG_MAX_INVALID_RANGES == DRM_VSEG_MAX_INVALID_RANGES);
static_assert(sizeof(struct drm_vseg_sync) == DRM_VSEG_SYNC_SIZE_V1);
static_assert(sizeof_field(struct drm_vseg_segment_info, name) == VSEG_NAME_LEN);
/* The first version ends with its reserved words; later ones only grow. */
static_assert(offsetofend(struct drm_vseg_segment_info, reserved) ==
	      DRM_VSEG_SEGMENT_INFO_SIZE_V1);
static_assert(offsetofend(struct drm_vseg_segment_info, power) ==
	      DRM_VSEG_SEGMENT_INFO_SIZE_V2);
static_assert(offsetofend(struct drm_vseg_segment_info, reserved2) ==
	      DRM_VSEG_SEGMENT_INFO_SIZE_V3);
static_assert(sizeof(struct drm_vseg_segment_info) >=
	      DRM_VSEG_SEGMENT_INFO_SIZE_V3);
static_assert(VSEG_MAX_UEFI_RANGES == DRM_VSEG_MAX_UEFI_RANGES);
static_assert(sizeof(struct drm_vseg_segment_info) <=
	      DRM_VSEG_SEGMENT_INFO_SIZE_MAX);

static bool mbz(const void *p, size_t len)
{
	return !memchr_inv(p, 0, len);
}

/**
 * vseg_usage_to_uapi() - a segment's usage as the UAPI gives it
 * @u: the usage
 * @out: receives it; its reserved words are left as they are
 */
void vseg_usage_to_uapi(const struct vseg_usage *u,
			struct drm_vseg_segment_usage *out)
{
	out->committed = u->committed;
	out->resident = u->resident;
	out->evicted = u->evicted;
	out->aperture_mapped = u->aperture_mapped;
}

static void power_to_uapi(struct vseg_device *vdev, u32 id,
			  struct drm_vseg_segment_power *out)
{
	struct vseg_pm_counts c;
	enum vseg_pm_kind last;

	vseg_pm_counts_get(vdev, id, &c, &last);
	out->transition = last == VSEG_PM_STANDBY ? DRM_VSEG_POWER_STANDBY :
			  last == VSEG_PM_HIBERNATE ? DRM_VSEG_POWER_HIBERNATE :
			  DRM_VSEG_POWER_NONE;
	out->evicted = c.evicted;
	out->evicted_bytes = c.evicted_bytes;
	out->saved = c.saved;
	out->saved_bytes = c.saved_bytes;
	out->poisoned_bytes = c.poisoned_bytes;
}

static void ranges_to_uapi(const struct vseg_range *r, u32 n,
			   struct drm_vseg_range *out)
{
	u32 i;

	for (i = 0; i < n; i++) {
		out[i].start = r[i].start;
		out[i].size = r[i].size;
	}
}

/*
 * The invalid ranges now (a memory segment's change at run time, see
 * vseg_ranges.c) and the UEFI frame buffers the firmware still holds, each
 * list read in one piece.
 */
static void vseg_segment_ranges_to_uapi(struct vseg_device *vdev,
					const struct vseg_segment_desc *d,
					struct drm_vseg_segment_info *out)
{
	struct vseg_range r[VSEG_MAX_INVALID_RANGES];
	struct vseg_range u[VSEG_MAX_UEFI_RANGES];
	u32 n = d->num_invalid, nu = 0;

	if (d->kind == VSEG_SEGMENT_MEMORY) {
		n = vseg_vram_mgr_invalid(vseg_vram(vdev, d->id), r);
		nu = vseg_vram_mgr_uefi(vseg_vram(vdev, d->id), u);
	} else {
		memcpy(r, d->invalid, n * sizeof(*r));
	}
	out->num_invalid_ranges = n;
	ranges_to_uapi(r, n, out->invalid_ranges);
	out->num_uefi_frame_buffer_ranges = nu;
	ranges_to_uapi(u, nu, out->uefi_frame_buffer_ranges);
}

/**
 * vseg_segment_to_uapi() - one segment of the table, with its usage
 * @vdev: the device
 * @d: the segment
 * @out: receives it; must be zeroed by the caller
 */
void vseg_segment_to_uapi(struct vseg_device *vdev,
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
	vseg_segment_ranges_to_uapi(vdev, d, out);
	out->cpu_host_aperture_address = d->host_aperture_address;
	out->cpu_host_aperture_size = d->host_aperture_size;
	out->vpr_range_start_offset = d->vpr_start;
	out->vpr_range_size = d->vpr_size;
	out->vpr_alignment = d->vpr_alignment;
	out->num_vpr_supported = d->num_vpr_supported;
	out->vpr_reserve_size = d->vpr_reserve_size;
	strscpy(out->name, d->name, sizeof(out->name));
	vseg_ttm_usage(vdev, d->id, &u);
	vseg_usage_to_uapi(&u, &out->usage);
	power_to_uapi(vdev, d->id, &out->power);
}

/*
 * The table as the caller's array: element i at i * @stride, the first
 * min(@stride, our size) bytes of it ours, the rest zero. @stride is
 * DRM_VSEG_SEGMENT_INFO_SIZE_V1..DRM_VSEG_SEGMENT_INFO_SIZE_MAX, so the
 * whole array is at most a few pages.
 */
static int query_copy_segments(struct vseg_device *vdev, u64 uptr, u32 stride)
{
	const struct vseg_segment_table *t = &vdev->table;
	size_t n = t->num_segments, len = n * stride;
	struct drm_vseg_segment_info info;
	void __user *dst = u64_to_user_ptr(uptr);
	unsigned int i;
	u8 *buf;
	int err = 0;

	if (uptr + len < uptr || !access_ok(dst, len))
		return -EFAULT;
	buf = kzalloc(len, GFP_KERNEL);
	if (!buf)
		return -ENOMEM;
	for (i = 0; i < n; i++) {
		memset(&info, 0, sizeof(info));
		vseg_segment_to_uapi(vdev, &t->seg[i], &info);
		memcpy(buf + i * stride, &info,
		       min_t(size_t, stride, sizeof(info)));
	}
	if (copy_to_user(dst, buf, len))
		err = -EFAULT;
	kfree(buf);
	return err;
}

/**
 * vseg_ioctl_query_segments() - DRM_IOCTL_VSEG_QUERY_SEGMENTS
 * @drm: the device
 * @data: &struct drm_vseg_query_segments, copied in and out by DRM
 * @file: the caller
 *
 * The fill call takes any element size (the caller's array stride) from
 * DRM_VSEG_SEGMENT_INFO_SIZE_V1 to DRM_VSEG_SEGMENT_INFO_SIZE_MAX: see the
 * UAPI.
 *
 * Return: 0, -EINVAL for bad arguments, -E2BIG for an element size above
 * DRM_VSEG_SEGMENT_INFO_SIZE_MAX, -EFAULT for a bad array pointer,
 * -ENOMEM.
 */
int vseg_ioctl_query_segments(struct drm_device *drm, void *data,
			      struct drm_file *file)
{
	struct vseg_device *vdev = to_vseg(drm);
	struct drm_vseg_query_segments *q = data;
	const struct vseg_segment_table *t = &vdev->table;
	struct vseg_usage u;
	int err;

	if (q->extensions || q->flags || q->pad || q->pad2 ||
	    !mbz(q->reserved, sizeof(q->reserved)))
		return -EINVAL;
	if (q->num_segments && !q->segments)
		return -EINVAL;
	if (q->num_segments && q->num_segments < t->num_segments)
		return -EINVAL;
	if (q->num_segments &&
	    q->segment_size < DRM_VSEG_SEGMENT_INFO_SIZE_V1)
		return -EINVAL;
	if (q->num_segments &&
	    q->segment_size > DRM_VSEG_SEGMENT_INFO_SIZE_MAX)
		return -E2BIG;

	if (q->num_segments) {
		err = query_copy_segments(vdev, q->segments, q->segment_size);
		if (err)
			return err;
	}

	/* DRM copies the struct back even on error: write it only now. */
	q->num_segments = t->num_segments;
	q->segment_size = sizeof(struct drm_vseg_segment_info);
	q->paging_buffer_segment_id = t->paging_buffer_segment_id;
	q->paging_buffer_size = t->paging_buffer_size;
	q->paging_buffer_private_data_size = t->paging_buffer_private_data_size;
	vseg_ttm_usage(vdev, 0, &u);
	memset(&q->system_usage, 0, sizeof(q->system_usage));
	vseg_usage_to_uapi(&u, &q->system_usage);
	return 0;
}

static_assert(DRM_VSEG_GEM_CREATE_ACCESSED_PHYSICALLY ==
	      VSEG_BO_ACCESSED_PHYSICALLY);
static_assert(DRM_VSEG_GEM_CREATE_PRIMARY == VSEG_BO_PRIMARY);
static_assert(DRM_VSEG_GEM_CREATE_CPU_VISIBLE == VSEG_BO_CPU_VISIBLE);
static_assert(DRM_VSEG_GEM_CREATE_FROM_END_OF_SEGMENT == VSEG_BO_FROM_END);
static_assert(DRM_VSEG_GEM_CREATE_PROTECTED == VSEG_BO_PROTECTED);
static_assert(DRM_VSEG_GEM_CREATE_VM_PRIVATE == VSEG_BO_VM_PRIVATE);
static_assert(DRM_VSEG_MAX_PREFERRED == VSEG_BO_MAX_PREFERRED);
static_assert(DRM_VSEG_MAX_HINTED_BANKS == VSEG_BO_MAX_BANKS);
static_assert(DRM_VSEG_LABEL_LEN == VSEG_BO_LABEL_LEN);

/* The creation flags this driver knows. */
#define VSEG_GEM_CREATE_FLAGS_ALL \
	(DRM_VSEG_GEM_CREATE_ACCESSED_PHYSICALLY | DRM_VSEG_GEM_CREATE_PRIMARY | \
	 DRM_VSEG_GEM_CREATE_CPU_VISIBLE | \
	 DRM_VSEG_GEM_CREATE_FROM_END_OF_SEGMENT | \
	 DRM_VSEG_GEM_CREATE_PROTECTED | DRM_VSEG_GEM_CREATE_VM_PRIVATE)

/*
 * DRM_VSEG_GEM_CREATE_EXT_LABEL: printable ASCII but space, then zeros,
 * so that the label is one word of debugfs's "key=value" lines.
 */
static int create_ext_label(u64 ext, void *data)
{
	struct drm_vseg_gem_create_ext_label l;
	struct vseg_bo_params *p = data;
	size_t len;

	if (copy_from_user(&l, u64_to_user_ptr(ext), sizeof(l)))
		return -EFAULT;
	len = strnlen(l.label, sizeof(l.label));
	if (!len || len == sizeof(l.label) ||
	    !mbz(l.label + len, sizeof(l.label) - len))
		return -EINVAL;
	while (len--)
		if (l.label[len] <= ' ' || l.label[len] > '~')
			return -EINVAL;
	memcpy(p->label, l.label, sizeof(p->label));
	return 0;
}

/* DRM_VSEG_GEM_CREATE_EXT_PRIORITY: any priority but 0. */
static int create_ext_priority(u64 ext, void *data)
{
	struct drm_vseg_gem_create_ext_priority e;
	struct vseg_bo_params *p = data;

	if (copy_from_user(&e, u64_to_user_ptr(ext), sizeof(e)))
		return -EFAULT;
	if (!e.priority || e.pad)
		return -EINVAL;
	p->priority = e.priority;
	return 0;
}

static const struct vseg_ext_handler gem_create_exts[] = {
	{ DRM_VSEG_GEM_CREATE_EXT_LABEL, create_ext_label },
	{ DRM_VSEG_GEM_CREATE_EXT_PRIORITY, create_ext_priority },
};

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
	u64 real_size;
	u32 handle;
	unsigned int i;
	int err;

	if (args->handle || (args->flags & ~VSEG_GEM_CREATE_FLAGS_ALL) ||
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
	/* Segment 0 is not the client's to name (-EINVAL). */
	err = vseg_place_client_sets(&vdev->layout, &p);
	if (err)
		return err;

	err = vseg_ext_walk(args->extensions, gem_create_exts,
			    ARRAY_SIZE(gem_create_exts), &p);
	if (err)
		return err;
	err = vseg_bo_check_params(vdev, &p, &real_size);
	if (err)
		return err;
	p.size = real_size;

	err = vseg_gem_create(vdev, &p, file, &handle);
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
 * vseg_ioctl_set_priority() - DRM_IOCTL_VSEG_SET_PRIORITY
 * @drm: the device
 * @data: &struct drm_vseg_set_priority
 * @file: the caller
 *
 * Return: 0, -EINVAL for bad arguments, -ENOENT for an unknown handle;
 * nothing changes on error.
 */
int vseg_ioctl_set_priority(struct drm_device *drm, void *data,
			    struct drm_file *file)
{
	struct drm_vseg_set_priority *args = data;
	struct vseg_bo *vbo;
	int err;

	if (args->extensions || args->flags || args->pad || !args->priority ||
	    !mbz(args->reserved, sizeof(args->reserved)))
		return -EINVAL;
	vbo = lookup_bo(file, args->handle);
	if (!vbo)
		return -ENOENT;
	err = vseg_bo_set_priority(vbo, args->priority);
	drm_gem_object_put(&vbo->tbo.base);
	return err;
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
		if (vseg_bo_cpu_accessible(vbo) && !vseg_bo_is_imported(vbo))
			flags |= DRM_VSEG_INFO_CPU_MAPPABLE;
		if (vbo->content_lost)
			flags |= DRM_VSEG_INFO_CONTENT_LOST;
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
	/* Contiguous: in a memory segment, or mapped into the aperture. */
	args->gpu_address = st.seg && st.contiguous ?
			    vseg_phys_base(vdev, st.seg) + st.offset :
			    DRM_VSEG_GPU_ADDRESS_NONE;
	drm_gem_object_put(&vbo->tbo.base);
	return 0;
}

/**
 * vseg_ioctl_gem_mmap_offset() - DRM_IOCTL_VSEG_GEM_MMAP_OFFSET
 * @drm: the device
 * @data: &struct drm_vseg_gem_mmap_offset
 * @file: the caller
 *
 * Return: 0, -EINVAL, -ENOENT, -EPERM (a protected buffer), or -ENOMEM.
 */
int vseg_ioctl_gem_mmap_offset(struct drm_device *drm, void *data,
			       struct drm_file *file)
{
	struct drm_vseg_gem_mmap_offset *args = data;
	struct ttm_place places[VSEG_BO_MAX_PLACES];
	struct vseg_bo *vbo;
	int err;

	if (args->extensions || args->flags)
		return -EINVAL;
	vbo = lookup_bo(file, args->handle);
	if (!vbo)
		return -ENOENT;
	/* Protected content never reaches the CPU. */
	if (vseg_bo_is_protected(vbo)) {
		drm_gem_object_put(&vbo->tbo.base);
		return -EPERM;
	}
	/* Offered: unused until RECLAIM. */
	if (vseg_bo_offered(vbo)) {
		drm_gem_object_put(&vbo->tbo.base);
		return -EBUSY;
	}
	/*
	 * No CPU-reachable place: every fault would fail; say so now. An
	 * imported buffer is mapped through its dma-buf, by its exporter.
	 */
	err = (vseg_bo_cpu_places(vbo, places) ||
	       vseg_host_aperture_reaches(vbo)) && !vseg_bo_is_imported(vbo) ?
	      0 : -EINVAL;
	if (!err)
		err = drm_gem_create_mmap_offset(&vbo->tbo.base);
	if (!err)
		args->offset = drm_vma_node_offset_addr(&vbo->tbo.base.vma_node);
	drm_gem_object_put(&vbo->tbo.base);
	return err;
}

/*
 * The list is checked before anything moves: DISCARD and UNPIN are the
 * owning file's only (the file that created the buffer: not another file
 * holding it through PRIME, not for a foreign dma-buf's buffer), -EPERM;
 * EVICT of a pinned buffer is -EBUSY; UNPIN drops one of the file's own
 * pins per entry, so the buffer must hold that many of them, and no other,
 * to be evicted at its last entry.
 */
static int residency_check(struct vseg_file *vfile, struct vseg_bo **bos,
			   u32 n, bool unpin, bool discard)
{
	u32 i, j, pins, times;
	int err = 0;

	if (unpin || discard)
		for (i = 0; i < n; i++)
			if (bos[i]->owner_file != vfile->client_id)
				return -EPERM;
	for (i = 0; i < n && !err; i++) {
		pins = READ_ONCE(bos[i]->tbo.pin_count);
		if (!unpin) {
			err = pins ? -EBUSY : 0;
			continue;
		}
		for (j = 0, times = 0; j < n; j++)
			times += bos[j] == bos[i];
		err = vseg_file_can_unpin(vfile, bos[i], times);
		if (!err && pins > times)
			err = -EBUSY;
	}
	return err;
}

static int residency_apply(struct vseg_file *vfile, struct vseg_bo **bos,
			   u32 n, struct drm_vseg_residency *args,
			   bool make_resident)
{
	bool pin = args->flags & DRM_VSEG_RESIDENCY_PIN;
	bool unpin = args->flags & DRM_VSEG_RESIDENCY_UNPIN;
	bool discard = args->flags & DRM_VSEG_RESIDENCY_DISCARD;
	u32 i;
	int err = 0;

	/* The whole list at once: no entry takes the room of another. */
	if (make_resident)
		return vseg_file_make_resident(vfile, bos, n, pin,
					       &args->processed);
	for (i = 0; i < n && !err; i++) {
		err = unpin ? vseg_file_unpin_evict(vfile, bos[i], discard) :
		      vseg_bo_evict(bos[i], false, discard, NULL,
				    VSEG_MOVE_RESIDENCY);
		if (!err)
			args->processed++;
	}
	return err;
}

/* DRM_VSEG_RESIDENCY_EXT_TRIM: where to write the bytes to trim. */
static int residency_ext_trim(u64 ext, void *data)
{
	u64 *where = data;

	*where = ext;
	return 0;
}

static const struct vseg_ext_handler make_resident_exts[] = {
	{ DRM_VSEG_RESIDENCY_EXT_TRIM, residency_ext_trim },
};

/* NumBytesToTrim: how far the process is over each group's budget. */
static int write_trim(struct vseg_file *vfile, u64 ext)
{
	u64 trim[DRM_VSEG_BUDGET_NUM_GROUPS];
	struct vseg_budget_info info;
	u32 g;

	for (g = 0; g < DRM_VSEG_BUDGET_NUM_GROUPS; g++) {
		vseg_dmem_budget_query(vfile->vdev, vfile->limits, g,
				       &info);
		trim[g] = info.usage > info.budget ?
			  info.usage - info.budget : 0;
	}
	if (copy_to_user(u64_to_user_ptr(ext) +
			 offsetof(struct drm_vseg_residency_ext_trim,
				  bytes_to_trim), trim, sizeof(trim)))
		return -EFAULT;
	return 0;
}

static int residency(struct drm_file *file, struct drm_vseg_residency *args,
		     bool make_resident)
{
	struct vseg_file *vfile = file->driver_priv;
	u32 allowed = make_resident ? DRM_VSEG_RESIDENCY_PIN :
				      DRM_VSEG_RESIDENCY_UNPIN |
				      DRM_VSEG_RESIDENCY_DISCARD;
	struct vseg_bo **bos;
	u64 trim_ext = 0;
	u32 *handles;
	u32 n = 0;
	int err = 0;

	if (args->pad || (args->flags & ~allowed) ||
	    !mbz(args->reserved, sizeof(args->reserved)) || !args->count)
		return -EINVAL;
	if (args->count > DRM_VSEG_MAX_RESIDENCY_HANDLES)
		return -E2BIG;
	/* EVICT takes no extension. */
	if (!make_resident && args->extensions)
		return -EINVAL;
	err = vseg_ext_walk(args->extensions, make_resident_exts,
			    ARRAY_SIZE(make_resident_exts), &trim_ext);
	if (err)
		return err;
	/* Nothing moved yet, whatever fails from here on. */
	args->processed = 0;

	handles = vseg_copy_array(args->handles, args->count,
				  sizeof(*handles), &err);
	bos = kvcalloc(args->count, sizeof(*bos), GFP_KERNEL_ACCOUNT);
	if (!err && !bos)
		err = -ENOMEM;
	for (n = 0; !err && n < args->count; n++) {
		bos[n] = lookup_bo(file, handles[n]);
		if (!bos[n])
			err = -ENOENT;
	}
	if (!err && !make_resident)
		err = residency_check(vfile, bos, n,
				      args->flags & DRM_VSEG_RESIDENCY_UNPIN,
				      args->flags & DRM_VSEG_RESIDENCY_DISCARD);
	/* The paging it caused over its budget before, paid for first. */
	if (!err && make_resident)
		err = vseg_budget_throttle(vfile->limits);
	if (!err) {
		u64 paged_in = vseg_budget_paged_in(vfile->limits);

		err = residency_apply(vfile, bos, n, args, make_resident);
		if (make_resident)
			vseg_budget_paged(vfile->limits, paged_in);
	}
	if (!err && trim_ext)
		err = write_trim(vfile, trim_ext);
	while (bos && n--)
		if (bos[n])
			drm_gem_object_put(&bos[n]->tbo.base);
	kvfree(bos);
	kvfree(handles);
	trace_vseg_residency(!make_resident, args->count, args->flags,
			     args->processed, err);
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

/* OFFER and RECLAIM: the buffers of one call, looked up and locked. */
struct offer_call {
	struct vseg_bo **bos;
	u32 *handles;
	u32 n;
};

/* The @count handles at @uptr, each the caller's own buffer. */
static int offer_lookup(struct drm_file *file, u64 uptr, u32 count,
			struct offer_call *c)
{
	struct vseg_file *vfile = file->driver_priv;
	int err = 0;

	if (count > DRM_VSEG_MAX_OFFER_HANDLES)
		return -E2BIG;
	c->n = 0;
	c->handles = vseg_copy_array(uptr, count, sizeof(*c->handles), &err);
	if (err)
		return err;
	c->bos = kvcalloc(count, sizeof(*c->bos), GFP_KERNEL_ACCOUNT);
	if (!c->bos)
		return -ENOMEM;
	for (; c->n < count; c->n++) {
		c->bos[c->n] = lookup_bo(file, c->handles[c->n]);
		if (!c->bos[c->n])
			return -ENOENT;
	}
	/* The content is the creating file's to give up (as DISCARD). */
	for (c->n = 0; c->n < count; c->n++)
		if (c->bos[c->n]->owner_file != vfile->client_id)
			err = -EPERM;
	return err;
}

static void offer_release(struct offer_call *c)
{
	while (c->bos && c->n--)
		drm_gem_object_put(&c->bos[c->n]->tbo.base);
	kvfree(c->bos);
	kvfree(c->handles);
}

/* Lock every buffer of @c (a handle given twice once); drm_exec_fini(). */
static int offer_lock(struct drm_exec *exec, struct offer_call *c)
{
	int err = 0;
	u32 i;

	drm_exec_init(exec, DRM_EXEC_INTERRUPTIBLE_WAIT |
		      DRM_EXEC_IGNORE_DUPLICATES, c->n);
	drm_exec_until_all_locked(exec) {
		for (i = 0; i < c->n; i++) {
			err = drm_exec_lock_obj(exec, &c->bos[i]->tbo.base);
			drm_exec_retry_on_contention(exec);
			if (err)
				break;
		}
	}
	return err;
}

/*
 * The fence of the paging the buffers wait for (their KERNEL fences: a
 * discard, a move under way); NULL when none. Without memory to merge two,
 * it waits for them here instead.
 */
static struct dma_fence *reclaim_fence(struct offer_call *c)
{
	struct dma_fence *acc = NULL, *f, *m;
	u32 i;

	for (i = 0; i < c->n; i++) {
		if (dma_resv_get_singleton(c->bos[i]->tbo.base.resv,
					   DMA_RESV_USAGE_KERNEL, &f) || !f) {
			dma_resv_wait_timeout(c->bos[i]->tbo.base.resv,
					      DMA_RESV_USAGE_KERNEL, false,
					      MAX_SCHEDULE_TIMEOUT);
			continue;
		}
		if (!acc) {
			acc = f;
			continue;
		}
		m = dma_fence_unwrap_merge(acc, f);
		if (!m) {
			dma_fence_wait(acc, false);
			dma_fence_wait(f, false);
		}
		dma_fence_put(acc);
		dma_fence_put(f);
		acc = m;
	}
	return acc;
}

/**
 * vseg_ioctl_offer() - DRM_IOCTL_VSEG_OFFER
 * @drm: the device
 * @data: &struct drm_vseg_offer
 * @file: the caller
 *
 * Every buffer is locked and checked before any is offered.
 *
 * Return: 0 or a negative error code, as the UAPI documents.
 */
int vseg_ioctl_offer(struct drm_device *drm, void *data,
		     struct drm_file *file)
{
	struct drm_vseg_offer *args = data;
	struct offer_call c = {};
	struct drm_exec exec;
	u32 prio = args->priority, i;
	int err;

	if (args->extensions || args->flags || args->pad ||
	    !mbz(args->reserved, sizeof(args->reserved)) || !args->count ||
	    prio < DRM_VSEG_OFFER_PRIORITY_LOW ||
	    prio > DRM_VSEG_OFFER_PRIORITY_AUTO)
		return -EINVAL;
	if (prio == DRM_VSEG_OFFER_PRIORITY_AUTO)
		prio = DRM_VSEG_OFFER_PRIORITY_NORMAL;
	err = offer_lookup(file, args->handles, args->count, &c);
	if (err)
		goto out;
	err = offer_lock(&exec, &c);
	for (i = 0; i < c.n && !err; i++)
		err = vseg_bo_offer_check(c.bos[i]);
	for (i = 0; i < c.n && !err; i++)
		vseg_bo_offer_locked(c.bos[i], prio);
	drm_exec_fini(&exec);
	if (!err)
		vseg_bo_offer_sort(to_vseg(drm), prio);
out:
	offer_release(&c);
	return err;
}

/**
 * vseg_ioctl_reclaim() - DRM_IOCTL_VSEG_RECLAIM
 * @drm: the device
 * @data: &struct drm_vseg_reclaim
 * @file: the caller
 *
 * Every buffer is locked and checked, and the results array written once
 * (zeros), before any is reclaimed.
 *
 * Return: 0 or a negative error code, as the UAPI documents.
 */
int vseg_ioctl_reclaim(struct drm_device *drm, void *data,
		       struct drm_file *file)
{
	struct drm_vseg_reclaim *args = data;
	void __user *results = u64_to_user_ptr(args->results);
	struct drm_syncobj *so = NULL;
	struct dma_fence *fence = NULL;
	struct offer_call c = {};
	struct drm_exec exec;
	u32 *res = NULL, i;
	int err;

	if (args->extensions || args->flags || args->pad ||
	    !mbz(args->reserved, sizeof(args->reserved)) || !args->count)
		return -EINVAL;
	err = offer_lookup(file, args->handles, args->count, &c);
	if (err)
		goto out;
	res = kvcalloc(c.n, sizeof(*res), GFP_KERNEL_ACCOUNT);
	if (!res) {
		err = -ENOMEM;
		goto out;
	}
	if (clear_user(results, (size_t)c.n * sizeof(*res))) {
		err = -EFAULT;
		goto out;
	}
	if (args->syncobj) {
		so = drm_syncobj_find(file, args->syncobj);
		if (!so) {
			err = -ENOENT;
			goto out;
		}
	}
	err = offer_lock(&exec, &c);
	for (i = 0; i < c.n && !err; i++)
		if (!c.bos[i]->offered)
			err = -EINVAL;
	for (i = 0; i < c.n && !err; i++) {
		u32 j;

		/* A handle given twice: its first entry's result. */
		for (j = 0; j < i && c.bos[j] != c.bos[i]; j++)
			;
		res[i] = j < i ? res[j] : vseg_bo_reclaim_locked(c.bos[i]);
	}
	if (!err && so)
		fence = reclaim_fence(&c);
	drm_exec_fini(&exec);
	if (err)
		goto out;
	if (so) {
		if (!fence)
			fence = dma_fence_get_stub();
		drm_syncobj_replace_fence(so, fence);
		dma_fence_put(fence);
	}
	if (copy_to_user(results, res, (size_t)c.n * sizeof(*res)))
		err = -EFAULT;
out:
	if (so)
		drm_syncobj_put(so);
	kvfree(res);
	offer_release(&c);
	return err;
}

static_assert(DRM_VSEG_PRIORITY_NORMAL == VSEG_PRIORITY_NORMAL);
static_assert(DRM_VSEG_PRIORITY_HIGH == VSEG_PRIORITY_HIGH);
static_assert(DRM_VSEG_ENGINE_COPY == VSEG_ENGINE_COPY);
static_assert(DRM_VSEG_ENGINE_RENDER == VSEG_ENGINE_RENDER);
static_assert(DRM_VSEG_NUM_HEADS == VSEG_NUM_HEADS);
static_assert(DRM_VSEG_MAX_VM_MAPPINGS == VSEG_VM_MAX_MAPPINGS);
