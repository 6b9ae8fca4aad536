/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Copyright (c) 2026 The vseg authors
 *
 * The software GPU's own state, shared by the files of sim/ alone.
 */
#ifndef __VSEG_SIM_H__
#define __VSEG_SIM_H__

#include <linux/mutex.h>
#include <linux/spinlock.h>
#include <linux/types.h>

#include "../vseg_hw.h"

/**
 * struct vseg_sim_head - a display head's scanout and cursor registers
 * @on: the head scans out.
 * @scanout: what, when @on.
 * @cursor_on: the cursor is shown (over the primary, when @on).
 * @cursor: the cursor's image and position, when @cursor_on.
 */
struct vseg_sim_head {
	bool on;
	struct vseg_hw_scanout scanout;
	bool cursor_on;
	struct vseg_hw_cursor cursor;
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
 * struct vseg_sim_gart - the GART: the aperture's page table
 * @lock: protects @pte and the MMU's TLB (&vseg_sim.tlb); an engine
 *	holds it over each step of a command, so that once an entry is
 *	cleared, or the TLB flushed, no step still uses the page it pointed
 *	at.
 * @base: GPU physical address of the aperture's first byte.
 * @num: entries, one per host page of the aperture.
 * @pte: the entries: a system page's physical address, plus
 *	%VSEG_SIM_PTE_VALID.
 */
struct vseg_sim_gart {
	struct mutex lock; /* see above */
	u64 base;
	u64 num;
	u64 *pte;
};

/* A GART entry's valid bit; the rest is the page's physical address. */
#define VSEG_SIM_PTE_VALID	BIT_ULL(0)

/**
 * struct vseg_sim_paging - the paging engine's registers
 * @key: the key protected content is encrypted with (set_vpr_key).
 * @crypt_base: GPU physical address of the protected buffer's first byte,
 *	from the last CRYPT_CONTEXT operation.
 * @crypt_nonce: the nonce of that operation; 0 before any.
 * @root: the paging VA space's root page table (set_paging_root), 0 for
 *	none: what TRANSFER_VIRTUAL and FILL_VIRTUAL translate through.
 *
 * The paging engine runs one batch at a time (the paging queue's).
 */
struct vseg_sim_paging {
	u8 key[VSEG_HW_VPR_KEY_SIZE];
	u64 crypt_base;
	u64 crypt_nonce;
	u64 root;
};

/**
 * struct vseg_sim_window - a CPU host aperture window
 * @num: its slots.
 * @slot: what each slot shows: a GPU physical address, or
 *	%VSEG_HW_SLOT_CLEAR.
 */
struct vseg_sim_window {
	u32 num;
	u64 *slot;
};

/**
 * struct vseg_sim - the software GPU
 * @hw: the interface it implements.
 * @lock: protects @head (a register write is atomic to its readers).
 * @head: the display controller's heads.
 * @display: the display controller, as the core drives it.
 * @gart: the GART.
 * @paging: the paging engine.
 * @window_lock: protects @window.
 * @window: the CPU host aperture windows.
 * @tlb: the MMU's TLB; protected by @gart.lock, which every engine step
 *	holds (vseg_sim_mmu.c).
 * @tlb_hits: translations found in @tlb.
 * @tlb_misses: translations that walked the tables.
 * @tlb_flushes: flushes of @tlb.
 */
struct vseg_sim {
	struct vseg_hw *hw;
	spinlock_t lock; /* see above */
	struct vseg_sim_head head[VSEG_HW_MAX_HEADS];
	struct vseg_hw_display display;
	struct vseg_sim_gart gart;
	struct vseg_sim_paging paging;
	struct mutex window_lock; /* see above */
	struct vseg_sim_window window[VSEG_HW_MAX_WINDOWS];
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
int vseg_sim_run_paging(struct vseg_hw *hw, const struct vseg_paging_op *ops,
			u32 num, struct vseg_hw_paging_result *res);
void vseg_sim_set_vpr_key(struct vseg_hw *hw, const u8 *key);
void vseg_sim_set_paging_root(struct vseg_hw *hw, u64 root);
void vseg_sim_display_init(struct vseg_sim *sim);
int vseg_sim_mmu_translate(struct vseg_sim *sim, u64 root, u64 va, bool write,
			   u64 *addr, u64 *len);
void vseg_sim_flush_tlb(struct vseg_hw *hw);

int vseg_sim_host_aperture_setup(struct vseg_hw *hw, u32 window,
				 u32 num_slots);
unsigned long vseg_sim_host_slot_set(struct vseg_hw *hw, u32 window, u32 slot,
				     u64 addr);
void vseg_sim_host_aperture_fini(struct vseg_sim *sim);

void vseg_sim_gart_init(struct vseg_sim *sim);
void vseg_sim_gart_fini(struct vseg_sim *sim);
int vseg_sim_gart_setup(struct vseg_hw *hw, u64 base, u64 num_entries);
int vseg_sim_gart_write(struct vseg_hw *hw, u64 first, u64 phys, u64 num,
			u64 *set);
int vseg_sim_gart_clear(struct vseg_hw *hw, u64 first, u64 num,
			u64 *cleared);
u64 vseg_sim_gart_read(struct vseg_hw *hw, u64 first, u64 *entries, u64 num);
void *vseg_sim_gart_map(struct vseg_sim *sim, u64 addr, u64 *len, bool write,
			struct vseg_hw_mapping *m);

#endif /* __VSEG_SIM_H__ */
