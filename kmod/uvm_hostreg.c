// SPDX-License-Identifier: GPL-2.0
/*
 * uvm_hostreg.c - DMA mappings of host page sets, and cudaHostRegister.
 */

#include <linux/dma-mapping.h>
#include <linux/mm.h>
#include <linux/sched/mm.h>
#include <linux/slab.h>
#include <uapi/uvm.h>

#include "uvm_alloc.h"
#include "uvm_device.h"
#include "uvm_drv.h"
#include "uvm_hostreg.h"
#include "uvm_va_space.h"

/**
 * DOC: Registered host memory
 *
 * UVM_IOCTL_HOST_REGISTER pins [addr, addr + size) (page aligned, every
 * page mapped) with pin_user_pages_fast(FOLL_LONGTERM, plus FOLL_WRITE
 * unless READONLY), DMA-maps the pages for every PCI device present and
 * links the range into the VA space's address table. Overlapping a
 * registration or a pinned host allocation: -EEXIST (CUDA's
 * HostMemoryAlreadyRegistered); device allocations and managed memory of
 * /dev/uvm: -EINVAL; a hole in the range: -EFAULT; IOMEMORY (MMIO of
 * another device, VM_IO/VM_PFNMAP, which GUP cannot pin): -EOPNOTSUPP.
 * Copies never write into a READONLY registration (-EACCES).
 *
 * The pages stay pinned until UVM_IOCTL_HOST_UNREGISTER (exactly the
 * registered base, else -ENOENT: HostMemoryNotRegistered), close of the
 * file, or munmap of any part of the range: an mmu interval notifier sees
 * the unmap and unpins at once (the registration is then unlinked; its
 * notifier is removed on the next ioctl that reaps, or at close, since a
 * notifier cannot remove itself). Process exit closes the file.
 *
 * Locking: the table lock (uvm_alloc_space.lock) for membership; each
 * registration's rw_semaphore for the pages: copies hold it for read while
 * they touch the pages, the notifier takes it for write (under mmap_lock)
 * to unpin. Nothing takes mmap_lock under either.
 */

static void uvm_dma_map_release(struct uvm_dma_map *map,
				enum dma_data_direction dir)
{
	dma_unmap_sgtable(map->udev->drm.dev, &map->sgt, dir, 0);
	sg_free_table(&map->sgt);
	uvm_device_put(map->udev);
}

void uvm_host_pages_dma_unmap(struct uvm_host_pages *hp)
{
	while (hp->nr_maps)
		uvm_dma_map_release(&hp->maps[--hp->nr_maps], hp->dir);
	kfree(hp->maps);
	hp->maps = NULL;
}

static int uvm_dma_map_one(struct uvm_host_pages *hp, struct uvm_device *udev)
{
	struct uvm_dma_map *map = &hp->maps[hp->nr_maps];
	int ret;

	ret = sg_alloc_table_from_pages(&map->sgt, hp->pages, hp->npages, 0,
					hp->npages << PAGE_SHIFT, GFP_KERNEL);
	if (ret)
		return ret;
	ret = dma_map_sgtable(udev->drm.dev, &map->sgt, hp->dir, 0);
	if (ret) {
		sg_free_table(&map->sgt);
		return ret;
	}
	uvm_device_get_ref(udev);
	map->udev = udev;
	hp->nr_maps++;
	return 0;
}

/*
 * DMA-map @hp for every PCI device present. The emulated backend's memory
 * is system RAM accessed by the CPU: nothing to map. Devices bound later
 * are not mapped (their copies go through the CPU as well).
 */
int uvm_host_pages_dma_map(struct uvm_host_pages *hp,
			   enum dma_data_direction dir)
{
	struct uvm_device *udev;
	int ret = 0;
	u32 id;

	hp->dir = dir;
	hp->maps = kcalloc(UVM_MAX_DEVICES, sizeof(*hp->maps), GFP_KERNEL);
	if (!hp->maps)
		return -ENOMEM;
	for (id = 0; id < UVM_MAX_DEVICES && !ret; id++) {
		udev = uvm_device_get(id);
		if (!udev)
			continue;
		if (udev->ops->backend == UVM_BACKEND_PCI_BAR)
			ret = uvm_dma_map_one(hp, udev);
		uvm_device_put(udev);
	}
	if (ret)
		uvm_host_pages_dma_unmap(hp);
	return ret;
}

/* Unpin and unmap; reg->lock held for write (or the last reference). */
static void uvm_hostreg_unpin(struct uvm_hostreg *reg)
{
	if (!reg->hp.pages)
		return;
	uvm_host_pages_dma_unmap(&reg->hp);
	unpin_user_pages_dirty_lock(reg->hp.pages, reg->hp.npages,
				    !(reg->obj.flags & UVM_HOST_REGISTER_READONLY));
	atomic_long_sub(reg->hp.npages, &uvm_acct.pinned_pages);
	kvfree(reg->hp.pages);
	reg->hp.pages = NULL;
}

void uvm_hostreg_release(struct uvm_hostreg *reg)
{
	mmu_interval_notifier_remove(&reg->notifier);
	uvm_hostreg_unpin(reg);
	kfree(reg);
}

void uvm_hostreg_reap(struct uvm_alloc_space *as)
{
	struct uvm_hostreg *reg, *tmp;
	LIST_HEAD(dead);

	mutex_lock(&as->lock);
	list_splice_init(&as->dead, &dead);
	mutex_unlock(&as->lock);
	list_for_each_entry_safe(reg, tmp, &dead, dead_link)
		uvm_obj_put(&reg->obj);
}

static bool uvm_hostreg_invalidate(struct mmu_interval_notifier *mni,
				   const struct mmu_notifier_range *range,
				   unsigned long cur_seq)
{
	struct uvm_hostreg *reg = container_of(mni, struct uvm_hostreg,
					       notifier);
	struct uvm_alloc_space *as = reg->as;

	mmu_interval_set_seq(mni, cur_seq);
	if (range->event != MMU_NOTIFY_UNMAP)
		return true;
	if (!mmu_notifier_range_blockable(range))
		return false;

	down_write(&reg->lock);
	reg->dead = true;
	uvm_hostreg_unpin(reg);
	up_write(&reg->lock);

	mutex_lock(&as->lock);
	if (reg->obj.linked) {
		uvm_obj_unlink_locked(as, &reg->obj);
		list_add_tail(&reg->dead_link, &as->dead);
	}
	mutex_unlock(&as->lock);
	return true;
}

static const struct mmu_interval_notifier_ops uvm_hostreg_notifier_ops = {
	.invalidate = uvm_hostreg_invalidate,
};

/* Every page of [start, end) is mapped by a VMA that is not /dev/uvm's. */
static int uvm_hostreg_check_vmas(struct mm_struct *mm, unsigned long start,
				  unsigned long end)
{
	struct vm_area_struct *vma;
	unsigned long next = start;
	int ret = 0;

	mmap_read_lock(mm);
	for (vma = find_vma(mm, start); vma && next < end;
	     vma = find_vma(mm, vma->vm_end)) {
		if (vma->vm_start > next) {
			ret = -EFAULT;
			break;
		}
		if (uvm_vma_is_uvm(vma)) {
			ret = -EINVAL;
			break;
		}
		next = vma->vm_end;
	}
	if (!ret && next < end)
		ret = -EFAULT;
	mmap_read_unlock(mm);
	return ret;
}

static int uvm_hostreg_pin(struct uvm_hostreg *reg)
{
	struct uvm_host_pages *hp = &reg->hp;
	unsigned int gup = FOLL_LONGTERM;
	unsigned long done = 0;
	int ret;

	if (!(reg->obj.flags & UVM_HOST_REGISTER_READONLY))
		gup |= FOLL_WRITE;
	hp->pages = kvcalloc(hp->npages, sizeof(*hp->pages), GFP_KERNEL);
	if (!hp->pages)
		return -ENOMEM;
	while (done < hp->npages) {
		ret = pin_user_pages_fast(reg->obj.start + (done << PAGE_SHIFT),
					  min(hp->npages - done, (unsigned long)SZ_64K),
					  gup, hp->pages + done);
		if (ret <= 0)
			goto err_unpin;
		done += ret;
	}
	atomic_long_add(hp->npages, &uvm_acct.pinned_pages);
	ret = uvm_host_pages_dma_map(hp, gup & FOLL_WRITE ? DMA_BIDIRECTIONAL :
				     DMA_TO_DEVICE);
	if (ret)
		uvm_hostreg_unpin(reg);
	return ret;

err_unpin:
	unpin_user_pages(hp->pages, done);
	kvfree(hp->pages);
	hp->pages = NULL;
	return ret ? ret : -EFAULT;
}

static int uvm_hostreg_check(struct uvm_va_space *va_space,
			     struct uvm_host_register *args)
{
	struct uvm_obj *obj;
	int ret;

	if (args->flags & ~UVM_HOST_REGISTER_FLAGS || args->pad)
		return -EINVAL;
	if (!args->addr || !args->size || !PAGE_ALIGNED(args->addr) ||
	    !PAGE_ALIGNED(args->size) || args->addr >= TASK_SIZE ||
	    args->size > TASK_SIZE - args->addr)
		return -EINVAL;
	if (args->flags & UVM_HOST_REGISTER_IOMEMORY)
		return -EOPNOTSUPP;
	if (current->mm != va_space->mgd.mm)
		return -EPERM;

	obj = uvm_obj_find(&va_space->allocs, args->addr,
			   args->addr + args->size - 1);
	if (obj) {
		ret = obj->kind == UVM_OBJ_DEVICE ? -EINVAL : -EEXIST;
		uvm_obj_put(obj);
		return ret;
	}
	return uvm_hostreg_check_vmas(current->mm, args->addr,
				      args->addr + args->size);
}

/* Link @reg unless an unmap already hit it; on failure it is unlinked. */
static int uvm_hostreg_link(struct uvm_alloc_space *as,
			    struct uvm_hostreg *reg)
{
	int ret;

	mutex_lock(&as->lock);
	ret = uvm_obj_link_locked(as, &reg->obj);
	if (!ret) {
		reg->obj.linked = true;
		atomic64_add(reg->hp.npages, &as->pinned_pages);
	}
	mutex_unlock(&as->lock);
	if (ret)
		return ret;

	down_read(&reg->lock);
	ret = reg->dead ? -EFAULT : 0;
	up_read(&reg->lock);
	if (!ret)
		return 0;
	mutex_lock(&as->lock);
	if (reg->obj.linked)
		uvm_obj_unlink_locked(as, &reg->obj);
	else
		list_del(&reg->dead_link);
	mutex_unlock(&as->lock);
	return ret;
}

int uvm_host_register_ioctl(struct uvm_va_space *va_space, void *data)
{
	struct uvm_host_register *args = data;
	struct uvm_hostreg *reg;
	int ret;

	ret = uvm_hostreg_check(va_space, args);
	if (ret)
		return ret;
	uvm_hostreg_reap(&va_space->allocs);

	reg = kzalloc(sizeof(*reg), GFP_KERNEL);
	if (!reg)
		return -ENOMEM;
	kref_init(&reg->obj.ref);
	init_rwsem(&reg->lock);
	reg->obj.kind = UVM_OBJ_HOSTREG;
	reg->obj.flags = args->flags;
	reg->obj.start = args->addr;
	reg->obj.size = args->size;
	reg->hp.npages = args->size >> PAGE_SHIFT;
	reg->as = &va_space->allocs;
	INIT_LIST_HEAD(&reg->dead_link);

	ret = mmu_interval_notifier_insert(&reg->notifier, current->mm,
					   args->addr, args->size,
					   &uvm_hostreg_notifier_ops);
	if (ret)
		goto err_free_reg;
	ret = uvm_hostreg_pin(reg);
	if (ret)
		goto err_release;
	ret = uvm_hostreg_link(&va_space->allocs, reg);
	if (ret)
		goto err_release;
	args->dev_addr = args->addr;
	return 0;

err_release:
	uvm_hostreg_release(reg);
	return ret;
err_free_reg:
	kfree(reg);
	return ret;
}

int uvm_host_unregister_ioctl(struct uvm_va_space *va_space, void *data)
{
	struct uvm_host_unregister *args = data;
	struct uvm_alloc_space *as = &va_space->allocs;
	struct uvm_obj *obj;

	if (args->flags || args->pad)
		return -EINVAL;
	uvm_hostreg_reap(as);

	mutex_lock(&as->lock);
	obj = mtree_load(&as->ranges, args->addr);
	if (obj && (obj->kind != UVM_OBJ_HOSTREG || obj->start != args->addr))
		obj = NULL;
	if (obj)
		uvm_obj_unlink_locked(as, obj);
	mutex_unlock(&as->lock);
	if (!obj)
		return -ENOENT;
	uvm_obj_put(obj);
	return 0;
}
