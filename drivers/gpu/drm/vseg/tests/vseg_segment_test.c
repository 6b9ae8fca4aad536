// SPDX-License-Identifier: GPL-2.0-only
/*
 * Copyright (c) 2026 The vseg authors
 *
 * KUnit tests of the segment table layer: built-in profiles and their size
 * overrides, the text table parser, and every validation rule, each bad
 * table checked for the segment and the rule vseg_segment_table_check()
 * names. The layer is vseg.ko's: its functions are exported to this module
 * when the kernel has KUnit (EXPORT_SYMBOL_IF_KUNIT).
 */

#include <kunit/test.h>
#include <linux/bitmap.h>
#include <linux/errno.h>
#include <linux/kernel.h>
#include <linux/mm.h>
#include <linux/sizes.h>
#include <linux/string.h>

#include "../vseg_segment.h"

static struct vseg_segment_table *new_table(struct kunit *test)
{
	struct vseg_segment_table *t = kunit_kzalloc(test, sizeof(*t),
						     GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, t);
	return t;
}

/* Parse @text, which must parse. */
static struct vseg_segment_table *parse_ok(struct kunit *test,
					   const char *text)
{
	struct vseg_segment_table *t = new_table(test);

	KUNIT_ASSERT_EQ_MSG(test, vseg_segment_table_parse(t, text), 0,
			    "parsing '%s'", text);
	return t;
}

/* @t breaks no rule, and the error is cleared whatever it held before. */
static void expect_valid(struct kunit *test,
			 const struct vseg_segment_table *t)
{
	struct vseg_table_error err;

	memset(&err, 0x5a, sizeof(err));
	KUNIT_EXPECT_EQ(test, vseg_segment_table_check(t, &err), 0);
	KUNIT_EXPECT_EQ_MSG(test, err.rule, VSEG_RULE_NONE, "'%.*s'",
			    (int)sizeof(err.msg), err.msg);
	KUNIT_EXPECT_EQ(test, err.segment, 0);
	KUNIT_EXPECT_STREQ(test, err.msg, "");
}

/*
 * @t breaks @rule first, in segment @segment (0: the table); @msg, if not
 * NULL, is the message expected with it. @what names the table.
 */
static void expect_rule(struct kunit *test,
			const struct vseg_segment_table *t, const char *what,
			u32 segment, enum vseg_table_rule rule,
			const char *msg)
{
	struct vseg_table_error err;

	memset(&err, 0x5a, sizeof(err));
	KUNIT_EXPECT_EQ_MSG(test, vseg_segment_table_check(t, &err), -EINVAL,
			    "%s", what);
	KUNIT_EXPECT_EQ_MSG(test, err.rule, rule, "%s: '%.*s'", what,
			    (int)sizeof(err.msg), err.msg);
	KUNIT_EXPECT_EQ_MSG(test, err.segment, segment, "%s: '%.*s'", what,
			    (int)sizeof(err.msg), err.msg);
	KUNIT_EXPECT_NOT_NULL(test, memchr(err.msg, '\0', sizeof(err.msg)));
	if (msg)
		KUNIT_EXPECT_STREQ_MSG(test, err.msg, msg, "%s", what);
}

/*
 * A text table and what becomes of it: what vseg_segment_table_parse()
 * returns and, if it parses, the first rule it breaks (VSEG_RULE_NONE: it
 * is valid), in which segment (0: the table as a whole), with which
 * message (NULL: not checked).
 */
struct table_case {
	const char *name;
	const char *table;
	u32 segment;
	enum vseg_table_rule rule;
	const char *msg;
	int parse;
};

static void run_table_case(struct kunit *test, const struct table_case *c)
{
	struct vseg_segment_table *t = new_table(test);

	KUNIT_ASSERT_EQ_MSG(test, vseg_segment_table_parse(t, c->table),
			    c->parse, "%s: parsing '%s'", c->name, c->table);
	if (c->parse)
		return;
	if (c->rule == VSEG_RULE_NONE)
		expect_valid(test, t);
	else
		expect_rule(test, t, c->name, c->segment, c->rule, c->msg);
}

#define M16 "memory:name=m,size=16M"
#define AP ";aperture:name=aperture,size=64M"

/* --- helpers ------------------------------------------------------------ */

static void segment_flag_and_kind_names(struct kunit *test)
{
	KUNIT_EXPECT_STREQ(test, vseg_segment_flag_name(0), "Aperture");
	KUNIT_EXPECT_STREQ(test, vseg_segment_flag_name(2), "CpuVisible");
	KUNIT_EXPECT_STREQ(test, vseg_segment_flag_name(11), "Use64KBPages");
	KUNIT_EXPECT_STREQ(test, vseg_segment_flag_name(VSEG_SEGF_NUM - 1),
			   "PopulatedByReservedDDRByFirmware");
	KUNIT_EXPECT_NULL(test, vseg_segment_flag_name(VSEG_SEGF_NUM));
	KUNIT_EXPECT_NULL(test, vseg_segment_flag_name(~0u));

	KUNIT_EXPECT_STREQ(test, vseg_segment_kind_name(VSEG_SEGMENT_MEMORY),
			   "memory");
	KUNIT_EXPECT_STREQ(test, vseg_segment_kind_name(VSEG_SEGMENT_APERTURE),
			   "aperture");
	KUNIT_EXPECT_STREQ(test, vseg_segment_kind_name(0), "unknown");
}

static void segment_table_lookups(struct kunit *test)
{
	struct vseg_segment_table *t = new_table(test);

	KUNIT_EXPECT_NULL(test, vseg_segment_table_aperture(t));
	KUNIT_EXPECT_EQ(test, vseg_segment_table_num_memory(t), 0);

	t = parse_ok(test, "aperture:size=16M;memory:size=4M;memory:size=4M");
	KUNIT_EXPECT_PTR_EQ(test, vseg_segment_table_aperture(t), &t->seg[0]);
	KUNIT_EXPECT_EQ(test, vseg_segment_table_num_memory(t), 2);

	/* A corrupt count never walks past the array. */
	t->num_segments = 100;
	KUNIT_EXPECT_EQ(test, vseg_segment_table_num_memory(t), 2);
	KUNIT_EXPECT_PTR_EQ(test, vseg_segment_table_aperture(t), &t->seg[0]);
}

/*
 * Overlap of GPU address ranges and of invalid ranges: touching ranges do
 * not overlap, either order, one inside the other, and no overflow at the
 * top of the GPU address space (a range may end exactly at 2^64).
 */
static const struct table_case range_cases[] = {
	{ "gpu-adjacent-above",
	  "memory:name=a,size=16M;memory:name=b,size=16M,base=16M" AP },
	{ "gpu-adjacent-below",
	  "memory:name=a,size=16M,base=16M;memory:name=b,size=16M,base=0" AP },
	{ "gpu-overlap-above",
	  "memory:name=a,size=16M;memory:name=b,size=16M,base=0xfff000" AP,
	  2, VSEG_RULE_GPU_RANGE_OVERLAP,
	  "GPU address range overlaps segment 1 \"a\"" },
	{ "gpu-overlap-below",
	  "memory:name=a,size=16M,base=16M;memory:name=b,size=16M,base=0x1000" AP,
	  2, VSEG_RULE_GPU_RANGE_OVERLAP,
	  "GPU address range overlaps segment 1 \"a\"" },
	{ "gpu-inside",
	  "memory:name=a,size=16M;memory:name=b,size=4K,base=4M" AP,
	  2, VSEG_RULE_GPU_RANGE_OVERLAP,
	  "GPU address range overlaps segment 1 \"a\"" },
	{ "gpu-around",
	  "memory:name=a,size=4K,base=4M;memory:name=b,size=16M,base=0" AP,
	  2, VSEG_RULE_GPU_RANGE_OVERLAP,
	  "GPU address range overlaps segment 1 \"a\"" },
	{ "gpu-top-adjacent",
	  "memory:name=a,size=8M,base=0xffffffffff000000;"
	  "memory:name=b,size=8M,base=0xffffffffff800000" AP },
	{ "gpu-top-inside",
	  "memory:name=a,size=1M,base=0xfffffffffff00000;"
	  "memory:name=b,size=4K,base=0xfffffffffff80000" AP,
	  2, VSEG_RULE_GPU_RANGE_OVERLAP,
	  "GPU address range overlaps segment 1 \"a\"" },
	{ "gpu-top-around",
	  "memory:name=a,size=4K,base=0xfffffffffffff000;"
	  "memory:name=b,size=1M,base=0xfffffffffff00000" AP,
	  2, VSEG_RULE_GPU_RANGE_OVERLAP,
	  "GPU address range overlaps segment 1 \"a\"" },
	{ "invalid-adjacent", M16 ",invalid=0+1M/1M+1M" AP },
	{ "invalid-adjacent-below", M16 ",invalid=1M+1M/0+1M" AP },
	{ "invalid-inside", M16 ",invalid=0+4M/1M+4K" AP,
	  1, VSEG_RULE_INVALID_RANGE_OVERLAP,
	  "invalid range 1 overlaps invalid range 0" },
	{ "invalid-around", M16 ",invalid=1M+4K/0+4M" AP,
	  1, VSEG_RULE_INVALID_RANGE_OVERLAP,
	  "invalid range 1 overlaps invalid range 0" },
	{ "invalid-top",
	  "memory:name=m,size=4G,invalid=0xfff00000+1M/0xffffe000+4K;"
	  "aperture:size=64M,base=8G",
	  1, VSEG_RULE_INVALID_RANGE_OVERLAP,
	  "invalid range 1 overlaps invalid range 0" },
};

static void segment_ranges_overlap(struct kunit *test)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(range_cases); i++)
		run_table_case(test, &range_cases[i]);
}

/* Names: [a-z0-9_], 1 to 15 characters. */
static const struct table_case name_cases[] = {
	{ "vram", "memory:name=vram,size=16M" AP },
	{ "mem_1", "memory:name=mem_1,size=16M" AP },
	{ "digits", "memory:name=0123456789,size=16M" AP },
	{ "15-characters", "memory:name=abcdefghijklmno,size=16M" AP },
	{ "empty", "memory:name=,size=16M" AP,
	  1, VSEG_RULE_NAME, "name is empty or not [a-z0-9_]" },
	{ "uppercase", "memory:name=Vram,size=16M" AP,
	  1, VSEG_RULE_NAME, "name is empty or not [a-z0-9_]" },
	{ "dash", "memory:name=v-ram,size=16M" AP,
	  1, VSEG_RULE_NAME, "name is empty or not [a-z0-9_]" },
	{ "blank", "memory:name=v ram,size=16M" AP,
	  1, VSEG_RULE_NAME, "name is empty or not [a-z0-9_]" },
	{ "aperture-name", M16 ";aperture:name=gart.0,size=64M",
	  2, VSEG_RULE_NAME, "name is empty or not [a-z0-9_]" },
};

static void segment_name_rules(struct kunit *test)
{
	struct vseg_segment_table *t;
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(name_cases); i++)
		run_table_case(test, &name_cases[i]);

	/* 16 characters and no terminator */
	t = parse_ok(test, M16 AP);
	memset(t->seg[0].name, 'a', VSEG_NAME_LEN);
	expect_rule(test, t, "unterminated", 1, VSEG_RULE_NAME, NULL);
}

struct number_case {
	const char *text;
	int ret;
	u64 val;
};

static const struct number_case number_cases[] = {
	{ "0", 0, 0 },
	{ "4096", 0, 4096 },
	{ "0x1000", 0, 0x1000 },
	{ "0X1f", 0, 0x1f },
	{ "16K", 0, SZ_16K },
	{ "16k", 0, SZ_16K },
	{ "32M", 0, SZ_32M },
	{ "2m", 0, SZ_2M },
	{ "4G", 0, SZ_4G },
	{ "0x10M", 0, SZ_16M },
	{ "18446744073709551615", 0, U64_MAX },
	{ "17179869183G", 0, 17179869183ULL << 30 },
	{ "17179869184G", -EINVAL, 0 },
	{ "18446744073709551616", -EINVAL, 0 },
	{ "", -EINVAL, 0 },
	{ "M", -EINVAL, 0 },
	{ "0x", -EINVAL, 0 },
	{ "0xg", -EINVAL, 0 },
	{ "-1", -EINVAL, 0 },
	{ "+1", -EINVAL, 0 },
	{ "16Q", -EINVAL, 0 },
	{ "1 ", -EINVAL, 0 },
	{ "12345678901234567890123", -EINVAL, 0 },
};

/* Numbers of the text table, read back from the 64-bit size key. */
static void segment_parse_numbers(struct kunit *test)
{
	struct vseg_segment_table *t = new_table(test);
	const struct number_case *c;
	unsigned int i;
	char text[64];
	int ret;

	for (i = 0; i < ARRAY_SIZE(number_cases); i++) {
		c = &number_cases[i];
		/* size first: the table is trimmed, a value is not */
		snprintf(text, sizeof(text), "memory:size=%s,name=m", c->text);
		ret = vseg_segment_table_parse(t, text);
		KUNIT_EXPECT_EQ_MSG(test, ret, c->ret, "'%s'", c->text);
		if (!c->ret && !ret)
			KUNIT_EXPECT_EQ_MSG(test, t->seg[0].size, c->val, "'%s'",
					    c->text);
	}

	/* the 32-bit keys: page size, paging buffer */
	KUNIT_EXPECT_EQ(test, vseg_segment_table_parse(t, M16 ",page=4G" AP),
			-EINVAL);
	KUNIT_EXPECT_EQ(test, vseg_segment_table_parse(t, M16 ",page=0xffffffff" AP),
			0);
	KUNIT_EXPECT_EQ(test, t->seg[0].page_size, U32_MAX);
	KUNIT_EXPECT_EQ(test, vseg_segment_table_parse(t, M16 AP ";paging:size=0x100000000"),
			-EINVAL);
	KUNIT_EXPECT_EQ(test, vseg_segment_table_parse(t, M16 AP ";paging:size=4095M,priv=4M"),
			0);
	KUNIT_EXPECT_EQ(test, t->paging_buffer_size, 4095U * SZ_1M);
	KUNIT_EXPECT_EQ(test, t->paging_buffer_private_data_size, SZ_4M);
}

/* bar=N[+OFFSET]: memory segments only, BARs 0 to 5 */
static void segment_parse_bar(struct kunit *test)
{
	struct vseg_segment_table *t;

	t = parse_ok(test, M16 AP);
	KUNIT_EXPECT_FALSE(test, t->seg[0].on_bar);
	t = parse_ok(test, M16 ",bar=2" AP);
	KUNIT_EXPECT_TRUE(test, t->seg[0].on_bar);
	KUNIT_EXPECT_EQ(test, t->seg[0].bar, 2);
	KUNIT_EXPECT_EQ(test, t->seg[0].bar_offset, 0);
	KUNIT_EXPECT_FALSE(test, t->seg[1].on_bar);
	t = parse_ok(test, M16 ",bar=0+16M" AP);
	KUNIT_EXPECT_TRUE(test, t->seg[0].on_bar);
	KUNIT_EXPECT_EQ(test, t->seg[0].bar, 0);
	KUNIT_EXPECT_EQ(test, t->seg[0].bar_offset, SZ_16M);

	t = new_table(test);
	KUNIT_EXPECT_EQ(test, vseg_segment_table_parse(t, M16 ",bar=6" AP),
			-EINVAL);
	KUNIT_EXPECT_EQ(test, vseg_segment_table_parse(t, M16 ",bar=" AP),
			-EINVAL);
	KUNIT_EXPECT_EQ(test, vseg_segment_table_parse(t, M16 ",bar=2+" AP),
			-EINVAL);
	KUNIT_EXPECT_EQ(test, vseg_segment_table_parse(t, M16 ",bar=2,bar=3" AP),
			-EINVAL);
	KUNIT_EXPECT_EQ(test, vseg_segment_table_parse(t, M16 AP ",bar=2"),
			-EINVAL);
}

/* --- profiles ----------------------------------------------------------- */

static void expect_segment(struct kunit *test,
			   const struct vseg_segment_desc *s, u32 id,
			   const char *name, enum vseg_segment_kind kind,
			   u64 flags, u64 base, u64 size, u64 visible,
			   u64 commit, u32 page)
{
	KUNIT_EXPECT_EQ(test, s->id, id);
	KUNIT_EXPECT_STREQ(test, s->name, name);
	KUNIT_EXPECT_EQ(test, s->kind, kind);
	KUNIT_EXPECT_EQ(test, s->flags, flags);
	KUNIT_EXPECT_EQ(test, s->base_address, base);
	KUNIT_EXPECT_EQ(test, s->size, size);
	KUNIT_EXPECT_EQ(test, s->cpu_visible_size, visible);
	KUNIT_EXPECT_EQ(test, s->commit_limit, commit);
	KUNIT_EXPECT_EQ(test, s->page_size, page);
}

static void segment_profile_discrete(struct kunit *test)
{
	struct vseg_segment_table *t = new_table(test);
	const struct vseg_segment_desc *s;

	KUNIT_ASSERT_EQ(test, vseg_segment_table_from_profile(t, "discrete",
							      NULL), 0);
	expect_valid(test, t);
	KUNIT_ASSERT_EQ(test, t->num_segments, 3);
	KUNIT_EXPECT_EQ(test, t->paging_buffer_segment_id, 3);
	KUNIT_EXPECT_EQ(test, t->paging_buffer_size, SZ_64K);
	KUNIT_EXPECT_EQ(test, t->paging_buffer_private_data_size, 0);

	s = &t->seg[0];
	expect_segment(test, s, 1, "vram", VSEG_SEGMENT_MEMORY,
		       VSEG_SEGF_CPU_VISIBLE | VSEG_SEGF_USE_BANKING |
		       VSEG_SEGF_USE_64KB_PAGES, 0, SZ_32M, SZ_32M, SZ_32M,
		       SZ_64K);
	KUNIT_EXPECT_EQ(test, s->cpu_translated_address, 0xe0000000);
	KUNIT_EXPECT_EQ(test, s->num_banks, 2);
	KUNIT_EXPECT_EQ(test, s->bank_end[0], SZ_16M);
	KUNIT_EXPECT_EQ(test, s->bank_end[1], SZ_32M);

	expect_segment(test, &t->seg[1], 2, "local", VSEG_SEGMENT_MEMORY, 0,
		       SZ_32M, SZ_16M, 0, SZ_16M, SZ_4K);
	expect_segment(test, &t->seg[2], 3, "aperture", VSEG_SEGMENT_APERTURE,
		       VSEG_SEGF_APERTURE | VSEG_SEGF_CACHE_COHERENT,
		       0x100000000ULL, SZ_64M, 0, SZ_32M, SZ_4K);
}

static void segment_profile_others(struct kunit *test)
{
	static const struct {
		const char *name;
		u32 num, paging;
	} profiles[] = {
		{ "integrated", 2, 2 },
		{ "smallbar", 2, 2 },
		{ "multi", 7, 7 },
		/* sysfs_streq(): a trailing newline is accepted */
		{ "multi\n", 7, 7 },
	};
	struct vseg_segment_table *t = new_table(test);
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(profiles); i++) {
		KUNIT_ASSERT_EQ(test,
				vseg_segment_table_from_profile(t, profiles[i].name,
								NULL), 0);
		expect_valid(test, t);
		KUNIT_EXPECT_EQ(test, t->num_segments, profiles[i].num);
		KUNIT_EXPECT_EQ(test, t->paging_buffer_segment_id,
				profiles[i].paging);
	}

	KUNIT_ASSERT_EQ(test, vseg_segment_table_from_profile(t, "integrated",
							      NULL), 0);
	expect_segment(test, &t->seg[0], 1, "stolen", VSEG_SEGMENT_MEMORY,
		       VSEG_SEGF_CPU_VISIBLE | VSEG_SEGF_POPULATED_FROM_SYSMEM,
		       0, SZ_32M, SZ_32M, SZ_32M, SZ_4K);
	KUNIT_EXPECT_EQ(test, t->seg[0].system_memory_end, SZ_32M);
	KUNIT_EXPECT_EQ(test, t->seg[1].commit_limit, SZ_64M);

	KUNIT_ASSERT_EQ(test, vseg_segment_table_from_profile(t, "smallbar",
							      NULL), 0);
	expect_segment(test, &t->seg[0], 1, "vram", VSEG_SEGMENT_MEMORY,
		       VSEG_SEGF_CPU_VISIBLE | VSEG_SEGF_USE_64KB_PAGES,
		       0, SZ_64M, SZ_16M, SZ_64M, SZ_64K);

	KUNIT_ASSERT_EQ(test, vseg_segment_table_from_profile(t, "multi",
							      NULL), 0);
	KUNIT_EXPECT_EQ(test, vseg_segment_table_num_memory(t),
			VSEG_MAX_MEMORY_SEGMENTS);
	for (i = 0; i < VSEG_MAX_MEMORY_SEGMENTS; i++) {
		KUNIT_EXPECT_EQ(test, t->seg[i].base_address, i * SZ_8M);
		KUNIT_EXPECT_EQ(test, t->seg[i].page_size,
				i & 1 ? SZ_64K : SZ_4K);
	}
}

static void segment_profile_unknown(struct kunit *test)
{
	struct vseg_segment_table *t = new_table(test);

	KUNIT_EXPECT_EQ(test, vseg_segment_table_from_profile(t, "bogus", NULL),
			-EINVAL);
	KUNIT_EXPECT_EQ(test, vseg_segment_table_from_profile(t, NULL, NULL),
			-EINVAL);
	KUNIT_EXPECT_EQ(test, vseg_segment_table_from_profile(t, "Discrete",
							      NULL), -EINVAL);
	KUNIT_EXPECT_EQ(test, vseg_segment_table_from_profile(t, "", NULL),
			-EINVAL);
}

/*
 * A resized profile segment: a CPU-visible size or system memory end equal
 * to the old size follows the new size; any other is kept, clamped to it.
 */
static void segment_follow_size(struct kunit *test)
{
	static const struct {
		const char *profile;
		u64 size, visible, sysend;
	} cases[] = {
		/* fully visible: follows, up and down */
		{ "discrete", SZ_64M, SZ_64M, 0 },
		{ "discrete", SZ_8M, SZ_8M, 0 },
		/* partly visible: kept, clamped */
		{ "smallbar", SZ_128M, SZ_16M, 0 },
		{ "smallbar", SZ_16M, SZ_16M, 0 },
		{ "smallbar", SZ_8M, SZ_8M, 0 },
		/* fully populated from system memory: follows */
		{ "integrated", SZ_16M, SZ_16M, SZ_16M },
		{ "integrated", SZ_64M, SZ_64M, SZ_64M },
	};
	struct vseg_segment_table *t = new_table(test);
	struct vseg_profile_overrides ovr = {};
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		ovr.mem_size[0] = cases[i].size;
		KUNIT_ASSERT_EQ(test,
				vseg_segment_table_from_profile(t, cases[i].profile,
								&ovr), 0);
		KUNIT_EXPECT_EQ_MSG(test, t->seg[0].cpu_visible_size,
				    cases[i].visible, "%s %llu", cases[i].profile,
				    cases[i].size);
		KUNIT_EXPECT_EQ_MSG(test, t->seg[0].system_memory_end,
				    cases[i].sysend, "%s %llu", cases[i].profile,
				    cases[i].size);
		expect_valid(test, t);
	}

	/* a zero visible size and system memory end stay zero */
	memset(&ovr, 0, sizeof(ovr));
	ovr.mem_size[1] = SZ_64M;
	KUNIT_ASSERT_EQ(test, vseg_segment_table_from_profile(t, "discrete",
							      &ovr), 0);
	KUNIT_EXPECT_EQ(test, t->seg[1].size, SZ_64M);
	KUNIT_EXPECT_EQ(test, t->seg[1].cpu_visible_size, 0);
	KUNIT_EXPECT_EQ(test, t->seg[1].system_memory_end, 0);
	expect_valid(test, t);
}

static void segment_profile_overrides(struct kunit *test)
{
	struct vseg_segment_table *t = new_table(test);
	struct vseg_profile_overrides ovr = {};
	const struct vseg_segment_desc *s;

	/* resize both memory segments of "discrete" */
	ovr.mem_size[0] = SZ_64M;
	ovr.mem_size[1] = SZ_8M;
	KUNIT_ASSERT_EQ(test, vseg_segment_table_from_profile(t, "discrete",
							      &ovr), 0);
	expect_valid(test, t);
	s = &t->seg[0];
	KUNIT_EXPECT_EQ(test, s->size, SZ_64M);
	KUNIT_EXPECT_EQ(test, s->commit_limit, SZ_64M);
	KUNIT_EXPECT_EQ(test, s->cpu_visible_size, SZ_64M);	/* followed */
	KUNIT_EXPECT_EQ(test, s->bank_end[0], SZ_32M);		/* scaled */
	KUNIT_EXPECT_EQ(test, s->bank_end[1], SZ_64M);
	KUNIT_EXPECT_EQ(test, t->seg[1].base_address, SZ_64M);	/* rebased */
	KUNIT_EXPECT_EQ(test, t->seg[1].size, SZ_8M);
	KUNIT_EXPECT_EQ(test, t->seg[1].commit_limit, SZ_8M);
	KUNIT_EXPECT_EQ(test, t->seg[2].base_address, 0x100000000ULL);

	/* scaled bank ends are rounded down to the segment page */
	memset(&ovr, 0, sizeof(ovr));
	ovr.mem_size[0] = SZ_32M + SZ_64K;
	KUNIT_ASSERT_EQ(test, vseg_segment_table_from_profile(t, "discrete",
							      &ovr), 0);
	expect_valid(test, t);
	KUNIT_EXPECT_EQ(test, t->seg[0].bank_end[0], SZ_16M);
	KUNIT_EXPECT_EQ(test, t->seg[0].bank_end[1], SZ_32M + SZ_64K);
	KUNIT_EXPECT_EQ(test, t->seg[1].base_address, SZ_32M + SZ_64K);

	memset(&ovr, 0, sizeof(ovr));
	ovr.mem_size[0] = SZ_8M;
	KUNIT_ASSERT_EQ(test, vseg_segment_table_from_profile(t, "discrete",
							      &ovr), 0);
	expect_valid(test, t);
	KUNIT_EXPECT_EQ(test, t->seg[0].bank_end[0], SZ_4M);
	KUNIT_EXPECT_EQ(test, t->seg[0].bank_end[1], SZ_8M);

	/* smallbar: a partial CPU-visible size is kept, or clamped */
	memset(&ovr, 0, sizeof(ovr));
	ovr.mem_size[0] = SZ_32M;
	KUNIT_ASSERT_EQ(test, vseg_segment_table_from_profile(t, "smallbar",
							      &ovr), 0);
	KUNIT_EXPECT_EQ(test, t->seg[0].cpu_visible_size, SZ_16M);
	ovr.mem_size[0] = SZ_8M;
	KUNIT_ASSERT_EQ(test, vseg_segment_table_from_profile(t, "smallbar",
							      &ovr), 0);
	KUNIT_EXPECT_EQ(test, t->seg[0].cpu_visible_size, SZ_8M);
	expect_valid(test, t);

	/* visible_size applies to the first memory segment if CPU-visible */
	memset(&ovr, 0, sizeof(ovr));
	ovr.visible_size = SZ_4M;
	KUNIT_ASSERT_EQ(test, vseg_segment_table_from_profile(t, "smallbar",
							      &ovr), 0);
	KUNIT_EXPECT_EQ(test, t->seg[0].cpu_visible_size, SZ_4M);
	expect_valid(test, t);
	/* resizing first, then the explicit visible size wins */
	ovr.mem_size[0] = SZ_128M;
	KUNIT_ASSERT_EQ(test, vseg_segment_table_from_profile(t, "smallbar",
							      &ovr), 0);
	KUNIT_EXPECT_EQ(test, t->seg[0].size, SZ_128M);
	KUNIT_EXPECT_EQ(test, t->seg[0].cpu_visible_size, SZ_4M);

	/* integrated: the system memory end follows the size */
	memset(&ovr, 0, sizeof(ovr));
	ovr.mem_size[0] = SZ_16M;
	KUNIT_ASSERT_EQ(test, vseg_segment_table_from_profile(t, "integrated",
							      &ovr), 0);
	KUNIT_EXPECT_EQ(test, t->seg[0].system_memory_end, SZ_16M);
	KUNIT_EXPECT_EQ(test, t->seg[0].cpu_visible_size, SZ_16M);
	expect_valid(test, t);

	/* multi: every memory segment, bases stay consecutive */
	memset(&ovr, 0, sizeof(ovr));
	ovr.mem_size[2] = SZ_2M;
	ovr.mem_size[5] = SZ_16M;
	KUNIT_ASSERT_EQ(test, vseg_segment_table_from_profile(t, "multi",
							      &ovr), 0);
	expect_valid(test, t);
	KUNIT_EXPECT_EQ(test, t->seg[2].size, SZ_2M);
	KUNIT_EXPECT_EQ(test, t->seg[3].base_address, 2 * SZ_8M + SZ_2M);
	KUNIT_EXPECT_EQ(test, t->seg[5].base_address, 4 * SZ_8M + SZ_2M);
	KUNIT_EXPECT_EQ(test, t->seg[5].size, SZ_16M);
}

static void segment_profile_aperture_overrides(struct kunit *test)
{
	struct vseg_segment_table *t = new_table(test);
	struct vseg_profile_overrides ovr = {};
	const struct vseg_segment_desc *ap;

	/* a smaller aperture clamps the profile's commit limit */
	ovr.aperture_size = SZ_16M;
	KUNIT_ASSERT_EQ(test, vseg_segment_table_from_profile(t, "discrete",
							      &ovr), 0);
	ap = vseg_segment_table_aperture(t);
	KUNIT_ASSERT_NOT_NULL(test, ap);
	KUNIT_EXPECT_EQ(test, ap->size, SZ_16M);
	KUNIT_EXPECT_EQ(test, ap->commit_limit, SZ_16M);
	expect_valid(test, t);

	/* a larger one keeps it */
	ovr.aperture_size = SZ_128M;
	KUNIT_ASSERT_EQ(test, vseg_segment_table_from_profile(t, "discrete",
							      &ovr), 0);
	KUNIT_EXPECT_EQ(test, ap->size, SZ_128M);
	KUNIT_EXPECT_EQ(test, ap->commit_limit, SZ_32M);

	/* an explicit commit limit is taken as it is */
	ovr.aperture_commit = SZ_8M;
	KUNIT_ASSERT_EQ(test, vseg_segment_table_from_profile(t, "discrete",
							      &ovr), 0);
	KUNIT_EXPECT_EQ(test, ap->commit_limit, SZ_8M);
	expect_valid(test, t);

	ovr.aperture_size = 0;
	ovr.aperture_commit = SZ_64M;
	KUNIT_ASSERT_EQ(test, vseg_segment_table_from_profile(t, "discrete",
							      &ovr), 0);
	KUNIT_EXPECT_EQ(test, ap->commit_limit, SZ_64M);
	expect_valid(test, t);
}

struct override_case {
	const char *name;
	const char *profile;
	struct vseg_profile_overrides ovr;
	int build_ret;
	u32 segment;
	enum vseg_table_rule rule;
	const char *msg;
};

static const struct override_case bad_overrides[] = {
	/* refused by vseg_segment_table_from_profile() */
	{ "resize-missing-segment", "discrete",
	  { .mem_size = { SZ_8M, SZ_8M, SZ_8M } }, -EINVAL },
	{ "resize-sixth-of-smallbar", "smallbar",
	  { .mem_size = { [5] = SZ_8M } }, -EINVAL },
	/* built, then refused by vseg_segment_table_check() */
	{ "visible-above-size", "smallbar", { .visible_size = SZ_128M }, 0,
	  1, VSEG_RULE_VISIBLE_SIZE,
	  "CPU-visible size 0x8000000 exceeds the size" },
	{ "visible-unaligned", "smallbar", { .visible_size = SZ_4K }, 0,
	  1, VSEG_RULE_VISIBLE_ALIGN,
	  "CPU-visible size 0x1000 is not a multiple of the page size" },
	{ "aperture-commit-above-size", "discrete",
	  { .aperture_commit = SZ_128M }, 0,
	  3, VSEG_RULE_APERTURE_COMMIT_SIZE,
	  "aperture commit limit 0x8000000 exceeds its size 0x4000000" },
	{ "memory-overlaps-aperture", "discrete",
	  { .mem_size = { SZ_4G } }, 0,
	  3, VSEG_RULE_GPU_RANGE_OVERLAP,
	  "GPU address range overlaps segment 2 \"local\"" },
	{ "memory-above-1t", "integrated",
	  { .mem_size = { SZ_1T + SZ_4K } }, 0,
	  1, VSEG_RULE_SIZE_LIMIT,
	  "size 0x10000001000 exceeds the 1 TiB limit of a memory segment" },
	{ "aperture-above-4g", "discrete",
	  { .aperture_size = SZ_4G + SZ_4K }, 0,
	  3, VSEG_RULE_APERTURE_SIZE_LIMIT,
	  "size 0x100001000 exceeds the 4 GiB limit of the aperture" },
	{ "memory-not-page-multiple", "discrete",
	  { .mem_size = { SZ_32M + SZ_4K } }, 0,
	  1, VSEG_RULE_SIZE_ALIGN,
	  "size 0x2001000 is not a multiple of the page size 65536" },
	{ "aperture-commit-unaligned", "integrated",
	  { .aperture_commit = SZ_1M + SZ_4K / 2 }, 0,
	  2, VSEG_RULE_APERTURE_COMMIT_ALIGN,
	  "commit limit 0x100800 is zero or not a multiple of the page size" },
};

KUNIT_ARRAY_PARAM_DESC(bad_overrides, bad_overrides, name);

static void segment_bad_override(struct kunit *test)
{
	const struct override_case *c = test->param_value;
	struct vseg_segment_table *t = new_table(test);
	int ret;

	ret = vseg_segment_table_from_profile(t, c->profile, &c->ovr);
	KUNIT_EXPECT_EQ(test, ret, c->build_ret);
	if (!ret && !c->build_ret)
		expect_rule(test, t, c->name, c->segment, c->rule, c->msg);
}

/* --- text tables -------------------------------------------------------- */

#define EXAMPLE_TABLE \
	"memory:name=vram,size=32M,page=64K,flags=cpuvisible|banking|64kpages," \
	"banks=16M,cpu=0xe0000000;memory:name=local,size=16M;" \
	"aperture:size=64M,commit=32M;paging:size=64K"

static void segment_parse_example(struct kunit *test)
{
	struct vseg_segment_table *t = parse_ok(test, EXAMPLE_TABLE);
	struct vseg_segment_table *d = new_table(test);

	expect_valid(test, t);
	/* the example is the discrete profile written out, but CacheCoherent */
	KUNIT_ASSERT_EQ(test, vseg_segment_table_from_profile(d, "discrete",
							      NULL), 0);
	d->seg[2].flags &= ~VSEG_SEGF_CACHE_COHERENT;
	KUNIT_EXPECT_EQ(test, memcmp(t, d, sizeof(*t)), 0);
}

static void segment_parse_defaults(struct kunit *test)
{
	struct vseg_segment_table *t;

	t = parse_ok(test, "memory:size=8M;memory:size=4M,flags=64kpages|cpuvisible;aperture:size=16M");
	KUNIT_ASSERT_EQ(test, t->num_segments, 3);
	/* no default CPU-translated address: CpuVisible needs one */
	KUNIT_EXPECT_EQ(test, t->seg[1].cpu_translated_address, 0);
	expect_rule(test, t, "defaults", 2, VSEG_RULE_CPU_ADDRESS_ZERO,
		    "CpuVisible without a CPU-translated address");
	t->seg[1].cpu_translated_address = 0xe0000000;
	/* names, bases, page sizes, visible sizes, commit limits */
	expect_segment(test, &t->seg[0], 1, "mem1", VSEG_SEGMENT_MEMORY, 0, 0,
		       SZ_8M, 0, SZ_8M, SZ_4K);
	expect_segment(test, &t->seg[1], 2, "mem2", VSEG_SEGMENT_MEMORY,
		       VSEG_SEGF_USE_64KB_PAGES | VSEG_SEGF_CPU_VISIBLE,
		       SZ_8M, SZ_4M, SZ_4M, SZ_4M, SZ_64K);
	expect_segment(test, &t->seg[2], 3, "aperture", VSEG_SEGMENT_APERTURE,
		       VSEG_SEGF_APERTURE, 0x100000000ULL, SZ_16M, 0, SZ_16M,
		       SZ_4K);
	KUNIT_EXPECT_EQ(test, t->paging_buffer_segment_id, 3);
	KUNIT_EXPECT_EQ(test, t->paging_buffer_size, SZ_64K);
	KUNIT_EXPECT_EQ(test, t->paging_buffer_private_data_size, 0);
	expect_valid(test, t);

	/*
	 * an Agp aperture keeps Agp alone and the default size, whatever
	 * its size key says; CpuVisible there has no size
	 */
	t = parse_ok(test, "memory:size=8M;aperture:size=16M,flags=agp");
	KUNIT_EXPECT_EQ(test, t->seg[1].flags, VSEG_SEGF_AGP);
	KUNIT_EXPECT_EQ(test, t->seg[1].size, VSEG_AGP_DEFAULT_SIZE);
	KUNIT_EXPECT_EQ(test, t->seg[1].commit_limit, VSEG_AGP_DEFAULT_SIZE);
	expect_valid(test, t);
	t = parse_ok(test, "memory:size=8M;aperture:size=16M,flags=cpuvisible");
	KUNIT_EXPECT_EQ(test, t->seg[1].flags,
			VSEG_SEGF_APERTURE | VSEG_SEGF_CPU_VISIBLE);
	KUNIT_EXPECT_EQ(test, t->seg[1].cpu_visible_size, 0);

	/* a base moves the next memory segment's default base */
	t = parse_ok(test, "memory:size=8M,base=1G;memory:size=8M;aperture:size=16M,base=8G");
	KUNIT_EXPECT_EQ(test, t->seg[0].base_address, SZ_1G);
	KUNIT_EXPECT_EQ(test, t->seg[1].base_address, SZ_1G + SZ_8M);
	KUNIT_EXPECT_EQ(test, t->seg[2].base_address, 8ULL * SZ_1G);

	/* no aperture: the paging buffer defaults to segment 0 */
	t = parse_ok(test, "memory:size=8M");
	KUNIT_EXPECT_EQ(test, t->paging_buffer_segment_id, 0);

	/* explicit paging item */
	t = parse_ok(test, "memory:size=8M;aperture:size=16M;paging:seg=0,size=128K,priv=0x100");
	KUNIT_EXPECT_EQ(test, t->paging_buffer_segment_id, 0);
	KUNIT_EXPECT_EQ(test, t->paging_buffer_size, SZ_128K);
	KUNIT_EXPECT_EQ(test, t->paging_buffer_private_data_size, 0x100);
	expect_valid(test, t);

	/* paging first, "paging:" with no pairs */
	t = parse_ok(test, "paging:;aperture:size=16M;memory:size=8M");
	KUNIT_EXPECT_EQ(test, t->paging_buffer_segment_id, 1);
	KUNIT_EXPECT_EQ(test, t->paging_buffer_size, SZ_64K);
}

/*
 * An Agp aperture is sized by vseg_segment_table_size_agp() (the
 * aperture_size_mb and aperture_commit_mb parameters), never by its table.
 */
static void segment_agp_size(struct kunit *test)
{
	struct vseg_segment_table *t, *before = new_table(test);
	struct vseg_segment_desc *ap;

	/* no size needed; the default size, the commit limit follows it */
	t = parse_ok(test, "memory:name=m,size=16M;aperture:flags=agp");
	ap = &t->seg[1];
	KUNIT_EXPECT_EQ(test, ap->size, VSEG_AGP_DEFAULT_SIZE);
	KUNIT_EXPECT_EQ(test, ap->commit_limit, VSEG_AGP_DEFAULT_SIZE);
	expect_valid(test, t);

	/* 0, 0: the defaults */
	vseg_segment_table_size_agp(t, 0, 0);
	KUNIT_EXPECT_EQ(test, ap->size, VSEG_AGP_DEFAULT_SIZE);
	KUNIT_EXPECT_EQ(test, ap->commit_limit, VSEG_AGP_DEFAULT_SIZE);

	/* a default commit limit follows the size, up and down */
	vseg_segment_table_size_agp(t, SZ_16M, 0);
	KUNIT_EXPECT_EQ(test, ap->size, SZ_16M);
	KUNIT_EXPECT_EQ(test, ap->commit_limit, SZ_16M);
	expect_valid(test, t);
	vseg_segment_table_size_agp(t, SZ_1G, 0);
	KUNIT_EXPECT_EQ(test, ap->size, SZ_1G);
	KUNIT_EXPECT_EQ(test, ap->commit_limit, SZ_1G);
	expect_valid(test, t);

	/* an explicit commit limit */
	vseg_segment_table_size_agp(t, SZ_32M, SZ_8M);
	KUNIT_EXPECT_EQ(test, ap->size, SZ_32M);
	KUNIT_EXPECT_EQ(test, ap->commit_limit, SZ_8M);
	expect_valid(test, t);

	/* the table's commit limit is kept, clamped to a smaller size */
	t = parse_ok(test, "memory:name=m,size=16M;aperture:size=4K,flags=agp,commit=32M");
	ap = &t->seg[1];
	KUNIT_EXPECT_EQ(test, ap->size, VSEG_AGP_DEFAULT_SIZE);
	KUNIT_EXPECT_EQ(test, ap->commit_limit, SZ_32M);
	vseg_segment_table_size_agp(t, SZ_128M, 0);
	KUNIT_EXPECT_EQ(test, ap->commit_limit, SZ_32M);
	vseg_segment_table_size_agp(t, SZ_16M, 0);
	KUNIT_EXPECT_EQ(test, ap->commit_limit, SZ_16M);
	expect_valid(test, t);

	/* the parameters still obey the rules */
	vseg_segment_table_size_agp(t, SZ_4G + SZ_4K, 0);
	expect_rule(test, t, "agp-above-4g", 2, VSEG_RULE_APERTURE_SIZE_LIMIT,
		    "size 0x100001000 exceeds the 4 GiB limit of the aperture");
	vseg_segment_table_size_agp(t, SZ_16M, SZ_32M);
	expect_rule(test, t, "agp-commit-param", 2,
		    VSEG_RULE_APERTURE_COMMIT_SIZE,
		    "aperture commit limit 0x2000000 exceeds its size 0x1000000");

	/* an aperture that is not Agp keeps the table's size */
	t = parse_ok(test, M16 AP ",commit=32M");
	memcpy(before, t, sizeof(*t));
	vseg_segment_table_size_agp(t, SZ_16M, SZ_8M);
	KUNIT_EXPECT_EQ(test, memcmp(before, t, sizeof(*t)), 0);

	/* no aperture: nothing to do */
	t = parse_ok(test, M16);
	memcpy(before, t, sizeof(*t));
	vseg_segment_table_size_agp(t, SZ_16M, SZ_8M);
	KUNIT_EXPECT_EQ(test, memcmp(before, t, sizeof(*t)), 0);
}

/* The messages of the rules that name the host page size. */
static void segment_host_page_messages(struct kunit *test)
{
	struct vseg_segment_table *t;
	char msg[VSEG_TABLE_ERROR_MSG_LEN];

	t = parse_ok(test, "memory:name=m,size=0x1800" AP);
	snprintf(msg, sizeof(msg),
		 "size 0x1800 is not a multiple of the host page size %lu",
		 PAGE_SIZE);
	expect_rule(test, t, "size", 1, VSEG_RULE_SIZE_HOST_PAGE, msg);

	t = parse_ok(test, M16 ",flags=cpuvisible,cpu=0xe0000800" AP);
	snprintf(msg, sizeof(msg),
		 "CPU-translated address 0xe0000800 is not a multiple of the host page size %lu",
		 PAGE_SIZE);
	expect_rule(test, t, "cpu", 1, VSEG_RULE_CPU_ADDRESS_ALIGN, msg);

	/* a host-page multiple that is not a segment-page multiple */
	if (PAGE_SIZE < SZ_64K) {
		t = parse_ok(test, "memory:name=m,size=0x100000,flags=64kpages" AP);
		t->seg[0].size = SZ_64K + PAGE_SIZE;
		t->seg[0].commit_limit = t->seg[0].size;
		expect_rule(test, t, "segment page", 1, VSEG_RULE_SIZE_ALIGN,
			    NULL);
	}

	/* the CPU host aperture: its size and address, in host pages */
	t = parse_ok(test, M16 ",flags=cpuhostaperture,hostaperture=0x1800,hostaddr=0xc0000000" AP);
	snprintf(msg, sizeof(msg),
		 "CPU host aperture size 0x1800 is not a multiple of the host page size %lu or exceeds the size",
		 PAGE_SIZE);
	expect_rule(test, t, "host aperture size", 1,
		    VSEG_RULE_HOST_APERTURE_SIZE, msg);
	t = parse_ok(test, M16 ",flags=cpuhostaperture,hostaperture=1M,hostaddr=0xc0000800" AP);
	snprintf(msg, sizeof(msg),
		 "CPU host aperture address 0xc0000800 is not a multiple of the host page size %lu",
		 PAGE_SIZE);
	expect_rule(test, t, "host aperture address", 1,
		    VSEG_RULE_HOST_APERTURE_ADDRESS_ALIGN, msg);
}

static void segment_parse_syntax(struct kunit *test)
{
	struct vseg_segment_table *t;
	const char *text;

	/* surrounding blanks and empty items are ignored */
	t = parse_ok(test, "  ;memory:size=8M;;aperture:size=16M;\n");
	KUNIT_EXPECT_EQ(test, t->num_segments, 2);

	/* flags by WDDM name, any case; keys in any order */
	t = parse_ok(test, "memory:flags=CpuVisible|USE64KBPAGES|standby,size=8M,name=v;aperture:size=16M");
	KUNIT_EXPECT_EQ(test, t->seg[0].flags, VSEG_SEGF_CPU_VISIBLE |
			VSEG_SEGF_USE_64KB_PAGES | VSEG_SEGF_PRESERVED_STANDBY);
	KUNIT_EXPECT_EQ(test, t->seg[0].page_size, SZ_64K);
	KUNIT_EXPECT_STREQ(test, t->seg[0].name, "v");

	/* every short flag name */
	t = parse_ok(test, "memory:size=8M,flags=aperture|agp|cpuvisible|banking|cachecoherent|pitchalignment|populatedfromsystem|standby|hibernate|partialhibernate|directflip|64kpages|reservedsysmem|cpuhostaperture|cachedcpuhostaperture|applicationtarget|vpr|vprstandby|encryptedpaging|localbudget|nonlocalbudget|reservedddr");
	KUNIT_EXPECT_EQ(test, t->seg[0].flags, VSEG_SEGF_ALL);

	/* banks: the last bank ends at the size; invalid ranges */
	t = parse_ok(test, "memory:size=16M,flags=banking,banks=4M/8M,invalid=0+1M/8M+0x10000;aperture:size=16M");
	KUNIT_EXPECT_EQ(test, t->seg[0].num_banks, 3);
	KUNIT_EXPECT_EQ(test, t->seg[0].bank_end[0], SZ_4M);
	KUNIT_EXPECT_EQ(test, t->seg[0].bank_end[1], SZ_8M);
	KUNIT_EXPECT_EQ(test, t->seg[0].bank_end[2], SZ_16M);
	KUNIT_EXPECT_EQ(test, t->seg[0].num_invalid, 2);
	KUNIT_EXPECT_EQ(test, t->seg[0].invalid[1].start, SZ_8M);
	KUNIT_EXPECT_EQ(test, t->seg[0].invalid[1].size, SZ_64K);
	expect_valid(test, t);

	/* the most banks and invalid ranges there is room for */
	t = parse_ok(test, "memory:size=16M,flags=banking,banks=1M/2M/3M/4M/5M/6M/7M/8M/9M/10M/11M/12M/13M/14M/15M,invalid=0+4K/1M+4K/2M+4K/3M+4K;aperture:size=16M");
	KUNIT_EXPECT_EQ(test, t->seg[0].num_banks, VSEG_MAX_BANKS);
	KUNIT_EXPECT_EQ(test, t->seg[0].num_invalid, VSEG_MAX_INVALID_RANGES);
	expect_valid(test, t);

	/* the input is not modified */
	text = "memory:size=8M;aperture:size=16M";
	t = parse_ok(test, text);
	KUNIT_EXPECT_STREQ(test, text, "memory:size=8M;aperture:size=16M");
}

struct text_case {
	const char *name;
	const char *table;
};

/* Tables that parse and are valid (the IGT suite loads the same ones). */
static const struct text_case good_tables[] = {
	{ "example", EXAMPLE_TABLE },
	{ "invalid-ranges",
	  "memory:name=m,size=16M,invalid=0+1M/8M+0x10000;aperture:name=gart,size=32M" },
	{ "paging-system",
	  "memory:name=m,size=8M;aperture:name=gart,size=16M,commit=8M;paging:seg=0,size=128K,priv=0x100" },
	{ "flags",
	  "memory:name=vis,size=8M,cpu=0xd0000000,visible=4M,flags=cpuvisible|standby|hibernate|directflip|applicationtarget|vpr|vprstandby|encryptedpaging|localbudget,vprsize=1M,vpralign=4K;"
	  "memory:name=sys,size=4M,sysend=2M,flags=populatedfromsystem|standby|partialhibernate|reservedsysmem|reservedddr;"
	  "memory:name=host,size=4M,flags=cpuhostaperture|cachedcpuhostaperture|pitchalignment|nonlocalbudget,"
	  "hostaperture=1M,hostaddr=0xc0000000;"
	  "aperture:size=16M,flags=cachecoherent|nonlocalbudget" },
	{ "six-memory-segments",
	  "memory:name=s0,size=4M;memory:name=s1,size=4M,flags=64kpages;"
	  "memory:name=s2,size=4M;memory:name=s3,size=4M,flags=64kpages;"
	  "memory:name=s4,size=4M;memory:name=s5,size=4M,flags=64kpages;"
	  "aperture:size=16M" },
	{ "explicit-bases",
	  "memory:name=a,size=8M,base=0x40000000;memory:name=b,size=0x800000;aperture:size=16M,base=0x200000000" },
	{ "aperture-first", "aperture:size=16M;memory:name=m,size=8M,flags=64kpages" },
	{ "agp-aperture-over-memory",
	  "memory:name=m,size=16M;aperture:size=16M,base=0,flags=agp" },
	{ "size-4g", "memory:name=m,size=4G;aperture:size=16M,base=8G" },
	{ "size-16g", "memory:name=m,size=16G;aperture:size=16M,base=16G" },
	{ "size-1t", "memory:name=m,size=1024G;aperture:size=16M,base=1024G" },
	{ "aperture-4g", "memory:name=m,size=16M;aperture:size=4G" },
	{ "size-64k-pages-16g",
	  "memory:name=m,size=16G,flags=64kpages;aperture:size=16M,base=16G" },
	{ "cpu-address", M16 ",flags=cpuvisible,cpu=0xe0000000" AP },
	{ "cpu-address-small-bar",
	  "memory:name=m,size=16G,flags=cpuvisible|64kpages,visible=256M,cpu=0x4000000000;"
	  "aperture:size=16M,base=16G" },
	{ "cpu-range-at-top", M16 ",flags=cpuvisible,cpu=0xffffffffff000000" AP },
	{ "agp-without-size", "memory:name=m,size=16M;aperture:flags=agp" },
	{ "agp-with-commit", "memory:name=m,size=16M;aperture:flags=agp,commit=16M" },
	{ "invalid-range-at-end", "memory:name=m,size=16M,invalid=15M+1M;aperture:size=16M" },
	{ "visible-64k-part",
	  "memory:name=m,size=16M,flags=cpuvisible|64kpages,visible=64K,"
	  "cpu=0xe0000000;aperture:size=16M" },
	{ "sysend-at-end", "memory:name=m,size=16M,sysend=16M;aperture:size=16M" },
	{ "commit-one-page", "memory:name=m,size=16M;aperture:size=16M,commit=4K" },
	{ "paging-aperture", "memory:name=m,size=16M;aperture:size=16M;paging:seg=2" },
	{ "paging-one-operation", "memory:name=m,size=16M;aperture:size=16M;paging:size=32" },
	{ "paging-system-max", "memory:name=m,size=16M;aperture:size=16M;paging:seg=0,size=4M,priv=64K" },
	{ "paging-whole-commit-limit", "memory:name=m,size=16M;aperture:size=16M,commit=64K;paging:size=64K" },
	{ "adjacent-ranges", "memory:name=a,size=16M;memory:name=b,size=16M;aperture:size=16M,base=32M" },
	{ "vpr-whole-segment",
	  "memory:name=m,size=16M,flags=vpr|vprstandby|encryptedpaging,"
	  "vprstart=0,vprsize=16M,vpralign=4K,vprcount=1,vprreserve=16M;aperture:size=16M" },
	{ "vpr-beside-invalid-and-uefi",
	  "memory:name=m,size=16M,flags=vpr,invalid=0+1M,uefi=3M+1M,"
	  "vprstart=1M,vprsize=2M,vpralign=1M;aperture:size=16M" },
	{ "vpr-64k-pages",
	  "memory:name=m,size=16M,page=64K,flags=64kpages|vpr,"
	  "vprstart=8M,vprsize=64K,vpralign=64K,vprreserve=0;aperture:size=16M" },
	{ "uefi-ranges",
	  "memory:name=m,size=16M,flags=reservedddr,invalid=1M+1M,"
	  "uefi=0+1M/2M+1M/8M+4K/15M+1M;aperture:size=16M" },
	{ "host-aperture", M16 ",flags=cpuhostaperture,hostaperture=1M,hostaddr=0xc0000000" AP },
	{ "host-aperture-whole-segment",
	  M16 ",flags=cpuhostaperture|cachedcpuhostaperture,hostaperture=16M,hostaddr=0xc0000000" AP },
	{ "host-aperture-beside-visible",
	  "memory:name=v,size=16M,flags=cpuvisible,cpu=0xc0000000;"
	  "memory:name=h,size=16M,flags=cpuhostaperture,hostaperture=1M,hostaddr=0xc1000000" AP },
	{ "host-aperture-at-top",
	  M16 ",flags=cpuhostaperture,hostaperture=1M,hostaddr=0xfffffffffff00000" AP },
	/* limits stricter than the seeds that went (issue 23) */
	{ "cpu-address-on-aperture-ignored", M16 AP ",cpu=0xe0000000" },
	{ "cpu-address-on-agp-aperture-ignored",
	  M16 ";aperture:flags=agp,cpu=0xe0001000" },
	{ "memory-commit-zero", M16 ",commit=0" AP },
	{ "banking-one-bank", M16 ",flags=banking" AP },
	{ "vpr-align-zero", M16 ",flags=vpr,vprsize=1M" AP },
	{ "vpr-align-not-power-of-two", M16 ",flags=vpr,vprsize=3M,vpralign=0x3000" AP },
	{ "vpr-align-below-page",
	  "memory:name=m,size=16M,page=64K,flags=64kpages|vpr,vprsize=1M,vpralign=4K" AP },
	{ "vpr-align-one", M16 ",flags=vpr,vprstart=4K,vprsize=12K,vpralign=1" AP },
};

KUNIT_ARRAY_PARAM_DESC(good_tables, good_tables, name);

static void segment_good_table(struct kunit *test)
{
	const struct text_case *c = test->param_value;

	expect_valid(test, parse_ok(test, c->table));
}

/* Every rule a text table can break, and tables the parser refuses. */
static const struct table_case bad_tables[] = {
	/* the shape of the table */
	{ "no-aperture", M16,
	  0, VSEG_RULE_APERTURE_COUNT,
	  "exactly one aperture segment is required, found 0" },
	{ "two-apertures",
	  M16 ";aperture:name=a1,size=64M;aperture:name=a2,size=64M,base=0x200000000",
	  0, VSEG_RULE_APERTURE_COUNT,
	  "exactly one aperture segment is required, found 2" },
	{ "too-many-memory-segments",
	  "memory:name=m1,size=4M;memory:name=m2,size=4M;memory:name=m3,size=4M;"
	  "memory:name=m4,size=4M;memory:name=m5,size=4M;memory:name=m6,size=4M;"
	  "memory:name=m7,size=4M",
	  0, VSEG_RULE_TOO_MANY_MEMORY_SEGMENTS,
	  "too many memory segments: 7, TTM has room for 6" },
	{ "paging-not-aperture", M16 AP ";paging:seg=1,size=64K",
	  0, VSEG_RULE_PAGING_SEGMENT,
	  "paging buffer segment 1 is not the aperture" },
	{ "paging-beyond-table", M16 AP ";paging:seg=9",
	  0, VSEG_RULE_PAGING_SEGMENT,
	  "paging buffer segment 9 is not the aperture" },
	/* kind and flags */
	{ "memory-with-agp", M16 ",flags=agp" AP,
	  1, VSEG_RULE_KIND_FLAGS,
	  "kind does not match the Aperture/Agp flags" },
	{ "memory-with-aperture-flag", M16 ",flags=aperture" AP,
	  1, VSEG_RULE_KIND_FLAGS,
	  "kind does not match the Aperture/Agp flags" },
	{ "agp-not-alone", M16 AP ",flags=aperture|agp",
	  2, VSEG_RULE_AGP_ALONE,
	  "Agp must be set alone" },
	{ "hibernate-without-standby", M16 ",flags=hibernate" AP,
	  1, VSEG_RULE_HIBERNATE_NEEDS_STANDBY,
	  "PreservedDuringHibernate needs PreservedDuringStandby" },
	{ "partial-hibernate-without-standby", M16 ",flags=partialhibernate" AP,
	  1, VSEG_RULE_PARTIAL_HIBERNATE_NEEDS_STANDBY,
	  "PartiallyPreservedDuringHibernate needs PreservedDuringStandby" },
	{ "hibernate-and-partial-hibernate",
	  M16 ",flags=standby|hibernate|partialhibernate" AP,
	  1, VSEG_RULE_HIBERNATE_EXCLUSIVE,
	  "PreservedDuringHibernate and PartiallyPreservedDuringHibernate exclude each other" },
	{ "cache-coherent-memory", M16 ",flags=cachecoherent" AP,
	  1, VSEG_RULE_CACHE_COHERENT,
	  "CacheCoherent is only valid on the aperture" },
	{ "populated-aperture", M16 AP ",flags=populatedfromsystem",
	  2, VSEG_RULE_POPULATED_FROM_SYSMEM,
	  "PopulatedFromSystemMemory is only valid on a memory segment" },
	{ "cpu-host-aperture-and-visible",
	  M16 ",flags=cpuhostaperture|cpuvisible" AP,
	  1, VSEG_RULE_CPU_HOST_APERTURE,
	  "SupportsCpuHostAperture cannot be combined with CpuVisible" },
	{ "cached-cpu-host-aperture-alone",
	  M16 ",flags=cachedcpuhostaperture" AP,
	  1, VSEG_RULE_CACHED_CPU_HOST_APERTURE,
	  "SupportsCachedCpuHostAperture needs SupportsCpuHostAperture" },
	{ "vpr-standby-without-vpr", M16 ",flags=vprstandby" AP,
	  1, VSEG_RULE_VPR_STANDBY,
	  "VprPreservedDuringStandby needs VprSupported" },
	/* size, page size, commit limit */
	{ "size-zero", "memory:name=m,size=0" AP,
	  1, VSEG_RULE_SIZE_ZERO,
	  "size is zero" },
	{ "page-size-8k", M16 ",page=8K" AP,
	  1, VSEG_RULE_PAGE_SIZE,
	  "page size 8192 is not 4096 or 65536" },
	{ "page-size-zero", M16 ",page=0" AP,
	  1, VSEG_RULE_PAGE_SIZE,
	  "page size 0 is not 4096 or 65536" },
	{ "aperture-64k-pages", M16 AP ",page=64K",
	  2, VSEG_RULE_APERTURE_PAGE_SIZE,
	  "aperture page size must be 4096" },
	{ "size-not-page-multiple",
	  "memory:name=m,size=0x11000,page=64K,flags=64kpages" AP,
	  1, VSEG_RULE_SIZE_ALIGN,
	  "size 0x11000 is not a multiple of the page size 65536" },
	{ "size-not-host-page", "memory:name=m,size=0x1800" AP,
	  1, VSEG_RULE_SIZE_HOST_PAGE },	/* message: host_page_messages */
	{ "aperture-size-not-host-page", M16 ";aperture:size=0x10800",
	  2, VSEG_RULE_SIZE_HOST_PAGE },
	{ "size-above-1t", "memory:name=m,size=0x10000001000" AP,
	  1, VSEG_RULE_SIZE_LIMIT,
	  "size 0x10000001000 exceeds the 1 TiB limit of a memory segment" },
	{ "size-above-1t-64k",
	  "memory:name=m,size=0x10000010000,flags=64kpages" AP,
	  1, VSEG_RULE_SIZE_LIMIT,
	  "size 0x10000010000 exceeds the 1 TiB limit of a memory segment" },
	{ "aperture-above-4g", M16 ";aperture:size=0x100001000",
	  2, VSEG_RULE_APERTURE_SIZE_LIMIT,
	  "size 0x100001000 exceeds the 4 GiB limit of the aperture" },
	{ "agp-commit-above-size", M16 ";aperture:flags=agp,commit=128M",
	  2, VSEG_RULE_APERTURE_COMMIT_SIZE,
	  "aperture commit limit 0x8000000 exceeds its size 0x4000000" },
	{ "64k-pages-without-flag", M16 ",page=64K" AP,
	  1, VSEG_RULE_PAGE_SIZE_FLAG,
	  "Use64KBPages does not match the page size 65536" },
	{ "64k-flag-with-4k-pages", M16 ",page=4K,flags=64kpages" AP,
	  1, VSEG_RULE_PAGE_SIZE_FLAG,
	  "Use64KBPages does not match the page size 4096" },
	{ "memory-commit-below-size", M16 ",commit=8M" AP,
	  1, VSEG_RULE_MEMORY_COMMIT,
	  "commit limit 0x800000 of a memory segment must be 0 or its size 0x1000000" },
	{ "memory-commit-above-size", M16 ",commit=32M" AP,
	  1, VSEG_RULE_MEMORY_COMMIT,
	  "commit limit 0x2000000 of a memory segment must be 0 or its size 0x1000000" },
	{ "aperture-commit-above-size", M16 AP ",commit=128M",
	  2, VSEG_RULE_APERTURE_COMMIT_SIZE,
	  "aperture commit limit 0x8000000 exceeds its size 0x4000000" },
	{ "aperture-commit-zero", M16 AP ",commit=0",
	  2, VSEG_RULE_APERTURE_COMMIT_ALIGN,
	  "commit limit 0x0 is zero or not a multiple of the page size" },
	{ "aperture-commit-unaligned", M16 AP ",commit=0x1800",
	  2, VSEG_RULE_APERTURE_COMMIT_ALIGN,
	  "commit limit 0x1800 is zero or not a multiple of the page size" },
	/* banks */
	{ "banks-without-banking", M16 ",banks=8M" AP,
	  1, VSEG_RULE_BANKS_WITHOUT_BANKING,
	  "banks without UseBanking" },
	{ "banking-on-aperture-without-banks", M16 AP ",flags=banking",
	  2, VSEG_RULE_BANKING_WITHOUT_BANKS,
	  "UseBanking without banks" },
	{ "banks-on-aperture", M16 AP ",flags=banking,banks=32M",
	  2, VSEG_RULE_APERTURE_BANKS,
	  "banks on an aperture segment" },
	{ "bank-unaligned", M16 ",flags=banking,banks=0x1800" AP,
	  1, VSEG_RULE_BANK_ALIGN,
	  "bank 0 end 0x1800 is not page aligned" },
	{ "bank-unaligned-64k",
	  "memory:name=m,size=16M,flags=banking|64kpages,banks=0x1000" AP,
	  1, VSEG_RULE_BANK_ALIGN,
	  "bank 0 end 0x1000 is not page aligned" },
	{ "bank-empty", M16 ",flags=banking,banks=0" AP,
	  1, VSEG_RULE_BANK_ORDER,
	  "bank 0 end 0x0 does not follow the previous bank" },
	{ "bank-out-of-order", M16 ",flags=banking,banks=8M/4M" AP,
	  1, VSEG_RULE_BANK_ORDER,
	  "bank 1 end 0x400000 does not follow the previous bank" },
	{ "bank-repeated", M16 ",flags=banking,banks=4M/4M" AP,
	  1, VSEG_RULE_BANK_ORDER,
	  "bank 1 end 0x400000 does not follow the previous bank" },
	{ "bank-outside", M16 ",flags=banking,banks=32M" AP,
	  1, VSEG_RULE_BANK_OUTSIDE,
	  "bank 0 end 0x2000000 is outside the segment" },
	{ "bank-at-size", M16 ",flags=banking,banks=16M" AP,
	  1, VSEG_RULE_BANK_OUTSIDE,
	  "bank 0 end 0x1000000 is outside the segment" },
	/* CPU visibility, system memory end */
	{ "visible-above-size", M16 ",flags=cpuvisible,visible=32M" AP,
	  1, VSEG_RULE_VISIBLE_SIZE,
	  "CPU-visible size 0x2000000 exceeds the size" },
	{ "visible-zero", M16 ",flags=cpuvisible,visible=0" AP,
	  1, VSEG_RULE_VISIBLE_ZERO,
	  "CpuVisible with a zero CPU-visible size" },
	{ "visible-without-flag", M16 ",visible=4M" AP,
	  1, VSEG_RULE_VISIBLE_WITHOUT_FLAG,
	  "CPU-visible size 0x400000 without CpuVisible" },
	{ "visible-unaligned",
	  "memory:name=m,size=16M,flags=cpuvisible|64kpages,visible=4K" AP,
	  1, VSEG_RULE_VISIBLE_ALIGN,
	  "CPU-visible size 0x1000 is not a multiple of the page size" },
	{ "visible-on-aperture", M16 AP ",visible=4K",
	  2, VSEG_RULE_APERTURE_VISIBLE,
	  "CPU-visible size 0x1000 on the aperture must be 0" },
	{ "cpu-address-without-flag", M16 ",cpu=0xe0000000" AP,
	  1, VSEG_RULE_CPU_ADDRESS_WITHOUT_FLAG,
	  "CPU-translated address 0xe0000000 without CpuVisible" },
	{ "cpu-address-missing", M16 ",flags=cpuvisible" AP,
	  1, VSEG_RULE_CPU_ADDRESS_ZERO,
	  "CpuVisible without a CPU-translated address" },
	{ "cpu-address-zero", M16 ",flags=cpuvisible,cpu=0,visible=4M" AP,
	  1, VSEG_RULE_CPU_ADDRESS_ZERO,
	  "CpuVisible without a CPU-translated address" },
	{ "cpu-address-unaligned", M16 ",flags=cpuvisible,cpu=0xe0000800" AP,
	  1, VSEG_RULE_CPU_ADDRESS_ALIGN },	/* message: host_page_messages */
	{ "cpu-range-wraps", M16 ",flags=cpuvisible,cpu=0xffffffffff800000" AP,
	  1, VSEG_RULE_CPU_RANGE_WRAPS,
	  "CPU-visible range at 0xffffffffff800000, 0x1000000 bytes, wraps around the address space" },
	{ "cpu-range-wraps-small-bar",
	  M16 ",flags=cpuvisible,visible=8K,cpu=0xfffffffffffff000" AP,
	  1, VSEG_RULE_CPU_RANGE_WRAPS,
	  "CPU-visible range at 0xfffffffffffff000, 0x2000 bytes, wraps around the address space" },
	{ "sysend-beyond-segment",
	  M16 ",flags=populatedfromsystem,sysend=32M" AP,
	  1, VSEG_RULE_SYSTEM_MEMORY_END,
	  "system memory end 0x2000000 is beyond the segment" },
	{ "sysend-beyond-aperture", M16 AP ",sysend=128M",
	  2, VSEG_RULE_SYSTEM_MEMORY_END,
	  "system memory end 0x8000000 is beyond the segment" },
	/* invalid ranges */
	{ "invalid-range-empty", M16 ",invalid=0x1000+0" AP,
	  1, VSEG_RULE_INVALID_RANGE,
	  "invalid range 0 [0x1000, +0x0) is empty, unaligned or outside the segment" },
	{ "invalid-range-unaligned", M16 ",invalid=0x800+0x1000" AP,
	  1, VSEG_RULE_INVALID_RANGE,
	  "invalid range 0 [0x800, +0x1000) is empty, unaligned or outside the segment" },
	{ "invalid-range-unaligned-size", M16 ",invalid=0+0x800" AP,
	  1, VSEG_RULE_INVALID_RANGE,
	  "invalid range 0 [0x0, +0x800) is empty, unaligned or outside the segment" },
	{ "invalid-range-outside", M16 ",invalid=15M+2M" AP,
	  1, VSEG_RULE_INVALID_RANGE,
	  "invalid range 0 [0xf00000, +0x200000) is empty, unaligned or outside the segment" },
	{ "invalid-range-start-outside", M16 ",invalid=32M+4K" AP,
	  1, VSEG_RULE_INVALID_RANGE,
	  "invalid range 0 [0x2000000, +0x1000) is empty, unaligned or outside the segment" },
	{ "invalid-range-wraps", M16 ",invalid=4K+0xfffffffffffff000" AP,
	  1, VSEG_RULE_INVALID_RANGE,
	  "invalid range 0 [0x1000, +0xfffffffffffff000) is empty, unaligned or outside the segment" },
	{ "invalid-range-overlap", M16 ",invalid=0+2M/1M+2M" AP,
	  1, VSEG_RULE_INVALID_RANGE_OVERLAP,
	  "invalid range 1 overlaps invalid range 0" },
	{ "invalid-range-overlap-third", M16 ",invalid=0+1M/4M+1M/4M+4K" AP,
	  1, VSEG_RULE_INVALID_RANGE_OVERLAP,
	  "invalid range 2 overlaps invalid range 1" },
	/* the paging buffer */
	{ "paging-below-one-operation", M16 AP ";paging:size=31",
	  0, VSEG_RULE_PAGING_SIZE,
	  "paging buffer of 31 bytes has no room for one operation (32 bytes)" },
	{ "paging-zero", M16 AP ";paging:seg=0,size=0",
	  0, VSEG_RULE_PAGING_SIZE,
	  "paging buffer of 0 bytes has no room for one operation (32 bytes)" },
	{ "paging-above-max", M16 AP ";paging:seg=0,size=8M",
	  0, VSEG_RULE_PAGING_SIZE,
	  "paging buffer of 8388608 bytes is above 4194304" },
	{ "paging-above-commit-limit", M16 AP ",commit=64K;paging:size=65537",
	  0, VSEG_RULE_PAGING_SIZE,
	  "paging buffer of 65537 bytes is above the aperture's commit limit" },
	{ "paging-private-above-max", M16 AP ";paging:priv=65537",
	  0, VSEG_RULE_PAGING_PRIVATE_SIZE,
	  "paging buffer private data of 65537 bytes is above 65536" },
	/* GPU address space, names */
	{ "gpu-range-overlap",
	  "memory:name=a,size=16M;memory:name=b,size=16M,base=8M" AP,
	  2, VSEG_RULE_GPU_RANGE_OVERLAP,
	  "GPU address range overlaps segment 1 \"a\"" },
	{ "gpu-range-overlaps-aperture",
	  "memory:name=a,size=16M,base=0x100000000" AP,
	  2, VSEG_RULE_GPU_RANGE_OVERLAP,
	  "GPU address range overlaps segment 1 \"a\"" },
	{ "duplicate-name", "memory:name=a,size=16M;memory:name=a,size=16M" AP,
	  2, VSEG_RULE_NAME_DUPLICATE,
	  "name duplicates segment 1" },
	{ "name-uppercase", "memory:name=Vram,size=16M" AP,
	  1, VSEG_RULE_NAME,
	  "name is empty or not [a-z0-9_]" },
	{ "name-empty", "memory:name=,size=16M" AP,
	  1, VSEG_RULE_NAME,
	  "name is empty or not [a-z0-9_]" },
	/* the first broken rule is the one reported */
	{ "first-rule-wins", "memory:name=m,size=0,flags=cachecoherent" AP,
	  1, VSEG_RULE_CACHE_COHERENT,
	  "CacheCoherent is only valid on the aperture" },
	{ "first-segment-wins", "memory:name=a,size=0;memory:name=b,size=0" AP,
	  1, VSEG_RULE_SIZE_ZERO,
	  "size is zero" },
	/* syntax */
	{ "parse-unknown-kind", "bogus:name=x,size=16M" AP,
	  .parse = -EINVAL },
	{ "parse-unknown-key", M16 ",colour=red" AP,
	  .parse = -EINVAL },
	{ "parse-bad-number", "memory:name=m,size=16Q" AP,
	  .parse = -EINVAL },
	{ "parse-number-too-large", "memory:name=m,size=0x10000000000000000" AP,
	  .parse = -EINVAL },
	{ "parse-u32-too-large", M16 ",page=4G" AP,
	  .parse = -EINVAL },
	{ "parse-unknown-flag", M16 ",flags=cpuvisible|shiny" AP,
	  .parse = -EINVAL },
	{ "parse-empty-flag", M16 ",flags=cpuvisible|" AP,
	  .parse = -EINVAL },
	{ "parse-missing-value", "memory:name=m,size" AP,
	  .parse = -EINVAL },
	{ "parse-missing-size", "memory:name=m" AP,
	  .parse = -EINVAL },
	{ "parse-aperture-missing-size", M16 ";aperture:name=aperture",
	  .parse = -EINVAL },
	{ "parse-no-pairs", "memory" AP,
	  .parse = -EINVAL },
	{ "parse-duplicate-key", M16 ",size=8M" AP,
	  .parse = -EINVAL },
	{ "parse-name-too-long", "memory:name=abcdefghijklmnop,size=16M" AP,
	  .parse = -EINVAL },
	{ "parse-too-many-banks",
	  "memory:name=m,size=16M,flags=banking,banks=1M/2M/3M/4M/5M/6M/7M/8M/9M/10M/11M/12M/13M/14M/15M/15M" AP,
	  .parse = -EINVAL },
	{ "parse-too-many-invalid-ranges",
	  M16 ",invalid=0+4K/1M+4K/2M+4K/3M+4K/4M+4K" AP,
	  .parse = -EINVAL },
	{ "parse-invalid-without-length", M16 ",invalid=1M" AP,
	  .parse = -EINVAL },
	{ "parse-two-paging-items", M16 AP ";paging:size=64K;paging:size=64K",
	  .parse = -EINVAL },
	{ "parse-paging-unknown-key", M16 AP ";paging:segment=2",
	  .parse = -EINVAL },
	{ "parse-too-many-segments",
	  "memory:name=m1,size=4M;memory:name=m2,size=4M;memory:name=m3,size=4M;"
	  "memory:name=m4,size=4M;memory:name=m5,size=4M;memory:name=m6,size=4M"
	  AP ";memory:name=m8,size=4M",
	  .parse = -EINVAL },
	{ "parse-empty-table", "",
	  .parse = -EINVAL },
	{ "parse-only-separators", ";;;",
	  .parse = -EINVAL },
	{ "parse-blank-item", "; ;",
	  .parse = -EINVAL },
	/* the video protected region */
	{ "vpr-on-aperture", M16 AP ",flags=vpr",
	  2, VSEG_RULE_VPR_APERTURE,
	  "VprSupported is only valid on a memory segment" },
	{ "encrypted-paging-without-vpr", M16 ",flags=encryptedpaging" AP,
	  1, VSEG_RULE_ENCRYPTED_PAGING,
	  "EncryptedPagingSupported needs VprSupported" },
	{ "vpr-size-without-flag", M16 ",vprsize=1M" AP,
	  1, VSEG_RULE_VPR_WITHOUT_FLAG,
	  "video protected region without VprSupported" },
	{ "vpr-count-without-flag", M16 ",vprcount=2" AP,
	  1, VSEG_RULE_VPR_WITHOUT_FLAG,
	  "video protected region without VprSupported" },
	{ "vpr-without-size", M16 ",flags=vpr,vpralign=4K" AP,
	  1, VSEG_RULE_VPR_SIZE_ZERO,
	  "VprSupported without a VPR size" },
	{ "vpr-size-not-multiple-of-odd-alignment",
	  M16 ",flags=vpr,vprsize=1M,vpralign=0x3000" AP,
	  1, VSEG_RULE_VPR_RANGE,
	  "VPR [0x0, +0x100000) is unaligned or outside the segment" },
	{ "vpr-start-not-multiple-of-odd-alignment",
	  M16 ",flags=vpr,vprstart=0x2000,vprsize=0x3000,vpralign=0x3000" AP,
	  1, VSEG_RULE_VPR_RANGE,
	  "VPR [0x2000, +0x3000) is unaligned or outside the segment" },
	{ "vpr-start-not-page-aligned",
	  "memory:name=m,size=16M,page=64K,flags=64kpages|vpr,vprstart=4K,vprsize=64K,vpralign=4K" AP,
	  1, VSEG_RULE_VPR_RANGE,
	  "VPR [0x1000, +0x10000) is unaligned or outside the segment" },
	{ "vpr-size-not-page-aligned-no-alignment",
	  M16 ",flags=vpr,vprsize=0x1800" AP,
	  1, VSEG_RULE_VPR_RANGE,
	  "VPR [0x0, +0x1800) is unaligned or outside the segment" },
	{ "vpr-start-unaligned", M16 ",flags=vpr,vprstart=64K,vprsize=1M,vpralign=1M" AP,
	  1, VSEG_RULE_VPR_RANGE,
	  "VPR [0x10000, +0x100000) is unaligned or outside the segment" },
	{ "vpr-size-unaligned", M16 ",flags=vpr,vprsize=0x18000,vpralign=64K" AP,
	  1, VSEG_RULE_VPR_RANGE,
	  "VPR [0x0, +0x18000) is unaligned or outside the segment" },
	{ "vpr-past-end", M16 ",flags=vpr,vprstart=15M,vprsize=2M,vpralign=1M" AP,
	  1, VSEG_RULE_VPR_RANGE,
	  "VPR [0xf00000, +0x200000) is unaligned or outside the segment" },
	{ "vpr-start-past-end", M16 ",flags=vpr,vprstart=32M,vprsize=1M,vpralign=1M" AP,
	  1, VSEG_RULE_VPR_RANGE,
	  "VPR [0x2000000, +0x100000) is unaligned or outside the segment" },
	{ "vpr-size-wraps",
	  M16 ",flags=vpr,vprstart=1M,vprsize=0xfffffffffff00000,vpralign=1M" AP,
	  1, VSEG_RULE_VPR_RANGE,
	  "VPR [0x100000, +0xfffffffffff00000) is unaligned or outside the segment" },
	{ "vpr-over-invalid",
	  M16 ",flags=vpr,invalid=0+4K/2M+4K,vprstart=1M,vprsize=2M,vpralign=1M" AP,
	  1, VSEG_RULE_VPR_INVALID_OVERLAP,
	  "VPR overlaps invalid range 1" },
	{ "vpr-over-uefi",
	  M16 ",flags=vpr,uefi=8M+1M/1M+4K,vprstart=1M,vprsize=1M,vpralign=1M" AP,
	  1, VSEG_RULE_VPR_UEFI_OVERLAP,
	  "VPR overlaps UEFI frame-buffer range 1" },
	{ "vpr-reserve-above-size",
	  M16 ",flags=vpr,vprsize=1M,vpralign=1M,vprreserve=0x101000" AP,
	  1, VSEG_RULE_VPR_RESERVE,
	  "VPR reserve 0x101000 is above the VPR size or not a multiple of the page size" },
	{ "vpr-reserve-unaligned",
	  M16 ",flags=vpr,vprsize=1M,vpralign=1M,vprreserve=0x800" AP,
	  1, VSEG_RULE_VPR_RESERVE,
	  "VPR reserve 0x800 is above the VPR size or not a multiple of the page size" },
	/* firmware: bit 21 and the UEFI frame-buffer ranges */
	{ "reserved-ddr-on-aperture", M16 AP ",flags=aperture|reservedddr",
	  2, VSEG_RULE_RESERVED_DDR_ON_APERTURE,
	  "PopulatedByReservedDDRByFirmware is only valid on a memory segment" },
	{ "uefi-on-aperture", M16 AP ",uefi=0+1M",
	  2, VSEG_RULE_UEFI_ON_APERTURE,
	  "UEFI frame-buffer ranges are only valid on a memory segment" },
	{ "uefi-range-empty", M16 ",uefi=0x1000+0" AP,
	  1, VSEG_RULE_UEFI_RANGE,
	  "UEFI range 0 [0x1000, +0x0) is empty, unaligned or outside the segment" },
	{ "uefi-range-unaligned", M16 ",uefi=0x800+0x1000" AP,
	  1, VSEG_RULE_UEFI_RANGE,
	  "UEFI range 0 [0x800, +0x1000) is empty, unaligned or outside the segment" },
	{ "uefi-range-unaligned-64k", M16 ",page=64K,flags=64kpages,uefi=4K+64K" AP,
	  1, VSEG_RULE_UEFI_RANGE,
	  "UEFI range 0 [0x1000, +0x10000) is empty, unaligned or outside the segment" },
	{ "uefi-range-outside", M16 ",uefi=15M+2M" AP,
	  1, VSEG_RULE_UEFI_RANGE,
	  "UEFI range 0 [0xf00000, +0x200000) is empty, unaligned or outside the segment" },
	{ "uefi-range-wraps", M16 ",uefi=4K+0xfffffffffffff000" AP,
	  1, VSEG_RULE_UEFI_RANGE,
	  "UEFI range 0 [0x1000, +0xfffffffffffff000) is empty, unaligned or outside the segment" },
	{ "uefi-range-overlap", M16 ",uefi=0+2M/1M+2M" AP,
	  1, VSEG_RULE_UEFI_RANGE_OVERLAP,
	  "UEFI range 1 overlaps UEFI range 0" },
	{ "uefi-range-overlaps-invalid", M16 ",invalid=4M+1M,uefi=0+1M/3M+2M" AP,
	  1, VSEG_RULE_UEFI_RANGE_OVERLAP,
	  "UEFI range 1 overlaps invalid range 0" },
	{ "parse-too-many-uefi-ranges",
	  M16 ",uefi=0+4K/1M+4K/2M+4K/3M+4K/4M+4K" AP,
	  .parse = -EINVAL },
	/* the CPU host aperture */
	{ "host-aperture-on-aperture", M16 AP ",flags=cpuhostaperture",
	  2, VSEG_RULE_HOST_APERTURE_ON_APERTURE,
	  "a CPU host aperture is only valid on a memory segment" },
	{ "host-aperture-size-on-aperture", M16 AP ",hostaperture=1M",
	  2, VSEG_RULE_HOST_APERTURE_ON_APERTURE,
	  "a CPU host aperture is only valid on a memory segment" },
	{ "host-aperture-without-flag", M16 ",hostaperture=1M,hostaddr=0xc0000000" AP,
	  1, VSEG_RULE_HOST_APERTURE_WITHOUT_FLAG,
	  "CPU host aperture without SupportsCpuHostAperture" },
	{ "host-address-without-flag", M16 ",hostaddr=0xc0000000" AP,
	  1, VSEG_RULE_HOST_APERTURE_WITHOUT_FLAG,
	  "CPU host aperture without SupportsCpuHostAperture" },
	{ "host-aperture-flag-without-size", M16 ",flags=cpuhostaperture" AP,
	  1, VSEG_RULE_HOST_APERTURE_SIZE_ZERO,
	  "SupportsCpuHostAperture without a CPU host aperture size" },
	{ "host-aperture-size-zero",
	  M16 ",flags=cpuhostaperture,hostaperture=0,hostaddr=0xc0000000" AP,
	  1, VSEG_RULE_HOST_APERTURE_SIZE_ZERO,
	  "SupportsCpuHostAperture without a CPU host aperture size" },
	{ "host-aperture-size-unaligned",
	  M16 ",flags=cpuhostaperture,hostaperture=0x1800,hostaddr=0xc0000000" AP,
	  1, VSEG_RULE_HOST_APERTURE_SIZE },	/* message: host_page_messages */
	{ "host-aperture-above-size",
	  M16 ",flags=cpuhostaperture,hostaperture=32M,hostaddr=0xc0000000" AP,
	  1, VSEG_RULE_HOST_APERTURE_SIZE },
	{ "host-aperture-without-address",
	  M16 ",flags=cpuhostaperture,hostaperture=1M" AP,
	  1, VSEG_RULE_HOST_APERTURE_ADDRESS_ZERO,
	  "SupportsCpuHostAperture without a CPU host aperture address" },
	{ "host-aperture-address-unaligned",
	  M16 ",flags=cpuhostaperture,hostaperture=1M,hostaddr=0xc0000800" AP,
	  1, VSEG_RULE_HOST_APERTURE_ADDRESS_ALIGN },	/* message: host_page_messages */
	{ "host-aperture-wraps",
	  M16 ",flags=cpuhostaperture,hostaperture=2M,hostaddr=0xfffffffffff00000" AP,
	  1, VSEG_RULE_HOST_APERTURE_WRAPS,
	  "CPU host aperture at 0xfffffffffff00000, 0x200000 bytes, wraps around the address space" },
	{ "host-aperture-overlaps-visible",
	  "memory:name=v,size=16M,flags=cpuvisible,cpu=0xc0000000;"
	  "memory:name=h,size=16M,flags=cpuhostaperture,hostaperture=1M,hostaddr=0xc0f00000" AP,
	  2, VSEG_RULE_HOST_APERTURE_OVERLAP,
	  "CPU host aperture overlaps the CPU range of segment 1 \"v\"" },
	{ "host-aperture-overlaps-host-aperture",
	  "memory:name=a,size=16M,flags=cpuhostaperture,hostaperture=1M,hostaddr=0xc0000000;"
	  "memory:name=b,size=16M,flags=cpuhostaperture,hostaperture=1M,hostaddr=0xc0080000" AP,
	  1, VSEG_RULE_HOST_APERTURE_OVERLAP,
	  "CPU host aperture overlaps the CPU range of segment 2 \"b\"" },
	{ "host-aperture-after-paging", M16 ",flags=cpuhostaperture" AP ";paging:size=31",
	  0, VSEG_RULE_PAGING_SIZE },
};

KUNIT_ARRAY_PARAM_DESC(bad_tables, bad_tables, name);

/* A bad table is refused by the parser, or names the rule it breaks. */
static void segment_bad_table(struct kunit *test)
{
	run_table_case(test, test->param_value);
}

/* --- rules only a table built in memory can break ----------------------- */

struct struct_case {
	const char *name;
	void (*edit)(struct vseg_segment_table *t);
	u32 segment;
	enum vseg_table_rule rule;
	const char *msg;
};

static void edit_no_segments(struct vseg_segment_table *t)
{
	t->num_segments = 0;
}

static void edit_too_many_segments(struct vseg_segment_table *t)
{
	t->num_segments = VSEG_MAX_SEGMENTS + 1;
}

static void edit_ids(struct vseg_segment_table *t)
{
	t->seg[1].id = 3;
}

static void edit_id_zero(struct vseg_segment_table *t)
{
	t->seg[0].id = 0;
}

static void edit_kind(struct vseg_segment_table *t)
{
	t->seg[0].kind = 7;
}

static void edit_unknown_flags(struct vseg_segment_table *t)
{
	t->seg[0].flags |= BIT_ULL(VSEG_SEGF_NUM) | BIT_ULL(63);
}

static void edit_too_many_banks(struct vseg_segment_table *t)
{
	t->seg[0].flags |= VSEG_SEGF_USE_BANKING;
	t->seg[0].num_banks = VSEG_MAX_BANKS + 1;
}

static void edit_too_many_invalid(struct vseg_segment_table *t)
{
	t->seg[0].num_invalid = VSEG_MAX_INVALID_RANGES + 1;
}

static void edit_too_many_uefi(struct vseg_segment_table *t)
{
	t->seg[0].num_uefi = VSEG_MAX_UEFI_RANGES + 1;
}

static void edit_name_unterminated(struct vseg_segment_table *t)
{
	memset(t->seg[0].name, 'a', VSEG_NAME_LEN);
}

static void edit_name_duplicate_long(struct vseg_segment_table *t)
{
	/* 15 equal characters then a difference past the name length */
	memcpy(t->seg[0].name, "abcdefghijklmno", VSEG_NAME_LEN);
	memcpy(t->seg[1].name, "abcdefghijklmno", VSEG_NAME_LEN);
}

static void edit_aperture_kind_memory(struct vseg_segment_table *t)
{
	t->seg[1].kind = VSEG_SEGMENT_MEMORY;
}

/* The parser gives an aperture the Aperture flag: take it away. */
static void edit_aperture_without_flag(struct vseg_segment_table *t)
{
	t->seg[1].flags &= ~VSEG_SEGF_APERTURE;
}

/* The parser gives a banking memory segment one bank at least: none. */
static void edit_no_bank(struct vseg_segment_table *t)
{
	t->seg[0].flags |= VSEG_SEGF_USE_BANKING;
	t->seg[0].num_banks = 0;
}

/* The parser ends the last bank at the size: end it short. */
static void edit_last_bank_short(struct vseg_segment_table *t)
{
	t->seg[0].flags |= VSEG_SEGF_USE_BANKING;
	t->seg[0].num_banks = 2;
	t->seg[0].bank_end[0] = SZ_4M;
	t->seg[0].bank_end[1] = SZ_8M;
}

static const struct struct_case struct_cases[] = {
	{ "no-segments", edit_no_segments,
	  0, VSEG_RULE_NO_SEGMENTS, "no segments" },
	{ "too-many-segments", edit_too_many_segments,
	  0, VSEG_RULE_TOO_MANY_SEGMENTS, "too many segments: 8" },
	{ "ids-not-1-to-n", edit_ids,
	  0, VSEG_RULE_SEGMENT_IDS, "segment ids are not 1..n" },
	{ "id-zero", edit_id_zero,
	  0, VSEG_RULE_SEGMENT_IDS, "segment ids are not 1..n" },
	{ "unknown-kind", edit_kind,
	  1, VSEG_RULE_KIND, "unknown kind 7" },
	{ "unknown-flags", edit_unknown_flags,
	  1, VSEG_RULE_UNKNOWN_FLAGS, "unknown flags 0x8000000000400000" },
	{ "too-many-banks", edit_too_many_banks,
	  1, VSEG_RULE_TOO_MANY_BANKS, "too many banks: 17" },
	{ "too-many-invalid-ranges", edit_too_many_invalid,
	  1, VSEG_RULE_TOO_MANY_INVALID_RANGES, "too many invalid ranges: 5" },
	{ "name-unterminated", edit_name_unterminated,
	  1, VSEG_RULE_NAME, "name is empty or not [a-z0-9_]" },
	{ "name-duplicate", edit_name_duplicate_long,
	  2, VSEG_RULE_NAME_DUPLICATE, "name duplicates segment 1" },
	{ "aperture-flag-on-memory-kind", edit_aperture_kind_memory,
	  0, VSEG_RULE_APERTURE_COUNT,
	  "exactly one aperture segment is required, found 0" },
	{ "aperture-kind-without-flag", edit_aperture_without_flag,
	  2, VSEG_RULE_KIND_FLAGS,
	  "kind does not match the Aperture/Agp flags" },
	{ "banking-with-no-bank", edit_no_bank,
	  1, VSEG_RULE_BANKING_WITHOUT_BANKS, "UseBanking without banks" },
	{ "last-bank-short", edit_last_bank_short,
	  1, VSEG_RULE_BANK_OUTSIDE,
	  "bank 1 end 0x800000 is outside the segment" },
	{ "too-many-uefi-ranges", edit_too_many_uefi,
	  1, VSEG_RULE_TOO_MANY_UEFI_RANGES,
	  "too many UEFI frame-buffer ranges: 5" },
};

KUNIT_ARRAY_PARAM_DESC(struct_cases, struct_cases, name);

static void segment_bad_struct(struct kunit *test)
{
	const struct struct_case *c = test->param_value;
	struct vseg_segment_table *t = parse_ok(test, M16 AP);

	expect_valid(test, t);
	c->edit(t);
	expect_rule(test, t, c->name, c->segment, c->rule, c->msg);
}

/* A kind that is neither memory nor aperture, in a table with an aperture. */
static void segment_unknown_kind(struct kunit *test)
{
	struct vseg_segment_table *t = parse_ok(test, M16 ";memory:name=x,size=16M" AP);

	t->seg[1].kind = 0;
	expect_rule(test, t, "kind 0", 2, VSEG_RULE_KIND, "unknown kind 0");
}

/* --- the seed rules (issue 23) ------------------------------------------- */

/*
 * Seed 000: CpuTranslatedAddress is ignored for aperture segments, the Agp
 * one included: accepted, and reported as 0 (normalized away).
 */
static void segment_seed_aperture_cpu_address(struct kunit *test)
{
	static const char * const tables[] = {
		M16 AP ",cpu=0xe0000000",
		M16 AP ",flags=aperture|cpuvisible,cpu=0xe0000000",
		M16 ";aperture:flags=agp,cpu=0xe0001000",
		M16 AP ",cpu=0x1234",		/* not even page aligned */
	};
	struct vseg_segment_table *t;
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(tables); i++) {
		t = parse_ok(test, tables[i]);
		KUNIT_EXPECT_EQ_MSG(test, t->seg[1].cpu_translated_address, 0,
				    "%s", tables[i]);
		expect_valid(test, t);
		KUNIT_EXPECT_EQ(test, vseg_segment_table_validate(t), 0);
	}

	/* a table built in memory: valid before normalizing, 0 after */
	t = parse_ok(test, M16 AP);
	t->seg[1].cpu_translated_address = 0xe0000000;
	expect_valid(test, t);
	vseg_segment_table_normalize(t);
	KUNIT_EXPECT_EQ(test, t->seg[1].cpu_translated_address, 0);
	expect_valid(test, t);

	/* a memory segment's is not the aperture's: still checked and kept */
	t = parse_ok(test, M16 ",flags=cpuvisible,cpu=0xe0000000" AP);
	vseg_segment_table_normalize(t);
	KUNIT_EXPECT_EQ(test, t->seg[0].cpu_translated_address, 0xe0000000);
	t->seg[0].flags &= ~VSEG_SEGF_CPU_VISIBLE;
	t->seg[0].cpu_visible_size = 0;
	expect_rule(test, t, "memory cpu without CpuVisible", 1,
		    VSEG_RULE_CPU_ADDRESS_WITHOUT_FLAG,
		    "CPU-translated address 0xe0000000 without CpuVisible");
}

/*
 * Seed 001: DXGK_SEGMENTDESCRIPTOR4's CommitLimit applies to the aperture
 * only; a memory segment's 0 takes its size. Any other value but the size
 * is still refused (seed 000: always the size). The aperture's 0 is
 * refused: it could commit nothing.
 */
static void segment_seed_memory_commit_zero(struct kunit *test)
{
	struct vseg_segment_table *t;

	t = parse_ok(test, M16 ",commit=0;memory:name=b,size=8M,flags=64kpages,commit=0" AP);
	KUNIT_EXPECT_EQ(test, t->seg[0].commit_limit, SZ_16M);
	KUNIT_EXPECT_EQ(test, t->seg[1].commit_limit, SZ_8M);
	KUNIT_EXPECT_EQ(test, t->seg[2].commit_limit, SZ_64M);
	expect_valid(test, t);

	/* built in memory: 0 is valid as it is, and becomes the size */
	t = parse_ok(test, M16 AP);
	t->seg[0].commit_limit = 0;
	expect_valid(test, t);
	vseg_segment_table_normalize(t);
	KUNIT_EXPECT_EQ(test, t->seg[0].commit_limit, SZ_16M);
	expect_valid(test, t);

	/* a profile resized keeps commit == size */
	KUNIT_ASSERT_EQ(test, vseg_segment_table_from_profile(t, "discrete",
							      NULL), 0);
	t->seg[1].commit_limit = 0;
	vseg_segment_table_normalize(t);
	KUNIT_EXPECT_EQ(test, t->seg[1].commit_limit, t->seg[1].size);
	KUNIT_EXPECT_EQ(test, vseg_segment_table_validate(t), 0);

	t = parse_ok(test, M16 ",commit=4M" AP);
	expect_rule(test, t, "memory commit 4M", 1, VSEG_RULE_MEMORY_COMMIT,
		    "commit limit 0x400000 of a memory segment must be 0 or its size 0x1000000");
	t = parse_ok(test, M16 AP ",commit=0");
	KUNIT_EXPECT_EQ(test, t->seg[1].commit_limit, 0);
	expect_rule(test, t, "aperture commit 0", 2,
		    VSEG_RULE_APERTURE_COMMIT_ALIGN,
		    "commit limit 0x0 is zero or not a multiple of the page size");
}

/* NbOfBanks 1 with an empty pBankRangeTable is a segment of one bank. */
static void segment_one_bank(struct kunit *test)
{
	struct vseg_segment_table *t = parse_ok(test, M16 ",flags=banking" AP);

	KUNIT_EXPECT_EQ(test, t->seg[0].num_banks, 1);
	KUNIT_EXPECT_EQ(test, t->seg[0].bank_end[0], SZ_16M);
	expect_valid(test, t);

	t = parse_ok(test, M16 AP);
	t->seg[0].flags |= VSEG_SEGF_USE_BANKING;
	t->seg[0].num_banks = 1;
	t->seg[0].bank_end[0] = SZ_16M;
	expect_valid(test, t);
	t->seg[0].bank_end[0] = SZ_8M;
	expect_rule(test, t, "one bank short", 1, VSEG_RULE_BANK_OUTSIDE,
		    "bank 0 end 0x800000 is outside the segment");
}

/*
 * VprAlignment is any number: the start and the size are multiples of it
 * (0: no constraint) and of the page size (the VPR is made of pages).
 */
static void segment_vpr_alignment(struct kunit *test)
{
	struct vseg_segment_table *t;

	t = parse_ok(test, M16 ",flags=vpr,vprstart=0x3000,vprsize=0x6000,vpralign=0x3000" AP);
	KUNIT_EXPECT_EQ(test, t->seg[0].vpr_alignment, 0x3000);
	expect_valid(test, t);
	t->seg[0].vpr_alignment = 0x5000;
	expect_rule(test, t, "start 0x3000 of alignment 0x5000", 1,
		    VSEG_RULE_VPR_RANGE,
		    "VPR [0x3000, +0x6000) is unaligned or outside the segment");
	t->seg[0].vpr_alignment = 0;
	expect_valid(test, t);
	t->seg[0].vpr_alignment = 1;
	expect_valid(test, t);
	t->seg[0].vpr_alignment = U32_MAX;
	expect_rule(test, t, "alignment U32_MAX", 1, VSEG_RULE_VPR_RANGE,
		    "VPR [0x3000, +0x6000) is unaligned or outside the segment");
	t->seg[0].vpr_start = 0;
	t->seg[0].vpr_size = 0xffffe000ULL;	/* 2 * 0x7ffff000, beyond */
	t->seg[0].vpr_alignment = 0x7ffff000;
	expect_rule(test, t, "past the end", 1, VSEG_RULE_VPR_RANGE, NULL);
}

/* --- the logging wrapper ------------------------------------------------ */

/*
 * vseg_segment_table_validate(), what probe calls, agrees with
 * vseg_segment_table_check() (the line it logs is vseg_module's, in IGT).
 */
static void segment_validate(struct kunit *test)
{
	struct vseg_segment_table *t = new_table(test);

	KUNIT_ASSERT_EQ(test, vseg_segment_table_from_profile(t, "discrete",
							      NULL), 0);
	KUNIT_EXPECT_EQ(test, vseg_segment_table_validate(t), 0);

	/* a rule of a segment, then of the whole table */
	t->seg[1].flags |= VSEG_SEGF_CACHE_COHERENT;
	KUNIT_EXPECT_EQ(test, vseg_segment_table_validate(t), -EINVAL);
	t->seg[1].flags &= ~VSEG_SEGF_CACHE_COHERENT;
	t->paging_buffer_segment_id = 1;
	KUNIT_EXPECT_EQ(test, vseg_segment_table_validate(t), -EINVAL);
	t->num_segments = 0;
	KUNIT_EXPECT_EQ(test, vseg_segment_table_validate(t), -EINVAL);
}

/* --- every rule has a case ---------------------------------------------- */

static void note_rule(struct kunit *test, unsigned long *seen,
		      const struct vseg_segment_table *t)
{
	struct vseg_table_error err;

	vseg_segment_table_check(t, &err);
	KUNIT_ASSERT_LT(test, err.rule, VSEG_RULE_COUNT);
	__set_bit(err.rule, seen);
}

static void note_table_cases(struct kunit *test, unsigned long *seen,
			     struct vseg_segment_table *t,
			     const struct table_case *c, unsigned int n)
{
	for (; n--; c++)
		if (!vseg_segment_table_parse(t, c->table))
			note_rule(test, seen, t);
}

/*
 * Each rule of enum vseg_table_rule is broken by at least one case of this
 * suite (a rule without a case is a gap): run the cases again and note the
 * rule each one breaks.
 */
static void segment_every_rule_has_a_case(struct kunit *test)
{
	struct vseg_segment_table *t = new_table(test);
	DECLARE_BITMAP(seen, VSEG_RULE_COUNT);
	const struct override_case *o;
	unsigned int i;
	bool covered;

	bitmap_zero(seen, VSEG_RULE_COUNT);
	note_table_cases(test, seen, t, bad_tables, ARRAY_SIZE(bad_tables));
	note_table_cases(test, seen, t, range_cases, ARRAY_SIZE(range_cases));
	note_table_cases(test, seen, t, name_cases, ARRAY_SIZE(name_cases));
	for (i = 0; i < ARRAY_SIZE(struct_cases); i++) {
		KUNIT_ASSERT_EQ(test, vseg_segment_table_parse(t, M16 AP), 0);
		struct_cases[i].edit(t);
		note_rule(test, seen, t);
	}
	for (i = 0; i < ARRAY_SIZE(bad_overrides); i++) {
		o = &bad_overrides[i];
		if (!vseg_segment_table_from_profile(t, o->profile, &o->ovr))
			note_rule(test, seen, t);
	}
	for (i = 0; i < ARRAY_SIZE(good_tables); i++) {
		KUNIT_ASSERT_EQ(test,
				vseg_segment_table_parse(t, good_tables[i].table),
				0);
		note_rule(test, seen, t);
	}

	for (i = 0; i < VSEG_RULE_COUNT; i++) {
		covered = test_bit(i, seen);
		KUNIT_EXPECT_TRUE_MSG(test, covered,
				      "rule %u of enum vseg_table_rule has no case",
				      i);
	}
}

static struct kunit_case vseg_segment_cases[] = {
	KUNIT_CASE(segment_flag_and_kind_names),
	KUNIT_CASE(segment_table_lookups),
	KUNIT_CASE(segment_ranges_overlap),
	KUNIT_CASE(segment_name_rules),
	KUNIT_CASE(segment_parse_numbers),
	KUNIT_CASE(segment_parse_bar),
	KUNIT_CASE(segment_profile_discrete),
	KUNIT_CASE(segment_profile_others),
	KUNIT_CASE(segment_profile_unknown),
	KUNIT_CASE(segment_follow_size),
	KUNIT_CASE(segment_profile_overrides),
	KUNIT_CASE(segment_profile_aperture_overrides),
	KUNIT_CASE_PARAM(segment_bad_override, bad_overrides_gen_params),
	KUNIT_CASE(segment_parse_example),
	KUNIT_CASE(segment_parse_defaults),
	KUNIT_CASE(segment_parse_syntax),
	KUNIT_CASE(segment_agp_size),
	KUNIT_CASE(segment_host_page_messages),
	KUNIT_CASE_PARAM(segment_good_table, good_tables_gen_params),
	KUNIT_CASE_PARAM(segment_bad_table, bad_tables_gen_params),
	KUNIT_CASE_PARAM(segment_bad_struct, struct_cases_gen_params),
	KUNIT_CASE(segment_unknown_kind),
	KUNIT_CASE(segment_validate),
	KUNIT_CASE(segment_seed_aperture_cpu_address),
	KUNIT_CASE(segment_seed_memory_commit_zero),
	KUNIT_CASE(segment_one_bank),
	KUNIT_CASE(segment_vpr_alignment),
	KUNIT_CASE(segment_every_rule_has_a_case),
	{}
};

static struct kunit_suite vseg_segment_suite = {
	.name = "vseg_segment",
	.test_cases = vseg_segment_cases,
};

kunit_test_suite(vseg_segment_suite);
