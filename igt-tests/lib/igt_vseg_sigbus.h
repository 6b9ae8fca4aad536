/* SPDX-License-Identifier: MIT */
/*
 * CPU accesses to buffer mappings that may raise SIGBUS, caught.
 *
 * Copyright (c) 2026 The vseg authors
 */
#ifndef IGT_VSEG_SIGBUS_H
#define IGT_VSEG_SIGBUS_H

#include <stdbool.h>

/*
 * Run @fn(@arg) with SIGBUS caught in this thread: true if @fn raised
 * SIGBUS (it was cut short there), false if it ran to its end. Threads
 * may call it at once; a SIGBUS outside it goes where it went before.
 */
bool vseg_catch_sigbus(void (*fn)(void *arg), void *arg);

#endif /* IGT_VSEG_SIGBUS_H */
