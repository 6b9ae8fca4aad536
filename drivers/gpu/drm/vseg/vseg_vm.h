/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Copyright (c) 2026 The vseg authors
 */
#ifndef __VSEG_VM_H__
#define __VSEG_VM_H__

#include <linux/mutex.h>
#include <linux/rbtree.h>
#include <linux/types.h>

struct vseg_bo;

/* GPU virtual addresses: 64 KiB granules below 2^47. */
#define VSEG_VM_ALIGN		SZ_64K
#define VSEG_VM_END		BIT_ULL(47)
/* Most mappings in one address space (DRM_VSEG_MAX_VM_MAPPINGS). */
#define VSEG_VM_MAX_MAPPINGS	4096

/**
 * struct vseg_vm - one file's GPU virtual address space
 * @lock: protects @mappings and @count.
 * @mappings: &struct vseg_vm_mapping, by address.
 * @count: number of mappings, at most VSEG_VM_MAX_MAPPINGS.
 */
struct vseg_vm {
	struct mutex lock; /* see above */
	struct rb_root mappings;
	unsigned int count;
};

/**
 * struct vseg_vm_mapping - a buffer mapped at a GPU virtual address
 * @node: in &vseg_vm.mappings.
 * @va: first address.
 * @size: bytes.
 * @bo: the buffer; the mapping holds a GEM reference.
 */
struct vseg_vm_mapping {
	struct rb_node node;
	u64 va;
	u64 size;
	struct vseg_bo *bo;
};

/**
 * struct vseg_va_range - a range of GPU virtual addresses a job reaches
 * @start: first address.
 * @len: bytes (0 counts as 1).
 */
struct vseg_va_range {
	u64 start;
	u64 len;
};

/**
 * struct vseg_vm_view - the mappings a job was submitted with
 * @count: entries in @map.
 * @map: sorted by address; each holds a GEM reference.
 */
struct vseg_vm_view {
	unsigned int count;
	struct vseg_vm_mapping map[];
};

void vseg_vm_init(struct vseg_vm *vm);
void vseg_vm_fini(struct vseg_vm *vm);
int vseg_vm_bind(struct vseg_vm *vm, struct vseg_bo *bo, u64 va);
int vseg_vm_unbind(struct vseg_vm *vm, u64 va);
struct vseg_vm_view *vseg_vm_view_get(struct vseg_vm *vm,
				      struct vseg_va_range *ranges,
				      unsigned int n);
void vseg_vm_view_put(struct vseg_vm_view *view);
const struct vseg_vm_mapping *vseg_vm_view_find(const struct vseg_vm_view *view,
						u64 va);

#endif /* __VSEG_VM_H__ */
