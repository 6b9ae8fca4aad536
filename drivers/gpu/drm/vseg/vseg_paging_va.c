// SPDX-License-Identifier: GPL-2.0-only
/*
 * Copyright (c) 2026 The vseg authors
 *
 * The paging engine's own VA space (WDDM's paging process, through which
 * DXGK_BUILDPAGINGBUFFER_TRANSFERVIRTUAL and _FILLVIRTUAL reach memory).
 * The device's own page tables, in the format of vseg_hw.h, made at load:
 * five zeroed system pages (the root, a level-1 and a level-2 directory,
 * and two leaves), which map two fixed windows of VSEG_PAGING_VA_WINDOW
 * bytes, one leaf each: the destination at VSEG_PAGING_VA_DST and the
 * source at VSEG_PAGING_VA_SRC. Its root is handed to the hardware once
 * (vseg_hw_ops.set_paging_root). They are kernel memory of the device's,
 * as the paging buffer is when it lives in system memory: not kernel
 * buffers in the aperture like a client VA space's tables (vseg_pt.c),
 * so that they commit none of the aperture and charge no process.
 * debugfs "paging" shows the windows' valid entries (va_valid=...).
 *
 * A move of a buffer without AccessedPhysically (vseg_ttm.c) copies or
 * clears its content a window at a time: for each chunk, an UPDATE_PT
 * pointing the destination window at the chunk's new pages (and one
 * pointing the source window, read-only, at its old ones), a FLUSH_TLB,
 * then one TRANSFER_VIRTUAL (or FILL_VIRTUAL) of the whole chunk, however
 * scattered its pages are. Entries are 64 KiB ones where the memory is
 * an aligned 64 KiB page of a segment with 64 KiB pages, 4 KiB ones
 * elsewhere (system pages by their system addresses), invalid past the
 * chunk. An UPDATE_PT writes a window's entries up to the larger of its
 * chunk's and the last chunk's (&vseg_paging.va_used), so that a window
 * holds no valid entry past its chunk.
 *
 * The windows need no lock of their own: the operations that use them are
 * written under the paging lock, one move at a time, into batches that
 * the one paging engine runs in the order they were written. Operations
 * that run at once, on the CPU (a clear of unbacked memory), do so only
 * when the engine has run everything queued before (vseg_paging_idle()).
 * After a move the windows keep pointing at its last chunk's pages,
 * which may be freed: nothing but the paging engine's own operations
 * translates through this VA space, and each of them follows the
 * UPDATE_PTs and the FLUSH_TLB of its own chunk.
 *
 * AccessedPhysically buffers, kernel buffers and protected buffers
 * (whose encrypting TRANSFERs name their segment's physical address:
 * vseg_vpr.c) keep the physical Transfer and Fill, and so does every move
 * when the hardware has no paging VA space (no set_paging_root).
 */

#include <linux/gfp.h>
#include <linux/highmem.h>
#include <linux/overflow.h>
#include <linux/sched.h>
#include <linux/slab.h>
#include <drm/drm_managed.h>

#include "vseg_device_types.h"
#include "vseg_hw.h"
#include "vseg_paging.h"
#include "vseg_paging_va.h"
#include "vseg_res_cursor.h"

/* Entries of one window: a whole leaf page-table page. */
#define WINDOW_ENTRIES	(VSEG_PAGING_VA_WINDOW >> VSEG_HW_PAGE_SHIFT)

static_assert(WINDOW_ENTRIES == VSEG_HW_PT_ENTRIES);
static_assert(IS_ALIGNED(VSEG_PAGING_VA_DST, VSEG_PAGING_VA_WINDOW));
static_assert(IS_ALIGNED(VSEG_PAGING_VA_SRC, VSEG_PAGING_VA_WINDOW));
static_assert(VSEG_PAGING_VA_DST + VSEG_PAGING_VA_WINDOW <=
	      VSEG_PAGING_VA_SRC);

/* The bus address of a page-table page: its system address. */
static u64 table_addr(struct page *p)
{
	return VSEG_HW_SYSTEM_ADDR(page_to_phys(p));
}

/* Free the tables, once the hardware can no longer walk them. */
static void va_free(struct vseg_device *vdev)
{
	struct vseg_paging *pg = &vdev->pager;
	u32 i;

	for (i = 0; i < VSEG_PAGING_VA_TABLES; i++) {
		if (pg->va_table[i])
			__free_page(pg->va_table[i]);
		pg->va_table[i] = NULL;
	}
}

static void va_release(struct drm_device *drm, void *arg)
{
	struct vseg_device *vdev = arg;
	struct vseg_paging *pg = &vdev->pager;
	bool ready;

	mutex_lock(&pg->lock);
	ready = pg->va_ready;
	pg->va_ready = false;
	mutex_unlock(&pg->lock);
	if (ready) {
		/* Every operation through the windows has run. */
		vseg_paging_wait_idle(pg);
		vdev->hw.ops->set_paging_root(&vdev->hw, 0);
		/* No TLB entry outlives the pages (a root may be reused). */
		vdev->hw.ops->flush_tlb(&vdev->hw);
	}
	va_free(vdev);
	mutex_destroy(&pg->va_lock);
}

/* Point entry @index of table @t at table @next (a directory entry). */
static void va_link(struct vseg_paging *pg, u32 t, u32 index, u32 next)
{
	u64 *k = kmap_local_page(pg->va_table[t]);

	WRITE_ONCE(k[index], vseg_hw_pte_encode(table_addr(pg->va_table[next]),
						false, false));
	kunmap_local(k);
}

/**
 * vseg_paging_va_init() - the paging engine's VA space
 * @vdev: the device, its paging engine started (vseg_paging_init())
 *
 * Makes the tables of both windows (zeroed system pages, the directories
 * linked, the leaves' entries invalid) and hands their root to the
 * hardware. Without the hardware's set_paging_root there is none, and
 * moves stay physical. Torn down with the DRM device, before the paging
 * engine.
 *
 * Return: 0 or -ENOMEM.
 */
int vseg_paging_va_init(struct vseg_device *vdev)
{
	struct vseg_paging *pg = &vdev->pager;
	u32 i;
	int err;

	mutex_init(&pg->va_lock);
	err = drmm_add_action_or_reset(&vdev->drm, va_release, vdev);
	if (err || !vdev->hw.ops->set_paging_root)
		return err;
	for (i = 0; i < VSEG_PAGING_VA_TABLES; i++) {
		pg->va_table[i] = alloc_page(GFP_KERNEL | __GFP_ZERO);
		if (!pg->va_table[i]) {
			va_free(vdev);
			return -ENOMEM;
		}
	}
	va_link(pg, VSEG_PAGING_VA_ROOT, vseg_hw_pt_index(VSEG_PAGING_VA_DST, 0),
		VSEG_PAGING_VA_L1);
	va_link(pg, VSEG_PAGING_VA_L1, vseg_hw_pt_index(VSEG_PAGING_VA_DST, 1),
		VSEG_PAGING_VA_L2);
	va_link(pg, VSEG_PAGING_VA_L2, vseg_hw_pt_index(VSEG_PAGING_VA_DST, 2),
		VSEG_PAGING_VA_LEAF_DST);
	va_link(pg, VSEG_PAGING_VA_L2, vseg_hw_pt_index(VSEG_PAGING_VA_SRC, 2),
		VSEG_PAGING_VA_LEAF_SRC);
	vdev->hw.ops->set_paging_root(&vdev->hw,
				      table_addr(pg->va_table[VSEG_PAGING_VA_ROOT]));
	mutex_lock(&pg->lock);
	pg->va_ready = true;
	mutex_unlock(&pg->lock);
	return 0;
}

/**
 * vseg_paging_va_ready() - may a move use the virtual operations?
 * @pg: the paging state, between begin and end
 *
 * Return: whether the paging VA space exists.
 */
bool vseg_paging_va_ready(struct vseg_paging *pg)
{
	lockdep_assert_held(&pg->lock);
	return pg->va_ready;
}

/*
 * The paging VA space's UPDATE_PTs: nothing to reconcile (its tables are
 * the device's own pages, never evicted), always run, freed once run.
 */
static bool va_update_prepare(struct vseg_paging_pte_update *u)
{
	return true;
}

static void va_update_done(struct vseg_paging_pte_update *u)
{
	kfree(u);
}

/*
 * The bus address of byte @off of @c's placement, how many bytes follow
 * contiguously (at most @max), and whether they are in a segment with
 * 64 KiB pages.
 */
static u64 va_span(struct vseg_device *vdev, struct vseg_cursor *c, u64 off,
		   u64 max, u64 *addr, bool *big)
{
	u64 len, where;
	u32 seg;

	len = vseg_cursor_span(c, off, max, &seg, &where);
	*addr = vseg_paging_addr(vdev, seg, where);
	*big = seg && vseg_seg(vdev, seg)->desc->page_size == SZ_64K;
	return len;
}

/*
 * The first @count entries of a window for bytes [@off, @off + @len) of
 * @c's placement (@off a multiple of the window, @len at most one): a
 * 64 KiB entry for each aligned 64 KiB inside @len that is one aligned
 * 64 KiB page of a 64 KiB segment, 4 KiB ones elsewhere, invalid past
 * @len.
 */
static void va_ptes(struct vseg_device *vdev, struct vseg_cursor *c, u64 off,
		    u64 len, bool readonly, u64 *pte, u32 count)
{
	u64 w, addr;
	u32 i, k;
	bool big;

	for (i = 0; i < count; i += VSEG_HW_PTE_PER_64K) {
		w = (u64)i << VSEG_HW_PAGE_SHIFT;
		if (w + SZ_64K <= len &&
		    va_span(vdev, c, off + w, SZ_64K, &addr, &big) == SZ_64K &&
		    big && IS_ALIGNED(addr, SZ_64K)) {
			for (k = 0; k < VSEG_HW_PTE_PER_64K; k++)
				pte[i + k] = vseg_hw_pte_encode(addr, readonly,
								true);
			continue;
		}
		for (k = 0; k < VSEG_HW_PTE_PER_64K;
		     k++, w += VSEG_HW_PAGE_SIZE) {
			pte[i + k] = 0;
			if (w >= len)
				continue;
			va_span(vdev, c, off + w, VSEG_HW_PAGE_SIZE, &addr,
				&big);
			pte[i + k] = vseg_hw_pte_encode(addr, readonly, false);
		}
	}
}

/*
 * Point window @win (its leaf, VSEG_PAGING_VA_LEAF_*) at bytes [@off,
 * @off + @len) of @c's placement. The UPDATE_PT writes the entries @len
 * needs and those the window's last one left valid past them (made
 * invalid), not the whole leaf: a small buffer's clear does not copy
 * 4 KiB of entries (under TCG, a good part of creating one).
 */
static int va_update(struct vseg_paging *pg, u32 win, struct vseg_cursor *c,
		     u64 off, u64 len, bool now)
{
	u64 entry = table_addr(pg->va_table[win]);
	u32 *used = &pg->va_used[win - VSEG_PAGING_VA_LEAF_DST];
	struct vseg_paging_pte_update *u;
	u32 need, count;
	int err;

	need = round_up(DIV_ROUND_UP(len, VSEG_HW_PAGE_SIZE),
			VSEG_HW_PTE_PER_64K);
	count = max(need, *used);
	u = kzalloc(struct_size(u, pte, count), GFP_KERNEL);
	if (!u)
		return -ENOMEM;
	u->lock = &pg->va_lock;
	u->prepare = va_update_prepare;
	u->done = va_update_done;
	u->count = count;
	va_ptes(pg->vdev, c, off, len, win == VSEG_PAGING_VA_LEAF_SRC, u->pte,
		count);
	if (!now) {
		err = vseg_paging_emit_update(pg, entry, u);
	} else {
		err = vseg_paging_run(pg, VSEG_PAGING_OP_UPDATE_PT, 0, entry,
				      VSEG_HW_SYSTEM_ADDR(virt_to_phys(u->pte)),
				      count * sizeof(u64));
		kfree(u);
	}
	/*
	 * Operations run in the order written: the leaf's state once this
	 * has run. After a failure any of the @count entries may be valid.
	 */
	*used = err ? count : need;
	return err;
}

static int va_op(struct vseg_paging *pg, u32 opcode, u64 dst, u64 src,
		 u64 size, bool now)
{
	if (now)
		return vseg_paging_run(pg, opcode, 0, dst, src, size);
	return vseg_paging_emit(pg, opcode, 0, dst, src, size);
}

/**
 * vseg_paging_va_emit() - a move's content, through the paging VA space
 * @pg: the paging state, between begin and end, vseg_paging_va_ready()
 * @dst: the new placement's bytes
 * @src: the old placement's bytes (TRANSFER_VIRTUAL), or NULL for a
 *	FILL_VIRTUAL of zero
 * @size: bytes, from the first
 * @now: run at once, on the CPU, if the paging engine is idle (a clear of
 *	memory no page backs: it waits for nothing); else written
 *
 * Per chunk of a window: UPDATE_PTs pointing the windows at the chunk's
 * memory, a FLUSH_TLB, then the virtual operation. The memory written is
 * backed already, as for vseg_paging_emit().
 *
 * Return: 0 or -ENOMEM; run at once, the operations' error.
 */
int vseg_paging_va_emit(struct vseg_paging *pg, struct vseg_cursor *dst,
			struct vseg_cursor *src, u64 size, bool now)
{
	u64 off, len;
	int err = 0;

	lockdep_assert_held(&pg->lock);
	now = now && vseg_paging_idle(pg);
	for (off = 0; off < size && !err; off += len) {
		len = min_t(u64, size - off, VSEG_PAGING_VA_WINDOW);
		err = va_update(pg, VSEG_PAGING_VA_LEAF_DST, dst, off, len,
				now);
		if (!err && src)
			err = va_update(pg, VSEG_PAGING_VA_LEAF_SRC, src, off,
					len, now);
		if (!err)
			err = va_op(pg, VSEG_PAGING_OP_FLUSH_TLB, 0, 0, 0, now);
		if (err)
			break;
		if (src)
			err = va_op(pg, VSEG_PAGING_OP_TRANSFER_VIRTUAL,
				    VSEG_PAGING_VA_DST, VSEG_PAGING_VA_SRC, len,
				    now);
		else
			err = va_op(pg, VSEG_PAGING_OP_FILL_VIRTUAL,
				    VSEG_PAGING_VA_DST, 0, len, now);
		cond_resched();
	}
	return err;
}
