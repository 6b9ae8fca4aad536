/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Copyright (c) 2026 The vseg authors
 *
 * What the device and module code (vseg_drv.c) alone needs; the device's
 * types are in vseg_device_types.h.
 */
#ifndef __VSEG_DRV_H__
#define __VSEG_DRV_H__

#include <linux/device.h>

#define DRIVER_NAME	"vseg"
#define DRIVER_DESC	"WDDM GPU segment memory model on TTM"
#define DRIVER_DATE	"20261129"
#define DRIVER_MAJOR	0
#define DRIVER_MINOR	15

#endif /* __VSEG_DRV_H__ */
