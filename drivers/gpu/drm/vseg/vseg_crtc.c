// SPDX-License-Identifier: GPL-2.0-only
/*
 * Copyright (c) 2026 The vseg authors
 *
 * Each head's CRTC and its vblank "interrupt": the display controller has
 * no interrupt line, so an hrtimer fires once per frame of the CRTC's mode
 * while vblanks are on, and flip events go out from it. With a CRC source
 * set, each vblank also reports the CRC of what the head shows (IGT's CRC
 * tests, through DRM's debugfs crtc-N/crc files), which work queued from
 * the vblank before asked the display controller for.
 */

#include <drm/drm_atomic.h>
#include <drm/drm_atomic_helper.h>
#include <linux/crc32.h>
#include <linux/string.h>

#include <drm/drm_crtc.h>
#include <drm/drm_managed.h>
#include <drm/drm_vblank.h>

#include "vseg_crtc.h"
#include "vseg_device_types.h"
#include "vseg_display.h"
#include "vseg_hw.h"
#include "vseg_plane.h"
#include "vseg_compat.h"

/* A frame when the CRTC has no mode yet: 60 Hz. */
#define VSEG_DEFAULT_FRAME_NS	16666667

/* What a head's reported CRC is XORed with (crc_work()). */
#define VSEG_CRC_XOR	0x5eed5eedu

static struct vseg_kms_head *to_head(struct drm_crtc *crtc)
{
	return container_of(crtc, struct vseg_kms_head, crtc);
}

/* How many frames a late vblank's CRC is reported for, at most. */
#define VSEG_CRC_BACKFILL	16

/*
 * Add @crc for every frame from the next one not reported yet up to
 * @frame (a late timer skips frames: DRM counts them, so a CRC reader
 * sees no gap). Called with crc_lock held.
 */
static void crc_post(struct vseg_kms_head *h, u64 frame, u32 crc)
{
	u64 f = h->crc_next;

	if (!f || frame - f >= VSEG_CRC_BACKFILL)
		f = frame;
	for (; f <= frame; f++)
		drm_crtc_add_crc_entry(&h->crtc, true, f, &crc);
	h->crc_next = frame + 1;
}

/*
 * A vblank fired: its frame's CRC is the one the display controller last
 * computed, if that was of the picture the head shows now (no commit has
 * programmed the head since), and it is reported at once, as hardware
 * reports a frame's CRC at the end of the frame. Otherwise the frame
 * waits for crc_work() to compute the new picture's. Either way the work
 * runs again, so that the next frame's CRC sees what was written to the
 * framebuffer in the meantime.
 */
static void crc_vblank(struct vseg_kms_head *h)
{
	u64 frame = drm_crtc_vblank_count(&h->crtc);

	spin_lock(&h->crc_lock);
	if (h->crc_on) {
		if (!h->crc_waiting && h->crc_valid &&
		    h->crc_value_gen == READ_ONCE(h->scanout_gen)) {
			crc_post(h, frame, h->crc_value);
		} else {
			if (!h->crc_waiting)
				h->crc_first = frame;
			h->crc_last = frame;
			h->crc_waiting = true;
		}
		queue_work(vseg_system_dfl_wq(), &h->crc_work);
	}
	spin_unlock(&h->crc_lock);
}

/*
 * The vblank "interrupt". DRM's own vblank timer (drm_crtc_vblank_start_timer())
 * came after 6.12, hence this one, built on the same rule:
 * DRM calls disable_vblank with its vblank_time_lock held and interrupts
 * off, and drm_crtc_handle_vblank() takes that lock, so the timer is never
 * cancelled synchronously (hrtimer_cancel() there would wait for a
 * callback spinning on the lock its caller holds: both CPUs stopped with
 * interrupts off). A stopped head's frame is 0, and its next run ends it.
 */
static enum hrtimer_restart vblank_fire(struct hrtimer *t)
{
	struct vseg_kms_head *h = container_of(t, struct vseg_kms_head,
					       vblank_timer);
	unsigned long flags;
	ktime_t frame;

	spin_lock_irqsave(&h->timer_lock, flags);
	frame = h->frame;
	/* Restarted by an enable since it fired: that expiry stands. */
	if (hrtimer_is_queued(t))
		frame = 0;
	if (frame) {
		hrtimer_forward_now(t, frame);
		/* The frame boundary just passed (frames missed are skipped). */
		WRITE_ONCE(h->last_vblank,
			   ktime_sub(hrtimer_get_expires(t), frame));
	}
	spin_unlock_irqrestore(&h->timer_lock, flags);
	if (!frame)
		return HRTIMER_NORESTART;
	if (!drm_crtc_handle_vblank(&h->crtc))
		return HRTIMER_NORESTART;
	crc_vblank(h);
	return HRTIMER_RESTART;
}

/* The CRC of @w x @h black pixels (a head that shows nothing). */
static u32 crc_black(u32 w, u32 h)
{
	static const u8 zero[256];
	u64 left = (u64)w * h * sizeof(u32);
	u32 crc = 0;

	while (left) {
		u32 n = min_t(u64, left, sizeof(zero));

		crc = crc32_le(crc, zero, n);
		left -= n;
	}
	return crc;
}

/*
 * The CRC of what the head shows now, computed by the display controller
 * with the head's scanout memory kept where it is (the display's lock: a
 * plane keeps its buffer pinned while the head's registers point into
 * it). It is kept for the next vblanks, and reported now for the frames
 * that waited for it, unless a commit has changed the picture since it
 * was computed (then the work queued by that commit's vblank computes the
 * new one).
 */
static void crc_work(struct work_struct *work)
{
	struct vseg_kms_head *h = container_of(work, struct vseg_kms_head,
					       crc_work);
	struct drm_crtc *crtc = &h->crtc;
	struct vseg_device *vdev = to_vseg(crtc->dev);
	u32 crc, gen;
	int err;

	if (!READ_ONCE(h->crc_on))
		return;
	mutex_lock(&vdev->display.lock);
	gen = h->scanout_gen;
	err = vdev->hw.display->ops->scanout_crc(vdev->hw.display,
						 drm_crtc_index(crtc), &crc);
	mutex_unlock(&vdev->display.lock);
	if (err == -ENOENT)
		crc = crc_black(READ_ONCE(h->crc_width),
				READ_ONCE(h->crc_height));
	else if (err)
		return;
	/*
	 * Reported XORed with a constant: crc32_le() seeded with 0 gives 0
	 * for black, and its inverse all ones, both of which IGT takes for a
	 * dead CRC source ("Suspicious CRC"). Equal pictures still give
	 * equal CRCs, different ones different CRCs.
	 */
	crc ^= VSEG_CRC_XOR;

	spin_lock_irq(&h->crc_lock);
	if (h->crc_on && gen == READ_ONCE(h->scanout_gen)) {
		h->crc_value = crc;
		h->crc_value_gen = gen;
		h->crc_valid = true;
		if (h->crc_waiting) {
			h->crc_waiting = false;
			h->crc_next = max(h->crc_next, h->crc_first);
			crc_post(h, h->crc_last, crc);
		}
	}
	spin_unlock_irq(&h->crc_lock);
}

static const char *const crc_sources[] = { "auto" };

static int crtc_verify_crc_source(struct drm_crtc *crtc, const char *source,
				  size_t *values_cnt)
{
	const struct vseg_hw_display *d = to_vseg(crtc->dev)->hw.display;

	if (source && strcmp(source, "auto") && strcmp(source, "none"))
		return -EINVAL;
	/* A display controller without a CRC generator (Bochs) has none. */
	if (source && !strcmp(source, "auto") && !d->ops->scanout_crc)
		return -EINVAL;
	*values_cnt = 1;
	return 0;
}

static const char *const *crtc_get_crc_sources(struct drm_crtc *crtc,
					       size_t *count)
{
	*count = ARRAY_SIZE(crc_sources);
	return crc_sources;
}

/*
 * "auto" turns CRCs on: the source holds a vblank reference so that the
 * vblank timer runs; NULL or "none" turns them off, once the work queued
 * has run.
 */
static int crtc_set_crc_source(struct drm_crtc *crtc, const char *source)
{
	struct vseg_kms_head *h = to_head(crtc);
	bool on = source && !strcmp(source, "auto");
	bool get, put;
	int err;

	err = crtc_verify_crc_source(crtc, source, &(size_t){ 0 });
	if (err)
		return err;
	get = on && drm_crtc_vblank_get(crtc) == 0;
	spin_lock_irq(&h->crc_lock);
	put = h->crc_vblank;
	h->crc_on = on;
	h->crc_vblank = get;
	h->crc_valid = false;
	h->crc_waiting = false;
	h->crc_next = 0;
	spin_unlock_irq(&h->crc_lock);
	if (put)
		drm_crtc_vblank_put(crtc);
	if (!on)
		flush_work(&h->crc_work);
	return 0;
}

/* Called with DRM's vblank_time_lock held: see vblank_fire(). */
static int crtc_enable_vblank(struct drm_crtc *crtc)
{
	struct vseg_kms_head *h = to_head(crtc);
	u64 ns = drm_crtc_vblank_crtc(crtc)->framedur_ns;
	unsigned long flags;

	WRITE_ONCE(h->last_vblank, ktime_get());
	/*
	 * A run of the timer still under way after a disable has forwarded
	 * it under the lock already; a restart replaces that expiry.
	 */
	spin_lock_irqsave(&h->timer_lock, flags);
	h->frame = ns_to_ktime(ns ?: VSEG_DEFAULT_FRAME_NS);
	hrtimer_start(&h->vblank_timer, h->frame, HRTIMER_MODE_REL);
	spin_unlock_irqrestore(&h->timer_lock, flags);
	return 0;
}

/* Called with DRM's vblank_time_lock held: see vblank_fire(). */
static void crtc_disable_vblank(struct drm_crtc *crtc)
{
	struct vseg_kms_head *h = to_head(crtc);
	unsigned long flags;

	spin_lock_irqsave(&h->timer_lock, flags);
	h->frame = 0;
	spin_unlock_irqrestore(&h->timer_lock, flags);
	hrtimer_try_to_cancel(&h->vblank_timer);
}

static bool crtc_get_vblank_timestamp(struct drm_crtc *crtc, int *max_error,
				      ktime_t *vblank_time, bool in_vblank_irq)
{
	struct vseg_kms_head *h = to_head(crtc);

	/*
	 * Exact: the timer's own expiry, not when its callback ran. With
	 * vblanks off (DRM resets the timestamp before turning them on),
	 * now: DRM counts the frames elapsed while they were off from it.
	 */
	if (in_vblank_irq || READ_ONCE(h->frame))
		*vblank_time = READ_ONCE(h->last_vblank);
	else
		*vblank_time = ktime_get();
	*max_error = 0;
	return true;
}

static const struct drm_crtc_funcs crtc_funcs = {
	.set_config = drm_atomic_helper_set_config,
	.page_flip = drm_atomic_helper_page_flip,
	.reset = drm_atomic_helper_crtc_reset,
	.atomic_duplicate_state = drm_atomic_helper_crtc_duplicate_state,
	.atomic_destroy_state = drm_atomic_helper_crtc_destroy_state,
	.enable_vblank = crtc_enable_vblank,
	.disable_vblank = crtc_disable_vblank,
	.get_vblank_timestamp = crtc_get_vblank_timestamp,
	.set_crc_source = crtc_set_crc_source,
	.verify_crc_source = crtc_verify_crc_source,
	.get_crc_sources = crtc_get_crc_sources,
};

static void crtc_atomic_enable(struct drm_crtc *crtc,
			       struct drm_atomic_state *state)
{
	struct vseg_kms_head *h = to_head(crtc);

	WRITE_ONCE(h->crc_width, crtc->state->mode.hdisplay);
	WRITE_ONCE(h->crc_height, crtc->state->mode.vdisplay);
	vseg_display_kms_changed(to_vseg(crtc->dev), drm_crtc_index(crtc));
	drm_crtc_vblank_on(crtc);
}

static void crtc_atomic_disable(struct drm_crtc *crtc,
				struct drm_atomic_state *state)
{
	struct drm_crtc_state *cs = drm_atomic_get_new_crtc_state(state, crtc);
	struct vseg_device *vdev = to_vseg(crtc->dev);

	/* The planes' pins go with the old state: nothing points there. */
	vseg_display_kms_cursor(vdev, drm_crtc_index(crtc), NULL);
	vseg_display_kms_show(vdev, drm_crtc_index(crtc), NULL, NULL);
	drm_crtc_vblank_off(crtc);
	/* No flush on an inactive CRTC (commit_tail_rpm): its event now. */
	if (cs->event && !cs->active) {
		spin_lock_irq(&crtc->dev->event_lock);
		drm_crtc_send_vblank_event(crtc, cs->event);
		spin_unlock_irq(&crtc->dev->event_lock);
		cs->event = NULL;
	}
}

/*
 * The new planes are programmed: the flip event goes at the next vblank,
 * or at once when vblanks are off (the CRTC is off).
 */
static void crtc_atomic_flush(struct drm_crtc *crtc,
			      struct drm_atomic_state *state)
{
	struct drm_pending_vblank_event *e = crtc->state->event;

	if (!e)
		return;
	crtc->state->event = NULL;
	spin_lock_irq(&crtc->dev->event_lock);
	if (drm_crtc_vblank_get(crtc) == 0)
		drm_crtc_arm_vblank_event(crtc, e);
	else
		drm_crtc_send_vblank_event(crtc, e);
	spin_unlock_irq(&crtc->dev->event_lock);
}

static const struct drm_crtc_helper_funcs crtc_helper_funcs = {
	.atomic_enable = crtc_atomic_enable,
	.atomic_disable = crtc_atomic_disable,
	.atomic_flush = crtc_atomic_flush,
};

/* At the DRM device's release: no vblank fires, no CRC work runs. */
static void crtc_fini(struct drm_device *drm, void *arg)
{
	struct vseg_kms_head *h = arg;

	spin_lock_irq(&h->timer_lock);
	h->frame = 0;
	spin_unlock_irq(&h->timer_lock);
	hrtimer_cancel(&h->vblank_timer);
	cancel_work_sync(&h->crc_work);
}

/**
 * vseg_crtc_init() - a head's CRTC, with its planes made already
 * @vdev: the device
 * @head: the head
 *
 * Cleaned up with the DRM device (drmm); its vblank timer runs only while
 * vblanks are on, which a disabled CRTC turns off.
 *
 * Return: 0 or a negative error code.
 */
int vseg_crtc_init(struct vseg_device *vdev, u32 head)
{
	struct vseg_kms_head *h = &vdev->display.kms[head];
	int err;

	vseg_hrtimer_setup(&h->vblank_timer, vblank_fire);
	spin_lock_init(&h->timer_lock);
	spin_lock_init(&h->crc_lock);
	INIT_WORK(&h->crc_work, crc_work);
	err = drmm_crtc_init_with_planes(&vdev->drm, &h->crtc, &h->primary,
					 vseg_planes_have_cursor(vdev) ?
					 &h->cursor : NULL, &crtc_funcs, NULL);
	if (err)
		return err;
	drm_crtc_helper_add(&h->crtc, &crtc_helper_funcs);
	return drmm_add_action_or_reset(&vdev->drm, crtc_fini, h);
}
