/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Copyright (c) 2026 The vseg authors
 */
#ifndef __VSEG_LIMITS_H__
#define __VSEG_LIMITS_H__

#include <linux/hashtable.h>
#include <linux/kref.h>
#include <linux/spinlock.h>
#include <linux/types.h>
#include <linux/uidgid.h>
#include <linux/workqueue.h>

#include "vseg_segment.h"

struct pid;

/**
 * enum vseg_limit_kind - what a client's charges count
 * @VSEG_LIMIT_PIN: bytes pinned, one counter per segment (slot: the
 *	segment id, 0 for system memory).
 * @VSEG_LIMIT_JOBS: jobs not finished (slot 0): charged by SUBMIT,
 *	dropped when the job is freed.
 * @VSEG_LIMIT_VM_MAPPINGS: GPU virtual address mappings (slot 0), with
 *	what queued binds may add at most.
 * @VSEG_LIMIT_RESIDENT: bytes of the client's buffers resident, one counter
 *	per segment (slot: the segment id); never bounded, counted for the
 *	budgets (vseg_budget.c).
 * @VSEG_LIMIT_NUM_KINDS: the number of kinds; new kinds go before it.
 */
enum vseg_limit_kind {
	VSEG_LIMIT_PIN,
	VSEG_LIMIT_JOBS,
	VSEG_LIMIT_VM_MAPPINGS,
	VSEG_LIMIT_RESIDENT,
	VSEG_LIMIT_NUM_KINDS
};

/* Counters of one kind: one per segment for the kinds that need it. */
#define VSEG_LIMIT_SLOTS	(VSEG_MAX_SEGMENTS + 1)

/**
 * enum vseg_budget_group - WDDM's budget groups (vseg_budget.c)
 * @VSEG_BUDGET_LOCAL: the memory segments flagged ApplicationTarget and
 *	LocalBudgetGroup.
 * @VSEG_BUDGET_NON_LOCAL: the segments flagged NonLocalBudgetGroup.
 * @VSEG_BUDGET_NUM_GROUPS: the number of groups.
 * @VSEG_BUDGET_NONE: a segment in no group.
 */
enum vseg_budget_group {
	VSEG_BUDGET_LOCAL,
	VSEG_BUDGET_NON_LOCAL,
	VSEG_BUDGET_NUM_GROUPS,
	VSEG_BUDGET_NONE = 0xff,
};

/**
 * enum vseg_limit_scope - whose charges a bound applies to
 * @VSEG_LIMIT_PROCESS: every file a process (thread group) opened.
 * @VSEG_LIMIT_USER: every file opened by processes of one user (real
 *	uid, as the kernel's own per-user limits count).
 * @VSEG_LIMIT_DEVICE: every file of the device.
 * @VSEG_LIMIT_NUM_SCOPES: the number of scopes.
 */
enum vseg_limit_scope {
	VSEG_LIMIT_PROCESS,
	VSEG_LIMIT_USER,
	VSEG_LIMIT_DEVICE,
	VSEG_LIMIT_NUM_SCOPES
};

/**
 * struct vseg_limit_usage - charges, one counter per kind and slot
 * @used: what is charged now.
 */
struct vseg_limit_usage {
	u64 used[VSEG_LIMIT_NUM_KINDS][VSEG_LIMIT_SLOTS];
};

/**
 * struct vseg_limits - a device's bounds and the charges against them
 * @lock: protects every record's and @device's counters and the record
 *	tables; a leaf (nothing is taken under it), irq-safe, so that a
 *	charge may be dropped from a fence callback.
 * @max: the bound of each scope, kind and slot; U64_MAX: none.
 * @device: the device's charges.
 * @procs: process records (&struct vseg_limit_rec), by struct pid.
 * @users: user records, by uid.
 * @marks: the last budget query's mark (&vseg_limit_rec.mark).
 * @seg_group: the budget group (&enum vseg_budget_group) of each segment
 *	(by id; 0, system memory, is in none); set once at load.
 * @group_size: bytes of each budget group's segments (an aperture's
 *	commit limit); set once at load.
 * @budget_waiters: the files waiting for their process's budget to change
 *	(vseg_budget_notify()), under @lock.
 * @budget_work: compares their budgets and sends the events.
 */
struct vseg_limits {
	spinlock_t lock; /* see above */
	u64 max[VSEG_LIMIT_NUM_SCOPES][VSEG_LIMIT_NUM_KINDS][VSEG_LIMIT_SLOTS];
	struct vseg_limit_usage device;
	DECLARE_HASHTABLE(procs, 6);
	DECLARE_HASHTABLE(users, 4);
	u32 marks;
	u8 seg_group[VSEG_LIMIT_SLOTS];
	u64 group_size[VSEG_BUDGET_NUM_GROUPS];
	struct list_head budget_waiters;
	struct work_struct budget_work;
};

/**
 * struct vseg_limit_rec - the charges of one process or one user
 * @node: in &vseg_limits.procs or &vseg_limits.users.
 * @refs: the clients using it; under &vseg_limits.lock.
 * @pid: a process record's thread group (a reference), else NULL.
 * @uid: a user record's user; a process record's: the user of the file
 *	that created it (its user, for the budgets' shares).
 * @mark: a user record's mark in the budget query that last counted it
 *	(vseg_budget.c); under &vseg_limits.lock.
 * @active: a user record's processes active in the group of the query
 *	that marked it last (count_active() in vseg_budget.c).
 * @over_mark: a process record's: the vseg_budget_mark_over() that found
 *	it over its budget last.
 * @usage: its charges.
 * @files: a process record's open files (vseg_limits_client_close() has
 *	not been called for them yet).
 * @reservation: a process record's reservation of each budget group,
 *	bytes (SET_RESERVATION); dropped when @files drops to zero.
 * @penalty_until: a process record's: CLOCK_MONOTONIC ns its next
 *	transaction waits for, for paging it caused over its budget
 *	(vseg_budget_paged()).
 * @penalty_ns: a process record's: the sum of those waits.
 * @paged_in: a process record's: bytes of its buffers moved into the
 *	segments (vseg_budget_moved_in()).
 */
struct vseg_limit_rec {
	struct hlist_node node;
	unsigned int refs;
	struct pid *pid;
	kuid_t uid;
	u32 mark;
	u32 active;
	u32 over_mark;
	struct vseg_limit_usage usage;
	unsigned int files;
	u64 reservation[VSEG_BUDGET_NUM_GROUPS];
	u64 penalty_until;
	u64 penalty_ns;
	u64 paged_in;
};

/**
 * struct vseg_limits_client - what one open file charges, and to whom
 * @kref: the file's reference, and any a job or mapping takes to uncharge
 *	after the file is gone.
 * @limits: the device's limits.
 * @proc: the record of the process that opened the file.
 * @user: the record of its user.
 * @usage: the charges made through this client (its own share).
 */
struct vseg_limits_client {
	struct kref kref;
	struct vseg_limits *limits;
	struct vseg_limit_rec *proc;
	struct vseg_limit_rec *user;
	struct vseg_limit_usage usage;
};

void vseg_limits_init(struct vseg_limits *l);
struct vseg_limit_rec *vseg_limits_find_user(struct vseg_limits *l,
					     kuid_t uid);
void vseg_limits_set_max(struct vseg_limits *l, enum vseg_limit_scope scope,
			 enum vseg_limit_kind kind, u32 slot, u64 max);
u64 vseg_limits_get_max(struct vseg_limits *l, enum vseg_limit_scope scope,
			enum vseg_limit_kind kind, u32 slot);
void vseg_limits_init_pins(struct vseg_limits *l, const u64 *capacity,
			   u32 num_slots);
void vseg_limits_init_counts(struct vseg_limits *l, u64 jobs, u64 mappings);
void vseg_limits_pin_percents(unsigned int pct[VSEG_LIMIT_NUM_SCOPES]);
u64 vseg_limits_share(u64 capacity, unsigned int percent);
bool vseg_limits_fits(u64 used, u64 amount, u64 max);

struct vseg_limits_client *vseg_limits_client_open(struct vseg_limits *l);
struct vseg_limits_client *vseg_limits_client_open_as(struct vseg_limits *l,
						      struct pid *pid,
						      kuid_t uid);
struct vseg_limits_client *
vseg_limits_client_get(struct vseg_limits_client *c);
void vseg_limits_client_put(struct vseg_limits_client *c);
void vseg_limits_client_close(struct vseg_limits_client *c);

int vseg_limits_charge(struct vseg_limits_client *c,
		       enum vseg_limit_kind kind, u32 slot, u64 amount);
void vseg_limits_uncharge(struct vseg_limits_client *c,
			  enum vseg_limit_kind kind, u32 slot, u64 amount);
bool vseg_limits_would_fit(struct vseg_limits_client *c,
			   enum vseg_limit_kind kind, u32 slot, u64 amount);
u64 vseg_limits_used(struct vseg_limits_client *c, enum vseg_limit_scope scope,
		     enum vseg_limit_kind kind, u32 slot);

#endif /* __VSEG_LIMITS_H__ */
