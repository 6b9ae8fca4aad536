// SPDX-License-Identifier: MIT
/*
 * vseg_exec_virtual: the virtually addressed render engine. Each open file
 * has its own GPU virtual address space; VM_BIND maps a whole buffer of
 * any placement at a GPU virtual address, and the engine translates
 * through the software page tables, so buffers without AccessedPhysically
 * work too, scattered pages included.
 *
 * FILL, COPY and WRITE by GPU virtual address in every placement (scattered
 * and contiguous buffers in each memory segment, the aperture, system
 * memory), read back through mmap and compared with a CPU-side model;
 * mappings follow buffers that move; unmapped addresses fail the job's
 * fence with EFAULT and the kernel keeps serving other clients; VM_BIND
 * and VM_UNBIND errors; address spaces are per file; a queued job keeps
 * the mappings it was submitted with; syncobjs across the two engines.
 *
 * Copyright (c) 2026 The vseg authors
 */
/**
 * TEST: vseg exec virtual
 * Category: Core
 * Mega feature: General Core features
 * Sub-category: Command submission
 * Functionality: GPU virtual addressing
 * Description: The vseg render engine: VM_BIND buffers of every placement,
 *	scattered ones included, FILL/COPY/WRITE them by GPU virtual address;
 *	unmapped addresses fail the job's fence; VM_BIND/VM_UNBIND errors;
 *	per-file address spaces.
 *
 * SUBTEST: fill-%s
 * Description: VM_BIND a buffer of every placement (scattered and contiguous
 *	in each memory segment, the aperture, system memory), FILL/WRITE/COPY
 *	it by GPU virtual address, read back through mmap; again after it
 *	moved out and back. On profile arg[1]. Dynamic subtests: one per
 *	placement, <segment>-scattered or <segment>-plain,
 *	<segment>-contiguous (memory segments) or <segment>-mapped (the
 *	aperture), and system.
 *
 * SUBTEST: copy-%s
 * Description: COPY by GPU virtual address between buffers of every pair of
 *	placements. On profile arg[1]. Dynamic subtests: <from>-to-<to> for
 *	each pair of placements (<segment>-plain, <segment>-contiguous or
 *	-mapped, system).
 *
 * SUBTEST: unbind-fault
 * Description: A job on an unbound address fails its fence with EFAULT; the
 *	kernel keeps serving this and other clients; bound again, the address
 *	works.
 *
 * SUBTEST: unmapped
 * Description: Addresses never bound, around mappings and past the address
 *	space fail the job's fence with EFAULT and skip the rest of the job.
 *
 * SUBTEST: bind-errors
 * Description: VM_BIND and VM_UNBIND refuse bad addresses, ranges, handles
 *	and fields, and unbinding (size 0) a mapping that is not there; none
 *	of it touches the mapping in place.
 *
 * SUBTEST: bind-limit
 * Description: The address spaces of a process hold at most
 *	DRM_VSEG_MAX_VM_MAPPINGS mappings together: one more is ENOSPC in any
 *	of its files; other processes are not affected; unbinding makes
 *	room.
 *
 * SUBTEST: per-file
 * Description: Each open file has its own GPU virtual address space.
 *
 * SUBTEST: alias
 * Description: A buffer bound at two addresses is reached through both.
 *
 * SUBTEST: queued-rebind
 * Description: A job reaches what the page tables map when it runs: queued
 *	behind a job that waits on a gate, its address unbound and rebound
 *	to another buffer of the file before it runs, it never writes the
 *	unbound buffer; it writes the new one, or faults if the new one's
 *	entries are not written yet; a job queued after the rebind reaches
 *	the new buffer.
 *
 * SUBTEST: partial-bind
 * Description: VM_BIND of a range of a buffer (offset and size, or size 0
 *	for the rest of it): jobs reach exactly the bound window of the
 *	buffer, checked through mmap; the addresses around a window fault.
 *
 * SUBTEST: split-unbind
 * Description: VM_UNBIND of the middle of a mapping leaves both ends
 *	working and the hole faulting; an unbind of size 0 takes the piece
 *	that starts at the address; unbinding across a piece shrinks it.
 *
 * SUBTEST: bind-replace
 * Description: VM_BIND over an existing mapping replaces the part it
 *	covers, whatever buffer it maps, and keeps the rest.
 *
 * SUBTEST: async-bind
 * Description: A VM_BIND with a gate as input syncobj is not applied until
 *	the gate opens, nor are the binds made after it: a job that does not
 *	wait for the bind's output syncobj reaches the old mapping or faults;
 *	the output signals once the bind is applied, and a job waiting for it
 *	reaches the new mapping.
 *
 * SUBTEST: readonly
 * Description: A mapping with DRM_VSEG_VM_BIND_READONLY faults (EFAULT)
 *	on WRITE, FILL and COPY into it and the buffer is untouched; COPY out
 *	of it works, as does a writable mapping of the same buffer elsewhere.
 *
 * SUBTEST: vm-private
 * Description: Buffers created VM_PRIVATE are bound, filled and copied by
 *	render jobs with their data intact through mmap, moved by EVICT and
 *	MAKE_RESIDENT, and cannot be exported (PRIME: EINVAL).
 *
 * SUBTEST: bind-limit-queued
 * Description: Queued (asynchronous) binds reserve their worst case
 *	against DRM_VSEG_MAX_VM_MAPPINGS, a MAP two mappings and an UNMAP
 *	one: a bind that would not fit then is ENOSPC, also an unbind, on
 *	any file of the process, not in another process; once the queued
 *	binds are applied only what they added counts.
 *
 * SUBTEST: evict-busy
 * Description: Evicting and restoring a bound buffer a render job writes
 *	loses nothing.
 *
 * SUBTEST: cross-engine
 * Description: Syncobjs order jobs across the copy and render engines.
 *
 * SUBTEST: render-node
 * Description: VM_BIND and both engines work on the render node.
 *
 * SUBTEST: render-allocation-list
 * Description: The render engine refuses an allocation list.
 *
 * arg[1]:
 *
 * @discrete:	the discrete profile (the default)
 * @integrated:	the integrated profile
 * @smallbar:	the smallbar profile
 * @multi:	the multi profile
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include <xf86drm.h>

#include "igt.h"
#include "igt_vseg.h"
#include "igt_vseg_exec.h"

IGT_TEST_DESCRIPTION("The vseg render engine: VM_BIND buffers of every "
		     "placement, scattered ones included, FILL/COPY/WRITE "
		     "them by GPU virtual address; unmapped addresses fail "
		     "the job's fence; VM_BIND/VM_UNBIND errors; per-file "
		     "address spaces.");

#define AP_FLAG		DRM_VSEG_GEM_CREATE_ACCESSED_PHYSICALLY
#define COPY		DRM_VSEG_ENGINE_COPY
#define RENDER		DRM_VSEG_ENGINE_RENDER
#define VA_START	0x100000000ull
#ifndef SZ_256K
#define SZ_256K		0x40000ull
#endif
#ifndef SZ_512K
#define SZ_512K		0x80000ull
#endif

static struct vseg_ctx ctx = VSEG_CTX_INIT_ENGINE(VSEG_LEFTOVERS_BASE_COUNT);
static struct vseg_va_space va_space;

/* --- buffers with a model, bound at a GPU virtual address --------------------- */

/**
 * struct vbuf - a bound test buffer and what it must hold
 * @fd: the file it belongs to.
 * @handle: GEM handle.
 * @size: its size.
 * @va: where it is bound (0: not bound).
 * @model: the expected contents.
 */
struct vbuf {
	int fd;
	uint32_t handle;
	uint64_t size;
	uint64_t va;
	uint8_t *model;
};

static void vbuf_create(struct vbuf *b, int fd, struct drm_vseg_gem_create *c)
{
	memset(b, 0, sizeof(*b));
	b->fd = fd;
	b->handle = vseg_gem_create(fd, c);
	b->size = c->size;
	b->model = calloc(1, b->size);
	igt_assert(b->model);
}

static void vbuf_bind(struct vbuf *b, uint64_t va)
{
	uint64_t size = vseg_vm_bind(b->fd, b->handle, va);

	igt_assert_f(size == b->size,
		     "VM_BIND mapped %#llx bytes of a %#llx-byte buffer\n",
		     (unsigned long long)size, (unsigned long long)b->size);
	b->va = va;
}

static void vbuf_destroy(struct vbuf *b)
{
	if (b->va)
		vseg_vm_unbind(b->fd, b->va);
	if (b->handle)
		vseg_gem_close(b->fd, b->handle);
	free(b->model);
	memset(b, 0, sizeof(*b));
}

static void vbuf_cpu_pattern(struct vbuf *b, uint32_t seed)
{
	vseg_pattern_fill(b->model, b->size, seed);
	vseg_bo_write(b->fd, b->handle, 0, b->model, b->size);
}

static void vbuf_verify(const struct vbuf *b, const char *what)
{
	uint8_t *got = malloc(b->size);

	igt_assert(got);
	vseg_bo_read(b->fd, b->handle, 0, got, b->size);
	vseg_assert_same(got, b->model, b->size, 0, what);
	free(got);
}

static void vfill(struct vseg_cmdbuf *cb, struct vbuf *b, uint64_t off,
		  uint64_t size, uint32_t value)
{
	igt_assert(b->va && off + size <= b->size);
	vseg_cb_fill(cb, b->va + off, size, value);
	vseg_fill32(b->model + off, size, value);
}

static void vcopy(struct vseg_cmdbuf *cb, struct vbuf *dst, uint64_t doff,
		  struct vbuf *src, uint64_t soff, uint64_t size)
{
	igt_assert(dst->va && src->va);
	igt_assert(doff + size <= dst->size && soff + size <= src->size);
	vseg_cb_copy(cb, dst->va + doff, src->va + soff, size);
	memmove(dst->model + doff, src->model + soff, size);
}

static void vwrite(struct vseg_cmdbuf *cb, struct vbuf *b, uint64_t off,
		   uint64_t value)
{
	igt_assert(b->va && off + 8 <= b->size);
	vseg_cb_write(cb, b->va + off, value);
	memcpy(b->model + off, &value, 8);
}

/* --- placements ---------------------------------------------------------------- */

/**
 * struct vcell - a placement to test the render engine in
 * @seg: the segment (0: system memory).
 * @flags: create flags (AccessedPhysically or 0).
 * @scattered: fragment @seg first so that the buffer is a set of pages
 *	scattered over the holes.
 * @name: dynamic subtest name.
 */
struct vcell {
	uint32_t seg;
	uint32_t flags;
	bool scattered;
	char name[40];
};

#define MAX_VCELLS (2 * DRM_VSEG_MAX_SEGMENTS + 2)

/*
 * Scattered (AP=0, segment fragmented first) and contiguous (AP=1) in
 * each memory segment, AP=0 and AP=1 in the aperture, AP=0 in system
 * memory.
 */
static unsigned int virtual_cells(struct vcell *cells, bool with_scattered)
{
	unsigned int n = 0;

	for (uint32_t id = 1; id <= ctx.q.num_segments; id++) {
		if (vseg_ctx_is_memory(&ctx, id)) {
			cells[n] = (struct vcell){ .seg = id,
						   .scattered = with_scattered };
			snprintf(cells[n].name, sizeof(cells[n].name),
				 "%s-%s", vseg_ctx_seg_name(&ctx, id),
				 with_scattered ? "scattered" : "plain");
			n++;
		} else {
			cells[n] = (struct vcell){ .seg = id };
			snprintf(cells[n].name, sizeof(cells[n].name),
				 "%s-plain", vseg_ctx_seg_name(&ctx, id));
			n++;
		}
		cells[n] = (struct vcell){ .seg = id, .flags = AP_FLAG };
		snprintf(cells[n].name, sizeof(cells[n].name), "%s-%s",
			 vseg_ctx_seg_name(&ctx, id),
			 vseg_ctx_is_memory(&ctx, id) ? "contiguous" : "mapped");
		n++;
	}
	cells[n] = (struct vcell){ .seg = 0 };
	snprintf(cells[n].name, sizeof(cells[n].name), "system");
	n++;
	return n;
}

static uint32_t cell_supported(const struct vcell *cell)
{
	return cell->seg ? BIT(cell->seg) | BIT(ctx.ap_id) : BIT(ctx.ap_id);
}

/* Fillers that fragment a memory segment: every other one is closed. */
struct fragments {
	uint32_t *handles;
	unsigned int n;
};

static int cmp_u64_pair(const void *a, const void *b)
{
	const uint64_t *x = a, *y = b;

	return x[0] < y[0] ? -1 : x[0] > y[0];
}

static uint64_t chunk_of(uint32_t id)
{
	uint32_t page = vseg_ctx_seg(&ctx, id)->page_size;

	return page > SZ_64K ? page : SZ_64K;
}

/*
 * Fill what is left of memory segment @id with chunk-sized contiguous
 * buffers, then close every other one by offset: the free space is single
 * chunks between buffers.
 */
static void fragment(uint32_t id, struct fragments *f)
{
	const uint64_t chunk = chunk_of(id);
	struct vseg_usage_snapshot u;
	uint64_t (*by_offset)[2];
	unsigned int n;

	vseg_usage_read(ctx.fd, &u);
	n = (vseg_ctx_seg(&ctx, id)->size - u.usage[id].committed) / chunk;
	f->handles = calloc(n, sizeof(uint32_t));
	by_offset = calloc(n, sizeof(*by_offset));
	igt_assert(f->handles && by_offset);
	f->n = n;
	for (unsigned int i = 0; i < n; i++) {
		struct drm_vseg_gem_info info;

		f->handles[i] = vseg_gem_create_simple(ctx.fd, chunk, BIT(id),
						       AP_FLAG);
		vseg_gem_info(ctx.fd, f->handles[i], &info);
		igt_assert_eq_u32(info.segment_id, id);
		by_offset[i][0] = info.offset;
		by_offset[i][1] = i;
	}
	qsort(by_offset, n, sizeof(*by_offset), cmp_u64_pair);
	for (unsigned int i = 0; i < n; i += 2) {
		unsigned int k = by_offset[i][1];

		vseg_gem_close(ctx.fd, f->handles[k]);
		f->handles[k] = 0;
	}
	free(by_offset);
}

static bool fragments_unmoved(const struct fragments *f)
{
	for (unsigned int i = 0; i < f->n; i++) {
		struct drm_vseg_gem_info info;

		if (!f->handles[i])
			continue;
		vseg_gem_info(ctx.fd, f->handles[i], &info);
		if (info.moves)
			return false;
	}
	return true;
}

static void fragments_free(struct fragments *f)
{
	for (unsigned int i = 0; i < f->n; i++)
		if (f->handles[i])
			vseg_gem_close(ctx.fd, f->handles[i]);
	free(f->handles);
	memset(f, 0, sizeof(*f));
}

/* Create a buffer of @size in @cell (fragmenting first if it says so). */
static void cell_create(const struct vcell *cell, uint64_t size,
			struct vbuf *b, struct fragments *f)
{
	struct drm_vseg_gem_create c;
	struct drm_vseg_gem_info info;

	memset(f, 0, sizeof(*f));
	if (cell->scattered)
		fragment(cell->seg, f);
	vseg_create_args(&c, size, cell_supported(cell), cell->flags);
	if (cell->seg)
		vseg_create_prefer(&c, cell->seg, 0);
	vbuf_create(b, ctx.fd, &c);
	/*
	 * System memory is named by the aperture's id, where a buffer is
	 * created committed to the aperture: evicting it leaves its plain
	 * system pages.
	 */
	if (!cell->seg)
		vseg_evict(ctx.fd, &b->handle, 1);
	vseg_gem_info(ctx.fd, b->handle, &info);
	igt_assert_f(info.segment_id == cell->seg,
		     "%s: the buffer was created in %s\n", cell->name,
		     vseg_ctx_seg_name(&ctx, info.segment_id));
	if (cell->scattered && fragments_unmoved(f))
		igt_assert_f(!(info.placement_flags & DRM_VSEG_INFO_CONTIGUOUS),
			     "%s: a buffer of %llu holes claims to be contiguous\n",
			     cell->name,
			     (unsigned long long)(size / chunk_of(cell->seg)));
}

/*
 * The buffer is still where the cell put it (the engine moved nothing),
 * except that a buffer in system memory is committed to the aperture for
 * the GPU's use, once, as WDDM's memory manager does.
 */
static void check_in_cell(const struct vcell *cell, const struct vbuf *b,
			  const struct drm_vseg_gem_info *before,
			  const char *what)
{
	struct drm_vseg_gem_info info;

	vseg_gem_info(ctx.fd, b->handle, &info);
	if (before->segment_id == 0 && info.segment_id != 0) {
		igt_assert_f(info.segment_id == ctx.ap_id &&
			     info.moves == before->moves + 1,
			     "%s: %s: a system buffer used by a job went to %s, %llu moves\n",
			     cell->name, what,
			     vseg_ctx_seg_name(&ctx, info.segment_id),
			     (unsigned long long)info.moves);
		return;
	}
	igt_assert_f(info.segment_id == before->segment_id &&
		     info.offset == before->offset &&
		     info.moves == before->moves,
		     "%s: %s: a render job moved the buffer (%s %#llx, %llu moves -> %s %#llx, %llu moves)\n",
		     cell->name, what,
		     vseg_ctx_seg_name(&ctx, before->segment_id),
		     (unsigned long long)before->offset,
		     (unsigned long long)before->moves,
		     vseg_ctx_seg_name(&ctx, info.segment_id),
		     (unsigned long long)info.offset,
		     (unsigned long long)info.moves);
}

/* --- the kernel keeps working --------------------------------------------- */

/* A render job of another client (a file of its own) and one of ours work. */
static void check_engine_alive(const char *what)
{
	int fds[2] = { drm_open_vseg(), ctx.fd };

	for (unsigned int k = 0; k < 2; k++) {
		struct drm_vseg_gem_create c;
		struct vseg_cmdbuf cb;
		struct vbuf b;

		vseg_create_args(&c, SZ_64K, BIT(ctx.ap_id), 0);
		vbuf_create(&b, fds[k], &c);
		vbuf_bind(&b, k ? vseg_va_alloc(&va_space, b.size) : VA_START);
		vseg_cb_init(&cb);
		vfill(&cb, &b, 256, 64, 0x600d600d);
		vseg_cb_exec_ok(fds[k], RENDER, &cb, what);
		vbuf_verify(&b, what);
		vseg_cb_fini(&cb);
		vbuf_destroy(&b);
	}
	drm_close_driver(fds[0]);
}

/* --- loading a profile, finishing ------------------------------------------ */

/* A new device: a new address space to hand out. */
static void va_reset(void)
{
	vseg_va_init(&va_space, VA_START, VSEG_VA_END);
}

/* --- FILL, COPY and WRITE by virtual address in every placement ----------------- */

static void test_fill(const struct vcell *cell)
{
	const uint64_t size = 8 * (cell->seg && vseg_ctx_is_memory(&ctx, cell->seg) ?
				   chunk_of(cell->seg) : SZ_64K);
	struct drm_vseg_gem_info before;
	struct vseg_cmdbuf cb;
	struct fragments f;
	struct vbuf b;

	cell_create(cell, size, &b, &f);
	/* Known contents around what the jobs write, if that moves nothing. */
	if (vseg_ctx_cpu_visible(&ctx, cell->seg))
		vbuf_cpu_pattern(&b, 0x100 + cell->seg);
	vbuf_bind(&b, vseg_va_alloc(&va_space, b.size));
	vseg_gem_info(ctx.fd, b.handle, &before);

	vseg_cb_init(&cb);
	vfill(&cb, &b, SZ_4K, size / 2, 0xa5a5a500 | cell->seg);
	vfill(&cb, &b, SZ_64K - 12, 24, 0xdeadbeef);	/* across chunks */
	vfill(&cb, &b, size - 4, 4, 0xcafef00d);
	vwrite(&cb, &b, 0, 0x0123456789abcdefull);
	vwrite(&cb, &b, 3 * SZ_64K - 8, 0xfedcba9876543210ull);
	/* Across every chunk boundary of the second half, within the buffer. */
	vcopy(&cb, &b, size / 2 + SZ_4K, &b, 8, size / 2 - 2 * SZ_4K);
	vseg_cb_exec_ok(ctx.fd, RENDER, &cb, "FILL, WRITE and COPY by VA");
	check_in_cell(cell, &b, &before, "after the job");
	vbuf_verify(&b, "after FILL, WRITE and COPY by VA");

	/* The mapping follows the buffer out of its segment and back. */
	vseg_evict(ctx.fd, &b.handle, 1);
	vseg_cb_reset(&cb);
	vfill(&cb, &b, size / 4, size / 4, 0x77000000 | cell->seg);
	vseg_cb_exec_ok(ctx.fd, RENDER, &cb, "FILL by VA of an evicted buffer");
	vbuf_verify(&b, "after FILL by VA of an evicted buffer");
	if (cell->seg) {
		vseg_make_resident(ctx.fd, &b.handle, 1);
		vseg_cb_reset(&cb);
		vcopy(&cb, &b, 0, &b, size - SZ_64K, SZ_64K - 4);
		vseg_cb_exec_ok(ctx.fd, RENDER, &cb,
				"COPY by VA of a buffer made resident again");
		vbuf_verify(&b, "after COPY by VA of a buffer made resident again");
	}

	vseg_cb_fini(&cb);
	vbuf_destroy(&b);
	fragments_free(&f);
}

static void test_copy(const struct vcell *from, const struct vcell *to)
{
	const uint64_t size = SZ_256K;
	struct vseg_cmdbuf cb;
	struct vbuf src, dst;
	struct fragments f;

	cell_create(from, size, &src, &f);
	cell_create(to, size, &dst, &f);
	vbuf_cpu_pattern(&src, 0x200 + from->seg);
	vbuf_cpu_pattern(&dst, 0x300 + to->seg);
	vbuf_bind(&src, vseg_va_alloc(&va_space, size));
	vbuf_bind(&dst, vseg_va_alloc(&va_space, size));

	vseg_cb_init(&cb);
	vcopy(&cb, &dst, 0, &src, size / 2, size / 2);
	vcopy(&cb, &dst, size / 2 + SZ_4K, &src, SZ_4K, 3 * SZ_4K);
	vcopy(&cb, &dst, size - 100, &src, 13, 7);
	vwrite(&cb, &src, 16, 0x5555aaaa5555aaaaull);
	vseg_cb_exec_ok(ctx.fd, RENDER, &cb, "COPY by VA between buffers");
	vbuf_verify(&src, "source after COPY by VA");
	vbuf_verify(&dst, "destination after COPY by VA");

	vseg_cb_fini(&cb);
	vbuf_destroy(&src);
	vbuf_destroy(&dst);
}

/* --- unmapped addresses ------------------------------------------------------ */

static void expect_fault(int fd, const struct vseg_cmdbuf *cb, const char *what)
{
	int status = vseg_cb_exec(fd, RENDER, cb);

	igt_assert_f(status == -EFAULT,
		     "%s: fence status %d (%s), expected -EFAULT\n", what,
		     status, vseg_errname(status));
}

static void expect_fault_fill(uint64_t va, uint64_t size, const char *what)
{
	struct vseg_cmdbuf cb;

	vseg_cb_init(&cb);
	vseg_cb_fill(&cb, va, size, 0xbad);
	expect_fault(ctx.fd, &cb, what);
	vseg_cb_fini(&cb);
}

/*
 * VM_UNBIND, then a job on the address: the fence fails with EFAULT, the
 * buffer is untouched, another client's job and ours work; bound again,
 * the address works again.
 */
static void test_unbind_fault(void)
{
	struct drm_vseg_gem_create c;
	struct vseg_cmdbuf cb;
	struct vbuf b;
	uint64_t va;

	vseg_create_args(&c, SZ_1M, BIT(1) | BIT(ctx.ap_id), 0);
	vbuf_create(&b, ctx.fd, &c);
	vbuf_cpu_pattern(&b, 0x700);
	va = vseg_va_alloc(&va_space, b.size);
	vbuf_bind(&b, va);
	vseg_cb_init(&cb);
	vfill(&cb, &b, 0, SZ_4K, 0x11111111);
	vseg_cb_exec_ok(ctx.fd, RENDER, &cb, "FILL of a bound buffer");

	vseg_vm_unbind(ctx.fd, va);
	b.va = 0;
	vseg_cb_reset(&cb);
	vseg_cb_fill(&cb, va, SZ_4K, 0x22222222);
	expect_fault(ctx.fd, &cb, "FILL of an unbound address");
	vseg_cb_reset(&cb);
	vseg_cb_write(&cb, va + b.size - 8, 0x3333);
	expect_fault(ctx.fd, &cb, "WRITE at the end of an unbound range");
	vbuf_verify(&b, "a buffer after jobs on its unbound address");
	check_engine_alive("after a job on an unbound address");

	vbuf_bind(&b, va);
	vseg_cb_reset(&cb);
	vfill(&cb, &b, SZ_4K, SZ_4K, 0x44444444);
	vseg_cb_exec_ok(ctx.fd, RENDER, &cb, "FILL of a buffer bound again");
	vbuf_verify(&b, "after binding again");

	vseg_cb_fini(&cb);
	vbuf_destroy(&b);
}

/*
 * A command that faults part way may have stored its value in the part it
 * could reach first: accept, word by word, the old contents or @value in
 * [@off, @off + @len) of @b, and take what is there into the model.
 */
static void accept_partial_fill(struct vbuf *b, uint64_t off, uint64_t len,
				uint32_t value)
{
	uint32_t *got = malloc(len);
	const uint32_t *old = (const uint32_t *)(b->model + off);

	igt_assert(got);
	vseg_bo_read(b->fd, b->handle, off, got, len);
	for (uint64_t i = 0; i < len / 4; i++)
		igt_assert_f(got[i] == old[i] || got[i] == value,
			     "word at %#llx is %#x: neither what it held (%#x) nor what the faulting FILL stores (%#x)\n",
			     (unsigned long long)(off + 4 * i), got[i], old[i],
			     value);
	memcpy(b->model + off, got, len);
	free(got);
}

static void test_unmapped(void)
{
	struct drm_vseg_gem_create c;
	struct vseg_cmdbuf cb;
	struct vbuf b;
	int status;

	vseg_create_args(&c, SZ_256K, BIT(ctx.ap_id), 0);
	vbuf_create(&b, ctx.fd, &c);
	vbuf_bind(&b, vseg_va_alloc(&va_space, b.size));
	vbuf_cpu_pattern(&b, 0x800);

	expect_fault_fill(VA_START - SZ_64K, SZ_4K, "FILL never bound");
	expect_fault_fill(0, SZ_4K, "FILL at address 0");
	expect_fault_fill(VSEG_VA_END, SZ_4K, "FILL at 2^47");
	expect_fault_fill(~0ull & ~0xfffull, SZ_4K, "FILL at the top of 64 bits");
	expect_fault_fill(b.va + b.size - SZ_4K, 2 * SZ_4K,
			  "FILL across the end of a mapping");
	accept_partial_fill(&b, b.size - SZ_4K, SZ_4K, 0xbad);
	expect_fault_fill(b.va - 8, 16, "FILL across the start of a mapping");
	vbuf_verify(&b, "a buffer next to faulting jobs");

	/*
	 * A 4 KiB buffer takes 64 KiB of address space: the rest of it maps
	 * nothing.
	 */
	{
		struct vbuf small;

		vseg_create_args(&c, SZ_4K, BIT(ctx.ap_id), 0);
		vbuf_create(&small, ctx.fd, &c);
		vbuf_bind(&small, vseg_va_alloc(&va_space, VSEG_VA_ALIGN));
		expect_fault_fill(small.va + SZ_4K, 4,
				  "FILL in the 64 KiB slot of a 4 KiB buffer, past the buffer");
		vseg_cb_init(&cb);
		vfill(&cb, &small, SZ_4K - 4, 4, 0x5a11);
		vseg_cb_exec_ok(ctx.fd, RENDER, &cb, "FILL of a 4 KiB buffer's last word");
		vseg_cb_fini(&cb);
		vbuf_verify(&small, "a 4 KiB buffer");
		vbuf_destroy(&small);
	}

	/* COPY from an unmapped address. */
	vseg_cb_init(&cb);
	vseg_cb_copy(&cb, b.va, b.va + b.size + SZ_4K, SZ_4K);
	expect_fault(ctx.fd, &cb, "COPY from past the end of a mapping");

	/* A fault ends the job: earlier commands ran, later ones did not. */
	vseg_cb_reset(&cb);
	vwrite(&cb, &b, 0, 0x1111111111111111ull);
	vseg_cb_write(&cb, b.va + b.size, 0xbad);
	vseg_cb_write(&cb, b.va + 8, 0x2222222222222222ull);
	vseg_cb_fill(&cb, b.va + SZ_4K, SZ_4K, 0x33333333);
	status = vseg_cb_exec(ctx.fd, RENDER, &cb);
	igt_assert_f(status == -EFAULT, "fence status %d (%s), expected -EFAULT\n",
		     status, vseg_errname(status));
	vbuf_verify(&b, "commands before the fault ran, the ones after did not");

	vseg_cb_fini(&cb);
	vbuf_destroy(&b);
	check_engine_alive("after jobs on unmapped addresses");
}

/* --- VM_BIND and VM_UNBIND errors -------------------------------------------- */

/* A job through @b's mapping still works (nothing was changed). */
static void check_mapping(struct vbuf *b, uint32_t value, const char *what)
{
	struct vseg_cmdbuf cb;

	vseg_cb_init(&cb);
	vfill(&cb, b, b->size - SZ_4K, SZ_4K, value);
	vseg_cb_exec_ok(ctx.fd, RENDER, &cb, what);
	vbuf_verify(b, what);
	vseg_cb_fini(&cb);
}

static void expect_bind(struct drm_vseg_vm_bind *arg, int want,
			const char *what)
{
	vseg_assert_ret(__vseg_vm_bind_ioctl(ctx.fd, arg), want, "VM_BIND %s",
			what);
}

static void expect_unbind(struct drm_vseg_vm_bind *arg, int want,
			  const char *what)
{
	vseg_assert_ret(__vseg_vm_unbind_ioctl(ctx.fd, arg), want,
			"VM_UNBIND %s", what);
}

static struct drm_vseg_vm_bind *bind_arg(struct drm_vseg_vm_bind *arg,
					 uint32_t handle, uint64_t gpu_va)
{
	memset(arg, 0, sizeof(*arg));
	arg->handle = handle;
	arg->gpu_va = gpu_va;
	return arg;
}

static void test_bind_errors(void)
{
	struct drm_vseg_gem_create c;
	struct drm_vseg_vm_bind arg;
	uint32_t other;
	struct vbuf b;
	uint64_t x;

	vseg_create_args(&c, SZ_1M, BIT(ctx.ap_id), 0);
	vbuf_create(&b, ctx.fd, &c);
	other = vseg_gem_create_simple(ctx.fd, SZ_1M, BIT(ctx.ap_id), 0);
	/* b at x, with 4 MiB free on either side. */
	x = vseg_va_alloc(&va_space, 9 * SZ_1M) + 4 * SZ_1M;
	vbuf_bind(&b, x);
	vbuf_cpu_pattern(&b, 0x900);
	check_mapping(&b, 1, "the mapping under test");

#define BIND(h, addr) bind_arg(&arg, (h), (addr))
	/* Bad addresses. */
	expect_bind(BIND(other, 0), -EINVAL, "at address 0");
	expect_bind(BIND(other, x + 2 * SZ_1M + 8), -EINVAL, "at an unaligned address");
	expect_bind(BIND(other, x + 2 * SZ_1M + 2048), -EINVAL, "at an address aligned to 2 KiB only");
	expect_bind(BIND(other, VSEG_VA_END), -EINVAL, "at 2^47");
	expect_bind(BIND(other, VSEG_VA_END - SZ_512K), -EINVAL, "running past 2^47");
	expect_bind(BIND(other, ~0ull & ~(VSEG_VA_ALIGN - 1)), -EINVAL, "at the top of 64 bits");
	/* The very top of the address space is fine. */
	igt_assert_eq(__vseg_vm_bind(ctx.fd, other, VSEG_VA_END - SZ_1M, NULL), 0);
	vseg_vm_unbind(ctx.fd, VSEG_VA_END - SZ_1M);

	/* Bad ranges of the buffer. */
	BIND(other, x + 2 * SZ_1M);
	arg.offset = SZ_1M;
	expect_bind(&arg, -EINVAL, "from the buffer's end");
	BIND(other, x + 2 * SZ_1M);
	arg.offset = SZ_4K + 8;
	expect_bind(&arg, -EINVAL, "from an unaligned offset");
	BIND(other, x + 2 * SZ_1M);
	arg.size = SZ_1M + SZ_4K;
	expect_bind(&arg, -EINVAL, "of more than the buffer");
	BIND(other, x + 2 * SZ_1M);
	arg.offset = SZ_512K;
	arg.size = SZ_512K + SZ_4K;
	expect_bind(&arg, -EINVAL, "running past the buffer's end");
	BIND(other, x + 2 * SZ_1M);
	arg.size = SZ_4K + 8;
	expect_bind(&arg, -EINVAL, "of an unaligned size");

	/* Bad handles and fields. */
	expect_bind(BIND(0x7fff0000, x + 2 * SZ_1M), -ENOENT, "of an unknown handle");
	expect_bind(BIND(0, x + 2 * SZ_1M), -ENOENT, "of handle 0");
	BIND(other, x + 2 * SZ_1M);
	arg.flags = 2;
	expect_bind(&arg, -EINVAL, "with unknown flags");
	BIND(other, x + 2 * SZ_1M);
	arg.extensions = (uintptr_t)&arg;
	expect_bind(&arg, -EINVAL, "with extensions");
	BIND(other, x + 2 * SZ_1M);
	arg.pad = 1;
	expect_bind(&arg, -EINVAL, "with pad");
	BIND(other, x + 2 * SZ_1M);
	arg.reserved[0] = 1;
	expect_bind(&arg, -EINVAL, "with reserved[0]");
	BIND(other, x + 2 * SZ_1M);
	arg.reserved[1] = 1;
	expect_bind(&arg, -EINVAL, "with reserved[1]");
	BIND(other, x + 2 * SZ_1M);
	arg.num_in_syncs = 1;
	expect_bind(&arg, -EINVAL, "with input syncs and no sync size");
	BIND(other, x + 2 * SZ_1M);
	arg.num_out_syncs = DRM_VSEG_MAX_SYNCS + 1;
	arg.sync_size = sizeof(struct drm_vseg_sync);
	expect_bind(&arg, -E2BIG, "with too many output syncs");

	/* VM_UNBIND of no mapping's start, with bad fields. */
	expect_unbind(BIND(0, x + 2 * SZ_1M), -EINVAL, "of the mapping at an address where nothing is mapped");
	expect_unbind(BIND(0, x + SZ_64K), -EINVAL, "of the mapping at an address inside one");
	expect_unbind(BIND(0, 0), -EINVAL, "at address 0");
	expect_unbind(BIND(0, x + 8), -EINVAL, "at an unaligned address");
	expect_unbind(BIND(b.handle, x), -EINVAL, "with a handle");
	BIND(0, x);
	arg.offset = SZ_4K;
	expect_unbind(&arg, -EINVAL, "with an offset");
	BIND(0, x);
	arg.size = SZ_4K + 8;
	expect_unbind(&arg, -EINVAL, "of an unaligned size");
	BIND(0, x);
	arg.flags = 1;
	expect_unbind(&arg, -EINVAL, "with flags");
	BIND(0, x);
	arg.extensions = (uintptr_t)&arg;
	expect_unbind(&arg, -EINVAL, "with extensions");
	BIND(0, x);
	arg.reserved[1] = 1;
	expect_unbind(&arg, -EINVAL, "with reserved[1]");
#undef BIND

	/* None of it touched the mapping. */
	check_mapping(&b, 2, "the mapping after the refused calls");
	vseg_vm_unbind(ctx.fd, x);
	b.va = 0;
	igt_assert_eq(__vseg_vm_unbind(ctx.fd, x), -EINVAL);

	vseg_gem_close(ctx.fd, other);
	vbuf_destroy(&b);
}

/*
 * The address spaces of a process hold at most DRM_VSEG_MAX_VM_MAPPINGS
 * mappings together: one more is -ENOSPC and changes nothing, in any of
 * its files; another process is not affected; unbinding one makes room
 * for one. In a child of its own, so that no other mapping counts.
 */
static void test_bind_limit(void)
{
	const uint64_t base = 1ull << 44, step = 2 * VSEG_VA_ALIGN;
	uint32_t h2;

	igt_fork(child, 1) {
		int fd2 = drm_open_vseg(), fd3 = drm_open_vseg();
		uint32_t h, h3;
		uint64_t size;
		int err;

		h = vseg_gem_create_simple(fd2, SZ_64K, BIT(ctx.ap_id), 0);
		for (unsigned int i = 0; i < DRM_VSEG_MAX_VM_MAPPINGS; i++) {
			err = __vseg_vm_bind(fd2, h, base + i * step, &size);
			igt_assert_f(err == 0, "mapping %u of %u: %d (%s)\n", i,
				     DRM_VSEG_MAX_VM_MAPPINGS, err,
				     vseg_errname(err));
		}
		err = __vseg_vm_bind(fd2, h, base - step, NULL);
		igt_assert_f(err == -ENOSPC,
			     "mapping %u of a process: %d (%s), expected -ENOSPC\n",
			     DRM_VSEG_MAX_VM_MAPPINGS + 1, err, vseg_errname(err));
		/* Still exactly the mappings there were. */
		igt_assert_eq(__vseg_vm_unbind(fd2, base - step), -EINVAL);
		/* Another file of the process: no room either. */
		h3 = vseg_gem_create_simple(fd3, SZ_64K, BIT(ctx.ap_id), 0);
		igt_assert_eq(__vseg_vm_bind(fd3, h3, base, NULL), -ENOSPC);

		/* One out, one in: and full again. */
		vseg_vm_unbind(fd2, base + 7 * step);
		igt_assert_eq(__vseg_vm_bind(fd3, h3, base, NULL), 0);
		igt_assert_eq(__vseg_vm_bind(fd2, h, base + 7 * step, NULL),
			      -ENOSPC);
		/* Closing a file takes its mappings with it. */
		vseg_gem_close(fd3, h3);
		drm_close_driver(fd3);
		igt_assert_eq(__vseg_vm_bind(fd2, h, base + 7 * step, NULL), 0);
		vseg_gem_close(fd2, h);
		drm_close_driver(fd2);
	}
	igt_waitchildren();
	/* Another process's address space had room of its own all along. */
	h2 = vseg_gem_create_simple(ctx.fd, SZ_64K, BIT(ctx.ap_id), 0);
	igt_assert_eq(__vseg_vm_bind(ctx.fd, h2, base - step, NULL), 0);
	vseg_vm_unbind(ctx.fd, base - step);
	vseg_gem_close(ctx.fd, h2);
}

/* --- address spaces, aliases and queued jobs ----------------------------------------- */

/* Each file has its own address space. */
static void test_per_file(void)
{
	int fd2 = drm_open_vseg();
	struct drm_vseg_gem_create c;
	struct vseg_cmdbuf cb;
	struct vbuf a, b;
	uint64_t va = vseg_va_alloc(&va_space, SZ_1M);

	vseg_create_args(&c, SZ_1M, BIT(ctx.ap_id), 0);
	vbuf_create(&a, ctx.fd, &c);
	vseg_create_args(&c, SZ_1M, BIT(ctx.ap_id), 0);
	vbuf_create(&b, fd2, &c);
	vbuf_bind(&a, va);

	/* Nothing is mapped there in the other file. */
	vseg_cb_init(&cb);
	vseg_cb_fill(&cb, va, SZ_4K, 0xbad);
	expect_fault(fd2, &cb, "FILL at an address bound in another file");
	vbuf_verify(&a, "a buffer bound in another file");

	/* The same address in both, each reaching its own buffer. */
	vbuf_bind(&b, va);
	vseg_cb_reset(&cb);
	vfill(&cb, &a, 0, SZ_64K, 0xaaaaaaaa);
	vseg_cb_exec_ok(ctx.fd, RENDER, &cb, "FILL in the first file");
	vseg_cb_reset(&cb);
	vfill(&cb, &b, SZ_64K, SZ_64K, 0xbbbbbbbb);
	vseg_cb_exec_ok(fd2, RENDER, &cb, "FILL in the second file");
	vbuf_verify(&a, "the first file's buffer");
	vbuf_verify(&b, "the second file's buffer");

	/* Closing a file with mappings leaves the other one working. */
	vbuf_destroy(&b);
	drm_close_driver(fd2);
	vseg_cb_reset(&cb);
	vfill(&cb, &a, SZ_1M - SZ_4K, SZ_4K, 0xcccccccc);
	vseg_cb_exec_ok(ctx.fd, RENDER, &cb, "FILL after the other file closed");
	vbuf_verify(&a, "after the other file closed");
	vseg_cb_fini(&cb);
	vbuf_destroy(&a);
}

/* One buffer bound at two addresses: both reach the same bytes. */
static void test_alias(void)
{
	struct drm_vseg_gem_create c;
	struct vseg_cmdbuf cb;
	struct vbuf a, d;
	uint64_t va2 = vseg_va_alloc(&va_space, SZ_1M);

	vseg_create_args(&c, SZ_1M, BIT(1) | BIT(ctx.ap_id), 0);
	vbuf_create(&a, ctx.fd, &c);
	vseg_create_args(&c, SZ_64K, BIT(ctx.ap_id), 0);
	vbuf_create(&d, ctx.fd, &c);
	vbuf_bind(&a, vseg_va_alloc(&va_space, SZ_1M));
	vbuf_bind(&d, vseg_va_alloc(&va_space, SZ_64K));
	igt_assert_eq_u64(vseg_vm_bind(ctx.fd, a.handle, va2), a.size);

	vseg_cb_init(&cb);
	vfill(&cb, &a, SZ_512K, SZ_64K, 0x0a11a500);
	/* Read back through the second address. */
	vseg_cb_copy(&cb, d.va, va2 + SZ_512K, SZ_64K);
	memcpy(d.model, a.model + SZ_512K, SZ_64K);
	/* Written through the second address. */
	vseg_cb_write(&cb, va2 + 64, 0xa11a5a11a5a11a5ull);
	memcpy(a.model + 64, &(uint64_t){ 0xa11a5a11a5a11a5ull }, 8);
	vseg_cb_exec_ok(ctx.fd, RENDER, &cb, "a buffer bound twice");
	vbuf_verify(&a, "a buffer bound twice");
	vbuf_verify(&d, "a copy through the second address");

	vseg_vm_unbind(ctx.fd, va2);
	vseg_cb_fini(&cb);
	vbuf_destroy(&a);
	vbuf_destroy(&d);
}

/* Enough FILLs by VA over @b to keep the engine busy for a while. */
static void long_job(struct vseg_cmdbuf *cb, struct vbuf *b, unsigned int n)
{
	for (unsigned int i = 0; i < n; i++)
		vfill(cb, b, 0, b->size, 0x20000000 + i);
}

/* The job behind @h has not signalled yet. */
static void expect_pending(int fd, uint32_t h, const char *what)
{
	int st = vseg_syncobj_status(fd, h);

	igt_assert_f(st == 0, "%s: signalled (%d) before its gate opened\n",
		     what, st);
}

/*
 * A job reaches what the page tables map when it runs (as a GPU does): a
 * job queued behind one that waits on a gate, whose address is unbound
 * and given to another buffer of the file before it runs, never writes
 * the unbound buffer (its entries were invalidated, the TLB flushed,
 * before its reference went); it writes the new buffer, or faults if the
 * new buffer's move has not written its entries yet; a job queued after
 * the rebind reaches the new buffer.
 */
static void test_queued_rebind(void)
{
	struct drm_vseg_gem_create c;
	struct vseg_cmdbuf cb;
	struct vbuf a, other, front;
	struct vseg_gate g;
	uint32_t sync[3], gate;
	uint64_t va;
	int err;

	vseg_create_args(&c, SZ_64K, BIT(ctx.ap_id), 0);
	vbuf_create(&front, ctx.fd, &c);
	vseg_create_args(&c, SZ_1M, BIT(1) | BIT(ctx.ap_id), 0);
	vbuf_create(&a, ctx.fd, &c);
	vseg_create_args(&c, SZ_1M, BIT(ctx.ap_id), 0);
	vbuf_create(&other, ctx.fd, &c);
	va = vseg_va_alloc(&va_space, SZ_1M);
	vbuf_bind(&a, va);
	vbuf_bind(&front, vseg_va_alloc(&va_space, SZ_64K));
	vbuf_cpu_pattern(&a, 0x700);
	vbuf_cpu_pattern(&other, 0x800);
	for (unsigned int i = 0; i < 3; i++)
		sync[i] = vseg_syncobj_create(ctx.fd, 0);

	/* The front job waits on the gate; the file's jobs run in order. */
	vseg_gate_init(&g);
	gate = vseg_gate_syncobj(&g, ctx.fd);
	vseg_cb_init(&cb);
	vfill(&cb, &front, 0, SZ_64K, 0xf0f0f0f0);
	vseg_cb_submit(ctx.fd, RENDER, &cb, &gate, 1, &sync[0], 1);
	vseg_cb_reset(&cb);
	vseg_cb_fill(&cb, va, SZ_1M, 0xbadbad);
	vseg_cb_submit(ctx.fd, RENDER, &cb, NULL, 0, &sync[1], 1);
	expect_pending(ctx.fd, sync[1], "a job queued behind a gated one");

	vseg_vm_unbind(ctx.fd, va);
	a.va = 0;
	vbuf_bind(&other, va);
	vseg_cb_reset(&cb);
	vfill(&cb, &other, 0, SZ_4K, 0x0e0e0e0e);
	vseg_cb_submit(ctx.fd, RENDER, &cb, NULL, 0, &sync[2], 1);
	expect_pending(ctx.fd, sync[1], "a job queued behind a gated one");
	vseg_gate_assert_closed(&g, "the address was rebound under a queued job");

	vseg_gate_open(&g);
	igt_assert_eq(vseg_syncobj_wait_error(ctx.fd, sync[0],
					      VSEG_JOB_TIMEOUT_MS), 0);
	err = vseg_syncobj_wait_error(ctx.fd, sync[1], VSEG_JOB_TIMEOUT_MS);
	igt_assert_f(err == 0 || err == -EFAULT,
		     "the queued job over a rebound address: %d\n", err);
	igt_assert_eq(vseg_syncobj_wait_error(ctx.fd, sync[2],
					      VSEG_JOB_TIMEOUT_MS), 0);
	if (!err) {
		/* It ran before the job queued after the rebind. */
		vseg_fill32(other.model, SZ_1M, 0xbadbad);
		vseg_fill32(other.model, SZ_4K, 0x0e0e0e0e);
	}
	vbuf_verify(&front, "the gated job's buffer");
	vbuf_verify(&a, "the buffer unbound before a queued job ran");
	vbuf_verify(&other, "a buffer bound where a queued job writes");

	for (unsigned int i = 0; i < 3; i++)
		vseg_syncobj_destroy(ctx.fd, sync[i]);
	vseg_syncobj_destroy(ctx.fd, gate);
	vseg_gate_fini(&g);
	vseg_cb_fini(&cb);
	vbuf_destroy(&a);
	vbuf_destroy(&other);
	vbuf_destroy(&front);
}

/* Evicting a bound buffer a queued render job writes: nothing is lost. */
static void test_evict_busy(void)
{
	struct drm_vseg_gem_create c;
	struct vseg_cmdbuf cb;
	uint32_t sync;
	struct vbuf a;

	vseg_create_args(&c, SZ_4M, BIT(1) | BIT(ctx.ap_id), 0);
	vseg_create_prefer(&c, 1, 0);
	vbuf_create(&a, ctx.fd, &c);
	vbuf_bind(&a, vseg_va_alloc(&va_space, SZ_4M));
	vseg_cb_init(&cb);
	long_job(&cb, &a, 16);
	sync = vseg_syncobj_create(ctx.fd, 0);
	vseg_cb_submit(ctx.fd, RENDER, &cb, NULL, 0, &sync, 1);
	vseg_evict(ctx.fd, &a.handle, 1);
	vseg_make_resident(ctx.fd, &a.handle, 1);
	igt_assert_eq(vseg_syncobj_wait_error(ctx.fd, sync,
					      VSEG_JOB_TIMEOUT_MS), 0);
	vbuf_verify(&a, "a bound buffer moved while a render job wrote it");
	vseg_syncobj_destroy(ctx.fd, sync);
	vseg_cb_fini(&cb);
	vbuf_destroy(&a);
}

/*
 * The two engines ordered by syncobjs: a copy-engine job writes an
 * AccessedPhysically buffer, a render job waiting for it copies the
 * result by virtual address, and a copy job waiting for that one reads it
 * back physically.
 */
static void test_cross_engine(void)
{
	struct drm_vseg_gem_create c;
	struct vseg_cmdbuf pcb, rcb;
	struct vbuf a, r, p;
	uint32_t s[3];

	vseg_create_args(&c, SZ_4M, BIT(1) | BIT(ctx.ap_id), AP_FLAG);
	vbuf_create(&a, ctx.fd, &c);
	vseg_create_args(&c, SZ_64K, BIT(ctx.ap_id), 0);
	vbuf_create(&r, ctx.fd, &c);
	vseg_create_args(&c, SZ_64K, BIT(ctx.ap_id), AP_FLAG);
	vbuf_create(&p, ctx.fd, &c);
	vbuf_bind(&a, vseg_va_alloc(&va_space, a.size));
	vbuf_bind(&r, vseg_va_alloc(&va_space, r.size));
	for (unsigned int i = 0; i < 3; i++)
		s[i] = vseg_syncobj_create(ctx.fd, 0);

	vseg_cb_init(&pcb);
	vseg_cb_init(&rcb);
	for (unsigned int i = 0; i < 16; i++) {
		vseg_cb_fill_phys(&pcb, a.handle, 0, a.size, 0x30000000 + i);
		vseg_fill32(a.model, a.size, 0x30000000 + i);
	}
	vseg_cb_write_phys(&pcb, a.handle, a.size - 8, 0xc0c0c0c0c0c0c0c0ull);
	memcpy(a.model + a.size - 8, &(uint64_t){ 0xc0c0c0c0c0c0c0c0ull }, 8);
	vseg_cb_submit(ctx.fd, COPY, &pcb, NULL, 0, &s[0], 1);

	vcopy(&rcb, &r, 0, &a, a.size - SZ_64K, SZ_64K);
	vseg_cb_submit(ctx.fd, RENDER, &rcb, &s[0], 1, &s[1], 1);

	/* r is not AccessedPhysically: read it through a's physical copy. */
	vseg_cb_reset(&pcb);
	vseg_cb_copy_phys(&pcb, p.handle, 0, a.handle, a.size - SZ_64K, SZ_64K);
	memcpy(p.model, a.model + a.size - SZ_64K, SZ_64K);
	vseg_cb_submit(ctx.fd, COPY, &pcb, &s[1], 1, &s[2], 1);

	igt_assert_eq(vseg_syncobj_wait_error(ctx.fd, s[2],
					      VSEG_JOB_TIMEOUT_MS), 0);
	igt_assert_eq(vseg_syncobj_status(ctx.fd, s[0]), 1);
	igt_assert_eq(vseg_syncobj_status(ctx.fd, s[1]), 1);
	vbuf_verify(&r, "a render job that waited for a copy job");
	vbuf_verify(&p, "a copy job that waited for a render job");
	vbuf_verify(&a, "the copy job's buffer");

	for (unsigned int i = 0; i < 3; i++)
		vseg_syncobj_destroy(ctx.fd, s[i]);
	vseg_cb_fini(&pcb);
	vseg_cb_fini(&rcb);
	vbuf_destroy(&a);
	vbuf_destroy(&r);
	vbuf_destroy(&p);
}

/* The render node: VM_BIND and both engines work there. */
static void test_render_node(void)
{
	int fd = drm_open_vseg_render();
	struct drm_vseg_gem_create c;
	struct vseg_cmdbuf cb;
	struct vbuf b, p;

	vseg_create_args(&c, SZ_64K, BIT(ctx.ap_id), 0);
	vbuf_create(&b, fd, &c);
	vseg_create_args(&c, SZ_64K, BIT(ctx.ap_id), AP_FLAG);
	vbuf_create(&p, fd, &c);
	vbuf_bind(&b, VA_START);
	vseg_cb_init(&cb);
	vfill(&cb, &b, 0, SZ_4K, 0x4e4d4e4d);
	vseg_cb_exec_ok(fd, RENDER, &cb, "a render job from the render node");
	vbuf_verify(&b, "a render job from the render node");
	vseg_cb_reset(&cb);
	vseg_cb_fill_phys(&cb, p.handle, SZ_4K, SZ_4K, 0x4e4d0001);
	vseg_fill32(p.model + SZ_4K, SZ_4K, 0x4e4d0001);
	vseg_cb_exec_ok(fd, COPY, &cb, "a copy job from the render node");
	vbuf_verify(&p, "a copy job from the render node");
	vseg_cb_fini(&cb);
	vbuf_destroy(&b);
	vbuf_destroy(&p);
	drm_close_driver(fd);
}

/* The render engine refuses an allocation list. */
static void test_render_rejects_lists(void)
{
	struct drm_vseg_gem_create c;
	struct vseg_cmdbuf cb;
	uint32_t h, out;
	int err;

	vseg_create_args(&c, SZ_64K, BIT(ctx.ap_id), AP_FLAG);
	h = vseg_gem_create(ctx.fd, &c);
	igt_assert_eq_u64(vseg_vm_bind(ctx.fd, h, VA_START), c.size);
	vseg_cb_init(&cb);
	vseg_cb_fill_phys(&cb, h, 0, SZ_4K, 0xbad);
	out = vseg_syncobj_create(ctx.fd, 0);
	err = __vseg_cb_submit(ctx.fd, RENDER, &cb, NULL, 0, &out, 1);
	igt_assert_f(err == -EINVAL,
		     "an allocation list on the render engine: %d (%s)\n", err,
		     vseg_errname(err));
	igt_assert(!vseg_syncobj_has_fence(ctx.fd, out));
	vseg_syncobj_destroy(ctx.fd, out);
	vseg_vm_unbind(ctx.fd, VA_START);
	vseg_cb_fini(&cb);
	vseg_gem_close(ctx.fd, h);
}

/* --- ranges: partial binds, split unbinds, replacing binds --------------------- */

/* A job of one FILL at @va of @size bytes must fault. */
static void expect_fault_at(uint64_t va, uint64_t size, const char *what)
{
	expect_fault_fill(va, size, what);
}

/*
 * VM_BIND of a range of a buffer: a job reaches exactly the bound window
 * (@b.va is set so that the buffer's byte 0 would be at it: the model's
 * offsets are the buffer's).
 */
static void test_partial_bind(void)
{
	struct drm_vseg_gem_create c;
	struct vseg_cmdbuf cb;
	uint64_t va, va2;
	struct vbuf b;

	vseg_create_args(&c, SZ_1M, BIT(1) | BIT(ctx.ap_id), 0);
	vbuf_create(&b, ctx.fd, &c);
	vbuf_cpu_pattern(&b, 0xa00);
	va = vseg_va_alloc(&va_space, SZ_256K);
	va2 = vseg_va_alloc(&va_space, SZ_256K);

	/* [256 KiB, 512 KiB) of the buffer at va. */
	igt_assert_eq_u64(vseg_vm_bind_range(ctx.fd, b.handle, va, SZ_256K,
					     SZ_256K, 0, NULL, 0, NULL, 0),
			  SZ_256K);
	b.va = va - SZ_256K;
	vseg_cb_init(&cb);
	vfill(&cb, &b, SZ_256K, SZ_256K, 0x11111111);
	vwrite(&cb, &b, SZ_256K + 8, 0x1122334455667788ull);
	vcopy(&cb, &b, SZ_256K + SZ_64K, &b, SZ_256K + SZ_128K, SZ_4K);
	vseg_cb_exec_ok(ctx.fd, RENDER, &cb, "jobs in a bound window");
	vbuf_verify(&b, "a buffer written through a window of it");
	expect_fault_at(va + SZ_256K, SZ_4K, "FILL right after the window");
	expect_fault_at(va - SZ_4K, SZ_4K, "FILL right before the window");
	vbuf_verify(&b, "a buffer after faults around its window");

	/* Size 0: the rest of the buffer from the offset. */
	igt_assert_eq_u64(vseg_vm_bind_range(ctx.fd, b.handle, va2, 3 * SZ_256K,
					     0, 0, NULL, 0, NULL, 0),
			  SZ_256K);
	vseg_cb_reset(&cb);
	vseg_cb_fill(&cb, va2, SZ_256K, 0x22222222);
	vseg_fill32(b.model + 3 * SZ_256K, SZ_256K, 0x22222222);
	/* From one window into the other. */
	vseg_cb_copy(&cb, va + SZ_4K, va2 + SZ_128K, SZ_4K);
	memcpy(b.model + SZ_256K + SZ_4K, b.model + 3 * SZ_256K + SZ_128K,
	       SZ_4K);
	vseg_cb_exec_ok(ctx.fd, RENDER, &cb, "jobs in two windows");
	vbuf_verify(&b, "a buffer written through two windows");
	expect_fault_at(va2 + SZ_256K, 4, "FILL past the buffer's last window");

	vseg_vm_unbind(ctx.fd, va);
	vseg_vm_unbind(ctx.fd, va2);
	b.va = 0;
	vseg_cb_fini(&cb);
	vbuf_destroy(&b);
}

/*
 * VM_UNBIND of the middle of a mapping: both ends keep working, the hole
 * faults; size 0 unbinds the piece that starts at an address.
 */
static void test_split_unbind(void)
{
	struct drm_vseg_gem_create c;
	struct vseg_cmdbuf cb;
	struct vbuf b;
	uint64_t va;

	vseg_create_args(&c, SZ_1M, BIT(1) | BIT(ctx.ap_id), 0);
	vbuf_create(&b, ctx.fd, &c);
	vbuf_cpu_pattern(&b, 0xb00);
	va = vseg_va_alloc(&va_space, SZ_1M);
	vbuf_bind(&b, va);

	vseg_vm_unbind_range(ctx.fd, va + SZ_256K, SZ_256K, NULL, 0, NULL, 0);
	vseg_cb_init(&cb);
	vfill(&cb, &b, 0, SZ_256K, 0x33333333);
	vfill(&cb, &b, SZ_512K, SZ_512K, 0x44444444);
	vcopy(&cb, &b, SZ_4K, &b, SZ_1M - SZ_4K, SZ_4K);
	vseg_cb_exec_ok(ctx.fd, RENDER, &cb, "both ends of a split mapping");
	vbuf_verify(&b, "a buffer whose mapping was split");
	expect_fault_at(va + SZ_256K, SZ_4K, "FILL at the start of the hole");
	expect_fault_at(va + SZ_512K - SZ_4K, SZ_4K, "FILL at the end of the hole");
	vbuf_verify(&b, "a buffer after faults in its hole");

	/* Size 0: the piece that starts there; none starts in the hole. */
	igt_assert_eq(__vseg_vm_unbind(ctx.fd, va + SZ_256K), -EINVAL);
	vseg_vm_unbind(ctx.fd, va + SZ_512K);
	expect_fault_at(va + SZ_512K, SZ_4K, "FILL of an unbound second piece");
	/* Across the first piece's end: it shrinks. */
	vseg_vm_unbind_range(ctx.fd, va + SZ_128K, SZ_256K, NULL, 0, NULL, 0);
	expect_fault_at(va + SZ_128K, SZ_4K, "FILL past a shrunk piece");
	vseg_cb_reset(&cb);
	vfill(&cb, &b, SZ_128K - SZ_4K, SZ_4K, 0x55555555);
	vseg_cb_exec_ok(ctx.fd, RENDER, &cb, "the end of a shrunk piece");
	vbuf_verify(&b, "a buffer after its mapping shrank");

	vseg_vm_unbind(ctx.fd, va);
	b.va = 0;
	expect_fault_at(va, SZ_4K, "FILL after the last piece went");
	vseg_cb_fini(&cb);
	vbuf_destroy(&b);
}

/* VM_BIND over a mapping replaces the part it covers. */
static void test_bind_replace(void)
{
	struct drm_vseg_gem_create c;
	struct vseg_cmdbuf cb;
	struct vbuf a, m;
	uint64_t va;

	vseg_create_args(&c, SZ_1M, BIT(1) | BIT(ctx.ap_id), 0);
	vbuf_create(&a, ctx.fd, &c);
	vseg_create_args(&c, SZ_256K, BIT(ctx.ap_id), 0);
	vbuf_create(&m, ctx.fd, &c);
	vbuf_cpu_pattern(&a, 0xc00);
	vbuf_cpu_pattern(&m, 0xd00);
	va = vseg_va_alloc(&va_space, SZ_1M);
	vbuf_bind(&a, va);
	vbuf_bind(&m, va + SZ_256K);

	/* One FILL over the whole range: a, m, a. */
	vseg_cb_init(&cb);
	vseg_cb_fill(&cb, va, SZ_1M, 0x66666666);
	vseg_fill32(a.model, SZ_256K, 0x66666666);
	vseg_fill32(m.model, SZ_256K, 0x66666666);
	vseg_fill32(a.model + SZ_512K, SZ_512K, 0x66666666);
	vseg_cb_exec_ok(ctx.fd, RENDER, &cb, "a FILL over a replaced range");
	vbuf_verify(&a, "the buffer whose mapping was partly replaced");
	vbuf_verify(&m, "the buffer that replaced it");

	/* The replacing mapping starts there: size 0 unbinds it. */
	vseg_vm_unbind(ctx.fd, va + SZ_256K);
	m.va = 0;
	expect_fault_at(va + SZ_256K, SZ_4K, "FILL where the replacement was");
	/* The buffer over itself: its first 256 KiB where its third were. */
	igt_assert_eq_u64(vseg_vm_bind_range(ctx.fd, a.handle, va + SZ_512K, 0,
					     SZ_256K, 0, NULL, 0, NULL, 0),
			  SZ_256K);
	vseg_cb_reset(&cb);
	vseg_cb_write(&cb, va + SZ_512K + 16, 0x7777777777777777ull);
	memcpy(a.model + 16, &(uint64_t){ 0x7777777777777777ull }, 8);
	vseg_cb_write(&cb, va + 3 * SZ_256K, 0x8888888888888888ull);
	memcpy(a.model + 3 * SZ_256K, &(uint64_t){ 0x8888888888888888ull }, 8);
	vseg_cb_exec_ok(ctx.fd, RENDER, &cb, "WRITEs through a rebound window");
	vbuf_verify(&a, "a buffer bound over itself");

	vseg_vm_unbind_range(ctx.fd, va, SZ_1M, NULL, 0, NULL, 0);
	a.va = 0;
	expect_fault_at(va + 3 * SZ_256K, SZ_4K, "FILL after unbinding the range");
	vseg_cb_fini(&cb);
	vbuf_destroy(&a);
	vbuf_destroy(&m);
}

/* --- asynchronous binds ------------------------------------------------------------- */

/*
 * A bind behind a gate is applied only when the gate opens, and so are
 * the binds after it; jobs that do not wait for its output see the old
 * mapping (or nothing), jobs that do see the new one.
 */
static void test_async_bind(void)
{
	struct drm_vseg_gem_create c;
	struct vseg_cmdbuf cb;
	struct vbuf old, new, later;
	uint32_t gate, sb, sl, j[4];
	struct vseg_gate g;
	uint64_t va, va2;

	vseg_create_args(&c, SZ_256K, BIT(1) | BIT(ctx.ap_id), 0);
	vbuf_create(&old, ctx.fd, &c);
	vseg_create_args(&c, SZ_256K, BIT(1) | BIT(ctx.ap_id), 0);
	vbuf_create(&new, ctx.fd, &c);
	vseg_create_args(&c, SZ_64K, BIT(ctx.ap_id), 0);
	vbuf_create(&later, ctx.fd, &c);
	vbuf_cpu_pattern(&old, 0xe00);
	vbuf_cpu_pattern(&new, 0xe01);
	vbuf_cpu_pattern(&later, 0xe02);
	va = vseg_va_alloc(&va_space, SZ_256K);
	va2 = vseg_va_alloc(&va_space, SZ_64K);
	vbuf_bind(&old, va);
	for (unsigned int i = 0; i < 4; i++)
		j[i] = vseg_syncobj_create(ctx.fd, 0);
	sb = vseg_syncobj_create(ctx.fd, 0);
	sl = vseg_syncobj_create(ctx.fd, 0);

	vseg_gate_init(&g);
	gate = vseg_gate_syncobj(&g, ctx.fd);
	/* new over old, behind the gate; later behind that bind. */
	igt_assert_eq_u64(vseg_vm_bind_range(ctx.fd, new.handle, va, 0, 0, 0,
					     &gate, 1, &sb, 1), SZ_256K);
	igt_assert_eq_u64(vseg_vm_bind_range(ctx.fd, later.handle, va2, 0, 0, 0,
					     NULL, 0, &sl, 1), SZ_64K);
	expect_pending(ctx.fd, sb, "the output of a bind behind a gate");
	expect_pending(ctx.fd, sl, "the output of a bind queued behind it");

	/* Not waiting for the bind: the old mapping, or nothing. */
	vseg_cb_init(&cb);
	vseg_cb_fill(&cb, va, SZ_256K, 0x12121212);
	vseg_fill32(old.model, SZ_256K, 0x12121212);
	vseg_cb_submit(ctx.fd, RENDER, &cb, NULL, 0, &j[0], 1);
	igt_assert_eq(vseg_syncobj_wait_error(ctx.fd, j[0], VSEG_JOB_TIMEOUT_MS), 0);
	vseg_cb_reset(&cb);
	vseg_cb_fill(&cb, va2, SZ_4K, 0xbad);
	vseg_cb_submit(ctx.fd, RENDER, &cb, NULL, 0, &j[1], 1);
	igt_assert_eq(vseg_syncobj_wait_error(ctx.fd, j[1], VSEG_JOB_TIMEOUT_MS),
		      -EFAULT);
	/* Read before a job waiting for the bind fences it (CPU access waits). */
	vbuf_verify(&new, "a buffer whose bind waits");
	/* Waiting for it: the new mapping. */
	vseg_cb_reset(&cb);
	vseg_cb_fill(&cb, va, SZ_256K, 0x34343434);
	vseg_fill32(new.model, SZ_256K, 0x34343434);
	vseg_cb_submit(ctx.fd, RENDER, &cb, &sb, 1, &j[2], 1);
	vseg_cb_reset(&cb);
	vseg_cb_fill(&cb, va2, SZ_64K, 0x56565656);
	vseg_fill32(later.model, SZ_64K, 0x56565656);
	vseg_cb_submit(ctx.fd, RENDER, &cb, &sl, 1, &j[3], 1);
	expect_pending(ctx.fd, sb, "the output of a bind behind a gate");
	expect_pending(ctx.fd, j[2], "a job waiting for a bind");
	vseg_gate_assert_closed(&g, "the binds were held back");

	vseg_gate_open(&g);
	igt_assert_eq(vseg_syncobj_wait_error(ctx.fd, sb, VSEG_JOB_TIMEOUT_MS), 0);
	igt_assert_eq(vseg_syncobj_wait_error(ctx.fd, sl, VSEG_JOB_TIMEOUT_MS), 0);
	igt_assert_eq(vseg_syncobj_wait_error(ctx.fd, j[2], VSEG_JOB_TIMEOUT_MS), 0);
	igt_assert_eq(vseg_syncobj_wait_error(ctx.fd, j[3], VSEG_JOB_TIMEOUT_MS), 0);
	vbuf_verify(&old, "the buffer mapped before the bind");
	vbuf_verify(&new, "the buffer the bind mapped");
	vbuf_verify(&later, "the buffer of the bind queued behind");

	vseg_cb_fini(&cb);
	for (unsigned int i = 0; i < 4; i++)
		vseg_syncobj_destroy(ctx.fd, j[i]);
	vseg_syncobj_destroy(ctx.fd, sb);
	vseg_syncobj_destroy(ctx.fd, sl);
	vseg_syncobj_destroy(ctx.fd, gate);
	vseg_gate_fini(&g);
	old.va = 0;
	new.va = va;
	later.va = va2;
	vbuf_destroy(&old);
	vbuf_destroy(&new);
	vbuf_destroy(&later);
}

/* --- read-only mappings -------------------------------------------------------------- */

static void test_readonly(void)
{
	struct drm_vseg_gem_create c;
	struct vseg_cmdbuf cb;
	struct vbuf b, d;
	uint64_t va, rw;

	vseg_create_args(&c, SZ_64K, BIT(1) | BIT(ctx.ap_id), 0);
	vbuf_create(&b, ctx.fd, &c);
	vseg_create_args(&c, SZ_64K, BIT(1) | BIT(ctx.ap_id), 0);
	vbuf_create(&d, ctx.fd, &c);
	vbuf_cpu_pattern(&b, 0xf00);
	vbuf_cpu_pattern(&d, 0xf01);
	va = vseg_va_alloc(&va_space, SZ_64K);
	rw = vseg_va_alloc(&va_space, SZ_64K);
	igt_assert_eq_u64(vseg_vm_bind_range(ctx.fd, b.handle, va, 0, 0,
					     DRM_VSEG_VM_BIND_READONLY, NULL, 0,
					     NULL, 0), SZ_64K);
	vbuf_bind(&d, vseg_va_alloc(&va_space, SZ_64K));

	vseg_cb_init(&cb);
	vseg_cb_write(&cb, va + 8, 0xbad);
	expect_fault(ctx.fd, &cb, "WRITE into a read-only mapping");
	vseg_cb_reset(&cb);
	vseg_cb_fill(&cb, va, SZ_64K, 0xbad);
	expect_fault(ctx.fd, &cb, "FILL of a read-only mapping");
	vseg_cb_reset(&cb);
	vseg_cb_copy(&cb, va + SZ_4K, d.va, SZ_4K);
	expect_fault(ctx.fd, &cb, "COPY into a read-only mapping");
	vbuf_verify(&b, "a buffer mapped read-only after writes into it");

	/* Reading works. */
	vseg_cb_reset(&cb);
	vseg_cb_copy(&cb, d.va, va, SZ_64K);
	memcpy(d.model, b.model, SZ_64K);
	vseg_cb_exec_ok(ctx.fd, RENDER, &cb, "COPY out of a read-only mapping");
	vbuf_verify(&d, "a copy out of a read-only mapping");

	/* The same buffer, writable at another address. */
	igt_assert_eq_u64(vseg_vm_bind_range(ctx.fd, b.handle, rw, 0, 0, 0,
					     NULL, 0, NULL, 0), SZ_64K);
	b.va = rw;
	vseg_cb_reset(&cb);
	vfill(&cb, &b, SZ_4K, SZ_4K, 0x9a9a9a9a);
	vseg_cb_exec_ok(ctx.fd, RENDER, &cb, "FILL through a writable mapping");
	vbuf_verify(&b, "a buffer written through its writable mapping");
	vseg_cb_reset(&cb);
	vseg_cb_fill(&cb, va + SZ_4K, 4, 0xbad);
	expect_fault(ctx.fd, &cb, "FILL through the read-only one still");
	vbuf_verify(&b, "a buffer mapped read-only and writable");

	/* Bound writable over the read-only mapping: it is replaced. */
	igt_assert_eq_u64(vseg_vm_bind_range(ctx.fd, b.handle, va, 0, 0, 0,
					     NULL, 0, NULL, 0), SZ_64K);
	vseg_cb_reset(&cb);
	vseg_cb_write(&cb, va + 24, 0x0123012301230123ull);
	memcpy(b.model + 24, &(uint64_t){ 0x0123012301230123ull }, 8);
	vseg_cb_exec_ok(ctx.fd, RENDER, &cb, "WRITE after a writable rebind");
	vbuf_verify(&b, "a buffer rebound writable");

	vseg_vm_unbind(ctx.fd, va);
	vseg_cb_fini(&cb);
	vbuf_destroy(&b);
	vbuf_destroy(&d);
}

/* --- VM-private buffers ------------------------------------------------------------- */

static void test_vm_private(void)
{
	struct drm_vseg_gem_create c;
	struct vseg_cmdbuf cb;
	struct vbuf p, q, n;
	int dmabuf = -1;

	vseg_create_args(&c, SZ_256K, BIT(1) | BIT(ctx.ap_id),
			 DRM_VSEG_GEM_CREATE_VM_PRIVATE);
	vseg_create_prefer(&c, 1, 0);
	vbuf_create(&p, ctx.fd, &c);
	vseg_create_args(&c, SZ_64K, BIT(ctx.ap_id), DRM_VSEG_GEM_CREATE_VM_PRIVATE);
	vbuf_create(&q, ctx.fd, &c);
	vseg_create_args(&c, SZ_64K, BIT(ctx.ap_id), 0);
	vbuf_create(&n, ctx.fd, &c);
	vbuf_cpu_pattern(&p, 0x1100);
	vbuf_cpu_pattern(&q, 0x1101);
	vbuf_cpu_pattern(&n, 0x1102);
	vbuf_bind(&p, vseg_va_alloc(&va_space, p.size));
	vbuf_bind(&q, vseg_va_alloc(&va_space, q.size));
	vbuf_bind(&n, vseg_va_alloc(&va_space, n.size));

	/* Two private buffers (one reservation) and a shared one in a job. */
	vseg_cb_init(&cb);
	vfill(&cb, &p, SZ_64K, SZ_64K, 0xabababab);
	vcopy(&cb, &q, 0, &p, SZ_64K + SZ_4K, SZ_4K);
	vcopy(&cb, &p, 0, &n, 0, SZ_4K);
	vcopy(&cb, &n, SZ_4K, &q, SZ_8K, SZ_4K);
	vwrite(&cb, &q, SZ_64K - 8, 0x5a5a5a5a5a5a5a5aull);
	vseg_cb_exec_ok(ctx.fd, RENDER, &cb, "jobs on VM-private buffers");
	vbuf_verify(&p, "a VM-private buffer in vram");
	vbuf_verify(&q, "a VM-private buffer in system memory");
	vbuf_verify(&n, "a buffer copied to and from VM-private ones");

	/* Not exportable. */
	igt_assert_eq(drmPrimeHandleToFD(ctx.fd, p.handle, DRM_CLOEXEC, &dmabuf), -1);
	igt_assert_eq(errno, EINVAL);
	errno = 0;
	igt_assert_eq(dmabuf, -1);

	/* Moved out and back, they keep their data and work. */
	vseg_evict(ctx.fd, &p.handle, 1);
	igt_assert_eq(vseg_gem_segment(ctx.fd, p.handle), 0);
	vbuf_verify(&p, "an evicted VM-private buffer");
	vseg_cb_reset(&cb);
	vfill(&cb, &p, 0, SZ_4K, 0xcdcdcdcd);
	vseg_cb_exec_ok(ctx.fd, RENDER, &cb, "a job on an evicted VM-private buffer");
	vseg_make_resident(ctx.fd, &p.handle, 1);
	igt_assert_eq(vseg_gem_segment(ctx.fd, p.handle), 1);
	vseg_make_resident(ctx.fd, &q.handle, 1);
	vseg_cb_reset(&cb);
	vcopy(&cb, &q, SZ_4K, &p, 0, SZ_4K);
	vseg_cb_exec_ok(ctx.fd, RENDER, &cb, "a job on resident VM-private buffers");
	vbuf_verify(&p, "a VM-private buffer made resident again");
	vbuf_verify(&q, "a VM-private buffer made resident");

	vseg_cb_fini(&cb);
	vbuf_destroy(&p);
	vbuf_destroy(&q);
	vbuf_destroy(&n);
}

/* --- the mapping limit with queued binds ----------------------------------------- */

static void test_bind_limit_queued(void)
{
	const uint64_t base = 1ull << 44, step = 2 * VSEG_VA_ALIGN;
	const unsigned int max = DRM_VSEG_MAX_VM_MAPPINGS;
	int fd2 = drm_open_vseg();
	uint32_t h, h2, gate, out;
	struct vseg_gate g;
	int err;

	h = vseg_gem_create_simple(fd2, SZ_64K, BIT(ctx.ap_id), 0);
	/* Two short of the limit, each mapping alone. */
	for (unsigned int i = 0; i < max - 2; i++) {
		err = __vseg_vm_bind(fd2, h, base + i * step, NULL);
		igt_assert_f(err == 0, "mapping %u: %d (%s)\n", i, err,
			     vseg_errname(err));
	}

	/* A queued MAP reserves two: the space is full until it is applied. */
	vseg_gate_init(&g);
	gate = vseg_gate_syncobj(&g, fd2);
	out = vseg_syncobj_create(fd2, 0);
	igt_assert_eq(__vseg_vm_bind_range(fd2, h, base - step, 0, 0, 0, &gate,
					   1, &out, 1), 0);
	err = __vseg_vm_bind(fd2, h, base - 2 * step, NULL);
	igt_assert_f(err == -ENOSPC,
		     "a MAP behind a queued one, at %u mappings and 2 reserved: %d (%s)\n",
		     max - 2, err, vseg_errname(err));
	err = __vseg_vm_unbind(fd2, base);
	igt_assert_f(err == -ENOSPC,
		     "an UNMAP behind a queued MAP, with the space reserved: %d (%s)\n",
		     err, vseg_errname(err));
	/*
	 * The bound is the process's: another file of it is refused too,
	 * another process is not affected.
	 */
	h2 = vseg_gem_create_simple(ctx.fd, SZ_64K, BIT(ctx.ap_id), 0);
	err = __vseg_vm_bind(ctx.fd, h2, base, NULL);
	igt_assert_f(err == -ENOSPC,
		     "a MAP on another file of the process: %d (%s)\n", err,
		     vseg_errname(err));
	vseg_gem_close(ctx.fd, h2);
	igt_fork(child, 1) {
		int fd3 = drm_open_vseg();

		h2 = vseg_gem_create_simple(fd3, SZ_64K, BIT(ctx.ap_id), 0);
		igt_assert_eq(__vseg_vm_bind(fd3, h2, base, NULL), 0);
		vseg_vm_unbind(fd3, base);
		vseg_gem_close(fd3, h2);
		close(fd3);
	}
	igt_waitchildren();
	expect_pending(fd2, out, "a bind behind a gate");
	vseg_gate_assert_closed(&g, "the space was full of reservations");
	vseg_gate_open(&g);
	igt_assert_eq(vseg_syncobj_wait_error(fd2, out, VSEG_JOB_TIMEOUT_MS), 0);
	vseg_syncobj_destroy(fd2, gate);
	vseg_gate_fini(&g);

	/* Applied, it counts one: one more fits, then none. */
	igt_assert_eq(__vseg_vm_bind(fd2, h, base - 2 * step, NULL), 0);
	igt_assert_eq(__vseg_vm_bind(fd2, h, base - 3 * step, NULL), -ENOSPC);

	/* A queued UNMAP reserves one, whatever it will free. */
	vseg_vm_unbind(fd2, base);
	vseg_gate_init(&g);
	gate = vseg_gate_syncobj(&g, fd2);
	igt_assert_eq(__vseg_vm_unbind_range(fd2, base + step, 0, &gate, 1, &out,
					     1), 0);
	err = __vseg_vm_unbind_range(fd2, base + 2 * step, 0, NULL, 0, NULL, 0);
	igt_assert_f(err == -ENOSPC,
		     "an UNMAP behind a queued UNMAP at the limit: %d (%s)\n",
		     err, vseg_errname(err));
	expect_pending(fd2, out, "an unbind behind a gate");
	vseg_gate_assert_closed(&g, "the space was full with a queued unbind");
	vseg_gate_open(&g);
	igt_assert_eq(vseg_syncobj_wait_error(fd2, out, VSEG_JOB_TIMEOUT_MS), 0);
	/* Two free now. */
	igt_assert_eq(__vseg_vm_bind(fd2, h, base, NULL), 0);
	igt_assert_eq(__vseg_vm_bind(fd2, h, base + step, NULL), 0);
	igt_assert_eq(__vseg_vm_bind(fd2, h, base - 3 * step, NULL), -ENOSPC);

	vseg_syncobj_destroy(fd2, out);
	vseg_syncobj_destroy(fd2, gate);
	vseg_gate_fini(&g);
	vseg_gem_close(fd2, h);
	drm_close_driver(fd2);
}

/* The subtests on the discrete profile. */
static const struct vseg_subtest discrete_tests[] = {
	{ "unbind-fault", test_unbind_fault,
	  "A job on an unbound address fails its fence with "
	  "EFAULT; the kernel keeps serving this and other "
	  "clients; bound again, the address works." },
	{ "unmapped", test_unmapped,
	  "Addresses never bound, around mappings and past the "
	  "address space fail the job's fence with EFAULT and "
	  "skip the rest of the job." },
	{ "bind-errors", test_bind_errors,
	  "VM_BIND and VM_UNBIND refuse bad addresses, ranges, "
	  "handles and fields, and unbinding what is not mapped." },
	{ "bind-limit", test_bind_limit,
	  "The address spaces of a process hold at most "
	  "DRM_VSEG_MAX_VM_MAPPINGS mappings: one more is "
	  "ENOSPC in any of its files; other processes are not affected; "
	  "unbinding makes room." },
	{ "per-file", test_per_file,
	  "Each open file has its own GPU virtual address space." },
	{ "alias", test_alias,
	  "A buffer bound at two addresses is reached through "
	  "both." },
	{ "queued-rebind", test_queued_rebind,
	  "A queued job reaches only the buffers mapped in its ranges when "
	  "it was queued: rebound under it, its address faults." },
	{ "partial-bind", test_partial_bind,
	  "A bound range of a buffer is reached exactly." },
	{ "split-unbind", test_split_unbind,
	  "Unbinding the middle of a mapping leaves both ends working." },
	{ "bind-replace", test_bind_replace,
	  "A bind over a mapping replaces the part it covers." },
	{ "async-bind", test_async_bind,
	  "A bind behind a gate is applied when the gate opens." },
	{ "readonly", test_readonly,
	  "A read-only mapping faults on writes and can be read." },
	{ "vm-private", test_vm_private,
	  "VM-private buffers work in jobs, move and are not exported." },
	{ "bind-limit-queued", test_bind_limit_queued,
	  "Queued binds reserve their worst case against the mapping "
	  "limit." },
	{ "evict-busy", test_evict_busy,
	  "Evicting and restoring a bound buffer a render job "
	  "writes loses nothing." },
	{ "cross-engine", test_cross_engine,
	  "Syncobjs order jobs across the copy and render engines." },
	{ "render-node", test_render_node,
	  "VM_BIND and both engines work on the render node." },
	{ "render-allocation-list", test_render_rejects_lists,
	  "The render engine refuses an allocation list." },
};

igt_main
{
	igt_fixture {
		vseg_ctx_setup(&ctx);
		ctx.on_load = va_reset;
	}

	for_each_vseg_profile(profile) {
		igt_describe("VM_BIND a buffer of every placement (scattered "
			     "and contiguous in each memory segment, the "
			     "aperture, system memory), FILL/WRITE/COPY it by "
			     "GPU virtual address, read back through mmap; "
			     "again after it moved out and back.");
		igt_subtest_with_dynamic_f("fill-%s", profile) {
			struct vcell cells[MAX_VCELLS];
			unsigned int n;

			vseg_ctx_load(&ctx, profile);
			n = virtual_cells(cells, true);
			for (unsigned int i = 0; i < n; i++)
				igt_dynamic(cells[i].name)
					test_fill(&cells[i]);
			vseg_ctx_finish(&ctx, "after closing every buffer");
		}

		igt_describe("COPY by GPU virtual address between buffers of "
			     "every pair of placements.");
		igt_subtest_with_dynamic_f("copy-%s", profile) {
			struct vcell cells[MAX_VCELLS];
			unsigned int n;

			vseg_ctx_load(&ctx, profile);
			n = virtual_cells(cells, false);
			for (unsigned int i = 0; i < n; i++)
				for (unsigned int j = 0; j < n; j++)
					igt_dynamic_f("%s-to-%s", cells[i].name,
						      cells[j].name)
						test_copy(&cells[i], &cells[j]);
			vseg_ctx_finish(&ctx, "after closing every buffer");
		}
	}

	vseg_ctx_subtests(&ctx, "discrete", discrete_tests,
			  ARRAY_SIZE(discrete_tests),
			  "after closing every buffer");

	igt_fixture
		vseg_ctx_unload(&ctx);
}
