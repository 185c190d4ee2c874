// SPDX-License-Identifier: GPL-2.0
/*
 * uvm_hostreg.c - DMA mappings of host page sets, and cudaHostRegister.
 */

#include <linux/dma-mapping.h>
#include <linux/mm.h>
#include <linux/capability.h>
#include <linux/sched/mm.h>
#include <linux/sched/signal.h>
#include <linux/slab.h>
#include <drm/drm_drv.h>
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
 * the unmap and unpins at once (the registration is then queued, and
 * unlinked and freed by the next ioctl that looks registrations up, or at
 * close, since a notifier can neither take the table lock nor remove
 * itself). Process exit closes the file.
 *
 * Pinning races with unmaps of the range: the pages are pinned into an
 * array of the ioctl's own under mmu_interval_read_begin(), and published
 * in the registration (under its lock) only if no invalidation ran
 * meanwhile (mmu_interval_read_retry()); else they are unpinned and pinned
 * again, or, after an unmap, the ioctl fails with -EFAULT. The notifier
 * only unpins published pages.
 *
 * The pages are charged to the mm's pinned_vm and limited by
 * RLIMIT_MEMLOCK unless the caller has CAP_IPC_LOCK (as RDMA does): -ENOMEM
 * beyond it. The page array is charged to the memory cgroup.
 *
 * Locking: the table lock (uvm_alloc_space.lock) for membership; each
 * registration's rw_semaphore for the pages: copies hold it for read while
 * they touch the pages, the notifier takes it for write (under mmap_lock,
 * and from reclaim) to unpin. Nothing takes mmap_lock or allocates memory
 * under a registration's lock: copies pin their user pages first
 * (uvm_copy.c).
 */

/*
 * Every host page set with DMA mappings, so that unbinding a device can
 * unmap its share. The lock is taken under mmap_lock and from reclaim (a
 * registration's unmap notifier unmaps): never held across an allocation.
 */
static LIST_HEAD(uvm_dma_sets);
static DEFINE_MUTEX(uvm_dma_sets_lock);	/* Protects uvm_dma_sets, listed maps */

static void uvm_dma_map_release(struct uvm_dma_map *map,
				enum dma_data_direction dir)
{
	/* Mapped without a sync (uvm_dma_map_one()): sync explicitly. */
	dma_sync_sgtable_for_cpu(map->udev->drm.dev, &map->sgt, dir);
	dma_unmap_sgtable(map->udev->drm.dev, &map->sgt, dir, map->attrs);
	sg_free_table(&map->sgt);
	uvm_device_put(map->udev);
}

/* Release @hp->maps[i] (the last one takes its place); list lock held. */
static void uvm_dma_map_drop_locked(struct uvm_host_pages *hp, unsigned int i)
{
	lockdep_assert_held(&uvm_dma_sets_lock);
	uvm_dma_map_release(&hp->maps[i], hp->dir);
	hp->maps[i] = hp->maps[--hp->nr_maps];
}

void uvm_host_pages_dma_unmap(struct uvm_host_pages *hp)
{
	mutex_lock(&uvm_dma_sets_lock);
	if (hp->dma_listed)
		list_del(&hp->dma_link);
	hp->dma_listed = false;
	while (hp->nr_maps)
		uvm_dma_map_drop_locked(hp, hp->nr_maps - 1);
	mutex_unlock(&uvm_dma_sets_lock);
	kfree(hp->maps);
	hp->maps = NULL;
}

/**
 * uvm_host_pages_dma_unmap_device() - drop every DMA mapping of host page
 * sets (registrations, pinned allocations) for a device being unbound.
 * @udev: the device, already unplugged (drm_dev_unplug()): no mapping of a
 *	  new set for it can start, and any set mapped before is listed or
 *	  sees the unplug when it lists itself (uvm_host_pages_dma_map()).
 */
void uvm_host_pages_dma_unmap_device(struct uvm_device *udev)
{
	struct uvm_host_pages *hp;
	unsigned int i;

	mutex_lock(&uvm_dma_sets_lock);
	list_for_each_entry(hp, &uvm_dma_sets, dma_link)
		for (i = hp->nr_maps; i--; )
			if (hp->maps[i].udev == udev)
				uvm_dma_map_drop_locked(hp, i);
	mutex_unlock(&uvm_dma_sets_lock);
}

/* Map @pages for @udev, inside drm_dev_enter() so unplug waits for it. */
static int uvm_dma_map_one(struct uvm_host_pages *hp, struct page **pages,
			   struct uvm_device *udev)
{
	struct uvm_dma_map *map = &hp->maps[hp->nr_maps];
	int ret, idx;

	if (!drm_dev_enter(&udev->drm, &idx))
		return 0;		/* going away: nothing to map */
	ret = sg_alloc_table_from_pages_segment(&map->sgt, pages,
						hp->npages, 0,
						hp->npages << PAGE_SHIFT,
						dma_get_max_seg_size(udev->drm.dev),
						GFP_KERNEL);
	if (ret)
		goto out_exit;
	/*
	 * A page may be in several mappings at once: this set's for other
	 * devices, or another set's (a memfd page registered through two
	 * mappings). The DMA API's debug checks reject overlapping mappings
	 * that each sync the CPU caches at map time, so map without the sync
	 * and sync explicitly (a no-op where DMA is cache-coherent, as on
	 * x86 PCIe).
	 */
	map->attrs = DMA_ATTR_SKIP_CPU_SYNC;
	ret = dma_map_sgtable(udev->drm.dev, &map->sgt, hp->dir, map->attrs);
	if (ret) {
		sg_free_table(&map->sgt);
		goto out_exit;
	}
	dma_sync_sgtable_for_device(udev->drm.dev, &map->sgt, hp->dir);
	uvm_device_get_ref(udev);
	map->udev = udev;
	hp->nr_maps++;
out_exit:
	drm_dev_exit(idx);
	return ret;
}

/**
 * uvm_host_pages_list() - list a set mapped by uvm_host_pages_dma_map_unlisted()
 * so a device's unbind finds it; drops the maps of devices unplugged
 * meanwhile (their unbind's sweep, after the unplug, may have run before).
 * @hp: the set. Takes the list's lock: allocates nothing, may be called
 *	under a registration's lock.
 */
void uvm_host_pages_list(struct uvm_host_pages *hp)
{
	unsigned int i;

	mutex_lock(&uvm_dma_sets_lock);
	for (i = hp->nr_maps; i--; )
		if (drm_dev_is_unplugged(&hp->maps[i].udev->drm))
			uvm_dma_map_drop_locked(hp, i);
	list_add(&hp->dma_link, &uvm_dma_sets);
	hp->dma_listed = true;
	mutex_unlock(&uvm_dma_sets_lock);
}

/*
 * DMA-map @hp for every PCI device present. The emulated backend's memory
 * is system RAM accessed by the CPU: nothing to map. Devices bound later
 * are not mapped (their copies go through the CPU as well); a device
 * unbound later drops its mappings (uvm_host_pages_dma_unmap_device()).
 */
int uvm_host_pages_dma_map(struct uvm_host_pages *hp,
			   enum dma_data_direction dir)
{
	int ret = uvm_host_pages_dma_map_unlisted(hp, hp->pages, dir);

	if (!ret)
		uvm_host_pages_list(hp);
	return ret;
}

/**
 * uvm_host_pages_dma_map_unlisted() - uvm_host_pages_dma_map() without the
 * listing: the caller lists the set (uvm_host_pages_list()) or unmaps it.
 * @hp: the set; @hp->npages set.
 * @pages: its pages (@hp->pages, or the array a registration is about to
 *	   publish there).
 * @dir: DMA direction.
 *
 * Allocates (GFP_KERNEL): no registration's lock may be held.
 *
 * Return: 0 or a negative errno (nothing mapped).
 */
int uvm_host_pages_dma_map_unlisted(struct uvm_host_pages *hp,
				    struct page **pages,
				    enum dma_data_direction dir)
{
	struct uvm_device *udev;
	int ret = 0;
	u32 id;

	hp->dir = dir;
	hp->maps = kcalloc(UVM_MAX_DEVICES, sizeof(*hp->maps), GFP_KERNEL_ACCOUNT);
	if (!hp->maps)
		return -ENOMEM;
	for (id = 0; id < UVM_MAX_DEVICES && !ret; id++) {
		udev = uvm_device_get(id);
		if (!udev)
			continue;
		if (udev->ops->backend == UVM_BACKEND_PCI_BAR)
			ret = uvm_dma_map_one(hp, pages, udev);
		uvm_device_put(udev);
	}
	if (ret)
		uvm_host_pages_dma_unmap(hp);
	return ret;
}

/*
 * Give back the pinned_vm charge (see uvm_hostreg_charge()), once: at
 * unpin or at the last put. reg->lock held for write, or the last
 * reference.
 */
static void uvm_hostreg_uncharge(struct uvm_hostreg *reg)
{
	if (!reg->charged)
		return;
	atomic64_sub(reg->hp.npages, &reg->mm->pinned_vm);
	reg->charged = false;
}

/*
 * Charge @reg's pages to its mm's pinned_vm, like RDMA's ib_umem: beyond
 * RLIMIT_MEMLOCK only with CAP_IPC_LOCK.
 */
static int uvm_hostreg_charge(struct uvm_hostreg *reg)
{
	unsigned long limit = rlimit(RLIMIT_MEMLOCK) >> PAGE_SHIFT;
	u64 pinned;

	pinned = atomic64_add_return(reg->hp.npages, &reg->mm->pinned_vm);
	reg->charged = true;
	if (pinned > limit && !capable(CAP_IPC_LOCK)) {
		uvm_hostreg_uncharge(reg);
		return -ENOMEM;
	}
	return 0;
}

/* Unpin and unmap; reg->lock held for write (or the last reference). */
static void uvm_hostreg_unpin(struct uvm_hostreg *reg)
{
	uvm_hostreg_uncharge(reg);
	if (!reg->hp.pages)
		return;
	uvm_host_pages_dma_unmap(&reg->hp);
	unpin_user_pages_dirty_lock(reg->hp.pages, reg->hp.npages,
				    !(reg->obj.flags & UVM_HOST_REGISTER_READONLY));
	atomic_long_sub(reg->hp.npages, &uvm_acct.pinned_pages);
	kvfree(reg->hp.pages);
	reg->hp.pages = NULL;
}

/*
 * Final put (from uvm_obj_put()). Removing the notifier waits for an
 * invalidation in flight, so none runs once it returns.
 */
void uvm_hostreg_release(struct uvm_hostreg *reg)
{
	mmu_interval_notifier_remove(&reg->notifier);
	uvm_hostreg_unpin(reg);
	kfree(reg);
}

/*
 * Moves @as->dead onto @list and unlinks every registration on it from the
 * table, dropping the table's reference; the queue's reference (still held
 * through @list) keeps each alive, so no put here is the last and nothing
 * removes a notifier: safe under mmap_lock. Erasing from the table may
 * sleep, hence the private list.
 */
static void uvm_hostreg_unlink_dead_locked(struct uvm_alloc_space *as,
					   struct list_head *list)
{
	struct uvm_hostreg *reg;

	lockdep_assert_held(&as->lock);
	spin_lock(&as->dead_lock);
	list_splice_init(&as->dead, list);
	spin_unlock(&as->dead_lock);
	list_for_each_entry(reg, list, dead_link) {
		if (!reg->obj.linked)
			continue;
		uvm_obj_unlink_locked(as, &reg->obj);
		uvm_obj_put(&reg->obj);		/* the table's, never the last */
	}
}

/**
 * uvm_hostreg_clear_dead_locked() - free the ranges of killed registrations.
 * @as: the table; its lock held (and possibly mmap_lock).
 *
 * A range an unmap freed may be mapped again at once, by a device or host
 * allocation's mmap() (under mmap_lock, where the reaper's final puts may
 * not run): it unlinks the killed registrations there and leaves them
 * queued, so the reaper only drops the queue's references later
 * (docs/reliability.md, F7).
 */
void uvm_hostreg_clear_dead_locked(struct uvm_alloc_space *as)
{
	LIST_HEAD(dead);

	if (list_empty_careful(&as->dead))
		return;
	uvm_hostreg_unlink_dead_locked(as, &dead);
	spin_lock(&as->dead_lock);
	list_splice(&dead, &as->dead);
	spin_unlock(&as->dead_lock);
}

/**
 * uvm_hostreg_reap() - unlink the registrations an unmap killed.
 * @as: the table; called without its lock.
 *
 * The notifier cannot take @as->lock (it is held across allocations that
 * may recurse into reclaim, which runs notifiers) nor remove itself: it
 * queues the registration on @as->dead with a reference of the queue's own,
 * and whoever looks registrations up next unlinks it here.
 *
 * The queue is emptied and its registrations unlinked under one hold of
 * @as->lock: a lookup that then finds the queue empty (without the lock)
 * can no longer find a dead registration in the table. Emptying it first
 * and unlinking entry by entry after let a concurrent HOST_REGISTER see
 * an empty queue and still meet the dead registration of a freed buffer at
 * its fresh buffer's address (-EEXIST: docs/reliability.md, F6).
 */
void uvm_hostreg_reap(struct uvm_alloc_space *as)
{
	struct uvm_hostreg *reg, *tmp;
	LIST_HEAD(dead);

	if (list_empty_careful(&as->dead))
		return;
	mutex_lock(&as->lock);
	uvm_hostreg_unlink_dead_locked(as, &dead);
	mutex_unlock(&as->lock);
	list_for_each_entry_safe(reg, tmp, &dead, dead_link) {
		list_del_init(&reg->dead_link);
		uvm_obj_put(&reg->obj);			/* the queue's */
	}
}

/* An unmap killed a published registration: queue it for the reaper. */
static void uvm_hostreg_queue_dead(struct uvm_hostreg *reg)
{
	struct uvm_alloc_space *as = reg->as;

	if (!kref_get_unless_zero(&reg->obj.ref))
		return;		/* its last put is removing the notifier */
	spin_lock(&as->dead_lock);
	list_add_tail(&reg->dead_link, &as->dead);
	spin_unlock(&as->dead_lock);
}

/*
 * Every invalidation bumps the sequence under reg->lock, so the pinning in
 * uvm_hostreg_pin() sees it (mmu_interval_read_retry() under the same
 * lock) and starts over. An unmap also unpins at once: the pages may not
 * outlive the mapping they were registered through.
 */
static bool uvm_hostreg_invalidate(struct mmu_interval_notifier *mni,
				   const struct mmu_notifier_range *range,
				   unsigned long cur_seq)
{
	struct uvm_hostreg *reg = container_of(mni, struct uvm_hostreg,
					       notifier);
	bool queue = false;

	/*
	 * Only an unmap takes the registration's lock: a migration calls us
	 * with its page locked, and an unpin (under the lock) may wait for
	 * that page's lock.
	 */
	if (range->event != MMU_NOTIFY_UNMAP) {
		spin_lock(&reg->seq_lock);
		mmu_interval_set_seq(mni, cur_seq);
		spin_unlock(&reg->seq_lock);
		return true;
	}
	if (!mmu_notifier_range_blockable(range))
		return false;
	down_write(&reg->lock);
	spin_lock(&reg->seq_lock);
	mmu_interval_set_seq(mni, cur_seq);
	spin_unlock(&reg->seq_lock);
	if (!reg->dead) {
		reg->dead = true;
		uvm_hostreg_unpin(reg);
		queue = reg->published;
	}
	up_write(&reg->lock);
	if (queue)
		uvm_hostreg_queue_dead(reg);
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

/* Pin every page of @reg into @pages; on error none stays pinned. */
static int uvm_hostreg_pin_pages(struct uvm_hostreg *reg, struct page **pages)
{
	unsigned int gup = FOLL_LONGTERM;
	unsigned long done = 0, n;
	int ret;

	if (!(reg->obj.flags & UVM_HOST_REGISTER_READONLY))
		gup |= FOLL_WRITE;
	while (done < reg->hp.npages) {
		if (fatal_signal_pending(current)) {
			ret = -EINTR;
			goto err_unpin;
		}
		n = min(reg->hp.npages - done, (unsigned long)SZ_64K);
		ret = pin_user_pages_fast(reg->obj.start + (done << PAGE_SHIFT),
					  n, gup, pages + done);
		if (ret <= 0) {
			ret = ret ? ret : -EFAULT;
			goto err_unpin;
		}
		done += ret;
		cond_resched();
	}
	return 0;

err_unpin:
	unpin_user_pages(pages, done);
	return ret;
}

/*
 * Pin the pages and DMA-map them, then publish both in reg->hp, unless an
 * invalidation ran meanwhile: then undo and start over (after an unmap:
 * -EFAULT). Everything that allocates happens before the registration's
 * lock is taken (the notifier takes it from reclaim); the notifier only
 * ever unpins published pages (reg->hp.pages set), so it never frees what
 * this is filling.
 */
static int uvm_hostreg_pin(struct uvm_hostreg *reg)
{
	enum dma_data_direction dir = DMA_BIDIRECTIONAL;
	struct uvm_host_pages *hp = &reg->hp;
	struct page **pages;
	unsigned long seq;
	bool retry;
	int ret;

	if (reg->obj.flags & UVM_HOST_REGISTER_READONLY)
		dir = DMA_TO_DEVICE;
	pages = kvcalloc(hp->npages, sizeof(*pages),
			 GFP_KERNEL_ACCOUNT | __GFP_NOWARN);
	if (!pages)
		return -ENOMEM;
	for (;;) {
		seq = mmu_interval_read_begin(&reg->notifier);
		ret = uvm_hostreg_pin_pages(reg, pages);
		if (ret)
			break;
		ret = uvm_host_pages_dma_map_unlisted(hp, pages, dir);
		if (ret) {
			unpin_user_pages(pages, hp->npages);
			break;
		}
		down_write(&reg->lock);
		spin_lock(&reg->seq_lock);
		retry = mmu_interval_read_retry(&reg->notifier, seq);
		spin_unlock(&reg->seq_lock);
		if (!reg->dead && !retry) {
			hp->pages = pages;
			uvm_host_pages_list(hp);
			atomic_long_add(hp->npages, &uvm_acct.pinned_pages);
			up_write(&reg->lock);
			return 0;
		}
		ret = reg->dead ? -EFAULT : 0;
		up_write(&reg->lock);
		uvm_host_pages_dma_unmap(hp);
		unpin_user_pages(pages, hp->npages);
		if (ret)
			break;
	}
	kvfree(pages);
	return ret;
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
	if (args->size >> PAGE_SHIFT > totalram_pages())
		return -ENOMEM;		/* more than could ever be pinned */

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

/*
 * Link @reg into the table, then publish it to the notifier (which from
 * then on queues it for the reaper when an unmap kills it). An unmap that
 * came first: unlink and drop the table's reference (a lookup may hold one
 * meanwhile, so never free it directly).
 */
static int uvm_hostreg_link(struct uvm_alloc_space *as,
			    struct uvm_hostreg *reg)
{
	bool dead;
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

	down_write(&reg->lock);
	dead = reg->dead;
	reg->published = !dead;
	up_write(&reg->lock);
	if (!dead)
		return 0;
	mutex_lock(&as->lock);
	if (reg->obj.linked)
		uvm_obj_unlink_locked(as, &reg->obj);
	mutex_unlock(&as->lock);
	uvm_obj_put(&reg->obj);
	return -EFAULT;
}

static struct uvm_hostreg *uvm_hostreg_new(struct uvm_va_space *va_space,
					   const struct uvm_host_register *args)
{
	struct uvm_hostreg *reg = kzalloc(sizeof(*reg), GFP_KERNEL_ACCOUNT);

	if (!reg)
		return NULL;
	kref_init(&reg->obj.ref);
	init_rwsem(&reg->lock);
	spin_lock_init(&reg->seq_lock);
	reg->obj.kind = UVM_OBJ_HOSTREG;
	reg->obj.flags = args->flags;
	reg->obj.start = args->addr;
	reg->obj.size = args->size;
	reg->hp.npages = args->size >> PAGE_SHIFT;
	reg->as = &va_space->allocs;
	reg->mm = va_space->mgd.mm;
	INIT_LIST_HEAD(&reg->dead_link);
	return reg;
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

	reg = uvm_hostreg_new(va_space, args);
	if (!reg)
		return -ENOMEM;
	ret = uvm_hostreg_charge(reg);
	if (ret)
		goto err_free_reg;
	ret = mmu_interval_notifier_insert(&reg->notifier, current->mm,
					   args->addr, args->size,
					   &uvm_hostreg_notifier_ops);
	if (ret)
		goto err_uncharge;
	ret = uvm_hostreg_pin(reg);
	if (ret)
		goto err_remove_notifier;
	ret = uvm_hostreg_link(&va_space->allocs, reg);
	if (ret)
		return ret;	/* it dropped the last reference */
	args->dev_addr = args->addr;
	return 0;

err_remove_notifier:
	uvm_hostreg_release(reg);	/* unpins, uncharges the pages */
	return ret;
err_uncharge:
	uvm_hostreg_uncharge(reg);
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
