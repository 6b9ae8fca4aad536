// SPDX-License-Identifier: MIT
/*
 * vseg_host_aperture: the CPU host aperture of a segment the CPU cannot
 * see (SupportsCpuHostAperture): CPU faults on its buffers go through a
 * window of host pages, stealing the least recently used slot, instead of
 * moving the buffer; slots go when the buffer moves or is freed; another
 * process thrashing the window never sees a byte that is not its own.
 *
 * Copyright (c) 2026 The vseg authors
 */
/**
 * TEST: vseg host aperture
 * Category: Core
 * Mega feature: General Core features
 * Sub-category: Memory management
 * Functionality: CPU host aperture
 * Description: CPU access through the CPU host aperture of a segment that
 *	is not CPU-visible: buffers there are mapped where they are through a
 *	window of host pages, never moved; slots are stolen least recently
 *	used first and released on move and free; other processes see only
 *	their own data.
 *
 * SUBTEST: window-16m
 * Description: A 16 MiB buffer in the segment is written and read back
 *	whole through its 1 MiB window: the buffer never moves, every page
 *	faults through the window, and the remaps debugfs counts are those of
 *	a window 16 times smaller than the buffer.
 *
 * SUBTEST: table
 * Description: The query and debugfs report the window's address and size,
 *	its slots (size / host page) and its caching, write-combined or cached
 *	by SupportsCachedCpuHostAperture; a buffer there is CPU-mappable.
 *
 * SUBTEST: prime-coherent
 * Description: Two processes map one buffer, shared through PRIME, larger
 *	than the window: each sees every byte the other wrote, though their
 *	pages keep stealing each other's slots.
 *
 * SUBTEST: hostile-thrash
 * Description: A second process thrashes the window with buffers of its
 *	own while the first one reads and writes its buffer: each reads back
 *	only its own pattern, the remaps grow, and the second process cannot
 *	map the first one's buffer by its fake offset.
 *
 * SUBTEST: partial-and-remap
 * Description: A second mapping of the first half of a buffer shows the
 *	bytes of the first; a page mapped again, or by a second mapping, keeps
 *	its one slot: no remap, no second slot.
 *
 * SUBTEST: one-slot
 * Description: A window of a single host page serves a buffer of many
 *	pages: every fault after the first steals the one slot, and every
 *	byte is read back.
 *
 * SUBTEST: free-drops-slots
 * Description: A buffer closed and unmapped while it holds slots gives
 *	them all back.
 *
 * SUBTEST: evict-drops-slots
 * Description: A buffer evicted while mapped gives its slots back; its
 *	old mapping then reads its own bytes from system memory, never those
 *	of the buffer placed where it was; made resident again it takes slots
 *	again.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>
#include <xf86drm.h>

#include "igt.h"
#include "igt_vseg.h"

IGT_TEST_DESCRIPTION("CPU access through the CPU host aperture of a segment "
		     "that is not CPU-visible: buffers are mapped where they "
		     "are through a window of host pages, never moved; slots "
		     "are stolen least recently used first and released on "
		     "move and free; other processes see only their own "
		     "data.");

#define RW		(PROT_READ | PROT_WRITE)
#define WINDOW		SZ_1M
#define CACHED_WINDOW	(256 * 1024)

/*
 * "hidden": 32 MiB, not CPU-visible, with a 1 MiB write-combined window;
 * "chidden": 8 MiB with a 256 KiB cached one.
 */
#define TABLE \
	"discrete table=" \
	"memory:name=hidden,size=32M,flags=cpuhostaperture," \
	"hostaperture=1M,hostaddr=0xd0000000;" \
	"memory:name=chidden,size=8M,flags=cpuhostaperture|" \
	"cachedcpuhostaperture,hostaperture=256K,hostaddr=0xd0100000;" \
	"aperture:name=aperture,size=64M"

static struct vseg_ctx ctx = VSEG_CTX_INIT(VSEG_LEFTOVERS_NONE_OURS);
static uint32_t hidden, chidden;
static uint64_t host_page;

/**
 * struct window - a window's debugfs counters
 * @slots: its slots.
 * @used: slots in use.
 * @faults: faults served.
 * @remaps: slots stolen.
 */
struct window {
	uint64_t slots;
	uint64_t used;
	uint64_t faults;
	uint64_t remaps;
};

static void read_window(int fd, uint32_t id, struct window *w)
{
	struct vseg_debugfs_segments s;
	const struct vseg_debugfs_line *l;

	vseg_debugfs_read_segments(fd, &s);
	igt_assert_lt(id, s.num_lines);
	l = &s.line[id];
	w->slots = vseg_debugfs_u64(l, "host_slots");
	w->used = vseg_debugfs_u64(l, "host_slots_used");
	w->faults = vseg_debugfs_u64(l, "host_faults");
	w->remaps = vseg_debugfs_u64(l, "host_remaps");
	vseg_debugfs_free_segments(&s);
	igt_assert_lte_u64(w->used, w->slots);
}

/* Wait up to 5 s for the window's slots in use to be @want. */
static void wait_used(uint32_t id, uint64_t want)
{
	struct window w;

	for (int i = 0; i < 500; i++) {
		read_window(ctx.fd, id, &w);
		if (w.used == want)
			return;
		usleep(10000);
	}
	igt_assert_f(false, "segment %u: %llu slots in use, expected %llu\n",
		     id, (unsigned long long)w.used, (unsigned long long)want);
}

static void check_pattern(const void *ptr, uint64_t size, uint32_t seed,
			  const char *what)
{
	int64_t bad = vseg_pattern_check(ptr, size, seed);

	igt_assert_f(bad < 0, "%s: data differs at offset %#llx of %#llx\n",
		     what, (unsigned long long)bad, (unsigned long long)size);
}

/* Touch (read) one byte of each page. */
static void touch(const volatile uint8_t *p, uint64_t size)
{
	uint8_t sum = 0;

	for (uint64_t off = 0; off < size; off += host_page)
		sum += p[off];
	igt_debug("touched, sum %u\n", sum);
}

static void on_load(void)
{
	hidden = vseg_segment_by_name(&ctx.q, ctx.segs, "hidden");
	chidden = vseg_segment_by_name(&ctx.q, ctx.segs, "chidden");
	host_page = sysconf(_SC_PAGESIZE);
}

/* --- the window ----------------------------------------------------------- */

static void test_window_16m(void)
{
	const uint64_t size = 16 * SZ_1M, pages = size / host_page;
	struct drm_vseg_gem_info before, after;
	struct vseg_paging pg0, pg1;
	struct window w0, w1;
	uint32_t seed = vseg_test_seed(0x4057a9);
	uint32_t h;
	void *p;

	h = vseg_gem_create_in(ctx.fd, size, hidden, 0);
	vseg_gem_info(ctx.fd, h, &before);
	igt_assert_eq_u32(before.segment_id, hidden);
	igt_assert_f(before.placement_flags & DRM_VSEG_INFO_CPU_MAPPABLE,
		     "a buffer behind a CPU host aperture is not CPU-mappable\n");
	read_window(ctx.fd, hidden, &w0);
	igt_assert_eq_u64(w0.slots, WINDOW / host_page);
	igt_assert_eq_u64(w0.used, 0);

	vseg_debugfs_read_paging(ctx.fd, &pg0);
	p = vseg_gem_mmap(ctx.fd, h, size, RW);
	vseg_pattern_fill(p, size, seed);
	check_pattern(p, size, seed, "through the window");

	/* Nothing moved: no paging transfer, in or out of any segment. */
	vseg_debugfs_read_paging(ctx.fd, &pg1);
	igt_assert_eq_u64(pg1.engine.op[VSEG_PAGING_OP_TRANSFER],
			  pg0.engine.op[VSEG_PAGING_OP_TRANSFER]);
	igt_assert_eq_u64(pg1.engine.op[VSEG_PAGING_OP_TRANSFER_VIRTUAL],
			  pg0.engine.op[VSEG_PAGING_OP_TRANSFER_VIRTUAL]);
	igt_assert_eq_u64(pg1.seg[hidden].transfers, pg0.seg[hidden].transfers);

	vseg_gem_info(ctx.fd, h, &after);
	igt_assert_eq_u32(after.segment_id, hidden);
	igt_assert_eq_u64(after.offset, before.offset);
	igt_assert_eq_u64(after.moves, before.moves);

	read_window(ctx.fd, hidden, &w1);
	igt_info("window %llu slots: %llu faults, %llu remaps, %llu in use\n",
		 (unsigned long long)w1.slots,
		 (unsigned long long)(w1.faults - w0.faults),
		 (unsigned long long)(w1.remaps - w0.remaps),
		 (unsigned long long)w1.used);
	/* Each page faulted at least once per pass, through a full window. */
	igt_assert_eq_u64(w1.used, w1.slots);
	igt_assert_lte_u64(2 * pages, w1.faults - w0.faults);
	/* Every fault past the first window's worth stole a slot. */
	igt_assert_lte_u64(2 * pages - w1.slots, w1.remaps - w0.remaps);
	igt_assert_lte_u64(w1.remaps - w0.remaps + w1.used,
			   w1.faults - w0.faults);

	/*
	 * The last window's worth of pages holds the slots: read again, they
	 * do not fault. The first pages' slots were stolen and their
	 * mappings zapped: each faults again.
	 */
	touch((uint8_t *)p + size - WINDOW, WINDOW);
	read_window(ctx.fd, hidden, &w0);
	igt_assert_eq_u64(w0.faults, w1.faults);
	touch(p, WINDOW);
	read_window(ctx.fd, hidden, &w1);
	igt_assert_eq_u64(w1.faults - w0.faults, WINDOW / host_page);
	igt_assert_eq_u64(w1.remaps - w0.remaps, WINDOW / host_page);

	munmap(p, size);
	vseg_gem_close(ctx.fd, h);
	wait_used(hidden, 0);
}

static void test_table(void)
{
	const struct drm_vseg_segment_info *s = vseg_ctx_seg(&ctx, hidden);
	const struct drm_vseg_segment_info *c = vseg_ctx_seg(&ctx, chidden);
	struct vseg_debugfs_segments d;
	const uint64_t size = 512 * 1024;
	uint32_t seed = vseg_test_seed(0x7ab1e);
	struct window w;
	uint32_t h;
	void *p;

	igt_assert(s->flags & DRM_VSEG_SEGMENT_SUPPORTS_CPU_HOST_APERTURE);
	igt_assert(!(s->flags & DRM_VSEG_SEGMENT_CPU_VISIBLE));
	igt_assert_eq_u64(s->cpu_visible_size, 0);
	igt_assert_eq_u64(s->cpu_host_aperture_address, 0xd0000000);
	igt_assert_eq_u64(s->cpu_host_aperture_size, WINDOW);
	igt_assert(c->flags & DRM_VSEG_SEGMENT_SUPPORTS_CACHED_CPU_HOST_APERTURE);
	igt_assert_eq_u64(c->cpu_host_aperture_address, 0xd0100000);
	igt_assert_eq_u64(c->cpu_host_aperture_size, CACHED_WINDOW);

	vseg_debugfs_read_segments(ctx.fd, &d);
	igt_assert_eq_u64(vseg_debugfs_u64(&d.line[hidden], "host_aperture"),
			  0xd0000000);
	igt_assert_eq_u64(vseg_debugfs_u64(&d.line[hidden],
					   "host_aperture_size"), WINDOW);
	igt_assert(!strcmp(vseg_debugfs_value(&d.line[hidden], "host_caching"),
			   "wc"));
	igt_assert(!strcmp(vseg_debugfs_value(&d.line[chidden], "host_caching"),
			   "cached"));
	igt_assert_f(!vseg_debugfs_value(&d.line[ctx.ap_id], "host_slots"),
		     "the aperture segment has window counters\n");
	vseg_debugfs_free_segments(&d);

	/* The cached window maps, and holds what is written, in place. */
	read_window(ctx.fd, chidden, &w);
	igt_assert_eq_u64(w.slots, CACHED_WINDOW / host_page);
	h = vseg_gem_create_in(ctx.fd, size, chidden, 0);
	p = vseg_gem_mmap(ctx.fd, h, size, RW);
	vseg_pattern_fill(p, size, seed);
	check_pattern(p, size, seed, "through the cached window");
	igt_assert_eq_u32(vseg_gem_segment(ctx.fd, h), chidden);
	read_window(ctx.fd, chidden, &w);
	igt_assert_eq_u64(w.used, w.slots);
	igt_assert_lte_u64(size / host_page - w.slots, w.remaps);
	munmap(p, size);
	vseg_gem_close(ctx.fd, h);
	wait_used(chidden, 0);
}

/* --- two processes --------------------------------------------------------- */

static void wait_byte(int fd, char want)
{
	char c = 0;

	igt_assert_eq(read(fd, &c, 1), 1);
	igt_assert_eq(c, want);
}

static void send_byte(int fd, char c)
{
	igt_assert_eq(write(fd, &c, 1), 1);
}

static void test_prime_coherent(void)
{
	const uint64_t size = 2 * WINDOW;
	uint32_t seed_a = vseg_test_seed(0xa11ce), seed_b = seed_a ^ 0x5a5a5a5a;
	int to_child[2], to_parent[2], dmabuf;
	uint32_t h;
	void *p;

	h = vseg_gem_create_in(ctx.fd, size, hidden, 0);
	igt_assert_eq(drmPrimeHandleToFD(ctx.fd, h, DRM_CLOEXEC | DRM_RDWR,
					 &dmabuf), 0);
	igt_assert_eq(pipe(to_child), 0);
	igt_assert_eq(pipe(to_parent), 0);
	p = vseg_gem_mmap(ctx.fd, h, size, RW);

	igt_fork(child, 1) {
		int fd = drm_open_vseg_render();
		uint32_t ch;
		void *q;

		igt_assert_eq(drmPrimeFDToHandle(fd, dmabuf, &ch), 0);
		q = vseg_gem_mmap(fd, ch, size, RW);
		vseg_pattern_fill(q, size, seed_a);
		send_byte(to_parent[1], 'a');
		wait_byte(to_child[0], 'b');
		check_pattern(q, size, seed_b, "the parent's bytes in the child");
		igt_assert_eq_u32(vseg_gem_segment(fd, ch), hidden);
		munmap(q, size);
		close(fd);
	}
	wait_byte(to_parent[0], 'a');
	check_pattern(p, size, seed_a, "the child's bytes in the parent");
	vseg_pattern_fill(p, size, seed_b);
	send_byte(to_child[1], 'b');
	igt_waitchildren();

	igt_assert_eq_u32(vseg_gem_segment(ctx.fd, h), hidden);
	check_pattern(p, size, seed_b, "the parent's bytes, again");
	munmap(p, size);
	close(dmabuf);
	vseg_gem_close(ctx.fd, h);
	for (int i = 0; i < 2; i++) {
		close(to_child[i]);
		close(to_parent[i]);
	}
	wait_used(hidden, 0);
}

static void test_hostile_thrash(void)
{
	const uint64_t size = 2 * WINDOW, thief_size = 2 * WINDOW;
	uint32_t seed = vseg_test_seed(0x71c71e), thief_seed = ~seed;
	int to_child[2], to_parent[2];
	struct window w0, w1, w2;
	uint64_t fake;
	uint32_t h;
	void *p;

	h = vseg_gem_create_in(ctx.fd, size, hidden, 0);
	p = vseg_gem_mmap(ctx.fd, h, size, RW);
	vseg_pattern_fill(p, size, seed);
	igt_assert_eq(__vseg_gem_mmap_offset(ctx.fd, h, &fake), 0);
	igt_assert_eq(pipe(to_child), 0);
	igt_assert_eq(pipe(to_parent), 0);
	read_window(ctx.fd, hidden, &w0);

	igt_fork(child, 1) {
		int fd = drm_open_vseg_render();
		uint32_t th[4];
		void *tp[4], *steal;

		/* A client of its own: not the victim's inherited mapping. */
		munmap(p, size);

		/* The victim's offset is not the thief's to map. */
		steal = mmap(NULL, size, PROT_READ, MAP_SHARED, fd, fake);
		igt_assert_f(steal == MAP_FAILED,
			     "mapped another file's buffer by its offset\n");

		for (int i = 0; i < 4; i++) {
			th[i] = vseg_gem_create_in(fd, thief_size, hidden, 0);
			tp[i] = vseg_gem_mmap(fd, th[i], thief_size, RW);
		}
		send_byte(to_parent[1], 'g');
		for (int round = 0; round < 3; round++) {
			for (int i = 0; i < 4; i++) {
				vseg_pattern_fill(tp[i], thief_size,
						  thief_seed + i + round);
				check_pattern(tp[i], thief_size,
					      thief_seed + i + round,
					      "the thief's own bytes");
			}
		}
		/* Once the victim is idle: a last pass over every buffer. */
		wait_byte(to_child[0], 'v');
		for (int i = 0; i < 4; i++)
			check_pattern(tp[i], thief_size, thief_seed + i + 2,
				      "the thief's bytes at the end");
		send_byte(to_parent[1], 'd');
		wait_byte(to_child[0], 'x');
		for (int i = 0; i < 4; i++) {
			munmap(tp[i], thief_size);
			vseg_gem_close(fd, th[i]);
		}
		close(fd);
	}

	/* The victim keeps using its mapping while the thief runs. */
	wait_byte(to_parent[0], 'g');
	for (int round = 0; round < 3; round++) {
		check_pattern(p, size, seed + round, "the victim's own bytes");
		vseg_pattern_fill(p, size, seed + round + 1);
	}
	send_byte(to_child[1], 'v');
	wait_byte(to_parent[0], 'd');
	/*
	 * The thief's last pass faulted more pages than the window has
	 * slots: it took every one, and the victim's pages lost their
	 * mappings (a stale one would still reach the segment page).
	 */
	read_window(ctx.fd, hidden, &w1);
	igt_assert_eq_u64(w1.used, w1.slots);
	check_pattern(p, size, seed + 3, "the victim's bytes after the thief");
	read_window(ctx.fd, hidden, &w2);
	igt_assert_eq_u64(w2.faults - w1.faults, size / host_page);
	send_byte(to_child[1], 'x');
	igt_waitchildren();

	igt_assert_eq_u32(vseg_gem_segment(ctx.fd, h), hidden);
	read_window(ctx.fd, hidden, &w1);
	igt_assert_lte_u64(4 * thief_size / host_page, w1.remaps - w0.remaps);
	munmap(p, size);
	vseg_gem_close(ctx.fd, h);
	for (int i = 0; i < 2; i++) {
		close(to_child[i]);
		close(to_parent[i]);
	}
	wait_used(hidden, 0);
}

/* --- mappings of parts, mappings again ------------------------------------ */

static void test_partial_and_remap(void)
{
	const uint64_t size = 256 * 1024, half = size / 2;
	uint32_t seed = vseg_test_seed(0x9a47);
	struct window w0, w1;
	uint64_t off;
	uint8_t *p, *q;
	uint32_t h;

	h = vseg_gem_create_in(ctx.fd, size, hidden, 0);
	igt_assert_eq(__vseg_gem_mmap_offset(ctx.fd, h, &off), 0);
	p = vseg_gem_mmap(ctx.fd, h, size, RW);
	vseg_pattern_fill(p, size, seed);
	read_window(ctx.fd, hidden, &w0);
	igt_assert_eq_u64(w0.used, size / host_page);

	/* The first half again (DRM maps from a buffer's start only). */
	q = mmap(NULL, half, PROT_READ, MAP_SHARED, ctx.fd, off);
	igt_assert(q != MAP_FAILED);
	igt_assert_f(!memcmp(q, p, half),
		     "a second mapping of the first half shows other bytes\n");
	read_window(ctx.fd, hidden, &w1);
	igt_assert_eq_u64(w1.used, size / host_page);
	igt_assert_eq_u64(w1.remaps, w0.remaps);
	igt_assert_eq_u64(w1.faults - w0.faults, half / host_page);

	/* Unmapped and mapped again: the same slots. */
	munmap(p, size);
	p = vseg_gem_mmap(ctx.fd, h, size, PROT_READ);
	check_pattern(p, size, seed, "mapped again");
	read_window(ctx.fd, hidden, &w1);
	igt_assert_eq_u64(w1.used, size / host_page);
	igt_assert_eq_u64(w1.remaps, w0.remaps);

	munmap(q, half);
	munmap(p, size);
	vseg_gem_close(ctx.fd, h);
	wait_used(hidden, 0);
}

#define ONE_SLOT_TABLE \
	"discrete table=" \
	"memory:name=hidden,size=8M,flags=cpuhostaperture," \
	"hostaperture=4K,hostaddr=0xd0000000;" \
	"memory:name=chidden,size=4M,flags=cpuhostaperture|" \
	"cachedcpuhostaperture,hostaperture=4K,hostaddr=0xd0001000;" \
	"aperture:name=aperture,size=16M"

static void test_one_slot(void)
{
	const uint64_t size = 128 * 1024, pages = size / host_page;
	uint32_t seed = vseg_test_seed(0x1510);
	struct window w0, w1;
	uint32_t h;
	void *p;

	/* A table of its own: reload, the base taken again. */
	vseg_ctx_load(&ctx, ONE_SLOT_TABLE);
	read_window(ctx.fd, hidden, &w0);
	igt_assert_eq_u64(w0.slots, 1);

	h = vseg_gem_create_in(ctx.fd, size, hidden, 0);
	p = vseg_gem_mmap(ctx.fd, h, size, RW);
	vseg_pattern_fill(p, size, seed);
	check_pattern(p, size, seed, "through a one-page window");
	igt_assert_eq_u32(vseg_gem_segment(ctx.fd, h), hidden);
	read_window(ctx.fd, hidden, &w1);
	igt_assert_eq_u64(w1.used, 1);
	igt_assert_lte_u64(2 * pages - 1, w1.remaps - w0.remaps);
	munmap(p, size);
	vseg_gem_close(ctx.fd, h);
	wait_used(hidden, 0);
}

/* --- release ------------------------------------------------------------- */

static void test_free_drops_slots(void)
{
	const uint64_t size = 512 * 1024;
	struct window w;
	uint32_t h, h2;
	void *p, *p2;

	h = vseg_gem_create_in(ctx.fd, size, hidden, 0);
	h2 = vseg_gem_create_in(ctx.fd, size, hidden, 0);
	p = vseg_gem_mmap(ctx.fd, h, size, RW);
	p2 = vseg_gem_mmap(ctx.fd, h2, size, RW);
	touch(p, size);
	touch(p2, size);
	read_window(ctx.fd, hidden, &w);
	igt_assert_eq_u64(w.used, 2 * size / host_page);

	/* Closed but mapped: alive, its slots kept; unmapped: gone. */
	vseg_gem_close(ctx.fd, h);
	read_window(ctx.fd, hidden, &w);
	igt_assert_eq_u64(w.used, 2 * size / host_page);
	munmap(p, size);
	wait_used(hidden, size / host_page);

	munmap(p2, size);
	vseg_gem_close(ctx.fd, h2);
	wait_used(hidden, 0);
}

static void test_evict_drops_slots(void)
{
	const uint64_t size = 512 * 1024;
	uint32_t seed = vseg_test_seed(0xe71c7), other_seed = ~seed;
	struct drm_vseg_gem_info before, info;
	struct window w;
	uint32_t h, h2;
	void *p, *p2;

	h = vseg_gem_create_in(ctx.fd, size, hidden, 0);
	vseg_gem_info(ctx.fd, h, &before);
	p = vseg_gem_mmap(ctx.fd, h, size, RW);
	vseg_pattern_fill(p, size, seed);
	read_window(ctx.fd, hidden, &w);
	igt_assert_eq_u64(w.used, size / host_page);

	vseg_evict(ctx.fd, &h, 1);
	wait_used(hidden, 0);
	igt_assert_eq_u32(vseg_gem_segment(ctx.fd, h), 0);

	/* Another buffer where it was: the old mapping never shows it. */
	h2 = vseg_gem_create_in(ctx.fd, size, hidden, 0);
	vseg_gem_info(ctx.fd, h2, &info);
	igt_info("evicted from %#llx, the new buffer is at %#llx\n",
		 (unsigned long long)before.offset,
		 (unsigned long long)info.offset);
	p2 = vseg_gem_mmap(ctx.fd, h2, size, RW);
	vseg_pattern_fill(p2, size, other_seed);
	check_pattern(p, size, seed, "the evicted buffer's old mapping");
	check_pattern(p2, size, other_seed, "the new buffer");
	igt_assert_eq_u32(vseg_gem_segment(ctx.fd, h), 0);
	read_window(ctx.fd, hidden, &w);
	igt_assert_eq_u64(w.used, size / host_page);

	/* Back in the segment: slots again, the same bytes. */
	vseg_make_resident(ctx.fd, &h, 1);
	igt_assert_eq_u32(vseg_gem_segment(ctx.fd, h), hidden);
	check_pattern(p, size, seed, "the buffer made resident again");
	check_pattern(p2, size, other_seed, "the new buffer, again");
	read_window(ctx.fd, hidden, &w);
	igt_assert_eq_u64(w.used, 2 * size / host_page);

	munmap(p, size);
	munmap(p2, size);
	vseg_gem_close(ctx.fd, h);
	vseg_gem_close(ctx.fd, h2);
	wait_used(hidden, 0);
}

static const struct vseg_subtest tests[] = {
	{ "window-16m", test_window_16m,
	  "A 16 MiB buffer is written and read back through a 1 MiB window "
	  "without moving; the remaps are counted." },
	{ "table", test_table,
	  "The window's address, size, slots and caching are reported." },
	{ "prime-coherent", test_prime_coherent,
	  "Two processes sharing a buffer through PRIME see each other's "
	  "writes through the window." },
	{ "hostile-thrash", test_hostile_thrash,
	  "A process thrashing the window sees only its own bytes, and the "
	  "victim only its own." },
	{ "partial-and-remap", test_partial_and_remap,
	  "A second mapping shows the same bytes; mapping again reuses the "
	  "slots." },
	{ "one-slot", test_one_slot,
	  "A one-page window serves a buffer of many pages." },
	{ "free-drops-slots", test_free_drops_slots,
	  "A freed buffer gives its slots back." },
	{ "evict-drops-slots", test_evict_drops_slots,
	  "An evicted buffer gives its slots back and its mapping never "
	  "shows the next buffer's bytes." },
};

igt_main
{
	igt_fixture {
		vseg_ctx_setup(&ctx);
		ctx.on_load = on_load;
	}

	vseg_ctx_subtests(&ctx, TABLE, tests, ARRAY_SIZE(tests),
			  "after the subtest");

	igt_fixture
		vseg_ctx_unload(&ctx);
}
