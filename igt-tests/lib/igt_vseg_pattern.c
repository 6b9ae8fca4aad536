// SPDX-License-Identifier: MIT
/*
 * Data patterns that tell buffers and offsets apart, and random numbers.
 *
 * Copyright (c) 2026 The vseg authors
 */

#include "igt.h"
#include "igt_vseg.h"

static inline uint64_t pattern_word(uint32_t seed, uint64_t i)
{
	return ((uint64_t)seed << 32 | (uint32_t)i) ^ 0xa5c3f00f5a3c0ff0ull;
}

void vseg_pattern_fill(void *ptr, uint64_t size, uint32_t seed)
{
	uint64_t *p = ptr;

	for (uint64_t i = 0; i < size / 8; i++)
		p[i] = pattern_word(seed, i);
}

int64_t vseg_pattern_check(const void *ptr, uint64_t size, uint32_t seed)
{
	const uint64_t *p = ptr;

	for (uint64_t i = 0; i < size / 8; i++)
		if (p[i] != pattern_word(seed, i)) {
			igt_debug("pattern %#x: word at %#llx is %#llx, expected %#llx\n",
				  seed, (unsigned long long)i * 8,
				  (unsigned long long)p[i],
				  (unsigned long long)pattern_word(seed, i));
			return (int64_t)(i * 8);
		}
	return -1;
}

int64_t vseg_zero_check(const void *ptr, uint64_t size)
{
	const uint64_t *p = ptr;

	for (uint64_t i = 0; i < size / 8; i++)
		if (p[i])
			return (int64_t)(i * 8);
	return -1;
}

uint32_t vseg_rand32(uint64_t *state)
{
	*state ^= *state << 13;
	*state ^= *state >> 7;
	*state ^= *state << 17;
	return (uint32_t)(*state >> 11);
}
