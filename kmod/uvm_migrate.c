// SPDX-License-Identifier: GPL-2.0
/*
 * DOC: Prefetch
 *
 * UVM_IOCTL_PREFETCH moves [addr, addr + length) to a location: pages with
 * no backing are populated there, populated pages migrate there (host node
 * to host node: allocate on the target with __GFP_THISNODE, zap the CPU
 * PTEs, copy, free the old page - a run of pages per pass). The requested
 * location is recorded as every page's last prefetch location before any
 * data moves, as CUDA reports the request, not its completion. A plain HOST
 * target leaves host-resident pages where they are and populates the rest
 * on the caller's node.
 *
 * The VA space lock is taken for write to record the request, then
 * downgraded so faults proceed on other blocks while data moves block by
 * block. A fatal signal stops a long prefetch between blocks.
 */
#include <linux/sched/signal.h>
#include <linux/topology.h>

#include "uvm_managed.h"
#include "uvm_trace.h"

static void prefetch_record(struct uvm_policy *pol, const void *data)
{
	pol->last_prefetch = *(const struct uvm_loc *)data;
}

static int prefetch_block(struct uvm_managed *mgd, unsigned long addr,
			  unsigned long next, const struct uvm_loc *dst)
{
	unsigned int first = uvm_block_index(addr);
	unsigned int last = uvm_block_index(next - 1);
	struct uvm_va_block *block;
	int ret;

	block = uvm_block_get(mgd, addr);
	if (!block)
		return -ENOMEM;

	mutex_lock(&block->lock);
	if (dst->type == UVM_LOC_HOST_NUMA)
		ret = uvm_block_migrate_host_locked(block, first, last, dst->id);
	else
		ret = uvm_block_populate_locked(block, first, last,
						numa_node_id(), false);
	mutex_unlock(&block->lock);
	return ret;
}

static int prefetch_range(struct uvm_managed *mgd, unsigned long start,
			  unsigned long end, const struct uvm_loc *dst)
{
	unsigned long addr, next;
	int ret = 0;

	for (addr = start; !ret && addr < end; addr = next) {
		next = min(end, (addr | (UVM_BLOCK_SIZE - 1)) + 1);
		if (fatal_signal_pending(current))
			return -EINTR;
		ret = prefetch_block(mgd, addr, next, dst);
	}
	return ret;
}

int uvm_prefetch_ioctl(struct uvm_managed *mgd, struct uvm_prefetch *args)
{
	const unsigned int allowed = UVM_LOC_ALLOW(UVM_LOC_DEVICE) |
				     UVM_LOC_ALLOW(UVM_LOC_HOST) |
				     UVM_LOC_ALLOW(UVM_LOC_HOST_NUMA) |
				     UVM_LOC_ALLOW(UVM_LOC_HOST_NUMA_CURRENT);
	unsigned long start, end;
	struct uvm_loc dst;
	int ret;

	if (args->flags || args->pad)
		return -EINVAL;
	ret = uvm_loc_resolve(&args->dst, allowed, &dst);
	if (ret)
		return ret;
	if (dst.type == UVM_LOC_DEVICE)
		return -EOPNOTSUPP;	/* device residency: not yet */
	ret = uvm_managed_range_check(mgd, args->addr, args->length, &start,
				      &end);
	if (ret)
		return ret;

	down_write(&mgd->lock);
	if (!uvm_managed_covered_locked(mgd, start, end)) {
		up_write(&mgd->lock);
		return -EINVAL;
	}
	ret = uvm_policy_update(&mgd->policies, start, end, prefetch_record,
				&dst);
	if (ret) {
		up_write(&mgd->lock);
		return ret;
	}
	uvm_count(mgd, UVM_STAT_PREFETCHES, 1);
	downgrade_write(&mgd->lock);
	ret = prefetch_range(mgd, start, end, &dst);
	up_read(&mgd->lock);
	return ret;
}
