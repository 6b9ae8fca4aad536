// SPDX-License-Identifier: GPL-2.0-only
/*
 * Copyright (c) 2026 The vseg authors
 *
 * GPU page tables (WDDM v2 GpuMmu): each VA space (vseg_vm.c) has a tree
 * of page-table pages in the format of vseg_hw.h, which the GPU's MMU
 * walks for the render engine. Each page-table page is a kernel buffer of
 * one page, pinned in the aperture segment (it counts against the
 * aperture's commit limit, and its page stays where it is). The tables'
 * entries, and a job's root, name each other by the pages' system
 * addresses (VSEG_HW_SYSTEM_ADDR(), %VSEG_HW_PTE_SYSTEM in a directory
 * entry): the MMU reaches them through the bus directly, never through
 * the GART, whose entries are the GPU's (sim/vseg_sim_gart.c). Pages are
 * created by VM_BIND's ioctl for the range it maps, before the bind is
 * applied, and stay until the VA space goes.
 *
 * What the leaf entries say, and when they change:
 *  - a bind writes its mapping's entries, pointing where its buffer's
 *    last move put it (&vseg_bo.pt), or invalid when that is system
 *    memory; an unbind invalidates the entries it removes. Binds are
 *    applied in the fence signalling path: their entries are written at
 *    once, on the CPU, the way the paging engine writes them (counted
 *    with its UPDATE_PT operations), and the TLB is flushed before the
 *    bind's buffer reference can go.
 *  - a move of a bound buffer (vseg_ttm.c) writes, in its paging batch,
 *    after every job using the buffer: UPDATE_PT operations invalidating
 *    each mapping's entries and a FLUSH_TLB, then the transfer, then
 *    UPDATE_PT operations with the new entries. The old placement is
 *    freed only when the batch's fence signals.
 *
 * An UPDATE_PT is, for the paging engine, a copy of entries from a
 * staging array in system memory (&vseg_paging_pte_update.pte, named by
 * its system address) to the leaf's entries: the engine never looks at
 * the core's state. Each leaf entry has a tag: the mapping it belongs to
 * (&vseg_va.tag). The values are computed when the move is made; the
 * batch's run (vseg_paging.c) runs each UPDATE_PT alone, with the VA
 * space's @lock held, after update_prepare() has replaced the value of
 * every entry whose tag is no longer the mapping's by the entry as it is
 * now, so that an operation queued before an unbind or a new bind of the
 * range can never bring back an entry for memory the VA space no longer
 * maps, and no bind or unbind slips in between. update_done() follows in
 * the same path.
 * The MMU (the software GPU's, sim/vseg_sim_mmu.c) caches entries in a
 * TLB; a flush waits for the engine's step in progress.
 */

#include <linux/dma-resv.h>
#include <linux/highmem.h>
#include <linux/sched.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <drm/drm_gem.h>
#include <drm/drm_gpuvm.h>
#include <drm/drm_managed.h>
#include <drm/ttm/ttm_bo.h>
#include <drm/ttm/ttm_placement.h>
#include <drm/ttm/ttm_tt.h>

#include "vseg_compat.h"
#include "vseg_device_types.h"
#include "vseg_hw.h"
#include "vseg_paging.h"
#include "vseg_phys.h"
#include "vseg_placement.h"
#include "vseg_pt.h"
#include "vseg_res_cursor.h"

/* A page-table page is one host page. */
static_assert(PAGE_SIZE == VSEG_HW_PAGE_SIZE);

/**
 * struct vseg_pt_page - one page-table page
 * @bo: the kernel buffer holding it, pinned in the aperture.
 * @page: its page (the paging engine writes it by its system address).
 * @addr: its bus address, VSEG_HW_SYSTEM_ADDR() of @page's physical
 *	address: what its parent's entry, or the job's root, names.
 * @level: 0 (root) to VSEG_HW_PT_LEVELS - 1 (leaf).
 * @va: the first GPU virtual address it covers.
 * @child: a directory's: the page each entry points to, or NULL.
 * @tags: a leaf's: each entry's mapping (&vseg_va.tag), 0 for none.
 * @link: in &vseg_pt.pages.
 */
struct vseg_pt_page {
	struct ttm_buffer_object *bo;
	struct page *page;
	u64 addr;
	u32 level;
	u64 va;
	union {
		struct vseg_pt_page **child;
		u64 *tags;
	};
	struct list_head link;
};

/**
 * struct vseg_pt - the page tables of one VA space
 * @vdev: the device.
 * @alloc_lock: serializes the creation of pages (held while a new page's
 *	buffer is made and mapped into the aperture).
 * @lock: protects the entries, the tags and the child pointers; never
 *	held while allocating or waiting (the paging engine takes it).
 * @root: the root page, NULL until the first bind.
 * @root_addr: its GPU address, 0 before.
 * @pages: every page.
 * @num_pages: pages per level.
 * @next_tag: the last tag handed out.
 * @pid: the process that created the VA space (debugfs).
 * @pending: UPDATE_PT operations made for it and not done with yet.
 * @link: in &vseg_pt_dev.spaces, then .dead.
 */
struct vseg_pt {
	struct vseg_device *vdev;
	struct mutex alloc_lock; /* see above */
	struct mutex lock; /* see above */
	struct vseg_pt_page *root;
	u64 root_addr;
	struct list_head pages;
	u32 num_pages[VSEG_HW_PT_LEVELS];
	atomic64_t next_tag;
	pid_t pid;
	atomic_t pending;
	struct list_head link;
};

#define LEAF	(VSEG_HW_PT_LEVELS - 1)

static void pt_bo_destroy(struct ttm_buffer_object *tbo)
{
	drm_gem_object_release(&tbo->base);
	kfree(tbo);
}

static void pt_page_free(struct vseg_pt_page *p)
{
	if (p->bo) {
		ttm_bo_reserve(p->bo, false, false, NULL);
		ttm_bo_unpin(p->bo);
		ttm_bo_unreserve(p->bo);
		vseg_ttm_bo_put(p->bo);
	}
	if (p->level == LEAF)
		kvfree(p->tags);
	else
		kvfree(p->child);
	kfree(p);
}

/*
 * A new page-table page, zeroed (every entry invalid): a one-page kernel
 * buffer pinned in the aperture, whose GART entry is in place when this
 * returns.
 */
static struct vseg_pt_page *pt_page_create(struct vseg_pt *pt, u32 level)
{
	struct vseg_device *vdev = pt->vdev;
	struct ttm_operation_ctx ctx = { .interruptible = false };
	struct ttm_place place = {
		.mem_type = TTM_PL_TT,
		.lpfn = vdev->aperture.desc->size >> PAGE_SHIFT,
	};
	struct ttm_placement placement = {};
	struct ttm_buffer_object *tbo;
	struct vseg_pt_page *p;
	long wait;
	int err;

	p = kzalloc(sizeof(*p), GFP_KERNEL_ACCOUNT);
	if (!p)
		return ERR_PTR(-ENOMEM);
	p->level = level;
	if (level == LEAF)
		p->tags = kvcalloc(VSEG_HW_PT_ENTRIES, sizeof(*p->tags),
				   GFP_KERNEL_ACCOUNT);
	else
		p->child = kvcalloc(VSEG_HW_PT_ENTRIES, sizeof(*p->child),
				    GFP_KERNEL_ACCOUNT);
	tbo = kzalloc(sizeof(*tbo), GFP_KERNEL_ACCOUNT);
	if (!tbo || (level == LEAF ? !p->tags : !p->child)) {
		kfree(tbo);
		pt_page_free(p);
		return ERR_PTR(-ENOMEM);
	}
	drm_gem_private_object_init(&vdev->drm, &tbo->base, PAGE_SIZE);
	vseg_placement_set(&placement, &place, 1);
	/* On failure TTM calls pt_bo_destroy() itself. */
	err = ttm_bo_init_reserved(&vdev->bdev, tbo, ttm_bo_type_kernel,
				   &placement, 0, &ctx, NULL, NULL,
				   pt_bo_destroy);
	if (err) {
		pt_page_free(p);
		return ERR_PTR(err == -EBUSY ? -ENOSPC : err);
	}
	ttm_bo_pin(tbo);
	ttm_bo_unreserve(tbo);
	p->bo = tbo;
	/* Its pages are in place once its MAP_APERTURE has run. */
	wait = dma_resv_wait_timeout(tbo->base.resv, DMA_RESV_USAGE_KERNEL,
				     false, MAX_SCHEDULE_TIMEOUT);
	if (wait < 0 || !tbo->ttm || !tbo->ttm->pages[0]) {
		pt_page_free(p);
		return ERR_PTR(wait < 0 ? wait : -ENOMEM);
	}
	p->page = tbo->ttm->pages[0];
	p->addr = VSEG_HW_SYSTEM_ADDR(page_to_phys(p->page));
	return p;
}

/* Write entries of a page-table page, as the paging engine does. */
static void pt_write(struct vseg_pt_page *p, u32 first, const u64 *pte,
		     u32 count)
{
	u64 *k = kmap_local_page(p->page);
	u32 i;

	for (i = 0; i < count; i++)
		WRITE_ONCE(k[first + i], pte ? pte[i] : 0);
	kunmap_local(k);
}

static u64 pt_read(struct vseg_pt_page *p, u32 i)
{
	u64 *k = kmap_local_page(p->page);
	u64 e = READ_ONCE(k[i]);

	kunmap_local(k);
	return e;
}

static void count_update(struct vseg_pt *pt)
{
	atomic64_inc(&pt->vdev->pager.executed[VSEG_PAGING_OP_UPDATE_PT]);
}

/* The page-table page at @level covering @va, or NULL. Under @pt->lock. */
static struct vseg_pt_page *pt_find(struct vseg_pt *pt, u64 va, u32 level)
{
	struct vseg_pt_page *p = pt->root;
	u32 l;

	for (l = 0; p && l < level; l++)
		p = p->child[vseg_hw_pt_index(va, l)];
	return p;
}

static void pt_release(struct drm_device *drm, void *arg)
{
	struct vseg_device *vdev = arg;

	/* After the schedulers and the paging engine: every VA space is gone. */
	flush_work(&vdev->pt.free_work);
	mutex_destroy(&vdev->pt.lock);
}

/* Free the tables of VA spaces gone, once the paging engine is past them. */
static void pt_free_work(struct work_struct *work)
{
	struct vseg_device *vdev = container_of(work, struct vseg_device,
						pt.free_work);
	struct vseg_pt_page *p, *tmp;
	struct vseg_pt *pt, *next;
	LIST_HEAD(dead);

	mutex_lock(&vdev->pt.lock);
	list_splice_init(&vdev->pt.dead, &dead);
	mutex_unlock(&vdev->pt.lock);
	if (list_empty(&dead))
		return;
	/* The UPDATE_PT operations made for them have run. */
	list_for_each_entry(pt, &dead, link)
		wait_event(vdev->pt.idle, !atomic_read(&pt->pending));
	/* No TLB entry survives under a root that may be reused. */
	vdev->hw.ops->flush_tlb(&vdev->hw);
	list_for_each_entry_safe(pt, next, &dead, link) {
		list_for_each_entry_safe(p, tmp, &pt->pages, link)
			pt_page_free(p);
		mutex_destroy(&pt->lock);
		mutex_destroy(&pt->alloc_lock);
		kfree(pt);
	}
}

/**
 * vseg_pt_init() - the device's page-table state
 * @vdev: the device, its bus and GPU set up; the engines, schedulers and
 *	paging engine set up after this, so that they are torn down before
 *	(the last VA space goes with the last job)
 *
 * Return: 0 or -ENOMEM.
 */
int vseg_pt_init(struct vseg_device *vdev)
{
	mutex_init(&vdev->pt.lock);
	INIT_LIST_HEAD(&vdev->pt.spaces);
	INIT_LIST_HEAD(&vdev->pt.dead);
	INIT_WORK(&vdev->pt.free_work, pt_free_work);
	init_waitqueue_head(&vdev->pt.idle);
	return drmm_add_action_or_reset(&vdev->drm, pt_release, vdev);
}

/**
 * vseg_pt_create() - the page tables of a new VA space, empty
 * @vdev: the device
 *
 * No page yet: the first bind creates the root.
 *
 * Return: the tables, or NULL for lack of memory.
 */
struct vseg_pt *vseg_pt_create(struct vseg_device *vdev)
{
	struct vseg_pt *pt = kzalloc(sizeof(*pt), GFP_KERNEL_ACCOUNT);

	if (!pt)
		return NULL;
	pt->vdev = vdev;
	mutex_init(&pt->alloc_lock);
	mutex_init(&pt->lock);
	INIT_LIST_HEAD(&pt->pages);
	pt->pid = task_tgid_nr(current);
	mutex_lock(&vdev->pt.lock);
	list_add_tail(&pt->link, &vdev->pt.spaces);
	mutex_unlock(&vdev->pt.lock);
	return pt;
}

/**
 * vseg_pt_destroy() - the VA space goes: free its tables
 * @pt: the tables, or NULL; nothing maps anything in them any more, and
 *	no job uses them
 *
 * Freed by a worker once the paging engine has run the UPDATE_PT
 * operations made for them; may be called in any context that may take
 * a mutex.
 */
void vseg_pt_destroy(struct vseg_pt *pt)
{
	struct vseg_device *vdev;

	if (!pt)
		return;
	vdev = pt->vdev;
	mutex_lock(&vdev->pt.lock);
	list_move_tail(&pt->link, &vdev->pt.dead);
	mutex_unlock(&vdev->pt.lock);
	queue_work(system_unbound_wq, &vdev->pt.free_work);
}

/**
 * vseg_pt_root() - the root page table's GPU address, for a job
 * @pt: the tables
 *
 * Return: the address, 0 while there is none.
 */
u64 vseg_pt_root(struct vseg_pt *pt)
{
	return READ_ONCE(pt->root_addr);
}

/**
 * vseg_pt_new_tag() - a tag for a new mapping
 * @pt: the tables
 *
 * Return: a tag never handed out before in @pt (never 0).
 */
u64 vseg_pt_new_tag(struct vseg_pt *pt)
{
	return atomic64_inc_return(&pt->next_tag);
}

/* Make sure the page at @level covering @va exists, its parents too. */
static int pt_prepare_one(struct vseg_pt *pt, u64 va)
{
	struct vseg_pt_page *parent = NULL, *p, *n;
	u64 dir;
	u32 l, i;

	for (l = 0; l < VSEG_HW_PT_LEVELS; l++) {
		mutex_lock(&pt->lock);
		p = l ? parent->child[vseg_hw_pt_index(va, l - 1)] : pt->root;
		mutex_unlock(&pt->lock);
		if (!p) {
			n = pt_page_create(pt, l);
			if (IS_ERR(n))
				return PTR_ERR(n);
			n->va = round_down(va, vseg_hw_pt_entry_span(l) *
					   VSEG_HW_PT_ENTRIES);
			mutex_lock(&pt->lock);
			list_add_tail(&n->link, &pt->pages);
			pt->num_pages[l]++;
			if (!l) {
				pt->root = n;
				WRITE_ONCE(pt->root_addr, n->addr);
			} else {
				i = vseg_hw_pt_index(va, l - 1);
				dir = vseg_hw_pte_encode(n->addr, false, false);
				parent->child[i] = n;
				pt_write(parent, i, &dir, 1);
				count_update(pt);
			}
			mutex_unlock(&pt->lock);
			p = n;
		}
		parent = p;
	}
	return 0;
}

/**
 * vseg_pt_prepare() - create the page-table pages a range needs
 * @pt: the tables
 * @va: first address of the range (page aligned)
 * @range: its bytes
 *
 * For VM_BIND, before the bind is queued: applying it allocates nothing.
 * The new pages' entries are invalid; directory entries pointing at them
 * are written at once (they map nothing by themselves).
 *
 * Return: 0, -ENOMEM, or -ENOSPC when the aperture has no room.
 */
int vseg_pt_prepare(struct vseg_pt *pt, u64 va, u64 range)
{
	u64 span = vseg_hw_pt_entry_span(LEAF - 1), end = va + range;
	int err = 0;

	if (!range || end < va || end > BIT_ULL(VSEG_HW_VA_BITS))
		return -EINVAL;
	mutex_lock(&pt->alloc_lock);
	for (va = round_down(va, span); va < end && !err; va += span) {
		err = pt_prepare_one(pt, va);
		cond_resched();
	}
	mutex_unlock(&pt->alloc_lock);
	return err;
}

static bool res_in_segment(const struct ttm_resource *res)
{
	return res && res->mem_type != TTM_PL_SYSTEM &&
	       res->mem_type != TTM_PL_TT;
}

/*
 * The bus address of byte @off of a buffer in placement @c (its pages in
 * the aperture: their system addresses), and how many bytes follow
 * contiguously, at most @max.
 */
static u64 bus_span(struct vseg_device *vdev, struct vseg_cursor *c, u64 off,
		    u64 max, u64 *addr)
{
	u64 len, where;
	u32 seg;

	len = vseg_cursor_span(c, off, max, &seg, &where);
	*addr = seg ? vseg_phys_base(vdev, seg) + where :
		      VSEG_HW_SYSTEM_ADDR(where);
	return len;
}

/**
 * struct pte_src - where a mapping's entries point
 * @vdev: the device.
 * @c: a cursor over the buffer's placement.
 * @big: the placement's segment has 64 KiB pages.
 * @valid: the placement is reachable (else every entry is invalid).
 * @va: the mapping's first address.
 * @end: the address past its last byte.
 * @offset: the buffer's byte mapped at @va.
 * @readonly: the mapping's entries forbid writes.
 */
struct pte_src {
	struct vseg_device *vdev;
	struct vseg_cursor c;
	bool big;
	bool valid;
	u64 va;
	u64 end;
	u64 offset;
	bool readonly;
};

/* The mappings of a buffer, as a move found them. */
struct move_va {
	struct vseg_pt *pt;
	u64 addr;
	u64 range;
	u64 offset;
	bool readonly;
	u64 tag;
};

static void move_va_of(struct move_va *m, struct drm_gpuva *va)
{
	m->pt = to_vseg_va(va)->pt;
	m->addr = va->va.addr;
	m->range = va->va.range;
	m->offset = va->gem.offset;
	m->readonly = va->flags & VSEG_VA_READONLY;
	m->tag = to_vseg_va(va)->tag;
}

static void pte_src_init(struct pte_src *s, struct vseg_device *vdev,
			 const struct move_va *m, struct ttm_resource *res,
			 struct ttm_tt *tt)
{
	u32 seg;

	memset(s, 0, sizeof(*s));
	s->vdev = vdev;
	s->va = m->addr;
	s->end = m->addr + m->range;
	s->offset = m->offset;
	s->readonly = m->readonly;
	s->valid = res && res->mem_type != TTM_PL_SYSTEM &&
		   (res_in_segment(res) || (tt && ttm_tt_is_populated(tt)));
	if (!s->valid)
		return;
	vseg_cursor_init(&s->c, vdev, tt, res);
	if (res_in_segment(res)) {
		seg = vseg_mem_type_to_seg(vdev, res->mem_type);
		s->big = vseg_seg(vdev, seg)->desc->page_size == SZ_64K;
	}
}

/*
 * The leaf entry of @v: a 64 KiB one when the aligned 64 KiB of VA around
 * it lies inside the mapping and maps one aligned 64 KiB page of a 64 KiB
 * segment, else a 4 KiB one.
 */
static u64 pte_of(struct pte_src *s, u64 v)
{
	u64 g = round_down(v, SZ_64K), addr;

	if (!s->valid)
		return 0;
	if (s->big && g >= s->va && g + SZ_64K <= s->end &&
	    bus_span(s->vdev, &s->c, s->offset + (g - s->va), SZ_64K,
		     &addr) == SZ_64K && IS_ALIGNED(addr, SZ_64K))
		return vseg_hw_pte_encode(addr, s->readonly, true);
	bus_span(s->vdev, &s->c, s->offset + (v - s->va), PAGE_SIZE, &addr);
	return vseg_hw_pte_encode(addr, s->readonly, false);
}

/*
 * Write the entries of [@va, @end) with @s's (NULL: invalid) and tag
 * @tag, at once. Under @pt->lock; leaves that do not exist are skipped
 * (nothing was ever mapped there).
 */
static void pt_set_locked(struct vseg_pt *pt, u64 va, u64 end,
			  struct pte_src *s, u64 tag)
{
	struct vseg_pt_page *leaf;
	u32 first, n, i;
	u64 v, pte, *k;

	lockdep_assert_held(&pt->lock);
	while (va < end) {
		first = vseg_hw_pt_index(va, LEAF);
		n = min_t(u64, VSEG_HW_PT_ENTRIES - first,
			  (end - va) >> VSEG_HW_PAGE_SHIFT);
		leaf = pt_find(pt, va, LEAF);
		if (leaf) {
			for (i = 0, v = va; i < n; i++, v += PAGE_SIZE) {
				/* Computed before the page is mapped. */
				pte = s ? pte_of(s, v) : 0;
				k = kmap_local_page(leaf->page);
				WRITE_ONCE(k[first + i], pte);
				kunmap_local(k);
				leaf->tags[first + i] = tag;
			}
			count_update(pt);
		}
		va += (u64)n << VSEG_HW_PAGE_SHIFT;
	}
}

/**
 * vseg_pt_map_va() - write a new mapping's entries
 * @va: the mapping, linked to its buffer's &drm_gpuvm_bo, its @pt and
 *	@tag set; the caller holds the buffer's GPU VA lock
 * @rec: where the buffer's entries point
 *
 * The entries point where the buffer's last move put it, or are invalid
 * while it is in system memory. In the fence signalling path: writes at
 * once, allocates nothing. The caller flushes the TLB (vseg_pt_flush())
 * once the bind is applied.
 */
void vseg_pt_map_va(struct vseg_va *va, const struct vseg_pt_bo *rec)
{
	struct vseg_pt *pt = va->pt;
	struct move_va m;
	struct pte_src s;

	move_va_of(&m, &va->base);
	pte_src_init(&s, pt->vdev, &m, rec->res, rec->tt);
	mutex_lock(&pt->lock);
	pt_set_locked(pt, s.va, s.end, &s, m.tag);
	mutex_unlock(&pt->lock);
}

/**
 * vseg_pt_clear() - invalidate the entries of a range
 * @pt: the tables
 * @va: first address (page aligned)
 * @range: bytes
 *
 * For an unbind: the entries lose their tag, so that no update queued
 * before brings them back. Writes at once; the caller flushes the TLB
 * before the buffer that was mapped may go.
 */
void vseg_pt_clear(struct vseg_pt *pt, u64 va, u64 range)
{
	mutex_lock(&pt->lock);
	pt_set_locked(pt, va, va + range, NULL, 0);
	mutex_unlock(&pt->lock);
}

/**
 * vseg_pt_flush() - flush the MMU's TLB now
 * @pt: the tables whose entries changed
 *
 * Returns once no engine uses a translation made before (counted as the
 * paging engine's FLUSH_TLB).
 */
void vseg_pt_flush(struct vseg_pt *pt)
{
	struct vseg_device *vdev = pt->vdev;

	vdev->hw.ops->flush_tlb(&vdev->hw);
	atomic64_inc(&vdev->pager.executed[VSEG_PAGING_OP_FLUSH_TLB]);
}

/*
 * Rewrite every mapping of a buffer at once with where it is now (@res,
 * @tt; NULL: unreachable), and remember it; under its GPU VA lock.
 */
static void bo_sync_locked(struct vseg_device *vdev, struct drm_gem_object *obj,
			   struct vseg_pt_bo *rec, struct ttm_resource *res,
			   struct ttm_tt *tt)
{
	struct drm_gpuvm_bo *vm_bo;
	struct drm_gpuva *va;
	struct move_va m;
	struct pte_src s;
	bool any = false;

	rec->res = res;
	rec->tt = tt;
	drm_gem_for_each_gpuvm_bo(vm_bo, obj) {
		drm_gpuvm_bo_for_each_va(va, vm_bo) {
			move_va_of(&m, va);
			pte_src_init(&s, vdev, &m, res, tt);
			mutex_lock(&m.pt->lock);
			pt_set_locked(m.pt, s.va, s.end, &s, m.tag);
			mutex_unlock(&m.pt->lock);
			any = true;
		}
	}
	if (any) {
		vdev->hw.ops->flush_tlb(&vdev->hw);
		atomic64_inc(&vdev->pager.executed[VSEG_PAGING_OP_FLUSH_TLB]);
	}
}

/**
 * vseg_pt_bo_unreachable() - a buffer's pages are about to go elsewhere
 * @vdev: the device
 * @obj: the buffer, reserved and idle
 * @lock: its GPU VA lock
 * @rec: where its entries point
 *
 * Invalidates every entry mapping it, at once, and flushes the TLB: for a
 * drop of its pages outside a move (a discard, vseg_bo.c).
 */
void vseg_pt_bo_unreachable(struct vseg_device *vdev,
			    struct drm_gem_object *obj, struct mutex *lock,
			    struct vseg_pt_bo *rec)
{
	mutex_lock(lock);
	bo_sync_locked(vdev, obj, rec, NULL, NULL);
	mutex_unlock(lock);
}

/*
 * An UPDATE_PT is about to run, @pt->lock held: the entries a bind or
 * unbind took over since its values were computed keep their value.
 */
static void update_prepare(struct vseg_paging_pte_update *u)
{
	struct vseg_pt *pt = u->owner;
	struct vseg_pt_page *leaf = u->table;
	u32 i;

	lockdep_assert_held(&pt->lock);
	for (i = 0; i < u->count; i++)
		if (leaf->tags[u->first + i] != u->tag)
			u->pte[i] = pt_read(leaf, u->first + i);
}

/*
 * An UPDATE_PT is done with (run, or never to run): the tables may go
 * once none is left. Called in the paging batch's run, or by the move.
 */
static void update_done(struct vseg_paging_pte_update *u)
{
	struct vseg_pt *pt = u->owner;
	struct vseg_device *vdev = pt->vdev;

	kfree(u);
	if (atomic_dec_and_test(&pt->pending))
		wake_up_all(&vdev->pt.idle);
}

/* One UPDATE_PT's values: the entries of one leaf a mapping covers. */
static struct vseg_paging_pte_update *
update_new(struct vseg_pt *pt, struct vseg_pt_page *leaf, u32 first, u32 n,
	   u64 tag)
{
	struct vseg_paging_pte_update *u;

	u = kzalloc(struct_size(u, pte, n), GFP_KERNEL);
	if (!u)
		return NULL;
	u->lock = &pt->lock;
	u->prepare = update_prepare;
	u->done = update_done;
	u->owner = pt;
	u->table = leaf;
	u->first = first;
	u->tag = tag;
	u->count = n;
	atomic_inc(&pt->pending);
	return u;
}

/* Room for @n more operations in @mv. */
static int move_grow(struct vseg_pt_move *mv, unsigned int *cap,
		     unsigned int n)
{
	unsigned int want = mv->num_ups + n;
	void *ups, *dst;

	if (want <= *cap)
		return 0;
	want = max(want, 2 * *cap);
	ups = krealloc_array(mv->ups, want, sizeof(*mv->ups), GFP_KERNEL);
	if (!ups)
		return -ENOMEM;
	mv->ups = ups;
	dst = krealloc_array(mv->dst, want, sizeof(*mv->dst), GFP_KERNEL);
	if (!dst)
		return -ENOMEM;
	mv->dst = dst;
	*cap = want;
	return 0;
}

/*
 * The UPDATE_PT operations of one mapping: with @s NULL, invalidations;
 * else the entries where @s points.
 */
static int move_add(struct vseg_pt_move *mv, unsigned int *cap,
		    const struct move_va *m, struct pte_src *s)
{
	struct vseg_pt *pt = m->pt;
	u64 va = m->addr, end = va + m->range, v;
	struct vseg_paging_pte_update *u;
	struct vseg_pt_page *leaf;
	u32 first, n, i;
	int err;

	while (va < end) {
		first = vseg_hw_pt_index(va, LEAF);
		n = min_t(u64, VSEG_HW_PT_ENTRIES - first,
			  (end - va) >> VSEG_HW_PAGE_SHIFT);
		mutex_lock(&pt->lock);
		leaf = pt_find(pt, va, LEAF);
		mutex_unlock(&pt->lock);
		if (leaf) {
			err = move_grow(mv, cap, 1);
			if (err)
				return err;
			u = update_new(pt, leaf, first, n, m->tag);
			if (!u)
				return -ENOMEM;
			for (i = 0, v = va; s && i < n; i++, v += PAGE_SIZE)
				u->pte[i] = pte_of(s, v);
			mv->ups[mv->num_ups] = u;
			mv->dst[mv->num_ups++] =
				VSEG_HW_SYSTEM_ADDR(page_to_phys(leaf->page) +
						    first * sizeof(u64));
		}
		va += (u64)n << VSEG_HW_PAGE_SHIFT;
		cond_resched();
	}
	return 0;
}

/**
 * vseg_pt_move_prepare() - what a move of a buffer does to page tables
 * @mv: receives it; vseg_pt_move_end() frees it, whatever happens
 * @vdev: the device
 * @obj: the buffer, reserved, its new placement backed
 * @lock: its GPU VA lock
 * @rec: where its entries point
 * @new_res: where it goes
 * @new_tt: its pages there (the aperture)
 *
 * Computes, for every mapping of the buffer, the UPDATE_PT operations
 * that invalidate its entries and those that point them at @new_res, and
 * makes @new_res where binds from now on point (@rec).
 *
 * Return: 0 or -ENOMEM (nothing changed).
 */
int vseg_pt_move_prepare(struct vseg_pt_move *mv, struct vseg_device *vdev,
			 struct drm_gem_object *obj, struct mutex *lock,
			 struct vseg_pt_bo *rec, struct ttm_resource *new_res,
			 struct ttm_tt *new_tt)
{
	unsigned int i, n = 0, count = 0, cap = 0;
	struct move_va *vas = NULL;
	struct drm_gpuvm_bo *vm_bo;
	struct drm_gpuva *va;
	struct pte_src s;
	int err = 0;

	memset(mv, 0, sizeof(*mv));
	mv->vdev = vdev;
	mv->obj = obj;
	mv->lock = lock;
	mv->rec = rec;
	for (;;) {
		mutex_lock(lock);
		count = 0;
		drm_gem_for_each_gpuvm_bo(vm_bo, obj) {
			drm_gpuvm_bo_for_each_va(va, vm_bo) {
				if (count < n) {
					move_va_of(&vas[count], va);
					mv->gpuvms[count] = drm_gpuvm_get(va->vm);
				}
				count++;
			}
		}
		if (count <= n) {
			mv->num_gpuvms = count;
			mv->old = *rec;
			rec->res = new_res;
			rec->tt = new_tt;
			mutex_unlock(lock);
			break;
		}
		mutex_unlock(lock);
		/* Not allocated under the lock: counted, then filled. */
		for (i = 0; i < n; i++)
			drm_gpuvm_put(mv->gpuvms[i]);
		kvfree(vas);
		kvfree(mv->gpuvms);
		n = count;
		vas = kvcalloc(n, sizeof(*vas), GFP_KERNEL);
		mv->gpuvms = kvcalloc(n, sizeof(*mv->gpuvms), GFP_KERNEL);
		if (!vas || !mv->gpuvms) {
			kvfree(vas);
			kvfree(mv->gpuvms);
			mv->gpuvms = NULL;
			mv->obj = NULL;
			return -ENOMEM;
		}
	}
	/* Invalidations first, then the new entries. */
	for (i = 0; i < count && !err; i++)
		err = move_add(mv, &cap, &vas[i], NULL);
	mv->num_inval = mv->num_ups;
	for (i = 0; i < count && !err; i++) {
		pte_src_init(&s, vdev, &vas[i], new_res, new_tt);
		if (s.valid)
			err = move_add(mv, &cap, &vas[i], &s);
	}
	kvfree(vas);
	if (err) {
		/* A bind since may have pointed entries at @new_res: undo. */
		mutex_lock(lock);
		bo_sync_locked(vdev, obj, rec, mv->old.res, mv->old.tt);
		mutex_unlock(lock);
		mv->obj = NULL;
	}
	return err;
}

/**
 * vseg_pt_move_emit() - write a move's page-table operations
 * @mv: the move's, from vseg_pt_move_prepare()
 * @pg: the paging state, between begin and end
 * @inval: the invalidations and a FLUSH_TLB (before the content's
 *	operations), else the new entries (after them)
 *
 * Return: 0 or -ENOMEM.
 */
int vseg_pt_move_emit(struct vseg_pt_move *mv, struct vseg_paging *pg,
		      bool inval)
{
	unsigned int i = inval ? 0 : mv->num_inval;
	unsigned int end = inval ? mv->num_inval : mv->num_ups;
	struct vseg_paging_pte_update *u;
	int err;

	if (i == end)
		return 0;
	for (; i < end; i++) {
		u = mv->ups[i];
		/* The paging queue's now, whatever happens: done once run. */
		mv->ups[i] = NULL;
		err = vseg_paging_emit_update(pg, mv->dst[i], u);
		if (err)
			return err;
	}
	return inval ? vseg_paging_emit(pg, VSEG_PAGING_OP_FLUSH_TLB, 0, 0, 0,
					0) : 0;
}

/**
 * vseg_pt_move_fail() - the move failed after vseg_pt_move_prepare()
 * @mv: the move's; what it emitted has run (vseg_paging_abort())
 *
 * The buffer stays where it was: every mapping's entries point there
 * again, at once.
 */
void vseg_pt_move_fail(struct vseg_pt_move *mv)
{
	if (!mv->obj)
		return;
	mutex_lock(mv->lock);
	bo_sync_locked(mv->vdev, mv->obj, mv->rec, mv->old.res, mv->old.tt);
	mutex_unlock(mv->lock);
}

/**
 * vseg_pt_move_end() - free what vseg_pt_move_prepare() made
 * @mv: the move's; the paging operations are written (vseg_paging_end())
 */
void vseg_pt_move_end(struct vseg_pt_move *mv)
{
	unsigned int i;

	for (i = 0; i < mv->num_ups; i++)
		if (mv->ups[i])
			update_done(mv->ups[i]);
	kfree(mv->ups);
	kfree(mv->dst);
	for (i = 0; i < mv->num_gpuvms; i++)
		drm_gpuvm_put(mv->gpuvms[i]);
	kvfree(mv->gpuvms);
	memset(mv, 0, sizeof(*mv));
}

/* One VA space's tables, for debugfs: a line, then a line per leaf. */
static void pt_show(struct vseg_pt *pt, struct seq_file *m, u32 ap)
{
	u64 valid = 0, big = 0, ro = 0, sys = 0, e, lv, lb;
	struct vseg_pt_page *p;
	u32 i;

	mutex_lock(&pt->lock);
	list_for_each_entry(p, &pt->pages, link) {
		if (p->level != LEAF)
			continue;
		for (i = 0; i < VSEG_HW_PT_ENTRIES; i++) {
			e = pt_read(p, i);
			if (!(e & VSEG_HW_PTE_VALID))
				continue;
			valid++;
			big += !!(e & VSEG_HW_PTE_64K);
			ro += !!(e & VSEG_HW_PTE_READONLY);
			sys += !!(e & VSEG_HW_PTE_SYSTEM);
		}
	}
	seq_printf(m, "space pid=%d root=0x%llx segment=%u pages=%u levels=%u,%u,%u,%u valid=%llu valid_4k=%llu valid_64k=%llu readonly=%llu system=%llu\n",
		   pt->pid, pt->root_addr, ap,
		   pt->num_pages[0] + pt->num_pages[1] + pt->num_pages[2] +
		   pt->num_pages[3], pt->num_pages[0], pt->num_pages[1],
		   pt->num_pages[2], pt->num_pages[3], valid, valid - big, big,
		   ro, sys);
	list_for_each_entry(p, &pt->pages, link) {
		if (p->level != LEAF)
			continue;
		lv = 0;
		lb = 0;
		for (i = 0; i < VSEG_HW_PT_ENTRIES; i++) {
			e = pt_read(p, i);
			if (!(e & VSEG_HW_PTE_VALID))
				continue;
			lv++;
			lb += !!(e & VSEG_HW_PTE_64K);
		}
		seq_printf(m, "  leaf va=0x%llx addr=0x%llx valid=%llu valid_4k=%llu valid_64k=%llu\n",
			   p->va, p->addr, lv, lv - lb, lb);
	}
	mutex_unlock(&pt->lock);
}

/**
 * vseg_pt_show() - every VA space's page tables, for debugfs
 * @vdev: the device
 * @m: the file
 *
 * Per VA space: its creator, root, where its pages live (the aperture's
 * segment id), pages per level and its valid leaf entries (4 KiB and
 * 64 KiB, read-only, system); then a line per leaf page.
 */
void vseg_pt_show(struct vseg_device *vdev, struct seq_file *m)
{
	struct vseg_pt *pt;

	mutex_lock(&vdev->pt.lock);
	list_for_each_entry(pt, &vdev->pt.spaces, link)
		pt_show(pt, m, vdev->aperture.desc->id);
	mutex_unlock(&vdev->pt.lock);
}
