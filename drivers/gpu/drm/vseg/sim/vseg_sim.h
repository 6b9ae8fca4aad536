/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Copyright (c) 2026 The vseg authors
 *
 * The software GPU's own state, shared by the files of sim/ alone.
 */
#ifndef __VSEG_SIM_H__
#define __VSEG_SIM_H__

#include <linux/spinlock.h>
#include <linux/types.h>

#include "../vseg_hw.h"

/**
 * struct vseg_sim_head - a display head's scanout registers
 * @on: the head scans out.
 * @scanout: what, when @on.
 */
struct vseg_sim_head {
	bool on;
	struct vseg_hw_scanout scanout;
};

/**
 * struct vseg_sim - the software GPU
 * @hw: the interface it implements.
 * @lock: protects @head (a register write is atomic to its readers).
 * @head: the display controller's heads.
 */
struct vseg_sim {
	struct vseg_hw *hw;
	spinlock_t lock; /* see above */
	struct vseg_sim_head head[VSEG_HW_MAX_HEADS];
};

static inline struct vseg_sim *to_vseg_sim(struct vseg_hw *hw)
{
	return hw->priv;
}

int vseg_sim_run_commands(struct vseg_hw *hw, struct vseg_hw_cmd_job *job);
void vseg_sim_set_scanout(struct vseg_hw *hw, u32 head,
			  const struct vseg_hw_scanout *s);
bool vseg_sim_get_scanout(struct vseg_hw *hw, u32 head,
			  struct vseg_hw_scanout *s);

#endif /* __VSEG_SIM_H__ */
