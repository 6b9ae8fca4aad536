// SPDX-License-Identifier: GPL-2.0-only
/*
 * Copyright (c) 2026 The vseg authors
 *
 * KUnit tests of the aperture's GART: range allocation over the aperture,
 * binding ranges to system pages, the entries as the GPU (the software
 * GPU of sim/, through vseg_hw.h) holds them, the paging engine's
 * MAP_APERTURE and UNMAP_APERTURE, unbinding and freeing, and the counts
 * of valid entries and ranges.
 */

#include <kunit/test.h>
#include <linux/gfp.h>
#include <linux/io.h>
#include <linux/mm.h>
#include <drm/drm_print.h>

#include "../vseg_gart.h"
#include "../vseg_hw.h"

#define GART_PAGES	64
#define TEST_PAGES	8

struct gart_test {
	struct vseg_hw hw;
	struct vseg_gart gart;
	struct page *pages[TEST_PAGES];
};

static void gart_fini_action(void *arg)
{
	vseg_gart_fini(arg);
}

static void hw_release_action(void *arg)
{
	struct vseg_hw *hw = arg;

	hw->ops->release(hw);
}

/* The software GPU, without a bus: its GART and paging engine's MAP. */
static struct vseg_hw *test_hw(struct kunit *test)
{
	struct vseg_hw *hw = kunit_kzalloc(test, sizeof(*hw), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, hw);
	KUNIT_ASSERT_EQ(test, vseg_sim_attach(hw, NULL), 0);
	KUNIT_ASSERT_EQ(test, kunit_add_action_or_reset(test, hw_release_action,
							hw), 0);
	return hw;
}

static void free_page_action(void *arg)
{
	__free_page(arg);
}

/*
 * Cleanup runs as KUnit actions, last registered first: the ranges a test
 * leaves allocated are freed before the GART is torn down.
 */
static int gart_test_init(struct kunit *test)
{
	struct gart_test *g;
	unsigned int i;
	int err;

	g = kunit_kzalloc(test, sizeof(*g), GFP_KERNEL);
	if (!g)
		return -ENOMEM;
	for (i = 0; i < TEST_PAGES; i++) {
		g->pages[i] = alloc_page(GFP_KERNEL);
		if (!g->pages[i])
			return -ENOMEM;
		err = kunit_add_action_or_reset(test, free_page_action,
						g->pages[i]);
		if (err)
			return err;
	}
	err = vseg_sim_attach(&g->hw, NULL);
	if (err)
		return err;
	err = kunit_add_action_or_reset(test, hw_release_action, &g->hw);
	if (err)
		return err;
	err = vseg_gart_init(&g->gart, &g->hw, 0, GART_PAGES * PAGE_SIZE);
	if (err)
		return err;
	err = kunit_add_action_or_reset(test, gart_fini_action, &g->gart);
	if (err)
		return err;
	test->priv = g;
	return 0;
}

/* Free @node at the end of the test if it is still allocated. */
static void gart_free_action(void *arg)
{
	struct drm_mm_node *node = arg;
	struct vseg_gart *gart = node->mm ?
		container_of(node->mm, struct vseg_gart, mm) : NULL;

	if (gart)
		vseg_gart_free(gart, node);
}

static struct drm_mm_node *new_node(struct kunit *test)
{
	struct drm_mm_node *node = kunit_kzalloc(test, sizeof(*node),
						 GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, node);
	KUNIT_ASSERT_EQ(test, kunit_add_action(test, gart_free_action, node),
			0);
	return node;
}

static void gart_init_empty(struct kunit *test)
{
	struct gart_test *g = test->priv;
	phys_addr_t phys = 0;
	u64 i;

	KUNIT_EXPECT_EQ(test, g->gart.num_pages, GART_PAGES);
	KUNIT_EXPECT_EQ(test, g->gart.mapped, 0);
	KUNIT_EXPECT_EQ(test, g->gart.ranges, 0);
	KUNIT_EXPECT_EQ(test, vseg_gart_mapped_bytes(&g->gart), 0);
	KUNIT_EXPECT_TRUE(test, drm_mm_clean(&g->gart.mm));
	for (i = 0; i < GART_PAGES; i++)
		KUNIT_EXPECT_EQ(test, vseg_gart_entry(&g->gart, i * PAGE_SIZE,
						      &phys), -EFAULT);
}

static void gart_alloc_bottom_up_and_top_down(struct kunit *test)
{
	struct gart_test *g = test->priv;
	struct drm_mm_node *a = new_node(test), *b = new_node(test);
	struct drm_mm_node *c = new_node(test);

	KUNIT_ASSERT_EQ(test, vseg_gart_alloc(&g->gart, a, 4, 0, 0, 0, false),
			0);
	KUNIT_EXPECT_EQ(test, a->start, 0);
	KUNIT_EXPECT_EQ(test, a->size, 4);
	KUNIT_ASSERT_EQ(test, vseg_gart_alloc(&g->gart, b, 2, 0, 0, 0, false),
			0);
	KUNIT_EXPECT_EQ(test, b->start, 4);
	KUNIT_ASSERT_EQ(test, vseg_gart_alloc(&g->gart, c, 3, 0, 0, 0, true),
			0);
	KUNIT_EXPECT_EQ(test, c->start, GART_PAGES - 3);
	KUNIT_EXPECT_EQ(test, g->gart.ranges, 3);
	/* a new range has no valid entry */
	KUNIT_EXPECT_EQ(test, g->gart.mapped, 0);

	vseg_gart_free(&g->gart, a);
	KUNIT_EXPECT_FALSE(test, drm_mm_node_allocated(a));
	KUNIT_EXPECT_EQ(test, g->gart.ranges, 2);
	/* the lowest free range is taken again */
	KUNIT_ASSERT_EQ(test, vseg_gart_alloc(&g->gart, a, 4, 0, 0, 0, false),
			0);
	KUNIT_EXPECT_EQ(test, a->start, 0);
}

static void gart_alloc_limits(struct kunit *test)
{
	struct gart_test *g = test->priv;
	struct drm_mm_node *a = new_node(test), *b = new_node(test);
	struct drm_mm_node *c = new_node(test), *d = new_node(test);

	/* fpfn / lpfn bound the range, bottom-up and top-down */
	KUNIT_ASSERT_EQ(test, vseg_gart_alloc(&g->gart, a, 4, 0, 10, 20, false),
			0);
	KUNIT_EXPECT_EQ(test, a->start, 10);
	KUNIT_ASSERT_EQ(test, vseg_gart_alloc(&g->gart, b, 4, 0, 10, 20, true),
			0);
	KUNIT_EXPECT_EQ(test, b->start, 16);
	/* 2 pages left in [10, 20) */
	KUNIT_EXPECT_EQ(test, vseg_gart_alloc(&g->gart, c, 3, 0, 10, 20, false),
			-ENOSPC);
	KUNIT_EXPECT_FALSE(test, drm_mm_node_allocated(c));
	KUNIT_EXPECT_EQ(test, g->gart.ranges, 2);
	KUNIT_ASSERT_EQ(test, vseg_gart_alloc(&g->gart, c, 2, 0, 10, 20, false),
			0);
	KUNIT_EXPECT_EQ(test, c->start, 14);
	vseg_gart_free(&g->gart, a);
	vseg_gart_free(&g->gart, b);
	vseg_gart_free(&g->gart, c);

	/* alignment */
	KUNIT_ASSERT_EQ(test, vseg_gart_alloc(&g->gart, a, 1, 0, 0, 0, false),
			0);
	KUNIT_ASSERT_EQ(test, vseg_gart_alloc(&g->gart, b, 4, 16, 0, 0, false),
			0);
	KUNIT_EXPECT_EQ(test, b->start, 16);
	vseg_gart_free(&g->gart, a);
	vseg_gart_free(&g->gart, b);

	/* lpfn beyond the aperture is the aperture's end */
	KUNIT_ASSERT_EQ(test, vseg_gart_alloc(&g->gart, a, 4, 0, 0,
					      GART_PAGES * 4, true), 0);
	KUNIT_EXPECT_EQ(test, a->start + a->size, GART_PAGES);
	vseg_gart_free(&g->gart, a);

	/* the whole aperture, then nothing more */
	KUNIT_ASSERT_EQ(test, vseg_gart_alloc(&g->gart, a, GART_PAGES, 0, 0, 0,
					      false), 0);
	KUNIT_EXPECT_EQ(test, vseg_gart_alloc(&g->gart, d, 1, 0, 0, 0, false),
			-ENOSPC);
	KUNIT_EXPECT_EQ(test, vseg_gart_alloc(&g->gart, d, 1, 0, 0, 0, true),
			-ENOSPC);
	vseg_gart_free(&g->gart, a);
	/* larger than the aperture */
	KUNIT_EXPECT_EQ(test, vseg_gart_alloc(&g->gart, a, GART_PAGES + 1, 0, 0,
					      0, false), -ENOSPC);
	/* an empty window */
	KUNIT_EXPECT_EQ(test, vseg_gart_alloc(&g->gart, a, 1, 0, 8, 8, false),
			-ENOSPC);
	KUNIT_EXPECT_EQ(test, g->gart.ranges, 0);
	KUNIT_EXPECT_TRUE(test, drm_mm_clean(&g->gart.mm));
}

static void gart_bind_translate(struct kunit *test)
{
	struct gart_test *g = test->priv;
	struct drm_mm_node *a = new_node(test);
	phys_addr_t phys;
	u64 base, i;

	KUNIT_ASSERT_EQ(test, vseg_gart_alloc(&g->gart, a, 4, 0, 8, 0, false),
			0);
	base = a->start << PAGE_SHIFT;
	/* pages out of order: the GPU sees them in the order given */
	swap(g->pages[0], g->pages[2]);
	KUNIT_ASSERT_EQ(test, vseg_gart_bind(&g->gart, a, g->pages, 3), 0);
	KUNIT_EXPECT_EQ(test, g->gart.mapped, 3);
	KUNIT_EXPECT_EQ(test, vseg_gart_mapped_bytes(&g->gart), 3 * PAGE_SIZE);

	for (i = 0; i < 3; i++) {
		phys = 0;
		KUNIT_EXPECT_EQ(test, vseg_gart_entry(&g->gart,
						      base + i * PAGE_SIZE,
						      &phys), 0);
		KUNIT_EXPECT_EQ(test, phys, page_to_phys(g->pages[i]));
		KUNIT_EXPECT_EQ(test, vseg_gart_entry(&g->gart,
						      base + i * PAGE_SIZE + 123,
						      &phys), 0);
		KUNIT_EXPECT_EQ(test, phys, page_to_phys(g->pages[i]) + 123);
		KUNIT_EXPECT_EQ(test, vseg_gart_entry(&g->gart,
						      base + (i + 1) * PAGE_SIZE - 1,
						      &phys), 0);
		KUNIT_EXPECT_EQ(test, phys,
				page_to_phys(g->pages[i]) + PAGE_SIZE - 1);
	}
	/* the range's fourth entry, entries outside it, past the aperture */
	phys = 42;
	KUNIT_EXPECT_EQ(test, vseg_gart_entry(&g->gart, base + 3 * PAGE_SIZE,
					      &phys), -EFAULT);
	KUNIT_EXPECT_EQ(test, vseg_gart_entry(&g->gart, base - 1, &phys),
			-EFAULT);
	KUNIT_EXPECT_EQ(test, vseg_gart_entry(&g->gart, 0, &phys), -EFAULT);
	KUNIT_EXPECT_EQ(test, vseg_gart_entry(&g->gart,
					      GART_PAGES * PAGE_SIZE, &phys),
			-EFAULT);
	KUNIT_EXPECT_EQ(test, vseg_gart_entry(&g->gart, U64_MAX, &phys),
			-EFAULT);
	KUNIT_EXPECT_EQ(test, phys, 42);
}

static void gart_bind_errors(struct kunit *test)
{
	struct gart_test *g = test->priv;
	struct drm_mm_node *a = new_node(test), *b = new_node(test);

	/* a node that was never allocated */
	KUNIT_EXPECT_EQ(test, vseg_gart_bind(&g->gart, a, g->pages, 1),
			-EINVAL);
	KUNIT_ASSERT_EQ(test, vseg_gart_alloc(&g->gart, a, 2, 0, 0, 0, false),
			0);
	/* more pages than the range */
	KUNIT_EXPECT_EQ(test, vseg_gart_bind(&g->gart, a, g->pages, 3),
			-EINVAL);
	KUNIT_EXPECT_EQ(test, g->gart.mapped, 0);
	/* a freed node */
	KUNIT_ASSERT_EQ(test, vseg_gart_alloc(&g->gart, b, 2, 0, 0, 0, false),
			0);
	vseg_gart_free(&g->gart, b);
	KUNIT_EXPECT_EQ(test, vseg_gart_bind(&g->gart, b, g->pages, 1),
			-EINVAL);
	/* zero pages: valid, nothing mapped */
	KUNIT_EXPECT_EQ(test, vseg_gart_bind(&g->gart, a, g->pages, 0), 0);
	KUNIT_EXPECT_EQ(test, g->gart.mapped, 0);
}

static void gart_rebind_unbind_free(struct kunit *test)
{
	struct gart_test *g = test->priv;
	struct drm_mm_node *a = new_node(test), *b = new_node(test);
	phys_addr_t phys;

	KUNIT_ASSERT_EQ(test, vseg_gart_alloc(&g->gart, a, 4, 0, 0, 0, false),
			0);
	KUNIT_ASSERT_EQ(test, vseg_gart_alloc(&g->gart, b, 4, 0, 0, 0, false),
			0);
	KUNIT_ASSERT_EQ(test, vseg_gart_bind(&g->gart, a, g->pages, 4), 0);
	KUNIT_ASSERT_EQ(test, vseg_gart_bind(&g->gart, b, g->pages + 4, 2), 0);
	KUNIT_EXPECT_EQ(test, g->gart.mapped, 6);

	/* binding again replaces the old entries, the count stays exact */
	KUNIT_ASSERT_EQ(test, vseg_gart_bind(&g->gart, a, g->pages + 6, 1), 0);
	KUNIT_EXPECT_EQ(test, g->gart.mapped, 3);
	KUNIT_EXPECT_EQ(test, vseg_gart_entry(&g->gart, 0, &phys), 0);
	KUNIT_EXPECT_EQ(test, phys, page_to_phys(g->pages[6]));
	KUNIT_EXPECT_EQ(test, vseg_gart_entry(&g->gart, PAGE_SIZE, &phys),
			-EFAULT);
	KUNIT_EXPECT_EQ(test, vseg_gart_entry(&g->gart, PAGE_SIZE, &phys),
			-EFAULT);

	/* unbind keeps the range, clears its entries; twice is harmless */
	vseg_gart_unbind(&g->gart, b);
	KUNIT_EXPECT_TRUE(test, drm_mm_node_allocated(b));
	KUNIT_EXPECT_EQ(test, g->gart.ranges, 2);
	KUNIT_EXPECT_EQ(test, g->gart.mapped, 1);
	vseg_gart_unbind(&g->gart, b);
	KUNIT_EXPECT_EQ(test, g->gart.mapped, 1);
	KUNIT_EXPECT_EQ(test, vseg_gart_entry(&g->gart, 4 * PAGE_SIZE,
					      &phys), -EFAULT);
	/* and it can be bound again */
	KUNIT_ASSERT_EQ(test, vseg_gart_bind(&g->gart, b, g->pages, 4), 0);
	KUNIT_EXPECT_EQ(test, g->gart.mapped, 5);

	/* free clears the entries and gives the range back */
	vseg_gart_free(&g->gart, b);
	KUNIT_EXPECT_EQ(test, g->gart.mapped, 1);
	KUNIT_EXPECT_EQ(test, g->gart.ranges, 1);
	KUNIT_EXPECT_EQ(test, vseg_gart_entry(&g->gart, 4 * PAGE_SIZE, &phys),
			-EFAULT);
	/* freeing or unbinding a free node does nothing */
	vseg_gart_free(&g->gart, b);
	vseg_gart_unbind(&g->gart, b);
	KUNIT_EXPECT_EQ(test, g->gart.ranges, 1);
	KUNIT_EXPECT_EQ(test, g->gart.mapped, 1);

	vseg_gart_free(&g->gart, a);
	KUNIT_EXPECT_EQ(test, g->gart.mapped, 0);
	KUNIT_EXPECT_EQ(test, g->gart.ranges, 0);
	KUNIT_EXPECT_EQ(test, vseg_gart_mapped_bytes(&g->gart), 0);
	KUNIT_EXPECT_TRUE(test, drm_mm_clean(&g->gart.mm));
}

/* Run one paging operation on the GPU and count it, as vseg_paging.c does. */
static int run_op(struct gart_test *g, u32 opcode, u32 flags, u64 dst,
		  u64 src, u64 size)
{
	struct vseg_paging_op op = {
		.opcode = opcode, .flags = flags,
		.dst = dst, .src = src, .size = size,
	};
	struct vseg_hw_paging_result res = {};
	int err;

	err = g->hw.ops->run_paging(&g->hw, &op, 1, &res);
	vseg_gart_account(&g->gart, &res);
	return err;
}

static int map_run(struct gart_test *g, u64 first, phys_addr_t phys,
		   u64 num, bool new_range)
{
	return run_op(g, VSEG_PAGING_OP_MAP_APERTURE,
		      new_range ? VSEG_PAGING_F_NEW_RANGE : 0,
		      first << PAGE_SHIFT, phys, num << PAGE_SHIFT);
}

static int unmap_run(struct gart_test *g, u64 first, u64 num)
{
	return run_op(g, VSEG_PAGING_OP_UNMAP_APERTURE, 0, first << PAGE_SHIFT,
		      0, num << PAGE_SHIFT);
}

/* The paging engine's runs: entries, counts, and runs outside refused. */
static void gart_map_unmap_runs(struct kunit *test)
{
	struct gart_test *g = test->priv;
	phys_addr_t base = page_to_phys(g->pages[0]), phys;
	u64 binds, unbinds;

	/* a range mapped in two runs counts one bind */
	KUNIT_ASSERT_EQ(test, map_run(g, 2, base, 1, true), 0);
	KUNIT_ASSERT_EQ(test, map_run(g, 3, page_to_phys(g->pages[5]), 1,
				      false), 0);
	vseg_gart_counts(&g->gart, &binds, &unbinds);
	KUNIT_EXPECT_EQ(test, binds, 1);
	KUNIT_EXPECT_EQ(test, g->gart.mapped, 2);
	KUNIT_EXPECT_EQ(test, vseg_gart_entry(&g->gart, 3 * PAGE_SIZE + 8,
					      &phys), 0);
	KUNIT_EXPECT_EQ(test, phys, page_to_phys(g->pages[5]) + 8);
	/* mapping a valid entry again does not count it twice */
	KUNIT_ASSERT_EQ(test, map_run(g, 2, base, 1, false), 0);
	KUNIT_EXPECT_EQ(test, g->gart.mapped, 2);

	/* outside the aperture, empty, or unaligned: refused, nothing written */
	KUNIT_EXPECT_EQ(test, map_run(g, GART_PAGES - 1, base, 2, true),
			-EINVAL);
	KUNIT_EXPECT_EQ(test, map_run(g, GART_PAGES, base, 1, true), -EINVAL);
	KUNIT_EXPECT_EQ(test, map_run(g, 0, base, 0, true), -EINVAL);
	KUNIT_EXPECT_EQ(test, map_run(g, 0, base + 8, 1, true), -EINVAL);
	KUNIT_EXPECT_EQ(test, unmap_run(g, GART_PAGES - 1, 2), -EINVAL);
	KUNIT_EXPECT_EQ(test, vseg_gart_entry(&g->gart,
					      (GART_PAGES - 1) * PAGE_SIZE,
					      &phys), -EFAULT);
	KUNIT_EXPECT_EQ(test, vseg_gart_entry(&g->gart, 0, &phys), -EFAULT);
	vseg_gart_counts(&g->gart, &binds, &unbinds);
	KUNIT_EXPECT_EQ(test, binds, 1);

	/* unmapping clears and counts one unbind; again counts nothing */
	KUNIT_ASSERT_EQ(test, unmap_run(g, 2, 2), 0);
	KUNIT_ASSERT_EQ(test, unmap_run(g, 2, 2), 0);
	vseg_gart_counts(&g->gart, &binds, &unbinds);
	KUNIT_EXPECT_EQ(test, unbinds, 1);
	KUNIT_EXPECT_EQ(test, g->gart.mapped, 0);
	KUNIT_EXPECT_EQ(test, vseg_gart_entry(&g->gart, 2 * PAGE_SIZE, &phys),
			-EFAULT);
}

struct print_buf {
	char text[512];
	size_t len;
};

static void print_to_buf(struct drm_printer *p, struct va_format *vaf)
{
	struct print_buf *b = p->arg;

	if (b->len < sizeof(b->text) - 1)
		b->len += scnprintf(b->text + b->len, sizeof(b->text) - b->len,
				    "%pV", vaf);
}

static void gart_print(struct kunit *test)
{
	struct gart_test *g = test->priv;
	struct drm_mm_node *a = new_node(test);
	struct print_buf *buf = kunit_kzalloc(test, sizeof(*buf), GFP_KERNEL);
	struct drm_printer p = { .printfn = print_to_buf, .arg = buf };

	KUNIT_ASSERT_NOT_NULL(test, buf);
	KUNIT_ASSERT_EQ(test, vseg_gart_alloc(&g->gart, a, 4, 0, 0, 0, false),
			0);
	KUNIT_ASSERT_EQ(test, vseg_gart_bind(&g->gart, a, g->pages, 2), 0);
	vseg_gart_print(&g->gart, &p);
	KUNIT_EXPECT_NOT_NULL_MSG(test,
				  strstr(buf->text, "gart: 64 pages, 1 ranges, 2 entries valid\n"),
				  "printed: %s", buf->text);
}

static void gart_sizes(struct kunit *test)
{
	struct vseg_gart *gart = kunit_kzalloc(test, sizeof(*gart), GFP_KERNEL);
	struct drm_mm_node *a = new_node(test);
	struct vseg_hw *hw = test_hw(test);
	u64 e;

	KUNIT_ASSERT_NOT_NULL(test, gart);
	/* one page */
	KUNIT_ASSERT_EQ(test, vseg_gart_init(gart, hw, 0, PAGE_SIZE), 0);
	KUNIT_EXPECT_EQ(test, gart->num_pages, 1);
	KUNIT_EXPECT_EQ(test, vseg_gart_alloc(gart, a, 2, 0, 0, 0, false),
			-ENOSPC);
	KUNIT_ASSERT_EQ(test, vseg_gart_alloc(gart, a, 1, 0, 0, 0, true), 0);
	vseg_gart_free(gart, a);
	vseg_gart_fini(gart);
	/* the GPU's GART went with it */
	KUNIT_EXPECT_EQ(test, hw->ops->gart_read(hw, 0, &e, 1), 0);

	/* the largest aperture the validator allows: 4 GiB */
	KUNIT_ASSERT_EQ(test, vseg_gart_init(gart, hw, 0, SZ_4G), 0);
	KUNIT_EXPECT_EQ(test, hw->ops->gart_read(hw, (SZ_4G >> PAGE_SHIFT) - 1,
						 &e, 1), 1);
	KUNIT_EXPECT_EQ(test, e, VSEG_HW_GART_INVALID);
	KUNIT_EXPECT_EQ(test, gart->num_pages, SZ_4G >> PAGE_SHIFT);
	KUNIT_ASSERT_EQ(test, vseg_gart_alloc(gart, a, 1, 0, 0, 0, true), 0);
	KUNIT_EXPECT_EQ(test, a->start, (SZ_4G >> PAGE_SHIFT) - 1);
	vseg_gart_free(gart, a);
	vseg_gart_fini(gart);
}

/* Invalid ranges are held: never handed out, never walked. */
static void walk_count(void *arg, struct drm_mm_node *node)
{
	(*(unsigned int *)arg)++;
}

static void gart_reserved_ranges(struct kunit *test)
{
	struct gart_test *g = test->priv;
	struct drm_mm_node held = {}, *n;
	unsigned int i, got = 0, walked = 0;
	phys_addr_t phys;

	n = kunit_kcalloc(test, GART_PAGES, sizeof(*n), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, n);
	KUNIT_ASSERT_EQ(test, vseg_gart_reserve(&g->gart, &held, 4, 4), 0);
	KUNIT_EXPECT_EQ(test, g->gart.ranges, 0);
	for (i = 0; i < GART_PAGES; i++) {
		if (vseg_gart_alloc(&g->gart, &n[i], 1, 0, 0, 0, false))
			break;
		KUNIT_EXPECT_TRUE(test, n[i].start < 4 || n[i].start >= 8);
		got++;
	}
	KUNIT_EXPECT_EQ(test, got, GART_PAGES - 4);
	vseg_gart_walk(&g->gart, walk_count, &walked);
	KUNIT_EXPECT_EQ(test, walked, got);
	/* nothing behind the held range translates */
	KUNIT_EXPECT_EQ(test, vseg_gart_entry(&g->gart,
					      5 * PAGE_SIZE, &phys),
			-EFAULT);
	for (i = 0; i < got; i++)
		vseg_gart_free(&g->gart, &n[i]);
	vseg_gart_unreserve(&g->gart, &held);
	KUNIT_EXPECT_TRUE(test, drm_mm_clean(&g->gart.mm));
}

static struct kunit_case vseg_gart_cases[] = {
	KUNIT_CASE(gart_init_empty),
	KUNIT_CASE(gart_alloc_bottom_up_and_top_down),
	KUNIT_CASE(gart_alloc_limits),
	KUNIT_CASE(gart_bind_translate),
	KUNIT_CASE(gart_bind_errors),
	KUNIT_CASE(gart_rebind_unbind_free),
	KUNIT_CASE(gart_map_unmap_runs),
	KUNIT_CASE(gart_print),
	KUNIT_CASE(gart_sizes),
	KUNIT_CASE(gart_reserved_ranges),
	{}
};

static struct kunit_suite vseg_gart_suite = {
	.name = "vseg_gart",
	.init = gart_test_init,
	.test_cases = vseg_gart_cases,
};

kunit_test_suite(vseg_gart_suite);
