/* SPDX-License-Identifier: MIT */
/*
 * cuda_nvcc.h - the entry points nvcc's generated host code calls
 * (NVIDIA declares them in crt/host_runtime.h and crt/device_functions.h):
 * registration of a translation unit's kernels, the <<<...>>> call
 * configuration and the launch. libuvm exports them (libuvm/cuda_launch.c,
 * docs/kernels.md "Kernels by name"); programs never call them directly.
 */
#ifndef UVM_CUDA_NVCC_H
#define UVM_CUDA_NVCC_H

#include "cuda_runtime_api.h"

#if defined(__cplusplus)
extern "C" {
#endif

void **__cudaRegisterFatBinary(void *fatCubin);
void __cudaRegisterFatBinaryEnd(void **fatCubinHandle);
void __cudaUnregisterFatBinary(void **fatCubinHandle);
char __cudaInitModule(void **fatCubinHandle);
void __cudaRegisterFunction(void **fatCubinHandle, const char *hostFun, char *deviceFun,
			    const char *deviceName, int thread_limit, uint3 *tid, uint3 *bid,
			    dim3 *bDim, dim3 *gDim, int *wSize);
unsigned int __cudaPushCallConfiguration(dim3 gridDim, dim3 blockDim, size_t sharedMem,
					 struct CUstream_st *stream);
cudaError_t __cudaPopCallConfiguration(dim3 *gridDim, dim3 *blockDim, size_t *sharedMem,
				       void *stream);
cudaError_t __cudaGetKernel(cudaKernel_t *kernel, const void *hostFun);
cudaError_t __cudaLaunchKernel(cudaKernel_t kernel, dim3 gridDim, dim3 blockDim, void **args,
			       size_t sharedMem, cudaStream_t stream);
cudaError_t __cudaLaunchKernel_ptsz(cudaKernel_t kernel, dim3 gridDim, dim3 blockDim,
				    void **args, size_t sharedMem, cudaStream_t stream);

#if defined(__cplusplus)
}
#endif

#endif /* UVM_CUDA_NVCC_H */
