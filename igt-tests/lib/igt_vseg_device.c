// SPDX-License-Identifier: MIT
/*
 * Finding and opening vseg's DRM nodes, and calling its ioctls.
 *
 * Copyright (c) 2026 The vseg authors
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "igt.h"
#include "igt_vseg.h"

static bool node_is_vseg(const char *path, int *fdp)
{
	char name[64] = "";	/* the name is not NUL-terminated */
	int fd;

	fd = open(path, O_RDWR | O_CLOEXEC);
	if (fd < 0)
		return false;
	if (__get_drm_device_name(fd, name, sizeof(name) - 1) ||
	    strcmp(name, VSEG_DRIVER)) {
		close(fd);
		return false;
	}
	if (fdp)
		*fdp = fd;
	else
		close(fd);
	return true;
}

static int open_vseg_node(const char *prefix)
{
	size_t len = strlen(prefix);
	int best = INT_MAX, fd = -ENODEV;
	char path[PATH_MAX];
	struct dirent *de;
	DIR *dir;

	dir = opendir("/dev/dri");
	if (!dir)
		return -ENODEV;
	/* The lowest-numbered matching node. */
	while ((de = readdir(dir))) {
		char *end;
		long n;

		if (strncmp(de->d_name, prefix, len) || !de->d_name[len])
			continue;
		n = strtol(de->d_name + len, &end, 10);
		if (*end || n < 0 || n >= best)
			continue;
		snprintf(path, sizeof(path), "/dev/dri/%s", de->d_name);
		if (!node_is_vseg(path, NULL))
			continue;
		best = (int)n;
	}
	closedir(dir);

	if (best != INT_MAX) {
		snprintf(path, sizeof(path), "/dev/dri/%s%d", prefix, best);
		if (!node_is_vseg(path, &fd))
			fd = -ENODEV;
	}
	return fd;
}

int __drm_open_vseg(void)
{
	return open_vseg_node("card");
}

int __drm_open_vseg_render(void)
{
	return open_vseg_node("renderD");
}

int drm_open_vseg(void)
{
	int fd = __drm_open_vseg();

	igt_require_f(fd >= 0, "no vseg DRM card node in /dev/dri\n");
	return fd;
}

int drm_open_vseg_render(void)
{
	int fd = __drm_open_vseg_render();

	igt_require_f(fd >= 0, "no vseg DRM render node in /dev/dri\n");
	return fd;
}

bool is_vseg_device(int fd)
{
	char name[64] = "";

	return !__get_drm_device_name(fd, name, sizeof(name) - 1) &&
	       !strcmp(name, VSEG_DRIVER);
}

void igt_require_vseg(int fd)
{
	igt_require(is_vseg_device(fd));
}

/* Entries of /dev/dri (not . and ..) for which @count says true. */
static int count_dri(bool (*count)(const char *name))
{
	struct dirent *de;
	int n = 0;
	DIR *dir;

	dir = opendir("/dev/dri");
	if (!dir)
		return 0;
	while ((de = readdir(dir)))
		n += strcmp(de->d_name, ".") && strcmp(de->d_name, "..") &&
		     count(de->d_name);
	closedir(dir);
	return n;
}

static bool is_vseg_node(const char *name)
{
	char path[PATH_MAX];

	if (strncmp(name, "card", 4) && strncmp(name, "renderD", 7))
		return false;
	snprintf(path, sizeof(path), "/dev/dri/%s", name);
	return node_is_vseg(path, NULL);
}

static bool any_entry(const char *name)
{
	(void)name;
	return true;
}

int vseg_count_nodes(void)
{
	return count_dri(is_vseg_node);
}

int vseg_count_dri_entries(void)
{
	return count_dri(any_entry);
}

void vseg_assert_ret(int ret, int want, const char *fmt, ...)
{
	char what[256];
	va_list ap;

	if (ret == want)
		return;
	va_start(ap, fmt);
	vsnprintf(what, sizeof(what), fmt, ap);
	va_end(ap);
	igt_assert_f(ret == want, "%s: %d (%s), expected %d (%s)\n", what, ret,
		     vseg_errname(ret), want, vseg_errname(want));
}

int __vseg_ioctl(int fd, unsigned long request, void *arg)
{
	int err = 0;

	if (igt_ioctl(fd, request, arg))
		err = -errno;
	errno = 0;
	return err;
}
