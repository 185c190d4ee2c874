/* SPDX-License-Identifier: GPL-2.0 */
/*
 * uvm_copy.h - UVM_IOCTL_MEMCPY and UVM_IOCTL_MEMSET.
 */
#ifndef __UVM_COPY_H__
#define __UVM_COPY_H__

struct uvm_va_space;

/* Take the table lock briefly, pin user pages, never hold uvm locks across GUP. */
int uvm_memcpy_ioctl(struct uvm_va_space *va_space, void *data);
int uvm_memset_ioctl(struct uvm_va_space *va_space, void *data);

#endif /* __UVM_COPY_H__ */
