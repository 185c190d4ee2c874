/* SPDX-License-Identifier: MIT */
/*
 * cuda_runtime_api.h - the CUDA 13 runtime API as implemented by libuvm.
 *
 * Declares the memory-management, device, stream, event, version and error
 * entry points with CUDA 13.0's names and signatures. Which of them libuvm
 * already exports is listed in libuvm/symbols.txt; a declared but not yet
 * exported function fails at link time rather than pretending to work.
 *
 * Per-thread default stream: when CUDA_API_PER_THREAD_DEFAULT_STREAM is
 * defined before inclusion (nvcc --default-stream per-thread), synchronous
 * copy/set calls are renamed to <name>_ptds and stream-taking calls to
 * <name>_ptsz, producing the same linker names as the CUDA toolkit.
 */
#ifndef UVM_CUDA_RUNTIME_API_H
#define UVM_CUDA_RUNTIME_API_H
/* The macro NVIDIA's header defines: programs test it to see what is included. */
#define __CUDA_RUNTIME_API_H__

#include <stddef.h>

#include "driver_types.h"
#include "vector_types.h"

/* 13.0: major * 1000 + minor * 10 */
#define CUDART_VERSION 13000

#if !defined(CUDARTAPI)
#define CUDARTAPI
#endif

#if defined(CUDA_API_PER_THREAD_DEFAULT_STREAM)
#define __CUDART_API_PER_THREAD_DEFAULT_STREAM
#define __CUDART_API_PTDS(api) api ## _ptds
#define __CUDART_API_PTSZ(api) api ## _ptsz
#else
#define __CUDART_API_PTDS(api) api
#define __CUDART_API_PTSZ(api) api
#endif

#if defined(__CUDART_API_PER_THREAD_DEFAULT_STREAM)
/* synchronous calls: implicit per-thread stream */
#define cudaMemcpy				__CUDART_API_PTDS(cudaMemcpy)
#define cudaMemcpyToSymbol			__CUDART_API_PTDS(cudaMemcpyToSymbol)
#define cudaMemcpyFromSymbol			__CUDART_API_PTDS(cudaMemcpyFromSymbol)
#define cudaMemcpy2D				__CUDART_API_PTDS(cudaMemcpy2D)
#define cudaMemcpy2DToArray			__CUDART_API_PTDS(cudaMemcpy2DToArray)
#define cudaMemcpy2DFromArray			__CUDART_API_PTDS(cudaMemcpy2DFromArray)
#define cudaMemcpy2DArrayToArray		__CUDART_API_PTDS(cudaMemcpy2DArrayToArray)
#define cudaMemcpy3D				__CUDART_API_PTDS(cudaMemcpy3D)
#define cudaMemcpy3DPeer			__CUDART_API_PTDS(cudaMemcpy3DPeer)
#define cudaMemset				__CUDART_API_PTDS(cudaMemset)
#define cudaMemset2D				__CUDART_API_PTDS(cudaMemset2D)
#define cudaMemset3D				__CUDART_API_PTDS(cudaMemset3D)
/* stream calls: stream 0 means the calling thread's stream */
#define cudaMemcpyAsync				__CUDART_API_PTSZ(cudaMemcpyAsync)
#define cudaMemcpyToSymbolAsync			__CUDART_API_PTSZ(cudaMemcpyToSymbolAsync)
#define cudaMemcpyFromSymbolAsync		__CUDART_API_PTSZ(cudaMemcpyFromSymbolAsync)
#define cudaMemcpy2DAsync			__CUDART_API_PTSZ(cudaMemcpy2DAsync)
#define cudaMemcpy2DToArrayAsync		__CUDART_API_PTSZ(cudaMemcpy2DToArrayAsync)
#define cudaMemcpy2DFromArrayAsync		__CUDART_API_PTSZ(cudaMemcpy2DFromArrayAsync)
#define cudaMemcpy3DAsync			__CUDART_API_PTSZ(cudaMemcpy3DAsync)
#define cudaMemcpy3DPeerAsync			__CUDART_API_PTSZ(cudaMemcpy3DPeerAsync)
#define cudaMemcpyBatchAsync			__CUDART_API_PTSZ(cudaMemcpyBatchAsync)
#define cudaMemcpy3DBatchAsync			__CUDART_API_PTSZ(cudaMemcpy3DBatchAsync)
#define cudaMemsetAsync				__CUDART_API_PTSZ(cudaMemsetAsync)
#define cudaMemset2DAsync			__CUDART_API_PTSZ(cudaMemset2DAsync)
#define cudaMemset3DAsync			__CUDART_API_PTSZ(cudaMemset3DAsync)
#define cudaStreamQuery				__CUDART_API_PTSZ(cudaStreamQuery)
#define cudaEventRecord				__CUDART_API_PTSZ(cudaEventRecord)
#define cudaEventRecordWithFlags		__CUDART_API_PTSZ(cudaEventRecordWithFlags)
#define cudaStreamWaitEvent			__CUDART_API_PTSZ(cudaStreamWaitEvent)
#define cudaStreamAttachMemAsync		__CUDART_API_PTSZ(cudaStreamAttachMemAsync)
#define cudaStreamSynchronize			__CUDART_API_PTSZ(cudaStreamSynchronize)
#define cudaMemPrefetchAsync			__CUDART_API_PTSZ(cudaMemPrefetchAsync)
#define cudaMemPrefetchBatchAsync		__CUDART_API_PTSZ(cudaMemPrefetchBatchAsync)
#define cudaMemDiscardBatchAsync		__CUDART_API_PTSZ(cudaMemDiscardBatchAsync)
#define cudaMemDiscardAndPrefetchBatchAsync	__CUDART_API_PTSZ(cudaMemDiscardAndPrefetchBatchAsync)
#define cudaMallocAsync				__CUDART_API_PTSZ(cudaMallocAsync)
#define cudaFreeAsync				__CUDART_API_PTSZ(cudaFreeAsync)
#define cudaMallocFromPoolAsync			__CUDART_API_PTSZ(cudaMallocFromPoolAsync)
#define cudaStreamGetFlags			__CUDART_API_PTSZ(cudaStreamGetFlags)
#define cudaStreamGetPriority			__CUDART_API_PTSZ(cudaStreamGetPriority)
#define cudaStreamAddCallback			__CUDART_API_PTSZ(cudaStreamAddCallback)
#define cudaLaunchHostFunc			__CUDART_API_PTSZ(cudaLaunchHostFunc)
#define cudaLaunchKernel			__CUDART_API_PTSZ(cudaLaunchKernel)
#endif

/* C++ default arguments, as in CUDA; C always passes every argument. */
#if defined(__cplusplus)
#define UVM_CUDA_DEFAULT(v) = v
#else
#define UVM_CUDA_DEFAULT(v)
#endif

#if defined(__cplusplus)
extern "C" {
#endif

/* Stream callback (cudaStreamAddCallback): the stream, its status, userData. */
typedef void (CUDART_CB *cudaStreamCallback_t)(cudaStream_t stream, cudaError_t status, void *userData);

/* ---- device management ---------------------------------------------- */
extern cudaError_t CUDARTAPI cudaGetDeviceCount(int *count);
extern cudaError_t CUDARTAPI cudaGetDevice(int *device);
extern cudaError_t CUDARTAPI cudaSetDevice(int device);
extern cudaError_t CUDARTAPI cudaGetDeviceProperties(struct cudaDeviceProp *prop, int device);
extern cudaError_t CUDARTAPI cudaDeviceGetAttribute(int *value, enum cudaDeviceAttr attr, int device);
extern cudaError_t CUDARTAPI cudaDeviceGetPCIBusId(char *pciBusId, int len, int device);
extern cudaError_t CUDARTAPI cudaDeviceGetByPCIBusId(int *device, const char *pciBusId);
extern cudaError_t CUDARTAPI cudaSetDeviceFlags(unsigned int flags);
extern cudaError_t CUDARTAPI cudaGetDeviceFlags(unsigned int *flags);
extern cudaError_t CUDARTAPI cudaDeviceSynchronize(void);
extern cudaError_t CUDARTAPI cudaDeviceReset(void);
extern cudaError_t CUDARTAPI cudaDeviceCanAccessPeer(int *canAccessPeer, int device, int peerDevice);
extern cudaError_t CUDARTAPI cudaDeviceEnablePeerAccess(int peerDevice, unsigned int flags);
extern cudaError_t CUDARTAPI cudaDeviceDisablePeerAccess(int peerDevice);
extern cudaError_t CUDARTAPI cudaDeviceGetP2PAttribute(int *value, enum cudaDeviceP2PAttr attr,
						       int srcDevice, int dstDevice);
extern cudaError_t CUDARTAPI cudaDeviceGetStreamPriorityRange(int *leastPriority, int *greatestPriority);

/* ---- errors and versions --------------------------------------------- */
extern const char *CUDARTAPI cudaGetErrorName(cudaError_t error);
extern const char *CUDARTAPI cudaGetErrorString(cudaError_t error);
extern cudaError_t CUDARTAPI cudaGetLastError(void);
extern cudaError_t CUDARTAPI cudaPeekAtLastError(void);
extern cudaError_t CUDARTAPI cudaDriverGetVersion(int *driverVersion);
extern cudaError_t CUDARTAPI cudaRuntimeGetVersion(int *runtimeVersion);

/* ---- streams ------------------------------------------------------------ */
extern cudaError_t CUDARTAPI cudaStreamCreate(cudaStream_t *pStream);
extern cudaError_t CUDARTAPI cudaStreamCreateWithFlags(cudaStream_t *pStream, unsigned int flags);
extern cudaError_t CUDARTAPI cudaStreamCreateWithPriority(cudaStream_t *pStream, unsigned int flags,
							  int priority);
extern cudaError_t CUDARTAPI cudaStreamGetFlags(cudaStream_t hStream, unsigned int *flags);
extern cudaError_t CUDARTAPI cudaStreamGetPriority(cudaStream_t hStream, int *priority);
extern cudaError_t CUDARTAPI cudaStreamAddCallback(cudaStream_t stream, cudaStreamCallback_t callback,
						   void *userData, unsigned int flags);
extern cudaError_t CUDARTAPI cudaLaunchHostFunc(cudaStream_t stream, cudaHostFn_t fn, void *userData);
extern cudaError_t CUDARTAPI cudaStreamDestroy(cudaStream_t stream);
extern cudaError_t CUDARTAPI cudaStreamSynchronize(cudaStream_t stream);
extern cudaError_t CUDARTAPI cudaStreamQuery(cudaStream_t stream);
extern cudaError_t CUDARTAPI cudaStreamWaitEvent(cudaStream_t stream, cudaEvent_t event,
						 unsigned int flags UVM_CUDA_DEFAULT(0));
extern cudaError_t CUDARTAPI cudaStreamAttachMemAsync(cudaStream_t stream, void *devPtr,
						      size_t length UVM_CUDA_DEFAULT(0),
						      unsigned int flags UVM_CUDA_DEFAULT(cudaMemAttachSingle));

/* ---- events ------------------------------------------------------------- */
extern cudaError_t CUDARTAPI cudaEventCreate(cudaEvent_t *event);
extern cudaError_t CUDARTAPI cudaEventCreateWithFlags(cudaEvent_t *event, unsigned int flags);
extern cudaError_t CUDARTAPI cudaEventRecord(cudaEvent_t event, cudaStream_t stream UVM_CUDA_DEFAULT(0));
extern cudaError_t CUDARTAPI cudaEventRecordWithFlags(cudaEvent_t event,
						      cudaStream_t stream UVM_CUDA_DEFAULT(0),
						      unsigned int flags UVM_CUDA_DEFAULT(0));
extern cudaError_t CUDARTAPI cudaEventQuery(cudaEvent_t event);
extern cudaError_t CUDARTAPI cudaEventSynchronize(cudaEvent_t event);
extern cudaError_t CUDARTAPI cudaEventDestroy(cudaEvent_t event);
extern cudaError_t CUDARTAPI cudaEventElapsedTime(float *ms, cudaEvent_t start, cudaEvent_t end);

/* ---- managed (unified) memory ------------------------------------------ */
extern cudaError_t CUDARTAPI cudaMallocManaged(void **devPtr, size_t size,
					       unsigned int flags UVM_CUDA_DEFAULT(cudaMemAttachGlobal));
extern cudaError_t CUDARTAPI cudaMemAdvise(const void *devPtr, size_t count,
					   enum cudaMemoryAdvise advice, struct cudaMemLocation location);
extern cudaError_t CUDARTAPI cudaMemPrefetchAsync(const void *devPtr, size_t count,
						  struct cudaMemLocation location, unsigned int flags,
						  cudaStream_t stream UVM_CUDA_DEFAULT(0));
extern cudaError_t CUDARTAPI cudaMemPrefetchBatchAsync(void **dptrs, size_t *sizes, size_t count,
						       struct cudaMemLocation *prefetchLocs,
						       size_t *prefetchLocIdxs, size_t numPrefetchLocs,
						       unsigned long long flags, cudaStream_t stream);
extern cudaError_t CUDARTAPI cudaMemDiscardBatchAsync(void **dptrs, size_t *sizes, size_t count,
						      unsigned long long flags, cudaStream_t stream);
extern cudaError_t CUDARTAPI cudaMemDiscardAndPrefetchBatchAsync(void **dptrs, size_t *sizes, size_t count,
								 struct cudaMemLocation *prefetchLocs,
								 size_t *prefetchLocIdxs,
								 size_t numPrefetchLocs,
								 unsigned long long flags,
								 cudaStream_t stream);
extern cudaError_t CUDARTAPI cudaMemRangeGetAttribute(void *data, size_t dataSize,
						      enum cudaMemRangeAttribute attribute,
						      const void *devPtr, size_t count);
extern cudaError_t CUDARTAPI cudaMemRangeGetAttributes(void **data, size_t *dataSizes,
						       enum cudaMemRangeAttribute *attributes,
						       size_t numAttributes, const void *devPtr,
						       size_t count);
extern cudaError_t CUDARTAPI cudaPointerGetAttributes(struct cudaPointerAttributes *attributes,
						      const void *ptr);

/* ---- linear device memory ------------------------------------------------ */
extern cudaError_t CUDARTAPI cudaMalloc(void **devPtr, size_t size);
extern cudaError_t CUDARTAPI cudaMallocPitch(void **devPtr, size_t *pitch, size_t width, size_t height);
extern cudaError_t CUDARTAPI cudaMalloc3D(struct cudaPitchedPtr *pitchedDevPtr, struct cudaExtent extent);
extern cudaError_t CUDARTAPI cudaFree(void *devPtr);
extern cudaError_t CUDARTAPI cudaMemGetInfo(size_t *free, size_t *total);
extern cudaError_t CUDARTAPI cudaMallocAsync(void **devPtr, size_t size, cudaStream_t hStream);
extern cudaError_t CUDARTAPI cudaFreeAsync(void *devPtr, cudaStream_t hStream);

/* ---- stream-ordered allocation: memory pools ------------------------------ */
extern cudaError_t CUDARTAPI cudaMallocFromPoolAsync(void **ptr, size_t size, cudaMemPool_t memPool,
						     cudaStream_t stream);
extern cudaError_t CUDARTAPI cudaDeviceGetDefaultMemPool(cudaMemPool_t *memPool, int device);
extern cudaError_t CUDARTAPI cudaDeviceGetMemPool(cudaMemPool_t *memPool, int device);
extern cudaError_t CUDARTAPI cudaDeviceSetMemPool(int device, cudaMemPool_t memPool);
extern cudaError_t CUDARTAPI cudaMemPoolCreate(cudaMemPool_t *memPool,
					       const struct cudaMemPoolProps *poolProps);
extern cudaError_t CUDARTAPI cudaMemPoolDestroy(cudaMemPool_t memPool);
extern cudaError_t CUDARTAPI cudaMemPoolTrimTo(cudaMemPool_t memPool, size_t minBytesToKeep);
extern cudaError_t CUDARTAPI cudaMemPoolSetAttribute(cudaMemPool_t memPool, enum cudaMemPoolAttr attr,
						     void *value);
extern cudaError_t CUDARTAPI cudaMemPoolGetAttribute(cudaMemPool_t memPool, enum cudaMemPoolAttr attr,
						     void *value);
extern cudaError_t CUDARTAPI cudaMemPoolSetAccess(cudaMemPool_t memPool,
						  const struct cudaMemAccessDesc *descList, size_t count);
extern cudaError_t CUDARTAPI cudaMemPoolGetAccess(enum cudaMemAccessFlags *flags, cudaMemPool_t memPool,
						  struct cudaMemLocation *location);

/* ---- page-locked host memory --------------------------------------------- */
extern cudaError_t CUDARTAPI cudaMallocHost(void **ptr, size_t size);
extern cudaError_t CUDARTAPI cudaHostAlloc(void **pHost, size_t size, unsigned int flags);
extern cudaError_t CUDARTAPI cudaFreeHost(void *ptr);
extern cudaError_t CUDARTAPI cudaHostRegister(void *ptr, size_t size, unsigned int flags);
extern cudaError_t CUDARTAPI cudaHostUnregister(void *ptr);
extern cudaError_t CUDARTAPI cudaHostGetDevicePointer(void **pDevice, void *pHost, unsigned int flags);
extern cudaError_t CUDARTAPI cudaHostGetFlags(unsigned int *pFlags, void *pHost);

/* ---- copies -------------------------------------------------------------- */
extern cudaError_t CUDARTAPI cudaMemcpy(void *dst, const void *src, size_t count, enum cudaMemcpyKind kind);
extern cudaError_t CUDARTAPI cudaMemcpyAsync(void *dst, const void *src, size_t count,
					     enum cudaMemcpyKind kind, cudaStream_t stream UVM_CUDA_DEFAULT(0));
extern cudaError_t CUDARTAPI cudaMemcpy2D(void *dst, size_t dpitch, const void *src, size_t spitch,
					  size_t width, size_t height, enum cudaMemcpyKind kind);
extern cudaError_t CUDARTAPI cudaMemcpy2DAsync(void *dst, size_t dpitch, const void *src, size_t spitch,
					       size_t width, size_t height, enum cudaMemcpyKind kind,
					       cudaStream_t stream UVM_CUDA_DEFAULT(0));
extern cudaError_t CUDARTAPI cudaMemcpy3D(const struct cudaMemcpy3DParms *p);
extern cudaError_t CUDARTAPI cudaMemcpy3DAsync(const struct cudaMemcpy3DParms *p,
					       cudaStream_t stream UVM_CUDA_DEFAULT(0));
extern cudaError_t CUDARTAPI cudaMemcpy3DPeer(const struct cudaMemcpy3DPeerParms *p);
extern cudaError_t CUDARTAPI cudaMemcpy3DPeerAsync(const struct cudaMemcpy3DPeerParms *p,
						   cudaStream_t stream UVM_CUDA_DEFAULT(0));
extern cudaError_t CUDARTAPI cudaMemcpyPeer(void *dst, int dstDevice, const void *src, int srcDevice,
					    size_t count);
extern cudaError_t CUDARTAPI cudaMemcpyPeerAsync(void *dst, int dstDevice, const void *src, int srcDevice,
						 size_t count, cudaStream_t stream UVM_CUDA_DEFAULT(0));
extern cudaError_t CUDARTAPI cudaMemcpyBatchAsync(void *const *dsts, const void *const *srcs,
						  const size_t *sizes, size_t count,
						  struct cudaMemcpyAttributes *attrs, size_t *attrsIdxs,
						  size_t numAttrs, cudaStream_t stream);
extern cudaError_t CUDARTAPI cudaMemcpy3DBatchAsync(size_t numOps, struct cudaMemcpy3DBatchOp *opList,
						    unsigned long long flags, cudaStream_t stream);

/* ---- memset -------------------------------------------------------------- */
extern cudaError_t CUDARTAPI cudaMemset(void *devPtr, int value, size_t count);
extern cudaError_t CUDARTAPI cudaMemsetAsync(void *devPtr, int value, size_t count,
					     cudaStream_t stream UVM_CUDA_DEFAULT(0));
extern cudaError_t CUDARTAPI cudaMemset2D(void *devPtr, size_t pitch, int value, size_t width, size_t height);
extern cudaError_t CUDARTAPI cudaMemset2DAsync(void *devPtr, size_t pitch, int value, size_t width,
					       size_t height, cudaStream_t stream UVM_CUDA_DEFAULT(0));
extern cudaError_t CUDARTAPI cudaMemset3D(struct cudaPitchedPtr pitchedDevPtr, int value,
					  struct cudaExtent extent);
extern cudaError_t CUDARTAPI cudaMemset3DAsync(struct cudaPitchedPtr pitchedDevPtr, int value,
					       struct cudaExtent extent, cudaStream_t stream UVM_CUDA_DEFAULT(0));

/* ---- CUDA arrays and mipmapped arrays ------------------------------------ */
extern struct cudaChannelFormatDesc CUDARTAPI cudaCreateChannelDesc(int x, int y, int z, int w,
								    enum cudaChannelFormatKind f);
extern cudaError_t CUDARTAPI cudaMallocArray(cudaArray_t *array, const struct cudaChannelFormatDesc *desc,
					     size_t width, size_t height UVM_CUDA_DEFAULT(0),
					     unsigned int flags UVM_CUDA_DEFAULT(0));
extern cudaError_t CUDARTAPI cudaMalloc3DArray(cudaArray_t *array, const struct cudaChannelFormatDesc *desc,
					       struct cudaExtent extent, unsigned int flags UVM_CUDA_DEFAULT(0));
extern cudaError_t CUDARTAPI cudaMallocMipmappedArray(cudaMipmappedArray_t *mipmappedArray,
						      const struct cudaChannelFormatDesc *desc,
						      struct cudaExtent extent, unsigned int numLevels,
						      unsigned int flags UVM_CUDA_DEFAULT(0));
extern cudaError_t CUDARTAPI cudaFreeArray(cudaArray_t array);
extern cudaError_t CUDARTAPI cudaFreeMipmappedArray(cudaMipmappedArray_t mipmappedArray);
extern cudaError_t CUDARTAPI cudaGetMipmappedArrayLevel(cudaArray_t *levelArray,
							cudaMipmappedArray_const_t mipmappedArray,
							unsigned int level);
extern cudaError_t CUDARTAPI cudaArrayGetInfo(struct cudaChannelFormatDesc *desc, struct cudaExtent *extent,
					      unsigned int *flags, cudaArray_t array);
extern cudaError_t CUDARTAPI cudaArrayGetPlane(cudaArray_t *pPlaneArray, cudaArray_t hArray,
					       unsigned int planeIdx);
extern cudaError_t CUDARTAPI cudaArrayGetMemoryRequirements(struct cudaArrayMemoryRequirements *memoryRequirements,
							    cudaArray_t array, int device);
extern cudaError_t CUDARTAPI cudaMipmappedArrayGetMemoryRequirements(struct cudaArrayMemoryRequirements *memoryRequirements,
								     cudaMipmappedArray_t mipmap, int device);
extern cudaError_t CUDARTAPI cudaArrayGetSparseProperties(struct cudaArraySparseProperties *sparseProperties,
							  cudaArray_t array);
extern cudaError_t CUDARTAPI cudaMipmappedArrayGetSparseProperties(struct cudaArraySparseProperties *sparseProperties,
								   cudaMipmappedArray_t mipmap);
extern cudaError_t CUDARTAPI cudaMemcpy2DToArray(cudaArray_t dst, size_t wOffset, size_t hOffset,
						 const void *src, size_t spitch, size_t width, size_t height,
						 enum cudaMemcpyKind kind);
extern cudaError_t CUDARTAPI cudaMemcpy2DToArrayAsync(cudaArray_t dst, size_t wOffset, size_t hOffset,
						      const void *src, size_t spitch, size_t width,
						      size_t height, enum cudaMemcpyKind kind,
						      cudaStream_t stream UVM_CUDA_DEFAULT(0));
extern cudaError_t CUDARTAPI cudaMemcpy2DFromArray(void *dst, size_t dpitch, cudaArray_const_t src,
						   size_t wOffset, size_t hOffset, size_t width, size_t height,
						   enum cudaMemcpyKind kind);
extern cudaError_t CUDARTAPI cudaMemcpy2DFromArrayAsync(void *dst, size_t dpitch, cudaArray_const_t src,
							size_t wOffset, size_t hOffset, size_t width,
							size_t height, enum cudaMemcpyKind kind,
							cudaStream_t stream UVM_CUDA_DEFAULT(0));
extern cudaError_t CUDARTAPI cudaMemcpy2DArrayToArray(cudaArray_t dst, size_t wOffsetDst, size_t hOffsetDst,
						      cudaArray_const_t src, size_t wOffsetSrc,
						      size_t hOffsetSrc, size_t width, size_t height,
						      enum cudaMemcpyKind kind UVM_CUDA_DEFAULT(cudaMemcpyDeviceToDevice));

/* ---- symbols (no device variable is ever registered with libuvm) -------- */
extern cudaError_t CUDARTAPI cudaGetSymbolAddress(void **devPtr, const void *symbol);
extern cudaError_t CUDARTAPI cudaGetSymbolSize(size_t *size, const void *symbol);
extern cudaError_t CUDARTAPI cudaMemcpyToSymbol(const void *symbol, const void *src, size_t count,
						size_t offset UVM_CUDA_DEFAULT(0),
						enum cudaMemcpyKind kind UVM_CUDA_DEFAULT(cudaMemcpyHostToDevice));
extern cudaError_t CUDARTAPI cudaMemcpyFromSymbol(void *dst, const void *symbol, size_t count,
						  size_t offset UVM_CUDA_DEFAULT(0),
						  enum cudaMemcpyKind kind UVM_CUDA_DEFAULT(cudaMemcpyDeviceToHost));
extern cudaError_t CUDARTAPI cudaMemcpyToSymbolAsync(const void *symbol, const void *src, size_t count,
						     size_t offset, enum cudaMemcpyKind kind,
						     cudaStream_t stream UVM_CUDA_DEFAULT(0));
extern cudaError_t CUDARTAPI cudaMemcpyFromSymbolAsync(void *dst, const void *symbol, size_t count,
						       size_t offset, enum cudaMemcpyKind kind,
						       cudaStream_t stream UVM_CUDA_DEFAULT(0));

/* ---- kernels (run by name: docs/kernels.md, "Kernels by name") ---------- */
extern cudaError_t CUDARTAPI cudaLaunchKernel(const void *func, dim3 gridDim, dim3 blockDim,
					      void **args, size_t sharedMem, cudaStream_t stream);
extern cudaError_t CUDARTAPI cudaGetKernel(cudaKernel_t *kernelPtr, const void *entryFuncAddr);
extern cudaError_t CUDARTAPI cudaFuncGetAttributes(struct cudaFuncAttributes *attr, const void *func);
extern cudaError_t CUDARTAPI cudaFuncSetAttribute(const void *func, enum cudaFuncAttribute attr,
						  int value);
extern cudaError_t CUDARTAPI cudaFuncSetCacheConfig(const void *func, enum cudaFuncCache cacheConfig);
extern cudaError_t CUDARTAPI cudaOccupancyMaxActiveBlocksPerMultiprocessor(int *numBlocks,
									   const void *func,
									   int blockSize,
									   size_t dynamicSMemSize);
extern cudaError_t CUDARTAPI cudaOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(int *numBlocks,
										    const void *func,
										    int blockSize,
										    size_t dynamicSMemSize,
										    unsigned int flags);
extern cudaError_t CUDARTAPI cudaOccupancyAvailableDynamicSMemPerBlock(size_t *dynamicSmemSize,
								       const void *func,
								       int numBlocks, int blockSize);

#if defined(__cplusplus)
}
#endif

#endif /* UVM_CUDA_RUNTIME_API_H */
