// SPDX-License-Identifier: GPL-2.0
/*
 * uvm_test.c - UVM_IOCTL_TEST_DEVMEM: raw device memory access for tests.
 */

#include <linux/kref.h>
#include <linux/moduleparam.h>
#include <linux/overflow.h>
#include <linux/sched/signal.h>
#include <linux/sizes.h>
#include <linux/slab.h>
#include <linux/uaccess.h>
#include <uapi/uvm.h>

#include "uvm_device.h"
#include "uvm_drv.h"
#include "uvm_mem.h"
#include "uvm_test.h"
#include "uvm_va_space.h"

/**
 * DOC: Test ioctls
 *
 * Only dispatched when the module is loaded with enable_test_ioctls=1
 * (else -ENOTTY). UVM_IOCTL_TEST_DEVMEM allocates physically contiguous,
 * zeroed device memory (so @dev_offset describes the whole allocation),
 * and reads or writes it through the backend's copy ops in bounce-buffered
 * steps, proving allocator and backend byte-exact. Allocations belong to
 * the VA space and are freed when its file is released.
 *
 * Errors: -EINVAL for non-zero @flags/@pad, an unknown @op, a non-zero @buf
 * for ALLOC/FREE, a zero or unrepresentable size, or an @offset/@size range
 * that overflows or leaves the allocation; -ENODEV for a device id that is
 * not a present device (or a device unplugged since); -ENOSPC when the
 * device memory is exhausted; -ENOENT for an unknown handle, a handle of
 * another device, or a second FREE.
 */

unsigned int uvm_test_move_delay_us;
static struct uvm_param_range move_delay_range = {
	.val = &uvm_test_move_delay_us, .min = 0, .max = 100000,
};
module_param_cb(test_move_delay_us, &uvm_param_range_ops, &move_delay_range,
		0644);
MODULE_PARM_DESC(test_move_delay_us,
		 "Tests only: sleep this long (0..100000 us) inside each move to a device, between its copy and its end (default 0)");

/* Bounce buffer size for READ/WRITE. */
#define UVM_TEST_BOUNCE_SIZE	SZ_256K

/**
 * struct uvm_test_alloc - one test allocation.
 * @ref: held by the VA space's xarray and by each READ/WRITE in flight.
 * @mem: the device memory; holds the device reference.
 * @size: bytes requested; READ/WRITE stay below it.
 */
struct uvm_test_alloc {
	struct kref ref;
	struct uvm_mem *mem;
	u64 size;
};

static void uvm_test_alloc_release(struct kref *ref)
{
	struct uvm_test_alloc *alloc = container_of(ref, typeof(*alloc), ref);

	uvm_mem_free(alloc->mem);
	kfree(alloc);
}

static void uvm_test_alloc_put(struct uvm_test_alloc *alloc)
{
	kref_put(&alloc->ref, uvm_test_alloc_release);
}

static int uvm_test_devmem_alloc(struct uvm_va_space *va_space,
				 struct uvm_test_devmem *args)
{
	struct uvm_test_alloc *alloc;
	struct uvm_device *udev;
	struct uvm_mem *mem;
	u32 handle;
	int ret;

	udev = uvm_device_get(args->device);
	if (!udev)
		return -ENODEV;
	mem = uvm_mem_alloc(udev, args->size, 0, UVM_MEM_CONTIGUOUS);
	uvm_device_put(udev);
	if (IS_ERR(mem))
		return PTR_ERR(mem);

	alloc = kzalloc(sizeof(*alloc), GFP_KERNEL);
	if (!alloc) {
		ret = -ENOMEM;
		goto err_free_mem;
	}
	kref_init(&alloc->ref);
	alloc->mem = mem;
	alloc->size = args->size;

	down_write(&va_space->lock);
	ret = xa_alloc(&va_space->test_allocs, &handle, alloc, xa_limit_32b,
		       GFP_KERNEL);
	up_write(&va_space->lock);
	if (ret)
		goto err_free_alloc;

	args->handle = handle;
	args->dev_offset = mem->offset;
	return 0;

err_free_alloc:
	kfree(alloc);
err_free_mem:
	uvm_mem_free(mem);
	return ret;
}

/* Looks @handle up on @device and takes a reference; NULL if none. */
static struct uvm_test_alloc *uvm_test_alloc_get(struct uvm_va_space *va_space,
						 u64 handle, u32 device)
{
	struct uvm_test_alloc *alloc = NULL;

	if (handle > U32_MAX)
		return NULL;
	down_read(&va_space->lock);
	alloc = xa_load(&va_space->test_allocs, handle);
	if (alloc && alloc->mem->udev->id == device)
		kref_get(&alloc->ref);
	else
		alloc = NULL;
	up_read(&va_space->lock);
	return alloc;
}

static int uvm_test_devmem_free(struct uvm_va_space *va_space,
				struct uvm_test_devmem *args)
{
	struct uvm_test_alloc *alloc;

	if (args->handle > U32_MAX)
		return -ENOENT;
	down_write(&va_space->lock);
	alloc = xa_load(&va_space->test_allocs, args->handle);
	if (alloc && alloc->mem->udev->id == args->device)
		xa_erase(&va_space->test_allocs, args->handle);
	else
		alloc = NULL;
	up_write(&va_space->lock);
	if (!alloc)
		return -ENOENT;
	uvm_test_alloc_put(alloc);
	return 0;
}

/* One bounce-buffer step of READ/WRITE, inside drm_dev_enter(). */
static int uvm_test_devmem_step(struct uvm_test_alloc *alloc, u32 op,
				void *bounce, u64 offset, u64 n)
{
	struct uvm_device *udev = alloc->mem->udev;
	struct uvm_copy_seg seg = {
		.dev_offset = alloc->mem->offset + offset,
		.host = bounce,
		.size = n,
	};
	int ret, idx;

	if (!drm_dev_enter(&udev->drm, &idx))
		return -ENODEV;
	if (op == UVM_TEST_DEVMEM_WRITE)
		ret = udev->ops->copy_to(udev, &seg, 1);
	else
		ret = udev->ops->copy_from(udev, &seg, 1);
	drm_dev_exit(idx);
	return ret;
}

static int uvm_test_devmem_do_rw(struct uvm_test_alloc *alloc,
				 struct uvm_test_devmem *args, void *bounce)
{
	char __user *ubuf = u64_to_user_ptr(args->buf);
	u64 done, n;
	int ret;

	for (done = 0; done < args->size; done += n) {
		n = min_t(u64, args->size - done, UVM_TEST_BOUNCE_SIZE);
		if (fatal_signal_pending(current))
			return -EINTR;
		if (args->op == UVM_TEST_DEVMEM_WRITE &&
		    copy_from_user(bounce, ubuf + done, n))
			return -EFAULT;
		ret = uvm_test_devmem_step(alloc, args->op, bounce,
					   args->offset + done, n);
		if (ret)
			return ret;
		if (args->op == UVM_TEST_DEVMEM_READ &&
		    copy_to_user(ubuf + done, bounce, n))
			return -EFAULT;
	}
	return 0;
}

static int uvm_test_devmem_rw(struct uvm_va_space *va_space,
			      struct uvm_test_devmem *args)
{
	struct uvm_test_alloc *alloc;
	void *bounce;
	u64 end;
	int ret;

	if (!args->size || check_add_overflow(args->offset, args->size, &end))
		return -EINVAL;
	alloc = uvm_test_alloc_get(va_space, args->handle, args->device);
	if (!alloc)
		return -ENOENT;
	ret = -EINVAL;
	if (end > alloc->size)
		goto out_put;
	ret = -ENOMEM;
	bounce = kvmalloc(min_t(u64, args->size, UVM_TEST_BOUNCE_SIZE),
			  GFP_KERNEL | __GFP_NOWARN);
	if (!bounce)
		goto out_put;
	ret = uvm_test_devmem_do_rw(alloc, args, bounce);
	kvfree(bounce);
out_put:
	uvm_test_alloc_put(alloc);
	return ret;
}

int uvm_test_devmem_ioctl(struct uvm_va_space *va_space, void *data)
{
	struct uvm_test_devmem *args = data;

	if (args->flags || args->pad)
		return -EINVAL;

	switch (args->op) {
	case UVM_TEST_DEVMEM_ALLOC:
		if (args->buf)
			return -EINVAL;
		return uvm_test_devmem_alloc(va_space, args);
	case UVM_TEST_DEVMEM_FREE:
		if (args->buf)
			return -EINVAL;
		return uvm_test_devmem_free(va_space, args);
	case UVM_TEST_DEVMEM_WRITE:
	case UVM_TEST_DEVMEM_READ:
		return uvm_test_devmem_rw(va_space, args);
	default:
		return -EINVAL;
	}
}

void uvm_test_va_space_fini(struct uvm_va_space *va_space)
{
	struct uvm_test_alloc *alloc;
	unsigned long handle;

	xa_for_each(&va_space->test_allocs, handle, alloc) {
		xa_erase(&va_space->test_allocs, handle);
		uvm_test_alloc_put(alloc);
	}
}
