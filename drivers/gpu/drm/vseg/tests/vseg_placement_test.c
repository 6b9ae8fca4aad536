// SPDX-License-Identifier: GPL-2.0-only
/*
 * Copyright (c) 2026 The vseg authors
 *
 * KUnit tests of the placement policy (vseg_placement.c): WDDM allocation
 * properties turned into the list of TTM places a buffer is created in,
 * made resident in, evicted to, faulted into and reached physically
 * through, and the checks of those properties against the segment table.
 * Pure functions of a table laid out on TTM memory types: no device, no
 * buffer.
 */

#include <kunit/test.h>
#include <linux/module.h>
#include <linux/slab.h>

#include "../vseg_placement.h"

#define NO_FLAGS	0

/* A built-in profile's table, laid out as vseg_ttm_init() does it. */
/* A profile's layout; @tp (if not NULL) receives its table, to change. */
static struct vseg_layout *placement_dev_table(struct kunit *test,
					       const char *profile,
					       struct vseg_segment_table **tp)
{
	struct vseg_segment_table *t = kunit_kzalloc(test, sizeof(*t),
						     GFP_KERNEL);
	struct vseg_layout *l = kunit_kzalloc(test, sizeof(*l), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, t);
	KUNIT_ASSERT_NOT_NULL(test, l);
	KUNIT_ASSERT_EQ(test, vseg_segment_table_from_profile(t, profile, NULL),
			0);
	KUNIT_ASSERT_EQ(test, vseg_segment_table_validate(t), 0);
	vseg_layout_init(l, t);
	if (tp)
		*tp = t;
	return l;
}

static struct vseg_layout *placement_dev(struct kunit *test,
					 const char *profile)
{
	return placement_dev_table(test, profile, NULL);
}

static unsigned int home_places(const struct vseg_layout *l,
				const struct vseg_bo_params *p, bool cpu_only,
				bool resident_only, struct ttm_place *pl)
{
	return vseg_place_home(l, p, (cpu_only ? VSEG_PLACE_CPU : 0) |
			       (resident_only ? VSEG_PLACE_RESIDENT : 0), pl);
}

static struct vseg_bo_params *params(struct kunit *test, u64 size, u32 flags,
				     u32 supported)
{
	struct vseg_bo_params *p = kunit_kzalloc(test, sizeof(*p), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, p);
	p->size = size;
	p->flags = flags;
	p->supported = supported;
	return p;
}

static void prefer(struct vseg_bo_params *p, u32 id, bool topdown)
{
	p->pref_seg[p->num_preferred] = id;
	p->pref_topdown[p->num_preferred] = topdown;
	p->num_preferred++;
}

/* Expect place @i of @pl to be exactly this. */
static void expect_place(struct kunit *test, const struct ttm_place *pl,
			 unsigned int i, u32 mem_type, u32 flags, u32 fpfn,
			 u32 lpfn)
{
	KUNIT_EXPECT_EQ_MSG(test, pl[i].mem_type, mem_type, "place %u", i);
	KUNIT_EXPECT_EQ_MSG(test, pl[i].flags, flags, "place %u", i);
	KUNIT_EXPECT_EQ_MSG(test, pl[i].fpfn, fpfn, "place %u", i);
	KUNIT_EXPECT_EQ_MSG(test, pl[i].lpfn, lpfn, "place %u", i);
}

#define PFN(bytes)	((bytes) >> PAGE_SHIFT)
#define ALL_DISCRETE	(BIT(0) | BIT(1) | BIT(2) | BIT(3))

/* discrete: 1 vram (VRAM, banks 16M/32M), 2 local (PRIV), 3 aperture (TT) */
static void placement_accessed_physically(struct kunit *test)
{
	struct vseg_layout *l = placement_dev(test, "discrete");
	struct vseg_bo_params *p = params(test, SZ_1M,
					  VSEG_BO_ACCESSED_PHYSICALLY,
					  BIT(1) | BIT(3) | BIT(0));
	struct ttm_place pl[VSEG_BO_MAX_PLACES];

	prefer(p, 1, false);
	KUNIT_ASSERT_EQ(test, home_places(l, p, false, false, pl), 3);
	expect_place(test, pl, 0, TTM_PL_VRAM, TTM_PL_FLAG_CONTIGUOUS, 0, 0);
	/* in the aperture: a GART range anywhere in it */
	expect_place(test, pl, 1, TTM_PL_TT, NO_FLAGS, 0, PFN(SZ_64M));
	expect_place(test, pl, 2, TTM_PL_SYSTEM, NO_FLAGS, 0, 0);

	/* a primary is contiguous in a segment, without a GART range */
	p->flags = VSEG_BO_PRIMARY;
	KUNIT_ASSERT_EQ(test, home_places(l, p, false, false, pl), 3);
	expect_place(test, pl, 0, TTM_PL_VRAM, TTM_PL_FLAG_CONTIGUOUS, 0, 0);
	expect_place(test, pl, 1, TTM_PL_TT, NO_FLAGS, 0, 0);

	/* a plain buffer is a set of pages, without a GART range */
	p->flags = 0;
	KUNIT_ASSERT_EQ(test, home_places(l, p, false, false, pl), 3);
	expect_place(test, pl, 0, TTM_PL_VRAM, NO_FLAGS, 0, 0);
	expect_place(test, pl, 1, TTM_PL_TT, NO_FLAGS, 0, 0);
}

static void placement_preference_order(struct kunit *test)
{
	struct vseg_layout *l = placement_dev(test, "discrete");
	struct vseg_bo_params *p = params(test, SZ_1M, 0, ALL_DISCRETE);
	struct ttm_place pl[VSEG_BO_MAX_PLACES];

	/* no preference: memory segments in table order, aperture, system */
	KUNIT_ASSERT_EQ(test, home_places(l, p, false, false, pl), 4);
	expect_place(test, pl, 0, TTM_PL_VRAM, NO_FLAGS, 0, 0);
	expect_place(test, pl, 1, TTM_PL_PRIV, NO_FLAGS, 0, 0);
	expect_place(test, pl, 2, TTM_PL_TT, NO_FLAGS, 0, 0);
	expect_place(test, pl, 3, TTM_PL_SYSTEM, NO_FLAGS, 0, 0);

	/* preferred first, in order, each in its direction; no repeats */
	prefer(p, 2, true);
	prefer(p, 3, false);
	prefer(p, 2, false);
	KUNIT_ASSERT_EQ(test, home_places(l, p, false, false, pl), 4);
	expect_place(test, pl, 0, TTM_PL_PRIV, TTM_PL_FLAG_TOPDOWN, 0, 0);
	expect_place(test, pl, 1, TTM_PL_TT, NO_FLAGS, 0, 0);
	expect_place(test, pl, 2, TTM_PL_VRAM, NO_FLAGS, 0, 0);
	expect_place(test, pl, 3, TTM_PL_SYSTEM, NO_FLAGS, 0, 0);

	/* system memory may be preferred too */
	p->num_preferred = 0;
	prefer(p, 0, false);
	prefer(p, 1, true);
	KUNIT_ASSERT_EQ(test, home_places(l, p, false, false, pl), 4);
	expect_place(test, pl, 0, TTM_PL_SYSTEM, NO_FLAGS, 0, 0);
	expect_place(test, pl, 1, TTM_PL_VRAM, TTM_PL_FLAG_TOPDOWN, 0, 0);
	expect_place(test, pl, 2, TTM_PL_PRIV, NO_FLAGS, 0, 0);
	expect_place(test, pl, 3, TTM_PL_TT, NO_FLAGS, 0, 0);

	/* making resident never lists system memory */
	KUNIT_ASSERT_EQ(test, home_places(l, p, false, true, pl), 3);
	expect_place(test, pl, 0, TTM_PL_VRAM, TTM_PL_FLAG_TOPDOWN, 0, 0);
	expect_place(test, pl, 2, TTM_PL_TT, NO_FLAGS, 0, 0);

	/* only the supported set */
	p->num_preferred = 0;
	p->supported = BIT(2);
	KUNIT_ASSERT_EQ(test, home_places(l, p, false, false, pl), 1);
	expect_place(test, pl, 0, TTM_PL_PRIV, NO_FLAGS, 0, 0);
	KUNIT_EXPECT_EQ(test, home_places(l, p, true, false, pl), 0);
}

static void placement_from_end(struct kunit *test)
{
	struct vseg_layout *l = placement_dev(test, "discrete");
	struct vseg_bo_params *p = params(test, SZ_1M, VSEG_BO_FROM_END,
					  ALL_DISCRETE);
	struct ttm_place pl[VSEG_BO_MAX_PLACES];

	prefer(p, 2, false);
	KUNIT_ASSERT_EQ(test, home_places(l, p, false, false, pl), 4);
	expect_place(test, pl, 0, TTM_PL_PRIV, TTM_PL_FLAG_TOPDOWN, 0, 0);
	expect_place(test, pl, 1, TTM_PL_VRAM, TTM_PL_FLAG_TOPDOWN, 0, 0);
	expect_place(test, pl, 2, TTM_PL_TT, TTM_PL_FLAG_TOPDOWN, 0, 0);
	expect_place(test, pl, 3, TTM_PL_SYSTEM, NO_FLAGS, 0, 0);
}

static void placement_banks(struct kunit *test)
{
	struct vseg_layout *l = placement_dev(test, "discrete");
	struct vseg_bo_params *p = params(test, SZ_1M,
					  VSEG_BO_ACCESSED_PHYSICALLY,
					  BIT(1) | BIT(0));
	struct ttm_place pl[VSEG_BO_MAX_PLACES];

	/* hinted banks, in hint order, then the whole segment */
	prefer(p, 1, true);
	p->num_banks = 2;
	p->banks[0] = 1;
	p->banks[1] = 0;
	KUNIT_ASSERT_EQ(test, home_places(l, p, false, false, pl), 4);
	expect_place(test, pl, 0, TTM_PL_VRAM,
		     TTM_PL_FLAG_CONTIGUOUS | TTM_PL_FLAG_TOPDOWN,
		     PFN(SZ_16M), PFN(SZ_32M));
	expect_place(test, pl, 1, TTM_PL_VRAM,
		     TTM_PL_FLAG_CONTIGUOUS | TTM_PL_FLAG_TOPDOWN,
		     0, PFN(SZ_16M));
	expect_place(test, pl, 2, TTM_PL_VRAM,
		     TTM_PL_FLAG_CONTIGUOUS | TTM_PL_FLAG_TOPDOWN, 0, 0);
	expect_place(test, pl, 3, TTM_PL_SYSTEM, NO_FLAGS, 0, 0);

	/* a bank smaller than the buffer is left out */
	p->size = SZ_16M + SZ_64K;
	KUNIT_ASSERT_EQ(test, home_places(l, p, false, false, pl), 2);
	expect_place(test, pl, 0, TTM_PL_VRAM,
		     TTM_PL_FLAG_CONTIGUOUS | TTM_PL_FLAG_TOPDOWN, 0, 0);

	/* exactly a bank fits */
	p->size = SZ_16M;
	KUNIT_EXPECT_EQ(test, home_places(l, p, false, false, pl), 4);
}

static void placement_cpu_visible(struct kunit *test)
{
	struct vseg_layout *l = placement_dev(test, "discrete");
	struct vseg_bo_params *p = params(test, SZ_1M, VSEG_BO_CPU_VISIBLE,
					  ALL_DISCRETE);
	struct ttm_place pl[VSEG_BO_MAX_PLACES];

	/* "local" is not CPU-visible: left out, even when preferred */
	prefer(p, 2, false);
	KUNIT_ASSERT_EQ(test, home_places(l, p, false, false, pl), 3);
	expect_place(test, pl, 0, TTM_PL_VRAM, NO_FLAGS, 0, 0);
	expect_place(test, pl, 1, TTM_PL_TT, NO_FLAGS, 0, 0);
	expect_place(test, pl, 2, TTM_PL_SYSTEM, NO_FLAGS, 0, 0);

	/* the places a CPU fault may move a plain buffer to */
	p->flags = 0;
	KUNIT_ASSERT_EQ(test, home_places(l, p, true, false, pl), 3);
	expect_place(test, pl, 0, TTM_PL_VRAM, NO_FLAGS, 0, 0);

	/* small BAR: the visible part bounds the segment's place */
	l = placement_dev(test, "smallbar");
	p = params(test, SZ_1M, VSEG_BO_CPU_VISIBLE, BIT(1) | BIT(2) | BIT(0));
	prefer(p, 1, true);
	KUNIT_ASSERT_EQ(test, home_places(l, p, false, false, pl), 3);
	expect_place(test, pl, 0, TTM_PL_VRAM, TTM_PL_FLAG_TOPDOWN, 0,
		     PFN(SZ_16M));
	expect_place(test, pl, 1, TTM_PL_TT, NO_FLAGS, 0, 0);
	/* larger than the visible part: only the aperture and system */
	p->size = SZ_16M + SZ_64K;
	KUNIT_ASSERT_EQ(test, home_places(l, p, false, false, pl), 2);
	expect_place(test, pl, 0, TTM_PL_TT, NO_FLAGS, 0, 0);
	/* without CPU_VISIBLE the whole segment */
	p->flags = 0;
	KUNIT_ASSERT_EQ(test, home_places(l, p, false, false, pl), 3);
	expect_place(test, pl, 0, TTM_PL_VRAM, TTM_PL_FLAG_TOPDOWN, 0, 0);
}

static void placement_multi(struct kunit *test)
{
	struct vseg_layout *l = placement_dev(test, "multi");
	struct vseg_bo_params *p = params(test, SZ_64K, 0, GENMASK(7, 0));
	struct ttm_place pl[VSEG_BO_MAX_PLACES];
	unsigned int i;

	/* six memory segments: VRAM then five private types, TT, system */
	KUNIT_ASSERT_EQ(test, home_places(l, p, false, false, pl), 8);
	expect_place(test, pl, 0, TTM_PL_VRAM, NO_FLAGS, 0, 0);
	for (i = 1; i < 6; i++)
		expect_place(test, pl, i, TTM_PL_PRIV + i - 1, NO_FLAGS, 0, 0);
	expect_place(test, pl, 6, TTM_PL_TT, NO_FLAGS, 0, 0);
	expect_place(test, pl, 7, TTM_PL_SYSTEM, NO_FLAGS, 0, 0);
	for (i = 1; i <= 6; i++)
		KUNIT_EXPECT_EQ(test, l->seg[pl[i - 1].mem_type], i);
	for (i = 0; i <= 7; i++)
		KUNIT_EXPECT_EQ(test, l->seg[l->mem_type[i]], i);
	KUNIT_EXPECT_EQ(test, l->seg[TTM_PL_TT], 7);
	KUNIT_EXPECT_EQ(test, l->seg[TTM_PL_SYSTEM], 0);

	/* every preferred slot, everything supported: no place twice */
	for (i = 0; i < VSEG_BO_MAX_PREFERRED; i++)
		prefer(p, 7 - i, true);
	KUNIT_ASSERT_EQ(test, home_places(l, p, false, false, pl), 8);
	expect_place(test, pl, 0, TTM_PL_TT, TTM_PL_FLAG_TOPDOWN, 0, 0);
	expect_place(test, pl, 5, TTM_PL_VRAM, NO_FLAGS, 0, 0);
}

static void placement_evict_places(struct kunit *test)
{
	struct vseg_layout *l = placement_dev(test, "discrete");
	struct vseg_bo_params *p = params(test, SZ_1M, 0, ALL_DISCRETE);
	struct ttm_place pl[2];

	/* no eviction set: straight to system memory */
	KUNIT_ASSERT_EQ(test, vseg_place_evict(l, p, TTM_PL_VRAM, pl), 1);
	expect_place(test, pl, 0, TTM_PL_SYSTEM, NO_FLAGS, 0, 0);

	/* evicted to the aperture, with a GART range if accessed physically */
	p->eviction = BIT(3);
	KUNIT_ASSERT_EQ(test, vseg_place_evict(l, p, TTM_PL_VRAM, pl), 2);
	expect_place(test, pl, 0, TTM_PL_TT, NO_FLAGS, 0, 0);
	expect_place(test, pl, 1, TTM_PL_SYSTEM, NO_FLAGS, 0, 0);
	p->flags = VSEG_BO_ACCESSED_PHYSICALLY;
	KUNIT_ASSERT_EQ(test, vseg_place_evict(l, p, TTM_PL_PRIV, pl), 2);
	expect_place(test, pl, 0, TTM_PL_TT, NO_FLAGS, 0, PFN(SZ_64M));

	/* from the aperture or system memory: system memory */
	KUNIT_ASSERT_EQ(test, vseg_place_evict(l, p, TTM_PL_TT, pl), 1);
	expect_place(test, pl, 0, TTM_PL_SYSTEM, NO_FLAGS, 0, 0);
	KUNIT_ASSERT_EQ(test, vseg_place_evict(l, p, TTM_PL_SYSTEM, pl), 1);
}

struct check_case {
	const char *name;
	u64 size;
	u64 alignment;
	u32 flags;
	u32 supported;
	u32 eviction;
	u32 num_preferred;
	u32 pref[VSEG_BO_MAX_PREFERRED];
	u32 num_banks;
	u32 banks[VSEG_BO_MAX_BANKS];
	int ret;
	u64 real_size;
};

/* Against the discrete profile. */
static const struct check_case check_cases[] = {
	{ "plain", SZ_1M, 0, 0, ALL_DISCRETE, .ret = 0, .real_size = SZ_1M },
	{ "rounded-to-64k", SZ_4K, 0, 0, BIT(1) | BIT(2), .real_size = SZ_64K },
	{ "4k-segment-only", SZ_4K, 0, 0, BIT(2), .real_size = SZ_4K },
	{ "aperture-only-4k", SZ_4K, 0, 0, BIT(3), .real_size = SZ_4K },
	{ "size-zero", 0, 0, 0, ALL_DISCRETE, .ret = -EINVAL },
	{ "size-unaligned", SZ_4K + 1, 0, 0, ALL_DISCRETE, .ret = -EINVAL },
	{ "alignment-not-power-of-2", SZ_1M, 3 * SZ_4K, 0, ALL_DISCRETE,
	  .ret = -EINVAL },
	{ "alignment-1g", SZ_1M, SZ_1G, 0, ALL_DISCRETE, .real_size = SZ_1M },
	{ "alignment-2g", SZ_1M, SZ_2G, 0, ALL_DISCRETE, .ret = -EINVAL },
	{ "no-supported-segment", SZ_1M, 0, 0, 0, .ret = -EINVAL },
	{ "unknown-segment", SZ_1M, 0, 0, BIT(4) | BIT(1), .ret = -EINVAL },
	{ "eviction-not-aperture", SZ_1M, 0, 0, ALL_DISCRETE, .eviction = BIT(2),
	  .ret = -EINVAL },
	{ "eviction-unsupported", SZ_1M, 0, 0, BIT(1), .eviction = BIT(3),
	  .ret = -EINVAL },
	{ "eviction-aperture", SZ_1M, 0, 0, BIT(1) | BIT(3), .eviction = BIT(3),
	  .real_size = SZ_1M },
	{ "preferred-unsupported", SZ_1M, 0, 0, BIT(1), .num_preferred = 1,
	  .pref = { 2 }, .ret = -EINVAL },
	{ "preferred-unknown", SZ_1M, 0, 0, ALL_DISCRETE, .num_preferred = 2,
	  .pref = { 1, 9 }, .ret = -EINVAL },
	{ "banks-without-preferred", SZ_1M, 0, 0, ALL_DISCRETE, .num_banks = 1,
	  .ret = -EINVAL },
	{ "banks-of-system", SZ_1M, 0, 0, ALL_DISCRETE, .num_preferred = 1,
	  .pref = { 0 }, .num_banks = 1, .ret = -EINVAL },
	{ "banks-of-aperture", SZ_1M, 0, 0, ALL_DISCRETE, .num_preferred = 1,
	  .pref = { 3 }, .num_banks = 1, .ret = -EINVAL },
	{ "banks-without-banking", SZ_1M, 0, 0, ALL_DISCRETE, .num_preferred = 1,
	  .pref = { 2 }, .num_banks = 1, .ret = -EINVAL },
	{ "bank-beyond-segment", SZ_1M, 0, 0, ALL_DISCRETE, .num_preferred = 1,
	  .pref = { 1 }, .num_banks = 2, .banks = { 1, 2 }, .ret = -EINVAL },
	{ "banks", SZ_1M, 0, 0, ALL_DISCRETE, .num_preferred = 1,
	  .pref = { 1 }, .num_banks = 2, .banks = { 1, 0 }, .real_size = SZ_1M },
	{ "accessed-physically-in-system", SZ_1M, 0, VSEG_BO_ACCESSED_PHYSICALLY,
	  BIT(0), .ret = -EINVAL },
	{ "accessed-physically-in-aperture", SZ_1M, 0,
	  VSEG_BO_ACCESSED_PHYSICALLY, BIT(3), .real_size = SZ_1M },
	{ "cpu-visible-nowhere", SZ_1M, 0, VSEG_BO_CPU_VISIBLE, BIT(2),
	  .ret = -EINVAL },
	{ "cpu-visible-in-vram", SZ_1M, 0, VSEG_BO_CPU_VISIBLE, BIT(1),
	  .real_size = SZ_1M },
	{ "larger-than-segment", SZ_16M + SZ_4K, 0, 0, BIT(2), .ret = -EINVAL },
	{ "whole-segment", SZ_16M, 0, 0, BIT(2), .real_size = SZ_16M },
	{ "larger-than-commit-limit", SZ_32M + SZ_4K, 0, 0, BIT(3),
	  .ret = -EINVAL },
	{ "rounded-to-the-segment", SZ_32M - SZ_4K, 0, 0, BIT(1),
	  .real_size = SZ_32M },
	{ "rounded-above-every-segment", SZ_32M + SZ_4K, 0, 0, BIT(1) | BIT(3),
	  .ret = -EINVAL },
	{ "huge", 1ULL << 62, 0, 0, ALL_DISCRETE, .ret = -EINVAL },
	{ "physical-from-end-aligned-1g", 0x30000, SZ_1G,
	  VSEG_BO_ACCESSED_PHYSICALLY | VSEG_BO_FROM_END, BIT(0) | BIT(1) | BIT(2),
	  .real_size = 0x30000 },
};

KUNIT_ARRAY_PARAM_DESC(check_cases, check_cases, name);

static void placement_check_params(struct kunit *test)
{
	const struct check_case *c = test->param_value;
	struct vseg_layout *l = placement_dev(test, "discrete");
	struct vseg_bo_params *p = params(test, c->size, c->flags,
					  c->supported);
	u64 real = 0xdead;
	unsigned int i;
	int ret;

	p->alignment = c->alignment;
	p->eviction = c->eviction;
	for (i = 0; i < c->num_preferred; i++)
		prefer(p, c->pref[i], false);
	p->num_banks = c->num_banks;
	memcpy(p->banks, c->banks, sizeof(p->banks));

	ret = vseg_place_check(l, p, &real);
	KUNIT_EXPECT_EQ(test, ret, c->ret);
	if (!c->ret)
		KUNIT_EXPECT_EQ(test, real, c->real_size);
	else
		KUNIT_EXPECT_EQ(test, real, 0xdead);
}

static void placement_physical(struct kunit *test)
{
	struct vseg_layout *l = placement_dev(test, "discrete");
	struct vseg_bo_params *p = params(test, SZ_1M,
					  VSEG_BO_ACCESSED_PHYSICALLY,
					  ALL_DISCRETE);
	struct ttm_place pl[VSEG_BO_MAX_PLACES];

	/* never system memory: contiguous, or a range of the aperture */
	KUNIT_ASSERT_EQ(test, vseg_place_physical(l, p, false, pl), 3);
	expect_place(test, pl, 0, TTM_PL_VRAM, TTM_PL_FLAG_CONTIGUOUS, 0, 0);
	expect_place(test, pl, 1, TTM_PL_PRIV, TTM_PL_FLAG_CONTIGUOUS, 0, 0);
	expect_place(test, pl, 2, TTM_PL_TT, NO_FLAGS, 0, PFN(SZ_64M));

	/* a primary reaches the aperture only when it is to be displayed */
	p->flags = VSEG_BO_PRIMARY;
	KUNIT_ASSERT_EQ(test, vseg_place_physical(l, p, false, pl), 2);
	KUNIT_ASSERT_EQ(test, vseg_place_physical(l, p, true, pl), 3);
	expect_place(test, pl, 2, TTM_PL_TT, NO_FLAGS, 0, PFN(SZ_64M));

	/* supported only in system memory: not reachable at all */
	p->supported = BIT(0);
	KUNIT_EXPECT_EQ(test, vseg_place_physical(l, p, true, pl), 0);
}

/* A flip scans out of a DirectFlip segment whenever the primary can be in one. */
static void placement_display(struct kunit *test)
{
	struct vseg_segment_table *t;
	struct vseg_layout *l = placement_dev_table(test, "discrete", &t);
	struct vseg_bo_params *p = params(test, SZ_1M, VSEG_BO_PRIMARY,
					  ALL_DISCRETE);
	struct ttm_place pl[VSEG_BO_MAX_PLACES];
	bool direct = true;

	/* no segment has the flag: wherever the display reaches */
	KUNIT_ASSERT_EQ(test, vseg_place_display(l, p, pl, &direct), 3);
	KUNIT_EXPECT_FALSE(test, direct);
	expect_place(test, pl, 0, TTM_PL_VRAM, TTM_PL_FLAG_CONTIGUOUS, 0, 0);
	expect_place(test, pl, 2, TTM_PL_TT, NO_FLAGS, 0, PFN(SZ_64M));

	/* "local" (segment 2) has it: only there */
	t->seg[1].flags |= VSEG_SEGF_DIRECT_FLIP;
	KUNIT_ASSERT_EQ(test, vseg_place_display(l, p, pl, &direct), 1);
	KUNIT_EXPECT_TRUE(test, direct);
	expect_place(test, pl, 0, TTM_PL_PRIV, TTM_PL_FLAG_CONTIGUOUS, 0, 0);

	/* and the aperture: both, in the order of preference */
	t->seg[2].flags |= VSEG_SEGF_DIRECT_FLIP;
	KUNIT_ASSERT_EQ(test, vseg_place_display(l, p, pl, &direct), 2);
	KUNIT_EXPECT_TRUE(test, direct);
	expect_place(test, pl, 0, TTM_PL_PRIV, TTM_PL_FLAG_CONTIGUOUS, 0, 0);
	expect_place(test, pl, 1, TTM_PL_TT, NO_FLAGS, 0, PFN(SZ_64M));

	/* supported in neither: where it can be, not a DirectFlip segment */
	p->supported = BIT(1);
	KUNIT_ASSERT_EQ(test, vseg_place_display(l, p, pl, &direct), 1);
	KUNIT_EXPECT_FALSE(test, direct);
	expect_place(test, pl, 0, TTM_PL_VRAM, TTM_PL_FLAG_CONTIGUOUS, 0, 0);

	/* system memory only: never displayed */
	p->supported = BIT(0);
	KUNIT_EXPECT_EQ(test, vseg_place_display(l, p, pl, &direct), 0);
}

static void placement_filter(struct kunit *test)
{
	struct vseg_layout *l = placement_dev(test, "discrete");
	struct vseg_bo_params *p = params(test, SZ_1M, 0, ALL_DISCRETE);
	struct ttm_place pl[VSEG_BO_MAX_PLACES];
	unsigned int n;

	n = home_places(l, p, false, false, pl);
	KUNIT_ASSERT_EQ(test, n, 4);
	KUNIT_ASSERT_EQ(test, vseg_place_filter(l, pl, n, BIT(2) | BIT(0)), 2);
	expect_place(test, pl, 0, TTM_PL_PRIV, NO_FLAGS, 0, 0);
	expect_place(test, pl, 1, TTM_PL_SYSTEM, NO_FLAGS, 0, 0);
	KUNIT_EXPECT_EQ(test, vseg_place_filter(l, pl, 2, 0), 0);
}

/* What could ever fit, on a small BAR and around invalid ranges. */
static void placement_check_capacity(struct kunit *test)
{
	struct vseg_layout *l = placement_dev(test, "smallbar");
	struct vseg_segment_table *t = kunit_kzalloc(test, sizeof(*t),
						     GFP_KERNEL);
	struct vseg_bo_params *p;
	u64 real;

	/* CPU_VISIBLE larger than the 16 MiB window: system memory only */
	p = params(test, SZ_32M, VSEG_BO_CPU_VISIBLE, BIT(1));
	KUNIT_EXPECT_EQ(test, vseg_place_check(l, p, &real), -EINVAL);
	p->supported |= BIT(0);
	KUNIT_EXPECT_EQ(test, vseg_place_check(l, p, &real), 0);
	p = params(test, SZ_16M, VSEG_BO_CPU_VISIBLE, BIT(1));
	KUNIT_EXPECT_EQ(test, vseg_place_check(l, p, &real), 0);

	/* 8 MiB with 1..2 MiB invalid; an 8 MiB aperture, 2..4 MiB invalid */
	KUNIT_ASSERT_NOT_NULL(test, t);
	KUNIT_ASSERT_EQ(test, vseg_segment_table_parse(t,
		"memory:name=vram,size=8M,page=64K,flags=64kpages,invalid=0x100000+0x100000;"
		"aperture:size=8M,commit=8M,invalid=0x200000+0x200000"), 0);
	KUNIT_ASSERT_EQ(test, vseg_segment_table_validate(t), 0);
	vseg_layout_init(l, t);
	p = params(test, 6 * SZ_1M, VSEG_BO_ACCESSED_PHYSICALLY, BIT(1));
	KUNIT_EXPECT_EQ(test, vseg_place_check(l, p, &real), 0);
	p->size = 6 * SZ_1M + SZ_64K;
	KUNIT_EXPECT_EQ(test, vseg_place_check(l, p, &real), -EINVAL);
	p->flags = 0;	/* scattered: 7 MiB of the segment are usable */
	p->size = 7 * SZ_1M;
	KUNIT_EXPECT_EQ(test, vseg_place_check(l, p, &real), 0);
	p = params(test, 4 * SZ_1M + SZ_4K, VSEG_BO_ACCESSED_PHYSICALLY,
		   BIT(2));
	KUNIT_EXPECT_EQ(test, vseg_place_check(l, p, &real), -EINVAL);
	p->size = 4 * SZ_1M;
	KUNIT_EXPECT_EQ(test, vseg_place_check(l, p, &real), 0);
	p->flags = 0;	/* no GART range: only the commit limit counts */
	p->size = 8 * SZ_1M;
	KUNIT_EXPECT_EQ(test, vseg_place_check(l, p, &real), 0);
}

/*
 * Seed 004: system memory is the implicit segment 0, which a client never
 * names; it places a buffer in system memory through the aperture's id.
 */
static void placement_client_sets(struct kunit *test)
{
	struct vseg_layout *l = placement_dev(test, "discrete");
	struct vseg_bo_params *p = params(test, SZ_1M, 0, BIT(0) | BIT(1));
	struct ttm_place pl[VSEG_BO_MAX_PLACES];

	/* bit 0 in the supported set: refused, nothing changed */
	KUNIT_EXPECT_EQ(test, vseg_place_client_sets(l, p), -EINVAL);
	KUNIT_EXPECT_EQ(test, p->supported, BIT(0) | BIT(1));
	p->supported = BIT(0);
	KUNIT_EXPECT_EQ(test, vseg_place_client_sets(l, p), -EINVAL);
	KUNIT_EXPECT_EQ(test, p->supported, BIT(0));

	/* a preferred segment 0, anywhere in the list: refused */
	p->supported = BIT(1) | BIT(3);
	prefer(p, 1, false);
	prefer(p, 0, false);
	KUNIT_EXPECT_EQ(test, vseg_place_client_sets(l, p), -EINVAL);
	KUNIT_EXPECT_EQ(test, p->supported, BIT(1) | BIT(3));
	p->num_preferred = 0;
	prefer(p, 0, true);
	KUNIT_EXPECT_EQ(test, vseg_place_client_sets(l, p), -EINVAL);

	/* memory segments only: no system memory place */
	p->num_preferred = 0;
	p->supported = BIT(1) | BIT(2);
	KUNIT_EXPECT_EQ(test, vseg_place_client_sets(l, p), 0);
	KUNIT_EXPECT_EQ(test, p->supported, BIT(1) | BIT(2));
	KUNIT_ASSERT_EQ(test, home_places(l, p, false, false, pl), 2);
	expect_place(test, pl, 0, TTM_PL_VRAM, NO_FLAGS, 0, 0);
	expect_place(test, pl, 1, TTM_PL_PRIV, NO_FLAGS, 0, 0);

	/* the aperture's id names system memory: aperture, then system */
	p->supported = BIT(3);
	prefer(p, 3, false);
	KUNIT_EXPECT_EQ(test, vseg_place_client_sets(l, p), 0);
	KUNIT_EXPECT_EQ(test, p->supported, BIT(0) | BIT(3));
	KUNIT_ASSERT_EQ(test, home_places(l, p, false, false, pl), 2);
	expect_place(test, pl, 0, TTM_PL_TT, NO_FLAGS, 0, 0);
	expect_place(test, pl, 1, TTM_PL_SYSTEM, NO_FLAGS, 0, 0);
	KUNIT_ASSERT_EQ(test, home_places(l, p, false, true, pl), 1);
	expect_place(test, pl, 0, TTM_PL_TT, NO_FLAGS, 0, 0);
}

static struct kunit_case vseg_placement_cases[] = {
	KUNIT_CASE(placement_accessed_physically),
	KUNIT_CASE(placement_preference_order),
	KUNIT_CASE(placement_from_end),
	KUNIT_CASE(placement_banks),
	KUNIT_CASE(placement_cpu_visible),
	KUNIT_CASE(placement_multi),
	KUNIT_CASE(placement_evict_places),
	KUNIT_CASE(placement_physical),
	KUNIT_CASE(placement_display),
	KUNIT_CASE(placement_filter),
	KUNIT_CASE(placement_check_capacity),
	KUNIT_CASE_PARAM(placement_check_params, check_cases_gen_params),
	KUNIT_CASE(placement_client_sets),
	{}
};

static struct kunit_suite vseg_placement_suite = {
	.name = "vseg_placement",
	.test_cases = vseg_placement_cases,
};

kunit_test_suite(vseg_placement_suite);
