// SPDX-License-Identifier: MIT
/*
 * nodriver.c - libuvm on a machine without the uvm module (no /dev/uvm):
 * every call fails cleanly with the documented code, from any thread,
 * and nothing crashes. Built against include/uvm. TAP output.
 */
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include <cuda.h>
#include <cuda_runtime_api.h>
#include <uvm.h>

static int test_num, failures;

static void check(int cond, const char *what)
{
	test_num++;
	if (!cond)
		failures++;
	printf("%sok %d - %s\n", cond ? "" : "not ", test_num, what);
}

#define NTHREADS 8

static void *thread_fn(void *arg)
{
	int n = -7, i;
	long bad = 0;

	(void)arg;
	for (i = 0; i < 1000; i++) {
		bad += cudaGetDeviceCount(&n) != cudaErrorInsufficientDriver;
		bad += n != -7;
		bad += cudaGetLastError() != cudaErrorInsufficientDriver;
	}
	return (void *)bad;
}

int main(void)
{
	struct uvm_context *ctx = (struct uvm_context *)&ctx;
	struct uvm_module_info mi;
	struct uvm_device_info di;
	struct cudaDeviceProp prop;
	const cudaError_t nodrv = cudaErrorInsufficientDriver;
	pthread_t th[NTHREADS];
	char bus[16] = "unchanged";
	int v = -7, i, ok;
	void *ret;

	if (access("/dev/uvm", F_OK) == 0) {
		printf("1..0 # SKIP /dev/uvm exists: the no-module tests do not apply\n");
		return 0;
	}

	/* native API */
	check(uvm_open(&ctx) == -ENOENT, "uvm_open: -ENOENT without /dev/uvm");
	check(uvm_open(NULL) == -EINVAL, "uvm_open(NULL): -EINVAL");
	uvm_close(NULL);
	check(1, "uvm_close(NULL) is a no-op");
	check(uvm_get_info(NULL, &mi) == -EINVAL, "uvm_get_info(NULL): -EINVAL");
	check(uvm_device_count(NULL) == -EINVAL, "uvm_device_count(NULL): -EINVAL");
	check(uvm_device_get_info(NULL, 0, &di) == -EINVAL, "uvm_device_get_info(NULL): -EINVAL");

	/* threads race on the lazy initialisation */
	for (i = 0; i < NTHREADS; i++)
		pthread_create(&th[i], NULL, thread_fn, NULL);
	ok = 1;
	for (i = 0; i < NTHREADS; i++) {
		pthread_join(th[i], &ret);
		ok &= ret == NULL;
	}
	check(ok, "8 threads: cudaGetDeviceCount/GetLastError all InsufficientDriver");

	/* every device call reports the sticky init failure */
	check(cudaGetDeviceCount(&v) == nodrv && v == -7, "cudaGetDeviceCount, count untouched");
	check(cudaGetDeviceCount(NULL) == nodrv, "cudaGetDeviceCount(NULL): init error first");
	check(cudaGetDevice(&v) == nodrv, "cudaGetDevice");
	check(cudaSetDevice(0) == nodrv, "cudaSetDevice(0)");
	check(cudaSetDevice(-1) == nodrv, "cudaSetDevice(-1)");
	check(cudaGetDeviceProperties(&prop, 0) == nodrv, "cudaGetDeviceProperties");
	check(cudaDeviceGetAttribute(&v, cudaDevAttrConcurrentManagedAccess, 0) == nodrv,
	      "cudaDeviceGetAttribute");
	check(cudaDeviceGetPCIBusId(bus, sizeof(bus), 0) == nodrv && !strcmp(bus, "unchanged"),
	      "cudaDeviceGetPCIBusId, buffer untouched");
	{
		struct cudaMemLocation host = { cudaMemLocationTypeHost, 0 };
		struct cudaPointerAttributes pa;
		cudaStream_t st = NULL;
		cudaEvent_t ev = NULL;
		void *p = NULL;

		check(cudaMallocManaged(&p, 4096, cudaMemAttachGlobal) == nodrv && !p,
		      "cudaMallocManaged, pointer untouched");
		check(cudaMallocManaged(NULL, 0, 0) == nodrv, "cudaMallocManaged(NULL, 0, 0): init first");
		check(cudaFree(NULL) == nodrv, "cudaFree(NULL)");
		check(cudaMemAdvise(&v, 4, cudaMemAdviseSetReadMostly, host) == nodrv, "cudaMemAdvise");
		check(cudaMemPrefetchAsync(&v, 4, host, 0, 0) == nodrv, "cudaMemPrefetchAsync");
		check(cudaMemRangeGetAttribute(&v, 4, cudaMemRangeAttributeReadMostly, &v, 4) == nodrv,
		      "cudaMemRangeGetAttribute");
		check(cudaPointerGetAttributes(&pa, &v) == nodrv, "cudaPointerGetAttributes");
		check(cudaStreamCreate(&st) == nodrv && !st, "cudaStreamCreate");
		check(cudaEventCreate(&ev) == nodrv && !ev, "cudaEventCreate");
		check(cudaStreamSynchronize(0) == nodrv && cudaDeviceSynchronize() == nodrv,
		      "cudaStreamSynchronize(0), cudaDeviceSynchronize");
		check(cudaMalloc(&p, 4096) == nodrv && !p, "cudaMalloc, pointer untouched");
		check(cudaMemcpy(&v, bus, 4, cudaMemcpyHostToHost) == nodrv, "cudaMemcpy");
		check(cudaMemsetAsync(&v, 0, 4, 0) == nodrv, "cudaMemsetAsync");
		check(cudaHostRegister(bus, sizeof(bus), 0) == nodrv, "cudaHostRegister");
		check(cudaGetSymbolSize(NULL, &v) == nodrv, "cudaGetSymbolSize: init first");
		check(cuMemHostAlloc(&p, 4096, 0) == CUDA_ERROR_NOT_INITIALIZED && !p,
		      "cuMemHostAlloc: NOT_INITIALIZED");
		check(uvm_ptr_info(NULL, &v, NULL) == -EINVAL && uvm_memcpy(NULL, NULL) == -EINVAL,
		      "native memory calls on NULL context: -EINVAL");
		check(cuMemAdvise((CUdeviceptr)&v, 4, CU_MEM_ADVISE_SET_READ_MOSTLY,
				  (CUmemLocation){ CU_MEM_LOCATION_TYPE_HOST, 0 }) ==
		      CUDA_ERROR_NOT_INITIALIZED, "cuMemAdvise: NOT_INITIALIZED");
		check(cudaSetDeviceFlags(cudaDeviceMapHost) == nodrv &&
		      cudaGetDeviceFlags(NULL) == nodrv && cudaDeviceReset() == nodrv &&
		      cudaDeviceGetP2PAttribute(&v, cudaDevP2PAttrAccessSupported, 0, 1) == nodrv &&
		      cudaDeviceGetStreamPriorityRange(NULL, NULL) == nodrv,
		      "device flags, reset, P2P attribute, priority range: init error");
		check(cudaMallocAsync(&p, 4096, 0) == nodrv && !p && cudaFreeAsync(&v, 0) == nodrv &&
		      cudaMemPoolCreate(NULL, NULL) == nodrv &&
		      cudaLaunchHostFunc(0, NULL, NULL) == nodrv &&
		      cudaStreamGetFlags(0, NULL) == nodrv,
		      "stream-ordered allocation, pools, host functions: init error");
		check(cuMemAllocAsync(NULL, 0, NULL) == CUDA_ERROR_NOT_INITIALIZED &&
		      cuLaunchHostFunc(NULL, NULL, NULL) == CUDA_ERROR_NOT_INITIALIZED,
		      "cuMemAllocAsync, cuLaunchHostFunc: NOT_INITIALIZED");
		check(cudaCreateChannelDesc(8, 8, 0, 0, cudaChannelFormatKindUnsigned).y == 8,
		      "cudaCreateChannelDesc needs no driver");
		check(cuInit(0) == CUDA_ERROR_NOT_INITIALIZED && cuInit(1) == CUDA_ERROR_INVALID_VALUE,
		      "cuInit: NOT_INITIALIZED, flags: INVALID_VALUE");
		check(cuDeviceGetCount(&v) == CUDA_ERROR_NOT_INITIALIZED &&
		      cuCtxGetCurrent(NULL) == CUDA_ERROR_NOT_INITIALIZED &&
		      cuModuleLoad(NULL, "x") == CUDA_ERROR_NOT_INITIALIZED,
		      "driver calls after a failed cuInit: NOT_INITIALIZED");
	}
	check(cudaPeekAtLastError() == nodrv, "cudaPeekAtLastError: sticky");
	check(cudaGetLastError() == nodrv && cudaGetLastError() == nodrv,
	      "cudaGetLastError: sticky, not reset");

	/* calls that work without a driver */
	check(cuDriverGetVersion(&v) == CUDA_SUCCESS && v == 13000, "cuDriverGetVersion: 13000");
	check(cudaDriverGetVersion(&v) == cudaSuccess && v == 0, "cudaDriverGetVersion: 0");
	check(cudaDriverGetVersion(NULL) == cudaErrorInvalidValue, "cudaDriverGetVersion(NULL)");
	check(cudaRuntimeGetVersion(&v) == cudaSuccess && v == CUDART_VERSION,
	      "cudaRuntimeGetVersion: 13000");
	check(cudaRuntimeGetVersion(NULL) == cudaErrorInvalidValue, "cudaRuntimeGetVersion(NULL)");
	check(!strcmp(cudaGetErrorName(cudaErrorInsufficientDriver), "cudaErrorInsufficientDriver"),
	      "cudaGetErrorName(35)");
	check(!strcmp(cudaGetErrorName(cudaErrorNoDevice), "cudaErrorNoDevice"),
	      "cudaGetErrorName(100)");
	check(!strcmp(cudaGetErrorString((cudaError_t)12345), "unrecognized error code") &&
	      !strcmp(cudaGetErrorName((cudaError_t)-1), "unrecognized error code"),
	      "unknown codes: \"unrecognized error code\"");

	printf("1..%d\n", test_num);
	return failures ? 1 : 0;
}
