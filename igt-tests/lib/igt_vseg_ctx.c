// SPDX-License-Identifier: MIT
/*
 * A test's device, segment table and starting point.
 *
 * Copyright (c) 2026 The vseg authors
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "igt.h"
#include "igt_vseg.h"

static struct vseg_ctx *exit_ctx;

static void vseg_ctx_exit_handler(int sig)
{
	(void)sig;
	if (exit_ctx)
		vseg_ctx_close(exit_ctx);
	if (igt_kmod_is_loaded(VSEG_MODULE))
		igt_kmod_unload(VSEG_MODULE);
}

void vseg_ctx_install_exit_handler(struct vseg_ctx *ctx)
{
	igt_assert(!exit_ctx || exit_ctx == ctx);
	exit_ctx = ctx;
	igt_install_exit_handler(vseg_ctx_exit_handler);
}

void vseg_ctx_setup(struct vseg_ctx *ctx)
{
	vseg_require_module();
	vseg_ctx_install_exit_handler(ctx);
}

void vseg_ctx_close(struct vseg_ctx *ctx)
{
	if (ctx->fd >= 0)
		drm_close_driver(ctx->fd);
	ctx->fd = -1;
}

void vseg_ctx_reload(struct vseg_ctx *ctx, const char *profile)
{
	char opts[1024];

	vseg_ctx_close(ctx);
	snprintf(opts, sizeof(opts), "profile=%s", profile);
	vseg_reload(opts);
	ctx->fd = drm_open_vseg();
}

void vseg_ctx_query(struct vseg_ctx *ctx)
{
	free(ctx->segs);
	ctx->segs = vseg_query_all(ctx->fd, &ctx->q);
	ctx->ap_id = vseg_aperture_id(&ctx->q, ctx->segs);
}

void vseg_ctx_take_base(struct vseg_ctx *ctx)
{
	vseg_usage_read(ctx->fd, &ctx->base_usage);
	if (ctx->leftovers == VSEG_LEFTOVERS_BASE_COUNT)
		ctx->base_count = vseg_allocation_count(ctx->fd);
}

void vseg_ctx_load(struct vseg_ctx *ctx, const char *profile)
{
	if (ctx->before_load)
		ctx->before_load();
	vseg_ctx_close(ctx);
	free(ctx->segs);
	ctx->segs = NULL;
	vseg_ctx_reload(ctx, profile);
	if (ctx->engine)
		vseg_require_engine(ctx->fd);
	vseg_ctx_query(ctx);
	vseg_ctx_take_base(ctx);
	if (ctx->on_load)
		ctx->on_load();
}

void vseg_ctx_load_f(struct vseg_ctx *ctx, const char *fmt, ...)
{
	char opts[1024];
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(opts, sizeof(opts), fmt, ap);
	va_end(ap);
	igt_assert(n > 0 && (size_t)n < sizeof(opts));
	vseg_ctx_load(ctx, opts);
}

void vseg_ctx_start(struct vseg_ctx *ctx)
{
	vseg_ctx_close(ctx);
	ctx->fd = drm_open_vseg();
	vseg_ctx_take_base(ctx);
}

/* Do the buffers listed in debugfs "allocations" match ctx->leftovers? */
static bool leftovers_ok(const struct vseg_ctx *ctx,
			 const struct vseg_allocations *a)
{
	switch (ctx->leftovers) {
	case VSEG_LEFTOVERS_BASE_COUNT:
		return a->num == ctx->base_count;
	case VSEG_LEFTOVERS_NONE_OURS:
		for (unsigned int i = 0; i < a->num; i++)
			if (a->bo[i].pid == getpid())
				return false;
		return true;
	case VSEG_LEFTOVERS_NONE:
		return a->num == 0;
	}
	return false;
}

void vseg_ctx_finish(struct vseg_ctx *ctx, const char *what)
{
	struct vseg_usage_snapshot now;
	struct timespec start = {};
	struct vseg_allocations a;

	/*
	 * TTM destroys a closed buffer a little after its memory is
	 * uncharged (deferred destruction of busy buffers), and jobs drop
	 * their buffers when they are retired, a little after their fences
	 * signal: wait for both the usage and the listing.
	 */
	igt_gettime(&start);
	for (;;) {
		bool done;

		vseg_usage_read_now(ctx->fd, &now);
		vseg_debugfs_read_allocations(ctx->fd, &a);
		done = vseg_usage_equal(&now, &ctx->base_usage) &&
		       leftovers_ok(ctx, &a);
		if (done || igt_nsec_elapsed(&start) >=
			    VSEG_CTX_FINISH_MS * 1000000ull)
			break;
		vseg_debugfs_free_allocations(&a);
		usleep(10000);
	}
	vseg_usage_assert(ctx->fd, &ctx->base_usage, what);
	switch (ctx->leftovers) {
	case VSEG_LEFTOVERS_BASE_COUNT:
		igt_assert_f(a.num == ctx->base_count,
			     "%s: %u buffers left in debugfs allocations, expected %u\n",
			     what, a.num, ctx->base_count);
		break;
	case VSEG_LEFTOVERS_NONE_OURS:
		for (unsigned int i = 0; i < a.num; i++)
			igt_assert_f(a.bo[i].pid != getpid(),
				     "%s: buffer %llu is still listed\n", what,
				     (unsigned long long)a.bo[i].buffer_id);
		break;
	case VSEG_LEFTOVERS_NONE:
		igt_assert_f(a.num == 0,
			     "%s: %u buffers left in debugfs allocations\n",
			     what, a.num);
		break;
	}
	vseg_debugfs_free_allocations(&a);
	vseg_ctx_close(ctx);
}

void vseg_ctx_subtests(struct vseg_ctx *ctx, const char *profile,
		       const struct vseg_subtest *tests, unsigned int n,
		       const char *what)
{
	for (const struct vseg_subtest *t = tests; t < tests + n; t++) {
		igt_describe(t->describe);
		igt_subtest_f("%s", t->name) {
			vseg_ctx_load(ctx, profile);
			t->test();
			vseg_ctx_finish(ctx, what);
		}
	}
}

void vseg_ctx_unload(struct vseg_ctx *ctx)
{
	vseg_ctx_close(ctx);
	free(ctx->segs);
	ctx->segs = NULL;
	vseg_unload();
}

const struct drm_vseg_segment_info *
vseg_ctx_seg(const struct vseg_ctx *ctx, uint32_t id)
{
	return vseg_segment(&ctx->q, ctx->segs, id);
}

uint64_t vseg_ctx_gpu_addr(const struct vseg_ctx *ctx, uint32_t id,
			   uint64_t offset)
{
	igt_assert_f(id, "system memory has no GPU physical address\n");
	return vseg_ctx_seg(ctx, id)->base_address + offset;
}

bool vseg_ctx_is_memory(const struct vseg_ctx *ctx, uint32_t id)
{
	return id &&
	       vseg_ctx_seg(ctx, id)->kind == DRM_VSEG_SEGMENT_KIND_MEMORY;
}

bool vseg_ctx_set_holds(const struct vseg_ctx *ctx, uint32_t set, uint32_t id)
{
	if (id == 0)
		return set & (1u << ctx->ap_id);
	return id < 32 && (set & (1u << id));
}

const char *vseg_ctx_seg_name(const struct vseg_ctx *ctx, uint32_t id)
{
	return id ? vseg_ctx_seg(ctx, id)->name : "system";
}

uint32_t vseg_ctx_memory_segments(const struct vseg_ctx *ctx)
{
	uint32_t mask = 0;

	for (uint32_t id = 1; id <= ctx->q.num_segments; id++)
		if (vseg_ctx_is_memory(ctx, id))
			mask |= VSEG_SEG_BIT(id);
	return mask;
}

bool vseg_ctx_cpu_visible(const struct vseg_ctx *ctx, uint32_t id)
{
	return !vseg_ctx_is_memory(ctx, id) ||
	       vseg_ctx_seg(ctx, id)->cpu_visible_size ==
	       vseg_ctx_seg(ctx, id)->size;
}

uint32_t vseg_test_seed(uint32_t fallback)
{
	const char *env = getenv("VSEG_SEED");
	uint32_t seed;

	seed = env ? strtoul(env, NULL, 0) : fallback;
	igt_info("seed %u (set VSEG_SEED to repeat)\n", seed);
	return seed;
}
