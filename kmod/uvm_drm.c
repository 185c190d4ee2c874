// SPDX-License-Identifier: GPL-2.0
/*
 * uvm_drm.c - render node of a device: DRM driver and its ioctls.
 */

#include <linux/fs.h>
#include <linux/module.h>

#include <drm/drm_drv.h>
#include <drm/drm_file.h>
#include <drm/drm_ioctl.h>
#include <uapi/uvm_drm.h>

#include "uvm_compat.h"
#include "uvm_device.h"
#include "uvm_drm.h"

/**
 * DOC: Render nodes
 *
 * Every device registers a DRM device with only DRIVER_RENDER: no GEM, no
 * KMS, no primary node. The render node (/dev/dri/renderD*) identifies the
 * device to tools that already know DRM (drmGetVersion() says "uvm") and
 * answers DRM_IOCTL_UVM_INFO. Memory is not managed through it: managed
 * memory belongs to a VA space, which is an open /dev/uvm.
 */

static int uvm_device_info_ioctl(struct drm_device *drm, void *data,
				 struct drm_file *file)
{
	struct uvm_device *udev = to_uvm_device(drm);
	struct drm_uvm_info *args = data;
	int idx;

	if (args->flags || args->pad)
		return -EINVAL;
	if (!drm_dev_enter(drm, &idx))
		return -ENODEV;
	memset(&args->info, 0, sizeof(args->info));
	uvm_device_fill_info(udev, &args->info);
	drm_dev_exit(idx);
	return 0;
}

static const struct drm_ioctl_desc uvm_drm_ioctls[] = {
	DRM_IOCTL_DEF_DRV(UVM_INFO, uvm_device_info_ioctl, DRM_RENDER_ALLOW),
};

static const struct file_operations uvm_drm_fops = {
	.owner = THIS_MODULE,
	.open = drm_open,
	.release = drm_release,
	.unlocked_ioctl = drm_ioctl,
	.compat_ioctl = drm_compat_ioctl,
	.poll = drm_poll,
	.read = drm_read,
	.llseek = noop_llseek,
	UVM_DRM_FOP_FLAGS
};

const struct drm_driver uvm_drm_driver = {
	.driver_features = DRIVER_RENDER,
	.ioctls = uvm_drm_ioctls,
	.num_ioctls = ARRAY_SIZE(uvm_drm_ioctls),
	.fops = &uvm_drm_fops,
	.name = "uvm",
	.desc = "Unified virtual memory device",
	UVM_DRM_DRIVER_DATE
	.major = 1,
	.minor = 0,
};
