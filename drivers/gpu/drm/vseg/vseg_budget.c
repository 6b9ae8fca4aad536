// SPDX-License-Identifier: GPL-2.0-only
/*
 * Copyright (c) 2026 The vseg authors
 *
 * WDDM's residency budgets (see "Residency and budgets" in
 * Documentation/gpu/vseg.rst). A budget group is a set of segments: the
 * local group, the memory segments flagged ApplicationTarget and
 * LocalBudgetGroup; the non-local group, those flagged NonLocalBudgetGroup
 * (the aperture). Per process (every file it opened, as the limits of
 * vseg_limits.c) and group:
 *
 * - CurrentUsage: bytes of the process's buffers resident in the group's
 *   segments, counted where a buffer's placement is accounted
 *   (vseg_bo_update_state(), after every TTM move) as a
 *   %VSEG_LIMIT_RESIDENT charge per segment;
 * - CurrentReservation: what it reserved (SET_RESERVATION);
 * - Budget: its reservation plus a share of what no process reserved:
 *   equal shares for the users with processes active in the group (with
 *   resident buffers or a reservation there, the asking one always
 *   counted), each user's share split equally among its active
 *   processes, so that a user does not multiply its share by forking;
 * - AvailableForReservation: %VSEG_BUDGET_RESERVABLE_PERCENT of the group
 *   less what the other processes reserved.
 *
 * Up to its reservation, a process's buffers are not evicted to make room
 * for another process (vseg_budget_protects(), from TTM's
 * eviction_valuable callback). The records live in &struct vseg_limits;
 * everything here runs under its lock, walking the process records: they
 * are few (one per process with the device open).
 */

#include <linux/hrtimer.h>
#include <linux/ktime.h>
#include <linux/math64.h>
#include <linux/moduleparam.h>
#include <linux/pid.h>
#include <linux/sched.h>
#include <linux/sched/signal.h>
#include <linux/slab.h>
#include <drm/drm_device.h>
#include <drm/drm_file.h>
#include <drm/drm_print.h>
#include <drm/ttm/ttm_resource.h>
#include <uapi/drm/vseg_drm.h>
#include <kunit/visibility.h>

#include "vseg_budget.h"
#include "vseg_segment.h"

static bool budget_policy = true;
module_param(budget_policy, bool, 0644);
MODULE_PARM_DESC(budget_policy,
		 "Residency budgets steer eviction (reservations protect; default on); off: plain TTM least-recently-used eviction");

/*
 * The paging a process over its budget causes is paid for in time: the
 * rate, in MiB/s, at which its transactions may page. WDDM's memory
 * manager allows itself such performance penalties on a process over its
 * budget, to keep the others' use of the GPU fair. amdgpu throttles the
 * moves of command submissions by bytes over time too; no DRM helper does
 * this for a driver.
 */
static unsigned int budget_paging_mbps = 16;
module_param(budget_paging_mbps, uint, 0644);
MODULE_PARM_DESC(budget_paging_mbps,
		 "MiB/s of paging a process over its budget may cause: its next submission or MAKE_RESIDENT waits (default 16; 0: no penalty)");

/* The longest one transaction's paging makes the next one wait. */
#define VSEG_BUDGET_PENALTY_MAX_NS	NSEC_PER_SEC

/**
 * vseg_budget_policy_on() - do budgets steer eviction
 *
 * Return: the budget_policy module parameter. Budgets and usage are
 * reported either way.
 */
bool vseg_budget_policy_on(void)
{
	return READ_ONCE(budget_policy);
}

/**
 * vseg_budget_lru_priority() - the TTM LRU a residency priority puts a
 * buffer on
 * @priority: the buffer's residency priority (D3D12's scale)
 * @policy: vseg_budget_policy_on()
 *
 * TTM evicts from its LRU lists lowest first (&ttm_buffer_object.priority,
 * below TTM_MAX_BO_PRIORITY, which is 4 on every supported kernel), least
 * recently used first within one; a walk asks eviction_valuable about
 * each buffer. List 0 is kept for offered buffers, the first to go; the
 * three others are the three classes of priority: below NORMAL, NORMAL
 * up to HIGH, HIGH and above. TTM's lists are where the order is kept:
 * a finer order would need a walk of vseg's own.
 *
 * Return: 1, 2 or 3; 2 for every buffer with the policy off.
 */
unsigned int vseg_budget_lru_priority(u32 priority, bool policy)
{
	BUILD_BUG_ON(TTM_MAX_BO_PRIORITY < 4);
	if (!policy)
		return 2;
	if (priority < VSEG_PRIORITY_NORMAL)
		return 1;
	return priority < VSEG_PRIORITY_HIGH ? 2 : 3;
}
EXPORT_SYMBOL_IF_KUNIT(vseg_budget_lru_priority);

/**
 * struct vseg_budget_waiter - a file waiting for its budget to change
 * @base: DRM's pending event (first: DRM frees it with kfree()).
 * @event: the event sent.
 * @link: in &vseg_limits.budget_waiters.
 * @client: the file's limits client (a reference): its process.
 * @file: the file.
 * @drm: the device.
 * @budget: the process's budgets when the file asked.
 */
struct vseg_budget_waiter {
	struct drm_pending_event base;
	struct drm_vseg_event_budget event;
	struct list_head link;
	struct vseg_limits_client *client;
	struct drm_file *file;
	struct drm_device *drm;
	u64 budget[VSEG_BUDGET_NUM_GROUPS];
};

static void query_locked(struct vseg_limits *l, struct vseg_limit_rec *me,
			 u32 g, struct vseg_budget_info *info);

/* Under the lock: the budgets of @me's process now. */
static void budgets_locked(struct vseg_limits *l, struct vseg_limit_rec *me,
			   u64 *budget)
{
	struct vseg_budget_info info;
	u32 g;

	for (g = 0; g < VSEG_BUDGET_NUM_GROUPS; g++) {
		query_locked(l, me, g, &info);
		budget[g] = info.budget;
	}
}

/*
 * The waiters whose process's budget changed get their event; the work
 * runs after anything that may change a budget (vseg_budget_changed()).
 */
static void budget_work(struct work_struct *work)
{
	struct vseg_limits *l = container_of(work, typeof(*l), budget_work);
	struct vseg_budget_waiter *w, *tmp;
	u64 now[VSEG_BUDGET_NUM_GROUPS];
	unsigned long flags;
	LIST_HEAD(done);
	u32 g;

	spin_lock_irqsave(&l->lock, flags);
	list_for_each_entry_safe(w, tmp, &l->budget_waiters, link) {
		budgets_locked(l, w->client->proc, now);
		if (!memcmp(now, w->budget, sizeof(now)))
			continue;
		for (g = 0; g < VSEG_BUDGET_NUM_GROUPS; g++)
			w->event.budget[g] = now[g];
		list_move_tail(&w->link, &done);
	}
	spin_unlock_irqrestore(&l->lock, flags);

	list_for_each_entry_safe(w, tmp, &done, link) {
		list_del(&w->link);
		vseg_limits_client_put(w->client);
		/* DRM owns it from here on (freed once read). */
		drm_send_event(w->drm, &w->base);
	}
}

/**
 * vseg_budget_changed() - something a budget depends on changed
 * @l: the device's limits
 *
 * A process's residency in a group, a reservation, a file closed: the
 * waiters' budgets are compared (in a work item) if there are any.
 */
void vseg_budget_changed(struct vseg_limits *l)
{
	if (!list_empty_careful(&l->budget_waiters))
		schedule_work(&l->budget_work);
}

/**
 * vseg_budget_notify() - DRM_IOCTL_VSEG_BUDGET_NOTIFY
 * @c: the file's limits client
 * @file: the file, which gets the event
 * @user_data: copied into the event
 *
 * Return: 0, -EBUSY if the file waits already, -ENOMEM (no memory, or no
 * room in the file's event space).
 */
int vseg_budget_notify(struct vseg_limits_client *c, struct drm_file *file,
		       u64 user_data)
{
	struct vseg_limits *l = c->limits;
	struct vseg_budget_waiter *w, *o;
	unsigned long flags;
	int err;

	w = kzalloc(sizeof(*w), GFP_KERNEL_ACCOUNT);
	if (!w)
		return -ENOMEM;
	w->event.base.type = DRM_VSEG_EVENT_BUDGET;
	w->event.base.length = sizeof(w->event);
	w->event.user_data = user_data;
	w->file = file;
	w->drm = file->minor->dev;
	err = drm_event_reserve_init(w->drm, file, &w->base, &w->event.base);
	if (err) {
		kfree(w);
		return err;
	}
	w->client = vseg_limits_client_get(c);

	spin_lock_irqsave(&l->lock, flags);
	list_for_each_entry(o, &l->budget_waiters, link)
		if (o->file == file)
			err = -EBUSY;
	if (!err) {
		budgets_locked(l, c->proc, w->budget);
		list_add_tail(&w->link, &l->budget_waiters);
	}
	spin_unlock_irqrestore(&l->lock, flags);
	if (err) {
		vseg_limits_client_put(w->client);
		drm_event_cancel_free(w->drm, &w->base);
	}
	return err;
}

/**
 * vseg_budget_notify_cancel() - a file is closed: its wait ends
 * @l: the device's limits
 * @file: the file
 */
void vseg_budget_notify_cancel(struct vseg_limits *l, struct drm_file *file)
{
	struct vseg_budget_waiter *w, *tmp;
	unsigned long flags;
	LIST_HEAD(gone);

	spin_lock_irqsave(&l->lock, flags);
	list_for_each_entry_safe(w, tmp, &l->budget_waiters, link)
		if (w->file == file)
			list_move_tail(&w->link, &gone);
	spin_unlock_irqrestore(&l->lock, flags);
	list_for_each_entry_safe(w, tmp, &gone, link) {
		list_del(&w->link);
		vseg_limits_client_put(w->client);
		drm_event_cancel_free(w->drm, &w->base);
	}
}

/**
 * vseg_budget_fini() - the device goes: no comparison runs any more
 * @l: the device's limits (every file closed)
 */
void vseg_budget_fini(struct vseg_limits *l)
{
	cancel_work_sync(&l->budget_work);
}

/**
 * vseg_budget_init() - the budget groups of a device's segments
 * @l: the device's limits (vseg_limits_init() done)
 * @flags: VSEG_SEGF_* of each segment, by id (slot 0, system memory, is
 *	in no group)
 * @size: bytes each segment adds to its group: a memory segment's size,
 *	the aperture's commit limit
 * @num_slots: entries in @flags and @size
 */
void vseg_budget_init(struct vseg_limits *l, const u64 *flags,
		      const u64 *size, u32 num_slots)
{
	u32 i;

	INIT_WORK(&l->budget_work, budget_work);
	for (i = 1; i < num_slots && i < VSEG_LIMIT_SLOTS; i++) {
		u8 g = VSEG_BUDGET_NONE;

		if (!(flags[i] & VSEG_SEGF_APERTURE) &&
		    (flags[i] & VSEG_SEGF_APPLICATION_TARGET) &&
		    (flags[i] & VSEG_SEGF_LOCAL_BUDGET_GROUP))
			g = VSEG_BUDGET_LOCAL;
		else if (flags[i] & VSEG_SEGF_NON_LOCAL_BUDGET_GROUP)
			g = VSEG_BUDGET_NON_LOCAL;
		l->seg_group[i] = g;
		if (g != VSEG_BUDGET_NONE)
			l->group_size[g] += size[i];
	}
}
EXPORT_SYMBOL_IF_KUNIT(vseg_budget_init);

/**
 * vseg_budget_of() - a process's budget in a group
 * @size: bytes of the group
 * @reserved_all: what every process reserved there, the asking one's
 *	included (at most @size)
 * @own_reservation: what the asking process reserved
 * @users: users with processes active in the group, the asking one's
 *	included (>= 1)
 * @procs: its user's processes active there, the asking one included (>= 1)
 *
 * Return: @own_reservation plus its share of the unreserved bytes: an
 * equal share per user, split equally among the user's processes.
 */
u64 vseg_budget_of(u64 size, u64 reserved_all, u64 own_reservation,
		   u32 users, u32 procs)
{
	u64 free = size > reserved_all ? size - reserved_all : 0;

	return own_reservation +
	       div_u64(div_u64(free, max(users, 1u)), max(procs, 1u));
}
EXPORT_SYMBOL_IF_KUNIT(vseg_budget_of);

/**
 * vseg_budget_reservable() - what a process may reserve in a group
 * @size: bytes of the group
 * @reserved_others: what the other processes reserved there
 *
 * Return: %VSEG_BUDGET_RESERVABLE_PERCENT of @size less @reserved_others,
 * 0 if they took it all; the process's own reservation is within it.
 */
u64 vseg_budget_reservable(u64 size, u64 reserved_others)
{
	u64 cap = mul_u64_u32_div(size, VSEG_BUDGET_RESERVABLE_PERCENT, 100);

	return cap > reserved_others ? cap - reserved_others : 0;
}
EXPORT_SYMBOL_IF_KUNIT(vseg_budget_reservable);

/* Under the lock: a process's resident bytes in group @g. */
static u64 rec_usage(struct vseg_limits *l, const struct vseg_limit_rec *r,
		     u32 g)
{
	u64 n = 0;
	u32 i;

	for (i = 1; i < VSEG_LIMIT_SLOTS; i++)
		if (l->seg_group[i] == g)
			n += r->usage.used[VSEG_LIMIT_RESIDENT][i];
	return n;
}

/* Under the lock: a new mark for user and process records, never 0. */
static void next_mark(struct vseg_limits *l)
{
	lockdep_assert_held(&l->lock);
	if (!++l->marks)
		l->marks++;
}

/*
 * Under the lock: count the processes active in group @g (a reservation
 * or resident bytes there) by user, for budget_locked(). Each active
 * user's record gets a new mark and its number of active processes. A
 * process whose recorded user has no record left (it changed its uid and
 * the files it opened under the first one are gone) counts as a user of
 * its own.
 *
 * Return: the active users; *@reserved_all receives what every process
 * reserved in @g.
 */
static u32 count_active(struct vseg_limits *l, u32 g, u64 *reserved_all)
{
	struct vseg_limit_rec *r, *u;
	u32 users = 0, bkt;

	lockdep_assert_held(&l->lock);
	next_mark(l);
	*reserved_all = 0;
	hash_for_each(l->procs, bkt, r, node) {
		*reserved_all += r->reservation[g];
		if (!r->reservation[g] && !rec_usage(l, r, g))
			continue;
		u = vseg_limits_find_user(l, r->uid);
		if (!u) {
			users++;
			continue;
		}
		if (u->mark != l->marks) {
			u->mark = l->marks;
			u->active = 0;
			users++;
		}
		u->active++;
	}
	return users;
}

/*
 * Under the lock, right after count_active() returned @users: @r's Budget
 * in @g, given its resident bytes there. A process not active there is
 * counted as if it were, since its budget is what it would get by using
 * the group.
 */
static u64 budget_locked(struct vseg_limits *l, const struct vseg_limit_rec *r,
			 u32 g, u64 usage, u64 reserved_all, u32 users)
{
	const struct vseg_limit_rec *u = vseg_limits_find_user(l, r->uid);
	bool active = r->reservation[g] || usage;
	u32 procs = 1;

	if (u && u->mark == l->marks)
		procs = u->active + !active;
	else if (!active)
		users++;
	return vseg_budget_of(l->group_size[g], reserved_all,
			      r->reservation[g], users, procs);
}

/* Under the lock: @me's view of group @g. */
static void query_locked(struct vseg_limits *l, struct vseg_limit_rec *me,
			 u32 g, struct vseg_budget_info *info)
{
	u64 reserved_all;
	u32 users = count_active(l, g, &reserved_all);

	info->size = l->group_size[g];
	info->usage = rec_usage(l, me, g);
	info->reservation = me->reservation[g];
	info->budget = budget_locked(l, me, g, info->usage, reserved_all,
				     users);
	info->available = vseg_budget_reservable(info->size,
						 reserved_all -
						 info->reservation);
}

/**
 * vseg_budget_query() - a process's budget, usage and reservation
 * @c: a client of the process (any of its files)
 * @group: &enum vseg_budget_group, below %VSEG_BUDGET_NUM_GROUPS
 * @info: receives the figures (all 0 for a group with no segments)
 */
void vseg_budget_query(struct vseg_limits_client *c, u32 group,
		       struct vseg_budget_info *info)
{
	struct vseg_limits *l = c->limits;
	unsigned long flags;

	memset(info, 0, sizeof(*info));
	if (group >= VSEG_BUDGET_NUM_GROUPS)
		return;
	spin_lock_irqsave(&l->lock, flags);
	query_locked(l, c->proc, group, info);
	spin_unlock_irqrestore(&l->lock, flags);
}
EXPORT_SYMBOL_IF_KUNIT(vseg_budget_query);

/**
 * vseg_budget_cap() - bound a process's budget by what it may hold at most
 * @info: its figures (vseg_budget_query())
 * @limit: the most bytes it may keep resident in the group, its usage
 *	included (its dmem cgroup's room: vseg_dmem.c)
 *
 * Budget and AvailableForReservation become at most @limit.
 */
void vseg_budget_cap(struct vseg_budget_info *info, u64 limit)
{
	info->budget = min(info->budget, limit);
	info->available = min(info->available, limit);
}
EXPORT_SYMBOL_IF_KUNIT(vseg_budget_cap);

/**
 * vseg_budget_set_reservation() - SetVideoMemoryReservation
 * @c: a client of the process (any of its files)
 * @group: &enum vseg_budget_group
 * @bytes: the process's new reservation there (0 drops it)
 *
 * The reservation is the process's, whichever of its files sets it, and
 * goes when its last file is closed.
 *
 * Return: 0; -EINVAL for an unknown group; -ENOSPC (nothing changed) for
 * more than AvailableForReservation.
 */
int vseg_budget_set_reservation(struct vseg_limits_client *c, u32 group,
				u64 bytes)
{
	struct vseg_budget_info info;
	struct vseg_limits *l = c->limits;
	unsigned long flags;
	int err = -ENOSPC;

	if (group >= VSEG_BUDGET_NUM_GROUPS)
		return -EINVAL;
	spin_lock_irqsave(&l->lock, flags);
	query_locked(l, c->proc, group, &info);
	if (bytes <= info.available) {
		c->proc->reservation[group] = bytes;
		err = 0;
	}
	spin_unlock_irqrestore(&l->lock, flags);
	if (!err)
		vseg_budget_changed(l);
	return err;
}
EXPORT_SYMBOL_IF_KUNIT(vseg_budget_set_reservation);

/* The budget group of @owner's buffer in @seg, if the policy applies. */
static u32 policy_group(struct vseg_limits_client *owner, u32 seg)
{
	if (!owner || seg >= VSEG_LIMIT_SLOTS || !vseg_budget_policy_on())
		return VSEG_BUDGET_NONE;
	return owner->limits->seg_group[seg];
}

/**
 * vseg_budget_protects() - does a reservation keep a buffer where it is
 * @owner: the client of the file that created the buffer, or NULL
 * @seg: the segment it is resident in
 * @size: its size
 *
 * Called when TTM considers evicting the buffer for whoever is running
 * (TTM does not tell on whose behalf it evicts; the caller's process is
 * the one asking for room, a kernel worker counts as another process).
 * The owner's own process may evict it.
 *
 * Return: true if the buffer belongs to another process whose resident
 * bytes in the segment's group would drop below its reservation.
 */
bool vseg_budget_protects(struct vseg_limits_client *owner, u32 seg,
			  u64 size)
{
	u32 g = policy_group(owner, seg);
	struct vseg_limit_rec *r;
	struct vseg_limits *l;
	unsigned long flags;
	bool protect = false;

	if (g == VSEG_BUDGET_NONE)
		return false;
	l = owner->limits;
	r = owner->proc;
	if (r->pid == task_tgid(current))
		return false;
	spin_lock_irqsave(&l->lock, flags);
	if (r->reservation[g]) {
		u64 used = rec_usage(l, r, g);

		protect = used < size || used - size < r->reservation[g];
	}
	spin_unlock_irqrestore(&l->lock, flags);
	return protect;
}
EXPORT_SYMBOL_IF_KUNIT(vseg_budget_protects);

/**
 * vseg_budget_mark_over() - mark the processes over their budget
 * @l: the device's limits
 * @seg: a segment; its budget group is the one looked at
 *
 * Every process's Budget in one pass over the records (as
 * vseg_budget_query() computes it for one), for a walk over many buffers
 * that wants the over-budget ones (trim_over_budget() in vseg_bo.c): it
 * then asks vseg_budget_marked_over(), without the lock. The counting is
 * the query's own (count_active(), budget_locked()), so both agree.
 *
 * Return: the mark, or 0 if no process is over its budget there, the
 * segment is in no budget group or the policy is off.
 */
u32 vseg_budget_mark_over(struct vseg_limits *l, u32 seg)
{
	struct vseg_limit_rec *r;
	u64 reserved_all, usage;
	u32 g, users, bkt, mark, n = 0;
	unsigned long flags;

	if (seg >= VSEG_LIMIT_SLOTS || !vseg_budget_policy_on())
		return 0;
	g = l->seg_group[seg];
	if (g == VSEG_BUDGET_NONE)
		return 0;
	spin_lock_irqsave(&l->lock, flags);
	users = count_active(l, g, &reserved_all);
	mark = l->marks;
	hash_for_each(l->procs, bkt, r, node) {
		usage = rec_usage(l, r, g);
		if (usage > budget_locked(l, r, g, usage, reserved_all,
					  users)) {
			WRITE_ONCE(r->over_mark, mark);
			n++;
		}
	}
	spin_unlock_irqrestore(&l->lock, flags);
	return n ? mark : 0;
}
EXPORT_SYMBOL_IF_KUNIT(vseg_budget_mark_over);

/**
 * vseg_budget_marked_over() - was a buffer's process over its budget
 * @owner: the client of the file that created the buffer, or NULL
 * @mark: what vseg_budget_mark_over() returned
 *
 * Return: true if that call found the process over its budget. A hint:
 * vseg_budget_over() says whether it still is.
 */
bool vseg_budget_marked_over(struct vseg_limits_client *owner, u32 mark)
{
	return mark && owner && READ_ONCE(owner->proc->over_mark) == mark;
}
EXPORT_SYMBOL_IF_KUNIT(vseg_budget_marked_over);

/**
 * vseg_budget_over() - is a buffer's process over its budget
 * @owner: the client of the file that created the buffer, or NULL
 * @seg: the segment the buffer is resident in
 *
 * Memory pressure takes the buffers of processes over their budget in the
 * segment's group before any other (trim_over_budget() in vseg_bo.c).
 *
 * Return: true if the policy is on, the segment is in a budget group and
 * the process holds more there than its Budget.
 */
bool vseg_budget_over(struct vseg_limits_client *owner, u32 seg)
{
	u32 g = policy_group(owner, seg);
	struct vseg_budget_info info;
	struct vseg_limits *l;
	unsigned long flags;

	if (g == VSEG_BUDGET_NONE)
		return false;
	l = owner->limits;
	spin_lock_irqsave(&l->lock, flags);
	query_locked(l, owner->proc, g, &info);
	spin_unlock_irqrestore(&l->lock, flags);
	return info.usage > info.budget;
}
EXPORT_SYMBOL_IF_KUNIT(vseg_budget_over);

/* Under the lock: is @r over its budget in some group? */
static bool over_any_locked(struct vseg_limits *l, struct vseg_limit_rec *r)
{
	struct vseg_budget_info info;
	u32 g;

	for (g = 0; g < VSEG_BUDGET_NUM_GROUPS; g++) {
		if (!l->group_size[g])
			continue;
		query_locked(l, r, g, &info);
		if (info.usage > info.budget)
			return true;
	}
	return false;
}

/**
 * vseg_budget_penalty_ns() - how long a process waits for paging it caused
 * @bytes: bytes its transaction moved
 * @mbps: the rate it may page at, MiB/s (1 to U16_MAX)
 *
 * Return: @bytes at @mbps, in ns, at most %VSEG_BUDGET_PENALTY_MAX_NS.
 */
u64 vseg_budget_penalty_ns(u64 bytes, u32 mbps)
{
	u64 us = mul_u64_u32_div(bytes, USEC_PER_SEC >> 4, mbps << 16);

	return min_t(u64, us, VSEG_BUDGET_PENALTY_MAX_NS / NSEC_PER_USEC) *
	       NSEC_PER_USEC;
}
EXPORT_SYMBOL_IF_KUNIT(vseg_budget_penalty_ns);

/* A counter of a record, read under the limits' lock. */
static u64 read_locked(struct vseg_limits *l, const u64 *v)
{
	unsigned long flags;
	u64 n;

	spin_lock_irqsave(&l->lock, flags);
	n = *v;
	spin_unlock_irqrestore(&l->lock, flags);
	return n;
}

/**
 * vseg_budget_moved_in() - one of a process's buffers moved into a segment
 * @owner: the client that created the buffer
 * @bytes: its size
 *
 * Called for each move of a buffer into a memory segment or the aperture
 * (vseg_bo_update_state()), not for its creation there: the process's
 * paging, which vseg_budget_paged() charges.
 */
void vseg_budget_moved_in(struct vseg_limits_client *owner, u64 bytes)
{
	struct vseg_limits *l = owner->limits;
	unsigned long flags;

	spin_lock_irqsave(&l->lock, flags);
	owner->proc->paged_in += bytes;
	spin_unlock_irqrestore(&l->lock, flags);
}
EXPORT_SYMBOL_IF_KUNIT(vseg_budget_moved_in);

/**
 * vseg_budget_paged_in() - the bytes a process paged in so far
 * @c: a client of the process
 *
 * Return: the sum of vseg_budget_moved_in() for its buffers, for
 * vseg_budget_paged() after a transaction.
 */
u64 vseg_budget_paged_in(struct vseg_limits_client *c)
{
	return read_locked(c->limits, &c->proc->paged_in);
}
EXPORT_SYMBOL_IF_KUNIT(vseg_budget_paged_in);

/**
 * vseg_budget_paged() - a process's transaction is done
 * @c: a client of the process
 * @before: vseg_budget_paged_in() before it
 *
 * What the process's buffers moved into the segments meanwhile is its
 * paging (its own buffers it pushed out to make room come back later, and
 * count then). If it is over its budget in a group afterwards, its next
 * transaction waits (vseg_budget_throttle()) until those bytes at
 * budget_paging_mbps have passed, after any wait already owed: the
 * penalty is per process, whichever of its files pages. A process within
 * its budget, or the policy off, pays nothing.
 */
void vseg_budget_paged(struct vseg_limits_client *c, u64 before)
{
	u32 mbps = READ_ONCE(budget_paging_mbps);
	struct vseg_limits *l = c->limits;
	struct vseg_limit_rec *r = c->proc;
	unsigned long flags;
	u64 bytes, now, ns;

	if (!mbps || !vseg_budget_policy_on())
		return;
	/* vseg_budget_penalty_ns() divides by @mbps << 16, in 32 bits. */
	mbps = min(mbps, U16_MAX);
	spin_lock_irqsave(&l->lock, flags);
	bytes = r->paged_in - before;
	if (bytes && over_any_locked(l, r)) {
		ns = vseg_budget_penalty_ns(bytes, mbps);
		now = ktime_get_ns();
		/* vseg_budget_throttle() reads it without the lock. */
		WRITE_ONCE(r->penalty_until,
			   min(max(r->penalty_until, now) + ns,
			       now + VSEG_BUDGET_PENALTY_MAX_NS));
		r->penalty_ns += ns;
	}
	spin_unlock_irqrestore(&l->lock, flags);
}
EXPORT_SYMBOL_IF_KUNIT(vseg_budget_paged);

/**
 * vseg_budget_throttle() - wait out the penalty a process owes
 * @c: a client of the process, about to start a transaction
 *
 * Return: 0, or -ERESTARTSYS if a signal came first (nothing was done:
 * the ioctl restarts and waits out the rest).
 */
int vseg_budget_throttle(struct vseg_limits_client *c)
{
	u64 until = READ_ONCE(c->proc->penalty_until);
	ktime_t t;

	while (until > ktime_get_ns()) {
		t = ns_to_ktime(until);
		set_current_state(TASK_INTERRUPTIBLE);
		schedule_hrtimeout(&t, HRTIMER_MODE_ABS);
		if (signal_pending(current))
			return -ERESTARTSYS;
		until = READ_ONCE(c->proc->penalty_until);
	}
	return 0;
}
EXPORT_SYMBOL_IF_KUNIT(vseg_budget_throttle);

/**
 * vseg_budget_penalty() - the time a process's paging cost it so far
 * @c: a client of the process
 *
 * Return: ns of waits vseg_budget_paged() imposed on the process, for
 * fdinfo.
 */
u64 vseg_budget_penalty(struct vseg_limits_client *c)
{
	return read_locked(c->limits, &c->proc->penalty_ns);
}
EXPORT_SYMBOL_IF_KUNIT(vseg_budget_penalty);
