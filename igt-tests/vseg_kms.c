// SPDX-License-Identifier: MIT
/*
 * vseg_kms: primaries through KMS atomic modesetting.
 *
 * Each head is a CRTC with a primary and a cursor plane, a virtual encoder
 * and a virtual connector. A plane's framebuffer is a vseg buffer (dumb
 * buffers included) that the display controller reads physically: while
 * it is shown it is pinned contiguous in a memory segment or mapped into
 * the aperture, and a buffer without AccessedPhysically leaves the
 * aperture when no head shows it any more. debugfs "display" shows each
 * head's scanout registers: the first pixel's GPU physical address, and
 * for a KMS head its width, height, pitch and format.
 *
 * Copyright (c) 2026 The vseg authors
 */
/**
 * TEST: vseg kms
 * Category: Core
 * Mega feature: General Core features
 * Sub-category: Display
 * Functionality: kms
 * Description: Light vseg's heads through KMS: framebuffers of vseg and
 *	dumb buffers, where the display reaches them while shown and no
 *	longer after; ADDFB2's checks; flip events and vblanks; flips that
 *	wait for the framebuffer's writer; DRM's master rules; and the
 *	removed private scanout ioctl's number, which fails.
 *
 * SUBTEST: modeset
 * Description: An atomic commit lights head 0 with a 1024x768 XRGB8888
 *	dumb buffer: debugfs display shows its GPU physical address, format,
 *	size and pitch, the buffer is pinned contiguous or mapped into the
 *	aperture. A buffer supported in the aperture only and without
 *	AccessedPhysically is mapped while shown and unmapped and unpinned
 *	once the CRTC is turned off.
 *
 * SUBTEST: addfb-checks
 * Description: ADDFB2 refuses with EINVAL a format no plane scans out, a
 *	modifier other than linear, a pitch below the line's bytes, and an
 *	offset that puts the last line past the buffer's end; XRGB8888,
 *	ARGB8888 and RGB565 framebuffers of a dumb buffer are made.
 *
 * SUBTEST: flip-event
 * Description: A page flip with DRM_MODE_PAGE_FLIP_EVENT delivers one
 *	event for the CRTC and then shows the new framebuffer; the vblank
 *	counter advances through drmWaitVBlank at about the mode's rate.
 *
 * SUBTEST: flip-waits-fence
 * Description: A flip to a buffer a job still has to write (the job held
 *	back by a fence the test controls) completes only after the job: no
 *	event and the old framebuffer shown while the job is held, then the
 *	event, the new framebuffer, and the job's pixels.
 *
 * SUBTEST: render-node-cannot-modeset
 * Description: An unprivileged child (uid 65534) with a render node and a
 *	card fd that is not the DRM master cannot commit, set a CRTC or flip
 *	(EACCES; the render node cannot even add a framebuffer); what head 0
 *	shows does not change.
 *
 * SUBTEST: closed-buffer-keeps-scanning
 * Description: Closing the GEM handle of a shown framebuffer's buffer keeps
 *	it displayed and pinned until the CRTC is turned off; the buffer goes
 *	with its framebuffer.
 *
 * SUBTEST: removed-scanout-ioctl
 * Description: The private scanout ioctl's number (0x09, removed in 0.11)
 *	fails with EINVAL, from the DRM master as from a render node, and
 *	changes nothing: the head KMS lights keeps showing its framebuffer,
 *	a primary passed to it is neither pinned nor mapped.
 */
#include <errno.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#include <drm_fourcc.h>
#include <xf86drm.h>
#include <xf86drmMode.h>

#include "igt.h"
#include "igt_vseg.h"
#include "igt_vseg_exec.h"
#include "igt_vseg_fence.h"

IGT_TEST_DESCRIPTION("Light vseg's heads through KMS: framebuffers of vseg "
		     "and dumb buffers where the display reaches them, "
		     "ADDFB2's checks, flip events and vblanks, flips that "
		     "wait for the framebuffer's writer, DRM's master rules, "
		     "the removed scanout ioctl's number failing.");

#define AP_FLAG		DRM_VSEG_GEM_CREATE_ACCESSED_PHYSICALLY
#define PRIMARY		DRM_VSEG_GEM_CREATE_PRIMARY
#define MAPPED		DRM_VSEG_INFO_APERTURE_MAPPED
#define PINNED		DRM_VSEG_INFO_PINNED
#define W		1024
#define H		768
#define FB_SIZE		(W * H * 4ull)
/* where flip-waits-fence's job writes its framebuffer */
#define FLIP_VA		0x200000000ull

static struct vseg_ctx ctx = VSEG_CTX_INIT_ENGINE(VSEG_LEFTOVERS_BASE_COUNT);

/**
 * struct kms - the heads' KMS objects, by head
 * @crtc: CRTC ids.
 * @conn: connector ids.
 * @primary: primary plane ids.
 * @mode: the connector's 1024x768 mode.
 */
static struct kms {
	uint32_t crtc[DRM_VSEG_NUM_HEADS];
	uint32_t conn[DRM_VSEG_NUM_HEADS];
	uint32_t primary[DRM_VSEG_NUM_HEADS];
	drmModeModeInfo mode;
} kms;

static uint32_t prop_id(int fd, uint32_t obj, uint32_t type, const char *name)
{
	drmModeObjectPropertiesPtr props;
	uint32_t id = 0;

	props = drmModeObjectGetProperties(fd, obj, type);
	igt_assert(props);
	for (uint32_t i = 0; i < props->count_props && !id; i++) {
		drmModePropertyPtr p = drmModeGetProperty(fd, props->props[i]);

		if (p && !strcmp(p->name, name))
			id = p->prop_id;
		drmModeFreeProperty(p);
	}
	drmModeFreeObjectProperties(props);
	igt_assert_f(id, "object %u has no property %s\n", obj, name);
	return id;
}

static uint64_t prop_value(int fd, uint32_t obj, uint32_t type,
			   const char *name)
{
	drmModeObjectPropertiesPtr props;
	uint32_t id = prop_id(fd, obj, type, name);
	uint64_t v = 0;

	props = drmModeObjectGetProperties(fd, obj, type);
	for (uint32_t i = 0; i < props->count_props; i++)
		if (props->props[i] == id)
			v = props->prop_values[i];
	drmModeFreeObjectProperties(props);
	return v;
}

/* The heads' objects: CRTC i, connector i and the primary plane of CRTC i. */
static void kms_init(int fd)
{
	drmModePlaneResPtr pres;
	drmModeResPtr res;
	drmModeConnectorPtr c;
	bool found = false;

	igt_assert_eq(drmSetClientCap(fd, DRM_CLIENT_CAP_UNIVERSAL_PLANES, 1), 0);
	igt_assert_eq(drmSetClientCap(fd, DRM_CLIENT_CAP_ATOMIC, 1), 0);
	res = drmModeGetResources(fd);
	igt_assert(res);
	igt_assert_eq(res->count_crtcs, DRM_VSEG_NUM_HEADS);
	igt_assert_eq(res->count_connectors, DRM_VSEG_NUM_HEADS);
	memset(&kms, 0, sizeof(kms));
	for (int i = 0; i < DRM_VSEG_NUM_HEADS; i++) {
		kms.crtc[i] = res->crtcs[i];
		kms.conn[i] = res->connectors[i];
	}
	drmModeFreeResources(res);

	pres = drmModeGetPlaneResources(fd);
	igt_assert(pres);
	/* A primary and a cursor plane per head. */
	igt_assert_eq(pres->count_planes, 2 * DRM_VSEG_NUM_HEADS);
	for (uint32_t i = 0; i < pres->count_planes; i++) {
		drmModePlanePtr p = drmModeGetPlane(fd, pres->planes[i]);
		uint64_t type = prop_value(fd, p->plane_id,
					   DRM_MODE_OBJECT_PLANE, "type");

		if (type == DRM_PLANE_TYPE_PRIMARY)
			for (int h = 0; h < DRM_VSEG_NUM_HEADS; h++)
				if (p->possible_crtcs == (1u << h))
					kms.primary[h] = p->plane_id;
		drmModeFreePlane(p);
	}
	drmModeFreePlaneResources(pres);
	for (int h = 0; h < DRM_VSEG_NUM_HEADS; h++)
		igt_assert_f(kms.primary[h], "no primary plane for head %d\n", h);

	c = drmModeGetConnector(fd, kms.conn[0]);
	igt_assert(c);
	igt_assert_eq(c->connection, DRM_MODE_CONNECTED);
	for (int i = 0; i < c->count_modes; i++)
		if (c->modes[i].hdisplay == W && c->modes[i].vdisplay == H &&
		    (c->modes[i].type & DRM_MODE_TYPE_PREFERRED)) {
			kms.mode = c->modes[i];
			found = true;
		}
	drmModeFreeConnector(c);
	igt_assert_f(found, "no preferred 1024x768 mode on connector %u\n",
		     kms.conn[0]);
}

/* Property ids are the device's: looked up through the test's own fd. */
static void add(drmModeAtomicReqPtr req, int fd __maybe_unused, uint32_t obj,
		uint32_t type, const char *name, uint64_t value)
{
	igt_assert(drmModeAtomicAddProperty(req, obj,
					    prop_id(ctx.fd, obj, type, name),
					    value) >= 0);
}

/*
 * Light @head with framebuffer @fb (1024x768), or turn it off (@fb 0): 0
 * or -errno of the atomic commit.
 */
static int __commit_head(int fd, int head, uint32_t fb, uint32_t flags)
{
	drmModeAtomicReqPtr req = drmModeAtomicAlloc();
	uint32_t blob = 0;
	int ret;

	igt_assert(req);
	if (fb)
		igt_assert_eq(drmModeCreatePropertyBlob(fd, &kms.mode,
							sizeof(kms.mode),
							&blob), 0);
	add(req, fd, kms.conn[head], DRM_MODE_OBJECT_CONNECTOR, "CRTC_ID",
	    fb ? kms.crtc[head] : 0);
	add(req, fd, kms.crtc[head], DRM_MODE_OBJECT_CRTC, "MODE_ID", blob);
	add(req, fd, kms.crtc[head], DRM_MODE_OBJECT_CRTC, "ACTIVE", !!fb);
	add(req, fd, kms.primary[head], DRM_MODE_OBJECT_PLANE, "FB_ID", fb);
	add(req, fd, kms.primary[head], DRM_MODE_OBJECT_PLANE, "CRTC_ID",
	    fb ? kms.crtc[head] : 0);
	add(req, fd, kms.primary[head], DRM_MODE_OBJECT_PLANE, "SRC_X", 0);
	add(req, fd, kms.primary[head], DRM_MODE_OBJECT_PLANE, "SRC_Y", 0);
	add(req, fd, kms.primary[head], DRM_MODE_OBJECT_PLANE, "SRC_W",
	    fb ? (uint64_t)W << 16 : 0);
	add(req, fd, kms.primary[head], DRM_MODE_OBJECT_PLANE, "SRC_H",
	    fb ? (uint64_t)H << 16 : 0);
	add(req, fd, kms.primary[head], DRM_MODE_OBJECT_PLANE, "CRTC_X", 0);
	add(req, fd, kms.primary[head], DRM_MODE_OBJECT_PLANE, "CRTC_Y", 0);
	add(req, fd, kms.primary[head], DRM_MODE_OBJECT_PLANE, "CRTC_W",
	    fb ? W : 0);
	add(req, fd, kms.primary[head], DRM_MODE_OBJECT_PLANE, "CRTC_H",
	    fb ? H : 0);
	ret = drmModeAtomicCommit(fd, req,
				  flags | DRM_MODE_ATOMIC_ALLOW_MODESET, NULL);
	ret = ret ? -errno : 0;
	drmModeAtomicFree(req);
	if (blob)
		drmModeDestroyPropertyBlob(fd, blob);
	return ret;
}

static void commit_head(int fd, int head, uint32_t fb)
{
	int err = __commit_head(fd, head, fb, 0);

	igt_assert_f(err == 0, "commit of fb %u on head %d: %d (%s)\n", fb,
		     head, err, vseg_errname(err));
}

/* A dumb buffer of @w x @h at @bpp: its handle, pitch and size. */
static uint32_t dumb_create(int fd, uint32_t w, uint32_t h, uint32_t bpp,
			    uint32_t *pitch, uint64_t *size)
{
	struct drm_mode_create_dumb d = { .width = w, .height = h, .bpp = bpp };

	igt_assert_eq(drmIoctl(fd, DRM_IOCTL_MODE_CREATE_DUMB, &d), 0);
	if (pitch)
		*pitch = d.pitch;
	if (size)
		*size = d.size;
	return d.handle;
}

/* ADDFB2 of one plane: 0 or -errno; the fb id in @fb. */
static int __addfb(int fd, uint32_t handle, uint32_t format, uint32_t pitch,
		   uint32_t offset, const uint64_t *modifier, uint32_t *fb)
{
	uint32_t handles[4] = { handle }, pitches[4] = { pitch };
	uint32_t offsets[4] = { offset };
	uint64_t mods[4] = { modifier ? *modifier : 0 };
	int ret;

	*fb = 0;
	ret = drmModeAddFB2WithModifiers(fd, W, H, format, handles, pitches,
					 offsets, mods, fb,
					 modifier ? DRM_MODE_FB_MODIFIERS : 0);
	return ret ? -errno : 0;
}

static uint32_t addfb(int fd, uint32_t handle, uint32_t format,
		      uint32_t pitch)
{
	uint32_t fb;
	int err = __addfb(fd, handle, format, pitch, 0, NULL, &fb);

	igt_assert_f(err == 0, "ADDFB2 of handle %u: %d (%s)\n", handle, err,
		     vseg_errname(err));
	return fb;
}

static struct vseg_display_head display_head(uint32_t head)
{
	struct vseg_display d;

	vseg_debugfs_read_display(ctx.fd, &d);
	return d.head[head];
}

static void check_head_off(uint32_t head)
{
	struct vseg_display_head h = display_head(head);

	igt_assert_f(!h.on && !h.mapped && !h.has_scanout,
		     "debugfs display: head %u should be off, shows bo %llu\n",
		     head, (unsigned long long)h.buffer_id);
}

/*
 * KMS shows @handle's buffer on @head at @pitch in @format: debugfs
 * display agrees with GEM_INFO, the buffer is pinned where the display
 * reaches it.
 */
static void check_kms_shows(uint32_t head, uint32_t handle, uint32_t pitch,
			    uint32_t format, struct drm_vseg_gem_info *out)
{
	struct drm_vseg_gem_info info;
	struct vseg_display_head h;
	uint64_t pa;

	vseg_gem_info(ctx.fd, handle, &info);
	h = display_head(head);
	igt_assert_f(h.on && h.kms && h.buffer_id == info.buffer_id,
		     "debugfs display: head %u shows %s%llu (kms=%d), expected bo %llu\n",
		     head, h.on ? "bo " : "nothing ",
		     (unsigned long long)h.buffer_id, h.kms,
		     (unsigned long long)info.buffer_id);
	igt_assert_f(info.placement_flags & PINNED,
		     "a shown framebuffer's buffer is not pinned (flags %#x)\n",
		     info.placement_flags);
	igt_assert_f(vseg_phys_addr_of(&info, 0, &pa),
		     "a shown buffer in %s is neither contiguous nor mapped (flags %#x)\n",
		     vseg_ctx_seg_name(&ctx, info.segment_id),
		     info.placement_flags);
	igt_assert_f(h.has_scanout && h.scanout == pa &&
		     h.scanout_size == info.size,
		     "debugfs display: head %u scans out %#llx+%#llx, the buffer is at %#llx+%#llx\n",
		     head, (unsigned long long)h.scanout,
		     (unsigned long long)h.scanout_size,
		     (unsigned long long)pa, (unsigned long long)info.size);
	igt_assert_f(h.has_format && h.format == format && h.width == W &&
		     h.height == H && h.pitch == pitch,
		     "debugfs display: head %u %ux%u pitch %u format %#x, expected %ux%u pitch %u format %#x\n",
		     head, h.width, h.height, h.pitch, h.format, W, H, pitch,
		     format);
	if (info.placement_flags & MAPPED)
		igt_assert_f(h.mapped && h.ap_start == info.aperture_offset,
			     "debugfs display: head %u aperture %#llx, GEM_INFO says %#llx\n",
			     head, (unsigned long long)h.ap_start,
			     (unsigned long long)info.aperture_offset);
	if (out)
		*out = info;
}

static bool in_aperture_file(uint64_t buffer_id)
{
	struct vseg_aperture_state st;
	bool found;

	vseg_debugfs_read_aperture(ctx.fd, &st);
	found = vseg_aperture_find(&st, buffer_id);
	vseg_debugfs_free_aperture(&st);
	return found;
}

/* Does debugfs "allocations" list buffer @buffer_id? */
static bool allocation_listed(uint64_t buffer_id)
{
	struct vseg_allocations a;
	bool found;

	vseg_debugfs_read_allocations(ctx.fd, &a);
	found = vseg_allocation_find(&a, buffer_id);
	vseg_debugfs_free_allocations(&a);
	return found;
}

static void check_released(uint32_t handle, const char *what)
{
	struct drm_vseg_gem_info info;

	vseg_gem_info(ctx.fd, handle, &info);
	igt_assert_f(!(info.placement_flags & (MAPPED | PINNED)),
		     "%s: the buffer is still mapped or pinned (flags %#x)\n",
		     what, info.placement_flags);
	igt_assert_f(!in_aperture_file(info.buffer_id),
		     "%s: debugfs aperture still has a range for the buffer\n",
		     what);
}

/*
 * The same once the commit that replaced it has cleaned up: its old state
 * goes after the vblank that sent the flip event.
 */
static void wait_released(uint32_t handle, const char *what)
{
	struct drm_vseg_gem_info info;

	for (int i = 0; i < 100; i++) {
		vseg_gem_info(ctx.fd, handle, &info);
		if (!(info.placement_flags & (MAPPED | PINNED)))
			break;
		usleep(10 * 1000);
	}
	check_released(handle, what);
}

static void fill_handle(uint32_t handle, uint64_t size, uint32_t value)
{
	uint32_t *p = vseg_gem_mmap(ctx.fd, handle, size,
				    PROT_READ | PROT_WRITE);

	vseg_fill32(p, size, value);
	munmap(p, size);
}

/* --- modeset ------------------------------------------------------------ */

static void test_modeset(void)
{
	struct drm_vseg_gem_info info;
	struct drm_vseg_gem_create c;
	uint32_t d, ap, pitch, fb_d, fb_ap;

	kms_init(ctx.fd);
	check_head_off(0);
	check_head_off(1);

	/* A dumb buffer, wherever DRM's dumb rules put it. */
	d = dumb_create(ctx.fd, W, H, 32, &pitch, NULL);
	fill_handle(d, FB_SIZE, 0x00336699);
	fb_d = addfb(ctx.fd, d, DRM_FORMAT_XRGB8888, pitch);
	commit_head(ctx.fd, 0, fb_d);
	check_kms_shows(0, d, pitch, DRM_FORMAT_XRGB8888, NULL);
	check_head_off(1);

	/*
	 * A primary supported in the aperture only, without
	 * AccessedPhysically: not mapped before, mapped while shown.
	 */
	vseg_create_args(&c, FB_SIZE, BIT(ctx.ap_id), PRIMARY);
	ap = vseg_gem_create(ctx.fd, &c);
	fill_handle(ap, FB_SIZE, 0x00ff0000);
	check_released(ap, "a primary never shown");
	fb_ap = addfb(ctx.fd, ap, DRM_FORMAT_XRGB8888, W * 4);
	commit_head(ctx.fd, 1, fb_ap);
	check_kms_shows(1, ap, W * 4, DRM_FORMAT_XRGB8888, &info);
	igt_assert_f(info.placement_flags & MAPPED,
		     "a shown aperture primary is not mapped (flags %#x)\n",
		     info.placement_flags);
	igt_assert(in_aperture_file(info.buffer_id));

	/* Off: out of the aperture, unpinned, whatever the handle. */
	commit_head(ctx.fd, 1, 0);
	check_head_off(1);
	check_released(ap, "the primary of a head turned off");
	commit_head(ctx.fd, 0, 0);
	check_head_off(0);
	check_released(d, "the dumb buffer of a head turned off");
	/* The pixels survived it all. */
	{
		uint32_t *p = vseg_gem_mmap(ctx.fd, ap, FB_SIZE, PROT_READ);

		igt_assert_eq_u32(p[0], 0x00ff0000);
		igt_assert_eq_u32(p[FB_SIZE / 4 - 1], 0x00ff0000);
		munmap(p, FB_SIZE);
	}

	drmModeRmFB(ctx.fd, fb_d);
	drmModeRmFB(ctx.fd, fb_ap);
	vseg_gem_close(ctx.fd, d);
	vseg_gem_close(ctx.fd, ap);
}

/* --- ADDFB2 ------------------------------------------------------------- */

static void expect_addfb(uint32_t handle, uint32_t format, uint32_t pitch,
			 uint32_t offset, const uint64_t *mod, int want,
			 const char *what)
{
	uint32_t fb;
	int err = __addfb(ctx.fd, handle, format, pitch, offset, mod, &fb);

	igt_assert_f(err == want, "ADDFB2 %s: %d (%s), expected %d\n", what,
		     err, vseg_errname(err), want);
	if (!err)
		igt_assert_eq(drmModeRmFB(ctx.fd, fb), 0);
}

static void test_addfb_checks(void)
{
	const uint64_t linear = DRM_FORMAT_MOD_LINEAR;
	const uint64_t tiled = I915_FORMAT_MOD_X_TILED;
	uint32_t d, pitch;
	uint64_t size;

	kms_init(ctx.fd);
	d = dumb_create(ctx.fd, W, H, 32, &pitch, &size);
	igt_assert_lte(W * 4, pitch);

	expect_addfb(d, DRM_FORMAT_XBGR8888, pitch, 0, NULL, -EINVAL,
		     "of XBGR8888 (no plane scans it out)");
	expect_addfb(d, DRM_FORMAT_NV12, pitch, 0, NULL, -EINVAL,
		     "of NV12 with one plane");
	expect_addfb(d, DRM_FORMAT_XRGB8888, pitch, 0, &tiled, -EINVAL,
		     "with a tiled modifier");
	expect_addfb(d, DRM_FORMAT_XRGB8888, W * 4 - 4, 0, NULL, -EINVAL,
		     "with a pitch below the line's bytes");
	expect_addfb(d, DRM_FORMAT_XRGB8888, pitch,
		     (uint32_t)(size - (uint64_t)pitch * (H - 1) - W * 4 + 4),
		     NULL, -EINVAL,
		     "with an offset that puts the last line past the end");
	expect_addfb(d, DRM_FORMAT_XRGB8888, pitch * 2, 0, NULL, -EINVAL,
		     "with a pitch that puts the last line past the end");

	expect_addfb(d, DRM_FORMAT_XRGB8888, pitch, 0, NULL, 0, "XRGB8888");
	expect_addfb(d, DRM_FORMAT_XRGB8888, pitch, 0, &linear, 0,
		     "XRGB8888, linear");
	expect_addfb(d, DRM_FORMAT_ARGB8888, pitch, 0, NULL, 0, "ARGB8888");
	expect_addfb(d, DRM_FORMAT_RGB565, pitch, 0, NULL, 0, "RGB565");
	expect_addfb(d, DRM_FORMAT_RGB565, W * 2, pitch, NULL, 0,
		     "RGB565 at an offset that fits");

	/* A framebuffer at an offset scans out from its first pixel. */
	{
		uint32_t fb, off = (uint32_t)(size - (uint64_t)W * 2 * H);
		struct drm_vseg_gem_info info;
		struct vseg_display_head h;
		uint64_t pa;

		off &= ~4095u;
		igt_assert_eq(__addfb(ctx.fd, d, DRM_FORMAT_RGB565, W * 2,
				      off, NULL, &fb), 0);
		commit_head(ctx.fd, 0, fb);
		vseg_gem_info(ctx.fd, d, &info);
		igt_assert(vseg_phys_addr_of(&info, 0, &pa));
		h = display_head(0);
		igt_assert_f(h.has_format && h.scanout == pa + off &&
			     h.format == DRM_FORMAT_RGB565 &&
			     h.pitch == W * 2,
			     "debugfs display: scanout %#llx format %#x pitch %u, expected %#llx RGB565 %u\n",
			     (unsigned long long)h.scanout, h.format, h.pitch,
			     (unsigned long long)(pa + off), W * 2);
		commit_head(ctx.fd, 0, 0);
		igt_assert_eq(drmModeRmFB(ctx.fd, fb), 0);
	}
	vseg_gem_close(ctx.fd, d);
}

/* --- flips and vblanks --------------------------------------------------- */

static unsigned int flip_events;
static unsigned int flip_crtc;

static void on_flip(int fd __maybe_unused, unsigned int seq __maybe_unused,
		    unsigned int sec __maybe_unused,
		    unsigned int usec __maybe_unused, unsigned int crtc_id,
		    void *data __maybe_unused)
{
	flip_events++;
	flip_crtc = crtc_id;
}

/* Wait up to @ms for an event on @fd and handle it: true if one came. */
static bool wait_event(int fd, int ms)
{
	drmEventContext ev = {
		.version = 3,
		.page_flip_handler2 = on_flip,
	};
	struct pollfd p = { .fd = fd, .events = POLLIN };

	if (poll(&p, 1, ms) != 1)
		return false;
	igt_assert_eq(drmHandleEvent(fd, &ev), 0);
	return true;
}

static uint32_t vblank_seq(int fd, uint32_t wait)
{
	drmVBlank vbl = {
		.request.type = DRM_VBLANK_RELATIVE,
		.request.sequence = wait,
	};

	igt_assert_eq(drmWaitVBlank(fd, &vbl), 0);
	return vbl.reply.sequence;
}

static uint64_t now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000ull + ts.tv_nsec / 1000000;
}

static void test_flip_event(void)
{
	uint32_t a, b, pitch, fb_a, fb_b, s0, s1;
	uint64_t t0, t;

	kms_init(ctx.fd);
	a = dumb_create(ctx.fd, W, H, 32, &pitch, NULL);
	b = dumb_create(ctx.fd, W, H, 32, NULL, NULL);
	fb_a = addfb(ctx.fd, a, DRM_FORMAT_XRGB8888, pitch);
	fb_b = addfb(ctx.fd, b, DRM_FORMAT_XRGB8888, pitch);
	commit_head(ctx.fd, 0, fb_a);
	check_kms_shows(0, a, pitch, DRM_FORMAT_XRGB8888, NULL);

	flip_events = 0;
	igt_assert_eq(drmModePageFlip(ctx.fd, kms.crtc[0], fb_b,
				      DRM_MODE_PAGE_FLIP_EVENT, NULL), 0);
	igt_assert_f(wait_event(ctx.fd, 2000), "no flip event within 2 s\n");
	igt_assert_eq(flip_events, 1);
	igt_assert_eq(flip_crtc, kms.crtc[0]);
	check_kms_shows(0, b, pitch, DRM_FORMAT_XRGB8888, NULL);
	wait_released(a, "the framebuffer flipped away from");
	/* And back. */
	igt_assert_eq(drmModePageFlip(ctx.fd, kms.crtc[0], fb_a,
				      DRM_MODE_PAGE_FLIP_EVENT, NULL), 0);
	igt_assert(wait_event(ctx.fd, 2000));
	igt_assert_eq(flip_events, 2);
	check_kms_shows(0, a, pitch, DRM_FORMAT_XRGB8888, NULL);

	/* 10 vblanks at 60 Hz: about 167 ms (TCG is slow: at most 5 s). */
	s0 = vblank_seq(ctx.fd, 0);
	t0 = now_ms();
	s1 = vblank_seq(ctx.fd, 10);
	t = now_ms() - t0;
	igt_assert_f(s1 - s0 >= 10, "vblank counter %u -> %u\n", s0, s1);
	igt_assert_f(t >= 100 && t < 5000,
		     "10 vblanks took %llu ms (60 Hz: about 167)\n",
		     (unsigned long long)t);
	igt_info("10 vblanks in %llu ms, counter %u -> %u\n",
		 (unsigned long long)t, s0, s1);

	commit_head(ctx.fd, 0, 0);
	check_released(a, "the framebuffer of a head turned off");
	/* An off CRTC has no vblanks. */
	{
		drmVBlank vbl = { .request.type = DRM_VBLANK_RELATIVE,
				  .request.sequence = 1 };

		igt_assert_neq(drmWaitVBlank(ctx.fd, &vbl), 0);
	}
	drmModeRmFB(ctx.fd, fb_a);
	drmModeRmFB(ctx.fd, fb_b);
	vseg_gem_close(ctx.fd, a);
	vseg_gem_close(ctx.fd, b);
}

static void test_flip_waits_fence(void)
{
	uint32_t a, b, pitch, fb_a, fb_b, gate, done;
	struct drm_vseg_gem_info ia;
	struct vseg_display_head h;
	struct vseg_cmdbuf cb;
	struct vseg_gate g;
	uint64_t pa_a;
	uint32_t *p;

	kms_init(ctx.fd);
	a = dumb_create(ctx.fd, W, H, 32, &pitch, NULL);
	b = dumb_create(ctx.fd, W, H, 32, NULL, NULL);
	fill_handle(a, FB_SIZE, 0x000000aa);
	fill_handle(b, FB_SIZE, 0x000000bb);
	fb_a = addfb(ctx.fd, a, DRM_FORMAT_XRGB8888, pitch);
	fb_b = addfb(ctx.fd, b, DRM_FORMAT_XRGB8888, pitch);
	commit_head(ctx.fd, 0, fb_a);
	check_kms_shows(0, a, pitch, DRM_FORMAT_XRGB8888, &ia);
	igt_assert(vseg_phys_addr_of(&ia, 0, &pa_a));

	/* A job that fills b, held back by the gate. */
	vseg_gate_init(&g);
	gate = vseg_gate_syncobj(&g, ctx.fd);
	done = vseg_syncobj_create(ctx.fd, 0);
	/* a render job, through b's GPU virtual addresses */
	vseg_vm_bind(ctx.fd, b, FLIP_VA);
	vseg_cb_init(&cb);
	vseg_cb_fill(&cb, FLIP_VA, FB_SIZE, 0x00c0ffee);
	vseg_cb_submit(ctx.fd, DRM_VSEG_ENGINE_RENDER, &cb, &gate, 1, &done,
		       1);

	flip_events = 0;
	igt_assert_eq(drmModePageFlip(ctx.fd, kms.crtc[0], fb_b,
				      DRM_MODE_PAGE_FLIP_EVENT, NULL), 0);
	/* 300 ms: many frames, and the flip has not happened. */
	igt_assert_f(!wait_event(ctx.fd, 300),
		     "the flip completed before its buffer's writer\n");
	h = display_head(0);
	igt_assert_f(h.scanout == pa_a,
		     "the head scans out %#llx before the writer ran, the old framebuffer is at %#llx\n",
		     (unsigned long long)h.scanout, (unsigned long long)pa_a);
	igt_assert_eq(vseg_syncobj_status(ctx.fd, done), 0);
	vseg_gate_assert_closed(&g, "the flip was held back");

	igt_assert(vseg_gate_open(&g));
	igt_assert_f(wait_event(ctx.fd, 5000),
		     "no flip event within 5 s of the writer's release\n");
	igt_assert_eq(flip_events, 1);
	igt_assert_eq(vseg_syncobj_wait_error(ctx.fd, done, 5000), 0);
	check_kms_shows(0, b, pitch, DRM_FORMAT_XRGB8888, NULL);
	p = vseg_gem_mmap(ctx.fd, b, FB_SIZE, PROT_READ);
	igt_assert_eq_u32(p[0], 0x00c0ffee);
	igt_assert_eq_u32(p[FB_SIZE / 4 - 1], 0x00c0ffee);
	munmap(p, FB_SIZE);

	commit_head(ctx.fd, 0, 0);
	vseg_vm_unbind(ctx.fd, FLIP_VA);
	vseg_syncobj_destroy(ctx.fd, done);
	vseg_syncobj_destroy(ctx.fd, gate);
	vseg_gate_fini(&g);
	vseg_cb_fini(&cb);
	drmModeRmFB(ctx.fd, fb_a);
	drmModeRmFB(ctx.fd, fb_b);
	vseg_gem_close(ctx.fd, a);
	vseg_gem_close(ctx.fd, b);
}

/* --- DRM master rules ---------------------------------------------------- */

static void test_render_node(void)
{
	uint32_t d, pitch, fb;
	struct drm_vseg_gem_info info;
	int card = drm_open_vseg(), render = drm_open_vseg_render();

	kms_init(ctx.fd);
	d = dumb_create(ctx.fd, W, H, 32, &pitch, NULL);
	fb = addfb(ctx.fd, d, DRM_FORMAT_XRGB8888, pitch);
	commit_head(ctx.fd, 0, fb);
	vseg_gem_info(ctx.fd, d, &info);

	igt_fork(child, 1) {
		uint32_t other, ofb, rh;
		int err;

		igt_assert_eq(setresgid(65534, 65534, 65534), 0);
		igt_assert_eq(setresuid(65534, 65534, 65534), 0);

		/* A card fd that is not the master: its fb, no commit. */
		igt_assert(!drmIsMaster(card));
		igt_assert_eq(drmSetClientCap(card, DRM_CLIENT_CAP_ATOMIC, 1), 0);
		other = dumb_create(card, W, H, 32, NULL, NULL);
		igt_assert_eq(__addfb(card, other, DRM_FORMAT_XRGB8888, pitch,
				      0, NULL, &ofb), 0);
		err = __commit_head(card, 0, ofb, 0);
		igt_assert_f(err == -EACCES,
			     "atomic commit from a card fd that is not the master: %d (%s)\n",
			     err, vseg_errname(err));
		err = __commit_head(card, 1, ofb, 0);
		igt_assert_eq(err, -EACCES);
		err = drmModeSetCrtc(card, kms.crtc[0], ofb, 0, 0,
				     &kms.conn[0], 1, &kms.mode) ? -errno : 0;
		igt_assert_f(err == -EACCES, "SETCRTC: %d (%s)\n", err,
			     vseg_errname(err));
		err = drmModePageFlip(card, kms.crtc[0], ofb, 0, NULL) ?
			-errno : 0;
		igt_assert_f(err == -EACCES, "PAGE_FLIP: %d (%s)\n", err,
			     vseg_errname(err));
		igt_assert_eq(drmSetMaster(card) ? -errno : 0, -EACCES);

		/* A render node: not even a framebuffer. */
		rh = vseg_gem_create_simple(render, FB_SIZE,
					    BIT(ctx.ap_id), 0);
		err = __addfb(render, rh, DRM_FORMAT_XRGB8888, W * 4, 0,
			      NULL, &ofb);
		igt_assert_f(err == -EACCES, "ADDFB2 on a render node: %d (%s)\n",
			     err, vseg_errname(err));
		err = __commit_head(render, 0, 0, 0);
		igt_assert_f(err == -EACCES,
			     "atomic commit on a render node: %d (%s)\n", err,
			     vseg_errname(err));
	}
	igt_waitchildren();

	check_kms_shows(0, d, pitch, DRM_FORMAT_XRGB8888, NULL);
	check_head_off(1);
	drm_close_driver(card);
	drm_close_driver(render);
	commit_head(ctx.fd, 0, 0);
	drmModeRmFB(ctx.fd, fb);
	vseg_gem_close(ctx.fd, d);
}

/* --- a closed buffer ------------------------------------------------------ */

static void test_closed_buffer(void)
{
	struct drm_vseg_gem_info info;
	struct vseg_display_head h;
	uint32_t d, pitch, fb;

	kms_init(ctx.fd);
	d = dumb_create(ctx.fd, W, H, 32, &pitch, NULL);
	fb = addfb(ctx.fd, d, DRM_FORMAT_XRGB8888, pitch);
	commit_head(ctx.fd, 0, fb);
	check_kms_shows(0, d, pitch, DRM_FORMAT_XRGB8888, &info);
	vseg_gem_close(ctx.fd, d);

	/* Three frames later, still there. */
	usleep(50 * 1000);
	h = display_head(0);
	igt_assert_f(h.on && h.kms && h.buffer_id == info.buffer_id &&
		     h.has_scanout && h.has_format,
		     "a framebuffer whose handle was closed stopped scanning out\n");
	igt_assert(allocation_listed(info.buffer_id));

	commit_head(ctx.fd, 0, 0);
	check_head_off(0);
	/* The framebuffer still holds it, until it goes. */
	igt_assert(allocation_listed(info.buffer_id));
	igt_assert_eq(drmModeRmFB(ctx.fd, fb), 0);
}

/* --- The removed scanout ioctl ------------------------------------------- */

/* Its number, removed in 0.11: an empty table slot, never reused. */
#define VSEG_REMOVED_NR	0x09

static int removed_ioctl(int fd, uint32_t head, uint32_t handle)
{
	/* The old argument's layout: extensions, head, handle, the rest 0. */
	uint32_t arg[10] = { 0, 0, head, handle };

	return __vseg_ioctl(fd, DRM_IOWR(DRM_COMMAND_BASE + VSEG_REMOVED_NR,
					 uint32_t[10]), arg);
}

static void test_removed_scanout_ioctl(void)
{
	uint32_t d, p, pitch, fb;
	int err, rfd;

	kms_init(ctx.fd);
	d = dumb_create(ctx.fd, W, H, 32, &pitch, NULL);
	fb = addfb(ctx.fd, d, DRM_FORMAT_XRGB8888, pitch);
	p = vseg_gem_create_simple(ctx.fd, FB_SIZE, BIT(ctx.ap_id), PRIMARY);

	commit_head(ctx.fd, 0, fb);
	err = removed_ioctl(ctx.fd, 0, p);
	igt_assert_f(err == -EINVAL, "ioctl 0x09 on a KMS head: %d (%s)\n",
		     err, vseg_errname(err));
	err = removed_ioctl(ctx.fd, 1, p);
	igt_assert_f(err == -EINVAL, "ioctl 0x09 on an off head: %d (%s)\n",
		     err, vseg_errname(err));
	err = removed_ioctl(ctx.fd, 0, 0);
	igt_assert_f(err == -EINVAL, "ioctl 0x09, head off: %d (%s)\n",
		     err, vseg_errname(err));
	rfd = drm_open_vseg_render();
	err = removed_ioctl(rfd, 0, 0);
	igt_assert_f(err == -EINVAL, "ioctl 0x09 on a render node: %d (%s)\n",
		     err, vseg_errname(err));
	drm_close_driver(rfd);

	check_kms_shows(0, d, pitch, DRM_FORMAT_XRGB8888, NULL);
	check_head_off(1);
	check_released(p, "a primary passed to ioctl 0x09");

	commit_head(ctx.fd, 0, 0);
	check_head_off(0);
	check_released(d, "a framebuffer of a head turned off");
	drmModeRmFB(ctx.fd, fb);
	vseg_gem_close(ctx.fd, d);
	vseg_gem_close(ctx.fd, p);
}

static const struct vseg_subtest tests[] = {
	{ "modeset", test_modeset,
	  "An atomic commit lights head 0 with a dumb buffer; an aperture "
	  "primary is mapped while shown and unmapped once its CRTC is off; "
	  "a buffer the display cannot reach is refused." },
	{ "addfb-checks", test_addfb_checks,
	  "ADDFB2 refuses bad formats, modifiers, pitches and offsets; good "
	  "framebuffers scan out from their first pixel." },
	{ "flip-event", test_flip_event,
	  "Page flips deliver their event; the vblank counter advances." },
	{ "flip-waits-fence", test_flip_waits_fence,
	  "A flip waits for its buffer's writer." },
	{ "render-node-cannot-modeset", test_render_node,
	  "A render node and a card fd that is not the master cannot modeset." },
	{ "closed-buffer-keeps-scanning", test_closed_buffer,
	  "A framebuffer keeps its buffer shown after the handle is closed." },
	{ "removed-scanout-ioctl", test_removed_scanout_ioctl,
	  "The removed scanout ioctl's number fails with EINVAL and "
	  "changes nothing." },
};

igt_main
{
	igt_fixture
		vseg_ctx_setup(&ctx);

	vseg_ctx_subtests(&ctx, "discrete", tests, ARRAY_SIZE(tests),
			  "after turning every head off");

	igt_fixture
		vseg_ctx_unload(&ctx);
}
