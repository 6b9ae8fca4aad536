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
 * Transfer has written the page); any other taker gets it zeroed.
 *
 * Zeroing is done ahead, off the takers' path, as Windows' zero-page
 * thread does: a freed page goes on the dirty stack, and a thread clears
 * dirty pages and moves them to the zeroed stack, where a taker that
 * needs zeroes finds them ready (a CPU fault on a new buffer then costs
 * only the mapping). Like Windows', the thread runs at the lowest
 * priority (nice 19): it takes idle CPU time, not the clients'. Under
 * load the dirty pages wait, and a taker that overwrites its pages takes
 * dirty ones first; a taker that needs zeroes clears what it takes dirty.
 * Nothing writes a page on either stack but the thread, which holds the
 * pages it clears on neither. The pool gives its pages
 * back to the system under memory pressure (a shrinker) and when the
 * module goes.
 *
 * Memory cgroups: a page the pool allocates is charged to the memory
 * cgroup of the task it is allocated for (__GFP_ACCOUNT: the client whose
 * ioctl, fault or submission needs it), and stays charged there until it
 * goes back to the system. A pooled page handed to another client keeps
 * its first charge: recycled pages are charged to whoever allocated them,
 * not to their next user, and at most page_pool_mb of them sit in the
 * pool.
 */

#include <linux/highmem.h>
#include <linux/kthread.h>
#include <linux/mm.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/moduleparam.h>
#include <linux/sched.h>
#include <linux/sched/prio.h>
#include <linux/seq_file.h>
#include <linux/shrinker.h>
#include <linux/spinlock.h>
#include <linux/wait.h>

#include "vseg_compat.h"
#include "vseg_page_pool.h"

static unsigned int page_pool_mb = 64;
module_param(page_pool_mb, uint, 0444);
MODULE_PARM_DESC(page_pool_mb,
		 "MiB of freed pages kept for reuse by later moves (default 64, 0 = none)");

/* A stack of free pages, the newest last; under &pool.lock. */
struct pool_stack {
	struct page **pages;
	unsigned long count;
};

static struct {
	spinlock_t lock;		/* protects dirty, zeroed and clearing */
	struct pool_stack dirty;	/* as they were freed */
	struct pool_stack zeroed;	/* cleared by zero_work */
	unsigned long clearing;		/* pages zero_work holds */
	unsigned long max;		/* dirty + zeroed + clearing */
	struct task_struct *zeroer;	/* clears dirty pages */
	wait_queue_head_t zero_wait;	/* the zeroer waits for dirty pages */
	struct shrinker *shrinker;
	atomic64_t hits;		/* pages served from the pool */
	atomic64_t misses;		/* pages allocated */
	atomic64_t overflows;		/* pages freed: pool full */
	atomic64_t shrunk;		/* pages the shrinker freed */
	atomic64_t cleared;		/* pages zero_work cleared */
} pool = {
	.lock = __SPIN_LOCK_UNLOCKED(pool.lock),
	.zero_wait = __WAIT_QUEUE_HEAD_INITIALIZER(pool.zero_wait),
};

/* Up to @n pages of @st into @pages; how many. Under the lock. */
static unsigned long stack_pop(struct pool_stack *st, struct page **pages,
			       unsigned long n)
{
	n = min(n, st->count);
	st->count -= n;
	memcpy(pages, st->pages + st->count, n * sizeof(*pages));
	return n;
}

static void stack_push(struct pool_stack *st, struct page **pages,
		       unsigned long n)
{
	memcpy(st->pages + st->count, pages, n * sizeof(*pages));
	st->count += n;
}

/*
 * Up to @n pages into @pages, from @first, then @second; how many, and in
 * @from_first how many came from @first (they are at the start).
 */
static unsigned long pool_take(struct pool_stack *first,
			       struct pool_stack *second,
			       struct page **pages, unsigned long n,
			       unsigned long *from_first)
{
	unsigned long got;

	spin_lock(&pool.lock);
	got = stack_pop(first, pages, n);
	*from_first = got;
	got += stack_pop(second, pages + got, n - got);
	spin_unlock(&pool.lock);
	return got;
}

/* Clear the dirty pages, a batch at a time, onto the zeroed stack. */
static void zero_dirty(void)
{
	struct page *batch[32];
	unsigned long n, i;

	while (!kthread_should_stop()) {
		spin_lock(&pool.lock);
		n = stack_pop(&pool.dirty, batch, ARRAY_SIZE(batch));
		pool.clearing = n;
		spin_unlock(&pool.lock);
		if (!n)
			return;
		for (i = 0; i < n; i++)
			clear_highpage(batch[i]);
		atomic64_add(n, &pool.cleared);
		spin_lock(&pool.lock);
		pool.clearing = 0;
		stack_push(&pool.zeroed, batch, n);
		spin_unlock(&pool.lock);
		cond_resched();
	}
}

/* The zero-page thread: clears dirty pages whenever it gets the CPU. */
static int zeroer_fn(void *arg)
{
	while (!kthread_should_stop()) {
		wait_event_interruptible(pool.zero_wait,
					 READ_ONCE(pool.dirty.count) ||
					 kthread_should_stop());
		zero_dirty();
	}
	return 0;
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
	unsigned long got, zeroed, dirty, i;

	if (init == VSEG_PAGE_ZERO) {
		got = pool_take(&pool.zeroed, &pool.dirty, pages, n, &zeroed);
		/* the dirty ones came last */
		for (i = zeroed; i < got; i++) {
			clear_highpage(pages[i]);
			if (!(i & 255))
				cond_resched();
		}
	} else {
		got = pool_take(&pool.dirty, &pool.zeroed, pages, n, &dirty);
	}
	atomic64_add(got, &pool.hits);
	for (i = got; i < n; i++) {
		/* Charged to the caller's memory cgroup, as long as it lives. */
		pages[i] = alloc_page(GFP_KERNEL_ACCOUNT | __GFP_NOWARN |
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
	kept = min(n, pool.max - pool.dirty.count - pool.zeroed.count -
		      pool.clearing);
	stack_push(&pool.dirty, pages, kept);
	spin_unlock(&pool.lock);
	if (kept)
		wake_up(&pool.zero_wait);
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

/* Free up to @nr pooled pages, dirty ones first; how many. */
static unsigned long pool_free(unsigned long nr)
{
	struct page *batch[32];
	unsigned long freed = 0, n, i, dirty;

	while (freed < nr) {
		n = pool_take(&pool.dirty, &pool.zeroed, batch,
			      min_t(unsigned long, nr - freed,
				    ARRAY_SIZE(batch)), &dirty);
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
	unsigned long n = READ_ONCE(pool.dirty.count) +
			  READ_ONCE(pool.zeroed.count);

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
	seq_printf(m, " pool_pages=%lu pool_zeroed=%lu pool_max=%lu pool_hits=%lld pool_misses=%lld pool_overflows=%lld pool_shrunk=%lld pool_cleared=%lld",
		   READ_ONCE(pool.dirty.count) + READ_ONCE(pool.zeroed.count),
		   READ_ONCE(pool.zeroed.count), pool.max,
		   (s64)atomic64_read(&pool.hits),
		   (s64)atomic64_read(&pool.misses),
		   (s64)atomic64_read(&pool.overflows),
		   (s64)atomic64_read(&pool.shrunk),
		   (s64)atomic64_read(&pool.cleared));
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
		pool.dirty.pages = kvmalloc_array(pool.max, sizeof(struct page *),
						  GFP_KERNEL);
		pool.zeroed.pages = kvmalloc_array(pool.max,
						   sizeof(struct page *),
						   GFP_KERNEL);
		if (!pool.dirty.pages || !pool.zeroed.pages)
			goto err;
	}
	pool.shrinker = vseg_shrinker_create("drm-vseg-page-pool",
					     pool_shrink_count,
					     pool_shrink_scan);
	if (!pool.shrinker)
		goto err;
	if (pool.max) {
		pool.zeroer = kthread_run(zeroer_fn, NULL, "vseg-zero");
		if (IS_ERR(pool.zeroer)) {
			pool.zeroer = NULL;
			vseg_shrinker_destroy(pool.shrinker);
			goto err;
		}
		sched_set_normal(pool.zeroer, MAX_NICE);
	}
	return 0;

err:
	kvfree(pool.dirty.pages);
	kvfree(pool.zeroed.pages);
	pool.dirty.pages = NULL;
	pool.zeroed.pages = NULL;
	pool.max = 0;
	return -ENOMEM;
}

/**
 * vseg_page_pool_fini() - give every pooled page back, at module unload
 */
void vseg_page_pool_fini(void)
{
	vseg_shrinker_destroy(pool.shrinker);
	if (pool.zeroer)
		kthread_stop(pool.zeroer);
	pool.zeroer = NULL;
	pool_free(ULONG_MAX);
	pool.max = 0;
	kvfree(pool.dirty.pages);
	kvfree(pool.zeroed.pages);
	pool.dirty.pages = NULL;
	pool.zeroed.pages = NULL;
}
