/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Copyright (c) 2026 The vseg authors
 */
#ifndef __VSEG_PAGING_VA_H__
#define __VSEG_PAGING_VA_H__

#include <linux/sizes.h>
#include <linux/types.h>

struct vseg_cursor;
struct vseg_device;
struct vseg_paging;

/* The paging VA space's windows: one leaf page-table page each. */
#define VSEG_PAGING_VA_WINDOW	SZ_2M
#define VSEG_PAGING_VA_DST	SZ_2M
#define VSEG_PAGING_VA_SRC	SZ_4M

int vseg_paging_va_init(struct vseg_device *vdev);
bool vseg_paging_va_ready(struct vseg_paging *pg);
int vseg_paging_va_emit(struct vseg_paging *pg, struct vseg_cursor *dst,
			struct vseg_cursor *src, u64 size, bool now);

#endif /* __VSEG_PAGING_VA_H__ */
