// SPDX-License-Identifier: GPL-2.0-only
/*
 * Copyright (c) 2026 The vseg authors
 *
 * vseg_ttm_hold: one idle TTM device, from load to unload, so that TTM's
 * global state (ttm_global_init(): the page pools, the dummy read page) is
 * set up once, outside any fault injection, and stays up while vseg.ko is
 * loaded and unloaded again and again. tools/debug-kernel/guest-check.sh
 * loads it first on the debug kernel. Built, as vseg_test.ko, only against
 * a kernel with KUnit.
 *
 * Linux 7.3's TTM needs it, for two bugs of its own that any TTM driver
 * hits when it is the last TTM device to go (vseg is the only one in the
 * test guests; 6.12's pools are plain lists and have neither):
 * - ttm_pool_type_fini() never calls list_lru_destroy(): every global
 *   init and fini leaks the 4 * NR_PAGE_ORDERS node arrays of the global
 *   pools' list_lrus, which kmemleak reports once the next init has
 *   overwritten their pointers;
 * - ttm_pool_type_init() ignores list_lru_init() failing: an allocation
 *   failed there (failslab, vseg_faults' probe sweep) leaves a list_lru
 *   without nodes, which ttm_pool_type_fini() walks at the global fini
 *   (a NULL dereference in __list_lru_walk_one()).
 */

#include <linux/module.h>
#include <drm/drm_vma_manager.h>

#include "../vseg_compat.h"

MODULE_DESCRIPTION("An idle TTM device holding TTM's global state (vseg tests)");
MODULE_AUTHOR("The vseg authors");
MODULE_LICENSE("GPL");

static const struct ttm_device_funcs hold_funcs;
static struct ttm_device hold_bdev;
static struct drm_vma_offset_manager hold_vma;

static int __init vseg_ttm_hold_init(void)
{
	int err;

	drm_vma_offset_manager_init(&hold_vma, 1, 1);
	err = vseg_ttm_device_init(&hold_bdev, &hold_funcs, NULL, NULL,
				   &hold_vma);
	if (err)
		drm_vma_offset_manager_destroy(&hold_vma);
	return err;
}
module_init(vseg_ttm_hold_init);

static void __exit vseg_ttm_hold_exit(void)
{
	ttm_device_fini(&hold_bdev);
	drm_vma_offset_manager_destroy(&hold_vma);
}
module_exit(vseg_ttm_hold_exit);
