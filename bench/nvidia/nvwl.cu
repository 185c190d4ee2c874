// SPDX-License-Identifier: MIT
/*
 * nvwl.cu - reference workloads as real CUDA programs, to be recorded on a
 * GPU with NVIDIA's own driver (`uvm-trace record-nvidia -- nvwl CASE`,
 * docs/fidelity.md). One program, one case a run:
 *
 *   nvwl CASE [--size BYTES] [--iters N] [--seed S] [--resident]
 *   nvwl list
 *
 * The basic cases (128 MiB unless --size): a GPU sweep after CPU
 * initialisation, prefetch then sweep, a CPU pass after the GPU's,
 * read-mostly reads, GPU first touch, a CPU/GPU ping-pong on a few pages,
 * preferred location CPU with accessed-by GPU; and, on a host of two GPUs,
 * a peer case (GPU 0 then GPU 1 on the same data). The uvm-exp workloads
 * (tools/exp/wl_*.c; 32 MiB and 3 iterations, as uvm-exp run's defaults):
 * the same names, arrays, sizes and access shapes, as __global__ kernels.
 * Their random indices come from a generator of the same kind (a 64-bit
 * mixer per element), not the same numbers.
 *
 * Each run checks its result (on the GPU where the data ends there, so
 * that no CPU pass is added to the recording) and prints one JSON line: the case, its
 * managed bytes, and each kernel's time (CUDA events; the recorder adds
 * its own cost to fault-driven kernels). Managed memory stays at or under
 * 2 GiB, and under what the GPU has free.
 *
 * --resident: before each timed kernel, every managed allocation is
 * prefetched to GPU 0 (untimed), so the kernel runs on resident data and
 * its time is its own work, without faults or migrations: the cost
 * model's "own work" term of each kernel (docs/fidelity.md). The case's
 * results are checked as usual; `peer` refuses it (two GPUs).
 */
#include <cuda_runtime.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define MIB		(1024ULL * 1024)
#define MAX_MANAGED	(2048 * MIB)
#define MAX_KERNELS	64
#define MAX_ALLOCS	16

struct run {
	const char *name;
	size_t size;
	unsigned int iters;
	uint64_t seed;
	size_t managed;
	int resident;
	unsigned int na;
	struct { void *p; size_t bytes; } a[MAX_ALLOCS];
	unsigned int nk;
	struct { const char *name; float ms; } k[MAX_KERNELS];
	cudaEvent_t e0, e1;
};

#define CK(x) do {							\
	cudaError_t err_ = (x);						\
	if (err_ != cudaSuccess) {					\
		fprintf(stderr, "nvwl: %s:%d: %s: %s\n", __FILE__, __LINE__,	\
			#x, cudaGetErrorString(err_));			\
		exit(1);						\
	}								\
} while (0)

static void *managed(struct run *r, size_t bytes)
{
	size_t free_b, total_b;
	void *p;

	CK(cudaMemGetInfo(&free_b, &total_b));
	if (r->managed + bytes > MAX_MANAGED || bytes > free_b / 2) {
		fprintf(stderr, "nvwl: %zu bytes of managed memory: over the 2 GiB bound or "
			"half the GPU's free %zu\n", r->managed + bytes, free_b);
		exit(1);
	}
	CK(cudaMallocManaged(&p, bytes, cudaMemAttachGlobal));
	r->managed += bytes;
	if (r->na < MAX_ALLOCS) {
		r->a[r->na].p = p;
		r->a[r->na].bytes = bytes;
		r->na++;
	}
	return p;
}

/* --resident: every managed allocation onto GPU 0 before the timed kernel. */
static void make_resident(struct run *r)
{
	cudaMemLocation dev = { cudaMemLocationTypeDevice, 0 };
	unsigned int i;

	for (i = 0; i < r->na; i++)
		CK(cudaMemPrefetchAsync(r->a[i].p, r->a[i].bytes, dev, 0, 0));
	CK(cudaDeviceSynchronize());
}

static void timed_begin(struct run *r)
{
	if (r->resident)
		make_resident(r);
	CK(cudaEventRecord(r->e0, 0));
}

static void timed_end(struct run *r, const char *name)
{
	CK(cudaGetLastError());
	CK(cudaEventRecord(r->e1, 0));
	CK(cudaEventSynchronize(r->e1));
	if (r->nk < MAX_KERNELS) {
		r->k[r->nk].name = name;
		CK(cudaEventElapsedTime(&r->k[r->nk].ms, r->e0, r->e1));
		r->nk++;
	}
}

static int fail(const char *what, size_t i, double got, double want)
{
	fprintf(stderr, "nvwl: %s: element %zu is %g, want %g\n", what, i, got, want);
	return 1;
}

__host__ __device__ static uint64_t mix64(uint64_t x)
{
	x += 0x9e3779b97f4a7c15ULL;
	x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
	x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
	return x ^ (x >> 31);
}

/* Zipf(0.99)-like rank in [0, n): the continuous inverse, rank 0 hottest. */
__host__ __device__ static size_t zipf_rank(uint64_t h, size_t n)
{
	double u = (double)(h >> 11) / 9007199254740992.0;
	double r = pow(u * pow((double)n, 0.01), 100.0);
	size_t k = (size_t)r;

	return k < n ? k : n - 1;
}

static unsigned int blocks(size_t n)
{
	size_t b = (n + 255) / 256;

	return (unsigned int)(b > 65535 * 16 ? 65535 * 16 : b);
}

/* ---- kernels ---- */

__global__ void k_inc(double *x, size_t n)
{
	for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n;
	     i += (size_t)gridDim.x * blockDim.x)
		x[i] += 1.0;
}

__global__ void k_fill(double *x, size_t n, double v)
{
	for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n;
	     i += (size_t)gridDim.x * blockDim.x)
		x[i] = v + (double)i;
}

__global__ void k_sum(const double *x, size_t n, double *out)
{
	double s = 0;

	for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n;
	     i += (size_t)gridDim.x * blockDim.x)
		s += x[i];
	atomicAdd(out, s);
}

__global__ void k_triad(double *a, const double *b, const double *c, size_t n, double s)
{
	for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n;
	     i += (size_t)gridDim.x * blockDim.x)
		a[i] = b[i] + s * c[i];
}

__global__ void k_gather(const uint64_t *table, size_t nt, uint64_t *out, size_t no,
			 uint64_t seed, int zipf)
{
	for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < no;
	     i += (size_t)gridDim.x * blockDim.x) {
		uint64_t h = mix64(seed ^ i);
		size_t j = zipf ? zipf_rank(h, nt) : h % nt;

		out[i] = table[j];
	}
}

__global__ void k_scatter(unsigned long long *table, size_t nt, const uint64_t *add,
			  size_t na, uint64_t seed, int zipf)
{
	for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < na;
	     i += (size_t)gridDim.x * blockDim.x) {
		uint64_t h = mix64(seed ^ i);
		size_t j = zipf ? zipf_rank(h, nt) : h % nt;

		atomicAdd(&table[j], (unsigned long long)add[i]);
	}
}

__global__ void k_stencil2d(const double *in, double *out, size_t n)
{
	size_t cells = n * n;

	for (size_t c = blockIdx.x * (size_t)blockDim.x + threadIdx.x; c < cells;
	     c += (size_t)gridDim.x * blockDim.x) {
		size_t y = c / n, x = c % n;
		double s = in[c];

		s += x ? in[c - 1] : 0;
		s += x + 1 < n ? in[c + 1] : 0;
		s += y ? in[c - n] : 0;
		s += y + 1 < n ? in[c + n] : 0;
		out[c] = s;
	}
}

__global__ void k_stencil3d(const double *in, double *out, size_t n)
{
	size_t cells = n * n * n, p = n * n;

	for (size_t c = blockIdx.x * (size_t)blockDim.x + threadIdx.x; c < cells;
	     c += (size_t)gridDim.x * blockDim.x) {
		size_t z = c / p, y = c / n % n, x = c % n;
		double s = in[c];

		s += x ? in[c - 1] : 0;
		s += x + 1 < n ? in[c + 1] : 0;
		s += y ? in[c - n] : 0;
		s += y + 1 < n ? in[c + n] : 0;
		s += z ? in[c - p] : 0;
		s += z + 1 < n ? in[c + p] : 0;
		out[c] = s;
	}
}

#define MM_T	64
__global__ void k_matmul(const double *a, const double *b, double *c, size_t n)
{
	__shared__ double ta[16][16], tb[16][16];
	size_t row = blockIdx.y * 16 + threadIdx.y, col = blockIdx.x * 16 + threadIdx.x;
	double s = 0;

	for (size_t t = 0; t < n; t += 16) {
		ta[threadIdx.y][threadIdx.x] = a[row * n + t + threadIdx.x];
		tb[threadIdx.y][threadIdx.x] = b[(t + threadIdx.y) * n + col];
		__syncthreads();
		for (int k = 0; k < 16; k++)
			s += ta[threadIdx.y][k] * tb[k][threadIdx.x];
		__syncthreads();
	}
	c[row * n + col] = s;
}

/* Elements of x that are not i + add, counted on the GPU. */
__global__ void k_check(const double *x, size_t n, double add, unsigned long long *bad)
{
	unsigned long long b = 0;

	for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n;
	     i += (size_t)gridDim.x * blockDim.x)
		b += x[i] != (double)i + add;
	if (b)
		atomicAdd(bad, b);
}

/* ---- the basic cases ---- */

/*
 * Where the data ends on the GPU, the GPU checks it (into cudaMalloc
 * memory): a check by the CPU would be a CPU pass of its own, recorded.
 */
static int check_on_gpu(const double *x, size_t n, double add, const char *what)
{
	unsigned long long *bad, nbad;

	CK(cudaMalloc(&bad, sizeof(*bad)));
	CK(cudaMemset(bad, 0, sizeof(*bad)));
	k_check<<<blocks(n), 256>>>(x, n, add, bad);
	CK(cudaGetLastError());
	CK(cudaMemcpy(&nbad, bad, sizeof(nbad), cudaMemcpyDeviceToHost));
	CK(cudaFree(bad));
	if (nbad)
		return fail(what, 0, (double)nbad, 0);
	return 0;
}

static void cpu_init(double *x, size_t n)
{
	for (size_t i = 0; i < n; i++)
		x[i] = (double)i;
}

static int check_inc(const double *x, size_t n, double add, const char *what)
{
	for (size_t i = 0; i < n; i++)
		if (x[i] != (double)i + add)
			return fail(what, i, x[i], (double)i + add);
	return 0;
}

static int c_gpu_sweep(struct run *r)
{
	size_t n = r->size / sizeof(double);
	double *x = (double *)managed(r, r->size);

	cpu_init(x, n);
	timed_begin(r);
	k_inc<<<blocks(n), 256>>>(x, n);
	timed_end(r, "inc");
	return check_on_gpu(x, n, 1, r->name);
}

static int c_prefetch_sweep(struct run *r)
{
	size_t n = r->size / sizeof(double);
	double *x = (double *)managed(r, r->size);
	cudaMemLocation dev = { cudaMemLocationTypeDevice, 0 };

	cpu_init(x, n);
	timed_begin(r);
	CK(cudaMemPrefetchAsync(x, r->size, dev, 0, 0));
	timed_end(r, "prefetch");
	timed_begin(r);
	k_inc<<<blocks(n), 256>>>(x, n);
	timed_end(r, "inc");
	return check_on_gpu(x, n, 1, r->name);
}

static int c_cpu_after_gpu(struct run *r)
{
	size_t n = r->size / sizeof(double);
	double *x = (double *)managed(r, r->size);

	cpu_init(x, n);
	timed_begin(r);
	k_inc<<<blocks(n), 256>>>(x, n);
	timed_end(r, "inc");
	for (size_t i = 0; i < n; i++)
		x[i] += 1.0;
	return check_inc(x, n, 2, r->name);
}

static int c_read_mostly(struct run *r)
{
	size_t n = r->size / sizeof(double);
	double *x = (double *)managed(r, r->size), *sum = (double *)managed(r, 4096);
	cudaMemLocation dev = { cudaMemLocationTypeDevice, 0 };
	double want = 0;

	cpu_init(x, n);
	CK(cudaMemAdvise(x, r->size, cudaMemAdviseSetReadMostly, dev));
	for (unsigned int it = 0; it < 2; it++) {
		*sum = 0;
		timed_begin(r);
		k_sum<<<blocks(n), 256>>>(x, n, sum);
		timed_end(r, "sum");
		want = 0;
		for (size_t i = 0; i < n; i++)	/* the CPU reads too: copies stay */
			want += x[i];
		if (fabs(*sum - want) > 1e-6 * want)
			return fail(r->name, 0, *sum, want);
	}
	return 0;
}

static int c_gpu_first_touch(struct run *r)
{
	size_t n = r->size / sizeof(double);
	double *x = (double *)managed(r, r->size);

	timed_begin(r);
	k_fill<<<blocks(n), 256>>>(x, n, 0.0);
	timed_end(r, "fill");
	return check_on_gpu(x, n, 0, r->name);
}

static int c_pingpong_pages(struct run *r)
{
	size_t bytes = 4 * 4096, n = bytes / sizeof(double);
	double *x = (double *)managed(r, bytes);
	unsigned int rounds = 200;

	cpu_init(x, n);
	for (unsigned int it = 0; it < rounds; it++) {
		timed_begin(r);
		k_inc<<<1, 256>>>(x, n);
		timed_end(r, "inc");
		r->nk = r->nk > 8 ? 8 : r->nk;	/* keep the first kernels' times */
		for (size_t i = 0; i < n; i++)
			x[i] += 1.0;
	}
	return check_inc(x, n, 2.0 * rounds, r->name);
}

static int c_pref_cpu_accessed_by(struct run *r)
{
	size_t n = r->size / sizeof(double);
	double *x = (double *)managed(r, r->size);
	cudaMemLocation host = { cudaMemLocationTypeHost, 0 };
	cudaMemLocation dev = { cudaMemLocationTypeDevice, 0 };

	CK(cudaMemAdvise(x, r->size, cudaMemAdviseSetPreferredLocation, host));
	CK(cudaMemAdvise(x, r->size, cudaMemAdviseSetAccessedBy, dev));
	cpu_init(x, n);
	timed_begin(r);
	k_inc<<<blocks(n), 256>>>(x, n);
	timed_end(r, "inc");
	return check_on_gpu(x, n, 1, r->name);
}

static double host_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

/* @x incremented by a kernel on @dev, timed on the host (events are per device). */
static void inc_on(struct run *r, int dev, double *x, size_t n, const char *name)
{
	double t0;

	CK(cudaSetDevice(dev));
	t0 = host_ms();
	k_inc<<<blocks(n), 256>>>(x, n);
	CK(cudaGetLastError());
	CK(cudaDeviceSynchronize());
	if (r->nk < MAX_KERNELS) {
		r->k[r->nk].name = name;
		r->k[r->nk++].ms = (float)(host_ms() - t0);
	}
}

/* Two GPUs: GPU 0 sweeps CPU-initialised data, then GPU 1 (peer access on). */
static int c_peer(struct run *r)
{
	size_t n = r->size / sizeof(double);
	int ndev = 0, can = 0;
	double *x;

	CK(cudaGetDeviceCount(&ndev));
	if (ndev < 2) {
		fprintf(stderr, "nvwl: peer needs two GPUs (%d here)\n", ndev);
		return 2;
	}
	CK(cudaDeviceCanAccessPeer(&can, 1, 0));
	if (can) {
		CK(cudaSetDevice(1));
		CK(cudaDeviceEnablePeerAccess(0, 0));
		CK(cudaSetDevice(0));
		CK(cudaDeviceEnablePeerAccess(1, 0));
	}
	x = (double *)managed(r, r->size);
	cpu_init(x, n);
	inc_on(r, 0, x, n, "inc_gpu0");
	inc_on(r, 1, x, n, "inc_gpu1");
	return check_on_gpu(x, n, 2, r->name);
}

/* ---- uvm-exp's workloads ---- */

static int w_triad(struct run *r)
{
	size_t n = r->size / 3 / sizeof(double) / 8 * 8;
	double *a = (double *)managed(r, n * 8), *b = (double *)managed(r, n * 8);
	double *c = (double *)managed(r, n * 8);

	for (size_t i = 0; i < n; i++) {
		a[i] = 0;
		b[i] = (double)i;
		c[i] = 1.0;
	}
	for (unsigned int it = 0; it < r->iters; it++) {
		timed_begin(r);
		k_triad<<<blocks(n), 256>>>(a, b, c, n, 3.0);
		timed_end(r, "triad");
	}
	for (size_t i = 0; i < n; i++)
		if (a[i] != (double)i + 3.0)
			return fail(r->name, i, a[i], (double)i + 3.0);
	return 0;
}

static int w_gather(struct run *r, int zipf)
{
	size_t no = r->size / 4 / 8 / 8 * 8, nt = (r->size - no * 8) / 8;
	uint64_t *table = (uint64_t *)managed(r, nt * 8), *out = (uint64_t *)managed(r, no * 8);

	for (size_t i = 0; i < nt; i++)
		table[i] = mix64(i);
	memset(out, 0, no * 8);
	for (unsigned int it = 0; it < r->iters; it++) {
		timed_begin(r);
		k_gather<<<blocks(no), 256>>>(table, nt, out, no, r->seed, zipf);
		timed_end(r, "gather");
	}
	for (size_t i = 0; i < no; i++) {
		uint64_t h = mix64(r->seed ^ i);
		size_t j = zipf ? zipf_rank(h, nt) : h % nt;

		if (out[i] != table[j])
			return fail(r->name, i, (double)out[i], (double)table[j]);
	}
	return 0;
}

static int w_scatter(struct run *r, int zipf)
{
	size_t na = r->size / 4 / 8 / 8 * 8, nt = (r->size - na * 8) / 8;
	unsigned long long *table = (unsigned long long *)managed(r, nt * 8);
	uint64_t *add = (uint64_t *)managed(r, na * 8);
	unsigned long long total = 0;

	memset(table, 0, nt * 8);
	for (size_t i = 0; i < na; i++)
		add[i] = i & 7;
	for (unsigned int it = 0; it < r->iters; it++) {
		timed_begin(r);
		k_scatter<<<blocks(na), 256>>>(table, nt, add, na, r->seed + it, zipf);
		timed_end(r, "scatter");
	}
	for (size_t i = 0; i < nt; i++)
		total += table[i];
	for (size_t i = 0; i < na; i++)
		total -= (unsigned long long)add[i] * r->iters;
	return total ? fail(r->name, 0, (double)total, 0) : 0;
}

static int w_stencil2d(struct run *r)
{
	size_t n = (size_t)sqrt((double)r->size / 16) / 8 * 8, cells = n * n;
	double *in = (double *)managed(r, cells * 8), *out = (double *)managed(r, cells * 8);

	for (size_t i = 0; i < cells; i++)
		in[i] = 1.0;
	for (unsigned int it = 0; it < r->iters; it++) {
		timed_begin(r);
		k_stencil2d<<<blocks(cells), 256>>>(in, out, n);
		timed_end(r, "stencil2d");
	}
	return out[n + 1] == 5.0 && out[0] == 3.0 ? 0 : fail(r->name, n + 1, out[n + 1], 5.0);
}

static int w_stencil3d(struct run *r)
{
	size_t n = (size_t)cbrt((double)r->size / 16) / 8 * 8, cells = n * n * n;
	double *in = (double *)managed(r, cells * 8), *out = (double *)managed(r, cells * 8);
	size_t mid = n * n + n + 1;

	for (size_t i = 0; i < cells; i++)
		in[i] = 1.0;
	for (unsigned int it = 0; it < r->iters; it++) {
		timed_begin(r);
		k_stencil3d<<<blocks(cells), 256>>>(in, out, n);
		timed_end(r, "stencil3d");
	}
	return out[mid] == 7.0 ? 0 : fail(r->name, mid, out[mid], 7.0);
}

static int w_matmul(struct run *r)
{
	size_t n = (size_t)sqrt((double)r->size / 24) / MM_T * MM_T, cells = n * n;
	double *a = (double *)managed(r, cells * 8), *b = (double *)managed(r, cells * 8);
	double *c = (double *)managed(r, cells * 8);
	dim3 grid((unsigned int)(n / 16), (unsigned int)(n / 16)), blk(16, 16);

	for (size_t i = 0; i < cells; i++) {
		a[i] = 1.0;
		b[i] = 2.0;
	}
	for (unsigned int it = 0; it < r->iters; it++) {
		timed_begin(r);
		k_matmul<<<grid, blk>>>(a, b, c, n);
		timed_end(r, "matmul");
	}
	return c[cells - 1] == 2.0 * n ? 0 : fail(r->name, cells - 1, c[cells - 1], 2.0 * n);
}

/* uvm-exp's pingpong: the GPU adds 1 everywhere, the CPU to every 4th page. */
static int w_pingpong(struct run *r)
{
	size_t n = r->size / 8 / 8 * 8, page = 4096 / 8;
	double *x = (double *)managed(r, n * 8);

	cpu_init(x, n);
	for (unsigned int it = 0; it < r->iters; it++) {
		timed_begin(r);
		k_inc<<<blocks(n), 256>>>(x, n);
		timed_end(r, "inc");
		for (size_t i = 0; i < n; i += 4 * page)
			for (size_t j = i; j < i + page && j < n; j++)
				x[j] += 2.0;
	}
	for (size_t i = 0; i < n; i++) {
		double want = (double)i + r->iters + (i / page % 4 ? 0 : 2.0 * r->iters);

		if (x[i] != want)
			return fail(r->name, i, x[i], want);
	}
	return 0;
}

/* Pareto(@xm, 2) lengths cut at 256, as uvm-exp's spmv and bfs draw them. */
static size_t pareto_len(uint64_t h, double xm)
{
	double u = ((double)(h >> 11) + 1.0) / 9007199254740992.0;
	size_t len = (size_t)(xm / sqrt(u));

	return len > 256 ? 256 : len;
}

__global__ void k_spmv(const uint64_t *row_ptr, const uint32_t *col, const uint64_t *val,
		       const uint64_t *x, uint64_t *y, size_t nrows)
{
	for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < nrows;
	     i += (size_t)gridDim.x * blockDim.x) {
		uint64_t s = 0;

		for (uint64_t e = row_ptr[i]; e < row_ptr[i + 1]; e++)
			s += val[e] * x[col[e]];
		y[i] = s;
	}
}

/* uvm-exp's spmv: y = A x, CSR, power-law rows (mean about 15), uint64. */
static int w_spmv(struct run *r)
{
	size_t nrows = r->size / 210 / 8 * 8, nnz = 0, i, e;
	uint64_t *rp = (uint64_t *)malloc((nrows + 1) * 8), *row_ptr, *val, *x, *y;
	uint32_t *col;

	for (i = 0; i < nrows; i++) {
		rp[i] = nnz;
		nnz += pareto_len(mix64(r->seed ^ (i << 1)), 8.0);
	}
	rp[nrows] = nnz;
	row_ptr = (uint64_t *)managed(r, (nrows + 1) * 8);
	col = (uint32_t *)managed(r, nnz * 4);
	val = (uint64_t *)managed(r, nnz * 8);
	x = (uint64_t *)managed(r, nrows * 8);
	y = (uint64_t *)managed(r, nrows * 8);
	memcpy(row_ptr, rp, (nrows + 1) * 8);
	for (e = 0; e < nnz; e++) {
		col[e] = (uint32_t)(mix64(r->seed + 3 * e) % nrows);
		val[e] = mix64(e) | 1;
	}
	for (i = 0; i < nrows; i++)
		x[i] = mix64(i + 7);
	for (unsigned int it = 0; it < r->iters; it++) {
		timed_begin(r);
		k_spmv<<<blocks(nrows), 256>>>(row_ptr, col, val, x, y, nrows);
		timed_end(r, "spmv");
	}
	for (i = 0; i < nrows; i++) {
		uint64_t want = 0;

		for (e = rp[i]; e < rp[i + 1]; e++)
			want += val[e] * x[col[e]];
		if (y[i] != want) {
			free(rp);
			return fail(r->name, i, (double)y[i], (double)want);
		}
	}
	free(rp);
	return 0;
}

/* One BFS level: vertices at @depth of @pass visit their neighbours. */
__global__ void k_bfs(const uint64_t *off, const uint32_t *adj, unsigned long long *level,
		      size_t nv, uint64_t pass, uint64_t depth, int *more)
{
	uint64_t mine = (pass << 32) | depth;

	for (size_t v = blockIdx.x * (size_t)blockDim.x + threadIdx.x; v < nv;
	     v += (size_t)gridDim.x * blockDim.x) {
		if (level[v] != mine)
			continue;
		for (uint64_t e = off[v]; e < off[v + 1]; e++) {
			unsigned long long *t = &level[adj[e]];

			if ((*t >> 32) < pass) {
				*t = mine + 1;
				*more = 1;
			}
		}
	}
}

/* uvm-exp's bfs: level-synchronous BFS from vertex 0, power-law out-degrees. */
static int w_bfs(struct run *r)
{
	size_t nv = r->size / 46, ne = 0, v, e;
	uint64_t *ho = (uint64_t *)malloc((nv + 1) * 8), *off;
	unsigned long long *level;
	uint32_t *adj;
	int *more, hmore;
	uint64_t depth = 0;

	for (v = 0; v < nv; v++) {
		ho[v] = ne;
		ne += pareto_len(mix64(r->seed ^ (v << 1) ^ 1), 4.0);
	}
	ho[nv] = ne;
	off = (uint64_t *)managed(r, (nv + 1) * 8);
	adj = (uint32_t *)managed(r, ne * 4);
	level = (unsigned long long *)managed(r, nv * 8);
	memcpy(off, ho, (nv + 1) * 8);
	for (e = 0; e < ne; e++)
		adj[e] = (uint32_t)(mix64(r->seed * 31 + e) % nv);
	memset(level, 0, nv * 8);
	CK(cudaMalloc(&more, sizeof(*more)));
	for (uint64_t pass = 1; pass <= r->iters; pass++) {
		unsigned long long root = pass << 32;

		CK(cudaMemcpy(level, &root, 8, cudaMemcpyHostToDevice));
		for (depth = 0, hmore = 1; hmore; depth++) {
			CK(cudaMemset(more, 0, sizeof(*more)));
			timed_begin(r);
			k_bfs<<<blocks(nv), 256>>>(off, adj, level, nv, pass, depth, more);
			timed_end(r, "bfs");
			CK(cudaMemcpy(&hmore, more, sizeof(hmore), cudaMemcpyDeviceToHost));
		}
	}
	CK(cudaFree(more));
	/* every vertex reached in the last pass sits one level below a neighbour */
	for (v = 0; v < nv; v++) {
		uint64_t lv = level[v];

		if (lv >> 32 != r->iters)
			continue;
		for (e = ho[v]; e < ho[v + 1]; e++)
			if ((level[adj[e]] >> 32) != r->iters ||
			    (level[adj[e]] & 0xffffffffULL) > (lv & 0xffffffffULL) + 1) {
				free(ho);
				return fail(r->name, adj[e], (double)(level[adj[e]] & 0xffffffff),
					    (double)((lv & 0xffffffff) + 1));
			}
	}
	free(ho);
	return 0;
}

static int w_gather_u(struct run *r) { return w_gather(r, 0); }
static int w_gather_z(struct run *r) { return w_gather(r, 1); }
static int w_scatter_u(struct run *r) { return w_scatter(r, 0); }
static int w_scatter_z(struct run *r) { return w_scatter(r, 1); }

static const struct {
	const char *name;
	int (*fn)(struct run *r);
	size_t size;
	const char *desc;
} cases[] = {
	{ "gpu_sweep", c_gpu_sweep, 128 * MIB, "CPU initialises, the GPU adds 1 to every element" },
	{ "prefetch_sweep", c_prefetch_sweep, 128 * MIB, "CPU initialises, prefetch to the GPU, then the sweep" },
	{ "cpu_after_gpu", c_cpu_after_gpu, 128 * MIB, "the GPU sweep, then the CPU adds 1 everywhere" },
	{ "read_mostly", c_read_mostly, 128 * MIB, "read-mostly advice; GPU sum then CPU sum, twice" },
	{ "gpu_first_touch", c_gpu_first_touch, 128 * MIB, "the GPU writes untouched managed memory" },
	{ "pingpong_pages", c_pingpong_pages, 16384, "4 pages: GPU then CPU add 1, 200 rounds" },
	{ "pref_cpu_accessed_by", c_pref_cpu_accessed_by, 128 * MIB, "preferred location CPU, accessed by the GPU; GPU sweep" },
	{ "peer", c_peer, 64 * MIB, "two GPUs: GPU 0 then GPU 1 add 1 (peer access on)" },
	{ "triad", w_triad, 32 * MIB, "a = b + 3c over three arrays" },
	{ "stencil2d", w_stencil2d, 32 * MIB, "5-point sums over an N x N grid" },
	{ "stencil3d", w_stencil3d, 32 * MIB, "7-point sums over an N x N x N grid" },
	{ "gather", w_gather_u, 32 * MIB, "out[j] = table[uniform random]" },
	{ "gather_zipf", w_gather_z, 32 * MIB, "out[j] = table[Zipf(0.99)]" },
	{ "scatter", w_scatter_u, 32 * MIB, "table[uniform random] += add[j]" },
	{ "scatter_zipf", w_scatter_z, 32 * MIB, "table[Zipf(0.99)] += add[j]" },
	{ "spmv", w_spmv, 32 * MIB, "y = A x, CSR with power-law rows (uint64)" },
	{ "bfs", w_bfs, 32 * MIB, "BFS from vertex 0 of a power-law graph, a kernel a depth" },
	{ "matmul", w_matmul, 32 * MIB, "C = A x B, 16 x 16 shared-memory tiles" },
	{ "pingpong", w_pingpong, 32 * MIB, "GPU adds 1 everywhere, then the CPU to every 4th page" },
};

#define NCASES	(sizeof(cases) / sizeof(cases[0]))

static void report(const struct run *r, int ok)
{
	printf("{\"case\":\"%s\",\"size\":%zu,\"iters\":%u,\"managed\":%zu,\"resident\":%s,\"ok\":%s,\"kernels\":[",
	       r->name, r->size, r->iters, r->managed, r->resident ? "true" : "false",
	       ok ? "true" : "false");
	for (unsigned int i = 0; i < r->nk; i++)
		printf("%s{\"name\":\"%s\",\"ms\":%.4f}", i ? "," : "", r->k[i].name, r->k[i].ms);
	printf("]}\n");
}

static int usage(void)
{
	fprintf(stderr, "usage: nvwl CASE [--size BYTES] [--iters N] [--seed S] [--resident] | nvwl list\n");
	return 2;
}

int main(int argc, char **argv)
{
	struct run r;
	unsigned int c;
	int i, ret;

	memset(&r, 0, sizeof(r));
	if (argc < 2)
		return usage();
	if (!strcmp(argv[1], "list")) {
		for (c = 0; c < NCASES; c++)
			printf("%-22s %s\n", cases[c].name, cases[c].desc);
		return 0;
	}
	for (c = 0; c < NCASES && strcmp(argv[1], cases[c].name); c++)
		;
	if (c == NCASES) {
		fprintf(stderr, "nvwl: unknown case '%s' (nvwl list)\n", argv[1]);
		return 2;
	}
	r.name = cases[c].name;
	r.size = cases[c].size;
	r.iters = 3;
	r.seed = 1;
	for (i = 2; i < argc; i += 2) {
		unsigned long long v;

		if (!strcmp(argv[i], "--resident")) {
			r.resident = 1;
			i--;
			continue;
		}
		if (i + 1 == argc)
			return usage();
		v = strtoull(argv[i + 1], NULL, 0);
		if (!strcmp(argv[i], "--size") && v >= 4096 && v <= MAX_MANAGED)
			r.size = v;
		else if (!strcmp(argv[i], "--iters") && v >= 1 && v <= 1000)
			r.iters = (unsigned int)v;
		else if (!strcmp(argv[i], "--seed"))
			r.seed = v;
		else
			return usage();
	}
	if (r.resident && cases[c].fn == c_peer)
		return usage();
	CK(cudaSetDevice(0));
	CK(cudaEventCreate(&r.e0));
	CK(cudaEventCreate(&r.e1));
	ret = cases[c].fn(&r);
	report(&r, !ret);
	return ret;
}
