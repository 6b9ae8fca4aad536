/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Copyright (c) 2026 The vseg authors
 */
#ifndef __VSEG_BUDGET_H__
#define __VSEG_BUDGET_H__

#include <linux/types.h>

#include "vseg_limits.h"

/* Most of a budget group all processes may reserve together, in percent. */
#define VSEG_BUDGET_RESERVABLE_PERCENT	80

/**
 * struct vseg_budget_info - one process's view of one budget group
 * @budget: bytes it may keep resident there without being trimmed.
 * @usage: bytes of its buffers resident there.
 * @available: bytes it may reserve there (its reservation included).
 * @reservation: bytes it reserved there.
 * @size: bytes of the group's segments.
 */
struct vseg_budget_info {
	u64 budget;
	u64 usage;
	u64 available;
	u64 reservation;
	u64 size;
};

/* D3D12_RESIDENCY_PRIORITY_NORMAL and HIGH (the UAPI's). */
#define VSEG_PRIORITY_NORMAL	0x78000000u
#define VSEG_PRIORITY_HIGH	0xa0010000u

bool vseg_budget_policy_on(void);
unsigned int vseg_budget_lru_priority(u32 priority, bool policy);
void vseg_budget_init(struct vseg_limits *l, const u64 *flags,
		      const u64 *size, u32 num_slots);
u64 vseg_budget_of(u64 size, u64 reserved_all, u64 own_reservation,
		   u32 users, u32 procs);
u64 vseg_budget_reservable(u64 size, u64 reserved_others);
void vseg_budget_query(struct vseg_limits_client *c, u32 group,
		       struct vseg_budget_info *info);
void vseg_budget_cap(struct vseg_budget_info *info, u64 limit);
int vseg_budget_set_reservation(struct vseg_limits_client *c, u32 group,
				u64 bytes);
struct drm_file;

void vseg_budget_changed(struct vseg_limits *l);
int vseg_budget_notify(struct vseg_limits_client *c, struct drm_file *file,
		       u64 user_data);
void vseg_budget_notify_cancel(struct vseg_limits *l, struct drm_file *file);
void vseg_budget_fini(struct vseg_limits *l);
bool vseg_budget_over(struct vseg_limits_client *owner, u32 seg);
u64 vseg_budget_penalty_ns(u64 bytes, u32 mbps);
void vseg_budget_moved_in(struct vseg_limits_client *owner, u64 bytes);
u64 vseg_budget_paged_in(struct vseg_limits_client *c);
void vseg_budget_paged(struct vseg_limits_client *c, u64 before);
int vseg_budget_throttle(struct vseg_limits_client *c);
u64 vseg_budget_penalty(struct vseg_limits_client *c);
u32 vseg_budget_mark_over(struct vseg_limits *l, u32 seg);
bool vseg_budget_marked_over(struct vseg_limits_client *owner, u32 mark);
bool vseg_budget_protects(struct vseg_limits_client *owner, u32 seg,
			  u64 size);

#endif /* __VSEG_BUDGET_H__ */
