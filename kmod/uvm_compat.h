/* SPDX-License-Identifier: GPL-2.0 */
/*
 * uvm_compat.h - every difference between the kernels uvm builds on.
 *
 * Supported: Debian's kernels from bookworm's 6.1 to sid's and
 * experimental's (the range is UVM_KERNEL_OLDEST..NEWEST in kmod/Kbuild).
 * Only feature tests, no version numbers: Debian backports move APIs between
 * point releases (6.12.117+deb12 carries the gpu_buddy allocator that
 * upstream only gained later). The UVM_HAVE_* macros come from header probes
 * in kmod/Kbuild; the rest test macros the headers define. The versions
 * named below say where an API changed upstream, for the reader only.
 */
#ifndef __UVM_COMPAT_H__
#define __UVM_COMPAT_H__

#include <linux/fs.h>
#include <linux/mm.h>
#include <linux/pci.h>
#include <linux/sched/mm.h>
#include <linux/shrinker.h>
#include <linux/slab.h>
#include <linux/workqueue.h>

/*
 * Buddy allocator: drm_buddy (a module, drm_buddy.ko) on 6.1; moved into the
 * core as gpu_buddy (with drm_buddy.ko only keeping print helpers) on later
 * kernels. drm_buddy_free_list() gained a flags argument together with
 * DRM_BUDDY_CLEARED (6.10), native contiguous allocation with
 * DRM_BUDDY_CONTIGUOUS_ALLOCATION (6.8).
 */
#ifdef UVM_HAVE_GPU_BUDDY /* kmod/Kbuild probes for linux/gpu_buddy.h */
#include <linux/gpu_buddy.h>

#define uvm_buddy gpu_buddy
#define uvm_buddy_block gpu_buddy_block
#define UVM_BUDDY_HAS_CONTIGUOUS

static inline int uvm_buddy_init(struct uvm_buddy *mm, u64 size, u64 chunk)
{
	return gpu_buddy_init(mm, size, chunk);
}

static inline void uvm_buddy_fini(struct uvm_buddy *mm)
{
	gpu_buddy_fini(mm);
}

static inline int uvm_buddy_alloc_blocks(struct uvm_buddy *mm, u64 size,
					 u64 min_block, bool contiguous,
					 struct list_head *blocks)
{
	return gpu_buddy_alloc_blocks(mm, 0, mm->size, size, min_block, blocks,
				      contiguous ?
				      GPU_BUDDY_CONTIGUOUS_ALLOCATION : 0);
}

static inline void uvm_buddy_free_list(struct uvm_buddy *mm,
				       struct list_head *blocks)
{
	gpu_buddy_free_list(mm, blocks, 0);
}

static inline u64 uvm_buddy_block_offset(struct uvm_buddy_block *block)
{
	return gpu_buddy_block_offset(block);
}

static inline u64 uvm_buddy_block_size(struct uvm_buddy *mm,
				       struct uvm_buddy_block *block)
{
	return gpu_buddy_block_size(mm, block);
}

#else /* drm_buddy */
#include <drm/drm_buddy.h>

#define uvm_buddy drm_buddy
#define uvm_buddy_block drm_buddy_block
#ifdef DRM_BUDDY_CONTIGUOUS_ALLOCATION
#define UVM_BUDDY_HAS_CONTIGUOUS
#endif

static inline int uvm_buddy_init(struct uvm_buddy *mm, u64 size, u64 chunk)
{
	return drm_buddy_init(mm, size, chunk);
}

static inline void uvm_buddy_fini(struct uvm_buddy *mm)
{
	drm_buddy_fini(mm);
}

static inline u64 uvm_buddy_block_offset(struct uvm_buddy_block *block)
{
	return drm_buddy_block_offset(block);
}

static inline u64 uvm_buddy_block_size(struct uvm_buddy *mm,
				       struct uvm_buddy_block *block)
{
	return drm_buddy_block_size(mm, block);
}

#ifdef DRM_BUDDY_CLEARED
static inline void uvm_buddy_free_list(struct uvm_buddy *mm,
				       struct list_head *blocks)
{
	drm_buddy_free_list(mm, blocks, 0);
}
#else
static inline void uvm_buddy_free_list(struct uvm_buddy *mm,
				       struct list_head *blocks)
{
	drm_buddy_free_list(mm, blocks);
}
#endif

#ifdef UVM_BUDDY_HAS_CONTIGUOUS
static inline int uvm_buddy_alloc_blocks(struct uvm_buddy *mm, u64 size,
					 u64 min_block, bool contiguous,
					 struct list_head *blocks)
{
	return drm_buddy_alloc_blocks(mm, 0, mm->size, size, min_block, blocks,
				      contiguous ?
				      DRM_BUDDY_CONTIGUOUS_ALLOCATION : 0);
}
#else
/*
 * No contiguous flag: ask for one naturally aligned power-of-two block and
 * give the tail back with drm_buddy_block_trim(), as i915 and amdgpu did
 * before 6.8. A request can thus fail with -ENOSPC while enough (fragmented
 * or not power-of-two sized) space is free.
 */
static inline int uvm_buddy_alloc_blocks(struct uvm_buddy *mm, u64 size,
					 u64 min_block, bool contiguous,
					 struct list_head *blocks)
{
	u64 pow2;
	int ret;

	if (!contiguous)
		return drm_buddy_alloc_blocks(mm, 0, mm->size, size, min_block,
					      blocks, 0);

	pow2 = roundup_pow_of_two(size);
	if (pow2 > mm->size)
		return -ENOSPC;
	ret = drm_buddy_alloc_blocks(mm, 0, mm->size, pow2,
				     max(pow2, min_block), blocks, 0);
	if (ret || pow2 == size)
		return ret;
	return drm_buddy_block_trim(mm, size, blocks);
}
#endif /* UVM_BUDDY_HAS_CONTIGUOUS */
#endif /* gpu_buddy */

/*
 * struct drm_driver.date is gone in 6.14; where it exists, drm_version()
 * strlen()s it, so it must be set.
 */
#ifdef UVM_HAVE_DRM_DRIVER_DATE
#define UVM_DRM_DRIVER_DATE	.date = "20261122",
#else
#define UVM_DRM_DRIVER_DATE
#endif

/*
 * drm_open() refuses (and WARNs about) a file_operations without
 * FOP_UNSIGNED_OFFSET where that flag exists (6.12).
 */
#ifdef FOP_UNSIGNED_OFFSET
#define UVM_DRM_FOP_FLAGS	.fop_flags = FOP_UNSIGNED_OFFSET,
#else
#define UVM_DRM_FOP_FLAGS
#endif

/*
 * platform_driver.remove returns void since 6.11; before, the void variant
 * is called remove_new (Debian's 6.1 has it).
 */
#ifdef UVM_HAVE_VOID_PLATFORM_REMOVE
#define UVM_PLATFORM_REMOVE	remove
#else
#define UVM_PLATFORM_REMOVE	remove_new
#endif

/*
 * Claim one BAR for the lifetime of the binding. 6.12 has the managed
 * pcim_request_region(); on 6.1 pci_request_region() on a pcim-enabled
 * device is released automatically on unbind.
 */
static inline int uvm_pcim_request_region(struct pci_dev *pdev, int bar,
					  const char *name)
{
#ifdef UVM_HAVE_PCIM_REQUEST_REGION
	return pcim_request_region(pdev, bar, name);
#else
	return pci_request_region(pdev, bar, name);
#endif
}

/*
 * A special PTE (no struct page reference, refused by GUP) for a RAM pfn
 * in a VM_MIXEDMAP VMA, with the VMA's protection. pfn_t is gone in 6.17:
 * vmf_insert_mixed() takes a plain pfn, and with pte_special (x86) a mixed
 * map's pfn becomes a special PTE without the PFN_DEV flag.
 */
#ifdef UVM_HAVE_PFN_T /* kmod/Kbuild probes for linux/pfn_t.h */
#include <linux/pfn_t.h>

static inline vm_fault_t uvm_vmf_insert_mixed(struct vm_area_struct *vma,
					      unsigned long addr,
					      unsigned long pfn)
{
	return vmf_insert_mixed(vma, addr, __pfn_to_pfn_t(pfn, PFN_DEV));
}
#else
static inline vm_fault_t uvm_vmf_insert_mixed(struct vm_area_struct *vma,
					      unsigned long addr,
					      unsigned long pfn)
{
	return vmf_insert_mixed(vma, addr, pfn);
}
#endif

/*
 * vm_flags became read-only behind vm_flags_set() (6.3).
 */
static inline void uvm_vm_flags_set(struct vm_area_struct *vma,
				    unsigned long flags)
{
#ifdef UVM_HAVE_VM_FLAGS_SET
	vm_flags_set(vma, flags);
#else
	vma->vm_flags |= flags;
#endif
}

/*
 * The mm's get_unmapped_area hook became mm_get_unmapped_area(mm, ...)
 * (6.10), which lost its mm argument (always current->mm) in 6.18.
 */
static inline unsigned long uvm_mm_get_unmapped_area(struct file *filp,
						     unsigned long addr,
						     unsigned long len,
						     unsigned long pgoff,
						     unsigned long flags)
{
#if defined(UVM_HAVE_MM_GET_UNMAPPED_AREA_CURRENT)
	return mm_get_unmapped_area(filp, addr, len, pgoff, flags);
#elif defined(UVM_HAVE_MM_GET_UNMAPPED_AREA)
	return mm_get_unmapped_area(current->mm, filp, addr, len, pgoff,
				    flags);
#else
	return current->mm->get_unmapped_area(filp, addr, len, pgoff, flags);
#endif
}

/*
 * pte_mkwrite() takes the VMA since 6.6 (shadow stacks); the VMA-less form
 * is pte_mkwrite_novma() there.
 */
static inline pte_t uvm_pte_mkwrite(pte_t pte)
{
#ifdef UVM_HAVE_PTE_MKWRITE_NOVMA
	return pte_mkwrite_novma(pte);
#else
	return pte_mkwrite(pte);
#endif
}

/*
 * Run @fn on the PTEs of [@addr, @addr + @size) that exist.
 * apply_to_existing_page_range() is no longer exported in 7.x (kmod/Kbuild
 * looks for it in the kernel's Module.symvers); apply_to_page_range() is,
 * everywhere. It would allocate missing page tables and call @fn on empty
 * PTEs too, so use it only on a range just mapped, with an @fn that skips
 * PTEs that are not present.
 */
static inline int uvm_apply_to_existing_page_range(struct mm_struct *mm,
						   unsigned long addr,
						   unsigned long size,
						   pte_fn_t fn, void *data)
{
#ifdef UVM_HAVE_APPLY_TO_EXISTING_PAGE_RANGE
	return apply_to_existing_page_range(mm, addr, size, fn, data);
#else
	return apply_to_page_range(mm, addr, size, fn, data);
#endif
}

/*
 * page_mapped() is gone in 7.x; it was folio_mapped() of the page's folio
 * since 6.3 (and that exists on 6.1 too).
 */
static inline bool uvm_page_mapped(struct page *page)
{
#ifdef UVM_HAVE_PAGE_MAPPED
	return page_mapped(page);
#else
	return folio_mapped(page_folio(page));
#endif
}

/*
 * A workqueue says whether its workers are bound to one CPU: WQ_PERCPU
 * (6.17) or WQ_UNBOUND; 7.x warns at alloc_workqueue() when it says neither.
 * Before WQ_PERCPU, bound was what no flag meant.
 */
#ifdef UVM_HAVE_WQ_PERCPU /* an enum: kmod/Kbuild probes linux/workqueue.h */
#define UVM_WQ_PERCPU	WQ_PERCPU
#else
#define UVM_WQ_PERCPU	0
#endif

/*
 * The number of PTEs mapping an order-0 @page: folio_mapcount() is inline
 * on 6.12 and later (which lack page_mapcount()); on 6.1 it is out of line
 * and not exported, and page_mapcount() is the inline one.
 */
static inline int uvm_page_mapcount(struct page *page)
{
#ifdef UVM_HAVE_INLINE_FOLIO_MAPCOUNT
	return folio_mapcount(page_folio(page));
#else
	return page_mapcount(page);
#endif
}

/*
 * Shrinkers are allocated by the core since 6.7 (shrinker_alloc(),
 * shrinker_register(), shrinker_free()); before, the caller provides the
 * struct and calls register_shrinker()/unregister_shrinker().
 */
typedef unsigned long (*uvm_shrink_fn)(struct shrinker *,
				       struct shrink_control *);

static inline struct shrinker *uvm_shrinker_create(const char *name,
						   uvm_shrink_fn count,
						   uvm_shrink_fn scan)
{
	struct shrinker *s;

#ifdef UVM_HAVE_SHRINKER_ALLOC
	s = shrinker_alloc(0, "%s", name);
	if (!s)
		return NULL;
	s->count_objects = count;
	s->scan_objects = scan;
	shrinker_register(s);
#else
	s = kzalloc(sizeof(*s), GFP_KERNEL);
	if (!s)
		return NULL;
	s->count_objects = count;
	s->scan_objects = scan;
	s->seeks = DEFAULT_SEEKS;
	if (register_shrinker(s, "%s", name)) {
		kfree(s);
		return NULL;
	}
#endif
	return s;
}

static inline void uvm_shrinker_destroy(struct shrinker *s)
{
	if (!s)
		return;
#ifdef UVM_HAVE_SHRINKER_ALLOC
	shrinker_free(s);
#else
	unregister_shrinker(s);
	kfree(s);
#endif
}

#endif /* __UVM_COMPAT_H__ */
