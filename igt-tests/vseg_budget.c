// SPDX-License-Identifier: MIT
/*
 * vseg_budget: WDDM's residency budgets and reservations: the budget
 * query's figures against what was made resident, per process (not per
 * file), and reservations honoured against an unprivileged hostile
 * process trying to push them out.
 *
 * Copyright (c) 2026 The vseg authors
 */
/**
 * TEST: vseg budget
 * Category: Core
 * Mega feature: General Core features
 * Sub-category: Memory management
 * Functionality: residency budgets
 * Description: DEVICE_QUERY_BUDGET's Budget, CurrentUsage,
 *	AvailableForReservation and CurrentReservation per budget group and
 *	process; SET_RESERVATION, its limits and its errors; a reservation
 *	keeps another process from evicting the reserved buffers.
 *
 * SUBTEST: query
 * Description: On a table with an 8 MiB local budget group and the
 *	aperture as the non-local one: the group sizes; alone, the budget is
 *	the group and nothing is used; CurrentUsage follows what is made
 *	resident and evicted, in bytes; a second file of the same process
 *	sees the same figures; a second process with a buffer resident
 *	halves the budget of both, and the budget comes back when it exits.
 *
 * SUBTEST: reservation
 * Description: SET_RESERVATION sets the process's reservation (whichever
 *	of its files sets it), which shows in both files' query and raises
 *	the budget; another process may reserve only what is left of
 *	AvailableForReservation (-ENOSPC beyond, nothing changed); its
 *	reservation goes when its last file is closed, not before.
 *
 * SUBTEST: reservation-invalid
 * Description: SET_RESERVATION with an unknown group, nonzero flags,
 *	extensions or reserved fields fails with -EINVAL, above
 *	AvailableForReservation with -ENOSPC; the reservation is unchanged.
 *
 * SUBTEST: reservation-hostile
 * Description: A process reserves half of the local group and fills it
 *	with buffers; an unprivileged second process (uid 65534) pushes
 *	12 MiB of buffers into the 8 MiB segment: none of the reserved
 *	buffers leaves the segment and their content is intact. With the
 *	module parameter budget_policy off, the same push evicts them (the
 *	control).
 *
 * SUBTEST: priority-order
 * Description: Four HIGH priority buffers made resident first (the least
 *	recently used), then four LOW ones (two by the GEM_CREATE extension,
 *	two by SET_PRIORITY), in the 8 MiB segment; four NORMAL buffers
 *	pushed in evict LOW buffers only: every HIGH one stays. With
 *	budget_policy off (the control), plain LRU evicts HIGH ones first.
 *
 * SUBTEST: over-budget-first
 * Description: The parent holds two 1 MiB buffers in the 8 MiB segment,
 *	the least recently used; an unprivileged second process fills the
 *	rest with six, over its 4 MiB budget; when the parent makes a third
 *	buffer resident, the room comes from the process over its budget and
 *	the parent's two stay, content intact. With budget_policy off (the
 *	control), least recently used eviction takes the parent's.
 *
 * SUBTEST: priority-invalid
 * Description: The priority extension with priority 0 or a nonzero pad
 *	creates nothing (-EINVAL); SET_PRIORITY with priority 0, nonzero
 *	flags, pad, extensions or reserved fields is -EINVAL, an unknown
 *	handle -ENOENT.
 *
 * SUBTEST: trim
 * Description: MAKE_RESIDENT with the trim extension: alone with 6 MiB
 *	resident, nothing to trim; once a second process has 2 MiB resident
 *	(the budget halves to 4 MiB), MAKE_RESIDENT still succeeds and
 *	reports 2 MiB to trim in the local group, 0 in the other; the second
 *	process, within its budget, 0. EVICT refuses the extension.
 *
 * SUBTEST: notify
 * Description: BUDGET_NOTIFY: no event while the budget stays; a second
 *	process making a buffer resident halves it: the fd polls readable
 *	and read() gives one DRM_VSEG_EVENT_BUDGET with the user data and
 *	the new budget; a second request while one is pending is -EBUSY;
 *	nonzero flags, pad, reserved or extensions -EINVAL; a file closed
 *	with a request pending releases it.
 *
 * SUBTEST: paging-penalty
 * Description: An unprivileged process over its budget (5 MiB against
 *	4) pages a 1 MiB buffer back in, by MAKE_RESIDENT and by a job:
 *	each time its fdinfo's vseg-paging-penalty grows by 1 MiB at
 *	budget_paging_mbps (62.5 ms at 16), the same through its second
 *	file (per process); with the policy off, or the rate 0, nothing. The
 *	parent, within its budget, owes nothing.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "igt.h"
#include "igt_vseg.h"

IGT_TEST_DESCRIPTION("Residency budgets and reservations per process and "
		     "budget group; reservations against a hostile process.");

#define MIB		(1ull << 20)
#define LOCAL_SIZE	(8 * MIB)
#define VRAM		1u
#define LOCAL		DRM_VSEG_BUDGET_GROUP_LOCAL
#define NON_LOCAL	DRM_VSEG_BUDGET_GROUP_NON_LOCAL
/* The kernel's VSEG_BUDGET_RESERVABLE_PERCENT. */
#define RESERVABLE(size)	((size) * 80 / 100)
#define TABLE "discrete fbdev=0 table=" \
	"memory:name=vram,size=8M,flags=cpuvisible|applicationtarget|" \
	"localbudget,cpu=0xe0000000,visible=8M;" \
	"aperture:name=aperture,size=32M,flags=nonlocalbudget"
#define POLICY_PARAM	"/sys/module/vseg/parameters/budget_policy"
#define MBPS_PARAM	"/sys/module/vseg/parameters/budget_paging_mbps"
#define AP_FLAG		DRM_VSEG_GEM_CREATE_ACCESSED_PHYSICALLY

static struct vseg_ctx ctx = VSEG_CTX_INIT(VSEG_LEFTOVERS_NONE);

static void query_budget(int fd, struct drm_vseg_query_budget *b)
{
	uint32_t size = sizeof(*b);

	memset(b, 0xa5, sizeof(*b));
	igt_assert_eq(__vseg_device_query(fd, DRM_VSEG_DEVICE_QUERY_BUDGET,
					  b, &size), 0);
	igt_assert_eq_u32(size, sizeof(*b));
	igt_assert_eq_u32(b->num_groups, DRM_VSEG_BUDGET_NUM_GROUPS);
	igt_assert_eq_u32(b->pad, 0);
	for (unsigned int g = 0; g < DRM_VSEG_BUDGET_NUM_GROUPS; g++)
		for (unsigned int i = 0; i < 3; i++)
			igt_assert(!b->groups[g].reserved[i]);
}

static struct drm_vseg_budget_info group(int fd, uint32_t g)
{
	struct drm_vseg_query_budget b;

	query_budget(fd, &b);
	return b.groups[g];
}

static int __reserve(int fd, uint32_t g, uint64_t bytes)
{
	struct drm_vseg_set_reservation r = {
		.group = g,
		.reservation = bytes,
	};

	return __vseg_ioctl(fd, DRM_IOCTL_VSEG_SET_RESERVATION, &r);
}

static void reserve(int fd, uint32_t g, uint64_t bytes)
{
	igt_assert_eq(__reserve(fd, g, bytes), 0);
	igt_assert_eq_u64(group(fd, g).current_reservation, bytes);
}

/* A 1 MiB buffer made resident in the memory segment; its handle. */
static uint32_t resident_mib(int fd)
{
	uint32_t h = vseg_gem_create_in(fd, MIB, VRAM, 0);

	vseg_make_resident(fd, &h, 1);
	igt_assert_eq_u32(vseg_gem_segment(fd, h), VRAM);
	return h;
}

/* Wait (up to 5 s: files of exited processes go a little later). */
static void wait_budget(int fd, uint32_t g, uint64_t budget)
{
	uint64_t got = 0;

	for (int i = 0; i < 500; i++) {
		got = group(fd, g).budget;
		if (got == budget)
			return;
		usleep(10000);
	}
	igt_assert_f(0, "budget %llu, expected %llu\n",
		     (unsigned long long)got, (unsigned long long)budget);
}

static void test_query(void)
{
	const struct drm_vseg_segment_info *ap = vseg_ctx_seg(&ctx, ctx.ap_id);
	struct drm_vseg_query_budget b, b2;
	struct drm_vseg_gem_create c;
	uint32_t h[3], a;
	uint64_t nonlocal;
	int fd2, to_child[2], to_parent[2];

	vseg_ctx_start(&ctx);
	query_budget(ctx.fd, &b);
	igt_assert_eq_u64(b.groups[LOCAL].group_size, LOCAL_SIZE);
	igt_assert_eq_u64(b.groups[NON_LOCAL].group_size, ap->commit_limit);
	for (unsigned int g = 0; g < DRM_VSEG_BUDGET_NUM_GROUPS; g++) {
		/* Alone: the whole group, nothing used or reserved. */
		igt_assert_eq_u64(b.groups[g].budget, b.groups[g].group_size);
		igt_assert_eq_u64(b.groups[g].current_usage, 0);
		igt_assert_eq_u64(b.groups[g].current_reservation, 0);
		igt_assert_eq_u64(b.groups[g].available_for_reservation,
				  RESERVABLE(b.groups[g].group_size));
	}

	for (unsigned int i = 0; i < 3; i++)
		h[i] = resident_mib(ctx.fd);
	igt_assert_eq_u64(group(ctx.fd, LOCAL).current_usage, 3 * MIB);
	igt_assert_eq_u64(group(ctx.fd, NON_LOCAL).current_usage, 0);

	/* Committed to the aperture: the non-local group. */
	vseg_create_args(&c, MIB, BIT(ctx.ap_id), 0);
	vseg_create_prefer(&c, ctx.ap_id, 0);
	a = vseg_gem_create(ctx.fd, &c);
	vseg_make_resident(ctx.fd, &a, 1);
	igt_assert_eq_u32(vseg_gem_segment(ctx.fd, a), ctx.ap_id);
	igt_assert_eq_u64(group(ctx.fd, NON_LOCAL).current_usage, MIB);

	/* Evicted: out of the local group, into the aperture or not. */
	vseg_evict(ctx.fd, &h[2], 1);
	igt_assert_neq_u32(vseg_gem_segment(ctx.fd, h[2]), VRAM);
	nonlocal = vseg_gem_segment(ctx.fd, h[2]) == ctx.ap_id ? 2 * MIB : MIB;
	query_budget(ctx.fd, &b);
	igt_assert_eq_u64(b.groups[LOCAL].current_usage, 2 * MIB);
	igt_assert_eq_u64(b.groups[NON_LOCAL].current_usage, nonlocal);
	igt_info("local: budget %llu usage %llu; non-local: budget %llu usage %llu\n",
		 (unsigned long long)b.groups[LOCAL].budget,
		 (unsigned long long)b.groups[LOCAL].current_usage,
		 (unsigned long long)b.groups[NON_LOCAL].budget,
		 (unsigned long long)b.groups[NON_LOCAL].current_usage);

	/* Per process: another file of it sees the same. */
	fd2 = drm_open_vseg();
	query_budget(fd2, &b2);
	igt_assert(!memcmp(&b, &b2, sizeof(b)));

	/* A second process with a buffer resident: two active, half each. */
	igt_assert_eq(pipe(to_child), 0);
	igt_assert_eq(pipe(to_parent), 0);
	igt_fork(child, 1) {
		int cfd = drm_open_vseg_render();
		struct drm_vseg_budget_info l;
		uint32_t ch;

		vseg_drop_privileges();
		l = group(cfd, LOCAL);
		/* The parent is active: the child counts itself too. */
		igt_assert_eq_u64(l.budget, LOCAL_SIZE / 2);
		igt_assert_eq_u64(l.current_usage, 0);
		ch = resident_mib(cfd);
		l = group(cfd, LOCAL);
		igt_assert_eq_u64(l.current_usage, MIB);
		igt_assert_eq_u64(l.budget, LOCAL_SIZE / 2);
		vseg_sync_write(to_parent[1]);
		vseg_sync_read(to_child[0]);
		vseg_gem_close(cfd, ch);
		close(cfd);
	}
	vseg_sync_read(to_parent[0]);
	igt_assert_eq_u64(group(ctx.fd, LOCAL).budget, LOCAL_SIZE / 2);
	igt_assert_eq_u64(group(fd2, LOCAL).budget, LOCAL_SIZE / 2);
	igt_assert_eq_u64(group(ctx.fd, LOCAL).current_usage, 2 * MIB);
	/* Not active in the non-local group: the parent has it alone. */
	igt_assert_eq_u64(group(ctx.fd, NON_LOCAL).budget, ap->commit_limit);
	vseg_sync_write(to_child[1]);
	igt_waitchildren();
	wait_budget(ctx.fd, LOCAL, LOCAL_SIZE);
	for (unsigned int i = 0; i < 2; i++) {
		close(to_child[i]);
		close(to_parent[i]);
	}

	close(fd2);
	for (unsigned int i = 0; i < 3; i++)
		vseg_gem_close(ctx.fd, h[i]);
	vseg_gem_close(ctx.fd, a);
	query_budget(ctx.fd, &b);
	igt_assert_eq_u64(b.groups[LOCAL].current_usage, 0);
	igt_assert_eq_u64(b.groups[NON_LOCAL].current_usage, 0);
	vseg_ctx_finish(&ctx, "after closing every buffer");
}

static void test_reservation(void)
{
	const uint64_t cap = RESERVABLE(LOCAL_SIZE);
	struct drm_vseg_budget_info l;
	int fd2, to_child[2], to_parent[2];

	vseg_ctx_start(&ctx);
	reserve(ctx.fd, LOCAL, 4 * MIB);
	l = group(ctx.fd, LOCAL);
	igt_assert_eq_u64(l.budget, LOCAL_SIZE);
	igt_assert_eq_u64(l.available_for_reservation, cap);

	/* The process's, whichever file sets it. */
	fd2 = drm_open_vseg();
	igt_assert_eq_u64(group(fd2, LOCAL).current_reservation, 4 * MIB);
	reserve(fd2, LOCAL, 3 * MIB);
	igt_assert_eq_u64(group(ctx.fd, LOCAL).current_reservation, 3 * MIB);
	reserve(fd2, LOCAL, 4 * MIB);
	/* Closing one of its files keeps it. */
	close(fd2);
	igt_assert_eq_u64(group(ctx.fd, LOCAL).current_reservation, 4 * MIB);
	/* Reserving the non-local group leaves the local one. */
	reserve(ctx.fd, NON_LOCAL, MIB);
	igt_assert_eq_u64(group(ctx.fd, LOCAL).current_reservation, 4 * MIB);
	reserve(ctx.fd, NON_LOCAL, 0);

	igt_assert_eq(pipe(to_child), 0);
	igt_assert_eq(pipe(to_parent), 0);
	igt_fork(child, 1) {
		int cfd = drm_open_vseg_render();
		int cfd2 = drm_open_vseg_render();
		struct drm_vseg_budget_info cl;

		vseg_drop_privileges();
		cl = group(cfd, LOCAL);
		igt_assert_eq_u64(cl.available_for_reservation, cap - 4 * MIB);
		/* Beyond what is left: refused, nothing changed. */
		igt_assert_eq(__reserve(cfd, LOCAL, cap - 4 * MIB + 4096),
			      -ENOSPC);
		igt_assert_eq_u64(group(cfd, LOCAL).current_reservation, 0);
		reserve(cfd, LOCAL, 2 * MIB);
		/* Its 2 MiB plus half of the 2 MiB no one reserved. */
		cl = group(cfd, LOCAL);
		igt_assert_eq_u64(cl.budget, 2 * MIB + MIB);
		/* Two files; closing the first keeps the reservation. */
		close(cfd);
		igt_assert_eq_u64(group(cfd2, LOCAL).current_reservation,
				  2 * MIB);
		vseg_sync_write(to_parent[1]);
		vseg_sync_read(to_child[0]);
		/* The last file: the reservation goes. */
		close(cfd2);
		vseg_sync_write(to_parent[1]);
		vseg_sync_read(to_child[0]);
	}
	vseg_sync_read(to_parent[0]);
	l = group(ctx.fd, LOCAL);
	igt_assert_eq_u64(l.available_for_reservation, cap - 2 * MIB);
	igt_assert_eq_u64(l.budget, 4 * MIB + MIB);
	/* The parent may not take back what the child holds. */
	igt_assert_eq(__reserve(ctx.fd, LOCAL, cap - 2 * MIB + 4096),
		      -ENOSPC);
	igt_assert_eq_u64(group(ctx.fd, LOCAL).current_reservation, 4 * MIB);
	vseg_sync_write(to_child[1]);
	vseg_sync_read(to_parent[0]);
	/* The child's last file is closed, the child still alive. */
	l = group(ctx.fd, LOCAL);
	igt_assert_eq_u64(l.available_for_reservation, cap);
	igt_assert_eq_u64(l.budget, LOCAL_SIZE);
	igt_assert_eq(__reserve(ctx.fd, LOCAL, cap), 0);
	vseg_sync_write(to_child[1]);
	igt_waitchildren();
	for (unsigned int i = 0; i < 2; i++) {
		close(to_child[i]);
		close(to_parent[i]);
	}
	reserve(ctx.fd, LOCAL, 0);
	vseg_ctx_finish(&ctx, "after the reservations");
}

/*
 * A file of user nobody: opened with nobody's real uid (the user vseg
 * charges) and root's effective one (for the node's permissions), then
 * every privilege dropped (vseg_drop_privileges()).
 */
static int open_as_nobody(void)
{
	int fd;

	igt_assert_eq(setresuid(VSEG_NOBODY, 0, 0), 0);
	fd = drm_open_vseg_render();
	igt_assert_eq(setresuid(0, 0, 0), 0);
	vseg_drop_privileges();
	return fd;
}

/*
 * The unreserved part goes per user, then per process: an unprivileged
 * user forking three active processes leaves root's one process its
 * half, and each of its own gets a third of the other half.
 */
static void test_per_user(void)
{
	const int n = 3;
	int to_child[3][2], to_parent[2];
	uint32_t h;

	vseg_ctx_start(&ctx);
	h = resident_mib(ctx.fd);
	wait_budget(ctx.fd, LOCAL, LOCAL_SIZE);
	igt_assert_eq(pipe(to_parent), 0);
	/* One pipe each: a fast child must not take a slower one's turn. */
	for (int i = 0; i < n; i++)
		igt_assert_eq(pipe(to_child[i]), 0);
	igt_fork(child, n) {
		int cfd = open_as_nobody();
		uint32_t ch = resident_mib(cfd);

		vseg_sync_write(to_parent[1]);
		vseg_sync_read(to_child[child][0]);
		igt_assert_eq_u64(group(cfd, LOCAL).budget,
				  LOCAL_SIZE / 2 / n);
		/* Nor can it take more than what is reservable. */
		igt_assert_eq(__reserve(cfd, LOCAL,
					RESERVABLE(LOCAL_SIZE) + 4096),
			      -ENOSPC);
		vseg_sync_write(to_parent[1]);
		vseg_sync_read(to_child[child][0]);
		vseg_gem_close(cfd, ch);
		close(cfd);
	}
	for (int i = 0; i < n; i++)
		vseg_sync_read(to_parent[0]);
	/* Per process, it would have been a quarter. */
	igt_assert_eq_u64(group(ctx.fd, LOCAL).budget, LOCAL_SIZE / 2);
	for (int i = 0; i < n; i++)
		vseg_sync_write(to_child[i][1]);
	for (int i = 0; i < n; i++)
		vseg_sync_read(to_parent[0]);
	for (int i = 0; i < n; i++)
		vseg_sync_write(to_child[i][1]);
	igt_waitchildren();
	wait_budget(ctx.fd, LOCAL, LOCAL_SIZE);
	for (int i = 0; i < 2; i++) {
		close(to_parent[i]);
		for (int c = 0; c < n; c++)
			close(to_child[c][i]);
	}
	vseg_gem_close(ctx.fd, h);
	vseg_ctx_finish(&ctx, "after the users' processes");
}

static void test_reservation_invalid(void)
{
	const uint64_t cap = RESERVABLE(LOCAL_SIZE);
	struct drm_vseg_query_budget before, after;
	struct drm_vseg_set_reservation r;

	vseg_ctx_start(&ctx);
	reserve(ctx.fd, LOCAL, MIB);
	query_budget(ctx.fd, &before);

	for (unsigned int k = 0; k < 6; k++) {
		memset(&r, 0, sizeof(r));
		r.reservation = 2 * MIB;
		switch (k) {
		case 0:
			r.group = DRM_VSEG_BUDGET_NUM_GROUPS;
			break;
		case 1:
			r.group = ~0u;
			break;
		case 2:
			r.flags = 1;
			break;
		case 3:
			r.extensions = 1;
			break;
		case 4:
			r.reserved[0] = 1;
			break;
		case 5:
			r.reserved[1] = 1ull << 63;
			break;
		}
		igt_assert_f(__vseg_ioctl(ctx.fd, DRM_IOCTL_VSEG_SET_RESERVATION,
					  &r) == -EINVAL,
			     "bad argument %u not refused\n", k);
	}
	igt_assert_eq(__reserve(ctx.fd, LOCAL, cap + 1), -ENOSPC);
	igt_assert_eq(__reserve(ctx.fd, LOCAL, ~0ull), -ENOSPC);
	igt_assert_eq(__reserve(ctx.fd, NON_LOCAL, ~0ull), -ENOSPC);
	query_budget(ctx.fd, &after);
	igt_assert(!memcmp(&before, &after, sizeof(before)));
	/* The cap itself is allowed. */
	reserve(ctx.fd, LOCAL, cap);
	reserve(ctx.fd, LOCAL, 0);
	vseg_ctx_finish(&ctx, "after the refused reservations");
}

static bool __set_policy(bool on)
{
	int fd = open(POLICY_PARAM, O_WRONLY);
	bool ok;

	if (fd < 0)
		return false;
	ok = write(fd, on ? "Y" : "N", 1) == 1;
	close(fd);
	return ok;
}

static void set_policy(bool on)
{
	igt_assert_f(__set_policy(on), "cannot write %s\n", POLICY_PARAM);
}

/*
 * Four reserved 1 MiB buffers; a hostile unprivileged process pushes
 * 12 MiB into the 8 MiB segment. Returns how many of the four left it.
 */
static unsigned int hostile_push(void)
{
	uint32_t h[4];
	unsigned int left = 0;
	int to_child[2], to_parent[2];

	for (unsigned int i = 0; i < 4; i++) {
		h[i] = resident_mib(ctx.fd);
		vseg_bo_fill_pattern(ctx.fd, h[i], MIB, 0x5eed0 + i);
	}
	reserve(ctx.fd, LOCAL, 4 * MIB);
	igt_assert_eq_u64(group(ctx.fd, LOCAL).current_usage, 4 * MIB);

	igt_assert_eq(pipe(to_child), 0);
	igt_assert_eq(pipe(to_parent), 0);
	igt_fork(child, 1) {
		int cfd = drm_open_vseg_render();
		unsigned int in_vram = 0;

		vseg_drop_privileges();
		/* Its own reservation cannot take the reserved bytes. */
		igt_assert_eq(__reserve(cfd, LOCAL, LOCAL_SIZE), -ENOSPC);
		for (unsigned int i = 0; i < 12; i++) {
			uint32_t ch = vseg_gem_create_in(cfd, MIB, VRAM, 0);

			/* Twice: the second after its own buffers moved. */
			for (unsigned int k = 0; k < 2; k++)
				__vseg_make_resident(cfd, &ch, 1, NULL);
			in_vram += vseg_gem_segment(cfd, ch) == VRAM;
		}
		igt_info("hostile: %u of 12 buffers in the segment\n",
			 in_vram);
		vseg_sync_write(to_parent[1]);
		/* Its buffers stay while the parent looks. */
		vseg_sync_read(to_child[0]);
	}
	vseg_sync_read(to_parent[0]);
	for (unsigned int i = 0; i < 4; i++)
		left += vseg_gem_segment(ctx.fd, h[i]) != VRAM;
	vseg_sync_write(to_child[1]);
	igt_waitchildren();
	for (unsigned int i = 0; i < 2; i++) {
		close(to_child[i]);
		close(to_parent[i]);
	}
	for (unsigned int i = 0; i < 4; i++) {
		vseg_bo_check_pattern(ctx.fd, h[i], MIB, 0x5eed0 + i,
				      "after the hostile push");
		vseg_gem_close(ctx.fd, h[i]);
	}
	reserve(ctx.fd, LOCAL, 0);
	return left;
}

static void test_reservation_hostile(void)
{
	unsigned int left;

	vseg_ctx_start(&ctx);
	left = hostile_push();
	igt_info("budget_policy on: %u of 4 reserved buffers evicted\n", left);
	igt_assert_eq_u32(left, 0);

	set_policy(false);
	left = hostile_push();
	set_policy(true);
	igt_info("budget_policy off: %u of 4 reserved buffers evicted\n", left);
	igt_assert_f(left > 0,
		     "the control evicted nothing: the push proves nothing\n");
	vseg_ctx_finish(&ctx, "after the hostile pushes");
}

static int __create_prio(int fd, uint32_t prio, uint32_t pad,
			 uint32_t *handle)
{
	struct drm_vseg_gem_create_ext_priority e = {
		.base.name = DRM_VSEG_GEM_CREATE_EXT_PRIORITY,
		.priority = prio,
		.pad = pad,
	};
	struct drm_vseg_gem_create c;
	int err;

	vseg_create_args(&c, MIB, BIT(VRAM) | BIT(ctx.ap_id), 0);
	vseg_create_prefer(&c, VRAM, 0);
	c.extensions = (uintptr_t)&e;
	err = __vseg_gem_create(fd, &c);
	*handle = c.handle;
	return err;
}

static int __set_prio(int fd, uint32_t handle, uint32_t prio)
{
	struct drm_vseg_set_priority a = {
		.handle = handle,
		.priority = prio,
	};

	return __vseg_ioctl(fd, DRM_IOCTL_VSEG_SET_PRIORITY, &a);
}

/* How many of the HIGH buffers a NORMAL push evicted, and of the LOW. */
static void priority_push(unsigned int *high_out, unsigned int *low_out)
{
	uint32_t high[4], low[4], normal[4];

	*high_out = *low_out = 0;
	for (unsigned int i = 0; i < 4; i++) {
		igt_assert_eq(__create_prio(ctx.fd, DRM_VSEG_PRIORITY_HIGH, 0,
					    &high[i]), 0);
		vseg_make_resident(ctx.fd, &high[i], 1);
		igt_assert_eq_u32(vseg_gem_segment(ctx.fd, high[i]), VRAM);
	}
	for (unsigned int i = 0; i < 4; i++) {
		if (i < 2) {
			igt_assert_eq(__create_prio(ctx.fd,
						    DRM_VSEG_PRIORITY_LOW, 0,
						    &low[i]), 0);
		} else {
			low[i] = vseg_gem_create_in(ctx.fd, MIB, VRAM, 0);
			igt_assert_eq(__set_prio(ctx.fd, low[i],
						 DRM_VSEG_PRIORITY_MINIMUM), 0);
		}
		__vseg_make_resident(ctx.fd, &low[i], 1, NULL);
	}
	for (unsigned int i = 0; i < 4; i++) {
		normal[i] = vseg_gem_create_in(ctx.fd, MIB, VRAM, 0);
		vseg_make_resident(ctx.fd, &normal[i], 1);
		igt_assert_eq_u32(vseg_gem_segment(ctx.fd, normal[i]), VRAM);
	}
	for (unsigned int i = 0; i < 4; i++) {
		*high_out += vseg_gem_segment(ctx.fd, high[i]) != VRAM;
		*low_out += vseg_gem_segment(ctx.fd, low[i]) != VRAM;
	}
	for (unsigned int i = 0; i < 4; i++) {
		vseg_gem_close(ctx.fd, high[i]);
		vseg_gem_close(ctx.fd, low[i]);
		vseg_gem_close(ctx.fd, normal[i]);
	}
}

static void test_priority_order(void)
{
	unsigned int high, low;

	vseg_ctx_start(&ctx);
	priority_push(&high, &low);
	igt_info("budget_policy on: evicted %u of 4 HIGH, %u of 4 LOW\n",
		 high, low);
	igt_assert_eq_u32(high, 0);
	igt_assert_lt(0, low);

	set_policy(false);
	priority_push(&high, &low);
	set_policy(true);
	igt_info("budget_policy off: evicted %u of 4 HIGH, %u of 4 LOW\n",
		 high, low);
	igt_assert_f(high > 0, "the control evicted no HIGH buffer\n");
	vseg_ctx_finish(&ctx, "after the priority pushes");
}

/*
 * The parent, within its budget, holds two 1 MiB buffers in the 8 MiB
 * segment (the least recently used); an unprivileged child fills the rest
 * with six, going over its 4 MiB budget; the parent then makes a third
 * resident. Returns how many of the parent's first two left the segment.
 */
static unsigned int over_budget_push(void)
{
	int to_child[2], to_parent[2];
	unsigned int left = 0;
	uint32_t h[3];

	for (unsigned int i = 0; i < 2; i++) {
		h[i] = resident_mib(ctx.fd);
		vseg_bo_fill_pattern(ctx.fd, h[i], MIB, 0x0b0 + i);
	}
	igt_assert_eq(pipe(to_child), 0);
	igt_assert_eq(pipe(to_parent), 0);
	igt_fork(child, 1) {
		int cfd = drm_open_vseg_render();
		struct drm_vseg_budget_info l;
		uint32_t ch[6];
		unsigned int in = 0;

		vseg_drop_privileges();
		for (unsigned int i = 0; i < 6; i++) {
			ch[i] = vseg_gem_create_in(cfd, MIB, VRAM, 0);
			__vseg_make_resident(cfd, &ch[i], 1, NULL);
		}
		l = group(cfd, LOCAL);
		igt_info("hostile: usage %llu, budget %llu\n",
			 (unsigned long long)l.current_usage,
			 (unsigned long long)l.budget);
		vseg_sync_write(to_parent[1]);
		vseg_sync_read(to_child[0]);
		for (unsigned int i = 0; i < 6; i++)
			in += vseg_gem_segment(cfd, ch[i]) == VRAM;
		igt_info("hostile: %u of 6 buffers left in the segment\n", in);
		vseg_sync_write(to_parent[1]);
		vseg_sync_read(to_child[0]);
	}
	vseg_sync_read(to_parent[0]);
	h[2] = vseg_gem_create_in(ctx.fd, MIB, VRAM, 0);
	igt_assert_eq(__vseg_make_resident(ctx.fd, &h[2], 1, NULL), 0);
	igt_assert_eq_u32(vseg_gem_segment(ctx.fd, h[2]), VRAM);
	for (unsigned int i = 0; i < 2; i++)
		left += vseg_gem_segment(ctx.fd, h[i]) != VRAM;
	vseg_sync_write(to_child[1]);
	vseg_sync_read(to_parent[0]);
	vseg_sync_write(to_child[1]);
	igt_waitchildren();
	for (unsigned int i = 0; i < 2; i++) {
		close(to_child[i]);
		close(to_parent[i]);
		vseg_bo_check_pattern(ctx.fd, h[i], MIB, 0x0b0 + i,
				      "after the over-budget push");
	}
	for (unsigned int i = 0; i < 3; i++)
		vseg_gem_close(ctx.fd, h[i]);
	return left;
}

static void test_over_budget_first(void)
{
	unsigned int left;

	vseg_ctx_start(&ctx);
	left = over_budget_push();
	igt_info("budget_policy on: %u of 2 older buffers evicted\n", left);
	igt_assert_eq_u32(left, 0);

	set_policy(false);
	left = over_budget_push();
	set_policy(true);
	igt_info("budget_policy off: %u of 2 older buffers evicted\n", left);
	igt_assert_f(left > 0,
		     "the control evicted nothing: the push proves nothing\n");
	vseg_ctx_finish(&ctx, "after the over-budget pushes");
}

static void test_priority_invalid(void)
{
	struct drm_vseg_set_priority a;
	uint32_t h;

	vseg_ctx_start(&ctx);
	igt_assert_eq(__create_prio(ctx.fd, 0, 0, &h), -EINVAL);
	igt_assert_eq(__create_prio(ctx.fd, DRM_VSEG_PRIORITY_LOW, 1, &h),
		      -EINVAL);
	igt_assert_eq(vseg_allocation_count(ctx.fd), ctx.base_count);
	igt_assert_eq(__create_prio(ctx.fd, DRM_VSEG_PRIORITY_MAXIMUM, 0, &h),
		      0);
	for (unsigned int k = 0; k < 6; k++) {
		memset(&a, 0, sizeof(a));
		a.handle = h;
		a.priority = DRM_VSEG_PRIORITY_LOW;
		switch (k) {
		case 0:
			a.priority = 0;
			break;
		case 1:
			a.flags = 1;
			break;
		case 2:
			a.pad = 1;
			break;
		case 3:
			a.extensions = 1;
			break;
		case 4:
			a.reserved[0] = 1;
			break;
		case 5:
			a.reserved[1] = 1;
			break;
		}
		igt_assert_f(__vseg_ioctl(ctx.fd, DRM_IOCTL_VSEG_SET_PRIORITY,
					  &a) == -EINVAL,
			     "bad argument %u not refused\n", k);
	}
	igt_assert_eq(__set_prio(ctx.fd, h + 1000, DRM_VSEG_PRIORITY_LOW),
		      -ENOENT);
	igt_assert_eq(__set_prio(ctx.fd, h, DRM_VSEG_PRIORITY_LOW), 0);
	vseg_gem_close(ctx.fd, h);
	vseg_ctx_finish(&ctx, "after the refused priorities");
}

static int __make_resident_trim(int fd, uint32_t h, uint64_t *trim)
{
	struct drm_vseg_residency_ext_trim e = {
		.base.name = DRM_VSEG_RESIDENCY_EXT_TRIM,
		.bytes_to_trim = { ~0ull, ~0ull },
	};
	struct drm_vseg_residency r = {
		.extensions = (uintptr_t)&e,
		.handles = (uintptr_t)&h,
		.count = 1,
	};
	int err = __vseg_residency(fd, DRM_IOCTL_VSEG_MAKE_RESIDENT, &r);

	trim[0] = e.bytes_to_trim[0];
	trim[1] = e.bytes_to_trim[1];
	return err;
}

static void test_trim(void)
{
	struct drm_vseg_residency_ext_trim e = {
		.base.name = DRM_VSEG_RESIDENCY_EXT_TRIM,
	};
	struct drm_vseg_residency r = {};
	int to_child[2], to_parent[2];
	uint64_t trim[2];
	uint32_t h[6];

	vseg_ctx_start(&ctx);
	for (unsigned int i = 0; i < 6; i++)
		h[i] = resident_mib(ctx.fd);
	igt_assert_eq(__make_resident_trim(ctx.fd, h[0], trim), 0);
	igt_assert_eq_u64(trim[LOCAL], 0);
	igt_assert_eq_u64(trim[NON_LOCAL], 0);

	igt_assert_eq(pipe(to_child), 0);
	igt_assert_eq(pipe(to_parent), 0);
	igt_fork(child, 1) {
		int cfd = drm_open_vseg_render();
		uint32_t ch[2];
		uint64_t ct[2];

		vseg_drop_privileges();
		for (unsigned int i = 0; i < 2; i++) {
			ch[i] = vseg_gem_create_in(cfd, MIB, VRAM, 0);
			igt_assert_eq(__make_resident_trim(cfd, ch[i], ct), 0);
			igt_assert_eq_u32(vseg_gem_segment(cfd, ch[i]), VRAM);
		}
		/* 2 MiB against a budget of 4 MiB. */
		igt_assert_eq_u64(group(cfd, LOCAL).budget, LOCAL_SIZE / 2);
		igt_assert_eq_u64(ct[LOCAL], 0);
		vseg_sync_write(to_parent[1]);
		vseg_sync_read(to_child[0]);
	}
	vseg_sync_read(to_parent[0]);
	/* 6 MiB resident, the budget 4 MiB: still succeeds, trim 2 MiB. */
	igt_assert_eq_u64(group(ctx.fd, LOCAL).current_usage, 6 * MIB);
	igt_assert_eq(__make_resident_trim(ctx.fd, h[5], trim), 0);
	igt_info("over budget: %llu bytes to trim\n",
		 (unsigned long long)trim[LOCAL]);
	igt_assert_eq_u64(trim[LOCAL], 2 * MIB);
	igt_assert_eq_u64(trim[NON_LOCAL], 0);
	vseg_sync_write(to_child[1]);
	igt_waitchildren();
	for (unsigned int i = 0; i < 2; i++) {
		close(to_child[i]);
		close(to_parent[i]);
	}
	/* Alone again: nothing to trim. */
	wait_budget(ctx.fd, LOCAL, LOCAL_SIZE);
	igt_assert_eq(__make_resident_trim(ctx.fd, h[5], trim), 0);
	igt_assert_eq_u64(trim[LOCAL], 0);

	/* EVICT takes no extension. */
	r.extensions = (uintptr_t)&e;
	r.handles = (uintptr_t)&h[0];
	r.count = 1;
	igt_assert_eq(__vseg_residency(ctx.fd, DRM_IOCTL_VSEG_EVICT, &r),
		      -EINVAL);
	igt_assert_eq_u32(vseg_gem_segment(ctx.fd, h[0]), VRAM);
	for (unsigned int i = 0; i < 6; i++)
		vseg_gem_close(ctx.fd, h[i]);
	vseg_ctx_finish(&ctx, "after the trim");
}

static int __notify(int fd, uint64_t user_data)
{
	struct drm_vseg_budget_notify n = { .user_data = user_data };

	return __vseg_ioctl(fd, DRM_IOCTL_VSEG_BUDGET_NOTIFY, &n);
}

static bool readable(int fd, int timeout_ms)
{
	struct pollfd p = { .fd = fd, .events = POLLIN };

	return poll(&p, 1, timeout_ms) == 1 && (p.revents & POLLIN);
}

static void test_notify(void)
{
	struct drm_vseg_event_budget ev;
	struct drm_vseg_budget_notify n;
	int to_child[2], to_parent[2], fd2;
	uint32_t h;

	vseg_ctx_start(&ctx);
	h = resident_mib(ctx.fd);

	/* Bad requests arm nothing. */
	for (unsigned int k = 0; k < 5; k++) {
		memset(&n, 0, sizeof(n));
		switch (k) {
		case 0:
			n.flags = 1;
			break;
		case 1:
			n.pad = 1;
			break;
		case 2:
			n.extensions = 1;
			break;
		case 3:
			n.reserved[0] = 1;
			break;
		case 4:
			n.reserved[1] = 1;
			break;
		}
		igt_assert_f(__vseg_ioctl(ctx.fd, DRM_IOCTL_VSEG_BUDGET_NOTIFY,
					  &n) == -EINVAL,
			     "bad request %u not refused\n", k);
	}
	igt_assert_eq(__notify(ctx.fd, 0x1234), 0);
	igt_assert_eq(__notify(ctx.fd, 0x5678), -EBUSY);
	/* Our own moves do not change the budget: no event. */
	vseg_evict(ctx.fd, &h, 1);
	vseg_make_resident(ctx.fd, &h, 1);
	igt_assert(!readable(ctx.fd, 200));

	/* A file closed with a request pending. */
	fd2 = drm_open_vseg();
	igt_assert_eq(__notify(fd2, 1), 0);
	close(fd2);

	igt_assert_eq(pipe(to_child), 0);
	igt_assert_eq(pipe(to_parent), 0);
	igt_fork(child, 1) {
		int cfd = drm_open_vseg_render();
		uint32_t ch;

		vseg_drop_privileges();
		ch = resident_mib(cfd);
		vseg_sync_write(to_parent[1]);
		vseg_sync_read(to_child[0]);
		vseg_gem_close(cfd, ch);
		close(cfd);
	}
	vseg_sync_read(to_parent[0]);
	igt_assert_f(readable(ctx.fd, 5000),
		     "no budget event after another process became active\n");
	igt_assert_eq(read(ctx.fd, &ev, sizeof(ev)), sizeof(ev));
	igt_assert_eq_u32(ev.base.type, DRM_VSEG_EVENT_BUDGET);
	igt_assert_eq_u32(ev.base.length, sizeof(ev));
	igt_assert_eq_u64(ev.user_data, 0x1234);
	igt_assert_eq_u64(ev.budget[LOCAL], LOCAL_SIZE / 2);
	/* One event per request. */
	igt_assert(!readable(ctx.fd, 100));

	/* Again: the child's going doubles it back. */
	igt_assert_eq(__notify(ctx.fd, 0x9abc), 0);
	vseg_sync_write(to_child[1]);
	igt_waitchildren();
	igt_assert_f(readable(ctx.fd, 5000),
		     "no budget event after the other process went\n");
	igt_assert_eq(read(ctx.fd, &ev, sizeof(ev)), sizeof(ev));
	igt_assert_eq_u64(ev.user_data, 0x9abc);
	igt_assert_eq_u64(ev.budget[LOCAL], LOCAL_SIZE);
	for (unsigned int i = 0; i < 2; i++) {
		close(to_child[i]);
		close(to_parent[i]);
	}
	vseg_gem_close(ctx.fd, h);
	vseg_ctx_finish(&ctx, "after the budget events");
}

/* The process's paging penalty, ns, from @fd's fdinfo. */
static uint64_t paging_penalty(int fd)
{
	uint64_t ns = UINT64_MAX;
	char path[64], line[256];
	FILE *f;

	snprintf(path, sizeof(path), "/proc/self/fdinfo/%d", fd);
	f = fopen(path, "r");
	igt_assert_f(f, "cannot open %s\n", path);
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "vseg-paging-penalty: %" SCNu64 " ns",
			   &ns) == 1)
			break;
	fclose(f);
	igt_assert_f(ns != UINT64_MAX, "no vseg-paging-penalty in fdinfo\n");
	return ns;
}

static void set_mbps(unsigned int mbps)
{
	int fd = open(MBPS_PARAM, O_WRONLY);
	char v[16];
	int n = snprintf(v, sizeof(v), "%u", mbps);

	igt_assert_f(fd >= 0, "cannot open %s\n", MBPS_PARAM);
	igt_assert_eq(write(fd, v, n), n);
	close(fd);
}

static unsigned int get_mbps(void)
{
	int fd = open(MBPS_PARAM, O_RDONLY);
	char v[16] = "";
	unsigned int mbps;

	igt_assert_f(fd >= 0, "cannot open %s\n", MBPS_PARAM);
	igt_assert(read(fd, v, sizeof(v) - 1) > 0);
	close(fd);
	igt_assert_eq(sscanf(v, "%u", &mbps), 1);
	return mbps;
}

/* EVICT @h, then bring it back: by MAKE_RESIDENT, or by a job using it. */
static void page_in(int fd, uint32_t h, bool job)
{
	struct vseg_cmdbuf cb;

	/* AccessedPhysically: evicted into the aperture. */
	vseg_evict(fd, &h, 1);
	igt_assert_neq_u32(vseg_gem_segment(fd, h), VRAM);
	if (job) {
		vseg_cb_init(&cb);
		vseg_cb_fill_phys(&cb, h, 0, 4096, 0x5a5a5a5a);
		vseg_cb_exec_ok(fd, DRM_VSEG_ENGINE_COPY, &cb, "page-in job");
		vseg_cb_fini(&cb);
	} else {
		vseg_make_resident(fd, &h, 1);
	}
	igt_assert_eq_u32(vseg_gem_segment(fd, h), VRAM);
}

static void test_paging_penalty(void)
{
	/* 1 MiB at 16 MiB/s. */
	const uint64_t one = 62500000;
	unsigned int mbps = get_mbps();
	uint32_t h;

	/*
	 * The parent's 1 MiB and the child's 5 leave 2 MiB of the segment
	 * free: paging back in needs no eviction, whenever TTM frees the
	 * old placements of the EVICTs.
	 */
	vseg_ctx_start(&ctx);
	set_mbps(16);
	h = resident_mib(ctx.fd);
	igt_fork(child, 1) {
		int cfd = drm_open_vseg_render();
		int cfd2 = drm_open_vseg_render();
		uint32_t ch[5];

		vseg_drop_privileges();
		/* Created resident: no paging, no penalty. */
		for (unsigned int i = 0; i < 5; i++)
			ch[i] = vseg_gem_create_in(cfd, MIB, VRAM, AP_FLAG);
		igt_assert_eq_u64(group(cfd, LOCAL).budget, LOCAL_SIZE / 2);
		igt_assert_eq_u64(paging_penalty(cfd), 0);

		/* Paged back in over its budget: 62.5 ms owed each time. */
		page_in(cfd, ch[4], false);
		igt_assert_eq_u64(paging_penalty(cfd), one);
		page_in(cfd, ch[3], true);
		igt_assert_eq_u64(paging_penalty(cfd), 2 * one);
		/* Per process: its other file says the same. */
		igt_assert_eq_u64(paging_penalty(cfd2), 2 * one);
		close(cfd2);
		for (unsigned int i = 0; i < 5; i++)
			vseg_gem_close(cfd, ch[i]);
		close(cfd);
	}
	igt_waitchildren();
	/* Within its budget all along. */
	igt_assert_eq_u64(paging_penalty(ctx.fd), 0);

	/* The same child with the rate 0, then with the policy off. */
	for (unsigned int off = 0; off < 2; off++) {
		if (off)
			set_policy(false);
		else
			set_mbps(0);
		igt_fork(child, 1) {
			int cfd = drm_open_vseg_render();
			uint32_t ch[5];

			vseg_drop_privileges();
			for (unsigned int i = 0; i < 5; i++)
				ch[i] = vseg_gem_create_in(cfd, MIB, VRAM,
							   AP_FLAG);
			page_in(cfd, ch[4], false);
			page_in(cfd, ch[3], true);
			igt_assert_eq_u64(paging_penalty(cfd), 0);
			for (unsigned int i = 0; i < 5; i++)
				vseg_gem_close(cfd, ch[i]);
			close(cfd);
		}
		igt_waitchildren();
		set_policy(true);
		set_mbps(16);
	}
	set_mbps(mbps);
	vseg_gem_close(ctx.fd, h);
	vseg_ctx_finish(&ctx, "after the paging penalty");
}

igt_main
{
	igt_fixture {
		vseg_ctx_setup(&ctx);
		vseg_ctx_load(&ctx, TABLE);
	}

	igt_describe("The budget query's figures against what was made "
		     "resident, per process.");
	igt_subtest("query")
		test_query();

	igt_describe("Reservations: per process, capped, released with the "
		     "last file.");
	igt_subtest("reservation")
		test_reservation();

	igt_describe("A user's share of the budget does not grow with the "
		     "processes it forks.");
	igt_subtest("budget-per-user")
		test_per_user();

	igt_describe("SET_RESERVATION's bad arguments change nothing.");
	igt_subtest("reservation-invalid")
		test_reservation_invalid();

	igt_describe("A reservation holds against an unprivileged hostile "
		     "process; with budget_policy off it does not.");
	igt_subtest("reservation-hostile")
		test_reservation_hostile();

	igt_describe("Eviction takes lower residency priorities first.");
	igt_subtest("priority-order")
		test_priority_order();

	igt_describe("The buffers of a process over its budget go first.");
	igt_subtest("over-budget-first")
		test_over_budget_first();

	igt_describe("Bad priorities change nothing.");
	igt_subtest("priority-invalid")
		test_priority_invalid();

	igt_describe("MAKE_RESIDENT over budget succeeds and reports the "
		     "bytes to trim.");
	igt_subtest("trim")
		test_trim();

	igt_describe("An over-budget process's paging costs it time, per "
		     "process; never within budget, with the policy off or "
		     "the rate 0.");
	igt_subtest("paging-penalty")
		test_paging_penalty();

	igt_describe("A process waits for its budget to change: a DRM event.");
	igt_subtest("notify")
		test_notify();

	igt_fixture {
		__set_policy(true);
		vseg_ctx_unload(&ctx);
	}
}
