// SPDX-License-Identifier: GPL-2.0
/*
 * uvm_device.c - device lifetime and the global device registry.
 */

#include <linux/device.h>
#include <linux/mm.h>
#include <linux/string.h>
#include <linux/xarray.h>

#include <drm/drm_file.h>
#include <drm/drm_managed.h>
#include <drm/drm_print.h>
#include <uapi/uvm.h>

#include "uvm_alloc.h"
#include "uvm_devpriv.h"
#include "uvm_device.h"
#include "uvm_drm.h"
#include "uvm_drv.h"
#include "uvm_evict.h"
#include "uvm_pageable.h"

/**
 * DOC: Devices
 *
 * A device is anything with memory a backend can read and write: a PCI
 * memory BAR (uvm_pci.c) or system RAM (uvm_emu.c). Each backend's probe
 * allocates its structure with uvm_device_alloc() (which embeds the DRM
 * device, so the render node and the uvm device share one lifetime), fills
 * in the memory size and NUMA node and calls uvm_device_register(). Remove
 * calls uvm_device_unregister(), which takes the id out of the registry and
 * unplugs the DRM device: from then on drm_dev_enter() fails, so every path
 * touching device memory, all of which run inside drm_dev_enter()/exit(),
 * returns -ENODEV, and drm_dev_unplug() waits for those already inside.
 *
 * The structure itself lives until the last drm_dev_put(): references are
 * held by open render nodes, by registry lookups for the duration of an
 * ioctl, and by every device memory allocation (struct uvm_mem), so the
 * allocator and the emulated backend's pages outlive the binding for as
 * long as anyone can still free into them.
 *
 * Ids are indexes into an allocating xarray limited to
 * 0..UVM_MAX_DEVICES-1; xa_alloc() hands out the lowest free id. An
 * unbound device's id stays reserved (a zero entry: lookups miss it,
 * xa_alloc() skips it) until the device's last reference goes, since
 * per-block state indexed by id (struct uvm_va_block.dev[]) may still
 * refer to it until then; a device re-bound meanwhile gets another id.
 */

/* Registry of registered devices; its internal xa_lock is the registry lock. */
static DEFINE_XARRAY_ALLOC(uvm_devices);

/*
 * The last reference: the id the device kept reserved since its unbind
 * is free for the next device.
 */
static void uvm_device_release(struct drm_device *drm, void *arg)
{
	struct uvm_device *udev = container_of(drm, struct uvm_device, drm);

	if (udev->id < UVM_MAX_DEVICES)
		xa_release(&uvm_devices, udev->id);
	atomic_dec(&uvm_acct.devices);
}

void *__uvm_device_alloc(struct device *parent,
			 const struct uvm_backend_ops *ops,
			 size_t size, size_t offset)
{
	struct uvm_device *udev;
	void *container;
	int ret;

	container = __devm_drm_dev_alloc(parent, &uvm_drm_driver, size,
					 offset + offsetof(struct uvm_device,
							   drm));
	if (IS_ERR(container))
		return container;

	udev = container + offset;
	udev->ops = ops;
	udev->id = UVM_MAX_DEVICES;
	udev->numa_node = NUMA_NO_NODE;
	spin_lock_init(&udev->lru_lock);
	INIT_LIST_HEAD(&udev->lru);
	INIT_LIST_HEAD(&udev->bds);
	atomic_inc(&uvm_acct.devices);
	ret = drmm_add_action_or_reset(&udev->drm, uvm_device_release, NULL);
	if (ret)
		return ERR_PTR(ret);
	return container;
}

/**
 * uvm_device_register - make a probed device visible.
 * @udev: device with @mem_size and @numa_node set.
 *
 * Sets up the allocator, assigns the lowest free id and registers the render
 * node. Called from probe, no locks held.
 */
int uvm_device_register(struct uvm_device *udev)
{
	u32 id;
	int ret;

	ret = uvm_mem_pool_init(udev, udev->mem_size);
	if (ret)
		return ret;
	if (uvm_pageable_level() >= UVM_PAGEABLE_MIGRATE) {
		ret = uvm_devpriv_init(udev);
		if (ret)
			drm_warn(&udev->drm, "no device-private pages (%d): pageable memory will not migrate to it\n",
				 ret);
	}

	ret = xa_alloc(&uvm_devices, &id, udev,
		       XA_LIMIT(0, UVM_MAX_DEVICES - 1), GFP_KERNEL);
	if (ret) {
		drm_err(&udev->drm, "no free device id (max %d)\n",
			UVM_MAX_DEVICES);
		uvm_devpriv_fini(udev);
		return ret == -EBUSY ? -ENOSPC : ret;
	}
	udev->id = id;

	ret = drm_dev_register(&udev->drm, 0);
	if (ret)
		goto err_erase_id;

	drm_info(&udev->drm, "uvm%u: %s, %llu MiB, node %d\n", id,
		 udev->ops->name, udev->mem_size >> 20, udev->numa_node);
	return 0;

err_erase_id:
	xa_erase(&uvm_devices, id);
	uvm_devpriv_fini(udev);
	return ret;
}

/**
 * uvm_device_unregister - hide a device being removed.
 * @udev: registered device.
 *
 * After return no new lookup finds it, no managed data lives on it any more
 * (it was migrated home first), no code is inside drm_dev_enter() for it
 * and no host page set (registration, pinned allocation) is DMA-mapped for
 * it. Its id stays reserved until its last reference goes. Called from
 * remove, no locks held.
 */
void uvm_device_unregister(struct uvm_device *udev)
{
	xa_cmpxchg(&uvm_devices, udev->id, udev, XA_ZERO_ENTRY, GFP_KERNEL);
	uvm_devpriv_drain(udev);
	uvm_evict_all(udev);
	drm_dev_unplug(&udev->drm);
	uvm_evict_unmap_all(udev);
	uvm_host_pages_dma_unmap_device(udev);
	uvm_pageable_unmap_device(udev);
	uvm_devpriv_fini(udev);
}

/**
 * uvm_device_get - look a device up by id.
 * @id: device id.
 *
 * Returns the device with a reference (drop with uvm_device_put()) or NULL.
 * The device may be unplugged at any time after: use drm_dev_enter().
 */
struct uvm_device *uvm_device_get(u32 id)
{
	struct uvm_device *udev;

	xa_lock(&uvm_devices);
	udev = xa_load(&uvm_devices, id);
	if (udev)
		uvm_device_get_ref(udev);
	xa_unlock(&uvm_devices);
	return udev;
}

/**
 * uvm_device_pfn_is_ram - is a pfn from @udev's cpu_pfn op a RAM page?
 * @udev: device.
 * @pfn: pfn of one of its pages.
 *
 * Decided by the device's own pfn range (its BAR), not by pfn_valid(): a
 * platform may give I/O memory a memmap (ZONE_DEVICE, P2PDMA, memory
 * holes inside a section), and inserting such a page as if it were RAM
 * would be wrong. Any context.
 *
 * Return: true if @pfn must be mapped as a page (vm_insert_page()), false
 * if it is I/O memory (vmf_insert_pfn_prot(), write-combined).
 */
bool uvm_device_pfn_is_ram(const struct uvm_device *udev, unsigned long pfn)
{
	if (pfn >= udev->io_pfn_start && pfn < udev->io_pfn_end)
		return false;
	return pfn_valid(pfn);
}

/* Number of registered devices (a snapshot). */
u32 uvm_device_count(void)
{
	struct uvm_device *udev;
	unsigned long id;
	u32 n = 0;

	xa_for_each(&uvm_devices, id, udev)
		n++;
	return n;
}

/**
 * uvm_device_fill_info - describe a device to user space.
 * @udev: device (a reference held).
 * @info: zeroed by the caller, filled here.
 */
void uvm_device_fill_info(struct uvm_device *udev,
			  struct uvm_device_info *info)
{
	info->id = udev->id;
	info->backend = udev->ops->backend;
	info->caps = udev->ops->caps;
	info->mem_total = udev->mem_size;
	info->mem_free = uvm_mem_free_bytes(udev);
	info->numa_node = udev->numa_node;
	info->render_minor = udev->drm.render ? udev->drm.render->index : 0;
	snprintf(info->name, sizeof(info->name), "uvm%u (%s)", udev->id,
		 dev_name(udev->drm.dev));
	if (udev->ops->fill_info)
		udev->ops->fill_info(udev, info);
}
