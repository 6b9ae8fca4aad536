// SPDX-License-Identifier: GPL-2.0-only
/*
 * Copyright (c) 2026 The vseg authors
 *
 * KUnit tests of the GPU page-table format (vseg_hw.h): entry encoding and
 * decoding, the index of each level, 64 KiB entries, and the software
 * GPU's MMU walk (vseg_sim_mmu_walk()) over a fake bus of a few pages.
 */

#include <kunit/test.h>
#include <linux/sizes.h>
#include <linux/slab.h>
#include <linux/string.h>

#include "../vseg_hw.h"

/* The fake bus: FAKE_PAGES pages of "GPU memory" from FAKE_BASE. */
#define FAKE_BASE	0x100000ull
#define FAKE_PAGES	8

struct fake_bus {
	struct vseg_hw_bus bus;
	u8 *mem;
};

static struct fake_bus *to_fake(struct vseg_hw_bus *bus)
{
	return container_of(bus, struct fake_bus, bus);
}

static void *fake_map(struct vseg_hw_bus *bus, u64 addr, u64 *len,
		      bool write, struct vseg_hw_mapping *m)
{
	u64 off = addr - FAKE_BASE;

	m->kmapped = NULL;
	if (addr < FAKE_BASE || off >= FAKE_PAGES * VSEG_HW_PAGE_SIZE)
		return NULL;
	*len = VSEG_HW_PAGE_SIZE - (off & (VSEG_HW_PAGE_SIZE - 1));
	return to_fake(bus)->mem + off;
}

static void fake_unmap(struct vseg_hw_bus *bus, struct vseg_hw_mapping *m)
{
}

static const struct vseg_hw_bus_ops fake_ops = {
	.map = fake_map,
	.unmap = fake_unmap,
};

/* Page @i of the fake bus: its address, and its entries. */
static u64 page_addr(unsigned int i)
{
	return FAKE_BASE + i * VSEG_HW_PAGE_SIZE;
}

static u64 *page_entries(struct fake_bus *f, unsigned int i)
{
	return (u64 *)(f->mem + i * VSEG_HW_PAGE_SIZE);
}

static struct fake_bus *fake_new(struct kunit *test)
{
	struct fake_bus *f = kunit_kzalloc(test, sizeof(*f), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, f);
	f->mem = kunit_kzalloc(test, FAKE_PAGES * VSEG_HW_PAGE_SIZE,
			       GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, f->mem);
	f->bus.ops = &fake_ops;
	return f;
}

/* Link pages 0 (root), 1, 2 and 3 (leaf) along the path of @va. */
static void fake_path(struct fake_bus *f, u64 va)
{
	unsigned int l;

	for (l = 0; l < VSEG_HW_PT_LEVELS - 1; l++)
		page_entries(f, l)[vseg_hw_pt_index(va, l)] =
			VSEG_HW_PTE_VALID | page_addr(l + 1);
}

static void pt_encode_decode(struct kunit *test)
{
	u64 pte;

	pte = vseg_hw_pte_encode(0x12345000, false, false);
	KUNIT_EXPECT_EQ(test, pte, VSEG_HW_PTE_VALID | 0x12345000);
	KUNIT_EXPECT_EQ(test, vseg_hw_pte_addr(pte), 0x12345000);
	KUNIT_EXPECT_EQ(test, vseg_hw_pte_page_size(pte), SZ_4K);

	pte = vseg_hw_pte_encode(0x12345000, true, false);
	KUNIT_EXPECT_TRUE(test, pte & VSEG_HW_PTE_READONLY);
	KUNIT_EXPECT_EQ(test, vseg_hw_pte_addr(pte), 0x12345000);

	/* A system page: the SYSTEM bit, and its class on the bus again. */
	pte = vseg_hw_pte_encode(VSEG_HW_SYSTEM_ADDR(0xabcde000), false,
				 false);
	KUNIT_EXPECT_TRUE(test, pte & VSEG_HW_PTE_SYSTEM);
	KUNIT_EXPECT_FALSE(test, pte & BIT_ULL(63));
	KUNIT_EXPECT_TRUE(test, VSEG_HW_IS_SYSTEM(vseg_hw_pte_addr(pte)));
	KUNIT_EXPECT_EQ(test, VSEG_HW_SYSTEM_PHYS(vseg_hw_pte_addr(pte)),
			0xabcde000);

	/* What an entry cannot hold: no entry (invalid). */
	KUNIT_EXPECT_EQ(test, vseg_hw_pte_encode(0x12345800, false, false), 0);
	KUNIT_EXPECT_EQ(test, vseg_hw_pte_encode(0x12345000, false, true), 0);
	KUNIT_EXPECT_EQ(test, vseg_hw_pte_encode(VSEG_HW_SYSTEM_ADDR(0x1800),
						 false, false), 0);
}

static void pt_index_math(struct kunit *test)
{
	u64 va = 3ull << 39 | 5ull << 30 | 7ull << 21 | 9ull << 12 | 0x123;

	KUNIT_EXPECT_EQ(test, vseg_hw_pt_index(va, 0), 3);
	KUNIT_EXPECT_EQ(test, vseg_hw_pt_index(va, 1), 5);
	KUNIT_EXPECT_EQ(test, vseg_hw_pt_index(va, 2), 7);
	KUNIT_EXPECT_EQ(test, vseg_hw_pt_index(va, 3), 9);
	/* The last address of the VA space: the root's last used entry. */
	va = BIT_ULL(VSEG_HW_VA_BITS) - 1;
	KUNIT_EXPECT_EQ(test, vseg_hw_pt_index(va, 0), 255);
	KUNIT_EXPECT_EQ(test, vseg_hw_pt_index(va, 3), 511);
	KUNIT_EXPECT_EQ(test, vseg_hw_pt_entry_span(3), SZ_4K);
	KUNIT_EXPECT_EQ(test, vseg_hw_pt_entry_span(2), SZ_2M);
	KUNIT_EXPECT_EQ(test, vseg_hw_pt_entry_span(1), SZ_1G);
	KUNIT_EXPECT_EQ(test, vseg_hw_pt_entry_span(0), BIT_ULL(39));
}

static void pt_64k(struct kunit *test)
{
	u64 pte = vseg_hw_pte_encode(0x7650000, false, true);
	u64 va;

	KUNIT_EXPECT_TRUE(test, pte & VSEG_HW_PTE_64K);
	KUNIT_EXPECT_EQ(test, vseg_hw_pte_page_size(pte), SZ_64K);
	/* Whichever of the 16 entries: the page's byte of the VA. */
	for (va = 0x40000000; va < 0x40010000; va += 0x1234)
		KUNIT_EXPECT_EQ(test, vseg_hw_pte_translate(pte, va),
				0x7650000 + (va & 0xffff));
	pte = vseg_hw_pte_encode(0x7651000, false, false);
	KUNIT_EXPECT_EQ(test, vseg_hw_pte_translate(pte, 0x40002345),
			0x7651345);
}

static void pt_walk(struct kunit *test)
{
	struct fake_bus *f = fake_new(test);
	u64 va = 0x8040201000ull, pte, big;
	unsigned int i;

	fake_path(f, va);
	page_entries(f, 3)[vseg_hw_pt_index(va, 3)] =
		vseg_hw_pte_encode(page_addr(6), false, false);
	KUNIT_EXPECT_EQ(test, vseg_sim_mmu_walk(&f->bus, page_addr(0), va,
						&pte), 0);
	KUNIT_EXPECT_EQ(test, vseg_hw_pte_translate(pte, va + 0x10),
			page_addr(6) + 0x10);

	/* The next page has no entry; nor does the same leaf index elsewhere. */
	KUNIT_EXPECT_EQ(test, vseg_sim_mmu_walk(&f->bus, page_addr(0),
						va + SZ_4K, &pte), -EFAULT);
	KUNIT_EXPECT_EQ(test, vseg_sim_mmu_walk(&f->bus, page_addr(0),
						va + SZ_2M, &pte), -EFAULT);
	/* No root, past the VA space, a table the bus does not reach. */
	KUNIT_EXPECT_EQ(test, vseg_sim_mmu_walk(&f->bus, 0, va, &pte), -EFAULT);
	KUNIT_EXPECT_EQ(test, vseg_sim_mmu_walk(&f->bus, page_addr(0),
						va | BIT_ULL(VSEG_HW_VA_BITS),
						&pte), -EFAULT);
	page_entries(f, 2)[vseg_hw_pt_index(va, 2)] =
		VSEG_HW_PTE_VALID | 0x40000000;
	KUNIT_EXPECT_EQ(test, vseg_sim_mmu_walk(&f->bus, page_addr(0), va,
						&pte), -EFAULT);
	/* A directory entry cleared: nothing below it is reached. */
	page_entries(f, 2)[vseg_hw_pt_index(va, 2)] = 0;
	KUNIT_EXPECT_EQ(test, vseg_sim_mmu_walk(&f->bus, page_addr(0), va,
						&pte), -EFAULT);
	page_entries(f, 2)[vseg_hw_pt_index(va, 2)] =
		VSEG_HW_PTE_VALID | page_addr(3);

	/* A 64 KiB page: 16 aligned entries of the same address. */
	big = round_down(va, SZ_64K) + SZ_64K;
	for (i = 0; i < VSEG_HW_PTE_PER_64K; i++)
		page_entries(f, 3)[vseg_hw_pt_index(big, 3) + i] =
			vseg_hw_pte_encode(0x7650000, true, true);
	for (i = 0; i < VSEG_HW_PTE_PER_64K; i++) {
		u64 v = big + i * SZ_4K + 8;

		KUNIT_ASSERT_EQ(test, vseg_sim_mmu_walk(&f->bus, page_addr(0),
							v, &pte), 0);
		KUNIT_EXPECT_TRUE(test, pte & VSEG_HW_PTE_READONLY);
		KUNIT_EXPECT_EQ(test, vseg_hw_pte_translate(pte, v),
				0x7650000 + i * SZ_4K + 8);
	}

	/* A system page's entry names the system class on the bus. */
	page_entries(f, 3)[0] = vseg_hw_pte_encode(VSEG_HW_SYSTEM_ADDR(0x5000),
						   false, false);
	KUNIT_ASSERT_EQ(test, vseg_sim_mmu_walk(&f->bus, page_addr(0),
						round_down(va, SZ_2M) + 4,
						&pte), 0);
	KUNIT_EXPECT_EQ(test, vseg_hw_pte_translate(pte,
						    round_down(va, SZ_2M) + 4),
			VSEG_HW_SYSTEM_ADDR(0x5004));
}

static struct kunit_case vseg_pt_cases[] = {
	KUNIT_CASE(pt_encode_decode),
	KUNIT_CASE(pt_index_math),
	KUNIT_CASE(pt_64k),
	KUNIT_CASE(pt_walk),
	{}
};

static struct kunit_suite vseg_pt_suite = {
	.name = "vseg_pt",
	.test_cases = vseg_pt_cases,
};

kunit_test_suite(vseg_pt_suite);
