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
 * encrypted: the move's TRANSFERs XOR the bytes they write with a key
 * stream, block n of a buffer's stream (32 bytes) being the keyed BLAKE2s
 * hash (the kernel's crypto library, <crypto/blake2s.h>) of the eviction's
 * nonce and n, under a random key made at load. Each eviction takes a new
 * nonce, so that no two copies share a stream; the return decrypts with
 * the nonce the buffer kept, wherever in the region it lands.
 *
 * Extents. Protected buffers that touch one another (the end of one is
 * the start of the next) form one extent of the region; the segment's
 * NumVprSupported bounds how many extents a new placement may leave
 * (vseg_vram_mgr.c).
 */

#include <linux/random.h>
#include <linux/string.h>
#include <crypto/blake2s.h>

#include "vseg_compat.h"
#include "vseg_device_types.h"
#include "vseg_phys.h"
#include "vseg_vpr.h"
#include "vseg_vram_mgr.h"

/* Bytes of key stream one hash gives. */
#define VPR_BLOCK	BLAKE2S_HASH_SIZE

static_assert(VSEG_VPR_KEY_SIZE == BLAKE2S_KEY_SIZE);

/**
 * vseg_vpr_key_init() - make the device's key for protected content
 * @pg: the paging state, whose engine encrypts and decrypts
 */
void vseg_vpr_key_init(struct vseg_paging *pg)
{
	get_random_bytes(pg->vpr_key, sizeof(pg->vpr_key));
	atomic64_set(&pg->vpr_nonce, 0);
}

/**
 * vseg_vpr_crypt() - encrypt or decrypt bytes of a protected buffer
 * @key: the device's key (%VSEG_VPR_KEY_SIZE bytes)
 * @nonce: the eviction's nonce
 * @offset: offset of the bytes' first one in the buffer
 * @dst: where the result goes
 * @src: the bytes to encrypt or decrypt (may be @dst)
 * @len: how many
 *
 * Writes @src XOR the key stream of (@key, @nonce) from @offset on into
 * @dst: the same call encrypts and decrypts. @dst never holds @src's bytes
 * as they are, not even for a moment: plaintext never reaches the system
 * pages of an encrypted copy.
 */
void vseg_vpr_crypt(const u8 *key, u64 nonce, u64 offset, void *dst,
		    const void *src, u64 len)
{
	u8 stream[VPR_BLOCK], *d = dst;
	const u8 *s = src;
	__le64 in[2];
	u64 block = U64_MAX, i;

	for (i = 0; i < len; i++) {
		if ((offset + i) / VPR_BLOCK != block) {
			block = (offset + i) / VPR_BLOCK;
			in[0] = cpu_to_le64(nonce);
			in[1] = cpu_to_le64(block);
			vseg_blake2s(stream, sizeof(stream), (const u8 *)in,
				     sizeof(in), key, VSEG_VPR_KEY_SIZE);
		}
		d[i] = s[i] ^ stream[(offset + i) % VPR_BLOCK];
	}
	memzero_explicit(stream, sizeof(stream));
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
