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
#include <linux/rwsem.h>
#include <linux/xarray.h>
#include <uapi/uvm.h>

#include "uvm_policy.h"

#define UVM_BLOCK_SHIFT		21
#define UVM_BLOCK_SIZE		BIT(UVM_BLOCK_SHIFT)
#define UVM_BLOCK_PAGES		(UVM_BLOCK_SIZE >> PAGE_SHIFT)

struct uvm_managed;

/**
 * struct uvm_counters - event counters (UVM_STAT_*).
 * @v: one atomic per counter.
 */
struct uvm_counters {
	atomic64_t v[UVM_STAT_COUNT];
};

extern struct uvm_counters uvm_global_counters;

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
 *
 * Device residency and device mappings join this struct with the device
 * side; the host page stays the copy of record while it exists.
 */
struct uvm_va_block {
	struct mutex lock;	/* Protects the per-page state below */
	unsigned long start;
	struct uvm_managed *mgd;
	unsigned int nr_cpu_pages;
	struct page *cpu_pages[UVM_BLOCK_PAGES];
	DECLARE_BITMAP(cpu_mapped, UVM_BLOCK_PAGES);
	DECLARE_BITMAP(cpu_writable, UVM_BLOCK_PAGES);
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
 */
struct uvm_managed {
	struct rw_semaphore lock;	/* Protects policies and the block set */
	struct uvm_policy_map policies;
	struct xarray blocks;
	struct address_space mapping;
	struct mm_struct *mm;
	struct mem_cgroup *memcg;
	struct uvm_counters counters;
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

/* uvm_block.c: blocks and host pages. */
struct uvm_va_block *uvm_block_get(struct uvm_managed *mgd,
				   unsigned long addr);
void uvm_block_release_range_locked(struct uvm_va_block *block,
				    unsigned int first, unsigned int last);
void uvm_block_free(struct uvm_va_block *block);
int uvm_block_populate_locked(struct uvm_va_block *block, unsigned int first,
			      unsigned int last, int nid, bool thisnode);
int uvm_block_migrate_host_locked(struct uvm_va_block *block,
				  unsigned int first, unsigned int last,
				  int nid);
void uvm_managed_punch(struct uvm_managed *mgd, unsigned long start,
		       unsigned long end);
#define UVM_ALLOC_ZERO		BIT(0)
#define UVM_ALLOC_THISNODE	BIT(1)
struct page *uvm_block_alloc_page(struct uvm_managed *mgd, int nid,
				  unsigned int flags);

/* uvm_fault.c: CPU faults. */
extern const struct vm_operations_struct uvm_vm_ops;
extern unsigned int uvm_fault_granule_pages;

/* uvm_migrate.c, uvm_advise.c: ioctl handlers (struct file, user arg). */
int uvm_prefetch_ioctl(struct uvm_managed *mgd, struct uvm_prefetch *args);
int uvm_advise_ioctl(struct uvm_managed *mgd, struct uvm_advise *args);
int uvm_range_attrs_ioctl(struct uvm_managed *mgd,
			  struct uvm_range_attrs *args);
int uvm_residency_ioctl(struct uvm_managed *mgd, struct uvm_residency *args);
int uvm_stats_ioctl(struct uvm_managed *mgd, struct uvm_stats *args);

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
