// SPDX-License-Identifier: GPL-2.0-only
/*
 * Copyright (c) 2026 The vseg authors
 *
 * The software GPU's MMU: it walks a VA space's page tables (the format
 * of vseg_hw.h) through the bus, from the root page table a job names,
 * and caches the leaf entries it found in a small TLB, which the core has
 * flushed (vseg_hw_ops.flush_tlb) whenever it invalidates or moves an
 * entry, or by the paging engine's FLUSH_TLB. The render engine
 * translates every access through it while it holds the GART's lock
 * (&vseg_sim_gart.lock), one step at a time: a flush, which takes that
 * lock too, waits for the step in progress, so that no translation made
 * before the flush is used after it.
 *
 * vseg's page-table pages are system pages, named by their system
 * addresses (VSEG_HW_SYSTEM_ADDR(), %VSEG_HW_PTE_SYSTEM in a directory
 * entry): the walk reads them through the bus, never through the GART.
 */

#include <kunit/visibility.h>
#include <linux/kernel.h>
#include <linux/lockdep.h>
#include <linux/mutex.h>
#include <linux/string.h>

#include "vseg_sim.h"

/* Read the entry at bus address @addr. */
static int read_entry(struct vseg_hw_bus *bus, u64 addr, u64 *pte)
{
	struct vseg_hw_mapping m;
	u64 len;
	void *p;

	p = bus->ops->map(bus, addr, &len, false, &m);
	if (!p || len < sizeof(u64)) {
		if (p)
			bus->ops->unmap(bus, &m);
		return -EFAULT;
	}
	*pte = READ_ONCE(*(u64 *)p);
	bus->ops->unmap(bus, &m);
	return 0;
}

/**
 * vseg_sim_mmu_walk() - walk a VA space's page tables to a leaf entry
 * @bus: the bus
 * @root: bus address of the root (level 0) page table, 0 for none
 * @va: the GPU virtual address
 * @pte: receives the leaf entry mapping @va (VALID)
 *
 * No TLB: the walk itself (the KUnit suite drives it over a fake bus).
 *
 * Return: 0, or -EFAULT for an address past the VA space, a missing
 * table or entry, or a table the bus does not reach.
 */
int vseg_sim_mmu_walk(struct vseg_hw_bus *bus, u64 root, u64 va, u64 *pte)
{
	u64 table = root, e;
	u32 level;

	if (!root || va >> VSEG_HW_VA_BITS)
		return -EFAULT;
	for (level = 0; level < VSEG_HW_PT_LEVELS; level++) {
		if (read_entry(bus, table + sizeof(u64) *
			       vseg_hw_pt_index(va, level), &e))
			return -EFAULT;
		if (!(e & VSEG_HW_PTE_VALID))
			return -EFAULT;
		table = vseg_hw_pte_addr(e);
	}
	*pte = e;
	return 0;
}
EXPORT_SYMBOL_IF_KUNIT(vseg_sim_mmu_walk);

static struct vseg_sim_tlb_entry *tlb_slot(struct vseg_sim *sim, u64 va)
{
	return &sim->tlb[(va >> VSEG_HW_PAGE_SHIFT) % VSEG_SIM_TLB_ENTRIES];
}

/**
 * vseg_sim_mmu_translate() - the bus address of a GPU virtual address
 * @sim: the software GPU
 * @root: the job's root page table
 * @va: the address
 * @write: the access writes
 * @addr: receives the bus address
 * @len: receives the bytes that follow in the same page
 *
 * The caller holds the GART's lock (the TLB is protected by it).
 *
 * Return: 0, or -EFAULT: no entry, or a write through a read-only one.
 */
int vseg_sim_mmu_translate(struct vseg_sim *sim, u64 root, u64 va, bool write,
			   u64 *addr, u64 *len)
{
	struct vseg_sim_tlb_entry *t = tlb_slot(sim, va);
	u64 vpn = va >> VSEG_HW_PAGE_SHIFT, pte, size;

	lockdep_assert_held(&sim->gart.lock);
	if (t->valid && t->root == root && t->vpn == vpn) {
		pte = t->pte;
		sim->tlb_hits++;
	} else {
		if (vseg_sim_mmu_walk(sim->hw->bus, root, va, &pte))
			return -EFAULT;
		sim->tlb_misses++;
		t->valid = true;
		t->root = root;
		t->vpn = vpn;
		t->pte = pte;
	}
	if (write && (pte & VSEG_HW_PTE_READONLY))
		return -EFAULT;
	size = vseg_hw_pte_page_size(pte);
	*addr = vseg_hw_pte_translate(pte, va);
	*len = size - (va & (size - 1));
	return 0;
}

/**
 * vseg_sim_flush_tlb() - forget every cached entry
 * @hw: the software GPU
 *
 * Takes the GART's lock, which every engine step holds: a step that
 * translated before ends first. May sleep.
 */
void vseg_sim_flush_tlb(struct vseg_hw *hw)
{
	struct vseg_sim *sim = to_vseg_sim(hw);

	mutex_lock(&sim->gart.lock);
	memset(sim->tlb, 0, sizeof(sim->tlb));
	sim->tlb_flushes++;
	mutex_unlock(&sim->gart.lock);
}
