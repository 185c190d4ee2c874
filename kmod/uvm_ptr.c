// SPDX-License-Identifier: GPL-2.0
/*
 * uvm_ptr.c - pointer classification (cudaPointerGetAttributes,
 * cuPointerGetAttribute(s), cudaHostGetFlags, cudaHostGetDevicePointer).
 */

#include <linux/mm.h>
#include <uapi/uvm.h>

#include "uvm_alloc.h"
#include "uvm_device.h"
#include "uvm_managed.h"
#include "uvm_ptr.h"
#include "uvm_va_space.h"

/**
 * DOC: Pointer queries
 *
 * UVM_IOCTL_PTR_INFO answers from the kernel's own tables, for any address
 * (interior pointers report the containing allocation): the address table
 * first (device allocation, pinned host allocation, registration), then the
 * VMA under mmap_lock: a managed VMA of /dev/uvm (vm_ops == uvm_vm_ops)
 * is MANAGED with the VMA as base and size; anything else, mapped or not,
 * is UNREGISTERED. Host memory's device address is its host address, on
 * every device (CanUseHostPointerForRegisteredMem = 1, also for
 * WRITECOMBINED: CUDA allows the alias to differ there, it does not
 * require it). The device a host allocation was made "against" is the
 * library's business (-1 here).
 */

static void uvm_ptr_fill_obj(struct uvm_ptr_info *args, struct uvm_obj *obj)
{
	struct uvm_alloc *alloc;

	args->base = obj->start;
	args->size = obj->size;
	args->alloc_flags = obj->flags;
	args->dev_addr = args->addr;
	if (obj->kind == UVM_OBJ_HOSTREG) {
		args->type = UVM_PTR_HOST_REGISTERED;
		args->host_addr = args->addr;
		return;
	}
	alloc = to_uvm_alloc(obj);
	args->handle = alloc->handle;
	args->buffer_id = alloc->buffer_id;
	if (obj->kind == UVM_OBJ_DEVICE) {
		args->type = UVM_PTR_DEVICE;
		args->device = alloc->mem->udev->id;
	} else {
		args->type = UVM_PTR_HOST_ALLOC;
		args->host_addr = args->addr;
	}
}

static void uvm_ptr_fill_vma(struct uvm_ptr_info *args)
{
	struct mm_struct *mm = current->mm;
	struct vm_area_struct *vma;

	mmap_read_lock(mm);
	vma = vma_lookup(mm, args->addr);
	if (vma && vma->vm_ops == &uvm_vm_ops) {
		args->type = UVM_PTR_MANAGED;
		args->base = vma->vm_start;
		args->size = vma->vm_end - vma->vm_start;
		args->dev_addr = args->addr;
		args->host_addr = args->addr;
	}
	mmap_read_unlock(mm);
}

int uvm_ptr_info_ioctl(struct uvm_va_space *va_space, void *data)
{
	struct uvm_ptr_info *args = data;
	struct uvm_obj *obj;
	u64 addr = args->addr;

	if (args->flags)
		return -EINVAL;
	if (current->mm != va_space->mgd.mm)
		return -EPERM;

	memset(args, 0, sizeof(*args));
	args->addr = addr;
	args->device = -1;
	args->type = UVM_PTR_UNREGISTERED;
	if (addr >= TASK_SIZE)
		return 0;
	obj = uvm_obj_lookup(&va_space->allocs, addr);
	if (obj) {
		uvm_ptr_fill_obj(args, obj);
		uvm_obj_put(obj);
		return 0;
	}
	uvm_ptr_fill_vma(args);
	return 0;
}
