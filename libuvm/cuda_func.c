// SPDX-License-Identifier: MIT
/*
 * cuda_func.c - a registered kernel's attributes and occupancy:
 * cudaFuncGetAttributes, cudaFuncSetAttribute, cudaFuncSetCacheConfig,
 * cudaOccupancy* (docs/kernels.md, "Kernels by name").
 *
 * No device code exists, so what a compiled kernel would report is fixed:
 * no static shared, constant or local memory, no registers counted (0),
 * PTX and binary version 90. The limits are the device's (cuda_device.c);
 * what a program sets (dynamic shared memory, carveout, cache preference)
 * is kept per kernel and checked at launch (the dynamic shared memory).
 */
#include <errno.h>

#include "cuda_memory.h"
#include "uvm_kernel_int.h"

/* Initialised runtime and a registered @func: 0, else its CUDA code. */
/* The status of a lookup of @func: none, not a kernel, no implementation. */
static cudaError_t func_status(const void *func, int ret)
{
	if (ret == -ENOENT)
		return uvm_func_unknown(func);
	return ret ? cudaErrorNoKernelImageForDevice : cudaSuccess;
}

static cudaError_t func_attrs(const void *func, struct uvm_func_attrs *a)
{
	cudaError_t e = uvm_cuda_init();

	if (e)
		return e;
	return func_status(func, uvm_func_attrs_get(func, a));
}

static void current_props(struct cudaDeviceProp *p)
{
	uvm_cuda_props(uvm_cuda_current_device(), p);
}

static cudaError_t get_attributes(struct cudaFuncAttributes *attr, const void *func)
{
	struct cudaDeviceProp p;
	struct uvm_func_attrs a;
	cudaError_t e = uvm_cuda_init();

	if (e)
		return e;
	if (!attr)
		return cudaErrorInvalidValue;
	e = func_attrs(func, &a);
	if (e)
		return e;
	current_props(&p);
	memset(attr, 0, sizeof(*attr));
	attr->maxThreadsPerBlock = p.maxThreadsPerBlock;
	attr->ptxVersion = p.major * 10 + p.minor;
	attr->binaryVersion = attr->ptxVersion;
	attr->maxDynamicSharedSizeBytes = a.max_dyn_smem;
	attr->preferredShmemCarveout = a.carveout;
	return cudaSuccess;
}

uvm_public cudaError_t cudaFuncGetAttributes(struct cudaFuncAttributes *attr, const void *func)
{
	return uvm_cuda_set_error(get_attributes(attr, func));
}

static cudaError_t set_attribute(const void *func, enum cudaFuncAttribute attr, int value)
{
	struct cudaDeviceProp p;
	struct uvm_func_attrs a;
	cudaError_t e = func_attrs(func, &a);

	if (e)
		return e;
	current_props(&p);
	switch ((int)attr) {
	case cudaFuncAttributeMaxDynamicSharedMemorySize:
		if (value < 0 || (size_t)value > p.sharedMemPerBlockOptin)
			return cudaErrorInvalidValue;
		a.max_dyn_smem = value;
		break;
	case cudaFuncAttributePreferredSharedMemoryCarveout:
		if (value < cudaSharedmemCarveoutDefault || value > cudaSharedmemCarveoutMaxShared)
			return cudaErrorInvalidValue;
		a.carveout = value;
		break;
	case cudaFuncAttributeClusterDimMustBeSet ...
	     cudaFuncAttributeClusterSchedulingPolicyPreference:
		return cudaErrorNotSupported;	/* no cluster launch (attribute 120: 0) */
	default:
		return cudaErrorInvalidValue;
	}
	return func_status(func, uvm_func_attrs_set(func, &a));
}

uvm_public cudaError_t cudaFuncSetAttribute(const void *func, enum cudaFuncAttribute attr,
					    int value)
{
	return uvm_cuda_set_error(set_attribute(func, attr, value));
}

static cudaError_t set_cache_config(const void *func, enum cudaFuncCache cacheConfig)
{
	struct uvm_func_attrs a;
	cudaError_t e = func_attrs(func, &a);

	if (e)
		return e;
	if ((int)cacheConfig < cudaFuncCachePreferNone || cacheConfig > cudaFuncCachePreferEqual)
		return cudaErrorInvalidValue;
	a.cache = cacheConfig;
	return func_status(func, uvm_func_attrs_set(func, &a));
}

uvm_public cudaError_t cudaFuncSetCacheConfig(const void *func, enum cudaFuncCache cacheConfig)
{
	return uvm_cuda_set_error(set_cache_config(func, cacheConfig));
}

/* Blocks of @block_size threads and @smem bytes of shared memory per SM. */
static int blocks_per_sm(const struct cudaDeviceProp *p, int block_size, size_t smem)
{
	int warps = (block_size + p->warpSize - 1) / p->warpSize;
	int n = p->maxThreadsPerMultiProcessor / p->warpSize / warps;
	size_t per_block = smem + p->reservedSharedMemPerBlock;

	if (n > p->maxBlocksPerMultiProcessor)
		n = p->maxBlocksPerMultiProcessor;
	if ((size_t)n > p->sharedMemPerMultiprocessor / per_block)
		n = (int)(p->sharedMemPerMultiprocessor / per_block);
	return n;
}

static cudaError_t max_active_blocks(int *numBlocks, const void *func, int blockSize,
				     size_t dynamicSMemSize, unsigned int flags)
{
	struct cudaDeviceProp p;
	struct uvm_func_attrs a;
	cudaError_t e = uvm_cuda_init();

	if (e)
		return e;
	if (!numBlocks || blockSize <= 0 || (flags & ~cudaOccupancyDisableCachingOverride))
		return cudaErrorInvalidValue;
	e = func_attrs(func, &a);
	if (e)
		return e;
	current_props(&p);
	if (blockSize > p.maxThreadsPerBlock || dynamicSMemSize > (size_t)a.max_dyn_smem)
		*numBlocks = 0;
	else
		*numBlocks = blocks_per_sm(&p, blockSize, dynamicSMemSize);
	return cudaSuccess;
}

uvm_public cudaError_t cudaOccupancyMaxActiveBlocksPerMultiprocessor(int *numBlocks,
								     const void *func,
								     int blockSize,
								     size_t dynamicSMemSize)
{
	return uvm_cuda_set_error(max_active_blocks(numBlocks, func, blockSize,
						    dynamicSMemSize, cudaOccupancyDefault));
}

uvm_public cudaError_t
cudaOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(int *numBlocks, const void *func,
						       int blockSize, size_t dynamicSMemSize,
						       unsigned int flags)
{
	return uvm_cuda_set_error(max_active_blocks(numBlocks, func, blockSize,
						    dynamicSMemSize, flags));
}

static cudaError_t available_smem(size_t *dynamicSmemSize, const void *func, int numBlocks,
				  int blockSize)
{
	struct cudaDeviceProp p;
	struct uvm_func_attrs a;
	size_t per;
	cudaError_t e = uvm_cuda_init();

	if (e)
		return e;
	if (!dynamicSmemSize || numBlocks <= 0 || blockSize <= 0)
		return cudaErrorInvalidValue;
	e = func_attrs(func, &a);
	if (e)
		return e;
	current_props(&p);
	*dynamicSmemSize = 0;
	if (blockSize > p.maxThreadsPerBlock || blocks_per_sm(&p, blockSize, 0) < numBlocks)
		return cudaSuccess;
	per = p.sharedMemPerMultiprocessor / (size_t)numBlocks - p.reservedSharedMemPerBlock;
	/* CUDA 13 caps it at the kernel's own maximum (answers-h100.txt) */
	*dynamicSmemSize = per < (size_t)a.max_dyn_smem ? per : (size_t)a.max_dyn_smem;
	return cudaSuccess;
}

uvm_public cudaError_t cudaOccupancyAvailableDynamicSMemPerBlock(size_t *dynamicSmemSize,
								 const void *func,
								 int numBlocks, int blockSize)
{
	return uvm_cuda_set_error(available_smem(dynamicSmemSize, func, numBlocks, blockSize));
}
