/* SPDX-License-Identifier: GPL-2.0 */
/*
 * uvm_vma.h - VMAs of /dev/uvm that fork() copied into another mm.
 */
#ifndef _UVM_VMA_H_
#define _UVM_VMA_H_

#include <linux/mm_types.h>

extern const struct vm_operations_struct uvm_foreign_vm_ops;

/* ->open of every /dev/uvm VMA: disowns copies made by fork(). */
bool uvm_vma_open_foreign(struct vm_area_struct *vma, struct mm_struct *owner);

static inline bool uvm_vma_is_foreign(struct vm_area_struct *vma)
{
	return vma->vm_ops == &uvm_foreign_vm_ops;
}

#endif /* _UVM_VMA_H_ */
