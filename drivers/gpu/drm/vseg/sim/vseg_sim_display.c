// SPDX-License-Identifier: GPL-2.0-only
/*
 * Copyright (c) 2026 The vseg authors
 *
 * The software GPU's display controller: per head, the scanout registers
 * the core programs (DxgkDdiSetVidPnSourceAddress): the first pixel's
 * address, the size, and for a KMS plane the width, height, pitch and
 * fourcc; read back as they were written for what the head shows. It
 * reads memory physically, like the engines: any memory segment and the
 * aperture.
 */

#include <linux/spinlock.h>

#include "vseg_sim.h"

/* The largest mode it shows. */
#define VSEG_SIM_DISPLAY_MAX	8192

static void sim_set_scanout(struct vseg_hw_display *d, u32 head,
			    const struct vseg_hw_scanout *s)
{
	struct vseg_sim *sim = d->priv;

	if (head >= VSEG_HW_MAX_HEADS)
		return;
	spin_lock(&sim->lock);
	sim->head[head].on = s;
	sim->head[head].scanout = s ? *s : (struct vseg_hw_scanout){};
	spin_unlock(&sim->lock);
}

static bool sim_get_scanout(struct vseg_hw_display *d, u32 head,
			    struct vseg_hw_scanout *s)
{
	struct vseg_sim *sim = d->priv;
	bool on;

	if (head >= VSEG_HW_MAX_HEADS)
		return false;
	spin_lock(&sim->lock);
	on = sim->head[head].on;
	*s = sim->head[head].scanout;
	spin_unlock(&sim->lock);
	return on;
}

static const struct vseg_hw_display_ops sim_display_ops = {
	.set_scanout = sim_set_scanout,
	.get_scanout = sim_get_scanout,
};

/**
 * vseg_sim_display_init() - the software display controller, every head off
 * @sim: the software GPU, its @hw set
 *
 * Becomes @sim->hw->display.
 */
void vseg_sim_display_init(struct vseg_sim *sim)
{
	struct vseg_hw_display *d = &sim->display;

	d->ops = &sim_display_ops;
	d->priv = sim;
	d->name = "vseg-sim";
	d->bar = VSEG_HW_DISPLAY_ANY_BAR;
	d->max_width = VSEG_SIM_DISPLAY_MAX;
	d->max_height = VSEG_SIM_DISPLAY_MAX;
	sim->hw->display = d;
}
