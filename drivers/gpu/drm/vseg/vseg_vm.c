// SPDX-License-Identifier: GPL-2.0-only
/*
 * Copyright (c) 2026 The vseg authors
 *
 * GPU virtual address spaces: each open file has one, in which
 * DRM_IOCTL_VSEG_VM_BIND maps whole buffers. The render engine translates
 * through it. A job takes a view (a copy of the mappings, with references)
 * when it is submitted, so unbinding never pulls a buffer from under a
 * queued job, and a job that uses an address unbound before it was
 * submitted fails.
 */

#include <linux/bsearch.h>
#include <linux/lockdep.h>
#include <linux/rbtree.h>
#include <linux/sizes.h>
#include <linux/slab.h>
#include <linux/sort.h>
#include <drm/drm_gem.h>

#include "vseg_bo.h"
#include "vseg_vm.h"

/**
 * vseg_vm_init() - an empty address space
 * @vm: the address space
 */
void vseg_vm_init(struct vseg_vm *vm)
{
	mutex_init(&vm->lock);
	vm->mappings = RB_ROOT;
	vm->count = 0;
}

static void mapping_free(struct vseg_vm_mapping *m)
{
	drm_gem_object_put(&m->bo->tbo.base);
	kfree(m);
}

/**
 * vseg_vm_fini() - unmap everything
 * @vm: the address space
 */
void vseg_vm_fini(struct vseg_vm *vm)
{
	struct vseg_vm_mapping *m, *tmp;

	rbtree_postorder_for_each_entry_safe(m, tmp, &vm->mappings, node)
		mapping_free(m);
	vm->mappings = RB_ROOT;
	vm->count = 0;
	mutex_destroy(&vm->lock);
}

/* End of the address range a mapping takes (whole granules). */
static u64 mapping_end(const struct vseg_vm_mapping *m)
{
	return m->va + round_up(m->size, VSEG_VM_ALIGN);
}

/* The mapping whose range holds @va, or the first one above it. */
static struct vseg_vm_mapping *mapping_at_or_after(struct vseg_vm *vm, u64 va)
{
	struct rb_node *n = vm->mappings.rb_node;
	struct vseg_vm_mapping *best = NULL;

	while (n) {
		struct vseg_vm_mapping *m = rb_entry(n, struct vseg_vm_mapping,
						     node);

		if (va < mapping_end(m)) {
			best = m;
			n = n->rb_left;
		} else {
			n = n->rb_right;
		}
	}
	return best;
}

static bool mapping_less(struct rb_node *a, const struct rb_node *b)
{
	return rb_entry(a, struct vseg_vm_mapping, node)->va <
	       rb_entry(b, struct vseg_vm_mapping, node)->va;
}

/**
 * vseg_vm_bind() - map a whole buffer at @va
 * @vm: the address space
 * @bo: the buffer; the mapping takes its own reference
 * @va: GPU virtual address
 *
 * O(log n) in the number of mappings.
 *
 * Return: 0, -EINVAL for a bad or overlapping address, -ENOSPC when the
 * address space already has VSEG_VM_MAX_MAPPINGS mappings, -ENOMEM.
 */
int vseg_vm_bind(struct vseg_vm *vm, struct vseg_bo *bo, u64 va)
{
	u64 size = round_up(bo->tbo.base.size, VSEG_VM_ALIGN);
	struct vseg_vm_mapping *m, *next;
	int err = 0;

	if (!va || !IS_ALIGNED(va, VSEG_VM_ALIGN) || va >= VSEG_VM_END ||
	    size > VSEG_VM_END - va)
		return -EINVAL;
	m = kzalloc(sizeof(*m), GFP_KERNEL_ACCOUNT);
	if (!m)
		return -ENOMEM;
	m->va = va;
	m->size = bo->tbo.base.size;

	mutex_lock(&vm->lock);
	next = mapping_at_or_after(vm, va);
	if (next && next->va < va + size)
		err = -EINVAL;
	else if (vm->count >= VSEG_VM_MAX_MAPPINGS)
		err = -ENOSPC;
	if (!err) {
		drm_gem_object_get(&bo->tbo.base);
		m->bo = bo;
		rb_add(&m->node, &vm->mappings, mapping_less);
		vm->count++;
	}
	mutex_unlock(&vm->lock);
	if (err)
		kfree(m);
	return err;
}

/**
 * vseg_vm_unbind() - remove the mapping that starts at @va
 * @vm: the address space
 * @va: its first address
 *
 * Return: 0, or -EINVAL if no mapping starts there.
 */
int vseg_vm_unbind(struct vseg_vm *vm, u64 va)
{
	struct vseg_vm_mapping *m;

	mutex_lock(&vm->lock);
	m = mapping_at_or_after(vm, va);
	if (!m || m->va != va) {
		mutex_unlock(&vm->lock);
		return -EINVAL;
	}
	rb_erase(&m->node, &vm->mappings);
	vm->count--;
	mutex_unlock(&vm->lock);
	mapping_free(m);
	return 0;
}

/* Count (and with @view, copy) every mapping intersecting a range. */
static unsigned int walk_touched(struct vseg_vm *vm,
				 const struct vseg_va_range *r,
				 unsigned int n, struct vseg_vm_view *view)
{
	struct vseg_vm_mapping *m;
	struct rb_node *node;
	unsigned int i, count = 0;

	lockdep_assert_held(&vm->lock);
	for (i = 0; i < n; i++) {
		m = mapping_at_or_after(vm, r[i].start);
		while (m && (m->va <= r[i].start ||
			     m->va - r[i].start < r[i].len)) {
			if (view)
				view->map[count] = *m;
			count++;
			node = rb_next(&m->node);
			m = node ? rb_entry(node, struct vseg_vm_mapping, node) :
				   NULL;
		}
	}
	return count;
}

static int va_cmp(const void *a, const void *b)
{
	const struct vseg_vm_mapping *x = a, *y = b;

	return x->va < y->va ? -1 : x->va > y->va;
}

static int range_cmp(const void *a, const void *b)
{
	const struct vseg_va_range *x = a, *y = b;

	return x->start < y->start ? -1 : x->start > y->start;
}

/*
 * Sort the ranges and merge those that overlap, so that walking them
 * visits each mapping at most twice: O(r log r + m), whatever the ranges.
 */
static unsigned int merge_ranges(struct vseg_va_range *r, unsigned int n)
{
	unsigned int i, k = 0;
	u64 end;

	sort(r, n, sizeof(*r), range_cmp, NULL);
	for (i = 0; i < n; i++) {
		end = r[i].start + max_t(u64, r[i].len, 1);
		if (end < r[i].start)
			end = U64_MAX;	/* runs off the end: as far as it goes */
		if (k && r[i].start <= r[k - 1].start + r[k - 1].len) {
			r[k - 1].len = max(r[k - 1].len, end - r[k - 1].start);
			continue;
		}
		r[k].start = r[i].start;
		r[k++].len = end - r[i].start;
	}
	return k;
}

/**
 * vseg_vm_view_get() - the mappings a job touches, for the job
 * @vm: the address space
 * @ranges: the GPU virtual address ranges the job's commands reach;
 *	sorted and merged in place
 * @n: entries in @ranges
 *
 * Each mapping that intersects a range, once, sorted by address, with a
 * reference to its buffer: only those buffers are made resident, locked
 * and fenced for the job; an address outside them faults when the job
 * runs. O(r log r + m log m) for r ranges and m mappings, however the
 * ranges overlap.
 *
 * Return: the view, or NULL without memory.
 */
struct vseg_vm_view *vseg_vm_view_get(struct vseg_vm *vm,
				      struct vseg_va_range *ranges,
				      unsigned int n)
{
	struct vseg_vm_view *view;
	unsigned int i, k, count;

	n = merge_ranges(ranges, n);
	mutex_lock(&vm->lock);
	count = walk_touched(vm, ranges, n, NULL);
	view = kvzalloc(struct_size(view, map, count), GFP_KERNEL_ACCOUNT);
	if (view) {
		walk_touched(vm, ranges, n, view);
		sort(view->map, count, sizeof(view->map[0]), va_cmp, NULL);
		for (i = 0, k = 0; i < count; i++) {
			if (k && view->map[k - 1].va == view->map[i].va)
				continue;
			view->map[k] = view->map[i];
			RB_CLEAR_NODE(&view->map[k].node);
			drm_gem_object_get(&view->map[k].bo->tbo.base);
			k++;
		}
		view->count = k;
	}
	mutex_unlock(&vm->lock);
	return view;
}

/**
 * vseg_vm_view_put() - drop a job's view
 * @view: the view, or NULL
 */
void vseg_vm_view_put(struct vseg_vm_view *view)
{
	unsigned int i;

	if (!view)
		return;
	for (i = 0; i < view->count; i++)
		drm_gem_object_put(&view->map[i].bo->tbo.base);
	kvfree(view);
}

static int cmp_va(const void *key, const void *elt)
{
	u64 va = *(const u64 *)key;
	const struct vseg_vm_mapping *m = elt;

	if (va < m->va)
		return -1;
	return va >= m->va + m->size ? 1 : 0;
}

/**
 * vseg_vm_view_find() - the mapping that holds an address
 * @view: a job's view
 * @va: GPU virtual address
 *
 * Return: the mapping, or NULL for an unmapped address.
 */
const struct vseg_vm_mapping *vseg_vm_view_find(const struct vseg_vm_view *view,
						u64 va)
{
	return bsearch(&va, view->map, view->count, sizeof(view->map[0]),
		       cmp_va);
}
