/* SPDX-License-Identifier: MIT */
/*
 * vseg's small implementation of the IGT library: the umbrella header.
 *
 * Copyright (c) 2026 The vseg authors
 */
#ifndef IGT_H
#define IGT_H

#include "drmtest.h"
#include "igt_core.h"
#include "igt_debugfs.h"
#include "igt_kmod.h"
#include "ioctl_wrappers.h"

#endif /* IGT_H */
