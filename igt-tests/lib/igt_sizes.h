/* SPDX-License-Identifier: MIT */
/*
 * vseg's implementation of IGT's igt_sizes.h (included by igt.h): the
 * SZ_* constants with upstream's values and types, plain hexadecimal
 * literals (int, SZ_2G unsigned int), as in the kernel's linux/sizes.h.
 * An expression that can pass 2 GiB needs a 64-bit operand of its own.
 *
 * Copyright (c) 2026 The vseg authors
 */
#ifndef __IGT_SIZES_H__
#define __IGT_SIZES_H__

#define SZ_1K		0x00000400
#define SZ_2K		0x00000800
#define SZ_4K		0x00001000
#define SZ_8K		0x00002000
#define SZ_16K		0x00004000
#define SZ_32K		0x00008000
#define SZ_64K		0x00010000
#define SZ_128K		0x00020000
#define SZ_256K		0x00040000
#define SZ_512K		0x00080000

#define SZ_1M		0x00100000
#define SZ_2M		0x00200000
#define SZ_4M		0x00400000
#define SZ_8M		0x00800000
#define SZ_16M		0x01000000
#define SZ_32M		0x02000000
#define SZ_64M		0x04000000
#define SZ_128M		0x08000000
#define SZ_256M		0x10000000
#define SZ_512M		0x20000000

#define SZ_1G		0x40000000
#define SZ_2G		0x80000000

#endif /* __IGT_SIZES_H__ */
