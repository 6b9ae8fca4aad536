// SPDX-License-Identifier: GPL-2.0-only
/*
 * Copyright (c) 2026 The vseg authors
 *
 * vseg: the WDDM GPU segment memory model on DRM/TTM.
 *
 * Device and module. Without hardware the module creates its own virtual
 * platform device at load (the embedded default): a GPU whose segment table
 * comes from a built-in profile or from a text description, and whose
 * memory segments are backed by system RAM as they are written. With the
 * pci parameter it binds PCI devices instead (vseg_pci.c), whose memory
 * segments may be a BAR's memory.
 */

#include <linux/dma-mapping.h>
#include <linux/mm.h>
#include <linux/module.h>
#include <linux/pci.h>
#include <linux/platform_device.h>
#include <linux/sizes.h>
#include <linux/slab.h>
#include <drm/drm_drv.h>
#include <drm/drm_file.h>
#include <drm/drm_gem.h>
#include <drm/drm_ioctl.h>
#include <drm/drm_managed.h>
#include <drm/drm_prime.h>
#include <uapi/drm/vseg_drm.h>

#include "vseg_budget.h"
#include "vseg_bus.h"
#include "vseg_compat.h"
#include "vseg_debugfs.h"
#include "vseg_display.h"
#include "vseg_kms.h"
#include "vseg_engine.h"
#include "vseg_sched.h"
#include "vseg_submit.h"
#include "vseg_vm.h"
#include "vseg_fdinfo.h"
#include "vseg_device_types.h"
#include "vseg_drv.h"
#include "vseg_file.h"
#include "vseg_gem.h"
#include "vseg_ioctl.h"
#include "vseg_page_pool.h"
#include "vseg_paging.h"
#include "vseg_paging_va.h"
#include "vseg_pci.h"
#include "vseg_phys.h"
#include "vseg_pm.h"
#include "vseg_pt.h"
#include "vseg_ttm.h"
#include "vseg_vram_mgr.h"

static char *profile = "discrete";
module_param(profile, charp, 0444);
MODULE_PARM_DESC(profile,
		 "Built-in segment table: discrete (default), integrated, smallbar, multi");

static char *table;
module_param(table, charp, 0444);
MODULE_PARM_DESC(table,
		 "Segment table as text, overrides profile (see Documentation/gpu/vseg.rst)");

static unsigned int mem_size_mb[VSEG_MAX_MEMORY_SEGMENTS];
static int num_mem_size_mb;
module_param_array(mem_size_mb, uint, &num_mem_size_mb, 0444);
MODULE_PARM_DESC(mem_size_mb,
		 "Size in MiB of each memory segment of the profile, in table order (0 = default)");

static unsigned int visible_size_mb;
module_param(visible_size_mb, uint, 0444);
MODULE_PARM_DESC(visible_size_mb,
		 "CPU-visible MiB of the profile's first memory segment (0 = default)");

static unsigned int aperture_size_mb;
module_param(aperture_size_mb, uint, 0444);
MODULE_PARM_DESC(aperture_size_mb,
		 "Aperture segment size in MiB: the profile's, or a table's Agp aperture (0 = default)");

static unsigned int aperture_commit_mb;
module_param(aperture_commit_mb, uint, 0444);
MODULE_PARM_DESC(aperture_commit_mb,
		 "Aperture commit limit in MiB: the profile's, or a table's Agp aperture (0 = default)");

static unsigned int inject_probe_failure;
module_param(inject_probe_failure, uint, 0444);
MODULE_PARM_DESC(inject_probe_failure,
		 "Fail the probe with -ENODEV once its Nth part is set up, to test the teardown (0 = never)");

static bool fbdev = true;
module_param(fbdev, bool, 0444);
MODULE_PARM_DESC(fbdev,
		 "fbdev emulation (/dev/fbN) on each device's first head (default: true)");

/* Result of the last probe, so that module load fails when probe does. */
static int vseg_probe_result;
static struct platform_device *vseg_pdev;

/*
 * Every vseg ioctl runs inside drm_dev_enter()/drm_dev_exit(): once the
 * device is unplugged new calls fail with -ENODEV, and the unplug waits for
 * the calls already running before it stops the engines and the display.
 * It also holds the power-management gate for read: no ioctl runs while a
 * phase of a power transition does (vseg_pm.c).
 */
#define VSEG_IOCTL_GUARD(func)						\
static int func##_guarded(struct drm_device *drm, void *data,		\
			  struct drm_file *file)			\
{									\
	int idx, ret;							\
									\
	if (!drm_dev_enter(drm, &idx))					\
		return -ENODEV;						\
	if (down_read_interruptible(&to_vseg(drm)->pm.gate)) {		\
		drm_dev_exit(idx);					\
		return -ERESTARTSYS;					\
	}								\
	ret = func(drm, data, file);					\
	up_read(&to_vseg(drm)->pm.gate);				\
	drm_dev_exit(idx);						\
	return ret;							\
}

VSEG_IOCTL_GUARD(vseg_ioctl_query_segments)
VSEG_IOCTL_GUARD(vseg_ioctl_gem_create)
VSEG_IOCTL_GUARD(vseg_ioctl_gem_info)
VSEG_IOCTL_GUARD(vseg_ioctl_gem_mmap_offset)
VSEG_IOCTL_GUARD(vseg_ioctl_make_resident)
VSEG_IOCTL_GUARD(vseg_ioctl_evict)
VSEG_IOCTL_GUARD(vseg_ioctl_vm_bind)
VSEG_IOCTL_GUARD(vseg_ioctl_vm_unbind)
VSEG_IOCTL_GUARD(vseg_ioctl_submit)
VSEG_IOCTL_GUARD(vseg_ioctl_device_query)
VSEG_IOCTL_GUARD(vseg_ioctl_set_reservation)
VSEG_IOCTL_GUARD(vseg_ioctl_set_priority)
VSEG_IOCTL_GUARD(vseg_ioctl_budget_notify)
VSEG_IOCTL_GUARD(vseg_ioctl_offer)
VSEG_IOCTL_GUARD(vseg_ioctl_reclaim)

#define VSEG_IOCTL_DEF(ioctl, func, flags) \
	DRM_IOCTL_DEF_DRV(ioctl, func##_guarded, flags)

/*
 * Everything is safe for any client of a render node (see the security
 * model in Documentation/gpu/vseg.rst); the display is KMS's. Slot 0x09
 * (the scanout ioctl, removed in 0.11) stays empty: DRM core fails a call
 * to an empty slot with -EINVAL.
 */
static const struct drm_ioctl_desc vseg_ioctls[] = {
	VSEG_IOCTL_DEF(VSEG_QUERY_SEGMENTS, vseg_ioctl_query_segments, DRM_RENDER_ALLOW),
	VSEG_IOCTL_DEF(VSEG_GEM_CREATE, vseg_ioctl_gem_create, DRM_RENDER_ALLOW),
	VSEG_IOCTL_DEF(VSEG_GEM_INFO, vseg_ioctl_gem_info, DRM_RENDER_ALLOW),
	VSEG_IOCTL_DEF(VSEG_GEM_MMAP_OFFSET, vseg_ioctl_gem_mmap_offset, DRM_RENDER_ALLOW),
	VSEG_IOCTL_DEF(VSEG_MAKE_RESIDENT, vseg_ioctl_make_resident, DRM_RENDER_ALLOW),
	VSEG_IOCTL_DEF(VSEG_EVICT, vseg_ioctl_evict, DRM_RENDER_ALLOW),
	VSEG_IOCTL_DEF(VSEG_VM_BIND, vseg_ioctl_vm_bind, DRM_RENDER_ALLOW),
	VSEG_IOCTL_DEF(VSEG_VM_UNBIND, vseg_ioctl_vm_unbind, DRM_RENDER_ALLOW),
	VSEG_IOCTL_DEF(VSEG_SUBMIT, vseg_ioctl_submit, DRM_RENDER_ALLOW),
	VSEG_IOCTL_DEF(VSEG_DEVICE_QUERY, vseg_ioctl_device_query, DRM_RENDER_ALLOW),
	VSEG_IOCTL_DEF(VSEG_SET_RESERVATION, vseg_ioctl_set_reservation, DRM_RENDER_ALLOW),
	VSEG_IOCTL_DEF(VSEG_SET_PRIORITY, vseg_ioctl_set_priority, DRM_RENDER_ALLOW),
	VSEG_IOCTL_DEF(VSEG_BUDGET_NOTIFY, vseg_ioctl_budget_notify, DRM_RENDER_ALLOW),
	VSEG_IOCTL_DEF(VSEG_OFFER, vseg_ioctl_offer, DRM_RENDER_ALLOW),
	VSEG_IOCTL_DEF(VSEG_RECLAIM, vseg_ioctl_reclaim, DRM_RENDER_ALLOW),
};

static int vseg_open(struct drm_device *drm, struct drm_file *file)
{
	struct vseg_file *vfile = kzalloc(sizeof(*vfile), GFP_KERNEL_ACCOUNT);

	if (!vfile || vseg_file_init(vfile, to_vseg(drm))) {
		kfree(vfile);
		return -ENOMEM;
	}
	file->driver_priv = vfile;
	return 0;
}

static void vseg_postclose(struct drm_device *drm, struct drm_file *file)
{
	struct vseg_file *vfile = file->driver_priv;

	vseg_budget_notify_cancel(&to_vseg(drm)->limits, file);
	vseg_file_fini(vfile);
	kfree(vfile);
}

VSEG_DEFINE_FOPS(vseg_fops);

static const struct drm_driver vseg_drm_driver = {
	.driver_features = DRIVER_GEM | DRIVER_MODESET | DRIVER_ATOMIC |
			   DRIVER_RENDER | DRIVER_SYNCOBJ |
			   DRIVER_SYNCOBJ_TIMELINE | VSEG_DRIVER_GEM_GPUVA,
	VSEG_DRM_DRIVER_PRIME
	VSEG_DRM_DRIVER_FDINFO
	.dumb_create = vseg_gem_dumb_create,
	DRM_FBDEV_TTM_DRIVER_OPS,
	.gem_prime_import_sg_table = vseg_gem_prime_import_sg_table,
	.open = vseg_open,
	.postclose = vseg_postclose,
	.ioctls = vseg_ioctls,
	.num_ioctls = ARRAY_SIZE(vseg_ioctls),
	.fops = &vseg_fops,
	.debugfs_init = vseg_debugfs_init,
	.name = DRIVER_NAME,
	.desc = DRIVER_DESC,
	VSEG_DRM_DRIVER_DATE(DRIVER_DATE)
	.major = DRIVER_MAJOR,
	.minor = DRIVER_MINOR,
};

static int vseg_build_table(struct vseg_segment_table *t, struct pci_dev *pci)
{
	struct vseg_profile_overrides ovr = {};
	int i, err;

	if (table && *table) {
		err = vseg_segment_table_parse(t, table);
		/* An Agp aperture is sized by parameter, not by the table. */
		if (!err)
			vseg_segment_table_size_agp(t,
						    (u64)aperture_size_mb * SZ_1M,
						    (u64)aperture_commit_mb * SZ_1M);
	} else {
		for (i = 0; i < num_mem_size_mb; i++)
			ovr.mem_size[i] = (u64)mem_size_mb[i] * SZ_1M;
		ovr.visible_size = (u64)visible_size_mb * SZ_1M;
		ovr.aperture_size = (u64)aperture_size_mb * SZ_1M;
		ovr.aperture_commit = (u64)aperture_commit_mb * SZ_1M;
		err = vseg_segment_table_from_profile(t, profile, &ovr);
	}
	if (!err)
		err = vseg_pci_table_resolve(t, pci);
	if (err)
		return err;
	vseg_segment_table_normalize(t);
	return vseg_segment_table_validate(t);
}

/*
 * One part of the probe set up (or not): fail there on purpose when the
 * inject_probe_failure parameter names it, as if it had failed.
 */
static int probe_step(struct vseg_device *vdev, unsigned int *step, int err)
{
	if (err || ++*step != inject_probe_failure)
		return err;
	drm_info(&vdev->drm, "injecting a probe failure after part %u\n",
		 *step);
	return -ENODEV;
}

/**
 * vseg_device_probe() - make a vseg GPU of a device
 * @dev: the platform device, or the PCI device's
 * @pci: the PCI device whose BARs the segment table may name, or NULL
 *
 * The memory managers, the engines and the display live as long as the DRM
 * device: an unbind only unplugs it (vseg_device_remove()), and they go when
 * the last file, mapping or exported buffer that holds the device goes.
 *
 * Return: 0 or a negative error code.
 */
static int vseg_device_probe(struct device *dev, struct pci_dev *pci)
{
	struct vseg_device *vdev;
	unsigned int step = 0;
	int err;

	vdev = devm_drm_dev_alloc(dev, &vseg_drm_driver,
				  struct vseg_device, drm);
	if (IS_ERR(vdev))
		return PTR_ERR(vdev);
	/* Imported pages are used where they are, wherever they are. */
	err = dma_coerce_mask_and_coherent(dev, DMA_BIT_MASK(64));
	if (err)
		return err;

	err = probe_step(vdev, &step, vseg_build_table(&vdev->table, pci));
	if (err)
		return err;
	err = vseg_phys_map_init(vdev);
	if (err)
		return err;
	init_rwsem(&vdev->validation);
	err = drmm_mutex_init(&vdev->drm, &vdev->bo_lock);
	if (!err)
		err = vseg_pm_init(vdev);
	if (err)
		return err;
	INIT_LIST_HEAD(&vdev->bos);
	err = vseg_file_limits_init(vdev);
	if (err)
		return err;

	/*
	 * Each part registers the drmm action that tears it down. The GPU
	 * first: the memory managers program its GART, and it goes last.
	 */
	err = vseg_bus_init(vdev);
	if (!err)
		err = probe_step(vdev, &step, vseg_ttm_init(vdev));
	/* Torn down after the engines: the last VA space goes with a job. */
	if (!err)
		err = vseg_pt_init(vdev);
	if (!err)
		err = probe_step(vdev, &step, vseg_engine_init(vdev));
	if (!err)
		err = probe_step(vdev, &step, vseg_sched_init(vdev));
	if (!err)
		err = probe_step(vdev, &step, vseg_paging_init(vdev) ?:
				 vseg_paging_va_init(vdev));
	if (!err)
		err = probe_step(vdev, &step, vseg_display_init(vdev) ?:
				 vseg_kms_init(vdev));
	if (err)
		return err;

	dev_set_drvdata(dev, vdev);
	err = drm_dev_register(&vdev->drm, 0);
	if (err) {
		/*
		 * When registering the mode objects fails, drm_dev_register()
		 * unregisters the minors but leaves the device marked
		 * registered, and the mode objects' cleanup would warn that a
		 * registered device loses them: unregister the rest.
		 */
		if (vdev->drm.registered)
			drm_dev_unregister(&vdev->drm);
		return err;
	}

	/* Probes the connectors and lights the heads with a dumb buffer. */
	if (fbdev)
		vseg_fbdev_setup(&vdev->drm);

	drm_info(&vdev->drm, "%s: %u segments, aperture is segment %u\n",
		 table && *table ? "custom table" : profile,
		 vdev->table.num_segments, vdev->layout.aperture_id);
	return 0;
}

/**
 * vseg_device_remove() - unbind (sysfs, or the module going away)
 * @dev: the device vseg_device_probe() made a GPU of
 *
 * Unplugs the device. Clients that still hold files get -ENODEV from every
 * ioctl and a zeroed dummy page behind their mappings; jobs already queued
 * run to their end; displayed primaries are released; a segment's BAR is
 * left alone from then on (its contents are lost). The rest is torn down
 * with the DRM device (see vseg_device_probe()).
 */
static void vseg_device_remove(struct device *dev)
{
	struct vseg_device *vdev = dev_get_drvdata(dev);
	u32 id;

	drm_dev_unplug(&vdev->drm);
	/* Drop every CPU mapping: the next access faults to a dummy page. */
	unmap_mapping_range(vdev->drm.anon_inode->i_mapping, 0, 0, 1);
	vseg_pm_unplug(vdev);
	vseg_display_unplug(vdev);
	vseg_sched_unplug(vdev);
	for (id = 1; id <= vdev->table.num_segments; id++)
		if (vseg_seg_is_memory(vdev, id))
			vseg_vram_mgr_detach_bar(vseg_vram(vdev, id));
}

static void vseg_remove(struct platform_device *pdev)
{
	vseg_device_remove(&pdev->dev);
}

static int vseg_probe_record(struct platform_device *pdev)
{
	vseg_probe_result = vseg_device_probe(&pdev->dev, NULL);
	return vseg_probe_result;
}

/*
 * System sleep: standby is suspend/resume; hibernate is freeze (evict what
 * the image must hold), thaw (the device kept its power: nothing is lost),
 * poweroff (nothing more to do) and restore (power was lost).
 */
static int vseg_pm_suspend(struct device *dev)
{
	return vseg_pm_enter(dev_get_drvdata(dev), VSEG_PM_STANDBY);
}

static int vseg_pm_resume(struct device *dev)
{
	return vseg_pm_exit(dev_get_drvdata(dev), true);
}

static int vseg_pm_freeze(struct device *dev)
{
	return vseg_pm_enter(dev_get_drvdata(dev), VSEG_PM_HIBERNATE);
}

static int vseg_pm_thaw(struct device *dev)
{
	return vseg_pm_exit(dev_get_drvdata(dev), false);
}

static int vseg_pm_poweroff(struct device *dev)
{
	return 0;
}

/*
 * sysfs "pm" of the platform device, root only: write "standby" or
 * "hibernate" for a whole transition, power lost, synchronously; "thaw"
 * for a hibernate whose image was not written (freeze, then thaw: the
 * device kept its power); "restore" to bring back now what the last
 * transition evicted (with the module parameter pm_restore off). Not in
 * debugfs: a kernel in lockdown refuses to open writable debugfs files.
 */
static ssize_t pm_store(struct device *dev, struct device_attribute *attr,
			const char *buf, size_t len)
{
	enum vseg_pm_kind kind = VSEG_PM_HIBERNATE;
	bool power_lost = true;
	int err;

	if (sysfs_streq(buf, "restore")) {
		vseg_pm_restore(dev_get_drvdata(dev));
		return len;
	}
	if (sysfs_streq(buf, "standby"))
		kind = VSEG_PM_STANDBY;
	else if (sysfs_streq(buf, "thaw"))
		power_lost = false;
	else if (!sysfs_streq(buf, "hibernate"))
		return -EINVAL;
	err = vseg_pm_cycle(dev_get_drvdata(dev), kind, power_lost);
	return err ?: len;
}
static DEVICE_ATTR_WO(pm);

static struct attribute *vseg_dev_attrs[] = {
	&dev_attr_pm.attr,
	NULL
};
ATTRIBUTE_GROUPS(vseg_dev);

/* The platform device's and the PCI devices' alike. */
static const struct dev_pm_ops vseg_dev_pm_ops = {
	.suspend = vseg_pm_suspend,
	.resume = vseg_pm_resume,
	.freeze = vseg_pm_freeze,
	.thaw = vseg_pm_thaw,
	.poweroff = vseg_pm_poweroff,
	.restore = vseg_pm_resume,
};

static struct platform_driver vseg_platform_driver = {
	.probe = vseg_probe_record,
	.remove = vseg_remove,
	.driver = {
		.name = DRIVER_NAME,
		.pm = &vseg_dev_pm_ops,
		.dev_groups = vseg_dev_groups,
	},
};

/*
 * A PCI device (vseg_pci.c). The BARs' regions are not requested: as for
 * most GPU drivers, root keeps the sysfs resource files of the device (an
 * independent view of its memory, which the tests use).
 */
static int vseg_pci_probe(struct pci_dev *pdev, const struct pci_device_id *id)
{
	int err;

	err = pci_enable_device(pdev);
	if (err)
		return err;
	err = vseg_device_probe(&pdev->dev, pdev);
	if (err)
		pci_disable_device(pdev);
	return err;
}

/*
 * The device is unplugged and never touches the BARs again; the DRM device
 * lives on until its last user goes (vseg_device_remove()).
 */
static void vseg_pci_remove(struct pci_dev *pdev)
{
	vseg_device_remove(&pdev->dev);
	pci_disable_device(pdev);
}

/* The device named by the pci parameter, and the end of the table. */
static struct pci_device_id vseg_pci_ids[2];

static struct pci_driver vseg_pci_driver = {
	.name = DRIVER_NAME,
	.id_table = vseg_pci_ids,
	.probe = vseg_pci_probe,
	.remove = vseg_pci_remove,
	.driver = {
		.pm = &vseg_dev_pm_ops,
		.dev_groups = vseg_dev_groups,
	},
};

/*
 * The PCI driver for the pci parameter: the devices it names are probed
 * now; a device that fails to probe does not fail the module's load (as
 * for any PCI driver).
 */
static int vseg_pci_register(void)
{
	int err = vseg_pci_id(&vseg_pci_ids[0]);

	return err ?: pci_register_driver(&vseg_pci_driver);
}

static int __init vseg_init(void)
{
	int err;

	err = vseg_page_pool_init();
	if (err)
		return err;
	/* A PCI device is named: vseg binds it instead of its own device. */
	if (vseg_pci_wanted()) {
		err = vseg_pci_register();
		if (err)
			vseg_page_pool_fini();
		return err;
	}
	err = platform_driver_register(&vseg_platform_driver);
	if (err)
		goto err_pool;

	vseg_probe_result = 1;	/* not run */
	vseg_pdev = platform_device_register_simple(DRIVER_NAME, -1, NULL, 0);
	if (IS_ERR(vseg_pdev)) {
		err = PTR_ERR(vseg_pdev);
		goto err_driver;
	}
	/*
	 * Probe ran synchronously; refuse to load if it failed. If it did
	 * not run, the driver core failed before calling it (no memory for
	 * the driver's sysfs links) and kept the error: one more attempt
	 * binds, or returns why not.
	 */
	if (!vseg_pdev->dev.driver && vseg_probe_result > 0) {
		err = device_driver_attach(&vseg_platform_driver.driver,
					   &vseg_pdev->dev);
		if (err && vseg_probe_result > 0)
			vseg_probe_result = err;
	}
	/*
	 * Probe succeeded but the device is not bound: the driver core
	 * failed after it (no memory for the device's sysfs attributes, the
	 * pm file), undid the probe and kept no error.
	 */
	if (!vseg_pdev->dev.driver) {
		err = vseg_probe_result < 0 ? vseg_probe_result :
		      !vseg_probe_result ? -ENOMEM : -ENODEV;
		goto err_device;
	}
	return 0;

err_device:
	platform_device_unregister(vseg_pdev);
err_driver:
	platform_driver_unregister(&vseg_platform_driver);
err_pool:
	vseg_page_pool_fini();
	return err;
}

static void __exit vseg_exit(void)
{
	if (vseg_pci_wanted()) {
		pci_unregister_driver(&vseg_pci_driver);
	} else {
		platform_device_unregister(vseg_pdev);
		platform_driver_unregister(&vseg_platform_driver);
	}
	vseg_page_pool_fini();
}

module_init(vseg_init);
module_exit(vseg_exit);

MODULE_AUTHOR("The vseg authors");
MODULE_DESCRIPTION("vseg: " DRIVER_DESC);
MODULE_LICENSE("GPL");
