/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Copyright (c) 2026 The vseg authors
 *
 * What the KUnit suites of vseg's TTM managers share: a bare TTM device,
 * and resources taken from a manager for buffer objects that are only what
 * TTM's resource code reads (no GEM object, no pages), each given back at
 * the end of the test unless the test gives it back first.
 */

#ifndef __VSEG_TEST_UTIL_H__
#define __VSEG_TEST_UTIL_H__

#include <kunit/test.h>
#include <drm/drm_vma_manager.h>
#include <drm/ttm/ttm_device.h>
#include <drm/ttm/ttm_resource.h>

/**
 * struct vseg_test_ttm - a bare TTM device for a manager under test
 * @bdev: the device, without driver callbacks
 * @vma: its mmap offset manager
 */
struct vseg_test_ttm {
	struct ttm_device bdev;
	struct drm_vma_offset_manager vma;
};

/**
 * struct vseg_test_res - a resource a test took from a manager
 * @man: the manager
 * @res: the resource, NULL once given back
 */
struct vseg_test_res {
	struct ttm_resource_manager *man;
	struct ttm_resource *res;
};

void vseg_test_ttm_init(struct kunit *test, struct vseg_test_ttm *t);
int vseg_test_res_get(struct kunit *test, struct ttm_resource_manager *man,
		      struct ttm_device *bdev, u64 bytes, u32 align_pages,
		      const struct ttm_place *place,
		      struct vseg_test_res **out);
void vseg_test_res_put(struct vseg_test_res *r);

#endif /* __VSEG_TEST_UTIL_H__ */
