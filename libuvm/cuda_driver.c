// SPDX-License-Identifier: MIT
/*
 * cuda_driver.c - the driver-API (cu*) memory calls: managed memory,
 * unified addressing, device and pinned memory, copies and sets.
 *
 * They share the runtime's implementations (cuda_managed.c, cuda_memory.c,
 * cuda_copy.c) and its single VA space. Every one answers
 * CUDA_ERROR_NOT_INITIALIZED until the driver API is initialised (cuInit,
 * or the runtime's own init). The managed and unified-addressing calls
 * need no current context; allocations, copies and sets act on the
 * current context's device (cuda_context.c) and answer
 * CUDA_ERROR_INVALID_CONTEXT without one. Driver calls never touch the
 * runtime's last error. Linker names: cuda.h maps cuMemAdvise to
 * cuMemAdvise_v2 and cuMemPrefetchAsync to cuMemPrefetchAsync_v2(_ptsz);
 * the plain names keep CUDA 10's CUdevice signatures for old binaries
 * (CU_DEVICE_CPU = host).
 */
#include "cuda_managed.h"
#include "cuda_memory.h"
#include "cuda_ptsz.h"

#undef cuMemAdvise
#undef cuMemPrefetchAsync
#undef cuMemPrefetchBatchAsync
#undef cuMemDiscardBatchAsync
#undef cuMemDiscardAndPrefetchBatchAsync
#undef cuMemFree
#undef cuMemAlloc
#undef cuMemAllocHost
#undef cuMemGetInfo
#undef cuMemcpy
#undef cuMemcpyAsync
#undef cuMemcpyHtoD
#undef cuMemcpyDtoH
#undef cuMemcpyDtoD
#undef cuMemcpyHtoDAsync
#undef cuMemcpyDtoHAsync
#undef cuMemcpyDtoDAsync
#undef cuMemsetD8
#undef cuMemsetD16
#undef cuMemsetD32
#undef cuMemsetD8Async
#undef cuMemsetD16Async
#undef cuMemsetD32Async

/* The legacy (CUDA 10) forms, exported under the plain names. */
CUresult cuMemAdvise(CUdeviceptr devPtr, size_t count, CUmem_advise advice, CUdevice device);
CUresult cuMemPrefetchAsync(CUdeviceptr devPtr, size_t count, CUdevice dstDevice, CUstream hStream);
CUresult cuMemPrefetchAsync_ptsz(CUdeviceptr devPtr, size_t count, CUdevice dstDevice,
				 CUstream hStream);
/* Names cuda.h only produces through macros. */
CUresult cuMemAdvise_v2(CUdeviceptr devPtr, size_t count, CUmem_advise advice, CUmemLocation location);
CUresult cuMemPrefetchAsync_v2(CUdeviceptr devPtr, size_t count, CUmemLocation location,
			       unsigned int flags, CUstream hStream);
CUresult cuMemPrefetchAsync_v2_ptsz(CUdeviceptr devPtr, size_t count, CUmemLocation location,
				    unsigned int flags, CUstream hStream);
CUresult cuMemPrefetchBatchAsync(CUdeviceptr *dptrs, size_t *sizes, size_t count,
				 CUmemLocation *prefetchLocs, size_t *prefetchLocIdxs,
				 size_t numPrefetchLocs, unsigned long long flags, CUstream hStream);
CUresult cuMemPrefetchBatchAsync_ptsz(CUdeviceptr *dptrs, size_t *sizes, size_t count,
				      CUmemLocation *prefetchLocs, size_t *prefetchLocIdxs,
				      size_t numPrefetchLocs, unsigned long long flags,
				      CUstream hStream);
CUresult cuMemDiscardBatchAsync(CUdeviceptr *dptrs, size_t *sizes, size_t count,
				unsigned long long flags, CUstream hStream);
CUresult cuMemDiscardBatchAsync_ptsz(CUdeviceptr *dptrs, size_t *sizes, size_t count,
				     unsigned long long flags, CUstream hStream);
CUresult cuMemDiscardAndPrefetchBatchAsync(CUdeviceptr *dptrs, size_t *sizes, size_t count,
					   CUmemLocation *prefetchLocs, size_t *prefetchLocIdxs,
					   size_t numPrefetchLocs, unsigned long long flags,
					   CUstream hStream);
CUresult cuMemDiscardAndPrefetchBatchAsync_ptsz(CUdeviceptr *dptrs, size_t *sizes, size_t count,
						CUmemLocation *prefetchLocs,
						size_t *prefetchLocIdxs, size_t numPrefetchLocs,
						unsigned long long flags, CUstream hStream);

CUresult cuMemFree_v2(CUdeviceptr dptr);
CUresult cuMemAlloc_v2(CUdeviceptr *dptr, size_t bytesize);
CUresult cuMemAllocHost_v2(void **pp, size_t bytesize);
CUresult cuMemGetInfo_v2(size_t *free, size_t *total);

/* Copies and sets: the CUDA 13 linker names and their per-thread twins. */
#define CU_COPY_DECL(name, dst_t, src_t)						\
	CUresult name(dst_t dst, src_t src, size_t ByteCount);				\
	CUresult name##_ptds(dst_t dst, src_t src, size_t ByteCount)
#define CU_COPY_ASYNC_DECL(name, dst_t, src_t)						\
	CUresult name(dst_t dst, src_t src, size_t ByteCount, CUstream hStream);	\
	CUresult name##_ptsz(dst_t dst, src_t src, size_t ByteCount, CUstream hStream)
CU_COPY_DECL(cuMemcpy, CUdeviceptr, CUdeviceptr);
CU_COPY_DECL(cuMemcpyHtoD_v2, CUdeviceptr, const void *);
CU_COPY_DECL(cuMemcpyDtoH_v2, void *, CUdeviceptr);
CU_COPY_DECL(cuMemcpyDtoD_v2, CUdeviceptr, CUdeviceptr);
CU_COPY_ASYNC_DECL(cuMemcpyAsync, CUdeviceptr, CUdeviceptr);
CU_COPY_ASYNC_DECL(cuMemcpyHtoDAsync_v2, CUdeviceptr, const void *);
CU_COPY_ASYNC_DECL(cuMemcpyDtoHAsync_v2, void *, CUdeviceptr);
CU_COPY_ASYNC_DECL(cuMemcpyDtoDAsync_v2, CUdeviceptr, CUdeviceptr);
#define CU_SET_DECL(name, val_t)							\
	CUresult name(CUdeviceptr dstDevice, val_t v, size_t N);			\
	CUresult name##_ptds(CUdeviceptr dstDevice, val_t v, size_t N)
#define CU_SET_ASYNC_DECL(name, val_t)							\
	CUresult name(CUdeviceptr dstDevice, val_t v, size_t N, CUstream hStream);	\
	CUresult name##_ptsz(CUdeviceptr dstDevice, val_t v, size_t N, CUstream hStream)
CU_SET_DECL(cuMemsetD8_v2, unsigned char);
CU_SET_DECL(cuMemsetD16_v2, unsigned short);
CU_SET_DECL(cuMemsetD32_v2, unsigned int);
CU_SET_ASYNC_DECL(cuMemsetD8Async, unsigned char);
CU_SET_ASYNC_DECL(cuMemsetD16Async, unsigned short);
CU_SET_ASYNC_DECL(cuMemsetD32Async, unsigned int);

_Static_assert(sizeof(CUmemLocation) == sizeof(struct cudaMemLocation), "location");
_Static_assert(sizeof(CUdeviceptr) == sizeof(void *), "CUdeviceptr");

/*
 * The runtime's status as a CUresult. Initialisation failures: no module
 * is CUDA_ERROR_NOT_INITIALIZED (the driver could not be initialised),
 * no device CUDA_ERROR_NO_DEVICE.
 */
CUresult uvm_cuda_to_cu(cudaError_t e)
{
	switch (e) {
	case cudaSuccess:
		return CUDA_SUCCESS;
	case cudaErrorInvalidValue:
		return CUDA_ERROR_INVALID_VALUE;
	case cudaErrorMemoryAllocation:
		return CUDA_ERROR_OUT_OF_MEMORY;
	case cudaErrorInsufficientDriver:
	case cudaErrorInitializationError:
		return CUDA_ERROR_NOT_INITIALIZED;
	case cudaErrorNoDevice:
		return CUDA_ERROR_NO_DEVICE;
	case cudaErrorInvalidDevice:
		return CUDA_ERROR_INVALID_DEVICE;
	case cudaErrorInvalidResourceHandle:
		return CUDA_ERROR_INVALID_HANDLE;
	case cudaErrorNotSupported:
		return CUDA_ERROR_NOT_SUPPORTED;
	case cudaErrorNotPermitted:
		return CUDA_ERROR_NOT_PERMITTED;
	case cudaErrorDevicesUnavailable:
		return CUDA_ERROR_DEVICE_UNAVAILABLE;
	case cudaErrorNotReady:
		return CUDA_ERROR_NOT_READY;
	case cudaErrorTimeout:
		return CUDA_ERROR_TIMEOUT;
	case cudaErrorHostMemoryAlreadyRegistered:
		return CUDA_ERROR_HOST_MEMORY_ALREADY_REGISTERED;
	case cudaErrorHostMemoryNotRegistered:
		return CUDA_ERROR_HOST_MEMORY_NOT_REGISTERED;
	default:
		return CUDA_ERROR_UNKNOWN;
	}
}

#define cu_status uvm_cuda_to_cu

/* The driver API's initialisation (cuInit or the runtime's), as a runtime status. */
static cudaError_t cu_init(void)
{
	return uvm_cu_initialised() ? cudaSuccess : cudaErrorInitializationError;
}

#define CU_READY_OR_RETURN()						\
	do {								\
		if (!uvm_cu_initialised())				\
			return CUDA_ERROR_NOT_INITIALIZED;		\
	} while (0)

static struct cudaMemLocation loc_rt(CUmemLocation l)
{
	return (struct cudaMemLocation){ .type = (enum cudaMemLocationType)l.type, .id = l.id };
}

/* Legacy CUdevice argument: CU_DEVICE_CPU is the host, else an ordinal. */
static struct cudaMemLocation loc_legacy(CUdevice dev)
{
	if (dev == CU_DEVICE_CPU)
		return (struct cudaMemLocation){ .type = cudaMemLocationTypeHost, .id = 0 };
	return (struct cudaMemLocation){ .type = cudaMemLocationTypeDevice, .id = dev };
}

uvm_public CUresult cuMemAdvise_v2(CUdeviceptr devPtr, size_t count, CUmem_advise advice,
				   CUmemLocation location)
{
	CU_READY_OR_RETURN();
	return cu_status(uvm_cm_advise((const void *)devPtr, count, advice, loc_rt(location)));
}

uvm_public CUresult cuMemAdvise(CUdeviceptr devPtr, size_t count, CUmem_advise advice, CUdevice device)
{
	CU_READY_OR_RETURN();
	return cu_status(uvm_cm_advise((const void *)devPtr, count, advice, loc_legacy(device)));
}

uvm_public CUresult cuMemPrefetchAsync_v2(CUdeviceptr devPtr, size_t count, CUmemLocation location,
					  unsigned int flags, CUstream hStream)
{
	CU_READY_OR_RETURN();
	return cu_status(uvm_cm_prefetch((const void *)devPtr, count, loc_rt(location), flags,
					 hStream, false));
}

uvm_public CUresult cuMemPrefetchAsync_v2_ptsz(CUdeviceptr devPtr, size_t count,
					       CUmemLocation location, unsigned int flags,
					       CUstream hStream)
{
	CU_READY_OR_RETURN();
	return cu_status(uvm_cm_prefetch((const void *)devPtr, count, loc_rt(location), flags,
					 hStream, true));
}

uvm_public CUresult cuMemPrefetchAsync(CUdeviceptr devPtr, size_t count, CUdevice dstDevice,
				       CUstream hStream)
{
	CU_READY_OR_RETURN();
	return cu_status(uvm_cm_prefetch((const void *)devPtr, count, loc_legacy(dstDevice), 0,
					 hStream, false));
}

uvm_public CUresult cuMemPrefetchAsync_ptsz(CUdeviceptr devPtr, size_t count, CUdevice dstDevice,
					    CUstream hStream)
{
	CU_READY_OR_RETURN();
	return cu_status(uvm_cm_prefetch((const void *)devPtr, count, loc_legacy(dstDevice), 0,
					 hStream, true));
}

static CUresult cu_batch(CUdeviceptr *dptrs, size_t *sizes, size_t count, CUmemLocation *locs,
			 size_t *idxs, size_t nlocs, unsigned long long flags, CUstream hStream,
			 bool ptsz, bool discard)
{
	return cu_status(uvm_cm_prefetch_batch((void *const *)dptrs, sizes, count,
					       (const struct cudaMemLocation *)locs, idxs, nlocs,
					       flags, hStream, ptsz, discard));
}

uvm_public CUresult cuMemPrefetchBatchAsync(CUdeviceptr *dptrs, size_t *sizes, size_t count,
					    CUmemLocation *prefetchLocs, size_t *prefetchLocIdxs,
					    size_t numPrefetchLocs, unsigned long long flags,
					    CUstream hStream)
{
	CU_READY_OR_RETURN();
	return cu_batch(dptrs, sizes, count, prefetchLocs, prefetchLocIdxs, numPrefetchLocs, flags,
			hStream, false, false);
}

uvm_public CUresult cuMemPrefetchBatchAsync_ptsz(CUdeviceptr *dptrs, size_t *sizes, size_t count,
						 CUmemLocation *prefetchLocs, size_t *prefetchLocIdxs,
						 size_t numPrefetchLocs, unsigned long long flags,
						 CUstream hStream)
{
	CU_READY_OR_RETURN();
	return cu_batch(dptrs, sizes, count, prefetchLocs, prefetchLocIdxs, numPrefetchLocs, flags,
			hStream, true, false);
}

uvm_public CUresult cuMemDiscardAndPrefetchBatchAsync(CUdeviceptr *dptrs, size_t *sizes, size_t count,
						      CUmemLocation *prefetchLocs,
						      size_t *prefetchLocIdxs, size_t numPrefetchLocs,
						      unsigned long long flags, CUstream hStream)
{
	CU_READY_OR_RETURN();
	return cu_batch(dptrs, sizes, count, prefetchLocs, prefetchLocIdxs, numPrefetchLocs, flags,
			hStream, false, true);
}

uvm_public CUresult cuMemDiscardAndPrefetchBatchAsync_ptsz(CUdeviceptr *dptrs, size_t *sizes,
							   size_t count, CUmemLocation *prefetchLocs,
							   size_t *prefetchLocIdxs,
							   size_t numPrefetchLocs,
							   unsigned long long flags, CUstream hStream)
{
	CU_READY_OR_RETURN();
	return cu_batch(dptrs, sizes, count, prefetchLocs, prefetchLocIdxs, numPrefetchLocs, flags,
			hStream, true, true);
}

uvm_public CUresult cuMemDiscardBatchAsync(CUdeviceptr *dptrs, size_t *sizes, size_t count,
					   unsigned long long flags, CUstream hStream)
{
	CU_READY_OR_RETURN();
	return cu_status(uvm_cm_discard_batch((void *const *)dptrs, sizes, count, flags, hStream,
					      false));
}

uvm_public CUresult cuMemDiscardBatchAsync_ptsz(CUdeviceptr *dptrs, size_t *sizes, size_t count,
						unsigned long long flags, CUstream hStream)
{
	CU_READY_OR_RETURN();
	return cu_status(uvm_cm_discard_batch((void *const *)dptrs, sizes, count, flags, hStream,
					      true));
}

uvm_public CUresult cuMemRangeGetAttribute(void *data, size_t dataSize, CUmem_range_attribute attribute,
					   CUdeviceptr devPtr, size_t count)
{
	int attr = attribute;

	CU_READY_OR_RETURN();
	return cu_status(uvm_cm_range_attrs(&data, &dataSize, &attr, 1, (const void *)devPtr, count));
}

uvm_public CUresult cuMemRangeGetAttributes(void **data, size_t *dataSizes,
					    CUmem_range_attribute *attributes, size_t numAttributes,
					    CUdeviceptr devPtr, size_t count)
{
	CU_READY_OR_RETURN();
	_Static_assert(sizeof(CUmem_range_attribute) == sizeof(int), "enum size");
	return cu_status(uvm_cm_range_attrs(data, dataSizes, (const int *)attributes, numAttributes,
					    (const void *)devPtr, count));
}

/* ---- pointer attributes --------------------------------------------------- */

#define PUT(type, val)	(*(type *)data = (type)(val))

/*
 * One attribute of @ptr, classified in @c (type UNREGISTERED for a non-CUDA
 * pointer). @tolerant (the plural call) writes zero/NULL defaults where the
 * singular call fails with INVALID_VALUE: for non-CUDA pointers, the host
 * pointer of device memory and the buffer id of registered memory (a
 * registration is not an allocation). Managed memory reports MEMORY_TYPE
 * DEVICE (what CUDA's driver reports; IS_MANAGED tells them apart).
 * "Boolean" results are written as unsigned int.
 */
static CUresult ptr_attr(CUpointer_attribute attr, const struct uvm_cptr *c, CUdeviceptr ptr,
			 void *data, bool tolerant)
{
	bool cuda = c->type != UVM_POINTER_UNREGISTERED;
	bool host = c->type == UVM_POINTER_HOST_ALLOC || c->type == UVM_POINTER_HOST_REGISTERED;
	bool has_host = cuda && c->type != UVM_POINTER_DEVICE;
	bool has_id = cuda && c->type != UVM_POINTER_HOST_REGISTERED;

	if (!cuda && !tolerant)
		return CUDA_ERROR_INVALID_VALUE;
	switch (attr) {
	case CU_POINTER_ATTRIBUTE_MEMORY_TYPE:
		PUT(unsigned int, !cuda ? 0 : host ? CU_MEMORYTYPE_HOST : CU_MEMORYTYPE_DEVICE);
		break;
	case CU_POINTER_ATTRIBUTE_DEVICE_POINTER:
		PUT(CUdeviceptr, cuda ? ptr : 0);
		break;
	case CU_POINTER_ATTRIBUTE_HOST_POINTER:
		if (!has_host && !tolerant)
			return CUDA_ERROR_INVALID_VALUE;
		PUT(void *, has_host ? (void *)ptr : NULL);
		break;
	case CU_POINTER_ATTRIBUTE_BUFFER_ID:
		if (!has_id && !tolerant)
			return CUDA_ERROR_INVALID_VALUE;
		PUT(unsigned long long, has_id ? c->buffer_id : 0);
		break;
	case CU_POINTER_ATTRIBUTE_IS_MANAGED:
		PUT(unsigned int, c->type == UVM_POINTER_MANAGED);
		break;
	case CU_POINTER_ATTRIBUTE_MAPPED:
	case CU_POINTER_ATTRIBUTE_SYNC_MEMOPS:	/* synchronous ops always synchronise */
		PUT(unsigned int, cuda);
		break;
	case CU_POINTER_ATTRIBUTE_DEVICE_ORDINAL:
		PUT(int, cuda ? c->device : cudaInvalidDeviceId);
		break;
	case CU_POINTER_ATTRIBUTE_RANGE_START_ADDR:
		PUT(CUdeviceptr, c->base);
		break;
	case CU_POINTER_ATTRIBUTE_RANGE_SIZE:
		PUT(size_t, c->size);
		break;
	case CU_POINTER_ATTRIBUTE_IS_LEGACY_CUDA_IPC_CAPABLE:
	case CU_POINTER_ATTRIBUTE_IS_GPU_DIRECT_RDMA_CAPABLE:
	case CU_POINTER_ATTRIBUTE_IS_HW_DECOMPRESS_CAPABLE:
		PUT(unsigned int, 0);
		break;
	case CU_POINTER_ATTRIBUTE_ALLOWED_HANDLE_TYPES:
		PUT(unsigned long long, 0);
		break;
	case CU_POINTER_ATTRIBUTE_MEMPOOL_HANDLE:
		PUT(CUmemoryPool, NULL);	/* not from a pool */
		break;
	case CU_POINTER_ATTRIBUTE_CONTEXT:
		if (cuda)
			return CUDA_ERROR_NOT_SUPPORTED;	/* no driver contexts */
		PUT(CUcontext, NULL);
		break;
	case CU_POINTER_ATTRIBUTE_P2P_TOKENS:
	case CU_POINTER_ATTRIBUTE_ACCESS_FLAGS:
	case CU_POINTER_ATTRIBUTE_MAPPING_SIZE:
	case CU_POINTER_ATTRIBUTE_MAPPING_BASE_ADDR:
	case CU_POINTER_ATTRIBUTE_MEMORY_BLOCK_ID:
		return CUDA_ERROR_NOT_SUPPORTED;
	default:
		return CUDA_ERROR_INVALID_VALUE;
	}
	return CUDA_SUCCESS;
}

#undef PUT

uvm_public CUresult cuPointerGetAttribute(void *data, CUpointer_attribute attribute, CUdeviceptr ptr)
{
	struct uvm_cptr c;
	cudaError_t e = cu_init();

	if (e)
		return cu_status(e);
	if (!data || uvm_cuda_ptr((const void *)ptr, &c))
		return CUDA_ERROR_INVALID_VALUE;
	return ptr_attr(attribute, &c, ptr, data, false);
}

uvm_public CUresult cuPointerGetAttributes(unsigned int numAttributes, CUpointer_attribute *attributes,
					   void **data, CUdeviceptr ptr)
{
	struct uvm_cptr c;
	cudaError_t e = cu_init();
	CUresult r = CUDA_SUCCESS;
	unsigned int i;

	if (e)
		return cu_status(e);
	if (!numAttributes || !attributes || !data)
		return CUDA_ERROR_INVALID_VALUE;
	for (i = 0; i < numAttributes; i++) {
		if (!data[i])
			return CUDA_ERROR_INVALID_VALUE;
	}
	if (uvm_cuda_ptr((const void *)ptr, &c))
		return CUDA_ERROR_INVALID_VALUE;
	for (i = 0; i < numAttributes && r == CUDA_SUCCESS; i++)
		r = ptr_attr(attributes[i], &c, ptr, data[i], true);
	return r;
}

/*
 * Only SYNC_MEMOPS is settable. Every synchronous memory operation of
 * libuvm already completes before it returns, so 1 is in effect for all
 * memory and setting it does what CUDA asks (nothing pending to wait for
 * beyond the synchronous calls themselves). 0 would ask for relaxed
 * synchronous operations, which libuvm does not have: NOT_SUPPORTED
 * rather than pretending. Non-CUDA pointers: INVALID_VALUE.
 */
uvm_public CUresult cuPointerSetAttribute(const void *value, CUpointer_attribute attribute,
					  CUdeviceptr ptr)
{
	struct uvm_cptr c;
	cudaError_t e = cu_init();

	if (e)
		return cu_status(e);
	if (!value || attribute != CU_POINTER_ATTRIBUTE_SYNC_MEMOPS)
		return CUDA_ERROR_INVALID_VALUE;
	if (uvm_cuda_ptr((const void *)ptr, &c) || c.type == UVM_POINTER_UNREGISTERED)
		return CUDA_ERROR_INVALID_VALUE;
	switch (*(const unsigned int *)value) {
	case 1:
		return CUDA_SUCCESS;
	case 0:
		return CUDA_ERROR_NOT_SUPPORTED;
	default:
		return CUDA_ERROR_INVALID_VALUE;
	}
}

/* ---- allocations ------------------------------------------------------------ */

/* The driver API has no "size 0 gives NULL" rule: size 0 is INVALID_VALUE. */
uvm_public CUresult cuMemAllocManaged(CUdeviceptr *dptr, size_t bytesize, unsigned int flags)
{
	cudaError_t e = cu_init();

	if (e)
		return cu_status(e);
	if (!dptr)
		return CUDA_ERROR_INVALID_VALUE;
	return cu_status(uvm_cm_malloc_managed((void **)dptr, bytesize, flags));
}

uvm_public CUresult cuMemFree_v2(CUdeviceptr dptr)
{
	cudaError_t e = cu_init();

	if (e)
		return cu_status(e);
	if (!dptr)
		return CUDA_ERROR_INVALID_VALUE;
	return cu_status(uvm_cm_free((void *)dptr));
}

uvm_public CUresult cuMemHostAlloc(void **pp, size_t bytesize, unsigned int Flags)
{
	cudaError_t e = cu_init();

	if (e)
		return cu_status(e);
	if (!pp || !bytesize)
		return CUDA_ERROR_INVALID_VALUE;
	return cu_status(uvm_cm_host_alloc(pp, bytesize, Flags));
}

uvm_public CUresult cuMemFreeHost(void *p)
{
	cudaError_t e = cu_init();

	if (e)
		return cu_status(e);
	if (!p)
		return CUDA_ERROR_INVALID_VALUE;
	return cu_status(uvm_cm_free_host(p));
}

/* ---- device and pinned memory of the current context --------------------- */

/* On the current context's device; size 0 is INVALID_VALUE (driver rule). */
uvm_public CUresult cuMemAlloc_v2(CUdeviceptr *dptr, size_t bytesize)
{
	void *p;
	CUresult r = uvm_cu_ctx_enter();

	if (r)
		return r;
	if (!dptr || !bytesize)
		return CUDA_ERROR_INVALID_VALUE;
	r = cu_status(uvm_cm_malloc(&p, bytesize));
	if (!r)
		*dptr = (CUdeviceptr)(uintptr_t)p;
	return r;
}

uvm_public CUresult cuMemAllocHost_v2(void **pp, size_t bytesize)
{
	CUresult r = uvm_cu_ctx_enter();

	if (r)
		return r;
	if (!pp || !bytesize)
		return CUDA_ERROR_INVALID_VALUE;
	return cu_status(uvm_cm_host_alloc(pp, bytesize, 0));
}

uvm_public CUresult cuMemGetInfo_v2(size_t *free, size_t *total)
{
	CUresult r = uvm_cu_ctx_enter();

	if (r)
		return r;
	if (!free || !total)
		return CUDA_ERROR_INVALID_VALUE;
	return cu_status(uvm_cm_mem_get_info(free, total));
}

/* ---- copies: the runtime's, with the kind each name implies ----------------- */

#define P(x)	((void *)(uintptr_t)(x))

/* A copy on the default stream: legacy, or per-thread through the _ptds names. */
static CUresult cu_copy(void *dst, const void *src, size_t n, enum cudaMemcpyKind kind, bool ptds)
{
	CUresult r = uvm_cu_ctx_enter();

	if (r)
		return r;
	if (ptds)
		return UVM_CU_FORWARD(cudaMemcpy_ptds(dst, src, n, kind));
	return UVM_CU_FORWARD(cudaMemcpy(dst, src, n, kind));
}

static CUresult cu_copy_async(void *dst, const void *src, size_t n, enum cudaMemcpyKind kind,
			      CUstream s, bool ptsz)
{
	CUresult r = uvm_cu_ctx_enter();

	if (r)
		return r;
	if (ptsz)
		return UVM_CU_FORWARD(cudaMemcpyAsync_ptsz(dst, src, n, kind, s));
	return UVM_CU_FORWARD(cudaMemcpyAsync(dst, src, n, kind, s));
}

#define CU_COPY(name, dst_t, src_t, kind)						\
uvm_public CUresult name(dst_t dst, src_t src, size_t ByteCount)			\
{											\
	return cu_copy(P(dst), (const void *)(uintptr_t)(src), ByteCount, kind, false);	\
}											\
uvm_public CUresult name##_ptds(dst_t dst, src_t src, size_t ByteCount)		\
{											\
	return cu_copy(P(dst), (const void *)(uintptr_t)(src), ByteCount, kind, true);	\
}

#define CU_COPY_ASYNC(name, dst_t, src_t, kind)						\
uvm_public CUresult name(dst_t dst, src_t src, size_t ByteCount, CUstream hStream)	\
{											\
	return cu_copy_async(P(dst), (const void *)(uintptr_t)(src), ByteCount, kind,	\
			     hStream, false);						\
}											\
uvm_public CUresult name##_ptsz(dst_t dst, src_t src, size_t ByteCount, CUstream hStream) \
{											\
	return cu_copy_async(P(dst), (const void *)(uintptr_t)(src), ByteCount, kind,	\
			     hStream, true);						\
}

CU_COPY(cuMemcpy, CUdeviceptr, CUdeviceptr, cudaMemcpyDefault)
CU_COPY(cuMemcpyHtoD_v2, CUdeviceptr, const void *, cudaMemcpyHostToDevice)
CU_COPY(cuMemcpyDtoH_v2, void *, CUdeviceptr, cudaMemcpyDeviceToHost)
CU_COPY(cuMemcpyDtoD_v2, CUdeviceptr, CUdeviceptr, cudaMemcpyDeviceToDevice)
CU_COPY_ASYNC(cuMemcpyAsync, CUdeviceptr, CUdeviceptr, cudaMemcpyDefault)
CU_COPY_ASYNC(cuMemcpyHtoDAsync_v2, CUdeviceptr, const void *, cudaMemcpyHostToDevice)
CU_COPY_ASYNC(cuMemcpyDtoHAsync_v2, void *, CUdeviceptr, cudaMemcpyDeviceToHost)
CU_COPY_ASYNC(cuMemcpyDtoDAsync_v2, CUdeviceptr, CUdeviceptr, cudaMemcpyDeviceToDevice)

/* ---- sets: N elements of 1, 2 or 4 bytes; the target aligned to its element ---- */

static CUresult cu_set(CUdeviceptr dst, uint32_t v, size_t n, unsigned int elem, CUstream s,
		       bool ptsz, bool async)
{
	CUresult r = uvm_cu_ctx_enter();

	if (r)
		return r;
	return cu_status(uvm_cm_memset_elems(P(dst), v, n, elem, s, ptsz, async));
}

#define CU_SET(name, val_t, elem)							\
uvm_public CUresult name(CUdeviceptr dstDevice, val_t v, size_t N)			\
{											\
	return cu_set(dstDevice, v, N, elem, 0, false, false);				\
}											\
uvm_public CUresult name##_ptds(CUdeviceptr dstDevice, val_t v, size_t N)		\
{											\
	return cu_set(dstDevice, v, N, elem, 0, true, false);				\
}

#define CU_SET_ASYNC(name, val_t, elem)							\
uvm_public CUresult name(CUdeviceptr dstDevice, val_t v, size_t N, CUstream hStream)	\
{											\
	return cu_set(dstDevice, v, N, elem, hStream, false, true);			\
}											\
uvm_public CUresult name##_ptsz(CUdeviceptr dstDevice, val_t v, size_t N, CUstream hStream) \
{											\
	return cu_set(dstDevice, v, N, elem, hStream, true, true);			\
}

CU_SET(cuMemsetD8_v2, unsigned char, 1)
CU_SET(cuMemsetD16_v2, unsigned short, 2)
CU_SET(cuMemsetD32_v2, unsigned int, 4)
CU_SET_ASYNC(cuMemsetD8Async, unsigned char, 1)
CU_SET_ASYNC(cuMemsetD16Async, unsigned short, 2)
CU_SET_ASYNC(cuMemsetD32Async, unsigned int, 4)
