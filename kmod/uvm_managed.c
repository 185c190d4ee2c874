// SPDX-License-Identifier: GPL-2.0
/*
 * DOC: Managed ranges
 *
 * cudaMallocManaged() is mmap(NULL, size, PROT_READ | PROT_WRITE,
 * MAP_SHARED, uvm_fd, 0). The module owns the resulting VMA:
 *
 * - its file offset is rewritten to its address (vm_pgoff = vm_start >>
 *   PAGE_SHIFT) and every open file has its own address_space, so
 *   unmap_mapping_range(&mgd->mapping, va, len) zaps exactly the PTEs of
 *   [va, va + len) of this VA space;
 * - VM_DONTCOPY: a child of fork() does not inherit managed ranges (like
 *   CUDA, whose allocations are not valid in a forked child); the child
 *   sees no mapping at those addresses. A user who clears it with
 *   MADV_DOFORK gets a disowned copy in the child (SIGBUS on touch, see
 *   uvm_vma.c);
 * - VM_DONTEXPAND and a ->mremap that fails: ranges cannot grow or move
 *   (their offset is their address); shrinking with mremap is a munmap of
 *   the tail and works;
 * - munmap of any part releases exactly the pages of that part and drops
 *   its policies; mprotect is enforced by the core page tables.
 *
 * Ranges of 2 MiB or more are placed 2 MiB-aligned so that their blocks are
 * whole. Only the mm that opened the file may map it or manage its memory.
 */
#include <linux/mman.h>
#include <linux/memcontrol.h>
#include <linux/overflow.h>
#include <linux/sched/mm.h>
#include <linux/slab.h>

#include "uvm_compat.h"
#include "uvm_event_records.h"
#include "uvm_managed.h"
#include "uvm_pageable.h"

static const struct address_space_operations uvm_aops = {};

/**
 * uvm_managed_init() - set up the managed state of a new open file.
 * @mgd: zeroed managed state.
 * @filp: the file being opened; its f_mapping is replaced.
 *
 * Return: 0 or -ENOMEM.
 */
int uvm_managed_init(struct uvm_managed *mgd, struct file *filp)
{
	int ret;

	ret = uvm_pool_init(&mgd->pool);
	if (ret)
		return ret;
	init_rwsem(&mgd->lock);
	uvm_fault_ahead_init(mgd);
	uvm_perf_va_init(&mgd->perf);
	uvm_events_init(&mgd->events);
	mgd->filp = filp;
	uvm_policy_map_init(&mgd->policies);
	uvm_policy_map_init(&mgd->pageable_policies);
	xa_init(&mgd->blocks);
	address_space_init_once(&mgd->mapping);
	mgd->mapping.host = file_inode(filp);
	mgd->mapping.a_ops = &uvm_aops;
	filp->f_mapping = &mgd->mapping;
	mgd->mm = current->mm;
	if (mgd->mm)
		mmgrab(mgd->mm);
	mgd->memcg = get_mem_cgroup_from_mm(current->mm);
	return 0;
}

/**
 * uvm_managed_fini() - free what is left (nothing maps the file any more).
 * @mgd: managed state.
 */
void uvm_managed_fini(struct uvm_managed *mgd)
{
	struct uvm_va_block *block;
	unsigned long index;

	uvm_fault_ahead_fini(mgd);
	uvm_pageable_fini(mgd);
	xa_for_each(&mgd->blocks, index, block)
		uvm_block_free(block);
	xa_destroy(&mgd->blocks);
	uvm_device_access_fini(mgd);
	uvm_pool_fini(&mgd->pool);
	uvm_policy_map_destroy(&mgd->policies);
	uvm_policy_map_destroy(&mgd->pageable_policies);
	uvm_events_fini(&mgd->events);
	mem_cgroup_put(mgd->memcg);
	if (mgd->mm)
		mmdrop(mgd->mm);
}

/**
 * uvm_managed_mmap() - turn a new VMA into a managed range.
 * @mgd: managed state of the file.
 * @vma: the VMA; called with its mm's mmap_lock held for write.
 *
 * Return: 0, -EINVAL for a private mapping or a non-zero offset, -EPERM for
 * a foreign mm, -ENOMEM.
 */
int uvm_managed_mmap(struct uvm_managed *mgd, struct vm_area_struct *vma)
{
	int ret;

	if (vma->vm_mm != mgd->mm)
		return -EPERM;
	if (!(vma->vm_flags & VM_MAYSHARE))
		return -EINVAL;

	down_write(&mgd->lock);
	ret = uvm_policy_add(&mgd->policies, vma->vm_start, vma->vm_end);
	up_write(&mgd->lock);
	if (ret)
		return ret;

	vma->vm_pgoff = vma->vm_start >> PAGE_SHIFT;
	/*
	 * VM_SEQ_READ: managed pages are on no LRU, so the recency a zap
	 * records for each young PTE (mark_page_accessed(), see
	 * vma_has_recency()) steers nothing and costs a sixth of the zap.
	 */
	uvm_vm_flags_set(vma, VM_MIXEDMAP | VM_DONTCOPY | VM_DONTEXPAND |
			 VM_SEQ_READ);
	vma->vm_ops = &uvm_vm_ops;
	vma->vm_private_data = mgd;
	uvm_event_range(mgd, UVM_EVENT_ALLOC, vma->vm_start, vma->vm_end);
	return 0;
}

/**
 * uvm_managed_get_unmapped_area() - place ranges of 2 MiB or more on a
 * 2 MiB boundary.
 * @filp: the file.
 * @addr: hint.
 * @len: length.
 * @pgoff: offset (0).
 * @flags: mmap flags.
 *
 * Return: the address or a negative errno.
 */
unsigned long uvm_managed_get_unmapped_area(struct file *filp,
					    unsigned long addr,
					    unsigned long len,
					    unsigned long pgoff,
					    unsigned long flags)
{
	unsigned long ret;

	if ((flags & MAP_FIXED) || len < UVM_BLOCK_SIZE)
		return uvm_mm_get_unmapped_area(filp, addr, len, pgoff, flags);
	if (addr && IS_ALIGNED(addr, UVM_BLOCK_SIZE)) {
		ret = uvm_mm_get_unmapped_area(filp, addr, len, pgoff, flags);
		if (ret == addr)
			return ret;
	}
	if (len > TASK_SIZE - UVM_BLOCK_SIZE)
		return -ENOMEM;
	ret = uvm_mm_get_unmapped_area(filp, 0, len + UVM_BLOCK_SIZE, pgoff,
				       flags);
	if (IS_ERR_VALUE(ret))
		return ret;
	return round_up(ret, UVM_BLOCK_SIZE);
}

/**
 * uvm_managed_range_check() - validate a user range and round it to pages.
 * @mgd: managed state.
 * @addr: user start.
 * @length: user length.
 * @start: out, page-aligned start.
 * @end: out, page-aligned end.
 *
 * Return: 0, -EINVAL for an empty, wrapping or out-of-range range, -EPERM
 * when the caller is not the mm that owns this VA space.
 */
int uvm_managed_range_check(struct uvm_managed *mgd, u64 addr, u64 length,
			    unsigned long *start, unsigned long *end)
{
	u64 last;

	if (current->mm != mgd->mm)
		return -EPERM;
	if (!length || check_add_overflow(addr, length - 1, &last) ||
	    last >= TASK_SIZE)
		return -EINVAL;
	*start = round_down(addr, PAGE_SIZE);
	*end = round_up(last + 1, PAGE_SIZE);
	return 0;
}

/**
 * uvm_managed_covered_locked() - is every page of [start, end) managed?
 * @mgd: managed state; caller holds @mgd->lock.
 * @start: page-aligned start.
 * @end: page-aligned end.
 *
 * Return: true if every page of the range is managed memory of @mgd.
 */
bool uvm_managed_covered_locked(struct uvm_managed *mgd, unsigned long start,
				unsigned long end)
{
	struct uvm_policy_extent *ext;
	unsigned long index = start, next = start;

	lockdep_assert_held(&mgd->lock);
	mt_for_each(&mgd->policies.tree, ext, index, end - 1) {
		if (ext->start > next)
			return false;
		next = ext->end;
		if (next >= end)
			return true;
	}
	return false;
}

/**
 * uvm_managed_pageable_range() - is [@start, @end) pageable memory the
 * migration level keeps policies for (no managed range overlaps it)?
 * @mgd: the VA space; takes its lock.
 * @start: start.
 * @end: end.
 */
bool uvm_managed_pageable_range(struct uvm_managed *mgd, unsigned long start,
				unsigned long end)
{
	bool ret;

	if (uvm_pageable_level() < UVM_PAGEABLE_MIGRATE)
		return false;
	down_read(&mgd->lock);
	ret = !uvm_managed_any_locked(mgd, start, end);
	up_read(&mgd->lock);
	return ret;
}

/* Does any managed range overlap [@start, @end)? mgd->lock held. */
bool uvm_managed_any_locked(struct uvm_managed *mgd, unsigned long start,
			    unsigned long end)
{
	struct uvm_policy_extent *ext;
	unsigned long index = start;

	lockdep_assert_held(&mgd->lock);
	mt_for_each(&mgd->policies.tree, ext, index, end - 1)
		return true;
	return false;
}
