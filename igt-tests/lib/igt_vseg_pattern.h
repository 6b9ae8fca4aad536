/* SPDX-License-Identifier: MIT */
/*
 * Data patterns that tell buffers and offsets apart.
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

#endif /* IGT_VSEG_PATTERN_H */
