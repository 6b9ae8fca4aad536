// SPDX-License-Identifier: GPL-2.0-only
/*
 * Copyright (c) 2026 The vseg authors
 *
 * GPU virtual address spaces, on DRM's VA manager (drm_gpuvm): each open
 * file has one. DRM_IOCTL_VSEG_VM_BIND maps a range of a buffer at a GPU
 * virtual address, replacing whatever was mapped there; VM_UNBIND unmaps
 * a range, splitting the mappings it cuts (drm_gpuvm_sm_map() and
 * drm_gpuvm_sm_unmap() compute the splits). A bind with input syncobjs is
 * a job of the bind queue (vseg_sched.c) that waits for them; binds of a
 * file are applied in the order they were made, and the output syncobjs
 * signal once a bind is applied. A bind without inputs, with none queued
 * before it, is applied at once.
 *
 * Binds are applied in the fence signalling path: everything they need
 * (the mappings a split creates, the buffer's &drm_gpuvm_bo) is allocated
 * by the ioctl, the tree is changed under @tree_lock, which is never held
 * while allocating or waiting, and what a bind takes out of the tree is
 * freed when its job is.
 *
 * Each address space has GPU page tables (vseg_pt.c), which the render
 * engine's MMU walks: a bind writes its mapping's entries as it is
 * applied, an unbind invalidates them and flushes the TLB before the
 * buffer's reference goes, and every move of a bound buffer rewrites them
 * (vseg_ttm.c). A job's buffers (vseg_vm_collect_bos() found them at
 * submission: those mapped in the ranges its commands use, now or by a
 * bind still queued) are made resident and fenced for it; an address
 * with no valid entry faults the job.
 *
 * Buffers created VM-private share the address space's reservation object
 * (drm_gpuvm's resv object): locking one locks all of them.
 */

#include <linux/bsearch.h>
#include <linux/dma-fence.h>
#include <linux/dma-resv.h>
#include <linux/slab.h>
#include <linux/sort.h>
#include <drm/drm_file.h>
#include <drm/drm_gem.h>
#include <drm/ttm/ttm_bo.h>
#include <uapi/drm/vseg_drm.h>

#include "vseg_bo.h"
#include "vseg_compat.h"
#include "vseg_device_types.h"
#include "vseg_file_types.h"
#include "vseg_limits.h"
#include "vseg_pt.h"
#include "vseg_sched.h"
#include "vseg_syncs.h"
#include "vseg_vm.h"

/* Mappings one bind may add to the tree, at most: a MAP that splits one. */
#define VSEG_VM_OP_PREALLOC	3

/**
 * struct vseg_vm_op - one bind, from the ioctl to its end
 * @base: its job on the bind queue, when it waits there.
 * @vm: the address space, a reference.
 * @map: VM_BIND (else VM_UNBIND).
 * @readonly: VM_BIND with %DRM_VSEG_VM_BIND_READONLY.
 * @addr: first GPU virtual address.
 * @range: bytes.
 * @offset: VM_BIND: the buffer's first byte mapped.
 * @obj: VM_BIND: the buffer, a reference.
 * @vm_bo: VM_BIND: the buffer's &drm_gpuvm_bo in @vm, a reference.
 * @va: the mappings the bind may create, allocated beforehand.
 * @used: entries of @va used.
 * @reserve: mappings reserved in &vseg_vm.reserved for it, 0 once applied.
 * @pending: in &vseg_vm.pending while queued.
 * @removed: the mappings it took out of the tree.
 */
struct vseg_vm_op {
	struct vseg_job base;
	struct vseg_vm *vm;
	bool map;
	bool readonly;
	u64 addr;
	u64 range;
	u64 offset;
	struct drm_gem_object *obj;
	struct drm_gpuvm_bo *vm_bo;
	struct vseg_va *va[VSEG_VM_OP_PREALLOC];
	unsigned int used;
	unsigned int reserve;
	struct list_head pending;
	struct list_head removed;
};

static struct vseg_va *op_va(struct vseg_vm_op *op)
{
	/* Allocated for the worst case: never runs out. */
	return op->va[op->used++];
}

/* A mapping enters the tree; the tree takes a reference to its buffer. */
static int vm_step_map(struct drm_gpuva_op *o, void *priv)
{
	struct vseg_vm_op *op = priv;
	struct vseg_vm *vm = op->vm;
	struct vseg_va *va = op_va(op);
	struct mutex *lock = vseg_gem_gpuva_lock(o->map.gem.obj);

	drm_gpuva_map(&vm->base, &va->base, &o->map);
	va->base.flags |= op->readonly ? VSEG_VA_READONLY : 0;
	va->pt = vm->pt;
	va->tag = vseg_pt_new_tag(vm->pt);
	mutex_lock(lock);
	drm_gpuva_link(&va->base, op->vm_bo);
	/* Its entries, where the buffer is now (moves rewrite them). */
	vseg_pt_map_va(va, &gem_to_vseg_bo(o->map.gem.obj)->pt);
	mutex_unlock(lock);
	vm->mappings++;
	vm->reserved++;
	return 0;
}

/*
 * A mapping leaves the tree (@prev and @next, the parts of it a split
 * keeps, take its place). It stays linked to a reference of its
 * &drm_gpuvm_bo, so that neither that nor the buffer can be freed here.
 */
static void vm_take_out(struct vseg_vm_op *op, struct drm_gpuva *old,
			struct drm_gpuva_op_remap *remap)
{
	struct vseg_va *ov = to_vseg_va(old), *prev = NULL, *next = NULL;
	struct drm_gpuvm_bo *vm_bo = old->vm_bo;
	struct mutex *lock = vseg_gem_gpuva_lock(old->gem.obj);
	u64 start = old->va.addr, end = old->va.addr + old->va.range;
	struct vseg_vm *vm = op->vm;

	if (remap && remap->prev)
		prev = op_va(op);
	if (remap && remap->next)
		next = op_va(op);
	mutex_lock(lock);
	ov->hold = drm_gpuvm_bo_get(vm_bo);
	if (remap) {
		drm_gpuva_remap(prev ? &prev->base : NULL,
				next ? &next->base : NULL, remap);
	} else {
		drm_gpuva_remove(old);
	}
	if (prev) {
		prev->base.flags |= old->flags & VSEG_VA_READONLY;
		prev->pt = ov->pt;
		prev->tag = ov->tag;
		start = prev->base.va.addr + prev->base.va.range;
		drm_gpuva_link(&prev->base, vm_bo);
		vm->mappings++;
		vm->reserved++;
	}
	if (next) {
		next->base.flags |= old->flags & VSEG_VA_READONLY;
		next->pt = ov->pt;
		next->tag = ov->tag;
		end = next->base.va.addr;
		drm_gpuva_link(&next->base, vm_bo);
		vm->mappings++;
		vm->reserved++;
	}
	drm_gpuva_unlink(old);
	mutex_unlock(lock);
	/*
	 * What is no longer mapped: invalid, untagged; the bind flushes the
	 * TLB before the buffer's reference can go.
	 */
	vseg_pt_clear(vm->pt, start, end - start);
	list_add_tail(&ov->link, &op->removed);
	vm->mappings--;
	vm->reserved--;
}

static int vm_step_remap(struct drm_gpuva_op *o, void *priv)
{
	vm_take_out(priv, o->remap.unmap->va, &o->remap);
	return 0;
}

static int vm_step_unmap(struct drm_gpuva_op *o, void *priv)
{
	vm_take_out(priv, o->unmap.va, NULL);
	return 0;
}

static void vm_free(struct drm_gpuvm *gpuvm)
{
	struct vseg_vm *vm = to_vseg_vm(gpuvm);

	if (vm->limits)
		vseg_limits_client_put(vm->limits);
	vseg_pt_destroy(vm->pt);
	mutex_destroy(&vm->tree_lock);
	mutex_destroy(&vm->bind_lock);
	kfree(vm);
}

static const struct drm_gpuvm_ops vseg_gpuvm_ops = {
	.vm_free = vm_free,
	.sm_step_map = vm_step_map,
	.sm_step_remap = vm_step_remap,
	.sm_step_unmap = vm_step_unmap,
};

/**
 * vseg_vm_create() - a new, empty address space
 * @vdev: the device
 * @limits: the creating file's limits client: its mappings are charged
 *	there (the address space takes a reference)
 *
 * Return: the address space (one reference), or an ERR_PTR.
 */
struct vseg_vm *vseg_vm_create(struct vseg_device *vdev,
			       struct vseg_limits_client *limits)
{
	struct drm_gem_object *r_obj;
	struct vseg_vm *vm;
	int err;

	vm = kzalloc(sizeof(*vm), GFP_KERNEL_ACCOUNT);
	if (!vm)
		return ERR_PTR(-ENOMEM);
	r_obj = drm_gpuvm_resv_object_alloc(&vdev->drm);
	if (!r_obj) {
		kfree(vm);
		return ERR_PTR(-ENOMEM);
	}
	vm->vdev = vdev;
	vm->limits = vseg_limits_client_get(limits);
	mutex_init(&vm->bind_lock);
	mutex_init(&vm->tree_lock);
	INIT_LIST_HEAD(&vm->pending);
	vm->pt = vseg_pt_create(vdev, limits, r_obj);
	err = vm->pt ? vseg_sched_entity_init(vdev, &vm->entity,
					      VSEG_QUEUE_BIND,
					      DRM_SCHED_PRIORITY_NORMAL) :
		       -ENOMEM;
	if (err) {
		drm_gem_object_put(r_obj);
		vm_free(&vm->base);
		return ERR_PTR(err);
	}
	/* The first page stays unmapped: address 0 is never valid. */
	drm_gpuvm_init(&vm->base, "vseg", VSEG_GPUVM_FLAGS, &vdev->drm, r_obj,
		       0, VSEG_VM_END, 0, VSEG_VM_ALIGN, &vseg_gpuvm_ops);
	drm_gem_object_put(r_obj);
	return vm;
}

/**
 * vseg_vm_get() - take a reference
 * @vm: the address space
 *
 * Return: @vm.
 */
struct vseg_vm *vseg_vm_get(struct vseg_vm *vm)
{
	drm_gpuvm_get(&vm->base);
	return vm;
}

/**
 * vseg_vm_put() - drop a reference
 * @vm: the address space, or NULL
 */
void vseg_vm_put(struct vseg_vm *vm)
{
	if (vm)
		drm_gpuvm_put(&vm->base);
}

/**
 * vseg_vm_resv_obj() - the object whose reservation VM-private buffers share
 * @vm: the address space
 *
 * Return: drm_gpuvm's resv object (no new reference).
 */
struct drm_gem_object *vseg_vm_resv_obj(struct vseg_vm *vm)
{
	return vm->base.r_obj;
}

/* Free a mapping taken out of the tree: not in the signalling path. */
static void va_free(struct vseg_va *va)
{
	struct drm_gem_object *obj = va->base.gem.obj;
	struct mutex *lock = vseg_gem_gpuva_lock(obj);

	/* The last reference of @hold may be the buffer's last one. */
	drm_gem_object_get(obj);
	mutex_lock(lock);
	drm_gpuvm_bo_put(va->hold);
	mutex_unlock(lock);
	drm_gem_object_put(obj);
	kfree(va);
}

/**
 * vseg_vm_close() - the file closes: unmap everything, drop its reference
 * @vm: the address space
 *
 * Binds still queued are cancelled first (their fences signal -ESRCH once
 * their inputs have). Jobs still running keep the address space until
 * they end; they fault on what was mapped.
 */
void vseg_vm_close(struct vseg_vm *vm)
{
	struct drm_gpuva *va, *next;
	struct vseg_vm_op op = { .vm = vm };
	struct vseg_va *v, *tmp;
	unsigned int before;

	vseg_sched_entity_fini(&vm->entity);
	INIT_LIST_HEAD(&op.removed);
	mutex_lock(&vm->tree_lock);
	before = vm->reserved;
	drm_gpuvm_for_each_va_safe(va, next, &vm->base)
		if (va->gem.obj)
			vm_take_out(&op, va, NULL);
	vseg_limits_uncharge(vm->limits, VSEG_LIMIT_VM_MAPPINGS, 0,
			     before - vm->reserved);
	mutex_unlock(&vm->tree_lock);
	/* No entry reaches the buffers once their references go. */
	vseg_pt_flush(vm->pt);
	list_for_each_entry_safe(v, tmp, &op.removed, link)
		va_free(v);
	vseg_vm_put(vm);
}

/**
 * vseg_vm_restore_tables() - the page tables back in place for a job
 * @vm: the address space, its reservation held (the job's drm_exec
 *	transaction), the job's fence not yet on it
 *
 * Brings the page-table pages TTM evicted back into the aperture
 * (vseg_pt_restore()) and, when leaves came back, rewrites every
 * mapping's entries where its buffer is now, then flushes the TLB.
 *
 * Return: 0, -ENOSPC when the aperture has no room for the tables,
 * -ENOMEM or -ERESTARTSYS.
 */
int vseg_vm_restore_tables(struct vseg_vm *vm)
{
	struct ttm_operation_ctx ctx = { .interruptible = true };
	struct drm_gpuva *va;
	struct mutex *lock; /* each buffer's GPU VA lock */
	int ret;

	ret = vseg_pt_restore(vm->pt, &ctx);
	if (ret <= 0)
		return ret;
	mutex_lock(&vm->tree_lock);
	drm_gpuvm_for_each_va(va, &vm->base) {
		if (!va->gem.obj)
			continue;
		lock = vseg_gem_gpuva_lock(va->gem.obj);
		mutex_lock(lock);
		vseg_pt_map_va(to_vseg_va(va), &gem_to_vseg_bo(va->gem.obj)->pt);
		mutex_unlock(lock);
	}
	mutex_unlock(&vm->tree_lock);
	vseg_pt_flush(vm->pt);
	return 0;
}

/**
 * vseg_vm_mappings() - mappings in an address space now
 * @vm: the address space
 *
 * Return: their number.
 */
unsigned int vseg_vm_mappings(struct vseg_vm *vm)
{
	unsigned int n;

	mutex_lock(&vm->tree_lock);
	n = vm->mappings;
	mutex_unlock(&vm->tree_lock);
	return n;
}

static int range_cmp(const void *a, const void *b)
{
	const struct vseg_va_range *x = a, *y = b;

	return x->start < y->start ? -1 : x->start > y->start;
}

/*
 * Sort the ranges, clip them to the address space and merge those that
 * overlap, so that walking them visits each mapping at most twice:
 * O(r log r + m), whatever the ranges.
 */
static unsigned int merge_ranges(struct vseg_va_range *r, unsigned int n)
{
	unsigned int i, k = 0;
	u64 end;

	sort(r, n, sizeof(*r), range_cmp, NULL);
	for (i = 0; i < n; i++) {
		if (r[i].start >= VSEG_VM_END)
			continue;
		end = r[i].start + max_t(u64, r[i].len, 1);
		if (end < r[i].start || end > VSEG_VM_END)
			end = VSEG_VM_END;	/* as far as it goes */
		if (k && r[i].start <= r[k - 1].start + r[k - 1].len) {
			r[k - 1].len = max(r[k - 1].len, end - r[k - 1].start);
			continue;
		}
		r[k].start = r[i].start;
		r[k++].len = end - r[i].start;
	}
	return k;
}

static bool overlaps(u64 a, u64 alen, u64 b, u64 blen)
{
	return a < b + blen && b < a + alen;
}

/*
 * The buffers mapped in the ranges, in the tree or by a queued bind:
 * their number, and the first @max of them in @out (no reference).
 */
static unsigned int walk_bos(struct vseg_vm *vm, const struct vseg_va_range *r,
			     unsigned int n, struct drm_gem_object **out,
			     unsigned int max)
{
	struct vseg_vm_op *op;
	struct drm_gpuva *va;
	unsigned int i, count = 0;

	lockdep_assert_held(&vm->tree_lock);
	for (i = 0; i < n; i++) {
		drm_gpuvm_for_each_va_range(va, &vm->base, r[i].start,
					    r[i].start + r[i].len) {
			if (!va->gem.obj)
				continue;
			if (count < max)
				out[count] = va->gem.obj;
			count++;
		}
		list_for_each_entry(op, &vm->pending, pending) {
			if (!op->map ||
			    !overlaps(op->addr, op->range, r[i].start, r[i].len))
				continue;
			if (count < max)
				out[count] = op->obj;
			count++;
		}
	}
	return count;
}

static int ptr_cmp(const void *a, const void *b)
{
	uintptr_t x = (uintptr_t)*(void * const *)a;
	uintptr_t y = (uintptr_t)*(void * const *)b;

	return x < y ? -1 : x > y;
}

/**
 * vseg_vm_collect_bos() - the buffers a job's ranges may reach
 * @vm: the address space
 * @ranges: the GPU virtual address ranges the job's commands reach;
 *	sorted and merged in place
 * @n: entries in @ranges
 * @bos: receives a kvmalloc'ed array of the buffers, each once, sorted
 *	by address, each with a reference
 * @count: receives their number
 *
 * The buffers mapped there now and those a bind still queued will map
 * there: a job reaches only these (vseg_vm_resolve()). O(r log r + m log
 * m) for r ranges and m mappings.
 *
 * Return: 0 or -ENOMEM.
 */
int vseg_vm_collect_bos(struct vseg_vm *vm, struct vseg_va_range *ranges,
			unsigned int n, struct vseg_bo ***bos,
			unsigned int *count)
{
	struct drm_gem_object **objs;
	unsigned int i, k, c, max;

	n = merge_ranges(ranges, n);
	mutex_lock(&vm->tree_lock);
	max = walk_bos(vm, ranges, n, NULL, 0);
	mutex_unlock(&vm->tree_lock);
	for (;;) {
		/* Not allocated under the tree lock: counted, then filled. */
		objs = kvcalloc(max_t(unsigned int, max, 1), sizeof(*objs),
				GFP_KERNEL_ACCOUNT);
		if (!objs)
			return -ENOMEM;
		mutex_lock(&vm->tree_lock);
		c = walk_bos(vm, ranges, n, objs, max);
		if (c <= max)
			for (i = 0; i < c; i++)
				drm_gem_object_get(objs[i]);
		mutex_unlock(&vm->tree_lock);
		if (c <= max)
			break;
		kvfree(objs);
		max = c;	/* grew meanwhile */
	}
	sort(objs, c, sizeof(*objs), ptr_cmp, NULL);
	for (i = 0, k = 0; i < c; i++) {
		if (k && objs[k - 1] == objs[i]) {
			drm_gem_object_put(objs[i]);
			continue;
		}
		objs[k++] = objs[i];
	}
	/* A vseg_bo's GEM object is its first member's: same addresses. */
	for (i = 0; i < k; i++)
		((struct vseg_bo **)objs)[i] = gem_to_vseg_bo(objs[i]);
	*bos = (struct vseg_bo **)objs;
	*count = k;
	return 0;
}

/**
 * vseg_vm_reaches() - does a range reach a buffer of some kind
 * @vm: the address space
 * @va: first address of the range
 * @len: its bytes (0 counts as 1; a range past the end stops there)
 * @match: tells a buffer of the kind
 * @arg: passed to @match
 *
 * Called by the render engine, in the fence signalling path.
 *
 * Return: true if a buffer mapped in the range now matches.
 */
bool vseg_vm_reaches(struct vseg_vm *vm, u64 va, u64 len,
		     bool (*match)(struct drm_gem_object *obj, void *arg),
		     void *arg)
{
	u64 end = va + max_t(u64, len, 1);
	struct drm_gpuva *gva;
	bool found = false;

	if (va >= VSEG_VM_END)
		return false;
	if (end < va || end > VSEG_VM_END)
		end = VSEG_VM_END;
	mutex_lock(&vm->tree_lock);
	drm_gpuvm_for_each_va_range(gva, &vm->base, va, end) {
		if (gva->gem.obj && match(gva->gem.obj, arg)) {
			found = true;
			break;
		}
	}
	mutex_unlock(&vm->tree_lock);
	return found;
}

/* Apply a bind: the tree changes, the reservation becomes real. */
static void op_apply_locked(struct vseg_vm_op *op)
{
	struct vseg_vm *vm = op->vm;
	int grew = -(int)vm->reserved;

	lockdep_assert_held(&vm->tree_lock);
	/* The steps cannot fail: everything was allocated beforehand. */
	if (op->map)
		vseg_drm_gpuvm_sm_map(&vm->base, op, op->addr, op->range,
				      op->obj, op->offset);
	else
		drm_gpuvm_sm_unmap(&vm->base, op, op->addr, op->range);
	grew += vm->reserved;
	/* The entries it invalidated, or moved, are no longer used. */
	vseg_pt_flush(vm->pt);
	list_del_init(&op->pending);
	/* What was reserved and not used, and what the bind unmapped. */
	vm->reserved -= op->reserve;
	vseg_limits_uncharge(vm->limits, VSEG_LIMIT_VM_MAPPINGS, 0,
			     op->reserve - grew);
	op->reserve = 0;
}

static void op_apply(struct vseg_vm_op *op)
{
	mutex_lock(&op->vm->tree_lock);
	op_apply_locked(op);
	mutex_unlock(&op->vm->tree_lock);
}

static void op_free(struct vseg_vm_op *op)
{
	struct vseg_vm *vm = op->vm;
	struct vseg_va *va, *tmp;
	unsigned int i;

	if (op->reserve || !list_empty(&op->pending)) {
		/* Never applied (cancelled, or failed before it was queued). */
		mutex_lock(&vm->tree_lock);
		list_del_init(&op->pending);
		vm->reserved -= op->reserve;
		vseg_limits_uncharge(vm->limits, VSEG_LIMIT_VM_MAPPINGS, 0,
				     op->reserve);
		mutex_unlock(&vm->tree_lock);
	}
	list_for_each_entry_safe(va, tmp, &op->removed, link)
		va_free(va);
	for (i = op->used; i < VSEG_VM_OP_PREALLOC; i++)
		kfree(op->va[i]);
	if (op->vm_bo) {
		struct mutex *lock = vseg_gem_gpuva_lock(op->obj);

		mutex_lock(lock);
		drm_gpuvm_bo_put(op->vm_bo);
		mutex_unlock(lock);
	}
	if (op->obj)
		drm_gem_object_put(op->obj);
	vseg_vm_put(vm);
	kfree(op);
}

static int op_job_run(struct vseg_job *job)
{
	op_apply(container_of(job, struct vseg_vm_op, base));
	return 0;
}

static void op_job_free(struct vseg_job *job)
{
	op_free(container_of(job, struct vseg_vm_op, base));
}

static const struct vseg_job_ops vm_op_job_ops = {
	.run = op_job_run,
	.free = op_job_free,
};

/* Everything the bind may need when it is applied. */
static int op_prepare(struct vseg_vm_op *op)
{
	struct vseg_vm *vm = op->vm;
	struct drm_gpuvm_bo *vm_bo;
	unsigned int i;

	for (i = 0; i < VSEG_VM_OP_PREALLOC; i++) {
		op->va[i] = kzalloc(sizeof(*op->va[i]), GFP_KERNEL_ACCOUNT);
		if (!op->va[i])
			return -ENOMEM;
	}
	if (!op->map)
		return 0;
	vm_bo = drm_gpuvm_bo_create(&vm->base, op->obj);
	if (!vm_bo)
		return -ENOMEM;
	op->vm_bo = vseg_gpuvm_bo_obtain_prealloc(vm_bo,
						  vseg_gem_gpuva_lock(op->obj));
	return 0;
}

/*
 * Mappings the bind adds to the tree as it is now: its own (a MAP), less
 * those it covers, plus the parts of those it cuts that stay.
 */
static int op_growth(struct vseg_vm_op *op)
{
	u64 end = op->addr + op->range;
	struct drm_gpuva *va;
	int n = op->map ? 1 : 0;

	drm_gpuvm_for_each_va_range(va, &op->vm->base, op->addr, end) {
		n--;
		n += va->va.addr < op->addr;
		n += va->va.addr + va->va.range > end;
	}
	return n;
}

/*
 * Reserve room for the bind in the tree, and apply it now when it waits
 * for nothing: no input syncobjs, no bind queued before it (else it goes
 * on @vm->pending). A bind applied now reserves what it adds; a queued
 * one the worst case, as the tree will be when it is applied: a MAP may
 * split one mapping in two and add its own (+2), an UNMAP split one (+1).
 *
 * Return: 1 if applied, 0 if to be queued, -ENOSPC.
 */
static int op_reserve(struct vseg_vm_op *op, bool wait)
{
	struct vseg_vm *vm = op->vm;
	int need, ret;

	mutex_lock(&vm->tree_lock);
	ret = !wait && list_empty(&vm->pending);
	need = ret ? max(op_growth(op), 0) : op->map ? 2 : 1;
	/* The process's, user's and device's bounds (vseg_limits.c). */
	if (vseg_limits_charge(vm->limits, VSEG_LIMIT_VM_MAPPINGS, 0, need)) {
		ret = -ENOSPC;
		goto out;
	}
	vm->reserved += need;
	op->reserve = need;
	if (ret)
		op_apply_locked(op);
	else
		list_add_tail(&op->pending, &vm->pending);
out:
	mutex_unlock(&vm->tree_lock);
	return ret;
}

/*
 * Apply the bind now, or queue it on the bind queue behind its inputs
 * and the file's earlier binds; @fence receives what signals once it is
 * applied (a reference). Takes @op, also on error.
 */
static int op_submit(struct vseg_vm_op *op, struct drm_file *file,
		     const struct drm_vseg_vm_bind *args,
		     struct dma_fence **fence)
{
	struct vseg_vm *vm = op->vm;
	int err;

	err = op_prepare(op);
	if (!err)
		err = op_reserve(op, args->num_in_syncs);
	if (err < 0)
		goto out_free;
	if (err) {
		*fence = dma_fence_get_stub();
		err = 0;
		goto out_free;
	}
	err = vseg_job_init(&op->base, vm->vdev, &vm_op_job_ops, &vm->entity,
			    VSEG_QUEUE_BIND, vseg_file_client_id(file),
			    file->driver_priv);
	if (err)
		goto out_free;
	err = vseg_syncs_wait_in(&op->base, file, args->in_syncs,
				 args->num_in_syncs, args->sync_size);
	if (err) {
		vseg_job_abandon(&op->base);
		return err;
	}
	*fence = dma_fence_get(vseg_job_arm(&op->base));
	vseg_job_push(&op->base);
	return 0;

out_free:
	op_free(op);
	return err;
}

static struct vseg_bo *lookup_bo(struct drm_file *file, u32 handle)
{
	struct drm_gem_object *gem = drm_gem_object_lookup(file, handle);

	return gem ? gem_to_vseg_bo(gem) : NULL;
}

/* The size of the mapping that starts at @addr, 0 if none does. */
static u64 mapping_at(struct vseg_vm *vm, u64 addr)
{
	struct drm_gpuva *va;
	u64 range = 0;

	if (addr >= VSEG_VM_END)
		return 0;
	mutex_lock(&vm->tree_lock);
	va = drm_gpuva_find_first(&vm->base, addr, 1);
	if (va && va->gem.obj && va->va.addr == addr)
		range = va->va.range;
	mutex_unlock(&vm->tree_lock);
	return range;
}

/* VM_BIND's and VM_UNBIND's checks of the address range. */
static bool va_range_ok(u64 addr, u64 range)
{
	return addr && range && IS_ALIGNED(addr, VSEG_VM_ALIGN) &&
	       IS_ALIGNED(range, VSEG_VM_ALIGN) && addr < VSEG_VM_END &&
	       range <= VSEG_VM_END - addr;
}

static int vm_bind(struct drm_file *file, struct drm_vseg_vm_bind *args,
		   bool map)
{
	struct vseg_file *vf = file->driver_priv;
	struct vseg_vm *vm = vf->vm;
	struct vseg_out_sync *out = NULL;
	struct dma_fence *fence = NULL;
	struct vseg_bo *vbo = NULL;
	struct vseg_vm_op *op;
	u64 range;
	int err;

	if (args->extensions || args->pad ||
	    memchr_inv(args->reserved, 0, sizeof(args->reserved)))
		return -EINVAL;
	if (map ? args->flags & ~DRM_VSEG_VM_BIND_READONLY :
		  args->flags || args->handle || args->offset)
		return -EINVAL;
	/* The shape of the range first: a bad one is -EINVAL, whatever else. */
	if (!IS_ALIGNED(args->gpu_va | args->size | args->offset,
			VSEG_VM_ALIGN))
		return -EINVAL;
	err = vseg_syncs_check(args->num_in_syncs, args->num_out_syncs,
			       args->sync_size);
	if (err)
		return err;
	op = kzalloc(sizeof(*op), GFP_KERNEL_ACCOUNT);
	if (!op)
		return -ENOMEM;
	op->vm = vseg_vm_get(vm);
	op->map = map;
	op->addr = args->gpu_va;
	op->range = args->size;
	INIT_LIST_HEAD(&op->pending);
	INIT_LIST_HEAD(&op->removed);
	if (map) {
		vbo = lookup_bo(file, args->handle);
		if (!vbo) {
			err = -ENOENT;
			goto out_free;
		}
		op->obj = &vbo->tbo.base;
		/* Offered: unused until RECLAIM (a snapshot, see vseg.rst). */
		if (vseg_bo_offered(vbo)) {
			err = -EBUSY;
			goto out_free;
		}
		op->readonly = args->flags & DRM_VSEG_VM_BIND_READONLY;
		op->offset = args->offset;
		/* 0: the rest of the buffer. */
		if (!op->range && op->offset < vbo->tbo.base.size)
			op->range = vbo->tbo.base.size - op->offset;
		/* A VM-private buffer lives in its own address space only. */
		if (!IS_ALIGNED(op->offset, VSEG_VM_ALIGN) ||
		    op->offset >= vbo->tbo.base.size ||
		    op->range > vbo->tbo.base.size - op->offset ||
		    (vbo->resv_obj && vbo->resv_obj != vseg_vm_resv_obj(vm)))
			err = -EINVAL;
	}
	/* VM_UNBIND of size 0: the mapping that starts at @gpu_va now. */
	if (!map && !op->range)
		op->range = mapping_at(vm, op->addr);
	if (!err && !va_range_ok(op->addr, op->range))
		err = -EINVAL;
	/*
	 * The page tables it writes: applying it allocates nothing. Their
	 * pages share the address space's reservation.
	 */
	if (!err && map) {
		struct dma_resv *resv = vseg_vm_resv_obj(vm)->resv;

		err = dma_resv_lock_interruptible(resv, NULL);
		if (!err) {
			err = vseg_pt_prepare(vm->pt, op->addr, op->range);
			dma_resv_unlock(resv);
		}
	}
	if (!err)
		err = vseg_syncs_get_out(file, args->out_syncs,
					 args->num_out_syncs, args->sync_size,
					 &out);
	if (!err)
		err = mutex_lock_interruptible(&vm->bind_lock);
	if (err)
		goto out_free;
	range = op->range;
	/* Binds of a file are queued in the order they are made. */
	err = op_submit(op, file, args, &fence);
	mutex_unlock(&vm->bind_lock);
	if (!err) {
		vseg_syncs_signal_out(out, args->num_out_syncs, fence);
		dma_fence_put(fence);
		args->size = range;
	}
	vseg_syncs_put_out(out, args->num_out_syncs);
	return err;

out_free:
	vseg_syncs_put_out(out, args->num_out_syncs);
	op_free(op);
	return err;
}

/**
 * vseg_ioctl_vm_bind() - DRM_IOCTL_VSEG_VM_BIND
 * @drm: the device
 * @data: &struct drm_vseg_vm_bind
 * @file: the caller, whose address space it changes
 *
 * Return: 0, or a negative error code as the UAPI documents (nothing
 * changes then).
 */
int vseg_ioctl_vm_bind(struct drm_device *drm, void *data,
		       struct drm_file *file)
{
	return vm_bind(file, data, true);
}

/**
 * vseg_ioctl_vm_unbind() - DRM_IOCTL_VSEG_VM_UNBIND
 * @drm: the device
 * @data: &struct drm_vseg_vm_bind
 * @file: the caller
 *
 * Return: 0, or a negative error code as the UAPI documents (nothing
 * changes then).
 */
int vseg_ioctl_vm_unbind(struct drm_device *drm, void *data,
			 struct drm_file *file)
{
	return vm_bind(file, data, false);
}
