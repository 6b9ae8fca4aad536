// SPDX-License-Identifier: MIT
/*
 * vseg_concurrency: many processes and threads at once creating, mapping,
 * writing, evicting, submitting, reading back and closing buffers, with
 * the memory segments overcommitted, for a bounded time.
 *
 * Every thread owns its buffers and keeps a model of what each must hold
 * (a per-word pattern written by the CPU, or a value filled by an engine);
 * every read checks it. Threads of one process share a file (one GPU
 * address space, one handle table) and race on it; processes compete for
 * the segments and evict each other. A churn thread opens and closes files
 * that still hold buffers, mappings and jobs. The test passes if nothing
 * deadlocks (a subtest timeout), no byte is lost, the kernel log stays
 * clean (lockdep on the debug kernel) and all memory is returned at the end.
 *
 * The random phase lasts a few seconds per subtest; VSEG_SOAK_SECONDS=N
 * makes it last N seconds (a soak run), VSEG_SEED=N repeats a run.
 *
 * Copyright (c) 2026 The vseg authors
 */
/**
 * TEST: vseg concurrency
 * Category: Core
 * Mega feature: General Core features
 * Sub-category: Memory management
 * Functionality: concurrency
 * Description: Processes and threads creating, mapping, evicting, submitting
 *	and closing at once with the segments overcommitted: no deadlock, no
 *	lost data, no leak.
 *
 * SUBTEST: threads-shared-file
 * Description: Six threads of one process on one file: the handle table, the
 *	address space and the segments raced.
 *
 * SUBTEST: processes-threads-churn
 * Description: Three processes of three threads, each thread with its own
 *	file, plus a thread per process opening and closing files that still
 *	hold buffers, mappings and jobs.
 *
 * SUBTEST: processes-threads-smallbar
 * Description: The same on a small-BAR device: faults compete for the
 *	CPU-visible part.
 *
 * SUBTEST: overlapping-sets
 * Description: Four processes, two of them unprivileged, lock
 *	overlapping sets of three 1 MiB buffers in opposite orders, over and
 *	over, on a 4 MiB segment that each set fits alone: MAKE_RESIDENT of
 *	the set and a copy-engine job with the set as its allocation list
 *	(AccessedPhysically: contiguous in that segment). Every process makes
 *	progress, none gets ENOSPC (an empty segment would have served every
 *	set) and every job's stores are in the buffers.
 */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#include <xf86drm.h>

#include "igt.h"
#include "igt_vseg.h"
#include "igt_vseg_exec.h"

IGT_TEST_DESCRIPTION("Processes and threads creating, mapping, evicting, "
		     "submitting and closing at once with the segments "
		     "overcommitted: no deadlock, no lost data, no leak.");

#define AP_FLAG		DRM_VSEG_GEM_CREATE_ACCESSED_PHYSICALLY
#define SLOTS		8
#define LOOP_SECONDS	6
#define WAIT_MS		60000
#define VA_START	0x100000000ull
#define VA_SPAN		0x100000000ull	/* per thread */

static struct vseg_ctx ctx = VSEG_CTX_INIT_ENGINE(VSEG_LEFTOVERS_BASE_COUNT);
static unsigned int loop_seconds = LOOP_SECONDS;
/* The memory segments. */
static uint32_t memory_mask;

/*
 * Buffer sizes; the smallest three for AccessedPhysically ones. With
 * SLOTS buffers per thread the threads ask for about three times what the
 * memory segments of the tables below hold.
 */
static const uint64_t sizes[] = { 4096, 65536, 256 << 10, 2 << 20 };
#define DISCRETE	"discrete mem_size_mb=8,4 aperture_commit_mb=16"
#define SMALLBAR	"smallbar mem_size_mb=16 visible_size_mb=4"

/* The word the CPU pattern @seed puts at @index. */
static uint32_t pattern(uint32_t seed, uint64_t index)
{
	uint32_t x = seed ^ (uint32_t)(index * 0x9e3779b1u);

	x ^= x >> 15;
	x *= 0x2c1b3c6du;
	x ^= x >> 12;
	return x;
}

/**
 * struct slot - a buffer of one thread
 * @handle: GEM handle, 0 if the slot is empty.
 * @size: bytes.
 * @ap: AccessedPhysically (the copy engine fills it).
 * @map: CPU mapping, or NULL.
 * @va: GPU virtual address it is bound at (non-AccessedPhysically), or 0.
 * @is_fill: the model: @value everywhere (an engine fill) ...
 * @value: ... or pattern(@value, i) at word i (a CPU write).
 */
struct slot {
	uint32_t handle;
	uint64_t size;
	bool ap;
	uint32_t *map;
	uint64_t va;
	bool is_fill;
	uint32_t value;
};

struct counts {
	unsigned int creates, closes, writes, checks, evicts, residents;
	unsigned int fills, enospc, remaps, churns;
};

/**
 * struct worker - one thread
 * @fd: the file (shared by the threads of a process, or its own).
 * @id: number, for messages and its address range.
 * @rs: random state.
 * @slot: its buffers.
 * @va: its GPU virtual addresses.
 * @cb: command buffer.
 * @syncobj: out-syncobj of its jobs.
 * @n: counters.
 * @churn: this thread opens and closes files instead.
 */
struct worker {
	pthread_t thread;
	int fd;
	unsigned int id;
	uint64_t rs;
	struct slot slot[SLOTS];
	struct vseg_va_space va;
	struct vseg_cmdbuf cb;
	uint32_t syncobj;
	struct counts n;
	bool churn;
};

static uint64_t deadline_ns;
static struct timespec start_time;

static bool time_left(void)
{
	return igt_nsec_elapsed(&start_time) < deadline_ns;
}

/*
 * A thread goes on past the deadline, for at most OVERTIME times the
 * phase, until it has been through every kind of step its process is
 * checked for: on a slow kernel (a debug kernel under TCG) a thread gets
 * through only a few dozen random steps in the phase, and one kind may
 * not come up at all.
 */
#define OVERTIME	4

static bool keep_going(const struct worker *w)
{
	uint64_t t = igt_nsec_elapsed(&start_time);
	bool all = w->churn || (w->n.creates && w->n.checks && w->n.fills &&
				w->n.evicts);

	return t < deadline_ns || (!all && t < OVERTIME * deadline_ns);
}

/* --- one buffer ---------------------------------------------------------- */

static uint32_t *slot_map(int fd, struct slot *s)
{
	if (!s->map)
		s->map = vseg_gem_mmap(fd, s->handle, s->size,
				       PROT_READ | PROT_WRITE);
	return s->map;
}

static void slot_check(struct worker *w, struct slot *s, const char *when)
{
	uint64_t words = s->size / 4, step = 4096 / 4;
	uint32_t *map = slot_map(w->fd, s);

	/* The first and last word of every page, and a few random ones. */
	for (uint64_t i = 0; i < words; i += step) {
		uint64_t idx[3] = { i, i + step - 1,
				    i + vseg_rand32(&w->rs) % step };

		for (unsigned int k = 0; k < 3; k++) {
			uint32_t want = s->is_fill ? s->value :
					pattern(s->value, idx[k]);

			igt_assert_f(map[idx[k]] == want,
				     "thread %u: buffer %u (%llu bytes%s) word %llu is 0x%08x, not 0x%08x %s\n",
				     w->id, s->handle,
				     (unsigned long long)s->size,
				     s->ap ? ", AccessedPhysically" : "",
				     (unsigned long long)idx[k], map[idx[k]],
				     want, when);
		}
	}
	w->n.checks++;
}

static void slot_write(struct worker *w, struct slot *s)
{
	uint32_t *map = slot_map(w->fd, s);

	s->is_fill = false;
	s->value = vseg_rand32(&w->rs);
	for (uint64_t i = 0; i < s->size / 4; i++)
		map[i] = pattern(s->value, i);
	w->n.writes++;
}

static void slot_create(struct worker *w, struct slot *s)
{
	struct drm_vseg_gem_create c;
	uint32_t supported;
	int err;

	s->size = sizes[vseg_rand32(&w->rs) % ARRAY_SIZE(sizes)];
	s->ap = vseg_rand32(&w->rs) % 3 == 0;
	/*
	 * A random set of memory segments, maybe the aperture, and always
	 * system memory as a way out, so that a fault always finds a place
	 * the CPU reaches. AccessedPhysically buffers are kept small: in
	 * system memory they hold aperture commit.
	 */
	supported = (vseg_rand32(&w->rs) & memory_mask) | BIT(ctx.ap_id);
	if (s->ap) {
		/* it needs somewhere to be contiguous: a memory segment */
		s->size = sizes[vseg_rand32(&w->rs) % 3];
		if (!(supported & memory_mask))
			supported |= memory_mask & -memory_mask;
	} else if (vseg_rand32(&w->rs) & 1) {
		supported |= BIT(ctx.ap_id);
	}
	vseg_create_args(&c, s->size, supported, s->ap ? AP_FLAG : 0);
	err = __vseg_gem_create(w->fd, &c);
	if (err == -ENOSPC) {
		w->n.enospc++;
		return;
	}
	igt_assert_f(err == 0, "thread %u: create of %llu bytes in 0x%x: %s\n",
		     w->id, (unsigned long long)s->size, supported,
		     vseg_errname(err));
	s->handle = c.handle;
	s->map = NULL;
	s->va = 0;
	/* New buffers are zeroed. */
	s->is_fill = true;
	s->value = 0;
	w->n.creates++;
}

static void slot_close(struct worker *w, struct slot *s)
{
	if (s->map)
		munmap(s->map, s->size);
	if (s->va)
		vseg_vm_unbind(w->fd, s->va);
	vseg_gem_close(w->fd, s->handle);
	memset(s, 0, sizeof(*s));
	w->n.closes++;
}

/* Fill @s on an engine (copy engine: physically; render: through a VA). */
static void slot_fill(struct worker *w, struct slot *s)
{
	uint32_t value = vseg_rand32(&w->rs) | 1;
	uint32_t engine;
	int err;

	vseg_cb_reset(&w->cb);
	if (s->ap) {
		engine = DRM_VSEG_ENGINE_COPY;
		vseg_cb_fill_phys(&w->cb, s->handle, 0, s->size, value);
	} else {
		engine = DRM_VSEG_ENGINE_RENDER;
		if (!s->va) {
			s->va = vseg_va_alloc(&w->va, s->size);
			vseg_vm_bind(w->fd, s->handle, s->va);
		}
		vseg_cb_fill(&w->cb, s->va, s->size, value);
	}
	err = __vseg_cb_submit(w->fd, engine, &w->cb, NULL, 0, &w->syncobj, 1);
	if (err == -ENOSPC) {
		/* Its placement could not be made resident right now. */
		w->n.enospc++;
		return;
	}
	igt_assert_f(!err, "thread %u: fill submission: %s\n", w->id,
		     vseg_errname(err));
	igt_assert_eq(vseg_syncobj_wait_error(w->fd, w->syncobj, WAIT_MS), 0);
	s->is_fill = true;
	s->value = value;
	w->n.fills++;
}

static void slot_residency(struct worker *w, struct slot *s, bool evict)
{
	int err;

	if (evict) {
		err = __vseg_evict(w->fd, &s->handle, 1, NULL);
		w->n.evicts += !err;
	} else {
		err = __vseg_make_resident(w->fd, &s->handle, 1, NULL);
		w->n.residents += !err;
		if (err == -ENOSPC) {
			w->n.enospc++;
			err = 0;
		}
	}
	igt_assert_f(!err, "thread %u: %s: %s\n", w->id,
		     evict ? "EVICT" : "MAKE_RESIDENT", vseg_errname(err));
}

/* --- threads ------------------------------------------------------------- */

static void worker_step(struct worker *w)
{
	struct slot *s = &w->slot[vseg_rand32(&w->rs) % SLOTS];
	unsigned int k = vseg_rand32(&w->rs) % 16;

	if (!s->handle) {
		slot_create(w, s);
		if (s->handle && k & 1)
			slot_write(w, s);
		return;
	}
	switch (k) {
	case 0 ... 2:
		slot_write(w, s);
		break;
	case 3 ... 6:
		slot_check(w, s, "at a spot check");
		break;
	case 7 ... 8:
		slot_residency(w, s, true);
		break;
	case 9:
		slot_residency(w, s, false);
		break;
	case 10 ... 12:
		slot_fill(w, s);
		break;
	case 13:
		/* Drop the mapping: the next access maps it again. */
		if (s->map) {
			munmap(s->map, s->size);
			s->map = NULL;
			w->n.remaps++;
		}
		break;
	default:
		slot_check(w, s, "before closing it");
		slot_close(w, s);
		break;
	}
}

/*
 * Open a file, put buffers, mappings and a job in it, and close it with
 * all of that still there (the mappings outlive the file for a moment).
 */
static void churn_step(struct worker *w)
{
	int fd = drm_open_vseg();
	struct worker tmp = { .fd = fd, .id = w->id, .rs = w->rs };
	uint32_t *maps[3];
	uint64_t size = 65536;

	vseg_cb_init(&tmp.cb);
	tmp.syncobj = vseg_syncobj_create(fd, 0);
	for (unsigned int i = 0; i < 3; i++) {
		struct slot *s = &tmp.slot[i];

		do
			slot_create(&tmp, s);
		while (!s->handle && time_left());
		if (!s->handle)
			break;
		slot_write(&tmp, s);
		slot_check(&tmp, s, "in a short-lived file");
	}
	if (tmp.slot[0].handle) {
		vseg_cb_reset(&tmp.cb);
		vseg_cb_nop(&tmp.cb);
		/* A job left in flight when the file closes. */
		__vseg_cb_submit(fd, DRM_VSEG_ENGINE_COPY, &tmp.cb, NULL, 0,
				 NULL, 0);
	}
	for (unsigned int i = 0; i < 3; i++) {
		maps[i] = tmp.slot[i].map;
		size = tmp.slot[i].size;
		if (maps[i] && i == 2)
			continue;	/* this one outlives the file */
		if (maps[i])
			munmap(maps[i], size);
		maps[i] = NULL;
	}
	vseg_cb_fini(&tmp.cb);
	close(fd);
	if (maps[2]) {
		igt_assert_eq_u32(maps[2][0], pattern(tmp.slot[2].value, 0));
		munmap(maps[2], size);
	}
	w->rs = tmp.rs;
	w->n.churns++;
}

static void *worker_run(void *arg)
{
	struct worker *w = arg;

	while (keep_going(w)) {
		if (w->churn)
			churn_step(w);
		else
			worker_step(w);
	}
	for (unsigned int i = 0; i < SLOTS; i++) {
		if (!w->slot[i].handle)
			continue;
		slot_check(w, &w->slot[i], "at the end");
		slot_close(w, &w->slot[i]);
	}
	return NULL;
}

static void run_process(unsigned int proc, unsigned int threads,
			bool shared_fd, bool churn, uint64_t seed)
{
	struct worker *w = calloc(threads + churn, sizeof(*w));
	int fd = drm_open_vseg();
	struct counts sum = {};

	igt_assert(w);
	for (unsigned int i = 0; i < threads + churn; i++) {
		w[i].fd = shared_fd ? fd : drm_open_vseg();
		w[i].id = proc * 100 + i;
		w[i].rs = (seed ^ (uint64_t)w[i].id << 32) * 2 + 1;
		w[i].churn = i == threads;
		/* Threads sharing a file share its address space. */
		vseg_va_init(&w[i].va, VA_START + i * VA_SPAN,
			     VA_START + (i + 1) * VA_SPAN);
		vseg_cb_init(&w[i].cb);
		w[i].syncobj = vseg_syncobj_create(w[i].fd, 0);
	}
	for (unsigned int i = 0; i < threads + churn; i++)
		igt_assert(!pthread_create(&w[i].thread, NULL, worker_run,
					   &w[i]));
	for (unsigned int i = 0; i < threads + churn; i++) {
		struct counts *n = &w[i].n;

		igt_assert(!pthread_join(w[i].thread, NULL));
		sum.creates += n->creates;
		sum.closes += n->closes;
		sum.writes += n->writes;
		sum.checks += n->checks;
		sum.evicts += n->evicts;
		sum.residents += n->residents;
		sum.fills += n->fills;
		sum.enospc += n->enospc;
		sum.remaps += n->remaps;
		sum.churns += n->churns;
		vseg_syncobj_destroy(w[i].fd, w[i].syncobj);
		vseg_cb_fini(&w[i].cb);
		if (!shared_fd)
			close(w[i].fd);
	}
	close(fd);
	free(w);
	igt_info("process %u: %u threads%s: %u creates, %u closes, %u CPU writes, %u checks, %u engine fills, %u evicts, %u made resident, %u remaps, %u ENOSPC, %u short-lived files\n",
		 proc, threads, shared_fd ? " on one file" : "", sum.creates,
		 sum.closes, sum.writes, sum.checks, sum.fills, sum.evicts,
		 sum.residents, sum.remaps, sum.enospc, sum.churns);
	igt_assert_f(sum.creates && sum.checks && sum.fills && sum.evicts,
		     "process %u did not get through every kind of step\n",
		     proc);
}

static void test_concurrency(int procs, unsigned int threads,
			     bool shared_fd, bool churn)
{
	uint32_t seed = vseg_test_seed((uint32_t)time(NULL) ^ getpid());

	deadline_ns = loop_seconds * 1000000000ull;
	igt_gettime(&start_time);
	igt_fork(child, procs)
		run_process(child, threads, shared_fd, churn,
			    (uint64_t)seed << 8 | child);
	igt_waitchildren();
}

/* --- overlapping sets on a tight segment ------------------------------------ */

#define SET_BUFS	6
#define SET_LEN		3
#define SET_PROCS	4
#define SET_BUF_SIZE	SZ_1M
/* A 4 MiB vram that each set of three 1 MiB buffers fits alone. */
#define TIGHT		"discrete mem_size_mb=4,4"

/*
 * Process @proc: its set is buffers proc .. proc + 2, taken in increasing
 * order by even processes and decreasing by odd ones; each round makes
 * the set resident, then a copy job stores (proc, round) in the process's
 * own slot of every buffer of the set.
 */
static void set_process(unsigned int proc, const int *dmabufs)
{
	int fd = drm_open_vseg_render();
	uint32_t set[SET_LEN], out;
	uint64_t rounds = 0, value = 0;
	struct vseg_cmdbuf cb;

	if (proc & 1)
		vseg_drop_privileges();
	for (unsigned int k = 0; k < SET_LEN; k++) {
		unsigned int b = proc + (proc & 1 ? SET_LEN - 1 - k : k);

		igt_assert_eq(drmPrimeFDToHandle(fd, dmabufs[b], &set[k]), 0);
	}
	out = vseg_syncobj_create(fd, 0);
	vseg_cb_init(&cb);
	while (time_left() || rounds < 2) {
		uint32_t done = 0;
		int err;

		err = __vseg_make_resident(fd, set, SET_LEN, &done);
		igt_assert_f(err == 0,
			     "process %u, round %llu: MAKE_RESIDENT of its set: %d (%s), %u of %u done\n",
			     proc, (unsigned long long)rounds, err,
			     vseg_errname(err), done, SET_LEN);
		value = (uint64_t)proc << 32 | ++rounds;
		vseg_cb_reset(&cb);
		for (unsigned int k = 0; k < SET_LEN; k++)
			vseg_cb_write_phys(&cb, set[k], 8 * proc, value);
		err = __vseg_cb_submit(fd, DRM_VSEG_ENGINE_COPY, &cb, NULL, 0,
				       &out, 1);
		igt_assert_f(err == 0,
			     "process %u, round %llu: SUBMIT with its set: %d (%s)\n",
			     proc, (unsigned long long)rounds, err,
			     vseg_errname(err));
		err = vseg_syncobj_wait_error(fd, out, WAIT_MS);
		igt_assert_f(err == 0, "process %u, round %llu: job: %d (%s)\n",
			     proc, (unsigned long long)rounds, err,
			     vseg_errname(err));
	}
	for (unsigned int k = 0; k < SET_LEN; k++) {
		uint64_t got;

		vseg_bo_read(fd, set[k], 8 * proc, &got, sizeof(got));
		igt_assert_f(got == value,
			     "process %u: its slot of a buffer reads %#llx, its last job stored %#llx\n",
			     proc, (unsigned long long)got,
			     (unsigned long long)value);
	}
	igt_info("process %u%s: %llu rounds\n", proc,
		 proc & 1 ? " (unprivileged)" : "", (unsigned long long)rounds);
	vseg_cb_fini(&cb);
	vseg_syncobj_destroy(fd, out);
	for (unsigned int k = 0; k < SET_LEN; k++)
		vseg_gem_close(fd, set[k]);
	close(fd);
}

static void test_overlapping_sets(void)
{
	uint32_t bufs[SET_BUFS];
	int dmabufs[SET_BUFS];

	/* Supported in vram and system memory only: vram for the engine. */
	for (unsigned int b = 0; b < SET_BUFS; b++) {
		bufs[b] = vseg_gem_create_in(ctx.fd, SET_BUF_SIZE, 1, AP_FLAG);
		igt_assert_eq(drmPrimeHandleToFD(ctx.fd, bufs[b],
						 DRM_CLOEXEC | DRM_RDWR,
						 &dmabufs[b]), 0);
	}
	/* Each set alone fits: made resident and used, one after the other. */
	for (unsigned int proc = 0; proc < SET_PROCS; proc++) {
		struct vseg_cmdbuf cb;

		vseg_make_resident(ctx.fd, &bufs[proc], SET_LEN);
		vseg_cb_init(&cb);
		for (unsigned int k = 0; k < SET_LEN; k++)
			vseg_cb_write_phys(&cb, bufs[proc + k], 8 * proc, 0);
		vseg_cb_exec_ok(ctx.fd, DRM_VSEG_ENGINE_COPY, &cb,
				"a job with a set alone");
		vseg_cb_fini(&cb);
	}
	deadline_ns = loop_seconds * 1000000000ull;
	igt_gettime(&start_time);
	igt_fork(child, SET_PROCS)
		set_process(child, dmabufs);
	igt_waitchildren();
	for (unsigned int b = 0; b < SET_BUFS; b++) {
		close(dmabufs[b]);
		vseg_gem_close(ctx.fd, bufs[b]);
	}
}

static void read_memory_mask(void)
{
	memory_mask = vseg_ctx_memory_segments(&ctx);
}

igt_main
{
	igt_fixture {
		const char *soak = getenv("VSEG_SOAK_SECONDS");

		vseg_ctx_setup(&ctx);
		ctx.on_load = read_memory_mask;
		if (soak && atoi(soak) > 0) {
			loop_seconds = atoi(soak);
			igt_info("soak: %u seconds per subtest\n",
				 loop_seconds);
		}
	}

	igt_describe("Six threads of one process on one file: the handle "
		     "table, the address space and the segments raced.");
	igt_subtest("threads-shared-file") {
		vseg_ctx_load(&ctx, DISCRETE);
		test_concurrency(1, 6, true, false);
		vseg_ctx_finish(&ctx, "after every thread closed its buffers");
	}

	igt_describe("Three processes of three threads, each thread with "
		     "its own file, plus a thread per process opening and "
		     "closing files that still hold buffers, mappings and "
		     "jobs.");
	igt_subtest("processes-threads-churn") {
		vseg_ctx_load(&ctx, DISCRETE);
		test_concurrency(3, 3, false, true);
		vseg_ctx_finish(&ctx, "after every thread closed its buffers");
	}

	igt_describe("The same on a small-BAR device: faults compete for "
		     "the CPU-visible part.");
	igt_subtest("processes-threads-smallbar") {
		vseg_ctx_load(&ctx, SMALLBAR);
		test_concurrency(2, 3, true, true);
		vseg_ctx_finish(&ctx, "after every thread closed its buffers");
	}

	igt_describe("Processes lock overlapping buffer sets in opposite "
		     "orders on a tight segment: all make progress, none "
		     "gets ENOSPC.");
	igt_subtest("overlapping-sets") {
		vseg_ctx_load(&ctx, TIGHT);
		test_overlapping_sets();
		vseg_ctx_finish(&ctx, "after every process closed its file");
	}

	igt_fixture
		vseg_ctx_unload(&ctx);
}
