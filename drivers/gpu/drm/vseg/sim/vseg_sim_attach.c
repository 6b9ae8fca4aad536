// SPDX-License-Identifier: GPL-2.0-only
/*
 * Copyright (c) 2026 The vseg authors
 *
 * The software GPU, one implementation of vseg_hw.h: its engines'
 * command execution (vseg_sim_engine.c), its paging engine
 * (vseg_sim_paging.c), its GART (vseg_sim_gart.c), its MMU
 * (vseg_sim_mmu.c), its CPU host aperture windows
 * (vseg_sim_host_aperture.c) and its display controller
 * (vseg_sim_display.c). It reaches memory only through the bus the core
 * hands it at attach.
 */

#include <kunit/visibility.h>
#include <linux/slab.h>
#include <linux/string.h>

#include "vseg_sim.h"

static void sim_release(struct vseg_hw *hw)
{
	struct vseg_sim *sim = to_vseg_sim(hw);

	vseg_sim_gart_fini(sim);
	vseg_sim_host_aperture_fini(sim);
	memzero_explicit(&sim->paging, sizeof(sim->paging));
	kfree(sim);
	hw->priv = NULL;
}

static const struct vseg_hw_ops vseg_sim_ops = {
	.run_commands = vseg_sim_run_commands,
	.run_paging = vseg_sim_run_paging,
	.set_vpr_key = vseg_sim_set_vpr_key,
	.gart_setup = vseg_sim_gart_setup,
	.gart_write = vseg_sim_gart_write,
	.gart_clear = vseg_sim_gart_clear,
	.gart_read = vseg_sim_gart_read,
	.host_aperture_setup = vseg_sim_host_aperture_setup,
	.host_slot_set = vseg_sim_host_slot_set,
	.set_scanout = vseg_sim_set_scanout,
	.get_scanout = vseg_sim_get_scanout,
	.scanout_crc = vseg_sim_scanout_crc,
	.flush_tlb = vseg_sim_flush_tlb,
	.set_paging_root = vseg_sim_set_paging_root,
	.release = sim_release,
};

/**
 * vseg_sim_attach() - make the software GPU the device's hardware
 * @hw: the device's hardware interface
 * @bus: the core's bus, through which alone the software GPU reaches
 *	memory
 *
 * Every head starts off; the GART has no entries until gart_setup.
 * Undone by @hw->ops->release.
 *
 * Return: 0 or -ENOMEM.
 */
int vseg_sim_attach(struct vseg_hw *hw, struct vseg_hw_bus *bus)
{
	struct vseg_sim *sim = kzalloc(sizeof(*sim), GFP_KERNEL);

	if (!sim)
		return -ENOMEM;
	spin_lock_init(&sim->lock);
	vseg_sim_gart_init(sim);
	mutex_init(&sim->window_lock);
	sim->hw = hw;
	hw->priv = sim;
	hw->bus = bus;
	hw->ops = &vseg_sim_ops;
	return 0;
}
EXPORT_SYMBOL_IF_KUNIT(vseg_sim_attach);
