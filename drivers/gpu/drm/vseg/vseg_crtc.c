// SPDX-License-Identifier: GPL-2.0-only
/*
 * Copyright (c) 2026 The vseg authors
 *
 * Each head's CRTC and its vblank "interrupt": the display controller has
 * no interrupt line, so an hrtimer fires once per frame of the CRTC's mode
 * while vblanks are on, and flip events go out from it.
 */

#include <drm/drm_atomic.h>
#include <drm/drm_atomic_helper.h>
#include <drm/drm_crtc.h>
#include <drm/drm_vblank.h>

#include "vseg_crtc.h"
#include "vseg_device_types.h"
#include "vseg_display.h"
#include "vseg_hw.h"
#include "vseg_compat.h"

/* A frame when the CRTC has no mode yet: 60 Hz. */
#define VSEG_DEFAULT_FRAME_NS	16666667

static struct vseg_kms_head *to_head(struct drm_crtc *crtc)
{
	return container_of(crtc, struct vseg_kms_head, crtc);
}

static enum hrtimer_restart vblank_fire(struct hrtimer *t)
{
	struct vseg_kms_head *h = container_of(t, struct vseg_kms_head,
					       vblank_timer);

	hrtimer_forward_now(t, h->frame);
	/* The frame boundary just passed (frames missed are skipped). */
	WRITE_ONCE(h->last_vblank, ktime_sub(hrtimer_get_expires(t), h->frame));
	drm_crtc_handle_vblank(&h->crtc);
	return HRTIMER_RESTART;
}

static int crtc_enable_vblank(struct drm_crtc *crtc)
{
	struct vseg_kms_head *h = to_head(crtc);
	u64 ns = drm_crtc_vblank_crtc(crtc)->framedur_ns;

	h->frame = ns_to_ktime(ns ?: VSEG_DEFAULT_FRAME_NS);
	WRITE_ONCE(h->last_vblank, ktime_get());
	hrtimer_start(&h->vblank_timer, h->frame, HRTIMER_MODE_REL);
	return 0;
}

static void crtc_disable_vblank(struct drm_crtc *crtc)
{
	hrtimer_cancel(&to_head(crtc)->vblank_timer);
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
	if (in_vblank_irq || hrtimer_active(&h->vblank_timer))
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
};

static void crtc_atomic_enable(struct drm_crtc *crtc,
			       struct drm_atomic_state *state)
{
	drm_crtc_vblank_on(crtc);
}

static void crtc_atomic_disable(struct drm_crtc *crtc,
				struct drm_atomic_state *state)
{
	struct drm_crtc_state *cs = drm_atomic_get_new_crtc_state(state, crtc);
	struct vseg_device *vdev = to_vseg(crtc->dev);

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
	err = drmm_crtc_init_with_planes(&vdev->drm, &h->crtc, &h->primary,
					 &h->cursor, &crtc_funcs, NULL);
	if (err)
		return err;
	drm_crtc_helper_add(&h->crtc, &crtc_helper_funcs);
	return 0;
}
