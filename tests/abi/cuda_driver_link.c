// SPDX-License-Identifier: MIT
/*
 * cuda_driver_link.c - a driver-API program: built against NVIDIA's cuda.h
 * (with and without CUDA_API_PER_THREAD_DEFAULT_STREAM) it must link
 * against libuvm with no undefined symbol. Without the module it prints
 * cuInit's answer and stops; tests/kselftest/cuda_driver_test.c runs the
 * same calls against the module.
 */
#include <stdio.h>
#include <cuda.h>

int main(void)
{
	CUdevice dev;
	CUcontext ctx;
	CUdeviceptr d;
	CUstream s;
	CUevent e0, e1;
	CUmodule m;
	CUfunction f;
	CUuuid u;
	char name[64];
	size_t tot;
	int n, v, act;
	unsigned int fl;
	float ms;
	const char *str;
	CUresult r = cuInit(0);

	cuGetErrorName(r, &str);
	printf("cuInit: %s\n", str);
	if (r)
		return 0;
	cuDriverGetVersion(&v);
	cuDeviceGetCount(&n);
	cuDeviceGet(&dev, 0);
	cuDeviceGetName(name, sizeof(name), dev);
	cuDeviceGetUuid(&u, dev);
	cuDeviceGetPCIBusId(name, sizeof(name), dev);
	cuDeviceTotalMem(&tot, dev);
	cuDeviceGetAttribute(&v, CU_DEVICE_ATTRIBUTE_WARP_SIZE, dev);
	cuDevicePrimaryCtxRetain(&ctx, dev);
	cuDevicePrimaryCtxGetState(dev, &fl, &act);
	cuDevicePrimaryCtxSetFlags(dev, 0);
	cuDevicePrimaryCtxRelease(dev);
	cuDevicePrimaryCtxReset(dev);
	cuCtxCreate(&ctx, NULL, 0, dev);
	cuCtxPushCurrent(ctx);
	cuCtxPopCurrent(&ctx);
	cuCtxSetCurrent(ctx);
	cuCtxGetCurrent(&ctx);
	cuCtxGetDevice(&dev);
	cuCtxGetFlags(&fl);
	cuCtxSynchronize();
	cuMemAlloc(&d, 4096);
	cuMemsetD8(d, 1, 4096);
	cuMemsetD16(d, 1, 8);
	cuMemsetD32(d, 1, 8);
	cuMemcpyHtoD(d, name, 64);
	cuMemcpyDtoH(name, d, 64);
	cuMemcpyDtoD(d + 64, d, 64);
	cuMemcpy(d, d + 128, 8);
	cuStreamCreate(&s, 0);
	cuEventCreate(&e0, 0);
	cuEventCreate(&e1, 0);
	cuEventRecord(e0, s);
	cuMemcpyHtoDAsync(d, name, 64, s);
	cuMemcpyDtoHAsync(name, d, 64, s);
	cuMemcpyDtoDAsync(d + 64, d, 8, s);
	cuMemcpyAsync(d, d + 128, 8, s);
	cuMemsetD8Async(d, 0, 8, s);
	cuMemsetD16Async(d, 0, 8, s);
	cuMemsetD32Async(d, 0, 8, s);
	cuEventRecord(e1, s);
	cuEventSynchronize(e1);
	cuEventQuery(e1);
	cuEventElapsedTime(&ms, e0, e1);
	cuStreamQuery(s);
	cuStreamSynchronize(s);
	cuModuleLoad(&m, "k.cubin");
	cuModuleGetFunction(&f, m, "k");
	cuLaunchKernel(f, 1, 1, 1, 1, 1, 1, 0, s, NULL, NULL);
	cuModuleUnload(m);
	cuEventDestroy(e0);
	cuEventDestroy(e1);
	cuStreamDestroy(s);
	cuMemFree(d);
	cuMemGetInfo(&tot, &tot);
	cuDeviceCanAccessPeer(&v, 0, 0);
	cuCtxEnablePeerAccess(ctx, 0);
	cuCtxDisablePeerAccess(ctx);
	cuCtxDestroy(ctx);
	cuGetErrorString(r, &str);
	printf("%s\n", str);
	return 0;
}
