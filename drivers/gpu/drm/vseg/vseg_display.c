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
 * Heads are driven by KMS (vseg_kms.c, vseg_crtc.c, vseg_plane.c), whose
 * primary planes pin through vseg_display_pin() and vseg_display_unpin(),
 * and, for now, by the private SCANOUT ioctl (vseg_display_set()). A head
 * belongs to one of them at a time.
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
 * Program a head's scanout registers: the primary's GPU physical address,
 * where it is pinned (contiguous in a memory segment, or mapped into the
 * aperture), or off. Under the display lock.
 */
static void head_program(struct vseg_device *vdev, u32 head,
			 struct vseg_bo *bo)
{
	struct vseg_hw_scanout s = {};

	if (!bo) {
		vdev->hw.display->ops->set_scanout(vdev->hw.display, head, NULL);
		return;
	}
	s.address = vseg_display_address(vdev, bo);
	s.size = bo->tbo.base.size;
	vdev->hw.display->ops->set_scanout(vdev->hw.display, head, &s);
}

static void display_release(struct drm_device *drm, void *arg)
{
	struct vseg_display *d = arg;
	u32 i;

	/* Normally off since the unplug (vseg_display_unplug()). */
	for (i = 0; i < VSEG_NUM_HEADS; i++) {
		vseg_display_unpin(d->head[i]);
		if (d->saved[i])
			drm_gem_object_put(&d->saved[i]->tbo.base);
	}
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
	struct vseg_display *d = &vdev->display;
	int err;

	err = display_reach_init(vdev);
	if (err)
		return err;
	err = drmm_mutex_init(&vdev->drm, &d->lock);
	if (err)
		return err;
	return drmm_add_action_or_reset(&vdev->drm, display_release, d);
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

/*
 * Turn every head off and release the primaries, their pins after the
 * lock; @remember keeps each one (with a reference) and its owner for
 * vseg_display_resume().
 */
static void heads_off(struct vseg_device *vdev, bool remember)
{
	struct vseg_display *d = &vdev->display;
	struct vseg_bo *off[VSEG_NUM_HEADS];
	u32 i;

	mutex_lock(&d->lock);
	for (i = 0; i < VSEG_NUM_HEADS; i++) {
		head_program(vdev, i, NULL);
		off[i] = d->head[i];
		if (remember) {
			d->saved[i] = off[i];
			d->saved_owner[i] = d->owner[i];
			if (off[i])
				drm_gem_object_get(&off[i]->tbo.base);
		}
		d->head[i] = NULL;
		d->owner[i] = NULL;
	}
	mutex_unlock(&d->lock);
	for (i = 0; i < VSEG_NUM_HEADS; i++)
		vseg_display_unpin(off[i]);
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
	heads_off(vdev, false);
}

/**
 * vseg_display_set() - scan out a primary on a head, or turn it off
 * @vdev: the device
 * @head: the head, already checked
 * @bo: a primary, or NULL
 * @file: the caller; the head is turned off when this file closes
 *
 * The first call takes the display over from the firmware: its frame
 * buffers (the table's UEFI ranges) become allocatable, whatever follows.
 *
 * Transitional: KMS drives the heads too. A head whose CRTC is active is
 * refused with -EBUSY.
 *
 * Return: 0, -EBUSY, -ENOSPC if the primary cannot be placed where the
 * display reaches it, or another negative error code; the head is
 * unchanged then.
 */
int vseg_display_set(struct vseg_device *vdev, u32 head, struct vseg_bo *bo,
		     const struct drm_file *file)
{
	struct vseg_display *d = &vdev->display;
	struct drm_crtc *crtc = &d->kms[head].crtc;
	struct drm_modeset_acquire_ctx ctx;
	struct vseg_bo *old = NULL;
	int err;

	/*
	 * Under the CRTC's lock, which a commit holds from its check to its
	 * state swap: a head KMS drives is refused, and a commit's check
	 * sees the head SCANOUT set.
	 */
	drm_modeset_acquire_init(&ctx, DRM_MODESET_ACQUIRE_INTERRUPTIBLE);
retry:
	err = drm_modeset_lock(&crtc->mutex, &ctx);
	if (err == -EDEADLK) {
		err = drm_modeset_backoff(&ctx);
		if (!err)
			goto retry;
	}
	if (err)
		goto out;
	if (crtc->state->active) {
		err = -EBUSY;
		goto out;
	}
	vseg_firmware_handover(vdev);
	mutex_lock(&d->lock);
	if (bo) {
		err = vseg_display_pin(bo);
		if (err) {
			mutex_unlock(&d->lock);
			goto out;
		}
	}
	old = d->head[head];
	d->head[head] = bo;
	d->owner[head] = bo ? file : NULL;
	head_program(vdev, head, bo);
	mutex_unlock(&d->lock);
out:
	drm_modeset_drop_locks(&ctx);
	drm_modeset_acquire_fini(&ctx);
	vseg_display_unpin(old);
	return err;
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
	mutex_unlock(&d->lock);
}

/**
 * vseg_display_scanout_set() - whether SCANOUT drives a head
 * @vdev: the device
 * @head: the head
 *
 * For the CRTC's atomic check, under the CRTC's lock.
 *
 * Return: true if SCANOUT shows a primary on @head.
 */
bool vseg_display_scanout_set(struct vseg_device *vdev, u32 head)
{
	struct vseg_display *d = &vdev->display;
	bool set;

	mutex_lock(&d->lock);
	set = d->head[head];
	mutex_unlock(&d->lock);
	return set;
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
	struct vseg_display *d = &vdev->display;
	struct vseg_bo *off[VSEG_NUM_HEADS] = {};
	struct vseg_bo *forget[VSEG_NUM_HEADS] = {};
	u32 i;

	mutex_lock(&d->lock);
	for (i = 0; i < VSEG_NUM_HEADS; i++) {
		if (d->head[i] && d->owner[i] == file) {
			head_program(vdev, i, NULL);
			off[i] = d->head[i];
			d->head[i] = NULL;
			d->owner[i] = NULL;
		}
		/* Off during a power transition: not shown again. */
		if (d->saved[i] && d->saved_owner[i] == file) {
			forget[i] = d->saved[i];
			d->saved[i] = NULL;
			d->saved_owner[i] = NULL;
		}
	}
	mutex_unlock(&d->lock);
	for (i = 0; i < VSEG_NUM_HEADS; i++) {
		vseg_display_unpin(off[i]);
		if (forget[i])
			drm_gem_object_put(&forget[i]->tbo.base);
	}
}

/**
 * vseg_display_suspend() - turn every head off for a power transition
 * @vdev: the device
 *
 * KMS's state is saved and every CRTC disabled (the mode-config helpers);
 * each head SCANOUT set has its primary remembered (with a reference) and
 * released. Either way the display's pins go, so that the transition may
 * evict the primaries like any buffer. vseg_display_resume() shows them
 * again.
 *
 * Return: 0, or the error of the commit that disables the CRTCs (they stay
 * as they were; the SCANOUT heads are off all the same).
 */
int vseg_display_suspend(struct vseg_device *vdev)
{
	int err = drm_mode_config_helper_suspend(&vdev->drm);

	heads_off(vdev, true);
	return err;
}

/**
 * vseg_display_resume() - show again what vseg_display_suspend() remembered
 * @vdev: the device
 *
 * Each primary is pinned where the display reaches it again (it may have
 * been evicted). A SCANOUT head whose primary finds no room stays off; the
 * KMS state is committed again as it was (its planes' prepare_fb pins).
 *
 * Return: 0, or the error of the first head that stayed off.
 */
int vseg_display_resume(struct vseg_device *vdev)
{
	struct vseg_display *d = &vdev->display;
	int err, ret = 0;
	u32 i;

	/* Nothing saved when the suspend's commit failed. */
	if (vdev->drm.mode_config.suspend_state)
		ret = drm_mode_config_helper_resume(&vdev->drm);

	mutex_lock(&d->lock);
	for (i = 0; i < VSEG_NUM_HEADS; i++) {
		struct vseg_bo *bo = d->saved[i];

		if (!bo)
			continue;
		d->saved[i] = NULL;
		err = vseg_display_pin(bo);
		if (!err) {
			d->head[i] = bo;
			d->owner[i] = d->saved_owner[i];
			head_program(vdev, i, bo);
		} else if (!ret) {
			ret = err;
		}
		d->saved_owner[i] = NULL;
		drm_gem_object_put(&bo->tbo.base);
	}
	mutex_unlock(&d->lock);
	return ret;
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
		struct vseg_bo *bo = d->head[i];
		bool kms = false;

		if (!bo) {
			bo = d->kms[i].shown;
			kms = bo;
		}
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
		seq_printf(m, " kms=%d\n", kms);
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
