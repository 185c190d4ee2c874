// SPDX-License-Identifier: GPL-2.0
/*
 * DOC: Device faults
 *
 * Servicing a device fault on one page of a block picks, like NVIDIA's
 * block_select_processor_residency(), in this order:
 *
 * 1. read-mostly page, read access: make a read-only copy on the faulting
 *    device, keep the others;
 * 2. write (or atomic) to a page with several copies: collapse them, the
 *    faulting device keeps the only copy;
 * 3. the device is in the page's accessed-by set and the data lives
 *    elsewhere: map it remotely (host page, or another device's memory),
 *    no migration;
 * 4. the page prefers another location: map remotely (an unpopulated page
 *    is first populated at its preferred location);
 * 5. otherwise migrate (or populate) the page to the faulting device.
 *
 * When the device is full and nothing can be evicted, a migration falls
 * back to a remote mapping of host memory. Faults are serviced per block,
 * with all pages of one action moved in one batch.
 */
#include <linux/bitmap.h>

#include "uvm_device.h"
#include "uvm_device_fault.h"
#include "uvm_managed.h"
#include "uvm_trace.h"

enum fault_action {
	FAULT_DUP,
	FAULT_MIGRATE,
	FAULT_REMOTE,
	FAULT_NR,
};

static unsigned int page_copies(struct uvm_va_block *block, unsigned int i)
{
	unsigned int d, n = !!block->cpu_pages[i];

	for (d = 0; d < UVM_MAX_DEVICES && test_bit(i, block->on_device); d++)
		if (block->dev[d] && test_bit(i, block->dev[d]->resident))
			n++;
	return n;
}

static bool pol_prefers_elsewhere(const struct uvm_policy *pol, u32 id)
{
	return pol->preferred.type != UVM_LOC_NONE &&
	       !(pol->preferred.type == UVM_LOC_DEVICE &&
		 pol->preferred.id == id);
}

static enum fault_action fault_decide(struct uvm_va_block *block,
				      unsigned int i,
				      const struct uvm_policy *pol, u32 id,
				      bool write)
{
	bool populated = uvm_block_page_populated(block, i);

	if (pol->read_mostly && !write)
		return FAULT_DUP;
	if (write && page_copies(block, i) > 1)
		return FAULT_MIGRATE;
	if (populated && (pol->accessed_by & BIT_ULL(id)))
		return FAULT_REMOTE;
	if (pol_prefers_elsewhere(pol, id))
		return FAULT_REMOTE;
	return FAULT_MIGRATE;
}

/* Where a remote mapping of page @i points: the host copy or a device's. */
static u8 remote_target(struct uvm_va_block *block, unsigned int i)
{
	unsigned int d;

	if (block->cpu_pages[i])
		return UVM_MAP_HOST;
	for (d = 0; d < UVM_MAX_DEVICES; d++)
		if (block->dev[d] && test_bit(i, block->dev[d]->resident))
			return d;
	return UVM_MAP_HOST;
}

/* Populate unpopulated pages of @mask at their preferred location. */
static int fault_populate_preferred(struct uvm_va_block *block,
				    const unsigned long *mask,
				    const struct uvm_policy *pol)
{
	DECLARE_BITMAP(none, UVM_BLOCK_PAGES);
	struct uvm_device *udev;
	int ret, nid = numa_node_id();

	if (pol->preferred.type == UVM_LOC_DEVICE) {
		udev = uvm_device_get(pol->preferred.id);
		if (udev) {
			bitmap_zero(none, UVM_BLOCK_PAGES);
			ret = uvm_block_to_dev_locked(block, udev, mask, none,
						      UVM_CAUSE_DEVICE);
			uvm_device_put(udev);
			if (!ret)
				return 0;
		}
	} else if (pol->preferred.type == UVM_LOC_HOST_NUMA) {
		nid = pol->preferred.id;
	}
	return uvm_block_populate_mask_locked(block, mask, nid);
}

/* Map each page of @mask remotely where its data is. */
static int fault_map_remote(struct uvm_va_block *block, struct uvm_device *udev,
			    const unsigned long *mask,
			    const unsigned long *write)
{
	DECLARE_BITMAP(one, UVM_BLOCK_PAGES);
	unsigned int i;
	int ret;

	for_each_set_bit(i, mask, UVM_BLOCK_PAGES) {
		bool w = test_bit(i, write) && page_copies(block, i) == 1;

		u8 t = remote_target(block, i);

		bitmap_zero(one, UVM_BLOCK_PAGES);
		set_bit(i, one);
		ret = uvm_block_map_dev_locked(block, udev, one, t, w);
		if (ret)
			return ret;
		trace_uvm_remote_map(block->start + ((unsigned long)i << PAGE_SHIFT),
				     1, udev->id, t == UVM_MAP_HOST ? -1 : t);
	}
	uvm_count_dev(block->mgd, udev, UVM_STAT_REMOTE_MAPS,
		      bitmap_weight(mask, UVM_BLOCK_PAGES));
	return 0;
}

/* Migrate @mask to @udev (or, device full, fall back to host + remote). */
static int fault_migrate(struct uvm_va_block *block, struct uvm_device *udev,
			 const unsigned long *mask, const unsigned long *write)
{
	DECLARE_BITMAP(none, UVM_BLOCK_PAGES);
	DECLARE_BITMAP(coll, UVM_BLOCK_PAGES);
	unsigned int i;
	int ret;

	bitmap_zero(none, UVM_BLOCK_PAGES);
	bitmap_zero(coll, UVM_BLOCK_PAGES);
	/* Only a page with a device copy can have more than one copy. */
	bitmap_and(none, mask, block->on_device, UVM_BLOCK_PAGES);
	for_each_set_bit(i, none, UVM_BLOCK_PAGES)
		if (page_copies(block, i) > 1)
			set_bit(i, coll);
	bitmap_zero(none, UVM_BLOCK_PAGES);
	ret = uvm_block_to_dev_locked(block, udev, mask, none,
				      UVM_CAUSE_DEVICE);
	if (ret == -ENOSPC) {
		ret = uvm_block_to_host_locked(block, numa_node_id(), mask,
					       none, UVM_CAUSE_DEVICE);
		return ret ?: fault_map_remote(block, udev, mask, write);
	}
	if (ret)
		return ret;
	uvm_count(block->mgd, UVM_STAT_READ_DUP_COLLAPSES,
		  bitmap_weight(coll, UVM_BLOCK_PAGES));
	if (!bitmap_empty(coll, UVM_BLOCK_PAGES))
		trace_uvm_read_dup(block->start, bitmap_weight(coll, UVM_BLOCK_PAGES),
				   udev->id, true);
	return uvm_block_map_dev_locked(block, udev, mask, udev->id, true);
}

static int fault_dup(struct uvm_va_block *block, struct uvm_device *udev,
		     const unsigned long *mask)
{
	struct uvm_block_dev *bd = block->dev[udev->id];
	DECLARE_BITMAP(tmp, UVM_BLOCK_PAGES);
	unsigned int new;
	int ret;

	bitmap_copy(tmp, mask, UVM_BLOCK_PAGES);
	if (bd && bd->chunk)
		bitmap_andnot(tmp, mask, bd->resident, UVM_BLOCK_PAGES);
	new = bitmap_weight(tmp, UVM_BLOCK_PAGES);
	ret = uvm_block_to_dev_locked(block, udev, mask, mask,
				      UVM_CAUSE_DEVICE);
	if (ret == -ENOSPC) {	/* no room for a copy: read it remotely */
		bitmap_zero(tmp, UVM_BLOCK_PAGES);
		return fault_map_remote(block, udev, mask, tmp);
	}
	if (ret)
		return ret;
	uvm_count_dev(block->mgd, udev, UVM_STAT_READ_DUP_COPIES, new);
	trace_uvm_read_dup(block->start, new, udev->id, false);
	return uvm_block_map_dev_locked(block, udev, mask, udev->id, false);
}

/**
 * uvm_block_service_faults_locked() - service a device's faults on a block.
 * @block: the block; caller holds @block->lock and the VA space's lock.
 * @udev: the faulting device.
 * @faults: pages that faulted.
 * @write: of those, the ones written (or atomically updated).
 *
 * Return: 0 or a negative errno.
 */
int uvm_block_service_faults_locked(struct uvm_va_block *block,
				    struct uvm_device *udev,
				    const unsigned long *faults,
				    const unsigned long *write)
{
	unsigned long act[FAULT_NR][BITS_TO_LONGS(UVM_BLOCK_PAGES)] = { };
	const struct uvm_policy_extent *ext = NULL;
	DECLARE_BITMAP(unpop, UVM_BLOCK_PAGES);
	const struct uvm_policy *pol;
	unsigned int i;
	int ret = 0;

	lockdep_assert_held(&block->lock);
	for_each_set_bit(i, faults, UVM_BLOCK_PAGES) {
		unsigned long va = block->start + ((unsigned long)i << PAGE_SHIFT);
		enum fault_action a;

		/* One policy lookup per extent, not per page. */
		if (!ext || va < ext->start || va >= ext->end)
			ext = uvm_policy_extent_at(&block->mgd->policies, va);
		if (!ext)
			return -EFAULT;
		pol = &ext->pol;
		a = fault_decide(block, i, pol, udev->id, test_bit(i, write));
		if (a == FAULT_REMOTE && !uvm_block_page_populated(block, i)) {
			bitmap_zero(unpop, UVM_BLOCK_PAGES);
			set_bit(i, unpop);
			ret = fault_populate_preferred(block, unpop, pol);
			if (ret)
				return ret;
		}
		set_bit(i, act[a]);
	}
	if (!bitmap_empty(act[FAULT_DUP], UVM_BLOCK_PAGES))
		ret = fault_dup(block, udev, act[FAULT_DUP]);
	if (!ret && !bitmap_empty(act[FAULT_MIGRATE], UVM_BLOCK_PAGES))
		ret = fault_migrate(block, udev, act[FAULT_MIGRATE], write);
	if (!ret && !bitmap_empty(act[FAULT_REMOTE], UVM_BLOCK_PAGES))
		ret = fault_map_remote(block, udev, act[FAULT_REMOTE], write);
	return ret;
}
