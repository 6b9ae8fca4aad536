// SPDX-License-Identifier: MIT
/*
 * sync_file queries, as the sync_file half of upstream IGT's lib/sw_sync.c.
 *
 * Copyright (c) 2026 The vseg authors
 */
#include <errno.h>
#include <poll.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>

#include <linux/sync_file.h>

#include "igt_core.h"
#include "sw_sync.h"

int sync_fence_merge(int fd1, int fd2)
{
	struct sync_merge_data data;

	memset(&data, 0, sizeof(data));
	data.fd2 = fd2;
	if (ioctl(fd1, SYNC_IOC_MERGE, &data))
		return -errno;
	return data.fence;
}

int sync_fence_wait(int fence, int timeout)
{
	struct pollfd fds = { .fd = fence, .events = POLLIN };
	int ret;

	for (;;) {
		ret = poll(&fds, 1, timeout);
		if (ret > 0)
			return fds.revents & (POLLERR | POLLNVAL) ? -EINVAL : 0;
		if (ret == 0)
			return -ETIME;
		ret = -errno;
		if (ret != -EINTR && ret != -EAGAIN)
			return ret;
	}
}

int sync_fence_count(int fence)
{
	struct sync_file_info info;

	memset(&info, 0, sizeof(info));
	if (ioctl(fence, SYNC_IOC_FILE_INFO, &info))
		return -errno;
	return info.num_fences;
}

static int __sync_fence_count_status(int fence, int status)
{
	struct sync_file_info info;
	struct sync_fence_info *fi;
	int count;

	memset(&info, 0, sizeof(info));
	if (ioctl(fence, SYNC_IOC_FILE_INFO, &info))
		return -errno;
	fi = calloc(info.num_fences ? info.num_fences : 1, sizeof(*fi));
	if (!fi)
		return -ENOMEM;
	info.sync_fence_info = (uintptr_t)fi;
	if (ioctl(fence, SYNC_IOC_FILE_INFO, &info)) {
		count = -errno;
	} else {
		count = 0;
		for (uint32_t i = 0; i < info.num_fences; i++)
			if (fi[i].status == status)
				count++;
	}
	free(fi);
	return count;
}

int sync_fence_count_status(int fence, int status)
{
	int count = __sync_fence_count_status(fence, status);

	igt_assert_f(count >= 0, "No fences with supplied status found\n");
	return count;
}

int sync_fence_status(int fence)
{
	struct sync_fence_info fi;
	struct sync_file_info info;

	memset(&fi, 0, sizeof(fi));
	memset(&info, 0, sizeof(info));
	info.sync_fence_info = (uintptr_t)&fi;
	info.num_fences = 1;
	if (ioctl(fence, SYNC_IOC_FILE_INFO, &info))
		return -errno;
	if (info.num_fences != 1)
		return -EINVAL;
	return fi.status;
}
