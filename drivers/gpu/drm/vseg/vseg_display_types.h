/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Copyright (c) 2026 The vseg authors
 */
#ifndef __VSEG_DISPLAY_TYPES_H__
#define __VSEG_DISPLAY_TYPES_H__

#include <linux/atomic.h>
#include <linux/hrtimer.h>
#include <linux/mutex.h>
#include <linux/spinlock.h>
#include <linux/workqueue.h>
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
 * @cursor: its cursor plane (ARGB8888 up to 64x64), pinned where the
 *	display reaches it like a primary and shown through the head's
 *	cursor registers (&vseg_hw_display_ops.set_cursor), over the primary
 *	and in its CRCs. Not initialised, and not the CRTC's, on a display
 *	controller without cursor registers (vseg_planes_have_cursor()).
 * @encoder: its virtual encoder.
 * @connector: its virtual connector, always connected.
 * @vblank_timer: the vblank "interrupt" while vblanks are on: fires once
 *	per frame of the CRTC's mode.
 * @timer_lock: protects @frame, and the timer's expiry between the
 *	callback's forward and a restart; innermost, never held into DRM.
 * @frame: the mode's frame duration while vblanks are on, 0 when off (the
 *	timer's next run then stops it).
 * @last_vblank: when the last vblank fired (the timer's expiry), for
 *	&drm_crtc_funcs.get_vblank_timestamp.
 * @shown: the buffer the head's scanout registers point into, or NULL;
 *	under &vseg_display.lock. Set when the commit programs them, so
 *	pinned (a plane state's vseg_display_pin()) for as long as it is
 *	set: the old state's cleanup_fb comes after the new state's update.
 * @scanout_gen: counts the commits that programmed the head (scanout,
 *	cursor, mode); written under &vseg_display.lock, read without it by
 *	the vblank timer: a CRC computed at one count is of the picture
 *	shown until the next.
 * @crc_lock: protects the @crc_ fields but @crc_work, @crc_width and
 *	@crc_height; taken from the vblank timer.
 * @crc_on: a CRC source ("auto") is set: each vblank reports a CRC and
 *	queues @crc_work.
 * @crc_vblank: the source holds a vblank reference (drm_crtc_vblank_get()
 *	succeeded when it was set).
 * @crc_valid: @crc_value holds a CRC computed since the source was set.
 * @crc_value: the CRC @crc_work last computed, as reported.
 * @crc_value_gen: the @scanout_gen it was computed at.
 * @crc_waiting: frames @crc_first to @crc_last wait for @crc_work to
 *	compute the picture's CRC (a commit changed it).
 * @crc_first: the first frame waiting.
 * @crc_last: the last one (frames the work fell behind by share its CRC).
 * @crc_next: the next frame to report a CRC for; 0: none reported yet.
 * @crc_work: computes the CRC of what the head shows (vseg_crtc.c).
 * @crc_width: the mode's visible width, for the CRC of a head showing
 *	nothing (black); set by the CRTC's enable.
 * @crc_height: the mode's visible height.
 */
struct vseg_kms_head {
	struct drm_crtc crtc;
	struct drm_plane primary;
	struct drm_plane cursor;
	struct drm_encoder encoder;
	struct drm_connector connector;
	struct hrtimer vblank_timer;
	spinlock_t timer_lock; /* see above */
	ktime_t frame;
	ktime_t last_vblank;
	struct vseg_bo *shown;
	u32 scanout_gen;
	spinlock_t crc_lock; /* see above */
	bool crc_on;
	bool crc_vblank;
	bool crc_valid;
	bool crc_waiting;
	u32 crc_value;
	u32 crc_value_gen;
	u64 crc_first;
	u64 crc_last;
	u64 crc_next;
	struct work_struct crc_work;
	u32 crc_width;
	u32 crc_height;
};

/**
 * struct vseg_display - the virtual display
 * @lock: protects each head's &vseg_kms_head.shown and its scanout
 *	registers; taken before any reservation.
 * @kms: each head's CRTC, planes, encoder and connector.
 * @flips_in_place: primaries pinned for display where they were, in a
 *	DirectFlip segment.
 * @flips_moved: primaries moved into a DirectFlip segment to be displayed.
 * @flips_elsewhere: primaries displayed outside DirectFlip segments (none
 *	of their supported segments has the flag).
 */
struct vseg_display {
	struct mutex lock; /* see above */
	struct vseg_kms_head kms[VSEG_NUM_HEADS];
	atomic64_t flips_in_place;
	atomic64_t flips_moved;
	atomic64_t flips_elsewhere;
};

#endif /* __VSEG_DISPLAY_TYPES_H__ */
