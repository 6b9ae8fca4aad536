/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Copyright (c) 2026 The vseg authors
 */
#ifndef __VSEG_CLIENT_STATS_H__
#define __VSEG_CLIENT_STATS_H__

#include <linux/atomic.h>
#include <linux/kref.h>
#include <linux/types.h>

#include "vseg_engine_types.h"

/**
 * struct vseg_client_stats - what one file's work cost the engines
 * @ref: held by the file and by each of its jobs not finished yet.
 * @busy_ns: nanoseconds each engine (VSEG_ENGINE_*) spent running the
 *	file's work.
 */
struct vseg_client_stats {
	struct kref ref;
	atomic64_t busy_ns[VSEG_NUM_ENGINES];
};

struct vseg_client_stats *vseg_client_stats_alloc(void);
struct vseg_client_stats *vseg_client_stats_get(struct vseg_client_stats *s);
void vseg_client_stats_put(struct vseg_client_stats *s);
void vseg_client_stats_add(struct vseg_client_stats *s, u32 engine, u64 ns);
u64 vseg_client_id_next(void);

#endif /* __VSEG_CLIENT_STATS_H__ */
