// SPDX-License-Identifier: MIT
/*
 * vseg-info: the segment table of every vseg device, with live usage,
 * without root.
 *
 *   vseg-info [--device PATH] [--json] [--watch SECONDS [--count N]]
 *
 * It finds vseg's DRM nodes with drmGetDevices2() (render nodes first, a
 * card node only for a device without one) and keeps those whose driver,
 * by DRM_IOCTL_VERSION, is "vseg"; --device reads one node instead. For
 * each device it prints what DRM_IOCTL_VSEG_QUERY_SEGMENTS returns: the
 * paging buffer, the implicit system segment's usage, and each segment with
 * its kind, flag names (WDDM's DXGK_SEGMENTFLAGS names), addresses, sizes,
 * banks, invalid ranges and usage; then what DRM_IOCTL_VSEG_DEVICE_QUERY
 * returns: the UAPI version, the engines (id, name, addressing, whether
 * SUBMIT takes them), the display heads (which are on) and the limits. On
 * a vseg without DEVICE_QUERY (before 0.4: -EINVAL or -ENOTTY) a note on
 * stderr says so and the rest is printed without them (in JSON:
 * "device_query": false and null in their place). --json prints the same
 * as one JSON document (numbers
 * as JSON numbers, every byte count in bytes), for scripts; --watch prints a
 * report every SECONDS seconds (--count N: N reports, then exit).
 *
 * Exit status: 0 on success, 1 when no vseg device could be read (none
 * found, PATH not a vseg node, an ioctl failed), 2 on a usage error.
 *
 * Copyright (c) 2026 The vseg authors
 */

#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <inttypes.h>
#include <limits.h>
#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <time.h>
#include <unistd.h>

#include <xf86drm.h>

#include "vseg_drm.h"

#define PROG "vseg-info"
#define MAX_DEVICES 64

/* WDDM's names of DXGK_SEGMENTFLAGS, in bit order (DRM_VSEG_SEGMENT_*). */
static const char * const flag_names[] = {
	"Aperture", "Agp", "CpuVisible", "UseBanking", "CacheCoherent",
	"PitchAlignment", "PopulatedFromSystemMemory",
	"PreservedDuringStandby", "PreservedDuringHibernate",
	"PartiallyPreservedDuringHibernate", "DirectFlip", "Use64KBPages",
	"ReservedSysMem", "SupportsCpuHostAperture",
	"SupportsCachedCpuHostAperture", "ApplicationTarget", "VprSupported",
	"VprPreservedDuringStandby", "EncryptedPagingSupported",
	"LocalBudgetGroup", "NonLocalBudgetGroup",
	"PopulatedByReservedDDRByFirmware",
};
#define NUM_FLAG_NAMES (sizeof(flag_names) / sizeof(flag_names[0]))

struct device {
	char path[PATH_MAX];
	char version[64];
	struct drm_vseg_query_segments q;
	struct drm_vseg_segment_info *segs;
	/* DRM_IOCTL_VSEG_DEVICE_QUERY's answers, if the kernel has it */
	bool have_dq;
	struct drm_vseg_query_version uapi;
	unsigned int num_engines;
	struct drm_vseg_engine_info *engines;
	unsigned int num_heads;
	struct drm_vseg_head_info *heads;
	struct drm_vseg_query_limits limits;
};

static bool json;

static void error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void error(const char *fmt, ...)
{
	va_list ap;

	fflush(stdout);
	fprintf(stderr, PROG ": ");
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

static void usage(FILE *f)
{
	fprintf(f,
		"usage: " PROG " [--device PATH] [--json] [--watch SECONDS [--count N]]\n"
		"  -d, --device PATH    read this DRM node (default: every vseg device,\n"
		"                       found with drmGetDevices2, render nodes first)\n"
		"  -j, --json           one JSON document per report, for scripts\n"
		"  -w, --watch SECONDS  a report every SECONDS seconds, until interrupted\n"
		"  -n, --count N        with --watch: stop after N reports\n"
		"  -h, --help           this text\n"
		"Exit status: 0 ok, 1 no vseg device could be read, 2 usage error.\n");
}

static const char *kind_name(uint32_t kind)
{
	switch (kind) {
	case DRM_VSEG_SEGMENT_KIND_MEMORY:
		return "memory";
	case DRM_VSEG_SEGMENT_KIND_APERTURE:
		return "aperture";
	default:
		return "unknown";
	}
}

/* A NUL-terminated copy of a segment name (the kernel's may fill all 16). */
static void seg_name(const struct drm_vseg_segment_info *s, char *buf)
{
	memcpy(buf, s->name, sizeof(s->name));
	buf[sizeof(s->name)] = '\0';
}

/* Is @fd a vseg node? Fills @version ("major.minor.patchlevel"). */
static int check_vseg(int fd, const char *path, char *version, size_t len,
		      bool quiet)
{
	drmVersionPtr v = drmGetVersion(fd);
	int ret = 0;

	if (!v) {
		if (!quiet)
			error("%s: not a DRM device (%s)", path, strerror(errno));
		return -1;
	}
	if (!v->name || strcmp(v->name, "vseg")) {
		if (!quiet)
			error("%s: not a vseg device (driver \"%s\")", path,
			      v->name ? v->name : "");
		ret = -1;
	} else {
		snprintf(version, len, "%d.%d.%d", v->version_major,
			 v->version_minor, v->version_patchlevel);
	}
	drmFreeVersion(v);
	return ret;
}

/* The two-call QUERY_SEGMENTS into @d: 0 or -errno. */
static int query(int fd, struct device *d)
{
	struct drm_vseg_query_segments q;
	struct drm_vseg_segment_info *segs = NULL;

	for (int tries = 0; tries < 4; tries++) {
		memset(&q, 0, sizeof(q));
		if (drmIoctl(fd, DRM_IOCTL_VSEG_QUERY_SEGMENTS, &q))
			return -errno;
		free(segs);
		segs = calloc(q.num_segments ? q.num_segments : 1, sizeof(*segs));
		if (!segs)
			return -ENOMEM;
		if (!q.num_segments)
			break;
		q.segment_size = sizeof(*segs);
		q.segments = (uintptr_t)segs;
		if (!drmIoctl(fd, DRM_IOCTL_VSEG_QUERY_SEGMENTS, &q))
			break;
		/* the table cannot grow, but never trust a count blindly */
		if (errno != EINVAL || tries == 3) {
			int err = -errno;

			free(segs);
			return err;
		}
	}
	free(d->segs);
	d->q = q;
	d->segs = segs;
	return 0;
}

/*
 * Both calls of DEVICE_QUERY @id: the result, malloc'ed, zero-filled up to
 * at least @min bytes, its size in *@len; NULL with -errno in *@err.
 */
static void *device_query(int fd, uint32_t id, size_t min, uint32_t *len,
			  int *err)
{
	for (int tries = 0; tries < 4; tries++) {
		struct drm_vseg_device_query q = { .query = id };
		uint32_t size;
		void *buf;

		if (drmIoctl(fd, DRM_IOCTL_VSEG_DEVICE_QUERY, &q)) {
			*err = -errno;
			return NULL;
		}
		size = q.size;
		if (!size || size > DRM_VSEG_DEVICE_QUERY_SIZE_MAX) {
			*err = -EPROTO;
			return NULL;
		}
		buf = calloc(1, size > min ? size : min);
		if (!buf) {
			*err = -ENOMEM;
			return NULL;
		}
		q.size = size;
		q.data = (uintptr_t)buf;
		if (drmIoctl(fd, DRM_IOCTL_VSEG_DEVICE_QUERY, &q)) {
			*err = -errno;
			free(buf);
			return NULL;
		}
		/* sizes are fixed while the device exists: never trust that */
		if (q.size == size) {
			*len = size;
			return buf;
		}
		free(buf);
	}
	*err = -EPROTO;
	return NULL;
}

/*
 * The @count elements of @elem_size bytes that follow a @hdr_size header in
 * @buf (@len bytes, at least @hdr_size), into a new array of @count
 * elements of @mine bytes: the smaller size of each copied, the rest zero.
 * NULL if @buf is short.
 */
static void *elements(const void *buf, uint32_t len, size_t hdr_size,
		      uint32_t count, uint32_t elem_size, size_t mine)
{
	const char *src = (const char *)buf + hdr_size;
	char *out;

	if (!elem_size || count > (len - hdr_size) / elem_size)
		return NULL;
	out = calloc(count ? count : 1, mine);
	if (!out)
		return NULL;
	for (uint32_t i = 0; i < count; i++)
		memcpy(out + i * mine, src + (size_t)i * elem_size,
		       elem_size < mine ? elem_size : mine);
	return out;
}

/* DEVICE_QUERY's version, engines, heads and limits into @d: 0 or -errno. */
static int device_queries(int fd, struct device *d)
{
	struct drm_vseg_query_engines *eh = NULL;
	struct drm_vseg_query_heads *hh = NULL;
	void *v = NULL, *l = NULL;
	uint32_t len;
	int err = 0;

	free(d->engines);
	free(d->heads);
	d->engines = NULL;
	d->heads = NULL;
	d->num_engines = d->num_heads = 0;
	d->have_dq = false;

	v = device_query(fd, DRM_VSEG_DEVICE_QUERY_VERSION, sizeof(d->uapi),
			 &len, &err);
	if (!v)
		return err;
	eh = device_query(fd, DRM_VSEG_DEVICE_QUERY_ENGINES, sizeof(*eh), &len, &err);
	if (!eh)
		goto out;
	if (len >= sizeof(*eh))
		d->engines = elements(eh, len, sizeof(*eh), eh->num_engines,
				      eh->engine_size, sizeof(*d->engines));
	if (!d->engines) {
		err = -EPROTO;
		goto out;
	}
	d->num_engines = eh->num_engines;
	hh = device_query(fd, DRM_VSEG_DEVICE_QUERY_HEADS, sizeof(*hh), &len, &err);
	if (!hh)
		goto out;
	if (len >= sizeof(*hh))
		d->heads = elements(hh, len, sizeof(*hh), hh->num_heads,
				    hh->head_size, sizeof(*d->heads));
	if (!d->heads) {
		err = -EPROTO;
		goto out;
	}
	d->num_heads = hh->num_heads;
	l = device_query(fd, DRM_VSEG_DEVICE_QUERY_LIMITS, sizeof(d->limits),
			 &len, &err);
	if (!l)
		goto out;
	memcpy(&d->uapi, v, sizeof(d->uapi));
	memcpy(&d->limits, l, sizeof(d->limits));
	d->have_dq = true;
out:
	free(v);
	free(eh);
	free(hh);
	free(l);
	return err;
}

/* Copy a node path into a PATH_MAX buffer: 0, or -1 if it does not fit. */
static int copy_path(char *dst, const char *src)
{
	size_t len = strlen(src);

	if (len >= PATH_MAX)
		return -1;
	memcpy(dst, src, len + 1);
	return 0;
}

static int read_device(const char *path, struct device *d, bool quiet)
{
	int fd, ret;

	fd = open(path, O_RDWR | O_CLOEXEC);
	if (fd < 0) {
		ret = -errno;
		error("%s: %s", path, strerror(-ret));
		return ret;
	}
	if (check_vseg(fd, path, d->version, sizeof(d->version), quiet)) {
		close(fd);
		return -ENODEV;
	}
	copy_path(d->path, path);
	ret = query(fd, d);
	if (ret) {
		error("%s: DRM_IOCTL_VSEG_QUERY_SEGMENTS: %s", path,
		      strerror(-ret));
		goto out;
	}
	ret = device_queries(fd, d);
	if (ret == -EINVAL || ret == -ENOTTY) {
		/* a vseg before 0.4: the segment table is all there is */
		error("%s: vseg %s has no DRM_IOCTL_VSEG_DEVICE_QUERY (%s): "
		      "no UAPI version, engines, heads or limits", path,
		      d->version, strerror(-ret));
		ret = 0;
	} else if (ret) {
		error("%s: DRM_IOCTL_VSEG_DEVICE_QUERY: %s", path,
		      strerror(-ret));
	}
out:
	close(fd);
	return ret;
}

/*
 * The nodes of vseg devices, one per device (its render node, else its
 * card node), into @paths: the count, or -1 after an error message.
 */
static int find_devices(char paths[][PATH_MAX], int max)
{
	drmDevicePtr devs[MAX_DEVICES];
	int n, found = 0, denied = 0;

	n = drmGetDevices2(0, devs, MAX_DEVICES);
	if (n == -ENOENT)	/* no /dev/dri at all */
		n = 0;
	if (n < 0) {
		error("drmGetDevices2: %s", strerror(-n));
		return -1;
	}
	for (int i = 0; i < n && found < max; i++) {
		static const int order[] = { DRM_NODE_RENDER, DRM_NODE_PRIMARY };

		for (unsigned int k = 0; k < 2; k++) {
			const char *node;
			char version[64];
			int fd;

			if (!(devs[i]->available_nodes & (1 << order[k])))
				continue;
			node = devs[i]->nodes[order[k]];
			fd = open(node, O_RDWR | O_CLOEXEC);
			if (fd < 0) {
				/* maybe vseg's: the next node may open */
				denied += errno == EACCES || errno == EPERM;
				continue;
			}
			if (!check_vseg(fd, node, version, sizeof(version), true) &&
			    !copy_path(paths[found], node))
				found++;
			close(fd);
			break;
		}
	}
	drmFreeDevices(devs, n);
	if (!found && denied)
		error("%d DRM node%s could not be opened: permission denied",
		      denied, denied == 1 ? "" : "s");
	return found;
}

/* ---- text ---------------------------------------------------------------- */

/* @v bytes as "N B", "N KiB", ... when exact, else with one decimal. */
static const char *human(uint64_t v, char *buf, size_t len)
{
	static const char * const unit[] = { "B", "KiB", "MiB", "GiB", "TiB" };
	unsigned int u = 0;
	uint64_t d = 1;

	while (u + 1 < sizeof(unit) / sizeof(unit[0]) && v >= d * 1024)
		d *= 1024, u++;
	if (v % d == 0)
		snprintf(buf, len, "%" PRIu64 " %s", v / d, unit[u]);
	else
		snprintf(buf, len, "%.1f %s", (double)v / (double)d, unit[u]);
	return buf;
}

static void text_usage_line(const char *what, const struct drm_vseg_segment_usage *u,
			    bool aperture)
{
	char a[32], b[32], c[32], m[32];

	printf("    %-9s committed %s, resident %s, evicted %s", what,
	       human(u->committed, a, sizeof(a)), human(u->resident, b, sizeof(b)),
	       human(u->evicted, c, sizeof(c)));
	if (aperture)
		printf(", GART mapped %s", human(u->aperture_mapped, m, sizeof(m)));
	printf("\n");
}

/* The name of an engine as NUL-terminated string (the kernel's may fill all). */
static void engine_name(const struct drm_vseg_engine_info *e, char *buf)
{
	memcpy(buf, e->name, sizeof(e->name));
	buf[sizeof(e->name)] = '\0';
}

static const char *addressing(uint32_t flags)
{
	if (flags & DRM_VSEG_ENGINE_INFO_VIRTUAL)
		return flags & DRM_VSEG_ENGINE_INFO_PHYSICAL ? "both" : "virtual";
	return flags & DRM_VSEG_ENGINE_INFO_PHYSICAL ? "physical" : "none";
}

#define LIMITS(X) \
	X(max_segments) X(max_banks) X(max_invalid_ranges) X(max_preferred) \
	X(max_hinted_banks) X(max_residency_handles) X(max_cmd_bytes) \
	X(max_allocations) X(max_patches) X(max_syncs) X(max_jobs_in_flight) \
	X(max_vm_mappings) X(max_extensions) X(num_heads) \
	X(pin_limit_percent) X(sync_size_max) X(va_size) X(va_alignment) \
	X(pin_user_limit_percent) X(pin_device_limit_percent)

static void print_text_dq(const struct device *d)
{
	const struct drm_vseg_query_limits *l = &d->limits;
	char name[sizeof(d->engines->name) + 1], a[32], b[32];
	unsigned int on = 0;

	printf("  UAPI version: %u.%u.%u\n", d->uapi.major, d->uapi.minor,
	       d->uapi.patchlevel);
	printf("  engines:\n");
	for (unsigned int i = 0; i < d->num_engines; i++) {
		const struct drm_vseg_engine_info *e = &d->engines[i];

		engine_name(e, name);
		printf("    engine %u \"%s\": %s addressing, %s (flags 0x%x)\n",
		       e->id, name, addressing(e->flags),
		       e->flags & DRM_VSEG_ENGINE_INFO_SUBMIT ?
		       "takes SUBMIT" : "kernel only", e->flags);
	}
	printf("  display heads: %u,", d->num_heads);
	for (unsigned int i = 0; i < d->num_heads; i++) {
		if (!(d->heads[i].flags & DRM_VSEG_HEAD_ACTIVE))
			continue;
		printf(" %s%u", on ? "" : "on: ", d->heads[i].id);
		on++;
	}
	printf("%s (which buffer each shows is in debugfs)\n",
	       on ? "" : " none on");
	printf("  limits:   %u segments, %u banks, %u invalid ranges, %u preferred, "
	       "%u hinted banks\n", l->max_segments, l->max_banks,
	       l->max_invalid_ranges, l->max_preferred, l->max_hinted_banks);
	printf("            SUBMIT: %s commands, %u allocations, %u patches, "
	       "%u syncs (%u B each at most), %u jobs in flight\n",
	       human(l->max_cmd_bytes, a, sizeof(a)), l->max_allocations,
	       l->max_patches, l->max_syncs, l->sync_size_max,
	       l->max_jobs_in_flight);
	printf("            %u residency handles, %u extensions, pins up to "
	       "%u%% of a segment per process, %u%% per user, %u%% in all\n",
	       l->max_residency_handles, l->max_extensions,
	       l->pin_limit_percent, l->pin_user_limit_percent,
	       l->pin_device_limit_percent);
	printf("            GPU VA: %s, %u mappings, alignment %s\n",
	       human(l->va_size, a, sizeof(a)), l->max_vm_mappings,
	       human(l->va_alignment, b, sizeof(b)));
}

static void print_text(const struct device *d)
{
	const struct drm_vseg_query_segments *q = &d->q;
	char a[32], b[32], c[32], name[sizeof(d->segs->name) + 1];

	printf("%s: vseg %s, %u segment%s\n", d->path, d->version,
	       q->num_segments, q->num_segments == 1 ? "" : "s");
	printf("  paging buffer: %s in %s (segment %u), private data %u B\n",
	       human(q->paging_buffer_size, a, sizeof(a)),
	       q->paging_buffer_segment_id ? "the aperture" : "system memory",
	       q->paging_buffer_segment_id, q->paging_buffer_private_data_size);
	printf("  segment 0 \"system\" (implicit)\n");
	text_usage_line("usage:", &q->system_usage, false);

	for (unsigned int i = 0; i < q->num_segments; i++) {
		const struct drm_vseg_segment_info *s = &d->segs[i];
		bool first = true;

		seg_name(s, name);
		printf("  segment %u \"%s\": %s, %s, %s pages\n", s->id, name,
		       kind_name(s->kind), human(s->size, a, sizeof(a)),
		       human(s->page_size, b, sizeof(b)));
		printf("    flags:    0x%" PRIx64 " (", (uint64_t)s->flags);
		for (unsigned int bit = 0; bit < 64; bit++) {
			if (!(s->flags & (1ull << bit)))
				continue;
			if (bit < NUM_FLAG_NAMES)
				printf("%s%s", first ? "" : " ", flag_names[bit]);
			else
				printf("%sbit%u", first ? "" : " ", bit);
			first = false;
		}
		printf("%s)\n", first ? "none" : "");
		printf("    address:  GPU 0x%" PRIx64 "-0x%" PRIx64,
		       (uint64_t)s->base_address,
		       (uint64_t)(s->base_address + s->size - 1));
		if (s->cpu_translated_address)
			printf(", CPU 0x%" PRIx64, (uint64_t)s->cpu_translated_address);
		printf("\n");
		printf("    sizes:    CPU-visible %s, commit limit %s",
		       human(s->cpu_visible_size, a, sizeof(a)),
		       human(s->commit_limit, b, sizeof(b)));
		if (s->system_memory_end_address)
			printf(", system memory end 0x%" PRIx64,
			       (uint64_t)s->system_memory_end_address);
		printf("\n");
		if (s->num_banks) {
			uint64_t start = 0;

			printf("    banks:   ");
			for (unsigned int k = 0; k < s->num_banks &&
			     k < DRM_VSEG_MAX_BANKS; k++) {
				printf(" %u:[%s,%s)", k, human(start, a, sizeof(a)),
				       human(s->bank_end[k], b, sizeof(b)));
				start = s->bank_end[k];
			}
			printf("\n");
		}
		for (unsigned int k = 0; k < s->num_invalid_ranges &&
		     k < DRM_VSEG_MAX_INVALID_RANGES; k++)
			printf("    invalid:  %s at offset %s\n",
			       human(s->invalid_ranges[k].size, c, sizeof(c)),
			       human(s->invalid_ranges[k].start, a, sizeof(a)));
		text_usage_line("usage:", &s->usage,
				s->kind == DRM_VSEG_SEGMENT_KIND_APERTURE);
	}
	if (!d->have_dq) {
		printf("  engines, heads, limits: not reported (no DRM_IOCTL_VSEG_DEVICE_QUERY)\n");
		return;
	}
	print_text_dq(d);
}

/* ---- JSON ---------------------------------------------------------------- */

static void json_string(const char *s)
{
	putchar('"');
	for (; *s; s++) {
		unsigned char c = *s;

		if (c == '"' || c == '\\')
			printf("\\%c", c);
		else if (c < 0x20 || c >= 0x7f)
			printf("\\u%04x", c);
		else
			putchar(c);
	}
	putchar('"');
}

static void json_usage(const char *indent, const struct drm_vseg_segment_usage *u)
{
	printf("{\n%s  \"committed\": %" PRIu64 ",\n", indent, (uint64_t)u->committed);
	printf("%s  \"resident\": %" PRIu64 ",\n", indent, (uint64_t)u->resident);
	printf("%s  \"evicted\": %" PRIu64 ",\n", indent, (uint64_t)u->evicted);
	printf("%s  \"aperture_mapped\": %" PRIu64 "\n%s}", indent,
	       (uint64_t)u->aperture_mapped, indent);
}

static void json_segment(const struct drm_vseg_segment_info *s)
{
	const char *in = "          ";
	char name[sizeof(s->name) + 1];
	bool first = true;

	seg_name(s, name);
	printf("        {\n%s\"id\": %u,\n%s\"name\": ", in, s->id, in);
	json_string(name);
	printf(",\n%s\"kind\": \"%s\",\n", in, kind_name(s->kind));
	printf("%s\"flags\": %" PRIu64 ",\n%s\"flag_names\": [", in,
	       (uint64_t)s->flags, in);
	for (unsigned int bit = 0; bit < 64; bit++) {
		if (!(s->flags & (1ull << bit)))
			continue;
		if (bit < NUM_FLAG_NAMES)
			printf("%s\"%s\"", first ? "" : ", ", flag_names[bit]);
		else
			printf("%s\"bit%u\"", first ? "" : ", ", bit);
		first = false;
	}
	printf("],\n");
	printf("%s\"base_address\": %" PRIu64 ",\n", in, (uint64_t)s->base_address);
	printf("%s\"cpu_translated_address\": %" PRIu64 ",\n", in,
	       (uint64_t)s->cpu_translated_address);
	printf("%s\"size\": %" PRIu64 ",\n", in, (uint64_t)s->size);
	printf("%s\"cpu_visible_size\": %" PRIu64 ",\n", in,
	       (uint64_t)s->cpu_visible_size);
	printf("%s\"commit_limit\": %" PRIu64 ",\n", in, (uint64_t)s->commit_limit);
	printf("%s\"system_memory_end_address\": %" PRIu64 ",\n", in,
	       (uint64_t)s->system_memory_end_address);
	printf("%s\"page_size\": %u,\n%s\"bank_end\": [", in, s->page_size, in);
	for (unsigned int k = 0; k < s->num_banks && k < DRM_VSEG_MAX_BANKS; k++)
		printf("%s%" PRIu64, k ? ", " : "", (uint64_t)s->bank_end[k]);
	printf("],\n%s\"invalid_ranges\": [", in);
	for (unsigned int k = 0; k < s->num_invalid_ranges &&
	     k < DRM_VSEG_MAX_INVALID_RANGES; k++)
		printf("%s{\"start\": %" PRIu64 ", \"size\": %" PRIu64 "}",
		       k ? ", " : "", (uint64_t)s->invalid_ranges[k].start,
		       (uint64_t)s->invalid_ranges[k].size);
	printf("],\n%s\"usage\": ", in);
	json_usage(in, &s->usage);
	printf("\n        }");
}

/* DEVICE_QUERY's part of a device object, without the last newline. */
static void json_dq(const struct device *d)
{
	const struct drm_vseg_query_limits *l = &d->limits;
	const char *sep = "";

	printf("      \"device_query\": %s,\n", d->have_dq ? "true" : "false");
	if (!d->have_dq) {
		printf("      \"uapi_version\": null,\n      \"engines\": null,\n"
		       "      \"heads\": null,\n      \"limits\": null");
		return;
	}
	printf("      \"uapi_version\": {\"major\": %u, \"minor\": %u, "
	       "\"patchlevel\": %u},\n", d->uapi.major, d->uapi.minor,
	       d->uapi.patchlevel);
	printf("      \"engines\": [");
	for (unsigned int i = 0; i < d->num_engines; i++) {
		const struct drm_vseg_engine_info *e = &d->engines[i];
		char name[sizeof(e->name) + 1];

		engine_name(e, name);
		printf("%s\n        {\"id\": %u, \"name\": ", i ? "," : "", e->id);
		json_string(name);
		printf(", \"flags\": %u, \"addressing\": \"%s\", \"submit\": %s}",
		       e->flags, addressing(e->flags),
		       e->flags & DRM_VSEG_ENGINE_INFO_SUBMIT ? "true" : "false");
	}
	printf("\n      ],\n      \"heads\": [");
	for (unsigned int i = 0; i < d->num_heads; i++)
		printf("%s\n        {\"id\": %u, \"flags\": %u, \"active\": %s}",
		       i ? "," : "", d->heads[i].id, d->heads[i].flags,
		       d->heads[i].flags & DRM_VSEG_HEAD_ACTIVE ? "true" : "false");
	printf("\n      ],\n      \"limits\": {");
#define JSON_LIMIT(f) \
	printf("%s\n        \"" #f "\": %" PRIu64, sep, (uint64_t)l->f); \
	sep = ",";
	LIMITS(JSON_LIMIT)
#undef JSON_LIMIT
	printf("\n      }");
}

static void print_json(const struct device *devs, int n)
{
	printf("{\n  \"devices\": [");
	for (int i = 0; i < n; i++) {
		const struct device *d = &devs[i];
		const struct drm_vseg_query_segments *q = &d->q;

		printf("%s\n    {\n      \"node\": ", i ? "," : "");
		json_string(d->path);
		printf(",\n      \"driver\": \"vseg\",\n      \"version\": ");
		json_string(d->version);
		printf(",\n      \"paging_buffer\": {\"segment_id\": %u, \"size\": %u, "
		       "\"private_data_size\": %u},\n",
		       q->paging_buffer_segment_id, q->paging_buffer_size,
		       q->paging_buffer_private_data_size);
		printf("      \"system_usage\": ");
		json_usage("      ", &q->system_usage);
		printf(",\n      \"segments\": [");
		for (unsigned int k = 0; k < q->num_segments; k++) {
			printf("%s\n", k ? "," : "");
			json_segment(&d->segs[k]);
		}
		printf("\n      ],\n");
		json_dq(d);
		printf("\n    }");
	}
	printf("%s]\n}\n", n ? "\n  " : "");
}

/* ---- main ---------------------------------------------------------------- */

static volatile sig_atomic_t stop;

static void on_signal(int sig)
{
	(void)sig;
	stop = 1;
}

/* A positive integer argument, or -1. */
static long parse_count(const char *s, long max)
{
	char *end;
	long v;

	errno = 0;
	v = strtol(s, &end, 10);
	if (errno || end == s || *end || v < 1 || v > max)
		return -1;
	return v;
}

/* One report of every device: 0, or 1 when none could be read. */
static int report(const char *device, struct device *devs)
{
	static char paths[MAX_DEVICES][PATH_MAX];
	int n = 0, ok = 0;

	if (device) {
		if (copy_path(paths[0], device)) {
			error("%s", strerror(ENAMETOOLONG));
			return 1;
		}
		n = 1;
	} else {
		n = find_devices(paths, MAX_DEVICES);
		if (n < 0)
			return 1;
		if (!n) {
			error("no vseg device found (is the vseg module loaded? "
			      "is /dev/dri/renderD* readable?)");
			return 1;
		}
	}
	for (int i = 0; i < n; i++) {
		struct device *d = &devs[ok];

		if (!read_device(paths[i], d, false))
			ok++;
	}
	if (!ok)
		return 1;
	if (json) {
		print_json(devs, ok);
	} else {
		for (int i = 0; i < ok; i++) {
			if (i)
				printf("\n");
			print_text(&devs[i]);
		}
	}
	fflush(stdout);
	return ok == n ? 0 : 1;
}

int main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "device", required_argument, NULL, 'd' },
		{ "json", no_argument, NULL, 'j' },
		{ "watch", required_argument, NULL, 'w' },
		{ "count", required_argument, NULL, 'n' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	static struct device devs[MAX_DEVICES];
	const char *device = NULL;
	long watch = 0, count = 0;
	int c, ret = 0;

	while ((c = getopt_long(argc, argv, "d:jw:n:h", opts, NULL)) != -1) {
		switch (c) {
		case 'd':
			device = optarg;
			break;
		case 'j':
			json = true;
			break;
		case 'w':
			watch = parse_count(optarg, 86400);
			if (watch < 0) {
				error("--watch: \"%s\" is not a number of seconds "
				      "from 1 to 86400", optarg);
				return 2;
			}
			break;
		case 'n':
			count = parse_count(optarg, LONG_MAX);
			if (count < 0) {
				error("--count: \"%s\" is not a positive number",
				      optarg);
				return 2;
			}
			break;
		case 'h':
			usage(stdout);
			return 0;
		default:
			usage(stderr);
			return 2;
		}
	}
	if (optind < argc) {
		error("unexpected argument \"%s\"", argv[optind]);
		usage(stderr);
		return 2;
	}
	if (count && !watch) {
		error("--count needs --watch");
		return 2;
	}

	if (!watch)
		return report(device, devs);

	signal(SIGINT, on_signal);
	signal(SIGTERM, on_signal);
	for (long i = 0; !stop && (!count || i < count); i++) {
		struct timespec t = { .tv_sec = watch };

		if (i) {
			while (nanosleep(&t, &t) && errno == EINTR && !stop)
				;
			if (stop)
				break;
			if (!json && !isatty(STDOUT_FILENO))
				printf("\n");
		}
		/* on a terminal, each report replaces the last */
		if (!json && isatty(STDOUT_FILENO))
			printf("\033[H\033[J");
		ret = report(device, devs);
		/* a device that went away ends the watch */
		if (ret)
			break;
	}
	return ret;
}
