// SPDX-License-Identifier: GPL-2.0-only
/*
 * Copyright (c) 2026 The vseg authors
 *
 * The software GPU, one implementation of vseg_hw.h: its engines'
 * command execution (vseg_sim_engine.c), its MMU (vseg_sim_mmu.c) and its
 * display controller (vseg_sim_display.c). It reaches memory only through the bus the core
 * hands it at attach.
 */

#include <linux/slab.h>

#include "vseg_sim.h"

static void sim_release(struct vseg_hw *hw)
{
	kfree(hw->priv);
	hw->priv = NULL;
}

static const struct vseg_hw_ops vseg_sim_ops = {
	.run_commands = vseg_sim_run_commands,
	.set_scanout = vseg_sim_set_scanout,
	.get_scanout = vseg_sim_get_scanout,
	.flush_tlb = vseg_sim_flush_tlb,
	.release = sim_release,
};

/**
 * vseg_sim_attach() - make the software GPU the device's hardware
 * @hw: the device's hardware interface
 * @bus: the core's bus, through which alone the software GPU reaches
 *	memory
 *
 * Every head starts off. Undone by @hw->ops->release.
 *
 * Return: 0 or -ENOMEM.
 */
int vseg_sim_attach(struct vseg_hw *hw, struct vseg_hw_bus *bus)
{
	struct vseg_sim *sim = kzalloc(sizeof(*sim), GFP_KERNEL);

	if (!sim)
		return -ENOMEM;
	spin_lock_init(&sim->lock);
	sim->hw = hw;
	hw->priv = sim;
	hw->bus = bus;
	hw->ops = &vseg_sim_ops;
	return 0;
}
