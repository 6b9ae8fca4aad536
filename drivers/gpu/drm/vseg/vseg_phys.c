// SPDX-License-Identifier: GPL-2.0-only
/*
 * Copyright (c) 2026 The vseg authors
 *
 * The GPU physical address space. As in WDDM, the physical address of
 * (segment, offset) is the segment's BaseAddress plus the offset, for the
 * memory segments and the aperture; the table's rules keep their ranges
 * apart. The physically addressed copy engine resolves an address back to
 * its segment through a small sorted map of those ranges: an address in
 * no segment's range is not memory.
 *
 * System memory (segment 0) has no physical range: the GPU's engines
 * reach it physically only through the aperture, where a buffer's GART
 * entries point at exactly its pages. The bus names a system page by an
 * address with bit 63 set (VSEG_HW_SYSTEM_ADDR(), what a GART entry
 * translates to and what the paging engine's operations name): no
 * segment's range may reach that half of the address space.
 */

#include <linux/errno.h>
#include <linux/limits.h>
#include <linux/math.h>
#include <linux/sizes.h>
#include <drm/drm_print.h>

#include "vseg_device_types.h"
#include "vseg_hw.h"
#include "vseg_phys.h"

/* Do [a, a + alen) and [b, b + blen) intersect? Nonempty, neither wraps. */
static bool ranges_overlap(u64 a, u64 alen, u64 b, u64 blen)
{
	return a <= b + (blen - 1) && b <= a + (alen - 1);
}

/*
 * WDDM ignores the BaseAddress of an Agp aperture and uses the address the
 * bus gives it: the table rules let it overlap other segments. vseg's bus
 * keeps the descriptor's address when it overlaps nothing, else puts the
 * aperture at the first 4 GiB boundary past every other segment. The
 * table then shows the address used, to QUERY_SEGMENTS and debugfs alike.
 */
static int place_agp(struct vseg_device *vdev, struct vseg_segment_desc *ap)
{
	struct vseg_segment_table *t = &vdev->table;
	u64 last = 0, base;
	bool clash = false;
	u32 i;

	for (i = 0; i < t->num_segments; i++) {
		const struct vseg_segment_desc *s = &t->seg[i];

		if (s == ap)
			continue;
		last = max(last, s->base_address + (s->size - 1));
		if (ranges_overlap(s->base_address, s->size,
				   ap->base_address, ap->size))
			clash = true;
	}
	if (!clash)
		return 0;
	base = round_down(last, SZ_4G) + SZ_4G;
	if (!base || ap->size - 1 > U64_MAX - base) {
		drm_err(&vdev->drm, "no room for the Agp aperture in the GPU address space\n");
		return -EINVAL;
	}
	ap->base_address = base;
	drm_info(&vdev->drm, "Agp aperture placed at GPU address %#llx\n",
		 ap->base_address);
	return 0;
}

/**
 * vseg_phys_map_init() - lay out the GPU physical address space
 * @vdev: the device, its table validated
 *
 * Places an Agp aperture that overlaps other segments (see place_agp())
 * and builds the sorted map vseg_phys_resolve() searches.
 *
 * Return: 0, or -EINVAL (one line logged) when a segment's base address
 * is not a multiple of 4 KiB (patched addresses keep the alignment of
 * their offsets) or its range wraps past the end of the 64-bit address
 * space (it may end at 2^64).
 */
int vseg_phys_map_init(struct vseg_device *vdev)
{
	struct vseg_segment_table *t = &vdev->table;
	struct vseg_phys_map *map = &vdev->phys;
	u32 i, j;
	int err;

	for (i = 0; i < t->num_segments; i++) {
		const struct vseg_segment_desc *s = &t->seg[i];

		if (!IS_ALIGNED(s->base_address, SZ_4K)) {
			drm_err(&vdev->drm, "segment %u \"%.*s\": GPU base address %#llx is not 4 KiB aligned\n",
				s->id, VSEG_NAME_LEN, s->name, s->base_address);
			return -EINVAL;
		}
		if (s->size - 1 > U64_MAX - s->base_address) {
			drm_err(&vdev->drm, "segment %u \"%.*s\": GPU range %#llx + %#llx wraps\n",
				s->id, VSEG_NAME_LEN, s->name,
				s->base_address, s->size);
			return -EINVAL;
		}
	}
	for (i = 0; i < t->num_segments; i++) {
		if (t->seg[i].flags & VSEG_SEGF_AGP) {
			err = place_agp(vdev, &t->seg[i]);
			if (err)
				return err;
		}
	}
	for (i = 0; i < t->num_segments; i++) {
		const struct vseg_segment_desc *s = &t->seg[i];

		if (VSEG_HW_IS_SYSTEM(s->base_address + (s->size - 1))) {
			drm_err(&vdev->drm, "segment %u \"%.*s\": GPU range %#llx + %#llx reaches bit 63, the bus's system pages\n",
				s->id, VSEG_NAME_LEN, s->name,
				s->base_address, s->size);
			return -EINVAL;
		}
	}

	map->num = 0;
	for (i = 0; i < t->num_segments; i++) {
		const struct vseg_segment_desc *s = &t->seg[i];
		struct vseg_phys_seg e = {
			.start = s->base_address,
			.last = s->base_address + (s->size - 1),
			.id = s->id,
		};

		/* Insertion sort: seven segments at most. */
		for (j = map->num; j && map->seg[j - 1].start > e.start; j--)
			map->seg[j] = map->seg[j - 1];
		map->seg[j] = e;
		map->num++;
	}
	for (i = 1; i < map->num; i++) {
		if (map->seg[i].start <= map->seg[i - 1].last) {
			drm_err(&vdev->drm, "segments %u and %u overlap in the GPU address space\n",
				map->seg[i - 1].id, map->seg[i].id);
			return -EINVAL;
		}
	}
	return 0;
}

/**
 * vseg_phys_resolve() - the segment and offset of a GPU physical address
 * @vdev: the device
 * @addr: the address
 * @id: receives the segment id
 * @off: receives the offset of @addr in the segment
 *
 * Return: false if @addr lies in no segment (a gap between segments, or
 * past the last one's end): it is not memory.
 */
bool vseg_phys_resolve(const struct vseg_device *vdev, u64 addr, u32 *id,
		       u64 *off)
{
	const struct vseg_phys_map *map = &vdev->phys;
	const struct vseg_phys_seg *r = NULL;
	u32 lo = 0, hi = map->num, mid;

	while (lo < hi) {
		mid = lo + (hi - lo) / 2;
		if (map->seg[mid].start <= addr) {
			r = &map->seg[mid];
			lo = mid + 1;
		} else {
			hi = mid;
		}
	}
	if (!r || addr > r->last)
		return false;
	*id = r->id;
	*off = addr - r->start;
	return true;
}

/**
 * vseg_phys_base() - the GPU physical base address of a segment
 * @vdev: the device
 * @id: a segment id of the table (not 0)
 *
 * Return: the segment's BaseAddress, where its offset 0 is.
 */
u64 vseg_phys_base(const struct vseg_device *vdev, u32 id)
{
	return vdev->table.seg[id - 1].base_address;
}
