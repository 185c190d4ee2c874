// SPDX-License-Identifier: MIT
/*
 * kernels_host.c - the real programs' kernels (tests/clients/kernels/, one
 * shared object each) run on the host against plain memory: each kernel's
 * emit() is stepped here, every access checked for form (length, buffer,
 * 64-byte granules, at most UVM_KERNEL_MAX_ACCESSES a step) and performed
 * with memcpy, and the results compared with the CUDA source's arithmetic
 * done directly. No module: the arithmetic and the state machines, not the
 * device path (cuda_launch_test and the programs themselves, in the VM).
 *
 *	kernels_host VECTORADD.so UNIFIEDMEMORYPERF.so NVWL.so
 */
#include <dlfcn.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "uvm_kernel.h"

static const struct uvm_kernel_impl *impls;
static int fails;

#define CHECK(cond, what) do {						\
	if (!(cond)) {							\
		printf("FAIL %s\n", what);				\
		fails++;						\
	}								\
} while (0)

static dim3 d3(unsigned int x, unsigned int y, unsigned int z)
{
	return (dim3){ x, y, z };
}

static void load(const char *path)
{
	void *h = dlopen(path, RTLD_NOW | RTLD_LOCAL);

	impls = h ? dlsym(h, UVM_KERNEL_IMPLS_SYMBOL) : NULL;
	if (!impls) {
		printf("FAIL %s: %s\n", path, dlerror());
		exit(1);
	}
}

static int perform(struct uvm_device_access_op *a)
{
	uint64_t *p, *q, old;

	if (!a->length || !a->buf)
		return -1;
	switch (a->type) {
	case UVM_DEVICE_ACCESS_READ:
	case UVM_DEVICE_ACCESS_WRITE:
		if (a->addr / 64 != (a->addr + a->length - 1) / 64)
			return -1;	/* kn.h cuts at 64-byte boundaries */
		if (a->type == UVM_DEVICE_ACCESS_READ)
			memcpy((void *)a->buf, (void *)a->addr, a->length);
		else
			memcpy((void *)a->addr, (void *)a->buf, a->length);
		return 0;
	case UVM_DEVICE_ACCESS_ATOMIC_ADD:
		p = (uint64_t *)a->addr;
		q = (uint64_t *)a->buf;
		old = *p;
		*p += *q;
		*q = old;
		return a->length == 8 ? 0 : -1;
	}
	return -1;
}

/* Run kernel @name to its end; 0 or -1 (said). */
static int run(const char *name, dim3 g, dim3 b, void **args)
{
	static struct uvm_device_access_op ops[UVM_KERNEL_MAX_ACCESSES];
	struct uvm_kernel_launch l = { .name = name, .grid = g, .block = b, .args = args };
	struct uvm_kernel k;
	uint64_t step;
	int i, n = -1;

	memset(&k, 0, sizeof(k));
	for (i = 0; impls[i].name && strcmp(impls[i].name, name); i++)
		;
	if (!impls[i].name || impls[i].launch(&l, &k) || !k.emit) {
		printf("FAIL %s: no launch\n", name);
		return -1;
	}
	for (step = 0; (n = k.emit(k.arg, step, ops, UVM_KERNEL_MAX_ACCESSES)) > 0; step++)
		for (i = 0; i < n && n <= UVM_KERNEL_MAX_ACCESSES; i++)
			if (perform(&ops[i]))
				n = -1;
	if (k.done)
		k.done(k.arg, n, NULL);
	if (n < 0)
		printf("FAIL %s: step %llu\n", name, (unsigned long long)step);
	return n;
}

static uint64_t mix64(uint64_t x)
{
	x += 0x9e3779b97f4a7c15ULL;
	x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
	x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
	return x ^ (x >> 31);
}

static void vector_add(void)
{
	int n = 50000, i, bad = 0;
	float *a = malloc(n * 4), *b = malloc(n * 4), *c = calloc(n, 4);
	void *args[] = { &a, &b, &c, &n };

	for (i = 0; i < n; i++) {
		a[i] = rand() / (float)RAND_MAX;
		b[i] = rand() / (float)RAND_MAX;
	}
	run("_Z9vectorAddPKfS0_Pfi", d3((n + 255) / 256, 1, 1), d3(256, 1, 1), args);
	for (i = 0; i < n; i++)
		bad += c[i] != a[i] + b[i] + 0.0f;
	CHECK(!bad, "vectorAdd: bit-exact");
}

static void unified_memory_perf(void)
{
	unsigned int dim = 96, i, j, k, bad = 0, latch = 1, *lp = &latch;
	float *a = malloc(dim * dim * 4), *b = malloc(dim * dim * 4);
	float *c = calloc(dim * dim, 4), *c2 = calloc(dim * dim, 4);
	void *args[] = { &c, &a, &b, &dim }, *args2[] = { &c2, &a, &b, &dim }, *sargs[] = { &lp };

	for (i = 0; i < dim * dim; i++) {
		a[i] = rand() % 100 / 10.0f;
		b[i] = rand() % 100 / 10.0f;
	}
	run("_Z20matrixMultiplyKernelPfS_S_j", d3(dim / 32, dim / 32, 1), d3(32, 32, 1), args);
	run("_Z20matrixMultiplyKernelPfS_S_j", d3(dim / 32, dim / 32, 1), d3(32, 32, 1), args2);
	for (i = 0; i < dim; i++) {
		for (j = 0; j < dim; j++) {
			float r = 0;

			for (k = 0; k < dim; k++)
				r += a[k + i * dim] * b[j + k * dim];
			/* the sample's check, and its rerun's */
			bad += fabsf(c[j + i * dim] - r) > 0.001f * dim;
			bad += c[j + i * dim] != c2[j + i * dim];
		}
	}
	CHECK(!bad, "matrixMultiplyKernel");
	CHECK(!run("_Z20spinWhileLessThanOnePVj", d3(1, 1, 1), d3(1, 1, 1), sargs),
	      "spinWhileLessThanOne returns once the latch is 1");
}

static void nvwl_elementwise(void)
{
	size_t n = 100003, i, bad = 0;
	unsigned int blocks = (n + 255) / 256;
	double *x = malloc(n * 8), *a = malloc(n * 8), *b = malloc(n * 8), *c = malloc(n * 8);
	double v = 5, out = 1, *op = &out, want = 1, add = 5, s = 3;
	unsigned long long nbad = 0, *bp = &nbad;
	void *ia[] = { &x, &n }, *fa[] = { &x, &n, &v }, *sa[] = { &x, &n, &op };
	void *ca[] = { &x, &n, &add, &bp }, *ta[] = { &a, &b, &c, &n, &s };

	for (i = 0; i < n; i++)
		x[i] = (double)i;
	run("_Z5k_incPdm", d3(blocks, 1, 1), d3(256, 1, 1), ia);
	for (i = 0; i < n; i++)
		bad += x[i] != i + 1.0;
	CHECK(!bad, "k_inc");
	run("_Z6k_fillPdmd", d3(7, 1, 1), d3(256, 1, 1), fa);	/* a grid-stride loop */
	for (i = 0; i < n; i++)
		bad += x[i] != v + i;
	CHECK(!bad, "k_fill");
	run("_Z5k_sumPKdmPd", d3(blocks, 1, 1), d3(256, 1, 1), sa);
	for (i = 0; i < n; i++)
		want += x[i];
	CHECK(fabs(out - want) <= 1e-6 * want, "k_sum");
	run("_Z7k_checkPKdmdPy", d3(blocks, 1, 1), d3(256, 1, 1), ca);
	CHECK(nbad == 0, "k_check: none bad");
	add = 4;
	run("_Z7k_checkPKdmdPy", d3(blocks, 1, 1), d3(256, 1, 1), ca);
	CHECK(nbad == n, "k_check: all bad");
	for (i = 0; i < n; i++) {
		a[i] = 0;
		b[i] = (double)i;
		c[i] = 1;
	}
	run("_Z7k_triadPdPKdS1_md", d3(blocks, 1, 1), d3(256, 1, 1), ta);
	for (i = 0; i < n; i++)
		bad += a[i] != i + 3.0;
	CHECK(!bad, "k_triad");
}

static size_t pick(uint64_t seed, size_t i, size_t nt, int zipf)
{
	uint64_t h = mix64(seed ^ i);
	double u = (double)(h >> 11) / 9007199254740992.0;
	size_t k = (size_t)pow(u * pow((double)nt, 0.01), 100.0);

	if (!zipf)
		return h % nt;
	return k < nt ? k : nt - 1;
}

static void nvwl_random(void)
{
	size_t no = 20000, nt = 50000, i, bad = 0;
	uint64_t *table = malloc(nt * 8), *out = calloc(no, 8), *add = malloc(no * 8), seed = 77;
	unsigned long long total = 0;
	int zipf;
	void *ga[] = { &table, &nt, &out, &no, &seed, &zipf };
	void *sa[] = { &table, &nt, &add, &no, &seed, &zipf };

	for (i = 0; i < nt; i++)
		table[i] = mix64(i);
	for (zipf = 0; zipf < 2; zipf++) {
		run("_Z8k_gatherPKmmPmmmi", d3(80, 1, 1), d3(256, 1, 1), ga);
		for (i = 0; i < no; i++)
			bad += out[i] != table[pick(seed, i, nt, zipf)];
	}
	CHECK(!bad, "k_gather");
	memset(table, 0, nt * 8);
	for (i = 0; i < no; i++)
		add[i] = i & 7;
	zipf = 1;
	run("_Z9k_scatterPymPKmmmi", d3(80, 1, 1), d3(256, 1, 1), sa);
	for (i = 0; i < nt; i++)
		total += table[i];
	for (i = 0; i < no; i++)
		total -= i & 7;
	CHECK(!total, "k_scatter");
}

static void nvwl_stencils(void)
{
	size_t n = 200, m = 40, p = m * m, cells = n * n, c, bad = 0;
	double *in = malloc(70000 * 8), *out = malloc(70000 * 8);
	void *a2[] = { &in, &out, &n }, *a3[] = { &in, &out, &m };

	for (c = 0; c < 70000; c++)
		in[c] = c % 7;
	run("_Z11k_stencil2dPKdPdm", d3(100, 1, 1), d3(256, 1, 1), a2);
	for (c = 0; c < cells; c++) {
		size_t y = c / n, x = c % n;
		double s = in[c];

		s += x ? in[c - 1] : 0;
		s += x + 1 < n ? in[c + 1] : 0;
		s += y ? in[c - n] : 0;
		s += y + 1 < n ? in[c + n] : 0;
		bad += out[c] != s;
	}
	CHECK(!bad, "k_stencil2d");
	run("_Z11k_stencil3dPKdPdm", d3(100, 1, 1), d3(256, 1, 1), a3);
	for (c = 0; c < m * p; c++) {
		size_t z = c / p, y = c / m % m, x = c % m;
		double s = in[c];

		s += x ? in[c - 1] : 0;
		s += x + 1 < m ? in[c + 1] : 0;
		s += y ? in[c - m] : 0;
		s += y + 1 < m ? in[c + m] : 0;
		s += z ? in[c - p] : 0;
		s += z + 1 < m ? in[c + p] : 0;
		bad += out[c] != s;
	}
	CHECK(!bad, "k_stencil3d");
}

static void nvwl_matmul(void)
{
	size_t n = 128, cells = n * n, i, j, k, bad = 0;
	double *a = malloc(cells * 8), *b = malloc(cells * 8), *c = calloc(cells, 8);
	void *args[] = { &a, &b, &c, &n };

	for (i = 0; i < cells; i++) {
		a[i] = i % 5;
		b[i] = i % 3;
	}
	run("_Z8k_matmulPKdS0_Pdm", d3(n / 16, n / 16, 1), d3(16, 16, 1), args);
	for (i = 0; i < n; i++) {
		for (j = 0; j < n; j++) {
			double s = 0;

			for (k = 0; k < n; k++)
				s += a[i * n + k] * b[k * n + j];
			bad += s != c[i * n + j];
		}
	}
	CHECK(!bad, "k_matmul");
}

static void nvwl_spmv(void)
{
	size_t nrows = 10000, nnz = 0, i, e, bad = 0;
	uint64_t *rp = malloc((nrows + 1) * 8), *val, *x, *y;
	uint32_t *col;
	void *args[] = { &rp, &col, &val, &x, &y, &nrows };

	for (i = 0; i < nrows; i++) {
		rp[i] = nnz;
		nnz += i == 77 ? 9000 : mix64(i) % 40;	/* one row over a round */
	}
	rp[nrows] = nnz;
	col = malloc(nnz * 4);
	val = malloc(nnz * 8);
	x = malloc(nrows * 8);
	y = calloc(nrows, 8);
	for (e = 0; e < nnz; e++) {
		col[e] = mix64(e) % nrows;
		val[e] = e % 11;
	}
	for (i = 0; i < nrows; i++)
		x[i] = i * 3;
	run("_Z6k_spmvPKmPKjS0_S0_Pmm", d3(40, 1, 1), d3(256, 1, 1), args);
	for (i = 0; i < nrows; i++) {
		uint64_t s = 0;

		for (e = rp[i]; e < rp[i + 1]; e++)
			s += val[e] * x[col[e]];
		bad += y[i] != s;
	}
	CHECK(!bad, "k_spmv");
}

static void nvwl_bfs(void)
{
	size_t nv = 9000, ne = 0, v, e, bad = 0;
	uint64_t *off = malloc((nv + 1) * 8), pass = 1, depth = 0, d;
	unsigned long long *level = malloc(nv * 8), *ref = malloc(nv * 8);
	uint32_t *adj;
	int more = 1, *mp = &more, rmore = 1;
	void *args[] = { &off, &adj, &level, &nv, &pass, &depth, &mp };

	for (v = 0; v < nv; v++) {
		off[v] = ne;
		ne += v < 4 ? 5000 : mix64(v) % 6;	/* hubs over a round */
	}
	off[nv] = ne;
	adj = malloc(ne * 4);
	for (e = 0; e < ne; e++)
		adj[e] = mix64(e * 7) % nv;
	for (v = 0; v < nv; v++)
		level[v] = ref[v] = 0;
	level[0] = ref[0] = pass << 32;
	while (more && depth < 100) {
		more = 0;
		run("_Z5k_bfsPKmPKjPymmmPi", d3(36, 1, 1), d3(256, 1, 1), args);
		depth++;
	}
	for (d = 0; rmore; d++) {	/* the CUDA kernel's loop, sequentially */
		uint64_t mine = (pass << 32) | d;

		rmore = 0;
		for (v = 0; v < nv; v++) {
			if (ref[v] != mine)
				continue;
			for (e = off[v]; e < off[v + 1]; e++) {
				if ((ref[adj[e]] >> 32) < pass) {
					ref[adj[e]] = mine + 1;
					rmore = 1;
				}
			}
		}
	}
	for (v = 0; v < nv; v++)
		bad += level[v] != ref[v];
	CHECK(!bad && depth == d && depth > 3, "k_bfs");
}

int main(int argc, char **argv)
{
	if (argc != 4) {
		fprintf(stderr, "usage: %s VECTORADD.so UNIFIEDMEMORYPERF.so NVWL.so\n", argv[0]);
		return 2;
	}
	load(argv[1]);
	vector_add();
	load(argv[2]);
	unified_memory_perf();
	load(argv[3]);
	nvwl_elementwise();
	nvwl_random();
	nvwl_stencils();
	nvwl_matmul();
	nvwl_spmv();
	nvwl_bfs();
	printf("%d failed\n", fails);
	return !!fails;
}
