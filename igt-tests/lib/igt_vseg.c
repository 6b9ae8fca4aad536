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
#include <sys/stat.h>
#include <sys/utsname.h>
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

static struct drm_vseg_segment_info *
set_segment(struct vseg_table *t, uint32_t kind, const char *name,
	    uint64_t flags, uint64_t base, uint64_t cpu, uint64_t size,
	    uint64_t visible, uint64_t commit, uint64_t sysend, uint32_t page)
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
		s = set_segment(t, MEMORY, "vram",
				F(CPU_VISIBLE) | F(USE_BANKING) |
				F(USE_64KB_PAGES),
				0, 0xe0000000, SZ_32M, SZ_32M, SZ_32M, 0,
				SZ_64K);
		s->num_banks = 2;
		s->bank_end[0] = SZ_16M;
		s->bank_end[1] = SZ_32M;
		set_segment(t, MEMORY, "local", 0, SZ_32M, 0, SZ_16M, 0, SZ_16M,
			    0, SZ_4K);
		set_segment(t, APERTURE, "aperture",
			    F(APERTURE) | F(CACHE_COHERENT), VSEG_APERTURE_BASE,
			    0, SZ_64M, 0, SZ_32M, 0, SZ_4K);
		t->paging_segment_id = 3;
	} else if (!strcmp(profile, "integrated")) {
		set_segment(t, MEMORY, "stolen",
			    F(CPU_VISIBLE) | F(POPULATED_FROM_SYSTEM_MEMORY),
			    0, 0xc0000000, SZ_32M, SZ_32M, SZ_32M, SZ_32M,
			    SZ_4K);
		set_segment(t, APERTURE, "aperture",
			    F(APERTURE) | F(CACHE_COHERENT), VSEG_APERTURE_BASE,
			    0, SZ_64M, 0, SZ_64M, 0, SZ_4K);
		t->paging_segment_id = 2;
	} else if (!strcmp(profile, "smallbar")) {
		set_segment(t, MEMORY, "vram",
			    F(CPU_VISIBLE) | F(USE_64KB_PAGES),
			    0, 0xe0000000, SZ_64M, SZ_16M, SZ_64M, 0, SZ_64K);
		set_segment(t, APERTURE, "aperture",
			    F(APERTURE) | F(CACHE_COHERENT), VSEG_APERTURE_BASE,
			    0, SZ_64M, 0, SZ_32M, 0, SZ_4K);
		t->paging_segment_id = 2;
	} else if (!strcmp(profile, "multi")) {
		for (unsigned int i = 1; i <= 6; i++) {
			char name[8];
			bool even = !(i & 1);

			snprintf(name, sizeof(name), "mem%u", i);
			set_segment(t, MEMORY, name,
				    (even ? F(USE_64KB_PAGES) : 0) |
				    (i == 1 ? F(CPU_VISIBLE) : 0),
				    (i - 1) * SZ_8M, i == 1 ? 0xe0000000 : 0,
				    SZ_8M, i == 1 ? SZ_8M : 0, SZ_8M, 0,
				    even ? SZ_64K : SZ_4K);
		}
		set_segment(t, APERTURE, "aperture",
			    F(APERTURE) | F(CACHE_COHERENT), VSEG_APERTURE_BASE,
			    0, SZ_32M, 0, SZ_32M, 0, SZ_4K);
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
