// SPDX-License-Identifier: MIT
/*
 * cuda_link.c - a plain CUDA runtime program. tests/abi/run compiles it
 * against the CUDA toolkit's cuda_runtime_api.h (no include/uvm) and links
 * it against libuvm.so, and also links the same source against the real
 * libcudart.so.13. On a machine with neither the NVIDIA driver nor the uvm
 * module both must print exactly the same lines.
 */
#include <stdio.h>
#include <string.h>
#include <cuda_runtime_api.h>

static void show(const char *what, cudaError_t e)
{
	printf("%s: %d %s\n", what, (int)e, cudaGetErrorName(e));
}

/* Tier B/C calls: what a program sees from them without a driver. */
static void tier_b(void)
{
	struct cudaChannelFormatDesc desc = { 32, 0, 0, 0, cudaChannelFormatKindFloat };
	struct cudaPointerAttributes pa;
	static char host[4096], other[4096];
	void *p = (void *)0x1, *q = NULL;
	size_t pitch = 7, fr = 7, tot = 7;
	unsigned int flags = 7;
	cudaArray_t arr = NULL;

	show("cudaMalloc", cudaMalloc(&p, 4096));
	printf("cudaMalloc pointer untouched: %d\n", p == (void *)0x1);
	show("cudaMalloc(NULL)", cudaMalloc(NULL, 4096));
	show("cudaMalloc(size 0)", cudaMalloc(&q, 0));
	show("cudaMallocPitch", cudaMallocPitch(&p, &pitch, 100, 10));
	printf("pitch untouched: %zu\n", pitch);
	show("cudaFree(NULL)", cudaFree(NULL));
	show("cudaFree(host)", cudaFree(host));
	show("cudaMallocHost", cudaMallocHost(&p, 4096));
	show("cudaHostAlloc(bad flags)", cudaHostAlloc(&p, 4096, 0x100));
	show("cudaFreeHost(NULL)", cudaFreeHost(NULL));
	show("cudaHostRegister", cudaHostRegister(host, sizeof(host), 0));
	show("cudaHostUnregister", cudaHostUnregister(host));
	show("cudaHostGetFlags", cudaHostGetFlags(&flags, host));
	show("cudaMemGetInfo", cudaMemGetInfo(&fr, &tot));
	printf("meminfo untouched: %zu %zu\n", fr, tot);
	show("cudaMemcpy(HostToHost)", cudaMemcpy(other, host, 16, cudaMemcpyHostToHost));
	show("cudaMemcpy(bad kind)", cudaMemcpy(other, host, 16, (enum cudaMemcpyKind)9));
	show("cudaMemcpyAsync", cudaMemcpyAsync(other, host, 16, cudaMemcpyDefault, 0));
	show("cudaMemset", cudaMemset(host, 0, 16));
	show("cudaPointerGetAttributes", cudaPointerGetAttributes(&pa, host));
	show("cudaMallocArray", cudaMallocArray(&arr, &desc, 16, 16, 0));
	show("cudaGetSymbolAddress", cudaGetSymbolAddress(&p, host));
	show("cudaGetLastError", cudaGetLastError());
}

int main(void)
{
	struct cudaDeviceProp prop;
	char bus[32];
	int n = -7, v = -7, d = -7;
	cudaError_t e;

	e = cudaGetDeviceCount(&n);
	show("cudaGetDeviceCount", e);
	if (e != cudaSuccess)
		printf("count untouched: %d\n", n);
	show("cudaPeekAtLastError", cudaPeekAtLastError());
	show("cudaGetLastError", cudaGetLastError());
	show("cudaGetLastError again", cudaGetLastError());
	show("cudaGetDeviceCount(NULL)", cudaGetDeviceCount(NULL));
	e = cudaGetDevice(&d);
	show("cudaGetDevice", e);
	show("cudaSetDevice(0)", cudaSetDevice(0));
	show("cudaSetDevice(1000)", cudaSetDevice(1000));
	show("cudaSetDevice(-1)", cudaSetDevice(-1));
	show("cudaGetDeviceProperties(0)", cudaGetDeviceProperties(&prop, 0));
	show("cudaGetDeviceProperties(1000)", cudaGetDeviceProperties(&prop, 1000));
	show("cudaDeviceGetAttribute(ManagedMemory)",
	     cudaDeviceGetAttribute(&v, cudaDevAttrManagedMemory, 0));
	show("cudaDeviceGetAttribute(NULL)",
	     cudaDeviceGetAttribute(NULL, cudaDevAttrManagedMemory, 0));
	show("cudaDeviceGetAttribute(9999)", cudaDeviceGetAttribute(&v, (enum cudaDeviceAttr)9999, 0));
	show("cudaDeviceGetPCIBusId", cudaDeviceGetPCIBusId(bus, sizeof(bus), 0));
	e = cudaDriverGetVersion(&v);
	show("cudaDriverGetVersion", e);
	if (e == cudaSuccess && n <= 0)
		printf("driver version without devices: %d\n", v);
	show("cudaDriverGetVersion(NULL)", cudaDriverGetVersion(NULL));
	e = cudaRuntimeGetVersion(&v);
	show("cudaRuntimeGetVersion", e);
	printf("runtime version: %d\n", v);
	show("cudaRuntimeGetVersion(NULL)", cudaRuntimeGetVersion(NULL));
	show("cudaPeekAtLastError", cudaPeekAtLastError());
	show("cudaGetLastError", cudaGetLastError());
	tier_b();
	printf("name(-1)=%s\n", cudaGetErrorName((cudaError_t)-1));
	printf("string(-1)=%s\n", cudaGetErrorString((cudaError_t)-1));
	printf("string(35)=%s\n", cudaGetErrorString(cudaErrorInsufficientDriver));
	printf("string(100)=%s\n", cudaGetErrorString(cudaErrorNoDevice));
	return 0;
}
