// SPDX-License-Identifier: GPL-2.0
// LDLIBS: -luvm -lnuma -lpthread
/*
 * cuda_pageable_test.c - the CUDA memory calls on pageable memory (malloc,
 * stack, mmap) through libuvm at the mirror level (libuvm/cuda_pageable.c):
 * the attributes say devices reach it; prefetch to the host and its nodes
 * migrates it with the kernel's own migration; what this level cannot do
 * answers cudaErrorNotSupported; unmapped memory is InvalidValue.
 */
#include <numaif.h>
#include <sys/mman.h>

#include "cuda_test_util.h"
#include "../../include/uvm/uvm_kernel.h"
#include "kselftest_harness.h"

FIXTURE(pg) {
	int nodes;
};

FIXTURE_SETUP(pg)
{
	int n = 0, v = 0;

	if (cudaGetDeviceCount(&n) != cudaSuccess || !n)
		SKIP(return, "no device");
	ASSERT_EQ(cudaSuccess, cudaDeviceGetAttribute(&v, cudaDevAttrPageableMemoryAccess, 0));
	if (!v)
		SKIP(return, "no pageable memory access on this kernel");
	self->nodes = mem_nodes();
}

FIXTURE_TEARDOWN(pg)
{
	EXPECT_EQ(cudaSuccess, cudaGetLastError());
}

/* Does the module migrate pageable memory to devices (DEVICE_PRIVATE)? */
static int level_migrate(void)
{
	return pageable_level_is("migrate");
}

/* Every page of [p, p + len) on @node (move_pages(2) query). */
static int all_on(char *p, size_t len, int node)
{
	size_t n = len / PAGE_SZ, i;
	void **pages = calloc(n, sizeof(*pages));
	int *st = calloc(n, sizeof(*st)), ok;

	for (i = 0; pages && i < n; i++)
		pages[i] = p + i * PAGE_SZ;
	ok = pages && st && !move_pages(0, n, pages, NULL, st, 0);
	for (i = 0; ok && i < n; i++)
		ok = st[i] == node;
	free(pages);
	free(st);
	return ok;
}

TEST_F(pg, attributes)
{
	struct cudaPointerAttributes pa;
	int v = -1;
	char *h = malloc(4096);

	ASSERT_EQ(cudaSuccess, cudaDeviceGetAttribute(&v, cudaDevAttrPageableMemoryAccess, 0));
	EXPECT_EQ(1, v);
	/* the device keeps page tables of its own (HMM, not ATS) */
	ASSERT_EQ(cudaSuccess, cudaDeviceGetAttribute(
			&v, cudaDevAttrPageableMemoryAccessUsesHostPageTables, 0));
	EXPECT_EQ(0, v);
	ASSERT_EQ(cudaSuccess, cudaPointerGetAttributes(&pa, h));
	EXPECT_EQ(cudaMemoryTypeUnregistered, pa.type);
	EXPECT_EQ(cudaInvalidDeviceId, pa.device);
	EXPECT_EQ(NULL, pa.devicePointer);
	EXPECT_EQ(h, pa.hostPointer);
	free(h);
}

TEST_F(pg, prefetch_to_host_nodes_migrates)
{
	size_t len = 2 * MIB;
	char *p = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	int node;

	ASSERT_NE(MAP_FAILED, p);
	memset(p, 0x42, len);
	ASSERT_EQ(cudaSuccess, cudaMemPrefetchAsync(p, len, loc(cudaMemLocationTypeHost, 0), 0, 0));
	ASSERT_EQ(cudaSuccess, cudaStreamSynchronize(0));
	for (node = self->nodes - 1; node >= 0; node--) {
		ASSERT_EQ(cudaSuccess, cudaMemPrefetchAsync(p, len,
				loc(cudaMemLocationTypeHostNuma, node), 0, cudaStreamPerThread));
		ASSERT_EQ(cudaSuccess, cudaStreamSynchronize(cudaStreamPerThread));
		EXPECT_TRUE(all_on(p, len, node)) TH_LOG("node %d", node);
	}
	EXPECT_EQ(0x42, p[len - 1]);
	ASSERT_EQ(cudaSuccess, cudaMemPrefetchAsync(p + 1, 100,
			loc(cudaMemLocationTypeHostNumaCurrent, 0), 0, 0));
	ASSERT_EQ(cudaSuccess, cudaDeviceSynchronize());
	munmap(p, len);
}

TEST_F(pg, what_the_mirror_cannot_do_is_not_supported)
{
	size_t len = MIB;
	char *h = malloc(len);
	int on_stack[64] = { 0 };

	ASSERT_NE(NULL, h);
	memset(h, 1, len);
	if (!level_migrate()) {
		EXPECT_EQ(cudaErrorNotSupported, cudaMemPrefetchAsync(h, len,
				loc(cudaMemLocationTypeDevice, 0), 0, 0));
		EXPECT_EQ(cudaErrorNotSupported, cudaGetLastError());
	}
	if (!level_migrate()) {
		EXPECT_EQ(cudaErrorNotSupported,
			  cudaMemAdvise(h, len, cudaMemAdviseSetReadMostly,
					loc(cudaMemLocationTypeHost, 0)));
		EXPECT_EQ(cudaErrorNotSupported,
			  cudaMemAdvise(on_stack, sizeof(on_stack),
					cudaMemAdviseSetPreferredLocation,
					loc(cudaMemLocationTypeDevice, 0)));
		EXPECT_EQ(cudaErrorNotSupported, cudaGetLastError());
	}
	/* bad input keeps its own answer */
	EXPECT_EQ(cudaErrorInvalidValue, cudaMemAdvise(h, len, 99, loc(cudaMemLocationTypeHost, 0)));
	EXPECT_EQ(cudaErrorInvalidDevice, cudaMemPrefetchAsync(h, len,
			loc(cudaMemLocationTypeDevice, 999), 0, 0));
	EXPECT_EQ(cudaErrorInvalidDevice, cudaGetLastError());
	free(h);
}

TEST_F(pg, prefetch_to_a_device_migrates_where_the_kernel_can)
{
	size_t len = 2 * MIB;
	char *p = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	uint64_t v0[UVM_COUNTER_PAGEABLE_TO_HOST + 1], v1[UVM_COUNTER_PAGEABLE_TO_HOST + 1];
	struct uvm_context *ctx;

	if (!level_migrate())
		SKIP(return, "pageable memory does not migrate on this kernel");
	ASSERT_NE(MAP_FAILED, p);
	memset(p, 7, len);
	ASSERT_EQ(0, uvm_runtime_context(&ctx));
	ASSERT_LT(UVM_COUNTER_PAGEABLE_TO_DEV,
		  uvm_stats(ctx, UVM_STATS_SCOPE_GLOBAL, v0, UVM_COUNTER_PAGEABLE_TO_HOST + 1));
	EXPECT_EQ(cudaSuccess, cudaMemPrefetchAsync(p, len, loc(cudaMemLocationTypeDevice, 0),
						    0, 0));
	EXPECT_EQ(cudaSuccess, cudaStreamSynchronize(0));
	uvm_stats(ctx, UVM_STATS_SCOPE_GLOBAL, v1, UVM_COUNTER_PAGEABLE_TO_HOST + 1);
	EXPECT_EQ(len / 4096, v1[UVM_COUNTER_PAGEABLE_TO_DEV] - v0[UVM_COUNTER_PAGEABLE_TO_DEV]);
	EXPECT_EQ(7, p[0]);
	EXPECT_EQ(7, p[len - 1]);
	munmap(p, len);
}

TEST_F(pg, advice_and_last_prefetch_are_kept_where_memory_migrates)
{
	size_t len = 2 * MIB;
	char *p = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	if (!level_migrate())
		SKIP(return, "no advice on pageable memory on this kernel");
	ASSERT_NE(MAP_FAILED, p);
	memset(p, 3, len);
	EXPECT_EQ(cudaSuccess, cudaMemAdvise(p, len, cudaMemAdviseSetReadMostly,
					     loc(cudaMemLocationTypeHost, 0)));
	EXPECT_EQ(cudaSuccess, cudaMemAdvise(p, len, cudaMemAdviseSetPreferredLocation,
					     loc(cudaMemLocationTypeDevice, 0)));
	EXPECT_EQ(1, range_int(cudaMemRangeAttributeReadMostly, p, len));
	EXPECT_EQ(0, range_int(cudaMemRangeAttributePreferredLocation, p, len));
	EXPECT_EQ(cudaMemLocationTypeDevice,
		  range_int(cudaMemRangeAttributePreferredLocationType, p, len));
	EXPECT_EQ(cudaSuccess, cudaMemPrefetchAsync(p, len, loc(cudaMemLocationTypeDevice, 0),
						    0, 0));
	EXPECT_EQ(cudaSuccess, cudaStreamSynchronize(0));
	EXPECT_EQ(0, range_int(cudaMemRangeAttributeLastPrefetchLocation, p, len));
	EXPECT_EQ(cudaErrorInvalidValue, cudaMemAdvise(p, len, 99, loc(cudaMemLocationTypeHost, 0)));
	EXPECT_EQ(cudaErrorInvalidValue, cudaGetLastError());
	EXPECT_EQ(3, p[len - 1]);
	munmap(p, len);
}

TEST_F(pg, range_attributes_say_nothing_is_set)
{
	size_t len = MIB;
	char *h = malloc(len);
	int ab[4] = { 7, 7, 7, 7 };

	ASSERT_NE(NULL, h);
	memset(h, 1, len);
	ASSERT_EQ(cudaSuccess, cudaMemPrefetchAsync(h, len, loc(cudaMemLocationTypeHostNuma, 0), 0, 0));
	ASSERT_EQ(cudaSuccess, cudaDeviceSynchronize());
	EXPECT_EQ(0, range_int(cudaMemRangeAttributeReadMostly, h, len));
	EXPECT_EQ(cudaInvalidDeviceId, range_int(cudaMemRangeAttributePreferredLocation, h, len));
	EXPECT_EQ(cudaMemLocationTypeInvalid,
		  range_int(cudaMemRangeAttributePreferredLocationType, h, len));
	EXPECT_EQ(cudaInvalidDeviceId, range_int(cudaMemRangeAttributeLastPrefetchLocation, h, len));
	ASSERT_EQ(cudaSuccess, cudaMemRangeGetAttribute(ab, sizeof(ab),
			cudaMemRangeAttributeAccessedBy, h, len));
	EXPECT_EQ(cudaInvalidDeviceId, ab[0]);
	free(h);
}

TEST_F(pg, unmapped_memory_is_invalid)
{
	size_t len = 4 * PAGE_SZ;
	char *p = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	int v;

	ASSERT_NE(MAP_FAILED, p);
	ASSERT_EQ(0, munmap(p + PAGE_SZ, PAGE_SZ));	/* a hole */
	EXPECT_EQ(cudaErrorInvalidValue, cudaMemPrefetchAsync(p, len,
			loc(cudaMemLocationTypeHost, 0), 0, 0));
	EXPECT_EQ(cudaErrorInvalidValue, cudaMemAdvise(p, len, cudaMemAdviseSetReadMostly,
						       loc(cudaMemLocationTypeHost, 0)));
	EXPECT_EQ(cudaErrorInvalidValue, cudaMemRangeGetAttribute(&v, sizeof(v),
			cudaMemRangeAttributeReadMostly, p, len));
	EXPECT_EQ(cudaErrorInvalidValue, cudaGetLastError());
	munmap(p, len);
}

TEST_F(pg, kernels_reach_pageable_memory)
{
	size_t len = MIB, i, bad = 0;
	unsigned char *h = malloc(len), data[64];
	char *ro = mmap(NULL, 4096, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	struct uvm_pattern p = {
		.kind = UVM_PATTERN_SEQUENTIAL, .access = UVM_DEVICE_ACCESS_WRITE,
		.base = h, .len = len, .granule = 64, .data = data,
	};

	ASSERT_NE(NULL, h);
	ASSERT_NE(MAP_FAILED, ro);
	memset(h, 0, len);
	memset(data, 0xab, sizeof(data));
	ASSERT_EQ(cudaSuccess, uvmLaunchPattern(&p, 0, 0));
	ASSERT_EQ(cudaSuccess, cudaDeviceSynchronize());
	for (i = 0; i < len; i++)
		bad += h[i] != 0xab;
	EXPECT_EQ(0, bad);
	/* a write to read-only memory: the kernel's error, at the next sync */
	p.base = ro;
	p.len = 4096;
	ASSERT_EQ(cudaSuccess, uvmLaunchPattern(&p, 0, 0));
	EXPECT_EQ(cudaErrorIllegalAddress, cudaDeviceSynchronize());
	EXPECT_EQ(cudaErrorIllegalAddress, cudaGetLastError());
	munmap(ro, 4096);
	free(h);
}

TEST_HARNESS_MAIN
