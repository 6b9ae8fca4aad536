// SPDX-License-Identifier: MIT
/*
 * vseg_faults: allocation failures injected into vseg's paths (failslab and
 * fail_page_alloc, through the task's fail-nth counter) make each operation
 * fail cleanly or succeed: the ioctl returns an error the UAPI documents
 * (or success), the buffers that existed keep their contents, the segment
 * usage and the buffer list come back to where they were, and the module
 * unloads without a leak.
 *
 * Each operation is swept: a first run counts the allocations made on its
 * path (those with a module function on the stack: the kernel's filter is
 * set to the module area), then the run is repeated with the 1st, 2nd, ...
 * of them failed, one failure per run, until a run hits none (sampled
 * evenly when there are more than the budget). Needs a kernel with
 * CONFIG_FAULT_INJECTION_DEBUG_FS, CONFIG_FAILSLAB, CONFIG_FAIL_PAGE_ALLOC
 * and CONFIG_FAULT_INJECTION_STACKTRACE_FILTER (the debug kernel of
 * tools/debug-kernel/); skips elsewhere.
 *
 * Copyright (c) 2026 The vseg authors
 */
/**
 * TEST: vseg faults
 * Category: Core
 * Mega feature: General Core features
 * Sub-category: Memory management
 * Functionality: fault injection
 * Description: Inject allocation failures (failslab, fail_page_alloc) into
 *	every allocation on vseg's creation, move, eviction, submission,
 *	VM_BIND, fault and probe paths, one at a time: each fails cleanly or
 *	succeeds, nothing leaks, no data is lost.
 *
 * SUBTEST: create
 * Description: GEM_CREATE in system memory, a memory segment, the aperture
 *	(AccessedPhysically) with each allocation on its path failed in turn.
 *	Dynamic subtests: system, vram, local, aperture.
 *
 * SUBTEST: move
 * Description: MAKE_RESIDENT from system memory into each segment, EVICT
 *	back, with each allocation failed in turn: the buffer is where the
 *	result says, its data intact. Dynamic subtests: resident-vram,
 *	resident-local, resident-aperture, evict-vram, evict-local,
 *	evict-aperture.
 *
 * SUBTEST: move-list
 * Description: MAKE_RESIDENT (with and without PIN) and EVICT of a list of
 *	buffers with each allocation failed in turn: the first "processed"
 *	moved, the others not. Dynamic subtests: resident, resident-pin,
 *	evict.
 *
 * SUBTEST: scanout
 * Description: showing through KMS an evicted primary, which maps it into the aperture
 *	or moves it into a memory segment, with each allocation failed in
 *	turn: on failure the head stays off and the primary unpinned. Dynamic
 *	subtests: aperture, vram.
 *
 * SUBTEST: query
 * Description: QUERY_SEGMENTS with each allocation failed in turn.
 *
 * SUBTEST: open
 * Description: Opening the render node with each allocation failed in turn.
 *
 * SUBTEST: evict-pressure
 * Description: GEM_CREATE into a full segment, evicting other buffers to
 *	system memory, with each allocation failed in turn.
 *
 * SUBTEST: submit
 * Description: SUBMIT a FILL on the copy and render engines, of a resident
 *	and of an evicted buffer, with each allocation failed in turn: no
 *	fence on failure, the data filled on success. Dynamic subtests: copy,
 *	copy-evicted, copy-syncs, render, render-evicted.
 *
 * SUBTEST: vm-bind
 * Description: VM_BIND with each allocation failed in turn: nothing stays
 *	mapped on failure.
 *
 * SUBTEST: mmap-fault
 * Description: CPU faults migrating out of a segment the CPU cannot see,
 *	with each allocation failed in turn. Dynamic subtests: local. (A
 *	fault in system memory allocates nothing the sweep counts since
 *	segment 0 left client sets: a buffer created there through the
 *	aperture's id already has its page array, and its pages come from
 *	vseg's page pool.)
 *
 * SUBTEST: probe
 * Description: Load the module with each allocation of its probe failed in
 *	turn: the load fails with -ENOMEM and leaves nothing behind, then a
 *	load works.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "igt.h"
#include "igt_kmod.h"
#include "igt_vseg.h"
#include "igt_vseg_exec.h"

IGT_TEST_DESCRIPTION("Inject allocation failures (failslab, fail_page_alloc) "
		     "into every allocation on vseg's creation, move, "
		     "eviction, submission, VM_BIND, fault and probe paths, "
		     "one at a time: each fails cleanly or succeeds, nothing "
		     "leaks, no data is lost.");

#define AP_FLAG		DRM_VSEG_GEM_CREATE_ACCESSED_PHYSICALLY
#define RW		(PROT_READ | PROT_WRITE)
#define COPY		DRM_VSEG_ENGINE_COPY
#define RENDER		DRM_VSEG_ENGINE_RENDER

#define FAILSLAB	"/sys/kernel/debug/failslab"
#define FAIL_PAGE	"/sys/kernel/debug/fail_page_alloc"
#define FAIL_NTH	"/proc/thread-self/fail-nth"

/* fail-nth of the counting run: more than any path makes. */
#define FI_COUNT	1000000u
/* Runs per sweep at most (the points are then spread evenly). */
#define FI_BUDGET	40u
#define BO_SIZE		(4 * SZ_64K)
#define VA_START	0x100000ull

static struct vseg_ctx ctx = VSEG_CTX_INIT(VSEG_LEFTOVERS_BASE_COUNT);
static uint32_t vram_id, local_id;

/* --- the fault-injection controls ------------------------------------- */

#define FI_MAX_SAVED	24

static struct {
	char path[128];
	char value[64];
} fi_saved[FI_MAX_SAVED];
static unsigned int fi_num_saved;
static int fi_nth_fd = -1;

static bool fi_available(void)
{
	return access(FAILSLAB "/ignore-gfp-wait", W_OK) == 0 &&
	       access(FAIL_PAGE "/ignore-gfp-wait", W_OK) == 0 &&
	       access(FAILSLAB "/require-start", W_OK) == 0 &&
	       access(FAIL_NTH, W_OK) == 0;
}

static bool read_text(const char *path, char *buf, size_t size)
{
	int fd = open(path, O_RDONLY);
	ssize_t n;

	if (fd < 0)
		return false;
	n = read(fd, buf, size - 1);
	close(fd);
	if (n < 0)
		return false;
	buf[n] = '\0';
	buf[strcspn(buf, "\n")] = '\0';
	return true;
}

static bool write_text(const char *path, const char *value)
{
	int fd = open(path, O_WRONLY);
	ssize_t n;

	if (fd < 0)
		return false;
	n = write(fd, value, strlen(value));
	close(fd);
	return n == (ssize_t)strlen(value);
}

/* Set one control, remembering its first value for fi_restore(). */
static void fi_set(const char *dir, const char *name, const char *value)
{
	char path[128];
	unsigned int i;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	for (i = 0; i < fi_num_saved; i++)
		if (!strcmp(fi_saved[i].path, path))
			break;
	if (i == fi_num_saved) {
		igt_assert(fi_num_saved < FI_MAX_SAVED);
		igt_assert_f(read_text(path, fi_saved[i].value,
				       sizeof(fi_saved[i].value)),
			     "cannot read %s\n", path);
		snprintf(fi_saved[i].path, sizeof(fi_saved[i].path), "%s",
			 path);
		fi_num_saved++;
	}
	igt_assert_f(write_text(path, value), "cannot write %s to %s: %s\n",
		     value, path, strerror(errno));
}

static void fi_restore(void)
{
	if (fi_nth_fd >= 0) {
		igt_ignore_warn(pwrite(fi_nth_fd, "0", 1, 0));
		close(fi_nth_fd);
		fi_nth_fd = -1;
	}
	/* Filters last set, first restored: require-end before -start. */
	while (fi_num_saved) {
		fi_num_saved--;
		write_text(fi_saved[fi_num_saved].path,
			   fi_saved[fi_num_saved].value);
	}
}

static void fi_exit_handler(int sig)
{
	(void)sig;
	fi_restore();
}

/*
 * The module area: from the lowest loaded module's base (/proc/modules)
 * rounded down to 512 MiB (x86-64's MODULES_VADDR, with or without KASLR;
 * the kernel image lies below it) to the end of the address space below
 * the fixmap. Only allocations with a module function (vseg, or DRM/TTM
 * called by vseg) in their first 32 stack frames are counted and failed.
 */
static void fi_module_range(uint64_t *start, uint64_t *end)
{
	uint64_t lowest = UINT64_MAX;
	char line[512];
	FILE *f = fopen("/proc/modules", "r");

	igt_assert(f);
	while (fgets(line, sizeof(line), f)) {
		char *p = strstr(line, " 0x");
		uint64_t addr;

		if (!p)
			continue;
		addr = strtoull(p + 1, NULL, 16);
		if (addr && addr < lowest)
			lowest = addr;
	}
	fclose(f);
	igt_require_f(lowest != UINT64_MAX,
		      "no module addresses in /proc/modules (kptr_restrict?)\n");
	*start = lowest & ~((512ull << 20) - 1);
	*end = 0xffffffffff000000ull;
	igt_assert(*start >= 0xffffffff80000000ull && *start < *end);
}

/*
 * [*@start, *@end) of kernel function @name (of a module too), from
 * /proc/kallsyms: its address to the next symbol's. False if not found.
 */
static bool kallsyms_range(const char *name, uint64_t *start, uint64_t *end)
{
	uint64_t addr, sym = 0, next = UINT64_MAX;
	char line[512], type, sname[256];
	FILE *f = fopen("/proc/kallsyms", "r");

	if (!f)
		return false;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "%" SCNx64 " %c %255s", &addr, &type,
			   sname) == 3 && !strcmp(sname, name) && addr)
			sym = addr;
	rewind(f);
	while (sym && fgets(line, sizeof(line), f))
		if (sscanf(line, "%" SCNx64, &addr) == 1 && addr > sym &&
		    addr < next)
			next = addr;
	fclose(f);
	if (!sym || next == UINT64_MAX)
		return false;
	*start = sym;
	*end = next;
	return true;
}

/*
 * Both fault attributes: no random failures (probability 0: only fail-nth
 * fires), quiet, sleeping and highmem allocations of any order failable,
 * restricted by stack trace to the module area.
 */
static void fi_setup(void)
{
	static const char * const dirs[] = { FAILSLAB, FAIL_PAGE };
	uint64_t start, end, rej_start = 0, rej_end = 0;
	static bool done;
	bool have_reject;
	char buf[32];

	if (done)
		return;
	igt_require_f(fi_available(),
		      "no failslab/fail_page_alloc debugfs controls with a stack-trace filter, or no %s (not a fault-injection kernel)\n",
		      FAIL_NTH);
	fi_module_range(&start, &end);
	have_reject = kallsyms_range("drm_sysfs_minor_alloc", &rej_start,
				     &rej_end);
	igt_install_exit_handler(fi_exit_handler);
	for (unsigned int i = 0; i < 2; i++) {
		fi_set(dirs[i], "probability", "0");
		fi_set(dirs[i], "verbose", "0");
		fi_set(dirs[i], "ignore-gfp-wait", "N");
		fi_set(dirs[i], "stacktrace-depth", "32");
		/* the end first: a range is never briefly inverted */
		snprintf(buf, sizeof(buf), "%#" PRIx64, end);
		fi_set(dirs[i], "require-end", buf);
		snprintf(buf, sizeof(buf), "%#" PRIx64, start);
		fi_set(dirs[i], "require-start", buf);
		/*
		 * Not inside drm_sysfs_minor_alloc(): when it fails, DRM's
		 * drm_minor_alloc() leaves an ERR_PTR in minor->kdev that its
		 * release action passes to put_device() (a DRM core bug,
		 * seen in 6.12, not vseg's): the probe would oops.
		 */
		if (have_reject) {
			snprintf(buf, sizeof(buf), "%#" PRIx64, rej_end);
			fi_set(dirs[i], "reject-end", buf);
			snprintf(buf, sizeof(buf), "%#" PRIx64, rej_start);
			fi_set(dirs[i], "reject-start", buf);
		}
	}
	fi_set(FAIL_PAGE, "ignore-gfp-highmem", "N");
	fi_set(FAIL_PAGE, "min-order", "0");
	fi_nth_fd = open(FAIL_NTH, O_RDWR);
	igt_assert(fi_nth_fd >= 0);
	igt_info("fault injection: module area %#" PRIx64 "-%#" PRIx64 ", not in drm_sysfs_minor_alloc %#" PRIx64 "-%#" PRIx64 "\n",
		 start, end, rej_start, rej_end);
	done = true;
}

/* Fail the @n-th counted allocation of this thread from now on. */
static void fi_arm(unsigned int n)
{
	char buf[16];
	int len = snprintf(buf, sizeof(buf), "%u", n);

	igt_assert_eq(pwrite(fi_nth_fd, buf, len, 0), len);
}

/* Stop; returns how many counted allocations were left (0: one failed). */
static unsigned int fi_disarm(void)
{
	char buf[16] = {};
	unsigned int left;

	igt_assert(pread(fi_nth_fd, buf, sizeof(buf) - 1, 0) > 0);
	left = strtoul(buf, NULL, 10);
	igt_assert_eq(pwrite(fi_nth_fd, "0", 1, 0), 1);
	return left;
}

/* --- sweeping one operation ------------------------------------------- */

/**
 * struct fi_op - an operation whose allocations are failed one by one
 * @name: for the log.
 * @prepare: sets up one run (may assert); NULL for none.
 * @run: the operation, made of raw ioctls or memory accesses only (no
 *	assertion while failures are armed): 0 or -errno.
 * @check: checks the outcome of a run and undoes it (asserts).
 * @enospc: -ENOSPC is a documented outcome too.
 */
struct fi_op {
	const char *name;
	void (*prepare)(void);
	int (*run)(void);
	void (*check)(int ret, bool injected);
	bool enospc;
};

static struct vseg_usage_snapshot sweep_usage;
static unsigned int sweep_count;
static uint32_t sweep_seed;

/*
 * The first point of a sweep with @stride: 1, or when points are skipped a
 * phase from the seed, so that runs with other seeds cover the others.
 */
static unsigned int sweep_first(unsigned int stride)
{
	return stride > 1 ? 1 + sweep_seed % stride : 1;
}

/* The point after @n: @stride further, and the last one, @calls, too. */
static unsigned int sweep_next(unsigned int n, unsigned int stride,
			       unsigned int calls)
{
	return n + stride > calls && n < calls ? calls : n + stride;
}

static void check_ret(const struct fi_op *op, unsigned int n, int ret,
		      bool injected)
{
	igt_assert_f(!ret || ret == -ENOMEM || (op->enospc && ret == -ENOSPC),
		     "%s, allocation %u failed: %d (%s), not a documented error\n",
		     op->name, n, ret, vseg_errname(ret));
	igt_assert_f(!ret || injected,
		     "%s failed (%s) with no allocation failed\n", op->name,
		     vseg_errname(ret));
}

/* Usage and buffer list back to where the sweep started. */
static void check_back(const struct fi_op *op, unsigned int n)
{
	char what[96];
	unsigned int count;

	snprintf(what, sizeof(what), "%s, allocation %u failed", op->name, n);
	vseg_usage_wait(ctx.fd, &sweep_usage, 2000, what);
	count = vseg_allocation_count(ctx.fd);
	igt_assert_f(count == sweep_count,
		     "%s: %u buffers listed in debugfs, %u before\n", what,
		     count, sweep_count);
}

/*
 * What the kernel logs when an allocation fails on purpose: not a kernel
 * warning for igt_runner. TTM's complaints on the ioctl paths; on the probe
 * path, the failed probe and what the driver core, kobject, debugfs, DRM's
 * drm_dev_init() and the workqueues say on the way. No backslash: the
 * regex reaches igt_runner through /dev/kmsg, which escapes it ("[[]"
 * matches a '[').
 */
#define FAULT_DMESG \
	"[[]TTM[]] (Failed allocating (page table|swap storage)|" \
	"Buffer eviction failed|Failed to find memory space)"
#define PROBE_FAULT_DMESG \
	VSEG_LOAD_FAILURE_DMESG "|vseg: segment .* cannot reserve|" \
	"bus_add_driver: |really_probe: driver_sysfs_add failed|kobject|" \
	"debugfs: out of free dentries|drm_dev_init|" \
	"workqueue: Failed to allocate a worker|" \
	"kmemleak: Cannot allocate a scan area"

static unsigned int fi_sweep(const struct fi_op *op)
{
	unsigned int calls, left, stride, runs = 0, failed = 0, n;
	int ret;

	/* Allocations fail on purpose. */
	igt_emit_ignore_dmesg_regex(FAULT_DMESG);
	vseg_usage_read(ctx.fd, &sweep_usage);
	sweep_count = vseg_allocation_count(ctx.fd);

	/* Counting run: nothing fails. */
	if (op->prepare)
		op->prepare();
	fi_arm(FI_COUNT);
	ret = op->run();
	left = fi_disarm();
	igt_assert(left > 0);
	calls = FI_COUNT - left;
	igt_assert_f(ret == 0, "%s failed with no failure injected: %s\n",
		     op->name, vseg_errname(ret));
	op->check(ret, false);
	check_back(op, 0);
	igt_assert_f(calls > 0,
		     "%s: no allocation counted on its path (stack filter?)\n",
		     op->name);

	stride = (calls + FI_BUDGET - 1) / FI_BUDGET;
	for (n = sweep_first(stride);; n = sweep_next(n, stride, calls)) {
		bool injected;

		if (op->prepare)
			op->prepare();
		fi_arm(n);
		ret = op->run();
		injected = fi_disarm() == 0;
		check_ret(op, n, ret, injected);
		op->check(ret, injected);
		check_back(op, n);
		runs++;
		failed += ret != 0;
		if (!injected || n >= calls)
			break;
	}
	igt_info("%s: %u allocations on the path, %u runs, %u failed cleanly\n",
		 op->name, calls, runs, failed);
	return calls;
}

/* --- buffers ------------------------------------------------------------ */

/* Buffers that exist across a sweep, each with its own pattern. */
#define MAX_WITNESS	16

static struct {
	uint32_t handle;
	uint64_t size;
	uint32_t seed;
} witness[MAX_WITNESS];
static unsigned int num_witness;

static uint32_t witness_add(uint64_t size, uint32_t supported, uint32_t flags,
			    uint32_t pref)
{
	struct drm_vseg_gem_create c;
	unsigned int i = num_witness++;

	igt_assert(i < MAX_WITNESS);
	vseg_create_args(&c, size, supported, flags);
	if (pref)
		vseg_create_prefer(&c, pref, 0);
	witness[i].handle = vseg_gem_create(ctx.fd, &c);
	witness[i].size = size;
	witness[i].seed = 0x5eed0000 + i;
	vseg_bo_fill_pattern(ctx.fd, witness[i].handle, size, witness[i].seed);
	/* a fill through mmap may have moved it where the CPU sees it */
	vseg_make_resident(ctx.fd, &witness[i].handle, 1);
	return witness[i].handle;
}

static void witness_check(const char *what)
{
	uint32_t h[MAX_WITNESS];

	for (unsigned int i = 0; i < num_witness; i++) {
		vseg_bo_check_pattern(ctx.fd, witness[i].handle,
				      witness[i].size, witness[i].seed, what);
		h[i] = witness[i].handle;
	}
	/* reading one out of a hidden segment moved it: back again */
	if (num_witness)
		vseg_make_resident(ctx.fd, h, num_witness);
}

static void witness_close(void)
{
	while (num_witness)
		vseg_gem_close(ctx.fd, witness[--num_witness].handle);
}

/* Some data around: one buffer in each segment and in system memory. */
static void witness_everywhere(void)
{
	witness_add(SZ_64K, BIT(vram_id), 0, 0);
	witness_add(SZ_64K, BIT(local_id) | BIT(ctx.ap_id), 0, local_id);
	witness_add(SZ_64K, BIT(ctx.ap_id), AP_FLAG, 0);
	witness_add(SZ_64K, BIT(ctx.ap_id), 0, 0);
}

static uint32_t where(uint32_t h)
{
	struct drm_vseg_gem_info i;

	vseg_gem_info(ctx.fd, h, &i);
	return i.segment_id;
}

/* After each load: the segments by name, fault injection ready. */
static void loaded(void)
{
	vram_id = vseg_segment_by_name(&ctx.q, ctx.segs, "vram");
	local_id = vseg_segment_by_name(&ctx.q, ctx.segs, "local");
	fi_setup();
}

static void finish(void)
{
	witness_close();
	vseg_ctx_finish(&ctx, "after closing every buffer");
	vseg_ctx_unload(&ctx);
}

/* --- GEM_CREATE ------------------------------------------------------------ */

static struct drm_vseg_gem_create create_args;
static uint32_t create_want;

static int create_run(void)
{
	create_args.handle = 0;
	return __vseg_gem_create(ctx.fd, &create_args);
}

static void create_check(int ret, bool injected)
{
	(void)injected;
	if (!ret) {
		igt_assert_eq_u32(where(create_args.handle), create_want);
		if (create_want != local_id) {
			vseg_bo_fill_pattern(ctx.fd, create_args.handle,
					     create_args.size, 1);
			vseg_bo_check_pattern(ctx.fd, create_args.handle,
					      create_args.size, 1, "new buffer");
		}
		vseg_gem_close(ctx.fd, create_args.handle);
	}
	witness_check("after GEM_CREATE");
}

static void test_create(uint32_t segment, uint32_t flags)
{
	struct fi_op op = {
		.name = "GEM_CREATE",
		.run = create_run,
		.check = create_check,
		.enospc = true,
	};

	witness_everywhere();
	/*
	 * System memory (0) is named by the aperture's id, where a buffer is
	 * created committed to the aperture.
	 */
	vseg_create_args(&create_args, BO_SIZE,
			 BIT(segment ? segment : ctx.ap_id), flags);
	create_want = segment ? segment : ctx.ap_id;
	fi_sweep(&op);
}

/* --- MAKE_RESIDENT and EVICT ---------------------------------------------- */

static uint32_t move_bo, move_from, move_to;
static uint32_t move_supported, move_flags;

static void move_prepare_resident(void)
{
	struct drm_vseg_gem_create c;

	vseg_create_args(&c, BO_SIZE, move_supported, move_flags);
	vseg_create_prefer(&c, move_to, 0);
	move_bo = vseg_gem_create(ctx.fd, &c);
	vseg_bo_fill_pattern(ctx.fd, move_bo, BO_SIZE, 7);
	vseg_evict(ctx.fd, &move_bo, 1);
	igt_assert_eq_u32(where(move_bo), move_from);
}

static void move_prepare_evict(void)
{
	struct drm_vseg_gem_create c;

	vseg_create_args(&c, BO_SIZE, move_supported, move_flags);
	vseg_create_prefer(&c, move_from, 0);
	move_bo = vseg_gem_create(ctx.fd, &c);
	if (move_from == local_id) {
		/* not CPU-visible: filled in system memory, moved there */
		vseg_evict(ctx.fd, &move_bo, 1);
		vseg_bo_fill_pattern(ctx.fd, move_bo, BO_SIZE, 7);
		vseg_make_resident(ctx.fd, &move_bo, 1);
	} else {
		vseg_bo_fill_pattern(ctx.fd, move_bo, BO_SIZE, 7);
	}
	igt_assert_eq_u32(where(move_bo), move_from);
}

static int make_resident_run(void)
{
	return __vseg_make_resident(ctx.fd, &move_bo, 1, NULL);
}

static int evict_run(void)
{
	return __vseg_evict(ctx.fd, &move_bo, 1, NULL);
}

static void move_check(int ret, bool injected)
{
	uint32_t now = where(move_bo);

	(void)injected;
	igt_assert_f(now == (ret ? move_from : move_to),
		     "%s: buffer in %s, expected %s\n", vseg_errname(ret),
		     vseg_ctx_seg_name(&ctx, now),
		     vseg_ctx_seg_name(&ctx, ret ? move_from : move_to));
	vseg_bo_check_pattern(ctx.fd, move_bo, BO_SIZE, 7, "moved buffer");
	witness_check("after the move");
	vseg_gem_close(ctx.fd, move_bo);
}

static void test_move(bool resident, uint32_t segment, uint32_t flags)
{
	struct fi_op op = {
		.name = resident ? "MAKE_RESIDENT" : "EVICT",
		.prepare = resident ? move_prepare_resident :
				      move_prepare_evict,
		.run = resident ? make_resident_run : evict_run,
		.check = move_check,
	};

	witness_everywhere();
	move_supported = BIT(segment) | BIT(ctx.ap_id);
	move_flags = flags;
	move_from = resident ? 0 : segment;
	move_to = resident ? segment : 0;
	fi_sweep(&op);
}

/* --- eviction under pressure ------------------------------------------------ */

/*
 * vram (4 MiB) is full of witnesses that may go to system memory; a new
 * buffer that can only live in vram evicts some of them.
 */
static void pressure_prepare(void)
{
	uint32_t h[MAX_WITNESS];

	for (unsigned int i = 0; i < num_witness; i++)
		h[i] = witness[i].handle;
	vseg_make_resident(ctx.fd, h, num_witness);
	for (unsigned int i = 0; i < num_witness; i++)
		igt_assert_eq_u32(where(h[i]), vram_id);
}

static uint64_t pressure_base;

static void pressure_check(int ret, bool injected)
{
	struct vseg_usage_snapshot u;
	uint64_t in_vram = 0;

	(void)injected;
	/* The usage follows where the buffers are. */
	if (!ret) {
		igt_assert_eq_u32(where(create_args.handle), vram_id);
		in_vram += create_args.size;
	}
	for (unsigned int i = 0; i < num_witness; i++)
		if (where(witness[i].handle) == vram_id)
			in_vram += witness[i].size;
	vseg_usage_read(ctx.fd, &u);
	igt_assert_f(u.usage[vram_id].resident - pressure_base == in_vram,
		     "vram resident %" PRIu64 " (%" PRIu64 " before), buffers there %" PRIu64 "\n",
		     (uint64_t)u.usage[vram_id].resident, pressure_base,
		     in_vram);
	if (!ret)
		vseg_gem_close(ctx.fd, create_args.handle);
	/* every byte of the evicted ones kept; back to all in vram */
	witness_check("after eviction");
	pressure_prepare();
}

static void test_pressure(void)
{
	struct fi_op op = {
		.name = "GEM_CREATE with eviction",
		.prepare = pressure_prepare,
		.run = create_run,
		.check = pressure_check,
		.enospc = true,
	};
	uint64_t size = vseg_ctx_seg(&ctx, vram_id)->size;
	struct vseg_usage_snapshot u;
	unsigned int n;

	/* as many quarters as fit: one more does not */
	vseg_usage_read(ctx.fd, &u);
	pressure_base = u.usage[vram_id].resident;
	n = (size - u.usage[vram_id].committed) / (size / 4);
	igt_assert(n >= 2);
	for (unsigned int i = 0; i < n; i++)
		witness_add(size / 4, BIT(vram_id) | BIT(ctx.ap_id), 0, vram_id);
	vseg_create_args(&create_args, size / 4, BIT(vram_id), 0);
	fi_sweep(&op);
}

/* --- SUBMIT ------------------------------------------------------------------ */

static struct vseg_cmdbuf sub_cb;
static uint32_t sub_bo, sub_engine, sub_in, sub_out[2];
static bool sub_evicted, sub_syncs;

static void submit_prepare(void)
{
	vseg_bo_fill_pattern(ctx.fd, sub_bo, BO_SIZE, 9);
	if (sub_evicted)
		vseg_evict(ctx.fd, &sub_bo, 1);
	sub_out[0] = vseg_syncobj_create(ctx.fd, 0);
	sub_out[1] = vseg_syncobj_create(ctx.fd, 0);
	sub_in = vseg_syncobj_create(ctx.fd, DRM_SYNCOBJ_CREATE_SIGNALED);
}

static int submit_run(void)
{
	/* with syncs: wait for one, signal two */
	return __vseg_cb_submit(ctx.fd, sub_engine, &sub_cb, &sub_in,
				sub_syncs, sub_out, sub_syncs ? 2 : 1);
}

static void submit_check(int ret, bool injected)
{
	(void)injected;
	if (!ret) {
		uint32_t *got = malloc(BO_SIZE), *want = malloc(BO_SIZE);

		igt_assert(got && want);
		igt_assert_eq(vseg_syncobj_wait_error(ctx.fd, sub_out[0],
						      VSEG_JOB_TIMEOUT_MS), 0);
		igt_assert_eq(vseg_syncobj_has_fence(ctx.fd, sub_out[1]),
			      sub_syncs);
		vseg_bo_read(ctx.fd, sub_bo, 0, got, BO_SIZE);
		vseg_fill32(want, BO_SIZE, 0xfa17ed);
		vseg_assert_same(got, want, BO_SIZE, 0, "filled buffer");
		free(got);
		free(want);
	} else {
		igt_assert_f(!vseg_syncobj_has_fence(ctx.fd, sub_out[0]) &&
			     !vseg_syncobj_has_fence(ctx.fd, sub_out[1]),
			     "failed submission left a fence\n");
		vseg_bo_check_pattern(ctx.fd, sub_bo, BO_SIZE, 9,
				      "buffer of a failed submission");
	}
	vseg_syncobj_destroy(ctx.fd, sub_out[0]);
	vseg_syncobj_destroy(ctx.fd, sub_out[1]);
	vseg_syncobj_destroy(ctx.fd, sub_in);
	witness_check("after SUBMIT");
	/*
	 * The next run starts from the same place: evicted from vram. A render
	 * job commits a buffer in system memory to the aperture first, so
	 * evicting it now would count against the aperture: back home first.
	 */
	if (sub_evicted) {
		vseg_make_resident(ctx.fd, &sub_bo, 1);
		vseg_evict(ctx.fd, &sub_bo, 1);
	}
}

static void test_submit(uint32_t engine, bool evicted, bool syncs)
{
	struct fi_op op = {
		.name = engine == COPY ? "SUBMIT copy" : "SUBMIT render",
		.prepare = submit_prepare,
		.run = submit_run,
		.check = submit_check,
		.enospc = true,
	};
	struct drm_vseg_gem_create c;

	vseg_require_engine(ctx.fd);
	witness_everywhere();
	sub_engine = engine;
	sub_evicted = evicted;
	sub_syncs = syncs;
	vseg_create_args(&c, BO_SIZE, BIT(vram_id) | BIT(ctx.ap_id),
			 engine == COPY ? AP_FLAG : 0);
	vseg_create_prefer(&c, vram_id, 0);
	sub_bo = vseg_gem_create(ctx.fd, &c);
	vseg_cb_init(&sub_cb);
	if (engine == COPY) {
		vseg_cb_fill_phys(&sub_cb, sub_bo, 0, BO_SIZE, 0xfa17ed);
	} else {
		vseg_vm_bind(ctx.fd, sub_bo, VA_START);
		vseg_cb_fill(&sub_cb, VA_START, BO_SIZE, 0xfa17ed);
	}
	if (evicted)
		vseg_evict(ctx.fd, &sub_bo, 1);
	/* the counting run and the sweep start from the same usage */
	fi_sweep(&op);
	if (engine == RENDER)
		vseg_vm_unbind(ctx.fd, VA_START);
	vseg_cb_fini(&sub_cb);
	vseg_gem_close(ctx.fd, sub_bo);
}

/* --- VM_BIND ----------------------------------------------------------------- */

static uint32_t bind_bo;

static int bind_run(void)
{
	return __vseg_vm_bind(ctx.fd, bind_bo, VA_START, NULL);
}

static void bind_check(int ret, bool injected)
{
	(void)injected;
	if (ret) {
		/* nothing is left mapped: there is nothing to unbind */
		igt_assert_eq(__vseg_vm_unbind(ctx.fd, VA_START), -EINVAL);
		/* and the range is free */
		vseg_vm_bind(ctx.fd, bind_bo, VA_START);
	}
	vseg_vm_unbind(ctx.fd, VA_START);
	witness_check("after VM_BIND");
}

static void test_vm_bind(void)
{
	struct fi_op op = {
		.name = "VM_BIND",
		.run = bind_run,
		.check = bind_check,
	};

	witness_everywhere();
	bind_bo = vseg_gem_create_simple(ctx.fd, BO_SIZE,
					 BIT(vram_id) | BIT(ctx.ap_id), 0);
	fi_sweep(&op);
	vseg_gem_close(ctx.fd, bind_bo);
}

/* --- CPU faults ------------------------------------------------------------- */

static uint32_t fault_bo, fault_from;
static volatile uint64_t *fault_ptr;

/*
 * A buffer in @fault_from, a hidden segment, filled before it moved there:
 * the fault moves it out.
 */
static void fault_prepare(void)
{
	struct drm_vseg_gem_create c;

	vseg_create_args(&c, BO_SIZE, BIT(fault_from) | BIT(ctx.ap_id), 0);
	vseg_create_prefer(&c, fault_from, 0);
	fault_bo = vseg_gem_create(ctx.fd, &c);
	/* filled in system memory, then moved where it starts */
	vseg_evict(ctx.fd, &fault_bo, 1);
	vseg_bo_fill_pattern(ctx.fd, fault_bo, BO_SIZE, 11);
	vseg_make_resident(ctx.fd, &fault_bo, 1);
	igt_assert_eq_u32(where(fault_bo), fault_from);
	fault_ptr = vseg_gem_mmap(ctx.fd, fault_bo, BO_SIZE, RW);
}

static void fault_read(void *arg)
{
	*(uint64_t *)arg = fault_ptr[BO_SIZE / 16];
}

/* One read: 0, or -EFAULT for SIGBUS. */
static int fault_run(void)
{
	uint64_t v = 0;

	return vseg_catch_sigbus(fault_read, &v) ? -EFAULT : 0;
}

static void fault_check(int ret, bool injected)
{
	int64_t bad;

	(void)injected;
	igt_assert_f(ret == 0, "the fault raised SIGBUS\n");
	bad = vseg_pattern_check((const void *)fault_ptr, BO_SIZE, 11);
	igt_assert_f(bad < 0, "faulted buffer differs at %" PRId64 "\n", bad);
	munmap((void *)fault_ptr, BO_SIZE);
	witness_check("after the fault");
	vseg_gem_close(ctx.fd, fault_bo);
}

static void test_fault(uint32_t from)
{
	struct fi_op op = {
		.name = "fault migrating out of a hidden segment",
		.prepare = fault_prepare,
		.run = fault_run,
		.check = fault_check,
	};

	witness_everywhere();
	fault_from = from;
	fi_sweep(&op);
}

/* --- several buffers at once: what "processed" says ------------------------ */

#define MULTI		3

static uint32_t multi_bo[MULTI], multi_from, multi_to, multi_flags;
static struct drm_vseg_residency multi_args;

static void multi_prepare(void)
{
	for (unsigned int i = 0; i < MULTI; i++) {
		struct drm_vseg_gem_create c;

		vseg_create_args(&c, BO_SIZE, BIT(vram_id) | BIT(ctx.ap_id), 0);
		vseg_create_prefer(&c, vram_id, 0);
		multi_bo[i] = vseg_gem_create(ctx.fd, &c);
		vseg_bo_fill_pattern(ctx.fd, multi_bo[i], BO_SIZE, 20 + i);
		if (!multi_from)
			vseg_evict(ctx.fd, &multi_bo[i], 1);
	}
	memset(&multi_args, 0, sizeof(multi_args));
	multi_args.handles = (uintptr_t)multi_bo;
	multi_args.count = MULTI;
	multi_args.flags = multi_flags;
	multi_args.processed = ~0u;
}

static int multi_run(void)
{
	return __vseg_residency(ctx.fd, multi_to ? DRM_IOCTL_VSEG_MAKE_RESIDENT :
					      DRM_IOCTL_VSEG_EVICT,
				&multi_args);
}

static void multi_check(int ret, bool injected)
{
	uint32_t done = ret ? multi_args.processed : MULTI;

	(void)injected;
	igt_assert_f(done <= MULTI, "processed %u of %u\n", done, MULTI);
	if (!ret)
		igt_assert_eq_u32(multi_args.processed, MULTI);
	for (unsigned int i = 0; i < MULTI; i++) {
		struct drm_vseg_gem_info info;
		uint32_t want = i < done ? multi_to : multi_from;
		bool pinned;

		vseg_gem_info(ctx.fd, multi_bo[i], &info);
		igt_assert_f(info.segment_id == want,
			     "%s, processed %u: buffer %u in %s, expected %s\n",
			     vseg_errname(ret), done, i,
			     vseg_ctx_seg_name(&ctx, info.segment_id),
			     vseg_ctx_seg_name(&ctx, want));
		pinned = info.placement_flags & DRM_VSEG_INFO_PINNED;
		igt_assert_f(pinned == (multi_flags && i < done),
			     "buffer %u (processed %u) %spinned\n", i, done,
			     pinned ? "" : "not ");
		if (pinned)
			igt_assert_eq(__vseg_evict_flags(ctx.fd, &multi_bo[i], 1,
							 DRM_VSEG_RESIDENCY_UNPIN,
							 NULL), 0);
		vseg_bo_check_pattern(ctx.fd, multi_bo[i], BO_SIZE, 20 + i,
				      "buffer of the list");
		vseg_gem_close(ctx.fd, multi_bo[i]);
	}
	witness_check("after the list");
}

static void test_multi(bool resident, uint32_t flags)
{
	struct fi_op op = {
		.name = resident ? "MAKE_RESIDENT of a list" :
				   "EVICT of a list",
		.prepare = multi_prepare,
		.run = multi_run,
		.check = multi_check,
	};

	witness_everywhere();
	multi_from = resident ? 0 : vram_id;
	multi_to = resident ? vram_id : 0;
	multi_flags = flags;
	fi_sweep(&op);
}

/* --- KMS show ------------------------------------------------------------------ */

static uint32_t scan_bo, scan_seg;

static void scanout_prepare(void)
{
	struct drm_vseg_gem_create c;

	vseg_create_args(&c, BO_SIZE, BIT(scan_seg) | BIT(ctx.ap_id),
			 DRM_VSEG_GEM_CREATE_PRIMARY);
	scan_bo = vseg_gem_create(ctx.fd, &c);
	vseg_bo_fill_pattern(ctx.fd, scan_bo, BO_SIZE, 30);
	vseg_evict(ctx.fd, &scan_bo, 1);
}

static int scanout_run(void)
{
	return __vseg_display_show(ctx.fd, 0, scan_bo);
}

static void scanout_check(int ret, bool injected)
{
	struct drm_vseg_gem_info info;
	struct vseg_display d;

	(void)injected;
	vseg_gem_info(ctx.fd, scan_bo, &info);
	vseg_debugfs_read_display(ctx.fd, &d);
	if (ret) {
		igt_assert_f(!d.head[0].on, "failed show turned head 0 on\n");
		igt_assert_f(!(info.placement_flags &
			       (DRM_VSEG_INFO_PINNED |
				DRM_VSEG_INFO_APERTURE_MAPPED)),
			     "failed show left the primary pinned or mapped (flags %#x)\n",
			     info.placement_flags);
	} else {
		igt_assert(d.head[0].on && d.head[0].buffer_id == info.buffer_id);
		igt_assert_eq_u32(info.segment_id, scan_seg);
		vseg_display_show(ctx.fd, 0, 0);
	}
	vseg_bo_check_pattern(ctx.fd, scan_bo, BO_SIZE, 30, "primary");
	vseg_gem_close(ctx.fd, scan_bo);
	witness_check("after the show");
}

static void test_scanout(uint32_t segment)
{
	struct fi_op op = {
		.name = "KMS show",
		.prepare = scanout_prepare,
		.run = scanout_run,
		.check = scanout_check,
		.enospc = true,
	};

	witness_everywhere();
	scan_seg = segment;
	fi_sweep(&op);
}

/* --- QUERY_SEGMENTS --------------------------------------------------------- */

static struct drm_vseg_segment_info query_segs[DRM_VSEG_MAX_SEGMENTS];
static struct drm_vseg_query_segments query_args, query_want;

static int query_run(void)
{
	memset(query_segs, 0xa5, sizeof(query_segs));
	query_args = query_want;
	return __vseg_query_segments(ctx.fd, &query_args);
}

static void query_check(int ret, bool injected)
{
	(void)injected;
	if (!ret) {
		igt_assert_eq_u32(query_args.num_segments, ctx.q.num_segments);
		for (unsigned int i = 0; i < ctx.q.num_segments; i++)
			igt_assert_eq_u32(query_segs[i].id, ctx.segs[i].id);
	} else {
		/* the UAPI: on error the argument is left as it was */
		igt_assert(!memcmp(&query_args, &query_want,
				   sizeof(query_args)));
	}
	witness_check("after QUERY_SEGMENTS");
}

static void test_query(void)
{
	struct fi_op op = {
		.name = "QUERY_SEGMENTS",
		.run = query_run,
		.check = query_check,
	};

	witness_everywhere();
	memset(&query_want, 0, sizeof(query_want));
	query_want.num_segments = ctx.q.num_segments;
	query_want.segment_size = sizeof(query_segs[0]);
	query_want.segments = (uintptr_t)query_segs;
	fi_sweep(&op);
}

/* --- opening the device --------------------------------------------------------- */

static char open_path[64];
static int open_fd;

static int open_run(void)
{
	open_fd = open(open_path, O_RDWR | O_CLOEXEC);
	return open_fd < 0 ? -errno : 0;
}

static void open_check(int ret, bool injected)
{
	(void)injected;
	if (!ret) {
		uint32_t h = vseg_gem_create_simple(open_fd, SZ_64K, BIT(ctx.ap_id), 0);

		vseg_gem_close(open_fd, h);
		close(open_fd);
	}
	witness_check("after open");
}

static void test_open(void)
{
	struct fi_op op = {
		.name = "open",
		.run = open_run,
		.check = open_check,
	};

	char link[64];
	ssize_t len;
	int fd;

	witness_everywhere();
	fd = drm_open_vseg_render();
	snprintf(link, sizeof(link), "/proc/self/fd/%d", fd);
	len = readlink(link, open_path, sizeof(open_path) - 1);
	igt_assert(len > 0);
	open_path[len] = '\0';
	close(fd);
	fi_sweep(&op);
}

/* --- probe ------------------------------------------------------------------ */

#define PROBE_DENSE	64
#define PROBE_BUDGET	30u

/* Every point up to PROBE_DENSE, then every @stride-th, phased by the seed. */
static unsigned int probe_next(unsigned int n, unsigned int stride,
			       unsigned int calls)
{
	if (n < PROBE_DENSE)
		return n + 1;
	if (n == PROBE_DENSE)
		return n + sweep_first(stride);
	return sweep_next(n, stride, calls);
}

static const char *probe_opts = "profile=discrete mem_size_mb=4,2 aperture_size_mb=8";

static void test_probe(void)
{
	unsigned int calls, left, stride, n, runs = 0, nodeless = 0;
	struct drm_vseg_query_segments q;
	struct drm_vseg_segment_info *segs;
	int err, fd;

	/* Another table to probe with, for a developer's run. */
	if (getenv("VSEG_PROBE_OPTS"))
		probe_opts = getenv("VSEG_PROBE_OPTS");
	igt_info("probe: loading with \"%s\"\n", probe_opts);

	/* The filter needs module addresses: vseg's own ones come later. */
	vseg_unload();
	fi_setup();
	/* Probe fails on purpose, on every allocation of its path. */
	igt_emit_ignore_dmesg_regex(PROBE_FAULT_DMESG);

	fi_arm(FI_COUNT);
	err = vseg_kmod_load(probe_opts);
	left = fi_disarm();
	igt_assert_f(err == 0, "load failed with nothing injected: %s\n",
		     strerror(-err));
	calls = FI_COUNT - left;
	igt_assert_f(calls > 0, "no allocation counted in probe\n");
	vseg_unload();

	/*
	 * Every one of the first PROBE_DENSE (registering the driver and the
	 * device, the start of probe), then PROBE_BUDGET more spread evenly.
	 */
	stride = (calls + PROBE_BUDGET - 1) / PROBE_BUDGET;
	for (n = 1;; n = probe_next(n, stride, calls)) {
		bool injected;

		fi_arm(n);
		err = vseg_kmod_load(probe_opts);
		injected = fi_disarm() == 0;
		runs++;
		/*
		 * -EINVAL: the driver core's own code when it cannot make
		 * the module's "drivers" directory in sysfs (bus_add_driver).
		 */
		igt_assert_f(!err || err == -ENOMEM || err == -EINVAL,
			     "load with allocation %u failed: %s\n", n,
			     strerror(-err));
		igt_assert_f(!err || injected, "load failed: %s\n",
			     strerror(-err));
		if (err) {
			igt_assert_f(!igt_kmod_is_loaded(VSEG_MODULE),
				     "failed load left the module loaded\n");
			igt_assert_eq(vseg_count_nodes(), 0);
		} else {
			fd = __drm_open_vseg();
			/*
			 * device_add() ignores devtmpfs failing to make the
			 * node: the device is there, without a /dev entry.
			 */
			if (fd < 0) {
				igt_assert_f(injected,
					     "loaded, but no vseg node\n");
				igt_assert(access("/sys/bus/platform/drivers/vseg/vseg",
						  F_OK) == 0);
				nodeless++;
			} else {
				segs = vseg_query_all(fd, &q);
				vseg_check_usage_zero(&q, segs);
				free(segs);
				close(fd);
			}
			vseg_unload();
		}
		if (!injected || n >= calls)
			break;
	}
	igt_info("probe: %u allocations, %u loads (%u without a /dev node)\n",
		 calls, runs, nodeless);
	/* and a load after all that works */
	vseg_ctx_load(&ctx, "discrete");
	finish();
}

igt_main
{
	static const char *opts =
		"discrete mem_size_mb=4,4 aperture_size_mb=16";

	igt_fixture {
		vseg_ctx_setup(&ctx);
		ctx.on_load = loaded;
		igt_require_f(fi_available(),
			      "no fault injection (failslab, fail_page_alloc, fail-nth) in this kernel\n");
		sweep_seed = vseg_test_seed(0);
	}

	igt_describe("GEM_CREATE in system memory, a memory segment, the "
		     "aperture (AccessedPhysically) with each allocation on "
		     "its path failed in turn.");
	igt_subtest_with_dynamic("create") {
		vseg_ctx_load(&ctx, opts);
		igt_dynamic("system")
			test_create(0, 0);
		witness_close();
		igt_dynamic("vram")
			test_create(vram_id, 0);
		witness_close();
		igt_dynamic("local")
			test_create(local_id, 0);
		witness_close();
		igt_dynamic("aperture")
			test_create(ctx.ap_id, AP_FLAG);
		finish();
	}

	igt_describe("MAKE_RESIDENT from system memory into each segment, "
		     "EVICT back, with each allocation failed in turn: the "
		     "buffer is where the result says, its data intact.");
	igt_subtest_with_dynamic("move") {
		vseg_ctx_load(&ctx, opts);
		igt_dynamic("resident-vram")
			test_move(true, vram_id, 0);
		witness_close();
		igt_dynamic("resident-local")
			test_move(true, local_id, 0);
		witness_close();
		igt_dynamic("resident-aperture")
			test_move(true, ctx.ap_id, AP_FLAG);
		witness_close();
		igt_dynamic("evict-vram")
			test_move(false, vram_id, 0);
		witness_close();
		igt_dynamic("evict-local")
			test_move(false, local_id, 0);
		witness_close();
		igt_dynamic("evict-aperture")
			test_move(false, ctx.ap_id, AP_FLAG);
		finish();
	}

	igt_describe("MAKE_RESIDENT (with and without PIN) and EVICT of a "
		     "list of buffers with each allocation failed in turn: "
		     "the first \"processed\" moved, the others not.");
	igt_subtest_with_dynamic("move-list") {
		vseg_ctx_load(&ctx, opts);
		igt_dynamic("resident")
			test_multi(true, 0);
		witness_close();
		igt_dynamic("resident-pin")
			test_multi(true, DRM_VSEG_RESIDENCY_PIN);
		witness_close();
		igt_dynamic("evict")
			test_multi(false, 0);
		finish();
	}

	igt_describe("showing through KMS an evicted primary, which maps it into the "
		     "aperture or moves it into a memory segment, with each "
		     "allocation failed in turn: on failure the head stays "
		     "off and the primary unpinned.");
	igt_subtest_with_dynamic("scanout") {
		vseg_ctx_load(&ctx, opts);
		igt_dynamic("aperture")
			test_scanout(ctx.ap_id);
		witness_close();
		igt_dynamic("vram")
			test_scanout(vram_id);
		finish();
	}

	igt_describe("QUERY_SEGMENTS with each allocation failed in turn.");
	igt_subtest("query") {
		vseg_ctx_load(&ctx, opts);
		test_query();
		finish();
	}

	igt_describe("Opening the render node with each allocation failed "
		     "in turn.");
	igt_subtest("open") {
		vseg_ctx_load(&ctx, opts);
		test_open();
		finish();
	}

	igt_describe("GEM_CREATE into a full segment, evicting other buffers "
		     "to system memory, with each allocation failed in turn.");
	igt_subtest("evict-pressure") {
		vseg_ctx_load(&ctx, opts);
		test_pressure();
		finish();
	}

	igt_describe("SUBMIT a FILL on the copy and render engines, of a "
		     "resident and of an evicted buffer, with each allocation "
		     "failed in turn: no fence on failure, the data filled on "
		     "success.");
	igt_subtest_with_dynamic("submit") {
		vseg_ctx_load(&ctx, opts);
		igt_dynamic("copy")
			test_submit(COPY, false, false);
		witness_close();
		igt_dynamic("copy-evicted")
			test_submit(COPY, true, false);
		witness_close();
		igt_dynamic("copy-syncs")
			test_submit(COPY, false, true);
		witness_close();
		igt_dynamic("render")
			test_submit(RENDER, false, false);
		witness_close();
		igt_dynamic("render-evicted")
			test_submit(RENDER, true, false);
		finish();
	}

	igt_describe("VM_BIND with each allocation failed in turn: nothing "
		     "stays mapped on failure.");
	igt_subtest("vm-bind") {
		vseg_ctx_load(&ctx, opts);
		test_vm_bind();
		finish();
	}

	igt_describe("CPU faults migrating out of a segment the CPU cannot "
		     "see, with each allocation failed in turn.");
	igt_subtest_with_dynamic("mmap-fault") {
		vseg_ctx_load(&ctx, opts);
		igt_dynamic("local")
			test_fault(local_id);
		finish();
	}

	igt_describe("Load the module with each allocation of its probe "
		     "failed in turn: the load fails with -ENOMEM and leaves "
		     "nothing behind, then a load works.");
	igt_subtest("probe")
		test_probe();
}
