/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Copyright (c) 2026 The vseg authors
 */
#ifndef __VSEG_DISPLAY_TYPES_H__
#define __VSEG_DISPLAY_TYPES_H__

#include <linux/hrtimer.h>
#include <linux/mutex.h>
#include <drm/drm_connector.h>
#include <drm/drm_crtc.h>
#include <drm/drm_encoder.h>
#include <drm/drm_plane.h>

struct vseg_bo;

#define VSEG_NUM_HEADS	2

/**
 * struct vseg_kms_head - a head as KMS sees it (vseg_kms.c, vseg_crtc.c,
 *	vseg_plane.c)
 * @crtc: its CRTC, index = head number.
 * @primary: its primary plane (XRGB8888, ARGB8888, RGB565, linear).
 * @cursor: its cursor plane (ARGB8888 up to 64x64). The display
 *	controller has no cursor registers: the cursor's framebuffer is made
 *	reachable and pinned like a primary, not shown.
 * @encoder: its virtual encoder.
 * @connector: its virtual connector, always connected.
 * @vblank_timer: the vblank "interrupt" while vblanks are on: fires once
 *	per frame of the CRTC's mode.
 * @frame: the mode's frame duration.
 * @last_vblank: when the last vblank fired (the timer's expiry), for
 *	&drm_crtc_funcs.get_vblank_timestamp.
 * @shown: the buffer the head's scanout registers point into, or NULL;
 *	under &vseg_display.lock. Set when the commit programs them, so
 *	pinned (a plane state's vseg_display_pin()) for as long as it is
 *	set: the old state's cleanup_fb comes after the new state's update.
 */
struct vseg_kms_head {
	struct drm_crtc crtc;
	struct drm_plane primary;
	struct drm_plane cursor;
	struct drm_encoder encoder;
	struct drm_connector connector;
	struct hrtimer vblank_timer;
	ktime_t frame;
	ktime_t last_vblank;
	struct vseg_bo *shown;
};

/**
 * struct vseg_display - the virtual display
 * @lock: protects each head's &vseg_kms_head.shown and its scanout
 *	registers; taken before any reservation.
 * @kms: each head's CRTC, planes, encoder and connector.
 */
struct vseg_display {
	struct mutex lock; /* see above */
	struct vseg_kms_head kms[VSEG_NUM_HEADS];
};

#endif /* __VSEG_DISPLAY_TYPES_H__ */
