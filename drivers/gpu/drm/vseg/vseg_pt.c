// SPDX-License-Identifier: GPL-2.0-only
/*
 * Copyright (c) 2026 The vseg authors
 *
 * GPU page tables (WDDM v2 GpuMmu): each VA space (vseg_vm.c) has a tree
 * of page-table pages in the format of vseg_hw.h, which the GPU's MMU
 * walks for the render engine. Each page-table page is a kernel buffer of
 * one page in the aperture segment (it counts against the aperture's
 * commit limit), sharing the VA space's reservation, and charged like a
 * pin of the aperture to the process, user and device that made the VA
 * space (vseg_limits.c): a client that maps sparse ranges to make tables
 * runs into its own bound, not the whole aperture.
 *
 * Eviction: the pages are on TTM's LRU like any buffer of the aperture.
 * Every job of the VA space fences its reservation, so TTM evicts a page
 * only while no job of the space runs; the eviction (vseg_pt_evicting(),
 * from the move) takes the page out of the tree the MMU walks (its
 * parent's entry, or the root address, goes invalid) and the TLB is
 * flushed. A job's submission (vseg_pt_restore(), the reservation held)
 * brings every evicted page back into the aperture, rewrites directories
 * from their children, and has vseg_vm.c rewrite every mapping's entries
 * (a leaf's entries are not kept while it is out: its page may even be
 * swapped out and come back as another page). Updates made for a page
 * while it was out are dropped (its generation changed). The tables'
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
#include "vseg_limits.h"
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
 * @charged: the page is charged to &vseg_pt.limits.
 * @parent: the directory pointing at it, NULL for the root.
 * @index: its entry there.
 * @resident: in the aperture and in the tree the MMU walks; else evicted,
 *	@page not to be touched (it may be gone).
 * @gen: counts the page's evictions and restorations: an UPDATE_PT made
 *	for another generation is dropped.
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
	bool charged;
	struct vseg_pt_page *parent;
	u32 index;
	bool resident;
	u32 gen;
	struct list_head link;
};

/**
 * struct vseg_pt_tbo - a page-table page's TTM buffer
 * @tbo: TTM's.
 * @pt: the tables, NULL once the page is being freed; under the buffer's
 *	reservation (the VA space's), which an eviction holds.
 * @p: the page.
 */
struct vseg_pt_tbo {
	struct ttm_buffer_object tbo;
	struct vseg_pt *pt;
	struct vseg_pt_page *p;
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
 * @limits: its bounds, which each page is charged to (a pin of the
 *	aperture).
 * @resv_obj: the VA space's reservation object, which every page shares
 *	(a reference).
 * @num_evicted: pages evicted, waiting for vseg_pt_restore().
 * @evictions: pages evicted since the VA space was made (debugfs).
 * @restores: pages brought back (debugfs).
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
	struct vseg_limits_client *limits;
	struct drm_gem_object *resv_obj;
	u32 num_evicted;
	u64 evictions;
	u64 restores;
	atomic_t pending;
	struct list_head link;
};

#define LEAF	(VSEG_HW_PT_LEVELS - 1)

static void pt_bo_destroy(struct ttm_buffer_object *tbo)
{
	drm_gem_object_release(&tbo->base);
	kfree(container_of(tbo, struct vseg_pt_tbo, tbo));
}

static struct vseg_pt_tbo *to_pt_tbo(struct ttm_buffer_object *tbo)
{
	return container_of(tbo, struct vseg_pt_tbo, tbo);
}

/* The placement of a page-table page: anywhere in the aperture. */
static void pt_placement(struct vseg_device *vdev, struct ttm_place *place,
			 struct ttm_placement *placement)
{
	*place = (struct ttm_place){
		.mem_type = TTM_PL_TT,
		.lpfn = vdev->aperture.desc->size >> PAGE_SHIFT,
	};
	memset(placement, 0, sizeof(*placement));
	vseg_placement_set(placement, place, 1);
}

static u32 pt_aperture_id(struct vseg_pt *pt)
{
	return pt->vdev->aperture.desc->id;
}

/* Free a page; an eviction finds no page any more (pt_forget()). */
static void pt_page_free(struct vseg_pt *pt, struct vseg_pt_page *p)
{
	if (p->bo)
		vseg_ttm_bo_put(p->bo);
	if (p->charged)
		vseg_limits_uncharge(pt->limits, VSEG_LIMIT_PIN,
				     pt_aperture_id(pt), PAGE_SIZE);
	if (p->level == LEAF)
		kvfree(p->tags);
	else
		kvfree(p->child);
	kfree(p);
}

/*
 * A new page-table page, zeroed (every entry invalid): a one-page kernel
 * buffer in the aperture sharing the VA space's reservation (which the
 * caller holds), whose GART entry is in place when this returns, charged
 * to the VA space's bounds (-ENOSPC beyond them).
 */
static struct vseg_pt_page *pt_page_create(struct vseg_pt *pt, u32 level)
{
	struct vseg_device *vdev = pt->vdev;
	struct ttm_operation_ctx ctx = { .interruptible = false };
	struct ttm_place place;
	struct ttm_placement placement;
	struct ttm_buffer_object *tbo;
	struct vseg_pt_tbo *ptbo;
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
	ptbo = kzalloc(sizeof(*ptbo), GFP_KERNEL_ACCOUNT);
	if (!ptbo || (level == LEAF ? !p->tags : !p->child)) {
		kfree(ptbo);
		pt_page_free(pt, p);
		return ERR_PTR(-ENOMEM);
	}
	if (vseg_limits_charge(pt->limits, VSEG_LIMIT_PIN, pt_aperture_id(pt),
			       PAGE_SIZE)) {
		kfree(ptbo);
		pt_page_free(pt, p);
		return ERR_PTR(-ENOSPC);
	}
	p->charged = true;
	ptbo->pt = pt;
	ptbo->p = p;
	tbo = &ptbo->tbo;
	drm_gem_private_object_init(&vdev->drm, &tbo->base, PAGE_SIZE);
	pt_placement(vdev, &place, &placement);
	/*
	 * On failure TTM calls pt_bo_destroy() itself; on success the
	 * buffer is reserved by the caller's lock of the shared reservation.
	 */
	err = ttm_bo_init_reserved(&vdev->bdev, tbo, ttm_bo_type_kernel,
				   &placement, 0, &ctx, NULL,
				   pt->resv_obj->resv, pt_bo_destroy);
	if (err) {
		pt_page_free(pt, p);
		return ERR_PTR(err == -EBUSY ? -ENOSPC : vseg_space_err(err));
	}
	p->bo = tbo;
	/* The reservation is held: no eviction sees it before this. */
	/* Its pages are in place once its MAP_APERTURE has run. */
	wait = dma_resv_wait_timeout(tbo->base.resv, DMA_RESV_USAGE_KERNEL,
				     false, MAX_SCHEDULE_TIMEOUT);
	if (wait < 0 || !tbo->ttm || !tbo->ttm->pages[0]) {
		ptbo->pt = NULL;
		pt_page_free(pt, p);
		return ERR_PTR(wait < 0 ? wait : -ENOMEM);
	}
	p->page = tbo->ttm->pages[0];
	p->addr = VSEG_HW_SYSTEM_ADDR(page_to_phys(p->page));
	p->resident = true;
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
	/* No eviction of a page reaches the tables once they go. */
	list_for_each_entry(pt, &dead, link) {
		dma_resv_lock(pt->resv_obj->resv, NULL);
		list_for_each_entry(p, &pt->pages, link)
			to_pt_tbo(p->bo)->pt = NULL;
		dma_resv_unlock(pt->resv_obj->resv);
	}
	list_for_each_entry_safe(pt, next, &dead, link) {
		list_for_each_entry_safe(p, tmp, &pt->pages, link)
			pt_page_free(pt, p);
		vseg_limits_client_put(pt->limits);
		drm_gem_object_put(pt->resv_obj);
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
 * @limits: the bounds its pages are charged to (a reference is taken)
 * @resv_obj: the VA space's reservation object, which its pages share (a
 *	reference is taken)
 *
 * No page yet: the first bind creates the root.
 *
 * Return: the tables, or NULL for lack of memory.
 */
struct vseg_pt *vseg_pt_create(struct vseg_device *vdev,
			       struct vseg_limits_client *limits,
			       struct drm_gem_object *resv_obj)
{
	struct vseg_pt *pt = kzalloc(sizeof(*pt), GFP_KERNEL_ACCOUNT);

	if (!pt)
		return NULL;
	pt->vdev = vdev;
	pt->limits = vseg_limits_client_get(limits);
	drm_gem_object_get(resv_obj);
	pt->resv_obj = resv_obj;
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
	queue_work(vseg_system_dfl_wq(), &vdev->pt.free_work);
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
				n->parent = parent;
				n->index = i;
				parent->child[i] = n;
				/* An evicted parent gets it when restored. */
				if (parent->resident) {
					pt_write(parent, i, &dir, 1);
					count_update(pt);
				}
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
 * are written at once (they map nothing by themselves). The caller holds
 * the VA space's reservation.
 *
 * Return: 0, -ENOMEM, or -ENOSPC when the aperture has no room or the
 * pages would exceed the VA space's pin bounds (the pages made before
 * stay, charged, until the VA space goes).
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
			 struct ttm_tt *tt, bool system)
{
	u32 seg;

	memset(s, 0, sizeof(*s));
	s->vdev = vdev;
	s->va = m->addr;
	s->end = m->addr + m->range;
	s->offset = m->offset;
	s->readonly = m->readonly;
	s->valid = res && (res_in_segment(res) ||
			   ((res->mem_type == TTM_PL_TT || system) &&
			    tt && ttm_tt_is_populated(tt)));
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
		/* An evicted leaf is rewritten whole when it comes back. */
		if (leaf && leaf->resident) {
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
	pte_src_init(&s, pt->vdev, &m, rec->res, rec->tt, rec->system);
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
	if (!res)
		rec->system = false;
	drm_gem_for_each_gpuvm_bo(vm_bo, obj) {
		drm_gpuvm_bo_for_each_va(va, vm_bo) {
			move_va_of(&m, va);
			pte_src_init(&s, vdev, &m, res, tt, rec->system);
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
 * vseg_pt_bo_set_system() - a buffer in system memory is pinned, or not
 * @vdev: the device
 * @obj: the buffer, reserved, its moves done
 * @lock: its GPU VA lock
 * @rec: where its entries point
 * @pinned: its pages are pinned for another device (vseg_bo_pin_shared())
 *
 * While pinned, the pages of a buffer in plain system memory cannot move
 * or be swapped out: its mappings' entries name them (as an aperture
 * placement's), so that a job reaches a buffer shared with another
 * device. Unpinned, they go invalid again. Rewrites the entries at once
 * and flushes the TLB.
 */
void vseg_pt_bo_set_system(struct vseg_device *vdev,
			   struct drm_gem_object *obj, struct mutex *lock,
			   struct vseg_pt_bo *rec, bool pinned)
{
	mutex_lock(lock);
	rec->system = pinned;
	bo_sync_locked(vdev, obj, rec, rec->res, rec->tt);
	mutex_unlock(lock);
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
 * unbind took over since its values were computed keep their value. An
 * update for a leaf evicted since (or evicted and brought back: another
 * page, rewritten whole) does not run.
 */
static bool update_prepare(struct vseg_paging_pte_update *u)
{
	struct vseg_pt *pt = u->owner;
	struct vseg_pt_page *leaf = u->table;
	u32 i;

	lockdep_assert_held(&pt->lock);
	if (!leaf->resident || leaf->gen != u->gen)
		return false;
	for (i = 0; i < u->count; i++)
		if (leaf->tags[u->first + i] != u->tag)
			u->pte[i] = pt_read(leaf, u->first + i);
	return true;
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

/*
 * One UPDATE_PT's values: the entries of one leaf a mapping covers (the
 * leaf is set by the caller, under @pt->lock).
 */
static struct vseg_paging_pte_update *
update_new(struct vseg_pt *pt, u32 first, u32 n, u64 tag)
{
	struct vseg_paging_pte_update *u;

	u = kzalloc(struct_size(u, pte, n), GFP_KERNEL);
	if (!u)
		return NULL;
	u->lock = &pt->lock;
	u->prepare = update_prepare;
	u->done = update_done;
	u->owner = pt;
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
		err = move_grow(mv, cap, 1);
		if (err)
			return err;
		u = update_new(pt, first, n, m->tag);
		if (!u)
			return -ENOMEM;
		/*
		 * The leaf, where it is now (no allocation under the lock the
		 * paging engine takes). None, or evicted: nothing to update
		 * (an evicted leaf is rewritten whole when it comes back).
		 */
		mutex_lock(&pt->lock);
		leaf = pt_find(pt, va, LEAF);
		if (leaf && leaf->resident) {
			u->table = leaf;
			u->gen = leaf->gen;
			mv->dst[mv->num_ups] =
				VSEG_HW_SYSTEM_ADDR(page_to_phys(leaf->page) +
						    first * sizeof(u64));
		}
		mutex_unlock(&pt->lock);
		if (u->table) {
			for (i = 0, v = va; s && i < n; i++, v += PAGE_SIZE)
				u->pte[i] = pte_of(s, v);
			mv->ups[mv->num_ups++] = u;
		} else {
			update_done(u);
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
			rec->system = false;
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
		pte_src_init(&s, vdev, &vas[i], new_res, new_tt, false);
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

/**
 * vseg_pt_is_page() - is a TTM buffer a page-table page?
 * @tbo: the buffer
 *
 * Return: true for a page-table page (vseg_pt_evicting() applies).
 */
bool vseg_pt_is_page(struct ttm_buffer_object *tbo)
{
	return tbo->destroy == pt_bo_destroy;
}

/* Take @p out of the tree the MMU walks; under @pt->lock. */
static void pt_unlink_locked(struct vseg_pt *pt, struct vseg_pt_page *p)
{
	lockdep_assert_held(&pt->lock);
	if (!p->parent)
		WRITE_ONCE(pt->root_addr, 0);
	else if (p->parent->resident)
		pt_write(p->parent, p->index, NULL, 1);
	count_update(pt);
}

/**
 * vseg_pt_evicting() - a page-table page leaves the aperture
 * @tbo: the page's buffer (vseg_pt_is_page()), reserved (its VA space's
 *	reservation: no job of the space runs), in the aperture
 * @new_mem: where TTM moves it
 *
 * From the move, before the page's GART entry goes, once no job of the
 * VA space may walk it any more: the page leaves the tree the MMU walks
 * (its parent's entry, or the root address, invalid), its entries are no
 * longer written, and the TLB is flushed. The next
 * job of the VA space brings it back (vseg_pt_restore()).
 */
void vseg_pt_evicting(struct ttm_buffer_object *tbo,
		      struct ttm_resource *new_mem)
{
	struct vseg_pt *pt = to_pt_tbo(tbo)->pt;
	struct vseg_device *vdev;
	struct vseg_pt_page *p;
	bool out = false;

	dma_resv_assert_held(tbo->base.resv);
	if (!pt || (new_mem && new_mem->mem_type == TTM_PL_TT))
		return;
	/*
	 * Memory pressure never picks a page a job may still walk
	 * (vseg_ttm_eviction_valuable()); a power transition's eviction of
	 * the whole aperture may: the page leaves once those jobs are done.
	 */
	dma_resv_wait_timeout(tbo->base.resv, DMA_RESV_USAGE_BOOKKEEP, false,
			      MAX_SCHEDULE_TIMEOUT);
	vdev = pt->vdev;
	mutex_lock(&pt->lock);
	p = to_pt_tbo(tbo)->p;
	if (p && p->resident) {
		pt_unlink_locked(pt, p);
		p->resident = false;
		p->gen++;
		pt->num_evicted++;
		pt->evictions++;
		out = true;
	}
	mutex_unlock(&pt->lock);
	if (out) {
		vdev->hw.ops->flush_tlb(&vdev->hw);
		atomic64_inc(&vdev->pager.executed[VSEG_PAGING_OP_FLUSH_TLB]);
	}
}

/* Bring @p back: in the aperture, rewritten, linked in; under alloc_lock. */
static int pt_page_restore(struct vseg_pt *pt, struct vseg_pt_page *p,
			   struct ttm_operation_ctx *ctx)
{
	struct ttm_place place;
	struct ttm_placement placement;
	u64 dir;
	u32 i;
	int err;

	pt_placement(pt->vdev, &place, &placement);
	err = ttm_bo_validate(p->bo, &placement, ctx);
	if (err)
		return err == -EBUSY ? -ENOSPC : vseg_space_err(err);
	/* Its pages, swapped out meanwhile, come back (new ones). */
	err = vseg_tt_populate(p->bo, ctx);
	if (err)
		return err;
	if (!p->bo->ttm || !ttm_tt_is_populated(p->bo->ttm))
		return -ENOMEM;
	mutex_lock(&pt->lock);
	/* Swapped out and in, it may be another page. */
	p->page = p->bo->ttm->pages[0];
	p->addr = VSEG_HW_SYSTEM_ADDR(page_to_phys(p->page));
	pt_write(p, 0, NULL, VSEG_HW_PT_ENTRIES);
	if (p->level == LEAF) {
		memset(p->tags, 0, VSEG_HW_PT_ENTRIES * sizeof(*p->tags));
	} else {
		for (i = 0; i < VSEG_HW_PT_ENTRIES; i++) {
			if (!p->child[i] || !p->child[i]->resident)
				continue;
			dir = vseg_hw_pte_encode(p->child[i]->addr, false,
						 false);
			pt_write(p, i, &dir, 1);
		}
	}
	p->resident = true;
	p->gen++;
	pt->num_evicted--;
	pt->restores++;
	if (!p->parent) {
		WRITE_ONCE(pt->root_addr, p->addr);
	} else if (p->parent->resident) {
		dir = vseg_hw_pte_encode(p->addr, false, false);
		pt_write(p->parent, p->index, &dir, 1);
	}
	count_update(pt);
	mutex_unlock(&pt->lock);
	return 0;
}

/**
 * vseg_pt_restore() - bring a VA space's evicted page-table pages back
 * @pt: the tables
 * @ctx: TTM's context for the room it makes
 *
 * For a job's submission, the VA space's reservation held (vseg_submit.c),
 * before the job's fence goes on it: every evicted page goes back into
 * the aperture (which may evict other buffers), the root first, each
 * directory rewritten from its children; a leaf comes back with every
 * entry invalid. The caller then rewrites every mapping's entries
 * (vseg_vm.c) and flushes the TLB.
 *
 * Return: the number of leaves brought back (0: nothing to rewrite),
 * -ENOSPC when the aperture has no room, -ENOMEM, or -ERESTARTSYS.
 */
int vseg_pt_restore(struct vseg_pt *pt, struct ttm_operation_ctx *ctx)
{
	struct vseg_pt_page *p;
	int leaves = 0, err = 0;
	u32 l;

	dma_resv_assert_held(pt->resv_obj->resv);
	if (!READ_ONCE(pt->num_evicted))
		return 0;
	mutex_lock(&pt->alloc_lock);
	for (l = 0; l < VSEG_HW_PT_LEVELS && !err; l++) {
		list_for_each_entry(p, &pt->pages, link) {
			if (p->level != l || p->resident)
				continue;
			err = pt_page_restore(pt, p, ctx);
			if (err)
				break;
			leaves += l == LEAF;
			cond_resched();
		}
	}
	mutex_unlock(&pt->alloc_lock);
	return err ?: leaves;
}

/**
 * vseg_pt_all_resident() - whether none of a tree's pages is evicted
 * @pt: the tree, its VA space's reservation held
 *
 * Return: true if vseg_pt_restore() has nothing to bring back.
 */
bool vseg_pt_all_resident(struct vseg_pt *pt)
{
	dma_resv_assert_held(pt->resv_obj->resv);
	return !READ_ONCE(pt->num_evicted);
}

/* A leaf's valid entries, added to @c. Under @p's tables' lock. */
static void pt_count(struct vseg_pt_page *p, struct vseg_hw_pte_count *c)
{
	u64 *k = kmap_local_page(p->page);

	vseg_hw_pte_count(k, c);
	kunmap_local(k);
}

/* One VA space's tables, for debugfs: a line, then a line per leaf. */
static void pt_show(struct vseg_pt *pt, struct seq_file *m, u32 ap)
{
	struct vseg_hw_pte_count all = {}, leaf;
	struct vseg_pt_page *p;

	mutex_lock(&pt->lock);
	list_for_each_entry(p, &pt->pages, link) {
		if (p->level == LEAF && p->resident)
			pt_count(p, &all);
	}
	seq_printf(m, "space pid=%d root=0x%llx segment=%u pages=%u levels=%u,%u,%u,%u valid=%llu valid_4k=%llu valid_64k=%llu readonly=%llu system=%llu evicted=%u evictions=%llu restores=%llu\n",
		   pt->pid, pt->root_addr, ap,
		   pt->num_pages[0] + pt->num_pages[1] + pt->num_pages[2] +
		   pt->num_pages[3], pt->num_pages[0], pt->num_pages[1],
		   pt->num_pages[2], pt->num_pages[3], all.valid,
		   all.valid - all.big, all.big, all.readonly, all.system,
		   pt->num_evicted, pt->evictions, pt->restores);
	list_for_each_entry(p, &pt->pages, link) {
		if (p->level != LEAF)
			continue;
		if (!p->resident) {
			seq_printf(m, "  leaf va=0x%llx evicted\n", p->va);
			continue;
		}
		memset(&leaf, 0, sizeof(leaf));
		pt_count(p, &leaf);
		seq_printf(m, "  leaf va=0x%llx addr=0x%llx valid=%llu valid_4k=%llu valid_64k=%llu\n",
			   p->va, p->addr, leaf.valid, leaf.valid - leaf.big,
			   leaf.big);
	}
	mutex_unlock(&pt->lock);
}

/**
 * vseg_pt_show() - every VA space's page tables, for debugfs
 * @vdev: the device
 * @m: the file
 *
 * Per VA space: its creator, root, where its pages live (the aperture's
 * segment id), pages per level, its valid leaf entries (4 KiB and
 * 64 KiB, read-only, system), its evicted pages, evictions and restores;
 * then a line per leaf page.
 */
void vseg_pt_show(struct vseg_device *vdev, struct seq_file *m)
{
	struct vseg_pt *pt;

	mutex_lock(&vdev->pt.lock);
	list_for_each_entry(pt, &vdev->pt.spaces, link)
		pt_show(pt, m, vdev->aperture.desc->id);
	mutex_unlock(&vdev->pt.lock);
}
