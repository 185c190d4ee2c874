// SPDX-License-Identifier: GPL-2.0
/*
 * DOC: Eviction
 *
 * Every chunk of device memory that holds managed data is on its device's
 * LRU list (struct uvm_device.lru, under lru_lock), least recently used
 * first; device faults and prefetches move a chunk to the tail. When a
 * device allocation fails with -ENOSPC (a managed chunk here, or device
 * memory for cudaMalloc in uvm_alloc.c), uvm_evict_device_memory() takes
 * chunks from the head, of any process using the device, moves their data
 * to host memory and frees them, until enough is free.
 *
 * The caller usually holds a block lock of its own, so victims are only
 * ever trylocked: a busy block is skipped (and rotated to the tail), so
 * eviction never waits for a lock a faulting path may hold and cannot
 * deadlock. A victim is pinned by a block reference taken under lru_lock
 * (a block on the LRU is alive: it is taken off before its chunk is freed)
 * and skipped if it died meanwhile (munmap, exit). Nothing evictable left:
 * -ENOSPC, and the caller falls back (remote mapping of host memory for a
 * device fault) or fails.
 *
 * Device memory from cudaMalloc-style allocations is never on the LRU and
 * never evicted.
 */
#include <linux/list.h>
#include <linux/sched/signal.h>
#include <linux/spinlock.h>

#include "uvm_device.h"
#include "uvm_evict.h"
#include "uvm_managed.h"
#include "uvm_mem.h"

/* Chunk allocations retried after an eviction before giving up. */
#define UVM_EVICT_RETRIES	8

void uvm_lru_touch(struct uvm_block_dev *bd)
{
	struct uvm_device *udev = bd->udev;

	spin_lock(&udev->lru_lock);
	if (!list_empty(&bd->lru))
		list_move_tail(&bd->lru, &udev->lru);
	spin_unlock(&udev->lru_lock);
}

void uvm_bd_list_add(struct uvm_block_dev *bd)
{
	struct uvm_device *udev = bd->udev;

	spin_lock(&udev->lru_lock);
	list_add_tail(&bd->dev_link, &udev->bds);
	spin_unlock(&udev->lru_lock);
}

void uvm_bd_list_del(struct uvm_block_dev *bd)
{
	struct uvm_device *udev = bd->udev;

	spin_lock(&udev->lru_lock);
	list_del(&bd->dev_link);
	spin_unlock(&udev->lru_lock);
}

/*
 * The block of the first state of @udev->bds, with a reference (the state
 * goes to the tail), or NULL when the list is empty.
 */
static struct uvm_va_block *unmap_pick(struct uvm_device *udev)
{
	struct uvm_va_block *block = NULL;
	struct uvm_block_dev *bd;

	spin_lock(&udev->lru_lock);
	bd = list_first_entry_or_null(&udev->bds, struct uvm_block_dev,
				      dev_link);
	if (bd) {
		block = bd->block;
		refcount_inc(&block->refs);
		list_move_tail(&bd->dev_link, &udev->bds);
	}
	spin_unlock(&udev->lru_lock);
	return block;
}

/**
 * uvm_evict_unmap_all() - drop every mapping an unbound device has in any
 * VA space: its remote mappings of host pages (and their DMA mappings) and
 * of other devices' memory. Its own memory is empty (uvm_evict_all()).
 * @udev: the device, unplugged. No lock held.
 *
 * Each block's state for @udev then goes (block_dev_trim()); a block being
 * freed meanwhile drops it itself. Gives up after four times as many
 * visits as there were states (one that keeps a chunk stays).
 */
void uvm_evict_unmap_all(struct uvm_device *udev)
{
	struct uvm_va_block *block;
	unsigned long tries = 16;
	struct list_head *pos;

	spin_lock(&udev->lru_lock);
	list_for_each(pos, &udev->bds)
		tries += 4;
	spin_unlock(&udev->lru_lock);
	while ((block = unmap_pick(udev)) && tries--) {
		mutex_lock(&block->lock);
		if (!block->dead)
			uvm_block_unmap_dev_locked(block, udev->id);
		mutex_unlock(&block->lock);
		uvm_block_put(block);
		cond_resched();
	}
	if (block) {
		pr_err("uvm: device %u: device mappings left after unbind\n",
		       udev->id);
		uvm_block_put(block);
	}
}

void uvm_lru_remove(struct uvm_block_dev *bd)
{
	struct uvm_device *udev = bd->udev;

	spin_lock(&udev->lru_lock);
	list_del_init(&bd->lru);
	spin_unlock(&udev->lru_lock);
}

/*
 * Pick the least recently used chunk whose block can be locked (@blocking:
 * wait for it; else trylock). Returns the locked block with a reference,
 * or NULL.
 */
static struct uvm_va_block *evict_pick(struct uvm_device *udev, bool blocking)
{
	struct uvm_va_block *block;
	struct uvm_block_dev *bd;

	spin_lock(&udev->lru_lock);
	list_for_each_entry(bd, &udev->lru, lru) {
		block = bd->block;
		refcount_inc(&block->refs);
		if (blocking || mutex_trylock(&block->lock)) {
			list_move_tail(&bd->lru, &udev->lru);
			spin_unlock(&udev->lru_lock);
			if (blocking)
				mutex_lock(&block->lock);
			return block;
		}
		refcount_dec(&block->refs);	/* the VA space holds one */
	}
	spin_unlock(&udev->lru_lock);
	return NULL;
}

static s64 evict_one(struct uvm_device *udev, bool blocking)
{
	struct uvm_va_block *block = evict_pick(udev, blocking);
	s64 freed = 0;

	if (!block)
		return -ENOSPC;
	if (!block->dead)
		freed = uvm_block_evict_dev_locked(block, udev->id);
	mutex_unlock(&block->lock);
	uvm_block_put(block);
	return freed;
}

/**
 * uvm_evict_device_memory() - free device memory by evicting managed data.
 * @udev: the device.
 * @bytes: how much to free.
 *
 * Called with no lock but possibly one block lock held (victims are only
 * trylocked).
 *
 * Stops early, between victims, on a fatal signal.
 *
 * Return: 0 if anything was freed, -ENOSPC if nothing could be evicted,
 * -EINTR if a fatal signal came first.
 */
int uvm_evict_device_memory(struct uvm_device *udev, u64 bytes)
{
	u64 freed = 0;
	int busy = 0;
	s64 ret;

	while (freed < bytes) {
		/* Each victim is a 2 MiB copy home: a large request is killable. */
		if (fatal_signal_pending(current))
			return freed ? 0 : -EINTR;
		ret = evict_one(udev, false);
		if (ret == -ENOSPC)
			break;
		if (ret < 0) {
			if (++busy > UVM_EVICT_RETRIES)
				break;
			continue;
		}
		freed += ret;
	}
	return freed ? 0 : -ENOSPC;
}

/**
 * uvm_evict_alloc_chunk() - give @bd a block-sized chunk of device memory.
 * @bd: device state of a block; caller holds the block's lock.
 *
 * Return: 0, -ENOSPC (full, nothing evictable), -ENODEV (device going
 * away), -ENOMEM or -EINTR (fatal signal while evicting).
 */
int uvm_evict_alloc_chunk(struct uvm_block_dev *bd)
{
	struct uvm_device *udev = bd->udev;
	struct uvm_mem *mem;
	int tries, ret;

	lockdep_assert_held(&bd->block->lock);
	for (tries = 0; ; tries++) {
		mem = uvm_mem_alloc(udev, UVM_BLOCK_SIZE, UVM_BLOCK_SIZE,
				    UVM_MEM_CONTIGUOUS | UVM_MEM_UNCLEARED);
		if (!IS_ERR(mem))
			break;
		if (PTR_ERR(mem) != -ENOSPC || tries >= UVM_EVICT_RETRIES)
			return PTR_ERR(mem);
		ret = uvm_evict_device_memory(udev, UVM_BLOCK_SIZE);
		if (ret)
			return ret == -EINTR ? ret : -ENOSPC;
	}

	spin_lock(&udev->lru_lock);
	if (udev->dying) {
		spin_unlock(&udev->lru_lock);
		uvm_mem_free(mem);
		return -ENODEV;
	}
	bd->chunk = mem;
	list_add_tail(&bd->lru, &udev->lru);
	spin_unlock(&udev->lru_lock);
	return 0;
}

/**
 * uvm_evict_all() - migrate every managed page off a device being removed.
 * @udev: the device, already out of the registry; no locks held.
 */
void uvm_evict_all(struct uvm_device *udev)
{
	int failures = 0;
	s64 ret;

	spin_lock(&udev->lru_lock);
	udev->dying = true;
	spin_unlock(&udev->lru_lock);

	while ((ret = evict_one(udev, true)) != -ENOSPC) {
		if (ret < 0 && ++failures > UVM_EVICT_RETRIES) {
			pr_err("uvm: device %u: managed data could not be migrated home (%lld)\n",
			       udev->id, ret);
			break;
		}
	}
}
