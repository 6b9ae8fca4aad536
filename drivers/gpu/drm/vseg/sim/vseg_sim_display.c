// SPDX-License-Identifier: GPL-2.0-only
/*
 * Copyright (c) 2026 The vseg authors
 *
 * The software GPU's display controller: per head, the scanout registers
 * the core programs (DxgkDdiSetVidPnSourceAddress): the first pixel's
 * address, the size, and for a KMS plane the width, height, pitch and
 * fourcc; read back as they were written for what the head shows.
 */

#include <linux/spinlock.h>

#include "vseg_sim.h"

/**
 * vseg_sim_set_scanout() - program a head's scanout registers
 * @hw: the software GPU
 * @head: the head
 * @s: what it scans out, or NULL to turn it off
 */
void vseg_sim_set_scanout(struct vseg_hw *hw, u32 head,
			  const struct vseg_hw_scanout *s)
{
	struct vseg_sim *sim = to_vseg_sim(hw);

	if (head >= VSEG_HW_MAX_HEADS)
		return;
	spin_lock(&sim->lock);
	sim->head[head].on = s;
	sim->head[head].scanout = s ? *s : (struct vseg_hw_scanout){};
	spin_unlock(&sim->lock);
}

/**
 * vseg_sim_get_scanout() - read a head's scanout registers
 * @hw: the software GPU
 * @head: the head
 * @s: receives what it scans out
 *
 * Return: false if the head is off (or no such head).
 */
bool vseg_sim_get_scanout(struct vseg_hw *hw, u32 head,
			  struct vseg_hw_scanout *s)
{
	struct vseg_sim *sim = to_vseg_sim(hw);
	bool on;

	if (head >= VSEG_HW_MAX_HEADS)
		return false;
	spin_lock(&sim->lock);
	on = sim->head[head].on;
	*s = sim->head[head].scanout;
	spin_unlock(&sim->lock);
	return on;
}
