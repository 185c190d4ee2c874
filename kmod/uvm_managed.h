/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Managed memory of one VA space: policies, 2 MiB residency blocks, the
 * driver-owned VMAs and their address_space.
 */
#ifndef _UVM_MANAGED_H_
#define _UVM_MANAGED_H_

#include <linux/atomic.h>
#include <linux/bitmap.h>
#include <linux/bits.h>
#include <linux/fs.h>
#include <linux/mm_types.h>
#include <linux/mutex.h>
#include <linux/refcount.h>
#include <linux/rwsem.h>
#include <linux/spinlock.h>
#include <linux/workqueue.h>
#include <linux/xarray.h>
#include <uapi/uvm.h>

#include "uvm_ce.h"
#include "uvm_events.h"
#include "uvm_evict_policy.h"
#include "uvm_perf.h"
#include "uvm_policy.h"
#include "uvm_pool.h"

#define UVM_BLOCK_SHIFT		21
#define UVM_BLOCK_SIZE		BIT(UVM_BLOCK_SHIFT)
#define UVM_BLOCK_PAGES		(UVM_BLOCK_SIZE >> PAGE_SHIFT)

struct uvm_managed;
struct uvm_device;
struct uvm_mem;
struct uvm_access_scratch;
struct uvm_pageable;

/**
 * struct uvm_counters - event counters (UVM_STAT_*).
 * @v: one atomic per counter.
 */
struct uvm_counters {
	atomic64_t v[UVM_STAT_COUNT];
};

extern struct uvm_counters uvm_global_counters;

/* struct uvm_block_dev.map_target[] for a mapping of the host copy */
#define UVM_MAP_HOST	0xff

/**
 * struct uvm_block_dev - one device's view of one block.
 * @block: the block (for eviction from the device's LRU).
 * @udev: the device; a reference is held while this exists.
 * @chunk: UVM_BLOCK_SIZE of device memory backing the block's pages on
 *	   this device (page i at chunk->offset + i * PAGE_SIZE), or NULL.
 * @lru: entry in @udev->lru while @chunk is set (under @udev->lru_lock).
 * @evict: what eviction policies rank the chunk by (under @udev->lru_lock).
 * @dev_link: entry in @udev->bds for as long as this exists (under
 *	      @udev->lru_lock).
 * @resident: the page has a valid copy in @chunk.
 * @mapped: the device's page table maps the page (a device access of it
 *	    does not fault).
 * @mapped_write: the mapping allows writes and atomics.
 * @prefetched: resident because a prefetch policy chose it, and no device
 *		access has used it since (prefetch accuracy,
 *		UVM_STAT_PREFETCH_USED_PAGES); a subset of @resident.
 * @dma_mapped: the page's host copy is DMA-mapped for the device (a
 *		mapping with target UVM_MAP_HOST, on a device that does DMA).
 * @map_target: where the mapping points: a device id (this one: local
 *		memory; another: peer memory) or UVM_MAP_HOST.
 * @dma: the DMA address of each page of @dma_mapped (allocated with the
 *	 first one), as the device's page table would hold it.
 *
 * The device page table of a VA space is the set of these over its blocks:
 * a device access translates VA -> block -> (mapped, target). A mapping is
 * only ever kept while its target holds a valid copy: every path that drops
 * a copy clears the mappings of that page first.
 */
struct uvm_block_dev {
	struct uvm_va_block *block;
	struct uvm_device *udev;
	struct uvm_mem *chunk;
	struct list_head lru;
	struct uvm_evict_info evict;
	struct list_head dev_link;
	DECLARE_BITMAP(resident, UVM_BLOCK_PAGES);
	DECLARE_BITMAP(mapped, UVM_BLOCK_PAGES);
	DECLARE_BITMAP(mapped_write, UVM_BLOCK_PAGES);
	DECLARE_BITMAP(prefetched, UVM_BLOCK_PAGES);
	DECLARE_BITMAP(dma_mapped, UVM_BLOCK_PAGES);
	u8 map_target[UVM_BLOCK_PAGES];
	dma_addr_t *dma;
};

/**
 * struct uvm_va_block - residency of one 2 MiB-aligned window of VA.
 * @lock: protects every field below it; see docs/locking.md.
 * @start: VA of page 0 (2 MiB aligned). Pages outside managed ranges are
 *         never populated.
 * @mgd: the owning VA space's managed state.
 * @nr_cpu_pages: number of non-NULL @cpu_pages.
 * @cpu_pages: the host copy of each page, NULL if none.
 * @cpu_mapped: the page was handed to the CPU page table (a PTE may exist).
 * @cpu_writable: the CPU PTE was made writable (page_mkwrite ran).
 * @cpu_maps_dev: the CPU PTE points at the device copy (the page's only
 *		  copy, on a CPU-mappable device), not at a host page.
 * @on_device: the page has a copy on at least one device.
 * @refs: the blocks xarray holds one; eviction takes one while it works.
 * @dead: set (under @lock) when the block leaves its VA space; eviction
 *	  skips dead blocks, so it never touches a freed VA space.
 * @ahead_tail: the fault-ahead worker brought this block home as the last
 *		of its window and left it unmapped: the CPU fault that maps
 *		it starts the next window.
 * @dev: per-device state, indexed by device id, or NULL.
 * @thrash: moves between processors (uvm_thrash.c).
 *
 * A page is populated when it has a host copy or is @on_device. It has more
 * than one copy only while read-duplicated; then no mapping of it is
 * writable.
 */
struct uvm_va_block {
	struct mutex lock;	/* Protects the per-page state below */
	unsigned long start;
	struct uvm_managed *mgd;
	refcount_t refs;
	bool dead;
	bool ahead_tail;
	unsigned int nr_cpu_pages;
	unsigned int nr_devs;
	struct page *cpu_pages[UVM_BLOCK_PAGES];
	DECLARE_BITMAP(cpu_mapped, UVM_BLOCK_PAGES);
	DECLARE_BITMAP(cpu_writable, UVM_BLOCK_PAGES);
	DECLARE_BITMAP(cpu_maps_dev, UVM_BLOCK_PAGES);
	DECLARE_BITMAP(on_device, UVM_BLOCK_PAGES);
	struct uvm_block_dev *dev[UVM_MAX_DEVICES];
	struct uvm_thrash thrash;
};

/**
 * struct uvm_fault_ahead - the background fault-back of the blocks after a
 * CPU fault on device-resident data (uvm_fault_ahead.c).
 * @work: the worker (system_unbound_wq).
 * @lock: protects @addr, @end, @nid and @write.
 * @addr: next block to bring home.
 * @end: where to stop.
 * @nid: host node.
 * @write: map writable where allowed.
 */
struct uvm_fault_ahead {
	struct work_struct work;
	spinlock_t lock;	/* Protects addr, end, nid, write */
	unsigned long addr;
	unsigned long end;
	int nid;
	bool write;
};

/**
 * struct uvm_managed - managed memory of one VA space (one open file).
 * @lock: protects @policies (the set of managed pages) and the set of
 *        blocks in @blocks. Faults and migrations take it for read,
 *        mmap/munmap/advise for write.
 * @policies: per-page policies; its extents define what is managed.
 * @blocks: (va >> UVM_BLOCK_SHIFT) -> struct uvm_va_block; entries are
 *          added under @lock held for read (xa_cmpxchg), removed only with
 *          @lock held for write.
 * @mapping: this VA space's own address_space (the file's f_mapping), so
 *           unmap_mapping_range() zaps only this VA space's PTEs.
 * @mm: the mm that opened the file; only it may map or manage memory.
 * @memcg: memory cgroup charged for the pages (of @mm's owner at open).
 * @counters: per-VA-space counters.
 * @pool: host pages freed by migrations, for the next ones (uvm_pool.c).
 * @access_scratch: scratch memory for the next UVM_IOCTL_DEVICE_ACCESS
 *		    (taken and put back with xchg/cmpxchg), or NULL.
 * @ahead: fault-ahead worker.
 * @perf: the VA space's memory-management policies (uvm_perf.c).
 * @events: the event streams reading this VA space (uvm_events.c).
 * @filp: the /dev/uvm file (no reference: the VA space lives as long).
 * @pageable: the devices' mirror of the mm's pageable memory, made on the
 *	first device access to it (uvm_pageable.c); set once, by cmpxchg.
 * @pageable_policies: advice and prefetches on pageable memory (migration
 *	level, uvm_pageable_policy.c): extents only where some was given,
 *	dropped when the memory is unmapped. Under @lock, like @policies.
 */
struct uvm_managed {
	struct rw_semaphore lock;	/* Protects policies and the block set */
	struct uvm_policy_map policies;
	struct xarray blocks;
	struct address_space mapping;
	struct mm_struct *mm;
	struct mem_cgroup *memcg;
	struct uvm_counters counters;
	struct uvm_page_pool pool;
	struct uvm_access_scratch *access_scratch;
	struct uvm_fault_ahead ahead;
	struct uvm_perf_va perf;
	struct uvm_event_list events;
	struct file *filp;
	struct uvm_pageable *pageable;
	struct uvm_policy_map pageable_policies;
};

/* uvm_managed.c: lifetime, mmap, the VA-space side of ioctls. */
int uvm_managed_init(struct uvm_managed *mgd, struct file *filp);
void uvm_managed_fini(struct uvm_managed *mgd);
int uvm_managed_mmap(struct uvm_managed *mgd, struct vm_area_struct *vma);
unsigned long uvm_managed_get_unmapped_area(struct file *filp,
					    unsigned long addr,
					    unsigned long len,
					    unsigned long pgoff,
					    unsigned long flags);
int uvm_managed_range_check(struct uvm_managed *mgd, u64 addr, u64 length,
			    unsigned long *start, unsigned long *end);
bool uvm_managed_covered_locked(struct uvm_managed *mgd, unsigned long start,
				unsigned long end);
bool uvm_managed_any_locked(struct uvm_managed *mgd, unsigned long start,
			    unsigned long end);
bool uvm_managed_pageable_range(struct uvm_managed *mgd, unsigned long start,
				unsigned long end);

/* uvm_device_access.c */
void uvm_device_access_fini(struct uvm_managed *mgd);

/* uvm_block.c: blocks and host pages. */
struct uvm_va_block *uvm_block_get(struct uvm_managed *mgd,
				   unsigned long addr);
void uvm_block_put(struct uvm_va_block *block);
void uvm_block_release_range_locked(struct uvm_va_block *block,
				    unsigned int first, unsigned int last);
void uvm_block_free(struct uvm_va_block *block);
int uvm_block_populate_locked(struct uvm_va_block *block, unsigned int first,
			      unsigned int last, int nid, bool thisnode);
int uvm_block_populate_mask_locked(struct uvm_va_block *block,
				   const unsigned long *mask, int nid);
void uvm_block_zap_cpu_locked(struct uvm_va_block *block, unsigned int first,
			      unsigned int last);
void uvm_block_zap_mask_locked(struct uvm_va_block *block,
			       const unsigned long *mask);
void uvm_block_put_page(struct page *page);
bool uvm_block_page_held(struct page *page);
bool uvm_block_page_held_mapped(struct page *page);
void uvm_block_put_pages(struct page **pages, unsigned int n);
void uvm_block_free_host_pages_locked(struct uvm_va_block *block,
				      const unsigned long *mask, bool recycle);

/*
 * Pages moved by one transition and the time their copies took, for the
 * counters and the tracepoint. Of the pages moved to a device, *_pf are
 * the prefetch policy's and *_coll a write's collapse of read duplicates
 * (struct uvm_move_ctx); their records carry causes of their own.
 */
struct uvm_counters_delta {
	int cause;
	int host_node;
	unsigned int populated;
	unsigned int h2d;
	unsigned int d2h;
	unsigned int d2d;
	unsigned int h2d_pf;
	unsigned int h2d_coll;
	unsigned int d2d_pf;
	unsigned int d2d_coll;
	u64 h2d_ns;
	u64 d2h_ns;
	u64 d2d_ns;
};

/**
 * struct uvm_move_ctx - why pages move to a device, and who is charged.
 * @cause: UVM_CAUSE_* of the pages in neither mask below.
 * @prefetched: pages the prefetch policy added (UVM_CAUSE_PREFETCH), or
 *		NULL.
 * @collapse: pages a write takes from other copies, dropping them
 *	      (UVM_CAUSE_COLLAPSE), or NULL.
 * @clk: the fault batch's clock to charge (uvm_svc_clock.h), or NULL.
 *
 * The caller's, valid until the move ends.
 */
struct uvm_move_ctx {
	int cause;
	const unsigned long *prefetched;
	const unsigned long *collapse;
	struct uvm_svc_clock *clk;
};

/**
 * struct uvm_block_copy - a copy of a block's pages to or from one device's
 * chunk, or the zeroing of some of its pages there.
 * @block: the block (its lock held by the caller throughout).
 * @bd: the device side (has a chunk).
 * @peer: the other device's side (has a chunk) for a device to device
 *	  copy into @bd, or NULL.
 * @mask: pages to copy (all have a host page, or a @peer copy) or zero.
 * @zap: CPU-mapped pages whose PTEs go while the copy runs, or NULL.
 * @first: first page of @mask; pieces count from here.
 * @piece_pages: pages per piece.
 * @to_dev: host to device.
 * @zero: zero @mask's device pages instead of copying.
 * @clk: the fault batch's clock (its zap is unmapping, its wait waiting),
 *	 or NULL.
 */
struct uvm_block_copy {
	struct uvm_va_block *block;
	struct uvm_block_dev *bd;
	struct uvm_block_dev *peer;
	const unsigned long *mask;
	const unsigned long *zap;
	unsigned int first;
	unsigned int piece_pages;
	bool to_dev;
	bool zero;
	struct uvm_svc_clock *clk;
};

/**
 * struct uvm_to_dev - a move of a block's pages to a device, begun
 * (uvm_block_to_dev_begin_locked()) and not yet ended: its host to device
 * copy may still run on the copy engine's helpers.
 * @block: the block, locked from begin to end.
 * @udev: the destination.
 * @bd: its side of the block.
 * @mask: pages to make resident (the caller's, valid until the end).
 * @dup: pages whose other copies stay (the caller's, valid until the end).
 * @todo: pages not resident on @udev yet.
 * @host: pages of @todo copied from their host page.
 * @zap: their CPU mappings, zapped while the copy runs.
 * @held: pages of @mask that stayed on the host because get_user_pages()
 *	  holds their host page (uvm_block_page_held(); for read duplicates
 *	  uvm_block_page_held_mapped(), decided at the beginning): the caller
 *	  maps them remotely or not at all, never on @udev.
 * @copy: the host to device copy.
 * @job: its copy-engine job.
 * @t0: when it started.
 * @delta: what moved.
 * @why: the caller's cause and clock (valid until the end).
 * @busy: a copy was started (else the pages of @mask were resident).
 */
struct uvm_to_dev {
	struct uvm_va_block *block;
	struct uvm_device *udev;
	struct uvm_block_dev *bd;
	const unsigned long *mask;
	const unsigned long *dup;
	DECLARE_BITMAP(todo, UVM_BLOCK_PAGES);
	DECLARE_BITMAP(host, UVM_BLOCK_PAGES);
	DECLARE_BITMAP(zap, UVM_BLOCK_PAGES);
	DECLARE_BITMAP(held, UVM_BLOCK_PAGES);
	struct uvm_block_copy copy;
	struct uvm_ce_job job;
	u64 t0;
	struct uvm_counters_delta delta;
	const struct uvm_move_ctx *why;
	bool busy;
};

/**
 * struct uvm_to_node - a move of a block's host pages to another node, begun
 * (uvm_block_to_node_begin_locked()) and not yet ended: its copy may still
 * run on the copy engine's helpers.
 * @block: the block, locked from begin to end.
 * @first: first page of the range.
 * @last: last page of the range (inclusive).
 * @nid: the destination node.
 * @lo: first page of @move.
 * @hi: last page of @move.
 * @piece_pages: pages of the range [@lo, @hi] in one copy-engine piece.
 * @move: host pages being copied to @nid.
 * @kept: pages of @move that stayed, someone holding their host page
 *	  (set by whichever CPU copies the piece).
 * @new: the new page of each page of @move.
 * @job: the copy's copy-engine job.
 * @t0: when the copy started.
 * @busy: a copy was started.
 */
struct uvm_to_node {
	struct uvm_va_block *block;
	unsigned int first, last;
	int nid;
	unsigned int lo, hi, piece_pages;
	DECLARE_BITMAP(move, UVM_BLOCK_PAGES);
	DECLARE_BITMAP(kept, UVM_BLOCK_PAGES);
	struct page *new[UVM_BLOCK_PAGES];
	struct uvm_ce_job job;
	u64 t0;
	bool busy;
};

/* uvm_block_host.c: node-to-node moves of a block's host pages. */
int uvm_block_to_node_begin_locked(struct uvm_to_node *op,
				   struct uvm_va_block *block,
				   unsigned int first, unsigned int last,
				   int nid, const unsigned long *dup);
int uvm_block_to_node_end_locked(struct uvm_to_node *op);

/* uvm_dev_dma.c: DMA addresses of remotely mapped host pages. */
int uvm_bd_dma_map(struct uvm_block_dev *bd, const unsigned long *mask);
void uvm_bd_dma_unmap(struct uvm_block_dev *bd, const unsigned long *mask);
void uvm_bd_dma_free(struct uvm_block_dev *bd);

/* uvm_block_dev.c: device residency and device mappings of a block. */
void uvm_block_unmap_host_targets_locked(struct uvm_va_block *block,
					 const unsigned long *mask);
struct uvm_block_dev *uvm_block_dev_get_locked(struct uvm_va_block *block,
					       struct uvm_device *udev);
int uvm_block_to_dev_locked(struct uvm_va_block *block,
			    struct uvm_device *udev, const unsigned long *mask,
			    const unsigned long *dup,
			    const struct uvm_move_ctx *why);
int uvm_block_to_dev_begin_locked(struct uvm_to_dev *op,
				  struct uvm_va_block *block,
				  struct uvm_device *udev,
				  const unsigned long *mask,
				  const unsigned long *dup,
				  const struct uvm_move_ctx *why);
int uvm_block_to_dev_end_locked(struct uvm_to_dev *op);
int uvm_block_to_host_locked(struct uvm_va_block *block, int nid,
			     const unsigned long *mask,
			     const unsigned long *dup, int cause);
void uvm_block_drop_host_locked(struct uvm_va_block *block,
				const unsigned long *mask);
void uvm_block_drop_dev_locked(struct uvm_va_block *block, unsigned int d,
			       const unsigned long *mask);
void uvm_block_mark_prefetched_locked(struct uvm_va_block *block, unsigned int d,
				      const unsigned long *mask);
void uvm_block_prefetch_use_locked(struct uvm_va_block *block,
				   struct uvm_device *udev, unsigned int first,
				   unsigned int last);
void uvm_block_unmap_devices_locked(struct uvm_va_block *block,
				    const unsigned long *mask);
void uvm_block_unmap_dev_locked(struct uvm_va_block *block, unsigned int d);
void uvm_block_release_devs_locked(struct uvm_va_block *block,
				   const unsigned long *mask);
int uvm_block_map_dev_locked(struct uvm_va_block *block,
			     struct uvm_device *udev, const unsigned long *mask,
			     u8 target, bool write);
s64 uvm_block_evict_dev_locked(struct uvm_va_block *block, unsigned int d);
int uvm_block_dev_rw_locked(struct uvm_va_block *block, unsigned int d,
			    unsigned int i, unsigned int off, void *buf,
			    unsigned int n, bool write);
int uvm_block_dev_atomic_add_locked(struct uvm_va_block *block, unsigned int d,
				    unsigned int i, unsigned int off, u64 *val);

static inline bool uvm_block_page_populated(struct uvm_va_block *block,
					    unsigned int i)
{
	return block->cpu_pages[i] || test_bit(i, block->on_device);
}

void uvm_managed_punch(struct uvm_managed *mgd, unsigned long start,
		       unsigned long end);
#define UVM_ALLOC_ZERO		BIT(0)
#define UVM_ALLOC_THISNODE	BIT(1)
struct page *uvm_block_alloc_page(struct uvm_managed *mgd, int nid,
				  unsigned int flags);
int uvm_block_alloc_pages(struct uvm_managed *mgd, int nid,
			  struct page **pages, unsigned int n,
			  unsigned int flags);

/* uvm_fault.c: CPU faults. */
extern const struct vm_operations_struct uvm_vm_ops;
extern unsigned int uvm_fault_granule_pages;
vm_fault_t uvm_fault_block_home_locked(struct uvm_va_block *block,
				       struct vm_area_struct *vma, int nid);
void uvm_fault_map_range_locked(struct uvm_va_block *block,
				struct vm_area_struct *vma, unsigned int first,
				unsigned int last, bool write);
void uvm_fault_map_block_locked(struct uvm_va_block *block,
				struct vm_area_struct *vma, bool write);

/* uvm_fault_ahead.c */
void uvm_fault_ahead_init(struct uvm_managed *mgd);
void uvm_fault_ahead_fini(struct uvm_managed *mgd);
void uvm_fault_ahead_kick(struct uvm_managed *mgd, struct vm_area_struct *vma,
			  unsigned long next, unsigned long addr, int nid,
			  bool write, bool sweep);

/* uvm_migrate.c, uvm_advise.c: ioctl handlers (struct file, user arg). */
int uvm_prefetch_ioctl(struct uvm_managed *mgd, struct uvm_prefetch *args);
int uvm_advise_ioctl(struct uvm_managed *mgd, struct uvm_advise *args);
int uvm_range_attrs_ioctl(struct uvm_managed *mgd,
			  struct uvm_range_attrs *args);
int uvm_residency_ioctl(struct uvm_managed *mgd, struct uvm_residency *args);
int uvm_stats_ioctl(struct uvm_managed *mgd, struct uvm_stats *args);
int uvm_discard_ioctl(struct uvm_managed *mgd, struct uvm_discard *args);
int uvm_va_space_summary_ioctl(struct uvm_managed *mgd,
			       struct uvm_va_space_summary *args);

/* Location checks shared by advise and prefetch (uvm_advise.c). */
#define UVM_LOC_ALLOW(type)	(1U << (type))
int uvm_loc_resolve(const struct uvm_location *in, unsigned int allowed,
		    struct uvm_loc *out);

static inline void uvm_count(struct uvm_managed *mgd, unsigned int stat,
			     u64 n)
{
	atomic64_add(n, &mgd->counters.v[stat]);
	atomic64_add(n, &uvm_global_counters.v[stat]);
}

static inline unsigned int uvm_block_index(unsigned long addr)
{
	return (addr & (UVM_BLOCK_SIZE - 1)) >> PAGE_SHIFT;
}

#endif /* _UVM_MANAGED_H_ */
