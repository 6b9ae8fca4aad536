// SPDX-License-Identifier: GPL-2.0-only
/*
 * Copyright (c) 2026 The vseg authors
 *
 * The virtual display: heads that scan out primaries. The display
 * controller reads memory physically, so a displayed primary is pinned
 * contiguous in a memory segment or mapped into the aperture; a primary
 * without AccessedPhysically is mapped into the aperture only while it is
 * displayed (the WDDM "mapped when displayed" cell), and leaves the
 * aperture when no head shows it any more, whatever pins it has.
 *
 * Heads are driven by KMS alone (vseg_kms.c, vseg_crtc.c, vseg_plane.c),
 * whose planes pin through vseg_display_pin() and vseg_display_unpin().
 */

#include <linux/seq_file.h>
#include <drm/drm_atomic_helper.h>
#include <drm/drm_fourcc.h>
#include <drm/drm_framebuffer.h>
#include <drm/drm_gem.h>
#include <drm/drm_managed.h>
#include <drm/drm_modeset_helper.h>
#include <drm/drm_modeset_lock.h>

#include "vseg_bo.h"
#include "vseg_device_types.h"
#include "vseg_display.h"
#include "vseg_hw.h"
#include "vseg_phys.h"
#include "vseg_ranges.h"

static int head_pin_locked(struct vseg_bo *bo, void *arg)
{
	struct ttm_operation_ctx ctx = { .interruptible = true };
	int err;

	/* The display reads it physically: map it even without AP. */
	bo->move_reason = VSEG_MOVE_SCANOUT;
	err = vseg_bo_make_reachable(bo, true, &ctx);
	if (!err) {
		ttm_bo_pin(&bo->tbo);
		bo->displayed++;
	}
	return err;
}

/**
 * vseg_display_pin() - pin a primary where the display reaches it
 * @bo: the primary, not reserved
 *
 * Contiguous in a memory segment, or mapped into the aperture even
 * without AccessedPhysically; pinned, counted as displayed, and
 * referenced (the head's reference).
 *
 * Return: 0, -EINVAL if no place the display reaches suits it, -ENOSPC,
 * or another negative error code; nothing changed then.
 */
int vseg_display_pin(struct vseg_bo *bo)
{
	int err = vseg_bo_locked_retry(bo, head_pin_locked, NULL);

	if (!err)
		drm_gem_object_get(&bo->tbo.base);
	return err;
}

/**
 * vseg_display_unpin() - drop what vseg_display_pin() took
 * @bo: the primary, not reserved, or NULL
 *
 * Once no head shows it, a primary without AccessedPhysically leaves the
 * aperture, whatever other pins it has. Uninterruptible.
 */
void vseg_display_unpin(struct vseg_bo *bo)
{
	if (!bo)
		return;
	/* Uninterruptible: the pin must be dropped whatever happens. */
	ttm_bo_reserve(&bo->tbo, false, false, NULL);
	ttm_bo_unpin(&bo->tbo);
	if (!--bo->displayed &&
	    !(bo->params.flags & VSEG_BO_ACCESSED_PHYSICALLY))
		vseg_bo_unmap_aperture(bo);
	ttm_bo_unreserve(&bo->tbo);
	drm_gem_object_put(&bo->tbo.base);
}

/**
 * vseg_display_address() - the GPU physical address of a pinned primary
 * @vdev: the device
 * @bo: a primary vseg_display_pin() pinned
 *
 * Return: where its first byte is, in a memory segment or the aperture.
 */
u64 vseg_display_address(struct vseg_device *vdev, struct vseg_bo *bo)
{
	struct vseg_bo_state st;

	vseg_bo_get_state(bo, &st);
	return vseg_phys_base(vdev, st.seg) + st.offset;
}

/**
 * vseg_display_init() - a display with every head off
 * @vdev: the device
 *
 * Torn down with the DRM device (drmm).
 *
 * Return: 0 or -ENOMEM.
 */
int vseg_display_init(struct vseg_device *vdev)
{
	return drmm_mutex_init(&vdev->drm, &vdev->display.lock);
}

/**
 * vseg_display_unplug() - turn every head off, for an unplugged device
 * @vdev: the device
 *
 * Every CRTC is disabled and the primaries are released at once, not with
 * the last user of the DRM device.
 */
void vseg_display_unplug(struct vseg_device *vdev)
{
	drm_atomic_helper_shutdown(&vdev->drm);
}

/**
 * vseg_display_kms_show() - program a KMS head's scanout registers
 * @vdev: the device
 * @head: the head
 * @bo: the buffer @s points into, pinned by a plane state; or NULL (off)
 * @s: what to scan out, or NULL to turn the head off
 *
 * Called from the commit (plane update, CRTC disable); debugfs display
 * shows @bo from then on.
 */
void vseg_display_kms_show(struct vseg_device *vdev, u32 head,
			   struct vseg_bo *bo, const struct vseg_hw_scanout *s)
{
	struct vseg_display *d = &vdev->display;

	mutex_lock(&d->lock);
	d->kms[head].shown = bo;
	vdev->hw.ops->set_scanout(&vdev->hw, head, s);
	mutex_unlock(&d->lock);
}

/**
 * vseg_display_suspend() - turn every head off for a power transition
 * @vdev: the device
 *
 * KMS's state is saved and every CRTC disabled (the mode-config helpers):
 * the display's pins go, so that the transition may evict the primaries
 * like any buffer. vseg_display_resume() shows them again.
 *
 * Return: 0, or the error of the commit that disables the CRTCs (they stay
 * as they were).
 */
int vseg_display_suspend(struct vseg_device *vdev)
{
	return drm_mode_config_helper_suspend(&vdev->drm);
}

/**
 * vseg_display_resume() - show again what vseg_display_suspend() remembered
 * @vdev: the device
 *
 * The KMS state is committed again as it was: its planes' prepare_fb pins
 * each primary where the display reaches it again (it may have been
 * evicted).
 *
 * Return: 0, or the error of the commit.
 */
int vseg_display_resume(struct vseg_device *vdev)
{
	/* Nothing saved when the suspend's commit failed. */
	if (!vdev->drm.mode_config.suspend_state)
		return 0;
	return drm_mode_config_helper_resume(&vdev->drm);
}

/* The registers' format fields, for a head KMS programmed. */
static void show_format(struct seq_file *m, const struct vseg_hw_scanout *s)
{
	if (!s->format)
		return;
	seq_printf(m, " width=%u height=%u pitch=%u format=%c%c%c%c",
		   s->width, s->height, s->pitch, s->format & 0xff,
		   (s->format >> 8) & 0xff, (s->format >> 16) & 0xff,
		   s->format >> 24);
}

/**
 * vseg_display_show() - what each head shows, for debugfs
 * @vdev: the device
 * @m: where to print
 *
 * A head KMS lights is marked kms=1 and shows its plane's format.
 */
void vseg_display_show(struct vseg_device *vdev, struct seq_file *m)
{
	struct vseg_display *d = &vdev->display;
	struct vseg_hw_scanout s;
	struct vseg_bo_state st;
	u32 i;

	mutex_lock(&d->lock);
	for (i = 0; i < VSEG_NUM_HEADS; i++) {
		struct vseg_bo *bo = d->kms[i].shown;

		if (!bo) {
			/* Until the first modeset, head 0 shows the firmware image. */
			if (i || !vseg_firmware_show(vdev, m))
				seq_printf(m, "head %u bo=- segment=- offset=- aperture=- scanout=-\n",
					   i);
			continue;
		}
		vseg_bo_get_state(bo, &st);
		seq_printf(m, "head %u bo=%llu segment=%u offset=0x%llx", i,
			   bo->id, st.seg, st.offset);
		if (st.ap_mapped)
			seq_printf(m, " aperture=0x%llx+0x%llx", st.ap_start,
				   st.ap_size);
		else
			seq_puts(m, " aperture=-");
		/* What the display controller's registers say it shows. */
		if (vdev->hw.ops->get_scanout(&vdev->hw, i, &s)) {
			seq_printf(m, " scanout=0x%llx+0x%llx", s.address,
				   s.size);
			show_format(m, &s);
		} else {
			seq_puts(m, " scanout=-");
		}
		seq_puts(m, " kms=1\n");
	}
	mutex_unlock(&d->lock);
}
