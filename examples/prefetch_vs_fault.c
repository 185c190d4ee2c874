// SPDX-License-Identifier: MIT
/*
 * prefetch_vs_fault - populate managed memory by CPU faults, then by one
 * prefetch, and compare the time per page.
 *
 *   prefetch_vs_fault [MiB]   (default 16)
 *
 * Faulting pays one trap per fault granule (module parameter
 * fault_granule_kb) plus one write upgrade per page; a prefetch populates
 * the whole range in one call, so the CPU's touches afterwards do not fault.
 */
#include "example.h"

static void touch(char *p, size_t len)
{
	size_t i;

	for (i = 0; i < len; i += 4096)
		p[i] = 1;
}

static double by_faults(size_t len)
{
	double t;
	char *p;

	EX_CHECK(cudaMallocManaged((void **)&p, len, cudaMemAttachGlobal));
	t = ex_now();
	touch(p, len);
	t = ex_now() - t;
	EX_CHECK(cudaFree(p));
	return t;
}

static double by_prefetch(size_t len)
{
	struct cudaMemLocation here = { .type = cudaMemLocationTypeHostNumaCurrent };
	double t;
	char *p;

	EX_CHECK(cudaMallocManaged((void **)&p, len, cudaMemAttachGlobal));
	t = ex_now();
	EX_CHECK(cudaMemPrefetchAsync(p, len, here, 0, 0));
	EX_CHECK(cudaDeviceSynchronize());
	touch(p, len);
	t = ex_now() - t;
	EX_CHECK(cudaFree(p));
	return t;
}

int main(int argc, char **argv)
{
	size_t len = (argc > 1 ? strtoul(argv[1], NULL, 0) : 16) * EX_MIB;
	double pages = (double)len / 4096, tf, tp;
	uint64_t ctr[EX_COUNTERS] = { 0 };
	int ndev;

	EX_CHECK(cudaGetDeviceCount(&ndev));
	ex_counters(ctr);
	tf = by_faults(len);
	printf("CPU faults:          %8.3f ms, %8.1f ns/page\n", tf * 1e3, tf / pages * 1e9);
	ex_counters(ctr);
	tp = by_prefetch(len);
	printf("prefetch then touch: %8.3f ms, %8.1f ns/page\n", tp * 1e3, tp / pages * 1e9);
	ex_counters(ctr);
	printf("prefetch/fault time ratio: %.2f (below 1: prefetch wins)\n", tp / tf);
	return 0;
}
