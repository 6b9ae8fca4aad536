// SPDX-License-Identifier: GPL-2.0-only
/*
 * Copyright (c) 2026 The vseg authors
 *
 * vseg on a PCI device: its parameters, and the BARs of its segment table.
 * Loaded with pci=VVVV:DDDD, the module registers a PCI driver for that
 * vendor and device (vseg_drv.c) instead of creating its virtual platform
 * device; other devices can be handed to it through sysfs (driver_override,
 * or the driver's new_id). Each device it binds becomes a vseg GPU whose
 * segment table may put memory segments on its BARs: a
 * segment on a BAR is that BAR's memory from the given offset on, its
 * CpuTranslatedAddress the BAR's bus address and its CPU-visible part as
 * much of it as the BAR holds; the rest of a larger segment is not
 * CPU-visible (a small BAR). The CPU maps the BAR part at its bus address,
 * write-combined; the engines reach it through a mapping of the BAR
 * (vseg_vram_mgr.c). Without a bar key in the table, the first CPU-visible
 * memory segment of the profile or table is put on BAR pci_bar: by default
 * BAR 2 (ivshmem-plain's memory), or BAR 0 on QEMU's Bochs display
 * adapter (1234:1111), whose VRAM BAR is what its display controller
 * scans out (vseg_bochs.c).
 */

#include <linux/ioport.h>
#include <linux/module.h>
#include <linux/pci.h>
#include <linux/printk.h>

#include "vseg_hw.h"
#include "vseg_pci.h"
#include "vseg_segment.h"

static char *pci;
module_param(pci, charp, 0444);
MODULE_PARM_DESC(pci,
		 "Bind PCI devices VVVV:DDDD (hex vendor:device) instead of the virtual platform device; others through sysfs driver_override or new_id");

static int pci_bar = -1;
module_param(pci_bar, int, 0444);
MODULE_PARM_DESC(pci_bar,
		 "BAR of the first CPU-visible memory segment when the table names none (default -1: 0 on the Bochs display adapter 1234:1111, whose display scans out its BAR 0; 2 elsewhere)");

/* The BAR of the first CPU-visible memory segment without a bar key. */
static unsigned int default_bar(struct pci_dev *pdev)
{
	if (pci_bar >= 0)
		return pci_bar;
	return vseg_bochs_matches(pdev) ? 0 : 2;
}

/**
 * vseg_pci_wanted() - was the module loaded to bind PCI devices
 *
 * Return: true if the pci parameter names a device.
 */
bool vseg_pci_wanted(void)
{
	return pci && *pci;
}

/* The first CPU-visible memory segment, or NULL. */
static struct vseg_segment_desc *pick_segment(struct vseg_segment_table *t)
{
	u32 i;

	for (i = 0; i < t->num_segments; i++) {
		struct vseg_segment_desc *s = &t->seg[i];

		if (s->kind == VSEG_SEGMENT_MEMORY &&
		    (s->flags & VSEG_SEGF_CPU_VISIBLE))
			return s;
	}
	return NULL;
}

/* Put @s on its BAR of @pdev: CPU address and CPU-visible size. */
static int resolve_segment(struct vseg_segment_desc *s, struct pci_dev *pdev)
{
	resource_size_t len = pci_resource_len(pdev, s->bar);
	u64 visible;

	if (!(pci_resource_flags(pdev, s->bar) & IORESOURCE_MEM) || !len) {
		pci_err(pdev, "segment \"%s\": BAR %u is not memory\n",
			s->name, s->bar);
		return -ENODEV;
	}
	if (s->bar_offset >= len || !PAGE_ALIGNED(s->bar_offset)) {
		pci_err(pdev, "segment \"%s\": offset %#llx is not a page of BAR %u (%pa bytes)\n",
			s->name, s->bar_offset, s->bar, &len);
		return -EINVAL;
	}
	/* What the table makes visible, as far as the BAR goes. */
	visible = (s->flags & VSEG_SEGF_CPU_VISIBLE) && s->cpu_visible_size ?
		  s->cpu_visible_size : s->size;
	visible = round_down(min_t(u64, visible, len - s->bar_offset),
			     s->page_size);
	if (!visible) {
		pci_err(pdev, "segment \"%s\": BAR %u has no room for a page\n",
			s->name, s->bar);
		return -EINVAL;
	}
	s->flags |= VSEG_SEGF_CPU_VISIBLE;
	s->cpu_visible_size = visible;
	s->cpu_translated_address = pci_resource_start(pdev, s->bar) +
				    s->bar_offset;
	return 0;
}

/* Do the BAR parts of two segments overlap? */
static bool bar_parts_overlap(const struct vseg_segment_desc *a,
			      const struct vseg_segment_desc *b)
{
	return a->bar == b->bar &&
	       a->bar_offset < b->bar_offset + b->cpu_visible_size &&
	       b->bar_offset < a->bar_offset + a->cpu_visible_size;
}

/**
 * vseg_pci_table_resolve() - put a table's memory segments on BARs
 * @t: the table, parsed or built from a profile, not yet validated
 * @pdev: the PCI device, or NULL for the virtual platform device
 *
 * With no segment naming a BAR, the first CPU-visible memory segment goes
 * on BAR pci_bar (by default 0 on the Bochs display adapter, else 2).
 *
 * Return: 0, -EINVAL if the table names a BAR without a PCI device or a
 * place outside its BAR, -ENODEV if the BAR is not memory.
 */
int vseg_pci_table_resolve(struct vseg_segment_table *t, struct pci_dev *pdev)
{
	struct vseg_segment_desc *s;
	bool named = false;
	unsigned int bar;
	u32 i, j;
	int err;

	for (i = 0; i < t->num_segments; i++) {
		s = &t->seg[i];
		named |= s->on_bar;
		if (s->on_bar && !pdev) {
			pr_err("vseg: invalid segment table: segment %u \"%s\": bar %u without a PCI device (load with pci=VVVV:DDDD)\n",
			       s->id, s->name, s->bar);
			return -EINVAL;
		}
	}
	if (!pdev)
		return 0;
	if (!named) {
		bar = default_bar(pdev);
		s = pick_segment(t);
		if (!s) {
			pci_err(pdev, "no CPU-visible memory segment to put on BAR %u: name one with the table's bar key\n",
				bar);
			return -EINVAL;
		}
		if (bar > VSEG_MAX_BAR) {
			pci_err(pdev, "pci_bar=%u: no such BAR\n", bar);
			return -EINVAL;
		}
		s->on_bar = true;
		s->bar = bar;
		s->bar_offset = 0;
	}
	for (i = 0; i < t->num_segments; i++) {
		s = &t->seg[i];
		if (!s->on_bar)
			continue;
		err = resolve_segment(s, pdev);
		if (err)
			return err;
		for (j = 0; j < i; j++) {
			if (!t->seg[j].on_bar || !bar_parts_overlap(s, &t->seg[j]))
				continue;
			pci_err(pdev, "segments \"%s\" and \"%s\" overlap in BAR %u\n",
				t->seg[j].name, s->name, s->bar);
			return -EINVAL;
		}
	}
	return 0;
}

/**
 * vseg_pci_id() - the PCI device the pci parameter names
 * @id: set to match that vendor and device, any subsystem
 *
 * Return: 0, or -EINVAL if the parameter is not VVVV:DDDD.
 */
int vseg_pci_id(struct pci_device_id *id)
{
	unsigned int vendor, device;
	char end;

	if (sscanf(pci, "%x:%x%c", &vendor, &device, &end) != 2 ||
	    vendor > 0xffff || device > 0xffff || !strchr(pci, ':') ||
	    strlen(pci) > 9) {
		pr_err("vseg: pci=%s: expected VVVV:DDDD (hex vendor:device)\n",
		       pci);
		return -EINVAL;
	}
	id->vendor = vendor;
	id->device = device;
	id->subvendor = PCI_ANY_ID;
	id->subdevice = PCI_ANY_ID;
	return 0;
}
