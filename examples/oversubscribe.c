// SPDX-License-Identifier: MIT
/*
 * oversubscribe - use more managed memory than device 0 has: prefetching it
 * all to the device evicts older blocks back to the host, and the data
 * stays intact.
 *
 *   oversubscribe [PERCENT]   (default 150: 1.5 x device 0's memory,
 *                              capped at 1 GiB)
 *
 * Until the module has device residency the prefetches print "(not yet
 * supported by this module)" and only the CPU side runs.
 */
#include "example.h"

#define CHUNK	(2 * EX_MIB)

static int verify(const uint64_t *p, size_t len)
{
	size_t i;

	for (i = 0; i < len / 8; i += 512)
		if (p[i] != i)
			return 0;
	return 1;
}

int main(int argc, char **argv)
{
	unsigned long pct = argc > 1 ? strtoul(argv[1], NULL, 0) : 150;
	uint64_t ctr[EX_COUNTERS] = { 0 };
	struct cudaDeviceProp prop;
	size_t len, off, i;
	uint64_t *p;
	int ndev;

	EX_CHECK(cudaGetDeviceCount(&ndev));
	if (!ndev) {
		printf("oversubscribe: no device\n");
		return 0;
	}
	EX_CHECK(cudaGetDeviceProperties(&prop, 0));
	len = prop.totalGlobalMem / 100 * pct;
	len = (len > 1024 * EX_MIB ? 1024 * EX_MIB : len) / CHUNK * CHUNK;
	printf("device 0: %zu MiB; managed: %zu MiB (%lu%%)\n",
	       prop.totalGlobalMem / EX_MIB, len / EX_MIB, pct);
	EX_CHECK(cudaMallocManaged((void **)&p, len, cudaMemAttachGlobal));
	for (i = 0; i < len / 8; i += 512)
		p[i] = i;
	ex_counters(ctr);
	for (off = 0; off < len; off += CHUNK)
		if (!EX_TRY(cudaMemPrefetchAsync((char *)p + off, CHUNK, ex_device(0), 0, 0)))
			break;
	EX_CHECK(cudaDeviceSynchronize());
	ex_where("after prefetching everything to device 0", p, len);
	ex_counters(ctr);
	if (!verify(p, len)) {
		fprintf(stderr, "oversubscribe: data corrupted\n");
		return 1;
	}
	EX_CHECK(cudaFree(p));
	printf("oversubscribe: data intact\n");
	return 0;
}
