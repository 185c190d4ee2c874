// SPDX-License-Identifier: GPL-2.0
/*
 * DOC: Advice and queries
 *
 * UVM_IOCTL_ADVISE sets or clears one policy on every page of a range (see
 * uvm_policy.c); UVM_IOCTL_RANGE_ATTRS reports what all pages of a range
 * agree on, exactly what cudaMemRangeGetAttribute(s) must answer; and
 * UVM_IOCTL_RESIDENCY snapshots where each page lives and who maps it. The
 * kernel holds this state; the library never shadows it.
 */
#include <linux/mm.h>
#include <linux/nodemask.h>
#include <linux/sizes.h>
#include <linux/slab.h>
#include <linux/topology.h>
#include <linux/uaccess.h>

#include "uvm_device.h"
#include "uvm_event_records.h"
#include "uvm_managed.h"
#include "uvm_pageable.h"

static bool device_id_valid(s32 id)
{
	struct uvm_device *udev;

	if (id < 0)
		return false;
	udev = uvm_device_get(id);
	if (!udev)
		return false;
	uvm_device_put(udev);
	return true;
}

/**
 * uvm_loc_resolve() - check a user location and resolve HOST_NUMA_CURRENT.
 * @in: the user's location.
 * @allowed: mask of UVM_LOC_ALLOW(type) the caller accepts.
 * @out: the resolved location.
 *
 * Return: 0; -EINVAL for a type not allowed, a non-zero id where none is
 * taken, or a NUMA node without memory; -ENODEV for an unknown device.
 */
int uvm_loc_resolve(const struct uvm_location *in, unsigned int allowed,
		    struct uvm_loc *out)
{
	if (in->type > UVM_LOC_HOST_NUMA_CURRENT ||
	    !(allowed & UVM_LOC_ALLOW(in->type)))
		return -EINVAL;

	switch (in->type) {
	case UVM_LOC_DEVICE:
		if (!device_id_valid(in->id))
			return -ENODEV;
		break;
	case UVM_LOC_HOST_NUMA:
		if (in->id < 0 || in->id >= MAX_NUMNODES ||
		    !node_state(in->id, N_MEMORY))
			return -EINVAL;
		break;
	case UVM_LOC_HOST_NUMA_CURRENT:
		if (in->id)
			return -EINVAL;
		*out = (struct uvm_loc){ UVM_LOC_HOST_NUMA, numa_node_id() };
		return 0;
	default:	/* NONE, HOST */
		if (in->id)
			return -EINVAL;
		break;
	}
	*out = (struct uvm_loc){ in->type, in->id };
	return 0;
}

struct advise_arg {
	u32 advice;
	struct uvm_loc loc;
};

static void advise_apply(struct uvm_policy *pol, const void *data)
{
	const struct advise_arg *arg = data;
	bool set = arg->advice == UVM_ADVISE_SET_ACCESSED_BY;

	switch (arg->advice) {
	case UVM_ADVISE_SET_READ_MOSTLY:
	case UVM_ADVISE_UNSET_READ_MOSTLY:
		pol->read_mostly = arg->advice == UVM_ADVISE_SET_READ_MOSTLY;
		break;
	case UVM_ADVISE_SET_PREFERRED_LOCATION:
		pol->preferred = arg->loc;
		break;
	case UVM_ADVISE_UNSET_PREFERRED_LOCATION:
		pol->preferred = (struct uvm_loc){ UVM_LOC_NONE, 0 };
		break;
	default:	/* SET/UNSET_ACCESSED_BY */
		if (arg->loc.type == UVM_LOC_HOST)
			pol->accessed_by_host = set;
		else if (set)
			pol->accessed_by |= BIT_ULL(arg->loc.id);
		else
			pol->accessed_by &= ~BIT_ULL(arg->loc.id);
		break;
	}
}

static int advise_check_loc(const struct uvm_advise *args,
			    struct uvm_loc *loc)
{
	const unsigned int none = UVM_LOC_ALLOW(UVM_LOC_NONE);
	const unsigned int preferred = UVM_LOC_ALLOW(UVM_LOC_DEVICE) |
				       UVM_LOC_ALLOW(UVM_LOC_HOST) |
				       UVM_LOC_ALLOW(UVM_LOC_HOST_NUMA) |
				       UVM_LOC_ALLOW(UVM_LOC_HOST_NUMA_CURRENT);
	const unsigned int accessed_by = UVM_LOC_ALLOW(UVM_LOC_DEVICE) |
					 UVM_LOC_ALLOW(UVM_LOC_HOST);

	switch (args->advice) {
	case UVM_ADVISE_SET_READ_MOSTLY:
	case UVM_ADVISE_UNSET_READ_MOSTLY:
	case UVM_ADVISE_UNSET_PREFERRED_LOCATION:
		return uvm_loc_resolve(&args->loc, none, loc);
	case UVM_ADVISE_SET_PREFERRED_LOCATION:
		return uvm_loc_resolve(&args->loc, preferred, loc);
	case UVM_ADVISE_SET_ACCESSED_BY:
	case UVM_ADVISE_UNSET_ACCESSED_BY:
		return uvm_loc_resolve(&args->loc, accessed_by, loc);
	default:
		return -EINVAL;
	}
}

int uvm_advise_ioctl(struct uvm_managed *mgd, struct uvm_advise *args)
{
	struct advise_arg arg = { .advice = args->advice };
	unsigned long start, end;
	int ret;

	if (args->flags)
		return -EINVAL;
	ret = advise_check_loc(args, &arg.loc);
	if (ret)
		return ret;
	ret = uvm_managed_range_check(mgd, args->addr, args->length, &start,
				      &end);
	if (ret)
		return ret;

	if (uvm_managed_pageable_range(mgd, start, end)) {
		ret = uvm_pageable_policy_update(mgd, start, end, advise_apply,
						 &arg);
	} else {
		down_write(&mgd->lock);
		if (uvm_managed_covered_locked(mgd, start, end))
			ret = uvm_policy_update(&mgd->policies, start, end,
						advise_apply, &arg);
		else
			ret = -EINVAL;
		up_write(&mgd->lock);
	}
	if (!ret) {
		uvm_count(mgd, UVM_STAT_ADVISES, 1);
		uvm_event_advise(mgd, args);
	}
	return ret;
}

static struct uvm_location loc_to_user(const struct uvm_loc *loc)
{
	return (struct uvm_location){ .type = loc->type, .id = loc->id };
}

int uvm_range_attrs_ioctl(struct uvm_managed *mgd,
			  struct uvm_range_attrs *args)
{
	struct uvm_policy sum;
	unsigned long start, end;
	int ret;

	if (args->flags)
		return -EINVAL;
	ret = uvm_managed_range_check(mgd, args->addr, args->length, &start,
				      &end);
	if (ret)
		return ret;

	if (uvm_managed_pageable_range(mgd, start, end)) {
		ret = uvm_pageable_policy_attrs(mgd, start, end, &sum);
		if (ret)
			return ret;
	} else {
		down_read(&mgd->lock);
		if (!uvm_managed_covered_locked(mgd, start, end)) {
			up_read(&mgd->lock);
			return -EINVAL;
		}
		uvm_policy_summarize(&mgd->policies, start, end, &sum);
		up_read(&mgd->lock);
	}

	args->read_mostly = sum.read_mostly;
	args->preferred = loc_to_user(&sum.preferred);
	args->last_prefetch = loc_to_user(&sum.last_prefetch);
	args->accessed_by_devices = sum.accessed_by;
	args->accessed_by_host = sum.accessed_by_host;
	args->pad = 0;
	return 0;
}

static void residency_fill_block(struct uvm_va_block *block,
				 unsigned long addr, unsigned int n,
				 struct uvm_page_residency *out)
{
	unsigned int i, d, idx = uvm_block_index(addr);
	struct uvm_block_dev *bd;
	struct page *page;

	mutex_lock(&block->lock);
	for (i = 0; i < n; i++, idx++) {
		for (d = 0; d < UVM_MAX_DEVICES; d++) {
			bd = block->dev[d];
			if (bd && test_bit(idx, bd->resident))
				out[i].devices_resident |= BIT_ULL(d);
			if (bd && test_bit(idx, bd->mapped))
				out[i].devices_mapped |= BIT_ULL(d);
		}
		page = block->cpu_pages[idx];
		if (page)
			out[i].cpu_node = page_to_nid(page);
		if (page || out[i].devices_resident)
			out[i].flags = UVM_PAGE_POPULATED;
		if (hweight64(out[i].devices_resident) + !!page > 1)
			out[i].flags |= UVM_PAGE_READ_DUPLICATED;
		if (test_bit(idx, block->cpu_mapped))
			out[i].flags |= UVM_PAGE_CPU_MAPPED;
		if (test_bit(idx, block->cpu_writable))
			out[i].flags |= UVM_PAGE_CPU_WRITABLE;
	}
	mutex_unlock(&block->lock);
}

/* Fill @out for the @n pages at @addr, all inside one block. */
static void residency_fill(struct uvm_managed *mgd, unsigned long addr,
			   unsigned int n, struct uvm_page_residency *out)
{
	struct uvm_va_block *block;
	unsigned int i;

	memset(out, 0, n * sizeof(*out));
	for (i = 0; i < n; i++)
		out[i].cpu_node = NUMA_NO_NODE;
	block = xa_load(&mgd->blocks, addr >> UVM_BLOCK_SHIFT);
	if (block)
		residency_fill_block(block, addr, n, out);
}

/*
 * One block at a time, dropping the lock around the copy-out: the user
 * buffer may be managed memory whose fault needs mmap_lock, which ranks
 * above our lock.
 */
int uvm_residency_ioctl(struct uvm_managed *mgd, struct uvm_residency *args)
{
	struct uvm_page_residency __user *upages = u64_to_user_ptr(args->pages);
	struct uvm_page_residency *buf;
	unsigned long start, end, addr, next;
	unsigned int n;
	int ret;

	if (args->flags || args->pad || !args->npages || args->npages > SZ_1M)
		return -EINVAL;
	ret = uvm_managed_range_check(mgd, round_down(args->addr, PAGE_SIZE),
				      args->npages << PAGE_SHIFT, &start, &end);
	if (ret)
		return ret;
	/* A bad range writes nothing (later blocks are re-checked: munmap). */
	down_read(&mgd->lock);
	ret = uvm_managed_covered_locked(mgd, start, end) ? 0 : -EINVAL;
	up_read(&mgd->lock);
	if (ret)
		return ret;
	buf = kvmalloc_array(UVM_BLOCK_PAGES, sizeof(*buf),
			     GFP_KERNEL | __GFP_NOWARN);
	if (!buf)
		return -ENOMEM;

	for (addr = start; !ret && addr < end; addr = next) {
		next = min(end, (addr | (UVM_BLOCK_SIZE - 1)) + 1);
		n = (next - addr) >> PAGE_SHIFT;
		down_read(&mgd->lock);
		if (uvm_managed_covered_locked(mgd, addr, next))
			residency_fill(mgd, addr, n, buf);
		else
			ret = -EINVAL;
		up_read(&mgd->lock);
		if (!ret && copy_to_user(upages, buf, n * sizeof(*buf)))
			ret = -EFAULT;
		upages += n;
	}
	kvfree(buf);
	return ret;
}

int uvm_stats_ioctl(struct uvm_managed *mgd, struct uvm_stats *args)
{
	struct uvm_counters *src = args->scope == UVM_STATS_GLOBAL ?
				   &uvm_global_counters : &mgd->counters;
	u64 __user *uvals = u64_to_user_ptr(args->values);
	u64 vals[UVM_STAT_COUNT];
	unsigned int i, n;

	if (args->flags || args->pad || args->scope > UVM_STATS_GLOBAL)
		return -EINVAL;
	n = min_t(u32, args->count, UVM_STAT_COUNT);
	for (i = 0; i < n; i++)
		vals[i] = atomic64_read(&src->v[i]);
	if (n && copy_to_user(uvals, vals, n * sizeof(*vals)))
		return -EFAULT;
	args->count = UVM_STAT_COUNT;
	return 0;
}

static void summary_block(struct uvm_va_block *block,
			  struct uvm_va_space_summary *sum)
{
	unsigned int i, d, nid;

	mutex_lock(&block->lock);
	for (i = 0; i < UVM_BLOCK_PAGES; i++) {
		if (!block->cpu_pages[i])
			continue;
		nid = page_to_nid(block->cpu_pages[i]);
		if (nid < UVM_SUMMARY_NODES)
			sum->host_pages[nid]++;
	}
	for (d = 0; d < UVM_MAX_DEVICES; d++)
		if (block->dev[d])
			sum->device_pages[d] += bitmap_weight(block->dev[d]->resident,
							      UVM_BLOCK_PAGES);
	mutex_unlock(&block->lock);
}

/**
 * uvm_va_space_summary_ioctl() - UVM_IOCTL_VA_SPACE_SUMMARY.
 * @mgd: managed state.
 * @args: the user's arguments.
 *
 * Return: 0 or -EINVAL for non-zero flags or pad.
 */
int uvm_va_space_summary_ioctl(struct uvm_managed *mgd,
			       struct uvm_va_space_summary *args)
{
	struct uvm_policy_extent *ext;
	struct uvm_va_block *block;
	unsigned long index = 0;

	if (args->flags || args->pad)
		return -EINVAL;
	memset(args, 0, sizeof(*args));
	down_read(&mgd->lock);
	mt_for_each(&mgd->policies.tree, ext, index, ULONG_MAX)
		args->managed_pages += (ext->end - ext->start) >> PAGE_SHIFT;
	xa_for_each(&mgd->blocks, index, block)
		summary_block(block, args);
	up_read(&mgd->lock);
	return 0;
}
