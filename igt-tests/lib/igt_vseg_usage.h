/* SPDX-License-Identifier: MIT */
/*
 * What every segment holds and has done: snapshots of its usage counters
 * (the query) and its paging counters (debugfs "paging").
 *
 * Copyright (c) 2026 The vseg authors
 */
#ifndef IGT_VSEG_USAGE_H
#define IGT_VSEG_USAGE_H

#include <stdbool.h>
#include <stdint.h>

#include "vseg_drm.h"

/**
 * struct vseg_usage_snapshot - usage of every segment at one time
 * @num_segments: segments of the table.
 * @usage: @usage[0] is the system segment, @usage[id] segment id.
 */
struct vseg_usage_snapshot {
	uint32_t num_segments;
	struct drm_vseg_segment_usage usage[DRM_VSEG_MAX_SEGMENTS + 1];
};

/* Query the usage of every segment, once it is settled (see the .c). */
void vseg_usage_read(int fd, struct vseg_usage_snapshot *u);
/* Query the usage of every segment as it is this instant. */
void vseg_usage_read_now(int fd, struct vseg_usage_snapshot *u);
/* Do two snapshots have the same counters? */
bool vseg_usage_equal(const struct vseg_usage_snapshot *a,
		      const struct vseg_usage_snapshot *b);
/*
 * How long the usage may take to settle after a move: moves end
 * asynchronously, the old placement of a moved buffer (what it committed,
 * its aperture entries) going when the paging engine is done with it.
 */
#define VSEG_USAGE_SETTLE_MS	2000

/*
 * Assert that the usage equals @want, within VSEG_USAGE_SETTLE_MS; @what
 * names the situation.
 */
void vseg_usage_assert(int fd, const struct vseg_usage_snapshot *want,
		       const char *what);
/*
 * Wait up to @timeout_ms for the usage to equal @want (buffers may be
 * released asynchronously), then assert that it does.
 */
void vseg_usage_wait(int fd, const struct vseg_usage_snapshot *want,
		     unsigned int timeout_ms, const char *what);
/* Log a snapshot with igt_info(), prefixed with @what. */
void vseg_usage_print(const struct vseg_usage_snapshot *u, const char *what);

/**
 * struct vseg_paging_segment - one line of debugfs "paging"
 * @present: the file has a line for this segment.
 * @name: its name= value.
 * @transfers: buffers moved in or out.
 * @fills: FILL paging operations.
 * @discards: DISCARD_CONTENT paging operations.
 * @map: aperture ranges mapped.
 * @unmap: aperture ranges unmapped.
 */
struct vseg_paging_segment {
	bool present;
	char name[16];
	uint64_t transfers;
	uint64_t fills;
	uint64_t discards;
	uint64_t map;
	uint64_t unmap;
};

/* Indices of struct vseg_paging_engine.op. */
enum {
	VSEG_PAGING_OP_TRANSFER,
	VSEG_PAGING_OP_FILL,
	VSEG_PAGING_OP_DISCARD,
	VSEG_PAGING_OP_MAP,
	VSEG_PAGING_OP_UNMAP,
	VSEG_PAGING_OP_CRYPT,
	VSEG_PAGING_OP_UPDATE_PT,
	VSEG_PAGING_OP_FLUSH_TLB,
	VSEG_PAGING_OP_TRANSFER_VIRTUAL,
	VSEG_PAGING_OP_FILL_VIRTUAL,
	VSEG_PAGING_NUM_OPS
};

/**
 * struct vseg_paging_engine - the paging engine's line of debugfs "paging"
 * @segment: where the paging buffer is: the aperture's id, or 0.
 * @size: its size in bytes (PagingBufferSize).
 * @operations: operations it holds.
 * @offset: its offset in the aperture (0 in system memory).
 * @private: bytes of private data.
 * @private_zero: the private data is all zero.
 * @batches: batches the engine has run.
 * @pending: operations written and not run yet.
 * @full: times a move waited for room in the buffer.
 * @failed: operations that failed.
 * @bytes: bytes transferred or filled.
 * @op: operations run: transfer, fill, discard, map, unmap, crypt,
 *	update_pt, flush_tlb, transfer_virtual, fill_virtual
 *	(VSEG_PAGING_OP_*).
 * @va: the paging engine's own VA space exists (moves without
 *	AccessedPhysically use TransferVirtual and FillVirtual).
 * @va_valid: valid entries of its windows (where the last virtual
 *	operation's chunk was).
 * @va_valid_4k: of which 4 KiB ones.
 * @va_valid_64k: of which parts of 64 KiB pages.
 * @va_readonly: of which read-only (the source window's).
 * @va_system: of which naming system pages.
 */
struct vseg_paging_engine {
	uint32_t segment;
	uint64_t size;
	uint64_t operations;
	uint64_t offset;
	uint64_t private;
	bool private_zero;
	uint64_t batches;
	uint64_t pending;
	uint64_t full;
	uint64_t failed;
	uint64_t bytes;
	uint64_t op[VSEG_PAGING_NUM_OPS];
	bool va;
	uint64_t va_valid;
	uint64_t va_valid_4k;
	uint64_t va_valid_64k;
	uint64_t va_readonly;
	uint64_t va_system;
};

/**
 * struct vseg_page_pool - the page pool's figures in debugfs "paging"
 * @pages: freed pages kept for reuse now.
 * @max: most it keeps (the page_pool_mb parameter).
 * @hits: pages taken from it.
 * @misses: pages allocated because it was empty.
 * @overflows: pages freed because it was full.
 * @shrunk: pages given back under memory pressure.
 */
struct vseg_page_pool {
	uint64_t pages;
	uint64_t max;
	uint64_t hits;
	uint64_t misses;
	uint64_t overflows;
	uint64_t shrunk;
};


/**
 * struct vseg_paging - the parsed debugfs "paging" file
 * @engine: the paging buffer and engine.
 * @pool: the pages recycled between moves.
 * @seg: @seg[id] is segment id (0: system memory, if listed).
 */
struct vseg_paging {
	struct vseg_paging_engine engine;
	struct vseg_page_pool pool;
	struct vseg_paging_segment seg[DRM_VSEG_MAX_SEGMENTS + 1];
};

/*
 * Read and parse "paging" once the paging engine has run every operation
 * queued (within VSEG_USAGE_SETTLE_MS); asserts it is well-formed.
 */
void vseg_debugfs_read_paging(int fd, struct vseg_paging *p);
void vseg_debugfs_parse_paging(const char *text, struct vseg_paging *p);

#endif /* IGT_VSEG_USAGE_H */
