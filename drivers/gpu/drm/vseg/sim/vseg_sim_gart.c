// SPDX-License-Identifier: GPL-2.0-only
/*
 * Copyright (c) 2026 The vseg authors
 *
 * The software GPU's GART: the page table of the aperture segment. The
 * aperture is a range of GPU physical addresses; each of its host pages
 * has one entry that points at a system page, written and cleared by the
 * core (vseg_hw_ops.gart_write, .gart_clear) and by the paging engine's
 * MAP_APERTURE and UNMAP_APERTURE operations. The copy engine translates
 * an aperture address through its entry into a system page's address,
 * which it reaches through the bus. Which ranges belong to whom is the
 * core's business (vseg_gart.c): the GART only holds entries.
 */

#include <linux/errno.h>
#include <linux/minmax.h>
#include <linux/mm.h>
#include <linux/slab.h>

#include "vseg_sim.h"

/**
 * vseg_sim_gart_init() - a GART of no entries
 * @sim: the software GPU
 */
void vseg_sim_gart_init(struct vseg_sim *sim)
{
	mutex_init(&sim->gart.lock);
}

/**
 * vseg_sim_gart_fini() - free the GART's entries
 * @sim: the software GPU
 */
void vseg_sim_gart_fini(struct vseg_sim *sim)
{
	kvfree(sim->gart.pte);
	sim->gart.pte = NULL;
	mutex_destroy(&sim->gart.lock);
}

/**
 * vseg_sim_gart_setup() - size the GART for the aperture
 * @hw: the software GPU
 * @base: GPU physical address of the aperture
 * @num_entries: host pages of the aperture
 *
 * Return: 0 or -ENOMEM (the GART is left as it was).
 */
int vseg_sim_gart_setup(struct vseg_hw *hw, u64 base, u64 num_entries)
{
	struct vseg_sim_gart *gart = &to_vseg_sim(hw)->gart;
	u64 *pte = NULL, *old;

	if (num_entries) {
		pte = kvcalloc(num_entries, sizeof(*pte), GFP_KERNEL);
		if (!pte)
			return -ENOMEM;
	}
	mutex_lock(&gart->lock);
	old = gart->pte;
	gart->pte = pte;
	gart->base = base;
	gart->num = num_entries;
	mutex_unlock(&gart->lock);
	kvfree(old);
	return 0;
}

/* Is [first, first + num) inside the GART, and not empty? */
static bool run_valid(const struct vseg_sim_gart *gart, u64 first, u64 num)
{
	return first < gart->num && num && num <= gart->num - first;
}

static int gart_write_locked(struct vseg_sim_gart *gart, u64 first, u64 phys,
			     u64 num, u64 *set)
{
	u64 i;

	lockdep_assert_held(&gart->lock);
	*set = 0;
	if (!run_valid(gart, first, num) || offset_in_page(phys) ||
	    VSEG_HW_IS_SYSTEM(phys))
		return -EINVAL;
	for (i = 0; i < num; i++) {
		if (!(gart->pte[first + i] & VSEG_SIM_PTE_VALID))
			(*set)++;
		WRITE_ONCE(gart->pte[first + i],
			   (phys + (i << PAGE_SHIFT)) | VSEG_SIM_PTE_VALID);
	}
	return 0;
}

static int gart_clear_locked(struct vseg_sim_gart *gart, u64 first, u64 num,
			     u64 *cleared)
{
	u64 i;

	lockdep_assert_held(&gart->lock);
	*cleared = 0;
	if (!run_valid(gart, first, num))
		return -EINVAL;
	for (i = first; i < first + num; i++) {
		if (gart->pte[i] & VSEG_SIM_PTE_VALID)
			(*cleared)++;
		WRITE_ONCE(gart->pte[i], 0);
	}
	return 0;
}

/**
 * vseg_sim_gart_write() - point a run of entries at contiguous pages
 * @hw: the software GPU
 * @first: first entry
 * @phys: physical address of the first system page, page aligned
 * @num: entries
 * @set: receives how many of them were invalid
 *
 * Return: 0, or -EINVAL for a run outside the GART or a bad address.
 */
int vseg_sim_gart_write(struct vseg_hw *hw, u64 first, u64 phys, u64 num,
			u64 *set)
{
	struct vseg_sim_gart *gart = &to_vseg_sim(hw)->gart;
	int err;

	mutex_lock(&gart->lock);
	err = gart_write_locked(gart, first, phys, num, set);
	mutex_unlock(&gart->lock);
	return err;
}

/**
 * vseg_sim_gart_clear() - invalidate a run of entries
 * @hw: the software GPU
 * @first: first entry
 * @num: entries
 * @cleared: receives how many of them were valid
 *
 * Takes the lock every engine step holds: when it returns, no step uses
 * the old entries.
 *
 * Return: 0, or -EINVAL for a run outside the GART.
 */
int vseg_sim_gart_clear(struct vseg_hw *hw, u64 first, u64 num,
			u64 *cleared)
{
	struct vseg_sim_gart *gart = &to_vseg_sim(hw)->gart;
	int err;

	mutex_lock(&gart->lock);
	err = gart_clear_locked(gart, first, num, cleared);
	mutex_unlock(&gart->lock);
	return err;
}

/**
 * vseg_sim_gart_read() - read entries back
 * @hw: the software GPU
 * @first: first entry
 * @entries: receives each entry's page address, or %VSEG_HW_GART_INVALID
 * @num: entries to read
 *
 * Return: how many were read.
 */
u64 vseg_sim_gart_read(struct vseg_hw *hw, u64 first, u64 *entries, u64 num)
{
	struct vseg_sim_gart *gart = &to_vseg_sim(hw)->gart;
	u64 i, pte;

	mutex_lock(&gart->lock);
	if (first >= gart->num)
		num = 0;
	num = min(num, gart->num - first);
	for (i = 0; i < num; i++) {
		pte = gart->pte[first + i];
		entries[i] = pte & VSEG_SIM_PTE_VALID ? pte & PAGE_MASK :
							VSEG_HW_GART_INVALID;
	}
	mutex_unlock(&gart->lock);
	return num;
}

/**
 * vseg_sim_gart_map() - map a GPU physical address as the copy engine does
 * @sim: the software GPU, its GART's lock held
 * @addr: the address: an aperture byte, translated through its entry, or
 *	a memory segment's
 * @len: receives how many bytes follow contiguously
 * @write: the bytes will be written
 * @m: the mapping, for vseg_hw_bus_ops.unmap
 *
 * System memory is reached only through the aperture: an address of the
 * bus's system class is refused. The page stays mapped, and its entry
 * unchanged, until the caller drops the GART's lock.
 *
 * Return: the kernel address, or NULL (no memory, an invalid entry).
 */
void *vseg_sim_gart_map(struct vseg_sim *sim, u64 addr, u64 *len, bool write,
			struct vseg_hw_mapping *m)
{
	struct vseg_hw_bus *bus = sim->hw->bus;
	struct vseg_sim_gart *gart = &sim->gart;
	u64 idx, pte;

	lockdep_assert_held(&gart->lock);
	m->kmapped = NULL;
	if (VSEG_HW_IS_SYSTEM(addr))
		return NULL;
	if (addr < gart->base || addr - gart->base >= gart->num << PAGE_SHIFT)
		return bus->ops->map(bus, addr, len, write, m);
	idx = (addr - gart->base) >> PAGE_SHIFT;
	pte = gart->pte[idx];
	if (!(pte & VSEG_SIM_PTE_VALID))
		return NULL;
	return bus->ops->map(bus, VSEG_HW_SYSTEM_ADDR((pte & PAGE_MASK) |
						      offset_in_page(addr)),
			     len, write, m);
}
