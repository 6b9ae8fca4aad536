/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Copyright (c) 2026 The vseg authors
 */
#ifndef __VSEG_DISPLAY_TYPES_H__
#define __VSEG_DISPLAY_TYPES_H__

#include <linux/mutex.h>

struct drm_file;
struct vseg_bo;

#define VSEG_NUM_HEADS	2

/**
 * struct vseg_display - the virtual display
 * @lock: protects @head and @owner; taken before any reservation.
 * @head: the primary each head scans out, referenced, or NULL.
 * @owner: the file that set each head (compared, never dereferenced).
 * @saved: during a power transition (vseg_pm.c): the primary each head
 *	showed, referenced, to show again on resume; else NULL.
 * @saved_owner: the file that set it.
 */
struct vseg_display {
	struct mutex lock; /* see above */
	struct vseg_bo *head[VSEG_NUM_HEADS];
	const struct drm_file *owner[VSEG_NUM_HEADS];
	struct vseg_bo *saved[VSEG_NUM_HEADS];
	const struct drm_file *saved_owner[VSEG_NUM_HEADS];
};

#endif /* __VSEG_DISPLAY_TYPES_H__ */
