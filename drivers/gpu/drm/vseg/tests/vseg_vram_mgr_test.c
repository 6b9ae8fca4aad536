// SPDX-License-Identifier: GPL-2.0-only
/*
 * Copyright (c) 2026 The vseg authors
 *
 * KUnit tests of the memory-segment manager (vseg_vram_mgr.c): where its
 * allocations land (bottom-up, top-down, contiguous, scattered, in a bank's
 * page range), the rounding to a 64 KiB segment page, -ENOSPC when the
 * segment or the range is full, the committed bytes given back exactly on
 * free, a contiguous request in a fragmented segment, the cache of freed
 * single pages (which never changes a placement), and the ranges held out
 * of the allocator: vseg_vram_mgr_grab(), invalid ranges of the segment
 * table and added at run time, and the UEFI frame buffers until their
 * handover. The manager runs on a bare TTM device with buffer objects that
 * are only what TTM's resource code reads (no GEM object, no pages).
 */

#include <kunit/test.h>
#include <linux/slab.h>
#include <drm/ttm/ttm_placement.h>
#include <drm/ttm/ttm_resource.h>

#include "../vseg_compat.h"
#include "../vseg_segment.h"
#include "../vseg_vram_mgr.h"
#include "vseg_test_util.h"

/* the default segment: 64 host pages in 4 KiB segment pages */
#define SEG_PAGES	64
#define P		PAGE_SIZE

struct vram_test {
	struct vseg_test_ttm ttm;
	struct vseg_segment_desc desc;
	struct vseg_vram_mgr *mgr;
};

static void vram_test_mgr_fini(void *arg)
{
	struct vram_test *v = arg;

	vseg_vram_mgr_fini(v->mgr, &v->ttm.bdev);
}

/* A memory segment of @size bytes in @page_size pages, not yet set up. */
static struct vram_test *vram_alloc_test(struct kunit *test, u64 size,
					 u32 page_size)
{
	struct vram_test *v = kunit_kzalloc(test, sizeof(*v), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, v);
	v->desc.id = 1;
	v->desc.kind = VSEG_SEGMENT_MEMORY;
	v->desc.size = size;
	v->desc.page_size = page_size;
	strscpy(v->desc.name, "local", sizeof(v->desc.name));
	return v;
}

/* A bare TTM device, and the manager of @v's segment registered as VRAM. */
static struct vram_test *vram_init(struct kunit *test, struct vram_test *v)
{
	int err;

	v->mgr = kunit_kzalloc(test, sizeof(*v->mgr), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, v->mgr);
	vseg_test_ttm_init(test, &v->ttm);
	KUNIT_ASSERT_EQ(test, __vseg_vram_mgr_init(v->mgr, &v->ttm.bdev,
						   &v->desc, TTM_PL_VRAM), 0);
	err = kunit_add_action_or_reset(test, vram_test_mgr_fini, v);
	KUNIT_ASSERT_EQ(test, err, 0);
	KUNIT_ASSERT_PTR_EQ(test, ttm_manager_type(&v->ttm.bdev, TTM_PL_VRAM),
			    &v->mgr->manager);
	return v;
}

static struct vram_test *vram_setup(struct kunit *test, u64 size,
				    u32 page_size)
{
	return vram_init(test, vram_alloc_test(test, size, page_size));
}

/*
 * Allocate a buffer of @bytes, aligned to @align_pages host pages (0:
 * the segment page), through the manager with @place; the resource is
 * freed at the end of the test unless vseg_test_res_put() frees it first.
 */
static int get_res_aligned(struct kunit *test, struct vram_test *v, u64 bytes,
			   u32 align_pages, const struct ttm_place *place,
			   struct vseg_test_res **out)
{
	return vseg_test_res_get(test, &v->mgr->manager, &v->ttm.bdev, bytes,
				 align_pages, place, out);
}

static int get_res(struct kunit *test, struct vram_test *v, u64 bytes,
		   const struct ttm_place *place, struct vseg_test_res **out)
{
	return get_res_aligned(test, v, bytes, 0, place, out);
}

/* Blocks held by vseg_vram_mgr_grab(), dropped at the end if still held. */
struct grab_holder {
	struct vram_test *v;
	struct list_head blocks;
};

static void grab_drop_action(void *arg)
{
	struct grab_holder *g = arg;

	if (!list_empty(&g->blocks))
		vseg_vram_mgr_drop(g->v->mgr, &g->blocks);
}

static struct grab_holder *grab(struct kunit *test, struct vram_test *v,
				u64 start, u64 size, u64 *got)
{
	struct grab_holder *g = kunit_kzalloc(test, sizeof(*g), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, g);
	g->v = v;
	INIT_LIST_HEAD(&g->blocks);
	KUNIT_ASSERT_EQ(test, kunit_add_action_or_reset(test, grab_drop_action,
							g), 0);
	*got = vseg_vram_mgr_grab(v->mgr, start, size, &g->blocks);
	return g;
}

static const struct ttm_place vram_place = { .mem_type = TTM_PL_VRAM };
static const struct ttm_place contig_place = {
	.mem_type = TTM_PL_VRAM,
	.flags = TTM_PL_FLAG_CONTIGUOUS,
};

static const struct ttm_place topdown_place = {
	.mem_type = TTM_PL_VRAM,
	.flags = TTM_PL_FLAG_TOPDOWN,
};

static u64 committed(struct vram_test *v)
{
	return vseg_vram_mgr_committed(v->mgr);
}

/* Bottom-up (WDDM's default): buffers are packed from offset 0 upwards. */
static void vram_bottom_up(struct kunit *test)
{
	struct vram_test *v = vram_setup(test, SEG_PAGES * P, SZ_4K);
	struct vseg_test_res *r[3];
	unsigned int i;

	KUNIT_EXPECT_EQ(test, committed(v), 0);
	for (i = 0; i < 3; i++) {
		KUNIT_ASSERT_EQ(test, get_res(test, v, 4 * P, &vram_place,
					      &r[i]), 0);
		KUNIT_EXPECT_EQ(test, r[i]->res->start, 4 * i);
		KUNIT_EXPECT_EQ(test, vseg_vram_res_size(r[i]->res), 4 * P);
		KUNIT_EXPECT_TRUE(test, vseg_vram_res_contiguous(r[i]->res));
		KUNIT_EXPECT_TRUE(test, r[i]->res->placement &
				  TTM_PL_FLAG_CONTIGUOUS);
		KUNIT_EXPECT_TRUE(test, vseg_vram_res_within(r[i]->res,
							     4 * i * P,
							     4 * (i + 1) * P));
	}
	KUNIT_EXPECT_EQ(test, committed(v), 12 * P);
	KUNIT_EXPECT_EQ(test, ttm_resource_manager_usage(&v->mgr->manager),
			12 * P);

	for (i = 0; i < 3; i++)
		vseg_test_res_put(r[i]);
	KUNIT_EXPECT_EQ(test, committed(v), 0);
	KUNIT_EXPECT_EQ(test, ttm_resource_manager_usage(&v->mgr->manager), 0);
}

/*
 * Top-down over the whole segment lands at its end; in a page range
 * (a bank) the range allocation serves it, bottom-up.
 */
static void vram_top_down(struct kunit *test)
{
	struct vram_test *v = vram_setup(test, SEG_PAGES * P, SZ_4K);
	struct ttm_place ranged = topdown_place;
	struct vseg_test_res *r1, *r2, *r3;

	KUNIT_ASSERT_EQ(test, get_res(test, v, 4 * P, &topdown_place, &r1), 0);
	KUNIT_EXPECT_EQ(test, r1->res->start, SEG_PAGES - 4);
	KUNIT_ASSERT_EQ(test, get_res(test, v, 4 * P, &topdown_place, &r2), 0);
	KUNIT_EXPECT_EQ(test, r2->res->start, SEG_PAGES - 8);
	KUNIT_EXPECT_TRUE(test, vseg_vram_res_contiguous(r2->res));

	ranged.fpfn = 8;
	ranged.lpfn = 32;
	KUNIT_ASSERT_EQ(test, get_res(test, v, 4 * P, &ranged, &r3), 0);
	KUNIT_EXPECT_EQ(test, r3->res->start, 8);
	KUNIT_EXPECT_EQ(test, committed(v), 12 * P);
}

/*
 * A segment of 64 KiB pages: every buffer is rounded up to whole segment
 * pages, placed on segment-page boundaries, and counted as such.
 */
static void vram_64k_rounding(struct kunit *test)
{
	struct vram_test *v = vram_setup(test, SZ_1M, SZ_64K);
	struct vseg_test_res *small, *odd, *r[16];
	unsigned int i, n = 0;

	KUNIT_ASSERT_EQ(test, get_res(test, v, P, &vram_place, &small), 0);
	KUNIT_EXPECT_EQ(test, small->res->start, 0);
	KUNIT_EXPECT_EQ(test, vseg_vram_res_size(small->res), SZ_64K);
	KUNIT_EXPECT_EQ(test, committed(v), SZ_64K);

	/* 68 KiB: two segment pages, the lowest free 128 KiB block */
	KUNIT_ASSERT_EQ(test, get_res(test, v, SZ_64K + P, &vram_place, &odd),
			0);
	KUNIT_EXPECT_EQ(test, vseg_vram_res_size(odd->res), SZ_128K);
	KUNIT_EXPECT_EQ(test, (u64)odd->res->start << PAGE_SHIFT, SZ_128K);
	KUNIT_EXPECT_TRUE(test, vseg_vram_res_contiguous(odd->res));
	KUNIT_EXPECT_EQ(test, committed(v), SZ_64K + SZ_128K);

	/* 13 segment pages are left: 13 one-page buffers, then -ENOSPC */
	while (n < ARRAY_SIZE(r) && !get_res(test, v, P, &vram_place, &r[n])) {
		KUNIT_EXPECT_EQ(test,
				((u64)r[n]->res->start << PAGE_SHIFT) % SZ_64K,
				0);
		n++;
	}
	KUNIT_EXPECT_EQ(test, n, 13);
	KUNIT_EXPECT_EQ(test, committed(v), SZ_1M);

	vseg_test_res_put(odd);
	KUNIT_EXPECT_EQ(test, committed(v), SZ_1M - SZ_128K);
	vseg_test_res_put(small);
	for (i = 0; i < n; i++)
		vseg_test_res_put(r[i]);
	KUNIT_EXPECT_EQ(test, committed(v), 0);
}

/*
 * A contiguous buffer of 3 pages: one range, aligned as its power-of-two
 * block, whose fourth page is trimmed off and stays free.
 */
static void vram_contiguous_trim(struct kunit *test)
{
	struct vram_test *v = vram_setup(test, SEG_PAGES * P, SZ_4K);
	struct vseg_test_res *first, *c, *next;
	struct grab_holder *g;
	u64 got;

	KUNIT_ASSERT_EQ(test, get_res(test, v, P, &vram_place, &first), 0);
	KUNIT_ASSERT_EQ(test, get_res(test, v, 3 * P, &contig_place, &c), 0);
	KUNIT_EXPECT_EQ(test, c->res->start, 4);
	KUNIT_EXPECT_TRUE(test, vseg_vram_res_contiguous(c->res));
	KUNIT_EXPECT_TRUE(test, c->res->placement & TTM_PL_FLAG_CONTIGUOUS);
	KUNIT_EXPECT_EQ(test, vseg_vram_res_size(c->res), 3 * P);
	KUNIT_EXPECT_TRUE(test, vseg_vram_res_within(c->res, 4 * P, 7 * P));
	KUNIT_EXPECT_EQ(test, committed(v), 4 * P);

	/* the trimmed page is free, the buffer's are not */
	g = grab(test, v, 4 * P, 4 * P, &got);
	KUNIT_EXPECT_EQ(test, got, P);
	vseg_vram_mgr_drop(v->mgr, &g->blocks);

	/* the lowest free page is still the one after the first buffer */
	KUNIT_ASSERT_EQ(test, get_res(test, v, P, &vram_place, &next), 0);
	KUNIT_EXPECT_EQ(test, next->res->start, 1);
	vseg_test_res_put(c);
	KUNIT_EXPECT_EQ(test, committed(v), 2 * P);
}

/* A contiguous buffer honours its buffer's alignment beyond the page. */
static void vram_contiguous_alignment(struct kunit *test)
{
	struct vram_test *v = vram_setup(test, SEG_PAGES * P, SZ_4K);
	struct vseg_test_res *first, *aligned, *big;

	KUNIT_ASSERT_EQ(test, get_res(test, v, P, &vram_place, &first), 0);
	KUNIT_ASSERT_EQ(test, get_res_aligned(test, v, 2 * P, 16,
					      &contig_place, &aligned), 0);
	KUNIT_EXPECT_EQ(test, aligned->res->start, 16);
	KUNIT_EXPECT_EQ(test, vseg_vram_res_size(aligned->res), 2 * P);

	/* 32-page alignment in a 64-page segment: only offset 32 is left */
	KUNIT_ASSERT_EQ(test, get_res_aligned(test, v, 2 * P, 32,
					      &contig_place, &big), 0);
	KUNIT_EXPECT_EQ(test, big->res->start, 32);
	vseg_test_res_put(big);
	/* the window below 32 has no 32-aligned start but 0, which is taken */
	{
		struct ttm_place low = contig_place;

		low.lpfn = 32;
		KUNIT_EXPECT_EQ(test, get_res_aligned(test, v, 2 * P, 32, &low,
						      &big), -ENOSPC);
	}
	KUNIT_EXPECT_EQ(test, committed(v), 3 * P);
}

/*
 * A bank is a page range (fpfn/lpfn): buffers stay inside it, it fills up
 * on its own while the rest of the segment is free, and ranges past the
 * segment's end are clamped to it.
 */
static void vram_bank_range(struct kunit *test)
{
	struct vram_test *v = vram_setup(test, SEG_PAGES * P, SZ_4K);
	struct ttm_place bank = { .mem_type = TTM_PL_VRAM, .fpfn = 16,
				  .lpfn = 32 };
	struct ttm_place tail = { .mem_type = TTM_PL_VRAM,
				  .fpfn = SEG_PAGES - 4, .lpfn = 1000 };
	struct ttm_place empty = { .mem_type = TTM_PL_VRAM, .fpfn = 20,
				   .lpfn = 20 };
	struct vseg_test_res *r[4], *x, *low, *t;
	unsigned int i;

	for (i = 0; i < 4; i++) {
		KUNIT_ASSERT_EQ(test, get_res(test, v, 4 * P, &bank, &r[i]), 0);
		KUNIT_EXPECT_EQ(test, r[i]->res->start, 16 + 4 * i);
		KUNIT_EXPECT_TRUE(test, vseg_vram_res_within(r[i]->res, 16 * P,
							     32 * P));
	}
	KUNIT_EXPECT_EQ(test, committed(v), 16 * P);
	/* the bank is full; nothing changes on the refusals */
	KUNIT_EXPECT_EQ(test, get_res(test, v, P, &bank, &x), -ENOSPC);
	/* larger than its range: refused up front */
	bank.fpfn = 0;
	bank.lpfn = 16;
	KUNIT_EXPECT_EQ(test, get_res(test, v, 17 * P, &bank, &x), -ENOSPC);
	KUNIT_EXPECT_EQ(test, get_res(test, v, P, &empty, &x), -ENOSPC);
	KUNIT_EXPECT_EQ(test, committed(v), 16 * P);

	/* the rest of the segment still serves whole-segment requests */
	KUNIT_ASSERT_EQ(test, get_res(test, v, 4 * P, &vram_place, &low), 0);
	KUNIT_EXPECT_EQ(test, low->res->start, 0);

	/* lpfn past the end: the segment's end bounds the range */
	KUNIT_ASSERT_EQ(test, get_res(test, v, 4 * P, &tail, &t), 0);
	KUNIT_EXPECT_EQ(test, t->res->start, SEG_PAGES - 4);
	KUNIT_EXPECT_EQ(test, get_res(test, v, P, &tail, &x), -ENOSPC);
	KUNIT_EXPECT_EQ(test, committed(v), 24 * P);
}

/* A full segment refuses a page; freeing gives every byte back. */
static void vram_full_and_free(struct kunit *test)
{
	struct vram_test *v = vram_setup(test, SEG_PAGES * P, SZ_4K);
	struct vseg_test_res *all, *x;

	KUNIT_ASSERT_EQ(test, get_res(test, v, SEG_PAGES * P, &contig_place,
				      &all), 0);
	KUNIT_EXPECT_EQ(test, all->res->start, 0);
	KUNIT_EXPECT_EQ(test, committed(v), SEG_PAGES * P);
	KUNIT_EXPECT_EQ(test, get_res(test, v, P, &vram_place, &x), -ENOSPC);
	KUNIT_EXPECT_EQ(test, get_res(test, v, P, &topdown_place, &x),
			-ENOSPC);
	/* larger than the segment: refused up front */
	vseg_test_res_put(all);
	KUNIT_EXPECT_EQ(test, committed(v), 0);
	KUNIT_EXPECT_EQ(test, get_res(test, v, (SEG_PAGES + 1) * P,
				      &vram_place, &x), -ENOSPC);
	KUNIT_EXPECT_EQ(test, ttm_resource_manager_usage(&v->mgr->manager), 0);

	/* nothing stayed allocated: the whole segment is one range again */
	KUNIT_ASSERT_EQ(test, get_res(test, v, SEG_PAGES * P, &contig_place,
				      &all), 0);
	KUNIT_EXPECT_EQ(test, all->res->start, 0);
	vseg_test_res_put(all);
	KUNIT_EXPECT_EQ(test, committed(v), 0);
}

/*
 * Every other page taken: a contiguous request fails although a quarter
 * of the segment is free; a scattered one takes the holes, lowest first.
 * Once the rest is freed a contiguous request takes the segment's start.
 */
static void vram_fragmented(struct kunit *test)
{
	struct vram_test *v = vram_setup(test, SEG_PAGES * P, SZ_4K);
	struct vseg_test_res *r[SEG_PAGES], *x, *scattered, *big;
	struct ttm_resource_manager *man;
	unsigned int i;

	for (i = 0; i < SEG_PAGES; i++) {
		KUNIT_ASSERT_EQ(test, get_res(test, v, P, &vram_place, &r[i]), 0);
		KUNIT_EXPECT_EQ(test, r[i]->res->start, i);
	}
	for (i = 0; i < SEG_PAGES; i += 2)
		vseg_test_res_put(r[i]);
	KUNIT_EXPECT_EQ(test, committed(v), SEG_PAGES / 2 * P);

	KUNIT_EXPECT_EQ(test, get_res(test, v, 2 * P, &contig_place, &x),
			-ENOSPC);
	KUNIT_EXPECT_EQ(test, committed(v), SEG_PAGES / 2 * P);

	KUNIT_ASSERT_EQ(test, get_res(test, v, 8 * P, &vram_place, &scattered),
			0);
	KUNIT_EXPECT_FALSE(test, vseg_vram_res_contiguous(scattered->res));
	KUNIT_EXPECT_FALSE(test, scattered->res->placement &
			   TTM_PL_FLAG_CONTIGUOUS);
	KUNIT_EXPECT_EQ(test, scattered->res->start, 0);
	KUNIT_EXPECT_EQ(test, vseg_vram_res_size(scattered->res), 8 * P);
	for (i = 0; i < SEG_PAGES; i++)
		KUNIT_EXPECT_EQ_MSG(test,
				    vseg_vram_res_intersects(v->mgr,
							     scattered->res,
							     i * P, P),
				    i < 16 && !(i & 1), "page %u", i);
	KUNIT_EXPECT_EQ(test, committed(v), (SEG_PAGES / 2 + 8) * P);
	/* a contiguous buffer's place refuses it, a plain one accepts it */
	man = &v->mgr->manager;
	KUNIT_EXPECT_FALSE(test, man->func->compatible(man, scattered->res,
						       &contig_place, 8 * P));
	KUNIT_EXPECT_TRUE(test, man->func->compatible(man, scattered->res,
						      &vram_place, 8 * P));

	vseg_test_res_put(scattered);
	for (i = 1; i < SEG_PAGES; i += 2)
		vseg_test_res_put(r[i]);
	KUNIT_EXPECT_EQ(test, committed(v), 0);
	KUNIT_ASSERT_EQ(test, get_res(test, v, 48 * P, &contig_place, &big), 0);
	KUNIT_EXPECT_EQ(test, big->res->start, 0);
	KUNIT_EXPECT_TRUE(test, vseg_vram_res_contiguous(big->res));
	KUNIT_EXPECT_EQ(test, committed(v), 48 * P);
}

/*
 * A freed single page is cached (no longer committed) and the next
 * single-page buffer reuses it where the allocator would have put it;
 * any other request empties the cache first.
 */
static void vram_cache_reuse(struct kunit *test)
{
	struct vram_test *v = vram_setup(test, SEG_PAGES * P, SZ_4K);
	struct vseg_test_res *r[4], *again, *two, *low, *top;
	unsigned int i;

	for (i = 0; i < 4; i++)
		KUNIT_ASSERT_EQ(test, get_res(test, v, P, &vram_place, &r[i]), 0);
	vseg_test_res_put(r[1]);
	KUNIT_EXPECT_EQ(test, v->mgr->cached, 1);
	KUNIT_EXPECT_EQ(test, committed(v), 3 * P);
	KUNIT_ASSERT_EQ(test, get_res(test, v, P, &vram_place, &again), 0);
	KUNIT_EXPECT_EQ(test, again->res->start, 1);
	KUNIT_EXPECT_EQ(test, v->mgr->cached, 0);
	KUNIT_EXPECT_EQ(test, committed(v), 4 * P);

	/* two pages: the cache is emptied, page 2 alone is too small */
	vseg_test_res_put(r[2]);
	KUNIT_EXPECT_EQ(test, v->mgr->cached, 1);
	KUNIT_ASSERT_EQ(test, get_res(test, v, 2 * P, &vram_place, &two), 0);
	KUNIT_EXPECT_EQ(test, v->mgr->cached, 0);
	KUNIT_EXPECT_EQ(test, two->res->start, 4);
	/* and page 2 is free in the allocator: the next page lands there */
	KUNIT_ASSERT_EQ(test, get_res(test, v, P, &vram_place, &low), 0);
	KUNIT_EXPECT_EQ(test, low->res->start, 2);

	/* a top-down page is not served from the cache */
	vseg_test_res_put(r[3]);
	KUNIT_EXPECT_EQ(test, v->mgr->cached, 1);
	KUNIT_ASSERT_EQ(test, get_res(test, v, P, &topdown_place, &top), 0);
	KUNIT_EXPECT_EQ(test, top->res->start, SEG_PAGES - 1);
	KUNIT_EXPECT_EQ(test, v->mgr->cached, 0);
	KUNIT_EXPECT_EQ(test, committed(v), 6 * P);
}

/*
 * The cache keeps at most VSEG_VRAM_CACHE_MAX pages; what it keeps is
 * free for a grab and for a contiguous request of the whole segment.
 */
static void vram_cache_limit(struct kunit *test)
{
	const unsigned int pages = VSEG_VRAM_CACHE_MAX + 64;
	struct vram_test *v = vram_setup(test, 2 * pages * P, SZ_4K);
	struct vseg_test_res **r, *all;
	struct grab_holder *g;
	unsigned int i;
	u64 got;

	r = kunit_kcalloc(test, pages, sizeof(*r), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, r);
	for (i = 0; i < pages; i++)
		KUNIT_ASSERT_EQ(test, get_res(test, v, P, &vram_place, &r[i]), 0);
	KUNIT_EXPECT_EQ(test, committed(v), pages * P);
	for (i = 0; i < pages; i++)
		vseg_test_res_put(r[i]);
	KUNIT_EXPECT_EQ(test, v->mgr->cached, VSEG_VRAM_CACHE_MAX);
	KUNIT_EXPECT_EQ(test, committed(v), 0);

	g = grab(test, v, 0, 2 * pages * P, &got);
	KUNIT_EXPECT_EQ(test, got, 2 * pages * P);
	KUNIT_EXPECT_EQ(test, v->mgr->cached, 0);
	vseg_vram_mgr_drop(v->mgr, &g->blocks);

	KUNIT_ASSERT_EQ(test, get_res(test, v, 2 * pages * P, &contig_place,
				      &all), 0);
	KUNIT_EXPECT_EQ(test, all->res->start, 0);
}

/*
 * vseg_vram_mgr_grab() holds only what is free of a range; made an
 * invalid range it is listed and overlapped until removed, and its
 * memory is allocatable again afterwards.
 */
static void vram_grab_invalid(struct kunit *test)
{
	struct vram_test *v = vram_setup(test, SEG_PAGES * P, SZ_4K);
	struct vseg_range out[VSEG_MAX_INVALID_RANGES];
	struct vseg_test_res *a, *b, *c, *d;
	struct grab_holder *g;
	u64 got;

	KUNIT_ASSERT_EQ(test, get_res(test, v, 4 * P, &vram_place, &a), 0);
	KUNIT_ASSERT_EQ(test, get_res(test, v, 4 * P, &vram_place, &b), 0);
	KUNIT_EXPECT_EQ(test, b->res->start, 4);
	vseg_test_res_put(a);

	g = grab(test, v, 0, 16 * P, &got);
	KUNIT_EXPECT_EQ(test, got, 12 * P);
	KUNIT_EXPECT_EQ(test, committed(v), 4 * P);
	KUNIT_EXPECT_FALSE(test, vseg_vram_mgr_held_overlaps(v->mgr, 0, 16 * P));
	KUNIT_ASSERT_EQ(test, get_res(test, v, P, &vram_place, &c), 0);
	KUNIT_EXPECT_EQ(test, c->res->start, 16);

	KUNIT_ASSERT_EQ(test, vseg_vram_mgr_add_invalid(v->mgr, 0, 16 * P,
							&g->blocks), 0);
	KUNIT_EXPECT_TRUE(test, list_empty(&g->blocks));
	KUNIT_ASSERT_EQ(test, vseg_vram_mgr_invalid(v->mgr, out), 1);
	KUNIT_EXPECT_EQ(test, out[0].start, 0);
	KUNIT_EXPECT_EQ(test, out[0].size, 16 * P);
	KUNIT_EXPECT_TRUE(test, vseg_vram_mgr_held_overlaps(v->mgr, 15 * P, P));
	KUNIT_EXPECT_FALSE(test, vseg_vram_mgr_held_overlaps(v->mgr, 16 * P,
							     P));

	/* only the exact range is removed */
	KUNIT_EXPECT_EQ(test, vseg_vram_mgr_del_invalid(v->mgr, 0, 8 * P),
			-ENOENT);
	KUNIT_EXPECT_EQ(test, vseg_vram_mgr_invalid(v->mgr, out), 1);
	KUNIT_EXPECT_EQ(test, vseg_vram_mgr_del_invalid(v->mgr, 0, 16 * P), 0);
	KUNIT_EXPECT_EQ(test, vseg_vram_mgr_invalid(v->mgr, out), 0);
	KUNIT_EXPECT_FALSE(test, vseg_vram_mgr_held_overlaps(v->mgr, 0, 16 * P));

	KUNIT_ASSERT_EQ(test, get_res(test, v, 4 * P, &vram_place, &d), 0);
	KUNIT_EXPECT_EQ(test, d->res->start, 0);
	KUNIT_EXPECT_EQ(test, committed(v), 9 * P);
}

/* At most VSEG_MAX_INVALID_RANGES invalid ranges; a refusal keeps blocks. */
static void vram_invalid_limit(struct kunit *test)
{
	struct vram_test *v = vram_setup(test, SEG_PAGES * P, SZ_4K);
	struct vseg_range out[VSEG_MAX_INVALID_RANGES];
	struct grab_holder *g;
	unsigned int i;
	u64 got;

	for (i = 0; i < VSEG_MAX_INVALID_RANGES; i++) {
		g = grab(test, v, i * 4 * P, P, &got);
		KUNIT_ASSERT_EQ(test, got, P);
		KUNIT_ASSERT_EQ(test, vseg_vram_mgr_add_invalid(v->mgr,
								i * 4 * P, P,
								&g->blocks), 0);
	}
	g = grab(test, v, 32 * P, P, &got);
	KUNIT_ASSERT_EQ(test, got, P);
	KUNIT_EXPECT_EQ(test, vseg_vram_mgr_add_invalid(v->mgr, 32 * P, P,
							&g->blocks), -ENOSPC);
	KUNIT_EXPECT_FALSE(test, list_empty(&g->blocks));
	KUNIT_EXPECT_EQ(test, vseg_vram_mgr_invalid(v->mgr, out),
			VSEG_MAX_INVALID_RANGES);
	/* a held range is no longer free for a second grab */
	KUNIT_EXPECT_EQ(test, vseg_vram_mgr_grab(v->mgr, 0, P, &g->blocks), 0);
	/* the middle one goes, the later ones move down */
	KUNIT_EXPECT_EQ(test, vseg_vram_mgr_del_invalid(v->mgr, 4 * P, P), 0);
	KUNIT_ASSERT_EQ(test, vseg_vram_mgr_invalid(v->mgr, out),
			VSEG_MAX_INVALID_RANGES - 1);
	KUNIT_EXPECT_EQ(test, out[0].start, 0);
	KUNIT_EXPECT_EQ(test, out[1].start, 8 * P);
	KUNIT_EXPECT_EQ(test, out[2].start, 12 * P);
}

/*
 * The segment table's invalid ranges are held at init, widened to whole
 * 64 KiB segment pages; no buffer is ever placed in them.
 */
static void vram_table_invalid(struct kunit *test)
{
	struct vram_test *v = vram_alloc_test(test, SZ_1M, SZ_64K);
	struct vseg_range out[VSEG_MAX_INVALID_RANGES];
	struct vseg_test_res *r[16];
	unsigned int i, n = 0;

	v->desc.num_invalid = 2;
	v->desc.invalid[0].start = SZ_64K + SZ_4K;
	v->desc.invalid[0].size = SZ_8K;
	v->desc.invalid[1].start = SZ_512K;
	v->desc.invalid[1].size = SZ_64K;
	vram_init(test, v);

	KUNIT_ASSERT_EQ(test, vseg_vram_mgr_invalid(v->mgr, out), 2);
	KUNIT_EXPECT_EQ(test, out[0].start, SZ_64K);
	KUNIT_EXPECT_EQ(test, out[0].size, SZ_64K);
	KUNIT_EXPECT_EQ(test, out[1].start, SZ_512K);
	KUNIT_EXPECT_EQ(test, out[1].size, SZ_64K);
	KUNIT_EXPECT_EQ(test, committed(v), 0);

	while (n < ARRAY_SIZE(r) && !get_res(test, v, SZ_64K, &vram_place,
					     &r[n])) {
		KUNIT_EXPECT_FALSE(test, vseg_vram_res_intersects(v->mgr,
								  r[n]->res,
								  SZ_64K,
								  SZ_64K));
		KUNIT_EXPECT_FALSE(test, vseg_vram_res_intersects(v->mgr,
								  r[n]->res,
								  SZ_512K,
								  SZ_64K));
		n++;
	}
	KUNIT_EXPECT_EQ(test, n, 14);
	KUNIT_EXPECT_EQ(test, committed(v), 14 * SZ_64K);
	for (i = 0; i < n; i++)
		vseg_test_res_put(r[i]);
	KUNIT_EXPECT_EQ(test, committed(v), 0);
	/* still held after every buffer went */
	KUNIT_EXPECT_EQ(test, vseg_vram_mgr_invalid(v->mgr, out), 2);
	KUNIT_EXPECT_TRUE(test, vseg_vram_mgr_held_overlaps(v->mgr, SZ_512K,
							    SZ_4K));
}

/*
 * A UEFI frame buffer is held, backed with the firmware's image, until the
 * handover; then its pages go and its range is allocatable.
 */
static void vram_uefi_handover(struct kunit *test)
{
	struct vram_test *v = vram_alloc_test(test, SEG_PAGES * P, SZ_4K);
	struct ttm_place fb = { .mem_type = TTM_PL_VRAM, .fpfn = 16,
				.lpfn = 24 };
	struct vseg_range out[VSEG_MAX_UEFI_RANGES];
	struct vseg_test_res *x;

	v->desc.num_uefi = 1;
	v->desc.uefi[0].start = 16 * P;
	v->desc.uefi[0].size = 8 * P;
	vram_init(test, v);

	KUNIT_ASSERT_EQ(test, vseg_vram_mgr_uefi(v->mgr, out), 1);
	KUNIT_EXPECT_EQ(test, out[0].start, 16 * P);
	KUNIT_EXPECT_EQ(test, out[0].size, 8 * P);
	KUNIT_EXPECT_EQ(test, vseg_vram_backed(v->mgr), 8 * P);
	KUNIT_EXPECT_TRUE(test, vseg_vram_mgr_held_overlaps(v->mgr, 23 * P, P));
	KUNIT_EXPECT_EQ(test, get_res(test, v, P, &fb, &x), -ENOSPC);
	KUNIT_EXPECT_EQ(test, committed(v), 0);

	KUNIT_EXPECT_EQ(test, vseg_vram_mgr_release_uefi(v->mgr), 8 * P);
	KUNIT_EXPECT_EQ(test, vseg_vram_mgr_uefi(v->mgr, out), 0);
	KUNIT_EXPECT_EQ(test, vseg_vram_backed(v->mgr), 0);
	KUNIT_EXPECT_FALSE(test, vseg_vram_mgr_held_overlaps(v->mgr, 16 * P,
							     8 * P));
	KUNIT_EXPECT_EQ(test, vseg_vram_mgr_release_uefi(v->mgr), 0);
	KUNIT_ASSERT_EQ(test, get_res(test, v, 8 * P, &fb, &x), 0);
	KUNIT_EXPECT_EQ(test, x->res->start, 16);
	KUNIT_EXPECT_EQ(test, committed(v), 8 * P);
}

/*
 * TTM's questions about a placement: does it intersect a page range, is
 * it compatible with a place (wholly inside it, contiguous if asked, of
 * that memory type)?
 */
static void vram_intersects_compatible(struct kunit *test)
{
	struct vram_test *v = vram_setup(test, SEG_PAGES * P, SZ_4K);
	struct ttm_resource_manager *man = &v->mgr->manager;
	struct ttm_place p = vram_place;
	struct vseg_test_res *pad, *r;

	KUNIT_ASSERT_EQ(test, get_res(test, v, 4 * P, &vram_place, &pad), 0);
	KUNIT_ASSERT_EQ(test, get_res(test, v, 4 * P, &vram_place, &r), 0);
	KUNIT_ASSERT_EQ(test, r->res->start, 4);

	p.fpfn = 0;
	p.lpfn = 8;
	KUNIT_EXPECT_TRUE(test, man->func->intersects(man, r->res, &p, 4 * P));
	KUNIT_EXPECT_TRUE(test, man->func->compatible(man, r->res, &p, 4 * P));
	p.fpfn = 6;
	p.lpfn = 16;
	KUNIT_EXPECT_TRUE(test, man->func->intersects(man, r->res, &p, 4 * P));
	KUNIT_EXPECT_FALSE(test, man->func->compatible(man, r->res, &p, 4 * P));
	p.fpfn = 8;
	p.lpfn = 16;
	KUNIT_EXPECT_FALSE(test, man->func->intersects(man, r->res, &p, 4 * P));
	KUNIT_EXPECT_FALSE(test, man->func->compatible(man, r->res, &p, 4 * P));
	/* contiguous: a contiguous place accepts it */
	KUNIT_EXPECT_TRUE(test, man->func->compatible(man, r->res,
						      &contig_place, 4 * P));
	/* another memory type never does */
	p = vram_place;
	p.mem_type = TTM_PL_SYSTEM;
	KUNIT_EXPECT_FALSE(test, man->func->compatible(man, r->res, &p, 4 * P));
}

static struct kunit_case vseg_vram_mgr_cases[] = {
	KUNIT_CASE(vram_bottom_up),
	KUNIT_CASE(vram_top_down),
	KUNIT_CASE(vram_64k_rounding),
	KUNIT_CASE(vram_contiguous_trim),
	KUNIT_CASE(vram_contiguous_alignment),
	KUNIT_CASE(vram_bank_range),
	KUNIT_CASE(vram_full_and_free),
	KUNIT_CASE(vram_fragmented),
	KUNIT_CASE(vram_cache_reuse),
	KUNIT_CASE(vram_cache_limit),
	KUNIT_CASE(vram_grab_invalid),
	KUNIT_CASE(vram_invalid_limit),
	KUNIT_CASE(vram_table_invalid),
	KUNIT_CASE(vram_uefi_handover),
	KUNIT_CASE(vram_intersects_compatible),
	{}
};

static struct kunit_suite vseg_vram_mgr_suite = {
	.name = "vseg_vram_mgr",
	.test_cases = vseg_vram_mgr_cases,
};

kunit_test_suite(vseg_vram_mgr_suite);
