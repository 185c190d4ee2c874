// SPDX-License-Identifier: GPL-2.0
// LDLIBS: -luvm -lnuma -lpthread
/*
 * cuda_managed_test.c - managed memory through libuvm's runtime and driver
 * API, success paths. Every state an operation must leave is checked in the
 * module itself, through libuvm's native calls on the runtime's own VA space
 * (uvm_runtime_context: uvm_range_attrs, uvm_residency, uvm_stats). Needs
 * the module and at least one device; NUMA checks use node 1 when the VM
 * has two nodes (the default group of tests/suite.list) and skip otherwise.
 */
#include "cuda_test_util.h"
#include "kselftest_harness.h"

FIXTURE(rt) {
	struct uvm_context *ctx;
	int ndev, nodes;
};

FIXTURE_SETUP(rt)
{
	ASSERT_EQ(cudaSuccess, cudaGetDeviceCount(&self->ndev));
	ASSERT_EQ(0, uvm_runtime_context(&self->ctx));
	ASSERT_GE(uvm_context_fd(self->ctx), 0);
	self->nodes = mem_nodes();
	cudaSetDevice(0);
}

FIXTURE_TEARDOWN(rt)
{
	EXPECT_EQ(cudaSuccess, cudaGetLastError());
}

TEST_F(rt, malloc_managed_registry_and_free)
{
	struct uvm_managed_info a, b;
	void *p = NULL, *q = NULL;
	int dev = self->ndev - 1;

	ASSERT_EQ(cudaSuccess, cudaSetDevice(dev));
	ASSERT_EQ(cudaSuccess, cudaMallocManaged(&p, 3 * MIB + 5, cudaMemAttachGlobal));
	ASSERT_EQ(cudaSuccess, cudaMallocManaged(&q, 100, cudaMemAttachHost));
	EXPECT_EQ(0, (uintptr_t)p % (2 * MIB));
	fill(p, 3 * MIB, 1);
	EXPECT_TRUE(check_fill(p, 3 * MIB, 1));
	ASSERT_EQ(0, uvm_managed_query(self->ctx, (char *)p + MIB, &a));
	EXPECT_EQ((uintptr_t)p, a.base);
	EXPECT_EQ(3 * MIB + 5, a.size);
	EXPECT_EQ(cudaMemAttachGlobal, a.flags);
	EXPECT_EQ(dev, a.device);
	ASSERT_EQ(0, uvm_managed_query(self->ctx, q, &b));
	EXPECT_EQ(cudaMemAttachHost, b.flags);
	EXPECT_GT(b.buffer_id, a.buffer_id);
	EXPECT_EQ(cudaSuccess, cudaFree(p));
	EXPECT_EQ(-ENOENT, uvm_managed_query(self->ctx, p, &a));
	EXPECT_EQ(cudaSuccess, cudaFree(q));
	EXPECT_EQ(cudaSuccess, cudaFree(NULL));
	/* ids are never reused */
	ASSERT_EQ(cudaSuccess, cudaMallocManaged(&p, 4096, cudaMemAttachGlobal));
	ASSERT_EQ(0, uvm_managed_query(self->ctx, p, &a));
	EXPECT_GT(a.buffer_id, b.buffer_id);
	EXPECT_EQ(cudaSuccess, cudaFree(p));
	cudaSetDevice(0);
}

TEST_F(rt, advise_read_mostly)
{
	struct uvm_range_info ri;
	void *p;

	ASSERT_EQ(cudaSuccess, cudaMallocManaged(&p, 2 * MIB, cudaMemAttachGlobal));
	EXPECT_EQ(0, range_int(cudaMemRangeAttributeReadMostly, p, 2 * MIB));
	/* location ignored for read-mostly, even a nonsense one */
	EXPECT_EQ(cudaSuccess, cudaMemAdvise(p, MIB, cudaMemAdviseSetReadMostly,
					     loc(cudaMemLocationTypeHostNuma, 999)));
	ASSERT_EQ(0, uvm_range_attrs(self->ctx, p, MIB, &ri));
	EXPECT_EQ(1, ri.read_mostly);
	EXPECT_EQ(1, range_int(cudaMemRangeAttributeReadMostly, p, MIB));
	EXPECT_EQ(0, range_int(cudaMemRangeAttributeReadMostly, p, 2 * MIB));
	EXPECT_EQ(cudaSuccess, cudaMemAdvise(p, MIB, cudaMemAdviseUnsetReadMostly,
					     loc(cudaMemLocationTypeHost, 0)));
	ASSERT_EQ(0, uvm_range_attrs(self->ctx, p, MIB, &ri));
	EXPECT_EQ(0, ri.read_mostly);
	EXPECT_EQ(cudaSuccess, cudaFree(p));
}

TEST_F(rt, advise_preferred_location)
{
	enum cudaMemLocationType t;
	int node = self->nodes > 1 ? 1 : 0;
	void *p;

	ASSERT_EQ(cudaSuccess, cudaMallocManaged(&p, MIB, cudaMemAttachGlobal));
	EXPECT_EQ(cudaInvalidDeviceId, range_int(cudaMemRangeAttributePreferredLocation, p, MIB));
	/* Host: id ignored */
	EXPECT_EQ(cudaSuccess, cudaMemAdvise(p, MIB, cudaMemAdviseSetPreferredLocation,
					     loc(cudaMemLocationTypeHost, 77)));
	EXPECT_EQ(cudaCpuDeviceId, range_int(cudaMemRangeAttributePreferredLocation, p, MIB));
	ASSERT_EQ(cudaSuccess, cudaMemRangeGetAttribute(&t, sizeof(t),
		  cudaMemRangeAttributePreferredLocationType, p, MIB));
	EXPECT_EQ(cudaMemLocationTypeHost, t);
	/* HostNuma: type HostNuma, id node, legacy attribute cudaCpuDeviceId */
	EXPECT_EQ(cudaSuccess, cudaMemAdvise(p, MIB, cudaMemAdviseSetPreferredLocation,
					     loc(cudaMemLocationTypeHostNuma, node)));
	ASSERT_EQ(cudaSuccess, cudaMemRangeGetAttribute(&t, sizeof(t),
		  cudaMemRangeAttributePreferredLocationType, p, MIB));
	EXPECT_EQ(cudaMemLocationTypeHostNuma, t);
	EXPECT_EQ(node, range_int(cudaMemRangeAttributePreferredLocationId, p, MIB));
	EXPECT_EQ(cudaCpuDeviceId, range_int(cudaMemRangeAttributePreferredLocation, p, MIB));
	/* Device: passed through to the module */
	EXPECT_EQ(cudaSuccess, cudaMemAdvise(p, MIB, cudaMemAdviseSetPreferredLocation,
					     loc(cudaMemLocationTypeDevice, self->ndev - 1)));
	EXPECT_EQ(self->ndev - 1, range_int(cudaMemRangeAttributePreferredLocation, p, MIB));
	EXPECT_EQ(self->ndev - 1, range_int(cudaMemRangeAttributePreferredLocationId, p, MIB));
	/* half the range differs -> invalid */
	EXPECT_EQ(cudaSuccess, cudaMemAdvise(p, MIB / 2, cudaMemAdviseUnsetPreferredLocation,
					     loc(cudaMemLocationTypeInvalid, 0)));
	EXPECT_EQ(cudaInvalidDeviceId, range_int(cudaMemRangeAttributePreferredLocation, p, MIB));
	ASSERT_EQ(cudaSuccess, cudaMemRangeGetAttribute(&t, sizeof(t),
		  cudaMemRangeAttributePreferredLocationType, p, MIB));
	EXPECT_EQ(cudaMemLocationTypeInvalid, t);
	EXPECT_EQ(cudaSuccess, cudaFree(p));
}

TEST_F(rt, advise_accessed_by)
{
	struct uvm_range_info ri;
	int v[4];
	void *p;

	ASSERT_EQ(cudaSuccess, cudaMallocManaged(&p, MIB, cudaMemAttachGlobal));
	EXPECT_EQ(cudaSuccess, cudaMemAdvise(p, MIB, cudaMemAdviseSetAccessedBy,
					     loc(cudaMemLocationTypeDevice, 0)));
	ASSERT_EQ(cudaSuccess, cudaMemRangeGetAttribute(v, 12, cudaMemRangeAttributeAccessedBy, p, MIB));
	EXPECT_EQ(0, v[0]);
	EXPECT_EQ(cudaInvalidDeviceId, v[1]);
	EXPECT_EQ(cudaInvalidDeviceId, v[2]);
	EXPECT_EQ(cudaSuccess, cudaMemAdvise(p, MIB, cudaMemAdviseSetAccessedBy,
					     loc(cudaMemLocationTypeHost, 0)));
	ASSERT_EQ(0, uvm_range_attrs(self->ctx, p, MIB, &ri));
	EXPECT_EQ(1, ri.accessed_by_devices);
	EXPECT_EQ(1, ri.accessed_by_host);
	ASSERT_EQ(cudaSuccess, cudaMemRangeGetAttribute(v, 16, cudaMemRangeAttributeAccessedBy, p, MIB));
	EXPECT_EQ(0, v[0]);
	EXPECT_EQ(cudaCpuDeviceId, v[1]);
	EXPECT_EQ(cudaInvalidDeviceId, v[2]);
	EXPECT_EQ(cudaSuccess, cudaMemAdvise(p, MIB, cudaMemAdviseUnsetAccessedBy,
					     loc(cudaMemLocationTypeDevice, 0)));
	EXPECT_EQ(cudaSuccess, cudaMemAdvise(p, MIB, cudaMemAdviseUnsetAccessedBy,
					     loc(cudaMemLocationTypeHost, 0)));
	ASSERT_EQ(0, uvm_range_attrs(self->ctx, p, MIB, &ri));
	EXPECT_EQ(0, ri.accessed_by_devices);
	EXPECT_EQ(0, ri.accessed_by_host);
	EXPECT_EQ(cudaSuccess, cudaFree(p));
}

TEST_F(rt, prefetch_host_numa_async)
{
	enum cudaMemLocationType t;
	uint64_t before[8], after[8];
	size_t len = 4 * MIB;
	cudaStream_t s;
	void *p;

	if (self->nodes < 2)
		SKIP(return, "needs 2 NUMA nodes");
	ASSERT_EQ(cudaSuccess, cudaStreamCreate(&s));
	ASSERT_EQ(cudaSuccess, cudaMallocManaged(&p, len, cudaMemAttachGlobal));
	/* Populate on node 0 whatever CPU this thread runs on. */
	ASSERT_EQ(cudaSuccess, cudaMemPrefetchAsync(p, len, loc(cudaMemLocationTypeHostNuma, 0), 0, s));
	ASSERT_EQ(cudaSuccess, cudaStreamSynchronize(s));
	fill(p, len, 7);
	ASSERT_LE(UVM_COUNTER_PAGES_FREED + 1,
		  uvm_stats(self->ctx, UVM_STATS_SCOPE_CONTEXT, before, 8));
	ASSERT_EQ(cudaSuccess, cudaMemPrefetchAsync(p, len, loc(cudaMemLocationTypeHostNuma, 1), 0, s));
	/* the request is what the query reports, before any sync */
	ASSERT_EQ(cudaSuccess, cudaMemRangeGetAttribute(&t, sizeof(t),
		  cudaMemRangeAttributeLastPrefetchLocationType, p, len));
	EXPECT_EQ(cudaMemLocationTypeHostNuma, t);
	EXPECT_EQ(1, range_int(cudaMemRangeAttributeLastPrefetchLocationId, p, len));
	EXPECT_EQ(cudaCpuDeviceId, range_int(cudaMemRangeAttributeLastPrefetchLocation, p, len));
	ASSERT_EQ(cudaSuccess, cudaStreamSynchronize(s));
	EXPECT_TRUE(all_on_node(self->ctx, p, len, 1));
	EXPECT_TRUE(check_fill(p, len, 7));
	uvm_stats(self->ctx, UVM_STATS_SCOPE_CONTEXT, after, 8);
	EXPECT_EQ(before[UVM_COUNTER_PREFETCHES] + 1, after[UVM_COUNTER_PREFETCHES]);
	EXPECT_GE(after[UVM_COUNTER_MIGRATE_H2H_PAGES] - before[UVM_COUNTER_MIGRATE_H2H_PAGES],
		  len / PAGE_SZ);
	/* and back, on the legacy stream; Host: data stays where it is */
	ASSERT_EQ(cudaSuccess, cudaMemPrefetchAsync(p, len, loc(cudaMemLocationTypeHostNuma, 0), 0, 0));
	ASSERT_EQ(cudaSuccess, cudaDeviceSynchronize());
	EXPECT_TRUE(all_on_node(self->ctx, p, len, 0));
	ASSERT_EQ(cudaSuccess, cudaMemPrefetchAsync(p, len, loc(cudaMemLocationTypeHost, 5), 0, s));
	ASSERT_EQ(cudaSuccess, cudaStreamSynchronize(s));
	EXPECT_EQ(cudaCpuDeviceId, range_int(cudaMemRangeAttributeLastPrefetchLocation, p, len));
	ASSERT_EQ(cudaSuccess, cudaMemRangeGetAttribute(&t, sizeof(t),
		  cudaMemRangeAttributeLastPrefetchLocationType, p, len));
	EXPECT_EQ(cudaMemLocationTypeHost, t);
	EXPECT_TRUE(check_fill(p, len, 7));
	EXPECT_EQ(cudaSuccess, cudaFree(p));
	EXPECT_EQ(cudaSuccess, cudaStreamDestroy(s));
}

TEST_F(rt, prefetch_numa_current_is_the_callers_node)
{
	int node = self->nodes - 1, cpu;
	cpu_set_t set;
	void *p;

	ASSERT_EQ(cudaSuccess, cudaMallocManaged(&p, MIB, cudaMemAttachGlobal));
	/* run on a CPU of the last node, then ask for "my node" */
	CPU_ZERO(&set);
	for (cpu = 0; cpu < CPU_SETSIZE; cpu++) {
		if (numa_available() >= 0 && numa_node_of_cpu(cpu) == node)
			CPU_SET(cpu, &set);
	}
	if (CPU_COUNT(&set))
		ASSERT_EQ(0, sched_setaffinity(0, sizeof(set), &set));
	node = numa_available() >= 0 ? numa_node_of_cpu(sched_getcpu()) : 0;
	ASSERT_EQ(cudaSuccess, cudaMemPrefetchAsync(p, MIB, loc(cudaMemLocationTypeHostNumaCurrent, 3),
						    0, cudaStreamPerThread));
	EXPECT_EQ(node, range_int(cudaMemRangeAttributeLastPrefetchLocationId, p, MIB));
	/* Real CUDA 13 (H100, driver 580): the type as asked, the legacy id -1. */
	EXPECT_EQ(cudaMemLocationTypeHostNumaCurrent,
		  range_int(cudaMemRangeAttributeLastPrefetchLocationType, p, MIB));
	EXPECT_EQ(cudaCpuDeviceId, range_int(cudaMemRangeAttributeLastPrefetchLocation, p, MIB));
	ASSERT_EQ(cudaSuccess, cudaStreamSynchronize(cudaStreamPerThread));
	EXPECT_TRUE(all_on_node(self->ctx, p, MIB, node));
	EXPECT_EQ(cudaSuccess, cudaFree(p));
}

/* Every page of [p, p + len) resident on device @dev only. */
static int all_on_device(struct uvm_context *ctx, void *p, size_t len, int dev)
{
	size_t n = (len + PAGE_SZ - 1) / PAGE_SZ, i;
	struct uvm_page_info *pg = calloc(n, sizeof(*pg));
	int ok;

	ok = pg && uvm_residency(ctx, p, n, pg) == 0;
	for (i = 0; ok && i < n; i++)
		ok = (pg[i].flags & UVM_PAGE_INFO_POPULATED) &&
		     pg[i].devices_resident == (1ULL << dev) && pg[i].cpu_node == -1;
	free(pg);
	return ok;
}

/* What a kernel on @dev reads at [p, p + len): 0 or -errno. */
static int device_read(struct uvm_context *ctx, int dev, const void *p, size_t len, void *buf)
{
	struct uvm_device_access_op op = { .addr = (uintptr_t)p, .length = len,
					   .buf = (uintptr_t)buf, .type = UVM_DEVICE_ACCESS_READ };

	return uvm_device_access(ctx, (unsigned int)dev, &op, 1, NULL);
}

static uint64_t counter(struct uvm_context *ctx, int idx)
{
	uint64_t v[UVM_COUNTER_CPU_DEVICE_MAPS + 1] = { 0 };

	uvm_stats(ctx, UVM_STATS_SCOPE_CONTEXT, v, UVM_COUNTER_CPU_DEVICE_MAPS + 1);
	return v[idx];
}

TEST_F(rt, prefetch_device_target)
{
	int dev = self->ndev - 1;
	unsigned int faults = 99;
	uint64_t h2d;
	char *buf;
	void *p;

	buf = malloc(MIB);
	ASSERT_NE(NULL, buf);
	ASSERT_EQ(cudaSuccess, cudaMallocManaged(&p, MIB, cudaMemAttachGlobal));
	fill(p, MIB, 77);
	h2d = counter(self->ctx, UVM_COUNTER_MIGRATE_H2D_PAGES);
	ASSERT_EQ(cudaSuccess, cudaMemPrefetchAsync(p, MIB, loc(cudaMemLocationTypeDevice, dev),
						    0, 0));
	/* recorded at request time */
	EXPECT_EQ(dev, range_int(cudaMemRangeAttributeLastPrefetchLocation, p, MIB));
	EXPECT_EQ(cudaMemLocationTypeDevice,
		  range_int(cudaMemRangeAttributeLastPrefetchLocationType, p, MIB));
	ASSERT_EQ(cudaSuccess, cudaStreamSynchronize(0));
	EXPECT_TRUE(all_on_device(self->ctx, p, MIB, dev));
	EXPECT_EQ(h2d + MIB / PAGE_SZ, counter(self->ctx, UVM_COUNTER_MIGRATE_H2D_PAGES));
	/* the device reads the data where it now lives (its faults, if the
	 * module maps lazily, move nothing) */
	struct uvm_device_access_op op = { .addr = (uintptr_t)p, .length = MIB,
					   .buf = (uintptr_t)buf, .type = UVM_DEVICE_ACCESS_READ };
	ASSERT_EQ(0, uvm_device_access(self->ctx, (unsigned int)dev, &op, 1, &faults));
	EXPECT_LE(faults, MIB / PAGE_SZ);
	EXPECT_TRUE(all_on_device(self->ctx, p, MIB, dev));
	EXPECT_TRUE(check_fill(buf, MIB, 77));
	/* the CPU touch brings it back, byte-exact */
	EXPECT_TRUE(check_fill(p, MIB, 77));
	/* driver twin, legacy form */
	EXPECT_EQ(CUDA_SUCCESS, cuMemPrefetchAsync((CUdeviceptr)p, MIB,
						   (CUmemLocation){ CU_MEM_LOCATION_TYPE_DEVICE, 0 },
						   0, NULL));
	EXPECT_EQ(cudaSuccess, cudaDeviceSynchronize());
	EXPECT_TRUE(all_on_device(self->ctx, p, MIB, 0));
	EXPECT_EQ(0, device_read(self->ctx, 0, p, MIB, buf));
	EXPECT_TRUE(check_fill(buf, MIB, 77));
	EXPECT_EQ(cudaSuccess, cudaFree(p));
	free(buf);
}

TEST_F(rt, prefetch_batch_and_discard)
{
	struct cudaMemLocation locs[2];
	size_t sizes[4], idxs[2] = { 0, 2 };
	int node = self->nodes > 1 ? 1 : 0;
	void *p[4];
	cudaStream_t s;
	int i;

	ASSERT_EQ(cudaSuccess, cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
	for (i = 0; i < 4; i++) {
		sizes[i] = (size_t)(i + 1) * MIB;
		ASSERT_EQ(cudaSuccess, cudaMallocManaged(&p[i], sizes[i], cudaMemAttachGlobal));
		fill(p[i], sizes[i], 10 + i);
	}
	locs[0] = loc(cudaMemLocationTypeHostNuma, 0);
	locs[1] = loc(cudaMemLocationTypeHostNuma, node);
	EXPECT_EQ(cudaInvalidDeviceId, range_int(cudaMemRangeAttributeLastPrefetchLocation, p[3], MIB));
	ASSERT_EQ(cudaSuccess, cudaMemPrefetchBatchAsync(p, sizes, 4, locs, idxs, 2, 0, s));
	for (i = 0; i < 4; i++) {
		EXPECT_EQ(i < 2 ? 0 : node,
			  range_int(cudaMemRangeAttributeLastPrefetchLocationId, p[i], sizes[i]));
	}
	ASSERT_EQ(cudaSuccess, cudaStreamSynchronize(s));
	for (i = 0; i < 4; i++) {
		EXPECT_TRUE(all_on_node(self->ctx, p[i], sizes[i], i < 2 ? 0 : node));
		EXPECT_TRUE(check_fill(p[i], sizes[i], 10 + i));
		EXPECT_EQ(cudaSuccess, cudaFree(p[i]));
	}
	EXPECT_EQ(cudaSuccess, cudaStreamDestroy(s));
}

TEST_F(rt, discard_batches)
{
	struct cudaMemLocation locs[2] = { loc(cudaMemLocationTypeDevice, 0),
					   loc(cudaMemLocationTypeHost, 0) };
	size_t sizes[3] = { MIB, 2 * MIB, MIB }, idxs[2] = { 0, 2 };
	void *p[3], *d[3];
	uint64_t before;
	unsigned char *b;
	char *buf;
	size_t i;
	cudaStream_t s;

	buf = malloc(2 * MIB);
	ASSERT_NE(NULL, buf);
	ASSERT_EQ(cudaSuccess, cudaStreamCreate(&s));
	for (i = 0; i < 3; i++) {
		ASSERT_EQ(cudaSuccess, cudaMallocManaged(&p[i], sizes[i], cudaMemAttachGlobal));
		memset(p[i], 0xab, sizes[i]);
	}
	/* discard the middle of p[0] (unaligned: partial pages keep their bytes) */
	before = counter(self->ctx, UVM_COUNTER_DISCARDED_PAGES);
	d[0] = (char *)p[0] + 100;
	sizes[0] = 8 * PAGE_SZ;
	ASSERT_EQ(cudaSuccess, cudaMemDiscardBatchAsync(d, sizes, 1, 0, s));
	ASSERT_EQ(cudaSuccess, cudaStreamSynchronize(s));
	EXPECT_EQ(before + 7, counter(self->ctx, UVM_COUNTER_DISCARDED_PAGES));
	b = p[0];
	EXPECT_EQ(0xab, b[PAGE_SZ - 1]);	/* partial first page kept */
	EXPECT_EQ(0, b[PAGE_SZ]);		/* whole pages: zero on next touch */
	EXPECT_EQ(0, b[8 * PAGE_SZ - 1]);
	EXPECT_EQ(0xab, b[8 * PAGE_SZ + 100]);	/* partial last page kept */
	/* discard and prefetch: p[0], p[1] to device 0, p[2] to the host */
	sizes[0] = MIB;
	ASSERT_EQ(cudaSuccess, cudaMemDiscardAndPrefetchBatchAsync(p, sizes, 3, locs, idxs, 2, 0, s));
	EXPECT_EQ(0, range_int(cudaMemRangeAttributeLastPrefetchLocation, p[1], sizes[1]));
	EXPECT_EQ(cudaCpuDeviceId, range_int(cudaMemRangeAttributeLastPrefetchLocation, p[2], MIB));
	ASSERT_EQ(cudaSuccess, cudaStreamSynchronize(s));
	EXPECT_TRUE(all_on_device(self->ctx, p[0], MIB, 0));
	EXPECT_TRUE(all_on_device(self->ctx, p[1], 2 * MIB, 0));
	/* written fresh on the device: the old contents are gone, writes work */
	memset(buf, 0x5a, 2 * MIB);
	{
		struct uvm_device_access_op op = { .addr = (uintptr_t)p[1], .length = 2 * MIB,
						   .buf = (uintptr_t)buf,
						   .type = UVM_DEVICE_ACCESS_WRITE };
		ASSERT_EQ(0, uvm_device_access(self->ctx, 0, &op, 1, NULL));
	}
	for (i = 0, b = p[1]; i < 2 * MIB; i++) {
		if (b[i] != 0x5a)
			break;
	}
	EXPECT_EQ(2 * MIB, i);
	/* driver twin */
	EXPECT_EQ(CUDA_SUCCESS, cuMemDiscardBatchAsync((CUdeviceptr *)p, sizes, 3, 0,
						       (CUstream)s));
	EXPECT_EQ(cudaSuccess, cudaStreamSynchronize(s));
	for (i = 0; i < 3; i++) {
		EXPECT_EQ(cudaSuccess, cudaFree(p[i]));
	}
	EXPECT_EQ(cudaSuccess, cudaStreamDestroy(s));
	free(buf);
}

TEST_F(rt, range_get_attributes_plural)
{
	enum cudaMemRangeAttribute attrs[3] = { cudaMemRangeAttributeReadMostly,
		cudaMemRangeAttributeAccessedBy, cudaMemRangeAttributePreferredLocationType };
	int rm = -1, ab[2] = { 5, 5 };
	enum cudaMemLocationType t = 99;
	void *data[3] = { &rm, ab, &t };
	size_t sizes[3] = { 4, 8, 4 };
	void *p;

	ASSERT_EQ(cudaSuccess, cudaMallocManaged(&p, MIB, cudaMemAttachGlobal));
	EXPECT_EQ(cudaSuccess, cudaMemAdvise(p, MIB, cudaMemAdviseSetReadMostly,
					     loc(cudaMemLocationTypeInvalid, 0)));
	ASSERT_EQ(cudaSuccess, cudaMemRangeGetAttributes(data, sizes, attrs, 3, p, MIB));
	EXPECT_EQ(1, rm);
	EXPECT_EQ(cudaInvalidDeviceId, ab[0]);
	EXPECT_EQ(cudaInvalidDeviceId, ab[1]);
	EXPECT_EQ(cudaMemLocationTypeInvalid, t);
	EXPECT_EQ(cudaSuccess, cudaFree(p));
}

TEST_F(rt, pointer_attributes)
{
	struct cudaPointerAttributes pa;
	int on_stack = 0;
	char *p;

	ASSERT_EQ(cudaSuccess, cudaSetDevice(self->ndev - 1));
	ASSERT_EQ(cudaSuccess, cudaMallocManaged((void **)&p, MIB, cudaMemAttachGlobal));
	cudaSetDevice(0);
	memset(&pa, 0x55, sizeof(pa));
	ASSERT_EQ(cudaSuccess, cudaPointerGetAttributes(&pa, p + 100));
	EXPECT_EQ(cudaMemoryTypeManaged, pa.type);
	EXPECT_EQ(self->ndev - 1, pa.device);
	EXPECT_EQ(p + 100, pa.hostPointer);
	EXPECT_EQ(p + 100, pa.devicePointer);
	EXPECT_EQ(0, pa.reserved[0]);
	EXPECT_EQ(0, pa.reserved[7]);
	ASSERT_EQ(cudaSuccess, cudaPointerGetAttributes(&pa, &on_stack));
	EXPECT_EQ(cudaMemoryTypeUnregistered, pa.type);
	EXPECT_EQ(cudaInvalidDeviceId, pa.device);
	EXPECT_EQ(NULL, pa.devicePointer);
	EXPECT_EQ((void *)&on_stack, pa.hostPointer);
	EXPECT_EQ(cudaSuccess, cudaFree(p));
	/* freed: unregistered again */
	ASSERT_EQ(cudaSuccess, cudaPointerGetAttributes(&pa, p));
	EXPECT_EQ(cudaMemoryTypeUnregistered, pa.type);
}

/* The plain driver symbols keep CUDA 10's CUdevice signatures. */
CUresult legacy_cuMemAdvise(CUdeviceptr, size_t, CUmem_advise, CUdevice) __asm__("cuMemAdvise");
CUresult legacy_cuMemPrefetchAsync(CUdeviceptr, size_t, CUdevice, CUstream)
	__asm__("cuMemPrefetchAsync");

TEST_F(rt, driver_api)
{
	CUpointer_attribute pattrs[3] = { CU_POINTER_ATTRIBUTE_IS_MANAGED,
		CU_POINTER_ATTRIBUTE_DEVICE_ORDINAL, CU_POINTER_ATTRIBUTE_BUFFER_ID };
	struct uvm_managed_info mi;
	unsigned long long id = 0;
	unsigned int managed = 7, mtype = 0;
	CUdeviceptr start = 0;
	size_t size = 0;
	int ord = 5, v = 0, on_stack;
	void *pdata[3] = { &managed, &ord, &id };
	CUdeviceptr d;
	void *p;

	ASSERT_EQ(cudaSuccess, cudaMallocManaged(&p, 3 * MIB, cudaMemAttachGlobal));
	d = (CUdeviceptr)p;
	ASSERT_EQ(0, uvm_managed_query(self->ctx, p, &mi));
	/* cuMemAdvise_v2 (what cuda.h links) and the legacy CUdevice form */
	EXPECT_EQ(CUDA_SUCCESS, cuMemAdvise(d, MIB, CU_MEM_ADVISE_SET_PREFERRED_LOCATION,
					    (CUmemLocation){ CU_MEM_LOCATION_TYPE_DEVICE, 0 }));
	EXPECT_EQ(CUDA_SUCCESS, cuMemRangeGetAttribute(&v, 4, CU_MEM_RANGE_ATTRIBUTE_PREFERRED_LOCATION,
						       d, MIB));
	EXPECT_EQ(0, v);
	EXPECT_EQ(CUDA_SUCCESS, legacy_cuMemAdvise(d, MIB, CU_MEM_ADVISE_SET_PREFERRED_LOCATION,
						   CU_DEVICE_CPU));
	EXPECT_EQ(cudaCpuDeviceId, range_int(cudaMemRangeAttributePreferredLocation, p, MIB));
	EXPECT_EQ(CUDA_SUCCESS, cuMemPrefetchAsync(d, MIB, (CUmemLocation){ CU_MEM_LOCATION_TYPE_HOST, 0 },
						   0, CU_STREAM_PER_THREAD));
	EXPECT_EQ(cudaCpuDeviceId, range_int(cudaMemRangeAttributeLastPrefetchLocation, p, MIB));
	EXPECT_EQ(CUDA_SUCCESS, legacy_cuMemPrefetchAsync(d + MIB, MIB, CU_DEVICE_CPU, NULL));
	EXPECT_EQ(cudaCpuDeviceId, range_int(cudaMemRangeAttributeLastPrefetchLocation,
					     (char *)p + MIB, MIB));
	EXPECT_EQ(CUDA_SUCCESS, cuPointerGetAttribute(&mtype, CU_POINTER_ATTRIBUTE_MEMORY_TYPE, d + 8));
	EXPECT_EQ(CU_MEMORYTYPE_DEVICE, mtype);
	EXPECT_EQ(CUDA_SUCCESS, cuPointerGetAttribute(&start, CU_POINTER_ATTRIBUTE_RANGE_START_ADDR, d + 8));
	EXPECT_EQ(d, start);
	EXPECT_EQ(CUDA_SUCCESS, cuPointerGetAttribute(&size, CU_POINTER_ATTRIBUTE_RANGE_SIZE, d + 8));
	EXPECT_EQ(3 * MIB, size);
	EXPECT_EQ(CUDA_SUCCESS, cuPointerGetAttributes(3, pattrs, pdata, d + 8));
	EXPECT_EQ(1, managed);
	EXPECT_EQ(0, ord);
	EXPECT_EQ(mi.buffer_id, id);
	/* plural call on a non-CUDA pointer: success with defaults */
	EXPECT_EQ(CUDA_SUCCESS, cuPointerGetAttributes(3, pattrs, pdata, (CUdeviceptr)&on_stack));
	EXPECT_EQ(0, managed);
	EXPECT_EQ(0, id);
	EXPECT_EQ(cudaSuccess, cudaDeviceSynchronize());
	EXPECT_EQ(cudaSuccess, cudaFree(p));
}

TEST_F(rt, stream_attach_mem)
{
	struct uvm_managed_info mi;
	cudaStream_t s;
	void *p;

	ASSERT_EQ(cudaSuccess, cudaStreamCreate(&s));
	ASSERT_EQ(cudaSuccess, cudaMallocManaged(&p, MIB, cudaMemAttachGlobal));
	EXPECT_EQ(cudaSuccess, cudaStreamAttachMemAsync(s, p, 0, cudaMemAttachSingle));
	EXPECT_EQ(cudaSuccess, cudaStreamAttachMemAsync(s, p, MIB, cudaMemAttachHost));
	EXPECT_EQ(cudaSuccess, cudaStreamAttachMemAsync(0, p, 0, cudaMemAttachGlobal));
	EXPECT_EQ(cudaSuccess, cudaStreamSynchronize(s));
	EXPECT_EQ(cudaSuccess, cudaStreamDestroy(s));
	ASSERT_EQ(0, uvm_managed_query(self->ctx, p, &mi));
	EXPECT_EQ(cudaMemAttachGlobal, mi.flags);	/* allocation flags unchanged */
	EXPECT_EQ(cudaSuccess, cudaFree(p));
}

/* 8 threads: own stream, allocate, advise, prefetch to a node and to a
 * device, check data on the host and on the device, free. */
#define NTHREADS 8

struct worker_arg {
	struct uvm_context *ctx;
	int nodes, idx, ndev;
};

static void *worker(void *argp)
{
	struct worker_arg *a = argp;
	int node = a->idx % a->nodes, round, dev = a->idx % a->ndev;
	size_t len = (size_t)(a->idx + 1) * MIB + 4096;
	char *buf = malloc(len);
	long bad = !buf;
	cudaStream_t s;
	void *p;

	bad += cudaSetDevice(dev) != cudaSuccess;
	bad += cudaStreamCreate(&s) != cudaSuccess;
	for (round = 0; round < 4 && !bad; round++) {
		bad += cudaMallocManaged(&p, len, cudaMemAttachGlobal) != cudaSuccess;
		if (bad)
			break;
		fill(p, len, a->idx * 100 + round);
		bad += cudaMemAdvise(p, len, cudaMemAdviseSetPreferredLocation,
				     loc(cudaMemLocationTypeHostNuma, node)) != cudaSuccess;
		bad += cudaMemPrefetchAsync(p, len, loc(cudaMemLocationTypeHostNuma, node), 0, s) != 0;
		bad += range_int(cudaMemRangeAttributeLastPrefetchLocationId, p, len) != node;
		bad += cudaStreamSynchronize(s) != cudaSuccess;
		bad += !all_on_node(a->ctx, p, len, node);
		bad += !check_fill(p, len, a->idx * 100 + round);
		bad += range_int(cudaMemRangeAttributePreferredLocationId, p, len) != node;
		/* to the thread's device and back, data checked on the device */
		bad += cudaMemPrefetchAsync(p, len, loc(cudaMemLocationTypeDevice, dev), 0, s) != 0;
		bad += range_int(cudaMemRangeAttributeLastPrefetchLocation, p, len) != dev;
		bad += cudaStreamSynchronize(s) != cudaSuccess;
		bad += !all_on_device(a->ctx, p, len, dev);
		memset(buf, 0, len);
		bad += device_read(a->ctx, dev, p, len, buf) != 0;
		bad += !check_fill(buf, len, a->idx * 100 + round);
		bad += !check_fill(p, len, a->idx * 100 + round);
		bad += cudaFree(p) != cudaSuccess;
	}
	bad += cudaStreamDestroy(s) != cudaSuccess;
	free(buf);
	return (void *)bad;
}

TEST_F(rt, eight_threads)
{
	struct worker_arg args[NTHREADS];
	pthread_t th[NTHREADS];
	void *ret;
	int i;

	for (i = 0; i < NTHREADS; i++) {
		args[i] = (struct worker_arg){ self->ctx, self->nodes, i, self->ndev };
		ASSERT_EQ(0, pthread_create(&th[i], NULL, worker, &args[i]));
	}
	for (i = 0; i < NTHREADS; i++) {
		ASSERT_EQ(0, pthread_join(th[i], &ret));
		EXPECT_EQ(NULL, ret);
	}
}

TEST_HARNESS_MAIN
