// SPDX-License-Identifier: GPL-2.0-only
/*
 * Copyright (c) 2026 The vseg authors
 *
 * The virtual display: heads that scan out primaries. The display
 * controller reads memory physically, so a displayed primary is pinned
 * contiguous in a memory segment or mapped into the aperture; a primary
 * without AccessedPhysically is mapped into the aperture only while it is
 * displayed (the WDDM "mapped when displayed" cell), and leaves the
 * aperture when it is replaced or its head is turned off.
 */

#include <linux/seq_file.h>
#include <linux/slab.h>
#include <drm/drm_gem.h>

#include "vseg_bo.h"
#include "vseg_display.h"
#include "vseg_drv.h"

/**
 * vseg_display_init() - a display with every head off
 * @vdev: the device
 *
 * Return: 0 or -ENOMEM.
 */
int vseg_display_init(struct vseg_device *vdev)
{
	struct vseg_display *d = kzalloc(sizeof(*d), GFP_KERNEL);

	if (!d)
		return -ENOMEM;
	mutex_init(&d->lock);
	vdev->display = d;
	return 0;
}

static void head_off(struct vseg_bo *bo)
{
	if (!bo)
		return;
	/* Uninterruptible: the pin must be dropped whatever happens. */
	ttm_bo_reserve(&bo->tbo, false, false, NULL);
	vseg_bo_undisplay(bo);
	ttm_bo_unreserve(&bo->tbo);
	drm_gem_object_put(&bo->tbo.base);
}

/**
 * vseg_display_fini() - turn every head off
 * @vdev: the device
 */
void vseg_display_fini(struct vseg_device *vdev)
{
	struct vseg_display *d = vdev->display;
	u32 i;

	if (!d)
		return;
	for (i = 0; i < VSEG_NUM_HEADS; i++)
		head_off(d->head[i]);
	mutex_destroy(&d->lock);
	kfree(d);
	vdev->display = NULL;
}

/**
 * vseg_display_set() - scan out a primary on a head, or turn it off
 * @vdev: the device
 * @head: the head, already checked
 * @bo: a primary, or NULL
 * @file: the caller; the head is turned off when this file closes
 *
 * Return: 0, -ENOSPC if the primary cannot be placed where the display
 * reaches it, or another negative error code; the head is unchanged then.
 */
int vseg_display_set(struct vseg_device *vdev, u32 head, struct vseg_bo *bo,
		     const struct drm_file *file)
{
	struct vseg_display *d = vdev->display;
	struct vseg_bo *old;
	int err;

	mutex_lock(&d->lock);
	if (bo) {
		err = ttm_bo_reserve(&bo->tbo, true, false, NULL);
		if (!err) {
			err = vseg_bo_display(bo);
			ttm_bo_unreserve(&bo->tbo);
		}
		if (err) {
			mutex_unlock(&d->lock);
			return err;
		}
		drm_gem_object_get(&bo->tbo.base);
	}
	old = d->head[head];
	d->head[head] = bo;
	d->owner[head] = bo ? file : NULL;
	mutex_unlock(&d->lock);
	head_off(old);
	return 0;
}

/**
 * vseg_display_file_close() - turn off the heads a closing file set
 * @vdev: the device
 * @file: the file being closed
 *
 * As DRM removes a closed file's framebuffers (and disables the CRTCs
 * showing them), a primary does not stay on screen, pinned, after the
 * client that showed it is gone.
 */
void vseg_display_file_close(struct vseg_device *vdev,
			     const struct drm_file *file)
{
	struct vseg_display *d = vdev->display;
	struct vseg_bo *off[VSEG_NUM_HEADS] = {};
	u32 i;

	mutex_lock(&d->lock);
	for (i = 0; i < VSEG_NUM_HEADS; i++) {
		if (d->head[i] && d->owner[i] == file) {
			off[i] = d->head[i];
			d->head[i] = NULL;
			d->owner[i] = NULL;
		}
	}
	mutex_unlock(&d->lock);
	for (i = 0; i < VSEG_NUM_HEADS; i++)
		head_off(off[i]);
}

/**
 * vseg_display_show() - what each head shows, for debugfs
 * @vdev: the device
 * @m: where to print
 */
void vseg_display_show(struct vseg_device *vdev, struct seq_file *m)
{
	struct vseg_display *d = vdev->display;
	struct vseg_bo_state st;
	u32 i;

	mutex_lock(&d->lock);
	for (i = 0; i < VSEG_NUM_HEADS; i++) {
		struct vseg_bo *bo = d->head[i];

		if (!bo) {
			seq_printf(m, "head %u bo=- segment=- offset=- aperture=-\n",
				   i);
			continue;
		}
		vseg_bo_get_state(bo, &st);
		seq_printf(m, "head %u bo=%llu segment=%u offset=0x%llx", i,
			   bo->id, st.seg, st.offset);
		if (st.ap_mapped)
			seq_printf(m, " aperture=0x%llx+0x%llx\n", st.ap_start,
				   st.ap_size);
		else
			seq_puts(m, " aperture=-\n");
	}
	mutex_unlock(&d->lock);
}
