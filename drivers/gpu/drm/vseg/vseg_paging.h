/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Copyright (c) 2026 The vseg authors
 */
#ifndef __VSEG_PAGING_H__
#define __VSEG_PAGING_H__

#include <linux/types.h>

#include "vseg_paging_types.h"

struct dma_fence;
struct dma_resv;
struct seq_file;
struct vseg_client_stats;
struct vseg_device;

u64 vseg_paging_addr(struct vseg_device *vdev, u32 seg, u64 offset);
int vseg_paging_init(struct vseg_device *vdev);
void vseg_paging_begin(struct vseg_paging *pg, struct dma_resv *resv);
void vseg_paging_charge(struct vseg_paging *pg, struct vseg_client_stats *owner);
int vseg_paging_emit(struct vseg_paging *pg, u32 opcode, u32 flags, u64 dst,
		     u64 src, u64 size);
int vseg_paging_emit_update(struct vseg_paging *pg, u64 dst,
			    struct vseg_paging_pte_update *u);
int vseg_paging_run(struct vseg_paging *pg, u32 opcode, u32 flags, u64 dst,
		    u64 src, u64 size);
bool vseg_paging_idle(struct vseg_paging *pg);
struct dma_fence *vseg_paging_end(struct vseg_paging *pg);
int vseg_paging_barrier(struct vseg_paging *pg);
void vseg_paging_abort(struct vseg_paging *pg);
void vseg_paging_wait_idle(struct vseg_paging *pg);
void vseg_paging_show(struct vseg_paging *pg, struct seq_file *m);

#endif /* __VSEG_PAGING_H__ */
