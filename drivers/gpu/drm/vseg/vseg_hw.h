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
#include <linux/limits.h>
#include <linux/types.h>

struct drm_vseg_cmd;
struct pci_dev;
struct seq_file;
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
 * GPU physical addresses with bit 63 set are the bus's address class for
 * system pages: the rest is the physical address of a byte of a system
 * page (what a GART entry, a paging operation on system memory, or a
 * page-table entry with %VSEG_HW_PTE_SYSTEM names). Memory segments and
 * the aperture never reach bit 63 (the segment table's rule,
 * vseg_phys.c).
 */
#define VSEG_HW_SYSTEM_BIT		BIT_ULL(63)
#define VSEG_HW_SYSTEM_ADDR(phys)	((u64)(phys) | VSEG_HW_SYSTEM_BIT)
#define VSEG_HW_IS_SYSTEM(addr)		(((addr) & VSEG_HW_SYSTEM_BIT) != 0)
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

/**
 * struct vseg_hw_pte_count - what a leaf table's valid entries are
 * @valid: valid entries
 * @big: of them, 64 KiB ones
 * @readonly: read-only ones
 * @system: ones naming system pages
 */
struct vseg_hw_pte_count {
	u64 valid;
	u64 big;
	u64 readonly;
	u64 system;
};

/*
 * Add a leaf table's VSEG_HW_PT_ENTRIES @entries (mapped by the caller) to
 * @c: what debugfs shows of page tables.
 */
static inline void vseg_hw_pte_count(const u64 *entries,
				     struct vseg_hw_pte_count *c)
{
	u64 e;
	u32 i;

	for (i = 0; i < VSEG_HW_PT_ENTRIES; i++) {
		e = READ_ONCE(entries[i]);
		if (!(e & VSEG_HW_PTE_VALID))
			continue;
		c->valid++;
		c->big += !!(e & VSEG_HW_PTE_64K);
		c->readonly += !!(e & VSEG_HW_PTE_READONLY);
		c->system += !!(e & VSEG_HW_PTE_SYSTEM);
	}
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
 * @map: the kernel address of GPU physical address @addr: a memory
 *	segment's byte (its segment's GPU base address plus its offset), or
 *	a system page's byte (VSEG_HW_SYSTEM_ADDR()). @len receives how many
 *	bytes follow contiguously (at most to the end of the host page);
 *	@write: the bytes will be written. Allocates nothing and takes no
 *	lock: a memory segment's pages were backed when the job was queued,
 *	and a system page stays as long as the entry or operation that
 *	named it. Returns NULL for an address of no memory segment, past a
 *	segment's end, a memory segment's page not backed for a @write, or
 *	an aperture address: the aperture is the GPU's to translate,
 *	through its GART, into system addresses.
 * @unmap: undo @map (a no-op for a @m whose @map failed).
 * @read: copy @len bytes at GPU physical address @addr to @buf. Returns
 *	0 or -EFAULT (an address @map refuses).
 * @write: copy @len bytes of @buf to GPU physical address @addr; as @read.
 * @pfn: the page frame the CPU reaches the memory segment page at GPU
 *	physical address @addr (page aligned) through: its backing page, or
 *	the BAR's. 0 for an address of no memory segment or a page not
 *	backed. What the software GPU's CPU host aperture window shows.
 * @zero: write zeroes over @len bytes at GPU physical address @addr; the
 *	pages of a memory segment that nothing backs read zero already and
 *	stay unbacked (the paging engine's Fill of zero). Returns 0 or
 *	-EFAULT (an address @map refuses for reading).
 *
 * The core's, implemented over the memory segments' backing store and
 * system pages (vseg_bus.c): the only way the software GPU reaches
 * memory. A real GPU reaches memory over its own bus: its driver
 * implements none of this.
 */
struct vseg_hw_bus_ops {
	void *(*map)(struct vseg_hw_bus *bus, u64 addr, u64 *len, bool write,
		     struct vseg_hw_mapping *m);
	void (*unmap)(struct vseg_hw_bus *bus, struct vseg_hw_mapping *m);
	int (*read)(struct vseg_hw_bus *bus, u64 addr, void *buf, u64 len);
	int (*write)(struct vseg_hw_bus *bus, u64 addr, const void *buf,
		     u64 len);
	unsigned long (*pfn)(struct vseg_hw_bus *bus, u64 addr);
	int (*zero)(struct vseg_hw_bus *bus, u64 addr, u64 len);
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
 * @pt_root: a virtual job: bus address of its VA space's root page
 *	table (level 0; vseg's are system pages, VSEG_HW_SYSTEM_ADDR()), or
 *	0 for a VA space without tables (every access faults).
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

/* CPU host aperture windows a GPU behind the interface may have. */
#define VSEG_HW_MAX_WINDOWS	8
/* &vseg_hw_ops.host_slot_set: clear the slot. */
#define VSEG_HW_SLOT_CLEAR	U64_MAX

/* What &vseg_hw_ops.gart_read gives for an invalid entry. */
#define VSEG_HW_GART_INVALID	U64_MAX

/* Display heads a GPU behind the interface may have. */
#define VSEG_HW_MAX_HEADS	2

/**
 * struct vseg_hw_scanout - what a display head scans out
 * @address: GPU physical address of the first pixel: the primary's
 *	(a memory segment's, or the aperture's: the display controller reads
 *	memory physically) plus the framebuffer's offset in it.
 * @size: the primary's bytes from @address on.
 * @width: pixels per line (KMS: the mode's width); 0 for a primary shown
 *	through the transitional SCANOUT ioctl, which names no format.
 * @height: lines (the mode's height); 0 with @width.
 * @pitch: bytes from one line's first pixel to the next's; 0 with @width.
 * @format: the pixels' DRM fourcc (DRM_FORMAT_XRGB8888, DRM_FORMAT_ARGB8888
 *	or DRM_FORMAT_RGB565), linear; 0 with @width.
 *
 * A KMS primary plane (vseg_plane.c) names every field; a display
 * controller that cannot show @format at @pitch would be refused earlier,
 * by the plane's atomic check, not here.
 */
struct vseg_hw_scanout {
	u64 address;
	u64 size;
	u32 width;
	u32 height;
	u32 pitch;
	u32 format;
};

/* The largest cursor image a display controller is handed, each way. */
#define VSEG_HW_CURSOR_MAX	64

/**
 * enum vseg_hw_cursor_blend - how a cursor's pixels go over the primary's
 * @VSEG_HW_CURSOR_PREMULTI: "over" with premultiplied alpha (DRM's
 *	"Pre-multiplied" pixel blend mode): per 8-bit channel,
 *	out = fg + bg * (255 - alpha) / 255, rounded to the nearest integer,
 *	255 at most (a colour above its alpha is not premultiplied).
 * @VSEG_HW_CURSOR_OPAQUE: the cursor's colour replaces the primary's,
 *	alpha ignored (DRM's "None").
 */
enum vseg_hw_cursor_blend {
	VSEG_HW_CURSOR_PREMULTI,
	VSEG_HW_CURSOR_OPAQUE,
};

/**
 * struct vseg_hw_cursor - a display head's cursor registers
 * @address: GPU physical address of the image's top left pixel (a memory
 *	segment's or the aperture's, like &vseg_hw_scanout.address).
 * @size: the bytes readable from @address on.
 * @width: the image's width in pixels, 1 to %VSEG_HW_CURSOR_MAX.
 * @height: its height in lines, 1 to %VSEG_HW_CURSOR_MAX.
 * @pitch: bytes from one line's first pixel to the next's.
 * @x: where the image's top left pixel goes on the head's picture, in
 *	pixels from its left edge; negative, or past the right edge, for a
 *	cursor partly or wholly off screen (what lies outside the picture is
 *	not shown).
 * @y: the same, in lines from the top edge.
 * @blend: how it goes over the primary (&enum vseg_hw_cursor_blend).
 *
 * The image is ARGB8888, linear, its colour premultiplied by its alpha
 * for %VSEG_HW_CURSOR_PREMULTI. The core keeps it where the display
 * reaches it while the registers point into it.
 */
struct vseg_hw_cursor {
	u64 address;
	u64 size;
	u32 width;
	u32 height;
	u32 pitch;
	s32 x;
	s32 y;
	u32 blend;
};

/* &vseg_hw_display.bar of a display controller that reaches every segment. */
#define VSEG_HW_DISPLAY_ANY_BAR	(-1)

struct vseg_hw_display;

/**
 * struct vseg_hw_display_ops - a display controller, as vseg drives it
 * @check: whether head @head can show @s (a KMS primary: every field
 *	named; its address not known yet, 0). Returns 0 or -EINVAL (a
 *	format, pitch or size the controller cannot scan out). Optional.
 * @set_scanout: program display head @head (below %VSEG_HW_MAX_HEADS) to
 *	scan out @s, or turn it off with @s NULL. The core calls it once
 *	the primary is pinned where the display reaches it, and before it
 *	drops that pin. May sleep. DxgkDdiSetVidPnSourceAddress (and
 *	DxgkDdiSetVidPnSourceVisibility for off), DxgkDdiCommitVidPn for
 *	the mode.
 * @get_scanout: read head @head's scanout registers back into @s (for
 *	debugfs). Returns false for a head that is off.
 * @show_regs: print the controller's own registers, one "name=value"
 *	line each, for debugfs. Optional.
 * @scanout_crc: the CRC of what display head @head shows, into @crc:
 *	crc32_le() seeded with 0 over each visible line's pixels in order,
 *	each pixel as 4 little-endian bytes of XRGB8888 with X zero (alpha
 *	ignored; RGB565 widened, each channel's top bits repeated into its
 *	low ones). The display controller reads the pixels as it scans them
 *	out, physically through the bus (the aperture's through its GART).
 *	The picture is the primary's with the head's cursor (@set_cursor)
 *	composed over it as &struct vseg_hw_cursor says, before the CRC; a
 *	head whose primary is off shows nothing, cursor or not. The caller
 *	keeps the scanout's and the cursor's memory where they are for the
 *	call. May sleep.
 *	Returns 0, -ENOENT (the head is off, or has no format), -ENOMEM or
 *	-EFAULT (a pixel the bus cannot reach). What a display controller's
 *	CRC generator reports for the frame. Optional: KMS offers no CRC
 *	source without it.
 * @set_cursor: program head @head's cursor registers to show @c over
 *	the primary, or turn the cursor off with @c NULL. The core calls it
 *	once the image is pinned where the display reaches it, and before it
 *	drops that pin (a CRTC turned off turns its cursor off too). The
 *	registers stay as they are while the primary is off (nothing shows
 *	then). A position change is a call with the same image.
 *	May sleep. DxgkDdiSetPointerShape (the image, a colour pointer with
 *	alpha) and DxgkDdiSetPointerPosition (@x, @y; visibility: @c NULL).
 *	Optional: without it the head has no hardware cursor, and KMS gives
 *	its CRTC no cursor plane.
 * @get_cursor: read head @head's cursor registers back into @c (for
 *	debugfs). Returns false for a cursor that is off. Required with
 *	@set_cursor.
 * @release: undo the attach function; the last call, at the device's
 *	teardown (before &vseg_hw_ops.release). Optional.
 */
struct vseg_hw_display_ops {
	int (*check)(struct vseg_hw_display *d, u32 head,
		     const struct vseg_hw_scanout *s);
	void (*set_scanout)(struct vseg_hw_display *d, u32 head,
			    const struct vseg_hw_scanout *s);
	bool (*get_scanout)(struct vseg_hw_display *d, u32 head,
			    struct vseg_hw_scanout *s);
	void (*show_regs)(struct vseg_hw_display *d, struct seq_file *m);
	int (*scanout_crc)(struct vseg_hw_display *d, u32 head, u32 *crc);
	void (*set_cursor)(struct vseg_hw_display *d, u32 head,
			   const struct vseg_hw_cursor *c);
	bool (*get_cursor)(struct vseg_hw_display *d, u32 head,
			   struct vseg_hw_cursor *c);
	void (*release)(struct vseg_hw_display *d);
};

/**
 * struct vseg_hw_display - a GPU's display controller
 * @ops: its operations.
 * @priv: the implementation's own state.
 * @name: what it is, for the log and debugfs.
 * @bar: what it reaches: %VSEG_HW_DISPLAY_ANY_BAR for every memory
 *	segment and the aperture (it reads memory physically, like the
 *	engines), or the PCI BAR whose memory alone it scans out. The core
 *	then keeps primaries contiguous in the memory segment on that BAR,
 *	within the BAR (KMS's atomic check refuses one that cannot be there
 *	with -EINVAL).
 * @bar_base: set by the core before the first @ops call, for a display
 *	with a @bar: the GPU physical address of the BAR's first byte (a
 *	scanout address less it is the offset in the BAR).
 * @bar_size: the bytes of @bar the core may put primaries in, set with
 *	@bar_base.
 * @max_width: the widest mode it shows (KMS offers no wider one).
 * @max_height: the tallest.
 *
 * The software GPU's is the default one; an attach function of a real
 * display controller (vseg_bochs_attach()) replaces it before the core
 * lays the display out.
 */
struct vseg_hw_display {
	const struct vseg_hw_display_ops *ops;
	void *priv;
	const char *name;
	int bar;
	u64 bar_base;
	u64 bar_size;
	u32 max_width;
	u32 max_height;
};

/**
 * enum vseg_paging_opcode - what a paging operation does
 * @VSEG_PAGING_OP_TRANSFER: copy @size bytes from @src to @dst
 *	(DXGK_BUILDPAGINGBUFFER_TRANSFER).
 * @VSEG_PAGING_OP_FILL: fill @size bytes at @dst with the 32-bit pattern
 *	in @src (DXGK_BUILDPAGINGBUFFER_FILL).
 * @VSEG_PAGING_OP_DISCARD: the content of @size bytes at @dst is dropped
 *	(DXGK_BUILDPAGINGBUFFER_DISCARDCONTENT).
 * @VSEG_PAGING_OP_MAP_APERTURE: point the GART entries of the aperture
 *	range at byte offset @dst, @size bytes, at the physically contiguous
 *	system pages from physical address @src
 *	(DXGK_BUILDPAGINGBUFFER_MAPAPERTURESEGMENT).
 * @VSEG_PAGING_OP_UNMAP_APERTURE: invalidate the GART entries of the
 *	aperture range at byte offset @dst, @size bytes
 *	(DXGK_BUILDPAGINGBUFFER_UNMAPAPERTURESEGMENT).
 * @VSEG_PAGING_OP_CRYPT_CONTEXT: the TRANSFERs that follow with
 *	%VSEG_PAGING_F_ENCRYPT or %VSEG_PAGING_F_DECRYPT encrypt or decrypt a
 *	protected buffer whose first byte is at GPU physical address @dst in
 *	its segment, with the nonce @src, under the key of
 *	&vseg_hw_ops.set_vpr_key.
 * @VSEG_PAGING_OP_UPDATE_PT: write @size / 8 page-table entries from the
 *	one at GPU physical address @dst with the values at @src (a copy,
 *	each entry written whole, 8 bytes at a time, so that the MMU never
 *	reads half of one): DXGK_BUILDPAGINGBUFFER_UPDATEPAGETABLE.
 * @VSEG_PAGING_OP_FLUSH_TLB: the MMU forgets every entry it cached, once
 *	an engine step in progress has ended (as &vseg_hw_ops.flush_tlb):
 *	DXGK_BUILDPAGINGBUFFER_FLUSHTLB.
 * @VSEG_PAGING_OP_TRANSFER_VIRTUAL: as TRANSFER, but @dst and @src are GPU
 *	virtual addresses of the paging engine's own VA space (the root of
 *	&vseg_hw_ops.set_paging_root), which the MMU translates a page at a
 *	time, through its TLB: DXGK_BUILDPAGINGBUFFER_TRANSFERVIRTUAL. An
 *	address without a VALID entry (or a write through a READONLY one)
 *	fails the operation with -EFAULT; the bytes before it are written.
 * @VSEG_PAGING_OP_FILL_VIRTUAL: as FILL, @dst being a GPU virtual address
 *	of the paging VA space: DXGK_BUILDPAGINGBUFFER_FILLVIRTUAL.
 * @VSEG_PAGING_NUM_OPCODES: number of values.
 */
enum vseg_paging_opcode {
	VSEG_PAGING_OP_TRANSFER,
	VSEG_PAGING_OP_FILL,
	VSEG_PAGING_OP_DISCARD,
	VSEG_PAGING_OP_MAP_APERTURE,
	VSEG_PAGING_OP_UNMAP_APERTURE,
	VSEG_PAGING_OP_CRYPT_CONTEXT,
	VSEG_PAGING_OP_UPDATE_PT,
	VSEG_PAGING_OP_FLUSH_TLB,
	VSEG_PAGING_OP_TRANSFER_VIRTUAL,
	VSEG_PAGING_OP_FILL_VIRTUAL,
	VSEG_PAGING_NUM_OPCODES
};

/* MAP_APERTURE: the first run of a range (counted as one bind). */
#define VSEG_PAGING_F_NEW_RANGE	BIT(0)
/* TRANSFER out of a protected buffer's segment: encrypt what is written. */
#define VSEG_PAGING_F_ENCRYPT	BIT(1)
/* TRANSFER into a protected buffer's segment: decrypt what is written. */
#define VSEG_PAGING_F_DECRYPT	BIT(2)

/**
 * struct vseg_paging_op - one operation, as written into the paging buffer
 * @opcode: &enum vseg_paging_opcode.
 * @flags: VSEG_PAGING_F_*.
 * @dst: destination: a GPU physical address, or an aperture byte offset
 *	for MAP/UNMAP, or a GPU virtual address of the paging VA space for
 *	the _VIRTUAL operations.
 * @src: source GPU physical address (TRANSFER_VIRTUAL: virtual); FILL and
 *	FILL_VIRTUAL: the pattern; MAP: the physical address of the first
 *	system page.
 * @size: bytes.
 *
 * The paging engine reaches memory physically, without a page table, and
 * never through the aperture: a memory segment's bytes by their GPU
 * physical address (segment base plus offset), system pages by
 * VSEG_HW_SYSTEM_ADDR() of their physical address. The core writes
 * nothing the engine would have to look up. The exceptions are
 * TRANSFER_VIRTUAL and FILL_VIRTUAL, whose addresses the MMU translates
 * through the paging VA space's page tables (which UPDATE_PT operations
 * of the same batch point at the memory, followed by a FLUSH_TLB). Fixed
 * size: the paging buffer is an array of these.
 */
struct vseg_paging_op {
	u32 opcode;
	u32 flags;
	u64 dst;
	u64 src;
	u64 size;
};

/**
 * struct vseg_hw_paging_result - what the paging engine reports of a run
 * @executed: operations that ran, per opcode.
 * @failed: operations that failed (a bad address: a driver bug).
 * @bytes: bytes transferred or filled (physically or virtually).
 * @gart_set: GART entries that became valid.
 * @gart_cleared: valid GART entries that were invalidated.
 * @gart_binds: MAP_APERTUREs that began a range (%VSEG_PAGING_F_NEW_RANGE).
 * @gart_unbinds: UNMAP_APERTUREs that invalidated a valid entry.
 *
 * Added to, never reset, by &vseg_hw_ops.run_paging: the core's counters.
 */
struct vseg_hw_paging_result {
	u64 executed[VSEG_PAGING_NUM_OPCODES];
	u64 failed;
	u64 bytes;
	u64 gart_set;
	u64 gart_cleared;
	u64 gart_binds;
	u64 gart_unbinds;
};

/* Bytes of the key the paging engine encrypts protected content with. */
#define VSEG_HW_VPR_KEY_SIZE	32

/**
 * struct vseg_hw_ops - the GPU, as vseg drives it
 * @run_commands: run @job's commands on its engine, in order, from the
 *	engine's queue (in the fence signalling path: allocate nothing,
 *	take no lock but the GART's). Returns 0, -EFAULT at the first
 *	command that reaches memory it may not (the rest is skipped), or
 *	-ETIME when @job->stop was set. DxgkDdiSubmitCommand and the
 *	engine's execution of the DMA buffer.
 * @run_paging: run @num paging operations of @ops on the paging engine,
 *	in order, each read once (the paging buffer may be write-combined
 *	memory); one that fails does not stop the rest. Adds what ran to
 *	@res. In the fence signalling path, as @run_commands, or at once in
 *	the core's thread (before the paging buffer exists, and for
 *	operations with nothing to wait for). Returns 0 or the first
 *	failure's error (-EFAULT, -EINVAL). The paging buffer that
 *	DxgkDdiBuildPagingBuffer wrote, handed over by DxgkDdiSubmitCommand
 *	on the paging node.
 * @set_vpr_key: program the key (%VSEG_HW_VPR_KEY_SIZE bytes) the paging
 *	engine encrypts and decrypts protected content with; once, at load,
 *	before any paging operation.
 * @gart_setup: the aperture segment: @num_entries GART entries (one per
 *	host page), translating GPU physical addresses from @base on; every
 *	entry invalid. At load, before any other GART call; again replaces
 *	the GART. Returns 0 or -ENOMEM. A real GPU's GART has its size: the
 *	driver reports it as the aperture segment's size.
 * @gart_write: point entries @first to @first + @num - 1 at the
 *	physically contiguous system pages from physical address @phys
 *	(page aligned); *@set receives how many were invalid before.
 *	Returns 0 or -EINVAL for a run outside the GART. May sleep.
 *	DXGK_BUILDPAGINGBUFFER_MAPAPERTURESEGMENT, for the core's own binds
 *	(the paging engine's MAP_APERTURE does the same).
 * @gart_clear: invalidate entries @first to @first + @num - 1; *@cleared
 *	receives how many were valid. Once it returns, no engine step uses
 *	the old entries any more (the pages behind them may be freed).
 *	Returns 0 or -EINVAL for a run outside the GART. May sleep.
 *	DXGK_BUILDPAGINGBUFFER_UNMAPAPERTURESEGMENT.
 * @gart_read: read entries @first to @first + @num - 1 back, each as a
 *	system page's physical address or %VSEG_HW_GART_INVALID, into the
 *	array @entries. Returns how many were read (fewer at the
 *	GART's end). For debugfs.
 * @host_aperture_setup: CPU host aperture window @window (below
 *	%VSEG_HW_MAX_WINDOWS; the core numbers them by segment id) of
 *	@num_slots slots, each one host page (PAGE_SIZE) of the window, all
 *	clear; 0 slots removes it. At load, before the window's slots are
 *	programmed. Returns 0, -EINVAL (no such window) or -ENOMEM. A real
 *	GPU's window has its size: the driver reports it as the segment's
 *	CPU host aperture (DXGK_SEGMENTFLAGS CpuVisible through a
 *	DXGK_CPUHOSTAPERTURE).
 * @host_slot_set: program slot @slot of window @window to show the page
 *	at GPU physical address @addr (a memory segment's page, page
 *	aligned, backed), or clear it with %VSEG_HW_SLOT_CLEAR. Returns the
 *	page frame number of the slot's page of the window, which the CPU
 *	maps, or 0 when the slot is cleared or cannot show @addr. May sleep.
 *	What DXGK_CPUHOSTAPERTURE's driver programs when the video memory
 *	manager maps a page of the segment for the CPU.
 * @flush_tlb: drop every page-table entry the MMU has cached; returns
 *	once no engine uses a translation made before (an engine step in
 *	progress ends first). May sleep. DXGK_BUILDPAGINGBUFFER_FLUSHTLB,
 *	for the core's own binds and unbinds (the paging engine's FLUSH_TLB
 *	does the same).
 * @set_paging_root: the paging engine's own VA space (WDDM's paging
 *	process): the bus address of its root page table (level 0; a
 *	system page, VSEG_HW_SYSTEM_ADDR()), through which TRANSFER_VIRTUAL
 *	and FILL_VIRTUAL translate; 0 for none (they fail with -EFAULT).
 *	Once at load, before any such operation, and 0 again at teardown.
 *	What the GPU's paging engine is told of the paging process's page
 *	directory (its root is fixed for the device's life).
 * @release: free what the attach function allocated; the last call, at
 *	the device's teardown.
 */
struct vseg_hw_ops {
	int (*run_commands)(struct vseg_hw *hw, struct vseg_hw_cmd_job *job);
	int (*run_paging)(struct vseg_hw *hw, const struct vseg_paging_op *ops,
			  u32 num, struct vseg_hw_paging_result *res);
	void (*set_vpr_key)(struct vseg_hw *hw, const u8 *key);
	int (*gart_setup)(struct vseg_hw *hw, u64 base, u64 num_entries);
	int (*gart_write)(struct vseg_hw *hw, u64 first, u64 phys, u64 num,
			  u64 *set);
	int (*gart_clear)(struct vseg_hw *hw, u64 first, u64 num,
			  u64 *cleared);
	u64 (*gart_read)(struct vseg_hw *hw, u64 first, u64 *entries,
			 u64 num);
	int (*host_aperture_setup)(struct vseg_hw *hw, u32 window,
				   u32 num_slots);
	unsigned long (*host_slot_set)(struct vseg_hw *hw, u32 window,
				       u32 slot, u64 addr);
	void (*flush_tlb)(struct vseg_hw *hw);
	void (*set_paging_root)(struct vseg_hw *hw, u64 root);
	void (*release)(struct vseg_hw *hw);
};

/**
 * struct vseg_hw - one GPU behind the interface
 * @ops: its operations, set by its attach function.
 * @bus: the core's bus, handed to it at attach.
 * @priv: the implementation's own state.
 * @display: its display controller, set by its attach function (or by a
 *	display's own attach function, after it).
 */
struct vseg_hw {
	const struct vseg_hw_ops *ops;
	struct vseg_hw_bus *bus;
	void *priv;
	struct vseg_hw_display *display;
};

int vseg_sim_attach(struct vseg_hw *hw, struct vseg_hw_bus *bus);
int vseg_sim_mmu_walk(struct vseg_hw_bus *bus, u64 root, u64 va, u64 *pte);
int vseg_bochs_attach(struct vseg_hw *hw, struct pci_dev *pdev);
bool vseg_bochs_matches(const struct pci_dev *pdev);

#endif /* __VSEG_HW_H__ */
