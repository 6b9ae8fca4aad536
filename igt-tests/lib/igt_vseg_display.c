// SPDX-License-Identifier: MIT
/*
 * The display through KMS (a primary shown on a head), and the debugfs
 * file "display".
 *
 * Copyright (c) 2026 The vseg authors
 */
#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include <stdio.h>
#include <xf86drm.h>
#include <xf86drmMode.h>
#include <drm_fourcc.h>

#include "igt.h"
#include "igt_vseg.h"

/* The heads' KMS objects on a device, by head: CRTC i drives head i. */
struct kms_heads {
	uint32_t crtc[DRM_VSEG_NUM_HEADS];
	uint32_t conn[DRM_VSEG_NUM_HEADS];
	uint32_t primary[DRM_VSEG_NUM_HEADS];
};


static uint32_t prop_lookup(int fd, uint32_t obj, uint32_t type,
			    const char *name, uint64_t *value)
{
	drmModeObjectPropertiesPtr props;
	uint32_t id = 0;

	props = drmModeObjectGetProperties(fd, obj, type);
	if (!props)
		return 0;
	for (uint32_t i = 0; i < props->count_props && !id; i++) {
		drmModePropertyPtr p = drmModeGetProperty(fd, props->props[i]);

		if (p && !strcmp(p->name, name)) {
			id = p->prop_id;
			if (value)
				*value = props->prop_values[i];
		}
		drmModeFreeProperty(p);
	}
	drmModeFreeObjectProperties(props);
	return id;
}

uint32_t __vseg_kms_prop_id(int fd, uint32_t obj, uint32_t type,
			    const char *name)
{
	return prop_lookup(fd, obj, type, name, NULL);
}

uint32_t vseg_kms_prop_get(int fd, uint32_t obj, uint32_t type,
			   const char *name, uint64_t *value)
{
	uint32_t id = prop_lookup(fd, obj, type, name, value);

	igt_assert_f(id, "object %u has no property %s\n", obj, name);
	return id;
}

uint32_t vseg_kms_prop_id(int fd, uint32_t obj, uint32_t type,
			  const char *name)
{
	uint32_t id = __vseg_kms_prop_id(fd, obj, type, name);

	igt_assert_f(id, "object %u has no property %s\n", obj, name);
	return id;
}

/* CRTC, connector and primary plane of each head; 0 or -errno. */
static int kms_heads_find(int fd, struct kms_heads *k)
{
	drmModePlaneResPtr pres;
	drmModeResPtr res;
	uint32_t type_id;

	if (drmSetClientCap(fd, DRM_CLIENT_CAP_UNIVERSAL_PLANES, 1) ||
	    drmSetClientCap(fd, DRM_CLIENT_CAP_ATOMIC, 1))
		return -errno;
	res = drmModeGetResources(fd);
	if (!res)
		return -errno;
	igt_assert_eq(res->count_crtcs, DRM_VSEG_NUM_HEADS);
	igt_assert_eq(res->count_connectors, DRM_VSEG_NUM_HEADS);
	memset(k, 0, sizeof(*k));
	for (int i = 0; i < DRM_VSEG_NUM_HEADS; i++) {
		k->crtc[i] = res->crtcs[i];
		k->conn[i] = res->connectors[i];
	}
	drmModeFreeResources(res);

	pres = drmModeGetPlaneResources(fd);
	igt_assert(pres);
	for (uint32_t i = 0; i < pres->count_planes; i++) {
		drmModePlanePtr p = drmModeGetPlane(fd, pres->planes[i]);
		drmModeObjectPropertiesPtr props;
		uint64_t type = ~0ull;

		igt_assert(p);
		type_id = __vseg_kms_prop_id(fd, p->plane_id, DRM_MODE_OBJECT_PLANE,
				      "type");
		props = drmModeObjectGetProperties(fd, p->plane_id,
						   DRM_MODE_OBJECT_PLANE);
		igt_assert(props);
		for (uint32_t j = 0; j < props->count_props; j++)
			if (props->props[j] == type_id)
				type = props->prop_values[j];
		drmModeFreeObjectProperties(props);
		if (type == DRM_PLANE_TYPE_PRIMARY)
			for (int h = 0; h < DRM_VSEG_NUM_HEADS; h++)
				if (p->possible_crtcs == (1u << h))
					k->primary[h] = p->plane_id;
		drmModeFreePlane(p);
	}
	drmModeFreePlaneResources(pres);
	for (int h = 0; h < DRM_VSEG_NUM_HEADS; h++)
		igt_assert_f(k->primary[h], "no primary plane for head %d\n", h);
	return 0;
}

/**
 * vseg_kms_add() - add a property's value to an atomic request
 * @req: the request
 * @fd: a DRM fd that may look the property up (a primary node)
 * @obj: the object (CRTC, plane or connector id)
 * @type: its DRM_MODE_OBJECT_ type
 * @name: the property's name, which the object must have
 * @value: the value
 */
void vseg_kms_add(drmModeAtomicReqPtr req, int fd, uint32_t obj,
		  uint32_t type, const char *name, uint64_t value)
{
	uint32_t id = __vseg_kms_prop_id(fd, obj, type, name);

	igt_assert_f(id, "object %u has no property %s\n", obj, name);
	igt_assert(drmModeAtomicAddProperty(req, obj, id, value) >= 0);
}

/* A mode of @w x @h at 60 Hz, for a framebuffer that covers it exactly. */
static void kms_mode(drmModeModeInfo *m, uint32_t w, uint32_t h)
{
	memset(m, 0, sizeof(*m));
	m->hdisplay = w;
	m->hsync_start = w + 16;
	m->hsync_end = w + 32;
	m->htotal = w + 48;
	m->vdisplay = h;
	m->vsync_start = h + 3;
	m->vsync_end = h + 6;
	m->vtotal = h + 10;
	m->clock = ((uint64_t)m->htotal * m->vtotal * 60 + 999) / 1000;
	m->vrefresh = 60;
	m->flags = DRM_MODE_FLAG_PHSYNC | DRM_MODE_FLAG_PVSYNC;
	m->type = DRM_MODE_TYPE_USERDEF;
	snprintf(m->name, sizeof(m->name), "%ux%u", w, h);
}

int __vseg_kms_commit_head(int fd, uint32_t conn, uint32_t crtc,
			   uint32_t plane, const drmModeModeInfo *mode,
			   uint32_t fb, uint32_t flags)
{
	uint32_t w = fb ? mode->hdisplay : 0, h = fb ? mode->vdisplay : 0;
	drmModeObjectPropertiesPtr props;
	drmModeAtomicReqPtr req;
	uint32_t blob = 0;
	int ret;

	req = drmModeAtomicAlloc();
	igt_assert(req);
	/*
	 * No property lookup on @fd (a render node): the atomic ioctl's own
	 * answer, to a request without objects (libdrm sends none itself).
	 */
	props = drmModeObjectGetProperties(fd, crtc, DRM_MODE_OBJECT_CRTC);
	if (!props) {
		struct drm_mode_atomic empty = {
			.flags = flags | DRM_MODE_ATOMIC_ALLOW_MODESET,
		};

		drmModeAtomicFree(req);
		return drmIoctl(fd, DRM_IOCTL_MODE_ATOMIC, &empty) ? -errno : 0;
	}
	drmModeFreeObjectProperties(props);
	if (fb && drmModeCreatePropertyBlob(fd, mode, sizeof(*mode), &blob)) {
		ret = -errno;
		drmModeAtomicFree(req);
		return ret;
	}
	vseg_kms_add(req, fd, conn, DRM_MODE_OBJECT_CONNECTOR, "CRTC_ID",
		     fb ? crtc : 0);
	vseg_kms_add(req, fd, crtc, DRM_MODE_OBJECT_CRTC, "MODE_ID", blob);
	vseg_kms_add(req, fd, crtc, DRM_MODE_OBJECT_CRTC, "ACTIVE", !!fb);
	vseg_kms_add(req, fd, plane, DRM_MODE_OBJECT_PLANE, "FB_ID", fb);
	vseg_kms_add(req, fd, plane, DRM_MODE_OBJECT_PLANE, "CRTC_ID",
		     fb ? crtc : 0);
	vseg_kms_add(req, fd, plane, DRM_MODE_OBJECT_PLANE, "SRC_X", 0);
	vseg_kms_add(req, fd, plane, DRM_MODE_OBJECT_PLANE, "SRC_Y", 0);
	vseg_kms_add(req, fd, plane, DRM_MODE_OBJECT_PLANE, "SRC_W",
		     (uint64_t)w << 16);
	vseg_kms_add(req, fd, plane, DRM_MODE_OBJECT_PLANE, "SRC_H",
		     (uint64_t)h << 16);
	vseg_kms_add(req, fd, plane, DRM_MODE_OBJECT_PLANE, "CRTC_X", 0);
	vseg_kms_add(req, fd, plane, DRM_MODE_OBJECT_PLANE, "CRTC_Y", 0);
	vseg_kms_add(req, fd, plane, DRM_MODE_OBJECT_PLANE, "CRTC_W", w);
	vseg_kms_add(req, fd, plane, DRM_MODE_OBJECT_PLANE, "CRTC_H", h);
	ret = drmModeAtomicCommit(fd, req,
				  flags | DRM_MODE_ATOMIC_ALLOW_MODESET, NULL);
	ret = ret ? -errno : 0;
	drmModeAtomicFree(req);
	if (blob)
		drmModeDestroyPropertyBlob(fd, blob);
	return ret;
}

/*
 * Light @head with @fb (@w x @h, a mode of its size), or turn the head
 * and its primary plane off (@fb 0): 0 or -errno of the atomic commit.
 */
static int kms_commit(int fd, const struct kms_heads *k, uint32_t head,
		      uint32_t fb, uint32_t w, uint32_t h)
{
	drmModeModeInfo mode;

	kms_mode(&mode, w, h);
	return __vseg_kms_commit_head(fd, k->conn[head], k->crtc[head],
				      k->primary[head], &mode, fb, 0);
}

/* The framebuffer head @head's primary plane shows now, or 0. */
static uint32_t plane_fb(int fd, const struct kms_heads *k, uint32_t head)
{
	drmModePlanePtr p = drmModeGetPlane(fd, k->primary[head]);
	uint32_t fb = p ? p->fb_id : 0;

	drmModeFreePlane(p);
	return fb;
}

static int display_show_locked(int fd, uint32_t head, uint32_t handle)
{
	uint32_t handles[4] = { handle }, pitches[4] = {}, offsets[4] = {};
	struct drm_vseg_gem_info info = {};
	uint32_t fb = 0, w = 0, h = 0;
	uint32_t old = 0;
	struct kms_heads k;
	int err;

	if (head >= DRM_VSEG_NUM_HEADS)
		return -EINVAL;
	if (handle) {
		err = __vseg_gem_info(fd, handle, &info);
		if (err)
			return err;
		/* XRGB8888, 1024 pixels a line (fewer for a small buffer). */
		w = info.size >= 4096 ? 1024 : (info.size / 4 ?: 1);
		h = info.size / (4ull * w);
		if (h > 8192)
			h = 8192;
		if (!h)
			return -EINVAL;
		pitches[0] = 4 * w;
		if (drmModeAddFB2(fd, w, h, DRM_FORMAT_XRGB8888, handles,
				  pitches, offsets, &fb, 0))
			return -errno;
	}
	err = kms_heads_find(fd, &k);
	if (!err) {
		old = plane_fb(fd, &k, head);
		err = kms_commit(fd, &k, head, fb, w, h);
	}
	if (err) {
		if (fb)
			drmModeRmFB(fd, fb);
		return err;
	}
	/*
	 * The framebuffer shown before goes, if it is @fd's: DRM refuses to
	 * remove another file's (ENOENT), which KMS then keeps showing
	 * nowhere. Asked of KMS, not remembered: a file closed and another
	 * opened under the same number must not remove the new one's.
	 */
	if (old && old != fb)
		drmModeRmFB(fd, old);
	return 0;
}

/*
 * Threads of one process (vseg_fuzz's) show buffers on their own heads
 * through one file: one at a time, so that each (fd, head)'s framebuffer
 * is the one the table says (removing another would turn its head off).
 */
static pthread_mutex_t show_lock = PTHREAD_MUTEX_INITIALIZER;

int __vseg_display_show(int fd, uint32_t head, uint32_t handle)
{
	int err;

	pthread_mutex_lock(&show_lock);
	err = display_show_locked(fd, head, handle);
	pthread_mutex_unlock(&show_lock);
	return err;
}

void vseg_display_show(int fd, uint32_t head, uint32_t handle)
{
	int err = __vseg_display_show(fd, head, handle);

	igt_assert_f(err == 0, "showing handle %u on head %u failed: %d (%s)\n",
		     handle, head, err, strerror(-err));
}

static void parse_head(const struct vseg_debugfs_line *l,
		       struct vseg_display_head *h)
{
	const char *fmt;
	uint64_t v = 0;

	memset(h, 0, sizeof(*h));
	h->head = l->id;
	h->on = vseg_debugfs_u64_or_none(l, "bo", false, &h->buffer_id);
	h->has_segment = vseg_debugfs_u64_or_none(l, "segment", false, &v);
	igt_assert_f(!h->has_segment || v <= DRM_VSEG_MAX_SEGMENTS,
		     "debugfs display: segment=%llu in \"%s\"\n",
		     (unsigned long long)v, l->text);
	h->segment = h->has_segment ? v : 0;
	vseg_debugfs_u64_or_none(l, "offset", true, &h->offset);
	h->mapped = vseg_debugfs_range(l, "aperture", &h->ap_start,
				       &h->ap_size);
	igt_assert_f(!h->mapped || h->ap_size,
		     "debugfs display: an empty aperture range in \"%s\"\n",
		     l->text);
	igt_assert_f(h->on || !h->mapped,
		     "debugfs display: a head showing nothing has an aperture range: \"%s\"\n",
		     l->text);
	/* The firmware's line has no scanout registers to show. */
	if (vseg_debugfs_value(l, "scanout"))
		h->has_scanout = vseg_debugfs_range(l, "scanout", &h->scanout,
						    &h->scanout_size);
	igt_assert_f(h->on || !h->has_scanout,
		     "debugfs display: a head showing nothing scans out: \"%s\"\n",
		     l->text);
	if (vseg_debugfs_value(l, "kms"))
		h->kms = vseg_debugfs_bool(l, "kms");
	fmt = vseg_debugfs_value(l, "format");
	if (fmt) {
		igt_assert_f(strlen(fmt) == 4 && h->has_scanout,
			     "debugfs display: format=%s in \"%s\"\n", fmt,
			     l->text);
		h->has_format = true;
		h->format = (uint32_t)fmt[0] | (uint32_t)fmt[1] << 8 |
			    (uint32_t)fmt[2] << 16 | (uint32_t)fmt[3] << 24;
		h->width = vseg_debugfs_u64(l, "width");
		h->height = vseg_debugfs_u64(l, "height");
		h->pitch = vseg_debugfs_u64(l, "pitch");
	}
}

void vseg_debugfs_parse_display(const char *text, struct vseg_display *d)
{
	struct vseg_debugfs_file f;

	memset(d, 0, sizeof(*d));
	vseg_debugfs_parse("display", text, NULL, &f);
	for (unsigned int i = 0; i < f.num_lines; i++) {
		const struct vseg_debugfs_line *l = &f.line[i];

		if (!vseg_debugfs_is(l, "head")) {
			/* A header line may come before the heads. */
			igt_assert_f(d->num_heads == 0,
				     "unexpected line in debugfs display: \"%s\"\n",
				     l->text);
			continue;
		}
		igt_assert_f(d->num_heads < DRM_VSEG_NUM_HEADS,
			     "debugfs display lists more than %u heads\n",
			     DRM_VSEG_NUM_HEADS);
		parse_head(l, &d->head[d->num_heads]);
		igt_assert_f(d->head[d->num_heads].head == d->num_heads,
			     "debugfs display: head %u listed as number %u\n",
			     d->head[d->num_heads].head, d->num_heads);
		d->num_heads++;
	}
	vseg_debugfs_free(&f);
	igt_assert_f(d->num_heads == DRM_VSEG_NUM_HEADS,
		     "debugfs display lists %u heads, expected %u\n",
		     d->num_heads, DRM_VSEG_NUM_HEADS);
}

void vseg_debugfs_read_display(int fd, struct vseg_display *d)
{
	char *text = vseg_debugfs_read_text(fd, "display");

	vseg_debugfs_parse_display(text, d);
	free(text);
}

bool vseg_display_has_cursor(int fd)
{
	char *text = vseg_debugfs_read_text(fd, "display_regs");
	bool has;

	igt_assert_f(strncmp(text, "controller=", strlen("controller=")) == 0,
		     "debugfs display_regs begins \"%.40s\"\n", text);
	has = strncmp(text, "controller=bochs ", strlen("controller=bochs ")) != 0;
	free(text);
	return has;
}

bool vseg_display_read_cursor(int fd, uint32_t head,
			      struct vseg_display_cursor *c)
{
	char *text = vseg_debugfs_read_text(fd, "display_regs");
	char key[32], blend[16];
	unsigned long long addr, size;
	const char *l;
	bool on;

	memset(c, 0, sizeof(*c));
	snprintf(key, sizeof(key), "\nhead%u_cursor=", head);
	l = strstr(text, key);
	igt_assert_f(l, "debugfs display_regs: no head%u_cursor line\n", head);
	l += strlen(key);
	on = *l != '-';
	if (on)
		igt_assert_f(sscanf(l, "0x%llx+0x%llx width=%u height=%u pitch=%u x=%d y=%d blend=%15s",
				    &addr, &size, &c->width, &c->height,
				    &c->pitch, &c->x, &c->y, blend) == 8,
			     "debugfs display_regs: head%u_cursor=%.120s\n",
			     head, l);
	if (on) {
		c->address = addr;
		c->opaque = !strcmp(blend, "none");
	}
	free(text);
	return on;
}
