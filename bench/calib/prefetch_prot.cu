// SPDX-License-Identifier: GPL-2.0
/*
 * prefetch_prot.cu - on a real GPU with NVIDIA's driver: after
 * cudaMemPrefetchAsync to the host, are the pages mapped in the CPU page
 * table, and writable? Counts the process's minor faults (ru_minflt) over a
 * read pass and then two write passes (one store per 4 KiB page) of 16 MiB
 * of managed memory; a control range without a prefetch shows that the
 * count sees the driver's faults. docs/reliability.md ("Open") has the
 * answer of driver 580 (H200): mapped and writable, no fault at all.
 *
 *   nvcc -O2 -arch=sm_90 -o prefetch_prot prefetch_prot.cu && ./prefetch_prot
 */
#include <cstdio>
#include <cstring>
#include <sys/resource.h>
#include <cuda_runtime.h>

static long minflt(void)
{
	struct rusage ru;
	getrusage(RUSAGE_SELF, &ru);
	return ru.ru_minflt;
}

__global__ void touch(char *p, size_t n)
{
	size_t i = (blockIdx.x * (size_t)blockDim.x + threadIdx.x) * 4096;
	if (i < n)
		p[i] = 1;
}

static void run(const char *what, size_t len, int gpu_first)
{
	char *p;
	cudaMallocManaged(&p, len);
	if (gpu_first) {
		touch<<<(len / 4096 + 255) / 256, 256>>>(p, len);
		cudaDeviceSynchronize();
	} else {
		memset(p, 1, len);
	}
	cudaMemLocation loc = {};
	loc.type = cudaMemLocationTypeHost;
	if (!gpu_first) {
		cudaMemLocation d = {};
		d.type = cudaMemLocationTypeDevice; d.id = 0;
		cudaMemPrefetchAsync(p, len, d, 0, 0);
		cudaDeviceSynchronize();
	}
	cudaError_t e = cudaMemPrefetchAsync(p, len, loc, 0, 0);
	cudaDeviceSynchronize();
	long f0 = minflt();
	volatile long s = 0;
	for (size_t i = 0; i < len; i += 4096)
		s += p[i];
	long f1 = minflt();
	for (size_t i = 0; i < len; i += 4096)
		p[i] = 2;
	long f2 = minflt();
	for (size_t i = 0; i < len; i += 4096)
		p[i] = 3;
	long f3 = minflt();
	printf("%s: prefetch %s; pages %zu; read faults %ld; first write faults %ld; second write faults %ld\n",
	       what, cudaGetErrorString(e), len / 4096, f1 - f0, f2 - f1, f3 - f2);
	cudaFree(p);
}

/* Control: a fresh range, no prefetch: the CPU's first touch faults. */
static void control(size_t len)
{
	char *p;
	cudaMallocManaged(&p, len);
	long f0 = minflt();
	volatile long s = 0;
	for (size_t i = 0; i < len; i += 4096)
		s += p[i];
	long f1 = minflt();
	for (size_t i = 0; i < len; i += 4096)
		p[i] = 2;
	long f2 = minflt();
	printf("control, no prefetch: pages %zu; read faults %ld; first write faults %ld\n",
	       len / 4096, f1 - f0, f2 - f1);
	cudaFree(p);
}

int main(void)
{
	cudaFree(0);
	control(16 << 20);
	run("cpu-written, to device, prefetch to host", 16 << 20, 0);
	run("gpu-written, prefetch to host", 16 << 20, 1);
	run("cpu-written, to device, prefetch to host (2)", 16 << 20, 0);
	return 0;
}
