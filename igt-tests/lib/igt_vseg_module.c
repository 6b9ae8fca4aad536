// SPDX-License-Identifier: MIT
/*
 * Loading and unloading the vseg module.
 *
 * Copyright (c) 2026 The vseg authors
 */
#include <ftw.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "igt.h"
#include "igt_vseg.h"

void vseg_require_root(void)
{
	igt_require_f(geteuid() == 0,
		      "loading and unloading the vseg module needs root\n");
}

long vseg_vmalloc_used_kb(void)
{
	char line[256];
	long kb = -1;
	FILE *f;

	f = fopen("/proc/meminfo", "r");
	igt_assert(f);
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "VmallocUsed: %ld kB", &kb) == 1)
			break;
	fclose(f);
	igt_assert_f(kb >= 0, "no VmallocUsed in /proc/meminfo\n");
	return kb;
}

static bool found_module_file;

static int find_module_cb(const char *path, const struct stat *st, int type,
			  struct FTW *ftw)
{
	const char *base = path + ftw->base;

	(void)st;
	if (type == FTW_F && !strncmp(base, VSEG_MODULE ".ko", 7) &&
	    (!base[7] || base[7] == '.')) {
		found_module_file = true;
		return 1;
	}
	return 0;
}

bool vseg_module_available(void)
{
	const char *env = getenv("IGT_KMOD_PATH");
	char path[PATH_MAX];
	struct utsname uts;

	if (igt_kmod_is_loaded(VSEG_MODULE))
		return true;
	if (env && *env) {
		char *copy = strdup(env), *save = NULL;
		bool found = false;

		igt_assert(copy);
		for (char *dir = strtok_r(copy, ":", &save); dir && !found;
		     dir = strtok_r(NULL, ":", &save)) {
			snprintf(path, sizeof(path), "%s/%s.ko", dir,
				 VSEG_MODULE);
			found = access(path, R_OK) == 0;
		}
		free(copy);
		if (found)
			return true;
	}
	if (uname(&uts))
		return false;
	snprintf(path, sizeof(path), "/lib/modules/%s", uts.release);
	found_module_file = false;
	nftw(path, find_module_cb, 16, FTW_PHYS);
	return found_module_file;
}

void vseg_require_module(void)
{
	vseg_require_root();
	igt_require_f(vseg_module_available(),
		      "no vseg module: not in IGT_KMOD_PATH (%s) nor in /lib/modules\n",
		      getenv("IGT_KMOD_PATH") ?: "unset");
}

void vseg_unload(void)
{
	int err;

	if (igt_kmod_is_loaded(VSEG_MODULE)) {
		err = igt_kmod_unload(VSEG_MODULE);
		igt_assert_f(err == 0, "unloading vseg failed: %d (%s)\n", err,
			     strerror(-err));
	}
	igt_assert_f(!igt_kmod_is_loaded(VSEG_MODULE),
		     "vseg is still loaded after unload\n");
}

int vseg_kmod_load(const char *opts)
{
	char all[1024];
	int n;

	if (!opts)
		opts = "";
	n = snprintf(all, sizeof(all), "%s%s", opts,
		     strstr(opts, "fbdev=") ? "" : " fbdev=0");
	igt_assert(n > 0 && (size_t)n < sizeof(all));
	return igt_kmod_load(VSEG_MODULE, all);
}

void vseg_reload(const char *opts)
{
	int err;

	vseg_unload();
	err = vseg_kmod_load(opts);
	igt_assert_f(err == 0, "loading vseg with \"%s\" failed: %d (%s)\n",
		     opts ? opts : "", err, strerror(-err));
	igt_assert(igt_kmod_is_loaded(VSEG_MODULE));
}

const char * const vseg_profiles[] = {
	"discrete", "integrated", "smallbar", "multi",
};
const unsigned int vseg_num_profiles =
	sizeof(vseg_profiles) / sizeof(vseg_profiles[0]);

void vseg_dynamic_profiles(void (*test)(const char *profile))
{
	for (unsigned int i = 0; i < vseg_num_profiles; i++)
		igt_dynamic(vseg_profiles[i])
			test(vseg_profiles[i]);
}
