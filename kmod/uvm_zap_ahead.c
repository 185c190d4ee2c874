// SPDX-License-Identifier: GPL-2.0
/*
 * DOC: Zap-ahead
 *
 * A prefetch to a device takes the moved pages away from the CPU: their
 * CPU PTEs are zapped, the writable ones before the copy and the read-only
 * ones after it (uvm_block_to_dev_locked()). The core's zap (rmap, memory
 * cgroup statistics, TLB batching) costs about a third of a page copy and
 * runs between the copies. So a prefetch over more than one block hands
 * the zap of the next block to a worker on another CPU while it copies this
 * one, and then finds that block unmapped.
 *
 * Zapping early is always allowed: a CPU access in between faults and maps
 * the page again, under the block lock. The prefetch still zaps whatever is
 * mapped when it gets to a block, so the worker decides nothing; it only
 * does early what would be done anyway. It zaps every mapping of a page
 * that moves and the writable mappings of a page that gets a read-only
 * duplicate (read-mostly); it leaves alone pages already resident on the
 * target. It takes the block lock with mutex_trylock(): a block the
 * prefetch (or a fault) holds is theirs to zap.
 *
 * Lifetime: the worker holds a reference to each block it is handed and
 * uses the VA space's address_space, which the prefetching thread keeps
 * alive: it holds the VA space's lock for read from before the first block
 * is handed over until after uvm_zap_ahead_finish() has waited for the
 * worker, so no block leaves the VA space (munmap takes that lock for
 * write) while the worker runs.
 */
#include <linux/slab.h>
#include <linux/topology.h>
#include <linux/workqueue.h>

#include "uvm_drv.h"
#include "uvm_managed.h"

/* Blocks handed over and not yet zapped: the next one, and one spare. */
#define UVM_ZAP_AHEAD_SLOTS	2

struct uvm_zap_slot {
	struct uvm_va_block *block;
	DECLARE_BITMAP(mask, UVM_BLOCK_PAGES);
	DECLARE_BITMAP(dup, UVM_BLOCK_PAGES);
};

/**
 * struct uvm_zap_ahead - the zap-ahead worker of one prefetch call.
 * @work: the worker (system_unbound_wq, on @cpu).
 * @lock: protects @head, @nr and @slots.
 * @head: oldest slot in use.
 * @nr: slots in use.
 * @cpu: CPU the worker is queued on.
 * @dev: target device id.
 * @mgd: the VA space (for counting).
 * @slots: blocks to zap, oldest first.
 */
struct uvm_zap_ahead {
	struct work_struct work;
	spinlock_t lock;	/* Protects head, nr, slots */
	unsigned int head;
	unsigned int nr;
	int cpu;
	unsigned int dev;
	struct uvm_managed *mgd;
	struct uvm_zap_slot slots[UVM_ZAP_AHEAD_SLOTS];
};

static bool zap_ahead_take(struct uvm_zap_ahead *za, struct uvm_zap_slot *s)
{
	bool more;

	spin_lock(&za->lock);
	more = za->nr;
	if (more) {
		*s = za->slots[za->head];
		za->head = (za->head + 1) % UVM_ZAP_AHEAD_SLOTS;
		za->nr--;
	}
	spin_unlock(&za->lock);
	return more;
}

/* The CPU mappings the move of @s will remove, if the block is free. */
static void zap_ahead_block(struct uvm_zap_ahead *za, struct uvm_zap_slot *s)
{
	struct uvm_va_block *block = s->block;
	DECLARE_BITMAP(zap, UVM_BLOCK_PAGES);
	DECLARE_BITMAP(keep, UVM_BLOCK_PAGES);
	struct uvm_block_dev *bd;

	if (!mutex_trylock(&block->lock))
		return;
	if (block->dead)
		goto out_unlock;
	bitmap_and(zap, s->mask, block->cpu_mapped, UVM_BLOCK_PAGES);
	bitmap_andnot(keep, s->dup, block->cpu_writable, UVM_BLOCK_PAGES);
	bitmap_andnot(zap, zap, keep, UVM_BLOCK_PAGES);
	bd = block->dev[za->dev];
	if (bd)
		bitmap_andnot(zap, zap, bd->resident, UVM_BLOCK_PAGES);
	if (bitmap_empty(zap, UVM_BLOCK_PAGES))
		goto out_unlock;
	uvm_block_zap_mask_locked(block, zap);
	uvm_count(za->mgd, UVM_STAT_ZAP_AHEAD_PAGES,
		  bitmap_weight(zap, UVM_BLOCK_PAGES));
out_unlock:
	mutex_unlock(&block->lock);
}

static void zap_ahead_work(struct work_struct *work)
{
	struct uvm_zap_ahead *za = container_of(work, struct uvm_zap_ahead,
						work);
	struct uvm_zap_slot s;

	while (zap_ahead_take(za, &s)) {
		zap_ahead_block(za, &s);
		uvm_block_put(s.block);
	}
}

/**
 * uvm_zap_ahead_start() - a zap-ahead worker for one prefetch to a device.
 * @mgd: managed state; the caller holds @mgd->lock (read) until
 *	 uvm_zap_ahead_finish().
 * @dev: target device id.
 *
 * Return: the worker, or NULL when there is no other CPU to run it (or no
 * memory): the prefetch then zaps on its own, as it always may.
 */
struct uvm_zap_ahead *uvm_zap_ahead_start(struct uvm_managed *mgd,
					  unsigned int dev)
{
	struct uvm_zap_ahead *za;
	int cpu = uvm_helper_cpu(numa_node_id());

	lockdep_assert_held(&mgd->lock);
	if (cpu == WORK_CPU_UNBOUND)
		return NULL;
	za = kzalloc(sizeof(*za), GFP_KERNEL);
	if (!za)
		return NULL;
	INIT_WORK(&za->work, zap_ahead_work);
	spin_lock_init(&za->lock);
	za->cpu = cpu;
	za->dev = dev;
	za->mgd = mgd;
	return za;
}

/**
 * uvm_zap_ahead_queue() - zap, in the background, the CPU mappings of
 * @block that moving @mask to the device will remove.
 * @za: the worker (NULL: nothing happens).
 * @block: a block of the VA space; the caller holds its VA space's lock.
 * @mask: pages the prefetch will move.
 * @dup: pages of @mask that get a read-only duplicate (read-mostly).
 *
 * Only a hint: when the worker is behind, the block is left to the caller.
 */
void uvm_zap_ahead_queue(struct uvm_zap_ahead *za, struct uvm_va_block *block,
			 const unsigned long *mask, const unsigned long *dup)
{
	struct uvm_zap_slot *s;

	if (!za)
		return;
	lockdep_assert_held(&za->mgd->lock);
	spin_lock(&za->lock);
	if (za->nr == UVM_ZAP_AHEAD_SLOTS) {
		spin_unlock(&za->lock);
		return;
	}
	s = &za->slots[(za->head + za->nr) % UVM_ZAP_AHEAD_SLOTS];
	refcount_inc(&block->refs);
	s->block = block;
	bitmap_copy(s->mask, mask, UVM_BLOCK_PAGES);
	bitmap_copy(s->dup, dup, UVM_BLOCK_PAGES);
	za->nr++;
	spin_unlock(&za->lock);
	queue_work_on(za->cpu, system_unbound_wq, &za->work);
}

/**
 * uvm_zap_ahead_finish() - wait for the worker and free it.
 * @za: the worker, or NULL.
 */
void uvm_zap_ahead_finish(struct uvm_zap_ahead *za)
{
	if (!za)
		return;
	flush_work(&za->work);
	/* The worker drains every slot queued before it last ran. */
	WARN_ON_ONCE(za->nr);
	kfree(za);
}
