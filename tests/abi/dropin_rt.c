// SPDX-License-Identifier: MIT
/*
 * dropin_rt.c - a CUDA runtime program built as nvcc builds one: compiled
 * against the toolkit's headers, linked against NVIDIA's libcudart.so.13
 * (-lcudart, shared, no rpath). tests/abi/run runs the same binary twice,
 * LD_LIBRARY_PATH naming NVIDIA's lib64 and then libuvm's drop-in
 * directory: without a driver and without the uvm module both must print
 * the same lines. "dropin_rt which" prints the file that defines
 * cudaGetDeviceCount and whether libuvm's native API is loaded, so the
 * test knows which library the program really ran on.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdio.h>
#include <string.h>
#include <cuda_runtime_api.h>
#include <cuda_profiler_api.h>

static void show(const char *what, cudaError_t e)
{
	printf("%s: %d %s\n", what, (int)e, cudaGetErrorName(e));
}

static void host_fn(void *arg)
{
	(void)arg;
}

static void CUDART_CB stream_cb(cudaStream_t s, cudaError_t st, void *arg)
{
	(void)s;
	(void)st;
	(void)arg;
}

static int which(void)
{
	Dl_info info;

	if (!dladdr((void *)cudaGetDeviceCount, &info) || !info.dli_fname)
		return 1;
	printf("%s\n", info.dli_fname);
	printf("uvm_open: %s\n", dlsym(RTLD_DEFAULT, "uvm_open") ? "loaded" : "absent");
	return 0;
}

/* Calls libuvm added for real programs: what they answer without a driver. */
static void newer_calls(void)
{
	struct cudaChannelFormatDesc d = cudaCreateChannelDesc(32, 0, 0, 0, cudaChannelFormatKindFloat);
	cudaMemPool_t pool = NULL;
	unsigned int flags = 7;
	void *p = (void *)0x1;
	int lo = 7, hi = 7, v = 7;

	printf("channel desc: %d %d %d %d %d\n", d.x, d.y, d.z, d.w, (int)d.f);
	show("cudaSetDeviceFlags(MapHost)", cudaSetDeviceFlags(cudaDeviceMapHost));
	show("cudaGetDeviceFlags", cudaGetDeviceFlags(&flags));
	printf("flags: %u\n", flags);
	show("cudaDeviceGetP2PAttribute", cudaDeviceGetP2PAttribute(&v, cudaDevP2PAttrAccessSupported, 0, 1));
	show("cudaDeviceGetStreamPriorityRange", cudaDeviceGetStreamPriorityRange(&lo, &hi));
	show("cudaMallocAsync", cudaMallocAsync(&p, 4096, 0));
	printf("pointer untouched: %d\n", p == (void *)0x1);
	show("cudaFreeAsync", cudaFreeAsync(p, 0));
	show("cudaDeviceGetDefaultMemPool", cudaDeviceGetDefaultMemPool(&pool, 0));
	show("cudaLaunchHostFunc", cudaLaunchHostFunc(0, host_fn, NULL));
	show("cudaStreamAddCallback", cudaStreamAddCallback(0, stream_cb, NULL, 0));
	show("cudaDeviceReset", cudaDeviceReset());
	show("cudaProfilerStart", cudaProfilerStart());
	show("cudaProfilerStop", cudaProfilerStop());
}

int main(int argc, char **argv)
{
	int n = -7, v = -7;

	if (argc > 1 && !strcmp(argv[1], "which"))
		return which();
	show("cudaGetDeviceCount", cudaGetDeviceCount(&n));
	printf("count untouched: %d\n", n);
	show("cudaGetLastError", cudaGetLastError());
	show("cudaDriverGetVersion", cudaDriverGetVersion(&v));
	printf("driver version: %d\n", v);
	show("cudaRuntimeGetVersion", cudaRuntimeGetVersion(&v));
	printf("runtime version: %d\n", v);
	printf("%s\n", cudaGetErrorString(cudaErrorInsufficientDriver));
	newer_calls();
	show("cudaPeekAtLastError", cudaPeekAtLastError());
	return 0;
}
