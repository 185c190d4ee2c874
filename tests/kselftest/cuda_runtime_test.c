// SPDX-License-Identifier: GPL-2.0
// LDLIBS: -luvm -lnuma -lpthread
/*
 * cuda_runtime_test.c - runtime calls real programs make: device flags,
 * P2P attributes, stream flags and priorities, host functions and
 * callbacks in stream order, stream-ordered allocation and memory pools
 * (cudaMallocAsync/cudaFreeAsync ordering, reuse, attributes, access),
 * cudaDeviceReset (cudaMemGetInfo before/after), cudaCreateChannelDesc,
 * profiler calls and the driver twins. Every error code, and that bad
 * input changes nothing. Needs the module.
 */
#include "cuda_test_util.h"
#include "kselftest_harness.h"

#include "../../include/uvm/cuda_profiler_api.h"

/* ---- a gate a host function waits on, so the test can hold a stream ---- */

static pthread_mutex_t gate_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t gate_cond = PTHREAD_COND_INITIALIZER;
static int gate_open;
static char order[16];
static int norder;
static void *cb_stream;
static int cb_status = -1;

static void gate_wait(void *arg)
{
	(void)arg;
	pthread_mutex_lock(&gate_lock);
	while (!gate_open)
		pthread_cond_wait(&gate_cond, &gate_lock);
	pthread_mutex_unlock(&gate_lock);
}

static void gate_set(int open)
{
	pthread_mutex_lock(&gate_lock);
	gate_open = open;
	pthread_cond_broadcast(&gate_cond);
	pthread_mutex_unlock(&gate_lock);
}

static void note(void *arg)
{
	order[norder++] = (char)(uintptr_t)arg;
}

static void stream_cb(cudaStream_t s, cudaError_t status, void *arg)
{
	cb_stream = s;
	cb_status = status;
	note(arg);
}

static void cu_cb(CUstream s, CUresult status, void *arg)
{
	cb_stream = s;
	cb_status = status;
	note(arg);
}

static uint64_t pool_attr(cudaMemPool_t p, enum cudaMemPoolAttr a)
{
	uint64_t v = 12345;

	if (cudaMemPoolGetAttribute(p, a, &v) != cudaSuccess)
		return 12345;
	return v;
}

static int ptr_type(const void *p)
{
	struct cudaPointerAttributes pa;

	if (cudaPointerGetAttributes(&pa, p) != cudaSuccess)
		return -1;
	return pa.type;
}

FIXTURE(rt) {
	int ndev;
};

FIXTURE_SETUP(rt)
{
	ASSERT_EQ(cudaSuccess, cudaGetDeviceCount(&self->ndev));
	gate_set(0);
	norder = 0;
	memset(order, 0, sizeof(order));
}

FIXTURE_TEARDOWN(rt)
{
	EXPECT_EQ(cudaSuccess, cudaGetLastError());
}

TEST_F(rt, device_flags)
{
	unsigned int f = 7;

	ASSERT_EQ(cudaSuccess, cudaGetDeviceFlags(&f));
	EXPECT_EQ(cudaDeviceMapHost, f);	/* implicit for the runtime */
	EXPECT_EQ(cudaSuccess, cudaSetDeviceFlags(cudaDeviceMapHost));
	EXPECT_EQ(cudaSuccess, cudaSetDeviceFlags(cudaDeviceScheduleBlockingSync |
						  cudaDeviceLmemResizeToMax));
	ASSERT_EQ(cudaSuccess, cudaGetDeviceFlags(&f));
	EXPECT_EQ(cudaDeviceScheduleBlockingSync | cudaDeviceLmemResizeToMax | cudaDeviceMapHost, f);
	/* two scheduling modes, unknown bits: refused, flags unchanged */
	EXPECT_EQ(cudaErrorInvalidValue,
		  cudaSetDeviceFlags(cudaDeviceScheduleSpin | cudaDeviceScheduleYield));
	EXPECT_EQ(cudaErrorInvalidValue, cudaSetDeviceFlags(0x100));
	EXPECT_EQ(cudaErrorInvalidValue, cudaGetLastError());
	f = 0;
	ASSERT_EQ(cudaSuccess, cudaGetDeviceFlags(&f));
	EXPECT_EQ(cudaDeviceScheduleBlockingSync | cudaDeviceLmemResizeToMax | cudaDeviceMapHost, f);
	EXPECT_EQ(cudaErrorInvalidValue, cudaGetDeviceFlags(NULL));
	cudaGetLastError();
	if (self->ndev > 1) {	/* kept per device */
		ASSERT_EQ(cudaSuccess, cudaSetDevice(1));
		ASSERT_EQ(cudaSuccess, cudaGetDeviceFlags(&f));
		EXPECT_EQ(cudaDeviceMapHost, f);
		ASSERT_EQ(cudaSuccess, cudaSetDevice(0));
	}
	EXPECT_EQ(cudaSuccess, cudaProfilerStart());
	EXPECT_EQ(cudaSuccess, cudaProfilerStop());
}

TEST_F(rt, p2p_attribute)
{
	int v = 7;

	EXPECT_EQ(cudaErrorInvalidDevice,
		  cudaDeviceGetP2PAttribute(&v, cudaDevP2PAttrAccessSupported, 0, 0));
	EXPECT_EQ(cudaErrorInvalidDevice,
		  cudaDeviceGetP2PAttribute(&v, cudaDevP2PAttrAccessSupported, 0, self->ndev));
	EXPECT_EQ(cudaErrorInvalidDevice,
		  cudaDeviceGetP2PAttribute(&v, cudaDevP2PAttrAccessSupported, -1, 0));
	EXPECT_EQ(7, v);
	cudaGetLastError();
	if (self->ndev < 2)
		SKIP(return, "one device");
	ASSERT_EQ(cudaSuccess, cudaDeviceGetP2PAttribute(&v, cudaDevP2PAttrAccessSupported, 0, 1));
	EXPECT_EQ(1, v);
	ASSERT_EQ(cudaSuccess, cudaDeviceGetP2PAttribute(&v, cudaDevP2PAttrPerformanceRank, 1, 0));
	EXPECT_EQ(0, v);
	ASSERT_EQ(cudaSuccess, cudaDeviceGetP2PAttribute(&v, cudaDevP2PAttrNativeAtomicSupported,
							 0, 1));
	EXPECT_EQ(0, v);
	ASSERT_EQ(cudaSuccess, cudaDeviceGetP2PAttribute(&v, cudaDevP2PAttrCudaArrayAccessSupported,
							 0, 1));
	EXPECT_EQ(1, v);
	v = 7;
	EXPECT_EQ(cudaErrorInvalidValue, cudaDeviceGetP2PAttribute(&v, (enum cudaDeviceP2PAttr)99,
								   0, 1));
	EXPECT_EQ(cudaErrorInvalidValue,
		  cudaDeviceGetP2PAttribute(NULL, cudaDevP2PAttrAccessSupported, 0, 1));
	/* the output is checked before the devices, as CUDA 13 does */
	EXPECT_EQ(cudaErrorInvalidValue,
		  cudaDeviceGetP2PAttribute(NULL, cudaDevP2PAttrAccessSupported, 0, 99));
	EXPECT_EQ(7, v);
	cudaGetLastError();
}

TEST_F(rt, stream_queries)
{
	int lo = 7, hi = 7, pr = 7;
	unsigned int f = 7;
	cudaStream_t s, nb;

	ASSERT_EQ(cudaSuccess, cudaDeviceGetStreamPriorityRange(&lo, &hi));
	EXPECT_EQ(0, lo);
	EXPECT_EQ(0, hi);
	EXPECT_EQ(cudaSuccess, cudaDeviceGetStreamPriorityRange(NULL, NULL));
	ASSERT_EQ(cudaSuccess, cudaStreamCreateWithPriority(&s, cudaStreamDefault, -5));
	ASSERT_EQ(cudaSuccess, cudaStreamCreateWithFlags(&nb, cudaStreamNonBlocking));
	ASSERT_EQ(cudaSuccess, cudaStreamGetPriority(s, &pr));
	EXPECT_EQ(0, pr);	/* clamped to the range */
	ASSERT_EQ(cudaSuccess, cudaStreamGetFlags(s, &f));
	EXPECT_EQ(cudaStreamDefault, f);
	ASSERT_EQ(cudaSuccess, cudaStreamGetFlags(nb, &f));
	EXPECT_EQ(cudaStreamNonBlocking, f);
	ASSERT_EQ(cudaSuccess, cudaStreamGetFlags(0, &f));
	EXPECT_EQ(0, f);
	EXPECT_EQ(cudaSuccess, cudaStreamGetFlags(cudaStreamPerThread, &f));
	EXPECT_EQ(cudaErrorInvalidValue, cudaStreamGetFlags(s, NULL));
	EXPECT_EQ(cudaErrorInvalidValue, cudaStreamGetPriority(s, NULL));
	EXPECT_EQ(cudaErrorInvalidValue, cudaStreamCreateWithPriority(&s, 2, 0));
	EXPECT_EQ(cudaSuccess, cudaStreamDestroy(nb));
	f = 7;
	EXPECT_EQ(cudaErrorInvalidResourceHandle, cudaStreamGetFlags(nb, &f));
	EXPECT_EQ(cudaErrorInvalidResourceHandle, cudaStreamGetPriority(nb, &pr));
	EXPECT_EQ(7, f);
	EXPECT_EQ(cudaErrorInvalidResourceHandle, cudaGetLastError());
	EXPECT_EQ(cudaSuccess, cudaStreamDestroy(s));
}

/* Host functions run in stream order, and later work waits for them. */
TEST_F(rt, host_functions_in_order)
{
	const size_t len = 4096;
	char *src, *dst;	/* pinned: an Async copy of pageable memory would wait */
	cudaStream_t s;
	cudaEvent_t e;
	void *d;

	ASSERT_EQ(cudaSuccess, cudaMallocHost((void **)&src, len));
	ASSERT_EQ(cudaSuccess, cudaMallocHost((void **)&dst, len));
	memset(src, 0x5a, len);
	ASSERT_EQ(cudaSuccess, cudaStreamCreate(&s));
	ASSERT_EQ(cudaSuccess, cudaEventCreate(&e));
	ASSERT_EQ(cudaSuccess, cudaMalloc(&d, len));
	ASSERT_EQ(cudaSuccess, cudaLaunchHostFunc(s, note, (void *)'1'));
	ASSERT_EQ(cudaSuccess, cudaLaunchHostFunc(s, gate_wait, NULL));
	ASSERT_EQ(cudaSuccess, cudaStreamAddCallback(s, stream_cb, (void *)'2', 0));
	ASSERT_EQ(cudaSuccess, cudaMemcpyAsync(d, src, len, cudaMemcpyHostToDevice, s));
	ASSERT_EQ(cudaSuccess, cudaMemcpyAsync(dst, d, len, cudaMemcpyDeviceToHost, s));
	ASSERT_EQ(cudaSuccess, cudaLaunchHostFunc(s, note, (void *)'3'));
	ASSERT_EQ(cudaSuccess, cudaEventRecord(e, s));
	usleep(100000);
	/* held by the gate: nothing after it has run */
	EXPECT_EQ(cudaErrorNotReady, cudaStreamQuery(s));
	EXPECT_EQ(cudaErrorNotReady, cudaEventQuery(e));
	EXPECT_EQ(1, norder);
	EXPECT_EQ(0, dst[0]);
	gate_set(1);
	ASSERT_EQ(cudaSuccess, cudaStreamSynchronize(s));
	EXPECT_STREQ("123", order);
	EXPECT_EQ(s, cb_stream);
	EXPECT_EQ(cudaSuccess, cb_status);
	EXPECT_EQ(0, memcmp(src, dst, len));
	/* the legacy stream waits for a blocking stream's host function */
	gate_set(0);
	norder = 0;
	ASSERT_EQ(cudaSuccess, cudaLaunchHostFunc(s, gate_wait, NULL));
	ASSERT_EQ(cudaSuccess, cudaLaunchHostFunc(s, note, (void *)'a'));
	ASSERT_EQ(cudaSuccess, cudaStreamAddCallback(0, stream_cb, (void *)'b', 0));
	usleep(50000);
	EXPECT_EQ(0, norder);
	gate_set(1);
	ASSERT_EQ(cudaSuccess, cudaDeviceSynchronize());
	EXPECT_EQ(0, strncmp(order, "ab", 2));
	EXPECT_EQ(NULL, cb_stream);
	EXPECT_EQ(cudaSuccess, cudaFree(d));
	EXPECT_EQ(cudaSuccess, cudaFreeHost(src));
	EXPECT_EQ(cudaSuccess, cudaFreeHost(dst));
	EXPECT_EQ(cudaSuccess, cudaEventDestroy(e));
	EXPECT_EQ(cudaSuccess, cudaStreamDestroy(s));
}

TEST_F(rt, host_function_errors)
{
	cudaStream_t s;

	ASSERT_EQ(cudaSuccess, cudaStreamCreate(&s));
	EXPECT_EQ(cudaErrorInvalidValue, cudaLaunchHostFunc(s, NULL, NULL));
	EXPECT_EQ(cudaErrorInvalidValue, cudaStreamAddCallback(s, NULL, NULL, 0));
	EXPECT_EQ(cudaErrorInvalidValue, cudaStreamAddCallback(s, stream_cb, (void *)'x', 1));
	EXPECT_EQ(cudaSuccess, cudaStreamDestroy(s));
	EXPECT_EQ(cudaErrorInvalidResourceHandle, cudaLaunchHostFunc(s, note, (void *)'x'));
	EXPECT_EQ(cudaErrorInvalidResourceHandle, cudaStreamAddCallback(s, stream_cb, NULL, 0));
	EXPECT_EQ(cudaSuccess, cudaDeviceSynchronize());
	EXPECT_EQ(0, norder);	/* nothing was queued */
	EXPECT_EQ(cudaErrorInvalidResourceHandle, cudaGetLastError());
}

TEST_F(rt, driver_twins)
{
	CUdeviceptr p = 0;
	CUcontext c;
	CUstream s;
	unsigned int f = 7;
	int lo = 7, hi = 7;

	ASSERT_EQ(CUDA_SUCCESS, cuInit(0));
	ASSERT_EQ(CUDA_SUCCESS, cuDevicePrimaryCtxRetain(&c, 0));
	ASSERT_EQ(CUDA_SUCCESS, cuCtxSetCurrent(c));
	ASSERT_EQ(CUDA_SUCCESS, cuStreamCreate(&s, CU_STREAM_NON_BLOCKING));
	ASSERT_EQ(CUDA_SUCCESS, cuStreamGetFlags(s, &f));
	EXPECT_EQ(CU_STREAM_NON_BLOCKING, f);
	EXPECT_EQ(CUDA_SUCCESS, cuCtxGetStreamPriorityRange(&lo, &hi));
	EXPECT_EQ(0, lo + hi);
	ASSERT_EQ(CUDA_SUCCESS, cuMemAllocAsync(&p, 1 * MIB, s));
	EXPECT_NE(0, p);
	ASSERT_EQ(CUDA_SUCCESS, cuMemsetD32Async(p, 0x01020304, MIB / 4, s));
	ASSERT_EQ(CUDA_SUCCESS, cuLaunchHostFunc(s, note, (void *)'1'));
	ASSERT_EQ(CUDA_SUCCESS, cuStreamAddCallback(s, cu_cb, (void *)'2', 0));
	ASSERT_EQ(CUDA_SUCCESS, cuMemFreeAsync(p, s));
	ASSERT_EQ(CUDA_SUCCESS, cuStreamSynchronize(s));
	EXPECT_STREQ("12", order);
	EXPECT_EQ(CUDA_SUCCESS, cb_status);
	EXPECT_EQ(CUDA_ERROR_INVALID_VALUE, cuMemAllocAsync(NULL, MIB, s));
	EXPECT_EQ(CUDA_ERROR_INVALID_VALUE, cuMemAllocAsync(&p, 0, s));
	EXPECT_EQ(CUDA_ERROR_INVALID_VALUE, cuMemFreeAsync(p, s));	/* already freed */
	EXPECT_EQ(CUDA_ERROR_INVALID_VALUE, cuLaunchHostFunc(s, NULL, NULL));
	EXPECT_EQ(CUDA_SUCCESS, cuStreamDestroy(s));
	EXPECT_EQ(CUDA_ERROR_INVALID_HANDLE, cuStreamAddCallback(s, cu_cb, NULL, 0));
	EXPECT_EQ(cudaSuccess, cudaGetLastError());	/* driver calls never set it */
}

/* The allocation is usable by work queued after it; the free waits for the stream. */
TEST_F(rt, malloc_async_stream_order)
{
	static unsigned char host[MIB];
	cudaMemPool_t pool;
	cudaStream_t s;
	void *p = NULL;
	size_t i;
	int ok = 1;

	ASSERT_EQ(cudaSuccess, cudaDeviceGetDefaultMemPool(&pool, 0));
	ASSERT_EQ(cudaSuccess, cudaStreamCreate(&s));
	ASSERT_EQ(cudaSuccess, cudaMallocAsync(&p, MIB, s));
	ASSERT_NE(NULL, p);
	EXPECT_EQ(cudaMemoryTypeDevice, ptr_type(p));
	ASSERT_EQ(cudaSuccess, cudaMemsetAsync(p, 0x5a, MIB, s));
	ASSERT_EQ(cudaSuccess, cudaMemcpyAsync(host, p, MIB, cudaMemcpyDeviceToHost, s));
	ASSERT_EQ(cudaSuccess, cudaLaunchHostFunc(s, gate_wait, NULL));
	ASSERT_EQ(cudaSuccess, cudaFreeAsync(p, s));
	usleep(50000);
	/* the stream has not reached the free: still allocated and in use */
	EXPECT_EQ(cudaMemoryTypeDevice, ptr_type(p));
	EXPECT_EQ(MIB, pool_attr(pool, cudaMemPoolAttrUsedMemCurrent));
	EXPECT_EQ(MIB, pool_attr(pool, cudaMemPoolAttrReservedMemCurrent));
	gate_set(1);
	ASSERT_EQ(cudaSuccess, cudaStreamSynchronize(s));
	for (i = 0; i < MIB; i++)
		ok &= host[i] == 0x5a;
	EXPECT_TRUE(ok);
	/* release threshold 0: the synchronisation gave the memory back */
	EXPECT_EQ(0, pool_attr(pool, cudaMemPoolAttrUsedMemCurrent));
	EXPECT_EQ(0, pool_attr(pool, cudaMemPoolAttrReservedMemCurrent));
	EXPECT_EQ(MIB, pool_attr(pool, cudaMemPoolAttrUsedMemHigh));
	EXPECT_EQ(cudaMemoryTypeUnregistered, ptr_type(p));
	/* size 0: success, NULL, as cudaMalloc */
	p = (void *)1;
	EXPECT_EQ(cudaSuccess, cudaMallocAsync(&p, 0, s));
	EXPECT_EQ(NULL, p);
	EXPECT_EQ(cudaSuccess, cudaStreamDestroy(s));
}

TEST_F(rt, pool_reuse_and_attributes)
{
	uint64_t max = UINT64_MAX, zero = 0, five = 5;
	cudaMemPool_t pool;
	void *p, *q;
	int one = 1;

	ASSERT_EQ(cudaSuccess, cudaDeviceGetMemPool(&pool, 0));
	EXPECT_EQ(1, pool_attr(pool, cudaMemPoolReuseAllowOpportunistic) & 0xffffffff);
	EXPECT_EQ(0, pool_attr(pool, cudaMemPoolAttrReleaseThreshold));
	ASSERT_EQ(cudaSuccess, cudaMemPoolSetAttribute(pool, cudaMemPoolAttrReleaseThreshold, &max));
	ASSERT_EQ(cudaSuccess, cudaMallocAsync(&p, 2 * MIB, 0));
	ASSERT_EQ(cudaSuccess, cudaFreeAsync(p, 0));
	ASSERT_EQ(cudaSuccess, cudaStreamSynchronize(0));
	EXPECT_EQ(2 * MIB, pool_attr(pool, cudaMemPoolAttrReservedMemCurrent));	/* kept */
	EXPECT_EQ(0, pool_attr(pool, cudaMemPoolAttrUsedMemCurrent));
	ASSERT_EQ(cudaSuccess, cudaMallocAsync(&q, 2 * MIB, 0));
	EXPECT_EQ(p, q);	/* reused */
	EXPECT_EQ(2 * MIB, pool_attr(pool, cudaMemPoolAttrReservedMemCurrent));
	ASSERT_EQ(cudaSuccess, cudaFree(q));	/* cudaFree takes stream-ordered memory too */
	EXPECT_EQ(0, pool_attr(pool, cudaMemPoolAttrUsedMemCurrent));
	ASSERT_EQ(cudaSuccess, cudaMallocAsync(&p, MIB, 0));
	ASSERT_EQ(cudaSuccess, cudaFreeAsync(p, 0));
	ASSERT_EQ(cudaSuccess, cudaDeviceSynchronize());
	EXPECT_EQ(MIB, pool_attr(pool, cudaMemPoolAttrReservedMemCurrent));
	ASSERT_EQ(cudaSuccess, cudaMemPoolTrimTo(pool, 0));
	EXPECT_EQ(0, pool_attr(pool, cudaMemPoolAttrReservedMemCurrent));
	/* watermarks reset only to zero; current values are read-only */
	EXPECT_EQ(2 * MIB, pool_attr(pool, cudaMemPoolAttrReservedMemHigh));
	EXPECT_EQ(cudaErrorInvalidValue,
		  cudaMemPoolSetAttribute(pool, cudaMemPoolAttrReservedMemHigh, &five));
	EXPECT_EQ(cudaErrorInvalidValue,
		  cudaMemPoolSetAttribute(pool, cudaMemPoolAttrUsedMemCurrent, &zero));
	EXPECT_EQ(cudaErrorInvalidValue, cudaMemPoolSetAttribute(pool, (enum cudaMemPoolAttr)9, &one));
	EXPECT_EQ(cudaErrorInvalidValue, cudaMemPoolGetAttribute(pool, cudaMemPoolAttrUsedMemHigh,
								 NULL));
	EXPECT_EQ(2 * MIB, pool_attr(pool, cudaMemPoolAttrReservedMemHigh));
	EXPECT_EQ(cudaSuccess, cudaMemPoolSetAttribute(pool, cudaMemPoolAttrReservedMemHigh, &zero));
	EXPECT_EQ(0, pool_attr(pool, cudaMemPoolAttrReservedMemHigh));
	EXPECT_EQ(cudaSuccess,
		  cudaMemPoolSetAttribute(pool, cudaMemPoolReuseAllowOpportunistic, &one));
	cudaGetLastError();
}

TEST_F(rt, free_async_errors)
{
	static char host[64];
	void *p, *d, *m;

	ASSERT_EQ(cudaSuccess, cudaMallocAsync(&p, MIB, 0));
	ASSERT_EQ(cudaSuccess, cudaMalloc(&d, MIB));
	ASSERT_EQ(cudaSuccess, cudaMallocManaged(&m, MIB, cudaMemAttachGlobal));
	EXPECT_EQ(cudaSuccess, cudaFreeAsync(NULL, 0));	/* nothing, as CUDA 13 */
	EXPECT_EQ(cudaErrorInvalidValue, cudaFreeAsync((char *)p + 4096, 0));
	EXPECT_EQ(cudaErrorInvalidValue, cudaFreeAsync(m, 0));
	EXPECT_EQ(cudaErrorInvalidValue, cudaFreeAsync(host, 0));
	EXPECT_EQ(cudaErrorInvalidValue, cudaFreeHost(p));
	EXPECT_EQ(cudaErrorInvalidResourceHandle, cudaFreeAsync(p, (cudaStream_t)0x1234));
	EXPECT_EQ(cudaErrorInvalidResourceHandle, cudaGetLastError());
	EXPECT_EQ(cudaMemoryTypeDevice, ptr_type(p));	/* none of that freed it */
	ASSERT_EQ(cudaSuccess, cudaFreeAsync(p, 0));
	EXPECT_EQ(cudaErrorInvalidValue, cudaFreeAsync(p, 0));	/* twice */
	ASSERT_EQ(cudaSuccess, cudaFreeAsync(d, 0));	/* cudaMalloc memory, in stream order */
	ASSERT_EQ(cudaSuccess, cudaStreamSynchronize(0));
	EXPECT_EQ(cudaMemoryTypeUnregistered, ptr_type(d));
	EXPECT_EQ(cudaErrorInvalidValue, cudaMallocAsync(NULL, MIB, 0));
	EXPECT_EQ(cudaErrorInvalidResourceHandle, cudaMallocAsync(&p, MIB, (cudaStream_t)0x1234));
	EXPECT_EQ(cudaSuccess, cudaFree(m));
	cudaGetLastError();
}

TEST_F(rt, pool_create_destroy)
{
	struct cudaMemPoolProps pp = {
		.allocType = cudaMemAllocationTypePinned,
		.location = { cudaMemLocationTypeDevice, 0 },
	};
	struct cudaMemPoolProps bad;
	cudaMemPool_t pool, def, cur, hp = NULL;
	void *p;

	ASSERT_EQ(cudaSuccess, cudaDeviceGetDefaultMemPool(&def, 0));
	ASSERT_EQ(cudaSuccess, cudaMemPoolCreate(&pool, &pp));
	EXPECT_NE(def, pool);
	ASSERT_EQ(cudaSuccess, cudaDeviceSetMemPool(0, pool));
	ASSERT_EQ(cudaSuccess, cudaDeviceGetMemPool(&cur, 0));
	EXPECT_EQ(pool, cur);
	ASSERT_EQ(cudaSuccess, cudaMallocAsync(&p, MIB, 0));	/* from the current pool */
	EXPECT_EQ(MIB, pool_attr(pool, cudaMemPoolAttrUsedMemCurrent));
	EXPECT_EQ(0, pool_attr(def, cudaMemPoolAttrUsedMemCurrent));
	/* destroyed with an allocation out: the default pool is current again */
	ASSERT_EQ(cudaSuccess, cudaMemPoolDestroy(pool));
	ASSERT_EQ(cudaSuccess, cudaDeviceGetMemPool(&cur, 0));
	EXPECT_EQ(def, cur);
	EXPECT_EQ(cudaErrorInvalidValue, cudaMemPoolDestroy(pool));
	EXPECT_EQ(cudaErrorInvalidValue, cudaMallocFromPoolAsync(&p, MIB, pool, 0));
	EXPECT_EQ(cudaMemoryTypeDevice, ptr_type(p));
	ASSERT_EQ(cudaSuccess, cudaFreeAsync(p, 0));
	ASSERT_EQ(cudaSuccess, cudaStreamSynchronize(0));
	EXPECT_EQ(cudaMemoryTypeUnregistered, ptr_type(p));
	EXPECT_EQ(cudaErrorInvalidValue, cudaMemPoolDestroy(def));
	/* a bounded pool */
	pp.maxSize = MIB;
	ASSERT_EQ(cudaSuccess, cudaMemPoolCreate(&pool, &pp));
	EXPECT_EQ(cudaErrorMemoryAllocation, cudaMallocFromPoolAsync(&p, 2 * MIB, pool, 0));
	ASSERT_EQ(cudaSuccess, cudaMallocFromPoolAsync(&p, MIB, pool, 0));
	ASSERT_EQ(cudaSuccess, cudaFreeAsync(p, 0));
	ASSERT_EQ(cudaSuccess, cudaMemPoolDestroy(pool));
	/* a host pool: pinned host memory */
	pp.maxSize = 0;
	pp.location = loc(cudaMemLocationTypeHost, 0);
	ASSERT_EQ(cudaSuccess, cudaMemPoolCreate(&hp, &pp));
	ASSERT_EQ(cudaSuccess, cudaMallocFromPoolAsync(&p, MIB, hp, 0));
	EXPECT_EQ(cudaMemoryTypeHost, ptr_type(p));
	EXPECT_EQ(cudaErrorInvalidValue, cudaDeviceSetMemPool(0, hp));	/* not the device's */
	ASSERT_EQ(cudaSuccess, cudaFree(p));
	ASSERT_EQ(cudaSuccess, cudaMemPoolDestroy(hp));
	/* bad properties: nothing created */
	pool = NULL;
	bad = pp;
	bad.allocType = cudaMemAllocationTypeManaged;
	EXPECT_EQ(cudaErrorNotSupported, cudaMemPoolCreate(&pool, &bad));
	bad = pp;
	bad.location = loc(cudaMemLocationTypeDevice, 0);
	bad.handleTypes = cudaMemHandleTypePosixFileDescriptor;
	EXPECT_EQ(cudaErrorNotSupported, cudaMemPoolCreate(&pool, &bad));
	bad.handleTypes = cudaMemHandleTypeNone;
	bad.location = loc(cudaMemLocationTypeDevice, self->ndev);
	EXPECT_EQ(cudaErrorInvalidValue, cudaMemPoolCreate(&pool, &bad));
	bad.location = loc(cudaMemLocationTypeHostNumaCurrent, 0);
	EXPECT_EQ(cudaErrorInvalidValue, cudaMemPoolCreate(&pool, &bad));
	bad = pp;
	bad.reserved[3] = 1;
	EXPECT_EQ(cudaErrorInvalidValue, cudaMemPoolCreate(&pool, &bad));
	bad = pp;
	bad.allocType = cudaMemAllocationTypeInvalid;
	EXPECT_EQ(cudaErrorInvalidValue, cudaMemPoolCreate(&pool, &bad));
	EXPECT_EQ(cudaErrorInvalidValue, cudaMemPoolCreate(&pool, NULL));
	EXPECT_EQ(NULL, pool);
	EXPECT_EQ(cudaErrorInvalidDevice, cudaDeviceGetDefaultMemPool(&pool, self->ndev));
	EXPECT_EQ(cudaErrorInvalidDevice, cudaDeviceSetMemPool(-1, def));
	EXPECT_EQ(cudaErrorInvalidValue, cudaDeviceGetMemPool(NULL, 0));
	cudaGetLastError();
}

TEST_F(rt, pool_access)
{
	struct cudaMemLocation here = loc(cudaMemLocationTypeDevice, 0);
	struct cudaMemAccessDesc d[2];
	enum cudaMemAccessFlags f;
	cudaMemPool_t pool;

	ASSERT_EQ(cudaSuccess, cudaDeviceGetDefaultMemPool(&pool, 0));
	ASSERT_EQ(cudaSuccess, cudaMemPoolGetAccess(&f, pool, &here));
	EXPECT_EQ(cudaMemAccessFlagsProtReadWrite, f);
	d[0] = (struct cudaMemAccessDesc){ here, cudaMemAccessFlagsProtNone };
	/* its own device keeps read-write: 801, as CUDA 13 answers */
	EXPECT_EQ(cudaErrorNotSupported, cudaMemPoolSetAccess(pool, d, 1));
	ASSERT_EQ(cudaSuccess, cudaMemPoolGetAccess(&f, pool, &here));
	EXPECT_EQ(cudaMemAccessFlagsProtReadWrite, f);
	EXPECT_EQ(cudaErrorInvalidValue, cudaMemPoolSetAccess(pool, NULL, 1));
	EXPECT_EQ(cudaErrorInvalidValue, cudaMemPoolGetAccess(NULL, pool, &here));
	cudaGetLastError();
	if (self->ndev < 2)
		SKIP(return, "one device");
	here.id = 1;
	ASSERT_EQ(cudaSuccess, cudaMemPoolGetAccess(&f, pool, &here));
	EXPECT_EQ(cudaMemAccessFlagsProtNone, f);
	/* one bad descriptor: none applied */
	d[0] = (struct cudaMemAccessDesc){ here, cudaMemAccessFlagsProtReadWrite };
	d[1] = (struct cudaMemAccessDesc){ loc(cudaMemLocationTypeDevice, self->ndev),
					   cudaMemAccessFlagsProtReadWrite };
	EXPECT_EQ(cudaErrorInvalidValue, cudaMemPoolSetAccess(pool, d, 2));
	ASSERT_EQ(cudaSuccess, cudaMemPoolGetAccess(&f, pool, &here));
	EXPECT_EQ(cudaMemAccessFlagsProtNone, f);
	ASSERT_EQ(cudaSuccess, cudaMemPoolSetAccess(pool, d, 1));
	ASSERT_EQ(cudaSuccess, cudaMemPoolGetAccess(&f, pool, &here));
	EXPECT_EQ(cudaMemAccessFlagsProtReadWrite, f);
	cudaGetLastError();
}

/* cudaDeviceReset frees what was made on the device, but not stream-ordered memory. */
TEST_F(rt, device_reset_releases_memory)
{
	struct cudaChannelFormatDesc cd = cudaCreateChannelDesc(32, 0, 0, 0,
								cudaChannelFormatKindFloat);
	size_t free0, free1, free2, total;
	void *d, *h, *m, *a, *other = NULL;
	unsigned int f;
	cudaArray_t arr;
	cudaStream_t s;
	cudaEvent_t e;

	EXPECT_EQ(32, cd.x);
	EXPECT_EQ(cudaChannelFormatKindFloat, cd.f);
	if (self->ndev > 1) {
		ASSERT_EQ(cudaSuccess, cudaSetDevice(1));
		ASSERT_EQ(cudaSuccess, cudaMalloc(&other, MIB));
		ASSERT_EQ(cudaSuccess, cudaSetDevice(0));
	}
	ASSERT_EQ(cudaSuccess, cudaMemGetInfo(&free0, &total));
	ASSERT_EQ(cudaSuccess, cudaMalloc(&d, 8 * MIB));
	ASSERT_EQ(cudaSuccess, cudaMallocHost(&h, MIB));
	ASSERT_EQ(cudaSuccess, cudaMallocManaged(&m, MIB, cudaMemAttachGlobal));
	ASSERT_EQ(cudaSuccess, cudaMallocArray(&arr, &cd, 256, 256, 0));
	ASSERT_EQ(cudaSuccess, cudaMallocAsync(&a, MIB, 0));
	ASSERT_EQ(cudaSuccess, cudaStreamCreate(&s));
	ASSERT_EQ(cudaSuccess, cudaEventCreate(&e));
	ASSERT_EQ(cudaSuccess, cudaSetDeviceFlags(cudaDeviceScheduleYield));
	ASSERT_EQ(cudaSuccess, cudaMemsetAsync(d, 1, 8 * MIB, s));
	ASSERT_EQ(cudaSuccess, cudaMemGetInfo(&free1, &total));
	EXPECT_LE(free1 + 8 * MIB + MIB, free0);

	ASSERT_EQ(cudaSuccess, cudaDeviceReset());
	ASSERT_EQ(cudaSuccess, cudaMemGetInfo(&free2, &total));
	EXPECT_EQ(free0, free2 + MIB);	/* all back but the stream-ordered MiB */
	EXPECT_EQ(cudaMemoryTypeUnregistered, ptr_type(d));
	EXPECT_EQ(cudaMemoryTypeUnregistered, ptr_type(h));
	EXPECT_EQ(cudaMemoryTypeUnregistered, ptr_type(m));
	EXPECT_EQ(cudaMemoryTypeDevice, ptr_type(a));
	EXPECT_EQ(cudaErrorInvalidValue, cudaArrayGetInfo(NULL, NULL, NULL, arr));
	EXPECT_EQ(cudaErrorInvalidResourceHandle, cudaStreamQuery(s));
	EXPECT_EQ(cudaErrorInvalidResourceHandle, cudaEventQuery(e));
	EXPECT_EQ(cudaErrorInvalidValue, cudaFree(d));
	cudaGetLastError();
	ASSERT_EQ(cudaSuccess, cudaGetDeviceFlags(&f));
	EXPECT_EQ(cudaDeviceMapHost, f);
	if (other)	/* another device's memory is not touched */
		EXPECT_EQ(cudaMemoryTypeDevice, ptr_type(other));
	/* the device is used again */
	ASSERT_EQ(cudaSuccess, cudaMalloc(&d, MIB));
	EXPECT_EQ(cudaSuccess, cudaFree(d));
	EXPECT_EQ(cudaSuccess, cudaFree(a));
	if (other)
		EXPECT_EQ(cudaSuccess, cudaFree(other));
}

TEST_HARNESS_MAIN
