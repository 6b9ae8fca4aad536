// SPDX-License-Identifier: MIT
/*
 * vseg_pci: vseg bound to a PCI device, its memory segment on a BAR.
 *
 * Loaded with pci=1af4:1110, vseg binds QEMU's ivshmem-plain device and
 * puts the profile's CPU-visible memory segment on its BAR 2. Every check
 * that a buffer lives in the BAR reads the BAR through a second, independent
 * door: the device's sysfs resource2 file, mapped by root, at the buffer's
 * segment offset. Skips without such a device (the guests of make check's
 * other lanes).
 *
 * Copyright (c) 2026 The vseg authors
 */
/**
 * TEST: vseg pci
 * Category: Core
 * Mega feature: General Core features
 * Sub-category: Core
 * Functionality: PCI BAR-backed segments
 * Description: vseg bound to a PCI device (ivshmem-plain): the binding, the
 *	table from its BAR, buffers whose bytes are the BAR's memory (checked
 *	through sysfs resource2), eviction to and from the BAR, a small BAR,
 *	engine jobs on BAR memory, a hostile second client, unbind and rebind
 *	with clients open.
 *
 * SUBTEST: binding
 * Description: The device's sysfs driver link is vseg; the BAR segment's
 *	CpuTranslatedAddress is the BAR's start from sysfs, its CPU-visible
 *	size the BAR's length; the other segments are as the profile says.
 *
 * SUBTEST: bar-cpu-access
 * Description: Every byte of a buffer in the BAR segment written and read
 *	back through its CPU mapping, found at its segment offset through
 *	sysfs resource2, and bytes written there read through the mapping.
 *
 * SUBTEST: evict
 * Description: A buffer evicted from the BAR keeps its data, its BAR bytes
 *	read zero after it left, and it comes back into the BAR intact.
 *
 * SUBTEST: small-bar
 * Description: A segment twice the BAR's size: the BAR is its CPU-visible
 *	part; a buffer placed beyond it moves into the BAR when the CPU
 *	touches it, with its data.
 *
 * SUBTEST: engine
 * Description: The copy engine's FILL and COPY on buffers in the BAR: the
 *	result is in the BAR (sysfs resource2) and in the CPU mapping.
 *
 * SUBTEST: hostile-client
 * Description: A second client cannot reach the first one's BAR memory: not
 *	its handles, and a buffer it gets at the same BAR offset reads zero.
 *
 * SUBTEST: unbind-rebind
 * Description: Unbind the PCI device through sysfs with a client holding a
 *	file and a mapping: ioctls fail with ENODEV, the mapping reads zero;
 *	bind it again: a new device works, with its segment on the BAR.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include "igt.h"
#include "igt_vseg.h"
#include "igt_vseg_exec.h"

IGT_TEST_DESCRIPTION("vseg bound to a PCI device (ivshmem-plain): buffers in "
		     "a memory segment on its BAR, checked through sysfs.");

#define PCI_ID		"1af4:1110"
#define VENDOR		0x1af4
#define DEVICE		0x1110
#define BAR		2
#define OPTS		"pci=" PCI_ID
#define PCI_DRV_DIR	"/sys/bus/pci/drivers/" VSEG_MODULE
#define BO_SIZE		(1ull << 20)

static char dev_dir[256];	/* /sys/bus/pci/devices/<bdf> */
static const char *bdf;
static uint64_t bar_start, bar_len;

static unsigned long read_hex(const char *dir, const char *file)
{
	char path[PATH_MAX];
	unsigned long v = 0;
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, file);
	f = fopen(path, "r");
	if (!f)
		return 0;
	if (fscanf(f, "%lx", &v) != 1)
		v = 0;
	fclose(f);
	return v;
}

/* The first ivshmem-plain device in /sys/bus/pci/devices, or false. */
static bool find_device(void)
{
	const char *root = "/sys/bus/pci/devices";
	struct dirent *de;
	char dir[256];
	bool found = false;
	DIR *d = opendir(root);

	if (!d)
		return false;
	while (!found && (de = readdir(d))) {
		if (de->d_name[0] == '.')
			continue;
		if (strlen(de->d_name) > 64)
			continue;
		snprintf(dir, sizeof(dir), "%s/%s", root, de->d_name);
		if (read_hex(dir, "vendor") == VENDOR &&
		    read_hex(dir, "device") == DEVICE) {
			snprintf(dev_dir, sizeof(dev_dir), "%s", dir);
			found = true;
		}
	}
	closedir(d);
	if (found)
		bdf = strrchr(dev_dir, '/') + 1;
	return found;
}

/* Line BAR of the device's sysfs "resource": start and length. */
static void read_bar(void)
{
	unsigned long long start = 0, end = 0, flags;
	char path[PATH_MAX];
	FILE *f;
	int i;

	snprintf(path, sizeof(path), "%s/resource", dev_dir);
	f = fopen(path, "r");
	igt_assert_f(f, "cannot open %s\n", path);
	for (i = 0; i <= BAR; i++)
		igt_assert_eq(fscanf(f, "%llx %llx %llx", &start, &end, &flags),
			      3);
	fclose(f);
	igt_assert_f(start && end > start, "BAR %d is not assigned\n", BAR);
	bar_start = start;
	bar_len = end - start + 1;
}

/* The driver the device is bound to ("" if none). */
static void bound_driver(char *name, size_t size)
{
	char path[PATH_MAX], link[PATH_MAX];
	ssize_t n;

	snprintf(path, sizeof(path), "%s/driver", dev_dir);
	n = readlink(path, link, sizeof(link) - 1);
	name[0] = '\0';
	if (n <= 0)
		return;
	link[n] = '\0';
	snprintf(name, size, "%s", strrchr(link, '/') + 1);
}

/* The BAR through sysfs resource2, mapped shared: the independent view. */
static uint8_t *map_bar(void)
{
	char path[PATH_MAX];
	void *p;
	int fd;

	snprintf(path, sizeof(path), "%s/resource%d", dev_dir, BAR);
	fd = open(path, O_RDWR | O_SYNC);
	igt_assert_f(fd >= 0, "cannot open %s: %s\n", path, strerror(errno));
	p = mmap(NULL, bar_len, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	close(fd);
	igt_assert_f(p != MAP_FAILED, "cannot map %s: %s\n", path,
		     strerror(errno));
	return p;
}

static void unmap_bar(uint8_t *bar)
{
	munmap(bar, bar_len);
}

static void sysfs_write(const char *file, const char *val)
{
	char path[PATH_MAX];
	int fd;

	snprintf(path, sizeof(path), "%s/%s", PCI_DRV_DIR, file);
	fd = open(path, O_WRONLY);
	igt_assert_f(fd >= 0, "cannot open %s: %s\n", path, strerror(errno));
	igt_assert_f(write(fd, val, strlen(val)) == (ssize_t)strlen(val),
		     "writing %s to %s: %s\n", val, path, strerror(errno));
	close(fd);
}

static int fd = -1;
static struct drm_vseg_query_segments q;
static struct drm_vseg_segment_info *segs;
static uint32_t bar_seg;	/* the memory segment on the BAR */

/* Load vseg on the device with @extra options; open it, find the segment. */
static void load(const char *extra)
{
	char opts[256];
	char drv[64];

	if (fd >= 0)
		close(fd);
	fd = -1;
	snprintf(opts, sizeof(opts), "%s %s", OPTS, extra);
	vseg_reload(opts);
	bound_driver(drv, sizeof(drv));
	igt_assert_f(!strcmp(drv, VSEG_MODULE),
		     "%s is bound to \"%s\", not vseg\n", bdf, drv);
	fd = drm_open_vseg_render();
	free(segs);
	segs = vseg_query_all(fd, &q);
	bar_seg = 0;
	for (uint32_t id = 1; id <= q.num_segments; id++) {
		const struct drm_vseg_segment_info *s = vseg_segment(&q, segs, id);

		if (s->kind == DRM_VSEG_SEGMENT_KIND_MEMORY &&
		    s->cpu_translated_address == bar_start) {
			bar_seg = id;
			break;
		}
	}
	igt_assert_f(bar_seg, "no memory segment at the BAR's address %#llx\n",
		     (unsigned long long)bar_start);
}

/* A contiguous buffer in the BAR segment, resident; its segment offset. */
static uint32_t create_in_bar(int f, uint64_t size, uint64_t *offset)
{
	struct drm_vseg_gem_info info;
	uint32_t h;

	h = vseg_gem_create_in(f, size, bar_seg,
			       DRM_VSEG_GEM_CREATE_ACCESSED_PHYSICALLY);
	vseg_make_resident(f, &h, 1);
	vseg_gem_info(f, h, &info);
	igt_assert_eq(info.segment_id, bar_seg);
	igt_assert(info.placement_flags & DRM_VSEG_INFO_CONTIGUOUS);
	igt_assert(info.offset + size <= bar_len);
	*offset = info.offset;
	return h;
}

static void check_bar_pattern(const uint8_t *bar, uint64_t off, uint64_t size,
			      uint32_t seed, const char *what)
{
	int64_t bad = vseg_pattern_check(bar + off, size, seed);

	igt_assert_f(bad < 0, "%s: BAR byte %#llx (buffer byte %lld) differs\n",
		     what, (unsigned long long)(off + bad), (long long)bad);
}

/*
 * Wait until nothing of the BAR segment is committed: TTM frees a placement
 * a buffer left (closed, or moved away) once the buffer is idle, maybe
 * from a worker.
 */
static void wait_bar_seg_free(void)
{
	struct drm_vseg_query_segments qq;
	struct drm_vseg_segment_info *ss;
	uint64_t committed = 0;

	for (int i = 0; i < 200; i++) {
		ss = vseg_query_all(fd, &qq);
		committed = vseg_segment(&qq, ss, bar_seg)->usage.committed;
		free(ss);
		if (!committed)
			return;
		usleep(50 * 1000);
	}
	igt_assert_f(!committed, "%llu bytes of the BAR segment still committed\n",
		     (unsigned long long)committed);
}

static void test_binding(void)
{
	const struct drm_vseg_segment_info *s;
	char drv[64];

	load("");
	bound_driver(drv, sizeof(drv));
	igt_assert_eq(strcmp(drv, VSEG_MODULE), 0);
	s = vseg_segment(&q, segs, bar_seg);
	igt_assert_eq_u64(s->cpu_translated_address, bar_start);
	igt_assert(s->flags & DRM_VSEG_SEGMENT_CPU_VISIBLE);
	igt_assert_eq_u64(s->cpu_visible_size,
			  s->size < bar_len ? s->size : bar_len);
	/* discrete: the BAR segment, one more memory segment, the aperture */
	igt_assert_eq(q.num_segments, 3);
	igt_assert_eq(vseg_segment(&q, segs, 2)->cpu_translated_address, 0);
	igt_assert(vseg_aperture_id(&q, segs) == 3);
	vseg_check_table_rules(&q, segs);
}

static void test_cpu_access(void)
{
	uint64_t off, size = BO_SIZE;
	uint8_t *bar, *p;
	uint32_t h;

	load("");
	bar = map_bar();
	h = create_in_bar(fd, size, &off);
	p = vseg_gem_mmap(fd, h, size, PROT_READ | PROT_WRITE);
	igt_assert_eq(vseg_zero_check(p, size), -1);
	vseg_pattern_fill(p, size, 0x1234);
	igt_assert_eq(vseg_pattern_check(p, size, 0x1234), -1);
	check_bar_pattern(bar, off, size, 0x1234, "written through the mapping");

	/* The other way round: the BAR written, the mapping reads it. */
	vseg_pattern_fill(bar + off, size, 0x5678);
	igt_assert_eq(vseg_pattern_check(p, size, 0x5678), -1);
	igt_assert_eq(vseg_gem_segment(fd, h), bar_seg);

	munmap(p, size);
	vseg_gem_close(fd, h);
	/* Freed: its BAR bytes were cleared. */
	wait_bar_seg_free();
	igt_assert_eq(vseg_zero_check(bar + off, size), -1);
	unmap_bar(bar);
}

static void test_evict(void)
{
	uint64_t off, off2, size = BO_SIZE;
	uint8_t *bar;
	uint32_t h;

	load("");
	bar = map_bar();
	h = create_in_bar(fd, size, &off);
	vseg_bo_fill_pattern(fd, h, size, 42);
	igt_assert_eq(vseg_gem_segment(fd, h), bar_seg);
	check_bar_pattern(bar, off, size, 42, "before the eviction");

	vseg_evict(fd, &h, 1);
	igt_assert_neq(vseg_gem_segment(fd, h), bar_seg);
	/*
	 * TTM frees the old placement once the move's Transfer is done (not
	 * counted as committed meanwhile): wait for its bytes to clear.
	 */
	for (int i = 0; i < 200 && vseg_zero_check(bar + off, size) != -1; i++)
		usleep(50 * 1000);
	igt_assert_f(vseg_zero_check(bar + off, size) == -1,
		     "the evicted buffer's BAR bytes were not cleared\n");
	vseg_bo_check_pattern(fd, h, size, 42, "evicted from the BAR");

	vseg_make_resident(fd, &h, 1);
	igt_assert_eq(vseg_gem_segment(fd, h), bar_seg);
	{
		struct drm_vseg_gem_info info;

		vseg_gem_info(fd, h, &info);
		off2 = info.offset;
	}
	/* (through the mapping first: its fault waits for the move) */
	vseg_bo_check_pattern(fd, h, size, 42, "back in the BAR");
	check_bar_pattern(bar, off2, size, 42, "back in the BAR");
	vseg_gem_close(fd, h);
	unmap_bar(bar);
}

static void test_small_bar(void)
{
	const struct drm_vseg_segment_info *s;
	struct drm_vseg_gem_create c;
	struct drm_vseg_gem_info info;
	uint64_t size = BO_SIZE;
	uint8_t *bar, *p;
	uint32_t h;
	char opts[64];

	/* The BAR segment twice the BAR's size: a small BAR. */
	snprintf(opts, sizeof(opts), "mem_size_mb=%llu,8",
		 (unsigned long long)(2 * bar_len >> 20));
	load(opts);
	s = vseg_segment(&q, segs, bar_seg);
	igt_assert_eq_u64(s->size, 2 * bar_len);
	igt_assert_eq_u64(s->cpu_visible_size, bar_len);
	igt_assert_eq_u64(s->cpu_translated_address, bar_start);

	/* From the end of the segment: beyond the BAR, not CPU-visible. */
	vseg_create_args(&c, size, 1u << bar_seg,
			 DRM_VSEG_GEM_CREATE_ACCESSED_PHYSICALLY |
			 DRM_VSEG_GEM_CREATE_FROM_END_OF_SEGMENT);
	vseg_create_prefer(&c, bar_seg, 0);
	h = vseg_gem_create(fd, &c);
	vseg_make_resident(fd, &h, 1);
	vseg_gem_info(fd, h, &info);
	igt_assert_eq(info.segment_id, bar_seg);
	igt_assert_f(info.offset >= bar_len,
		     "placed at %#llx, in the BAR\n",
		     (unsigned long long)info.offset);

	/* The CPU touches it: it moves into the BAR, data and all. */
	p = vseg_gem_mmap(fd, h, size, PROT_READ | PROT_WRITE);
	vseg_pattern_fill(p, size, 7);
	vseg_gem_info(fd, h, &info);
	igt_assert_eq(info.segment_id, bar_seg);
	igt_assert_f(info.offset + size <= bar_len,
		     "at %#llx after the CPU wrote it: not in the BAR\n",
		     (unsigned long long)info.offset);
	bar = map_bar();
	check_bar_pattern(bar, info.offset, size, 7, "after the CPU fault");
	igt_assert_eq(vseg_pattern_check(p, size, 7), -1);
	munmap(p, size);
	vseg_gem_close(fd, h);
	unmap_bar(bar);
}

static void test_engine(void)
{
	uint64_t a_off, b_off, size = BO_SIZE;
	struct vseg_cmdbuf cb;
	uint8_t *bar, *p;
	uint32_t a, b;

	load("");
	vseg_require_engine(fd);
	bar = map_bar();
	a = create_in_bar(fd, size, &a_off);
	b = create_in_bar(fd, size, &b_off);

	vseg_cb_init(&cb);
	vseg_cb_fill_phys(&cb, a, 0, size, 0xa5a5a5a5);
	vseg_cb_exec_ok(fd, DRM_VSEG_ENGINE_COPY, &cb, "FILL in the BAR");
	for (uint64_t i = 0; i < size; i++)
		igt_assert_f(bar[a_off + i] == 0xa5,
			     "BAR byte %#llx is %#x after the FILL\n",
			     (unsigned long long)(a_off + i), bar[a_off + i]);

	/* COPY from a pattern written through the BAR itself. */
	vseg_pattern_fill(bar + a_off, size, 99);
	vseg_cb_reset(&cb);
	vseg_cb_copy_phys(&cb, b, 0, a, 0, size);
	vseg_cb_exec_ok(fd, DRM_VSEG_ENGINE_COPY, &cb, "COPY within the BAR");
	check_bar_pattern(bar, b_off, size, 99, "COPY's destination");
	p = vseg_gem_mmap(fd, b, size, PROT_READ);
	igt_assert_eq(vseg_pattern_check(p, size, 99), -1);
	munmap(p, size);
	vseg_cb_fini(&cb);
	vseg_gem_close(fd, a);
	vseg_gem_close(fd, b);
	unmap_bar(bar);
}

static void test_hostile(void)
{
	struct drm_vseg_gem_info info;
	uint64_t off, off2, size = BO_SIZE, mo;
	int other;
	uint8_t *p;
	uint32_t h, h2;

	load("");
	h = create_in_bar(fd, size, &off);
	vseg_bo_fill_pattern(fd, h, size, 0x5ec2e7);

	other = drm_open_vseg_render();
	/* Its handle numbers mean nothing to another file. */
	igt_assert_eq(__vseg_gem_info(other, h, &info), -ENOENT);
	igt_assert_eq(__vseg_gem_mmap_offset(other, h, &mo), -ENOENT);
	igt_assert_eq(__vseg_evict(other, &h, 1, NULL), -ENOENT);

	/* The first client frees it; the second gets the same BAR bytes. */
	vseg_gem_close(fd, h);
	wait_bar_seg_free();
	h2 = create_in_bar(other, size, &off2);
	igt_assert_eq_u64(off2, off);
	p = vseg_gem_mmap(other, h2, size, PROT_READ);
	igt_assert_f(vseg_zero_check(p, size) == -1,
		     "another client's BAR bytes are readable\n");
	munmap(p, size);
	vseg_gem_close(other, h2);
	close(other);
}

static void test_unbind_rebind(void)
{
	struct drm_vseg_gem_info info;
	uint64_t off, size = BO_SIZE;
	uint8_t *p, *bar;
	char drv[64];
	uint32_t h;

	load("");
	h = create_in_bar(fd, size, &off);
	p = vseg_gem_mmap(fd, h, size, PROT_READ | PROT_WRITE);
	vseg_pattern_fill(p, size, 3);

	sysfs_write("unbind", bdf);
	bound_driver(drv, sizeof(drv));
	igt_assert_eq(strcmp(drv, ""), 0);
	igt_assert_eq(__vseg_gem_info(fd, h, &info), -ENODEV);
	igt_assert_eq(__vseg_make_resident(fd, &h, 1, NULL), -ENODEV);
	/* The mapping shows a zeroed dummy page, no SIGBUS. */
	igt_assert_eq(vseg_zero_check(p, size), -1);
	p[0] = 1;
	/* The old device no longer writes the BAR: it is free for the next. */
	bar = map_bar();
	bar[off] = 0x77;
	igt_assert_eq(bar[off], 0x77);

	sysfs_write("bind", bdf);
	bound_driver(drv, sizeof(drv));
	igt_assert_eq(strcmp(drv, VSEG_MODULE), 0);
	/* The new device started with a cleared BAR. */
	igt_assert_eq(vseg_zero_check(bar, bar_len), -1);
	munmap(p, size);
	close(fd);

	fd = drm_open_vseg_render();
	free(segs);
	segs = vseg_query_all(fd, &q);
	igt_assert_eq_u64(vseg_segment(&q, segs, bar_seg)->cpu_translated_address,
			  bar_start);
	h = create_in_bar(fd, size, &off);
	vseg_bo_fill_pattern(fd, h, size, 4);
	check_bar_pattern(bar, off, size, 4, "on the rebound device");
	vseg_gem_close(fd, h);
	unmap_bar(bar);
}

igt_main
{
	igt_fixture {
		vseg_require_module();
		igt_require_f(find_device(),
			      "no ivshmem-plain PCI device (%s) in this machine\n",
			      PCI_ID);
		read_bar();
		igt_info("%s: BAR %d at %#llx, %llu MiB\n", bdf, BAR,
			 (unsigned long long)bar_start,
			 (unsigned long long)(bar_len >> 20));
	}

	igt_describe("The device's driver link is vseg; the BAR segment's "
		     "CpuTranslatedAddress and CPU-visible size are the BAR's.");
	igt_subtest("binding")
		test_binding();

	igt_describe("Every byte of a buffer in the BAR segment through its "
		     "mapping and through sysfs resource2.");
	igt_subtest("bar-cpu-access")
		test_cpu_access();

	igt_describe("Eviction from and back to the BAR keeps the data.");
	igt_subtest("evict")
		test_evict();

	igt_describe("A segment larger than the BAR: the CPU's touch moves a "
		     "buffer into the BAR.");
	igt_subtest("small-bar")
		test_small_bar();

	igt_describe("The copy engine's FILL and COPY on BAR memory.");
	igt_subtest("engine")
		test_engine();

	igt_describe("A second client cannot reach the first one's BAR memory.");
	igt_subtest("hostile-client")
		test_hostile();

	igt_describe("Unbind with a client open, then bind again.");
	igt_subtest("unbind-rebind")
		test_unbind_rebind();

	igt_fixture {
		if (fd >= 0)
			close(fd);
		vseg_unload();
	}
}
