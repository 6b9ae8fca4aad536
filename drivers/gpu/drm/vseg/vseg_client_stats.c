// SPDX-License-Identifier: GPL-2.0-only
/*
 * Copyright (c) 2026 The vseg authors
 *
 * What each file's work cost the engines (the engines and the paging
 * engine charge it; fdinfo shows it, vseg_fdinfo.c), and the files' own
 * ids where DRM has none.
 */

#include <linux/atomic.h>
#include <linux/minmax.h>
#include <linux/slab.h>

#include "vseg_client_stats.h"

static atomic64_t vseg_client_ids = ATOMIC64_INIT(0);

/**
 * vseg_client_stats_alloc() - engine time counters of a new file
 *
 * Return: the counters, one reference, or NULL without memory.
 */
struct vseg_client_stats *vseg_client_stats_alloc(void)
{
	struct vseg_client_stats *s = kzalloc(sizeof(*s), GFP_KERNEL_ACCOUNT);

	if (s)
		kref_init(&s->ref);
	return s;
}

/**
 * vseg_client_stats_get() - take a reference
 * @s: the counters, or NULL
 *
 * Return: @s.
 */
struct vseg_client_stats *vseg_client_stats_get(struct vseg_client_stats *s)
{
	if (s)
		kref_get(&s->ref);
	return s;
}

static void stats_release(struct kref *ref)
{
	kfree(container_of(ref, struct vseg_client_stats, ref));
}

/**
 * vseg_client_stats_put() - drop a reference
 * @s: the counters, or NULL
 */
void vseg_client_stats_put(struct vseg_client_stats *s)
{
	if (s)
		kref_put(&s->ref, stats_release);
}

/**
 * vseg_client_stats_add() - charge engine time to a file
 * @s: its counters, or NULL (work of no file)
 * @engine: VSEG_ENGINE_*
 * @ns: nanoseconds the engine was busy with the work
 *
 * Work that ran took time, if less than the clock can tell (a coarse
 * clocksource, in a guest without a usable TSC, reads 0 for short work):
 * at least 1 ns is charged.
 */
void vseg_client_stats_add(struct vseg_client_stats *s, u32 engine, u64 ns)
{
	if (s && engine < VSEG_NUM_ENGINES)
		atomic64_add(max_t(u64, ns, 1), &s->busy_ns[engine]);
}

/**
 * vseg_client_id_next() - an id for a new file, unique while loaded
 *
 * Return: the id (the owner of the buffers the file creates).
 */
u64 vseg_client_id_next(void)
{
	return atomic64_inc_return(&vseg_client_ids);
}
