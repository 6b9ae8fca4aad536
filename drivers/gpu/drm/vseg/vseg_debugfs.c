// SPDX-License-Identifier: GPL-2.0-only
/*
 * Copyright (c) 2026 The vseg authors
 *
 * debugfs, under /sys/kernel/debug/dri/N/:
 *
 * segments	the segment table, the TTM memory type behind each segment and
 *		its live usage (for memory segments also "backed": bytes of
 *		the segment backed by pages, those written since they were
 *		last freed): one line per segment of "key=value" words,
 *		segment 0 (system) first. Meant for people and for scripts.
 * pm		the last power transition's counters per segment.
 * <name>_mm	one per TTM manager (TTM's own file; our managers add the
 *		buddy or GART state).
 * <name>_invalid	one per memory segment: its live invalid ranges, one
 *		"START+SIZE" a line; root writes "add START+SIZE" or
 *		"del START+SIZE" (vseg_ranges.c).
 */

#include <linux/crc32.h>
#include <linux/debugfs.h>
#include <linux/dma-resv.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <drm/drm_debugfs.h>
#include <drm/drm_file.h>
#include <drm/ttm/ttm_placement.h>
#include <drm/ttm/ttm_resource.h>
#include <drm/ttm/ttm_tt.h>

#include "vseg_aperture_mgr.h"
#include "vseg_bo.h"
#include "vseg_debugfs.h"
#include "vseg_sched.h"
#include "vseg_display.h"
#include "vseg_dmem.h"
#include "vseg_device_types.h"
#include "vseg_gart.h"
#include "vseg_host_aperture.h"
#include "vseg_paging.h"
#include "vseg_pm.h"
#include "vseg_pt.h"
#include "vseg_ranges.h"
#include "vseg_res_cursor.h"
#include "vseg_ttm.h"
#include "vseg_vpr.h"
#include "vseg_vram_mgr.h"

static void print_usage(struct seq_file *m, const struct vseg_usage *u)
{
	seq_printf(m, " committed=%llu resident=%llu evicted=%llu mapped=%llu\n",
		   u->committed, u->resident, u->evicted, u->aperture_mapped);
}

static void print_flag_names(struct seq_file *m, u64 flags)
{
	unsigned int bit;
	bool first = true;

	seq_puts(m, " flag_names=");
	for (bit = 0; bit < VSEG_SEGF_NUM; bit++) {
		if (!(flags & BIT_ULL(bit)))
			continue;
		seq_printf(m, "%s%s", first ? "" : "|",
			   vseg_segment_flag_name(bit));
		first = false;
	}
	if (first)
		seq_putc(m, '-');
}

/* " <key>=N <key>_ranges=S+L,...": "-" for none. */
static void print_ranges(struct seq_file *m, const char *key, u32 n,
			 const struct vseg_range *r)
{
	u32 i;

	seq_printf(m, " %s=%u %s_ranges=", key, n, key);
	for (i = 0; i < n; i++)
		seq_printf(m, "%s0x%llx+0x%llx", i ? "," : "", r[i].start,
			   r[i].size);
	if (!n)
		seq_putc(m, '-');
}

/*
 * The invalid ranges now (a memory segment's change at run time) and the
 * UEFI frame buffers the firmware still holds: what QUERY_SEGMENTS lists.
 */
static void print_live_ranges(struct seq_file *m, struct vseg_device *vdev,
			      const struct vseg_segment_desc *d)
{
	struct vseg_range r[VSEG_MAX_INVALID_RANGES + VSEG_MAX_UEFI_RANGES];

	if (d->kind != VSEG_SEGMENT_MEMORY) {
		print_ranges(m, "invalid", d->num_invalid, d->invalid);
		print_ranges(m, "uefi", 0, NULL);
		return;
	}
	print_ranges(m, "invalid",
		     vseg_vram_mgr_invalid(vseg_vram(vdev, d->id), r), r);
	print_ranges(m, "uefi",
		     vseg_vram_mgr_uefi(vseg_vram(vdev, d->id), r), r);
}

static void print_segment(struct seq_file *m, struct vseg_device *vdev,
			  const struct vseg_segment_desc *d)
{
	struct vseg_host_aperture_stats hs;
	struct vseg_usage u;
	unsigned int i;

	seq_printf(m, "segment %u name=%s kind=%s ttm=%u ttm_name=%s flags=0x%llx",
		   d->id, d->name, vseg_segment_kind_name(d->kind),
		   vseg_mem_type(vdev, d->id),
		   vseg_ttm_mem_type_name(vseg_mem_type(vdev, d->id)),
		   d->flags);
	print_flag_names(m, d->flags);
	seq_printf(m, " base=0x%llx cpu=0x%llx size=%llu visible=%llu commit=%llu page=%u sysend=0x%llx",
		   d->base_address, d->cpu_translated_address, d->size,
		   d->cpu_visible_size, d->commit_limit, d->page_size,
		   d->system_memory_end);
	seq_printf(m, " banks=%u bank_end=", d->num_banks);
	for (i = 0; i < d->num_banks; i++)
		seq_printf(m, "%s0x%llx", i ? "," : "", d->bank_end[i]);
	if (!d->num_banks)
		seq_putc(m, '-');
	print_live_ranges(m, vdev, d);
	seq_printf(m, " vpr_start=0x%llx vpr_size=0x%llx vpr_align=0x%x vpr_count=%u vpr_reserve=0x%x",
		   d->vpr_start, d->vpr_size, d->vpr_alignment,
		   d->num_vpr_supported, d->vpr_reserve_size);
	if (d->kind == VSEG_SEGMENT_MEMORY)
		seq_printf(m, " backed=%llu",
			   vseg_vram_backed(vseg_vram(vdev, d->id)));
	seq_printf(m, " host_aperture=0x%llx host_aperture_size=%llu",
		   d->host_aperture_address, d->host_aperture_size);
	if (vseg_host_aperture_stats(vdev, d->id, &hs))
		seq_printf(m, " host_slots=%u host_slots_used=%u host_faults=%llu host_remaps=%llu host_caching=%s",
			   hs.slots, hs.used, hs.faults, hs.remaps,
			   hs.cached ? "cached" : "wc");
	vseg_ttm_usage(vdev, d->id, &u);
	print_usage(m, &u);
}

static int vseg_debugfs_segments(struct seq_file *m, void *unused)
{
	struct drm_info_node *node = m->private;
	struct vseg_device *vdev = to_vseg(node->minor->dev);
	const struct vseg_segment_table *t = &vdev->table;
	struct vseg_usage u;
	unsigned int i;

	seq_printf(m, "vseg segment table: segments=%u paging_segment=%u paging_size=%u paging_private=%u\n",
		   t->num_segments, t->paging_buffer_segment_id,
		   t->paging_buffer_size, t->paging_buffer_private_data_size);
	vseg_ttm_usage(vdev, 0, &u);
	seq_printf(m, "segment 0 name=system kind=system ttm=%u ttm_name=%s",
		   TTM_PL_SYSTEM, vseg_ttm_mem_type_name(TTM_PL_SYSTEM));
	print_usage(m, &u);
	for (i = 0; i < t->num_segments; i++)
		print_segment(m, vdev, &t->seg[i]);
	return 0;
}

static int vseg_debugfs_allocations(struct seq_file *m, void *unused)
{
	struct drm_info_node *node = m->private;
	struct vseg_device *vdev = to_vseg(node->minor->dev);
	struct vseg_bo *vbo;

	mutex_lock(&vdev->bo_lock);
	seq_printf(m, "vseg allocations: count=%llu\n", vdev->num_bos);
	list_for_each_entry(vbo, &vdev->bos, link) {
		const struct vseg_bo_state *st = &vbo->state;

		seq_printf(m, "bo %llu owner=%d:%s size=%zu flags=0x%x segment=%u offset=0x%llx contiguous=%d",
			   vbo->id, vbo->owner_pid, vbo->owner_comm,
			   vbo->tbo.base.size, vbo->params.flags, st->seg,
			   st->offset, st->contiguous);
		if (st->ap_mapped)
			seq_printf(m, " aperture=0x%llx+0x%llx", st->ap_start,
				   st->ap_size);
		else
			seq_puts(m, " aperture=-");
		seq_printf(m, " moves=%llu resident=%d pinned=%d", st->moves,
			   st->seg != 0, READ_ONCE(vbo->tbo.pin_count) != 0);
		if (vbo->params.label[0])
			seq_printf(m, " label=%s", vbo->params.label);
		seq_putc(m, '\n');
	}
	mutex_unlock(&vdev->bo_lock);
	return 0;
}

static void print_range(void *arg, u64 start, u64 size,
			struct ttm_buffer_object *tbo)
{
	u64 id = tbo && vseg_is_vseg_bo(tbo) ? to_vseg_bo(tbo)->id : 0;

	seq_printf(arg, "range start=0x%llx size=0x%llx bo=%llu\n", start, size,
		   id);
}

static int vseg_debugfs_aperture(struct seq_file *m, void *unused)
{
	struct drm_info_node *node = m->private;
	struct vseg_device *vdev = to_vseg(node->minor->dev);
	u32 ap = vdev->layout.aperture_id;
	const struct vseg_segment_desc *d = vseg_seg(vdev, ap)->desc;
	struct vseg_usage u;

	vseg_ttm_usage(vdev, ap, &u);
	seq_printf(m, "vseg aperture: segment=%u size=%llu commit_limit=%llu committed=%llu mapped=%llu\n",
		   ap, d->size, d->commit_limit,
		   u.committed, u.aperture_mapped);
	vseg_aperture_mgr_walk_ranges(&vdev->aperture, print_range, m);
	return 0;
}

static int vseg_debugfs_display(struct seq_file *m, void *unused)
{
	struct drm_info_node *node = m->private;

	vseg_display_show(to_vseg(node->minor->dev), m);
	return 0;
}

static int vseg_debugfs_display_regs(struct seq_file *m, void *unused)
{
	struct drm_info_node *node = m->private;

	vseg_display_show_regs(to_vseg(node->minor->dev), m);
	return 0;
}

static int vseg_debugfs_paging(struct seq_file *m, void *unused)
{
	static const char * const ops[VSEG_PAGING_NUM] = {
		"transfers", "fills", "discards", "map", "unmap",
	};
	struct drm_info_node *node = m->private;
	struct vseg_device *vdev = to_vseg(node->minor->dev);
	unsigned int id, op;

	vseg_paging_show(&vdev->pager, m);
	for (id = 0; id <= vdev->table.num_segments; id++) {
		struct vseg_segment *seg = id ? vseg_seg(vdev, id) : NULL;
		u64 count[VSEG_PAGING_NUM];

		for (op = 0; op < VSEG_PAGING_NUM; op++)
			count[op] = atomic64_read(&vdev->paging[id].op[op]);
		if (id == vdev->layout.aperture_id)
			vseg_gart_counts(&vdev->aperture.gart,
					 &count[VSEG_PAGING_MAP],
					 &count[VSEG_PAGING_UNMAP]);
		seq_printf(m, "segment %u name=%s", id,
			   seg ? seg->desc->name : "system");
		for (op = 0; op < VSEG_PAGING_NUM; op++)
			seq_printf(m, " %s=%llu", ops[op], count[op]);
		seq_putc(m, '\n');
	}
	return 0;
}

static int vseg_debugfs_pm_show(struct seq_file *m, void *unused)
{
	vseg_pm_show(m->private, m);
	return 0;
}

static int vseg_debugfs_pm_open(struct inode *inode, struct file *file)
{
	return single_open(file, vseg_debugfs_pm_show, inode->i_private);
}

static const struct file_operations vseg_debugfs_pm_fops = {
	.owner = THIS_MODULE,
	.open = vseg_debugfs_pm_open,
	.read = seq_read,
	.llseek = seq_lseek,
	.release = single_release,
};

/* Protected buffers, referenced, collected under the list's lock. */
static struct vseg_bo **collect_protected(struct vseg_device *vdev, u64 *n)
{
	struct vseg_bo **bos, *vbo;

	mutex_lock(&vdev->bo_lock);
	bos = kvmalloc_array(max_t(u64, vdev->num_bos, 1), sizeof(*bos),
			     GFP_KERNEL);
	*n = 0;
	if (bos)
		list_for_each_entry(vbo, &vdev->bos, link)
			if (vseg_bo_is_protected(vbo) &&
			    kref_get_unless_zero(&vbo->tbo.base.refcount))
				bos[(*n)++] = vbo;
	mutex_unlock(&vdev->bo_lock);
	return bos;
}

/* The CRC32 and the first bytes of a buffer's content where it is now. */
static void show_content(struct vseg_device *vdev, struct vseg_bo *vbo,
			 struct seq_file *m)
{
	struct ttm_buffer_object *tbo = &vbo->tbo;
	struct ttm_resource *res = tbo->resource;
	u8 head[16] = {};
	struct vseg_cursor c;
	u64 off = 0, len;
	u32 crc = ~0u;
	void *p;

	if (res->mem_type == TTM_PL_SYSTEM &&
	    (!tbo->ttm || !ttm_tt_is_populated(tbo->ttm))) {
		seq_puts(m, " content=none");
		return;
	}
	vseg_cursor_init(&c, vdev, tbo->ttm, res);
	while (off < tbo->base.size) {
		p = vseg_cursor_map(&c, off, &len, false);
		if (!p) {
			seq_puts(m, " content=unreadable");
			return;
		}
		len = min_t(u64, len, tbo->base.size - off);
		if (off < sizeof(head))
			memcpy(head + off, p, min_t(u64, len,
						    sizeof(head) - off));
		crc = crc32_le(crc, p, len);
		vseg_cursor_unmap(&c);
		off += len;
	}
	seq_printf(m, " crc32=%08x head=%16phN", ~crc, head);
}

/*
 * vpr_show() - the video protected regions and protected buffers
 * @vdev: the device
 * @m: the debugfs file
 *
 * A line per VprSupported segment (its region and how many extents the
 * protected buffers in it make), then a line per protected buffer: where
 * it is, whether its system copy is encrypted, whether a standby lost its
 * content, and the CRC32 and first 16 bytes of its content as they are
 * where it is now: the plaintext in the segment, the ciphertext in system
 * memory. A test hook: the protected content never reaches user space
 * otherwise (debugfs is root's).
 */
static void vpr_show(struct vseg_device *vdev, struct seq_file *m)
{
	struct vseg_bo **bos;
	u64 i, n;
	u32 id;

	for (id = 1; id <= vdev->table.num_segments; id++) {
		const struct vseg_segment_desc *d = vseg_seg(vdev, id)->desc;
		u32 extents;

		if (!vseg_seg_is_memory(vdev, id) ||
		    !(d->flags & VSEG_SEGF_VPR_SUPPORTED))
			continue;
		extents = vseg_vram_vpr_extents(vseg_vram(vdev, id));
		seq_printf(m, "segment %u name=%s vpr_start=0x%llx vpr_size=0x%llx vpr_alignment=0x%x vpr_reserve=0x%x num_vpr_supported=%u extents=%u encrypted_paging=%d preserved_standby=%d\n",
			   id, d->name, d->vpr_start, d->vpr_size,
			   d->vpr_alignment, d->vpr_reserve_size,
			   d->num_vpr_supported, extents,
			   !!(d->flags & VSEG_SEGF_ENCRYPTED_PAGING),
			   !!(d->flags & VSEG_SEGF_VPR_PRESERVED_STANDBY));
	}

	bos = collect_protected(vdev, &n);
	if (!bos)
		return;
	for (i = 0; i < n; i++) {
		struct vseg_bo *vbo = bos[i];
		struct ttm_buffer_object *tbo = &vbo->tbo;
		u32 seg;

		if (!ttm_bo_reserve(tbo, true, false, NULL)) {
			if (tbo->resource &&
			    dma_resv_wait_timeout(tbo->base.resv,
						  DMA_RESV_USAGE_KERNEL, true,
						  MAX_SCHEDULE_TIMEOUT) > 0) {
				seg = vseg_mem_type_to_seg(vdev,
							   tbo->resource->mem_type);
				seq_printf(m, "bo %llu segment=%u offset=0x%llx size=%zu encrypted=%d content_lost=%d",
					   vbo->id, seg,
					   (u64)tbo->resource->start << PAGE_SHIFT,
					   tbo->base.size, vbo->crypt_nonce != 0,
					   vbo->content_lost);
				show_content(vdev, vbo, m);
				seq_putc(m, '\n');
			}
			ttm_bo_unreserve(tbo);
		}
		drm_gem_object_put(&tbo->base);
	}
	kvfree(bos);
}

static int vseg_debugfs_vpr(struct seq_file *m, void *unused)
{
	struct drm_info_node *node = m->private;

	vpr_show(to_vseg(node->minor->dev), m);
	return 0;
}

static int vseg_debugfs_engines(struct seq_file *m, void *unused)
{
	struct drm_info_node *node = m->private;

	vseg_sched_show(to_vseg(node->minor->dev), m);
	return 0;
}

/* Every VA space's GPU page tables (vseg_pt_show()). */
static int vseg_debugfs_pagetables(struct seq_file *m, void *unused)
{
	struct drm_info_node *node = m->private;

	vseg_pt_show(to_vseg(node->minor->dev), m);
	return 0;
}

/* The memory segments' dmem cgroup regions (vseg_dmem.c). */
static int vseg_debugfs_dmem(struct seq_file *m, void *unused)
{
	struct drm_info_node *node = m->private;

	vseg_dmem_show(to_vseg(node->minor->dev), m);
	return 0;
}

static const struct drm_info_list vseg_debugfs_list[] = {
	{ "display", vseg_debugfs_display, 0 },
	{ "display_regs", vseg_debugfs_display_regs, 0 },
	{ "engines", vseg_debugfs_engines, 0 },
	{ "paging", vseg_debugfs_paging, 0 },
	{ "pagetables", vseg_debugfs_pagetables, 0 },
	{ "segments", vseg_debugfs_segments, 0 },
	{ "allocations", vseg_debugfs_allocations, 0 },
	{ "aperture", vseg_debugfs_aperture, 0 },
	{ "vpr", vseg_debugfs_vpr, 0 },
	{ "dmem", vseg_debugfs_dmem, 0 },
};

/**
 * vseg_debugfs_init() - create vseg's debugfs files for a DRM minor
 * @minor: the minor whose debugfs directory receives them
 */
void vseg_debugfs_init(struct drm_minor *minor)
{
	struct vseg_device *vdev = to_vseg(minor->dev);
	char name[VSEG_NAME_LEN + 8];
	unsigned int i;

	drm_debugfs_create_files(vseg_debugfs_list,
				 ARRAY_SIZE(vseg_debugfs_list),
				 minor->debugfs_root, minor);
	debugfs_create_file("pm", 0444, minor->debugfs_root, vdev,
			    &vseg_debugfs_pm_fops);

	ttm_resource_manager_create_debugfs(ttm_manager_type(&vdev->bdev,
							     TTM_PL_SYSTEM),
					    minor->debugfs_root, "system_mm");
	for (i = 0; i < vdev->table.num_segments; i++) {
		const struct vseg_segment_desc *d = &vdev->table.seg[i];
		u32 mt = vseg_mem_type(vdev, d->id);

		snprintf(name, sizeof(name), "%s_mm", d->name);
		ttm_resource_manager_create_debugfs(ttm_manager_type(&vdev->bdev,
								     mt),
						    minor->debugfs_root, name);
	}
	vseg_ranges_debugfs_init(vdev, minor->debugfs_root);
}
