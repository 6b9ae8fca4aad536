// SPDX-License-Identifier: GPL-2.0-only
/*
 * Copyright (c) 2026 The vseg authors
 *
 * QEMU's Bochs display adapter (PCI 1234:1111: -device bochs-display, and
 * the standard VGA's VBE side) as a vseg display controller, one
 * implementation of &struct vseg_hw_display. The engines, the GART and
 * the MMU stay the software GPU's: the adapter has none.
 *
 * The adapter scans out of its VRAM, BAR 0, only; its registers are in
 * its MMIO BAR 2: the VBE DISPI registers, 16 bits each, flat from 0x500
 * (register i at 0x500 + 2 * i), and QEMU's extension registers from
 * 0x600 (their region's size at 0x600, the framebuffer's byte order at
 * 0x604). The picture starts (Y_OFFSET * VIRT_WIDTH + X_OFFSET) pixels
 * into the VRAM and its lines are VIRT_WIDTH pixels apart, XRES by YRES
 * pixels of BPP bits: a primary's offset in the BAR and its pitch are
 * told in pixels, so both must be whole pixels.
 *
 * Head 0 is the adapter's screen. The adapter has no second one: head 1
 * keeps what the core programs in its registers' stead (as the software
 * GPU's display does), shown on no screen.
 */

#include <linux/io.h>
#include <linux/mutex.h>
#include <linux/pci.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <drm/drm_fourcc.h>

#include "../vseg_hw.h"

#define BOCHS_VENDOR		0x1234
#define BOCHS_DEVICE		0x1111

#define BOCHS_VRAM_BAR		0
#define BOCHS_MMIO_BAR		2
#define BOCHS_MMIO_SIZE		0x1000

/* The DISPI registers in the MMIO BAR. */
#define BOCHS_DISPI		0x500
enum bochs_dispi {
	DISPI_ID,
	DISPI_XRES,
	DISPI_YRES,
	DISPI_BPP,
	DISPI_ENABLE,
	DISPI_BANK,
	DISPI_VIRT_WIDTH,
	DISPI_VIRT_HEIGHT,
	DISPI_X_OFFSET,
	DISPI_Y_OFFSET,
	DISPI_VIDEO_MEMORY_64K,
	DISPI_NUM
};

#define DISPI_ID_FIRST		0xb0c0
#define DISPI_ID_LAST		0xb0cf
#define DISPI_ENABLED		BIT(0)
#define DISPI_LFB_ENABLED	BIT(6)
#define DISPI_NOCLEARMEM	BIT(7)

/* The VBE limits of a mode. */
#define BOCHS_MAX_XRES		16000
#define BOCHS_MAX_YRES		12000

/* QEMU's extension registers. */
#define BOCHS_QEXT		0x600
#define QEXT_SIZE		0x0
#define QEXT_BYTEORDER		0x4
#define QEXT_LITTLE_ENDIAN	0x1e1e1e1e

/* A scanout without a format (the SCANOUT ioctl): this mode. */
#define BOCHS_LEGACY_WIDTH	1024
#define BOCHS_LEGACY_HEIGHT	768

static const char *const dispi_names[DISPI_NUM] = {
	"id", "xres", "yres", "bpp", "enable", "bank", "virt_width",
	"virt_height", "x_offset", "y_offset", "video_memory_64k",
};

/**
 * struct vseg_bochs - the adapter's display controller
 * @display: what the core drives.
 * @pdev: the adapter.
 * @mmio: its MMIO BAR.
 * @vram_size: the bytes of its VRAM BAR.
 * @lock: serializes the register writes.
 * @on: head 1 shows something.
 * @head1: what, when @on.
 * @shown: what head 0 was last told to show: the adapter has no register
 *	for the primary's size, nor for alpha (ARGB8888 scans out as
 *	XRGB8888 at the same 32 bpp), which reading it back takes from here.
 */
struct vseg_bochs {
	struct vseg_hw_display display;
	struct pci_dev *pdev;
	void __iomem *mmio;
	u64 vram_size;
	struct mutex lock; /* see above */
	bool on;
	struct vseg_hw_scanout head1;
	struct vseg_hw_scanout shown;
};

static struct vseg_bochs *to_bochs(struct vseg_hw_display *d)
{
	return d->priv;
}

static u16 dispi_read(struct vseg_bochs *b, enum bochs_dispi reg)
{
	return readw(b->mmio + BOCHS_DISPI + 2 * reg);
}

static void dispi_write(struct vseg_bochs *b, enum bochs_dispi reg, u16 val)
{
	writew(val, b->mmio + BOCHS_DISPI + 2 * reg);
}

/* Bytes per pixel of a format the adapter shows, or 0. */
static u32 format_cpp(u32 format)
{
	switch (format) {
	case DRM_FORMAT_XRGB8888:
	case DRM_FORMAT_ARGB8888:	/* alpha ignored: shown as XRGB8888 */
		return 4;
	case DRM_FORMAT_RGB565:
		return 2;
	default:
		return 0;
	}
}

/*
 * Whether the adapter can show @s whose first pixel is @offset bytes into
 * its VRAM (or into the buffer, when the place is not known yet).
 */
static int bochs_fits(struct vseg_bochs *b, const struct vseg_hw_scanout *s,
		      u64 offset)
{
	u32 cpp = format_cpp(s->format);

	if (!cpp || !s->width || !s->height ||
	    s->width > b->display.max_width ||
	    s->height > b->display.max_height)
		return -EINVAL;
	if (s->pitch % cpp || s->pitch / cpp < s->width ||
	    s->pitch / cpp > U16_MAX || offset % cpp)
		return -EINVAL;
	/* Y_OFFSET is 16 bits; the picture is inside the VRAM. */
	if (div_u64(offset, s->pitch) > U16_MAX ||
	    (u64)s->pitch * s->height > b->vram_size)
		return -EINVAL;
	return 0;
}

static int bochs_check(struct vseg_hw_display *d, u32 head,
		       const struct vseg_hw_scanout *s)
{
	return bochs_fits(to_bochs(d), s, s->address);
}

/* Program the screen: mode, and where the picture starts. */
static void screen_program(struct vseg_bochs *b,
			   const struct vseg_hw_scanout *s, u64 offset)
{
	u32 cpp = format_cpp(s->format);
	u32 virt_width = s->pitch / cpp;
	u32 rem;
	u64 y = div_u64_rem(offset, s->pitch, &rem);
	bool same = (dispi_read(b, DISPI_ENABLE) & DISPI_ENABLED) &&
		    dispi_read(b, DISPI_XRES) == s->width &&
		    dispi_read(b, DISPI_YRES) == s->height &&
		    dispi_read(b, DISPI_BPP) == cpp * 8;

	if (!same) {
		/* A new mode: off while it is set, and the VRAM kept. */
		dispi_write(b, DISPI_ENABLE, 0);
		dispi_write(b, DISPI_BPP, cpp * 8);
		dispi_write(b, DISPI_XRES, s->width);
		dispi_write(b, DISPI_YRES, s->height);
		dispi_write(b, DISPI_BANK, 0);
	}
	/* A flip: only where the picture starts, and its pitch. */
	dispi_write(b, DISPI_VIRT_WIDTH, virt_width);
	dispi_write(b, DISPI_VIRT_HEIGHT,
		    min_t(u64, U16_MAX, div_u64(b->vram_size, s->pitch)));
	dispi_write(b, DISPI_X_OFFSET, rem / cpp);
	dispi_write(b, DISPI_Y_OFFSET, y);
	if (!same)
		dispi_write(b, DISPI_ENABLE, DISPI_ENABLED | DISPI_LFB_ENABLED |
			    DISPI_NOCLEARMEM);
}

static void bochs_set_scanout(struct vseg_hw_display *d, u32 head,
			      const struct vseg_hw_scanout *s)
{
	struct vseg_bochs *b = to_bochs(d);
	struct vseg_hw_scanout mode;
	u64 offset;

	if (head >= VSEG_HW_MAX_HEADS)
		return;
	mutex_lock(&b->lock);
	if (head) {
		b->on = s;
		b->head1 = s ? *s : (struct vseg_hw_scanout){};
		goto out;
	}
	if (!s)
		goto off;
	mode = *s;
	if (!mode.format) {
		mode.width = BOCHS_LEGACY_WIDTH;
		mode.height = BOCHS_LEGACY_HEIGHT;
		mode.pitch = BOCHS_LEGACY_WIDTH * 4;
		mode.format = DRM_FORMAT_XRGB8888;
		if (s->size < (u64)mode.pitch * mode.height)
			goto off;
	}
	offset = s->address - d->bar_base;
	/* The core keeps primaries in the BAR: anything else stays dark. */
	if (s->address < d->bar_base || offset >= d->bar_size ||
	    bochs_fits(b, &mode, offset) ||
	    offset + (u64)mode.pitch * (mode.height - 1) +
	    (u64)mode.width * format_cpp(mode.format) > b->vram_size)
		goto off;
	screen_program(b, &mode, offset);
	b->shown = mode;
	b->shown.size = s->size;
	goto out;
off:
	dispi_write(b, DISPI_ENABLE, 0);
out:
	mutex_unlock(&b->lock);
}

static bool bochs_get_scanout(struct vseg_hw_display *d, u32 head,
			      struct vseg_hw_scanout *s)
{
	struct vseg_bochs *b = to_bochs(d);
	u32 cpp, virt_width;
	bool on;

	if (head >= VSEG_HW_MAX_HEADS)
		return false;
	mutex_lock(&b->lock);
	if (head) {
		on = b->on;
		*s = b->head1;
		goto out;
	}
	/* What the adapter's registers say. */
	memset(s, 0, sizeof(*s));
	on = dispi_read(b, DISPI_ENABLE) & DISPI_ENABLED;
	cpp = dispi_read(b, DISPI_BPP) / 8;
	if (!on || !cpp)
		goto out;
	virt_width = dispi_read(b, DISPI_VIRT_WIDTH);
	s->width = dispi_read(b, DISPI_XRES);
	s->height = dispi_read(b, DISPI_YRES);
	s->pitch = virt_width * cpp;
	s->format = cpp == 2 ? DRM_FORMAT_RGB565 : DRM_FORMAT_XRGB8888;
	s->address = d->bar_base +
		     ((u64)dispi_read(b, DISPI_Y_OFFSET) * virt_width +
		      dispi_read(b, DISPI_X_OFFSET)) * cpp;
	s->size = (u64)s->pitch * s->height;
	/* The size and alpha of what was programmed, if the pixels agree. */
	if (format_cpp(b->shown.format) == cpp) {
		s->format = b->shown.format;
		s->size = b->shown.size;
	}
out:
	mutex_unlock(&b->lock);
	return on;
}

static void bochs_show_regs(struct vseg_hw_display *d, struct seq_file *m)
{
	struct vseg_bochs *b = to_bochs(d);
	u32 i;

	mutex_lock(&b->lock);
	seq_printf(m, "device=%s vram=%llu\n", pci_name(b->pdev),
		   b->vram_size);
	for (i = 0; i < DISPI_NUM; i++)
		seq_printf(m, "dispi_%s=%u\n", dispi_names[i],
			   dispi_read(b, i));
	mutex_unlock(&b->lock);
}

static void bochs_release(struct vseg_hw_display *d)
{
	struct vseg_bochs *b = to_bochs(d);

	pci_iounmap(b->pdev, b->mmio);
	mutex_destroy(&b->lock);
	kfree(b);
}

static const struct vseg_hw_display_ops bochs_ops = {
	.check = bochs_check,
	.set_scanout = bochs_set_scanout,
	.get_scanout = bochs_get_scanout,
	.show_regs = bochs_show_regs,
	.release = bochs_release,
};

/**
 * vseg_bochs_matches() - whether a PCI device is QEMU's Bochs display adapter
 * @pdev: the device
 *
 * Return: true for 1234:1111 (bochs-display, and the standard VGA).
 */
bool vseg_bochs_matches(const struct pci_dev *pdev)
{
	return pdev->vendor == BOCHS_VENDOR && pdev->device == BOCHS_DEVICE;
}

/**
 * vseg_bochs_attach() - make the adapter's display controller the GPU's
 * @hw: the GPU, its own attach function done
 * @pdev: the adapter, enabled
 *
 * Replaces @hw->display. The screen is off until the first scanout; the
 * framebuffer is little endian. Undone by the display's release.
 *
 * Return: 0, -ENODEV if @pdev's BARs or DISPI registers are not the
 * adapter's, or -ENOMEM.
 */
int vseg_bochs_attach(struct vseg_hw *hw, struct pci_dev *pdev)
{
	struct vseg_bochs *b;
	u16 id;

	if (!(pci_resource_flags(pdev, BOCHS_VRAM_BAR) & IORESOURCE_MEM) ||
	    !(pci_resource_flags(pdev, BOCHS_MMIO_BAR) & IORESOURCE_MEM) ||
	    pci_resource_len(pdev, BOCHS_MMIO_BAR) < BOCHS_MMIO_SIZE) {
		pci_err(pdev, "bochs: no VRAM BAR %u or MMIO BAR %u\n",
			BOCHS_VRAM_BAR, BOCHS_MMIO_BAR);
		return -ENODEV;
	}
	b = kzalloc(sizeof(*b), GFP_KERNEL);
	if (!b)
		return -ENOMEM;
	b->mmio = pci_iomap(pdev, BOCHS_MMIO_BAR, BOCHS_MMIO_SIZE);
	if (!b->mmio) {
		kfree(b);
		return -ENOMEM;
	}
	b->pdev = pdev;
	id = dispi_read(b, DISPI_ID);
	if (id < DISPI_ID_FIRST || id > DISPI_ID_LAST) {
		pci_err(pdev, "bochs: DISPI id %#x is not a VBE adapter's\n",
			id);
		pci_iounmap(pdev, b->mmio);
		kfree(b);
		return -ENODEV;
	}
	mutex_init(&b->lock);
	b->vram_size = pci_resource_len(pdev, BOCHS_VRAM_BAR);
	/* A little-endian framebuffer, as DRM's formats are. */
	if (readl(b->mmio + BOCHS_QEXT + QEXT_SIZE) >= QEXT_BYTEORDER + 4)
		writel(QEXT_LITTLE_ENDIAN,
		       b->mmio + BOCHS_QEXT + QEXT_BYTEORDER);
	dispi_write(b, DISPI_ENABLE, 0);

	b->display.ops = &bochs_ops;
	b->display.priv = b;
	b->display.name = "bochs";
	b->display.bar = BOCHS_VRAM_BAR;
	b->display.max_width = BOCHS_MAX_XRES;
	b->display.max_height = BOCHS_MAX_YRES;
	hw->display = &b->display;
	pci_info(pdev, "bochs: DISPI %#x, %llu MiB of VRAM: the display scans out BAR %u\n",
		 id, b->vram_size >> 20, BOCHS_VRAM_BAR);
	return 0;
}
