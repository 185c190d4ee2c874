/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Device faults and the device-access path (what a kernel running on a
 * device does to managed memory).
 */
#ifndef _UVM_DEVICE_FAULT_H_
#define _UVM_DEVICE_FAULT_H_

#include <linux/types.h>

struct uvm_device;
struct uvm_managed;
struct uvm_va_block;
struct uvm_device_access;

extern unsigned int uvm_fault_batch;

/* Caller holds block->lock and the VA space's lock (read). */
int uvm_block_service_faults_locked(struct uvm_va_block *block,
				    struct uvm_device *udev,
				    const unsigned long *faults,
				    const unsigned long *write);

int uvm_device_access_ioctl(struct uvm_managed *mgd,
			    struct uvm_device_access *args);

#endif /* _UVM_DEVICE_FAULT_H_ */
