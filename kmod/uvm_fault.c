// SPDX-License-Identifier: GPL-2.0
/*
 * DOC: CPU faults
 *
 * Managed VMAs are VM_MIXEDMAP | VM_SHARED with a ->page_mkwrite, so the
 * VMA's own protection is read-only (write-notify) and the module decides
 * which PTEs are writable:
 *
 * - ->fault finds (or first allocates, zeroed, on the preferred host node
 *   or else the faulting CPU's node) the host pages of the fault granule
 *   and maps them, the faulting one included, with vm_insert_pages(). On a
 *   write fault, pages no device holds a copy of are made writable at once,
 *   under the page-table lock (apply_to_existing_page_range()), so a
 *   sequential write sweep takes one fault per granule, not one fault plus
 *   one write-protect fault per page. Read faults map read-only, and so are
 *   read-duplicated pages. The handler installs every PTE itself and
 *   returns VM_FAULT_NOPAGE: no page is ever handed to the core to map
 *   later, so a zap under the block lock never races with a PTE being
 *   installed and migrations need no page locks. A fault-back from a device
 *   maps the whole part of the block it brought home.
 * - ->page_mkwrite runs on a write to a page mapped read-only; it rechecks
 *   that the page is still the block's copy of record (a migration may have
 *   replaced it: then the fault is retried), collapses read duplicates and
 *   marks it CPU-writable.
 *
 * Both take the VA space's lock for read and the block's mutex, so faults on
 * different blocks run in parallel and faults on one block serialise
 * briefly. The fault granule (module parameter fault_granule_kb) bounds how
 * many neighbouring pages one fault populates and maps.
 */
#include <linux/mm.h>
#include <linux/module.h>
#include <linux/pagemap.h>
#include <linux/timekeeping.h>
#include <linux/topology.h>

#include "uvm_compat.h"
#include "uvm_device.h"
#include "uvm_event_records.h"
#include "uvm_managed.h"
#include "uvm_thrash.h"
#include "uvm_trace.h"
#include "uvm_vma.h"

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

/* The pages [*first, *last] of the @granule-page window around @idx in @vma. */
static void fault_window(struct uvm_va_block *block,
			 struct vm_area_struct *vma, unsigned int idx,
			 unsigned int granule, unsigned int *first,
			 unsigned int *last)
{
	unsigned long lo = max(vma->vm_start, block->start);
	unsigned long hi = min(vma->vm_end, block->start + UVM_BLOCK_SIZE) - 1;

	*first = max(round_down(idx, granule), uvm_block_index(lo));
	*last = min(round_down(idx, granule) + granule - 1, uvm_block_index(hi));
}

/* apply_to_existing_page_range() callback: make a PTE we just inserted writable. */
static int pte_make_writable(pte_t *ptep, unsigned long addr, void *data)
{
	pte_t pte = ptep_get(ptep);

	if (pte_present(pte) && !pte_write(pte))
		set_pte_at(data, addr, ptep, uvm_pte_mkwrite(pte_mkdirty(pte)));
	return 0;
}

/*
 * Host page @i may be mapped writable right away: the VMA allows writes and
 * no device holds a copy (a read-duplicated page stays read-only until
 * ->page_mkwrite collapses the duplicates).
 */
static bool page_may_map_writable(struct uvm_va_block *block,
				  struct vm_area_struct *vma, unsigned int i)
{
	return (vma->vm_flags & VM_WRITE) && !test_bit(i, block->on_device);
}

/*
 * Insert the @nr pages of @pages at @addr; make them writable if @writable.
 * vm_insert_pages() maps them with the VMA's write-notify protection; the
 * upgrade happens under the page-table lock and needs no TLB flush. A
 * thread that writes to one of them in between takes ->page_mkwrite, which
 * waits for the block lock held here: either way the PTE ends writable and
 * cpu_writable set.
 */
static void fault_insert_run(struct uvm_va_block *block,
			     struct vm_area_struct *vma, unsigned long addr,
			     struct page **pages, unsigned long nr,
			     bool writable)
{
	unsigned long left = nr, done;
	unsigned int idx = uvm_block_index(addr);

	vm_insert_pages(vma, addr, pages, &left);
	done = nr - left;
	if (!done)
		return;
	bitmap_set(block->cpu_mapped, idx, done);
	if (writable &&
	    !uvm_apply_to_existing_page_range(vma->vm_mm, addr,
					      done << PAGE_SHIFT,
					      pte_make_writable, vma->vm_mm))
		bitmap_set(block->cpu_writable, idx, done);
}

/*
 * Map the populated, unmapped pages of [first, last] but @skip, in runs of
 * equal writability: writable where page_may_map_writable() and @write.
 */
static void fault_map_around(struct uvm_va_block *block,
			     struct vm_area_struct *vma, unsigned int first,
			     unsigned int last, unsigned int skip, bool write)
{
	struct page *pages[64];
	unsigned long nr = 0;
	bool run_w = false, w;
	unsigned int i, start = 0;

	for (i = first; i <= last + 1; i++) {
		bool take = i <= last && i != skip && block->cpu_pages[i] &&
			    !test_bit(i, block->cpu_mapped);

		w = take && write && page_may_map_writable(block, vma, i);
		if (take && nr && nr < ARRAY_SIZE(pages) && w == run_w &&
		    i == start + nr) {
			pages[nr++] = block->cpu_pages[i];
			continue;
		}
		if (nr)
			fault_insert_run(block, vma, block->start +
					 ((unsigned long)start << PAGE_SHIFT),
					 pages, nr, run_w);
		nr = 0;
		if (take) {
			start = i;
			run_w = w;
			pages[nr++] = block->cpu_pages[i];
		}
	}
}

/* The device holding the only copy of page @i, or NULL. */
static struct uvm_block_dev *sole_device(struct uvm_va_block *block,
					 unsigned int i)
{
	struct uvm_block_dev *bd, *found = NULL;
	unsigned int d;

	if (block->cpu_pages[i])
		return NULL;
	for (d = 0; d < UVM_MAX_DEVICES; d++) {
		bd = block->dev[d];
		if (!bd || !test_bit(i, bd->resident))
			continue;
		if (found)
			return NULL;
		found = bd;
	}
	return found;
}

/*
 * The CPU may map the device copy instead of migrating it: the backend can
 * map its memory and policy says the CPU should access it in place.
 */
static bool cpu_maps_device_memory(const struct uvm_policy *pol,
				   struct uvm_block_dev *bd)
{
	if (!bd || pol->read_mostly ||
	    !(bd->udev->ops->caps & UVM_DEVICE_CAP_CPU_MAPPABLE))
		return false;
	return pol->accessed_by_host ||
	       (pol->preferred.type == UVM_LOC_DEVICE &&
		pol->preferred.id == bd->udev->id);
}

/*
 * The thrashing policy pinned the block to the device holding page @i
 * (@bd): the CPU maps that copy, if the backend lets it.
 */
static bool cpu_maps_pinned(struct uvm_va_block *block,
			    struct uvm_block_dev *bd)
{
	if (!bd || !(bd->udev->ops->caps & UVM_DEVICE_CAP_CPU_MAPPABLE) ||
	    !uvm_thrash_pinned_elsewhere(block, UVM_THRASH_HOST))
		return false;
	uvm_count(block->mgd, UVM_STAT_THRASH_PINNED, 1);
	uvm_event_thrash(block->mgd, block->start, UVM_EVENT_THRASH_PINNED,
			 UVM_THRASH_HOST, UVM_THRASH_PIN, 1);
	return true;
}

/* Map page @idx's device copy into the CPU page table. */
static vm_fault_t fault_map_device(struct uvm_va_block *block,
				   struct vm_fault *vmf,
				   struct uvm_block_dev *bd, unsigned int idx)
{
	struct vm_area_struct *vma = vmf->vma;
	unsigned long pfn, addr = vmf->address & PAGE_MASK;
	vm_fault_t ret;
	int id, err;

	if (!drm_dev_enter(&bd->udev->drm, &id))
		return VM_FAULT_SIGBUS;
	err = bd->udev->ops->cpu_pfn(bd->udev, bd->chunk->offset +
				     ((u64)idx << PAGE_SHIFT), &pfn);
	drm_dev_exit(id);
	if (err)
		return VM_FAULT_SIGBUS;
	/*
	 * A special PTE either way: get_user_pages() refuses it, so no pin
	 * can outlive the chunk, which may go to another process next.
	 */
	if (uvm_device_pfn_is_ram(bd->udev, pfn))	/* emulated: RAM */
		ret = uvm_vmf_insert_mixed(vma, addr, pfn);
	else			/* a BAR: write-combined */
		ret = vmf_insert_pfn_prot(vma, addr, pfn,
					  pgprot_writecombine(vma->vm_page_prot));
	if (ret != VM_FAULT_NOPAGE)
		return ret;
	set_bit(idx, block->cpu_mapped);
	set_bit(idx, block->cpu_maps_dev);
	uvm_count(block->mgd, UVM_STAT_CPU_DEVICE_MAPS, 1);
	return VM_FAULT_NOPAGE;
}

/*
 * Bring the window's device-only pages home (read-mostly ones: a copy),
 * as @cause; @moved: count it as the block moving (thrashing detection).
 */
static vm_fault_t fault_copy_home(struct uvm_va_block *block,
				  unsigned int first, unsigned int last,
				  int nid, u32 cause, bool moved)
{
	DECLARE_BITMAP(mask, UVM_BLOCK_PAGES);
	DECLARE_BITMAP(dup, UVM_BLOCK_PAGES);
	const struct uvm_policy_extent *ext = NULL;
	unsigned long va;
	unsigned int i;

	bitmap_zero(mask, UVM_BLOCK_PAGES);
	bitmap_zero(dup, UVM_BLOCK_PAGES);
	for (i = first; i <= last; i++) {
		if (block->cpu_pages[i] || !test_bit(i, block->on_device))
			continue;
		set_bit(i, mask);
		/* One policy lookup per extent, not per page. */
		va = block->start + ((unsigned long)i << PAGE_SHIFT);
		if (!ext || va < ext->start || va >= ext->end)
			ext = uvm_policy_extent_at(&block->mgd->policies, va);
		if (ext && ext->pol.read_mostly)
			set_bit(i, dup);
	}
	if (uvm_block_to_host_locked(block, nid, mask, dup, cause))
		return VM_FAULT_SIGBUS;
	if (moved && !bitmap_empty(mask, UVM_BLOCK_PAGES) &&
	    !bitmap_equal(mask, dup, UVM_BLOCK_PAGES))
		uvm_thrash_moved_locked(block, UVM_THRASH_HOST);
	uvm_count(block->mgd, UVM_STAT_READ_DUP_COPIES,
		  bitmap_weight(dup, UVM_BLOCK_PAGES));
	if (!bitmap_empty(dup, UVM_BLOCK_PAGES))
		trace_uvm_read_dup(block->start, bitmap_weight(dup, UVM_BLOCK_PAGES),
				   -1, false);
	uvm_event_read_dup(block->mgd, block->start,
			   bitmap_weight(dup, UVM_BLOCK_PAGES), -1, false);
	return 0;
}

/**
 * uvm_fault_block_home_locked() - bring the device-only pages of the
 * block's part of @vma home at once (read-mostly ones: a copy).
 * @block: the block; caller holds @block->lock.
 * @vma: a managed VMA overlapping the block.
 * @nid: host node.
 *
 * Return: 0 or VM_FAULT_SIGBUS.
 */
vm_fault_t uvm_fault_block_home_locked(struct uvm_va_block *block,
				       struct vm_area_struct *vma, int nid)
{
	unsigned long lo = max(vma->vm_start, block->start);
	unsigned long hi = min(vma->vm_end, block->start + UVM_BLOCK_SIZE);

	return fault_copy_home(block, uvm_block_index(lo),
			       uvm_block_index(hi - 1), nid, UVM_CAUSE_CPU_FAULT,
			       true);
}

/*
 * The region of the block a CPU fault on page @idx brings home or
 * populates, if the prefetch policy has a say: [*first, *last], clipped to
 * the VMA.
 */
static bool fault_region(struct uvm_va_block *block, struct vm_fault *vmf,
			 unsigned int idx, unsigned int *first,
			 unsigned int *last)
{
	DECLARE_BITMAP(resident, UVM_BLOCK_PAGES);
	struct uvm_prefetch_conf pf;
	unsigned int i, lo, hi;

	uvm_perf_prefetch(&block->mgd->perf, &pf);
	if (!uvm_prefetch_has_cpu_region(&pf))
		return false;
	bitmap_zero(resident, UVM_BLOCK_PAGES);
	for (i = 0; i < UVM_BLOCK_PAGES; i++)
		if (block->cpu_pages[i])
			set_bit(i, resident);
	if (!uvm_prefetch_cpu_region(&pf, resident, idx, first, last))
		return false;
	fault_window(block, vmf->vma, idx, UVM_BLOCK_PAGES, &lo, &hi);
	*first = max(*first, lo);
	*last = min(*last, hi);
	return true;
}

/*
 * Bring the region [first, last] home for a fault on page @idx: the page
 * as the fault's, the rest as prefetched (one move of the block).
 */
static vm_fault_t fault_region_home(struct uvm_va_block *block,
				    unsigned int idx, unsigned int first,
				    unsigned int last, int nid)
{
	vm_fault_t ret;

	ret = fault_copy_home(block, idx, idx, nid, UVM_CAUSE_CPU_FAULT, true);
	if (!ret && first < idx)
		ret = fault_copy_home(block, first, idx - 1, nid,
				      UVM_CAUSE_PREFETCH, false);
	if (!ret && idx < last)
		ret = fault_copy_home(block, idx + 1, last, nid,
				      UVM_CAUSE_PREFETCH, false);
	return ret;
}

/*
 * Map the window [first, last], the faulting page @idx included: on a write
 * fault writable where it may be, else read-only (as the page cache does).
 *
 * The fault handler installs every PTE itself, under the block lock, and
 * never hands a page to the core (it returns VM_FAULT_NOPAGE): a zap under
 * the block lock cannot race with a PTE being installed, so migrations need
 * no page locks. @idx may already be marked mapped, with its PTE (another
 * thread's fault won) or without (MADV_DONTNEED zapped it behind our back);
 * then it is inserted alone, and -EBUSY means the PTE is there.
 *
 * Return: 0, or the VM_FAULT_* code of a failed insertion of @idx.
 */
static vm_fault_t fault_map_window(struct uvm_va_block *block,
				   struct vm_area_struct *vma,
				   unsigned int first, unsigned int last,
				   unsigned int idx, bool write)
{
	unsigned long addr = block->start + ((unsigned long)idx << PAGE_SHIFT);
	bool was_mapped = test_bit(idx, block->cpu_mapped);
	int err;

	fault_map_around(block, vma, first, last, was_mapped ? idx : UINT_MAX,
			 write);
	if (!was_mapped && test_bit(idx, block->cpu_mapped))
		return 0;
	err = vm_insert_page(vma, addr, block->cpu_pages[idx]);
	if (err == -EBUSY)
		return 0;
	if (err)
		return vmf_error(err);
	set_bit(idx, block->cpu_mapped);
	return 0;
}

/**
 * uvm_fault_map_range_locked() - map every populated, unmapped host page of
 * [@first, @last] in the block's part of @vma, as a fault would.
 * @block: the block; caller holds @block->lock.
 * @vma: a managed VMA overlapping the block.
 * @first: first page index.
 * @last: last page index (inclusive).
 * @write: writable where allowed.
 */
void uvm_fault_map_range_locked(struct uvm_va_block *block,
				struct vm_area_struct *vma, unsigned int first,
				unsigned int last, bool write)
{
	unsigned long lo = max(vma->vm_start, block->start);
	unsigned int lo_idx, hi_idx;

	lockdep_assert_held(&block->lock);
	fault_window(block, vma, uvm_block_index(lo), UVM_BLOCK_PAGES, &lo_idx,
		     &hi_idx);
	first = max(first, lo_idx);
	last = min(last, hi_idx);
	if (first <= last)
		fault_map_around(block, vma, first, last, UINT_MAX, write);
}

/**
 * uvm_fault_map_block_locked() - map every populated, unmapped host page of
 * the block's part of @vma, as a fault would.
 * @block: the block; caller holds @block->lock.
 * @vma: a managed VMA overlapping the block.
 * @write: writable where allowed.
 */
void uvm_fault_map_block_locked(struct uvm_va_block *block,
				struct vm_area_struct *vma, bool write)
{
	uvm_fault_map_range_locked(block, vma, 0, UVM_BLOCK_PAGES - 1, write);
}

/*
 * All of the block's part of the VMA is home (a fault-back, or the tail
 * block fault-ahead left unmapped): map all of it, [*first, *last], and let
 * fault-ahead bring the next blocks (@sweep: this continues one).
 */
static void fault_block_home(struct uvm_va_block *block, struct vm_fault *vmf,
			     const struct uvm_policy *pol, bool sweep,
			     unsigned int *first, unsigned int *last)
{
	fault_window(block, vmf->vma, uvm_block_index(vmf->address),
		     UVM_BLOCK_PAGES, first, last);
	uvm_fault_ahead_kick(block->mgd, vmf->vma,
			     block->start + UVM_BLOCK_SIZE, vmf->address,
			     cpu_fault_node(pol),
			     vmf->flags & FAULT_FLAG_WRITE, sweep);
}

/*
 * Service a CPU fault on @block; *@nid: the node of the page mapped (left
 * alone when device memory is mapped), *@pages: host pages the block
 * gained (populated, or brought home).
 */
static vm_fault_t block_cpu_fault(struct uvm_va_block *block,
				  struct vm_fault *vmf,
				  const struct uvm_policy *pol, int *nid,
				  unsigned int *pages)
{
	bool write = vmf->flags & FAULT_FLAG_WRITE;
	unsigned int idx = uvm_block_index(vmf->address);
	unsigned int first, last, before, rfirst, rlast;
	struct uvm_block_dev *bd;
	bool region;
	vm_fault_t ret;

	uvm_thrash_nap(block, UVM_THRASH_HOST);	/* throttled: wait unlocked */
	mutex_lock(&block->lock);
	before = block->nr_cpu_pages;
	fault_window(block, vmf->vma, idx, READ_ONCE(uvm_fault_granule_pages),
		     &first, &last);
	region = fault_region(block, vmf, idx, &rfirst, &rlast);
	if (!block->cpu_pages[idx] && test_bit(idx, block->on_device)) {
		bd = sole_device(block, idx);
		if (cpu_maps_device_memory(pol, bd) || cpu_maps_pinned(block, bd))
			ret = fault_map_device(block, vmf, bd, idx);
		else if (region)
			ret = fault_region_home(block, idx, rfirst, rlast,
						cpu_fault_node(pol));
		else
			ret = uvm_fault_block_home_locked(block, vmf->vma,
							  cpu_fault_node(pol));
		if (ret) {
			mutex_unlock(&block->lock);
			return ret;
		}
		if (region) {
			first = rfirst;
			last = rlast;
		} else {
			fault_block_home(block, vmf, pol, false, &first, &last);
		}
	} else if (block->ahead_tail && block->cpu_pages[idx]) {
		/* A sweep reached the tail of fault-ahead's window. */
		block->ahead_tail = false;
		fault_block_home(block, vmf, pol, true, &first, &last);
	}
	if (!block->cpu_pages[idx]) {
		if (region) {	/* first touch grows by the same regions */
			first = rfirst;
			last = rlast;
		}
		uvm_block_populate_locked(block, first, last,
					  cpu_fault_node(pol), false);
		if (!block->cpu_pages[idx]) {
			mutex_unlock(&block->lock);
			return VM_FAULT_SIGBUS;	/* out of (cgroup) memory */
		}
	}
	ret = fault_map_window(block, vmf->vma, first, last, idx, write);
	if (!ret)
		*nid = page_to_nid(block->cpu_pages[idx]);
	*pages = block->nr_cpu_pages - before;
	mutex_unlock(&block->lock);
	return ret ?: VM_FAULT_NOPAGE;
}

/* The VA space of @vma, if the faulting mm owns it (see uvm_vma.c). */
static struct uvm_managed *vma_owner_mgd(struct vm_area_struct *vma)
{
	struct uvm_managed *mgd = vma->vm_private_data;

	return mgd && mgd->mm == vma->vm_mm ? mgd : NULL;
}

static vm_fault_t uvm_vm_fault(struct vm_fault *vmf)
{
	struct uvm_managed *mgd = vma_owner_mgd(vmf->vma);
	const struct uvm_policy *pol;
	struct uvm_va_block *block;
	vm_fault_t ret = VM_FAULT_SIGBUS;
	int nid = NUMA_NO_NODE;
	unsigned int pages = 0;
	u64 t0 = ktime_get_ns();

	if (!mgd)
		return VM_FAULT_SIGBUS;
	down_read(&mgd->lock);
	pol = uvm_policy_at(&mgd->policies, vmf->address);
	if (!pol)
		goto out_unlock;
	block = uvm_block_get(mgd, vmf->address);
	if (!block)
		goto out_unlock;	/* SIGBUS */
	ret = block_cpu_fault(block, vmf, pol, &nid, &pages);
	uvm_count(mgd, UVM_STAT_CPU_FAULTS, 1);
	if (nid != NUMA_NO_NODE)	/* not: device memory mapped, failure */
		trace_uvm_cpu_fault(vmf->address,
				    !!(vmf->flags & FAULT_FLAG_WRITE), nid,
				    ktime_get_ns() - t0);
	if (ret == VM_FAULT_NOPAGE)
		uvm_event_cpu_fault(mgd, vmf->address,
				    vmf->flags & FAULT_FLAG_WRITE, nid, pages,
				    ktime_get_ns() - t0);
out_unlock:
	up_read(&mgd->lock);
	return ret;
}

/*
 * A CPU write to a read-duplicated page: every device copy goes, the host
 * copy is the only one left.
 */
static void block_collapse_to_cpu(struct uvm_va_block *block, unsigned int idx)
{
	DECLARE_BITMAP(mask, UVM_BLOCK_PAGES);

	if (!block->cpu_pages[idx] || !test_bit(idx, block->on_device))
		return;
	bitmap_zero(mask, UVM_BLOCK_PAGES);
	set_bit(idx, mask);
	uvm_block_release_devs_locked(block, mask);
	uvm_count(block->mgd, UVM_STAT_READ_DUP_COLLAPSES, 1);
	trace_uvm_read_dup(block->start + ((unsigned long)idx << PAGE_SHIFT), 1,
			   -1, true);
	uvm_event_read_dup(block->mgd,
			   block->start + ((unsigned long)idx << PAGE_SHIFT), 1,
			   -1, true);
}

/*
 * A write through a CPU mapping of device memory: fine while that device
 * holds the only copy. If copies were made since (another device read it
 * as read-mostly), the PTE goes and the write faults again, the normal way
 * (home, collapsing the copies): a write into one copy would be lost.
 */
static bool cpu_device_map_may_write(struct uvm_va_block *block,
				     unsigned int idx)
{
	if (!test_bit(idx, block->cpu_maps_dev) || sole_device(block, idx))
		return true;
	uvm_block_zap_cpu_locked(block, idx, idx);
	return false;
}

/*
 * A write upgrade the handler cannot grant: the PTE maps something that is
 * no longer the page's copy of record (a stale PTE), or nothing is managed
 * there any more. Zap the PTE so the access faults again through ->fault,
 * which maps the right copy or answers SIGBUS: returning VM_FAULT_NOPAGE
 * with the PTE left as it was would retry the same write fault forever.
 */
static vm_fault_t mkwrite_refault(struct uvm_managed *mgd,
				  struct vm_fault *vmf)
{
	unmap_mapping_range(&mgd->mapping, vmf->address & PAGE_MASK,
			    PAGE_SIZE, 1);
	return VM_FAULT_NOPAGE;
}

/* ->page_mkwrite with the block found; its lock held. */
static vm_fault_t block_page_mkwrite_locked(struct uvm_va_block *block,
					    struct vm_fault *vmf)
{
	unsigned int idx = uvm_block_index(vmf->address);

	lockdep_assert_held(&block->lock);
	/* Device memory is mapped with special PTEs: ->pfn_mkwrite's. */
	if (block->cpu_pages[idx] != vmf->page)
		return mkwrite_refault(block->mgd, vmf);
	block_collapse_to_cpu(block, idx);
	set_bit(idx, block->cpu_mapped);
	set_bit(idx, block->cpu_writable);
	lock_page(vmf->page);
	return VM_FAULT_LOCKED;
}

static vm_fault_t uvm_vm_page_mkwrite(struct vm_fault *vmf)
{
	struct uvm_managed *mgd = vma_owner_mgd(vmf->vma);
	struct uvm_va_block *block;
	vm_fault_t ret;

	if (!mgd)
		return VM_FAULT_SIGBUS;
	down_read(&mgd->lock);
	block = xa_load(&mgd->blocks, vmf->address >> UVM_BLOCK_SHIFT);
	if (block) {
		mutex_lock(&block->lock);
		ret = block_page_mkwrite_locked(block, vmf);
		mutex_unlock(&block->lock);
		uvm_count(mgd, UVM_STAT_CPU_MKWRITE, 1);
	} else {
		ret = mkwrite_refault(mgd, vmf);
	}
	up_read(&mgd->lock);
	return ret;
}

/* Write upgrade of a PTE to device memory (no struct page behind it). */
static vm_fault_t uvm_vm_pfn_mkwrite(struct vm_fault *vmf)
{
	struct uvm_managed *mgd = vma_owner_mgd(vmf->vma);
	unsigned int idx = uvm_block_index(vmf->address);
	struct uvm_va_block *block;
	vm_fault_t ret;

	if (!mgd)
		return VM_FAULT_SIGBUS;
	down_read(&mgd->lock);
	block = xa_load(&mgd->blocks, vmf->address >> UVM_BLOCK_SHIFT);
	if (!block) {
		ret = mkwrite_refault(mgd, vmf);
		goto out_unlock;
	}
	mutex_lock(&block->lock);
	if (!test_bit(idx, block->cpu_maps_dev)) {
		ret = mkwrite_refault(mgd, vmf);
	} else if (cpu_device_map_may_write(block, idx)) {
		set_bit(idx, block->cpu_writable);
		ret = 0;
	} else {
		ret = VM_FAULT_NOPAGE;	/* zapped: fault again */
	}
	mutex_unlock(&block->lock);
out_unlock:
	up_read(&mgd->lock);
	return ret;
}

/* A split or move in the owner's mm, or fork() copying into another. */
static void uvm_vm_open(struct vm_area_struct *vma)
{
	struct uvm_managed *mgd = vma->vm_private_data;

	uvm_vma_open_foreign(vma, mgd->mm);
}

static void uvm_vm_close(struct vm_area_struct *vma)
{
	struct uvm_managed *mgd = vma_owner_mgd(vma);

	if (!mgd)
		return;
	down_write(&mgd->lock);
	uvm_managed_punch(mgd, vma->vm_start, vma->vm_end);
	uvm_policy_remove(&mgd->policies, vma->vm_start, vma->vm_end);
	up_write(&mgd->lock);
	uvm_event_range(mgd, UVM_EVENT_FREE, vma->vm_start, vma->vm_end);
}

/* Managed ranges cannot move: their file offset is their address. */
static int uvm_vm_mremap(struct vm_area_struct *vma)
{
	return -EINVAL;
}

const struct vm_operations_struct uvm_vm_ops = {
	.open		= uvm_vm_open,
	.fault		= uvm_vm_fault,
	.page_mkwrite	= uvm_vm_page_mkwrite,
	.pfn_mkwrite	= uvm_vm_pfn_mkwrite,
	.close		= uvm_vm_close,
	.mremap		= uvm_vm_mremap,
};
