/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Copyright (c) 2026 The vseg authors
 */
#ifndef __VSEG_SEGMENT_H__
#define __VSEG_SEGMENT_H__

#include <linux/bits.h>
#include <linux/types.h>

/*
 * The segment table: a description of a GPU's memory in the terms of the
 * WDDM segment model (DXGK_QUERYSEGMENTOUT4 / DXGK_SEGMENTDESCRIPTOR4).
 *
 * This layer is pure data and rules: it builds tables from built-in
 * profiles or from a text description and validates them. It knows
 * nothing of TTM, ioctls or the device.
 */

#define VSEG_MAX_SEGMENTS		7	/* 6 memory segments + aperture */
#define VSEG_MAX_MEMORY_SEGMENTS	6	/* TTM_PL_VRAM + 5 private types */
#define VSEG_MAX_BANKS			16
#define VSEG_MAX_INVALID_RANGES		4
#define VSEG_NAME_LEN			16

/* DXGK_SEGMENTFLAGS, WDDM bit order (same values as the UAPI). */
#define VSEG_SEGF_APERTURE			BIT_ULL(0)
#define VSEG_SEGF_AGP				BIT_ULL(1)
#define VSEG_SEGF_CPU_VISIBLE			BIT_ULL(2)
#define VSEG_SEGF_USE_BANKING			BIT_ULL(3)
#define VSEG_SEGF_CACHE_COHERENT		BIT_ULL(4)
#define VSEG_SEGF_PITCH_ALIGNMENT		BIT_ULL(5)
#define VSEG_SEGF_POPULATED_FROM_SYSMEM		BIT_ULL(6)
#define VSEG_SEGF_PRESERVED_STANDBY		BIT_ULL(7)
#define VSEG_SEGF_PRESERVED_HIBERNATE		BIT_ULL(8)
#define VSEG_SEGF_PARTIALLY_PRESERVED_HIBERNATE	BIT_ULL(9)
#define VSEG_SEGF_DIRECT_FLIP			BIT_ULL(10)
#define VSEG_SEGF_USE_64KB_PAGES		BIT_ULL(11)
#define VSEG_SEGF_RESERVED_SYSMEM		BIT_ULL(12)
#define VSEG_SEGF_CPU_HOST_APERTURE		BIT_ULL(13)
#define VSEG_SEGF_CACHED_CPU_HOST_APERTURE	BIT_ULL(14)
#define VSEG_SEGF_APPLICATION_TARGET		BIT_ULL(15)
#define VSEG_SEGF_VPR_SUPPORTED			BIT_ULL(16)
#define VSEG_SEGF_VPR_PRESERVED_STANDBY		BIT_ULL(17)
#define VSEG_SEGF_ENCRYPTED_PAGING		BIT_ULL(18)
#define VSEG_SEGF_LOCAL_BUDGET_GROUP		BIT_ULL(19)
#define VSEG_SEGF_NON_LOCAL_BUDGET_GROUP	BIT_ULL(20)
#define VSEG_SEGF_NUM				21
#define VSEG_SEGF_ALL				(BIT_ULL(VSEG_SEGF_NUM) - 1)

enum vseg_segment_kind {
	VSEG_SEGMENT_MEMORY = 1,
	VSEG_SEGMENT_APERTURE = 2,
};

struct vseg_range {
	u64 start;
	u64 size;
};

/**
 * struct vseg_segment_desc - one segment of a table
 * @id: segment id (1-based; index in the table + 1).
 * @kind: memory or aperture.
 * @flags: VSEG_SEGF_* (DXGK_SEGMENTFLAGS).
 * @base_address: GPU physical base.
 * @cpu_translated_address: CPU/bus base, CPU-visible segments only.
 * @size: bytes.
 * @cpu_visible_size: bytes from offset 0 the CPU reaches (0 if not visible).
 * @commit_limit: bytes that may be committed.
 * @system_memory_end: DXGK_SEGMENTDESCRIPTOR4.SystemMemoryEndAddress.
 * @page_size: SZ_4K or SZ_64K.
 * @num_banks: number of banks (0 without banking).
 * @bank_end: end offset (exclusive) of each bank; last == @size.
 * @num_invalid: number of invalid ranges.
 * @invalid: ranges never handed out.
 * @name: short name, used in logs and debugfs file names.
 */
struct vseg_segment_desc {
	u32 id;
	enum vseg_segment_kind kind;
	u64 flags;
	u64 base_address;
	u64 cpu_translated_address;
	u64 size;
	u64 cpu_visible_size;
	u64 commit_limit;
	u64 system_memory_end;
	u32 page_size;
	u32 num_banks;
	u64 bank_end[VSEG_MAX_BANKS];
	u32 num_invalid;
	struct vseg_range invalid[VSEG_MAX_INVALID_RANGES];
	char name[VSEG_NAME_LEN];
};

/**
 * struct vseg_segment_table - a whole table (DXGK_QUERYSEGMENTOUT4)
 * @num_segments: entries used in @seg.
 * @seg: the segments; @seg[i].id == i + 1.
 * @paging_buffer_segment_id: aperture id or 0.
 * @paging_buffer_size: bytes.
 * @paging_buffer_private_data_size: bytes.
 */
struct vseg_segment_table {
	u32 num_segments;
	struct vseg_segment_desc seg[VSEG_MAX_SEGMENTS];
	u32 paging_buffer_segment_id;
	u32 paging_buffer_size;
	u32 paging_buffer_private_data_size;
};

/**
 * struct vseg_profile_overrides - size overrides from module parameters
 * @mem_size: per memory segment (in table order) size in bytes, 0 = default.
 * @visible_size: CPU-visible size of the first memory segment, 0 = default.
 * @aperture_size: aperture size in bytes, 0 = default.
 * @aperture_commit: aperture commit limit in bytes, 0 = default (the
 *	profile's, clamped to the aperture size).
 */
struct vseg_profile_overrides {
	u64 mem_size[VSEG_MAX_MEMORY_SEGMENTS];
	u64 visible_size;
	u64 aperture_size;
	u64 aperture_commit;
};

int vseg_segment_table_from_profile(struct vseg_segment_table *t,
				    const char *profile,
				    const struct vseg_profile_overrides *ovr);
int vseg_segment_table_parse(struct vseg_segment_table *t, const char *text);
int vseg_segment_table_validate(const struct vseg_segment_table *t);

const char *vseg_segment_flag_name(unsigned int bit);
const char *vseg_segment_kind_name(enum vseg_segment_kind kind);
const struct vseg_segment_desc *
vseg_segment_table_aperture(const struct vseg_segment_table *t);
unsigned int vseg_segment_table_num_memory(const struct vseg_segment_table *t);

#endif /* __VSEG_SEGMENT_H__ */
