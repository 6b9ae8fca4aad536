// SPDX-License-Identifier: MIT
/*
 * vseg_trace: vseg's tracepoints, read through a tracefs instance of the
 * test's own: a scripted sequence (create, evict, make resident, eviction
 * under pressure, a job, an aperture mapping, close) shows its events in
 * order, with the right fields.
 *
 * Copyright (c) 2026 The vseg authors
 */
/**
 * TEST: vseg trace
 * Category: Core
 * Mega feature: General Core features
 * Sub-category: Memory management
 * Functionality: tracepoints
 * Description: vseg's tracepoints in tracefs show the events of a scripted
 *	sequence of buffer, residency and engine operations in order.
 *
 * SUBTEST: events
 * Description: Every vseg event is listed in tracefs with its format, and
 *	can be enabled and disabled in an instance.
 *
 * SUBTEST: sequence
 * Description: Create, EVICT, MAKE_RESIDENT, an eviction by another
 *	buffer's creation, a copy-engine job on an evicted buffer, an aperture
 *	mapping and the closes trace vseg_bo_create, vseg_residency,
 *	vseg_bo_move (with each move's segments, bytes and reason),
 *	vseg_job_queue/run/done (one fence context and seqno),
 *	vseg_gart_map/unmap and vseg_bo_destroy, in that order (the last
 *	buffers' destruction in any order).
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "igt.h"
#include "igt_vseg.h"

IGT_TEST_DESCRIPTION("vseg's tracepoints in tracefs show the events of a "
		     "scripted sequence of buffer, residency and engine "
		     "operations in order.");

#define MAX_LINES	20000

static struct vseg_ctx ctx = VSEG_CTX_INIT_ENGINE(VSEG_LEFTOVERS_NONE_OURS);
static char tracefs[64];
static char inst[128];

static const char * const events[] = {
	"vseg_bo_create", "vseg_bo_destroy", "vseg_bo_move", "vseg_gart_map",
	"vseg_gart_unmap", "vseg_residency", "vseg_job_queue", "vseg_job_run",
	"vseg_job_done",
};

/* The trace: one event per entry, "name" and its "key=value ..." fields. */
static struct {
	unsigned int n;
	char *name[MAX_LINES];
	char *fields[MAX_LINES];
} tr;

static void find_tracefs(void)
{
	static const char * const where[] = {
		"/sys/kernel/tracing", "/sys/kernel/debug/tracing",
	};
	char path[96];
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(where); i++) {
		snprintf(path, sizeof(path), "%s/instances", where[i]);
		if (!access(path, W_OK)) {
			snprintf(tracefs, sizeof(tracefs), "%s", where[i]);
			return;
		}
	}
	igt_skip("tracefs is not mounted (or has no instances)\n");
}

static void write_file(const char *dir, const char *file, const char *what)
{
	char path[256];
	int fd;

	snprintf(path, sizeof(path), "%s/%s", dir, file);
	fd = open(path, O_WRONLY | O_TRUNC);
	igt_assert_f(fd >= 0, "%s: %s\n", path, strerror(errno));
	igt_assert_f(write(fd, what, strlen(what)) == (ssize_t)strlen(what),
		     "%s: %s\n", path, strerror(errno));
	close(fd);
}

/* A trace instance of our own: other tracing users are left alone. */
static void instance_create(void)
{
	snprintf(inst, sizeof(inst), "%s/instances/vseg_igt_%d", tracefs,
		 (int)getpid());
	igt_assert_f(!mkdir(inst, 0700) || errno == EEXIST, "%s: %s\n", inst,
		     strerror(errno));
	write_file(inst, "buffer_size_kb", "4096");
}

static void instance_enable(bool on)
{
	write_file(inst, "events/vseg/enable", on ? "1" : "0");
}

/* Events enabled hold the module: disable them before it is unloaded. */
static void instance_remove(void)
{
	if (!inst[0])
		return;
	instance_enable(false);
	igt_assert_f(!rmdir(inst), "%s: %s\n", inst, strerror(errno));
	inst[0] = '\0';
}

static void trace_free(void)
{
	unsigned int i;

	for (i = 0; i < tr.n; i++) {
		free(tr.name[i]);
		free(tr.fields[i]);
	}
	tr.n = 0;
}

/* Read the instance's trace into tr. */
static void trace_read(void)
{
	char path[256], line[1024];
	FILE *f;

	trace_free();
	snprintf(path, sizeof(path), "%s/trace", inst);
	f = fopen(path, "r");
	igt_assert_f(f, "%s: %s\n", path, strerror(errno));
	while (fgets(line, sizeof(line), f)) {
		char *ev, *colon;

		if (line[0] == '#')
			continue;
		line[strcspn(line, "\n")] = '\0';
		ev = strstr(line, ": vseg_");
		if (!ev)
			continue;
		ev += 2;
		colon = strchr(ev, ':');
		igt_assert_f(colon, "no fields: %s\n", line);
		*colon = '\0';
		igt_assert(tr.n < MAX_LINES);
		tr.name[tr.n] = strdup(ev);
		tr.fields[tr.n] = strdup(colon + 1);
		tr.n++;
	}
	fclose(f);
	igt_info("%u vseg events traced\n", tr.n);
}

/* Does @fields hold each "key=value" of @want (space-separated)? */
static bool fields_match(const char *fields, const char *want)
{
	char w[256], *tok, *save = NULL;

	snprintf(w, sizeof(w), "%s", want);
	for (tok = strtok_r(w, " ", &save); tok;
	     tok = strtok_r(NULL, " ", &save)) {
		const char *p = fields;
		size_t len = strlen(tok);
		bool found = false;

		while ((p = strstr(p, tok))) {
			if ((p == fields || p[-1] == ' ') &&
			    (p[len] == ' ' || p[len] == '\0')) {
				found = true;
				break;
			}
			p++;
		}
		if (!found)
			return false;
	}
	return true;
}

/*
 * The index of the first event @name at or after @from whose fields hold
 * those of @fmt; asserts there is one.
 */
__attribute__((format(printf, 3, 4)))
static unsigned int expect(unsigned int from, const char *name,
			   const char *fmt, ...)
{
	char want[256];
	unsigned int i;
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(want, sizeof(want), fmt, ap);
	va_end(ap);
	for (i = from; i < tr.n; i++)
		if (!strcmp(tr.name[i], name) && fields_match(tr.fields[i], want))
			return i;
	for (i = 0; i < tr.n; i++)
		igt_info("%u: %s:%s\n", i, tr.name[i], tr.fields[i]);
	igt_assert_f(false, "no %s with \"%s\" after event %u\n", name, want,
		     from);
	return 0;
}

/* The unsigned value of @key in the fields of event @i. */
static uint64_t field(unsigned int i, const char *key)
{
	char pat[64];
	const char *p;

	snprintf(pat, sizeof(pat), " %s=", key);
	p = strstr(tr.fields[i], pat);
	igt_assert_f(p, "event %u (%s) has no %s\n", i, tr.name[i], key);
	return strtoull(p + strlen(pat), NULL, 0);
}

/*
 * The GART map of a range of @bytes from event @from on: the paging engine
 * maps a buffer one run of physically contiguous pages at a time, one
 * event each, the runs following each other in the aperture. The index
 * of the range's first event.
 */
static unsigned int expect_gart_map(unsigned int from, uint64_t bytes)
{
	unsigned int first = expect(from, "vseg_gart_map", "%s", ""), i;
	uint64_t at = field(first, "offset"), done = 0;

	for (i = first; i < tr.n && done < bytes; i++) {
		if (strcmp(tr.name[i], "vseg_gart_map"))
			continue;
		igt_assert_f(field(i, "offset") == at + done,
			     "GART run at %#" PRIx64 ", expected %#" PRIx64 "\n",
			     field(i, "offset"), at + done);
		done += field(i, "bytes");
	}
	igt_assert_f(done == bytes,
		     "GART runs from %#" PRIx64 " map %" PRIu64 " bytes, expected %" PRIu64 "\n",
		     at, done, bytes);
	return first;
}

static uint64_t buffer_id(uint32_t handle)
{
	struct drm_vseg_gem_info info;

	vseg_gem_info(ctx.fd, handle, &info);
	return info.buffer_id;
}

static void test_events(void)
{
	char path[256];
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(events); i++) {
		snprintf(path, sizeof(path), "%s/events/vseg/%s/format",
			 tracefs, events[i]);
		igt_assert_f(!access(path, R_OK), "no %s\n", path);
	}
	instance_create();
	instance_enable(true);
	for (i = 0; i < ARRAY_SIZE(events); i++) {
		char file[256], buf[4] = "";
		int fd;

		snprintf(file, sizeof(file), "%s/events/vseg/%s/enable", inst,
			 events[i]);
		fd = open(file, O_RDONLY);
		igt_assert(fd >= 0);
		igt_assert(read(fd, buf, sizeof(buf) - 1) > 0);
		close(fd);
		igt_assert_f(buf[0] == '1', "%s is not enabled\n", events[i]);
	}
	instance_remove();
}

static void test_sequence(void)
{
	const uint32_t vram = 1, local = 2, ap = ctx.ap_id;
	struct drm_vseg_gem_create c;
	uint32_t a, big, job_bo, gart_bo;
	uint64_t a_id, big_id, job_id, gart_id, ctxid, seqno;
	struct vseg_cmdbuf cb;
	unsigned int i, j, m;

	igt_assert_eq_u32(vseg_ctx_seg(&ctx, vram)->size, SZ_32M);
	instance_create();
	write_file(inst, "trace", "");
	instance_enable(true);

	/* 1 MiB in vram (or system memory). */
	vseg_create_args(&c, SZ_1M, 1u << vram | 1u << ap, 0);
	vseg_create_prefer(&c, vram, 0);
	a = vseg_gem_create(ctx.fd, &c);
	a_id = buffer_id(a);
	vseg_evict(ctx.fd, &a, 1);
	vseg_make_resident(ctx.fd, &a, 1);

	/* All of vram, nowhere else: a is evicted to make room. */
	vseg_create_args(&c, SZ_32M, 1u << vram, 0);
	big = vseg_gem_create(ctx.fd, &c);
	big_id = buffer_id(big);
	vseg_gem_close(ctx.fd, big);

	/* A job on a buffer evicted first: it moves back for the job. */
	vseg_create_args(&c, SZ_1M, 1u << local | 1u << ap,
			 DRM_VSEG_GEM_CREATE_ACCESSED_PHYSICALLY);
	vseg_create_prefer(&c, local, 0);
	job_bo = vseg_gem_create(ctx.fd, &c);
	job_id = buffer_id(job_bo);
	vseg_evict(ctx.fd, &job_bo, 1);
	vseg_cb_init(&cb);
	vseg_cb_fill_phys(&cb, job_bo, 0, SZ_1M, 0x12345678);
	vseg_cb_exec_ok(ctx.fd, DRM_VSEG_ENGINE_COPY, &cb, "traced job");
	vseg_cb_fini(&cb);

	/* Physically accessed in the aperture: mapped into the GART. */
	vseg_create_args(&c, SZ_256K, 1u << ap,
			 DRM_VSEG_GEM_CREATE_ACCESSED_PHYSICALLY);
	gart_bo = vseg_gem_create(ctx.fd, &c);
	gart_id = buffer_id(gart_bo);
	vseg_gem_close(ctx.fd, gart_bo);

	vseg_gem_close(ctx.fd, job_bo);
	vseg_gem_close(ctx.fd, a);
	/* Closed buffers go once their last job and move are done. */
	vseg_usage_wait(ctx.fd, &ctx.base_usage, VSEG_USAGE_SETTLE_MS,
			"after the closes");
	instance_enable(false);
	trace_read();

	i = expect(0, "vseg_bo_create", "bo=%" PRIu64 " size=%u seg=%u",
		   a_id, SZ_1M, vram);
	i = expect(i, "vseg_bo_move",
		   "bo=%" PRIu64 " from=%u to=0 bytes=%u reason=residency",
		   a_id, vram, SZ_1M);
	i = expect(i, "vseg_residency", "op=evict count=1 done=1 ret=0");
	i = expect(i, "vseg_bo_move",
		   "bo=%" PRIu64 " from=0 to=%u bytes=%u reason=residency",
		   a_id, vram, SZ_1M);
	i = expect(i, "vseg_residency", "op=make_resident count=1 done=1 ret=0");
	i = expect(i, "vseg_bo_move",
		   "bo=%" PRIu64 " from=%u bytes=%u reason=eviction",
		   a_id, vram, SZ_1M);
	i = expect(i, "vseg_bo_move",
		   "bo=%" PRIu64 " to=%u bytes=%u reason=create",
		   big_id, vram, SZ_32M);
	i = expect(i, "vseg_bo_destroy", "bo=%" PRIu64 " size=%u", big_id,
		   SZ_32M);

	i = expect(i, "vseg_bo_create", "bo=%" PRIu64 " seg=%u", job_id,
		   local);
	i = expect(i, "vseg_bo_move",
		   "bo=%" PRIu64 " from=%u to=0 reason=residency", job_id,
		   local);
	j = expect(i, "vseg_bo_move",
		   "bo=%" PRIu64 " from=0 reason=submission", job_id);
	i = expect(j, "vseg_job_queue", "engine=0 error=0");
	ctxid = field(i, "ctx");
	seqno = field(i, "seqno");
	i = expect(i, "vseg_job_run",
		   "engine=0 ctx=%" PRIu64 " seqno=%" PRIu64 " error=0", ctxid,
		   seqno);
	i = expect(i, "vseg_job_done",
		   "engine=0 ctx=%" PRIu64 " seqno=%" PRIu64 " error=0", ctxid,
		   seqno);

	/*
	 * Mapped by the paging engine, which may run before or after the
	 * create event; unmapped once, before it is destroyed.
	 */
	j = expect(i, "vseg_bo_create", "bo=%" PRIu64 " seg=%u", gart_id, ap);
	m = expect_gart_map(i, SZ_256K);
	m = expect(m, "vseg_gart_unmap", "offset=%#" PRIx64 " bytes=%u",
		   field(m, "offset"), SZ_256K);
	igt_assert(expect(m, "vseg_bo_destroy", "bo=%" PRIu64, gart_id) > j);
	for (m++; m < tr.n; m++)
		igt_assert_f(strcmp(tr.name[m], "vseg_gart_unmap"),
			     "the aperture range was unmapped twice\n");
	/* Closed last, in any order (TTM may free them a little later). */
	expect(j, "vseg_bo_destroy", "bo=%" PRIu64 " size=%u", job_id, SZ_1M);
	expect(j, "vseg_bo_destroy", "bo=%" PRIu64 " size=%u", a_id, SZ_1M);

	trace_free();
	instance_remove();
}

igt_main
{
	igt_fixture {
		vseg_ctx_setup(&ctx);
		find_tracefs();
	}

	igt_describe("Every vseg event is in tracefs and can be enabled.");
	igt_subtest("events") {
		instance_remove();
		vseg_ctx_load(&ctx, "discrete");
		test_events();
		vseg_ctx_finish(&ctx, "events");
	}

	igt_describe("A scripted sequence traces its events in order.");
	igt_subtest("sequence") {
		instance_remove();
		vseg_ctx_load(&ctx, "discrete");
		test_sequence();
		vseg_ctx_finish(&ctx, "sequence");
	}

	igt_fixture {
		instance_remove();
		vseg_ctx_unload(&ctx);
	}
}
