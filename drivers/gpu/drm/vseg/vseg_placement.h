/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Copyright (c) 2026 The vseg authors
 */
#ifndef __VSEG_PLACEMENT_H__
#define __VSEG_PLACEMENT_H__

#include <linux/bits.h>
#include <linux/sizes.h>
#include <linux/types.h>
#include <drm/ttm/ttm_placement.h>
#include <drm/ttm/ttm_resource.h>

#include "vseg_segment.h"

/* WDDM allocation properties (DXGK_ALLOCATIONINFOFLAGS). */
#define VSEG_BO_ACCESSED_PHYSICALLY	BIT(0)
#define VSEG_BO_PRIMARY			BIT(1)
#define VSEG_BO_CPU_VISIBLE		BIT(2)
#define VSEG_BO_FROM_END		BIT(3)
#define VSEG_BO_PROTECTED		BIT(4)
/* Not WDDM's: shares its address space's reservation (drm_gpuvm). */
#define VSEG_BO_VM_PRIVATE		BIT(5)

#define VSEG_BO_MAX_PREFERRED		5
#define VSEG_BO_MAX_BANKS		4
#define VSEG_BO_MAX_ALIGNMENT		SZ_1G
/* Longest buffer label, its NUL included. */
#define VSEG_BO_LABEL_LEN		32
/* Largest size a create may ask for, before any segment is consulted. */
#define VSEG_BO_MAX_SIZE		BIT_ULL(48)
/* Preferred + banks + every segment + system, with room to spare. */
#define VSEG_BO_MAX_PLACES		(VSEG_BO_MAX_PREFERRED + \
					 VSEG_BO_MAX_BANKS + \
					 VSEG_MAX_SEGMENTS + 2)

/**
 * struct vseg_bo_params - what a buffer is created with
 * @size: bytes, a multiple of PAGE_SIZE.
 * @alignment: 0 or a power of two, bytes.
 * @flags: VSEG_BO_*.
 * @supported: segment set the buffer may live in (bit 0 = system).
 * @eviction: 0 or the aperture's bit.
 * @num_preferred: entries in @pref_seg / @pref_topdown.
 * @pref_seg: preferred segment ids, best first.
 * @pref_topdown: allocate the matching preferred segment top-down.
 * @num_banks: entries in @banks.
 * @banks: hinted bank indices of the first preferred segment.
 * @label: the user's name for the buffer, NUL-terminated; empty if none.
 * @priority: the residency priority asked for at creation (the GEM_CREATE
 *	extension); 0 for the default (NORMAL).
 */
struct vseg_bo_params {
	u64 size;
	u64 alignment;
	u32 flags;
	u32 supported;
	u32 eviction;
	u32 num_preferred;
	u32 pref_seg[VSEG_BO_MAX_PREFERRED];
	bool pref_topdown[VSEG_BO_MAX_PREFERRED];
	u32 num_banks;
	u32 banks[VSEG_BO_MAX_BANKS];
	char label[VSEG_BO_LABEL_LEN];
	u32 priority;
};

/**
 * struct vseg_layout - a segment table laid out on TTM memory types
 * @table: the validated table.
 * @aperture_id: id of its aperture segment.
 * @mem_type: the TTM memory type of each segment id; [0] is TTM_PL_SYSTEM.
 * @seg: the segment id of each TTM memory type; 0 for TTM_PL_SYSTEM.
 * @display_seg: the memory segment a display controller that scans out
 *	one BAR alone reaches (the one on that BAR); 0: the display reaches
 *	every place an engine reaches physically. Set by vseg_display_init().
 * @display_reach: the bytes of @display_seg from its start the display
 *	reaches (the BAR's part of it).
 *
 * The only place that decides which memory type stands for which segment
 * (vseg_layout_init()): the aperture is TTM_PL_TT, memory segments take
 * TTM_PL_VRAM and then the private types in table order.
 */
struct vseg_layout {
	const struct vseg_segment_table *table;
	u32 aperture_id;
	u32 mem_type[VSEG_MAX_SEGMENTS + 1];
	u32 seg[TTM_NUM_MEM_TYPES];
	u32 display_seg;
	u64 display_reach;
};

/* Flags of vseg_place_home(). */
#define VSEG_PLACE_CPU		BIT(0)	/* only places the CPU reaches */
#define VSEG_PLACE_RESIDENT	BIT(1)	/* no system memory */

void vseg_layout_init(struct vseg_layout *l,
		      const struct vseg_segment_table *t);

static inline const struct vseg_segment_desc *
vseg_layout_desc(const struct vseg_layout *l, u32 id)
{
	return &l->table->seg[id - 1];
}

unsigned int vseg_place_display_reach(const struct vseg_layout *l,
				      const struct vseg_bo_params *p,
				      struct ttm_place *places, unsigned int n);
unsigned int vseg_place_home(const struct vseg_layout *l,
			     const struct vseg_bo_params *p, unsigned int how,
			     struct ttm_place *places);
unsigned int vseg_place_evict(const struct vseg_layout *l,
			      const struct vseg_bo_params *p, u32 from_mem_type,
			      struct ttm_place *places);
unsigned int vseg_place_physical(const struct vseg_layout *l,
				 const struct vseg_bo_params *p,
				 bool map_aperture, struct ttm_place *places);
unsigned int vseg_place_display(const struct vseg_layout *l,
				const struct vseg_bo_params *p,
				struct ttm_place *places, bool *direct);
unsigned int vseg_place_filter(const struct vseg_layout *l,
			       struct ttm_place *places, unsigned int n,
			       u32 segments);
int vseg_place_client_sets(const struct vseg_layout *l,
			   struct vseg_bo_params *p);
int vseg_place_check(const struct vseg_layout *l,
		     const struct vseg_bo_params *p, u64 *real_size);

/**
 * vseg_space_err() - the UAPI's error for a failed TTM placement
 * @err: what ttm_bo_validate() or ttm_bo_init_reserved() returned
 *
 * TTM reports "no placement has room" as -ENOMEM, for old userspace;
 * vseg's UAPI says -ENOSPC: the segment is full.
 *
 * Return: @err, with -ENOMEM turned into -ENOSPC.
 */
static inline int vseg_space_err(int err)
{
	return err == -ENOMEM ? -ENOSPC : err;
}

#endif /* __VSEG_PLACEMENT_H__ */
