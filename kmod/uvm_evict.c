// SPDX-License-Identifier: GPL-2.0
/*
 * DOC: Eviction
 *
 * Every chunk of device memory that holds managed data is on its device's
 * list (struct uvm_device.lru, under lru_lock), least recently accessed
 * first: device accesses (UVM_IOCTL_DEVICE_ACCESS), device faults and
 * prefetches move a chunk to the tail and count an access. When a device
 * allocation fails with -ENOSPC (a managed chunk here, or device memory for
 * cudaMalloc in uvm_alloc.c), uvm_evict_device_memory() takes chunks, of
 * any process using the device, moves their data to host memory and frees
 * them, until enough is free; when no managed chunk is left to take,
 * chunks of pageable memory migrated to the device go home
 * (uvm_devpriv_evict(), oldest first). Which chunk goes first is the eviction
 * policy of the VA space that needs the memory (uvm_evict_policy.h): lru
 * takes the list's head, the others rank every chunk on the list (one
 * pass per victim, under lru_lock: a few microseconds for thousands of
 * chunks, against the 2 MiB copy each victim costs).
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
#include <linux/ktime.h>
#include <linux/list.h>
#include <linux/sched/signal.h>
#include <linux/spinlock.h>

#include "uvm_devpriv.h"
#include "uvm_device.h"
#include "uvm_event_records.h"
#include "uvm_evict.h"
#include "uvm_managed.h"
#include "uvm_mem.h"
#include "uvm_svc_clock.h"

/* Chunk allocations retried after an eviction before giving up. */
#define UVM_EVICT_RETRIES	8

/* The aging epoch of @udev's access counts; lru_lock held. */
static u32 evict_epoch(const struct uvm_device *udev)
{
	return udev->evict_epoch;
}

/* Halve every access count of @udev (lazily: uvm_evict_hits_now()). */
static void evict_age(struct uvm_device *udev)
{
	udev->evict_epoch++;
	udev->evict_hits >>= 1;
}

/* One access more on @udev: age the counts once they average too much. */
static void evict_count_hit(struct uvm_device *udev)
{
	if (++udev->evict_hits >
	    (u64)UVM_EVICT_AGING_MEAN * max_t(u32, udev->evict_chunks, 1))
		evict_age(udev);
}

/**
 * uvm_lru_touch() - @bd's chunk was accessed or migrated into: it goes to
 * the tail of its device's list and counts one access more.
 * @bd: a block's device state; nothing if it holds no chunk.
 */
void uvm_lru_touch(struct uvm_block_dev *bd)
{
	struct uvm_device *udev = bd->udev;
	u32 epoch;

	spin_lock(&udev->lru_lock);
	if (!list_empty(&bd->lru)) {
		list_move_tail(&bd->lru, &udev->lru);
		epoch = evict_epoch(udev);
		bd->evict.hits = min_t(u32, uvm_evict_hits_now(&bd->evict, epoch),
				       U32_MAX - 1) + 1;
		bd->evict.epoch = epoch;
		evict_count_hit(udev);
	}
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
	if (!list_empty(&bd->lru)) {
		list_del_init(&bd->lru);
		udev->evict_chunks--;
		udev->evict_hits -= min_t(u64, udev->evict_hits,
					  uvm_evict_hits_now(&bd->evict,
							     evict_epoch(udev)));
	}
	spin_unlock(&udev->lru_lock);
}

/* Chosen victims whose block was busy, skipped before giving up on ranks. */
#define UVM_EVICT_BUSY_MAX	8

/* Is @bd one of the @n of @busy? */
static bool evict_was_busy(struct uvm_block_dev *const *busy, unsigned int n,
			   const struct uvm_block_dev *bd)
{
	while (n--)
		if (busy[n] == bd)
			return true;
	return false;
}

/* The lowest-ranked chunk of @udev not in @busy; lru_lock held. */
static struct uvm_block_dev *evict_best(struct uvm_device *udev,
					const struct uvm_evict_policy *pol,
					const struct uvm_evict_ctx *ctx,
					struct uvm_block_dev *const *busy,
					unsigned int nbusy,
					const struct uvm_managed *own)
{
	struct uvm_block_dev *bd, *best = NULL;
	u64 rank, best_rank = 0;

	list_for_each_entry(bd, &udev->lru, lru) {
		if (evict_was_busy(busy, nbusy, bd) ||
		    (own && bd->block->mgd != own))
			continue;
		rank = pol->rank(&bd->evict, ctx);
		if (!best || rank < best_rank) {
			best = bd;
			best_rank = rank;
		}
	}
	return best;
}

/*
 * The chunk @mgd's eviction policy ranks first among those whose block can
 * be trylocked (@own: only @mgd's own chunks): the locked block with a
 * reference, or NULL (none left, or UVM_EVICT_BUSY_MAX chosen blocks were
 * busy).
 */
static struct uvm_va_block *evict_pick_ranked(struct uvm_device *udev,
					      const struct uvm_evict_policy *pol,
					      u64 seed, struct uvm_managed *mgd,
					      bool own)
{
	struct uvm_block_dev *busy[UVM_EVICT_BUSY_MAX], *bd;
	struct uvm_evict_ctx ctx = {
		.seed = seed, .nth = atomic64_read(&mgd->perf.evict_nth),
	};
	struct uvm_va_block *block;
	unsigned int nbusy = 0;

	spin_lock(&udev->lru_lock);
	ctx.epoch = evict_epoch(udev);
	while ((bd = evict_best(udev, pol, &ctx, busy, nbusy,
				own ? mgd : NULL))) {
		block = bd->block;
		if (mutex_trylock(&block->lock)) {
			/* On the list, the block is alive: its VA space holds it. */
			refcount_inc(&block->refs);
			list_move_tail(&bd->lru, &udev->lru);
			spin_unlock(&udev->lru_lock);
			atomic64_inc(&mgd->perf.evict_nth);
			uvm_count(mgd, UVM_STAT_EVICT_PICKS, 1);
			return block;
		}
		uvm_count(mgd, UVM_STAT_EVICT_BUSY, 1);
		if (nbusy == UVM_EVICT_BUSY_MAX)
			break;
		busy[nbusy++] = bd;
	}
	spin_unlock(&udev->lru_lock);
	return NULL;
}

/*
 * Pick the least recently accessed chunk (of @own, if not NULL) whose block
 * can be locked (@blocking: wait for it; else trylock). Returns the locked
 * block with a reference, or NULL.
 */
static struct uvm_va_block *evict_pick_lru(struct uvm_device *udev,
					   bool blocking,
					   const struct uvm_managed *own)
{
	struct uvm_va_block *block;
	struct uvm_block_dev *bd;

	spin_lock(&udev->lru_lock);
	list_for_each_entry(bd, &udev->lru, lru) {
		block = bd->block;
		if (own && block->mgd != own)
			continue;
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

/*
 * The next victim on @udev for @mgd (NULL: the device is going away, take
 * them in list order, waiting for each; @own: only @mgd's chunks): the
 * locked block with a reference, or NULL if nothing can be taken now.
 */
static struct uvm_va_block *evict_pick(struct uvm_device *udev,
				       struct uvm_managed *mgd, bool own)
{
	const struct uvm_evict_policy *pol;
	struct uvm_va_block *block;
	u64 seed;

	if (!mgd)
		return evict_pick_lru(udev, true, NULL);
	pol = uvm_perf_evict_policy(&mgd->perf, &seed);
	if (pol->rank) {
		block = evict_pick_ranked(udev, pol, seed, mgd, own);
		if (block)
			return block;
	}
	block = evict_pick_lru(udev, false, own ? mgd : NULL);
	if (block)
		uvm_count(mgd, UVM_STAT_EVICT_PICKS, 1);
	return block;
}

static s64 evict_one(struct uvm_device *udev, struct uvm_managed *mgd,
		     bool own)
{
	struct uvm_va_block *block;
	u64 t0 = ktime_get_ns();
	s64 freed = 0;

	block = evict_pick(udev, mgd, own);
	if (!block)
		return -ENOSPC;
	if (!block->dead)
		freed = uvm_block_evict_dev_locked(block, udev->id);
	if (mgd && freed > 0)	/* the victim's address only if its own */
		uvm_event_evict(mgd, block->start, freed, udev->id,
				block->mgd == mgd, ktime_get_ns() - t0);
	mutex_unlock(&block->lock);
	uvm_block_put(block);
	if (freed > 0) {
		spin_lock(&udev->lru_lock);
		if (!(++udev->evict_count % UVM_EVICT_AGING_EVICTIONS))
			evict_age(udev);
		spin_unlock(&udev->lru_lock);
	}
	return freed;
}

/* uvm_evict_device_memory(), counting the victims in @clk (or NULL). */
static int evict_bytes(struct uvm_device *udev, u64 bytes,
		       struct uvm_managed *mgd, struct uvm_svc_clock *clk)
{
	u64 freed = 0;
	int busy = 0;
	s64 ret;

	while (freed < bytes) {
		/* Each victim is a 2 MiB copy home: a large request is killable. */
		if (fatal_signal_pending(current))
			return freed ? 0 : -EINTR;
		ret = evict_one(udev, mgd, false);
		if (ret == -ENOSPC) {
			/* No managed chunk left: pageable data goes home. */
			ret = uvm_devpriv_evict(udev, bytes - freed);
			if (ret > 0)
				freed += ret;
			break;
		}
		cond_resched();
		if (ret <= 0) {		/* busy, failed or nothing freed */
			if (++busy > UVM_EVICT_RETRIES)
				break;
			continue;
		}
		if (clk)
			clk->evictions++;
		freed += ret;
	}
	return freed ? 0 : -ENOSPC;
}

/**
 * uvm_evict_device_memory() - free device memory by evicting managed data.
 * @udev: the device.
 * @bytes: how much to free.
 * @mgd: the VA space that needs the memory: its eviction policy chooses.
 *
 * Called with no lock but possibly one block lock held (victims are only
 * trylocked).
 *
 * Stops early, between victims, on a fatal signal.
 *
 * Return: 0 if anything was freed, -ENOSPC if nothing could be evicted,
 * -EINTR if a fatal signal came first.
 */
int uvm_evict_device_memory(struct uvm_device *udev, u64 bytes,
			    struct uvm_managed *mgd)
{
	return evict_bytes(udev, bytes, mgd, NULL);
}

/*
 * Reserve a chunk's worth of @mgd's cap on @udev (UVM_PERF_CAP), evicting
 * @mgd's own chunks while it is over: a capped VA space makes its own
 * room, never another's. Return: 0 (reserved), -ENOSPC (its other chunks
 * are all busy) or -EINTR.
 */
static int evict_reserve_cap(struct uvm_device *udev, struct uvm_managed *mgd,
			     struct uvm_svc_clock *clk)
{
	atomic64_t *used = &mgd->perf.dev_bytes[udev->id];
	int busy = 0;
	u64 cap;
	s64 ret;

	for (;;) {
		cap = uvm_perf_cap(&mgd->perf, udev->id);
		if (!cap || atomic64_add_return(UVM_BLOCK_SIZE, used) <= cap)
			break;
		atomic64_sub(UVM_BLOCK_SIZE, used);
		if (fatal_signal_pending(current))
			return -EINTR;
		ret = evict_one(udev, mgd, true);
		if (ret > 0 && clk)
			clk->evictions++;
		if (ret == -ENOSPC ||
		    (ret <= 0 && ++busy > UVM_EVICT_RETRIES))
			return -ENOSPC;
		cond_resched();
	}
	if (!cap)
		atomic64_add(UVM_BLOCK_SIZE, used);
	return 0;
}

/**
 * uvm_evict_alloc_chunk() - give @bd a block-sized chunk of device memory.
 * @bd: device state of a block; caller holds the block's lock.
 * @clk: the fault batch's clock, which counts the evictions; or NULL.
 *
 * A VA space capped on the device (UVM_PERF_CAP) first makes room under
 * its cap by evicting its own chunks.
 *
 * Return: 0, -ENOSPC (full, nothing evictable; or at the cap and none of
 * the VA space's own chunks evictable), -ENODEV (device going away),
 * -ENOMEM or -EINTR (fatal signal while evicting).
 */
int uvm_evict_alloc_chunk(struct uvm_block_dev *bd, struct uvm_svc_clock *clk)
{
	struct uvm_managed *mgd = bd->block->mgd;
	struct uvm_device *udev = bd->udev;
	struct uvm_mem *mem;
	int tries, ret;

	lockdep_assert_held(&bd->block->lock);
	ret = evict_reserve_cap(udev, mgd, clk);
	if (ret)
		return ret;
	for (tries = 0; ; tries++) {
		mem = uvm_mem_alloc(udev, UVM_BLOCK_SIZE, UVM_BLOCK_SIZE,
				    UVM_MEM_CONTIGUOUS | UVM_MEM_UNCLEARED);
		if (!IS_ERR(mem))
			break;
		ret = PTR_ERR(mem);
		if (ret == -ENOSPC && tries < UVM_EVICT_RETRIES) {
			ret = evict_bytes(udev, UVM_BLOCK_SIZE, mgd, clk);
			if (!ret)
				continue;
			ret = ret == -EINTR ? ret : -ENOSPC;
		}
		goto err_unreserve;
	}

	spin_lock(&udev->lru_lock);
	if (udev->dying) {
		spin_unlock(&udev->lru_lock);
		uvm_mem_free(mem);
		ret = -ENODEV;
		goto err_unreserve;
	}
	bd->chunk = mem;
	bd->evict = (struct uvm_evict_info){
		.alloc_seq = ++udev->evict_allocs,
		.va_seq = atomic64_inc_return(&bd->block->mgd->perf.chunk_seq),
		.hits = 1,
		.epoch = evict_epoch(udev),
	};
	list_add_tail(&bd->lru, &udev->lru);
	udev->evict_chunks++;
	evict_count_hit(udev);
	spin_unlock(&udev->lru_lock);
	return 0;

err_unreserve:
	atomic64_sub(UVM_BLOCK_SIZE, &mgd->perf.dev_bytes[udev->id]);
	return ret;
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

	while ((ret = evict_one(udev, NULL, false)) != -ENOSPC) {
		cond_resched();
		if (ret <= 0 && ++failures > UVM_EVICT_RETRIES) {
			pr_err("uvm: device %u: managed data could not be migrated home (%lld)\n",
			       udev->id, ret);
			break;
		}
	}
}
