// SPDX-License-Identifier: MIT
/*
 * Copyright (c) 2026 The vseg authors
 */
#include <xf86drm.h>

#include "ioctl_wrappers.h"

__thread int (*igt_ioctl)(int fd, unsigned long request, void *arg) = drmIoctl;
