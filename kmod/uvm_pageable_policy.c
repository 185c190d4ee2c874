// SPDX-License-Identifier: GPL-2.0
/*
 * DOC: Pageable memory, the migration level: advice and prefetch records
 *
 * Where pageable memory migrates (uvm_pageable_migrate.c), advice applies
 * to it as to managed memory and a prefetch to a device is recorded as the
 * last prefetch location, both kept per range in the VA space's
 * @pageable_policies (struct uvm_policy_map, under the VA space's lock):
 * extents only where something was given; everywhere else the default
 * (nothing set). Unmapping memory drops what was kept for it: the mirror's
 * notifier notes each range munmap or exit takes away, and the policies
 * catch up before their next use.
 *
 * What the advice does to a device fault by device D on such memory:
 * - read-mostly: the pages stay where they are, mapped remotely (device
 *   pages cannot be duplicated: a device-private page has one owner);
 * - preferred location D: they move to D; any other preferred location
 *   (the host, a node, another device): they stay, mapped remotely;
 * - D in accessed-by (and no preferred location): they stay, mapped
 *   remotely (D keeps a mapping wherever the data is);
 * - nothing: they move to D.
 * A CPU fault always takes a page home (the CPU cannot map device-private
 * memory). An explicit prefetch moves the range whatever the advice, as
 * CUDA's does.
 */
#include <linux/mm.h>
#include <linux/rwsem.h>

#include "uvm_device.h"
#include "uvm_managed.h"
#include "uvm_pageable.h"
#include "uvm_policy.h"

/* Drop the advice of what was unmapped. mgd->lock held for write. */
static void pp_catch_up_locked(struct uvm_managed *mgd)
{
	struct uvm_pg_range r[UVM_PG_UNMAPPED_MAX];
	unsigned int n, i;
	bool all;

	n = uvm_pageable_unmapped(mgd, r, &all);
	if (all) {
		uvm_policy_map_destroy(&mgd->pageable_policies);
		uvm_policy_map_init(&mgd->pageable_policies);
		return;
	}
	for (i = 0; i < n; i++)
		uvm_policy_remove(&mgd->pageable_policies, r[i].start, r[i].end);
}

/* Take mgd->lock for reading, the policies caught up with every unmap. */
static void pp_read_lock(struct uvm_managed *mgd)
{
	if (!uvm_pageable_unmaps_pending(mgd)) {
		down_read(&mgd->lock);
		return;
	}
	down_write(&mgd->lock);
	pp_catch_up_locked(mgd);
	downgrade_write(&mgd->lock);
}

/* Extents with the default policy where [@start, @end) has none. */
static int pp_cover_locked(struct uvm_policy_map *map, unsigned long start,
			   unsigned long end)
{
	struct uvm_policy_extent *ext;
	unsigned long addr = start, index, gap_end;
	int ret;

	while (addr < end) {
		index = addr;
		ext = mt_find(&map->tree, &index, end - 1);
		if (ext && ext->start <= addr) {
			addr = ext->end;
			continue;
		}
		gap_end = ext ? ext->start : end;
		ret = uvm_policy_add(map, addr, gap_end);
		if (ret)
			return ret;
		addr = gap_end;
	}
	return 0;
}

/**
 * uvm_pageable_policy_update() - apply @fn to the policies of pageable
 * memory [@start, @end) (advice, a prefetch's record).
 * @mgd: the VA space; no lock held.
 * @start: page aligned.
 * @end: page aligned.
 * @fn: what to do to each run's policy.
 * @arg: its argument.
 *
 * Return: 0, -EFAULT (a hole), -EINVAL (driver memory), -ENOMEM, -EINTR.
 */
int uvm_pageable_policy_update(struct uvm_managed *mgd, unsigned long start,
			       unsigned long end, uvm_policy_fn fn,
			       const void *arg)
{
	struct uvm_pageable *pg = uvm_pageable_get(mgd);	/* notes unmaps */
	int ret;

	if (IS_ERR(pg))
		return PTR_ERR(pg);
	ret = uvm_pageable_vmas(mgd->mm, start, end, UVM_PGV_DRIVER_EINVAL);
	if (ret)
		return ret;
	down_write(&mgd->lock);
	pp_catch_up_locked(mgd);
	ret = pp_cover_locked(&mgd->pageable_policies, start, end) ?:
	      uvm_policy_update(&mgd->pageable_policies, start, end, fn, arg);
	up_write(&mgd->lock);
	return ret;
}

/**
 * uvm_pageable_policy_attrs() - what every page of pageable memory
 * [@start, @end) agrees on (see uvm_policy_summarize()).
 * @mgd: the VA space; no lock held.
 * @start: page aligned.
 * @end: page aligned.
 * @sum: out.
 *
 * Return: 0, -EFAULT (a hole), -EINVAL (driver memory), -EINTR.
 */
int uvm_pageable_policy_attrs(struct uvm_managed *mgd, unsigned long start,
			      unsigned long end, struct uvm_policy *sum)
{
	const struct uvm_policy none = {
		.preferred = { UVM_LOC_NONE, 0 },
		.last_prefetch = { UVM_LOC_NONE, 0 },
	};
	struct uvm_policy_extent *ext;
	unsigned long addr = start, index = start;
	bool first = true;
	int ret;

	ret = uvm_pageable_vmas(mgd->mm, start, end, UVM_PGV_DRIVER_EINVAL);
	if (ret)
		return ret;
	pp_read_lock(mgd);
	mt_for_each(&mgd->pageable_policies.tree, ext, index, end - 1) {
		if (ext->start > addr) {	/* a gap: nothing set there */
			uvm_policy_fold(sum, &none, first);
			first = false;
		}
		uvm_policy_fold(sum, &ext->pol, first);
		first = false;
		addr = ext->end;
	}
	if (addr < end)
		uvm_policy_fold(sum, &none, first);
	up_read(&mgd->lock);
	return 0;
}

/* Does the advice send device @udev's faults on @pol's pages to it? */
static bool pp_moves(const struct uvm_policy *pol, const struct uvm_device *udev)
{
	if (pol->read_mostly)
		return false;
	if (pol->preferred.type != UVM_LOC_NONE)
		return pol->preferred.type == UVM_LOC_DEVICE &&
		       pol->preferred.id == (s32)udev->id;
	return !(pol->accessed_by & BIT_ULL(udev->id));
}

/**
 * uvm_pageable_policy_moves() - should a fault of @udev move pageable
 * memory from @start to the device?
 * @mgd: the VA space; no lock held.
 * @udev: the faulting device.
 * @start: page aligned.
 * @end: page aligned, above @start.
 *
 * @moves: out, the answer.
 *
 * Return: the end of the run from @start the answer holds for (at most
 * @end).
 */
unsigned long uvm_pageable_policy_moves(struct uvm_managed *mgd,
					const struct uvm_device *udev,
					unsigned long start, unsigned long end,
					bool *moves)
{
	struct uvm_policy_extent *ext;
	unsigned long index = start;

	pp_read_lock(mgd);
	ext = mt_find(&mgd->pageable_policies.tree, &index, end - 1);
	if (!ext || ext->start > start) {
		*moves = true;
		end = ext ? ext->start : end;
	} else {
		*moves = pp_moves(&ext->pol, udev);
		end = min(end, ext->end);
	}
	up_read(&mgd->lock);
	return end;
}
