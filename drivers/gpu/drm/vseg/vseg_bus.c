// SPDX-License-Identifier: GPL-2.0-only
/*
 * Copyright (c) 2026 The vseg authors
 *
 * The bus the core hands the hardware (vseg_hw.h): GPU physical addresses
 * read, written and mapped as the software GPU reaches them. An address
 * resolves to its segment by the segments' GPU address ranges
 * (vseg_phys.c); a memory segment's offset to its backing store (system
 * pages, or a BAR: vseg_vram_mgr.c). An address of the system class
 * (VSEG_HW_SYSTEM_ADDR()) is a system page's byte. The aperture is not
 * the bus's: the GPU translates its addresses through its own GART into
 * system addresses. The bus allocates nothing and takes no lock: memory
 * segments were backed for the jobs that reach them when the jobs were
 * queued.
 */

#include <linux/highmem.h>
#include <linux/minmax.h>
#include <linux/pci.h>
#include <linux/sched.h>
#include <linux/string.h>
#include <drm/drm_managed.h>

#include "vseg_bus.h"
#include "vseg_device_types.h"
#include "vseg_hw.h"
#include "vseg_phys.h"
#include "vseg_vram_mgr.h"

static struct vseg_device *bus_to_vseg(struct vseg_hw_bus *bus)
{
	return container_of(bus, struct vseg_device, bus);
}

/* The memory segment manager of a GPU physical address, and its offset. */
static struct vseg_vram_mgr *bus_segment(struct vseg_device *vdev, u64 addr,
					 u64 *off)
{
	struct vseg_vram_mgr *mgr;
	u32 id;

	if (VSEG_HW_IS_SYSTEM(addr) || !vseg_phys_resolve(vdev, addr, &id, off) ||
	    !vseg_seg_is_memory(vdev, id))
		return NULL;
	mgr = vseg_vram(vdev, id);
	return *off < mgr->desc->size ? mgr : NULL;
}

/*
 * A system page's byte: the entry or operation that names it keeps the
 * page, so it stays as long as the mapping (one step of a command).
 */
static void *bus_map(struct vseg_hw_bus *bus, u64 addr, u64 *len, bool write,
		     struct vseg_hw_mapping *m)
{
	struct vseg_device *vdev = bus_to_vseg(bus);
	struct vseg_vram_mgr *mgr;
	phys_addr_t phys;
	u64 off;

	m->kmapped = NULL;
	if (VSEG_HW_IS_SYSTEM(addr)) {
		phys = VSEG_HW_SYSTEM_PHYS(addr);
		if (!pfn_valid(PHYS_PFN(phys)))
			return NULL;
		m->kmapped = kmap_local_page(pfn_to_page(PHYS_PFN(phys)));
		*len = PAGE_SIZE - offset_in_page(phys);
		return m->kmapped + offset_in_page(phys);
	}
	mgr = bus_segment(vdev, addr, &off);
	if (!mgr)
		return NULL;
	if (write)
		return vseg_vram_map_populated(mgr, off, len, &m->kmapped);
	return vseg_vram_map(mgr, off, len, false, &m->kmapped);
}

static void bus_unmap(struct vseg_hw_bus *bus, struct vseg_hw_mapping *m)
{
	if (m->kmapped)
		kunmap_local(m->kmapped);
	m->kmapped = NULL;
}

/* Copy between @buf and the bus, a host page at a time. */
static int bus_access(struct vseg_hw_bus *bus, u64 addr, void *buf, u64 len,
		      bool write)
{
	struct vseg_hw_mapping m;
	int err = 0;
	u64 n;
	void *p;

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

/* The page frame behind a memory segment's page, for a CPU host aperture. */
static unsigned long bus_pfn(struct vseg_hw_bus *bus, u64 addr)
{
	struct vseg_vram_mgr *mgr;
	u64 off;

	mgr = bus_segment(bus_to_vseg(bus), addr, &off);
	if (!mgr || !PAGE_ALIGNED(off))
		return 0;
	return vseg_vram_pfn(mgr, off);
}

/*
 * Zeroes. Whole pages of a memory segment are cleared a backing table at
 * a time (absent pages read zero already and stay absent); the rest is
 * written a page at a time, pages that nothing backs skipped.
 */
static int bus_zero(struct vseg_hw_bus *bus, u64 addr, u64 len)
{
	struct vseg_device *vdev = bus_to_vseg(bus);
	struct vseg_hw_mapping m;
	struct vseg_vram_mgr *mgr;
	u64 off, n;
	void *p;

	mgr = bus_segment(vdev, addr, &off);
	if (mgr && PAGE_ALIGNED(off) && PAGE_ALIGNED(len) &&
	    len <= mgr->desc->size - off) {
		vseg_vram_clear(mgr, off, len);
		return 0;
	}
	while (len) {
		p = bus_map(bus, addr, &n, true, &m);
		if (!p) {
			/* Not backed: it reads zero, if it is memory at all. */
			if (!bus_segment(vdev, addr, &off))
				return -EFAULT;
			n = PAGE_SIZE - offset_in_page(off);
		}
		n = min(n, len);
		if (p) {
			memset(p, 0, n);
			bus_unmap(bus, &m);
		}
		addr += n;
		len -= n;
		cond_resched();
	}
	return 0;
}

static const struct vseg_hw_bus_ops vseg_bus_ops = {
	.map = bus_map,
	.unmap = bus_unmap,
	.read = bus_read,
	.write = bus_write,
	.pfn = bus_pfn,
	.zero = bus_zero,
};

static void hw_release(struct drm_device *drm, void *arg)
{
	struct vseg_hw *hw = arg;

	if (hw->display->ops->release)
		hw->display->ops->release(hw->display);
	hw->ops->release(hw);
}

/**
 * vseg_bus_init() - set up the device's bus and attach its GPU to it
 * @vdev: the device, its segment table and GPU address space laid out
 *	(vseg_phys_map_init())
 *
 * Before the memory managers (vseg_ttm_init()), which program the
 * GPU's GART. The GPU is released with the DRM device (drmm), after
 * everything set up later. The software GPU is the GPU; on QEMU's Bochs
 * display adapter (PCI 1234:1111) the adapter's display controller
 * replaces the software one (vseg_bochs_attach()).
 *
 * Return: 0, -ENOMEM, or -ENODEV for an adapter that is not one.
 */
int vseg_bus_init(struct vseg_device *vdev)
{
	struct device *dev = vdev->drm.dev;
	int err;

	vdev->bus.ops = &vseg_bus_ops;
	err = vseg_sim_attach(&vdev->hw, &vdev->bus);
	if (err)
		return err;
	err = drmm_add_action_or_reset(&vdev->drm, hw_release, &vdev->hw);
	if (err)
		return err;
	if (dev_is_pci(dev) && vseg_bochs_matches(to_pci_dev(dev)))
		err = vseg_bochs_attach(&vdev->hw, to_pci_dev(dev));
	return err;
}
