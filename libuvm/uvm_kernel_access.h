/* SPDX-License-Identifier: MIT */
/*
 * uvm_kernel_access.h - a kernel step's accesses to every kind of memory
 * (uvm_kernel_access.c).
 */
#ifndef UVM_KERNEL_ACCESS_H
#define UVM_KERNEL_ACCESS_H

#include "uvm.h"

/*
 * Perform @n well-formed accesses of device @device: those to device and
 * pinned host memory here, the rest (managed, pageable, unknown) in one
 * UVM_IOCTL_DEVICE_ACCESS, in their order. @ops is reordered. *@faults:
 * device faults taken. 0 or -errno (the module's, or the copy's).
 */
int uvm_kernel_access(unsigned int device, struct uvm_device_access_op *ops,
		      unsigned int n, unsigned int *faults);

#endif /* UVM_KERNEL_ACCESS_H */
