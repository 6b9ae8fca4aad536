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

/**
 * struct vseg_hw_bus_ops - the bus: GPU physical addresses
 * @hold: keep what the bus resolves addresses with (the GART's entries)
 *	from changing until @release; taken around every @map of an
 *	aperture address, and held at most for one step of a command
 *	(VSEG_SIM_STEP bytes). May sleep.
 * @release: undo @hold.
 * @map: the kernel address of GPU physical address @addr: a memory
 *	segment's byte (its segment's GPU base address plus its offset), or
 *	an aperture byte (translated through the GART's entry, with @hold
 *	held). @len receives how many bytes follow contiguously (at most to
 *	the end of the host page); @write: the bytes will be written.
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
 * @translate: a virtual job: the kernel address of GPU virtual address
 *	@va on @port, through the submitting file's address space as the
 *	job sees it (its buffers where they were when it was queued);
 *	@len receives how many bytes follow contiguously. NULL for a hole,
 *	a buffer the job does not hold, or a @write to a read-only
 *	mapping: the engine faults the job (-EFAULT). Allocates nothing.
 * @untranslate: undo the last @translate of @port.
 *
 * Until vseg has GPU page tables, the address space is the core's
 * (vseg_vm.c), and @translate is the MMU's walk.
 */
struct vseg_hw_cmd_job_ops {
	bool (*allowed)(struct vseg_hw_cmd_job *job,
			const struct drm_vseg_cmd *c);
	void *(*translate)(struct vseg_hw_cmd_job *job, enum vseg_hw_port port,
			   u64 va, u64 *len, bool write);
	void (*untranslate)(struct vseg_hw_cmd_job *job,
			    enum vseg_hw_port port);
};

/**
 * struct vseg_hw_cmd_job - a command job of the copy or render engine
 * @ops: the job's callbacks.
 * @cmds: its commands (struct drm_vseg_cmd), patched: a physical job's
 *	addresses are GPU physical addresses, a virtual job's GPU virtual
 *	addresses.
 * @num_cmds: entries in @cmds.
 * @virtual: the render engine's (addresses through @ops.translate), else
 *	the copy engine's (through the bus).
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
 * @release: free what the attach function allocated; the last call, at
 *	the device's teardown.
 */
struct vseg_hw_ops {
	int (*run_commands)(struct vseg_hw *hw, struct vseg_hw_cmd_job *job);
	void (*set_scanout)(struct vseg_hw *hw, u32 head,
			    const struct vseg_hw_scanout *s);
	bool (*get_scanout)(struct vseg_hw *hw, u32 head,
			    struct vseg_hw_scanout *s);
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

#endif /* __VSEG_HW_H__ */
