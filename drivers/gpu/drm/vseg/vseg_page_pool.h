/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Copyright (c) 2026 The vseg authors
 */

#ifndef __VSEG_PAGE_POOL_H__
#define __VSEG_PAGE_POOL_H__

#include <linux/types.h>

struct page;
struct seq_file;

/**
 * enum vseg_page_init - what a page from the pool must hold
 * @VSEG_PAGE_ZERO: zeroes, as a page the user may see before anything
 *	writes it must.
 * @VSEG_PAGE_OVERWRITTEN: anything: a paging operation overwrites the
 *	whole page before the fence that guards it signals, so nobody can
 *	read what it held.
 */
enum vseg_page_init {
	VSEG_PAGE_ZERO,
	VSEG_PAGE_OVERWRITTEN,
};

int vseg_pages_get(struct page **pages, unsigned long n,
		   enum vseg_page_init init);
void vseg_pages_put(struct page **pages, unsigned long n);
struct page *vseg_page_get(enum vseg_page_init init);
void vseg_page_put(struct page *page);
void vseg_page_pool_show(struct seq_file *m);
int vseg_page_pool_init(void);
void vseg_page_pool_fini(void);

#endif /* __VSEG_PAGE_POOL_H__ */
