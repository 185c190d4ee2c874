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
	printf("name(-1)=%s\n", cudaGetErrorName((cudaError_t)-1));
	printf("string(-1)=%s\n", cudaGetErrorString((cudaError_t)-1));
	printf("string(35)=%s\n", cudaGetErrorString(cudaErrorInsufficientDriver));
	printf("string(100)=%s\n", cudaGetErrorString(cudaErrorNoDevice));
	return 0;
}
