// SPDX-License-Identifier: GPL-2.0-only
/*
 * Copyright (c) 2026 The vseg authors
 *
 * The software GPU's display controller: per head, the scanout registers
 * the core programs (DxgkDdiSetVidPnSourceAddress): the first pixel's
 * address, the size, and for a KMS plane the width, height, pitch and
 * fourcc; read back as they were written for what the head shows. Per
 * head a cursor too (DxgkDdiSetPointerShape, DxgkDdiSetPointerPosition):
 * an ARGB8888 image of up to 64x64 at a position that may be partly off
 * the picture. It reads memory physically, like the engines: any memory
 * segment and the aperture. Its CRC generator reads the pixels a head
 * shows through the bus, as the head scans them out, the cursor composed
 * over the primary, for the CRC of each frame (IGT's CRC tests).
 */

#include <linux/crc32.h>
#include <linux/mm.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <linux/spinlock.h>

#include <drm/drm_fourcc.h>

#include "vseg_sim.h"

/* The largest mode it shows. */
#define VSEG_SIM_DISPLAY_MAX	8192

static void sim_set_scanout(struct vseg_hw_display *d, u32 head,
			    const struct vseg_hw_scanout *s)
{
	struct vseg_sim *sim = d->priv;

	if (head >= VSEG_HW_MAX_HEADS)
		return;
	spin_lock(&sim->lock);
	sim->head[head].on = s;
	sim->head[head].scanout = s ? *s : (struct vseg_hw_scanout){};
	spin_unlock(&sim->lock);
}

static bool sim_get_scanout(struct vseg_hw_display *d, u32 head,
			    struct vseg_hw_scanout *s)
{
	struct vseg_sim *sim = d->priv;
	bool on;

	if (head >= VSEG_HW_MAX_HEADS)
		return false;
	spin_lock(&sim->lock);
	on = sim->head[head].on;
	*s = sim->head[head].scanout;
	spin_unlock(&sim->lock);
	return on;
}

static void sim_set_cursor(struct vseg_hw_display *d, u32 head,
			   const struct vseg_hw_cursor *c)
{
	struct vseg_sim *sim = d->priv;

	if (head >= VSEG_HW_MAX_HEADS)
		return;
	spin_lock(&sim->lock);
	sim->head[head].cursor_on = c;
	sim->head[head].cursor = c ? *c : (struct vseg_hw_cursor){};
	spin_unlock(&sim->lock);
}

static bool sim_get_cursor(struct vseg_hw_display *d, u32 head,
			   struct vseg_hw_cursor *c)
{
	struct vseg_sim *sim = d->priv;
	bool on;

	if (head >= VSEG_HW_MAX_HEADS)
		return false;
	spin_lock(&sim->lock);
	on = sim->head[head].cursor_on;
	*c = sim->head[head].cursor;
	spin_unlock(&sim->lock);
	return on;
}

/* Each head's cursor registers, for debugfs (&vseg_hw_display_ops.show_regs). */
static void sim_show_regs(struct vseg_hw_display *d, struct seq_file *m)
{
	struct vseg_hw_cursor c;
	u32 i;

	for (i = 0; i < VSEG_HW_MAX_HEADS; i++) {
		if (!sim_get_cursor(d, i, &c)) {
			seq_printf(m, "head%u_cursor=-\n", i);
			continue;
		}
		seq_printf(m, "head%u_cursor=0x%llx+0x%llx width=%u height=%u pitch=%u x=%d y=%d blend=%s\n",
			   i, c.address, c.size, c.width, c.height, c.pitch,
			   c.x, c.y,
			   c.blend == VSEG_HW_CURSOR_OPAQUE ? "none" : "premulti");
	}
}

/*
 * Read @len bytes at GPU physical address @addr as the display controller
 * does: physically, the aperture's through the GART, a host page at a
 * time with the GART's lock held (an entry cleared waits for the read).
 */
static int scanout_read(struct vseg_sim *sim, u64 addr, void *buf, u64 len)
{
	struct vseg_hw_bus *bus = sim->hw->bus;
	struct vseg_hw_mapping m;
	u64 n;
	void *p;

	while (len) {
		mutex_lock(&sim->gart.lock);
		p = vseg_sim_gart_map(sim, addr, &n, false, &m);
		if (p) {
			n = min(n, len);
			memcpy(buf, p, n);
		}
		bus->ops->unmap(bus, &m);
		mutex_unlock(&sim->gart.lock);
		if (!p)
			return -EFAULT;
		addr += n;
		buf += n;
		len -= n;
	}
	return 0;
}

/* Widen one line of @width pixels of @format in @line, in place, to XRGB. */
static void scanout_widen(void *line, u32 width, u32 format)
{
	__le32 *px = line;
	const __le16 *p16 = line;
	u32 i, v, r, g, b;

	if (format != DRM_FORMAT_RGB565) {
		for (i = 0; i < width; i++)
			px[i] = cpu_to_le32(le32_to_cpu(px[i]) & 0xffffff);
		return;
	}
	/* Back to front: each 2-byte pixel widens into 4 bytes. */
	for (i = width; i-- > 0;) {
		v = le16_to_cpu(p16[i]);
		r = (v >> 11) & 0x1f;
		g = (v >> 5) & 0x3f;
		b = v & 0x1f;
		r = (r << 3) | (r >> 2);
		g = (g << 2) | (g >> 4);
		b = (b << 3) | (b >> 2);
		px[i] = cpu_to_le32(r << 16 | g << 8 | b);
	}
}

/*
 * One channel of premultiplied "over": @fg + @bg * (255 - @alpha) / 255,
 * rounded to the nearest (255 is odd: never a tie), 255 at most.
 */
static u32 over_channel(u32 fg, u32 bg, u32 alpha)
{
	return min(fg + (bg * (255 - alpha) + 127) / 255, 255u);
}

/* ARGB8888 @fg over XRGB8888 @bg, as @blend says: XRGB8888, X zero. */
static u32 cursor_over(u32 fg, u32 bg, u32 blend)
{
	u32 a = fg >> 24, out = 0;
	int shift;

	if (blend == VSEG_HW_CURSOR_OPAQUE)
		return fg & 0xffffff;
	for (shift = 0; shift < 24; shift += 8)
		out |= over_channel((fg >> shift) & 0xff, (bg >> shift) & 0xff,
				    a) << shift;
	return out;
}

/*
 * Read a cursor's image (ARGB8888, its lines packed) into @img: 0, or
 * -EFAULT if the registers point outside what they say is readable or the
 * bus does not reach a pixel.
 */
static int cursor_read(struct vseg_sim *sim, const struct vseg_hw_cursor *c,
		       __le32 *img)
{
	u32 y;
	int err;

	if (!c->width || !c->height || c->width > VSEG_HW_CURSOR_MAX ||
	    c->height > VSEG_HW_CURSOR_MAX ||
	    (u64)c->pitch * (c->height - 1) + (u64)c->width * 4 > c->size)
		return -EFAULT;
	for (y = 0; y < c->height; y++) {
		err = scanout_read(sim, c->address + (u64)y * c->pitch,
				   img + y * c->width, (u64)c->width * 4);
		if (err)
			return err;
	}
	return 0;
}

/* Compose line @y of the picture, @width pixels in @line, with the cursor. */
static void cursor_compose(const struct vseg_hw_cursor *c, const __le32 *img,
			   __le32 *line, u32 y, u32 width)
{
	s64 cy = (s64)y - c->y;
	s64 x0 = max_t(s64, c->x, 0);
	s64 x1 = min_t(s64, (s64)c->x + c->width, width);
	const __le32 *src;
	s64 x;

	if (cy < 0 || cy >= c->height)
		return;
	src = img + cy * c->width;
	for (x = x0; x < x1; x++)
		line[x] = cpu_to_le32(cursor_over(le32_to_cpu(src[x - c->x]),
						  le32_to_cpu(line[x]),
						  c->blend));
}

/* The CRC of what a head shows (&vseg_hw_display_ops.scanout_crc). */
static int sim_scanout_crc(struct vseg_hw_display *d, u32 head, u32 *crc)
{
	struct vseg_sim *sim = d->priv;
	struct vseg_hw_scanout s;
	struct vseg_hw_cursor cur;
	__le32 *img = NULL;
	u32 cpp, y, c = 0;
	bool cursor;
	void *line;
	int err = 0;

	if (!sim_get_scanout(d, head, &s) || !s.width || !s.height)
		return -ENOENT;
	cursor = sim_get_cursor(d, head, &cur);
	switch (s.format) {
	case DRM_FORMAT_XRGB8888:
	case DRM_FORMAT_ARGB8888:
		cpp = 4;
		break;
	case DRM_FORMAT_RGB565:
		cpp = 2;
		break;
	default:
		return -ENOENT;
	}
	/* Registers a plane check let through: the picture lies in @size. */
	if ((u64)s.pitch * (s.height - 1) + (u64)s.width * cpp > s.size)
		return -EFAULT;
	line = kvmalloc_array(s.width, sizeof(u32), GFP_KERNEL);
	if (!line)
		return -ENOMEM;
	if (cursor) {
		img = kvmalloc_array(VSEG_HW_CURSOR_MAX * VSEG_HW_CURSOR_MAX,
				     sizeof(*img), GFP_KERNEL);
		err = img ? cursor_read(sim, &cur, img) : -ENOMEM;
	}
	for (y = 0; !err && y < s.height; y++) {
		err = scanout_read(sim, s.address + (u64)y * s.pitch, line,
				   (u64)s.width * cpp);
		if (err)
			break;
		scanout_widen(line, s.width, s.format);
		if (cursor)
			cursor_compose(&cur, img, line, y, s.width);
		c = crc32_le(c, line, s.width * sizeof(u32));
		cond_resched();
	}
	kvfree(img);
	kvfree(line);
	if (!err)
		*crc = c;
	return err;
}

static const struct vseg_hw_display_ops sim_display_ops = {
	.set_scanout = sim_set_scanout,
	.get_scanout = sim_get_scanout,
	.scanout_crc = sim_scanout_crc,
	.set_cursor = sim_set_cursor,
	.get_cursor = sim_get_cursor,
	.show_regs = sim_show_regs,
};

/**
 * vseg_sim_display_init() - the software display controller, every head off
 * @sim: the software GPU, its @hw set
 *
 * Becomes @sim->hw->display.
 */
void vseg_sim_display_init(struct vseg_sim *sim)
{
	struct vseg_hw_display *d = &sim->display;

	d->ops = &sim_display_ops;
	d->priv = sim;
	d->name = "vseg-sim";
	d->bar = VSEG_HW_DISPLAY_ANY_BAR;
	d->max_width = VSEG_SIM_DISPLAY_MAX;
	d->max_height = VSEG_SIM_DISPLAY_MAX;
	sim->hw->display = d;
}
