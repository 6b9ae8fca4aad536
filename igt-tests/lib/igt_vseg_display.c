// SPDX-License-Identifier: MIT
/*
 * The display: SCANOUT and the debugfs file "display".
 *
 * Copyright (c) 2026 The vseg authors
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "igt.h"
#include "igt_vseg.h"

int __vseg_scanout(int fd, uint32_t head, uint32_t handle)
{
	struct drm_vseg_scanout s = { .head = head, .handle = handle };

	return __vseg_ioctl(fd, DRM_IOCTL_VSEG_SCANOUT, &s);
}

void vseg_scanout(int fd, uint32_t head, uint32_t handle)
{
	int err = __vseg_scanout(fd, head, handle);

	igt_assert_f(err == 0, "SCANOUT of handle %u on head %u failed: %d (%s)\n",
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
