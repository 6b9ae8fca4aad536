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

MODULE_DESCRIPTION("KUnit tests of the vseg segment memory model");
MODULE_AUTHOR("The vseg authors");
MODULE_LICENSE("GPL");
/* the namespace as a string: MODULE_IMPORT_NS() takes one only since 6.13 */
MODULE_INFO(import_ns, "EXPORTED_FOR_KUNIT_TESTING");
