// SPDX-License-Identifier: MIT
/*
 * vseg_hotunplug: the device going away under its clients.
 *
 * vseg's platform device (or, loaded with pci=, its PCI device) is
 * unbound through sysfs (what a hot-unplugged PCI GPU sees) while clients hold open files, CPU mappings, queued jobs
 * and displayed primaries: every ioctl then fails with -ENODEV, a mapping
 * shows a zeroed dummy page (reads give zero, writes go nowhere, no
 * SIGBUS), queued jobs still signal, and everything is freed
 * once the last reference goes. rmmod fails while a file or a mapping is
 * still open and succeeds once they are gone; binding again gives a
 * working device.
 *
 * Copyright (c) 2026 The vseg authors
 */
/**
 * TEST: vseg hotunplug
 * Category: Core
 * Mega feature: General Core features
 * Sub-category: Core
 * Functionality: hotunplug
 * Description: Unbind vseg's device under clients with open files, mappings,
 *	queued jobs and displayed primaries: -ENODEV from ioctls, a zeroed
 *	dummy page behind mappings, no crash or leak; rmmod waits for the last
 *	file; rebinding works.
 *
 * SUBTEST: unbind-rebind
 * Description: Unbind and bind the idle device; it works each time.
 *
 * SUBTEST: unplug-ioctls
 * Description: Every ioctl on a file opened before the unplug fails with
 *	-ENODEV.
 *
 * SUBTEST: unplug-mmap
 * Description: Mappings in system memory, a memory segment and the aperture
 *	show a zeroed dummy page after the unplug (no SIGBUS, the buffer's
 *	data out of reach); new mmaps fail.
 *
 * SUBTEST: unplug-queued-jobs
 * Description: Jobs queued at the unplug run and signal their fences.
 *
 * SUBTEST: unplug-scanout
 * Description: A displayed primary is released with the device.
 *
 * SUBTEST: rmmod-busy
 * Description: rmmod fails while a file or a mapping is open, succeeds after;
 *	the memory goes with the last user.
 *
 * SUBTEST: unplug-clients-cycles
 * Description: Several clients with mappings, closed in varying orders,
 *	across repeated unplugs.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>
#include <linux/sync_file.h>

#include "igt.h"
#include "igt_vseg.h"
#include "igt_vseg_exec.h"

IGT_TEST_DESCRIPTION("Unbind vseg's device under clients with open files, "
		     "mappings, queued jobs and displayed primaries: -ENODEV "
		     "from ioctls, a zeroed dummy page behind mappings, no "
		     "crash or leak; "
		     "rmmod waits for the last file; rebinding works.");

#define PLATFORM_DIR	"/sys/bus/platform/drivers/" VSEG_MODULE
#define PCI_DIR		"/sys/bus/pci/drivers/" VSEG_MODULE
/* Small segments: the device is created and torn down many times. */
#define OPTS		"profile=discrete mem_size_mb=16,8 aperture_size_mb=16"
#define BO_SIZE		(256ull << 10)
#define JOB_SIZE	(1ull << 20)
#define JOB_FILLS	64
#define NUM_JOBS	8
#define PRIMARY_SIZE	(1024ull * 768 * 4)

static int fd = -1;
static uint32_t ap_id;	/* the aperture's segment id */
/*
 * The driver's sysfs directory and the device in it: vseg's platform
 * device ("vseg", platform_device_register_simple(, -1)), or the PCI
 * device it bound when loaded with pci= (make check's PCI lane).
 */
static const char *drv_dir = PLATFORM_DIR;
static char dev_name[64] = VSEG_MODULE;
static bool pci_mode;

/* In PCI mode: the PCI device vseg is bound to. */
static bool find_pci_device(void)
{
	struct dirent *de;
	bool found = false;
	DIR *d = opendir(PCI_DIR);

	if (!d)
		return false;
	while (!found && (de = readdir(d)))
		if (strchr(de->d_name, ':') &&
		    strlen(de->d_name) < sizeof(dev_name)) {
			snprintf(dev_name, sizeof(dev_name), "%s", de->d_name);
			found = true;
		}
	closedir(d);
	if (found)
		drv_dir = PCI_DIR;
	pci_mode = found;
	return found;
}

/* Segment 1 is the profile's CPU-visible "vram"; find the aperture. */
static void find_aperture(void)
{
	struct drm_vseg_query_segments q;
	struct drm_vseg_segment_info *segs;

	segs = vseg_query_all(fd, &q);
	ap_id = vseg_aperture_id(&q, segs);
	igt_assert_f(segs[0].id == 1 && segs[0].cpu_visible_size == segs[0].size,
		     "segment 1 is not fully CPU-visible\n");
	free(segs);
}

static void close_fd(void)
{
	if (fd >= 0)
		close(fd);
	fd = -1;
}

static void write_sysfs(const char *file, const char *val)
{
	char path[256];
	int f, n;

	snprintf(path, sizeof(path), "%s/%s", drv_dir, file);
	f = open(path, O_WRONLY);
	igt_assert_f(f >= 0, "open %s: %s\n", path, strerror(errno));
	n = write(f, val, strlen(val));
	igt_assert_f(n == (int)strlen(val), "write %s to %s: %s\n", val, path,
		     strerror(errno));
	close(f);
}

static bool bound(void)
{
	char path[256];

	snprintf(path, sizeof(path), "%s/%s", drv_dir, dev_name);
	return access(path, F_OK) == 0;
}

static void unbind(void)
{
	igt_assert(bound());
	write_sysfs("unbind", dev_name);
	igt_assert_f(!bound(), "the device is still bound after unbind\n");
	igt_assert_eq(vseg_count_nodes(), 0);
}

static void bind(void)
{
	igt_assert(!bound());
	write_sysfs("bind", dev_name);
	igt_assert_f(bound(), "the device did not bind again\n");
}

static int try_rmmod(void)
{
	if (syscall(SYS_delete_module, VSEG_MODULE, O_NONBLOCK))
		return -errno;
	return 0;
}

/* A device that works: query, create, write through a mapping, read back. */
static void check_device_works(void)
{
	struct drm_vseg_query_segments q;
	struct drm_vseg_segment_info *segs;
	uint32_t handle;
	uint32_t *map;

	fd = drm_open_vseg();
	segs = vseg_query_all(fd, &q);
	igt_assert_lt(1, q.num_segments);
	vseg_check_usage_zero(&q, segs);
	handle = vseg_gem_create_simple(fd, BO_SIZE, VSEG_SEG_BIT(1), 0);
	map = vseg_gem_mmap(fd, handle, BO_SIZE, PROT_READ | PROT_WRITE);
	map[0] = 0xc0ffee;
	map[BO_SIZE / 4 - 1] = 0xbeef;
	igt_assert_eq_u32(map[0], 0xc0ffee);
	igt_assert_eq_u32(map[BO_SIZE / 4 - 1], 0xbeef);
	munmap(map, BO_SIZE);
	vseg_gem_close(fd, handle);
	free(segs);
	close_fd();
}

/* --- SIGBUS ------------------------------------------------------------- */

struct access {
	volatile uint32_t *p;
	uint64_t size;
	uint32_t first, last;
};

static void read_write_ends(void *arg)
{
	struct access *a = arg;

	a->first = a->p[0];
	a->last = a->p[a->size / 4 - 1];
	a->p[0] = 0x5ca1ab1e;
	a->p[a->size / 4 - 1] = 0x5ca1ab1e;
}

/*
 * Read the first and the last word of the @size bytes at @p, then write
 * them, with SIGBUS caught: true if any of that raised SIGBUS. *@first and
 * *@last get what the reads returned.
 */
static bool access_faults(volatile uint32_t *p, uint64_t size,
			  uint32_t *first, uint32_t *last)
{
	struct access a = {
		.p = p, .size = size, .first = 0xdeadbeef, .last = 0xdeadbeef,
	};
	bool sigbus = vseg_catch_sigbus(read_write_ends, &a);

	*first = a.first;
	*last = a.last;
	igt_debug("read %#x %#x, sigbus %d\n", *first, *last, sigbus);
	return sigbus;
}

/*
 * A mapping of an unplugged device: a zeroed dummy page, whatever the
 * buffer held; no SIGBUS for reads or writes.
 */
static void check_dummy_page(volatile uint32_t *p, uint64_t size,
			     const char *what)
{
	uint32_t first, last;

	igt_assert_f(!access_faults(p, size, &first, &last),
		     "%s: SIGBUS touching a mapping after the unplug\n", what);
	igt_assert_f(first == 0 && last == 0,
		     "%s: read %#x and %#x after the unplug, expected the zeroed dummy page\n",
		     what, first, last);
}

/* --- subtests ----------------------------------------------------------- */

static void test_unbind_rebind(unsigned int cycles)
{
	for (unsigned int i = 0; i < cycles; i++) {
		check_device_works();
		unbind();
		bind();
	}
	check_device_works();
}

/* Every vseg ioctl (and the core ones) fails with -ENODEV once unplugged. */
static void test_ioctls(void)
{
	struct drm_vseg_query_segments q = {};
	struct drm_vseg_gem_create c;
	struct drm_vseg_gem_info info;
	struct drm_vseg_vm_bind b = {};
	struct drm_vseg_submit s;
	struct vseg_cmdbuf cb;
	uint64_t offset;
	uint32_t handle;

	fd = drm_open_vseg();
	handle = vseg_gem_create_simple(fd, BO_SIZE, VSEG_SEG_BIT(1),
					DRM_VSEG_GEM_CREATE_ACCESSED_PHYSICALLY);
	vseg_cb_init(&cb);
	vseg_cb_fill_phys(&cb, handle, 0, BO_SIZE, 0x5a5a5a5a);
	vseg_cb_exec_ok(fd, DRM_VSEG_ENGINE_COPY, &cb, "fill");

	unbind();

	igt_assert_eq(__vseg_query_segments(fd, &q), -ENODEV);
	vseg_create_args(&c, BO_SIZE, VSEG_SEG_BIT(1), 0);
	igt_assert_eq(__vseg_gem_create(fd, &c), -ENODEV);
	igt_assert_eq(__vseg_gem_info(fd, handle, &info), -ENODEV);
	igt_assert_eq(__vseg_gem_mmap_offset(fd, handle, &offset), -ENODEV);
	igt_assert_eq(__vseg_make_resident(fd, &handle, 1, NULL), -ENODEV);
	igt_assert_eq(__vseg_evict(fd, &handle, 1, NULL), -ENODEV);
	b.handle = handle;
	b.gpu_va = 1ull << 32;
	igt_assert_eq(__vseg_vm_bind_ioctl(fd, &b), -ENODEV);
	igt_assert_eq(__vseg_vm_unbind_ioctl(fd, &b), -ENODEV);
	vseg_submit_args(&s, DRM_VSEG_ENGINE_COPY, &cb);
	igt_assert_eq(__vseg_submit(fd, &s), -ENODEV);
	igt_assert_eq(__vseg_display_show(fd, 0, 0), -ENODEV);
	igt_assert_eq(__vseg_gem_close(fd, handle), -ENODEV);

	vseg_cb_fini(&cb);
	close_fd();
	bind();
	check_device_works();
}

/*
 * Mappings of every kind of placement show a zeroed dummy page once
 * unplugged: the buffer's contents are out of reach, nothing faults.
 */
static void test_mmap(void)
{
	struct { uint32_t seg; uint32_t flags; } bos[] = {
		{ 0, 0 },		/* system memory: aperture, evicted */
		{ 1, 0 },		/* memory segment, CPU-visible */
		{ 0, 0 },		/* aperture, set below */
		{ 1, DRM_VSEG_GEM_CREATE_ACCESSED_PHYSICALLY },
	};
	volatile uint32_t *map[ARRAY_SIZE(bos)];
	uint32_t handle[ARRAY_SIZE(bos)];
	uint64_t offset;
	void *p;

	fd = drm_open_vseg();
	find_aperture();
	bos[0].seg = ap_id;
	bos[2].seg = ap_id;
	for (unsigned int i = 0; i < ARRAY_SIZE(bos); i++) {
		handle[i] = vseg_gem_create_simple(fd, BO_SIZE,
						   VSEG_SEG_BIT(bos[i].seg),
						   bos[i].flags);
		map[i] = vseg_gem_mmap(fd, handle[i], BO_SIZE,
				       PROT_READ | PROT_WRITE);
		map[i][0] = 0x1000 + i;
		map[i][BO_SIZE / 4 - 1] = 0x2000 + i;
		igt_assert_eq_u32(map[i][0], 0x1000 + i);
	}
	/* System memory is named by the aperture's id: evicted there. */
	vseg_evict(fd, &handle[0], 1);
	igt_assert_eq(__vseg_gem_mmap_offset(fd, handle[0], &offset), 0);

	unbind();

	for (unsigned int i = 0; i < ARRAY_SIZE(bos); i++) {
		char what[32];

		snprintf(what, sizeof(what), "buffer %u", i);
		check_dummy_page(map[i], BO_SIZE, what);
	}
	/* New mappings are refused. */
	p = mmap(NULL, BO_SIZE, PROT_READ, MAP_SHARED, fd, offset);
	igt_assert(p == MAP_FAILED);
	igt_assert_eq(errno, ENODEV);

	for (unsigned int i = 0; i < ARRAY_SIZE(bos); i++)
		munmap((void *)map[i], BO_SIZE);
	close_fd();
	bind();
	check_device_works();
}

/* The fence of syncobj @handle as a sync_file fd. */
static int export_sync_file(uint32_t handle)
{
	struct drm_syncobj_handle h = {
		.handle = handle,
		.flags = DRM_SYNCOBJ_HANDLE_TO_FD_FLAGS_EXPORT_SYNC_FILE,
		.fd = -1,
	};

	igt_assert_eq(igt_ioctl(fd, DRM_IOCTL_SYNCOBJ_HANDLE_TO_FD, &h), 0);
	igt_assert_lte(0, h.fd);
	return h.fd;
}

/* Jobs queued when the device goes still run and signal. */
static void test_queued_jobs(void)
{
	uint32_t syncobj[NUM_JOBS];
	int sync_fd[NUM_JOBS];
	struct vseg_cmdbuf cb;
	unsigned int signalled = 0, pending = 0;

	fd = drm_open_vseg();
	vseg_cb_init(&cb);
	/* Many fills per job: the engine is still busy at the unbind. */
	for (unsigned int i = 0; i < NUM_JOBS; i++) {
		uint32_t h = vseg_gem_create_simple(fd, JOB_SIZE,
						     VSEG_SEG_BIT(1),
						     DRM_VSEG_GEM_CREATE_ACCESSED_PHYSICALLY);

		syncobj[i] = vseg_syncobj_create(fd, 0);
		vseg_cb_reset(&cb);
		for (unsigned int k = 0; k < JOB_FILLS; k++)
			vseg_cb_fill_phys(&cb, h, 0, JOB_SIZE, i * 64 + k);
		vseg_cb_submit(fd, DRM_VSEG_ENGINE_COPY, &cb, NULL, 0,
			       &syncobj[i], 1);
		sync_fd[i] = export_sync_file(syncobj[i]);
		vseg_gem_close(fd, h);	/* the job keeps it alive */
	}

	for (unsigned int i = 0; i < NUM_JOBS; i++)
		pending += vseg_syncobj_status(fd, syncobj[i]) == 0;
	unbind();

	/* The unplug waited for the queued jobs: every fence has signalled. */
	for (unsigned int i = 0; i < NUM_JOBS; i++) {
		struct pollfd pfd = { .fd = sync_fd[i], .events = POLLIN };
		struct sync_file_info info = {};

		igt_assert_eq(poll(&pfd, 1, 0), 1);
		igt_assert(ioctl(sync_fd[i], SYNC_IOC_FILE_INFO, &info) == 0);
		igt_assert_f(info.status != 0,
			     "job %u has not signalled after the unplug\n", i);
		signalled += info.status == 1;
		close(sync_fd[i]);
	}
	igt_info("%u of %u jobs were still queued at the unplug; %u signalled "
		 "without error\n", pending, NUM_JOBS, signalled);
	vseg_cb_fini(&cb);
	close_fd();
	bind();
	check_device_works();
}

/* A displayed primary: the head is turned off by the unplug. */
static void test_scanout(void)
{
	uint32_t handle;

	fd = drm_open_vseg();
	find_aperture();
	handle = vseg_gem_create_simple(fd, PRIMARY_SIZE,
					VSEG_SEG_BIT(1) | VSEG_SEG_BIT(ap_id),
					DRM_VSEG_GEM_CREATE_PRIMARY);
	vseg_display_show(fd, 0, handle);
	vseg_gem_close(fd, handle);	/* the display keeps it */
	unbind();
	close_fd();
	/* Everything went with the device: the module unloads. */
	igt_assert_eq(try_rmmod(), 0);
	igt_assert_eq(vseg_kmod_load(OPTS), 0);
	check_device_works();
}

/*
 * rmmod fails while a file or a mapping holds the device, and succeeds
 * once they are gone; the device's memory goes with the last of them:
 * the pages behind a written segment buffer (the backing_kb module
 * parameter counts them) are freed at the last munmap.
 */
#define BIG_SIZE	(12ull << 20)

/* KiB backing the memory segments of every vseg device (a module param). */
static long backing_kb(void)
{
	long kb = -1;
	FILE *f = fopen("/sys/module/" VSEG_MODULE "/parameters/backing_kb",
			"r");

	igt_assert(f);
	igt_assert_eq(fscanf(f, "%ld", &kb), 1);
	fclose(f);
	return kb;
}

static void test_rmmod_busy(void)
{
	long held;
	uint32_t handle;
	uint32_t *map;

	vseg_unload();
	igt_assert_eq(vseg_kmod_load(OPTS), 0);

	fd = drm_open_vseg();
	igt_assert_eq(try_rmmod(), -EWOULDBLOCK);
	igt_assert(igt_kmod_is_loaded(VSEG_MODULE));
	handle = vseg_gem_create_simple(fd, BIG_SIZE, VSEG_SEG_BIT(1), 0);
	map = vseg_gem_mmap(fd, handle, BIG_SIZE, PROT_READ | PROT_WRITE);
	/* Every page written: the segment backs all of them. */
	for (uint64_t i = 0; i < BIG_SIZE / 4; i += 1024)
		map[i] = 0x600d;
	close_fd();
	/* The mapping alone still holds the file, hence the module. */
	igt_assert_eq(try_rmmod(), -EWOULDBLOCK);
	igt_assert_eq_u32(map[1024], 0x600d);

	/* Unplugged with only the mapping left: the memory stays... */
	unbind();
	check_dummy_page(map, BIG_SIZE, "the last mapping");
	/* (on a PCI device, segment 1 is its BAR: no system page backs it) */
	held = backing_kb();
	igt_assert_f(held >= (long)(BIG_SIZE >> 10) || pci_mode,
		     "the unplugged device's buffer is backed by %ld kB\n", held);
	/* ...until the mapping goes. */
	munmap(map, BIG_SIZE);
	/* The last references go through work queues: give them time. */
	for (int t = 0; t < 50 && backing_kb(); t++)
		usleep(100 * 1000);
	igt_assert_f(!backing_kb(),
		     "the device's memory was not freed with its last user: "
		     "%ld kB still backed\n", backing_kb());
	igt_assert_eq(try_rmmod(), 0);
	igt_assert(!igt_kmod_is_loaded(VSEG_MODULE));
	igt_assert_eq(vseg_kmod_load(OPTS), 0);
	check_device_works();
}

/* Several clients, some still busy, across repeated unplugs. */
static void test_clients_cycles(unsigned int cycles)
{
	for (unsigned int c = 0; c < cycles; c++) {
		int fds[3];
		uint32_t *maps[3];

		for (unsigned int i = 0; i < 3; i++) {
			uint32_t h;

			fds[i] = drm_open_vseg();
			fd = fds[i];
			find_aperture();
			fd = -1;
			/*
			 * system memory (the aperture's id, evicted), vram,
			 * the aperture
			 */
			h = vseg_gem_create_simple(fds[i], BO_SIZE,
						   VSEG_SEG_BIT(i == 1 ? 1 : ap_id),
						   0);
			if (i == 0)
				vseg_evict(fds[i], &h, 1);
			maps[i] = vseg_gem_mmap(fds[i], h, BO_SIZE,
						PROT_READ | PROT_WRITE);
			maps[i][0] = 0x100 + c;
			maps[i][BO_SIZE / 4 - 1] = 0x200 + c;
		}
		unbind();
		for (unsigned int i = 0; i < 3; i++) {
			check_dummy_page(maps[i], BO_SIZE, "a client's mapping");
			/* in varying orders: file first, or mapping first */
			if ((c + i) & 1) {
				close(fds[i]);
				munmap(maps[i], BO_SIZE);
			} else {
				munmap(maps[i], BO_SIZE);
				close(fds[i]);
			}
		}
		bind();
	}
	check_device_works();
}

igt_main
{
	igt_fixture {
		vseg_require_root();
		vseg_require_module();
		vseg_reload(OPTS);
		if (access(PLATFORM_DIR "/" VSEG_MODULE, F_OK))
			igt_require_f(find_pci_device(),
				      "vseg is bound to no device\n");
		igt_require_f(access(PLATFORM_DIR "/unbind", W_OK) == 0 ||
			      access(PCI_DIR "/unbind", W_OK) == 0,
			      "no %s/unbind\n", drv_dir);
	}

	igt_describe("Unbind and bind the idle device; it works each time.");
	igt_subtest("unbind-rebind")
		test_unbind_rebind(3);

	igt_describe("Every ioctl on a file opened before the unplug fails "
		     "with -ENODEV.");
	igt_subtest("unplug-ioctls")
		test_ioctls();

	igt_describe("Mappings in system memory, a memory segment and the "
		     "aperture show a zeroed dummy page after the unplug (no "
		     "SIGBUS, the buffer's data out of reach); new mmaps "
		     "fail.");
	igt_subtest("unplug-mmap")
		test_mmap();

	igt_describe("Jobs queued at the unplug run and signal their fences.");
	igt_subtest("unplug-queued-jobs")
		test_queued_jobs();

	igt_describe("A displayed primary is released with the device.");
	igt_subtest("unplug-scanout")
		test_scanout();

	igt_describe("rmmod fails while a file or a mapping is open, "
		     "succeeds after; the memory goes with the last user.");
	igt_subtest("rmmod-busy")
		test_rmmod_busy();

	igt_describe("Several clients with mappings, closed in varying "
		     "orders, across repeated unplugs.");
	igt_subtest("unplug-clients-cycles")
		test_clients_cycles(4);

	igt_fixture {
		close_fd();
		if (!bound() && igt_kmod_is_loaded(VSEG_MODULE))
			write_sysfs("bind", dev_name);
		vseg_unload();
	}
}
