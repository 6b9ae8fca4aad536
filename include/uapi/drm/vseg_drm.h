/* SPDX-License-Identifier: (GPL-2.0-only WITH Linux-syscall-note) OR MIT */
/*
 * vseg: the WDDM GPU segment memory model on DRM/TTM.
 *
 * Copyright (c) 2026 The vseg authors
 */
#ifndef _UAPI_VSEG_DRM_H_
#define _UAPI_VSEG_DRM_H_

#include "drm.h"

#if defined(__cplusplus)
extern "C" {
#endif

/**
 * DOC: vseg UAPI overview
 *
 * vseg exposes the memory of a GPU as a WDDM segment table. Segment ids
 * start at 1; id 0 is the implicit system-memory segment and never appears
 * in the table. As in WDDM, id 0 is the memory manager's, not a client's:
 * since 0.8 a client never names it in a segment set or a preferred
 * segment (-EINVAL), and places a buffer in system memory through the
 * aperture segment's id; vseg reports it (GEM_INFO's @segment_id, the
 * system usage of QUERY_SEGMENTS) for a buffer that is in system memory
 * without being committed to the aperture. Physical references are (segment id, offset) pairs; the
 * GPU physical address of one is the segment's @base_address (&struct
 * drm_vseg_segment_info) plus the offset. Segments never share GPU
 * addresses. System memory has no GPU physical address: the GPU reaches it
 * physically only through the aperture.
 *
 * Every ioctl structure uses fixed-width types, is 64-bit aligned and has
 * explicit padding and reserved fields. The kernel rejects nonzero padding,
 * nonzero reserved fields and unknown flags with -EINVAL, so that those
 * fields can be given a meaning later. Every structure starts with
 * @extensions: a user pointer to a chain of &struct drm_vseg_user_extension
 * (0 for none). An ioctl that defines no extension rejects a nonzero
 * @extensions with -EINVAL.
 *
 * Variable-length queries use a two-call protocol: the first call passes a
 * zero count and learns the count (and the element size) it needs; the
 * second call passes an array at least that large. An array's elements may
 * grow in later versions: the caller gives the size of its own elements
 * (the array's stride), and the kernel fills the fields both know and
 * zeroes the rest of each element.
 *
 * Every ioctl is allowed on render nodes, and is safe there
 * against other clients of the same device: a client reaches only the
 * buffers it holds a handle of (its own, or given to it through PRIME),
 * and every resource it can tie up is bounded (pins per process, per user
 * and for the device; GPU virtual address mappings and queued jobs per
 * file). The display is driven through KMS only, which needs the primary
 * node and DRM master. Documentation/gpu/vseg.rst has the
 * whole security model and every limit.
 *
 * PRIME (DRM_IOCTL_PRIME_HANDLE_TO_FD / FD_TO_HANDLE) works the same on
 * every supported kernel. Any buffer can be exported; vseg importing its
 * own dma-buf gets the same buffer. Another device's attachment moves the
 * buffer to system pages and pins it there until it detaches (EVICT:
 * -EBUSY; MAKE_RESIDENT leaves it there); mmap() of the dma-buf follows
 * the buffer's moves. A foreign dma-buf is imported as a buffer supported
 * in system memory and the aperture only, with no creation flags, that
 * vseg does not map for the CPU (GEM_MMAP_OFFSET: -EINVAL) and whose
 * content nobody may DISCARD (-EPERM, since 0.6; it was kept before).
 * Only the file that created a buffer may DISCARD or UNPIN it through
 * EVICT: another file holding it through PRIME gets -EPERM. Jobs wait for
 * the fences on a shared
 * buffer's dma-buf and add theirs to it. Importing a file that is not a
 * dma-buf is -EINVAL.
 *
 * Version history (the DRM driver version, DRM_IOCTL_VERSION):
 *
 * - 0.2: the UAPI of this header before 0.3.
 * - 0.3: a physical address is the segment's base address plus the
 *   offset, no longer (segment id << 56 | offset); DRM_VSEG_PHYS_ADDR is
 *   gone. &struct drm_vseg_gem_info has @gpu_address (formerly reserved).
 *   DRM_IOCTL_VSEG_EVICT takes %DRM_VSEG_RESIDENCY_DISCARD, moves run on
 *   the paging engine (EVICT and MAKE_RESIDENT return before their copies
 *   end), and DRM_IOCTL_VSEG_QUERY_SEGMENTS takes any element size from
 *   %DRM_VSEG_SEGMENT_INFO_SIZE_V1 up.
 * - 0.4: DRM_IOCTL_VSEG_DEVICE_QUERY; extension chains
 *   (&struct drm_vseg_user_extension) with
 *   %DRM_VSEG_GEM_CREATE_EXT_LABEL on GEM_CREATE; timeline syncobjs
 *   (DRIVER_SYNCOBJ_TIMELINE): SUBMIT's @in_syncs and @out_syncs are
 *   arrays of &struct drm_vseg_sync of @sync_size bytes each, no longer
 *   of __u32 handles. The *_FLAGS_ALL masks left this header: a program
 *   learns what the kernel accepts from its version.
 *   &struct drm_vseg_segment_info ends with @power, the counters of the
 *   last standby or hibernate (%DRM_VSEG_SEGMENT_INFO_SIZE_V2 bytes).
 *   PRIME imports foreign dma-bufs (system memory and the aperture only).
 * - 0.5: &struct drm_vseg_segment_info carries the rest of
 *   DXGK_SEGMENTDESCRIPTOR4 (%DRM_VSEG_SEGMENT_INFO_SIZE_V3 bytes): the
 *   CPU host aperture, the video protected region and the UEFI frame
 *   buffer ranges; flag bit 21
 *   (%DRM_VSEG_SEGMENT_POPULATED_BY_RESERVED_DDR_BY_FIRMWARE) is accepted.
 *   Protected buffers (%DRM_VSEG_GEM_CREATE_PROTECTED) in the video
 *   protected region; GEM_INFO's %DRM_VSEG_INFO_CONTENT_LOST.
 *   The UEFI ranges are held until the display is taken over (the first
 *   KMS commit that shows a primary, since 0.11); a memory segment's
 *   invalid ranges may change at run time.
 *   A CPU fault on a buffer in a segment with a CPU host aperture maps it
 *   in place through the window instead of moving it.
 * - 0.6: pins are bounded per process, per user and for the device, no
 *   longer per file (&struct drm_vseg_residency); DEVICE_QUERY_LIMITS has
 *   @pin_user_limit_percent and @pin_device_limit_percent (formerly
 *   reserved) and @pin_limit_percent is the per-process share. EVICT with
 *   %DRM_VSEG_RESIDENCY_DISCARD or %DRM_VSEG_RESIDENCY_UNPIN is the
 *   owning file's only: -EPERM for another file holding the buffer
 *   through PRIME and for a foreign dma-buf's buffer. GEM_CREATE with
 *   %DRM_VSEG_GEM_CREATE_PROTECTED refuses (-EINVAL) a supported set
 *   naming anything but VprSupported memory segments; a job using an
 *   evicted protected buffer brings it back into a VPR. ptrace access to
 *   a mapping waits for the buffer's moves in every placement.
 * - 0.7: DRM's scheduler, locking and VA manager (drm_sched, drm_exec,
 *   drm_gpuvm). &struct drm_vseg_vm_bind changed (a program built against
 *   0.6 still works: the fields it knows kept their place, the new ones
 *   read as zero): VM_BIND maps a range of a buffer (@offset, @size),
 *   replacing what was mapped there, instead of refusing overlaps; VM_UNBIND
 *   unmaps a range, splitting mappings; %DRM_VSEG_VM_BIND_READONLY; input
 *   and output syncobjs (asynchronous binds); addresses are page aligned.
 *   The render engine translates while the job runs (a queued job no
 *   longer keeps the mappings it was submitted with). Jobs no longer time
 *   out waiting for their inputs; a job running longer than job_timeout_ms
 *   fails with -ETIME; SUBMIT's -E2BIG for job_max_mb; a closed file's
 *   queued jobs are cancelled (-ESRCH). %DRM_VSEG_GEM_CREATE_VM_PRIVATE.
 *   The limits query's @va_alignment is the page size. Jobs not finished
 *   and GPU virtual address mappings are bounded per process (no longer
 *   per file), per user and for the device.
 * - 0.8: the seed rules of the segment model. GEM_CREATE refuses segment
 *   0 (system memory) in @supported_segments and in @preferred with
 *   -EINVAL, and nothing is created: system memory is named by the
 *   aperture's id, whose bit in @supported_segments now makes both the
 *   aperture and plain system memory places of the buffer (a program
 *   built against 0.7 that set bit 0 sets the aperture's bit instead).
 *   Segment tables: an aperture's CpuTranslatedAddress is ignored and
 *   reported as 0 (it failed the load before); a memory segment's commit
 *   limit of 0 stands for its size and is reported as the size;
 *   UseBanking with a single bank, and any VprAlignment, are accepted.
 *   An AccessedPhysically buffer or a primary that no memory segment and
 *   no aperture range could ever hold is still -EINVAL, though its set
 *   names system memory. A segment whose GPU address range reaches bit
 *   63 fails the load (the bus's class of system pages).
 * - 0.9: GPU page tables (WDDM v2 GpuMmu). The render engine translates
 *   every access through its VA space's page tables (4 KiB and 64 KiB
 *   entries); a missing or read-only entry fails the job with -EFAULT as
 *   before. VM_BIND may fail with -ENOSPC when the page-table pages its
 *   range needs would exceed the process's, user's or device's pin
 *   bound of the aperture (they are charged like pins there) or the
 *   aperture has no room; SUBMIT to a VA space whose tables were evicted
 *   brings them back first, and fails with -ENOSPC if the aperture has
 *   no room for them.
 * - 0.10: KMS atomic modesetting (DRIVER_MODESET, DRIVER_ATOMIC): per
 *   head a CRTC, a primary plane (XRGB8888, ARGB8888, RGB565, linear), a
 *   cursor plane and a virtual connector; framebuffers of vseg buffers
 *   through ADDFB2 (dumb buffers included); vblank events and page flips.
 *   The private scanout ioctl stays for now and fails with -EBUSY on a
 *   head whose CRTC is active.
 * - 0.11: the private scanout ioctl (number 0x09) is removed: KMS alone
 *   drives the display. The number is reserved, never reused; calling it
 *   fails with -EINVAL. The UEFI frame buffer ranges are released by the
 *   first KMS commit that shows a primary. (Breaks programs that used
 *   it.) %DRM_VSEG_SEGMENT_DIRECT_FLIP is honoured: a KMS framebuffer
 *   whose buffer may live in a DirectFlip segment is scanned out from one
 *   (moved there first if needed). fbdev emulation (module parameter
 *   fbdev, on by default); a CRC source "auto" per CRTC (DRM's debugfs
 *   crc files) where the display controller has a CRC generator. vseg
 *   binds QEMU's Bochs display adapter (pci=1234:1111), whose display
 *   scans primaries out of its VRAM BAR alone: there a primary that the
 *   segment on that BAR cannot hold is refused at GEM_CREATE (-EINVAL).
 * - 0.12: residency budgets: %DRM_VSEG_DEVICE_QUERY_BUDGET (per process
 *   and budget group: Budget, CurrentUsage, AvailableForReservation,
 *   CurrentReservation) and DRM_IOCTL_VSEG_SET_RESERVATION; a process's
 *   reserved bytes are not evicted for another process. The segment
 *   flags ApplicationTarget, LocalBudgetGroup and NonLocalBudgetGroup
 *   make the budget groups. Residency priorities:
 *   %DRM_VSEG_GEM_CREATE_EXT_PRIORITY and DRM_IOCTL_VSEG_SET_PRIORITY;
 *   eviction takes lower priorities first. MAKE_RESIDENT takes
 *   extensions: %DRM_VSEG_RESIDENCY_EXT_TRIM reports the bytes to trim;
 *   DRM_IOCTL_VSEG_BUDGET_NOTIFY asks for a %DRM_VSEG_EVENT_BUDGET event.
 * - 0.13: Offer and Reclaim: DRM_IOCTL_VSEG_OFFER offers buffers whose
 *   content the process can recreate, with an offer priority; under
 *   memory pressure an offered buffer in a memory segment is discarded
 *   before any buffer in use is evicted. DRM_IOCTL_VSEG_RECLAIM takes
 *   them back and says per buffer whether the content survived; fdinfo's
 *   drm-purgeable-<segment> counts offered buffers. The buffers of
 *   processes over their budget are evicted before any other. Where the
 *   kernel has the dmem cgroup controller, memory segments are dmem
 *   regions and the budget and AvailableForReservation are at most what
 *   the process's dmem.max leaves.
 * - 0.14: the unreserved part of a group is shared per user, then among
 *   the user's processes (it was shared among processes): a Budget no
 *   longer grows with the number of processes a user forks.
 * - 0.15: a process over its budget pays for the paging it causes: after
 *   a SUBMIT or MAKE_RESIDENT that brought its buffers into the segments,
 *   its next one waits for those bytes at the module parameter
 *   budget_paging_mbps; fdinfo's vseg-paging-penalty sums the waits.
 *
 * Rule for the version: the minor grows by one whenever this header
 * gains something a program may want to test for before it uses it (an
 * ioctl, a query id, an extension name, a flag, a field given a meaning,
 * an error for a case that worked before), in the same commit, with a
 * line here. A change that breaks a program built against the previous
 * header is avoided; while the major is 0 it may happen, and it also
 * bumps the minor, with its line here saying what broke (0.3 and 0.4
 * did). The major goes to 1 when the UAPI is declared stable; after that
 * nothing breaks without a new major.
 */

/**
 * struct drm_vseg_user_extension - one link of an extension chain
 *
 * An extension is a structure that starts with this header; the chain
 * starts at the @extensions field of an ioctl's argument and goes on
 * through @next_extension. The kernel reads at most
 * %DRM_VSEG_MAX_EXTENSIONS (16) links: a longer chain, or one that loops,
 * gives -E2BIG. An unknown @name, a name the ioctl does not take, a name
 * given twice or a nonzero @pad gives -EINVAL; a link that is not in user
 * memory -EFAULT. The whole chain is checked before the ioctl does
 * anything.
 *
 * @next_extension: user pointer to the next link, 0 at the end.
 * @name: which extension this is: one of the DRM_VSEG_*_EXT_* values the
 *	ioctl defines (%DRM_VSEG_GEM_CREATE_EXT_LABEL for GEM_CREATE).
 * @pad: must be zero.
 */
struct drm_vseg_user_extension {
	__u64 next_extension;
	__u32 name;
	__u32 pad;
};

#define DRM_VSEG_MAX_EXTENSIONS		16

#define DRM_VSEG_QUERY_SEGMENTS		0x00
#define DRM_VSEG_GEM_CREATE		0x01
#define DRM_VSEG_GEM_INFO		0x02
#define DRM_VSEG_GEM_MMAP_OFFSET	0x03
#define DRM_VSEG_MAKE_RESIDENT		0x04
#define DRM_VSEG_EVICT			0x05
#define DRM_VSEG_VM_BIND		0x06
#define DRM_VSEG_VM_UNBIND		0x07
#define DRM_VSEG_SUBMIT			0x08
/* 0x09: the scanout ioctl, removed in 0.11; never reused (-EINVAL). */
#define DRM_VSEG_DEVICE_QUERY		0x0a
#define DRM_VSEG_SET_RESERVATION	0x0b
#define DRM_VSEG_SET_PRIORITY		0x0c
#define DRM_VSEG_BUDGET_NOTIFY		0x0d
#define DRM_VSEG_OFFER			0x0e
#define DRM_VSEG_RECLAIM		0x0f

#define DRM_IOCTL_VSEG_QUERY_SEGMENTS \
	DRM_IOWR(DRM_COMMAND_BASE + DRM_VSEG_QUERY_SEGMENTS, \
		 struct drm_vseg_query_segments)
#define DRM_IOCTL_VSEG_GEM_CREATE \
	DRM_IOWR(DRM_COMMAND_BASE + DRM_VSEG_GEM_CREATE, \
		 struct drm_vseg_gem_create)
#define DRM_IOCTL_VSEG_GEM_INFO \
	DRM_IOWR(DRM_COMMAND_BASE + DRM_VSEG_GEM_INFO, \
		 struct drm_vseg_gem_info)
#define DRM_IOCTL_VSEG_GEM_MMAP_OFFSET \
	DRM_IOWR(DRM_COMMAND_BASE + DRM_VSEG_GEM_MMAP_OFFSET, \
		 struct drm_vseg_gem_mmap_offset)
#define DRM_IOCTL_VSEG_MAKE_RESIDENT \
	DRM_IOWR(DRM_COMMAND_BASE + DRM_VSEG_MAKE_RESIDENT, \
		 struct drm_vseg_residency)
#define DRM_IOCTL_VSEG_EVICT \
	DRM_IOWR(DRM_COMMAND_BASE + DRM_VSEG_EVICT, \
		 struct drm_vseg_residency)
#define DRM_IOCTL_VSEG_VM_BIND \
	DRM_IOWR(DRM_COMMAND_BASE + DRM_VSEG_VM_BIND, struct drm_vseg_vm_bind)
#define DRM_IOCTL_VSEG_VM_UNBIND \
	DRM_IOWR(DRM_COMMAND_BASE + DRM_VSEG_VM_UNBIND, struct drm_vseg_vm_bind)
#define DRM_IOCTL_VSEG_SUBMIT \
	DRM_IOWR(DRM_COMMAND_BASE + DRM_VSEG_SUBMIT, struct drm_vseg_submit)
#define DRM_IOCTL_VSEG_DEVICE_QUERY \
	DRM_IOWR(DRM_COMMAND_BASE + DRM_VSEG_DEVICE_QUERY, \
		 struct drm_vseg_device_query)
#define DRM_IOCTL_VSEG_SET_RESERVATION \
	DRM_IOW(DRM_COMMAND_BASE + DRM_VSEG_SET_RESERVATION, \
		 struct drm_vseg_set_reservation)
#define DRM_IOCTL_VSEG_SET_PRIORITY \
	DRM_IOW(DRM_COMMAND_BASE + DRM_VSEG_SET_PRIORITY, \
		 struct drm_vseg_set_priority)
#define DRM_IOCTL_VSEG_BUDGET_NOTIFY \
	DRM_IOW(DRM_COMMAND_BASE + DRM_VSEG_BUDGET_NOTIFY, \
		 struct drm_vseg_budget_notify)
#define DRM_IOCTL_VSEG_OFFER \
	DRM_IOW(DRM_COMMAND_BASE + DRM_VSEG_OFFER, struct drm_vseg_offer)
#define DRM_IOCTL_VSEG_RECLAIM \
	DRM_IOW(DRM_COMMAND_BASE + DRM_VSEG_RECLAIM, struct drm_vseg_reclaim)

#define DRM_VSEG_MAX_SEGMENTS		7
#define DRM_VSEG_MAX_BANKS		16
#define DRM_VSEG_MAX_INVALID_RANGES	4
#define DRM_VSEG_MAX_UEFI_RANGES	4

/**
 * enum drm_vseg_segment_kind - what a segment is
 * @DRM_VSEG_SEGMENT_KIND_MEMORY: a pool of 4 KiB or 64 KiB pages dedicated
 *	to the GPU (VRAM, or memory carved from system RAM on an integrated
 *	GPU).
 * @DRM_VSEG_SEGMENT_KIND_APERTURE: the aperture segment: a GART page table
 *	that makes scattered system pages look contiguous to the GPU.
 */
enum drm_vseg_segment_kind {
	DRM_VSEG_SEGMENT_KIND_MEMORY = 1,
	DRM_VSEG_SEGMENT_KIND_APERTURE = 2,
};

/**
 * DOC: segment flags
 *
 * Segment flags: DXGK_SEGMENTFLAGS, in the WDDM bit order, so that a
 * Windows driver's value can be carried over unchanged. Every bit is
 * accepted and reported back in &drm_vseg_segment_info.flags; what vseg
 * does with each one:
 *
 * - %DRM_VSEG_SEGMENT_APERTURE: honoured: the aperture segment (exactly
 *   one), whose buffers are system pages the GART maps.
 * - %DRM_VSEG_SEGMENT_AGP: honoured: an aperture at an address of its own
 *   (set alone; its address is the bus's, its size the module
 *   parameter's, see &drm_vseg_segment_info.base_address).
 * - %DRM_VSEG_SEGMENT_CPU_VISIBLE: honoured: the CPU maps a buffer only
 *   in the first &drm_vseg_segment_info.cpu_visible_size bytes; a CPU
 *   fault on a buffer beyond moves it there (or to system memory).
 * - %DRM_VSEG_SEGMENT_USE_BANKING: honoured: the banks of
 *   &drm_vseg_segment_info.bank_end, which create's bank hints name.
 * - %DRM_VSEG_SEGMENT_CACHE_COHERENT: the aperture only; reported only
 *   (the aperture's pages are cached system memory: always coherent).
 * - %DRM_VSEG_SEGMENT_PITCH_ALIGNMENT: reported only.
 * - %DRM_VSEG_SEGMENT_POPULATED_FROM_SYSTEM_MEMORY: memory segments only;
 *   reported only, but for the end address partial hibernation keeps
 *   (&drm_vseg_segment_info.system_memory_end_address).
 * - %DRM_VSEG_SEGMENT_PRESERVED_DURING_STANDBY,
 *   %DRM_VSEG_SEGMENT_PRESERVED_DURING_HIBERNATE: honoured: the content
 *   survives that transition; without them the buffers are evicted before
 *   it and pinned ones have their content saved and restored.
 * - %DRM_VSEG_SEGMENT_PARTIALLY_PRESERVED_DURING_HIBERNATE: honoured: the
 *   content survives hibernation up to
 *   &drm_vseg_segment_info.system_memory_end_address.
 * - %DRM_VSEG_SEGMENT_DIRECT_FLIP: honoured: a KMS framebuffer whose buffer
 *   may live in such a segment is moved into one (if it is not there yet)
 *   and scanned out in place from it.
 * - %DRM_VSEG_SEGMENT_USE_64KB_PAGES: honoured: &drm_vseg_segment_info.page_size
 *   is 64 KiB, the unit of every allocation in the segment.
 * - %DRM_VSEG_SEGMENT_RESERVED_SYSMEM: reported only.
 * - %DRM_VSEG_SEGMENT_SUPPORTS_CPU_HOST_APERTURE,
 *   %DRM_VSEG_SEGMENT_SUPPORTS_CACHED_CPU_HOST_APERTURE: honoured with the
 *   CPU host aperture (&drm_vseg_segment_info.cpu_host_aperture_address;
 *   Documentation/gpu/vseg.rst, "CPU host aperture"); not with CpuVisible.
 * - %DRM_VSEG_SEGMENT_APPLICATION_TARGET: with LocalBudgetGroup, puts a
 *   memory segment in the local budget group (since 0.12;
 *   %DRM_VSEG_DEVICE_QUERY_BUDGET, Documentation/gpu/vseg.rst, "Residency
 *   and budgets").
 * - %DRM_VSEG_SEGMENT_VPR_SUPPORTED,
 *   %DRM_VSEG_SEGMENT_VPR_PRESERVED_DURING_STANDBY,
 *   %DRM_VSEG_SEGMENT_ENCRYPTED_PAGING_SUPPORTED: honoured with the video
 *   protected region (&drm_vseg_segment_info.vpr_range_start_offset;
 *   Documentation/gpu/vseg.rst, "Video protected region").
 * - %DRM_VSEG_SEGMENT_LOCAL_BUDGET_GROUP,
 *   %DRM_VSEG_SEGMENT_NON_LOCAL_BUDGET_GROUP: the budget groups (since
 *   0.12): a memory segment with ApplicationTarget and LocalBudgetGroup is
 *   in the local one, a segment with NonLocalBudgetGroup (the aperture) in
 *   the non-local one; budgets, reservations and the over-budget eviction
 *   order are per group.
 * - %DRM_VSEG_SEGMENT_POPULATED_BY_RESERVED_DDR_BY_FIRMWARE (since 0.5):
 *   memory segments only; reported only (vseg backs every memory segment
 *   the same way).
 */
#define DRM_VSEG_SEGMENT_APERTURE			(1ull << 0)
#define DRM_VSEG_SEGMENT_AGP				(1ull << 1)
#define DRM_VSEG_SEGMENT_CPU_VISIBLE			(1ull << 2)
#define DRM_VSEG_SEGMENT_USE_BANKING			(1ull << 3)
#define DRM_VSEG_SEGMENT_CACHE_COHERENT			(1ull << 4)
#define DRM_VSEG_SEGMENT_PITCH_ALIGNMENT		(1ull << 5)
#define DRM_VSEG_SEGMENT_POPULATED_FROM_SYSTEM_MEMORY	(1ull << 6)
#define DRM_VSEG_SEGMENT_PRESERVED_DURING_STANDBY	(1ull << 7)
#define DRM_VSEG_SEGMENT_PRESERVED_DURING_HIBERNATE	(1ull << 8)
#define DRM_VSEG_SEGMENT_PARTIALLY_PRESERVED_DURING_HIBERNATE (1ull << 9)
#define DRM_VSEG_SEGMENT_DIRECT_FLIP			(1ull << 10)
#define DRM_VSEG_SEGMENT_USE_64KB_PAGES			(1ull << 11)
#define DRM_VSEG_SEGMENT_RESERVED_SYSMEM		(1ull << 12)
#define DRM_VSEG_SEGMENT_SUPPORTS_CPU_HOST_APERTURE	(1ull << 13)
#define DRM_VSEG_SEGMENT_SUPPORTS_CACHED_CPU_HOST_APERTURE (1ull << 14)
#define DRM_VSEG_SEGMENT_APPLICATION_TARGET		(1ull << 15)
#define DRM_VSEG_SEGMENT_VPR_SUPPORTED			(1ull << 16)
#define DRM_VSEG_SEGMENT_VPR_PRESERVED_DURING_STANDBY	(1ull << 17)
#define DRM_VSEG_SEGMENT_ENCRYPTED_PAGING_SUPPORTED	(1ull << 18)
#define DRM_VSEG_SEGMENT_LOCAL_BUDGET_GROUP		(1ull << 19)
#define DRM_VSEG_SEGMENT_NON_LOCAL_BUDGET_GROUP		(1ull << 20)
#define DRM_VSEG_SEGMENT_POPULATED_BY_RESERVED_DDR_BY_FIRMWARE (1ull << 21)

/**
 * struct drm_vseg_range - a byte range inside a segment
 * @start: offset of the first byte, from the start of the segment.
 * @size: length in bytes.
 */
struct drm_vseg_range {
	__u64 start;
	__u64 size;
};

/**
 * struct drm_vseg_segment_usage - live usage of one segment
 * @committed: bytes of buffer backing allocated from the segment. For the
 *	aperture this is what counts against @commit_limit of
 *	&struct drm_vseg_segment_info, the paging buffer included when it
 *	lives there. A buffer being moved counts only where it goes: the
 *	old placement the paging engine is still reading is not counted
 *	(it is freed when the move ends; an allocation that needs its room
 *	waits for that).
 * @resident: bytes of buffers whose contents currently live in the segment.
 * @evicted: bytes of buffers that prefer this segment but currently live
 *	elsewhere because they were evicted from it.
 * @aperture_mapped: aperture only: bytes of GART entries currently in use.
 *	Zero for other segments.
 * @reserved: must be zero; the kernel writes zero.
 */
struct drm_vseg_segment_usage {
	__u64 committed;
	__u64 resident;
	__u64 evicted;
	__u64 aperture_mapped;
	__u64 reserved[4];
};

/**
 * enum drm_vseg_power_transition - a system power transition
 * @DRM_VSEG_POWER_NONE: none since the device was created.
 * @DRM_VSEG_POWER_STANDBY: standby (suspend to RAM or to idle).
 * @DRM_VSEG_POWER_HIBERNATE: hibernate (suspend to disk).
 */
enum drm_vseg_power_transition {
	DRM_VSEG_POWER_NONE = 0,
	DRM_VSEG_POWER_STANDBY = 1,
	DRM_VSEG_POWER_HIBERNATE = 2,
};

/**
 * struct drm_vseg_segment_power - what the last power transition did to a
 * segment
 *
 * Counters of the last standby or hibernate the device went through, set
 * when it entered the transition (see "Power management" in
 * Documentation/gpu/vseg.rst). All zero on the aperture and on a memory
 * segment the transition left powered.
 *
 * @transition: the last transition, one of &enum drm_vseg_power_transition;
 *	the same in every segment.
 * @pad: the kernel writes zero.
 * @evicted: buffers evicted from the segment to system memory.
 * @evicted_bytes: their sizes, in bytes.
 * @saved: pinned buffers whose content was kept aside and written back at
 *	the same offset.
 * @saved_bytes: their backed bytes.
 * @poisoned_bytes: bytes of the segment's memory that lost power and read
 *	the poison pattern afterwards (before a buffer's content was written
 *	back over them).
 * @reserved: the kernel writes zero.
 */
struct drm_vseg_segment_power {
	__u32 transition;
	__u32 pad;
	__u64 evicted;
	__u64 evicted_bytes;
	__u64 saved;
	__u64 saved_bytes;
	__u64 poisoned_bytes;
	__u64 reserved[2];
};

/**
 * struct drm_vseg_segment_info - one segment of the table
 *
 * Modeled on DXGK_SEGMENTDESCRIPTOR and DXGK_SEGMENTDESCRIPTOR4.
 *
 * @id: segment id, 1-based, equal to the array index plus one; a table
 *	holds at most %DRM_VSEG_MAX_SEGMENTS (7) segments.
 * @kind: one of &enum drm_vseg_segment_kind.
 * @flags: DXGK_SEGMENTFLAGS, bit for bit: %DRM_VSEG_SEGMENT_APERTURE (the
 *	aperture segment), %DRM_VSEG_SEGMENT_AGP (an Agp-style aperture at an
 *	address of its own), %DRM_VSEG_SEGMENT_CPU_VISIBLE (the CPU reaches
 *	@cpu_visible_size bytes from offset 0), %DRM_VSEG_SEGMENT_USE_BANKING
 *	(see @bank_end), %DRM_VSEG_SEGMENT_CACHE_COHERENT,
 *	%DRM_VSEG_SEGMENT_PITCH_ALIGNMENT,
 *	%DRM_VSEG_SEGMENT_POPULATED_FROM_SYSTEM_MEMORY (carved from system
 *	RAM; see @system_memory_end_address),
 *	%DRM_VSEG_SEGMENT_PRESERVED_DURING_STANDBY,
 *	%DRM_VSEG_SEGMENT_PRESERVED_DURING_HIBERNATE,
 *	%DRM_VSEG_SEGMENT_PARTIALLY_PRESERVED_DURING_HIBERNATE (the content
 *	survives that power transition, wholly or up to
 *	@system_memory_end_address), %DRM_VSEG_SEGMENT_DIRECT_FLIP,
 *	%DRM_VSEG_SEGMENT_USE_64KB_PAGES (@page_size is 64 KiB),
 *	%DRM_VSEG_SEGMENT_RESERVED_SYSMEM,
 *	%DRM_VSEG_SEGMENT_SUPPORTS_CPU_HOST_APERTURE,
 *	%DRM_VSEG_SEGMENT_SUPPORTS_CACHED_CPU_HOST_APERTURE,
 *	%DRM_VSEG_SEGMENT_APPLICATION_TARGET, %DRM_VSEG_SEGMENT_VPR_SUPPORTED,
 *	%DRM_VSEG_SEGMENT_VPR_PRESERVED_DURING_STANDBY,
 *	%DRM_VSEG_SEGMENT_ENCRYPTED_PAGING_SUPPORTED,
 *	%DRM_VSEG_SEGMENT_LOCAL_BUDGET_GROUP and
 *	%DRM_VSEG_SEGMENT_NON_LOCAL_BUDGET_GROUP (the memory budget the
 *	segment counts in), %DRM_VSEG_SEGMENT_POPULATED_BY_RESERVED_DDR_BY_FIRMWARE
 *	(since 0.5: the segment is system memory the firmware set aside),
 *	in that order from bit 0. Later bits may be given a meaning: a
 *	program ignores the ones it does not know. Which bits vseg honours,
 *	and how: DOC: segment flags, beside the flags' definitions.
 * @base_address: base of the segment in the GPU's physical address space;
 *	a physical reference (id, offset) is at @base_address + offset. No
 *	two segments' ranges [@base_address, @base_address + @size) overlap;
 *	there may be gaps between them, which are not memory. A multiple of
 *	4 KiB. For an Agp
 *	aperture (whose descriptor address WDDM ignores) this is the address
 *	the device gave it: the table's, unless that overlaps another
 *	segment, else the first 4 GiB boundary past every other segment.
 * @cpu_translated_address: base of the segment as the CPU sees it on the
 *	bus, where its CPU-visible part starts: nonzero and page aligned on a
 *	CPU-visible memory segment, zero on every other segment. Always zero
 *	on the aperture: WDDM ignores an aperture's CpuTranslatedAddress, and
 *	since 0.8 so does vseg (a table may give one; it is reported as 0).
 * @size: size in bytes; a multiple of @page_size and of the host page
 *	size. For an Agp aperture, the size the module parameters give it.
 * @cpu_visible_size: bytes from offset 0 the CPU can reach directly; equal
 *	to @size for a fully visible segment, less on a small-BAR segment, zero
 *	when the segment is not CPU-visible.
 * @commit_limit: most bytes that may be committed to the segment. Equal to
 *	@size for memory segments (since 0.8 a table may give 0 there, as
 *	DXGK_SEGMENTDESCRIPTOR4's CommitLimit applies to the aperture only:
 *	it is reported as the size); at most @size for the aperture.
 * @system_memory_end_address: for segments populated from system memory,
 *	allocations ending after this offset are purged during hibernation;
 *	zero when unused.
 * @page_size: allocation granularity: 4096 or 65536.
 * @num_banks: number of banks, zero without %DRM_VSEG_SEGMENT_USE_BANKING,
 *	one (since 0.8) to %DRM_VSEG_MAX_BANKS (16) with it.
 * @bank_end: end offset (exclusive) of each bank; bank 0 starts at 0, bank
 *	i starts at @bank_end[i - 1], the last bank ends at @size.
 * @num_invalid_ranges: number of valid entries in @invalid_ranges, at most
 *	%DRM_VSEG_MAX_INVALID_RANGES (4).
 * @pad: must be zero; the kernel writes zero.
 * @invalid_ranges: ranges of the segment that are never allocated. Since
 *	0.5 a memory segment's list is live: the table's ranges, then those
 *	added at run time, less those removed (vseg's debugfs <name>_invalid
 *	stands for the driver reporting them); a new range evicts the
 *	buffers in it first. Each call reads the list in one piece.
 * @usage: live usage counters.
 * @name: NUL-terminated human-readable name ("vram", "aperture", ...).
 * @reserved: must be zero; the kernel writes zero.
 * @power: since 0.4: what the last power transition did to the segment.
 * @cpu_host_aperture_address: since 0.5, with
 *	%DRM_VSEG_SEGMENT_SUPPORTS_CPU_HOST_APERTURE: the CPU address of the
 *	segment's CPU host aperture (DXGK_CPUHOSTAPERTURE), a window through
 *	which the CPU reaches a segment that is not CPU-visible; zero
 *	otherwise.
 * @cpu_host_aperture_size: since 0.5: the size of that window in bytes, a
 *	multiple of the host page size, at most @size; zero without one.
 * @vpr_range_start_offset: since 0.5, with %DRM_VSEG_SEGMENT_VPR_SUPPORTED:
 *	offset of the video protected region (VprRangeStartOffset).
 * @vpr_range_size: since 0.5: its size in bytes (VprRangeSize); zero
 *	without a VPR.
 * @vpr_alignment: since 0.5: alignment of the VPR's start and size
 *	(VprAlignment), as the table gives it: the start and the size are
 *	multiples of it (when nonzero) and of @page_size. Before 0.8 it was a
 *	power of two of at least @page_size.
 * @num_vpr_supported: since 0.5: most disjoint protected extents the VPR
 *	holds at once (NumVprSupported); zero means no limit.
 * @vpr_reserve_size: since 0.5: bytes at the start of the VPR kept for the
 *	device (VprReserveSize), never given to a buffer.
 * @num_uefi_frame_buffer_ranges: since 0.5: number of valid entries in
 *	@uefi_frame_buffer_ranges, at most %DRM_VSEG_MAX_UEFI_RANGES (4)
 *	(NumUEFIFrameBufferRanges).
 * @uefi_frame_buffer_ranges: since 0.5: the ranges the firmware scans out
 *	from, held from load until the first KMS commit showing a primary
 *	hands the display over, then allocatable: the list names the ranges still held
 *	(@num_uefi_frame_buffer_ranges is zero after the handover). Like the
 *	invalid ranges, held ranges are in no buffer: @usage does not count
 *	them, and the bytes buffers can get are @size less @usage.committed,
 *	the invalid ranges and the held UEFI ranges.
 * @reserved2: must be zero; the kernel writes zero.
 *
 * The first version ended with @reserved
 * (%DRM_VSEG_SEGMENT_INFO_SIZE_V1 bytes); the second adds @power
 * (%DRM_VSEG_SEGMENT_INFO_SIZE_V2 bytes); the third adds the rest of
 * DXGK_SEGMENTDESCRIPTOR4, from @cpu_host_aperture_address to @reserved2
 * (%DRM_VSEG_SEGMENT_INFO_SIZE_V3 bytes). Later versions only add fields
 * at the end; QUERY_SEGMENTS takes the caller's element size and fills
 * the fields both sides know.
 */
struct drm_vseg_segment_info {
	__u32 id;
	__u32 kind;
	__u64 flags;
	__u64 base_address;
	__u64 cpu_translated_address;
	__u64 size;
	__u64 cpu_visible_size;
	__u64 commit_limit;
	__u64 system_memory_end_address;
	__u32 page_size;
	__u32 num_banks;
	__u64 bank_end[DRM_VSEG_MAX_BANKS];
	__u32 num_invalid_ranges;
	__u32 pad;
	struct drm_vseg_range invalid_ranges[DRM_VSEG_MAX_INVALID_RANGES];
	struct drm_vseg_segment_usage usage;
	char name[16];
	__u64 reserved[4];
	struct drm_vseg_segment_power power;
	__u64 cpu_host_aperture_address;
	__u64 cpu_host_aperture_size;
	__u64 vpr_range_start_offset;
	__u64 vpr_range_size;
	__u32 vpr_alignment;
	__u32 num_vpr_supported;
	__u32 vpr_reserve_size;
	__u32 num_uefi_frame_buffer_ranges;
	struct drm_vseg_range uefi_frame_buffer_ranges[DRM_VSEG_MAX_UEFI_RANGES];
	__u64 reserved2[4];
};

/**
 * DRM_VSEG_SEGMENT_INFO_SIZE_V1 - size of the first version of
 * &struct drm_vseg_segment_info (up to and including its @reserved): the
 * smallest element size QUERY_SEGMENTS accepts.
 */
#define DRM_VSEG_SEGMENT_INFO_SIZE_V1	384
/**
 * DRM_VSEG_SEGMENT_INFO_SIZE_V2 - size of the second version of
 * &struct drm_vseg_segment_info (up to and including its @power), since
 * driver version 0.4.
 */
#define DRM_VSEG_SEGMENT_INFO_SIZE_V2	448
/**
 * DRM_VSEG_SEGMENT_INFO_SIZE_V3 - size of the third version of
 * &struct drm_vseg_segment_info (up to and including its @reserved2),
 * since driver version 0.5.
 */
#define DRM_VSEG_SEGMENT_INFO_SIZE_V3	592
/**
 * DRM_VSEG_SEGMENT_INFO_SIZE_MAX - the largest element size QUERY_SEGMENTS
 * accepts (-E2BIG beyond it).
 */
#define DRM_VSEG_SEGMENT_INFO_SIZE_MAX	4096

/**
 * struct drm_vseg_query_segments - DRM_IOCTL_VSEG_QUERY_SEGMENTS argument
 *
 * Returns the segment table, modeled on DXGK_QUERYSEGMENTOUT4, with live
 * usage. Two calls:
 *
 * 1. @num_segments = 0 and @segments = 0: the kernel sets @num_segments to
 *    the number of segments in the table and @segment_size to the size of
 *    its own &struct drm_vseg_segment_info; it also fills the paging-buffer
 *    fields and @system_usage. @segment_size is not read.
 * 2. @num_segments >= the count, @segments pointing to an array of that
 *    many elements of @segment_size bytes each: the kernel fills the array
 *    and sets @num_segments to the count.
 *
 * @segment_size is the caller's element size, the stride of its array: any
 * size from %DRM_VSEG_SEGMENT_INFO_SIZE_V1 to
 * %DRM_VSEG_SEGMENT_INFO_SIZE_MAX, not only the kernel's, so that a
 * program built against an older or a newer header works (as the stride
 * of DXGK_QUERYSEGMENTOUT4.pSegmentDescriptor does). Segment i is written
 * at @segments + i * @segment_size: its first min(@segment_size, kernel's
 * size) bytes are the kernel's structure, the rest of the element up to
 * @segment_size is zeroed (fields the kernel does not know read as zero).
 * Nothing outside the count's elements is written.
 *
 * A nonzero @num_segments smaller than the count, a nonzero @num_segments
 * with a zero @segments, or a @segment_size below
 * %DRM_VSEG_SEGMENT_INFO_SIZE_V1 gives -EINVAL; a @segment_size above
 * %DRM_VSEG_SEGMENT_INFO_SIZE_MAX gives -E2BIG; an array that is not in
 * user memory, or not writable, gives -EFAULT (elements before the fault
 * may have been written). On error the argument is left as it was. A
 * capacity larger than the count is fine: only the count's elements are
 * written.
 *
 * @extensions: must be zero (reserved for a chain of extensions).
 * @flags: must be zero.
 * @num_segments: in: array capacity, or 0 to ask; out: segment count.
 * @segment_size: in: size of one array element, the array's stride (not
 *	read on the first call); out: the size of the kernel's
 *	&struct drm_vseg_segment_info.
 * @segments: user pointer to an array of &struct drm_vseg_segment_info,
 *	@segment_size bytes apart.
 * @paging_buffer_segment_id: segment the paging buffer comes from: the
 *	aperture's id, or 0 for contiguous system memory.
 * @paging_buffer_size: size of the paging buffer, bytes.
 * @paging_buffer_private_data_size: size of the driver's per-paging-buffer
 *	private data, bytes.
 * @pad: must be zero.
 * @pad2: must be zero.
 * @system_usage: usage of the implicit system segment (id 0).
 * @reserved: must be zero.
 */
struct drm_vseg_query_segments {
	__u64 extensions;
	__u32 flags;
	__u32 num_segments;
	__u32 segment_size;
	__u32 pad;
	__u64 segments;
	__u32 paging_buffer_segment_id;
	__u32 paging_buffer_size;
	__u32 paging_buffer_private_data_size;
	__u32 pad2;
	struct drm_vseg_segment_usage system_usage;
	__u64 reserved[4];
};

/**
 * DOC: allocations
 *
 * A buffer is created with the WDDM allocation properties of
 * DXGK_ALLOCATIONINFO: size, alignment, flags, an ordered list of preferred
 * segments with a direction each, the set of segments it may live in, the
 * set it is evicted to and hinted banks. Where the buffer lands follows the
 * AccessedPhysically table of the WDDM segment model:
 *
 * - in a memory segment, a buffer without %DRM_VSEG_GEM_CREATE_ACCESSED_PHYSICALLY
 *   is a set of segment pages that may be scattered; with it (or with
 *   %DRM_VSEG_GEM_CREATE_PRIMARY) it is contiguous and its physical
 *   reference is (segment id, offset), at GPU physical address the
 *   segment's base address + offset;
 * - in system memory committed to the aperture segment, an
 *   AccessedPhysically buffer is mapped into the aperture (its GART
 *   entries point at exactly its pages) whenever it is resident; other
 *   buffers are not mapped; a primary is mapped only while displayed;
 * - in plain system memory (segment 0) a buffer is never mapped and counts
 *   against no commit limit; it has no GPU physical address.
 *
 * Segment sets are bitmasks of segment ids: bit n is segment n of the
 * table. Bit 0, the implicit system segment, is never set in a client's
 * set (since 0.8: -EINVAL): system memory is placed through the
 * aperture's bit, as WDDM places it through the aperture segment's id. A
 * buffer whose supported set has the aperture's bit may live in system
 * memory committed to the aperture (resident) or, when no segment has
 * room or once evicted, in plain system memory (segment 0, not resident);
 * a buffer without it reaches plain system memory only by eviction.
 */

#define DRM_VSEG_GEM_CREATE_ACCESSED_PHYSICALLY	(1u << 0)
#define DRM_VSEG_GEM_CREATE_PRIMARY		(1u << 1)
#define DRM_VSEG_GEM_CREATE_CPU_VISIBLE		(1u << 2)
#define DRM_VSEG_GEM_CREATE_FROM_END_OF_SEGMENT	(1u << 3)
/*
 * DRM_VSEG_GEM_CREATE_PROTECTED - since 0.5: a protected buffer (D3D's
 * hardware-protected resource): contiguous inside the video protected
 * region of a VprSupported memory segment, never reachable by the CPU,
 * never copied by an engine into memory that is not protected. See
 * &struct drm_vseg_gem_create.
 */
#define DRM_VSEG_GEM_CREATE_PROTECTED		(1u << 4)
/*
 * DRM_VSEG_GEM_CREATE_VM_PRIVATE - since 0.7: the buffer shares the
 * reservation object of the creating file's GPU virtual address space
 * (drm_gpuvm's): locking one of the address space's private buffers
 * locks them all, a job's fence is added once for all of them. It can be
 * bound in that address space only, and not exported (PRIME: -EINVAL).
 */
#define DRM_VSEG_GEM_CREATE_VM_PRIVATE		(1u << 5)

#define DRM_VSEG_MAX_PREFERRED		5
#define DRM_VSEG_MAX_HINTED_BANKS	4

#define DRM_VSEG_PREF_TOP_DOWN		(1u << 0)

/**
 * struct drm_vseg_segment_pref - one preferred segment (DXGK_SEGMENTPREFERENCE)
 * @segment_id: a segment id of the table. Not 0 (since 0.8: -EINVAL):
 *	system memory is preferred through the aperture's id.
 * @flags: %DRM_VSEG_PREF_TOP_DOWN (allocate from the end of the segment)
 *	or 0 (bottom-up).
 */
struct drm_vseg_segment_pref {
	__u32 segment_id;
	__u32 flags;
};

/**
 * struct drm_vseg_gem_create - DRM_IOCTL_VSEG_GEM_CREATE argument
 *
 * Creates a buffer and places it. Its places are the preferred segments in
 * order (hinted banks first within the first one), then the other supported
 * segments: memory segments in id order, the aperture, system memory. The
 * places before the first system-memory place are tried in order without
 * evicting anything; if none has room the buffer goes to system memory when
 * it supports it, else every place is tried again, evicting
 * least-recently-used buffers. The buffer's contents start zeroed.
 *
 * @extensions: a chain of &struct drm_vseg_user_extension, or 0. GEM_CREATE
 *	takes %DRM_VSEG_GEM_CREATE_EXT_LABEL (&struct
 *	drm_vseg_gem_create_ext_label).
 * @size: in: bytes, a nonzero multiple of 4096; out: the real size, rounded
 *	up to the largest page size of the supported memory segments.
 * @alignment: 0, or a power of two up to 1 GiB: alignment of the buffer's
 *	offset when it is contiguous (never less than the segment's page size).
 * @flags: DXGK_ALLOCATIONINFOFLAGS: %DRM_VSEG_GEM_CREATE_ACCESSED_PHYSICALLY
 *	(reached by physical address: contiguous in a memory segment or
 *	mapped into the aperture when the GPU uses it),
 *	%DRM_VSEG_GEM_CREATE_PRIMARY (a displayable primary surface, for a
 *	KMS framebuffer), %DRM_VSEG_GEM_CREATE_CPU_VISIBLE (needs CPU
 *	access: CPU-visible placements only),
 *	%DRM_VSEG_GEM_CREATE_FROM_END_OF_SEGMENT (allocate top-down
 *	everywhere), %DRM_VSEG_GEM_CREATE_PROTECTED (since 0.5, below),
 *	%DRM_VSEG_GEM_CREATE_VM_PRIVATE (since 0.7), or 0.
 * @handle: in: must be zero; out: the GEM handle.
 * @supported_segments: segments the buffer may live in; nonzero; bit 0
 *	(system memory) must be clear (since 0.8): the aperture's bit stands
 *	for system memory, committed to the aperture or not.
 * @eviction_segments: where the buffer goes when evicted from a memory
 *	segment: the aperture's bit, or 0 for straight to system memory. The
 *	aperture must then be in @supported_segments.
 * @num_preferred: entries used in @preferred, 0 to %DRM_VSEG_MAX_PREFERRED
 *	(5).
 * @num_hinted_banks: entries used in @hinted_banks, 0 to
 *	%DRM_VSEG_MAX_HINTED_BANKS (4); needs a first
 *	preferred segment that uses banking.
 * @preferred: preferred segments, best first; each must be in
 *	@supported_segments; unused entries must be zero.
 * @hinted_banks: bank indices of the first preferred segment, best first;
 *	the buffer lands inside the first hinted bank with room, else
 *	anywhere in the segment; unused entries must be zero.
 * @reserved: must be zero.
 *
 * Every property is checked against the real size: the buffer is placed
 * in a supported segment, or the call fails and nothing is created.
 *
 * A protected buffer (%DRM_VSEG_GEM_CREATE_PROTECTED) lives only in the
 * video protected region (VPR) of a supported memory segment with
 * %DRM_VSEG_SEGMENT_VPR_SUPPORTED: contiguous, between
 * @vpr_range_start_offset + @vpr_reserve_size and the end of the VPR
 * (&struct drm_vseg_segment_info); the other supported segments are not
 * places for it. It is never mapped for the CPU (GEM_MMAP_OFFSET: -EPERM;
 * PRIME export: -EPERM); an engine command copying from it into memory
 * that is not a protected buffer fails the job's fence with -EFAULT
 * before it writes a byte (copies into protected buffers are allowed). It
 * leaves its segment only if the segment has
 * %DRM_VSEG_SEGMENT_ENCRYPTED_PAGING_SUPPORTED, the system-memory copy
 * then being encrypted with a key of the device; otherwise EVICT is
 * -EBUSY and memory pressure never evicts it. Since 0.6 its
 * @supported_segments may name VprSupported memory segments only (system
 * memory, the aperture or another memory segment: -EINVAL): system memory
 * is reached only by eviction, encrypted, and a job, MAKE_RESIDENT or a
 * physical submission using an evicted protected buffer brings it back
 * into a VPR first, never into the aperture. Protected buffers that touch
 * one another form one extent; a create that would add an extent beyond
 * the segment's @num_vpr_supported (0: no limit) is -ENOSPC. Without
 * %DRM_VSEG_SEGMENT_VPR_PRESERVED_DURING_STANDBY its content is lost in
 * a standby (it reads zero after) and GEM_INFO reports
 * %DRM_VSEG_INFO_CONTENT_LOST. PROTECTED with CPU_VISIBLE, with hinted
 * banks, with @eviction_segments, with no supported VprSupported
 * segment, or with any supported segment that is not VprSupported is
 * -EINVAL.
 *
 * Errors: -EINVAL for bad arguments (zero or unaligned size, alignment not a
 * power of two, unknown flags, nonzero reserved fields, unknown segment ids,
 * segment 0 in @supported_segments or @preferred (since 0.8),
 * a preferred segment outside the supported set, banks on a segment without
 * banking, CPU_VISIBLE with no CPU-visible supported segment,
 * AccessedPhysically or PRIMARY with no memory segment or aperture
 * supported, or with CPU_VISIBLE no CPU-visible one) and for a buffer that
 * no supported place could ever hold (larger than the segment, than the
 * CPU-visible part of a small-BAR segment for CPU_VISIBLE, than the longest
 * aligned run clear of invalid ranges for a contiguous buffer, than the
 * aperture's commit limit, or than half of system RAM), -E2BIG for lists
 * longer than their limit, -ENOSPC when the buffer could fit but no
 * supported segment has room now, even after eviction, -ENOMEM.
 */
struct drm_vseg_gem_create {
	__u64 extensions;
	__u64 size;
	__u64 alignment;
	__u32 flags;
	__u32 handle;
	__u32 supported_segments;
	__u32 eviction_segments;
	__u32 num_preferred;
	__u32 num_hinted_banks;
	struct drm_vseg_segment_pref preferred[DRM_VSEG_MAX_PREFERRED];
	__u32 hinted_banks[DRM_VSEG_MAX_HINTED_BANKS];
	__u64 reserved[4];
};

#define DRM_VSEG_GEM_CREATE_EXT_LABEL	1
#define DRM_VSEG_LABEL_LEN		32

/**
 * struct drm_vseg_gem_create_ext_label - GEM_CREATE extension: a label
 *
 * Names the buffer, as D3D12's ID3D12Object::SetName names an
 * allocation for tools: debugfs's allocation list shows it (label=...)
 * beside the buffer's id, owner and placement, so that a buffer seen
 * moving or taking up a segment can be told apart from the others.
 *
 * @base: @base.name is %DRM_VSEG_GEM_CREATE_EXT_LABEL.
 * @label: 1 to %DRM_VSEG_LABEL_LEN - 1 (31) printable ASCII characters
 *	other than space, then a NUL; every byte after the NUL must be zero.
 *	Anything else is -EINVAL, and nothing is created.
 */
struct drm_vseg_gem_create_ext_label {
	struct drm_vseg_user_extension base;
	char label[DRM_VSEG_LABEL_LEN];
};

#define DRM_VSEG_GEM_CREATE_EXT_PRIORITY	2

/*
 * Residency priorities: D3D12_RESIDENCY_PRIORITY's levels. Any 32-bit
 * value but 0 is a priority; higher stays resident longer.
 */
#define DRM_VSEG_PRIORITY_MINIMUM	0x28000000u
#define DRM_VSEG_PRIORITY_LOW		0x50000000u
#define DRM_VSEG_PRIORITY_NORMAL	0x78000000u
#define DRM_VSEG_PRIORITY_HIGH		0xa0010000u
#define DRM_VSEG_PRIORITY_MAXIMUM	0xc8000000u

/**
 * struct drm_vseg_gem_create_ext_priority - GEM_CREATE extension: a
 * residency priority
 *
 * The buffer's residency priority from its creation (without this
 * extension, %DRM_VSEG_PRIORITY_NORMAL); DRM_IOCTL_VSEG_SET_PRIORITY
 * changes it later. Under memory pressure a buffer of lower priority is
 * evicted before one of higher priority, and among buffers of one class
 * the least recently used first. The classes: below
 * %DRM_VSEG_PRIORITY_NORMAL; from NORMAL to below
 * %DRM_VSEG_PRIORITY_HIGH; HIGH and above. Pinned buffers and displayed
 * primaries are never evicted, whatever their priority. With the module
 * parameter budget_policy off when the priority is set, it is recorded
 * but every buffer is in one class (plain least recently used).
 *
 * @base: @base.name is %DRM_VSEG_GEM_CREATE_EXT_PRIORITY.
 * @priority: nonzero (0 is -EINVAL).
 * @pad: must be zero.
 */
struct drm_vseg_gem_create_ext_priority {
	struct drm_vseg_user_extension base;
	__u32 priority;
	__u32 pad;
};

/**
 * struct drm_vseg_set_priority - DRM_IOCTL_VSEG_SET_PRIORITY argument
 *
 * D3D12's SetResidencyPriority for one buffer: its new residency
 * priority (see &struct drm_vseg_gem_create_ext_priority), whether it is
 * resident now or not; any file holding a handle may set it.
 *
 * @extensions: must be zero.
 * @handle: the buffer.
 * @priority: nonzero.
 * @flags: must be zero.
 * @pad: must be zero.
 * @reserved: must be zero.
 *
 * Errors: -EINVAL (a zero @priority, nonzero @extensions, @flags, @pad or
 * @reserved), -ENOENT (no such handle); nothing changes.
 */
struct drm_vseg_set_priority {
	__u64 extensions;
	__u32 handle;
	__u32 priority;
	__u32 flags;
	__u32 pad;
	__u64 reserved[2];
};

#define DRM_VSEG_INFO_CONTIGUOUS	(1u << 0)
#define DRM_VSEG_INFO_APERTURE_MAPPED	(1u << 1)
#define DRM_VSEG_INFO_CPU_MAPPABLE	(1u << 2)
#define DRM_VSEG_INFO_RESIDENT		(1u << 3)
#define DRM_VSEG_INFO_PINNED		(1u << 4)
#define DRM_VSEG_INFO_CONTENT_LOST	(1u << 5)

/**
 * struct drm_vseg_gem_info - DRM_IOCTL_VSEG_GEM_INFO argument
 *
 * Where a buffer is now.
 *
 * @extensions: must be zero.
 * @handle: in: the GEM handle.
 * @segment_id: out: segment the buffer lives in; 0 for system memory, the
 *	aperture's id for system memory committed to the aperture.
 * @offset: out: byte offset in the segment; the physical reference
 *	(@segment_id, @offset) when %DRM_VSEG_INFO_CONTIGUOUS is set in a
 *	memory segment; the offset of the first page otherwise.
 * @aperture_offset: out: byte offset of the buffer's range in the aperture
 *	when %DRM_VSEG_INFO_APERTURE_MAPPED is set.
 * @size: out: the buffer's size.
 * @resident_bytes: out: bytes resident in a memory segment or the aperture.
 * @placement_flags: out: %DRM_VSEG_INFO_CONTIGUOUS (one range;
 *	@gpu_address is its physical address), %DRM_VSEG_INFO_APERTURE_MAPPED
 *	(has GART entries; see @aperture_offset), %DRM_VSEG_INFO_CPU_MAPPABLE
 *	(vseg can map it for the CPU where it is now; never an imported
 *	buffer), %DRM_VSEG_INFO_RESIDENT (resident in a memory segment or
 *	the aperture), %DRM_VSEG_INFO_PINNED (pinned by a user, the display
 *	or another device's PRIME attachment: cannot be evicted),
 *	%DRM_VSEG_INFO_CONTENT_LOST (since 0.5: a protected buffer whose
 *	segment lacks VprPreservedDuringStandby went through a standby and
 *	lost its content, which now reads zero; stays set for the buffer's
 *	life).
 * @create_flags: out: the flags the buffer was created with.
 * @moves: out: how many times the buffer moved between segments.
 * @buffer_id: out: device-wide id of the buffer, as debugfs shows it.
 * @gpu_address: out: the GPU physical address of the buffer's first byte
 *	when it is physically addressable where it is now (contiguous in a
 *	memory segment: the segment's base address + @offset; mapped into
 *	the aperture: the aperture's base address + @aperture_offset), the
 *	address the copy engine takes; %DRM_VSEG_GPU_ADDRESS_NONE (all ones) otherwise
 *	(scattered, in system memory, or in the aperture unmapped). A
 *	snapshot: the buffer may move unless pinned. Ignored on input.
 * @reserved: must be zero; the kernel writes zero.
 */
struct drm_vseg_gem_info {
	__u64 extensions;
	__u32 handle;
	__u32 segment_id;
	__u64 offset;
	__u64 aperture_offset;
	__u64 size;
	__u64 resident_bytes;
	__u32 placement_flags;
	__u32 create_flags;
	__u64 moves;
	__u64 buffer_id;
	__u64 gpu_address;
	__u64 reserved[2];
};

#define DRM_VSEG_GPU_ADDRESS_NONE	(~0ull)

/**
 * struct drm_vseg_gem_mmap_offset - DRM_IOCTL_VSEG_GEM_MMAP_OFFSET argument
 * @extensions: must be zero.
 * @handle: in: the GEM handle.
 * @flags: must be zero.
 * @offset: out: fake offset to pass to mmap() on the DRM fd.
 *
 * A fault on a buffer in memory the CPU cannot reach moves it to a
 * CPU-visible placement it supports (SIGBUS if that is impossible now, the
 * buffer being pinned elsewhere); since 0.5, in a segment with a CPU host
 * aperture (%DRM_VSEG_SEGMENT_SUPPORTS_CPU_HOST_APERTURE) the buffer stays
 * and its page is mapped through the window. After the device is
 * unplugged, the mapping shows a zeroed dummy page.
 *
 * Errors: -EINVAL for nonzero @extensions or @flags, for a buffer with
 * no CPU-reachable place at all (supported only in segments the CPU
 * cannot see and that have no CPU host aperture), and for a buffer
 * imported from another device's dma-buf (mapped by its exporter, or
 * through the dma-buf); -ENOENT for an unknown handle; -EPERM (since 0.5)
 * for a protected buffer (%DRM_VSEG_GEM_CREATE_PROTECTED).
 */
struct drm_vseg_gem_mmap_offset {
	__u64 extensions;
	__u32 handle;
	__u32 flags;
	__u64 offset;
};

#define DRM_VSEG_RESIDENCY_PIN		(1u << 0)
#define DRM_VSEG_RESIDENCY_UNPIN	(1u << 1)
#define DRM_VSEG_RESIDENCY_DISCARD	(1u << 2)
#define DRM_VSEG_MAX_RESIDENCY_HANDLES	1024

/**
 * struct drm_vseg_residency - MAKE_RESIDENT / EVICT argument
 *
 * MAKE_RESIDENT (D3DKMTMakeResident) brings each buffer into the best of
 * its memory-segment and aperture places it can get, in list order, trying
 * them best first and evicting other buffers as needed; a resident buffer
 * for which no better place has room stays where it is. The listed buffers
 * are held together for the whole call: none of them is evicted to make
 * room for another entry of the list. So when MAKE_RESIDENT succeeds every
 * listed buffer is resident, and a buffer that finds no room but that of
 * other listed buffers fails the call there with -ENOSPC. EVICT (D3DKMTEvict)
 * moves each buffer out of memory segments and the aperture to system
 * memory. The list is checked first: an unknown handle gives -ENOENT;
 * since 0.6, EVICT with %DRM_VSEG_RESIDENCY_DISCARD or
 * %DRM_VSEG_RESIDENCY_UNPIN of a buffer the calling file did not create
 * (another file's, held through PRIME, or a foreign dma-buf's) gives
 * -EPERM: only the owning file may destroy a buffer's content or drop
 * its pins that way; a pinned buffer in EVICT without
 * %DRM_VSEG_RESIDENCY_UNPIN gives -EBUSY, UNPIN of a buffer the calling
 * file has not pinned -EINVAL; and nothing moves.
 * Pins are counted per buffer, and each entry of the list counts: PIN of a
 * buffer listed twice pins it twice; UNPIN drops one pin per entry and
 * evicts the buffer at its last entry, so a buffer listed more times than
 * the calling file has pinned it is -EINVAL, and one that would stay
 * pinned (pinned more times than it is listed, by the display, or by
 * another file) -EBUSY. Moves go through the paging engine: EVICT and
 * MAKE_RESIDENT may return while the content is still being transferred;
 * CPU access, jobs and later moves of the buffer wait for it. EVICT with
 * %DRM_VSEG_RESIDENCY_DISCARD transfers nothing: each buffer lands in
 * system memory reading zero (WDDM's discard). A buffer that
 * cannot be moved (-ENOSPC: no room even after eviction, -ENOMEM) stops
 * the list there: it and the ones after it stay where they were.
 *
 * Pins belong to the file that took them: another file holding the same
 * buffer (through PRIME) can neither drop them nor be charged for them.
 * They go when the file closes its last handle of the buffer, or when the
 * file is closed (a file that did not create the buffer drops its own
 * pins only that way: its UNPIN is -EPERM). Pins are counted in bytes per
 * pin and bounded by shares of each segment (of a memory segment's size,
 * of the aperture's commit limit, of half of system RAM), since 0.6 not
 * per file but for all the files a process opened together (module
 * parameter pin_limit_percent, 50 by default), for all the processes of a
 * user together (pin_user_limit_percent, 75) and for the whole device
 * (pin_device_limit_percent, 90), each wider share at least the narrower
 * one (DEVICE_QUERY_LIMITS gives the three). A file's pins count for the
 * process and the user that opened it. A PIN that would take the
 * process, its user or the device beyond its share in every segment the
 * buffer could be pinned in fails with -ENOSPC, and the buffer stays
 * where it was. A pinned buffer never moves, so the only segment it can
 * be pinned in again (by this file, also at a later entry of the same
 * list, or by another file) is the one it is in: PIN of a buffer that is
 * pinned already fails with -ENOSPC when that segment's shares have no
 * room for one more pin of it.
 *
 * @extensions: MAKE_RESIDENT: a chain of extensions (see &struct
 *	drm_vseg_user_extension; %DRM_VSEG_RESIDENCY_EXT_TRIM) or 0; EVICT:
 *	must be zero.
 * @handles: user pointer to an array of __u32 GEM handles.
 * @count: number of handles, 1..%DRM_VSEG_MAX_RESIDENCY_HANDLES (-E2BIG
 *	above).
 * @flags: MAKE_RESIDENT: %DRM_VSEG_RESIDENCY_PIN (also pin each buffer
 *	where it lands) or 0; EVICT: %DRM_VSEG_RESIDENCY_UNPIN (drop one pin
 *	of each buffer, then evict it), %DRM_VSEG_RESIDENCY_DISCARD (drop
 *	each buffer's content instead of transferring it: it reads zero
 *	afterwards; driver minor 3), both or 0; both only on buffers the
 *	calling file created (-EPERM otherwise, driver minor 6).
 * @processed: out: number of buffers moved or already in place, the first
 *	@processed of the list; on an error after the arguments were
 *	checked, the buffers before the one that failed (0 if it failed
 *	before any moved).
 * @pad: must be zero.
 * @reserved: must be zero.
 */
struct drm_vseg_residency {
	__u64 extensions;
	__u64 handles;
	__u32 count;
	__u32 flags;
	__u32 processed;
	__u32 pad;
	__u64 reserved[2];
};

/**
 * DOC: engines and command buffers
 *
 * The vseg GPU has two engines that run jobs (and a paging engine, the
 * memory manager's). Each has a DRM GPU scheduler (drm_sched) in front of
 * it; each open file has its own scheduler entity per engine:
 *
 * - %DRM_VSEG_ENGINE_COPY addresses memory physically. Its command buffers
 *   come with an allocation list and a patch-location list, as WDDM's
 *   DMA buffers do: every listed buffer must have been created with
 *   %DRM_VSEG_GEM_CREATE_ACCESSED_PHYSICALLY, or the whole submission is
 *   rejected with -EINVAL. The kernel makes each listed buffer reachable
 *   physically (contiguous in a memory segment, or mapped into the
 *   aperture), keeps it there until the job's fence signals, and writes the
 *   physical address of each patch location into the command buffer.
 * - %DRM_VSEG_ENGINE_RENDER addresses memory through the submitting file's
 *   GPU virtual address space (DRM_IOCTL_VSEG_VM_BIND); an allocation list
 *   is refused there. Buffers of any placement work, scattered pages
 *   included. The engine translates each address while the job runs: it
 *   reaches the buffers mapped, when the job was queued (or by a bind
 *   queued before it), in the ranges its commands use; an address mapped
 *   to another buffer by then, unmapped, or read-only for a write, faults
 *   the job (-EFAULT).
 *
 * A command buffer is an array of &struct drm_vseg_cmd. A physical address
 * is a GPU physical address: the base address of a segment plus an offset
 * in it (&drm_vseg_segment_info.base_address; GEM_INFO's @gpu_address
 * gives a buffer's). The engine finds the segment whose range holds the
 * address, then resolves memory-segment offsets directly and aperture
 * offsets through the GART. An address between two segments or past the
 * last one is not memory, and segment 0 (system memory) has no physical
 * address at all. A command that touches an address the engine cannot
 * resolve ends the job: its fence signals with -EFAULT and the rest of the
 * command buffer is skipped.
 *
 * The copy engine's security model is WDDM's: a physically addressed
 * command buffer touches memory only through its allocation list. Every
 * byte range a FILL, COPY or WRITE reads or writes must lie inside one
 * listed allocation, where that allocation is (its memory-segment range,
 * or its aperture range). A raw address of a listed buffer is fine; one of
 * an unlisted buffer, of another client's buffer, of free memory, of an
 * invalid range, of a gap between segments or past a buffer's end never
 * is. SUBMIT checks this once the buffers are placed
 * and patched (-EINVAL, nothing queued), and the engine checks it again
 * before each command (the fence signals -EFAULT, the rest is skipped).
 * Patches may only write an address field a command uses: @dst of FILL,
 * COPY and WRITE, @src of COPY.
 *
 * A process has at most %DRM_VSEG_MAX_JOBS_IN_FLIGHT jobs not finished,
 * whatever files it opened; the processes of a user, and all clients of
 * the device, have bounds of their own (the module parameters
 * jobs_user_limit, 256, and jobs_device_limit, 4096): SUBMIT waits,
 * interruptibly, for room before it queues another. The commands of one
 * job may read and write at most the module parameter job_max_mb MiB
 * together (a COPY counts twice): SUBMIT gives -E2BIG beyond.
 *
 * Completion is a dma-fence: DRM_IOCTL_VSEG_SUBMIT signals its output
 * syncobjs with it and adds it to every buffer the job may touch, so that
 * moves, eviction and CPU access wait for it. Sync objects may be binary
 * or timelines (DRIVER_SYNCOBJ_TIMELINE): each entry of a sync array
 * (&struct drm_vseg_sync) names a point, 0 for a binary syncobj. A job
 * runs once its input syncobjs (or their points) have signalled, however
 * long that takes (one that failed gives -ECANCELED), after the file's
 * previous jobs on the same engine, and after every job and move already
 * using its buffers; a job waiting for a fence holds up no other file's
 * jobs. A job's fence is on its file's timeline of that engine: the jobs
 * of a file on an engine signal in the order they were submitted. A job
 * that runs longer than the module parameter job_timeout_ms (5000 by
 * default) is stopped: its fence signals -ETIME and the engine goes on
 * with the next job. The jobs of a file still queued when it is closed
 * are cancelled: their fences signal -ESRCH once their inputs have.
 */

#define DRM_VSEG_ENGINE_COPY		0
#define DRM_VSEG_ENGINE_RENDER		1

#define DRM_VSEG_CMD_NOP		0
#define DRM_VSEG_CMD_FILL		1
#define DRM_VSEG_CMD_COPY		2
#define DRM_VSEG_CMD_WRITE		3

/**
 * struct drm_vseg_cmd - one command of a command buffer
 * @opcode: %DRM_VSEG_CMD_NOP (do nothing), %DRM_VSEG_CMD_FILL (store the
 *	32-bit @value repeatedly over @size bytes at @dst), %DRM_VSEG_CMD_COPY
 *	(copy @size bytes from @src to @dst; the ranges must not overlap) or
 *	%DRM_VSEG_CMD_WRITE (store the 64-bit @value at @dst).
 * @flags: must be zero.
 * @dst: destination address (physical or GPU virtual, by engine).
 * @src: COPY: source address; otherwise must be zero.
 * @size: FILL, COPY: bytes, a multiple of 4 for FILL; WRITE, NOP: zero.
 * @value: FILL: the pattern (low 32 bits); WRITE: the value; otherwise 0.
 *
 * WRITE's @dst must be 8-byte aligned, FILL's 4-byte aligned, also once
 * the kernel has patched it (an allocation offset that breaks it is
 * -EINVAL).
 */
struct drm_vseg_cmd {
	__u32 opcode;
	__u32 flags;
	__u64 dst;
	__u64 src;
	__u64 size;
	__u64 value;
};

#define DRM_VSEG_MAX_CMD_BYTES		(64 * 1024)
#define DRM_VSEG_MAX_ALLOCATIONS	256
#define DRM_VSEG_MAX_PATCHES		1024
#define DRM_VSEG_MAX_SYNCS		64
#define DRM_VSEG_MAX_JOBS_IN_FLIGHT	64

#define DRM_VSEG_ALLOCATION_WRITE	(1u << 0)

#define DRM_VSEG_SYNC_SIZE_V1		16
#define DRM_VSEG_SYNC_SIZE_MAX		256

/**
 * struct drm_vseg_allocation - an allocation-list entry
 * @handle: GEM handle of an AccessedPhysically buffer.
 * @flags: %DRM_VSEG_ALLOCATION_WRITE (the job writes this allocation) or
 *	0.
 */
struct drm_vseg_allocation {
	__u32 handle;
	__u32 flags;
};

/**
 * struct drm_vseg_sync - a syncobj and a point of it, for SUBMIT
 * @handle: a syncobj handle of the calling file.
 * @flags: must be zero.
 * @point: 0 for a binary syncobj; else the point of a timeline syncobj.
 *	An input entry waits for the fence of that point, which must have
 *	been submitted already (else -EINVAL, as DRM_IOCTL_SYNCOBJ_WAIT
 *	without WAIT_FOR_SUBMIT; a point already signalled and gone is
 *	fine); an output entry adds the job's fence as that point, through
 *	a dma_fence_chain. A nonzero @point on a syncobj that holds a binary
 *	fence is -EINVAL, in and out. Points should grow: a point at or
 *	below the timeline's last one is added all the same, but then a
 *	query of the timeline's value may read 0 (as with
 *	DRM_IOCTL_SYNCOBJ_TIMELINE_SIGNAL).
 *
 * &drm_vseg_submit.sync_size is the size of one element of the caller's
 * arrays: %DRM_VSEG_SYNC_SIZE_V1 (16) for this first version, up to
 * %DRM_VSEG_SYNC_SIZE_MAX (256), a multiple of 8; bytes past the ones the kernel knows must
 * be zero, so that a later field read as zero keeps today's meaning.
 */
struct drm_vseg_sync {
	__u32 handle;
	__u32 flags;
	__u64 point;
};

/**
 * struct drm_vseg_patch - a patch-location-list entry
 * @allocation_index: index into the allocation list.
 * @pad: must be zero.
 * @allocation_offset: byte offset inside the allocation, below its size.
 * @patch_offset: byte offset in the command buffer where the kernel writes
 *	the 64-bit GPU physical address of the allocation's byte
 *	@allocation_offset (its segment's base address + its offset in the
 *	segment + @allocation_offset): the offset of the @dst field of a FILL,
 *	COPY or WRITE command, or of the @src field of a COPY command.
 */
struct drm_vseg_patch {
	__u32 allocation_index;
	__u32 pad;
	__u64 allocation_offset;
	__u64 patch_offset;
};

/**
 * struct drm_vseg_submit - DRM_IOCTL_VSEG_SUBMIT argument
 * @extensions: must be zero.
 * @engine: %DRM_VSEG_ENGINE_COPY (the physically addressed copy engine)
 *	or %DRM_VSEG_ENGINE_RENDER (the virtually addressed render engine).
 * @flags: must be zero.
 * @commands: user pointer to the command buffer.
 * @commands_size: its size: a nonzero multiple of sizeof(struct
 *	drm_vseg_cmd), at most %DRM_VSEG_MAX_CMD_BYTES (64 KiB).
 * @num_allocations: entries in @allocations (copy engine only), at most
 *	%DRM_VSEG_MAX_ALLOCATIONS (256).
 * @allocations: user pointer to &struct drm_vseg_allocation entries.
 * @patches: user pointer to &struct drm_vseg_patch entries.
 * @num_patches: entries in @patches (copy engine only), at most
 *	%DRM_VSEG_MAX_PATCHES (1024).
 * @num_in_syncs: entries in @in_syncs, at most %DRM_VSEG_MAX_SYNCS (64).
 * @in_syncs: user pointer to an array of &struct drm_vseg_sync,
 *	@sync_size bytes apart: the syncobj points to wait for.
 * @out_syncs: user pointer to an array of &struct drm_vseg_sync,
 *	@sync_size bytes apart: the syncobjs (points) that get the job's
 *	fence.
 * @num_out_syncs: entries in @out_syncs, at most %DRM_VSEG_MAX_SYNCS.
 * @sync_size: the size of one element of @in_syncs and @out_syncs, their
 *	stride: a multiple of 8 from %DRM_VSEG_SYNC_SIZE_V1 up to
 *	%DRM_VSEG_SYNC_SIZE_MAX (-E2BIG above); may be 0 when both arrays are
 *	empty (driver minor 4; it was a zero pad before).
 * @reserved: must be zero.
 *
 * A process has at most %DRM_VSEG_MAX_JOBS_IN_FLIGHT (64) jobs not
 * finished (see "engines and command buffers").
 *
 * Errors: -EINVAL for bad arguments (unknown engine or opcode, nonzero
 * reserved fields, an allocation list on the render engine, a buffer
 * without AccessedPhysically in the allocation list, an out-of-range
 * allocation index, a patch offset that is not an address field of a
 * command, an allocation offset beyond its buffer, a copy-engine command
 * that touches bytes outside the listed allocations, an input syncobj
 * without a fence or without the point, a bad @sync_size, nonzero sync
 * flags or unknown sync bytes, a point on a binary syncobj),
 * -E2BIG for lists longer than their limit and for commands touching more
 * than job_max_mb MiB, -ENOENT for unknown handles or
 * syncobjs, -EFAULT for bad pointers, -ENOSPC when a listed buffer cannot
 * be made physically reachable or the address space's evicted page
 * tables cannot come back into the aperture, -EBUSY when it is pinned where the copy
 * engine cannot reach it (attached by another device through PRIME). On
 * any error nothing is queued and no syncobj changes.
 */
struct drm_vseg_submit {
	__u64 extensions;
	__u32 engine;
	__u32 flags;
	__u64 commands;
	__u32 commands_size;
	__u32 num_allocations;
	__u64 allocations;
	__u64 patches;
	__u32 num_patches;
	__u32 num_in_syncs;
	__u64 in_syncs;
	__u64 out_syncs;
	__u32 num_out_syncs;
	__u32 sync_size;
	__u64 reserved[2];
};

#define DRM_VSEG_VM_BIND_READONLY	(1u << 0)

/**
 * struct drm_vseg_vm_bind - DRM_IOCTL_VSEG_VM_BIND / VM_UNBIND argument
 *
 * The calling file's GPU virtual address space is DRM's VA manager
 * (drm_gpuvm). VM_BIND maps @size bytes of a buffer, from its byte
 * @offset, at @gpu_va; whatever was mapped in that range before is
 * unmapped (the mappings it cuts keep their parts outside the range).
 * VM_UNBIND unmaps everything in [@gpu_va, @gpu_va + @size), splitting
 * the mappings it cuts; a range with nothing mapped is not an error.
 * Addresses, sizes and offsets are multiples of the page size (the
 * limits query's @va_alignment); @gpu_va is nonzero and the range ends at
 * or below 2^47 (@va_size).
 *
 * Binds of a file are applied in the order they were made. One without
 * input syncobjs, made while no earlier bind waits, is applied before the
 * ioctl returns; otherwise it is queued, and applied once its inputs
 * (and the binds before it) have signalled: the output syncobjs signal
 * when it has been (asynchronous VM_BIND). A job reaches what is mapped
 * when it runs: a job that depends on a bind waits for its output.
 * The address spaces of a process hold at most %DRM_VSEG_MAX_VM_MAPPINGS
 * mappings together, whatever files it opened; those of a user, and all
 * of the device's, have bounds of their own (the module parameters
 * vm_mappings_user_limit, 16384, and vm_mappings_device_limit, 262144).
 * A bind is refused (-ENOSPC) when, in the worst case (it splits a
 * mapping), the binds queued and it could take more.
 *
 * A buffer created with %DRM_VSEG_GEM_CREATE_VM_PRIVATE can be bound in
 * its creator's address space only (-EINVAL elsewhere).
 *
 * @extensions: must be zero.
 * @handle: VM_BIND: the buffer's GEM handle; VM_UNBIND: must be zero.
 * @flags: VM_BIND: %DRM_VSEG_VM_BIND_READONLY (a job that writes there
 *	faults) or 0; VM_UNBIND: must be zero.
 * @gpu_va: first GPU virtual address.
 * @size: bytes; VM_BIND: 0 maps the rest of the buffer from @offset, and
 *	@size is set to the bytes mapped; VM_UNBIND: 0 unmaps the mapping that
 *	starts at @gpu_va now (-EINVAL if none does).
 * @offset: VM_BIND: the buffer's first byte mapped, below its size;
 *	VM_UNBIND: must be zero.
 * @in_syncs: user pointer to an array of &struct drm_vseg_sync,
 *	@sync_size bytes apart: the points the bind waits for.
 * @out_syncs: user pointer to such an array: the points that signal once
 *	the bind is applied.
 * @num_in_syncs: entries in @in_syncs, at most %DRM_VSEG_MAX_SYNCS.
 * @num_out_syncs: entries in @out_syncs, at most %DRM_VSEG_MAX_SYNCS.
 * @sync_size: as &drm_vseg_submit.sync_size.
 * @pad: must be zero.
 * @reserved: must be zero.
 *
 * Errors: -EINVAL (bad or unaligned address, size or offset, a range past
 * the buffer or the address space, unknown flags, nonzero reserved
 * fields, a VM-private buffer of another address space, bad syncs),
 * -ENOENT (unknown handle or syncobj), -E2BIG (sync lists or stride too
 * long), -EFAULT, -ENOSPC (the address space is full, or the page-table
 * pages the range needs would pass the process's, user's or device's pin
 * bound of the aperture, which they are charged to, or the aperture has
 * no room for them), -ENOMEM. Nothing changes then, but for page-table
 * pages made for the range before the failure, which stay (charged) until
 * the address space goes.
 */
struct drm_vseg_vm_bind {
	__u64 extensions;
	__u32 handle;
	__u32 flags;
	__u64 gpu_va;
	__u64 size;
	__u64 offset;
	__u64 in_syncs;
	__u64 out_syncs;
	__u32 num_in_syncs;
	__u32 num_out_syncs;
	__u32 sync_size;
	__u32 pad;
	__u64 reserved[2];
};

#define DRM_VSEG_MAX_VM_MAPPINGS	4096

#define DRM_VSEG_NUM_HEADS		2

#define DRM_VSEG_DEVICE_QUERY_VERSION		1
#define DRM_VSEG_DEVICE_QUERY_SEGMENTS		2
#define DRM_VSEG_DEVICE_QUERY_ENGINES		3
#define DRM_VSEG_DEVICE_QUERY_HEADS		4
#define DRM_VSEG_DEVICE_QUERY_LIMITS		5
#define DRM_VSEG_DEVICE_QUERY_BUDGET		6
#define DRM_VSEG_DEVICE_QUERY_SIZE_MAX		(64 * 1024)

/**
 * struct drm_vseg_device_query - DRM_IOCTL_VSEG_DEVICE_QUERY argument
 *
 * One query of what the device is and has, chosen by @query, written to
 * @data. Each result is a structure of this header, in some cases
 * followed by an array, and may grow in later versions. Two calls:
 *
 * 1. @size = 0: the kernel sets @size to the size of the result and writes
 *    nothing else (@data is not read).
 * 2. @size > 0, @data pointing to that many bytes: the kernel writes the
 *    first min(@size, result size) bytes of the result there, zeroes the
 *    rest of the caller's @size bytes (fields it does not know read as
 *    zero), and sets @size to the result's size. A @size smaller than
 *    that gives a truncated result, not an error: a program built against
 *    an older header gets the fields it knows; one that wants the whole
 *    result compares @size before and after.
 *
 * Results can change between the two calls (usage counters, the heads'
 * state) but not their size: the segment table, the engines and the
 * heads are fixed while the device exists.
 *
 * The queries, with the structure each returns:
 *
 * - %DRM_VSEG_DEVICE_QUERY_VERSION: &struct drm_vseg_query_version.
 * - %DRM_VSEG_DEVICE_QUERY_SEGMENTS: &struct drm_vseg_query_segment_table,
 *   followed by its @num_segments &struct drm_vseg_segment_info elements
 *   of @segment_size bytes each: the same table and usage as
 *   DRM_IOCTL_VSEG_QUERY_SEGMENTS.
 * - %DRM_VSEG_DEVICE_QUERY_ENGINES: &struct drm_vseg_query_engines, followed by
 *   @num_engines &struct drm_vseg_engine_info of @engine_size bytes each.
 * - %DRM_VSEG_DEVICE_QUERY_HEADS: &struct drm_vseg_query_heads, followed by
 *   @num_heads &struct drm_vseg_head_info of @head_size bytes each.
 * - %DRM_VSEG_DEVICE_QUERY_LIMITS: &struct drm_vseg_query_limits.
 * - %DRM_VSEG_DEVICE_QUERY_BUDGET: &struct drm_vseg_query_budget, the
 *   calling process's budgets (since 0.12).
 *
 * @extensions: must be zero.
 * @query: one of the DRM_VSEG_QUERY_* ids above; any other is -EINVAL.
 * @size: in: bytes at @data, 0 to ask, at most %DRM_VSEG_DEVICE_QUERY_SIZE_MAX
 *	(64 KiB; -E2BIG above); out: the size of the result.
 * @data: user pointer to @size bytes.
 * @flags: must be zero.
 * @pad: must be zero.
 * @reserved: must be zero.
 *
 * Errors: -EINVAL (unknown @query, nonzero @extensions, @flags, @pad or
 * @reserved), -E2BIG (@size too large), -EFAULT (@data not writable for
 * @size bytes; some of it may have been written, @size is left as it
 * was), -ENOMEM. Allowed on render nodes: every query reads only what
 * any client may know.
 */
struct drm_vseg_device_query {
	__u64 extensions;
	__u32 query;
	__u32 size;
	__u64 data;
	__u32 flags;
	__u32 pad;
	__u64 reserved[2];
};

/**
 * struct drm_vseg_query_version - %DRM_VSEG_DEVICE_QUERY_VERSION result
 *
 * The version of the UAPI the kernel implements, the same as
 * DRM_IOCTL_VERSION's (see the version history and the rule for the
 * minor at the top of this header).
 *
 * @major: the major, 0 until the UAPI is declared stable.
 * @minor: the minor: 4 or more when DEVICE_QUERY exists.
 * @patchlevel: the patch level.
 * @pad: zero.
 * @reserved: zero.
 */
struct drm_vseg_query_version {
	__u32 major;
	__u32 minor;
	__u32 patchlevel;
	__u32 pad;
	__u64 reserved[2];
};

/**
 * struct drm_vseg_query_segment_table - %DRM_VSEG_DEVICE_QUERY_SEGMENTS result
 *
 * The fields of &struct drm_vseg_query_segments' first call, then the
 * table: @num_segments &struct drm_vseg_segment_info elements of
 * @segment_size bytes each, the first one right after this header
 * (sizeof(struct drm_vseg_query_segment_table) bytes in).
 *
 * @num_segments: number of segments in the table, 1 to
 *	%DRM_VSEG_MAX_SEGMENTS.
 * @segment_size: size of one element of the table that follows, the
 *	kernel's &struct drm_vseg_segment_info: at least
 *	%DRM_VSEG_SEGMENT_INFO_SIZE_V1.
 * @paging_buffer_segment_id: segment the paging buffer comes from: the
 *	aperture's id, or 0 for contiguous system memory.
 * @paging_buffer_size: size of the paging buffer, bytes.
 * @paging_buffer_private_data_size: size of the driver's
 *	per-paging-buffer private data, bytes.
 * @pad: zero.
 * @system_usage: usage of the implicit system segment (id 0).
 * @reserved: zero.
 */
struct drm_vseg_query_segment_table {
	__u32 num_segments;
	__u32 segment_size;
	__u32 paging_buffer_segment_id;
	__u32 paging_buffer_size;
	__u32 paging_buffer_private_data_size;
	__u32 pad;
	struct drm_vseg_segment_usage system_usage;
	__u64 reserved[2];
};

#define DRM_VSEG_ENGINE_PAGING		2

#define DRM_VSEG_ENGINE_INFO_PHYSICAL	(1u << 0)
#define DRM_VSEG_ENGINE_INFO_VIRTUAL	(1u << 1)
#define DRM_VSEG_ENGINE_INFO_SUBMIT	(1u << 2)

/**
 * struct drm_vseg_engine_info - one engine of %DRM_VSEG_DEVICE_QUERY_ENGINES
 *
 * @id: %DRM_VSEG_ENGINE_COPY, %DRM_VSEG_ENGINE_RENDER, or
 *	%DRM_VSEG_ENGINE_PAGING: the memory manager's engine (WDDM's paging
 *	node), which runs the moves of buffers and takes no submission.
 * @flags: %DRM_VSEG_ENGINE_INFO_PHYSICAL (addresses memory physically),
 *	%DRM_VSEG_ENGINE_INFO_VIRTUAL (through the file's GPU virtual
 *	address space), %DRM_VSEG_ENGINE_INFO_SUBMIT (SUBMIT's @engine
 *	takes @id). Later bits may be given a meaning.
 * @name: NUL-terminated name, as the engine's fences give it.
 * @reserved: zero.
 */
struct drm_vseg_engine_info {
	__u32 id;
	__u32 flags;
	char name[16];
	__u64 reserved[2];
};

/**
 * struct drm_vseg_query_engines - %DRM_VSEG_DEVICE_QUERY_ENGINES result
 *
 * Followed by @num_engines &struct drm_vseg_engine_info elements of
 * @engine_size bytes each, in id order.
 *
 * @num_engines: number of engines.
 * @engine_size: size of one element, the kernel's &struct
 *	drm_vseg_engine_info.
 * @reserved: zero.
 */
struct drm_vseg_query_engines {
	__u32 num_engines;
	__u32 engine_size;
	__u64 reserved;
};

#define DRM_VSEG_HEAD_ACTIVE		(1u << 0)

/**
 * struct drm_vseg_head_info - one head of %DRM_VSEG_DEVICE_QUERY_HEADS
 *
 * @id: the head; KMS's CRTC of index @id drives it.
 * @flags: %DRM_VSEG_HEAD_ACTIVE when the head shows a primary now. Later
 *	bits may be given a meaning.
 * @reserved: zero.
 */
struct drm_vseg_head_info {
	__u32 id;
	__u32 flags;
	__u64 reserved[2];
};

/**
 * struct drm_vseg_query_heads - %DRM_VSEG_DEVICE_QUERY_HEADS result
 *
 * Followed by @num_heads &struct drm_vseg_head_info elements of
 * @head_size bytes each, in id order.
 *
 * @num_heads: number of heads (%DRM_VSEG_NUM_HEADS).
 * @head_size: size of one element, the kernel's &struct
 *	drm_vseg_head_info.
 * @reserved: zero.
 */
struct drm_vseg_query_heads {
	__u32 num_heads;
	__u32 head_size;
	__u64 reserved;
};

/**
 * struct drm_vseg_query_limits - %DRM_VSEG_DEVICE_QUERY_LIMITS result
 *
 * The limits this header gives as constants, as the running kernel has
 * them, and those set at load time.
 *
 * @max_segments: %DRM_VSEG_MAX_SEGMENTS.
 * @max_banks: %DRM_VSEG_MAX_BANKS.
 * @max_invalid_ranges: %DRM_VSEG_MAX_INVALID_RANGES.
 * @max_preferred: %DRM_VSEG_MAX_PREFERRED.
 * @max_hinted_banks: %DRM_VSEG_MAX_HINTED_BANKS.
 * @max_residency_handles: %DRM_VSEG_MAX_RESIDENCY_HANDLES.
 * @max_cmd_bytes: %DRM_VSEG_MAX_CMD_BYTES.
 * @max_allocations: %DRM_VSEG_MAX_ALLOCATIONS.
 * @max_patches: %DRM_VSEG_MAX_PATCHES.
 * @max_syncs: %DRM_VSEG_MAX_SYNCS.
 * @max_jobs_in_flight: %DRM_VSEG_MAX_JOBS_IN_FLIGHT.
 * @max_vm_mappings: %DRM_VSEG_MAX_VM_MAPPINGS.
 * @max_extensions: %DRM_VSEG_MAX_EXTENSIONS.
 * @num_heads: %DRM_VSEG_NUM_HEADS.
 * @pin_limit_percent: the share of each segment the files of one process
 *	may pin together, in percent (the module parameter of that name);
 *	before 0.6, the share of one file.
 * @sync_size_max: %DRM_VSEG_SYNC_SIZE_MAX.
 * @va_size: size of a GPU virtual address space: VM_BIND addresses are
 *	below it.
 * @va_alignment: alignment of a VM_BIND address.
 * @pin_user_limit_percent: since 0.6: the share of each segment the
 *	processes of one user may pin together, in percent (module parameter
 *	pin_user_limit_percent, never below @pin_limit_percent); zero before.
 * @pin_device_limit_percent: since 0.6: the share of each segment all
 *	clients may pin together (pin_device_limit_percent, never below
 *	@pin_user_limit_percent); zero before.
 * @reserved: zero.
 */
struct drm_vseg_query_limits {
	__u32 max_segments;
	__u32 max_banks;
	__u32 max_invalid_ranges;
	__u32 max_preferred;
	__u32 max_hinted_banks;
	__u32 max_residency_handles;
	__u32 max_cmd_bytes;
	__u32 max_allocations;
	__u32 max_patches;
	__u32 max_syncs;
	__u32 max_jobs_in_flight;
	__u32 max_vm_mappings;
	__u32 max_extensions;
	__u32 num_heads;
	__u32 pin_limit_percent;
	__u32 sync_size_max;
	__u64 va_size;
	__u64 va_alignment;
	__u32 pin_user_limit_percent;
	__u32 pin_device_limit_percent;
	__u64 reserved[3];
};

#define DRM_VSEG_BUDGET_GROUP_LOCAL		0
#define DRM_VSEG_BUDGET_GROUP_NON_LOCAL		1
#define DRM_VSEG_BUDGET_NUM_GROUPS		2

/**
 * struct drm_vseg_budget_info - one budget group, as one process sees it
 *
 * D3DKMT_QUERYVIDEOMEMORYINFO's figures, for the calling process (every
 * file it opened on the device together), in bytes. The local group is
 * the memory segments flagged %DRM_VSEG_SEGMENT_APPLICATION_TARGET and
 * %DRM_VSEG_SEGMENT_LOCAL_BUDGET_GROUP; the non-local group, the segments
 * flagged %DRM_VSEG_SEGMENT_NON_LOCAL_BUDGET_GROUP (the aperture). A group
 * with no segment reports zeros. See "Residency and budgets" in
 * Documentation/gpu/vseg.rst for the policy.
 *
 * @budget: what the process may keep resident in the group: its
 *	reservation plus a share of what no process reserved: equal shares
 *	among the users with processes that have buffers resident or a
 *	reservation there, each user's share split equally among those of
 *	its processes (since 0.14; among processes before).
 * @current_usage: bytes of the process's buffers resident in the group.
 * @available_for_reservation: the most the process may reserve there now
 *	(its current reservation included).
 * @current_reservation: what it reserved (%DRM_IOCTL_VSEG_SET_RESERVATION).
 * @group_size: bytes of the group's segments (an aperture counts its
 *	commit limit).
 * @reserved: zero.
 */
struct drm_vseg_budget_info {
	__u64 budget;
	__u64 current_usage;
	__u64 available_for_reservation;
	__u64 current_reservation;
	__u64 group_size;
	__u64 reserved[3];
};

/**
 * struct drm_vseg_query_budget - %DRM_VSEG_DEVICE_QUERY_BUDGET result
 * @num_groups: %DRM_VSEG_BUDGET_NUM_GROUPS.
 * @pad: zero.
 * @reserved: zero.
 * @groups: the groups, indexed by DRM_VSEG_BUDGET_GROUP_*.
 */
struct drm_vseg_query_budget {
	__u32 num_groups;
	__u32 pad;
	__u64 reserved[3];
	struct drm_vseg_budget_info groups[DRM_VSEG_BUDGET_NUM_GROUPS];
};

/**
 * struct drm_vseg_budget_notify - DRM_IOCTL_VSEG_BUDGET_NOTIFY argument
 *
 * Asks for one %DRM_VSEG_EVENT_BUDGET event on this file (read() it, poll()
 * for it, as DRM's vblank events) when the calling process's Budget in a
 * budget group is no longer what it is now (another process became active
 * or went, a reservation changed). One request at a time per file: the
 * event ends it, a new call asks again. Closing the file drops it.
 *
 * @extensions: must be zero.
 * @user_data: copied into the event.
 * @flags: must be zero.
 * @pad: must be zero.
 * @reserved: must be zero.
 *
 * Errors: -EINVAL (nonzero @extensions, @flags, @pad or @reserved), -EBUSY
 * (a request of this file is pending), -ENOMEM (no room for the event in
 * the file's event space).
 */
struct drm_vseg_budget_notify {
	__u64 extensions;
	__u64 user_data;
	__u32 flags;
	__u32 pad;
	__u64 reserved[2];
};

#define DRM_VSEG_EVENT_BUDGET		0x80000000

/**
 * struct drm_vseg_event_budget - %DRM_VSEG_EVENT_BUDGET, read() from the fd
 * @base: DRM's event header: @base.type is %DRM_VSEG_EVENT_BUDGET,
 *	@base.length sizeof(this structure).
 * @user_data: the request's @user_data.
 * @budget: the process's Budget in each group when the event was sent,
 *	indexed by DRM_VSEG_BUDGET_GROUP_*.
 */
struct drm_vseg_event_budget {
	struct drm_event base;
	__u64 user_data;
	__u64 budget[DRM_VSEG_BUDGET_NUM_GROUPS];
};

#define DRM_VSEG_RESIDENCY_EXT_TRIM	1

/**
 * struct drm_vseg_residency_ext_trim - MAKE_RESIDENT extension: what to trim
 *
 * WDDM's NumBytesToTrim. MAKE_RESIDENT makes buffers resident wherever
 * there is room, whether or not the process is over its budget; with
 * this extension it also reports, when it succeeds, how far the process
 * is over its Budget in each group now (0 when within it): the bytes it
 * should evict or offer to stay within. EVICT refuses the extension
 * (-EINVAL).
 *
 * @base: @base.name is %DRM_VSEG_RESIDENCY_EXT_TRIM.
 * @bytes_to_trim: out: per group (DRM_VSEG_BUDGET_GROUP_*),
 *	CurrentUsage - Budget, or 0; written on success only.
 */
struct drm_vseg_residency_ext_trim {
	struct drm_vseg_user_extension base;
	__u64 bytes_to_trim[DRM_VSEG_BUDGET_NUM_GROUPS];
};

/**
 * struct drm_vseg_set_reservation - DRM_IOCTL_VSEG_SET_RESERVATION argument
 *
 * SetVideoMemoryReservation: the calling process's minimum working set in
 * one budget group. Up to it, the process's buffers resident in the
 * group are not evicted to make room for another process (its own
 * requests may still evict them); a power transition evicts them all the
 * same. The reservation is the process's, whichever of its files sets it
 * (a later call replaces it, 0 drops it), and goes when the process's
 * last file on the device is closed.
 *
 * @extensions: must be zero.
 * @group: DRM_VSEG_BUDGET_GROUP_*.
 * @flags: must be zero.
 * @reservation: bytes; at most the group's available_for_reservation
 *	(&struct drm_vseg_budget_info).
 * @reserved: must be zero.
 *
 * Errors: -EINVAL (unknown @group, nonzero @extensions, @flags or
 * @reserved), -ENOSPC (@reservation above available_for_reservation);
 * either leaves the reservation as it was.
 */
struct drm_vseg_set_reservation {
	__u64 extensions;
	__u32 group;
	__u32 flags;
	__u64 reservation;
	__u64 reserved[2];
};

/* D3DKMT_OFFER_PRIORITY; AUTO is NORMAL. */
#define DRM_VSEG_OFFER_PRIORITY_LOW	1
#define DRM_VSEG_OFFER_PRIORITY_NORMAL	2
#define DRM_VSEG_OFFER_PRIORITY_HIGH	3
#define DRM_VSEG_OFFER_PRIORITY_AUTO	4

/* Most handles one OFFER or RECLAIM takes (more: -E2BIG). */
#define DRM_VSEG_MAX_OFFER_HANDLES	1024

/**
 * struct drm_vseg_offer - DRM_IOCTL_VSEG_OFFER argument
 *
 * D3DKMTOfferAllocations: the caller can recreate the content of these
 * buffers and does not use them until it reclaims them
 * (DRM_IOCTL_VSEG_RECLAIM). Under memory pressure an offered buffer in a
 * memory segment is discarded (its content is dropped, it goes to system
 * memory, reading zero) before any buffer not offered is evicted; among
 * offered buffers, %DRM_VSEG_OFFER_PRIORITY_LOW ones first, then NORMAL,
 * then HIGH (best effort, see Documentation/gpu/vseg.rst). While offered,
 * a buffer is refused with -EBUSY by MAKE_RESIDENT, SUBMIT's allocation
 * list, VM_BIND, GEM_MMAP_OFFSET, KMS framebuffer creation, the display
 * and PRIME export (DRM_IOCTL_PRIME_HANDLE_TO_FD); a CPU access through an
 * existing mapping gets SIGBUS.
 * Offering an offered buffer again changes its offer priority.
 *
 * @extensions: must be zero (an extension point).
 * @handles: user pointer to @count __u32 GEM handles of the caller's file.
 * @count: 1..%DRM_VSEG_MAX_OFFER_HANDLES (more: -E2BIG).
 * @priority: %DRM_VSEG_OFFER_PRIORITY_LOW, NORMAL, HIGH or AUTO (NORMAL).
 * @flags: must be zero.
 * @pad: must be zero.
 * @reserved: must be zero.
 *
 * Errors, all checked before any buffer changes (nothing changes on
 * error): -EINVAL (bad @priority, nonzero @extensions, @flags, @pad or
 * @reserved, zero @count; a buffer of a protected (VPR) segment, an
 * imported buffer or one exported as a dma-buf), -E2BIG (@count too
 * large), -EFAULT (@handles not readable), -ENOENT (unknown handle),
 * -EPERM (a buffer the caller's file did not create: only its creator
 * may give its content up, as with EVICT's DISCARD), -EBUSY (a pinned
 * buffer: MAKE_RESIDENT's pin, a displayed primary, a kernel mapping or
 * another device's attachment).
 */
struct drm_vseg_offer {
	__u64 extensions;
	__u64 handles;
	__u32 count;
	__u32 priority;
	__u32 flags;
	__u32 pad;
	__u64 reserved[2];
};

#define DRM_VSEG_RECLAIM_OK		0
#define DRM_VSEG_RECLAIM_DISCARDED	1

/**
 * struct drm_vseg_reclaim - DRM_IOCTL_VSEG_RECLAIM argument
 *
 * D3DKMTReclaimAllocations: take offered buffers back. Each goes back to
 * its residency priority's place in the eviction order and is usable
 * again; its result says whether its content survived
 * (%DRM_VSEG_RECLAIM_OK) or was discarded while offered
 * (%DRM_VSEG_RECLAIM_DISCARDED: it reads zero and the caller recreates
 * it). A discarded buffer is in system memory: it comes back to a
 * segment at its next use (MAKE_RESIDENT or SUBMIT) as any evicted buffer.
 *
 * @extensions: must be zero (an extension point).
 * @handles: user pointer to @count __u32 GEM handles, each offered.
 * @results: user pointer to @count __u32, written with a
 *	DRM_VSEG_RECLAIM_* value per handle.
 * @count: 1..%DRM_VSEG_MAX_OFFER_HANDLES (more: -E2BIG).
 * @flags: must be zero.
 * @syncobj: 0, or a syncobj handle whose fence is replaced with one that
 *	signals when the paging the buffers still wait for (a discard under
 *	way) is done; already signalled when there is none.
 * @pad: must be zero.
 * @reserved: must be zero.
 *
 * Errors, all checked before any buffer changes: -EINVAL (nonzero
 * @extensions, @flags, @pad or @reserved, zero @count, a buffer that is
 * not offered), -E2BIG, -EFAULT (@handles not readable, @results not
 * writable), -ENOENT (unknown handle or @syncobj), -EPERM (a buffer the
 * caller's file did not create).
 */
struct drm_vseg_reclaim {
	__u64 extensions;
	__u64 handles;
	__u64 results;
	__u32 count;
	__u32 flags;
	__u32 syncobj;
	__u32 pad;
	__u64 reserved[2];
};

#if defined(__cplusplus)
}
#endif

#endif /* _UAPI_VSEG_DRM_H_ */
