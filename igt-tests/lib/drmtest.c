// SPDX-License-Identifier: MIT
/*
 * Opening DRM device nodes by driver.
 *
 * Copyright (c) 2026 The vseg authors
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <xf86drm.h>

#include "drmtest.h"
#include "igt_core.h"

static const struct {
	int bit;
	const char *name;
} known_drivers[] = {
	{ DRIVER_INTEL, "i915" },
	{ DRIVER_VC4, "vc4" },
	{ DRIVER_VGEM, "vgem" },
	{ DRIVER_AMDGPU, "amdgpu" },
	{ DRIVER_V3D, "v3d" },
	{ DRIVER_PANFROST, "panfrost" },
	{ DRIVER_MSM, "msm" },
	{ DRIVER_XE, "xe" },
	{ DRIVER_VMWGFX, "vmwgfx" },
	{ DRIVER_VKMS, "vkms" },
};

int __get_drm_device_name(int fd, char *name, int name_size)
{
	drmVersionPtr v;

	if (name_size <= 0)
		return -EINVAL;
	v = drmGetVersion(fd);
	if (!v)
		return -errno ?: -EINVAL;
	snprintf(name, name_size, "%s", v->name ? v->name : "");
	drmFreeVersion(v);
	return 0;
}

static bool driver_matches(int chipset, const char *name)
{
	if (chipset == DRIVER_ANY)
		return strcmp(name, "vgem") && strcmp(name, "vkms") &&
		       strcmp(name, "virtio_gpu");

	for (size_t i = 0; i < ARRAY_SIZE(known_drivers); i++)
		if (!strcmp(name, known_drivers[i].name))
			return chipset & known_drivers[i].bit;
	return false;
}

static int node_number(const char *d_name, const char *prefix)
{
	size_t len = strlen(prefix);
	char *end;
	long n;

	if (strncmp(d_name, prefix, len) || !d_name[len])
		return -1;
	n = strtol(d_name + len, &end, 10);
	if (*end || n < 0 || n > INT_MAX)
		return -1;
	return (int)n;
}

static int cmp_int(const void *a, const void *b)
{
	return *(const int *)a - *(const int *)b;
}

/* Open the first node "<prefix>N" (lowest N) whose driver fits @chipset. */
static int open_first(const char *prefix, int chipset)
{
	int nums[256], count = 0, fd = -1;
	struct dirent *de;
	DIR *dir;

	dir = opendir("/dev/dri");
	if (!dir)
		return -1;
	while ((de = readdir(dir)) && count < (int)ARRAY_SIZE(nums)) {
		int n = node_number(de->d_name, prefix);

		if (n >= 0)
			nums[count++] = n;
	}
	closedir(dir);
	qsort(nums, count, sizeof(int), cmp_int);

	for (int i = 0; i < count && fd < 0; i++) {
		char path[PATH_MAX], name[64];

		snprintf(path, sizeof(path), "/dev/dri/%s%d", prefix, nums[i]);
		fd = open(path, O_RDWR | O_CLOEXEC);
		if (fd < 0)
			continue;
		if (__get_drm_device_name(fd, name, sizeof(name)) ||
		    !driver_matches(chipset, name)) {
			close(fd);
			fd = -1;
			continue;
		}
		igt_debug("Opened %s (driver %s)\n", path, name);
	}
	return fd;
}

static const char *chipset_str(int chipset)
{
	return chipset == DRIVER_ANY ? "any" : "selected drivers";
}

int __drm_open_driver(int chipset)
{
	return open_first("card", chipset);
}

int __drm_open_driver_render(int chipset)
{
	return open_first("renderD", chipset);
}

int drm_open_driver(int chipset)
{
	int fd = __drm_open_driver(chipset);

	igt_skip_on_f(fd < 0, "No known gpu found for chipset flags 0x%x (%s)\n",
		      (unsigned int)chipset, chipset_str(chipset));
	return fd;
}

int drm_open_driver_master(int chipset)
{
	int fd = drm_open_driver(chipset);

	igt_require_f(drmSetMaster(fd) == 0 || errno == EINVAL,
		      "Can't become DRM master\n");
	return fd;
}

int drm_open_driver_render(int chipset)
{
	int fd = __drm_open_driver_render(chipset);

	igt_skip_on_f(fd < 0, "No known gpu render node found for chipset flags 0x%x (%s)\n",
		      (unsigned int)chipset, chipset_str(chipset));
	return fd;
}

int __drm_close_driver(int fd)
{
	return close(fd) ? -errno : 0;
}

int drm_close_driver(int fd)
{
	if (fd < 0) {
		igt_warn("Don't attempt to close standard/invalid file descriptor: %d\n",
			 fd);
		return -1;
	}
	return __drm_close_driver(fd) ? -1 : 0;
}

int drm_reopen_driver(int fd)
{
	char link[64], path[PATH_MAX];
	ssize_t len;
	int nfd;

	snprintf(link, sizeof(link), "/proc/self/fd/%d", fd);
	len = readlink(link, path, sizeof(path) - 1);
	igt_assert_f(len > 0, "cannot resolve fd %d\n", fd);
	path[len] = '\0';
	close(fd);
	nfd = open(path, O_RDWR | O_CLOEXEC);
	igt_assert_f(nfd >= 0, "cannot reopen %s\n", path);
	return nfd;
}
