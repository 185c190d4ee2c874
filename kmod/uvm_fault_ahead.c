// SPDX-License-Identifier: GPL-2.0
/*
 * DOC: Fault-ahead
 *
 * A CPU fault on device-resident data brings the faulting block's part home
 * and maps it (uvm_fault.c). A CPU sweeping device-resident data would then
 * stop at every block to copy it, and copy nothing while it works on the
 * data it got. So such a fault also hands the next fault_ahead_blocks
 * blocks of the same VMA to a worker, which brings their device-resident
 * pages home and maps them the same way while the faulting thread goes on:
 * the copies of the next blocks overlap the CPU's work on this one, as a
 * copy engine's would. The worker runs on another CPU, of the target node
 * if it has one. The CPU finds the data home and mapped, or faults
 * and waits for the block's lock, never for anything wrong.
 *
 * The worker takes the locks a fault takes, in the same order (mmap_lock,
 * then the VA space's, then the block's) and only pins the mm while it
 * works. It leaves blocks alone whose policy keeps data on a device or maps
 * device memory into the CPU (read-mostly, accessed-by the CPU, preferred
 * location on a device), and stops when someone waits for the mmap_lock.
 */
#include <linux/mm.h>
#include <linux/moduleparam.h>
#include <linux/sched/mm.h>
#include <linux/workqueue.h>

#include "uvm_compat.h"
#include "uvm_drv.h"
#include "uvm_managed.h"
#include "uvm_thrash.h"

static unsigned int uvm_fault_ahead_blocks = 4;

static struct uvm_param_range fault_ahead_blocks_range = {
	.val = &uvm_fault_ahead_blocks, .min = 0, .max = 64,
};
module_param_cb(fault_ahead_blocks, &uvm_param_range_ops, &fault_ahead_blocks_range, 0644);
MODULE_PARM_DESC(fault_ahead_blocks,
		 "2 MiB blocks a CPU fault-back from a device brings home ahead, in the background: 0..64 (default 4, 0: off)");

/* May the worker migrate and map [lo, hi)? Only under plain policies. */
static bool ahead_policy_allows(struct uvm_managed *mgd, unsigned long lo,
				unsigned long hi)
{
	struct uvm_policy_extent *ext;
	unsigned long index = lo;

	lockdep_assert_held(&mgd->lock);
	mt_for_each(&mgd->policies.tree, ext, index, hi - 1) {
		if (ext->pol.read_mostly || ext->pol.accessed_by_host ||
		    ext->pol.preferred.type == UVM_LOC_DEVICE)
			return false;
	}
	return true;
}

/*
 * Bring the block at @addr home and map it, if it is worth it; the last
 * block of a window (@tail) stays unmapped, its fault continues the sweep.
 */
static void ahead_block(struct uvm_managed *mgd, struct mm_struct *mm,
			unsigned long addr, int nid, bool write, bool tail)
{
	struct vm_area_struct *vma = vma_lookup(mm, addr);
	struct uvm_va_block *block;
	unsigned long lo, hi;
	unsigned int before;

	if (!vma || vma->vm_ops != &uvm_vm_ops || vma->vm_private_data != mgd)
		return;
	lo = max(vma->vm_start, addr);
	hi = min(vma->vm_end, addr + UVM_BLOCK_SIZE);
	down_read(&mgd->lock);
	block = xa_load(&mgd->blocks, addr >> UVM_BLOCK_SHIFT);
	if (block && ahead_policy_allows(mgd, lo, hi)) {
		mutex_lock(&block->lock);
		before = block->nr_cpu_pages;
		if (!block->dead && block->nr_devs &&
		    !uvm_thrash_pinned_elsewhere(block, UVM_THRASH_HOST) &&
		    !uvm_fault_block_home_locked(block, vma, nid)) {
			uvm_count(mgd, UVM_STAT_FAULT_AHEAD_PAGES,
				  block->nr_cpu_pages - before);
			if (tail)
				block->ahead_tail = true;
			else
				uvm_fault_map_block_locked(block, vma, write);
		}
		mutex_unlock(&block->lock);
	}
	up_read(&mgd->lock);
}

/* Take the next block to do, or false when there is none. */
static bool ahead_next(struct uvm_fault_ahead *fa, unsigned long *addr,
		       int *nid, bool *write, bool *tail)
{
	bool more;

	spin_lock(&fa->lock);
	more = fa->addr < fa->end;
	*tail = fa->addr + UVM_BLOCK_SIZE >= fa->end;
	*addr = fa->addr;
	*nid = fa->nid;
	*write = fa->write;
	fa->addr += UVM_BLOCK_SIZE;
	spin_unlock(&fa->lock);
	return more;
}

static void ahead_work(struct work_struct *work)
{
	struct uvm_fault_ahead *fa = container_of(work, struct uvm_fault_ahead,
						  work);
	struct uvm_managed *mgd = container_of(fa, struct uvm_managed, ahead);
	struct mm_struct *mm = mgd->mm;
	unsigned long addr;
	bool write, tail;
	int nid;

	if (!mm || !mmget_not_zero(mm))
		return;
	mmap_read_lock(mm);
	while (!mmap_lock_is_contended(mm) &&
	       ahead_next(fa, &addr, &nid, &write, &tail))
		ahead_block(mgd, mm, addr, nid, write, tail);
	mmap_read_unlock(mm);
	mmput(mm);
}

/**
 * uvm_fault_ahead_init() - set up a VA space's fault-ahead worker.
 * @mgd: managed state being initialised.
 */
void uvm_fault_ahead_init(struct uvm_managed *mgd)
{
	INIT_WORK(&mgd->ahead.work, ahead_work);
	spin_lock_init(&mgd->ahead.lock);
}

/**
 * uvm_fault_ahead_fini() - wait for the worker (nothing can kick it now).
 * @mgd: managed state being torn down.
 */
void uvm_fault_ahead_fini(struct uvm_managed *mgd)
{
	cancel_work_sync(&mgd->ahead.work);
}

/*
 * Only a sweep is worth bringing blocks home ahead of time (random
 * fault-backs would bring home data a device still uses): the fault hit the
 * first page of its block's part of the VMA, where a sweep enters it, or
 * the block before is home already.
 */
static bool ahead_looks_like_sweep(struct uvm_managed *mgd,
				   struct vm_area_struct *vma,
				   unsigned long next, unsigned long addr)
{
	unsigned long start = next - UVM_BLOCK_SIZE;
	struct uvm_va_block *prev;

	if ((addr & PAGE_MASK) == max(start, vma->vm_start))
		return true;
	if (start - UVM_BLOCK_SIZE < vma->vm_start || start < UVM_BLOCK_SIZE)
		return false;
	prev = xa_load(&mgd->blocks, (start >> UVM_BLOCK_SHIFT) - 1);
	return prev && !READ_ONCE(prev->nr_devs);
}

/**
 * uvm_fault_ahead_kick() - after a fault-back from a device, bring the next
 * blocks of @vma home in the background.
 * @mgd: managed state; caller holds @mgd->lock (read).
 * @vma: the faulting VMA.
 * @next: start of the block after the faulting one.
 * @nid: host node the fault chose.
 * @write: the fault was a write (map writable where allowed).
 * @addr: the faulting address.
 * @sweep: the fault mapped the tail block of the previous window.
 */
void uvm_fault_ahead_kick(struct uvm_managed *mgd, struct vm_area_struct *vma,
			  unsigned long next, unsigned long addr, int nid,
			  bool write, bool sweep)
{
	unsigned long end, blocks = READ_ONCE(uvm_fault_ahead_blocks);
	struct uvm_fault_ahead *fa = &mgd->ahead;
	struct uvm_va_block *block;

	lockdep_assert_held(&mgd->lock);
	if (!blocks || next >= vma->vm_end)
		return;
	/* Only worth a worker if the next block has device copies. */
	block = xa_load(&mgd->blocks, next >> UVM_BLOCK_SHIFT);
	if (!block || !READ_ONCE(block->nr_devs))
		return;
	if (!sweep && !ahead_looks_like_sweep(mgd, vma, next, addr))
		return;
	end = min(vma->vm_end, next + blocks * UVM_BLOCK_SIZE);
	spin_lock(&fa->lock);
	fa->addr = next;
	fa->end = end;
	fa->nid = nid;
	fa->write = write;
	spin_unlock(&fa->lock);
	queue_work_on(uvm_helper_cpu(nid), system_unbound_wq, &fa->work);
}
