// SPDX-License-Identifier: MIT
/*
 * vseg_scanout: primaries on the virtual display, and the paging counters.
 *
 * The display reads memory physically: a displayed primary is pinned
 * contiguous in a memory segment, or mapped into the aperture. A primary
 * without AccessedPhysically in the aperture is mapped only while it is
 * displayed (the WDDM "mapped only while displayed" cell): not before
 * it is shown (a KMS framebuffer on a head), and not after it is replaced
 * or its head is turned off. debugfs "display" shows what each head
 * displays and where; debugfs "paging" counts transfers, fills, discards
 * and aperture maps and unmaps per segment.
 *
 * Copyright (c) 2026 The vseg authors
 */
/**
 * TEST: vseg scanout
 * Category: Core
 * Mega feature: General Core features
 * Sub-category: Display
 * Functionality: scanout
 * Description: Show vseg primaries on the virtual display: mapped into the
 *	aperture only while displayed, pinned contiguous in memory segments,
 *	unmapped and unpinned when replaced or turned off; debugfs display
 *	(each displayed head's scanout registers hold its primary's GPU
 *	physical address and size, an off head's nothing) and the paging
 *	counters.
 *
 * SUBTEST: aperture-%s
 * Description: A primary supported in the aperture only: not mapped before
 *	it is shown through KMS, mapped and pinned while displayed, unmapped
 *	when replaced or when its head is turned off; usage and paging counters follow. On
 *	profile arg[1].
 *
 * SUBTEST: memory-%s
 * Description: A primary in each memory segment: contiguous, pinned while
 *	displayed, brought back contiguous when displayed from system memory.
 *	On profile arg[1]. Dynamic subtests: one per memory segment, named
 *	after it, and memory-or-aperture.
 *
 * SUBTEST: paging-%s
 * Description: debugfs paging: one line per segment; transfers grow when
 *	buffers move in and out, aperture map and unmap when ranges are bound
 *	and unbound. On profile arg[1].
 *
 * SUBTEST: heads
 * Description: Two heads, one primary on both, the same primary twice.
 *
 * SUBTEST: user-pins
 * Description: The display's pin and the application's pins are counted
 *	apart; a pinned primary leaves the aperture when no head shows it.
 *
 * SUBTEST: close-displayed
 * Description: Closing the last handle of a displayed primary keeps it
 *	displayed until its head is turned off.
 *
 * SUBTEST: close-file
 * Description: Closing the file that set a head turns it off and releases its
 *	primary; other files' heads stay. Only the DRM master may set heads.
 *
 * SUBTEST: render-primary
 * Description: The render engine reaches a primary by virtual address; the
 *	copy engine refuses it.
 *
 * SUBTEST: invalid
 * Description: The removed scanout ioctl (0x09) fails with EINVAL and
 *	changes nothing; showing a primary through KMS from a file that is
 *	not the DRM master, or a render node, is refused with EACCES.
 *
 * SUBTEST: unload-displayed
 * Description: Unloading vseg while primaries are displayed.
 *
 * arg[1]:
 *
 * @discrete:	the discrete profile (the default)
 * @integrated:	the integrated profile
 * @smallbar:	the smallbar profile
 * @multi:	the multi profile
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include <xf86drm.h>

#include "igt.h"
#include "igt_vseg.h"
#include "igt_vseg_exec.h"

IGT_TEST_DESCRIPTION("Show vseg primaries on the virtual display: mapped "
		     "into the aperture only while displayed, pinned "
		     "contiguous in memory segments, unmapped and unpinned "
		     "when replaced or turned off; debugfs display and the "
		     "paging counters.");

#define AP_FLAG		DRM_VSEG_GEM_CREATE_ACCESSED_PHYSICALLY
#define PRIMARY		DRM_VSEG_GEM_CREATE_PRIMARY
#define RENDER		DRM_VSEG_ENGINE_RENDER
#define COPY		DRM_VSEG_ENGINE_COPY
#define MAPPED		DRM_VSEG_INFO_APERTURE_MAPPED
#define PINNED		DRM_VSEG_INFO_PINNED
#define CONTIGUOUS	DRM_VSEG_INFO_CONTIGUOUS
#define RESIDENT	DRM_VSEG_INFO_RESIDENT
#define PRIMARY_SIZE	(1024ull * 768 * 4)	/* 3 MiB: 1024x768 XRGB */

static struct vseg_ctx ctx = VSEG_CTX_INIT_ENGINE(VSEG_LEFTOVERS_BASE_COUNT);

static uint32_t create_primary(uint32_t supported, uint32_t prefer,
			       struct drm_vseg_gem_info *info)
{
	struct drm_vseg_gem_create c;
	uint32_t h;

	vseg_create_args(&c, PRIMARY_SIZE, supported, PRIMARY);
	if (prefer)
		vseg_create_prefer(&c, prefer, 0);
	h = vseg_gem_create(ctx.fd, &c);
	if (info)
		vseg_gem_info(ctx.fd, h, info);
	return h;
}

static void info_of(uint32_t h, struct drm_vseg_gem_info *info)
{
	vseg_gem_info(ctx.fd, h, info);
}

/* What "display" says about @head. */
static struct vseg_display_head display_head(uint32_t head)
{
	struct vseg_display d;

	vseg_debugfs_read_display(ctx.fd, &d);
	return d.head[head];
}

static void check_head_off(uint32_t head)
{
	struct vseg_display_head h = display_head(head);

	igt_assert_f(!h.on && !h.mapped && !h.has_scanout,
		     "debugfs display: head %u should be off, shows bo %llu\n",
		     head, (unsigned long long)h.buffer_id);
}

/*
 * @handle is displayed on @head: debugfs display agrees with GEM_INFO, and
 * the buffer is pinned where the display reaches it.
 */
static void check_displayed(uint32_t head, uint32_t handle,
			    struct drm_vseg_gem_info *out)
{
	struct drm_vseg_gem_info info;
	struct vseg_display_head h;
	uint64_t pa;

	info_of(handle, &info);
	h = display_head(head);
	igt_assert_f(h.on && h.buffer_id == info.buffer_id,
		     "debugfs display: head %u shows %s%llu, expected bo %llu\n",
		     head, h.on ? "bo " : "nothing ",
		     (unsigned long long)h.buffer_id,
		     (unsigned long long)info.buffer_id);
	igt_assert_f(info.placement_flags & PINNED,
		     "a displayed primary is not pinned (flags %#x)\n",
		     info.placement_flags);
	igt_assert_f(vseg_phys_addr_of(&info, 0, &pa),
		     "a displayed primary in %s is neither contiguous nor mapped (flags %#x)\n",
		     vseg_ctx_seg_name(&ctx, info.segment_id),
		     info.placement_flags);
	igt_assert_f(h.has_scanout && h.scanout == pa &&
		     h.scanout_size == info.size,
		     "debugfs display: head %u scans out %s%#llx+%#llx, the primary is at %#llx+%#llx\n",
		     head, h.has_scanout ? "" : "(nothing) ",
		     (unsigned long long)h.scanout,
		     (unsigned long long)h.scanout_size,
		     (unsigned long long)pa, (unsigned long long)info.size);
	igt_assert_f(h.has_segment && h.segment == info.segment_id &&
		     h.offset == info.offset,
		     "debugfs display: head %u at segment %u offset %#llx, GEM_INFO says %u %#llx\n",
		     head, h.segment, (unsigned long long)h.offset,
		     info.segment_id, (unsigned long long)info.offset);
	if (info.placement_flags & MAPPED)
		igt_assert_f(h.mapped && h.ap_start == info.aperture_offset &&
			     h.ap_size == info.size,
			     "debugfs display: head %u aperture %s%#llx+%#llx, GEM_INFO says %#llx+%#llx\n",
			     head, h.mapped ? "" : "(none) ",
			     (unsigned long long)h.ap_start,
			     (unsigned long long)h.ap_size,
			     (unsigned long long)info.aperture_offset,
			     (unsigned long long)info.size);
	else
		igt_assert_f(!h.mapped,
			     "debugfs display: head %u shows an aperture range for a buffer GEM_INFO says is not mapped\n",
			     head);
	vseg_check_allocation(ctx.fd, handle, NULL);
	if (out)
		*out = info;
}

/* Is buffer @buffer_id behind a range of debugfs "aperture"? */
static bool in_aperture_file(uint64_t buffer_id)
{
	struct vseg_aperture_state st;
	bool found;

	vseg_debugfs_read_aperture(ctx.fd, &st);
	found = vseg_aperture_find(&st, buffer_id);
	vseg_debugfs_free_aperture(&st);
	return found;
}

static void check_not_mapped(uint32_t handle, const char *what)
{
	struct drm_vseg_gem_info info;

	info_of(handle, &info);
	igt_assert_f(!(info.placement_flags & MAPPED),
		     "%s: the primary is mapped into the aperture at %#llx\n",
		     what, (unsigned long long)info.aperture_offset);
	igt_assert_f(!(info.placement_flags & PINNED),
		     "%s: the primary is still pinned\n", what);
	igt_assert_f(!in_aperture_file(info.buffer_id),
		     "%s: debugfs aperture still has a range for the primary\n",
		     what);
}

static void write_pattern(uint32_t h, uint32_t seed)
{
	void *ptr = vseg_gem_mmap(ctx.fd, h, PRIMARY_SIZE,
				  PROT_READ | PROT_WRITE);

	vseg_pattern_fill(ptr, PRIMARY_SIZE, seed);
	munmap(ptr, PRIMARY_SIZE);
}

static void check_pattern(uint32_t h, uint32_t seed, const char *what)
{
	void *ptr = vseg_gem_mmap(ctx.fd, h, PRIMARY_SIZE, PROT_READ);
	int64_t bad = vseg_pattern_check(ptr, PRIMARY_SIZE, seed);

	munmap(ptr, PRIMARY_SIZE);
	igt_assert_f(bad < 0, "%s: the primary's data differs at %#llx\n",
		     what, (unsigned long long)bad);
}

/* --- primaries in the aperture ---------------------------------------------- */

static void test_aperture(void)
{
	const uint32_t ap = ctx.ap_id;
	struct vseg_usage_snapshot u0, u;
	struct drm_vseg_gem_info i1, i2;
	struct vseg_paging p0, p;
	uint32_t p1, p2, processed;
	int err;

	p1 = create_primary(BIT(ap), 0, &i1);
	igt_assert_f(i1.segment_id == ap,
		     "a primary supported in the aperture only is in %s\n",
		     vseg_ctx_seg_name(&ctx, i1.segment_id));
	check_not_mapped(p1, "a new primary");
	write_pattern(p1, 0x1001);
	vseg_usage_read(ctx.fd, &u0);
	vseg_debugfs_read_paging(ctx.fd, &p0);

	/* Displayed: mapped and pinned, as debugfs shows. */
	vseg_display_show(ctx.fd, 0, p1);
	check_displayed(0, p1, &i1);
	igt_assert_f(i1.segment_id == ap && (i1.placement_flags & MAPPED),
		     "a displayed primary of the aperture is in %s, flags %#x\n",
		     vseg_ctx_seg_name(&ctx, i1.segment_id),
		     i1.placement_flags);
	igt_assert(in_aperture_file(i1.buffer_id));
	check_head_off(1);
	vseg_usage_read(ctx.fd, &u);
	igt_assert_eq_u64(u.usage[ap].aperture_mapped,
			  u0.usage[ap].aperture_mapped + i1.size);
	vseg_debugfs_read_paging(ctx.fd, &p);
	igt_assert_f(p.seg[ap].map > p0.seg[ap].map,
		     "paging: aperture map count %llu did not grow when a primary was displayed\n",
		     (unsigned long long)p.seg[ap].map);
	check_pattern(p1, 0x1001, "a primary once displayed");

	/* Pinned while displayed. */
	err = __vseg_evict(ctx.fd, &p1, 1, &processed);
	igt_assert_f(err == -EBUSY, "EVICT of a displayed primary: %s\n",
		     vseg_errname(err));
	check_displayed(0, p1, NULL);

	/* Replaced: the old one leaves the aperture, the new one comes in. */
	p2 = create_primary(BIT(ap), 0, &i2);
	check_not_mapped(p2, "a second new primary");
	write_pattern(p2, 0x1002);
	p0 = p;
	vseg_display_show(ctx.fd, 0, p2);
	check_displayed(0, p2, &i2);
	check_not_mapped(p1, "a primary replaced on its head");
	vseg_usage_read(ctx.fd, &u);
	igt_assert_eq_u64(u.usage[ap].aperture_mapped,
			  u0.usage[ap].aperture_mapped + i2.size);
	vseg_debugfs_read_paging(ctx.fd, &p);
	igt_assert_f(p.seg[ap].map > p0.seg[ap].map &&
		     p.seg[ap].unmap > p0.seg[ap].unmap,
		     "paging: aperture map %llu -> %llu, unmap %llu -> %llu across a replacement\n",
		     (unsigned long long)p0.seg[ap].map,
		     (unsigned long long)p.seg[ap].map,
		     (unsigned long long)p0.seg[ap].unmap,
		     (unsigned long long)p.seg[ap].unmap);
	check_pattern(p1, 0x1001, "a replaced primary");
	check_pattern(p2, 0x1002, "the new primary");
	/* The replaced one can be evicted now. */
	vseg_evict(ctx.fd, &p1, 1);

	/* Head off: unmapped, unpinned. */
	p0 = p;
	vseg_display_show(ctx.fd, 0, 0);
	check_head_off(0);
	check_not_mapped(p2, "a primary whose head was turned off");
	vseg_usage_read(ctx.fd, &u);
	igt_assert_eq_u64(u.usage[ap].aperture_mapped,
			  u0.usage[ap].aperture_mapped);
	vseg_debugfs_read_paging(ctx.fd, &p);
	igt_assert_f(p.seg[ap].unmap > p0.seg[ap].unmap,
		     "paging: aperture unmap count did not grow when the head was turned off\n");
	check_pattern(p2, 0x1002, "a primary no longer displayed");

	/* Displayed again after being evicted to system memory. */
	vseg_evict(ctx.fd, &p1, 1);
	info_of(p1, &i1);
	igt_assert_eq_u32(i1.segment_id, 0);
	vseg_display_show(ctx.fd, 1, p1);
	check_displayed(1, p1, &i1);
	igt_assert(i1.segment_id == ap && (i1.placement_flags & MAPPED));
	check_pattern(p1, 0x1001, "an evicted primary displayed again");
	vseg_display_show(ctx.fd, 1, 0);
	check_not_mapped(p1, "after the second head was turned off");

	vseg_gem_close(ctx.fd, p1);
	vseg_gem_close(ctx.fd, p2);
}

/* --- primaries in memory segments -------------------------------------------- */

static void test_memory(uint32_t id)
{
	struct drm_vseg_gem_info info, shown;
	uint32_t p, processed;
	const bool cpu = vseg_ctx_cpu_visible(&ctx, id);
	int err;

	p = create_primary(BIT(id) | BIT(ctx.ap_id), id, &info);
	igt_assert_f(info.segment_id == id && (info.placement_flags & CONTIGUOUS),
		     "a primary of %s is in %s, flags %#x\n", vseg_ctx_seg_name(&ctx, id),
		     vseg_ctx_seg_name(&ctx, info.segment_id),
		     info.placement_flags);
	igt_assert(!(info.placement_flags & (PINNED | MAPPED)));
	if (cpu)
		write_pattern(p, 0x2000 + id);

	vseg_display_show(ctx.fd, 1, p);
	check_displayed(1, p, &shown);
	igt_assert_f(shown.segment_id == id &&
		     (shown.placement_flags & CONTIGUOUS) &&
		     !(shown.placement_flags & MAPPED) &&
		     shown.offset == info.offset && shown.moves == info.moves,
		     "a displayed primary of %s: %s offset %#llx flags %#x moves %llu (was at %#llx, %llu moves)\n",
		     vseg_ctx_seg_name(&ctx, id),
		     vseg_ctx_seg_name(&ctx, shown.segment_id),
		     (unsigned long long)shown.offset, shown.placement_flags,
		     (unsigned long long)shown.moves,
		     (unsigned long long)info.offset,
		     (unsigned long long)info.moves);
	check_head_off(0);
	err = __vseg_evict(ctx.fd, &p, 1, &processed);
	igt_assert_f(err == -EBUSY, "EVICT of a displayed primary: %s\n",
		     vseg_errname(err));

	/* Off: unpinned, and it can go. */
	vseg_display_show(ctx.fd, 1, 0);
	check_head_off(1);
	info_of(p, &info);
	igt_assert(!(info.placement_flags & PINNED));
	vseg_evict(ctx.fd, &p, 1);
	info_of(p, &info);
	igt_assert_eq_u32(info.segment_id, 0);

	/* Displayed from system memory: brought back contiguous. */
	vseg_display_show(ctx.fd, 0, p);
	check_displayed(0, p, &shown);
	igt_assert_f(shown.segment_id == id &&
		     (shown.placement_flags & CONTIGUOUS),
		     "an evicted primary of %s displayed again is in %s, flags %#x\n",
		     vseg_ctx_seg_name(&ctx, id),
		     vseg_ctx_seg_name(&ctx, shown.segment_id),
		     shown.placement_flags);
	if (cpu)
		check_pattern(p, 0x2000 + id, "a primary displayed, evicted, displayed");
	vseg_display_show(ctx.fd, 0, 0);
	check_head_off(0);
	vseg_gem_close(ctx.fd, p);
}

/*
 * A primary that may live in the first memory segment or the aperture,
 * displayed from system memory: either place will do, as long as the
 * display can reach it.
 */
static void test_either(void)
{
	struct drm_vseg_gem_info info;
	uint32_t p;

	p = create_primary(BIT(1) | BIT(ctx.ap_id), 1, NULL);
	write_pattern(p, 0x3000);
	vseg_evict(ctx.fd, &p, 1);
	vseg_display_show(ctx.fd, 0, p);
	check_displayed(0, p, &info);
	igt_info("displayed from %s\n",
		 vseg_ctx_seg_name(&ctx, info.segment_id));
	check_pattern(p, 0x3000, "a primary displayed from system memory");
	vseg_display_show(ctx.fd, 0, 0);
	check_not_mapped(p, "after the head was turned off");
	vseg_gem_close(ctx.fd, p);
}

/* --- heads and pins ------------------------------------------------------------- */

/* Two primaries on two heads, one primary on both heads, the same twice. */
static void test_heads(void)
{
	const uint32_t ap = ctx.ap_id;
	uint32_t a, b;

	a = create_primary(BIT(ap), 0, NULL);
	b = create_primary(BIT(ap), 0, NULL);
	vseg_display_show(ctx.fd, 0, a);
	vseg_display_show(ctx.fd, 1, b);
	check_displayed(0, a, NULL);
	check_displayed(1, b, NULL);
	vseg_display_show(ctx.fd, 0, 0);
	check_not_mapped(a, "head 0 turned off");
	check_displayed(1, b, NULL);

	/* b on both heads: it stays mapped until neither shows it. */
	vseg_display_show(ctx.fd, 0, b);
	check_displayed(0, b, NULL);
	check_displayed(1, b, NULL);
	vseg_display_show(ctx.fd, 1, 0);
	check_displayed(0, b, NULL);
	vseg_display_show(ctx.fd, 0, 0);
	check_not_mapped(b, "both heads turned off");

	/* The same primary shown twice on one head, then turned off once. */
	vseg_display_show(ctx.fd, 0, a);
	vseg_display_show(ctx.fd, 0, a);
	check_displayed(0, a, NULL);
	vseg_display_show(ctx.fd, 0, 0);
	check_not_mapped(a, "a primary shown twice on a head, turned off");

	/* Turning off a head that is off changes nothing. */
	vseg_display_show(ctx.fd, 1, 0);
	check_head_off(1);

	vseg_gem_close(ctx.fd, a);
	vseg_gem_close(ctx.fd, b);
}

/*
 * The display's pin is not the application's: EVICT with UNPIN of a
 * displayed primary that the application never pinned is refused, and an
 * application pin survives the head being turned off.
 */
static void test_user_pins(void)
{
	const uint32_t ap = ctx.ap_id;
	struct drm_vseg_gem_info info;
	uint32_t p;
	int err;

	p = create_primary(BIT(ap) | BIT(ctx.ap_id), ap, NULL);
	vseg_display_show(ctx.fd, 0, p);
	err = __vseg_evict_flags(ctx.fd, &p, 1, DRM_VSEG_RESIDENCY_UNPIN,
				 NULL);
	igt_assert_f(err == -EINVAL,
		     "EVICT(UNPIN) of a displayed primary the application never pinned: %d (%s), expected -EINVAL\n",
		     err, vseg_errname(err));
	check_displayed(0, p, NULL);
	vseg_display_show(ctx.fd, 0, 0);
	check_not_mapped(p, "after the head was turned off");

	/* Pinned by the application, then displayed, then turned off. */
	err = __vseg_make_resident_flags(ctx.fd, &p, 1, DRM_VSEG_RESIDENCY_PIN,
					 NULL);
	igt_assert_f(err == 0, "MAKE_RESIDENT(PIN): %s\n", vseg_errname(err));
	vseg_display_show(ctx.fd, 0, p);
	check_displayed(0, p, NULL);
	/* Pinned by both: the application's pin cannot go while displayed. */
	err = __vseg_evict_flags(ctx.fd, &p, 1, DRM_VSEG_RESIDENCY_UNPIN,
				 NULL);
	igt_assert_f(err == -EBUSY,
		     "EVICT(UNPIN) of a primary pinned by the application and the display: %d (%s), expected -EBUSY\n",
		     err, vseg_errname(err));
	check_displayed(0, p, NULL);
	vseg_display_show(ctx.fd, 0, 0);
	check_head_off(0);
	info_of(p, &info);
	igt_assert_f(info.placement_flags & PINNED,
		     "the application's pin went with the display's\n");
	/*
	 * Not displayed any more: out of the aperture, whatever its pins
	 * (a pin keeps it resident where it is, not mapped).
	 */
	igt_assert_f(info.segment_id == ap &&
		     (info.placement_flags & RESIDENT),
		     "the pinned primary left the aperture (segment %u, flags %#x)\n",
		     info.segment_id, info.placement_flags);
	igt_assert_f(!(info.placement_flags & MAPPED),
		     "a pinned primary no head shows is still mapped into the aperture\n");
	igt_assert_f(!in_aperture_file(info.buffer_id),
		     "debugfs aperture has a range for a pinned primary no head shows\n");
	err = __vseg_evict_flags(ctx.fd, &p, 1, DRM_VSEG_RESIDENCY_UNPIN,
				 NULL);
	igt_assert_f(err == 0, "EVICT(UNPIN) of an application pin: %s\n",
		     vseg_errname(err));
	check_not_mapped(p, "after the application's pin was dropped");
	vseg_gem_close(ctx.fd, p);
}

/* Closing the last handle keeps the primary displayed until it is replaced. */
static void test_close_displayed(void)
{
	struct drm_vseg_gem_info info;
	unsigned int count;
	uint32_t p;

	p = create_primary(BIT(ctx.ap_id), 0, NULL);
	vseg_display_show(ctx.fd, 0, p);
	check_displayed(0, p, &info);
	count = vseg_allocation_count(ctx.fd);
	vseg_gem_close(ctx.fd, p);
	{
		struct vseg_display_head h = display_head(0);

		igt_assert_f(h.on && h.buffer_id == info.buffer_id && h.mapped,
			     "a displayed primary whose handle was closed is no longer shown\n");
	}
	igt_assert(in_aperture_file(info.buffer_id));
	igt_assert_eq(vseg_allocation_count(ctx.fd), count);
	vseg_display_show(ctx.fd, 0, 0);
	check_head_off(0);
	igt_assert(!in_aperture_file(info.buffer_id));
}

/*
 * Closing the file that set a head turns the head off (as DRM disables the
 * CRTCs showing a closed file's framebuffers); heads other files set stay.
 * Only the DRM master may set a head: the first file hands the display
 * over to the second (drmDropMaster, drmSetMaster), then takes it back
 * once the second is closed.
 */
static void test_close_file(void)
{
	struct drm_vseg_gem_info info, info0;
	struct vseg_display_head h;
	uint32_t p, p0;
	int fd2, err;

	/* The first file (the master) sets head 0. */
	p0 = create_primary(BIT(ctx.ap_id), 0, NULL);
	vseg_display_show(ctx.fd, 0, p0);
	check_displayed(0, p0, &info0);

	/* A second file cannot, until it is the master. */
	fd2 = drm_open_vseg();
	p = vseg_gem_create_simple(fd2, PRIMARY_SIZE, BIT(ctx.ap_id), PRIMARY);
	err = __vseg_display_show(fd2, 1, p);
	igt_assert_f(err == -EACCES,
		     "showing from a file that is not the master: %d (%s), expected -EACCES\n",
		     err, vseg_errname(err));
	check_head_off(1);
	igt_assert_eq(drmDropMaster(ctx.fd), 0);
	igt_assert_eq(drmSetMaster(fd2), 0);
	err = __vseg_display_show(ctx.fd, 0, 0);
	igt_assert_f(err == -EACCES,
		     "showing from a file that dropped master: %d (%s), expected -EACCES\n",
		     err, vseg_errname(err));
	check_displayed(0, p0, NULL);

	vseg_display_show(fd2, 1, p);
	vseg_gem_info(fd2, p, &info);
	h = display_head(1);
	igt_assert(h.on && h.buffer_id == info.buffer_id && h.mapped);
	igt_assert(in_aperture_file(info.buffer_id));

	drm_close_driver(fd2);
	check_head_off(1);
	igt_assert_f(!in_aperture_file(info.buffer_id),
		     "the closed file's primary is still in the aperture\n");
	h = display_head(0);
	igt_assert_f(h.on && h.buffer_id == info0.buffer_id,
		     "another file's head was turned off too\n");

	/* No master left: the first file takes the display back. */
	igt_assert_eq(drmSetMaster(ctx.fd), 0);
	vseg_display_show(ctx.fd, 0, 0);
	check_head_off(0);
	vseg_gem_close(ctx.fd, p0);
}

/* --- what the display and the engines make of primaries --------------------------- */

/*
 * Rendering engines reach a primary by virtual address, displayed or not;
 * the copy engine refuses it (no AccessedPhysically).
 */
static void test_render_primary(void)
{
	const uint64_t va = 0x100000000ull;
	struct vseg_cmdbuf cb;
	uint32_t p, out;
	uint32_t got[4], want[4];
	int err;

	p = create_primary(BIT(ctx.ap_id), 0, NULL);
	vseg_display_show(ctx.fd, 0, p);
	igt_assert_eq_u64(vseg_vm_bind(ctx.fd, p, va), PRIMARY_SIZE);
	vseg_cb_init(&cb);
	vseg_cb_fill(&cb, va + SZ_1M, sizeof(want), 0x00ff00ff);
	vseg_cb_exec_ok(ctx.fd, RENDER, &cb, "FILL of a displayed primary by VA");
	vseg_fill32(want, sizeof(want), 0x00ff00ff);
	vseg_bo_read(ctx.fd, p, SZ_1M, got, sizeof(got));
	vseg_assert_same(got, want, sizeof(got), SZ_1M,
			 "a displayed primary written by the render engine");
	check_displayed(0, p, NULL);

	vseg_cb_reset(&cb);
	vseg_cb_fill_phys(&cb, p, 0, SZ_4K, 0xbad);
	out = vseg_syncobj_create(ctx.fd, 0);
	err = __vseg_cb_submit(ctx.fd, COPY, &cb, NULL, 0, &out, 1);
	igt_assert_f(err == -EINVAL,
		     "a primary without AccessedPhysically in an allocation list: %s\n",
		     vseg_errname(err));
	igt_assert(!vseg_syncobj_has_fence(ctx.fd, out));
	vseg_syncobj_destroy(ctx.fd, out);

	vseg_display_show(ctx.fd, 0, 0);
	check_not_mapped(p, "after the head was turned off");
	/* Bound but not displayed: still reachable by VA. */
	vseg_cb_reset(&cb);
	vseg_cb_fill(&cb, va + 2 * SZ_1M, sizeof(want), 0x00ff00ff);
	vseg_cb_exec_ok(ctx.fd, RENDER, &cb, "FILL of a primary by VA");
	vseg_bo_read(ctx.fd, p, 2 * SZ_1M, got, sizeof(got));
	vseg_assert_same(got, want, sizeof(got), 2 * SZ_1M,
			 "a primary written by the render engine");
	vseg_vm_unbind(ctx.fd, va);
	vseg_cb_fini(&cb);
	vseg_gem_close(ctx.fd, p);
}

/* --- errors -------------------------------------------------------------------------- */

/* The scanout ioctl's number, removed in 0.11: an empty table slot. */
#define VSEG_REMOVED_NR	0x09

static void test_invalid(void)
{
	const uint32_t ap = ctx.ap_id;
	uint32_t p, plain, apbuf;
	uint64_t arg[4];

	p = create_primary(BIT(ap), 0, NULL);
	plain = vseg_gem_create_simple(ctx.fd, PRIMARY_SIZE, BIT(ap), 0);
	apbuf = vseg_gem_create_simple(ctx.fd, PRIMARY_SIZE, BIT(ap), AP_FLAG);
	vseg_display_show(ctx.fd, 0, p);

	/* The old ioctl's number, whatever its argument: -EINVAL. */
	memset(arg, 0, sizeof(arg));
	arg[0] = (uint64_t)plain << 32 | 1;
	vseg_assert_ret(__vseg_ioctl(ctx.fd, DRM_IOWR(DRM_COMMAND_BASE +
						      VSEG_REMOVED_NR,
						      uint64_t[4]), arg),
			-EINVAL, "the removed ioctl 0x09");
	vseg_assert_ret(__vseg_ioctl(ctx.fd, DRM_IOWR(DRM_COMMAND_BASE +
						      VSEG_REMOVED_NR,
						      uint64_t[4]), NULL),
			-EINVAL, "the removed ioctl 0x09 with no argument");

	/*
	 * The display is the DRM master's: another file of the card node,
	 * and a render node, are refused with EACCES however valid their
	 * arguments.
	 */
	{
		int fds[2] = { drm_open_vseg(), drm_open_vseg_render() };
		const char *names[2] = { "another card file", "the render node" };

		for (unsigned int k = 0; k < 2; k++) {
			struct drm_vseg_gem_info oi;
			uint32_t op;
			int err;

			op = vseg_gem_create_simple(fds[k], PRIMARY_SIZE,
						    BIT(ap), PRIMARY);
			err = __vseg_display_show(fds[k], 1, op);
			igt_assert_f(err == -EACCES,
				     "showing its own primary from %s: %d (%s), expected -EACCES\n",
				     names[k], err, vseg_errname(err));
			err = __vseg_display_show(fds[k], 0, 0);
			igt_assert_f(err == -EACCES,
				     "turning head 0 off from %s: %d (%s), expected -EACCES\n",
				     names[k], err, vseg_errname(err));
			vseg_gem_info(fds[k], op, &oi);
			igt_assert_f(!(oi.placement_flags & (MAPPED | PINNED)),
				     "a primary refused to %s is mapped or pinned (flags %#x)\n",
				     names[k], oi.placement_flags);
			vseg_gem_close(fds[k], op);
			drm_close_driver(fds[k]);
		}
	}

	/* Nothing changed. */
	check_displayed(0, p, NULL);
	check_head_off(1);
	check_not_mapped(plain, "a refused non-primary");
	vseg_display_show(ctx.fd, 0, 0);
	vseg_gem_close(ctx.fd, p);
	vseg_gem_close(ctx.fd, plain);
	vseg_gem_close(ctx.fd, apbuf);
}

/* --- paging counters ------------------------------------------------------------------ */

static void check_paging_file(const struct vseg_paging *p)
{
	for (uint32_t id = 0; id <= ctx.q.num_segments; id++) {
		igt_assert_f(p->seg[id].present,
			     "debugfs paging has no line for segment %u\n", id);
		igt_assert_f(!strcmp(p->seg[id].name,
				     vseg_ctx_seg_name(&ctx, id)),
			     "debugfs paging: segment %u is named %s, expected %s\n",
			     id, p->seg[id].name, vseg_ctx_seg_name(&ctx, id));
		if (id != ctx.ap_id)
			igt_assert_f(!p->seg[id].map && !p->seg[id].unmap,
				     "debugfs paging: aperture maps counted on %s\n",
				     vseg_ctx_seg_name(&ctx, id));
	}
	for (uint32_t id = ctx.q.num_segments + 1; id <= DRM_VSEG_MAX_SEGMENTS;
	     id++)
		igt_assert_f(!p->seg[id].present,
			     "debugfs paging lists segment %u, not in the table\n",
			     id);
}

/* Counters never go down. */
static void check_monotonic(const struct vseg_paging *a,
			    const struct vseg_paging *b)
{
	for (uint32_t id = 0; id <= ctx.q.num_segments; id++) {
		const struct vseg_paging_segment *x = &a->seg[id], *y = &b->seg[id];

		igt_assert_f(y->transfers >= x->transfers &&
			     y->fills >= x->fills &&
			     y->discards >= x->discards && y->map >= x->map &&
			     y->unmap >= x->unmap,
			     "debugfs paging: a counter of %s went down\n",
			     vseg_ctx_seg_name(&ctx, id));
	}
}

#define TRANSFERS	offsetof(struct vseg_paging_segment, transfers)
#define MAP		offsetof(struct vseg_paging_segment, map)
#define UNMAP		offsetof(struct vseg_paging_segment, unmap)

/*
 * Read "paging" again, check that no counter went back since @p, and say
 * whether counter @counter (one of the above) of segment @id grew; @p
 * becomes the new reading.
 */
static bool paging_grew(struct vseg_paging *p, uint32_t id, size_t counter)
{
	struct vseg_paging now;
	uint64_t before, after;

	vseg_debugfs_read_paging(ctx.fd, &now);
	check_monotonic(p, &now);
	memcpy(&before, (const char *)&p->seg[id] + counter, sizeof(before));
	memcpy(&after, (const char *)&now.seg[id] + counter, sizeof(after));
	*p = now;
	return after > before;
}

static void test_paging(void)
{
	const uint32_t ap = ctx.ap_id;
	struct drm_vseg_gem_create c;
	struct vseg_paging p;
	uint32_t h;

	vseg_debugfs_read_paging(ctx.fd, &p);
	check_paging_file(&p);

	/* Transfers: each memory segment, out and back in. */
	for (uint32_t id = 1; id <= ctx.q.num_segments; id++) {
		if (!vseg_ctx_is_memory(&ctx, id))
			continue;
		vseg_create_args(&c, SZ_1M, BIT(id) | BIT(ctx.ap_id), AP_FLAG);
		vseg_create_prefer(&c, id, 0);
		h = vseg_gem_create(ctx.fd, &c);
		paging_grew(&p, id, TRANSFERS);
		vseg_evict(ctx.fd, &h, 1);
		igt_assert_f(paging_grew(&p, id, TRANSFERS),
			     "paging: %s transfers did not grow when a buffer moved out\n",
			     vseg_ctx_seg_name(&ctx, id));
		vseg_make_resident(ctx.fd, &h, 1);
		igt_assert_f(paging_grew(&p, id, TRANSFERS),
			     "paging: %s transfers did not grow when a buffer moved in\n",
			     vseg_ctx_seg_name(&ctx, id));
		vseg_gem_close(ctx.fd, h);
	}

	/* The aperture: mapped when an AccessedPhysically buffer comes in. */
	vseg_create_args(&c, SZ_1M, BIT(ap) | BIT(ctx.ap_id), AP_FLAG);
	vseg_create_prefer(&c, ap, 0);
	h = vseg_gem_create(ctx.fd, &c);
	igt_assert_f(paging_grew(&p, ap, MAP),
		     "paging: no aperture map for a new AccessedPhysically buffer\n");
	vseg_evict(ctx.fd, &h, 1);
	igt_assert_f(paging_grew(&p, ap, UNMAP),
		     "paging: no aperture unmap when it was evicted\n");
	vseg_make_resident(ctx.fd, &h, 1);
	igt_assert_f(paging_grew(&p, ap, MAP),
		     "paging: no aperture map when it was made resident\n");
	vseg_gem_close(ctx.fd, h);

	/* A plain buffer in the aperture is not mapped: nothing counted. */
	h = vseg_gem_create_simple(ctx.fd, SZ_1M, BIT(ap), 0);
	igt_assert_f(!paging_grew(&p, ap, MAP),
		     "paging: an aperture map counted for a buffer without AccessedPhysically\n");
	vseg_gem_close(ctx.fd, h);

	for (uint32_t id = 0; id <= ctx.q.num_segments; id++)
		igt_info("paging: %s transfers=%llu fills=%llu discards=%llu map=%llu unmap=%llu\n",
			 vseg_ctx_seg_name(&ctx, id),
			 (unsigned long long)p.seg[id].transfers,
			 (unsigned long long)p.seg[id].fills,
			 (unsigned long long)p.seg[id].discards,
			 (unsigned long long)p.seg[id].map,
			 (unsigned long long)p.seg[id].unmap);
}

/* Unloading vseg with both heads on and their handles closed. */
static void test_unload_displayed(void)
{
	uint32_t a, b;

	a = create_primary(BIT(ctx.ap_id), 0, NULL);
	b = create_primary(BIT(1) | BIT(ctx.ap_id), 1, NULL);
	vseg_display_show(ctx.fd, 0, a);
	vseg_display_show(ctx.fd, 1, b);
	check_displayed(0, a, NULL);
	check_displayed(1, b, NULL);
	vseg_gem_close(ctx.fd, a);
	vseg_gem_close(ctx.fd, b);
	vseg_ctx_unload(&ctx);
}

/* The subtests on the discrete profile. */
static const struct vseg_subtest discrete_tests[] = {
	{ "heads", test_heads,
	  "Two heads, one primary on both, the same primary twice." },
	{ "user-pins", test_user_pins,
	  "The display's pin and the application's pins are "
	  "counted apart; a pinned primary leaves the aperture "
	  "when no head shows it." },
	{ "close-displayed", test_close_displayed,
	  "Closing the last handle of a displayed primary keeps it "
	  "displayed until its head is turned off." },
	{ "close-file", test_close_file,
	  "Closing the file that set a head turns it off and "
	  "releases its primary; other files' heads stay. Only "
	  "the DRM master may set heads." },
	{ "render-primary", test_render_primary,
	  "The render engine reaches a primary by virtual "
	  "address; the copy engine refuses it." },
	{ "invalid", test_invalid,
	  "The removed scanout ioctl (0x09) fails with EINVAL and "
	  "changes nothing; showing a primary through KMS from a "
	  "file that is not the DRM master, or a render node, is "
	  "refused with EACCES." },
};

igt_main
{
	igt_fixture
		vseg_ctx_setup(&ctx);

	for_each_vseg_profile(profile) {
		igt_describe("A primary supported in the aperture only: not "
			     "mapped before shown, mapped and pinned while "
			     "displayed, unmapped when replaced or when its head "
			     "is turned off; usage and paging counters follow.");
		igt_subtest_f("aperture-%s", profile) {
			vseg_ctx_load(&ctx, profile);
			test_aperture();
			vseg_ctx_finish(&ctx, "after turning every head off");
		}

		igt_describe("A primary in each memory segment: contiguous, "
			     "pinned while displayed, brought back contiguous "
			     "when displayed from system memory.");
		igt_subtest_with_dynamic_f("memory-%s", profile) {
			vseg_ctx_load(&ctx, profile);
			for (uint32_t id = 1; id <= ctx.q.num_segments; id++)
				if (vseg_ctx_is_memory(&ctx, id))
					igt_dynamic(vseg_ctx_seg_name(&ctx, id))
						test_memory(id);
			igt_dynamic("memory-or-aperture")
				test_either();
			vseg_ctx_finish(&ctx, "after turning every head off");
		}

		igt_describe("debugfs paging: one line per segment; transfers "
			     "grow when buffers move in and out, aperture map "
			     "and unmap when ranges are bound and unbound.");
		igt_subtest_f("paging-%s", profile) {
			vseg_ctx_load(&ctx, profile);
			test_paging();
			vseg_ctx_finish(&ctx, "after turning every head off");
		}
	}

	vseg_ctx_subtests(&ctx, "discrete", discrete_tests,
			  ARRAY_SIZE(discrete_tests),
			  "after turning every head off");

	igt_describe("Unloading vseg while primaries are displayed.");
	igt_subtest("unload-displayed") {
		vseg_ctx_load(&ctx, "discrete");
		test_unload_displayed();
	}

	igt_fixture
		vseg_ctx_unload(&ctx);
}
