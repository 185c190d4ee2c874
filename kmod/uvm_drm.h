/* SPDX-License-Identifier: GPL-2.0 */
/*
 * uvm_drm.h - the DRM driver behind each device's render node.
 */
#ifndef __UVM_DRM_H__
#define __UVM_DRM_H__

#include <drm/drm_drv.h>

extern const struct drm_driver uvm_drm_driver;

#endif /* __UVM_DRM_H__ */
