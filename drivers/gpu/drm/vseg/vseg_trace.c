// SPDX-License-Identifier: GPL-2.0-only
/*
 * Copyright (c) 2026 The vseg authors
 *
 * The definitions of vseg's tracepoints (vseg_trace.h).
 */

#define CREATE_TRACE_POINTS
#include "vseg_trace.h"
