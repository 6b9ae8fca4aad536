/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Copyright (c) 2026 The vseg authors
 */
#ifndef __VSEG_PCI_H__
#define __VSEG_PCI_H__

#include <linux/types.h>

struct pci_dev;
struct pci_device_id;
struct vseg_segment_table;

bool vseg_pci_wanted(void);
int vseg_pci_id(struct pci_device_id *id);
int vseg_pci_table_resolve(struct vseg_segment_table *t, struct pci_dev *pdev);

#endif /* __VSEG_PCI_H__ */
