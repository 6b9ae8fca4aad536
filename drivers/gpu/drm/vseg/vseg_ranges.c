// SPDX-License-Identifier: GPL-2.0-only
/*
 * Copyright (c) 2026 The vseg authors
 *
 * Ranges of a memory segment that no buffer gets.
 *
 * Invalid ranges (DXGK_SEGMENTDESCRIPTOR4.NumInvalidMemoryRanges): the
 * table's are held from load on; a WDDM driver may also report new ones at
 * run time (DXGK_SEGMENTMEMORYSTATE), which vseg takes through debugfs,
 * <name>_invalid: "add START+SIZE" evicts the buffers that overlap the
 * range and holds it, "del START+SIZE" gives it back. A pinned buffer in
 * the way (a displayed primary, say) makes the add fail with -EBUSY and
 * nothing changes.
 *
 * UEFI frame buffers (NumUEFIFrameBufferRanges): the firmware scans out of
 * them when the driver loads. They are held as the firmware image, painted
 * with a splash, and shown by head 0 in debugfs until the first SCANOUT,
 * when the firmware hands the display over (as efifb or simpledrm do) and
 * their memory becomes allocatable.
 */

#include <linux/debugfs.h>
#include <linux/seq_file.h>
#include <linux/uaccess.h>
#include <drm/drm_file.h>
#include <drm/drm_managed.h>
#include <drm/drm_print.h>

#include "vseg_bo.h"
#include "vseg_compat.h"
#include "vseg_device_types.h"
#include "vseg_ranges.h"
#include "vseg_vram_mgr.h"

/* Rounds of evict-and-hold before an add gives up (others keep placing). */
#define VSEG_RANGE_TRIES	8

/*
 * The buffers of segment @id whose placement overlaps the range, each with
 * a reference. -EBUSY if one of them is pinned.
 */
static int range_users(struct vseg_device *vdev, u32 id, u64 start, u64 size,
		       struct vseg_bo ***out, u64 *n)
{
	struct vseg_vram_mgr *mgr = vseg_vram(vdev, id);
	u32 mt = vseg_mem_type(vdev, id);
	struct vseg_bo **bos, *vbo;
	u64 i, all, kept = 0;
	struct ttm_resource *res;
	bool hit;
	int err = 0;

	bos = vseg_bos_snapshot(vdev, &all);
	if (!bos)
		return -ENOMEM;

	for (i = 0; i < all; i++) {
		vbo = bos[i];
		hit = false;
		if (!err) {
			err = ttm_bo_reserve(&vbo->tbo, true, false, NULL);
			if (err)
				goto put;
			res = vbo->tbo.resource;
			hit = res && res->mem_type == mt &&
			      vseg_vram_res_intersects(mgr, res, start, size);
			if (hit && vbo->tbo.pin_count)
				err = -EBUSY;
			ttm_bo_unreserve(&vbo->tbo);
		}
put:
		if (hit && !err)
			bos[kept++] = vbo;
		else
			drm_gem_object_put(&vbo->tbo.base);
	}
	if (err) {
		vseg_bos_put(bos, kept);
		return err;
	}
	*out = bos;
	*n = kept;
	return 0;
}

/* Evict every buffer in the range: -EBUSY if one is pinned. */
static int range_evict(struct vseg_device *vdev, u32 id, u64 start, u64 size)
{
	struct vseg_bo **bos;
	u64 i, n;
	int err;

	err = range_users(vdev, id, start, size, &bos, &n);
	if (err)
		return err;
	for (i = 0; i < n && !err; i++)
		err = vseg_bo_evict(bos[i], false, false, NULL,
				    VSEG_MOVE_RESIDENCY);
	vseg_bos_drain(vdev, bos, n);
	vseg_bos_put(bos, n);
	return err;
}

static int check_range(struct vseg_device *vdev, u32 id, u64 start, u64 size)
{
	const struct vseg_segment_desc *d;

	if (!vseg_seg_is_memory(vdev, id))
		return -EINVAL;
	d = vseg_seg(vdev, id)->desc;
	if (!size || !IS_ALIGNED(start, d->page_size) ||
	    !IS_ALIGNED(size, d->page_size) || start > d->size ||
	    size > d->size - start)
		return -EINVAL;
	return 0;
}

/**
 * vseg_invalid_range_add() - make a range of a memory segment invalid
 * @vdev: the device
 * @id: a memory segment
 * @start: segment offset, a multiple of the segment page
 * @size: bytes, a multiple of the segment page, nonzero
 *
 * The buffers that overlap the range are evicted (to system memory, their
 * contents intact) and nothing is placed there afterwards.
 *
 * Return: 0; -EINVAL for a bad range or one that overlaps an invalid range
 * or a held UEFI frame buffer; -ENOSPC with %VSEG_MAX_INVALID_RANGES
 * ranges already; -EBUSY if a pinned buffer is in the way (or others keep
 * placing buffers there); nothing changed on error (but buffers evicted
 * before a pinned one was met stay evicted).
 */
int vseg_invalid_range_add(struct vseg_device *vdev, u32 id, u64 start,
			   u64 size)
{
	struct vseg_vram_mgr *mgr;
	struct vseg_range live[VSEG_MAX_INVALID_RANGES];
	unsigned int tries;
	LIST_HEAD(blocks);
	u64 held = 0;
	int err;

	err = check_range(vdev, id, start, size);
	if (err)
		return err;
	mgr = vseg_vram(vdev, id);
	/* As an ioctl: not while a power transition runs. */
	if (down_read_interruptible(&vdev->pm.gate))
		return -EINTR;
	err = mutex_lock_interruptible(&mgr->edit_lock);
	if (err)
		goto out_gate;
	if (vseg_vram_mgr_invalid(mgr, live) >= VSEG_MAX_INVALID_RANGES) {
		err = -ENOSPC;
		goto out;
	}
	if (vseg_vram_mgr_held_overlaps(mgr, start, size)) {
		err = -EINVAL;
		goto out;
	}
	/* A pinned buffer there: refuse before anything moves. */
	err = range_evict(vdev, id, start, size);
	for (tries = 0; !err; tries++) {
		/* What is free now stays free of new buffers. */
		held += vseg_vram_mgr_grab(mgr, start, size, &blocks);
		if (held == size)
			break;
		if (tries == VSEG_RANGE_TRIES) {
			err = -EBUSY;
			break;
		}
		err = range_evict(vdev, id, start, size);
	}
	if (!err)
		err = vseg_vram_mgr_add_invalid(mgr, start, size, &blocks);
	if (err)
		vseg_vram_mgr_drop(mgr, &blocks);
out:
	mutex_unlock(&mgr->edit_lock);
out_gate:
	up_read(&vdev->pm.gate);
	return err;
}

/**
 * vseg_invalid_range_del() - make an invalid range allocatable again
 * @vdev: the device
 * @id: a memory segment
 * @start: the range's start, as QUERY_SEGMENTS lists it
 * @size: its size, as listed
 *
 * Return: 0, -EINVAL for a bad range, -ENOENT if no invalid range is
 * exactly that.
 */
int vseg_invalid_range_del(struct vseg_device *vdev, u32 id, u64 start,
			   u64 size)
{
	struct vseg_vram_mgr *mgr;
	int err;

	err = check_range(vdev, id, start, size);
	if (err)
		return err;
	mgr = vseg_vram(vdev, id);
	if (down_read_interruptible(&vdev->pm.gate))
		return -EINTR;
	err = mutex_lock_interruptible(&mgr->edit_lock);
	if (!err) {
		err = vseg_vram_mgr_del_invalid(mgr, start, size);
		mutex_unlock(&mgr->edit_lock);
	}
	up_read(&vdev->pm.gate);
	return err;
}

/**
 * vseg_firmware_handover() - the firmware gives up its frame buffers
 * @vdev: the device
 *
 * On the first SCANOUT: every memory segment's UEFI frame buffers become
 * allocatable, and head 0 no longer shows the firmware image.
 */
void vseg_firmware_handover(struct vseg_device *vdev)
{
	u64 bytes = 0;
	u32 id;

	for (id = 1; id <= vdev->table.num_segments; id++)
		if (vseg_seg_is_memory(vdev, id))
			bytes += vseg_vram_mgr_release_uefi(vseg_vram(vdev, id));
	if (bytes)
		drm_dbg_driver(&vdev->drm,
			       "firmware frame buffers handed over: %llu bytes\n",
			       bytes);
}

/**
 * vseg_firmware_show() - head 0's firmware image, for the display dump
 * @vdev: the device
 * @m: where to print
 *
 * Return: true if a firmware image was printed (the rest of the line is
 * the caller's), false if the firmware handed over or had none.
 */
bool vseg_firmware_show(struct vseg_device *vdev, struct seq_file *m)
{
	struct vseg_range r[VSEG_MAX_UEFI_RANGES];
	u64 checksum;
	u32 id, i, n;

	for (id = 1; id <= vdev->table.num_segments; id++) {
		if (!vseg_seg_is_memory(vdev, id))
			continue;
		n = vseg_vram_mgr_uefi(vseg_vram(vdev, id), r);
		if (!n ||
		    !vseg_vram_mgr_uefi_checksum(vseg_vram(vdev, id), &checksum))
			continue;
		/* In no buffer: bo=-, but where the firmware scans out. */
		seq_printf(m, "head 0 bo=- segment=%u offset=0x%llx aperture=- firmware=1 uefi_ranges=",
			   id, r[0].start);
		for (i = 0; i < n; i++)
			seq_printf(m, "%s0x%llx+0x%llx", i ? "," : "",
				   r[i].start, r[i].size);
		seq_printf(m, " splash=0x%08x checksum=0x%016llx\n",
			   vseg_splash_word(0), checksum);
		return true;
	}
	return false;
}

/* debugfs <name>_invalid: the live list; "add S+L" and "del S+L". */
struct range_file {
	struct vseg_device *vdev;
	u32 id;
};

static int invalid_show(struct seq_file *m, void *unused)
{
	struct range_file *f = m->private;
	struct vseg_range r[VSEG_MAX_INVALID_RANGES];
	u32 i, n;

	n = vseg_vram_mgr_invalid(vseg_vram(f->vdev, f->id), r);
	for (i = 0; i < n; i++)
		seq_printf(m, "0x%llx+0x%llx\n", r[i].start, r[i].size);
	return 0;
}

static int invalid_open(struct inode *inode, struct file *file)
{
	return single_open(file, invalid_show, inode->i_private);
}

static int parse_range(char *s, u64 *start, u64 *size)
{
	char *len = s;

	s = strsep(&len, "+");
	if (!len || kstrtoull(s, 0, start) || kstrtoull(len, 0, size))
		return -EINVAL;
	return 0;
}

static ssize_t invalid_write(struct file *file, const char __user *ubuf,
			     size_t count, loff_t *ppos)
{
	struct range_file *f = ((struct seq_file *)file->private_data)->private;
	char buf[64], *op, *arg;
	u64 start, size;
	int err;

	if (!count || count >= sizeof(buf))
		return -EINVAL;
	if (copy_from_user(buf, ubuf, count))
		return -EFAULT;
	buf[count] = '\0';
	arg = strim(buf);
	op = strsep(&arg, " ");
	if (!arg)
		return -EINVAL;
	arg = skip_spaces(arg);
	err = parse_range(arg, &start, &size);
	if (err)
		return err;
	if (!strcmp(op, "add"))
		err = vseg_invalid_range_add(f->vdev, f->id, start, size);
	else if (!strcmp(op, "del"))
		err = vseg_invalid_range_del(f->vdev, f->id, start, size);
	else
		err = -EINVAL;
	return err ?: count;
}

static const struct file_operations invalid_fops = {
	.owner = THIS_MODULE,
	.open = invalid_open,
	.read = seq_read,
	.write = invalid_write,
	.llseek = seq_lseek,
	.release = single_release,
};

/**
 * vseg_ranges_debugfs_init() - the <name>_invalid file of each memory segment
 * @vdev: the device
 * @root: the minor's debugfs directory
 */
void vseg_ranges_debugfs_init(struct vseg_device *vdev, struct dentry *root)
{
	char name[VSEG_NAME_LEN + 8];
	struct range_file *f;
	u32 id;

	for (id = 1; id <= vdev->table.num_segments; id++) {
		if (!vseg_seg_is_memory(vdev, id))
			continue;
		f = drmm_kzalloc(&vdev->drm, sizeof(*f), GFP_KERNEL);
		if (!f)
			return;
		f->vdev = vdev;
		f->id = id;
		snprintf(name, sizeof(name), "%s_invalid",
			 vseg_seg(vdev, id)->desc->name);
		debugfs_create_file(name, 0600, root, f, &invalid_fops);
	}
}
