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

/* Leaf entries the MMU's TLB caches (direct-mapped by page number). */
#define VSEG_SIM_TLB_ENTRIES	32

/**
 * struct vseg_sim_tlb_entry - a leaf entry the MMU cached
 * @valid: the slot holds one.
 * @root: the root page table it was found under.
 * @vpn: the 4 KiB page of VA it translates.
 * @pte: the entry.
 */
struct vseg_sim_tlb_entry {
	bool valid;
	u64 root;
	u64 vpn;
	u64 pte;
};

/**
 * struct vseg_sim - the software GPU
 * @hw: the interface it implements.
 * @lock: protects @head (a register write is atomic to its readers).
 * @head: the display controller's heads.
 * @tlb: the MMU's TLB; protected by the bus's hold.
 * @tlb_hits: translations found in @tlb.
 * @tlb_misses: translations that walked the tables.
 * @tlb_flushes: flushes of @tlb.
 */
struct vseg_sim {
	struct vseg_hw *hw;
	spinlock_t lock; /* see above */
	struct vseg_sim_head head[VSEG_HW_MAX_HEADS];
	struct vseg_sim_tlb_entry tlb[VSEG_SIM_TLB_ENTRIES];
	u64 tlb_hits;
	u64 tlb_misses;
	u64 tlb_flushes;
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
int vseg_sim_mmu_translate(struct vseg_sim *sim, u64 root, u64 va, bool write,
			   u64 *addr, u64 *len);
void vseg_sim_flush_tlb(struct vseg_hw *hw);

#endif /* __VSEG_SIM_H__ */
