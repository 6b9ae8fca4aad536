/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Copyright (c) 2026 The vseg authors
 */
#ifndef __VSEG_SEGMENT_H__
#define __VSEG_SEGMENT_H__

#include <linux/bits.h>
#include <linux/sizes.h>
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
#define VSEG_MAX_UEFI_RANGES		4
#define VSEG_NAME_LEN			16
#define VSEG_MAX_BAR			5	/* a PCI device's BARs: 0..5 */

/*
 * The paging buffer (DXGK_QUERYSEGMENTOUT's PagingBufferSize): room for at
 * least one paging operation, at most what one contiguous allocation of
 * write-combined system memory can give; its private data is bounded too.
 */
#define VSEG_PAGING_BUFFER_MIN		32
#define VSEG_PAGING_BUFFER_MAX		SZ_4M
#define VSEG_PAGING_PRIVATE_MAX		SZ_64K

/*
 * Size limits. A memory segment is backed lazily (a system page for each
 * host page written), so its size costs nothing until it is used; TTM
 * addresses it in 32-bit page numbers (fpfn/lpfn), which end at 16 TiB.
 * The aperture's GART is a table allocated at load, 8 bytes per page.
 */
#define VSEG_MEMORY_SIZE_LIMIT		SZ_1T
#define VSEG_APERTURE_SIZE_LIMIT	SZ_4G
/* Size of an Agp aperture when no parameter gives one (its table size is ignored). */
#define VSEG_AGP_DEFAULT_SIZE		SZ_64M

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
#define VSEG_SEGF_RESERVED_DDR_BY_FIRMWARE	BIT_ULL(21)
#define VSEG_SEGF_NUM				22
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
 * @cpu_translated_address: CPU/bus base, CPU-visible memory segments only
 *	(nonzero and host-page aligned there, zero on other memory segments);
 *	ignored on the aperture, where vseg_segment_table_normalize() sets 0.
 * @size: bytes.
 * @cpu_visible_size: bytes from offset 0 the CPU reaches (0 if not visible).
 * @commit_limit: bytes that may be committed; on a memory segment 0 or
 *	its size (vseg_segment_table_normalize() turns 0 into the size).
 * @system_memory_end: DXGK_SEGMENTDESCRIPTOR4.SystemMemoryEndAddress.
 * @page_size: SZ_4K or SZ_64K.
 * @num_banks: number of banks (0 without banking).
 * @bank_end: end offset (exclusive) of each bank; last == @size.
 * @num_invalid: number of invalid ranges.
 * @invalid: ranges never handed out.
 * @host_aperture_address: CPU address of the CPU host aperture
 *	(DXGK_CPUHOSTAPERTURE), SupportsCpuHostAperture segments only.
 * @host_aperture_size: size of the CPU host aperture, 0 without one.
 * @vpr_start: VprRangeStartOffset.
 * @vpr_size: VprRangeSize, 0 without a video protected region.
 * @vpr_alignment: VprAlignment.
 * @num_vpr_supported: NumVprSupported (0: no limit).
 * @vpr_reserve_size: VprReserveSize.
 * @num_uefi: NumUEFIFrameBufferRanges.
 * @uefi: the UEFI frame-buffer ranges.
 * @name: short name, used in logs and debugfs file names.
 * @on_bar: a memory segment on a PCI device's BAR (the table's bar key):
 *	the device's probe makes its first bytes the BAR's memory, and sets
 *	@cpu_translated_address and @cpu_visible_size from the BAR.
 * @bar: that BAR's index (0 to %VSEG_MAX_BAR).
 * @bar_offset: where in the BAR the segment starts.
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
	u64 host_aperture_address;
	u64 host_aperture_size;
	u64 vpr_start;
	u64 vpr_size;
	u32 vpr_alignment;
	u32 num_vpr_supported;
	u32 vpr_reserve_size;
	u32 num_uefi;
	struct vseg_range uefi[VSEG_MAX_UEFI_RANGES];
	char name[VSEG_NAME_LEN];
	bool on_bar;
	u32 bar;
	u64 bar_offset;
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

/**
 * enum vseg_table_rule - the rules vseg_segment_table_check() enforces
 * @VSEG_RULE_NONE: no rule is broken: the table is valid.
 * @VSEG_RULE_NO_SEGMENTS: the table has no segment.
 * @VSEG_RULE_TOO_MANY_SEGMENTS: more than %VSEG_MAX_SEGMENTS segments.
 * @VSEG_RULE_SEGMENT_IDS: the segment ids are not 1, 2, ... in table order.
 * @VSEG_RULE_TOO_MANY_MEMORY_SEGMENTS: more than
 *	%VSEG_MAX_MEMORY_SEGMENTS memory segments (TTM's memory types).
 * @VSEG_RULE_APERTURE_COUNT: not exactly one aperture segment.
 * @VSEG_RULE_PAGING_SEGMENT: the paging buffer segment is neither the
 *	aperture nor 0 (system memory).
 * @VSEG_RULE_NAME: the name is empty, not NUL-terminated within
 *	%VSEG_NAME_LEN bytes, or has a character outside [a-z0-9_].
 * @VSEG_RULE_NAME_DUPLICATE: an earlier segment has the same name.
 * @VSEG_RULE_KIND: the kind is neither memory nor aperture.
 * @VSEG_RULE_KIND_FLAGS: the kind is aperture exactly when Aperture or Agp
 *	is set, and it is not.
 * @VSEG_RULE_UNKNOWN_FLAGS: a flag outside %VSEG_SEGF_ALL is set.
 * @VSEG_RULE_AGP_ALONE: Agp is set together with another flag.
 * @VSEG_RULE_HIBERNATE_NEEDS_STANDBY: PreservedDuringHibernate without
 *	PreservedDuringStandby.
 * @VSEG_RULE_PARTIAL_HIBERNATE_NEEDS_STANDBY:
 *	PartiallyPreservedDuringHibernate without PreservedDuringStandby.
 * @VSEG_RULE_HIBERNATE_EXCLUSIVE: PreservedDuringHibernate together with
 *	PartiallyPreservedDuringHibernate.
 * @VSEG_RULE_CACHE_COHERENT: CacheCoherent on a memory segment.
 * @VSEG_RULE_POPULATED_FROM_SYSMEM: PopulatedFromSystemMemory on the
 *	aperture.
 * @VSEG_RULE_CPU_HOST_APERTURE: SupportsCpuHostAperture together with
 *	CpuVisible.
 * @VSEG_RULE_CACHED_CPU_HOST_APERTURE: SupportsCachedCpuHostAperture
 *	without SupportsCpuHostAperture.
 * @VSEG_RULE_VPR_STANDBY: VprPreservedDuringStandby without VprSupported.
 * @VSEG_RULE_SIZE_ZERO: the size is 0.
 * @VSEG_RULE_SIZE_HOST_PAGE: the size is not a multiple of the host page
 *	size (PAGE_SIZE).
 * @VSEG_RULE_PAGE_SIZE: the page size is neither 4 KiB nor 64 KiB.
 * @VSEG_RULE_APERTURE_PAGE_SIZE: the aperture's page size is not 4 KiB.
 * @VSEG_RULE_PAGE_SIZE_FLAG: Use64KBPages does not match the page size.
 * @VSEG_RULE_SIZE_ALIGN: the size is not a multiple of the page size.
 * @VSEG_RULE_SIZE_LIMIT: a memory segment's size is above
 *	%VSEG_MEMORY_SIZE_LIMIT (1 TiB).
 * @VSEG_RULE_APERTURE_SIZE_LIMIT: the aperture's size is above
 *	%VSEG_APERTURE_SIZE_LIMIT (4 GiB).
 * @VSEG_RULE_MEMORY_COMMIT: a memory segment's commit limit is neither 0
 *	(its size: DXGK_SEGMENTDESCRIPTOR4's CommitLimit applies to the
 *	aperture only) nor its size.
 * @VSEG_RULE_APERTURE_COMMIT_SIZE: the aperture's commit limit is above
 *	its size.
 * @VSEG_RULE_APERTURE_COMMIT_ALIGN: the aperture's commit limit is 0 or
 *	not a multiple of the page size.
 * @VSEG_RULE_APERTURE_BANKS: the aperture has banks.
 * @VSEG_RULE_TOO_MANY_BANKS: more than %VSEG_MAX_BANKS banks.
 * @VSEG_RULE_BANKS_WITHOUT_BANKING: banks without UseBanking.
 * @VSEG_RULE_BANKING_WITHOUT_BANKS: UseBanking without a bank (NbOfBanks 0).
 * @VSEG_RULE_BANK_ALIGN: a bank end is not a multiple of the page size.
 * @VSEG_RULE_BANK_ORDER: a bank end is not above the previous one (or 0
 *	for the first bank).
 * @VSEG_RULE_BANK_OUTSIDE: a bank other than the last ends at or beyond
 *	the size, or the last one does not end at the size.
 * @VSEG_RULE_APERTURE_VISIBLE: the aperture has a CPU-visible size.
 * @VSEG_RULE_VISIBLE_WITHOUT_FLAG: a memory segment has a CPU-visible size
 *	without CpuVisible.
 * @VSEG_RULE_VISIBLE_ZERO: CpuVisible with a CPU-visible size of 0.
 * @VSEG_RULE_VISIBLE_SIZE: the CPU-visible size is above the size.
 * @VSEG_RULE_VISIBLE_ALIGN: the CPU-visible size is not a multiple of the
 *	page size.
 * @VSEG_RULE_CPU_ADDRESS_WITHOUT_FLAG: a memory segment has a
 *	CPU-translated address without CpuVisible.
 * @VSEG_RULE_CPU_ADDRESS_ZERO: CpuVisible with a CPU-translated address of 0.
 * @VSEG_RULE_CPU_ADDRESS_ALIGN: the CPU-translated address is not a
 *	multiple of the host page size (PAGE_SIZE).
 * @VSEG_RULE_CPU_RANGE_WRAPS: the CPU-visible range from the
 *	CPU-translated address goes past the end of the address space.
 * @VSEG_RULE_SYSTEM_MEMORY_END: the system memory end is beyond the size.
 * @VSEG_RULE_TOO_MANY_INVALID_RANGES: more than %VSEG_MAX_INVALID_RANGES
 *	invalid ranges.
 * @VSEG_RULE_INVALID_RANGE: an invalid range is empty, not page aligned
 *	(start or size) or not inside the segment.
 * @VSEG_RULE_INVALID_RANGE_OVERLAP: two invalid ranges overlap.
 * @VSEG_RULE_GPU_RANGE_OVERLAP: the GPU address ranges of two segments
 *	overlap (an Agp aperture has none of its own).
 * @VSEG_RULE_PAGING_SIZE: the paging buffer has no room for one operation
 *	(%VSEG_PAGING_BUFFER_MIN bytes), is above %VSEG_PAGING_BUFFER_MAX,
 *	or, in the aperture, above its commit limit.
 * @VSEG_RULE_PAGING_PRIVATE_SIZE: the paging buffer's private data is
 *	above %VSEG_PAGING_PRIVATE_MAX.
 * @VSEG_RULE_VPR_APERTURE: VprSupported on the aperture.
 * @VSEG_RULE_ENCRYPTED_PAGING: EncryptedPagingSupported without
 *	VprSupported.
 * @VSEG_RULE_VPR_WITHOUT_FLAG: a video protected region field (start,
 *	size, alignment, count, reserve) is set without VprSupported.
 * @VSEG_RULE_VPR_SIZE_ZERO: VprSupported without a VPR size.
 * @VSEG_RULE_VPR_RANGE: the VPR start or size is not a multiple of the
 *	VPR alignment (when nonzero) or of the page size, or the VPR is not
 *	inside the segment.
 * @VSEG_RULE_VPR_INVALID_OVERLAP: the VPR overlaps an invalid range.
 * @VSEG_RULE_VPR_UEFI_OVERLAP: the VPR overlaps a UEFI frame-buffer range.
 * @VSEG_RULE_VPR_RESERVE: the VPR reserve is above the VPR size or not a
 *	multiple of the page size.
 * @VSEG_RULE_RESERVED_DDR_ON_APERTURE: PopulatedByReservedDDRByFirmware
 *	on the aperture (the flag says where a memory segment's memory comes
 *	from).
 * @VSEG_RULE_UEFI_ON_APERTURE: UEFI frame-buffer ranges on the aperture.
 * @VSEG_RULE_TOO_MANY_UEFI_RANGES: more than %VSEG_MAX_UEFI_RANGES UEFI
 *	frame-buffer ranges.
 * @VSEG_RULE_UEFI_RANGE: a UEFI frame-buffer range is empty, not page
 *	aligned (start or size) or not inside the segment.
 * @VSEG_RULE_UEFI_RANGE_OVERLAP: a UEFI frame-buffer range overlaps
 *	another one or an invalid range.
 * @VSEG_RULE_HOST_APERTURE_ON_APERTURE: the aperture segment has
 *	SupportsCpuHostAperture or a CPU host aperture (memory segments only).
 * @VSEG_RULE_HOST_APERTURE_WITHOUT_FLAG: a memory segment has a CPU host
 *	aperture size or address without SupportsCpuHostAperture.
 * @VSEG_RULE_HOST_APERTURE_SIZE_ZERO: SupportsCpuHostAperture without a
 *	CPU host aperture size.
 * @VSEG_RULE_HOST_APERTURE_SIZE: the CPU host aperture size is not a
 *	multiple of the host page size (PAGE_SIZE) or is above the segment
 *	size.
 * @VSEG_RULE_HOST_APERTURE_ADDRESS_ZERO: SupportsCpuHostAperture without
 *	a CPU host aperture address.
 * @VSEG_RULE_HOST_APERTURE_ADDRESS_ALIGN: the CPU host aperture address
 *	is not a multiple of the host page size.
 * @VSEG_RULE_HOST_APERTURE_WRAPS: the CPU host aperture goes past the end
 *	of the address space.
 * @VSEG_RULE_HOST_APERTURE_OVERLAP: the CPU host aperture overlaps another
 *	segment's CPU-visible range or CPU host aperture.
 * @VSEG_RULE_COUNT: number of values; not a rule.
 *
 * The rules in the order they are checked: the table as a whole, then each
 * segment in table order (name, kind, flags, size, banks, CPU visibility
 * and CPU-translated address, invalid ranges), then the GPU address ranges
 * across segments, then the paging buffer's size, then each segment's CPU
 * host aperture. The firmware and video protected region rules, appended
 * later, are checked for each segment after its invalid ranges.
 */
enum vseg_table_rule {
	VSEG_RULE_NONE,
	/* the table as a whole */
	VSEG_RULE_NO_SEGMENTS,
	VSEG_RULE_TOO_MANY_SEGMENTS,
	VSEG_RULE_SEGMENT_IDS,
	VSEG_RULE_TOO_MANY_MEMORY_SEGMENTS,
	VSEG_RULE_APERTURE_COUNT,
	VSEG_RULE_PAGING_SEGMENT,
	/* name and kind */
	VSEG_RULE_NAME,
	VSEG_RULE_NAME_DUPLICATE,
	VSEG_RULE_KIND,
	VSEG_RULE_KIND_FLAGS,
	/* flags */
	VSEG_RULE_UNKNOWN_FLAGS,
	VSEG_RULE_AGP_ALONE,
	VSEG_RULE_HIBERNATE_NEEDS_STANDBY,
	VSEG_RULE_PARTIAL_HIBERNATE_NEEDS_STANDBY,
	VSEG_RULE_HIBERNATE_EXCLUSIVE,
	VSEG_RULE_CACHE_COHERENT,
	VSEG_RULE_POPULATED_FROM_SYSMEM,
	VSEG_RULE_CPU_HOST_APERTURE,
	VSEG_RULE_CACHED_CPU_HOST_APERTURE,
	VSEG_RULE_VPR_STANDBY,
	/* size, page size, commit limit */
	VSEG_RULE_SIZE_ZERO,
	VSEG_RULE_SIZE_HOST_PAGE,
	VSEG_RULE_PAGE_SIZE,
	VSEG_RULE_APERTURE_PAGE_SIZE,
	VSEG_RULE_PAGE_SIZE_FLAG,
	VSEG_RULE_SIZE_ALIGN,
	VSEG_RULE_SIZE_LIMIT,
	VSEG_RULE_APERTURE_SIZE_LIMIT,
	VSEG_RULE_MEMORY_COMMIT,
	VSEG_RULE_APERTURE_COMMIT_SIZE,
	VSEG_RULE_APERTURE_COMMIT_ALIGN,
	/* banks */
	VSEG_RULE_APERTURE_BANKS,
	VSEG_RULE_TOO_MANY_BANKS,
	VSEG_RULE_BANKS_WITHOUT_BANKING,
	VSEG_RULE_BANKING_WITHOUT_BANKS,
	VSEG_RULE_BANK_ALIGN,
	VSEG_RULE_BANK_ORDER,
	VSEG_RULE_BANK_OUTSIDE,
	/* CPU visibility, CPU-translated address, system memory end */
	VSEG_RULE_APERTURE_VISIBLE,
	VSEG_RULE_VISIBLE_WITHOUT_FLAG,
	VSEG_RULE_VISIBLE_ZERO,
	VSEG_RULE_VISIBLE_SIZE,
	VSEG_RULE_VISIBLE_ALIGN,
	VSEG_RULE_CPU_ADDRESS_WITHOUT_FLAG,
	VSEG_RULE_CPU_ADDRESS_ZERO,
	VSEG_RULE_CPU_ADDRESS_ALIGN,
	VSEG_RULE_CPU_RANGE_WRAPS,
	VSEG_RULE_SYSTEM_MEMORY_END,
	/* invalid ranges */
	VSEG_RULE_TOO_MANY_INVALID_RANGES,
	VSEG_RULE_INVALID_RANGE,
	VSEG_RULE_INVALID_RANGE_OVERLAP,
	/* across segments */
	VSEG_RULE_GPU_RANGE_OVERLAP,
	/* the paging buffer */
	VSEG_RULE_PAGING_SIZE,
	VSEG_RULE_PAGING_PRIVATE_SIZE,
	/* the video protected region (checked after the invalid ranges) */
	VSEG_RULE_VPR_APERTURE,
	VSEG_RULE_ENCRYPTED_PAGING,
	VSEG_RULE_VPR_WITHOUT_FLAG,
	VSEG_RULE_VPR_SIZE_ZERO,
	VSEG_RULE_VPR_RANGE,
	VSEG_RULE_VPR_INVALID_OVERLAP,
	VSEG_RULE_VPR_UEFI_OVERLAP,
	VSEG_RULE_VPR_RESERVE,
	/* firmware: bit 21 and the UEFI frame-buffer ranges */
	VSEG_RULE_RESERVED_DDR_ON_APERTURE,
	VSEG_RULE_UEFI_ON_APERTURE,
	VSEG_RULE_TOO_MANY_UEFI_RANGES,
	VSEG_RULE_UEFI_RANGE,
	VSEG_RULE_UEFI_RANGE_OVERLAP,
	/* the CPU host aperture, after the paging buffer */
	VSEG_RULE_HOST_APERTURE_ON_APERTURE,
	VSEG_RULE_HOST_APERTURE_WITHOUT_FLAG,
	VSEG_RULE_HOST_APERTURE_SIZE_ZERO,
	VSEG_RULE_HOST_APERTURE_SIZE,
	VSEG_RULE_HOST_APERTURE_ADDRESS_ZERO,
	VSEG_RULE_HOST_APERTURE_ADDRESS_ALIGN,
	VSEG_RULE_HOST_APERTURE_WRAPS,
	VSEG_RULE_HOST_APERTURE_OVERLAP,
	VSEG_RULE_COUNT
};

#define VSEG_TABLE_ERROR_MSG_LEN	128

/**
 * struct vseg_table_error - the first rule a segment table breaks
 * @segment: id of the segment that breaks @rule, 0 for a rule of the
 *	table as a whole. For %VSEG_RULE_GPU_RANGE_OVERLAP, the later of the
 *	two segments.
 * @rule: the rule, %VSEG_RULE_NONE if the table is valid.
 * @msg: the rule and the values that break it, in words, without the
 *	segment; empty if the table is valid. The text of the kernel-log
 *	line vseg_segment_table_validate() prints.
 */
struct vseg_table_error {
	u32 segment;
	enum vseg_table_rule rule;
	char msg[VSEG_TABLE_ERROR_MSG_LEN];
};

int vseg_segment_table_from_profile(struct vseg_segment_table *t,
				    const char *profile,
				    const struct vseg_profile_overrides *ovr);
int vseg_segment_table_parse(struct vseg_segment_table *t, const char *text);
void vseg_segment_table_normalize(struct vseg_segment_table *t);
void vseg_segment_table_size_agp(struct vseg_segment_table *t, u64 size,
				 u64 commit);
int vseg_segment_table_check(const struct vseg_segment_table *t,
			     struct vseg_table_error *err);
int vseg_segment_table_validate(const struct vseg_segment_table *t);

const char *vseg_segment_flag_name(unsigned int bit);
const char *vseg_segment_kind_name(enum vseg_segment_kind kind);
const struct vseg_segment_desc *
vseg_segment_table_aperture(const struct vseg_segment_table *t);
unsigned int vseg_segment_table_num_memory(const struct vseg_segment_table *t);

#endif /* __VSEG_SEGMENT_H__ */
