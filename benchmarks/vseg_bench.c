// SPDX-License-Identifier: MIT
/*
 * vseg_bench: how fast vseg is, against the drivers a user would otherwise
 * pick (vgem: shmem GEM; bochs: TTM through drm_gem_vram_helper, both
 * through their dumb-buffer ioctls) and against the machine's own limits
 * (memset, memcpy, anonymous memory), measured in the same boot.
 *
 * Every figure is the median of several runs, with min and max; runs of
 * the things compared are interleaved, so that a slow phase of the
 * emulator hits all of them alike. Results are printed as tab-separated
 * lines that tools/bench.sh turns into a table, JSON and a plot:
 *
 *   BENCH-ROW  id  what  unit  med min max  anchor  amed amin amax
 *              ratio  target  met
 *   BENCH-POINT  series  x  med min max       (scaling curves)
 *   BENCH-INFO  key  value                   (reported, no target)
 *
 * Copyright (c) 2026 The vseg authors
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <poll.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/uio.h>
#include <time.h>
#include <unistd.h>

#include <xf86drm.h>

#include "igt.h"
#include "igt_vseg.h"
#include "igt_vseg_exec.h"

IGT_TEST_DESCRIPTION("vseg performance against vgem, bochs and the CPU's "
		     "own memset/memcpy; prints BENCH-ROW lines.");

#define MAX_RUNS	16
#define SZ_BENCH	SZ_64M
/* Segment sizes of the benchmark's module load. */
#define VRAM_MB		256
#define LOCAL_MB	512
#define VSEG_OPTS	"profile=discrete mem_size_mb=256,512"
/*
 * The same written out as a table, but for a 16 GiB "local" segment
 * (nothing backs it until written) and the aperture's GPU addresses moved
 * above it.
 */
#define HUGE_GB		16
#define HUGE_OPTS	"table=memory:name=vram,size=256M,page=64K," \
			"flags=cpuvisible|banking|64kpages,banks=128M," \
			"cpu=0xe0000000;memory:name=local,size=16G;" \
			"aperture:base=0x800000000,size=64M,commit=32M;" \
			"paging:size=64K"

/*
 * The benchmark's table on a PCI device: QEMU's ivshmem-plain (make bench
 * gives the guest one with a 256 MiB BAR 2), whose BAR becomes "vram".
 */
#define IVSHMEM_ID	"1af4:1110"
#define BAR_OPTS	VSEG_OPTS " pci=" IVSHMEM_ID

#define AP_FLAG		DRM_VSEG_GEM_CREATE_ACCESSED_PHYSICALLY

/* Runs per figure; $VSEG_BENCH_RUNS overrides (for a quick try). */
static unsigned int runs(unsigned int dflt)
{
	const char *s = getenv("VSEG_BENCH_RUNS");
	unsigned int n = s && *s ? (unsigned int)atoi(s) : dflt;

	return n < 1 ? 1 : n > MAX_RUNS ? MAX_RUNS : n;
}

/* Scale of the buffer counts; $VSEG_BENCH_SCALE (percent) overrides. */
static unsigned int scaled(unsigned int n)
{
	const char *s = getenv("VSEG_BENCH_SCALE");
	unsigned int pct = s && *s ? (unsigned int)atoi(s) : 100;

	if (!pct)
		pct = 100;
	n = (unsigned int)((uint64_t)n * pct / 100);
	return n ? n : 1;
}

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec * 1e-9;
}

/* --- statistics ---------------------------------------------------------- */

/*
 * Up to two samples a run: migration measures its anchors in both of its
 * halves (scattered, contiguous), so VSEG_BENCH_RUNS above 8 overflowed.
 */
#define MAX_SAMPLES	(2 * MAX_RUNS)

struct bstat {
	unsigned int n;
	double v[MAX_SAMPLES];
};

static void stat_add(struct bstat *s, double v)
{
	igt_assert(s->n < MAX_SAMPLES);
	s->v[s->n++] = v;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

static double stat_med(const struct bstat *s)
{
	double v[MAX_SAMPLES];

	if (!s->n)
		return 0;
	memcpy(v, s->v, s->n * sizeof(v[0]));
	qsort(v, s->n, sizeof(v[0]), cmp_double);
	return s->n & 1 ? v[s->n / 2] : (v[s->n / 2 - 1] + v[s->n / 2]) / 2;
}

static double stat_min(const struct bstat *s)
{
	double m = s->n ? s->v[0] : 0;
	unsigned int i;

	for (i = 1; i < s->n; i++)
		m = s->v[i] < m ? s->v[i] : m;
	return m;
}

static double stat_max(const struct bstat *s)
{
	double m = s->n ? s->v[0] : 0;
	unsigned int i;

	for (i = 1; i < s->n; i++)
		m = s->v[i] > m ? s->v[i] : m;
	return m;
}

enum goal { AT_LEAST, AT_MOST, REPORT };

/*
 * One result line: @v against @a (NULL: no anchor), ratio of the medians
 * against @target (@goal says which way).
 */
static void row(const char *id, const char *what, const char *unit,
		const struct bstat *v, const char *anchor, const struct bstat *a,
		enum goal goal, double target)
{
	double ratio = a && stat_med(a) > 0 ? stat_med(v) / stat_med(a) : 0;
	const char *met = "-";
	char tgt[32] = "-";

	if (goal == AT_LEAST) {
		snprintf(tgt, sizeof(tgt), ">= %.2f", target);
		met = ratio >= target ? "yes" : "NO";
	} else if (goal == AT_MOST) {
		snprintf(tgt, sizeof(tgt), "<= %.2f", target);
		met = ratio <= target ? "yes" : "NO";
	}
	printf("BENCH-ROW\t%s\t%s\t%s\t%.6g\t%.6g\t%.6g\t%s\t%.6g\t%.6g\t%.6g\t%.3f\t%s\t%s\n",
	       id, what, unit, stat_med(v), stat_min(v), stat_max(v),
	       anchor ? anchor : "-", a ? stat_med(a) : 0, a ? stat_min(a) : 0,
	       a ? stat_max(a) : 0, ratio, tgt, met);
	fflush(stdout);
}

static void point(const char *series, double x, const struct bstat *v)
{
	printf("BENCH-POINT\t%s\t%.0f\t%.6g\t%.6g\t%.6g\n", series, x,
	       stat_med(v), stat_min(v), stat_max(v));
	fflush(stdout);
}

static void info(const char *key, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
static void info(const char *key, const char *fmt, ...)
{
	va_list ap;

	printf("BENCH-INFO\t%s\t", key);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf("\n");
	fflush(stdout);
}

/* --- the drivers compared ------------------------------------------------- */

/**
 * struct backend - a way of creating buffers
 * @name: for the output.
 * @fd: the device.
 * @dumb: through the dumb-buffer ioctls (vgem, bochs), else vseg's own.
 * @supported: vseg: supported segments.
 * @flags: vseg: create flags.
 * @preferred: vseg: preferred segment (0: none).
 */
struct backend {
	const char *name;
	int fd;
	bool dumb;
	uint32_t supported;
	uint32_t flags;
	uint32_t preferred;
};

static int vseg_fd = -1, vgem_fd = -1, bochs_fd = -1;
/*
 * Since driver 0.8 segment 0 (system memory) is not the client's to name:
 * the aperture's bit in a segment set names system memory.
 */
static uint32_t vram_id, local_id, ap_id;

/* First card node whose driver is @driver, or -1. */
static int open_card(const char *driver)
{
	char path[64], name[64];
	int i, fd;

	for (i = 0; i < 16; i++) {
		snprintf(path, sizeof(path), "/dev/dri/card%d", i);
		fd = open(path, O_RDWR | O_CLOEXEC);
		if (fd < 0)
			continue;
		/* the name comes without a terminator, as upstream IGT's */
		memset(name, 0, sizeof(name));
		if (!__get_drm_device_name(fd, name, sizeof(name) - 1) &&
		    !strcmp(name, driver))
			return fd;
		close(fd);
	}
	return -1;
}

static uint32_t be_create(const struct backend *b, uint64_t size)
{
	if (b->dumb) {
		struct drm_mode_create_dumb c = {
			.width = 1024, .bpp = 32, .height = size / 4096,
		};

		do_ioctl(b->fd, DRM_IOCTL_MODE_CREATE_DUMB, &c);
		return c.handle;
	} else {
		struct drm_vseg_gem_create c;

		vseg_create_args(&c, size, b->supported, b->flags);
		if (b->preferred)
			vseg_create_prefer(&c, b->preferred, 0);
		return vseg_gem_create(b->fd, &c);
	}
}

static void be_close(const struct backend *b, uint32_t handle)
{
	if (b->dumb) {
		struct drm_mode_destroy_dumb d = { .handle = handle };

		do_ioctl(b->fd, DRM_IOCTL_MODE_DESTROY_DUMB, &d);
	} else {
		vseg_gem_close(b->fd, handle);
	}
}

static void *be_mmap(const struct backend *b, uint32_t handle, uint64_t size)
{
	struct drm_mode_map_dumb m = { .handle = handle };
	void *p;

	if (!b->dumb)
		return vseg_gem_mmap(b->fd, handle, size,
				     PROT_READ | PROT_WRITE);
	do_ioctl(b->fd, DRM_IOCTL_MODE_MAP_DUMB, &m);
	p = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_SHARED, b->fd,
		 m.offset);
	igt_assert(p != MAP_FAILED);
	return p;
}

static struct backend vseg_be(const char *name, uint32_t seg, uint32_t flags)
{
	struct backend b = {
		.name = name, .fd = vseg_fd,
		.supported = BIT(seg), .flags = flags,
	};

	return b;
}

static struct backend dumb_be(const char *name, int fd)
{
	struct backend b = { .name = name, .fd = fd, .dumb = true };

	return b;
}

/* Slab: of /proc/meminfo, bytes. */
static uint64_t slab_bytes(void)
{
	char line[256];
	uint64_t kb = 0;
	FILE *f = fopen("/proc/meminfo", "r");

	igt_assert(f);
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "Slab: %" SCNu64 " kB", &kb) == 1)
			break;
	fclose(f);
	return kb * 1024;
}

/* Let deferred frees (TTM's delayed delete, RCU) run. */
static void settle(void)
{
	int fd = open("/proc/sys/vm/drop_caches", O_WRONLY);

	usleep(200 * 1000);
	if (fd >= 0) {
		igt_ignore_warn(write(fd, "2", 1) == 1);
		close(fd);
	}
	usleep(200 * 1000);
}

/* --- 1: create + close throughput ---------------------------------------- */

/* Seconds for @n creates + closes of @size on @b. */
static double create_close_time(const struct backend *b, uint64_t size,
				unsigned int n)
{
	double t = now();
	unsigned int i;

	for (i = 0; i < n; i++)
		be_close(b, be_create(b, size));
	return now() - t;
}

#define CC_BACKENDS	8
#define CC_SLICES	20

/*
 * Each run is CC_SLICES rounds of n / CC_SLICES creates + closes on every
 * backend in turn, starting each round at the next backend; a backend's
 * rate is its ops over the sum of its slices. A slow phase of the emulator
 * (a few ms to a few hundred) then lands on all eight alike instead of on
 * the one whole run it overlapped, which made the ratios of medians vary
 * from 0.77 to 1.21 between runs when each backend ran 2000 ops in one go.
 * A whole first run, untimed, warms up: with one warm-up slice per
 * backend, the first run after a boot gave the system 4K row 11% less
 * than the median of the others in two boots of four (the kernel's page
 * allocator and pools, the slabs, the emulator's translated code still
 * warming).
 */
static void bench_create_close(void)
{
	struct backend be[CC_BACKENDS] = {
		vseg_be("vseg system 4K", ap_id, 0),
		vseg_be("vseg segment 4K", local_id, 0),
		vseg_be("vseg system 64K", ap_id, 0),
		vseg_be("vseg segment 64K", vram_id, 0),
		dumb_be("vgem 4K", vgem_fd), dumb_be("vgem 64K", vgem_fd),
		dumb_be("bochs 4K", bochs_fd), dumb_be("bochs 64K", bochs_fd),
	};
	static const uint64_t size[CC_BACKENDS] = {
		SZ_4K, SZ_4K, SZ_64K, SZ_64K, SZ_4K, SZ_64K, SZ_4K, SZ_64K,
	};
	static const char * const id[4] = {
		"create-sys-4k", "create-seg-4k", "create-sys-64k",
		"create-seg-64k",
	};
	struct bstat st[CC_BACKENDS] = {};
	unsigned int r, s, k, i, nr = runs(11);
	unsigned int n = scaled(8000), slice = n / CC_SLICES ? n / CC_SLICES : 1;
	double t[CC_BACKENDS];
	char rid[64], what[96];

	/* Run 0 warms up, untimed: see the comment above. */
	for (r = 0; r <= nr; r++) {
		memset(t, 0, sizeof(t));
		for (s = 0; s < CC_SLICES; s++)
			for (k = 0; k < CC_BACKENDS; k++) {
				i = (s + k) % CC_BACKENDS;
				t[i] += create_close_time(&be[i], size[i], slice);
			}
		for (i = 0; r && i < CC_BACKENDS; i++)
			stat_add(&st[i], CC_SLICES * slice / t[i]);
	}
	for (i = 0; i < 4; i++) {
		unsigned int a = size[i] == SZ_4K ? 4 : 5;

		snprintf(rid, sizeof(rid), "%s-vgem", id[i]);
		snprintf(what, sizeof(what), "create+close %s", be[i].name);
		row(rid, what, "ops/s", &st[i], be[a].name, &st[a], AT_LEAST, 1.0);
		snprintf(rid, sizeof(rid), "%s-bochs", id[i]);
		row(rid, what, "ops/s", &st[i], be[a + 2].name, &st[a + 2],
		    AT_LEAST, 1.0);
	}
}

/* --- 2: create latency against live buffers ------------------------------- */

#define BATCH 200

static const unsigned int levels[] = {
	1000, 2000, 5000, 10000, 20000, 50000, 100000,
};
#define NUM_LEVELS ARRAY_SIZE(levels)

/* Microseconds per create with @live buffers alive (a batch, then closed). */
static double create_latency(const struct backend *b, uint64_t size)
{
	uint32_t h[BATCH];
	unsigned int i;
	double t = now();

	for (i = 0; i < BATCH; i++)
		h[i] = be_create(b, size);
	t = now() - t;
	for (i = 0; i < BATCH; i++)
		be_close(b, h[i]);
	return t / BATCH * 1e6;
}

static void scaling_round(const struct backend *b, struct bstat *st,
			  uint32_t *live)
{
	unsigned int n = 0, l, k;

	for (l = 0; l < NUM_LEVELS; l++) {
		unsigned int want = scaled(levels[l]);

		while (n < want)
			live[n++] = be_create(b, SZ_4K);
		/* a few batches, their median is this run's figure */
		{
			struct bstat s = {};

			for (k = 0; k < 3; k++)
				stat_add(&s, create_latency(b, SZ_4K));
			stat_add(&st[l], stat_med(&s));
		}
	}
	while (n)
		be_close(b, live[--n]);
}

static void bench_scaling(void)
{
	struct backend seg = vseg_be("vseg segment 4K", local_id, 0);
	struct backend sys = vseg_be("vseg system 4K", ap_id, 0);
	struct backend vgem = dumb_be("vgem 4K", vgem_fd);
	struct bstat sseg[NUM_LEVELS] = {}, ssys[NUM_LEVELS] = {},
		    svgem[NUM_LEVELS] = {};
	unsigned int r, l, nr = runs(3);
	uint32_t *live = calloc(scaled(levels[NUM_LEVELS - 1]), sizeof(*live));
	char what[128], anchor[64];

	igt_assert(live);
	for (r = 0; r < nr; r++) {
		scaling_round(&seg, sseg, live);
		settle();
		scaling_round(&sys, ssys, live);
		settle();
		scaling_round(&vgem, svgem, live);
		settle();
	}
	for (l = 0; l < NUM_LEVELS; l++) {
		point("vseg-segment", scaled(levels[l]), &sseg[l]);
		point("vseg-system", scaled(levels[l]), &ssys[l]);
		point("vgem", scaled(levels[l]), &svgem[l]);
	}
	l = NUM_LEVELS - 1;
	snprintf(what, sizeof(what),
		 "create latency, %u live in a segment, vs %u live",
		 scaled(levels[l]), scaled(levels[0]));
	snprintf(anchor, sizeof(anchor), "vseg segment, %u live", scaled(levels[0]));
	row("scaling-seg", what, "us", &sseg[l], anchor, &sseg[0], AT_MOST, 1.5);
	snprintf(what, sizeof(what),
		 "create latency, %u live in system memory, vs %u live",
		 scaled(levels[l]), scaled(levels[0]));
	snprintf(anchor, sizeof(anchor), "vseg system, %u live", scaled(levels[0]));
	row("scaling-sys", what, "us", &ssys[l], anchor, &ssys[0], AT_MOST, 1.5);
	snprintf(what, sizeof(what), "vgem create latency, %u live, vs %u live",
		 scaled(levels[l]), scaled(levels[0]));
	snprintf(anchor, sizeof(anchor), "vgem, %u live", scaled(levels[0]));
	row("scaling-vgem", what, "us", &svgem[l], anchor, &svgem[0], REPORT, 0);
	free(live);
}

/*
 * (Re)load vseg with @opts, open it and look its segments up; returns the
 * size of "local".
 */
static uint64_t load_vseg(const char *opts)
{
	struct drm_vseg_query_segments q;
	struct drm_vseg_segment_info *segs;
	uint64_t local_size;

	if (vseg_fd >= 0)
		close(vseg_fd);
	vseg_reload(opts);
	vseg_fd = drm_open_vseg();
	segs = vseg_query_all(vseg_fd, &q);
	vram_id = vseg_segment_by_name(&q, segs, "vram");
	local_id = vseg_segment_by_name(&q, segs, "local");
	ap_id = vseg_aperture_id(&q, segs);
	local_size = segs[local_id - 1].size;
	free(segs);
	return local_size;
}

/* KiB of memory backing vseg's memory segments now. */
static uint64_t backing_kb(void)
{
	uint64_t kb = 0;
	FILE *f = fopen("/sys/module/vseg/parameters/backing_kb", "r");

	if (f) {
		if (fscanf(f, "%" SCNu64, &kb) != 1)
			kb = 0;
		fclose(f);
	}
	return kb;
}

/*
 * The same curve in a 16 GiB segment (vseg reloaded with one, then with
 * the benchmark's table again): the allocator's depth and the backing
 * store's directory grow with the segment, the cost of a create must not.
 */
static void bench_scaling_huge(void)
{
	struct bstat st[NUM_LEVELS] = {};
	unsigned int r, l, nr = runs(3);
	uint32_t *live = calloc(scaled(levels[NUM_LEVELS - 1]), sizeof(*live));
	struct backend seg;
	char what[128], anchor[64];

	igt_assert(live);
	igt_assert_eq_u64(load_vseg(HUGE_OPTS), (uint64_t)HUGE_GB << 30);
	seg = vseg_be("vseg 16 GiB segment 4K", local_id, 0);
	for (r = 0; r < nr; r++) {
		scaling_round(&seg, st, live);
		settle();
	}
	info("vseg-module-16g", "%s", HUGE_OPTS);
	info("segment-16g-backing-kb", "%" PRIu64, backing_kb());
	for (l = 0; l < NUM_LEVELS; l++)
		point("vseg-segment-16g", scaled(levels[l]), &st[l]);
	l = NUM_LEVELS - 1;
	snprintf(what, sizeof(what),
		 "create latency, %u live in a %u GiB segment, vs %u live",
		 scaled(levels[l]), HUGE_GB, scaled(levels[0]));
	snprintf(anchor, sizeof(anchor), "%u GiB segment, %u live", HUGE_GB,
		 scaled(levels[0]));
	row("scaling-seg-16g", what, "us", &st[l], anchor, &st[0], AT_MOST,
	    1.5);
	free(live);
	load_vseg(VSEG_OPTS);
}

/* --- 3: first-touch write through mmap ------------------------------------ */

/*
 * MiB/s mapping a new buffer and writing every byte (the mmap is timed too:
 * vgem's shmem helpers get the pages at mmap time).
 */
static double first_touch(const struct backend *b, uint64_t size)
{
	uint32_t h = be_create(b, size);
	double t = now();
	void *p = be_mmap(b, h, size);

	memset(p, 0x5a, size);
	t = now() - t;
	munmap(p, size);
	be_close(b, h);
	return size / t / (1 << 20);
}

static double first_touch_anon(uint64_t size)
{
	double t = now();
	void *p = mmap(NULL, size, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	igt_assert(p != MAP_FAILED);
	memset(p, 0x5a, size);
	t = now() - t;
	munmap(p, size);
	return size / t / (1 << 20);
}

static void bench_first_touch(void)
{
	struct backend be[4] = {
		vseg_be("vseg system", ap_id, 0),
		vseg_be("vseg segment", vram_id, DRM_VSEG_GEM_CREATE_CPU_VISIBLE),
		dumb_be("vgem", vgem_fd), dumb_be("bochs", bochs_fd),
	};
	struct bstat st[5] = {};
	unsigned int r, i, nr = runs(7);

	for (r = 0; r < nr; r++) {
		for (i = 0; i < 4; i++)
			stat_add(&st[i], first_touch(&be[i], SZ_BENCH));
		stat_add(&st[4], first_touch_anon(SZ_BENCH));
	}
	row("touch-sys-vgem", "first-touch write 64M, vseg system", "MiB/s",
	    &st[0], "vgem", &st[2], AT_LEAST, 1.0);
	row("touch-sys-bochs", "first-touch write 64M, vseg system", "MiB/s",
	    &st[0], "bochs", &st[3], AT_LEAST, 1.0);
	row("touch-seg-vgem", "first-touch write 64M, vseg CPU-visible segment",
	    "MiB/s", &st[1], "vgem", &st[2], AT_LEAST, 1.0);
	row("touch-seg-bochs", "first-touch write 64M, vseg CPU-visible segment",
	    "MiB/s", &st[1], "bochs", &st[3], AT_LEAST, 1.0);
	row("touch-anon", "first-touch write 64M, vseg system", "MiB/s",
	    &st[0], "anonymous memory", &st[4], REPORT, 0);
}

/* --- 4: migration --------------------------------------------------------- */

/*
 * The bytes at @p count as used: the compiler may not drop a memset or
 * memcpy as a dead store (a memset whose buffer the next memcpy
 * overwrites, once memcpy_rate() is inlined).
 */
static void keep(void *p)
{
	asm volatile("" : : "r"(p) : "memory");
}

static double memcpy_rate(void *dst, const void *src, uint64_t size)
{
	double t = now();

	memcpy(dst, src, size);
	keep(dst);
	t = now() - t;
	return size / t / (1 << 20);
}

/*
 * MiB/s copying @size bytes from @src to @dst with the kernel's
 * copy_to_user(): process_vm_readv() on our own pid pins the source
 * mapping's pages and copies each into the destination mapping, one kernel
 * copy per page of the same pages memcpy_rate() copies. It may copy less
 * than asked; the loop goes on until every byte is copied.
 *
 * It is reported, not an anchor. The issue supposed the kernel's copy is
 * the faster one under TCG; measured in the guest (-cpu max: ERMS, no
 * FSRM) copy_to_user() runs about 380 MiB/s, a byte-wise rep movsb the
 * emulator steps one byte at a time, against about 1600 for glibc's
 * memcpy; a pread() of a memfd runs the same 380. The paging engine's
 * moves use the kernel's memcpy, an unrolled 8-byte loop without FSRM,
 * which no system call reaches alone: glibc's memcpy stays the anchor,
 * the stricter of the two.
 */
static double kcopy_rate(void *dst, const void *src, uint64_t size)
{
	uint64_t done = 0;
	double t = now();

	while (done < size) {
		struct iovec local = {
			.iov_base = (char *)dst + done,
			.iov_len = size - done,
		};
		struct iovec remote = {
			.iov_base = (char *)src + done,
			.iov_len = size - done,
		};
		ssize_t ret = process_vm_readv(getpid(), &local, 1, &remote,
					       1, 0);

		igt_assert_f(ret > 0, "process_vm_readv: %zd, errno %d\n",
			     ret, errno);
		done += ret;
	}
	keep(dst);
	t = now() - t;
	return size / t / (1 << 20);
}

/* @src's bytes are in @dst: the kernel copy copied them all. */
static void check_copy(const char *dst, const char *src, uint64_t size)
{
	igt_assert(!memcmp(dst, src, size));
}

/*
 * MiB/s moving @h segment -> system -> segment (both moves counted), until
 * the paging engine is done: the moves return before their copies end,
 * and polling the buffer's dma-buf @dmabuf for writing waits for them.
 */
static double migrate(uint32_t h, int dmabuf, uint64_t size,
		      bool want_contiguous)
{
	struct pollfd p = { .fd = dmabuf, .events = POLLOUT };
	struct drm_vseg_gem_info info;
	double t;

	vseg_gem_info(vseg_fd, h, &info);
	igt_assert_eq(info.segment_id, vram_id);
	igt_assert_eq(!!(info.placement_flags & DRM_VSEG_INFO_CONTIGUOUS),
		      want_contiguous);
	t = now();
	vseg_evict(vseg_fd, &h, 1);
	vseg_make_resident(vseg_fd, &h, 1);
	igt_assert_eq(poll(&p, 1, -1), 1);
	t = now() - t;
	vseg_gem_info(vseg_fd, h, &info);
	igt_assert_eq(info.segment_id, vram_id);
	return 2.0 * size / t / (1 << 20);
}

/* A dma-buf of @h, to wait for its moves. */
static int export(uint32_t h)
{
	int fd = -1;

	igt_assert_eq(drmPrimeHandleToFD(vseg_fd, h, DRM_CLOEXEC, &fd), 0);
	return fd;
}

static void bench_migration(void)
{
	uint64_t nfill = (uint64_t)VRAM_MB * SZ_1M / SZ_64K, i;
	uint32_t *fill = calloc(nfill, sizeof(*fill));
	struct drm_vseg_gem_create c;
	uint32_t scat, contig;
	struct bstat st[4] = {};
	unsigned int r, nr = runs(7);
	char *src = malloc(SZ_BENCH), *dst = malloc(SZ_BENCH);
	int dmabuf;

	igt_assert(fill && src && dst);
	memset(src, 1, SZ_BENCH);
	memset(dst, 2, SZ_BENCH);

	/*
	 * Scattered: fill the segment with 64 KiB buffers, free every other
	 * one; the buffer then lands in the 64 KiB holes.
	 */
	for (i = 0; i < nfill; i++)
		fill[i] = vseg_gem_create_simple(vseg_fd, SZ_64K, BIT(vram_id), 0);
	for (i = 0; i < nfill; i += 2)
		vseg_gem_close(vseg_fd, fill[i]);
	vseg_create_args(&c, SZ_BENCH, BIT(vram_id) | BIT(ap_id), 0);
	vseg_create_prefer(&c, vram_id, 0);
	scat = vseg_gem_create(vseg_fd, &c);
	vseg_bo_write(vseg_fd, scat, 0, src, SZ_BENCH);
	dmabuf = export(scat);

	for (r = 0; r < nr; r++) {
		stat_add(&st[0], migrate(scat, dmabuf, SZ_BENCH, false));
		stat_add(&st[3], kcopy_rate(dst, src, SZ_BENCH));
		if (!r)
			check_copy(dst, src, SZ_BENCH);
		stat_add(&st[2], memcpy_rate(dst, src, SZ_BENCH));
	}

	/* Contiguous: an AccessedPhysically buffer in the emptied segment. */
	for (i = 1; i < nfill; i += 2)
		vseg_gem_close(vseg_fd, fill[i]);
	vseg_create_args(&c, SZ_BENCH, BIT(vram_id) | BIT(ap_id), AP_FLAG);
	vseg_create_prefer(&c, vram_id, 0);
	contig = vseg_gem_create(vseg_fd, &c);
	vseg_bo_write(vseg_fd, contig, 0, src, SZ_BENCH);
	close(dmabuf);
	dmabuf = export(contig);
	for (r = 0; r < nr; r++) {
		stat_add(&st[1], migrate(contig, dmabuf, SZ_BENCH, true));
		stat_add(&st[3], kcopy_rate(dst, src, SZ_BENCH));
		stat_add(&st[2], memcpy_rate(dst, src, SZ_BENCH));
	}
	row("migrate-scattered", "migrate 64M segment->system->segment, 64K pages",
	    "MiB/s", &st[0], "memcpy", &st[2], AT_LEAST, 0.7);
	row("migrate-contiguous", "migrate 64M segment->system->segment, contiguous",
	    "MiB/s", &st[1], "memcpy", &st[2], AT_LEAST, 0.7);
	/* The kernel's copy_to_user() of the same bytes, against memcpy. */
	row("kernel-copy", "copy_to_user 64M (process_vm_readv)", "MiB/s",
	    &st[3], "memcpy", &st[2], REPORT, 0);
	close(dmabuf);
	vseg_gem_close(vseg_fd, scat);
	vseg_gem_close(vseg_fd, contig);
	free(fill);
	free(src);
	free(dst);
}

/* --- 5: contiguous allocation under fragmentation ------------------------- */

static uint64_t rnd_state = 0x9e3779b97f4a7c15ull;

static uint32_t rnd(void)
{
	rnd_state ^= rnd_state << 13;
	rnd_state ^= rnd_state >> 7;
	rnd_state ^= rnd_state << 17;
	return (uint32_t)(rnd_state >> 11);
}

#define FRAG_AP		4

static void bench_fragmentation(void)
{
	uint64_t seg = (uint64_t)VRAM_MB * SZ_1M, used = 0, size;
	unsigned int max = seg / SZ_64K, n, i, j, r, nr = runs(3);
	uint32_t *h = calloc(max, sizeof(*h)), ap[FRAG_AP];
	struct bstat lat = {}, ok = {};
	unsigned int good = 0, tried = 0;
	struct drm_vseg_gem_create c;
	char what[128];
	int err;

	igt_assert(h);
	for (r = 0; r < nr; r++) {
		/* 90% in buffers of 64 KiB .. 1 MiB, evictable to system */
		for (n = 0, used = 0; used + SZ_1M <= seg * 9 / 10; n++) {
			size = (1 + rnd() % 16) * SZ_64K;
			vseg_create_args(&c, size, BIT(vram_id) | BIT(ap_id), 0);
			vseg_create_prefer(&c, vram_id, 0);
			h[n] = vseg_gem_create(vseg_fd, &c);
			used += size;
		}
		/* half of them freed at random */
		for (i = n - 1; i > 0; i--) {
			uint32_t t;

			j = rnd() % (i + 1);
			t = h[i];
			h[i] = h[j];
			h[j] = t;
		}
		for (i = 0; i < n / 2; i++)
			vseg_gem_close(vseg_fd, h[i]);
		/* AccessedPhysically buffers of 1/8 of the segment */
		for (i = 0; i < FRAG_AP; i++) {
			double t;

			vseg_create_args(&c, seg / 8, BIT(vram_id), AP_FLAG);
			t = now();
			err = __vseg_gem_create(vseg_fd, &c);
			t = now() - t;
			tried++;
			ap[i] = err ? 0 : c.handle;
			if (!err) {
				good++;
				stat_add(&lat, t * 1e3);
			} else {
				igt_info("AccessedPhysically buffer %u of round %u: %s\n",
					 i, r, strerror(-err));
			}
		}
		for (i = 0; i < FRAG_AP; i++)
			if (ap[i])
				vseg_gem_close(vseg_fd, ap[i]);
		for (i = n / 2; i < n; i++)
			vseg_gem_close(vseg_fd, h[i]);
		settle();
	}
	stat_add(&ok, good);
	snprintf(what, sizeof(what),
		 "contiguous 32M in a 90%%-full fragmented 256M segment (%u/%u succeeded)",
		 good, tried);
	printf("BENCH-ROW\tfragmentation\t%s\tms\t%.6g\t%.6g\t%.6g\t-\t0\t0\t0\t%u/%u\tall succeed\t%s\n",
	       what, stat_med(&lat), stat_min(&lat), stat_max(&lat), good,
	       tried, good == tried ? "yes" : "NO");
	fflush(stdout);
	free(h);
}

/* --- 6: engine ----------------------------------------------------------- */

static double engine_run(const struct vseg_cmdbuf *cb)
{
	double t = now();

	vseg_cb_exec_ok(vseg_fd, DRM_VSEG_ENGINE_COPY, cb, "benchmark job");
	t = now() - t;
	return SZ_BENCH / t / (1 << 20);
}

/*
 * The anchor of a job's round trip: what the same guest does with a DRM
 * syncobj alone, as a NOP job's round trip (vseg_cb_exec()) uses one:
 * created, signalled (by the CPU instead of a job), waited for, its
 * status read through a sync_file and destroyed. Round trips per second
 * for half a second.
 */
static double syncobj_round_trips(void)
{
	double t = now();
	unsigned int k;

	for (k = 0; now() - t < 0.5; k++) {
		uint32_t h = vseg_syncobj_create(vseg_fd, 0);

		igt_assert_eq(drmSyncobjSignal(vseg_fd, &h, 1), 0);
		igt_assert_eq(__vseg_syncobj_wait(vseg_fd, &h, 1, 1000), 0);
		igt_assert_eq(vseg_syncobj_status(vseg_fd, h), 1);
		vseg_syncobj_destroy(vseg_fd, h);
	}
	return k / (now() - t);
}

static void bench_engine(void)
{
	uint32_t a = vseg_gem_create_simple(vseg_fd, SZ_BENCH, BIT(vram_id),
					    AP_FLAG);
	uint32_t b = vseg_gem_create_simple(vseg_fd, SZ_BENCH, BIT(vram_id),
					    AP_FLAG);
	struct vseg_cmdbuf fill, copy, nop;
	struct bstat st[4] = {}, nops = {}, syncobjs = {};
	unsigned int r, nr = runs(7), k;
	char *src = malloc(SZ_BENCH), *dst = malloc(SZ_BENCH);
	double t;

	igt_assert(src && dst);
	memset(src, 1, SZ_BENCH);
	memset(dst, 2, SZ_BENCH);
	vseg_cb_init(&fill);
	vseg_cb_fill_phys(&fill, a, 0, SZ_BENCH, 0xdeadbeef);
	vseg_cb_init(&copy);
	vseg_cb_copy_phys(&copy, b, 0, a, 0, SZ_BENCH);
	vseg_cb_init(&nop);
	vseg_cb_nop(&nop);
	engine_run(&fill);
	for (r = 0; r < nr; r++) {
		stat_add(&st[0], engine_run(&fill));
		t = now();
		memset(dst, r, SZ_BENCH);
		keep(dst);
		stat_add(&st[1], SZ_BENCH / (now() - t) / (1 << 20));
		stat_add(&st[2], engine_run(&copy));
		stat_add(&st[3], memcpy_rate(dst, src, SZ_BENCH));
		t = now();
		for (k = 0; now() - t < 0.5; k++)
			vseg_cb_exec_ok(vseg_fd, DRM_VSEG_ENGINE_COPY, &nop, "nop");
		stat_add(&nops, k / (now() - t));
		stat_add(&syncobjs, syncobj_round_trips());
	}
	row("engine-fill", "engine physical FILL 64M (submit to signal)", "MiB/s",
	    &st[0], "memset", &st[1], AT_LEAST, 0.8);
	row("engine-copy", "engine physical COPY 64M (submit to signal)", "MiB/s",
	    &st[2], "memcpy", &st[3], AT_LEAST, 0.8);
	row("syncobj", "syncobj create/signal/wait/status/destroy round trips",
	    "1/s", &syncobjs, NULL, NULL, REPORT, 0);
	row("engine-nop", "engine NOP submit-to-signal round trips", "1/s",
	    &nops, "syncobj round trips", &syncobjs, AT_LEAST, 0.5);
	vseg_cb_fini(&fill);
	vseg_cb_fini(&copy);
	vseg_cb_fini(&nop);
	vseg_gem_close(vseg_fd, a);
	vseg_gem_close(vseg_fd, b);
	free(src);
	free(dst);
}

/* --- 7: a segment on a PCI BAR --------------------------------------------- */

/*
 * The sysfs directory of the first ivshmem-plain device, or NULL: the
 * guest of make bench has one.
 */
static char *ivshmem_dir(void)
{
	static char path[256];
	unsigned int ven, dev;
	struct dirent *d;
	char file[300];
	DIR *dir = opendir("/sys/bus/pci/devices");
	FILE *f;
	bool found = false;

	if (!dir)
		return NULL;
	while (!found && (d = readdir(dir))) {
		if (d->d_name[0] == '.')
			continue;
		snprintf(file, sizeof(file), "/sys/bus/pci/devices/%s/vendor",
			 d->d_name);
		f = fopen(file, "r");
		if (!f)
			continue;
		ven = 0;
		if (fscanf(f, "%x", &ven) != 1)
			ven = 0;
		fclose(f);
		snprintf(file, sizeof(file), "/sys/bus/pci/devices/%s/device",
			 d->d_name);
		f = fopen(file, "r");
		if (!f)
			continue;
		dev = 0;
		if (fscanf(f, "%x", &dev) != 1)
			dev = 0;
		fclose(f);
		if (ven == 0x1af4 && dev == 0x1110 &&
		    strlen(d->d_name) < sizeof(path) - 32) {
			snprintf(path, sizeof(path), "/sys/bus/pci/devices/%s",
				 d->d_name);
			found = true;
		}
	}
	closedir(dir);
	return found ? path : NULL;
}

/* Bus address of BAR @bar of the device at @dir (sysfs "resource"). */
static uint64_t bar_start(const char *dir, unsigned int bar)
{
	unsigned long long start = 0, end, flags;
	char file[300];
	unsigned int i;
	FILE *f;

	snprintf(file, sizeof(file), "%s/resource", dir);
	f = fopen(file, "r");
	igt_assert(f);
	for (i = 0; i <= bar; i++)
		igt_assert_eq(fscanf(f, "%llx %llx %llx", &start, &end, &flags), 3);
	fclose(f);
	return start;
}

/*
 * MiB/s of a copy of @size bytes out of a bochs dumb buffer's mapping and
 * back into it: the CPU doing through bochs's BAR what a move of a vseg
 * buffer on the BAR does through the paging engine.
 */
static double bochs_roundtrip(const struct backend *b, void *tmp,
			      uint64_t size)
{
	uint32_t h = be_create(b, size);
	void *p = be_mmap(b, h, size);
	double t;

	memset(p, 0x3c, size);
	t = now();
	memcpy(tmp, p, size);
	keep(tmp);
	memcpy(p, tmp, size);
	keep(p);
	t = now() - t;
	munmap(p, size);
	be_close(b, h);
	return 2.0 * size / t / (1 << 20);
}

/*
 * vseg bound to the ivshmem-plain device, its "vram" segment the BAR:
 * first-touch writes through the BAR mapping, and moves of a buffer on
 * the BAR to system memory and back, against bochs's dumb buffers, which
 * live in its VRAM BAR.
 */
static void bench_bar(void)
{
	struct backend seg, bochs = dumb_be("bochs", bochs_fd);
	struct drm_vseg_query_segments q;
	struct drm_vseg_segment_info *segs;
	struct bstat st[4] = {};
	unsigned int r, nr = runs(7);
	struct drm_vseg_gem_create c;
	char *src = malloc(SZ_BENCH), *tmp = malloc(SZ_BENCH);
	const char *dir = ivshmem_dir();
	uint64_t bar;
	uint32_t h;
	int dmabuf;

	igt_require_f(dir, "no ivshmem-plain device (" IVSHMEM_ID ")\n");
	igt_assert(src && tmp);
	load_vseg(BAR_OPTS);
	seg = vseg_be("vseg BAR segment", vram_id,
		      DRM_VSEG_GEM_CREATE_CPU_VISIBLE);
	segs = vseg_query_all(vseg_fd, &q);
	bar = bar_start(dir, 2);
	info("vseg-module-bar", "%s", BAR_OPTS);
	info("bar-vram", "segment %u at bus address 0x%" PRIx64 ", %" PRIu64
	     " MiB visible", vram_id,
	     (uint64_t)segs[vram_id - 1].cpu_translated_address,
	     (uint64_t)segs[vram_id - 1].cpu_visible_size >> 20);
	/* the segment is the BAR, wholly */
	igt_assert_eq_u64(segs[vram_id - 1].cpu_translated_address, bar);
	igt_assert_eq_u64(segs[vram_id - 1].cpu_visible_size,
			  segs[vram_id - 1].size);
	free(segs);

	for (r = 0; r < nr; r++) {
		stat_add(&st[0], first_touch(&seg, SZ_BENCH));
		stat_add(&st[1], first_touch(&bochs, SZ_BENCH));
	}

	memset(src, 1, SZ_BENCH);
	vseg_create_args(&c, SZ_BENCH, BIT(vram_id) | BIT(ap_id), AP_FLAG);
	vseg_create_prefer(&c, vram_id, 0);
	h = vseg_gem_create(vseg_fd, &c);
	vseg_bo_write(vseg_fd, h, 0, src, SZ_BENCH);
	dmabuf = export(h);
	for (r = 0; r < nr; r++) {
		stat_add(&st[2], migrate(h, dmabuf, SZ_BENCH, true));
		stat_add(&st[3], bochs_roundtrip(&bochs, tmp, SZ_BENCH));
	}
	close(dmabuf);
	vseg_gem_close(vseg_fd, h);

	row("touch-bar-bochs", "first-touch write 64M, vseg segment on a PCI BAR",
	    "MiB/s", &st[0], "bochs (VRAM BAR)", &st[1], AT_LEAST, 1.0);
	row("migrate-bar-bochs",
	    "migrate 64M BAR segment -> system -> BAR segment", "MiB/s",
	    &st[2], "bochs BAR -> memory -> BAR by CPU", &st[3], AT_LEAST, 1.0);
	free(src);
	free(tmp);
	load_vseg(VSEG_OPTS);
}

/* --- 8: kernel memory per buffer ------------------------------------------- */

/* Slab bytes per live buffer over @n buffers of 4 KiB. */
static double slab_per_buffer(const struct backend *b, uint32_t *h,
			      unsigned int n)
{
	uint64_t before, after;
	unsigned int i;

	settle();
	before = slab_bytes();
	for (i = 0; i < n; i++)
		h[i] = be_create(b, SZ_4K);
	after = slab_bytes();
	for (i = 0; i < n; i++)
		be_close(b, h[i]);
	return ((double)after - (double)before) / n;
}

static void bench_slab(void)
{
	struct backend sys = vseg_be("vseg system", ap_id, 0);
	struct backend seg = vseg_be("vseg segment", local_id, 0);
	struct backend vgem = dumb_be("vgem", vgem_fd);
	unsigned int n = scaled(100000), r, nr = runs(3);
	uint32_t *h = calloc(n, sizeof(*h));
	struct bstat st[3] = {};

	igt_assert(h);
	for (r = 0; r < nr; r++) {
		stat_add(&st[0], slab_per_buffer(&sys, h, n));
		stat_add(&st[1], slab_per_buffer(&seg, h, n));
		stat_add(&st[2], slab_per_buffer(&vgem, h, n));
	}
	row("slab-sys", "slab per live 4K buffer (100k), vseg system", "bytes",
	    &st[0], "vgem", &st[2], AT_MOST, 1.0);
	row("slab-seg", "slab per live 4K buffer (100k), vseg segment", "bytes",
	    &st[1], "vgem", &st[2], AT_MOST, 1.0);
	free(h);
}

/* ------------------------------------------------------------------------ */

/*
 * Overcommit (issue 25's benchmark): one memory segment of OC_SEG_MB, a
 * foreground process with about 60% of it (HIGH residency priority, a
 * reservation of its set, so within its budget) and three background
 * processes with about 40% each, every process submitting jobs whose
 * allocation list names its whole working set (one FILL of a page per
 * buffer on the copy engine: residency, not copy speed, is measured;
 * the background processes pause between jobs, OC_BG_PAUSE_US).
 * The figures, each against the foreground alone: its job rate with the
 * budget policy, the same with budget_policy off (plain TTM least
 * recently used eviction, the anchor), the paging engine's bytes per
 * foreground job, and the jobs each background process got done.
 */
#define OC_SEG_MB	32
#define OC_OPTS		"table=memory:name=vram,size=32M,flags=cpuvisible|" \
			"applicationtarget|localbudget,cpu=0xe0000000," \
			"visible=32M;aperture:name=aperture,size=256M," \
			"flags=nonlocalbudget"
#define OC_FG		19	/* 1 MiB buffers: 60% */
#define OC_BG		13	/* 40% each */
#define OC_NBG		3
#define OC_SECONDS	4.0
/*
 * A background process renders too, but not flat out: a job, then a
 * pause. Flat out, three of them take the one copy engine (and, under
 * TCG, the CPUs the paging copies run on) from the foreground whatever
 * stays resident; the residency policy is what is measured here.
 */
#define OC_BG_PAUSE_US	20000
#define OC_POLICY	"/sys/module/vseg/parameters/budget_policy"

struct oc_shared {
	volatile int stop;
	volatile uint64_t jobs[OC_NBG];
};

static void oc_set(int fd, uint32_t *h, unsigned int n, uint32_t prio,
		   struct vseg_cmdbuf *cb)
{
	struct drm_vseg_set_priority a = { .priority = prio };

	vseg_cb_init(cb);
	for (unsigned int i = 0; i < n; i++) {
		h[i] = vseg_gem_create_simple(fd, SZ_1M, BIT(vram_id), AP_FLAG);
		a.handle = h[i];
		igt_assert_eq(__vseg_ioctl(fd, DRM_IOCTL_VSEG_SET_PRIORITY,
					   &a), 0);
		vseg_cb_fill_phys(cb, h[i], 0, 4096, i);
	}
}

/* Jobs per second over @secs, and the paging bytes meanwhile. */
static double oc_run(int fd, const struct vseg_cmdbuf *cb, double secs,
		     uint64_t *jobs, uint64_t *paged)
{
	struct vseg_paging p0, p1;
	double t = now(), dt;
	uint64_t k = 0;

	vseg_debugfs_read_paging(fd, &p0);
	do {
		vseg_cb_exec_ok(fd, DRM_VSEG_ENGINE_COPY, cb, "foreground");
		k++;
	} while ((dt = now() - t) < secs);
	vseg_debugfs_read_paging(fd, &p1);
	*jobs = k;
	*paged = p1.engine.bytes - p0.engine.bytes;
	return k / dt;
}

static void oc_policy(bool on)
{
	int fd = open(OC_POLICY, O_WRONLY);

	igt_assert_f(fd >= 0, "no %s\n", OC_POLICY);
	igt_assert_eq(write(fd, on ? "Y" : "N", 1), 1);
	close(fd);
}

/* How many of the foreground's buffers are in the segment now. */
static unsigned int oc_resident(int fd, const uint32_t *h)
{
	unsigned int n = 0;

	for (unsigned int i = 0; i < OC_FG; i++)
		n += vseg_gem_segment(fd, h[i]) == vram_id;
	return n;
}

/*
 * With the background running: foreground rate, paging, background jobs,
 * and the fewest of the foreground's buffers found in the segment between
 * its jobs.
 */
static double oc_contended(int fd, const struct vseg_cmdbuf *cb,
			   const uint32_t *h, struct oc_shared *sh,
			   uint64_t *paged, uint64_t *bg_min,
			   unsigned int *fg_min)
{
	uint64_t jobs, before[OC_NBG];
	double rate;

	sh->stop = 0;
	for (unsigned int b = 0; b < OC_NBG; b++)
		sh->jobs[b] = 0;
	igt_fork(child, OC_NBG) {
		int cfd = drm_open_vseg_render();
		struct vseg_cmdbuf bcb;
		uint32_t bh[OC_BG];

		oc_set(cfd, bh, OC_BG, DRM_VSEG_PRIORITY_NORMAL, &bcb);
		while (!sh->stop) {
			if (!vseg_cb_exec(cfd, DRM_VSEG_ENGINE_COPY, &bcb))
				sh->jobs[child]++;
			usleep(OC_BG_PAUSE_US);
		}
		vseg_cb_fini(&bcb);
		close(cfd);
	}
	/* Until every background process has its set resident once. */
	for (unsigned int b = 0; b < OC_NBG; b++)
		while (!sh->jobs[b])
			usleep(10000);
	for (unsigned int b = 0; b < OC_NBG; b++)
		before[b] = sh->jobs[b];
	rate = oc_run(fd, cb, OC_SECONDS, &jobs, paged);
	*paged /= jobs;
	*fg_min = OC_FG;
	for (unsigned int k = 0; k < 20; k++) {
		unsigned int n = oc_resident(fd, h);

		if (n < *fg_min)
			*fg_min = n;
		usleep(OC_BG_PAUSE_US / 2);
	}
	*bg_min = UINT64_MAX;
	for (unsigned int b = 0; b < OC_NBG; b++)
		if (sh->jobs[b] - before[b] < *bg_min)
			*bg_min = sh->jobs[b] - before[b];
	sh->stop = 1;
	igt_waitchildren();
	return rate;
}

static void bench_overcommit(void)
{
	struct oc_shared *sh = mmap(NULL, sizeof(*sh), PROT_READ | PROT_WRITE,
				    MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	struct bstat alone = {}, on = {}, off = {}, pon = {}, poff = {},
		     bgon = {}, bgoff = {}, fgon = {}, fgoff = {};
	struct drm_vseg_set_reservation r = {
		.group = DRM_VSEG_BUDGET_GROUP_LOCAL,
		.reservation = OC_FG * SZ_1M,
	};
	unsigned int nr = runs(3);
	struct drm_vseg_query_segments q;
	struct drm_vseg_segment_info *segs;
	struct vseg_cmdbuf cb;
	uint32_t h[OC_FG];
	uint64_t jobs, paged, bg;
	unsigned int fg;

	igt_assert(sh != MAP_FAILED);
	if (vseg_fd >= 0)
		close(vseg_fd);
	vseg_reload(OC_OPTS);
	vseg_fd = drm_open_vseg();
	segs = vseg_query_all(vseg_fd, &q);
	vram_id = vseg_segment_by_name(&q, segs, "vram");
	free(segs);
	info("overcommit-module", "%s", OC_OPTS);

	oc_set(vseg_fd, h, OC_FG, DRM_VSEG_PRIORITY_HIGH, &cb);
	igt_assert_eq(__vseg_ioctl(vseg_fd, DRM_IOCTL_VSEG_SET_RESERVATION,
				   &r), 0);
	oc_run(vseg_fd, &cb, 1.0, &jobs, &paged);	/* warm up */
	for (unsigned int i = 0; i < nr; i++) {
		stat_add(&alone, oc_run(vseg_fd, &cb, OC_SECONDS, &jobs,
					&paged));
		stat_add(&on, oc_contended(vseg_fd, &cb, h, sh, &paged, &bg,
					   &fg));
		stat_add(&pon, paged);
		stat_add(&bgon, bg);
		stat_add(&fgon, fg);
		oc_policy(false);
		stat_add(&off, oc_contended(vseg_fd, &cb, h, sh, &paged, &bg,
					    &fg));
		oc_policy(true);
		stat_add(&poff, paged);
		stat_add(&bgoff, bg);
		stat_add(&fgoff, fg);
	}
	row("overcommit-policy", "foreground jobs/s under overcommit, budget "
	    "policy on", "1/s", &on, "foreground alone", &alone, AT_LEAST, 0.9);
	row("overcommit-vs-lru", "foreground jobs/s, policy on vs off (plain "
	    "TTM LRU)", "1/s", &on, "policy off", &off, AT_LEAST, 3.0);
	row("overcommit-paged", "paging bytes per foreground job, policy on",
	    "B", &pon, "policy off", &poff, REPORT, 0);
	row("overcommit-background", "jobs of the slowest background process "
	    "in the window, policy on", "jobs", &bgon, "policy off", &bgoff,
	    REPORT, 0);
	row("overcommit-fg-resident", "fewest foreground buffers (of 19) "
	    "found in the segment while the background runs, policy on",
	    "buffers", &fgon, "policy off", &fgoff, REPORT, 0);
	igt_assert_f(stat_min(&bgon) > 0 && stat_min(&bgoff) > 0,
		     "a background process made no progress\n");
	vseg_cb_fini(&cb);
	for (unsigned int i = 0; i < OC_FG; i++)
		vseg_gem_close(vseg_fd, h[i]);
	munmap(sh, sizeof(*sh));
	load_vseg(VSEG_OPTS);
}

igt_main
{
	igt_fixture {
		vseg_require_module();
		load_vseg(VSEG_OPTS);
		vgem_fd = open_card("vgem");
		bochs_fd = open_card("bochs-drm");
		igt_require_f(vgem_fd >= 0, "no vgem card (modprobe vgem)\n");
		igt_require_f(bochs_fd >= 0,
			      "no bochs card (modprobe bochs, -device bochs-display)\n");
		info("vseg-module", "%s", VSEG_OPTS);
	}

	igt_describe("Create + close throughput, 4K and 64K, system and segment.");
	igt_subtest("create-close")
		bench_create_close();
	igt_describe("Create latency with 1k .. 100k live buffers.");
	igt_subtest("scaling")
		bench_scaling();
	igt_describe("Create latency with 1k .. 100k live buffers in a 16 GiB segment.");
	igt_subtest("scaling-16g")
		bench_scaling_huge();
	igt_describe("First-touch write through mmap of a 64M buffer.");
	igt_subtest("first-touch")
		bench_first_touch();
	igt_describe("Migrating a 64M buffer segment -> system -> segment.");
	igt_subtest("migration")
		bench_migration();
	igt_describe("Contiguous allocation in a fragmented, 90%-full segment.");
	igt_subtest("fragmentation")
		bench_fragmentation();
	igt_describe("Engine FILL/COPY of 64M and NOP round trips.");
	igt_subtest("engine")
		bench_engine();
	igt_describe("First touch and migration on a segment on a PCI BAR.");
	igt_subtest("bar")
		bench_bar();
	igt_describe("Slab growth per live buffer over 100k buffers.");
	igt_subtest("slab")
		bench_slab();

	igt_subtest("overcommit")
		bench_overcommit();

	igt_fixture {
		if (vgem_fd >= 0)
			close(vgem_fd);
		if (bochs_fd >= 0)
			close(bochs_fd);
		if (vseg_fd >= 0)
			close(vseg_fd);
		vseg_unload();
	}
}
