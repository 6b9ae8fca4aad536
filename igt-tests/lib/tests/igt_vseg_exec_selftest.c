// SPDX-License-Identifier: MIT
/*
 * Self-test of the engine helpers that need no device: command buffers
 * and their lists, the GPU VA allocator, physical addresses from GEM_INFO,
 * and the parsers of debugfs "display" and "paging".
 *
 * Copyright (c) 2026 The vseg authors
 */
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "igt.h"
#include "igt_vseg.h"
#include "igt_vseg_exec.h"

static const char display_text[] =
	"head 0 bo=17 segment=3 offset=0x0 aperture=0x200000+0x300000\n"
	"head 1 bo=- segment=- offset=- aperture=-\n";

static const char display_kms_text[] =
	"head 0 bo=- segment=- offset=- aperture=- scanout=-\n"
	"head 1 bo=5 segment=1 offset=0x100000 aperture=- "
	"scanout=0x100100000+0x300000 width=1024 height=768 pitch=4096 "
	"format=XR24 kms=1\n";

static const char paging_text[] =
	"engine 2 name=paging buffer_segment=3 buffer_size=65536 "
	"operations=2048 offset=0x10000 private=16 private_zero=1 batches=9 "
	"pending=0 full=2 failed=0 bytes=8192 transfer=3 fill=1 discard=1 "
	"map=4 unmap=5 crypt=0 update_pt=0 flush_tlb=0 transfer_virtual=0 "
	"fill_virtual=0 va=0 va_valid=0 va_valid_4k=0 va_valid_64k=0 "
	"va_readonly=0 va_system=0 pool_pages=12 pool_max=16384 pool_hits=40 "
	"pool_misses=3 pool_overflows=1 pool_shrunk=2\n"
	"segment 0 name=system transfers=4 fills=0 discards=2 map=0 unmap=0\n"
	"segment 1 name=vram transfers=3 fills=5 discards=1 map=0 unmap=0\n"
	"segment 2 name=local transfers=0 fills=1 discards=0 map=0 unmap=0\n"
	"segment 3 name=aperture transfers=0 fills=0 discards=0 map=7 unmap=6\n";

igt_main
{
	igt_subtest("cmdbuf") {
		struct vseg_cmdbuf cb;
		uint32_t i;

		vseg_cb_init(&cb);
		igt_assert_eq(vseg_cb_fill_phys(&cb, 5, 0x100, 64, 0xabcd), 0);
		igt_assert_eq(vseg_cb_copy_phys(&cb, 6, 8, 5, 16, 32), 1);
		igt_assert_eq(vseg_cb_write_phys(&cb, 5, 24, 0x1234), 2);
		igt_assert_eq(vseg_cb_nop(&cb), 3);
		/* Handle 5 listed once, written; 6 written. */
		igt_assert_eq_u32(cb.num_allocs, 2);
		igt_assert_eq_u32(cb.allocs[0].handle, 5);
		igt_assert_eq_u32(cb.allocs[0].flags, DRM_VSEG_ALLOCATION_WRITE);
		igt_assert_eq_u32(cb.allocs[1].handle, 6);
		igt_assert_eq_u32(cb.num_patches, 4);
		igt_assert_eq_u64(cb.patches[0].patch_offset,
				  offsetof(struct drm_vseg_cmd, dst));
		igt_assert_eq_u64(cb.patches[0].allocation_offset, 0x100);
		igt_assert_eq_u64(cb.patches[2].patch_offset,
				  sizeof(struct drm_vseg_cmd) +
				  offsetof(struct drm_vseg_cmd, src));
		igt_assert_eq_u32(cb.patches[2].allocation_index, 0);
		igt_assert_eq_u32(cb.patches[1].allocation_index, 1);
		igt_assert_eq_u64(cb.cmds[0].dst, 0);
		igt_assert_eq_u64(cb.cmds[0].size, 64);
		igt_assert_eq_u64(cb.cmds[0].value, 0xabcd);
		igt_assert_eq_u32(cb.cmds[2].opcode, DRM_VSEG_CMD_WRITE);
		igt_assert_eq_u32(cb.cmds[3].opcode, DRM_VSEG_CMD_NOP);
		for (i = 0; i < 2000; i++)
			vseg_cb_nop(&cb);
		igt_assert_eq_u32(cb.num_cmds, 2004);
		igt_assert_eq(VSEG_MAX_CMDS, 1638);
		vseg_cb_reset(&cb);
		igt_assert_eq_u32(cb.num_cmds + cb.num_allocs + cb.num_patches, 0);
		vseg_cb_fini(&cb);
	}

	igt_subtest("submit-args") {
		struct drm_vseg_submit s;
		struct vseg_cmdbuf cb;

		vseg_cb_init(&cb);
		vseg_cb_fill(&cb, 0x10000, 4, 1);
		vseg_submit_args(&s, DRM_VSEG_ENGINE_RENDER, &cb);
		igt_assert_eq_u32(s.commands_size, sizeof(struct drm_vseg_cmd));
		igt_assert_eq_u32(s.num_allocations + s.num_patches, 0);
		igt_assert_eq_u64(s.allocations | s.patches, 0);
		igt_assert_eq_u32(s.engine, DRM_VSEG_ENGINE_RENDER);
		igt_assert_eq_u32(s.sync_size, sizeof(struct drm_vseg_sync));
		igt_assert_eq_u32(s.num_in_syncs + s.num_out_syncs, 0);
		vseg_cb_fini(&cb);
	}

	igt_subtest("va") {
		struct vseg_va_space va;

		vseg_va_init(&va, 0x100000000ull, VSEG_VA_END);
		igt_assert_eq_u64(vseg_va_alloc(&va, 0x1000), 0x100000000ull);
		/* One 64 KiB hole after each range. */
		igt_assert_eq_u64(vseg_va_alloc(&va, 0x10000), 0x100020000ull);
		igt_assert_eq_u64(vseg_va_alloc(&va, 1), 0x100040000ull);
	}

	igt_subtest("phys-addr") {
		struct drm_vseg_gem_info info = {
			.segment_id = 2, .offset = 0x200000,
			.placement_flags = DRM_VSEG_INFO_CONTIGUOUS |
					   DRM_VSEG_INFO_RESIDENT,
			.gpu_address = 0x40200000,
		};
		uint64_t a = 0;

		igt_assert(vseg_phys_addr_of(&info, 0x10, &a));
		igt_assert_eq_u64(a, 0x40200010);
		info.gpu_address = 0x100005000ull;
		igt_assert(vseg_phys_addr_of(&info, 8, &a));
		igt_assert_eq_u64(a, 0x100005008ull);
		/* 0 is a GPU address like any other. */
		info.gpu_address = 0;
		igt_assert(vseg_phys_addr_of(&info, 0, &a));
		igt_assert_eq_u64(a, 0);
		info.gpu_address = DRM_VSEG_GPU_ADDRESS_NONE;
		igt_assert(!vseg_phys_addr_of(&info, 0, &a));
	}

	igt_subtest("display") {
		struct vseg_display d;

		vseg_debugfs_parse_display(display_text, &d);
		igt_assert_eq_u32(d.num_heads, 2);
		igt_assert(d.head[0].on && d.head[0].has_segment &&
			   d.head[0].mapped);
		igt_assert_eq_u64(d.head[0].buffer_id, 17);
		igt_assert_eq_u32(d.head[0].segment, 3);
		igt_assert_eq_u64(d.head[0].offset, 0);
		igt_assert_eq_u64(d.head[0].ap_start, 0x200000);
		igt_assert_eq_u64(d.head[0].ap_size, 0x300000);
		igt_assert(!d.head[1].on && !d.head[1].has_segment &&
			   !d.head[1].mapped);
	}

	igt_subtest("display-kms") {
		struct vseg_display d;

		vseg_debugfs_parse_display(display_kms_text, &d);
		igt_assert(!d.head[0].on && !d.head[0].kms &&
			   !d.head[0].has_format);
		igt_assert(d.head[1].on && d.head[1].kms &&
			   d.head[1].has_format);
		igt_assert_eq_u32(d.head[1].width, 1024);
		igt_assert_eq_u32(d.head[1].height, 768);
		igt_assert_eq_u32(d.head[1].pitch, 4096);
		/* DRM_FORMAT_XRGB8888, fourcc_code('X', 'R', '2', '4') */
		igt_assert_eq_u32(d.head[1].format, 0x34325258);
		igt_assert_eq_u64(d.head[1].scanout, 0x100100000ull);
	}

	igt_subtest("display-malformed") {
		struct vseg_display d;

		/* One head missing: must fail. */
		vseg_debugfs_parse_display("head 0 bo=- segment=- offset=- aperture=-\n",
					   &d);
	}

	igt_subtest("paging") {
		struct vseg_paging p;

		vseg_debugfs_parse_paging(paging_text, &p);
		igt_assert(p.seg[0].present && p.seg[3].present &&
			   !p.seg[4].present);
		igt_assert(!strcmp(p.seg[0].name, "system"));
		igt_assert(!strcmp(p.seg[3].name, "aperture"));
		igt_assert_eq_u64(p.seg[0].transfers, 4);
		igt_assert_eq_u64(p.seg[1].fills, 5);
		igt_assert_eq_u64(p.seg[1].discards, 1);
		igt_assert_eq_u64(p.seg[3].map, 7);
		igt_assert_eq_u64(p.seg[3].unmap, 6);
		igt_assert_eq_u32(p.engine.segment, 3);
		igt_assert_eq_u64(p.engine.size, 65536);
		igt_assert_eq_u64(p.engine.operations, 2048);
		igt_assert_eq_u64(p.engine.offset, 0x10000);
		igt_assert_eq_u64(p.engine.private, 16);
		igt_assert(p.engine.private_zero);
		igt_assert_eq_u64(p.engine.batches, 9);
		igt_assert_eq_u64(p.engine.full, 2);
		igt_assert_eq_u64(p.engine.bytes, 8192);
		igt_assert_eq_u64(p.engine.op[VSEG_PAGING_OP_TRANSFER], 3);
		igt_assert_eq_u64(p.engine.op[VSEG_PAGING_OP_UNMAP], 5);
		igt_assert_eq_u64(p.pool.pages, 12);
		igt_assert_eq_u64(p.pool.max, 16384);
		igt_assert_eq_u64(p.pool.hits, 40);
		igt_assert_eq_u64(p.pool.misses, 3);
		igt_assert_eq_u64(p.pool.overflows, 1);
		igt_assert_eq_u64(p.pool.shrunk, 2);
	}

	igt_subtest("fill32") {
		uint32_t buf[4] = { 0 };

		vseg_fill32(buf, 12, 0xa5a5a5a5);
		igt_assert_eq_u32(buf[2], 0xa5a5a5a5);
		igt_assert_eq_u32(buf[3], 0);
		vseg_assert_same(buf, buf, sizeof(buf), 0, "itself");
	}
}
