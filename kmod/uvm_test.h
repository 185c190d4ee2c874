/* SPDX-License-Identifier: GPL-2.0 */
#ifndef __UVM_TEST_H__
#define __UVM_TEST_H__

struct uvm_va_space;

/* Takes va_space->lock. */
int uvm_test_devmem_ioctl(struct uvm_va_space *va_space, void *data);
/* Frees every test allocation; the VA space is unreachable. */
void uvm_test_va_space_fini(struct uvm_va_space *va_space);

#endif /* __UVM_TEST_H__ */
