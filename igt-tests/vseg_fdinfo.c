// SPDX-License-Identifier: MIT
/*
 * vseg_fdinfo: the drm-* keys of /proc/<pid>/fdinfo/<fd> of a vseg file
 * (Documentation/gpu/drm-usage-stats.rst): each segment's bytes match
 * GEM_INFO and the segment usage of QUERY_SEGMENTS, after moves and
 * evictions; engine time grows with the work a file submits; one file
 * never sees another's buffers or work.
 *
 * Copyright (c) 2026 The vseg authors
 */
/**
 * TEST: vseg fdinfo
 * Category: Core
 * Mega feature: General Core features
 * Sub-category: Memory management
 * Functionality: fdinfo
 * Description: The per-file memory and engine statistics of vseg in
 *	fdinfo, checked against GEM_INFO and QUERY_SEGMENTS.
 *
 * SUBTEST: format
 * Description: Every line is "key:<tab>value" with a unique key and an
 *	unsigned value (engine times in ns); drm-driver is vseg, drm-client-id
 *	differs between files, and every segment of the table (and system
 *	memory) has its drm-total, drm-resident, drm-shared and vseg-evicted
 *	keys, all zero for a new file.
 *
 * SUBTEST: segments
 * Description: With buffers in every segment, each drm-total and
 *	drm-resident is the sum of the GEM_INFO sizes of the file's buffers in
 *	that segment, and the growth of the QUERY_SEGMENTS resident usage.
 *
 * SUBTEST: moves
 * Description: EVICT and MAKE_RESIDENT move the bytes between the keys of
 *	the segments and system memory, and vseg-evicted follows, as GEM_INFO
 *	and the QUERY_SEGMENTS evicted usage say; closing the handles brings
 *	everything back to zero.
 *
 * SUBTEST: engine-time
 * Description: drm-engine-copy grows with a copy-engine job,
 *	drm-engine-render with a render-engine job and drm-engine-paging with
 *	moves of the file's buffers; the other engines' times do not.
 *
 * SUBTEST: active
 * Description: drm-active-<segment> counts the resident buffers a job or
 *	move still uses: none once the moves that placed them ended; the
 *	buffers of a job held back on a gate (in vram for the
 *	render engine, in the aperture for the copy engine) are active until
 *	the gate opens and the job ends, an idle buffer never is, and another
 *	file sees none of it.
 *
 * SUBTEST: resident-system
 * Description: drm-resident-system counts a system-memory buffer once it
 *	has pages: 0 after its creation (drm-total-system has it), its size
 *	after a CPU write; a buffer never written stays out of it.
 *
 * SUBTEST: unprivileged
 * Description: A process without root privileges (uid and gid 65534) reads
 *	its own file's fdinfo and finds its buffer there.
 *
 * SUBTEST: hostile-client
 * Description: A second file (a render node) sees none of the first
 *	file's buffers or engine time in its fdinfo, cannot change the first
 *	file's by creating, moving or submitting, and shares a buffer (shown
 *	by drm-shared in both) only when given it through PRIME.
 */
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <unistd.h>

#include <xf86drm.h>

#include "igt.h"
#include "igt_vseg.h"

IGT_TEST_DESCRIPTION("The per-file memory and engine statistics of vseg in "
		     "fdinfo, checked against GEM_INFO and QUERY_SEGMENTS.");

#define MAX_KEYS	128

/* The engines of fdinfo, in the order of engine_names[]. */
enum { E_COPY, E_RENDER, E_PAGING, ENGINES };

static struct vseg_ctx ctx = VSEG_CTX_INIT_ENGINE(VSEG_LEFTOVERS_NONE_OURS);

static const char * const engine_names[ENGINES] = {
	"copy", "render", "paging",
};

/**
 * struct fdinfo - the key/value lines of one fdinfo file
 * @n: number of keys.
 * @key: the keys.
 * @val: their values as text, after the tab.
 */
struct fdinfo {
	unsigned int n;
	char key[MAX_KEYS][64];
	char val[MAX_KEYS][64];
};

/* Read and parse fdinfo of @fd, asserting the format of every line. */
static void fdinfo_read(int fd, struct fdinfo *fi)
{
	char path[64], line[256];
	FILE *f;

	memset(fi, 0, sizeof(*fi));
	snprintf(path, sizeof(path), "/proc/self/fdinfo/%d", fd);
	f = fopen(path, "r");
	igt_assert_f(f, "cannot open %s: %s\n", path, strerror(errno));
	while (fgets(line, sizeof(line), f)) {
		char *colon = strchr(line, ':'), *v;
		size_t len = strlen(line);
		unsigned int i;

		igt_assert_f(len && line[len - 1] == '\n',
			     "line without newline: %s\n", line);
		line[len - 1] = '\0';
		igt_assert_f(colon, "line without a colon: %s\n", line);
		*colon = '\0';
		/* The generic keys (pos, flags, mnt_id, ino) use a tab too. */
		v = colon + 1;
		while (*v == '\t' || *v == ' ')
			v++;
		igt_assert_f(strlen(line) < sizeof(fi->key[0]) &&
			     strlen(v) < sizeof(fi->val[0]),
			     "line too long: %s\n", line);
		for (i = 0; i < fi->n; i++)
			igt_assert_f(strcmp(fi->key[i], line),
				     "key %s twice\n", line);
		igt_assert(fi->n < MAX_KEYS);
		strcpy(fi->key[fi->n], line);
		strcpy(fi->val[fi->n], v);
		fi->n++;
	}
	fclose(f);
}

static const char *fdinfo_str(const struct fdinfo *fi, const char *key)
{
	unsigned int i;

	for (i = 0; i < fi->n; i++)
		if (!strcmp(fi->key[i], key))
			return fi->val[i];
	return NULL;
}

/* The unsigned value of @key, with unit @unit ("" for none); asserts both. */
static uint64_t fdinfo_u64(const struct fdinfo *fi, const char *key,
			   const char *unit)
{
	const char *v = fdinfo_str(fi, key);
	uint64_t x;
	char *end;

	igt_assert_f(v, "fdinfo has no key %s\n", key);
	igt_assert_f(isdigit((unsigned char)v[0]), "%s: %s\n", key, v);
	errno = 0;
	x = strtoull(v, &end, 10);
	igt_assert_f(!errno, "%s: %s\n", key, v);
	if (*unit) {
		igt_assert_f(*end == ' ' && !strcmp(end + 1, unit),
			     "%s: %s, not in %s\n", key, v, unit);
	} else {
		igt_assert_f(!*end, "%s: %s, not a bare number\n", key, v);
	}
	return x;
}

/*
 * A size of Documentation/gpu/drm-usage-stats.rst: bytes, or a number of
 * KiB or MiB (DRM's helper prints the largest unit that divides it).
 */
static uint64_t fdinfo_size(const struct fdinfo *fi, const char *key)
{
	static const char * const units[] = { "", "KiB", "MiB", "GiB" };
	const char *v = fdinfo_str(fi, key);
	uint64_t x;
	char *end;

	igt_assert_f(v, "fdinfo has no key %s\n", key);
	igt_assert_f(isdigit((unsigned char)v[0]), "%s: %s\n", key, v);
	errno = 0;
	x = strtoull(v, &end, 10);
	igt_assert_f(!errno, "%s: %s\n", key, v);
	if (!*end)
		return x;
	igt_assert_f(*end == ' ', "%s: %s\n", key, v);
	for (unsigned int i = 1; i < ARRAY_SIZE(units); i++)
		if (!strcmp(end + 1, units[i]))
			return x << (10 * i);
	igt_assert_f(false, "%s: %s, not a size\n", key, v);
	return 0;
}

static uint64_t seg_key(const struct fdinfo *fi, const char *prefix,
			uint32_t id)
{
	char key[64];

	snprintf(key, sizeof(key), "%s-%s", prefix, vseg_ctx_seg_name(&ctx, id));
	if (!strcmp(prefix, "vseg-evicted"))
		return fdinfo_u64(fi, key, "");
	return fdinfo_size(fi, key);
}

static uint64_t engine_ns(const struct fdinfo *fi, unsigned int e)
{
	char key[64];

	snprintf(key, sizeof(key), "drm-engine-%s", engine_names[e]);
	return fdinfo_u64(fi, key, "ns");
}

static uint32_t num_segs(void)
{
	return ctx.q.num_segments;
}

/*
 * Assert that fdinfo of @fd shows, per segment, the GEM_INFO placement of
 * the @n buffers @handles (all of @fd's), and that the growth of QUERY's
 * resident and evicted usage since the base is the same (@fd's buffers
 * are the only ones).
 */
static void check_segments(int fd, const uint32_t *handles, unsigned int n,
			   const char *what)
{
	uint64_t total[DRM_VSEG_MAX_SEGMENTS + 1] = {};
	struct vseg_usage_snapshot now;
	struct drm_vseg_gem_info info;
	struct fdinfo fi;
	unsigned int i;
	uint32_t id;

	for (i = 0; i < n; i++) {
		vseg_gem_info(fd, handles[i], &info);
		total[info.segment_id] += info.size;
	}
	fdinfo_read(fd, &fi);
	vseg_usage_read_now(ctx.fd, &now);
	for (id = 0; id <= num_segs(); id++) {
		uint64_t resident = now.usage[id].resident -
				    ctx.base_usage.usage[id].resident;
		uint64_t evicted = now.usage[id].evicted -
				   ctx.base_usage.usage[id].evicted;

		igt_assert_f(seg_key(&fi, "drm-total", id) == total[id],
			     "%s: drm-total-%s %" PRIu64 ", GEM_INFO says %" PRIu64 "\n",
			     what, vseg_ctx_seg_name(&ctx, id),
			     seg_key(&fi, "drm-total", id), total[id]);
		/* Committed memory: a system buffer only once it has pages. */
		if (id)
			igt_assert_eq_u64(seg_key(&fi, "drm-resident", id),
					  total[id]);
		else
			igt_assert_lte_u64(seg_key(&fi, "drm-resident", id),
					   total[id]);
		igt_assert_f(resident == total[id],
			     "%s: QUERY resident growth in %s %" PRIu64 ", fdinfo %" PRIu64 "\n",
			     what, vseg_ctx_seg_name(&ctx, id), resident,
			     total[id]);
		if (id)
			igt_assert_f(seg_key(&fi, "vseg-evicted", id) == evicted,
				     "%s: vseg-evicted-%s %" PRIu64 ", QUERY %" PRIu64 "\n",
				     what, vseg_ctx_seg_name(&ctx, id),
				     seg_key(&fi, "vseg-evicted", id), evicted);
	}
}

/* A buffer of @size that lives in segment @id, or in system memory. */
static uint32_t create_in(int fd, uint32_t id, uint64_t size, uint32_t flags)
{
	struct drm_vseg_gem_create c;
	struct drm_vseg_gem_info info;
	uint32_t h;

	vseg_create_args(&c, size, 1u << id | 1u << ctx.ap_id, flags);
	if (id)
		vseg_create_prefer(&c, id, 0);
	else
		c.supported_segments = 1u << ctx.ap_id;
	h = vseg_gem_create(fd, &c);
	/*
	 * System memory is named by the aperture's id, where the buffer is
	 * created committed to the aperture: evicted with its content
	 * discarded, it is in system memory, no page populated.
	 */
	if (!id)
		igt_assert_eq(__vseg_evict_flags(fd, &h, 1,
						 DRM_VSEG_RESIDENCY_DISCARD,
						 NULL), 0);
	vseg_gem_info(fd, h, &info);
	igt_assert_eq_u32(info.segment_id, id);
	return h;
}

static void test_format(void)
{
	struct fdinfo a, b;
	int other = drm_open_vseg_render();
	uint32_t id;
	unsigned int e;

	fdinfo_read(ctx.fd, &a);
	fdinfo_read(other, &b);
	igt_assert_f(fdinfo_str(&a, "drm-driver") &&
		     !strcmp(fdinfo_str(&a, "drm-driver"), "vseg"),
		     "drm-driver is not vseg\n");
	igt_assert_neq_u64(fdinfo_u64(&a, "drm-client-id", ""),
			   fdinfo_u64(&b, "drm-client-id", ""));
	for (id = 0; id <= num_segs(); id++) {
		igt_assert_eq_u64(seg_key(&a, "drm-total", id), 0);
		igt_assert_eq_u64(seg_key(&a, "drm-resident", id), 0);
		igt_assert_eq_u64(seg_key(&a, "drm-shared", id), 0);
		igt_assert_eq_u64(seg_key(&a, "vseg-evicted", id), 0);
	}
	for (e = 0; e < ENGINES; e++)
		igt_assert_eq_u64(engine_ns(&b, e), 0);
	/* Nothing but the generic keys, drm-* and vseg-*. */
	for (e = 0; e < a.n; e++)
		igt_assert_f(!strncmp(a.key[e], "drm-", 4) ||
			     !strncmp(a.key[e], "vseg-", 5) ||
			     !strcmp(a.key[e], "pos") ||
			     !strcmp(a.key[e], "flags") ||
			     !strcmp(a.key[e], "mnt_id") ||
			     !strcmp(a.key[e], "ino"),
			     "unexpected key %s\n", a.key[e]);
	close(other);
}

static void test_segments(void)
{
	uint32_t handles[2 * DRM_VSEG_MAX_SEGMENTS + 2];
	unsigned int n = 0;
	uint32_t id;

	check_segments(ctx.fd, handles, 0, "empty");
	for (id = 0; id <= num_segs(); id++) {
		handles[n++] = create_in(ctx.fd, id, SZ_1M, 0);
		check_segments(ctx.fd, handles, n, "one more buffer");
		handles[n++] = create_in(ctx.fd, id, SZ_2M, 0);
	}
	check_segments(ctx.fd, handles, n, "every segment");
	while (n--)
		vseg_gem_close(ctx.fd, handles[n]);
	/* fdinfo forgets them at once; their memory goes a little later. */
	vseg_usage_wait(ctx.fd, &ctx.base_usage, VSEG_USAGE_SETTLE_MS,
			"after the closes");
	check_segments(ctx.fd, handles, 0, "closed");
}

static void test_moves(void)
{
	uint32_t handles[DRM_VSEG_MAX_SEGMENTS + 1];
	unsigned int n = 0, i;
	struct fdinfo fi;
	uint32_t id;

	for (id = 1; id <= num_segs(); id++)
		handles[n++] = create_in(ctx.fd, id, SZ_1M, 0);
	check_segments(ctx.fd, handles, n, "created");
	for (i = 0; i < n; i++) {
		vseg_evict(ctx.fd, &handles[i], 1);
		check_segments(ctx.fd, handles, n, "evicted");
		fdinfo_read(ctx.fd, &fi);
		igt_assert_eq_u64(seg_key(&fi, "vseg-evicted", i + 1), SZ_1M);
	}
	fdinfo_read(ctx.fd, &fi);
	igt_assert_eq_u64(seg_key(&fi, "drm-total", 0), (uint64_t)n * SZ_1M);
	vseg_make_resident(ctx.fd, handles, n);
	check_segments(ctx.fd, handles, n, "made resident");
	fdinfo_read(ctx.fd, &fi);
	igt_assert_eq_u64(seg_key(&fi, "drm-total", 0), 0);
	for (id = 1; id <= num_segs(); id++)
		igt_assert_eq_u64(seg_key(&fi, "vseg-evicted", id), 0);
	while (n--)
		vseg_gem_close(ctx.fd, handles[n]);
	/* fdinfo forgets them at once; their memory goes a little later. */
	vseg_usage_wait(ctx.fd, &ctx.base_usage, VSEG_USAGE_SETTLE_MS,
			"after the closes");
	check_segments(ctx.fd, handles, 0, "closed");
}

static void read_engines(int fd, uint64_t *ns)
{
	struct fdinfo fi;
	unsigned int e;

	fdinfo_read(fd, &fi);
	for (e = 0; e < ENGINES; e++)
		ns[e] = engine_ns(&fi, e);
}

/*
 * Only engine @grows (ENGINES: none) has a larger time in @after. The
 * paging engine may still be clearing the file's new buffers meanwhile:
 * it is not checked when a user engine is.
 */
static void assert_grew(const uint64_t *before, const uint64_t *after,
			unsigned int grows, const char *what)
{
	unsigned int e;

	for (e = 0; e < ENGINES; e++) {
		if (e == E_PAGING && grows != E_PAGING && grows != ENGINES)
			continue;
		if (e == grows)
			igt_assert_f(after[e] > before[e],
				     "%s: drm-engine-%s stayed at %" PRIu64 " ns\n",
				     what, engine_names[e], before[e]);
		else
			igt_assert_f(after[e] == before[e],
				     "%s: drm-engine-%s went from %" PRIu64 " to %" PRIu64 " ns\n",
				     what, engine_names[e], before[e], after[e]);
	}
}

/* A copy-engine fill of the whole of @h (physically addressed). */
static void copy_fill(int fd, uint32_t h, uint64_t size)
{
	struct vseg_cmdbuf cb;

	vseg_cb_init(&cb);
	vseg_cb_fill_phys(&cb, h, 0, size, 0x5a5a5a5a);
	vseg_cb_exec_ok(fd, DRM_VSEG_ENGINE_COPY, &cb, "copy fill");
	vseg_cb_fini(&cb);
}

/* Assert that every 32-bit word of @h reads @value, through a mapping. */
static void check_u32(int fd, uint32_t h, uint64_t size, uint32_t value)
{
	uint32_t *p = vseg_gem_mmap(fd, h, size, PROT_READ);
	uint64_t i;

	for (i = 0; i < size / 4; i++)
		igt_assert_f(p[i] == value, "word %" PRIu64 ": %#x, not %#x\n",
			     i, p[i], value);
	munmap(p, size);
}

/* A render-engine fill of @size bytes at @va. */
static void render_fill(int fd, uint64_t va, uint64_t size)
{
	struct vseg_cmdbuf cb;

	vseg_cb_init(&cb);
	vseg_cb_fill(&cb, va, size, 0xa5a5a5a5);
	vseg_cb_exec_ok(fd, DRM_VSEG_ENGINE_RENDER, &cb, "render fill");
	vseg_cb_fini(&cb);
}

static void test_engine_time(void)
{
	uint64_t before[ENGINES], after[ENGINES];
	const uint64_t size = SZ_4M, va = 0x100000000ull;
	uint32_t phys, virt;

	phys = create_in(ctx.fd, 1, size,
			 DRM_VSEG_GEM_CREATE_ACCESSED_PHYSICALLY);
	virt = create_in(ctx.fd, 1, size, 0);
	vseg_vm_bind(ctx.fd, virt, va);

	read_engines(ctx.fd, before);
	copy_fill(ctx.fd, phys, size);
	read_engines(ctx.fd, after);
	assert_grew(before, after, E_COPY, "copy job");

	memcpy(before, after, sizeof(before));
	render_fill(ctx.fd, va, size);
	read_engines(ctx.fd, after);
	assert_grew(before, after, E_RENDER, "render job");

	/* The content moves: the paging engine transfers it, and back. */
	memcpy(before, after, sizeof(before));
	vseg_evict(ctx.fd, &phys, 1);
	vseg_make_resident(ctx.fd, &phys, 1);
	check_u32(ctx.fd, phys, size, 0x5a5a5a5a);
	read_engines(ctx.fd, after);
	assert_grew(before, after, E_PAGING, "moves");

	vseg_vm_unbind(ctx.fd, va);
	vseg_gem_close(ctx.fd, virt);
	vseg_gem_close(ctx.fd, phys);
}

/* Assert drm-active-<segment> of @fd, every segment: @bytes in @id, else 0. */
static void check_active(int fd, uint32_t id, uint64_t bytes, const char *what)
{
	struct fdinfo fi;

	fdinfo_read(fd, &fi);
	for (uint32_t s = 0; s <= num_segs(); s++) {
		uint64_t want = s == id ? bytes : 0;

		igt_assert_f(seg_key(&fi, "drm-active", s) == want,
			     "%s: drm-active-%s %" PRIu64 ", expected %" PRIu64 "\n",
			     what, vseg_ctx_seg_name(&ctx, s),
			     seg_key(&fi, "drm-active", s), want);
	}
}

static void test_active(void)
{
	const uint64_t va = 0x100000000ull;
	uint32_t job_buf, idle, phys, gate, out[2];
	int other = drm_open_vseg_render();
	struct vseg_cmdbuf cb;
	struct vseg_gate g;

	job_buf = create_in(ctx.fd, 1, SZ_1M, 0);
	idle = create_in(ctx.fd, 1, SZ_2M, 0);
	phys = create_in(ctx.fd, ctx.ap_id, SZ_256K,
			 DRM_VSEG_GEM_CREATE_ACCESSED_PHYSICALLY);
	vseg_vm_bind(ctx.fd, job_buf, va);
	/* Their first placement is a move (zeroes, GART entries): its end. */
	{
		const uint32_t bufs[] = { job_buf, idle, phys };
		uint32_t word;

		for (unsigned int i = 0; i < ARRAY_SIZE(bufs); i++)
			vseg_bo_read(ctx.fd, bufs[i], 0, &word, sizeof(word));
	}
	check_active(ctx.fd, 0, 0, "no job yet");

	/* A render job behind a gate: its buffer, in vram, is active. */
	vseg_gate_init(&g);
	gate = vseg_gate_syncobj(&g, ctx.fd);
	out[0] = vseg_syncobj_create(ctx.fd, 0);
	out[1] = vseg_syncobj_create(ctx.fd, 0);
	vseg_cb_init(&cb);
	vseg_cb_fill(&cb, va, SZ_4K, 0x12345678);
	vseg_cb_submit(ctx.fd, DRM_VSEG_ENGINE_RENDER, &cb, &gate, 1, &out[0], 1);
	check_active(ctx.fd, 1, SZ_1M, "a render job behind a gate");
	check_active(other, 0, 0, "another file, with a job of ours queued");
	/* A copy job too: its buffer, in the aperture. */
	vseg_cb_reset(&cb);
	vseg_cb_fill_phys(&cb, phys, 0, SZ_4K, 0x9abcdef0);
	vseg_cb_submit(ctx.fd, DRM_VSEG_ENGINE_COPY, &cb, &gate, 1, &out[1], 1);
	igt_assert_eq_u32(vseg_gem_segment(ctx.fd, phys), ctx.ap_id);
	{
		struct fdinfo fi;

		fdinfo_read(ctx.fd, &fi);
		igt_assert_eq_u64(seg_key(&fi, "drm-active", 1), SZ_1M);
		igt_assert_eq_u64(seg_key(&fi, "drm-active", ctx.ap_id), SZ_256K);
		igt_assert_eq_u64(seg_key(&fi, "drm-total", 1), SZ_1M + SZ_2M);
	}
	vseg_gate_assert_closed(&g, "the jobs' buffers were active");

	vseg_gate_open(&g);
	igt_assert_eq(vseg_syncobj_wait_error(ctx.fd, out[0], VSEG_JOB_TIMEOUT_MS), 0);
	igt_assert_eq(vseg_syncobj_wait_error(ctx.fd, out[1], VSEG_JOB_TIMEOUT_MS), 0);
	check_active(ctx.fd, 0, 0, "the jobs ended");

	vseg_cb_fini(&cb);
	vseg_syncobj_destroy(ctx.fd, out[0]);
	vseg_syncobj_destroy(ctx.fd, out[1]);
	vseg_syncobj_destroy(ctx.fd, gate);
	vseg_gate_fini(&g);
	vseg_vm_unbind(ctx.fd, va);
	vseg_gem_close(ctx.fd, job_buf);
	vseg_gem_close(ctx.fd, idle);
	vseg_gem_close(ctx.fd, phys);
	close(other);
}

static void test_resident_system(void)
{
	uint32_t written, untouched;
	struct fdinfo fi;

	written = create_in(ctx.fd, 0, SZ_1M, 0);
	untouched = create_in(ctx.fd, 0, SZ_2M, 0);
	fdinfo_read(ctx.fd, &fi);
	igt_assert_eq_u64(seg_key(&fi, "drm-total", 0), SZ_1M + SZ_2M);
	igt_assert_eq_u64(seg_key(&fi, "drm-resident", 0), 0);

	vseg_bo_fill_pattern(ctx.fd, written, SZ_1M, 0x5e5);
	fdinfo_read(ctx.fd, &fi);
	igt_assert_eq_u64(seg_key(&fi, "drm-total", 0), SZ_1M + SZ_2M);
	igt_assert_eq_u64(seg_key(&fi, "drm-resident", 0), SZ_1M);
	igt_assert_eq_u64(seg_key(&fi, "drm-active", 0), 0);

	vseg_gem_close(ctx.fd, written);
	fdinfo_read(ctx.fd, &fi);
	igt_assert_eq_u64(seg_key(&fi, "drm-total", 0), SZ_2M);
	igt_assert_eq_u64(seg_key(&fi, "drm-resident", 0), 0);
	vseg_gem_close(ctx.fd, untouched);
}

static void test_unprivileged(void)
{
	igt_fork(child, 1) {
		int fd = drm_open_vseg_render();
		struct fdinfo fi;
		uint32_t h;

		h = create_in(fd, 1, SZ_2M, 0);
		vseg_drop_privileges();
		/* Dropping root made /proc/self root's; what a normal start is. */
		igt_assert_eq(prctl(PR_SET_DUMPABLE, 1, 0, 0, 0), 0);
		fdinfo_read(fd, &fi);
		igt_assert_eq_u64(seg_key(&fi, "drm-total", 1), SZ_2M);
		vseg_gem_close(fd, h);
		fdinfo_read(fd, &fi);
		igt_assert_eq_u64(seg_key(&fi, "drm-total", 1), 0);
		close(fd);
	}
	igt_waitchildren();
}

static void test_hostile_client(void)
{
	uint64_t before[ENGINES], after[ENGINES], theirs[ENGINES];
	uint32_t mine[2], other_h, imported;
	int other = drm_open_vseg_render();
	struct drm_vseg_gem_info info;
	struct fdinfo fi;
	unsigned int e;
	int dmabuf;
	uint32_t id;

	mine[0] = create_in(ctx.fd, 1, SZ_2M,
			    DRM_VSEG_GEM_CREATE_ACCESSED_PHYSICALLY);
	mine[1] = create_in(ctx.fd, 0, SZ_1M, 0);
	copy_fill(ctx.fd, mine[0], SZ_2M);
	read_engines(ctx.fd, before);

	/* The other file sees nothing of it. */
	fdinfo_read(other, &fi);
	for (id = 0; id <= num_segs(); id++) {
		igt_assert_eq_u64(seg_key(&fi, "drm-total", id), 0);
		igt_assert_eq_u64(seg_key(&fi, "drm-shared", id), 0);
		igt_assert_eq_u64(seg_key(&fi, "vseg-evicted", id), 0);
	}
	read_engines(other, theirs);
	for (e = 0; e < ENGINES; e++)
		igt_assert_eq_u64(theirs[e], 0);
	/* Our handles are not its handles. */
	igt_assert_eq(__vseg_gem_info(other, mine[0], &info), -ENOENT);
	igt_assert_eq(__vseg_evict(other, mine, 1, 0), -ENOENT);

	/* Its buffers, moves and jobs change nothing in ours. */
	other_h = create_in(other, 1, SZ_2M,
			    DRM_VSEG_GEM_CREATE_ACCESSED_PHYSICALLY);
	copy_fill(other, other_h, SZ_2M);
	vseg_evict(other, &other_h, 1);
	vseg_make_resident(other, &other_h, 1);
	read_engines(ctx.fd, after);
	assert_grew(before, after, ENGINES, "the other file's work");
	read_engines(other, theirs);
	igt_assert(theirs[E_COPY] > 0);
	fdinfo_read(ctx.fd, &fi);
	igt_assert_eq_u64(seg_key(&fi, "drm-total", 1), SZ_2M);
	igt_assert_eq_u64(seg_key(&fi, "drm-total", 0), SZ_1M);

	/* Given through PRIME, a buffer is shared, and shown so in both. */
	igt_assert_eq(drmPrimeHandleToFD(ctx.fd, mine[1], DRM_CLOEXEC, &dmabuf),
		      0);
	igt_assert_eq(drmPrimeFDToHandle(other, dmabuf, &imported), 0);
	close(dmabuf);
	fdinfo_read(ctx.fd, &fi);
	igt_assert_eq_u64(seg_key(&fi, "drm-shared", 0), SZ_1M);
	igt_assert_eq_u64(seg_key(&fi, "drm-shared", 1), 0);
	fdinfo_read(other, &fi);
	igt_assert_eq_u64(seg_key(&fi, "drm-total", 0), SZ_1M);
	igt_assert_eq_u64(seg_key(&fi, "drm-shared", 0), SZ_1M);
	igt_assert_eq_u64(seg_key(&fi, "drm-total", 1), SZ_2M);

	close(other);
	vseg_gem_close(ctx.fd, mine[0]);
	vseg_gem_close(ctx.fd, mine[1]);
}

igt_main
{
	igt_fixture
		vseg_ctx_setup(&ctx);

	igt_describe("fdinfo's format: keys, values, units, client ids.");
	igt_subtest("format") {
		vseg_ctx_load(&ctx, "discrete");
		test_format();
		vseg_ctx_finish(&ctx, "format");
	}

	igt_describe("Per-segment bytes match GEM_INFO and QUERY_SEGMENTS.");
	igt_subtest("segments") {
		vseg_ctx_load(&ctx, "discrete");
		test_segments();
		vseg_ctx_finish(&ctx, "segments");
	}

	igt_describe("Evictions and moves show in the segments' keys.");
	igt_subtest("moves") {
		vseg_ctx_load(&ctx, "discrete");
		test_moves();
		vseg_ctx_finish(&ctx, "moves");
	}

	igt_describe("Engine time grows with the file's work, per engine.");
	igt_subtest("engine-time") {
		vseg_ctx_load(&ctx, "discrete");
		test_engine_time();
		vseg_ctx_finish(&ctx, "engine-time");
	}

	igt_describe("drm-active counts the buffers of queued jobs.");
	igt_subtest("active") {
		vseg_ctx_load(&ctx, "discrete");
		test_active();
		vseg_ctx_finish(&ctx, "active");
	}

	igt_describe("drm-resident-system counts buffers with pages.");
	igt_subtest("resident-system") {
		vseg_ctx_load(&ctx, "discrete");
		test_resident_system();
		vseg_ctx_finish(&ctx, "resident-system");
	}

	igt_describe("fdinfo needs no root.");
	igt_subtest("unprivileged") {
		vseg_ctx_load(&ctx, "discrete");
		test_unprivileged();
		vseg_ctx_finish(&ctx, "unprivileged");
	}

	igt_describe("Another file sees and changes nothing of ours.");
	igt_subtest("hostile-client") {
		vseg_ctx_load(&ctx, "discrete");
		test_hostile_client();
		vseg_ctx_finish(&ctx, "hostile-client");
	}

	igt_fixture
		vseg_ctx_unload(&ctx);
}
