// SPDX-License-Identifier: MIT
/*
 * The segment query (DRM_IOCTL_VSEG_QUERY_SEGMENTS), the segments of a
 * queried table and the rules every queried table obeys.
 *
 * Copyright (c) 2026 The vseg authors
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "igt.h"
#include "igt_vseg.h"

#define F(x) DRM_VSEG_SEGMENT_##x

int __vseg_device_query(int fd, uint32_t query, void *data, uint32_t *size)
{
	struct drm_vseg_device_query q = {
		.query = query,
		.size = *size,
		.data = (uintptr_t)data,
	};
	int err = __vseg_ioctl(fd, DRM_IOCTL_VSEG_DEVICE_QUERY, &q);

	if (!err)
		*size = q.size;
	return err;
}

void *vseg_device_query(int fd, uint32_t query, uint32_t *size)
{
	uint32_t len = 0, got;
	void *buf;
	int err;

	err = __vseg_device_query(fd, query, NULL, &len);
	igt_assert_f(err == 0, "DEVICE_QUERY %u, size call: %d (%s)\n", query,
		     err, strerror(-err));
	igt_assert_f(len, "DEVICE_QUERY %u: size 0\n", query);
	buf = malloc(len);
	igt_assert(buf);
	got = len;
	err = __vseg_device_query(fd, query, buf, &got);
	igt_assert_f(err == 0, "DEVICE_QUERY %u, fill call: %d (%s)\n", query,
		     err, strerror(-err));
	igt_assert_f(got == len, "DEVICE_QUERY %u: size %u, then %u\n", query,
		     len, got);
	*size = len;
	return buf;
}

int __vseg_query_segments(int fd, struct drm_vseg_query_segments *q)
{
	return __vseg_ioctl(fd, DRM_IOCTL_VSEG_QUERY_SEGMENTS, q);
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
	return ((1u << (q->num_segments + 1)) - 1) & ~1u;
}

uint32_t vseg_system_set(int fd)
{
	struct drm_vseg_query_segments q;
	struct drm_vseg_segment_info *segs = vseg_query_all(fd, &q);
	uint32_t set = 1u << vseg_aperture_id(&q, segs);

	free(segs);
	return set;
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
	uint64_t host_page = sysconf(_SC_PAGESIZE);

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
		igt_assert_f(!(f & ~VSEG_SEGMENT_FLAGS_KNOWN),
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
		igt_assert_f(s->size && !(s->size % s->page_size) &&
			     !(s->size % host_page),
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
		if (ap) {
			igt_assert_f(!s->cpu_visible_size &&
				     !s->cpu_translated_address,
				     "aperture: visible size %#llx, CPU address %#llx\n",
				     (unsigned long long)s->cpu_visible_size,
				     (unsigned long long)s->cpu_translated_address);
		} else if (f & F(CPU_VISIBLE)) {
			igt_assert_f(s->cpu_visible_size &&
				     s->cpu_visible_size <= s->size,
				     "segment %u: CPU-visible size %#llx\n",
				     s->id,
				     (unsigned long long)s->cpu_visible_size);
			igt_assert_f(s->cpu_translated_address &&
				     !(s->cpu_translated_address % host_page) &&
				     s->cpu_visible_size - 1 <=
				     UINT64_MAX - s->cpu_translated_address,
				     "segment %u: CPU address %#llx, visible size %#llx\n",
				     s->id,
				     (unsigned long long)s->cpu_translated_address,
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
		if (!ap && (f & F(SUPPORTS_CPU_HOST_APERTURE)))
			igt_assert_f(s->cpu_host_aperture_size &&
				     !(s->cpu_host_aperture_size % host_page) &&
				     s->cpu_host_aperture_size <= s->size &&
				     s->cpu_host_aperture_address &&
				     !(s->cpu_host_aperture_address % host_page) &&
				     s->cpu_host_aperture_size - 1 <=
				     UINT64_MAX - s->cpu_host_aperture_address,
				     "segment %u: CPU host aperture %#llx+%#llx\n",
				     s->id,
				     (unsigned long long)s->cpu_host_aperture_address,
				     (unsigned long long)s->cpu_host_aperture_size);
		else
			igt_assert_f(!s->cpu_host_aperture_size &&
				     !s->cpu_host_aperture_address,
				     "segment %u: CPU host aperture %#llx+%#llx without SupportsCpuHostAperture\n",
				     s->id,
				     (unsigned long long)s->cpu_host_aperture_address,
				     (unsigned long long)s->cpu_host_aperture_size);

		if (f & F(USE_BANKING))
			igt_assert_f(s->num_banks >= 1 &&
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

/*
 * Idle usage: zero, but for the paging buffer when it is in the aperture
 * (@kernel bytes, committed and GART-mapped from load to unload).
 */
static void check_usage_idle(const struct drm_vseg_segment_usage *u,
			     unsigned int id, uint64_t kernel)
{
	igt_assert_f(u->committed == kernel && !u->resident && !u->evicted &&
		     u->aperture_mapped == kernel,
		     "segment %u: usage committed=%llu resident=%llu evicted=%llu mapped=%llu, expected %llu committed and mapped (the paging buffer), the rest zero\n",
		     id, (unsigned long long)u->committed,
		     (unsigned long long)u->resident,
		     (unsigned long long)u->evicted,
		     (unsigned long long)u->aperture_mapped,
		     (unsigned long long)kernel);
	for (unsigned int r = 0; r < 4; r++)
		igt_assert_f(!u->reserved[r],
			     "segment %u: usage.reserved[%u] = %#llx\n", id, r,
			     (unsigned long long)u->reserved[r]);
}

uint64_t vseg_paging_buffer_commit(const struct drm_vseg_query_segments *q,
				   uint32_t id)
{
	const uint64_t page = 4096;

	if (!id || q->paging_buffer_segment_id != id)
		return 0;
	return (q->paging_buffer_size + page - 1) / page * page;
}

void vseg_check_usage_zero(const struct drm_vseg_query_segments *q,
			   const struct drm_vseg_segment_info *segs)
{
	check_usage_idle(&q->system_usage, 0, 0);
	for (unsigned int i = 0; i < q->num_segments; i++)
		check_usage_idle(&segs[i].usage, segs[i].id,
				 vseg_paging_buffer_commit(q, segs[i].id));
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
	"PopulatedByReservedDDRByFirmware",
};

const char *vseg_flag_name(unsigned int bit)
{
	if (bit >= sizeof(flag_names) / sizeof(flag_names[0]))
		return NULL;
	return flag_names[bit];
}
