// SPDX-License-Identifier: MIT
/*
 * read_mostly - cudaMemAdviseSetReadMostly: data that many processors read
 * gets a read-only copy on each of them instead of moving back and forth.
 *
 *   read_mostly [MiB]   (default 4)
 *
 * Sets the advice, checks it with cudaMemRangeGetAttribute, reads the data
 * from the CPU, prefetches it to every device (duplication; "not yet
 * supported" until the module has device residency), checks that the data
 * is intact, and clears the advice.
 */
#include "example.h"

static int verify(const unsigned char *p, size_t len)
{
	size_t i;

	for (i = 0; i < len; i++)
		if (p[i] != (unsigned char)(i * 7))
			return 0;
	return 1;
}

int main(int argc, char **argv)
{
	size_t len = (argc > 1 ? strtoul(argv[1], NULL, 0) : 4) * EX_MIB, i;
	uint64_t ctr[EX_COUNTERS] = { 0 };
	int ndev, rm = 0, d;
	unsigned char *p;

	EX_CHECK(cudaGetDeviceCount(&ndev));
	EX_CHECK(cudaMallocManaged((void **)&p, len, cudaMemAttachGlobal));
	for (i = 0; i < len; i++)
		p[i] = (unsigned char)(i * 7);
	ex_counters(ctr);
	EX_CHECK(cudaMemAdvise(p, len, cudaMemAdviseSetReadMostly, ex_host_node(0)));
	EX_CHECK(cudaMemRangeGetAttribute(&rm, sizeof(rm), cudaMemRangeAttributeReadMostly,
					  p, len));
	printf("read-mostly attribute: %d\n", rm);
	for (d = 0; d < ndev; d++) {
		printf("prefetch (duplicate) to device %d\n", d);
		if (EX_TRY(cudaMemPrefetchAsync(p, len, ex_device(d), 0, 0)))
			EX_CHECK(cudaDeviceSynchronize());
	}
	ex_where("after duplication", p, len);
	ex_counters(ctr);
	if (!verify(p, len) || rm != 1) {
		fprintf(stderr, "read_mostly: data or attribute wrong\n");
		return 1;
	}
	EX_CHECK(cudaMemAdvise(p, len, cudaMemAdviseUnsetReadMostly, ex_host_node(0)));
	EX_CHECK(cudaFree(p));
	printf("read_mostly: data intact\n");
	return 0;
}
