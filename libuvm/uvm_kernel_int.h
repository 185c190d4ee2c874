/* SPDX-License-Identifier: MIT */
/*
 * uvm_kernel_int.h - device kernels inside libuvm: the one launch path
 * (uvm_kernel.c), a step's accesses (uvm_kernel_access.c) and the kernels
 * by name (uvm_kernel_registry.c, cuda_launch.c). Never installed.
 */
#ifndef UVM_KERNEL_INT_H
#define UVM_KERNEL_INT_H

#include "uvm_internal.h"
#include "uvm_kernel.h"

/*
 * Queue kernel @k (checked here: cudaErrorInvalidValue) for @device (-1:
 * the stream's) on the referenced stream @s. The launch path of
 * uvmLaunchKernel, uvmLaunchPattern and the CUDA launches alike.
 */
cudaError_t uvm_kernel_queue(const struct uvm_kernel *k, int device, struct CUstream_st *s);

/* Is @k well formed (emit set, flags and reserved words zero)? */
bool uvm_kernel_valid(const struct uvm_kernel *k);

/* ---- a step's accesses (uvm_kernel_access.c) */

#define UVM_KA_RANGES	8

/* Where recent accesses went: ranges of managed/pageable or copied memory. */
struct uvm_ka_cache {
	struct {
		uintptr_t lo, hi;
		bool copy;
	} r[UVM_KA_RANGES];
	unsigned int next;
};

/*
 * Perform the @n accesses of one step on @device: managed and pageable
 * memory through the device's page table (UVM_IOCTL_DEVICE_ACCESS), device,
 * pinned and registered memory with the module's copies. @c remembers
 * what each range is (zeroed before a kernel's first step). 0 or -errno;
 * -EADDRNOTAVAIL where the module refuses an address.
 */
int uvm_kernel_access(struct uvm_ka_cache *c, unsigned int device,
		      struct uvm_device_access_op *ops, unsigned int n, unsigned int *faults);

/* ---- kernels by name (uvm_kernel_registry.c) */

/*
 * The implementation registered under @name (UVM_KERNELS loaded first,
 * once), or NULL.
 */
uvm_kernel_impl_fn uvm_kernel_impl_find(const char *name);

/* true the first time it is asked about @name (the missing kernel's line). */
bool uvm_kernel_warn_once(const char *name);

/* ---- registered kernels (cuda_launch.c; their attributes: cuda_func.c) */

/* What a registered kernel keeps besides its names. */
struct uvm_func_attrs {
	int max_dyn_smem;	/* cudaFuncAttributeMaxDynamicSharedMemorySize */
	int carveout;		/* cudaFuncAttributePreferredSharedMemoryCarveout */
	int cache;		/* enum cudaFuncCache */
};

/*
 * The attributes of the kernel @func (its host stub, or its cudaKernel_t):
 * 0 or -ENOENT (not registered).
 */
int uvm_func_attrs_get(const void *func, struct uvm_func_attrs *a);
/* The status of @func when it names no kernel (cuda_launch.c). */
cudaError_t uvm_func_unknown(const void *func);
int uvm_func_attrs_set(const void *func, const struct uvm_func_attrs *a);

#endif /* UVM_KERNEL_INT_H */
