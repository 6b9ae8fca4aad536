// SPDX-License-Identifier: GPL-2.0-only
/*
 * Copyright (c) 2026 The vseg authors
 *
 * KUnit tests of the aperture segment's TTM manager: the commit limit is
 * never exceeded and is given back exactly, a GART range is taken only for
 * places that ask for one (or by vseg_aperture_map()), and a failed
 * range allocation leaves nothing committed. The manager runs on a bare
 * TTM device with buffer objects that are only what TTM's resource code
 * reads (no GEM object, no pages).
 */

#include <kunit/test.h>
#include <linux/io.h>
#include <linux/slab.h>
#include <drm/drm_print.h>
#include <drm/drm_gem_ttm_helper.h>
#include <drm/ttm/ttm_placement.h>
#include <drm/ttm/ttm_tt.h>

#include "../vseg_aperture_mgr.h"
#include "../vseg_compat.h"
#include "../vseg_gart.h"
#include "../vseg_hw.h"
#include "vseg_test_util.h"

/* 64 pages of aperture, 16 of them committable */
#define AP_PAGES	64
#define AP_COMMIT	16

struct aperture_test {
	struct vseg_test_ttm ttm;
	struct vseg_segment_desc desc;
	struct vseg_aperture_mgr *mgr;
	struct vseg_hw hw;
};

static void aperture_test_hw_release(void *arg)
{
	struct vseg_hw *hw = arg;

	hw->ops->release(hw);
}

static void aperture_test_mgr_fini(void *arg)
{
	struct aperture_test *a = arg;

	vseg_aperture_mgr_fini(a->mgr, &a->ttm.bdev);
}

/*
 * A bare TTM device with one aperture segment of AP_PAGES, @commit bytes
 * committable, and @invalid pages held invalid from page @invalid_start.
 */
static struct aperture_test *__aperture_setup(struct kunit *test, u64 commit,
					      u64 invalid_start, u64 invalid)
{
	struct aperture_test *a;
	int err;

	a = kunit_kzalloc(test, sizeof(*a), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, a);
	a->mgr = kunit_kzalloc(test, sizeof(*a->mgr), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, a->mgr);

	vseg_test_ttm_init(test, &a->ttm);

	a->desc.id = 3;
	a->desc.kind = VSEG_SEGMENT_APERTURE;
	a->desc.flags = VSEG_SEGF_APERTURE;
	a->desc.size = AP_PAGES * PAGE_SIZE;
	a->desc.commit_limit = commit;
	a->desc.page_size = SZ_4K;
	strscpy(a->desc.name, "aperture", sizeof(a->desc.name));
	if (invalid) {
		a->desc.num_invalid = 1;
		a->desc.invalid[0].start = invalid_start * PAGE_SIZE;
		a->desc.invalid[0].size = invalid * PAGE_SIZE;
	}

	/* the software GPU holds the GART's entries; it needs no bus here */
	KUNIT_ASSERT_EQ(test, vseg_sim_attach(&a->hw, NULL), 0);
	err = kunit_add_action_or_reset(test, aperture_test_hw_release, &a->hw);
	KUNIT_ASSERT_EQ(test, err, 0);
	KUNIT_ASSERT_EQ(test, __vseg_aperture_mgr_init(a->mgr, &a->ttm.bdev,
						       &a->desc, &a->hw), 0);
	err = kunit_add_action_or_reset(test, aperture_test_mgr_fini, a);
	KUNIT_ASSERT_EQ(test, err, 0);
	KUNIT_ASSERT_PTR_EQ(test, ttm_manager_type(&a->ttm.bdev, TTM_PL_TT),
			    &a->mgr->manager);
	return a;
}

static struct aperture_test *aperture_setup(struct kunit *test, u64 commit)
{
	return __aperture_setup(test, commit, 0, 0);
}

static void free_page_action(void *arg)
{
	__free_page(arg);
}

/* The pages of a buffer of @pages, as vseg_aperture_map() binds them. */
static struct ttm_tt *fake_tt(struct kunit *test, u64 pages)
{
	struct ttm_tt *tt = kunit_kzalloc(test, sizeof(*tt), GFP_KERNEL);
	u64 i;
	int err;

	KUNIT_ASSERT_NOT_NULL(test, tt);
	tt->pages = kunit_kcalloc(test, pages, sizeof(*tt->pages), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, tt->pages);
	tt->num_pages = pages;
	for (i = 0; i < pages; i++) {
		tt->pages[i] = alloc_page(GFP_KERNEL);
		KUNIT_ASSERT_NOT_NULL(test, tt->pages[i]);
		err = kunit_add_action_or_reset(test, free_page_action,
						tt->pages[i]);
		KUNIT_ASSERT_EQ(test, err, 0);
	}
	return tt;
}

/*
 * Allocate @pages in the aperture through the manager, with @place; the
 * resource is freed at the end of the test unless vseg_test_res_put() frees it.
 */
static int get_res(struct kunit *test, struct aperture_test *a, u64 pages,
		   const struct ttm_place *place, struct vseg_test_res **out)
{
	return vseg_test_res_get(test, &a->mgr->manager, &a->ttm.bdev,
				 pages * PAGE_SIZE, 0, place, out);
}

static const struct ttm_place tt_place = { .mem_type = TTM_PL_TT };

static void aperture_commit_limit(struct kunit *test)
{
	struct aperture_test *a = aperture_setup(test, AP_COMMIT * PAGE_SIZE);
	struct vseg_test_res *r1, *r2, *r3, *r4;

	KUNIT_EXPECT_EQ(test, vseg_aperture_mgr_committed(a->mgr), 0);
	KUNIT_ASSERT_EQ(test, get_res(test, a, 8, &tt_place, &r1), 0);
	KUNIT_EXPECT_EQ(test, vseg_aperture_mgr_committed(a->mgr),
			8 * PAGE_SIZE);
	KUNIT_ASSERT_EQ(test, get_res(test, a, 8, &tt_place, &r2), 0);
	KUNIT_EXPECT_EQ(test, vseg_aperture_mgr_committed(a->mgr),
			AP_COMMIT * PAGE_SIZE);

	/* full: even one page is refused, and nothing changes */
	KUNIT_EXPECT_EQ(test, get_res(test, a, 1, &tt_place, &r3), -ENOSPC);
	KUNIT_EXPECT_EQ(test, vseg_aperture_mgr_committed(a->mgr),
			AP_COMMIT * PAGE_SIZE);

	/* what is given back can be committed again, exactly */
	vseg_test_res_put(r1);
	KUNIT_EXPECT_EQ(test, vseg_aperture_mgr_committed(a->mgr),
			8 * PAGE_SIZE);
	KUNIT_EXPECT_EQ(test, get_res(test, a, 9, &tt_place, &r3), -ENOSPC);
	KUNIT_ASSERT_EQ(test, get_res(test, a, 7, &tt_place, &r3), 0);
	KUNIT_ASSERT_EQ(test, get_res(test, a, 1, &tt_place, &r4), 0);
	KUNIT_EXPECT_EQ(test, vseg_aperture_mgr_committed(a->mgr),
			AP_COMMIT * PAGE_SIZE);
	KUNIT_EXPECT_EQ(test, get_res(test, a, 1, &tt_place, &r1), -ENOSPC);

	/* without a range: no GART entries, no range */
	KUNIT_EXPECT_FALSE(test, vseg_aperture_res_mapped(r2->res));
	KUNIT_EXPECT_EQ(test, r2->res->start, VSEG_APERTURE_NO_RANGE);
	KUNIT_EXPECT_EQ(test, a->mgr->gart.ranges, 0);

	vseg_test_res_put(r2);
	vseg_test_res_put(r3);
	vseg_test_res_put(r4);
	KUNIT_EXPECT_EQ(test, vseg_aperture_mgr_committed(a->mgr), 0);
}

static void aperture_commit_whole_aperture(struct kunit *test)
{
	struct aperture_test *a = aperture_setup(test, AP_PAGES * PAGE_SIZE);
	struct vseg_test_res *r[AP_PAGES], *extra;
	unsigned int i;

	for (i = 0; i < AP_PAGES; i++)
		KUNIT_ASSERT_EQ(test, get_res(test, a, 1, &tt_place, &r[i]), 0);
	KUNIT_EXPECT_EQ(test, get_res(test, a, 1, &tt_place, &extra), -ENOSPC);
	KUNIT_EXPECT_EQ(test, vseg_aperture_mgr_committed(a->mgr),
			AP_PAGES * PAGE_SIZE);
	for (i = 0; i < AP_PAGES; i += 2)
		vseg_test_res_put(r[i]);
	KUNIT_EXPECT_EQ(test, vseg_aperture_mgr_committed(a->mgr),
			AP_PAGES / 2 * PAGE_SIZE);
	/* a buffer larger than the limit never fits */
	for (i = 1; i < AP_PAGES; i += 2)
		vseg_test_res_put(r[i]);
	KUNIT_EXPECT_EQ(test, get_res(test, a, AP_PAGES + 1, &tt_place, &extra),
			-ENOSPC);
	KUNIT_EXPECT_EQ(test, vseg_aperture_mgr_committed(a->mgr), 0);
}

static void aperture_range_places(struct kunit *test)
{
	struct aperture_test *a = aperture_setup(test, AP_PAGES * PAGE_SIZE);
	struct ttm_place low = { .mem_type = TTM_PL_TT, .lpfn = AP_PAGES };
	struct ttm_place high = low;
	struct vseg_test_res *r1, *r2, *r3;

	high.flags = TTM_PL_FLAG_TOPDOWN;
	KUNIT_ASSERT_EQ(test, get_res(test, a, 4, &low, &r1), 0);
	KUNIT_EXPECT_TRUE(test, vseg_aperture_res_mapped(r1->res));
	KUNIT_EXPECT_EQ(test, r1->res->start, 0);
	KUNIT_ASSERT_EQ(test, get_res(test, a, 4, &high, &r2), 0);
	KUNIT_EXPECT_EQ(test, r2->res->start, AP_PAGES - 4);
	KUNIT_EXPECT_EQ(test, a->mgr->gart.ranges, 2);
	/* a range is not a mapping: the GART entries wait for a bind */
	KUNIT_EXPECT_EQ(test, vseg_gart_mapped_bytes(&a->mgr->gart), 0);

	/* a window too small for the buffer: refused, nothing committed */
	low.fpfn = 8;
	low.lpfn = 10;
	KUNIT_EXPECT_EQ(test, get_res(test, a, 4, &low, &r3), -ENOSPC);
	KUNIT_EXPECT_EQ(test, vseg_aperture_mgr_committed(a->mgr),
			8 * PAGE_SIZE);
	KUNIT_EXPECT_EQ(test, a->mgr->gart.ranges, 2);
	low.lpfn = 12;
	KUNIT_ASSERT_EQ(test, get_res(test, a, 4, &low, &r3), 0);
	KUNIT_EXPECT_EQ(test, r3->res->start, 8);

	vseg_test_res_put(r1);
	vseg_test_res_put(r2);
	vseg_test_res_put(r3);
	KUNIT_EXPECT_EQ(test, a->mgr->gart.ranges, 0);
	KUNIT_EXPECT_EQ(test, vseg_aperture_mgr_committed(a->mgr), 0);
}

/*
 * Room under the commit limit but no hole in the aperture's address space
 * large enough: -ENOSPC, and the commitment is rolled back.
 */
static void aperture_range_space_full(struct kunit *test)
{
	struct aperture_test *a = aperture_setup(test, AP_PAGES * PAGE_SIZE);
	struct ttm_place ranged = { .mem_type = TTM_PL_TT, .lpfn = AP_PAGES };
	struct vseg_test_res *r[AP_PAGES / 4], *plain, *x;
	struct ttm_tt *tt;
	unsigned int i;

	for (i = 0; i < AP_PAGES / 4; i++) {
		KUNIT_ASSERT_EQ(test, get_res(test, a, 4, &ranged, &r[i]), 0);
		KUNIT_EXPECT_EQ(test, r[i]->res->start, 4 * i);
	}
	/* every other range back: half committed, only 4-page holes */
	for (i = 0; i < AP_PAGES / 4; i += 2)
		vseg_test_res_put(r[i]);
	KUNIT_EXPECT_EQ(test, vseg_aperture_mgr_committed(a->mgr),
			AP_PAGES / 2 * PAGE_SIZE);

	KUNIT_EXPECT_EQ(test, get_res(test, a, 8, &ranged, &x), -ENOSPC);
	KUNIT_EXPECT_EQ(test, vseg_aperture_mgr_committed(a->mgr),
			AP_PAGES / 2 * PAGE_SIZE);
	KUNIT_EXPECT_EQ(test, a->mgr->gart.ranges, AP_PAGES / 8);

	/* without a range it is only a commitment: fine */
	KUNIT_ASSERT_EQ(test, get_res(test, a, 8, &tt_place, &plain), 0);
	/* but it cannot be mapped, and stays committed */
	tt = fake_tt(test, 8);
	KUNIT_EXPECT_EQ(test, vseg_aperture_map(a->mgr, plain->res, tt),
			-ENOSPC);
	KUNIT_EXPECT_FALSE(test, vseg_aperture_res_mapped(plain->res));
	KUNIT_EXPECT_EQ(test, plain->res->start, VSEG_APERTURE_NO_RANGE);
	KUNIT_EXPECT_EQ(test, vseg_aperture_mgr_committed(a->mgr),
			(AP_PAGES / 2 + 8) * PAGE_SIZE);

	/* a buffer that fits a hole takes the lowest one */
	KUNIT_ASSERT_EQ(test, get_res(test, a, 4, &ranged, &x), 0);
	KUNIT_EXPECT_EQ(test, x->res->start, 0);
}

static void aperture_map_unmap(struct kunit *test)
{
	struct aperture_test *a = aperture_setup(test, AP_COMMIT * PAGE_SIZE);
	struct ttm_tt *tt = fake_tt(test, 4);
	struct vseg_test_res *r;
	phys_addr_t phys;
	u64 start, size, i;

	KUNIT_ASSERT_EQ(test, get_res(test, a, 4, &tt_place, &r), 0);
	KUNIT_EXPECT_FALSE(test, vseg_aperture_res_mapped(r->res));

	/* a range, and entries pointing at exactly the buffer's pages */
	KUNIT_ASSERT_EQ(test, vseg_aperture_map(a->mgr, r->res, tt), 0);
	KUNIT_EXPECT_TRUE(test, vseg_aperture_res_mapped(r->res));
	vseg_aperture_res_range(r->res, &start, &size);
	KUNIT_EXPECT_EQ(test, start, 0);
	KUNIT_EXPECT_EQ(test, size, 4 * PAGE_SIZE);
	KUNIT_EXPECT_EQ(test, a->mgr->gart.ranges, 1);
	for (i = 0; i < 4; i++) {
		KUNIT_ASSERT_EQ(test, vseg_gart_entry(&a->mgr->gart,
						      i * PAGE_SIZE + 8,
						      &phys), 0);
		KUNIT_EXPECT_EQ(test, phys, page_to_phys(tt->pages[i]) + 8);
	}
	/* mapping again keeps the range */
	KUNIT_ASSERT_EQ(test, vseg_aperture_map(a->mgr, r->res, tt), 0);
	KUNIT_EXPECT_EQ(test, r->res->start, start);
	KUNIT_EXPECT_EQ(test, a->mgr->gart.ranges, 1);
	KUNIT_EXPECT_EQ(test, vseg_aperture_mgr_committed(a->mgr),
			4 * PAGE_SIZE);

	/* unbinding clears the entries (the pages may go), keeps the range */
	vseg_aperture_unbind(a->mgr, r->res);
	KUNIT_EXPECT_TRUE(test, vseg_aperture_res_mapped(r->res));
	KUNIT_EXPECT_EQ(test, vseg_gart_entry(&a->mgr->gart, 0, &phys),
			-EFAULT);
	KUNIT_EXPECT_EQ(test, vseg_gart_mapped_bytes(&a->mgr->gart), 0);
	KUNIT_ASSERT_EQ(test, vseg_aperture_bind(a->mgr, r->res, tt), 0);
	KUNIT_EXPECT_EQ(test, vseg_gart_mapped_bytes(&a->mgr->gart),
			4 * PAGE_SIZE);

	/* unmapping gives the range back and keeps the commitment */
	vseg_aperture_unmap(a->mgr, r->res);
	KUNIT_EXPECT_FALSE(test, vseg_aperture_res_mapped(r->res));
	KUNIT_EXPECT_EQ(test, r->res->start, VSEG_APERTURE_NO_RANGE);
	KUNIT_EXPECT_EQ(test, a->mgr->gart.ranges, 0);
	KUNIT_EXPECT_EQ(test, vseg_gart_mapped_bytes(&a->mgr->gart), 0);
	KUNIT_EXPECT_EQ(test, vseg_aperture_mgr_committed(a->mgr),
			4 * PAGE_SIZE);
	vseg_aperture_unmap(a->mgr, r->res);
	KUNIT_EXPECT_EQ(test, a->mgr->gart.ranges, 0);
}

static void aperture_intersects_compatible(struct kunit *test)
{
	struct aperture_test *a = aperture_setup(test, AP_COMMIT * PAGE_SIZE);
	struct ttm_resource_manager *man = &a->mgr->manager;
	struct ttm_place ranged = { .mem_type = TTM_PL_TT, .lpfn = AP_PAGES };
	struct ttm_place p = { .mem_type = TTM_PL_TT };
	struct vseg_test_res *with, *without;
	size_t size = 8 * PAGE_SIZE;

	ranged.fpfn = 8;
	KUNIT_ASSERT_EQ(test, get_res(test, a, 8, &ranged, &with), 0);
	KUNIT_ASSERT_EQ(test, with->res->start, 8);	/* [8, 16) */
	KUNIT_ASSERT_EQ(test, get_res(test, a, 8, &tt_place, &without), 0);

	/* any place without an lpfn takes any aperture resource */
	KUNIT_EXPECT_TRUE(test, man->func->intersects(man, with->res, &p, size));
	KUNIT_EXPECT_TRUE(test, man->func->compatible(man, with->res, &p, size));
	KUNIT_EXPECT_TRUE(test, man->func->compatible(man, without->res, &p,
						      size));

	p.fpfn = 8;
	p.lpfn = 16;
	KUNIT_EXPECT_TRUE(test, man->func->intersects(man, with->res, &p, size));
	KUNIT_EXPECT_TRUE(test, man->func->compatible(man, with->res, &p, size));
	/* a place that needs a range: a resource without one fits nowhere */
	KUNIT_EXPECT_FALSE(test, man->func->intersects(man, without->res, &p,
						       size));
	KUNIT_EXPECT_FALSE(test, man->func->compatible(man, without->res, &p,
						       size));

	p.fpfn = 12;
	p.lpfn = 20;
	KUNIT_EXPECT_TRUE(test, man->func->intersects(man, with->res, &p, size));
	KUNIT_EXPECT_FALSE(test, man->func->compatible(man, with->res, &p, size));

	p.fpfn = 16;
	p.lpfn = 24;
	KUNIT_EXPECT_FALSE(test, man->func->intersects(man, with->res, &p, size));
	p.fpfn = 0;
	p.lpfn = 8;
	KUNIT_EXPECT_FALSE(test, man->func->intersects(man, with->res, &p, size));

	/* another memory type is never compatible */
	p.mem_type = TTM_PL_VRAM;
	p.lpfn = 0;
	KUNIT_EXPECT_FALSE(test, man->func->compatible(man, with->res, &p, size));
}

struct print_buf {
	char text[1024];
	size_t len;
};

static void print_to_buf(struct drm_printer *p, struct va_format *vaf)
{
	struct print_buf *b = p->arg;

	if (b->len < sizeof(b->text) - 1)
		b->len += scnprintf(b->text + b->len, sizeof(b->text) - b->len,
				    "%pV", vaf);
}

static void aperture_debug_print(struct kunit *test)
{
	static const char want_mgr[] =
		"segment: 3 \"aperture\" commit_limit: 65536 committed: 8192\n";
	static const char want_gart[] =
		"gart: 64 pages, 1 ranges, 0 entries valid\n";
	struct aperture_test *a = aperture_setup(test, AP_COMMIT * PAGE_SIZE);
	struct print_buf *buf = kunit_kzalloc(test, sizeof(*buf), GFP_KERNEL);
	struct drm_printer p = { .printfn = print_to_buf, .arg = buf };
	struct ttm_place ranged = { .mem_type = TTM_PL_TT, .lpfn = AP_PAGES };
	struct vseg_test_res *r;

	KUNIT_ASSERT_NOT_NULL(test, buf);
	KUNIT_ASSERT_EQ(test, get_res(test, a, 2, &ranged, &r), 0);
	a->mgr->manager.func->debug(&a->mgr->manager, &p);
	KUNIT_EXPECT_NOT_NULL_MSG(test, strstr(buf->text, want_mgr),
				  "printed: %s", buf->text);
	KUNIT_EXPECT_NOT_NULL_MSG(test, strstr(buf->text, want_gart),
				  "printed: %s", buf->text);
}

/* The aperture's invalid ranges never get a GART range. */
static void aperture_invalid_ranges(struct kunit *test)
{
	struct aperture_test *a = __aperture_setup(test, AP_PAGES * PAGE_SIZE,
						   8, 8);
	struct ttm_place ranged = { .mem_type = TTM_PL_TT, .lpfn = AP_PAGES };
	struct vseg_test_res *r;
	unsigned int n = 0;
	u64 start, size;

	while (!get_res(test, a, 4, &ranged, &r)) {
		vseg_aperture_res_range(r->res, &start, &size);
		KUNIT_EXPECT_TRUE(test, start + size <= 8 * PAGE_SIZE ||
				  start >= 16 * PAGE_SIZE);
		n++;
	}
	KUNIT_EXPECT_EQ(test, n, (AP_PAGES - 8) / 4);
	KUNIT_EXPECT_EQ(test, a->mgr->gart.ranges, n);
}

static struct kunit_case vseg_aperture_cases[] = {
	KUNIT_CASE(aperture_commit_limit),
	KUNIT_CASE(aperture_commit_whole_aperture),
	KUNIT_CASE(aperture_range_places),
	KUNIT_CASE(aperture_range_space_full),
	KUNIT_CASE(aperture_map_unmap),
	KUNIT_CASE(aperture_intersects_compatible),
	KUNIT_CASE(aperture_debug_print),
	KUNIT_CASE(aperture_invalid_ranges),
	{}
};

static struct kunit_suite vseg_aperture_suite = {
	.name = "vseg_aperture",
	.test_cases = vseg_aperture_cases,
};

kunit_test_suite(vseg_aperture_suite);
