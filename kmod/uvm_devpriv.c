// SPDX-License-Identifier: GPL-2.0
/*
 * DOC: Device-private pages (pageable memory, the migration level)
 *
 * Where the kernel has DEVICE_PRIVATE, every device's memory is also
 * registered with memremap_pages(MEMORY_DEVICE_PRIVATE): one struct page
 * per page of device memory, in a physical range no RAM uses
 * (request_free_mem_region()), owned by the device (the pagemap's owner
 * is the struct uvm_device). Anonymous memory a process migrates to the
 * device (uvm_pageable_migrate.c) lives in such pages; the CPU page table
 * holds a device-private swap entry for them, and a CPU access runs the
 * pagemap's migrate_to_ram, which brings the page (and its neighbours on
 * the same device, up to DP_FAULT_PAGES) home, as nouveau and amdgpu do,
 * in pieces that idle CPUs (the copy engine's helpers) move alongside.
 *
 * Device memory for them comes from the device's allocator in 2 MiB chunks
 * (the managed block size), so managed and pageable data share and compete
 * for the device. Device-private page i is device offset i * PAGE_SIZE. A
 * chunk hands its 512 pages out one by one; a page the kernel frees
 * (folio_free/page_free: the last reference gone, in any context) goes back
 * to its chunk, and an emptied chunk goes back to the allocator from
 * @free_work.
 *
 * Eviction: when a device allocation finds no room and no managed chunk
 * can be evicted (uvm_evict.c), the oldest chunk of pageable pages is
 * evicted here: migrate_device_range() over its pages moves them home in
 * whichever process maps them; pages that are busy (locked by a migration
 * in flight) are left.
 *
 * Removal: uvm_devpriv_drain() stops new pages and moves every page home
 * while the device is still reachable (before drm_dev_unplug()), then
 * uvm_devpriv_fini() unregisters the pagemap.
 *
 * Locks: @lock (spinlock, innermost: taken in folio_free, which may run
 * under a page table lock) protects the chunk lists, @dying and every
 * chunk's page map, count and list entry.
 */
#include <linux/highmem.h>
#include <linux/ioport.h>
#include <linux/memremap.h>
#include <linux/mempolicy.h>
#include <linux/migrate.h>
#include <linux/mm.h>
#include <linux/mmzone.h>
#include <linux/slab.h>
#include <linux/workqueue.h>

#include "uvm_ce.h"
#include "uvm_devpriv.h"
#include "uvm_device.h"
#include "uvm_evict.h"
#include "uvm_managed.h"
#include "uvm_mem.h"

#ifdef UVM_HAVE_DEVPRIV

#define DP_CHUNK_PAGES	UVM_BLOCK_PAGES
/* A CPU fault brings home its aligned 256 KiB, in 4 pieces moved at once. */
#define DP_FAULT_PIECES	4
#define DP_FAULT_PAGES	(DP_FAULT_PIECES * UVM_DEVPRIV_HOME_PAGES)
/* Backend copy segments per call. */
#define DP_COPY_SEGS	16

/**
 * struct dp_chunk - one 2 MiB chunk of device memory holding pageable pages.
 * @dp: its device's state.
 * @mem: the device memory.
 * @first_pfn: device-private pfn of its first page.
 * @used: pages handed out.
 * @link: in @dp->chunks (oldest first), or @dp->empty once @used is 0.
 * @map: which pages are handed out.
 */
struct dp_chunk {
	struct uvm_devpriv *dp;
	struct uvm_mem *mem;
	unsigned long first_pfn;
	unsigned int used;
	struct list_head link;
	DECLARE_BITMAP(map, DP_CHUNK_PAGES);
};

/**
 * struct uvm_devpriv - a device's memory as device-private pages.
 * @udev: the device.
 * @pgmap: the pagemap (owner: @udev).
 * @res: the physical range its pages use.
 * @base_pfn: pfn of device offset 0.
 * @lock: see DOC.
 * @chunks: chunks with pages handed out, oldest first.
 * @empty: chunks with none, for @free_work to give back.
 * @dying: the device is going: no new pages.
 * @pages: pages handed out (what the drain reports while it waits).
 * @free_work: gives back @empty's chunks.
 */
struct uvm_devpriv {
	struct uvm_device *udev;
	struct dev_pagemap pgmap;
	struct resource *res;
	unsigned long base_pfn;
	spinlock_t lock;	/* Protects chunks, empty, dying, dp_chunk */
	struct list_head chunks;
	struct list_head empty;
	bool dying;
	atomic_long_t pages;
	struct work_struct free_work;
};

static struct dp_chunk *page_chunk(struct page *page)
{
	return page->zone_device_data;
}

/** uvm_devpriv_offset() - the device offset of a device-private page. */
u64 uvm_devpriv_offset(struct page *page)
{
	struct dp_chunk *c = page_chunk(page);

	return c->mem->offset + ((page_to_pfn(page) - c->first_pfn) << PAGE_SHIFT);
}

/* The page is free again: back to its chunk. Any context. */
static void dp_page_free(struct page *page)
{
	struct dp_chunk *c = page_chunk(page);
	struct uvm_devpriv *dp = c->dp;
	bool empty;

	spin_lock(&dp->lock);
	__clear_bit(page_to_pfn(page) - c->first_pfn, c->map);
	empty = !--c->used;
	if (empty)
		list_move_tail(&c->link, &dp->empty);
	spin_unlock(&dp->lock);
	atomic_long_dec(&dp->pages);
	if (empty)
		schedule_work(&dp->free_work);
}

#ifdef UVM_HAVE_PGMAP_FOLIO_FREE
static void dp_folio_free(struct folio *folio)
{
	dp_page_free(&folio->page);
}
#endif

static void dp_free_work(struct work_struct *work)
{
	struct uvm_devpriv *dp = container_of(work, struct uvm_devpriv,
					      free_work);
	struct dp_chunk *c;

	for (;;) {
		spin_lock(&dp->lock);
		c = list_first_entry_or_null(&dp->empty, struct dp_chunk, link);
		if (c)
			list_del(&c->link);
		spin_unlock(&dp->lock);
		if (!c)
			return;
		uvm_mem_free(c->mem);
		kfree(c);
	}
}

/* A page @dp handed out, ready to be a migration's destination (locked). */
static void dp_page_init(struct uvm_devpriv *dp, struct page *page)
{
	struct dp_chunk *c = page_chunk(page);

#ifdef UVM_HAVE_ZONE_DEVICE_PAGE_INIT_PGMAP
	zone_device_page_init(page, &dp->pgmap, 0);
#else
	zone_device_page_init(page);
#endif
	trylock_page(page);	/* locked either way: nobody else has it */
	page->zone_device_data = c;
}

/* Hand out up to @n free pages of the chunks there are. */
static unsigned int dp_take(struct uvm_devpriv *dp, struct page **pages,
			    unsigned int n)
{
	unsigned int got = 0, i;
	struct dp_chunk *c;

	spin_lock(&dp->lock);
	list_for_each_entry_reverse(c, &dp->chunks, link) {
		if (dp->dying)	/* the drain takes them all home */
			break;
		while (got < n && c->used < DP_CHUNK_PAGES) {
			i = find_first_zero_bit(c->map, DP_CHUNK_PAGES);
			__set_bit(i, c->map);
			c->used++;
			pages[got] = pfn_to_page(c->first_pfn + i);
			pages[got++]->zone_device_data = c;
		}
		if (got == n)
			break;
	}
	spin_unlock(&dp->lock);
	for (i = 0; i < got; i++)
		dp_page_init(dp, pages[i]);
	atomic_long_add(got, &dp->pages);
	return got;
}

/* A new chunk on @dp->chunks, evicting if the device is full. */
static int dp_chunk_new(struct uvm_devpriv *dp, struct uvm_managed *mgd)
{
	struct uvm_device *udev = dp->udev;
	struct uvm_mem *mem;
	struct dp_chunk *c;
	int tries;

	c = kzalloc(sizeof(*c), GFP_KERNEL_ACCOUNT);
	if (!c)
		return -ENOMEM;
	for (tries = 0; ; tries++) {
		mem = uvm_mem_alloc(udev, UVM_BLOCK_SIZE, UVM_BLOCK_SIZE,
				    UVM_MEM_CONTIGUOUS | UVM_MEM_UNCLEARED);
		if (!IS_ERR(mem) || PTR_ERR(mem) != -ENOSPC || tries >= 8 ||
		    uvm_evict_device_memory(udev, UVM_BLOCK_SIZE, mgd))
			break;
	}
	if (IS_ERR(mem)) {
		kfree(c);
		return PTR_ERR(mem);
	}
	c->dp = dp;
	c->mem = mem;
	c->first_pfn = dp->base_pfn + (mem->offset >> PAGE_SHIFT);
	spin_lock(&dp->lock);
	if (dp->dying) {
		spin_unlock(&dp->lock);
		uvm_mem_free(mem);
		kfree(c);
		return -ENODEV;
	}
	list_add_tail(&c->link, &dp->chunks);
	spin_unlock(&dp->lock);
	return 0;
}

/**
 * uvm_devpriv_alloc() - device-private pages of @udev for a migration.
 * @udev: the device.
 * @mgd: the VA space that migrates (its eviction policy chooses victims).
 * @pages: out, @n pages at most, each locked with one reference.
 * @n: pages wanted.
 *
 * Evicts when the device is full. No uvm lock held.
 *
 * Return: pages handed out (0 when the device has no room or is going).
 */
unsigned int uvm_devpriv_alloc(struct uvm_device *udev,
			       struct uvm_managed *mgd, struct page **pages,
			       unsigned int n)
{
	struct uvm_devpriv *dp = udev->devpriv;
	unsigned int got = 0;

	if (!dp)
		return 0;
	while (got < n) {
		got += dp_take(dp, pages + got, n - got);
		if (got == n || dp_chunk_new(dp, mgd))
			break;
	}
	return got;
}

/** uvm_devpriv_unused() - give back a page uvm_devpriv_alloc() handed out. */
void uvm_devpriv_unused(struct page *page)
{
	unlock_page(page);
	put_page(page);
}

/* Copy @nr segments from the device; 0 or -errno. */
static int dp_copy_segs(struct uvm_device *udev, struct uvm_copy_seg *segs,
			unsigned int nr)
{
	int idx, ret;

	if (!nr)
		return 0;
	if (!drm_dev_enter(&udev->drm, &idx))
		return -ENODEV;
	ret = udev->ops->copy_from(udev, segs, nr);
	drm_dev_exit(idx);
	return ret;
}

/* A copy failed: release the host pages, move nothing. */
static void dp_copy_cancel(unsigned long *dst, unsigned long n)
{
	struct page *dpage;
	unsigned long i;

	for (i = 0; i < n; i++) {
		dpage = migrate_pfn_to_page(dst[i]);
		if (dpage) {
			unlock_page(dpage);
			put_page(dpage);
		}
		dst[i] = 0;
	}
}

/*
 * A host page for address @addr of @vma (NULL: unknown, eviction): by the
 * VMA's and the task's memory policy, or on node @nid where one is given
 * (a helper CPU moving pages for a task whose policy is the default, the
 * task's own node; see dp_migrate_to_ram()).
 */
static struct page *dp_host_page(struct vm_area_struct *vma,
				 unsigned long addr, int nid)
{
	if (nid != NUMA_NO_NODE)
		return alloc_pages_node(nid, GFP_HIGHUSER_MOVABLE, 0);
	if (vma)
		return alloc_page_vma(GFP_HIGHUSER_MOVABLE, vma, addr);
	return alloc_page(GFP_HIGHUSER_MOVABLE);
}

/*
 * Copy the device pages of @src (those marked MIGRATE) into new host pages
 * (dp_host_page()), filling @dst. A page that gets no host page stays on
 * the device.
 * Return: 0; -ENOMEM when page @must got none; a copy error (nothing
 * moves then).
 */
static int dp_copy_home(struct uvm_device *udev, struct vm_area_struct *vma,
			int nid, unsigned long start, const unsigned long *src,
			unsigned long *dst, unsigned long n, long must)
{
	struct uvm_copy_seg segs[DP_COPY_SEGS];
	struct page *spage, *dpage;
	unsigned int nr = 0;
	int ret = 0, oom = 0;
	unsigned long i;

	for (i = 0; i < n && !ret; i++) {
		dst[i] = 0;
		spage = migrate_pfn_to_page(src[i]);
		if (!spage || !(src[i] & MIGRATE_PFN_MIGRATE))
			continue;
		dpage = dp_host_page(vma, start + (i << PAGE_SHIFT), nid);
		if (!dpage) {
			oom |= i == must;
			continue;
		}
		lock_page(dpage);
		dst[i] = migrate_pfn(page_to_pfn(dpage)) |
			 (src[i] & MIGRATE_PFN_WRITE);
		segs[nr++] = (struct uvm_copy_seg){
			.dev_offset = uvm_devpriv_offset(spage),
			.host = page_address(dpage), .size = PAGE_SIZE,
		};
		if (nr == ARRAY_SIZE(segs)) {
			ret = dp_copy_segs(udev, segs, nr);
			nr = 0;
		}
	}
	for (; i < n; i++)
		dst[i] = 0;
	ret = ret ?: dp_copy_segs(udev, segs, nr);
	if (ret) {
		dp_copy_cancel(dst, n);
		return ret;
	}
	return oom ? -ENOMEM : 0;
}

/* Count the pages a migration home moved (device and global counters). */
static void dp_count_home(struct uvm_device *udev, const unsigned long *src,
			  const unsigned long *dst, unsigned long n)
{
	unsigned long i, moved = 0;

	for (i = 0; i < n; i++)
		moved += dst[i] && (src[i] & MIGRATE_PFN_MIGRATE);
	atomic64_add(moved, &udev->counters.v[UVM_STAT_PAGEABLE_TO_HOST]);
	atomic64_add(moved, &uvm_global_counters.v[UVM_STAT_PAGEABLE_TO_HOST]);
}

/* uvm_devpriv_home(), host pages on @nid if not NUMA_NO_NODE. */
static int dp_home(struct uvm_device *udev, struct vm_area_struct *vma,
		   unsigned long start, unsigned long end,
		   struct page *fault_page, unsigned long fault_addr, int nid)
{
	unsigned long src[UVM_DEVPRIV_HOME_PAGES], dst[UVM_DEVPRIV_HOME_PAGES];
	struct migrate_vma args = {
		.vma = vma,
		.src = src,
		.dst = dst,
		.start = start,
		.end = end,
		.pgmap_owner = udev,
		.flags = MIGRATE_VMA_SELECT_DEVICE_PRIVATE,
		.fault_page = fault_page,
	};
	int ret;

	ret = migrate_vma_setup(&args);
	if (ret)
		return ret;
	ret = dp_copy_home(udev, vma, nid, start, src, dst, args.npages,
			   fault_page ? (long)((fault_addr - start) >> PAGE_SHIFT) : -1);
	migrate_vma_pages(&args);
	dp_count_home(udev, src, dst, args.npages);
	migrate_vma_finalize(&args);
	return ret;
}

/**
 * uvm_devpriv_home() - move @udev's pages in [@start, @end) of @vma home.
 * @udev: the device.
 * @vma: a VMA of the mm, whose mmap_lock the caller holds.
 * @start: page aligned, in @vma.
 * @end: page aligned, at most UVM_DEVPRIV_HOME_PAGES pages after @start.
 * @fault_page: the page a CPU fault is for, or NULL.
 * @fault_addr: its address.
 *
 * Return: 0; -ENOMEM (no host page for @fault_page), -ENODEV, -EIO (the
 * device could not be read: nothing moved) or migrate_vma_setup()'s error.
 */
int uvm_devpriv_home(struct uvm_device *udev, struct vm_area_struct *vma,
		     unsigned long start, unsigned long end,
		     struct page *fault_page, unsigned long fault_addr)
{
	return dp_home(udev, vma, start, end, fault_page, fault_addr,
		       NUMA_NO_NODE);
}

/**
 * struct dp_fault - a CPU fault's window, in pieces moved at once.
 * @udev: the device.
 * @vma: the faulting VMA (the fault holds its mm's mmap_lock).
 * @caller: the faulting task.
 * @fault_page: the page the fault is for.
 * @fault_addr: its address.
 * @nid: the faulting CPU's node, where helpers allocate host pages.
 * @start: each piece's start; piece 0 holds the fault.
 * @end: each piece's end.
 * @ret: each piece's uvm_devpriv_home() result.
 * @left: a helper could not take the mmap_lock: the caller moves the piece.
 */
struct dp_fault {
	struct uvm_device *udev;
	struct vm_area_struct *vma;
	struct task_struct *caller;
	struct page *fault_page;
	unsigned long fault_addr;
	int nid;
	unsigned long start[DP_FAULT_PIECES], end[DP_FAULT_PIECES];
	int ret[DP_FAULT_PIECES];
	bool left[DP_FAULT_PIECES];
};

/* Piece @i; host pages on @nid (NUMA_NO_NODE: by the task's policy). */
static void dp_fault_do(struct dp_fault *f, unsigned int i, int nid)
{
	f->ret[i] = dp_home(f->udev, f->vma, f->start[i], f->end[i],
			    i ? NULL : f->fault_page, f->fault_addr, nid);
}

/*
 * One piece, on the faulting CPU or on a copy-engine helper (uvm_ce.c).
 * The faulting task holds the mmap_lock (read) and waits for the helpers;
 * a helper takes it for reading as well, by trylock only: with a writer
 * queued behind the fault the trylock fails at once instead of waiting
 * (for a task that waits for it), and the caller moves the piece itself.
 */
static int dp_fault_piece(void *arg, unsigned int i)
{
	struct dp_fault *f = arg;
	struct mm_struct *mm = f->vma->vm_mm;

	if (current == f->caller) {
		dp_fault_do(f, i, NUMA_NO_NODE);
		return 0;
	}
	if (!mmap_read_trylock(mm)) {
		f->left[i] = true;
		return 0;
	}
	dp_fault_do(f, i, f->nid);
	mmap_read_unlock(mm);
	return 0;
}

/*
 * Cut the fault's aligned window, within the VMA, into pieces of
 * UVM_DEVPRIV_HOME_PAGES, the fault's first. Return: how many.
 */
static unsigned int dp_fault_pieces(struct dp_fault *f, unsigned long addr)
{
	const unsigned long piece = UVM_DEVPRIV_HOME_PAGES << PAGE_SHIFT;
	const unsigned long win = DP_FAULT_PAGES << PAGE_SHIFT;
	unsigned long a = max(f->vma->vm_start, ALIGN_DOWN(addr, win));
	unsigned long lim = min(f->vma->vm_end, ALIGN_DOWN(addr, win) + win);
	unsigned long next;
	unsigned int n = 1;

	for (; a < lim; a = next) {
		next = min(lim, ALIGN_DOWN(a, piece) + piece);
		if (addr >= a && addr < next) {
			f->start[0] = a;
			f->end[0] = next;
		} else {
			f->start[n] = a;
			f->end[n++] = next;
		}
	}
	return n;
}

/*
 * May helpers allocate the task's host pages? Only where the VMA and the
 * task have the default memory policy (the local node, which helpers get
 * as the faulting CPU's node); otherwise the faulting task allocates them
 * all, under its policy.
 */
static bool dp_default_policy(struct vm_area_struct *vma)
{
#ifdef CONFIG_NUMA
	return !current->mempolicy && !vma_policy(vma);
#else
	return true;
#endif
}

/*
 * A CPU touched a page on the device: bring it and its neighbours home,
 * the fault's aligned DP_FAULT_PAGES, in pieces that this CPU and idle
 * ones (the copy engine's helpers) move at once. The kernel's per-page
 * migration work, not the copy, is most of a fault-back's time, so a CPU
 * sweeping device-resident memory goes up to as many times faster as CPUs
 * help (measured: docs/pageable-memory.md).
 */
static vm_fault_t dp_migrate_to_ram(struct vm_fault *vmf)
{
	struct dp_fault f = {
		.udev = page_chunk(vmf->page)->dp->udev, .vma = vmf->vma,
		.caller = current, .fault_page = vmf->page,
		.fault_addr = vmf->address, .nid = numa_node_id(),
	};
	unsigned int i, n = dp_fault_pieces(&f, vmf->address);

	if (dp_default_policy(vmf->vma))
		uvm_ce_run(dp_fault_piece, &f, n, NULL);
	else
		memset(f.left, true, sizeof(f.left));
	for (i = 0; i < n; i++)
		if (f.left[i])
			dp_fault_do(&f, i, NUMA_NO_NODE);
	if (f.ret[0] == -ENOMEM)
		return VM_FAULT_OOM;
	return f.ret[0] ? VM_FAULT_SIGBUS : 0;
}

static const struct dev_pagemap_ops dp_ops = {
#ifdef UVM_HAVE_PGMAP_FOLIO_FREE
	.folio_free = dp_folio_free,
#else
	.page_free = dp_page_free,
#endif
	.migrate_to_ram = dp_migrate_to_ram,
};

/* Move chunk @c's pages home, in whichever process has them. */
static void dp_evict_chunk(struct uvm_devpriv *dp, struct dp_chunk *c)
{
	unsigned long *src, *dst;

	src = kvcalloc(2 * DP_CHUNK_PAGES, sizeof(*src),
		       GFP_KERNEL | __GFP_NOWARN);
	if (!src)
		return;
	dst = src + DP_CHUNK_PAGES;
	migrate_device_range(src, c->first_pfn, DP_CHUNK_PAGES);
	dp_copy_home(dp->udev, NULL, NUMA_NO_NODE, 0, src, dst, DP_CHUNK_PAGES, -1);
	migrate_device_pages(src, dst, DP_CHUNK_PAGES);
	dp_count_home(dp->udev, src, dst, DP_CHUNK_PAGES);
	migrate_device_finalize(src, dst, DP_CHUNK_PAGES);
	kvfree(src);
}

/*
 * The oldest chunk with pages handed out, moved to the tail (the next
 * eviction takes another), or NULL. A chunk with none (made, but its pages
 * went to others) goes to @empty on the way.
 */
static struct dp_chunk *dp_victim(struct uvm_devpriv *dp)
{
	bool emptied = false;
	struct dp_chunk *c;

	spin_lock(&dp->lock);
	while ((c = list_first_entry_or_null(&dp->chunks, struct dp_chunk,
					     link)) && !c->used) {
		list_move_tail(&c->link, &dp->empty);
		emptied = true;
	}
	if (c)
		list_move_tail(&c->link, &dp->chunks);
	spin_unlock(&dp->lock);
	if (emptied)
		schedule_work(&dp->free_work);
	return c;
}

/**
 * uvm_devpriv_evict() - free device memory by moving pageable data home.
 * @udev: the device.
 * @bytes: how much is wanted.
 *
 * Takes chunks oldest first; waits for emptied chunks to be given back.
 * Called with no lock but possibly one block lock held.
 *
 * Return: bytes of device memory given back, or -ENOSPC if none.
 */
s64 uvm_devpriv_evict(struct uvm_device *udev, u64 bytes)
{
	struct uvm_devpriv *dp = udev->devpriv;
	u64 before = uvm_mem_free_bytes(udev), now;
	unsigned int tries;
	struct dp_chunk *c;

	if (!dp)
		return -ENOSPC;
	for (tries = 0; tries < 8; tries++) {
		c = dp_victim(dp);
		if (!c)
			break;
		/* The chunk stays allocated while it has pages handed out. */
		dp_evict_chunk(dp, c);
		flush_work(&dp->free_work);
		now = uvm_mem_free_bytes(udev);
		if (now >= before + bytes)
			break;
	}
	now = uvm_mem_free_bytes(udev);
	return now > before ? (s64)(now - before) : -ENOSPC;
}

/**
 * uvm_devpriv_init() - register @udev's memory as device-private pages.
 * @udev: a device being registered.
 *
 * Return: 0, or a negative errno (the device then works without pageable
 * migration; the caller logs it).
 */
int uvm_devpriv_init(struct uvm_device *udev)
{
	u64 size = ALIGN(udev->mem_size, 1UL << SECTION_SIZE_BITS);
	struct uvm_devpriv *dp;
	void *addr;
	int ret;

	dp = kzalloc(sizeof(*dp), GFP_KERNEL);
	if (!dp)
		return -ENOMEM;
	dp->udev = udev;
	spin_lock_init(&dp->lock);
	INIT_LIST_HEAD(&dp->chunks);
	INIT_LIST_HEAD(&dp->empty);
	INIT_WORK(&dp->free_work, dp_free_work);
	dp->res = request_free_mem_region(&iomem_resource, size, "uvm-device-private");
	if (IS_ERR(dp->res)) {
		ret = PTR_ERR(dp->res);
		goto err_free;
	}
	dp->pgmap.type = MEMORY_DEVICE_PRIVATE;
	dp->pgmap.range.start = dp->res->start;
	dp->pgmap.range.end = dp->res->end;
	dp->pgmap.nr_range = 1;
	dp->pgmap.ops = &dp_ops;
	dp->pgmap.owner = udev;
	addr = memremap_pages(&dp->pgmap, udev->numa_node == NUMA_NO_NODE ?
				numa_mem_id() : udev->numa_node);
	if (IS_ERR(addr)) {
		ret = PTR_ERR(addr);
		goto err_release;
	}
	dp->base_pfn = dp->res->start >> PAGE_SHIFT;
	udev->devpriv = dp;
	return 0;

err_release:
	release_mem_region(dp->res->start, resource_size(dp->res));
err_free:
	kfree(dp);
	return ret;
}

/**
 * uvm_devpriv_drain() - the device is going: move every page home.
 * @udev: the device, out of the registry, still reachable.
 */
void uvm_devpriv_drain(struct uvm_device *udev)
{
	struct uvm_devpriv *dp = udev->devpriv;
	unsigned int rounds = 0;
	struct dp_chunk *c;

	if (!dp)
		return;
	spin_lock(&dp->lock);
	dp->dying = true;
	spin_unlock(&dp->lock);
	while ((c = dp_victim(dp))) {
		dp_evict_chunk(dp, c);
		flush_work(&dp->free_work);
		if (++rounds % 1024 == 0)
			pr_warn("uvm: device %u: %lu pageable pages still on it\n",
				udev->id, atomic_long_read(&dp->pages));
		cond_resched();
	}
}

/**
 * uvm_devpriv_fini() - unregister the pagemap (after uvm_devpriv_drain()).
 * @udev: the device.
 */
void uvm_devpriv_fini(struct uvm_device *udev)
{
	struct uvm_devpriv *dp = udev->devpriv;

	if (!dp)
		return;
	memunmap_pages(&dp->pgmap);	/* waits for every page to be freed */
	flush_work(&dp->free_work);	/* then for the chunks' return */
	dp_victim(dp);			/* none left with pages: all to @empty */
	dp_free_work(&dp->free_work);
	release_mem_region(dp->res->start, resource_size(dp->res));
	udev->devpriv = NULL;
	kfree(dp);
}

#endif /* UVM_HAVE_DEVPRIV */
