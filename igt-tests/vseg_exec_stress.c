// SPDX-License-Identifier: MIT
/*
 * vseg_exec_stress: several processes submit random jobs on both engines
 * while the memory segments are overcommitted four times over and buffers
 * are evicted and made resident between submissions, without waiting for
 * the jobs. Each process keeps a CPU-side model of every byte of its
 * buffers; at the end (and at random points on the way) the buffers are
 * read back through mmap and compared with it. $VSEG_TEST_SCALE scales the
 * overcommit (never below one and a half times) and the random phase.
 *
 * Copyright (c) 2026 The vseg authors
 */
/**
 * TEST: vseg exec stress
 * Category: Core
 * Mega feature: General Core features
 * Sub-category: Command submission
 * Functionality: stress
 * Description: Several processes submit random FILL/COPY/WRITE jobs on the
 *	copy and render engines while the memory segments are overcommitted 4x
 *	and buffers are evicted and brought back between submissions; every
 *	byte is checked against a CPU-side model.
 *
 * SUBTEST: parallel-%s
 * Description: Four processes, both engines, every memory segment
 *	overcommitted four times (scaled by VSEG_TEST_SCALE, at least one and
 *	a half times), evictions and MAKE_RESIDENT between submissions; every
 *	byte checked against a model. On profile arg[1].
 *
 * SUBTEST: single-discrete
 * Description: One process doing the same alone with the whole overcommit,
 *	on the discrete profile.
 *
 * arg[1]:
 *
 * @discrete:	the discrete profile (the default)
 * @integrated:	the integrated profile
 * @smallbar:	the smallbar profile
 * @multi:	the multi profile
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#include "igt.h"
#include "igt_vseg.h"
#include "igt_vseg_exec.h"

IGT_TEST_DESCRIPTION("Several processes submit random FILL/COPY/WRITE jobs "
		     "on the copy and render engines while the memory "
		     "segments are overcommitted 4x and buffers are evicted "
		     "and brought back between submissions; every byte is "
		     "checked against a CPU-side model.");

#define AP_FLAG		DRM_VSEG_GEM_CREATE_ACCESSED_PHYSICALLY
#define COPY		DRM_VSEG_ENGINE_COPY
#define RENDER		DRM_VSEG_ENGINE_RENDER
#define NUM_CHILDREN	4
/*
 * How far the memory segments are overcommitted, in percent: scaled by
 * $VSEG_TEST_SCALE, but never below OVERCOMMIT_MIN, where buffers still
 * have to evict others to get in.
 */
#define OVERCOMMIT	400
#define OVERCOMMIT_MIN	150
/* Jobs a process may have queued. */
#define RING		8
/* Most bytes one command touches. */
#define MAX_OP_BYTES	0x40000ull
#define MAX_OPS_PER_JOB	4
/*
 * How long the random phase runs, and at most how many steps (both scaled
 * by $VSEG_TEST_SCALE); it runs on until each engine has had a job.
 */
#define LOOP_MS		10000
#define MAX_STEPS	4000
#define WAIT_MS		60000
#define VA_START	0x100000000ull

static struct vseg_ctx ctx = VSEG_CTX_INIT_ENGINE(VSEG_LEFTOVERS_BASE_COUNT);

/**
 * struct sbuf - one buffer of a process
 * @handle: GEM handle.
 * @size: bytes.
 * @va: where it is bound in the process's address space.
 * @ap: AccessedPhysically: the copy engine may use it.
 * @seg: the segment it prefers.
 * @supported: its supported set.
 * @model: what it must hold.
 */
struct sbuf {
	uint32_t handle;
	uint64_t size;
	uint64_t va;
	bool ap;
	uint32_t seg;
	uint32_t supported;
	uint8_t *model;
};

enum op_kind { OP_FILL, OP_COPY, OP_WRITE };

/* A command of the job being built, applied to the model once accepted. */
struct op {
	enum op_kind kind;
	struct sbuf *dst;
	uint64_t doff;
	struct sbuf *src;
	uint64_t soff;
	uint64_t len;
	uint64_t value;
};

struct stats {
	unsigned int jobs[2];
	unsigned int commands;
	unsigned int evicts;
	unsigned int residents;
	unsigned int enospc;
	unsigned int checks;
	unsigned int moved;
	uint64_t bytes;
};

/**
 * struct proc - the state of one process
 * @id: child number.
 * @share: the overcommit is shared by this many processes.
 * @fd: its own file (its own GPU address space).
 * @rs: random state.
 * @b: its buffers.
 * @n: how many.
 * @ap: indices of the AccessedPhysically ones.
 * @nap: how many.
 * @ring: out-syncobjs of the last RING jobs; job i signals @ring[i % RING]
 *	and waits for @ring[(i - 1) % RING].
 * @what: what each queued job did, for failure messages.
 * @jobs: jobs submitted.
 * @cb: the job being built.
 * @ops: its commands.
 * @nops: how many.
 * @va: address allocator.
 * @st: counters.
 */
struct proc {
	unsigned int id;
	int share;
	int fd;
	uint64_t rs;
	struct sbuf *b;
	unsigned int n;
	unsigned int *ap;
	unsigned int nap;
	uint32_t ring[RING];
	char what[RING][160];
	uint64_t jobs;
	struct vseg_cmdbuf cb;
	struct op ops[MAX_OPS_PER_JOB];
	unsigned int nops;
	struct vseg_va_space va;
	struct stats st;
};

/* --- buffers ------------------------------------------------------------------ */

static void add_buffer(struct proc *p, uint32_t id, uint64_t size, bool ap,
		       uint32_t supported)
{
	struct drm_vseg_gem_create c;
	struct sbuf *b;

	p->b = realloc(p->b, (p->n + 1) * sizeof(*p->b));
	igt_assert(p->b);
	b = &p->b[p->n];
	memset(b, 0, sizeof(*b));
	vseg_create_args(&c, size, supported, ap ? AP_FLAG : 0);
	vseg_create_prefer(&c, id,
			   vseg_rand32(&p->rs) % 2 ? DRM_VSEG_PREF_TOP_DOWN : 0);
	if ((supported & BIT(ctx.ap_id)) && id != ctx.ap_id && vseg_rand32(&p->rs) % 2)
		c.eviction_segments = BIT(ctx.ap_id);
	b->handle = vseg_gem_create(p->fd, &c);
	b->size = c.size;
	b->ap = ap;
	b->seg = id;
	b->supported = supported;
	b->model = malloc(b->size);
	igt_assert(b->model);
	vseg_pattern_fill(b->model, b->size, (p->id << 20) ^ (p->n + 1));
	vseg_bo_write(p->fd, b->handle, 0, b->model, b->size);
	b->va = vseg_va_alloc(&p->va, b->size);
	igt_assert_eq_u64(vseg_vm_bind(p->fd, b->handle, b->va), b->size);
	if (ap) {
		p->ap = realloc(p->ap, (p->nap + 1) * sizeof(*p->ap));
		igt_assert(p->ap);
		p->ap[p->nap++] = p->n;
	}
	p->n++;
}

/*
 * This process's share of the overcommit: buffers preferring each memory
 * segment adding up to OVERCOMMIT / @p->share times its size, and a few
 * AccessedPhysically buffers of the aperture.
 */
static uint64_t overcommit_percent(void)
{
	uint64_t pct = vseg_test_scale(OVERCOMMIT);

	return pct < OVERCOMMIT_MIN ? OVERCOMMIT_MIN : pct;
}

static void create_buffers(struct proc *p)
{
	for (uint32_t id = 1; id <= ctx.q.num_segments; id++) {
		const struct drm_vseg_segment_info *s = vseg_ctx_seg(&ctx, id);
		uint64_t target, total = 0;
		uint64_t max_pages;

		if (id == ctx.ap_id) {
			target = s->commit_limit / (2 * p->share);
			max_pages = SZ_1M / s->page_size;
		} else {
			target = s->size * overcommit_percent() / 100 /
				 p->share;
			max_pages = s->size / 16 / s->page_size;
		}
		while (total < target) {
			uint64_t size = s->page_size * (1 + vseg_rand32(&p->rs) % max_pages);
			bool ap = id == ctx.ap_id || vseg_rand32(&p->rs) % 2;
			uint32_t supported = BIT(id) | BIT(ctx.ap_id);

			if (id != ctx.ap_id && vseg_rand32(&p->rs) % 2)
				supported |= BIT(ctx.ap_id);
			add_buffer(p, id, size, ap, supported);
			total += p->b[p->n - 1].size;
		}
	}
	igt_assert(p->nap > 0);
}

static void verify_buffer(struct proc *p, unsigned int i, const char *when)
{
	struct sbuf *b = &p->b[i];
	uint8_t *got = malloc(b->size);
	char what[160];

	igt_assert(got);
	vseg_bo_read(p->fd, b->handle, 0, got, b->size);
	if (memcmp(got, b->model, b->size)) {
		struct drm_vseg_gem_info info;

		vseg_gem_info(p->fd, b->handle, &info);
		snprintf(what, sizeof(what),
			 "process %u, buffer %u (%#llx bytes, %s, prefers %s, now in %s, %llu moves), %s",
			 p->id, i, (unsigned long long)b->size,
			 b->ap ? "AccessedPhysically" : "plain",
			 vseg_ctx_seg_name(&ctx, b->seg),
			 vseg_ctx_seg_name(&ctx, info.segment_id),
			 (unsigned long long)info.moves, when);
		vseg_assert_same(got, b->model, b->size, 0, what);
	}
	free(got);
}

/* --- jobs ---------------------------------------------------------------------- */

static struct sbuf *pick(struct proc *p, bool physical)
{
	if (physical)
		return &p->b[p->ap[vseg_rand32(&p->rs) % p->nap]];
	return &p->b[vseg_rand32(&p->rs) % p->n];
}

/* A random range of @b: @align-aligned offset and length. */
static void pick_range(struct proc *p, const struct sbuf *b, uint64_t align,
		       uint64_t max, uint64_t *off, uint64_t *len)
{
	uint64_t m = b->size < max ? b->size : max;

	*len = align * (1 + vseg_rand32(&p->rs) % (m / align));
	*off = align * (vseg_rand32(&p->rs) % ((b->size - *len) / align + 1));
}

static void add_op(struct proc *p, bool physical)
{
	struct op *o = &p->ops[p->nops++];
	unsigned int kind = vseg_rand32(&p->rs) % 8;

	memset(o, 0, sizeof(*o));
	o->dst = pick(p, physical);
	if (kind < 3) {
		o->kind = OP_FILL;
		pick_range(p, o->dst, 4, MAX_OP_BYTES, &o->doff, &o->len);
		o->value = vseg_rand32(&p->rs);
	} else if (kind < 6) {
		uint64_t max;

		o->kind = OP_COPY;
		o->src = pick(p, physical);
		max = o->src->size < o->dst->size ? o->src->size : o->dst->size;
		if (o->src == o->dst) {
			/* Non-overlapping halves of one buffer. */
			max /= 2;
			pick_range(p, o->dst, 1, max < MAX_OP_BYTES ? max : MAX_OP_BYTES,
				   &o->doff, &o->len);
			o->doff = vseg_rand32(&p->rs) % (o->dst->size / 2 - o->len + 1);
			o->soff = o->dst->size / 2 +
				  vseg_rand32(&p->rs) % (o->dst->size / 2 - o->len + 1);
			if (vseg_rand32(&p->rs) % 2) {
				uint64_t t = o->doff;

				o->doff = o->soff;
				o->soff = t;
			}
		} else {
			pick_range(p, o->dst, 1, max < MAX_OP_BYTES ? max : MAX_OP_BYTES,
				   &o->doff, &o->len);
			o->soff = vseg_rand32(&p->rs) % (o->src->size - o->len + 1);
		}
	} else {
		o->kind = OP_WRITE;
		o->doff = 8 * (vseg_rand32(&p->rs) % (o->dst->size / 8));
		o->len = 8;
		o->value = (uint64_t)vseg_rand32(&p->rs) << 32 | vseg_rand32(&p->rs);
	}

	switch (o->kind) {
	case OP_FILL:
		if (physical)
			vseg_cb_fill_phys(&p->cb, o->dst->handle, o->doff, o->len,
					  o->value);
		else
			vseg_cb_fill(&p->cb, o->dst->va + o->doff, o->len,
				     o->value);
		break;
	case OP_COPY:
		if (physical)
			vseg_cb_copy_phys(&p->cb, o->dst->handle, o->doff,
					  o->src->handle, o->soff, o->len);
		else
			vseg_cb_copy(&p->cb, o->dst->va + o->doff,
				     o->src->va + o->soff, o->len);
		break;
	case OP_WRITE:
		if (physical)
			vseg_cb_write_phys(&p->cb, o->dst->handle, o->doff,
					   o->value);
		else
			vseg_cb_write(&p->cb, o->dst->va + o->doff, o->value);
		break;
	}
}

static void apply_ops(struct proc *p)
{
	for (unsigned int i = 0; i < p->nops; i++) {
		const struct op *o = &p->ops[i];

		switch (o->kind) {
		case OP_FILL:
			vseg_fill32(o->dst->model + o->doff, o->len, o->value);
			break;
		case OP_COPY:
			memmove(o->dst->model + o->doff,
				o->src->model + o->soff, o->len);
			break;
		case OP_WRITE:
			memcpy(o->dst->model + o->doff, &o->value, 8);
			break;
		}
		p->st.bytes += o->len;
	}
	p->st.commands += p->nops;
}

/* Wait for job @job (still in the ring) and assert it succeeded. */
static void wait_job(struct proc *p, uint64_t job)
{
	unsigned int slot = job % RING;
	int status = vseg_syncobj_wait_error(p->fd, p->ring[slot], WAIT_MS);

	igt_assert_f(status == 0, "process %u: job %llu (%s) failed: %d (%s)\n",
		     p->id, (unsigned long long)job, p->what[slot], status,
		     vseg_errname(status));
}

/* Wait for every queued job. */
static void drain(struct proc *p)
{
	uint64_t first = p->jobs > RING ? p->jobs - RING : 0;

	for (uint64_t j = first; j < p->jobs; j++)
		wait_job(p, j);
}

static int submit(struct proc *p, uint32_t engine)
{
	unsigned int slot = p->jobs % RING;
	uint32_t *in = p->jobs ? &p->ring[(p->jobs - 1) % RING] : NULL;

	return __vseg_cb_submit(p->fd, engine, &p->cb, in, in ? 1 : 0,
				&p->ring[slot], 1);
}

/* Build and submit a random job on @engine, ordered after the previous one. */
static void random_job(struct proc *p, uint32_t engine)
{
	const bool physical = engine == COPY;
	unsigned int slot = p->jobs % RING;
	unsigned int n = 1 + vseg_rand32(&p->rs) % MAX_OPS_PER_JOB;
	int err;

	if (p->jobs >= RING)
		wait_job(p, p->jobs - RING);
	vseg_cb_reset(&p->cb);
	p->nops = 0;
	for (unsigned int i = 0; i < n; i++)
		add_op(p, physical);
	snprintf(p->what[slot], sizeof(p->what[slot]),
		 "%s engine, %u commands, first %s of %#llx bytes",
		 physical ? "copy" : "render", n,
		 p->ops[0].kind == OP_FILL ? "FILL" :
		 p->ops[0].kind == OP_COPY ? "COPY" : "WRITE",
		 (unsigned long long)p->ops[0].len);

	err = submit(p, engine);
	if (err == -ENOSPC) {
		/*
		 * Other processes' jobs may hold the memory this one needs:
		 * the aperture's commit limit for the system memory a render
		 * job uses, contiguous room for a physical one. After ours
		 * are done, try again, then give up on it.
		 */
		drain(p);
		usleep(1000);
		err = submit(p, engine);
		if (err == -ENOSPC) {
			p->st.enospc++;
			return;
		}
	}
	igt_assert_f(err == 0, "process %u: SUBMIT (%s): %d (%s)\n", p->id,
		     p->what[slot], err, vseg_errname(err));
	apply_ops(p);
	p->jobs++;
	p->st.jobs[engine]++;
}

/* EVICT or MAKE_RESIDENT of a few random buffers, not waiting for jobs. */
static void random_residency(struct proc *p, bool evict)
{
	uint32_t list[4], processed = 0;
	unsigned int n = 1 + vseg_rand32(&p->rs) % 4;
	int err;

	for (unsigned int i = 0; i < n; i++)
		list[i] = p->b[vseg_rand32(&p->rs) % p->n].handle;
	if (evict) {
		err = __vseg_evict(p->fd, list, n, &processed);
		igt_assert_f(err == 0 && processed == n,
			     "process %u: EVICT of %u buffers: %s, %u processed\n",
			     p->id, n, vseg_errname(err), processed);
		p->st.evicts += n;
		return;
	}
	err = __vseg_make_resident(p->fd, list, n, &processed);
	/* With every segment contended, there may be no room for one. */
	igt_assert_f(err == 0 || err == -ENOSPC,
		     "process %u: MAKE_RESIDENT of %u buffers: %s\n", p->id, n,
		     vseg_errname(err));
	if (err)
		p->st.enospc++;
	p->st.residents += processed;
}

static void run_process(unsigned int id, int share, uint64_t seed)
{
	const uint64_t loop_ns = vseg_test_scale(LOOP_MS) * 1000000ull;
	const unsigned int max_steps = vseg_test_scale(MAX_STEPS);
	struct timespec start = {};
	struct proc p;
	unsigned int steps;

	memset(&p, 0, sizeof(p));
	p.id = id;
	p.share = share;
	p.rs = seed * 2 + 1;
	p.fd = drm_open_vseg();
	vseg_va_init(&p.va, VA_START, VSEG_VA_END);
	vseg_cb_init(&p.cb);
	for (unsigned int i = 0; i < RING; i++)
		p.ring[i] = vseg_syncobj_create(p.fd, 0);
	create_buffers(&p);

	igt_gettime(&start);
	for (steps = 0; steps < max_steps &&
	     (igt_nsec_elapsed(&start) < loop_ns ||
	      !p.st.jobs[COPY] || !p.st.jobs[RENDER]);
	     steps++) {
		unsigned int k = vseg_rand32(&p.rs) % 16;

		if (k < 6) {
			random_job(&p, COPY);
		} else if (k < 12) {
			random_job(&p, RENDER);
		} else if (k < 14) {
			random_residency(&p, true);
		} else if (k < 15) {
			random_residency(&p, false);
		} else if (vseg_rand32(&p.rs) % 4 == 0) {
			/* A spot check, which may move the buffer too. */
			drain(&p);
			verify_buffer(&p, vseg_rand32(&p.rs) % p.n,
				      "at a spot check");
			p.st.checks++;
		}
	}
	drain(&p);

	/*
	 * Scaled down (VSEG_TEST_SCALE), a process may have evicted nothing
	 * by chance: then one of its buffers in a memory segment goes now,
	 * so that every process's bytes are checked across a move.
	 */
	for (unsigned int round = 0; round < 2 && !p.st.moved; round++) {
		for (unsigned int i = 0; i < p.n; i++) {
			struct drm_vseg_gem_info info;

			vseg_gem_info(p.fd, p.b[i].handle, &info);
			if (round && !p.st.moved && info.segment_id &&
			    info.segment_id != ctx.ap_id &&
			    !(info.placement_flags & DRM_VSEG_INFO_PINNED)) {
				vseg_evict(p.fd, &p.b[i].handle, 1);
				p.st.evicts++;
				vseg_gem_info(p.fd, p.b[i].handle, &info);
			}
			p.st.moved += info.moves > 0;
		}
	}
	/* Every byte of every buffer. */
	for (unsigned int i = 0; i < p.n; i++)
		verify_buffer(&p, i, "at the end");

	igt_info("process %u: %u steps, %u buffers (%u AccessedPhysically), %u copy jobs, %u render jobs, %u commands, %llu MiB written, %u evicted, %u made resident, %u moved, %u ENOSPC, %u spot checks\n",
		 id, steps, p.n, p.nap, p.st.jobs[COPY], p.st.jobs[RENDER],
		 p.st.commands, (unsigned long long)(p.st.bytes >> 20),
		 p.st.evicts, p.st.residents, p.st.moved, p.st.enospc,
		 p.st.checks);
	igt_assert_f(p.st.jobs[COPY] > 0 && p.st.jobs[RENDER] > 0,
		     "process %u ran no job on an engine\n", id);
	igt_assert_f(p.st.moved > 0, "process %u: no buffer ever moved\n", id);

	for (unsigned int i = 0; i < RING; i++)
		vseg_syncobj_destroy(p.fd, p.ring[i]);
	for (unsigned int i = 0; i < p.n; i++) {
		vseg_vm_unbind(p.fd, p.b[i].va);
		vseg_gem_close(p.fd, p.b[i].handle);
		free(p.b[i].model);
	}
	free(p.b);
	free(p.ap);
	vseg_cb_fini(&p.cb);
	drm_close_driver(p.fd);
}

static void test_stress(int children)
{
	uint32_t seed = vseg_test_seed((uint32_t)time(NULL) ^ getpid());

	igt_fork(child, children)
		run_process(child, children, (uint64_t)seed << 8 | child);
	igt_waitchildren();
}

igt_main
{
	igt_fixture
		vseg_ctx_setup(&ctx);

	for_each_vseg_profile(profile) {
		igt_describe("Four processes, both engines, every memory "
			     "segment overcommitted four times (scaled by "
			     "VSEG_TEST_SCALE, at least one and a half times), "
			     "evictions and MAKE_RESIDENT between submissions; "
			     "every byte checked against a model.");
		igt_subtest_f("parallel-%s", profile) {
			vseg_ctx_load(&ctx, profile);
			test_stress(NUM_CHILDREN);
			vseg_ctx_finish(&ctx,
					"after every process closed its buffers");
		}
	}

	igt_describe("One process doing the same alone with the whole "
		     "overcommit.");
	igt_subtest("single-discrete") {
		vseg_ctx_load(&ctx, "discrete");
		test_stress(1);
		vseg_ctx_finish(&ctx, "after every process closed its buffers");
	}

	igt_fixture
		vseg_ctx_unload(&ctx);
}
