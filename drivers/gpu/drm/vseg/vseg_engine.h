/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Copyright (c) 2026 The vseg authors
 */
#ifndef __VSEG_ENGINE_H__
#define __VSEG_ENGINE_H__

#include <linux/types.h>

#include "vseg_engine_types.h"

struct dma_fence;
struct drm_vseg_cmd;
struct drm_vseg_patch;
struct vseg_bo;
struct vseg_client_stats;
struct vseg_device;
struct vseg_vm;

/**
 * struct vseg_submit - a submission, checked by the UAPI layer
 * @engine: VSEG_ENGINE_*.
 * @cmds: the command buffer (kernel copy; patched in place).
 * @num_cmds: commands in @cmds.
 * @bos: copy engine: the allocation list (references).
 * @num_bos: entries in @bos.
 * @patches: copy engine: the patch-location list.
 * @num_patches: entries in @patches.
 * @in_fences: fences to wait for (references).
 * @num_in: entries in @in_fences.
 * @after: a job to run after (the file's previous one on the engine), or
 *	NULL; a reference.
 * @vm: render engine: the submitting file's address space.
 * @stats: the submitting file's engine time counters.
 */
struct vseg_submit {
	u32 engine;
	struct drm_vseg_cmd *cmds;
	u32 num_cmds;
	struct vseg_bo **bos;
	u32 num_bos;
	struct drm_vseg_patch *patches;
	u32 num_patches;
	struct dma_fence **in_fences;
	u32 num_in;
	struct dma_fence *after;
	struct vseg_vm *vm;
	struct vseg_client_stats *stats;
};

int vseg_engine_init(struct vseg_device *vdev);
struct dma_fence *vseg_engine_fence_create(struct vseg_engine *e);
void vseg_engine_drain(struct vseg_device *vdev);
int vseg_engine_submit(struct vseg_device *vdev, struct vseg_submit *s,
		       struct dma_fence **fence);
void vseg_submit_release(struct vseg_submit *s);

#endif /* __VSEG_ENGINE_H__ */
