/* SPDX-License-Identifier: MIT */
/*
 * Names and sizes every part of the vseg test library uses.
 *
 * Copyright (c) 2026 The vseg authors
 */
#ifndef IGT_VSEG_DEFS_H
#define IGT_VSEG_DEFS_H

#define VSEG_MODULE	"vseg"
#define VSEG_DRIVER	"vseg"

#ifndef SZ_4K
#define SZ_4K	0x1000ull
#endif
#ifndef SZ_64K
#define SZ_64K	0x10000ull
#endif
#ifndef SZ_1M
#define SZ_1M	0x100000ull
#endif
#ifndef SZ_4M
#define SZ_4M	0x400000ull
#endif
#ifndef SZ_8M
#define SZ_8M	0x800000ull
#endif
#ifndef SZ_16M
#define SZ_16M	0x1000000ull
#endif
#ifndef SZ_32M
#define SZ_32M	0x2000000ull
#endif
#ifndef SZ_64M
#define SZ_64M	0x4000000ull
#endif
#define VSEG_APERTURE_BASE	0x100000000ull
#define VSEG_PAGING_SIZE	0x10000u

/* Bit of segment @id in a set of segments (bit 0: system memory). */
#define VSEG_SEG_BIT(id)	(1u << (id))

/*
 * The flags of the UAPI this suite knows (the header has no masks: a
 * program learns what the kernel takes from its version). Create flags
 * outside VSEG_GEM_CREATE_FLAGS_KNOWN must be refused on the discrete
 * profile: DRM_VSEG_GEM_CREATE_PROTECTED is, for want of a segment with a
 * video protected region there.
 */
#define VSEG_SEGMENT_FLAGS_KNOWN \
	((DRM_VSEG_SEGMENT_POPULATED_BY_RESERVED_DDR_BY_FIRMWARE << 1) - 1)
#define VSEG_GEM_CREATE_FLAGS_KNOWN \
	(DRM_VSEG_GEM_CREATE_ACCESSED_PHYSICALLY | \
	 DRM_VSEG_GEM_CREATE_PRIMARY | DRM_VSEG_GEM_CREATE_CPU_VISIBLE | \
	 DRM_VSEG_GEM_CREATE_FROM_END_OF_SEGMENT | \
	 DRM_VSEG_GEM_CREATE_VM_PRIVATE)
#ifndef BIT
#define BIT(n)			(1u << (n))
#endif

#endif /* IGT_VSEG_DEFS_H */
