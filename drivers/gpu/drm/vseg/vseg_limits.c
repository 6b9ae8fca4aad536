// SPDX-License-Identifier: GPL-2.0-only
/*
 * Copyright (c) 2026 The vseg authors
 *
 * Bounds on what clients tie up, per process, per user and per device
 * (see "Security model" in Documentation/gpu/vseg.rst). A bound per open
 * file would multiply with open(): a process opening the render node twice
 * would get twice the share, so the charges of a file go to the process
 * that opened it, to that process's user and to the device, and a charge
 * that would take any of the three past its bound fails as a whole.
 *
 * Each device has one &struct vseg_limits: the bounds, the device's
 * charges, and a record per process and per user with files open
 * (refcounted by their files, found or created at open). Each file gets a
 * &struct vseg_limits_client naming its records. A kind of charge
 * (&enum vseg_limit_kind) has a counter per slot: pinned bytes have one
 * per segment, jobs in flight and VM mappings one. Charges and uncharges
 * are O(1) under one irq-safe spinlock.
 *
 * The pin bounds come from three module parameters, shares of each
 * segment's capacity (a memory segment's size, the aperture's commit
 * limit, half of RAM for system memory): the process share, the user share
 * and the device share, each wider scope at least the narrower one's.
 */

#include <linux/cred.h>
#include <linux/math64.h>
#include <linux/moduleparam.h>
#include <linux/pid.h>
#include <linux/sched.h>
#include <linux/sched/signal.h>
#include <linux/slab.h>
#include <kunit/visibility.h>

#include "vseg_limits.h"

static unsigned int pin_limit_percent = 50;
module_param(pin_limit_percent, uint, 0444);
MODULE_PARM_DESC(pin_limit_percent,
		 "Most of each segment the files of one process may pin together, in percent (default 50)");

static unsigned int pin_user_limit_percent = 75;
module_param(pin_user_limit_percent, uint, 0444);
MODULE_PARM_DESC(pin_user_limit_percent,
		 "Most of each segment the processes of one user may pin together, in percent (default 75; never below pin_limit_percent)");

static unsigned int pin_device_limit_percent = 90;
module_param(pin_device_limit_percent, uint, 0444);
MODULE_PARM_DESC(pin_device_limit_percent,
		 "Most of each segment all clients may pin together, in percent (default 90; never below the user share)");

static unsigned int jobs_user_limit = 256;
module_param(jobs_user_limit, uint, 0444);
MODULE_PARM_DESC(jobs_user_limit,
		 "Most jobs not finished the processes of one user may have together (default 256; a process may have 64)");

static unsigned int jobs_device_limit = 4096;
module_param(jobs_device_limit, uint, 0444);
MODULE_PARM_DESC(jobs_device_limit,
		 "Most jobs not finished all clients may have together (default 4096)");

static unsigned int vm_mappings_user_limit = 16384;
module_param(vm_mappings_user_limit, uint, 0444);
MODULE_PARM_DESC(vm_mappings_user_limit,
		 "Most GPU virtual address mappings the processes of one user may have together (default 16384; a process may have 4096)");

static unsigned int vm_mappings_device_limit = 262144;
module_param(vm_mappings_device_limit, uint, 0444);
MODULE_PARM_DESC(vm_mappings_device_limit,
		 "Most GPU virtual address mappings all clients may have together (default 262144)");

/**
 * vseg_limits_init_counts() - the bounds of jobs and mappings
 * @l: the limits
 * @jobs: jobs not finished one process may have
 * @mappings: GPU virtual address mappings one process may have, in all
 *	its files' address spaces
 *
 * Per user and for the device, the module parameters, never below the
 * narrower scope's bound.
 */
void vseg_limits_init_counts(struct vseg_limits *l, u64 jobs, u64 mappings)
{
	u64 user;

	user = max_t(u64, jobs_user_limit, jobs);
	vseg_limits_set_max(l, VSEG_LIMIT_PROCESS, VSEG_LIMIT_JOBS, 0, jobs);
	vseg_limits_set_max(l, VSEG_LIMIT_USER, VSEG_LIMIT_JOBS, 0, user);
	vseg_limits_set_max(l, VSEG_LIMIT_DEVICE, VSEG_LIMIT_JOBS, 0,
			    max_t(u64, jobs_device_limit, user));
	user = max_t(u64, vm_mappings_user_limit, mappings);
	vseg_limits_set_max(l, VSEG_LIMIT_PROCESS, VSEG_LIMIT_VM_MAPPINGS, 0,
			    mappings);
	vseg_limits_set_max(l, VSEG_LIMIT_USER, VSEG_LIMIT_VM_MAPPINGS, 0,
			    user);
	vseg_limits_set_max(l, VSEG_LIMIT_DEVICE, VSEG_LIMIT_VM_MAPPINGS, 0,
			    max_t(u64, vm_mappings_device_limit, user));
}

/**
 * vseg_limits_pin_percents() - the shares of a segment clients may pin
 * @pct: receives the process, user and device shares, in percent
 *	(indexed by &enum vseg_limit_scope)
 *
 * The module parameters, at most 100 each, every scope at least the
 * narrower one's: raising the process share raises the others with it.
 */
void vseg_limits_pin_percents(unsigned int pct[VSEG_LIMIT_NUM_SCOPES])
{
	pct[VSEG_LIMIT_PROCESS] = min(pin_limit_percent, 100u);
	pct[VSEG_LIMIT_USER] = clamp(pin_user_limit_percent,
				     pct[VSEG_LIMIT_PROCESS], 100u);
	pct[VSEG_LIMIT_DEVICE] = clamp(pin_device_limit_percent,
				       pct[VSEG_LIMIT_USER], 100u);
}
EXPORT_SYMBOL_IF_KUNIT(vseg_limits_pin_percents);

/**
 * vseg_limits_share() - a share of a capacity
 * @capacity: bytes (or any count)
 * @percent: 0..100
 *
 * Return: @capacity * @percent / 100, rounded down, without overflow.
 */
u64 vseg_limits_share(u64 capacity, unsigned int percent)
{
	percent = min(percent, 100u);
	return mul_u64_u32_div(capacity, percent, 100);
}
EXPORT_SYMBOL_IF_KUNIT(vseg_limits_share);

/**
 * vseg_limits_fits() - may a counter take a charge
 * @used: what it holds
 * @amount: the charge
 * @max: its bound
 *
 * Return: true if @used + @amount does not exceed @max (never wrapping).
 */
bool vseg_limits_fits(u64 used, u64 amount, u64 max)
{
	return used <= max && amount <= max - used;
}
EXPORT_SYMBOL_IF_KUNIT(vseg_limits_fits);

/**
 * vseg_limits_init() - a device's limits, bounding nothing yet
 * @l: the limits
 */
void vseg_limits_init(struct vseg_limits *l)
{
	u32 s, k, i;

	memset(l, 0, sizeof(*l));
	spin_lock_init(&l->lock);
	hash_init(l->procs);
	hash_init(l->users);
	memset(l->seg_group, VSEG_BUDGET_NONE, sizeof(l->seg_group));
	INIT_LIST_HEAD(&l->budget_waiters);
	for (s = 0; s < VSEG_LIMIT_NUM_SCOPES; s++)
		for (k = 0; k < VSEG_LIMIT_NUM_KINDS; k++)
			for (i = 0; i < VSEG_LIMIT_SLOTS; i++)
				l->max[s][k][i] = U64_MAX;
}
EXPORT_SYMBOL_IF_KUNIT(vseg_limits_init);

/**
 * vseg_limits_set_max() - set one bound
 * @l: the limits
 * @scope: whose charges it bounds
 * @kind: what it bounds
 * @slot: which counter of @kind (a segment id for %VSEG_LIMIT_PIN, else 0)
 * @max: the bound; U64_MAX for none
 *
 * A bound lowered below what is charged already refuses new charges until
 * enough are dropped; nothing is taken back.
 */
void vseg_limits_set_max(struct vseg_limits *l, enum vseg_limit_scope scope,
			 enum vseg_limit_kind kind, u32 slot, u64 max)
{
	unsigned long flags;

	if (WARN_ON(scope >= VSEG_LIMIT_NUM_SCOPES ||
		    kind >= VSEG_LIMIT_NUM_KINDS || slot >= VSEG_LIMIT_SLOTS))
		return;
	spin_lock_irqsave(&l->lock, flags);
	l->max[scope][kind][slot] = max;
	spin_unlock_irqrestore(&l->lock, flags);
}
EXPORT_SYMBOL_IF_KUNIT(vseg_limits_set_max);

/**
 * vseg_limits_get_max() - one bound
 * @l: the limits
 * @scope: whose charges it bounds
 * @kind: what it bounds
 * @slot: which counter of @kind
 *
 * Return: the bound, U64_MAX for none.
 */
u64 vseg_limits_get_max(struct vseg_limits *l, enum vseg_limit_scope scope,
			enum vseg_limit_kind kind, u32 slot)
{
	if (scope >= VSEG_LIMIT_NUM_SCOPES || kind >= VSEG_LIMIT_NUM_KINDS ||
	    slot >= VSEG_LIMIT_SLOTS)
		return 0;
	return READ_ONCE(l->max[scope][kind][slot]);
}
EXPORT_SYMBOL_IF_KUNIT(vseg_limits_get_max);

/**
 * vseg_limits_init_pins() - the pin bounds of every segment
 * @l: the limits
 * @capacity: what each slot could ever pin, bytes: a memory segment's
 *	size, the aperture's commit limit, half of RAM for slot 0
 * @num_slots: entries in @capacity (the segments and system memory)
 *
 * Each scope's bound is its share (vseg_limits_pin_percents()) of the
 * capacity.
 */
void vseg_limits_init_pins(struct vseg_limits *l, const u64 *capacity,
			   u32 num_slots)
{
	unsigned int pct[VSEG_LIMIT_NUM_SCOPES];
	u32 s, i;

	vseg_limits_pin_percents(pct);
	for (i = 0; i < num_slots && i < VSEG_LIMIT_SLOTS; i++)
		for (s = 0; s < VSEG_LIMIT_NUM_SCOPES; s++)
			vseg_limits_set_max(l, s, VSEG_LIMIT_PIN, i,
					    vseg_limits_share(capacity[i],
							      pct[s]));
}

static struct vseg_limit_rec *find_proc_rec(struct vseg_limits *l,
					    struct pid *pid)
{
	struct vseg_limit_rec *r;

	hash_for_each_possible(l->procs, r, node, (unsigned long)pid)
		if (r->pid == pid)
			return r;
	return NULL;
}

/**
 * vseg_limits_find_user() - the record of a user
 * @l: the limits, their lock held
 * @uid: the user
 *
 * Return: its record, or NULL when no client of the user is open.
 */
struct vseg_limit_rec *vseg_limits_find_user(struct vseg_limits *l,
					     kuid_t uid)
{
	lockdep_assert_held(&l->lock);
	struct vseg_limit_rec *r;

	hash_for_each_possible(l->users, r, node, __kuid_val(uid))
		if (uid_eq(r->uid, uid))
			return r;
	return NULL;
}

/**
 * vseg_limits_client_open_as() - a client charging a given process and user
 * @l: the limits
 * @pid: the process (thread group) its charges go to; a reference is
 *	taken
 * @uid: the user its charges go to
 *
 * The records of @pid and @uid are found, or created (their memory charged
 * to the caller's memory cgroup). vseg_limits_client_open() for the
 * caller itself; this one for KUnit, which plays several processes.
 *
 * Return: the client, holding one reference, or NULL without memory.
 */
struct vseg_limits_client *vseg_limits_client_open_as(struct vseg_limits *l,
						      struct pid *pid,
						      kuid_t uid)
{
	struct vseg_limit_rec *proc, *user, *new_proc, *new_user;
	struct vseg_limits_client *c;
	unsigned long flags;

	c = kzalloc(sizeof(*c), GFP_KERNEL_ACCOUNT);
	new_proc = kzalloc(sizeof(*new_proc), GFP_KERNEL_ACCOUNT);
	new_user = kzalloc(sizeof(*new_user), GFP_KERNEL_ACCOUNT);
	if (!c || !new_proc || !new_user) {
		kfree(c);
		kfree(new_proc);
		kfree(new_user);
		return NULL;
	}
	kref_init(&c->kref);
	c->limits = l;

	spin_lock_irqsave(&l->lock, flags);
	proc = find_proc_rec(l, pid);
	if (!proc) {
		proc = new_proc;
		new_proc = NULL;
		proc->pid = get_pid(pid);
		proc->uid = uid;
		hash_add(l->procs, &proc->node, (unsigned long)pid);
	}
	proc->refs++;
	proc->files++;
	user = vseg_limits_find_user(l, uid);
	if (!user) {
		user = new_user;
		new_user = NULL;
		user->uid = uid;
		hash_add(l->users, &user->node, __kuid_val(uid));
	}
	user->refs++;
	spin_unlock_irqrestore(&l->lock, flags);

	c->proc = proc;
	c->user = user;
	kfree(new_proc);
	kfree(new_user);
	return c;
}
EXPORT_SYMBOL_IF_KUNIT(vseg_limits_client_open_as);

/**
 * vseg_limits_client_open() - the client of a file being opened
 * @l: the device's limits
 *
 * Its charges go to the calling process (thread group) and to its user
 * (real uid): the process and user that open the file, whoever uses it
 * later (a child after fork(), a process it is passed to).
 *
 * Return: the client, holding one reference, or NULL without memory.
 */
struct vseg_limits_client *vseg_limits_client_open(struct vseg_limits *l)
{
	return vseg_limits_client_open_as(l, task_tgid(current),
					  current_uid());
}

/**
 * vseg_limits_client_get() - another reference to a client
 * @c: the client
 *
 * For whatever uncharges after its file is gone (a job, say).
 *
 * Return: @c.
 */
struct vseg_limits_client *vseg_limits_client_get(struct vseg_limits_client *c)
{
	kref_get(&c->kref);
	return c;
}
EXPORT_SYMBOL_IF_KUNIT(vseg_limits_client_get);

/* Take @n off a counter; a counter never goes below zero. */
static void take(u64 *used, u64 n)
{
	*used -= min(*used, n);
}

/* Drop a record's reference; return it if it is to be freed. */
static struct vseg_limit_rec *rec_put(struct vseg_limit_rec *r)
{
	if (--r->refs)
		return NULL;
	hash_del(&r->node);
	return r;
}

static void client_release(struct kref *kref)
{
	struct vseg_limits_client *c = container_of(kref, typeof(*c), kref);
	struct vseg_limits *l = c->limits;
	struct vseg_limit_rec *proc, *user;
	unsigned long flags;
	bool leftover = false;
	u32 k, i;

	spin_lock_irqsave(&l->lock, flags);
	/* Charges left behind by a driver bug: given back, not leaked. */
	for (k = 0; k < VSEG_LIMIT_NUM_KINDS; k++)
		for (i = 0; i < VSEG_LIMIT_SLOTS; i++) {
			u64 n = c->usage.used[k][i];

			if (!n)
				continue;
			leftover = true;
			take(&c->proc->usage.used[k][i], n);
			take(&c->user->usage.used[k][i], n);
			take(&l->device.used[k][i], n);
		}
	proc = rec_put(c->proc);
	user = rec_put(c->user);
	spin_unlock_irqrestore(&l->lock, flags);

	WARN_ON_ONCE(leftover);
	if (proc)
		put_pid(proc->pid);
	kfree(proc);
	kfree(user);
	kfree(c);
}

/**
 * vseg_limits_client_put() - drop a reference to a client
 * @c: the client, or NULL
 *
 * The last one gives its records back (a record goes with its last
 * client). Everything it charged must have been uncharged. Process context
 * only.
 */
void vseg_limits_client_put(struct vseg_limits_client *c)
{
	if (c)
		kref_put(&c->kref, client_release);
}
EXPORT_SYMBOL_IF_KUNIT(vseg_limits_client_put);

/**
 * vseg_limits_client_close() - the file of a client is closed
 * @c: the client (vseg_limits_client_open()), whose reference the caller
 *	still holds
 *
 * When the last file of its process is closed, the process's reservations
 * (vseg_budget_set_reservation()) go: they belong to the process's files
 * together, not to whatever (jobs, buffers) outlives them.
 */
void vseg_limits_client_close(struct vseg_limits_client *c)
{
	struct vseg_limits *l = c->limits;
	unsigned long flags;

	spin_lock_irqsave(&l->lock, flags);
	if (c->proc->files && !--c->proc->files)
		memset(c->proc->reservation, 0, sizeof(c->proc->reservation));
	spin_unlock_irqrestore(&l->lock, flags);
}
EXPORT_SYMBOL_IF_KUNIT(vseg_limits_client_close);

static bool bad_counter(enum vseg_limit_kind kind, u32 slot)
{
	return kind >= VSEG_LIMIT_NUM_KINDS || slot >= VSEG_LIMIT_SLOTS;
}

/* Under the lock: does @amount fit every scope's bound? */
static bool fits_locked(struct vseg_limits_client *c,
			enum vseg_limit_kind kind, u32 slot, u64 amount)
{
	struct vseg_limits *l = c->limits;

	return vseg_limits_fits(c->proc->usage.used[kind][slot], amount,
				l->max[VSEG_LIMIT_PROCESS][kind][slot]) &&
	       vseg_limits_fits(c->user->usage.used[kind][slot], amount,
				l->max[VSEG_LIMIT_USER][kind][slot]) &&
	       vseg_limits_fits(l->device.used[kind][slot], amount,
				l->max[VSEG_LIMIT_DEVICE][kind][slot]);
}

/**
 * vseg_limits_charge() - charge a client's process, user and device
 * @c: the client
 * @kind: what is charged
 * @slot: which counter of @kind (a segment id for %VSEG_LIMIT_PIN, else 0)
 * @amount: how much
 *
 * All three counters take the charge, or none does: the check and the
 * charge are one step under the limits' lock. Any context.
 *
 * Return: 0, or -ENOSPC (nothing charged) when the process's, the user's
 * or the device's bound would be exceeded; -EINVAL for an unknown kind or
 * slot. Callers translate -ENOSPC where their UAPI says otherwise.
 */
int vseg_limits_charge(struct vseg_limits_client *c,
		       enum vseg_limit_kind kind, u32 slot, u64 amount)
{
	struct vseg_limits *l = c->limits;
	unsigned long flags;
	int err = -ENOSPC;

	if (bad_counter(kind, slot))
		return -EINVAL;
	spin_lock_irqsave(&l->lock, flags);
	if (fits_locked(c, kind, slot, amount) &&
	    vseg_limits_fits(c->usage.used[kind][slot], amount, U64_MAX)) {
		c->proc->usage.used[kind][slot] += amount;
		c->user->usage.used[kind][slot] += amount;
		l->device.used[kind][slot] += amount;
		c->usage.used[kind][slot] += amount;
		err = 0;
	}
	spin_unlock_irqrestore(&l->lock, flags);
	return err;
}
EXPORT_SYMBOL_IF_KUNIT(vseg_limits_charge);

/**
 * vseg_limits_uncharge() - give back (some of) a client's charge
 * @c: the client
 * @kind: what was charged
 * @slot: which counter
 * @amount: how much; at most what @c charged there (more is a driver bug:
 *	only what it charged is taken back)
 *
 * Any context.
 */
void vseg_limits_uncharge(struct vseg_limits_client *c,
			  enum vseg_limit_kind kind, u32 slot, u64 amount)
{
	struct vseg_limits *l = c->limits;
	unsigned long flags;

	if (bad_counter(kind, slot))
		return;
	spin_lock_irqsave(&l->lock, flags);
	if (WARN_ON_ONCE(amount > c->usage.used[kind][slot]))
		amount = c->usage.used[kind][slot];
	c->usage.used[kind][slot] -= amount;
	take(&c->proc->usage.used[kind][slot], amount);
	take(&c->user->usage.used[kind][slot], amount);
	take(&l->device.used[kind][slot], amount);
	spin_unlock_irqrestore(&l->lock, flags);
}
EXPORT_SYMBOL_IF_KUNIT(vseg_limits_uncharge);

/**
 * vseg_limits_would_fit() - would a charge succeed now
 * @c: the client
 * @kind: what would be charged
 * @slot: which counter
 * @amount: how much
 *
 * A hint for choosing among slots (segments to pin in): another client
 * may charge meanwhile, so vseg_limits_charge() can still fail after it.
 *
 * Return: true if the charge fits every bound now.
 */
bool vseg_limits_would_fit(struct vseg_limits_client *c,
			   enum vseg_limit_kind kind, u32 slot, u64 amount)
{
	unsigned long flags;
	bool fits;

	if (bad_counter(kind, slot))
		return false;
	spin_lock_irqsave(&c->limits->lock, flags);
	fits = fits_locked(c, kind, slot, amount);
	spin_unlock_irqrestore(&c->limits->lock, flags);
	return fits;
}
EXPORT_SYMBOL_IF_KUNIT(vseg_limits_would_fit);

/**
 * vseg_limits_used() - what is charged to a client's process, user or
 *	device
 * @c: the client
 * @scope: whose charges
 * @kind: of what
 * @slot: which counter
 *
 * Return: the counter, or 0 for an unknown one.
 */
u64 vseg_limits_used(struct vseg_limits_client *c, enum vseg_limit_scope scope,
		     enum vseg_limit_kind kind, u32 slot)
{
	const struct vseg_limit_usage *u;
	unsigned long flags;
	u64 used;

	if (bad_counter(kind, slot) || scope >= VSEG_LIMIT_NUM_SCOPES)
		return 0;
	u = scope == VSEG_LIMIT_PROCESS ? &c->proc->usage :
	    scope == VSEG_LIMIT_USER ? &c->user->usage : &c->limits->device;
	spin_lock_irqsave(&c->limits->lock, flags);
	used = u->used[kind][slot];
	spin_unlock_irqrestore(&c->limits->lock, flags);
	return used;
}
EXPORT_SYMBOL_IF_KUNIT(vseg_limits_used);
