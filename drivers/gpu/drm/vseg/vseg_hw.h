/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Copyright (c) 2026 The vseg authors
 *
 * The hardware interface: what a GPU implements to run under vseg's
 * segment model, and what the core (the memory managers, submission,
 * scheduling) hands it. The software GPU of sim/ is one implementation;
 * no file outside sim/ includes any other header of sim/. See "Porting a
 * GPU to vseg" in Documentation/gpu/vseg.rst.
 */
#ifndef __VSEG_HW_H__
#define __VSEG_HW_H__

#include <linux/atomic.h>
#include <linux/bits.h>
#include <linux/types.h>

struct drm_vseg_cmd;
struct vseg_hw;
struct vseg_hw_bus;
struct vseg_hw_cmd_job;

/**
 * struct vseg_hw_mapping - a GPU address as the CPU reaches it
 * @kmapped: what vseg_hw_bus_ops.unmap undoes (a page mapped with
 *	kmap_local_page()), or NULL.
 *
 * Mappings of one thread are undone in the reverse order of their making.
 */
struct vseg_hw_mapping {
	void *kmapped;
};

/*
 * GPU physical addresses of one more class: bit 63 set, a system page's
 * physical address (below 2^63) in the bits below. Page-table entries with
 * %VSEG_HW_PTE_SYSTEM reach system pages so, without the GART. Memory
 * segments and the aperture have GPU addresses below 2^63 when the GPU
 * has page tables (an entry holds no more).
 */
#define VSEG_HW_SYSTEM_BIT		BIT_ULL(63)
#define VSEG_HW_SYSTEM_ADDR(phys)	((u64)(phys) | VSEG_HW_SYSTEM_BIT)
#define VSEG_HW_IS_SYSTEM(addr)		(!!((addr) & VSEG_HW_SYSTEM_BIT))
#define VSEG_HW_SYSTEM_PHYS(addr)	((addr) & ~VSEG_HW_SYSTEM_BIT)

/*
 * GPU page tables (WDDM v2 GpuMmu), as the MMU walks them.
 *
 * A VA space (47 bits of GPU virtual address) is a tree of 4 levels of
 * page-table pages: 4 KiB each, 512 entries of 8 bytes, little endian.
 * Level 0 is the root (VA bits 46..39: 256 of its entries are used),
 * levels 1 and 2 are directories (bits 38..30, 29..21), level 3 the leaf
 * (bits 20..12), whose entries map 4 KiB pages. An entry:
 *
 *   bit 0        VALID: the entry maps something; 0 faults.
 *   bit 1        READONLY (leaf): a write through it faults.
 *   bit 2        SYSTEM: the address is a system page's physical address
 *                (VSEG_HW_SYSTEM_ADDR() on the bus), not a GPU physical
 *                address of a segment.
 *   bit 3        64K (leaf): the entry belongs to a 64 KiB page: the 16
 *                entries of an aligned group of 16 all carry it, each with
 *                the 64 KiB page's first address (a multiple of 64 KiB).
 *   bits 62..12  the address: of the next level's page-table page
 *                (directory), of the page (leaf).
 *   bit 63, 11..4  zero.
 *
 * A directory entry is VALID with the next table's address (SYSTEM if
 * that is a system page). The MMU caches leaf entries in a TLB until the
 * core has it flushed (vseg_hw_ops.flush_tlb), after every change that
 * invalidates or moves an entry.
 */
#define VSEG_HW_PT_LEVELS	4
#define VSEG_HW_PT_ENTRIES	512
#define VSEG_HW_PT_SHIFT	9
#define VSEG_HW_PAGE_SHIFT	12
#define VSEG_HW_PAGE_SIZE	BIT_ULL(VSEG_HW_PAGE_SHIFT)
#define VSEG_HW_PAGE_64K	BIT_ULL(16)
/* Leaf entries per 64 KiB page. */
#define VSEG_HW_PTE_PER_64K	16
#define VSEG_HW_VA_BITS		47

#define VSEG_HW_PTE_VALID	BIT_ULL(0)
#define VSEG_HW_PTE_READONLY	BIT_ULL(1)
#define VSEG_HW_PTE_SYSTEM	BIT_ULL(2)
#define VSEG_HW_PTE_64K		BIT_ULL(3)
#define VSEG_HW_PTE_ADDR	GENMASK_ULL(62, 12)

/* The index into a level-@level table of the entry covering @va. */
static inline u32 vseg_hw_pt_index(u64 va, u32 level)
{
	u32 shift = VSEG_HW_PAGE_SHIFT +
		    VSEG_HW_PT_SHIFT * (VSEG_HW_PT_LEVELS - 1 - level);

	return (va >> shift) & (VSEG_HW_PT_ENTRIES - 1);
}

/* Bytes of VA one entry of a level-@level table covers. */
static inline u64 vseg_hw_pt_entry_span(u32 level)
{
	return BIT_ULL(VSEG_HW_PAGE_SHIFT +
		       VSEG_HW_PT_SHIFT * (VSEG_HW_PT_LEVELS - 1 - level));
}

/*
 * A leaf entry for bus address @addr (a segment's GPU physical address,
 * or VSEG_HW_SYSTEM_ADDR() of a system page), page aligned: 4 KiB, or
 * 64 KiB with @big. 0 (invalid) for an address an entry cannot hold.
 */
static inline u64 vseg_hw_pte_encode(u64 addr, bool readonly, bool big)
{
	u64 pte = VSEG_HW_PTE_VALID;

	if (VSEG_HW_IS_SYSTEM(addr)) {
		pte |= VSEG_HW_PTE_SYSTEM;
		addr = VSEG_HW_SYSTEM_PHYS(addr);
	}
	if (addr & ~VSEG_HW_PTE_ADDR)
		return 0;
	if (big && (addr & (VSEG_HW_PAGE_64K - 1)))
		return 0;
	return pte | addr | (readonly ? VSEG_HW_PTE_READONLY : 0) |
	       (big ? VSEG_HW_PTE_64K : 0);
}

/* The bus address an entry (VALID) names: what it maps, or a table. */
static inline u64 vseg_hw_pte_addr(u64 pte)
{
	u64 addr = pte & VSEG_HW_PTE_ADDR;

	return pte & VSEG_HW_PTE_SYSTEM ? VSEG_HW_SYSTEM_ADDR(addr) : addr;
}

/* Bytes of the page a VALID leaf entry maps. */
static inline u64 vseg_hw_pte_page_size(u64 pte)
{
	return pte & VSEG_HW_PTE_64K ? VSEG_HW_PAGE_64K : VSEG_HW_PAGE_SIZE;
}

/*
 * Where a VALID leaf entry sends @va: the bus address of its byte. A 64K
 * entry's page starts at its address, whichever of the 16 it is.
 */
static inline u64 vseg_hw_pte_translate(u64 pte, u64 va)
{
	u64 size = vseg_hw_pte_page_size(pte);

	return vseg_hw_pte_addr(pte & ~((size - 1) & VSEG_HW_PTE_ADDR)) +
	       (va & (size - 1));
}

/**
 * struct vseg_hw_bus_ops - the bus: GPU physical addresses
 * @hold: keep what the bus resolves addresses with (the GART's entries)
 *	from changing until @release; taken around every @map of an
 *	aperture address, and held at most for one step of a command
 *	(VSEG_SIM_STEP bytes); the MMU's TLB flush takes it too. May sleep.
 * @release: undo @hold.
 * @map: the kernel address of GPU physical address @addr: a memory
 *	segment's byte (its segment's GPU base address plus its offset), an
 *	aperture byte (translated through the GART's entry, with @hold
 *	held), or a system page's byte (VSEG_HW_SYSTEM_ADDR(): only page
 *	tables name those, and only the core writes page tables). @len
 *	receives how many bytes follow contiguously (at most to the end
 *	of the host page); @write: the bytes will be written.
 *	Allocates nothing: a memory segment's pages were backed when the
 *	job was queued. Returns NULL for an address of no segment, past a
 *	segment's end, or an aperture page without an entry.
 * @unmap: undo @map (a no-op for a @m whose @map failed).
 * @read: copy @len bytes at GPU physical address @addr to @buf; takes
 *	@hold itself. Returns 0 or -EFAULT (an address @map refuses).
 * @write: copy @len bytes of @buf to GPU physical address @addr; as @read.
 *
 * The core's, implemented over the memory segments' backing store and
 * the GART (vseg_bus.c): the only way the software GPU reaches memory.
 * A real GPU reaches memory over its own bus: its driver implements none
 * of this.
 */
struct vseg_hw_bus_ops {
	void (*hold)(struct vseg_hw_bus *bus);
	void (*release)(struct vseg_hw_bus *bus);
	void *(*map)(struct vseg_hw_bus *bus, u64 addr, u64 *len, bool write,
		     struct vseg_hw_mapping *m);
	void (*unmap)(struct vseg_hw_bus *bus, struct vseg_hw_mapping *m);
	int (*read)(struct vseg_hw_bus *bus, u64 addr, void *buf, u64 len);
	int (*write)(struct vseg_hw_bus *bus, u64 addr, const void *buf,
		     u64 len);
};

/**
 * struct vseg_hw_bus - the core's bus, as the hardware is handed it
 * @ops: its operations.
 */
struct vseg_hw_bus {
	const struct vseg_hw_bus_ops *ops;
};

/**
 * enum vseg_hw_port - which side of a command an address is
 * @VSEG_HW_DST: the bytes written (FILL, COPY, WRITE).
 * @VSEG_HW_SRC: the bytes read (COPY).
 * @VSEG_HW_NUM_PORTS: how many.
 */
enum vseg_hw_port {
	VSEG_HW_DST,
	VSEG_HW_SRC,
	VSEG_HW_NUM_PORTS
};

/**
 * struct vseg_hw_cmd_job_ops - what a command job tells the engine
 * @allowed: may the engine run command @c? The core's policy, asked
 *	before each command touches a byte: a physical job's command stays
 *	inside its allocation list; protected content is not copied out of
 *	a video protected region (vseg_vpr.c). False ends the job with
 *	-EFAULT.
 */
struct vseg_hw_cmd_job_ops {
	bool (*allowed)(struct vseg_hw_cmd_job *job,
			const struct drm_vseg_cmd *c);
};

/**
 * struct vseg_hw_cmd_job - a command job of the copy or render engine
 * @ops: the job's callbacks.
 * @cmds: its commands (struct drm_vseg_cmd), patched: a physical job's
 *	addresses are GPU physical addresses, a virtual job's GPU virtual
 *	addresses.
 * @num_cmds: entries in @cmds.
 * @virtual: the render engine's: addresses are GPU virtual addresses,
 *	translated by the MMU through the page tables at @pt_root; else the
 *	copy engine's (GPU physical addresses, through the bus).
 * @pt_root: a virtual job: GPU physical address of its VA space's root
 *	page table (level 0), or 0 for a VA space without tables (every
 *	access faults).
 * @stop: nonzero when the job has run past its time limit: the engine
 *	ends it at its next step with -ETIME.
 *
 * What WDDM's DxgkDdiSubmitCommand hands a driver: a DMA buffer, patched,
 * for one engine.
 */
struct vseg_hw_cmd_job {
	const struct vseg_hw_cmd_job_ops *ops;
	const struct drm_vseg_cmd *cmds;
	u32 num_cmds;
	bool virtual;
	u64 pt_root;
	const atomic_t *stop;
};

/* Display heads a GPU behind the interface may have. */
#define VSEG_HW_MAX_HEADS	2

/**
 * struct vseg_hw_scanout - what a display head scans out
 * @address: GPU physical address of the primary's first byte: a memory
 *	segment's, or the aperture's (the display controller reads memory
 *	physically).
 * @size: the primary's bytes.
 *
 * vseg's primaries carry no pixel format (the SCANOUT ioctl names a
 * buffer, nothing more): a head has none to be told.
 */
struct vseg_hw_scanout {
	u64 address;
	u64 size;
};

/**
 * struct vseg_hw_ops - the GPU, as vseg drives it
 * @run_commands: run @job's commands on its engine, in order, from the
 *	engine's queue (in the fence signalling path: allocate nothing,
 *	take no lock but the bus's @hold). Returns 0, -EFAULT at the first
 *	command that reaches memory it may not (the rest is skipped), or
 *	-ETIME when @job->stop was set. DxgkDdiSubmitCommand and the
 *	engine's execution of the DMA buffer.
 * @set_scanout: program display head @head (below VSEG_HW_MAX_HEADS) to
 *	scan out @s, or turn it off with @s NULL. The core calls it once
 *	the primary is pinned where the display reaches it, and before it
 *	drops that pin. May sleep. DxgkDdiSetVidPnSourceAddress (and
 *	DxgkDdiSetVidPnSourceVisibility for off).
 * @get_scanout: read head @head's scanout registers back into @s (for
 *	debugfs). Returns false for a head that is off.
 * @flush_tlb: drop every page-table entry the MMU has cached; returns
 *	once no engine uses a translation made before (an engine step in
 *	progress ends first). May sleep; takes the bus's @hold.
 *	DXGK_BUILDPAGINGBUFFER_FLUSHTLB.
 * @release: free what the attach function allocated; the last call, at
 *	the device's teardown.
 */
struct vseg_hw_ops {
	int (*run_commands)(struct vseg_hw *hw, struct vseg_hw_cmd_job *job);
	void (*set_scanout)(struct vseg_hw *hw, u32 head,
			    const struct vseg_hw_scanout *s);
	bool (*get_scanout)(struct vseg_hw *hw, u32 head,
			    struct vseg_hw_scanout *s);
	void (*flush_tlb)(struct vseg_hw *hw);
	void (*release)(struct vseg_hw *hw);
};

/**
 * struct vseg_hw - one GPU behind the interface
 * @ops: its operations, set by its attach function.
 * @bus: the core's bus, handed to it at attach.
 * @priv: the implementation's own state.
 */
struct vseg_hw {
	const struct vseg_hw_ops *ops;
	struct vseg_hw_bus *bus;
	void *priv;
};

int vseg_sim_attach(struct vseg_hw *hw, struct vseg_hw_bus *bus);
int vseg_sim_mmu_walk(struct vseg_hw_bus *bus, u64 root, u64 va, u64 *pte);

#endif /* __VSEG_HW_H__ */
