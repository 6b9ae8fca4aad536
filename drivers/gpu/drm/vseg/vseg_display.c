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
#include "vseg_segment.h"

static int head_pin_locked(struct vseg_bo *bo, void *arg)
{
	struct ttm_operation_ctx ctx = { .interruptible = true };
	struct vseg_display *d = arg;
	bool moved = false;
	int ret;

	/* Offered: unused until RECLAIM. */
	if (bo->offered)
		return -EBUSY;
	/* The display reads it physically: map it even without AP. */
	bo->move_reason = VSEG_MOVE_SCANOUT;
	ret = vseg_bo_make_displayable(bo, &moved, &ctx);
	if (ret < 0)
		return ret;
	if (!ret)
		atomic64_inc(&d->flips_elsewhere);
	else if (moved)
		atomic64_inc(&d->flips_moved);
	else
		atomic64_inc(&d->flips_in_place);
	ttm_bo_pin(&bo->tbo);
	bo->displayed++;
	return 0;
}

/**
 * vseg_display_pin() - pin a primary where the display reaches it
 * @bo: the primary, not reserved
 *
 * Contiguous in a memory segment, or mapped into the aperture even
 * without AccessedPhysically, in a DirectFlip segment if it can be
 * (vseg_bo_make_displayable(); counted for debugfs); pinned, counted as
 * displayed, and referenced (the head's reference).
 *
 * Return: 0, -EINVAL if no place the display reaches suits it, -ENOSPC,
 * or another negative error code; nothing changed then.
 */
int vseg_display_pin(struct vseg_bo *bo)
{
	struct vseg_device *vdev = to_vseg(bo->tbo.base.dev);
	int err = vseg_bo_locked_retry(bo, head_pin_locked, &vdev->display);

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

/*
 * A display controller that scans out one BAR alone reaches the memory
 * segment on that BAR, as far as the BAR goes: the layout keeps its
 * primaries there (vseg_place_display_reach()), and the controller learns
 * where the BAR is in the GPU's physical address space.
 */
static int display_reach_init(struct vseg_device *vdev)
{
	struct vseg_hw_display *hd = vdev->hw.display;
	u32 i;

	if (hd->bar == VSEG_HW_DISPLAY_ANY_BAR)
		return 0;
	for (i = 0; i < vdev->table.num_segments; i++) {
		const struct vseg_segment_desc *s = &vdev->table.seg[i];

		if (s->kind != VSEG_SEGMENT_MEMORY || !s->on_bar ||
		    s->bar != hd->bar)
			continue;
		vdev->layout.display_seg = s->id;
		vdev->layout.display_reach = s->cpu_visible_size;
		hd->bar_base = vseg_phys_base(vdev, s->id) - s->bar_offset;
		hd->bar_size = s->bar_offset + s->cpu_visible_size;
		drm_info(&vdev->drm, "display %s scans out BAR %d: segment %u, its first %llu MiB\n",
			 hd->name, hd->bar, s->id, s->cpu_visible_size >> 20);
		return 0;
	}
	drm_err(&vdev->drm, "display %s scans out BAR %d only: the segment table puts no memory segment there (bar=%d)\n",
		hd->name, hd->bar, hd->bar);
	return -EINVAL;
}

/**
 * vseg_display_init() - a display with every head off
 * @vdev: the device, its memory managers set up
 *
 * Torn down with the DRM device (drmm).
 *
 * Return: 0, -ENOMEM, or -EINVAL when the display controller scans out a
 * BAR that no memory segment is on.
 */
int vseg_display_init(struct vseg_device *vdev)
{
	int err;

	err = display_reach_init(vdev);
	if (err)
		return err;
	return drmm_mutex_init(&vdev->drm, &vdev->display.lock);
}

/**
 * vseg_display_check() - whether a head can show a KMS primary
 * @vdev: the device
 * @head: the head
 * @s: the primary, its address the first pixel's offset in its buffer
 *
 * Return: 0, or -EINVAL if the display controller cannot show its mode,
 * format or pitch.
 */
int vseg_display_check(struct vseg_device *vdev, u32 head,
		       const struct vseg_hw_scanout *s)
{
	struct vseg_hw_display *hd = vdev->hw.display;

	if (s->width > hd->max_width || s->height > hd->max_height)
		return -EINVAL;
	return hd->ops->check ? hd->ops->check(hd, head, s) : 0;
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

/* Under the display's lock: see &vseg_kms_head.scanout_gen. */
static void vseg_display_kms_changed_locked(struct vseg_device *vdev,
					    u32 head)
{
	struct vseg_kms_head *h = &vdev->display.kms[head];

	lockdep_assert_held(&vdev->display.lock);
	WRITE_ONCE(h->scanout_gen, h->scanout_gen + 1);
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
	vdev->hw.display->ops->set_scanout(vdev->hw.display, head, s);
	vseg_display_kms_changed_locked(vdev, head);
	mutex_unlock(&d->lock);
}

/**
 * vseg_display_kms_cursor() - program a KMS head's cursor registers
 * @vdev: the device, its display controller with cursor registers
 * @head: the head
 * @c: the cursor, its image pinned by a cursor plane state; or NULL (off)
 *
 * Called from the commit (cursor plane update and disable, CRTC disable),
 * under the display's lock like the scanout registers: a CRC the display
 * controller computes sees both, and their memory, where they are.
 */
void vseg_display_kms_cursor(struct vseg_device *vdev, u32 head,
			     const struct vseg_hw_cursor *c)
{
	struct vseg_hw_display *hd = vdev->hw.display;

	if (!hd->ops->set_cursor)
		return;
	mutex_lock(&vdev->display.lock);
	hd->ops->set_cursor(hd, head, c);
	vseg_display_kms_changed_locked(vdev, head);
	mutex_unlock(&vdev->display.lock);
}

/**
 * vseg_display_kms_changed() - a commit changed what a KMS head shows
 * @vdev: the device
 * @head: the head
 *
 * For a change the head's registers do not show (its mode): a CRC
 * computed before is not of the picture shown from now on.
 */
void vseg_display_kms_changed(struct vseg_device *vdev, u32 head)
{
	mutex_lock(&vdev->display.lock);
	vseg_display_kms_changed_locked(vdev, head);
	mutex_unlock(&vdev->display.lock);
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
 * First how the primaries pinned so far got where the display reads them
 * (in place in a DirectFlip segment, moved into one, or elsewhere), then
 * each head; one KMS lights is marked kms=1 and shows its plane's format.
 */
void vseg_display_show(struct vseg_device *vdev, struct seq_file *m)
{
	struct vseg_display *d = &vdev->display;
	struct vseg_hw_display *hd = vdev->hw.display;
	struct vseg_hw_scanout s;
	struct vseg_bo_state st;
	u32 i;

	/* How the primaries pinned so far got where the display reads them. */
	seq_printf(m, "directflip in_place=%lld moved=%lld elsewhere=%lld\n",
		   atomic64_read(&d->flips_in_place),
		   atomic64_read(&d->flips_moved),
		   atomic64_read(&d->flips_elsewhere));
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
		if (hd->ops->get_scanout(hd, i, &s)) {
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

/**
 * vseg_display_show_regs() - the display controller's registers, for debugfs
 * @vdev: the device
 * @m: where to print
 *
 * Its name, reach (segment 0: every place an engine reaches physically)
 * and largest mode, then what its implementation prints of its
 * registers.
 */
void vseg_display_show_regs(struct vseg_device *vdev, struct seq_file *m)
{
	struct vseg_hw_display *hd = vdev->hw.display;
	struct vseg_display *d = &vdev->display;

	mutex_lock(&d->lock);
	seq_printf(m, "controller=%s bar=%d segment=%u bar_base=0x%llx bar_size=0x%llx max=%ux%u\n",
		   hd->name, hd->bar, vdev->layout.display_seg, hd->bar_base,
		   hd->bar_size, hd->max_width, hd->max_height);
	if (hd->ops->show_regs)
		hd->ops->show_regs(hd, m);
	mutex_unlock(&d->lock);
}
