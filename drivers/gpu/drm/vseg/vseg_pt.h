/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Copyright (c) 2026 The vseg authors
 */
#ifndef __VSEG_PT_H__
#define __VSEG_PT_H__

#include <linux/list.h>
#include <linux/mutex.h>
#include <linux/types.h>
#include <linux/wait.h>
#include <linux/workqueue.h>
#include <drm/drm_gpuvm.h>

struct drm_gem_object;
struct seq_file;
struct ttm_buffer_object;
struct ttm_operation_ctx;
struct ttm_resource;
struct ttm_tt;
struct vseg_device;
struct vseg_limits_client;
struct vseg_paging;
struct vseg_paging_pte_update;
struct vseg_pt;

/* &drm_gpuva.flags: the mapping may be read, not written. */
#define VSEG_VA_READONLY	DRM_GPUVA_USERBITS

/**
 * struct vseg_va - a mapping of a VA space (vseg_vm.c)
 * @base: drm_gpuvm's.
 * @pt: the page tables of its VA space.
 * @tag: names the mapping in its page-table entries' tags: new for each
 *	bind, kept by the parts a split leaves.
 * @link: in &vseg_vm_op.removed once a bind took it out of the tree.
 * @hold: then, a reference to the &drm_gpuvm_bo it was linked to, dropped
 *	when it is freed, out of the signalling path.
 */
struct vseg_va {
	struct drm_gpuva base;
	struct vseg_pt *pt;
	u64 tag;
	struct list_head link;
	struct drm_gpuvm_bo *hold;
};

static inline struct vseg_va *to_vseg_va(struct drm_gpuva *va)
{
	return container_of(va, struct vseg_va, base);
}

/**
 * struct vseg_pt_bo - where a buffer's page-table entries point
 * @res: the placement (the last move's destination), or NULL for system
 *	memory, where the GPU does not reach it. Under the buffer's GPU VA
 *	lock; set by every move.
 * @tt: the pages of @res when it is the aperture.
 * @system: @res is system memory whose pages are pinned for another
 *	device (vseg_bo_pin_shared()): entries name them, as the aperture's.
 */
struct vseg_pt_bo {
	struct ttm_resource *res;
	struct ttm_tt *tt;
	bool system;
};

/**
 * struct vseg_pt_dev - the device's VA spaces' page tables
 * @lock: protects @spaces and @dead.
 * @spaces: every VA space's tables (&vseg_pt.link), for debugfs.
 * @dead: tables of VA spaces gone, waiting for the paging engine to be
 *	done with them before they are freed.
 * @free_work: frees @dead.
 * @idle: woken when an UPDATE_PT operation is done with.
 */
struct vseg_pt_dev {
	struct mutex lock; /* see above */
	struct list_head spaces;
	struct list_head dead;
	struct work_struct free_work;
	wait_queue_head_t idle;
};

/**
 * struct vseg_pt_move - the page-table side of one move of a buffer
 * @vdev: the device.
 * @obj: the buffer moved, NULL if the move touches no page table.
 * @lock: its GPU VA lock.
 * @rec: where its entries point.
 * @old: @rec before the move.
 * @gpuvms: references to the VA spaces whose entries the move rewrites.
 * @num_gpuvms: entries of @gpuvms.
 * @ups: the UPDATE_PT operations, invalidations first (@num_inval of
 *	them), then the new entries; an entry is NULL once emitted.
 * @dst: the bus address of each of @ups' first entry (the system
 *	address of its leaf page-table page, plus the entry's offset).
 * @num_ups: entries of @ups.
 * @num_inval: of which invalidations.
 */
struct vseg_pt_move {
	struct vseg_device *vdev;
	struct drm_gem_object *obj;
	struct mutex *lock; /* see above */
	struct vseg_pt_bo *rec;
	struct vseg_pt_bo old;
	struct drm_gpuvm **gpuvms;
	unsigned int num_gpuvms;
	struct vseg_paging_pte_update **ups;
	u64 *dst;
	unsigned int num_ups;
	unsigned int num_inval;
};

int vseg_pt_init(struct vseg_device *vdev);
struct vseg_pt *vseg_pt_create(struct vseg_device *vdev,
			       struct vseg_limits_client *limits,
			       struct drm_gem_object *resv_obj);
void vseg_pt_destroy(struct vseg_pt *pt);
int vseg_pt_prepare(struct vseg_pt *pt, u64 va, u64 range);
u64 vseg_pt_root(struct vseg_pt *pt);
u64 vseg_pt_new_tag(struct vseg_pt *pt);
void vseg_pt_map_va(struct vseg_va *va, const struct vseg_pt_bo *rec);
void vseg_pt_clear(struct vseg_pt *pt, u64 va, u64 range);
void vseg_pt_flush(struct vseg_pt *pt);
int vseg_pt_move_prepare(struct vseg_pt_move *mv, struct vseg_device *vdev,
			 struct drm_gem_object *obj, struct mutex *lock,
			 struct vseg_pt_bo *rec, struct ttm_resource *new_res,
			 struct ttm_tt *new_tt);
int vseg_pt_move_emit(struct vseg_pt_move *mv, struct vseg_paging *pg,
		      bool inval);
void vseg_pt_move_fail(struct vseg_pt_move *mv);
void vseg_pt_move_end(struct vseg_pt_move *mv);
bool vseg_pt_is_page(struct ttm_buffer_object *tbo);
void vseg_pt_evicting(struct ttm_buffer_object *tbo,
		      struct ttm_resource *new_mem);
int vseg_pt_restore(struct vseg_pt *pt, struct ttm_operation_ctx *ctx);
bool vseg_pt_all_resident(struct vseg_pt *pt);
void vseg_pt_bo_set_system(struct vseg_device *vdev,
			   struct drm_gem_object *obj, struct mutex *lock,
			   struct vseg_pt_bo *rec, bool pinned);
void vseg_pt_bo_unreachable(struct vseg_device *vdev,
			    struct drm_gem_object *obj, struct mutex *lock,
			    struct vseg_pt_bo *rec);
void vseg_pt_show(struct vseg_device *vdev, struct seq_file *m);

#endif /* __VSEG_PT_H__ */
