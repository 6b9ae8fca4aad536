// SPDX-License-Identifier: GPL-2.0-only
/*
 * Copyright (c) 2026 The vseg authors
 *
 * The software GPU's CPU host aperture windows (DXGK_CPUHOSTAPERTURE):
 * per window, slots the core programs with the GPU physical address of a
 * page of a memory segment the CPU cannot see. A real GPU's window is a
 * range of a BAR whose pages show whatever page their slot points at; the
 * software GPU has no such BAR, and shows a slot's page by handing out
 * the page frame the bus reaches the programmed address through.
 */

#include <linux/errno.h>
#include <linux/mm.h>
#include <linux/mutex.h>
#include <linux/slab.h>

#include "vseg_sim.h"

/**
 * vseg_sim_host_aperture_setup() - size a window
 * @hw: the software GPU
 * @window: the window
 * @num_slots: its slots, 0 to remove it
 *
 * Return: 0, -EINVAL for no such window, -ENOMEM (the window is left as
 * it was).
 */
int vseg_sim_host_aperture_setup(struct vseg_hw *hw, u32 window,
				 u32 num_slots)
{
	struct vseg_sim *sim = to_vseg_sim(hw);
	u64 *slot = NULL, *old;
	u32 i;

	if (window >= VSEG_HW_MAX_WINDOWS)
		return -EINVAL;
	if (num_slots) {
		slot = kvmalloc_array(num_slots, sizeof(*slot),
				      GFP_KERNEL | __GFP_NOWARN);
		if (!slot)
			return -ENOMEM;
		for (i = 0; i < num_slots; i++)
			slot[i] = VSEG_HW_SLOT_CLEAR;
	}
	mutex_lock(&sim->window_lock);
	old = sim->window[window].slot;
	sim->window[window].slot = slot;
	sim->window[window].num = num_slots;
	mutex_unlock(&sim->window_lock);
	kvfree(old);
	return 0;
}

/**
 * vseg_sim_host_slot_set() - program a slot of a window
 * @hw: the software GPU
 * @window: the window
 * @slot: the slot
 * @addr: GPU physical address of the page it shows, page aligned, or
 *	%VSEG_HW_SLOT_CLEAR
 *
 * Return: the page frame of the slot's page of the window, or 0 (cleared,
 * no such slot, or an address the bus does not reach; the slot is left
 * clear).
 */
unsigned long vseg_sim_host_slot_set(struct vseg_hw *hw, u32 window, u32 slot,
				     u64 addr)
{
	struct vseg_sim *sim = to_vseg_sim(hw);
	struct vseg_sim_window *w;
	unsigned long pfn = 0;

	if (window >= VSEG_HW_MAX_WINDOWS)
		return 0;
	mutex_lock(&sim->window_lock);
	w = &sim->window[window];
	if (slot < w->num) {
		if (addr != VSEG_HW_SLOT_CLEAR && PAGE_ALIGNED(addr) &&
		    !VSEG_HW_IS_SYSTEM(addr))
			pfn = hw->bus->ops->pfn(hw->bus, addr);
		w->slot[slot] = pfn ? addr : VSEG_HW_SLOT_CLEAR;
	}
	mutex_unlock(&sim->window_lock);
	return pfn;
}

/**
 * vseg_sim_host_aperture_fini() - free every window
 * @sim: the software GPU
 */
void vseg_sim_host_aperture_fini(struct vseg_sim *sim)
{
	u32 i;

	for (i = 0; i < VSEG_HW_MAX_WINDOWS; i++) {
		kvfree(sim->window[i].slot);
		sim->window[i].slot = NULL;
		sim->window[i].num = 0;
	}
	mutex_destroy(&sim->window_lock);
}
