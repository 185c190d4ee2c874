// SPDX-License-Identifier: MIT
/*
 * dropin_cu.c - a driver-API program built against the toolkit's cuda.h and
 * linked against its stub libcuda.so (SONAME libcuda.so.1), as programs
 * that call the driver are. tests/abi/run runs it with LD_LIBRARY_PATH
 * naming libuvm's drop-in directory and compares its output with
 * dropin_cu.expected: without the uvm module cuInit answers
 * CUDA_ERROR_NOT_INITIALIZED, every later call too, and cuDriverGetVersion
 * 13000 (docs/libuvm.md, "The driver API"). "dropin_cu which" prints the
 * file that defines cuInit and whether libuvm's native API is loaded.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdio.h>
#include <string.h>
#include <cuda.h>

static void show(const char *what, CUresult r)
{
	const char *name = NULL;

	cuGetErrorName(r, &name);
	printf("%s: %d %s\n", what, (int)r, name ? name : "(null)");
}

static int which(void)
{
	Dl_info info;

	if (!dladdr((void *)cuInit, &info) || !info.dli_fname)
		return 1;
	printf("%s\n", info.dli_fname);
	printf("uvm_open: %s\n", dlsym(RTLD_DEFAULT, "uvm_open") ? "loaded" : "absent");
	return 0;
}

int main(int argc, char **argv)
{
	CUdeviceptr p = 0;
	CUstream s = NULL;
	int n = -7, v = -7;

	if (argc > 1 && !strcmp(argv[1], "which"))
		return which();
	show("cuDriverGetVersion", cuDriverGetVersion(&v));
	printf("driver version: %d\n", v);
	show("cuDeviceGetCount before cuInit", cuDeviceGetCount(&n));
	show("cuInit", cuInit(0));
	show("cuDeviceGetCount", cuDeviceGetCount(&n));
	printf("count untouched: %d\n", n);
	show("cuMemAlloc", cuMemAlloc(&p, 4096));
	show("cuStreamCreate", cuStreamCreate(&s, 0));
	show("cuMemAllocAsync", cuMemAllocAsync(&p, 4096, s));
	printf("pointer untouched: %d\n", p == 0);
	return 0;
}
