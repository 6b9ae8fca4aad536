// SPDX-License-Identifier: MIT
/*
 * vseg_pm: standby and hibernate, through the PM core (/sys/power/state
 * with /sys/power/pm_test at "devices") and through sysfs "pm". Four
 * memory segments, one per combination of the Preserved flags, hold
 * buffers below and above SystemMemoryEndAddress, pinned and
 * AccessedPhysically ones, and a displayed primary; the aperture holds a
 * GART-mapped one. Each transition moves exactly the buffers the flags
 * say, keeps every byte, poisons only the memory that lost power, says so
 * in debugfs and QUERY_SEGMENTS, and leaves the heads and the aperture
 * working. After the exit the evicted buffers come back to their segment
 * (asynchronously: the tests wait for debugfs restore_pending=0).
 *
 * Copyright (c) 2026 The vseg authors
 */
/**
 * TEST: vseg pm
 * Category: Core
 * Mega feature: General Core features
 * Sub-category: Memory management
 * Functionality: power management
 * Description: Standby and hibernate (system sleep and sysfs "pm"),
 *	driven by the segments' PreservedDuringStandby,
 *	PreservedDuringHibernate and PartiallyPreservedDuringHibernate flags
 *	and SystemMemoryEndAddress.
 *
 * SUBTEST: system-standby
 * Description: A real system standby: suspend to idle through
 *	/sys/power/state with /sys/power/pm_test at "devices", so the PM core
 *	freezes the tasks and calls the driver's suspend and resume. The
 *	buffers move and keep their bytes as with sysfs standby; the
 *	displayed primary is shown again, the aperture works.
 *
 * SUBTEST: system-hibernate
 * Description: A real hibernate through /sys/power/state ("disk") with
 *	pm_test at "devices": the PM core calls freeze, then restore (power
 *	lost). The buffers move and keep their bytes as with sysfs
 *	hibernate.
 *
 * SUBTEST: thaw
 * Description: A hibernate that thaws (sysfs "thaw"): the buffers are
 *	evicted as for hibernate, nothing is poisoned, every byte is intact.
 *
 * SUBTEST: query-counters
 * Description: QUERY_SEGMENTS reports the last transition's counters per
 *	segment, as debugfs does; a caller with the first version's element
 *	size gets the same bytes without them, a larger element is zeroed
 *	past them.
 *
 * SUBTEST: fault-race
 * Description: Another process keeps CPU-faulting buffers that move into
 *	the unpreserved segment while transitions run: every fault waits
 *	for the transition, no byte it wrote is lost or poisoned.
 *
 * SUBTEST: standby
 * Description: Standby evicts every unpinned buffer of the segment without
 *	PreservedDuringStandby, keeps the pinned one in place with its
 *	content, leaves the other segments alone; every byte of every buffer
 *	is intact; only the unpreserved segment is poisoned.
 *
 * SUBTEST: hibernate
 * Description: Hibernate evicts the unpinned buffers of the segments
 *	without a hibernate flag and, in the partially preserved segment,
 *	only the buffer ending after SystemMemoryEndAddress; the preserved
 *	segment keeps its buffers; every byte is intact.
 *
 * SUBTEST: jobs-in-flight
 * Description: A copy-engine FILL of a buffer in the unpreserved segment
 *	is still queued when standby is triggered: the transition waits for
 *	it, the buffer is evicted with the filled content and comes back
 *	with it.
 *
 * SUBTEST: hostile-client
 * Description: A render-node client's buffers survive a transition
 *	another process triggers, its new buffers in memory that lost power
 *	read zero, never poison; without root it cannot trigger one.
 *
 * SUBTEST: residency-restored
 * Description: Buffers resident in a memory segment that loses its
 *	content come back to it after standby and after hibernate, with
 *	their bytes; when not all fit, the HIGH priority ones come back and
 *	the LOW ones that find no room are counted (no_room); an
 *	unprivileged hostile process cannot see the buffers, cannot trigger
 *	the restore and cannot push the HIGH ones out.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "igt.h"
#include "igt_vseg.h"

IGT_TEST_DESCRIPTION("Standby and hibernate through sysfs pm: the "
		     "Preserved flags and SystemMemoryEndAddress decide what "
		     "is evicted, saved and poisoned.");

#define AP_FLAG		DRM_VSEG_GEM_CREATE_ACCESSED_PHYSICALLY
#define TOP_FLAG	DRM_VSEG_GEM_CREATE_FROM_END_OF_SEGMENT
#define PIN		DRM_VSEG_RESIDENCY_PIN
#define RW		(PROT_READ | PROT_WRITE)
#define SEG_SIZE	SZ_8M
#define BUF		SZ_1M
#define SMALL		(256 * SZ_1K)
#define PRIM_SIZE	SZ_1M
#define V1_SIZE		DRM_VSEG_SEGMENT_INFO_SIZE_V1
#define INFO_SIZE	sizeof(struct drm_vseg_segment_info)

/* One memory segment per combination of the flags, all CPU-visible. */
#define SEGMENTS \
	"memory:name=stby,size=8M,flags=cpuvisible|standby,cpu=0xe0000000;" \
	"memory:name=hib,size=8M,flags=cpuvisible|standby|hibernate,cpu=0xe1000000;" \
	"memory:name=part,size=8M,flags=cpuvisible|standby|partialhibernate,sysend=4M,cpu=0xe2000000;" \
	"memory:name=none,size=8M,flags=cpuvisible,cpu=0xe3000000;" \
	"aperture:name=gart,size=16M,commit=8M"

enum { STBY, HIB, PART, NONE, NUM_SEGS };
static const char * const seg_names[NUM_SEGS] = { "stby", "hib", "part", "none" };

static struct vseg_ctx ctx = VSEG_CTX_INIT(VSEG_LEFTOVERS_NONE_OURS);
static uint32_t seg_id[NUM_SEGS];

/* The buffers of one segment. */
enum { LO, HI, PINNED, APHYS, NUM_BUFS };
static const uint64_t buf_size[NUM_BUFS] = { BUF, BUF, SMALL, SMALL };

struct pm_set {
	uint32_t h[NUM_SEGS][NUM_BUFS];
	uint64_t moves[NUM_SEGS][NUM_BUFS];
	uint32_t seg[NUM_SEGS][NUM_BUFS];
	/* optional (0: none): a primary of "none" on head 0, an aperture buffer */
	uint32_t primary, ap;
	struct drm_vseg_gem_info ap_info;
};

static void load(void)
{
	vseg_ctx_load_f(&ctx, "discrete table=%s", SEGMENTS);
	for (int s = 0; s < NUM_SEGS; s++)
		seg_id[s] = vseg_segment_by_name(&ctx.q, ctx.segs, seg_names[s]);
}

/* Write "standby" or "hibernate" to the device's sysfs pm: 0 or -errno. */
static int __trigger(const char *kind)
{
	int f = open("/sys/bus/platform/devices/vseg/pm", O_WRONLY | O_CLOEXEC);
	int ret = 0;

	if (f < 0)
		return -errno;
	if (write(f, kind, strlen(kind)) != (ssize_t)strlen(kind))
		ret = -errno;
	close(f);
	return ret;
}

static void trigger(const char *kind)
{
	int err = __trigger(kind);

	igt_assert_f(!err, "pm %s: %s\n", kind, vseg_errname(err));
}

struct pm_counts {
	uint64_t evicted, evicted_bytes, saved, saved_bytes, poisoned;
};

/* What the restore after the last exit did to a segment (debugfs only). */
struct restore_counts {
	uint64_t recorded, restored, restored_bytes, no_room, skipped;
};

/* debugfs pm's restore_pending: buffers still to come back. */
static uint64_t restore_pending(void)
{
	struct vseg_debugfs_file f;
	uint64_t n;

	vseg_debugfs_read(ctx.fd, "pm", NULL, &f);
	igt_assert(f.num_lines >= 1);
	n = vseg_debugfs_u64(&f.line[0], "restore_pending");
	vseg_debugfs_free(&f);
	return n;
}

/*
 * Wait until the buffers the last transition evicted are handled. Not a
 * timing target: the bound only keeps a broken restore from hanging.
 */
static void wait_restored(void)
{
	for (int t = 0; t < 120000; t++) {
		if (!restore_pending())
			return;
		usleep(1000);
	}
	igt_assert_f(false, "restore_pending still %llu\n",
		     (unsigned long long)restore_pending());
}

/* The restore counters of segment id @id. */
static void read_restore(uint32_t id, struct restore_counts *r)
{
	struct vseg_debugfs_file f;
	bool seen = false;

	vseg_debugfs_read(ctx.fd, "pm", NULL, &f);
	for (unsigned int i = 1; i < f.num_lines; i++) {
		const struct vseg_debugfs_line *l = &f.line[i];

		if (!vseg_debugfs_is(l, "segment") || l->id != id)
			continue;
		r->recorded = vseg_debugfs_u64(l, "recorded");
		r->restored = vseg_debugfs_u64(l, "restored");
		r->restored_bytes = vseg_debugfs_u64(l, "restored_bytes");
		r->no_room = vseg_debugfs_u64(l, "no_room");
		r->skipped = vseg_debugfs_u64(l, "skipped");
		seen = true;
	}
	vseg_debugfs_free(&f);
	igt_assert_f(seen, "debugfs pm has no line for segment %u\n", id);
}

static bool is_value(const struct vseg_debugfs_line *l, const char *key,
		     const char *want)
{
	const char *v = vseg_debugfs_value(l, key);

	return v && !strcmp(v, want);
}

static void read_counts(struct pm_counts c[NUM_SEGS], const char *last)
{
	struct vseg_debugfs_file f;
	bool seen[NUM_SEGS] = {};

	vseg_debugfs_read(ctx.fd, "pm", NULL, &f);
	igt_assert(f.num_lines >= 1);
	igt_assert(is_value(&f.line[0], "state", "none"));
	igt_assert(is_value(&f.line[0], "last", last));
	igt_assert_eq_u64(vseg_debugfs_u64(&f.line[0], "result"), 0);
	for (unsigned int i = 1; i < f.num_lines; i++) {
		const struct vseg_debugfs_line *l = &f.line[i];

		igt_assert(vseg_debugfs_is(l, "segment"));
		for (int s = 0; s < NUM_SEGS; s++) {
			if (l->id != seg_id[s])
				continue;
			c[s].evicted = vseg_debugfs_u64(l, "evicted");
			c[s].evicted_bytes = vseg_debugfs_u64(l, "evicted_bytes");
			c[s].saved = vseg_debugfs_u64(l, "saved");
			c[s].saved_bytes = vseg_debugfs_u64(l, "saved_bytes");
			c[s].poisoned = vseg_debugfs_u64(l, "poisoned_bytes");
			seen[s] = true;
		}
	}
	vseg_debugfs_free(&f);
	for (int s = 0; s < NUM_SEGS; s++)
		igt_assert_f(seen[s], "debugfs pm has no line for %s\n",
			     seg_names[s]);
}

static uint32_t seed_of(int s, int b)
{
	return 100 + s * NUM_BUFS + b;
}

/*
 * In each segment: a buffer at the bottom (below sysend in "part"), one at
 * the top (above it), a pinned one and an AccessedPhysically one, each
 * filled with its own pattern.
 */
static void populate(struct pm_set *set)
{
	struct drm_vseg_gem_info i;

	for (int s = 0; s < NUM_SEGS; s++) {
		uint32_t *h = set->h[s];

		h[LO] = vseg_gem_create_in(ctx.fd, BUF, seg_id[s], 0);
		h[HI] = vseg_gem_create_in(ctx.fd, BUF, seg_id[s], TOP_FLAG);
		h[PINNED] = vseg_gem_create_in(ctx.fd, SMALL, seg_id[s], 0);
		igt_assert_eq(__vseg_make_resident_flags(ctx.fd, &h[PINNED], 1,
							 PIN, NULL), 0);
		h[APHYS] = vseg_gem_create_in(ctx.fd, SMALL, seg_id[s], AP_FLAG);
		for (int b = 0; b < NUM_BUFS; b++) {
			vseg_gem_info(ctx.fd, h[b], &i);
			igt_assert_eq_u32(i.segment_id, seg_id[s]);
			vseg_bo_fill_pattern(ctx.fd, h[b], buf_size[b],
					     seed_of(s, b));
			vseg_gem_info(ctx.fd, h[b], &i);
			set->moves[s][b] = i.moves;
			set->seg[s][b] = i.segment_id;
		}
		vseg_gem_info(ctx.fd, h[HI], &i);
		igt_assert_f(i.offset >= SEG_SIZE / 2,
			     "%s: top buffer at 0x%llx\n", seg_names[s],
			     (unsigned long long)i.offset);
		vseg_gem_info(ctx.fd, h[LO], &i);
		igt_assert(i.offset + BUF <= SEG_SIZE / 2);
	}
}

/*
 * The counters of QUERY_SEGMENTS, which must match debugfs: fetched with
 * the kernel's element size; the first version's element size gets the
 * same bytes up to its end, and a larger element is zeroed past ours.
 */
static void query_counts(struct pm_counts c[NUM_SEGS], uint32_t transition)
{
	struct drm_vseg_query_segments q = {};
	unsigned int n;
	uint8_t *cur, *old, *big;
	const size_t big_size = INFO_SIZE + 64;

	vseg_query_count(ctx.fd, &q);
	igt_assert_eq_u32(q.segment_size, INFO_SIZE);
	igt_assert_eq_u32(INFO_SIZE, DRM_VSEG_SEGMENT_INFO_SIZE_V3);
	n = q.num_segments;
	cur = calloc(n, INFO_SIZE);
	old = calloc(n, V1_SIZE);
	big = malloc(n * big_size);
	igt_assert(cur && old && big);
	memset(big, 0xa5, n * big_size);

	q.segments = (uintptr_t)cur;
	q.segment_size = INFO_SIZE;
	igt_assert_eq(__vseg_query_segments(ctx.fd, &q), 0);
	q.num_segments = n;
	q.segments = (uintptr_t)old;
	q.segment_size = V1_SIZE;
	igt_assert_eq(__vseg_query_segments(ctx.fd, &q), 0);
	q.num_segments = n;
	q.segments = (uintptr_t)big;
	q.segment_size = big_size;
	igt_assert_eq(__vseg_query_segments(ctx.fd, &q), 0);

	for (unsigned int i = 0; i < n; i++) {
		const struct drm_vseg_segment_info *si =
			(const void *)(cur + i * INFO_SIZE);
		const struct drm_vseg_segment_power *pw = &si->power;
		const uint8_t *b = big + i * big_size;

		/* Nothing moved between the calls: the same bytes. */
		igt_assert_f(!memcmp(old + i * V1_SIZE, si, V1_SIZE),
			     "segment %u: the first version's element differs\n",
			     si->id);
		igt_assert_f(!memcmp(b, si, INFO_SIZE),
			     "segment %u: a larger element differs\n", si->id);
		for (size_t k = INFO_SIZE; k < big_size; k++)
			igt_assert_f(!b[k], "segment %u: byte %zu past ours is 0x%02x\n",
				     si->id, k, b[k]);
		igt_assert_eq_u32(pw->transition, transition);
		igt_assert_eq_u32(pw->pad, 0);
		igt_assert_eq_u64(pw->reserved[0], 0);
		igt_assert_eq_u64(pw->reserved[1], 0);
		if (si->kind == DRM_VSEG_SEGMENT_KIND_APERTURE) {
			igt_assert_eq_u64(pw->evicted + pw->evicted_bytes +
					  pw->saved + pw->saved_bytes +
					  pw->poisoned_bytes, 0);
			continue;
		}
		for (int s = 0; s < NUM_SEGS; s++) {
			if (si->id != seg_id[s])
				continue;
			c[s].evicted = pw->evicted;
			c[s].evicted_bytes = pw->evicted_bytes;
			c[s].saved = pw->saved;
			c[s].saved_bytes = pw->saved_bytes;
			c[s].poisoned = pw->poisoned_bytes;
		}
	}
	free(cur);
	free(old);
	free(big);
}

static bool has_engine(void)
{
	uint64_t cap = 0;

	return drmGetCap(ctx.fd, DRM_CAP_SYNCOBJ, &cap) == 0 && cap;
}

/* Where @h is and how often it moved: its GEM_INFO. */
static void info_of(uint32_t h, struct drm_vseg_gem_info *i)
{
	vseg_gem_info(ctx.fd, h, i);
}

/*
 * After a transition: the unpinned buffers of the @lost segments (bit per
 * segment) were evicted, in "part" with @partial only the top buffer, and
 * came back to their segment after the exit (two moves; the displayed
 * primary, pinned again by its head, is recorded but skipped); every other
 * buffer did not move; every byte is intact. The
 * pinned buffers of the @entered segments (those that were to lose power)
 * were saved; their pages and nothing else were poisoned unless the
 * device kept its power (@thaw). A displayed primary of "none" leaves with
 * its head when "none" loses power. debugfs and QUERY_SEGMENTS agree.
 */
static void verify(const struct pm_set *set, unsigned int lost,
		   unsigned int entered, bool partial, bool thaw,
		   const char *last)
{
	struct pm_counts c[NUM_SEGS] = {}, qc[NUM_SEGS] = {};
	struct drm_vseg_gem_info i;

	wait_restored();
	read_counts(c, last);
	query_counts(qc, !strcmp(last, "standby") ? DRM_VSEG_POWER_STANDBY :
			 DRM_VSEG_POWER_HIBERNATE);
	igt_assert_f(!memcmp(c, qc, sizeof(c)),
		     "QUERY_SEGMENTS and debugfs pm disagree\n");
	for (int s = 0; s < NUM_SEGS; s++) {
		uint64_t evicted = 0, bytes = 0, back = 0;
		bool cut = entered & BIT(s);
		struct restore_counts r;

		for (int b = 0; b < NUM_BUFS; b++) {
			bool gone = b != PINNED &&
				    ((lost & BIT(s)) ||
				     (partial && s == PART && b == HI));
			char what[64];

			info_of(set->h[s][b], &i);
			snprintf(what, sizeof(what), "%s buffer %d",
				 seg_names[s], b);
			/* Out and back. */
			igt_assert_f(i.segment_id == set->seg[s][b],
				     "%s in segment %u\n", what, i.segment_id);
			igt_assert_eq_u64(i.moves,
					  set->moves[s][b] + (gone ? 2 : 0));
			vseg_bo_check_pattern(ctx.fd, set->h[s][b],
					      buf_size[b], seed_of(s, b), what);
			if (gone) {
				evicted++;
				bytes += buf_size[b];
				back += buf_size[b];
			}
		}
		if (set->primary && s == NONE && cut) {
			evicted++;
			bytes += PRIM_SIZE;
		}
		igt_assert_eq_u64(c[s].evicted, evicted);
		igt_assert_eq_u64(c[s].evicted_bytes, bytes);
		/* The pinned buffer's pages: all that is backed there now. */
		igt_assert_eq_u64(c[s].saved, cut ? 1 : 0);
		igt_assert_eq_u64(c[s].saved_bytes, cut ? SMALL : 0);
		igt_assert_eq_u64(c[s].poisoned, cut && !thaw ? SMALL : 0);
		read_restore(seg_id[s], &r);
		igt_assert_eq_u64(r.recorded, evicted);
		igt_assert_eq_u64(r.restored_bytes, back);
		igt_assert_eq_u64(r.no_room, 0);
		igt_assert_eq_u64(r.restored + r.skipped, r.recorded);
		igt_assert_eq_u64(r.skipped,
				  set->primary && s == NONE && cut ? 1 : 0);
	}
}

/* Record where every buffer of @set is now, for the next verify(). */
static void remember(struct pm_set *set)
{
	struct drm_vseg_gem_info i;

	for (int s = 0; s < NUM_SEGS; s++)
		for (int b = 0; b < NUM_BUFS; b++) {
			info_of(set->h[s][b], &i);
			set->moves[s][b] = i.moves;
			set->seg[s][b] = i.segment_id;
		}
}

/*
 * The display and the aperture: a primary of "none" shown on head 0, and
 * an AccessedPhysically buffer of the aperture (GART-mapped), each filled.
 */
static void populate_extras(struct pm_set *set)
{
	struct drm_vseg_gem_create c;

	vseg_create_args(&c, PRIM_SIZE, BIT(seg_id[NONE]) | BIT(ctx.ap_id),
			 DRM_VSEG_GEM_CREATE_PRIMARY);
	vseg_create_prefer(&c, seg_id[NONE], 0);
	set->primary = vseg_gem_create(ctx.fd, &c);
	vseg_bo_fill_pattern(ctx.fd, set->primary, PRIM_SIZE, 77);
	vseg_display_show(ctx.fd, 0, set->primary);

	set->ap = vseg_gem_create_in(ctx.fd, SMALL, ctx.ap_id, AP_FLAG);
	vseg_bo_fill_pattern(ctx.fd, set->ap, SMALL, 78);
	info_of(set->ap, &set->ap_info);
	igt_assert_eq_u32(set->ap_info.segment_id, ctx.ap_id);
}

/*
 * After the exit: head 0 shows the primary again, the aperture buffer
 * stayed where it was with its bytes, and the GART works: a copy-engine
 * FILL through the buffer's physical address lands in its pages.
 */
static void check_extras(const struct pm_set *set)
{
	struct drm_vseg_gem_info i, p;
	struct vseg_display d;

	vseg_debugfs_read_display(ctx.fd, &d);
	info_of(set->primary, &p);
	igt_assert_f(d.head[0].on && d.head[0].buffer_id == p.buffer_id,
		     "head 0 does not show its primary again\n");
	igt_assert_f(p.segment_id != 0,
		     "the displayed primary stayed in system memory\n");
	vseg_bo_check_pattern(ctx.fd, set->primary, PRIM_SIZE, 77,
			      "the displayed primary");

	info_of(set->ap, &i);
	igt_assert_eq_u32(i.segment_id, ctx.ap_id);
	igt_assert_eq_u64(i.moves, set->ap_info.moves);
	igt_assert_eq_u64(i.aperture_offset, set->ap_info.aperture_offset);
	vseg_bo_check_pattern(ctx.fd, set->ap, SMALL, 78, "the aperture buffer");
	if (has_engine()) {
		struct vseg_cmdbuf cb;
		uint32_t *w;

		vseg_cb_init(&cb);
		vseg_cb_fill_phys(&cb, set->ap, 0, SMALL, 0xc0ffee00u);
		vseg_cb_exec_ok(ctx.fd, DRM_VSEG_ENGINE_COPY, &cb,
				"a FILL of the aperture buffer");
		vseg_cb_fini(&cb);
		w = vseg_gem_mmap(ctx.fd, set->ap, SMALL, PROT_READ);
		for (uint64_t k = 0; k < SMALL / 4; k++)
			igt_assert_f(w[k] == 0xc0ffee00u,
				     "aperture word %llu is 0x%x after a FILL\n",
				     (unsigned long long)k, w[k]);
		munmap(w, SMALL);
		/* Its pattern again, for the next check. */
		vseg_bo_fill_pattern(ctx.fd, set->ap, SMALL, 78);
	}
}

/* New buffers filling what is free of each segment read zero. */
static void check_new_zero(int fd)
{
	for (int s = 0; s < NUM_SEGS; s++) {
		uint32_t h = vseg_gem_create_in(fd, SMALL, seg_id[s], 0);

		vseg_bo_check_zero(fd, h, SMALL, "a new buffer");
		vseg_gem_close(fd, h);
	}
}

static void close_set(struct pm_set *set)
{
	for (int s = 0; s < NUM_SEGS; s++)
		for (int b = 0; b < NUM_BUFS; b++)
			vseg_gem_close(ctx.fd, set->h[s][b]);
	if (set->primary) {
		vseg_display_show(ctx.fd, 0, 0);
		vseg_gem_close(ctx.fd, set->primary);
	}
	if (set->ap)
		vseg_gem_close(ctx.fd, set->ap);
}

/* --- system sleep through the PM core ------------------------------------ */

/* Read a small sysfs file into @buf (NUL-terminated): 0 or -errno. */
static int read_file(const char *path, char *buf, size_t len)
{
	int f = open(path, O_RDONLY | O_CLOEXEC);
	ssize_t n;

	if (f < 0)
		return -errno;
	n = read(f, buf, len - 1);
	close(f);
	if (n < 0)
		return -errno;
	buf[n] = 0;
	while (n && buf[n - 1] == '\n')
		buf[--n] = 0;
	return 0;
}

/* Write @val to a sysfs file: 0 or -errno. */
static int write_file(const char *path, const char *val)
{
	int f = open(path, O_WRONLY | O_CLOEXEC);
	int ret = 0;

	if (f < 0)
		return -errno;
	if (write(f, val, strlen(val)) != (ssize_t)strlen(val))
		ret = -errno;
	close(f);
	return ret;
}

static bool has_word(const char *list, const char *word)
{
	size_t n = strlen(word);

	for (const char *p = list; (p = strstr(p, word)); p += n)
		if ((p == list || p[-1] == ' ') && (!p[n] || p[n] == ' '))
			return true;
	return false;
}

#define PM_STATE	"/sys/power/state"
#define PM_TEST		"/sys/power/pm_test"
#define PM_TEST_DELAY	"/sys/module/suspend/parameters/pm_test_delay"

/*
 * A mounted virtio-9p file system: @where receives its mount point. Its
 * driver has no freeze or restore: system sleep resets the virtio device
 * under it, its queues are gone, and every later access hangs.
 */
static bool mounted_9p(char *where, size_t len)
{
	char dev[256], dir[256], type[64];
	bool found = false;
	FILE *f = fopen("/proc/mounts", "re");

	if (!f)
		return false;
	while (!found && fscanf(f, "%255s %255s %63s %*[^\n]", dev, dir, type) == 3)
		if (!strcmp(type, "9p")) {
			snprintf(where, len, "%s", dir);
			found = true;
		}
	fclose(f);
	return found;
}

/*
 * Skip unless the kernel can enter @state ("freeze": suspend to idle, the
 * standby a guest without ACPI S3 has; "disk": hibernate) with pm_test,
 * and the machine survives it. VSEG_PM_SYSTEM_SLEEP=1 in the environment
 * runs it even with a 9p file system mounted (the test then must not
 * touch it: run from tmpfs).
 */
static void require_system_sleep(const char *state)
{
	const char *force = getenv("VSEG_PM_SYSTEM_SLEEP");
	char buf[256];

	igt_require_f(read_file(PM_STATE, buf, sizeof(buf)) == 0,
		      "no " PM_STATE ": the kernel has no system sleep (CONFIG_PM_SLEEP)\n");
	igt_require_f(has_word(buf, state),
		      PM_STATE " offers \"%s\", not \"%s\": the kernel has no %s\n",
		      buf, state, !strcmp(state, "disk") ?
		      "hibernation (CONFIG_HIBERNATION)" :
		      "suspend to idle (CONFIG_SUSPEND)");
	igt_require_f(access(PM_TEST, W_OK) == 0,
		      "no " PM_TEST ": the kernel has no CONFIG_PM_DEBUG\n");
	igt_require_f((force && !strcmp(force, "1")) ||
		      !mounted_9p(buf, sizeof(buf)),
		      "%s is virtio-9p, which does not survive system sleep (no freeze/restore: its queues are reset and every later access hangs); run with no 9p mounted, or VSEG_PM_SYSTEM_SLEEP=1 from tmpfs\n",
		      buf);
}

static uint64_t pm_transitions(void)
{
	struct vseg_debugfs_file f;
	uint64_t n;

	vseg_debugfs_read(ctx.fd, "pm", NULL, &f);
	igt_assert(f.num_lines >= 1);
	n = vseg_debugfs_u64(&f.line[0], "transitions");
	vseg_debugfs_free(&f);
	return n;
}

/*
 * A system transition through the PM core with pm_test at "devices": it
 * freezes the tasks, calls every device's suspend ("freeze") or freeze
 * ("disk"), then resume or restore, and thaws the tasks; only the
 * platform's own sleep step is left out (there is no real hardware to
 * power down). Skips when the kernel refuses before it reached the
 * devices (vseg saw no transition).
 */
static void system_sleep(const char *state)
{
	char delay[32] = "";
	uint64_t before = pm_transitions();
	int err;

	require_system_sleep(state);
	if (read_file(PM_TEST_DELAY, delay, sizeof(delay)) == 0)
		igt_assert_eq(write_file(PM_TEST_DELAY, "0"), 0);
	igt_assert_eq(write_file(PM_TEST, "devices"), 0);
	err = write_file(PM_STATE, state);
	igt_assert_eq(write_file(PM_TEST, "none"), 0);
	if (delay[0])
		igt_assert_eq(write_file(PM_TEST_DELAY, delay), 0);
	if (err && pm_transitions() == before)
		igt_skip("the kernel refused \"%s\" before the devices: %s\n",
			 state, vseg_errname(err));
	igt_assert_f(!err, "%s: %s\n", state, vseg_errname(err));
	igt_assert_eq_u64(pm_transitions(), before + 1);
}

/* --- the transitions -------------------------------------------------------- */

static void do_standby(bool system, bool extras)
{
	struct pm_set set = {};

	load();
	if (system)
		require_system_sleep("freeze");
	populate(&set);
	if (extras)
		populate_extras(&set);
	if (system)
		system_sleep("freeze");
	else
		trigger("standby");
	verify(&set, BIT(NONE), BIT(NONE), false, false, "standby");
	if (extras)
		check_extras(&set);
	check_new_zero(ctx.fd);
	close_set(&set);
}

static void do_hibernate(bool system)
{
	struct pm_set set = {};

	load();
	if (system)
		require_system_sleep("disk");
	populate(&set);
	populate_extras(&set);
	if (system)
		system_sleep("disk");
	else
		trigger("hibernate");
	verify(&set, BIT(NONE) | BIT(STBY), BIT(NONE) | BIT(STBY), true,
	       false, "hibernate");
	check_extras(&set);
	check_new_zero(ctx.fd);
	/*
	 * And once more: the unpinned buffers came back after the first, so
	 * the second evicts (and brings back) the same ones.
	 */
	remember(&set);
	trigger("hibernate");
	verify(&set, BIT(NONE) | BIT(STBY), BIT(NONE) | BIT(STBY), true,
	       false, "hibernate");
	check_extras(&set);
	close_set(&set);
}

static void test_standby(void)
{
	do_standby(false, true);
}

static void test_hibernate(void)
{
	do_hibernate(false);
}

static void test_system_standby(void)
{
	do_standby(true, true);
}

static void test_system_hibernate(void)
{
	do_hibernate(true);
}

static void test_thaw(void)
{
	struct pm_set set = {};

	load();
	populate(&set);
	populate_extras(&set);
	trigger("thaw");
	verify(&set, BIT(NONE) | BIT(STBY), BIT(NONE) | BIT(STBY), true, true,
	       "hibernate");
	check_extras(&set);
	close_set(&set);
}

static void test_query_counters(void)
{
	struct pm_counts c[NUM_SEGS];
	struct pm_set set = {};

	load();
	/* Before any transition: all zero, transition none. */
	query_counts(c, DRM_VSEG_POWER_NONE);
	for (int s = 0; s < NUM_SEGS; s++)
		igt_assert_eq_u64(c[s].evicted + c[s].evicted_bytes +
				  c[s].saved + c[s].saved_bytes +
				  c[s].poisoned, 0);
	populate(&set);
	trigger("standby");
	/* verify() checks QUERY against debugfs and the expected counts. */
	verify(&set, BIT(NONE), BIT(NONE), false, false, "standby");
	/* The buffers of "none" came back: hibernate evicts them again. */
	remember(&set);
	trigger("hibernate");
	verify(&set, BIT(NONE) | BIT(STBY), BIT(NONE) | BIT(STBY), true, false,
	       "hibernate");
	close_set(&set);
}

static void test_jobs_in_flight(void)
{
	struct drm_vseg_gem_info i;
	struct vseg_cmdbuf cb;
	uint32_t h, *p;

	load();
	vseg_require_engine(ctx.fd);
	h = vseg_gem_create_in(ctx.fd, SZ_4M, seg_id[NONE], AP_FLAG);
	vseg_cb_init(&cb);
	for (int r = 0; r < 16; r++)
		vseg_cb_fill_phys(&cb, h, 0, SZ_4M, 0x5a5a0000u + r);
	vseg_cb_submit(ctx.fd, DRM_VSEG_ENGINE_COPY, &cb, NULL, 0, NULL, 0);
	trigger("standby");
	/* Evicted with the filled content, and back in "none" with it. */
	wait_restored();
	vseg_gem_info(ctx.fd, h, &i);
	igt_assert_eq_u32(i.segment_id, seg_id[NONE]);
	p = vseg_gem_mmap(ctx.fd, h, SZ_4M, PROT_READ);
	for (uint64_t k = 0; k < SZ_4M / 4; k++)
		igt_assert_f(p[k] == 0x5a5a000fu, "word %llu is 0x%x\n",
			     (unsigned long long)k, p[k]);
	munmap(p, SZ_4M);
	vseg_cb_fini(&cb);
	vseg_gem_close(ctx.fd, h);
}

/*
 * A table for the fault race: "sb" is preserved in both transitions but
 * only its first MiB is CPU-visible; "none" loses everything.
 */
#define RACE_SEGMENTS \
	"memory:name=sb,size=8M,visible=1M,flags=cpuvisible|standby|hibernate,cpu=0xe0000000;" \
	"memory:name=none,size=8M,flags=cpuvisible,cpu=0xe1000000;" \
	"aperture:name=gart,size=16M,commit=8M"
#define RACE_CYCLES	24

static bool can_system_sleep(const char *state)
{
	const char *force = getenv("VSEG_PM_SYSTEM_SLEEP");
	char buf[256];

	return read_file(PM_STATE, buf, sizeof(buf)) == 0 &&
	       has_word(buf, state) && access(PM_TEST, W_OK) == 0 &&
	       ((force && !strcmp(force, "1")) ||
		!mounted_9p(buf, sizeof(buf)));
}

/*
 * The child, a render-node client: the CPU-visible MiB of "sb" is taken by
 * a pinned buffer, so a new buffer placed at the top of "sb" moves into
 * "none" when the CPU first touches it. Each round creates and maps
 * RACE_BUFS such buffers (ioctls, which a transition holds off), then
 * faults them in one by one by writing them (no ioctl: these faults race
 * the transitions), reads them all back, and rewrites and checks a buffer
 * of "none" it keeps mapped; until *@stop.
 */
#define RACE_BUFS	8
#define RACE_SIZE	(64 * SZ_1K)

static void race_child(uint32_t sb, uint32_t none, volatile uint32_t *stop,
		       volatile uint32_t *rounds, int ready)
{
	int fd = drm_open_vseg_render();
	uint32_t pin, keep, *kp;
	char c = 0;

	pin = vseg_gem_create_in(fd, SZ_1M, sb, 0);
	igt_assert_eq(__vseg_make_resident_flags(fd, &pin, 1, PIN, NULL), 0);
	keep = vseg_gem_create_in(fd, SMALL, none, 0);
	kp = vseg_gem_mmap(fd, keep, SMALL, RW);
	igt_assert(write(ready, &c, 1) == 1);
	for (uint32_t k = 0; !*stop; k++) {
		uint32_t h[RACE_BUFS];
		void *p[RACE_BUFS];
		int64_t bad;

		for (int b = 0; b < RACE_BUFS; b++) {
			struct drm_vseg_gem_create cr;
			struct drm_vseg_gem_info i;

			vseg_create_args(&cr, RACE_SIZE, BIT(sb) | BIT(none),
					 TOP_FLAG);
			vseg_create_prefer(&cr, sb, 0);
			h[b] = vseg_gem_create(fd, &cr);
			vseg_gem_info(fd, h[b], &i);
			igt_assert_f(i.segment_id == sb && i.offset >= SZ_1M,
				     "a new buffer is at %u:0x%llx, not in the top of sb\n",
				     i.segment_id, (unsigned long long)i.offset);
			p[b] = vseg_gem_mmap(fd, h[b], RACE_SIZE, RW);
		}
		for (int b = 0; b < RACE_BUFS; b++)
			vseg_pattern_fill(p[b], RACE_SIZE, k * RACE_BUFS + b);
		for (int b = 0; b < RACE_BUFS; b++) {
			bad = vseg_pattern_check(p[b], RACE_SIZE,
						 k * RACE_BUFS + b);
			igt_assert_f(bad < 0, "round %u: byte %lld of faulted-in buffer %d lost\n",
				     k, (long long)bad, b);
			munmap(p[b], RACE_SIZE);
			vseg_gem_close(fd, h[b]);
		}

		vseg_pattern_fill(kp, SMALL, 5000 + k);
		bad = vseg_pattern_check(kp, SMALL, 5000 + k);
		igt_assert_f(bad < 0, "round %u: byte %lld of the kept buffer lost\n",
			     k, (long long)bad);
		*rounds = k + 1;
	}
	munmap(kp, SMALL);
	close(fd);
}

static void test_fault_race(void)
{
	volatile uint32_t *shared;
	uint32_t sb, none, done_before;
	int ready[2];
	char c;

	vseg_ctx_load_f(&ctx, "discrete table=%s", RACE_SEGMENTS);
	sb = vseg_segment_by_name(&ctx.q, ctx.segs, "sb");
	none = vseg_segment_by_name(&ctx.q, ctx.segs, "none");
	shared = mmap(NULL, 4096, PROT_READ | PROT_WRITE,
		      MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	igt_assert(shared != MAP_FAILED);
	shared[0] = 0;
	shared[1] = 0;
	igt_assert(pipe(ready) == 0);
	igt_fork(child, 1)
		race_child(sb, none, &shared[0], &shared[1], ready[1]);
	igt_assert(read(ready[0], &c, 1) == 1);
	while (!shared[1])
		usleep(1000);
	done_before = shared[1];
	for (int r = 0; r < RACE_CYCLES; r++) {
		static const char * const kinds[] = {
			"standby", "hibernate", "thaw"
		};

		trigger(kinds[r % 3]);
		/* Let the child fault a little between transitions. */
		usleep(20000);
	}
	if (can_system_sleep("freeze"))
		system_sleep("freeze");
	shared[0] = 1;
	igt_waitchildren();
	igt_info("the child ran %u rounds, %u of them during the transitions\n",
		 shared[1], shared[1] - done_before);
	igt_assert(shared[1] > done_before);
	close(ready[0]);
	close(ready[1]);
	munmap((void *)shared, 4096);
}

static void test_hostile_client(void)
{
	int go[2], done[2];
	char c = 0;

	load();
	igt_assert(pipe(go) == 0 && pipe(done) == 0);
	igt_fork(child, 1) {
		int fd = drm_open_vseg_render();
		uint32_t h[NUM_SEGS];

		for (int s = 0; s < NUM_SEGS; s++) {
			h[s] = vseg_gem_create_in(fd, BUF, seg_id[s], 0);
			vseg_bo_fill_pattern(fd, h[s], BUF, 7 + s);
		}
		igt_assert(write(done[1], &c, 1) == 1);
		igt_assert(read(go[0], &c, 1) == 1);
		for (int s = 0; s < NUM_SEGS; s++)
			vseg_bo_check_pattern(fd, h[s], BUF, 7 + s,
					      "the client's buffer");
		/* Memory that lost power: new buffers read zero. */
		check_new_zero(fd);
		/* Not root: no transition. */
		vseg_drop_privileges();
		igt_assert(__trigger("standby") != 0);
		close(fd);
	}
	igt_assert(read(done[0], &c, 1) == 1);
	trigger("hibernate");
	trigger("standby");
	igt_assert(write(go[1], &c, 1) == 1);
	igt_waitchildren();
	close(go[0]);
	close(go[1]);
	close(done[0]);
	close(done[1]);
}

/* --- residency after the exit ------------------------------------------ */

/* One memory segment that loses its content in standby and hibernate. */
#define RES_SEGMENTS \
	"memory:name=vram,size=8M,flags=cpuvisible,cpu=0xe0000000;" \
	"aperture:name=gart,size=16M,commit=8M"
#define RES_BUFS	6
#define RES_PARAM	"/sys/module/vseg/parameters/pm_restore"

static void set_restore_param(bool on)
{
	igt_assert_f(write_file(RES_PARAM, on ? "Y" : "N") == 0,
		     "cannot write %s\n", RES_PARAM);
}

static void set_prio(uint32_t h, uint32_t prio)
{
	struct drm_vseg_set_priority a = { .handle = h, .priority = prio };

	igt_assert_eq(__vseg_ioctl(ctx.fd, DRM_IOCTL_VSEG_SET_PRIORITY, &a), 0);
}

/* N buffers come back after standby, then after hibernate, with their bytes. */
static void restored_all(uint32_t vram)
{
	static const char * const kinds[] = { "standby", "hibernate" };
	uint32_t h[RES_BUFS];
	struct restore_counts r;

	for (int b = 0; b < RES_BUFS; b++) {
		h[b] = vseg_gem_create_in(ctx.fd, BUF, vram, 0);
		vseg_bo_fill_pattern(ctx.fd, h[b], BUF, 300 + b);
	}
	for (int k = 0; k < 2; k++) {
		trigger(kinds[k]);
		wait_restored();
		for (int b = 0; b < RES_BUFS; b++) {
			igt_assert_f(vseg_gem_segment(ctx.fd, h[b]) == vram,
				     "after %s: buffer %d in segment %u\n",
				     kinds[k], b, vseg_gem_segment(ctx.fd, h[b]));
			vseg_bo_check_pattern(ctx.fd, h[b], BUF, 300 + b,
					      "a restored buffer");
		}
		read_restore(vram, &r);
		igt_info("%s: recorded %llu restored %llu no_room %llu skipped %llu\n",
			 kinds[k], (unsigned long long)r.recorded,
			 (unsigned long long)r.restored,
			 (unsigned long long)r.no_room,
			 (unsigned long long)r.skipped);
		igt_assert_eq_u64(r.recorded, RES_BUFS);
		igt_assert_eq_u64(r.restored, RES_BUFS);
		igt_assert_eq_u64(r.restored_bytes, RES_BUFS * BUF);
		igt_assert_eq_u64(r.no_room + r.skipped, 0);
	}
	for (int b = 0; b < RES_BUFS; b++)
		vseg_gem_close(ctx.fd, h[b]);
}

/*
 * Three HIGH and three LOW buffers are evicted by standby, with the
 * restore held (pm_restore off); a 3.5 MiB buffer then takes room, so
 * only 4.5 MiB is free: the restore brings every HIGH one back and the
 * LOW ones that fit, the others counted no_room. A hostile unprivileged
 * process, meanwhile, sees none of the buffers and cannot run the
 * restore; afterwards it pushes 8 MiB of its own into the segment: the
 * HIGH buffers stay, their bytes intact.
 */
static void restored_priority(uint32_t vram)
{
	uint32_t high[3], low[3], filler;
	int go[2], ready[2];
	struct restore_counts r;
	unsigned int low_back = 0;
	char c = 0;

	for (int b = 0; b < 3; b++) {
		high[b] = vseg_gem_create_in(ctx.fd, BUF, vram, 0);
		set_prio(high[b], DRM_VSEG_PRIORITY_HIGH);
		vseg_bo_fill_pattern(ctx.fd, high[b], BUF, 400 + b);
		low[b] = vseg_gem_create_in(ctx.fd, BUF, vram, 0);
		set_prio(low[b], DRM_VSEG_PRIORITY_LOW);
		vseg_bo_fill_pattern(ctx.fd, low[b], BUF, 410 + b);
	}
	set_restore_param(false);
	trigger("standby");
	igt_assert_eq_u64(restore_pending(), 6);
	for (int b = 0; b < 3; b++) {
		igt_assert_eq_u32(vseg_gem_segment(ctx.fd, high[b]), 0);
		igt_assert_eq_u32(vseg_gem_segment(ctx.fd, low[b]), 0);
	}
	filler = vseg_gem_create_in(ctx.fd, 3 * BUF + BUF / 2, vram, 0);

	igt_assert(pipe(go) == 0 && pipe(ready) == 0);
	igt_fork(child, 1) {
		int cfd = drm_open_vseg_render();
		struct drm_vseg_gem_info i;
		unsigned int in_vram = 0;
		uint32_t ch[8];

		vseg_drop_privileges();
		/* The parent's handles name nothing in its own file. */
		for (int b = 0; b < 3; b++) {
			igt_assert_eq(__vseg_gem_info(cfd, high[b], &i), -ENOENT);
			igt_assert_eq(__vseg_gem_info(cfd, low[b], &i), -ENOENT);
		}
		/* Neither the restore nor its switch is the user's. */
		igt_assert(__trigger("restore") != 0);
		igt_assert(write_file(RES_PARAM, "Y") != 0);
		igt_assert(write(ready[1], &c, 1) == 1);
		igt_assert(read(go[0], &c, 1) == 1);
		for (int b = 0; b < 8; b++) {
			ch[b] = vseg_gem_create_in(cfd, BUF, vram, 0);
			for (int k = 0; k < 2; k++)
				__vseg_make_resident(cfd, &ch[b], 1, NULL);
		}
		/* Its later buffers may have pushed its earlier ones out. */
		for (int b = 0; b < 8; b++)
			in_vram += vseg_gem_segment(cfd, ch[b]) == vram;
		igt_info("the hostile process has %u MiB of its 8 in the segment at the end\n",
			 in_vram);
		close(cfd);
	}
	igt_assert(read(ready[0], &c, 1) == 1);
	igt_assert_eq_u64(restore_pending(), 6);
	igt_assert_eq(__trigger("restore"), 0);
	set_restore_param(true);
	igt_assert_eq_u64(restore_pending(), 0);

	read_restore(vram, &r);
	for (int b = 0; b < 3; b++) {
		igt_assert_f(vseg_gem_segment(ctx.fd, high[b]) == vram,
			     "HIGH buffer %d did not come back\n", b);
		low_back += vseg_gem_segment(ctx.fd, low[b]) == vram;
	}
	igt_info("restore: %llu recorded, %llu restored (3 HIGH, %u LOW), %llu without room\n",
		 (unsigned long long)r.recorded, (unsigned long long)r.restored,
		 low_back, (unsigned long long)r.no_room);
	igt_assert_eq_u64(r.recorded, 6);
	igt_assert_eq_u64(r.restored, 3 + low_back);
	igt_assert_eq_u64(r.no_room, 3 - low_back);
	igt_assert_eq_u64(r.skipped, 0);
	igt_assert_f(r.no_room > 0,
		     "every LOW buffer fit: the order proves nothing\n");

	igt_assert(write(go[1], &c, 1) == 1);
	igt_waitchildren();
	for (int b = 0; b < 3; b++) {
		igt_assert_f(vseg_gem_segment(ctx.fd, high[b]) == vram,
			     "the hostile process pushed HIGH buffer %d out\n",
			     b);
		vseg_bo_check_pattern(ctx.fd, high[b], BUF, 400 + b,
				      "a HIGH buffer");
		vseg_bo_check_pattern(ctx.fd, low[b], BUF, 410 + b,
				      "a LOW buffer");
		vseg_gem_close(ctx.fd, high[b]);
		vseg_gem_close(ctx.fd, low[b]);
	}
	vseg_gem_close(ctx.fd, filler);
	close(go[0]);
	close(go[1]);
	close(ready[0]);
	close(ready[1]);
}

static void test_residency_restored(void)
{
	uint32_t vram;

	vseg_ctx_load_f(&ctx, "discrete table=%s", RES_SEGMENTS);
	vram = vseg_segment_by_name(&ctx.q, ctx.segs, "vram");
	restored_all(vram);
	restored_priority(vram);
}

igt_main
{
	static const struct {
		const char *name;
		void (*test)(void);
		const char *describe;
	} tests[] = {
		{ "standby", test_standby,
		  "Standby evicts the buffers of the segment without "
		  "PreservedDuringStandby but the pinned one; every byte is "
		  "intact; only that segment is poisoned." },
		{ "hibernate", test_hibernate,
		  "Hibernate evicts the buffers of the segments without a "
		  "hibernate flag and the partially preserved segment's "
		  "buffer ending after SystemMemoryEndAddress." },
		{ "system-standby", test_system_standby,
		  "A real suspend to idle through /sys/power/state with "
		  "pm_test at devices: the PM core calls suspend and resume; "
		  "buffers, primary and aperture as with sysfs standby." },
		{ "system-hibernate", test_system_hibernate,
		  "A real hibernate through /sys/power/state with pm_test at "
		  "devices: the PM core calls freeze and restore; buffers as "
		  "with sysfs hibernate." },
		{ "thaw", test_thaw,
		  "A hibernate that thaws evicts as hibernate does, poisons "
		  "nothing and keeps every byte." },
		{ "query-counters", test_query_counters,
		  "QUERY_SEGMENTS reports the last transition's counters "
		  "per segment, for old and new element sizes." },
		{ "fault-race", test_fault_race,
		  "CPU faults of another process wait for the transitions "
		  "they race; no byte is lost or poisoned." },
		{ "jobs-in-flight", test_jobs_in_flight,
		  "A queued copy-engine FILL ends before its buffer is "
		  "evicted by standby." },
		{ "hostile-client", test_hostile_client,
		  "A render-node client's buffers survive another's "
		  "transition, it never sees poison and cannot trigger one." },
		{ "residency-restored", test_residency_restored,
		  "Evicted buffers come back to their segment after standby "
		  "and hibernate, HIGH priority first; a hostile process "
		  "cannot see them or push the HIGH ones out." },
	};

	igt_fixture
		vseg_ctx_setup(&ctx);

	for (unsigned int i = 0; i < ARRAY_SIZE(tests); i++) {
		igt_describe(tests[i].describe);
		igt_subtest(tests[i].name) {
			tests[i].test();
			vseg_ctx_finish(&ctx, tests[i].name);
		}
	}

	igt_fixture
		vseg_ctx_unload(&ctx);
}
