/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Copyright (c) 2026 The vseg authors
 */
#ifndef __VSEG_BO_H__
#define __VSEG_BO_H__

#include <linux/list.h>
#include <linux/mutex.h>
#include <linux/sched.h>
#include <drm/drm_gem_ttm_helper.h>
#include <drm/ttm/ttm_placement.h>

#include "vseg_compat.h"
#include "vseg_placement.h"
#include "vseg_pt.h"

struct dma_resv;
struct drm_exec;
struct drm_gem_object_funcs;
struct sg_table;
struct vseg_client_stats;
struct vseg_device;
struct vseg_limits_client;

/* Most pins a buffer can hold (user and display pins together). */
#define VSEG_BO_MAX_PINS		BIT(20)
/*
 * vseg_bo_make_resident_locked(), after which a ww transaction must lock
 * nothing more: resident where it was, no better place having room; not
 * yet, to go on from the next place in a new transaction; or not yet, the
 * place having no room: to try it again in a new transaction once the old
 * placements of the moves queued so far are freed (their room may be
 * what it lacked).
 */
/**
 * enum vseg_move_reason - why a buffer moves (the vseg_bo_move tracepoint)
 * @VSEG_MOVE_CREATE: to its first placement.
 * @VSEG_MOVE_EVICTION: TTM evicts it to make room for another.
 * @VSEG_MOVE_RESIDENCY: MAKE_RESIDENT or EVICT.
 * @VSEG_MOVE_FAULT: a CPU fault where the CPU cannot see it.
 * @VSEG_MOVE_SUBMISSION: a job needs it where the engine reaches it.
 * @VSEG_MOVE_SCANOUT: the display shows it.
 * @VSEG_MOVE_POWER: standby or hibernate evicts it.
 */
enum vseg_move_reason {
	VSEG_MOVE_CREATE,
	VSEG_MOVE_EVICTION,
	VSEG_MOVE_RESIDENCY,
	VSEG_MOVE_FAULT,
	VSEG_MOVE_SUBMISSION,
	VSEG_MOVE_SCANOUT,
	VSEG_MOVE_POWER,
};

#define VSEG_BO_STAYED			1
#define VSEG_BO_NEXT_PLACE		2
#define VSEG_BO_WAIT_PLACE		3
/* In @place: the place was tried again after the wait VSEG_BO_WAIT_PLACE asked for. */
#define VSEG_BO_PLACE_WAITED		0x80000000u

/**
 * struct vseg_bo_state - where a buffer is, as the ioctls and debugfs see it
 * @seg: segment id (0 = system).
 * @offset: byte offset of the first page in the segment.
 * @contiguous: one range in a memory segment.
 * @ap_mapped: has a range of the aperture with valid GART entries.
 * @ap_start: byte offset of that range.
 * @ap_size: its length.
 * @moves: number of moves between placements.
 */
struct vseg_bo_state {
	u32 seg;
	u64 offset;
	bool contiguous;
	bool ap_mapped;
	u64 ap_start;
	u64 ap_size;
	u64 moves;
};

/**
 * struct vseg_bo - a vseg buffer
 * @tbo: the TTM buffer object (with its GEM object).
 * @params: creation properties.
 * @id: device-wide id.
 * @owner_pid: tgid of the creator.
 * @owner_comm: its command name.
 * @owner_file: the client id (&vseg_file.client_id) of the file that
 *	created it, the only one that may drop its content (EVICT with
 *	DISCARD) or unpin it through EVICT; 0 for a buffer no file created
 *	(a foreign dma-buf's, the kernel's). Set once, at creation.
 * @link: in &vseg_device.bos.
 * @state: current placement, protected by &vseg_device.bo_lock.
 * @last_use: when it was last placed, from &vseg_device.use_seq: the
 *	age order of vseg's over-budget eviction (vseg_bo.c); under the
 *	reservation.
 * @accounted_seg: segment whose resident counter holds this buffer, or
 *	VSEG_BO_NOWHERE; protected by the BO's reservation.
 * @evicted_from: segment whose evicted counter holds this buffer, or 0.
 * @evict_places: storage for the places evict_flags hands TTM.
 * @fault_since: jiffies (| 1) of the first of the CPU faults in a row that
 *	found no CPU-visible room, 0 after a fault that did; under the BO's
 *	reservation.
 * @user_pins: pins taken through MAKE_RESIDENT, by every file (the display
 *	pins too, but only its own pins can it drop); protected by the BO's
 *	reservation.
 * @displayed: display heads showing the buffer; protected by the BO's
 *	reservation.
 * @stats: the engine time counters of the file that created it (a
 *	reference), charged for the paging engine's work on it; NULL for the
 *	kernel's own buffers.
 * @owner: the limits client of the file that created it (a reference):
 *	its resident bytes are charged to that file's process
 *	(%VSEG_LIMIT_RESIDENT, the budgets of vseg_budget.c); NULL for
 *	buffers no file created. Set once, at creation.
 * @priority: its residency priority (D3D12's scale; GEM_CREATE's extension,
 *	SET_PRIORITY), which sets TTM's LRU priority
 *	(vseg_budget_lru_priority()); under the reservation.
 * @move_reason: &enum vseg_move_reason of the moves its reservation's
 *	holder makes next (but TTM's evictions); under the reservation.
 * @discard: the move being made drops the content instead of transferring
 *	it (EVICT with DRM_VSEG_RESIDENCY_DISCARD); under the reservation.
 * @offered: its offer priority (DRM_VSEG_OFFER_PRIORITY_LOW..HIGH) while
 *	offered (DRM_IOCTL_VSEG_OFFER), 0 otherwise; set under the
 *	reservation, read without it (READ_ONCE) by fdinfo and the checks
 *	that refuse an offered buffer before they lock it.
 * @offer_discarded: its content was discarded while it was offered (an
 *	eviction from a memory segment, vseg_ttm_move()); under the
 *	reservation, cleared by RECLAIM.
 * @shared_pins: pins held for other devices' dma-buf attachments and for
 *	kernel mappings of the dma-buf (vseg_prime.c); under the reservation.
 * @display_kmaps: kernel mappings of a displayed buffer made where it is
 *	(the fbdev emulation's blits, vseg_prime_vmap()), each a plain TTM
 *	pin; under the reservation.
 * @crypt_nonce: a protected buffer in system memory: the nonce its
 *	content was encrypted with (vseg_vpr.c), 0 while it is in its
 *	segment; under the reservation.
 * @content_lost: a protected buffer lost its content in a standby
 *	(GEM_INFO's CONTENT_LOST); set under the reservation, never cleared.
 * @host_slots: slots of a CPU host aperture's window pointing at its pages
 *	(vseg_host_aperture.c); under the window's lock.
 * @resv_obj: a VM-private buffer: the GEM object whose reservation it
 *	shares (its address space's, drm_gpuvm's resv object), a
 *	reference; NULL otherwise.
 * @gpuva_lock: protects the GEM object's list of GPU VA mappings where
 *	the kernel has no lock of its own for it (see vseg_compat.h).
 * @pt: where its page-table entries point (vseg_pt.c); under the GEM
 *	object's GPU VA lock (vseg_gem_gpuva_lock()).
 * @pm_link: in &vseg_pm.recorded, to come back after a power transition;
 *	under &vseg_pm.lock.
 * @pm_seg: the memory segment it is to come back to; under &vseg_pm.lock.
 * @pm_lru: its place in its segment's LRU lists at the entry (higher: used
 *	more recently); under &vseg_pm.lock.
 */
struct vseg_bo {
	struct ttm_buffer_object tbo;
	struct vseg_bo_params params;
	u64 id;
	pid_t owner_pid;
	char owner_comm[TASK_COMM_LEN];
	u64 owner_file;
	struct list_head link;
	struct vseg_bo_state state;
	u32 accounted_seg;
	u64 last_use;
	u32 evicted_from;
	struct ttm_place evict_places[2];
	unsigned long fault_since;
	unsigned int user_pins;
	unsigned int displayed;
	struct vseg_client_stats *stats;
	struct vseg_limits_client *owner;
	u32 priority;
	u32 move_reason;
	bool discard;
	u32 offered;
	bool offer_discarded;
	unsigned int shared_pins;
	unsigned int display_kmaps;
	u64 crypt_nonce;
	bool content_lost;
	unsigned int host_slots;
	struct drm_gem_object *resv_obj;
	struct mutex gpuva_lock; /* see above */
	struct vseg_pt_bo pt;
	struct list_head pm_link;
	u32 pm_seg;
	u64 pm_lru;
};

#define VSEG_BO_NOWHERE		U32_MAX

static inline struct vseg_bo *to_vseg_bo(struct ttm_buffer_object *tbo)
{
	return container_of(tbo, struct vseg_bo, tbo);
}

static inline struct vseg_bo *gem_to_vseg_bo(struct drm_gem_object *gem)
{
	return to_vseg_bo(drm_gem_ttm_of_gem(gem));
}

/* The lock of a buffer's list of GPU VA mappings (drm_gpuvm's). */
static inline struct mutex *vseg_gem_gpuva_lock(struct drm_gem_object *obj)
{
	return vseg_gpuva_lock_of(obj, &gem_to_vseg_bo(obj)->gpuva_lock);
}

bool vseg_is_vseg_bo(struct ttm_buffer_object *tbo);
bool vseg_tbo_is_protected(struct ttm_buffer_object *tbo);
/**
 * struct vseg_validation - a ww transaction's hold on the validation lock
 * @vdev: the device (its &vseg_device.validation)
 * @exclusive: take the lock exclusive (after a first try found no room)
 * @shut: exclusive, with lockless transactions shut out (after an
 *	exclusive try that found no room overlapped one of them)
 * @lockless: the transaction runs without the lock: it moves nothing
 * @held: the lock is held, shared or exclusive as @exclusive says
 * @overlap: a lockless transaction held buffers when the exclusive
 *	transaction began
 * @seq: &vseg_device.lockless_seq when the exclusive transaction began
 *
 * Buffer reservations are wait-die ww mutexes: when TTM, evicting for a
 * transaction, meets a buffer an older transaction holds, the younger
 * one must leave, and TTM says so with -ENOSPC, as it says "no room".
 * The two cannot be told apart. So every transaction that validates
 * runs holding the device's validation lock shared; one that gets
 * -ENOSPC drops everything and runs again holding it exclusive, when no
 * other validating transaction holds buffers it could lose to: its
 * -ENOSPC is then the segment's. (xe does the same: xe_validation.c.)
 *
 * A transaction that only uses buffers where they already are (a job
 * whose buffers are all in place) validates nothing and evicts nothing:
 * it runs without the lock (vseg_validation_begin_lockless()), so that
 * it never queues behind a transaction waiting to take the lock
 * exclusive while others evict (each eviction TTM makes waits for its
 * copy). It still holds buffers an exclusive transaction may meet; an
 * exclusive transaction that found no room while one of them ran runs
 * once more, with them shut out.
 *
 * Use as::
 *
 *	vseg_validation_init(&val, vdev);
 *	do {
 *		err = vseg_validation_begin(&val);
 *		if (err)
 *			break;
 *		(drm_exec transaction: init, lock, validate, fini)
 *		vseg_validation_end(&val);
 *	} while (vseg_validation_retry(&val, err));
 */
struct vseg_validation {
	struct vseg_device *vdev;
	bool exclusive;
	bool shut;
	bool lockless;
	bool held;
	bool overlap;
	int seq;
};

void vseg_validation_init(struct vseg_validation *val,
			  struct vseg_device *vdev);
int vseg_validation_begin(struct vseg_validation *val);
bool vseg_validation_begin_lockless(struct vseg_validation *val);
void vseg_validation_end(struct vseg_validation *val);
bool vseg_validation_retry(struct vseg_validation *val, int err);
int vseg_bo_locked_retry(struct vseg_bo *vbo,
			 int (*fn)(struct vseg_bo *vbo, void *arg), void *arg);
int vseg_bo_check_params(struct vseg_device *vdev,
			 const struct vseg_bo_params *p, u64 *real_size);
int vseg_bo_create(struct vseg_device *vdev, const struct vseg_bo_params *p,
		   const struct drm_gem_object_funcs *funcs,
		   struct vseg_client_stats *stats,
		   struct vseg_limits_client *owner,
		   struct drm_gem_object *resv_obj, struct vseg_bo **out);
int vseg_bo_create_imported(struct vseg_device *vdev,
			    const struct vseg_bo_params *p,
			    const struct drm_gem_object_funcs *funcs,
			    struct sg_table *sgt, struct dma_resv *resv,
			    struct vseg_bo **out);
bool vseg_bo_is_imported(struct vseg_bo *vbo);
unsigned int vseg_bo_cpu_places(struct vseg_bo *vbo, struct ttm_place *places);
bool vseg_bo_cpu_accessible(struct vseg_bo *vbo);
struct vseg_bo **vseg_bos_snapshot(struct vseg_device *vdev, u64 *n);
void vseg_bos_put(struct vseg_bo **bos, u64 n);
void vseg_bos_drain(struct vseg_device *vdev, struct vseg_bo **bos, u64 n);

static inline bool vseg_bo_is_protected(const struct vseg_bo *vbo)
{
	return vbo->params.flags & VSEG_BO_PROTECTED;
}

void vseg_bo_update_state(struct vseg_bo *vbo, struct ttm_resource *res,
			  bool evicted);
void vseg_bo_get_state(struct vseg_bo *vbo, struct vseg_bo_state *st);
int vseg_bo_make_resident_locked(struct vseg_bo *vbo, bool pin,
				 u32 pin_segments, u32 *pinned_seg,
				 unsigned int *place);
int vseg_bo_make_resident_list(struct vseg_bo **bos, u32 n,
			       int (*fn)(struct vseg_bo *vbo, void *arg,
					 unsigned int *place),
			       void *arg, u32 *done);
int vseg_bo_evict(struct vseg_bo *vbo, bool unpin, bool discard,
		  bool *unpinned, enum vseg_move_reason why);
int vseg_bo_set_priority(struct vseg_bo *vbo, u32 priority);
int vseg_bo_offer_check(struct vseg_bo *vbo);
void vseg_bo_offer_locked(struct vseg_bo *vbo, u32 offer_priority);
void vseg_bo_offer_sort(struct vseg_device *vdev, u32 offer_priority);
u32 vseg_bo_reclaim_locked(struct vseg_bo *vbo);

/* An offered buffer is refused by whatever would use it (-EBUSY). */
static inline bool vseg_bo_offered(const struct vseg_bo *vbo)
{
	return READ_ONCE(vbo->offered);
}

void vseg_bo_unpin(struct vseg_bo *vbo, unsigned int count);
void vseg_bo_unpin_locked(struct vseg_bo *vbo);
int vseg_bo_make_reachable(struct vseg_bo *vbo, struct ttm_operation_ctx *ctx);
bool vseg_bo_in_place(struct vseg_bo *vbo, bool physical);
int vseg_bo_make_displayable(struct vseg_bo *vbo, bool *moved,
			     struct ttm_operation_ctx *ctx);
int vseg_bo_commit_for_gpu(struct vseg_bo *vbo, struct ttm_operation_ctx *ctx);
void vseg_bo_unmap_aperture(struct vseg_bo *vbo);
bool vseg_bo_phys_addr(struct vseg_bo *vbo, u32 *seg, u64 *offset);
int vseg_bo_pin_shared(struct vseg_bo *vbo);
void vseg_bo_unpin_shared(struct vseg_bo *vbo);

#endif /* __VSEG_BO_H__ */
