// SPDX-License-Identifier: MIT
/*
 * vseg_syncobj: SUBMIT's sync arrays with timeline syncobjs.
 *
 * Copyright (c) 2026 The vseg authors
 */
/**
 * TEST: vseg syncobj
 * Category: Core
 * Mega feature: General Core features
 * Sub-category: Synchronization
 * Functionality: timeline syncobj
 * Description: Check SUBMIT's input and output syncobjs as timelines:
 *	points signalled and waited for, jobs chained by points across
 *	clients, binary syncobjs (point 0), and the rejection of bad sync
 *	arrays, also by a hostile second client.
 *
 * SUBTEST: timeline-signal
 * Description: A job's output point signals when the job is done: the
 *	timeline's value reads the point, the points below it count as
 *	signalled, and the job's data is there.
 *
 * SUBTEST: timeline-wait
 * Description: A job on the render engine that waits for a point of a
 *	long copy-engine job runs after it: when its own point has signalled,
 *	the point it waited for has too.
 *
 * SUBTEST: timeline-chain
 * Description: Two clients sharing a timeline chain their jobs by points,
 *	each waiting for the other's last point: every job runs and the
 *	timeline ends at the last point.
 *
 * SUBTEST: binary
 * Description: Point 0 keeps the binary semantics, in and out, also on a
 *	timeline (the latest point), and larger sync elements with zeroed
 *	tails are taken.
 *
 * SUBTEST: invalid
 * Description: Bad sync arrays (sizes, flags, unknown tail bytes, handles,
 *	points on binary syncobjs, points not submitted, too many entries,
 *	bad pointers) are refused with their error, and nothing is queued or
 *	signalled.
 *
 * SUBTEST: hostile-client
 * Description: A second client sharing the timeline cannot use the first
 *	one's handles, may add points out of order or turn the syncobj into a
 *	binary one; the first client's points then give EINVAL, its data is
 *	never touched by a refused job, and the kernel stays quiet.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>
#include <xf86drm.h>

#include "igt.h"
#include "igt_vseg.h"

IGT_TEST_DESCRIPTION("Check SUBMIT's syncobjs as timelines: points in and "
		     "out, chains of jobs, binary compatibility and hostile "
		     "inputs.");

#define BUF_SIZE	SZ_64K
#define BIG_SIZE	SZ_8M
#define BIG_FILLS	16
#define RENDER_VA	0x100000000ull

static int fd = -1, fd2 = -1;

static uint32_t new_buf(int f, uint64_t size)
{
	return vseg_gem_create_simple(f, size, VSEG_SEG_BIT(1) | vseg_system_set(f),
				      DRM_VSEG_GEM_CREATE_ACCESSED_PHYSICALLY);
}

static uint64_t read_u64(int f, uint32_t handle, uint64_t offset)
{
	uint64_t v;

	vseg_bo_read(f, handle, offset, &v, sizeof(v));
	return v;
}

static struct drm_vseg_sync sync_of(uint32_t handle, uint64_t point)
{
	struct drm_vseg_sync s = { .handle = handle, .point = point };

	return s;
}

/* A copy-engine job storing @value at @offset of @handle. */
static int write_job(int f, uint32_t handle, uint64_t offset, uint64_t value,
		     const struct drm_vseg_sync *in, uint32_t num_in,
		     const struct drm_vseg_sync *out, uint32_t num_out)
{
	struct vseg_cmdbuf cb;
	int err;

	vseg_cb_init(&cb);
	vseg_cb_write_phys(&cb, handle, offset, value);
	err = __vseg_cb_submit_syncs(f, DRM_VSEG_ENGINE_COPY, &cb, in, num_in,
				     out, num_out);
	vseg_cb_fini(&cb);
	return err;
}

static int64_t deadline_ns(unsigned int ms)
{
	struct timespec now;

	clock_gettime(CLOCK_MONOTONIC, &now);
	return (int64_t)now.tv_sec * 1000000000ll + now.tv_nsec +
	       (int64_t)ms * 1000000ll;
}

/* Wait for @point of timeline @h: 0, -ETIME, or another -errno. */
static int tl_wait(int f, uint32_t h, uint64_t point, unsigned int ms)
{
	int ret = drmSyncobjTimelineWait(f, &h, &point, 1,
					 ms ? deadline_ns(ms) : 0,
					 DRM_SYNCOBJ_WAIT_FLAGS_WAIT_ALL, NULL);

	return ret ? -errno : 0;
}

static uint64_t tl_value(int f, uint32_t h)
{
	uint64_t point = 0;

	igt_assert_eq(drmSyncobjQuery(f, &h, &point, 1), 0);
	return point;
}

static void tl_wait_ok(int f, uint32_t h, uint64_t point, const char *what)
{
	int err = tl_wait(f, h, point, VSEG_JOB_TIMEOUT_MS);

	igt_assert_f(err == 0, "%s: waiting for point %llu gave %d (%s)\n",
		     what, (unsigned long long)point, err, vseg_errname(err));
}

static void test_timeline_signal(void)
{
	uint32_t buf = new_buf(fd, BUF_SIZE);
	uint32_t t = vseg_syncobj_create(fd, 0);
	struct drm_vseg_sync out = sync_of(t, 2), in;

	igt_assert_eq(write_job(fd, buf, 0, 0x1111, NULL, 0, &out, 1), 0);
	tl_wait_ok(fd, t, 2, "first job");
	igt_assert_eq_u64(tl_value(fd, t), 2);
	igt_assert_eq(tl_wait(fd, t, 1, 0), 0);
	igt_assert_eq_u64(read_u64(fd, buf, 0), 0x1111);

	out.point = 5;
	igt_assert_eq(write_job(fd, buf, 8, 0x2222, NULL, 0, &out, 1), 0);
	tl_wait_ok(fd, t, 5, "second job");
	igt_assert_eq_u64(tl_value(fd, t), 5);
	igt_assert_eq(tl_wait(fd, t, 3, 0), 0);
	igt_assert_eq_u64(read_u64(fd, buf, 8), 0x2222);

	/* A job waiting for a signalled point, signalling the next one. */
	in = sync_of(t, 4);
	out.point = 6;
	igt_assert_eq(write_job(fd, buf, 16, 0x3333, &in, 1, &out, 1), 0);
	tl_wait_ok(fd, t, 6, "third job");
	igt_assert_eq_u64(read_u64(fd, buf, 16), 0x3333);

	vseg_syncobj_destroy(fd, t);
	vseg_gem_close(fd, buf);
}

static void test_timeline_wait(void)
{
	uint32_t big = new_buf(fd, BIG_SIZE), small = new_buf(fd, BUF_SIZE);
	uint32_t t1 = vseg_syncobj_create(fd, 0);
	uint32_t t2 = vseg_syncobj_create(fd, 0);
	struct drm_vseg_sync out1 = sync_of(t1, 1), in2 = sync_of(t1, 1);
	struct drm_vseg_sync out2 = sync_of(t2, 3);
	struct vseg_cmdbuf cb;
	uint64_t v;

	vseg_require_engine(fd);
	/* A long job on the copy engine. */
	vseg_cb_init(&cb);
	for (unsigned int i = 0; i < BIG_FILLS; i++)
		vseg_cb_fill_phys(&cb, big, 0, BIG_SIZE, 0xb0 + i);
	igt_assert_eq(__vseg_cb_submit_syncs(fd, DRM_VSEG_ENGINE_COPY, &cb,
					     NULL, 0, &out1, 1), 0);
	vseg_cb_fini(&cb);

	/* A short one on the render engine, on another buffer, after it. */
	vseg_vm_bind(fd, small, RENDER_VA);
	vseg_cb_init(&cb);
	vseg_cb_write(&cb, RENDER_VA, 0x600d);
	igt_assert_eq(__vseg_cb_submit_syncs(fd, DRM_VSEG_ENGINE_RENDER, &cb,
					     &in2, 1, &out2, 1), 0);
	vseg_cb_fini(&cb);

	tl_wait_ok(fd, t2, 3, "the render job");
	igt_assert_f(tl_wait(fd, t1, 1, 0) == 0,
		     "the render job ended before the point it waited for\n");
	igt_assert_eq_u64(read_u64(fd, small, 0), 0x600d);
	vseg_bo_read(fd, big, BIG_SIZE - 8, &v, sizeof(v));
	igt_assert_eq_u64(v, 0x000000bf000000bfull);

	vseg_vm_unbind(fd, RENDER_VA);
	vseg_syncobj_destroy(fd, t1);
	vseg_syncobj_destroy(fd, t2);
	vseg_gem_close(fd, big);
	vseg_gem_close(fd, small);
}

/* Give @f2 the syncobj @h of @f1: its handle there. */
static uint32_t share_syncobj(int f1, uint32_t h, int f2)
{
	uint32_t h2;
	int sfd;

	igt_assert_eq(drmSyncobjHandleToFD(f1, h, &sfd), 0);
	igt_assert_eq(drmSyncobjFDToHandle(f2, sfd, &h2), 0);
	close(sfd);
	return h2;
}

#define CHAIN_JOBS	8

static void test_timeline_chain(void)
{
	uint32_t t = vseg_syncobj_create(fd, 0), t2 = share_syncobj(fd, t, fd2);
	uint32_t b1 = new_buf(fd, BUF_SIZE), b2 = new_buf(fd2, BUF_SIZE);

	for (unsigned int i = 1; i <= CHAIN_JOBS; i++) {
		bool first = i & 1;
		int f = first ? fd : fd2;
		struct drm_vseg_sync in = sync_of(first ? t : t2, i - 1);
		struct drm_vseg_sync out = sync_of(first ? t : t2, i);

		igt_assert_eq(write_job(f, first ? b1 : b2, 8 * i, 0xc0de + i,
					&in, i > 1, &out, 1), 0);
	}
	tl_wait_ok(fd, t, CHAIN_JOBS, "the last job");
	igt_assert_eq_u64(tl_value(fd, t), CHAIN_JOBS);
	igt_assert_eq_u64(tl_value(fd2, t2), CHAIN_JOBS);
	for (unsigned int i = 1; i <= CHAIN_JOBS; i++)
		igt_assert_eq_u64(read_u64(i & 1 ? fd : fd2, i & 1 ? b1 : b2,
					   8 * i), 0xc0de + i);

	vseg_syncobj_destroy(fd2, t2);
	vseg_syncobj_destroy(fd, t);
	vseg_gem_close(fd, b1);
	vseg_gem_close(fd2, b2);
}

/* A submission with syncs of @stride bytes each. */
static int submit_stride(uint32_t buf, uint64_t value, const void *in,
			 uint32_t num_in, const void *out, uint32_t num_out,
			 uint32_t stride)
{
	struct drm_vseg_submit s;
	struct vseg_cmdbuf cb;
	int err;

	vseg_cb_init(&cb);
	vseg_cb_write_phys(&cb, buf, 0, value);
	vseg_submit_args(&s, DRM_VSEG_ENGINE_COPY, &cb);
	s.in_syncs = (uintptr_t)in;
	s.num_in_syncs = num_in;
	s.out_syncs = (uintptr_t)out;
	s.num_out_syncs = num_out;
	s.sync_size = stride;
	err = __vseg_submit(fd, &s);
	vseg_cb_fini(&cb);
	return err;
}

static void test_binary(void)
{
	uint32_t buf = new_buf(fd, BUF_SIZE);
	uint32_t b = vseg_syncobj_create(fd, 0);
	uint32_t sig = vseg_syncobj_create(fd, DRM_SYNCOBJ_CREATE_SIGNALED);
	uint32_t t = vseg_syncobj_create(fd, 0);
	struct drm_vseg_sync in, out;
	union {
		struct drm_vseg_sync s;
		uint8_t bytes[DRM_VSEG_SYNC_SIZE_MAX];
	} big = {};

	/* Binary out, then binary in. */
	out = sync_of(b, 0);
	in = sync_of(sig, 0);
	igt_assert_eq(write_job(fd, buf, 0, 0xb1, &in, 1, &out, 1), 0);
	igt_assert_eq(vseg_syncobj_wait_error(fd, b, VSEG_JOB_TIMEOUT_MS), 0);
	igt_assert_eq_u64(read_u64(fd, buf, 0), 0xb1);
	in = sync_of(b, 0);
	out = sync_of(t, 1);
	igt_assert_eq(write_job(fd, buf, 8, 0xb2, &in, 1, &out, 1), 0);
	tl_wait_ok(fd, t, 1, "after a binary input");
	igt_assert_eq_u64(read_u64(fd, buf, 8), 0xb2);

	/* Point 0 of a timeline: its latest point; binary out replaces it. */
	in = sync_of(t, 0);
	out = sync_of(b, 0);
	igt_assert_eq(write_job(fd, buf, 16, 0xb3, &in, 1, &out, 1), 0);
	igt_assert_eq(vseg_syncobj_wait_error(fd, b, VSEG_JOB_TIMEOUT_MS), 0);
	igt_assert_eq_u64(read_u64(fd, buf, 16), 0xb3);

	/* Larger elements, tails zero: taken (a newer program's header). */
	big.s.handle = t;
	big.s.point = 2;
	igt_assert_eq(submit_stride(buf, 0xb4, NULL, 0, &big, 1, 24), 0);
	tl_wait_ok(fd, t, 2, "24-byte elements");
	igt_assert_eq(submit_stride(buf, 0xb5, &big, 1, NULL, 0,
				    DRM_VSEG_SYNC_SIZE_MAX), 0);
	big.s.point = 0;
	big.s.handle = b;
	/* No array at all: sync_size 0 is fine. */
	igt_assert_eq(submit_stride(buf, 0xb6, NULL, 0, NULL, 0, 0), 0);
	igt_assert_eq(submit_stride(buf, 0xb7, NULL, 0, &big, 1,
				    DRM_VSEG_SYNC_SIZE_MAX), 0);
	igt_assert_eq(vseg_syncobj_wait_error(fd, b, VSEG_JOB_TIMEOUT_MS), 0);
	igt_assert_eq_u64(read_u64(fd, buf, 0), 0xb7);

	vseg_syncobj_destroy(fd, t);
	vseg_syncobj_destroy(fd, sig);
	vseg_syncobj_destroy(fd, b);
	vseg_gem_close(fd, buf);
}

struct bad_env {
	uint32_t buf;
	uint32_t t;	/* a timeline at point 4 */
	uint32_t b;	/* a binary syncobj with a fence */
	uint32_t o;	/* a fresh binary syncobj */
};

/* Submit writing 0xbad, expecting @want, then check nothing changed. */
static void expect_refused(struct bad_env *e, int want, const void *in,
			   uint32_t num_in, const void *out, uint32_t num_out,
			   uint32_t stride, const char *what)
{
	int err = submit_stride(e->buf, 0xbad, in, num_in, out, num_out,
				stride);

	igt_assert_f(err == want, "%s: SUBMIT gave %d (%s), expected %d (%s)\n",
		     what, err, vseg_errname(err), want, vseg_errname(want));
	igt_assert_f(tl_value(fd, e->t) == 4,
		     "%s: the timeline moved to %llu\n", what,
		     (unsigned long long)tl_value(fd, e->t));
	igt_assert_f(!vseg_syncobj_has_fence(fd, e->o),
		     "%s: a refused job signalled an output\n", what);
}

static void test_invalid(void)
{
	struct drm_vseg_sync s[2], many[DRM_VSEG_MAX_SYNCS + 1];
	uint64_t tail[4] = {};
	struct bad_env e;
	void *bad;

	e.buf = new_buf(fd, BUF_SIZE);
	e.t = vseg_syncobj_create(fd, 0);
	e.b = vseg_syncobj_create(fd, DRM_SYNCOBJ_CREATE_SIGNALED);
	e.o = vseg_syncobj_create(fd, 0);
	s[0] = sync_of(e.t, 4);
	igt_assert_eq(write_job(fd, e.buf, 0, 0x600d, NULL, 0, s, 1), 0);
	tl_wait_ok(fd, e.t, 4, "setup");

	s[0] = sync_of(e.o, 0);
	expect_refused(&e, -EINVAL, NULL, 0, s, 1, 8, "sync_size 8");
	expect_refused(&e, -EINVAL, NULL, 0, s, 1, 0, "sync_size 0 with syncs");
	expect_refused(&e, -EINVAL, NULL, 0, s, 1, 20, "sync_size 20");
	expect_refused(&e, -EINVAL, NULL, 0, NULL, 0, 12,
		       "sync_size 12 without syncs");
	expect_refused(&e, -E2BIG, NULL, 0, s, 1, DRM_VSEG_SYNC_SIZE_MAX + 8,
		       "sync_size above the limit");

	s[0].flags = 1;
	expect_refused(&e, -EINVAL, NULL, 0, s, 1, sizeof(s[0]),
		       "out sync flags");
	expect_refused(&e, -EINVAL, s, 1, NULL, 0, sizeof(s[0]),
		       "in sync flags");
	s[0].flags = 0;

	memcpy(tail, &s[0], sizeof(s[0]));
	tail[3] = 1;
	expect_refused(&e, -EINVAL, NULL, 0, tail, 1, sizeof(tail),
		       "unknown out sync bytes");
	expect_refused(&e, -EINVAL, tail, 1, NULL, 0, sizeof(tail),
		       "unknown in sync bytes");

	s[1] = sync_of(0x7fff0000, 0);
	expect_refused(&e, -ENOENT, NULL, 0, s, 2, sizeof(s[0]),
		       "unknown out handle");
	expect_refused(&e, -ENOENT, &s[1], 1, s, 1, sizeof(s[0]),
		       "unknown in handle");
	s[1] = sync_of(0, 0);
	expect_refused(&e, -ENOENT, &s[1], 1, s, 1, sizeof(s[0]),
		       "in handle 0");

	s[1] = sync_of(e.b, 1);
	expect_refused(&e, -EINVAL, &s[1], 1, s, 1, sizeof(s[0]),
		       "in point on a binary syncobj");
	expect_refused(&e, -EINVAL, NULL, 0, &s[1], 1, sizeof(s[0]),
		       "out point on a binary syncobj");
	s[1] = sync_of(e.t, 5);
	expect_refused(&e, -EINVAL, &s[1], 1, s, 1, sizeof(s[0]),
		       "in point not submitted");
	s[1] = sync_of(e.o, 0);
	expect_refused(&e, -EINVAL, &s[1], 1, NULL, 0, sizeof(s[0]),
		       "in syncobj without a fence");

	for (unsigned int i = 0; i < ARRAY_SIZE(many); i++)
		many[i] = sync_of(e.b, 0);
	expect_refused(&e, -E2BIG, many, ARRAY_SIZE(many), NULL, 0,
		       sizeof(many[0]), "too many in syncs");
	for (unsigned int i = 0; i < ARRAY_SIZE(many); i++)
		many[i] = sync_of(e.o, 0);
	expect_refused(&e, -E2BIG, NULL, 0, many, ARRAY_SIZE(many),
		       sizeof(many[0]), "too many out syncs");

	bad = mmap(NULL, 4096, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	igt_assert(bad != MAP_FAILED);
	expect_refused(&e, -EFAULT, bad, 1, NULL, 0, sizeof(s[0]),
		       "unreadable in syncs");
	expect_refused(&e, -EFAULT, NULL, 0, bad, 1, sizeof(s[0]),
		       "unreadable out syncs");
	/* An array that runs off the end of the readable page. */
	expect_refused(&e, -EFAULT, NULL, 0, (char *)bad - sizeof(s[0]), 2,
		       sizeof(s[0]), "out syncs running into a hole");
	munmap(bad, 4096);

	/* Nothing ran: the buffer holds the setup job's value. */
	s[0] = sync_of(e.t, 9);
	igt_assert_eq(write_job(fd, e.buf, 8, 1, NULL, 0, s, 1), 0);
	tl_wait_ok(fd, e.t, 9, "the last job");
	igt_assert_eq_u64(read_u64(fd, e.buf, 0), 0x600d);

	vseg_syncobj_destroy(fd, e.o);
	vseg_syncobj_destroy(fd, e.b);
	vseg_syncobj_destroy(fd, e.t);
	vseg_gem_close(fd, e.buf);
}

static void test_hostile_client(void)
{
	uint32_t buf = new_buf(fd, BUF_SIZE), buf2 = new_buf(fd2, BUF_SIZE);
	uint32_t t = vseg_syncobj_create(fd, 0), t2 = share_syncobj(fd, t, fd2);
	struct drm_vseg_sync s = sync_of(t, 10), in;
	int err;

	igt_assert_eq(write_job(fd, buf, 0, 0xa1, NULL, 0, &s, 1), 0);
	tl_wait_ok(fd, t, 10, "first client's job");

	/* The first client's handle numbers mean nothing to the second. */
	if (t != t2) {
		s = sync_of(t, 0);
		err = write_job(fd2, buf2, 0, 0xbad, &s, 1, NULL, 0);
		igt_assert_eq(err, -ENOENT);
		err = write_job(fd2, buf2, 0, 0xbad, NULL, 0, &s, 1);
		igt_assert_eq(err, -ENOENT);
	}
	/* Points out of order on the shared timeline: taken, no warning. */
	s = sync_of(t2, 3);
	igt_assert_eq(write_job(fd2, buf2, 0, 0xb2, NULL, 0, &s, 1), 0);
	igt_assert_eq(vseg_syncobj_wait_error(fd2, t2, VSEG_JOB_TIMEOUT_MS), 0);
	igt_assert_eq_u64(read_u64(fd2, buf2, 0), 0xb2);

	/* The first client still chains on it. */
	in = sync_of(t, 3);
	s = sync_of(t, 11);
	igt_assert_eq(write_job(fd, buf, 8, 0xa2, &in, 1, &s, 1), 0);
	igt_assert_eq(vseg_syncobj_wait_error(fd, t, VSEG_JOB_TIMEOUT_MS), 0);
	igt_assert_eq_u64(read_u64(fd, buf, 8), 0xa2);

	/* The second client turns the timeline into a binary syncobj. */
	igt_assert_eq(drmSyncobjReset(fd2, &t2, 1), 0);
	igt_assert_eq(drmSyncobjSignal(fd2, &t2, 1), 0);
	in = sync_of(t, 11);
	igt_assert_eq(write_job(fd, buf, 0, 0xbad, &in, 1, NULL, 0), -EINVAL);
	s = sync_of(t, 12);
	igt_assert_eq(write_job(fd, buf, 0, 0xbad, NULL, 0, &s, 1), -EINVAL);
	/* Point 0 still works: it is a binary syncobj now. */
	in = sync_of(t, 0);
	s = sync_of(t, 0);
	igt_assert_eq(write_job(fd, buf, 16, 0xa3, &in, 1, &s, 1), 0);
	igt_assert_eq(vseg_syncobj_wait_error(fd, t, VSEG_JOB_TIMEOUT_MS), 0);
	igt_assert_eq_u64(read_u64(fd, buf, 0), 0xa1);
	igt_assert_eq_u64(read_u64(fd, buf, 16), 0xa3);

	vseg_syncobj_destroy(fd2, t2);
	vseg_syncobj_destroy(fd, t);
	vseg_gem_close(fd2, buf2);
	vseg_gem_close(fd, buf);
}

igt_main
{
	igt_fixture {
		uint64_t cap = 0;

		vseg_require_module();
		vseg_reload("profile=discrete");
		fd = drm_open_vseg();
		fd2 = drm_open_vseg();
		igt_assert_eq(drmGetCap(fd, DRM_CAP_SYNCOBJ_TIMELINE, &cap), 0);
		igt_assert_eq_u64(cap, 1);
	}

	igt_describe("A job's output point signals when the job is done.");
	igt_subtest("timeline-signal")
		test_timeline_signal();

	igt_describe("A job waiting for a point of a long job runs after it.");
	igt_subtest("timeline-wait")
		test_timeline_wait();

	igt_describe("Two clients chain their jobs by points of one timeline.");
	igt_subtest("timeline-chain")
		test_timeline_chain();

	igt_describe("Point 0 keeps the binary semantics, in and out.");
	igt_subtest("binary")
		test_binary();

	igt_describe("Bad sync arrays are refused and change nothing.");
	igt_subtest("invalid")
		test_invalid();

	igt_describe("A second client sharing the timeline cannot harm the "
		     "first one.");
	igt_subtest("hostile-client")
		test_hostile_client();

	igt_fixture {
		close(fd2);
		close(fd);
		vseg_unload();
	}
}
