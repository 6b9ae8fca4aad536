/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Copyright (c) 2026 The vseg authors
 */
#ifndef __VSEG_EXEC_H__
#define __VSEG_EXEC_H__

#include <linux/atomic.h>
#include <linux/dma-resv.h>
#include <linux/wait.h>
#include <linux/ww_mutex.h>
#include <drm/drm_gem.h>

/*
 * Locking several buffers with the wound-wait protocol, for submission and
 * for placement steps that may evict.
 *
 * Not drm_exec: once it holds every object it marks the ticket done
 * (ww_acquire_done()), and TTM's eviction goes on locking buffers with
 * that same ticket (the reservation's locking context) to wait for the
 * ones others hold, which a done ticket forbids (CONFIG_DEBUG_MUTEXES
 * warns). vseg_exec_lock() locks all of @objs (no duplicates) or none;
 * vseg_exec_fini() unlocks them and ends the transaction.
 *
 * A placement that found no room because others held the buffers it
 * would evict leaves its transaction and waits, with vseg_exec_backoff(),
 * for another transaction of the device to end before it tries again.
 */

/* How long vseg_exec_backoff() waits at most (holders outside transactions). */
#define VSEG_EXEC_BACKOFF_MS	50

/**
 * struct vseg_exec_events - the device's transactions ending
 * @wq: placements waiting for buffers that others hold
 * @ended: transactions ended so far
 */
struct vseg_exec_events {
	wait_queue_head_t wq;
	atomic_t ended;
};

/**
 * struct vseg_exec - one ww transaction over a set of buffers
 * @ticket: its ww acquire context (TTM evicts with it too)
 * @ev: the device's transaction events
 * @objs: the buffers it holds
 * @num: number of @objs
 */
struct vseg_exec {
	struct ww_acquire_ctx ticket;
	struct vseg_exec_events *ev;
	struct drm_gem_object **objs;
	unsigned int num;
};

static inline void vseg_exec_events_init(struct vseg_exec_events *ev)
{
	init_waitqueue_head(&ev->wq);
	atomic_set(&ev->ended, 0);
}

static inline void vseg_exec_unlock(struct vseg_exec *x, unsigned int n,
				    int skip)
{
	unsigned int i;

	for (i = 0; i < n; i++)
		if ((int)i != skip)
			dma_resv_unlock(x->objs[i]->resv);
}

static inline int vseg_exec_lock(struct vseg_exec *x,
				 struct vseg_exec_events *ev,
				 struct drm_gem_object **objs, unsigned int n)
{
	int contended = -1, err = 0;
	unsigned int i;

	x->ev = ev;
	x->objs = objs;
	x->num = n;
	ww_acquire_init(&x->ticket, &reservation_ww_class);
retry:
	if (contended >= 0) {
		err = dma_resv_lock_slow_interruptible(objs[contended]->resv,
						       &x->ticket);
		if (err)
			goto fini;
	}
	for (i = 0; i < n; i++) {
		if ((int)i == contended)
			continue;
		err = dma_resv_lock_interruptible(objs[i]->resv, &x->ticket);
		if (!err)
			continue;
		vseg_exec_unlock(x, i, contended);
		if (contended >= 0)
			dma_resv_unlock(objs[contended]->resv);
		if (err != -EDEADLK)
			goto fini;
		contended = i;
		goto retry;
	}
	return 0;
fini:
	ww_acquire_fini(&x->ticket);
	return err;
}

/* Returns the number of transactions ended, for vseg_exec_backoff(). */
static inline int vseg_exec_fini(struct vseg_exec *x)
{
	int ended;

	vseg_exec_unlock(x, x->num, -1);
	ww_acquire_fini(&x->ticket);
	ended = atomic_inc_return(&x->ev->ended);
	if (wq_has_sleeper(&x->ev->wq))
		wake_up_all(&x->ev->wq);
	return ended;
}

/*
 * After a transaction that found no room: wait until another one has ended
 * since @ended (what vseg_exec_fini() returned), or VSEG_EXEC_BACKOFF_MS.
 */
static inline void vseg_exec_backoff(struct vseg_exec_events *ev, int ended)
{
	wait_event_timeout(ev->wq, atomic_read(&ev->ended) != ended,
			   msecs_to_jiffies(VSEG_EXEC_BACKOFF_MS));
}

#endif /* __VSEG_EXEC_H__ */
