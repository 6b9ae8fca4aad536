/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Copyright (c) 2026 The vseg authors
 */
#ifndef __VSEG_EXEC_H__
#define __VSEG_EXEC_H__

#include <linux/dma-resv.h>
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
 */
struct vseg_exec {
	struct ww_acquire_ctx ticket;
	struct drm_gem_object **objs;
	unsigned int num;
};

static inline void vseg_exec_unlock(struct vseg_exec *x, unsigned int n,
				    int skip)
{
	unsigned int i;

	for (i = 0; i < n; i++)
		if ((int)i != skip)
			dma_resv_unlock(x->objs[i]->resv);
}

static inline int vseg_exec_lock(struct vseg_exec *x,
				 struct drm_gem_object **objs, unsigned int n)
{
	int contended = -1, err = 0;
	unsigned int i;

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

static inline void vseg_exec_fini(struct vseg_exec *x)
{
	vseg_exec_unlock(x, x->num, -1);
	ww_acquire_fini(&x->ticket);
}

#endif /* __VSEG_EXEC_H__ */
