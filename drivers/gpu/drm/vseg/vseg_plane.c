// SPDX-License-Identifier: GPL-2.0-only
/*
 * Copyright (c) 2026 The vseg authors
 *
 * Each head's planes. A primary plane's framebuffer is a vseg buffer the
 * display controller reads physically: prepare_fb pins it where the
 * display reaches it (vseg_display_pin(): contiguous in a memory segment,
 * or mapped into the aperture, even without AccessedPhysically) and has
 * the commit wait for its write fences; cleanup_fb drops that pin, and a
 * buffer without AccessedPhysically leaves the aperture once no head
 * shows it. atomic_update programs the head's scanout registers, or for a
 * cursor plane the head's cursor registers: the whole image and where its
 * top left pixel goes, which may be off the picture (the display
 * controller clips it). A display controller without cursor registers
 * (QEMU's Bochs adapter) gives its CRTCs no cursor plane.
 */

#include <drm/drm_atomic.h>
#include <drm/drm_atomic_helper.h>
#include <drm/drm_blend.h>
#include <drm/drm_fourcc.h>
#include <drm/drm_framebuffer.h>
#include <drm/drm_gem_atomic_helper.h>
#include <drm/drm_gem_framebuffer_helper.h>
#include <drm/drm_plane.h>

#include "vseg_bo.h"
#include "vseg_device_types.h"
#include "vseg_display.h"
#include "vseg_hw.h"
#include "vseg_placement.h"
#include "vseg_plane.h"
#include "vseg_ranges.h"
#include "vseg_compat.h"

static const u32 primary_formats[] = {
	DRM_FORMAT_XRGB8888,
	DRM_FORMAT_ARGB8888,
	DRM_FORMAT_RGB565,
};

static const u32 cursor_formats[] = {
	DRM_FORMAT_ARGB8888,
};

static const u64 linear_only[] = {
	DRM_FORMAT_MOD_LINEAR,
	DRM_FORMAT_MOD_INVALID,
};

/**
 * struct vseg_plane_state - a plane's state
 * @base: DRM's.
 * @pinned: the buffer prepare_fb pinned for the display (the framebuffer's,
 *	when the plane is visible on an active CRTC), for cleanup_fb; or
 *	NULL.
 */
struct vseg_plane_state {
	struct drm_plane_state base;
	struct vseg_bo *pinned;
};

static struct vseg_plane_state *to_vps(struct drm_plane_state *s)
{
	return container_of(s, struct vseg_plane_state, base);
}

static u32 plane_head(struct drm_plane *plane)
{
	struct vseg_device *vdev = to_vseg(plane->dev);
	struct vseg_kms_head *h = plane->type == DRM_PLANE_TYPE_CURSOR ?
		container_of(plane, struct vseg_kms_head, cursor) :
		container_of(plane, struct vseg_kms_head, primary);

	return h - vdev->display.kms;
}

static struct vseg_bo *fb_bo(struct drm_framebuffer *fb)
{
	return gem_to_vseg_bo(drm_gem_fb_get_obj(fb, 0));
}

/*
 * Whether the display controller can ever reach the buffer: a memory
 * segment or the aperture among its supported segments. Any buffer that
 * has one can be made reachable (vseg_display_pin() maps it into the
 * aperture without AccessedPhysically); one supported in system memory
 * only cannot. A protected buffer's places are VPRs, which the display
 * reads like any memory segment range. A display that scans out one BAR
 * alone reaches only the segment there (vseg_place_display()).
 */
static bool display_reaches(struct vseg_device *vdev, struct vseg_bo *bo)
{
	struct ttm_place places[VSEG_BO_MAX_PLACES];
	bool direct;

	return vseg_place_display(&vdev->layout, &bo->params, places, &direct);
}

/*
 * What a primary plane state scans out, its address the first pixel's
 * offset in the framebuffer's buffer.
 */
static void scanout_of(const struct drm_plane_state *ps,
		       struct vseg_hw_scanout *s)
{
	const struct drm_framebuffer *fb = ps->fb;
	u64 first = fb->offsets[0] + (u64)(ps->src.y1 >> 16) * fb->pitches[0] +
		    (u64)(ps->src.x1 >> 16) * fb->format->cpp[0];
	struct vseg_bo *bo = fb_bo(ps->fb);

	s->address = first;
	s->size = bo->tbo.base.size - first;
	s->width = drm_rect_width(&ps->dst);
	s->height = drm_rect_height(&ps->dst);
	s->pitch = fb->pitches[0];
	s->format = fb->format->format;
}

/*
 * What a cursor plane state shows: the image from the source position on,
 * unclipped (crtc_x and crtc_y may be negative, the image may go past the
 * picture's edge), its address the first pixel's offset in the
 * framebuffer's buffer.
 */
static void cursor_of(const struct drm_plane_state *ps,
		      struct vseg_hw_cursor *c)
{
	const struct drm_framebuffer *fb = ps->fb;
	u64 first = fb->offsets[0] + (u64)(ps->src_y >> 16) * fb->pitches[0] +
		    (u64)(ps->src_x >> 16) * fb->format->cpp[0];

	c->address = first;
	c->size = fb_bo(ps->fb)->tbo.base.size - first;
	c->width = ps->crtc_w;
	c->height = ps->crtc_h;
	c->pitch = fb->pitches[0];
	c->x = ps->crtc_x;
	c->y = ps->crtc_y;
	c->blend = ps->pixel_blend_mode == DRM_MODE_BLEND_PIXEL_NONE ?
		   VSEG_HW_CURSOR_OPAQUE : VSEG_HW_CURSOR_PREMULTI;
}

static int plane_atomic_check(struct drm_plane *plane,
			      struct drm_atomic_state *state)
{
	struct drm_plane_state *ps = drm_atomic_get_new_plane_state(state, plane);
	bool cursor = plane->type == DRM_PLANE_TYPE_CURSOR;
	struct vseg_hw_scanout s;
	struct drm_crtc_state *cs;
	int err;

	/* DRM refused a CRTC without a framebuffer and the reverse. */
	if (!ps->crtc) {
		ps->visible = false;
		return 0;
	}
	cs = drm_atomic_get_crtc_state(state, ps->crtc);
	if (IS_ERR(cs))
		return PTR_ERR(cs);
	err = drm_atomic_helper_check_plane_state(ps, cs, DRM_PLANE_NO_SCALING,
						  DRM_PLANE_NO_SCALING, cursor,
						  true);
	if (err || !ps->visible)
		return err;
	if (cursor && (ps->crtc_w > VSEG_CURSOR_MAX || ps->crtc_h > VSEG_CURSOR_MAX))
		return -EINVAL;
	if (!display_reaches(to_vseg(plane->dev), fb_bo(ps->fb)))
		return -EINVAL;
	if (cursor)
		return 0;
	/* The display controller's own limits: mode, format, pitch. */
	scanout_of(ps, &s);
	return vseg_display_check(to_vseg(plane->dev), plane_head(plane), &s);
}

/* Whether the state shows its framebuffer on an active CRTC. */
static bool shown(struct drm_plane_state *ps)
{
	struct drm_crtc_state *cs;

	if (!ps->fb || !ps->crtc || !ps->visible)
		return false;
	cs = drm_atomic_get_new_crtc_state(ps->state, ps->crtc);
	return cs ? cs->active : ps->crtc->state->active;
}

static int plane_prepare_fb(struct drm_plane *plane,
			    struct drm_plane_state *ps)
{
	struct vseg_plane_state *vps = to_vps(ps);
	struct vseg_bo *bo;
	int err;

	vps->pinned = NULL;
	if (!shown(ps))
		return 0;
	bo = fb_bo(ps->fb);
	/* The first modeset takes the display over from the firmware. */
	vseg_firmware_handover(to_vseg(plane->dev));
	err = vseg_display_pin(bo);
	if (err)
		return err;
	/* The commit waits for the buffer's writers (and its move). */
	err = drm_gem_plane_helper_prepare_fb(plane, ps);
	if (err) {
		vseg_display_unpin(bo);
		return err;
	}
	vps->pinned = bo;
	return 0;
}

static void plane_cleanup_fb(struct drm_plane *plane,
			     struct drm_plane_state *ps)
{
	struct vseg_plane_state *vps = to_vps(ps);

	vseg_display_unpin(vps->pinned);
	vps->pinned = NULL;
}

static void primary_atomic_update(struct drm_plane *plane,
				  struct drm_atomic_state *state)
{
	struct drm_plane_state *ps = drm_atomic_get_new_plane_state(state, plane);
	struct vseg_device *vdev = to_vseg(plane->dev);
	struct vseg_bo *bo = to_vps(ps)->pinned;
	struct vseg_hw_scanout s;

	if (!bo) {
		vseg_display_kms_show(vdev, plane_head(plane), NULL, NULL);
		return;
	}
	scanout_of(ps, &s);
	s.address += vseg_display_address(vdev, bo);
	vseg_display_kms_show(vdev, plane_head(plane), bo, &s);
}

static void primary_atomic_disable(struct drm_plane *plane,
				   struct drm_atomic_state *state)
{
	vseg_display_kms_show(to_vseg(plane->dev), plane_head(plane), NULL,
			      NULL);
}

/*
 * The cursor's framebuffer is pinned where the display reaches it
 * (prepare_fb) while it is visible on an active CRTC: the head's cursor
 * registers point into it then, and are off otherwise.
 */
static void cursor_atomic_update(struct drm_plane *plane,
				 struct drm_atomic_state *state)
{
	struct drm_plane_state *ps = drm_atomic_get_new_plane_state(state, plane);
	struct vseg_device *vdev = to_vseg(plane->dev);
	struct vseg_bo *bo = to_vps(ps)->pinned;
	struct vseg_hw_cursor c;

	if (!bo) {
		vseg_display_kms_cursor(vdev, plane_head(plane), NULL);
		return;
	}
	cursor_of(ps, &c);
	c.address += vseg_display_address(vdev, bo);
	vseg_display_kms_cursor(vdev, plane_head(plane), &c);
}

static void cursor_atomic_disable(struct drm_plane *plane,
				  struct drm_atomic_state *state)
{
	vseg_display_kms_cursor(to_vseg(plane->dev), plane_head(plane), NULL);
}

static const struct drm_plane_helper_funcs primary_helper_funcs = {
	.atomic_check = plane_atomic_check,
	.prepare_fb = plane_prepare_fb,
	.cleanup_fb = plane_cleanup_fb,
	.atomic_update = primary_atomic_update,
	.atomic_disable = primary_atomic_disable,
};

static const struct drm_plane_helper_funcs cursor_helper_funcs = {
	.atomic_check = plane_atomic_check,
	.prepare_fb = plane_prepare_fb,
	.cleanup_fb = plane_cleanup_fb,
	.atomic_update = cursor_atomic_update,
	.atomic_disable = cursor_atomic_disable,
};

static void plane_reset(struct drm_plane *plane)
{
	struct vseg_plane_state *vps;

	if (plane->state) {
		__drm_atomic_helper_plane_destroy_state(plane->state);
		kfree(to_vps(plane->state));
		plane->state = NULL;
	}
	vps = kzalloc(sizeof(*vps), GFP_KERNEL);
	if (vps)
		__drm_atomic_helper_plane_reset(plane, &vps->base);
}

static struct drm_plane_state *plane_duplicate_state(struct drm_plane *plane)
{
	struct vseg_plane_state *vps = kzalloc(sizeof(*vps), GFP_KERNEL);

	if (!vps)
		return NULL;
	__drm_atomic_helper_plane_duplicate_state(plane, &vps->base);
	return &vps->base;
}

static void plane_destroy_state(struct drm_plane *plane,
				struct drm_plane_state *ps)
{
	__drm_atomic_helper_plane_destroy_state(ps);
	kfree(to_vps(ps));
}

static bool plane_format_mod_supported(struct drm_plane *plane, u32 format,
				       u64 modifier)
{
	return modifier == DRM_FORMAT_MOD_LINEAR;
}

static const struct drm_plane_funcs plane_funcs = {
	.update_plane = drm_atomic_helper_update_plane,
	.disable_plane = drm_atomic_helper_disable_plane,
	.destroy = drm_plane_cleanup,
	.reset = plane_reset,
	.atomic_duplicate_state = plane_duplicate_state,
	.atomic_destroy_state = plane_destroy_state,
	.format_mod_supported = plane_format_mod_supported,
};

/*
 * ARGB8888's alpha. A primary's pixel shows its colour as it is, which
 * over the black behind it is what premultiplied alpha and "None" both
 * give. A cursor's goes over the primary with premultiplied alpha (the
 * default), or replaces it with "None" (vseg_hw_cursor.blend).
 */
static int plane_blend_init(struct drm_plane *plane)
{
	return drm_plane_create_blend_mode_property(plane,
						    BIT(DRM_MODE_BLEND_PREMULTI) |
						    BIT(DRM_MODE_BLEND_PIXEL_NONE));
}

/* The cursor registers take any image a cursor plane may show. */
static_assert(VSEG_CURSOR_MAX <= VSEG_HW_CURSOR_MAX);

/**
 * vseg_planes_have_cursor() - whether the heads get a cursor plane
 * @vdev: the device
 *
 * Return: true if the display controller has cursor registers. One
 * without them (QEMU's Bochs adapter) has no hardware cursor to offer: a
 * CRTC may have no cursor plane, and userspace draws the pointer itself
 * then, where a plane refused in every commit would only fail.
 */
bool vseg_planes_have_cursor(struct vseg_device *vdev)
{
	return vdev->hw.display->ops->set_cursor;
}

/**
 * vseg_planes_init() - a head's primary and cursor planes
 * @vdev: the device
 * @head: the head
 *
 * The cursor plane only on a display controller with cursor registers
 * (&vseg_hw_display_ops.set_cursor; vseg_planes_have_cursor()). Cleaned up
 * with the mode configuration (drmm).
 *
 * Return: 0 or a negative error code.
 */
int vseg_planes_init(struct vseg_device *vdev, u32 head)
{
	struct vseg_kms_head *h = &vdev->display.kms[head];
	int err;

	err = drm_universal_plane_init(&vdev->drm, &h->primary, BIT(head),
				       &plane_funcs, primary_formats,
				       ARRAY_SIZE(primary_formats), linear_only,
				       DRM_PLANE_TYPE_PRIMARY, NULL);
	if (err)
		return err;
	drm_plane_helper_add(&h->primary, &primary_helper_funcs);
	err = plane_blend_init(&h->primary);
	if (err || !vseg_planes_have_cursor(vdev))
		return err;
	/*
	 * Damage clips are welcome and need nothing: the display controller
	 * reads the whole framebuffer every frame.
	 */
	drm_plane_enable_fb_damage_clips(&h->primary);
	err = drm_universal_plane_init(&vdev->drm, &h->cursor, BIT(head),
				       &plane_funcs, cursor_formats,
				       ARRAY_SIZE(cursor_formats), linear_only,
				       DRM_PLANE_TYPE_CURSOR, NULL);
	if (err)
		return err;
	drm_plane_helper_add(&h->cursor, &cursor_helper_funcs);
	return plane_blend_init(&h->cursor);
}

/**
 * vseg_plane_format_supported() - whether a primary plane scans out a format
 * @format: a DRM fourcc
 *
 * Return: true for the formats of the primary planes (which include the
 * cursors').
 */
bool vseg_plane_format_supported(u32 format)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(primary_formats); i++)
		if (primary_formats[i] == format)
			return true;
	return false;
}
