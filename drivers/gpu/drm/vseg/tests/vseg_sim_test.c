// SPDX-License-Identifier: GPL-2.0-only
/*
 * Copyright (c) 2026 The vseg authors
 *
 * KUnit tests of the software GPU behind vseg_hw.h, on a bus of the
 * test's own: one "memory segment" of SEG_PAGES pages at GPU physical
 * address SEG_BASE, system pages by the bus's system class. The paging
 * engine's Fill and Transfer, encrypted paging's round trip, the copy
 * engine reaching system pages through the GART (and never directly),
 * the paging engine's UPDATE_PT and FLUSH_TLB under the render engine's
 * MMU, TRANSFER_VIRTUAL and FILL_VIRTUAL through the paging VA space,
 * the CPU host aperture window's slots, and the display controller's
 * cursor composed over the primary in its CRC.
 */

#include <kunit/test.h>
#include <linux/crc32.h>
#include <linux/highmem.h>
#include <linux/mm.h>
#include <linux/sizes.h>
#include <linux/string.h>
#include <drm/drm_fourcc.h>
#include <uapi/drm/vseg_drm.h>

#include "../vseg_hw.h"

#define SEG_BASE	SZ_1M
#define SEG_PAGES	4
#define AP_BASE		SZ_16M
#define AP_PAGES	8

struct sim_test {
	struct vseg_hw_bus bus;
	struct vseg_hw hw;
	struct page *seg[SEG_PAGES];
	struct page *sys[2];
	atomic_t stop;
};

static struct sim_test *bus_to_test(struct vseg_hw_bus *bus)
{
	return container_of(bus, struct sim_test, bus);
}

static void *tbus_map(struct vseg_hw_bus *bus, u64 addr, u64 *len, bool write,
		      struct vseg_hw_mapping *m)
{
	struct sim_test *t = bus_to_test(bus);
	struct page *page;

	m->kmapped = NULL;
	if (VSEG_HW_IS_SYSTEM(addr)) {
		addr = VSEG_HW_SYSTEM_PHYS(addr);
		page = pfn_to_page(PHYS_PFN(addr));
	} else if (addr >= SEG_BASE && addr < SEG_BASE + SEG_PAGES * PAGE_SIZE) {
		page = t->seg[(addr - SEG_BASE) >> PAGE_SHIFT];
	} else {
		return NULL;
	}
	m->kmapped = kmap_local_page(page);
	*len = PAGE_SIZE - offset_in_page(addr);
	return m->kmapped + offset_in_page(addr);
}

static void tbus_unmap(struct vseg_hw_bus *bus, struct vseg_hw_mapping *m)
{
	if (m->kmapped)
		kunmap_local(m->kmapped);
	m->kmapped = NULL;
}

static unsigned long tbus_pfn(struct vseg_hw_bus *bus, u64 addr)
{
	struct sim_test *t = bus_to_test(bus);

	if (addr < SEG_BASE || addr >= SEG_BASE + SEG_PAGES * PAGE_SIZE)
		return 0;
	return page_to_pfn(t->seg[(addr - SEG_BASE) >> PAGE_SHIFT]);
}

static int tbus_zero(struct vseg_hw_bus *bus, u64 addr, u64 len)
{
	struct vseg_hw_mapping m;
	u64 n;
	void *p;

	while (len) {
		p = tbus_map(bus, addr, &n, true, &m);
		if (!p)
			return -EFAULT;
		n = min(n, len);
		memset(p, 0, n);
		tbus_unmap(bus, &m);
		addr += n;
		len -= n;
	}
	return 0;
}

static const struct vseg_hw_bus_ops tbus_ops = {
	.map = tbus_map,
	.unmap = tbus_unmap,
	.pfn = tbus_pfn,
	.zero = tbus_zero,
};

static void sim_test_release(void *arg)
{
	struct sim_test *t = arg;
	unsigned int i;

	t->hw.ops->release(&t->hw);
	for (i = 0; i < SEG_PAGES; i++)
		if (t->seg[i])
			__free_page(t->seg[i]);
	for (i = 0; i < ARRAY_SIZE(t->sys); i++)
		if (t->sys[i])
			__free_page(t->sys[i]);
}

static int sim_test_init(struct kunit *test)
{
	struct sim_test *t = kunit_kzalloc(test, sizeof(*t), GFP_KERNEL);
	u8 key[VSEG_HW_VPR_KEY_SIZE];
	unsigned int i;
	int err;

	if (!t)
		return -ENOMEM;
	for (i = 0; i < SEG_PAGES; i++)
		t->seg[i] = alloc_page(GFP_KERNEL | __GFP_ZERO);
	for (i = 0; i < ARRAY_SIZE(t->sys); i++)
		t->sys[i] = alloc_page(GFP_KERNEL | __GFP_ZERO);
	t->bus.ops = &tbus_ops;
	err = vseg_sim_attach(&t->hw, &t->bus);
	if (err)
		return err;
	err = kunit_add_action_or_reset(test, sim_test_release, t);
	if (err)
		return err;
	for (i = 0; i < SEG_PAGES; i++)
		KUNIT_ASSERT_NOT_NULL(test, t->seg[i]);
	for (i = 0; i < ARRAY_SIZE(t->sys); i++)
		KUNIT_ASSERT_NOT_NULL(test, t->sys[i]);
	KUNIT_ASSERT_EQ(test, t->hw.ops->gart_setup(&t->hw, AP_BASE, AP_PAGES),
			0);
	for (i = 0; i < sizeof(key); i++)
		key[i] = i * 7 + 1;
	t->hw.ops->set_vpr_key(&t->hw, key);
	test->priv = t;
	return 0;
}

static int run(struct sim_test *t, struct vseg_hw_paging_result *res,
	       u32 opcode, u32 flags, u64 dst, u64 src, u64 size)
{
	struct vseg_paging_op op = {
		.opcode = opcode, .flags = flags,
		.dst = dst, .src = src, .size = size,
	};

	return t->hw.ops->run_paging(&t->hw, &op, 1, res);
}

static u32 seg_u32(struct sim_test *t, u64 off)
{
	u32 v, *p = kmap_local_page(t->seg[off >> PAGE_SHIFT]);

	v = p[offset_in_page(off) / 4];
	kunmap_local(p);
	return v;
}

static u32 sys_u32(struct page *page, u64 off)
{
	u32 v, *p = kmap_local_page(page);

	v = p[off / 4];
	kunmap_local(p);
	return v;
}

/* Fill and Transfer between a segment and a system page, counted. */
static void sim_paging_fill_transfer(struct kunit *test)
{
	struct sim_test *t = test->priv;
	struct vseg_hw_paging_result res = {};
	u64 sys = VSEG_HW_SYSTEM_ADDR(page_to_phys(t->sys[0]));

	KUNIT_EXPECT_EQ(test, run(t, &res, VSEG_PAGING_OP_FILL, 0,
				  SEG_BASE + PAGE_SIZE, 0xa5a5f00d,
				  2 * PAGE_SIZE), 0);
	KUNIT_EXPECT_EQ(test, seg_u32(t, PAGE_SIZE), 0xa5a5f00d);
	KUNIT_EXPECT_EQ(test, seg_u32(t, 3 * PAGE_SIZE - 4), 0xa5a5f00d);
	KUNIT_EXPECT_EQ(test, seg_u32(t, 3 * PAGE_SIZE), 0);
	KUNIT_EXPECT_EQ(test, run(t, &res, VSEG_PAGING_OP_TRANSFER, 0, sys,
				  SEG_BASE + PAGE_SIZE + 8, 64), 0);
	KUNIT_EXPECT_EQ(test, sys_u32(t->sys[0], 0), 0xa5a5f00d);
	KUNIT_EXPECT_EQ(test, sys_u32(t->sys[0], 60), 0xa5a5f00d);
	KUNIT_EXPECT_EQ(test, sys_u32(t->sys[0], 64), 0);
	KUNIT_EXPECT_EQ(test, res.executed[VSEG_PAGING_OP_FILL], 1);
	KUNIT_EXPECT_EQ(test, res.executed[VSEG_PAGING_OP_TRANSFER], 1);
	KUNIT_EXPECT_EQ(test, res.bytes, 2 * PAGE_SIZE + 64);
	KUNIT_EXPECT_EQ(test, res.failed, 0);

	/* past the segment: the part it could not write is zeroed */
	KUNIT_EXPECT_EQ(test, run(t, &res, VSEG_PAGING_OP_TRANSFER, 0,
				  SEG_BASE + PAGE_SIZE, SEG_BASE +
				  SEG_PAGES * PAGE_SIZE, 16), -EFAULT);
	KUNIT_EXPECT_EQ(test, seg_u32(t, PAGE_SIZE), 0);
	/* the aperture is not the paging engine's, nor an unknown opcode */
	KUNIT_EXPECT_EQ(test, run(t, &res, VSEG_PAGING_OP_FILL, 0, AP_BASE, 1,
				  4), -EFAULT);
	KUNIT_EXPECT_EQ(test, run(t, &res, VSEG_PAGING_NUM_OPCODES, 0, 0, 0,
				  0), -EINVAL);
	KUNIT_EXPECT_EQ(test, res.failed, 3);
}

/* Encrypted out, decrypted back: the plaintext again, ciphertext between. */
static void sim_paging_crypt(struct kunit *test)
{
	struct sim_test *t = test->priv;
	struct vseg_hw_paging_result res = {};
	u64 sys = VSEG_HW_SYSTEM_ADDR(page_to_phys(t->sys[0]));
	u64 base = SEG_BASE + PAGE_SIZE;

	KUNIT_ASSERT_EQ(test, run(t, &res, VSEG_PAGING_OP_FILL, 0, base,
				  0x01020304, PAGE_SIZE), 0);
	/* without a context, an encrypting Transfer fails */
	KUNIT_EXPECT_EQ(test, run(t, &res, VSEG_PAGING_OP_TRANSFER,
				  VSEG_PAGING_F_ENCRYPT, sys, base, PAGE_SIZE),
			-EFAULT);
	KUNIT_EXPECT_EQ(test, sys_u32(t->sys[0], 0), 0);
	KUNIT_ASSERT_EQ(test, run(t, &res, VSEG_PAGING_OP_CRYPT_CONTEXT, 0, base,
				  42, 0), 0);
	KUNIT_ASSERT_EQ(test, run(t, &res, VSEG_PAGING_OP_TRANSFER,
				  VSEG_PAGING_F_ENCRYPT, sys, base, PAGE_SIZE),
			0);
	KUNIT_EXPECT_NE(test, sys_u32(t->sys[0], 0), 0x01020304);
	KUNIT_EXPECT_NE(test, sys_u32(t->sys[0], PAGE_SIZE - 4), 0x01020304);
	/* back into another place of the segment: the same bytes */
	KUNIT_ASSERT_EQ(test, run(t, &res, VSEG_PAGING_OP_CRYPT_CONTEXT, 0,
				  SEG_BASE + 3 * PAGE_SIZE, 42, 0), 0);
	KUNIT_ASSERT_EQ(test, run(t, &res, VSEG_PAGING_OP_TRANSFER,
				  VSEG_PAGING_F_DECRYPT, SEG_BASE + 3 * PAGE_SIZE,
				  sys, PAGE_SIZE), 0);
	KUNIT_EXPECT_EQ(test, seg_u32(t, 3 * PAGE_SIZE), 0x01020304);
	KUNIT_EXPECT_EQ(test, seg_u32(t, 4 * PAGE_SIZE - 4), 0x01020304);
}

static bool allow_all(struct vseg_hw_cmd_job *job, const struct drm_vseg_cmd *c)
{
	return true;
}

static const struct vseg_hw_cmd_job_ops allow_ops = {
	.allowed = allow_all,
};

static int copy_job(struct sim_test *t, u64 dst, u64 value)
{
	struct drm_vseg_cmd c = {
		.opcode = DRM_VSEG_CMD_WRITE, .dst = dst, .value = value,
	};
	struct vseg_hw_cmd_job job = {
		.ops = &allow_ops, .cmds = &c, .num_cmds = 1, .stop = &t->stop,
	};

	return t->hw.ops->run_commands(&t->hw, &job);
}

static void put_u64(struct page *page, u64 off, u64 v)
{
	u64 *p = kmap_local_page(page);

	p[off / 8] = v;
	kunmap_local(p);
}

static int virtual_write(struct sim_test *t, u64 root, u64 va, u64 value)
{
	struct drm_vseg_cmd c = {
		.opcode = DRM_VSEG_CMD_WRITE, .dst = va, .value = value,
	};
	struct vseg_hw_cmd_job job = {
		.ops = &allow_ops, .cmds = &c, .num_cmds = 1, .virtual = true,
		.pt_root = root, .stop = &t->stop,
	};

	return t->hw.ops->run_commands(&t->hw, &job);
}

/*
 * UPDATE_PT copies staged entries into a leaf; the render engine's MMU
 * follows them; a cleared entry keeps working from the TLB until
 * FLUSH_TLB, then faults.
 */
static void sim_paging_update_pt(struct kunit *test)
{
	struct sim_test *t = test->priv;
	struct vseg_hw_paging_result res = {};
	u64 staged = VSEG_HW_SYSTEM_ADDR(page_to_phys(t->sys[0]));
	u64 target = VSEG_HW_SYSTEM_ADDR(page_to_phys(t->sys[1]));
	u64 va = 5 * PAGE_SIZE, leaf = SEG_BASE + 3 * PAGE_SIZE;
	u32 l;

	/* Segment pages 0..3: root, two directories, the leaf. */
	for (l = 0; l < VSEG_HW_PT_LEVELS - 1; l++)
		put_u64(t->seg[l], 0, vseg_hw_pte_encode(SEG_BASE +
							 (l + 1) * PAGE_SIZE,
							 false, false));
	KUNIT_EXPECT_EQ(test, virtual_write(t, SEG_BASE, va + 16, 1), -EFAULT);

	put_u64(t->sys[0], 8, vseg_hw_pte_encode(target, false, false));
	KUNIT_EXPECT_EQ(test, run(t, &res, VSEG_PAGING_OP_UPDATE_PT, 0,
				  leaf + 4 * 8, staged, 16), 0);
	KUNIT_EXPECT_EQ(test, virtual_write(t, SEG_BASE, va + 16, 0x1234), 0);
	KUNIT_EXPECT_EQ(test, sys_u32(t->sys[1], 16), 0x1234);

	/* invalidated: the TLB still has it until the flush */
	put_u64(t->sys[0], 8, 0);
	KUNIT_EXPECT_EQ(test, run(t, &res, VSEG_PAGING_OP_UPDATE_PT, 0,
				  leaf + 5 * 8, staged + 8, 8), 0);
	KUNIT_EXPECT_EQ(test, virtual_write(t, SEG_BASE, va + 16, 0x5678), 0);
	KUNIT_EXPECT_EQ(test, run(t, &res, VSEG_PAGING_OP_FLUSH_TLB, 0, 0, 0, 0),
			0);
	KUNIT_EXPECT_EQ(test, virtual_write(t, SEG_BASE, va + 16, 0x9abc),
			-EFAULT);
	KUNIT_EXPECT_EQ(test, sys_u32(t->sys[1], 16), 0x5678);

	/* half an entry, or an address the bus does not reach: refused */
	KUNIT_EXPECT_EQ(test, run(t, &res, VSEG_PAGING_OP_UPDATE_PT, 0,
				  leaf, staged, 4), -EINVAL);
	KUNIT_EXPECT_EQ(test, run(t, &res, VSEG_PAGING_OP_UPDATE_PT, 0,
				  AP_BASE, staged, 8), -EFAULT);
	KUNIT_EXPECT_EQ(test, res.executed[VSEG_PAGING_OP_UPDATE_PT], 2);
	KUNIT_EXPECT_EQ(test, res.executed[VSEG_PAGING_OP_FLUSH_TLB], 1);
	KUNIT_EXPECT_EQ(test, res.failed, 2);
}

/*
 * TRANSFER_VIRTUAL and FILL_VIRTUAL translate through the paging VA
 * space whose root set_paging_root names: a table in the segment maps VA
 * 0 to a system page read-only and VA 4 KiB to another; a missing entry,
 * a write through a read-only one, or no root at all fail with -EFAULT.
 */
static void sim_paging_virtual(struct kunit *test)
{
	struct sim_test *t = test->priv;
	struct vseg_hw_paging_result res = {};
	u64 src = VSEG_HW_SYSTEM_ADDR(page_to_phys(t->sys[0]));
	u64 dst = VSEG_HW_SYSTEM_ADDR(page_to_phys(t->sys[1]));
	u32 l;

	/* Segment pages 0..3: root, two directories, the leaf. */
	for (l = 0; l < VSEG_HW_PT_LEVELS - 1; l++)
		put_u64(t->seg[l], 0, vseg_hw_pte_encode(SEG_BASE +
							 (l + 1) * PAGE_SIZE,
							 false, false));
	put_u64(t->seg[3], 0, vseg_hw_pte_encode(src, true, false));
	put_u64(t->seg[3], 8, vseg_hw_pte_encode(dst, false, false));
	put_u64(t->sys[0], 8, 0x1122334455667788ull);
	put_u64(t->sys[0], PAGE_SIZE - 8, 0x99aabbccddeeff00ull);

	/* no paging VA space yet */
	KUNIT_EXPECT_EQ(test, run(t, &res, VSEG_PAGING_OP_TRANSFER_VIRTUAL, 0,
				  PAGE_SIZE, 0, PAGE_SIZE), -EFAULT);
	KUNIT_EXPECT_EQ(test, sys_u32(t->sys[1], 8), 0);

	t->hw.ops->set_paging_root(&t->hw, SEG_BASE);
	KUNIT_EXPECT_EQ(test, run(t, &res, VSEG_PAGING_OP_FILL_VIRTUAL, 0,
				  PAGE_SIZE, 0x5a5a5a5a, PAGE_SIZE), 0);
	KUNIT_EXPECT_EQ(test, sys_u32(t->sys[1], 0), 0x5a5a5a5a);
	KUNIT_EXPECT_EQ(test, sys_u32(t->sys[1], PAGE_SIZE - 4), 0x5a5a5a5a);
	KUNIT_EXPECT_EQ(test, run(t, &res, VSEG_PAGING_OP_TRANSFER_VIRTUAL, 0,
				  PAGE_SIZE + 8, 8, PAGE_SIZE - 8), 0);
	KUNIT_EXPECT_EQ(test, sys_u32(t->sys[1], 0), 0x5a5a5a5a);
	KUNIT_EXPECT_EQ(test, sys_u32(t->sys[1], 8), 0x55667788);
	KUNIT_EXPECT_EQ(test, sys_u32(t->sys[1], 12), 0x11223344);
	KUNIT_EXPECT_EQ(test, sys_u32(t->sys[1], PAGE_SIZE - 8), 0xddeeff00);
	KUNIT_EXPECT_EQ(test, res.executed[VSEG_PAGING_OP_FILL_VIRTUAL], 1);
	KUNIT_EXPECT_EQ(test, res.executed[VSEG_PAGING_OP_TRANSFER_VIRTUAL],
			1);
	KUNIT_EXPECT_EQ(test, res.bytes, 2 * PAGE_SIZE - 8);

	/* VA 8 KiB has no entry: the page before it is copied, then -EFAULT */
	KUNIT_EXPECT_EQ(test, run(t, &res, VSEG_PAGING_OP_FILL_VIRTUAL, 0,
				  PAGE_SIZE, 7, 2 * PAGE_SIZE), -EFAULT);
	KUNIT_EXPECT_EQ(test, sys_u32(t->sys[1], PAGE_SIZE - 4), 7);
	KUNIT_EXPECT_EQ(test, run(t, &res, VSEG_PAGING_OP_TRANSFER_VIRTUAL, 0,
				  PAGE_SIZE, 2 * PAGE_SIZE, 8), -EFAULT);
	/* the source window is read-only: no write through it */
	KUNIT_EXPECT_EQ(test, run(t, &res, VSEG_PAGING_OP_FILL_VIRTUAL, 0, 0,
				  9, 4), -EFAULT);
	KUNIT_EXPECT_EQ(test, sys_u32(t->sys[0], 0), 0);
	KUNIT_EXPECT_EQ(test, res.executed[VSEG_PAGING_OP_FILL_VIRTUAL], 1);
	KUNIT_EXPECT_EQ(test, res.failed, 4);
}

/* The copy engine reaches a system page through its GART entry only. */
static void sim_copy_through_gart(struct kunit *test)
{
	struct sim_test *t = test->priv;
	u64 set = 0, cleared = 0, e[2];

	KUNIT_EXPECT_EQ(test, copy_job(t, AP_BASE + PAGE_SIZE + 16, 7),
			-EFAULT);
	KUNIT_ASSERT_EQ(test, t->hw.ops->gart_write(&t->hw, 1,
						    page_to_phys(t->sys[1]), 1,
						    &set), 0);
	KUNIT_EXPECT_EQ(test, set, 1);
	KUNIT_EXPECT_EQ(test, t->hw.ops->gart_read(&t->hw, 0, e, 2), 2);
	KUNIT_EXPECT_EQ(test, e[0], VSEG_HW_GART_INVALID);
	KUNIT_EXPECT_EQ(test, e[1], (u64)page_to_phys(t->sys[1]));
	KUNIT_EXPECT_EQ(test, copy_job(t, AP_BASE + PAGE_SIZE + 16, 7), 0);
	KUNIT_EXPECT_EQ(test, sys_u32(t->sys[1], 16), 7);
	/* a system address is not the copy engine's */
	KUNIT_EXPECT_EQ(test, copy_job(t, VSEG_HW_SYSTEM_ADDR(page_to_phys(t->sys[1])),
				       9), -EFAULT);
	KUNIT_EXPECT_EQ(test, sys_u32(t->sys[1], 0), 0);
	/* cleared: the engine faults, the page is untouched */
	KUNIT_ASSERT_EQ(test, t->hw.ops->gart_clear(&t->hw, 0, AP_PAGES,
						    &cleared), 0);
	KUNIT_EXPECT_EQ(test, cleared, 1);
	KUNIT_EXPECT_EQ(test, copy_job(t, AP_BASE + PAGE_SIZE + 16, 8),
			-EFAULT);
	KUNIT_EXPECT_EQ(test, sys_u32(t->sys[1], 16), 7);
	/* runs outside the GART are refused */
	KUNIT_EXPECT_EQ(test, t->hw.ops->gart_clear(&t->hw, AP_PAGES - 1, 2,
						    &cleared), -EINVAL);
	KUNIT_EXPECT_EQ(test, t->hw.ops->gart_read(&t->hw, AP_PAGES, e, 1), 0);
}

/* Slots of a CPU host aperture window show what they are programmed with. */
static void sim_host_aperture_slots(struct kunit *test)
{
	struct sim_test *t = test->priv;
	struct vseg_hw *hw = &t->hw;

	KUNIT_EXPECT_EQ(test, hw->ops->host_aperture_setup(hw,
							   VSEG_HW_MAX_WINDOWS,
							   2), -EINVAL);
	/* no window yet: nothing to program */
	KUNIT_EXPECT_EQ(test, hw->ops->host_slot_set(hw, 3, 0, SEG_BASE), 0);
	KUNIT_ASSERT_EQ(test, hw->ops->host_aperture_setup(hw, 3, 2), 0);
	KUNIT_EXPECT_EQ(test, hw->ops->host_slot_set(hw, 3, 1,
						     SEG_BASE + 2 * PAGE_SIZE),
			page_to_pfn(t->seg[2]));
	KUNIT_EXPECT_EQ(test, hw->ops->host_slot_set(hw, 3, 0, SEG_BASE),
			page_to_pfn(t->seg[0]));
	/* past the window, unaligned, not the segment's, cleared: none */
	KUNIT_EXPECT_EQ(test, hw->ops->host_slot_set(hw, 3, 2, SEG_BASE), 0);
	KUNIT_EXPECT_EQ(test, hw->ops->host_slot_set(hw, 3, 0, SEG_BASE + 8),
			0);
	KUNIT_EXPECT_EQ(test, hw->ops->host_slot_set(hw, 3, 0, AP_BASE), 0);
	KUNIT_EXPECT_EQ(test, hw->ops->host_slot_set(hw, 3, 0,
						     VSEG_HW_SYSTEM_ADDR(page_to_phys(t->sys[0]))),
			0);
	KUNIT_EXPECT_EQ(test, hw->ops->host_slot_set(hw, 3, 1,
						     VSEG_HW_SLOT_CLEAR), 0);
	KUNIT_EXPECT_EQ(test, hw->ops->host_aperture_setup(hw, 3, 0), 0);
	KUNIT_EXPECT_EQ(test, hw->ops->host_slot_set(hw, 3, 0, SEG_BASE), 0);
}

/* The display test's picture: PIC_W x PIC_H of one colour, a 4x4 cursor. */
#define PIC_W		16
#define PIC_H		8
#define PIC_BG		0x00ff8040u
#define CUR_SIDE	4

/*
 * The cursor's four kinds of pixel (premultiplied ARGB8888) and what each
 * gives over PIC_BG (r 255, g 128, b 64), worked out by hand from
 * fg + bg * (255 - alpha) / 255 rounded to nearest, 255 at most:
 * transparent; opaque; half alpha (r 64 + 127, g 32 + 63.75, b 16 + 31.87);
 * alpha 16 with a red above it, not premultiplied (255 + 239 clamped,
 * g 119.97, b 59.98). Opaque blending shows the colour alone.
 */
static const u32 cur_fg[4] = { 0x00000000, 0xff112233, 0x80402010, 0x10ff0000 };
static const u32 cur_over[4] = { PIC_BG, 0x112233, 0xbf6030, 0xff783c };
static const u32 cur_opaque[4] = { 0x000000, 0x112233, 0x402010, 0xff0000 };

static u32 cur_kind(int x, int y)
{
	return (x + y) % 4;
}

/* The CRC of the picture with the cursor at @x, @y as @blend shows it. */
static u32 expected_crc(int x, int y, u32 blend, bool cursor)
{
	__le32 pic[PIC_W * PIC_H];
	int i, cx, cy;

	for (i = 0; i < PIC_W * PIC_H; i++)
		pic[i] = cpu_to_le32(PIC_BG);
	for (cy = 0; cursor && cy < CUR_SIDE; cy++)
		for (cx = 0; cx < CUR_SIDE; cx++) {
			int sx = x + cx, sy = y + cy;
			u32 k = cur_kind(cx, cy);

			if (sx < 0 || sy < 0 || sx >= PIC_W || sy >= PIC_H)
				continue;
			pic[sy * PIC_W + sx] = cpu_to_le32(blend == VSEG_HW_CURSOR_OPAQUE ?
							   cur_opaque[k] : cur_over[k]);
		}
	return crc32_le(0, (u8 *)pic, sizeof(pic));
}

/*
 * The display controller's CRC composes the cursor over the primary,
 * clipped at each edge, premultiplied or opaque; off, the primary's; a
 * head whose primary is off shows nothing; registers pointing past what
 * they say is readable give -EFAULT.
 */
static void sim_display_cursor(struct kunit *test)
{
	static const struct { int x, y; } pos[] = {
		{ 5, 2 }, { -1, 6 }, { 14, -2 }, { -3, -3 }, { 15, 6 },
	};
	struct sim_test *t = test->priv;
	struct vseg_hw_display *d = t->hw.display;
	struct vseg_hw_scanout s = {
		.address = SEG_BASE, .size = PIC_W * PIC_H * 4,
		.width = PIC_W, .height = PIC_H, .pitch = PIC_W * 4,
		.format = DRM_FORMAT_XRGB8888,
	};
	struct vseg_hw_cursor c = {
		.address = SEG_BASE + PAGE_SIZE, .size = PAGE_SIZE,
		.width = CUR_SIDE, .height = CUR_SIDE, .pitch = 64,
	};
	u32 *p, crc, i, x, y;

	KUNIT_ASSERT_NOT_NULL(test, d->ops->set_cursor);
	p = kmap_local_page(t->seg[0]);
	for (i = 0; i < PIC_W * PIC_H; i++)
		p[i] = 0xab000000 | PIC_BG;	/* X ignored */
	kunmap_local(p);
	p = kmap_local_page(t->seg[1]);
	for (y = 0; y < CUR_SIDE; y++)
		for (x = 0; x < CUR_SIDE; x++)
			p[y * 16 + x] = cur_fg[cur_kind(x, y)];
	kunmap_local(p);

	d->ops->set_scanout(d, 0, &s);
	KUNIT_ASSERT_EQ(test, d->ops->scanout_crc(d, 0, &crc), 0);
	KUNIT_EXPECT_EQ(test, crc, expected_crc(0, 0, 0, false));
	for (i = 0; i < ARRAY_SIZE(pos); i++) {
		c.x = pos[i].x;
		c.y = pos[i].y;
		c.blend = VSEG_HW_CURSOR_PREMULTI;
		d->ops->set_cursor(d, 0, &c);
		KUNIT_ASSERT_EQ(test, d->ops->scanout_crc(d, 0, &crc), 0);
		KUNIT_EXPECT_EQ_MSG(test, crc,
				    expected_crc(c.x, c.y, c.blend, true),
				    "premultiplied at %d,%d", c.x, c.y);
		KUNIT_EXPECT_NE(test, crc, expected_crc(0, 0, 0, false));
		c.blend = VSEG_HW_CURSOR_OPAQUE;
		d->ops->set_cursor(d, 0, &c);
		KUNIT_ASSERT_EQ(test, d->ops->scanout_crc(d, 0, &crc), 0);
		KUNIT_EXPECT_EQ_MSG(test, crc,
				    expected_crc(c.x, c.y, c.blend, true),
				    "opaque at %d,%d", c.x, c.y);
	}
	/* Wholly off the picture: the primary's CRC. */
	c.x = PIC_W;
	c.y = 0;
	d->ops->set_cursor(d, 0, &c);
	KUNIT_ASSERT_EQ(test, d->ops->scanout_crc(d, 0, &crc), 0);
	KUNIT_EXPECT_EQ(test, crc, expected_crc(0, 0, 0, false));
	/* Head 1's registers are its own. */
	KUNIT_EXPECT_EQ(test, d->ops->scanout_crc(d, 1, &crc), -ENOENT);
	/* An image past what the registers say is readable. */
	c.x = 0;
	c.size = 64 * 3;
	d->ops->set_cursor(d, 0, &c);
	KUNIT_EXPECT_EQ(test, d->ops->scanout_crc(d, 0, &crc), -EFAULT);
	KUNIT_EXPECT_TRUE(test, d->ops->get_cursor(d, 0, &c));
	/* Off: the primary's CRC; the primary off: nothing. */
	d->ops->set_cursor(d, 0, NULL);
	KUNIT_EXPECT_FALSE(test, d->ops->get_cursor(d, 0, &c));
	KUNIT_ASSERT_EQ(test, d->ops->scanout_crc(d, 0, &crc), 0);
	KUNIT_EXPECT_EQ(test, crc, expected_crc(0, 0, 0, false));
	c.size = PAGE_SIZE;
	d->ops->set_cursor(d, 0, &c);
	d->ops->set_scanout(d, 0, NULL);
	KUNIT_EXPECT_EQ(test, d->ops->scanout_crc(d, 0, &crc), -ENOENT);
	d->ops->set_cursor(d, 0, NULL);
}

static struct kunit_case vseg_sim_cases[] = {
	KUNIT_CASE(sim_paging_fill_transfer),
	KUNIT_CASE(sim_paging_crypt),
	KUNIT_CASE(sim_copy_through_gart),
	KUNIT_CASE(sim_paging_update_pt),
	KUNIT_CASE(sim_paging_virtual),
	KUNIT_CASE(sim_host_aperture_slots),
	KUNIT_CASE(sim_display_cursor),
	{}
};

static struct kunit_suite vseg_sim_suite = {
	.name = "vseg_sim",
	.init = sim_test_init,
	.test_cases = vseg_sim_cases,
};

kunit_test_suite(vseg_sim_suite);
