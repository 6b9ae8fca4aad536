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
 * CPU faults: from the entry to the exit, a fault on a buffer of the
 * device waits for the exit (vseg_pm_fault_wait()) rather than move or
 * back a buffer in memory that is losing its power. The entry sets the
 * state before it reserves any buffer, and the fault reads it under the
 * buffer's reservation, so a fault either ends before the entry visits its
 * buffer or sees the transition.
 */

#include <linux/dma-resv.h>
#include <linux/mm.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <linux/workqueue.h>
#include <drm/drm_gem.h>
#include <drm/drm_managed.h>

#include "vseg_bo.h"
#include "vseg_compat.h"
#include "vseg_device_types.h"
#include "vseg_display.h"
#include "vseg_pm.h"
#include "vseg_vram_mgr.h"

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

static void pm_release(struct drm_device *drm, void *arg)
{
	saved_free(arg);
}

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
		return 0;
	}
	/* The normal eviction: a move written for the paging engine. */
	err = vseg_bo_evict(vbo, false, false, NULL, VSEG_MOVE_POWER);
	if (!err) {
		c->evicted++;
		c->evicted_bytes += tbo->base.size;
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
	seq_printf(m, "vseg pm: state=%s last=%s result=%d transitions=%llu poison=0x%02x\n",
		   kind_name(pm->state), kind_name(pm->last), pm->last_result,
		   pm->transitions, VSEG_PM_POISON);
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
		seq_printf(m, "segment %u name=%s standby=%s hibernate=%s lost_from=0x%llx evicted=%llu evicted_bytes=%llu saved=%llu saved_bytes=%llu poisoned_bytes=%llu\n",
			   id, d->name, standby, hibernate,
			   lost_from(d, pm->last, &start) ? start : d->size,
			   c->evicted, c->evicted_bytes, c->saved,
			   c->saved_bytes, c->poisoned_bytes);
	}
	mutex_unlock(&pm->lock);
}
