// SPDX-License-Identifier: GPL-2.0
/*
 * uvm_costs.cu - measure, on a real GPU with NVIDIA's driver, the figures
 * uvm-exp's cost model prices counts with (docs/experiments.md, "Modelled
 * time"). Plain, small allocations (at most 256 MiB of managed memory).
 *
 *   nvcc -O2 -arch=sm_90 -o uvm_costs uvm_costs.cu && ./uvm_costs
 *
 * Prints one line per figure, "name value unit  how", medians of 5 runs.
 */
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

#include <cuda_runtime.h>

#define CK(x) do { cudaError_t e_ = (x); if (e_) { \
	fprintf(stderr, "%s:%d %s: %s\n", __FILE__, __LINE__, #x, \
		cudaGetErrorString(e_)); exit(1); } } while (0)

static const size_t MIB = 1 << 20, PAGE = 4096;
static const int REPS = 5;

static double now(void)
{
	return std::chrono::duration<double>(
		std::chrono::steady_clock::now().time_since_epoch()).count();
}

static double median(std::vector<double> v)
{
	std::sort(v.begin(), v.end());
	return v[v.size() / 2];
}

static cudaMemLocation dev_loc(void)
{
	cudaMemLocation l = {};
	l.type = cudaMemLocationTypeDevice;
	l.id = 0;
	return l;
}

static cudaMemLocation host_loc(void)
{
	cudaMemLocation l = {};
	l.type = cudaMemLocationTypeHost;
	l.id = 0;
	return l;
}

/* One thread, dependent loads: each waits for its own fault. */
__global__ void serial_touch(volatile char *p, size_t stride, size_t n, long long *sink)
{
	long long s = 0;

	for (size_t i = 0; i < n; i++)
		s += p[i * stride + (s & 1)];
	*sink = s;
}

/* One warp per 64 bytes of every page, all at once: batched faults. */
__global__ void page_touch(char *p, size_t pages, int write)
{
	size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x;

	if (i >= pages)
		return;
	if (write)
		p[i * PAGE] = 1;
	else if (((volatile char *)p)[i * PAGE] == 123)
		p[i * PAGE + 1] = 0;
}

/* Thread i reads the first byte of p + i * stride: @k faults at once. */
__global__ void strided_touch(char *p, size_t stride, size_t k)
{
	size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x;

	if (i < k && ((volatile char *)p)[i * stride] == 123)
		p[i * stride + 1] = 0;
}

/* Every 64-byte granule of the range, coalesced. */
__global__ void stream_touch(char *p, size_t bytes)
{
	size_t i = (blockIdx.x * (size_t)blockDim.x + threadIdx.x) * 64;

	if (i < bytes)
		((volatile char *)p)[i];
}

static void host_fill(char *p, size_t bytes)
{
	memset(p, 7, bytes);
}

static double prefetch_s(char *p, size_t bytes, cudaMemLocation to)
{
	double t0;

	CK(cudaDeviceSynchronize());
	t0 = now();
	CK(cudaMemPrefetchAsync(p, bytes, to, 0, 0));
	CK(cudaDeviceSynchronize());
	return now() - t0;
}

static double kernel_s(void (*launch)(char *, size_t), char *p, size_t arg)
{
	double t0;

	CK(cudaDeviceSynchronize());
	t0 = now();
	launch(p, arg);
	CK(cudaGetLastError());
	CK(cudaDeviceSynchronize());
	return now() - t0;
}

static long long *sink;

static void launch_serial_blocks(char *p, size_t n)
{
	serial_touch<<<1, 1>>>(p, 2 * MIB, n, sink);
}

static void launch_serial_pages(char *p, size_t n)
{
	serial_touch<<<1, 1>>>(p, 64 * 1024, n, sink);
}

static void launch_pages_read(char *p, size_t pages)
{
	page_touch<<<(pages + 255) / 256, 256>>>(p, pages, 0);
}

static void launch_stream(char *p, size_t bytes)
{
	stream_touch<<<(bytes / 64 + 255) / 256, 256>>>(p, bytes);
}

static size_t g_stride;

static void launch_strided(char *p, size_t k)
{
	strided_touch<<<(k + 127) / 128, 128>>>(p, g_stride, k);
}

/* Median seconds of a kernel of @k simultaneous faults @stride apart. */
static double batch_s(char *p, size_t bytes, size_t stride, size_t k)
{
	std::vector<double> v;
	int r;

	g_stride = stride;
	for (r = 0; r < REPS; r++) {
		host_fill(p, bytes);
		CK(cudaMemPrefetchAsync(p, bytes, host_loc(), 0, 0));
		v.push_back(kernel_s(launch_strided, p, k));
	}
	return median(v);
}

/* Median seconds of @n prefetches of @chunk each, device to host. */
static double chunk_d2h_s(char *p, size_t chunk, size_t n)
{
	std::vector<double> v;
	double t0;
	size_t i;
	int r;

	for (r = 0; r < REPS; r++) {
		CK(cudaMemPrefetchAsync(p, chunk * n, dev_loc(), 0, 0));
		CK(cudaDeviceSynchronize());
		t0 = now();
		for (i = 0; i < n; i++)
			CK(cudaMemPrefetchAsync(p + i * chunk, chunk, host_loc(), 0, 0));
		CK(cudaDeviceSynchronize());
		v.push_back(now() - t0);
	}
	return median(v);
}

/* Median seconds per CPU fault, one read per @stride of device-resident data. */
static double cpu_fault_s(char *p, size_t bytes, size_t stride)
{
	std::vector<double> v;
	volatile char *q = p;
	double t0;
	size_t i;
	int r;

	for (r = 0; r < REPS; r++) {
		CK(cudaMemPrefetchAsync(p, bytes, dev_loc(), 0, 0));
		CK(cudaDeviceSynchronize());
		t0 = now();
		for (i = 0; i < bytes; i += stride)
			q[i];
		v.push_back((now() - t0) / (bytes / stride));
	}
	return median(v);
}

static void batch_fit(char *p, size_t bytes, double floor_s)
{
	static const size_t ks[] = { 1, 4, 16, 64, 128 };
	size_t i;

	for (i = 0; i < sizeof(ks) / sizeof(ks[0]); i++)
		printf("batch_2m_k%zu_us %.1f us  %zu simultaneous faults, one per 2 MiB block\n",
		       ks[i], (batch_s(p, bytes, 2 * MIB, ks[i]) - floor_s) * 1e6, ks[i]);
	for (i = 0; i < sizeof(ks) / sizeof(ks[0]); i++)
		printf("batch_4k_k%zu_us %.1f us  %zu simultaneous faults on adjacent 4 KiB pages\n",
		       ks[i] * 4, (batch_s(p, bytes, PAGE, ks[i] * 4) - floor_s) * 1e6, ks[i] * 4);
}

int main(void)
{
	const size_t big = 256 * MIB, pages = big / PAGE;
	std::vector<double> h2d, d2h, blk, pg64, fault_rd, fault_stream, cpu, noop;
	size_t free_b, total_b;
	cudaDeviceProp prop;
	char *p;
	int r;

	CK(cudaGetDeviceProperties(&prop, 0));
	CK(cudaMemGetInfo(&free_b, &total_b));
	if (free_b < 4 * big) {
		fprintf(stderr, "only %zu MiB free: not measuring\n", free_b >> 20);
		return 1;
	}
	printf("# %s, %zu MiB free of %zu\n", prop.name, free_b >> 20, total_b >> 20);
	CK(cudaMalloc(&sink, sizeof(*sink)));
	CK(cudaMallocManaged(&p, big));
	for (r = 0; r < REPS; r++) {
		host_fill(p, big);
		h2d.push_back(prefetch_s(p, big, dev_loc()));
		d2h.push_back(prefetch_s(p, big, host_loc()));
		/* The kernel-launch floor, data resident. */
		CK(cudaMemPrefetchAsync(p, big, dev_loc(), 0, 0));
		noop.push_back(kernel_s(launch_serial_blocks, p, 1));
		/* Serial faults, one per 2 MiB block: a batch of one each. */
		host_fill(p, big);
		CK(cudaMemPrefetchAsync(p, big, host_loc(), 0, 0));
		blk.push_back(kernel_s(launch_serial_blocks, p, big / (2 * MIB)));
		/* Serial faults 64 KiB apart, within blocks. */
		host_fill(p, big);
		CK(cudaMemPrefetchAsync(p, big, host_loc(), 0, 0));
		pg64.push_back(kernel_s(launch_serial_pages, p, big / (64 * 1024)));
		/* Every page at once, a read each: batched faults. */
		host_fill(p, big);
		CK(cudaMemPrefetchAsync(p, big, host_loc(), 0, 0));
		fault_rd.push_back(kernel_s(launch_pages_read, p, pages));
		/* Streaming every granule: faults as a streaming kernel takes them. */
		host_fill(p, big);
		CK(cudaMemPrefetchAsync(p, big, host_loc(), 0, 0));
		fault_stream.push_back(kernel_s(launch_stream, p, big));
		/* CPU faults on device-resident data, one per 4 KiB page. */
		CK(cudaMemPrefetchAsync(p, big, dev_loc(), 0, 0));
		CK(cudaDeviceSynchronize());
		{
			double t0 = now();
			volatile char *q = p;
			size_t i;

			for (i = 0; i < big; i += PAGE)
				q[i];
			cpu.push_back(now() - t0);
		}
	}
	printf("h2d_prefetch_GBps %.2f GB/s  cudaMemPrefetchAsync of 256 MiB host->device\n",
	       big / median(h2d) / 1e9);
	printf("d2h_prefetch_GBps %.2f GB/s  cudaMemPrefetchAsync of 256 MiB device->host\n",
	       big / median(d2h) / 1e9);
	printf("launch_floor_us %.1f us  a 1-thread kernel on resident data\n",
	       median(noop) * 1e6);
	printf("serial_fault_block_us %.1f us  per fault, one thread, one page per 2 MiB block (128 faults)\n",
	       (median(blk) - median(noop)) / (big / (2 * MIB)) * 1e6);
	printf("serial_fault_64k_us %.1f us  per fault, one thread, one every 64 KiB (4096 faults)\n",
	       (median(pg64) - median(noop)) / (big / (64 * 1024)) * 1e6);
	printf("batched_fault_page_us %.3f us  per 4 KiB page, all 65536 pages read at once\n",
	       (median(fault_rd) - median(noop)) / pages * 1e6);
	printf("stream_fault_GBps %.2f GB/s  a coalesced streaming read of 256 MiB from host\n",
	       big / (median(fault_stream) - median(noop)) / 1e9);
	printf("cpu_fault_page_us %.2f us  per 4 KiB page, CPU reads of device-resident data\n",
	       median(cpu) / pages * 1e6);
	batch_fit(p, big, median(noop));
	printf("d2h_chunk_2m_us %.1f us  per 2 MiB prefetch device->host, 128 in a row\n",
	       chunk_d2h_s(p, 2 * MIB, 128) / 128 * 1e6);
	printf("d2h_chunk_64k_us %.1f us  per 64 KiB prefetch device->host, 1024 in a row\n",
	       chunk_d2h_s(p, 64 * 1024, 1024) / 1024 * 1e6);
	printf("cpu_fault_2m_us %.2f us  per CPU fault, one read per 2 MiB of device-resident data\n",
	       cpu_fault_s(p, big, 2 * MIB) * 1e6);
	printf("cpu_fault_64k_us %.2f us  per CPU fault, one read per 64 KiB\n",
	       cpu_fault_s(p, big, 64 * 1024) * 1e6);
	CK(cudaFree(p));
	CK(cudaFree(sink));
	return 0;
}
