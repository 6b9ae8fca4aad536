// SPDX-License-Identifier: GPL-2.0-only
/*
 * Copyright (c) 2026 The vseg authors
 *
 * Buffers: creation and first placement, the placement snapshot and
 * per-segment accounting, residency (D3DKMTMakeResident / D3DKMTEvict,
 * pins) and physical reachability. Where a buffer may go is decided by
 * vseg_placement.c; how the GEM object is mapped and faulted, by
 * vseg_gem.c.
 */

#include <linux/dma-resv.h>
#include <linux/sched.h>
#include <linux/slab.h>
#include <linux/sort.h>
#include <linux/wait_bit.h>
#include <drm/drm_exec.h>
#include <drm/drm_gem.h>
#include <drm/drm_prime.h>
#include <drm/ttm/ttm_tt.h>
#include <uapi/drm/vseg_drm.h>

#include "vseg_aperture_mgr.h"
#include "vseg_bo.h"
#include "vseg_budget.h"
#include "vseg_client_stats.h"
#include "vseg_compat.h"
#include "vseg_device_types.h"
#include "vseg_host_aperture.h"
#include "vseg_paging.h"
#include "vseg_placement.h"
#include "vseg_trace.h"
#include "vseg_vpr.h"
#include "vseg_vram_mgr.h"

static struct vseg_device *bo_vdev(struct vseg_bo *vbo)
{
	return bdev_to_vseg(vbo->tbo.bdev);
}

static void vseg_bo_destroy(struct ttm_buffer_object *tbo)
{
	struct vseg_bo *vbo = to_vseg_bo(tbo);
	struct vseg_device *vdev = bo_vdev(vbo);

	vseg_host_aperture_drop(vbo);
	mutex_lock(&vdev->bo_lock);
	if (!list_empty(&vbo->link)) {
		list_del(&vbo->link);
		vdev->num_bos--;
	}
	mutex_unlock(&vdev->bo_lock);
	/* Imported: give the exporter its attachment back. */
	if (tbo->base.import_attach)
		drm_prime_gem_destroy(&tbo->base, tbo->sg);
	trace_vseg_bo_destroy(vbo->id, tbo->base.size);
	drm_gem_object_release(&tbo->base);
	/* TTM gave it a reservation of its own before it got here. */
	if (vbo->resv_obj)
		drm_gem_object_put(vbo->resv_obj);
	mutex_destroy(&vbo->gpuva_lock);
	vseg_client_stats_put(vbo->stats);
	vseg_limits_client_put(vbo->owner);
	kfree(vbo);
}

/**
 * vseg_is_vseg_bo() - is a TTM BO one of vseg's buffers
 * @tbo: the BO
 *
 * Return: false for TTM's ghost objects.
 */
bool vseg_is_vseg_bo(struct ttm_buffer_object *tbo)
{
	return tbo->destroy == vseg_bo_destroy;
}

/**
 * vseg_bo_check_params() - check creation properties against the table
 * @vdev: the device
 * @p: the properties
 * @real_size: receives the size rounded to the largest page size in use
 *
 * Return: 0, or -EINVAL for contradictions and for a buffer no supported
 * place could ever hold (vseg_place_check()).
 */
int vseg_bo_check_params(struct vseg_device *vdev,
			 const struct vseg_bo_params *p, u64 *real_size)
{
	return vseg_place_check(&vdev->layout, p, real_size);
}

/*
 * Validate with eviction. The buffer is locked in a ww transaction, so
 * that TTM can wait for the buffers it must evict that others hold
 * reserved right now instead of giving up on them; if it gives up anyway
 * (-ENOSPC, -EBUSY, or a ww back-off), the transaction locks nothing more:
 * the caller leaves it and tries again (struct vseg_validation).
 */
static int validate_evicting(struct ttm_buffer_object *tbo,
			     struct ttm_placement *placement,
			     struct ttm_operation_ctx *ctx)
{
	int err = vseg_space_err(ttm_bo_validate(tbo, placement, ctx));

	return err == -EBUSY || err == -EDEADLK ? -ENOSPC : err;
}

/* Used now, under its reservation: last in TTM's LRU and in last_use. */
static void vseg_bo_used(struct vseg_bo *vbo)
{
	vbo->last_use = atomic64_inc_return(&bo_vdev(vbo)->use_seq);
	ttm_bo_move_to_lru_tail_unlocked(&vbo->tbo);
}

/**
 * vseg_validation_init() - start a validation (struct vseg_validation)
 * @val: the validation
 * @vdev: the device
 */
void vseg_validation_init(struct vseg_validation *val,
			  struct vseg_device *vdev)
{
	*val = (struct vseg_validation){ .vdev = vdev };
}

/* Exclusive: whether lockless transactions hold buffers, now or since. */
static void lockless_note(struct vseg_validation *val)
{
	struct vseg_device *vdev = val->vdev;

	if (val->shut) {
		WRITE_ONCE(vdev->lockless_shut, true);
		/* Pairs with vseg_validation_begin_lockless()'s barrier. */
		smp_mb();
		/*
		 * They wait for nothing this transaction holds: it holds no
		 * buffer yet, and they never take the validation lock.
		 */
		wait_var_event(&vdev->lockless, !atomic_read(&vdev->lockless));
	}
	val->seq = atomic_read(&vdev->lockless_seq);
	/*
	 * The count after the sequence (a lockless transaction raises them
	 * in the other order): one whose start this sequence includes is
	 * seen in the count until it ends; a later one changes the sequence.
	 */
	smp_rmb();
	val->overlap = atomic_read(&vdev->lockless);
}

/**
 * vseg_validation_begin() - take the validation lock for a transaction
 * @val: the validation
 *
 * Before the transaction locks any buffer: shared the first time,
 * exclusive once vseg_validation_retry() said so.
 *
 * Return: 0, or -EINTR if a signal interrupted the wait.
 */
int vseg_validation_begin(struct vseg_validation *val)
{
	struct rw_semaphore *lock = &val->vdev->validation;
	int err;

	if (val->exclusive)
		err = down_write_killable(lock);
	else
		err = down_read_interruptible(lock);
	val->held = !err;
	if (!err && val->exclusive)
		lockless_note(val);
	return err;
}

/**
 * vseg_validation_begin_lockless() - begin a transaction that moves nothing
 * @val: the validation, initialized
 *
 * For a transaction that only uses buffers where they are: it validates
 * nothing, evicts nothing, and does not take the validation lock. If it
 * finds a buffer to move after all, it ends (vseg_validation_end()) and
 * runs again with vseg_validation_begin().
 *
 * Return: true if it may run so; false while an exclusive transaction
 * shuts lockless ones out (use vseg_validation_begin()).
 */
bool vseg_validation_begin_lockless(struct vseg_validation *val)
{
	struct vseg_device *vdev = val->vdev;

	atomic_inc(&vdev->lockless);
	/*
	 * Counted before it is in the sequence and before it looks at
	 * lockless_shut: pairs with lockless_note()'s barriers.
	 */
	smp_mb__after_atomic();
	atomic_inc(&vdev->lockless_seq);
	val->lockless = true;
	if (!READ_ONCE(vdev->lockless_shut))
		return true;
	vseg_validation_end(val);
	return false;
}

/**
 * vseg_validation_end() - release the validation lock
 * @val: the validation; its transaction holds no buffer any more
 */
void vseg_validation_end(struct vseg_validation *val)
{
	struct vseg_device *vdev = val->vdev;

	if (val->lockless) {
		if (atomic_dec_and_test(&vdev->lockless))
			wake_up_var(&vdev->lockless);
		val->lockless = false;
	}
	if (!val->held)
		return;
	if (val->exclusive) {
		if (val->shut)
			WRITE_ONCE(vdev->lockless_shut, false);
		up_write(&vdev->validation);
	} else {
		up_read(&vdev->validation);
	}
	val->held = false;
}

/**
 * vseg_validation_retry() - whether to run the transaction again
 * @val: the validation, ended
 * @err: what the transaction returned
 *
 * Return: true the first time @err is -ENOSPC: the transaction runs again
 * with the lock exclusive, TTM's delayed deletes done; true once more if
 * the exclusive run met lockless transactions (their buffers may have
 * made TTM back off): with them shut out; false otherwise (@err is the
 * result).
 */
bool vseg_validation_retry(struct vseg_validation *val, int err)
{
	struct vseg_device *vdev = val->vdev;

	if (err != -ENOSPC || val->shut)
		return false;
	if (val->exclusive) {
		if (!val->overlap &&
		    atomic_read(&vdev->lockless_seq) == val->seq)
			return false;
		val->shut = true;
		return true;
	}
	/*
	 * The room may be held by buffers being freed right now (TTM's
	 * delayed deletes, which its eviction walk skips): free them first.
	 */
	vseg_ttm_flush_deferred(&vdev->bdev);
	val->exclusive = true;
	return true;
}

/**
 * vseg_bo_locked_retry() - run a placement step with the buffer locked
 * @vbo: the buffer, not reserved
 * @fn: the step; it may evict (TTM then locks others with the same ticket)
 * @arg: passed to @fn
 *
 * @fn runs with the buffer locked by drm_exec, inside its locking loop;
 * if it finds no room, it runs again holding the validation lock
 * exclusive (struct vseg_validation).
 *
 * Return: what @fn returned, or a locking error.
 */
int vseg_bo_locked_retry(struct vseg_bo *vbo,
			 int (*fn)(struct vseg_bo *vbo, void *arg), void *arg)
{
	struct drm_gem_object *obj = &vbo->tbo.base;
	struct vseg_validation val;
	struct drm_exec exec;
	int err;

	vseg_validation_init(&val, bo_vdev(vbo));
	do {
		err = vseg_validation_begin(&val);
		if (err)
			break;
		drm_exec_init(&exec, DRM_EXEC_INTERRUPTIBLE_WAIT, 1);
		drm_exec_until_all_locked(&exec) {
			err = drm_exec_lock_obj(&exec, obj);
			drm_exec_retry_on_contention(&exec);
			if (err)
				break;
			err = fn(vbo, arg);
		}
		/* Used now: the last buffer to evict (as ttm_bo_unreserve()). */
		if (!err)
			vseg_bo_used(vbo);
		drm_exec_fini(&exec);
		vseg_validation_end(&val);
	} while (vseg_validation_retry(&val, err));
	return err;
}

static struct vseg_bo *bo_alloc(struct vseg_device *vdev,
				const struct vseg_bo_params *p,
				const struct drm_gem_object_funcs *funcs,
				struct vseg_client_stats *stats,
				struct vseg_limits_client *owner)
{
	struct vseg_bo *vbo = kzalloc(sizeof(*vbo), GFP_KERNEL_ACCOUNT);

	if (!vbo)
		return NULL;
	vbo->params = *p;
	vbo->stats = vseg_client_stats_get(stats);
	if (owner)
		vbo->owner = vseg_limits_client_get(owner);
	vbo->priority = p->priority ?: VSEG_PRIORITY_NORMAL;
	/* TTM keeps it: its LRU list from the first placement on. */
	vbo->tbo.priority = vseg_budget_lru_priority(vbo->priority,
						     vseg_budget_policy_on());
	vbo->accounted_seg = VSEG_BO_NOWHERE;
	vbo->owner_pid = task_tgid_nr(current);
	get_task_comm(vbo->owner_comm, current);
	INIT_LIST_HEAD(&vbo->link);
	vbo->tbo.base.funcs = funcs;
	drm_gem_private_object_init(&vdev->drm, &vbo->tbo.base, p->size);
	vseg_gpuva_lock_init(&vbo->tbo.base, &vbo->gpuva_lock);

	mutex_lock(&vdev->bo_lock);
	vbo->id = ++vdev->next_bo_id;
	list_add_tail(&vbo->link, &vdev->bos);
	vdev->num_bos++;
	mutex_unlock(&vdev->bo_lock);
	return vbo;
}

/* The first places, up to system memory: tried without evicting. */
static unsigned int first_places(struct vseg_device *vdev,
				 const struct vseg_bo_params *p,
				 struct ttm_place *places, unsigned int *n)
{
	unsigned int first;

	*n = vseg_place_home(&vdev->layout, p, 0, places);
	for (first = 0; first < *n; first++)
		if (places[first].mem_type == TTM_PL_SYSTEM)
			break;
	return first;
}

/* Every place, evicting least-recently-used buffers as needed. */
static int bo_place_evicting(struct vseg_bo *vbo, void *arg)
{
	struct ttm_operation_ctx ctx = { .interruptible = true };
	struct vseg_device *vdev = bo_vdev(vbo);
	struct ttm_place places[VSEG_BO_MAX_PLACES];
	struct ttm_placement placement = {};
	unsigned int n;
	int err;

	n = vseg_place_home(&vdev->layout, &vbo->params, 0, places);
	vseg_placement_set(&placement, places, n);
	err = validate_evicting(&vbo->tbo, &placement, &ctx);
	/* Placed without a move (none was needed): accounted here. */
	if (!err && vbo->accounted_seg == VSEG_BO_NOWHERE)
		vseg_bo_update_state(vbo, vbo->tbo.resource, false);
	return err;
}

/*
 * A buffer born in system memory (no place before it had room at once),
 * reserved: the places before system memory without eviction, then system
 * memory if it is supported (it is there already). Return: 0 when placed,
 * -EAGAIN when it needs eviction, or an error.
 */
static int bo_place(struct vseg_bo *vbo, struct ttm_operation_ctx *ctx)
{
	struct vseg_device *vdev = bo_vdev(vbo);
	struct ttm_place places[VSEG_BO_MAX_PLACES];
	struct ttm_placement placement = {};
	unsigned int n, first;
	int err = -ENOSPC;

	first = first_places(vdev, &vbo->params, places, &n);
	if (first) {
		vseg_placement_set_no_evict(&placement, places, first);
		err = vseg_space_err(ttm_bo_validate(&vbo->tbo, &placement, ctx));
	}
	if (err == -ENOSPC && first < n)
		return 0;
	return err == -ENOSPC ? -EAGAIN : err;
}

/**
 * vseg_bo_create() - create and place a buffer
 * @vdev: the device
 * @p: checked properties (vseg_bo_check_params()), size already real
 * @funcs: the GEM object functions
 * @stats: the creating file's engine time counters, or NULL
 * @owner: the creating file's limits client (its process is charged the
 *	buffer's residency), or NULL
 * @resv_obj: for a VM-private buffer, the GEM object whose reservation it
 *	shares (its address space's); NULL otherwise
 * @out: receives the buffer, holding one GEM reference
 *
 * Created straight into the first of its places before system memory that
 * has room, without evicting anything; else born in system memory and
 * placed by bo_place(). It always ends with a placement.
 *
 * Return: 0, -ENOSPC when no supported segment has room even after
 * eviction, -ENOMEM, or another negative error code.
 */
int vseg_bo_create(struct vseg_device *vdev, const struct vseg_bo_params *p,
		   const struct drm_gem_object_funcs *funcs,
		   struct vseg_client_stats *stats,
		   struct vseg_limits_client *owner,
		   struct drm_gem_object *resv_obj, struct vseg_bo **out)
{
	struct dma_resv *resv = resv_obj ? resv_obj->resv : NULL;
	struct ttm_operation_ctx ctx = { .interruptible = true };
	struct ttm_place sys = { .mem_type = TTM_PL_SYSTEM };
	struct ttm_place places[VSEG_BO_MAX_PLACES];
	struct ttm_placement placement = {};
	unsigned int n, first;
	struct vseg_bo *vbo;
	bool direct;
	int err;

	first = first_places(vdev, p, places, &n);
	direct = first;
	/* A VM-private buffer is created with the shared reservation held. */
	if (resv) {
		err = dma_resv_lock_interruptible(resv, NULL);
		if (err)
			return err;
	}
again:
	vbo = bo_alloc(vdev, p, funcs, stats, owner);
	if (!vbo) {
		err = -ENOMEM;
		goto out_unlock;
	}
	if (resv_obj) {
		drm_gem_object_get(resv_obj);
		vbo->resv_obj = resv_obj;
	}
	if (direct)
		vseg_placement_set_no_evict(&placement, places, first);
	else
		vseg_placement_set(&placement, &sys, 1);
	/* On failure TTM calls vseg_bo_destroy() itself. */
	err = ttm_bo_init_reserved(&vdev->bdev, &vbo->tbo, ttm_bo_type_device,
				   &placement, p->alignment >> PAGE_SHIFT,
				   &ctx, NULL, resv, vseg_bo_destroy);
	if (direct && vseg_space_err(err) == -ENOSPC) {
		direct = false;
		goto again;
	}
	if (err)
		goto out_unlock;
	if (!direct)
		err = bo_place(vbo, &ctx);
	/* Placed without a move (none was needed): accounted here. */
	if (!err && vbo->accounted_seg == VSEG_BO_NOWHERE)
		vseg_bo_update_state(vbo, vbo->tbo.resource, false);
	ttm_bo_unreserve(&vbo->tbo);
	/* Nobody else knows the buffer yet: relock it to evict others. */
	if (err == -EAGAIN)
		err = vseg_bo_locked_retry(vbo, bo_place_evicting, NULL);
	if (err) {
		drm_gem_object_put(&vbo->tbo.base);
		return err;
	}
	/* Getting to its first place is not a move. */
	mutex_lock(&vdev->bo_lock);
	vbo->state.moves = 0;
	mutex_unlock(&vdev->bo_lock);
	trace_vseg_bo_create(vbo->id, vbo->tbo.base.size,
			     READ_ONCE(vbo->accounted_seg), p->flags,
			     p->supported);
	*out = vbo;
	return 0;

out_unlock:
	if (resv)
		dma_resv_unlock(resv);
	return vseg_space_err(err);
}

/**
 * vseg_bo_create_imported() - create the buffer of a foreign dma-buf
 * @vdev: the device
 * @p: properties: the dma-buf's size (page aligned), supported in system
 *	memory and the aperture only (its pages are the exporter's: they never
 *	move into a memory segment)
 * @funcs: the GEM object functions
 * @sgt: the exporter's pages, mapped for vseg
 * @resv: the dma-buf's reservation object, which the buffer shares, so
 *	that jobs and the exporter see each other's fences
 * @out: receives the buffer, holding one GEM reference
 *
 * Born in system memory; its pages come from @sgt when it is populated.
 *
 * Return: 0, -EINVAL for properties no place could hold, or -ENOMEM.
 */
int vseg_bo_create_imported(struct vseg_device *vdev,
			    const struct vseg_bo_params *p,
			    const struct drm_gem_object_funcs *funcs,
			    struct sg_table *sgt, struct dma_resv *resv,
			    struct vseg_bo **out)
{
	struct ttm_operation_ctx ctx = { .interruptible = true };
	struct ttm_place sys = { .mem_type = TTM_PL_SYSTEM };
	struct ttm_placement placement = {};
	struct vseg_bo *vbo;
	u64 real_size;
	int err;

	err = vseg_bo_check_params(vdev, p, &real_size);
	if (err)
		return err;
	if (real_size != p->size)
		return -EINVAL;
	err = dma_resv_lock_interruptible(resv, NULL);
	if (err)
		return err;
	vbo = bo_alloc(vdev, p, funcs, NULL, NULL);
	if (!vbo) {
		dma_resv_unlock(resv);
		return -ENOMEM;
	}
	vseg_placement_set(&placement, &sys, 1);
	/* On failure TTM calls vseg_bo_destroy() itself. */
	err = ttm_bo_init_reserved(&vdev->bdev, &vbo->tbo, ttm_bo_type_sg,
				   &placement, 0, &ctx, sgt, resv,
				   vseg_bo_destroy);
	if (!err && vbo->accounted_seg == VSEG_BO_NOWHERE)
		vseg_bo_update_state(vbo, vbo->tbo.resource, false);
	dma_resv_unlock(resv);
	if (err)
		return vseg_space_err(err);
	mutex_lock(&vdev->bo_lock);
	vbo->state.moves = 0;
	mutex_unlock(&vdev->bo_lock);
	*out = vbo;
	return 0;
}

/**
 * vseg_bo_is_imported() - are a buffer's pages another device's
 * @vbo: the buffer
 *
 * Return: true for a buffer made from a foreign dma-buf.
 */
bool vseg_bo_is_imported(struct vseg_bo *vbo)
{
	return vbo->tbo.type == ttm_bo_type_sg;
}

/**
 * vseg_bo_cpu_places() - CPU-visible places a buffer supports
 * @vbo: the buffer
 * @places: receives them, best first
 *
 * Return: the number of places; 0 if the CPU can never reach the buffer.
 */
unsigned int vseg_bo_cpu_places(struct vseg_bo *vbo, struct ttm_place *places)
{
	return vseg_place_home(&bo_vdev(vbo)->layout, &vbo->params,
			       VSEG_PLACE_CPU, places);
}

/**
 * vseg_bo_cpu_accessible() - can the CPU map the buffer where it is
 * @vbo: the buffer, reserved
 *
 * Return: true in system memory, the aperture, a memory segment with a
 * CPU host aperture, or wholly inside the CPU-visible part of a memory
 * segment.
 */
bool vseg_bo_cpu_accessible(struct vseg_bo *vbo)
{
	struct ttm_resource *res = vbo->tbo.resource;
	struct vseg_device *vdev = bo_vdev(vbo);
	u32 id;

	dma_resv_assert_held(vbo->tbo.base.resv);
	if (!res || vseg_bo_is_protected(vbo))
		return false;
	id = vseg_mem_type_to_seg(vdev, res->mem_type);
	if (!vseg_seg_is_memory(vdev, id) || vseg_seg(vdev, id)->host)
		return true;
	return vseg_vram_res_below(res, vseg_seg(vdev, id)->desc->cpu_visible_size);
}

static void fill_state(struct vseg_device *vdev, struct ttm_resource *res,
		       struct vseg_bo_state *st)
{
	u32 id;

	if (!res)
		return;
	id = vseg_mem_type_to_seg(vdev, res->mem_type);
	st->seg = id;
	if (vseg_seg_is_memory(vdev, id)) {
		st->offset = (u64)res->start << PAGE_SHIFT;
		st->contiguous = vseg_vram_res_contiguous(res);
	} else if (vseg_aperture_res_mapped(res)) {
		st->ap_mapped = true;
		st->contiguous = true;
		vseg_aperture_res_range(res, &st->ap_start, &st->ap_size);
		st->offset = st->ap_start;
	}
}

/* Redo the snapshot after a change in place (a GART range came or went). */
static void refresh_state(struct vseg_bo *vbo)
{
	struct vseg_device *vdev = bo_vdev(vbo);
	struct vseg_bo_state st = {};

	fill_state(vdev, vbo->tbo.resource, &st);
	mutex_lock(&vdev->bo_lock);
	st.moves = vbo->state.moves;
	vbo->state = st;
	mutex_unlock(&vdev->bo_lock);
}

/* Count the buffer as evicted from segment @from (0: not evicted). */
static void set_evicted_from(struct vseg_bo *vbo, u32 from)
{
	struct vseg_device *vdev = bo_vdev(vbo);
	u64 size = vbo->tbo.base.size;

	if (vbo->evicted_from)
		atomic64_sub(size, &vseg_seg(vdev, vbo->evicted_from)->evicted);
	vbo->evicted_from = from;
	if (from)
		atomic64_add(size, &vseg_seg(vdev, from)->evicted);
}

/**
 * vseg_bo_update_state() - account a buffer's new placement
 * @vbo: the buffer, reserved
 * @res: its new resource, or NULL when its backing goes away
 * @evicted: the move is an eviction
 *
 * Keeps the per-segment resident and evicted counters and the placement
 * snapshot read by GEM_INFO and debugfs.
 */
void vseg_bo_update_state(struct vseg_bo *vbo, struct ttm_resource *res,
			  bool evicted)
{
	struct vseg_device *vdev = bo_vdev(vbo);
	u64 size = vbo->tbo.base.size;
	u32 old = vbo->accounted_seg;
	u32 new = res ? vseg_mem_type_to_seg(vdev, res->mem_type) :
			VSEG_BO_NOWHERE;
	struct vseg_bo_state st = {};

	dma_resv_assert_held(vbo->tbo.base.resv);
	/* Placed now: the last to go of its class (trim_before()). */
	vbo->last_use = atomic64_inc_return(&vdev->use_seq);
	if (old != VSEG_BO_NOWHERE)
		atomic64_sub(size, old ? &vseg_seg(vdev, old)->resident :
					 &vdev->system_resident);
	/* The owner's process's residency, for its budgets (never bounded). */
	if (vbo->owner && old && old != VSEG_BO_NOWHERE)
		vseg_limits_uncharge(vbo->owner, VSEG_LIMIT_RESIDENT, old, size);
	if (vbo->owner && new && new != VSEG_BO_NOWHERE)
		vseg_limits_charge(vbo->owner, VSEG_LIMIT_RESIDENT, new, size);
	/* Moved (not created) into a segment: its process's paging. */
	if (vbo->owner && old != VSEG_BO_NOWHERE && new && new != old &&
	    new != VSEG_BO_NOWHERE)
		vseg_budget_moved_in(vbo->owner, size);
	if (vbo->owner && old != new)
		vseg_budget_changed(&vdev->limits);
	if (!old || old == VSEG_BO_NOWHERE || new == VSEG_BO_NOWHERE)
		evicted = false;
	set_evicted_from(vbo, evicted ? old : 0);
	if (new != VSEG_BO_NOWHERE)
		atomic64_add(size, new ? &vseg_seg(vdev, new)->resident :
					 &vdev->system_resident);
	vbo->accounted_seg = new;

	fill_state(vdev, res, &st);
	mutex_lock(&vdev->bo_lock);
	st.moves = vbo->state.moves;
	if (old != VSEG_BO_NOWHERE && res)
		st.moves++;
	vbo->state = st;
	mutex_unlock(&vdev->bo_lock);
}

/**
 * vseg_tbo_is_protected() - is a TTM buffer a protected vseg buffer
 * @tbo: the buffer (a ghost of a move is not)
 *
 * Return: true for a buffer created with DRM_VSEG_GEM_CREATE_PROTECTED.
 */
bool vseg_tbo_is_protected(struct ttm_buffer_object *tbo)
{
	return vseg_is_vseg_bo(tbo) && vseg_bo_is_protected(to_vseg_bo(tbo));
}

/**
 * vseg_bo_set_priority() - change a buffer's residency priority
 * @vbo: the buffer
 * @priority: the new priority, nonzero
 *
 * The buffer goes to the tail of its new LRU list (TTM's lists are per
 * priority), as if just used.
 *
 * Return: 0, or -EINTR/-ERESTARTSYS waiting for its reservation.
 */
int vseg_bo_set_priority(struct vseg_bo *vbo, u32 priority)
{
	struct ttm_buffer_object *tbo = &vbo->tbo;
	int err = dma_resv_lock_interruptible(tbo->base.resv, NULL);

	if (err)
		return err;
	vbo->priority = priority;
	/* An offered buffer stays on list 0 until RECLAIM. */
	if (!vbo->offered) {
		spin_lock(&tbo->bdev->lru_lock);
		tbo->priority = vseg_budget_lru_priority(priority,
							 vseg_budget_policy_on());
		ttm_bo_move_to_lru_tail(tbo);
		spin_unlock(&tbo->bdev->lru_lock);
	}
	dma_resv_unlock(tbo->base.resv);
	return 0;
}

/* The offer priority after the highest (DRM_VSEG_OFFER_PRIORITY_HIGH). */
#define VSEG_OFFER_PRIORITY_END		4

/**
 * vseg_bo_offer_check() - may a buffer be offered
 * @vbo: the buffer, reserved
 *
 * Return: 0; -EINVAL for a protected buffer (its content must not be
 * dropped behind the protected session's back), an imported one (its
 * content is the exporter's) or an exported one (other devices use it);
 * -EBUSY for a pinned one (MAKE_RESIDENT's pins, a displayed primary, a
 * kernel mapping, an attachment).
 */
int vseg_bo_offer_check(struct vseg_bo *vbo)
{
	dma_resv_assert_held(vbo->tbo.base.resv);
	if (vseg_bo_is_protected(vbo) || vseg_bo_is_imported(vbo) ||
	    vbo->tbo.base.dma_buf)
		return -EINVAL;
	if (vbo->tbo.pin_count || vbo->displayed || vbo->shared_pins ||
	    vbo->display_kmaps)
		return -EBUSY;
	return 0;
}

/**
 * vseg_bo_offer_locked() - offer a buffer (D3DKMTOfferAllocations)
 * @vbo: the buffer, reserved, vseg_bo_offer_check() said 0
 * @offer_priority: DRM_VSEG_OFFER_PRIORITY_LOW, NORMAL or HIGH
 *
 * The buffer goes to the tail of TTM's LRU list 0, which TTM evicts
 * first and which no buffer in use is on (vseg_budget_lru_priority());
 * an eviction from a memory segment then discards it (vseg_ttm_move()).
 * Its CPU mappings go: a CPU access faults, and the fault refuses it.
 */
void vseg_bo_offer_locked(struct vseg_bo *vbo, u32 offer_priority)
{
	struct ttm_buffer_object *tbo = &vbo->tbo;

	dma_resv_assert_held(tbo->base.resv);
	if (!vbo->offered)
		vbo->offer_discarded = false;
	WRITE_ONCE(vbo->offered, offer_priority);
	ttm_bo_unmap_virtual(tbo);
	vseg_host_aperture_drop(vbo);
	spin_lock(&tbo->bdev->lru_lock);
	tbo->priority = 0;
	ttm_bo_move_to_lru_tail(tbo);
	spin_unlock(&tbo->bdev->lru_lock);
}

/* Back to the tail of list 0 if still offered at @offer_priority. */
static void offer_requeue(struct vseg_bo *vbo, u32 offer_priority)
{
	struct ttm_buffer_object *tbo = &vbo->tbo;

	if (READ_ONCE(vbo->offered) != offer_priority ||
	    !dma_resv_trylock(tbo->base.resv))
		return;
	if (vbo->offered == offer_priority) {
		spin_lock(&tbo->bdev->lru_lock);
		ttm_bo_move_to_lru_tail(tbo);
		spin_unlock(&tbo->bdev->lru_lock);
	}
	dma_resv_unlock(tbo->base.resv);
}

/**
 * vseg_bo_offer_sort() - keep list 0 in offer priority order
 * @vdev: the device
 * @offer_priority: the priority buffers were just offered at (they are at
 *	the tail of list 0)
 *
 * TTM evicts list 0 from its head. Buffers offered at a higher priority
 * than the ones just offered go back to the tail, lowest priority first,
 * so that list 0 reads LOW, NORMAL, HIGH again. Best effort: a buffer
 * whose reservation someone holds right now is left where it is (a
 * trylock), and any reservation of an offered buffer that TTM unreserves
 * (ttm_bo_unreserve()) puts it at the tail as if just used.
 */
void vseg_bo_offer_sort(struct vseg_device *vdev, u32 offer_priority)
{
	struct vseg_bo **bos;
	u32 prio;
	u64 n, i;

	if (offer_priority + 1 >= VSEG_OFFER_PRIORITY_END)
		return;
	bos = vseg_bos_snapshot(vdev, &n);
	if (!bos)
		return;
	for (prio = offer_priority + 1; prio < VSEG_OFFER_PRIORITY_END; prio++)
		for (i = 0; i < n; i++)
			offer_requeue(bos[i], prio);
	vseg_bos_put(bos, n);
}

/**
 * vseg_bo_reclaim_locked() - take an offered buffer back
 * @vbo: the buffer, reserved, offered
 *
 * It goes back to its residency priority's LRU list, as if just used.
 *
 * Return: DRM_VSEG_RECLAIM_OK, or DRM_VSEG_RECLAIM_DISCARDED when its
 * content was dropped while it was offered.
 */
u32 vseg_bo_reclaim_locked(struct vseg_bo *vbo)
{
	struct ttm_buffer_object *tbo = &vbo->tbo;
	u32 result = vbo->offer_discarded ? DRM_VSEG_RECLAIM_DISCARDED :
					    DRM_VSEG_RECLAIM_OK;

	dma_resv_assert_held(tbo->base.resv);
	WRITE_ONCE(vbo->offered, 0);
	vbo->offer_discarded = false;
	spin_lock(&tbo->bdev->lru_lock);
	tbo->priority = vseg_budget_lru_priority(vbo->priority,
						 vseg_budget_policy_on());
	ttm_bo_move_to_lru_tail(tbo);
	spin_unlock(&tbo->bdev->lru_lock);
	return result;
}

/**
 * vseg_bo_get_state() - read a buffer's placement snapshot
 * @vbo: the buffer
 * @st: receives it
 */
void vseg_bo_get_state(struct vseg_bo *vbo, struct vseg_bo_state *st)
{
	struct vseg_device *vdev = bo_vdev(vbo);

	mutex_lock(&vdev->bo_lock);
	*st = vbo->state;
	mutex_unlock(&vdev->bo_lock);
}

/* Does the BO's current resource satisfy @place? */
static bool res_fits_place(struct ttm_buffer_object *tbo,
			   const struct ttm_place *place)
{
	struct ttm_resource *res = tbo->resource;
	struct ttm_resource_manager *man;

	if (!res || res->mem_type != place->mem_type)
		return false;
	man = ttm_manager_type(tbo->bdev, res->mem_type);
	return !man->func->compatible ||
	       man->func->compatible(man, res, place, tbo->base.size);
}

/* Does the BO's current resource satisfy one of @n places? */
static bool res_in_places(struct ttm_buffer_object *tbo,
			  const struct ttm_place *places, unsigned int n)
{
	unsigned int i;

	for (i = 0; i < n; i++)
		if (res_fits_place(tbo, &places[i]))
			return true;
	return false;
}

/* Committed to the aperture without a GART range: physically unreachable. */
static bool res_lacks_gart_range(struct ttm_resource *res)
{
	return res && res->mem_type == TTM_PL_TT &&
	       !vseg_aperture_res_mapped(res);
}

/**
 * vseg_bos_snapshot() - every buffer of the device, referenced
 * @vdev: the device
 * @n: receives how many
 *
 * Buffers whose last reference is going are left out: they hold nothing
 * anyone can read again. Give them back with vseg_bos_put().
 *
 * Return: a kvmalloc'ed array, or NULL without memory.
 */
struct vseg_bo **vseg_bos_snapshot(struct vseg_device *vdev, u64 *n)
{
	struct vseg_bo **bos, *vbo;

	mutex_lock(&vdev->bo_lock);
	bos = kvmalloc_array(max_t(u64, vdev->num_bos, 1), sizeof(*bos),
			     GFP_KERNEL);
	*n = 0;
	if (bos)
		list_for_each_entry(vbo, &vdev->bos, link)
			if (kref_get_unless_zero(&vbo->tbo.base.refcount))
				bos[(*n)++] = vbo;
	mutex_unlock(&vdev->bo_lock);
	return bos;
}

/**
 * vseg_bos_put() - drop the references of an array of buffers, and it
 * @bos: the array, kvmalloc'ed (vseg_bos_snapshot())
 * @n: its buffers
 */
void vseg_bos_put(struct vseg_bo **bos, u64 n)
{
	while (n--)
		drm_gem_object_put(&bos[n]->tbo.base);
	kvfree(bos);
}

/**
 * vseg_bos_drain() - wait for every job and move that uses the buffers
 * @vdev: the device
 * @bos: the buffers
 * @n: how many
 *
 * Then the engines' queues are flushed and the old placements of the
 * moves freed now, not later.
 */
void vseg_bos_drain(struct vseg_device *vdev, struct vseg_bo **bos, u64 n)
{
	u64 i;

	for (i = 0; i < n; i++)
		dma_resv_wait_timeout(bos[i]->tbo.base.resv,
				      DMA_RESV_USAGE_BOOKKEEP, false,
				      MAX_SCHEDULE_TIMEOUT);
	vseg_engine_flush(vdev);
	vseg_ttm_flush_deferred(&vdev->bdev);
}

/* Wait until the old placements of the moves queued so far are freed. */
static void wait_frees(struct vseg_device *vdev)
{
	vseg_paging_wait_idle(&vdev->pager);
	vseg_ttm_flush_deferred(&vdev->bdev);
}

/*
 * Move a buffer to the best of @places (its resident places) that has
 * room, each place in turn evicting as needed, from *@place on; a buffer
 * already in one of them moves only to a better one. A validation that
 * found no room may have been a ww back-off inside TTM (-EDEADLK reported
 * as -ENOSPC or -EBUSY), after which the transaction may lock nothing
 * more: VSEG_BO_NEXT_PLACE asks the caller for a new transaction, *@place
 * naming where to go on, a better place or the one it is in. No room
 * anywhere better: VSEG_BO_STAYED, resident where it was; nowhere:
 * -ENOSPC (struct vseg_validation). A pinned buffer never moves (TTM
 * refuses with -EINVAL): it is
 * resident where it is, or in none of @places (-ENOBUFS, for good: to pin
 * it again, its segment is not in @places). A place without room is not
 * given up for the next before it was tried again once the old placements
 * of the moves queued so far are freed (TTM frees them once the paging
 * engine is done with them): VSEG_BO_WAIT_PLACE, then *@place with
 * VSEG_BO_PLACE_WAITED.
 */
/*
 * WDDM's first rule of eviction: the buffers of processes over their
 * budget go before any other. TTM's eviction orders by its LRU lists (the
 * priority classes) and age only, and its eviction_valuable callback can
 * skip a buffer but not put one first; so before TTM's walk vseg runs one
 * of its own. It is vseg's because 6.12 does not export TTM's LRU walk
 * (ttm_lru_walk_for_evict()): the candidates are the device's buffers
 * resident in the segment whose process is over its budget in the
 * segment's group, the oldest VSEG_TRIM_BATCH of them by priority class,
 * then last use (as TTM's lists order them), each taken with a trylock
 * (the caller's transaction keeps its own) and only while its process
 * still is over budget. The processes over budget are found first, in one
 * pass over the process records (vseg_budget_mark_over()): with none, no
 * buffer is walked; else the walk asks each buffer's process's mark, not
 * its budget (which would walk the records again per buffer).
 */
#define VSEG_TRIM_BATCH	32

static bool trim_before(const struct vseg_bo *a, const struct vseg_bo *b)
{
	if (a->tbo.priority != b->tbo.priority)
		return a->tbo.priority < b->tbo.priority;
	return a->last_use < b->last_use;
}

/*
 * Under bo_lock: the VSEG_TRIM_BATCH first candidates, referenced (the
 * references are taken once the batch is chosen: dropping one here could
 * free a buffer, which takes bo_lock). None while an offered buffer is in
 * the segment: offered buffers go before anything in use, and TTM's walk
 * takes them first (its list 0).
 */
static unsigned int trim_candidates(struct vseg_device *vdev,
				    struct vseg_bo *self, u32 seg, u32 mark,
				    struct vseg_bo **cand)
{
	unsigned int n = 0, got = 0, i;
	struct vseg_bo *v;

	lockdep_assert_held(&vdev->bo_lock);
	list_for_each_entry(v, &vdev->bos, link) {
		if (v == self || READ_ONCE(v->accounted_seg) != seg)
			continue;
		if (vseg_bo_offered(v))
			return 0;
		if (!v->owner || READ_ONCE(v->tbo.pin_count))
			continue;
		if (!vseg_budget_marked_over(v->owner, mark) ||
		    (n == VSEG_TRIM_BATCH && !trim_before(v, cand[n - 1])))
			continue;
		if (n < VSEG_TRIM_BATCH)
			n++;
		for (i = n - 1; i && trim_before(v, cand[i - 1]); i--)
			cand[i] = cand[i - 1];
		cand[i] = v;
	}
	for (i = 0; i < n; i++)
		if (kref_get_unless_zero(&cand[i]->tbo.base.refcount))
			cand[got++] = cand[i];
	return got;
}

/* Evict @vbo, locked, if its process is still over budget: its bytes. */
static s64 trim_one(struct vseg_bo *vbo, const struct ttm_place *place,
		    u32 seg, struct ttm_operation_ctx *ctx)
{
	struct vseg_device *vdev = bo_vdev(vbo);
	struct ttm_buffer_object *tbo = &vbo->tbo;
	struct ttm_placement placement = {};
	int err;

	if (tbo->pin_count || !tbo->resource ||
	    tbo->resource->mem_type != place->mem_type ||
	    !vseg_budget_over(vbo->owner, seg) ||
	    !tbo->bdev->funcs->eviction_valuable(tbo, place))
		return 0;
	vseg_placement_set(&placement, vbo->evict_places,
			   vseg_place_evict(&vdev->layout, &vbo->params,
					    tbo->resource->mem_type,
					    vbo->evict_places));
	vbo->move_reason = VSEG_MOVE_EVICTION;
	err = vseg_space_err(ttm_bo_validate(tbo, &placement, ctx));
	if (err)
		return err == -ENOSPC || err == -EBUSY ? 0 : err;
	set_evicted_from(vbo, seg);
	return tbo->base.size;
}

/*
 * Room for @vbo at @place, taken first from processes over their budget:
 * nothing happens if it fits without evicting. The room is free once the
 * moves' copies have read it and TTM's deferred work has freed the old
 * placements, which cannot be waited for here, under the transaction's
 * locks (the deferred work takes reservations): the caller leaves the
 * transaction and waits (VSEG_BO_WAIT_PLACE), as for TTM's own moves.
 *
 * Return: true if it evicted something.
 */
static bool trim_over_budget(struct vseg_bo *vbo, const struct ttm_place *place,
			     struct ttm_operation_ctx *ctx)
{
	struct vseg_device *vdev = bo_vdev(vbo);
	u32 seg = vseg_mem_type_to_seg(vdev, place->mem_type);
	struct vseg_bo *cand[VSEG_TRIM_BATCH];
	struct ttm_place desired = *place;
	struct ttm_placement placement = {};
	unsigned int n, i;
	s64 freed = 0;
	u32 mark;
	int err;

	if (!vseg_budget_policy_on() || !vseg_seg_is_memory(vdev, seg))
		return false;
	desired.flags |= TTM_PL_FLAG_DESIRED;
	vseg_placement_set(&placement, &desired, 1);
	err = vseg_space_err(ttm_bo_validate(&vbo->tbo, &placement, ctx));
	if (err != -ENOSPC && err != -EBUSY)
		return false;
	/* Nobody over budget there: no buffer to walk. */
	mark = vseg_budget_mark_over(&vdev->limits, seg);
	if (!mark)
		return false;

	mutex_lock(&vdev->bo_lock);
	n = trim_candidates(vdev, vbo, seg, mark, cand);
	mutex_unlock(&vdev->bo_lock);
	for (i = 0; i < n; i++) {
		struct dma_resv *resv = cand[i]->tbo.base.resv;
		s64 got;

		if (freed < (s64)vbo->tbo.base.size && dma_resv_trylock(resv)) {
			got = trim_one(cand[i], place, seg, ctx);
			dma_resv_unlock(resv);
			if (got > 0)
				freed += got;
		}
		drm_gem_object_put(&cand[i]->tbo.base);
	}
	return freed > 0;
}

static int place_resident(struct vseg_bo *vbo, struct ttm_place *places,
			  unsigned int n, unsigned int *place)
{
	struct ttm_operation_ctx ctx = { .interruptible = true };
	struct ttm_placement placement = {};
	unsigned int cur, i = *place & ~VSEG_BO_PLACE_WAITED;
	bool waited = *place & VSEG_BO_PLACE_WAITED;
	int err;

	*place = 0;
	for (cur = 0; cur < n; cur++)
		if (res_fits_place(&vbo->tbo, &places[cur]))
			break;
	if (vbo->tbo.pin_count)
		return cur < n ? 0 : -ENOBUFS;
	if (i < cur) {
		if (trim_over_budget(vbo, &places[i], &ctx) && !waited) {
			*place = i;
			return VSEG_BO_WAIT_PLACE;
		}
		vseg_placement_set(&placement, &places[i], 1);
		err = validate_evicting(&vbo->tbo, &placement, &ctx);
		if (err != -ENOSPC)
			return err;
		if (!waited) {
			*place = i;
			return VSEG_BO_WAIT_PLACE;
		}
		/* The next one, or where it is (a transaction later). */
		if (i + 1 < cur || cur < n) {
			*place = i + 1;
			return VSEG_BO_NEXT_PLACE;
		}
	}
	return cur < n ? VSEG_BO_STAYED : -ENOSPC;
}

/**
 * vseg_bo_make_resident_locked() - bring a buffer into a memory segment or
 * the aperture (D3DKMTMakeResident)
 * @vbo: the buffer, locked in a drm_exec transaction: TTM
 *	locks the buffers it evicts with the same ticket, and evicts none
 *	that the transaction holds
 * @pin: pin it there
 * @pin_segments: with @pin: the segments it may be pinned in (bit 0:
 *	system memory); places elsewhere are not tried
 * @pinned_seg: with @pin: receives the segment it was pinned in
 * @place: the place to go on from (0 at first): set for
 *	%VSEG_BO_NEXT_PLACE and %VSEG_BO_WAIT_PLACE, 0 otherwise
 *
 * Tries the buffer's places best first, each evicting others as needed;
 * a resident buffer with no room in a better place stays where it is, and
 * a pinned buffer does not move at all. One attached by another device
 * (vseg_bo_pin_shared()) is resident where it is, system memory included.
 *
 * Return: 0; VSEG_BO_STAYED if it is resident (and pinned) where it was,
 * no better place having room, or VSEG_BO_NEXT_PLACE if it is to be tried
 * again from @place (VSEG_BO_WAIT_PLACE: once the old placements of moves
 * are freed): either way the transaction must lock nothing more;
 * -ENOSPC if no resident placement has room even after eviction (others
 * may hold the room: worth trying again once out of the transaction);
 * -ENOBUFS if there is no room for good: to pin, no place in
 * @pin_segments, a pinned buffer's segment not in them, or the pin count
 * at its limit; or another negative error code.
 */
int vseg_bo_make_resident_locked(struct vseg_bo *vbo, bool pin,
				 u32 pin_segments, u32 *pinned_seg,
				 unsigned int *place)
{
	struct vseg_device *vdev = bo_vdev(vbo);
	struct ttm_place places[VSEG_BO_MAX_PLACES];
	unsigned int n;
	int err;

	dma_resv_assert_held(vbo->tbo.base.resv);
	if (vbo->offered)
		return -EBUSY;
	if (pin && vbo->tbo.pin_count >= VSEG_BO_MAX_PINS)
		return -ENOBUFS;
	vbo->move_reason = VSEG_MOVE_RESIDENCY;
	/* Attached by another device: used where the attachment put it. */
	if (vbo->shared_pins && !pin)
		return VSEG_BO_STAYED;
	n = vseg_place_home(&vdev->layout, &vbo->params, VSEG_PLACE_RESIDENT,
			    places);
	if (!n) /* Supported in system memory only: that is its home. */
		n = vseg_place_home(&vdev->layout, &vbo->params, 0, places);
	if (pin)
		n = vseg_place_filter(&vdev->layout, places, n, pin_segments);
	if (!n)
		return -ENOBUFS;
	err = place_resident(vbo, places, n, place);
	if (err < 0 || err == VSEG_BO_NEXT_PLACE ||
	    err == VSEG_BO_WAIT_PLACE || !pin)
		return err;
	/* In one of the places: in @pin_segments. */
	*pinned_seg = vseg_mem_type_to_seg(vdev, vbo->tbo.resource->mem_type);
	ttm_bo_pin(&vbo->tbo);
	vbo->user_pins++;
	return err;
}

static int obj_cmp(const void *a, const void *b)
{
	uintptr_t x = (uintptr_t)*(struct drm_gem_object * const *)a;
	uintptr_t y = (uintptr_t)*(struct drm_gem_object * const *)b;

	return x < y ? -1 : x > y;
}

/*
 * The entries from *@done on, in one transaction: each made resident, or
 * the reason to stop.
 */
static int resident_entries(struct vseg_bo **bos, u32 n,
			    int (*fn)(struct vseg_bo *vbo, void *arg,
				      unsigned int *place),
			    void *arg, u32 *done, unsigned int *place)
{
	int err = 0;

	while (*done < n) {
		struct vseg_bo *vbo = bos[*done];

		err = fn ? fn(vbo, arg, place) :
		      vseg_bo_make_resident_locked(vbo, false, 0, NULL, place);
		if (err < 0 || err == VSEG_BO_WAIT_PLACE ||
		    err == VSEG_BO_NEXT_PLACE)
			return err;
		/* Used now: the last buffer to evict. */
		vseg_bo_used(vbo);
		(*done)++;
	}
	return err;
}

/**
 * vseg_bo_make_resident_list() - make a list of buffers resident together
 * (D3DKMTMakeResident)
 * @bos: the buffers, in list order; a buffer may be listed more than once
 * @n: number of entries
 * @fn: makes one entry resident, its buffer reserved, returning as
 *	vseg_bo_make_resident_locked() does (with its @place); NULL: that
 *	function, no pin
 * @arg: passed to @fn
 * @done: receives the number of entries made resident, the first ones
 *
 * Every listed buffer is locked with drm_exec while the entries are made
 * resident in list order, so TTM never evicts one of them to make room
 * for another: when the call succeeds, all of them are resident. An entry
 * that finds no room runs again holding the validation lock exclusive
 * (struct vseg_validation), from the first entry without @fn (the ones
 * before may have been evicted meanwhile), from itself with @fn (the
 * ones before are pinned).
 *
 * Return: 0; -ENOSPC if the entry at @done found no room, even after
 * evicting every buffer it could (none of the list); or another negative
 * error code.
 */
int vseg_bo_make_resident_list(struct vseg_bo **bos, u32 n,
			       int (*fn)(struct vseg_bo *vbo, void *arg,
					 unsigned int *place),
			       void *arg, u32 *done)
{
	struct drm_gem_object **objs;
	struct vseg_validation val;
	unsigned int place = 0;
	struct drm_exec exec;
	u32 i, m = 0;
	int err;

	*done = 0;
	if (!n)
		return 0;
	objs = kvmalloc_array(n, sizeof(*objs), GFP_KERNEL_ACCOUNT);
	if (!objs)
		return -ENOMEM;
	/* Sorted, duplicates are neighbours: each buffer is locked once. */
	for (i = 0; i < n; i++)
		objs[i] = &bos[i]->tbo.base;
	sort(objs, n, sizeof(*objs), obj_cmp, NULL);
	for (i = 0; i < n; i++)
		if (!m || objs[m - 1] != objs[i])
			objs[m++] = objs[i];

	vseg_validation_init(&val, bo_vdev(bos[0]));
	for (;;) {
		err = vseg_validation_begin(&val);
		if (err)
			break;
		drm_exec_init(&exec, DRM_EXEC_INTERRUPTIBLE_WAIT |
			      DRM_EXEC_IGNORE_DUPLICATES, m);
		drm_exec_until_all_locked(&exec) {
			err = 0;
			for (i = 0; i < m && !err; i++) {
				err = drm_exec_lock_obj(&exec, objs[i]);
				drm_exec_retry_on_contention(&exec);
			}
			if (err)
				break;
			err = resident_entries(bos, n, fn, arg, done, &place);
		}
		drm_exec_fini(&exec);
		vseg_validation_end(&val);
		if (vseg_validation_retry(&val, err)) {
			if (!fn)
				*done = 0;
			place = 0;
			continue;
		}
		if (err == VSEG_BO_NEXT_PLACE)
			continue;
		if (err != VSEG_BO_WAIT_PLACE)
			break;
		/*
		 * Out of the transaction: once per place, wait for the old
		 * placements of the moves queued so far to be freed (their
		 * room may be what the place lacked), then try it again.
		 */
		wait_frees(bo_vdev(bos[*done]));
		place |= VSEG_BO_PLACE_WAITED;
	}
	kvfree(objs);
	if (err == VSEG_BO_STAYED)
		return 0;
	return err == -ENOBUFS ? -ENOSPC : err;
}

/*
 * Drop the content of a buffer whose pages are system pages (in system
 * memory or the aperture): its GART entries go first, then TTM drops the
 * pages and the placement (an empty placement list); the buffer is
 * recreated, empty, in system memory.
 */
static int discard_pages(struct vseg_bo *vbo, struct ttm_operation_ctx *ctx)
{
	struct vseg_device *vdev = bo_vdev(vbo);
	struct ttm_buffer_object *tbo = &vbo->tbo;
	struct ttm_placement none = {};
	int err;

	err = ttm_bo_wait_ctx(tbo, ctx);
	if (err)
		return err;
	ttm_bo_unmap_virtual(tbo);
	vseg_host_aperture_drop(vbo);
	/* Its page-table entries go before its pages can. */
	vseg_pt_bo_unreachable(vdev, &tbo->base, vseg_gem_gpuva_lock(&tbo->base),
			       &vbo->pt);
	vseg_aperture_unbind(&vdev->aperture, tbo->resource);
	vseg_count(vdev, tbo->resource, VSEG_PAGING_DISCARDS);
	vseg_placement_set(&none, NULL, 0);
	err = ttm_bo_validate(tbo, &none, ctx);
	if (err)
		return err;
	/* Nowhere now, until its next validate. */
	vseg_bo_update_state(vbo, tbo->resource, false);
	return 0;
}

/* To system memory; with @discard, without the content. */
static int evict_to_system(struct vseg_bo *vbo, bool discard)
{
	struct ttm_operation_ctx ctx = { .interruptible = true };
	struct ttm_place sys = { .mem_type = TTM_PL_SYSTEM };
	struct ttm_placement placement = {};
	struct ttm_resource *res = vbo->tbo.resource;
	int err;

	/* The content of an imported buffer is the exporter's to drop. */
	if (vseg_bo_is_imported(vbo))
		discard = false;
	if (discard && (res->mem_type == TTM_PL_SYSTEM ||
			res->mem_type == TTM_PL_TT)) {
		err = discard_pages(vbo, &ctx);
		if (err)
			return err;
		discard = false;
	}
	vseg_placement_set(&placement, &sys, 1);
	vbo->discard = discard;
	err = ttm_bo_validate(&vbo->tbo, &placement, &ctx);
	vbo->discard = false;
	return err;
}

/**
 * vseg_bo_evict() - move a buffer to system memory (D3DKMTEvict)
 * @vbo: the buffer
 * @unpin: drop one pin first; while the buffer keeps other user pins (to
 *	be dropped by later entries of the same EVICT) it is not moved yet
 * @discard: drop the content instead of transferring it: the buffer reads
 *	zero afterwards (WDDM's discard)
 * @unpinned: with @unpin: set when the pin was dropped (the move may still
 *	fail after that)
 * @why: VSEG_MOVE_RESIDENCY or VSEG_MOVE_POWER
 *
 * Return: 0, -EBUSY if it stays pinned, -EINVAL to unpin a buffer that is
 * not pinned, or another negative error code.
 */
int vseg_bo_evict(struct vseg_bo *vbo, bool unpin, bool discard,
		  bool *unpinned, enum vseg_move_reason why)
{
	u32 from;
	int err;

	err = ttm_bo_reserve(&vbo->tbo, true, false, NULL);
	if (err)
		return err;
	if (unpin) {
		if (!vbo->user_pins) {
			err = -EINVAL;
			goto out;
		}
		vbo->user_pins--;
		ttm_bo_unpin(&vbo->tbo);
		*unpinned = true;
		/* More pins to drop (later entries of the same list). */
		if (vbo->tbo.pin_count && vbo->user_pins)
			goto out;
	}
	/* Pinned, or protected where it may not leave its segment. */
	if (vbo->tbo.pin_count ||
	    !vseg_vpr_evictable(bo_vdev(vbo), vseg_bo_is_protected(vbo),
				vbo->tbo.resource)) {
		err = -EBUSY;
		goto out;
	}
	from = vbo->accounted_seg;
	vbo->move_reason = why;
	err = evict_to_system(vbo, discard);
	/* An eviction, not a mere move: it counts against @from. */
	if (!err && from && from != VSEG_BO_NOWHERE &&
	    vbo->accounted_seg != from)
		set_evicted_from(vbo, from);
out:
	ttm_bo_unreserve(&vbo->tbo);
	return err;
}

/**
 * vseg_bo_unpin_locked() - drop one pin of vseg_bo_make_resident_locked()
 * @vbo: the buffer, reserved
 *
 * The buffer stays where it is.
 */
void vseg_bo_unpin_locked(struct vseg_bo *vbo)
{
	dma_resv_assert_held(vbo->tbo.base.resv);
	if (WARN_ON(!vbo->user_pins))
		return;
	vbo->user_pins--;
	ttm_bo_unpin(&vbo->tbo);
}

/**
 * vseg_bo_unpin() - drop pins taken by vseg_bo_make_resident_locked()
 * @vbo: the buffer
 * @count: how many
 *
 * The buffer stays where it is. Uninterruptible: pins are always dropped.
 */
void vseg_bo_unpin(struct vseg_bo *vbo, unsigned int count)
{
	ttm_bo_reserve(&vbo->tbo, false, false, NULL);
	while (count-- && vbo->user_pins) {
		vbo->user_pins--;
		ttm_bo_unpin(&vbo->tbo);
	}
	ttm_bo_unreserve(&vbo->tbo);
}

/* Whether one of @n places is in memory type @mem_type. */
static bool places_have(const struct ttm_place *places, unsigned int n,
			u32 mem_type)
{
	unsigned int i;

	for (i = 0; i < n; i++)
		if (places[i].mem_type == mem_type)
			return true;
	return false;
}

/*
 * Would vseg_bo_commit_for_gpu() leave a reserved buffer with a resource
 * as it is? A protected buffer inside a VPR; any other one not evicted to
 * system memory (pinned there is its home) whose pages are present.
 */
static bool committed_for_gpu(struct vseg_bo *vbo)
{
	struct ttm_resource *res = vbo->tbo.resource;

	if (vseg_bo_is_protected(vbo))
		return vseg_vpr_res_inside(bo_vdev(vbo), res);
	if (res->mem_type == TTM_PL_SYSTEM && !vbo->tbo.pin_count)
		return false;
	return (res->mem_type != TTM_PL_TT &&
		res->mem_type != TTM_PL_SYSTEM) ||
	       !vbo->tbo.ttm || ttm_tt_is_populated(vbo->tbo.ttm);
}

/*
 * Make a reserved buffer fit one of @n physical places: a buffer in the
 * aperture without a GART range gets one in place if the aperture is one
 * of them, one already in a place stays, any other moves, evicting others.
 */
static int reachable_at(struct vseg_bo *vbo, struct ttm_place *places,
			unsigned int n, struct ttm_operation_ctx *ctx)
{
	struct vseg_device *vdev = bo_vdev(vbo);
	struct ttm_placement placement = {};
	struct ttm_resource *res = vbo->tbo.resource;
	int err;

	if (!n)
		return -EINVAL;
	/*
	 * Not a protected buffer: its places are VPRs only; nor one the
	 * display is to show from elsewhere (a DirectFlip segment, a
	 * display that does not reach the aperture).
	 */
	if (res_lacks_gart_range(res) && !vseg_bo_is_protected(vbo) &&
	    places_have(places, n, TTM_PL_TT)) {
		err = vseg_aperture_map(&vdev->aperture, res, vbo->tbo.ttm);
		if (!err)
			refresh_state(vbo);
		return err;
	}
	if (res_in_places(&vbo->tbo, places, n))
		return 0;
	/* Pinned elsewhere (attached by another device, say): it stays. */
	if (vbo->tbo.pin_count)
		return -EBUSY;
	vseg_placement_set(&placement, places, n);
	return validate_evicting(&vbo->tbo, &placement, ctx);
}

/**
 * vseg_bo_make_reachable() - make a buffer reachable by physical address
 * @vbo: the buffer, reserved
 * @ctx: TTM operation context
 *
 * Contiguous in a memory segment, or mapped into the aperture (an
 * AccessedPhysically buffer); a buffer in the aperture without a GART
 * range gets one in place, without a move. For the display, see
 * vseg_bo_make_displayable().
 *
 * Return: 0, -ENOSPC, -EINVAL if it has no such place, or another negative
 * error code.
 */
int vseg_bo_make_reachable(struct vseg_bo *vbo, struct ttm_operation_ctx *ctx)
{
	struct ttm_place places[VSEG_BO_MAX_PLACES];
	unsigned int n;

	dma_resv_assert_held(vbo->tbo.base.resv);
	n = vseg_place_physical(&bo_vdev(vbo)->layout, &vbo->params, false,
				places);
	return reachable_at(vbo, places, n, ctx);
}

/**
 * vseg_bo_in_place() - whether a job can use a buffer where it is
 * @vbo: the buffer, reserved
 * @physical: the job addresses it physically (vseg_bo_make_reachable()),
 *	else through GPU virtual addresses (vseg_bo_commit_for_gpu())
 *
 * Return: true if making it reachable so would neither move it nor map
 * it nor evict anything: it is in one of its places already.
 */
bool vseg_bo_in_place(struct vseg_bo *vbo, bool physical)
{
	struct ttm_place places[VSEG_BO_MAX_PLACES];
	unsigned int n;

	dma_resv_assert_held(vbo->tbo.base.resv);
	if (!vbo->tbo.resource)
		return false;
	if (!physical)
		return committed_for_gpu(vbo);
	/* What reachable_at() leaves as it is: no range to map, no move. */
	if (res_lacks_gart_range(vbo->tbo.resource))
		return false;
	n = vseg_place_physical(&bo_vdev(vbo)->layout, &vbo->params, false,
				places);
	return res_in_places(&vbo->tbo, places, n);
}

/**
 * vseg_bo_make_displayable() - put a primary where a flip scans it out
 * @vbo: the primary, reserved
 * @moved: set if it had to move to get there
 * @ctx: TTM operation context
 *
 * Where vseg_place_display() says: in a DirectFlip segment if one of its
 * supported segments is one (it stays if it is in one already: the flip
 * scans it out in place; it moves into one otherwise), else wherever the
 * display controller reaches it. Mapped into the aperture there even
 * without AccessedPhysically.
 *
 * Return: 1 if it is in a DirectFlip segment, 0 if it is elsewhere, or
 * -EINVAL if the display never reaches it, -ENOSPC, -EBUSY if it is pinned
 * somewhere else, or another negative error code.
 */
int vseg_bo_make_displayable(struct vseg_bo *vbo, bool *moved,
			     struct ttm_operation_ctx *ctx)
{
	struct ttm_place places[VSEG_BO_MAX_PLACES];
	u64 moves = vbo->state.moves;
	unsigned int n;
	bool direct;
	int err;

	dma_resv_assert_held(vbo->tbo.base.resv);
	n = vseg_place_display(&bo_vdev(vbo)->layout, &vbo->params, places,
			       &direct);
	err = reachable_at(vbo, places, n, ctx);
	if (err)
		return err;
	*moved = vbo->state.moves != moves;
	return direct;
}

/*
 * A protected buffer the GPU is about to use, reserved, outside every VPR
 * (committed_for_gpu() said so): moved back into one of its places (each a
 * VPR), decrypted on the way; never committed to the aperture.
 */
static int protected_home(struct vseg_bo *vbo, struct ttm_operation_ctx *ctx)
{
	struct vseg_device *vdev = bo_vdev(vbo);
	struct ttm_place places[VSEG_BO_MAX_PLACES];
	struct ttm_placement placement = {};
	unsigned int n;

	if (vbo->tbo.pin_count)
		return -EBUSY;
	n = vseg_place_home(&vdev->layout, &vbo->params, VSEG_PLACE_RESIDENT,
			    places);
	if (!n)
		return -EINVAL;
	vseg_placement_set(&placement, places, n);
	return validate_evicting(&vbo->tbo, &placement, ctx);
}

/**
 * vseg_bo_commit_for_gpu() - make a buffer usable by a virtually addressed
 * engine
 * @vbo: the buffer, reserved
 * @ctx: TTM operation context
 *
 * A buffer in system memory is committed to the aperture first, charged
 * to its commit limit, as WDDM's memory manager does when the GPU uses
 * system memory (it gets a GART range only if it is AccessedPhysically:
 * the AccessedPhysically table); one that does not support system memory,
 * only evicted there, goes back into the segments it supports instead. One
 * in a memory segment or the aperture, or pinned in system memory, stays
 * where it is. Its pages are present afterwards. A protected buffer
 * evicted to system memory goes back into a video protected region.
 *
 * Return: 0, -ENOSPC when the aperture's commit limit (or, for a protected
 * buffer, the VPR) leaves no room even after eviction, or another negative
 * error code.
 */
int vseg_bo_commit_for_gpu(struct vseg_bo *vbo, struct ttm_operation_ctx *ctx)
{
	struct vseg_device *vdev = bo_vdev(vbo);
	struct ttm_place tt = { .mem_type = TTM_PL_TT };
	struct ttm_placement placement = {};

	dma_resv_assert_held(vbo->tbo.base.resv);
	if (committed_for_gpu(vbo))
		return 0;
	/* Protected: back into a VPR, never the aperture's system pages. */
	if (vseg_bo_is_protected(vbo))
		return protected_home(vbo, ctx);
	if (vbo->params.flags & VSEG_BO_ACCESSED_PHYSICALLY)
		tt.lpfn = vseg_seg(vdev, vdev->layout.aperture_id)->desc->size >>
			  PAGE_SHIFT;
	/* Pinned in system memory (its only home): used where it is. */
	if (vbo->tbo.resource->mem_type == TTM_PL_SYSTEM &&
	    !vbo->tbo.pin_count) {
		struct ttm_place places[VSEG_BO_MAX_PLACES];
		unsigned int n;

		/*
		 * Not supported in system memory, only evicted there: back
		 * into the segments it supports, not committed to the
		 * aperture.
		 */
		if (!(vbo->params.supported & BIT(0))) {
			n = vseg_place_home(&vdev->layout, &vbo->params,
					    VSEG_PLACE_RESIDENT, places);
			if (!n)
				return -EINVAL;
			vseg_placement_set(&placement, places, n);
			return validate_evicting(&vbo->tbo, &placement, ctx);
		}
		vseg_placement_set(&placement, &tt, 1);
		return validate_evicting(&vbo->tbo, &placement, ctx);
	}
	/* Committed to the aperture or pinned in system memory, unpopulated. */
	return vseg_tt_populate(&vbo->tbo, ctx);
}

/**
 * vseg_bo_unmap_aperture() - take a buffer's aperture range away, in place
 * @vbo: the buffer, reserved; it stays committed to the aperture
 */
void vseg_bo_unmap_aperture(struct vseg_bo *vbo)
{
	struct ttm_resource *res = vbo->tbo.resource;

	dma_resv_assert_held(vbo->tbo.base.resv);
	if (!vseg_aperture_res_mapped(res))
		return;
	/*
	 * Jobs that reach it through the range, and the move that mapped it,
	 * finish first: the range may be someone else's right after.
	 */
	dma_resv_wait_timeout(vbo->tbo.base.resv, DMA_RESV_USAGE_BOOKKEEP,
			      false, MAX_SCHEDULE_TIMEOUT);
	vseg_aperture_unmap(&bo_vdev(vbo)->aperture, res);
	refresh_state(vbo);
}

/**
 * vseg_bo_phys_addr() - the physical reference of a reachable buffer
 * @vbo: the buffer, reserved, after vseg_bo_make_reachable()
 * @seg: receives the segment id
 * @offset: receives the offset of the buffer's first byte
 *
 * Return: false if the buffer is not physically reachable where it is.
 */
bool vseg_bo_phys_addr(struct vseg_bo *vbo, u32 *seg, u64 *offset)
{
	struct vseg_device *vdev = bo_vdev(vbo);
	struct ttm_resource *res = vbo->tbo.resource;
	u32 id;

	dma_resv_assert_held(vbo->tbo.base.resv);
	if (!res)
		return false;
	id = vseg_mem_type_to_seg(vdev, res->mem_type);
	if (vseg_seg_is_memory(vdev, id)) {
		if (!vseg_vram_res_contiguous(res))
			return false;
	} else if (!vseg_aperture_res_mapped(res)) {
		return false;
	}
	*seg = id;
	*offset = (u64)res->start << PAGE_SHIFT;
	return true;
}

/**
 * vseg_bo_pin_shared() - pin a buffer where another device can reach it
 * @vbo: the buffer, reserved
 *
 * For a dma-buf attachment: a buffer in a memory segment moves to system
 * memory first (one in system memory or the aperture stays, its pages being
 * system pages already); its pages are present and its moves done when
 * this returns, and it does not move again until the last such pin goes.
 *
 * Return: 0; -EBUSY if it is pinned in a memory segment (MAKE_RESIDENT's
 * pin, the display) or offered; -ENOSPC at the pin limit; -ENOMEM, -EINTR
 * or -ERESTARTSYS.
 */
int vseg_bo_pin_shared(struct vseg_bo *vbo)
{
	struct ttm_operation_ctx ctx = { .interruptible = true };
	struct ttm_place sys = { .mem_type = TTM_PL_SYSTEM };
	struct ttm_buffer_object *tbo = &vbo->tbo;
	struct ttm_placement placement = {};
	long wait;
	int err;

	dma_resv_assert_held(tbo->base.resv);
	/* Offered: unused until RECLAIM. */
	if (vbo->offered)
		return -EBUSY;
	if (tbo->pin_count >= VSEG_BO_MAX_PINS)
		return -ENOSPC;
	if (!tbo->resource || (tbo->resource->mem_type != TTM_PL_SYSTEM &&
			       tbo->resource->mem_type != TTM_PL_TT)) {
		if (tbo->pin_count)
			return -EBUSY;
		vseg_placement_set(&placement, &sys, 1);
		err = ttm_bo_validate(tbo, &placement, &ctx);
		if (err)
			return err;
	}
	err = vseg_tt_populate(tbo, &ctx);
	if (err)
		return err;
	/* The pages the other device gets hold the content already. */
	wait = dma_resv_wait_timeout(tbo->base.resv, DMA_RESV_USAGE_KERNEL,
				     true, MAX_SCHEDULE_TIMEOUT);
	if (wait < 0)
		return wait;
	ttm_bo_pin(tbo);
	/* Pinned in system memory: its mappings reach its pages now. */
	if (!vbo->shared_pins++ && tbo->resource->mem_type == TTM_PL_SYSTEM)
		vseg_pt_bo_set_system(bo_vdev(vbo), &tbo->base,
				      vseg_gem_gpuva_lock(&tbo->base), &vbo->pt,
				      true);
	return 0;
}

/**
 * vseg_bo_unpin_shared() - drop a pin of vseg_bo_pin_shared()
 * @vbo: the buffer, reserved
 */
void vseg_bo_unpin_shared(struct vseg_bo *vbo)
{
	dma_resv_assert_held(vbo->tbo.base.resv);
	if (WARN_ON(!vbo->shared_pins))
		return;
	vbo->shared_pins--;
	/* Its pages may move or be swapped out again: entries invalid. */
	if (!vbo->shared_pins && vbo->pt.system)
		vseg_pt_bo_set_system(bo_vdev(vbo), &vbo->tbo.base,
				      vseg_gem_gpuva_lock(&vbo->tbo.base),
				      &vbo->pt, false);
	ttm_bo_unpin(&vbo->tbo);
}
