// SPDX-License-Identifier: GPL-2.0
// LDLIBS: -luvm -lnuma -lpthread
/*
 * cuda_badinput_test.c - every documented error code of libuvm's managed
 * memory calls (runtime and driver), one rule per test, everything else
 * valid; and that a failing runtime call leaves its code as the thread's
 * last error. Needs the module (the runtime must initialise).
 */
#include "cuda_test_util.h"
#include "kselftest_harness.h"

#define INV	cudaErrorInvalidValue

/*
 * An address nothing maps. (Plain host memory is pageable memory, which
 * devices reach where the module mirrors it: cuda_pageable_test.c.)
 */
static void *hole(void)
{
	void *p = mmap(NULL, 4096, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	munmap(p, 4096);
	return p;
}

FIXTURE(bad) {
	void *p;		/* 2 MiB managed */
	int ndev;
	cudaStream_t s;
};

FIXTURE_SETUP(bad)
{
	ASSERT_EQ(cudaSuccess, cudaGetDeviceCount(&self->ndev));
	ASSERT_EQ(cudaSuccess, cudaMallocManaged(&self->p, 2 * MIB, cudaMemAttachGlobal));
	ASSERT_EQ(cudaSuccess, cudaStreamCreate(&self->s));
}

FIXTURE_TEARDOWN(bad)
{
	EXPECT_EQ(cudaSuccess, cudaStreamDestroy(self->s));
	EXPECT_EQ(cudaSuccess, cudaFree(self->p));
	cudaGetLastError();
}

TEST_F(bad, malloc_managed)
{
	void *q = (void *)0x1;

	EXPECT_EQ(INV, cudaMallocManaged(NULL, 4096, cudaMemAttachGlobal));
	EXPECT_EQ(INV, cudaMallocManaged(&q, 0, cudaMemAttachGlobal));
	EXPECT_EQ(INV, cudaMallocManaged(&q, 4096, 0));
	EXPECT_EQ(INV, cudaMallocManaged(&q, 4096, cudaMemAttachGlobal | cudaMemAttachHost));
	EXPECT_EQ(INV, cudaMallocManaged(&q, 4096, cudaMemAttachSingle));
	EXPECT_EQ(INV, cudaGetLastError());
	EXPECT_EQ(cudaErrorMemoryAllocation, cudaMallocManaged(&q, SIZE_MAX, cudaMemAttachGlobal));
	EXPECT_EQ(cudaErrorMemoryAllocation, cudaMallocManaged(&q, SIZE_MAX / 2, cudaMemAttachGlobal));
	EXPECT_EQ(cudaErrorMemoryAllocation, cudaPeekAtLastError());
	EXPECT_EQ((void *)0x1, q);
}

TEST_F(bad, free)
{
	int on_stack;
	void *q;

	EXPECT_EQ(INV, cudaFree((char *)self->p + 4096));	/* interior */
	EXPECT_EQ(INV, cudaFree(&on_stack));			/* unregistered */
	ASSERT_EQ(cudaSuccess, cudaMallocManaged(&q, 4096, cudaMemAttachGlobal));
	EXPECT_EQ(cudaSuccess, cudaFree(q));
	EXPECT_EQ(INV, cudaFree(q));				/* double */
}

TEST_F(bad, advise)
{
	struct cudaMemLocation host = loc(cudaMemLocationTypeHost, 0);

	EXPECT_EQ(INV, cudaMemAdvise(self->p, MIB, 0, host));
	EXPECT_EQ(INV, cudaMemAdvise(self->p, MIB, 7, host));
	EXPECT_EQ(INV, cudaMemAdvise(hole(), 4, cudaMemAdviseSetReadMostly, host));
	EXPECT_EQ(INV, cudaMemAdvise(self->p, 4 * MIB, cudaMemAdviseSetReadMostly, host));
	EXPECT_EQ(INV, cudaMemAdvise(self->p, 0, cudaMemAdviseSetReadMostly, host));
	EXPECT_EQ(INV, cudaMemAdvise(NULL, 4096, cudaMemAdviseSetReadMostly, host));
	/* Real CUDA 13 (H100, driver 580): an unknown device is InvalidValue here. */
	EXPECT_EQ(INV, cudaMemAdvise(self->p, MIB, cudaMemAdviseSetPreferredLocation,
				     loc(cudaMemLocationTypeDevice, self->ndev)));
	EXPECT_EQ(INV, cudaMemAdvise(self->p, MIB, cudaMemAdviseSetPreferredLocation,
				     loc(cudaMemLocationTypeDevice, 999)));
	EXPECT_EQ(INV, cudaMemAdvise(self->p, MIB, cudaMemAdviseSetAccessedBy,
				     loc(cudaMemLocationTypeDevice, -1)));
	EXPECT_EQ(INV, cudaMemAdvise(self->p, MIB, cudaMemAdviseUnsetAccessedBy,
				     loc(cudaMemLocationTypeDevice, 999)));
	EXPECT_EQ(INV, cudaGetLastError());
	/* ... while a prefetch to one is InvalidDevice. */
	EXPECT_EQ(cudaErrorInvalidDevice,
		  cudaMemPrefetchAsync(self->p, MIB, loc(cudaMemLocationTypeDevice, 999), 0, 0));
	EXPECT_EQ(cudaErrorInvalidDevice, cudaGetLastError());
	EXPECT_EQ(INV, cudaMemAdvise(self->p, MIB, cudaMemAdviseSetPreferredLocation,
				     loc(cudaMemLocationTypeHostNuma, 999)));
	EXPECT_EQ(INV, cudaMemAdvise(self->p, MIB, cudaMemAdviseSetPreferredLocation,
				     loc(cudaMemLocationTypeHostNuma, -1)));
	EXPECT_EQ(INV, cudaMemAdvise(self->p, MIB, cudaMemAdviseSetAccessedBy,
				     loc(cudaMemLocationTypeHostNuma, 0)));
	EXPECT_EQ(INV, cudaMemAdvise(self->p, MIB, cudaMemAdviseUnsetAccessedBy,
				     loc(cudaMemLocationTypeHostNumaCurrent, 0)));
	EXPECT_EQ(INV, cudaMemAdvise(self->p, MIB, cudaMemAdviseSetPreferredLocation,
				     loc(cudaMemLocationTypeInvalid, 0)));
	EXPECT_EQ(INV, cudaMemAdvise(self->p, MIB, cudaMemAdviseSetPreferredLocation,
				     loc((enum cudaMemLocationType)5, 0)));
	EXPECT_EQ(INV, cudaGetLastError());
}

TEST_F(bad, prefetch)
{
	struct cudaMemLocation host = loc(cudaMemLocationTypeHost, 0);

	EXPECT_EQ(INV, cudaMemPrefetchAsync(self->p, MIB, host, 1, self->s));
	EXPECT_EQ(INV, cudaMemPrefetchAsync(hole(), 4, host, 0, self->s));
	EXPECT_EQ(INV, cudaMemPrefetchAsync(self->p, 3 * MIB, host, 0, self->s));
	EXPECT_EQ(INV, cudaMemPrefetchAsync(self->p, 0, host, 0, self->s));
	EXPECT_EQ(cudaErrorInvalidDevice, cudaMemPrefetchAsync(self->p, MIB,
				loc(cudaMemLocationTypeDevice, self->ndev), 0, self->s));
	EXPECT_EQ(INV, cudaMemPrefetchAsync(self->p, MIB, loc(cudaMemLocationTypeHostNuma, 999),
					    0, self->s));
	EXPECT_EQ(INV, cudaMemPrefetchAsync(self->p, MIB, loc(cudaMemLocationTypeInvalid, 0),
					    0, self->s));
	EXPECT_EQ(cudaErrorInvalidResourceHandle,
		  cudaMemPrefetchAsync(self->p, MIB, host, 0, (cudaStream_t)0x1234));
	EXPECT_EQ(cudaErrorInvalidResourceHandle, cudaGetLastError());
	/* nothing was queued by any of these */
	EXPECT_EQ(cudaInvalidDeviceId, range_int(cudaMemRangeAttributeLastPrefetchLocation,
						 self->p, 2 * MIB));
	EXPECT_EQ(cudaSuccess, cudaStreamSynchronize(self->s));
}

TEST_F(bad, batches)
{
	struct cudaMemLocation locs[2] = { loc(cudaMemLocationTypeHost, 0),
					   loc(cudaMemLocationTypeHostNuma, 0) };
	void *ptrs[2] = { self->p, (char *)self->p + MIB };
	size_t sizes[2] = { MIB, MIB }, idx[2] = { 0, 1 }, idx_bad[2] = { 1, 1 };
	int on_stack;
	cudaStream_t s = self->s;

	EXPECT_EQ(INV, cudaMemPrefetchBatchAsync(ptrs, sizes, 2, locs, idx, 2, 1, s));
	EXPECT_EQ(INV, cudaMemPrefetchBatchAsync(ptrs, sizes, 2, locs, idx, 2, 0, 0));
	EXPECT_EQ(INV, cudaMemPrefetchBatchAsync(ptrs, sizes, 2, locs, idx, 2, 0, cudaStreamLegacy));
	EXPECT_EQ(INV, cudaMemPrefetchBatchAsync(ptrs, sizes, 0, locs, idx, 1, 0, s));
	EXPECT_EQ(INV, cudaMemPrefetchBatchAsync(ptrs, sizes, 2, locs, idx_bad, 2, 0, s));
	EXPECT_EQ(INV, cudaMemPrefetchBatchAsync(ptrs, sizes, 1, locs, idx, 2, 0, s));
	EXPECT_EQ(INV, cudaMemPrefetchBatchAsync(ptrs, sizes, 2, locs, idx, 0, 0, s));
	EXPECT_EQ(INV, cudaMemPrefetchBatchAsync(ptrs, sizes, 2, NULL, idx, 2, 0, s));
	EXPECT_EQ(INV, cudaMemPrefetchBatchAsync(ptrs, sizes, 2, locs, NULL, 2, 0, s));
	EXPECT_EQ(INV, cudaMemPrefetchBatchAsync(NULL, sizes, 2, locs, idx, 2, 0, s));
	ptrs[1] = &on_stack;
	EXPECT_EQ(INV, cudaMemPrefetchBatchAsync(ptrs, sizes, 2, locs, idx, 2, 0, s));
	EXPECT_EQ(INV, cudaMemDiscardBatchAsync(ptrs, sizes, 2, 0, s));
	EXPECT_EQ(INV, cudaMemDiscardAndPrefetchBatchAsync(ptrs, sizes, 2, locs, idx, 2, 0, s));
	ptrs[1] = (char *)self->p + MIB;
	locs[1] = loc(cudaMemLocationTypeDevice, self->ndev);
	EXPECT_EQ(cudaErrorInvalidDevice, cudaMemPrefetchBatchAsync(ptrs, sizes, 2, locs, idx, 2, 0, s));
	EXPECT_EQ(INV, cudaMemDiscardBatchAsync(ptrs, sizes, 2, 1, s));
	EXPECT_EQ(INV, cudaMemDiscardBatchAsync(ptrs, sizes, 2, 0, 0));
	EXPECT_EQ(INV, cudaMemDiscardBatchAsync(ptrs, sizes, 0, 0, s));
	EXPECT_EQ(cudaErrorInvalidResourceHandle,
		  cudaMemDiscardBatchAsync(ptrs, sizes, 2, 0, (cudaStream_t)0x1234));
	EXPECT_EQ(cudaInvalidDeviceId, range_int(cudaMemRangeAttributeLastPrefetchLocation,
						 self->p, 2 * MIB));
}

TEST_F(bad, range_attributes)
{
	enum cudaMemRangeAttribute a2[2] = { cudaMemRangeAttributeReadMostly, 9 };
	size_t sz2[2] = { 4, 4 };
	int v[2], w;
	void *d2[2] = { &v[0], &v[1] };

	EXPECT_EQ(INV, cudaMemRangeGetAttribute(&w, 8, cudaMemRangeAttributeReadMostly, self->p, MIB));
	EXPECT_EQ(INV, cudaMemRangeGetAttribute(&w, 2, cudaMemRangeAttributeLastPrefetchLocationType,
						self->p, MIB));
	EXPECT_EQ(INV, cudaMemRangeGetAttribute(v, 6, cudaMemRangeAttributeAccessedBy, self->p, MIB));
	EXPECT_EQ(INV, cudaMemRangeGetAttribute(v, 0, cudaMemRangeAttributeAccessedBy, self->p, MIB));
	EXPECT_EQ(INV, cudaMemRangeGetAttribute(&w, 4, 0, self->p, MIB));
	EXPECT_EQ(INV, cudaMemRangeGetAttribute(&w, 4, 9, self->p, MIB));
	EXPECT_EQ(INV, cudaMemRangeGetAttribute(NULL, 4, cudaMemRangeAttributeReadMostly, self->p, MIB));
	EXPECT_EQ(INV, cudaMemRangeGetAttribute(&w, 4, cudaMemRangeAttributeReadMostly, self->p, 0));
	EXPECT_EQ(INV, cudaMemRangeGetAttribute(&w, 4, cudaMemRangeAttributeReadMostly, hole(), 4));
	EXPECT_EQ(INV, cudaMemRangeGetAttribute(&w, 4, cudaMemRangeAttributeReadMostly, self->p,
						3 * MIB));
	EXPECT_EQ(INV, cudaMemRangeGetAttributes(d2, sz2, a2, 2, self->p, MIB));
	EXPECT_EQ(INV, cudaMemRangeGetAttributes(d2, sz2, a2, 0, self->p, MIB));
	EXPECT_EQ(INV, cudaMemRangeGetAttributes(NULL, sz2, a2, 1, self->p, MIB));
	EXPECT_EQ(INV, cudaGetLastError());
}

TEST_F(bad, pointer_attributes)
{
	struct cudaPointerAttributes pa;

	EXPECT_EQ(INV, cudaPointerGetAttributes(NULL, self->p));
	/* NULL is unregistered memory on real CUDA 13 (H100, driver 580). */
	memset(&pa, 0x55, sizeof(pa));
	EXPECT_EQ(cudaSuccess, cudaPointerGetAttributes(&pa, NULL));
	EXPECT_EQ(cudaMemoryTypeUnregistered, pa.type);
	EXPECT_EQ(cudaInvalidDeviceId, pa.device);
	EXPECT_EQ(NULL, pa.devicePointer);
	EXPECT_EQ(NULL, pa.hostPointer);
}

TEST_F(bad, stream_attach)
{
	EXPECT_EQ(INV, cudaStreamAttachMemAsync(self->s, self->p, 0, 0));
	EXPECT_EQ(INV, cudaStreamAttachMemAsync(self->s, self->p, 0, 3));
	EXPECT_EQ(INV, cudaStreamAttachMemAsync(0, self->p, 0, cudaMemAttachSingle));
	EXPECT_EQ(INV, cudaStreamAttachMemAsync(self->s, (char *)self->p + 4096, 0,
						cudaMemAttachSingle));
	EXPECT_EQ(INV, cudaStreamAttachMemAsync(self->s, self->p, 4096, cudaMemAttachSingle));
	EXPECT_EQ(cudaErrorInvalidResourceHandle,
		  cudaStreamAttachMemAsync((cudaStream_t)0x1234, self->p, 0, cudaMemAttachSingle));
}

TEST_F(bad, driver_codes)
{
	CUdeviceptr d = (CUdeviceptr)self->p;
	unsigned int v;
	int on_stack;
	CUpointer_attribute a = CU_POINTER_ATTRIBUTE_IS_MANAGED;
	void *data = &v;

	EXPECT_EQ(CUDA_ERROR_INVALID_VALUE, cuMemAdvise(d, MIB, CU_MEM_ADVISE_SET_ACCESSED_BY,
		  (CUmemLocation){ CU_MEM_LOCATION_TYPE_DEVICE, self->ndev }));
	EXPECT_EQ(CUDA_ERROR_INVALID_VALUE, cuMemAdvise(d, MIB, (CUmem_advise)0,
		  (CUmemLocation){ CU_MEM_LOCATION_TYPE_HOST, 0 }));
	EXPECT_EQ(CUDA_ERROR_INVALID_VALUE, cuMemPrefetchAsync(d, MIB,
		  (CUmemLocation){ CU_MEM_LOCATION_TYPE_HOST, 0 }, 1, NULL));
	EXPECT_EQ(CUDA_ERROR_INVALID_HANDLE, cuMemPrefetchAsync(d, MIB,
		  (CUmemLocation){ CU_MEM_LOCATION_TYPE_HOST, 0 }, 0, (CUstream)0x1234));
	EXPECT_EQ(CUDA_ERROR_INVALID_VALUE, cuMemRangeGetAttribute(&v, 8,
		  CU_MEM_RANGE_ATTRIBUTE_READ_MOSTLY, d, MIB));
	EXPECT_EQ(CUDA_ERROR_INVALID_VALUE, cuPointerGetAttribute(&v, CU_POINTER_ATTRIBUTE_IS_MANAGED,
								  (CUdeviceptr)&on_stack));
	EXPECT_EQ(CUDA_ERROR_INVALID_VALUE, cuPointerGetAttribute(&v, (CUpointer_attribute)99, d));
	EXPECT_EQ(CUDA_ERROR_INVALID_VALUE, cuPointerGetAttribute(NULL, CU_POINTER_ATTRIBUTE_IS_MANAGED,
								  d));
	EXPECT_EQ(CUDA_ERROR_NOT_SUPPORTED, cuPointerGetAttribute(&v, CU_POINTER_ATTRIBUTE_P2P_TOKENS, d));
	EXPECT_EQ(CUDA_ERROR_INVALID_VALUE, cuPointerGetAttributes(0, &a, &data, d));
	/* driver calls never set the runtime's last error */
	EXPECT_EQ(cudaSuccess, cudaGetLastError());
}

TEST_HARNESS_MAIN
