// SPDX-License-Identifier: GPL-2.0-only
/*
 * Copyright (c) 2026 The vseg authors
 *
 * Per-file state and the limits that keep one client from starving the
 * others (see "Security model" in Documentation/gpu/vseg.rst):
 *
 * - pins: pins are counted in bytes (a buffer pinned twice counts twice)
 *   and charged to the process that opened the file, to its user and to
 *   the device, each bounded by a share of each segment (vseg_limits.c):
 *   a process opening the device many times gets no more; pins belong to
 *   the file that took them: only it can drop them, and they go when its
 *   last handle of the buffer is closed, or with the file;
 * - jobs: a file has at most DRM_VSEG_MAX_JOBS_IN_FLIGHT jobs unfinished;
 *   SUBMIT waits, interruptibly, for one of them to end before it queues
 *   another. A file's jobs on one engine run in the order they were
 *   submitted (one scheduler entity per file and engine, vseg_sched.c);
 *   those still queued when the file closes are cancelled.
 */

#include <linux/dma-fence.h>
#include <linux/idr.h>
#include <linux/lockdep.h>
#include <linux/mm.h>
#include <linux/slab.h>
#include <drm/drm_file.h>
#include <drm/drm_gem.h>
#include <drm/drm_managed.h>
#include <uapi/drm/vseg_drm.h>

#include "vseg_bo.h"
#include "vseg_client_stats.h"
#include "vseg_device_types.h"
#include "vseg_file.h"
#include "vseg_budget.h"
#include "vseg_limits.h"
#include "vseg_sched.h"

/**
 * struct vseg_file_pin - the pins one file holds on one buffer
 * @bo: the buffer; the record holds a GEM reference.
 * @seg: the segment the pins are charged to (a pinned buffer stays put).
 * @count: pins taken and not dropped.
 */
struct vseg_file_pin {
	struct vseg_bo *bo;
	u32 seg;
	u32 count;
};

/**
 * vseg_file_init() - state of a newly opened file
 * @vf: the state
 * @vdev: the device
 *
 * The file's charges go to the opening process and its user
 * (vseg_limits_client_open()).
 *
 * Return: 0 or -ENOMEM.
 */
int vseg_file_init(struct vseg_file *vf, struct vseg_device *vdev)
{
	u32 i;
	int err;

	vf->stats = vseg_client_stats_alloc();
	if (!vf->stats)
		return -ENOMEM;
	vf->limits = vseg_limits_client_open(&vdev->limits);
	if (!vf->limits) {
		vseg_client_stats_put(vf->stats);
		return -ENOMEM;
	}
	for (i = 0; i < VSEG_NUM_USER_ENGINES; i++) {
		err = vseg_sched_entity_init(vdev, &vf->entity[i], i,
					     DRM_SCHED_PRIORITY_NORMAL);
		if (err) {
			while (i--)
				drm_sched_entity_fini(&vf->entity[i]);
			goto err_limits;
		}
	}
	vf->vm = vseg_vm_create(vdev, vf->limits);
	if (IS_ERR(vf->vm)) {
		err = PTR_ERR(vf->vm);
		for (i = 0; i < VSEG_NUM_USER_ENGINES; i++)
			drm_sched_entity_fini(&vf->entity[i]);
		goto err_limits;
	}
	vf->client_id = vseg_client_id_next();
	vf->vdev = vdev;
	mutex_init(&vf->pin_lock);
	xa_init(&vf->pins);
	mutex_init(&vf->push_lock);
	return 0;

err_limits:
	vseg_limits_client_close(vf->limits);
	vseg_limits_client_put(vf->limits);
	vseg_client_stats_put(vf->stats);
	return err;
}

/**
 * vseg_file_fini() - drop everything a closing file holds
 * @vf: the state
 *
 * Its jobs still queued are cancelled (their fences signal -ESRCH once
 * their dependencies have; a job already running ends, within the time
 * limit), then its pins (and their charges) and its address space go.
 */
void vseg_file_fini(struct vseg_file *vf)
{
	struct vseg_file_pin *pin;
	unsigned long id;
	u32 i;

	for (i = 0; i < VSEG_NUM_USER_ENGINES; i++) {
		vseg_sched_entity_fini(&vf->entity[i]);
		dma_fence_put(vf->last[i]);
	}
	xa_for_each(&vf->pins, id, pin) {
		vseg_bo_unpin(pin->bo, pin->count);
		vseg_limits_uncharge(vf->limits, VSEG_LIMIT_PIN, pin->seg,
				     (u64)pin->count * pin->bo->tbo.base.size);
		drm_gem_object_put(&pin->bo->tbo.base);
		kfree(pin);
	}
	xa_destroy(&vf->pins);
	vseg_vm_close(vf->vm);
	vseg_limits_client_close(vf->limits);
	/* Its process may have gone from the groups: others' budgets grow. */
	vseg_budget_changed(vf->limits->limits);
	vseg_limits_client_put(vf->limits);
	vseg_client_stats_put(vf->stats);
	mutex_destroy(&vf->push_lock);
	mutex_destroy(&vf->pin_lock);
}

/*
 * What a segment could ever have pinned in it: a memory segment's size, the
 * aperture's commit limit, what TTM lets system memory hold (half of RAM).
 */
static u64 pin_capacity(struct vseg_device *vdev, u32 seg)
{
	const struct vseg_segment_desc *d;

	if (!seg)
		return (u64)totalram_pages() << (PAGE_SHIFT - 1);
	d = &vdev->table.seg[seg - 1];	/* the table's: before the managers */
	return d->kind == VSEG_SEGMENT_APERTURE ? d->commit_limit : d->size;
}

static void limits_fini(struct drm_device *drm, void *arg)
{
	vseg_budget_fini(arg);
}

/**
 * vseg_file_limits_init() - the device's limits and their bounds
 * @vdev: the device, its table validated
 *
 * Every segment's pins are bounded per process, per user and for the
 * device (vseg_limits_init_pins()); so are the jobs not finished and the
 * GPU virtual address mappings (vseg_limits_init_counts()): a process has
 * at most %DRM_VSEG_MAX_JOBS_IN_FLIGHT and %DRM_VSEG_MAX_VM_MAPPINGS,
 * whatever files it opened.
 *
 * Return: 0 or -ENOMEM.
 */
int vseg_file_limits_init(struct vseg_device *vdev)
{
	u64 capacity[VSEG_LIMIT_SLOTS] = {}, flags[VSEG_LIMIT_SLOTS] = {};
	u32 seg;

	vseg_limits_init(&vdev->limits);
	for (seg = 0; seg <= vdev->table.num_segments; seg++) {
		capacity[seg] = pin_capacity(vdev, seg);
		if (seg)
			flags[seg] = vdev->table.seg[seg - 1].flags;
	}
	/* A budget group's size: what its segments could hold. */
	vseg_budget_init(&vdev->limits, flags, capacity,
			 vdev->table.num_segments + 1);
	vseg_limits_init_pins(&vdev->limits, capacity,
			      vdev->table.num_segments + 1);
	vseg_limits_init_counts(&vdev->limits, DRM_VSEG_MAX_JOBS_IN_FLIGHT,
				DRM_VSEG_MAX_VM_MAPPINGS);
	/* No budget comparison may run once the device is gone. */
	return drmm_add_action_or_reset(&vdev->drm, limits_fini,
					&vdev->limits);
}

/*
 * MAKE_RESIDENT with PIN for one buffer, reserved, the pin lock held: the
 * buffer is made resident, in a segment where the file's process, user and
 * device still have room to pin it, pinned there, and the pin charged.
 * Another file of the same process or user may charge meanwhile: a pin
 * whose charge then fails is dropped again (-ENOBUFS, for good).
 */
static int pin_locked(struct vseg_bo *vbo, void *arg, unsigned int *place)
{
	struct vseg_file *vf = arg;
	struct vseg_device *vdev = vf->vdev;
	u64 size = vbo->tbo.base.size;
	struct vseg_file_pin *pin, *new = NULL;
	u32 allowed = 0, seg;
	int err;

	lockdep_assert_held(&vf->pin_lock);
	for (seg = 0; seg <= vdev->table.num_segments; seg++)
		if (vseg_limits_would_fit(vf->limits, VSEG_LIMIT_PIN, seg, size))
			allowed |= BIT(seg);

	pin = xa_load(&vf->pins, vbo->id);
	if (!pin) {
		new = kzalloc(sizeof(*new), GFP_KERNEL_ACCOUNT);
		err = new ? xa_err(xa_store(&vf->pins, vbo->id, new,
					    GFP_KERNEL_ACCOUNT)) : -ENOMEM;
		if (err)
			goto out_free;
	}
	err = vseg_bo_make_resident_locked(vbo, true, allowed, &seg, place);
	if (err >= 0 && err != VSEG_BO_NEXT_PLACE &&
	    err != VSEG_BO_WAIT_PLACE &&
	    vseg_limits_charge(vf->limits, VSEG_LIMIT_PIN, seg, size)) {
		vseg_bo_unpin_locked(vbo);
		err = -ENOBUFS;
	}
	if (err < 0 || err == VSEG_BO_NEXT_PLACE || err == VSEG_BO_WAIT_PLACE) {
		if (new)
			xa_erase(&vf->pins, vbo->id);
		goto out_free;
	}
	if (new) {
		drm_gem_object_get(&vbo->tbo.base);
		new->bo = vbo;
		new->seg = seg;
		pin = new;
		new = NULL;
	}
	pin->count++;
out_free:
	kfree(new);
	return err;
}

/**
 * vseg_file_make_resident() - MAKE_RESIDENT of a list of buffers
 * @vf: the file
 * @bos: the buffers, in list order (vseg_bo_make_resident_list())
 * @n: number of entries
 * @pin: pin each entry, in a segment where the file's process, user and
 *	device still have room to pin it; a buffer listed twice is pinned
 *	twice
 * @done: receives the number of entries made resident (and pinned), the
 *	first ones
 *
 * Return: 0, -ENOSPC (no room, or no pin budget left for the process, its
 * user or the device in any of the segments of the entry at @done),
 * -ENOMEM, -EINTR.
 */
int vseg_file_make_resident(struct vseg_file *vf, struct vseg_bo **bos,
			    u32 n, bool pin, u32 *done)
{
	int err;

	*done = 0;
	if (!pin)
		return vseg_bo_make_resident_list(bos, n, NULL, NULL, done);
	/* Before the buffers' reservations (see "Locking" in vseg.rst). */
	err = mutex_lock_interruptible(&vf->pin_lock);
	if (err)
		return err;
	err = vseg_bo_make_resident_list(bos, n, pin_locked, vf, done);
	mutex_unlock(&vf->pin_lock);
	return err;
}

/**
 * vseg_file_can_unpin() - does the file hold enough pins of a buffer
 * @vf: the file
 * @vbo: the buffer
 * @times: pins to be dropped
 *
 * Return: 0, or -EINVAL if the file holds fewer than @times pins of it.
 */
int vseg_file_can_unpin(struct vseg_file *vf, struct vseg_bo *vbo, u32 times)
{
	struct vseg_file_pin *pin;
	int err;

	mutex_lock(&vf->pin_lock);
	pin = xa_load(&vf->pins, vbo->id);
	err = pin && pin->count >= times ? 0 : -EINVAL;
	mutex_unlock(&vf->pin_lock);
	return err;
}

/* Forget one pin; the caller drops the reference a finished record held. */
static struct vseg_file_pin *drop_pin(struct vseg_file *vf,
				      struct vseg_file_pin *pin, u32 count)
{
	lockdep_assert_held(&vf->pin_lock);
	vseg_limits_uncharge(vf->limits, VSEG_LIMIT_PIN, pin->seg,
			     (u64)count * pin->bo->tbo.base.size);
	pin->count -= count;
	if (pin->count)
		return NULL;
	xa_erase(&vf->pins, pin->bo->id);
	return pin;
}

static void pin_free(struct vseg_file_pin *pin)
{
	if (!pin)
		return;
	drm_gem_object_put(&pin->bo->tbo.base);
	kfree(pin);
}

/**
 * vseg_file_unpin_evict() - EVICT with UNPIN for one buffer
 * @vf: the file
 * @vbo: the buffer
 * @discard: drop its content instead of transferring it
 *
 * Drops one of the file's pins of the buffer, then evicts it.
 *
 * Return: 0, -EINVAL if the file holds no pin of it, -EBUSY if it stays
 * pinned (others hold pins too), or another negative error code.
 */
int vseg_file_unpin_evict(struct vseg_file *vf, struct vseg_bo *vbo,
			  bool discard)
{
	struct vseg_file_pin *pin, *done = NULL;
	bool unpinned = false;
	int err;

	err = mutex_lock_interruptible(&vf->pin_lock);
	if (err)
		return err;
	pin = xa_load(&vf->pins, vbo->id);
	if (!pin) {
		mutex_unlock(&vf->pin_lock);
		return -EINVAL;
	}
	err = vseg_bo_evict(vbo, true, discard, &unpinned,
			    VSEG_MOVE_RESIDENCY);
	if (unpinned)
		done = drop_pin(vf, pin, 1);
	mutex_unlock(&vf->pin_lock);
	pin_free(done);
	return err;
}

/* Does the file hold another handle of @obj than the one being closed? */
static bool file_has_handle(struct drm_file *file, struct drm_gem_object *obj)
{
	struct drm_gem_object *o;
	bool found = false;
	int handle;

	spin_lock(&file->table_lock);
	idr_for_each_entry(&file->object_idr, o, handle) {
		if (o == obj) {
			found = true;
			break;
		}
	}
	spin_unlock(&file->table_lock);
	return found;
}

/**
 * vseg_file_gem_close() - a file closes a handle of a buffer
 * @obj: the buffer
 * @file: the file
 *
 * The file's pins of the buffer die with its last handle of it. While the
 * file itself closes its handles stay listed: vseg_file_fini() drops what
 * is left.
 */
void vseg_file_gem_close(struct drm_gem_object *obj, struct drm_file *file)
{
	struct vseg_file *vf = file->driver_priv;
	struct vseg_bo *vbo = gem_to_vseg_bo(obj);
	struct vseg_file_pin *pin, *done = NULL;
	u32 count = 0;

	if (!vf)
		return;
	mutex_lock(&vf->pin_lock);
	pin = xa_load(&vf->pins, vbo->id);
	if (pin && !file_has_handle(file, obj)) {
		count = pin->count;
		done = drop_pin(vf, pin, count);
	}
	mutex_unlock(&vf->pin_lock);
	if (count)
		vseg_bo_unpin(vbo, count);
	pin_free(done);
}
