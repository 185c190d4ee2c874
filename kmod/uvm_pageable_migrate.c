// SPDX-License-Identifier: GPL-2.0
/*
 * DOC: Pageable memory, the migration level: moving pages to a device
 *
 * Where the kernel has DEVICE_PRIVATE (uvm_devpriv.c), anonymous private
 * memory of the process moves to a device with the kernel's own
 * migrate_vma_setup() / migrate_vma_pages() / migrate_vma_finalize(), as
 * nouveau and amdgpu do: on a device fault (uvm_pageable.c migrates the
 * fault's pages before it maps them) and on a prefetch to the device
 * (UVM_IOCTL_PREFETCH on memory no managed range covers).
 *
 * Per batch of up to UVM_BLOCK_PAGES pages within one VMA: device pages
 * are taken first, with no lock held (a full device evicts, uvm_evict.c),
 * then under the mm's mmap_lock migrate_vma_setup() isolates and unmaps
 * the host pages (its invalidation drops the devices' mirror entries), the
 * data is copied in batched backend copies (untouched pages are zeroed on
 * the device), and the CPU page table gets device-private entries. What
 * the kernel will not move stays where it is and is mapped remotely as at
 * the mirror level: pages pinned by get_user_pages() (O_DIRECT, vmsplice,
 * RDMA), pages busy elsewhere, and pages beyond the room the device has.
 *
 * File mappings and shared memory never move (the kernel's device
 * migration handles anonymous private memory only): a prefetch of them to
 * a device is refused with -EOPNOTSUPP, a device fault maps them remotely.
 */
#include <linux/highmem.h>
#include <linux/migrate.h>
#include <linux/mm.h>
#include <linux/slab.h>

#include "uvm_devpriv.h"
#include "uvm_device.h"
#include "uvm_managed.h"
#include "uvm_pageable.h"

#ifdef UVM_HAVE_DEVPRIV

/* Backend copy segments per call. */
#define PM_SEGS	32

/**
 * struct pm_batch - one migration batch.
 * @udev: destination device.
 * @args: the kernel's migration state.
 * @src: its source pfns.
 * @dst: its destination pfns.
 * @pages: device pages taken for it.
 * @nr_pages: how many.
 * @used: how many of them @dst names.
 * @segs: pending copies.
 * @nr_segs: how many.
 */
struct pm_batch {
	struct uvm_device *udev;
	struct migrate_vma args;
	unsigned long src[UVM_BLOCK_PAGES];
	unsigned long dst[UVM_BLOCK_PAGES];
	struct page *pages[UVM_BLOCK_PAGES];
	unsigned int nr_pages;
	unsigned int used;
	struct uvm_copy_seg segs[PM_SEGS];
	unsigned int nr_segs;
};

static int pm_flush(struct pm_batch *b)
{
	struct uvm_device *udev = b->udev;
	int idx, ret;

	if (!b->nr_segs)
		return 0;
	if (!drm_dev_enter(&udev->drm, &idx))
		return -ENODEV;
	ret = udev->ops->copy_to(udev, b->segs, b->nr_segs);
	drm_dev_exit(idx);
	b->nr_segs = 0;
	return ret;
}

/* Zero one device page (a page never touched on the host). */
static int pm_zero(struct pm_batch *b, struct page *dpage)
{
	struct uvm_device *udev = b->udev;
	int idx, ret;

	if (!drm_dev_enter(&udev->drm, &idx))
		return -ENODEV;
	ret = udev->ops->fill(udev, uvm_devpriv_offset(dpage), PAGE_SIZE, 0);
	drm_dev_exit(idx);
	return ret;
}

/* Give every page to be moved a device page and copy it there. */
static int pm_copy(struct pm_batch *b)
{
	struct migrate_vma *a = &b->args;
	struct page *spage, *dpage;
	unsigned long i;
	int ret = 0;

	for (i = 0; i < a->npages && b->used < b->nr_pages && !ret; i++) {
		if (!(b->src[i] & MIGRATE_PFN_MIGRATE))
			continue;
		spage = migrate_pfn_to_page(b->src[i]);
		dpage = b->pages[b->used++];
		b->dst[i] = migrate_pfn(page_to_pfn(dpage));
		if ((b->src[i] & MIGRATE_PFN_WRITE) ||
		    (!spage && (a->vma->vm_flags & VM_WRITE)))
			b->dst[i] |= MIGRATE_PFN_WRITE;
		if (!spage) {
			ret = pm_zero(b, dpage);
			continue;
		}
		b->segs[b->nr_segs++] = (struct uvm_copy_seg){
			.dev_offset = uvm_devpriv_offset(dpage),
			.host = page_address(spage), .size = PAGE_SIZE,
		};
		if (b->nr_segs == PM_SEGS)
			ret = pm_flush(b);
	}
	return ret ?: pm_flush(b);
}

/* The copy failed: move nothing (finalize frees the device pages). */
static void pm_cancel(struct pm_batch *b)
{
	unsigned long i;

	for (i = 0; i < b->args.npages; i++)
		b->dst[i] = 0;
	b->used = 0;
}

/* Migrate [b->args.start, b->args.end) of one VMA; mmap_lock held. */
static long pm_run(struct pm_batch *b)
{
	struct migrate_vma *a = &b->args;
	unsigned long i;
	long moved = 0;
	int ret;

	memset(b->dst, 0, sizeof(b->dst));
	a->src = b->src;
	a->dst = b->dst;
	a->pgmap_owner = b->udev;
	a->flags = MIGRATE_VMA_SELECT_SYSTEM;
	ret = migrate_vma_setup(a);
	if (ret)
		return ret;
	if (!a->cpages)
		return 0;
	ret = pm_copy(b);
	if (ret)
		pm_cancel(b);
	migrate_vma_pages(a);
	for (i = 0; i < a->npages; i++)
		moved += b->dst[i] && (b->src[i] & MIGRATE_PFN_MIGRATE);
	migrate_vma_finalize(a);
	return ret ?: moved;
}

/*
 * The movable part of the VMA at @addr, up to @end and at most a block:
 * [@addr, *@next) with *@movable, or where the unmovable part ends.
 * mmap_lock held. Return: the VMA, or NULL for a hole.
 */
static struct vm_area_struct *pm_span(struct mm_struct *mm, unsigned long addr,
				      unsigned long end, unsigned long *next,
				      bool *movable)
{
	struct vm_area_struct *vma = vma_lookup(mm, addr);

	if (!vma)
		return NULL;
	*movable = uvm_pageable_vma_movable(vma);
	*next = min(end, vma->vm_end);
	if (*movable)
		*next = min(*next, addr + ((unsigned long)UVM_BLOCK_PAGES << PAGE_SHIFT));
	return vma;
}

/*
 * One batch from @addr (see pm_span()). *@next: where the next starts.
 * Return: pages moved or -errno (-ENOSPC: the device has no room).
 */
static long pm_batch(struct uvm_managed *mgd, struct pm_batch *b,
		     unsigned long addr, unsigned long end, unsigned long *next)
{
	struct mm_struct *mm = mgd->mm;
	struct vm_area_struct *vma;
	bool movable;
	long ret = 0;

	/* Device pages are taken with no lock held: taking them may evict. */
	if (mmap_read_lock_killable(mm))
		return -EINTR;
	vma = pm_span(mm, addr, end, next, &movable);
	mmap_read_unlock(mm);
	if (!vma)
		return -EFAULT;
	if (!movable)
		return 0;
	b->used = 0;
	b->nr_pages = uvm_devpriv_alloc(b->udev, mgd, b->pages,
					(*next - addr) >> PAGE_SHIFT);
	if (!b->nr_pages)
		return -ENOSPC;
	if (mmap_read_lock_killable(mm)) {
		ret = -EINTR;
		goto out_unused;
	}
	vma = pm_span(mm, addr, end, next, &movable);
	if (!vma) {
		ret = -EFAULT;
	} else if (movable) {
		b->args = (struct migrate_vma){
			.vma = vma, .start = addr, .end = *next,
		};
		ret = pm_run(b);
	}
	mmap_read_unlock(mm);
out_unused:
	while (b->used < b->nr_pages)
		uvm_devpriv_unused(b->pages[b->used++]);
	return ret;
}

/**
 * uvm_pageable_migrate() - move pageable memory [@start, @end) to @udev.
 * @mgd: the VA space (its mm).
 * @udev: the device.
 * @start: page aligned.
 * @end: page aligned, above @start.
 *
 * What cannot move stays (see DOC). No uvm lock held.
 *
 * Return: pages moved, or -EINTR, -ENOMEM, -EFAULT (a hole: pages before
 * it moved), -ENODEV.
 */
long uvm_pageable_migrate(struct uvm_managed *mgd, struct uvm_device *udev,
			  unsigned long start, unsigned long end)
{
	struct pm_batch *b;
	unsigned long addr, next;
	long ret = 0, moved = 0;

	if (!udev->devpriv)
		return 0;
	b = kvzalloc(sizeof(*b), GFP_KERNEL_ACCOUNT | __GFP_NOWARN);
	if (!b)
		return -ENOMEM;
	b->udev = udev;
	for (addr = start; addr < end; addr = next) {
		if (fatal_signal_pending(current)) {
			ret = -EINTR;
			break;
		}
		ret = pm_batch(mgd, b, addr, end, &next);
		if (ret == -ENOSPC) {	/* the device is full: map remotely */
			ret = 0;
			break;
		}
		if (ret < 0)
			break;
		moved += ret;
		cond_resched();
	}
	kvfree(b);
	if (moved) {
		uvm_count_dev(mgd, udev, UVM_STAT_PAGEABLE_TO_DEV, moved);
		uvm_count_dev(mgd, udev, UVM_STAT_MIGRATE_H2D_PAGES, moved);
		uvm_count_dev(mgd, udev, UVM_STAT_MIGRATE_H2D_BYTES,
			      (u64)moved << PAGE_SHIFT);
	}
	return ret < 0 ? ret : moved;
}

/**
 * uvm_pageable_home() - move @udev's pages of [@start, @end) home.
 * @mgd: the VA space (its mm).
 * @udev: the device.
 * @start: page aligned.
 * @end: page aligned.
 *
 * For a device write to a page the device holds read-only (copy-on-write
 * after fork, mprotect): hmm_range_fault() reports a device's own pages as
 * they are, so the write fault is taken on the host copy instead (which
 * breaks COW, or finds the mapping read-only). No uvm lock held.
 *
 * Return: 0, -EINTR, -EFAULT (a hole), or uvm_devpriv_home()'s error.
 */
int uvm_pageable_home(struct uvm_managed *mgd, struct uvm_device *udev,
		      unsigned long start, unsigned long end)
{
	unsigned long win = UVM_DEVPRIV_HOME_PAGES << PAGE_SHIFT, next;
	struct mm_struct *mm = mgd->mm;
	struct vm_area_struct *vma;
	int ret = 0;

	if (mmap_read_lock_killable(mm))
		return -EINTR;
	for (; start < end && !ret; start = next) {
		vma = vma_lookup(mm, start);
		if (!vma) {
			ret = -EFAULT;
			break;
		}
		next = min3(end, vma->vm_end, ALIGN_DOWN(start, win) + win);
		ret = uvm_devpriv_home(udev, vma, start, next, NULL, 0);
	}
	mmap_read_unlock(mm);
	return ret;
}

/**
 * uvm_pageable_prefetch() - UVM_IOCTL_PREFETCH of pageable memory to a
 * device: move it there.
 * @mgd: the VA space.
 * @udev: the device.
 * @start: page aligned.
 * @end: page aligned.
 *
 * Return: 0 (what could not move stays home), -EFAULT (a hole, PROT_NONE
 * or driver memory), -EOPNOTSUPP (file or shared mapping), -EINTR,
 * -ENOMEM, -ENODEV.
 */
int uvm_pageable_prefetch(struct uvm_managed *mgd, struct uvm_device *udev,
			  unsigned long start, unsigned long end)
{
	long ret = uvm_pageable_vmas(mgd->mm, start, end, UVM_PGV_MOVABLE);

	if (ret)
		return ret;
	uvm_count(mgd, UVM_STAT_PREFETCHES, 1);
	ret = uvm_pageable_migrate(mgd, udev, start, end);
	return ret < 0 ? ret : 0;
}

#else

int uvm_pageable_home(struct uvm_managed *mgd, struct uvm_device *udev,
		      unsigned long start, unsigned long end)
{
	return 0;
}

long uvm_pageable_migrate(struct uvm_managed *mgd, struct uvm_device *udev,
			  unsigned long start, unsigned long end)
{
	return 0;
}

int uvm_pageable_prefetch(struct uvm_managed *mgd, struct uvm_device *udev,
			  unsigned long start, unsigned long end)
{
	return -EOPNOTSUPP;
}

#endif /* UVM_HAVE_DEVPRIV */
