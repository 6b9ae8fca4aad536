// SPDX-License-Identifier: MIT
/*
 * vseg_bochs: vseg on QEMU's Bochs display adapter, its picture read back.
 *
 * Loaded with pci=1234:1111 in a guest with -device bochs-display, vseg
 * binds the adapter: its VRAM BAR 0 is the first memory segment and its
 * display controller (the VBE DISPI registers in its MMIO BAR 2) shows
 * head 0. The test reads the screen back the way the emulated adapter
 * does, from the device itself: the DISPI registers through an mmap of
 * sysfs resource2 give the mode and where the picture starts, and the
 * pixels there, through an mmap of sysfs resource0, must be the
 * framebuffer's, byte for byte. In a guest of tools/vm-run.sh
 * --screendump (make check's Bochs lane), the screen QEMU shows is read
 * back too, as the host saves it (its monitor's screendump), and must
 * show the framebuffer's pixels.
 *
 * Copyright (c) 2026 The vseg authors
 */
/**
 * TEST: vseg bochs
 * Category: Core
 * Mega feature: General Core features
 * Sub-category: Display
 * Functionality: kms
 * Description: vseg drives QEMU's Bochs display adapter: a KMS modeset
 *	programs its DISPI registers, and the picture the adapter shows
 *	(read from its BARs through sysfs) is the framebuffer's.
 *
 * SUBTEST: modeset-xrgb8888
 * Description: A 1024x768 XRGB8888 dumb buffer with a known pattern lit
 *	on head 0: DISPI says enabled, 1024x768, 32 bpp, VIRT_WIDTH the
 *	pitch in pixels; the picture starts where debugfs display says the
 *	primary is (its offset in BAR 0), and every line there in BAR 0
 *	equals the framebuffer's, byte for byte; in a guest that can ask
 *	the host for a screendump, QEMU's screen shows each pixel's R, G and
 *	B. Turning the CRTC off writes ENABLE 0.
 *
 * SUBTEST: modeset-rgb565
 * Description: The same with an RGB565 framebuffer: 16 bpp, VIRT_WIDTH
 *	the pitch in 2-byte pixels, the pixels equal.
 *
 * SUBTEST: flip
 * Description: A flip to a second framebuffer with another pattern, and
 *	then to one whose first pixel is 16 lines and 8 pixels into its
 *	buffer (the framebuffer's offset): X_OFFSET/Y_OFFSET follow, the mode
 *	stays, and the screen shows the new pixels byte for byte (and the
 *	last one in QEMU's screendump, where there is one).
 *
 * SUBTEST: unreachable-refused
 * Description: The adapter scans out its VRAM BAR only: a framebuffer of
 *	a buffer supported in the aperture alone is refused by the commit
 *	with EINVAL, and the screen stays as it was.
 *
 * SUBTEST: unprivileged
 * Description: An unprivileged child (uid 65534) can open neither BAR's
 *	sysfs resource file (EACCES), and, with a card fd that is not the
 *	master, cannot modeset (EACCES); what the screen shows does not
 *	change.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include <drm_fourcc.h>
#include <xf86drm.h>
#include <xf86drmMode.h>

#include "igt.h"
#include "igt_vseg.h"

IGT_TEST_DESCRIPTION("vseg drives QEMU's Bochs display adapter: KMS "
		     "programs its DISPI registers, and the picture read "
		     "back from its BARs is the framebuffer's.");

#define W		1024
#define H		768

/* The adapter's MMIO BAR: the DISPI registers, 16 bits, from 0x500. */
#define DISPI(reg)	(0x500 + 2 * (reg))
enum { ID, XRES, YRES, BPP, ENABLE, BANK, VIRT_WIDTH, VIRT_HEIGHT,
	X_OFFSET, Y_OFFSET };
#define DISPI_ENABLED	0x01

static struct vseg_ctx ctx = VSEG_CTX_INIT_ENGINE(VSEG_LEFTOVERS_BASE_COUNT);

/**
 * struct bochs - the adapter as the test reads it
 * @dir: its sysfs directory.
 * @mmio: its MMIO BAR, mapped.
 * @mmio_size: that mapping's size.
 * @vram: its VRAM BAR, mapped.
 * @vram_size: that mapping's size.
 */
static struct bochs {
	char dir[512];
	volatile uint8_t *mmio;
	size_t mmio_size;
	uint8_t *vram;
	size_t vram_size;
} bochs;

static struct kms {
	uint32_t crtc, conn, primary;
	drmModeModeInfo mode;
} kms;

/* The sysfs directory of the first 1234:1111 PCI device, or false. */
static bool find_adapter(char *dir, size_t len)
{
	DIR *d = opendir("/sys/bus/pci/devices");
	struct dirent *e;
	bool found = false;

	if (!d)
		return false;
	while (!found && (e = readdir(d))) {
		char path[512], buf[32] = "";
		unsigned int vendor = 0, device = 0;
		FILE *f;

		if (e->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), "/sys/bus/pci/devices/%s/vendor",
			 e->d_name);
		f = fopen(path, "r");
		if (f && fgets(buf, sizeof(buf), f))
			vendor = strtoul(buf, NULL, 16);
		if (f)
			fclose(f);
		snprintf(path, sizeof(path), "/sys/bus/pci/devices/%s/device",
			 e->d_name);
		f = fopen(path, "r");
		if (f && fgets(buf, sizeof(buf), f))
			device = strtoul(buf, NULL, 16);
		if (f)
			fclose(f);
		if (vendor == 0x1234 && device == 0x1111) {
			snprintf(dir, len, "/sys/bus/pci/devices/%s",
				 e->d_name);
			found = true;
		}
	}
	closedir(d);
	return found;
}

static void *map_bar(const char *name, size_t *size)
{
	char path[600];
	void *p;
	off_t end;
	int fd;

	snprintf(path, sizeof(path), "%s/%s", bochs.dir, name);
	fd = open(path, O_RDONLY);
	igt_assert_f(fd >= 0, "open %s: %m\n", path);
	end = lseek(fd, 0, SEEK_END);
	igt_assert(end > 0);
	*size = end;
	p = mmap(NULL, *size, PROT_READ, MAP_SHARED, fd, 0);
	igt_assert_f(p != MAP_FAILED, "mmap %s: %m\n", path);
	close(fd);
	return p;
}

/* The adapter is vseg's, its BARs mapped read-only. */
static void bochs_open(void)
{
	char link[600], target[600] = "";
	ssize_t n;

	snprintf(link, sizeof(link), "%s/driver", bochs.dir);
	n = readlink(link, target, sizeof(target) - 1);
	igt_assert_f(n > 0 && strstr(target, "/vseg"),
		     "%s is bound to %s, not vseg\n", bochs.dir,
		     n > 0 ? target : "nothing");
	bochs.mmio = map_bar("resource2", &bochs.mmio_size);
	bochs.vram = map_bar("resource0", &bochs.vram_size);
	igt_assert(bochs.mmio_size >= 0x1000);
}

static void bochs_close(void)
{
	munmap((void *)bochs.mmio, bochs.mmio_size);
	munmap(bochs.vram, bochs.vram_size);
}

static uint16_t dispi(int reg)
{
	return *(volatile uint16_t *)(bochs.mmio + DISPI(reg));
}

/* A debugfs value of the line starting with @prefix, as a number. */
static uint64_t debugfs_number(const char *file, const char *prefix,
			       const char *key)
{
	char *text = vseg_debugfs_read_file(ctx.fd, file), *l, *v;
	char k[64];
	uint64_t val = 0;
	bool found = false;

	igt_assert(text);
	snprintf(k, sizeof(k), " %s=", key);
	for (l = strtok(text, "\n"); l && !found; l = strtok(NULL, "\n")) {
		if (strncmp(l, prefix, strlen(prefix)))
			continue;
		v = strstr(l, k);
		if (!v && !strncmp(l, k + 1, strlen(k + 1)))
			v = l - 1;
		igt_assert_f(v, "debugfs %s: no %s in \"%s\"\n", file, key, l);
		val = strtoull(v + strlen(k), NULL, 0);
		found = true;
	}
	free(text);
	igt_assert_f(found, "debugfs %s: no line %s\n", file, prefix);
	return val;
}

static void kms_init(int fd)
{
	drmModeResPtr res;
	drmModePlaneResPtr pres;
	drmModeConnectorPtr c;

	igt_assert_eq(drmSetClientCap(fd, DRM_CLIENT_CAP_UNIVERSAL_PLANES, 1), 0);
	igt_assert_eq(drmSetClientCap(fd, DRM_CLIENT_CAP_ATOMIC, 1), 0);
	res = drmModeGetResources(fd);
	igt_assert(res && res->count_crtcs > 0 && res->count_connectors > 0);
	memset(&kms, 0, sizeof(kms));
	kms.crtc = res->crtcs[0];
	kms.conn = res->connectors[0];
	drmModeFreeResources(res);
	pres = drmModeGetPlaneResources(fd);
	igt_assert(pres);
	for (uint32_t i = 0; i < pres->count_planes && !kms.primary; i++) {
		drmModePlanePtr p = drmModeGetPlane(fd, pres->planes[i]);

		/* The first plane of CRTC 0 is its primary. */
		if (p->possible_crtcs == 1)
			kms.primary = p->plane_id;
		drmModeFreePlane(p);
	}
	drmModeFreePlaneResources(pres);
	igt_assert(kms.primary);
	c = drmModeGetConnector(fd, kms.conn);
	igt_assert(c);
	for (int i = 0; i < c->count_modes; i++)
		if (c->modes[i].hdisplay == W && c->modes[i].vdisplay == H)
			kms.mode = c->modes[i];
	drmModeFreeConnector(c);
	igt_assert_f(kms.mode.hdisplay == W, "no 1024x768 mode\n");
}

/* Light head 0 with @fb (1024x768), or turn it off: 0 or -errno. */
static int __commit(int fd, uint32_t fb)
{
	return __vseg_kms_commit_head(fd, kms.conn, kms.crtc, kms.primary,
				      &kms.mode, fb, 0);
}

static void commit(uint32_t fb)
{
	int err = __commit(ctx.fd, fb);

	igt_assert_f(!err, "commit of fb %u: %d (%s)\n", fb, err,
		     vseg_errname(err));
}

/**
 * struct fb - a framebuffer of a dumb buffer, its pattern written
 * @handle: the dumb buffer.
 * @id: the framebuffer.
 * @pitch: its pitch.
 * @size: the buffer's size.
 * @offset: where the framebuffer's first pixel is in the buffer.
 * @pixels: a copy of the buffer's bytes.
 */
struct fb {
	uint32_t handle, id, pitch;
	uint64_t size;
	uint32_t offset;
	uint8_t *pixels;
};

/* A dumb buffer for a @bpp framebuffer, @extra lines more, a pattern. */
static void fb_make(struct fb *f, uint32_t format, uint32_t bpp,
		    uint32_t extra, uint32_t offset, uint32_t seed)
{
	struct drm_mode_create_dumb d = { .width = W, .height = H + extra,
					  .bpp = bpp };
	uint32_t handles[4] = {}, pitches[4] = {}, offsets[4] = {};
	uint8_t *p;

	igt_assert_eq(drmIoctl(ctx.fd, DRM_IOCTL_MODE_CREATE_DUMB, &d), 0);
	f->handle = d.handle;
	f->pitch = d.pitch;
	f->size = d.size;
	f->offset = offset;
	f->pixels = malloc(f->size);
	igt_assert(f->pixels);
	for (uint64_t i = 0; i < f->size; i++)
		f->pixels[i] = (uint8_t)((i * 2654435761u + seed) >> 13);
	p = vseg_gem_mmap(ctx.fd, f->handle, f->size,
			  PROT_READ | PROT_WRITE);
	memcpy(p, f->pixels, f->size);
	munmap(p, f->size);
	handles[0] = f->handle;
	pitches[0] = f->pitch;
	offsets[0] = offset;
	igt_assert_eq(drmModeAddFB2(ctx.fd, W, H, format, handles, pitches,
				    offsets, &f->id, 0), 0);
}

static void fb_free(struct fb *f)
{
	drmModeRmFB(ctx.fd, f->id);
	vseg_gem_close(ctx.fd, f->handle);
	free(f->pixels);
}

/*
 * The emulated screen as QEMU shows it, read back: in a guest of
 * tools/vm-run.sh --screendump, the host has QEMU save it ($OUTDIR/NAME,
 * its monitor's screendump, PPM: 8-bit RGB) on request. NULL outside
 * such a guest; else the W x H RGB pixels (malloc()ed).
 */
static uint8_t *screendump(const char *name)
{
	const char *out = getenv("OUTDIR");
	char path[1024], req[1024], done[1024], magic[3] = {};
	unsigned int w, h, max;
	uint8_t *rgb;
	FILE *f;
	int c;

	if (!out)
		return NULL;
	snprintf(path, sizeof(path), "%s/.vm-run/screendump-on", out);
	if (access(path, F_OK))
		return NULL;
	snprintf(path, sizeof(path), "%s/%s", out, name);
	snprintf(req, sizeof(req), "%s/.vm-run/screendump", out);
	snprintf(done, sizeof(done), "%s/.vm-run/screendump-done", out);
	unlink(path);
	unlink(done);
	f = fopen(req, "w");
	igt_assert_f(f, "%s: %m\n", req);
	fprintf(f, "%s\n", name);
	igt_assert_eq(fclose(f), 0);
	for (int i = 0; i < 600 && access(done, F_OK); i++)
		usleep(100 * 1000);
	igt_assert_f(!access(done, F_OK), "no screendump within 60 s\n");

	f = fopen(path, "r");
	igt_assert_f(f, "the screendump %s: %m\n", path);
	igt_assert_f(fscanf(f, "%2s %u %u %u", magic, &w, &h, &max) == 4 &&
		     !strcmp(magic, "P6") && max == 255,
		     "%s: not an 8-bit PPM\n", path);
	c = fgetc(f);
	igt_assert(c == '\n' || c == ' ');
	igt_assert_f(w == W && h == H, "the screen is %ux%u, the mode %ux%u\n",
		     w, h, W, H);
	rgb = malloc((size_t)W * H * 3);
	igt_assert(rgb);
	igt_assert_eq(fread(rgb, 3, (size_t)W * H, f), (size_t)W * H);
	fclose(f);
	unlink(path);
	return rgb;
}

/*
 * The emulated screen (a screendump, where the guest can ask for one)
 * shows XRGB8888 framebuffer @f: each pixel's R, G and B.
 */
static void check_screendump(const struct fb *f)
{
	uint8_t *rgb = screendump("vseg_bochs-screen.ppm");

	if (!rgb) {
		igt_info("no screendump here (not a guest of vm-run.sh --screendump)\n");
		return;
	}
	for (uint32_t y = 0; y < H; y++)
		for (uint32_t x = 0; x < W; x++) {
			const uint8_t *src = f->pixels + f->offset +
					     (uint64_t)y * f->pitch + x * 4;
			const uint8_t *scr = rgb + ((size_t)y * W + x) * 3;

			igt_assert_f(scr[0] == src[2] && scr[1] == src[1] &&
				     scr[2] == src[0],
				     "the screen at %u,%u is %02x%02x%02x, the framebuffer %02x%02x%02x\n",
				     x, y, scr[0], scr[1], scr[2], src[2],
				     src[1], src[0]);
		}
	igt_info("QEMU's screendump: %ux%u pixels, each the framebuffer's\n",
		 W, H);
	free(rgb);
}

/*
 * The adapter shows @f at @bpp: DISPI's mode and start agree with debugfs
 * display, and each of the picture's lines in BAR 0 is the framebuffer's.
 */
static void check_screen(const struct fb *f, uint32_t bpp)
{
	uint32_t cpp = bpp / 8, vw, line = W * cpp;
	uint64_t start, bar_base, address;

	igt_assert_f(dispi(ENABLE) & DISPI_ENABLED,
		     "DISPI ENABLE %#x: not enabled\n", dispi(ENABLE));
	igt_assert_eq(dispi(XRES), W);
	igt_assert_eq(dispi(YRES), H);
	igt_assert_eq(dispi(BPP), bpp);
	vw = dispi(VIRT_WIDTH);
	igt_assert_eq_u32(vw * cpp, f->pitch);
	start = ((uint64_t)dispi(Y_OFFSET) * vw + dispi(X_OFFSET)) * cpp;

	/* Where vseg put the primary: its scanout address in BAR 0. */
	bar_base = debugfs_number("display_regs", "controller=", "bar_base");
	address = debugfs_number("display", "head 0 ", "scanout");
	igt_assert_f(address - bar_base == start,
		     "DISPI starts the picture at %#llx, vseg's scanout at %#llx\n",
		     (unsigned long long)start,
		     (unsigned long long)(address - bar_base));
	igt_assert(start + (uint64_t)f->pitch * (H - 1) + line <=
		   bochs.vram_size);
	for (uint32_t y = 0; y < H; y++) {
		const uint8_t *scr = bochs.vram + start + (uint64_t)y * f->pitch;
		const uint8_t *src = f->pixels + f->offset +
				     (uint64_t)y * f->pitch;

		igt_assert_f(!memcmp(scr, src, line),
			     "line %u of the screen differs from the framebuffer\n",
			     y);
	}
}

static void modeset(uint32_t format, uint32_t bpp)
{
	struct fb f;

	bochs_open();
	kms_init(ctx.fd);
	fb_make(&f, format, bpp, 0, 0, 1);
	commit(f.id);
	check_screen(&f, bpp);
	if (format == DRM_FORMAT_XRGB8888)
		check_screendump(&f);
	commit(0);
	igt_assert_f(!(dispi(ENABLE) & DISPI_ENABLED),
		     "DISPI ENABLE %#x after the CRTC is off\n", dispi(ENABLE));
	fb_free(&f);
	bochs_close();
}

static void test_xrgb8888(void)
{
	modeset(DRM_FORMAT_XRGB8888, 32);
}

static void test_rgb565(void)
{
	modeset(DRM_FORMAT_RGB565, 16);
}

static void test_flip(void)
{
	struct fb a, b, c;

	bochs_open();
	kms_init(ctx.fd);
	fb_make(&a, DRM_FORMAT_XRGB8888, 32, 0, 0, 1);
	fb_make(&b, DRM_FORMAT_XRGB8888, 32, 0, 0, 2);
	commit(a.id);
	check_screen(&a, 32);
	igt_assert_eq(drmModePageFlip(ctx.fd, kms.crtc, b.id, 0, NULL), 0);
	/* The flip's commit is done once the next one may begin. */
	commit(b.id);
	check_screen(&b, 32);
	/* 16 lines and 8 pixels into its buffer. */
	fb_make(&c, DRM_FORMAT_XRGB8888, 32, 17, 0, 3);
	drmModeRmFB(ctx.fd, c.id);
	{
		uint32_t handles[4] = { c.handle }, pitches[4] = { c.pitch };
		uint32_t offsets[4] = { 16 * c.pitch + 8 * 4 };

		c.offset = offsets[0];
		igt_assert_eq(drmModeAddFB2(ctx.fd, W, H, DRM_FORMAT_XRGB8888,
					    handles, pitches, offsets, &c.id,
					    0), 0);
	}
	commit(c.id);
	check_screen(&c, 32);
	check_screendump(&c);
	igt_assert_eq((dispi(X_OFFSET) * 4 + dispi(Y_OFFSET) * c.pitch) %
		      4096, (16 * c.pitch + 8 * 4) % 4096);
	commit(0);
	fb_free(&a);
	fb_free(&b);
	fb_free(&c);
	bochs_close();
}

static void test_unreachable(void)
{
	uint32_t handles[4] = {}, pitches[4] = { W * 4 }, offsets[4] = {};
	uint16_t y, x;
	uint32_t h, id;
	struct fb a;
	int err;

	bochs_open();
	kms_init(ctx.fd);
	fb_make(&a, DRM_FORMAT_XRGB8888, 32, 0, 0, 1);
	commit(a.id);
	y = dispi(Y_OFFSET);
	x = dispi(X_OFFSET);
	h = vseg_gem_create_simple(ctx.fd, (uint64_t)W * H * 4,
				   1u << ctx.ap_id, 0);
	handles[0] = h;
	igt_assert_eq(drmModeAddFB2(ctx.fd, W, H, DRM_FORMAT_XRGB8888,
				    handles, pitches, offsets, &id, 0), 0);
	err = __commit(ctx.fd, id);
	igt_assert_f(err == -EINVAL,
		     "commit of an aperture-only framebuffer: %d (%s)\n", err,
		     vseg_errname(err));
	igt_assert_eq(dispi(Y_OFFSET), y);
	igt_assert_eq(dispi(X_OFFSET), x);
	check_screen(&a, 32);
	commit(0);
	drmModeRmFB(ctx.fd, id);
	vseg_gem_close(ctx.fd, h);
	fb_free(&a);
	bochs_close();
}

static void test_unprivileged(void)
{
	int card = drm_open_vseg();
	struct fb a;

	bochs_open();
	kms_init(ctx.fd);
	fb_make(&a, DRM_FORMAT_XRGB8888, 32, 0, 0, 1);
	commit(a.id);

	igt_fork(child, 1) {
		char path[600];
		int err;

		vseg_drop_privileges();
		for (int i = 0; i < 2; i++) {
			snprintf(path, sizeof(path), "%s/resource%d",
				 bochs.dir, i * 2);
			err = open(path, O_RDONLY) < 0 ? -errno : 0;
			igt_assert_f(err == -EACCES,
				     "uid 65534 opens %s: %d\n", path, err);
		}
		igt_assert(!drmIsMaster(card));
		igt_assert_eq(drmSetClientCap(card, DRM_CLIENT_CAP_ATOMIC, 1),
			      0);
		err = __commit(card, 0);
		igt_assert_f(err == -EACCES,
			     "commit from a card fd that is not the master: %d (%s)\n",
			     err, vseg_errname(err));
	}
	igt_waitchildren();
	check_screen(&a, 32);
	drm_close_driver(card);
	commit(0);
	fb_free(&a);
	bochs_close();
}

static const struct vseg_subtest tests[] = {
	{ "modeset-xrgb8888", test_xrgb8888,
	  "An XRGB8888 modeset shows the framebuffer on the adapter's screen, "
	  "byte for byte; off writes ENABLE 0." },
	{ "modeset-rgb565", test_rgb565,
	  "An RGB565 modeset shows the framebuffer at 16 bpp." },
	{ "flip", test_flip,
	  "Flips move the adapter's start; the screen shows the new pixels." },
	{ "unreachable-refused", test_unreachable,
	  "A framebuffer the adapter cannot scan out is refused (EINVAL)." },
	{ "unprivileged", test_unprivileged,
	  "An unprivileged process reaches neither BAR nor the modeset." },
};

igt_main
{
	igt_fixture {
		igt_require_f(find_adapter(bochs.dir, sizeof(bochs.dir)),
			      "no PCI 1234:1111 (QEMU -device bochs-display)\n");
		vseg_ctx_setup(&ctx);
	}

	vseg_ctx_subtests(&ctx, "discrete", tests, ARRAY_SIZE(tests),
			  "after turning the head off");

	igt_fixture
		vseg_ctx_unload(&ctx);
}
