/* SPDX-License-Identifier: MIT */
/*
 * Loading and unloading the vseg module.
 *
 * Copyright (c) 2026 The vseg authors
 */
#ifndef IGT_VSEG_MODULE_H
#define IGT_VSEG_MODULE_H

#include <stdbool.h>

#include "igt_kmod.h"

/* igt_require() root (needed to load and unload modules). */
void vseg_require_root(void);
/* VmallocUsed of /proc/meminfo in KiB: where memory segments live. */
long vseg_vmalloc_used_kb(void);
/* Is vseg loaded, or vseg.ko in $IGT_KMOD_PATH or /lib/modules/`uname -r`? */
bool vseg_module_available(void);
/* igt_require() root and vseg_module_available(). */
void vseg_require_module(void);
/* Unload vseg if it is loaded; asserts that it is gone afterwards. */
void vseg_unload(void);
/*
 * Load vseg with @opts (may be NULL), without fbdev emulation (fbdev=0)
 * unless @opts names "fbdev=": the emulation's framebuffer would count in
 * every memory figure and hold head 0. Returns igt_kmod_load()'s result.
 */
int vseg_kmod_load(const char *opts);
/* vseg_unload(), then vseg_kmod_load(@opts); asserts the load succeeds. */
void vseg_reload(const char *opts);


/*
 * For igt_emit_ignore_dmesg_regex(): the kernel log lines of a load that
 * fails on purpose, vseg's reason and the driver core's probe failure
 * (worded differently by 6.1 and 6.12).
 */
#define VSEG_LOAD_FAILURE_DMESG \
	"vseg: (unknown profile|cannot parse segment table|invalid segment table|profile )|" \
	"probe (of vseg|with driver vseg) failed with error"

/* The built-in profiles ("profile=" module parameter), default first. */
extern const char * const vseg_profiles[];
extern const unsigned int vseg_num_profiles;
/* Run the block after it once per built-in profile, named @profile. */
#define for_each_vseg_profile(profile) \
	for (unsigned int profile##_i = 0; profile##_i < vseg_num_profiles; \
	     profile##_i++) \
		for (const char *profile = vseg_profiles[profile##_i]; \
		     profile; profile = NULL)
/*
 * In an igt_subtest_with_dynamic(): one dynamic subtest per built-in
 * profile, named after it, running @test(profile).
 */
void vseg_dynamic_profiles(void (*test)(const char *profile));

#endif /* IGT_VSEG_MODULE_H */
