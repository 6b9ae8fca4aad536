// SPDX-License-Identifier: GPL-2.0-only
/*
 * Copyright (c) 2026 The vseg authors
 *
 * The dmem cgroup controller (Documentation/admin-guide/cgroup-v2.rst,
 * "DMEM"): each memory segment is a region, "drm/<device>/seg<id>", whose
 * placements TTM charges to the cgroup of the process that allocates them.
 * TTM enforces dmem.max (an allocation over it evicts within the cgroup, or
 * fails over to the buffer's next placement) and dmem.min and dmem.low (its
 * eviction walk passes over buffers of protected cgroups); a limit set below
 * what a cgroup holds is reclaimed through TTM's own helper. What vseg adds
 * is the budget: a process's Budget and AvailableForReservation in the local
 * group never exceed what its cgroup may still charge there.
 *
 * Only kernels whose TTM takes a region per manager (7.3) have it, and only
 * where the controller is built in (Debian's stock 7.3 builds it out: the
 * region is then NULL and nothing is charged).
 */

#include <linux/seq_file.h>

#include "vseg_budget.h"
#include "vseg_compat.h"
#include "vseg_device_types.h"
#include "vseg_dmem.h"
#include "vseg_vram_mgr.h"

/*
 * How many of @want more bytes the caller's cgroup may charge to @region.
 * dmem gives drivers no reader of a cgroup's limits, only its charge, so
 * the answer is found by charging and at once uncharging: first @want
 * (the common case: no limit in the way), then a binary search down to
 * @grain. A probe shows in dmem.peak only up to what the caller could
 * have allocated anyway.
 */
static u64 dmem_room(struct dmem_cgroup_region *region, u64 want, u64 grain)
{
	struct dmem_cgroup_pool_state *pool;
	u64 lo = 0, hi = want, mid;

	if (vseg_dmem_try_charge(region, want, &pool) == 0) {
		vseg_dmem_uncharge(pool, want);
		return want;
	}
	/* lo fits, hi does not. */
	while (hi - lo > grain) {
		mid = lo + round_down((hi - lo) / 2, grain);
		if (mid == lo)
			break;
		if (vseg_dmem_try_charge(region, mid, &pool) == 0) {
			vseg_dmem_uncharge(pool, mid);
			lo = mid;
		} else {
			hi = mid;
		}
	}
	return lo;
}

/**
 * vseg_dmem_register() - make a memory segment a dmem cgroup region
 * @vdev: the device
 * @mgr: the segment's manager, torn down by a drmm action added before
 *	this one (so the region goes first, its reclaim drained)
 *
 * Return: 0 (also where the controller is built out); a negative error
 * code if the region cannot be registered.
 */
int vseg_dmem_register(struct vseg_device *vdev, struct vseg_vram_mgr *mgr)
{
	struct dmem_cgroup_region *region;
	char name[16];

	snprintf(name, sizeof(name), "seg%u", mgr->desc->id);
	region = vseg_dmem_register_region(&vdev->drm, name, &mgr->manager,
					   mgr->desc->size);
	if (IS_ERR(region))
		return PTR_ERR(region);
	mgr->dmem = region;
	return 0;
}

/**
 * vseg_dmem_budget_query() - a process's budget, bounded by its dmem cgroup
 * @vdev: the device
 * @c: a client of the calling process (the cgroup is the caller's)
 * @group: &enum vseg_budget_group
 * @info: receives the figures (vseg_budget_query()), with Budget and
 *	AvailableForReservation capped at the process's usage plus what its
 *	cgroup may still charge to the group's memory segments
 */
void vseg_dmem_budget_query(struct vseg_device *vdev,
			    struct vseg_limits_client *c, u32 group,
			    struct vseg_budget_info *info)
{
	u64 want, room = 0;
	bool any = false;
	u32 id;

	vseg_budget_query(c, group, info);
	want = max(info->budget, info->available);
	want -= min(want, info->usage);
	for (id = 1; id <= vdev->table.num_segments && want; id++) {
		struct vseg_vram_mgr *mgr;
		u64 r;

		if (!vseg_seg_is_memory(vdev, id) || id >= VSEG_LIMIT_SLOTS ||
		    vdev->limits.seg_group[id] != group)
			continue;
		mgr = vseg_vram(vdev, id);
		if (!mgr->dmem)
			continue;
		any = true;
		r = dmem_room(mgr->dmem, want - room, mgr->desc->page_size);
		room += r;
		if (room >= want)
			break;
	}
	if (any)
		vseg_budget_cap(info, info->usage + room);
}

/**
 * vseg_dmem_show() - debugfs: the device's dmem regions
 * @vdev: the device
 * @m: the file, one "<segment id> <region name>" line per region
 */
void vseg_dmem_show(struct vseg_device *vdev, struct seq_file *m)
{
	u32 id;

	for (id = 1; id <= vdev->table.num_segments; id++)
		if (vseg_seg_is_memory(vdev, id) && vseg_vram(vdev, id)->dmem)
			seq_printf(m, "%u drm/%s/seg%u\n", id, vdev->drm.unique,
				   id);
}
