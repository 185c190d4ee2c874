/* SPDX-License-Identifier: ((GPL-2.0 WITH Linux-syscall-note) OR MIT) */
/*
 * uvm_drm.h - ioctls of the uvm DRM render nodes (driver name "uvm").
 *
 * Kept apart from uvm.h so that users of /dev/uvm need no DRM headers.
 */
#ifndef _UAPI_UVM_DRM_H
#define _UAPI_UVM_DRM_H

#if defined(__KERNEL__)
#include <drm/drm.h>
#else
#include <drm.h>
#endif

#include "uvm.h"

/*
 * DRM render node ioctls (driver name "uvm").
 */
#define DRM_UVM_INFO			0x00

/**
 * struct drm_uvm_info - DRM_IOCTL_UVM_INFO: this render node's device.
 */
struct drm_uvm_info {
	/** @info: out. */
	struct uvm_device_info info;
	/** @flags: in, must be zero. */
	__u32 flags;
	/** @pad: must be zero. */
	__u32 pad;
};

#define DRM_IOCTL_UVM_INFO \
	DRM_IOWR(DRM_COMMAND_BASE + DRM_UVM_INFO, struct drm_uvm_info)

#endif /* _UAPI_UVM_DRM_H */
