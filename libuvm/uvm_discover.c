// SPDX-License-Identifier: MIT
/*
 * uvm_discover.c - find the devices behind /dev/uvm.
 *
 * DOC: Discovery
 *
 * UVM_IOCTL_GET_INFO on /dev/uvm is authoritative: it defines which devices
 * exist and their order (the CUDA ordinal is the module's device id order).
 * Everything else only adds detail:
 *
 *  - each device's DRM render node (/dev/dri/renderD<render_minor>) is
 *    opened, must report driver name "uvm" and must answer DRM_IOCTL_UVM_INFO
 *    with the same device id; otherwise the device stays usable through
 *    /dev/uvm but has no render node (UVM_DEVICE_HAS_RENDER_NODE clear);
 *  - drmGetDevices2() supplies PCI ids (subsystem, revision) for PCI devices.
 *    It cannot be the device list: libdrm skips platform devices that have no
 *    device-tree node, which is exactly what the emulated backend creates;
 *  - libnuma validates the host NUMA node the module reports.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include <numa.h>
#include <xf86drm.h>

#include "uvm_kabi.h"

/* PCI domain given to devices that are not PCI functions (emulated). */
#define UVM_SYNTHETIC_PCI_DOMAIN	0xffff

/* GET_INFO, growing the array until the module's device count fits. */
static int uvm_get_devices(int fd, struct uvm_get_info *gi,
			   struct uvm_kabi_device_info **out)
{
	struct uvm_kabi_device_info *devs = NULL;
	unsigned int cap = 0;
	int tries, ret;

	for (tries = 0; tries < 4; tries++) {
		uvm_memclear(*gi);
		gi->devices = (uintptr_t)devs;
		gi->devices_count = cap;
		ret = uvm_ioctl(fd, UVM_IOCTL_GET_INFO, gi);
		if (ret)
			goto err_free;
		if (gi->abi_version != UVM_ABI_VERSION) {
			ret = -EPROTO;
			goto err_free;
		}
		if (gi->num_devices <= cap) {
			*out = devs;
			return 0;
		}
		if (gi->num_devices > UVM_MAX_DEVICES) {
			ret = -EPROTO;
			goto err_free;
		}
		cap = gi->num_devices;
		free(devs);
		devs = calloc(cap, sizeof(*devs));
		if (!devs)
			return -ENOMEM;
	}
	ret = -EAGAIN;	/* the device count kept changing under us */
err_free:
	free(devs);
	return ret;
}

/* Open and verify the render node; keep it open on success. */
static int uvm_open_render_node(struct uvm_device *dev)
{
	struct drm_uvm_info arg;
	drmVersionPtr ver;
	char path[64];
	bool is_uvm;
	int fd, ret;

	snprintf(path, sizeof(path), "/dev/dri/renderD%u", dev->info.render_minor);
	fd = open(path, O_RDWR | O_CLOEXEC);
	if (fd < 0)
		return -errno;

	ver = drmGetVersion(fd);
	is_uvm = ver && ver->name && !strcmp(ver->name, "uvm");
	drmFreeVersion(ver);
	if (!is_uvm) {
		ret = -ENODEV;
		goto err_close;
	}

	uvm_memclear(arg);
	ret = drmCommandWriteRead(fd, DRM_UVM_INFO, &arg, sizeof(arg));
	if (ret)
		goto err_close;
	if (arg.info.id != dev->info.id) {
		ret = -ENODEV;
		goto err_close;
	}

	dev->render_fd = fd;
	dev->info.flags |= UVM_DEVICE_HAS_RENDER_NODE;
	return 0;

err_close:
	close(fd);
	return ret;
}

static void uvm_copy_device(struct uvm_context *ctx, struct uvm_device *dev,
			    const struct uvm_kabi_device_info *k)
{
	struct uvm_device_info *i = &dev->info;
	int node = k->numa_node;

	memset(dev, 0, sizeof(*dev));
	dev->render_fd = -1;
	i->id = k->id;
	i->backend = k->backend;
	i->caps = k->caps;
	i->mem_total = k->mem_total;
	dev->mem_size = k->mem_total;
	i->mem_free = k->mem_free;
	i->render_minor = k->render_minor;
	memcpy(i->name, k->name, sizeof(i->name));
	i->name[sizeof(i->name) - 1] = '\0';

	if (node < 0 || node > ctx->numa_max_node ||
	    !numa_bitmask_isbitset(numa_nodes_ptr, node))
		node = -1;
	i->numa_node = node;

	if (k->backend == UVM_BACKEND_PCI_BAR) {
		i->pci_domain = k->pci_domain;
		i->pci_bus = k->pci_bus;
		i->pci_dev = k->pci_dev;
		i->pci_func = k->pci_func;
		i->pci_vendor = k->pci_vendor;
		i->pci_device = k->pci_device;
	} else {
		/* Unique, stable and outside any real PCI domain. */
		i->pci_domain = UVM_SYNTHETIC_PCI_DOMAIN;
		i->pci_dev = k->id & 0x1f;
	}
}

/* Add PCI ids from libdrm to PCI devices, matched by render node minor. */
static void uvm_add_pci_info(struct uvm_context *ctx)
{
	drmDevicePtr *list;
	int n, i;
	unsigned int d;

	n = drmGetDevices2(0, NULL, 0);
	if (n <= 0)
		return;
	list = calloc(n, sizeof(*list));
	if (!list)
		return;
	n = drmGetDevices2(0, list, n);

	for (i = 0; i < n; i++) {
		drmDevicePtr dd = list[i];
		struct stat st;

		if (dd->bustype != DRM_BUS_PCI ||
		    !(dd->available_nodes & (1 << DRM_NODE_RENDER)) ||
		    stat(dd->nodes[DRM_NODE_RENDER], &st) || !S_ISCHR(st.st_mode))
			continue;

		for (d = 0; d < ctx->num_devices; d++) {
			struct uvm_device_info *info = &ctx->devices[d].info;

			if (info->backend != UVM_BACKEND_PCI_BAR ||
			    info->render_minor != minor(st.st_rdev))
				continue;
			info->pci_domain = dd->businfo.pci->domain;
			info->pci_bus = dd->businfo.pci->bus;
			info->pci_dev = dd->businfo.pci->dev;
			info->pci_func = dd->businfo.pci->func;
			info->pci_vendor = dd->deviceinfo.pci->vendor_id;
			info->pci_device = dd->deviceinfo.pci->device_id;
			info->pci_subvendor = dd->deviceinfo.pci->subvendor_id;
			info->pci_subdevice = dd->deviceinfo.pci->subdevice_id;
			info->pci_revision = dd->deviceinfo.pci->revision_id;
			info->flags |= UVM_DEVICE_HAS_PCI_INFO;
		}
	}
	drmFreeDevices(list, n > 0 ? n : 0);
	free(list);
}

int uvm_discover(struct uvm_context *ctx)
{
	struct uvm_kabi_device_info *kdevs = NULL;
	struct uvm_get_info gi;
	unsigned int i;
	int ret;

	ret = uvm_get_devices(ctx->fd, &gi, &kdevs);
	if (ret)
		return ret;

	ctx->module.abi_version = gi.abi_version;
	ctx->module.num_devices = gi.num_devices;
	ctx->module.caps = gi.caps;
	ctx->module.page_size = gi.page_size;
	ctx->module.block_size = gi.block_size;
	ctx->numa_max_node = numa_available() < 0 ? -1 : numa_max_node();

	if (gi.num_devices) {
		ctx->devices = calloc(gi.num_devices, sizeof(*ctx->devices));
		if (!ctx->devices) {
			free(kdevs);
			return -ENOMEM;
		}
	}
	ctx->num_devices = gi.num_devices;
	for (i = 0; i < ctx->num_devices; i++) {
		uvm_copy_device(ctx, &ctx->devices[i], &kdevs[i]);
		/* Optional: a device without a usable render node still counts. */
		uvm_open_render_node(&ctx->devices[i]);
	}
	free(kdevs);

	uvm_add_pci_info(ctx);
	return 0;
}

void uvm_discover_release(struct uvm_context *ctx)
{
	unsigned int i;

	for (i = 0; i < ctx->num_devices; i++)
		if (ctx->devices[i].render_fd >= 0)
			close(ctx->devices[i].render_fd);
	free(ctx->devices);
	ctx->devices = NULL;
	ctx->num_devices = 0;
}

int uvm_query_mem_free(struct uvm_context *ctx, unsigned int idx, uint64_t *mem_free)
{
	struct uvm_device *dev = &ctx->devices[idx];
	struct uvm_kabi_device_info *kdevs = NULL;
	struct drm_uvm_info arg;
	struct uvm_get_info gi;
	unsigned int i;
	int ret;

	/* A capped context asks its own VA space, which sees the cap. */
	if (dev->render_fd >= 0 && !dev->cap) {
		uvm_memclear(arg);
		ret = drmCommandWriteRead(dev->render_fd, DRM_UVM_INFO, &arg, sizeof(arg));
		if (!ret)
			*mem_free = arg.info.mem_free;
		return ret;
	}

	ret = uvm_get_devices(ctx->fd, &gi, &kdevs);
	if (ret)
		return ret;
	ret = -ENODEV;
	for (i = 0; i < gi.num_devices; i++) {
		if (kdevs[i].id == dev->info.id) {
			*mem_free = kdevs[i].mem_free;
			ret = 0;
		}
	}
	free(kdevs);
	return ret;
}
