// SPDX-License-Identifier: GPL-2.0
/*
 * prefetch_prot.cu - on a real GPU with NVIDIA's driver: after
 * cudaMemPrefetchAsync to the host, are the pages mapped in the CPU page
 * table, and writable? Counts the process's minor faults (ru_minflt) over a
 * read pass and then two write passes (one store per 4 KiB page) of 16 MiB
 * of managed memory; a control range without a prefetch shows that the
 * count sees the driver's faults. docs/reliability.md ("Open") has the
 * answer of driver 580 (H200 and H100): mapped and writable, no fault.
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

/* Minor faults of a read pass, then of two write passes, over [p, p+len). */
static void passes(char *p, size_t len, long faults[3])
{
	volatile long s = 0;
	long f = minflt(), g;

	for (int pass = 0; pass < 3; pass++) {
		for (size_t i = 0; i < len; i += 4096) {
			if (pass)
				p[i] = (char)pass;
			else
				s += p[i];
		}
		g = minflt();
		faults[pass] = g - f;
		f = g;
	}
}

/*
 * Data written by the CPU and prefetched to the device (or written by a
 * GPU kernel, @gpu_first), then prefetched to the host.
 */
static void run(const char *what, size_t len, int gpu_first)
{
	cudaMemLocation host = {}, dev = {};
	cudaError_t e;
	long f[3];
	char *p;

	host.type = cudaMemLocationTypeHost;
	dev.type = cudaMemLocationTypeDevice;
	cudaMallocManaged(&p, len);
	if (gpu_first) {
		touch<<<(len / 4096 + 255) / 256, 256>>>(p, len);
	} else {
		memset(p, 1, len);
		cudaMemPrefetchAsync(p, len, dev, 0, 0);
	}
	cudaDeviceSynchronize();
	e = cudaMemPrefetchAsync(p, len, host, 0, 0);
	cudaDeviceSynchronize();
	passes(p, len, f);
	printf("%s: prefetch %s; pages %zu; read faults %ld; first write faults %ld; second write faults %ld\n",
	       what, cudaGetErrorString(e), len / 4096, f[0], f[1], f[2]);
	cudaFree(p);
}

/* Control: a fresh range, no prefetch: the CPU's first touch faults. */
static void control(size_t len)
{
	long f[3];
	char *p;

	cudaMallocManaged(&p, len);
	passes(p, len, f);
	printf("control, no prefetch: pages %zu; read faults %ld; first write faults %ld; second write faults %ld\n",
	       len / 4096, f[0], f[1], f[2]);
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
