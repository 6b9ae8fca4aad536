// SPDX-License-Identifier: GPL-2.0-only
/*
 * Copyright (c) 2026 The vseg authors
 *
 * Power management: standby and hibernate as WDDM's video memory manager
 * makes them, driven by each memory segment's PreservedDuringStandby,
 * PreservedDuringHibernate and PartiallyPreservedDuringHibernate flags and
 * its SystemMemoryEndAddress.
 *
 * Entry: the heads are turned off (their primaries remembered), the
 * engines drained, and every buffer of a memory segment that will lose
 * its content is evicted to system memory through the normal move path
 * (the paging engine). Pinned buffers cannot move: their content is kept
 * in a kernel copy. Exit: when power was lost, the lost part of each
 * segment is poisoned, the pinned buffers get their content back at the
 * same offset, and the heads show their primaries again.
 *
 * The aperture is system memory: its pages and GART survive both
 * transitions untouched.
 *
 * Residency after the exit: the entry records (holding a reference) each
 * buffer it evicts from a memory segment that loses its content. After
 * the exit, a work item brings them back, highest priority first, then
 * the most recently used: each only where its segment has room without
 * evicting anything, under its reservation. Buffers freed, pinned or moved
 * by their user meanwhile are left alone. A new transition or the
 * device's removal stops the work and drops what is left. The records are
 * the kernel's (a list node in each buffer), not a client's: one per
 * buffer, dropped when it is handled.
 *
 * CPU faults: from the entry to the exit, a fault on a buffer of the
 * device waits for the exit (vseg_pm_fault_wait()) rather than move or
 * back a buffer in memory that is losing its power. The entry sets the
 * state before it reserves any buffer, and the fault reads it under the
 * buffer's reservation, so a fault either ends before the entry visits its
 * buffer or sees the transition.
 */

#include <linux/dma-resv.h>
#include <linux/list_sort.h>
#include <linux/mm.h>
#include <linux/module.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <linux/workqueue.h>
#include <drm/drm_drv.h>
#include <drm/drm_gem.h>
#include <drm/drm_managed.h>
#include <drm/ttm/ttm_resource.h>

#include "vseg_bo.h"
#include "vseg_compat.h"
#include "vseg_device_types.h"
#include "vseg_display.h"
#include "vseg_placement.h"
#include "vseg_pm.h"
#include "vseg_vram_mgr.h"

static bool pm_restore = true;
module_param(pm_restore, bool, 0600);
MODULE_PARM_DESC(pm_restore,
		 "Bring the buffers a power transition evicted back to their memory segment after it (default on); off: they wait for sysfs pm \"restore\" (tests) or stay where they are");

/*
 * A pinned buffer's content, kept aside while its segment has no power; or
 * (@lost) a protected buffer's, which the power loss wipes: zeros.
 */
struct vseg_pm_saved {
	struct list_head link;
	struct vseg_bo *bo;
	void *data;
	u64 size;
	bool lost;
};

static const char *kind_name(enum vseg_pm_kind kind)
{
	switch (kind) {
	case VSEG_PM_STANDBY:
		return "standby";
	case VSEG_PM_HIBERNATE:
		return "hibernate";
	default:
		return "none";
	}
}

/*
 * The part of memory segment @d that loses its content in @kind: from
 * *@start to the end. Partially preserved during hibernate: from
 * SystemMemoryEndAddress (an offset in the segment) on.
 */
static bool lost_from(const struct vseg_segment_desc *d,
		      enum vseg_pm_kind kind, u64 *start)
{
	if (d->kind != VSEG_SEGMENT_MEMORY || kind == VSEG_PM_NONE)
		return false;
	*start = 0;
	if (kind == VSEG_PM_STANDBY)
		return !(d->flags & VSEG_SEGF_PRESERVED_STANDBY);
	if (d->flags & VSEG_SEGF_PRESERVED_HIBERNATE)
		return false;
	if (d->flags & VSEG_SEGF_PARTIALLY_PRESERVED_HIBERNATE)
		*start = d->system_memory_end;
	return true;
}

static void saved_free(struct vseg_pm *pm)
{
	struct vseg_pm_saved *s, *tmp;

	list_for_each_entry_safe(s, tmp, &pm->saved, link) {
		list_del(&s->link);
		/* The pin save_pinned() took for the transition. */
		ttm_bo_reserve(&s->bo->tbo, false, false, NULL);
		ttm_bo_unpin(&s->bo->tbo);
		ttm_bo_unreserve(&s->bo->tbo);
		drm_gem_object_put(&s->bo->tbo.base);
		kvfree(s->data);
		kfree(s);
	}
}

/* Drop the records the restore work has not handled; under &vseg_pm.lock. */
static void records_drop(struct vseg_pm *pm)
{
	struct vseg_bo *vbo, *tmp;

	list_for_each_entry_safe(vbo, tmp, &pm->recorded, pm_link) {
		list_del_init(&vbo->pm_link);
		pm->seg[vbo->pm_seg - 1].skipped++;
		drm_gem_object_put(&vbo->tbo.base);
	}
	pm->restore_pending = 0;
}

/* Stop the restore work; it drops nothing: the caller does, under the lock. */
static void restore_stop(struct vseg_pm *pm)
{
	WRITE_ONCE(pm->restore_stop, true);
	cancel_work_sync(&pm->restore);
}

static void pm_release(struct drm_device *drm, void *arg)
{
	struct vseg_pm *pm = arg;

	restore_stop(pm);
	/* vseg_pm_unplug() dropped the records; the device never had one. */
	WARN_ON(!list_empty(&pm->recorded));
	saved_free(pm);
}

static void restore_work(struct work_struct *work);

/**
 * vseg_pm_init() - power management state of a new device
 * @vdev: the device
 *
 * Return: 0 or -ENOMEM.
 */
int vseg_pm_init(struct vseg_device *vdev)
{
	struct vseg_pm *pm = &vdev->pm;
	int err;

	err = drmm_mutex_init(&vdev->drm, &pm->lock);
	if (err)
		return err;
	init_rwsem(&pm->gate);
	init_waitqueue_head(&pm->exited);
	INIT_LIST_HEAD(&pm->saved);
	INIT_LIST_HEAD(&pm->recorded);
	INIT_WORK(&pm->restore, restore_work);
	return drmm_add_action_or_reset(&vdev->drm, pm_release, pm);
}

/*
 * Keep a pinned buffer's content aside; it is reserved and idle. With
 * @lost (a protected buffer that the transition wipes), zeros instead.
 * It is pinned (once more) until the content is back: TTM's eviction of
 * the segment (evict_segments()) passes it by, a protected buffer too.
 */
static int save_pinned(struct vseg_pm *pm, struct vseg_bo *vbo,
		       struct vseg_pm_counts *c, bool lost)
{
	struct ttm_resource *res = vbo->tbo.resource;
	struct vseg_pm_saved *s;
	int err = 0;

	s = kzalloc(sizeof(*s), GFP_KERNEL);
	if (!s)
		return -ENOMEM;
	s->size = vseg_vram_res_size(res);
	s->lost = lost;
	s->data = kvzalloc(s->size, GFP_KERNEL);
	if (!s->data) {
		kfree(s);
		return -ENOMEM;
	}
	if (!lost)
		err = vseg_vram_res_copy(res, s->data, false);
	if (err) {
		kvfree(s->data);
		kfree(s);
		return err;
	}
	/* A CPU access until the exit faults, and waits for it. */
	ttm_bo_unmap_virtual(&vbo->tbo);
	ttm_bo_pin(&vbo->tbo);
	drm_gem_object_get(&vbo->tbo.base);
	s->bo = vbo;
	list_add_tail(&s->link, &pm->saved);
	c->saved++;
	c->saved_bytes += s->size;
	return 0;
}

/* A protected buffer, reserved, in a segment: kept aside, or lost. */
static int vpr_enter(struct vseg_device *vdev, struct vseg_bo *vbo,
		     enum vseg_pm_kind kind, struct vseg_pm_counts *c)
{
	struct ttm_resource *res = vbo->tbo.resource;
	u32 id = vseg_mem_type_to_seg(vdev, res->mem_type);
	const struct vseg_segment_desc *d = vseg_seg(vdev, id)->desc;
	bool lost = kind == VSEG_PM_STANDBY &&
		    !(d->flags & VSEG_SEGF_VPR_PRESERVED_STANDBY);
	u64 start;
	long left;

	if (!lost && (!lost_from(d, kind, &start) ||
		      vseg_vram_res_below(res, start)))
		return 0;
	left = dma_resv_wait_timeout(vbo->tbo.base.resv,
				     DMA_RESV_USAGE_BOOKKEEP, true,
				     MAX_SCHEDULE_TIMEOUT);
	return left < 0 ? left : save_pinned(&vdev->pm, vbo, c, lost);
}

/*
 * Remember that @vbo, evicted by the entry from memory segment @id, is to
 * come back there after the exit. The record holds a reference.
 */
static void record(struct vseg_pm *pm, struct vseg_bo *vbo, u32 id)
{
	drm_gem_object_get(&vbo->tbo.base);
	vbo->pm_seg = id;
	list_add_tail(&vbo->pm_link, &pm->recorded);
	pm->seg[id - 1].recorded++;
	pm->restore_pending++;
}

/*
 * Each buffer's place in the LRU lists of the segments that lose content
 * in @kind, lowest priority list first, least recently used first: the
 * restore's second key (after the buffer's own priority).
 */
static void stamp_lru(struct vseg_device *vdev, enum vseg_pm_kind kind)
{
	struct ttm_resource_manager *man;
	struct ttm_lru_item *item;
	struct ttm_buffer_object *tbo;
	u64 start, seq = 0;
	u32 id, p;

	spin_lock(&vdev->bdev.lru_lock);
	for (id = 1; id <= vdev->table.num_segments; id++) {
		if (!lost_from(vseg_seg(vdev, id)->desc, kind, &start))
			continue;
		man = ttm_manager_type(&vdev->bdev, vseg_mem_type(vdev, id));
		for (p = 0; man && p < TTM_MAX_BO_PRIORITY; p++)
			list_for_each_entry(item, &man->lru[p], link) {
				if (!ttm_lru_item_is_res(item))
					continue;
				tbo = ttm_lru_item_to_res(item)->bo;
				if (tbo && vseg_is_vseg_bo(tbo))
					to_vseg_bo(tbo)->pm_lru = ++seq;
			}
	}
	spin_unlock(&vdev->bdev.lru_lock);
}

/*
 * One buffer: evicted if it lies (partly) in memory that loses its
 * content, its content saved if it is pinned there. With @ttm_evicts, one
 * in a segment that loses everything is left to TTM's eviction of the
 * whole segment (evict_segments()), only counted.
 */
static int enter_bo(struct vseg_device *vdev, struct vseg_bo *vbo,
		    enum vseg_pm_kind kind, bool ttm_evicts)
{
	struct ttm_buffer_object *tbo = &vbo->tbo;
	struct vseg_pm_counts *c;
	struct ttm_resource *res;
	u64 start;
	u32 id;
	int err;

	err = ttm_bo_reserve(tbo, true, false, NULL);
	if (err)
		return err;
	res = tbo->resource;
	id = res ? vseg_mem_type_to_seg(vdev, res->mem_type) : 0;
	if (!vseg_seg_is_memory(vdev, id) ||
	    (!vseg_bo_is_protected(vbo) &&
	     (!lost_from(vseg_seg(vdev, id)->desc, kind, &start) ||
	      vseg_vram_res_below(res, start)))) {
		ttm_bo_unreserve(tbo);
		return 0;
	}
	c = &vdev->pm.seg[id - 1];
	/*
	 * A protected buffer never leaves its segment for power: it is kept
	 * like a pinned one, or wiped in a standby that does not preserve
	 * the protected region.
	 */
	if (vseg_bo_is_protected(vbo)) {
		err = vpr_enter(vdev, vbo, kind, c);
		ttm_bo_unreserve(tbo);
		return err;
	}
	if (tbo->pin_count) {
		long left = dma_resv_wait_timeout(tbo->base.resv,
						  DMA_RESV_USAGE_BOOKKEEP,
						  true, MAX_SCHEDULE_TIMEOUT);

		err = left < 0 ? left : save_pinned(&vdev->pm, vbo, c, false);
		ttm_bo_unreserve(tbo);
		return err;
	}
	ttm_bo_unreserve(tbo);
	if (ttm_evicts && !start) {
		c->evicted++;
		c->evicted_bytes += tbo->base.size;
		record(&vdev->pm, vbo, id);
		return 0;
	}
	/* The normal eviction: a move written for the paging engine. */
	err = vseg_bo_evict(vbo, false, false, NULL, VSEG_MOVE_POWER);
	if (!err) {
		c->evicted++;
		c->evicted_bytes += tbo->base.size;
		record(&vdev->pm, vbo, id);
	}
	return err;
}

/*
 * A buffer enter_bo() left to TTM that is still in a segment losing all of
 * its content (a CPU fault held it while TTM walked the segment): evicted
 * now. It was counted already.
 */
static int enter_leftover(struct vseg_device *vdev, struct vseg_bo *vbo,
			  enum vseg_pm_kind kind)
{
	struct ttm_buffer_object *tbo = &vbo->tbo;
	bool left;
	u64 start;
	u32 id;
	int err;

	err = ttm_bo_reserve(tbo, true, false, NULL);
	if (err)
		return err;
	id = tbo->resource ? vseg_mem_type_to_seg(vdev, tbo->resource->mem_type) : 0;
	left = vseg_seg_is_memory(vdev, id) && !tbo->pin_count &&
	       !vseg_bo_is_protected(vbo) &&
	       lost_from(vseg_seg(vdev, id)->desc, kind, &start) && !start;
	ttm_bo_unreserve(tbo);
	return left ? vseg_bo_evict(vbo, false, false, NULL, VSEG_MOVE_POWER) : 0;
}

/*
 * Every memory segment that loses all of its content is emptied by TTM's
 * own eviction of its manager (what a real driver does at suspend): each
 * buffer goes where it is evicted to (its eviction segment, or system
 * memory), through the paging engine. Pinned and protected buffers are
 * not on its list: enter_bo() kept them aside before.
 */
static int evict_segments(struct vseg_device *vdev, enum vseg_pm_kind kind)
{
	struct ttm_resource_manager *man;
	u64 start;
	u32 id;
	int err;

	for (id = 1; id <= vdev->table.num_segments; id++) {
		if (!lost_from(vseg_seg(vdev, id)->desc, kind, &start) || start)
			continue;
		man = ttm_manager_type(&vdev->bdev, vseg_mem_type(vdev, id));
		err = ttm_resource_manager_evict_all(&vdev->bdev, man);
		if (err)
			return err;
	}
	return 0;
}

/* Give the pinned buffers their content back, at the same offset. */
static int restore_pinned(struct vseg_pm *pm)
{
	struct vseg_pm_saved *s;
	int err, ret = 0;

	list_for_each_entry(s, &pm->saved, link) {
		struct ttm_buffer_object *tbo = &s->bo->tbo;

		ttm_bo_reserve(tbo, false, false, NULL);
		/* Pinned or protected: it cannot have moved. */
		err = vseg_vram_res_copy(tbo->resource, s->data, true);
		if (s->lost)
			s->bo->content_lost = true;
		ttm_bo_unreserve(tbo);
		if (err && !ret)
			ret = err;
	}
	saved_free(pm);
	return ret;
}

/* The power loss: the lost part of each segment reads poison. */
static void poison(struct vseg_device *vdev, enum vseg_pm_kind kind)
{
	u32 id;
	u64 start;

	for (id = 1; id <= vdev->table.num_segments; id++) {
		const struct vseg_segment_desc *d = vseg_seg(vdev, id)->desc;

		if (!lost_from(d, kind, &start))
			continue;
		start = round_down(start, PAGE_SIZE);
		vdev->pm.seg[id - 1].poisoned_bytes +=
			vseg_vram_poison(vseg_vram(vdev, id), start,
					 d->size - start, VSEG_PM_POISON);
	}
}

static int __pm_exit(struct vseg_device *vdev, bool power_lost)
{
	struct vseg_pm *pm = &vdev->pm;
	int err = 0, derr;

	if (pm->state == VSEG_PM_NONE)
		return 0;
	if (power_lost) {
		poison(vdev, pm->state);
		err = restore_pinned(pm);
	} else {
		/* Nothing was lost: the content is still in place. */
		saved_free(pm);
	}
	derr = vseg_display_resume(vdev);
	WRITE_ONCE(pm->state, VSEG_PM_NONE);
	wake_up_all(&pm->exited);
	/* The evicted buffers come back, after the lock is dropped. */
	if (!list_empty(&pm->recorded) && READ_ONCE(pm_restore)) {
		WRITE_ONCE(pm->restore_stop, false);
		queue_work(system_unbound_wq, &pm->restore);
	}
	return err ?: derr;
}

static int __pm_enter(struct vseg_device *vdev, enum vseg_pm_kind kind)
{
	struct vseg_pm *pm = &vdev->pm;
	struct vseg_bo **bos;
	u64 i, n;
	int err = 0;

	if (pm->state != VSEG_PM_NONE)
		return -EBUSY;
	WRITE_ONCE(pm->state, kind);
	pm->last = kind;
	pm->transitions++;
	/* What the last exit left to come back stays where it is. */
	records_drop(pm);
	memset(pm->seg, 0, sizeof(pm->seg));

	err = vseg_display_suspend(vdev);
	if (err)
		goto fail;
	bos = vseg_bos_snapshot(vdev, &n);
	if (!bos) {
		err = -ENOMEM;
		goto fail;
	}
	vseg_bos_drain(vdev, bos, n);
	stamp_lru(vdev, kind);
	for (i = 0; i < n && !err; i++)
		err = enter_bo(vdev, bos[i], kind, true);
	if (!err)
		err = evict_segments(vdev, kind);
	/*
	 * Anything TTM could not take (a buffer a CPU fault held as it
	 * walked) is evicted here, one buffer at a time, and counted again:
	 * the counters are those of a clean transition otherwise.
	 */
	for (i = 0; i < n && !err; i++)
		err = enter_leftover(vdev, bos[i], kind);
	/* The evictions' copies are done and their old placements freed. */
	vseg_bos_drain(vdev, bos, n);
	vseg_bos_put(bos, n);
	if (!err)
		goto out;
fail:
	/* Nothing lost yet: back to work, the evicted buffers in system. */
	__pm_exit(vdev, false);
out:
	pm->last_result = err;
	return err;
}

/**
 * vseg_pm_enter() - enter standby or hibernate
 * @vdev: the device
 * @kind: %VSEG_PM_STANDBY or %VSEG_PM_HIBERNATE
 *
 * Turns the heads off, drains the engines, evicts the buffers of memory
 * that loses its content in @kind and keeps the content of the pinned
 * ones aside (see Documentation/gpu/vseg.rst, "Power management").
 * Takes &vseg_pm.lock and &vseg_pm.gate.
 *
 * Return: 0; -EBUSY if a transition is under way; or the error of an
 * eviction, after which the device is back on (nothing was lost).
 */
int vseg_pm_enter(struct vseg_device *vdev, enum vseg_pm_kind kind)
{
	struct vseg_pm *pm = &vdev->pm;
	int err;

	restore_stop(pm);
	mutex_lock(&pm->lock);
	down_write(&pm->gate);
	err = __pm_enter(vdev, kind);
	up_write(&pm->gate);
	mutex_unlock(&pm->lock);
	return err;
}

/**
 * vseg_pm_exit() - leave the transition vseg_pm_enter() entered
 * @vdev: the device
 * @power_lost: the segments lost power (resume, restore); false when the
 *	device stayed powered (thaw)
 *
 * With @power_lost, the lost part of each segment is poisoned and the
 * pinned buffers get their content back; then the heads show their
 * primaries again. Takes &vseg_pm.lock and &vseg_pm.gate.
 *
 * Return: 0 (also with no transition under way), -ENOMEM if a pinned
 * buffer's page could not be allocated, or the error of a head that could
 * not show its primary again (it stays off).
 */
int vseg_pm_exit(struct vseg_device *vdev, bool power_lost)
{
	struct vseg_pm *pm = &vdev->pm;
	int err;

	mutex_lock(&pm->lock);
	down_write(&pm->gate);
	err = __pm_exit(vdev, power_lost);
	up_write(&pm->gate);
	mutex_unlock(&pm->lock);
	return err;
}

/**
 * vseg_pm_cycle() - a whole transition, synchronously
 * @vdev: the device
 * @kind: %VSEG_PM_STANDBY or %VSEG_PM_HIBERNATE
 * @power_lost: as for vseg_pm_exit(): false for a hibernate that thaws
 *
 * vseg_pm_enter() and vseg_pm_exit() with no ioctl in between (sysfs
 * ``pm``).
 *
 * Return: 0 or the first error.
 */
int vseg_pm_cycle(struct vseg_device *vdev, enum vseg_pm_kind kind,
		  bool power_lost)
{
	struct vseg_pm *pm = &vdev->pm;
	int err;

	restore_stop(pm);
	mutex_lock(&pm->lock);
	down_write(&pm->gate);
	err = __pm_enter(vdev, kind);
	if (!err)
		err = __pm_exit(vdev, power_lost);
	pm->last_result = err;
	up_write(&pm->gate);
	mutex_unlock(&pm->lock);
	return err;
}

/*
 * Order of the restore: highest priority first, then the most recently
 * used (the highest LRU stamp).
 */
static int restore_cmp(void *priv, const struct list_head *a,
		       const struct list_head *b)
{
	const struct vseg_bo *x = list_entry(a, struct vseg_bo, pm_link);
	const struct vseg_bo *y = list_entry(b, struct vseg_bo, pm_link);
	u32 px = READ_ONCE(x->priority), py = READ_ONCE(y->priority);

	if (px != py)
		return px < py ? 1 : -1;
	if (x->pm_lru != y->pm_lru)
		return x->pm_lru < y->pm_lru ? 1 : -1;
	return 0;
}

/*
 * Bring one recorded buffer back to its segment, only where there is room
 * without evicting anything. Not if it was freed (the record holds the
 * last reference), is pinned, attached, protected, offered (its owner
 * gave its room up: it comes back at RECLAIM and its next use), or is no
 * longer the buffer the entry evicted from there (its user moved it
 * since).
 */
static void restore_one(struct vseg_device *vdev, struct vseg_bo *vbo)
{
	struct ttm_operation_ctx ctx = { .interruptible = false };
	struct vseg_pm_counts *c = &vdev->pm.seg[vbo->pm_seg - 1];
	struct ttm_buffer_object *tbo = &vbo->tbo;
	struct ttm_place places[VSEG_BO_MAX_PLACES];
	struct ttm_placement placement = {};
	unsigned int n;
	int err;

	if (kref_read(&tbo->base.refcount) <= 1) {
		c->skipped++;
		return;
	}
	ttm_bo_reserve(tbo, false, false, NULL);
	n = vseg_place_home(&vdev->layout, &vbo->params, VSEG_PLACE_RESIDENT,
			    places);
	n = vseg_place_filter(&vdev->layout, places, n, BIT(vbo->pm_seg));
	if (!n || tbo->pin_count || vbo->shared_pins ||
	    vseg_bo_is_protected(vbo) || vbo->offered || !tbo->resource ||
	    vbo->evicted_from != vbo->pm_seg ||
	    vseg_mem_type_to_seg(vdev, tbo->resource->mem_type) ==
	    vbo->pm_seg) {
		c->skipped++;
		goto out;
	}
	vseg_placement_set_no_evict(&placement, places, n);
	vbo->move_reason = VSEG_MOVE_POWER;
	err = vseg_space_err(ttm_bo_validate(tbo, &placement, &ctx));
	if (!err && tbo->resource &&
	    vseg_mem_type_to_seg(vdev, tbo->resource->mem_type) ==
	    vbo->pm_seg) {
		c->restored++;
		c->restored_bytes += tbo->base.size;
	} else if (err == -ENOSPC) {
		c->no_room++;
	} else {
		c->skipped++;
	}
out:
	ttm_bo_unreserve(tbo);
}

/*
 * After an exit: the recorded buffers, one at a time, in restore_cmp()'s
 * order. Under &vseg_pm.lock, so no transition runs meanwhile; one that
 * waits for it sets &vseg_pm.restore_stop, and this stops at the next
 * buffer, the rest dropped by the transition's entry.
 */
static void restore_work(struct work_struct *work)
{
	struct vseg_pm *pm = container_of(work, struct vseg_pm, restore);
	struct vseg_device *vdev = container_of(pm, struct vseg_device, pm);
	struct vseg_bo *vbo;
	int idx;

	if (!drm_dev_enter(&vdev->drm, &idx))
		return;
	mutex_lock(&pm->lock);
	list_sort(NULL, &pm->recorded, restore_cmp);
	while (!vseg_pm_busy(vdev) && !READ_ONCE(pm->restore_stop) &&
	       !list_empty(&pm->recorded)) {
		vbo = list_first_entry(&pm->recorded, struct vseg_bo, pm_link);
		list_del_init(&vbo->pm_link);
		restore_one(vdev, vbo);
		drm_gem_object_put(&vbo->tbo.base);
		pm->restore_pending--;
	}
	mutex_unlock(&pm->lock);
	drm_dev_exit(idx);
}

/**
 * vseg_pm_restore() - bring back what the last transition evicted, now
 * @vdev: the device
 *
 * Runs the restore work and waits for it: for the buffers the exit left
 * recorded with the module parameter pm_restore off (sysfs pm "restore").
 */
void vseg_pm_restore(struct vseg_device *vdev)
{
	struct vseg_pm *pm = &vdev->pm;

	mutex_lock(&pm->lock);
	WRITE_ONCE(pm->restore_stop, false);
	queue_work(system_unbound_wq, &pm->restore);
	mutex_unlock(&pm->lock);
	flush_work(&pm->restore);
}

/**
 * vseg_pm_unplug() - the device goes: stop bringing buffers back
 * @vdev: the device, unplugged
 *
 * Stops the restore work and drops the buffers it had yet to bring back,
 * while the memory managers are still there to free them.
 */
void vseg_pm_unplug(struct vseg_device *vdev)
{
	struct vseg_pm *pm = &vdev->pm;

	restore_stop(pm);
	mutex_lock(&pm->lock);
	records_drop(pm);
	mutex_unlock(&pm->lock);
}

/**
 * vseg_pm_busy() - is a power transition under way
 * @vdev: the device
 *
 * Call with a buffer of @vdev reserved, or &vseg_pm.gate held: the answer
 * then holds until it is released (see the top of vseg_pm.c).
 *
 * Return: true from the entry of a transition to its exit.
 */
bool vseg_pm_busy(struct vseg_device *vdev)
{
	return READ_ONCE(vdev->pm.state) != VSEG_PM_NONE;
}

/**
 * vseg_pm_fault_wait() - a CPU fault met a power transition
 * @vdev: the device
 * @vmf: the fault, its buffer no longer reserved
 *
 * Waits for the transition's exit, without the mmap lock when the fault
 * may be retried. A signal (the freezer's included) ends the wait early:
 * the access then faults again.
 *
 * Return: %VM_FAULT_RETRY once the mmap lock is dropped (or may be, with
 * %FAULT_FLAG_RETRY_NOWAIT), else %VM_FAULT_NOPAGE.
 */
vm_fault_t vseg_pm_fault_wait(struct vseg_device *vdev, struct vm_fault *vmf)
{
	struct vseg_pm *pm = &vdev->pm;

	if (fault_flag_allow_retry_first(vmf->flags)) {
		if (vmf->flags & FAULT_FLAG_RETRY_NOWAIT)
			return VM_FAULT_RETRY;
		mmap_read_unlock(vmf->vma->vm_mm);
		wait_event_interruptible(pm->exited, !vseg_pm_busy(vdev));
		return VM_FAULT_RETRY;
	}
	/* The mmap lock stays: the transition never takes it. */
	wait_event_interruptible(pm->exited, !vseg_pm_busy(vdev));
	return VM_FAULT_NOPAGE;
}

/**
 * vseg_pm_counts_get() - what the last transition did to a segment
 * @vdev: the device
 * @id: a segment id of its table
 * @c: receives the counters
 * @last: receives the last transition entered
 *
 * Call with &vseg_pm.gate held for read (an ioctl): no transition phase
 * changes them meanwhile.
 */
void vseg_pm_counts_get(struct vseg_device *vdev, u32 id,
			struct vseg_pm_counts *c, enum vseg_pm_kind *last)
{
	lockdep_assert_held(&vdev->pm.gate);
	*c = vdev->pm.seg[id - 1];
	*last = vdev->pm.last;
}

/**
 * vseg_pm_show() - the last transition and its counters, for debugfs
 * @vdev: the device
 * @m: where to print
 */
void vseg_pm_show(struct vseg_device *vdev, struct seq_file *m)
{
	struct vseg_pm *pm = &vdev->pm;
	u32 id;
	u64 start;

	mutex_lock(&pm->lock);
	seq_printf(m, "vseg pm: state=%s last=%s result=%d transitions=%llu poison=0x%02x restore_pending=%llu\n",
		   kind_name(pm->state), kind_name(pm->last), pm->last_result,
		   pm->transitions, VSEG_PM_POISON, pm->restore_pending);
	for (id = 1; id <= vdev->table.num_segments; id++) {
		const struct vseg_segment_desc *d = vseg_seg(vdev, id)->desc;
		const struct vseg_pm_counts *c = &pm->seg[id - 1];
		const char *standby = "-", *hibernate = "-";

		if (lost_from(d, VSEG_PM_STANDBY, &start))
			standby = "lost";
		else if (d->kind == VSEG_SEGMENT_MEMORY)
			standby = "preserved";
		if (lost_from(d, VSEG_PM_HIBERNATE, &start))
			hibernate = start ? "partial" : "lost";
		else if (d->kind == VSEG_SEGMENT_MEMORY)
			hibernate = "preserved";
		seq_printf(m, "segment %u name=%s standby=%s hibernate=%s lost_from=0x%llx evicted=%llu evicted_bytes=%llu saved=%llu saved_bytes=%llu poisoned_bytes=%llu recorded=%llu restored=%llu restored_bytes=%llu no_room=%llu skipped=%llu\n",
			   id, d->name, standby, hibernate,
			   lost_from(d, pm->last, &start) ? start : d->size,
			   c->evicted, c->evicted_bytes, c->saved,
			   c->saved_bytes, c->poisoned_bytes, c->recorded,
			   c->restored, c->restored_bytes, c->no_room,
			   c->skipped);
	}
	mutex_unlock(&pm->lock);
}
