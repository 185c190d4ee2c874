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

#endif /* UVM_CUDA_PTSZ_H */
