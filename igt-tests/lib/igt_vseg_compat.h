/* SPDX-License-Identifier: MIT */
/*
 * Upstream IGT functions the stand-in's core does not have yet. Delete
 * each declaration here (and its fallback in igt_vseg_compat.c) when
 * igt_core.h declares it: -Wredundant-decls says when.
 *
 * Copyright (c) 2026 The vseg authors
 */
#ifndef IGT_VSEG_COMPAT_H
#define IGT_VSEG_COMPAT_H

/* Upstream IGT's, lib/igt_core.h. */
void igt_emit_ignore_dmesg_regex(const char *ignore_dmesg_regex);

#endif /* IGT_VSEG_COMPAT_H */
