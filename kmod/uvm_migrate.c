// SPDX-License-Identifier: GPL-2.0
/*
 * DOC: Prefetch
 *
 * UVM_IOCTL_PREFETCH moves [addr, addr + length) to a location: pages with
 * no backing are populated there (zeroed), populated pages migrate there:
 * host node to host node (allocate on the target with __GFP_THISNODE, zap
 * the CPU PTEs, copy on the copy engine, free the old pages:
 * uvm_block_host.c), host or another device to a device (one batched copy
 * per block into the block's chunk, evicting other data when the device is
 * full), device to host.
 * Read-mostly pages get a copy at the destination and keep their others.
 * The requested location is recorded as every page's last prefetch
 * location before any data moves, as CUDA reports the request, not its
 * completion. A plain HOST target leaves host-resident pages where they
 * are and brings the rest to the caller's node.
 *
 * The VA space lock is taken for write to record the request, then
 * downgraded so faults proceed on other blocks while data moves block by
 * block. A fatal signal stops a long prefetch between blocks.
 *
 * A prefetch to a host location maps every page it covers in the CPU page
 * table, as CUDA does (the caller's next touch does not fault; smaps and
 * move_pages(2) see the pages): mmap_lock is held for read throughout.
 *
 * UVM_IOCTL_DISCARD drops every copy of the pages wholly inside a range and
 * optionally prefetches the range afterwards.
 */
#include <linux/mm.h>
#include <linux/sched/signal.h>
#include <linux/slab.h>
#include <linux/timekeeping.h>
#include <linux/topology.h>

#include "uvm_device.h"
#include "uvm_event_records.h"
#include "uvm_managed.h"
#include "uvm_pageable.h"
#include "uvm_trace.h"

static void prefetch_record(struct uvm_policy *pol, const void *data)
{
	pol->last_prefetch = *(const struct uvm_loc *)data;
}

/* Pages of [addr, next) (one block) whose policy is read-mostly. */
static void read_mostly_mask(struct uvm_managed *mgd, unsigned long addr,
			     unsigned long next, unsigned long *mask)
{
	unsigned long base = round_down(addr, UVM_BLOCK_SIZE), index = addr;
	struct uvm_policy_extent *ext;
	unsigned long lo, hi;

	bitmap_zero(mask, UVM_BLOCK_PAGES);
	mt_for_each(&mgd->policies.tree, ext, index, next - 1) {
		if (!ext->pol.read_mostly)
			continue;
		lo = max(ext->start, addr);
		hi = min(ext->end, next);
		bitmap_set(mask, (lo - base) >> PAGE_SHIFT, (hi - lo) >> PAGE_SHIFT);
	}
}

/*
 * Map the pages of a prefetch on the device: the destination gets a mapping
 * (the read-only copies of read-mostly pages read-only), so the device's
 * next access does not fault.
 */
static int prefetch_map_dev_locked(struct uvm_va_block *block,
				   struct uvm_device *udev,
				   const unsigned long *mask,
				   const unsigned long *dup)
{
	DECLARE_BITMAP(rw, UVM_BLOCK_PAGES);
	DECLARE_BITMAP(ro, UVM_BLOCK_PAGES);
	int ret;

	bitmap_andnot(rw, mask, dup, UVM_BLOCK_PAGES);
	bitmap_and(ro, mask, dup, UVM_BLOCK_PAGES);
	ret = uvm_block_map_dev_locked(block, udev, rw, udev->id, true);
	if (!ret && !bitmap_empty(ro, UVM_BLOCK_PAGES))
		ret = uvm_block_map_dev_locked(block, udev, ro, udev->id, false);
	return ret;
}

/* Pages the program asked to move: cause "user", no fault batch clock. */
static const struct uvm_move_ctx user_move = { .cause = UVM_CAUSE_USER };

/**
 * struct prefetch_op - one block of a prefetch, begun (its block locked,
 * its copy started) and not yet ended.
 * @dev: the move, to a device;
 * @node: or to a host node (a plain host target moves at once).
 * @dst: the destination.
 * @udev: the destination device, or NULL.
 * @block: the block.
 * @first: first page of the block's part of the range.
 * @last: its last page (inclusive).
 * @mask: its pages.
 * @dup: those of them that are read-mostly (duplicated, not moved).
 */
struct prefetch_op {
	union {
		struct uvm_to_dev dev;
		struct uvm_to_node node;
	};
	const struct uvm_loc *dst;
	struct uvm_device *udev;
	struct uvm_va_block *block;
	unsigned int first, last;
	DECLARE_BITMAP(mask, UVM_BLOCK_PAGES);
	DECLARE_BITMAP(dup, UVM_BLOCK_PAGES);
};

/*
 * Map the block's pages [@first, @last] in the CPU page table, as CUDA
 * does after a prefetch to the host (smaps' Rss and move_pages(2) see them,
 * and the CPU's first touch does not fault): every VMA of this VA space
 * there, writable where the VMA and the page's copies allow. The caller
 * holds the mm's mmap_lock (prefetch_locked_range()).
 */
static void prefetch_map_cpu_locked(struct uvm_va_block *block,
				    unsigned int first, unsigned int last)
{
	unsigned long addr = block->start + ((unsigned long)first << PAGE_SHIFT);
	unsigned long end = block->start + ((unsigned long)(last + 1) << PAGE_SHIFT);
	struct mm_struct *mm = block->mgd->mm;
	struct vm_area_struct *vma;

	lockdep_assert_held(&block->lock);
	mmap_assert_locked(mm);
	for (vma = find_vma(mm, addr); vma && vma->vm_start < end;
	     vma = find_vma(mm, vma->vm_end)) {
		if (vma->vm_ops == &uvm_vm_ops &&
		    vma->vm_private_data == block->mgd)
			uvm_fault_map_range_locked(block, vma, first, last,
						   vma->vm_flags & VM_WRITE);
	}
}

/* Begin @op's move; its block is locked. */
static int prefetch_begin_locked(struct prefetch_op *op)
{
	switch (op->dst->type) {
	case UVM_LOC_DEVICE:
		return uvm_block_to_dev_begin_locked(&op->dev, op->block,
						     op->udev, op->mask,
						     op->dup, &user_move);
	case UVM_LOC_HOST_NUMA:
		return uvm_block_to_node_begin_locked(&op->node, op->block,
						      op->first, op->last,
						      op->dst->id, op->dup);
	default:
		return uvm_block_to_host_locked(op->block, numa_node_id(),
						op->mask, op->dup,
						UVM_CAUSE_USER);
	}
}

/*
 * Wait for @op's copy, map its pages at the destination (on the device, or
 * in the CPU page table), unlock its block.
 */
static int prefetch_end(struct prefetch_op *op)
{
	struct uvm_va_block *block = op->block;
	int ret = 0;

	switch (op->dst->type) {
	case UVM_LOC_DEVICE:
		ret = uvm_block_to_dev_end_locked(&op->dev);
		/* Pages get_user_pages() holds stayed home: not mapped there. */
		bitmap_andnot(op->mask, op->mask, op->dev.held,
			      UVM_BLOCK_PAGES);
		if (!ret)
			ret = prefetch_map_dev_locked(block, op->udev, op->mask,
						      op->dup);
		break;
	case UVM_LOC_HOST_NUMA:
		ret = uvm_block_to_node_end_locked(&op->node);
		fallthrough;
	default:
		if (!ret)
			prefetch_map_cpu_locked(block, op->first, op->last);
	}
	mutex_unlock(&block->lock);
	return ret;
}

/*
 * Lock the block of [@addr, @next) and begin moving it, as @op.
 * *@prev, if not NULL, is the previous block's move, its copy perhaps still
 * running: this block is only trylocked then (block locks never nest but
 * by trylock), and if that fails or the destination needs the room (a
 * device's memory, a node's pages: the previous move frees some when it
 * ends), *@prev is ended first (and set to NULL).
 */
static int prefetch_begin(struct uvm_managed *mgd, unsigned long addr,
			  unsigned long next, struct prefetch_op *op,
			  struct prefetch_op **prev)
{
	int ret;

	op->block = uvm_block_get(mgd, addr);
	if (!op->block)
		return -ENOMEM;
	op->first = uvm_block_index(addr);
	op->last = uvm_block_index(next - 1);
	read_mostly_mask(mgd, addr, next, op->dup);
	bitmap_zero(op->mask, UVM_BLOCK_PAGES);
	bitmap_set(op->mask, op->first, op->last - op->first + 1);

	if (*prev && !mutex_trylock(&op->block->lock)) {
		ret = prefetch_end(*prev);
		*prev = NULL;
		if (ret)
			return ret;
	}
	if (!*prev)
		mutex_lock(&op->block->lock);
	ret = prefetch_begin_locked(op);
	if ((ret == -ENOSPC || ret == -ENOMEM) && *prev) {
		ret = prefetch_end(*prev);
		*prev = NULL;
		if (!ret)
			ret = prefetch_begin_locked(op);
	}
	if (ret)
		mutex_unlock(&op->block->lock);
	return ret;
}

/*
 * Prefetch [@start, @end) to @dst (@udev: the device, or NULL), a block at
 * a time, in a pipeline of two: while the copy engine's helpers copy one
 * block, this thread locks the next, zaps its CPU PTEs and starts its
 * copy, then ends the first (its bookkeeping and its mappings, on the
 * device or in the CPU page table, overlap the next copy). Under TCG with
 * two CPUs: 3.5 to 4.3 GB/s host to device (6.1).
 */
static int prefetch_blocks(struct uvm_managed *mgd, unsigned long start,
			   unsigned long end, const struct uvm_loc *dst,
			   struct uvm_device *udev)
{
	struct prefetch_op *ops, *op, *prev = NULL;
	unsigned long addr, next;
	unsigned int n = 0;
	int ret = 0, err;
	bool begun;

	/* 9 KiB (a node move keeps a page pointer per page): no order-2 need. */
	ops = kvmalloc_array(2, sizeof(*ops), GFP_KERNEL | __GFP_NOWARN);
	if (!ops)
		return -ENOMEM;
	for (addr = start; addr < end; addr = next) {
		next = min(end, (addr | (UVM_BLOCK_SIZE - 1)) + 1);
		op = &ops[n++ & 1];
		op->dst = dst;
		op->udev = udev;
		if (fatal_signal_pending(current))
			ret = -EINTR;
		else
			ret = prefetch_begin(mgd, addr, next, op, &prev);
		begun = !ret;
		if (prev) {
			err = prefetch_end(prev);
			ret = ret ?: err;
		}
		prev = begun ? op : NULL;
		if (ret)
			break;
	}
	if (prev) {
		err = prefetch_end(prev);
		ret = ret ?: err;
	}
	kvfree(ops);
	return ret;
}

static int prefetch_range(struct uvm_managed *mgd, unsigned long start,
			  unsigned long end, const struct uvm_loc *dst)
{
	struct uvm_device *udev = NULL;
	int ret;

	if (dst->type == UVM_LOC_DEVICE) {
		udev = uvm_device_get(dst->id);
		if (!udev)
			return -ENODEV;
	}
	ret = prefetch_blocks(mgd, start, end, dst, udev);
	if (udev)
		uvm_device_put(udev);
	return ret;
}

/*
 * Record the request, then move the data (lock downgraded meanwhile). A
 * prefetch to the host maps what it moved, so it holds the mm's mmap_lock
 * (taken first: the lock order) for read throughout.
 */
static int prefetch_locked_range(struct uvm_managed *mgd, unsigned long start,
				 unsigned long end, const struct uvm_loc *dst,
				 const struct uvm_loc *asked)
{
	bool to_host = dst->type != UVM_LOC_DEVICE;
	u64 t0;
	int ret;

	if (to_host && mmap_read_lock_killable(mgd->mm))
		return -EINTR;
	down_write(&mgd->lock);
	if (!uvm_managed_covered_locked(mgd, start, end)) {
		ret = -EINVAL;
		goto out_unlock_write;
	}
	ret = uvm_policy_update(&mgd->policies, start, end, prefetch_record,
				asked);
	if (ret)
		goto out_unlock_write;
	uvm_count(mgd, UVM_STAT_PREFETCHES, 1);
	downgrade_write(&mgd->lock);
	t0 = ktime_get_ns();
	ret = prefetch_range(mgd, start, end, dst);
	up_read(&mgd->lock);
	trace_uvm_prefetch(start, end - start, dst->type, dst->id,
			   ktime_get_ns() - t0);
	goto out_unlock_mm;

out_unlock_write:
	up_write(&mgd->lock);
out_unlock_mm:
	if (to_host)
		mmap_read_unlock(mgd->mm);
	return ret;
}

static const unsigned int prefetch_allowed = UVM_LOC_ALLOW(UVM_LOC_DEVICE) |
					     UVM_LOC_ALLOW(UVM_LOC_HOST) |
					     UVM_LOC_ALLOW(UVM_LOC_HOST_NUMA) |
					     UVM_LOC_ALLOW(UVM_LOC_HOST_NUMA_CURRENT);

/*
 * The location a prefetch records as its last (what cudaMemRangeGetAttribute
 * reports): the type asked, HOST_NUMA_CURRENT included, with the node it
 * resolved to.
 */
static int prefetch_asked(const struct uvm_prefetch *args,
			  const struct uvm_loc *dst, struct uvm_loc *asked)
{
	*asked = *dst;
	if (args->dst.type == UVM_LOC_HOST_NUMA_CURRENT)
		asked->type = UVM_LOC_HOST_NUMA_CURRENT;
	if (!(args->flags & UVM_PREFETCH_NUMA_CURRENT))
		return 0;
	if (args->dst.type != UVM_LOC_HOST_NUMA)
		return -EINVAL;
	asked->type = UVM_LOC_HOST_NUMA_CURRENT;
	return 0;
}

/*
 * A prefetch of pageable memory to a device (the migration level): move it
 * there, and record it as the last prefetch location.
 */
static int prefetch_pageable(struct uvm_managed *mgd, unsigned long start,
			     unsigned long end, const struct uvm_loc *dst)
{
	struct uvm_device *udev = uvm_device_get(dst->id);
	u64 t0 = ktime_get_ns();
	int ret;

	if (!udev)
		return -ENODEV;
	ret = uvm_pageable_prefetch(mgd, udev, start, end);
	uvm_device_put(udev);
	if (!ret)
		ret = uvm_pageable_policy_update(mgd, start, end,
						 prefetch_record, dst);
	trace_uvm_prefetch(start, end - start, dst->type, dst->id,
			   ktime_get_ns() - t0);
	return ret;
}

int uvm_prefetch_ioctl(struct uvm_managed *mgd, struct uvm_prefetch *args)
{
	unsigned long start, end;
	struct uvm_loc dst, asked;
	int ret;

	if ((args->flags & ~UVM_PREFETCH_NUMA_CURRENT) || args->pad)
		return -EINVAL;
	ret = uvm_loc_resolve(&args->dst, prefetch_allowed, &dst) ?:
	      prefetch_asked(args, &dst, &asked);
	if (ret)
		return ret;
	ret = uvm_managed_range_check(mgd, args->addr, args->length, &start,
				      &end);
	if (ret)
		return ret;
	if (dst.type == UVM_LOC_DEVICE &&
	    uvm_managed_pageable_range(mgd, start, end))
		ret = prefetch_pageable(mgd, start, end, &dst);
	else
		ret = prefetch_locked_range(mgd, start, end, &dst, &asked);
	uvm_event_prefetch(mgd, args, ret);
	return ret;
}

/* Drop every copy of the pages [first, last] of @block. */
static unsigned int discard_block(struct uvm_va_block *block,
				  unsigned int first, unsigned int last)
{
	DECLARE_BITMAP(mask, UVM_BLOCK_PAGES);
	unsigned int i, n = 0;

	bitmap_zero(mask, UVM_BLOCK_PAGES);
	bitmap_set(mask, first, last - first + 1);
	mutex_lock(&block->lock);
	for (i = first; i <= last; i++)
		n += uvm_block_page_populated(block, i);
	uvm_block_drop_host_locked(block, mask);
	uvm_block_release_devs_locked(block, mask);
	mutex_unlock(&block->lock);
	return n;
}

static int discard_range(struct uvm_managed *mgd, unsigned long start,
			 unsigned long end)
{
	struct uvm_va_block *block;
	unsigned long addr, next;
	u64 n = 0;

	down_read(&mgd->lock);
	if (!uvm_managed_covered_locked(mgd, start, end)) {
		up_read(&mgd->lock);
		return -EINVAL;
	}
	for (addr = start; addr < end; addr = next) {
		next = min(end, (addr | (UVM_BLOCK_SIZE - 1)) + 1);
		block = xa_load(&mgd->blocks, addr >> UVM_BLOCK_SHIFT);
		if (block)
			n += discard_block(block, uvm_block_index(addr),
					   uvm_block_index(next - 1));
	}
	up_read(&mgd->lock);
	uvm_count(mgd, UVM_STAT_DISCARDED_PAGES, n);
	trace_uvm_discard(start, n);
	return 0;
}

/**
 * uvm_discard_ioctl() - UVM_IOCTL_DISCARD.
 * @mgd: managed state.
 * @args: the user's arguments.
 *
 * Only pages wholly inside the range are discarded (rounding outward would
 * destroy bytes the caller kept); the optional prefetch covers the range
 * rounded out, like any prefetch.
 *
 * Return: 0 or a negative errno, as for prefetch.
 */
int uvm_discard_ioctl(struct uvm_managed *mgd, struct uvm_discard *args)
{
	const struct uvm_location zero = { };
	unsigned long start, end, in_start, in_end;
	struct uvm_loc dst, asked;
	int ret;

	if ((args->flags & ~UVM_DISCARD_PREFETCH) || args->pad)
		return -EINVAL;
	if (args->flags & UVM_DISCARD_PREFETCH)
		ret = uvm_loc_resolve(&args->dst, prefetch_allowed, &dst);
	else
		ret = memcmp(&args->dst, &zero, sizeof(zero)) ? -EINVAL : 0;
	if (ret)
		return ret;
	ret = uvm_managed_range_check(mgd, args->addr, args->length, &start,
				      &end);
	if (ret)
		return ret;
	in_start = round_up(args->addr, PAGE_SIZE);
	in_end = round_down(args->addr + args->length, PAGE_SIZE);
	if (in_start < in_end) {
		ret = discard_range(mgd, in_start, in_end);
		if (ret)
			return ret;
	} else if (!(args->flags & UVM_DISCARD_PREFETCH)) {
		down_read(&mgd->lock);	/* nothing to drop: still validate */
		ret = uvm_managed_covered_locked(mgd, start, end) ? 0 : -EINVAL;
		up_read(&mgd->lock);
	}
	if (!ret && (args->flags & UVM_DISCARD_PREFETCH)) {
		asked = dst;
		if (args->dst.type == UVM_LOC_HOST_NUMA_CURRENT)
			asked.type = UVM_LOC_HOST_NUMA_CURRENT;
		ret = prefetch_locked_range(mgd, start, end, &dst, &asked);
	}
	return ret;
}
