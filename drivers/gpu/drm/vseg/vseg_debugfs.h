/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Copyright (c) 2026 The vseg authors
 */
#ifndef __VSEG_DEBUGFS_H__
#define __VSEG_DEBUGFS_H__

struct drm_minor;

void vseg_debugfs_init(struct drm_minor *minor);

#endif /* __VSEG_DEBUGFS_H__ */
