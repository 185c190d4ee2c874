// SPDX-License-Identifier: GPL-2.0
/*
 * DOC: Pageable memory, the mirror level
 *
 * A device access (UVM_IOCTL_DEVICE_ACCESS) to an address of the process
 * that no managed range covers goes to the process's own memory: malloc,
 * the stack, MAP_SHARED and file mappings. The device mirrors the CPU's
 * page table, as with HMM (Documentation/mm/hmm.rst) and lib/test_hmm.c:
 *
 * - Each VA space that has made such an access has one struct
 *   uvm_pageable: an mmu_interval_notifier over the whole address space of
 *   its mm, and per device a page table (@pt: page index -> struct page,
 *   tagged 1 when mapped for writing) with, for a PCI device, the page's
 *   DMA address (@dma).
 * - A missing or read-only entry is a device fault: hmm_range_fault()
 *   faults the pages in as the CPU would (breaking COW for a write), up to
 *   fault_batch pages of the access at once, and the entries are installed
 *   under @lock if no invalidation ran meanwhile (mmu_interval_read_retry()).
 * - Every invalidation (munmap, mprotect, COW at fork, migration by the
 *   kernel, NUMA balancing, reclaim, swap, writeback's write-protect, exit)
 *   drops the entries of its range, with their DMA mappings, before the
 *   pages change. An access finds its entries under @lock and copies with
 *   @lock held, so it never touches a page that has gone.
 *
 * Refused: unmapped addresses and PROT_NONE (-EFAULT), a write to a
 * read-only mapping (-EPERM), VM_IO / VM_PFNMAP / VM_MIXEDMAP mappings
 * (-EFAULT: driver memory, our own managed, device and pinned mappings
 * included), an access spanning managed and pageable memory (-EINVAL).
 *
 * Lock order: mmap_lock, then the managed locks (a block's lock), then
 * @lock, innermost: invalidations of managed ranges reach the notifier
 * with block locks held. Nothing under @lock allocates with reclaim (it
 * runs from reclaim), faults or sleeps on I/O: user buffers are copied
 * through the access's bounce buffer outside it.
 * uvm_pageables_lock (the list of all of them, for device removal) nests
 * outside @lock.
 */
#include <linux/dma-mapping.h>
#include <linux/highmem.h>
#include <linux/hmm.h>
#include <linux/list.h>
#include <linux/mm.h>
#include <linux/mmu_notifier.h>
#include <linux/moduleparam.h>
#include <linux/sched/signal.h>
#include <linux/slab.h>
#include <linux/sysfs.h>
#include <linux/xarray.h>

#include "uvm_devpriv.h"
#include "uvm_device.h"
#include "uvm_drv.h"
#include "uvm_managed.h"
#include "uvm_pageable.h"

static const char * const level_names[] = {
	[UVM_PAGEABLE_NONE] = "none",
	[UVM_PAGEABLE_MIRROR] = "mirror",
	[UVM_PAGEABLE_MIGRATE] = "migrate",
};

/**
 * uvm_pageable_level() - what devices may do with pageable memory here.
 *
 * Return: UVM_PAGEABLE_MIGRATE where the kernel also has DEVICE_PRIVATE,
 * UVM_PAGEABLE_MIRROR where it has HMM_MIRROR.
 */
enum uvm_pageable_level uvm_pageable_level(void)
{
	if (!IS_ENABLED(CONFIG_HMM_MIRROR))
		return UVM_PAGEABLE_NONE;
	return IS_ENABLED(CONFIG_DEVICE_PRIVATE) ? UVM_PAGEABLE_MIGRATE :
						   UVM_PAGEABLE_MIRROR;
}

/** uvm_pageable_caps() - the level as UVM_CAP_* bits (UVM_IOCTL_GET_INFO). */
u64 uvm_pageable_caps(void)
{
	enum uvm_pageable_level level = uvm_pageable_level();

	return (level >= UVM_PAGEABLE_MIRROR ? UVM_CAP_PAGEABLE_MIRROR : 0) |
	       (level >= UVM_PAGEABLE_MIGRATE ? UVM_CAP_PAGEABLE_MIGRATE : 0);
}

static int level_get(char *buf, const struct kernel_param *kp)
{
	return sysfs_emit(buf, "%s\n", level_names[uvm_pageable_level()]);
}

static const struct kernel_param_ops level_ops = { .get = level_get };
module_param_cb(pageable, &level_ops, NULL, 0444);
MODULE_PARM_DESC(pageable,
		 "What devices do with pageable memory on this kernel: none, mirror, migrate (read-only)");

/**
 * uvm_pageable_vma_movable() - can the kernel move the memory of @vma to a
 * device (migrate_vma: anonymous private memory only)?
 * @vma: a VMA.
 */
bool uvm_pageable_vma_movable(struct vm_area_struct *vma)
{
	return vma_is_anonymous(vma) && (vma->vm_flags & VM_READ) &&
	       !(vma->vm_flags & (VM_SHARED | VM_IO | VM_PFNMAP | VM_MIXEDMAP));
}

/**
 * uvm_pageable_vmas_locked() - is [@start, @end) pageable memory, as a
 * caller needs it? The mm's mmap_lock held.
 * @mm: the mm.
 * @start: start.
 * @end: end.
 * @flags: UVM_PGV_MOVABLE: every VMA movable to a device (PROT_NONE:
 *	   -EFAULT, file or shared: -EOPNOTSUPP); UVM_PGV_DRIVER_EINVAL:
 *	   driver memory (VM_IO, VM_PFNMAP, VM_MIXEDMAP: another VA space's
 *	   managed range, device or pinned memory) is -EINVAL, not -EFAULT.
 *
 * Holes are -EFAULT; hmm_range_fault() reports the rest for an access.
 *
 * Return: 0 or the errno of the first VMA that fails.
 */
int uvm_pageable_vmas_locked(struct mm_struct *mm, unsigned long start,
			     unsigned long end, unsigned int flags)
{
	struct vm_area_struct *vma;

	while (start < end) {
		vma = vma_lookup(mm, start);
		if (!vma)
			return -EFAULT;
		if (vma->vm_flags & (VM_IO | VM_PFNMAP | VM_MIXEDMAP))
			return flags & UVM_PGV_DRIVER_EINVAL ? -EINVAL : -EFAULT;
		if ((flags & UVM_PGV_MOVABLE) && !(vma->vm_flags & VM_READ))
			return -EFAULT;
		if ((flags & UVM_PGV_MOVABLE) && !uvm_pageable_vma_movable(vma))
			return -EOPNOTSUPP;
		start = vma->vm_end;
	}
	return 0;
}

/** uvm_pageable_vmas() - uvm_pageable_vmas_locked(), taking the mmap_lock. */
int uvm_pageable_vmas(struct mm_struct *mm, unsigned long start,
		      unsigned long end, unsigned int flags)
{
	int ret;

	if (mmap_read_lock_killable(mm))
		return -EINTR;
	ret = uvm_pageable_vmas_locked(mm, start, end, flags);
	mmap_read_unlock(mm);
	return ret;
}

#if IS_ENABLED(CONFIG_HMM_MIRROR)

/*
 * @unmapped, @nr_unmapped, @unmapped_all: ranges munmap (or exit) took
 * away since the pageable policies last caught up (their advice goes:
 * uvm_pageable_policy.c); all of it if more than fit.
 */
struct uvm_pageable {
	struct mmu_interval_notifier notifier;
	struct mutex lock;	/* Protects @pt, @dma, their records, @udev, @unmapped* */
	struct uvm_pg_range unmapped[UVM_PG_UNMAPPED_MAX];
	unsigned int nr_unmapped;
	bool unmapped_all;
	struct xarray pt[UVM_MAX_DEVICES];
	struct xarray dma[UVM_MAX_DEVICES];
	struct uvm_device *udev[UVM_MAX_DEVICES];	/* a reference each */
	struct list_head link;	/* in uvm_pageables */
};

/*
 * One DMA mapping of a host page for one PCI device (@dma: pfn -> this),
 * shared by every entry of @pt that maps the page: the zero page behind
 * untouched memory, a shared page mapped at several addresses. Read-only,
 * it is mapped DMA_TO_DEVICE; the first writable entry makes it
 * bidirectional. Mapped without the CPU sync and synced explicitly, as
 * uvm_dev_dma.c does (several devices may map one page).
 */
struct pg_dma {
	dma_addr_t addr;
	unsigned int refs;
	enum dma_data_direction dir;
};

/*
 * Times a device write fault brings its read-only device pages home before
 * it gives up (each pass moves every page it can; a page left is busy for a
 * moment, or got no host page).
 */
#define PG_HOME_TRIES	8

/* What a failed install needs allocated before it is tried again. */
struct pg_need {
	unsigned long index;	/* @pt slot */
	unsigned long pfn;	/* @dma slot */
	struct pg_dma *spare;	/* a record to use */
};

static LIST_HEAD(uvm_pageables);
static DEFINE_MUTEX(uvm_pageables_lock);	/* Protects uvm_pageables */

static bool dev_does_dma(const struct uvm_device *udev)
{
	return udev->ops->backend == UVM_BACKEND_PCI_BAR;
}

static int pg_dma_map(struct device *dev, struct page *page,
		      enum dma_data_direction dir, dma_addr_t *addr)
{
	*addr = dma_map_page_attrs(dev, page, 0, PAGE_SIZE, dir,
				   DMA_ATTR_SKIP_CPU_SYNC);
	if (dma_mapping_error(dev, *addr))
		return -ENOMEM;
	dma_sync_single_for_device(dev, *addr, PAGE_SIZE, dir);
	return 0;
}

static void pg_dma_unmap(struct device *dev, dma_addr_t addr,
			 enum dma_data_direction dir)
{
	dma_sync_single_for_cpu(dev, addr, PAGE_SIZE, dir);
	dma_unmap_page_attrs(dev, addr, PAGE_SIZE, dir, DMA_ATTR_SKIP_CPU_SYNC);
}

/* One more entry of device @udev maps @page (@write: for writing). */
static int pg_dma_get_locked(struct uvm_pageable *pg, struct uvm_device *udev,
			     struct page *page, bool write,
			     struct pg_need *need)
{
	enum dma_data_direction dir = write ? DMA_BIDIRECTIONAL : DMA_TO_DEVICE;
	struct xarray *xa = &pg->dma[udev->id];
	unsigned long pfn = page_to_pfn(page);
	struct pg_dma *rec = xa_load(xa, pfn);
	dma_addr_t addr;
	int ret;

	if (!dev_does_dma(udev) || is_device_private_page(page))
		return 0;
	if (rec && write && rec->dir != DMA_BIDIRECTIONAL) {
		ret = pg_dma_map(udev->drm.dev, page, dir, &addr);
		if (ret)
			return ret;
		pg_dma_unmap(udev->drm.dev, rec->addr, rec->dir);
		rec->addr = addr;
		rec->dir = dir;
	}
	if (rec) {
		rec->refs++;
		return 0;
	}
	need->pfn = pfn;
	if (!need->spare)
		return -EAGAIN;
	ret = pg_dma_map(udev->drm.dev, page, dir, &addr);
	if (ret)
		return ret;
	ret = xa_err(xa_store(xa, pfn, need->spare, GFP_NOWAIT | __GFP_NOWARN));
	if (ret) {
		pg_dma_unmap(udev->drm.dev, addr, dir);
		return -EAGAIN;	/* a table node */
	}
	rec = need->spare;
	need->spare = NULL;
	*rec = (struct pg_dma){ .addr = addr, .refs = 1, .dir = dir };
	atomic_long_inc(&uvm_acct.dma_pages);
	return 0;
}

/* An entry of device @d that mapped @page is gone. */
static void pg_dma_put_locked(struct uvm_pageable *pg, unsigned int d,
			      struct page *page)
{
	struct uvm_device *udev = pg->udev[d];
	struct pg_dma *rec;

	if (!dev_does_dma(udev) || is_device_private_page(page))
		return;
	rec = xa_load(&pg->dma[d], page_to_pfn(page));
	if (!rec || --rec->refs)
		return;
	pg_dma_unmap(udev->drm.dev, rec->addr, rec->dir);
	xa_erase(&pg->dma[d], page_to_pfn(page));
	kfree(rec);
	atomic_long_dec(&uvm_acct.dma_pages);
}

/* Drop device @d's entry for page @index. Caller holds pg->lock. */
static void pt_clear_locked(struct uvm_pageable *pg, unsigned int d,
			    unsigned long index)
{
	void *entry;

	lockdep_assert_held(&pg->lock);
	entry = xa_erase(&pg->pt[d], index);
	if (entry)
		pg_dma_put_locked(pg, d, xa_untag_pointer(entry));
}

/* Drop every device's entries for pages [first, last]. */
static void pt_clear_range_locked(struct uvm_pageable *pg, unsigned long first,
				  unsigned long last)
{
	unsigned long index;
	unsigned int d;
	void *entry;

	for (d = 0; d < UVM_MAX_DEVICES; d++) {
		if (!pg->udev[d])
			continue;
		xa_for_each_range(&pg->pt[d], index, entry, first, last)
			pt_clear_locked(pg, d, index);
	}
}

/* Note an unmapped range for the policies (uvm_pageable_unmapped()). */
static void pg_unmapped_locked(struct uvm_pageable *pg, unsigned long start,
			       unsigned long end)
{
	struct uvm_pg_range *last = pg->nr_unmapped ?
				    &pg->unmapped[pg->nr_unmapped - 1] : NULL;

	if (pg->unmapped_all)
		return;
	if (last && last->end == start) {
		last->end = end;
	} else if (pg->nr_unmapped < UVM_PG_UNMAPPED_MAX) {
		pg->unmapped[pg->nr_unmapped++] = (struct uvm_pg_range){ start, end };
	} else {
		WRITE_ONCE(pg->unmapped_all, true);
		return;
	}
	WRITE_ONCE(pg->nr_unmapped, pg->nr_unmapped);
}

static bool pageable_invalidate(struct mmu_interval_notifier *mni,
				const struct mmu_notifier_range *range,
				unsigned long cur_seq)
{
	struct uvm_pageable *pg = container_of(mni, struct uvm_pageable,
					       notifier);

	if (mmu_notifier_range_blockable(range))
		mutex_lock(&pg->lock);
	else if (!mutex_trylock(&pg->lock))
		return false;
	mmu_interval_set_seq(mni, cur_seq);
	pt_clear_range_locked(pg, range->start >> PAGE_SHIFT,
			      (range->end - 1) >> PAGE_SHIFT);
	if (range->event == MMU_NOTIFY_UNMAP)
		pg_unmapped_locked(pg, range->start, range->end);
	mutex_unlock(&pg->lock);
	return true;
}

/** uvm_pageable_unmaps_pending() - has memory been unmapped since? */
bool uvm_pageable_unmaps_pending(struct uvm_managed *mgd)
{
	struct uvm_pageable *pg = READ_ONCE(mgd->pageable);

	return pg && (READ_ONCE(pg->nr_unmapped) || READ_ONCE(pg->unmapped_all));
}

/**
 * uvm_pageable_unmapped() - take the ranges unmapped since the last call.
 * @mgd: the VA space.
 * @out: UVM_PG_UNMAPPED_MAX entries.
 * @all: out, true when more were unmapped than fit (take it all as gone).
 *
 * Return: the number of ranges in @out.
 */
unsigned int uvm_pageable_unmapped(struct uvm_managed *mgd,
				   struct uvm_pg_range *out, bool *all)
{
	struct uvm_pageable *pg = READ_ONCE(mgd->pageable);
	unsigned int n;

	*all = false;
	if (!uvm_pageable_unmaps_pending(mgd))
		return 0;
	mutex_lock(&pg->lock);
	n = pg->nr_unmapped;
	memcpy(out, pg->unmapped, n * sizeof(*out));
	*all = pg->unmapped_all;
	pg->nr_unmapped = 0;
	pg->unmapped_all = false;
	mutex_unlock(&pg->lock);
	return n;
}

static const struct mmu_interval_notifier_ops pageable_ops = {
	.invalidate = pageable_invalidate,
};

/**
 * uvm_pageable_get() - the VA space's mirror, made on its first use.
 * @mgd: the VA space.
 *
 * Return: the mirror or an ERR_PTR.
 */
struct uvm_pageable *uvm_pageable_get(struct uvm_managed *mgd)
{
	struct uvm_pageable *pg = READ_ONCE(mgd->pageable), *old;
	unsigned int d;
	int ret;

	if (pg)
		return pg;
	pg = kzalloc(sizeof(*pg), GFP_KERNEL_ACCOUNT);
	if (!pg)
		return ERR_PTR(-ENOMEM);
	mutex_init(&pg->lock);
	for (d = 0; d < UVM_MAX_DEVICES; d++) {
		xa_init(&pg->pt[d]);
		xa_init(&pg->dma[d]);
	}
	ret = mmu_interval_notifier_insert(&pg->notifier, mgd->mm, 0,
					   ULONG_MAX & PAGE_MASK,
					   &pageable_ops);
	if (ret)
		goto out_free;
	mutex_lock(&uvm_pageables_lock);	/* listed before it is used */
	list_add(&pg->link, &uvm_pageables);
	mutex_unlock(&uvm_pageables_lock);
	old = cmpxchg(&mgd->pageable, NULL, pg);
	if (!old)
		return pg;
	mutex_lock(&uvm_pageables_lock);
	list_del(&pg->link);
	mutex_unlock(&uvm_pageables_lock);
	mmu_interval_notifier_remove(&pg->notifier);
	ret = 0;
out_free:
	kfree(pg);
	return ret ? ERR_PTR(ret) : old;
}

/*
 * Map page @index for @udev: @page, writable if @write. An entry there is
 * replaced in place, so no table node is freed and allocated again.
 */
static int pt_set_locked(struct uvm_pageable *pg, struct uvm_device *udev,
			 unsigned long index, struct page *page, bool write,
			 struct pg_need *need)
{
	unsigned int d = udev->id;
	void *old = xa_load(&pg->pt[d], index);
	int ret;

	need->index = index;
	ret = pg_dma_get_locked(pg, udev, page, write, need);
	if (ret)
		return ret;
	ret = xa_err(xa_store(&pg->pt[d], index, xa_tag_pointer(page, write),
			      GFP_NOWAIT | __GFP_NOWARN));
	if (ret) {
		pg_dma_put_locked(pg, d, page);
		return -EAGAIN;	/* a table node */
	}
	if (old)
		pg_dma_put_locked(pg, d, xa_untag_pointer(old));
	return 0;
}

/*
 * Install what hmm_range_fault() found. Return: 0, -ENODEV (device gone),
 * -ENOMEM (no DMA mapping), or -EAGAIN with @need saying what to allocate
 * before trying again.
 */
static int pt_install_locked(struct uvm_pageable *pg, struct uvm_device *udev,
			     const struct hmm_range *range,
			     struct pg_need *need)
{
	unsigned long n = (range->end - range->start) >> PAGE_SHIFT, i;
	int idx, ret = 0;

	lockdep_assert_held(&pg->lock);
	if (!drm_dev_enter(&udev->drm, &idx))
		return -ENODEV;
	if (!pg->udev[udev->id]) {
		uvm_device_get_ref(udev);
		pg->udev[udev->id] = udev;
	}
	for (i = 0; i < n && !ret; i++) {
		unsigned long pfn = range->hmm_pfns[i];

		ret = pt_set_locked(pg, udev, (range->start >> PAGE_SHIFT) + i,
				    hmm_pfn_to_page(pfn), pfn & HMM_PFN_WRITE,
				    need);
	}
	drm_dev_exit(idx);
	return ret;
}

/* Allocate, where reclaim may run, what a failed install needs. */
static int pg_need_alloc(struct uvm_pageable *pg, unsigned int d,
			 struct pg_need *need)
{
	if (!need->spare)
		need->spare = kmalloc(sizeof(*need->spare), GFP_KERNEL_ACCOUNT);
	if (!need->spare)
		return -ENOMEM;
	return xa_reserve(&pg->pt[d], need->index, GFP_KERNEL_ACCOUNT) ?:
	       xa_reserve(&pg->dma[d], need->pfn, GFP_KERNEL_ACCOUNT);
}

/* hmm_range_fault() until no invalidation races it; returns with pg->lock. */
static int pageable_hmm_locked(struct uvm_pageable *pg, struct hmm_range *range)
{
	struct mm_struct *mm = pg->notifier.mm;
	int ret;

	for (;;) {
		if (fatal_signal_pending(current))
			return -EINTR;
		range->notifier_seq = mmu_interval_read_begin(&pg->notifier);
		if (mmap_read_lock_killable(mm))
			return -EINTR;
		ret = uvm_pageable_vmas_locked(mm, range->start, range->end, 0) ?:
		      hmm_range_fault(range);
		mmap_read_unlock(mm);
		if (ret == -EBUSY)
			continue;
		if (ret)
			return ret;
		mutex_lock(&pg->lock);
		if (!mmu_interval_read_retry(&pg->notifier, range->notifier_seq))
			return 0;
		mutex_unlock(&pg->lock);
	}
}

/*
 * Did hmm_range_fault() report a page of the device read-only where a write
 * needs it writable? It reports a device's own pages as they are.
 */
static bool pt_dev_readonly(const struct hmm_range *range)
{
	unsigned long n = (range->end - range->start) >> PAGE_SHIFT, i;

	for (i = 0; i < n; i++)
		if (!(range->hmm_pfns[i] & HMM_PFN_WRITE))
			return true;
	return false;
}

/*
 * Migration level: move what can move to the device before mapping it, if
 * any page of @range is not on it yet (a look at the CPU page table that
 * faults nothing: pages already there cost no migration pass).
 */
static int pageable_move_first(struct uvm_managed *mgd, struct uvm_pageable *pg,
			       struct uvm_device *udev, struct hmm_range *range)
{
	unsigned long flags = range->default_flags;
	unsigned long n = (range->end - range->start) >> PAGE_SHIFT, i;
	unsigned long start, next;
	bool home = false, move;
	long moved;
	int ret;

	if (!udev->devpriv)
		return 0;
	range->default_flags = 0;
	ret = pageable_hmm_locked(pg, range);
	range->default_flags = flags;
	if (ret)
		return ret == -EINTR ? ret : 0;	/* the fault reports it */
	for (i = 0; i < n && !home; i++)
		home = !(range->hmm_pfns[i] & HMM_PFN_VALID) ||
		       !is_device_private_page(hmm_pfn_to_page(range->hmm_pfns[i]));
	mutex_unlock(&pg->lock);
	for (start = range->start; home && start < range->end; start = next) {
		next = uvm_pageable_policy_moves(mgd, udev, start, range->end,
						 &move);
		moved = move ? uvm_pageable_migrate(mgd, udev, start, next) : 0;
		if (moved == -EINTR)
			return -EINTR;
	}
	return 0;
}

/* A device fault at @va: map up to io->batch pages of the access from it. */
static int pageable_fault(struct uvm_managed *mgd, struct uvm_pageable *pg,
			  struct uvm_device *udev, struct uvm_pageable_io *io,
			  unsigned long va, bool write)
{
	unsigned long end = min(round_up(io->span_end, PAGE_SIZE),
				va + (unsigned long)io->batch * PAGE_SIZE);
	struct hmm_range range = {
		.notifier = &pg->notifier,
		.start = va,
		.end = end,
		.hmm_pfns = io->pfns,
		.default_flags = HMM_PFN_REQ_FAULT |
				 (write ? HMM_PFN_REQ_WRITE : 0),
		.dev_private_owner = udev,	/* its own pages as they are */
	};
	unsigned long n = (end - va) >> PAGE_SHIFT;
	struct pg_need need = { 0, 0, NULL };
	unsigned int homes = 0;
	int ret;

	ret = pageable_move_first(mgd, pg, udev, &range);
	if (ret)
		return ret;
	for (;;) {
		ret = pageable_hmm_locked(pg, &range);
		if (ret)
			break;
		if (write && pt_dev_readonly(&range)) {
			mutex_unlock(&pg->lock);
			/* a page the kernel will not move (no host page): fail */
			ret = ++homes > PG_HOME_TRIES ? -ENOMEM :
			      uvm_pageable_home(mgd, udev, va, end);
			if (ret)
				break;
			cond_resched();
			continue;
		}
		ret = pt_install_locked(pg, udev, &range, &need);
		mutex_unlock(&pg->lock);
		if (ret != -EAGAIN)
			break;
		ret = pg_need_alloc(pg, udev->id, &need);
		if (ret)
			break;
	}
	kfree(need.spare);
	if (ret)
		return ret;
	io->faults += n;
	uvm_count_dev(mgd, udev, UVM_STAT_DEVICE_FAULTS, n);
	uvm_count_dev(mgd, udev, UVM_STAT_FAULT_BATCHES, 1);
	uvm_count_dev(mgd, udev, UVM_STAT_FAULT_BATCH_PAGES, n);
	return 0;
}

/*
 * Is a page of the step one device @d cannot access as needed? *@va: the
 * first such page.
 */
static bool pt_missing_locked(struct uvm_pageable *pg, unsigned int d,
			      const struct uvm_pageable_io *io, bool write,
			      unsigned long *va)
{
	void *entry;

	for (*va = round_down(io->addr, PAGE_SIZE); *va < io->addr + io->len;
	     *va += PAGE_SIZE) {
		entry = xa_load(&pg->pt[d], *va >> PAGE_SHIFT);
		if (!entry || (write && !xa_pointer_tag(entry)))
			return true;
	}
	return false;
}

/* Access @n bytes at @off of host page @page for step @io, at @done. */
static void pageable_copy_host(struct page *page, unsigned int off,
			       unsigned int n, struct uvm_pageable_io *io,
			       unsigned int done)
{
	u8 *kaddr = kmap_local_page(page);

	if (io->type == UVM_ACCESS_ATOMIC_ADD)
		*(u64 *)io->buf = atomic64_fetch_add(*(u64 *)io->buf,
						     (atomic64_t *)(kaddr + off));
	else if (io->type == UVM_ACCESS_WRITE)
		memcpy(kaddr + off, io->buf + done, n);
	else
		memcpy(io->buf + done, kaddr + off, n);
	kunmap_local(kaddr);
}

/*
 * The same for a page migrated to @udev (a device-private page). An atomic
 * is a read and a write under pg->lock: nothing else reaches the page
 * meanwhile (a CPU access first takes it home, which invalidates).
 */
static int pageable_copy_dev(struct uvm_device *udev, struct page *page,
			     unsigned int off, unsigned int n,
			     struct uvm_pageable_io *io, unsigned int done)
{
	struct uvm_copy_seg seg = {
		.dev_offset = uvm_devpriv_offset(page) + off,
		.host = io->buf + done, .size = n,
	};
	u64 old, add;
	int idx, ret;

	if (!drm_dev_enter(&udev->drm, &idx))
		return -ENODEV;
	if (io->type == UVM_ACCESS_ATOMIC_ADD) {
		add = *(u64 *)io->buf;
		seg.host = &old;
		ret = udev->ops->copy_from(udev, &seg, 1);
		*(u64 *)io->buf = old;
		old += add;
		ret = ret ?: udev->ops->copy_to(udev, &seg, 1);
	} else if (io->type == UVM_ACCESS_WRITE) {
		ret = udev->ops->copy_to(udev, &seg, 1);
	} else {
		ret = udev->ops->copy_from(udev, &seg, 1);
	}
	drm_dev_exit(idx);
	return ret;
}

/* Do the step through the mappings; every page is mapped as needed. */
static int pageable_copy_locked(struct uvm_pageable *pg,
				struct uvm_device *udev,
				struct uvm_pageable_io *io)
{
	unsigned int done = 0, n, off;
	struct page *page;
	int ret = 0;

	while (done < io->len && !ret) {
		off = offset_in_page(io->addr + done);
		n = min_t(unsigned int, io->len - done, PAGE_SIZE - off);
		page = xa_untag_pointer(xa_load(&pg->pt[udev->id],
						(io->addr + done) >> PAGE_SHIFT));
		if (is_device_private_page(page))
			ret = pageable_copy_dev(udev, page, off, n, io, done);
		else
			pageable_copy_host(page, off, n, io, done);
		done += n;
	}
	return ret;
}

/**
 * uvm_pageable_access() - one step of a device access to pageable memory.
 * @mgd: the caller's VA space (current->mm is its mm).
 * @udev: the accessing device.
 * @io: the step (see struct uvm_pageable_io).
 *
 * Faults in what the device has not mapped, then accesses the pages.
 * Called with no uvm lock held.
 *
 * Return: 0; -EFAULT, -EPERM (see DOC), -ENODEV, -ENOMEM, -EINTR.
 */
int uvm_pageable_access(struct uvm_managed *mgd, struct uvm_device *udev,
			struct uvm_pageable_io *io)
{
	struct uvm_pageable *pg = uvm_pageable_get(mgd);
	bool write = io->type != UVM_ACCESS_READ;
	unsigned long va;
	int ret;

	if (IS_ERR(pg))
		return PTR_ERR(pg);
	for (;;) {
		mutex_lock(&pg->lock);
		if (!pt_missing_locked(pg, udev->id, io, write, &va))
			break;
		mutex_unlock(&pg->lock);
		ret = pageable_fault(mgd, pg, udev, io, va, write);
		if (ret)
			return ret;
	}
	ret = pageable_copy_locked(pg, udev, io);
	mutex_unlock(&pg->lock);
	return ret;
}

/* Drop device @d's entries and reference; returns the reference to put. */
static struct uvm_device *pt_drop_device_locked(struct uvm_pageable *pg,
						unsigned int d)
{
	struct uvm_device *udev = pg->udev[d];
	unsigned long index;
	void *entry;

	xa_for_each(&pg->pt[d], index, entry)
		pt_clear_locked(pg, d, index);
	xa_destroy(&pg->pt[d]);		/* reservations too */
	xa_destroy(&pg->dma[d]);
	pg->udev[d] = NULL;
	return udev;
}

/**
 * uvm_pageable_unmap_device() - a device is going: drop its mappings of
 * pageable memory in every VA space, with their DMA mappings.
 * @udev: the device, already unplugged (nothing installs for it any more).
 */
void uvm_pageable_unmap_device(struct uvm_device *udev)
{
	struct uvm_pageable *pg;
	struct uvm_device *put;

	mutex_lock(&uvm_pageables_lock);
	list_for_each_entry(pg, &uvm_pageables, link) {
		mutex_lock(&pg->lock);
		put = pg->udev[udev->id] == udev ?
		      pt_drop_device_locked(pg, udev->id) : NULL;
		mutex_unlock(&pg->lock);
		if (put)
			uvm_device_put(put);
	}
	mutex_unlock(&uvm_pageables_lock);
}

/**
 * uvm_pageable_fini() - the VA space is going: stop mirroring, drop it all.
 * @mgd: its managed state.
 */
void uvm_pageable_fini(struct uvm_managed *mgd)
{
	struct uvm_pageable *pg = mgd->pageable;
	struct uvm_device *put[UVM_MAX_DEVICES];
	unsigned int d;

	if (!pg)
		return;
	mutex_lock(&uvm_pageables_lock);
	list_del(&pg->link);
	mutex_unlock(&uvm_pageables_lock);
	mmu_interval_notifier_remove(&pg->notifier);
	mutex_lock(&pg->lock);
	for (d = 0; d < UVM_MAX_DEVICES; d++)
		put[d] = pg->udev[d] ? pt_drop_device_locked(pg, d) : NULL;
	mutex_unlock(&pg->lock);
	for (d = 0; d < UVM_MAX_DEVICES; d++)
		if (put[d])
			uvm_device_put(put[d]);
	mutex_destroy(&pg->lock);
	kfree(pg);
	mgd->pageable = NULL;
}

#else /* !CONFIG_HMM_MIRROR */

int uvm_pageable_access(struct uvm_managed *mgd, struct uvm_device *udev,
			struct uvm_pageable_io *io)
{
	return -EINVAL;
}

void uvm_pageable_unmap_device(struct uvm_device *udev)
{
}

void uvm_pageable_fini(struct uvm_managed *mgd)
{
}

struct uvm_pageable *uvm_pageable_get(struct uvm_managed *mgd)
{
	return ERR_PTR(-EOPNOTSUPP);
}

bool uvm_pageable_unmaps_pending(struct uvm_managed *mgd)
{
	return false;
}

unsigned int uvm_pageable_unmapped(struct uvm_managed *mgd,
				   struct uvm_pg_range *out, bool *all)
{
	*all = false;
	return 0;
}

#endif /* CONFIG_HMM_MIRROR */
