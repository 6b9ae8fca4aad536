// SPDX-License-Identifier: GPL-2.0-only
/*
 * Copyright (c) 2026 The vseg authors
 *
 * The bus the core hands the hardware (vseg_hw.h): GPU physical addresses
 * read, written and mapped as the software GPU reaches them. An address
 * resolves to its segment by the segments' GPU address ranges
 * (vseg_phys.c); a memory segment's offset to its backing store (system
 * pages, or a BAR: vseg_vram_mgr.c), an aperture offset through the
 * GART's entry to a system page (vseg_gart.c); an address of the system
 * class (VSEG_HW_SYSTEM_ADDR(), named by page-table entries) to its system
 * page directly. The bus allocates nothing:
 * memory segments were backed for the jobs that reach them when the jobs
 * were queued.
 */

#include <linux/highmem.h>
#include <linux/minmax.h>
#include <linux/string.h>
#include <drm/drm_managed.h>

#include "vseg_bus.h"
#include "vseg_device_types.h"
#include "vseg_gart.h"
#include "vseg_hw.h"
#include "vseg_phys.h"
#include "vseg_vram_mgr.h"

static struct vseg_device *bus_to_vseg(struct vseg_hw_bus *bus)
{
	return container_of(bus, struct vseg_device, bus);
}

static void bus_hold(struct vseg_hw_bus *bus)
{
	vseg_gart_lock(&bus_to_vseg(bus)->aperture.gart);
}

static void bus_release(struct vseg_hw_bus *bus)
{
	vseg_gart_unlock(&bus_to_vseg(bus)->aperture.gart);
}

/* The caller holds the bus for an aperture address: its page cannot go. */
static void *bus_map(struct vseg_hw_bus *bus, u64 addr, u64 *len, bool write,
		     struct vseg_hw_mapping *m)
{
	struct vseg_device *vdev = bus_to_vseg(bus);
	struct vseg_vram_mgr *mgr;
	phys_addr_t phys;
	u64 off;
	u32 id;

	m->kmapped = NULL;
	if (VSEG_HW_IS_SYSTEM(addr)) {
		/* Only page tables name system pages, and the core writes them. */
		phys = VSEG_HW_SYSTEM_PHYS(addr);
		if (!pfn_valid(PHYS_PFN(phys)))
			return NULL;
		goto system_page;
	}
	if (!vseg_phys_resolve(vdev, addr, &id, &off))
		return NULL;
	if (vseg_seg_is_memory(vdev, id)) {
		mgr = vseg_vram(vdev, id);
		if (off >= mgr->desc->size)
			return NULL;
		if (write)
			return vseg_vram_map_populated(mgr, off, len,
						       &m->kmapped);
		return vseg_vram_map(mgr, off, len, false, &m->kmapped);
	}
	if (vseg_gart_translate_locked(&vdev->aperture.gart, off, &phys))
		return NULL;
system_page:
	m->kmapped = kmap_local_page(pfn_to_page(PHYS_PFN(phys)));
	*len = PAGE_SIZE - offset_in_page(phys);
	return m->kmapped + offset_in_page(phys);
}

static void bus_unmap(struct vseg_hw_bus *bus, struct vseg_hw_mapping *m)
{
	if (m->kmapped)
		kunmap_local(m->kmapped);
	m->kmapped = NULL;
}

/* Copy between @buf and the bus, a host page at a time, holding the bus. */
static int bus_access(struct vseg_hw_bus *bus, u64 addr, void *buf, u64 len,
		      bool write)
{
	struct vseg_hw_mapping m;
	int err = 0;
	u64 n;
	void *p;

	bus_hold(bus);
	while (len) {
		p = bus_map(bus, addr, &n, write, &m);
		if (!p) {
			err = -EFAULT;
			break;
		}
		n = min(n, len);
		if (write)
			memcpy(p, buf, n);
		else
			memcpy(buf, p, n);
		bus_unmap(bus, &m);
		buf += n;
		addr += n;
		len -= n;
	}
	bus_release(bus);
	return err;
}

static int bus_read(struct vseg_hw_bus *bus, u64 addr, void *buf, u64 len)
{
	return bus_access(bus, addr, buf, len, false);
}

static int bus_write(struct vseg_hw_bus *bus, u64 addr, const void *buf,
		     u64 len)
{
	return bus_access(bus, addr, (void *)buf, len, true);
}

static const struct vseg_hw_bus_ops vseg_bus_ops = {
	.hold = bus_hold,
	.release = bus_release,
	.map = bus_map,
	.unmap = bus_unmap,
	.read = bus_read,
	.write = bus_write,
};

static void hw_release(struct drm_device *drm, void *arg)
{
	struct vseg_hw *hw = arg;

	hw->ops->release(hw);
}

/**
 * vseg_bus_init() - set up the device's bus and attach its GPU to it
 * @vdev: the device, its segments and GART set up (vseg_ttm_init())
 *
 * The GPU is released with the DRM device (drmm), after everything set
 * up later.
 *
 * Return: 0 or -ENOMEM.
 */
int vseg_bus_init(struct vseg_device *vdev)
{
	int err;

	vdev->bus.ops = &vseg_bus_ops;
	err = vseg_sim_attach(&vdev->hw, &vdev->bus);
	if (err)
		return err;
	return drmm_add_action_or_reset(&vdev->drm, hw_release, &vdev->hw);
}
