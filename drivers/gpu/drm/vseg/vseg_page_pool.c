// SPDX-License-Identifier: GPL-2.0-only
/*
 * Copyright (c) 2026 The vseg authors
 *
 * The pages vseg recycles: what the backing store of memory segments and
 * the system-memory placements of buffers free comes back here, up to a
 * bound, for the next placement to take.
 *
 * A move writes its destination whole with a Transfer; the page allocator
 * zeroes every page it hands out (init_on_alloc, on by default in Debian's
 * kernels), so a move that allocates its destination writes it twice, and
 * the zeroing costs as much as the copy. A page taken from here for a
 * destination a Transfer overwrites is not zeroed (its old bytes are never
 * readable: every reader waits for the move's fence, and by then the
 * Transfer has written the page); any other taker gets it zeroed. The
 * pool gives its pages back to the system under memory pressure (a
 * shrinker) and when the module goes.
 */

#include <linux/highmem.h>
#include <linux/list.h>
#include <linux/mm.h>
#include <linux/moduleparam.h>
#include <linux/seq_file.h>
#include <linux/shrinker.h>
#include <linux/spinlock.h>

#include "vseg_compat.h"
#include "vseg_page_pool.h"

static unsigned int page_pool_mb = 64;
module_param(page_pool_mb, uint, 0444);
MODULE_PARM_DESC(page_pool_mb,
		 "MiB of freed pages kept for reuse by later moves (default 64, 0 = none)");

static struct {
	spinlock_t lock;		/* protects pages and count */
	struct list_head pages;		/* free pages, by page->lru */
	unsigned long count;
	unsigned long max;
	struct shrinker *shrinker;
	atomic64_t hits;		/* gets served from the pool */
	atomic64_t misses;		/* gets that allocated */
	atomic64_t overflows;		/* puts that freed: pool full */
	atomic64_t shrunk;		/* pages the shrinker freed */
} pool = {
	.lock = __SPIN_LOCK_UNLOCKED(pool.lock),
	.pages = LIST_HEAD_INIT(pool.pages),
};

static struct page *pool_take(void)
{
	struct page *page;

	spin_lock(&pool.lock);
	page = list_first_entry_or_null(&pool.pages, struct page, lru);
	if (page) {
		list_del(&page->lru);
		pool.count--;
	}
	spin_unlock(&pool.lock);
	return page;
}

/**
 * vseg_page_get() - a system page for a placement or the backing store
 * @init: what the page must hold, &enum vseg_page_init
 *
 * Return: the page (to vseg_page_put() when done), or NULL without memory.
 */
struct page *vseg_page_get(enum vseg_page_init init)
{
	struct page *page = pool_take();

	if (page) {
		atomic64_inc(&pool.hits);
		if (init == VSEG_PAGE_ZERO)
			clear_highpage(page);
		return page;
	}
	atomic64_inc(&pool.misses);
	return alloc_page(GFP_KERNEL | __GFP_NOWARN |
			  (init == VSEG_PAGE_ZERO ? __GFP_ZERO : 0));
}

/**
 * vseg_page_put() - give back a page of vseg_page_get()
 * @page: the page; its bytes are nobody's any more
 */
void vseg_page_put(struct page *page)
{
	spin_lock(&pool.lock);
	if (pool.count < pool.max) {
		list_add(&page->lru, &pool.pages);
		pool.count++;
		page = NULL;
	}
	spin_unlock(&pool.lock);
	if (page) {
		atomic64_inc(&pool.overflows);
		__free_page(page);
	}
}

static unsigned long pool_free(unsigned long nr)
{
	unsigned long freed = 0;
	struct page *page;

	while (freed < nr && (page = pool_take())) {
		__free_page(page);
		freed++;
	}
	return freed;
}

static unsigned long pool_shrink_count(struct shrinker *shrinker,
				       struct shrink_control *sc)
{
	unsigned long n = READ_ONCE(pool.count);

	return n ?: SHRINK_EMPTY;
}

static unsigned long pool_shrink_scan(struct shrinker *shrinker,
				      struct shrink_control *sc)
{
	unsigned long freed = pool_free(sc->nr_to_scan);

	sc->nr_scanned = freed;
	atomic64_add(freed, &pool.shrunk);
	return freed ?: SHRINK_STOP;
}

/**
 * vseg_page_pool_show() - the pool's figures, for debugfs
 * @m: the file; they go on the current line, as "pool_<key>=<value>"
 */
void vseg_page_pool_show(struct seq_file *m)
{
	seq_printf(m, " pool_pages=%lu pool_max=%lu pool_hits=%lld pool_misses=%lld pool_overflows=%lld pool_shrunk=%lld",
		   READ_ONCE(pool.count), pool.max,
		   (s64)atomic64_read(&pool.hits),
		   (s64)atomic64_read(&pool.misses),
		   (s64)atomic64_read(&pool.overflows),
		   (s64)atomic64_read(&pool.shrunk));
}

/**
 * vseg_page_pool_init() - set the pool up, at module load
 *
 * Return: 0 or -ENOMEM.
 */
int vseg_page_pool_init(void)
{
	pool.max = (unsigned long)page_pool_mb << (20 - PAGE_SHIFT);
	pool.shrinker = vseg_shrinker_create("drm-vseg-page-pool",
					     pool_shrink_count,
					     pool_shrink_scan);
	return pool.shrinker ? 0 : -ENOMEM;
}

/**
 * vseg_page_pool_fini() - give every pooled page back, at module unload
 */
void vseg_page_pool_fini(void)
{
	vseg_shrinker_destroy(pool.shrinker);
	pool.max = 0;
	pool_free(ULONG_MAX);
}
