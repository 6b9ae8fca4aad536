/* SPDX-License-Identifier: MIT */
/*
 * vseg's small implementation of IGT's igt_debugfs.h, with upstream's names
 * and signatures.
 *
 * Copyright (c) 2026 The vseg authors
 */
#ifndef __IGT_DEBUGFS_H__
#define __IGT_DEBUGFS_H__

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

const char *igt_debugfs_mount(void);
char *igt_debugfs_path(int device, char *path, int pathlen);
int igt_debugfs_dir(int device);
int igt_debugfs_open(int fd, const char *filename, int mode);
bool igt_debugfs_exists(int fd, const char *filename, int mode);
void __igt_debugfs_read(int fd, const char *filename, char *buf, int size);
void __igt_debugfs_write(int fd, const char *filename, const char *buf,
			 int size);
int igt_debugfs_simple_read(int dir, const char *filename, char *buf,
			    int size);
bool igt_debugfs_search(int fd, const char *filename, const char *substring);

#define igt_debugfs_read(fd, filename, buf) \
	__igt_debugfs_read(fd, (filename), (buf), sizeof(buf))
#define igt_debugfs_write(fd, filename, buf) \
	__igt_debugfs_write(fd, (filename), (buf), sizeof(buf))

#endif /* __IGT_DEBUGFS_H__ */
