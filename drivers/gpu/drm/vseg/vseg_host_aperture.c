// SPDX-License-Identifier: GPL-2.0-only
/*
 * Copyright (c) 2026 The vseg authors
 *
 * The CPU host aperture (DXGK_CPUHOSTAPERTURE) of a memory segment with
 * SupportsCpuHostAperture: a window of host pages through which the CPU
 * reaches a segment it cannot see. Each host page of the window is a slot
 * that points at one page of the segment at a time. The window is the
 * GPU's (vseg_hw_ops.host_aperture_setup, .host_slot_set): this file
 * decides which page takes which slot, programs the slot with the page's
 * GPU physical address, and maps the slot's page of the window, which the
 * GPU names, into the process.
 *
 * A CPU fault on a buffer placed in such a segment does not move it: the
 * faulting page takes a free slot, or the least recently used one, whose
 * old page loses its user mappings (it faults again, and takes a slot
 * again), and the segment page is mapped into the process, write-combined,
 * or cached with SupportsCachedCpuHostAperture. At most as many pages of
 * the segment as the window has slots are mapped into processes at once.
 *
 * A buffer that
 * moves (or is evicted, or discarded) loses its user mappings and its
 * slots before its segment pages are released, and a freed buffer its
 * slots, so that no mapping reaches a page that is another buffer's.
 *
 * Locking: the fault holds the buffer's reservation, then the window's
 * lock, under which the victim's mapping is zapped and the new one is
 * inserted (an insert cannot race a steal of its slot). Slots are dropped
 * under the buffer's reservation (moves) or when nobody maps it (free).
 */

#include <linux/hash.h>
#include <linux/mm.h>
#include <linux/mutex.h>
#include <linux/slab.h>
#include <drm/drm_managed.h>
#include <drm/drm_vma_manager.h>

#include "vseg_bo.h"
#include "vseg_device_types.h"
#include "vseg_host_aperture.h"
#include "vseg_hw.h"
#include "vseg_phys.h"
#include "vseg_res_cursor.h"

/**
 * struct vseg_host_slot - one host page of the window
 * @bo: the buffer whose page the slot points at; NULL when free.
 * @page: that page's index in @bo.
 * @lru: in &vseg_host_window.lru while used (least recently used first),
 *	else in &vseg_host_window.free.
 * @hash: in the bucket of (@bo, @page) while used.
 */
struct vseg_host_slot {
	struct vseg_bo *bo;
	pgoff_t page;
	struct list_head lru;
	struct hlist_node hash;
};

/**
 * struct vseg_host_window - the CPU host aperture of one segment
 * @hw: the GPU whose window it is.
 * @id: the segment's id, the window's number for the GPU.
 * @lock: protects everything below, and &vseg_bo.host_slots.
 * @slots: the slots, one per host page of the window.
 * @num_slots: their number.
 * @used: slots in use.
 * @lru: used slots, least recently used first.
 * @free: free slots.
 * @buckets: used slots by (buffer, page).
 * @hash_bits: log2 of the number of @buckets.
 * @faults: CPU faults served.
 * @remaps: slots taken from another page.
 * @cached: map cached (SupportsCachedCpuHostAperture), else write-combined.
 */
struct vseg_host_window {
	struct vseg_hw *hw;
	u32 id;
	struct mutex lock; /* see above */
	struct vseg_host_slot *slots;
	u32 num_slots;
	u32 used;
	struct list_head lru;
	struct list_head free;
	struct hlist_head *buckets;
	unsigned int hash_bits;
	u64 faults;
	u64 remaps;
	bool cached;
};

static struct hlist_head *bucket(struct vseg_host_window *w,
				 struct vseg_bo *vbo, pgoff_t page)
{
	u64 key = (u64)(uintptr_t)vbo ^ ((u64)page * GOLDEN_RATIO_64);

	return &w->buckets[hash_64(key, w->hash_bits)];
}

static void window_release(struct drm_device *drm, void *arg)
{
	struct vseg_host_window *w = arg;

	w->hw->ops->host_aperture_setup(w->hw, w->id, 0);
	kvfree(w->buckets);
	kvfree(w->slots);
	mutex_destroy(&w->lock);
}

/**
 * vseg_host_aperture_init() - the window of a memory segment, if it has one
 * @vdev: the device
 * @id: a memory segment of its validated table
 *
 * A segment with SupportsCpuHostAperture gets a window of
 * host_aperture_size / PAGE_SIZE slots, all free, and the GPU's window
 * of as many slots; others get none. Freed with the DRM device.
 *
 * Return: 0, -ENOMEM, -EINVAL (the GPU has no such window).
 */
int vseg_host_aperture_init(struct vseg_device *vdev, u32 id)
{
	struct vseg_segment *seg = vseg_seg(vdev, id);
	const struct vseg_segment_desc *d = seg->desc;
	struct vseg_host_window *w;
	u32 i, n;
	int err;

	if (!(d->flags & VSEG_SEGF_CPU_HOST_APERTURE) || !d->host_aperture_size)
		return 0;
	n = d->host_aperture_size >> PAGE_SHIFT;
	w = drmm_kzalloc(&vdev->drm, sizeof(*w), GFP_KERNEL);
	if (!w)
		return -ENOMEM;
	w->hw = &vdev->hw;
	w->id = id;
	mutex_init(&w->lock);
	INIT_LIST_HEAD(&w->lru);
	INIT_LIST_HEAD(&w->free);
	w->num_slots = n;
	w->cached = d->flags & VSEG_SEGF_CACHED_CPU_HOST_APERTURE;
	/* At least two buckets: hash_64() cannot take 0 bits. */
	w->hash_bits = max_t(unsigned int, 1, ilog2(roundup_pow_of_two(n)));
	/* A window as large as a huge segment may not fit: -ENOMEM. */
	w->slots = kvcalloc(n, sizeof(*w->slots), GFP_KERNEL | __GFP_NOWARN);
	w->buckets = kvcalloc(BIT(w->hash_bits), sizeof(*w->buckets),
			      GFP_KERNEL | __GFP_NOWARN);
	err = w->slots && w->buckets ? 0 : -ENOMEM;
	if (!err)
		err = w->hw->ops->host_aperture_setup(w->hw, id, n);
	if (err) {
		window_release(&vdev->drm, w);
		return err;
	}
	for (i = 0; i < n; i++)
		list_add_tail(&w->slots[i].lru, &w->free);
	seg->host = w;
	return drmm_add_action_or_reset(&vdev->drm, window_release, w);
}

/* The window of the segment @vbo is placed in, or NULL. */
static struct vseg_host_window *bo_window(struct vseg_bo *vbo)
{
	struct vseg_device *vdev = bdev_to_vseg(vbo->tbo.bdev);
	struct ttm_resource *res = vbo->tbo.resource;
	u32 id;

	if (!res)
		return NULL;
	id = vseg_mem_type_to_seg(vdev, res->mem_type);
	if (!vseg_seg_is_memory(vdev, id))
		return NULL;
	return vseg_seg(vdev, id)->host;
}

/**
 * vseg_host_aperture_serves() - does the CPU reach a buffer through a window
 * @vbo: the buffer, reserved
 *
 * Return: true if @vbo is placed in a segment with a CPU host aperture:
 * its CPU faults go to vseg_host_aperture_fault() and it stays where it is.
 */
bool vseg_host_aperture_serves(struct vseg_bo *vbo)
{
	dma_resv_assert_held(vbo->tbo.base.resv);
	return bo_window(vbo);
}

/**
 * vseg_host_aperture_reaches() - may a buffer live behind a window
 * @vbo: the buffer
 *
 * Return: true if one of the segments @vbo supports has a CPU host
 * aperture: the CPU can reach it there without moving it.
 */
bool vseg_host_aperture_reaches(struct vseg_bo *vbo)
{
	struct vseg_device *vdev = bdev_to_vseg(vbo->tbo.bdev);
	u32 id;

	for (id = 1; id <= vdev->table.num_segments; id++)
		if ((vbo->params.supported & BIT(id)) &&
		    vseg_seg_is_memory(vdev, id) && vseg_seg(vdev, id)->host)
			return true;
	return false;
}

/* Remove the user mappings of one page of a buffer. */
static void zap_page(struct vseg_bo *vbo, pgoff_t page)
{
	struct drm_vma_offset_node *node = &vbo->tbo.base.vma_node;

	if (!drm_mm_node_allocated(&node->vm_node))
		return;
	unmap_mapping_range(vbo->tbo.bdev->dev_mapping,
			    (loff_t)(drm_vma_node_start(node) + page) <<
			    PAGE_SHIFT, PAGE_SIZE, 1);
}

/* Program a slot: the page frame of its page of the window, or 0. */
static unsigned long slot_set(struct vseg_host_window *w,
			      struct vseg_host_slot *s, u64 addr)
{
	return w->hw->ops->host_slot_set(w->hw, w->id, s - w->slots, addr);
}

static void slot_free(struct vseg_host_window *w, struct vseg_host_slot *s)
{
	slot_set(w, s, VSEG_HW_SLOT_CLEAR);
	hlist_del_init(&s->hash);
	s->bo->host_slots--;
	s->bo = NULL;
	w->used--;
	list_move_tail(&s->lru, &w->free);
}

static struct vseg_host_slot *slot_find(struct vseg_host_window *w,
					struct vseg_bo *vbo, pgoff_t page)
{
	struct vseg_host_slot *s;

	hlist_for_each_entry(s, bucket(w, vbo, page), hash)
		if (s->bo == vbo && s->page == page)
			return s;
	return NULL;
}

/*
 * A slot for (@vbo, @page): its own if it has one (its mapping was
 * removed, by a job or a munmap, while it kept the slot), else a free one,
 * else the least recently used one, whose page loses its user mappings
 * first. Most recently used afterwards.
 */
static struct vseg_host_slot *slot_get(struct vseg_host_window *w,
				       struct vseg_bo *vbo, pgoff_t page)
{
	struct vseg_host_slot *s = slot_find(w, vbo, page);

	if (s)
		goto used;
	s = list_first_entry_or_null(&w->free, struct vseg_host_slot, lru);
	if (!s) {
		s = list_first_entry(&w->lru, struct vseg_host_slot, lru);
		zap_page(s->bo, s->page);
		slot_free(w, s);
		w->remaps++;
	}
	s->bo = vbo;
	s->page = page;
	hlist_add_head(&s->hash, bucket(w, vbo, page));
	vbo->host_slots++;
	w->used++;
used:
	list_move_tail(&s->lru, &w->lru);
	return s;
}

/**
 * vseg_host_aperture_fault() - map a page of a buffer through its window
 * @vbo: the buffer, reserved, idle, placed in a segment with a window
 *	(vseg_host_aperture_serves())
 * @vmf: the fault
 *
 * Backs the segment page behind the faulting page if it was never
 * written, takes a slot for it, programs the slot with the page's GPU
 * physical address and maps the slot's page of the window (one page, no
 * prefault).
 *
 * Return: VM_FAULT_NOPAGE when mapped, VM_FAULT_SIGBUS outside the
 * buffer, VM_FAULT_OOM, or what vmf_insert_pfn_prot() returns.
 */
vm_fault_t vseg_host_aperture_fault(struct vseg_bo *vbo, struct vm_fault *vmf)
{
	struct vseg_device *vdev = bdev_to_vseg(vbo->tbo.bdev);
	struct vseg_host_window *w = bo_window(vbo);
	struct ttm_resource *res = vbo->tbo.resource;
	struct vm_area_struct *vma = vmf->vma;
	struct vseg_host_slot *s;
	unsigned long pfn;
	pgprot_t prot;
	pgoff_t page;
	vm_fault_t ret;
	u64 addr;

	page = ((vmf->address - vma->vm_start) >> PAGE_SHIFT) + vma->vm_pgoff -
	       drm_vma_node_start(&vbo->tbo.base.vma_node);
	if (!w || page >= PFN_UP(vbo->tbo.base.size))
		return VM_FAULT_SIGBUS;
	if (vseg_cursor_populate(vdev, res, (u64)page << PAGE_SHIFT, PAGE_SIZE))
		return VM_FAULT_OOM;
	addr = vseg_phys_base(vdev, w->id) +
	       vseg_cursor_vram_offset(vdev, res, (u64)page << PAGE_SHIFT);
	prot = w->cached ? vma->vm_page_prot :
			   pgprot_writecombine(vma->vm_page_prot);

	mutex_lock(&w->lock);
	w->faults++;
	s = slot_get(w, vbo, page);
	pfn = slot_set(w, s, addr);
	if (pfn) {
		ret = vmf_insert_pfn_prot(vma, vmf->address, pfn, prot);
	} else {
		slot_free(w, s);
		ret = VM_FAULT_SIGBUS;
	}
	mutex_unlock(&w->lock);
	return ret;
}

/**
 * vseg_host_aperture_drop() - free the window slots of a buffer
 * @vbo: the buffer, reserved, or unreachable (being freed)
 *
 * For a buffer that leaves its segment or goes away: its pages lose their
 * user mappings (moves have removed them already) and its slots are free.
 */
void vseg_host_aperture_drop(struct vseg_bo *vbo)
{
	struct vseg_device *vdev = bdev_to_vseg(vbo->tbo.bdev);
	struct vseg_host_window *w;
	u32 i, id;

	/* Only its own faults add slots, under its reservation. */
	if (!READ_ONCE(vbo->host_slots))
		return;
	for (id = 1; id <= vdev->table.num_segments; id++) {
		w = vseg_seg_is_memory(vdev, id) ? vseg_seg(vdev, id)->host :
						   NULL;
		if (!w)
			continue;
		mutex_lock(&w->lock);
		for (i = 0; i < w->num_slots && vbo->host_slots; i++) {
			if (w->slots[i].bo != vbo)
				continue;
			zap_page(vbo, w->slots[i].page);
			slot_free(w, &w->slots[i]);
		}
		mutex_unlock(&w->lock);
	}
}

/**
 * vseg_host_aperture_stats() - the counters of a segment's window
 * @vdev: the device
 * @id: a segment id
 * @st: receives the counters
 *
 * Return: false (and @st zeroed) if segment @id has no CPU host aperture.
 */
bool vseg_host_aperture_stats(struct vseg_device *vdev, u32 id,
			      struct vseg_host_aperture_stats *st)
{
	struct vseg_host_window *w;

	memset(st, 0, sizeof(*st));
	w = vseg_seg_is_memory(vdev, id) ? vseg_seg(vdev, id)->host : NULL;
	if (!w)
		return false;
	mutex_lock(&w->lock);
	st->slots = w->num_slots;
	st->used = w->used;
	st->faults = w->faults;
	st->remaps = w->remaps;
	st->cached = w->cached;
	mutex_unlock(&w->lock);
	return true;
}
