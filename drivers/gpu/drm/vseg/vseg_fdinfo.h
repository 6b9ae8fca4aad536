/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Copyright (c) 2026 The vseg authors
 */
#ifndef __VSEG_FDINFO_H__
#define __VSEG_FDINFO_H__

struct drm_file;
struct drm_printer;

void vseg_show_fdinfo(struct drm_printer *p, struct drm_file *file);

#endif /* __VSEG_FDINFO_H__ */
