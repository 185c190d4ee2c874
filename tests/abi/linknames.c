// SPDX-License-Identifier: MIT
/*
 * linknames.c - references one entry point of every renamed family, so the
 * undefined symbols of the object show the linker names a header set
 * produces (plain, _v2, _ptds, _ptsz). tests/abi/run compiles it against
 * include/uvm and against the CUDA toolkit, with and without
 * CUDA_API_PER_THREAD_DEFAULT_STREAM, and compares `nm -u`.
 */
#include <cuda.h>
#include <cuda_runtime_api.h>

void *linknames_refs[] = {
	(void *)cudaGetDeviceCount, (void *)cudaSetDevice, (void *)cudaGetDeviceProperties,
	(void *)cudaDeviceGetAttribute, (void *)cudaGetErrorName, (void *)cudaGetLastError,
	(void *)cudaMallocManaged, (void *)cudaMemAdvise, (void *)cudaMemPrefetchAsync,
	(void *)cudaMemPrefetchBatchAsync, (void *)cudaMemDiscardBatchAsync,
	(void *)cudaMemDiscardAndPrefetchBatchAsync, (void *)cudaMemRangeGetAttribute,
	(void *)cudaMemRangeGetAttributes, (void *)cudaPointerGetAttributes,
	(void *)cudaMalloc, (void *)cudaFree, (void *)cudaMallocHost, (void *)cudaHostAlloc,
	(void *)cudaHostRegister, (void *)cudaMemGetInfo,
	(void *)cudaMemcpy, (void *)cudaMemcpyAsync, (void *)cudaMemcpy2D, (void *)cudaMemcpy2DAsync,
	(void *)cudaMemcpy3D, (void *)cudaMemcpy3DAsync, (void *)cudaMemcpy3DPeer,
	(void *)cudaMemcpy3DPeerAsync, (void *)cudaMemcpyPeer, (void *)cudaMemcpyPeerAsync,
	(void *)cudaMemcpyBatchAsync, (void *)cudaMemcpy3DBatchAsync,
	(void *)cudaMemcpy2DToArray, (void *)cudaMemcpy2DToArrayAsync, (void *)cudaMemcpy2DFromArray,
	(void *)cudaMemcpy2DFromArrayAsync, (void *)cudaMemcpy2DArrayToArray,
	(void *)cudaMemcpyToSymbol, (void *)cudaMemcpyToSymbolAsync, (void *)cudaMemcpyFromSymbol,
	(void *)cudaMemcpyFromSymbolAsync,
	(void *)cudaMemset, (void *)cudaMemsetAsync, (void *)cudaMemset2D, (void *)cudaMemset2DAsync,
	(void *)cudaMemset3D, (void *)cudaMemset3DAsync,
	(void *)cudaStreamCreate, (void *)cudaStreamSynchronize, (void *)cudaStreamQuery,
	(void *)cudaStreamWaitEvent, (void *)cudaStreamAttachMemAsync, (void *)cudaEventRecord,
	(void *)cudaEventRecordWithFlags, (void *)cudaMallocAsync, (void *)cudaFreeAsync,
	(void *)cudaDeviceSynchronize,
	(void *)cuMemAdvise, (void *)cuMemPrefetchAsync, (void *)cuMemPrefetchBatchAsync,
	(void *)cuMemDiscardBatchAsync, (void *)cuMemDiscardAndPrefetchBatchAsync,
	(void *)cuMemRangeGetAttribute, (void *)cuMemRangeGetAttributes,
	(void *)cuPointerGetAttribute, (void *)cuPointerGetAttributes, (void *)cuPointerSetAttribute,
	(void *)cuMemHostAlloc, (void *)cuMemAllocManaged, (void *)cuMemAlloc, (void *)cuMemFree,
	(void *)cuMemAllocHost, (void *)cuMemHostGetDevicePointer, (void *)cuMemHostRegister,
	(void *)cuMemGetInfo, (void *)cuDeviceTotalMem, (void *)cuDeviceGetAttribute,
	(void *)cuInit, (void *)cuDriverGetVersion, (void *)cuDeviceGet, (void *)cuDeviceGetCount,
	(void *)cuDeviceGetName, (void *)cuDeviceGetUuid, (void *)cuDeviceGetPCIBusId,
	(void *)cuDeviceCanAccessPeer, (void *)cuDevicePrimaryCtxRetain,
	(void *)cuDevicePrimaryCtxRelease, (void *)cuDevicePrimaryCtxSetFlags,
	(void *)cuDevicePrimaryCtxGetState, (void *)cuDevicePrimaryCtxReset, (void *)cuCtxCreate,
	(void *)cuCtxDestroy, (void *)cuCtxPushCurrent, (void *)cuCtxPopCurrent,
	(void *)cuCtxSetCurrent, (void *)cuCtxGetCurrent, (void *)cuCtxGetDevice,
	(void *)cuCtxGetFlags, (void *)cuCtxSynchronize, (void *)cuCtxEnablePeerAccess,
	(void *)cuCtxDisablePeerAccess, (void *)cuMemcpy, (void *)cuMemcpyHtoD, (void *)cuMemcpyDtoH,
	(void *)cuMemcpyDtoD, (void *)cuMemcpyAsync, (void *)cuMemcpyHtoDAsync,
	(void *)cuMemcpyDtoHAsync, (void *)cuMemcpyDtoDAsync, (void *)cuMemsetD8,
	(void *)cuMemsetD16, (void *)cuMemsetD32, (void *)cuMemsetD8Async, (void *)cuMemsetD16Async,
	(void *)cuMemsetD32Async, (void *)cuStreamCreate, (void *)cuStreamDestroy,
	(void *)cuStreamQuery, (void *)cuStreamSynchronize, (void *)cuEventCreate,
	(void *)cuEventRecord, (void *)cuEventRecordWithFlags, (void *)cuEventQuery,
	(void *)cuEventSynchronize, (void *)cuEventDestroy, (void *)cuEventElapsedTime,
	(void *)cuGetErrorName, (void *)cuGetErrorString, (void *)cuModuleLoad,
	(void *)cuModuleLoadData, (void *)cuModuleLoadDataEx, (void *)cuModuleLoadFatBinary,
	(void *)cuModuleUnload, (void *)cuModuleGetFunction, (void *)cuModuleGetGlobal,
	(void *)cuLaunchKernel, (void *)cuLinkCreate, (void *)cuLinkAddData, (void *)cuLinkAddFile,
	(void *)cuLinkComplete, (void *)cuLinkDestroy,
	(void *)cudaDeviceCanAccessPeer, (void *)cudaDeviceEnablePeerAccess,
	(void *)cudaDeviceDisablePeerAccess,
};
