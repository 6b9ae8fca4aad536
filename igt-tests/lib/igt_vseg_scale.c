// SPDX-License-Identifier: MIT
/*
 * How much work the heavy stress subtests do: $VSEG_TEST_SCALE.
 *
 * Copyright (c) 2026 The vseg authors
 */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>

#include "igt.h"
#include "igt_vseg.h"

#define SCALE_ENV	"VSEG_TEST_SCALE"
#define SCALE_DEFAULT	100u
#define SCALE_MAX	10000u

static unsigned int read_scale(void)
{
	const char *env = getenv(SCALE_ENV);
	unsigned long v;
	char *end;

	if (!env || !*env)
		return SCALE_DEFAULT;
	errno = 0;
	v = strtoul(env, &end, 10);
	if (errno || *end || v < 1 || v > SCALE_MAX) {
		igt_warn("%s=\"%s\" is not a percentage from 1 to %u: using %u\n",
			 SCALE_ENV, env, SCALE_MAX, SCALE_DEFAULT);
		return SCALE_DEFAULT;
	}
	return v;
}

unsigned int vseg_test_scale_percent(void)
{
	static unsigned int scale;

	if (!scale) {
		scale = read_scale();
		if (scale != SCALE_DEFAULT)
			igt_debug("%s=%u: stress work scaled to %u %%\n",
				  SCALE_ENV, scale, scale);
	}
	return scale;
}

unsigned int vseg_test_scale(unsigned int n)
{
	uint64_t v = (uint64_t)n * vseg_test_scale_percent() / 100;

	if (v < 1)
		return 1;
	return v > UINT32_MAX ? UINT32_MAX : (unsigned int)v;
}
