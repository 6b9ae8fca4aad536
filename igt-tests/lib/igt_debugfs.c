// SPDX-License-Identifier: MIT
/*
 * debugfs access for DRM devices.
 *
 * The debugfs directory of a DRM fd is /sys/kernel/debug/dri/<N> where N
 * is the minor of the device's primary (card) node. The directory's "name"
 * file ("<driver> dev=<device> ...") is checked against the fd's driver;
 * if it does not match, every directory under dri/ is tried.
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
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/vfs.h>
#include <unistd.h>

#include "drmtest.h"
#include "igt_core.h"
#include "igt_debugfs.h"

#define DEBUGFS_MAGIC_NUMBER 0x64626720

static bool is_debugfs(const char *path)
{
	struct statfs st;

	return statfs(path, &st) == 0 && st.f_type == DEBUGFS_MAGIC_NUMBER;
}

const char *igt_debugfs_mount(void)
{
	if (is_debugfs("/sys/kernel/debug"))
		return "/sys/kernel/debug";
	if (is_debugfs("/debug"))
		return "/debug";
	if (mount("debugfs", "/sys/kernel/debug", "debugfs", 0, NULL) == 0 &&
	    is_debugfs("/sys/kernel/debug"))
		return "/sys/kernel/debug";
	return NULL;
}

/* Name of the device behind a DRM char device, e.g. "vseg.0". */
static bool sysfs_device_name(dev_t rdev, char *name, size_t size)
{
	char link[PATH_MAX], target[PATH_MAX];
	ssize_t len;
	char *base;

	snprintf(link, sizeof(link), "/sys/dev/char/%u:%u/device",
		 major(rdev), minor(rdev));
	len = readlink(link, target, sizeof(target) - 1);
	if (len <= 0)
		return false;
	target[len] = '\0';
	base = strrchr(target, '/');
	base = base ? base + 1 : target;
	if (strlen(base) >= size)
		return false;
	memcpy(name, base, strlen(base) + 1);
	return true;
}

/* Minor of the primary (cardN) node of the device behind @rdev. */
static int primary_minor(dev_t rdev)
{
	char path[PATH_MAX];
	struct dirent *de;
	int card = -1;
	DIR *dir;

	if (minor(rdev) < 64)
		return minor(rdev);
	snprintf(path, sizeof(path), "/sys/dev/char/%u:%u/device/drm",
		 major(rdev), minor(rdev));
	dir = opendir(path);
	if (!dir)
		return -1;
	while ((de = readdir(dir))) {
		char *end;
		long n;

		if (strncmp(de->d_name, "card", 4))
			continue;
		n = strtol(de->d_name + 4, &end, 10);
		if (!*end && de->d_name[4]) {
			card = (int)n;
			break;
		}
	}
	closedir(dir);
	return card;
}

/*
 * Does the debugfs dir @dir belong to @driver (and to @devname, if
 * known)? The "name" file reads "<driver> dev=<device> unique=...".
 */
static bool dir_matches(const char *dir, const char *driver,
			const char *devname)
{
	char path[PATH_MAX], buf[512], want[160];
	size_t n;
	FILE *f;

	snprintf(path, sizeof(path), "%s/name", dir);
	f = fopen(path, "re");
	if (!f)
		return false;
	n = fread(buf, 1, sizeof(buf) - 1, f);
	fclose(f);
	buf[n] = '\0';

	n = strcspn(buf, " \n");
	if (n != strlen(driver) || strncmp(buf, driver, n))
		return false;
	if (!devname || !devname[0])
		return true;
	snprintf(want, sizeof(want), "dev=%s", devname);
	n = strlen(want);
	for (char *p = strstr(buf, want); p; p = strstr(p + 1, want))
		if (p[n] == ' ' || p[n] == '\n' || p[n] == '\0')
			return true;
	return !strstr(buf, "dev=");
}

char *igt_debugfs_path(int device, char *path, int pathlen)
{
	char driver[64], devname[128] = "", dri[PATH_MAX];
	const char *root;
	struct dirent *de;
	struct stat st;
	char *found = NULL;
	int idx;
	DIR *dir;

	root = igt_debugfs_mount();
	if (!root)
		return NULL;
	if (fstat(device, &st) || !S_ISCHR(st.st_mode))
		return NULL;
	if (__get_drm_device_name(device, driver, sizeof(driver)))
		return NULL;
	sysfs_device_name(st.st_rdev, devname, sizeof(devname));

	idx = primary_minor(st.st_rdev);
	if (idx >= 0) {
		snprintf(path, pathlen, "%s/dri/%d", root, idx);
		if (dir_matches(path, driver, devname))
			return path;
	}

	/* Fall back to a scan of every DRM debugfs directory. */
	snprintf(dri, sizeof(dri), "%s/dri", root);
	dir = opendir(dri);
	if (!dir)
		return NULL;
	while (!found && (de = readdir(dir))) {
		if (de->d_name[0] == '.')
			continue;
		snprintf(path, pathlen, "%s/%s", dri, de->d_name);
		if (dir_matches(path, driver, devname))
			found = path;
	}
	closedir(dir);
	return found;
}

int igt_debugfs_dir(int device)
{
	char path[PATH_MAX];

	if (!igt_debugfs_path(device, path, sizeof(path)))
		return -1;
	igt_debug("Opening debugfs directory '%s'\n", path);
	return open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
}

int igt_debugfs_open(int device, const char *filename, int mode)
{
	int dir, ret;

	dir = igt_debugfs_dir(device);
	if (dir < 0)
		return dir;
	ret = openat(dir, filename, mode | O_CLOEXEC);
	close(dir);
	return ret;
}

bool igt_debugfs_exists(int device, const char *filename, int mode)
{
	int fd = igt_debugfs_open(device, filename, mode);

	if (fd >= 0) {
		close(fd);
		return true;
	}
	return false;
}

int igt_debugfs_simple_read(int dir, const char *filename, char *buf,
			    int size)
{
	int fd, len = 0, err = 0;

	if (size <= 0)
		return -EINVAL;
	buf[0] = '\0';
	fd = openat(dir, filename, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	while (len < size - 1) {
		ssize_t r = read(fd, buf + len, size - 1 - len);

		if (r < 0) {
			if (errno == EINTR)
				continue;
			err = -errno;
			break;
		}
		if (r == 0)
			break;
		len += r;
	}
	close(fd);
	buf[len] = '\0';
	return err ? err : len;
}

void __igt_debugfs_read(int fd, const char *filename, char *buf, int size)
{
	int dir = igt_debugfs_dir(fd);

	if (size > 0)
		buf[0] = '\0';
	if (dir < 0) {
		igt_debug("no debugfs directory for fd %d\n", fd);
		return;
	}
	igt_debugfs_simple_read(dir, filename, buf, size);
	close(dir);
}

void __igt_debugfs_write(int fd, const char *filename, const char *buf,
			 int size)
{
	int file = igt_debugfs_open(fd, filename, O_WRONLY);
	ssize_t ret;

	igt_assert(file >= 0);
	ret = write(file, buf, size);
	close(file);
	igt_assert(ret == size);
}

bool igt_debugfs_search(int fd, const char *filename, const char *substring)
{
	char *buf;
	bool found;
	int dir;

	dir = igt_debugfs_dir(fd);
	if (dir < 0)
		return false;
	buf = malloc(1 << 20);
	igt_assert(buf);
	found = igt_debugfs_simple_read(dir, filename, buf, 1 << 20) >= 0 &&
		strstr(buf, substring);
	free(buf);
	close(dir);
	return found;
}
