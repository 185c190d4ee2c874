/* SPDX-License-Identifier: MIT */
/*
 * cuda_ptsz.h - prototypes of the per-thread-default-stream entry points.
 *
 * The public headers only produce these names by renaming the plain calls
 * when CUDA_API_PER_THREAD_DEFAULT_STREAM is defined; libuvm exports both.
 * Stream 0 passed to a _ptsz entry point is the caller's per-thread stream.
 */
#ifndef UVM_CUDA_PTSZ_H
#define UVM_CUDA_PTSZ_H

#include "uvm_internal.h"

cudaError_t cudaStreamSynchronize_ptsz(cudaStream_t stream);
cudaError_t cudaStreamQuery_ptsz(cudaStream_t stream);
cudaError_t cudaStreamWaitEvent_ptsz(cudaStream_t stream, cudaEvent_t event, unsigned int flags);
cudaError_t cudaStreamAttachMemAsync_ptsz(cudaStream_t stream, void *devPtr, size_t length,
					  unsigned int flags);
cudaError_t cudaStreamGetFlags_ptsz(cudaStream_t hStream, unsigned int *flags);
cudaError_t cudaStreamGetPriority_ptsz(cudaStream_t hStream, int *priority);
cudaError_t cudaLaunchHostFunc_ptsz(cudaStream_t stream, cudaHostFn_t fn, void *userData);
cudaError_t cudaStreamAddCallback_ptsz(cudaStream_t stream, cudaStreamCallback_t callback,
				       void *userData, unsigned int flags);
cudaError_t cudaMallocAsync_ptsz(void **devPtr, size_t size, cudaStream_t hStream);
cudaError_t cudaFreeAsync_ptsz(void *devPtr, cudaStream_t hStream);
cudaError_t cudaMallocFromPoolAsync_ptsz(void **ptr, size_t size, cudaMemPool_t memPool,
					 cudaStream_t stream);
cudaError_t cudaEventRecord_ptsz(cudaEvent_t event, cudaStream_t stream);
cudaError_t cudaEventRecordWithFlags_ptsz(cudaEvent_t event, cudaStream_t stream,
					  unsigned int flags);
cudaError_t cudaMemPrefetchAsync_ptsz(const void *devPtr, size_t count,
				      struct cudaMemLocation location, unsigned int flags,
				      cudaStream_t stream);
cudaError_t cudaMemPrefetchBatchAsync_ptsz(void **dptrs, size_t *sizes, size_t count,
					   struct cudaMemLocation *prefetchLocs,
					   size_t *prefetchLocIdxs, size_t numPrefetchLocs,
					   unsigned long long flags, cudaStream_t stream);
cudaError_t cudaMemDiscardBatchAsync_ptsz(void **dptrs, size_t *sizes, size_t count,
					  unsigned long long flags, cudaStream_t stream);
cudaError_t cudaMemDiscardAndPrefetchBatchAsync_ptsz(void **dptrs, size_t *sizes, size_t count,
						     struct cudaMemLocation *prefetchLocs,
						     size_t *prefetchLocIdxs,
						     size_t numPrefetchLocs,
						     unsigned long long flags,
						     cudaStream_t stream);

/* Copies and sets (cuda_copy.c, cuda_array.c): _ptds = synchronous call on
 * the per-thread stream, _ptsz = stream 0 is the per-thread stream. */
cudaError_t cudaMemcpy_ptds(void *dst, const void *src, size_t count, enum cudaMemcpyKind kind);
cudaError_t cudaMemcpyAsync_ptsz(void *dst, const void *src, size_t count,
				 enum cudaMemcpyKind kind, cudaStream_t stream);
cudaError_t cudaMemcpy2D_ptds(void *dst, size_t dpitch, const void *src, size_t spitch,
			      size_t width, size_t height, enum cudaMemcpyKind kind);
cudaError_t cudaMemcpy2DAsync_ptsz(void *dst, size_t dpitch, const void *src, size_t spitch,
				   size_t width, size_t height, enum cudaMemcpyKind kind,
				   cudaStream_t stream);
cudaError_t cudaMemcpy3D_ptds(const struct cudaMemcpy3DParms *p);
cudaError_t cudaMemcpy3DAsync_ptsz(const struct cudaMemcpy3DParms *p, cudaStream_t stream);
cudaError_t cudaMemcpy3DPeer_ptds(const struct cudaMemcpy3DPeerParms *p);
cudaError_t cudaMemcpy3DPeerAsync_ptsz(const struct cudaMemcpy3DPeerParms *p, cudaStream_t stream);
cudaError_t cudaMemcpyBatchAsync_ptsz(void *const *dsts, const void *const *srcs,
				      const size_t *sizes, size_t count,
				      struct cudaMemcpyAttributes *attrs, size_t *attrsIdxs,
				      size_t numAttrs, cudaStream_t stream);
cudaError_t cudaMemcpy3DBatchAsync_ptsz(size_t numOps, struct cudaMemcpy3DBatchOp *opList,
					unsigned long long flags, cudaStream_t stream);
cudaError_t cudaMemset_ptds(void *devPtr, int value, size_t count);
cudaError_t cudaMemsetAsync_ptsz(void *devPtr, int value, size_t count, cudaStream_t stream);
cudaError_t cudaMemset2D_ptds(void *devPtr, size_t pitch, int value, size_t width, size_t height);
cudaError_t cudaMemset2DAsync_ptsz(void *devPtr, size_t pitch, int value, size_t width,
				   size_t height, cudaStream_t stream);
cudaError_t cudaMemset3D_ptds(struct cudaPitchedPtr pitchedDevPtr, int value,
			      struct cudaExtent extent);
cudaError_t cudaMemset3DAsync_ptsz(struct cudaPitchedPtr pitchedDevPtr, int value,
				   struct cudaExtent extent, cudaStream_t stream);
cudaError_t cudaMemcpy2DToArray_ptds(cudaArray_t dst, size_t wOffset, size_t hOffset,
				     const void *src, size_t spitch, size_t width, size_t height,
				     enum cudaMemcpyKind kind);
cudaError_t cudaMemcpy2DToArrayAsync_ptsz(cudaArray_t dst, size_t wOffset, size_t hOffset,
					  const void *src, size_t spitch, size_t width,
					  size_t height, enum cudaMemcpyKind kind,
					  cudaStream_t stream);
cudaError_t cudaMemcpy2DFromArray_ptds(void *dst, size_t dpitch, cudaArray_const_t src,
				       size_t wOffset, size_t hOffset, size_t width, size_t height,
				       enum cudaMemcpyKind kind);
cudaError_t cudaMemcpy2DFromArrayAsync_ptsz(void *dst, size_t dpitch, cudaArray_const_t src,
					    size_t wOffset, size_t hOffset, size_t width,
					    size_t height, enum cudaMemcpyKind kind,
					    cudaStream_t stream);
cudaError_t cudaMemcpy2DArrayToArray_ptds(cudaArray_t dst, size_t wOffsetDst, size_t hOffsetDst,
					  cudaArray_const_t src, size_t wOffsetSrc,
					  size_t hOffsetSrc, size_t width, size_t height,
					  enum cudaMemcpyKind kind);
cudaError_t cudaMemcpyToSymbol_ptds(const void *symbol, const void *src, size_t count,
				    size_t offset, enum cudaMemcpyKind kind);
cudaError_t cudaMemcpyFromSymbol_ptds(void *dst, const void *symbol, size_t count, size_t offset,
				      enum cudaMemcpyKind kind);
cudaError_t cudaMemcpyToSymbolAsync_ptsz(const void *symbol, const void *src, size_t count,
					 size_t offset, enum cudaMemcpyKind kind,
					 cudaStream_t stream);
cudaError_t cudaMemcpyFromSymbolAsync_ptsz(void *dst, const void *symbol, size_t count,
					   size_t offset, enum cudaMemcpyKind kind,
					   cudaStream_t stream);

/* Kernel launches (cuda_launch.c). */
cudaError_t cudaLaunchKernel_ptsz(const void *func, dim3 gridDim, dim3 blockDim, void **args,
				  size_t sharedMem, cudaStream_t stream);

#endif /* UVM_CUDA_PTSZ_H */
