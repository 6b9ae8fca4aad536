// SPDX-License-Identifier: MIT
/*
 * vseg_module: loading and unloading vseg, its module parameters (built-in
 * profiles, size overrides, text segment tables) and the rejection of bad
 * tables with one kernel log line naming the problem. Every rule of the
 * table validation has its case in KUnit (vseg_segment_test.c); here a bad
 * table of each kind goes the whole way through insmod.
 *
 * Copyright (c) 2026 The vseg authors
 */
/**
 * TEST: vseg module
 * Category: Core
 * Mega feature: General Core features
 * Sub-category: Driver load
 * Functionality: module parameters
 * Description: Load and unload vseg with every profile, size override and
 *	text segment table, and check that bad tables of each kind are refused
 *	with one kernel log line.
 *
 * SUBTEST: load-unload
 * Description: Loading vseg creates a DRM device named vseg with a card and a
 *	render node; unloading removes the module and the nodes.
 *
 * SUBTEST: unload-busy
 * Description: vseg cannot be unloaded while a file descriptor is open, and
 *	the device keeps working.
 *
 * SUBTEST: reload
 * Description: Ten load/unload cycles leave no device nodes and no vmalloc
 *	memory behind.
 *
 * SUBTEST: probe-failure
 * Description: A probe failing on purpose (inject_probe_failure) after
 *	each of its parts in turn fails the load with ENODEV and leaves
 *	nothing behind. Dynamic subtests: the paging buffer in the aperture
 *	(paging-aperture) or in system memory (paging-system).
 *
 * SUBTEST: profiles
 * Description: Each built-in profile loads and reports the table the
 *	documentation describes; the first is the default. Dynamic subtests:
 *	one per built-in profile, named after it.
 *
 * SUBTEST: size-override
 * Description: mem_size_mb, visible_size_mb, aperture_size_mb and
 *	aperture_commit_mb change the reported table. Dynamic subtests: one
 *	per set of overrides (discrete-grow, discrete-second-only,
 *	discrete-small-aperture, smallbar-visible, smallbar-shrink,
 *	smallbar-tiny, integrated-shrink, multi-mixed).
 *
 * SUBTEST: text-table
 * Description: Text segment tables load and are reported exactly, defaults
 *	included; an Agp aperture is sized by aperture_size_mb and
 *	aperture_commit_mb, not by its table. Dynamic subtests: one per table
 *	(example, invalid-ranges, paging-system, flags, six-memory-segments,
 *	explicit-bases, aperture-first, size-16g, agp-default,
 *	agp-sized-by-parameter, agp-commit-clamped).
 *
 * SUBTEST: large-segment
 * Description: A table with a 16 GiB CPU-visible memory segment loads in a
 *	small guest (segment memory is backed as it is written); a buffer at
 *	its top end is written and read back through the CPU and only its
 *	pages are backed.
 *
 * SUBTEST: seed-rules
 * Description: What the seeds allow loads (issue 23): an aperture's
 *	CpuTranslatedAddress, Agp or not, is accepted, ignored and reported
 *	as 0 by QUERY_SEGMENTS and debugfs; a memory segment with commit 0
 *	takes its size (reported, and a buffer of the whole segment fits);
 *	UseBanking with one bank; a VprAlignment that is not a power of two.
 *	Dynamic subtests: aperture-cpu-address, agp-cpu-address,
 *	memory-commit-zero, one-bank, vpr-alignment-not-power-of-two.
 *
 * SUBTEST: bad-profile
 * Description: An unknown profile makes the load fail with EINVAL and one
 *	kernel log line.
 *
 * SUBTEST: bad-size-override
 * Description: Size overrides that the profile cannot take, or that break a
 *	rule, make the load fail with one log line. Dynamic subtests:
 *	resize-missing-segment, memory-overlaps-aperture, aperture-above-4g,
 *	agp-aperture-above-4g.
 *
 * SUBTEST: bad-tables
 * Description: A bad table of each kind, and a syntax error, make the load
 *	fail with EINVAL and one kernel log line naming the segment and the
 *	rule. Dynamic subtests: one per kind of bad table (no-aperture,
 *	hibernate-without-standby, page-size-8k, size-not-host-page,
 *	size-above-1t, banks-without-banking, visible-above-size,
 *	cpu-visible-without-address, cpu-address-without-flag,
 *	memory-commit-not-size, invalid-range-overlap, gpu-range-overlap, paging-above-commit-limit,
 *	paging-no-operation, parse-unknown-key, reserved-ddr-on-aperture,
 *	uefi-on-aperture, uefi-range-outside, uefi-range-overlap,
 *	uefi-range-overlaps-invalid, parse-too-many-uefi-ranges).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "igt.h"
#include "igt_vseg.h"

IGT_TEST_DESCRIPTION("Load and unload vseg with every profile, size "
		     "override and text segment table, and check that bad "
		     "tables of each kind are refused with one kernel log "
		     "line.");

#define F(x) DRM_VSEG_SEGMENT_##x

static int dev_fd = -1;
static int render_fd = -1;

static void close_fds(void)
{
	if (dev_fd >= 0)
		drm_close_driver(dev_fd);
	if (render_fd >= 0)
		drm_close_driver(render_fd);
	dev_fd = render_fd = -1;
}

static void cleanup(int sig)
{
	(void)sig;
	close_fds();
	if (igt_kmod_is_loaded(VSEG_MODULE))
		igt_kmod_unload(VSEG_MODULE);
}

/* Close our fds first: an open fd keeps the module busy. */
static void reload(const char *opts)
{
	close_fds();
	vseg_reload(opts);
}

static void unload(void)
{
	close_fds();
	vseg_unload();
}

static bool module_dir_exists(void)
{
	return access("/sys/module/" VSEG_MODULE, F_OK) == 0;
}

/* Query the loaded device's table and compare it with @want. */
static void check_loaded_table(const struct vseg_table *want)
{
	struct drm_vseg_query_segments q;
	struct drm_vseg_segment_info *segs;

	dev_fd = drm_open_vseg();
	segs = vseg_query_all(dev_fd, &q);
	vseg_check_table(want, &q, segs);
	vseg_check_table_rules(&q, segs);
	vseg_check_usage_zero(&q, segs);
	free(segs);
	close_fds();
}

static void test_load_unload(void)
{
	int entries, err;
	char name[64] = "";	/* the name comes without a terminator */

	unload();
	entries = vseg_count_dri_entries();
	igt_assert_eq(vseg_count_nodes(), 0);

	err = vseg_kmod_load(NULL);
	igt_assert_f(err == 0, "loading vseg failed: %d (%s)\n", err,
		     strerror(-err));
	igt_assert(igt_kmod_is_loaded(VSEG_MODULE));
	igt_assert(module_dir_exists());

	dev_fd = __drm_open_vseg();
	igt_assert_f(dev_fd >= 0, "no vseg card node after loading vseg\n");
	igt_assert_eq(__get_drm_device_name(dev_fd, name, sizeof(name) - 1), 0);
	igt_assert_f(!strcmp(name, "vseg"), "driver name \"%s\"\n", name);
	render_fd = __drm_open_vseg_render();
	igt_assert_f(render_fd >= 0, "no vseg render node after loading vseg\n");
	igt_assert_eq(vseg_count_nodes(), 2);

	/* The default profile is "discrete". */
	{
		struct drm_vseg_query_segments q;

		vseg_query_count(dev_fd, &q);
		igt_assert_eq_u32(q.num_segments, 3);
	}
	close_fds();

	err = igt_kmod_unload(VSEG_MODULE);
	igt_assert_f(err == 0, "unloading vseg failed: %d (%s)\n", err,
		     strerror(-err));
	igt_assert(!igt_kmod_is_loaded(VSEG_MODULE));
	igt_assert_f(!module_dir_exists(), "/sys/module/vseg still exists\n");
	igt_assert_eq(vseg_count_nodes(), 0);
	igt_assert_eq(vseg_count_dri_entries(), entries);
}

static void test_unload_busy(void)
{
	struct drm_vseg_query_segments q;
	int err;

	reload(NULL);
	dev_fd = drm_open_vseg();

	err = igt_kmod_unload(VSEG_MODULE);
	igt_assert_f(err == -EBUSY || err == -EAGAIN,
		     "unload with an open fd returned %d (%s)\n", err,
		     strerror(-err));
	igt_assert(igt_kmod_is_loaded(VSEG_MODULE));

	/* The open device still works. */
	vseg_query_count(dev_fd, &q);
	igt_assert_eq_u32(q.num_segments, 3);

	close_fds();
	unload();
	igt_assert_eq(vseg_count_nodes(), 0);
}

/* Backed bytes of memory segment @id, from debugfs "segments". */
static uint64_t segment_backed(int fd, unsigned int id)
{
	struct vseg_debugfs_segments s;
	uint64_t backed = 0;

	vseg_debugfs_read_segments(fd, &s);
	for (unsigned int i = 0; i < s.num_lines; i++)
		if (s.line[i].id == id)
			backed = vseg_debugfs_u64(&s.line[i], "backed");
	vseg_debugfs_free_segments(&s);
	return backed;
}

static void test_reload(void)
{
	const int rounds = 10;
	const uint64_t size = 16ull << 20;
	long vm_start, vm_end;
	int entries;

	unload();
	entries = vseg_count_dri_entries();
	vm_start = vseg_vmalloc_used_kb();

	for (int i = 0; i < rounds; i++) {
		struct drm_vseg_query_segments q;
		uint32_t h, *map;
		int err;

		err = vseg_kmod_load(NULL);
		igt_assert_f(err == 0, "round %d: loading vseg failed: %d (%s)\n",
			     i, err, strerror(-err));
		dev_fd = __drm_open_vseg();
		igt_assert_f(dev_fd >= 0, "round %d: no vseg device\n", i);
		vseg_query_count(dev_fd, &q);
		igt_assert_eq_u32(q.num_segments, 3);
		/*
		 * Segment memory is backed by pages as it is written, and
		 * given back when it is freed: nothing is reserved at load.
		 */
		igt_assert_eq_u64(segment_backed(dev_fd, 1), 0);
		h = vseg_gem_create_simple(dev_fd, size, VSEG_SEG_BIT(1), 0);
		map = vseg_gem_mmap(dev_fd, h, size, PROT_READ | PROT_WRITE);
		for (uint64_t k = 0; k < size / 4; k += 1024)
			map[k] = k;
		munmap(map, size);
		igt_assert_eq_u64(segment_backed(dev_fd, 1), size);
		vseg_gem_close(dev_fd, h);
		close_fds();
		err = igt_kmod_unload(VSEG_MODULE);
		igt_assert_f(err == 0, "round %d: unloading vseg failed: %d (%s)\n",
			     i, err, strerror(-err));
		igt_assert_eq(vseg_count_nodes(), 0);
	}

	vm_end = vseg_vmalloc_used_kb();
	igt_info("VmallocUsed: %ld kB before, %ld kB after %d reloads\n",
		 vm_start, vm_end, rounds);
	igt_assert_f(vm_end - vm_start <= 1024,
		     "VmallocUsed grew by %ld kB over %d reloads\n",
		     vm_end - vm_start, rounds);
	igt_assert_eq(vseg_count_dri_entries(), entries);
}

/* --- the built-in profiles ---------------------------------------------- */

#define MB(n)	((uint64_t)(n) << 20)
/* The flags the documentation describes a profile's segments with. */
#define DOC_FLAGS	(F(APERTURE) | F(CPU_VISIBLE) | F(USE_BANKING) | \
			 F(USE_64KB_PAGES) | F(POPULATED_FROM_SYSTEM_MEMORY))

/**
 * struct doc_segment - a segment as the documentation describes it
 * @name: its name.
 * @flags: which of DOC_FLAGS it has.
 * @size: bytes (for the aperture: of address space).
 * @page: page size.
 * @visible: CPU-visible bytes.
 * @commit: commit limit (the aperture's; 0: not documented).
 * @banks: banks.
 * @bank_end: where they end.
 */
struct doc_segment {
	const char *name;
	uint64_t flags;
	uint64_t size;
	uint32_t page;
	uint64_t visible;
	uint64_t commit;
	unsigned int banks;
	uint64_t bank_end[2];
};

/*
 * The built-in profiles as "Built-in profiles" in
 * Documentation/gpu/vseg.rst (and the README's module parameters) describe
 * them: written out here, so that a profile that changes fails this test
 * until the documentation changes with it. The one place that knows them.
 */
static const struct doc_profile {
	const char *name;
	unsigned int num_segments;
	struct doc_segment seg[DRM_VSEG_MAX_SEGMENTS];
} doc_profiles[] = {
	{ "discrete", 3, {
		/* CPU-visible, two banks (16 + 16 MiB), 64 KiB pages, 32 MiB */
		{ .name = "vram",
		  .flags = F(CPU_VISIBLE) | F(USE_BANKING) | F(USE_64KB_PAGES),
		  .size = MB(32), .page = SZ_64K, .visible = MB(32),
		  .banks = 2, .bank_end = { MB(16), MB(32) } },
		/* not CPU-visible, 4 KiB pages, 16 MiB */
		{ .name = "local", .size = MB(16), .page = SZ_4K },
		/* 64 MiB of address space, commit limit 32 MiB */
		{ .name = "aperture", .flags = F(APERTURE), .size = MB(64),
		  .page = SZ_4K, .commit = MB(32) },
	} },
	{ "integrated", 2, {
		/* populated from system memory, CPU-visible, 4 KiB pages */
		{ .name = "stolen",
		  .flags = F(CPU_VISIBLE) | F(POPULATED_FROM_SYSTEM_MEMORY),
		  .size = MB(32), .page = SZ_4K, .visible = MB(32) },
		/* 64 MiB, commit limit 64 MiB */
		{ .name = "aperture", .flags = F(APERTURE), .size = MB(64),
		  .page = SZ_4K, .commit = MB(64) },
	} },
	{ "smallbar", 2, {
		/* 64 MiB, 64 KiB pages, only the first 16 MiB CPU-visible */
		{ .name = "vram", .flags = F(CPU_VISIBLE) | F(USE_64KB_PAGES),
		  .size = MB(64), .page = SZ_64K, .visible = MB(16) },
		/* 64 MiB, commit limit 32 MiB */
		{ .name = "aperture", .flags = F(APERTURE), .size = MB(64),
		  .page = SZ_4K, .commit = MB(32) },
	} },
	{ "multi", 7, {
		/* 8 MiB each, 4 KiB pages on odd ids, 64 KiB on even ones */
		{ .name = "mem1", .flags = F(CPU_VISIBLE), .size = MB(8),
		  .page = SZ_4K, .visible = MB(8) },
		{ .name = "mem2", .flags = F(USE_64KB_PAGES), .size = MB(8),
		  .page = SZ_64K },
		{ .name = "mem3", .size = MB(8), .page = SZ_4K },
		{ .name = "mem4", .flags = F(USE_64KB_PAGES), .size = MB(8),
		  .page = SZ_64K },
		{ .name = "mem5", .size = MB(8), .page = SZ_4K },
		{ .name = "mem6", .flags = F(USE_64KB_PAGES), .size = MB(8),
		  .page = SZ_64K },
		/* a 32 MiB aperture */
		{ .name = "aperture", .flags = F(APERTURE), .size = MB(32),
		  .page = SZ_4K },
	} },
};

static void check_doc_segment(const char *profile, const struct doc_segment *d,
			      const struct drm_vseg_segment_info *s)
{
	bool ap = d->flags & F(APERTURE);

	igt_assert_f(!strcmp(s->name, d->name),
		     "%s: segment %u is \"%s\", the documentation says \"%s\"\n",
		     profile, s->id, s->name, d->name);
	igt_assert_f(s->kind == (ap ? DRM_VSEG_SEGMENT_KIND_APERTURE :
				 DRM_VSEG_SEGMENT_KIND_MEMORY),
		     "%s: segment %u \"%s\" has kind %u\n", profile, s->id,
		     s->name, s->kind);
	igt_assert_f((s->flags & DOC_FLAGS) == d->flags,
		     "%s: segment %u \"%s\" has flags %#llx, the documentation says %#llx\n",
		     profile, s->id, s->name,
		     (unsigned long long)(s->flags & DOC_FLAGS),
		     (unsigned long long)d->flags);
	igt_assert_f(s->size == d->size && s->page_size == d->page &&
		     s->cpu_visible_size == d->visible &&
		     (!d->commit || s->commit_limit == d->commit),
		     "%s: segment %u \"%s\": size %#llx page %u visible %#llx commit %#llx; the documentation says size %#llx page %u visible %#llx commit %#llx\n",
		     profile, s->id, s->name, (unsigned long long)s->size,
		     s->page_size, (unsigned long long)s->cpu_visible_size,
		     (unsigned long long)s->commit_limit,
		     (unsigned long long)d->size, d->page,
		     (unsigned long long)d->visible,
		     (unsigned long long)d->commit);
	igt_assert_f(s->num_banks == d->banks,
		     "%s: segment %u \"%s\" has %u banks, the documentation says %u\n",
		     profile, s->id, s->name, s->num_banks, d->banks);
	for (unsigned int b = 0; b < d->banks; b++)
		igt_assert_f(s->bank_end[b] == d->bank_end[b],
			     "%s: segment %u \"%s\": bank %u ends at %#llx, the documentation says %#llx\n",
			     profile, s->id, s->name, b,
			     (unsigned long long)s->bank_end[b],
			     (unsigned long long)d->bank_end[b]);
}

/* The loaded device reports the profile @p as documented. */
static void check_doc_profile(const struct doc_profile *p)
{
	struct drm_vseg_query_segments q;
	struct drm_vseg_segment_info *segs;

	dev_fd = drm_open_vseg();
	segs = vseg_query_all(dev_fd, &q);
	vseg_check_table_rules(&q, segs);
	vseg_check_usage_zero(&q, segs);
	igt_assert_f(q.num_segments == p->num_segments,
		     "%s: %u segments, the documentation says %u\n", p->name,
		     q.num_segments, p->num_segments);
	for (unsigned int i = 0; i < q.num_segments; i++)
		check_doc_segment(p->name, &p->seg[i], &segs[i]);
	if (!strcmp(p->name, "discrete")) {
		/* The profile written out in the documentation's example. */
		igt_assert_eq_u64(segs[0].cpu_translated_address, 0xe0000000);
		igt_assert_eq_u32(q.paging_buffer_segment_id, 3);
		igt_assert_eq_u32(q.paging_buffer_size, SZ_64K);
	}
	free(segs);
	close_fds();
}

static void test_profile(const char *profile)
{
	const struct doc_profile *p = NULL;
	struct vseg_table loaded, dflt;
	char opts[64];

	for (unsigned int i = 0; i < ARRAY_SIZE(doc_profiles); i++)
		if (!strcmp(doc_profiles[i].name, profile))
			p = &doc_profiles[i];
	igt_assert_f(p, "profile %s is not documented\n", profile);

	snprintf(opts, sizeof(opts), "profile=%s", profile);
	reload(opts);
	check_doc_profile(p);
	if (p == &doc_profiles[0]) {
		/* The first profile is the default. */
		dev_fd = drm_open_vseg();
		vseg_table_query(dev_fd, &loaded);
		reload(NULL);
		dev_fd = drm_open_vseg();
		vseg_table_query(dev_fd, &dflt);
		igt_assert_f(!memcmp(&loaded, &dflt, sizeof(dflt)),
			     "vseg without profile= is not profile=%s\n",
			     profile);
		close_fds();
	}
	unload();
}

/* --- size overrides ---------------------------------------------------- */

struct override_case {
	const char *name;
	const char *profile;
	const char *opts;
	void (*edit)(struct vseg_table *t);
};

static void discrete_grow(struct vseg_table *t)
{
	/* mem_size_mb=64,8 aperture_size_mb=128 aperture_commit_mb=96 */
	t->seg[0].size = t->seg[0].commit_limit = 64 * SZ_1M;
	t->seg[0].cpu_visible_size = 64 * SZ_1M;	/* fully visible stays so */
	t->seg[0].bank_end[0] = 32 * SZ_1M;		/* banks scale */
	t->seg[0].bank_end[1] = 64 * SZ_1M;
	t->seg[1].base_address = 64 * SZ_1M;		/* bases follow */
	t->seg[1].size = t->seg[1].commit_limit = 8 * SZ_1M;
	t->seg[2].size = 128 * SZ_1M;
	t->seg[2].commit_limit = 96 * SZ_1M;
}

static void discrete_second(struct vseg_table *t)
{
	/* mem_size_mb=0,24: 0 keeps the default */
	t->seg[1].size = t->seg[1].commit_limit = 24 * SZ_1M;
}

static void discrete_small_aperture(struct vseg_table *t)
{
	/* aperture_size_mb=16: the commit limit is clamped to the size */
	t->seg[2].size = t->seg[2].commit_limit = 16 * SZ_1M;
}

static void smallbar_visible(struct vseg_table *t)
{
	/* visible_size_mb=8 */
	t->seg[0].cpu_visible_size = 8 * SZ_1M;
}

static void smallbar_shrink(struct vseg_table *t)
{
	/* mem_size_mb=32: a partial BAR keeps its size */
	t->seg[0].size = t->seg[0].commit_limit = 32 * SZ_1M;
}

static void smallbar_tiny(struct vseg_table *t)
{
	/* mem_size_mb=8: a partial BAR is clamped to the size */
	t->seg[0].size = t->seg[0].commit_limit = 8 * SZ_1M;
	t->seg[0].cpu_visible_size = 8 * SZ_1M;
}

static void integrated_shrink(struct vseg_table *t)
{
	/* mem_size_mb=16: visible size and system memory end follow */
	t->seg[0].size = t->seg[0].commit_limit = 16 * SZ_1M;
	t->seg[0].cpu_visible_size = 16 * SZ_1M;
	t->seg[0].system_memory_end_address = 16 * SZ_1M;
}

static void multi_mixed(struct vseg_table *t)
{
	/* mem_size_mb=16,0,0,0,0,4 */
	static const uint64_t mb[6] = { 16, 8, 8, 8, 8, 4 };
	uint64_t base = 0;

	for (int i = 0; i < 6; i++) {
		t->seg[i].size = t->seg[i].commit_limit = mb[i] * SZ_1M;
		t->seg[i].base_address = base;
		base += mb[i] * SZ_1M;
	}
	t->seg[0].cpu_visible_size = 16 * SZ_1M;
}

static const struct override_case override_cases[] = {
	{ "discrete-grow", "discrete",
	  "mem_size_mb=64,8 aperture_size_mb=128 aperture_commit_mb=96",
	  discrete_grow },
	{ "discrete-second-only", "discrete", "mem_size_mb=0,24",
	  discrete_second },
	{ "discrete-small-aperture", "discrete", "aperture_size_mb=16",
	  discrete_small_aperture },
	{ "smallbar-visible", "smallbar", "visible_size_mb=8",
	  smallbar_visible },
	{ "smallbar-shrink", "smallbar", "mem_size_mb=32", smallbar_shrink },
	{ "smallbar-tiny", "smallbar", "mem_size_mb=8", smallbar_tiny },
	{ "integrated-shrink", "integrated", "mem_size_mb=16",
	  integrated_shrink },
	{ "multi-mixed", "multi", "mem_size_mb=16,0,0,0,0,4", multi_mixed },
};

/* The profile as the kernel reports it, edited, is what the overrides give. */
static void test_size_override(const struct override_case *c)
{
	struct vseg_table want;
	char opts[256];

	snprintf(opts, sizeof(opts), "profile=%s", c->profile);
	reload(opts);
	dev_fd = drm_open_vseg();
	vseg_table_query(dev_fd, &want);
	close_fds();
	c->edit(&want);

	snprintf(opts, sizeof(opts), "profile=%s %s", c->profile, c->opts);
	reload(opts);
	check_loaded_table(&want);
	unload();
}

/* --- text tables ------------------------------------------------------- */

#define EXAMPLE_TABLE \
	"memory:name=vram,size=32M,page=64K,flags=cpuvisible|banking|64kpages," \
	"banks=16M,cpu=0xe0000000;memory:name=local,size=16M;" \
	"aperture:size=64M,commit=32M;paging:size=64K"

/* No CPU address, no CPU-visible part, the whole size as commit limit. */
static struct drm_vseg_segment_info *
add(struct vseg_table *t, uint32_t kind, const char *name, uint64_t flags,
    uint64_t base, uint64_t size, uint32_t page)
{
	return vseg_table_add(t, kind, name, flags, base, 0, size, 0, size, 0,
			      page);
}

#define MEM DRM_VSEG_SEGMENT_KIND_MEMORY
#define APER DRM_VSEG_SEGMENT_KIND_APERTURE

static void text_example(struct vseg_table *t)
{
	struct drm_vseg_segment_info *s;

	s = add(t, MEM, "vram",
		F(CPU_VISIBLE) | F(USE_BANKING) | F(USE_64KB_PAGES), 0, SZ_32M,
		SZ_64K);
	s->cpu_translated_address = 0xe0000000;
	s->cpu_visible_size = SZ_32M;
	s->num_banks = 2;
	s->bank_end[0] = SZ_16M;
	s->bank_end[1] = SZ_32M;
	add(t, MEM, "local", 0, SZ_32M, SZ_16M, SZ_4K);
	s = add(t, APER, "aperture", F(APERTURE), VSEG_APERTURE_BASE, SZ_64M,
		SZ_4K);
	s->commit_limit = SZ_32M;
	t->paging_segment_id = 3;
}

static void text_invalid_ranges(struct vseg_table *t)
{
	struct drm_vseg_segment_info *s;

	s = add(t, MEM, "m", 0, 0, SZ_16M, SZ_4K);
	s->num_invalid_ranges = 2;
	s->invalid_ranges[0].start = 0;
	s->invalid_ranges[0].size = SZ_1M;
	s->invalid_ranges[1].start = 8 * SZ_1M;
	s->invalid_ranges[1].size = SZ_64K;
	add(t, APER, "gart", F(APERTURE), VSEG_APERTURE_BASE, SZ_32M, SZ_4K);
	t->paging_segment_id = 2;
}

static void text_paging_system(struct vseg_table *t)
{
	struct drm_vseg_segment_info *s;

	add(t, MEM, "m", 0, 0, SZ_8M, SZ_4K);
	s = add(t, APER, "gart", F(APERTURE), VSEG_APERTURE_BASE, SZ_16M,
		SZ_4K);
	s->commit_limit = SZ_8M;
	t->paging_segment_id = 0;
	t->paging_size = 0x20000;
	t->paging_private = 0x100;
}

static void text_flags(struct vseg_table *t)
{
	struct drm_vseg_segment_info *s;

	s = add(t, MEM, "vis",
		F(CPU_VISIBLE) | F(PRESERVED_DURING_STANDBY) |
		F(PRESERVED_DURING_HIBERNATE) | F(DIRECT_FLIP) |
		F(APPLICATION_TARGET) | F(VPR_SUPPORTED) |
		F(VPR_PRESERVED_DURING_STANDBY) | F(LOCAL_BUDGET_GROUP) |
		F(ENCRYPTED_PAGING_SUPPORTED),
		0, SZ_8M, SZ_4K);
	s->cpu_translated_address = 0xd0000000;
	s->cpu_visible_size = 4 * SZ_1M;
	s->vpr_range_size = SZ_1M;
	s->vpr_alignment = SZ_4K;
	s = add(t, MEM, "sys",
		F(POPULATED_FROM_SYSTEM_MEMORY) | F(PRESERVED_DURING_STANDBY) |
		F(PARTIALLY_PRESERVED_DURING_HIBERNATE) | F(RESERVED_SYSMEM),
		SZ_8M, 4 * SZ_1M, SZ_4K);
	s->system_memory_end_address = 2 * SZ_1M;
	s = add(t, MEM, "host",
		F(SUPPORTS_CPU_HOST_APERTURE) |
		F(SUPPORTS_CACHED_CPU_HOST_APERTURE) | F(PITCH_ALIGNMENT) |
		F(NON_LOCAL_BUDGET_GROUP),
		12 * SZ_1M, 4 * SZ_1M, SZ_4K);
	s->cpu_host_aperture_address = 0xc0000000;
	s->cpu_host_aperture_size = SZ_1M;
	add(t, APER, "aperture",
	    F(APERTURE) | F(CACHE_COHERENT) | F(NON_LOCAL_BUDGET_GROUP),
	    VSEG_APERTURE_BASE, SZ_16M, SZ_4K);
	t->paging_segment_id = 4;
}

static void text_six_memory(struct vseg_table *t)
{
	for (int i = 0; i < 6; i++) {
		char name[8];

		snprintf(name, sizeof(name), "s%d", i);
		add(t, MEM, name, i & 1 ? F(USE_64KB_PAGES) : 0,
		    (uint64_t)i * 4 * SZ_1M, 4 * SZ_1M, i & 1 ? SZ_64K : SZ_4K);
	}
	add(t, APER, "aperture", F(APERTURE), VSEG_APERTURE_BASE, SZ_16M,
	    SZ_4K);
	t->paging_segment_id = 7;
}

static void text_bases(struct vseg_table *t)
{
	add(t, MEM, "a", 0, 0x40000000, SZ_8M, SZ_4K);
	add(t, MEM, "b", 0, 0x40000000 + SZ_8M, SZ_8M, SZ_4K);
	add(t, APER, "aperture", F(APERTURE), 0x200000000ull, SZ_16M, SZ_4K);
	t->paging_segment_id = 3;
}

static void text_aperture_first(struct vseg_table *t)
{
	add(t, APER, "aperture", F(APERTURE), VSEG_APERTURE_BASE, SZ_16M,
	    SZ_4K);
	add(t, MEM, "m", F(USE_64KB_PAGES), 0, SZ_8M, SZ_64K);
	t->paging_segment_id = 1;
}

#define SZ_16G	(16ull << 30)

static void text_16g(struct vseg_table *t)
{
	add(t, MEM, "big", F(USE_64KB_PAGES), 0, SZ_16G, SZ_64K);
	add(t, APER, "aperture", F(APERTURE), SZ_16G, SZ_16M, SZ_4K);
	t->paging_segment_id = 2;
}

/* An Agp aperture of @size bytes, commit limit @commit. */
static void agp_table(struct vseg_table *t, uint64_t size, uint64_t commit)
{
	struct drm_vseg_segment_info *s;

	add(t, MEM, "m", 0, 0, SZ_16M, SZ_4K);
	s = add(t, APER, "aperture", F(AGP), VSEG_APERTURE_BASE, size, SZ_4K);
	s->commit_limit = commit;
	t->paging_segment_id = 2;
}

static void text_agp_default(struct vseg_table *t)
{
	/* the table's size is ignored: 64 MiB */
	agp_table(t, SZ_64M, SZ_64M);
}

static void text_agp_param(struct vseg_table *t)
{
	/* aperture_size_mb=8 aperture_commit_mb=4 */
	agp_table(t, 8 * SZ_1M, 4 * SZ_1M);
}

static void text_agp_clamped(struct vseg_table *t)
{
	/* commit=32M, aperture_size_mb=16: the commit limit is clamped */
	agp_table(t, SZ_16M, SZ_16M);
}

static const struct {
	const char *name;
	const char *table;
	void (*build)(struct vseg_table *t);
	const char *opts;	/* more module parameters, or NULL */
} text_cases[] = {
	{ "example", EXAMPLE_TABLE, text_example, NULL },
	{ "invalid-ranges",
	  "memory:name=m,size=16M,invalid=0+1M/8M+0x10000;"
	  "aperture:name=gart,size=32M", text_invalid_ranges, NULL },
	{ "paging-system",
	  "memory:name=m,size=8M;aperture:name=gart,size=16M,commit=8M;"
	  "paging:seg=0,size=128K,priv=0x100", text_paging_system, NULL },
	{ "flags",
	  "memory:name=vis,size=8M,cpu=0xd0000000,visible=4M,"
	  "flags=cpuvisible|standby|hibernate|directflip|applicationtarget|"
	  "vpr|vprstandby|localbudget|encryptedpaging,vprsize=1M,vpralign=4K;"
	  "memory:name=sys,size=4M,sysend=2M,flags=populatedfromsystem|"
	  "standby|partialhibernate|reservedsysmem;"
	  "memory:name=host,size=4M,flags=cpuhostaperture|"
	  "cachedcpuhostaperture|pitchalignment|nonlocalbudget,"
	  "hostaperture=1M,hostaddr=0xc0000000;"
	  "aperture:size=16M,flags=cachecoherent|nonlocalbudget", text_flags, NULL },
	{ "six-memory-segments",
	  "memory:name=s0,size=4M;memory:name=s1,size=4M,flags=64kpages;"
	  "memory:name=s2,size=4M;memory:name=s3,size=4M,flags=64kpages;"
	  "memory:name=s4,size=4M;memory:name=s5,size=4M,flags=64kpages;"
	  "aperture:size=16M", text_six_memory, NULL },
	{ "explicit-bases",
	  "memory:name=a,size=8M,base=0x40000000;memory:name=b,size=0x800000;"
	  "aperture:size=16M,base=0x200000000", text_bases, NULL },
	{ "aperture-first",
	  "aperture:size=16M;memory:name=m,size=8M,flags=64kpages",
	  text_aperture_first, NULL },
	/* segment memory is backed as it is written: no 4 GiB cap */
	{ "size-16g",
	  "memory:name=big,size=16G,flags=64kpages;aperture:size=16M,base=16G",
	  text_16g, NULL },
	/* an Agp aperture's size comes from the parameters, not the table */
	{ "agp-default",
	  "memory:name=m,size=16M;aperture:size=4K,flags=agp", text_agp_default, NULL },
	{ "agp-sized-by-parameter",
	  "memory:name=m,size=16M;aperture:size=1G,flags=agp", text_agp_param,
	  "aperture_size_mb=8 aperture_commit_mb=4" },
	{ "agp-commit-clamped",
	  "memory:name=m,size=16M;aperture:flags=agp,commit=32M",
	  text_agp_clamped, "aperture_size_mb=16" },
};

static void test_text_table(const char *table,
			    void (*build)(struct vseg_table *t),
			    const char *more)
{
	struct vseg_table want;
	char *opts;

	memset(&want, 0, sizeof(want));
	want.paging_size = VSEG_PAGING_SIZE;
	build(&want);

	igt_assert(asprintf(&opts, "table=%s%s%s", table, more ? " " : "",
			    more ? more : "") > 0);
	reload(opts);
	free(opts);
	check_loaded_table(&want);
	unload();
}

/* --- the seed rules (issue 23) ------------------------------------------- */

#define SEED_AP		";aperture:name=gart,size=32M"

static void seed_gart(struct vseg_table *t)
{
	add(t, APER, "gart", F(APERTURE), VSEG_APERTURE_BASE, SZ_32M, SZ_4K);
	t->paging_segment_id = t->num_segments;
}

/* cpu=0xe0000000 on the aperture: ignored, 0 */
static void seed_aperture_cpu(struct vseg_table *t)
{
	add(t, MEM, "m", 0, 0, SZ_16M, SZ_4K);
	seed_gart(t);
}

static void seed_agp_cpu(struct vseg_table *t)
{
	agp_table(t, SZ_64M, SZ_64M);
}

/* commit=0 on memory segments: their sizes */
static void seed_commit_zero(struct vseg_table *t)
{
	add(t, MEM, "m", 0, 0, SZ_16M, SZ_4K);
	add(t, MEM, "b", F(USE_64KB_PAGES), SZ_16M, SZ_8M, SZ_64K);
	seed_gart(t);
}

static void seed_one_bank(struct vseg_table *t)
{
	struct drm_vseg_segment_info *s;

	s = add(t, MEM, "m", F(USE_BANKING), 0, SZ_16M, SZ_4K);
	s->num_banks = 1;
	s->bank_end[0] = SZ_16M;
	seed_gart(t);
}

static void seed_vpr_align(struct vseg_table *t)
{
	struct drm_vseg_segment_info *s;

	s = add(t, MEM, "m", F(VPR_SUPPORTED), 0, SZ_16M, SZ_4K);
	s->vpr_range_start_offset = 0x3000;
	s->vpr_range_size = 3 * SZ_1M;
	s->vpr_alignment = 0x3000;
	seed_gart(t);
}

static const struct {
	const char *name;
	const char *table;
	void (*build)(struct vseg_table *t);
} seed_cases[] = {
	{ "aperture-cpu-address",
	  "memory:name=m,size=16M;aperture:name=gart,size=32M,cpu=0xe0000000",
	  seed_aperture_cpu },
	{ "agp-cpu-address",
	  "memory:name=m,size=16M;aperture:flags=agp,cpu=0xe0001000",
	  seed_agp_cpu },
	{ "memory-commit-zero",
	  "memory:name=m,size=16M,commit=0;"
	  "memory:name=b,size=8M,flags=64kpages,commit=0" SEED_AP,
	  seed_commit_zero },
	{ "one-bank", "memory:name=m,size=16M,flags=banking" SEED_AP,
	  seed_one_bank },
	{ "vpr-alignment-not-power-of-two",
	  "memory:name=m,size=16M,flags=vpr,vprstart=0x3000,vprsize=3M,"
	  "vpralign=0x3000" SEED_AP, seed_vpr_align },
};

/*
 * The table loads and QUERY_SEGMENTS reports what the seeds say (the
 * aperture's CPU-translated address 0, a memory commit limit of 0 the
 * size); debugfs "segments" says the same; a buffer of a whole memory
 * segment is created in it (its commit limit is its size).
 */
static void test_seed_rule(const char *table,
			   void (*build)(struct vseg_table *t))
{
	struct vseg_debugfs_segments d;
	struct drm_vseg_query_segments q;
	struct drm_vseg_segment_info *segs;
	struct drm_vseg_gem_create c;
	struct drm_vseg_gem_info info;
	struct vseg_table want;
	char *opts;
	uint32_t h;

	memset(&want, 0, sizeof(want));
	want.paging_size = VSEG_PAGING_SIZE;
	build(&want);
	igt_assert(asprintf(&opts, "table=%s", table) > 0);
	reload(opts);
	free(opts);
	check_loaded_table(&want);

	dev_fd = drm_open_vseg();
	segs = vseg_query_all(dev_fd, &q);
	vseg_debugfs_read_segments(dev_fd, &d);
	igt_assert_eq_u32(d.num_lines, q.num_segments + 1);
	for (uint32_t i = 0; i < q.num_segments; i++) {
		const struct drm_vseg_segment_info *s = &segs[i];
		const struct vseg_debugfs_line *l = &d.line[s->id];

		igt_assert_eq_u64(vseg_debugfs_u64(l, "cpu"),
				  s->cpu_translated_address);
		igt_assert_eq_u64(vseg_debugfs_u64(l, "commit"),
				  s->commit_limit);
		if (s->kind == DRM_VSEG_SEGMENT_KIND_APERTURE) {
			igt_assert_eq_u64(s->cpu_translated_address, 0);
			continue;
		}
		igt_assert_eq_u64(s->commit_limit, s->size);
		/* a VPR is not for plain buffers */
		if (s->flags & DRM_VSEG_SEGMENT_VPR_SUPPORTED)
			continue;
		/* the whole segment: its commit limit is its size */
		vseg_create_args(&c, s->size, VSEG_SEG_BIT(s->id), 0);
		h = vseg_gem_create(dev_fd, &c);
		vseg_gem_info(dev_fd, h, &info);
		igt_assert_eq_u32(info.segment_id, s->id);
		igt_assert_eq_u64(info.size, s->size);
		vseg_gem_close(dev_fd, h);
	}
	vseg_debugfs_free_segments(&d);
	free(segs);
	close_fds();
	unload();
}

/*
 * A 16 GiB CPU-visible segment in a 2 GiB guest: nothing is allocated for
 * it at load; a buffer at its very end is backed by its own pages only, and
 * they go with it.
 */
static void test_large_segment(void)
{
	const uint64_t size = SZ_1M;
	struct drm_vseg_query_segments q;
	struct drm_vseg_segment_info *segs;
	struct drm_vseg_gem_create c;
	struct drm_vseg_gem_info info;
	uint32_t h, *map;

	reload("table=memory:name=big,size=16G,flags=cpuvisible,"
	       "cpu=0x4000000000;aperture:size=16M,base=16G");
	dev_fd = drm_open_vseg();
	segs = vseg_query_all(dev_fd, &q);
	vseg_check_table_rules(&q, segs);
	igt_assert_eq_u32(q.num_segments, 2);
	igt_assert_eq_u64(segs[0].size, SZ_16G);
	igt_assert_eq_u64(segs[0].commit_limit, SZ_16G);
	igt_assert_eq_u64(segs[0].cpu_visible_size, SZ_16G);
	igt_assert_eq_u64(segs[0].cpu_translated_address, 0x4000000000ull);
	free(segs);
	igt_assert_eq_u64(segment_backed(dev_fd, 1), 0);

	/* at the top of the segment, past every 32-bit offset */
	vseg_create_args(&c, size, VSEG_SEG_BIT(1),
			 DRM_VSEG_GEM_CREATE_CPU_VISIBLE);
	vseg_create_prefer(&c, 1, DRM_VSEG_PREF_TOP_DOWN);
	h = vseg_gem_create(dev_fd, &c);
	vseg_gem_info(dev_fd, h, &info);
	igt_assert_eq_u32(info.segment_id, 1);
	igt_assert_eq_u64(info.offset, SZ_16G - size);

	map = vseg_gem_mmap(dev_fd, h, size, PROT_READ | PROT_WRITE);
	for (uint64_t k = 0; k < size / 4; k++)
		map[k] = (uint32_t)k ^ 0x5eed;
	for (uint64_t k = 0; k < size / 4; k++)
		igt_assert_f(map[k] == ((uint32_t)k ^ 0x5eed),
			     "word %llu reads %#x\n", (unsigned long long)k,
			     map[k]);
	munmap(map, size);
	igt_assert_eq_u64(segment_backed(dev_fd, 1), size);
	vseg_gem_close(dev_fd, h);
	igt_assert_eq_u64(segment_backed(dev_fd, 1), 0);
	unload();
}

/* --- probe failures ------------------------------------------------------ */

/* The parts of the probe: table, TTM, engines, schedulers, paging buffer, display. */
#define PROBE_PARTS	6

/*
 * Fail the probe on purpose after each of its parts in turn: each load
 * fails with ENODEV and leaves nothing behind (the debug kernel's
 * kmemleak and the harness check the rest); past the last part it loads.
 */
static void test_probe_failure(const char *opts)
{
	int entries, err = -ENODEV, step;
	long vm_start, vm_end;

	unload();
	entries = vseg_count_dri_entries();
	vm_start = vseg_vmalloc_used_kb();
	for (step = 1; step <= PROBE_PARTS + 1; step++) {
		char o[256];

		snprintf(o, sizeof(o), "%s inject_probe_failure=%d", opts, step);
		igt_emit_ignore_dmesg_regex(VSEG_LOAD_FAILURE_DMESG);
		err = vseg_kmod_load(o);
		if (!err)
			break;
		igt_assert_f(err == -ENODEV,
			     "\"%s\": load returned %d (%s), expected ENODEV\n",
			     o, err, strerror(-err));
		igt_assert_f(!igt_kmod_is_loaded(VSEG_MODULE),
			     "vseg is loaded after a failed probe\n");
		igt_assert_f(!module_dir_exists(),
			     "/sys/module/vseg exists after a failed probe\n");
		igt_assert_eq(vseg_count_nodes(), 0);
		igt_assert_eq(vseg_count_dri_entries(), entries);
	}
	igt_assert_f(err == 0 && step == PROBE_PARTS + 1,
		     "the probe loaded after part %d, expected %d parts\n",
		     step - 1, PROBE_PARTS);
	dev_fd = __drm_open_vseg();
	igt_assert(dev_fd >= 0);
	close_fds();
	unload();
	vm_end = vseg_vmalloc_used_kb();
	igt_info("VmallocUsed: %ld kB before, %ld kB after %d failed probes\n",
		 vm_start, vm_end, PROBE_PARTS);
	igt_assert_f(vm_end - vm_start <= 1024,
		     "VmallocUsed grew by %ld kB over failed probes\n",
		     vm_end - vm_start);
}

/* --- bad module parameters --------------------------------------------- */

/*
 * Load vseg with @opts, which must fail with -EINVAL, logging exactly one
 * line that matches @pattern ('*' matches any text) and no other line
 * reporting a problem with the segment table or the parameters; nothing
 * may be left behind: no module, no device node, no sysfs directory.
 */
static void load_must_fail(const char *opts, const char *pattern)
{
	static const char * const problem_prefixes[] = {
		"vseg: unknown profile ",
		"vseg: cannot parse segment table ",
		"vseg: invalid segment table: ",
		"vseg: profile ",
	};
	int kfd, err, entries, matches = 0, problems = 0;
	char **lines;

	unload();
	entries = vseg_count_dri_entries();
	kfd = vseg_kmsg_open();
	igt_require_f(kfd >= 0, "cannot read /dev/kmsg: %s\n", strerror(-kfd));

	/* The probe fails on purpose: not a kernel warning for igt_runner. */
	igt_emit_ignore_dmesg_regex(VSEG_LOAD_FAILURE_DMESG);
	err = vseg_kmod_load(opts);
	lines = vseg_kmsg_read(kfd);
	close(kfd);

	for (char **l = lines; *l; l++) {
		bool match = vseg_glob(pattern, *l);

		matches += match;
		for (unsigned int p = 0; p < ARRAY_SIZE(problem_prefixes); p++)
			if (!strncmp(*l, problem_prefixes[p],
				     strlen(problem_prefixes[p]))) {
				problems++;
				break;
			}
		igt_debug("kmsg: %s%s\n", *l, match ? "   <-- expected" : "");
	}
	if (matches != 1 || problems != 1 || err != -EINVAL) {
		igt_info("Loading vseg with \"%s\"\n", opts);
		igt_info("expected kernel log line: %s\n", pattern);
		for (char **l = lines; *l; l++)
			igt_info("kernel log: %s\n", *l);
	}
	vseg_kmsg_free(lines);

	if (err == 0)
		unload();
	igt_assert_f(err == -EINVAL, "load returned %d (%s), expected -EINVAL\n",
		     err, strerror(-err));
	igt_assert_f(matches == 1,
		     "%d kernel log lines match the expected one\n", matches);
	igt_assert_f(problems == 1,
		     "%d kernel log lines report a problem, expected 1\n",
		     problems);
	igt_assert_f(!igt_kmod_is_loaded(VSEG_MODULE),
		     "vseg is loaded after a failed load\n");
	igt_assert_f(!module_dir_exists(),
		     "/sys/module/vseg exists after a failed load\n");
	igt_assert_eq(vseg_count_nodes(), 0);
	igt_assert_eq(vseg_count_dri_entries(), entries);
}

#define M16 "memory:name=m,size=16M"
#define AP ";aperture:name=aperture,size=64M"
#define INV "vseg: invalid segment table: "
#define SEG1 INV "segment 1 \"m\": "

/*
 * A bad table of each kind (the rule-by-rule cases are KUnit's): the log
 * line names the segment, by id and name, and the rule it breaks, or the
 * token the parser stopped at.
 */
static const struct {
	const char *name;
	const char *table;
	const char *line;
} bad_tables[] = {
	/* the shape of the table: no segment to name */
	{ "no-aperture", M16,
	  INV "exactly one aperture segment is required, found 0" },
	/* flags */
	{ "hibernate-without-standby", M16 ",flags=hibernate" AP,
	  SEG1 "PreservedDuringHibernate needs PreservedDuringStandby" },
	/* size and page size */
	{ "page-size-8k", M16 ",page=8K" AP,
	  SEG1 "page size 8192 is not 4096 or 65536" },
	{ "size-not-host-page", "memory:name=m,size=0x1800" AP,
	  SEG1 "size 0x1800 is not a multiple of the host page size *" },
	{ "size-above-1t", "memory:name=m,size=0x10000001000" AP,
	  SEG1 "size 0x10000001000 exceeds the 1 TiB limit of a memory segment" },
	/* banks: the example of the README and the documentation */
	{ "banks-without-banking",
	  "memory:name=vram,size=32M;memory:name=local,size=16M,banks=8M" AP,
	  INV "segment 2 \"local\": banks without UseBanking" },
	/* CPU visibility */
	{ "visible-above-size", M16 ",flags=cpuvisible,visible=32M" AP,
	  SEG1 "CPU-visible size 0x2000000 exceeds the size" },
	/* the CPU-translated address */
	{ "cpu-visible-without-address", M16 ",flags=cpuvisible" AP,
	  SEG1 "CpuVisible without a CPU-translated address" },
	{ "cpu-address-without-flag", M16 ",cpu=0xe0000000" AP,
	  SEG1 "CPU-translated address 0xe0000000 without CpuVisible" },
	/* a memory segment's commit limit: 0 (its size) or its size */
	{ "memory-commit-not-size", M16 ",commit=8M" AP,
	  SEG1 "commit limit 0x800000 of a memory segment must be 0 or its size 0x1000000" },
	/* invalid ranges */
	{ "invalid-range-overlap", M16 ",invalid=0+2M/1M+2M" AP,
	  SEG1 "invalid range 1 overlaps invalid range 0" },
	/* across segments: both are named */
	{ "gpu-range-overlap",
	  "memory:name=a,size=16M;memory:name=b,size=16M,base=8M" AP,
	  INV "segment 2 \"b\": GPU address range overlaps segment 1 \"a\"" },
	/* the paging buffer: in the aperture, within its commit limit */
	{ "paging-above-commit-limit",
	  M16 ";aperture:name=aperture,size=64M,commit=64K;paging:seg=2,size=128K",
	  INV "paging buffer of 131072 bytes is above the aperture's commit limit" },
	{ "paging-no-operation", M16 AP ";paging:seg=2,size=16",
	  INV "paging buffer of 16 bytes has no room for one operation (32 bytes)" },
	/* syntax */
	{ "parse-unknown-key", M16 ",colour=red" AP,
	  "vseg: cannot parse segment table at \"colour\": *" },
	/* the video protected region */
	{ "vpr-on-aperture", M16 AP ",flags=vpr",
	  INV "segment 2 \"aperture\": VprSupported is only valid on a memory segment" },
	{ "encrypted-paging-without-vpr", M16 ",flags=encryptedpaging" AP,
	  SEG1 "EncryptedPagingSupported needs VprSupported" },
	{ "vpr-size-without-flag", M16 ",vprsize=1M" AP,
	  SEG1 "video protected region without VprSupported" },
	{ "vpr-without-size", M16 ",flags=vpr,vpralign=4K" AP,
	  SEG1 "VprSupported without a VPR size" },
	{ "vpr-size-not-multiple-of-alignment",
	  M16 ",flags=vpr,vprsize=1M,vpralign=0x3000" AP,
	  SEG1 "VPR [0x0, +0x100000) is unaligned or outside the segment" },
	{ "vpr-past-end", M16 ",flags=vpr,vprstart=15M,vprsize=2M,vpralign=1M" AP,
	  SEG1 "VPR [0xf00000, +0x200000) is unaligned or outside the segment" },
	{ "vpr-over-invalid",
	  M16 ",flags=vpr,invalid=2M+4K,vprstart=1M,vprsize=2M,vpralign=1M" AP,
	  SEG1 "VPR overlaps invalid range 0" },
	{ "vpr-over-uefi", M16 ",flags=vpr,uefi=1M+4K,vprstart=1M,vprsize=1M,vpralign=1M" AP,
	  SEG1 "VPR overlaps UEFI frame-buffer range 0" },
	{ "vpr-reserve-above-size",
	  M16 ",flags=vpr,vprsize=1M,vpralign=1M,vprreserve=0x101000" AP,
	  SEG1 "VPR reserve 0x101000 is above the VPR size or not a multiple of the page size" },
	/* firmware: bit 21 and the UEFI frame-buffer ranges */
	{ "reserved-ddr-on-aperture", M16 AP ",flags=aperture|reservedddr",
	  INV "segment 2 \"aperture\": PopulatedByReservedDDRByFirmware is only valid on a memory segment" },
	{ "uefi-on-aperture", M16 AP ",uefi=0+1M",
	  INV "segment 2 \"aperture\": UEFI frame-buffer ranges are only valid on a memory segment" },
	{ "uefi-range-outside", M16 ",uefi=15M+2M" AP,
	  SEG1 "UEFI range 0 [0xf00000, +0x200000) is empty, unaligned or outside the segment" },
	{ "uefi-range-overlap", M16 ",uefi=0+2M/1M+2M" AP,
	  SEG1 "UEFI range 1 overlaps UEFI range 0" },
	{ "uefi-range-overlaps-invalid", M16 ",invalid=4M+1M,uefi=0+1M/3M+2M" AP,
	  SEG1 "UEFI range 1 overlaps invalid range 0" },
	{ "parse-too-many-uefi-ranges",
	  M16 ",uefi=0+4K/1M+4K/2M+4K/3M+4K/4M+4K" AP,
	  "vseg: cannot parse segment table at \"4M+4K\": too many uefi ranges" },
	/* the CPU host aperture */
	{ "host-aperture-without-flag", M16 ",hostaperture=1M,hostaddr=0xc0000000" AP,
	  SEG1 "CPU host aperture without SupportsCpuHostAperture" },
	{ "host-aperture-on-aperture", M16 AP ",flags=cpuhostaperture",
	  INV "segment 2 \"aperture\": a CPU host aperture is only valid on a memory segment" },
	{ "host-aperture-flag-without-size", M16 ",flags=cpuhostaperture" AP,
	  SEG1 "SupportsCpuHostAperture without a CPU host aperture size" },
	{ "host-aperture-above-size",
	  M16 ",flags=cpuhostaperture,hostaperture=32M,hostaddr=0xc0000000" AP,
	  SEG1 "CPU host aperture size 0x2000000 is not a multiple of the host page size * or exceeds the size" },
	{ "host-aperture-without-address", M16 ",flags=cpuhostaperture,hostaperture=1M" AP,
	  SEG1 "SupportsCpuHostAperture without a CPU host aperture address" },
	{ "host-aperture-address-unaligned",
	  M16 ",flags=cpuhostaperture,hostaperture=1M,hostaddr=0xc0000800" AP,
	  SEG1 "CPU host aperture address 0xc0000800 is not a multiple of the host page size *" },
	{ "host-aperture-wraps",
	  M16 ",flags=cpuhostaperture,hostaperture=2M,hostaddr=0xfffffffffff00000" AP,
	  SEG1 "CPU host aperture at 0xfffffffffff00000, 0x200000 bytes, wraps around the address space" },
	{ "host-aperture-overlaps-visible",
	  "memory:name=v,size=16M,flags=cpuvisible,cpu=0xc0000000;"
	  "memory:name=h,size=16M,flags=cpuhostaperture,hostaperture=1M,"
	  "hostaddr=0xc0f00000" AP,
	  INV "segment 2 \"h\": CPU host aperture overlaps the CPU range of segment 1 \"v\"" },
	/* a PCI BAR, on the virtual platform device */
	{ "bar-without-pci", M16 ",bar=2" AP,
	  SEG1 "bar 2 without a PCI device (load with pci=VVVV:DDDD)" },
};

static const struct {
	const char *name;
	const char *opts;
	const char *line;
} bad_overrides[] = {
	{ "resize-missing-segment", "profile=discrete mem_size_mb=8,8,8",
	  "vseg: profile \"discrete\" has 2 memory segments, cannot resize memory segment 3" },
	{ "memory-overlaps-aperture", "profile=discrete mem_size_mb=4096",
	  INV "segment 3 \"aperture\": GPU address range overlaps segment 2 \"local\"" },
	{ "aperture-above-4g", "profile=discrete aperture_size_mb=4097",
	  INV "segment 3 \"aperture\": size 0x100100000 exceeds the 4 GiB limit of the aperture" },
	/* an Agp aperture's size comes from the parameter, and obeys the rules */
	{ "agp-aperture-above-4g",
	  "table=" M16 ";aperture:size=4K,flags=agp aperture_size_mb=8192",
	  INV "segment 2 \"aperture\": size 0x200000000 exceeds the 4 GiB limit of the aperture" },
};

igt_main
{
	igt_fixture {
		vseg_require_module();
		igt_install_exit_handler(cleanup);
	}

	igt_describe("Loading vseg creates a DRM device named vseg with a card "
		     "and a render node; unloading removes the module and the "
		     "nodes.");
	igt_subtest("load-unload")
		test_load_unload();

	igt_describe("vseg cannot be unloaded while a file descriptor is "
		     "open, and the device keeps working.");
	igt_subtest("unload-busy")
		test_unload_busy();

	igt_describe("Ten load/unload cycles leave no device nodes and no "
		     "vmalloc memory behind.");
	igt_subtest("reload")
		test_reload();

	igt_describe("A probe failing after each of its parts in turn "
		     "(inject_probe_failure) fails the load with ENODEV and "
		     "leaves nothing behind, the paging buffer in the aperture "
		     "or in system memory.");
	igt_subtest_with_dynamic("probe-failure") {
		igt_dynamic("paging-aperture")
			test_probe_failure("profile=discrete");
		igt_dynamic("paging-system")
			test_probe_failure("table=memory:name=m,size=16M;"
					   "aperture:name=aperture,size=64M;"
					   "paging:seg=0,size=8K,priv=64");
	}

	igt_describe("Each built-in profile loads and reports the table the "
		     "documentation describes; the first is the default.");
	igt_subtest_with_dynamic("profiles")
		vseg_dynamic_profiles(test_profile);

	igt_describe("mem_size_mb, visible_size_mb, aperture_size_mb and "
		     "aperture_commit_mb change the reported table.");
	igt_subtest_with_dynamic("size-override") {
		for (unsigned int i = 0; i < ARRAY_SIZE(override_cases); i++)
			igt_dynamic(override_cases[i].name)
				test_size_override(&override_cases[i]);
	}

	igt_describe("Text segment tables load and are reported exactly, "
		     "defaults included.");
	igt_subtest_with_dynamic("text-table") {
		for (unsigned int i = 0; i < ARRAY_SIZE(text_cases); i++)
			igt_dynamic(text_cases[i].name)
				test_text_table(text_cases[i].table,
						text_cases[i].build,
						text_cases[i].opts);
	}

	igt_describe("A table with a 16 GiB CPU-visible memory segment loads "
		     "in a small guest; a buffer at its top end is written and "
		     "read back and only its pages are backed.");
	igt_subtest("large-segment")
		test_large_segment();

	igt_describe("What the seeds allow loads: an aperture's "
		     "CpuTranslatedAddress is ignored and reported as 0, a "
		     "memory segment's commit 0 is its size, one bank, any "
		     "VprAlignment.");
	igt_subtest_with_dynamic("seed-rules") {
		for (unsigned int i = 0; i < ARRAY_SIZE(seed_cases); i++)
			igt_dynamic(seed_cases[i].name)
				test_seed_rule(seed_cases[i].table,
					       seed_cases[i].build);
	}

	igt_describe("An unknown profile makes the load fail with EINVAL and "
		     "one kernel log line.");
	igt_subtest("bad-profile")
		load_must_fail("profile=bogus",
			       "vseg: unknown profile \"bogus\" (known: discrete, integrated, smallbar, multi)");

	igt_describe("Size overrides that the profile cannot take, or that "
		     "break a rule, make the load fail with one log line.");
	igt_subtest_with_dynamic("bad-size-override") {
		for (unsigned int i = 0; i < ARRAY_SIZE(bad_overrides); i++)
			igt_dynamic(bad_overrides[i].name)
				load_must_fail(bad_overrides[i].opts,
					       bad_overrides[i].line);
	}

	igt_describe("A bad table of each kind, and a syntax error, make the "
		     "load fail with EINVAL and one kernel log line naming the "
		     "segment and the rule.");
	igt_subtest_with_dynamic("bad-tables") {
		for (unsigned int i = 0; i < ARRAY_SIZE(bad_tables); i++) {
			igt_dynamic(bad_tables[i].name) {
				char *opts;

				igt_assert(asprintf(&opts, "table=%s",
						    bad_tables[i].table) > 0);
				load_must_fail(opts, bad_tables[i].line);
				free(opts);
			}
		}
	}

	igt_fixture {
		close_fds();
		unload();
	}
}
