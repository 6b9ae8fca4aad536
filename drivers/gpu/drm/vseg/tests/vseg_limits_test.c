// SPDX-License-Identifier: GPL-2.0-only
/*
 * Copyright (c) 2026 The vseg authors
 *
 * KUnit tests of the limits module (vseg_limits.c): the arithmetic of a
 * bound (no wrap-around), and charges against a process's, a user's and
 * the device's bound at once: a charge that breaks any of the three
 * charges nothing; files of one process share its counter, processes of
 * one user the user's; uncharges give back exactly; records go with their
 * last client. The budgets of vseg_budget.c: their arithmetic, the
 * groups of a table, reservations per process (capped, dropped with the
 * last file) and the protection they give. The processes are real struct pids (this task's, and
 * init's), the users plain uids: no device is needed.
 */

#include <kunit/test.h>
#include <linux/ktime.h>
#include <linux/math64.h>
#include <linux/pid.h>
#include <linux/sched.h>
#include <linux/sched/signal.h>
#include <linux/sizes.h>
#include <linux/slab.h>
#include <linux/uidgid.h>

#include "../vseg_budget.h"
#include "../vseg_limits.h"
#include "../vseg_segment.h"

#define SLOT	1	/* a segment */

static void limits_fits(struct kunit *test)
{
	KUNIT_EXPECT_TRUE(test, vseg_limits_fits(0, 0, 0));
	KUNIT_EXPECT_TRUE(test, vseg_limits_fits(0, 10, 10));
	KUNIT_EXPECT_TRUE(test, vseg_limits_fits(4, 6, 10));
	KUNIT_EXPECT_FALSE(test, vseg_limits_fits(4, 7, 10));
	KUNIT_EXPECT_FALSE(test, vseg_limits_fits(11, 0, 10));
	/* Never wraps. */
	KUNIT_EXPECT_FALSE(test, vseg_limits_fits(1, U64_MAX, U64_MAX));
	KUNIT_EXPECT_FALSE(test, vseg_limits_fits(U64_MAX, 1, U64_MAX));
	KUNIT_EXPECT_TRUE(test, vseg_limits_fits(U64_MAX - 1, 1, U64_MAX));
	KUNIT_EXPECT_TRUE(test, vseg_limits_fits(0, U64_MAX, U64_MAX));
}

static void limits_share(struct kunit *test)
{
	KUNIT_EXPECT_EQ(test, vseg_limits_share(32 << 20, 50), 16 << 20);
	KUNIT_EXPECT_EQ(test, vseg_limits_share(100, 33), 33);
	KUNIT_EXPECT_EQ(test, vseg_limits_share(99, 50), 49);
	KUNIT_EXPECT_EQ(test, vseg_limits_share(1000, 0), 0);
	/* At most the whole. */
	KUNIT_EXPECT_EQ(test, vseg_limits_share(1000, 250), 1000);
	/* No overflow on the largest capacities. */
	KUNIT_EXPECT_EQ(test, vseg_limits_share(U64_MAX, 100), U64_MAX);
	KUNIT_EXPECT_EQ(test, vseg_limits_share(1ull << 62, 50), 1ull << 61);
}

static void limits_percents(struct kunit *test)
{
	unsigned int pct[VSEG_LIMIT_NUM_SCOPES];

	vseg_limits_pin_percents(pct);
	KUNIT_EXPECT_LE(test, pct[VSEG_LIMIT_PROCESS], pct[VSEG_LIMIT_USER]);
	KUNIT_EXPECT_LE(test, pct[VSEG_LIMIT_USER], pct[VSEG_LIMIT_DEVICE]);
	KUNIT_EXPECT_LE(test, pct[VSEG_LIMIT_DEVICE], 100u);
}

struct limits_test {
	struct vseg_limits limits;
	struct pid *other;	/* another process: init's */
};

static struct limits_test *limits_setup(struct kunit *test, u64 proc,
					u64 user, u64 device)
{
	struct limits_test *t = kunit_kzalloc(test, sizeof(*t), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, t);
	vseg_limits_init(&t->limits);
	vseg_limits_set_max(&t->limits, VSEG_LIMIT_PROCESS, VSEG_LIMIT_PIN,
			    SLOT, proc);
	vseg_limits_set_max(&t->limits, VSEG_LIMIT_USER, VSEG_LIMIT_PIN,
			    SLOT, user);
	vseg_limits_set_max(&t->limits, VSEG_LIMIT_DEVICE, VSEG_LIMIT_PIN,
			    SLOT, device);
	t->other = find_get_pid(1);
	KUNIT_ASSERT_NOT_NULL(test, t->other);
	KUNIT_ASSERT_PTR_NE(test, t->other, task_tgid(current));
	return t;
}

static void limits_teardown(struct limits_test *t)
{
	put_pid(t->other);
}

static struct vseg_limits_client *open_as(struct kunit *test,
					  struct limits_test *t,
					  struct pid *pid, u32 uid)
{
	struct vseg_limits_client *c;

	c = vseg_limits_client_open_as(&t->limits, pid, KUIDT_INIT(uid));
	KUNIT_ASSERT_NOT_NULL(test, c);
	return c;
}

static u64 used(struct vseg_limits_client *c, enum vseg_limit_scope scope)
{
	return vseg_limits_used(c, scope, VSEG_LIMIT_PIN, SLOT);
}

/* Two files of one process share its bound. */
static void limits_process(struct kunit *test)
{
	struct limits_test *t = limits_setup(test, 100, 1000, 1000);
	struct pid *me = task_tgid(current);
	struct vseg_limits_client *a = open_as(test, t, me, 1000);
	struct vseg_limits_client *b = open_as(test, t, me, 1000);

	KUNIT_EXPECT_EQ(test, vseg_limits_charge(a, VSEG_LIMIT_PIN, SLOT, 60),
			0);
	KUNIT_EXPECT_TRUE(test, vseg_limits_would_fit(b, VSEG_LIMIT_PIN, SLOT,
						      40));
	KUNIT_EXPECT_FALSE(test, vseg_limits_would_fit(b, VSEG_LIMIT_PIN,
						       SLOT, 41));
	KUNIT_EXPECT_EQ(test, vseg_limits_charge(b, VSEG_LIMIT_PIN, SLOT, 41),
			-ENOSPC);
	/* A refused charge charged nothing, anywhere. */
	KUNIT_EXPECT_EQ(test, used(b, VSEG_LIMIT_PROCESS), 60);
	KUNIT_EXPECT_EQ(test, used(b, VSEG_LIMIT_USER), 60);
	KUNIT_EXPECT_EQ(test, used(b, VSEG_LIMIT_DEVICE), 60);
	KUNIT_EXPECT_EQ(test, vseg_limits_charge(b, VSEG_LIMIT_PIN, SLOT, 40),
			0);
	KUNIT_EXPECT_EQ(test, used(a, VSEG_LIMIT_PROCESS), 100);
	/* Another slot, another counter. */
	KUNIT_EXPECT_EQ(test, vseg_limits_charge(b, VSEG_LIMIT_PIN, SLOT + 1,
						 1 << 20), 0);
	vseg_limits_uncharge(b, VSEG_LIMIT_PIN, SLOT + 1, 1 << 20);
	/* Uncharges give back exactly what was charged. */
	vseg_limits_uncharge(a, VSEG_LIMIT_PIN, SLOT, 60);
	KUNIT_EXPECT_EQ(test, used(b, VSEG_LIMIT_PROCESS), 40);
	KUNIT_EXPECT_EQ(test, vseg_limits_charge(b, VSEG_LIMIT_PIN, SLOT, 60),
			0);
	vseg_limits_uncharge(b, VSEG_LIMIT_PIN, SLOT, 100);
	KUNIT_EXPECT_EQ(test, used(a, VSEG_LIMIT_DEVICE), 0);
	vseg_limits_client_put(a);
	vseg_limits_client_put(b);
	limits_teardown(t);
}

/* Two processes of one user share the user's bound, not each other's. */
static void limits_user(struct kunit *test)
{
	struct limits_test *t = limits_setup(test, 100, 150, 1000);
	struct vseg_limits_client *a = open_as(test, t, task_tgid(current),
					       65534);
	struct vseg_limits_client *b = open_as(test, t, t->other, 65534);
	struct vseg_limits_client *c = open_as(test, t, t->other, 1000);

	KUNIT_EXPECT_EQ(test, vseg_limits_charge(a, VSEG_LIMIT_PIN, SLOT, 100),
			0);
	/* b's process has room, its user has 50 left. */
	KUNIT_EXPECT_EQ(test, vseg_limits_charge(b, VSEG_LIMIT_PIN, SLOT, 60),
			-ENOSPC);
	KUNIT_EXPECT_EQ(test, vseg_limits_charge(b, VSEG_LIMIT_PIN, SLOT, 50),
			0);
	KUNIT_EXPECT_EQ(test, used(b, VSEG_LIMIT_PROCESS), 50);
	KUNIT_EXPECT_EQ(test, used(b, VSEG_LIMIT_USER), 150);
	/* Another user of the same process record: the process bound. */
	KUNIT_EXPECT_EQ(test, vseg_limits_charge(c, VSEG_LIMIT_PIN, SLOT, 51),
			-ENOSPC);
	KUNIT_EXPECT_EQ(test, vseg_limits_charge(c, VSEG_LIMIT_PIN, SLOT, 50),
			0);
	KUNIT_EXPECT_EQ(test, used(c, VSEG_LIMIT_USER), 50);
	KUNIT_EXPECT_EQ(test, used(c, VSEG_LIMIT_DEVICE), 200);
	vseg_limits_uncharge(a, VSEG_LIMIT_PIN, SLOT, 100);
	vseg_limits_uncharge(b, VSEG_LIMIT_PIN, SLOT, 50);
	vseg_limits_uncharge(c, VSEG_LIMIT_PIN, SLOT, 50);
	vseg_limits_client_put(a);
	vseg_limits_client_put(b);
	vseg_limits_client_put(c);
	limits_teardown(t);
}

/* The device's bound holds whatever the processes and users. */
static void limits_device(struct kunit *test)
{
	struct limits_test *t = limits_setup(test, 100, 100, 150);
	struct vseg_limits_client *a = open_as(test, t, task_tgid(current), 1);
	struct vseg_limits_client *b = open_as(test, t, t->other, 2);

	KUNIT_EXPECT_EQ(test, vseg_limits_charge(a, VSEG_LIMIT_PIN, SLOT, 100),
			0);
	KUNIT_EXPECT_EQ(test, vseg_limits_charge(b, VSEG_LIMIT_PIN, SLOT, 51),
			-ENOSPC);
	KUNIT_EXPECT_EQ(test, used(b, VSEG_LIMIT_USER), 0);
	KUNIT_EXPECT_EQ(test, vseg_limits_charge(b, VSEG_LIMIT_PIN, SLOT, 50),
			0);
	KUNIT_EXPECT_EQ(test, used(a, VSEG_LIMIT_DEVICE), 150);
	/* A lowered bound refuses new charges, takes nothing back. */
	vseg_limits_set_max(&t->limits, VSEG_LIMIT_DEVICE, VSEG_LIMIT_PIN,
			    SLOT, 100);
	KUNIT_EXPECT_EQ(test, vseg_limits_charge(b, VSEG_LIMIT_PIN, SLOT, 0),
			-ENOSPC);
	KUNIT_EXPECT_EQ(test, used(a, VSEG_LIMIT_DEVICE), 150);
	vseg_limits_uncharge(a, VSEG_LIMIT_PIN, SLOT, 100);
	KUNIT_EXPECT_EQ(test, vseg_limits_charge(b, VSEG_LIMIT_PIN, SLOT, 50),
			0);
	vseg_limits_uncharge(b, VSEG_LIMIT_PIN, SLOT, 100);
	vseg_limits_client_put(a);
	vseg_limits_client_put(b);
	limits_teardown(t);
}

/* Kinds are apart, unknown ones refused; unbounded kinds take anything. */
static void limits_kinds(struct kunit *test)
{
	struct limits_test *t = limits_setup(test, 10, 10, 10);
	struct vseg_limits_client *a = open_as(test, t, task_tgid(current), 0);

	KUNIT_EXPECT_EQ(test, vseg_limits_charge(a, VSEG_LIMIT_JOBS, 0,
						 U64_MAX), 0);
	KUNIT_EXPECT_EQ(test, vseg_limits_charge(a, VSEG_LIMIT_JOBS, 0, 1),
			-ENOSPC);
	vseg_limits_uncharge(a, VSEG_LIMIT_JOBS, 0, U64_MAX);
	KUNIT_EXPECT_EQ(test, vseg_limits_charge(a, VSEG_LIMIT_NUM_KINDS, 0,
						 1), -EINVAL);
	KUNIT_EXPECT_EQ(test, vseg_limits_charge(a, VSEG_LIMIT_PIN,
						 VSEG_LIMIT_SLOTS, 1),
			-EINVAL);
	KUNIT_EXPECT_FALSE(test, vseg_limits_would_fit(a, VSEG_LIMIT_PIN,
						       VSEG_LIMIT_SLOTS, 0));
	KUNIT_EXPECT_EQ(test, vseg_limits_get_max(&t->limits,
						  VSEG_LIMIT_DEVICE,
						  VSEG_LIMIT_VM_MAPPINGS, 0),
			U64_MAX);
	KUNIT_EXPECT_EQ(test, vseg_limits_charge(a, VSEG_LIMIT_PIN, SLOT, 10),
			0);
	KUNIT_EXPECT_EQ(test, vseg_limits_used(a, VSEG_LIMIT_DEVICE,
					       VSEG_LIMIT_VM_MAPPINGS, 0), 0);
	vseg_limits_uncharge(a, VSEG_LIMIT_PIN, SLOT, 10);
	vseg_limits_client_put(a);
	limits_teardown(t);
}

/* Records are shared while their clients live, and go with the last. */
static void limits_records(struct kunit *test)
{
	struct limits_test *t = limits_setup(test, 100, 100, 100);
	struct vseg_limits_client *a = open_as(test, t, t->other, 7);
	struct vseg_limits_client *b = open_as(test, t, t->other, 7);
	struct vseg_limits_client *c;

	KUNIT_EXPECT_PTR_EQ(test, a->proc, b->proc);
	KUNIT_EXPECT_PTR_EQ(test, a->user, b->user);
	KUNIT_EXPECT_EQ(test, a->proc->refs, 2u);
	KUNIT_EXPECT_EQ(test, vseg_limits_charge(b, VSEG_LIMIT_PIN, SLOT, 30),
			0);
	/* A client with a job's reference outlives its file's. */
	vseg_limits_client_get(b);
	vseg_limits_client_put(b);
	vseg_limits_uncharge(b, VSEG_LIMIT_PIN, SLOT, 30);
	vseg_limits_client_put(b);
	KUNIT_EXPECT_EQ(test, a->proc->refs, 1u);
	vseg_limits_client_put(a);
	KUNIT_EXPECT_TRUE(test, hash_empty(t->limits.procs));
	KUNIT_EXPECT_TRUE(test, hash_empty(t->limits.users));
	/* A new client starts from nothing. */
	c = open_as(test, t, t->other, 7);
	KUNIT_EXPECT_EQ(test, used(c, VSEG_LIMIT_PROCESS), 0);
	KUNIT_EXPECT_EQ(test, used(c, VSEG_LIMIT_DEVICE), 0);
	vseg_limits_client_put(c);
	limits_teardown(t);
}

/* Budget = reservation + an equal share of the unreserved bytes. */
static void budget_arith(struct kunit *test)
{
	KUNIT_EXPECT_EQ(test, vseg_budget_of(800, 0, 0, 1, 1), 800);
	KUNIT_EXPECT_EQ(test, vseg_budget_of(800, 0, 0, 2, 1), 400);
	KUNIT_EXPECT_EQ(test, vseg_budget_of(800, 600, 400, 2, 1), 500);
	KUNIT_EXPECT_EQ(test, vseg_budget_of(800, 600, 200, 3, 1), 266);
	/* A user's share split among its processes. */
	KUNIT_EXPECT_EQ(test, vseg_budget_of(800, 0, 0, 1, 2), 400);
	KUNIT_EXPECT_EQ(test, vseg_budget_of(800, 0, 0, 2, 4), 100);
	KUNIT_EXPECT_EQ(test, vseg_budget_of(800, 200, 100, 2, 3), 200);
	/* No active user or process counted: as one. */
	KUNIT_EXPECT_EQ(test, vseg_budget_of(800, 0, 0, 0, 0), 800);
	/* Reservations above the size (never made): the reservation. */
	KUNIT_EXPECT_EQ(test, vseg_budget_of(800, 900, 300, 2, 1), 300);
	KUNIT_EXPECT_EQ(test, vseg_budget_of(U64_MAX, 0, 0, 1, 1), U64_MAX);
	KUNIT_EXPECT_EQ(test, vseg_budget_reservable(1000, 0), 800);
	KUNIT_EXPECT_EQ(test, vseg_budget_reservable(1000, 300), 500);
	KUNIT_EXPECT_EQ(test, vseg_budget_reservable(1000, 800), 0);
	KUNIT_EXPECT_EQ(test, vseg_budget_reservable(1000, 900), 0);
	KUNIT_EXPECT_EQ(test, vseg_budget_reservable(U64_MAX, 0),
			mul_u64_u32_div(U64_MAX, 80, 100));
	/* D3D12's levels on TTM's LRU lists 1..3 (0 is the offered's). */
	KUNIT_EXPECT_EQ(test, vseg_budget_lru_priority(1, true), 1);
	KUNIT_EXPECT_EQ(test, vseg_budget_lru_priority(0x28000000, true), 1);
	KUNIT_EXPECT_EQ(test, vseg_budget_lru_priority(0x50000000, true), 1);
	KUNIT_EXPECT_EQ(test, vseg_budget_lru_priority(0x77ffffff, true), 1);
	KUNIT_EXPECT_EQ(test, vseg_budget_lru_priority(0x78000000, true), 2);
	KUNIT_EXPECT_EQ(test, vseg_budget_lru_priority(0xa000ffff, true), 2);
	KUNIT_EXPECT_EQ(test, vseg_budget_lru_priority(0xa0010000, true), 3);
	KUNIT_EXPECT_EQ(test, vseg_budget_lru_priority(0xc8000000, true), 3);
	KUNIT_EXPECT_EQ(test, vseg_budget_lru_priority(U32_MAX, true), 3);
	/* The policy off: one list for all. */
	KUNIT_EXPECT_EQ(test, vseg_budget_lru_priority(1, false), 2);
	KUNIT_EXPECT_EQ(test, vseg_budget_lru_priority(U32_MAX, false), 2);
}

/* A dmem cgroup's room bounds Budget and AvailableForReservation. */
static void budget_cap(struct kunit *test)
{
	struct vseg_budget_info info = {
		.budget = 800, .usage = 100, .available = 600,
		.reservation = 50, .size = 1000,
	};

	vseg_budget_cap(&info, U64_MAX);
	KUNIT_EXPECT_EQ(test, info.budget, 800);
	KUNIT_EXPECT_EQ(test, info.available, 600);
	vseg_budget_cap(&info, 700);
	KUNIT_EXPECT_EQ(test, info.budget, 700);
	KUNIT_EXPECT_EQ(test, info.available, 600);
	vseg_budget_cap(&info, 300);
	KUNIT_EXPECT_EQ(test, info.budget, 300);
	KUNIT_EXPECT_EQ(test, info.available, 300);
	/* Usage, reservation and size are the process's, untouched. */
	KUNIT_EXPECT_EQ(test, info.usage, 100);
	KUNIT_EXPECT_EQ(test, info.reservation, 50);
	KUNIT_EXPECT_EQ(test, info.size, 1000);
}

/*
 * A table's groups; two processes' figures, reservations and the
 * protection of a reserved buffer against the other process.
 */
static void budget_groups(struct kunit *test)
{
	const u64 flags[4] = {
		0,
		VSEG_SEGF_APPLICATION_TARGET | VSEG_SEGF_LOCAL_BUDGET_GROUP,
		VSEG_SEGF_LOCAL_BUDGET_GROUP,	/* not an application target */
		VSEG_SEGF_APERTURE | VSEG_SEGF_NON_LOCAL_BUDGET_GROUP,
	};
	const u64 size[4] = { 0, 1000, 500, 4000 };
	struct limits_test *t = limits_setup(test, U64_MAX, U64_MAX, U64_MAX);
	struct pid *me = task_tgid(current);
	struct vseg_limits_client *a = open_as(test, t, me, 0);
	struct vseg_limits_client *a2 = open_as(test, t, me, 0);
	struct vseg_limits_client *b = open_as(test, t, t->other, 0);
	struct vseg_budget_info info;

	vseg_budget_init(&t->limits, flags, size, 4);
	KUNIT_EXPECT_EQ(test, t->limits.seg_group[1], VSEG_BUDGET_LOCAL);
	KUNIT_EXPECT_EQ(test, t->limits.seg_group[2], VSEG_BUDGET_NONE);
	KUNIT_EXPECT_EQ(test, t->limits.seg_group[3], VSEG_BUDGET_NON_LOCAL);
	KUNIT_EXPECT_EQ(test, t->limits.group_size[VSEG_BUDGET_LOCAL], 1000);
	KUNIT_EXPECT_EQ(test, t->limits.group_size[VSEG_BUDGET_NON_LOCAL],
			4000);

	/* Alone (b is neither resident nor reserving): the whole group. */
	vseg_budget_query(a, VSEG_BUDGET_LOCAL, &info);
	KUNIT_EXPECT_EQ(test, info.budget, 1000);
	KUNIT_EXPECT_EQ(test, info.available, 800);
	/* b resident: two active processes. */
	KUNIT_EXPECT_EQ(test, vseg_limits_charge(b, VSEG_LIMIT_RESIDENT, 1,
						 300), 0);
	KUNIT_EXPECT_EQ(test, vseg_limits_charge(a, VSEG_LIMIT_RESIDENT, 1,
						 200), 0);
	KUNIT_EXPECT_EQ(test, vseg_limits_charge(a2, VSEG_LIMIT_RESIDENT, 2,
						 100), 0);
	vseg_budget_query(a2, VSEG_BUDGET_LOCAL, &info);
	KUNIT_EXPECT_EQ(test, info.budget, 500);
	/* Both files of the process, the segment outside the group not. */
	KUNIT_EXPECT_EQ(test, info.usage, 200);

	/* Reservations: per process, capped by what the other left. */
	KUNIT_EXPECT_EQ(test, vseg_budget_set_reservation(b, 0, 600), 0);
	vseg_budget_query(a, VSEG_BUDGET_LOCAL, &info);
	KUNIT_EXPECT_EQ(test, info.available, 200);
	KUNIT_EXPECT_EQ(test, info.budget, 200);
	KUNIT_EXPECT_EQ(test, vseg_budget_set_reservation(a, 0, 201),
			-ENOSPC);
	KUNIT_EXPECT_EQ(test, vseg_budget_set_reservation(a, 2, 1), -EINVAL);
	KUNIT_EXPECT_EQ(test, vseg_budget_set_reservation(a2, 0, 200), 0);
	vseg_budget_query(a, VSEG_BUDGET_LOCAL, &info);
	KUNIT_EXPECT_EQ(test, info.reservation, 200);
	KUNIT_EXPECT_EQ(test, info.budget, 200 + 100);

	/* b holds 300 with 600 reserved: none of it goes for us... */
	KUNIT_EXPECT_TRUE(test, vseg_budget_protects(b, 1, 100));
	/* ...nor anything outside a group; ours is ours to evict. */
	KUNIT_EXPECT_FALSE(test, vseg_budget_protects(b, 2, 100));
	KUNIT_EXPECT_FALSE(test, vseg_budget_protects(a, 1, 100));
	KUNIT_EXPECT_FALSE(test, vseg_budget_protects(NULL, 1, 100));
	/* Above its reservation, what it holds beyond it may go. */
	KUNIT_EXPECT_EQ(test, vseg_budget_set_reservation(b, 0, 200), 0);
	KUNIT_EXPECT_FALSE(test, vseg_budget_protects(b, 1, 100));
	KUNIT_EXPECT_TRUE(test, vseg_budget_protects(b, 1, 101));

	/* The process's last file closed: its reservation goes. */
	vseg_limits_client_close(a);
	vseg_budget_query(a2, VSEG_BUDGET_LOCAL, &info);
	KUNIT_EXPECT_EQ(test, info.reservation, 200);
	vseg_limits_client_close(a2);
	vseg_budget_query(a2, VSEG_BUDGET_LOCAL, &info);
	KUNIT_EXPECT_EQ(test, info.reservation, 0);

	vseg_limits_uncharge(a, VSEG_LIMIT_RESIDENT, 1, 200);
	vseg_limits_uncharge(a2, VSEG_LIMIT_RESIDENT, 2, 100);
	vseg_limits_uncharge(b, VSEG_LIMIT_RESIDENT, 1, 300);
	vseg_limits_client_put(a);
	vseg_limits_client_put(a2);
	vseg_limits_client_put(b);
	limits_teardown(t);
}

/*
 * The unreserved part is shared per user, then among the user's
 * processes: two processes of user 1000 and one of user 1001, all
 * resident in the group.
 */
static void budget_users(struct kunit *test)
{
	const u64 flags[2] = {
		0, VSEG_SEGF_APPLICATION_TARGET | VSEG_SEGF_LOCAL_BUDGET_GROUP,
	};
	const u64 size[2] = { 0, 1000 };
	struct limits_test *t = limits_setup(test, U64_MAX, U64_MAX, U64_MAX);
	struct pid *third = find_get_pid(2);
	struct vseg_limits_client *a, *b, *c, *d;
	struct vseg_budget_info info;
	u32 mark;

	KUNIT_ASSERT_NOT_NULL(test, third);
	KUNIT_ASSERT_PTR_NE(test, third, t->other);
	KUNIT_ASSERT_PTR_NE(test, third, task_tgid(current));
	a = open_as(test, t, task_tgid(current), 1000);
	b = open_as(test, t, t->other, 1000);
	c = open_as(test, t, third, 1001);
	vseg_budget_init(&t->limits, flags, size, 2);
	KUNIT_EXPECT_EQ(test, vseg_limits_charge(a, VSEG_LIMIT_RESIDENT, 1,
						 100), 0);
	KUNIT_EXPECT_EQ(test, vseg_limits_charge(c, VSEG_LIMIT_RESIDENT, 1,
						 100), 0);
	/* Two users, one process each: halves. */
	vseg_budget_query(a, VSEG_BUDGET_LOCAL, &info);
	KUNIT_EXPECT_EQ(test, info.budget, 500);
	/* User 1000 forks (its second process becomes active)... */
	KUNIT_EXPECT_EQ(test, vseg_limits_charge(b, VSEG_LIMIT_RESIDENT, 1,
						 100), 0);
	vseg_budget_query(a, VSEG_BUDGET_LOCAL, &info);
	KUNIT_EXPECT_EQ(test, info.budget, 250);
	vseg_budget_query(b, VSEG_BUDGET_LOCAL, &info);
	KUNIT_EXPECT_EQ(test, info.budget, 250);
	/* ...and user 1001's process keeps its half. */
	vseg_budget_query(c, VSEG_BUDGET_LOCAL, &info);
	KUNIT_EXPECT_EQ(test, info.budget, 500);
	/* Reservations come off the top, then the shares. */
	KUNIT_EXPECT_EQ(test, vseg_budget_set_reservation(c, 0, 200), 0);
	vseg_budget_query(c, VSEG_BUDGET_LOCAL, &info);
	KUNIT_EXPECT_EQ(test, info.budget, 200 + 400);
	vseg_budget_query(a, VSEG_BUDGET_LOCAL, &info);
	KUNIT_EXPECT_EQ(test, info.budget, 200);

	/* Nobody over budget: no mark; b over its 200: marked, alone. */
	KUNIT_EXPECT_EQ(test, vseg_budget_mark_over(&t->limits, 1), 0);
	KUNIT_EXPECT_EQ(test, vseg_limits_charge(b, VSEG_LIMIT_RESIDENT, 1,
						 150), 0);
	mark = vseg_budget_mark_over(&t->limits, 1);
	KUNIT_EXPECT_NE(test, mark, 0);
	KUNIT_EXPECT_TRUE(test, vseg_budget_marked_over(b, mark));
	KUNIT_EXPECT_TRUE(test, vseg_budget_over(b, 1));
	KUNIT_EXPECT_FALSE(test, vseg_budget_marked_over(a, mark));
	KUNIT_EXPECT_FALSE(test, vseg_budget_marked_over(c, mark));
	KUNIT_EXPECT_FALSE(test, vseg_budget_marked_over(NULL, mark));
	/* Outside every group: never. */
	KUNIT_EXPECT_EQ(test, vseg_budget_mark_over(&t->limits, 0), 0);
	vseg_limits_uncharge(b, VSEG_LIMIT_RESIDENT, 1, 150);

	vseg_limits_uncharge(a, VSEG_LIMIT_RESIDENT, 1, 100);
	vseg_limits_uncharge(b, VSEG_LIMIT_RESIDENT, 1, 100);
	vseg_limits_uncharge(c, VSEG_LIMIT_RESIDENT, 1, 100);

	/*
	 * A process that changed its uid: its record keeps the first user,
	 * whose record goes with that user's last client. The query and the
	 * mark agree on it: a user of its own, within its budget.
	 */
	d = open_as(test, t, third, 1002);
	vseg_limits_client_close(c);
	vseg_limits_client_put(c);
	KUNIT_EXPECT_EQ(test, vseg_limits_charge(d, VSEG_LIMIT_RESIDENT, 1,
						 100), 0);
	vseg_budget_query(d, VSEG_BUDGET_LOCAL, &info);
	KUNIT_EXPECT_EQ(test, info.budget, 1000);
	KUNIT_EXPECT_EQ(test, vseg_budget_mark_over(&t->limits, 1), 0);
	vseg_limits_uncharge(d, VSEG_LIMIT_RESIDENT, 1, 100);
	vseg_limits_client_close(d);

	vseg_limits_client_put(a);
	vseg_limits_client_put(b);
	vseg_limits_client_put(d);
	put_pid(third);
	limits_teardown(t);
}

static void budget_penalty(struct kunit *test)
{
	const u64 flags[2] = {
		0, VSEG_SEGF_APPLICATION_TARGET | VSEG_SEGF_LOCAL_BUDGET_GROUP,
	};
	const u64 size[2] = { 0, SZ_64M };
	struct limits_test *t = limits_setup(test, U64_MAX, U64_MAX, U64_MAX);
	struct vseg_limits_client *a, *b;
	u64 before;

	/* Bytes at MiB/s, in whole microseconds, at most a second. */
	KUNIT_EXPECT_EQ(test, vseg_budget_penalty_ns(0, 16), 0);
	KUNIT_EXPECT_EQ(test, vseg_budget_penalty_ns(SZ_1M, 16), 62500000);
	KUNIT_EXPECT_EQ(test, vseg_budget_penalty_ns(SZ_1M, U16_MAX), 15000);
	KUNIT_EXPECT_EQ(test, vseg_budget_penalty_ns(SZ_1M, 1), NSEC_PER_SEC);
	KUNIT_EXPECT_EQ(test, vseg_budget_penalty_ns(U64_MAX, 1),
			NSEC_PER_SEC);

	a = open_as(test, t, task_tgid(current), 1000);
	b = open_as(test, t, t->other, 1001);
	vseg_budget_init(&t->limits, flags, size, 2);

	/* Within its budget (32 MiB of 64, two users): nothing owed. */
	before = vseg_budget_paged_in(a);
	KUNIT_EXPECT_EQ(test, vseg_limits_charge(a, VSEG_LIMIT_RESIDENT, 1,
						 SZ_8M), 0);
	vseg_budget_moved_in(a, SZ_8M);
	vseg_budget_paged(a, before);
	KUNIT_EXPECT_EQ(test, vseg_budget_paged_in(a), before + SZ_8M);
	KUNIT_EXPECT_EQ(test, vseg_budget_penalty(a), 0);
	KUNIT_EXPECT_EQ(test, vseg_budget_throttle(a), 0);

	/* Over it: 48 MiB at 16 MiB/s, the longest wait, a second. */
	before = vseg_budget_paged_in(b);
	KUNIT_EXPECT_EQ(test, vseg_limits_charge(b, VSEG_LIMIT_RESIDENT, 1,
						 SZ_32M + SZ_16M), 0);
	vseg_budget_moved_in(b, SZ_32M + SZ_16M);
	vseg_budget_paged(b, before);
	KUNIT_EXPECT_EQ(test, vseg_budget_penalty(b), NSEC_PER_SEC);
	KUNIT_EXPECT_EQ(test, vseg_budget_penalty(a), 0);
	/* Shrinking is no paging: nothing more owed. */
	before = vseg_budget_paged_in(b);
	vseg_limits_uncharge(b, VSEG_LIMIT_RESIDENT, 1, SZ_1M);
	vseg_budget_paged(b, before);
	KUNIT_EXPECT_EQ(test, vseg_budget_penalty(b), NSEC_PER_SEC);
	/* One of its buffers in for another out: 1 MiB paged all the same. */
	before = vseg_budget_paged_in(b);
	vseg_budget_moved_in(b, SZ_1M);
	vseg_budget_paged(b, before);
	KUNIT_EXPECT_EQ(test, vseg_budget_penalty(b),
			NSEC_PER_SEC + 62500000);
	/* Its next transaction waits until then, at most a second ahead. */
	KUNIT_EXPECT_LE(test, READ_ONCE(b->proc->penalty_until),
			ktime_get_ns() + NSEC_PER_SEC);
	KUNIT_EXPECT_EQ(test, vseg_budget_throttle(b), 0);
	KUNIT_EXPECT_GE(test, ktime_get_ns(), READ_ONCE(b->proc->penalty_until));

	vseg_limits_uncharge(a, VSEG_LIMIT_RESIDENT, 1, SZ_8M);
	vseg_limits_uncharge(b, VSEG_LIMIT_RESIDENT, 1, SZ_32M + SZ_16M - SZ_1M);
	vseg_limits_client_close(a);
	vseg_limits_client_close(b);
	vseg_limits_client_put(a);
	vseg_limits_client_put(b);
	limits_teardown(t);
}

static struct kunit_case vseg_limits_cases[] = {
	KUNIT_CASE(limits_fits),
	KUNIT_CASE(limits_share),
	KUNIT_CASE(limits_percents),
	KUNIT_CASE(limits_process),
	KUNIT_CASE(limits_user),
	KUNIT_CASE(limits_device),
	KUNIT_CASE(limits_kinds),
	KUNIT_CASE(limits_records),
	KUNIT_CASE(budget_arith),
	KUNIT_CASE(budget_cap),
	KUNIT_CASE(budget_groups),
	KUNIT_CASE(budget_users),
	KUNIT_CASE(budget_penalty),
	{}
};

static struct kunit_suite vseg_limits_suite = {
	.name = "vseg_limits",
	.test_cases = vseg_limits_cases,
};

kunit_test_suite(vseg_limits_suite);
