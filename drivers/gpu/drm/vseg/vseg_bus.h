/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Copyright (c) 2026 The vseg authors
 */
#ifndef __VSEG_BUS_H__
#define __VSEG_BUS_H__

struct vseg_device;

int vseg_bus_init(struct vseg_device *vdev);

#endif /* __VSEG_BUS_H__ */
