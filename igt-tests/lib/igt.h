/* SPDX-License-Identifier: MIT */
/*
 * vseg's small implementation of the IGT library: the umbrella header.
 *
 * Copyright (c) 2026 The vseg authors
 */
#ifndef IGT_H
#define IGT_H

/*
 * The headers of this library that upstream's igt.h also includes;
 * igt_kmod.h is not one of them (include it where it is used).
 */
#include "drmtest.h"
#include "igt_core.h"
#include "igt_debugfs.h"
#include "igt_sizes.h"
#include "ioctl_wrappers.h"

#endif /* IGT_H */
