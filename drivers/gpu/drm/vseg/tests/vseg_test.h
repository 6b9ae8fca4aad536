/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Copyright (c) 2026 The vseg authors
 *
 * Helpers shared by the vseg KUnit suites.
 */
#ifndef __VSEG_TEST_H__
#define __VSEG_TEST_H__

#include <linux/kmsg_dump.h>
#include <linux/types.h>

struct kunit;

/**
 * struct vseg_klog - the kernel log lines printed since vseg_klog_start()
 * @iter: position in the printk ring buffer.
 */
struct vseg_klog {
	struct kmsg_dump_iter iter;
};

void vseg_klog_start(struct vseg_klog *k);
unsigned int vseg_klog_count(struct vseg_klog *k, const char *prefix,
			     const char *pattern, char *first, size_t size);
bool vseg_glob(const char *pattern, const char *text);

#endif /* __VSEG_TEST_H__ */
