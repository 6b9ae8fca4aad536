// SPDX-License-Identifier: MIT
/*
 * Self-test of the IGT library: a test without subtests. The environment
 * variable SELFTEST_MODE (pass | skip | fail) picks the outcome.
 *
 * Copyright (c) 2026 The vseg authors
 */
#include "igt.h"

igt_simple_main
{
	const char *mode = getenv("SELFTEST_MODE");

	igt_require(mode);
	igt_skip_on(!strcmp(mode, "skip"));
	igt_assert(strcmp(mode, "fail"));
}
