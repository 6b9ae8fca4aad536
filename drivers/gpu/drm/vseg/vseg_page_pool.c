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
#include <linux/mm.h>
#include <linux/slab.h>
#include <linux/string.h>
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
	spinlock_t lock;		/* protects stack and count */
	struct page **stack;		/* free pages, the newest last */
	unsigned long count;
	unsigned long max;
	struct shrinker *shrinker;
	atomic64_t hits;		/* pages served from the pool */
	atomic64_t misses;		/* pages allocated */
	atomic64_t overflows;		/* pages freed: pool full */
	atomic64_t shrunk;		/* pages the shrinker freed */
} pool = {
	.lock = __SPIN_LOCK_UNLOCKED(pool.lock),
};

/* Up to @n pages from the pool into @pages; how many. */
static unsigned long pool_take(struct page **pages, unsigned long n)
{
	spin_lock(&pool.lock);
	n = min(n, pool.count);
	pool.count -= n;
	memcpy(pages, pool.stack + pool.count, n * sizeof(*pages));
	spin_unlock(&pool.lock);
	return n;
}

/**
 * vseg_pages_get() - system pages for a placement or the backing store
 * @pages: receives them
 * @n: how many
 * @init: what they must hold, &enum vseg_page_init
 *
 * Return: 0, or -ENOMEM with none taken.
 */
int vseg_pages_get(struct page **pages, unsigned long n,
		   enum vseg_page_init init)
{
	unsigned long got = pool_take(pages, n), i;

	atomic64_add(got, &pool.hits);
	if (init == VSEG_PAGE_ZERO) {
		for (i = 0; i < got; i++) {
			clear_highpage(pages[i]);
			if (!(i & 255))
				cond_resched();
		}
	}
	for (i = got; i < n; i++) {
		pages[i] = alloc_page(GFP_KERNEL | __GFP_NOWARN |
				      (init == VSEG_PAGE_ZERO ? __GFP_ZERO : 0));
		if (!pages[i]) {
			vseg_pages_put(pages, i);
			return -ENOMEM;
		}
		if (!(i & 255))
			cond_resched();
	}
	atomic64_add(n - got, &pool.misses);
	return 0;
}

/**
 * vseg_pages_put() - give back pages of vseg_pages_get()
 * @pages: the pages; their bytes are nobody's any more
 * @n: how many
 */
void vseg_pages_put(struct page **pages, unsigned long n)
{
	unsigned long kept, i;

	spin_lock(&pool.lock);
	kept = min(n, pool.max - pool.count);
	memcpy(pool.stack + pool.count, pages, kept * sizeof(*pages));
	pool.count += kept;
	spin_unlock(&pool.lock);
	if (kept == n)
		return;
	atomic64_add(n - kept, &pool.overflows);
	for (i = kept; i < n; i++)
		__free_page(pages[i]);
}

/**
 * vseg_page_get() - one page, see vseg_pages_get()
 * @init: what the page must hold
 *
 * Return: the page, or NULL without memory.
 */
struct page *vseg_page_get(enum vseg_page_init init)
{
	struct page *page;

	return vseg_pages_get(&page, 1, init) ? NULL : page;
}

/**
 * vseg_page_put() - give back one page, see vseg_pages_put()
 * @page: the page
 */
void vseg_page_put(struct page *page)
{
	vseg_pages_put(&page, 1);
}

static unsigned long pool_free(unsigned long nr)
{
	struct page *batch[32];
	unsigned long freed = 0, n, i;

	while (freed < nr) {
		n = pool_take(batch, min_t(unsigned long, nr - freed,
					   ARRAY_SIZE(batch)));
		if (!n)
			break;
		for (i = 0; i < n; i++)
			__free_page(batch[i]);
		freed += n;
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
	if (pool.max) {
		pool.stack = kvmalloc_array(pool.max, sizeof(*pool.stack),
					    GFP_KERNEL);
		if (!pool.stack)
			return -ENOMEM;
	}
	pool.shrinker = vseg_shrinker_create("drm-vseg-page-pool",
					     pool_shrink_count,
					     pool_shrink_scan);
	if (!pool.shrinker) {
		kvfree(pool.stack);
		return -ENOMEM;
	}
	return 0;
}

/**
 * vseg_page_pool_fini() - give every pooled page back, at module unload
 */
void vseg_page_pool_fini(void)
{
	vseg_shrinker_destroy(pool.shrinker);
	pool_free(ULONG_MAX);
	pool.max = 0;
	kvfree(pool.stack);
	pool.stack = NULL;
}
