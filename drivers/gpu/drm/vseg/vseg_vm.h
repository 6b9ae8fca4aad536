/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Copyright (c) 2026 The vseg authors
 */
#ifndef __VSEG_VM_H__
#define __VSEG_VM_H__

#include <linux/list.h>
#include <linux/mutex.h>
#include <linux/sizes.h>
#include <linux/types.h>
#include <drm/drm_gpuvm.h>
#include <drm/gpu_scheduler.h>

#include "vseg_pt.h"

struct drm_device;
struct drm_file;
struct drm_gem_object;
struct vseg_bo;
struct vseg_device;
struct vseg_limits_client;

/* GPU virtual addresses: pages below 2^47; the first page is never mapped. */
#define VSEG_VM_ALIGN		PAGE_SIZE
#define VSEG_VM_END		BIT_ULL(47)
/* Most mappings of one process (DRM_VSEG_MAX_VM_MAPPINGS). */
#define VSEG_VM_MAX_MAPPINGS	4096

/**
 * struct vseg_vm - one file's GPU virtual address space
 * @base: DRM's VA manager; its reference count keeps the structure.
 * @vdev: the device.
 * @bind_lock: serializes the file's VM_BINDs, so that they are queued in
 *	the order they were made; protects @entity's use.
 * @tree_lock: protects the VA tree, @pending, @mappings and @reserved.
 *	Taken to change the tree (a bind, also from the bind queue's
 *	scheduler) and to read it (submission, the render engine): never
 *	held while allocating or waiting for a fence.
 * @pending: binds queued and not applied yet (&struct vseg_vm_op): the
 *	ranges a job submitted now may reach once they are.
 * @mappings: mappings in the tree.
 * @reserved: mappings the tree may hold once every queued bind is
 *	applied, at most (a bind may split mappings): what is charged to
 *	@limits.
 * @limits: the creating file's limits client, a reference: the mappings
 *	are charged to its process, user and device.
 * @entity: the file's entity on the bind queue: binds with input
 *	syncobjs wait there, and those after them.
 * @pt: its GPU page tables (vseg_pt.c), which the render engine walks.
 */
struct vseg_vm {
	struct drm_gpuvm base;
	struct vseg_device *vdev;
	struct mutex bind_lock; /* see above */
	struct mutex tree_lock; /* see above */
	struct list_head pending;
	unsigned int mappings;
	unsigned int reserved;
	struct vseg_limits_client *limits;
	struct drm_sched_entity entity;
	struct vseg_pt *pt;
};

static inline struct vseg_vm *to_vseg_vm(struct drm_gpuvm *gpuvm)
{
	return container_of(gpuvm, struct vseg_vm, base);
}

/**
 * struct vseg_va_range - a range of GPU virtual addresses a job reaches
 * @start: first address.
 * @len: bytes (0 counts as 1).
 */
struct vseg_va_range {
	u64 start;
	u64 len;
};

struct vseg_vm *vseg_vm_create(struct vseg_device *vdev,
			       struct vseg_limits_client *limits);
void vseg_vm_close(struct vseg_vm *vm);
struct vseg_vm *vseg_vm_get(struct vseg_vm *vm);
void vseg_vm_put(struct vseg_vm *vm);
struct drm_gem_object *vseg_vm_resv_obj(struct vseg_vm *vm);
int vseg_vm_restore_tables(struct vseg_vm *vm);
int vseg_vm_collect_bos(struct vseg_vm *vm, struct vseg_va_range *ranges,
			unsigned int n, struct vseg_bo ***bos,
			unsigned int *count);
bool vseg_vm_reaches(struct vseg_vm *vm, u64 va, u64 len,
		     bool (*match)(struct drm_gem_object *obj, void *arg),
		     void *arg);
unsigned int vseg_vm_mappings(struct vseg_vm *vm);
int vseg_ioctl_vm_bind(struct drm_device *drm, void *data,
		       struct drm_file *file);
int vseg_ioctl_vm_unbind(struct drm_device *drm, void *data,
			 struct drm_file *file);

#endif /* __VSEG_VM_H__ */
