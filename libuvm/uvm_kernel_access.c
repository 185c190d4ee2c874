// SPDX-License-Identifier: MIT
/*
 * uvm_kernel_access.c - a kernel step's accesses, by the kind of memory
 * they reach (docs/kernels.md, "What a kernel can access").
 *
 * Managed memory, pageable memory and anything unknown go to the module in
 * one UVM_IOCTL_DEVICE_ACCESS (faults, migrations and events happen there;
 * the module refuses what is neither managed nor reachable pageable
 * memory). Two kinds never fault on a GPU and are served here:
 *
 * - device memory (cudaMalloc): the device reads or writes its own memory
 *   (or a peer's); the module copies between it and the access's buffer
 *   (uvm_memcpy), as a load or store from the device's memory would;
 * - pinned host memory (cudaMallocHost, cudaHostAlloc, cudaHostRegister):
 *   zero-copy, the device reaches host memory over the bus; the CPU copies.
 *
 * An 8-byte atomic add on those is a read, an add and a write, atomic
 * with respect to the other accesses of the same kernel only.
 */
#include <errno.h>
#include <string.h>

#include "cuda_managed.h"
#include "cuda_memory.h"
#include "uvm_kernel_access.h"

/* The last range a worker classified: most accesses of a step hit it. */
static __thread struct uvm_cptr last;

static bool served_here(uint32_t type)
{
	return type == UVM_POINTER_DEVICE || type == UVM_POINTER_HOST_ALLOC ||
	       type == UVM_POINTER_HOST_REGISTERED;
}

/* The kind of memory [addr, addr + len) lies in, or UNREGISTERED. */
static uint32_t classify(uint64_t addr, uint64_t len)
{
	struct uvm_alloc a;

	if (!uvm_cm_lookup((const void *)(uintptr_t)addr, &a))
		return UVM_POINTER_MANAGED;
	if (last.size && addr >= last.base && addr - last.base <= last.size &&
	    len <= last.size - (addr - last.base))
		return last.type;
	if (uvm_cuda_ptr((const void *)(uintptr_t)addr, &last) || !served_here(last.type) ||
	    addr - last.base > last.size || len > last.size - (addr - last.base)) {
		last.size = 0;
		return UVM_POINTER_UNREGISTERED;
	}
	return last.type;
}

static int copy(uint64_t dst, uint64_t src, uint64_t len, bool device)
{
	struct uvm_copy_desc d = {
		.dst = dst, .src = src, .width = len, .height = 1, .depth = 1,
	};

	if (!device) {
		memcpy((void *)(uintptr_t)dst, (const void *)(uintptr_t)src, len);
		return 0;
	}
	return uvm_memcpy(uvm_cuda_context(), &d);
}

/* One access to device or pinned memory. 0 or -errno. */
static int access_direct(const struct uvm_device_access_op *a, bool device)
{
	uint64_t old, sum;
	int ret;

	switch (a->type) {
	case UVM_DEVICE_ACCESS_READ:
		return copy(a->buf, a->addr, a->length, device);
	case UVM_DEVICE_ACCESS_WRITE:
		return copy(a->addr, a->buf, a->length, device);
	default:	/* ATOMIC_ADD: checked to be 8 aligned bytes */
		ret = copy((uintptr_t)&old, a->addr, 8, device);
		if (ret)
			return ret;
		memcpy(&sum, (const void *)(uintptr_t)a->buf, 8);
		sum += old;
		ret = copy(a->addr, (uintptr_t)&sum, 8, device);
		if (!ret)
			memcpy((void *)(uintptr_t)a->buf, &old, 8);
		return ret;
	}
}

int uvm_kernel_access(unsigned int device, struct uvm_device_access_op *ops,
		      unsigned int n, unsigned int *faults)
{
	unsigned int i, kept = 0;
	uint32_t type;
	int ret;

	*faults = 0;
	for (i = 0; i < n; i++) {
		type = classify(ops[i].addr, ops[i].length);
		if (!served_here(type)) {
			ops[kept++] = ops[i];	/* the module's, in order */
			continue;
		}
		ret = access_direct(&ops[i], type == UVM_POINTER_DEVICE);
		if (ret) {
			last.size = 0;	/* freed since it was classified? */
			return ret;
		}
	}
	if (!kept)
		return 0;
	return uvm_device_access(uvm_cuda_context(), device, ops, kept, faults);
}
