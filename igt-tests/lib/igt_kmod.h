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

/* In /proc/modules, by its exact name ("drm_kms_helper", not "drm-kms-helper"). */
bool igt_kmod_is_loaded(const char *mod_name);
void igt_kmod_list_loaded(void);
/* A parameter of the module, loaded or not, whose name starts with @param. */
bool igt_kmod_has_param(const char *mod_name, const char *param);

/*
 * Returns 0, or -errno of the failed load. With @opts non-NULL (even ""),
 * a module already loaded is -EEXIST: options ask for a fresh load.
 */
int igt_kmod_load(const char *mod_name, const char *opts);
/*
 * Unloads the modules that use it first, retries for about 10 s while it
 * is busy. Returns 0, or -errno (-ENOENT if not loaded).
 */
int igt_kmod_unload(const char *mod_name);

#endif /* IGT_KMOD_H */
