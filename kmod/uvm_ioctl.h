/* SPDX-License-Identifier: GPL-2.0 */
#ifndef __UVM_IOCTL_H__
#define __UVM_IOCTL_H__

struct file;

long uvm_ioctl(struct file *filp, unsigned int cmd, unsigned long arg);

#endif /* __UVM_IOCTL_H__ */
