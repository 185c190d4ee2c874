// SPDX-License-Identifier: GPL-2.0
/*
 * uvm_alloc.c - device allocations, pinned host allocations, their VMAs and
 * the VA space's address table.
 */

#include <linux/gfp.h>
#include <linux/memcontrol.h>
#include <linux/mm.h>
#include <linux/nodemask.h>
#include <linux/sched/mm.h>
#include <linux/sched/signal.h>
#include <linux/slab.h>
#include <uapi/uvm.h>
#ifdef CONFIG_X86
#include <asm/set_memory.h>
#endif

#include "uvm_alloc.h"
#include "uvm_compat.h"
#include "uvm_device.h"
#include "uvm_drv.h"
#include "uvm_evict.h"
#include "uvm_hostreg.h"
#include "uvm_mem.h"
#include "uvm_va_space.h"
#include "uvm_vma.h"

/**
 * DOC: Device and pinned host allocations
 *
 * UVM_IOCTL_ALLOC_DEVICE allocates device memory (uvm_mem_alloc(), never
 * evicted; on -ENOSPC managed data is evicted once with
 * uvm_evict_device_memory() and the allocation retried). UVM_IOCTL_ALLOC_HOST
 * allocates zeroed host pages charged to the VA space's memory cgroup,
 * DMA-maps them for every PCI device and, for WRITECOMBINED, switches their
 * kernel mapping to WC (no cacheable alias of a WC user mapping).
 *
 * Either returns a handle; mmap() of /dev/uvm at offset handle << PAGE_SHIFT,
 * of exactly the allocation's size, gives it its unified address. Like a
 * managed range, the VMA's file offset becomes its address (vm_pgoff =
 * vm_start >> PAGE_SHIFT), it is VM_DONTCOPY (a forked child has no CUDA
 * memory), VM_DONTEXPAND, cannot be split (partial munmap/mprotect fail
 * with -EINVAL) and cannot be moved by mremap.
 *
 * Device memory VMAs are VM_IO with no pages: every CPU access faults and
 * ->fault answers SIGBUS (with PROT_NONE, the core answers SIGSEGV first);
 * get_user_pages() refuses VM_IO, so no kernel path reaches them by user
 * address either. Pinned host VMAs get all their pages at mmap time
 * (vm_map_pages_zero(), write-combined page protection when asked).
 *
 * Lifetime: an allocation is linked (in the handle table and, once mapped,
 * the address table) from its ioctl until UVM_IOCTL_FREE or the munmap of
 * its VMA, whichever comes first; either unlinks it and drops the tables'
 * reference. Copies and queries in flight hold their own reference, so the
 * memory goes with the last of them. FREE of a pinned host allocation zaps
 * its CPU mapping (later touches: SIGBUS) so the pages are freed at once;
 * the caller then munmaps the dead VMA. Allocations never mapped go with
 * FREE by handle or with the file.
 */

static atomic64_t uvm_buffer_ids;

u64 uvm_next_buffer_id(void)
{
	return atomic64_inc_return(&uvm_buffer_ids);
}

void uvm_alloc_space_init(struct uvm_alloc_space *as)
{
	mutex_init(&as->lock);
	xa_init_flags(&as->handles, XA_FLAGS_ALLOC1);
	mt_init(&as->ranges);
	spin_lock_init(&as->dead_lock);
	INIT_LIST_HEAD(&as->dead);
	atomic64_set(&as->device_bytes, 0);
	atomic64_set(&as->host_alloc_pages, 0);
	atomic64_set(&as->pinned_pages, 0);
}

/* Table lock held; the caller drops the tables' reference after unlocking. */
void uvm_obj_unlink_locked(struct uvm_alloc_space *as, struct uvm_obj *obj)
{
	lockdep_assert_held(&as->lock);
	/*
	 * An erase from a maple tree may need new nodes, and mtree_erase()
	 * fails silently without them: the entry would stay in the tree
	 * after the object is freed (a use-after-free KASAN saw under fault
	 * injection). Storing NULL over the range with __GFP_NOFAIL cannot
	 * fail; it takes a few small nodes at most.
	 */
	if (obj->start)
		mtree_store_range(&as->ranges, obj->start,
				  obj->start + obj->size - 1, NULL,
				  GFP_KERNEL | __GFP_NOFAIL);
	obj->linked = false;
	switch (obj->kind) {
	case UVM_OBJ_DEVICE:
		xa_erase(&as->handles, to_uvm_alloc(obj)->handle);
		atomic64_sub(obj->size, &as->device_bytes);
		break;
	case UVM_OBJ_HOST_ALLOC:
		xa_erase(&as->handles, to_uvm_alloc(obj)->handle);
		atomic64_sub(obj->size >> PAGE_SHIFT, &as->host_alloc_pages);
		break;
	case UVM_OBJ_HOSTREG:
		atomic64_sub(obj->size >> PAGE_SHIFT, &as->pinned_pages);
		break;
	}
}

int uvm_obj_link_locked(struct uvm_alloc_space *as, struct uvm_obj *obj)
{
	lockdep_assert_held(&as->lock);
	return mtree_insert_range(&as->ranges, obj->start,
				  obj->start + obj->size - 1, obj, GFP_KERNEL);
}

struct uvm_obj *uvm_obj_find(struct uvm_alloc_space *as, unsigned long start,
			     unsigned long last)
{
	unsigned long index = start;
	struct uvm_obj *obj;

	uvm_hostreg_reap(as);	/* no registration an unmap killed */
	mutex_lock(&as->lock);
	obj = mt_find(&as->ranges, &index, last);
	if (obj)
		kref_get(&obj->ref);
	mutex_unlock(&as->lock);
	return obj;
}

struct uvm_obj *uvm_obj_lookup(struct uvm_alloc_space *as, unsigned long addr)
{
	return uvm_obj_find(as, addr, addr);
}

static void uvm_alloc_free_host_pages(struct uvm_host_pages *hp, bool wc)
{
	unsigned long i;

	uvm_host_pages_dma_unmap(hp);
	if (!hp->pages)		/* the page array itself failed */
		return;
#ifdef CONFIG_X86
	if (wc)
		set_pages_array_wb(hp->pages, hp->npages);
#endif
	for (i = 0; i < hp->npages && hp->pages[i]; i++)
		__free_page(hp->pages[i]);
	atomic_long_sub(i, &uvm_acct.host_alloc_pages);
	kvfree(hp->pages);
}

static void uvm_obj_release(struct kref *ref)
{
	struct uvm_obj *obj = container_of(ref, struct uvm_obj, ref);
	struct uvm_alloc *alloc;

	if (obj->kind == UVM_OBJ_HOSTREG) {
		uvm_hostreg_release(container_of(obj, struct uvm_hostreg, obj));
		return;
	}
	alloc = to_uvm_alloc(obj);
	if (obj->kind == UVM_OBJ_DEVICE)
		uvm_mem_free(alloc->mem);
	else
		uvm_alloc_free_host_pages(&alloc->hp,
					  obj->flags & UVM_HOST_ALLOC_WRITECOMBINED);
	kvfree(alloc->ext);
	kfree(alloc);
}

/* Drops a reference; the last one frees the memory. No uvm lock held. */
void uvm_obj_put(struct uvm_obj *obj)
{
	kref_put(&obj->ref, uvm_obj_release);
}

void uvm_alloc_space_fini(struct uvm_alloc_space *as)
{
	struct uvm_alloc *alloc;
	struct uvm_obj *obj;
	unsigned long index = 0;

	uvm_hostreg_reap(as);
	for (;;) {
		mutex_lock(&as->lock);
		index = 0;
		obj = mt_find(&as->ranges, &index, ULONG_MAX);
		if (!obj) {
			index = 0;
			alloc = xa_find(&as->handles, &index, ULONG_MAX,
					XA_PRESENT);
			obj = alloc ? &alloc->obj : NULL;
		}
		if (obj)
			uvm_obj_unlink_locked(as, obj);
		mutex_unlock(&as->lock);
		if (!obj)
			break;
		uvm_obj_put(obj);
	}
	uvm_hostreg_reap(as);
	xa_destroy(&as->handles);
	mtree_destroy(&as->ranges);
	mutex_destroy(&as->lock);
}

u64 uvm_alloc_dev_offset(struct uvm_alloc *alloc, u64 off, u64 *len)
{
	unsigned int lo = 0, hi = alloc->nr_ext;
	struct uvm_dev_extent *e;

	while (hi - lo > 1) {
		unsigned int mid = (lo + hi) / 2;

		if (alloc->ext[mid].start <= off)
			lo = mid;
		else
			hi = mid;
	}
	e = &alloc->ext[lo];
	*len = e->start + e->size - off;
	return e->dev_offset + (off - e->start);
}

/* Contiguous extents of @alloc->mem in list order (the allocation's order). */
static int uvm_alloc_build_extents(struct uvm_alloc *alloc)
{
	struct uvm_mem *mem = alloc->mem;
	struct uvm_buddy *mm = &mem->udev->pool.mm;
	struct uvm_buddy_block *block;
	struct uvm_dev_extent *e = NULL;
	unsigned int n = 0;
	u64 pos = 0, off, size;

	list_for_each_entry(block, &mem->blocks, link)
		n++;
	alloc->ext = kvcalloc(n, sizeof(*alloc->ext),
			      GFP_KERNEL_ACCOUNT | __GFP_NOWARN);
	if (!alloc->ext)
		return -ENOMEM;
	list_for_each_entry(block, &mem->blocks, link) {
		off = uvm_buddy_block_offset(block);
		size = uvm_buddy_block_size(mm, block);
		if (e && e->dev_offset + e->size == off) {
			e->size += size;
		} else {
			e = &alloc->ext[alloc->nr_ext++];
			e->start = pos;
			e->dev_offset = off;
			e->size = size;
		}
		pos += size;
	}
	return 0;
}

static struct uvm_mem *uvm_alloc_devmem(struct uvm_managed *mgd, u32 id,
					u64 size)
{
	struct uvm_device *udev;
	struct uvm_mem *mem;

	udev = uvm_device_get(id);
	if (!udev)
		return ERR_PTR(-ENODEV);
	mem = uvm_mem_alloc(udev, size, 0, 0);
	if (PTR_ERR_OR_ZERO(mem) == -ENOSPC && size <= udev->pool.size &&
	    !uvm_evict_device_memory(udev, PAGE_ALIGN(size), mgd))
		mem = uvm_mem_alloc(udev, size, 0, 0);
	uvm_device_put(udev);
	return mem;
}

/* Give @alloc a handle and link it; it gets the tables' reference. */
static int uvm_alloc_insert(struct uvm_alloc_space *as,
			    struct uvm_alloc *alloc)
{
	int ret;

	kref_init(&alloc->obj.ref);
	alloc->obj.linked = true;
	alloc->buffer_id = uvm_next_buffer_id();
	mutex_lock(&as->lock);
	ret = xa_alloc(&as->handles, &alloc->handle, alloc,
		       XA_LIMIT(1, UVM_ALLOC_MAX_HANDLE), GFP_KERNEL);
	if (!ret && alloc->obj.kind == UVM_OBJ_DEVICE)
		atomic64_add(alloc->obj.size, &as->device_bytes);
	else if (!ret)
		atomic64_add(alloc->obj.size >> PAGE_SHIFT,
			     &as->host_alloc_pages);
	mutex_unlock(&as->lock);
	return ret == -EBUSY ? -ENOSPC : ret;
}

int uvm_alloc_device_ioctl(struct uvm_va_space *va_space, void *data)
{
	struct uvm_alloc_device *args = data;
	struct uvm_alloc *alloc;
	int ret;

	if (args->flags)
		return -EINVAL;
	if (!args->size || args->size > TASK_SIZE)
		return -EINVAL;
	if (current->mm != va_space->mgd.mm)
		return -EPERM;

	alloc = kzalloc(sizeof(*alloc), GFP_KERNEL_ACCOUNT);
	if (!alloc)
		return -ENOMEM;
	alloc->obj.kind = UVM_OBJ_DEVICE;
	alloc->mem = uvm_alloc_devmem(&va_space->mgd, args->device,
				      args->size);
	if (IS_ERR(alloc->mem)) {
		ret = PTR_ERR(alloc->mem);
		goto err_free_alloc;
	}
	alloc->obj.size = alloc->mem->size;
	ret = uvm_alloc_build_extents(alloc);
	if (ret)
		goto err_free_mem;
	ret = uvm_alloc_insert(&va_space->allocs, alloc);
	if (ret)
		goto err_free_mem;

	args->handle = alloc->handle;
	args->mmap_offset = (u64)alloc->handle << PAGE_SHIFT;
	args->map_size = alloc->obj.size;
	args->buffer_id = alloc->buffer_id;
	return 0;

err_free_mem:
	kvfree(alloc->ext);
	uvm_mem_free(alloc->mem);
err_free_alloc:
	kfree(alloc);
	return ret;
}

static int uvm_alloc_host_pages(struct uvm_va_space *va_space,
				struct uvm_host_pages *hp, int nid)
{
	gfp_t gfp = GFP_HIGHUSER | __GFP_ACCOUNT | __GFP_ZERO |
		    __GFP_RETRY_MAYFAIL | __GFP_NOWARN;
	struct mem_cgroup *old;
	unsigned long i;
	int ret = 0;

	hp->pages = kvcalloc(hp->npages, sizeof(*hp->pages),
			     GFP_KERNEL_ACCOUNT | __GFP_NOWARN);
	if (!hp->pages)
		return -ENOMEM;
	old = set_active_memcg(va_space->mgd.memcg);
	for (i = 0; i < hp->npages; i++) {
		if (fatal_signal_pending(current)) {
			ret = -EINTR;
			break;
		}
		hp->pages[i] = nid == NUMA_NO_NODE ? alloc_page(gfp) :
			alloc_pages_node(nid, gfp | __GFP_THISNODE, 0);
		if (!hp->pages[i]) {
			ret = -ENOMEM;
			break;
		}
		atomic_long_inc(&uvm_acct.host_alloc_pages);
		cond_resched();
	}
	set_active_memcg(old);
	return ret;
}

static int uvm_alloc_host_check(struct uvm_alloc_host *args)
{
	if (args->flags & ~UVM_HOST_ALLOC_FLAGS)
		return -EINVAL;
	if (!args->size || args->size > TASK_SIZE)
		return -EINVAL;
	if (args->numa_node != NUMA_NO_NODE &&
	    (args->numa_node < 0 || args->numa_node >= MAX_NUMNODES ||
	     !node_state(args->numa_node, N_MEMORY)))
		return -EINVAL;
	if (PAGE_ALIGN(args->size) >> PAGE_SHIFT > totalram_pages())
		return -ENOMEM;
	return 0;
}

int uvm_alloc_host_ioctl(struct uvm_va_space *va_space, void *data)
{
	struct uvm_alloc_host *args = data;
	bool wc = args->flags & UVM_HOST_ALLOC_WRITECOMBINED;
	struct uvm_alloc *alloc;
	int ret;

	ret = uvm_alloc_host_check(args);
	if (ret)
		return ret;
	if (current->mm != va_space->mgd.mm)
		return -EPERM;

	alloc = kzalloc(sizeof(*alloc), GFP_KERNEL_ACCOUNT);
	if (!alloc)
		return -ENOMEM;
	alloc->obj.kind = UVM_OBJ_HOST_ALLOC;
	alloc->obj.flags = args->flags;
	alloc->obj.size = PAGE_ALIGN(args->size);
	alloc->hp.npages = alloc->obj.size >> PAGE_SHIFT;
	ret = uvm_alloc_host_pages(va_space, &alloc->hp, args->numa_node);
	if (ret)
		goto err_free_pages;
#ifdef CONFIG_X86
	ret = wc ? set_pages_array_wc(alloc->hp.pages, alloc->hp.npages) : 0;
	if (ret)
		goto err_free_pages;
#endif
	ret = uvm_host_pages_dma_map(&alloc->hp, DMA_BIDIRECTIONAL);
	if (ret)
		goto err_reset_wc;
	ret = uvm_alloc_insert(&va_space->allocs, alloc);
	if (ret)
		goto err_reset_wc;

	args->handle = alloc->handle;
	args->mmap_offset = (u64)alloc->handle << PAGE_SHIFT;
	args->map_size = alloc->obj.size;
	args->buffer_id = alloc->buffer_id;
	return 0;

err_reset_wc:
	uvm_alloc_free_host_pages(&alloc->hp, wc);
	kfree(alloc);
	return ret;
err_free_pages:
	uvm_alloc_free_host_pages(&alloc->hp, false);
	kfree(alloc);
	return ret;
}

/* The allocation @args names, unlinked, with the tables' reference. */
static struct uvm_obj *uvm_free_unlink(struct uvm_alloc_space *as,
				       struct uvm_free *args)
{
	struct uvm_alloc *alloc;
	struct uvm_obj *obj;

	lockdep_assert_not_held(&as->lock);
	mutex_lock(&as->lock);
	if (args->addr) {
		obj = mtree_load(&as->ranges, args->addr);
		if (!obj || obj->kind == UVM_OBJ_HOSTREG)
			obj = ERR_PTR(-ENOENT);
		else if (obj->start != args->addr)
			obj = ERR_PTR(-EINVAL);
	} else {
		alloc = xa_load(&as->handles, args->handle);
		obj = alloc ? &alloc->obj : ERR_PTR(-ENOENT);
	}
	if (!IS_ERR(obj))
		uvm_obj_unlink_locked(as, obj);
	mutex_unlock(&as->lock);
	return obj;
}

int uvm_free_ioctl(struct uvm_va_space *va_space, void *data)
{
	struct uvm_free *args = data;
	struct uvm_obj *obj;

	if (args->flags || args->pad || !args->addr == !args->handle)
		return -EINVAL;
	if (args->handle > UVM_ALLOC_MAX_HANDLE)
		return -ENOENT;

	obj = uvm_free_unlink(&va_space->allocs, args);
	if (IS_ERR(obj))
		return PTR_ERR(obj);
	if (obj->start && obj->kind == UVM_OBJ_HOST_ALLOC)
		unmap_mapping_range(&va_space->mgd.mapping, obj->start,
				    obj->size, 1);
	uvm_obj_put(obj);
	return 0;
}

int uvm_mem_counters_ioctl(struct uvm_va_space *va_space, void *data)
{
	struct uvm_mem_counters *args = data;
	struct uvm_alloc_space *as = &va_space->allocs;

	if (args->flags || args->pad)
		return -EINVAL;
	uvm_hostreg_reap(as);
	args->pinned_pages = atomic_long_read(&uvm_acct.pinned_pages);
	args->host_alloc_pages = atomic_long_read(&uvm_acct.host_alloc_pages);
	args->va_pinned_pages = atomic64_read(&as->pinned_pages);
	args->va_host_alloc_pages = atomic64_read(&as->host_alloc_pages);
	args->va_device_bytes = atomic64_read(&as->device_bytes);
	return 0;
}

static vm_fault_t uvm_alloc_fault(struct vm_fault *vmf)
{
	return VM_FAULT_SIGBUS;
}

/* fork() copying the VMA into another mm (see uvm_vma.c). */
static void uvm_alloc_vma_open(struct vm_area_struct *vma)
{
	struct uvm_va_space *va_space = vma->vm_private_data;

	uvm_vma_open_foreign(vma, va_space->mgd.mm);
}

/* munmap (or exit) of a whole allocation VMA: free it if not freed yet. */
static void uvm_alloc_vma_close(struct vm_area_struct *vma)
{
	struct uvm_va_space *va_space = vma->vm_private_data;
	struct uvm_alloc_space *as = &va_space->allocs;
	struct uvm_obj *obj;

	if (vma->vm_mm != va_space->mgd.mm)
		return;
	mutex_lock(&as->lock);
	obj = mtree_load(&as->ranges, vma->vm_start);
	if (obj && (obj->kind == UVM_OBJ_HOSTREG ||
		    obj->start != vma->vm_start))
		obj = NULL;
	if (obj)
		uvm_obj_unlink_locked(as, obj);
	mutex_unlock(&as->lock);
	if (obj)
		uvm_obj_put(obj);
}

static int uvm_alloc_vma_may_split(struct vm_area_struct *vma,
				   unsigned long addr)
{
	return -EINVAL;
}

static int uvm_alloc_vma_mremap(struct vm_area_struct *vma)
{
	return -EINVAL;
}

static const struct vm_operations_struct uvm_alloc_vm_ops = {
	.open = uvm_alloc_vma_open,
	.fault = uvm_alloc_fault,
	.close = uvm_alloc_vma_close,
	.may_split = uvm_alloc_vma_may_split,
	.mremap = uvm_alloc_vma_mremap,
};

/* Table lock held: the allocation behind the cookie, ready to be mapped. */
static struct uvm_alloc *uvm_alloc_mmap_target(struct uvm_alloc_space *as,
					       struct vm_area_struct *vma)
{
	struct uvm_alloc *alloc;

	lockdep_assert_held(&as->lock);
	if (vma->vm_pgoff > UVM_ALLOC_MAX_HANDLE)
		return ERR_PTR(-EINVAL);
	alloc = xa_load(&as->handles, vma->vm_pgoff);
	if (!alloc)
		return ERR_PTR(-EINVAL);
	if (alloc->obj.start)
		return ERR_PTR(-EBUSY);
	if (vma->vm_end - vma->vm_start != alloc->obj.size)
		return ERR_PTR(-EINVAL);
	return alloc;
}

bool uvm_vma_is_uvm(struct vm_area_struct *vma)
{
	return vma->vm_ops == &uvm_alloc_vm_ops || vma->vm_ops == &uvm_vm_ops ||
	       uvm_vma_is_foreign(vma);
}

/**
 * uvm_alloc_mmap - map an allocation at its cookie offset.
 * @va_space: the file's VA space.
 * @vma: the new VMA; mmap_lock held for write.
 *
 * Return: 0, -EPERM foreign mm, -EINVAL private mapping, unknown cookie or
 * wrong size, -EBUSY already mapped, -ENOMEM.
 */
int uvm_alloc_mmap(struct uvm_va_space *va_space, struct vm_area_struct *vma)
{
	struct uvm_alloc_space *as = &va_space->allocs;
	struct uvm_alloc *alloc;
	int ret = 0;

	if (vma->vm_mm != va_space->mgd.mm)
		return -EPERM;
	if (!(vma->vm_flags & VM_MAYSHARE))
		return -EINVAL;

	mutex_lock(&as->lock);
	alloc = uvm_alloc_mmap_target(as, vma);
	if (IS_ERR(alloc)) {
		ret = PTR_ERR(alloc);
		goto out_unlock;
	}
	uvm_vm_flags_set(vma, VM_DONTCOPY | VM_DONTEXPAND | VM_DONTDUMP);
	if (alloc->obj.kind == UVM_OBJ_DEVICE) {
		uvm_vm_flags_set(vma, VM_IO);
	} else {
		uvm_vm_flags_set(vma, VM_MIXEDMAP);
		if (alloc->obj.flags & UVM_HOST_ALLOC_WRITECOMBINED)
			vma->vm_page_prot = pgprot_writecombine(vma->vm_page_prot);
		ret = vm_map_pages_zero(vma, alloc->hp.pages, alloc->hp.npages);
		if (ret)
			goto out_unlock;
	}
	alloc->obj.start = vma->vm_start;
	uvm_hostreg_clear_dead_locked(as);	/* F7: a freed range is free */
	ret = uvm_obj_link_locked(as, &alloc->obj);
	if (ret) {
		alloc->obj.start = 0;
		goto out_unlock;
	}
	vma->vm_pgoff = vma->vm_start >> PAGE_SHIFT;
	vma->vm_ops = &uvm_alloc_vm_ops;
	vma->vm_private_data = va_space;
out_unlock:
	mutex_unlock(&as->lock);
	return ret;
}
