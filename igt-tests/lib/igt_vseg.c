// SPDX-License-Identifier: MIT
/*
 * Helpers for the vseg tests.
 *
 * Copyright (c) 2026 The vseg authors
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>

#include "igt.h"
#include "igt_vseg.h"

/* --- device nodes ------------------------------------------------------ */

static bool node_is_vseg(const char *path, int *fdp)
{
	char name[64];
	int fd;

	fd = open(path, O_RDWR | O_CLOEXEC);
	if (fd < 0)
		return false;
	if (__get_drm_device_name(fd, name, sizeof(name)) ||
	    strcmp(name, VSEG_DRIVER)) {
		close(fd);
		return false;
	}
	if (fdp)
		*fdp = fd;
	else
		close(fd);
	return true;
}

static int open_vseg_node(const char *prefix)
{
	size_t len = strlen(prefix);
	int best = INT_MAX, fd = -ENODEV;
	char path[PATH_MAX];
	struct dirent *de;
	DIR *dir;

	dir = opendir("/dev/dri");
	if (!dir)
		return -ENODEV;
	/* The lowest-numbered matching node. */
	while ((de = readdir(dir))) {
		char *end;
		long n;

		if (strncmp(de->d_name, prefix, len) || !de->d_name[len])
			continue;
		n = strtol(de->d_name + len, &end, 10);
		if (*end || n < 0 || n >= best)
			continue;
		snprintf(path, sizeof(path), "/dev/dri/%s", de->d_name);
		if (!node_is_vseg(path, NULL))
			continue;
		best = (int)n;
	}
	closedir(dir);

	if (best != INT_MAX) {
		snprintf(path, sizeof(path), "/dev/dri/%s%d", prefix, best);
		if (!node_is_vseg(path, &fd))
			fd = -ENODEV;
	}
	return fd;
}

int __drm_open_vseg(void)
{
	return open_vseg_node("card");
}

int __drm_open_vseg_render(void)
{
	return open_vseg_node("renderD");
}

int drm_open_vseg(void)
{
	int fd = __drm_open_vseg();

	igt_require_f(fd >= 0, "no vseg DRM card node in /dev/dri\n");
	return fd;
}

int drm_open_vseg_render(void)
{
	int fd = __drm_open_vseg_render();

	igt_require_f(fd >= 0, "no vseg DRM render node in /dev/dri\n");
	return fd;
}

bool is_vseg_device(int fd)
{
	char name[64];

	return !__get_drm_device_name(fd, name, sizeof(name)) &&
	       !strcmp(name, VSEG_DRIVER);
}

void igt_require_vseg(int fd)
{
	igt_require(is_vseg_device(fd));
}

int vseg_count_nodes(void)
{
	char path[PATH_MAX];
	struct dirent *de;
	int count = 0;
	DIR *dir;

	dir = opendir("/dev/dri");
	if (!dir)
		return 0;
	while ((de = readdir(dir))) {
		if (strncmp(de->d_name, "card", 4) &&
		    strncmp(de->d_name, "renderD", 7))
			continue;
		snprintf(path, sizeof(path), "/dev/dri/%s", de->d_name);
		count += node_is_vseg(path, NULL);
	}
	closedir(dir);
	return count;
}

int vseg_count_dri_entries(void)
{
	struct dirent *de;
	int count = 0;
	DIR *dir;

	dir = opendir("/dev/dri");
	if (!dir)
		return 0;
	while ((de = readdir(dir)))
		count += strcmp(de->d_name, ".") && strcmp(de->d_name, "..");
	closedir(dir);
	return count;
}

/* --- module ------------------------------------------------------------ */

void vseg_require_root(void)
{
	igt_require_f(geteuid() == 0,
		      "loading and unloading the vseg module needs root\n");
}

long vseg_vmalloc_used_kb(void)
{
	char line[256];
	long kb = -1;
	FILE *f;

	f = fopen("/proc/meminfo", "r");
	igt_assert(f);
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "VmallocUsed: %ld kB", &kb) == 1)
			break;
	fclose(f);
	igt_assert_f(kb >= 0, "no VmallocUsed in /proc/meminfo\n");
	return kb;
}

static bool found_module_file;

static int find_module_cb(const char *path, const struct stat *st, int type,
			  struct FTW *ftw)
{
	const char *base = path + ftw->base;

	(void)st;
	if (type == FTW_F && !strncmp(base, VSEG_MODULE ".ko", 7) &&
	    (!base[7] || base[7] == '.')) {
		found_module_file = true;
		return 1;
	}
	return 0;
}

bool vseg_module_available(void)
{
	const char *env = getenv("IGT_KMOD_PATH");
	char path[PATH_MAX];
	struct utsname uts;

	if (igt_kmod_is_loaded(VSEG_MODULE))
		return true;
	if (env && *env) {
		char *copy = strdup(env), *save = NULL;
		bool found = false;

		igt_assert(copy);
		for (char *dir = strtok_r(copy, ":", &save); dir && !found;
		     dir = strtok_r(NULL, ":", &save)) {
			snprintf(path, sizeof(path), "%s/%s.ko", dir,
				 VSEG_MODULE);
			found = access(path, R_OK) == 0;
		}
		free(copy);
		if (found)
			return true;
	}
	if (uname(&uts))
		return false;
	snprintf(path, sizeof(path), "/lib/modules/%s", uts.release);
	found_module_file = false;
	nftw(path, find_module_cb, 16, FTW_PHYS);
	return found_module_file;
}

void vseg_require_module(void)
{
	vseg_require_root();
	igt_require_f(vseg_module_available(),
		      "no vseg module: not in IGT_KMOD_PATH (%s) nor in /lib/modules\n",
		      getenv("IGT_KMOD_PATH") ?: "unset");
}

void vseg_unload(void)
{
	int err;

	if (igt_kmod_is_loaded(VSEG_MODULE)) {
		err = igt_kmod_unload(VSEG_MODULE);
		igt_assert_f(err == 0, "unloading vseg failed: %d (%s)\n", err,
			     strerror(-err));
	}
	igt_assert_f(!igt_kmod_is_loaded(VSEG_MODULE),
		     "vseg is still loaded after unload\n");
}

void vseg_reload(const char *opts)
{
	int err;

	vseg_unload();
	err = igt_kmod_load(VSEG_MODULE, opts);
	igt_assert_f(err == 0, "loading vseg with \"%s\" failed: %d (%s)\n",
		     opts ? opts : "", err, strerror(-err));
	igt_assert(igt_kmod_is_loaded(VSEG_MODULE));
}

/* --- segment query ----------------------------------------------------- */

int __vseg_query_segments(int fd, struct drm_vseg_query_segments *q)
{
	int err = 0;

	if (igt_ioctl(fd, DRM_IOCTL_VSEG_QUERY_SEGMENTS, q))
		err = -errno;
	errno = 0;
	return err;
}

void vseg_query_count(int fd, struct drm_vseg_query_segments *q)
{
	int err;

	memset(q, 0, sizeof(*q));
	err = __vseg_query_segments(fd, q);
	igt_assert_f(err == 0, "segment count query failed: %d (%s)\n", err,
		     strerror(-err));
	igt_assert_eq_u32(q->segment_size,
			  sizeof(struct drm_vseg_segment_info));
	igt_assert_f(q->num_segments >= 1 &&
		     q->num_segments <= DRM_VSEG_MAX_SEGMENTS,
		     "segment count %u is not in 1..%u\n", q->num_segments,
		     DRM_VSEG_MAX_SEGMENTS);
}

struct drm_vseg_segment_info *vseg_query_all(int fd,
					     struct drm_vseg_query_segments *q)
{
	struct drm_vseg_segment_info *segs;
	uint32_t n;
	int err;

	vseg_query_count(fd, q);
	n = q->num_segments;
	segs = calloc(n, sizeof(*segs));
	igt_assert(segs);

	memset(q, 0, sizeof(*q));
	q->num_segments = n;
	q->segment_size = sizeof(*segs);
	q->segments = (uintptr_t)segs;
	err = __vseg_query_segments(fd, q);
	igt_assert_f(err == 0, "segment table query failed: %d (%s)\n", err,
		     strerror(-err));
	igt_assert_eq_u32(q->num_segments, n);
	igt_assert_eq_u32(q->segment_size, sizeof(*segs));
	return segs;
}

/* --- expected tables --------------------------------------------------- */

const char * const vseg_profiles[] = {
	"discrete", "integrated", "smallbar", "multi",
};
const unsigned int vseg_num_profiles =
	sizeof(vseg_profiles) / sizeof(vseg_profiles[0]);

struct drm_vseg_segment_info *
vseg_table_add(struct vseg_table *t, uint32_t kind, const char *name,
	       uint64_t flags, uint64_t base, uint64_t cpu, uint64_t size,
	       uint64_t visible, uint64_t commit, uint64_t sysend,
	       uint32_t page)
{
	struct drm_vseg_segment_info *s = &t->seg[t->num_segments];

	memset(s, 0, sizeof(*s));
	s->id = ++t->num_segments;
	s->kind = kind;
	snprintf(s->name, sizeof(s->name), "%s", name);
	s->flags = flags;
	s->base_address = base;
	s->cpu_translated_address = cpu;
	s->size = size;
	s->cpu_visible_size = visible;
	s->commit_limit = commit;
	s->system_memory_end_address = sysend;
	s->page_size = page;
	return s;
}

#define MEMORY DRM_VSEG_SEGMENT_KIND_MEMORY
#define APERTURE DRM_VSEG_SEGMENT_KIND_APERTURE
#define F(x) DRM_VSEG_SEGMENT_##x

void vseg_profile_table(const char *profile, struct vseg_table *t)
{
	struct drm_vseg_segment_info *s;

	memset(t, 0, sizeof(*t));
	t->paging_size = VSEG_PAGING_SIZE;
	t->paging_private = 0;

	if (!strcmp(profile, "discrete")) {
		s = vseg_table_add(t, MEMORY, "vram",
				   F(CPU_VISIBLE) | F(USE_BANKING) |
				   F(USE_64KB_PAGES),
				   0, 0xe0000000, SZ_32M, SZ_32M, SZ_32M, 0,
				   SZ_64K);
		s->num_banks = 2;
		s->bank_end[0] = SZ_16M;
		s->bank_end[1] = SZ_32M;
		vseg_table_add(t, MEMORY, "local", 0, SZ_32M, 0, SZ_16M, 0,
			       SZ_16M, 0, SZ_4K);
		vseg_table_add(t, APERTURE, "aperture",
			       F(APERTURE) | F(CACHE_COHERENT),
			       VSEG_APERTURE_BASE, 0, SZ_64M, 0, SZ_32M, 0,
			       SZ_4K);
		t->paging_segment_id = 3;
	} else if (!strcmp(profile, "integrated")) {
		vseg_table_add(t, MEMORY, "stolen",
			       F(CPU_VISIBLE) | F(POPULATED_FROM_SYSTEM_MEMORY),
			       0, 0xc0000000, SZ_32M, SZ_32M, SZ_32M, SZ_32M,
			       SZ_4K);
		vseg_table_add(t, APERTURE, "aperture",
			       F(APERTURE) | F(CACHE_COHERENT),
			       VSEG_APERTURE_BASE, 0, SZ_64M, 0, SZ_64M, 0,
			       SZ_4K);
		t->paging_segment_id = 2;
	} else if (!strcmp(profile, "smallbar")) {
		vseg_table_add(t, MEMORY, "vram",
			       F(CPU_VISIBLE) | F(USE_64KB_PAGES),
			       0, 0xe0000000, SZ_64M, SZ_16M, SZ_64M, 0,
			       SZ_64K);
		vseg_table_add(t, APERTURE, "aperture",
			       F(APERTURE) | F(CACHE_COHERENT),
			       VSEG_APERTURE_BASE, 0, SZ_64M, 0, SZ_32M, 0,
			       SZ_4K);
		t->paging_segment_id = 2;
	} else if (!strcmp(profile, "multi")) {
		for (unsigned int i = 1; i <= 6; i++) {
			char name[8];
			bool even = !(i & 1);

			snprintf(name, sizeof(name), "mem%u", i);
			vseg_table_add(t, MEMORY, name,
				       (even ? F(USE_64KB_PAGES) : 0) |
				       (i == 1 ? F(CPU_VISIBLE) : 0),
				       (i - 1) * SZ_8M, i == 1 ? 0xe0000000 : 0,
				       SZ_8M, i == 1 ? SZ_8M : 0, SZ_8M, 0,
				       even ? SZ_64K : SZ_4K);
		}
		vseg_table_add(t, APERTURE, "aperture",
			       F(APERTURE) | F(CACHE_COHERENT),
			       VSEG_APERTURE_BASE, 0, SZ_32M, 0, SZ_32M, 0,
			       SZ_4K);
		t->paging_segment_id = 7;
	} else {
		igt_assert_f(false, "unknown profile \"%s\"\n", profile);
	}
}

void vseg_table_from_query(struct vseg_table *t,
			   const struct drm_vseg_query_segments *q,
			   const struct drm_vseg_segment_info *segs)
{
	memset(t, 0, sizeof(*t));
	igt_assert(q->num_segments <= DRM_VSEG_MAX_SEGMENTS);
	t->num_segments = q->num_segments;
	t->paging_segment_id = q->paging_buffer_segment_id;
	t->paging_size = q->paging_buffer_size;
	t->paging_private = q->paging_buffer_private_data_size;
	memcpy(t->seg, segs, q->num_segments * sizeof(*segs));
}

#define CHECK_FIELD(got, want, field) \
	igt_assert_f((got)->field == (want)->field, \
		     "segment %u \"%s\": " #field " is %#llx, expected %#llx\n", \
		     (want)->id, (want)->name, \
		     (unsigned long long)(got)->field, \
		     (unsigned long long)(want)->field)

void vseg_check_table(const struct vseg_table *want,
		      const struct drm_vseg_query_segments *q,
		      const struct drm_vseg_segment_info *segs)
{
	igt_assert_f(q->num_segments == want->num_segments,
		     "%u segments, expected %u\n", q->num_segments,
		     want->num_segments);
	igt_assert_f(q->paging_buffer_segment_id == want->paging_segment_id,
		     "paging buffer segment %u, expected %u\n",
		     q->paging_buffer_segment_id, want->paging_segment_id);
	igt_assert_f(q->paging_buffer_size == want->paging_size,
		     "paging buffer size %#x, expected %#x\n",
		     q->paging_buffer_size, want->paging_size);
	igt_assert_f(q->paging_buffer_private_data_size == want->paging_private,
		     "paging buffer private data size %#x, expected %#x\n",
		     q->paging_buffer_private_data_size, want->paging_private);

	for (unsigned int i = 0; i < want->num_segments; i++) {
		const struct drm_vseg_segment_info *got = &segs[i];
		const struct drm_vseg_segment_info *exp = &want->seg[i];

		igt_assert_f(memchr(got->name, 0, sizeof(got->name)) &&
			     !strcmp(got->name, exp->name),
			     "segment %u: name \"%.16s\", expected \"%s\"\n",
			     exp->id, got->name, exp->name);
		CHECK_FIELD(got, exp, id);
		CHECK_FIELD(got, exp, kind);
		CHECK_FIELD(got, exp, flags);
		CHECK_FIELD(got, exp, base_address);
		CHECK_FIELD(got, exp, cpu_translated_address);
		CHECK_FIELD(got, exp, size);
		CHECK_FIELD(got, exp, cpu_visible_size);
		CHECK_FIELD(got, exp, commit_limit);
		CHECK_FIELD(got, exp, system_memory_end_address);
		CHECK_FIELD(got, exp, page_size);
		CHECK_FIELD(got, exp, num_banks);
		for (unsigned int b = 0; b < DRM_VSEG_MAX_BANKS; b++)
			CHECK_FIELD(got, exp, bank_end[b]);
		CHECK_FIELD(got, exp, num_invalid_ranges);
		for (unsigned int r = 0; r < DRM_VSEG_MAX_INVALID_RANGES; r++) {
			CHECK_FIELD(got, exp, invalid_ranges[r].start);
			CHECK_FIELD(got, exp, invalid_ranges[r].size);
		}
		CHECK_FIELD(got, exp, pad);
		for (unsigned int r = 0; r < 4; r++)
			CHECK_FIELD(got, exp, reserved[r]);
	}
}

static bool ranges_overlap(uint64_t a, uint64_t alen, uint64_t b,
			   uint64_t blen)
{
	if (!alen || !blen)
		return false;
	return a >= b ? a - b < blen : b - a < alen;
}

void vseg_check_table_rules(const struct drm_vseg_query_segments *q,
			    const struct drm_vseg_segment_info *segs)
{
	unsigned int n = q->num_segments, nap = 0, nmem = 0, ap_id = 0;

	igt_assert_f(n >= 1 && n <= DRM_VSEG_MAX_SEGMENTS,
		     "%u segments\n", n);
	igt_assert_eq_u32(q->segment_size, sizeof(*segs));
	igt_assert_eq_u64(q->extensions, 0);
	igt_assert_eq_u32(q->flags, 0);
	igt_assert_eq_u32(q->pad, 0);
	igt_assert_eq_u32(q->pad2, 0);
	for (unsigned int r = 0; r < 4; r++) {
		igt_assert_eq_u64(q->reserved[r], 0);
		igt_assert_eq_u64(q->system_usage.reserved[r], 0);
	}
	igt_assert_eq_u64(q->system_usage.aperture_mapped, 0);

	for (unsigned int i = 0; i < n; i++) {
		const struct drm_vseg_segment_info *s = &segs[i];
		bool ap = s->kind == DRM_VSEG_SEGMENT_KIND_APERTURE;
		uint64_t f = s->flags, prev = 0;

		igt_assert_f(s->id == i + 1, "entry %u has id %u\n", i, s->id);
		igt_assert_f(s->kind == DRM_VSEG_SEGMENT_KIND_MEMORY || ap,
			     "segment %u: kind %u\n", s->id, s->kind);
		nap += ap;
		nmem += !ap;
		if (ap)
			ap_id = s->id;
		igt_assert_f(memchr(s->name, 0, sizeof(s->name)) && s->name[0],
			     "segment %u: name not NUL-terminated or empty\n",
			     s->id);
		for (unsigned int j = 0; j < i; j++)
			igt_assert_f(strcmp(s->name, segs[j].name),
				     "segment %u: name \"%s\" duplicates segment %u\n",
				     s->id, s->name, segs[j].id);
		igt_assert_f(!(f & ~DRM_VSEG_SEGMENT_FLAGS_ALL),
			     "segment %u: unknown flags %#llx\n", s->id,
			     (unsigned long long)f);
		igt_assert_f(ap == !!(f & (F(APERTURE) | F(AGP))),
			     "segment %u: kind %u, flags %#llx\n", s->id,
			     s->kind, (unsigned long long)f);
		igt_assert_f(s->page_size == SZ_4K || s->page_size == SZ_64K,
			     "segment %u: page size %u\n", s->id, s->page_size);
		igt_assert_f(!ap || s->page_size == SZ_4K,
			     "aperture page size %u\n", s->page_size);
		igt_assert_f(!!(f & F(USE_64KB_PAGES)) ==
			     (s->page_size == SZ_64K),
			     "segment %u: Use64KBPages and page size %u\n",
			     s->id, s->page_size);
		igt_assert_f(s->size && !(s->size % s->page_size),
			     "segment %u: size %#llx\n", s->id,
			     (unsigned long long)s->size);
		if (ap)
			igt_assert_f(s->commit_limit && s->commit_limit <= s->size,
				     "aperture commit limit %#llx, size %#llx\n",
				     (unsigned long long)s->commit_limit,
				     (unsigned long long)s->size);
		else
			igt_assert_f(s->commit_limit == s->size,
				     "segment %u: commit limit %#llx, size %#llx\n",
				     s->id, (unsigned long long)s->commit_limit,
				     (unsigned long long)s->size);
		if (f & F(CPU_VISIBLE)) {
			igt_assert_f(s->cpu_visible_size &&
				     s->cpu_visible_size <= s->size,
				     "segment %u: CPU-visible size %#llx\n",
				     s->id,
				     (unsigned long long)s->cpu_visible_size);
		} else {
			igt_assert_f(!s->cpu_visible_size &&
				     !s->cpu_translated_address,
				     "segment %u: not CpuVisible, visible size %#llx, CPU address %#llx\n",
				     s->id,
				     (unsigned long long)s->cpu_visible_size,
				     (unsigned long long)s->cpu_translated_address);
		}
		igt_assert_f(s->system_memory_end_address <= s->size,
			     "segment %u: system memory end %#llx\n", s->id,
			     (unsigned long long)s->system_memory_end_address);

		if (f & F(USE_BANKING))
			igt_assert_f(s->num_banks >= 2 &&
				     s->num_banks <= DRM_VSEG_MAX_BANKS,
				     "segment %u: UseBanking with %u banks\n",
				     s->id, s->num_banks);
		else
			igt_assert_f(!s->num_banks,
				     "segment %u: %u banks without UseBanking\n",
				     s->id, s->num_banks);
		for (unsigned int b = 0; b < DRM_VSEG_MAX_BANKS; b++) {
			uint64_t end = s->bank_end[b];

			if (b >= s->num_banks) {
				igt_assert_f(!end, "segment %u: unused bank_end[%u] = %#llx\n",
					     s->id, b, (unsigned long long)end);
				continue;
			}
			igt_assert_f(end > prev && !(end % s->page_size) &&
				     (b + 1 < s->num_banks ? end < s->size :
				      end == s->size),
				     "segment %u: bank %u end %#llx\n", s->id, b,
				     (unsigned long long)end);
			prev = end;
		}

		igt_assert_f(s->num_invalid_ranges <= DRM_VSEG_MAX_INVALID_RANGES,
			     "segment %u: %u invalid ranges\n", s->id,
			     s->num_invalid_ranges);
		for (unsigned int r = 0; r < DRM_VSEG_MAX_INVALID_RANGES; r++) {
			const struct drm_vseg_range *rg = &s->invalid_ranges[r];

			if (r >= s->num_invalid_ranges) {
				igt_assert_f(!rg->start && !rg->size,
					     "segment %u: unused invalid range %u is not zero\n",
					     s->id, r);
				continue;
			}
			igt_assert_f(rg->size && !(rg->start % s->page_size) &&
				     !(rg->size % s->page_size) &&
				     rg->start <= s->size &&
				     rg->size <= s->size - rg->start,
				     "segment %u: invalid range %u %#llx+%#llx\n",
				     s->id, r, (unsigned long long)rg->start,
				     (unsigned long long)rg->size);
		}

		igt_assert_f(!s->pad, "segment %u: pad %u\n", s->id, s->pad);
		for (unsigned int r = 0; r < 4; r++) {
			igt_assert_f(!s->reserved[r] && !s->usage.reserved[r],
				     "segment %u: reserved field %u is not zero\n",
				     s->id, r);
		}
		if (!ap)
			igt_assert_f(!s->usage.aperture_mapped,
				     "segment %u: aperture_mapped on a memory segment\n",
				     s->id);

		for (unsigned int j = 0; j < i; j++) {
			const struct drm_vseg_segment_info *o = &segs[j];

			if ((f | o->flags) & F(AGP))
				continue;
			igt_assert_f(!ranges_overlap(s->base_address, s->size,
						     o->base_address, o->size),
				     "segment %u overlaps segment %u in the GPU address space\n",
				     s->id, o->id);
		}
	}

	igt_assert_f(nap == 1, "%u aperture segments\n", nap);
	igt_assert_f(nmem <= 6, "%u memory segments\n", nmem);
	igt_assert_f(q->paging_buffer_segment_id == 0 ||
		     q->paging_buffer_segment_id == ap_id,
		     "paging buffer segment %u, aperture is %u\n",
		     q->paging_buffer_segment_id, ap_id);
}

static void check_usage_zero(const struct drm_vseg_segment_usage *u,
			     unsigned int id)
{
	igt_assert_f(!u->committed && !u->resident && !u->evicted &&
		     !u->aperture_mapped,
		     "segment %u: usage committed=%llu resident=%llu evicted=%llu mapped=%llu, expected all zero\n",
		     id, (unsigned long long)u->committed,
		     (unsigned long long)u->resident,
		     (unsigned long long)u->evicted,
		     (unsigned long long)u->aperture_mapped);
	for (unsigned int r = 0; r < 4; r++)
		igt_assert_f(!u->reserved[r],
			     "segment %u: usage.reserved[%u] = %#llx\n", id, r,
			     (unsigned long long)u->reserved[r]);
}

void vseg_check_usage_zero(const struct drm_vseg_query_segments *q,
			   const struct drm_vseg_segment_info *segs)
{
	check_usage_zero(&q->system_usage, 0);
	for (unsigned int i = 0; i < q->num_segments; i++)
		check_usage_zero(&segs[i].usage, segs[i].id);
}

static const char * const flag_names[] = {
	"Aperture", "Agp", "CpuVisible", "UseBanking", "CacheCoherent",
	"PitchAlignment", "PopulatedFromSystemMemory",
	"PreservedDuringStandby", "PreservedDuringHibernate",
	"PartiallyPreservedDuringHibernate", "DirectFlip", "Use64KBPages",
	"ReservedSysMem", "SupportsCpuHostAperture",
	"SupportsCachedCpuHostAperture", "ApplicationTarget", "VprSupported",
	"VprPreservedDuringStandby", "EncryptedPagingSupported",
	"LocalBudgetGroup", "NonLocalBudgetGroup",
};

const char *vseg_flag_name(unsigned int bit)
{
	if (bit >= sizeof(flag_names) / sizeof(flag_names[0]))
		return NULL;
	return flag_names[bit];
}

/* --- kernel log -------------------------------------------------------- */

int vseg_kmsg_open(void)
{
	int fd;

	fd = open("/dev/kmsg", O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	if (lseek(fd, 0, SEEK_END) < 0) {
		int err = -errno;

		close(fd);
		return err;
	}
	return fd;
}

static int hexval(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

/* The message of one /dev/kmsg record, escapes undone. */
static char *kmsg_message(const char *rec, size_t len)
{
	const char *p = memchr(rec, ';', len), *end;
	char *msg, *o;

	if (!p)
		return NULL;
	p++;
	end = memchr(p, '\n', rec + len - p);
	if (!end)
		end = rec + len;
	msg = malloc(end - p + 1);
	if (!msg)
		return NULL;
	for (o = msg; p < end; p++) {
		if (p[0] == '\\' && end - p >= 4 && p[1] == 'x' &&
		    hexval(p[2]) >= 0 && hexval(p[3]) >= 0) {
			*o++ = (char)(hexval(p[2]) << 4 | hexval(p[3]));
			p += 3;
		} else {
			*o++ = *p;
		}
	}
	*o = '\0';
	return msg;
}

char **vseg_kmsg_read(int kmsg_fd)
{
	size_t count = 0, cap = 16;
	char **lines = calloc(cap + 1, sizeof(char *));
	char rec[8192];

	igt_assert(lines);
	for (;;) {
		ssize_t r = read(kmsg_fd, rec, sizeof(rec));
		char *msg;

		if (r < 0) {
			if (errno == EINTR || errno == EPIPE)
				continue;	/* EPIPE: records were overwritten */
			break;			/* EAGAIN: no more records */
		}
		if (r == 0)
			break;
		msg = kmsg_message(rec, r);
		if (!msg)
			continue;
		if (count == cap) {
			cap *= 2;
			lines = realloc(lines, (cap + 1) * sizeof(char *));
			igt_assert(lines);
		}
		lines[count++] = msg;
		lines[count] = NULL;
	}
	errno = 0;
	return lines;
}

void vseg_kmsg_free(char **lines)
{
	if (!lines)
		return;
	for (char **l = lines; *l; l++)
		free(*l);
	free(lines);
}

bool vseg_glob(const char *pattern, const char *text)
{
	const char *star = NULL, *resume = NULL;

	while (*text) {
		if (*pattern == '*') {
			star = pattern++;
			resume = text;
		} else if (*pattern == *text) {
			pattern++;
			text++;
		} else if (star) {
			pattern = star + 1;
			text = ++resume;
		} else {
			return false;
		}
	}
	while (*pattern == '*')
		pattern++;
	return !*pattern;
}

/* --- debugfs ----------------------------------------------------------- */

int vseg_debugfs_dir(int fd)
{
	char name[256];
	int dir;

	dir = igt_debugfs_dir(fd);
	if (dir < 0)
		return -1;
	if (igt_debugfs_simple_read(dir, "name", name, sizeof(name)) <= 0 ||
	    strncmp(name, VSEG_DRIVER, strlen(VSEG_DRIVER)) ||
	    (name[strlen(VSEG_DRIVER)] != ' ' &&
	     name[strlen(VSEG_DRIVER)] != '\n' &&
	     name[strlen(VSEG_DRIVER)] != '\0')) {
		close(dir);
		return -1;
	}
	return dir;
}

/* Split "k=v k=v ..." (modified in place) into @l. */
static void parse_pairs(struct vseg_debugfs_line *l, char *text,
			const char *what)
{
	char *save = NULL;

	for (char *tok = strtok_r(text, " ", &save); tok;
	     tok = strtok_r(NULL, " ", &save)) {
		char *eq = strchr(tok, '=');

		igt_assert_f(eq && eq != tok && eq[1],
			     "%s: \"%s\" is not key=value\n", what, tok);
		igt_assert_f(l->num_keys < VSEG_DEBUGFS_MAX_KEYS,
			     "%s: too many keys\n", what);
		*eq = '\0';
		igt_assert_f(!vseg_debugfs_value(l, tok),
			     "%s: duplicate key %s\n", what, tok);
		l->key[l->num_keys] = tok;
		l->value[l->num_keys] = eq + 1;
		l->num_keys++;
	}
}

void vseg_debugfs_read_segments(int fd, struct vseg_debugfs_segments *s)
{
	const size_t size = 1 << 16;
	char *text;
	int dir, len;

	dir = vseg_debugfs_dir(fd);
	igt_assert_f(dir >= 0, "no debugfs directory for the vseg device\n");
	text = malloc(size);
	igt_assert(text);
	len = igt_debugfs_simple_read(dir, "segments", text, size);
	close(dir);
	igt_assert_f(len > 0, "reading debugfs segments failed: %d (%s)\n",
		     len, strerror(-len));
	igt_assert_f((size_t)len < size - 1, "debugfs segments is too large\n");
	igt_debug("debugfs segments:\n%s", text);
	vseg_debugfs_parse_segments(text, s);
	free(text);
}

void vseg_debugfs_parse_segments(const char *text,
				 struct vseg_debugfs_segments *s)
{
	struct vseg_debugfs_line header;
	char *line, *save = NULL;

	memset(s, 0, sizeof(*s));
	s->text = strdup(text);
	igt_assert(s->text);

	line = strtok_r(s->text, "\n", &save);
	igt_assert_f(line && !strncmp(line, "vseg segment table: ", 20),
		     "unexpected first line of segments: \"%s\"\n",
		     line ? line : "");
	memset(&header, 0, sizeof(header));
	parse_pairs(&header, line + 20, "segments header");
	s->num_segments = vseg_debugfs_u64(&header, "segments");
	s->paging_segment = vseg_debugfs_u64(&header, "paging_segment");
	s->paging_size = vseg_debugfs_u64(&header, "paging_size");
	s->paging_private = vseg_debugfs_u64(&header, "paging_private");

	while ((line = strtok_r(NULL, "\n", &save))) {
		struct vseg_debugfs_line *l;
		char *end;
		unsigned long id;

		if (!line[0])
			continue;
		igt_assert_f(!strncmp(line, "segment ", 8),
			     "unexpected line in segments: \"%s\"\n", line);
		igt_assert_f(s->num_lines <= DRM_VSEG_MAX_SEGMENTS,
			     "too many segment lines\n");
		l = &s->line[s->num_lines++];
		id = strtoul(line + 8, &end, 10);
		igt_assert_f(end != line + 8 && (*end == ' ' || !*end),
			     "bad segment id in \"%s\"\n", line);
		l->id = id;
		parse_pairs(l, end, "segment line");
	}
}

void vseg_debugfs_free_segments(struct vseg_debugfs_segments *s)
{
	free(s->text);
	s->text = NULL;
}

const char *vseg_debugfs_value(const struct vseg_debugfs_line *line,
			       const char *key)
{
	for (unsigned int i = 0; i < line->num_keys; i++)
		if (!strcmp(line->key[i], key))
			return line->value[i];
	return NULL;
}

uint64_t vseg_debugfs_u64(const struct vseg_debugfs_line *line,
			  const char *key)
{
	const char *v = vseg_debugfs_value(line, key);
	unsigned long long val;
	char *end;

	igt_assert_f(v, "segment %u: debugfs key %s missing\n", line->id, key);
	errno = 0;
	val = strtoull(v, &end, 0);
	igt_assert_f(!errno && end != v && !*end,
		     "segment %u: debugfs %s=%s is not a number\n", line->id,
		     key, v);
	return val;
}

/* --- buffers ------------------------------------------------------------ */

void vseg_create_args(struct drm_vseg_gem_create *c, uint64_t size,
		      uint32_t supported, uint32_t flags)
{
	memset(c, 0, sizeof(*c));
	c->size = size;
	c->supported_segments = supported;
	c->flags = flags;
}

void vseg_create_prefer(struct drm_vseg_gem_create *c, uint32_t segment_id,
			uint32_t pref_flags)
{
	igt_assert(c->num_preferred < DRM_VSEG_MAX_PREFERRED);
	c->preferred[c->num_preferred].segment_id = segment_id;
	c->preferred[c->num_preferred].flags = pref_flags;
	c->num_preferred++;
}

int __vseg_gem_create(int fd, struct drm_vseg_gem_create *c)
{
	int err = 0;

	if (igt_ioctl(fd, DRM_IOCTL_VSEG_GEM_CREATE, c))
		err = -errno;
	errno = 0;
	return err;
}

uint32_t vseg_gem_create(int fd, struct drm_vseg_gem_create *c)
{
	uint64_t size = c->size;
	int err;

	err = __vseg_gem_create(fd, c);
	igt_assert_f(err == 0,
		     "GEM_CREATE size=%#llx alignment=%#llx supported=%#x flags=%#x preferred=%u(%u) failed: %d (%s)\n",
		     (unsigned long long)size,
		     (unsigned long long)c->alignment, c->supported_segments,
		     c->flags, c->num_preferred, c->preferred[0].segment_id,
		     err, strerror(-err));
	igt_assert_f(c->handle, "GEM_CREATE returned handle 0\n");
	igt_assert_f(c->size >= size, "GEM_CREATE shrank the size %#llx to %#llx\n",
		     (unsigned long long)size, (unsigned long long)c->size);
	return c->handle;
}

uint32_t vseg_gem_create_simple(int fd, uint64_t size, uint32_t supported,
				uint32_t flags)
{
	struct drm_vseg_gem_create c;

	vseg_create_args(&c, size, supported, flags);
	return vseg_gem_create(fd, &c);
}

int __vseg_gem_info(int fd, uint32_t handle, struct drm_vseg_gem_info *info)
{
	int err = 0;

	memset(info, 0, sizeof(*info));
	info->handle = handle;
	if (igt_ioctl(fd, DRM_IOCTL_VSEG_GEM_INFO, info))
		err = -errno;
	errno = 0;
	return err;
}

void vseg_gem_info(int fd, uint32_t handle, struct drm_vseg_gem_info *info)
{
	int err = __vseg_gem_info(fd, handle, info);

	igt_assert_f(err == 0, "GEM_INFO of handle %u failed: %d (%s)\n",
		     handle, err, strerror(-err));
	igt_assert_eq_u32(info->handle, handle);
	for (unsigned int i = 0; i < 3; i++)
		igt_assert_f(!info->reserved[i],
			     "GEM_INFO reserved[%u] = %#llx\n", i,
			     (unsigned long long)info->reserved[i]);
	igt_assert_eq_u64(info->extensions, 0);
}

int __vseg_gem_close(int fd, uint32_t handle)
{
	struct drm_gem_close arg = { .handle = handle };
	int err = 0;

	if (igt_ioctl(fd, DRM_IOCTL_GEM_CLOSE, &arg))
		err = -errno;
	errno = 0;
	return err;
}

void vseg_gem_close(int fd, uint32_t handle)
{
	int err = __vseg_gem_close(fd, handle);

	igt_assert_f(err == 0, "GEM_CLOSE of handle %u failed: %d (%s)\n",
		     handle, err, strerror(-err));
}

int __vseg_gem_mmap_offset(int fd, uint32_t handle, uint64_t *offset)
{
	struct drm_vseg_gem_mmap_offset arg = { .handle = handle };
	int err = 0;

	if (igt_ioctl(fd, DRM_IOCTL_VSEG_GEM_MMAP_OFFSET, &arg))
		err = -errno;
	errno = 0;
	*offset = arg.offset;
	return err;
}

void *__vseg_gem_mmap(int fd, uint32_t handle, uint64_t size, int prot)
{
	uint64_t offset;
	void *ptr;

	if (__vseg_gem_mmap_offset(fd, handle, &offset))
		return NULL;
	ptr = mmap(NULL, size, prot, MAP_SHARED, fd, offset);
	if (ptr == MAP_FAILED) {
		igt_debug("mmap of handle %u at %#llx failed: %s\n", handle,
			  (unsigned long long)offset, strerror(errno));
		errno = 0;
		return NULL;
	}
	return ptr;
}

void *vseg_gem_mmap(int fd, uint32_t handle, uint64_t size, int prot)
{
	uint64_t offset;
	void *ptr;
	int err;

	err = __vseg_gem_mmap_offset(fd, handle, &offset);
	igt_assert_f(err == 0, "MMAP_OFFSET of handle %u failed: %d (%s)\n",
		     handle, err, strerror(-err));
	igt_assert_f(offset && !(offset & 4095),
		     "MMAP_OFFSET of handle %u gave offset %#llx\n", handle,
		     (unsigned long long)offset);
	ptr = mmap(NULL, size, prot, MAP_SHARED, fd, offset);
	igt_assert_f(ptr != MAP_FAILED,
		     "mmap of handle %u (%#llx bytes at %#llx) failed: %s\n",
		     handle, (unsigned long long)size,
		     (unsigned long long)offset, strerror(errno));
	return ptr;
}

int __vseg_residency(int fd, unsigned long ioc, struct drm_vseg_residency *r)
{
	int err = 0;

	if (igt_ioctl(fd, ioc, r))
		err = -errno;
	errno = 0;
	return err;
}

static int residency(int fd, unsigned long ioc, const uint32_t *handles,
		     uint32_t count, uint32_t flags, uint32_t *processed)
{
	struct drm_vseg_residency arg = {
		.handles = (uintptr_t)handles,
		.count = count,
		.flags = flags,
	};
	int err = __vseg_residency(fd, ioc, &arg);

	if (processed)
		*processed = arg.processed;
	return err;
}

int __vseg_make_resident(int fd, const uint32_t *handles, uint32_t count,
			 uint32_t *processed)
{
	return residency(fd, DRM_IOCTL_VSEG_MAKE_RESIDENT, handles, count, 0,
			 processed);
}

int __vseg_evict(int fd, const uint32_t *handles, uint32_t count,
		 uint32_t *processed)
{
	return residency(fd, DRM_IOCTL_VSEG_EVICT, handles, count, 0,
			 processed);
}

int __vseg_make_resident_flags(int fd, const uint32_t *handles,
			       uint32_t count, uint32_t flags,
			       uint32_t *processed)
{
	return residency(fd, DRM_IOCTL_VSEG_MAKE_RESIDENT, handles, count,
			 flags, processed);
}

int __vseg_evict_flags(int fd, const uint32_t *handles, uint32_t count,
		       uint32_t flags, uint32_t *processed)
{
	return residency(fd, DRM_IOCTL_VSEG_EVICT, handles, count, flags,
			 processed);
}

const char *vseg_errname(int err)
{
	return err ? strerror(-err) : "success";
}

void vseg_make_resident(int fd, const uint32_t *handles, uint32_t count)
{
	uint32_t processed = 0;
	int err;

	err = __vseg_make_resident(fd, handles, count, &processed);
	igt_assert_f(err == 0, "MAKE_RESIDENT of %u handles (first %u) failed: %d (%s)\n",
		     count, handles[0], err, strerror(-err));
	igt_assert_f(processed == count,
		     "MAKE_RESIDENT processed %u of %u handles\n", processed,
		     count);
}

void vseg_evict(int fd, const uint32_t *handles, uint32_t count)
{
	uint32_t processed = 0;
	int err;

	err = __vseg_evict(fd, handles, count, &processed);
	igt_assert_f(err == 0, "EVICT of %u handles (first %u) failed: %d (%s)\n",
		     count, handles[0], err, strerror(-err));
	igt_assert_f(processed == count, "EVICT processed %u of %u handles\n",
		     processed, count);
}

/* --- segments ----------------------------------------------------------- */

const struct drm_vseg_segment_info *
vseg_segment(const struct drm_vseg_query_segments *q,
	     const struct drm_vseg_segment_info *segs, uint32_t id)
{
	igt_assert_f(id >= 1 && id <= q->num_segments,
		     "no segment %u in a table of %u\n", id, q->num_segments);
	igt_assert_eq_u32(segs[id - 1].id, id);
	return &segs[id - 1];
}

uint32_t vseg_aperture_id(const struct drm_vseg_query_segments *q,
			  const struct drm_vseg_segment_info *segs)
{
	for (unsigned int i = 0; i < q->num_segments; i++)
		if (segs[i].kind == DRM_VSEG_SEGMENT_KIND_APERTURE)
			return segs[i].id;
	igt_assert_f(false, "the table has no aperture segment\n");
	return 0;
}

uint32_t vseg_segment_by_name(const struct drm_vseg_query_segments *q,
			      const struct drm_vseg_segment_info *segs,
			      const char *name)
{
	for (unsigned int i = 0; i < q->num_segments; i++)
		if (!strcmp(segs[i].name, name))
			return segs[i].id;
	igt_assert_f(false, "the table has no segment named %s\n", name);
	return 0;
}

uint32_t vseg_all_segments(const struct drm_vseg_query_segments *q)
{
	return (1u << (q->num_segments + 1)) - 1;
}

void vseg_usage_read(int fd, struct vseg_usage_snapshot *u)
{
	struct drm_vseg_query_segments q;
	struct drm_vseg_segment_info *segs;

	memset(u, 0, sizeof(*u));
	segs = vseg_query_all(fd, &q);
	u->num_segments = q.num_segments;
	u->usage[0] = q.system_usage;
	for (unsigned int i = 0; i < q.num_segments; i++)
		u->usage[i + 1] = segs[i].usage;
	free(segs);
}

bool vseg_usage_equal(const struct vseg_usage_snapshot *a,
		      const struct vseg_usage_snapshot *b)
{
	if (a->num_segments != b->num_segments)
		return false;
	for (unsigned int i = 0; i <= a->num_segments; i++) {
		const struct drm_vseg_segment_usage *x = &a->usage[i];
		const struct drm_vseg_segment_usage *y = &b->usage[i];

		if (x->committed != y->committed ||
		    x->resident != y->resident || x->evicted != y->evicted ||
		    x->aperture_mapped != y->aperture_mapped)
			return false;
	}
	return true;
}

void vseg_usage_print(const struct vseg_usage_snapshot *u, const char *what)
{
	for (unsigned int i = 0; i <= u->num_segments; i++)
		igt_info("%s: segment %u committed=%llu resident=%llu evicted=%llu mapped=%llu\n",
			 what, i, (unsigned long long)u->usage[i].committed,
			 (unsigned long long)u->usage[i].resident,
			 (unsigned long long)u->usage[i].evicted,
			 (unsigned long long)u->usage[i].aperture_mapped);
}

void vseg_usage_assert(int fd, const struct vseg_usage_snapshot *want,
		       const char *what)
{
	struct vseg_usage_snapshot now;

	vseg_usage_read(fd, &now);
	if (vseg_usage_equal(&now, want))
		return;
	vseg_usage_print(want, "expected");
	vseg_usage_print(&now, "actual");
	igt_assert_f(false, "%s: segment usage differs from what was expected\n",
		     what);
}

void vseg_usage_wait(int fd, const struct vseg_usage_snapshot *want,
		     unsigned int timeout_ms, const char *what)
{
	struct vseg_usage_snapshot now;
	struct timespec start = {};

	igt_gettime(&start);
	for (;;) {
		vseg_usage_read(fd, &now);
		if (vseg_usage_equal(&now, want))
			return;
		if (igt_nsec_elapsed(&start) / 1000000 >= timeout_ms)
			break;
		usleep(10000);
	}
	vseg_usage_assert(fd, want, what);
}

/* --- data patterns ------------------------------------------------------ */

static inline uint64_t pattern_word(uint32_t seed, uint64_t i)
{
	return ((uint64_t)seed << 32 | (uint32_t)i) ^ 0xa5c3f00f5a3c0ff0ull;
}

void vseg_pattern_fill(void *ptr, uint64_t size, uint32_t seed)
{
	uint64_t *p = ptr;

	for (uint64_t i = 0; i < size / 8; i++)
		p[i] = pattern_word(seed, i);
}

int64_t vseg_pattern_check(const void *ptr, uint64_t size, uint32_t seed)
{
	const uint64_t *p = ptr;

	for (uint64_t i = 0; i < size / 8; i++)
		if (p[i] != pattern_word(seed, i)) {
			igt_debug("pattern %#x: word at %#llx is %#llx, expected %#llx\n",
				  seed, (unsigned long long)i * 8,
				  (unsigned long long)p[i],
				  (unsigned long long)pattern_word(seed, i));
			return (int64_t)(i * 8);
		}
	return -1;
}

int64_t vseg_zero_check(const void *ptr, uint64_t size)
{
	const uint64_t *p = ptr;

	for (uint64_t i = 0; i < size / 8; i++)
		if (p[i])
			return (int64_t)(i * 8);
	return -1;
}

/* --- debugfs "allocations" and "aperture" ------------------------------- */

char *vseg_debugfs_read_file(int fd, const char *name)
{
	size_t len = 0, cap = 1 << 16;
	char *buf;
	int dir, file;

	dir = vseg_debugfs_dir(fd);
	if (dir < 0)
		return NULL;
	file = openat(dir, name, O_RDONLY | O_CLOEXEC);
	close(dir);
	if (file < 0)
		return NULL;
	buf = malloc(cap);
	igt_assert(buf);
	for (;;) {
		ssize_t r;

		if (cap - len < 4096) {
			cap *= 2;
			buf = realloc(buf, cap);
			igt_assert(buf);
		}
		r = read(file, buf + len, cap - len - 1);
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0) {
			igt_warn("reading debugfs %s: %s\n", name,
				 strerror(errno));
			free(buf);
			close(file);
			errno = 0;
			return NULL;
		}
		if (r == 0)
			break;
		len += r;
	}
	close(file);
	buf[len] = '\0';
	return buf;
}

/*
 * The value of " key=" in @line: a copy (up to the next space, or for
 * "owner" up to " size=") in @val; false if absent.
 */
static bool line_value(const char *line, const char *key, char *val,
		       size_t size)
{
	char pat[32];
	const char *p, *end;
	size_t n;

	snprintf(pat, sizeof(pat), " %s=", key);
	p = strstr(line, pat);
	if (!p)
		return false;
	p += strlen(pat);
	if (!strcmp(key, "owner"))
		end = strstr(p, " size=");
	else
		end = strchr(p, ' ');
	if (!end)
		end = p + strlen(p);
	n = end - p;
	if (!n || n >= size)
		return false;
	memcpy(val, p, n);
	val[n] = '\0';
	return true;
}

static uint64_t line_u64(const char *line, const char *key, const char *file)
{
	unsigned long long v;
	char val[64], *end;

	igt_assert_f(line_value(line, key, val, sizeof(val)),
		     "debugfs %s: no %s= in \"%s\"\n", file, key, line);
	errno = 0;
	v = strtoull(val, &end, 0);
	igt_assert_f(!errno && end != val && !*end,
		     "debugfs %s: %s=%s is not a number in \"%s\"\n", file, key,
		     val, line);
	return v;
}

static bool line_bool(const char *line, const char *key, const char *file)
{
	uint64_t v = line_u64(line, key, file);

	igt_assert_f(v <= 1, "debugfs %s: %s=%llu is not 0 or 1\n", file, key,
		     (unsigned long long)v);
	return v;
}

static void parse_allocation(char *line, struct vseg_allocation *bo)
{
	char val[128], *end, *colon;
	unsigned long long v;

	memset(bo, 0, sizeof(*bo));
	errno = 0;
	v = strtoull(line + 3, &end, 10);
	igt_assert_f(!errno && end != line + 3 && *end == ' ',
		     "debugfs allocations: bad buffer id in \"%s\"\n", line);
	bo->buffer_id = v;

	igt_assert_f(line_value(line, "owner", val, sizeof(val)),
		     "debugfs allocations: no owner in \"%s\"\n", line);
	colon = strchr(val, ':');
	igt_assert_f(colon && colon != val,
		     "debugfs allocations: owner is not pid:comm in \"%s\"\n",
		     line);
	*colon = '\0';
	bo->pid = atoi(val);
	snprintf(bo->comm, sizeof(bo->comm), "%s", colon + 1);

	bo->size = line_u64(line, "size", "allocations");
	bo->flags = line_u64(line, "flags", "allocations");
	bo->segment = line_u64(line, "segment", "allocations");
	bo->offset = line_u64(line, "offset", "allocations");
	bo->contiguous = line_bool(line, "contiguous", "allocations");
	bo->moves = line_u64(line, "moves", "allocations");
	bo->resident = line_bool(line, "resident", "allocations");
	bo->pinned = line_bool(line, "pinned", "allocations");

	igt_assert_f(line_value(line, "aperture", val, sizeof(val)),
		     "debugfs allocations: no aperture in \"%s\"\n", line);
	if (strcmp(val, "-")) {
		unsigned long long start, len;
		char *plus;

		plus = strchr(val, '+');
		igt_assert_f(plus, "debugfs allocations: aperture=%s in \"%s\"\n",
			     val, line);
		*plus = '\0';
		errno = 0;
		start = strtoull(val, &end, 16);
		igt_assert_f(!errno && !*end && !strncmp(val, "0x", 2),
			     "debugfs allocations: bad aperture start in \"%s\"\n",
			     line);
		len = strtoull(plus + 1, &end, 16);
		igt_assert_f(!errno && !*end && !strncmp(plus + 1, "0x", 2),
			     "debugfs allocations: bad aperture size in \"%s\"\n",
			     line);
		bo->mapped = true;
		bo->ap_start = start;
		bo->ap_size = len;
	}
}

void vseg_debugfs_parse_allocations(const char *text,
				    struct vseg_allocations *a)
{
	char *copy, *line, *save = NULL;
	unsigned int cap = 64;

	memset(a, 0, sizeof(*a));
	copy = strdup(text);
	igt_assert(copy);
	a->bo = calloc(cap, sizeof(*a->bo));
	igt_assert(a->bo);

	line = strtok_r(copy, "\n", &save);
	igt_assert_f(line && sscanf(line, "vseg allocations: count=%u",
				    &a->count) == 1,
		     "unexpected first line of allocations: \"%s\"\n",
		     line ? line : "");
	while ((line = strtok_r(NULL, "\n", &save))) {
		if (!line[0])
			continue;
		igt_assert_f(!strncmp(line, "bo ", 3),
			     "unexpected line in allocations: \"%s\"\n", line);
		if (a->num == cap) {
			cap *= 2;
			a->bo = realloc(a->bo, cap * sizeof(*a->bo));
			igt_assert(a->bo);
		}
		parse_allocation(line, &a->bo[a->num++]);
		for (unsigned int i = 0; i + 1 < a->num; i++)
			igt_assert_f(a->bo[i].buffer_id !=
				     a->bo[a->num - 1].buffer_id,
				     "debugfs allocations: buffer %llu listed twice\n",
				     (unsigned long long)a->bo[i].buffer_id);
	}
	free(copy);
	igt_assert_f(a->num == a->count,
		     "debugfs allocations: count=%u but %u buffer lines\n",
		     a->count, a->num);
}

void vseg_debugfs_read_allocations(int fd, struct vseg_allocations *a)
{
	char *text = vseg_debugfs_read_file(fd, "allocations");

	igt_assert_f(text, "cannot read debugfs allocations\n");
	vseg_debugfs_parse_allocations(text, a);
	free(text);
}

void vseg_debugfs_free_allocations(struct vseg_allocations *a)
{
	free(a->bo);
	a->bo = NULL;
	a->num = a->count = 0;
}

const struct vseg_allocation *
vseg_allocation_find(const struct vseg_allocations *a, uint64_t buffer_id)
{
	for (unsigned int i = 0; i < a->num; i++)
		if (a->bo[i].buffer_id == buffer_id)
			return &a->bo[i];
	return NULL;
}

/* Assert that a "allocations" line agrees with a GEM_INFO. */
static void compare_allocation(const struct vseg_allocation *bo,
			       const struct drm_vseg_gem_info *info,
			       uint32_t handle)
{
	bool contiguous, mapped, resident, pinned;

	igt_assert_f(bo, "buffer %llu (handle %u) is not in debugfs allocations\n",
		     (unsigned long long)info->buffer_id, handle);
	contiguous = info->placement_flags & DRM_VSEG_INFO_CONTIGUOUS;
	mapped = info->placement_flags & DRM_VSEG_INFO_APERTURE_MAPPED;
	resident = info->placement_flags & DRM_VSEG_INFO_RESIDENT;
	pinned = info->placement_flags & DRM_VSEG_INFO_PINNED;
	igt_assert_f(bo->pid == getpid(),
		     "buffer %llu: debugfs owner pid %d, expected %d\n",
		     (unsigned long long)info->buffer_id, bo->pid, getpid());
	igt_assert_f(bo->size == info->size &&
		     bo->flags == info->create_flags &&
		     bo->segment == info->segment_id &&
		     bo->offset == info->offset &&
		     bo->contiguous == contiguous && bo->mapped == mapped &&
		     bo->moves == info->moves && bo->resident == resident &&
		     bo->pinned == pinned &&
		     (!mapped || (bo->ap_start == info->aperture_offset &&
				  bo->ap_size == info->size)),
		     "buffer %llu: debugfs says size=%#llx flags=%#x segment=%u offset=%#llx contiguous=%d aperture=%#llx+%#llx(%d) moves=%llu resident=%d pinned=%d; "
		     "GEM_INFO says size=%#llx flags=%#x segment=%u offset=%#llx placement_flags=%#x aperture_offset=%#llx moves=%llu\n",
		     (unsigned long long)info->buffer_id,
		     (unsigned long long)bo->size, bo->flags, bo->segment,
		     (unsigned long long)bo->offset, bo->contiguous,
		     (unsigned long long)bo->ap_start,
		     (unsigned long long)bo->ap_size, bo->mapped,
		     (unsigned long long)bo->moves, bo->resident, bo->pinned,
		     (unsigned long long)info->size, info->create_flags,
		     info->segment_id, (unsigned long long)info->offset,
		     info->placement_flags,
		     (unsigned long long)info->aperture_offset,
		     (unsigned long long)info->moves);
}

void vseg_check_allocation(int fd, uint32_t handle,
			   struct drm_vseg_gem_info *out)
{
	struct drm_vseg_gem_info info;
	struct vseg_allocations a;

	vseg_gem_info(fd, handle, &info);
	vseg_debugfs_read_allocations(fd, &a);
	compare_allocation(vseg_allocation_find(&a, info.buffer_id), &info,
			   handle);
	vseg_debugfs_free_allocations(&a);
	if (out)
		*out = info;
}

void vseg_check_no_overlap(const struct vseg_allocations *a,
			   const struct drm_vseg_query_segments *q,
			   const struct drm_vseg_segment_info *segs)
{
	for (unsigned int i = 0; i < a->num; i++) {
		const struct vseg_allocation *x = &a->bo[i];
		const struct drm_vseg_segment_info *s;

		if (!x->contiguous || !x->segment ||
		    x->segment > q->num_segments)
			continue;
		s = &segs[x->segment - 1];
		if (s->kind != DRM_VSEG_SEGMENT_KIND_MEMORY)
			continue;
		igt_assert_f(x->offset < s->size &&
			     x->size <= s->size - x->offset,
			     "buffer %llu: %#llx+%#llx outside segment %u\n",
			     (unsigned long long)x->buffer_id,
			     (unsigned long long)x->offset,
			     (unsigned long long)x->size, x->segment);
		for (unsigned int j = i + 1; j < a->num; j++) {
			const struct vseg_allocation *y = &a->bo[j];

			if (!y->contiguous || y->segment != x->segment)
				continue;
			igt_assert_f(x->offset + x->size <= y->offset ||
				     y->offset + y->size <= x->offset,
				     "buffers %llu (%#llx+%#llx) and %llu (%#llx+%#llx) overlap in segment %u\n",
				     (unsigned long long)x->buffer_id,
				     (unsigned long long)x->offset,
				     (unsigned long long)x->size,
				     (unsigned long long)y->buffer_id,
				     (unsigned long long)y->offset,
				     (unsigned long long)y->size, x->segment);
		}
	}
}

void vseg_check_allocations(int fd, const uint32_t *handles, unsigned int n)
{
	struct drm_vseg_query_segments q;
	struct drm_vseg_segment_info *segs;
	struct vseg_allocations a;

	segs = vseg_query_all(fd, &q);
	vseg_debugfs_read_allocations(fd, &a);
	for (unsigned int i = 0; i < n; i++) {
		struct drm_vseg_gem_info info;

		vseg_gem_info(fd, handles[i], &info);
		compare_allocation(vseg_allocation_find(&a, info.buffer_id),
				   &info, handles[i]);
	}
	vseg_check_no_overlap(&a, &q, segs);
	vseg_debugfs_free_allocations(&a);
	free(segs);
}

void vseg_debugfs_parse_aperture(const char *text,
				 struct vseg_aperture_state *s)
{
	char *copy, *line, *save = NULL;
	unsigned int cap = 16;
	uint64_t sum = 0;

	memset(s, 0, sizeof(*s));
	copy = strdup(text);
	igt_assert(copy);
	s->range = calloc(cap, sizeof(*s->range));
	igt_assert(s->range);

	line = strtok_r(copy, "\n", &save);
	igt_assert_f(line && !strncmp(line, "vseg aperture:", 14),
		     "unexpected first line of aperture: \"%s\"\n",
		     line ? line : "");
	s->segment = line_u64(line, "segment", "aperture");
	s->size = line_u64(line, "size", "aperture");
	s->commit_limit = line_u64(line, "commit_limit", "aperture");
	s->committed = line_u64(line, "committed", "aperture");
	s->mapped = line_u64(line, "mapped", "aperture");

	while ((line = strtok_r(NULL, "\n", &save))) {
		struct vseg_aperture_range *r;
		char buf[512];

		if (!line[0])
			continue;
		igt_assert_f(!strncmp(line, "range ", 6),
			     "unexpected line in aperture: \"%s\"\n", line);
		if (s->num_ranges == cap) {
			cap *= 2;
			s->range = realloc(s->range, cap * sizeof(*s->range));
			igt_assert(s->range);
		}
		/* line_value() looks for " key=": give it a leading space. */
		snprintf(buf, sizeof(buf), " %s", line + 6);
		r = &s->range[s->num_ranges++];
		r->start = line_u64(buf, "start", "aperture");
		r->size = line_u64(buf, "size", "aperture");
		r->buffer_id = line_u64(buf, "bo", "aperture");
		igt_assert_f(r->size && !(r->start & 4095) && !(r->size & 4095) &&
			     r->start < s->size && r->size <= s->size - r->start,
			     "debugfs aperture: range %#llx+%#llx outside the %#llx-byte aperture\n",
			     (unsigned long long)r->start,
			     (unsigned long long)r->size,
			     (unsigned long long)s->size);
		if (s->num_ranges > 1) {
			const struct vseg_aperture_range *p = r - 1;

			igt_assert_f(p->start + p->size <= r->start,
				     "debugfs aperture: ranges %#llx+%#llx and %#llx+%#llx overlap or are out of order\n",
				     (unsigned long long)p->start,
				     (unsigned long long)p->size,
				     (unsigned long long)r->start,
				     (unsigned long long)r->size);
		}
		sum += r->size;
	}
	free(copy);
	igt_assert_f(sum == s->mapped,
		     "debugfs aperture: mapped=%llu but the ranges add up to %llu\n",
		     (unsigned long long)s->mapped, (unsigned long long)sum);
	igt_assert_f(s->committed <= s->commit_limit &&
		     s->commit_limit <= s->size,
		     "debugfs aperture: committed=%llu commit_limit=%llu size=%llu\n",
		     (unsigned long long)s->committed,
		     (unsigned long long)s->commit_limit,
		     (unsigned long long)s->size);
}

void vseg_debugfs_read_aperture(int fd, struct vseg_aperture_state *s)
{
	char *text = vseg_debugfs_read_file(fd, "aperture");

	igt_assert_f(text, "cannot read debugfs aperture\n");
	vseg_debugfs_parse_aperture(text, s);
	free(text);
}

void vseg_debugfs_free_aperture(struct vseg_aperture_state *s)
{
	free(s->range);
	s->range = NULL;
	s->num_ranges = 0;
}

const struct vseg_aperture_range *
vseg_aperture_find(const struct vseg_aperture_state *s, uint64_t buffer_id)
{
	for (unsigned int i = 0; i < s->num_ranges; i++)
		if (s->range[i].buffer_id == buffer_id)
			return &s->range[i];
	return NULL;
}

unsigned int vseg_allocation_count(int fd)
{
	struct vseg_allocations a;
	unsigned int n;

	vseg_debugfs_read_allocations(fd, &a);
	n = a.num;
	vseg_debugfs_free_allocations(&a);
	return n;
}

/* --- a test's device, segment table and starting point ----------------- */

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
	vseg_ctx_close(ctx);
	free(ctx->segs);
	ctx->segs = NULL;
	vseg_ctx_reload(ctx, profile);
	vseg_ctx_query(ctx);
	vseg_ctx_take_base(ctx);
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

void vseg_ctx_finish(struct vseg_ctx *ctx, unsigned int timeout_ms,
		     const char *what)
{
	struct timespec start = {};
	struct vseg_allocations a;

	vseg_usage_wait(ctx->fd, &ctx->base_usage, timeout_ms, what);
	/*
	 * TTM destroys a closed buffer a little after its memory is
	 * uncharged (deferred destruction of busy buffers): give the
	 * listing the same time.
	 */
	igt_gettime(&start);
	for (;;) {
		vseg_debugfs_read_allocations(ctx->fd, &a);
		if (leftovers_ok(ctx, &a) ||
		    igt_nsec_elapsed(&start) >= timeout_ms * 1000000ull)
			break;
		vseg_debugfs_free_allocations(&a);
		usleep(10000);
	}
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

bool vseg_ctx_is_memory(const struct vseg_ctx *ctx, uint32_t id)
{
	return id &&
	       vseg_ctx_seg(ctx, id)->kind == DRM_VSEG_SEGMENT_KIND_MEMORY;
}

const char *vseg_ctx_seg_name(const struct vseg_ctx *ctx, uint32_t id)
{
	return id ? vseg_ctx_seg(ctx, id)->name : "system";
}

uint32_t vseg_test_seed(uint32_t fallback)
{
	const char *env = getenv("VSEG_SEED");
	uint32_t seed;

	seed = env ? strtoul(env, NULL, 0) : fallback;
	igt_info("seed %u (set VSEG_SEED to repeat)\n", seed);
	return seed;
}
