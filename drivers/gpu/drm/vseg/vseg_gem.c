// SPDX-License-Identifier: GPL-2.0-only
/*
 * Copyright (c) 2026 The vseg authors
 *
 * The GEM object of a vseg buffer: its functions (free, per-file close,
 * mmap, and PRIME's, in vseg_prime.c) and the CPU fault, which moves a
 * buffer where the CPU can see it before mapping it (but in a segment
 * with a CPU host aperture, which maps it where it is).
 */

#include <linux/dma-buf.h>
#include <linux/dma-resv.h>
#include <linux/mm.h>
#include <drm/drm_drv.h>
#include <drm/drm_gem.h>
#include <drm/drm_mode.h>
#include <drm/drm_vma_manager.h>
#include <drm/ttm/ttm_tt.h>

#include "vseg_bo.h"
#include "vseg_compat.h"
#include "vseg_device_types.h"
#include "vseg_file.h"
#include "vseg_vm.h"
#include "vseg_gem.h"
#include "vseg_host_aperture.h"
#include "vseg_prime.h"
#include "vseg_pm.h"
#include "vseg_res_cursor.h"
#include "vseg_ttm.h"

/* How long CPU faults may find the CPU-visible room taken before SIGBUS. */
#define VSEG_FAULT_PATIENCE	(10 * HZ)

static const struct vm_operations_struct vseg_vm_ops;

/*
 * Pins hold references (the display's and each file's): none is left.
 * Moves the paging engine still runs on the buffer are short: they end
 * first, so that its memory is free when its last reference goes rather
 * than later, behind TTM's delayed delete (jobs may still hold it there).
 */
static void vseg_gem_free(struct drm_gem_object *gem)
{
	dma_resv_wait_timeout(gem->resv, DMA_RESV_USAGE_KERNEL, false,
			      MAX_SCHEDULE_TIMEOUT);
	vseg_ttm_bo_put(drm_gem_ttm_of_gem(gem));
}

static int vseg_gem_mmap(struct drm_gem_object *gem, struct vm_area_struct *vma)
{
	struct ttm_buffer_object *tbo = drm_gem_ttm_of_gem(gem);
	int err;

	/* An imported buffer's pages are mapped by its exporter only. */
	if (vseg_bo_is_imported(gem_to_vseg_bo(gem)))
		return -EINVAL;
	/* Protected content never reaches the CPU (MAP_DUMB, dma-buf). */
	if (vseg_bo_is_protected(gem_to_vseg_bo(gem)))
		return -EPERM;
	vma->vm_ops = &vseg_vm_ops;
	err = ttm_bo_mmap_obj(vma, tbo);
	if (err)
		return err;
	/* TTM holds its own reference through vm_private_data. */
	drm_gem_object_put(gem);
	return 0;
}

/**
 * vseg_gem_status() - &drm_gem_object_funcs.status, for fdinfo
 * @gem: a vseg buffer
 *
 * Resident when its memory is committed: in a memory segment or the
 * aperture, or in system memory with pages. Read without the buffer's
 * reservation when it is taken (a snapshot, as fdinfo is); active when a
 * job or move still uses it.
 *
 * Return: DRM_GEM_OBJECT_* bits.
 */
enum drm_gem_object_status vseg_gem_status(struct drm_gem_object *gem)
{
	struct vseg_bo *vbo = gem_to_vseg_bo(gem);
	u32 seg = READ_ONCE(vbo->accounted_seg);
	enum drm_gem_object_status st = 0;

	/* Offered: its owner lets it go (fdinfo's drm-purgeable). */
	if (vseg_bo_offered(vbo))
		st |= DRM_GEM_OBJECT_PURGEABLE;
	if (seg == VSEG_BO_NOWHERE)
		return st;
	if (seg) {
		st |= DRM_GEM_OBJECT_RESIDENT;
	} else if (dma_resv_trylock(gem->resv)) {
		if (vbo->tbo.ttm && ttm_tt_is_populated(vbo->tbo.ttm))
			st |= DRM_GEM_OBJECT_RESIDENT;
		dma_resv_unlock(gem->resv);
	}
	if ((st & DRM_GEM_OBJECT_RESIDENT) &&
	    !dma_resv_test_signaled(gem->resv, DMA_RESV_USAGE_BOOKKEEP))
		st |= VSEG_DRM_GEM_OBJECT_ACTIVE;
	return st;
}

static const struct drm_gem_object_funcs vseg_gem_funcs = {
	.free = vseg_gem_free,
	.close = vseg_file_gem_close,
	.export = vseg_prime_export,
	.pin = vseg_prime_pin,
	.unpin = vseg_prime_unpin,
	.get_sg_table = vseg_prime_get_sg_table,
	.vmap = vseg_prime_vmap,
	.vunmap = vseg_prime_vunmap,
	.mmap = vseg_gem_mmap,
	.print_info = drm_gem_ttm_print_info,
	.status = vseg_gem_status,
};

/**
 * vseg_gem_is_vseg() - is a GEM object one of vseg's buffers
 * @obj: the object, of a vseg file
 *
 * Return: false for any other kind a file may hold a handle of.
 */
bool vseg_gem_is_vseg(const struct drm_gem_object *obj)
{
	return obj->funcs == &vseg_gem_funcs;
}

/**
 * vseg_gem_create() - create and place a buffer with vseg's GEM object, and
 * a handle of it
 * @vdev: the device
 * @p: checked properties (vseg_bo_check_params()), size already real
 * @file: the creating file, which gets the handle
 * @handle: receives the handle
 *
 * Return: 0 or a negative error code, as vseg_bo_create() and
 * drm_gem_handle_create().
 */
int vseg_gem_create(struct vseg_device *vdev, const struct vseg_bo_params *p,
		    struct drm_file *file, u32 *handle)
{
	struct vseg_file *vf = file->driver_priv;
	struct vseg_bo *vbo;
	int err;

	err = vseg_bo_create(vdev, p, &vseg_gem_funcs, vf->stats, vf->limits,
			     p->flags & VSEG_BO_VM_PRIVATE ?
			     vseg_vm_resv_obj(vf->vm) : NULL, &vbo);
	if (err)
		return err;
	/* Its owner: the only file that may discard or unpin it by EVICT. */
	vbo->owner_file = vf->client_id;
	/* The handle holds the buffer from now on. */
	err = drm_gem_handle_create(file, &vbo->tbo.base, handle);
	drm_gem_object_put(&vbo->tbo.base);
	return err;
}

/* Bytes a dumb buffer's rows are aligned to. */
#define VSEG_DUMB_PITCH_ALIGN	64

/**
 * vseg_gem_dumb_create() - DRM_IOCTL_MODE_CREATE_DUMB
 * @file: the caller (of the primary node: DRM refuses render clients)
 * @drm: the device
 * @args: width, height and bpp checked by DRM (nonzero, the size fits in
 *	32 bits); receives the handle, the pitch and the size
 *
 * A dumb buffer is a plain buffer of the segment rules: it may live in
 * every segment and in system memory, CPU-visible placements only, and
 * evicts to the aperture. Its pitch is the row rounded up to
 * VSEG_DUMB_PITCH_ALIGN bytes; its size, that of a buffer created with
 * GEM_CREATE. Mapped with DRM_IOCTL_MODE_MAP_DUMB and mmap(), destroyed
 * with DRM_IOCTL_MODE_DESTROY_DUMB (DRM's helpers).
 *
 * Return: 0, -EINVAL for a size no segment could hold or that overflows,
 * -ENOSPC, -ENOMEM.
 */
int vseg_gem_dumb_create(struct drm_file *file, struct drm_device *drm,
			 struct drm_mode_create_dumb *args)
{
	struct vseg_device *vdev = to_vseg(drm);
	u32 aperture = vdev->layout.aperture_id;
	struct vseg_bo_params p = {
		.flags = VSEG_BO_CPU_VISIBLE,
		.supported = GENMASK(vdev->table.num_segments, 0),
		.eviction = aperture ? BIT(aperture) : 0,
	};
	u64 pitch, size;
	u32 handle;
	int err;

	pitch = ALIGN((u64)args->width * DIV_ROUND_UP(args->bpp, 8),
		      VSEG_DUMB_PITCH_ALIGN);
	size = pitch * args->height;
	if (pitch > U32_MAX || size > VSEG_BO_MAX_SIZE)
		return -EINVAL;
	p.size = PAGE_ALIGN(size);
	err = vseg_bo_check_params(vdev, &p, &p.size);
	if (err)
		return err;
	err = vseg_gem_create(vdev, &p, file, &handle);
	if (err)
		return err;
	args->handle = handle;
	args->pitch = pitch;
	args->size = p.size;
	return 0;
}

/**
 * vseg_gem_prime_import_sg_table() - &drm_driver.gem_prime_import_sg_table
 * @drm: the device
 * @attach: vseg's attachment to a foreign dma-buf
 * @sgt: its pages, mapped for vseg
 *
 * The buffer shares the dma-buf's reservation object (vseg_prime.c).
 *
 * Return: the new buffer's GEM object, or an ERR_PTR(): -EINVAL for a
 * dma-buf whose size is not a whole number of pages, -ENOMEM.
 */
struct drm_gem_object *
vseg_gem_prime_import_sg_table(struct drm_device *drm,
			       struct dma_buf_attachment *attach,
			       struct sg_table *sgt)
{
	struct vseg_device *vdev = to_vseg(drm);
	struct vseg_bo_params p;
	struct vseg_bo *vbo;
	int err;

	err = vseg_prime_import_params(vdev, attach->dmabuf, &p);
	if (!err)
		err = vseg_bo_create_imported(vdev, &p, &vseg_gem_funcs, sgt,
					      attach->dmabuf->resv, &vbo);
	return err ? ERR_PTR(err) : &vbo->tbo.base;
}

/*
 * Move a buffer the CPU cannot see where it can. On contention (the
 * CPU-visible room is held by buffers others have reserved right now) the
 * fault returns at once, letting others run, and the access faults again;
 * when it has found no room for VSEG_FAULT_PATIENCE it gives up with
 * SIGBUS.
 */
static vm_fault_t fault_migrate(struct vseg_bo *vbo)
{
	struct ttm_operation_ctx ctx = { .interruptible = true };
	struct ttm_place places[VSEG_BO_MAX_PLACES];
	struct ttm_placement placement = {};
	unsigned int n;
	int err;

	n = vseg_bo_cpu_places(vbo, places);
	if (!n || vbo->tbo.pin_count)
		return VM_FAULT_SIGBUS;
	vseg_placement_set(&placement, places, n);
	vbo->move_reason = VSEG_MOVE_FAULT;
	err = ttm_bo_validate(&vbo->tbo, &placement, &ctx);
	if (!err)
		return 0;
	if (err == -ERESTARTSYS || err == -EINTR)
		return VM_FAULT_NOPAGE;
	if (!vbo->fault_since)
		vbo->fault_since = jiffies | 1;
	else if (time_after(jiffies, vbo->fault_since + VSEG_FAULT_PATIENCE))
		return VM_FAULT_SIGBUS;
	cond_resched();
	return VM_FAULT_NOPAGE;
}

/*
 * Segment memory is backed by pages as it is written: back the pages TTM
 * is about to map (the faulting one and the ones it prefaults after it).
 */
static vm_fault_t fault_populate(struct vseg_bo *vbo, struct vm_fault *vmf)
{
	struct ttm_buffer_object *tbo = &vbo->tbo;
	struct vm_area_struct *vma = vmf->vma;
	u32 mt = tbo->resource->mem_type;
	u64 page;

	if (mt == TTM_PL_SYSTEM || mt == TTM_PL_TT)
		return 0;
	page = ((vmf->address - vma->vm_start) >> PAGE_SHIFT) + vma->vm_pgoff -
	       drm_vma_node_start(&tbo->base.vma_node);
	if (vseg_cursor_populate(bdev_to_vseg(tbo->bdev), tbo->resource,
				 page << PAGE_SHIFT,
				 (u64)TTM_BO_VM_NUM_PREFAULT << PAGE_SHIFT))
		return VM_FAULT_OOM;
	return 0;
}

/*
 * CPU faults: move the buffer where the CPU can see it, or SIGBUS; after an
 * unplug, a dummy page; during a power transition, wait for its end.
 */
static vm_fault_t vseg_vm_fault(struct vm_fault *vmf)
{
	struct vm_area_struct *vma = vmf->vma;
	struct ttm_buffer_object *tbo = vma->vm_private_data;
	struct vseg_bo *vbo = to_vseg_bo(tbo);
	vm_fault_t ret;
	int idx;

	ret = ttm_bo_vm_reserve(tbo, vmf);
	if (ret)
		return ret;
	/*
	 * The device is gone (unbound): the mapping shows a zeroed dummy page
	 * from now on, as Documentation/gpu/drm-uapi.rst asks of hot-unplug.
	 */
	if (!drm_dev_enter(tbo->base.dev, &idx)) {
		ret = ttm_bo_vm_dummy_page(vmf, vma->vm_page_prot);
		goto out_unlock;
	}
	/*
	 * Standby or hibernate is under way: nothing moves into, or is
	 * backed in, memory that is losing its power; wait for the exit.
	 */
	if (vseg_pm_busy(bdev_to_vseg(tbo->bdev))) {
		drm_dev_exit(idx);
		dma_resv_unlock(tbo->base.resv);
		return vseg_pm_fault_wait(bdev_to_vseg(tbo->bdev), vmf);
	}
	/* Offered: unused until RECLAIM (OFFER unmapped it). */
	if (vbo->offered) {
		ret = VM_FAULT_SIGBUS;
		goto out_exit;
	}
	/* Jobs that use the buffer finish before the CPU sees it. */
	if (dma_resv_wait_timeout(tbo->base.resv, DMA_RESV_USAGE_WRITE, true,
				  MAX_SCHEDULE_TIMEOUT) < 0) {
		ret = VM_FAULT_NOPAGE;
		goto out_exit;
	}
	/* A CPU host aperture reaches it where it is: no move. */
	if (vseg_host_aperture_serves(vbo)) {
		ret = vseg_host_aperture_fault(vbo, vmf);
		if (!(ret & VM_FAULT_ERROR))
			ttm_bo_move_to_lru_tail_unlocked(tbo);
		goto out_exit;
	}
	if (!vseg_bo_cpu_accessible(vbo)) {
		ret = fault_migrate(vbo);
		if (ret)
			goto out_exit;
	}
	ret = fault_populate(vbo, vmf);
	if (ret)
		goto out_exit;
	ret = ttm_bo_vm_fault_reserved(vmf, vma->vm_page_prot,
				       TTM_BO_VM_NUM_PREFAULT);
	/*
	 * CPU use counts as use: the buffer is the last one to evict. Not on
	 * VM_FAULT_RETRY: TTM has dropped the reservation to wait for a move
	 * (one fault_migrate() queued, say), and the fault comes again.
	 */
	if (!(ret & (VM_FAULT_ERROR | VM_FAULT_RETRY)))
		ttm_bo_move_to_lru_tail_unlocked(tbo);
	vbo->fault_since = 0;
out_exit:
	drm_dev_exit(idx);
	if (ret == VM_FAULT_RETRY && !(vmf->flags & FAULT_FLAG_RETRY_NOWAIT))
		return ret;
out_unlock:
	dma_resv_unlock(tbo->base.resv);
	return ret;
}

/*
 * ptrace access (/proc/PID/mem, a debugger): vseg's own, which waits for
 * the buffer's moves whatever its placement (TTM's does not for system
 * pages: a move's destination may still hold another owner's bytes).
 */
static int vseg_vm_access(struct vm_area_struct *vma, unsigned long addr,
			  void *buf, int len, int write)
{
	struct ttm_buffer_object *tbo = vma->vm_private_data;
	unsigned long offset = addr - vma->vm_start +
		((vma->vm_pgoff - drm_vma_node_start(&tbo->base.vma_node))
		 << PAGE_SHIFT);

	if (len < 1 || offset >= tbo->base.size ||
	    len > tbo->base.size - offset)
		return -EIO;
	return vseg_ttm_access(tbo, offset, buf, len, write);
}

static const struct vm_operations_struct vseg_vm_ops = {
	.fault = vseg_vm_fault,
	.open = ttm_bo_vm_open,
	.close = ttm_bo_vm_close,
	.access = vseg_vm_access,
};
