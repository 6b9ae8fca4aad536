// SPDX-License-Identifier: MIT
/*
 * vseg_fuzz: a seeded generator of ioctl sequences over the whole vseg UAPI.
 *
 * Every step picks an ioctl (QUERY_SEGMENTS, GEM_CREATE, GEM_INFO,
 * GEM_MMAP_OFFSET with mmap and CPU touches, MAKE_RESIDENT, EVICT, VM_BIND,
 * VM_UNBIND, SUBMIT, the display through KMS and the removed ioctl 0x09,
 * GEM_CLOSE, syncobjs) and arguments that are
 * valid, or valid but for one defect: a nonzero reserved field or unknown
 * flag, a boundary value, a closed, foreign (another file's) or random
 * handle, a bad pointer (NULL, unmapped, kernel, non-canonical, straddling
 * into an unmapped page, read-only for output), a huge count; or a sparse
 * random structure. A model of what the generator created (buffers, pins,
 * display heads, GPU VA mappings, syncobjs, which file is the DRM master)
 * predicts the outcome, which is checked against the errors vseg_drm.h
 * documents for the ioctl. Raw-address seeds (F_RAW) submit copy-engine
 * commands with hand-written physical addresses and patches into every
 * field of a command, predict with the kernel's rule which the engine may
 * run (every range inside one listed allocation) and check that the bytes
 * of a victim client never change. A
 * mismatch fails with the seed, step and arguments; --replay runs one seed
 * again and prints every step. At the end of each seed everything is
 * closed and every usage counter must come back to zero.
 *
 * Run by hand (outside igt_runner):
 *   vseg_fuzz --soak SECONDS [--seed FIRST]   seeds FIRST, FIRST+1, ...
 *   vseg_fuzz --replay SEED [--steps N]       one seed, every step printed
 * or VSEG_FUZZ_SOAK=SECONDS VSEG_FUZZ_SEED=FIRST / VSEG_FUZZ_REPLAY=SEED.
 * Without --steps (or VSEG_FUZZ_STEPS), $VSEG_TEST_SCALE scales the steps
 * of the fixed seeds (never below half); the regression seeds always run
 * in full.
 *
 * Copyright (c) 2026 The vseg authors
 */
/**
 * TEST: vseg fuzz
 * Category: Core
 * Mega feature: General Core features
 * Sub-category: UAPI
 * Functionality: fuzzing
 * Description: Seeded random ioctl sequences over the whole vseg UAPI with
 *	valid, boundary and garbage arguments, closed and foreign handles, bad
 *	pointers, huge counts and concurrent threads, hand-written physical
 *	addresses and patches into every command field; every return is
 *	checked against the documented errors, no other client's byte changes
 *	and all usage returns to zero.
 *
 * SUBTEST: fixed-seeds
 * Description: The single-threaded seeds of 1..8, each on its profile (seed %
 *	4). Dynamic subtests: <profile>-seed-<seed>.
 *
 * SUBTEST: foreign-handles
 * Description: Closed, foreign and random handles in every ioctl.
 *
 * SUBTEST: bad-pointers
 * Description: NULL, unmapped, kernel, straddling and read-only pointers in
 *	every ioctl.
 *
 * SUBTEST: huge-counts
 * Description: Counts and sizes past every limit.
 *
 * SUBTEST: threads-separate-files
 * Description: Four threads, each with its own files.
 *
 * SUBTEST: threads-one-file
 * Description: Four threads sharing one file (and one GPU VA space).
 *
 * SUBTEST: raw-addresses
 * Description: Hand-written physical addresses (segment 0, unknown segments,
 *	random offsets, the aperture; inside, straddling, before and past
 *	buffers of this file, listed or not, of another file and of a victim
 *	client) and patches into every field of a command, on each profile:
 *	SUBMIT refuses with EINVAL exactly what leaves the listed allocations
 *	or patches a field that is not an address, the rest runs, and the
 *	victim's bytes never change. Dynamic subtests: one per built-in
 *	profile, named after it.
 *
 * SUBTEST: evict-unpin-listed-twice
 * Description: Regression: EVICT(UNPIN) of a buffer listed more times than it
 *	is pinned fails with -EINVAL and changes nothing; listed as many times
 *	as pinned, it is unpinned and evicted.
 *
 * SUBTEST: pin-again-past-share
 * Description: Regression: PIN of a buffer that is pinned already, where
 *	the file's share of its segment has no room for another pin, fails
 *	with -ENOSPC and changes nothing: the buffer neither moves nor gains
 *	a pin (seed 7 listed a buffer twice in one PIN).
 *
 * SUBTEST: raw-seed-7
 * Description: Regression: seed 7 (raw addresses, multi profile), whose
 *	PIN of a list naming a buffer twice failed with -EINVAL.
 *
 * SUBTEST: physical-cpu-visible
 * Description: Regression: a physical or primary buffer that must be
 *	CPU-visible needs a CPU-visible memory segment or the aperture, else
 *	GEM_CREATE fails with -EINVAL.
 *
 * SUBTEST: threads-ww-evict
 * Description: Regression: seed 1046, four threads on one file on the
 *	smallbar profile, made a submission evict buffers that others held
 *	locked, with a ww ticket it had already declared done (a lockdep
 *	warning on the debug kernel).
 *
 * SUBTEST: aperture-raw-race
 * Description: Regression: copy jobs writing hand-written aperture addresses
 *	of another file's buffers, which leave the aperture and are freed
 *	meanwhile, are refused at SUBMIT and never write a page; jobs writing
 *	their listed buffer by raw address run.
 */
/*
 * Two more subtests exist only with their option, so they are not in the
 * test plan: "replay" runs the seed given by --replay SEED (or
 * VSEG_FUZZ_REPLAY) again, printing every step; "soak" runs seeds from
 * --seed (or VSEG_FUZZ_SEED) on, one after another, for --soak SECONDS (or
 * VSEG_FUZZ_SOAK).
 */
#include <errno.h>
#include <getopt.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>
#include <xf86drm.h>

#include "igt.h"
#include "igt_vseg.h"
#include "igt_vseg_exec.h"

IGT_TEST_DESCRIPTION("Seeded random ioctl sequences over the whole vseg UAPI "
		     "with valid, boundary and garbage arguments, closed and "
		     "foreign handles, bad pointers, huge counts and "
		     "concurrent threads, hand-written physical addresses and "
		     "patches into every command field; every return is "
		     "checked against the documented errors, no other "
		     "client's byte changes and all usage returns to zero.");

#define AP		DRM_VSEG_GEM_CREATE_ACCESSED_PHYSICALLY
#define PRIMARY		DRM_VSEG_GEM_CREATE_PRIMARY
#define CPU_VIS		DRM_VSEG_GEM_CREATE_CPU_VISIBLE
#define FROM_END	DRM_VSEG_GEM_CREATE_FROM_END_OF_SEGMENT
#define NUM_HEADS	DRM_VSEG_NUM_HEADS

#define MAX_BOS		40
#define MAX_DEAD	32
#define MAX_SYNCS	6
#define MAX_MAPS	16
#define MAX_LIST	6
#define MAX_CMDS	8
#define MAX_THREADS	4
#define GPU_OFF		64	/* GPU writes stay above the CPU's mark */
#define VA_WINDOW	(1ull << 36)
#define JOB_WAIT_NS	(20ll * 1000 * 1000 * 1000)

/* Outcomes, as bits of an "allowed" mask. */
enum {
	RES_OK, RES_EINVAL, RES_ENOENT, RES_EFAULT, RES_ENOSPC, RES_ENOMEM, RES_E2BIG,
	RES_EBUSY, RES_EACCES, RES_ENOTTY, RES_OTHER, RES_NUM
};

#define OK	BIT(RES_OK)
#define EINV	BIT(RES_EINVAL)
#define ENOE	BIT(RES_ENOENT)
#define EFLT	BIT(RES_EFAULT)
#define ESPC	BIT(RES_ENOSPC)
#define EMEM	BIT(RES_ENOMEM)
#define EBIG	BIT(RES_E2BIG)
#define EBSY	BIT(RES_EBUSY)
#define EACC	BIT(RES_EACCES)

static const char * const r_names[RES_NUM] = {
	"0", "EINVAL", "ENOENT", "EFAULT", "ENOSPC", "ENOMEM", "E2BIG",
	"EBUSY", "EACCES", "ENOTTY", "other",
};

static unsigned int r_index(int ret)
{
	switch (ret) {
	case 0: return RES_OK;
	case -EINVAL: return RES_EINVAL;
	case -ENOENT: return RES_ENOENT;
	case -EFAULT: return RES_EFAULT;
	case -ENOSPC: return RES_ENOSPC;
	case -ENOMEM: return RES_ENOMEM;
	case -E2BIG: return RES_E2BIG;
	case -EBUSY: return RES_EBUSY;
	case -EACCES: return RES_EACCES;
	case -ENOTTY: return RES_ENOTTY;
	default: return RES_OTHER;
	}
}

/* The errors vseg_drm.h documents, per ioctl (bad argument pointers too). */
#define DOC_QUERY	(EINV | EFLT | EMEM)
#define DOC_CREATE	(EINV | EBIG | ESPC | EMEM | EFLT)
#define DOC_INFO	(EINV | ENOE | EFLT)
#define DOC_MMAP	(EINV | ENOE | EMEM | EFLT)
#define DOC_RESIDENT	(EINV | EBIG | ENOE | EFLT | ESPC | EMEM)
#define DOC_EVICT	(EINV | EBIG | ENOE | EFLT | EBSY | EMEM)
#define DOC_VM		(EINV | ENOE | EBIG | ESPC | EMEM | EFLT)
#define DOC_SUBMIT	(EINV | EBIG | ENOE | EFLT | ESPC | EMEM)
#define DOC_SCANOUT	(EINV | ESPC | EMEM | EACC)

enum op {
	OP_QUERY, OP_CREATE, OP_INFO, OP_MMAP, OP_RESIDENT, OP_EVICT,
	OP_BIND, OP_UNBIND, OP_SUBMIT, OP_SCANOUT, OP_CLOSE, OP_SYNC,
	OP_BADARG, OP_SPARSE, OP_RAW, NUM_OPS
};

static const char * const op_names[NUM_OPS] = {
	"query", "create", "info", "mmap", "resident", "evict", "bind",
	"unbind", "submit", "scanout", "close", "sync", "badarg", "sparse",
	"raw",
};

/* What is wrong with an op's arguments. */
enum mut { M_NONE, M_RESERVED, M_BOUNDARY, M_HANDLE, M_POINTER, M_HUGE, M_NUM };

/* Generator flavours: which defects it favours. */
enum focus { F_ALL, F_HANDLES, F_POINTERS, F_HUGE, F_RAW };

/* --- the segment table, read once per profile --------------------------- */

static struct {
	uint32_t nseg, ap_id, all, mem_mask, cpu_mask, phys_mask;
	uint32_t page[DRM_VSEG_MAX_SEGMENTS + 1];
	uint32_t nbanks[DRM_VSEG_MAX_SEGMENTS + 1];
	uint64_t size[DRM_VSEG_MAX_SEGMENTS + 1];
	uint64_t commit[DRM_VSEG_MAX_SEGMENTS + 1];
	struct drm_vseg_segment_info seg[DRM_VSEG_MAX_SEGMENTS];
} T;

/* The GPU physical address of (segment @id, @off): base address + @off. */
static uint64_t gpu_addr(uint32_t id, uint64_t off)
{
	return T.seg[id - 1].base_address + off;
}

/* The address just past the segment that ends highest: not memory. */
static uint64_t past_segments(void)
{
	uint64_t top = 0;
	uint32_t id;

	for (id = 1; id <= T.nseg; id++)
		if (gpu_addr(id, T.size[id]) > top)
			top = gpu_addr(id, T.size[id]);
	return top;
}

/* Bad addresses, shared by every generator. */
static void *none_page;		/* PROT_NONE */
static void *ro_page;		/* PROT_READ */
static char *straddle;		/* the last bytes of a page before PROT_NONE */
static long page_size;

/* --- one generator ------------------------------------------------------ */

struct fbo {
	uint32_t handle;
	uint32_t flags;
	uint32_t supported;
	uint32_t user_pins;
	uint64_t size;
	uint64_t uid;
	uint64_t mark;		/* the word the CPU last stored at offset 0 */
};

struct fclient {
	int fd;
	bool shared;		/* other generators use the fd too */
	bool master;		/* DRM master: may change the display */
	unsigned int nbo, ndead, nsync, nmap;
	struct fbo bo[MAX_BOS];
	uint32_t dead[MAX_DEAD];
	uint32_t sync[MAX_SYNCS];
	bool fenced[MAX_SYNCS];
	uint64_t map_va[MAX_MAPS];
	uint64_t map_size[MAX_MAPS];
};

struct fz {
	uint32_t seed;
	int thread;
	uint64_t rng;
	unsigned int step, steps;
	enum focus focus;
	bool verbose;
	struct fclient cl[2];	/* cl[1] is the "foreign" file */
	uint32_t heads;		/* heads this generator may change */
	uint64_t head_uid[NUM_HEADS];
	uint64_t va_base;
	uint64_t next_uid;
	enum op op;
	char desc[640];
	bool failed;
	char msg[1536];
	uint32_t *big_list;	/* DRM_VSEG_MAX_RESIDENCY_HANDLES entries */
	unsigned long ops[NUM_OPS];
	unsigned long results[RES_NUM];
	unsigned long touches, sigbus;
	/* F_RAW: another client whose bytes the raw jobs must never touch. */
	int victim_fd;
	unsigned int nvictim;
	uint32_t victim[DRM_VSEG_MAX_SEGMENTS];
	uint32_t raw_sync;
	unsigned long raw_ok, raw_refused, raw_placed;
};

static volatile bool stop_all;

static uint64_t rnd64(struct fz *g)
{
	/* xorshift64* */
	g->rng ^= g->rng >> 12;
	g->rng ^= g->rng << 25;
	g->rng ^= g->rng >> 27;
	return g->rng * 0x2545f4914f6cdd1dull;
}

static uint32_t rnd32(struct fz *g)
{
	return rnd64(g) >> 32;
}

static uint32_t below(struct fz *g, uint32_t n)
{
	return n ? rnd32(g) % n : 0;
}

static bool chance(struct fz *g, unsigned int pct)
{
	return below(g, 100) < pct;
}

static uint64_t interesting(struct fz *g)
{
	static const uint64_t v[] = {
		0, 1, 2, 3, 7, 8, 48, 4095, 4096, 4097, 0x10000, 0x7fffffff,
		0x80000000, 0xffffffff, 1ull << 32, 1ull << 47, 1ull << 56,
		1ull << 63, ~0ull, ~0ull - 4095,
	};

	return chance(g, 25) ? rnd64(g) : v[below(g, ARRAY_SIZE(v))];
}

static uint64_t ptr(const void *p)
{
	return (uint64_t)(uintptr_t)p;
}

/* Wait for a syncobj's fence; drmSyncobjWait() takes an absolute time. */
static int sync_wait(int fd, uint32_t h)
{
	struct timespec now;

	clock_gettime(CLOCK_MONOTONIC, &now);
	return drmSyncobjWait(fd, &h, 1, now.tv_sec * 1000000000ll +
			      now.tv_nsec + JOB_WAIT_NS, 0, NULL);
}

static int vioctl(int fd, unsigned long req, void *arg)
{
	int ret;

	do {
		ret = ioctl(fd, req, arg);
	} while (ret == -1 && (errno == EINTR || errno == EAGAIN));
	return ret ? -errno : 0;
}

static void __attribute__((format(printf, 2, 3)))
note(struct fz *g, const char *fmt, ...)
{
	va_list ap;
	int n;

	n = snprintf(g->desc, sizeof(g->desc), "%s: ", op_names[g->op]);
	va_start(ap, fmt);
	vsnprintf(g->desc + n, sizeof(g->desc) - n, fmt, ap);
	va_end(ap);
	if (g->verbose)
		igt_info("seed %u t%d step %u: %s\n", g->seed, g->thread,
			 g->step, g->desc);
}

static void __attribute__((format(printf, 2, 3)))
fail(struct fz *g, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (g->failed)
		return;
	n = snprintf(g->msg, sizeof(g->msg),
		     "seed %u thread %d step %u: %s\n  => ", g->seed, g->thread,
		     g->step, g->desc);
	va_start(ap, fmt);
	vsnprintf(g->msg + n, sizeof(g->msg) - n, fmt, ap);
	va_end(ap);
	g->failed = true;
	stop_all = true;
}

static void mask_names(unsigned int m, char *buf, size_t len)
{
	size_t n = 0;
	unsigned int i;

	buf[0] = 0;
	for (i = 0; i < RES_NUM && n < len; i++)
		if (m & BIT(i))
			n += snprintf(buf + n, len - n, "%s%s", n ? "," : "",
				      r_names[i]);
}

/* Check @ret against @allowed; false (and the generator fails) if not. */
static bool expect(struct fz *g, int ret, unsigned int allowed)
{
	unsigned int r = r_index(ret);
	char names[128];

	g->results[r]++;
	if (g->verbose)
		igt_info("    -> %d (%s)\n", ret, r_names[r]);
	if (allowed & BIT(r))
		return true;
	mask_names(allowed, names, sizeof(names));
	fail(g, "returned %d (%s), expected one of {%s}", ret,
	     ret ? strerror(-ret) : "success", names);
	return false;
}

/* --- the model ---------------------------------------------------------- */

static struct fclient *pick_client(struct fz *g)
{
	return &g->cl[chance(g, 85) ? 0 : 1];
}

static struct fclient *other_client(struct fz *g, struct fclient *c)
{
	return c == &g->cl[0] ? &g->cl[1] : &g->cl[0];
}

static bool is_live(const struct fclient *c, uint32_t h)
{
	unsigned int i;

	for (i = 0; i < c->nbo; i++)
		if (c->bo[i].handle == h)
			return true;
	return false;
}

static unsigned int shown(const struct fz *g, const struct fbo *b)
{
	unsigned int i, n = 0;

	for (i = 0; i < NUM_HEADS; i++)
		n += g->head_uid[i] == b->uid;
	return n;
}

/* A handle the file @c certainly does not have; @kind names it. */
static uint32_t bad_handle(struct fz *g, struct fclient *c, const char **kind)
{
	struct fclient *o = other_client(g, c);
	unsigned int tries;
	uint32_t h = 0;

	for (tries = 0; tries < 8; tries++) {
		switch (below(g, c->shared ? 2 : 4)) {
		case 0:
			h = 0x10000000 + below(g, 0x60000000);
			*kind = "random";
			break;
		case 1:
			h = 0xffffffff;
			*kind = "max";
			break;
		case 2:
			if (!c->ndead)
				continue;
			h = c->dead[below(g, c->ndead)];
			*kind = "closed";
			break;
		case 3:
			if (!o->nbo)
				continue;
			h = o->bo[below(g, o->nbo)].handle;
			*kind = "foreign";
			break;
		}
		if (h && !is_live(c, h))
			return h;
	}
	*kind = "random";
	return 0x7ffffff0;
}

/* A bad user pointer; @output: the kernel writes there. */
static uint64_t bad_pointer(struct fz *g, bool output, bool null_ok,
			    const char **kind)
{
	for (;;) {
		switch (below(g, 6)) {
		case 0:
			if (!null_ok)
				continue;
			*kind = "NULL";
			return 0;
		case 1:
			*kind = "unmapped";
			return ptr(none_page);
		case 2:
			*kind = "kernel";
			return 0xffff888000000000ull;
		case 3:
			*kind = "non-canonical";
			return 0x8000000000000000ull;
		case 4:
			*kind = "straddling";
			return ptr(straddle);
		case 5:
			if (!output)
				continue;
			*kind = "read-only";
			return ptr(ro_page);
		}
	}
}

/* A bad argument pointer; @output: the kernel writes there. */
static void *bad_arg(struct fz *g, bool output, const char **kind)
{
	return (void *)(uintptr_t)bad_pointer(g, output, true, kind);
}

static enum mut pick_mut(struct fz *g)
{
	unsigned int r = below(g, 100);

	switch (g->focus) {
	case F_HANDLES:
		return r < 55 ? M_HANDLE : r < 75 ? M_NONE : M_BOUNDARY;
	case F_POINTERS:
		return r < 55 ? M_POINTER : r < 75 ? M_NONE : M_RESERVED;
	case F_HUGE:
		return r < 50 ? M_HUGE : r < 75 ? M_NONE : M_BOUNDARY;
	case F_RAW:
		return r < 85 ? M_NONE : r < 93 ? M_BOUNDARY : M_RESERVED;
	default:
		if (r < 45)
			return M_NONE;
		return r < 58 ? M_RESERVED : r < 72 ? M_BOUNDARY :
		       r < 84 ? M_HANDLE : r < 93 ? M_POINTER : M_HUGE;
	}
}

static const char *mut_name(enum mut m)
{
	static const char * const n[M_NUM] = {
		"valid", "reserved", "boundary", "handle", "pointer", "huge",
	};

	return n[m];
}

static int close_handle(int fd, uint32_t h)
{
	struct drm_gem_close cl = { .handle = h };

	return vioctl(fd, DRM_IOCTL_GEM_CLOSE, &cl);
}

static void add_dead(struct fclient *c, uint32_t h)
{
	if (c->ndead < MAX_DEAD)
		c->dead[c->ndead++] = h;
	else
		c->dead[h % MAX_DEAD] = h;
}

static void remove_bo(struct fclient *c, unsigned int i)
{
	add_dead(c, c->bo[i].handle);
	c->bo[i] = c->bo[--c->nbo];
}

/* --- fields made wrong, from a table per structure --------------------- */

/* What a field is set to, to make it wrong. */
enum bad_value {
	V_ANY,		/* an interesting 64-bit value, odd: nonzero */
	V_WORD,		/* a random 32-bit value, odd */
	V_FLAG,		/* one flag bit, from @first up, not in @known */
	V_PAST,		/* past @limit: @limit + 1 + maybe a lot */
};

/**
 * struct field - a field of an ioctl argument and how to make it wrong
 * @what: how note() names the defect.
 * @offset: where it is in its structure.
 * @size: bytes of one element: 4 or 8.
 * @count: elements (1: not an array; else one of them is made wrong).
 * @value: what it is set to.
 * @first: V_FLAG: the lowest unknown flag bit.
 * @known: V_FLAG: a flag that is no defect (another bit is drawn).
 * @add: V_FLAG: or-ed into the flags set, not instead of them.
 * @limit: V_PAST: the largest valid value.
 *
 * Every ioctl argument has must-be-zero fields (extensions, flags,
 * padding, reserved words) and counts with a limit: one table per
 * structure lists them, and set_field() makes one of them wrong.
 */
struct field {
	const char *what;
	unsigned short offset;
	unsigned char size;
	unsigned char count;
	unsigned char value;
	unsigned char first;
	bool add;
	uint32_t known;
	uint32_t limit;
};

#define FIELD(type, f, v, w, ...) \
	{ .what = (w), .offset = offsetof(type, f), \
	  .size = sizeof(((type *)0)->f), .count = 1, .value = (v), \
	  __VA_ARGS__ }
#define FIELD_ARRAY(type, f, v, w) \
	{ .what = (w), .offset = offsetof(type, f), \
	  .size = sizeof(((type *)0)->f[0]), \
	  .count = ARRAY_SIZE(((type *)0)->f), .value = (v) }

static uint64_t bad_value(struct fz *g, const struct field *f)
{
	uint32_t bit;

	switch (f->value) {
	case V_ANY:
		return interesting(g) | 1;
	case V_WORD:
		return rnd32(g) | 1;
	case V_FLAG:
		do {
			bit = 1u << (f->first + below(g, 32 - f->first));
		} while (bit & f->known);
		return bit;
	default:
		return f->limit + 1 + (below(g, 2) ? rnd32(g) >> 1 : 0);
	}
}

/*
 * Make field @f wrong in one of the @n structures at @base, @stride bytes
 * apart (@n 0: @base is the only one); returns its @what. The value is
 * drawn first, then which structure and which element.
 */
static const char *set_field_in(struct fz *g, void *base, size_t stride,
				unsigned int n, const struct field *f)
{
	uint64_t v = bad_value(g, f), old = 0;
	char *p = base;

	if (n)
		p += stride * below(g, n);
	p += f->offset;
	if (f->count > 1)
		p += f->size * below(g, f->count);
	if (f->add)
		memcpy(&old, p, f->size);
	v |= old;
	if (f->size == 4) {
		uint32_t v32 = v;

		memcpy(p, &v32, 4);
	} else {
		memcpy(p, &v, 8);
	}
	return f->what;
}

/* Make field @f of the structure @arg wrong; returns its @what. */
static const char *set_field(struct fz *g, void *arg, const struct field *f)
{
	return set_field_in(g, arg, 0, 0, f);
}

/* Make one of the @n fields of @fields of @arg wrong; returns its @what. */
static const char *set_one_field(struct fz *g, void *arg,
				 const struct field *fields, unsigned int n)
{
	return set_field(g, arg, &fields[below(g, n)]);
}

/* --- QUERY_SEGMENTS ----------------------------------------------------- */

#define Q(f, v)		FIELD(struct drm_vseg_query_segments, f, v, #f)
static const struct field query_mbz[] = {
	Q(extensions, V_ANY), Q(flags, V_FLAG), Q(pad, V_WORD),
	Q(pad2, V_WORD),
	FIELD_ARRAY(struct drm_vseg_query_segments, reserved, V_ANY,
		    "reserved"),
};

static void check_segments(struct fz *g, const struct drm_vseg_segment_info *s,
			   uint32_t n)
{
	uint32_t i;

	for (i = 0; i < n; i++) {
		const struct drm_vseg_segment_info *w = &T.seg[i];
		const struct drm_vseg_segment_usage *u = &s[i].usage;

		if (s[i].id != w->id || s[i].kind != w->kind ||
		    s[i].flags != w->flags || s[i].size != w->size ||
		    s[i].commit_limit != w->commit_limit || s[i].pad ||
		    memcmp(s[i].reserved, w->reserved, sizeof(w->reserved)))
			fail(g, "segment %u changed (size %#llx flags %#llx)",
			     i + 1, (unsigned long long)s[i].size,
			     (unsigned long long)s[i].flags);
		else if (u->committed > w->commit_limit ||
			 u->resident > w->size ||
			 (w->kind == DRM_VSEG_SEGMENT_KIND_MEMORY &&
			  u->aperture_mapped) || u->reserved[0] ||
			 u->reserved[1] || u->reserved[2] || u->reserved[3])
			fail(g, "segment %u usage out of bounds: committed %#llx resident %#llx aperture_mapped %#llx (size %#llx, commit limit %#llx)",
			     i + 1, (unsigned long long)u->committed,
			     (unsigned long long)u->resident,
			     (unsigned long long)u->aperture_mapped,
			     (unsigned long long)w->size,
			     (unsigned long long)w->commit_limit);
		if (g->failed)
			return;
	}
}

static void op_query(struct fz *g)
{
	struct drm_vseg_segment_info segs[DRM_VSEG_MAX_SEGMENTS + 3];
	struct drm_vseg_query_segments q = {};
	enum mut m = pick_mut(g);
	const char *what = "", *kind = "";
	unsigned int allowed = OK, k;
	void *arg = &q;
	int ret;

	if (m == M_HANDLE)
		m = M_NONE;
	memset(segs, 0, sizeof(segs));
	if (chance(g, 30)) {
		what = "count call";
	} else {
		q.num_segments = T.nseg + below(g, 3);
		q.segment_size = sizeof(segs[0]);
		q.segments = ptr(segs);
		what = "fill call";
	}
	switch (m) {
	case M_RESERVED:
		set_one_field(g, &q, query_mbz, ARRAY_SIZE(query_mbz));
		what = "nonzero reserved field";
		allowed = EINV;
		break;
	case M_BOUNDARY:
		k = below(g, 4);
		q.num_segments = T.nseg;
		q.segment_size = sizeof(segs[0]);
		q.segments = ptr(segs);
		if (k == 0 && T.nseg > 1) {
			q.num_segments = T.nseg - 1;
			what = "count one short";
		} else if (k <= 1) {
			/* any size from the first version's up is a stride */
			q.segment_size = below(g, 2) ? 0 :
					 DRM_VSEG_SEGMENT_INFO_SIZE_V1 - 8;
			what = "segment_size below the first version's";
		} else if (k == 2) {
			q.segments = 0;
			what = "NULL array with a count";
		} else {
			q.num_segments = 0xffffffff;
			what = "huge capacity, table-sized array";
		}
		allowed = k == 3 ? OK : EINV;
		break;
	case M_POINTER:
		q.num_segments = T.nseg;
		q.segment_size = sizeof(segs[0]);
		if (chance(g, 30)) {
			arg = bad_arg(g, true, &kind);
			what = "bad argument pointer";
		} else {
			q.segments = bad_pointer(g, true, false, &kind);
			what = "bad array pointer";
		}
		allowed = EFLT;
		break;
	case M_HUGE:
		q.num_segments = 0x7fffffff;
		q.segment_size = sizeof(segs[0]);
		q.segments = ptr(segs);
		what = "huge capacity";
		allowed = OK;
		break;
	default:
		break;
	}
	note(g, "%s (%s%s%s) num %u size %u segments %#llx", what,
	     mut_name(m), *kind ? " " : "", kind, q.num_segments,
	     q.segment_size, (unsigned long long)q.segments);
	ret = vioctl(g->cl[0].fd, DRM_IOCTL_VSEG_QUERY_SEGMENTS, arg);
	if (!expect(g, ret, allowed) || ret || arg != &q)
		return;
	if (q.num_segments != T.nseg || q.segment_size != sizeof(segs[0]))
		fail(g, "returned %u segments of %u bytes, expected %u of %zu",
		     q.num_segments, q.segment_size, T.nseg, sizeof(segs[0]));
	else if (q.segments)
		check_segments(g, segs, T.nseg);
}

/* --- GEM_CREATE --------------------------------------------------------- */

static uint32_t pick_seg(struct fz *g, uint32_t mask)
{
	uint32_t id;

	if (!mask)
		return 0;
	do {
		id = below(g, T.nseg + 1);
	} while (!(mask & BIT(id)));
	return id;
}

/*
 * Where a buffer may be, as the kernel sees it: the aperture's bit also
 * names plain system memory (bit 0 of the model's sets).
 */
static uint32_t sys_too(uint32_t supported)
{
	return supported & BIT(T.ap_id) ? supported | 1 : supported;
}

static void create_valid(struct fz *g, struct drm_vseg_gem_create *c)
{
	static const uint64_t sizes[] = {
		SZ_4K, 2 * SZ_4K, 5 * SZ_4K, SZ_64K, 3 * SZ_64K, SZ_1M,
		2 * SZ_1M,
	};
	uint32_t sup, id;
	unsigned int i, n;

	memset(c, 0, sizeof(*c));
	c->size = chance(g, 3) ? SZ_4M : sizes[below(g, ARRAY_SIZE(sizes))];
	do {
		sup = rnd32(g) & T.all;
	} while (!sup);
	if (chance(g, 25))
		sup = T.all;
	c->supported_segments = sup;
	if (chance(g, 30) && (sup & T.phys_mask))
		c->flags |= AP;
	if (chance(g, 15))
		c->flags |= PRIMARY;
	if (chance(g, 20) && (sup & T.cpu_mask))
		c->flags |= CPU_VIS;
	if (chance(g, 20))
		c->flags |= FROM_END;
	/* Physical access and scanout need a (CPU-visible) segment. */
	if ((c->flags & (AP | PRIMARY)) &&
	    !(sup & ~1u & (c->flags & CPU_VIS ? T.cpu_mask : T.all)))
		c->flags &= ~(AP | PRIMARY);
	n = below(g, 4);
	for (i = 0; i < n; i++) {
		c->preferred[i].segment_id = pick_seg(g, sup);
		c->preferred[i].flags = chance(g, 30) ? DRM_VSEG_PREF_TOP_DOWN : 0;
	}
	c->num_preferred = n;
	if (T.ap_id && (sup & BIT(T.ap_id)) && chance(g, 40))
		c->eviction_segments = BIT(T.ap_id);
	id = c->preferred[0].segment_id;
	if (n && T.nbanks[id] && chance(g, 50)) {
		c->num_hinted_banks = 1 + below(g, T.nbanks[id] < 4 ?
						T.nbanks[id] : 4);
		for (i = 0; i < c->num_hinted_banks; i++)
			c->hinted_banks[i] = below(g, T.nbanks[id]);
	}
	if (chance(g, 12))
		c->alignment = 1ull << (12 + below(g, 10));
}

static uint64_t real_size(const struct drm_vseg_gem_create *c)
{
	uint64_t page = SZ_4K;
	uint32_t id;

	for (id = 1; id <= T.nseg; id++)
		if ((c->supported_segments & BIT(id)) &&
		    (T.mem_mask & BIT(id)) && T.page[id] > page)
			page = T.page[id];
	return (c->size + page - 1) & ~(page - 1);
}

#define C(f, v, w, ...) \
	FIELD(struct drm_vseg_gem_create, f, v, w, __VA_ARGS__)
/*
 * The first four defects of M_RESERVED (extensions is a chain, not a
 * must-be-zero field, but a wild chain is refused all the same); the rest
 * need more than a field.
 */
static const struct field create_mbz[] = {
	C(extensions, V_ANY, "extensions"),
	FIELD_ARRAY(struct drm_vseg_gem_create, reserved, V_ANY, "reserved"),
	C(flags, V_FLAG, "unknown flag", .first = 4, .add = true,
	  .known = DRM_VSEG_GEM_CREATE_PROTECTED |
		   DRM_VSEG_GEM_CREATE_VM_PRIVATE),
	C(handle, V_WORD, "handle in"),
};
static const struct field pref_flags =
	FIELD(struct drm_vseg_segment_pref, flags, V_FLAG,
	      "unknown preference flag", .first = 1, .add = true);
/* M_HUGE: counts past their limits. */
static const struct field create_huge[] = {
	C(num_hinted_banks, V_PAST, "num_hinted_banks",
	  .limit = DRM_VSEG_MAX_HINTED_BANKS),
	C(num_preferred, V_PAST, "num_preferred",
	  .limit = DRM_VSEG_MAX_PREFERRED),
};

/* No preferred segment, hinted bank or eviction set. */
static void no_hints(struct drm_vseg_gem_create *c)
{
	memset(c->preferred, 0, sizeof(c->preferred));
	memset(c->hinted_banks, 0, sizeof(c->hinted_banks));
	c->num_preferred = 0;
	c->num_hinted_banks = 0;
	c->eviction_segments = 0;
}

/* Make @c wrong in one documented way; returns the error it must give. */
static unsigned int create_mutate(struct fz *g, struct drm_vseg_gem_create *c,
				  enum mut m, const char **what)
{
	uint32_t id, nonvis;
	unsigned int k;

	switch (m) {
	case M_RESERVED:
		k = below(g, 7);
		if (k < ARRAY_SIZE(create_mbz)) {
			*what = set_field(g, c, &create_mbz[k]);
			/* A chain of extensions: a wild pointer faults. */
			if (k == 0)
				return EINV | EFLT | EBIG;
		} else if (k == 4 && c->num_preferred < DRM_VSEG_MAX_PREFERRED) {
			c->preferred[4].segment_id = 1;
			*what = "unused preferred entry";
		} else if (k == 5 &&
			   c->num_hinted_banks < DRM_VSEG_MAX_HINTED_BANKS) {
			c->hinted_banks[3] = 1 + below(g, 4);
			*what = "unused hinted bank";
		} else {
			*what = set_field(g, &c->preferred[0], &pref_flags);
			if (!c->num_preferred) {
				c->num_preferred = 1;
				c->preferred[0].segment_id =
					pick_seg(g, c->supported_segments);
			}
		}
		return EINV;
	case M_BOUNDARY:
		k = below(g, 17);
		switch (k) {
		case 0:
			c->size = 0;
			*what = "size 0";
			return EINV;
		case 1:
			c->size = below(g, 2) ? 4095 : 4097;
			*what = "unaligned size";
			return EINV;
		case 2:
			c->size = below(g, 2) ? 1ull << 63 : ~0ull - 4095;
			*what = "huge size";
			/* No place could ever hold it: not a lack of room. */
			return EINV;
		case 3:
			c->alignment = below(g, 2) ? 3 : 3ull << 20;
			*what = "alignment not a power of two";
			return EINV;
		case 4:
			c->alignment = 1ull << (31 + below(g, 33));
			*what = "alignment above 1 GiB";
			return EINV;
		case 5:
			c->supported_segments = 0;
			*what = "no supported segment";
			return EINV;
		case 6:
			c->supported_segments |= BIT(T.nseg + 1 +
						     below(g, 31 - T.nseg));
			*what = "unknown supported segment";
			return EINV;
		case 7:
			id = pick_seg(g, ~c->supported_segments & T.all);
			if (c->supported_segments == T.all)
				id = T.nseg + 1 + below(g, 3);
			c->preferred[0].segment_id = id;
			if (!c->num_preferred)
				c->num_preferred = 1;
			*what = "preferred segment not supported";
			return EINV;
		case 8:
			c->preferred[0].segment_id = 32 + below(g, 1000);
			if (!c->num_preferred)
				c->num_preferred = 1;
			*what = "preferred segment id >= 32";
			return EINV;
		case 9:
			c->eviction_segments = BIT(pick_seg(g, T.all &
							    ~BIT(T.ap_id)));
			*what = "eviction to a memory segment";
			return EINV;
		case 10:
			c->supported_segments &= ~BIT(T.ap_id);
			if (!c->supported_segments)
				c->supported_segments =
					BIT(pick_seg(g, T.mem_mask));
			c->flags &= ~AP;
			if (!(c->supported_segments & T.cpu_mask))
				c->flags &= ~CPU_VIS;
			for (k = 0; k < c->num_preferred; k++)
				if (c->preferred[k].segment_id == T.ap_id)
					c->preferred[k].segment_id =
						pick_seg(g, c->supported_segments);
			c->eviction_segments = BIT(T.ap_id);
			*what = "eviction to an unsupported aperture";
			return EINV;
		case 11:
			for (id = 1; id <= T.nseg; id++)
				if (T.nbanks[id])
					break;
			if (id > T.nseg)
				return create_mutate(g, c, m, what);
			c->supported_segments |= BIT(id);
			c->preferred[0].segment_id = id;
			c->preferred[0].flags = 0;
			if (!c->num_preferred)
				c->num_preferred = 1;
			c->num_hinted_banks = 1;
			c->hinted_banks[0] = T.nbanks[id] + below(g, 100);
			*what = "hinted bank out of range";
			return EINV;
		case 12:
			/*
			 * Pick first, write after: an entry left behind past
			 * num_preferred would make the create -EINVAL for
			 * another reason (seed 40 step 535).
			 */
			id = pick_seg(g, c->supported_segments);
			if (T.nbanks[id])
				return create_mutate(g, c, m, what);
			c->preferred[0].segment_id = id;
			if (!c->num_preferred)
				c->num_preferred = 1;
			c->num_hinted_banks = 1;
			c->hinted_banks[0] = 0;
			*what = "hinted bank without banking";
			return EINV;
		case 13:
			nonvis = T.mem_mask & ~T.cpu_mask;
			if (!nonvis)
				return create_mutate(g, c, m, what);
			c->supported_segments = nonvis;
			c->flags |= CPU_VIS;
			no_hints(c);
			*what = "CPU_VISIBLE without a visible segment";
			return EINV;
		case 14:
			/* since driver 0.8: segment 0 is no client's to name */
			c->supported_segments = 1;
			c->flags = below(g, 2) ? AP : PRIMARY;
			no_hints(c);
			*what = "segment 0 in the supported set";
			return EINV;
		case 15:
			nonvis = T.mem_mask & ~T.cpu_mask;
			if (!nonvis)
				return create_mutate(g, c, m, what);
			c->supported_segments = nonvis;
			c->flags = CPU_VIS | (below(g, 2) ? AP : PRIMARY);
			no_hints(c);
			*what = "CPU_VISIBLE physical buffer without a visible physical segment";
			return EINV;
		default:
			c->alignment = 1ull << 30;
			*what = "alignment 1 GiB";
			return OK | ESPC | EMEM;
		}
	case M_HUGE:
		*what = set_one_field(g, c, create_huge,
				      ARRAY_SIZE(create_huge));
		return EBIG;
	default:
		*what = "";
		return OK | ESPC | EMEM;
	}
}

static void op_create(struct fz *g)
{
	struct fclient *c = pick_client(g);
	struct drm_vseg_gem_create a;
	enum mut m = pick_mut(g);
	const char *what = "", *kind = "";
	unsigned int allowed;
	uint64_t want;
	void *arg = &a;
	int ret;

	create_valid(g, &a);
	if (m == M_HANDLE)
		m = M_NONE;
	if (m == M_POINTER) {
		arg = bad_arg(g, false, &kind);
		what = kind;
		allowed = EFLT;
	} else {
		allowed = create_mutate(g, &a, m, &what);
	}
	want = real_size(&a);
	note(g, "fd%d %s %s: size %#llx align %#llx flags %#x supported %#x eviction %#x pref %u [%u/%u %u/%u %u/%u] banks %u [%u %u] ext %#llx handle %u res %#llx",
	     c == &g->cl[1], mut_name(m), what, (unsigned long long)a.size,
	     (unsigned long long)a.alignment, a.flags, a.supported_segments,
	     a.eviction_segments, a.num_preferred, a.preferred[0].segment_id,
	     a.preferred[0].flags, a.preferred[1].segment_id,
	     a.preferred[1].flags, a.preferred[4].segment_id,
	     a.preferred[4].flags, a.num_hinted_banks, a.hinted_banks[0],
	     a.hinted_banks[3], (unsigned long long)a.extensions, a.handle,
	     (unsigned long long)(a.reserved[0] | a.reserved[1] |
				  a.reserved[2] | a.reserved[3]));
	ret = vioctl(c->fd, DRM_IOCTL_VSEG_GEM_CREATE, arg);
	if (ret == 0 && arg == &a && a.handle) {
		if (c->nbo == MAX_BOS || !(allowed & OK)) {
			/* Not kept: close it again (a failure is reported). */
			close_handle(c->fd, a.handle);
		} else {
			struct fbo *b = &c->bo[c->nbo++];

			memset(b, 0, sizeof(*b));
			b->handle = a.handle;
			b->size = a.size;
			b->flags = a.flags;
			b->supported = sys_too(a.supported_segments);
			b->uid = ++g->next_uid;
		}
	}
	if (!expect(g, ret, allowed) || ret)
		return;
	if (a.size != want)
		fail(g, "size %#llx returned, expected %#llx",
		     (unsigned long long)a.size, (unsigned long long)want);
}

/* --- GEM_INFO ----------------------------------------------------------- */

/*
 * The defects of @m every op's argument @*arg may get: a must-be-zero
 * field of the @n of @mbz (M_RESERVED), a bad handle in @handle if it has
 * one (M_HANDLE), a bad argument pointer (M_POINTER; @output: the kernel
 * writes the argument). Returns the errors the defect must give; 0 for
 * M_NONE and the defects the op makes itself.
 */
static unsigned int arg_defect(struct fz *g, struct fclient *c, enum mut m,
			       void **arg, uint32_t *handle, bool output,
			       const struct field *mbz, unsigned int n,
			       const char **what, const char **kind)
{
	switch (m) {
	case M_RESERVED:
		set_one_field(g, *arg, mbz, n);
		return EINV;
	case M_HANDLE:
		if (!handle)
			return 0;
		*handle = bad_handle(g, c, what);
		return ENOE;
	case M_POINTER:
		*arg = bad_arg(g, output, kind);
		return EFLT;
	default:
		return 0;
	}
}

/*
 * The defects of GEM_INFO's and GEM_MMAP_OFFSET's argument, which names
 * buffer @*handle (0: the file has none): arg_defect()'s, and handle 0.
 */
static unsigned int handle_arg_mutate(struct fz *g, struct fclient *c,
				      enum mut *m, void **arg,
				      uint32_t *handle,
				      const struct field *mbz, unsigned int n,
				      const char **what, const char **kind)
{
	if (*m == M_HUGE)
		*m = M_NONE;
	if (!*handle && *m == M_NONE)
		*m = M_HANDLE;
	if (*m == M_BOUNDARY) {
		*handle = 0;
		return ENOE;
	}
	return arg_defect(g, c, *m, arg, handle, true, mbz, n, what, kind) ?:
	       OK;
}

static const struct field info_mbz[] = {
	FIELD_ARRAY(struct drm_vseg_gem_info, reserved, V_ANY, "reserved"),
	FIELD(struct drm_vseg_gem_info, extensions, V_ANY, "extensions"),
};

static struct fbo *pick_bo(struct fz *g, struct fclient *c)
{
	return c->nbo ? &c->bo[below(g, c->nbo)] : NULL;
}

/*
 * Has the buffer no place but system memory (CPU_VISIBLE drops the places
 * the CPU cannot reach)? MAKE_RESIDENT then pins it where it is.
 */
static bool system_only(const struct fbo *b)
{
	return !(b->supported & ~1u &
		 (b->flags & CPU_VIS ? T.cpu_mask : T.all));
}

/*
 * The GPU physical address GEM_INFO must report: the segment's base address
 * + the offset when contiguous in a memory segment, the aperture's base +
 * the aperture offset when mapped there; none otherwise.
 */
static uint64_t expected_gpu_address(const struct drm_vseg_gem_info *in)
{
	if (!in->segment_id || in->segment_id > T.nseg ||
	    !(in->placement_flags & DRM_VSEG_INFO_CONTIGUOUS))
		return DRM_VSEG_GPU_ADDRESS_NONE;
	if (in->segment_id == T.ap_id)
		return in->placement_flags & DRM_VSEG_INFO_APERTURE_MAPPED ?
		       gpu_addr(T.ap_id, in->aperture_offset) :
		       DRM_VSEG_GPU_ADDRESS_NONE;
	return gpu_addr(in->segment_id, in->offset);
}

/*
 * A buffer of system memory the GPU used is committed to the aperture,
 * whether or not it supports the aperture: WDDM's memory manager does so
 * for the GPU's use of system memory (it gets no GART range there).
 */
static bool gpu_committed(const struct fbo *b,
			  const struct drm_vseg_gem_info *in)
{
	return (b->supported & 1) && in->segment_id == T.ap_id &&
	       !(in->placement_flags & DRM_VSEG_INFO_APERTURE_MAPPED);
}

static void check_info(struct fz *g, const struct fbo *b,
		       const struct drm_vseg_gem_info *in)
{
	unsigned int pins = b->user_pins + shown(g, b);

	if (in->size != b->size || in->create_flags != b->flags ||
	    in->segment_id > T.nseg ||
	    (in->segment_id && !(b->supported & BIT(in->segment_id)) &&
	     !gpu_committed(b, in)) ||
	    !!(in->placement_flags & DRM_VSEG_INFO_RESIDENT) !=
	    !!in->segment_id ||
	    in->resident_bytes != (in->segment_id ? b->size : 0) ||
	    in->reserved[0] || in->reserved[1])
		fail(g, "GEM_INFO of handle %u: size %#llx flags %#x segment %u placement %#x resident %#llx; created size %#llx flags %#x supported %#x",
		     b->handle, (unsigned long long)in->size,
		     in->create_flags, in->segment_id, in->placement_flags,
		     (unsigned long long)in->resident_bytes,
		     (unsigned long long)b->size, b->flags, b->supported);
	else if (!!(in->placement_flags & DRM_VSEG_INFO_PINNED) != !!pins)
		fail(g, "GEM_INFO of handle %u: placement %#x, but it has %u application pins and is shown on %u heads",
		     b->handle, in->placement_flags, b->user_pins,
		     shown(g, b));
	else if (pins && !in->segment_id && !system_only(b))
		fail(g, "handle %u is pinned in system memory", b->handle);
	else if (in->gpu_address != expected_gpu_address(in))
		fail(g, "GEM_INFO of handle %u: segment %u offset %#llx aperture %#llx placement %#x, gpu_address %#llx",
		     b->handle, in->segment_id,
		     (unsigned long long)in->offset,
		     (unsigned long long)in->aperture_offset,
		     in->placement_flags,
		     (unsigned long long)in->gpu_address);
}

static void op_info(struct fz *g)
{
	struct fclient *c = pick_client(g);
	struct drm_vseg_gem_info in = {};
	struct fbo *b = pick_bo(g, c);
	enum mut m = pick_mut(g);
	const char *what = "", *kind = "";
	unsigned int allowed = OK;
	void *arg = &in;
	int ret;

	in.handle = b ? b->handle : 0;
	allowed = handle_arg_mutate(g, c, &m, &arg, &in.handle, info_mbz,
				    ARRAY_SIZE(info_mbz), &what, &kind);
	note(g, "fd%d %s %s%s handle %u ext %#llx", c == &g->cl[1],
	     mut_name(m), what, kind, in.handle,
	     (unsigned long long)in.extensions);
	ret = vioctl(c->fd, DRM_IOCTL_VSEG_GEM_INFO, arg);
	if (expect(g, ret, allowed) && !ret && b && !c->shared)
		check_info(g, b, &in);
}

/* --- GEM_MMAP_OFFSET, mmap and CPU touches ------------------------------ */

/* What touch() does to the mapping, with SIGBUS caught. */
struct touch {
	volatile uint64_t *first, *last;
	uint64_t *mark;		/* the model's word 0 */
	uint64_t val, seen;
	bool differs;
};

static void touch_words(void *arg)
{
	struct touch *t = arg;

	t->seen = *t->first;
	t->differs = t->seen != *t->mark;
	if (t->differs)
		return;
	*t->first = t->val;
	*t->mark = t->val;
	*t->last = *t->last + 1;
}

/* Read and write the first and last words of the mapping. */
static void touch(struct fz *g, struct fclient *c, struct fbo *b, void *map)
{
	struct touch t = {
		.first = map,
		.last = (uint64_t *)((char *)map + b->size - 8),
		.mark = &b->mark,
		.val = rnd64(g) | 1,
	};
	bool may_fail;

	g->touches++;
	/* Without system memory or with a pin, it may have no CPU place. */
	may_fail = !(b->supported & 1) || b->user_pins || shown(g, b);
	if (vseg_catch_sigbus(touch_words, &t)) {
		g->sigbus++;
		if (!may_fail)
			fail(g, "SIGBUS touching handle %u (supported %#x, flags %#x, size %#llx)",
			     b->handle, b->supported, b->flags,
			     (unsigned long long)b->size);
		return;
	}
	if (t.differs)
		fail(g, "handle %u: word 0 is %#llx, the CPU stored %#llx",
		     b->handle, (unsigned long long)t.seen,
		     (unsigned long long)b->mark);
	(void)c;
}

static const struct field mmap_mbz[] = {
	FIELD(struct drm_vseg_gem_mmap_offset, flags, V_FLAG, "flags"),
	FIELD(struct drm_vseg_gem_mmap_offset, extensions, V_ANY,
	      "extensions"),
};

static void op_mmap(struct fz *g)
{
	struct fclient *c = pick_client(g);
	struct drm_vseg_gem_mmap_offset mo = {};
	struct fbo *b = pick_bo(g, c);
	enum mut m = pick_mut(g);
	const char *what = "", *kind = "";
	unsigned int allowed = OK;
	void *arg = &mo, *map;
	int ret;

	mo.handle = b ? b->handle : 0;
	allowed = handle_arg_mutate(g, c, &m, &arg, &mo.handle, mmap_mbz,
				    ARRAY_SIZE(mmap_mbz), &what, &kind);
	/* No CPU-reachable place at all: nothing to map, said up front. */
	if (m == M_NONE && b && !(b->supported & T.cpu_mask)) {
		what = "no CPU-reachable place";
		allowed = EINV;
	}
	note(g, "fd%d %s %s%s handle %u flags %#x", c == &g->cl[1],
	     mut_name(m), what, kind, mo.handle, mo.flags);
	ret = vioctl(c->fd, DRM_IOCTL_VSEG_GEM_MMAP_OFFSET, arg);
	if (!expect(g, ret, allowed) || ret || !b)
		return;

	switch (below(g, 8)) {
	case 0: {
		/* The offset on the other file: not its buffer. */
		struct fclient *o = other_client(g, c);

		if (o->fd == c->fd)
			return;
		note(g, "mmap of fd%d's offset %#llx on fd%d", c == &g->cl[1],
		     (unsigned long long)mo.offset, o == &g->cl[1]);
		map = mmap(NULL, b->size, PROT_READ, MAP_SHARED, o->fd,
			   mo.offset);
		if (map != MAP_FAILED) {
			munmap(map, b->size);
			fail(g, "a foreign file mapped the buffer");
		} else if (errno != EACCES) {
			fail(g, "mmap failed with %s, expected EACCES",
			     strerror(errno));
		}
		return;
	}
	case 1:
		/* Longer than the buffer. */
		note(g, "mmap of %#llx bytes of a %#llx-byte buffer",
		     (unsigned long long)b->size + page_size,
		     (unsigned long long)b->size);
		map = mmap(NULL, b->size + page_size, PROT_READ, MAP_SHARED,
			   c->fd, mo.offset);
		if (map != MAP_FAILED) {
			munmap(map, b->size + page_size);
			fail(g, "an mmap longer than the buffer succeeded");
		}
		return;
	default:
		break;
	}
	map = mmap(NULL, b->size, PROT_READ | PROT_WRITE, MAP_SHARED, c->fd,
		   mo.offset);
	if (map == MAP_FAILED) {
		fail(g, "mmap of handle %u at %#llx: %s", b->handle,
		     (unsigned long long)mo.offset, strerror(errno));
		return;
	}
	note(g, "touch handle %u (supported %#x, %u pins, %u heads)",
	     b->handle, b->supported, b->user_pins, shown(g, b));
	touch(g, c, b, map);
	munmap(map, b->size);
}

/* --- MAKE_RESIDENT and EVICT ------------------------------------------- */

#define R(f, v, ...)	FIELD(struct drm_vseg_residency, f, v, #f, __VA_ARGS__)
#define RESIDENCY_MBZ(known_flag) { \
	R(extensions, V_ANY), R(pad, V_WORD), \
	FIELD_ARRAY(struct drm_vseg_residency, reserved, V_ANY, "reserved"), \
	R(flags, V_FLAG, .known = (known_flag)), \
}
static const struct field resident_mbz[] =
	RESIDENCY_MBZ(DRM_VSEG_RESIDENCY_PIN);
static const struct field evict_mbz[] =
	RESIDENCY_MBZ(DRM_VSEG_RESIDENCY_UNPIN | DRM_VSEG_RESIDENCY_DISCARD);
static const struct field residency_count =
	R(count, V_PAST, .limit = DRM_VSEG_MAX_RESIDENCY_HANDLES);

static void op_residency(struct fz *g, bool make)
{
	unsigned long ioc = make ? DRM_IOCTL_VSEG_MAKE_RESIDENT :
				   DRM_IOCTL_VSEG_EVICT;
	struct fclient *c = pick_client(g);
	struct drm_vseg_residency r = {};
	uint32_t list[MAX_LIST];
	int idx[MAX_LIST];
	enum mut m = pick_mut(g);
	const char *what = "", *kind = "";
	unsigned int allowed, pred = OK, n, i, j, k;
	uint32_t flag = make ? DRM_VSEG_RESIDENCY_PIN : DRM_VSEG_RESIDENCY_UNPIN;
	void *arg = &r;
	bool big = false;
	int ret;

	if (!c->nbo && m == M_NONE)
		m = M_HANDLE;
	n = 1 + below(g, 4);
	for (i = 0; i < n; i++) {
		idx[i] = c->nbo ? (int)below(g, c->nbo) : -1;
		list[i] = idx[i] >= 0 ? c->bo[idx[i]].handle : 0x7ffffff0;
	}
	r.handles = ptr(list);
	r.count = n;
	r.flags = chance(g, 30) ? flag : 0;
	r.processed = 0xffffffff;

	/*
	 * EVICT's check of the list, entry by entry: with UNPIN each entry
	 * drops one of the file's pins, so a buffer must hold at least as
	 * many of them as it has entries (else -EINVAL) and no other pin
	 * (display, more pins of the file: else -EBUSY); without UNPIN any
	 * pin is -EBUSY.
	 */
	if (!make && c->nbo) {
		for (i = 0; i < n && pred == OK; i++) {
			const struct fbo *b = &c->bo[idx[i]];
			unsigned int times = 0;

			for (j = 0; j < n; j++)
				times += idx[j] == idx[i];
			if (r.flags & DRM_VSEG_RESIDENCY_UNPIN) {
				if (b->user_pins < times)
					pred = EINV;
				else if (b->user_pins + shown(g, b) > times)
					pred = EBSY;
			} else if (b->user_pins + shown(g, b)) {
				pred = EBSY;
			}
		}
	}
	allowed = pred == OK ? (make ? OK | ESPC | EMEM : OK | EMEM) : pred;

	switch (m) {
	case M_RESERVED:
		set_one_field(g, &r, make ? resident_mbz : evict_mbz,
			      ARRAY_SIZE(resident_mbz));
		what = "reserved";
		/* MAKE_RESIDENT's extensions are a chain (0.12). */
		allowed = make ? EINV | EFLT | EBIG : EINV;
		break;
	case M_BOUNDARY:
		if (below(g, 3)) {
			r.count = 0;
			what = "count 0";
			allowed = EINV;
			break;
		}
		if (!c->nbo || (make && r.flags))
			return;
		/* The longest list: one buffer, over and over. */
		for (i = 0; i < DRM_VSEG_MAX_RESIDENCY_HANDLES; i++)
			g->big_list[i] = list[0];
		r.handles = ptr(g->big_list);
		r.count = DRM_VSEG_MAX_RESIDENCY_HANDLES;
		big = true;
		what = "1024 entries";
		n = 1;
		if (!make) {
			const struct fbo *b = &c->bo[idx[0]];
			unsigned int pins = b->user_pins + shown(g, b);

			/* 1024 UNPINs: more than the file's pins. */
			if (r.flags)
				allowed = EINV;
			else
				allowed = pins ? EBSY : OK | EMEM;
		} else {
			allowed = OK | ESPC | EMEM;
		}
		break;
	case M_HANDLE:
		/* Every handle is looked up before any pin is checked. */
		list[below(g, n)] = bad_handle(g, c, &what);
		allowed = ENOE;
		break;
	case M_POINTER:
		if (chance(g, 25)) {
			arg = bad_arg(g, false, &kind);
			what = "argument";
		} else {
			r.handles = bad_pointer(g, false, true, &kind);
			r.count = 2 + below(g, 8);
			what = "handles";
		}
		allowed = EFLT;
		break;
	case M_HUGE:
		set_field(g, &r, &residency_count);
		if (below(g, 3) == 0)
			r.count = 0xffffffff;
		what = "count";
		allowed = EBIG;
		break;
	default:
		break;
	}
	note(g, "fd%d %s %s%s count %u flags %#x handles %#llx [%u %u %u %u] ext %#llx pad %u res %#llx",
	     c == &g->cl[1], mut_name(m), what, kind, r.count, r.flags,
	     (unsigned long long)r.handles, list[0], n > 1 ? list[1] : 0,
	     n > 2 ? list[2] : 0, n > 3 ? list[3] : 0,
	     (unsigned long long)r.extensions, r.pad,
	     (unsigned long long)(r.reserved[0] | r.reserved[1]));
	ret = vioctl(c->fd, ioc, arg);
	if (!expect(g, ret, allowed) || arg != &r)
		return;
	if (ret && ret != -ENOSPC && ret != -ENOMEM) {
		/* The list is checked first: nothing may have moved. */
		if (r.processed != 0xffffffff && r.processed)
			fail(g, "failed with %d after processing %u buffers",
			     ret, r.processed);
		return;
	}
	if (!ret && r.processed != r.count) {
		fail(g, "processed %u of %u", r.processed, r.count);
		return;
	}
	if (!(r.flags & flag) || m != M_NONE || big)
		return;
	/* The pins of the entries processed. */
	k = ret ? r.processed : n;
	if (k > n) {
		fail(g, "processed %u of %u", k, n);
		return;
	}
	for (i = 0; i < k; i++) {
		if (make)
			c->bo[idx[i]].user_pins++;
		else
			c->bo[idx[i]].user_pins--;
	}
}

/* --- VM_BIND and VM_UNBIND ---------------------------------------------- */

/*
 * The address space as the model has it: mappings that do not overlap,
 * each from map_va[i] for map_size[i] bytes. A bind replaces what it
 * covers and an unbind of a range removes it, both keeping the parts of
 * the mappings they cut outside the range (drm_gpuvm's splits).
 */

/* The mappings after binding (@map) or unbinding [@va, @va + @size). */
static unsigned int vm_model_cut(const struct fclient *c, uint64_t va,
				 uint64_t size, bool map, uint64_t *nva,
				 uint64_t *nsize)
{
	unsigned int i, n = 0;

	for (i = 0; i < c->nmap; i++) {
		uint64_t a = c->map_va[i], e = a + c->map_size[i];

		if (e <= va || a >= va + size) {
			nva[n] = a;
			nsize[n++] = e - a;
			continue;
		}
		if (a < va) {
			nva[n] = a;
			nsize[n++] = va - a;
		}
		if (e > va + size) {
			nva[n] = va + size;
			nsize[n++] = e - (va + size);
		}
	}
	if (map) {
		nva[n] = va;
		nsize[n++] = size;
	}
	return n;
}

/* How many mappings the model would hold after such a change. */
static unsigned int vm_model_count(const struct fclient *c, uint64_t va,
				   uint64_t size, bool map)
{
	uint64_t nva[MAX_MAPS + 2], nsize[MAX_MAPS + 2];

	return vm_model_cut(c, va, size, map, nva, nsize);
}

static void vm_model_apply(struct fclient *c, uint64_t va, uint64_t size,
			   bool map)
{
	uint64_t nva[MAX_MAPS + 2], nsize[MAX_MAPS + 2];
	unsigned int n = vm_model_cut(c, va, size, map, nva, nsize);

	igt_assert(n <= MAX_MAPS);
	memcpy(c->map_va, nva, n * sizeof(*nva));
	memcpy(c->map_size, nsize, n * sizeof(*nsize));
	c->nmap = n;
}

#define VB(f, v, ...)	FIELD(struct drm_vseg_vm_bind, f, v, #f, __VA_ARGS__)
/* VM_BIND: DRM_VSEG_VM_BIND_READONLY is the one flag. */
static const struct field bind_mbz[] = {
	VB(extensions, V_ANY), VB(flags, V_FLAG, .first = 1), VB(pad, V_WORD),
	FIELD_ARRAY(struct drm_vseg_vm_bind, reserved, V_ANY, "reserved"),
};
/* VM_UNBIND: the handle, the offset and every flag too. */
static const struct field unbind_mbz[] = {
	VB(extensions, V_ANY), VB(flags, V_FLAG), VB(pad, V_WORD),
	VB(handle, V_WORD), VB(offset, V_ANY),
	FIELD_ARRAY(struct drm_vseg_vm_bind, reserved, V_ANY, "reserved"),
};

static void op_bind(struct fz *g)
{
	const uint64_t page = page_size;
	struct fclient *c = pick_client(g);
	struct drm_vseg_vm_bind vb = {};
	struct fbo *b = pick_bo(g, c);
	enum mut m = pick_mut(g);
	const char *what = "", *kind = "";
	unsigned int allowed = OK | EMEM;
	uint64_t range = 0;
	void *arg = &vb;
	int ret;

	if (!b && m == M_NONE)
		m = M_HANDLE;
	vb.handle = b ? b->handle : 0;
	if (c->nmap && chance(g, 30))
		vb.gpu_va = c->map_va[below(g, c->nmap)] +
			    page * below(g, 3);
	else
		vb.gpu_va = g->va_base + SZ_64K * below(g, 4096);
	if (b) {
		uint64_t pages = b->size / page;

		/* A range of the buffer, or all of it. */
		if (chance(g, 25))
			vb.offset = page * below(g, pages);
		if (chance(g, 25))
			vb.size = page *
				  (1 + below(g, pages - vb.offset / page));
		range = vb.size ?: b->size - vb.offset;
		if (chance(g, 10))
			vb.flags = DRM_VSEG_VM_BIND_READONLY;
		if (m == M_NONE &&
		    vm_model_count(c, vb.gpu_va, range, true) > MAX_MAPS)
			m = M_BOUNDARY;
	}
	switch (m) {
	case M_BOUNDARY:
	case M_HUGE:
		if (!b)
			return;
		switch (below(g, 9)) {
		case 0:
			vb.gpu_va = 0;
			what = "va 0";
			break;
		case 1:
			vb.gpu_va += 1 + below(g, page - 1);
			what = "unaligned va";
			break;
		case 2:
			vb.gpu_va = (1ull << 47) + SZ_64K * below(g, 4);
			what = "va at 2^47";
			break;
		case 3:
			vb.gpu_va = (1ull << 47) - page;
			vb.offset = 0;
			vb.size = 0;
			if (b->size <= page)
				vb.gpu_va = ~0ull << 16;
			what = "mapping past 2^47";
			break;
		case 4:
			vb.offset = b->size + page * below(g, 4);
			vb.size = 0;
			what = "offset past the buffer";
			break;
		case 5:
			vb.offset += 1 + below(g, page - 1);
			what = "unaligned offset";
			break;
		case 6:
			vb.size = b->size - vb.offset + page;
			what = "size past the buffer";
			break;
		case 7:
			vb.size = (vb.size ?: page) + 1 +
				  below(g, page - 1);
			what = "unaligned size";
			break;
		default:
			vb.gpu_va = ~0ull << 16;
			what = "va wraps";
			break;
		}
		allowed = EINV;
		break;
	default:
		allowed = arg_defect(g, c, m, &arg, &vb.handle, false,
				     bind_mbz, ARRAY_SIZE(bind_mbz), &what,
				     &kind) ?: allowed;
		break;
	}
	note(g, "fd%d %s %s%s handle %u va %#llx offset %#llx size %#llx flags %#x",
	     c == &g->cl[1], mut_name(m), what, kind, vb.handle,
	     (unsigned long long)vb.gpu_va, (unsigned long long)vb.offset,
	     (unsigned long long)vb.size, vb.flags);
	ret = vioctl(c->fd, DRM_IOCTL_VSEG_VM_BIND, arg);
	if (!expect(g, ret, allowed) || ret)
		return;
	if (vb.size != range) {
		fail(g, "VM_BIND returned size %#llx for a range of %#llx bytes",
		     (unsigned long long)vb.size, (unsigned long long)range);
		return;
	}
	vm_model_apply(c, vb.gpu_va, range, true);
}

static void op_unbind(struct fz *g)
{
	const uint64_t page = page_size;
	struct fclient *c = pick_client(g);
	struct drm_vseg_vm_bind vb = {};
	enum mut m = pick_mut(g);
	const char *kind = "";
	unsigned int allowed = OK, i = 0;
	void *arg = &vb;
	bool mapped = false;
	int ret;

	if (c->nmap && chance(g, 75)) {
		i = below(g, c->nmap);
		vb.gpu_va = c->map_va[i];
		mapped = true;
		/* Sometimes a range: from inside the mapping, through it. */
		if (chance(g, 30)) {
			vb.gpu_va += page *
				     below(g, c->map_size[i] / page);
			vb.size = page * (1 + below(g, 64));
			if (vm_model_count(c, vb.gpu_va, vb.size, false) >
			    MAX_MAPS) {
				vb.gpu_va = c->map_va[i];
				vb.size = 0;
			}
		}
	} else {
		vb.gpu_va = chance(g, 20) ? interesting(g) :
			    g->va_base + SZ_64K * below(g, 4096);
		for (i = 0; i < c->nmap && c->map_va[i] != vb.gpu_va; i++)
			;
		mapped = i < c->nmap;
		allowed = mapped ? OK : EINV;
	}
	if (c->shared && !mapped && vb.gpu_va - g->va_base >= VA_WINDOW)
		vb.gpu_va = g->va_base + 4096;	/* not another thread's */
	switch (m) {
	case M_RESERVED:
	case M_HANDLE:
		set_one_field(g, &vb, unbind_mbz, ARRAY_SIZE(unbind_mbz));
		allowed = EINV;
		break;
	case M_POINTER:
		arg = bad_arg(g, false, &kind);
		allowed = EFLT;
		break;
	default:
		m = M_NONE;
		break;
	}
	note(g, "fd%d %s%s va %#llx (%s) handle %u size %#llx flags %#x",
	     c == &g->cl[1], mut_name(m), kind, (unsigned long long)vb.gpu_va,
	     mapped ? "mapped" : "not mapped", vb.handle,
	     (unsigned long long)vb.size, vb.flags);
	ret = vioctl(c->fd, DRM_IOCTL_VSEG_VM_UNBIND, arg);
	if (!expect(g, ret, allowed) || ret)
		return;
	if (mapped)
		vm_model_apply(c, vb.gpu_va, vb.size ?: c->map_size[i], false);
}

/* --- SUBMIT ------------------------------------------------------------- */

struct sub {
	struct drm_vseg_submit s;
	struct drm_vseg_cmd cmd[MAX_CMDS];
	struct drm_vseg_allocation al[4];
	struct drm_vseg_patch pt[2 * MAX_CMDS];
	struct drm_vseg_sync in[3], out[3];
	uint64_t al_size[4];
	unsigned int ncmd, nal, npt;
	bool outside;	/* a copy command addresses no listed allocation */
};

static void add_patch(struct sub *s, unsigned int cmd, bool src,
		      unsigned int ai, uint64_t off)
{
	struct drm_vseg_patch *p = &s->pt[s->npt++];

	p->allocation_index = ai;
	p->allocation_offset = off;
	p->patch_offset = cmd * sizeof(struct drm_vseg_cmd) +
			  (src ? 16 : 8);
}

/* An offset of listed allocation @ai for @len bytes, above the CPU's mark. */
static uint64_t gpu_offset(struct fz *g, uint64_t size, uint64_t len,
			   unsigned int align)
{
	uint64_t room = (size - GPU_OFF - len) / align;

	return GPU_OFF + align * below(g, room > 256 ? 256 : room + 1);
}

static void submit_valid(struct fz *g, struct fclient *c, struct sub *s)
{
	unsigned int i, n, nap = 0, ap[MAX_BOS];
	uint64_t len, off;
	int mi;

	memset(s, 0, sizeof(*s));
	s->s.engine = below(g, 2);
	for (i = 0; i < c->nbo; i++)
		if (c->bo[i].flags & AP)
			ap[nap++] = i;
	if (s->s.engine == DRM_VSEG_ENGINE_COPY && nap) {
		s->nal = below(g, 4);
		for (i = 0; i < s->nal; i++) {
			const struct fbo *b = &c->bo[ap[below(g, nap)]];

			s->al[i].handle = b->handle;
			s->al[i].flags = below(g, 2) ?
					 DRM_VSEG_ALLOCATION_WRITE : 0;
			s->al_size[i] = b->size;
		}
	}
	s->ncmd = 1 + below(g, MAX_CMDS);
	for (i = 0; i < s->ncmd; i++) {
		struct drm_vseg_cmd *cmd = &s->cmd[i];
		unsigned int ai = below(g, s->nal);

		cmd->opcode = below(g, 4);
		if (cmd->opcode == DRM_VSEG_CMD_NOP)
			continue;
		len = cmd->opcode == DRM_VSEG_CMD_WRITE ? 8 :
		      4 * (1 + below(g, 64));
		if (cmd->opcode == DRM_VSEG_CMD_FILL)
			cmd->value = rnd32(g);
		else if (cmd->opcode == DRM_VSEG_CMD_WRITE)
			cmd->value = rnd64(g);
		else
			cmd->size = len;
		if (cmd->opcode == DRM_VSEG_CMD_FILL)
			cmd->size = len;
		if (s->s.engine == DRM_VSEG_ENGINE_COPY) {
			if (!s->nal || chance(g, 10)) {
				/*
				 * Outside every listed allocation (past every
				 * segment, not memory): SUBMIT refuses the job.
				 */
				cmd->dst = past_segments() + 0x1000;
				cmd->src = cmd->opcode == DRM_VSEG_CMD_COPY ?
					   past_segments() : 0;
				s->outside = true;
				continue;
			}
			off = gpu_offset(g, s->al_size[ai], 2 * len, 8);
			add_patch(s, i, false, ai, off);
			if (cmd->opcode == DRM_VSEG_CMD_COPY)
				add_patch(s, i, true, ai, off + len);
		} else {
			mi = c->nmap && !chance(g, 10) ?
			     (int)below(g, c->nmap) : -1;
			if (mi < 0) {
				cmd->dst = g->va_base + VA_WINDOW - SZ_64K;
				cmd->src = cmd->opcode == DRM_VSEG_CMD_COPY ?
					   cmd->dst : 0;
				continue;
			}
			/* map_size is rounded up: use its first 4 KiB only. */
			off = gpu_offset(g, SZ_4K, 2 * len, 8);
			cmd->dst = c->map_va[mi] + off;
			if (cmd->opcode == DRM_VSEG_CMD_COPY)
				cmd->src = cmd->dst + len;
		}
	}
	n = 0;
	for (i = 0; i < c->nsync && n < 2; i++)
		if (c->fenced[i] && chance(g, 40))
			s->in[n++].handle = c->sync[i];
	s->s.num_in_syncs = n;
	n = 0;
	for (i = 0; i < c->nsync && n < 2; i++)
		if (chance(g, 40))
			s->out[n++].handle = c->sync[i];
	s->s.num_out_syncs = n;

	s->s.commands = ptr(s->cmd);
	s->s.commands_size = s->ncmd * sizeof(struct drm_vseg_cmd);
	s->s.num_allocations = s->nal;
	s->s.allocations = ptr(s->al);
	s->s.num_patches = s->npt;
	s->s.patches = ptr(s->pt);
	s->s.in_syncs = ptr(s->in);
	s->s.out_syncs = ptr(s->out);
	s->s.sync_size = sizeof(struct drm_vseg_sync);
}

#define S(f, v, ...)	FIELD(struct drm_vseg_submit, f, v, #f, __VA_ARGS__)
/* The first four defects of M_RESERVED. */
static const struct field submit_mbz[] = {
	S(extensions, V_ANY), S(flags, V_FLAG), S(sync_size, V_WORD),
	FIELD_ARRAY(struct drm_vseg_submit, reserved, V_ANY, "reserved"),
};
static const struct field cmd_flags =
	FIELD(struct drm_vseg_cmd, flags, V_FLAG, "command flags");
static const struct field allocation_flags =
	FIELD(struct drm_vseg_allocation, flags, V_FLAG, "allocation flags",
	      .first = 1, .add = true);
static const struct field patch_pad =
	FIELD(struct drm_vseg_patch, pad, V_WORD, "patch pad");
/* The first four defects of M_HUGE. */
static const struct field submit_huge[] = {
	S(num_allocations, V_PAST, .limit = DRM_VSEG_MAX_ALLOCATIONS),
	S(num_patches, V_PAST, .limit = DRM_VSEG_MAX_PATCHES),
	S(num_in_syncs, V_PAST, .limit = DRM_VSEG_MAX_SYNCS),
	S(num_out_syncs, V_PAST, .limit = DRM_VSEG_MAX_SYNCS),
};

static unsigned int submit_mutate(struct fz *g, struct fclient *c,
				  struct sub *s, enum mut m, const char **what,
				  const char **kind)
{
	unsigned int i, k;

	switch (m) {
	case M_RESERVED:
		k = below(g, 11);
		*what = "reserved";
		if (k < ARRAY_SIZE(submit_mbz)) {
			set_field(g, &s->s, &submit_mbz[k]);
			return EINV;
		}
		switch (k) {
		case 4:
			*what = set_field_in(g, s->cmd, sizeof(s->cmd[0]),
					     s->ncmd, &cmd_flags);
			return EINV;
		case 5:
			s->cmd[below(g, s->ncmd)].opcode = 4 + below(g, 1000);
			*what = "unknown opcode";
			return EINV;
		case 6:
			i = below(g, s->ncmd);
			memset(&s->cmd[i], 0, sizeof(s->cmd[i]));
			switch (below(g, 3)) {
			case 0:
				s->cmd[i].dst = 8;
				break;
			case 1:
				s->cmd[i].size = 4;
				break;
			default:
				s->cmd[i].value = 1;
				break;
			}
			*what = "NOP with operands";
			return EINV;
		case 7:
			i = below(g, s->ncmd);
			s->cmd[i].opcode = DRM_VSEG_CMD_FILL;
			s->cmd[i].src = 0;
			s->cmd[i].size = 4;
			s->cmd[i].value = 1ull << 32;
			*what = "FILL with a 64-bit value";
			return EINV;
		case 8:
			i = below(g, s->ncmd);
			s->cmd[i].opcode = DRM_VSEG_CMD_WRITE;
			s->cmd[i].src = 0;
			s->cmd[i].size = 0;
			s->cmd[i].dst |= 4;
			*what = "WRITE to an unaligned address";
			return EINV;
		case 9:
			if (!s->nal)
				return submit_mutate(g, c, s, m, what, kind);
			*what = set_field_in(g, s->al, sizeof(s->al[0]),
					     s->nal, &allocation_flags);
			return EINV;
		default:
			if (!s->npt)
				return submit_mutate(g, c, s, m, what, kind);
			*what = set_field_in(g, s->pt, sizeof(s->pt[0]),
					     s->npt, &patch_pad);
			return EINV;
		}
	case M_BOUNDARY:
		k = below(g, 10);
		switch (k) {
		case 0:
			s->s.engine = 2 + below(g, 2) * (rnd32(g) >> 2);
			*what = "unknown engine";
			return EINV;
		case 1:
			s->s.commands_size = 0;
			*what = "no commands";
			return EINV;
		case 2:
			s->s.commands_size += below(g, 2) ? 8 : -8;
			if (!s->s.commands_size)
				s->s.commands_size = 8;
			*what = "commands_size not a multiple of the command";
			return EINV;
		case 3:
			if (!s->nal)
				return submit_mutate(g, c, s, m, what, kind);
			s->s.engine = DRM_VSEG_ENGINE_RENDER;
			*what = "allocation list on the render engine";
			return EINV;
		case 4:
			for (i = 0; i < c->nbo && (c->bo[i].flags & AP); i++)
				;
			if (i == c->nbo || s->s.engine != DRM_VSEG_ENGINE_COPY)
				return submit_mutate(g, c, s, m, what, kind);
			s->al[s->nal].handle = c->bo[i].handle;
			s->al[s->nal].flags = 0;
			s->s.num_allocations = ++s->nal;
			*what = "buffer without AccessedPhysically";
			return EINV;
		case 5:
			if (!s->npt)
				return submit_mutate(g, c, s, m, what, kind);
			s->pt[below(g, s->npt)].allocation_index =
				s->nal + below(g, 2) * rnd32(g);
			*what = "allocation index out of range";
			return EINV;
		case 6:
			if (!s->npt)
				return submit_mutate(g, c, s, m, what, kind);
			i = below(g, s->npt);
			switch (below(g, 3)) {
			case 0:
				s->pt[i].patch_offset |= 4;
				break;
			case 1:
				s->pt[i].patch_offset = s->s.commands_size -
							4 * below(g, 2);
				break;
			default:
				s->pt[i].patch_offset = interesting(g) | 1ull << 32;
				break;
			}
			*what = "patch offset outside the commands";
			return EINV;
		case 7:
			if (!s->npt)
				return submit_mutate(g, c, s, m, what, kind);
			i = below(g, s->npt);
			s->pt[i].allocation_offset =
				s->al_size[s->pt[i].allocation_index] +
				(below(g, 2) ? 0 : interesting(g) >> 1);
			*what = "allocation offset past its buffer";
			return EINV;
		case 8:
			for (i = 0; i < c->nsync && c->fenced[i]; i++)
				;
			if (i == c->nsync)
				return submit_mutate(g, c, s, m, what, kind);
			s->in[0].handle = c->sync[i];
			if (!s->s.num_in_syncs)
				s->s.num_in_syncs = 1;
			*what = "input syncobj without a fence";
			return EINV;
		default:
			s->s.commands_size = sizeof(struct drm_vseg_cmd) *
					     (DRM_VSEG_MAX_CMD_BYTES /
					      sizeof(struct drm_vseg_cmd) + 1);
			*what = "commands_size above the limit";
			return EBIG;
		}
	case M_HANDLE:
		k = below(g, 3);
		if (k == 0 && s->s.engine == DRM_VSEG_ENGINE_COPY) {
			i = s->nal < 4 ? s->nal : 3;
			s->al[i].handle = bad_handle(g, c, kind);
			if (i == s->nal)
				s->s.num_allocations = ++s->nal;
			*what = "allocation";
			return ENOE;
		}
		if (k == 1) {
			s->in[0].handle = 0x10000000 + below(g, 0x60000000);
			if (!s->s.num_in_syncs)
				s->s.num_in_syncs = 1;
			*what = "in syncobj";
		} else {
			s->out[0].handle = 0x10000000 + below(g, 0x60000000);
			if (!s->s.num_out_syncs)
				s->s.num_out_syncs = 1;
			*what = "out syncobj";
		}
		return ENOE;
	case M_POINTER:
		k = below(g, 6);
		*what = "pointer";
		if (k == 0) {
			s->s.commands = bad_pointer(g, false, true, kind);
			*what = "commands";
		} else if (k == 1 && s->nal) {
			s->s.allocations = bad_pointer(g, false, true, kind);
			*what = "allocations";
		} else if (k == 2 && s->npt) {
			s->s.patches = bad_pointer(g, false, true, kind);
			*what = "patches";
		} else if (k == 3) {
			s->s.in_syncs = bad_pointer(g, false, true, kind);
			s->s.num_in_syncs = 1 + below(g, 3);
			*what = "in_syncs";
		} else if (k == 4) {
			s->s.out_syncs = bad_pointer(g, false, true, kind);
			s->s.num_out_syncs = 1 + below(g, 3);
			*what = "out_syncs";
		} else {
			return 0;	/* the argument pointer itself */
		}
		return EFLT;
	case M_HUGE:
		k = below(g, 5);
		*what = "count";
		if (k < ARRAY_SIZE(submit_huge))
			set_field(g, &s->s, &submit_huge[k]);
		else
			s->s.commands_size = 0xffffffff /
				sizeof(struct drm_vseg_cmd) *
				sizeof(struct drm_vseg_cmd);
		return EBIG;
	default:
		return OK | ESPC | EMEM;
	}
}

static void op_submit(struct fz *g)
{
	struct fclient *c = pick_client(g);
	enum mut m = pick_mut(g);
	const char *what = "", *kind = "";
	unsigned int allowed, i, j;
	struct sub s;
	void *arg = &s.s;
	int ret;

	submit_valid(g, c, &s);
	allowed = submit_mutate(g, c, &s, m, &what, &kind);
	/*
	 * Checked last, once the listed buffers are placed and the patches
	 * applied: only a submission valid otherwise gets that far.
	 */
	if (allowed == (OK | ESPC | EMEM) && s.outside) {
		what = "address outside the allocation list";
		allowed = EINV | ESPC | EMEM;
	}
	if (!allowed) {
		arg = bad_arg(g, false, &kind);
		what = "argument";
		allowed = EFLT;
	}
	note(g, "fd%d %s %s%s%s engine %u flags %#x cmds %u bytes @%#llx [op %u/%#x dst %#llx] allocs %u [%u/%#x] patches %u [%u +%#llx @%#llx pad %u] in %u [%u] out %u [%u] ext %#llx sync_size %u res %#llx",
	     c == &g->cl[1], mut_name(m), what, *kind ? " " : "", kind,
	     s.s.engine, s.s.flags, s.s.commands_size,
	     (unsigned long long)s.s.commands, s.cmd[0].opcode,
	     s.cmd[0].flags, (unsigned long long)s.cmd[0].dst,
	     s.s.num_allocations, s.al[0].handle, s.al[0].flags,
	     s.s.num_patches, s.pt[0].allocation_index,
	     (unsigned long long)s.pt[0].allocation_offset,
	     (unsigned long long)s.pt[0].patch_offset, s.pt[0].pad,
	     s.s.num_in_syncs, s.in[0].handle, s.s.num_out_syncs,
	     s.out[0].handle,
	     (unsigned long long)s.s.extensions, s.s.sync_size,
	     (unsigned long long)(s.s.reserved[0] | s.s.reserved[1]));
	ret = vioctl(c->fd, DRM_IOCTL_VSEG_SUBMIT, arg);
	if (ret == 0 && arg == &s.s)
		for (i = 0; i < s.s.num_out_syncs && i < 3; i++)
			for (j = 0; j < c->nsync; j++)
				if (c->sync[j] == s.out[i].handle)
					c->fenced[j] = true;
	expect(g, ret, allowed);
}

/* --- raw physical addresses and patch offsets --------------------------- */

/*
 * The copy engine touches memory only through its allocation list: every
 * byte range a FILL, COPY or WRITE reaches must lie inside one listed
 * allocation (its memory-segment range or its aperture range), and a
 * patch may only write the dst of FILL, COPY and WRITE or the src of COPY.
 * op_raw() first has a NOP job place the buffers it lists (so that the
 * submission it checks moves nothing), reads where they and every other
 * buffer are, then submits commands with hand-written GPU physical
 * addresses (anywhere, past every segment, random offsets in a segment,
 * the aperture, inside, straddling,
 * before and past buffers of this file, listed or not, of the other file
 * and of a victim client) and patches into every field of a command. The
 * outcome is computed with the kernel's rule: 0, and the job succeeds, or
 * -EINVAL and nothing is queued.
 */

#define CMD_BYTES	sizeof(struct drm_vseg_cmd)

/** struct prange - where a buffer is: GPU physical [start, end) in @seg */
struct prange {
	uint32_t seg;
	uint64_t start;
	uint64_t end;
};

/* Where buffer @h of @fd is physically now; false if nowhere. */
static bool phys_range(int fd, uint32_t h, struct prange *r)
{
	struct drm_vseg_gem_info in = { .handle = h };
	uint64_t a;

	if (vioctl(fd, DRM_IOCTL_VSEG_GEM_INFO, &in) ||
	    !vseg_phys_addr_of(&in, 0, &a))
		return false;
	r->seg = in.segment_id;
	r->start = a;
	r->end = a + in.size;
	return true;
}

/* Does [@addr, @addr + @len) lie inside one of the @n ranges? */
static bool span_listed(const struct prange *l, unsigned int n, uint64_t addr,
			uint64_t len)
{
	unsigned int i;

	for (i = 0; i < n; i++)
		if (l[i].start <= addr && addr < l[i].end &&
		    len <= l[i].end - addr)
			return true;
	return false;
}

/* The checks SUBMIT makes of each command before anything is patched. */
static bool cmd_valid(const struct drm_vseg_cmd *c)
{
	if (c->flags)
		return false;
	switch (c->opcode) {
	case DRM_VSEG_CMD_NOP:
		return !c->dst && !c->src && !c->size && !c->value;
	case DRM_VSEG_CMD_FILL:
		return !c->src && !(c->size & 3) && !(c->value >> 32) &&
		       !(c->dst & 3);
	case DRM_VSEG_CMD_COPY:
		return !c->value;
	case DRM_VSEG_CMD_WRITE:
		return !c->src && !c->size && !(c->dst & 7);
	default:
		return false;
	}
}

/* Is byte @off of the commands an address field a patch may write? */
static bool patch_field_ok(const struct sub *s, uint64_t off)
{
	const struct drm_vseg_cmd *c;

	if (off % 8 || off + 8 > s->ncmd * CMD_BYTES)
		return false;
	c = &s->cmd[off / CMD_BYTES];
	switch (off % CMD_BYTES) {
	case 8:
		return c->opcode != DRM_VSEG_CMD_NOP;
	case 16:
		return c->opcode == DRM_VSEG_CMD_COPY;
	default:
		return false;
	}
}

/* Bytes a command touches at dst (and src). */
static uint64_t cmd_len(const struct drm_vseg_cmd *c)
{
	return c->opcode == DRM_VSEG_CMD_WRITE ? 8 : c->size;
}

/*
 * The commands as the engine would run them (patches applied), or false
 * with @why set if SUBMIT refuses the submission.
 */
static bool raw_predict(const struct sub *s, const struct prange *l,
			struct drm_vseg_cmd *out, const char **why)
{
	unsigned int i;

	for (i = 0; i < s->ncmd; i++) {
		if (!cmd_valid(&s->cmd[i])) {
			*why = "an invalid command";
			return false;
		}
	}
	for (i = 0; i < s->npt; i++) {
		const struct drm_vseg_patch *p = &s->pt[i];

		if (p->allocation_index >= s->nal ||
		    !patch_field_ok(s, p->patch_offset)) {
			*why = "a patch into a field that is not an address";
			return false;
		}
		if (p->allocation_offset >= s->al_size[p->allocation_index]) {
			*why = "a patch past its allocation";
			return false;
		}
	}
	memcpy(out, s->cmd, s->ncmd * CMD_BYTES);
	for (i = 0; i < s->npt; i++) {
		const struct drm_vseg_patch *p = &s->pt[i];
		const struct prange *r = &l[p->allocation_index];
		uint64_t v = r->start + p->allocation_offset;

		memcpy((char *)out + p->patch_offset, &v, 8);
	}
	for (i = 0; i < s->ncmd; i++) {
		const struct drm_vseg_cmd *c = &out[i];

		if (c->opcode == DRM_VSEG_CMD_NOP)
			continue;
		if (!span_listed(l, s->nal, c->dst, cmd_len(c)) ||
		    (c->opcode == DRM_VSEG_CMD_COPY &&
		     !span_listed(l, s->nal, c->src, c->size))) {
			*why = "a range outside the listed allocations";
			return false;
		}
	}
	*why = "every range inside a listed allocation";
	return true;
}

/*
 * An allocation offset for @len bytes of a @size-byte buffer; @tame: one
 * that keeps them inside. A multiple of 8, so that a patched FILL or WRITE
 * dst is aligned: the kernel checks the alignment of hand-written
 * addresses only, not of patched ones (a driver problem reported apart,
 * not asserted here).
 */
static uint64_t raw_alloc_offset(struct fz *g, uint64_t size, uint64_t len,
				 bool tame)
{
	uint64_t room = size > GPU_OFF + len ? (size - GPU_OFF - len) / 8 : 0;

	switch (tame ? 12 : below(g, 12)) {
	case 0:
		return size;				/* past its end */
	case 1:
		return size - 8;			/* its last word */
	case 2:
		if (len <= size - GPU_OFF)
			return (size - len) & ~7ull;	/* its last bytes */
		/* fall through */
	default:
		return GPU_OFF + 8 * below(g, room > 0xffff ? 0xffff :
					       room + 1);
	}
}

/*
 * A hand-written physical address for @len bytes, near one of the @nt
 * buffers of @t or anywhere; @tame: inside one of the first @nl of them
 * (the listed ones), aligned.
 */
static uint64_t raw_address(struct fz *g, const struct prange *t,
			    unsigned int nt, unsigned int nl, uint64_t len,
			    unsigned int align, bool tame)
{
	const struct prange *r;
	uint64_t off, size;
	uint32_t seg;

	if (tame)
		nt = nl;
	switch (tame ? 10 : below(g, 10)) {
	case 0:		/* anywhere: in a segment, a gap or past them */
		off = interesting(g);
		break;
	case 1:		/* past every segment: not memory */
		off = past_segments() + below(g, 1u << 26);
		break;
	case 2:
		seg = 1 + below(g, T.nseg);
		off = gpu_addr(seg, rnd64(g) % T.size[seg]);
		break;
	case 3:
		seg = T.ap_id ? T.ap_id : 1;
		off = gpu_addr(seg, SZ_4K * below(g, T.size[seg] / SZ_4K));
		break;
	default:
		if (!nt) {
			off = gpu_addr(1 + below(g, T.nseg), 0);
			break;
		}
		r = &t[below(g, nt)];
		size = r->end - r->start;
		switch (tame ? 0 : below(g, 7)) {
		case 0:		/* inside */
			off = r->start + GPU_OFF +
			      below(g, size > GPU_OFF + len ?
				    size - GPU_OFF - len + 1 : 1);
			break;
		case 1:		/* straddling its end */
			off = r->end - 1 - below(g, len > 1 ? len - 1 : 1);
			break;
		case 2:		/* at or past its end */
			off = r->end + 4 * below(g, 16);
			break;
		case 3:		/* just before its start */
			off = r->start >= 64 ? r->start - 4 * (1 + below(g, 16)) :
			      r->end;
			break;
		case 4:		/* its first bytes */
			off = r->start;
			break;
		case 5:		/* its last bytes */
			off = len <= size ? r->end - len : r->start;
			break;
		default:
			off = r->start + below(g, size);
			break;
		}
	}
	if (tame || !chance(g, 10))
		off &= ~(uint64_t)(align - 1);
	return off;
}

/* A patch of field @field of command @cmd with byte @off of allocation @ai. */
static void raw_patch(struct sub *s, unsigned int cmd, unsigned int field,
		      unsigned int ai, uint64_t off)
{
	struct drm_vseg_patch *p = &s->pt[s->npt++];

	memset(p, 0, sizeof(*p));
	p->allocation_index = ai;
	p->allocation_offset = off;
	p->patch_offset = cmd * CMD_BYTES + field;
}

/*
 * Fill command @i of @s: hand-written or patched addresses near the @nt
 * buffers of @t, the first @s->nal of them the listed ones; @tame: meant
 * to stay inside those.
 */
static void raw_command(struct fz *g, struct sub *s, unsigned int i,
			const struct prange *t, unsigned int nt, bool tame)
{
	struct drm_vseg_cmd *c = &s->cmd[i];
	unsigned int k = below(g, 10), ai;
	uint64_t len;

	memset(c, 0, sizeof(*c));
	if (k == 0)
		return;				/* NOP */
	c->opcode = k < 4 ? DRM_VSEG_CMD_FILL : k < 7 ? DRM_VSEG_CMD_COPY :
		    DRM_VSEG_CMD_WRITE;
	if (c->opcode == DRM_VSEG_CMD_FILL) {
		len = 4 * (1 + below(g, 64));
		if (chance(g, 10))
			len = 4 * below(g, SZ_1M / 4);
		c->size = len;
		c->value = rnd32(g);
	} else if (c->opcode == DRM_VSEG_CMD_COPY) {
		len = chance(g, 10) ? below(g, SZ_1M) : 1 + below(g, 256);
		c->size = len;
	} else {
		len = 8;
		c->value = rnd64(g);
	}
	if (chance(g, 40)) {
		ai = below(g, s->nal);
		raw_patch(s, i, 8, ai,
			  raw_alloc_offset(g, s->al_size[ai], len, tame));
	} else {
		c->dst = raw_address(g, t, nt, s->nal, len,
				     c->opcode == DRM_VSEG_CMD_WRITE ? 8 :
				     c->opcode == DRM_VSEG_CMD_FILL ? 4 : 1,
				     tame);
	}
	if (c->opcode != DRM_VSEG_CMD_COPY)
		return;
	if (chance(g, 40)) {
		ai = below(g, s->nal);
		raw_patch(s, i, 16, ai,
			  raw_alloc_offset(g, s->al_size[ai], len, tame));
	} else {
		c->src = raw_address(g, t, nt, s->nal, len, 1, tame);
	}
}

/*
 * A legal command must not write the CPU's mark (the first GPU_OFF bytes
 * of this file's buffers): drop such commands, and the patches into them.
 */
static void raw_spare_marks(struct sub *s, const struct prange *l)
{
	unsigned int i, k, n;

	for (i = 0; i < s->ncmd; i++) {
		struct drm_vseg_cmd *c = &s->cmd[i];
		uint64_t off = c->dst, len = cmd_len(c);
		bool hit = false;

		if (c->opcode == DRM_VSEG_CMD_NOP || !c->dst)
			continue;
		for (k = 0; k < s->nal; k++)
			hit |= off < l[k].start + GPU_OFF &&
			       l[k].start < off + (len ? len : 1);
		if (!hit)
			continue;
		memset(c, 0, sizeof(*c));
		for (k = n = 0; k < s->npt; k++)
			if (s->pt[k].patch_offset / CMD_BYTES != i)
				s->pt[n++] = s->pt[k];
		s->npt = n;
	}
}

/* A new AccessedPhysically buffer of @c in a random physical segment. */
static void raw_new_buffer(struct fz *g, struct fclient *c)
{
	static const uint64_t sizes[] = { SZ_4K, SZ_64K, 4 * SZ_64K, SZ_1M };
	struct drm_vseg_gem_create a;
	uint32_t id = pick_seg(g, T.phys_mask);
	struct fbo *b;
	int ret;

	if (c->nbo == MAX_BOS)
		return;
	vseg_create_args(&a, sizes[below(g, ARRAY_SIZE(sizes))],
			 BIT(id) | (chance(g, 70) ? BIT(T.ap_id) : 0), AP);
	vseg_create_prefer(&a, id, chance(g, 30) ? DRM_VSEG_PREF_TOP_DOWN : 0);
	note(g, "fd0 AccessedPhysically buffer of %#llx in %#x",
	     (unsigned long long)a.size, a.supported_segments);
	ret = vioctl(c->fd, DRM_IOCTL_VSEG_GEM_CREATE, &a);
	if (!expect(g, ret, OK | ESPC | EMEM) || ret)
		return;
	b = &c->bo[c->nbo++];
	memset(b, 0, sizeof(*b));
	b->handle = a.handle;
	b->size = a.size;
	b->flags = a.flags;
	b->supported = sys_too(a.supported_segments);
	b->uid = ++g->next_uid;
}

/* The victim's buffers hold their patterns; then back where they were. */
static void victim_check(struct fz *g)
{
	struct drm_vseg_residency r = {};
	unsigned int i;

	if (g->victim_fd < 0 || g->failed)
		return;
	for (i = 0; i < g->nvictim && !g->failed; i++) {
		struct drm_vseg_gem_mmap_offset mo = { .handle = g->victim[i] };
		void *map;
		int64_t bad;

		if (vioctl(g->victim_fd, DRM_IOCTL_VSEG_GEM_MMAP_OFFSET, &mo)) {
			fail(g, "victim buffer %u: no mmap offset", i);
			return;
		}
		map = mmap(NULL, SZ_64K, PROT_READ, MAP_SHARED, g->victim_fd,
			   mo.offset);
		if (map == MAP_FAILED) {
			fail(g, "victim buffer %u: mmap: %s", i,
			     strerror(errno));
			return;
		}
		bad = vseg_pattern_check(map, SZ_64K, g->seed * 16 + i);
		munmap(map, SZ_64K);
		if (bad >= 0)
			fail(g, "another client's buffer %u changed at byte %#llx",
			     i, (unsigned long long)bad);
	}
	/* Reading may have moved them where the CPU sees them. */
	r.handles = ptr(g->victim);
	r.count = g->nvictim;
	vioctl(g->victim_fd, DRM_IOCTL_VSEG_MAKE_RESIDENT, &r);
}

/* A client of its own: one 64 KiB pattern per physical segment. */
static void victim_init(struct fz *g)
{
	uint32_t id;

	g->victim_fd = __drm_open_vseg_render();
	if (g->victim_fd < 0)
		g->victim_fd = __drm_open_vseg();
	igt_assert_lte(0, g->victim_fd);
	g->nvictim = 0;
	for (id = 1; id <= T.nseg; id++) {
		struct drm_vseg_gem_create a;
		void *map;

		if (!(T.phys_mask & BIT(id)))
			continue;
		vseg_create_args(&a, SZ_64K, BIT(id) | BIT(T.ap_id), AP);
		vseg_create_prefer(&a, id, 0);
		g->victim[g->nvictim] = vseg_gem_create(g->victim_fd, &a);
		map = vseg_gem_mmap(g->victim_fd, g->victim[g->nvictim],
				    SZ_64K, PROT_READ | PROT_WRITE);
		vseg_pattern_fill(map, SZ_64K, g->seed * 16 + g->nvictim);
		munmap(map, SZ_64K);
		g->nvictim++;
	}
	victim_check(g);
}

static void victim_fini(struct fz *g)
{
	if (g->victim_fd < 0)
		return;
	victim_check(g);
	close(g->victim_fd);
	g->victim_fd = -1;
}

static void op_raw(struct fz *g)
{
	struct fclient *c = &g->cl[0], *o = &g->cl[1];
	struct prange l[4], t[2 * MAX_BOS + DRM_VSEG_MAX_SEGMENTS + 4];
	struct drm_vseg_cmd run[MAX_CMDS];
	unsigned int nap = 0, ap[MAX_BOS], nt = 0, i, k;
	const char *why = "";
	struct drm_vseg_sync raw_out = {};
	struct sub s;
	bool legal, tame;
	int ret, status;

	if (!g->raw_sync && drmSyncobjCreate(c->fd, 0, &g->raw_sync)) {
		fail(g, "cannot create a syncobj");
		return;
	}
	for (i = 0; i < c->nbo; i++)
		if (c->bo[i].flags & AP)
			ap[nap++] = i;
	if (!nap || chance(g, 8)) {
		raw_new_buffer(g, c);
		return;
	}

	/* Place the buffers to list with a job of NOPs. */
	memset(&s, 0, sizeof(s));
	s.nal = 1 + below(g, 3);
	for (i = 0; i < s.nal; i++) {
		const struct fbo *b = &c->bo[ap[below(g, nap)]];

		s.al[i].handle = b->handle;
		s.al[i].flags = DRM_VSEG_ALLOCATION_WRITE;
		s.al_size[i] = b->size;
	}
	s.s.engine = DRM_VSEG_ENGINE_COPY;
	s.s.commands = ptr(s.cmd);
	s.s.commands_size = CMD_BYTES;
	s.s.allocations = ptr(s.al);
	s.s.num_allocations = s.nal;
	note(g, "fd0 place %u listed buffers [%u %u %u] with a NOP job", s.nal,
	     s.al[0].handle, s.al[1].handle, s.al[2].handle);
	ret = vioctl(c->fd, DRM_IOCTL_VSEG_SUBMIT, &s.s);
	if (!expect(g, ret, OK | ESPC | EMEM) || ret)
		return;
	g->raw_placed++;

	/* Where the listed buffers are, and everything else. */
	for (i = 0; i < s.nal; i++) {
		if (!phys_range(c->fd, s.al[i].handle, &l[i])) {
			fail(g, "listed buffer %u is not reachable right after its job",
			     s.al[i].handle);
			return;
		}
		t[nt++] = l[i];
	}
	for (i = 0; i < c->nbo; i++)
		nt += phys_range(c->fd, c->bo[i].handle, &t[nt]);
	for (i = 0; i < o->nbo && o->fd != c->fd; i++)
		nt += phys_range(o->fd, o->bo[i].handle, &t[nt]);
	for (i = 0; g->victim_fd >= 0 && i < g->nvictim; i++)
		nt += phys_range(g->victim_fd, g->victim[i], &t[nt]);

	/*
	 * Commands with hand-written and patched addresses; tame ones meant
	 * to stay inside the listed buffers (most do: a long FILL or COPY
	 * may still run out of one).
	 */
	tame = chance(g, 40);
	s.ncmd = 1 + below(g, MAX_CMDS);
	for (i = 0; i < s.ncmd; i++)
		raw_command(g, &s, i, t, nt, tame);
	/* A patch into any field of any command, or past the commands. */
	if (s.npt && !tame && chance(g, 35)) {
		static const unsigned int fields[] = { 0, 8, 16, 24, 32 };

		k = below(g, s.npt);
		i = below(g, s.ncmd + 1);
		s.pt[k].patch_offset = i * CMD_BYTES +
				       (chance(g, 20) ? 1 + below(g, 39) :
					fields[below(g, ARRAY_SIZE(fields))]);
	}
	raw_spare_marks(&s, l);
	s.s.commands_size = s.ncmd * CMD_BYTES;
	s.s.patches = ptr(s.pt);
	s.s.num_patches = s.npt;
	raw_out.handle = g->raw_sync;
	s.s.out_syncs = ptr(&raw_out);
	s.s.num_out_syncs = 1;
	s.s.sync_size = sizeof(raw_out);
	legal = raw_predict(&s, l, run, &why);

	note(g, "fd0%s %u commands, %u listed, %u patches: %s [op %u dst %#llx src %#llx size %#llx] [op %u dst %#llx src %#llx size %#llx] patch [%u +%#llx @%#llx]",
	     tame ? " tame" : "", s.ncmd, s.nal, s.npt, why,
	     legal ? run[0].opcode : s.cmd[0].opcode,
	     (unsigned long long)(legal ? run[0].dst : s.cmd[0].dst),
	     (unsigned long long)(legal ? run[0].src : s.cmd[0].src),
	     (unsigned long long)s.cmd[0].size, s.cmd[s.ncmd - 1].opcode,
	     (unsigned long long)s.cmd[s.ncmd - 1].dst,
	     (unsigned long long)s.cmd[s.ncmd - 1].src,
	     (unsigned long long)s.cmd[s.ncmd - 1].size, s.pt[0].allocation_index,
	     (unsigned long long)s.pt[0].allocation_offset,
	     (unsigned long long)s.pt[0].patch_offset);
	if (g->verbose) {
		for (i = 0; i < s.nal; i++)
			igt_info("    listed %u: segment %u [%#llx, %#llx)\n",
				 s.al[i].handle, l[i].seg,
				 (unsigned long long)l[i].start,
				 (unsigned long long)l[i].end);
		for (i = 0; i < s.ncmd; i++)
			igt_info("    cmd %u: op %u dst %#llx src %#llx size %#llx\n",
				 i, s.cmd[i].opcode,
				 (unsigned long long)s.cmd[i].dst,
				 (unsigned long long)s.cmd[i].src,
				 (unsigned long long)s.cmd[i].size);
		for (i = 0; i < s.npt; i++)
			igt_info("    patch %u: allocation %u +%#llx at %#llx\n",
				 i, s.pt[i].allocation_index,
				 (unsigned long long)s.pt[i].allocation_offset,
				 (unsigned long long)s.pt[i].patch_offset);
	}
	ret = vioctl(c->fd, DRM_IOCTL_VSEG_SUBMIT, &s.s);
	if (!expect(g, ret, legal ? OK : EINV))
		return;
	if (ret) {
		g->raw_refused++;
	} else {
		g->raw_ok++;
		if (sync_wait(c->fd, g->raw_sync)) {
			fail(g, "the job did not finish within 20 s");
			return;
		}
		if (__vseg_syncobj_status(c->fd, g->raw_sync, &status) ||
		    status != 1)
			fail(g, "SUBMIT accepted the job, but it failed: %d",
			     status);
	}
	if ((g->raw_ok + g->raw_refused) % 8 == 0)
		victim_check(g);
}

/* --- The display: KMS, and the removed ioctl 0x09 ------------------------ */

/* The scanout ioctl's number, removed in 0.11: an empty table slot. */
#define VSEG_REMOVED_NR	0x09

static void op_scanout(struct fz *g)
{
	struct fclient *c = pick_client(g);
	unsigned int allowed = OK, i, np = 0, prim[MAX_BOS];
	uint32_t head, handle = 0;
	struct fbo *b = NULL;
	int ret;

	if (chance(g, 40)) {
		unsigned long nr = DRM_COMMAND_BASE + VSEG_REMOVED_NR;
		uint64_t buf[8];

		for (i = 0; i < ARRAY_SIZE(buf); i++)
			buf[i] = chance(g, 50) ? 0 : rnd32(g);
		note(g, "fd%d removed ioctl %#lx", c == &g->cl[1], nr);
		ret = vioctl(c->fd, DRM_IOWR(nr, uint64_t[4]), buf);
		expect(g, ret, EINV);
		return;
	}
	/* The heads are other generators': only a head out of range. */
	if (!g->heads) {
		head = NUM_HEADS + below(g, 2) * rnd32(g);
		note(g, "fd%d show on head %u, out of range", c == &g->cl[1],
		     head);
		ret = __vseg_display_show(c->fd, head, 0);
		expect(g, ret, EINV);
		return;
	}
	for (i = 0; i < c->nbo; i++)
		if (c->bo[i].flags & PRIMARY)
			prim[np++] = i;
	head = g->heads == 3 ? below(g, 2) : g->heads == 2;
	if (np && chance(g, 75)) {
		b = &c->bo[prim[below(g, np)]];
		handle = b->handle;
		allowed = b->supported & T.phys_mask ? OK | ESPC | EMEM | EINV :
			  EINV;
	}
	/* The display is the DRM master's (KMS): anyone else is refused. */
	if (!c->master)
		allowed = EACC;
	note(g, "fd%d show handle %u on head %u through KMS", c == &g->cl[1],
	     handle, head);
	ret = __vseg_display_show(c->fd, head, handle);
	if (!expect(g, ret, allowed) || ret)
		return;
	g->head_uid[head] = b ? b->uid : 0;
}

/* --- GEM_CLOSE and syncobjs --------------------------------------------- */

static void op_close(struct fz *g)
{
	struct fclient *c = pick_client(g);
	enum mut m = pick_mut(g);
	const char *what = "";
	unsigned int i = 0;
	uint32_t h;
	int ret;

	if (c->nbo && (m == M_NONE || m == M_RESERVED || m == M_BOUNDARY)) {
		i = below(g, c->nbo);
		h = c->bo[i].handle;
		note(g, "fd%d handle %u", c == &g->cl[1], h);
		ret = vioctl(c->fd, DRM_IOCTL_GEM_CLOSE,
			     &(struct drm_gem_close){ .handle = h });
		if (expect(g, ret, OK))
			remove_bo(c, i);
		return;
	}
	h = bad_handle(g, c, &what);
	note(g, "fd%d %s handle %u", c == &g->cl[1], what, h);
	ret = vioctl(c->fd, DRM_IOCTL_GEM_CLOSE,
		     &(struct drm_gem_close){ .handle = h });
	expect(g, ret, EINV);
}

static void op_sync(struct fz *g)
{
	struct fclient *c = pick_client(g);
	unsigned int i, k = below(g, 4);
	uint32_t h;
	int ret;

	if (k == 0 && c->nsync < MAX_SYNCS) {
		bool sig = below(g, 2);

		note(g, "fd%d create syncobj%s", c == &g->cl[1],
		     sig ? " signaled" : "");
		ret = drmSyncobjCreate(c->fd, sig ? DRM_SYNCOBJ_CREATE_SIGNALED :
					       0, &h);
		if (expect(g, ret ? -errno : 0, OK)) {
			c->sync[c->nsync] = h;
			c->fenced[c->nsync++] = sig;
		}
		return;
	}
	if (!c->nsync)
		return;
	i = below(g, c->nsync);
	if (k == 1) {
		note(g, "fd%d destroy syncobj %u", c == &g->cl[1], c->sync[i]);
		ret = drmSyncobjDestroy(c->fd, c->sync[i]);
		if (expect(g, ret ? -errno : 0, OK)) {
			c->sync[i] = c->sync[--c->nsync];
			c->fenced[i] = c->fenced[c->nsync];
		}
		return;
	}
	if (!c->fenced[i])
		return;
	note(g, "fd%d wait syncobj %u", c == &g->cl[1], c->sync[i]);
	ret = sync_wait(c->fd, c->sync[i]);
	if (ret)
		fail(g, "a job did not finish within 20 s: %s",
		     strerror(-ret));
}

/* --- argument pointers and sparse structures ---------------------------- */

static const struct {
	unsigned long ioc;
	unsigned int doc;
	bool sparse;	/* may get a sparse random structure */
} ioctls[] = {
	{ DRM_IOCTL_VSEG_QUERY_SEGMENTS, DOC_QUERY, true },
	{ DRM_IOCTL_VSEG_GEM_CREATE, DOC_CREATE, true },
	{ DRM_IOCTL_VSEG_GEM_INFO, DOC_INFO, true },
	{ DRM_IOCTL_VSEG_GEM_MMAP_OFFSET, DOC_MMAP, true },
	{ DRM_IOCTL_VSEG_MAKE_RESIDENT, DOC_RESIDENT, true },
	{ DRM_IOCTL_VSEG_EVICT, DOC_EVICT, true },
	{ DRM_IOCTL_VSEG_VM_BIND, DOC_VM, false },
	{ DRM_IOCTL_VSEG_VM_UNBIND, DOC_VM, false },
	{ DRM_IOCTL_VSEG_SUBMIT, DOC_SUBMIT, true },
};

static void op_badarg(struct fz *g)
{
	struct fclient *c = pick_client(g);
	unsigned int i = below(g, ARRAY_SIZE(ioctls) + 1);
	const char *kind = "";
	uint64_t p;
	int ret;

	if (i == ARRAY_SIZE(ioctls)) {
		/* A driver ioctl number past the table (RECLAIM is last). */
		unsigned long nr = DRM_COMMAND_BASE +
				   DRM_VSEG_RECLAIM + 1 +
				   below(g, 0x50);
		uint64_t buf[8] = {};

		note(g, "unknown driver ioctl %#lx", nr);
		ret = vioctl(c->fd, DRM_IOWR(nr, uint64_t[8]), buf);
		expect(g, ret, EINV | BIT(RES_ENOTTY));
		return;
	}
	p = bad_pointer(g, false, true, &kind);
	note(g, "ioctl %#lx with a %s argument pointer", ioctls[i].ioc, kind);
	ret = vioctl(c->fd, ioctls[i].ioc, (void *)(uintptr_t)p);
	expect(g, ret, EFLT);
}

static void op_sparse(struct fz *g)
{
	struct fclient *c = pick_client(g);
	uint64_t buf[32];
	unsigned int i, n, k, w;
	int ret;

	do {
		i = below(g, ARRAY_SIZE(ioctls));
	} while (!ioctls[i].sparse);
	memset(buf, 0, sizeof(buf));
	n = 1 + below(g, 3);
	for (k = 0; k < n; k++) {
		uint64_t v = interesting(g);
		uint32_t v32 = v;

		w = below(g, _IOC_SIZE(ioctls[i].ioc) / 4);
		if (below(g, 2) && !(w & 1))
			memcpy((char *)buf + 4 * w, &v, 8);
		else
			memcpy((char *)buf + 4 * w, &v32, 4);
	}
	note(g, "ioctl %#lx sparse %016llx %016llx %016llx %016llx %016llx %016llx",
	     ioctls[i].ioc, (unsigned long long)buf[0],
	     (unsigned long long)buf[1], (unsigned long long)buf[2],
	     (unsigned long long)buf[3], (unsigned long long)buf[4],
	     (unsigned long long)buf[5]);
	ret = vioctl(c->fd, ioctls[i].ioc, buf);
	if (!ret && ioctls[i].ioc == DRM_IOCTL_VSEG_GEM_CREATE) {
		uint32_t h;

		memcpy(&h, (char *)buf +
		       offsetof(struct drm_vseg_gem_create, handle), 4);
		close_handle(c->fd, h);
	}
	expect(g, ret, ioctls[i].doc | OK);
}

/* --- a run -------------------------------------------------------------- */

static int open_vseg(bool render)
{
	int fd = render ? __drm_open_vseg_render() : __drm_open_vseg();

	if (fd < 0 && render)
		fd = __drm_open_vseg();
	return fd;
}

static void fz_init(struct fz *g, uint32_t seed, int thread,
		    unsigned int steps, int shared_fd)
{
	unsigned int i;

	memset(g, 0, sizeof(*g));
	g->seed = seed;
	g->thread = thread;
	g->rng = (uint64_t)seed * 0x9e3779b97f4a7c15ull +
		 (uint64_t)(thread + 1) * 0xbf58476d1ce4e5b9ull;
	for (i = 0; i < 4; i++)
		rnd64(g);
	g->steps = steps;
	g->victim_fd = -1;
	g->va_base = (1ull << 40) + (uint64_t)thread * VA_WINDOW;
	g->big_list = calloc(DRM_VSEG_MAX_RESIDENCY_HANDLES, sizeof(uint32_t));
	if (shared_fd >= 0) {
		g->cl[0].fd = shared_fd;
		g->cl[0].shared = true;
	} else {
		g->cl[0].fd = open_vseg(false);
	}
	g->cl[1].fd = open_vseg(chance(g, 50));
	if (g->cl[0].fd < 0 || g->cl[1].fd < 0 || !g->big_list) {
		snprintf(g->msg, sizeof(g->msg), "cannot open the device");
		g->failed = true;
		return;
	}
	/* The first card file opened when there is no master becomes it. */
	for (i = 0; i < 2; i++)
		g->cl[i].master = drmIsMaster(g->cl[i].fd);
}

static void fz_step(struct fz *g)
{
	static const unsigned char weight[NUM_OPS] = {
		[OP_QUERY] = 4, [OP_CREATE] = 14, [OP_INFO] = 8,
		[OP_MMAP] = 8, [OP_RESIDENT] = 9, [OP_EVICT] = 9,
		[OP_BIND] = 6, [OP_UNBIND] = 5, [OP_SUBMIT] = 10,
		[OP_SCANOUT] = 5, [OP_CLOSE] = 8, [OP_SYNC] = 6,
		[OP_BADARG] = 3, [OP_SPARSE] = 5,
	};
	/* F_RAW: mostly raw addresses, the rest to move buffers around. */
	static const unsigned char raw_weight[NUM_OPS] = {
		[OP_RAW] = 50, [OP_CREATE] = 10, [OP_CLOSE] = 5,
		[OP_RESIDENT] = 8, [OP_EVICT] = 8, [OP_MMAP] = 6,
		[OP_SUBMIT] = 6, [OP_INFO] = 2, [OP_SYNC] = 3,
		[OP_BIND] = 2,
	};
	const unsigned char *w = g->focus == F_RAW ? raw_weight : weight;
	unsigned int total = 0, r, i;

	for (i = 0; i < NUM_OPS; i++)
		total += w[i];
	r = below(g, total);
	for (i = 0; r >= w[i]; i++)
		r -= w[i];
	g->op = i;
	g->ops[i]++;
	switch (g->op) {
	case OP_QUERY: op_query(g); break;
	case OP_CREATE: op_create(g); break;
	case OP_INFO: op_info(g); break;
	case OP_MMAP: op_mmap(g); break;
	case OP_RESIDENT: op_residency(g, true); break;
	case OP_EVICT: op_residency(g, false); break;
	case OP_BIND: op_bind(g); break;
	case OP_UNBIND: op_unbind(g); break;
	case OP_SUBMIT: op_submit(g); break;
	case OP_SCANOUT: op_scanout(g); break;
	case OP_CLOSE: op_close(g); break;
	case OP_SYNC: op_sync(g); break;
	case OP_BADARG: op_badarg(g); break;
	case OP_RAW: op_raw(g); break;
	default: op_sparse(g); break;
	}
}

/* Close everything the generator made; the files too unless shared. */
static void fz_cleanup(struct fz *g)
{
	unsigned int i, k;
	int ret;

	g->op = OP_CLOSE;
	g->step = g->steps;
	victim_fini(g);
	for (i = 0; i < NUM_HEADS; i++) {
		if (!(g->heads & BIT(i)))
			continue;
		note(g, "cleanup: head %u off", i);
		ret = __vseg_display_show(g->cl[0].fd, i, 0);
		if (expect(g, ret, g->cl[0].master ? OK : EACC) && !ret)
			g->head_uid[i] = 0;
	}
	for (k = 0; k < 2; k++) {
		struct fclient *c = &g->cl[k];

		if (c->fd < 0)
			continue;
		for (i = 0; i < c->nsync; i++) {
			if (!c->fenced[i])
				continue;
			if (sync_wait(c->fd, c->sync[i]))
				fail(g, "cleanup: a job did not finish within 20 s");
		}
		for (i = 0; i < c->nsync; i++)
			drmSyncobjDestroy(c->fd, c->sync[i]);
		/* Half the mappings by VM_UNBIND, the rest with the file. */
		for (i = 0; i < c->nmap; i += c->shared ? 1 : 2) {
			struct drm_vseg_vm_bind vb = { .gpu_va = c->map_va[i] };

			note(g, "cleanup: fd%u unbind %#llx", k,
			     (unsigned long long)vb.gpu_va);
			expect(g, vioctl(c->fd, DRM_IOCTL_VSEG_VM_UNBIND, &vb),
			       OK);
		}
		while (c->nbo) {
			note(g, "cleanup: fd%u close %u", k, c->bo[0].handle);
			expect(g, close_handle(c->fd, c->bo[0].handle), OK);
			remove_bo(c, 0);
		}
		if (!c->shared)
			close(c->fd);
		c->fd = -1;
	}
	free(g->big_list);
	g->big_list = NULL;
}

static void fz_run(struct fz *g)
{
	for (g->step = 0; g->step < g->steps && !g->failed && !stop_all;
	     g->step++)
		fz_step(g);
	fz_cleanup(g);
}

static void *fz_thread(void *arg)
{
	fz_run(arg);
	return NULL;
}

static void fz_report(const struct fz *g, unsigned int n)
{
	unsigned long ops[NUM_OPS] = {}, res[RES_NUM] = {}, touches = 0, bus = 0;
	char line[512];
	unsigned int i, k;
	size_t len = 0;

	for (k = 0; k < n; k++) {
		for (i = 0; i < NUM_OPS; i++)
			ops[i] += g[k].ops[i];
		for (i = 0; i < RES_NUM; i++)
			res[i] += g[k].results[i];
		touches += g[k].touches;
		bus += g[k].sigbus;
	}
	for (i = 0; i < NUM_OPS; i++)
		len += snprintf(line + len, sizeof(line) - len, " %s %lu",
				op_names[i], ops[i]);
	igt_info("seed %u ops:%s\n", g->seed, line);
	len = 0;
	for (i = 0; i < RES_NUM; i++)
		if (res[i])
			len += snprintf(line + len, sizeof(line) - len,
					" %s %lu", r_names[i], res[i]);
	igt_info("seed %u results:%s; %lu touches, %lu SIGBUS\n", g->seed,
		 line, touches, bus);
	if (g->focus == F_RAW)
		igt_info("seed %u raw: %lu placed, %lu jobs run, %lu refused\n",
			 g->seed, g->raw_placed, g->raw_ok, g->raw_refused);
}

/* --- the device --------------------------------------------------------- */

static struct vseg_ctx ctx = VSEG_CTX_INIT(VSEG_LEFTOVERS_NONE);
static const char *loaded_profile;

static void read_table(void)
{
	uint32_t id;

	memset(&T, 0, sizeof(T));
	T.nseg = ctx.q.num_segments;
	T.ap_id = ctx.ap_id;
	/* A client's set: segment 0 is named by the aperture's id. */
	T.all = (uint32_t)((2ull << T.nseg) - 1) & ~1u;
	T.cpu_mask = 1;
	for (id = 1; id <= T.nseg; id++) {
		const struct drm_vseg_segment_info *s = &ctx.segs[id - 1];

		T.seg[id - 1] = *s;
		memset(&T.seg[id - 1].usage, 0, sizeof(s->usage));
		T.page[id] = s->page_size;
		T.size[id] = s->size;
		T.commit[id] = s->commit_limit;
		if (s->kind == DRM_VSEG_SEGMENT_KIND_MEMORY) {
			T.mem_mask |= BIT(id);
			T.phys_mask |= BIT(id);
			if (s->cpu_visible_size)
				T.cpu_mask |= BIT(id);
			if (s->flags & DRM_VSEG_SEGMENT_USE_BANKING)
				T.nbanks[id] = s->num_banks;
		} else {
			T.cpu_mask |= BIT(id);
			T.phys_mask |= BIT(id);
		}
	}
}

static void load_profile(const char *profile)
{
	if (loaded_profile && !strcmp(loaded_profile, profile))
		return;
	loaded_profile = NULL;
	vseg_ctx_load(&ctx, profile);
	vseg_check_usage_zero(&ctx.q, ctx.segs);
	read_table();
	loaded_profile = profile;
}

static void setup_pages(void)
{
	char *two;

	page_size = sysconf(_SC_PAGESIZE);
	none_page = mmap(NULL, page_size, PROT_NONE,
			 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	ro_page = mmap(NULL, page_size, PROT_READ,
		       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	two = mmap(NULL, 2 * page_size, PROT_READ | PROT_WRITE,
		   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	igt_assert(none_page != MAP_FAILED && ro_page != MAP_FAILED &&
		   two != MAP_FAILED);
	igt_assert_eq(mprotect(two + page_size, page_size, PROT_NONE), 0);
	/* Two readable bytes: no array element fits before the hole. */
	straddle = two + page_size - 2;
}

/* Run a seed: @threads generators (0: one, in this thread). */
static void run_seed(uint32_t seed, unsigned int steps, unsigned int threads,
		     bool same_fd, enum focus focus, bool verbose)
{
	struct fz g[MAX_THREADS];
	pthread_t tid[MAX_THREADS];
	unsigned int n = threads ? threads : 1, i;
	int shared = -1;

	stop_all = false;
	vseg_ctx_start(&ctx);
	if (threads && same_fd) {
		shared = ctx.fd;
	} else if (drmIsMaster(ctx.fd)) {
		/* The first generator's own file becomes the master. */
		igt_assert_eq(drmDropMaster(ctx.fd), 0);
	}
	for (i = 0; i < n; i++) {
		fz_init(&g[i], seed, threads ? (int)i : 0, steps, shared);
		g[i].focus = focus;
		g[i].verbose = verbose;
		/* Heads are device-wide: each belongs to one generator. */
		g[i].heads = n == 1 ? 3 : i < NUM_HEADS ? BIT(i) : 0;
	}
	/* Raw addresses need a stable picture: one generator, a victim. */
	if (focus == F_RAW) {
		igt_assert(!threads);
		victim_init(&g[0]);
	}
	igt_info("seed %u: %s, %u steps%s%s\n", seed, loaded_profile, steps,
		 threads ? ", threads" : "",
		 threads ? (same_fd ? " on one file" : " on their own files") :
		 "");
	if (threads) {
		for (i = 0; i < n; i++)
			igt_assert_eq(pthread_create(&tid[i], NULL, fz_thread,
						     &g[i]), 0);
		for (i = 0; i < n; i++)
			pthread_join(tid[i], NULL);
	} else {
		fz_run(&g[0]);
	}
	fz_report(g, n);
	for (i = 0; i < n; i++)
		igt_assert_f(!g[i].failed, "%s\nreplay: vseg_fuzz --replay %u\n",
			     g[i].msg, seed);
	vseg_ctx_finish(&ctx, "after the seed closed everything");
}

/* --- regressions ------------------------------------------------------- */

/*
 * EVICT(UNPIN) of a buffer listed more times than it is pinned: the list
 * check let every entry through, the first entry unpinned and evicted the
 * buffer, the second failed with -EINVAL: "nothing moves" was broken.
 * Each entry drops one of the file's pins and the buffer is evicted at its
 * last entry: as many entries as pins unpin and evict it in one call.
 */
static void evict_unpin_listed_twice(void)
{
	struct drm_vseg_gem_info before, after;
	uint32_t list[3], processed = 0xffffffff, h;
	uint32_t vram = vseg_segment_by_name(&ctx.q, ctx.segs, "vram");
	int ret;

	vseg_ctx_start(&ctx);
	h = vseg_gem_create_simple(ctx.fd, SZ_64K, BIT(ctx.ap_id) | BIT(vram), 0);
	igt_assert_eq(__vseg_make_resident_flags(ctx.fd, &h, 1,
						 DRM_VSEG_RESIDENCY_PIN,
						 NULL), 0);
	vseg_gem_info(ctx.fd, h, &before);
	igt_assert(before.placement_flags & DRM_VSEG_INFO_PINNED);
	igt_assert_eq_u32(before.segment_id, vram);

	list[0] = h;
	list[1] = h;
	list[2] = h;
	ret = __vseg_evict_flags(ctx.fd, list, 2, DRM_VSEG_RESIDENCY_UNPIN,
				 &processed);
	igt_assert_f(ret == -EINVAL,
		     "EVICT(UNPIN) of a once-pinned buffer listed twice: %d\n",
		     ret);
	igt_assert_eq_u32(processed, 0);
	vseg_gem_info(ctx.fd, h, &after);
	igt_assert_f(after.placement_flags & DRM_VSEG_INFO_PINNED,
		     "the failed EVICT(UNPIN) dropped the pin\n");
	igt_assert_eq_u32(after.segment_id, vram);
	igt_assert_eq_u64(after.moves, before.moves);

	/*
	 * Pinned twice: listed three times is an UNPIN too many (-EINVAL),
	 * once leaves a pin (-EBUSY); neither changes anything.
	 */
	igt_assert_eq(__vseg_make_resident_flags(ctx.fd, &h, 1,
						 DRM_VSEG_RESIDENCY_PIN,
						 NULL), 0);
	ret = __vseg_evict_flags(ctx.fd, list, 3, DRM_VSEG_RESIDENCY_UNPIN,
				 NULL);
	igt_assert_f(ret == -EINVAL,
		     "EVICT(UNPIN) of a twice-pinned buffer listed three times: %d\n",
		     ret);
	igt_assert_eq(__vseg_evict_flags(ctx.fd, &h, 1,
					 DRM_VSEG_RESIDENCY_UNPIN, NULL),
		      -EBUSY);
	vseg_gem_info(ctx.fd, h, &after);
	igt_assert(after.placement_flags & DRM_VSEG_INFO_PINNED);
	igt_assert_eq_u32(after.segment_id, vram);
	igt_assert_eq_u64(after.moves, before.moves);

	/* Listed twice: both pins go and it is evicted. */
	processed = 0xffffffff;
	ret = __vseg_evict_flags(ctx.fd, list, 2, DRM_VSEG_RESIDENCY_UNPIN,
				 &processed);
	igt_assert_f(ret == 0,
		     "EVICT(UNPIN) of a twice-pinned buffer listed twice: %d\n",
		     ret);
	igt_assert_eq_u32(processed, 2);
	vseg_gem_info(ctx.fd, h, &after);
	igt_assert(!(after.placement_flags & DRM_VSEG_INFO_PINNED));
	igt_assert_eq_u32(after.segment_id, 0);
	igt_assert_eq_u64(after.moves, before.moves + 1);
	/* No pin left: one more UNPIN is refused. */
	igt_assert_eq(__vseg_evict_flags(ctx.fd, &h, 1,
					 DRM_VSEG_RESIDENCY_UNPIN, NULL),
		      -EINVAL);
	vseg_gem_close(ctx.fd, h);
	vseg_ctx_finish(&ctx, "after closing the buffer");
}

/* @h is pinned, and where @was says it was, not moved since. */
static void assert_pinned_at(uint32_t h, const struct drm_vseg_gem_info *was,
			     const char *what)
{
	struct drm_vseg_gem_info now;

	vseg_gem_info(ctx.fd, h, &now);
	igt_assert_f(now.placement_flags & DRM_VSEG_INFO_PINNED,
		     "%s: the buffer is not pinned\n", what);
	igt_assert_f(now.segment_id == was->segment_id &&
		     now.offset == was->offset && now.moves == was->moves,
		     "%s: the pinned buffer moved from %s+%#llx to %s+%#llx\n",
		     what, vseg_ctx_seg_name(&ctx, was->segment_id),
		     (unsigned long long)was->offset,
		     vseg_ctx_seg_name(&ctx, now.segment_id),
		     (unsigned long long)now.offset);
}

/*
 * PIN of a buffer pinned already (here: listed twice) when the file's
 * share of the segment it is pinned in has no room for one more pin: the
 * pin was tried in the buffer's other segments, which meant moving a
 * pinned buffer: TTM refused with -EINVAL on 6.12, and 6.1 moved it,
 * charging the pin to the full segment. A pinned buffer stays where it
 * is: no room for the pin there is -ENOSPC, and nothing changes.
 */
static void pin_again_past_share(void)
{
	uint32_t vram = vseg_segment_by_name(&ctx.q, ctx.segs, "vram");
	uint32_t local = vseg_segment_by_name(&ctx.q, ctx.segs, "local");
	uint64_t share = vseg_ctx_seg(&ctx, local)->size / 2;
	struct drm_vseg_gem_create c;
	struct drm_vseg_gem_info was, now;
	uint32_t list[2], processed, h;
	int ret;

	vseg_ctx_start(&ctx);
	/* Pinned once it fits the file's share of local, twice it does not. */
	vseg_create_args(&c, share / 2 + SZ_1M, BIT(vram) | BIT(local), 0);
	vseg_create_prefer(&c, local, 0);
	h = vseg_gem_create(ctx.fd, &c);
	list[0] = h;
	list[1] = h;
	processed = 0xffffffff;
	ret = __vseg_make_resident_flags(ctx.fd, list, 2,
					 DRM_VSEG_RESIDENCY_PIN, &processed);
	igt_assert_f(ret == -ENOSPC,
		     "PIN of a buffer listed twice, past the file's share: %d (%s)\n",
		     ret, vseg_errname(ret));
	igt_assert_eq_u32(processed, 1);
	vseg_gem_info(ctx.fd, h, &was);
	igt_assert_eq_u32(was.segment_id, local);
	assert_pinned_at(h, &was, "after PIN [h h]");

	/* Alone, the same. */
	processed = 0xffffffff;
	ret = __vseg_make_resident_flags(ctx.fd, &h, 1, DRM_VSEG_RESIDENCY_PIN,
					 &processed);
	igt_assert_f(ret == -ENOSPC,
		     "PIN of a pinned buffer past the file's share: %d (%s)\n",
		     ret, vseg_errname(ret));
	igt_assert_eq_u32(processed, 0);
	assert_pinned_at(h, &was, "after PIN [h]");

	/* One pin, so one UNPIN evicts it, and a second one is refused. */
	igt_assert_eq(__vseg_evict_flags(ctx.fd, &h, 1,
					 DRM_VSEG_RESIDENCY_UNPIN, NULL), 0);
	vseg_gem_info(ctx.fd, h, &now);
	igt_assert(!(now.placement_flags & DRM_VSEG_INFO_PINNED));
	igt_assert_eq_u32(now.segment_id, 0);
	igt_assert_eq(__vseg_evict_flags(ctx.fd, &h, 1,
					 DRM_VSEG_RESIDENCY_UNPIN, NULL),
		      -EINVAL);
	vseg_gem_close(ctx.fd, h);

	/* Within the share, a buffer listed twice is pinned twice in place. */
	vseg_create_args(&c, share / 4, BIT(vram) | BIT(local), 0);
	vseg_create_prefer(&c, local, 0);
	h = vseg_gem_create(ctx.fd, &c);
	list[0] = h;
	list[1] = h;
	igt_assert_eq(__vseg_make_resident_flags(ctx.fd, list, 2,
						 DRM_VSEG_RESIDENCY_PIN,
						 &processed), 0);
	igt_assert_eq_u32(processed, 2);
	vseg_gem_info(ctx.fd, h, &now);
	igt_assert_eq_u32(now.segment_id, local);
	igt_assert(now.placement_flags & DRM_VSEG_INFO_PINNED);
	igt_assert_eq(__vseg_evict_flags(ctx.fd, list, 2,
					 DRM_VSEG_RESIDENCY_UNPIN, NULL), 0);
	vseg_gem_close(ctx.fd, h);
	vseg_ctx_finish(&ctx, "after closing the buffers");
}

/*
 * A buffer that must be reachable physically (AccessedPhysically, or a
 * primary for the display) but also CPU-visible, in system memory and a
 * segment the CPU cannot see: GEM_CREATE took it and every SUBMIT or
 * display of it failed with -EINVAL.
 */
static void physical_cpu_visible(void)
{
	uint32_t local = vseg_segment_by_name(&ctx.q, ctx.segs, "local");
	uint32_t vram = vseg_segment_by_name(&ctx.q, ctx.segs, "vram");
	static const uint32_t kinds[] = { AP, PRIMARY, AP | PRIMARY };
	struct drm_vseg_gem_create c;
	unsigned int i;
	uint32_t h;
	int ret;

	vseg_ctx_start(&ctx);
	igt_require(!vseg_ctx_seg(&ctx, local)->cpu_visible_size);
	for (i = 0; i < ARRAY_SIZE(kinds); i++) {
		vseg_create_args(&c, SZ_64K, BIT(local), kinds[i] | CPU_VIS);
		ret = __vseg_gem_create(ctx.fd, &c);
		igt_assert_f(ret == -EINVAL,
			     "flags %#x | CPU_VISIBLE in local: %d, expected -EINVAL\n",
			     kinds[i], ret);
		vseg_create_args(&c, SZ_64K, BIT(0), kinds[i]);
		ret = __vseg_gem_create(ctx.fd, &c);
		igt_assert_f(ret == -EINVAL,
			     "flags %#x in system memory only: %d, expected -EINVAL\n",
			     kinds[i], ret);
		/* With a visible physical place it is fine, and works. */
		vseg_create_args(&c, SZ_64K, BIT(ctx.ap_id) | BIT(local) | BIT(vram),
				 kinds[i] | CPU_VIS);
		h = vseg_gem_create(ctx.fd, &c);
		if (kinds[i] & PRIMARY) {
			vseg_display_show(ctx.fd, 0, h);
			vseg_display_show(ctx.fd, 0, 0);
		}
		vseg_gem_close(ctx.fd, h);
	}
	vseg_ctx_finish(&ctx, "after closing the buffers");
}

/*
 * Copy-engine jobs used hand-written aperture addresses of buffers they did
 * not list. The engine translated such an address under the GART lock,
 * dropped the lock, then wrote the page: a buffer unmapped from the
 * aperture and freed in between had its freed page written. One thread
 * maps and frees aperture buffers; the other submits jobs that write
 * where they land: such jobs are refused now (-EINVAL at SUBMIT, nothing
 * queued), while jobs writing a listed buffer by raw aperture address run
 * and leave exactly their data.
 */
#define RACE_SECONDS	4
#define RACE_SIZE	SZ_64K

static volatile uint64_t race_offset;
static volatile bool race_stop;
static int race_err;

static void *race_mapper(void *arg)
{
	uint32_t ap = *(uint32_t *)arg;
	int fd = __drm_open_vseg();

	if (fd < 0) {
		race_err = fd;
		return NULL;
	}
	while (!race_stop && !race_err) {
		struct drm_vseg_gem_create c;
		struct drm_vseg_gem_info in = {};
		int ret;

		vseg_create_args(&c, RACE_SIZE, BIT(ap), AP);
		ret = __vseg_gem_create(fd, &c);
		if (ret) {
			race_err = ret;
			break;
		}
		in.handle = c.handle;
		ret = vioctl(fd, DRM_IOCTL_VSEG_GEM_INFO, &in);
		if (!ret && (in.placement_flags & DRM_VSEG_INFO_APERTURE_MAPPED))
			race_offset = in.aperture_offset;
		else
			race_err = ret ? ret : -EINVAL;
		if (close_handle(fd, c.handle))
			race_err = -EBADF;
	}
	close(fd);
	return NULL;
}

static void aperture_raw_race(void)
{
	struct drm_vseg_cmd cmd[RACE_SIZE / 64];
	struct drm_vseg_allocation al = {};
	struct drm_vseg_gem_create c;
	struct timespec start = {};
	unsigned long jobs = 0, refused = 0;
	uint64_t want[RACE_SIZE / 64] = {}, *map;
	pthread_t tid;
	struct drm_vseg_sync out = {};
	uint32_t ap, so, i;
	int ret = 0, status;

	vseg_ctx_start(&ctx);
	ap = ctx.ap_id;
	igt_require(ap);
	race_stop = false;
	race_err = 0;
	race_offset = 0;
	igt_assert_eq(drmSyncobjCreate(ctx.fd, 0, &so), 0);
	out.handle = so;
	/* The listed buffer: only in the aperture, mapped while resident. */
	vseg_create_args(&c, RACE_SIZE, BIT(ap), AP);
	al.handle = vseg_gem_create(ctx.fd, &c);
	al.flags = DRM_VSEG_ALLOCATION_WRITE;
	igt_assert_eq(pthread_create(&tid, NULL, race_mapper, &ap), 0);
	igt_gettime(&start);
	while (igt_nsec_elapsed(&start) / 1000000000ull < RACE_SECONDS &&
	       !race_err) {
		struct drm_vseg_gem_info in = {};
		struct drm_vseg_submit s = {};
		uint64_t other = race_offset, lo;
		bool bad = jobs & 1;

		vseg_gem_info(ctx.fd, al.handle, &in);
		igt_assert_f(in.placement_flags & DRM_VSEG_INFO_APERTURE_MAPPED,
			     "the listed aperture buffer is not mapped\n");
		lo = in.aperture_offset;
		memset(cmd, 0, sizeof(cmd));
		for (i = 0; i < ARRAY_SIZE(cmd); i++) {
			cmd[i].opcode = DRM_VSEG_CMD_WRITE;
			cmd[i].dst = gpu_addr(ap, lo + i * 64);
			cmd[i].value = (uint64_t)jobs << 32 | i;
		}
		if (bad) {
			/* One write where the other file's buffer is. */
			i = jobs / 2 % ARRAY_SIZE(cmd);
			if (other + i * 64 >= lo && other + i * 64 < lo + RACE_SIZE)
				other = lo + RACE_SIZE;	/* just past ours */
			cmd[i].dst = gpu_addr(ap, other + i * 64);
		}
		s.engine = DRM_VSEG_ENGINE_COPY;
		s.commands = ptr(cmd);
		s.commands_size = sizeof(cmd);
		s.allocations = ptr(&al);
		s.num_allocations = 1;
		s.out_syncs = ptr(&out);
		s.num_out_syncs = 1;
		s.sync_size = sizeof(out);
		ret = vioctl(ctx.fd, DRM_IOCTL_VSEG_SUBMIT, &s);
		jobs++;
		if (bad) {
			igt_assert_f(ret == -EINVAL,
				     "a job writing aperture offset %#llx, outside its listed buffer at %#llx: %d (%s)\n",
				     (unsigned long long)other + i * 64,
				     (unsigned long long)lo, ret,
				     ret ? strerror(-ret) : "accepted");
			refused++;
			continue;
		}
		igt_assert_f(ret == 0, "a job writing its listed buffer: %d (%s)\n",
			     ret, strerror(-ret));
		igt_assert_eq(sync_wait(ctx.fd, so), 0);
		status = vseg_syncobj_status(ctx.fd, so);
		igt_assert_f(status == 1, "job status %d\n", status);
		for (i = 0; i < ARRAY_SIZE(cmd); i++)
			want[i] = cmd[i].value;
	}
	race_stop = true;
	pthread_join(tid, NULL);
	igt_assert_eq(race_err, 0);
	igt_assert(refused > 0 && jobs > refused);
	/* Only the accepted jobs wrote, and only the listed buffer. */
	map = vseg_gem_mmap(ctx.fd, al.handle, RACE_SIZE, PROT_READ);
	for (i = 0; i < ARRAY_SIZE(cmd); i++)
		igt_assert_f(map[i * 8] == want[i],
			     "word %u of the listed buffer: %#llx, the last accepted job wrote %#llx\n",
			     i, (unsigned long long)map[i * 8],
			     (unsigned long long)want[i]);
	munmap(map, RACE_SIZE);
	igt_info("%lu jobs of %zu raw aperture writes, %lu refused for one write outside the list\n",
		 jobs, ARRAY_SIZE(cmd), refused);
	vseg_gem_close(ctx.fd, al.handle);
	drmSyncobjDestroy(ctx.fd, so);
	vseg_ctx_finish(&ctx, "after the race");
}

/* --- options ------------------------------------------------------------ */

static unsigned int opt_soak, opt_steps;
static uint32_t opt_seed = 1;
static bool opt_seed_set, opt_replay;

static const struct option long_opts[] = {
	{ "soak", required_argument, NULL, 'S' },
	{ "seed", required_argument, NULL, 's' },
	{ "replay", required_argument, NULL, 'r' },
	{ "steps", required_argument, NULL, 'n' },
	{ NULL, 0, NULL, 0 },
};

static const char help_str[] =
	"  --soak SECONDS   run seeds one after another for SECONDS (subtest soak)\n"
	"  --seed N         first seed of --soak (default 1)\n"
	"  --replay SEED    run one seed again, printing every step (subtest replay)\n"
	"  --steps N        steps per seed (default 800; soak and replay 1000)\n"
	"Environment: VSEG_FUZZ_SOAK, VSEG_FUZZ_SEED, VSEG_FUZZ_REPLAY, VSEG_FUZZ_STEPS.";

static int opt_handler(int opt, int opt_index, void *data)
{
	(void)opt_index;
	(void)data;
	switch (opt) {
	case 'S':
		opt_soak = strtoul(optarg, NULL, 0);
		break;
	case 's':
		opt_seed = strtoul(optarg, NULL, 0);
		opt_seed_set = true;
		break;
	case 'r':
		opt_seed = strtoul(optarg, NULL, 0);
		opt_replay = true;
		break;
	case 'n':
		opt_steps = strtoul(optarg, NULL, 0);
		break;
	default:
		return IGT_OPT_HANDLER_ERROR;
	}
	return IGT_OPT_HANDLER_SUCCESS;
}

static void env_options(void)
{
	const char *e;

	e = getenv("VSEG_FUZZ_SOAK");
	if (e && !opt_soak)
		opt_soak = strtoul(e, NULL, 0);
	e = getenv("VSEG_FUZZ_SEED");
	if (e && !opt_seed_set && !opt_replay)
		opt_seed = strtoul(e, NULL, 0);
	e = getenv("VSEG_FUZZ_REPLAY");
	if (e && !opt_replay) {
		opt_seed = strtoul(e, NULL, 0);
		opt_replay = true;
	}
	e = getenv("VSEG_FUZZ_STEPS");
	if (e && !opt_steps)
		opt_steps = strtoul(e, NULL, 0);
}

/*
 * What a seed runs: its profile, and (for soak and replay) whether it runs
 * threads. Seeds 8k+3 run threads on separate files, 8k+6 on one file;
 * seeds 8k+7 are raw-address seeds (F_RAW, one thread and a victim).
 */
static const char *seed_profile(uint32_t seed)
{
	return vseg_profiles[seed % vseg_num_profiles];
}

static bool is_thread_seed(uint32_t seed)
{
	return seed % 8 == 3 || seed % 8 == 6;
}

static void run_any_seed(uint32_t seed, unsigned int steps, bool verbose)
{
	load_profile(seed_profile(seed));
	if (is_thread_seed(seed))
		run_seed(seed, steps / 2, MAX_THREADS, seed % 8 == 6, F_ALL,
			 false);
	else if (seed % 8 == 7)
		run_seed(seed, steps, 0, false, F_RAW, verbose);
	else
		run_seed(seed, steps, 0, false, (enum focus)(seed / 8 % 4),
			 verbose);
}

#define FIXED_SEEDS	8
#define FIXED_SEEDS_STR	"8"
#define FIXED_STEPS	800
/* Scaled by $VSEG_TEST_SCALE, the fixed seeds' steps stay at least this. */
#define FIXED_STEPS_MIN	400
#define RAW_SEED	3001

igt_main_args("", long_opts, help_str, opt_handler, NULL)
{
	unsigned int steps;

	env_options();
	igt_fixture {
		vseg_ctx_setup(&ctx);
		setup_pages();
	}
	steps = opt_steps;
	if (!steps) {
		steps = vseg_test_scale(FIXED_STEPS);
		if (steps < FIXED_STEPS_MIN)
			steps = FIXED_STEPS_MIN;
	}

	igt_describe("The single-threaded seeds of 1.." FIXED_SEEDS_STR
		     ", each on its profile (seed % 4).");
	igt_subtest_with_dynamic("fixed-seeds") {
		unsigned int p;
		uint32_t seed;

		for (p = 0; p < vseg_num_profiles; p++)
			for (seed = 1; seed <= FIXED_SEEDS; seed++) {
				if (is_thread_seed(seed) ||
				    seed_profile(seed) != vseg_profiles[p])
					continue;
				igt_dynamic_f("%s-seed-%u", vseg_profiles[p],
					      seed) {
					load_profile(vseg_profiles[p]);
					run_seed(seed, steps, 0, false, F_ALL,
						 false);
				}
			}
	}

	igt_describe("Closed, foreign and random handles in every ioctl.");
	igt_subtest("foreign-handles") {
		load_profile("discrete");
		run_seed(1001, steps, 0, false, F_HANDLES, false);
	}

	igt_describe("NULL, unmapped, kernel, straddling and read-only "
		     "pointers in every ioctl.");
	igt_subtest("bad-pointers") {
		load_profile("multi");
		run_seed(1002, steps, 0, false, F_POINTERS, false);
	}

	igt_describe("Counts and sizes past every limit.");
	igt_subtest("huge-counts") {
		load_profile("smallbar");
		run_seed(1003, steps, 0, false, F_HUGE, false);
	}

	igt_describe("Four threads, each with its own files.");
	igt_subtest("threads-separate-files") {
		load_profile("discrete");
		run_seed(2001, steps / 2, MAX_THREADS, false, F_ALL, false);
	}

	igt_describe("Four threads sharing one file (and one GPU VA space).");
	igt_subtest("threads-one-file") {
		load_profile("integrated");
		run_seed(2002, steps / 2, MAX_THREADS, true, F_ALL, false);
	}

	igt_describe("Hand-written physical addresses (segment 0, unknown "
		     "segments, random offsets, the aperture; inside, "
		     "straddling, before and past buffers of this file, listed "
		     "or not, of another file and of a victim client) and "
		     "patches into every field of a command, on each "
		     "profile: SUBMIT refuses with EINVAL exactly what leaves "
		     "the listed allocations or patches a field that is not "
		     "an address, the rest runs, and the victim's bytes never "
		     "change.");
	igt_subtest_with_dynamic("raw-addresses") {
		unsigned int p;

		for (p = 0; p < vseg_num_profiles; p++)
			igt_dynamic_f("%s", vseg_profiles[p]) {
				load_profile(vseg_profiles[p]);
				run_seed(RAW_SEED + p, steps, 0, false, F_RAW,
					 false);
			}
	}

	igt_describe("Regression: EVICT(UNPIN) of a buffer listed more times "
		     "than it is pinned fails with -EINVAL and changes "
		     "nothing; listed as many times as pinned, it is "
		     "unpinned and evicted.");
	igt_subtest("evict-unpin-listed-twice") {
		load_profile("discrete");
		evict_unpin_listed_twice();
	}

	igt_describe("Regression: PIN of a buffer that is pinned already, "
		     "where the file's share of its segment has no room for "
		     "another pin, fails with -ENOSPC and changes nothing.");
	igt_subtest("pin-again-past-share") {
		load_profile("discrete");
		pin_again_past_share();
	}

	igt_describe("Regression: seed 7 (raw addresses, multi profile), "
		     "whose PIN of a list naming a buffer twice failed with "
		     "-EINVAL.");
	igt_subtest("raw-seed-7") {
		load_profile("multi");
		run_seed(7, 1000, 0, false, F_RAW, false);
	}

	igt_describe("Regression: a physical or primary buffer that must be "
		     "CPU-visible needs a CPU-visible memory segment or the "
		     "aperture, else GEM_CREATE fails with -EINVAL.");
	igt_subtest("physical-cpu-visible") {
		load_profile("discrete");
		physical_cpu_visible();
	}

	igt_describe("Regression: seed 1046, four threads on one file on the "
		     "smallbar profile, made a submission evict buffers that "
		     "others held locked, with a ww ticket it had already "
		     "declared done (a lockdep warning on the debug kernel).");
	igt_subtest("threads-ww-evict") {
		load_profile("smallbar");
		run_seed(1046, 500, MAX_THREADS, true, F_ALL, false);
	}

	igt_describe("Regression: copy jobs writing hand-written aperture "
		     "addresses of another file's buffers, which leave the "
		     "aperture and are freed meanwhile, are refused at SUBMIT "
		     "and never write a page; jobs writing their listed "
		     "buffer by raw address run.");
	igt_subtest("aperture-raw-race") {
		load_profile("discrete");
		aperture_raw_race();
	}

	if (opt_replay) {
		igt_describe("Run the seed given by --replay, printing every "
			     "step.");
		igt_subtest("replay")
			run_any_seed(opt_seed, opt_steps ? opt_steps : 1000,
				     true);
	}

	if (opt_soak) {
		igt_describe("Run seeds from --seed on for --soak seconds.");
		igt_subtest("soak") {
			struct timespec start = {};
			uint32_t seed = opt_seed;

			igt_gettime(&start);
			while (igt_nsec_elapsed(&start) / 1000000000ull <
			       opt_soak)
				run_any_seed(seed++, opt_steps ?
					     opt_steps : 1000, false);
			igt_info("soak: seeds %u..%u passed\n", opt_seed,
				 seed - 1);
		}
	}

	igt_fixture {
		vseg_ctx_unload(&ctx);
		loaded_profile = NULL;
	}
}
