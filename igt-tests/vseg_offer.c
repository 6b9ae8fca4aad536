// SPDX-License-Identifier: MIT
/*
 * vseg_offer: WDDM's Offer and Reclaim: offered buffers are discarded
 * under memory pressure, lowest offer priority first, before any buffer in
 * use is evicted; RECLAIM says per buffer whether the content survived.
 *
 * Copyright (c) 2026 The vseg authors
 */
/**
 * TEST: vseg offer
 * Category: Core
 * Mega feature: General Core features
 * Sub-category: Memory management
 * Functionality: offer and reclaim
 * Description: DRM_IOCTL_VSEG_OFFER and DRM_IOCTL_VSEG_RECLAIM: errors,
 *	results, the order offered buffers are discarded in, what an offered
 *	buffer is refused, fdinfo's drm-purgeable, and a hostile process.
 *
 * SUBTEST: bad-args
 * Description: OFFER and RECLAIM with nonzero extensions, flags, pad or
 *	reserved fields, a zero count or a bad priority fail with -EINVAL,
 *	too many handles with -E2BIG, an unreadable handle array or an
 *	unwritable results array with -EFAULT, an unknown handle or syncobj
 *	with -ENOENT; OFFER of a pinned buffer -EBUSY, of an exported one
 *	-EINVAL, of another file's (imported through PRIME) -EPERM; RECLAIM
 *	of a buffer not offered -EINVAL. A failing list changes none of its
 *	buffers.
 *
 * SUBTEST: offer-reclaim-ok
 * Description: Without memory pressure, buffers offered at each priority
 *	(AUTO too) and reclaimed stay in the memory segment, RECLAIM says OK
 *	for each (a handle given twice too), their content is intact, and
 *	RECLAIM's syncobj gets a signalled fence.
 *
 * SUBTEST: discard-order
 * Description: In a full 8 MiB segment, two buffers in use and six
 *	offered (two HIGH offered first, then two NORMAL, then two LOW):
 *	each pair of new buffers made resident discards the two offered
 *	buffers of the lowest priority left, never a buffer in use; RECLAIM
 *	says DISCARDED for each, they read zero, the buffers in use hold
 *	their content.
 *
 * SUBTEST: refused-while-offered
 * Description: An offered buffer is refused with -EBUSY by MAKE_RESIDENT,
 *	SUBMIT (allocation list), VM_BIND, GEM_MMAP_OFFSET, PRIME export and
 *	ADDFB2 (where the device has KMS); a CPU
 *	access through a mapping made before the offer gets SIGBUS. After
 *	RECLAIM all of them work again.
 *
 * SUBTEST: fdinfo-purgeable
 * Description: fdinfo's drm-purgeable-vram shows the bytes of the offered
 *	buffers, and drops back to 0 after RECLAIM.
 *
 * SUBTEST: hostile
 * Description: An unprivileged second process (uid 65534) cannot offer or
 *	reclaim the first one's buffers (its handles do not name them:
 *	-ENOENT); the memory pressure it makes discards only offered
 *	buffers, never the first process's buffers in use, whose content
 *	stays intact.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include <drm_fourcc.h>
#include <xf86drm.h>
#include <xf86drmMode.h>

#include "igt.h"
#include "igt_vseg.h"

IGT_TEST_DESCRIPTION("Offer and Reclaim: offered buffers are discarded "
		     "first under pressure, lowest priority first.");

#define MIB		(1ull << 20)
#define VRAM		1u
#define LOW		DRM_VSEG_OFFER_PRIORITY_LOW
#define NORMAL		DRM_VSEG_OFFER_PRIORITY_NORMAL
#define HIGH		DRM_VSEG_OFFER_PRIORITY_HIGH
#define TABLE "discrete fbdev=0 table=" \
	"memory:name=vram,size=8M,flags=cpuvisible|applicationtarget|" \
	"localbudget,cpu=0xe0000000,visible=8M;" \
	"aperture:name=aperture,size=32M,flags=nonlocalbudget"

static struct vseg_ctx ctx = VSEG_CTX_INIT(VSEG_LEFTOVERS_NONE);

static int __offer_args(int fd, struct drm_vseg_offer *o)
{
	return __vseg_ioctl(fd, DRM_IOCTL_VSEG_OFFER, o);
}

static int __offer(int fd, const uint32_t *h, uint32_t n, uint32_t prio)
{
	struct drm_vseg_offer o = {
		.handles = (uintptr_t)h,
		.count = n,
		.priority = prio,
	};

	return __offer_args(fd, &o);
}

static void offer(int fd, const uint32_t *h, uint32_t n, uint32_t prio)
{
	igt_assert_eq(__offer(fd, h, n, prio), 0);
}

static int __reclaim_args(int fd, struct drm_vseg_reclaim *r)
{
	return __vseg_ioctl(fd, DRM_IOCTL_VSEG_RECLAIM, r);
}

static int __reclaim(int fd, const uint32_t *h, uint32_t n, uint32_t *res)
{
	struct drm_vseg_reclaim r = {
		.handles = (uintptr_t)h,
		.results = (uintptr_t)res,
		.count = n,
	};

	for (uint32_t i = 0; i < n; i++)
		res[i] = 0xdead;
	return __reclaim_args(fd, &r);
}

/* A 1 MiB buffer resident in the memory segment, holding pattern @seed. */
static uint32_t resident_mib(int fd, uint32_t seed)
{
	uint32_t h = vseg_gem_create_in(fd, MIB, VRAM, 0);

	vseg_bo_fill_pattern(fd, h, MIB, seed);
	vseg_make_resident(fd, &h, 1);
	igt_assert_eq_u32(vseg_gem_segment(fd, h), VRAM);
	return h;
}

static bool in_vram(int fd, uint32_t h)
{
	return vseg_gem_segment(fd, h) == VRAM;
}

static void test_bad_args(void)
{
	uint32_t h[2], res[2], big[DRM_VSEG_MAX_OFFER_HANDLES + 1] = {};
	struct drm_vseg_reclaim r;
	struct drm_vseg_offer o;
	uint32_t pinned, exported, imported;
	int dmabuf, fd2;

	vseg_ctx_start(&ctx);
	h[0] = resident_mib(ctx.fd, 1);
	h[1] = resident_mib(ctx.fd, 2);

	for (unsigned int k = 0; k < 8; k++) {
		memset(&o, 0, sizeof(o));
		o.handles = (uintptr_t)h;
		o.count = 2;
		o.priority = LOW;
		switch (k) {
		case 0:
			o.extensions = 1;
			break;
		case 1:
			o.flags = 1;
			break;
		case 2:
			o.pad = 1;
			break;
		case 3:
			o.reserved[0] = 1;
			break;
		case 4:
			o.reserved[1] = 1;
			break;
		case 5:
			o.count = 0;
			break;
		case 6:
			o.priority = 0;
			break;
		case 7:
			o.priority = DRM_VSEG_OFFER_PRIORITY_AUTO + 1;
			break;
		}
		igt_assert_f(__offer_args(ctx.fd, &o) == -EINVAL,
			     "OFFER bad argument %u not refused\n", k);
	}
	igt_assert_eq(__offer(ctx.fd, big, DRM_VSEG_MAX_OFFER_HANDLES + 1,
			      LOW), -E2BIG);
	memset(&o, 0, sizeof(o));
	o.handles = 8;
	o.count = 1;
	o.priority = LOW;
	igt_assert_eq(__offer_args(ctx.fd, &o), -EFAULT);
	big[0] = h[0];
	big[1] = h[1] + 1000;
	igt_assert_eq(__offer(ctx.fd, big, 2, LOW), -ENOENT);

	/* Pinned: -EBUSY; the good buffer before it is not offered. */
	pinned = vseg_gem_create_in(ctx.fd, MIB, VRAM, 0);
	igt_assert_eq(__vseg_make_resident_flags(ctx.fd, &pinned, 1,
						 DRM_VSEG_RESIDENCY_PIN, NULL),
		      0);
	big[1] = pinned;
	igt_assert_eq(__offer(ctx.fd, big, 2, LOW), -EBUSY);
	igt_assert_eq(__reclaim(ctx.fd, &h[0], 1, res), -EINVAL);
	igt_assert_eq(__vseg_evict_flags(ctx.fd, &pinned, 1,
					 DRM_VSEG_RESIDENCY_UNPIN, NULL), 0);

	/* Exported: other devices use it. Imported by another file: not its. */
	exported = vseg_gem_create_in(ctx.fd, MIB, VRAM, 0);
	igt_assert_eq(drmPrimeHandleToFD(ctx.fd, exported, DRM_CLOEXEC,
					 &dmabuf), 0);
	igt_assert_eq(__offer(ctx.fd, &exported, 1, LOW), -EINVAL);
	fd2 = drm_open_vseg();
	igt_assert_eq(drmPrimeFDToHandle(fd2, dmabuf, &imported), 0);
	igt_assert_eq(__offer(fd2, &imported, 1, LOW), -EPERM);
	close(dmabuf);
	close(fd2);

	/* RECLAIM: its own fields. */
	offer(ctx.fd, h, 2, NORMAL);
	for (unsigned int k = 0; k < 7; k++) {
		memset(&r, 0, sizeof(r));
		r.handles = (uintptr_t)h;
		r.results = (uintptr_t)res;
		r.count = 2;
		switch (k) {
		case 0:
			r.extensions = 1;
			break;
		case 1:
			r.flags = 1;
			break;
		case 2:
			r.pad = 1;
			break;
		case 3:
			r.reserved[0] = 1;
			break;
		case 4:
			r.reserved[1] = 1;
			break;
		case 5:
			r.count = 0;
			break;
		case 6:
			/* One of them is not offered. */
			r.handles = (uintptr_t)big;
			big[0] = h[0];
			big[1] = exported;
			break;
		}
		igt_assert_f(__reclaim_args(ctx.fd, &r) == -EINVAL,
			     "RECLAIM bad argument %u not refused\n", k);
	}
	memset(&r, 0, sizeof(r));
	r.handles = (uintptr_t)big;
	r.results = (uintptr_t)big;
	r.count = DRM_VSEG_MAX_OFFER_HANDLES + 1;
	igt_assert_eq(__reclaim_args(ctx.fd, &r), -E2BIG);
	memset(&r, 0, sizeof(r));
	r.handles = (uintptr_t)h;
	r.count = 2;
	r.results = 8;
	igt_assert_eq(__reclaim_args(ctx.fd, &r), -EFAULT);
	r.results = (uintptr_t)res;
	r.handles = 8;
	igt_assert_eq(__reclaim_args(ctx.fd, &r), -EFAULT);
	r.handles = (uintptr_t)h;
	r.syncobj = 0xfffff;
	igt_assert_eq(__reclaim_args(ctx.fd, &r), -ENOENT);
	big[0] = h[0];
	big[1] = h[1] + 1000;
	igt_assert_eq(__reclaim(ctx.fd, big, 2, res), -ENOENT);
	/* Nothing changed: both are still offered, reclaimed now. */
	igt_assert_eq(__reclaim(ctx.fd, h, 2, res), 0);
	igt_assert_eq_u32(res[0], DRM_VSEG_RECLAIM_OK);
	igt_assert_eq_u32(res[1], DRM_VSEG_RECLAIM_OK);
	igt_assert_eq(__reclaim(ctx.fd, h, 1, res), -EINVAL);

	vseg_bo_check_pattern(ctx.fd, h[0], MIB, 1, "after the refusals");
	vseg_bo_check_pattern(ctx.fd, h[1], MIB, 2, "after the refusals");
	vseg_gem_close(ctx.fd, exported);
	vseg_gem_close(ctx.fd, pinned);
	vseg_gem_close(ctx.fd, h[0]);
	vseg_gem_close(ctx.fd, h[1]);
	vseg_ctx_finish(&ctx, "after the bad arguments");
}

static void test_offer_reclaim_ok(void)
{
	static const uint32_t prios[] = {
		LOW, NORMAL, HIGH, DRM_VSEG_OFFER_PRIORITY_AUTO,
	};
	uint32_t h[4], twice[5], res[5], so;
	struct drm_vseg_reclaim r;

	vseg_ctx_start(&ctx);
	for (unsigned int i = 0; i < 4; i++) {
		h[i] = resident_mib(ctx.fd, 10 + i);
		offer(ctx.fd, &h[i], 1, prios[i]);
	}
	/* Offered again: a new priority, still offered. */
	offer(ctx.fd, &h[0], 1, HIGH);
	for (unsigned int i = 0; i < 4; i++)
		twice[i] = h[i];
	twice[4] = h[1];
	so = vseg_syncobj_create(ctx.fd, 0);
	memset(&r, 0, sizeof(r));
	r.handles = (uintptr_t)twice;
	r.results = (uintptr_t)res;
	r.count = 5;
	r.syncobj = so;
	igt_assert_eq(__reclaim_args(ctx.fd, &r), 0);
	for (unsigned int i = 0; i < 5; i++)
		igt_assert_eq_u32(res[i], DRM_VSEG_RECLAIM_OK);
	igt_assert(vseg_syncobj_has_fence(ctx.fd, so));
	vseg_syncobj_wait(ctx.fd, so, 5000);
	vseg_syncobj_destroy(ctx.fd, so);
	for (unsigned int i = 0; i < 4; i++) {
		igt_assert(in_vram(ctx.fd, h[i]));
		vseg_bo_check_pattern(ctx.fd, h[i], MIB, 10 + i,
				      "after RECLAIM");
		vseg_gem_close(ctx.fd, h[i]);
	}
	vseg_ctx_finish(&ctx, "after offer and reclaim");
}

static void test_discard_order(void)
{
	static const uint32_t order[] = { LOW, NORMAL, HIGH };
	uint32_t used[2], off[3][2], push[6], res[2];

	vseg_ctx_start(&ctx);
	for (unsigned int i = 0; i < 2; i++)
		used[i] = resident_mib(ctx.fd, 100 + i);
	for (unsigned int p = 0; p < 3; p++)
		for (unsigned int i = 0; i < 2; i++)
			off[p][i] = resident_mib(ctx.fd, 200 + 2 * p + i);
	/* The segment is full. HIGH offered first, LOW last. */
	offer(ctx.fd, off[2], 2, HIGH);
	offer(ctx.fd, off[1], 2, NORMAL);
	offer(ctx.fd, off[0], 2, LOW);

	for (unsigned int p = 0; p < 3; p++) {
		for (unsigned int i = 0; i < 2; i++) {
			push[2 * p + i] = vseg_gem_create_in(ctx.fd, MIB,
							     VRAM, 0);
			vseg_make_resident(ctx.fd, &push[2 * p + i], 1);
			igt_assert(in_vram(ctx.fd, push[2 * p + i]));
		}
		for (unsigned int q = 0; q < 3; q++)
			for (unsigned int i = 0; i < 2; i++)
				igt_assert_f(in_vram(ctx.fd, off[q][i]) == (q > p),
					     "after push %u: offered buffer of priority %u %s\n",
					     p, order[q],
					     q > p ? "discarded too early" :
						     "not discarded");
		for (unsigned int i = 0; i < 2; i++)
			igt_assert_f(in_vram(ctx.fd, used[i]),
				     "a buffer in use was evicted\n");
	}
	for (unsigned int p = 0; p < 3; p++) {
		igt_assert_eq(__reclaim(ctx.fd, off[p], 2, res), 0);
		for (unsigned int i = 0; i < 2; i++) {
			igt_assert_eq_u32(res[i], DRM_VSEG_RECLAIM_DISCARDED);
			vseg_bo_check_zero(ctx.fd, off[p][i], MIB,
					   "a discarded buffer");
		}
	}
	for (unsigned int i = 0; i < 2; i++)
		vseg_bo_check_pattern(ctx.fd, used[i], MIB, 100 + i,
				      "a buffer in use, after the pressure");
	for (unsigned int i = 0; i < 6; i++)
		vseg_gem_close(ctx.fd, push[i]);
	for (unsigned int p = 0; p < 3; p++)
		for (unsigned int i = 0; i < 2; i++)
			vseg_gem_close(ctx.fd, off[p][i]);
	for (unsigned int i = 0; i < 2; i++)
		vseg_gem_close(ctx.fd, used[i]);
	vseg_ctx_finish(&ctx, "after the discards");
}

static volatile uint32_t *touch_map;

static void touch(void *arg)
{
	(void)arg;
	touch_map[0] = 0x12345678;
}

static int __addfb(int fd, uint32_t handle, uint32_t *fb)
{
	uint32_t handles[4] = { handle }, pitches[4] = { 256 * 4 };
	uint32_t offsets[4] = {};

	*fb = 0;
	return drmModeAddFB2(fd, 256, 256, DRM_FORMAT_XRGB8888, handles,
			     pitches, offsets, fb, 0) ? -errno : 0;
}

static void test_refused(void)
{
	struct vseg_cmdbuf cb;
	uint64_t off, va = 0x100000000ull;
	drmModeResPtr res_kms;
	uint32_t h, hp, res, fb;
	int err, dmabuf;
	void *map;

	vseg_ctx_start(&ctx);
	h = resident_mib(ctx.fd, 7);
	map = vseg_gem_mmap(ctx.fd, h, MIB, PROT_READ | PROT_WRITE);
	offer(ctx.fd, &h, 1, NORMAL);
	/* SUBMIT's allocation list takes physically accessed buffers. */
	hp = vseg_gem_create_in(ctx.fd, MIB, VRAM,
				DRM_VSEG_GEM_CREATE_ACCESSED_PHYSICALLY);
	vseg_make_resident(ctx.fd, &hp, 1);
	offer(ctx.fd, &hp, 1, LOW);

	igt_assert_eq(__vseg_make_resident(ctx.fd, &h, 1, NULL), -EBUSY);
	igt_assert_eq(__vseg_make_resident_flags(ctx.fd, &h, 1,
						 DRM_VSEG_RESIDENCY_PIN, NULL),
		      -EBUSY);
	vseg_cb_init(&cb);
	vseg_cb_fill_phys(&cb, hp, 0, 4096, 0xabcd);
	igt_assert_eq(__vseg_cb_submit(ctx.fd, DRM_VSEG_ENGINE_COPY, &cb,
				       NULL, 0, NULL, 0), -EBUSY);
	igt_assert_eq(__vseg_vm_bind(ctx.fd, h, va, NULL), -EBUSY);
	igt_assert_eq(__vseg_gem_mmap_offset(ctx.fd, h, &off), -EBUSY);
	igt_assert(drmPrimeHandleToFD(ctx.fd, h, DRM_CLOEXEC, &dmabuf) &&
		   errno == EBUSY);
	res_kms = drmModeGetResources(ctx.fd);
	err = __addfb(ctx.fd, h, &fb);
	if (res_kms)
		igt_assert_f(err == -EBUSY, "ADDFB2 of an offered buffer: %d\n",
			     err);
	else
		igt_info("no KMS on this device: ADDFB2 not checked (%d)\n",
			 err);
	touch_map = map;
	igt_assert_f(vseg_catch_sigbus(touch, NULL),
		     "a CPU write to an offered buffer did not fault\n");
	/* Still offered, its content untouched. */
	igt_assert_eq(__reclaim(ctx.fd, &h, 1, &res), 0);
	igt_assert_eq_u32(res, DRM_VSEG_RECLAIM_OK);
	vseg_bo_check_pattern(ctx.fd, h, MIB, 7, "after the refusals");

	igt_assert_eq(__reclaim(ctx.fd, &hp, 1, &res), 0);
	igt_assert_eq_u32(res, DRM_VSEG_RECLAIM_OK);

	/* Usable again. */
	vseg_make_resident(ctx.fd, &h, 1);
	vseg_make_resident(ctx.fd, &hp, 1);
	vseg_cb_exec_ok(ctx.fd, DRM_VSEG_ENGINE_COPY, &cb, "after RECLAIM");
	vseg_cb_fini(&cb);
	igt_assert_eq(__vseg_gem_mmap_offset(ctx.fd, h, &off), 0);
	igt_assert_eq(__vseg_vm_bind(ctx.fd, h, va, NULL), 0);
	vseg_vm_unbind(ctx.fd, va);
	igt_assert_eq(drmPrimeHandleToFD(ctx.fd, h, DRM_CLOEXEC, &dmabuf), 0);
	close(dmabuf);
	if (res_kms) {
		igt_assert_eq(__addfb(ctx.fd, h, &fb), 0);
		drmModeRmFB(ctx.fd, fb);
		drmModeFreeResources(res_kms);
	}
	touch(NULL);
	munmap(map, MIB);
	vseg_gem_close(ctx.fd, hp);
	vseg_gem_close(ctx.fd, h);
	vseg_ctx_finish(&ctx, "after the refusals");
}

/* fdinfo's drm-purgeable-vram of @fd, in bytes. */
static uint64_t purgeable(int fd)
{
	char path[64], line[256], unit[8];
	unsigned long long v;
	uint64_t bytes = ~0ull;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/self/fdinfo/%d", fd);
	f = fopen(path, "r");
	igt_assert(f);
	while (fgets(line, sizeof(line), f)) {
		unit[0] = 0;
		if (sscanf(line, "drm-purgeable-vram: %llu %7s", &v, unit) < 1)
			continue;
		bytes = v;
		if (!strcmp(unit, "KiB"))
			bytes = v << 10;
		else if (!strcmp(unit, "MiB"))
			bytes = v << 20;
		else if (!strcmp(unit, "GiB"))
			bytes = v << 30;
	}
	fclose(f);
	igt_assert_f(bytes != ~0ull, "no drm-purgeable-vram in fdinfo\n");
	return bytes;
}

static void test_fdinfo(void)
{
	uint32_t h[3], res[2];

	vseg_ctx_start(&ctx);
	for (unsigned int i = 0; i < 3; i++)
		h[i] = resident_mib(ctx.fd, 30 + i);
	igt_assert_eq_u64(purgeable(ctx.fd), 0);
	offer(ctx.fd, h, 2, LOW);
	igt_assert_eq_u64(purgeable(ctx.fd), 2 * MIB);
	igt_assert_eq(__reclaim(ctx.fd, h, 1, res), 0);
	igt_assert_eq_u64(purgeable(ctx.fd), MIB);
	igt_assert_eq(__reclaim(ctx.fd, &h[1], 1, res), 0);
	igt_assert_eq_u64(purgeable(ctx.fd), 0);
	for (unsigned int i = 0; i < 3; i++)
		vseg_gem_close(ctx.fd, h[i]);
	vseg_ctx_finish(&ctx, "after the fdinfo checks");
}

static void test_hostile(void)
{
	uint32_t used[2], off[4], res[4];
	int to_child[2], to_parent[2];
	unsigned int discarded = 0;

	vseg_ctx_start(&ctx);
	for (unsigned int i = 0; i < 2; i++)
		used[i] = resident_mib(ctx.fd, 50 + i);
	for (unsigned int i = 0; i < 4; i++)
		off[i] = resident_mib(ctx.fd, 60 + i);
	offer(ctx.fd, off, 4, NORMAL);

	igt_assert_eq(pipe(to_child), 0);
	igt_assert_eq(pipe(to_parent), 0);
	igt_fork(child, 1) {
		int cfd = drm_open_vseg_render();
		uint32_t mine[4], r[4];

		vseg_drop_privileges();
		/* The parent's handle numbers name nothing in its file. */
		igt_assert_eq(__offer(cfd, used, 2, LOW), -ENOENT);
		igt_assert_eq(__reclaim(cfd, off, 4, r), -ENOENT);
		/* Pressure: as much as was free plus what was offered. */
		for (unsigned int i = 0; i < 4; i++) {
			mine[i] = vseg_gem_create_in(cfd, MIB, VRAM, 0);
			vseg_make_resident(cfd, &mine[i], 1);
			igt_assert(in_vram(cfd, mine[i]));
		}
		vseg_sync_write(to_parent[1]);
		vseg_sync_read(to_child[0]);
		for (unsigned int i = 0; i < 4; i++)
			vseg_gem_close(cfd, mine[i]);
		close(cfd);
	}
	vseg_sync_read(to_parent[0]);
	for (unsigned int i = 0; i < 2; i++)
		igt_assert_f(in_vram(ctx.fd, used[i]),
			     "the hostile process evicted a buffer in use\n");
	for (unsigned int i = 0; i < 4; i++)
		discarded += !in_vram(ctx.fd, off[i]);
	vseg_sync_write(to_child[1]);
	igt_waitchildren();
	igt_info("the hostile pressure discarded %u of 4 offered buffers\n",
		 discarded);
	igt_assert_lt(0, discarded);

	igt_assert_eq(__reclaim(ctx.fd, off, 4, res), 0);
	for (unsigned int i = 0; i < 4; i++) {
		if (res[i] == DRM_VSEG_RECLAIM_DISCARDED) {
			vseg_bo_check_zero(ctx.fd, off[i], MIB,
					   "a discarded buffer");
			discarded--;
		} else {
			igt_assert_eq_u32(res[i], DRM_VSEG_RECLAIM_OK);
			vseg_bo_check_pattern(ctx.fd, off[i], MIB, 60 + i,
					      "an offered buffer kept");
		}
	}
	igt_assert_eq_u32(discarded, 0);
	for (unsigned int i = 0; i < 2; i++)
		vseg_bo_check_pattern(ctx.fd, used[i], MIB, 50 + i,
				      "a buffer in use, after the hostile push");
	for (unsigned int i = 0; i < 2; i++) {
		close(to_child[i]);
		close(to_parent[i]);
	}
	for (unsigned int i = 0; i < 4; i++)
		vseg_gem_close(ctx.fd, off[i]);
	for (unsigned int i = 0; i < 2; i++)
		vseg_gem_close(ctx.fd, used[i]);
	vseg_ctx_finish(&ctx, "after the hostile push");
}

igt_main
{
	igt_fixture {
		vseg_ctx_setup(&ctx);
		vseg_ctx_load(&ctx, TABLE);
	}

	igt_describe("OFFER's and RECLAIM's errors; nothing changes on one.");
	igt_subtest("bad-args")
		test_bad_args();

	igt_describe("Without pressure, reclaimed buffers are intact (OK).");
	igt_subtest("offer-reclaim-ok")
		test_offer_reclaim_ok();

	igt_describe("Pressure discards offered buffers, LOW first, never "
		     "a buffer in use.");
	igt_subtest("discard-order")
		test_discard_order();

	igt_describe("An offered buffer is refused until RECLAIM.");
	igt_subtest("refused-while-offered")
		test_refused();

	igt_describe("fdinfo's drm-purgeable counts offered bytes.");
	igt_subtest("fdinfo-purgeable")
		test_fdinfo();

	igt_describe("A hostile unprivileged process cannot reclaim, and its "
		     "pressure discards offered buffers only.");
	igt_subtest("hostile")
		test_hostile();

	igt_fixture
		vseg_ctx_unload(&ctx);
}
