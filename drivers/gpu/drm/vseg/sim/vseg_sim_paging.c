// SPDX-License-Identifier: GPL-2.0-only
/*
 * Copyright (c) 2026 The vseg authors
 *
 * The software GPU's paging engine (vseg_hw_ops.run_paging): it runs the
 * operations the core wrote into the paging buffer (WDDM's
 * DxgkDdiBuildPagingBuffer), a batch at a time. Transfers and fills reach
 * memory physically through the bus (memory segments by GPU physical
 * address, system pages by the bus's system class), never through the
 * aperture; the aperture operations write the GART's entries
 * (vseg_sim_gart.c). UPDATE_PT copies page-table entries the same way
 * (the driver staged their values in a system page), FLUSH_TLB flushes
 * the MMU's TLB (vseg_sim_mmu.c).
 *
 * TRANSFER_VIRTUAL and FILL_VIRTUAL name their memory by GPU virtual
 * addresses of the paging engine's own VA space (WDDM's paging process),
 * whose root the core set once (set_paging_root): the MMU translates
 * them a page at a time, through its TLB, as it does the render engine's
 * (each step holding the GART's lock, so that a flush waits for it), and
 * the bytes then move physically as for TRANSFER and FILL. An address
 * without a valid entry fails the operation with -EFAULT.
 *
 * Encrypted paging is the engine's: a Transfer with
 * %VSEG_PAGING_F_ENCRYPT or %VSEG_PAGING_F_DECRYPT XORs the bytes it
 * writes with a key stream, block n of a buffer's stream (32 bytes) being
 * the keyed BLAKE2s hash of the eviction's nonce and n under the key the
 * core programmed at load (set_vpr_key). The same XOR decrypts.
 */

#include <linux/minmax.h>
#include <linux/mm.h>
#include <linux/sched.h>
#include <linux/string.h>
#include <crypto/blake2s.h>

#include "../vseg_compat.h"
#include "vseg_sim.h"

/* Bytes of key stream one hash gives. */
#define VPR_BLOCK	BLAKE2S_HASH_SIZE

static_assert(VSEG_HW_VPR_KEY_SIZE == BLAKE2S_KEY_SIZE);

/**
 * vseg_sim_set_vpr_key() - program the paging engine's key
 * @hw: the software GPU
 * @key: %VSEG_HW_VPR_KEY_SIZE bytes
 */
void vseg_sim_set_vpr_key(struct vseg_hw *hw, const u8 *key)
{
	memcpy(to_vseg_sim(hw)->paging.key, key, VSEG_HW_VPR_KEY_SIZE);
}

/*
 * Write @src XOR the key stream of (@key, @nonce) from @offset on into
 * @dst. @dst never holds @src's bytes as they are, not even for a moment:
 * plaintext never reaches the system pages of an encrypted copy.
 */
static void vpr_crypt(const u8 *key, u64 nonce, u64 offset, void *dst,
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
				     sizeof(in), key, VSEG_HW_VPR_KEY_SIZE);
		}
		d[i] = s[i] ^ stream[(offset + i) % VPR_BLOCK];
	}
	memzero_explicit(stream, sizeof(stream));
}

/* Fill a page at a time; a zero fill leaves unbacked memory unbacked. */
static int paging_fill(struct vseg_hw *hw, u64 dst, u32 value, u64 size)
{
	struct vseg_hw_bus *bus = hw->bus;
	struct vseg_hw_mapping m;
	u64 done = 0, len;
	void *d;

	if (!value)
		return bus->ops->zero(bus, dst, size);
	while (done < size) {
		d = bus->ops->map(bus, dst + done, &len, true, &m);
		if (!d)
			return -EFAULT;
		len = min(len, size - done);
		memset32(d, value, len / sizeof(u32));
		bus->ops->unmap(bus, &m);
		done += len;
		cond_resched();
	}
	return 0;
}

/*
 * A Transfer, encrypting or decrypting a protected buffer's bytes on the
 * way (the result is written straight into the destination). One that
 * fails part-way zeroes what it did not write: the destination may be
 * pages of another owner's that only the Transfer was to overwrite.
 */
static int paging_transfer(struct vseg_hw *hw, u64 dst, u64 src, u64 size,
			   u32 flags)
{
	bool crypt = flags & (VSEG_PAGING_F_ENCRYPT | VSEG_PAGING_F_DECRYPT);
	struct vseg_sim_paging *eng = &to_vseg_sim(hw)->paging;
	struct vseg_hw_bus *bus = hw->bus;
	struct vseg_hw_mapping dm, sm;
	u64 done = 0, dlen, slen, n, prot;
	void *d, *s;
	int err = 0;

	/* The protected side's address: its offset in the buffer. */
	prot = flags & VSEG_PAGING_F_ENCRYPT ? src : dst;
	if (crypt && (prot < eng->crypt_base || !eng->crypt_nonce))
		err = -EFAULT;

	while (!err && done < size) {
		d = bus->ops->map(bus, dst + done, &dlen, true, &dm);
		if (!d) {
			err = -EFAULT;
			break;
		}
		s = bus->ops->map(bus, src + done, &slen, false, &sm);
		if (!s) {
			bus->ops->unmap(bus, &dm);
			err = -EFAULT;
			break;
		}
		n = min3(dlen, slen, size - done);
		if (crypt)
			vpr_crypt(eng->key, eng->crypt_nonce,
				  prot + done - eng->crypt_base, d, s, n);
		else
			memcpy(d, s, n);
		bus->ops->unmap(bus, &sm);
		bus->ops->unmap(bus, &dm);
		done += n;
		cond_resched();
	}
	if (err)
		paging_fill(hw, dst + done, 0, size - done);
	return err;
}

/**
 * vseg_sim_set_paging_root() - the paging VA space's root page table
 * @hw: the software GPU
 * @root: its bus address, 0 for none
 */
void vseg_sim_set_paging_root(struct vseg_hw *hw, u64 root)
{
	WRITE_ONCE(to_vseg_sim(hw)->paging.root, root);
}

/*
 * A TRANSFER_VIRTUAL (@src != NULL) or FILL_VIRTUAL of @size bytes at
 * paging VA @dst: each step translates the next bytes of both sides (at
 * most to the end of their pages) and moves them physically.
 */
static int paging_virtual(struct vseg_hw *hw, u64 dst, const u64 *src,
			  u32 value, u64 size)
{
	struct vseg_sim *sim = to_vseg_sim(hw);
	u64 root = READ_ONCE(sim->paging.root);
	u64 done = 0, da = 0, sa = 0, dlen = 0, slen = 0, n;
	int err = 0;

	while (!err && done < size) {
		mutex_lock(&sim->gart.lock);
		err = vseg_sim_mmu_translate(sim, root, dst + done, true, &da,
					     &dlen);
		n = min(dlen, size - done);
		if (!err && src) {
			err = vseg_sim_mmu_translate(sim, root, *src + done,
						     false, &sa, &slen);
			n = min(n, slen);
		}
		if (!err)
			err = src ? paging_transfer(hw, da, sa, n, 0) :
				    paging_fill(hw, da, value, n);
		mutex_unlock(&sim->gart.lock);
		done += n;
		cond_resched();
	}
	return err;
}

/*
 * An UPDATE_PT: copy @size bytes of page-table entries from @src to
 * @dst, one whole entry at a time (the MMU may walk the table meanwhile:
 * it reads an entry before or after, never half of one). Which entries
 * the copy may overwrite is the driver's to decide before it queues it.
 */
static int paging_update_pt(struct vseg_hw *hw, u64 dst, u64 src, u64 size)
{
	struct vseg_hw_bus *bus = hw->bus;
	struct vseg_hw_mapping dm, sm;
	u64 done = 0, dlen, slen, n, i;
	u64 *d;
	const u64 *s;

	if (!IS_ALIGNED(dst | src | size, sizeof(u64)))
		return -EINVAL;
	while (done < size) {
		d = bus->ops->map(bus, dst + done, &dlen, true, &dm);
		if (!d)
			return -EFAULT;
		s = bus->ops->map(bus, src + done, &slen, false, &sm);
		if (!s) {
			bus->ops->unmap(bus, &dm);
			return -EFAULT;
		}
		n = min3(dlen, slen, size - done) / sizeof(u64);
		for (i = 0; i < n; i++)
			WRITE_ONCE(d[i], READ_ONCE(s[i]));
		bus->ops->unmap(bus, &sm);
		bus->ops->unmap(bus, &dm);
		if (!n)
			return -EFAULT;
		done += n * sizeof(u64);
	}
	return 0;
}

/* Run one operation. */
static int paging_exec(struct vseg_hw *hw, const struct vseg_paging_op *o,
		       struct vseg_hw_paging_result *res)
{
	struct vseg_sim *sim = to_vseg_sim(hw);
	u64 n = 0;
	int err;

	switch (o->opcode) {
	case VSEG_PAGING_OP_TRANSFER:
		err = paging_transfer(hw, o->dst, o->src, o->size, o->flags);
		break;
	case VSEG_PAGING_OP_FILL:
		err = paging_fill(hw, o->dst, (u32)o->src, o->size);
		break;
	case VSEG_PAGING_OP_DISCARD:
		/* The content is not kept: nothing to do. */
		err = 0;
		break;
	case VSEG_PAGING_OP_MAP_APERTURE:
		err = vseg_sim_gart_write(hw, o->dst >> PAGE_SHIFT, o->src,
					  o->size >> PAGE_SHIFT, &n);
		res->gart_set += n;
		if (!err && (o->flags & VSEG_PAGING_F_NEW_RANGE))
			res->gart_binds++;
		break;
	case VSEG_PAGING_OP_UNMAP_APERTURE:
		err = vseg_sim_gart_clear(hw, o->dst >> PAGE_SHIFT,
					  o->size >> PAGE_SHIFT, &n);
		res->gart_cleared += n;
		if (n)
			res->gart_unbinds++;
		break;
	case VSEG_PAGING_OP_CRYPT_CONTEXT:
		sim->paging.crypt_base = o->dst;
		sim->paging.crypt_nonce = o->src;
		err = 0;
		break;
	case VSEG_PAGING_OP_UPDATE_PT:
		err = paging_update_pt(hw, o->dst, o->src, o->size);
		break;
	case VSEG_PAGING_OP_FLUSH_TLB:
		vseg_sim_flush_tlb(hw);
		err = 0;
		break;
	case VSEG_PAGING_OP_TRANSFER_VIRTUAL:
		err = paging_virtual(hw, o->dst, &o->src, 0, o->size);
		break;
	case VSEG_PAGING_OP_FILL_VIRTUAL:
		err = paging_virtual(hw, o->dst, NULL, (u32)o->src, o->size);
		break;
	default:
		return -EINVAL;
	}
	if (err)
		return err;
	res->executed[o->opcode]++;
	if (o->opcode == VSEG_PAGING_OP_TRANSFER ||
	    o->opcode == VSEG_PAGING_OP_FILL ||
	    o->opcode == VSEG_PAGING_OP_TRANSFER_VIRTUAL ||
	    o->opcode == VSEG_PAGING_OP_FILL_VIRTUAL)
		res->bytes += o->size;
	return 0;
}

/**
 * vseg_sim_run_paging() - run paging operations on the paging engine
 * @hw: the software GPU
 * @ops: the operations, in the paging buffer
 * @num: how many
 * @res: what ran is added here
 *
 * Return: 0 or the first failure's error; every operation is tried.
 */
int vseg_sim_run_paging(struct vseg_hw *hw, const struct vseg_paging_op *ops,
			u32 num, struct vseg_hw_paging_result *res)
{
	struct vseg_paging_op op;
	int err = 0, ret;
	u32 i;

	for (i = 0; i < num; i++) {
		/* Read once: the buffer is write-combined memory. */
		op = ops[i];
		ret = paging_exec(hw, &op, res);
		if (ret) {
			res->failed++;
			err = err ?: ret;
		}
	}
	return err;
}
