// SPDX-License-Identifier: GPL-2.0-only
/*
 * Copyright (c) 2026 The vseg authors
 *
 * The vseg_test module: KUnit suites for the pure logic of vseg (segment
 * tables, the GART, the aperture commit limit, placement derivation, the
 * limits per process, user and device, the memory-segment manager). The
 * segment table suite calls vseg.ko's segment table layer, which exports
 * it for KUnit only (EXPORT_SYMBOL_IF_KUNIT): vseg.ko must be loaded first.
 */

#include <linux/module.h>
#include <linux/slab.h>

#include "../vseg_compat.h"
#include "vseg_test_util.h"

MODULE_DESCRIPTION("KUnit tests of the vseg segment memory model");
MODULE_AUTHOR("The vseg authors");
MODULE_LICENSE("GPL");
/* the namespace as a string: MODULE_IMPORT_NS() takes one only since 6.13 */
MODULE_INFO(import_ns, "EXPORTED_FOR_KUNIT_TESTING");

static const struct ttm_device_funcs vseg_test_ttm_funcs;

static void vseg_test_ttm_fini(void *arg)
{
	struct vseg_test_ttm *t = arg;

	ttm_device_fini(&t->bdev);
	drm_vma_offset_manager_destroy(&t->vma);
}

/**
 * vseg_test_ttm_init() - set up a bare TTM device for the rest of a test
 * @test: the test, which fails at once if the device cannot be had
 * @t: the device, zeroed
 *
 * The device goes at the end of the test, after what was set up on it
 * later (KUnit runs its deferred actions last first).
 */
void vseg_test_ttm_init(struct kunit *test, struct vseg_test_ttm *t)
{
	int err;

	drm_vma_offset_manager_init(&t->vma, 1, 1024);
	err = vseg_ttm_device_init(&t->bdev, &vseg_test_ttm_funcs, NULL, NULL,
				   &t->vma);
	if (err)
		drm_vma_offset_manager_destroy(&t->vma);
	KUNIT_ASSERT_EQ(test, err, 0);
	err = kunit_add_action_or_reset(test, vseg_test_ttm_fini, t);
	KUNIT_ASSERT_EQ(test, err, 0);
}

static void vseg_test_res_free(void *arg)
{
	struct vseg_test_res *r = arg;

	if (r->res)
		r->man->func->free(r->man, r->res);
	r->res = NULL;
}

/**
 * vseg_test_res_get() - take a resource from a manager, as TTM would
 * @test: the test
 * @man: the manager
 * @bdev: its TTM device
 * @bytes: the buffer's size
 * @align_pages: its alignment in host pages (0: the manager's default)
 * @place: the place asked for
 * @out: the resource taken, freed at the end of the test unless
 *	vseg_test_res_put() gives it back first
 *
 * Return: 0, or the manager's error (nothing taken).
 */
int vseg_test_res_get(struct kunit *test, struct ttm_resource_manager *man,
		      struct ttm_device *bdev, u64 bytes, u32 align_pages,
		      const struct ttm_place *place, struct vseg_test_res **out)
{
	struct vseg_test_res *r = kunit_kzalloc(test, sizeof(*r), GFP_KERNEL);
	struct ttm_buffer_object *bo = kunit_kzalloc(test, sizeof(*bo),
						     GFP_KERNEL);
	int err;

	KUNIT_ASSERT_NOT_NULL(test, r);
	KUNIT_ASSERT_NOT_NULL(test, bo);
	bo->bdev = bdev;
	bo->base.size = bytes;
	bo->page_alignment = align_pages;
	r->man = man;
	err = man->func->alloc(man, bo, place, &r->res);
	if (err) {
		r->res = NULL;
		return err;
	}
	err = kunit_add_action_or_reset(test, vseg_test_res_free, r);
	KUNIT_ASSERT_EQ(test, err, 0);
	*out = r;
	return 0;
}

/**
 * vseg_test_res_put() - give a resource back to its manager now
 * @r: the resource (given back once only, whatever the calls)
 */
void vseg_test_res_put(struct vseg_test_res *r)
{
	vseg_test_res_free(r);
}
