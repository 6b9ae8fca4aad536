// SPDX-License-Identifier: GPL-2.0-only
/*
 * Copyright (c) 2026 The vseg authors
 *
 * The segment table layer: built-in profiles, the text table parser and
 * the WDDM rules a table must follow. Pure logic: no TTM, no device.
 */

#define pr_fmt(fmt) "vseg: " fmt

#include <linux/bits.h>
#include <linux/build_bug.h>
#include <linux/ctype.h>
#include <linux/errno.h>
#include <linux/export.h>
#include <linux/kernel.h>
#include <linux/math64.h>
#include <linux/minmax.h>
#include <linux/mm.h>
#include <linux/printk.h>
#include <linux/sizes.h>
#include <linux/slab.h>
#include <linux/stdarg.h>
#include <linux/string.h>

#include <kunit/visibility.h>

#include "vseg_segment.h"

#define VSEG_APERTURE_BASE	0x100000000ULL
#define VSEG_PAGING_SIZE	SZ_64K

/* DXGK_SEGMENTFLAGS member names, in bit order. */
static const char * const vseg_segf_names[] = {
	"Aperture",
	"Agp",
	"CpuVisible",
	"UseBanking",
	"CacheCoherent",
	"PitchAlignment",
	"PopulatedFromSystemMemory",
	"PreservedDuringStandby",
	"PreservedDuringHibernate",
	"PartiallyPreservedDuringHibernate",
	"DirectFlip",
	"Use64KBPages",
	"ReservedSysMem",
	"SupportsCpuHostAperture",
	"SupportsCachedCpuHostAperture",
	"ApplicationTarget",
	"VprSupported",
	"VprPreservedDuringStandby",
	"EncryptedPagingSupported",
	"LocalBudgetGroup",
	"NonLocalBudgetGroup",
	"PopulatedByReservedDDRByFirmware",
};

static_assert(ARRAY_SIZE(vseg_segf_names) == VSEG_SEGF_NUM);

/* Short flag names of the text table, in bit order. */
static const char * const vseg_segf_keys[] = {
	"aperture",
	"agp",
	"cpuvisible",
	"banking",
	"cachecoherent",
	"pitchalignment",
	"populatedfromsystem",
	"standby",
	"hibernate",
	"partialhibernate",
	"directflip",
	"64kpages",
	"reservedsysmem",
	"cpuhostaperture",
	"cachedcpuhostaperture",
	"applicationtarget",
	"vpr",
	"vprstandby",
	"encryptedpaging",
	"localbudget",
	"nonlocalbudget",
	"reservedddr",
};

static_assert(ARRAY_SIZE(vseg_segf_keys) == VSEG_SEGF_NUM);

/**
 * vseg_segment_flag_name() - WDDM name of a segment flag
 * @bit: bit number of a VSEG_SEGF_* flag.
 *
 * Return: the DXGK_SEGMENTFLAGS member name, e.g. "CpuVisible", or NULL if
 * @bit is not a known flag.
 */
const char *vseg_segment_flag_name(unsigned int bit)
{
	if (bit >= VSEG_SEGF_NUM)
		return NULL;
	return vseg_segf_names[bit];
}
EXPORT_SYMBOL_IF_KUNIT(vseg_segment_flag_name);

/**
 * vseg_segment_kind_name() - name of a segment kind
 * @kind: the kind.
 *
 * Return: "memory", "aperture", or "unknown" for any other value.
 */
const char *vseg_segment_kind_name(enum vseg_segment_kind kind)
{
	switch (kind) {
	case VSEG_SEGMENT_MEMORY:
		return "memory";
	case VSEG_SEGMENT_APERTURE:
		return "aperture";
	}
	return "unknown";
}
EXPORT_SYMBOL_IF_KUNIT(vseg_segment_kind_name);

/**
 * vseg_segment_table_aperture() - the aperture segment of a table
 * @t: the table.
 *
 * Return: the first segment of kind %VSEG_SEGMENT_APERTURE, or NULL.
 */
const struct vseg_segment_desc *
vseg_segment_table_aperture(const struct vseg_segment_table *t)
{
	unsigned int i;

	for (i = 0; i < t->num_segments && i < VSEG_MAX_SEGMENTS; i++)
		if (t->seg[i].kind == VSEG_SEGMENT_APERTURE)
			return &t->seg[i];
	return NULL;
}
EXPORT_SYMBOL_IF_KUNIT(vseg_segment_table_aperture);

/**
 * vseg_segment_table_num_memory() - number of memory segments of a table
 * @t: the table.
 *
 * Return: how many segments have kind %VSEG_SEGMENT_MEMORY.
 */
unsigned int vseg_segment_table_num_memory(const struct vseg_segment_table *t)
{
	unsigned int i, n = 0;

	for (i = 0; i < t->num_segments && i < VSEG_MAX_SEGMENTS; i++)
		if (t->seg[i].kind == VSEG_SEGMENT_MEMORY)
			n++;
	return n;
}
EXPORT_SYMBOL_IF_KUNIT(vseg_segment_table_num_memory);

/* ------------------------------------------------------------------------
 * Built-in profiles
 */

struct vseg_profile_segment {
	const char *name;
	enum vseg_segment_kind kind;
	u64 flags;
	u64 base;
	u64 cpu;
	u64 size;
	u64 visible;
	u64 commit;		/* 0: the size */
	u64 sysend;
	u32 page;
	u32 num_banks;
	u64 bank_end[2];
};

struct vseg_profile {
	const char *name;
	u32 num_segments;
	struct vseg_profile_segment seg[VSEG_MAX_SEGMENTS];
	u32 paging_segment;
};

/* Every profile's aperture: cache-coherent 4 KiB pages at VSEG_APERTURE_BASE. */
#define PROFILE_APERTURE(_size, _commit) {				\
	.name = "aperture",						\
	.kind = VSEG_SEGMENT_APERTURE,					\
	.flags = VSEG_SEGF_APERTURE | VSEG_SEGF_CACHE_COHERENT,		\
	.base = VSEG_APERTURE_BASE,					\
	.size = _size,							\
	.commit = _commit,						\
	.page = SZ_4K,							\
}

static const struct vseg_profile vseg_profiles[] = {
	{
		.name = "discrete",
		.num_segments = 3,
		.seg = {
			{
				.name = "vram",
				.kind = VSEG_SEGMENT_MEMORY,
				.flags = VSEG_SEGF_CPU_VISIBLE |
					 VSEG_SEGF_USE_BANKING |
					 VSEG_SEGF_USE_64KB_PAGES,
				.base = 0,
				.cpu = 0xe0000000,
				.size = SZ_32M,
				.visible = SZ_32M,
				.page = SZ_64K,
				.num_banks = 2,
				.bank_end = { SZ_16M, SZ_32M },
			},
			{
				.name = "local",
				.kind = VSEG_SEGMENT_MEMORY,
				.base = SZ_32M,
				.size = SZ_16M,
				.page = SZ_4K,
			},
			PROFILE_APERTURE(SZ_64M, SZ_32M),
		},
		.paging_segment = 3,
	},
	{
		.name = "integrated",
		.num_segments = 2,
		.seg = {
			{
				.name = "stolen",
				.kind = VSEG_SEGMENT_MEMORY,
				.flags = VSEG_SEGF_CPU_VISIBLE |
					 VSEG_SEGF_POPULATED_FROM_SYSMEM,
				.base = 0,
				.cpu = 0xc0000000,
				.size = SZ_32M,
				.visible = SZ_32M,
				.sysend = SZ_32M,
				.page = SZ_4K,
			},
			PROFILE_APERTURE(SZ_64M, SZ_64M),
		},
		.paging_segment = 2,
	},
	{
		.name = "smallbar",
		.num_segments = 2,
		.seg = {
			{
				.name = "vram",
				.kind = VSEG_SEGMENT_MEMORY,
				.flags = VSEG_SEGF_CPU_VISIBLE |
					 VSEG_SEGF_USE_64KB_PAGES,
				.base = 0,
				.cpu = 0xe0000000,
				.size = SZ_64M,
				.visible = SZ_16M,
				.page = SZ_64K,
			},
			PROFILE_APERTURE(SZ_64M, SZ_32M),
		},
		.paging_segment = 2,
	},
	{
		.name = "multi",
		.num_segments = 7,
		.seg = {
			{
				.name = "mem1",
				.kind = VSEG_SEGMENT_MEMORY,
				.flags = VSEG_SEGF_CPU_VISIBLE,
				.base = 0,
				.cpu = 0xe0000000,
				.size = SZ_8M,
				.visible = SZ_8M,
				.page = SZ_4K,
			},
			{
				.name = "mem2",
				.kind = VSEG_SEGMENT_MEMORY,
				.flags = VSEG_SEGF_USE_64KB_PAGES,
				.base = 1 * SZ_8M,
				.size = SZ_8M,
				.page = SZ_64K,
			},
			{
				.name = "mem3",
				.kind = VSEG_SEGMENT_MEMORY,
				.base = 2 * SZ_8M,
				.size = SZ_8M,
				.page = SZ_4K,
			},
			{
				.name = "mem4",
				.kind = VSEG_SEGMENT_MEMORY,
				.flags = VSEG_SEGF_USE_64KB_PAGES,
				.base = 3 * SZ_8M,
				.size = SZ_8M,
				.page = SZ_64K,
			},
			{
				.name = "mem5",
				.kind = VSEG_SEGMENT_MEMORY,
				.base = 4 * SZ_8M,
				.size = SZ_8M,
				.page = SZ_4K,
			},
			{
				.name = "mem6",
				.kind = VSEG_SEGMENT_MEMORY,
				.flags = VSEG_SEGF_USE_64KB_PAGES,
				.base = 5 * SZ_8M,
				.size = SZ_8M,
				.page = SZ_64K,
			},
			PROFILE_APERTURE(SZ_32M, SZ_32M),
		},
		.paging_segment = 7,
	},
};

static void vseg_profile_fill(struct vseg_segment_desc *s, u32 id,
			      const struct vseg_profile_segment *ps)
{
	unsigned int i;

	s->id = id;
	s->kind = ps->kind;
	s->flags = ps->flags;
	s->base_address = ps->base;
	s->cpu_translated_address = ps->cpu;
	s->size = ps->size;
	s->cpu_visible_size = ps->visible;
	s->commit_limit = ps->commit ? ps->commit : ps->size;
	s->system_memory_end = ps->sysend;
	s->page_size = ps->page;
	s->num_banks = ps->num_banks;
	for (i = 0; i < ps->num_banks; i++)
		s->bank_end[i] = ps->bank_end[i];
	strscpy(s->name, ps->name, sizeof(s->name));
}

/*
 * A size that followed the old size (fully visible, fully populated from
 * system memory) follows the new one; a smaller one is clamped to it.
 */
static u64 vseg_follow_size(u64 val, u64 old_size, u64 new_size)
{
	if (val == old_size)
		return new_size;
	return min(val, new_size);
}

/* Resize a profile memory segment; its page size is a power of two. */
static void vseg_profile_resize(struct vseg_segment_desc *s, u64 size)
{
	u64 old = s->size;
	unsigned int i;

	if (s->num_banks) {
		/* Scale the bank ends, the last one is the segment end. */
		for (i = 0; i + 1 < s->num_banks; i++)
			s->bank_end[i] =
				round_down(mul_u64_u64_div_u64(s->bank_end[i],
							       size, old),
					   (u64)s->page_size);
		s->bank_end[s->num_banks - 1] = size;
	}
	s->cpu_visible_size = vseg_follow_size(s->cpu_visible_size, old, size);
	s->system_memory_end = vseg_follow_size(s->system_memory_end, old,
						size);
	s->size = size;
	s->commit_limit = size;
}

static int vseg_profile_apply(struct vseg_segment_table *t,
			      const struct vseg_profile *p,
			      const struct vseg_profile_overrides *ovr)
{
	unsigned int nmem = vseg_segment_table_num_memory(t);
	struct vseg_segment_desc *s, *ap = NULL;
	unsigned int i, m = 0;
	u64 base = 0;

	for (i = nmem; i < VSEG_MAX_MEMORY_SEGMENTS; i++) {
		if (ovr->mem_size[i]) {
			pr_err("profile \"%s\" has %u memory segments, cannot resize memory segment %u\n",
			       p->name, nmem, i + 1);
			return -EINVAL;
		}
	}

	for (i = 0; i < t->num_segments; i++) {
		s = &t->seg[i];
		if (s->kind == VSEG_SEGMENT_APERTURE) {
			if (!ap)
				ap = s;
			continue;
		}
		if (ovr->mem_size[m])
			vseg_profile_resize(s, ovr->mem_size[m]);
		if (m == 0 && ovr->visible_size &&
		    (s->flags & VSEG_SEGF_CPU_VISIBLE))
			s->cpu_visible_size = ovr->visible_size;
		m++;
	}

	if (ap && ovr->aperture_size) {
		ap->size = ovr->aperture_size;
		if (!ovr->aperture_commit)
			ap->commit_limit = min(ap->commit_limit, ap->size);
	}
	if (ap && ovr->aperture_commit)
		ap->commit_limit = ovr->aperture_commit;

	for (i = 0; i < t->num_segments; i++) {
		s = &t->seg[i];
		if (s->kind != VSEG_SEGMENT_MEMORY)
			continue;
		s->base_address = base;
		base += s->size;
	}
	return 0;
}

/**
 * vseg_segment_table_from_profile() - build a table from a built-in profile
 * @t: the table to fill.
 * @profile: "discrete", "integrated", "smallbar" or "multi".
 * @ovr: size overrides, or NULL for none.
 *
 * Fills @t with the profile's segments, then applies the nonzero fields of
 * @ovr: memory segment sizes (bank ends are scaled, a fully visible
 * segment stays fully visible, other visible sizes are clamped), the
 * CPU-visible size of the first memory segment if it is CPU-visible, the
 * aperture size (which clamps the commit limit) and commit limit. Memory
 * segments get consecutive GPU base addresses from 0. The result is not
 * validated: call vseg_segment_table_validate().
 *
 * Return: 0, or -EINVAL (with one line logged) for an unknown profile or a
 * size override of a memory segment the profile does not have.
 */
int vseg_segment_table_from_profile(struct vseg_segment_table *t,
				    const char *profile,
				    const struct vseg_profile_overrides *ovr)
{
	const struct vseg_profile *p = NULL;
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(vseg_profiles); i++) {
		if (profile && sysfs_streq(profile, vseg_profiles[i].name)) {
			p = &vseg_profiles[i];
			break;
		}
	}
	if (!p) {
		pr_err("unknown profile \"%s\" (known: discrete, integrated, smallbar, multi)\n",
		       profile ? profile : "");
		return -EINVAL;
	}

	memset(t, 0, sizeof(*t));
	t->num_segments = p->num_segments;
	for (i = 0; i < p->num_segments; i++)
		vseg_profile_fill(&t->seg[i], i + 1, &p->seg[i]);
	t->paging_buffer_segment_id = p->paging_segment;
	t->paging_buffer_size = VSEG_PAGING_SIZE;
	t->paging_buffer_private_data_size = 0;

	if (!ovr)
		return 0;
	return vseg_profile_apply(t, p, ovr);
}
EXPORT_SYMBOL_IF_KUNIT(vseg_segment_table_from_profile);

/* ------------------------------------------------------------------------
 * Text tables
 */

enum vseg_seg_key {
	VSEG_KEY_NAME,
	VSEG_KEY_SIZE,
	VSEG_KEY_PAGE,
	VSEG_KEY_VISIBLE,
	VSEG_KEY_COMMIT,
	VSEG_KEY_BASE,
	VSEG_KEY_CPU,
	VSEG_KEY_SYSEND,
	VSEG_KEY_BANKS,
	VSEG_KEY_INVALID,
	VSEG_KEY_FLAGS,
	VSEG_KEY_HOST_APERTURE,
	VSEG_KEY_HOST_ADDRESS,
	VSEG_KEY_VPR_START,
	VSEG_KEY_VPR_SIZE,
	VSEG_KEY_VPR_ALIGN,
	VSEG_KEY_VPR_COUNT,
	VSEG_KEY_VPR_RESERVE,
	VSEG_KEY_UEFI,
	VSEG_KEY_BAR,
};

static const char * const vseg_seg_keys[] = {
	[VSEG_KEY_NAME] = "name",
	[VSEG_KEY_SIZE] = "size",
	[VSEG_KEY_PAGE] = "page",
	[VSEG_KEY_VISIBLE] = "visible",
	[VSEG_KEY_COMMIT] = "commit",
	[VSEG_KEY_BASE] = "base",
	[VSEG_KEY_CPU] = "cpu",
	[VSEG_KEY_SYSEND] = "sysend",
	[VSEG_KEY_BANKS] = "banks",
	[VSEG_KEY_INVALID] = "invalid",
	[VSEG_KEY_FLAGS] = "flags",
	[VSEG_KEY_HOST_APERTURE] = "hostaperture",
	[VSEG_KEY_HOST_ADDRESS] = "hostaddr",
	[VSEG_KEY_VPR_START] = "vprstart",
	[VSEG_KEY_VPR_SIZE] = "vprsize",
	[VSEG_KEY_VPR_ALIGN] = "vpralign",
	[VSEG_KEY_VPR_COUNT] = "vprcount",
	[VSEG_KEY_VPR_RESERVE] = "vprreserve",
	[VSEG_KEY_UEFI] = "uefi",
	[VSEG_KEY_BAR] = "bar",
};

enum vseg_paging_key {
	VSEG_PKEY_SEG,
	VSEG_PKEY_SIZE,
	VSEG_PKEY_PRIV,
};

static const char * const vseg_paging_keys[] = {
	[VSEG_PKEY_SEG] = "seg",
	[VSEG_PKEY_SIZE] = "size",
	[VSEG_PKEY_PRIV] = "priv",
};

struct vseg_parser {
	struct vseg_segment_table *t;
	u64 mem_base;		/* default base of the next memory segment */
	bool have_paging;
	unsigned long paging_given;
};

static int vseg_parse_error(const char *tok, const char *why)
{
	pr_err("cannot parse segment table at \"%s\": %s\n", tok, why);
	return -EINVAL;
}

/* N := decimal or 0x hex, optional binary suffix K, M or G. */
static int vseg_parse_u64(const char *tok, u64 *out)
{
	size_t len = strlen(tok);
	unsigned int shift = 0, base = 10;
	char num[24];
	u64 val;
	int ret;

	if (len) {
		switch (tok[len - 1]) {
		case 'K':
		case 'k':
			shift = 10;
			break;
		case 'M':
		case 'm':
			shift = 20;
			break;
		case 'G':
		case 'g':
			shift = 30;
			break;
		}
	}
	if (shift)
		len--;
	if (!len || len >= sizeof(num))
		return vseg_parse_error(tok, "bad number");
	memcpy(num, tok, len);
	num[len] = '\0';

	if (num[0] == '0' && (num[1] == 'x' || num[1] == 'X')) {
		base = 16;
		if (!isxdigit(num[2]))
			return vseg_parse_error(tok, "bad number");
	} else if (!isdigit(num[0])) {
		return vseg_parse_error(tok, "bad number");
	}

	ret = kstrtoull(num, base, &val);
	if (ret == -ERANGE || (!ret && val > (U64_MAX >> shift)))
		return vseg_parse_error(tok, "number too large");
	if (ret)
		return vseg_parse_error(tok, "bad number");
	*out = val << shift;
	return 0;
}

static int vseg_parse_u32(const char *tok, u32 *out)
{
	u64 val;
	int ret;

	ret = vseg_parse_u64(tok, &val);
	if (ret)
		return ret;
	if (val > U32_MAX)
		return vseg_parse_error(tok, "number too large");
	*out = val;
	return 0;
}

/* banks=N/N/...: ends of banks 0..n-2; the last bank ends at the size. */
static int vseg_parse_banks(struct vseg_segment_desc *s, char *val)
{
	unsigned int n = 0;
	char *tok;
	int ret;

	while ((tok = strsep(&val, "/"))) {
		if (n >= VSEG_MAX_BANKS - 1)
			return vseg_parse_error(tok, "too many banks");
		ret = vseg_parse_u64(tok, &s->bank_end[n]);
		if (ret)
			return ret;
		n++;
	}
	s->num_banks = n + 1;
	return 0;
}

/* invalid=S+L/S+L/... and uefi=S+L/...: at most @max ranges. */
static int vseg_parse_ranges(struct vseg_range *ranges, u32 *num,
			     unsigned int max, const char *what, char *val)
{
	struct vseg_range *r;
	char *tok, *len;
	int ret;

	while ((tok = strsep(&val, "/"))) {
		if (*num >= max) {
			pr_err("cannot parse segment table at \"%s\": too many %s ranges\n",
			       tok, what);
			return -EINVAL;
		}
		len = tok;
		tok = strsep(&len, "+");
		if (!len)
			return vseg_parse_error(tok, "expected start+length");
		r = &ranges[*num];
		ret = vseg_parse_u64(tok, &r->start);
		if (ret)
			return ret;
		ret = vseg_parse_u64(len, &r->size);
		if (ret)
			return ret;
		(*num)++;
	}
	return 0;
}

/* bar=N or bar=N+OFFSET: the segment is that PCI BAR's memory. */
static int vseg_parse_bar(struct vseg_segment_desc *s, char *val)
{
	char *tok = strsep(&val, "+");
	int ret;

	ret = vseg_parse_u32(tok, &s->bar);
	if (ret)
		return ret;
	if (s->bar > VSEG_MAX_BAR)
		return vseg_parse_error(tok, "no such PCI BAR (0 to 5)");
	if (val) {
		ret = vseg_parse_u64(val, &s->bar_offset);
		if (ret)
			return ret;
	}
	s->on_bar = true;
	return 0;
}

/* flags=F|F|...: short names or WDDM names, any case. */
static int vseg_parse_flags(struct vseg_segment_desc *s, char *val)
{
	unsigned int bit;
	char *tok;

	while ((tok = strsep(&val, "|"))) {
		for (bit = 0; bit < VSEG_SEGF_NUM; bit++)
			if (!strcasecmp(tok, vseg_segf_keys[bit]) ||
			    !strcasecmp(tok, vseg_segf_names[bit]))
				break;
		if (bit == VSEG_SEGF_NUM)
			return vseg_parse_error(tok, "unknown flag");
		s->flags |= BIT_ULL(bit);
	}
	return 0;
}

static int vseg_parse_segment_value(struct vseg_segment_desc *s,
				    enum vseg_seg_key key, char *val)
{
	switch (key) {
	case VSEG_KEY_NAME:
		if (strlen(val) >= sizeof(s->name))
			return vseg_parse_error(val, "name longer than 15 characters");
		strscpy(s->name, val, sizeof(s->name));
		return 0;
	case VSEG_KEY_SIZE:
		return vseg_parse_u64(val, &s->size);
	case VSEG_KEY_PAGE:
		return vseg_parse_u32(val, &s->page_size);
	case VSEG_KEY_VISIBLE:
		return vseg_parse_u64(val, &s->cpu_visible_size);
	case VSEG_KEY_COMMIT:
		return vseg_parse_u64(val, &s->commit_limit);
	case VSEG_KEY_BASE:
		return vseg_parse_u64(val, &s->base_address);
	case VSEG_KEY_CPU:
		return vseg_parse_u64(val, &s->cpu_translated_address);
	case VSEG_KEY_SYSEND:
		return vseg_parse_u64(val, &s->system_memory_end);
	case VSEG_KEY_BANKS:
		return vseg_parse_banks(s, val);
	case VSEG_KEY_INVALID:
		return vseg_parse_ranges(s->invalid, &s->num_invalid,
					 VSEG_MAX_INVALID_RANGES, "invalid", val);
	case VSEG_KEY_FLAGS:
		return vseg_parse_flags(s, val);
	case VSEG_KEY_HOST_APERTURE:
		return vseg_parse_u64(val, &s->host_aperture_size);
	case VSEG_KEY_HOST_ADDRESS:
		return vseg_parse_u64(val, &s->host_aperture_address);
	case VSEG_KEY_VPR_START:
		return vseg_parse_u64(val, &s->vpr_start);
	case VSEG_KEY_VPR_SIZE:
		return vseg_parse_u64(val, &s->vpr_size);
	case VSEG_KEY_VPR_ALIGN:
		return vseg_parse_u32(val, &s->vpr_alignment);
	case VSEG_KEY_VPR_COUNT:
		return vseg_parse_u32(val, &s->num_vpr_supported);
	case VSEG_KEY_VPR_RESERVE:
		return vseg_parse_u32(val, &s->vpr_reserve_size);
	case VSEG_KEY_UEFI:
		return vseg_parse_ranges(s->uefi, &s->num_uefi,
					 VSEG_MAX_UEFI_RANGES, "uefi", val);
	case VSEG_KEY_BAR:
		return vseg_parse_bar(s, val);
	}
	return vseg_parse_error(val, "internal error");
}

/*
 * Split "key=value" at '='. Return the index of key in keys[], or a negative
 * error after logging.
 */
static int vseg_parse_key(char **kv, const char * const *keys, size_t n,
			  unsigned long *given)
{
	char *key = strsep(kv, "=");
	int idx;

	if (!*kv)
		return vseg_parse_error(key, "expected key=value");
	idx = match_string(keys, n, key);
	if (idx < 0)
		return vseg_parse_error(key, "unknown key");
	if (*given & BIT(idx))
		return vseg_parse_error(key, "duplicate key");
	*given |= BIT(idx);
	return idx;
}

static int vseg_parse_segment(struct vseg_parser *p,
			      enum vseg_segment_kind kind,
			      const char *kind_tok, char *kvs)
{
	struct vseg_segment_table *t = p->t;
	struct vseg_segment_desc *s;
	unsigned long given = 0;
	char *kv;
	int key, ret;
	bool agp;

	if (t->num_segments >= VSEG_MAX_SEGMENTS)
		return vseg_parse_error(kind_tok, "too many segments");
	s = &t->seg[t->num_segments];
	s->id = t->num_segments + 1;
	s->kind = kind;

	while ((kv = strsep(&kvs, ","))) {
		key = vseg_parse_key(&kv, vseg_seg_keys,
				     ARRAY_SIZE(vseg_seg_keys), &given);
		if (key < 0)
			return key;
		ret = vseg_parse_segment_value(s, key, kv);
		if (ret)
			return ret;
	}
	/*
	 * An Agp aperture's size is not the table's to give (WDDM allocates
	 * as much aperture as it can): it gets the default one, which a
	 * parameter may change (vseg_segment_table_size_agp()).
	 */
	if (s->on_bar && kind != VSEG_SEGMENT_MEMORY)
		return vseg_parse_error(kind_tok, "bar is for memory segments");
	agp = kind == VSEG_SEGMENT_APERTURE && (s->flags & VSEG_SEGF_AGP);
	if (agp)
		s->size = VSEG_AGP_DEFAULT_SIZE;
	else if (!(given & BIT(VSEG_KEY_SIZE)))
		return vseg_parse_error(kind_tok, "size is required");

	if (kind == VSEG_SEGMENT_APERTURE && !agp &&
	    !(s->flags & VSEG_SEGF_APERTURE))
		s->flags |= VSEG_SEGF_APERTURE;
	if (!(given & BIT(VSEG_KEY_PAGE)))
		s->page_size = s->flags & VSEG_SEGF_USE_64KB_PAGES ?
			       SZ_64K : SZ_4K;
	/* CpuVisible on the aperture is meaningless: keep its size 0. */
	if (!(given & BIT(VSEG_KEY_VISIBLE)) && kind == VSEG_SEGMENT_MEMORY &&
	    (s->flags & VSEG_SEGF_CPU_VISIBLE))
		s->cpu_visible_size = s->size;
	if (!(given & BIT(VSEG_KEY_COMMIT)))
		s->commit_limit = s->size;
	if (!(given & BIT(VSEG_KEY_BASE)))
		s->base_address = kind == VSEG_SEGMENT_MEMORY ?
				  p->mem_base : VSEG_APERTURE_BASE;
	if (kind == VSEG_SEGMENT_MEMORY)
		p->mem_base = s->base_address + s->size;
	if (!(given & BIT(VSEG_KEY_NAME))) {
		if (kind == VSEG_SEGMENT_MEMORY)
			snprintf(s->name, sizeof(s->name), "mem%u", s->id);
		else
			strscpy(s->name, "aperture", sizeof(s->name));
	}
	/* UseBanking without banks=: one bank, the whole segment. */
	if (!s->num_banks && kind == VSEG_SEGMENT_MEMORY &&
	    (s->flags & VSEG_SEGF_USE_BANKING))
		s->num_banks = 1;
	if (s->num_banks)
		s->bank_end[s->num_banks - 1] = s->size;

	t->num_segments++;
	return 0;
}

static int vseg_parse_paging(struct vseg_parser *p, const char *kind_tok,
			     char *kvs)
{
	struct vseg_segment_table *t = p->t;
	char *kv;
	int key, ret;

	if (p->have_paging)
		return vseg_parse_error(kind_tok, "more than one paging item");
	p->have_paging = true;

	while ((kv = strsep(&kvs, ","))) {
		key = vseg_parse_key(&kv, vseg_paging_keys,
				     ARRAY_SIZE(vseg_paging_keys),
				     &p->paging_given);
		if (key < 0)
			return key;
		switch (key) {
		case VSEG_PKEY_SEG:
			ret = vseg_parse_u32(kv, &t->paging_buffer_segment_id);
			break;
		case VSEG_PKEY_SIZE:
			ret = vseg_parse_u32(kv, &t->paging_buffer_size);
			break;
		default:
			ret = vseg_parse_u32(kv,
					     &t->paging_buffer_private_data_size);
			break;
		}
		if (ret)
			return ret;
	}
	return 0;
}

static int vseg_parse_item(struct vseg_parser *p, char *item)
{
	char *kind = strsep(&item, ":");

	/* "kind" and "kind:" both mean no key=value pairs. */
	if (item && !*item)
		item = NULL;

	if (!strcmp(kind, "memory"))
		return vseg_parse_segment(p, VSEG_SEGMENT_MEMORY, kind, item);
	if (!strcmp(kind, "aperture"))
		return vseg_parse_segment(p, VSEG_SEGMENT_APERTURE, kind, item);
	if (!strcmp(kind, "paging"))
		return vseg_parse_paging(p, kind, item);
	return vseg_parse_error(kind, "unknown kind");
}

/**
 * vseg_segment_table_parse() - build a table from its text description
 * @t: the table to fill.
 * @text: the description, e.g.
 *	"memory:name=vram,size=32M,flags=cpuvisible;aperture:size=64M".
 *	It is not modified.
 *
 * Items are separated by ';' (empty items are skipped); an item is
 * kind[:key=value[,key=value]...] with kind memory, aperture or paging.
 * A memory or aperture item becomes the next segment (ids from 1). Keys
 * left out get defaults: the page size follows the 64kpages flag, the
 * visible size is the size for a CPU-visible memory segment (0 on the
 * aperture), the commit limit is the size, a memory segment starts where
 * the previous one ends (the first at GPU address 0), the aperture sits
 * at 0x100000000 and gets the Aperture flag unless it has Aperture or
 * Agp. A CPU-visible memory segment gets no CPU-translated address: the
 * table must give it. A memory segment with the banking flag and no banks
 * key has one bank, the whole segment. An Agp aperture needs no size: whatever the table
 * says, it gets %VSEG_AGP_DEFAULT_SIZE, which
 * vseg_segment_table_size_agp() may change (WDDM ignores the Size of an
 * Agp aperture too). The paging buffer, with or without a paging item,
 * defaults to the first aperture (0 if none), 64 KiB (in the aperture: at
 * most its commit limit) and no private data.
 *
 * Only the syntax and the array capacities are checked: call
 * vseg_segment_table_validate() on the result, which is normalized
 * (vseg_segment_table_normalize(): an aperture's cpu key is ignored, a
 * memory segment's commit=0 is its size).
 *
 * Return: 0; -EINVAL with one line logged if @text cannot be parsed
 * (then @t holds a partial table); -ENOMEM.
 */
int vseg_segment_table_parse(struct vseg_segment_table *t, const char *text)
{
	struct vseg_parser p = { .t = t };
	const struct vseg_segment_desc *ap;
	unsigned int items = 0;
	char *buf, *cur, *item;
	int ret = 0;

	memset(t, 0, sizeof(*t));
	buf = kstrdup(text ? text : "", GFP_KERNEL);
	if (!buf)
		return -ENOMEM;

	cur = strim(buf);
	while ((item = strsep(&cur, ";"))) {
		if (!*item)
			continue;
		items++;
		ret = vseg_parse_item(&p, item);
		if (ret)
			goto out;
	}
	if (!items) {
		ret = vseg_parse_error(text ? text : "", "empty table");
		goto out;
	}

	if (!(p.paging_given & BIT(VSEG_PKEY_SEG))) {
		ap = vseg_segment_table_aperture(t);
		t->paging_buffer_segment_id = ap ? ap->id : 0;
	}
	if (!(p.paging_given & BIT(VSEG_PKEY_SIZE))) {
		/* In the aperture: at most what it may commit. */
		ap = t->paging_buffer_segment_id ?
		     vseg_segment_table_aperture(t) : NULL;
		t->paging_buffer_size = ap && ap->commit_limit < VSEG_PAGING_SIZE ?
					ap->commit_limit : VSEG_PAGING_SIZE;
	}
	vseg_segment_table_normalize(t);
out:
	kfree(buf);
	return ret;
}
EXPORT_SYMBOL_IF_KUNIT(vseg_segment_table_parse);

/**
 * vseg_segment_table_normalize() - apply what WDDM ignores or defaults
 * @t: the table.
 *
 * WDDM ignores the CpuTranslatedAddress of an aperture segment, the Agp
 * one included (DXGK_SEGMENTDESCRIPTOR): it is set to 0, which is what
 * QUERY_SEGMENTS, debugfs and vseg-info then report. DXGK_SEGMENTDESCRIPTOR4's
 * CommitLimit applies to the aperture only: a memory segment's 0 becomes
 * its size. Nothing else changes; vseg_segment_table_check() accepts a
 * table before and after. Safe on any table (only the first
 * %VSEG_MAX_SEGMENTS entries are looked at).
 */
void vseg_segment_table_normalize(struct vseg_segment_table *t)
{
	struct vseg_segment_desc *s;
	unsigned int i;

	for (i = 0; i < t->num_segments && i < VSEG_MAX_SEGMENTS; i++) {
		s = &t->seg[i];
		if (s->kind == VSEG_SEGMENT_APERTURE)
			s->cpu_translated_address = 0;
		else if (s->kind == VSEG_SEGMENT_MEMORY && !s->commit_limit)
			s->commit_limit = s->size;
	}
}
EXPORT_SYMBOL_IF_KUNIT(vseg_segment_table_normalize);

/**
 * vseg_segment_table_size_agp() - size an Agp aperture by parameter
 * @t: the table.
 * @size: the aperture's size in bytes, 0 for %VSEG_AGP_DEFAULT_SIZE.
 * @commit: its commit limit in bytes, 0 to keep the table's: a commit
 *	limit equal to the old size (the default) follows the new size, a
 *	lower one is clamped to it.
 *
 * WDDM ignores the Size of an Agp aperture segment and gives it as much
 * aperture space as it can; vseg gives it @size. Does nothing if @t has no
 * aperture or its aperture is not Agp. The result is not validated: call
 * vseg_segment_table_validate().
 */
void vseg_segment_table_size_agp(struct vseg_segment_table *t, u64 size,
				 u64 commit)
{
	struct vseg_segment_desc *ap = NULL;
	unsigned int i;

	for (i = 0; i < t->num_segments && i < VSEG_MAX_SEGMENTS; i++) {
		if (t->seg[i].kind == VSEG_SEGMENT_APERTURE) {
			ap = &t->seg[i];
			break;
		}
	}
	if (!ap || !(ap->flags & VSEG_SEGF_AGP))
		return;

	if (!size)
		size = VSEG_AGP_DEFAULT_SIZE;
	ap->commit_limit = commit ? commit :
			   vseg_follow_size(ap->commit_limit, ap->size, size);
	ap->size = size;
}
EXPORT_SYMBOL_IF_KUNIT(vseg_segment_table_size_agp);

/* ------------------------------------------------------------------------
 * Validation
 */

/*
 * Record the first broken rule in @err: @segment is the id of the segment
 * that breaks it, 0 for the table as a whole.
 */
static __printf(4, 5) int vseg_table_fail(struct vseg_table_error *err,
					  u32 segment,
					  enum vseg_table_rule rule,
					  const char *fmt, ...)
{
	va_list args;

	err->segment = segment;
	err->rule = rule;
	va_start(args, fmt);
	vsnprintf(err->msg, sizeof(err->msg), fmt, args);
	va_end(args);
	return -EINVAL;
}

/* Do [a, a + alen) and [b, b + blen) intersect? Safe against overflow. */
static bool vseg_ranges_overlap(u64 a, u64 alen, u64 b, u64 blen)
{
	if (!alen || !blen)
		return false;
	return a >= b ? a - b < blen : b - a < alen;
}

/* Is @val a multiple of @align? Everything is of 0 (no alignment). */
static bool vseg_multiple_of(u64 val, u32 align)
{
	u32 rem;

	if (!align)
		return true;
	div_u64_rem(val, align, &rem);
	return !rem;
}

static bool vseg_name_ok(const char *name)
{
	size_t i, len = strnlen(name, VSEG_NAME_LEN);
	char c;

	if (!len || len == VSEG_NAME_LEN)
		return false;
	for (i = 0; i < len; i++) {
		c = name[i];
		if (!(c >= 'a' && c <= 'z') && !(c >= '0' && c <= '9') &&
		    c != '_')
			return false;
	}
	return true;
}

static int vseg_validate_flags(const struct vseg_segment_desc *s,
			       struct vseg_table_error *err)
{
	bool is_ap = s->kind == VSEG_SEGMENT_APERTURE;
	u64 f = s->flags;
	u32 id = s->id;

	if (f & ~VSEG_SEGF_ALL)
		return vseg_table_fail(err, id, VSEG_RULE_UNKNOWN_FLAGS,
				       "unknown flags 0x%llx",
				       f & ~VSEG_SEGF_ALL);
	if ((f & VSEG_SEGF_AGP) && f != VSEG_SEGF_AGP)
		return vseg_table_fail(err, id, VSEG_RULE_AGP_ALONE,
				       "Agp must be set alone");
	if ((f & VSEG_SEGF_PRESERVED_HIBERNATE) &&
	    !(f & VSEG_SEGF_PRESERVED_STANDBY))
		return vseg_table_fail(err, id,
				       VSEG_RULE_HIBERNATE_NEEDS_STANDBY,
				       "PreservedDuringHibernate needs PreservedDuringStandby");
	if ((f & VSEG_SEGF_PARTIALLY_PRESERVED_HIBERNATE) &&
	    !(f & VSEG_SEGF_PRESERVED_STANDBY))
		return vseg_table_fail(err, id,
				       VSEG_RULE_PARTIAL_HIBERNATE_NEEDS_STANDBY,
				       "PartiallyPreservedDuringHibernate needs PreservedDuringStandby");
	if ((f & VSEG_SEGF_PRESERVED_HIBERNATE) &&
	    (f & VSEG_SEGF_PARTIALLY_PRESERVED_HIBERNATE))
		return vseg_table_fail(err, id, VSEG_RULE_HIBERNATE_EXCLUSIVE,
				       "PreservedDuringHibernate and PartiallyPreservedDuringHibernate exclude each other");
	if ((f & VSEG_SEGF_CACHE_COHERENT) && !is_ap)
		return vseg_table_fail(err, id, VSEG_RULE_CACHE_COHERENT,
				       "CacheCoherent is only valid on the aperture");
	if ((f & VSEG_SEGF_POPULATED_FROM_SYSMEM) && is_ap)
		return vseg_table_fail(err, id, VSEG_RULE_POPULATED_FROM_SYSMEM,
				       "PopulatedFromSystemMemory is only valid on a memory segment");
	if ((f & VSEG_SEGF_CPU_HOST_APERTURE) && (f & VSEG_SEGF_CPU_VISIBLE))
		return vseg_table_fail(err, id, VSEG_RULE_CPU_HOST_APERTURE,
				       "SupportsCpuHostAperture cannot be combined with CpuVisible");
	if ((f & VSEG_SEGF_CACHED_CPU_HOST_APERTURE) &&
	    !(f & VSEG_SEGF_CPU_HOST_APERTURE))
		return vseg_table_fail(err, id,
				       VSEG_RULE_CACHED_CPU_HOST_APERTURE,
				       "SupportsCachedCpuHostAperture needs SupportsCpuHostAperture");
	if ((f & VSEG_SEGF_VPR_PRESERVED_STANDBY) &&
	    !(f & VSEG_SEGF_VPR_SUPPORTED))
		return vseg_table_fail(err, id, VSEG_RULE_VPR_STANDBY,
				       "VprPreservedDuringStandby needs VprSupported");
	return 0;
}

/* Size, page size and commit limit. */
static int vseg_validate_size(const struct vseg_segment_desc *s,
			      struct vseg_table_error *err)
{
	bool is_ap = s->kind == VSEG_SEGMENT_APERTURE;
	bool has_64k = s->flags & VSEG_SEGF_USE_64KB_PAGES;
	u32 page = s->page_size;
	bool is_64k = page == SZ_64K;
	u32 id = s->id;

	if (!s->size)
		return vseg_table_fail(err, id, VSEG_RULE_SIZE_ZERO,
				       "size is zero");
	if (!IS_ALIGNED(s->size, PAGE_SIZE))
		return vseg_table_fail(err, id, VSEG_RULE_SIZE_HOST_PAGE,
				       "size 0x%llx is not a multiple of the host page size %lu",
				       s->size, PAGE_SIZE);
	if (page != SZ_4K && page != SZ_64K)
		return vseg_table_fail(err, id, VSEG_RULE_PAGE_SIZE,
				       "page size %u is not 4096 or 65536",
				       page);
	if (is_ap && page != SZ_4K)
		return vseg_table_fail(err, id, VSEG_RULE_APERTURE_PAGE_SIZE,
				       "aperture page size must be 4096");
	if (has_64k != is_64k)
		return vseg_table_fail(err, id, VSEG_RULE_PAGE_SIZE_FLAG,
				       "Use64KBPages does not match the page size %u",
				       page);
	if (!IS_ALIGNED(s->size, page))
		return vseg_table_fail(err, id, VSEG_RULE_SIZE_ALIGN,
				       "size 0x%llx is not a multiple of the page size %u",
				       s->size, page);
	if (!is_ap && s->size > VSEG_MEMORY_SIZE_LIMIT)
		return vseg_table_fail(err, id, VSEG_RULE_SIZE_LIMIT,
				       "size 0x%llx exceeds the 1 TiB limit of a memory segment",
				       s->size);
	if (is_ap && s->size > VSEG_APERTURE_SIZE_LIMIT)
		return vseg_table_fail(err, id, VSEG_RULE_APERTURE_SIZE_LIMIT,
				       "size 0x%llx exceeds the 4 GiB limit of the aperture",
				       s->size);

	/*
	 * DXGK_SEGMENTDESCRIPTOR4's CommitLimit applies to the aperture only:
	 * a memory segment's 0 stands for its size; any other value must be
	 * the size (DXGK_SEGMENTDESCRIPTOR: "always the same as the size").
	 */
	if (!is_ap) {
		if (s->commit_limit && s->commit_limit != s->size)
			return vseg_table_fail(err, id, VSEG_RULE_MEMORY_COMMIT,
					       "commit limit 0x%llx of a memory segment must be 0 or its size 0x%llx",
					       s->commit_limit, s->size);
		return 0;
	}
	if (s->commit_limit > s->size)
		return vseg_table_fail(err, id, VSEG_RULE_APERTURE_COMMIT_SIZE,
				       "aperture commit limit 0x%llx exceeds its size 0x%llx",
				       s->commit_limit, s->size);
	if (!s->commit_limit || !IS_ALIGNED(s->commit_limit, page))
		return vseg_table_fail(err, id, VSEG_RULE_APERTURE_COMMIT_ALIGN,
				       "commit limit 0x%llx is zero or not a multiple of the page size",
				       s->commit_limit);
	return 0;
}

/* Needs a valid page size and size. */
static int vseg_validate_banks(const struct vseg_segment_desc *s,
			       struct vseg_table_error *err)
{
	bool banking = s->flags & VSEG_SEGF_USE_BANKING;
	u64 end, prev = 0;
	u32 id = s->id;
	unsigned int i;

	if (s->kind == VSEG_SEGMENT_APERTURE && s->num_banks)
		return vseg_table_fail(err, id, VSEG_RULE_APERTURE_BANKS,
				       "banks on an aperture segment");
	if (s->num_banks > VSEG_MAX_BANKS)
		return vseg_table_fail(err, id, VSEG_RULE_TOO_MANY_BANKS,
				       "too many banks: %u", s->num_banks);
	if (s->num_banks && !banking)
		return vseg_table_fail(err, id, VSEG_RULE_BANKS_WITHOUT_BANKING,
				       "banks without UseBanking");
	if (banking && !s->num_banks)
		return vseg_table_fail(err, id, VSEG_RULE_BANKING_WITHOUT_BANKS,
				       "UseBanking without banks");

	for (i = 0; i < s->num_banks; i++) {
		end = s->bank_end[i];
		if (!IS_ALIGNED(end, s->page_size))
			return vseg_table_fail(err, id, VSEG_RULE_BANK_ALIGN,
					       "bank %u end 0x%llx is not page aligned",
					       i, end);
		if (end <= prev)
			return vseg_table_fail(err, id, VSEG_RULE_BANK_ORDER,
					       "bank %u end 0x%llx does not follow the previous bank",
					       i, end);
		if (i == s->num_banks - 1 ? end != s->size : end >= s->size)
			return vseg_table_fail(err, id, VSEG_RULE_BANK_OUTSIDE,
					       "bank %u end 0x%llx is outside the segment",
					       i, end);
		prev = end;
	}
	return 0;
}

/*
 * The CPU-translated address (DXGK_SEGMENTDESCRIPTOR.CpuTranslatedAddress):
 * the bus address of a CPU-visible memory segment, where its CPU-visible
 * range starts. Needs a valid CPU-visible size.
 */
static int vseg_validate_cpu_address(const struct vseg_segment_desc *s,
				     struct vseg_table_error *err)
{
	bool visible = s->flags & VSEG_SEGF_CPU_VISIBLE;
	u64 cpu = s->cpu_translated_address;
	u32 id = s->id;

	/*
	 * WDDM ignores it on aperture segments, the Agp one included (seed
	 * DXGK_SEGMENTDESCRIPTOR): so does vseg, which reports it as 0
	 * (vseg_segment_table_normalize()).
	 */
	if (s->kind == VSEG_SEGMENT_APERTURE)
		return 0;
	if (!visible) {
		if (cpu)
			return vseg_table_fail(err, id,
					       VSEG_RULE_CPU_ADDRESS_WITHOUT_FLAG,
					       "CPU-translated address 0x%llx without CpuVisible",
					       cpu);
		return 0;
	}
	if (!cpu)
		return vseg_table_fail(err, id, VSEG_RULE_CPU_ADDRESS_ZERO,
				       "CpuVisible without a CPU-translated address");
	if (!IS_ALIGNED(cpu, PAGE_SIZE))
		return vseg_table_fail(err, id, VSEG_RULE_CPU_ADDRESS_ALIGN,
				       "CPU-translated address 0x%llx is not a multiple of the host page size %lu",
				       cpu, PAGE_SIZE);
	/* [cpu, cpu + visible size), the size nonzero: may end at 2^64 */
	if (s->cpu_visible_size - 1 > U64_MAX - cpu)
		return vseg_table_fail(err, id, VSEG_RULE_CPU_RANGE_WRAPS,
				       "CPU-visible range at 0x%llx, 0x%llx bytes, wraps around the address space",
				       cpu, s->cpu_visible_size);
	return 0;
}

/* CPU-visible size, CPU-translated address and system memory end. */
static int vseg_validate_visible(const struct vseg_segment_desc *s,
				 struct vseg_table_error *err)
{
	bool visible = s->flags & VSEG_SEGF_CPU_VISIBLE;
	u64 vis = s->cpu_visible_size;
	u32 id = s->id;
	int ret;

	if (s->kind == VSEG_SEGMENT_APERTURE) {
		if (vis)
			return vseg_table_fail(err, id,
					       VSEG_RULE_APERTURE_VISIBLE,
					       "CPU-visible size 0x%llx on the aperture must be 0",
					       vis);
	} else {
		if (vis && !visible)
			return vseg_table_fail(err, id,
					       VSEG_RULE_VISIBLE_WITHOUT_FLAG,
					       "CPU-visible size 0x%llx without CpuVisible",
					       vis);
		if (!vis && visible)
			return vseg_table_fail(err, id, VSEG_RULE_VISIBLE_ZERO,
					       "CpuVisible with a zero CPU-visible size");
		if (vis > s->size)
			return vseg_table_fail(err, id, VSEG_RULE_VISIBLE_SIZE,
					       "CPU-visible size 0x%llx exceeds the size",
					       vis);
		if (!IS_ALIGNED(vis, s->page_size))
			return vseg_table_fail(err, id, VSEG_RULE_VISIBLE_ALIGN,
					       "CPU-visible size 0x%llx is not a multiple of the page size",
					       vis);
	}
	ret = vseg_validate_cpu_address(s, err);
	if (ret)
		return ret;

	if (s->system_memory_end > s->size)
		return vseg_table_fail(err, id, VSEG_RULE_SYSTEM_MEMORY_END,
				       "system memory end 0x%llx is beyond the segment",
				       s->system_memory_end);
	return 0;
}

static int vseg_validate_invalid(const struct vseg_segment_desc *s,
				 struct vseg_table_error *err)
{
	const struct vseg_range *r, *q;
	u32 id = s->id;
	unsigned int i, j;

	if (s->num_invalid > VSEG_MAX_INVALID_RANGES)
		return vseg_table_fail(err, id,
				       VSEG_RULE_TOO_MANY_INVALID_RANGES,
				       "too many invalid ranges: %u",
				       s->num_invalid);

	for (i = 0; i < s->num_invalid; i++) {
		r = &s->invalid[i];
		if (!r->size || !IS_ALIGNED(r->start, s->page_size) ||
		    !IS_ALIGNED(r->size, s->page_size) ||
		    r->start > s->size || r->size > s->size - r->start)
			return vseg_table_fail(err, id, VSEG_RULE_INVALID_RANGE,
					       "invalid range %u [0x%llx, +0x%llx) is empty, unaligned or outside the segment",
					       i, r->start, r->size);
		for (j = 0; j < i; j++) {
			q = &s->invalid[j];
			if (vseg_ranges_overlap(r->start, r->size,
						q->start, q->size))
				return vseg_table_fail(err, id,
						       VSEG_RULE_INVALID_RANGE_OVERLAP,
						       "invalid range %u overlaps invalid range %u",
						       i, j);
		}
	}
	return 0;
}

/*
 * The video protected region: only on a memory segment with VprSupported,
 * which needs one; aligned, inside the segment, clear of the invalid and
 * UEFI frame-buffer ranges; its reserve within it.
 */
static int vseg_validate_vpr(const struct vseg_segment_desc *s,
			     struct vseg_table_error *err)
{
	bool vpr = s->flags & VSEG_SEGF_VPR_SUPPORTED;
	unsigned int i;
	u32 id = s->id;

	if (vpr && s->kind == VSEG_SEGMENT_APERTURE)
		return vseg_table_fail(err, id, VSEG_RULE_VPR_APERTURE,
				       "VprSupported is only valid on a memory segment");
	if ((s->flags & VSEG_SEGF_ENCRYPTED_PAGING) && !vpr)
		return vseg_table_fail(err, id, VSEG_RULE_ENCRYPTED_PAGING,
				       "EncryptedPagingSupported needs VprSupported");
	if (!vpr) {
		if (s->vpr_start || s->vpr_size || s->vpr_alignment ||
		    s->num_vpr_supported || s->vpr_reserve_size)
			return vseg_table_fail(err, id,
					       VSEG_RULE_VPR_WITHOUT_FLAG,
					       "video protected region without VprSupported");
		return 0;
	}
	if (!s->vpr_size)
		return vseg_table_fail(err, id, VSEG_RULE_VPR_SIZE_ZERO,
				       "VprSupported without a VPR size");
	/*
	 * VprAlignment applies to the start and the size (any value: 0 and
	 * 1 align nothing); the VPR is made of whole segment pages.
	 */
	if (!vseg_multiple_of(s->vpr_start, s->vpr_alignment) ||
	    !vseg_multiple_of(s->vpr_size, s->vpr_alignment) ||
	    !IS_ALIGNED(s->vpr_start, s->page_size) ||
	    !IS_ALIGNED(s->vpr_size, s->page_size) ||
	    s->vpr_start > s->size || s->vpr_size > s->size - s->vpr_start)
		return vseg_table_fail(err, id, VSEG_RULE_VPR_RANGE,
				       "VPR [0x%llx, +0x%llx) is unaligned or outside the segment",
				       s->vpr_start, s->vpr_size);
	for (i = 0; i < min_t(u32, s->num_invalid, VSEG_MAX_INVALID_RANGES); i++)
		if (vseg_ranges_overlap(s->vpr_start, s->vpr_size,
					s->invalid[i].start,
					s->invalid[i].size))
			return vseg_table_fail(err, id,
					       VSEG_RULE_VPR_INVALID_OVERLAP,
					       "VPR overlaps invalid range %u", i);
	for (i = 0; i < min_t(u32, s->num_uefi, VSEG_MAX_UEFI_RANGES); i++)
		if (vseg_ranges_overlap(s->vpr_start, s->vpr_size,
					s->uefi[i].start, s->uefi[i].size))
			return vseg_table_fail(err, id,
					       VSEG_RULE_VPR_UEFI_OVERLAP,
					       "VPR overlaps UEFI frame-buffer range %u",
					       i);
	if (s->vpr_reserve_size > s->vpr_size ||
	    !IS_ALIGNED(s->vpr_reserve_size, s->page_size))
		return vseg_table_fail(err, id, VSEG_RULE_VPR_RESERVE,
				       "VPR reserve 0x%x is above the VPR size or not a multiple of the page size",
				       s->vpr_reserve_size);
	return 0;
}

/*
 * What the firmware left: bit 21 (PopulatedByReservedDDRByFirmware) and
 * the UEFI frame-buffer ranges, which only a memory segment has; each
 * range page aligned, inside the segment, clear of the other ranges and of
 * the invalid ranges.
 */
static int vseg_validate_firmware(const struct vseg_segment_desc *s,
				  struct vseg_table_error *err)
{
	bool is_ap = s->kind == VSEG_SEGMENT_APERTURE;
	const struct vseg_range *r, *q;
	u32 id = s->id;
	unsigned int i, j;

	if ((s->flags & VSEG_SEGF_RESERVED_DDR_BY_FIRMWARE) && is_ap)
		return vseg_table_fail(err, id,
				       VSEG_RULE_RESERVED_DDR_ON_APERTURE,
				       "PopulatedByReservedDDRByFirmware is only valid on a memory segment");
	if (s->num_uefi && is_ap)
		return vseg_table_fail(err, id, VSEG_RULE_UEFI_ON_APERTURE,
				       "UEFI frame-buffer ranges are only valid on a memory segment");
	if (s->num_uefi > VSEG_MAX_UEFI_RANGES)
		return vseg_table_fail(err, id, VSEG_RULE_TOO_MANY_UEFI_RANGES,
				       "too many UEFI frame-buffer ranges: %u",
				       s->num_uefi);
	for (i = 0; i < s->num_uefi; i++) {
		r = &s->uefi[i];
		if (!r->size || !IS_ALIGNED(r->start, s->page_size) ||
		    !IS_ALIGNED(r->size, s->page_size) ||
		    r->start > s->size || r->size > s->size - r->start)
			return vseg_table_fail(err, id, VSEG_RULE_UEFI_RANGE,
					       "UEFI range %u [0x%llx, +0x%llx) is empty, unaligned or outside the segment",
					       i, r->start, r->size);
		for (j = 0; j < i; j++) {
			q = &s->uefi[j];
			if (vseg_ranges_overlap(r->start, r->size,
						q->start, q->size))
				return vseg_table_fail(err, id,
						       VSEG_RULE_UEFI_RANGE_OVERLAP,
						       "UEFI range %u overlaps UEFI range %u",
						       i, j);
		}
		for (j = 0; j < s->num_invalid; j++) {
			q = &s->invalid[j];
			if (vseg_ranges_overlap(r->start, r->size,
						q->start, q->size))
				return vseg_table_fail(err, id,
						       VSEG_RULE_UEFI_RANGE_OVERLAP,
						       "UEFI range %u overlaps invalid range %u",
						       i, j);
		}
	}
	return 0;
}

static int vseg_validate_segment(const struct vseg_segment_table *t,
				 const struct vseg_segment_desc *s,
				 struct vseg_table_error *err)
{
	bool is_ap = s->kind == VSEG_SEGMENT_APERTURE;
	u32 id = s->id;
	unsigned int i;
	int ret;

	if (!vseg_name_ok(s->name))
		return vseg_table_fail(err, id, VSEG_RULE_NAME,
				       "name is empty or not [a-z0-9_]");
	for (i = 0; i + 1 < id; i++)
		if (!strncmp(t->seg[i].name, s->name, VSEG_NAME_LEN))
			return vseg_table_fail(err, id, VSEG_RULE_NAME_DUPLICATE,
					       "name duplicates segment %u",
					       t->seg[i].id);

	if (s->kind != VSEG_SEGMENT_MEMORY && !is_ap)
		return vseg_table_fail(err, id, VSEG_RULE_KIND,
				       "unknown kind %d", s->kind);
	if (is_ap != !!(s->flags & (VSEG_SEGF_APERTURE | VSEG_SEGF_AGP)))
		return vseg_table_fail(err, id, VSEG_RULE_KIND_FLAGS,
				       "kind does not match the Aperture/Agp flags");

	ret = vseg_validate_flags(s, err);
	if (ret)
		return ret;
	ret = vseg_validate_size(s, err);
	if (ret)
		return ret;
	ret = vseg_validate_banks(s, err);
	if (ret)
		return ret;
	ret = vseg_validate_visible(s, err);
	if (ret)
		return ret;
	ret = vseg_validate_invalid(s, err);
	if (ret)
		return ret;
	ret = vseg_validate_firmware(s, err);
	if (ret)
		return ret;
	return vseg_validate_vpr(s, err);
}

/* The paging buffer fits where it is allocated; its private data is bounded. */
static int vseg_validate_paging(const struct vseg_segment_table *t,
				const struct vseg_segment_desc *ap,
				struct vseg_table_error *err)
{
	u64 size = t->paging_buffer_size;

	if (size < VSEG_PAGING_BUFFER_MIN)
		return vseg_table_fail(err, 0, VSEG_RULE_PAGING_SIZE,
				       "paging buffer of %llu bytes has no room for one operation (%u bytes)",
				       size, VSEG_PAGING_BUFFER_MIN);
	if (size > VSEG_PAGING_BUFFER_MAX)
		return vseg_table_fail(err, 0, VSEG_RULE_PAGING_SIZE,
				       "paging buffer of %llu bytes is above %u",
				       size, VSEG_PAGING_BUFFER_MAX);
	if (t->paging_buffer_segment_id &&
	    round_up(size, PAGE_SIZE) > ap->commit_limit)
		return vseg_table_fail(err, 0, VSEG_RULE_PAGING_SIZE,
				       "paging buffer of %llu bytes is above the aperture's commit limit",
				       size);
	if (t->paging_buffer_private_data_size > VSEG_PAGING_PRIVATE_MAX)
		return vseg_table_fail(err, 0, VSEG_RULE_PAGING_PRIVATE_SIZE,
				       "paging buffer private data of %u bytes is above %u",
				       t->paging_buffer_private_data_size,
				       VSEG_PAGING_PRIVATE_MAX);
	return 0;
}

/*
 * The CPU host aperture (DXGK_CPUHOSTAPERTURE): a window of host pages at
 * a CPU address through which the CPU reaches a memory segment that is
 * not CPU-visible. The table gives both its size and its address, as it
 * gives a CPU-visible segment's CPU-translated address.
 */
static int vseg_validate_host_aperture(const struct vseg_segment_table *t,
				       const struct vseg_segment_desc *s,
				       struct vseg_table_error *err)
{
	bool flag = s->flags & VSEG_SEGF_CPU_HOST_APERTURE;
	u64 addr = s->host_aperture_address, size = s->host_aperture_size;
	const struct vseg_segment_desc *o;
	u32 id = s->id;
	unsigned int i;

	if (s->kind == VSEG_SEGMENT_APERTURE) {
		if (flag || addr || size)
			return vseg_table_fail(err, id,
					       VSEG_RULE_HOST_APERTURE_ON_APERTURE,
					       "a CPU host aperture is only valid on a memory segment");
		return 0;
	}
	if (!flag) {
		if (addr || size)
			return vseg_table_fail(err, id,
					       VSEG_RULE_HOST_APERTURE_WITHOUT_FLAG,
					       "CPU host aperture without SupportsCpuHostAperture");
		return 0;
	}
	if (!size)
		return vseg_table_fail(err, id, VSEG_RULE_HOST_APERTURE_SIZE_ZERO,
				       "SupportsCpuHostAperture without a CPU host aperture size");
	if (!IS_ALIGNED(size, PAGE_SIZE) || size > s->size)
		return vseg_table_fail(err, id, VSEG_RULE_HOST_APERTURE_SIZE,
				       "CPU host aperture size 0x%llx is not a multiple of the host page size %lu or exceeds the size",
				       size, PAGE_SIZE);
	if (!addr)
		return vseg_table_fail(err, id,
				       VSEG_RULE_HOST_APERTURE_ADDRESS_ZERO,
				       "SupportsCpuHostAperture without a CPU host aperture address");
	if (!IS_ALIGNED(addr, PAGE_SIZE))
		return vseg_table_fail(err, id,
				       VSEG_RULE_HOST_APERTURE_ADDRESS_ALIGN,
				       "CPU host aperture address 0x%llx is not a multiple of the host page size %lu",
				       addr, PAGE_SIZE);
	if (size - 1 > U64_MAX - addr)
		return vseg_table_fail(err, id, VSEG_RULE_HOST_APERTURE_WRAPS,
				       "CPU host aperture at 0x%llx, 0x%llx bytes, wraps around the address space",
				       addr, size);
	for (i = 0; i < t->num_segments; i++) {
		o = &t->seg[i];
		if (o == s)
			continue;
		if (vseg_ranges_overlap(addr, size, o->cpu_translated_address,
					o->cpu_visible_size) ||
		    vseg_ranges_overlap(addr, size, o->host_aperture_address,
					o->host_aperture_size))
			return vseg_table_fail(err, id,
					       VSEG_RULE_HOST_APERTURE_OVERLAP,
					       "CPU host aperture overlaps the CPU range of segment %u \"%.*s\"",
					       o->id, VSEG_NAME_LEN, o->name);
	}
	return 0;
}

/**
 * vseg_segment_table_check() - check a table against the WDDM rules
 * @t: the table.
 * @err: receives the first rule @t breaks; must not be NULL.
 *
 * Checks, in this order: the table shape (segment count, ids 1..n, at most
 * VSEG_MAX_MEMORY_SEGMENTS memory segments, exactly one aperture, the
 * paging buffer segment), then each segment in table order (name, kind,
 * flags, size, page size and commit limit, banks, CPU-visible size,
 * CPU-translated address and system memory end, invalid ranges, video
 * protected region), then
 * that the GPU address ranges of the memory segments and of the aperture
 * do not overlap (an Agp aperture has no GPU base of its own and is left
 * out), then the paging buffer's size against its segment, then each
 * segment's CPU host aperture (only on a memory segment with
 * SupportsCpuHostAperture, which must give it: a nonzero size, a multiple
 * of the host page and at most the segment's, at a nonzero page-aligned
 * CPU address clear of every other segment's CPU range). Logs nothing.
 *
 * Return: 0 with @err cleared (%VSEG_RULE_NONE, segment 0, empty message),
 * or -EINVAL with @err naming the first violation.
 */
int vseg_segment_table_check(const struct vseg_segment_table *t,
			     struct vseg_table_error *err)
{
	const struct vseg_segment_desc *ap = NULL, *a, *b;
	unsigned int i, j, nmem = 0, nap = 0;
	int ret;

	memset(err, 0, sizeof(*err));

	if (!t->num_segments)
		return vseg_table_fail(err, 0, VSEG_RULE_NO_SEGMENTS,
				       "no segments");
	if (t->num_segments > VSEG_MAX_SEGMENTS)
		return vseg_table_fail(err, 0, VSEG_RULE_TOO_MANY_SEGMENTS,
				       "too many segments: %u",
				       t->num_segments);
	for (i = 0; i < t->num_segments; i++)
		if (t->seg[i].id != i + 1)
			return vseg_table_fail(err, 0, VSEG_RULE_SEGMENT_IDS,
					       "segment ids are not 1..n");

	for (i = 0; i < t->num_segments; i++) {
		if (t->seg[i].kind == VSEG_SEGMENT_MEMORY)
			nmem++;
		if (t->seg[i].kind == VSEG_SEGMENT_APERTURE && !nap++)
			ap = &t->seg[i];
	}
	if (nmem > VSEG_MAX_MEMORY_SEGMENTS)
		return vseg_table_fail(err, 0,
				       VSEG_RULE_TOO_MANY_MEMORY_SEGMENTS,
				       "too many memory segments: %u, TTM has room for %d",
				       nmem, VSEG_MAX_MEMORY_SEGMENTS);
	if (nap != 1)
		return vseg_table_fail(err, 0, VSEG_RULE_APERTURE_COUNT,
				       "exactly one aperture segment is required, found %u",
				       nap);
	if (t->paging_buffer_segment_id &&
	    t->paging_buffer_segment_id != ap->id)
		return vseg_table_fail(err, 0, VSEG_RULE_PAGING_SEGMENT,
				       "paging buffer segment %u is not the aperture",
				       t->paging_buffer_segment_id);

	for (i = 0; i < t->num_segments; i++) {
		ret = vseg_validate_segment(t, &t->seg[i], err);
		if (ret)
			return ret;
	}

	for (i = 1; i < t->num_segments; i++) {
		a = &t->seg[i];
		for (j = 0; j < i; j++) {
			b = &t->seg[j];
			if ((a->flags | b->flags) & VSEG_SEGF_AGP)
				continue;
			if (vseg_ranges_overlap(a->base_address, a->size,
						b->base_address, b->size))
				return vseg_table_fail(err, a->id,
						       VSEG_RULE_GPU_RANGE_OVERLAP,
						       "GPU address range overlaps segment %u \"%.*s\"",
						       b->id, VSEG_NAME_LEN,
						       b->name);
		}
	}
	ret = vseg_validate_paging(t, ap, err);
	if (ret)
		return ret;
	for (i = 0; i < t->num_segments; i++) {
		ret = vseg_validate_host_aperture(t, &t->seg[i], err);
		if (ret)
			return ret;
	}
	return 0;
}
EXPORT_SYMBOL_IF_KUNIT(vseg_segment_table_check);

/**
 * vseg_segment_table_validate() - check a table, log the rule it breaks
 * @t: the table.
 *
 * vseg_segment_table_check(), and if @t breaks a rule one kernel-log line
 * naming it: "invalid segment table: segment N "name": <rule>" for a rule
 * of segment N, "invalid segment table: <rule>" for one of the whole table.
 *
 * Return: 0, or -EINVAL after logging one line naming the first violation.
 */
int vseg_segment_table_validate(const struct vseg_segment_table *t)
{
	u32 n = min_t(u32, t->num_segments, VSEG_MAX_SEGMENTS);
	const struct vseg_segment_desc *s;
	struct vseg_table_error err;
	int ret;

	ret = vseg_segment_table_check(t, &err);
	if (!ret)
		return 0;
	/* a segment's rules are checked once the ids are 1..n: seg[id - 1] */
	if (err.segment && err.segment <= n) {
		s = &t->seg[err.segment - 1];
		pr_err("invalid segment table: segment %u \"%.*s\": %s\n",
		       s->id, VSEG_NAME_LEN, s->name, err.msg);
	} else {
		pr_err("invalid segment table: %s\n", err.msg);
	}
	return ret;
}
EXPORT_SYMBOL_IF_KUNIT(vseg_segment_table_validate);
