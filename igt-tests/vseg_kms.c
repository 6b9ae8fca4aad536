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
 *	wait for the framebuffer's writer; each frame's CRC against the
 *	picture's; DirectFlip segments; fbdev emulation; DRM's master rules;
 *	and the removed private scanout ioctl's number, which fails.
 *
 * SUBTEST: modeset
 * Description: An atomic commit lights head 0 with a 1024x768 XRGB8888
 *	dumb buffer: debugfs display shows its GPU physical address, format,
 *	size and pitch, the buffer is pinned contiguous or mapped into the
 *	aperture. A buffer supported in the aperture only and without
 *	AccessedPhysically is mapped while shown and unmapped and unpinned
 *	once the CRTC is turned off. On a display that scans out one BAR's
 *	segment alone (QEMU's Bochs adapter) such a primary cannot be made
 *	(GEM_CREATE: EINVAL), nor a framebuffer of such a buffer shown
 *	(commit: EINVAL).
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
 * SUBTEST: vblank-immediate-off
 * Description: With DRM's vblank off-delay set to turn vblanks off at once
 *	(drm.vblankoffdelay=-1), the last reference to a head's vblanks goes
 *	inside the vblank "interrupt" itself (the flip or vblank event it
 *	delivers): 20 page flips and 20 vblank events each still arrive,
 *	their sequence numbers rising, and the head's vblanks come back
 *	after every stop.
 *
 * SUBTEST: flip-waits-fence
 * Description: A flip to a buffer a job still has to write (the job held
 *	back by a fence the test controls) completes only after the job: no
 *	event and the old framebuffer shown while the job is held, then the
 *	event, the new framebuffer, and the job's pixels. CRC checked: every
 *	frame's CRC while the job is held is the old picture's, from the
 *	flip event's frame on the new picture's, and none is anything else
 *	(the old content never shows after the flip).
 *
 * SUBTEST: crc-matches-content
 * Description: With CRC source "auto" on head 0 (DRM's debugfs
 *	crtc-0/crc/control and data), each frame's CRC is the crc32 of the
 *	picture the head shows XORed with 0x5eed5eed, as computed here from
 *	the pixels (XRGB8888,
 *	the X byte ignored): two framebuffers of different patterns give
 *	different CRCs; an RGB565 picture's CRC is that of its pixels
 *	widened to XRGB8888; the same picture in a buffer with
 *	AccessedPhysically
 *	in the vram segment, and in an aperture buffer mapped while shown
 *	(whose X bytes differ), gives the first CRC; flipping back gives the
 *	first CRC again. Frame numbers only increase. An unprivileged child
 *	(uid 65534) cannot open the crc control or data file (EACCES:
 *	debugfs is root's).
 *
 * SUBTEST: cursor-crc
 * Description: Head 0 shows a pattern with CRC source "auto"; its cursor
 *	plane shows a 64x64 ARGB8888 image of opaque, transparent,
 *	half-alpha and other-alpha pixels (premultiplied): at a position
 *	inside the picture and partly off each edge and corner, each
 *	frame's CRC is that of the picture composed here from the primary's
 *	and the cursor's pixels (DRM's "Pre-multiplied" blend, rounded to
 *	nearest), each position's different; debugfs display_regs shows the
 *	cursor registers at the plane's position. Wholly off the picture it
 *	is off (the primary's CRC); the legacy cursor ioctl moves it; with
 *	the pixel blend mode "None" its colour replaces the primary's. An
 *	unprivileged child (uid 65534) on a card fd that is not the DRM
 *	master can neither move nor remove it (atomic: EACCES; legacy:
 *	EACCES or EPERM): registers and CRC unchanged. Turned off, the CRC
 *	is the primary's again; turning the CRTC off turns the cursor off.
 *	Skipped where the display controller has no cursor registers or no
 *	CRC generator (QEMU's Bochs adapter).
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
 * SUBTEST: directflip
 * Description: On a table whose second memory segment has the DirectFlip
 *	flag: a primary that may live there but was created elsewhere moves
 *	into it when shown (debugfs display counts it "moved"), one created
 *	there is shown in place ("in_place"), one not supported there is
 *	shown where it is ("elsewhere"), bytes intact each time. An
 *	unprivileged client that filled the DirectFlip segment with its own
 *	buffers sees them evicted by the next primary's move, every byte
 *	intact.
 *
 * SUBTEST: fbdev
 * Description: With the fbdev emulation on (fbdev=1), /proc/fb lists vseg's
 *	fb ("vsegdrmfb"; a kernel without CONFIG_FB_DEVICE, such as the
 *	debug one, gives it no /dev/fbN and skips the rest), at the preferred mode's
 *	resolution; head 0 shows its framebuffer through KMS (debugfs
 *	display agrees with GEM_INFO of GETFB2's handle, pinned where the
 *	display reaches it); a pattern written through the fb's mmap shows
 *	up in the scanned-out buffer; the fb's mmap does not reach past its
 *	memory (refused, or SIGBUS past the end), and an unprivileged child (uid 65534) cannot open the fb
 *	for writing.
 *
 * SUBTEST: eviction-storm
 * Description: While head 0 shows a primary in vram (not AccessedPhysically:
 *	only the display pins it), an unprivileged child creates, fills and
 *	reads back more vram-only buffers than vram holds: each of its
 *	creations succeeds (evicting its own buffers) or fails with ENOSPC,
 *	its bytes come back intact, and the primary never moves (same
 *	segment, offset and scanout address, no move counted, bytes intact).
 *
 * SUBTEST: suspend-keeps-picture
 * Description: Head 0 shows a pattern; after a standby and after a
 *	hibernate (sysfs "pm" of the platform device) GETCRTC gives the same
 *	framebuffer and mode, debugfs display shows the buffer where the
 *	display reaches it, its pixels and (where the display has a CRC
 *	generator) the frame's CRC are the pattern's. An unprivileged child
 *	cannot open the pm file for writing.
 *
 * SUBTEST: removed-scanout-ioctl
 * Description: The private scanout ioctl's number (0x09, removed in 0.11)
 *	fails with EINVAL, from the DRM master as from a render node, and
 *	changes nothing: the head KMS lights keeps showing its framebuffer,
 *	a primary passed to it is neither pinned nor mapped.
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <time.h>
#include <unistd.h>
#include <linux/fb.h>
#include <linux/kd.h>
#include <sys/ioctl.h>

#include <drm_fourcc.h>
#include <xf86drm.h>
#include <xf86drmMode.h>

#include "igt.h"
#include "igt_vseg.h"
#include "igt_vseg_exec.h"
#include "igt_vseg_fence.h"
#include "igt_vseg_sigbus.h"

IGT_TEST_DESCRIPTION("Light vseg's heads through KMS: framebuffers of vseg "
		     "and dumb buffers where the display reaches them, "
		     "ADDFB2's checks, flip events and vblanks, flips that "
		     "wait for the framebuffer's writer, each frame's CRC, "
		     "DirectFlip segments, fbdev, DRM's master rules, the "
		     "removed scanout ioctl's number failing.");

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
static void crc_close_all(void);

/**
 * struct kms - the heads' KMS objects, by head
 * @crtc: CRTC ids.
 * @conn: connector ids.
 * @primary: primary plane ids.
 * @cursor: cursor plane ids (0: the display controller has no cursor).
 * @mode: the connector's 1024x768 mode.
 */
static struct kms {
	uint32_t crtc[DRM_VSEG_NUM_HEADS];
	uint32_t conn[DRM_VSEG_NUM_HEADS];
	uint32_t primary[DRM_VSEG_NUM_HEADS];
	uint32_t cursor[DRM_VSEG_NUM_HEADS];
	drmModeModeInfo mode;
} kms;

static uint64_t prop_value(int fd, uint32_t obj, uint32_t type,
			   const char *name)
{
	drmModeObjectPropertiesPtr props;
	uint32_t id = vseg_kms_prop_id(fd, obj, type, name);
	uint64_t v = 0;

	props = drmModeObjectGetProperties(fd, obj, type);
	for (uint32_t i = 0; i < props->count_props; i++)
		if (props->props[i] == id)
			v = props->prop_values[i];
	drmModeFreeObjectProperties(props);
	return v;
}

/*
 * The heads' objects: CRTC i, connector i and the primary and cursor
 * planes of CRTC i.
 */
static void kms_init(int fd)
{
	bool cursors = vseg_display_has_cursor(ctx.fd);
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
	/*
	 * A primary plane per head, and a cursor plane where the display
	 * controller has cursor registers (not QEMU's Bochs adapter).
	 */
	igt_assert_eq(pres->count_planes,
		      (cursors ? 2 : 1) * DRM_VSEG_NUM_HEADS);
	for (uint32_t i = 0; i < pres->count_planes; i++) {
		drmModePlanePtr p = drmModeGetPlane(fd, pres->planes[i]);
		uint64_t type = prop_value(fd, p->plane_id,
					   DRM_MODE_OBJECT_PLANE, "type");

		for (int h = 0; h < DRM_VSEG_NUM_HEADS; h++) {
			if (p->possible_crtcs != (1u << h))
				continue;
			if (type == DRM_PLANE_TYPE_PRIMARY)
				kms.primary[h] = p->plane_id;
			else if (type == DRM_PLANE_TYPE_CURSOR)
				kms.cursor[h] = p->plane_id;
		}
		drmModeFreePlane(p);
	}
	drmModeFreePlaneResources(pres);
	for (int h = 0; h < DRM_VSEG_NUM_HEADS; h++) {
		igt_assert_f(kms.primary[h], "no primary plane for head %d\n", h);
		igt_assert_f(!kms.cursor[h] == !cursors,
			     "head %d: cursor plane %u, the display controller %s cursor registers\n",
			     h, kms.cursor[h], cursors ? "has" : "has no");
	}

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

/*
 * Light @head with framebuffer @fb (1024x768), or turn it off (@fb 0): 0
 * or -errno of the atomic commit.
 */
static int __commit_head(int fd, int head, uint32_t fb, uint32_t flags)
{
	return __vseg_kms_commit_head(fd, kms.conn[head], kms.crtc[head],
				      kms.primary[head], &kms.mode, fb, flags);
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

/*
 * The segment a display controller that scans out one BAR alone keeps
 * primaries in (QEMU's Bochs adapter: debugfs display_regs), or 0 when
 * the display reaches every segment and the aperture.
 */
static uint32_t display_segment(void)
{
	char *text = vseg_debugfs_read_file(ctx.fd, "display_regs");
	char *v;
	uint32_t seg = 0;

	igt_assert(text);
	v = strstr(text, " segment=");
	if (v)
		seg = strtoul(v + strlen(" segment="), NULL, 0);
	free(text);
	return seg;
}

/* A primary KMS can show: in the aperture when it can be. */
static uint32_t primary_set(void)
{
	uint32_t seg = display_segment();

	return seg ? BIT(seg) : BIT(ctx.ap_id);
}

/*
 * A display that reaches one BAR's segment alone: a primary supported in
 * the aperture only cannot be made (EINVAL), and a framebuffer of such a
 * buffer without the primary flag cannot be shown (EINVAL). Head 0 shows
 * @fb_d of dumb buffer @d until then.
 */
static void modeset_unreachable(struct drm_vseg_gem_create *c, uint32_t d,
				uint32_t fb_d)
{
	uint32_t ap, fb_ap;
	int err;

	err = __vseg_gem_create(ctx.fd, c);
	igt_assert_f(err == -EINVAL,
		     "GEM_CREATE of a primary the display cannot reach: %d (%s)\n",
		     err, vseg_errname(err));
	ap = vseg_gem_create_simple(ctx.fd, FB_SIZE, BIT(ctx.ap_id), 0);
	fb_ap = addfb(ctx.fd, ap, DRM_FORMAT_XRGB8888, W * 4);
	err = __commit_head(ctx.fd, 1, fb_ap, 0);
	igt_assert_f(err == -EINVAL,
		     "commit of a framebuffer the display cannot reach: %d (%s)\n",
		     err, vseg_errname(err));
	check_head_off(1);
	check_released(ap, "a framebuffer refused");
	commit_head(ctx.fd, 0, 0);
	check_head_off(0);
	check_released(d, "the dumb buffer of a head turned off");
	drmModeRmFB(ctx.fd, fb_d);
	drmModeRmFB(ctx.fd, fb_ap);
	vseg_gem_close(ctx.fd, d);
	vseg_gem_close(ctx.fd, ap);
}

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
	if (display_segment()) {
		modeset_unreachable(&c, d, fb_d);
		return;
	}
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
static unsigned int flip_seq;

static void on_flip(int fd __maybe_unused, unsigned int seq,
		    unsigned int sec __maybe_unused,
		    unsigned int usec __maybe_unused, unsigned int crtc_id,
		    void *data __maybe_unused)
{
	flip_events++;
	flip_crtc = crtc_id;
	flip_seq = seq;
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

/* --- CRCs --------------------------------------------------------------- */

/*
 * The CRC of a head's picture as the display controller computes it
 * (vseg_hw.h, scanout_crc): the kernel's crc32_le() seeded with 0 over
 * each pixel as 4 little-endian bytes of XRGB8888 with X zero, line after
 * line; vseg reports it XORed with 0x5eed5eed (so that a black
 * picture's is neither 0 nor all ones, which IGT takes for a dead source).
 */
static uint32_t crc32_table[256];

static uint32_t picture_crc(const uint32_t *px, uint32_t w, uint32_t h,
			    uint32_t pitch)
{
	uint32_t crc = 0;

	if (!crc32_table[1])
		for (uint32_t i = 0; i < 256; i++) {
			uint32_t c = i;

			for (int k = 0; k < 8; k++)
				c = (c >> 1) ^ (0xedb88320u & -(c & 1));
			crc32_table[i] = c;
		}
	for (uint32_t y = 0; y < h; y++)
		for (uint32_t x = 0; x < w; x++) {
			uint32_t v = px[y * (pitch / 4) + x] & 0xffffff;

			for (int b = 0; b < 4; b++, v >>= 8)
				crc = (crc >> 8) ^
				      crc32_table[(crc ^ v) & 0xff];
		}
	return crc ^ 0x5eed5eedu;
}

/* Fill @handle's W x H XRGB8888 picture at @pitch: pattern @seed, X @x. */
static uint32_t fill_pattern(int fd, uint32_t handle, uint64_t size,
			     uint32_t pitch, uint32_t seed, uint32_t x)
{
	uint32_t *p = vseg_gem_mmap(fd, handle, size, PROT_READ | PROT_WRITE);
	uint32_t crc;

	for (uint32_t y = 0; y < H; y++)
		for (uint32_t i = 0; i < W; i++)
			p[y * (pitch / 4) + i] = (x << 24) |
				((seed ^ (y * 2654435761u + i * 40503u)) &
				 0xffffff);
	crc = picture_crc(p, W, H, pitch);
	munmap(p, size);
	return crc;
}

/*
 * Fill @handle's W x H RGB565 picture at @pitch with pattern @seed: the
 * CRC of the picture widened as the display controller widens it (each
 * channel's top bits repeated into its low ones).
 */
static uint32_t fill_565(int fd, uint32_t handle, uint64_t size,
			 uint32_t pitch, uint32_t seed)
{
	uint16_t *p = vseg_gem_mmap(fd, handle, size, PROT_READ | PROT_WRITE);
	uint32_t *wide = malloc(FB_SIZE), crc;

	igt_assert(wide);
	for (uint32_t y = 0; y < H; y++)
		for (uint32_t x = 0; x < W; x++) {
			uint32_t v = (seed ^ (y * 2654435761u + x * 40503u)) &
				     0xffff;
			uint32_t r = v >> 11, g = (v >> 5) & 0x3f, b = v & 0x1f;

			p[y * (pitch / 2) + x] = v;
			wide[y * W + x] = ((r << 3 | r >> 2) << 16) |
					  ((g << 2 | g >> 4) << 8) |
					  (b << 3 | b >> 2);
		}
	crc = picture_crc(wide, W, H, W * 4);
	free(wide);
	munmap(p, size);
	return crc;
}

/* The CRC of a W x H picture of one colour @v. */
static uint32_t solid_crc(uint32_t v)
{
	uint32_t *px = malloc(FB_SIZE), crc;

	igt_assert(px);
	for (uint32_t i = 0; i < W * H; i++)
		px[i] = v;
	crc = picture_crc(px, W, H, W * 4);
	free(px);
	return crc;
}

/**
 * struct crc_src - head 0's CRC source, read through DRM's debugfs files
 * @data: crtc-0/crc/data, open: the source is "auto" while it is.
 * @frame: the frame of the last entry read.
 * @read: entries read.
 */
struct crc_src {
	int data;
	uint32_t frame;
	unsigned int read;
};

/*
 * Select head 0's CRC source "auto": false if the display controller has
 * no CRC generator (the Bochs adapter), which DRM refuses with EINVAL.
 */
static bool crc_select(int dir)
{
	int ctl = openat(dir, "crtc-0/crc/control", O_WRONLY);
	ssize_t n;

	igt_assert_f(ctl >= 0, "crtc-0/crc/control: %m\n");
	n = write(ctl, "auto", 4);
	igt_assert_f(n == 4 || (n < 0 && errno == EINVAL),
		     "crtc-0/crc/control: %m\n");
	close(ctl);
	return n == 4;
}

/* Whether head 0 has CRCs. */
static bool crc_available(void)
{
	int dir = igt_debugfs_dir(ctx.fd);
	bool ok;

	igt_assert_f(dir >= 0, "no debugfs directory for the device\n");
	ok = crc_select(dir);
	close(dir);
	return ok;
}

/* Start head 0's CRCs (its CRTC active): false where it has none. */
/*
 * The CRC data files open: a failed subtest leaves its own open, and DRM
 * frees a CRTC's CRC state at unload while the file's release, later,
 * still reaches it. Closed before vseg is reloaded or unloaded.
 */
static int crc_fds[4] = { -1, -1, -1, -1 };

static void crc_close_all(void)
{
	for (unsigned int i = 0; i < ARRAY_SIZE(crc_fds); i++)
		if (crc_fds[i] >= 0) {
			close(crc_fds[i]);
			crc_fds[i] = -1;
		}
}

static void crc_close_all_at_exit(int sig __maybe_unused)
{
	crc_close_all();
}

static void crc_track(int fd, int old)
{
	for (unsigned int i = 0; i < ARRAY_SIZE(crc_fds); i++)
		if (crc_fds[i] == old) {
			crc_fds[i] = fd;
			return;
		}
	igt_assert_f(fd < 0, "more than %zu CRC data files open\n",
		     ARRAY_SIZE(crc_fds));
}

static bool crc_start(struct crc_src *c)
{
	int dir = igt_debugfs_dir(ctx.fd);

	igt_assert_f(dir >= 0, "no debugfs directory for the device\n");
	if (!crc_select(dir)) {
		close(dir);
		return false;
	}
	c->data = openat(dir, "crtc-0/crc/data", O_RDONLY | O_NONBLOCK);
	close(dir);
	igt_assert_f(c->data >= 0, "crtc-0/crc/data: %m\n");
	igt_install_exit_handler(crc_close_all_at_exit);
	crc_track(c->data, -1);
	c->frame = 0;
	c->read = 0;
	return true;
}

static void crc_stop(struct crc_src *c)
{
	crc_track(-1, c->data);
	close(c->data);
	c->data = -1;
}

/* The next entry, within 5 s: its CRC; its frame in @c->frame. */
static uint32_t crc_next(struct crc_src *c)
{
	struct pollfd p = { .fd = c->data, .events = POLLIN };
	char line[64];
	uint32_t frame, crc;
	ssize_t n;

	igt_assert_f(poll(&p, 1, 5000) == 1, "no CRC within 5 s\n");
	n = read(c->data, line, sizeof(line) - 1);
	igt_assert_f(n > 0, "reading crtc-0/crc/data: %m\n");
	line[n] = 0;
	igt_assert_f(sscanf(line, "0x%x 0x%x", &frame, &crc) == 2,
		     "crtc-0/crc/data line \"%s\"\n", line);
	igt_assert_f(!c->read || frame > c->frame,
		     "CRC frame %u after frame %u\n", frame, c->frame);
	c->frame = frame;
	c->read++;
	return crc;
}

/*
 * The CRC of what head 0 shows now: that of the first frame after the
 * next vblank (its work reads the pixels after it).
 */
static uint32_t crc_now(struct crc_src *c)
{
	uint32_t seq = vblank_seq(ctx.fd, 0), crc;

	do
		crc = crc_next(c);
	while ((int32_t)(c->frame - seq) <= 0);
	return crc;
}

static void test_crc_matches_content(void)
{
	uint32_t a, b, ph, ap, pitch, fb_a, fb_b, fb_ph, fb_ap;
	uint32_t want_a, want_b, want, crc, d565, pitch565, fb_565, want_565;
	uint64_t size565;
	struct drm_vseg_gem_info info;
	struct drm_vseg_gem_create c;
	struct crc_src src;
	char dir[200];
	uint32_t vram;

	igt_require_f(crc_available(),
		      "the display controller has no CRC generator\n");
	kms_init(ctx.fd);
	vram = vseg_segment_by_name(&ctx.q, ctx.segs, "vram");
	a = dumb_create(ctx.fd, W, H, 32, &pitch, NULL);
	b = dumb_create(ctx.fd, W, H, 32, NULL, NULL);
	want_a = fill_pattern(ctx.fd, a, FB_SIZE, pitch, 0x123456, 0);
	want_b = fill_pattern(ctx.fd, b, FB_SIZE, pitch, 0xabcdef, 0);
	igt_assert_neq_u32(want_a, want_b);
	fb_a = addfb(ctx.fd, a, DRM_FORMAT_XRGB8888, pitch);
	fb_b = addfb(ctx.fd, b, DRM_FORMAT_XRGB8888, pitch);

	/* a's picture in vram, AccessedPhysically, and in the aperture. */
	vseg_create_args(&c, FB_SIZE, BIT(vram), AP_FLAG | PRIMARY);
	ph = vseg_gem_create(ctx.fd, &c);
	want = fill_pattern(ctx.fd, ph, FB_SIZE, W * 4, 0x123456, 0x5a);
	igt_assert_eq_u32(want, want_a);
	vseg_create_args(&c, FB_SIZE, BIT(ctx.ap_id), PRIMARY);
	ap = vseg_gem_create(ctx.fd, &c);
	fill_pattern(ctx.fd, ap, FB_SIZE, W * 4, 0x123456, 0xff);
	d565 = dumb_create(ctx.fd, W, H, 16, &pitch565, &size565);
	want_565 = fill_565(ctx.fd, d565, size565, pitch565, 0x2468);
	fb_565 = addfb(ctx.fd, d565, DRM_FORMAT_RGB565, pitch565);
	fb_ph = addfb(ctx.fd, ph, DRM_FORMAT_XRGB8888, W * 4);
	fb_ap = addfb(ctx.fd, ap, DRM_FORMAT_XRGB8888, W * 4);

	commit_head(ctx.fd, 0, fb_a);
	igt_assert(crc_start(&src));
	crc = crc_now(&src);
	igt_assert_f(crc == want_a, "CRC %#x of a, its pixels' CRC is %#x\n",
		     crc, want_a);
	/* Frame after frame, the same picture. */
	for (int i = 0; i < 5; i++)
		igt_assert_eq_u32(crc_next(&src), want_a);

	commit_head(ctx.fd, 0, fb_b);
	crc = crc_now(&src);
	igt_assert_f(crc == want_b && crc != want_a,
		     "CRC %#x of b, its pixels' CRC is %#x (a's %#x)\n", crc,
		     want_b, want_a);

	/* RGB565, widened to XRGB8888 for its CRC. */
	commit_head(ctx.fd, 0, fb_565);
	crc = crc_now(&src);
	igt_assert_f(crc == want_565 && crc != want_a && crc != want_b,
		     "CRC %#x of an RGB565 picture, its widened pixels' CRC is %#x\n",
		     crc, want_565);

	commit_head(ctx.fd, 0, fb_ph);
	check_kms_shows(0, ph, W * 4, DRM_FORMAT_XRGB8888, &info);
	igt_assert_f(info.segment_id == vram && !(info.placement_flags & MAPPED),
		     "the AccessedPhysically buffer is not in vram (segment %u, flags %#x)\n",
		     info.segment_id, info.placement_flags);
	crc = crc_now(&src);
	igt_assert_f(crc == want_a,
		     "CRC %#x of a's picture in vram, a's is %#x\n", crc,
		     want_a);

	commit_head(ctx.fd, 0, fb_ap);
	check_kms_shows(0, ap, W * 4, DRM_FORMAT_XRGB8888, &info);
	igt_assert(info.placement_flags & MAPPED);
	crc = crc_now(&src);
	igt_assert_f(crc == want_a,
		     "CRC %#x of a's picture in the aperture, a's is %#x\n",
		     crc, want_a);

	/* Back to a, through a flip. */
	flip_events = 0;
	igt_assert_eq(drmModePageFlip(ctx.fd, kms.crtc[0], fb_a,
				      DRM_MODE_PAGE_FLIP_EVENT, NULL), 0);
	igt_assert(wait_event(ctx.fd, 2000));
	crc = crc_now(&src);
	igt_assert_f(crc == want_a, "CRC %#x after flipping back, a's is %#x\n",
		     crc, want_a);
	igt_info("%u CRCs read, up to frame %u: a %#x, b %#x\n", src.read,
		 src.frame, want_a, want_b);

	/* debugfs is root's: a hostile unprivileged child opens nothing. */
	igt_assert(igt_debugfs_path(ctx.fd, dir, sizeof(dir)));
	igt_fork(child, 1) {
		static const char *const files[] = {
			"crtc-0/crc/control", "crtc-0/crc/data",
		};
		char path[300];

		vseg_drop_privileges();
		for (unsigned int i = 0; i < ARRAY_SIZE(files); i++) {
			int fd, err;

			snprintf(path, sizeof(path), "%s/%s", dir, files[i]);
			fd = open(path, i ? O_RDONLY : O_WRONLY);
			err = fd < 0 ? -errno : 0;
			if (fd >= 0)
				close(fd);
			igt_assert_f(err == -EACCES,
				     "uid 65534 opened %s: %d (%s)\n", path,
				     err, vseg_errname(err));
		}
	}
	igt_waitchildren();
	/* Still a's picture, and the source still ours. */
	igt_assert_eq_u32(crc_now(&src), want_a);

	crc_stop(&src);
	commit_head(ctx.fd, 0, 0);
	drmModeRmFB(ctx.fd, fb_a);
	drmModeRmFB(ctx.fd, fb_b);
	drmModeRmFB(ctx.fd, fb_ph);
	drmModeRmFB(ctx.fd, fb_ap);
	drmModeRmFB(ctx.fd, fb_565);
	vseg_gem_close(ctx.fd, d565);
	vseg_gem_close(ctx.fd, a);
	vseg_gem_close(ctx.fd, b);
	vseg_gem_close(ctx.fd, ph);
	vseg_gem_close(ctx.fd, ap);
}

/* --- the cursor in the CRC ------------------------------------------------ */

#define CUR		64

/*
 * The cursor's image, premultiplied ARGB8888, in 8x8 squares of four
 * kinds: opaque, transparent, half alpha (0x80) and an alpha of its own
 * per pixel; a colour never above its alpha.
 */
static uint32_t cursor_px(uint32_t x, uint32_t y)
{
	uint32_t h = (y * 2246822519u) ^ (x * 3266489917u) ^ 0x9e3779b9u;
	uint32_t a, r, g, b;

	h ^= h >> 15;
	switch ((x / 8 + y / 8) % 4) {
	case 0:
		a = 0xff;
		break;
	case 1:
		return 0;
	case 2:
		a = 0x80;
		break;
	default:
		a = (h >> 24) | 1;
		break;
	}
	r = (h & 0xff) * a / 255;
	g = ((h >> 8) & 0xff) * a / 255;
	b = ((h >> 16) & 0xff) * a / 255;
	return a << 24 | r << 16 | g << 8 | b;
}

/*
 * One channel of DRM's "Pre-multiplied" blend with a plane alpha of 1:
 * fg + (1 - fg.alpha) * bg, with 1.0 = 255, to the nearest integer.
 */
static uint32_t premulti(uint32_t fg, uint32_t bg, uint32_t alpha)
{
	double v = fg + (1.0 - alpha / 255.0) * bg;
	long r = (long)(v + 0.5);

	return r > 255 ? 255 : (uint32_t)r;
}

/*
 * The CRC of @primary (W x H XRGB8888, packed) with the cursor image at
 * (@x, @y) over it, its alpha premultiplied, or opaque.
 */
static uint32_t cursor_crc(const uint32_t *primary, const uint32_t *cur,
			   int x, int y, bool opaque)
{
	uint32_t *px = malloc(FB_SIZE), crc;

	igt_assert(px);
	memcpy(px, primary, FB_SIZE);
	for (int cy = 0; cy < CUR; cy++)
		for (int cx = 0; cx < CUR; cx++) {
			int sx = x + cx, sy = y + cy;
			uint32_t fg = cur[cy * CUR + cx], bg, out = 0;

			if (sx < 0 || sy < 0 || sx >= W || sy >= H)
				continue;
			bg = px[sy * W + sx] & 0xffffff;
			if (opaque)
				out = fg & 0xffffff;
			else
				for (int s = 0; s < 24; s += 8)
					out |= premulti((fg >> s) & 0xff,
							(bg >> s) & 0xff,
							fg >> 24) << s;
			px[sy * W + sx] = out;
		}
	crc = picture_crc(px, W, H, W * 4);
	free(px);
	return crc;
}

/* The value of enum property @name's entry @entry on plane @plane. */
static uint64_t enum_value(uint32_t plane, const char *name,
			   const char *entry)
{
	drmModePropertyPtr p = drmModeGetProperty(ctx.fd,
		vseg_kms_prop_id(ctx.fd, plane, DRM_MODE_OBJECT_PLANE, name));
	uint64_t v = ~0ull;

	igt_assert(p);
	for (int i = 0; i < p->count_enums; i++)
		if (!strcmp(p->enums[i].name, entry))
			v = p->enums[i].value;
	drmModeFreeProperty(p);
	igt_assert_f(v != ~0ull, "plane %u: %s has no \"%s\"\n", plane, name,
		     entry);
	return v;
}

#define plane_add(req, fd, plane, name, value) \
	vseg_kms_add(req, fd, plane, DRM_MODE_OBJECT_PLANE, name, value)

/* Set head 0's cursor plane's "pixel blend mode" to @mode. */
static void cursor_blend(const char *mode)
{
	drmModeAtomicReqPtr req = drmModeAtomicAlloc();

	igt_assert(req);
	plane_add(req, ctx.fd, kms.cursor[0], "pixel blend mode",
		  enum_value(kms.cursor[0], "pixel blend mode", mode));
	igt_assert_eq(drmModeAtomicCommit(ctx.fd, req, 0, NULL), 0);
	drmModeAtomicFree(req);
}

/*
 * Show framebuffer @fb (0: none) on head 0's cursor plane at (@x, @y), the
 * whole 64x64 image: 0 or -errno of the atomic commit on @fd.
 */
static int __cursor_set(int fd, uint32_t fb, int x, int y)
{
	drmModeAtomicReqPtr req = drmModeAtomicAlloc();
	uint32_t p = kms.cursor[0];
	int ret;

	igt_assert(req);
	plane_add(req, fd, p, "FB_ID", fb);
	plane_add(req, fd, p, "CRTC_ID", fb ? kms.crtc[0] : 0);
	plane_add(req, fd, p, "SRC_X", 0);
	plane_add(req, fd, p, "SRC_Y", 0);
	plane_add(req, fd, p, "SRC_W", fb ? (uint64_t)CUR << 16 : 0);
	plane_add(req, fd, p, "SRC_H", fb ? (uint64_t)CUR << 16 : 0);
	plane_add(req, fd, p, "CRTC_X", (uint64_t)(int64_t)x);
	plane_add(req, fd, p, "CRTC_Y", (uint64_t)(int64_t)y);
	plane_add(req, fd, p, "CRTC_W", fb ? CUR : 0);
	plane_add(req, fd, p, "CRTC_H", fb ? CUR : 0);
	ret = drmModeAtomicCommit(fd, req, 0, NULL) ? -errno : 0;
	drmModeAtomicFree(req);
	return ret;
}

static void cursor_set(uint32_t fb, int x, int y)
{
	int err = __cursor_set(ctx.fd, fb, x, y);

	igt_assert_f(err == 0, "cursor fb %u at %d,%d: %d (%s)\n", fb, x, y,
		     err, vseg_errname(err));
}

/* The cursor registers hold the whole image at (@x, @y). */
static void check_cursor_regs(int x, int y, bool opaque)
{
	struct vseg_display_cursor c;

	igt_assert_f(vseg_display_read_cursor(ctx.fd, 0, &c),
		     "head 0's cursor is off, expected at %d,%d\n", x, y);
	igt_assert_f(c.x == x && c.y == y && c.width == CUR &&
		     c.height == CUR && c.pitch >= CUR * 4 &&
		     c.opaque == opaque,
		     "head 0's cursor registers: %ux%u pitch %u at %d,%d%s, expected 64x64 at %d,%d%s\n",
		     c.width, c.height, c.pitch, c.x, c.y,
		     c.opaque ? " opaque" : "", x, y, opaque ? " opaque" : "");
}

static void test_cursor_crc(void)
{
	static const struct {
		int x, y;
		const char *where;
	} pos[] = {
		{ 100, 200, "inside" },
		{ -20, 300, "partly off the left edge" },
		{ W - 30, 10, "partly off the right edge" },
		{ 500, -40, "partly off the top edge" },
		{ 700, H - 25, "partly off the bottom edge" },
		{ -50, -60, "off the top left corner but 14x4 pixels" },
		{ W - 1, H - 1, "one pixel inside, bottom right" },
	};
	uint32_t prim, cur, pitch, cpitch, fb, cfb, want, crc, last = 0;
	uint32_t *primary = malloc(FB_SIZE), *img = malloc(CUR * CUR * 4);
	uint64_t csize;
	struct crc_src src;
	uint32_t *p;
	int card;

	kms_init(ctx.fd);
	igt_require_f(kms.cursor[0],
		      "the display controller has no cursor registers\n");
	igt_require_f(crc_available(),
		      "the display controller has no CRC generator\n");
	igt_assert(primary && img);

	/* The primary's picture, kept here for the compositing. */
	prim = dumb_create(ctx.fd, W, H, 32, &pitch, NULL);
	want = fill_pattern(ctx.fd, prim, (uint64_t)pitch * H, pitch, 0x5a5a5a,
			    0);
	p = vseg_gem_mmap(ctx.fd, prim, (uint64_t)pitch * H, PROT_READ);
	for (uint32_t y = 0; y < H; y++)
		memcpy(primary + y * W, p + y * (pitch / 4), W * 4);
	munmap(p, (uint64_t)pitch * H);
	igt_assert_eq_u32(picture_crc(primary, W, H, W * 4), want);
	fb = addfb(ctx.fd, prim, DRM_FORMAT_XRGB8888, pitch);

	cur = dumb_create(ctx.fd, CUR, CUR, 32, &cpitch, &csize);
	p = vseg_gem_mmap(ctx.fd, cur, csize, PROT_READ | PROT_WRITE);
	for (uint32_t y = 0; y < CUR; y++)
		for (uint32_t x = 0; x < CUR; x++)
			p[y * (cpitch / 4) + x] = img[y * CUR + x] =
				cursor_px(x, y);
	munmap(p, csize);
	igt_assert_eq(drmModeAddFB2(ctx.fd, CUR, CUR, DRM_FORMAT_ARGB8888,
				    (uint32_t[4]){ cur }, (uint32_t[4]){ cpitch },
				    (uint32_t[4]){ 0 }, &cfb, 0), 0);

	commit_head(ctx.fd, 0, fb);
	igt_assert(crc_start(&src));
	igt_assert_eq_u32(crc_now(&src), want);
	igt_assert(!vseg_display_read_cursor(ctx.fd, 0,
					     &(struct vseg_display_cursor){}));

	/* At each position the picture composed here, and each one new. */
	for (unsigned int i = 0; i < ARRAY_SIZE(pos); i++) {
		uint32_t expect = cursor_crc(primary, img, pos[i].x, pos[i].y,
					     false);

		cursor_set(cfb, pos[i].x, pos[i].y);
		check_cursor_regs(pos[i].x, pos[i].y, false);
		crc = crc_now(&src);
		igt_assert_f(crc == expect,
			     "cursor at %d,%d (%s): CRC %#x, the composed picture's %#x (the primary's %#x)\n",
			     pos[i].x, pos[i].y, pos[i].where, crc, expect,
			     want);
		igt_assert_f(crc != want && crc != last,
			     "cursor at %d,%d (%s): CRC %#x, no change\n",
			     pos[i].x, pos[i].y, pos[i].where, crc);
		last = crc;
	}

	/* Wholly off the picture: not visible, the primary's CRC. */
	cursor_set(cfb, W, 0);
	igt_assert(!vseg_display_read_cursor(ctx.fd, 0,
					     &(struct vseg_display_cursor){}));
	igt_assert_eq_u32(crc_now(&src), want);

	/* The legacy cursor ioctl moves the same plane. */
	cursor_set(cfb, 100, 200);
	igt_assert_eq(drmModeMoveCursor(ctx.fd, kms.crtc[0], 300, 400), 0);
	check_cursor_regs(300, 400, false);
	igt_assert_eq_u32(crc_now(&src),
			  cursor_crc(primary, img, 300, 400, false));

	/* Pixel blend mode "None": the cursor's colour, alpha ignored. */
	cursor_blend("None");
	check_cursor_regs(300, 400, true);
	igt_assert_eq_u32(crc_now(&src),
			  cursor_crc(primary, img, 300, 400, true));
	cursor_blend("Pre-multiplied");
	want = cursor_crc(primary, img, 300, 400, false);
	igt_assert_eq_u32(crc_now(&src), want);

	/*
	 * A hostile unprivileged client on a card fd that is not the
	 * master moves nor removes the master's cursor, atomic or legacy.
	 */
	card = drm_open_vseg();
	igt_fork(child, 1) {
		int err;

		vseg_drop_privileges();
		igt_assert(!drmIsMaster(card));
		igt_assert_eq(drmSetClientCap(card, DRM_CLIENT_CAP_UNIVERSAL_PLANES,
					      1), 0);
		igt_assert_eq(drmSetClientCap(card, DRM_CLIENT_CAP_ATOMIC, 1), 0);
		err = __cursor_set(card, 0, 0, 0);
		igt_assert_f(err == -EACCES,
			     "atomic cursor off from a card fd that is not the master: %d (%s)\n",
			     err, vseg_errname(err));
		err = drmModeMoveCursor(card, kms.crtc[0], 10, 10) ? -errno : 0;
		igt_assert_f(err == -EACCES || err == -EPERM,
			     "legacy cursor move from a card fd that is not the master: %d (%s)\n",
			     err, vseg_errname(err));
		err = drmModeSetCursor(card, kms.crtc[0], 0, 0, 0) ? -errno : 0;
		igt_assert_f(err == -EACCES || err == -EPERM,
			     "legacy cursor off from a card fd that is not the master: %d (%s)\n",
			     err, vseg_errname(err));
	}
	igt_waitchildren();
	drm_close_driver(card);
	check_cursor_regs(300, 400, false);
	igt_assert_eq_u32(crc_now(&src), want);

	/* Off: the primary's CRC again. */
	cursor_set(0, 0, 0);
	igt_assert(!vseg_display_read_cursor(ctx.fd, 0,
					     &(struct vseg_display_cursor){}));
	crc = crc_now(&src);
	igt_assert_f(crc == picture_crc(primary, W, H, W * 4),
		     "cursor off: CRC %#x, the primary's %#x\n", crc,
		     picture_crc(primary, W, H, W * 4));

	/* Turning the CRTC off turns the cursor off with it. */
	cursor_set(cfb, 10, 10);
	check_cursor_regs(10, 10, false);
	crc_stop(&src);
	commit_head(ctx.fd, 0, 0);
	igt_assert(!vseg_display_read_cursor(ctx.fd, 0,
					     &(struct vseg_display_cursor){}));
	igt_info("%u CRCs read, %zu cursor positions\n", src.read,
		 ARRAY_SIZE(pos));

	drmModeRmFB(ctx.fd, cfb);
	drmModeRmFB(ctx.fd, fb);
	vseg_gem_close(ctx.fd, cur);
	vseg_gem_close(ctx.fd, prim);
	free(primary);
	free(img);
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

/* --- vblanks turned off at once ---------------------------------------- */

#define OFFDELAY "/sys/module/drm/parameters/vblankoffdelay"

static char saved_offdelay[32];

static void restore_offdelay(int sig __maybe_unused)
{
	int fd = open(OFFDELAY, O_WRONLY);

	if (fd >= 0) {
		igt_ignore_warn(write(fd, saved_offdelay,
				      strlen(saved_offdelay)));
		close(fd);
	}
}

static unsigned int vbl_events;
static uint32_t vbl_seq;

static void on_vblank(int fd __maybe_unused, unsigned int seq,
		      unsigned int sec __maybe_unused,
		      unsigned int usec __maybe_unused, void *data __maybe_unused)
{
	vbl_events++;
	vbl_seq = seq;
}

static void test_vblank_immediate_off(void)
{
	drmEventContext ev = {
		.version = 3,
		.vblank_handler = on_vblank,
		.page_flip_handler2 = on_flip,
	};
	uint32_t bo[2], fb[2], pitch, last = 0;
	int fd, n;

	fd = open(OFFDELAY, O_RDWR);
	igt_require_f(fd >= 0, "no writable %s\n", OFFDELAY);
	n = read(fd, saved_offdelay, sizeof(saved_offdelay) - 1);
	igt_assert(n > 0);
	saved_offdelay[n] = 0;
	igt_install_exit_handler(restore_offdelay);
	igt_assert_eq(pwrite(fd, "-1", 2, 0), 2);
	close(fd);

	kms_init(ctx.fd);
	for (int i = 0; i < 2; i++) {
		bo[i] = dumb_create(ctx.fd, W, H, 32, &pitch, NULL);
		fb[i] = addfb(ctx.fd, bo[i], DRM_FORMAT_XRGB8888, pitch);
	}
	commit_head(ctx.fd, 0, fb[0]);

	/* The event's vblank reference is the last: dropped in the timer. */
	flip_events = 0;
	for (int i = 1; i <= 20; i++) {
		struct pollfd p = { .fd = ctx.fd, .events = POLLIN };

		igt_assert_eq(drmModePageFlip(ctx.fd, kms.crtc[0], fb[i & 1],
					      DRM_MODE_PAGE_FLIP_EVENT, NULL),
			      0);
		igt_assert_f(poll(&p, 1, 2000) == 1,
			     "flip %d: no event within 2 s\n", i);
		igt_assert_eq(drmHandleEvent(ctx.fd, &ev), 0);
		igt_assert_eq(flip_events, i);
		igt_assert_f(i == 1 || flip_seq > last,
			     "flip %d at vblank %u, the one before at %u\n",
			     i, flip_seq, last);
		last = flip_seq;
	}
	check_kms_shows(0, bo[0], pitch, DRM_FORMAT_XRGB8888, NULL);

	vbl_events = 0;
	for (int i = 1; i <= 20; i++) {
		drmVBlank vbl = {
			.request.type = DRM_VBLANK_RELATIVE | DRM_VBLANK_EVENT,
			.request.sequence = 1,
		};
		struct pollfd p = { .fd = ctx.fd, .events = POLLIN };

		igt_assert_eq(drmWaitVBlank(ctx.fd, &vbl), 0);
		igt_assert_f(poll(&p, 1, 2000) == 1,
			     "vblank event %d: none within 2 s\n", i);
		igt_assert_eq(drmHandleEvent(ctx.fd, &ev), 0);
		igt_assert_eq(vbl_events, i);
		igt_assert_f(vbl_seq > last, "vblank event %d at %u, after %u\n",
			     i, vbl_seq, last);
		last = vbl_seq;
	}

	commit_head(ctx.fd, 0, 0);
	restore_offdelay(0);
	for (int i = 0; i < 2; i++) {
		drmModeRmFB(ctx.fd, fb[i]);
		vseg_gem_close(ctx.fd, bo[i]);
	}
}

static void test_flip_waits_fence(void)
{
	uint32_t a, b, pitch, fb_a, fb_b, gate, done;
	struct drm_vseg_gem_info ia;
	struct vseg_display_head h;
	uint32_t crc_old = solid_crc(0xaa), crc_new = solid_crc(0x00c0ffee);
	uint32_t crc_bb = solid_crc(0xbb), crc;
	struct vseg_cmdbuf cb;
	struct crc_src src;
	struct vseg_gate g;
	uint64_t pa_a;
	uint32_t *p;
	bool has_crc;

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
	/* The picture's CRCs too, where the display controller has them. */
	has_crc = crc_start(&src);
	if (has_crc)
		igt_assert_eq_u32(crc_now(&src), crc_old);

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
	/* Every frame so far showed a's picture. */
	crc = has_crc ? crc_now(&src) : crc_old;
	igt_assert_f(crc == crc_old,
		     "CRC %#x while the flip is held, a's is %#x (b's %#x)\n",
		     crc, crc_old, crc_bb);

	igt_assert(vseg_gate_open(&g));
	igt_assert_f(wait_event(ctx.fd, 5000),
		     "no flip event within 5 s of the writer's release\n");
	igt_assert_eq(flip_events, 1);
	igt_assert_eq(vseg_syncobj_wait_error(ctx.fd, done, 5000), 0);
	check_kms_shows(0, b, pitch, DRM_FORMAT_XRGB8888, NULL);
	/*
	 * Each frame's CRC is a's picture or the job's, never b's before the
	 * job; from the event's frame on, the job's: a's never shows again.
	 */
	do {
		if (!has_crc)
			break;
		crc = crc_next(&src);
		igt_assert_f(crc == crc_old || crc == crc_new,
			     "CRC %#x at frame %u: neither a's %#x nor the job's %#x (b before the job: %#x)\n",
			     crc, src.frame, crc_old, crc_new, crc_bb);
		igt_assert_f((int32_t)(src.frame - flip_seq) < 0 ||
			     crc == crc_new,
			     "frame %u, at or after the flip's %u, shows the old picture (CRC %#x)\n",
			     src.frame, flip_seq, crc);
	} while ((int32_t)(src.frame - flip_seq) < 3);
	if (has_crc) {
		igt_assert_eq_u32(crc_now(&src), crc_new);
		crc_stop(&src);
	}
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

		vseg_drop_privileges();

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
	p = vseg_gem_create_simple(ctx.fd, FB_SIZE, primary_set(), PRIMARY);

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

/* --- DirectFlip ---------------------------------------------------------- */

/* Segment 2 ("flip") is the only DirectFlip segment. */
#define DF_TABLE	"discrete table=memory:name=vram,size=16M,flags=cpuvisible," \
			"cpu=0xe0000000,visible=16M;" \
			"memory:name=flip,size=8M,flags=cpuvisible|directflip," \
			"cpu=0xe1000000,visible=8M;" \
			"aperture:name=aperture,size=32M"
#define DF_VRAM		1u
#define DF_SEG		2u
#define DF_HOSTILE	8u
#define DF_SEED		0xd1f1

/* debugfs display's DirectFlip counts. */
struct df_counts {
	uint64_t in_place, moved, elsewhere;
};

static struct df_counts df_counts(void)
{
	struct vseg_debugfs_file f;
	struct df_counts c = {};
	bool found = false;

	vseg_debugfs_read(ctx.fd, "display", NULL, &f);
	for (unsigned int i = 0; i < f.num_lines; i++) {
		const struct vseg_debugfs_line *l = &f.line[i];

		if (strcmp(l->head, "directflip"))
			continue;
		c.in_place = vseg_debugfs_u64(l, "in_place");
		c.moved = vseg_debugfs_u64(l, "moved");
		c.elsewhere = vseg_debugfs_u64(l, "elsewhere");
		found = true;
	}
	vseg_debugfs_free(&f);
	igt_assert_f(found, "debugfs display has no directflip line\n");
	return c;
}

/*
 * Show @h (filled with @seed's pattern) on head 0: it ends up in segment
 * @seg, the count @which (0 in place, 1 moved, 2 elsewhere) grows by one
 * and only it, the bytes are intact. Returns the framebuffer.
 */
static uint32_t df_show(uint32_t h, uint32_t seed, uint32_t seg,
			unsigned int which, const char *what)
{
	struct df_counts a = df_counts(), b;
	uint64_t da[3], db[3];
	uint32_t fb = addfb(ctx.fd, h, DRM_FORMAT_XRGB8888, W * 4);

	commit_head(ctx.fd, 0, fb);
	check_kms_shows(0, h, W * 4, DRM_FORMAT_XRGB8888, NULL);
	igt_assert_f(vseg_gem_segment(ctx.fd, h) == seg,
		     "%s: shown from segment %u, expected %u\n", what,
		     vseg_gem_segment(ctx.fd, h), seg);
	b = df_counts();
	da[0] = a.in_place; da[1] = a.moved; da[2] = a.elsewhere;
	db[0] = b.in_place; db[1] = b.moved; db[2] = b.elsewhere;
	for (unsigned int i = 0; i < 3; i++)
		igt_assert_f(db[i] == da[i] + (i == which),
			     "%s: directflip in_place %llu->%llu moved %llu->%llu elsewhere %llu->%llu\n",
			     what, (unsigned long long)a.in_place,
			     (unsigned long long)b.in_place,
			     (unsigned long long)a.moved,
			     (unsigned long long)b.moved,
			     (unsigned long long)a.elsewhere,
			     (unsigned long long)b.elsewhere);
	vseg_bo_check_pattern(ctx.fd, h, FB_SIZE, seed, what);
	return fb;
}

/* A primary of @supported segments, created in @pref, with a pattern. */
static uint32_t df_primary(uint32_t supported, uint32_t pref, uint32_t seed)
{
	struct drm_vseg_gem_create c;
	uint32_t h;

	vseg_create_args(&c, FB_SIZE, supported, PRIMARY);
	vseg_create_prefer(&c, pref, 0);
	h = vseg_gem_create(ctx.fd, &c);
	igt_assert_eq_u32(vseg_gem_segment(ctx.fd, h), pref);
	vseg_bo_fill_pattern(ctx.fd, h, FB_SIZE, seed);
	return h;
}

static void test_directflip(void)
{
	uint32_t all = BIT(DF_VRAM) | BIT(DF_SEG) | BIT(ctx.ap_id);
	uint32_t a, b, c, d, fa, fb, fc, fbd;
	int ready[2], go[2];

	igt_require_f(!display_segment(),
		      "the display reaches one BAR's segment alone, not the DirectFlip segment\n");
	kms_init(ctx.fd);
	a = df_primary(all, DF_VRAM, DF_SEED);
	fa = df_show(a, DF_SEED, DF_SEG, 1,
		     "a primary created outside the DirectFlip segment");
	b = df_primary(BIT(DF_SEG) | BIT(ctx.ap_id), DF_SEG, DF_SEED + 1);
	fb = df_show(b, DF_SEED + 1, DF_SEG, 0,
		     "a primary created in the DirectFlip segment");
	c = df_primary(BIT(DF_VRAM), DF_VRAM, DF_SEED + 2);
	fc = df_show(c, DF_SEED + 2, DF_VRAM, 2,
		     "a primary the DirectFlip segment cannot hold");
	commit_head(ctx.fd, 0, 0);
	check_head_off(0);
	drmModeRmFB(ctx.fd, fa);
	drmModeRmFB(ctx.fd, fb);
	drmModeRmFB(ctx.fd, fc);
	vseg_gem_close(ctx.fd, a);
	vseg_gem_close(ctx.fd, b);
	vseg_gem_close(ctx.fd, c);

	/* A hostile client fills the DirectFlip segment; a flip evicts it. */
	igt_assert_eq(pipe(ready), 0);
	igt_assert_eq(pipe(go), 0);
	igt_fork(child, 1) {
		int fd = drm_open_vseg_render();
		uint32_t h[DF_HOSTILE];
		unsigned int out = 0;
		char x;

		vseg_drop_privileges();
		for (unsigned int i = 0; i < DF_HOSTILE; i++) {
			h[i] = vseg_gem_create_in(fd, SZ_1M, DF_SEG, 0);
			vseg_bo_fill_pattern(fd, h[i], SZ_1M, DF_SEED + 16 + i);
			igt_assert_eq_u32(vseg_gem_segment(fd, h[i]), DF_SEG);
		}
		igt_assert_eq(write(ready[1], "x", 1), 1);
		igt_assert_eq(read(go[0], &x, 1), 1);
		for (unsigned int i = 0; i < DF_HOSTILE; i++) {
			out += vseg_gem_segment(fd, h[i]) != DF_SEG;
			vseg_bo_check_pattern(fd, h[i], SZ_1M,
					      DF_SEED + 16 + i,
					      "a hostile client's buffer after the flip");
		}
		/* 3 MiB of primary in an 8 MiB segment that was full. */
		igt_assert_f(out >= 3,
			     "%u of the hostile client's buffers left the DirectFlip segment, expected 3 or more\n",
			     out);
		drm_close_driver(fd);
	}
	{
		char x;

		igt_assert_eq(read(ready[0], &x, 1), 1);
	}
	d = df_primary(all, DF_VRAM, DF_SEED + 3);
	fbd = df_show(d, DF_SEED + 3, DF_SEG, 1,
		     "a primary moved into a DirectFlip segment a hostile client filled");
	igt_assert_eq(write(go[1], "x", 1), 1);
	igt_waitchildren();

	commit_head(ctx.fd, 0, 0);
	check_head_off(0);
	check_released(d, "a DirectFlip primary of a head turned off");
	drmModeRmFB(ctx.fd, fbd);
	vseg_gem_close(ctx.fd, d);
	close(ready[0]);
	close(ready[1]);
	close(go[0]);
	close(go[1]);
}

/* --- fbdev -------------------------------------------------------------- */

/*
 * The index of vseg's fb in /proc/fb (id "vsegdrmfb"), waiting up to 10 s
 * for the emulation to register it on a slow kernel; -1 if it never does.
 */
static int vseg_fb_index(void)
{
	for (int tries = 0; tries < 100; tries++) {
		char id[32];
		FILE *f;
		int i;

		f = fopen("/proc/fb", "r");
		if (f) {
			while (fscanf(f, "%d %31s", &i, id) == 2)
				if (!strcmp(id, "vsegdrmfb")) {
					fclose(f);
					return i;
				}
			fclose(f);
		}
		usleep(100 * 1000);
	}
	return -1;
}

/* /dev/fbN opened read-write, its node made from sysfs in a guest without udev. */
static int open_fb(int index, char *path, size_t len)
{
	unsigned int maj, min;
	char sys[64];
	FILE *f;
	int ok;

	snprintf(path, len, "/dev/fb%d", index);
	snprintf(sys, sizeof(sys), "/sys/class/graphics/fb%d/dev", index);
	f = fopen(sys, "r");
	if (!f)
		return -1;
	ok = fscanf(f, "%u:%u", &maj, &min) == 2;
	fclose(f);
	if (ok && access(path, F_OK))
		igt_assert_eq(mknod(path, S_IFCHR | 0600, makedev(maj, min)), 0);
	return open(path, O_RDWR);
}

static uint32_t past_value;

static void read_past(void *p)
{
	past_value = *(const volatile uint32_t *)p;
}

static void test_fbdev(void)
{
	const volatile uint32_t *past;
	struct fb_fix_screeninfo fix;
	struct fb_var_screeninfo var;
	struct drm_vseg_gem_info info;
	drmModeFB2Ptr fb2;
	drmModeCrtcPtr crtc;
	uint32_t *fbmap, *shown, pitch;
	uint64_t size;
	char path[48];
	int fd, tty, index;

	vseg_ctx_load(&ctx, "discrete fbdev=1");
	kms_init(ctx.fd);
	igt_require_f(!access("/proc/fb", F_OK),
		      "the kernel has no fbdev core (CONFIG_FB_CORE)\n");
	index = vseg_fb_index();
	igt_assert_f(index >= 0, "/proc/fb lists no vsegdrmfb with fbdev=1\n");
	snprintf(path, sizeof(path), "/sys/class/graphics/fb%d", index);
	igt_require_f(!access(path, F_OK),
		      "fb%d has no device (the kernel lacks CONFIG_FB_DEVICE)\n",
		      index);
	fd = open_fb(index, path, sizeof(path));
	igt_assert_f(fd >= 0, "%s: %m\n", path);
	igt_assert_eq(ioctl(fd, FBIOGET_FSCREENINFO, &fix), 0);
	igt_assert_eq(ioctl(fd, FBIOGET_VSCREENINFO, &var), 0);
	igt_assert_f(var.xres == kms.mode.hdisplay &&
		     var.yres == kms.mode.vdisplay && var.bits_per_pixel == 32,
		     "%s: %ux%u at %u bpp, the preferred mode is %ux%u\n", path,
		     var.xres, var.yres, var.bits_per_pixel,
		     kms.mode.hdisplay, kms.mode.vdisplay);

	/* Head 0 shows the emulation's framebuffer through KMS. */
	crtc = drmModeGetCrtc(ctx.fd, kms.crtc[0]);
	igt_assert(crtc);
	igt_assert_f(crtc->buffer_id && crtc->mode_valid &&
		     crtc->mode.hdisplay == var.xres &&
		     crtc->mode.vdisplay == var.yres,
		     "CRTC 0: fb %u, mode valid %d %ux%u\n", crtc->buffer_id,
		     crtc->mode_valid, crtc->mode.hdisplay, crtc->mode.vdisplay);
	fb2 = drmModeGetFB2(ctx.fd, crtc->buffer_id);
	igt_assert(fb2 && fb2->handles[0]);
	pitch = fb2->pitches[0];
	check_kms_shows(0, fb2->handles[0], pitch, fb2->pixel_format, &info);
	igt_assert_eq_u32(fb2->pixel_format, DRM_FORMAT_XRGB8888);

	/*
	 * Pixels written through the fb reach the scanned-out buffer. The
	 * console stops drawing into the fb (its cursor) in graphics mode.
	 */
	tty = open("/dev/tty0", O_RDWR);
	if (tty >= 0 && ioctl(tty, KDSETMODE, KD_GRAPHICS)) {
		close(tty);
		tty = -1;
	}
	size = (uint64_t)pitch * var.yres;
	igt_assert(fix.line_length * var.yres <= fix.smem_len);
	fbmap = mmap(NULL, fix.smem_len, PROT_READ | PROT_WRITE, MAP_SHARED,
		     fd, 0);
	igt_assert(fbmap != MAP_FAILED);
	for (uint32_t y = 0; y < var.yres; y++)
		for (uint32_t x = 0; x < var.xres; x++)
			fbmap[y * (fix.line_length / 4) + x] =
				0x00abcdef ^ (y << 12) ^ x;
	msync(fbmap, fix.smem_len, MS_SYNC);
	shown = vseg_gem_mmap(ctx.fd, fb2->handles[0], info.size, PROT_READ);
	for (int tries = 0;; tries++) {
		uint32_t bad = 0, bx = 0, by = 0;

		for (uint32_t y = 0; y < var.yres; y++)
			for (uint32_t x = 0; x < var.xres; x++)
				if (shown[y * (pitch / 4) + x] !=
				    (0x00abcdef ^ (y << 12) ^ x) && !bad++) {
					bx = x;
					by = y;
				}
		if (!bad)
			break;
		/* The emulation copies the damage out a little later. */
		igt_assert_f(tries < 100,
			     "%u pixels written through %s not scanned out, first at %u,%u: %#x\n",
			     bad, path, bx, by, shown[by * (pitch / 4) + bx]);
		usleep(50000);
	}
	munmap(shown, info.size);
	munmap(fbmap, fix.smem_len);
	if (tty >= 0) {
		ioctl(tty, KDSETMODE, KD_TEXT);
		close(tty);
	}
	/* Still shown where it was. */
	check_kms_shows(0, fb2->handles[0], pitch, fb2->pixel_format, NULL);

	/*
	 * The fb's mapping does not reach past its memory: refused, or a
	 * read past the end raises SIGBUS.
	 */
	fbmap = mmap(NULL, fix.smem_len + 2 * 4096, PROT_READ, MAP_SHARED,
		     fd, 0);
	if (fbmap != MAP_FAILED) {
		past = (const volatile uint32_t *)((char *)fbmap +
						    fix.smem_len + 4096);
		igt_assert_f(vseg_catch_sigbus(read_past, (void *)past),
			     "%s: read %#x past its %u bytes\n", path,
			     past_value, fix.smem_len);
		munmap(fbmap, fix.smem_len + 2 * 4096);
	}
	igt_assert(size <= info.size);

	/* A stranger cannot open it for writing. */
	igt_fork(child, 1) {
		int rw;

		vseg_drop_privileges();
		rw = open(path, O_RDWR);
		igt_assert_f(rw < 0 && errno == EACCES,
			     "uid 65534 opened %s read-write: %d (%s)\n", path,
			     rw, strerror(errno));
	}
	igt_waitchildren();

	close(fd);
	vseg_gem_close(ctx.fd, fb2->handles[0]);
	drmModeFreeFB2(fb2);
	drmModeFreeCrtc(crtc);
}

/* --- an eviction storm, a power transition ----------------------------- */

#define STORM_BUFS	48
#define STORM_SEED	0x570f
#define PM_PATH		"/sys/bus/platform/devices/vseg/pm"

static void test_eviction_storm(void)
{
	struct drm_vseg_gem_info before, after;
	struct vseg_display_head hb, ha;
	struct drm_vseg_gem_create c;
	uint32_t d, fb, vram;

	kms_init(ctx.fd);
	vram = vseg_segment_by_name(&ctx.q, ctx.segs, "vram");
	vseg_create_args(&c, FB_SIZE, BIT(vram) | BIT(ctx.ap_id), PRIMARY);
	vseg_create_prefer(&c, vram, 0);
	d = vseg_gem_create(ctx.fd, &c);
	vseg_bo_fill_pattern(ctx.fd, d, FB_SIZE, STORM_SEED);
	fb = addfb(ctx.fd, d, DRM_FORMAT_XRGB8888, W * 4);
	commit_head(ctx.fd, 0, fb);
	check_kms_shows(0, d, W * 4, DRM_FORMAT_XRGB8888, &before);
	hb = display_head(0);

	igt_fork(child, 1) {
		int fd = drm_open_vseg_render();
		uint32_t h[STORM_BUFS];
		unsigned int made = 0, full = 0;

		vseg_drop_privileges();
		for (unsigned int i = 0; i < STORM_BUFS; i++) {
			struct drm_vseg_gem_create cc;
			int err;

			vseg_create_args(&cc, SZ_1M, BIT(vram), 0);
			err = __vseg_gem_create(fd, &cc);
			if (err == -ENOSPC) {
				full++;
				continue;
			}
			igt_assert_f(!err, "GEM_CREATE in the storm: %d (%s)\n",
				     err, vseg_errname(err));
			h[made] = cc.handle;
			vseg_bo_fill_pattern(fd, h[made], SZ_1M,
					     STORM_SEED + 1 + made);
			made++;
		}
		/* Every buffer back, each evicting others. */
		for (unsigned int round = 0; round < 2; round++)
			for (unsigned int i = 0; i < made; i++)
				vseg_bo_check_pattern(fd, h[i], SZ_1M,
						      STORM_SEED + 1 + i,
						      "a storm buffer");
		igt_info("eviction storm: %u buffers made, %u refused (ENOSPC)\n",
			 made, full);
		igt_assert(made > 0);
		drm_close_driver(fd);
	}
	igt_waitchildren();

	check_kms_shows(0, d, W * 4, DRM_FORMAT_XRGB8888, &after);
	ha = display_head(0);
	igt_assert_f(after.segment_id == before.segment_id &&
		     after.offset == before.offset &&
		     after.moves == before.moves && ha.scanout == hb.scanout,
		     "the displayed primary moved in the storm: segment %u offset %#llx moves %llu scanout %#llx, was segment %u offset %#llx moves %llu scanout %#llx\n",
		     after.segment_id, (unsigned long long)after.offset,
		     (unsigned long long)after.moves,
		     (unsigned long long)ha.scanout, before.segment_id,
		     (unsigned long long)before.offset,
		     (unsigned long long)before.moves,
		     (unsigned long long)hb.scanout);
	vseg_bo_check_pattern(ctx.fd, d, FB_SIZE, STORM_SEED,
			      "the displayed primary after the storm");

	commit_head(ctx.fd, 0, 0);
	check_head_off(0);
	drmModeRmFB(ctx.fd, fb);
	vseg_gem_close(ctx.fd, d);
}

/* Write @kind ("standby", "hibernate") to the device's sysfs pm. */
static void pm_trigger(const char *kind)
{
	int f = open(PM_PATH, O_WRONLY | O_CLOEXEC);

	igt_assert_f(f >= 0, "%s: %m\n", PM_PATH);
	igt_assert_f(write(f, kind, strlen(kind)) == (ssize_t)strlen(kind),
		     "pm %s: %m\n", kind);
	close(f);
}

static void test_suspend_keeps_picture(void)
{
	static const char *const kinds[] = { "standby", "hibernate" };
	uint32_t d, fb, pitch, want, *p;
	struct crc_src src;
	bool has_crc;

	igt_require_f(access(PM_PATH, W_OK) == 0,
		      "no %s (vseg binds a PCI device here)\n", PM_PATH);
	kms_init(ctx.fd);
	d = dumb_create(ctx.fd, W, H, 32, &pitch, NULL);
	want = fill_pattern(ctx.fd, d, FB_SIZE, pitch, 0x5eed, 0);
	fb = addfb(ctx.fd, d, DRM_FORMAT_XRGB8888, pitch);
	commit_head(ctx.fd, 0, fb);
	has_crc = crc_start(&src);
	if (has_crc)
		igt_assert_eq_u32(crc_now(&src), want);

	igt_fork(child, 1) {
		int f;

		vseg_drop_privileges();
		f = open(PM_PATH, O_WRONLY);
		igt_assert_f(f < 0 && errno == EACCES,
			     "uid 65534 opened %s for writing: %d (%m)\n",
			     PM_PATH, f);
	}
	igt_waitchildren();

	for (unsigned int i = 0; i < ARRAY_SIZE(kinds); i++) {
		drmModeCrtcPtr crtc;

		pm_trigger(kinds[i]);
		crtc = drmModeGetCrtc(ctx.fd, kms.crtc[0]);
		igt_assert(crtc);
		igt_assert_f(crtc->buffer_id == fb && crtc->mode_valid &&
			     crtc->mode.hdisplay == W && crtc->mode.vdisplay == H,
			     "after %s: CRTC 0 shows fb %u (mode valid %d, %ux%u), expected fb %u at %ux%u\n",
			     kinds[i], crtc->buffer_id, crtc->mode_valid,
			     crtc->mode.hdisplay, crtc->mode.vdisplay, fb, W, H);
		drmModeFreeCrtc(crtc);
		check_kms_shows(0, d, pitch, DRM_FORMAT_XRGB8888, NULL);
		p = vseg_gem_mmap(ctx.fd, d, FB_SIZE, PROT_READ);
		igt_assert_f(picture_crc(p, W, H, pitch) == want,
			     "after %s: the displayed buffer's pixels changed\n",
			     kinds[i]);
		munmap(p, FB_SIZE);
		if (has_crc)
			igt_assert_f(crc_now(&src) == want,
				     "after %s: the head's CRC is not the picture's\n",
				     kinds[i]);
	}

	if (has_crc)
		crc_stop(&src);
	commit_head(ctx.fd, 0, 0);
	check_head_off(0);
	drmModeRmFB(ctx.fd, fb);
	vseg_gem_close(ctx.fd, d);
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
	{ "vblank-immediate-off", test_vblank_immediate_off,
	  "Vblanks turned off inside their own interrupt come back." },
	{ "flip-waits-fence", test_flip_waits_fence,
	  "A flip waits for its buffer's writer; CRC checked." },
	{ "crc-matches-content", test_crc_matches_content,
	  "Each frame's CRC is the shown picture's, wherever it lies." },
	{ "cursor-crc", test_cursor_crc,
	  "The cursor plane is composed over the primary in each frame's "
	  "CRC, wherever it is; strangers cannot move it." },
	{ "render-node-cannot-modeset", test_render_node,
	  "A render node and a card fd that is not the master cannot modeset." },
	{ "closed-buffer-keeps-scanning", test_closed_buffer,
	  "A framebuffer keeps its buffer shown after the handle is closed." },
	{ "fbdev", test_fbdev,
	  "vseg's /dev/fbN is at the preferred mode and its pixels are "
	  "scanned out; strangers cannot write it." },
	{ "eviction-storm", test_eviction_storm,
	  "A hostile eviction storm cannot move a displayed primary." },
	{ "suspend-keeps-picture", test_suspend_keeps_picture,
	  "Standby and hibernate keep the mode and the picture." },
	{ "removed-scanout-ioctl", test_removed_scanout_ioctl,
	  "The removed scanout ioctl's number fails with EINVAL and "
	  "changes nothing." },
};

igt_main
{
	igt_fixture {
		ctx.before_load = crc_close_all;
		vseg_ctx_setup(&ctx);
	}

	vseg_ctx_subtests(&ctx, "discrete", tests, ARRAY_SIZE(tests),
			  "after turning every head off");

	igt_describe("Flips scan out of DirectFlip segments, moving primaries "
		     "there, hostile clients' buffers evicted intact.");
	igt_subtest("directflip") {
		const char *opts = getenv("IGT_KMOD_OPTIONS");

		/* Its table is a platform GPU's: a PCI device puts one on its BAR. */
		igt_require_f(!opts || !strstr(opts, "pci="),
			      "vseg binds a PCI device here (IGT_KMOD_OPTIONS %s)\n",
			      opts);
		vseg_ctx_load(&ctx, DF_TABLE);
		test_directflip();
		vseg_ctx_finish(&ctx, "after turning every head off");
	}

	igt_fixture
		vseg_ctx_unload(&ctx);
}
