/* SPDX-License-Identifier: MIT */
/*
 * The display through KMS, and the debugfs file "display".
 *
 * Copyright (c) 2026 The vseg authors
 */
#ifndef IGT_VSEG_DISPLAY_H
#define IGT_VSEG_DISPLAY_H

#include <stdbool.h>
#include <stdint.h>

#include <xf86drmMode.h>

#include "vseg_drm.h"

/*
 * The id of KMS object @obj's (of DRM_MODE_OBJECT_* @type) property
 * @name: 0 if it has none; the second asserts it has one.
 */
uint32_t __vseg_kms_prop_id(int fd, uint32_t obj, uint32_t type,
			    const char *name);
uint32_t vseg_kms_prop_id(int fd, uint32_t obj, uint32_t type,
			  const char *name);
/* The same, asserting, with the property's current value in *@value. */
uint32_t vseg_kms_prop_get(int fd, uint32_t obj, uint32_t type,
			   const char *name, uint64_t *value);
/* Add @obj's property @name = @value to @req (looked up through @fd). */
void vseg_kms_add(drmModeAtomicReqPtr req, int fd, uint32_t obj,
		  uint32_t type, const char *name, uint64_t value);

/*
 * One atomic commit (ALLOW_MODESET, plus @flags) that lights a head:
 * connector @conn on CRTC @crtc with @mode, primary plane @plane showing
 * framebuffer @fb over the whole mode from its first pixel; or, @fb 0,
 * turns the CRTC and the plane off (@mode unused). 0 or -errno.
 */
int __vseg_kms_commit_head(int fd, uint32_t conn, uint32_t crtc,
			   uint32_t plane, const drmModeModeInfo *mode,
			   uint32_t fb, uint32_t flags);

/*
 * Show buffer @handle on @head through KMS (0: turn the head off): an
 * XRGB8888 framebuffer of the buffer (1024 pixels a line, as many lines
 * as fit) on the head's primary plane, its CRTC lit with a mode of the
 * framebuffer's size, in one blocking atomic commit. The framebuffer
 * belongs to @fd (closing @fd turns the head off); the one shown before
 * by @fd on @head is removed. 0 or -errno (-EACCES for a render node or
 * a card fd that is not the DRM master).
 */
int __vseg_display_show(int fd, uint32_t head, uint32_t handle);
void vseg_display_show(int fd, uint32_t head, uint32_t handle);

/**
 * struct vseg_display_head - one line of debugfs "display"
 * @head: head number.
 * @on: a buffer is displayed (bo= is not "-").
 * @buffer_id: the displayed buffer (GEM_INFO buffer_id).
 * @has_segment: segment= is a number (not "-").
 * @segment: where the displayed buffer is.
 * @offset: its offset there.
 * @mapped: aperture= is a range (not "-").
 * @ap_start: aperture range start.
 * @ap_size: aperture range length.
 * @has_scanout: scanout= is a range: the head's scanout registers are
 *	programmed (not "-", and not a firmware line, which has none).
 * @scanout: the GPU physical address they hold.
 * @scanout_size: the size they hold.
 * @kms: kms=1: KMS lights the head (a CRTC's primary plane).
 * @has_format: the registers hold a format (a KMS head): width=, height=,
 *	pitch= and format= are present.
 * @width: pixels per line.
 * @height: lines.
 * @pitch: bytes per line.
 * @format: the DRM fourcc (format= prints its four characters).
 */
struct vseg_display_head {
	uint32_t head;
	bool on;
	uint64_t buffer_id;
	bool has_segment;
	uint32_t segment;
	uint64_t offset;
	bool mapped;
	uint64_t ap_start;
	uint64_t ap_size;
	bool has_scanout;
	uint64_t scanout;
	uint64_t scanout_size;
	bool kms;
	bool has_format;
	uint32_t width;
	uint32_t height;
	uint32_t pitch;
	uint32_t format;
};

/**
 * struct vseg_display - the parsed debugfs "display" file
 * @num_heads: head lines (DRM_VSEG_NUM_HEADS in a well-formed file).
 * @head: the heads, in order.
 */
struct vseg_display {
	unsigned int num_heads;
	struct vseg_display_head head[DRM_VSEG_NUM_HEADS];
};

/* Read and parse "display"; asserts it is well-formed. */
void vseg_debugfs_read_display(int fd, struct vseg_display *d);
void vseg_debugfs_parse_display(const char *text, struct vseg_display *d);

/*
 * Whether the display controller has cursor registers, so that each CRTC
 * has a cursor plane: the software GPU's has them, QEMU's Bochs adapter
 * has not (debugfs display_regs, controller=).
 */
bool vseg_display_has_cursor(int fd);

/**
 * struct vseg_display_cursor - a head's cursor registers, as the software
 *	display controller prints them (debugfs display_regs, headN_cursor=)
 * @address: the image's GPU physical address.
 * @width: its width.
 * @height: its height.
 * @pitch: its pitch.
 * @x: where its top left pixel goes (may be negative).
 * @y: the same, in lines.
 * @opaque: blend=none (alpha ignored); premultiplied "over" otherwise.
 */
struct vseg_display_cursor {
	uint64_t address;
	uint32_t width;
	uint32_t height;
	uint32_t pitch;
	int32_t x;
	int32_t y;
	bool opaque;
};

/*
 * Head @head's cursor registers into @c: false if the cursor is off.
 * Asserts the line is there and well-formed.
 */
bool vseg_display_read_cursor(int fd, uint32_t head,
			      struct vseg_display_cursor *c);

#endif /* IGT_VSEG_DISPLAY_H */
