// SPDX-License-Identifier: MIT
/*
 * Gates (vgem fences imported into syncobjs) and fence identities.
 *
 * Copyright (c) 2026 The vseg authors
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include <linux/sync_file.h>
#include <xf86drm.h>

#include "dmabuf_sync_file.h"
#include "drmtest.h"
#include "igt.h"
#include "igt_syncobj.h"
#include "igt_vgem.h"
#include "igt_vseg_fence.h"

void vseg_gate_init(struct vseg_gate *g)
{
	int dmabuf;

	memset(g, 0, sizeof(*g));
	g->sync_file = -1;
	g->vgem = drm_open_driver(DRIVER_VGEM);
	igt_require_f(vgem_has_fences(g->vgem), "vgem has no fences\n");
	igt_require_f(has_dmabuf_export_sync_file(g->vgem),
		      "no DMA_BUF_IOCTL_EXPORT_SYNC_FILE\n");
	g->bo.width = 1;
	g->bo.height = 1;
	g->bo.bpp = 32;
	vgem_create(g->vgem, &g->bo);
	igt_assert_eq(drmPrimeHandleToFD(g->vgem, g->bo.handle, DRM_CLOEXEC,
					 &dmabuf), 0);
	clock_gettime(CLOCK_MONOTONIC, &g->closed_at);
	g->fence = vgem_fence_attach(g->vgem, &g->bo, VGEM_FENCE_WRITE);
	/* A writer's view: every fence of the buffer, vgem's included. */
	g->sync_file = dmabuf_export_sync_file(dmabuf, DMA_BUF_SYNC_WRITE);
	close(dmabuf);
	igt_assert(vseg_gate_is_closed(g));
}

uint32_t vseg_gate_syncobj(const struct vseg_gate *g, int fd)
{
	uint32_t h = syncobj_create(fd, 0);

	syncobj_import_sync_file(fd, h, g->sync_file);
	return h;
}

bool vseg_gate_is_closed(const struct vseg_gate *g)
{
	return sync_file_busy(g->sync_file);
}

unsigned int vseg_gate_age_ms(const struct vseg_gate *g)
{
	struct timespec now;

	clock_gettime(CLOCK_MONOTONIC, &now);
	return (now.tv_sec - g->closed_at.tv_sec) * 1000 +
	       (now.tv_nsec - g->closed_at.tv_nsec) / 1000000;
}

void vseg_gate_assert_closed(const struct vseg_gate *g, const char *what)
{
	igt_assert_f(!g->opened && vseg_gate_is_closed(g),
		     "%s: the gate opened before the check was made (%u ms after it closed; vgem opens its fences after %u ms)\n",
		     what, vseg_gate_age_ms(g), VSEG_GATE_MAX_MS);
}

bool vseg_gate_open(struct vseg_gate *g)
{
	int err = __vgem_fence_signal(g->vgem, g->fence);

	igt_assert_f(err == 0 || err == -ETIMEDOUT,
		     "VGEM_FENCE_SIGNAL: %d (%s)\n", err, strerror(-err));
	g->opened = true;
	return err == 0;
}

void vseg_gate_fini(struct vseg_gate *g)
{
	struct drm_gem_close c = { .handle = g->bo.handle };

	if (g->sync_file < 0)
		return;
	if (!g->opened)
		vseg_gate_open(g);
	close(g->sync_file);
	g->sync_file = -1;
	do_ioctl(g->vgem, DRM_IOCTL_GEM_CLOSE, &c);
	drm_close_driver(g->vgem);
	g->vgem = -1;
}

bool vseg_sync_file_fence(int sync_file, struct vseg_fence_id *id)
{
	struct sync_fence_info fi;
	struct sync_file_info info;
	unsigned long long context;
	long long seqno;
	size_t prefix;
	char tail[2];

	memset(id, 0, sizeof(*id));
	memset(&fi, 0, sizeof(fi));
	memset(&info, 0, sizeof(info));
	info.num_fences = 1;
	info.sync_fence_info = (uintptr_t)&fi;
	if (ioctl(sync_file, SYNC_IOC_FILE_INFO, &info) || info.num_fences != 1)
		return false;
	/* A name of 31 characters may have been cut short. */
	if (strnlen(info.name, sizeof(info.name)) >= sizeof(info.name) - 1)
		return false;
	snprintf(id->driver, sizeof(id->driver), "%s", fi.driver_name);
	snprintf(id->timeline, sizeof(id->timeline), "%s", fi.obj_name);
	id->status = fi.status;
	/* "<driver>-<timeline><context>-<seqno>", at most 31 characters. */
	prefix = strlen(id->driver) + 1 + strlen(id->timeline);
	if (strncmp(info.name, id->driver, strlen(id->driver)) ||
	    info.name[strlen(id->driver)] != '-' ||
	    strncmp(info.name + strlen(id->driver) + 1, id->timeline,
		    strlen(id->timeline)) ||
	    sscanf(info.name + prefix, "%llu-%lld%1s", &context, &seqno,
		   tail) != 2 || seqno < 0)
		return false;
	id->context = context;
	id->seqno = seqno;
	return true;
}

void vseg_syncobj_fence(int fd, uint32_t handle, struct vseg_fence_id *id)
{
	int sf = syncobj_handle_to_fd(fd, handle,
				      DRM_SYNCOBJ_HANDLE_TO_FD_FLAGS_EXPORT_SYNC_FILE);

	igt_assert_f(vseg_sync_file_fence(sf, id),
		     "syncobj %u: its sync_file does not name one fence\n",
		     handle);
	close(sf);
}
