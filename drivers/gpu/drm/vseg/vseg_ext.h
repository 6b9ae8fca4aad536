/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Copyright (c) 2026 The vseg authors
 */
#ifndef __VSEG_EXT_H__
#define __VSEG_EXT_H__

#include <linux/types.h>

/**
 * struct vseg_ext_handler - an extension an ioctl takes
 * @name: the extension's name (&drm_vseg_user_extension.name).
 * @apply: checks the extension at @ext (the user address of its
 *	&struct drm_vseg_user_extension header) and records it in @data;
 *	returns 0 or a negative error code.
 */
struct vseg_ext_handler {
	u32 name;
	int (*apply)(u64 ext, void *data);
};

int vseg_ext_walk(u64 chain, const struct vseg_ext_handler *handlers,
		  unsigned int num_handlers, void *data);

#endif /* __VSEG_EXT_H__ */
