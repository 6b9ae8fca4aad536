// SPDX-License-Identifier: GPL-2.0-only
/*
 * Copyright (c) 2026 The vseg authors
 *
 * The engines of the software GPU: a physically addressed copy engine and
 * a virtually addressed render engine, each an ordered kernel work queue.
 *
 * Submission locks every buffer the job may touch, makes each reachable
 * the way its engine addresses memory (physical: contiguous in a memory
 * segment or mapped into the aperture; virtual: pages present), patches
 * physical addresses into the command buffer, and adds the job's fence to
 * each buffer, so that TTM moves wait for the job. The worker then
 * resolves every address as hardware would: memory-segment offsets
 * directly, aperture offsets through the GART, virtual addresses through
 * the job's view of the file's address space. Whatever it cannot resolve
 * ends the job with -EFAULT on its fence.
 */

#include <linux/delay.h>
#include <linux/dma-fence.h>
#include <linux/dma-resv.h>
#include <linux/highmem.h>
#include <linux/sizes.h>
#include <linux/slab.h>
#include <linux/sort.h>
#include <linux/string.h>
#include <linux/workqueue.h>
#include <drm/drm_gem.h>
#include <uapi/drm/vseg_drm.h>

#include "vseg_aperture_mgr.h"
#include "vseg_bo.h"
#include "vseg_compat.h"
#include "vseg_drv.h"
#include "vseg_engine.h"
#include "vseg_ttm.h"
#include "vseg_vm.h"
#include "vseg_vram_mgr.h"

/* How long a job waits for its dependencies before it runs anyway. */
#define VSEG_JOB_TIMEOUT	(10 * HZ)
/*
 * Most bytes a command touches in one step: the engine reschedules between
 * steps, and holds the GART lock for one step at most.
 */
#define VSEG_ENGINE_STEP	SZ_256K

/**
 * struct vseg_phys_range - where a listed allocation is, physically
 * @seg: segment id: a memory segment, or the aperture.
 * @start: offset of its first byte in the segment.
 * @end: offset just past its last byte.
 *
 * The only bytes a physically addressed job may touch.
 */
struct vseg_phys_range {
	u32 seg;
	u64 start;
	u64 end;
};

/**
 * struct vseg_job_dep - a fence a job waits for before it is queued
 * @cb: on the fence's callback list while the job waits.
 * @fence: the fence, referenced.
 * @job: the waiting job.
 * @explicit: an input syncobj's fence: its error cancels the job. Implicit
 *	dependencies (the buffers' reservations, the file's previous job)
 *	only order the job.
 */
struct vseg_job_dep {
	struct dma_fence_cb cb;
	struct dma_fence *fence;
	struct vseg_job *job;
	bool explicit;
};

/* Bits of &vseg_job.flags. */
#define VSEG_JOB_QUEUED		0	/* handed to the engine's queue */
#define VSEG_JOB_CANCELLED	1	/* the device went away first */

struct vseg_job {
	struct work_struct work;
	struct vseg_engine *engine;
	struct dma_fence *fence;
	struct drm_vseg_cmd *cmds;
	u32 num_cmds;
	/* What the job waits for, outside the engine's queue. */
	struct vseg_job_dep *deps;
	u32 num_deps;
	atomic_t pending;
	unsigned long flags;
	struct delayed_work timeout;
	struct list_head link;
	/* Every distinct buffer, referenced, and where it was at submission. */
	struct vseg_bo **bos;
	struct ttm_resource **res;
	u32 num_bos;
	/* Copy engine: the physical range of each of @bos, sorted. */
	struct vseg_phys_range *ranges;
	/* Render engine: the mappings, and the resource behind each. */
	struct vseg_vm_view *view;
	struct ttm_resource **map_res;
};

/* A job's fence; it may outlive the engine, so it has its own lock. */
struct vseg_fence {
	struct dma_fence base;
	spinlock_t lock; /* the fence's own */
	u32 engine;
};

static const char * const vseg_engine_names[VSEG_NUM_ENGINES] = {
	"copy", "render",
};

static const char *vseg_fence_driver_name(struct dma_fence *f)
{
	return "vseg";
}

static const char *vseg_fence_timeline_name(struct dma_fence *f)
{
	return vseg_engine_names[container_of(f, struct vseg_fence, base)->engine];
}

static const struct dma_fence_ops vseg_fence_ops = {
	.get_driver_name = vseg_fence_driver_name,
	.get_timeline_name = vseg_fence_timeline_name,
};

/* Split a physical address into its segment id and offset. */
static void phys_decode(u64 addr, u32 *seg, u64 *off)
{
	*seg = addr >> 56;
	*off = addr & (BIT_ULL(56) - 1);
}

static int range_cmp(const void *a, const void *b)
{
	const struct vseg_phys_range *x = a, *y = b;

	if (x->seg != y->seg)
		return x->seg < y->seg ? -1 : 1;
	if (x->start != y->start)
		return x->start < y->start ? -1 : 1;
	return 0;
}

/*
 * Does [addr, addr + len) lie inside one listed allocation? The ranges are
 * sorted and never overlap (two buffers never share segment bytes), so
 * the candidate is the last range that starts at or below the address.
 */
static bool phys_span_listed(const struct vseg_job *job, u64 addr, u64 len)
{
	u32 lo = 0, hi = job->num_bos, mid, seg;
	const struct vseg_phys_range *r = NULL;
	u64 off;

	phys_decode(addr, &seg, &off);
	while (lo < hi) {
		const struct vseg_phys_range *m;

		mid = lo + (hi - lo) / 2;
		m = &job->ranges[mid];
		if (m->seg < seg || (m->seg == seg && m->start <= off)) {
			r = m;
			lo = mid + 1;
		} else {
			hi = mid;
		}
	}
	return r && r->seg == seg && off < r->end && len <= r->end - off;
}

/*
 * The copy engine's security model (WDDM's): a command may touch memory only
 * through its allocation list. Every byte a command reads or writes must
 * lie inside one listed allocation, whatever address the command carries.
 */
static bool phys_cmd_listed(const struct vseg_job *job,
			    const struct drm_vseg_cmd *c)
{
	switch (c->opcode) {
	case DRM_VSEG_CMD_FILL:
		return phys_span_listed(job, c->dst, c->size);
	case DRM_VSEG_CMD_COPY:
		return phys_span_listed(job, c->dst, c->size) &&
		       phys_span_listed(job, c->src, c->size);
	case DRM_VSEG_CMD_WRITE:
		return phys_span_listed(job, c->dst, sizeof(u64));
	default:
		return true;
	}
}

/* Are the listed buffers still where the job's ranges say they are? */
static bool phys_bos_in_place(const struct vseg_job *job)
{
	u32 i;

	for (i = 0; i < job->num_bos; i++)
		if (READ_ONCE(job->bos[i]->tbo.resource) != job->res[i])
			return false;
	return true;
}

/*
 * A GPU address resolved to kernel memory; unmap with ptr_put(). A virtual
 * address keeps its cursor over the mapping across ptr_put(), so that a
 * command walking a scattered buffer goes on from the block it reached
 * instead of walking the blocks from the first for every chunk.
 */
struct vseg_ptr {
	void *kmapped;
	struct vseg_cursor cursor;
	const struct vseg_vm_mapping *map;
	struct vseg_vram_mgr *vram;
};

/* A destination in a memory segment may no longer be zero. */
static void ptr_written(struct vseg_ptr *p, void *ptr, u64 len)
{
	if (p->vram)
		vseg_vram_mark_dirty(p->vram, ptr - p->vram->vaddr, len);
}

static void ptr_put(struct vseg_ptr *p)
{
	if (p->kmapped)
		kunmap_local(p->kmapped);
	p->kmapped = NULL;
	vseg_cursor_unmap(&p->cursor);
}

/* The GART lock of a physical job, held over each step; else NULL. */
static struct mutex *job_gart_lock(const struct vseg_job *job)
{
	struct vseg_device *vdev = job->engine->vdev;

	if (job->view || !vdev->aperture_id)
		return NULL;
	return &vseg_seg(vdev, vdev->aperture_id)->aperture->gart.lock;
}

static void *resolve_phys(struct vseg_job *job, u64 addr, u64 *len,
			  struct vseg_ptr *p)
{
	struct vseg_device *vdev = job->engine->vdev;
	struct vseg_segment *seg;
	phys_addr_t phys;
	u64 off;
	u32 id;

	phys_decode(addr, &id, &off);
	if (!id || id > vdev->table.num_segments)
		return NULL;
	seg = vseg_seg(vdev, id);
	p->vram = seg->vram;
	if (seg->vram) {
		if (off >= seg->desc->size)
			return NULL;
		*len = seg->desc->size - off;
		return seg->vram->vaddr + off;
	}
	/* The caller holds the GART lock: the page cannot go. */
	if (__vseg_gart_translate(&seg->aperture->gart, off, &phys))
		return NULL;
	p->kmapped = kmap_local_page(pfn_to_page(PHYS_PFN(phys)));
	*len = PAGE_SIZE - offset_in_page(phys);
	return p->kmapped + offset_in_page(phys);
}

static void *resolve_virt(struct vseg_job *job, u64 va, u64 *len,
			  struct vseg_ptr *p)
{
	const struct vseg_vm_mapping *m = vseg_vm_view_find(job->view, va);
	unsigned int i;
	void *ptr;
	u64 off;

	if (!m)
		return NULL;
	i = m - job->view->map;
	off = va - m->va;
	if (p->map != m) {
		vseg_cursor_init(&p->cursor, job->engine->vdev, m->bo->tbo.ttm,
				 job->map_res[i]);
		p->map = m;
		p->vram = p->cursor.mgr;
	}
	ptr = vseg_cursor_map(&p->cursor, off, len);
	*len = min(*len, m->size - off);
	return ptr;
}

static void *resolve(struct vseg_job *job, u64 addr, u64 *len,
		     struct vseg_ptr *p)
{
	return job->view ? resolve_virt(job, addr, len, p) :
			   resolve_phys(job, addr, len, p);
}

/*
 * Run one FILL, COPY or WRITE in steps of at most VSEG_ENGINE_STEP bytes,
 * each resolving its addresses anew (under the GART lock for a physical
 * job, dropped between steps).
 */
static int run_cmd(struct vseg_job *job, const struct drm_vseg_cmd *c)
{
	bool copy = c->opcode == DRM_VSEG_CMD_COPY;
	u64 total = c->opcode == DRM_VSEG_CMD_WRITE ? sizeof(u64) : c->size;
	struct mutex *gart = job_gart_lock(job);
	struct vseg_ptr dp = {}, sp = {};
	u64 done = 0, n = 0, slen = U64_MAX;
	void *d, *s = NULL;
	int err = 0;

	while (done < total && !err) {
		if (gart)
			mutex_lock(gart);
		d = resolve(job, c->dst + done, &n, &dp);
		if (d && copy)
			s = resolve(job, c->src + done, &slen, &sp);
		if (!d || (copy && !s)) {
			err = -EFAULT;
		} else {
			n = min3(n, slen, min_t(u64, total - done,
						VSEG_ENGINE_STEP));
			ptr_written(&dp, d, n);
			if (copy)
				memcpy(d, s, n);
			else if (c->opcode == DRM_VSEG_CMD_FILL)
				memset32(d, (u32)c->value, n / 4);
			else if (n < sizeof(u64))
				err = -EFAULT;
			else
				*(u64 *)d = c->value;
		}
		ptr_put(&sp);
		ptr_put(&dp);
		if (gart)
			mutex_unlock(gart);
		done += n;
		cond_resched();
	}
	return err;
}

static int run_commands(struct vseg_job *job)
{
	u32 i;
	int err = 0;

	for (i = 0; i < job->num_cmds && !err; i++) {
		const struct drm_vseg_cmd *c = &job->cmds[i];

		if (c->opcode == DRM_VSEG_CMD_NOP)
			continue;
		/*
		 * Placements are final only now: check again that the
		 * command stays inside the listed allocations, where they
		 * are, before it touches a byte.
		 */
		if (!job->view && (!phys_bos_in_place(job) ||
				   !phys_cmd_listed(job, c)))
			err = -EFAULT;
		else
			err = run_cmd(job, c);
	}
	return err;
}

static void job_free(struct vseg_job *job)
{
	u32 i;

	for (i = 0; i < job->num_deps; i++)
		dma_fence_put(job->deps[i].fence);
	kvfree(job->deps);
	for (i = 0; i < job->num_bos; i++)
		drm_gem_object_put(&job->bos[i]->tbo.base);
	kvfree(job->bos);
	kvfree(job->res);
	kvfree(job->ranges);
	kvfree(job->map_res);
	vseg_vm_view_put(job->view);
	kvfree(job->cmds);
	if (job->fence)
		dma_fence_put(job->fence);
	kfree(job);
}

/*
 * The dependencies are done with (or given up on): stop listening to them
 * and say why the job must not run, if it must not.
 */
static int job_deps_release(struct vseg_job *job)
{
	int err = 0;
	u32 i;

	cancel_delayed_work_sync(&job->timeout);
	for (i = 0; i < job->num_deps; i++) {
		struct vseg_job_dep *d = &job->deps[i];

		/* After this no callback of ours runs any more. */
		dma_fence_remove_callback(d->fence, &d->cb);
		if (!dma_fence_is_signaled(d->fence))
			err = err ?: -ETIMEDOUT;	/* given up on */
		else if (d->explicit && d->fence->error)
			err = -ECANCELED;
	}
	if (test_bit(VSEG_JOB_CANCELLED, &job->flags))
		err = -ENODEV;
	return err;
}

static void job_run(struct work_struct *work)
{
	struct vseg_job *job = container_of(work, struct vseg_job, work);
	int err;

	err = job_deps_release(job);
	if (!err)
		err = run_commands(job);
	if (err) {
		dma_fence_set_error(job->fence, err);
		atomic64_inc(&job->engine->failed);
	}
	dma_fence_signal(job->fence);
	job_free(job);
}

/* Hand a job to its engine, once: when ready, timed out or cancelled. */
static void job_queue(struct vseg_job *job)
{
	struct vseg_engine *e = job->engine;
	unsigned long flags;

	if (test_and_set_bit(VSEG_JOB_QUEUED, &job->flags))
		return;
	spin_lock_irqsave(&e->lock, flags);
	list_del_init(&job->link);
	spin_unlock_irqrestore(&e->lock, flags);
	queue_work(e->wq, &job->work);
}

/* Fence callbacks may run in interrupt context: count, maybe queue. */
static void job_dep_signalled(struct dma_fence *f, struct dma_fence_cb *cb)
{
	struct vseg_job_dep *d = container_of(cb, struct vseg_job_dep, cb);

	if (atomic_dec_and_test(&d->job->pending))
		job_queue(d->job);
}

/*
 * The input syncobjs took too long: stop waiting for them (the job will
 * fail with -ETIMEDOUT), but not for the implicit dependencies, which are
 * vseg's own jobs and moves and always end: the order stays.
 */
static void job_timeout(struct work_struct *work)
{
	struct vseg_job *job = container_of(to_delayed_work(work),
					    struct vseg_job, timeout);
	u32 i;

	for (i = 0; i < job->num_deps; i++) {
		struct vseg_job_dep *d = &job->deps[i];

		if (d->explicit && dma_fence_remove_callback(d->fence, &d->cb) &&
		    atomic_dec_and_test(&job->pending))
			job_queue(job);
	}
}

/*
 * Wait for the dependencies outside the engine: a job whose input fences
 * are slow (or never signal) does not hold up other files' jobs. It is
 * queued when the last one signals, or after VSEG_JOB_TIMEOUT.
 */
static void job_arm(struct vseg_job *job)
{
	struct vseg_engine *e = job->engine;
	unsigned long flags;
	u32 i;

	atomic_set(&job->pending, job->num_deps + 1);
	spin_lock_irqsave(&e->lock, flags);
	list_add_tail(&job->link, &e->waiting);
	spin_unlock_irqrestore(&e->lock, flags);
	for (i = 0; i < job->num_deps; i++) {
		struct vseg_job_dep *d = &job->deps[i];

		d->job = job;
		if (dma_fence_add_callback(d->fence, &d->cb, job_dep_signalled))
			atomic_dec(&job->pending);	/* already signalled */
	}
	if (job->num_deps)
		schedule_delayed_work(&job->timeout, VSEG_JOB_TIMEOUT);
	if (atomic_dec_and_test(&job->pending))
		job_queue(job);
}

static int job_add_dep(struct vseg_job *job, struct dma_fence *f,
		       bool explicit, u32 cap)
{
	if (dma_fence_is_signaled(f) && !explicit)
		return 0;
	if (job->num_deps >= cap)
		return -ENOMEM;
	job->deps[job->num_deps].fence = dma_fence_get(f);
	job->deps[job->num_deps].explicit = explicit;
	job->num_deps++;
	return 0;
}

/*
 * A job depends on its input syncobjs, on the file's previous job on the
 * engine (jobs of one file run in order) and, implicitly, on every fence
 * already on its buffers' reservations, so that jobs on a shared buffer,
 * and moves, stay ordered. Called with the buffers locked, before the
 * job's own fence is added to them.
 */
static int job_collect_deps(struct vseg_job *job, struct vseg_submit *s)
{
	struct dma_resv_iter cursor;
	struct dma_fence *f;
	u32 i, cap = s->num_in + 1;
	int err = 0;

	for (i = 0; i < job->num_bos; i++)
		dma_resv_for_each_fence(&cursor, job->bos[i]->tbo.base.resv,
					DMA_RESV_USAGE_BOOKKEEP, f)
			cap++;
	job->deps = kvcalloc(cap, sizeof(*job->deps), GFP_KERNEL);
	if (!job->deps)
		return -ENOMEM;
	for (i = 0; i < s->num_in && !err; i++)
		err = job_add_dep(job, s->in_fences[i], true, cap);
	if (s->after && !err)
		err = job_add_dep(job, s->after, false, cap);
	for (i = 0; i < job->num_bos && !err; i++)
		dma_resv_for_each_fence(&cursor, job->bos[i]->tbo.base.resv,
					DMA_RESV_USAGE_BOOKKEEP, f) {
			err = job_add_dep(job, f, false, cap);
			if (err)
				break;
		}
	return err;
}

static int ptr_cmp(const void *a, const void *b)
{
	uintptr_t x = (uintptr_t)*(void * const *)a;
	uintptr_t y = (uintptr_t)*(void * const *)b;

	return x < y ? -1 : x > y;
}

/* The distinct buffers of a job, each with one new reference. */
static int collect_bos(struct vseg_job *job, struct vseg_submit *s)
{
	u32 n = job->view ? job->view->count : s->num_bos, i;

	job->bos = kvcalloc(n, sizeof(*job->bos), GFP_KERNEL);
	job->res = kvcalloc(n, sizeof(*job->res), GFP_KERNEL);
	if (job->view)
		job->map_res = kvcalloc(n, sizeof(*job->map_res), GFP_KERNEL);
	else
		job->ranges = kvcalloc(n, sizeof(*job->ranges), GFP_KERNEL);
	if (n && (!job->bos || !job->res || (!job->map_res && !job->ranges)))
		return -ENOMEM;
	for (i = 0; i < n; i++)
		job->bos[i] = job->view ? job->view->map[i].bo : s->bos[i];
	/* Sorted, duplicates are neighbours: O(n log n) for n mappings. */
	sort(job->bos, n, sizeof(*job->bos), ptr_cmp, NULL);
	for (i = 0; i < n; i++) {
		if (job->num_bos && job->bos[job->num_bos - 1] == job->bos[i])
			continue;
		job->bos[job->num_bos++] = job->bos[i];
	}
	for (i = 0; i < job->num_bos; i++)
		drm_gem_object_get(&job->bos[i]->tbo.base);
	return 0;
}

static void unlock_bos(struct vseg_job *job, u32 n, s32 skip)
{
	u32 i;

	for (i = 0; i < n; i++)
		if ((s32)i != skip)
			dma_resv_unlock(job->bos[i]->tbo.base.resv);
}

/* Lock every buffer of the job with the wound-wait protocol. */
static int lock_bos(struct vseg_job *job, struct ww_acquire_ctx *ticket)
{
	s32 contended = -1;
	u32 i;
	int err;

	ww_acquire_init(ticket, &reservation_ww_class);
retry:
	if (contended >= 0) {
		err = dma_resv_lock_slow_interruptible(job->bos[contended]->tbo.base.resv,
						       ticket);
		if (err)
			goto fini;
	}
	for (i = 0; i < job->num_bos; i++) {
		if ((s32)i == contended)
			continue;
		err = dma_resv_lock_interruptible(job->bos[i]->tbo.base.resv,
						  ticket);
		if (!err)
			continue;
		unlock_bos(job, i, contended);
		if (contended >= 0)
			dma_resv_unlock(job->bos[contended]->tbo.base.resv);
		if (err == -EDEADLK) {
			contended = i;
			goto retry;
		}
		goto fini;
	}
	return 0;
fini:
	ww_acquire_fini(ticket);
	return err;
}

/* Make each buffer reachable the way the engine addresses memory. */
static int prepare_bos(struct vseg_job *job)
{
	struct ttm_operation_ctx ctx = { .interruptible = true };
	u32 i;
	int err;

	for (i = 0; i < job->num_bos; i++) {
		struct ttm_buffer_object *tbo = &job->bos[i]->tbo;

		if (!tbo->resource)
			return -EINVAL;
		if (job->engine->id == VSEG_ENGINE_COPY) {
			err = vseg_bo_make_physical(job->bos[i], &ctx);
		} else {
			err = 0;
			if (tbo->ttm && !ttm_tt_is_populated(tbo->ttm) &&
			    (tbo->resource->mem_type == TTM_PL_SYSTEM ||
			     tbo->resource->mem_type == TTM_PL_TT))
				err = vseg_tt_populate(tbo, &ctx);
		}
		if (!err)
			err = dma_resv_reserve_fences(tbo->base.resv, 1);
		if (err)
			return err;
	}
	return 0;
}

/* Record where the listed buffers are, and check the commands against it. */
static int phys_check(struct vseg_job *job, struct vseg_submit *s)
{
	u32 i;

	for (i = 0; i < job->num_bos; i++) {
		struct vseg_phys_range *r = &job->ranges[i];

		if (!vseg_bo_phys_addr(job->bos[i], &r->seg, &r->start))
			return -EINVAL;
		r->end = r->start + job->bos[i]->tbo.base.size;
	}
	sort(job->ranges, job->num_bos, sizeof(*job->ranges), range_cmp,
	     NULL);
	for (i = 0; i < s->num_cmds; i++)
		if (!phys_cmd_listed(job, &s->cmds[i]))
			return -EINVAL;
	return 0;
}

static int apply_patches(struct vseg_submit *s)
{
	u32 i;

	for (i = 0; i < s->num_patches; i++) {
		const struct drm_vseg_patch *pt = &s->patches[i];
		u64 *slot = (u64 *)((u8 *)s->cmds + pt->patch_offset);
		u32 seg;
		u64 off;

		if (!vseg_bo_phys_addr(s->bos[pt->allocation_index], &seg, &off))
			return -EINVAL;
		*slot = DRM_VSEG_PHYS_ADDR(seg, off + pt->allocation_offset);
	}
	return 0;
}

/**
 * vseg_submit_release() - free what a submission holds
 * @s: the submission; its arrays and references are dropped
 */
void vseg_submit_release(struct vseg_submit *s)
{
	u32 i;

	for (i = 0; i < s->num_bos; i++)
		if (s->bos[i])
			drm_gem_object_put(&s->bos[i]->tbo.base);
	kvfree(s->bos);
	kvfree(s->patches);
	for (i = 0; i < s->num_in; i++)
		if (s->in_fences[i])
			dma_fence_put(s->in_fences[i]);
	kvfree(s->in_fences);
	if (s->after)
		dma_fence_put(s->after);
	kvfree(s->cmds);
	memset(s, 0, sizeof(*s));
}

/**
 * vseg_engine_submit() - queue a job
 * @vdev: the device
 * @s: the checked submission; the job takes its command buffer and input
 *	fences, everything else is released
 * @fence: receives a reference to the job's fence
 *
 * Return: 0, or a negative error code with nothing queued: -ENOSPC when a
 * buffer cannot be made reachable, -EINTR/-ERESTARTSYS, -ENOMEM.
 */
int vseg_engine_submit(struct vseg_device *vdev, struct vseg_submit *s,
		       struct dma_fence **fence)
{
	struct vseg_engine *e = vdev->engine[s->engine];
	struct ww_acquire_ctx ticket;
	struct vseg_fence *vf;
	struct vseg_job *job;
	unsigned long flags;
	unsigned int tries;
	u64 seqno;
	u32 i;
	int err;

	job = kzalloc(sizeof(*job), GFP_KERNEL);
	if (!job) {
		vseg_submit_release(s);
		return -ENOMEM;
	}
	INIT_WORK(&job->work, job_run);
	INIT_DELAYED_WORK(&job->timeout, job_timeout);
	INIT_LIST_HEAD(&job->link);
	job->engine = e;
	if (s->engine == VSEG_ENGINE_RENDER) {
		job->view = vseg_vm_view_get(s->vm);
		if (!job->view) {
			err = -ENOMEM;
			goto err_free;
		}
	}
	err = collect_bos(job, s);
	if (err)
		goto err_free;

	for (tries = 0;; tries++) {
		err = lock_bos(job, &ticket);
		if (err)
			goto err_free;
		/* Making room may lock other buffers with the same ticket. */
		err = prepare_bos(job);
		if (!err)
			err = apply_patches(s);
		if (!err && !job->view)
			err = phys_check(job, s);
		if (err != -ENOSPC || tries >= VSEG_EVICT_RETRIES)
			break;
		/*
		 * No room, maybe because others hold the buffers to evict,
		 * or wait for ours: leave the transaction before trying
		 * again, as the wound-wait protocol requires.
		 */
		unlock_bos(job, job->num_bos, -1);
		ww_acquire_fini(&ticket);
		usleep_range(200, 500);
	}
	if (!err)
		err = job_collect_deps(job, s);
	if (err)
		goto err_unlock;
	ww_acquire_done(&ticket);

	vf = kzalloc(sizeof(*vf), GFP_KERNEL);
	if (!vf) {
		err = -ENOMEM;
		goto err_unlock;
	}
	spin_lock_init(&vf->lock);
	vf->engine = e->id;
	spin_lock_irqsave(&e->fence_lock, flags);
	seqno = ++e->seqno;
	spin_unlock_irqrestore(&e->fence_lock, flags);
	dma_fence_init(&vf->base, &vseg_fence_ops, &vf->lock, e->context,
		       seqno);
	job->fence = &vf->base;

	if (job->view)
		for (i = 0; i < job->view->count; i++)
			job->map_res[i] = job->view->map[i].bo->tbo.resource;
	for (i = 0; i < job->num_bos; i++) {
		struct ttm_buffer_object *tbo = &job->bos[i]->tbo;

		job->res[i] = tbo->resource;
		dma_resv_add_fence(tbo->base.resv, job->fence,
				   DMA_RESV_USAGE_WRITE);
		/* The CPU's next access faults and waits for the job. */
		ttm_bo_unmap_virtual(tbo);
	}
	unlock_bos(job, job->num_bos, -1);
	ww_acquire_fini(&ticket);

	job->cmds = s->cmds;
	job->num_cmds = s->num_cmds;
	s->cmds = NULL;
	vseg_submit_release(s);

	*fence = dma_fence_get(job->fence);
	atomic64_inc(&e->submitted);
	job_arm(job);
	return 0;

err_unlock:
	unlock_bos(job, job->num_bos, -1);
	ww_acquire_fini(&ticket);
err_free:
	job_free(job);
	vseg_submit_release(s);
	return err;
}

/**
 * vseg_engine_init() - start the copy and render engines
 * @vdev: the device
 *
 * Return: 0 or -ENOMEM.
 */
int vseg_engine_init(struct vseg_device *vdev)
{
	u32 i;

	for (i = 0; i < VSEG_NUM_ENGINES; i++) {
		struct vseg_engine *e = kzalloc(sizeof(*e), GFP_KERNEL);

		if (!e)
			goto err;
		e->vdev = vdev;
		e->id = i;
		e->name = vseg_engine_names[i];
		e->context = dma_fence_context_alloc(1);
		spin_lock_init(&e->fence_lock);
		spin_lock_init(&e->lock);
		INIT_LIST_HEAD(&e->waiting);
		e->wq = alloc_ordered_workqueue("vseg-%s", 0, e->name);
		if (!e->wq) {
			kfree(e);
			goto err;
		}
		vdev->engine[i] = e;
	}
	return 0;
err:
	vseg_engine_fini(vdev);
	return -ENOMEM;
}

/**
 * vseg_engine_drain() - run every queued job to its end
 * @vdev: the device, unplugged: no new job can be queued
 *
 * Jobs still waiting for their dependencies end at once with -ENODEV.
 */
void vseg_engine_drain(struct vseg_device *vdev)
{
	struct vseg_job *job;
	unsigned long flags;
	u32 i;

	for (i = 0; i < VSEG_NUM_ENGINES; i++) {
		struct vseg_engine *e = vdev->engine[i];

		if (!e)
			continue;
		/* Jobs still waiting for dependencies run now, failed. */
		spin_lock_irqsave(&e->lock, flags);
		while (!list_empty(&e->waiting)) {
			job = list_first_entry(&e->waiting, struct vseg_job,
					       link);
			list_del_init(&job->link);
			set_bit(VSEG_JOB_CANCELLED, &job->flags);
			if (!test_and_set_bit(VSEG_JOB_QUEUED, &job->flags))
				queue_work(e->wq, &job->work);
		}
		spin_unlock_irqrestore(&e->lock, flags);
		drain_workqueue(e->wq);
	}
}

/**
 * vseg_engine_fini() - run every queued job to its end, stop the engines
 * @vdev: the device
 */
void vseg_engine_fini(struct vseg_device *vdev)
{
	u32 i;

	for (i = 0; i < VSEG_NUM_ENGINES; i++) {
		struct vseg_engine *e = vdev->engine[i];

		if (!e)
			continue;
		destroy_workqueue(e->wq);
		kfree(e);
		vdev->engine[i] = NULL;
	}
}
