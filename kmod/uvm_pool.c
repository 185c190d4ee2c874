// SPDX-License-Identifier: GPL-2.0
/*
 * DOC: Host page pool
 *
 * Every migration away from a host node frees host pages, and every
 * migration to one allocates them: a prefetch to a device and back, a CPU
 * fault-back, an eviction. The page allocator zeroes each page it hands out
 * when init_on_alloc is on (the default of Debian's kernels), although a
 * migration overwrites the whole page at once; it also charges the memory
 * cgroup page by page.
 *
 * So each VA space keeps the host pages its migrations freed, per NUMA
 * node, up to host_pool_mb, and takes its migration targets from there
 * first. Only pages the module holds the last reference to are pooled (no
 * PTE, no GUP pin). Pooled pages keep the data of the same VA space, stay
 * charged to its memory cgroup, and are only ever handed out as the target
 * of a copy that overwrites them, never as a zero-filled page; munmap and
 * process exit free pages to the system, not to the pool.
 *
 * A shrinker gives pooled pages back to the system under memory pressure.
 * It is not memory-cgroup aware (pooled pages are not on a list_lru), so a
 * cgroup's own reclaim does not reach them; instead a VA space whose
 * allocation fails drains its own pool and retries (uvm_block.c). Other
 * processes of the same cgroup see the pool as memory in use, at most
 * host_pool_mb per VA space.
 */
#include <linux/mm.h>
#include <linux/moduleparam.h>
#include <linux/nodemask.h>
#include <linux/slab.h>
#include <linux/swap.h>

#include "uvm_compat.h"
#include "uvm_drv.h"
#include "uvm_pool.h"

static unsigned int uvm_pool_max_mb = 64;

static struct uvm_param_range host_pool_mb_range = {
	.val = &uvm_pool_max_mb, .min = 0, .max = 65536,
};
module_param_cb(host_pool_mb, &uvm_param_range_ops, &host_pool_mb_range, 0644);
MODULE_PARM_DESC(host_pool_mb,
		 "MiB of freed host pages each VA space keeps for its next migrations, 0..65536 (default 64, 0: none)");

static LIST_HEAD(uvm_pools);
static DEFINE_SPINLOCK(uvm_pools_lock);	/* Protects uvm_pools */
static atomic_long_t uvm_pooled = ATOMIC_LONG_INIT(0);
static struct shrinker *uvm_pool_shrinker;

/**
 * uvm_pool_init() - set up an empty pool.
 * @pool: the pool.
 *
 * Return: 0 or -ENOMEM.
 */
int uvm_pool_init(struct uvm_page_pool *pool)
{
	int nid;

	pool->lists = kcalloc(nr_node_ids, sizeof(*pool->lists), GFP_KERNEL);
	if (!pool->lists)
		return -ENOMEM;
	for (nid = 0; nid < nr_node_ids; nid++)
		INIT_LIST_HEAD(&pool->lists[nid]);
	spin_lock_init(&pool->lock);
	pool->nr = 0;
	spin_lock(&uvm_pools_lock);
	list_add_tail(&pool->link, &uvm_pools);
	spin_unlock(&uvm_pools_lock);
	return 0;
}

/* Free @n pages taken out of a pool. */
static void pool_release(struct page **pages, unsigned int n)
{
	if (!n)
		return;
	atomic_long_sub(n, &uvm_acct.pages);
	release_pages(pages, n);
}

/* Take up to @n pages off @list into @pages; caller holds the pool lock. */
static unsigned int pool_list_take(struct list_head *list, struct page **pages,
				   unsigned int n)
{
	unsigned int k = 0;

	for (; k < n && !list_empty(list); k++) {
		pages[k] = list_first_entry(list, struct page, lru);
		list_del(&pages[k]->lru);
	}
	return k;
}

/* Take up to @n pages out of @pool, any node, into @pages. */
static unsigned int pool_grab(struct uvm_page_pool *pool, struct page **pages,
			      unsigned int n)
{
	unsigned int k = 0;
	int nid;

	spin_lock(&pool->lock);
	for (nid = 0; nid < nr_node_ids && k < n; nid++)
		k += pool_list_take(&pool->lists[nid], pages + k, n - k);
	pool->nr -= k;
	spin_unlock(&pool->lock);
	atomic_long_sub(k, &uvm_pooled);
	return k;
}

/* Take up to @n pages out of @pool and free them. */
static unsigned long pool_drain_n(struct uvm_page_pool *pool, unsigned long n)
{
	struct page *pages[32];
	unsigned long freed = 0;
	unsigned int k;

	while (freed < n) {
		k = pool_grab(pool, pages, min_t(unsigned long,
						 ARRAY_SIZE(pages), n - freed));
		if (!k)
			break;
		pool_release(pages, k);
		freed += k;
	}
	return freed;
}

/**
 * uvm_pool_drain() - free every page of @pool to the system.
 * @pool: the pool.
 *
 * Return: how many pages were freed.
 */
unsigned long uvm_pool_drain(struct uvm_page_pool *pool)
{
	return pool_drain_n(pool, ULONG_MAX);
}

/**
 * uvm_pool_fini() - free every pooled page.
 * @pool: the pool; nobody else uses it any more.
 */
void uvm_pool_fini(struct uvm_page_pool *pool)
{
	if (!pool->lists)
		return;
	spin_lock(&uvm_pools_lock);
	list_del(&pool->link);
	spin_unlock(&uvm_pools_lock);
	pool_drain_n(pool, ULONG_MAX);
	kfree(pool->lists);
	pool->lists = NULL;
}

/**
 * uvm_pool_take() - up to @n pooled pages of node @nid.
 * @pool: the pool.
 * @nid: NUMA node.
 * @pages: out.
 * @n: how many are wanted.
 *
 * The pages hold stale data of this VA space: the caller overwrites them.
 *
 * Return: how many pages were stored in @pages.
 */
unsigned int uvm_pool_take(struct uvm_page_pool *pool, int nid,
			   struct page **pages, unsigned int n)
{
	unsigned int k;

	if (nid < 0 || nid >= nr_node_ids || !READ_ONCE(pool->nr))
		return 0;
	spin_lock(&pool->lock);
	k = pool_list_take(&pool->lists[nid], pages, n);
	pool->nr -= k;
	spin_unlock(&pool->lock);
	atomic_long_sub(k, &uvm_pooled);
	return k;
}

/* Only a page nothing but the module references may be reused. */
static bool page_poolable(struct page *page)
{
	return page_count(page) == 1 && !uvm_page_mapped(page) &&
	       !PageLocked(page);
}

/**
 * uvm_pool_give() - pool (or free) host pages a migration no longer needs.
 * @pool: the pool.
 * @pages: pages from uvm_block_alloc_page(s), unmapped; the caller's
 *	   references pass to the pool.
 * @n: how many.
 */
void uvm_pool_give(struct uvm_page_pool *pool, struct page **pages,
		   unsigned int n)
{
	unsigned long max = (unsigned long)READ_ONCE(uvm_pool_max_mb) <<
			    (20 - PAGE_SHIFT);
	unsigned int i, kept = 0, freed = 0;

	spin_lock(&pool->lock);
	for (i = 0; i < n; i++) {
		if (pool->nr < max && page_poolable(pages[i])) {
			/* FIFO: pages come back out in the order they went
			 * in, so runs that were contiguous stay contiguous
			 * (one copy segment instead of one per page).
			 */
			list_add_tail(&pages[i]->lru,
				      &pool->lists[page_to_nid(pages[i])]);
			pool->nr++;
			kept++;
		} else {
			pages[freed++] = pages[i];
		}
	}
	spin_unlock(&pool->lock);
	atomic_long_add(kept, &uvm_pooled);
	pool_release(pages, freed);
}

/**
 * uvm_pool_pages() - host pages held in all pools now.
 *
 * Return: the number of pages.
 */
unsigned long uvm_pool_pages(void)
{
	return atomic_long_read(&uvm_pooled);
}

static unsigned long pool_count(struct shrinker *s, struct shrink_control *sc)
{
	return atomic_long_read(&uvm_pooled) ?: SHRINK_EMPTY;
}

/*
 * Free up to sc->nr_to_scan pooled pages, taking from each pool in turn.
 * Pages are taken out under the locks and freed after them.
 */
static unsigned long pool_scan(struct shrinker *s, struct shrink_control *sc)
{
	unsigned long freed = 0, want = sc->nr_to_scan;
	struct uvm_page_pool *pool;
	struct page *pages[32];
	unsigned int k;

	while (freed < want) {
		k = 0;
		spin_lock(&uvm_pools_lock);
		list_for_each_entry(pool, &uvm_pools, link) {
			k += pool_grab(pool, pages + k,
				       min_t(unsigned long,
					     ARRAY_SIZE(pages) - k,
					     want - freed - k));
			if (k == ARRAY_SIZE(pages) || freed + k >= want)
				break;
		}
		spin_unlock(&uvm_pools_lock);
		if (!k)
			break;
		pool_release(pages, k);
		freed += k;
	}
	return freed ?: SHRINK_STOP;
}

/**
 * uvm_pool_register() - register the shrinker of all pools.
 *
 * Return: 0 or -ENOMEM.
 */
int uvm_pool_register(void)
{
	uvm_pool_shrinker = uvm_shrinker_create("uvm-host-pool", pool_count,
						pool_scan);
	return uvm_pool_shrinker ? 0 : -ENOMEM;
}

/**
 * uvm_pool_unregister() - unregister the shrinker (every pool is gone).
 */
void uvm_pool_unregister(void)
{
	uvm_shrinker_destroy(uvm_pool_shrinker);
}
