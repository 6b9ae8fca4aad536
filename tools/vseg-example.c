// SPDX-License-Identifier: MIT
/*
 * vseg-example: create buffers with WDDM allocation properties and show
 * where they went.
 *
 * It reads the segment table, creates one buffer per cell of the
 * AccessedPhysically table that the device can hold, writes a pattern into
 * each through mmap, evicts them all to system memory, makes them resident
 * again and checks every byte. After each step it prints GEM_INFO of every
 * buffer: segment id, offset (the physical reference when contiguous),
 * aperture range, GPU physical address (the segment's base address + the
 * offset, when it has one), moves.
 *
 *   vseg-example [/dev/dri/cardN]
 *
 * Exit status: 0 when every buffer was placed as the rules say and its data
 * survived the moves.
 *
 * Last, it submits a FILL to the physically addressed copy engine: accepted
 * for the AccessedPhysically buffer (the kernel patches its physical
 * address into the command), refused with EINVAL for a plain buffer.
 */

#include <errno.h>
#include <fcntl.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <unistd.h>

#include <xf86drm.h>

#include "vseg_drm.h"

#define SIZE (1u << 20)

struct buf {
	const char *what;
	uint32_t flags;
	uint32_t supported;
	uint32_t prefer;
	uint32_t handle;
	uint32_t expect_info;	/* DRM_VSEG_INFO_* that must be set */
	uint32_t expect_seg;
};

static int fd;
static struct drm_vseg_segment_info seg[DRM_VSEG_MAX_SEGMENTS];
static uint32_t nseg, aperture;

static int open_vseg(const char *path)
{
	char name[32];
	int i;

	if (path)
		return open(path, O_RDWR | O_CLOEXEC);
	for (i = 0; i < 64; i++) {
		drmVersionPtr v;
		int f;

		snprintf(name, sizeof(name), "/dev/dri/card%d", i);
		f = open(name, O_RDWR | O_CLOEXEC);
		if (f < 0)
			continue;
		v = drmGetVersion(f);
		if (v && !strcmp(v->name, "vseg")) {
			drmFreeVersion(v);
			return f;
		}
		if (v)
			drmFreeVersion(v);
		close(f);
	}
	errno = ENODEV;
	return -1;
}

static void query(void)
{
	struct drm_vseg_query_segments q = { 0 };
	uint32_t i;

	if (drmIoctl(fd, DRM_IOCTL_VSEG_QUERY_SEGMENTS, &q))
		goto fail;
	q.segments = (uintptr_t)seg;
	if (drmIoctl(fd, DRM_IOCTL_VSEG_QUERY_SEGMENTS, &q))
		goto fail;
	nseg = q.num_segments;
	printf("segment table: %u segments (id 0 is system memory)\n", nseg);
	for (i = 0; i < nseg; i++) {
		printf("  %u %-9s %-8s %6llu KiB, %2u KiB pages, cpu-visible %llu KiB\n",
		       seg[i].id, seg[i].name,
		       seg[i].kind == DRM_VSEG_SEGMENT_KIND_APERTURE ? "aperture" : "memory",
		       (unsigned long long)seg[i].size >> 10,
		       seg[i].page_size >> 10,
		       (unsigned long long)seg[i].cpu_visible_size >> 10);
		if (seg[i].kind == DRM_VSEG_SEGMENT_KIND_APERTURE)
			aperture = seg[i].id;
	}
	return;
fail:
	perror("vseg-example: QUERY_SEGMENTS");
	exit(1);
}

static int info(struct buf *b, struct drm_vseg_gem_info *i)
{
	memset(i, 0, sizeof(*i));
	i->handle = b->handle;
	return drmIoctl(fd, DRM_IOCTL_VSEG_GEM_INFO, i);
}

static void show(struct buf *b)
{
	struct drm_vseg_gem_info i;

	if (info(b, &i)) {
		perror("GEM_INFO");
		return;
	}
	printf("  %-34s segment %u", b->what, i.segment_id);
	if (i.placement_flags & DRM_VSEG_INFO_CONTIGUOUS)
		printf(" offset 0x%08llx contiguous", (unsigned long long)i.offset);
	else
		printf(" (set of pages)              ");
	if (i.placement_flags & DRM_VSEG_INFO_APERTURE_MAPPED)
		printf(" aperture 0x%llx", (unsigned long long)i.aperture_offset);
	/* Base address of the segment + offset: what the copy engine takes. */
	if (i.gpu_address != DRM_VSEG_GPU_ADDRESS_NONE)
		printf(" gpu 0x%llx", (unsigned long long)i.gpu_address);
	printf(" moves %llu\n", (unsigned long long)i.moves);
}

static int residency(unsigned long req, struct buf *b, int n)
{
	uint32_t h[8];
	struct drm_vseg_residency r = { 0 };
	int k;

	for (k = 0; k < n; k++)
		h[k] = b[k].handle;
	r.handles = (uintptr_t)h;
	r.count = n;
	return drmIoctl(fd, req, &r);
}

static void *map(struct buf *b)
{
	struct drm_vseg_gem_mmap_offset o = { .handle = b->handle };
	void *p;

	if (drmIoctl(fd, DRM_IOCTL_VSEG_GEM_MMAP_OFFSET, &o))
		return NULL;
	p = mmap(NULL, SIZE, PROT_READ | PROT_WRITE, MAP_SHARED, fd, o.offset);
	return p == MAP_FAILED ? NULL : p;
}

/* FILL @b with @value on the copy engine; the kernel patches the address. */
static int physical_fill(struct buf *b, uint32_t value)
{
	struct drm_vseg_cmd cmd = {
		.opcode = DRM_VSEG_CMD_FILL, .size = SIZE, .value = value,
	};
	struct drm_vseg_allocation alloc = {
		.handle = b->handle, .flags = DRM_VSEG_ALLOCATION_WRITE,
	};
	struct drm_vseg_patch patch = {
		.allocation_index = 0,
		.patch_offset = offsetof(struct drm_vseg_cmd, dst),
	};
	struct drm_vseg_submit s = {
		.engine = DRM_VSEG_ENGINE_COPY,
		.commands = (uintptr_t)&cmd,
		.commands_size = sizeof(cmd),
		.allocations = (uintptr_t)&alloc,
		.num_allocations = 1,
		.patches = (uintptr_t)&patch,
		.num_patches = 1,
		.sync_size = sizeof(struct drm_vseg_sync),
	};
	struct drm_vseg_sync out = {};
	uint32_t so;
	int err;

	if (drmSyncobjCreate(fd, 0, &so))
		return -errno;
	out.handle = so;
	s.out_syncs = (uintptr_t)&out;
	s.num_out_syncs = 1;
	err = drmIoctl(fd, DRM_IOCTL_VSEG_SUBMIT, &s) ? -errno : 0;
	if (!err && drmSyncobjWait(fd, &so, 1, INT64_MAX, 0, NULL))
		err = -errno;
	drmSyncobjDestroy(fd, so);
	return err;
}

int main(int argc, char **argv)
{
	struct buf b[4];
	uint32_t mem = 0, i;
	int n = 0, k, bad = 0;

	fd = open_vseg(argc > 1 ? argv[1] : NULL);
	if (fd < 0) {
		perror("vseg-example: no vseg device");
		return 1;
	}
	query();
	for (i = 0; i < nseg && !mem; i++)
		if (seg[i].kind == DRM_VSEG_SEGMENT_KIND_MEMORY && seg[i].cpu_visible_size)
			mem = seg[i].id;

	memset(b, 0, sizeof(b));
	if (mem) {
		b[n++] = (struct buf){ "AccessedPhysically in segment", DRM_VSEG_GEM_CREATE_ACCESSED_PHYSICALLY,
				       1u << mem | 1u << aperture, mem, 0,
				       DRM_VSEG_INFO_CONTIGUOUS, mem };
		b[n++] = (struct buf){ "plain buffer in segment", 0,
				       1u << mem | 1u << aperture, mem, 0, 0, mem };
	}
	/*
	 * System memory is segment 0, which a program never names (-EINVAL):
	 * the aperture's id places a buffer there, mapped into the aperture
	 * only if it is AccessedPhysically.
	 */
	b[n++] = (struct buf){ "AccessedPhysically in aperture", DRM_VSEG_GEM_CREATE_ACCESSED_PHYSICALLY,
			       1u << aperture, aperture, 0,
			       DRM_VSEG_INFO_APERTURE_MAPPED, aperture };
	b[n++] = (struct buf){ "plain buffer in system memory", 0,
			       1u << aperture, aperture, 0, 0, aperture };

	printf("creating %d buffers of %u KiB\n", n, SIZE >> 10);
	for (k = 0; k < n; k++) {
		struct drm_vseg_gem_create c = { 0 };
		struct drm_vseg_gem_info in;
		unsigned char *p;

		c.size = SIZE;
		c.flags = b[k].flags;
		c.supported_segments = b[k].supported;
		c.num_preferred = 1;
		c.preferred[0].segment_id = b[k].prefer;
		if (drmIoctl(fd, DRM_IOCTL_VSEG_GEM_CREATE, &c)) {
			perror("GEM_CREATE");
			return 1;
		}
		b[k].handle = c.handle;
		if (info(&b[k], &in) || in.segment_id != b[k].expect_seg ||
		    (in.placement_flags & b[k].expect_info) != b[k].expect_info) {
			printf("  %s: not placed as expected\n", b[k].what);
			bad++;
		}
		p = map(&b[k]);
		if (!p) {
			perror("mmap");
			return 1;
		}
		memset(p, 0xa0 + k, SIZE);
		munmap(p, SIZE);
	}
	printf("placed:\n");
	for (k = 0; k < n; k++)
		show(&b[k]);

	if (residency(DRM_IOCTL_VSEG_EVICT, b, n)) {
		perror("EVICT");
		return 1;
	}
	printf("after EVICT (everything in system memory, nothing mapped):\n");
	for (k = 0; k < n; k++)
		show(&b[k]);

	if (residency(DRM_IOCTL_VSEG_MAKE_RESIDENT, b, n)) {
		perror("MAKE_RESIDENT");
		return 1;
	}
	printf("after MAKE_RESIDENT:\n");
	for (k = 0; k < n; k++) {
		unsigned char *p = map(&b[k]);
		uint32_t j;

		show(&b[k]);
		for (j = 0; p && j < SIZE; j++)
			if (p[j] != 0xa0 + k) {
				printf("  %s: byte %u lost\n", b[k].what, j);
				bad++;
				break;
			}
		if (p)
			munmap(p, SIZE);
	}
	printf("physical submission (copy engine, FILL patched with the buffer's address):\n");
	for (k = 0; k < n; k++) {
		int err = physical_fill(&b[k], 0x5eed0000 + k);
		int want = b[k].flags & DRM_VSEG_GEM_CREATE_ACCESSED_PHYSICALLY ? 0 : -EINVAL;
		unsigned int *p = err ? NULL : map(&b[k]);

		printf("  %-34s %s\n", b[k].what,
		       err ? (err == -EINVAL ? "rejected: EINVAL (not AccessedPhysically)" : strerror(-err)) :
		       "accepted, filled by the engine");
		if (err != want)
			bad++;
		if (p) {
			if (p[0] != 0x5eed0000u + k || p[SIZE / 4 - 1] != 0x5eed0000u + k) {
				printf("  %s: the engine's data is not there\n", b[k].what);
				bad++;
			}
			munmap(p, SIZE);
		}
	}
	printf("%s\n", bad ? "FAILED" : "every buffer placed by the rules, every byte intact");
	close(fd);
	return bad ? 1 : 0;
}
