/* SPDX-License-Identifier: MIT */
/*
 * The vseg test library: one header for the test programs. Each part has
 * a header and a source file of its own:
 *
 *   igt_vseg_defs.h         names and sizes
 *   igt_vseg_device.h       finding and opening vseg's DRM nodes
 *   igt_vseg_module.h       loading and unloading the module
 *   igt_vseg_query.h        the segment query and the rules of a table
 *   igt_vseg_table.h        expected segment tables
 *   igt_vseg_kmsg.h         the kernel log
 *   igt_vseg_debugfs.h      debugfs: the parser of its files, "segments"
 *   igt_vseg_bo.h           buffers: create, info, mmap, residency
 *   igt_vseg_usage.h        usage snapshots, debugfs "paging"
 *   igt_vseg_pattern.h      data patterns, random numbers
 *   igt_vseg_sigbus.h       CPU accesses that may raise SIGBUS
 *   igt_vseg_allocations.h  debugfs "allocations" and "aperture"
 *   igt_vseg_ctx.h          a test's device, table and starting point
 *   igt_vseg_display.h      showing a primary through KMS, debugfs "display"
 *   igt_vseg_exec.h         the engines: command buffers, submission,
 *                           syncobjs, VM_BIND, physical addresses
 *   igt_vseg_fence.h        gates (vgem fences a test opens) and fence
 *                           identities
 *   igt_vseg_scale.h        how much work the heavy stress subtests do
 *                           ($VSEG_TEST_SCALE)
 *   igt_vseg_proc.h         unprivileged children: dropping root, and a
 *                           pipe handshake with the parent
 *
 * Written against upstream IGT's library API only, so that it can live in
 * upstream's lib/ next to the other driver helpers.
 *
 * Copyright (c) 2026 The vseg authors
 */
#ifndef IGT_VSEG_H
#define IGT_VSEG_H

#include "igt_vseg_defs.h"
#include "igt_vseg_device.h"
#include "igt_vseg_module.h"
#include "igt_vseg_query.h"
#include "igt_vseg_table.h"
#include "igt_vseg_kmsg.h"
#include "igt_vseg_debugfs.h"
#include "igt_vseg_bo.h"
#include "igt_vseg_usage.h"
#include "igt_vseg_pattern.h"
#include "igt_vseg_sigbus.h"
#include "igt_vseg_allocations.h"
#include "igt_vseg_ctx.h"
#include "igt_vseg_display.h"
#include "igt_vseg_exec.h"
#include "igt_vseg_fence.h"
#include "igt_vseg_scale.h"
#include "igt_vseg_proc.h"

#endif /* IGT_VSEG_H */
