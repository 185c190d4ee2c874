/* SPDX-License-Identifier: MIT */
/*
 * cuda_profiler_api.h - CUDA 13's profiler control calls. libuvm has no
 * profiler to start or stop: both calls succeed once the runtime is
 * initialised (and return its initialisation error otherwise).
 */
#ifndef UVM_CUDA_PROFILER_API_H
#define UVM_CUDA_PROFILER_API_H

#include "cuda_runtime_api.h"

#if defined(__cplusplus)
extern "C" {
#endif

extern cudaError_t CUDARTAPI cudaProfilerStart(void);
extern cudaError_t CUDARTAPI cudaProfilerStop(void);

#if defined(__cplusplus)
}
#endif

#endif /* UVM_CUDA_PROFILER_API_H */
