/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Copyright (c) 2026 The vseg authors
 */
#ifndef __VSEG_KMS_H__
#define __VSEG_KMS_H__

struct vseg_device;

int vseg_kms_init(struct vseg_device *vdev);

#endif /* __VSEG_KMS_H__ */
