/* SPDX-License-Identifier: MIT */
/*
 * How much work the heavy stress subtests do: $VSEG_TEST_SCALE.
 *
 * Copyright (c) 2026 The vseg authors
 */
#ifndef IGT_VSEG_SCALE_H
#define IGT_VSEG_SCALE_H

/*
 * The scale of the heavy stress subtests, in percent: $VSEG_TEST_SCALE, a
 * whole number from 1 to 10000, else 100 (an unset, empty or bad value;
 * a bad one is a warning, on stderr). "make check" sets it on the debug
 * kernel's lane, whose sanitizers make every step several times slower;
 * the stock lanes run at 100. Safe outside subtests: it prints nothing on
 * stdout (a --list-subtests listing stays clean).
 */
unsigned int vseg_test_scale_percent(void);

/*
 * @n (rounds, steps, milliseconds, an overcommit in percent, ...) scaled
 * by vseg_test_scale_percent(), rounded down but never below 1. A test
 * keeps whatever floor its assertions need on top of this (an overcommit
 * must stay above 100 % to evict anything).
 */
unsigned int vseg_test_scale(unsigned int n);

#endif /* IGT_VSEG_SCALE_H */
