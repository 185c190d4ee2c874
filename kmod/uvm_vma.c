// SPDX-License-Identifier: GPL-2.0
/*
 * DOC: VMAs copied by fork()
 *
 * Managed ranges and allocations are VM_DONTCOPY, but a user may clear that
 * with madvise(MADV_DOFORK), and fork() then copies the VMA into the child.
 * The copy must never act on the owner's state: its ->close would punch
 * the owner's managed range or free its allocation, its faults would map
 * the owner's pages into another process, and the PTEs fork() copies would
 * keep references to pages the owner later migrates or frees.
 *
 * fork() calls ->open on the child's VMA (with the child's mm write-locked)
 * before it copies any PTE. uvm_vma_open_foreign() sees a VMA whose mm is
 * not the VA space's owner and disowns it: the VMA gets
 * uvm_foreign_vm_ops (a ->fault that answers SIGBUS, no ->close),
 * vm_private_data NULL, and VM_WIPEONFORK, which makes fork() skip
 * copy_page_range() for it. The child's touch of the range gets SIGBUS,
 * like CUDA's (a forked child has no CUDA memory); the owner keeps its
 * range and data. ->open also runs for splits and moves within the owner's
 * mm, where it does nothing.
 */
#include <linux/mm.h>

#include "uvm_compat.h"
#include "uvm_vma.h"

static vm_fault_t uvm_foreign_fault(struct vm_fault *vmf)
{
	return VM_FAULT_SIGBUS;
}

const struct vm_operations_struct uvm_foreign_vm_ops = {
	.fault = uvm_foreign_fault,
};

/**
 * uvm_vma_open_foreign() - disown @vma if fork() copied it into a mm that is
 * not @owner.
 * @vma: a VMA of /dev/uvm; its mm's mmap_lock is held for write.
 * @owner: the mm of the VA space the VMA belongs to.
 *
 * Return: true if @vma was disowned (it no longer refers to the VA space).
 */
bool uvm_vma_open_foreign(struct vm_area_struct *vma, struct mm_struct *owner)
{
	if (vma->vm_mm == owner)
		return false;
	uvm_vm_flags_set(vma, VM_WIPEONFORK);
	vma->vm_private_data = NULL;
	vma->vm_ops = &uvm_foreign_vm_ops;
	return true;
}
