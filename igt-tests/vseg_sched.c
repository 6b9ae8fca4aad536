// SPDX-License-Identifier: MIT
/*
 * vseg_sched: the GPU scheduler (drm_sched) in front of vseg's engines.
 *
 * Jobs are held back on gates: vgem fences the test opens, imported into
 * syncobjs (igt_vseg_fence.h). Each subtest has, where it matters, a
 * second client in another process that drops its root privileges (uid
 * and gid 65534) and behaves badly: it floods an engine, runs jobs that
 * fault or run too long, closes its file with jobs queued, or asks for
 * jobs larger than the bound.
 *
 * Copyright (c) 2026 The vseg authors
 */
/**
 * TEST: vseg sched
 * Category: Core
 * Mega feature: General Core features
 * Sub-category: Command submission
 * Functionality: GPU scheduler
 * Description: vseg's jobs through DRM's GPU scheduler: fences of a
 *	context signal in seqno order, dependencies are waited for without a
 *	time limit, a job that runs too long is stopped, an engine is shared
 *	fairly, queued jobs of a closed file are cancelled, a job's size is
 *	bounded and a failed input cancels a job; with hostile unprivileged
 *	clients.
 *
 * SUBTEST: fence-order
 * Description: Three clients, one of them unprivileged with faulting
 *	jobs: while one client's jobs wait on a gate the others' jobs run and
 *	signal; once the gate opens, the dma_fence_signaled tracepoint shows
 *	the seqnos of every vseg and drm_sched fence context signalled in
 *	increasing order, each job's fence (its context and seqno from a
 *	sync_file) among them, the gated ones after the others'.
 *
 * SUBTEST: slow-producer
 * Description: A consumer waits on a producer in an unprivileged process
 *	that finishes more than 10 s later (behind a gate vgem opens after
 *	10 s, then long jobs): the consumer runs, succeeds and reads the
 *	producer's data.
 *
 * SUBTEST: timeout
 * Description: With job_timeout_ms=500, an unprivileged client's job that
 *	would run far longer (many big FILLs), on the render and then the copy
 *	engine, fails its fence with ETIME within a bounded time; that
 *	client's next job and another client's job run and succeed; the
 *	kernel logs one warning line per stopped job and no splat.
 *
 * SUBTEST: fairness
 * Description: An unprivileged client keeps DRM_VSEG_MAX_JOBS_IN_FLIGHT
 *	jobs queued on an engine (copy, then render) while another client
 *	submits one job: its latency is at most four times the flooder's
 *	time per job times the in-flight bound (plus two), a third of the
 *	flood.
 *
 * SUBTEST: sched-tracepoints
 * Description: The gpu_scheduler tracepoints of a job queued, run and
 *	done (drm_sched_job_queue, _run and _done; drm_sched_job, drm_run_job
 *	and drm_sched_process_job before 6.15) fire for every job of vseg's
 *	copy, render, bind and paging queues, in that order per job, and a
 *	gated job runs only after the gate opened.
 *
 * SUBTEST: cancel-on-close
 * Description: A file closed with jobs queued behind a gate (by close() in
 *	the same process, and by the exit of an unprivileged process) returns
 *	at once; its jobs' fences, exported as sync_files, signal ESRCH once
 *	the gate opens and the buffer they would have written is untouched;
 *	another file's job behind the same gate runs.
 *
 * SUBTEST: job-bytes-bound
 * Description: job_max_mb (default 1024) bounds the bytes one job's
 *	commands read and write (a COPY counts both sides): at the bound the
 *	job runs, one byte more is E2BIG at SUBMIT and queues nothing, on both
 *	engines, also for sizes that would overflow a sum, also from an
 *	unprivileged client.
 *
 * SUBTEST: input-failure
 * Description: An unprivileged producer's job faults (EFAULT): the jobs
 *	waiting for its fence, directly, through a timeline point, with
 *	another good input, through a job that failed that way, or from the
 *	producer's own file and engine, signal
 *	ECANCELED and write nothing; the consumer's next job without that
 *	input and another client's job run.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <xf86drm.h>

#include "dmabuf_sync_file.h"
#include "igt.h"
#include "igt_syncobj.h"
#include "igt_vseg.h"
#include "sw_sync.h"

IGT_TEST_DESCRIPTION("vseg's jobs through DRM's GPU scheduler: fence "
		     "order, dependencies without a time limit, job "
		     "timeouts, fairness, cancellation on close, the job "
		     "size bound, failed inputs; with hostile clients.");

#define RENDER		DRM_VSEG_ENGINE_RENDER
#define COPY		DRM_VSEG_ENGINE_COPY
#define AP		DRM_VSEG_GEM_CREATE_ACCESSED_PHYSICALLY
#define VRAM		1
#define VA		0x100000000ull
#define FAR_VA		0x700000000000ull	/* never bound */
#define NOBODY		VSEG_NOBODY
#define WAIT_MS		60000
#define SEED		0x5c4ed

static struct vseg_ctx ctx = VSEG_CTX_INIT_ENGINE(VSEG_LEFTOVERS_BASE_COUNT);

static const char *engine_name(uint32_t engine)
{
	return engine == COPY ? "copy" : "render";
}

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + ts.tv_nsec;
}

static double ms_since(uint64_t start)
{
	return (now_ns() - start) / 1e6;
}

static void pipe_send(int fd)
{
	igt_assert_eq(write(fd, "x", 1), 1);
}

static void pipe_recv(int fd)
{
	char c;

	igt_assert_eq(read(fd, &c, 1), 1);
}

static int read_param(const char *name)
{
	char path[128], buf[32] = "";
	int fd, n;

	snprintf(path, sizeof(path), "/sys/module/vseg/parameters/%s", name);
	fd = open(path, O_RDONLY);
	igt_assert_f(fd >= 0, "%s: %s\n", path, strerror(errno));
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	igt_assert(n > 0);
	return atoi(buf);
}

/*
 * A buffer of @size preferring vram (system memory too), AccessedPhysically
 * if @ap, bound at @va unless it is 0.
 */
static uint32_t new_buf(int fd, uint64_t size, uint64_t va, bool ap)
{
	uint32_t h = vseg_gem_create_in(fd, size, VRAM, ap ? AP : 0);

	if (va)
		vseg_vm_bind(fd, h, va);
	return h;
}

/*
 * Submit FILL(s) of @value over [@off, @off + @size) of buffer @h (bound at
 * @va for the render engine, patched for the copy engine), @repeat times,
 * waiting for the binary syncobjs @in; @out (0: none) gets the job's
 * fence. Returns 0 or -errno.
 */
static int __fill_job(int fd, uint32_t engine, uint32_t h, uint64_t va,
		      uint64_t off, uint64_t size, uint32_t value,
		      unsigned int repeat, const uint32_t *in, uint32_t num_in,
		      uint32_t out)
{
	struct vseg_cmdbuf cb;
	int err;

	vseg_cb_init(&cb);
	for (unsigned int i = 0; i < repeat; i++) {
		if (engine == COPY)
			vseg_cb_fill_phys(&cb, h, off, size, value);
		else
			vseg_cb_fill(&cb, va + off, size, value);
	}
	err = __vseg_cb_submit(fd, engine, &cb, in, num_in, out ? &out : NULL,
			       out ? 1 : 0);
	vseg_cb_fini(&cb);
	return err;
}

static void fill_job(int fd, uint32_t engine, uint32_t h, uint64_t va,
		     uint64_t off, uint64_t size, uint32_t value,
		     unsigned int repeat, const uint32_t *in, uint32_t num_in,
		     uint32_t out)
{
	int err = __fill_job(fd, engine, h, va, off, size, value, repeat, in,
			     num_in, out);

	igt_assert_f(err == 0, "SUBMIT of a FILL job on the %s engine: %d (%s)\n",
		     engine_name(engine), err, strerror(-err));
}

/* Assert that [@off, @off + @size) of @h holds @value in every word. */
static void check_words(int fd, uint32_t h, uint64_t off, uint64_t size,
			uint32_t value, const char *what)
{
	uint32_t *got = malloc(size);

	igt_assert(got);
	vseg_bo_read(fd, h, off, got, size);
	for (uint64_t i = 0; i < size / 4; i++)
		igt_assert_f(got[i] == value,
			     "%s: word at %#llx is %#x, expected %#x\n", what,
			     (unsigned long long)(off + 4 * i), got[i], value);
	free(got);
}

/* Wait for @h and return its fence's error (0: success). */
static int job_status(int fd, uint32_t h)
{
	return vseg_syncobj_wait_error(fd, h, WAIT_MS);
}

static void expect_status(int fd, uint32_t h, int want, const char *what)
{
	int got = job_status(fd, h);

	igt_assert_f(got == want, "%s: fence status %d (%s), expected %d (%s)\n",
		     what, got, vseg_errname(got), want, vseg_errname(want));
}

/* The job behind @h has not signalled yet. */
static void expect_pending(int fd, uint32_t h, const char *what)
{
	int st = vseg_syncobj_status(fd, h);

	igt_assert_f(st == 0, "%s: the fence signalled (%d) before its gate opened\n",
		     what, st);
}

/* --- tracefs ------------------------------------------------------------- */

static char trace_dir[160];

static void trace_write(const char *file, const char *what)
{
	char path[256];
	int fd;

	snprintf(path, sizeof(path), "%s/%s", trace_dir, file);
	fd = open(path, O_WRONLY | O_TRUNC);
	igt_assert_f(fd >= 0, "%s: %s\n", path, strerror(errno));
	igt_assert_f(write(fd, what, strlen(what)) == (ssize_t)strlen(what),
		     "%s: %s\n", path, strerror(errno));
	close(fd);
}

/* Disable the instance's events and remove it. */
static void trace_stop(void)
{
	char path[256];

	if (!trace_dir[0])
		return;
	snprintf(path, sizeof(path), "%s/events/enable", trace_dir);
	if (!access(path, W_OK))
		trace_write("events/enable", "0");
	igt_warn_on_f(rmdir(trace_dir), "%s: %s\n", trace_dir, strerror(errno));
	trace_dir[0] = '\0';
}

static void trace_exit_handler(int sig)
{
	(void)sig;
	if (trace_dir[0] && getpid() == (pid_t)strtol(strrchr(trace_dir, '_') + 1,
						       NULL, 10))
		trace_stop();
}

/*
 * A tracefs instance of the test's own with the @n events ("system/event")
 * enabled and a clock that orders events of all CPUs.
 */
static void trace_start(const char * const *events, unsigned int n)
{
	static const char * const where[] = {
		"/sys/kernel/tracing", "/sys/kernel/debug/tracing",
	};
	const char *root = NULL;
	char path[256];

	trace_stop();
	for (unsigned int i = 0; i < ARRAY_SIZE(where) && !root; i++) {
		snprintf(path, sizeof(path), "%s/instances", where[i]);
		if (!access(path, W_OK))
			root = where[i];
	}
	igt_require_f(root, "tracefs is not mounted (or has no instances)\n");
	snprintf(trace_dir, sizeof(trace_dir), "%s/instances/vseg_sched_%d",
		 root, (int)getpid());
	igt_assert_f(!mkdir(trace_dir, 0700) || errno == EEXIST, "%s: %s\n",
		     trace_dir, strerror(errno));
	trace_write("buffer_size_kb", "4096");
	trace_write("trace_clock", "global");
	trace_write("trace", "");
	for (unsigned int i = 0; i < n; i++) {
		snprintf(path, sizeof(path), "%s/events/%s/enable", trace_dir,
			 events[i]);
		igt_assert_f(!access(path, W_OK), "no tracepoint %s\n",
			     events[i]);
		snprintf(path, sizeof(path), "events/%s/enable", events[i]);
		trace_write(path, "1");
	}
}

static void trace_mark(const char *text)
{
	trace_write("trace_marker", text);
}

/* The trace's event lines (not the comments), malloc()ed; NULL-ended. */
static char **trace_lines(unsigned int *count)
{
	char path[256], line[1024], **lines = NULL;
	unsigned int n = 0, cap = 0;
	FILE *f;

	snprintf(path, sizeof(path), "%s/trace", trace_dir);
	f = fopen(path, "r");
	igt_assert_f(f, "%s: %s\n", path, strerror(errno));
	while (fgets(line, sizeof(line), f)) {
		if (line[0] == '#')
			continue;
		line[strcspn(line, "\n")] = '\0';
		if (n + 1 >= cap) {
			cap = cap ? 2 * cap : 256;
			lines = realloc(lines, cap * sizeof(*lines));
			igt_assert(lines);
		}
		lines[n++] = strdup(line);
	}
	fclose(f);
	if (!lines) {
		lines = calloc(1, sizeof(*lines));
		igt_assert(lines);
	}
	lines[n] = NULL;
	*count = n;
	igt_info("%u trace lines\n", n);
	return lines;
}

static void trace_lines_free(char **lines)
{
	for (unsigned int i = 0; lines[i]; i++)
		free(lines[i]);
	free(lines);
}

/**
 * struct signaled - one dma_fence event of the trace
 * @driver: the fence's driver.
 * @timeline: its timeline.
 * @context: its context.
 * @seqno: its seqno.
 */
struct signaled {
	char driver[32];
	char timeline[32];
	unsigned long long context;
	unsigned long long seqno;
};

/* Parse a dma_fence event @event ("dma_fence_init", ...) of the trace. */
static bool parse_fence_event(const char *line, const char *event,
			      struct signaled *s)
{
	char name[32];
	const char *p;

	snprintf(name, sizeof(name), " %s: ", event);
	p = strstr(line, name);
	return p && sscanf(p + strlen(name),
			   "driver=%31s timeline=%31s context=%llu seqno=%llu",
			   s->driver, s->timeline, &s->context,
			   &s->seqno) == 4;
}

/* Is it a fence of vseg's engines or of vseg's scheduler queues? */
static bool vseg_fence(const struct signaled *s)
{
	return !strcmp(s->driver, "vseg") ||
	       (!strcmp(s->driver, "drm_sched") &&
		!strncmp(s->timeline, "vseg-", 5));
}

/* --- fence order ------------------------------------------------------- */

#define ORDER_JOBS	8
#define A_JOBS		5

/*
 * The hostile client: jobs behind the other client's gate, jobs that
 * fault, good ones, on both engines; it checks its own results.
 */
static void order_child(int fd, const struct vseg_gate *g, int ready)
{
	uint32_t out[2 * ORDER_JOBS], gate, h, p;

	vseg_drop_privileges();
	h = new_buf(fd, SZ_64K, VA, false);
	p = new_buf(fd, SZ_64K, 0, true);
	gate = vseg_gate_syncobj(g, fd);
	for (unsigned int i = 0; i < ARRAY_SIZE(out); i++)
		out[i] = syncobj_create(fd, 0);
	/* Render: the first waits on the gate, every third one faults. */
	fill_job(fd, RENDER, h, VA, 0, SZ_64K, 0xc0000000, 1, &gate, 1, out[0]);
	for (unsigned int i = 1; i < ORDER_JOBS; i++)
		fill_job(fd, RENDER, h, i % 3 ? VA : FAR_VA, 0, SZ_4K,
			 0xc0000000 + i, 1, NULL, 0, out[i]);
	/* Copy: not gated. */
	for (unsigned int i = 0; i < ORDER_JOBS; i++)
		fill_job(fd, COPY, p, 0, 0, SZ_64K, 0xcc000000 + i, 1, NULL, 0,
			 out[ORDER_JOBS + i]);
	pipe_send(ready);

	for (unsigned int i = 0; i < ARRAY_SIZE(out); i++) {
		int want = i < ORDER_JOBS && i % 3 == 0 && i ? -EFAULT : 0;

		expect_status(fd, out[i], want, "the hostile client's job");
	}
	check_words(fd, p, 0, SZ_64K, 0xcc000000 + ORDER_JOBS - 1,
		    "the hostile client's copy-engine buffer");
	check_words(fd, h, 0, SZ_4K, 0xc0000000 + ORDER_JOBS - 1,
		    "the hostile client's render buffer");
	close(fd);
}

static void test_fence_order(void)
{
	/*
	 * From 6.17 on, a signalled fence no longer names its driver and
	 * timeline, in the trace too: contexts are told from their fences'
	 * dma_fence_init events.
	 */
	static const char * const events[] = {
		"dma_fence/dma_fence_init", "dma_fence/dma_fence_signaled",
	};
	char ctx_name[256][64];
	bool ctx_signalled[256] = {};
	uint32_t a_out[A_JOBS], b_out[2 * ORDER_JOBS], gate, gate_b, ha, hb;
	struct vseg_fence_id a_id[A_JOBS], b_id[2 * ORDER_JOBS];
	int fda, fdb, ready[2], a_first = -1, b_last = -1;
	unsigned int n, checked = 0, contexts = 0, signalled_contexts = 0;
	unsigned long long ctx_seen[256], last_seqno[256];
	struct vseg_gate g, gb;
	char **lines;

	trace_start(events, ARRAY_SIZE(events));
	vseg_gate_init(&g);
	fda = drm_open_vseg_render();
	fdb = drm_open_vseg_render();
	igt_assert_eq(pipe(ready), 0);

	igt_fork(child, 1)
		order_child(drm_open_vseg_render(), &g, ready[1]);

	/* A: render and copy jobs, the first of each engine behind the gate. */
	gate = vseg_gate_syncobj(&g, fda);
	ha = new_buf(fda, SZ_64K, VA, true);
	for (unsigned int i = 0; i < A_JOBS; i++)
		a_out[i] = syncobj_create(fda, 0);
	fill_job(fda, RENDER, ha, VA, 0, SZ_64K, 0xa0000000, 1, &gate, 1, a_out[0]);
	fill_job(fda, RENDER, ha, VA, 0, SZ_64K, 0xa0000001, 1, NULL, 0, a_out[1]);
	fill_job(fda, RENDER, ha, VA, 0, SZ_64K, 0xa0000002, 1, NULL, 0, a_out[2]);
	fill_job(fda, COPY, ha, 0, 0, SZ_64K, 0xa0000003, 1, &gate, 1, a_out[3]);
	fill_job(fda, COPY, ha, 0, 0, SZ_64K, 0xa0000004, 1, NULL, 0, a_out[4]);

	/*
	 * B: runs while A waits, once its own gate opens. The gates let each
	 * job's fence be read while it is unsignalled: from 6.17 on, a
	 * signalled fence's sync_file no longer names its driver and
	 * timeline, and its name is cut before the seqno.
	 */
	vseg_gate_init(&gb);
	gate_b = vseg_gate_syncobj(&gb, fdb);
	hb = new_buf(fdb, SZ_64K, VA, true);
	for (unsigned int i = 0; i < 2 * ORDER_JOBS; i++) {
		b_out[i] = syncobj_create(fdb, 0);
		fill_job(fdb, i % 2 ? COPY : RENDER, hb, VA, 0, SZ_64K,
			 0xb0000000 + i, 1, i < 2 ? &gate_b : NULL, i < 2,
			 b_out[i]);
	}
	for (unsigned int i = 0; i < A_JOBS; i++)
		vseg_syncobj_fence(fda, a_out[i], &a_id[i]);
	for (unsigned int i = 0; i < ARRAY_SIZE(b_out); i++)
		vseg_syncobj_fence(fdb, b_out[i], &b_id[i]);
	vseg_gate_assert_closed(&gb, "the other client's fences were read unsignalled");
	vseg_gate_open(&gb);
	pipe_recv(ready[0]);
	igt_assert_eq(__vseg_syncobj_wait(fdb, b_out, ARRAY_SIZE(b_out),
					  VSEG_GATE_MAX_MS), 0);
	for (unsigned int i = 0; i < A_JOBS; i++)
		expect_pending(fda, a_out[i], "a job behind the gate");
	vseg_gate_assert_closed(&g, "another client's jobs ran while the gate held these");

	vseg_gate_open(&g);
	for (unsigned int i = 0; i < A_JOBS; i++)
		expect_status(fda, a_out[i], 0, "a job that waited for the gate");
	for (unsigned int i = 0; i < ARRAY_SIZE(b_out); i++)
		expect_status(fdb, b_out[i], 0, "a job of the other client");
	igt_waitchildren();
	check_words(fda, ha, 0, SZ_64K, 0xa0000004, "the gated client's buffer");
	check_words(fdb, hb, 0, SZ_64K, 0xb0000000 + 2 * ORDER_JOBS - 1,
		    "the other client's buffer");

	/* Each job's fence: drm_sched's, per file and engine, in order. */
	for (unsigned int i = 0; i < A_JOBS; i++) {
		igt_assert_f(!strcmp(a_id[i].driver, "drm_sched") &&
			     !strcmp(a_id[i].timeline,
				     i < 3 ? "vseg-render" : "vseg-copy"),
			     "job %u's fence is %s/%s\n", i, a_id[i].driver,
			     a_id[i].timeline);
	}
	igt_assert(a_id[0].context == a_id[1].context &&
		   a_id[1].context == a_id[2].context);
	igt_assert(a_id[0].seqno < a_id[1].seqno &&
		   a_id[1].seqno < a_id[2].seqno);
	igt_assert(a_id[3].context == a_id[4].context &&
		   a_id[3].seqno < a_id[4].seqno);
	igt_assert(a_id[3].context != a_id[0].context);
	for (unsigned int i = 2; i < ARRAY_SIZE(b_out); i++) {
		igt_assert_eq_u64(b_id[i].context, b_id[i - 2].context);
		igt_assert_lt_u64(b_id[i - 2].seqno, b_id[i].seqno);
	}
	igt_assert(b_id[0].context != a_id[0].context &&
		   b_id[1].context != a_id[3].context);

	/* The trace: every context's seqnos in increasing order. */
	lines = trace_lines(&n);
	for (unsigned int i = 0; i < n; i++) {
		struct signaled s;
		unsigned int c;

		if (parse_fence_event(lines[i], "dma_fence_init", &s)) {
			if (!vseg_fence(&s))
				continue;
			for (c = 0; c < contexts; c++)
				if (ctx_seen[c] == s.context)
					break;
			if (c < contexts)
				continue;
			igt_assert(contexts < ARRAY_SIZE(ctx_seen));
			snprintf(ctx_name[contexts], sizeof(ctx_name[0]),
				 "%s %s", s.driver, s.timeline);
			ctx_seen[contexts++] = s.context;
			continue;
		}
		if (!parse_fence_event(lines[i], "dma_fence_signaled", &s))
			continue;
		for (c = 0; c < contexts; c++)
			if (ctx_seen[c] == s.context)
				break;
		if (c == contexts)
			continue;
		checked++;
		igt_assert_f(!ctx_signalled[c] || s.seqno > last_seqno[c],
			     "context %llu (%s): seqno %llu signalled after %llu\n",
			     s.context, ctx_name[c], s.seqno, last_seqno[c]);
		ctx_signalled[c] = true;
		last_seqno[c] = s.seqno;
		for (unsigned int k = 0; k < ARRAY_SIZE(b_id); k++)
			if (s.context == b_id[k].context &&
			    s.seqno == b_id[k].seqno)
				b_last = i;
		if (a_first < 0 && s.context == a_id[0].context &&
		    s.seqno == a_id[0].seqno)
			a_first = i;
	}
	for (unsigned int c = 0; c < contexts; c++)
		signalled_contexts += ctx_signalled[c];
	igt_info("%u vseg fence signals in %u contexts\n", checked,
		 signalled_contexts);
	/* A's, B's, the child's, per engine, scheduled and finished, engines. */
	igt_assert_lte(8, signalled_contexts);
	igt_assert_f(a_first >= 0, "the gated job's fence did not show in the trace\n");
	igt_assert_f(b_last >= 0, "the other client's fences did not show in the trace\n");
	igt_assert_f(b_last < a_first,
		     "the gated job signalled before the other client's last job\n");
	trace_lines_free(lines);
	trace_stop();

	syncobj_destroy(fdb, gate_b);
	vseg_gate_fini(&gb);
	vseg_gate_fini(&g);
	close(ready[0]);
	close(ready[1]);
	drm_close_driver(fda);
	drm_close_driver(fdb);
}

/* --- a slow producer ------------------------------------------------------- */

#define PRODUCER_JOBS	4
#define PRODUCER_FILLS	8

static void test_slow_producer(void)
{
	const uint64_t size = SZ_16M, tail = size - SZ_64K;
	const uint32_t last = 0x5100 + PRODUCER_JOBS;
	uint32_t x, y, sq, sp, done, gate;
	int to_child[2], to_parent[2], dmabuf, sq_fd, sp_fd;
	struct vseg_cmdbuf cb;
	struct vseg_gate g;
	uint64_t t;
	double waited;

	x = new_buf(ctx.fd, size, VA, false);
	y = new_buf(ctx.fd, SZ_64K, VA + SZ_64M, false);
	igt_assert_eq(drmPrimeHandleToFD(ctx.fd, x, DRM_CLOEXEC | DRM_RDWR,
					 &dmabuf), 0);
	sq = syncobj_create(ctx.fd, 0);
	sp = syncobj_create(ctx.fd, 0);
	sq_fd = syncobj_handle_to_fd(ctx.fd, sq, 0);
	sp_fd = syncobj_handle_to_fd(ctx.fd, sp, 0);
	igt_assert_eq(pipe(to_child), 0);
	igt_assert_eq(pipe(to_parent), 0);

	/* The producer: another process, unprivileged. */
	igt_fork(child, 1) {
		int fd = drm_open_vseg_render();
		uint32_t cx, csq, csp;

		vseg_drop_privileges();
		igt_assert_eq(drmPrimeFDToHandle(fd, dmabuf, &cx), 0);
		vseg_vm_bind(fd, cx, VA);
		csq = syncobj_fd_to_handle(fd, sq_fd, 0);
		csp = syncobj_fd_to_handle(fd, sp_fd, 0);
		pipe_recv(to_child[0]);
		/* Behind the gate, then long jobs; the last one's fence in sp. */
		fill_job(fd, RENDER, cx, VA, 0, size, 0x5100, 1, &csq, 1, 0);
		for (unsigned int i = 1; i <= PRODUCER_JOBS; i++)
			fill_job(fd, RENDER, cx, VA, 0, size, 0x5100 + i,
				 PRODUCER_FILLS, NULL, 0,
				 i == PRODUCER_JOBS ? csp : 0);
		pipe_send(to_parent[1]);
		/* Closing the file would cancel the jobs: wait for them. */
		expect_status(fd, csp, 0, "the producer's last job");
		close(fd);
	}

	/* The gate, the job behind it the producer waits on, the consumer. */
	vseg_gate_init(&g);
	gate = vseg_gate_syncobj(&g, ctx.fd);
	vseg_cb_init(&cb);
	vseg_cb_nop(&cb);
	vseg_cb_submit(ctx.fd, RENDER, &cb, &gate, 1, &sq, 1);
	pipe_send(to_child[1]);
	pipe_recv(to_parent[0]);
	vseg_cb_reset(&cb);
	vseg_cb_copy(&cb, VA + SZ_64M, VA + tail, SZ_64K);
	done = syncobj_create(ctx.fd, 0);
	vseg_cb_submit(ctx.fd, RENDER, &cb, &sp, 1, &done, 1);
	t = now_ns();
	expect_pending(ctx.fd, done, "the consumer");
	vseg_gate_assert_closed(&g, "the consumer was queued");

	/* Nobody opens the gate: vgem does, after 10 s. */
	expect_status(ctx.fd, done, 0, "a consumer of a slow producer");
	waited = ms_since(t);
	igt_info("the consumer waited %.0f ms\n", waited);
	igt_assert_f(waited > VSEG_GATE_MAX_MS,
		     "the consumer waited only %.0f ms: the producer was not slow\n",
		     waited);
	igt_assert_eq(job_status(ctx.fd, sp), 0);
	check_words(ctx.fd, y, 0, SZ_64K, last, "the consumer's copy");
	igt_waitchildren();

	vseg_cb_fini(&cb);
	vseg_gate_fini(&g);
	close(to_child[0]);
	close(to_child[1]);
	close(to_parent[0]);
	close(to_parent[1]);
	close(sq_fd);
	close(sp_fd);
	close(dmabuf);
	syncobj_destroy(ctx.fd, sq);
	syncobj_destroy(ctx.fd, sp);
	syncobj_destroy(ctx.fd, done);
	syncobj_destroy(ctx.fd, gate);
	vseg_vm_unbind(ctx.fd, VA);
	vseg_vm_unbind(ctx.fd, VA + SZ_64M);
	vseg_gem_close(ctx.fd, x);
	vseg_gem_close(ctx.fd, y);
}

/* --- job timeout ------------------------------------------------------------ */

#define TIMEOUT_MS		500
#define TIMEOUT_LOAD		"discrete job_timeout_ms=500 job_max_mb=0"
/* Far more than any engine does in the bound: a 16 MiB FILL, again. */
#define LONG_FILLS_RENDER	1600
#define LONG_FILLS_COPY		1000
/* What the kernel may take to stop a job, with an emulator's slowness. */
#define STOP_BOUND_MS		20000

static const char * const splats[] = {
	"WARNING:", "BUG:", "Oops", "Call Trace", "INFO: task", "lockdep",
	"general protection", "KASAN", "UBSAN",
};

static void timeout_on(uint32_t engine)
{
	uint32_t sl, sn, sv, v;
	int sl_fd, sn_fd, ready[2], kmsg, stopped = 0;
	double took;
	uint64_t t;
	char **lines;

	kmsg = vseg_kmsg_open();
	igt_assert_f(kmsg >= 0, "/dev/kmsg: %s\n", strerror(-kmsg));
	sl = syncobj_create(ctx.fd, 0);
	sn = syncobj_create(ctx.fd, 0);
	sl_fd = syncobj_handle_to_fd(ctx.fd, sl, 0);
	sn_fd = syncobj_handle_to_fd(ctx.fd, sn, 0);
	igt_assert_eq(pipe(ready), 0);
	v = new_buf(ctx.fd, SZ_64K, VA, true);

	/* The hostile client: a job that would run for minutes, then one more. */
	igt_fork(child, 1) {
		int fd = drm_open_vseg_render();
		uint32_t big, small, csl, csn;

		vseg_drop_privileges();
		big = new_buf(fd, SZ_16M, VA, true);
		small = new_buf(fd, SZ_64K, VA + SZ_64M, true);
		csl = syncobj_fd_to_handle(fd, sl_fd, 0);
		csn = syncobj_fd_to_handle(fd, sn_fd, 0);
		fill_job(fd, engine, big, VA, 0, SZ_16M, 0x10a6,
			 engine == COPY ? LONG_FILLS_COPY : LONG_FILLS_RENDER,
			 NULL, 0, csl);
		fill_job(fd, engine, small, VA + SZ_64M, 0, SZ_64K, 0x600d, 1,
			 NULL, 0, csn);
		pipe_send(ready[1]);
		expect_status(fd, csn, 0, "the next job of the client whose job was stopped");
		check_words(fd, small, 0, SZ_64K, 0x600d,
			    "the next job of the client whose job was stopped");
		close(fd);
	}

	pipe_recv(ready[0]);
	t = now_ns();
	sv = syncobj_create(ctx.fd, 0);
	fill_job(ctx.fd, engine, v, VA, 0, SZ_64K, 0x7c7c7c7c, 1, NULL, 0, sv);
	expect_status(ctx.fd, sl, -ETIME, "a job that ran too long");
	took = ms_since(t);
	igt_info("%s engine: the long job was stopped within %.0f ms\n",
		 engine_name(engine), took);
	igt_assert_f(took < STOP_BOUND_MS,
		     "the long job ended %.0f ms after it was queued\n", took);
	expect_status(ctx.fd, sv, 0, "another client's job");
	check_words(ctx.fd, v, 0, SZ_64K, 0x7c7c7c7c, "another client's job");
	igt_waitchildren();
	igt_assert_eq(job_status(ctx.fd, sn), 0);

	/* One warning line, no splat. */
	lines = vseg_kmsg_read(kmsg);
	for (unsigned int i = 0; lines[i]; i++) {
		if (strstr(lines[i], "a job ran longer than 500 ms: stopped"))
			stopped++;
		for (unsigned int k = 0; k < ARRAY_SIZE(splats); k++)
			igt_assert_f(!strstr(lines[i], splats[k]),
				     "kernel log: %s\n", lines[i]);
	}
	vseg_kmsg_free(lines);
	close(kmsg);
	igt_assert_f(stopped == 1, "%d log lines of stopped jobs, expected 1\n",
		     stopped);

	close(ready[0]);
	close(ready[1]);
	close(sl_fd);
	close(sn_fd);
	syncobj_destroy(ctx.fd, sl);
	syncobj_destroy(ctx.fd, sn);
	syncobj_destroy(ctx.fd, sv);
	vseg_vm_unbind(ctx.fd, VA);
	vseg_gem_close(ctx.fd, v);
}

static void test_timeout(void)
{
	struct vseg_cmdbuf cb;
	uint32_t h;

	igt_emit_ignore_dmesg_regex(VSEG_JOB_TIMEOUT_DMESG);
	igt_assert_eq(read_param("job_timeout_ms"), TIMEOUT_MS);
	timeout_on(RENDER);
	timeout_on(COPY);

	/* The engines go on. */
	h = new_buf(ctx.fd, SZ_64K, VA, true);
	vseg_cb_init(&cb);
	vseg_cb_fill(&cb, VA, SZ_64K, 0x11111111);
	vseg_cb_exec_ok(ctx.fd, RENDER, &cb, "a render job after the timeouts");
	vseg_cb_reset(&cb);
	vseg_cb_fill_phys(&cb, h, SZ_4K, SZ_4K, 0x22222222);
	vseg_cb_exec_ok(ctx.fd, COPY, &cb, "a copy job after the timeouts");
	check_words(ctx.fd, h, 0, SZ_4K, 0x11111111, "after the timeouts");
	check_words(ctx.fd, h, SZ_4K, SZ_4K, 0x22222222, "after the timeouts");
	vseg_cb_fini(&cb);
	vseg_vm_unbind(ctx.fd, VA);
	vseg_gem_close(ctx.fd, h);
}

/* --- fairness ----------------------------------------------------------------- */

#define FLOOD_JOBS	(12 * DRM_VSEG_MAX_JOBS_IN_FLIGHT)
/*
 * The victim's job may wait for the flooder's jobs queued before it (at
 * most the in-flight bound, and the one running): FIFO does that, round
 * robin less. The margin is wide (an emulator's time per job varies):
 * serving the flooder first would make it wait for most of the flood.
 */
#define FAIR_MARGIN	4
#define FLOOD_SIZE	SZ_4M

/**
 * struct flood_result - what the flooder measured
 * @total_ns: from its first SUBMIT to its last job's end.
 * @jobs: jobs it ran.
 */
struct flood_result {
	uint64_t total_ns;
	uint64_t jobs;
};

static void flooder(uint32_t engine, int started, int result)
{
	int fd = drm_open_vseg_render();
	struct flood_result r = { .jobs = FLOOD_JOBS };
	uint32_t h, last;
	uint64_t t;

	vseg_drop_privileges();
	h = new_buf(fd, FLOOD_SIZE, VA, true);
	last = syncobj_create(fd, 0);
	/* Placed and backed before the clock starts. */
	fill_job(fd, engine, h, VA, 0, FLOOD_SIZE, 0, 1, NULL, 0, last);
	expect_status(fd, last, 0, "the flooder's first job");
	t = now_ns();
	for (unsigned int i = 0; i < FLOOD_JOBS; i++) {
		/* SUBMIT waits while the file has the most jobs queued. */
		fill_job(fd, engine, h, VA, 0, FLOOD_SIZE, i, 1, NULL, 0,
			 i == FLOOD_JOBS - 1 ? last : 0);
		if (i == DRM_VSEG_MAX_JOBS_IN_FLIGHT)
			pipe_send(started);
	}
	expect_status(fd, last, 0, "the flooder's last job");
	r.total_ns = now_ns() - t;
	check_words(fd, h, 0, SZ_64K, FLOOD_JOBS - 1, "the flooder's buffer");
	igt_assert_eq(write(result, &r, sizeof(r)), (ssize_t)sizeof(r));
	close(fd);
}

static void fairness_on(uint32_t engine)
{
	int started[2], result[2];
	struct flood_result r;
	double latency, per_job, bound;
	uint32_t h, out;
	uint64_t t;

	igt_assert_eq(pipe(started), 0);
	igt_assert_eq(pipe(result), 0);
	h = new_buf(ctx.fd, SZ_64K, VA, true);
	out = syncobj_create(ctx.fd, 0);
	fill_job(ctx.fd, engine, h, VA, 0, SZ_64K, 1, 1, NULL, 0, out);
	expect_status(ctx.fd, out, 0, "the victim's first job");

	igt_fork(child, 1)
		flooder(engine, started[1], result[1]);
	pipe_recv(started[0]);
	t = now_ns();
	fill_job(ctx.fd, engine, h, VA, 0, SZ_4K, 0xfa1b, 1, NULL, 0, out);
	expect_status(ctx.fd, out, 0, "the victim's job");
	latency = ms_since(t);
	check_words(ctx.fd, h, 0, SZ_4K, 0xfa1b, "the victim's job");
	igt_assert_eq(read(result[0], &r, sizeof(r)), (ssize_t)sizeof(r));
	igt_waitchildren();

	per_job = r.total_ns / 1e6 / r.jobs;
	bound = FAIR_MARGIN * (DRM_VSEG_MAX_JOBS_IN_FLIGHT + 2) * per_job;
	igt_info("%s engine: one job behind a flood: %.1f ms; the flood: %llu jobs in %.1f ms (%.2f ms each), bound %.1f ms\n",
		 engine_name(engine), latency, (unsigned long long)r.jobs,
		 r.total_ns / 1e6, per_job, bound);
	igt_assert_f(latency <= bound,
		     "the job waited %.1f ms behind a flood of %.2f ms jobs: more than %u x (%u + 2) of them\n",
		     latency, per_job, FAIR_MARGIN, DRM_VSEG_MAX_JOBS_IN_FLIGHT);

	close(started[0]);
	close(started[1]);
	close(result[0]);
	close(result[1]);
	syncobj_destroy(ctx.fd, out);
	vseg_vm_unbind(ctx.fd, VA);
	vseg_gem_close(ctx.fd, h);
}

static void test_fairness(void)
{
	fairness_on(COPY);
	fairness_on(RENDER);
}

/* --- gpu_scheduler tracepoints ---------------------------------------------------- */

#define TP_JOBS		4

/**
 * struct sched_event - one gpu_scheduler event of the trace
 * @kind: 0 queued, 1 run, 2 done.
 * @fence: the job's finished fence, as printed.
 * @ring: the scheduler (not for done).
 * @line: its index in the trace.
 */
struct sched_event {
	int kind;
	char fence[32];
	char ring[32];
	unsigned int line;
};

/*
 * The three events, as 6.15 renamed them (queue, run, done; the fence
 * printed as context:seqno), then as 6.12 names them (the fence printed
 * as a pointer).
 */
static const char * const sched_events[2][3] = {
	{ "gpu_scheduler/drm_sched_job_queue", "gpu_scheduler/drm_sched_job_run",
	  "gpu_scheduler/drm_sched_job_done" },
	{ "gpu_scheduler/drm_sched_job", "gpu_scheduler/drm_run_job",
	  "gpu_scheduler/drm_sched_process_job" },
};

/* The set of names this kernel has. */
static const char * const *sched_event_names(void)
{
	static const char * const where[] = {
		"/sys/kernel/tracing", "/sys/kernel/debug/tracing",
	};
	char path[256];

	for (unsigned int i = 0; i < ARRAY_SIZE(where); i++) {
		snprintf(path, sizeof(path), "%s/events/%s", where[i],
			 sched_events[0][0]);
		if (!access(path, F_OK))
			return sched_events[0];
	}
	return sched_events[1];
}

static bool parse_sched_event(const char *line, unsigned int index,
			      const char * const *names, struct sched_event *e)
{
	const char *p = NULL, *f, *r;
	char name[64];

	memset(e, 0, sizeof(*e));
	for (e->kind = 0; e->kind < 3; e->kind++) {
		snprintf(name, sizeof(name), " %s: ",
			 strchr(names[e->kind], '/') + 1);
		if ((p = strstr(line, name)))
			break;
	}
	if (e->kind == 3)
		return false;
	f = strstr(p, "fence=");
	igt_assert_f(f && sscanf(f, "fence=%31[^, ]", e->fence) == 1,
		     "no fence in %s\n", line);
	r = strstr(p, "ring=");
	if (e->kind < 2)
		igt_assert_f(r && sscanf(r, "ring=%31[^, ]", e->ring) == 1,
			     "no ring in %s\n", line);
	e->line = index;
	return true;
}

static void test_sched_tracepoints(void)
{
	const char * const *events = sched_event_names();
	static const char * const rings[] = {
		"vseg-copy", "vseg-render", "vseg-bind", "vseg-paging",
	};
	unsigned int queued[ARRAY_SIZE(rings)] = {}, n, num_ev = 0, mark = 0;
	const unsigned int want[ARRAY_SIZE(rings)] = { TP_JOBS, TP_JOBS, 1, 1 };
	uint32_t out[2 * TP_JOBS + 1], gate, h, p, z, m;
	struct sched_event *ev;
	struct vseg_gate g;
	char **lines;

	trace_start(events, 3);
	vseg_gate_init(&g);
	gate = vseg_gate_syncobj(&g, ctx.fd);
	h = new_buf(ctx.fd, SZ_64K, VA, false);
	p = new_buf(ctx.fd, SZ_64K, 0, true);
	z = new_buf(ctx.fd, SZ_64K, 0, false);
	m = new_buf(ctx.fd, SZ_1M, 0, false);
	vseg_bo_fill_pattern(ctx.fd, m, SZ_1M, SEED);
	for (unsigned int i = 0; i < ARRAY_SIZE(out); i++)
		out[i] = syncobj_create(ctx.fd, 0);
	/*
	 * Render jobs behind the gate, copy jobs (of another buffer: they
	 * would wait for the render jobs'), a bind behind the gate.
	 */
	for (unsigned int i = 0; i < TP_JOBS; i++)
		fill_job(ctx.fd, RENDER, h, VA, 0, SZ_4K, i, 1, i ? NULL : &gate,
			 i ? 0 : 1, out[i]);
	for (unsigned int i = 0; i < TP_JOBS; i++)
		fill_job(ctx.fd, COPY, p, 0, SZ_4K, SZ_4K, i, 1, NULL, 0,
			 out[TP_JOBS + i]);
	vseg_vm_bind_range(ctx.fd, z, VA + SZ_1M, 0, 0, 0, &gate, 1,
			   &out[2 * TP_JOBS], 1);
	/* Moves: the paging engine's queue. */
	vseg_evict(ctx.fd, &m, 1);
	vseg_make_resident(ctx.fd, &m, 1);
	vseg_bo_check_pattern(ctx.fd, m, SZ_1M, SEED, "a buffer moved out and back");
	for (unsigned int i = TP_JOBS; i < 2 * TP_JOBS; i++)
		expect_status(ctx.fd, out[i], 0, "a copy job");
	expect_pending(ctx.fd, out[0], "a job behind the gate");
	vseg_gate_assert_closed(&g, "the render jobs were held back");
	trace_mark("vseg_sched: the gate opens");
	vseg_gate_open(&g);
	for (unsigned int i = 0; i < ARRAY_SIZE(out); i++)
		expect_status(ctx.fd, out[i], 0, "a job or bind");

	lines = trace_lines(&n);
	ev = calloc(n + 1, sizeof(*ev));
	igt_assert(ev);
	for (unsigned int i = 0; i < n; i++) {
		if (strstr(lines[i], "vseg_sched: the gate opens"))
			mark = i;
		if (parse_sched_event(lines[i], i, events, &ev[num_ev]))
			num_ev++;
	}
	igt_assert_f(mark, "the trace marker is not in the trace\n");
	/* Each job queued: it ran once, then was done once, in that order. */
	for (unsigned int i = 0; i < num_ev; i++) {
		int run = -1, done = -1;
		unsigned int r;

		if (ev[i].kind != 0)
			continue;
		for (r = 0; r < ARRAY_SIZE(rings); r++)
			if (!strcmp(ev[i].ring, rings[r]))
				break;
		if (r == ARRAY_SIZE(rings))
			continue;
		queued[r]++;
		/*
		 * Its events follow it, up to the next job queued with the
		 * same fence address (a fence freed, its memory reused).
		 */
		for (unsigned int k = i + 1; k < num_ev; k++) {
			if (strcmp(ev[k].fence, ev[i].fence))
				continue;
			if (ev[k].kind == 0)
				break;
			if (ev[k].kind == 1) {
				igt_assert_f(run < 0, "%s job %s ran twice\n",
					     rings[r], ev[i].fence);
				igt_assert_f(!strcmp(ev[k].ring, rings[r]),
					     "%s job ran on %s\n", rings[r],
					     ev[k].ring);
				run = k;
			} else if (ev[k].kind == 2) {
				igt_assert_f(done < 0, "%s job %s done twice\n",
					     rings[r], ev[i].fence);
				done = k;
			}
		}
		igt_assert_f(run > (int)i, "%s job %s: not run after it was queued\n",
			     rings[r], ev[i].fence);
		igt_assert_f(done > run,
			     "%s job %s: not done after it ran\n",
			     rings[r], ev[i].fence);
		/* The first render job and the bind waited for the gate. */
		if ((r == 1 && queued[r] == 1) || r == 2)
			igt_assert_f(ev[run].line > mark,
				     "a %s job ran before its gate opened\n",
				     rings[r]);
	}
	for (unsigned int r = 0; r < ARRAY_SIZE(rings); r++) {
		igt_info("%s: %u jobs traced\n", rings[r], queued[r]);
		igt_assert_f(queued[r] >= want[r],
			     "%s: %u jobs traced, expected at least %u\n",
			     rings[r], queued[r], want[r]);
	}
	free(ev);
	trace_lines_free(lines);
	trace_stop();

	for (unsigned int i = 0; i < ARRAY_SIZE(out); i++)
		syncobj_destroy(ctx.fd, out[i]);
	syncobj_destroy(ctx.fd, gate);
	vseg_gate_fini(&g);
	vseg_vm_unbind(ctx.fd, VA);
	vseg_vm_unbind(ctx.fd, VA + SZ_1M);
	vseg_gem_close(ctx.fd, h);
	vseg_gem_close(ctx.fd, p);
	vseg_gem_close(ctx.fd, z);
	vseg_gem_close(ctx.fd, m);
}

/* --- cancellation on close --------------------------------------------------------- */

#define CLOSE_JOBS	4

/*
 * The jobs of a file about to close, on buffer @x (bound at VA): each
 * engine's first one behind the gate, the second behind it in the file's
 * order.
 */
static void close_jobs(int fd, uint32_t x, uint32_t gate, const uint32_t *out)
{
	fill_job(fd, RENDER, x, VA, 0, SZ_64K, 0xdead0001, 1, &gate, 1, out[0]);
	fill_job(fd, RENDER, x, VA, 0, SZ_4K, 0xdead0002, 1, NULL, 0, out[1]);
	fill_job(fd, COPY, x, 0, 0, SZ_64K, 0xdead0003, 1, &gate, 1, out[2]);
	fill_job(fd, COPY, x, 0, SZ_4K, SZ_4K, 0xdead0004, 1, NULL, 0, out[3]);
}

/* The sync_files of the cancelled jobs signal ESRCH once the gate opens. */
static void expect_cancelled(const int *sf, struct vseg_gate *g,
			     const char *what)
{
	for (unsigned int i = 0; i < CLOSE_JOBS; i++)
		igt_assert_f(sync_file_busy(sf[i]),
			     "%s: job %u signalled before its gate opened\n",
			     what, i);
	vseg_gate_assert_closed(g, what);
	vseg_gate_open(g);
	for (unsigned int i = 0; i < CLOSE_JOBS; i++) {
		int st;

		igt_assert_eq(sync_fence_wait(sf[i], WAIT_MS), 0);
		st = sync_fence_status(sf[i]);
		igt_assert_f(st == -ESRCH,
			     "%s: job %u signalled %d (%s), expected -ESRCH\n",
			     what, i, st, vseg_errname(st));
	}
}

static void test_cancel_on_close(void)
{
	uint32_t x, y, other_gate, sk, s[CLOSE_JOBS], x2, gate;
	int dmabuf, fd2, fdv, sf[CLOSE_JOBS], s_fd[CLOSE_JOBS];
	struct vseg_gate g;
	double took;
	uint64_t t;

	x = new_buf(ctx.fd, SZ_64K, 0, true);
	vseg_bo_fill_pattern(ctx.fd, x, SZ_64K, SEED);
	igt_assert_eq(drmPrimeHandleToFD(ctx.fd, x, DRM_CLOEXEC | DRM_RDWR,
					 &dmabuf), 0);

	/* A second file of this process closes with its jobs queued. */
	vseg_gate_init(&g);
	fd2 = drm_open_vseg_render();
	igt_assert_eq(drmPrimeFDToHandle(fd2, dmabuf, &x2), 0);
	vseg_vm_bind(fd2, x2, VA);
	gate = vseg_gate_syncobj(&g, fd2);
	for (unsigned int i = 0; i < CLOSE_JOBS; i++)
		s[i] = syncobj_create(fd2, 0);
	close_jobs(fd2, x2, gate, s);
	for (unsigned int i = 0; i < CLOSE_JOBS; i++)
		sf[i] = syncobj_handle_to_fd(fd2, s[i],
					     DRM_SYNCOBJ_HANDLE_TO_FD_FLAGS_EXPORT_SYNC_FILE);
	/* Another file's job behind the same gate. */
	fdv = drm_open_vseg_render();
	y = new_buf(fdv, SZ_64K, VA, false);
	other_gate = vseg_gate_syncobj(&g, fdv);
	sk = syncobj_create(fdv, 0);
	fill_job(fdv, RENDER, y, VA, 0, SZ_64K, 0x0c0ffee0, 1, &other_gate, 1, sk);

	t = now_ns();
	drm_close_driver(fd2);
	took = ms_since(t);
	igt_info("close() with %u jobs queued took %.1f ms\n", CLOSE_JOBS, took);
	vseg_gate_assert_closed(&g, "close() did not wait for the jobs' gate");
	expect_cancelled(sf, &g, "a job of a closed file");
	expect_status(fdv, sk, 0, "another file's job behind the same gate");
	check_words(fdv, y, 0, SZ_64K, 0x0c0ffee0, "another file's job");
	vseg_bo_check_pattern(ctx.fd, x, SZ_64K, SEED,
			      "the buffer of the closed file's cancelled jobs");
	for (unsigned int i = 0; i < CLOSE_JOBS; i++)
		close(sf[i]);
	vseg_gate_fini(&g);

	/* An unprivileged process exits with its jobs queued. */
	vseg_gate_init(&g);
	for (unsigned int i = 0; i < CLOSE_JOBS; i++) {
		s[i] = syncobj_create(ctx.fd, 0);
		s_fd[i] = syncobj_handle_to_fd(ctx.fd, s[i], 0);
	}
	igt_fork(child, 1) {
		int fd = drm_open_vseg_render();
		uint32_t cx, cs[CLOSE_JOBS], cgate;

		vseg_drop_privileges();
		igt_assert_eq(drmPrimeFDToHandle(fd, dmabuf, &cx), 0);
		vseg_vm_bind(fd, cx, VA);
		cgate = vseg_gate_syncobj(&g, fd);
		for (unsigned int i = 0; i < CLOSE_JOBS; i++)
			cs[i] = syncobj_fd_to_handle(fd, s_fd[i], 0);
		close_jobs(fd, cx, cgate, cs);
		/* exit() closes the file. */
	}
	igt_waitchildren();
	for (unsigned int i = 0; i < CLOSE_JOBS; i++)
		sf[i] = syncobj_handle_to_fd(ctx.fd, s[i],
					     DRM_SYNCOBJ_HANDLE_TO_FD_FLAGS_EXPORT_SYNC_FILE);
	expect_cancelled(sf, &g, "a job of a process that exited");
	vseg_bo_check_pattern(ctx.fd, x, SZ_64K, SEED,
			      "the buffer of the exited process's cancelled jobs");
	for (unsigned int i = 0; i < CLOSE_JOBS; i++) {
		close(sf[i]);
		close(s_fd[i]);
		syncobj_destroy(ctx.fd, s[i]);
	}
	vseg_gate_fini(&g);

	close(dmabuf);
	vseg_vm_unbind(fdv, VA);
	vseg_gem_close(fdv, y);
	drm_close_driver(fdv);
	vseg_gem_close(ctx.fd, x);
}

/* --- the bound on a job's bytes ------------------------------------------------------ */

#define BOUND_MB	64
#define BOUND_LOAD	"discrete mem_size_mb=64,16 job_max_mb=64"

/* SUBMIT of @cb must give @want; on an error nothing may be queued. */
static void expect_submit(int fd, uint32_t engine, const struct vseg_cmdbuf *cb,
			  int want, const char *what)
{
	uint32_t out = syncobj_create(fd, 0);
	int err = __vseg_cb_submit(fd, engine, cb, NULL, 0, &out, 1);

	igt_assert_f(err == want, "%s: SUBMIT gave %d (%s), expected %d (%s)\n",
		     what, err, vseg_errname(err), want, vseg_errname(want));
	if (err)
		igt_assert_f(!vseg_syncobj_has_fence(fd, out),
			     "%s: a refused job signalled its syncobj\n", what);
	else
		expect_status(fd, out, 0, what);
	syncobj_destroy(fd, out);
}

/* FILLs of 16 MiB over @h (at VA for render) for @mb MiB, then @extra. */
static void bound_fills(struct vseg_cmdbuf *cb, uint32_t engine, uint32_t h,
			unsigned int mb, uint32_t value)
{
	vseg_cb_reset(cb);
	for (unsigned int i = 0; i < mb / 16; i++) {
		if (engine == COPY)
			vseg_cb_fill_phys(cb, h, 0, SZ_16M, value + i);
		else
			vseg_cb_fill(cb, VA, SZ_16M, value + i);
	}
}

/* At the bound a job runs; a word more is E2BIG and writes nothing. */
static void bound_checks(int fd, uint32_t r, uint32_t p)
{
	struct vseg_cmdbuf cb;

	vseg_cb_init(&cb);
	for (uint32_t engine = COPY; engine <= RENDER; engine++) {
		uint32_t h = engine == COPY ? p : r;
		uint32_t v = engine == COPY ? 0xc0c00000 : 0x4e4e0000;

		bound_fills(&cb, engine, h, BOUND_MB, v);
		expect_submit(fd, engine, &cb, 0, "FILLs of exactly job_max_mb");
		check_words(fd, h, SZ_16M - SZ_64K, SZ_64K, v + BOUND_MB / 16 - 1,
			    "FILLs of exactly job_max_mb");
		bound_fills(&cb, engine, h, BOUND_MB, v + 0x100);
		if (engine == COPY)
			vseg_cb_fill_phys(&cb, h, 0, 4, 0xbad);
		else
			vseg_cb_fill(&cb, VA, 4, 0xbad);
		expect_submit(fd, engine, &cb, -E2BIG, "FILLs of job_max_mb + 4 bytes");
		bound_fills(&cb, engine, h, BOUND_MB, v + 0x200);
		if (engine == COPY)
			vseg_cb_write_phys(&cb, h, 0, 0xbad);
		else
			vseg_cb_write(&cb, VA, 0xbad);
		expect_submit(fd, engine, &cb, -E2BIG, "FILLs of job_max_mb and a WRITE");
		check_words(fd, h, 0, SZ_64K, v + BOUND_MB / 16 - 1,
			    "after refused jobs");
	}

	/* A COPY counts both sides. */
	vseg_cb_reset(&cb);
	for (unsigned int i = 0; i < BOUND_MB / 16; i++)
		vseg_cb_copy(&cb, VA + SZ_8M, VA, SZ_8M);
	expect_submit(fd, RENDER, &cb, 0, "COPYs of 2 x 8 MiB up to job_max_mb");
	vseg_cb_copy(&cb, VA + SZ_8M, VA, 4);
	expect_submit(fd, RENDER, &cb, -E2BIG, "COPYs of job_max_mb + 8 bytes");

	/* Sizes whose sum would overflow. */
	vseg_cb_reset(&cb);
	for (unsigned int i = 0; i < VSEG_MAX_CMDS; i++)
		vseg_cb_fill(&cb, VA, 1ull << 62, 0xbad);
	expect_submit(fd, RENDER, &cb, -E2BIG, "FILLs of 2^62 bytes each");
	vseg_cb_reset(&cb);
	vseg_cb_copy(&cb, VA + SZ_8M, VA, 1ull << 63);
	expect_submit(fd, RENDER, &cb, -E2BIG, "a COPY of 2^63 bytes");
	vseg_cb_reset(&cb);
	for (unsigned int i = 0; i < VSEG_MAX_CMDS; i++)
		vseg_cb_nop(&cb);
	expect_submit(fd, RENDER, &cb, 0, "a full command buffer of NOPs");
	check_words(fd, r, 0, SZ_64K, 0x4e4e0000 + BOUND_MB / 16 - 1,
		    "after refused jobs");
	vseg_cb_fini(&cb);
}

static void test_job_bytes_bound(void)
{
	struct vseg_cmdbuf cb;
	uint32_t r, p;

	/* The default: 1024 MiB. */
	vseg_ctx_load(&ctx, "discrete");
	igt_assert_eq(read_param("job_max_mb"), 1024);
	r = new_buf(ctx.fd, SZ_64K, VA, false);
	vseg_cb_init(&cb);
	vseg_cb_fill(&cb, VA, 1024 * SZ_1M + 4, 0xbad);
	expect_submit(ctx.fd, RENDER, &cb, -E2BIG, "a FILL of 1 GiB + 4 bytes");
	vseg_cb_reset(&cb);
	vseg_cb_copy(&cb, VA + SZ_1M, VA, 512 * SZ_1M + 4);
	expect_submit(ctx.fd, RENDER, &cb, -E2BIG, "a COPY of 512 MiB + 4 bytes");
	vseg_bo_check_zero(ctx.fd, r, SZ_64K, "after refused jobs");
	vseg_cb_fini(&cb);
	vseg_vm_unbind(ctx.fd, VA);
	vseg_gem_close(ctx.fd, r);
	vseg_ctx_finish(&ctx, "at the default bound");

	vseg_ctx_load(&ctx, BOUND_LOAD);
	igt_assert_eq(read_param("job_max_mb"), BOUND_MB);
	r = new_buf(ctx.fd, SZ_16M, VA, false);
	p = new_buf(ctx.fd, SZ_16M, 0, true);
	bound_checks(ctx.fd, r, p);

	/* The same from an unprivileged client. */
	igt_fork(child, 1) {
		int fd = drm_open_vseg_render();

		vseg_drop_privileges();
		bound_checks(fd, new_buf(fd, SZ_16M, VA, false),
			     new_buf(fd, SZ_16M, 0, true));
		close(fd);
	}
	igt_waitchildren();
	check_words(ctx.fd, r, 0, SZ_64K, 0x4e4e0000 + BOUND_MB / 16 - 1,
		    "after the other client's jobs");

	vseg_vm_unbind(ctx.fd, VA);
	vseg_gem_close(ctx.fd, r);
	vseg_gem_close(ctx.fd, p);
}

/* --- failed inputs ------------------------------------------------------------------- */

static void test_input_failure(void)
{
	uint32_t y, z, w, v, sp, tl, ok, s[4], s_next, sv, in2[2];
	int sp_fd, ready[2], fdv;
	struct drm_vseg_sync tl_in, tl_out;
	struct vseg_cmdbuf cb;
	struct vseg_gate g;

	vseg_gate_init(&g);
	sp = syncobj_create(ctx.fd, 0);
	sp_fd = syncobj_handle_to_fd(ctx.fd, sp, 0);
	igt_assert_eq(pipe(ready), 0);

	/* The producer: an unprivileged client whose job faults. */
	igt_fork(child, 1) {
		int fd = drm_open_vseg_render();
		uint32_t csp, cgate, cbuf, cnext;

		vseg_drop_privileges();
		csp = syncobj_fd_to_handle(fd, sp_fd, 0);
		cgate = vseg_gate_syncobj(&g, fd);
		cbuf = new_buf(fd, SZ_64K, VA, false);
		cnext = syncobj_create(fd, 0);
		fill_job(fd, RENDER, 0, FAR_VA, 0, SZ_4K, 0xbad, 1, &cgate, 1, csp);
		/* Its own next job on that engine waits for it (same entity). */
		fill_job(fd, RENDER, cbuf, VA, 0, SZ_4K, 0xbad5, 1, &csp, 1, cnext);
		pipe_send(ready[1]);
		/* Its file stays open until the job ended. */
		expect_status(fd, csp, -EFAULT, "the producer's faulting job");
		expect_status(fd, cnext, -ECANCELED,
			      "the producer's job waiting for its own fault");
		check_words(fd, cbuf, 0, SZ_4K, 0, "the producer's cancelled job");
		close(fd);
	}
	pipe_recv(ready[0]);

	y = new_buf(ctx.fd, SZ_64K, VA, false);
	z = new_buf(ctx.fd, SZ_64K, VA + SZ_1M, true);
	w = new_buf(ctx.fd, SZ_64K, VA + SZ_2M, false);
	vseg_bo_fill_pattern(ctx.fd, y, SZ_64K, SEED);
	vseg_bo_fill_pattern(ctx.fd, z, SZ_64K, SEED + 1);
	for (unsigned int i = 0; i < ARRAY_SIZE(s); i++)
		s[i] = syncobj_create(ctx.fd, 0);
	/* A good input. */
	ok = syncobj_create(ctx.fd, 0);
	fill_job(ctx.fd, RENDER, w, VA + SZ_2M, 0, SZ_4K, 1, 1, NULL, 0, ok);
	expect_status(ctx.fd, ok, 0, "a good job");

	/* Directly; through a job that failed so; with a good input too. */
	fill_job(ctx.fd, RENDER, y, VA, 0, SZ_64K, 0xbad1, 1, &sp, 1, s[0]);
	fill_job(ctx.fd, COPY, z, 0, 0, SZ_64K, 0xbad2, 1, &s[0], 1, s[1]);
	in2[0] = ok;
	in2[1] = sp;
	fill_job(ctx.fd, RENDER, y, VA, 0, SZ_4K, 0xbad3, 1, in2, 2, s[2]);
	/* Through a point of a timeline. */
	tl = syncobj_create(ctx.fd, 0);
	igt_assert_eq(drmSyncobjTransfer(ctx.fd, tl, 1, sp, 0, 0), 0);
	tl_in = (struct drm_vseg_sync){ .handle = tl, .point = 1 };
	tl_out = (struct drm_vseg_sync){ .handle = s[3] };
	vseg_cb_init(&cb);
	vseg_cb_fill(&cb, VA, SZ_4K, 0xbad4);
	igt_assert_eq(__vseg_cb_submit_syncs(ctx.fd, RENDER, &cb, &tl_in, 1,
					     &tl_out, 1), 0);
	/* The file's next job, without that input: it runs. */
	s_next = syncobj_create(ctx.fd, 0);
	fill_job(ctx.fd, RENDER, w, VA + SZ_2M, SZ_4K, SZ_4K, 2, 1, NULL, 0, s_next);
	/* Another client. */
	fdv = drm_open_vseg_render();
	v = new_buf(fdv, SZ_64K, VA, false);
	sv = syncobj_create(fdv, 0);
	fill_job(fdv, RENDER, v, VA, 0, SZ_64K, 3, 1, NULL, 0, sv);

	for (unsigned int i = 0; i < ARRAY_SIZE(s); i++)
		expect_pending(ctx.fd, s[i], "a job waiting for the producer");
	vseg_gate_assert_closed(&g, "the jobs were queued behind the producer");
	vseg_gate_open(&g);
	expect_status(ctx.fd, sp, -EFAULT, "the producer");
	expect_status(ctx.fd, s[0], -ECANCELED, "a job whose input faulted");
	expect_status(ctx.fd, s[1], -ECANCELED,
		      "a job whose input was cancelled");
	expect_status(ctx.fd, s[2], -ECANCELED,
		      "a job with a good and a faulted input");
	expect_status(ctx.fd, s[3], -ECANCELED,
		      "a job waiting for a timeline point that faulted");
	expect_status(ctx.fd, s_next, 0, "the file's next job");
	expect_status(fdv, sv, 0, "another client's job");
	igt_waitchildren();
	vseg_bo_check_pattern(ctx.fd, y, SZ_64K, SEED, "a cancelled job's buffer");
	vseg_bo_check_pattern(ctx.fd, z, SZ_64K, SEED + 1,
			      "a cancelled copy job's buffer");
	check_words(ctx.fd, w, 0, SZ_4K, 1, "a good job");
	check_words(ctx.fd, w, SZ_4K, SZ_4K, 2, "the file's next job");
	check_words(fdv, v, 0, SZ_64K, 3, "another client's job");

	vseg_cb_fini(&cb);
	vseg_gate_fini(&g);
	close(ready[0]);
	close(ready[1]);
	close(sp_fd);
	drm_close_driver(fdv);
	for (unsigned int i = 0; i < ARRAY_SIZE(s); i++)
		syncobj_destroy(ctx.fd, s[i]);
	syncobj_destroy(ctx.fd, s_next);
	syncobj_destroy(ctx.fd, sp);
	syncobj_destroy(ctx.fd, ok);
	syncobj_destroy(ctx.fd, tl);
	vseg_vm_unbind(ctx.fd, VA);
	vseg_vm_unbind(ctx.fd, VA + SZ_1M);
	vseg_vm_unbind(ctx.fd, VA + SZ_2M);
	vseg_gem_close(ctx.fd, y);
	vseg_gem_close(ctx.fd, z);
	vseg_gem_close(ctx.fd, w);
}

igt_main
{
	igt_fixture {
		vseg_ctx_setup(&ctx);
		igt_install_exit_handler(trace_exit_handler);
	}

	igt_describe("Fences of every context signal in seqno order while "
		     "one client waits on a gate and others, one of them "
		     "hostile, run.");
	igt_subtest("fence-order") {
		vseg_ctx_load(&ctx, "discrete");
		test_fence_order();
		vseg_ctx_finish(&ctx, "after the clients closed");
	}

	igt_describe("A consumer waits for a producer that ends more than "
		     "10 s later, and succeeds.");
	igt_subtest("slow-producer") {
		vseg_ctx_load(&ctx, "discrete");
		test_slow_producer();
		vseg_ctx_finish(&ctx, "after the producer's exit");
	}

	igt_describe("A job that runs past job_timeout_ms is stopped with "
		     "ETIME; the engine goes on.");
	igt_subtest("timeout") {
		vseg_ctx_load(&ctx, TIMEOUT_LOAD);
		test_timeout();
		vseg_ctx_finish(&ctx, "after the stopped jobs");
	}

	igt_describe("A job behind a flooding client waits a bounded time.");
	igt_subtest("fairness") {
		vseg_ctx_load(&ctx, "discrete");
		test_fairness();
		vseg_ctx_finish(&ctx, "after the flood");
	}

	igt_describe("The gpu_scheduler tracepoints fire for vseg's queues.");
	igt_subtest("sched-tracepoints") {
		vseg_ctx_load(&ctx, "discrete");
		test_sched_tracepoints();
		vseg_ctx_finish(&ctx, "after the traced jobs");
	}

	igt_describe("A closed file's queued jobs are cancelled with ESRCH; "
		     "other files are not affected.");
	igt_subtest("cancel-on-close") {
		vseg_ctx_load(&ctx, "discrete");
		test_cancel_on_close();
		vseg_ctx_finish(&ctx, "after the cancelled jobs");
	}

	igt_describe("job_max_mb bounds the bytes of a job: E2BIG beyond it.");
	igt_subtest("job-bytes-bound") {
		test_job_bytes_bound();
		vseg_ctx_finish(&ctx, "after the refused jobs");
	}

	igt_describe("A job whose input failed signals ECANCELED.");
	igt_subtest("input-failure") {
		vseg_ctx_load(&ctx, "discrete");
		test_input_failure();
		vseg_ctx_finish(&ctx, "after the cancelled jobs");
	}

	igt_fixture {
		trace_stop();
		vseg_ctx_unload(&ctx);
	}
}
