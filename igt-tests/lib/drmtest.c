// SPDX-License-Identifier: MIT
/*
 * Opening DRM device nodes by driver, as upstream IGT's lib/drmtest.c does
 * without --device filters: the first of card0..15 (renderD128..143) whose
 * driver fits the chipset flags, loading the drivers' modules and trying
 * again when there is none.
 *
 * Copyright (c) 2026 The vseg authors
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <xf86drm.h>

#include "drmtest.h"
#include "igt_core.h"
#include "igt_debugfs.h"
#include "igt_kmod.h"

int __get_drm_device_name(int fd, char *name, int name_size)
{
	drm_version_t version;

	memset(&version, 0, sizeof(version));
	version.name_len = name_size;
	version.name = name;

	/* the kernel copies at most name_len bytes and no terminator */
	if (!drmIoctl(fd, DRM_IOCTL_VERSION, &version))
		return 0;
	return -1;
}

/* The drivers IGT knows, sorted by name; any other one is DRIVER_ANY. */
static const struct module {
	unsigned int bit;
	const char *module;
} modules[] = {
	{ DRIVER_AMDGPU, "amdgpu" },
	{ DRIVER_INTEL, "i915" },
	{ DRIVER_MSM, "msm" },
	{ DRIVER_PANFROST, "panfrost" },
	{ DRIVER_V3D, "v3d" },
	{ DRIVER_VC4, "vc4" },
	{ DRIVER_VGEM, "vgem" },
	{ DRIVER_VKMS, "vkms" },
	{ DRIVER_VMWGFX, "vmwgfx" },
	{ DRIVER_XE, "xe" },
};

static char forced_driver_name[16] = "";

void __set_forced_driver(const char *name)
{
	if (!name) {
		igt_warn("No driver specified, keep default behaviour\n");
		return;
	}
	strncpy(forced_driver_name, name, sizeof(forced_driver_name) - 1);
}

static const char *forced_driver(void)
{
	return forced_driver_name[0] ? forced_driver_name : NULL;
}

static void modulename_to_chipset(const char *name, unsigned int *chip)
{
	for (size_t i = 0; i < ARRAY_SIZE(modules); i++) {
		if (!strcmp(modules[i].module, name)) {
			*chip = modules[i].bit;
			return;
		}
	}
}

static const char *chipset_to_str(int chipset)
{
	if (chipset == DRIVER_INTEL)
		return "intel";
	for (size_t i = 0; i < ARRAY_SIZE(modules); i++)
		if ((int)modules[i].bit == chipset)
			return modules[i].module;
	return chipset == DRIVER_ANY ? "any" : "other";
}

/* The first open of a path is information, the next ones debug. */
static void log_opened_device_path(const char *device_path)
{
	static char *opened[64];
	static int count;

	for (int i = 0; i < count; i++) {
		if (!strcmp(opened[i], device_path)) {
			igt_debug("Opened previously opened device: %s\n",
				  device_path);
			return;
		}
	}
	if (count < (int)ARRAY_SIZE(opened)) {
		opened[count] = strdup(device_path);
		igt_assert(opened[count]);
		count++;
	}
	igt_info("Opened device: %s\n", device_path);
}

int __drm_open_device(const char *name, unsigned int chipset)
{
	char dev_name[16] = "";
	unsigned int chip = DRIVER_ANY;
	const char *forced;
	int fd;

	fd = open(name, O_RDWR);
	if (fd == -1)
		return -1;

	if (__get_drm_device_name(fd, dev_name, sizeof(dev_name) - 1) == -1)
		goto err;

	forced = forced_driver();
	if (forced && chipset == (unsigned int)DRIVER_ANY &&
	    strcmp(forced, dev_name)) {
		igt_debug("Expected driver \"%s\" but got \"%s\"\n", forced,
			  dev_name);
		goto err;
	}

	modulename_to_chipset(dev_name, &chip);
	if ((chipset & chip) == chip) {
		log_opened_device_path(name);
		return fd;
	}
err:
	close(fd);
	return -1;
}

static int search_and_open(const char *base, int offset, unsigned int chipset)
{
	const char *forced = forced_driver();

	if (forced)
		igt_debug("Force option used: Using driver %s\n", forced);

	for (int i = 0; i < 16; i++) {
		char name[80];
		struct stat st;
		int fd;

		snprintf(name, sizeof(name), "%s%u", base, i + offset);
		/* a node that cannot even be stat()ed counts as taken */
		if (igt_debug_on(stat(name, &st) != 0))
			continue;
		fd = __drm_open_device(name, chipset);
		if (fd != -1)
			return fd;
	}
	return -1;
}

void drm_load_module(unsigned int chipset)
{
	static pthread_mutex_t mutex = PTHREAD_MUTEX_INITIALIZER;
	const char *forced = forced_driver();
	bool want_any = chipset == (unsigned int)DRIVER_ANY;
	unsigned int chip = 0;

	if (forced) {
		if (chipset == DRIVER_VGEM)
			chip = DRIVER_VGEM;	/* the forced driver does not apply */
		else
			modulename_to_chipset(forced, &chip);
		chipset &= chip;
	}

	pthread_mutex_lock(&mutex);
	if (forced && chipset == 0) {
		if (want_any)
			igt_kmod_load(forced, "");
	} else {
		for (size_t i = 0; i < ARRAY_SIZE(modules); i++)
			if (chipset & modules[i].bit)
				igt_kmod_load(modules[i].module, "");
	}
	pthread_mutex_unlock(&mutex);
}

static int open_driver(const char *base, int offset, unsigned int chipset)
{
	int fd;

	fd = search_and_open(base, offset, chipset);
	if (fd != -1)
		return fd;
	drm_load_module(chipset);
	return search_and_open(base, offset, chipset);
}

int __drm_open_driver(int chipset)
{
	return open_driver("/dev/dri/card", 0, chipset);
}

int __drm_open_driver_render(int chipset)
{
	return open_driver("/dev/dri/renderD", 128, chipset);
}

int drm_open_driver(int chipset)
{
	int fd = __drm_open_driver(chipset);

	igt_skip_on_f(fd < 0, "No known gpu found for chipset flags 0x%u (%s)\n",
		      chipset, chipset_to_str(chipset));
	return fd;
}

static void show_clients(int fd)
{
	char *contents = malloc(1 << 16);

	if (!contents)
		return;
	__igt_debugfs_read(fd, "clients", contents, 1 << 16);
	igt_log(IGT_LOG_DOMAIN, IGT_LOG_WARN, "%s:\n%s\n", "clients",
		contents);
	free(contents);
}

static int set_master(int fd)
{
	int err = 0;

	if (drmIoctl(fd, DRM_IOCTL_SET_MASTER, NULL))
		err = -errno;
	errno = 0;
	return err;
}

int drm_open_driver_master(int chipset)
{
	int fd = drm_open_driver(chipset);

	if (set_master(fd)) {
		show_clients(fd);
		igt_require_f(set_master(fd) == 0,
			      "Can't become DRM master, please check if no other DRM client is running.\n");
	}
	return fd;
}

int drm_open_driver_render(int chipset)
{
	static int open_count;
	static int at_exit_drm_render_fd = -1;
	int fd = __drm_open_driver_render(chipset);

	/* no render node: the primary one */
	if (fd == -1)
		return drm_open_driver(chipset);

	if (__sync_fetch_and_add(&open_count, 1))
		return fd;

	/* As upstream, a second fd of the first device stays open. */
	at_exit_drm_render_fd = drm_reopen_driver(fd);
	(void)at_exit_drm_render_fd;
	return fd;
}

static bool is_valid_fd(int fd)
{
	char path[32], buf[PATH_MAX];
	ssize_t len;

	if (fd < 0)
		return false;
	snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
	memset(buf, 0, sizeof(buf));
	len = readlink(path, buf, sizeof(buf) - 1);
	if (len <= 0)
		return false;
	buf[len] = '\0';
	return strstr(buf, "/dev/dri/card") == buf ||
	       strstr(buf, "/dev/dri/renderD") == buf;
}

int __drm_close_driver(int fd)
{
	if (!is_valid_fd(fd))
		return -1;
	return close(fd);
}

int drm_close_driver(int fd)
{
	if (!is_valid_fd(fd)) {
		igt_warn("Don't attempt to close standard/invalid file descriptor: %d\n",
			 fd);
		return -1;
	}
	return __drm_close_driver(fd);
}

int drm_reopen_driver(int fd)
{
	char path[256];

	snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
	fd = open(path, O_RDWR);
	igt_assert_fd(fd);
	return fd;
}
