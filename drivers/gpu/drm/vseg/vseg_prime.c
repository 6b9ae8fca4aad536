// SPDX-License-Identifier: GPL-2.0-only
/*
 * Copyright (c) 2026 The vseg authors
 *
 * PRIME: vseg buffers shared with other devices through dma-bufs, and
 * other devices' dma-bufs used by vseg's engines.
 *
 * Export: DRM's dma-buf operations call back here. An attachment pins the
 * buffer where the other device can reach it, in system pages (a buffer in
 * a memory segment moves to system memory first), until it detaches; the
 * CPU mapping of the dma-buf (mmap) is vseg's own mapping of the buffer,
 * faulted wherever the buffer is now; a kernel mapping (vmap) pins it like
 * an attachment.
 *
 * Import (vseg_gem_prime_import_sg_table(), with the properties given
 * here): a foreign dma-buf becomes a buffer supported in system memory
 * and the aperture only, whose pages are the exporter's. A job commits it
 * to the aperture like any buffer in system memory. It shares the
 * dma-buf's reservation object: jobs wait for the exporter's fences and
 * the exporter's users see the jobs' fences (implicit synchronisation).
 */

#include <linux/dma-buf.h>
#include <linux/dma-resv.h>
#include <linux/iosys-map.h>
#include <linux/string.h>
#include <drm/drm_gem.h>
#include <drm/drm_prime.h>
#include <drm/ttm/ttm_tt.h>

#include "vseg_bo.h"
#include "vseg_compat.h"
#include "vseg_device_types.h"
#include "vseg_prime.h"
#include "vseg_ttm.h"

/**
 * vseg_prime_export() - &drm_gem_object_funcs.export
 * @gem: the buffer
 * @flags: the dma-buf file's flags
 *
 * A protected buffer is never shared: another device, or the CPU through
 * the dma-buf, would read its content. A VM-private buffer is not either:
 * its reservation object is its address space's.
 *
 * An offered buffer is not either, until RECLAIM (a snapshot of its state:
 * an attachment's pin checks it again under the reservation).
 *
 * Return: the dma-buf, or an ERR_PTR(): -EPERM for a protected buffer,
 * -EINVAL for a VM-private one, -EBUSY for an offered one.
 */
struct dma_buf *vseg_prime_export(struct drm_gem_object *gem, int flags)
{
	if (vseg_bo_is_protected(gem_to_vseg_bo(gem)))
		return ERR_PTR(-EPERM);
	if (gem_to_vseg_bo(gem)->resv_obj)
		return ERR_PTR(-EINVAL);
	if (vseg_bo_offered(gem_to_vseg_bo(gem)))
		return ERR_PTR(-EBUSY);
	return drm_gem_prime_export(gem, flags);
}

/**
 * vseg_prime_pin() - &drm_gem_object_funcs.pin: a dma-buf attachment
 * @gem: the buffer
 *
 * Return: 0 or a negative error code, as vseg_bo_pin_shared().
 */
int vseg_prime_pin(struct drm_gem_object *gem)
{
	int err;

	if (vseg_bo_is_protected(gem_to_vseg_bo(gem)))
		return -EPERM;
	err = vseg_gem_callback_lock(gem);
	if (err)
		return err;
	err = vseg_bo_pin_shared(gem_to_vseg_bo(gem));
	vseg_gem_callback_unlock(gem);
	return err;
}

/**
 * vseg_prime_unpin() - &drm_gem_object_funcs.unpin: a detachment
 * @gem: the buffer
 */
void vseg_prime_unpin(struct drm_gem_object *gem)
{
	vseg_gem_callback_lock_uninterruptible(gem);
	vseg_bo_unpin_shared(gem_to_vseg_bo(gem));
	vseg_gem_callback_unlock(gem);
}

/**
 * vseg_prime_get_sg_table() - &drm_gem_object_funcs.get_sg_table
 * @gem: the buffer, pinned by an attachment
 *
 * Return: a new table of the buffer's system pages, or an ERR_PTR().
 */
struct sg_table *vseg_prime_get_sg_table(struct drm_gem_object *gem)
{
	struct ttm_buffer_object *tbo = drm_gem_ttm_of_gem(gem);

	/* Only an attachment's pin keeps the pages where they are. */
	if (!gem_to_vseg_bo(gem)->shared_pins || !tbo->ttm ||
	    !ttm_tt_is_populated(tbo->ttm))
		return ERR_PTR(-EINVAL);
	return drm_prime_pages_to_sg(gem->dev, tbo->ttm->pages,
				     tbo->ttm->num_pages);
}

/**
 * vseg_prime_vmap() - &drm_gem_object_funcs.vmap: a kernel mapping
 * @gem: the buffer
 * @map: receives the mapping
 *
 * The buffer is pinned in system pages while it is mapped; a displayed one
 * (the fbdev emulation's framebuffer) is mapped where the display holds
 * it, and pinned there.
 *
 * Return: 0 or a negative error code.
 */
int vseg_prime_vmap(struct drm_gem_object *gem, struct iosys_map *map)
{
	struct vseg_bo *vbo = gem_to_vseg_bo(gem);
	int err;

	if (vseg_bo_is_protected(vbo))
		return -EPERM;
	err = vseg_gem_callback_lock(gem);
	if (err)
		return err;
	if (vbo->displayed) {
		ttm_bo_pin(&vbo->tbo);
		err = vseg_ttm_vmap(&vbo->tbo, map);
		if (err)
			ttm_bo_unpin(&vbo->tbo);
		else
			vbo->display_kmaps++;
		vseg_gem_callback_unlock(gem);
		return err;
	}
	err = vseg_bo_pin_shared(vbo);
	if (!err) {
		err = ttm_bo_vmap(&vbo->tbo, map);
		if (err)
			vseg_bo_unpin_shared(vbo);
	}
	vseg_gem_callback_unlock(gem);
	return err;
}

/**
 * vseg_prime_vunmap() - &drm_gem_object_funcs.vunmap
 * @gem: the buffer
 * @map: the mapping vseg_prime_vmap() made
 */
void vseg_prime_vunmap(struct drm_gem_object *gem, struct iosys_map *map)
{
	struct vseg_bo *vbo = gem_to_vseg_bo(gem);

	vseg_gem_callback_lock_uninterruptible(gem);
	if (vbo->display_kmaps) {
		vseg_ttm_vunmap(&vbo->tbo, map);
		vbo->display_kmaps--;
		ttm_bo_unpin(&vbo->tbo);
	} else {
		ttm_bo_vunmap(&vbo->tbo, map);
		vseg_bo_unpin_shared(vbo);
	}
	vseg_gem_callback_unlock(gem);
}

/**
 * vseg_prime_import_params() - the properties of a foreign dma-buf's buffer
 * @vdev: the device
 * @dmabuf: the dma-buf
 * @p: receives them: its size, supported in system memory and the
 *	aperture only (the pages are the exporter's: they never move into a
 *	memory segment), no creation flag
 *
 * Return: 0, or -EINVAL for a dma-buf whose size is not a whole number of
 * pages.
 */
int vseg_prime_import_params(struct vseg_device *vdev,
			     const struct dma_buf *dmabuf,
			     struct vseg_bo_params *p)
{
	memset(p, 0, sizeof(*p));
	if (!dmabuf->size || !PAGE_ALIGNED(dmabuf->size))
		return -EINVAL;
	p->size = dmabuf->size;
	p->supported = BIT(0) | BIT(vdev->layout.aperture_id);
	return 0;
}
