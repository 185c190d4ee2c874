// SPDX-License-Identifier: GPL-2.0
/*
 * DOC: Blocks
 *
 * Managed VA is tracked in 2 MiB-aligned windows, struct uvm_va_block, each
 * with per-page state under one mutex: the host page holding the data (if
 * any), and whether the CPU maps it and may write it. Blocks are created on
 * first use (fault, prefetch) and freed when munmap leaves them empty.
 *
 * The module owns the pages: it allocates them (charged to the VA space's
 * memory cgroup), hands them to the CPU page table from its fault handler
 * and zaps the PTEs itself, through the VA space's private address_space,
 * before it migrates or frees a page. Faults install PTEs only under the
 * block's lock (uvm_fault.c), so a zap under that lock is final.
 */
#include <linux/highmem.h>
#include <linux/log2.h>
#include <linux/memcontrol.h>
#include <linux/mm.h>
#include <linux/pagemap.h>
#include <linux/sched/mm.h>
#include <linux/slab.h>
#include <linux/timekeeping.h>

#include "uvm_compat.h"
#include "uvm_drv.h"
#include "uvm_managed.h"
#include "uvm_event_records.h"
#include "uvm_thrash.h"
#include "uvm_trace.h"

struct uvm_counters uvm_global_counters;

static struct uvm_va_block *block_create(struct uvm_managed *mgd,
					 unsigned long start)
{
	struct uvm_va_block *block;

	block = kzalloc(sizeof(*block), GFP_KERNEL_ACCOUNT);
	if (!block)
		return NULL;
	mutex_init(&block->lock);
	refcount_set(&block->refs, 1);
	block->start = start;
	block->mgd = mgd;
	uvm_thrash_init(&block->thrash);
	return block;
}

/**
 * uvm_block_get() - the block covering @addr, created if needed.
 * @mgd: managed state; caller holds @mgd->lock (read or write).
 * @addr: a managed address.
 *
 * Return: the block (valid while @mgd->lock is held) or NULL on -ENOMEM.
 */
struct uvm_va_block *uvm_block_get(struct uvm_managed *mgd,
				   unsigned long addr)
{
	unsigned long index = addr >> UVM_BLOCK_SHIFT;
	struct uvm_va_block *block, *old;

	lockdep_assert_held(&mgd->lock);
	block = xa_load(&mgd->blocks, index);
	if (block)
		return block;

	block = block_create(mgd, index << UVM_BLOCK_SHIFT);
	if (!block)
		return NULL;
	old = xa_cmpxchg(&mgd->blocks, index, NULL, block, GFP_KERNEL);
	if (!old)
		return block;
	kfree(block);
	return xa_is_err(old) ? NULL : old;
}

/**
 * uvm_block_put() - drop a reference; the last one frees the block.
 * @block: a dead block (or one whose last reference is not the last put).
 */
void uvm_block_put(struct uvm_va_block *block)
{
	if (!refcount_dec_and_test(&block->refs))
		return;
	mutex_destroy(&block->lock);
	kfree(block);
}

/**
 * uvm_block_alloc_page() - a host page for managed data.
 * @mgd: charged VA space.
 * @nid: NUMA node to allocate on.
 * @flags: UVM_ALLOC_ZERO (for pages nobody copies into),
 *         UVM_ALLOC_THISNODE (fail rather than fall back to another node).
 *
 * Return: the page or NULL.
 */
struct page *uvm_block_alloc_page(struct uvm_managed *mgd, int nid,
				  unsigned int flags)
{
	gfp_t gfp = GFP_HIGHUSER | __GFP_ACCOUNT | __GFP_RETRY_MAYFAIL |
		    __GFP_NOWARN;
	struct mem_cgroup *old;
	struct page *page;

	if (flags & UVM_ALLOC_THISNODE)
		gfp |= __GFP_THISNODE;
	if (flags & UVM_ALLOC_ZERO)
		gfp |= __GFP_ZERO;
	old = set_active_memcg(mgd->memcg);
	page = alloc_pages_node(nid, gfp, 0);
	/*
	 * The VA space's own pooled pages count against its memory cgroup,
	 * and the cgroup's reclaim cannot reach them (the pool's shrinker is
	 * global): give them back before failing.
	 */
	if (!page && uvm_pool_drain(&mgd->pool))
		page = alloc_pages_node(nid, gfp, 0);
	set_active_memcg(old);
	if (page)
		atomic_long_inc(&uvm_acct.pages);
	return page;
}

/* Try one 2^@order allocation on @nid, split into pages. */
static struct page *alloc_split(int nid, unsigned int order, bool zero)
{
	gfp_t gfp = GFP_HIGHUSER | __GFP_ACCOUNT | __GFP_NORETRY |
		    __GFP_NOWARN | __GFP_THISNODE | (zero ? __GFP_ZERO : 0);
	struct page *page = alloc_pages_node(nid, gfp, order);

	if (page && order)
		split_page(page, order);
	return page;
}

/* The largest split allocation of at most 2^*@order pages that succeeds:
 * a fragmented node steps down the orders before single pages.
 */
static struct page *alloc_split_best(int nid, unsigned int *order, bool zero)
{
	struct page *page;

	for (; *order; *order /= 2) {
		page = alloc_split(nid, *order, zero);
		if (page)
			return page;
	}
	return NULL;
}

/**
 * uvm_block_alloc_pages() - @n host pages.
 * @mgd: charged VA space.
 * @nid: NUMA node (falls back to others).
 * @pages: out, @n pages.
 * @n: how many.
 * @flags: UVM_ALLOC_ZERO: zeroed (by the page allocator, which zeroes every
 *         page anyway when init_on_alloc is on, as on Debian's kernels);
 *         UVM_ALLOC_THISNODE: never fall back to another node.
 *
 * Unless they must be zeroed, takes them from the VA space's pool of
 * recycled pages first (uvm_pool.c). Allocates the rest as few high-order
 * allocations split into pages (one allocation and one memory-cgroup charge
 * for a whole block instead of 512), falling back to single pages.
 *
 * Return: 0, or -ENOMEM with nothing allocated.
 */
int uvm_block_alloc_pages(struct uvm_managed *mgd, int nid,
			  struct page **pages, unsigned int n,
			  unsigned int flags)
{
	unsigned int done = 0, pooled = 0, order, i;
	struct mem_cgroup *old;
	struct page *page;

	if (!(flags & UVM_ALLOC_ZERO)) {
		pooled = uvm_pool_take(&mgd->pool, nid, pages, n);
		if (pooled)
			uvm_count(mgd, UVM_STAT_POOL_REUSED, pooled);
		done = pooled;
	}
	if (done == n)
		return 0;
	old = set_active_memcg(mgd->memcg);
	order = min_t(unsigned int, ilog2(n), UVM_BLOCK_SHIFT - PAGE_SHIFT);
	while (done < n) {
		order = min_t(unsigned int, order, ilog2(n - done));
		page = alloc_split_best(nid, &order, flags & UVM_ALLOC_ZERO);
		if (!page) {
			order = 0;
			set_active_memcg(old);
			page = uvm_block_alloc_page(mgd, nid, flags);
			old = set_active_memcg(mgd->memcg);
			if (!page)
				break;
			atomic_long_dec(&uvm_acct.pages);	/* counted below */
		}
		for (i = 0; i < (1U << order); i++)
			pages[done++] = page + i;
	}
	set_active_memcg(old);
	if (done < n) {
		while (done > pooled)
			put_page(pages[--done]);
		uvm_pool_give(&mgd->pool, pages, pooled);
		return -ENOMEM;
	}
	atomic_long_add(n - pooled, &uvm_acct.pages);
	return 0;
}

/**
 * uvm_block_put_page() - free a host page of managed data.
 * @page: a page from uvm_block_alloc_page(), no longer mapped.
 */
void uvm_block_put_page(struct page *page)
{
	atomic_long_dec(&uvm_acct.pages);
	put_page(page);
}

/**
 * uvm_block_put_pages() - free host pages of managed data in one batch.
 * @pages: pages from uvm_block_alloc_page(s), no longer mapped.
 * @n: how many.
 */
void uvm_block_put_pages(struct page **pages, unsigned int n)
{
	atomic_long_sub(n, &uvm_acct.pages);
	release_pages(pages, n);
}

static void block_put_host_pages(struct uvm_va_block *block,
				 struct page **pages, unsigned int n,
				 bool recycle)
{
	if (recycle)
		uvm_pool_give(&block->mgd->pool, pages, n);
	else
		uvm_block_put_pages(pages, n);
}

/*
 * Release the host pages of @mask (unmapped) in batches: to the VA space's
 * pool if @recycle (their data now lives elsewhere or was discarded), else
 * to the system (munmap).
 */
void uvm_block_free_host_pages_locked(struct uvm_va_block *block,
				      const unsigned long *mask, bool recycle)
{
	struct page *pages[64];
	unsigned int i, n = 0;

	lockdep_assert_held(&block->lock);
	for_each_set_bit(i, mask, UVM_BLOCK_PAGES) {
		if (!block->cpu_pages[i])
			continue;
		pages[n++] = block->cpu_pages[i];
		if (n == ARRAY_SIZE(pages)) {
			block_put_host_pages(block, pages, n, recycle);
			n = 0;
		}
		block->cpu_pages[i] = NULL;
		block->nr_cpu_pages--;
	}
	if (n)
		block_put_host_pages(block, pages, n, recycle);
}

/**
 * uvm_block_zap_cpu_locked() - remove the CPU PTEs of pages [first, last].
 * @block: the block; caller holds @block->lock.
 * @first: first page index.
 * @last: last page index (inclusive).
 */
void uvm_block_zap_cpu_locked(struct uvm_va_block *block, unsigned int first,
			      unsigned int last)
{
	lockdep_assert_held(&block->lock);
	unmap_mapping_range(&block->mgd->mapping,
			    block->start + ((loff_t)first << PAGE_SHIFT),
			    (loff_t)(last - first + 1) << PAGE_SHIFT, 1);
	bitmap_clear(block->cpu_mapped, first, last - first + 1);
	bitmap_clear(block->cpu_writable, first, last - first + 1);
	bitmap_clear(block->cpu_maps_dev, first, last - first + 1);
}

/**
 * uvm_block_zap_mask_locked() - remove the CPU PTEs of the pages of @mask.
 * @block: the block; caller holds @block->lock.
 * @mask: pages (one unmap_mapping_range() per run).
 */
void uvm_block_zap_mask_locked(struct uvm_va_block *block,
			       const unsigned long *mask)
{
	unsigned int start, end;

	for_each_set_bitrange(start, end, mask, UVM_BLOCK_PAGES)
		uvm_block_zap_cpu_locked(block, start, end - 1);
}

/* Pages allocated, copied or moved per pass: bounds on-stack page arrays. */
#define UVM_MOVE_BATCH	64

/*
 * Zeroed pages for the @n unpopulated pages from @i: one split high-order
 * allocation (and memory-cgroup charge) for the run where the node has it,
 * else page by page. Return: how many pages got backing (0 on -ENOMEM).
 */
static unsigned int populate_run(struct uvm_va_block *block, unsigned int i,
				 unsigned int n, int nid, unsigned int flags)
{
	struct page *pages[UVM_MOVE_BATCH];
	unsigned int k;

	if (n > 1 && !uvm_block_alloc_pages(block->mgd, nid, pages, n,
					    flags | UVM_ALLOC_ZERO)) {
		for (k = 0; k < n; k++)
			block->cpu_pages[i + k] = pages[k];
		return n;
	}
	pages[0] = uvm_block_alloc_page(block->mgd, nid, flags | UVM_ALLOC_ZERO);
	if (!pages[0])
		return 0;
	block->cpu_pages[i] = pages[0];
	return 1;
}

/**
 * uvm_block_populate_locked() - give pages [first, last] a zeroed host page.
 * @block: the block; caller holds @block->lock.
 * @first: first page index.
 * @last: last page index (inclusive).
 * @nid: NUMA node.
 * @thisnode: do not fall back to other nodes.
 *
 * Pages that already have backing are left alone.
 *
 * Return: 0 or -ENOMEM (pages populated so far stay populated).
 */
int uvm_block_populate_locked(struct uvm_va_block *block, unsigned int first,
			      unsigned int last, int nid, bool thisnode)
{
	unsigned int flags = thisnode ? UVM_ALLOC_THISNODE : 0;
	unsigned int i = first, n, got, done = 0;

	lockdep_assert_held(&block->lock);
	while (i <= last) {
		if (uvm_block_page_populated(block, i)) {
			i++;
			continue;
		}
		for (n = 1; i + n <= last && n < UVM_MOVE_BATCH &&
		     !uvm_block_page_populated(block, i + n);)
			n++;
		got = populate_run(block, i, n, nid, flags);
		if (!got)
			break;
		block->nr_cpu_pages += got;
		done += got;
		i += got;
	}
	if (done) {
		uvm_count(block->mgd, UVM_STAT_PAGES_POPULATED, done);
		trace_uvm_populate(block->start + ((unsigned long)first << PAGE_SHIFT),
				   done, nid);
	}
	return i <= last ? -ENOMEM : 0;
}

/**
 * uvm_block_populate_mask_locked() - populate the unpopulated pages of
 * @mask with zeroed host pages on @nid (falling back to other nodes).
 * @block: the block; caller holds @block->lock.
 * @mask: pages.
 * @nid: NUMA node.
 *
 * Return: 0 or -ENOMEM.
 */
int uvm_block_populate_mask_locked(struct uvm_va_block *block,
				   const unsigned long *mask, int nid)
{
	unsigned int start, end;
	int ret;

	for_each_set_bitrange(start, end, mask, UVM_BLOCK_PAGES) {
		ret = uvm_block_populate_locked(block, start, end - 1, nid,
						false);
		if (ret)
			return ret;
	}
	return 0;
}

/**
 * uvm_block_page_held() - does anyone but the block hold @page?
 * @page: a host page of a block whose CPU PTEs of it are zapped.
 *
 * With its PTEs gone the block's is the only reference a page can have,
 * unless get_user_pages() took one before (O_DIRECT, vmsplice, RDMA, a
 * host registration): a write through that reference may still land, so
 * the page must stay the copy of record (as migrate_vma() skips pages with
 * unexpected references). No new reference can appear meanwhile: a new
 * lookup faults and waits for the block lock.
 *
 * Return: true if the page must not be replaced.
 */
bool uvm_block_page_held(struct page *page)
{
	return page_count(page) != 1;
}

/**
 * uvm_block_page_held_mapped() - uvm_block_page_held() for a page whose CPU
 * PTEs stay (the host copy of a read duplicate): each PTE holds a
 * reference of its own (vm_insert_pages()).
 * @page: a host page of a block.
 *
 * Return: true if someone else holds @page (or may, for an instant: a
 * speculative reference is taken for a hold, which errs the safe way).
 */
bool uvm_block_page_held_mapped(struct page *page)
{
	return page_count(page) != 1 + uvm_page_mapcount(page);
}

/**
 * uvm_block_release_range_locked() - free the pages [first, last].
 * @block: the block; caller holds @block->lock.
 * @first: first page index.
 * @last: last page index (inclusive).
 *
 * The caller has removed every CPU mapping of the range (munmap did).
 */
void uvm_block_release_range_locked(struct uvm_va_block *block,
				    unsigned int first, unsigned int last)
{
	DECLARE_BITMAP(mask, UVM_BLOCK_PAGES);
	unsigned int freed = block->nr_cpu_pages;

	lockdep_assert_held(&block->lock);
	bitmap_zero(mask, UVM_BLOCK_PAGES);
	bitmap_set(mask, first, last - first + 1);
	uvm_block_release_devs_locked(block, mask);
	bitmap_clear(block->cpu_maps_dev, first, last - first + 1);
	uvm_block_free_host_pages_locked(block, mask, false);
	freed -= block->nr_cpu_pages;
	bitmap_clear(block->cpu_mapped, first, last - first + 1);
	bitmap_clear(block->cpu_writable, first, last - first + 1);
	if (freed)
		uvm_count(block->mgd, UVM_STAT_PAGES_FREED, freed);
}

/**
 * uvm_block_free() - release a block taken out of its VA space.
 * @block: a block no longer reachable from its VA space's xarray.
 *
 * Marks it dead (eviction skips it from then on), frees its pages and
 * device memory, and drops the VA space's reference.
 */
void uvm_block_free(struct uvm_va_block *block)
{
	mutex_lock(&block->lock);
	block->dead = true;
	uvm_block_release_range_locked(block, 0, UVM_BLOCK_PAGES - 1);
	mutex_unlock(&block->lock);
	uvm_block_put(block);
}

/**
 * uvm_managed_punch() - release every page of [start, end) (munmap).
 * @mgd: managed state; caller holds @mgd->lock for write.
 * @start: page-aligned start.
 * @end: page-aligned end.
 */
void uvm_managed_punch(struct uvm_managed *mgd, unsigned long start,
		       unsigned long end)
{
	unsigned long addr = start, next;
	struct uvm_va_block *block;
	bool empty;

	lockdep_assert_held_write(&mgd->lock);
	for (; addr < end; addr = next) {
		next = min(end, (addr | (UVM_BLOCK_SIZE - 1)) + 1);
		block = xa_load(&mgd->blocks, addr >> UVM_BLOCK_SHIFT);
		if (!block)
			continue;
		mutex_lock(&block->lock);
		uvm_block_release_range_locked(block, uvm_block_index(addr),
					       uvm_block_index(next - 1));
		empty = !block->nr_cpu_pages && !block->nr_devs;
		block->dead = empty;
		mutex_unlock(&block->lock);
		if (empty) {
			xa_erase(&mgd->blocks, addr >> UVM_BLOCK_SHIFT);
			uvm_block_put(block);
		}
	}
}
