/* SPDX-License-Identifier: MIT */
/*
 * cuda_managed.h - the managed-memory calls shared by the runtime entry
 * points (cuda_managed.c) and the driver ones (cuda_driver.c), plus the
 * pure validators (cuda_validate.c, unit-tested on the host).
 *
 * The uvm_cm_* functions initialise, validate and act, and return a
 * cudaError_t without recording it: the runtime entry points record it as
 * the thread's last error, the driver ones convert it to a CUresult.
 */
#ifndef UVM_CUDA_MANAGED_H
#define UVM_CUDA_MANAGED_H

#include "uvm_internal.h"

/* ---- cuda_validate.c: pure functions, no module, no global state ---- */

/* Batch location index rules (spec 2.4): 0 or -EINVAL. */
int uvm_check_batch_loc_idxs(size_t count, const size_t *idxs, size_t nlocs);
/* Index k of the location operation @i uses: largest k with idxs[k] <= i. */
size_t uvm_batch_loc_of(const size_t *idxs, size_t nlocs, size_t i);
/* dataSize rule of a range attribute: 0 or -EINVAL (also unknown attribute). */
int uvm_check_range_attr_size(int attr, size_t size);
/* Fill the AccessedBy array: devices ascending, then cudaCpuDeviceId for
 * the host, the rest cudaInvalidDeviceId; only as many as fit. */
void uvm_fill_accessed_by(int *out, size_t n, uint64_t devices, bool host);
/* Write attribute @attr of @info to @data (size already checked). */
void uvm_range_attr_value(int attr, const struct uvm_range_info *info, void *data, size_t size);

/* ---- cuda_pageable.c ---- */
bool uvm_cm_pageable(const void *ptr, size_t count);
int uvm_pageable_prefetch_host(const void *ptr, size_t len, struct uvm_mem_location loc);
void uvm_pageable_range_info(struct uvm_range_info *info);

/* ---- cuda_managed.c ---- */
cudaError_t uvm_cm_advise(const void *ptr, size_t count, int advice, struct cudaMemLocation loc);
cudaError_t uvm_cm_prefetch(const void *ptr, size_t count, struct cudaMemLocation loc,
			    unsigned long long flags, cudaStream_t stream, bool ptsz);
cudaError_t uvm_cm_prefetch_batch(void *const *dptrs, const size_t *sizes, size_t count,
				  const struct cudaMemLocation *locs, const size_t *idxs,
				  size_t nlocs, unsigned long long flags, cudaStream_t stream,
				  bool ptsz, bool discard);
cudaError_t uvm_cm_discard_batch(void *const *dptrs, const size_t *sizes, size_t count,
				 unsigned long long flags, cudaStream_t stream, bool ptsz);
cudaError_t uvm_cm_range_attrs(void **data, const size_t *sizes, const int *attrs, size_t n,
			       const void *ptr, size_t count);
/* The managed half of cudaFree (after the caller's checks). */
cudaError_t uvm_cm_free_managed(void *devPtr);
cudaError_t uvm_cm_malloc_managed(void **devPtr, size_t size, unsigned int flags);
/* 0 and *a filled, or cudaErrorInvalidValue when @ptr is not managed. */
cudaError_t uvm_cm_lookup(const void *ptr, struct uvm_alloc *a);

#endif /* UVM_CUDA_MANAGED_H */
