/* SPDX-License-Identifier: MIT */
/*
 * Data patterns that tell buffers and offsets apart, and random numbers.
 *
 * Copyright (c) 2026 The vseg authors
 */
#ifndef IGT_VSEG_PATTERN_H
#define IGT_VSEG_PATTERN_H

#include <stdint.h>

/*
 * A pattern that differs for every (seed, 8-byte word) pair, so that data
 * of another buffer or another offset is told apart.
 */
void vseg_pattern_fill(void *ptr, uint64_t size, uint32_t seed);
/* Offset of the first byte that differs from the pattern, or -1. */
int64_t vseg_pattern_check(const void *ptr, uint64_t size, uint32_t seed);
/* Offset of the first nonzero byte, or -1. */
int64_t vseg_zero_check(const void *ptr, uint64_t size);

/*
 * xorshift64: the next 32-bit random number of the stream @state (any
 * nonzero start), so that each process or thread has its own.
 */
uint32_t vseg_rand32(uint64_t *state);

#endif /* IGT_VSEG_PATTERN_H */
