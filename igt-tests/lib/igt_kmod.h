/* SPDX-License-Identifier: MIT */
/*
 * vseg's small implementation of IGT's igt_kmod.h (module load / unload),
 * with upstream's names and signatures. Instead of libkmod it loads a
 * module from the directories in $IGT_KMOD_PATH (colon-separated) when the
 * module file is found there, and otherwise runs modprobe.
 *
 * Copyright (c) 2026 The vseg authors
 */
#ifndef IGT_KMOD_H
#define IGT_KMOD_H

#include <stdbool.h>

bool igt_kmod_is_loaded(const char *mod_name);
void igt_kmod_list_loaded(void);
bool igt_kmod_has_param(const char *mod_name, const char *param);

/* Returns 0, or -errno of the failed load (-EEXIST if loaded and @opts). */
int igt_kmod_load(const char *mod_name, const char *opts);
/* Returns 0, or -errno of the failed unload (-ENOENT if not loaded). */
int igt_kmod_unload(const char *mod_name);

#endif /* IGT_KMOD_H */
