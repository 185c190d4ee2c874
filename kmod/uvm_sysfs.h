/* SPDX-License-Identifier: GPL-2.0 */
#ifndef __UVM_SYSFS_H__
#define __UVM_SYSFS_H__

#include <linux/sysfs.h>

/* Attribute groups of a bound device (drvdata is its struct uvm_device). */
extern const struct attribute_group *uvm_sysfs_groups[];

/* /sys/module/uvm/stats/: the global counters (module init/exit). */
int uvm_sysfs_init(void);
void uvm_sysfs_exit(void);

#endif /* __UVM_SYSFS_H__ */
