// SPDX-License-Identifier: GPL-2.0
/*
 * DOC: CPU faults
 *
 * Managed VMAs are VM_MIXEDMAP | VM_SHARED with a ->page_mkwrite, so the
 * core maps pages read-only until a write happens:
 *
 * - ->fault finds (or first allocates, zeroed, on the preferred host node
 *   or else the faulting CPU's node) the host page, maps the populated
 *   neighbours of the fault granule with vm_insert_pages() and returns the
 *   faulting page locked for the core to map.
 * - ->page_mkwrite runs before any PTE becomes writable (first write, or a
 *   write to a page mapped read-only); it rechecks that the page is still
 *   the block's copy of record (a migration may have replaced it: then the
 *   fault is retried) and marks it CPU-writable.
 *
 * Both take the VA space's lock for read and the block's mutex, so faults on
 * different blocks run in parallel and faults on one block serialise
 * briefly. The fault granule (module parameter fault_granule_kb) bounds how
 * many neighbouring pages one fault populates and maps.
 */
#include <linux/mm.h>
#include <linux/module.h>
#include <linux/pagemap.h>
#include <linux/topology.h>

#include "uvm_compat.h"
#include "uvm_managed.h"
#include "uvm_trace.h"

unsigned int uvm_fault_granule_pages = SZ_64K >> PAGE_SHIFT;

static int granule_set(const char *val, const struct kernel_param *kp)
{
	unsigned int kb;
	int ret;

	ret = kstrtouint(val, 0, &kb);
	if (ret)
		return ret;
	if (kb < PAGE_SIZE / SZ_1K || kb > UVM_BLOCK_SIZE / SZ_1K ||
	    !is_power_of_2(kb)) {
		pr_err("uvm: fault_granule_kb must be a power of two in [%lu, %lu]\n",
		       PAGE_SIZE / SZ_1K, UVM_BLOCK_SIZE / SZ_1K);
		return -EINVAL;
	}
	WRITE_ONCE(uvm_fault_granule_pages, (kb * SZ_1K) >> PAGE_SHIFT);
	return 0;
}

static int granule_get(char *buf, const struct kernel_param *kp)
{
	return sysfs_emit(buf, "%u\n",
			  (READ_ONCE(uvm_fault_granule_pages) << PAGE_SHIFT) / SZ_1K);
}

static const struct kernel_param_ops granule_ops = {
	.set = granule_set,
	.get = granule_get,
};
module_param_cb(fault_granule_kb, &granule_ops, NULL, 0644);
MODULE_PARM_DESC(fault_granule_kb,
		 "KiB populated and mapped per CPU fault: power of two, 4..2048 (default 64)");

static int cpu_fault_node(const struct uvm_policy *pol)
{
	if (pol->preferred.type == UVM_LOC_HOST_NUMA &&
	    node_state(pol->preferred.id, N_MEMORY))
		return pol->preferred.id;
	return numa_node_id();
}

/* The pages [*first, *last] of the fault granule around @idx in @vma. */
static void fault_window(struct uvm_va_block *block,
			 struct vm_area_struct *vma, unsigned int idx,
			 unsigned int *first, unsigned int *last)
{
	unsigned int granule = READ_ONCE(uvm_fault_granule_pages);
	unsigned long lo = max(vma->vm_start, block->start);
	unsigned long hi = min(vma->vm_end, block->start + UVM_BLOCK_SIZE) - 1;

	*first = max(round_down(idx, granule), uvm_block_index(lo));
	*last = min(round_down(idx, granule) + granule - 1, uvm_block_index(hi));
}

/* Map the populated, unmapped pages of [first, last] but @skip read-only. */
static void fault_map_around(struct uvm_va_block *block,
			     struct vm_area_struct *vma, unsigned int first,
			     unsigned int last, unsigned int skip)
{
	struct page *pages[16];
	unsigned long addr = 0;
	unsigned long nr = 0, left;
	unsigned int i;

	for (i = first; i <= last + 1; i++) {
		bool take = i <= last && i != skip && block->cpu_pages[i] &&
			    !test_bit(i, block->cpu_mapped);

		if (take && nr < ARRAY_SIZE(pages)) {
			if (!nr)
				addr = block->start + ((unsigned long)i << PAGE_SHIFT);
			pages[nr++] = block->cpu_pages[i];
			continue;
		}
		if (nr) {
			left = nr;
			vm_insert_pages(vma, addr, pages, &left);
			bitmap_set(block->cpu_mapped, uvm_block_index(addr),
				   nr - left);
			nr = 0;
		}
		if (take) {
			addr = block->start + ((unsigned long)i << PAGE_SHIFT);
			pages[nr++] = block->cpu_pages[i];
		}
	}
}

static vm_fault_t block_cpu_fault(struct uvm_va_block *block,
				  struct vm_fault *vmf,
				  const struct uvm_policy *pol)
{
	unsigned int idx = uvm_block_index(vmf->address);
	unsigned int first, last;
	struct page *page;

	mutex_lock(&block->lock);
	fault_window(block, vmf->vma, idx, &first, &last);
	if (!block->cpu_pages[idx]) {
		uvm_block_populate_locked(block, first, last,
					  cpu_fault_node(pol), false);
		if (!block->cpu_pages[idx]) {
			mutex_unlock(&block->lock);
			return VM_FAULT_SIGBUS;	/* out of (cgroup) memory */
		}
	}
	fault_map_around(block, vmf->vma, first, last, idx);

	page = block->cpu_pages[idx];
	get_page(page);
	lock_page(page);
	set_bit(idx, block->cpu_mapped);
	mutex_unlock(&block->lock);

	vmf->page = page;
	return VM_FAULT_LOCKED;
}

static vm_fault_t uvm_vm_fault(struct vm_fault *vmf)
{
	struct uvm_managed *mgd = vmf->vma->vm_private_data;
	const struct uvm_policy *pol;
	struct uvm_va_block *block;
	vm_fault_t ret = VM_FAULT_SIGBUS;

	down_read(&mgd->lock);
	pol = uvm_policy_at(&mgd->policies, vmf->address);
	if (!pol)
		goto out_unlock;
	block = uvm_block_get(mgd, vmf->address);
	if (!block)
		goto out_unlock;	/* SIGBUS */
	ret = block_cpu_fault(block, vmf, pol);
	uvm_count(mgd, UVM_STAT_CPU_FAULTS, 1);
	trace_uvm_cpu_fault(vmf->address, !!(vmf->flags & FAULT_FLAG_WRITE),
			    ret == VM_FAULT_LOCKED ? page_to_nid(vmf->page) :
						     NUMA_NO_NODE);
out_unlock:
	up_read(&mgd->lock);
	return ret;
}

static vm_fault_t uvm_vm_page_mkwrite(struct vm_fault *vmf)
{
	struct uvm_managed *mgd = vmf->vma->vm_private_data;
	unsigned int idx = uvm_block_index(vmf->address);
	struct uvm_va_block *block;
	vm_fault_t ret = VM_FAULT_NOPAGE;

	down_read(&mgd->lock);
	block = xa_load(&mgd->blocks, vmf->address >> UVM_BLOCK_SHIFT);
	if (!block)
		goto out_unlock;

	mutex_lock(&block->lock);
	if (block->cpu_pages[idx] == vmf->page) {
		set_bit(idx, block->cpu_writable);
		lock_page(vmf->page);
		ret = VM_FAULT_LOCKED;
	}
	mutex_unlock(&block->lock);
	uvm_count(mgd, UVM_STAT_CPU_MKWRITE, 1);
out_unlock:
	up_read(&mgd->lock);
	return ret;
}

static void uvm_vm_close(struct vm_area_struct *vma)
{
	struct uvm_managed *mgd = vma->vm_private_data;

	down_write(&mgd->lock);
	uvm_managed_punch(mgd, vma->vm_start, vma->vm_end);
	uvm_policy_remove(&mgd->policies, vma->vm_start, vma->vm_end);
	up_write(&mgd->lock);
}

/* Managed ranges cannot move: their file offset is their address. */
static int uvm_vm_mremap(struct vm_area_struct *vma)
{
	return -EINVAL;
}

const struct vm_operations_struct uvm_vm_ops = {
	.fault		= uvm_vm_fault,
	.page_mkwrite	= uvm_vm_page_mkwrite,
	.close		= uvm_vm_close,
	.mremap		= uvm_vm_mremap,
};
