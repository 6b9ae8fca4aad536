/* SPDX-License-Identifier: MIT */
/*
 * A test's device, segment table and starting point.
 *
 * Copyright (c) 2026 The vseg authors
 */
#ifndef IGT_VSEG_CTX_H
#define IGT_VSEG_CTX_H

#include <stdbool.h>
#include <stdint.h>

#include "igt_vseg_usage.h"
#include "vseg_drm.h"

/**
 * enum vseg_leftovers - what vseg_ctx_finish() asserts of "allocations"
 * @VSEG_LEFTOVERS_BASE_COUNT: as many buffers are listed as when the base
 *	was taken (vseg_ctx_load() and vseg_ctx_start() count them).
 * @VSEG_LEFTOVERS_NONE_OURS: no buffer of this process is listed.
 * @VSEG_LEFTOVERS_NONE: no buffer at all is listed.
 */
enum vseg_leftovers {
	VSEG_LEFTOVERS_BASE_COUNT,
	VSEG_LEFTOVERS_NONE_OURS,
	VSEG_LEFTOVERS_NONE,
};

/**
 * struct vseg_ctx - the device a test works on and what it started from
 * @fd: the vseg card node, or -1.
 * @q: the segment query of @segs.
 * @segs: the queried segment table (malloc()ed), or NULL.
 * @ap_id: id of the aperture segment of @segs.
 * @base_usage: the usage when the base was taken; vseg_ctx_finish() waits
 *	for it again.
 * @base_count: buffers listed in debugfs "allocations" when the base was
 *	taken (with VSEG_LEFTOVERS_BASE_COUNT only; else 0).
 * @leftovers: what vseg_ctx_finish() checks; set with VSEG_CTX_INIT().
 * @engine: the test needs the engines: vseg_ctx_load() skips without them;
 *	set with VSEG_CTX_INIT_ENGINE().
 * @before_load: if set, called first by vseg_ctx_load(), before the
 *	module goes: what a program must release for it to unload (processes
 *	a failed subtest left holding the device).
 * @on_load: if set, called by vseg_ctx_load() once the table is queried,
 *	for what a program derives from it.
 */
struct vseg_ctx {
	int fd;
	struct drm_vseg_query_segments q;
	struct drm_vseg_segment_info *segs;
	uint32_t ap_id;
	struct vseg_usage_snapshot base_usage;
	unsigned int base_count;
	enum vseg_leftovers leftovers;
	bool engine;
	void (*before_load)(void);
	void (*on_load)(void);
};

#define VSEG_CTX_INIT(check) { .fd = -1, .leftovers = (check) }
#define VSEG_CTX_INIT_ENGINE(check) \
	{ .fd = -1, .leftovers = (check), .engine = true }

/* How long vseg_ctx_finish() waits for the kernel to release everything. */
#define VSEG_CTX_FINISH_MS	20000

/*
 * Install an igt exit handler that closes @ctx's fd and unloads vseg if it
 * is loaded (one context per process).
 */
void vseg_ctx_install_exit_handler(struct vseg_ctx *ctx);
/*
 * A test program's first fixture: igt_require() the module (and root),
 * and vseg_ctx_install_exit_handler().
 */
void vseg_ctx_setup(struct vseg_ctx *ctx);
/* Close @ctx->fd if it is open. */
void vseg_ctx_close(struct vseg_ctx *ctx);
/*
 * Close @ctx->fd, reload vseg with "profile=@profile" and open the device;
 * @profile may be followed by more module options ("discrete table=...").
 */
void vseg_ctx_reload(struct vseg_ctx *ctx, const char *profile);
/* Query the segment table of @ctx->fd into @ctx (and the aperture id). */
void vseg_ctx_query(struct vseg_ctx *ctx);
/*
 * Take the base: the usage now (and the "allocations" count, with
 * VSEG_LEFTOVERS_BASE_COUNT).
 */
void vseg_ctx_take_base(struct vseg_ctx *ctx);
/*
 * vseg_ctx_reload(), vseg_ctx_query() and vseg_ctx_take_base(); with
 * @ctx->engine, igt_require() the engines; then @ctx->on_load().
 */
void vseg_ctx_load(struct vseg_ctx *ctx, const char *profile);
/* vseg_ctx_load() with the profile and options printed from @fmt. */
__attribute__((format(printf, 2, 3)))
void vseg_ctx_load_f(struct vseg_ctx *ctx, const char *fmt, ...);
/* Reopen the device (a file of its own) and take the base again. */
void vseg_ctx_start(struct vseg_ctx *ctx);
/*
 * Wait up to VSEG_CTX_FINISH_MS for the usage to be back to the base and
 * "allocations" to be as @ctx->leftovers says (the kernel releases buffers
 * of closed files and retired jobs a little later), assert both (@what
 * names the situation), close the fd.
 */
void vseg_ctx_finish(struct vseg_ctx *ctx, const char *what);
/**
 * struct vseg_subtest - a subtest that runs alone on a freshly loaded device
 * @name: its name.
 * @test: what it does, between vseg_ctx_load() and vseg_ctx_finish().
 * @describe: what igt_describe() says of it.
 */
struct vseg_subtest {
	const char *name;
	void (*test)(void);
	const char *describe;
};

/*
 * One igt_subtest() for each of the @n @tests: vseg_ctx_load(@ctx,
 * @profile), the test, then vseg_ctx_finish(@ctx, @what).
 */
void vseg_ctx_subtests(struct vseg_ctx *ctx, const char *profile,
		       const struct vseg_subtest *tests, unsigned int n,
		       const char *what);
/* Close the fd, free the table and unload vseg (asserting it is gone). */
void vseg_ctx_unload(struct vseg_ctx *ctx);
/* Segment @id of @ctx's table (asserts it exists). */
const struct drm_vseg_segment_info *
vseg_ctx_seg(const struct vseg_ctx *ctx, uint32_t id);
/*
 * The GPU physical address of (segment @id, @offset): the segment's base
 * address + @offset. @id is a segment of the table, not 0 (system memory
 * has no GPU physical address).
 */
uint64_t vseg_ctx_gpu_addr(const struct vseg_ctx *ctx, uint32_t id,
			   uint64_t offset);
/* Is @id a memory segment (0, system memory, is not)? */
bool vseg_ctx_is_memory(const struct vseg_ctx *ctx, uint32_t id);
/* The name of segment @id, "system" for 0. */
const char *vseg_ctx_seg_name(const struct vseg_ctx *ctx, uint32_t id);
/*
 * Is segment @id a place of a buffer created with supported set @set? The
 * aperture's bit names system memory: segment 0 is a place whenever it is
 * in @set.
 */
bool vseg_ctx_set_holds(const struct vseg_ctx *ctx, uint32_t set, uint32_t id);
/* The set of memory segments of @ctx's table (bit @id for segment @id). */
uint32_t vseg_ctx_memory_segments(const struct vseg_ctx *ctx);
/* Can the CPU see all of segment @id (system memory and the aperture too)? */
bool vseg_ctx_cpu_visible(const struct vseg_ctx *ctx, uint32_t id);

/*
 * The seed of a randomized test: $VSEG_SEED if it is set, else @fallback;
 * logged with igt_info() so that a run can be repeated.
 */
uint32_t vseg_test_seed(uint32_t fallback);

#endif /* IGT_VSEG_CTX_H */
