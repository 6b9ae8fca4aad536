// SPDX-License-Identifier: GPL-2.0-only
/*
 * Copyright (c) 2026 The vseg authors
 *
 * The video protected region (VprSupported, VprRangeStartOffset, ...) and
 * protected buffers (DRM_VSEG_GEM_CREATE_PROTECTED): what their placement
 * (vseg_placement.c), the engines' jobs (vseg_job.c), the moves (vseg_ttm.c)
 * and power management (vseg_pm.c) share.
 *
 * Encrypted paging. A protected buffer leaves its segment only if the
 * segment has EncryptedPagingSupported, and then its system-memory copy is
 * encrypted by the paging engine (the hardware's: vseg_hw_ops.run_paging)
 * under a random key made at load and programmed into it
 * (vseg_hw_ops.set_vpr_key). Each eviction takes a new nonce, which the
 * move names in a CRYPT_CONTEXT operation before its TRANSFERs, so that no
 * two copies share a key stream; the return decrypts with the nonce the
 * buffer kept, wherever in the region it lands.
 *
 * Extents. Protected buffers that touch one another (the end of one is
 * the start of the next) form one extent of the region; the segment's
 * NumVprSupported bounds how many extents a new placement may leave
 * (vseg_vram_mgr.c).
 */

#include <linux/random.h>
#include <linux/string.h>

#include "vseg_device_types.h"
#include "vseg_phys.h"
#include "vseg_vpr.h"
#include "vseg_vram_mgr.h"

/**
 * vseg_vpr_key_init() - make the device's key for protected content
 * @pg: the paging state, whose engine encrypts and decrypts
 *
 * The key is programmed into the paging engine and kept nowhere else.
 */
void vseg_vpr_key_init(struct vseg_paging *pg)
{
	struct vseg_hw *hw = &pg->vdev->hw;
	u8 key[VSEG_HW_VPR_KEY_SIZE];

	get_random_bytes(key, sizeof(key));
	hw->ops->set_vpr_key(hw, key);
	memzero_explicit(key, sizeof(key));
	atomic64_set(&pg->vpr_nonce, 0);
}

/* The VPR of memory segment @id as [*lo, *hi); false if it has none. */
static bool seg_vpr(struct vseg_device *vdev, u32 id, u64 *lo, u64 *hi)
{
	const struct vseg_segment_desc *d;

	if (!vseg_seg_is_memory(vdev, id))
		return false;
	d = vseg_seg(vdev, id)->desc;
	if (!(d->flags & VSEG_SEGF_VPR_SUPPORTED) || !d->vpr_size)
		return false;
	*lo = d->vpr_start;
	*hi = d->vpr_start + d->vpr_size;
	return true;
}

/**
 * vseg_vpr_res_inside() - does a placement lie wholly inside a VPR
 * @vdev: the device
 * @res: the placement, or NULL (none)
 *
 * Return: true for a placement in a VprSupported memory segment whose
 * every byte is inside the segment's video protected region; false in
 * system memory, the aperture, and anywhere else.
 */
bool vseg_vpr_res_inside(struct vseg_device *vdev, struct ttm_resource *res)
{
	u64 lo, hi;

	if (!res || !seg_vpr(vdev, vseg_mem_type_to_seg(vdev, res->mem_type),
			     &lo, &hi))
		return false;
	return vseg_vram_res_within(res, lo, hi);
}

/**
 * vseg_vpr_phys_inside() - does a GPU physical range lie inside a VPR
 * @vdev: the device
 * @addr: GPU physical address of the first byte
 * @len: bytes (0 counts as 1)
 *
 * For the engines, which check where a protected buffer's bytes would go
 * by the memory itself, not by the buffer's flag.
 *
 * Return: true if every byte is inside the video protected region of one
 * memory segment.
 */
bool vseg_vpr_phys_inside(struct vseg_device *vdev, u64 addr, u64 len)
{
	u64 lo, hi, off;
	u32 id;

	if (!vseg_phys_resolve(vdev, addr, &id, &off) ||
	    !seg_vpr(vdev, id, &lo, &hi))
		return false;
	len = max_t(u64, len, 1);
	return off >= lo && off < hi && len <= hi - off;
}

/**
 * vseg_vpr_evictable() - may a buffer leave the memory segment it is in
 * @vdev: the device
 * @protected: the buffer is protected
 * @res: its placement, or NULL
 *
 * Return: false for a protected buffer in a segment without
 * EncryptedPagingSupported, true otherwise.
 */
bool vseg_vpr_evictable(struct vseg_device *vdev, bool protected,
			struct ttm_resource *res)
{
	u32 id;

	if (!protected || !res)
		return true;
	id = vseg_mem_type_to_seg(vdev, res->mem_type);
	if (!vseg_seg_is_memory(vdev, id))
		return true;
	return vseg_seg(vdev, id)->desc->flags & VSEG_SEGF_ENCRYPTED_PAGING;
}
