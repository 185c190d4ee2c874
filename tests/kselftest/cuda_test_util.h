/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Shared by the cuda_*_test kselftests: libuvm's runtime context, NUMA
 * facts, and checks of module state through libuvm's native API on the
 * runtime's own VA space (uvm_runtime_context).
 */
#ifndef CUDA_TEST_UTIL_H
#define CUDA_TEST_UTIL_H

#include <numa.h>
#include <pthread.h>
#include <sched.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../../include/uvm/cuda.h"
#include "../../include/uvm/cuda_runtime_api.h"
#include "../../include/uvm/driver_functions.h"

/* The module's pageable-memory level: "none", "mirror" or "migrate". */
static inline int pageable_level_is(const char *level)
{
	char v[16] = "";
	FILE *f = fopen("/sys/module/uvm/parameters/pageable", "r");

	if (f) {
		if (!fgets(v, sizeof(v), f))
			v[0] = 0;
		fclose(f);
	}
	v[strcspn(v, "\n")] = 0;
	return !strcmp(v, level);
}
#include "../../include/uvm/uvm.h"

#define MIB		(1024UL * 1024UL)
#define PAGE_SZ		((size_t)sysconf(_SC_PAGESIZE))

/* The _ptsz entry points (the headers only produce them by renaming). */
cudaError_t cudaStreamSynchronize_ptsz(cudaStream_t stream);
cudaError_t cudaMemPrefetchAsync_ptsz(const void *devPtr, size_t count,
				      struct cudaMemLocation location, unsigned int flags,
				      cudaStream_t stream);
cudaError_t cudaMemPrefetchBatchAsync_ptsz(void **dptrs, size_t *sizes, size_t count,
					   struct cudaMemLocation *prefetchLocs,
					   size_t *prefetchLocIdxs, size_t numPrefetchLocs,
					   unsigned long long flags, cudaStream_t stream);

static inline struct cudaMemLocation loc(enum cudaMemLocationType t, int id)
{
	return (struct cudaMemLocation){ .type = t, .id = id };
}

/* Number of NUMA nodes with memory (node ids 0..n-1 assumed, as in the VM). */
static inline int mem_nodes(void)
{
	int n = 0, i;

	if (numa_available() < 0)
		return 1;
	for (i = 0; i <= numa_max_node(); i++)
		n += numa_node_size64(i, NULL) > 0;
	return n;
}

/* Every page of [p, p + len) has its host copy on @node. */
static inline int all_on_node(struct uvm_context *ctx, void *p, size_t len, int node)
{
	size_t n = (len + PAGE_SZ - 1) / PAGE_SZ, i;
	struct uvm_page_info *pg = calloc(n, sizeof(*pg));
	int ok;

	ok = pg && uvm_residency(ctx, p, n, pg) == 0;
	for (i = 0; ok && i < n; i++)
		ok = (pg[i].flags & UVM_PAGE_INFO_POPULATED) && pg[i].cpu_node == node;
	free(pg);
	return ok;
}

static inline void fill(void *p, size_t len, unsigned int seed)
{
	uint32_t *w = p;
	size_t i;

	for (i = 0; i < len / 4; i++)
		w[i] = seed * 2654435761u + (uint32_t)i;
}

static inline int check_fill(const void *p, size_t len, unsigned int seed)
{
	const uint32_t *w = p;
	size_t i;

	for (i = 0; i < len / 4; i++) {
		if (w[i] != seed * 2654435761u + (uint32_t)i)
			return 0;
	}
	return 1;
}

static inline int range_int(enum cudaMemRangeAttribute a, const void *p, size_t len)
{
	int v = 12345;

	if (cudaMemRangeGetAttribute(&v, sizeof(v), a, p, len) != cudaSuccess)
		return 12345;
	return v;
}

#endif /* CUDA_TEST_UTIL_H */
