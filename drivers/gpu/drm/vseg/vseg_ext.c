// SPDX-License-Identifier: GPL-2.0-only
/*
 * Copyright (c) 2026 The vseg authors
 *
 * Extension chains: the @extensions field of an ioctl argument points to
 * a user-space list of &struct drm_vseg_user_extension headers, each the
 * start of a structure the ioctl defines. The walk is bounded, so that a
 * long or looping list costs a client nothing but -E2BIG.
 */

#include <linux/bitops.h>
#include <linux/errno.h>
#include <linux/uaccess.h>
#include <uapi/drm/vseg_drm.h>

#include "vseg_ext.h"

/* The chain's length: -E2BIG past DRM_VSEG_MAX_EXTENSIONS links. */
static int ext_count(u64 chain)
{
	struct drm_vseg_user_extension ext;
	unsigned int n;

	for (n = 0; chain; n++) {
		if (n >= DRM_VSEG_MAX_EXTENSIONS)
			return -E2BIG;
		if (copy_from_user(&ext, u64_to_user_ptr(chain), sizeof(ext)))
			return -EFAULT;
		chain = ext.next_extension;
	}
	return 0;
}

/**
 * vseg_ext_walk() - check and apply a chain of extensions
 * @chain: user address of the first link, or 0 for none
 * @handlers: the extensions the ioctl takes
 * @num_handlers: entries in @handlers, at most BITS_PER_LONG
 * @data: passed to each handler
 *
 * The chain is measured first, so that a loop is -E2BIG whatever its
 * links hold; then each link is checked and handed to its handler. Each
 * name may appear once. Handlers only record what they find: the ioctl
 * acts once the whole chain has been checked. The second pass is bounded
 * too: a chain the caller changes meanwhile gets no further.
 *
 * Return: 0; -E2BIG for more than %DRM_VSEG_MAX_EXTENSIONS links (a loop
 * included); -EINVAL for an unknown or repeated name or a nonzero pad;
 * -EFAULT for a link outside user memory; or a handler's error.
 */
int vseg_ext_walk(u64 chain, const struct vseg_ext_handler *handlers,
		  unsigned int num_handlers, void *data)
{
	struct drm_vseg_user_extension ext;
	unsigned long seen = 0;
	unsigned int n, i;
	int err;

	err = ext_count(chain);
	if (err)
		return err;
	for (n = 0; chain; n++) {
		if (n >= DRM_VSEG_MAX_EXTENSIONS)
			return -E2BIG;
		if (copy_from_user(&ext, u64_to_user_ptr(chain), sizeof(ext)))
			return -EFAULT;
		if (ext.pad)
			return -EINVAL;
		for (i = 0; i < num_handlers; i++)
			if (handlers[i].name == ext.name)
				break;
		if (i == num_handlers || (seen & BIT(i)))
			return -EINVAL;
		seen |= BIT(i);
		err = handlers[i].apply(chain, data);
		if (err)
			return err;
		chain = ext.next_extension;
	}
	return 0;
}
