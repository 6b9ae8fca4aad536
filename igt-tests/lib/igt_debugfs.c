// SPDX-License-Identifier: MIT
/*
 * debugfs access for DRM devices, as upstream IGT's lib/igt_debugfs.c.
 *
 * The debugfs directory of a DRM fd is /sys/kernel/debug/dri/<minor of
 * the fd>. For a render node (minor 128 and up) whose directory has a
 * "name" file, the primary node's directory is the one of dri/0..15 whose
 * "name" reads the same; a minor without a directory has none.
 *
 * Copyright (c) 2026 The vseg authors
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "drmtest.h"
#include "igt_core.h"
#include "igt_debugfs.h"

/* A mount point: its device differs from its parent's. */
static bool is_mountpoint(const char *path)
{
	char buf[PATH_MAX];
	struct stat st;
	dev_t dev;

	snprintf(buf, sizeof(buf), "%s/.", path);
	if (stat(buf, &st) || !S_ISDIR(st.st_mode))
		return false;
	dev = st.st_dev;
	snprintf(buf, sizeof(buf), "%s/..", path);
	if (stat(buf, &st) || !S_ISDIR(st.st_mode))
		return false;
	return dev != st.st_dev;
}

static const char *__igt_debugfs_mount(void)
{
	if (is_mountpoint("/sys/kernel/debug"))
		return "/sys/kernel/debug";
	if (is_mountpoint("/debug"))
		return "/debug";
	if (mount("debug", "/sys/kernel/debug", "debugfs", 0, 0))
		return NULL;
	return "/sys/kernel/debug";
}

const char *igt_debugfs_mount(void)
{
	static const char *path;

	if (!path)
		path = __igt_debugfs_mount();
	return path;
}

char *igt_debugfs_path(int device, char *path, int pathlen)
{
	const char *debugfs_root;
	struct stat st;
	int idx;

	debugfs_root = igt_debugfs_mount();
	igt_assert(debugfs_root);

	memset(&st, 0, sizeof(st));
	if (device != -1) {	/* no fd: dri/0 */
		if (fstat(device, &st)) {
			igt_debug("Couldn't stat FD for DRM device: %m\n");
			return NULL;
		}
		if (!S_ISCHR(st.st_mode)) {
			igt_debug("FD for DRM device not a char device!\n");
			return NULL;
		}
	}

	idx = minor(st.st_rdev);
	snprintf(path, pathlen, "%s/dri/%d/name", debugfs_root, idx);
	if (stat(path, &st))
		return NULL;

	if (idx >= 64) {
		char name[100], cmp[100];
		int file, name_len, cmp_len;

		file = open(path, O_RDONLY);
		if (file < 0)
			return NULL;
		name_len = read(file, name, sizeof(name));
		close(file);

		for (idx = 0; idx < 16; idx++) {
			snprintf(path, pathlen, "%s/dri/%d/name", debugfs_root,
				 idx);
			file = open(path, O_RDONLY);
			if (file < 0)
				continue;
			cmp_len = read(file, cmp, sizeof(cmp));
			close(file);
			if (cmp_len == name_len && !memcmp(cmp, name, name_len))
				break;
		}
		if (idx == 16)
			return NULL;
	}

	snprintf(path, pathlen, "%s/dri/%d", debugfs_root, idx);
	return path;
}

int igt_debugfs_dir(int device)
{
	char path[200];
	int fd;

	if (igt_debug_on(!igt_debugfs_path(device, path, sizeof(path))))
		return -1;
	fd = open(path, O_RDONLY);
	igt_debug_on_f(fd < 0, "path: %s\n", path);
	return fd;
}

int igt_debugfs_open(int device, const char *filename, int mode)
{
	int dir, ret;

	dir = igt_debugfs_dir(device);
	if (dir < 0)
		return dir;
	ret = openat(dir, filename, mode);
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

/* Read or write all of @len, through EINTR and EAGAIN; bytes done or -errno. */
static int xfer_all(int fd, char *buf, int len, bool write_it)
{
	ssize_t ret;
	int total = 0;

	do {
		ret = write_it ? write(fd, buf + total, len - total) :
				 read(fd, buf + total, len - total);
		if (ret < 0)
			ret = -errno;
		if (ret == -EINTR || ret == -EAGAIN)
			continue;
		if (ret <= 0)
			break;
		total += ret;
	} while (total != len);
	return total ?: ret;
}

static int sysfs_read(int dir, const char *attr, char *data, int len)
{
	int fd;

	fd = openat(dir, attr, O_RDONLY);
	if (igt_debug_on(fd < 0))
		return -errno;
	len = xfer_all(fd, data, len, false);
	close(fd);
	return len;
}

static int sysfs_write(int dir, const char *attr, const char *data, int len)
{
	int fd;

	fd = openat(dir, attr, O_WRONLY);
	if (igt_debug_on(fd < 0))
		return -errno;
	len = xfer_all(fd, (char *)data, len, true);
	close(fd);
	return len;
}

int igt_debugfs_simple_read(int dir, const char *filename, char *buf,
			    int size)
{
	int len;

	len = sysfs_read(dir, filename, buf, size - 1);
	if (len < 0)
		buf[0] = '\0';
	else
		buf[len] = '\0';
	return len;
}

void __igt_debugfs_read(int fd, const char *filename, char *buf, int size)
{
	int dir = igt_debugfs_dir(fd);

	igt_debugfs_simple_read(dir, filename, buf, size);
	close(dir);
}

void __igt_debugfs_write(int fd, const char *filename, const char *buf,
			 int size)
{
	int dir = igt_debugfs_dir(fd);

	sysfs_write(dir, filename, buf, size);
	close(dir);
}

bool igt_debugfs_search(int device, const char *filename,
			const char *substring)
{
	bool matched = false;
	char *line = NULL;
	size_t n = 0;
	FILE *file;
	int fd;

	fd = igt_debugfs_open(device, filename, O_RDONLY);
	file = fdopen(fd, "r");
	igt_assert(file);

	while (getline(&line, &n, file) >= 0) {
		matched = strstr(line, substring) != NULL;
		if (matched)
			break;
	}
	free(line);
	fclose(file);
	return matched;
}
