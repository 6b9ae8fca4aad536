/* SPDX-License-Identifier: MIT */
/*
 * Fences a test controls and fences it looks at.
 *
 * A gate holds jobs back on an input syncobj until the test opens it: a
 * vgem fence (DRM_IOCTL_VGEM_FENCE_ATTACH on a vgem buffer of its own),
 * taken out of the buffer's dma-buf as a sync_file
 * (DMA_BUF_IOCTL_EXPORT_SYNC_FILE) and imported into a syncobj of any
 * device (DRM_IOCTL_SYNCOBJ_FD_TO_HANDLE with IMPORT_SYNC_FILE); opened
 * with DRM_IOCTL_VGEM_FENCE_SIGNAL. vgem signals its fences by itself
 * 10 s after they were attached: a gate is closed for at most that long,
 * and a test asserts with vseg_gate_assert_closed() that it still was
 * when it checked something held back by it.
 *
 * A sync_file of one fence names it "<driver>-<timeline><context>-<seqno>"
 * (SYNC_IOC_FILE_INFO): vseg_sync_file_fence() gives a job fence's
 * context and seqno.
 *
 * Copyright (c) 2026 The vseg authors
 */
#ifndef IGT_VSEG_FENCE_H
#define IGT_VSEG_FENCE_H

#include <stdbool.h>
#include <stdint.h>
#include <time.h>

#include "igt_vgem.h"

/* vgem's own timeout: an unsignalled vgem fence signals after this. */
#define VSEG_GATE_MAX_MS	10000

/**
 * struct vseg_gate - a fence the test opens
 * @vgem: the vgem fd the fence belongs to.
 * @bo: vgem's buffer the fence is attached to.
 * @fence: vgem's fence id.
 * @sync_file: the fence as a sync_file, -1 once finished.
 * @opened: vseg_gate_open() was called.
 * @closed_at: CLOCK_MONOTONIC time the fence was attached.
 */
struct vseg_gate {
	int vgem;
	struct vgem_bo bo;
	uint32_t fence;
	int sync_file;
	bool opened;
	struct timespec closed_at;
};

/*
 * A closed gate on a vgem fd of its own (vgem loaded if needed);
 * igt_require()s vgem fences and DMA_BUF_IOCTL_EXPORT_SYNC_FILE.
 */
void vseg_gate_init(struct vseg_gate *g);
/* A new binary syncobj of @fd holding the gate's fence. */
uint32_t vseg_gate_syncobj(const struct vseg_gate *g, int fd);
/* Is the gate's fence still unsignalled? */
bool vseg_gate_is_closed(const struct vseg_gate *g);
/* Milliseconds since the gate was closed (its fence attached). */
unsigned int vseg_gate_age_ms(const struct vseg_gate *g);
/*
 * Assert that the gate is still closed: a check of something it holds
 * back, made just before, is valid. Fails naming @what (the guest was too
 * slow: vgem opened the gate by its own timeout).
 */
void vseg_gate_assert_closed(const struct vseg_gate *g, const char *what);
/* Open the gate: true, or false if vgem's timeout had opened it already. */
bool vseg_gate_open(struct vseg_gate *g);
/* Open it if it is not, close its fds. */
void vseg_gate_fini(struct vseg_gate *g);

/**
 * struct vseg_fence_id - what a sync_file of one fence says of it
 * @driver: the fence's driver name ("drm_sched" for a vseg job's fence).
 * @timeline: its timeline name ("vseg-copy", "vseg-render", ...).
 * @context: its fence context.
 * @seqno: its seqno on that context.
 * @status: 1 signalled, 0 not yet, or its negative error.
 */
struct vseg_fence_id {
	char driver[32];
	char timeline[32];
	uint64_t context;
	uint64_t seqno;
	int status;
};

/*
 * Identify the fence of @sync_file (a sync_file of exactly one fence):
 * false if it holds another number of fences or its name does not parse.
 */
bool vseg_sync_file_fence(int sync_file, struct vseg_fence_id *id);
/* The same for the fence of syncobj @handle of @fd; asserts it has one. */
void vseg_syncobj_fence(int fd, uint32_t handle, struct vseg_fence_id *id);

#endif /* IGT_VSEG_FENCE_H */
