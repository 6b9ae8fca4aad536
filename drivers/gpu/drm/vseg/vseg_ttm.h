/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Copyright (c) 2026 The vseg authors
 */
#ifndef __VSEG_TTM_H__
#define __VSEG_TTM_H__

#include <linux/types.h>

#include "vseg_device_types.h"

struct iosys_map;
struct ttm_buffer_object;
struct ttm_resource;

int vseg_ttm_init(struct vseg_device *vdev);
int vseg_ttm_vmap(struct ttm_buffer_object *bo, struct iosys_map *map);
void vseg_ttm_vunmap(struct ttm_buffer_object *bo, struct iosys_map *map);
void vseg_ttm_usage(struct vseg_device *vdev, u32 id, struct vseg_usage *u);
const char *vseg_ttm_mem_type_name(u32 mem_type);
int vseg_ttm_access(struct ttm_buffer_object *bo, unsigned long offset,
		    void *buf, int len, int write);

#endif /* __VSEG_TTM_H__ */
