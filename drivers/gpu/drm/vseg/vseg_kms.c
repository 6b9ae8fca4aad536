// SPDX-License-Identifier: GPL-2.0-only
/*
 * Copyright (c) 2026 The vseg authors
 *
 * KMS atomic modesetting: the mode configuration, framebuffers of vseg
 * buffers (ADDFB2), and per head (VSEG_NUM_HEADS) a CRTC (vseg_crtc.c)
 * with a primary and (where the display controller has cursor registers)
 * a cursor plane (vseg_plane.c), a virtual encoder and
 * a virtual connector, always connected, with the usual modes.
 */

#include <drm/drm_atomic.h>
#include <drm/drm_atomic_helper.h>
#include <drm/drm_connector.h>
#include <drm/drm_edid.h>
#include <drm/drm_encoder.h>
#include <drm/drm_fourcc.h>
#include <drm/drm_framebuffer.h>
#include <drm/drm_gem_framebuffer_helper.h>
#include <drm/drm_mode_config.h>
#include <drm/drm_modeset_helper_vtables.h>
#include <drm/drm_probe_helper.h>
#include <drm/drm_vblank.h>

#include "vseg_bo.h"
#include "vseg_crtc.h"
#include "vseg_device_types.h"
#include "vseg_gem.h"
#include "vseg_hw.h"
#include "vseg_kms.h"
#include "vseg_plane.h"
#include "vseg_compat.h"

/* The modes the connectors offer, up to this; 1024x768 preferred. */
#define VSEG_MODE_MAX_WIDTH	1920
#define VSEG_MODE_MAX_HEIGHT	1200
#define VSEG_MODE_PREF_WIDTH	1024
#define VSEG_MODE_PREF_HEIGHT	768
/* The largest framebuffer and mode a client may ask for. */
#define VSEG_FB_MAX		8192

/*
 * A framebuffer of one vseg buffer, in a format a primary plane scans out,
 * linear. DRM checks that each line's pixels fit in the pitch and that the
 * last line ends inside the buffer (the offset included).
 */
static struct drm_framebuffer *
fb_create(struct drm_device *drm, struct drm_file *file,
	  VSEG_FB_CREATE_INFO_ARG const struct drm_mode_fb_cmd2 *cmd)
{
	struct drm_gem_object *obj;
	bool offered;

	if (!vseg_plane_format_supported(cmd->pixel_format))
		return ERR_PTR(-EINVAL);
	if ((cmd->flags & DRM_MODE_FB_MODIFIERS) &&
	    cmd->modifier[0] != DRM_FORMAT_MOD_LINEAR)
		return ERR_PTR(-EINVAL);
	/* An offered buffer is unused until RECLAIM (the pin refuses too). */
	obj = drm_gem_object_lookup(file, cmd->handles[0]);
	if (!obj)
		return ERR_PTR(-ENOENT);
	offered = vseg_gem_is_vseg(obj) && vseg_bo_offered(gem_to_vseg_bo(obj));
	drm_gem_object_put(obj);
	if (offered)
		return ERR_PTR(-EBUSY);
	return drm_gem_fb_create(drm, file, VSEG_FB_CREATE_INFO cmd);
}

static const struct drm_mode_config_funcs mode_config_funcs = {
	.fb_create = fb_create,
	.atomic_check = drm_atomic_helper_check,
	.atomic_commit = drm_atomic_helper_commit,
};

/*
 * Enable the CRTCs before their planes are programmed, so that a flip
 * event of the commit that lights a head goes out at its first vblank.
 */
static const struct drm_mode_config_helper_funcs mode_config_helpers = {
	.atomic_commit_tail = drm_atomic_helper_commit_tail_rpm,
};

static int connector_get_modes(struct drm_connector *connector)
{
	int n = drm_add_modes_noedid(connector, VSEG_MODE_MAX_WIDTH,
				     VSEG_MODE_MAX_HEIGHT);

	drm_set_preferred_mode(connector, VSEG_MODE_PREF_WIDTH,
			       VSEG_MODE_PREF_HEIGHT);
	return n;
}

/*
 * Within what the display controller shows: its largest mode and, for one
 * that scans out one BAR, a 32-bit picture that fits in the part of the
 * BAR the primaries are kept in.
 */
static enum drm_mode_status
connector_mode_valid(struct drm_connector *connector,
		     VSEG_MODE_VALID_CONST struct drm_display_mode *mode)
{
	struct vseg_hw_display *hd = to_vseg(connector->dev)->hw.display;
	struct vseg_layout *l = &to_vseg(connector->dev)->layout;

	if (mode->hdisplay > hd->max_width || mode->vdisplay > hd->max_height)
		return MODE_BAD;
	if (l->display_seg &&
	    (u64)mode->hdisplay * mode->vdisplay * 4 > l->display_reach)
		return MODE_MEM;
	return MODE_OK;
}

static const struct drm_connector_helper_funcs connector_helpers = {
	.get_modes = connector_get_modes,
	.mode_valid = connector_mode_valid,
};

/* No detect: the probe helper takes a virtual connector as connected. */
static const struct drm_connector_funcs connector_funcs = {
	.fill_modes = drm_helper_probe_single_connector_modes,
	.reset = drm_atomic_helper_connector_reset,
	.atomic_duplicate_state = drm_atomic_helper_connector_duplicate_state,
	.atomic_destroy_state = drm_atomic_helper_connector_destroy_state,
};

static int head_init(struct vseg_device *vdev, u32 head)
{
	struct vseg_kms_head *h = &vdev->display.kms[head];
	int err;

	err = vseg_planes_init(vdev, head);
	if (!err)
		err = vseg_crtc_init(vdev, head);
	if (!err)
		err = drmm_encoder_init(&vdev->drm, &h->encoder, NULL,
					DRM_MODE_ENCODER_VIRTUAL, NULL);
	if (err)
		return err;
	h->encoder.possible_crtcs = drm_crtc_mask(&h->crtc);
	err = drmm_connector_init(&vdev->drm, &h->connector, &connector_funcs,
				  DRM_MODE_CONNECTOR_VIRTUAL, NULL);
	if (err)
		return err;
	drm_connector_helper_add(&h->connector, &connector_helpers);
	return drm_connector_attach_encoder(&h->connector, &h->encoder);
}

/**
 * vseg_kms_init() - the mode configuration and every head's KMS objects
 * @vdev: the device
 *
 * Every head off. Torn down with the DRM device (drmm).
 *
 * Return: 0 or a negative error code.
 */
int vseg_kms_init(struct vseg_device *vdev)
{
	struct drm_device *drm = &vdev->drm;
	u32 i;
	int err;

	err = drmm_mode_config_init(drm);
	if (err)
		return err;
	drm->mode_config.funcs = &mode_config_funcs;
	drm->mode_config.helper_private = &mode_config_helpers;
	drm->mode_config.min_width = 1;
	drm->mode_config.min_height = 1;
	drm->mode_config.max_width = VSEG_FB_MAX;
	drm->mode_config.max_height = VSEG_FB_MAX;
	drm->mode_config.cursor_width = VSEG_CURSOR_MAX;
	drm->mode_config.cursor_height = VSEG_CURSOR_MAX;
	drm->mode_config.preferred_depth = 24;

	for (i = 0; i < VSEG_NUM_HEADS; i++) {
		err = head_init(vdev, i);
		if (err)
			return err;
	}
	err = drm_vblank_init(drm, VSEG_NUM_HEADS);
	if (!err)
		err = vseg_kms_poll_init(drm);
	if (err)
		return err;
	drm_mode_config_reset(drm);
	return 0;
}
