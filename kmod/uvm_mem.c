// SPDX-License-Identifier: GPL-2.0
/*
 * uvm_mem.c - device memory allocator.
 */

#include <linux/list.h>
#include <linux/minmax.h>
#include <linux/sched/signal.h>
#include <linux/sizes.h>
#include <linux/slab.h>

#include <drm/drm_drv.h>
#include <drm/drm_managed.h>

#include "uvm_device.h"
#include "uvm_drv.h"
#include "uvm_mem.h"

/**
 * DOC: Device memory allocator
 *
 * Each device's memory is managed by a buddy allocator (drm_buddy, or
 * gpu_buddy where the kernel has it; see uvm_compat.h) with a chunk size of
 * PAGE_SIZE, so any allocation is a list of naturally aligned power-of-two
 * blocks. Managed memory will allocate 2 MiB blocks (min_block = SZ_2M) so
 * a residency block is always one contiguous, huge-page-aligned range.
 *
 * Every allocation is zeroed through the backend before it is returned:
 * device memory never shows a previous owner's data. Zeroing at allocation
 * rather than at free also covers memory written behind the allocator's back
 * and keeps free() safe on an unplugged device.
 *
 * An allocation holds a reference on its device; the allocator is torn down
 * by DRM-managed release, i.e. only when no allocation is left.
 */

static void uvm_mem_pool_fini(struct drm_device *drm, void *arg)
{
	struct uvm_device *udev = to_uvm_device(drm);

	uvm_buddy_fini(&udev->pool.mm);
	mutex_destroy(&udev->pool.lock);
}

/**
 * uvm_mem_pool_init - set up a device's allocator.
 * @udev: device being probed.
 * @size: bytes of device memory; rounded down to PAGE_SIZE.
 */
int uvm_mem_pool_init(struct uvm_device *udev, u64 size)
{
	struct uvm_mem_pool *pool = &udev->pool;
	int ret;

	size = round_down(size, PAGE_SIZE);
	if (!size)
		return -EINVAL;
	mutex_init(&pool->lock);
	ret = uvm_buddy_init(&pool->mm, size, PAGE_SIZE);
	if (ret) {
		mutex_destroy(&pool->lock);
		return ret;
	}
	pool->size = size;
	return drmm_add_action_or_reset(&udev->drm, uvm_mem_pool_fini, NULL);
}

/* Zeroing step between fatal-signal checks: a large allocation is killable. */
#define UVM_MEM_ZERO_STEP	SZ_2M

static int uvm_mem_zero_block(struct uvm_device *udev, u64 off, u64 size)
{
	u64 n;
	int ret;

	for (; size; size -= n, off += n) {
		if (fatal_signal_pending(current))
			return -EINTR;
		n = min_t(u64, size, UVM_MEM_ZERO_STEP);
		ret = udev->ops->fill(udev, off, n, 0);
		if (ret)
			return ret;
	}
	return 0;
}

static int uvm_mem_zero(struct uvm_mem *mem)
{
	struct uvm_device *udev = mem->udev;
	struct uvm_buddy_block *block;
	int ret = 0, idx;

	if (!drm_dev_enter(&udev->drm, &idx))
		return -ENODEV;
	list_for_each_entry(block, &mem->blocks, link) {
		ret = uvm_mem_zero_block(udev, uvm_buddy_block_offset(block),
					 uvm_buddy_block_size(&udev->pool.mm,
							      block));
		if (ret)
			break;
	}
	drm_dev_exit(idx);
	return ret;
}

static void uvm_mem_release_blocks(struct uvm_mem *mem)
{
	struct uvm_mem_pool *pool = &mem->udev->pool;

	mutex_lock(&pool->lock);
	uvm_buddy_free_list(&pool->mm, &mem->blocks);
	mutex_unlock(&pool->lock);
	atomic64_sub(mem->size, &uvm_acct.devmem_bytes);
}

static int uvm_mem_alloc_blocks(struct uvm_mem *mem, u64 min_block)
{
	struct uvm_mem_pool *pool = &mem->udev->pool;
	struct uvm_buddy_block *first;
	int ret;

	if (mem->size > pool->size)
		return -ENOSPC;
	mutex_lock(&pool->lock);
	ret = uvm_buddy_alloc_blocks(&pool->mm, mem->size, min_block,
				     mem->flags & UVM_MEM_CONTIGUOUS,
				     &mem->blocks);
	mutex_unlock(&pool->lock);
	if (ret)
		return ret;

	atomic64_add(mem->size, &uvm_acct.devmem_bytes);
	first = list_first_entry(&mem->blocks, struct uvm_buddy_block, link);
	mem->offset = uvm_buddy_block_offset(first);
	return 0;
}

/**
 * uvm_mem_alloc - allocate zeroed device memory (unless UVM_MEM_UNCLEARED).
 * @udev: device (a reference held by the caller).
 * @size: bytes; rounded up to PAGE_SIZE.
 * @min_block: smallest block (power of two >= PAGE_SIZE; 0 for PAGE_SIZE).
 * @flags: UVM_MEM_* flags.
 *
 * Returns the allocation or ERR_PTR: -EINVAL bad size or flags, -ENOSPC out
 * of device memory, -ENOMEM out of host memory, -ENODEV device unplugged,
 * -EINTR fatal signal while zeroing (nothing allocated).
 */
struct uvm_mem *uvm_mem_alloc(struct uvm_device *udev, u64 size,
			      u64 min_block, u32 flags)
{
	struct uvm_mem *mem;
	int ret;

	if (!size || size > U64_MAX - PAGE_SIZE ||
	    flags & ~(UVM_MEM_CONTIGUOUS | UVM_MEM_UNCLEARED))
		return ERR_PTR(-EINVAL);
	min_block = max_t(u64, min_block, PAGE_SIZE);
	if (!is_power_of_2(min_block))
		return ERR_PTR(-EINVAL);

	mem = kzalloc(sizeof(*mem), GFP_KERNEL_ACCOUNT);
	if (!mem)
		return ERR_PTR(-ENOMEM);
	INIT_LIST_HEAD(&mem->blocks);
	mem->udev = udev;
	mem->size = round_up(size, min_block);
	mem->flags = flags;

	ret = uvm_mem_alloc_blocks(mem, min_block);
	if (ret)
		goto err_free_mem;
	ret = flags & UVM_MEM_UNCLEARED ? 0 : uvm_mem_zero(mem);
	if (ret)
		goto err_release_blocks;

	uvm_device_get_ref(udev);
	return mem;

err_release_blocks:
	uvm_mem_release_blocks(mem);
err_free_mem:
	kfree(mem);
	return ERR_PTR(ret);
}

/**
 * uvm_mem_free - give device memory back.
 * @mem: allocation from uvm_mem_alloc().
 *
 * Works on an unplugged device; drops the allocation's device reference,
 * which may free the device.
 */
void uvm_mem_free(struct uvm_mem *mem)
{
	struct uvm_device *udev = mem->udev;

	uvm_mem_release_blocks(mem);
	kfree(mem);
	uvm_device_put(udev);
}

/* Bytes not allocated on @udev right now (unlocked snapshot). */
u64 uvm_mem_free_bytes(struct uvm_device *udev)
{
	return READ_ONCE(udev->pool.mm.avail);
}
