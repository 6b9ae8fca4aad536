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
#include <sys/socket.h>
#include <sys/wait.h>

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

/* Receive one descriptor over the socket @sock (SCM_RIGHTS), or -1. */
static int recv_fd(int sock)
{
	char data, control[CMSG_SPACE(sizeof(int))];
	struct iovec iov = { .iov_base = &data, .iov_len = 1 };
	struct msghdr msg = {
		.msg_iov = &iov, .msg_iovlen = 1,
		.msg_control = control, .msg_controllen = sizeof(control),
	};
	struct cmsghdr *cmsg;
	int fd;

	if (recvmsg(sock, &msg, 0) != 1)
		return -1;
	cmsg = CMSG_FIRSTHDR(&msg);
	if (!cmsg || cmsg->cmsg_type != SCM_RIGHTS)
		return -1;
	memcpy(&fd, CMSG_DATA(cmsg), sizeof(fd));
	return fd;
}

static void send_fd(int sock, int fd)
{
	char data = 0, control[CMSG_SPACE(sizeof(int))] = { 0 };
	struct iovec iov = { .iov_base = &data, .iov_len = 1 };
	struct msghdr msg = {
		.msg_iov = &iov, .msg_iovlen = 1,
		.msg_control = control, .msg_controllen = sizeof(control),
	};
	struct cmsghdr *cmsg = CMSG_FIRSTHDR(&msg);

	cmsg->cmsg_level = SOL_SOCKET;
	cmsg->cmsg_type = SCM_RIGHTS;
	cmsg->cmsg_len = CMSG_LEN(sizeof(int));
	memcpy(CMSG_DATA(cmsg), &fd, sizeof(fd));
	if (sendmsg(sock, &msg, 0) != 1)
		_exit(1);
}

int drm_open_vseg_other_process(bool render)
{
	int sv[2], fd, status;
	pid_t pid;

	igt_assert_eq(socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv),
		      0);
	pid = fork();
	igt_assert(pid >= 0);
	if (pid == 0) {
		fd = render ? __drm_open_vseg_render() : __drm_open_vseg();
		if (fd < 0)
			_exit(1);
		send_fd(sv[1], fd);
		_exit(0);
	}
	close(sv[1]);
	fd = recv_fd(sv[0]);
	close(sv[0]);
	igt_assert_eq(waitpid(pid, &status, 0), pid);
	igt_assert_f(fd >= 0 && WIFEXITED(status) && !WEXITSTATUS(status),
		     "another process could not open the vseg device\n");
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
