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
 * 5. otherwise migrate (or populate) the page to the faulting device,
 *    unless the thrashing policy pinned the block to another processor:
 *    then map it remotely (uvm_thrash.c).
 *
 * When the device is full and nothing can be evicted, a migration falls
 * back to a remote mapping of host memory. Faults are serviced per block,
 * with all pages of one action moved in one batch.
 *
 * The prefetch policy (uvm_prefetch_policy.h) adds pages that did not
 * fault to the migration: the caller's (sequential runs, chosen per batch)
 * and the density regions of the block. Of those only pages that are
 * managed, not on the device yet, and that rule 5 would migrate there are
 * kept; they move with the faults, in the same copy, and are dropped when
 * the device has no room rather than fetched remotely.
 */
#include <linux/bitmap.h>

#include "uvm_device.h"
#include "uvm_device_fault.h"
#include "uvm_event_records.h"
#include "uvm_managed.h"
#include "uvm_prefetch_policy.h"
#include "uvm_svc_clock.h"
#include "uvm_thrash.h"
#include "uvm_trace.h"

enum fault_action {
	FAULT_DUP,
	FAULT_MIGRATE,
	FAULT_REMOTE,
	FAULT_NR,
	FAULT_PINNED = FAULT_NR,	/* remote: the thrashing policy pinned it */
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
	if (populated && uvm_thrash_pinned_elsewhere(block, id))
		return FAULT_PINNED;
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
				    const struct uvm_policy *pol,
				    struct uvm_svc_clock *clk)
{
	struct uvm_move_ctx why = { .cause = UVM_CAUSE_DEVICE, .clk = clk };
	DECLARE_BITMAP(none, UVM_BLOCK_PAGES);
	struct uvm_device *udev;
	int ret, nid = numa_node_id();

	if (pol->preferred.type == UVM_LOC_DEVICE) {
		udev = uvm_device_get(pol->preferred.id);
		if (udev) {
			bitmap_zero(none, UVM_BLOCK_PAGES);
			ret = uvm_block_to_dev_locked(block, udev, mask, none,
						      &why);
			uvm_device_put(udev);
			if (!ret)
				return 0;
		}
	} else if (pol->preferred.type == UVM_LOC_HOST_NUMA) {
		nid = pol->preferred.id;
	}
	return uvm_block_populate_mask_locked(block, mask, nid);
}

/* Map each page of @mask where its data is (fault_map_remote()). */
static int fault_map_remote_pages(struct uvm_va_block *block,
				  struct uvm_device *udev,
				  const unsigned long *mask,
				  const unsigned long *write)
{
	DECLARE_BITMAP(one, UVM_BLOCK_PAGES);
	unsigned long va;
	unsigned int i;
	int ret;

	ret = uvm_block_populate_mask_locked(block, mask, numa_node_id());
	if (ret)
		return ret;
	for_each_set_bit(i, mask, UVM_BLOCK_PAGES) {
		bool w = test_bit(i, write) && page_copies(block, i) == 1;
		u8 t = remote_target(block, i);

		bitmap_zero(one, UVM_BLOCK_PAGES);
		set_bit(i, one);
		ret = uvm_block_map_dev_locked(block, udev, one, t, w);
		if (ret)
			return ret;
		va = block->start + ((unsigned long)i << PAGE_SHIFT);
		trace_uvm_remote_map(va, 1, udev->id,
				     t == UVM_MAP_HOST ? -1 : t);
		uvm_event_remote_map(block->mgd, va, 1, udev->id,
				     t == UVM_MAP_HOST ? -1 : t);
	}
	return 0;
}

/*
 * Map each page of @mask remotely where its data is. A page with no copy
 * anywhere (a read duplicate that found the device full, say) is first
 * populated on the host: a mapping always points at a copy. Charged to
 * @clk (may be NULL) as mapping.
 */
static int fault_map_remote(struct uvm_va_block *block, struct uvm_device *udev,
			    const unsigned long *mask,
			    const unsigned long *write,
			    struct uvm_svc_clock *clk)
{
	enum uvm_svc_phase was = uvm_svc_enter(clk, UVM_SVC_MAP);
	unsigned int n = bitmap_weight(mask, UVM_BLOCK_PAGES);
	int ret;

	ret = fault_map_remote_pages(block, udev, mask, write);
	if (!ret) {
		uvm_count_dev(block->mgd, udev, UVM_STAT_REMOTE_MAPS, n);
		if (clk)
			clk->remote += n;
	}
	uvm_svc_enter(clk, was);
	return ret;
}

/*
 * Device full, nothing evictable: bring @mask home (copying, on @clk) and
 * map it remotely.
 */
static int fault_fall_back(struct uvm_va_block *block, struct uvm_device *udev,
			   const unsigned long *mask, const unsigned long *write,
			   struct uvm_svc_clock *clk)
{
	enum uvm_svc_phase was = uvm_svc_enter(clk, UVM_SVC_COPY);
	DECLARE_BITMAP(none, UVM_BLOCK_PAGES);
	int ret;

	bitmap_zero(none, UVM_BLOCK_PAGES);
	ret = uvm_block_to_host_locked(block, numa_node_id(), mask, none,
				       UVM_CAUSE_DEVICE);
	uvm_svc_enter(clk, was);
	return ret ?: fault_map_remote(block, udev, mask, write, clk);
}

/* Begin migrating @op->mask to @op->udev (the copy may still run). */
static int fault_migrate_begin(struct uvm_fault_op *op)
{
	struct uvm_va_block *block = op->block;
	unsigned int i;
	int ret;

	bitmap_zero(op->none, UVM_BLOCK_PAGES);
	bitmap_zero(op->coll, UVM_BLOCK_PAGES);
	/* Only a page with a device copy can have more than one copy. */
	bitmap_and(op->none, op->mask, block->on_device, UVM_BLOCK_PAGES);
	for_each_set_bit(i, op->none, UVM_BLOCK_PAGES)
		if (page_copies(block, i) > 1)
			set_bit(i, op->coll);
	bitmap_zero(op->none, UVM_BLOCK_PAGES);
	op->why = (struct uvm_move_ctx){
		.cause = UVM_CAUSE_DEVICE, .prefetched = op->pf,
		.collapse = op->coll, .clk = op->clk,
	};
	ret = uvm_block_to_dev_begin_locked(&op->to_dev, block, op->udev,
					    op->mask, op->none, &op->why);
	if (ret == -ENOSPC) {	/* no room: only the faults go remote */
		bitmap_andnot(op->mask, op->mask, op->pf, UVM_BLOCK_PAGES);
		bitmap_zero(op->pf, UVM_BLOCK_PAGES);
		if (bitmap_empty(op->mask, UVM_BLOCK_PAGES))
			return 0;
		return fault_fall_back(block, op->udev, op->mask, op->write,
				       op->clk);
	}
	op->prefetched = bitmap_weight(op->pf, UVM_BLOCK_PAGES);
	if (!ret)
		op->busy = true;
	return ret;
}

/* End the migration begun by fault_migrate_begin() and map the pages. */
static int fault_migrate_end(struct uvm_fault_op *op)
{
	struct uvm_va_block *block = op->block;
	enum uvm_svc_phase was;
	unsigned int n;
	int ret;

	op->busy = false;
	ret = uvm_block_to_dev_end_locked(&op->to_dev);
	if (ret == -ENOSPC) {
		bitmap_andnot(op->mask, op->mask, op->pf, UVM_BLOCK_PAGES);
		return fault_fall_back(block, op->udev, op->mask, op->write,
				       op->clk);
	}
	if (ret)
		return ret;
	bitmap_andnot(op->pf, op->pf, op->to_dev.held, UVM_BLOCK_PAGES);
	uvm_count_dev(block->mgd, op->udev, UVM_STAT_FAULT_PREFETCH_PAGES,
		      bitmap_weight(op->pf, UVM_BLOCK_PAGES));
	uvm_block_mark_prefetched_locked(block, op->udev->id, op->pf);
	uvm_thrash_moved_locked(block, op->udev->id);
	n = bitmap_weight(op->coll, UVM_BLOCK_PAGES);
	uvm_count(block->mgd, UVM_STAT_READ_DUP_COLLAPSES, n);
	if (n)
		trace_uvm_read_dup(block->start, n, op->udev->id, true);
	uvm_event_read_dup(block->mgd, block->start, n, op->udev->id, true);
	/* Pages get_user_pages() holds stayed home: map them there. */
	if (!bitmap_empty(op->to_dev.held, UVM_BLOCK_PAGES)) {
		bitmap_andnot(op->mask, op->mask, op->to_dev.held,
			      UVM_BLOCK_PAGES);
		ret = fault_map_remote(block, op->udev, op->to_dev.held,
				       op->write, op->clk);
		if (ret)
			return ret;
	}
	was = uvm_svc_enter(op->clk, UVM_SVC_MAP);
	ret = uvm_block_map_dev_locked(block, op->udev, op->mask,
				       op->udev->id, true);
	uvm_svc_enter(op->clk, was);
	return ret;
}

static int fault_dup(struct uvm_va_block *block, struct uvm_device *udev,
		     const unsigned long *mask, struct uvm_svc_clock *clk)
{
	struct uvm_move_ctx why = { .cause = UVM_CAUSE_DEVICE, .clk = clk };
	struct uvm_block_dev *bd = block->dev[udev->id];
	DECLARE_BITMAP(tmp, UVM_BLOCK_PAGES);
	enum uvm_svc_phase was;
	struct uvm_to_dev op;
	unsigned int new;
	int ret;

	bitmap_copy(tmp, mask, UVM_BLOCK_PAGES);
	if (bd && bd->chunk)
		bitmap_andnot(tmp, mask, bd->resident, UVM_BLOCK_PAGES);
	ret = uvm_block_to_dev_begin_locked(&op, block, udev, mask, mask, &why);
	if (!ret)
		ret = uvm_block_to_dev_end_locked(&op);
	if (ret == -ENOSPC) {	/* no room for a copy: read it remotely */
		bitmap_zero(tmp, UVM_BLOCK_PAGES);
		return fault_map_remote(block, udev, mask, tmp, clk);
	}
	if (ret)
		return ret;
	bitmap_andnot(tmp, tmp, op.held, UVM_BLOCK_PAGES);
	new = bitmap_weight(tmp, UVM_BLOCK_PAGES);
	uvm_count_dev(block->mgd, udev, UVM_STAT_READ_DUP_COPIES, new);
	trace_uvm_read_dup(block->start, new, udev->id, false);
	uvm_event_read_dup(block->mgd, block->start, new, udev->id, false);
	/* Pages get_user_pages() holds got no copy: read them remotely. */
	bitmap_andnot(tmp, mask, op.held, UVM_BLOCK_PAGES);
	was = uvm_svc_enter(clk, UVM_SVC_MAP);
	ret = uvm_block_map_dev_locked(block, udev, tmp, udev->id, false);
	uvm_svc_enter(clk, was);
	if (ret || bitmap_empty(op.held, UVM_BLOCK_PAGES))
		return ret;
	bitmap_zero(tmp, UVM_BLOCK_PAGES);
	return fault_map_remote(block, udev, op.held, tmp, clk);
}

static bool dev_resident(struct uvm_va_block *block, u32 id, unsigned int i)
{
	struct uvm_block_dev *bd = block->dev[id];

	return bd && bd->chunk && test_bit(i, bd->resident);
}

/* Add the density regions of @faults to @op->pf. */
static void fault_density(struct uvm_fault_op *op, const unsigned long *faults,
			  const struct uvm_prefetch_conf *pf)
{
	struct uvm_block_dev *bd = op->block->dev[op->udev->id];
	DECLARE_BITMAP(occupied, UVM_BLOCK_PAGES);
	DECLARE_BITMAP(units, UVM_BLOCK_PAGES);

	uvm_prefetch_density_units(pf, faults, units);
	bitmap_copy(occupied, units, UVM_BLOCK_PAGES);
	if (bd && bd->chunk)
		bitmap_or(occupied, occupied, bd->resident, UVM_BLOCK_PAGES);
	uvm_prefetch_density_block(occupied, units, pf->threshold, op->pf);
}

/*
 * The pages to prefetch besides @faults: proposed by the caller
 * (@prefetch) and the density policy; kept if managed, not on the device,
 * and migrating there is what a read fault would do.
 */
static void fault_prefetch(struct uvm_fault_op *op, const unsigned long *faults,
			   const unsigned long *prefetch,
			   const struct uvm_prefetch_conf *pf)
{
	struct uvm_va_block *block = op->block;
	const struct uvm_policy_extent *ext = NULL;
	u32 id = op->udev->id;
	unsigned int i;

	bitmap_zero(op->pf, UVM_BLOCK_PAGES);
	if (prefetch)
		bitmap_copy(op->pf, prefetch, UVM_BLOCK_PAGES);
	if (pf && uvm_prefetch_is_density(pf))
		fault_density(op, faults, pf);
	bitmap_andnot(op->pf, op->pf, faults, UVM_BLOCK_PAGES);
	for_each_set_bit(i, op->pf, UVM_BLOCK_PAGES) {
		unsigned long va = block->start + ((unsigned long)i << PAGE_SHIFT);

		if (!ext || va < ext->start || va >= ext->end)
			ext = uvm_policy_extent_at(&block->mgd->policies, va);
		if (!ext || dev_resident(block, id, i) ||
		    fault_decide(block, i, &ext->pol, id, false) != FAULT_MIGRATE)
			clear_bit(i, op->pf);
	}
}

/**
 * uvm_block_service_faults_begin_locked() - begin servicing a device's
 * faults on a block.
 * @op: the service, caller's storage until
 *	uvm_block_service_faults_end_locked(); the caller sets @op->clk.
 * @block: the block; caller holds @block->lock and the VA space's lock
 *	   (read) until the end.
 * @udev: the faulting device.
 * @faults: pages that faulted.
 * @write: of those, the ones written (or atomically updated).
 * @prefetch: pages the batch's prefetch policy proposes, or NULL.
 * @pf: the prefetch policy in force (density is applied here), or NULL.
 *
 * Read duplicates and remote mappings are done here; a migration to @udev
 * is begun (its copy runs on the copy engine) and ended by
 * uvm_block_service_faults_end_locked(). Meanwhile the caller may access
 * pages of @block outside @op->mask, and work on other blocks.
 *
 * Return: 0 (end it), or a negative errno: nothing to end.
 */
int uvm_block_service_faults_begin_locked(struct uvm_fault_op *op,
					  struct uvm_va_block *block,
					  struct uvm_device *udev,
					  const unsigned long *faults,
					  const unsigned long *write,
					  const unsigned long *prefetch,
					  const struct uvm_prefetch_conf *pf)
{
	unsigned long *act[FAULT_NR] = { op->dup, op->mask, op->remote };
	const struct uvm_policy_extent *ext = NULL;
	const struct uvm_policy *pol;
	unsigned int i, a, npinned = 0;
	int ret = 0;

	lockdep_assert_held(&block->lock);
	op->block = block;
	op->udev = udev;
	op->busy = false;
	op->prefetched = 0;
	bitmap_copy(op->write, write, UVM_BLOCK_PAGES);
	for (a = 0; a < FAULT_NR; a++)
		bitmap_zero(act[a], UVM_BLOCK_PAGES);
	fault_prefetch(op, faults, prefetch, pf);
	for_each_set_bit(i, faults, UVM_BLOCK_PAGES) {
		unsigned long va = block->start + ((unsigned long)i << PAGE_SHIFT);

		/* One policy lookup per extent, not per page. */
		if (!ext || va < ext->start || va >= ext->end)
			ext = uvm_policy_extent_at(&block->mgd->policies, va);
		if (!ext)
			return -EFAULT;
		pol = &ext->pol;
		a = fault_decide(block, i, pol, udev->id, test_bit(i, write));
		if (a == FAULT_PINNED) {
			npinned++;
			a = FAULT_REMOTE;
		}
		if (a == FAULT_REMOTE && !uvm_block_page_populated(block, i)) {
			bitmap_zero(op->none, UVM_BLOCK_PAGES);
			set_bit(i, op->none);
			ret = fault_populate_preferred(block, op->none, pol,
						       op->clk);
			if (ret)
				return ret;
		}
		set_bit(i, act[a]);
	}
	if (npinned) {
		uvm_count_dev(block->mgd, udev, UVM_STAT_THRASH_PINNED, npinned);
		uvm_event_thrash(block->mgd, block->start,
				 UVM_EVENT_THRASH_PINNED, udev->id,
				 UVM_THRASH_PIN, npinned);
	}
	if (!bitmap_empty(op->dup, UVM_BLOCK_PAGES))
		ret = fault_dup(block, udev, op->dup, op->clk);
	if (!ret && !bitmap_empty(op->remote, UVM_BLOCK_PAGES))
		ret = fault_map_remote(block, udev, op->remote, write,
				       op->clk);
	bitmap_or(op->mask, op->mask, op->pf, UVM_BLOCK_PAGES);
	if (!ret && !bitmap_empty(op->mask, UVM_BLOCK_PAGES))
		ret = fault_migrate_begin(op);
	return ret;
}

/**
 * uvm_block_service_faults_end_locked() - end a service begun by
 * uvm_block_service_faults_begin_locked(): wait for the migration, map it.
 * @op: the service.
 *
 * Return: 0 or a negative errno.
 */
int uvm_block_service_faults_end_locked(struct uvm_fault_op *op)
{
	lockdep_assert_held(&op->block->lock);
	return op->busy ? fault_migrate_end(op) : 0;
}

/**
 * uvm_block_service_faults_locked() - service a device's faults on a block:
 * uvm_block_service_faults_begin_locked() and _end_locked() at once.
 * @block: the block; caller holds @block->lock and the VA space's lock.
 * @udev: the faulting device.
 * @faults: pages that faulted.
 * @write: of those, the ones written (or atomically updated).
 * @prefetch: pages the batch's prefetch policy proposes, or NULL.
 * @pf: the prefetch policy in force, or NULL.
 *
 * Return: 0 or a negative errno.
 */
int uvm_block_service_faults_locked(struct uvm_va_block *block,
				    struct uvm_device *udev,
				    const unsigned long *faults,
				    const unsigned long *write,
				    const unsigned long *prefetch,
				    const struct uvm_prefetch_conf *pf)
{
	struct uvm_fault_op op;
	int ret;

	op.clk = NULL;
	ret = uvm_block_service_faults_begin_locked(&op, block, udev, faults,
						    write, prefetch, pf);
	return ret ?: uvm_block_service_faults_end_locked(&op);
}
