/* SPDX-License-Identifier: GPL-2.0 */
/*
 * uvm_ptr.h - UVM_IOCTL_PTR_INFO: what an address of the process is.
 */
#ifndef __UVM_PTR_H__
#define __UVM_PTR_H__

struct uvm_va_space;

/* Takes the table lock, then mmap_lock for read (never both at once). */
int uvm_ptr_info_ioctl(struct uvm_va_space *va_space, void *data);

#endif /* __UVM_PTR_H__ */
