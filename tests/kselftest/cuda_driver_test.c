// SPDX-License-Identifier: GPL-2.0
// LDLIBS: -luvm -lnuma -lpthread
/*
 * cuda_driver_test.c - libuvm's CUDA driver API against the loaded module
 * (run in the VM): the not-initialised rule, versions, devices and their
 * attributes against the runtime's, primary and created contexts and the
 * per-thread context stack, allocations, copies and sets with their data
 * checked, streams and events in order, every error name and string, peer
 * access in both APIs, the device-code calls (NOT_SUPPORTED), and the
 * three answers on cudaMalloc/cudaMallocHost memory CUDA 13 gives.
 *
 * The harness runs every test in a fresh child process, so each starts
 * with the driver API not initialised.
 */
#include <pthread.h>
#include <stdlib.h>

#include "cuda_test_util.h"
#include "kselftest_harness.h"

#define KIB		1024UL

static CUcontext primary(int dev)
{
	CUcontext c = NULL;

	if (cuDevicePrimaryCtxRetain(&c, dev) == CUDA_SUCCESS)
		cuDevicePrimaryCtxRelease(dev);
	return c;
}

/* Pop every context of the calling thread. */
static void pop_all(void)
{
	CUcontext c;

	while (cuCtxPopCurrent(&c) == CUDA_SUCCESS)
		;
}

/* ---- 1. initialisation and versions ----------------------------------------- */

TEST(not_initialised_until_cuInit)
{
	const char *s = NULL;
	CUdeviceptr d = 0;
	CUcontext c = NULL;
	CUmodule m = NULL;
	int n = -1, v = 0;

	/* these need no initialisation */
	EXPECT_EQ(CUDA_SUCCESS, cuDriverGetVersion(&v));
	EXPECT_EQ(13000, v);
	EXPECT_EQ(CUDA_SUCCESS, cuGetErrorName(CUDA_ERROR_NOT_INITIALIZED, &s));
	EXPECT_STREQ("CUDA_ERROR_NOT_INITIALIZED", s);
	/* everything else: NOT_INITIALIZED, outputs untouched */
	EXPECT_EQ(CUDA_ERROR_NOT_INITIALIZED, cuDeviceGetCount(&n));
	EXPECT_EQ(-1, n);
	EXPECT_EQ(CUDA_ERROR_NOT_INITIALIZED, cuDeviceGet(&n, 0));
	EXPECT_EQ(CUDA_ERROR_NOT_INITIALIZED, cuCtxGetCurrent(&c));
	EXPECT_EQ(CUDA_ERROR_NOT_INITIALIZED, cuDevicePrimaryCtxRetain(&c, 0));
	EXPECT_EQ(CUDA_ERROR_NOT_INITIALIZED, cuCtxCreate(&c, NULL, 0, 0));
	EXPECT_EQ(NULL, c);
	EXPECT_EQ(CUDA_ERROR_NOT_INITIALIZED, cuMemAlloc(&d, KIB));
	EXPECT_EQ(0, d);
	EXPECT_EQ(CUDA_ERROR_NOT_INITIALIZED, cuMemAllocManaged(&d, KIB, CU_MEM_ATTACH_GLOBAL));
	EXPECT_EQ(CUDA_ERROR_NOT_INITIALIZED, cuModuleLoad(&m, "k.cubin"));
	EXPECT_EQ(CUDA_ERROR_NOT_INITIALIZED, cuStreamSynchronize(0));
	EXPECT_EQ(CUDA_ERROR_NOT_INITIALIZED, cuDeviceCanAccessPeer(&v, 0, 0));
	/* flags must be 0 */
	EXPECT_EQ(CUDA_ERROR_INVALID_VALUE, cuInit(1));
	EXPECT_EQ(CUDA_ERROR_NOT_INITIALIZED, cuDeviceGetCount(&n));
	ASSERT_EQ(CUDA_SUCCESS, cuInit(0));
	EXPECT_EQ(CUDA_SUCCESS, cuInit(0));	/* again: fine */
	EXPECT_EQ(CUDA_SUCCESS, cuDeviceGetCount(&n));
	EXPECT_GT(n, 0);
	/* no context is current until one is made so */
	EXPECT_EQ(CUDA_SUCCESS, cuCtxGetCurrent(&c));
	EXPECT_EQ(NULL, c);
	EXPECT_EQ(CUDA_ERROR_INVALID_CONTEXT, cuMemAlloc(&d, KIB));
	EXPECT_EQ(CUDA_ERROR_INVALID_CONTEXT, cuCtxGetDevice(&v));
	EXPECT_EQ(CUDA_ERROR_INVALID_CONTEXT, cuCtxSynchronize());
}

/* libcudart initialises the driver too: no cuInit needed after a runtime call. */
TEST(runtime_initialises_driver)
{
	int n = 0, m = 0;

	ASSERT_EQ(cudaSuccess, cudaGetDeviceCount(&n));
	EXPECT_EQ(CUDA_SUCCESS, cuDeviceGetCount(&m));
	EXPECT_EQ(n, m);
}

TEST(versions)
{
	int v = 0;

	EXPECT_EQ(CUDA_ERROR_INVALID_VALUE, cuDriverGetVersion(NULL));
	ASSERT_EQ(CUDA_SUCCESS, cuInit(0));
	EXPECT_EQ(CUDA_SUCCESS, cuDriverGetVersion(&v));
	EXPECT_EQ(CUDA_VERSION, v);
	v = 0;
	EXPECT_EQ(cudaSuccess, cudaDriverGetVersion(&v));
	EXPECT_EQ(13000, v);
}

FIXTURE(drv) {
	int n;
};

FIXTURE_SETUP(drv)
{
	ASSERT_EQ(CUDA_SUCCESS, cuInit(0));
	ASSERT_EQ(CUDA_SUCCESS, cuDeviceGetCount(&self->n));
	ASSERT_GT(self->n, 0);
}

FIXTURE_TEARDOWN(drv) {}

/* ---- 2. devices --------------------------------------------------------------- */

TEST_F(drv, devices_match_the_runtime)
{
	struct cudaDeviceProp p;
	char name[256], bus[32], rbus[32], shortname[4] = "xxx";
	size_t total = 0;
	CUuuid u, u1;
	int d, dev = -1;

	EXPECT_EQ(CUDA_ERROR_INVALID_VALUE, cuDeviceGetCount(NULL));
	EXPECT_EQ(CUDA_ERROR_INVALID_VALUE, cuDeviceGet(NULL, 0));
	EXPECT_EQ(CUDA_ERROR_INVALID_DEVICE, cuDeviceGet(&dev, self->n));
	EXPECT_EQ(CUDA_ERROR_INVALID_DEVICE, cuDeviceGet(&dev, -1));
	EXPECT_EQ(-1, dev);
	for (d = 0; d < self->n; d++) {
		ASSERT_EQ(CUDA_SUCCESS, cuDeviceGet(&dev, d));
		EXPECT_EQ(d, dev);
		ASSERT_EQ(cudaSuccess, cudaGetDeviceProperties(&p, d));
		ASSERT_EQ(CUDA_SUCCESS, cuDeviceGetName(name, sizeof(name), dev));
		EXPECT_STREQ(p.name, name);
		ASSERT_EQ(CUDA_SUCCESS, cuDeviceGetName(shortname, sizeof(shortname), dev));
		EXPECT_EQ(0, strncmp(p.name, shortname, sizeof(shortname) - 1));
		EXPECT_EQ(0, shortname[sizeof(shortname) - 1]);
		ASSERT_EQ(CUDA_SUCCESS, cuDeviceTotalMem(&total, dev));
		EXPECT_EQ(p.totalGlobalMem, total);
		ASSERT_EQ(CUDA_SUCCESS, cuDeviceGetUuid(&u, dev));
		EXPECT_EQ(0, memcmp(&u, &p.uuid, sizeof(u)));
		ASSERT_EQ(CUDA_SUCCESS, cuDeviceGetUuid_v2(&u1, dev));
		EXPECT_EQ(0, memcmp(&u, &u1, sizeof(u)));
		ASSERT_EQ(CUDA_SUCCESS, cuDeviceGetPCIBusId(bus, sizeof(bus), dev));
		ASSERT_EQ(cudaSuccess, cudaDeviceGetPCIBusId(rbus, sizeof(rbus), d));
		EXPECT_STREQ(rbus, bus);
	}
	EXPECT_EQ(CUDA_ERROR_INVALID_VALUE, cuDeviceGetName(NULL, 8, 0));
	EXPECT_EQ(CUDA_ERROR_INVALID_VALUE, cuDeviceGetName(name, 0, 0));
	EXPECT_EQ(CUDA_ERROR_INVALID_DEVICE, cuDeviceGetName(name, 8, self->n));
	EXPECT_EQ(CUDA_ERROR_INVALID_VALUE, cuDeviceTotalMem(NULL, 0));
	EXPECT_EQ(CUDA_ERROR_INVALID_DEVICE, cuDeviceTotalMem(&total, self->n));
	EXPECT_EQ(CUDA_ERROR_INVALID_VALUE, cuDeviceGetUuid(NULL, 0));
	EXPECT_EQ(CUDA_ERROR_INVALID_DEVICE, cuDeviceGetUuid(&u, -1));
	EXPECT_EQ(CUDA_ERROR_INVALID_VALUE, cuDeviceGetPCIBusId(bus, 0, 0));
	EXPECT_EQ(CUDA_ERROR_INVALID_DEVICE, cuDeviceGetPCIBusId(bus, sizeof(bus), self->n));
	EXPECT_EQ(cudaSuccess, cudaGetLastError());	/* driver calls leave it alone */
}

/*
 * Every attribute the runtime knows answers the same; the driver-only
 * ones (Reserved in the runtime) answer 0, CAN_TEX2D_GATHER 1.
 */
TEST_F(drv, attributes_match_the_runtime)
{
	int a, d, v, rv, only_driver = 0;
	cudaError_t re;

	for (d = 0; d < self->n; d++) {
		for (a = 1; a < CU_DEVICE_ATTRIBUTE_MAX; a++) {
			v = rv = -12345;
			ASSERT_EQ(CUDA_SUCCESS, cuDeviceGetAttribute(&v, (CUdevice_attribute)a, d))
				TH_LOG("attribute %d", a);
			re = cudaDeviceGetAttribute(&rv, (enum cudaDeviceAttr)a, d);
			if (re == cudaSuccess) {
				EXPECT_EQ(rv, v) TH_LOG("attribute %d", a);
				continue;
			}
			EXPECT_EQ(cudaErrorInvalidValue, re);
			EXPECT_EQ(a == CU_DEVICE_ATTRIBUTE_CAN_TEX2D_GATHER ? 1 : 0, v)
				TH_LOG("driver-only attribute %d", a);
			only_driver++;
		}
	}
	cudaGetLastError();
	EXPECT_EQ(self->n * 23, only_driver);
	EXPECT_EQ(CUDA_ERROR_INVALID_VALUE, cuDeviceGetAttribute(&v, (CUdevice_attribute)0, 0));
	EXPECT_EQ(CUDA_ERROR_INVALID_VALUE, cuDeviceGetAttribute(&v, CU_DEVICE_ATTRIBUTE_MAX, 0));
	EXPECT_EQ(CUDA_ERROR_INVALID_VALUE,
		  cuDeviceGetAttribute(NULL, CU_DEVICE_ATTRIBUTE_WARP_SIZE, 0));
	EXPECT_EQ(CUDA_ERROR_INVALID_DEVICE,
		  cuDeviceGetAttribute(&v, CU_DEVICE_ATTRIBUTE_WARP_SIZE, self->n));
	ASSERT_EQ(CUDA_SUCCESS, cuDeviceGetAttribute(&v, CU_DEVICE_ATTRIBUTE_MANAGED_MEMORY, 0));
	EXPECT_EQ(1, v);
	ASSERT_EQ(CUDA_SUCCESS, cuDeviceGetAttribute(&v, CU_DEVICE_ATTRIBUTE_UNIFIED_ADDRESSING, 0));
	EXPECT_EQ(1, v);
}

/* ---- 3. contexts --------------------------------------------------------------- */

TEST_F(drv, primary_context_retain_release_flags)
{
	unsigned int flags = 99;
	CUcontext a = NULL, b = NULL;
	int active = -1, d = self->n - 1;

	ASSERT_EQ(CUDA_SUCCESS, cuDevicePrimaryCtxGetState(d, &flags, &active));
	EXPECT_EQ(0, active);
	EXPECT_EQ(0, flags);
	ASSERT_EQ(CUDA_SUCCESS, cuDevicePrimaryCtxRetain(&a, d));
	ASSERT_EQ(CUDA_SUCCESS, cuDevicePrimaryCtxRetain(&b, d));
	EXPECT_NE(NULL, a);
	EXPECT_EQ(a, b);		/* one primary context per device */
	ASSERT_EQ(CUDA_SUCCESS, cuDevicePrimaryCtxGetState(d, &flags, &active));
	EXPECT_EQ(1, active);
	EXPECT_EQ(CUDA_SUCCESS, cuDevicePrimaryCtxSetFlags(d, CU_CTX_SCHED_BLOCKING_SYNC));
	ASSERT_EQ(CUDA_SUCCESS, cuDevicePrimaryCtxGetState(d, &flags, &active));
	EXPECT_EQ(CU_CTX_SCHED_BLOCKING_SYNC, flags);
	EXPECT_EQ(CUDA_ERROR_INVALID_VALUE, cuDevicePrimaryCtxSetFlags(d, 0x100));
	EXPECT_EQ(CUDA_ERROR_INVALID_VALUE,
		  cuDevicePrimaryCtxSetFlags(d, CU_CTX_SCHED_SPIN | CU_CTX_SCHED_YIELD));
	ASSERT_EQ(CUDA_SUCCESS, cuDevicePrimaryCtxGetState(d, &flags, &active));
	EXPECT_EQ(CU_CTX_SCHED_BLOCKING_SYNC, flags);	/* bad flags changed nothing */
	EXPECT_EQ(CUDA_SUCCESS, cuDevicePrimaryCtxRelease(d));
	EXPECT_EQ(CUDA_SUCCESS, cuDevicePrimaryCtxRelease(d));
	ASSERT_EQ(CUDA_SUCCESS, cuDevicePrimaryCtxGetState(d, &flags, &active));
	EXPECT_EQ(0, active);
	EXPECT_EQ(CUDA_ERROR_INVALID_CONTEXT, cuDevicePrimaryCtxRelease(d));
	/* reset: inactive, flags back to 0 */
	ASSERT_EQ(CUDA_SUCCESS, cuDevicePrimaryCtxRetain(&a, d));
	EXPECT_EQ(CUDA_SUCCESS, cuDevicePrimaryCtxReset(d));
	ASSERT_EQ(CUDA_SUCCESS, cuDevicePrimaryCtxGetState(d, &flags, &active));
	EXPECT_EQ(0, active);
	EXPECT_EQ(0, flags);
	/* bad input */
	EXPECT_EQ(CUDA_ERROR_INVALID_VALUE, cuDevicePrimaryCtxRetain(NULL, 0));
	EXPECT_EQ(CUDA_ERROR_INVALID_DEVICE, cuDevicePrimaryCtxRetain(&a, self->n));
	EXPECT_EQ(CUDA_ERROR_INVALID_DEVICE, cuDevicePrimaryCtxRelease(-1));
	EXPECT_EQ(CUDA_ERROR_INVALID_DEVICE, cuDevicePrimaryCtxReset(self->n));
	EXPECT_EQ(CUDA_ERROR_INVALID_DEVICE, cuDevicePrimaryCtxSetFlags(self->n, 0));
	EXPECT_EQ(CUDA_ERROR_INVALID_VALUE, cuDevicePrimaryCtxGetState(0, NULL, &active));
	EXPECT_EQ(CUDA_ERROR_INVALID_DEVICE, cuDevicePrimaryCtxGetState(self->n, &flags, &active));
}

/* The runtime works in the primary context and sees the driver's current context. */
TEST_F(drv, runtime_shares_the_primary_context)
{
	CUcontext cur = NULL, c = NULL;
	CUdevice dev = -1;
	int d = self->n - 1, rd = -1;

	ASSERT_EQ(cudaSuccess, cudaSetDevice(d));
	ASSERT_EQ(CUDA_SUCCESS, cuCtxGetCurrent(&cur));
	EXPECT_EQ(primary(d), cur);
	ASSERT_EQ(CUDA_SUCCESS, cuCtxGetDevice(&dev));
	EXPECT_EQ(d, dev);
	/* a created context on device 0 becomes the runtime's device too */
	ASSERT_EQ(CUDA_SUCCESS, cuCtxCreate(&c, NULL, 0, 0));
	ASSERT_EQ(cudaSuccess, cudaGetDevice(&rd));
	EXPECT_EQ(0, rd);
	ASSERT_EQ(CUDA_SUCCESS, cuCtxDestroy(c));
	ASSERT_EQ(cudaSuccess, cudaGetDevice(&rd));
	EXPECT_EQ(d, rd);
	/* no context current: a runtime call binds its device's primary context */
	pop_all();
	ASSERT_EQ(CUDA_SUCCESS, cuCtxGetCurrent(&cur));
	EXPECT_EQ(NULL, cur);
	ASSERT_EQ(cudaSuccess, cudaGetDevice(&rd));
	ASSERT_EQ(CUDA_SUCCESS, cuCtxGetCurrent(&cur));
	EXPECT_EQ(primary(rd), cur);
}

TEST_F(drv, created_contexts_and_the_stack)
{
	CUctxCreateParams params = { 0 };
	CUexecAffinityParam aff = { CU_EXEC_AFFINITY_TYPE_SM_COUNT, { { 1 } } };
	CUcontext a = NULL, b = NULL, cur = NULL, p = NULL;
	CUdevice dev = -1;
	unsigned int flags = 0;
	int d = self->n - 1;

	ASSERT_EQ(CUDA_SUCCESS, cuCtxCreate(&a, NULL, CU_CTX_SCHED_YIELD, 0));
	ASSERT_EQ(CUDA_SUCCESS, cuCtxGetCurrent(&cur));
	EXPECT_EQ(a, cur);		/* created contexts are pushed */
	EXPECT_NE(primary(0), a);
	ASSERT_EQ(CUDA_SUCCESS, cuCtxGetFlags(&flags));
	EXPECT_EQ(CU_CTX_SCHED_YIELD, flags);
	ASSERT_EQ(CUDA_SUCCESS, cuCtxCreate(&b, &params, 0, d));
	ASSERT_EQ(CUDA_SUCCESS, cuCtxGetDevice(&dev));
	EXPECT_EQ(d, dev);
	ASSERT_EQ(CUDA_SUCCESS, cuCtxPopCurrent(&p));
	EXPECT_EQ(b, p);
	ASSERT_EQ(CUDA_SUCCESS, cuCtxGetCurrent(&cur));
	EXPECT_EQ(a, cur);
	ASSERT_EQ(CUDA_SUCCESS, cuCtxPushCurrent(b));
	ASSERT_EQ(CUDA_SUCCESS, cuCtxPushCurrent(a));	/* a twice on the stack */
	ASSERT_EQ(CUDA_SUCCESS, cuCtxGetDevice(&dev));
	EXPECT_EQ(0, dev);
	/* SetCurrent replaces the top; NULL pops it */
	ASSERT_EQ(CUDA_SUCCESS, cuCtxSetCurrent(b));
	ASSERT_EQ(CUDA_SUCCESS, cuCtxGetCurrent(&cur));
	EXPECT_EQ(b, cur);
	ASSERT_EQ(CUDA_SUCCESS, cuCtxSetCurrent(NULL));
	ASSERT_EQ(CUDA_SUCCESS, cuCtxGetCurrent(&cur));
	EXPECT_EQ(b, cur);		/* [a, b] */
	EXPECT_EQ(CUDA_SUCCESS, cuCtxSynchronize());
	/* destroying the current context pops it */
	ASSERT_EQ(CUDA_SUCCESS, cuCtxDestroy(b));
	ASSERT_EQ(CUDA_SUCCESS, cuCtxGetCurrent(&cur));
	EXPECT_EQ(a, cur);
	EXPECT_EQ(CUDA_ERROR_CONTEXT_IS_DESTROYED, cuCtxPushCurrent(b));
	EXPECT_EQ(CUDA_ERROR_CONTEXT_IS_DESTROYED, cuCtxDestroy(b));
	EXPECT_EQ(CUDA_ERROR_CONTEXT_IS_DESTROYED, cuCtxSetCurrent(b));
	ASSERT_EQ(CUDA_SUCCESS, cuCtxDestroy(a));
	ASSERT_EQ(CUDA_SUCCESS, cuCtxGetCurrent(&cur));
	EXPECT_EQ(NULL, cur);
	EXPECT_EQ(CUDA_ERROR_INVALID_CONTEXT, cuCtxPopCurrent(&p));
	EXPECT_EQ(CUDA_SUCCESS, cuCtxSetCurrent(NULL));	/* empty stack: no-op */
	/* bad input changes nothing */
	EXPECT_EQ(CUDA_ERROR_INVALID_VALUE, cuCtxCreate(NULL, NULL, 0, 0));
	EXPECT_EQ(CUDA_ERROR_INVALID_VALUE, cuCtxCreate(&p, NULL, 0x100, 0));
	EXPECT_EQ(CUDA_ERROR_INVALID_VALUE,
		  cuCtxCreate(&p, NULL, CU_CTX_SCHED_SPIN | CU_CTX_SCHED_BLOCKING_SYNC, 0));
	EXPECT_EQ(CUDA_ERROR_INVALID_DEVICE, cuCtxCreate(&p, NULL, 0, self->n));
	params.execAffinityParams = &aff;
	params.numExecAffinityParams = 1;
	EXPECT_EQ(CUDA_ERROR_UNSUPPORTED_EXEC_AFFINITY, cuCtxCreate(&p, &params, 0, 0));
	ASSERT_EQ(CUDA_SUCCESS, cuCtxGetCurrent(&cur));
	EXPECT_EQ(NULL, cur);
	EXPECT_EQ(CUDA_ERROR_INVALID_CONTEXT, cuCtxPushCurrent(NULL));
	EXPECT_EQ(CUDA_ERROR_INVALID_CONTEXT, cuCtxPushCurrent((CUcontext)&params));
	EXPECT_EQ(CUDA_ERROR_INVALID_CONTEXT, cuCtxDestroy((CUcontext)&params));
	EXPECT_EQ(CUDA_ERROR_INVALID_CONTEXT, cuCtxDestroy(primary(0)));
	EXPECT_EQ(CUDA_ERROR_INVALID_VALUE, cuCtxGetCurrent(NULL));
	EXPECT_EQ(CUDA_ERROR_INVALID_CONTEXT, cuCtxGetDevice(&dev));
	EXPECT_EQ(CUDA_ERROR_INVALID_CONTEXT, cuCtxGetFlags(&flags));
}

struct stack_arg {
	CUcontext a, b;
	pthread_barrier_t *bar;
	int fails;
};

#define CHECK(cond)	do { if (!(cond)) arg->fails++; } while (0)

/* The second thread: its own stack, the first thread's context shared. */
static void *stack_thread(void *p)
{
	struct stack_arg *arg = p;
	CUcontext cur = (CUcontext)1, popped = NULL;
	CUdevice dev = -1;

	CHECK(cuCtxGetCurrent(&cur) == CUDA_SUCCESS && cur == NULL);	/* starts empty */
	CHECK(cuCtxPushCurrent(arg->b) == CUDA_SUCCESS);
	CHECK(cuCtxPushCurrent(arg->a) == CUDA_SUCCESS);	/* current here and there */
	CHECK(cuCtxPopCurrent(&popped) == CUDA_SUCCESS && popped == arg->a);
	CHECK(cuCtxGetCurrent(&cur) == CUDA_SUCCESS && cur == arg->b);
	pthread_barrier_wait(arg->bar);	/* 1: main checks its stack */
	pthread_barrier_wait(arg->bar);	/* 2: main destroyed b */
	CHECK(cuCtxGetDevice(&dev) == CUDA_ERROR_CONTEXT_IS_DESTROYED);
	CHECK(cuCtxGetCurrent(&cur) == CUDA_SUCCESS && cur == arg->b);
	CHECK(cuCtxPopCurrent(&popped) == CUDA_SUCCESS && popped == arg->b);
	CHECK(cuCtxPopCurrent(&popped) == CUDA_ERROR_INVALID_CONTEXT);
	return NULL;
}

#undef CHECK

TEST_F(drv, context_stack_is_per_thread)
{
	struct stack_arg arg = { 0 };
	pthread_barrier_t bar;
	CUcontext cur = NULL;
	pthread_t t;

	pthread_barrier_init(&bar, NULL, 2);
	arg.bar = &bar;
	ASSERT_EQ(CUDA_SUCCESS, cuCtxCreate(&arg.b, NULL, 0, self->n - 1));
	ASSERT_EQ(CUDA_SUCCESS, cuCtxCreate(&arg.a, NULL, 0, 0));	/* main: [b, a] */
	ASSERT_EQ(0, pthread_create(&t, NULL, stack_thread, &arg));
	pthread_barrier_wait(&bar);
	ASSERT_EQ(CUDA_SUCCESS, cuCtxGetCurrent(&cur));
	EXPECT_EQ(arg.a, cur);		/* the other thread's pops did not touch ours */
	ASSERT_EQ(CUDA_SUCCESS, cuCtxPopCurrent(&cur));
	EXPECT_EQ(arg.a, cur);
	ASSERT_EQ(CUDA_SUCCESS, cuCtxDestroy(arg.b));	/* current to both threads */
	pthread_barrier_wait(&bar);
	pthread_join(t, NULL);
	EXPECT_EQ(0, arg.fails);
	ASSERT_EQ(CUDA_SUCCESS, cuCtxGetCurrent(&cur));
	EXPECT_EQ(NULL, cur);		/* destroy popped b here */
	EXPECT_EQ(CUDA_SUCCESS, cuCtxDestroy(arg.a));
	pthread_barrier_destroy(&bar);
}

/* ---- 4. memory, copies, sets ---------------------------------------------------- */

static void pattern(unsigned char *p, size_t n, unsigned int seed)
{
	size_t i;

	for (i = 0; i < n; i++)
		p[i] = (unsigned char)(i * 7 + seed);
}

TEST_F(drv, alloc_copy_set_with_data_checked)
{
	const size_t n = 256 * KIB;
	unsigned char *src = malloc(n), *dst = malloc(n);
	CUdeviceptr a = 0, b = 0, m = 0, tmp = 0;
	size_t free_b = 0, total = 0, rfree = 0, rtotal = 0, i;
	unsigned short *h16;
	unsigned int *h32, ord = 99;
	CUcontext c;
	void *h = NULL;
	int d = self->n - 1;

	ASSERT_NE(NULL, src);
	ASSERT_NE(NULL, dst);
	ASSERT_EQ(CUDA_SUCCESS, cuCtxCreate(&c, NULL, 0, d));
	ASSERT_EQ(CUDA_SUCCESS, cuMemAlloc(&a, n));
	ASSERT_EQ(CUDA_SUCCESS, cuMemAlloc(&b, n));
	/* device memory of the current context's device */
	ASSERT_EQ(CUDA_SUCCESS, cuPointerGetAttribute(&ord, CU_POINTER_ATTRIBUTE_DEVICE_ORDINAL, a));
	EXPECT_EQ(d, (int)ord);
	ASSERT_EQ(CUDA_SUCCESS, cuPointerGetAttribute(&ord, CU_POINTER_ATTRIBUTE_MEMORY_TYPE, a));
	EXPECT_EQ(CU_MEMORYTYPE_DEVICE, ord);
	/* host -> device -> device -> host */
	pattern(src, n, 3);
	ASSERT_EQ(CUDA_SUCCESS, cuMemcpyHtoD(a, src, n));
	ASSERT_EQ(CUDA_SUCCESS, cuMemcpyDtoD(b, a, n));
	memset(dst, 0, n);
	ASSERT_EQ(CUDA_SUCCESS, cuMemcpyDtoH(dst, b, n));
	EXPECT_EQ(0, memcmp(src, dst, n));
	/* cuMemcpy infers the direction (unified addressing) */
	pattern(src, n, 11);
	ASSERT_EQ(CUDA_SUCCESS, cuMemcpy(a, (CUdeviceptr)src, n));
	ASSERT_EQ(CUDA_SUCCESS, cuMemcpy((CUdeviceptr)dst, a, n));
	EXPECT_EQ(0, memcmp(src, dst, n));
	/* sets of 1, 2 and 4 bytes */
	ASSERT_EQ(CUDA_SUCCESS, cuMemsetD8(a, 0xa5, n));
	ASSERT_EQ(CUDA_SUCCESS, cuMemcpyDtoH(dst, a, n));
	for (i = 0; i < n && dst[i] == 0xa5; i++)
		;
	EXPECT_EQ(n, i);
	ASSERT_EQ(CUDA_SUCCESS, cuMemsetD16(a + 2, 0xbeef, n / 2 - 2));
	ASSERT_EQ(CUDA_SUCCESS, cuMemcpyDtoH(dst, a, n));
	h16 = (unsigned short *)dst;
	EXPECT_EQ(0xa5a5, h16[0]);
	for (i = 1; i < n / 2 - 1 && h16[i] == 0xbeef; i++)
		;
	EXPECT_EQ(n / 2 - 1, i);
	EXPECT_EQ(0xa5a5, h16[n / 2 - 1]);
	ASSERT_EQ(CUDA_SUCCESS, cuMemsetD32(a, 0x12345678, n / 4));
	ASSERT_EQ(CUDA_SUCCESS, cuMemcpyDtoH(dst, a, n));
	h32 = (unsigned int *)dst;
	for (i = 0; i < n / 4 && h32[i] == 0x12345678; i++)
		;
	EXPECT_EQ(n / 4, i);
	EXPECT_EQ(CUDA_SUCCESS, cuMemsetD32(a, 0, 0));	/* nothing */
	/* misaligned, NULL, outside the allocation: INVALID_VALUE, nothing set */
	EXPECT_EQ(CUDA_ERROR_INVALID_VALUE, cuMemsetD16(a + 1, 1, 4));
	EXPECT_EQ(CUDA_ERROR_INVALID_VALUE, cuMemsetD32(a + 2, 1, 4));
	EXPECT_EQ(CUDA_ERROR_INVALID_VALUE, cuMemsetD8(0, 1, 4));
	EXPECT_EQ(CUDA_ERROR_INVALID_VALUE, cuMemsetD8(a, 1, n + 1));
	EXPECT_EQ(CUDA_ERROR_INVALID_VALUE, cuMemsetD8((CUdeviceptr)src, 1, 4));	/* pageable */
	ASSERT_EQ(CUDA_SUCCESS, cuMemcpyDtoH(dst, a, 8));
	EXPECT_EQ(0x12345678, h32[0]);
	EXPECT_EQ(CUDA_ERROR_INVALID_VALUE, cuMemcpyHtoD(a, src, n + 1));
	/* allocation rules */
	EXPECT_EQ(CUDA_ERROR_INVALID_VALUE, cuMemAlloc(&tmp, 0));
	EXPECT_EQ(CUDA_ERROR_INVALID_VALUE, cuMemAlloc(NULL, n));
	EXPECT_EQ(0, tmp);
	ASSERT_EQ(CUDA_SUCCESS, cuMemGetInfo(&free_b, &total));
	ASSERT_EQ(cudaSuccess, cudaMemGetInfo(&rfree, &rtotal));
	EXPECT_EQ(rtotal, total);
	EXPECT_LE(free_b, total);
	EXPECT_EQ(CUDA_ERROR_INVALID_VALUE, cuMemGetInfo(NULL, &total));
	/* pinned and managed memory */
	ASSERT_EQ(CUDA_SUCCESS, cuMemAllocHost(&h, n));
	ASSERT_EQ(CUDA_SUCCESS, cuMemcpyDtoH(h, b, n));
	ASSERT_EQ(CUDA_SUCCESS, cuMemcpyHtoD(b, src, n));	/* b holds src (seed 11) */
	EXPECT_EQ(CUDA_ERROR_INVALID_VALUE, cuMemAllocHost(&h, 0));
	EXPECT_EQ(CUDA_SUCCESS, cuMemFreeHost(h));
	ASSERT_EQ(CUDA_SUCCESS, cuMemHostAlloc(&h, n, CU_MEMHOSTALLOC_PORTABLE));
	EXPECT_EQ(CUDA_SUCCESS, cuMemFreeHost(h));
	ASSERT_EQ(CUDA_SUCCESS, cuMemAllocManaged(&m, n, CU_MEM_ATTACH_GLOBAL));
	ASSERT_EQ(CUDA_SUCCESS, cuMemcpyDtoD(m, b, n));
	EXPECT_EQ(0, memcmp((void *)m, src, n));
	EXPECT_EQ(CUDA_SUCCESS, cuMemFree(m));
	EXPECT_EQ(CUDA_SUCCESS, cuMemFree(a));
	EXPECT_EQ(CUDA_SUCCESS, cuMemFree(b));
	EXPECT_EQ(CUDA_ERROR_INVALID_VALUE, cuMemFree(a));	/* double free */
	/* without a current context */
	ASSERT_EQ(CUDA_SUCCESS, cuCtxDestroy(c));
	pop_all();
	EXPECT_EQ(CUDA_ERROR_INVALID_CONTEXT, cuMemAlloc(&tmp, n));
	EXPECT_EQ(CUDA_ERROR_INVALID_CONTEXT, cuMemcpyHtoD(a, src, n));
	EXPECT_EQ(CUDA_ERROR_INVALID_CONTEXT, cuMemsetD8(a, 0, n));
	EXPECT_EQ(CUDA_ERROR_INVALID_CONTEXT, cuMemGetInfo(&free_b, &total));
	EXPECT_EQ(0, tmp);
	EXPECT_EQ(cudaSuccess, cudaGetLastError());	/* driver calls leave it alone */
	free(src);
	free(dst);
}

/* ---- 5. streams and events --------------------------------------------------------- */

TEST_F(drv, streams_and_events_in_order)
{
	const size_t n = 4 * MIB;
	unsigned char *h = NULL;
	CUevent e0, e1, nt, bad = NULL;
	CUdeviceptr a = 0;
	CUcontext c;
	CUstream s, s2;
	float ms = -1;
	size_t i;

	ASSERT_EQ(CUDA_SUCCESS, cuDevicePrimaryCtxRetain(&c, 0));
	ASSERT_EQ(CUDA_SUCCESS, cuCtxPushCurrent(c));
	ASSERT_EQ(CUDA_SUCCESS, cuMemAlloc(&a, n));
	ASSERT_EQ(CUDA_SUCCESS, cuMemAllocHost((void **)&h, n));
	EXPECT_EQ(CUDA_ERROR_INVALID_VALUE, cuStreamCreate(&s, 2));
	EXPECT_EQ(CUDA_ERROR_INVALID_VALUE, cuStreamCreate(NULL, 0));
	ASSERT_EQ(CUDA_SUCCESS, cuStreamCreate(&s, CU_STREAM_NON_BLOCKING));
	ASSERT_EQ(CUDA_SUCCESS, cuStreamCreate(&s2, CU_STREAM_DEFAULT));
	ASSERT_EQ(CUDA_SUCCESS, cuEventCreate(&e0, CU_EVENT_DEFAULT));
	ASSERT_EQ(CUDA_SUCCESS, cuEventCreate(&e1, CU_EVENT_BLOCKING_SYNC));
	ASSERT_EQ(CUDA_SUCCESS, cuEventCreate(&nt, CU_EVENT_DISABLE_TIMING));
	EXPECT_EQ(CUDA_ERROR_INVALID_VALUE, cuEventCreate(&bad, 0x40));
	EXPECT_EQ(NULL, bad);
	EXPECT_EQ(CUDA_SUCCESS, cuEventQuery(e0));	/* never recorded: complete */
	/* set, copy back, in stream order: the copy sees the set */
	ASSERT_EQ(CUDA_SUCCESS, cuEventRecord(e0, s));
	ASSERT_EQ(CUDA_SUCCESS, cuMemsetD32Async(a, 0x5a5a5a5a, n / 4, s));
	ASSERT_EQ(CUDA_SUCCESS, cuMemsetD8Async(a + n - 1, 0x77, 1, s));
	ASSERT_EQ(CUDA_SUCCESS, cuMemcpyDtoHAsync(h, a, n, s));
	ASSERT_EQ(CUDA_SUCCESS, cuEventRecord(e1, s));
	ASSERT_EQ(CUDA_SUCCESS, cuEventRecord(nt, s));
	ASSERT_EQ(CUDA_SUCCESS, cuEventSynchronize(e1));
	EXPECT_EQ(CUDA_SUCCESS, cuEventQuery(e1));
	EXPECT_EQ(CUDA_SUCCESS, cuStreamSynchronize(s));
	EXPECT_EQ(CUDA_SUCCESS, cuStreamQuery(s));
	for (i = 0; i < n - 1 && h[i] == 0x5a; i++)
		;
	EXPECT_EQ(n - 1, i);
	EXPECT_EQ(0x77, h[n - 1]);
	ASSERT_EQ(CUDA_SUCCESS, cuEventElapsedTime(&ms, e0, e1));
	EXPECT_GE(ms, 0.0f);
	EXPECT_EQ(CUDA_ERROR_INVALID_HANDLE, cuEventElapsedTime(&ms, e0, nt));
	EXPECT_EQ(CUDA_ERROR_INVALID_VALUE, cuEventElapsedTime(NULL, e0, e1));
	/* host -> device -> host on the second stream, D16 in between */
	memset(h, 1, n);
	ASSERT_EQ(CUDA_SUCCESS, cuMemcpyHtoDAsync(a, h, n, s2));
	ASSERT_EQ(CUDA_SUCCESS, cuMemsetD16Async(a, 0x0202, 8, s2));
	ASSERT_EQ(CUDA_SUCCESS, cuMemcpyDtoDAsync(a + n / 2, a, 16, s2));
	ASSERT_EQ(CUDA_SUCCESS, cuMemcpyAsync((CUdeviceptr)h, a, n, s2));
	ASSERT_EQ(CUDA_SUCCESS, cuCtxSynchronize());
	EXPECT_EQ(2, h[0]);
	EXPECT_EQ(2, h[15]);
	EXPECT_EQ(1, h[16]);
	EXPECT_EQ(2, h[n / 2 + 15]);
	EXPECT_EQ(1, h[n / 2 + 16]);
	/* the runtime takes the driver's handles */
	EXPECT_EQ(cudaSuccess, cudaEventQuery((cudaEvent_t)e1));
	EXPECT_EQ(cudaSuccess, cudaStreamSynchronize((cudaStream_t)s2));
	/* destroyed handles */
	ASSERT_EQ(CUDA_SUCCESS, cuStreamDestroy(s));
	EXPECT_EQ(CUDA_ERROR_INVALID_HANDLE, cuStreamQuery(s));
	EXPECT_EQ(CUDA_ERROR_INVALID_HANDLE, cuStreamDestroy(s));
	EXPECT_EQ(CUDA_ERROR_INVALID_HANDLE, cuMemsetD8Async(a, 0, 1, s));
	ASSERT_EQ(CUDA_SUCCESS, cuEventDestroy(e0));
	EXPECT_EQ(CUDA_ERROR_INVALID_HANDLE, cuEventQuery(e0));
	EXPECT_EQ(CUDA_ERROR_INVALID_HANDLE, cuEventRecord(e0, s2));
	EXPECT_EQ(CUDA_SUCCESS, cuEventDestroy(e1));
	EXPECT_EQ(CUDA_SUCCESS, cuEventDestroy(nt));
	EXPECT_EQ(CUDA_SUCCESS, cuStreamDestroy(s2));
	EXPECT_EQ(CUDA_SUCCESS, cuMemFree(a));
	EXPECT_EQ(CUDA_SUCCESS, cuMemFreeHost(h));
	EXPECT_EQ(cudaSuccess, cudaGetLastError());
	pop_all();
	EXPECT_EQ(CUDA_ERROR_INVALID_CONTEXT, cuStreamCreate(&s, 0));
	EXPECT_EQ(CUDA_ERROR_INVALID_CONTEXT, cuEventCreate(&e0, 0));
	EXPECT_EQ(CUDA_SUCCESS, cuDevicePrimaryCtxRelease(0));
}

/* ---- 6. error names and strings ------------------------------------------------------ */

#define C(code)	{ code, #code }
static const struct {
	CUresult code;
	const char *name;
} codes[] = {
	C(CUDA_SUCCESS), C(CUDA_ERROR_INVALID_VALUE), C(CUDA_ERROR_OUT_OF_MEMORY),
	C(CUDA_ERROR_NOT_INITIALIZED), C(CUDA_ERROR_DEINITIALIZED),
	C(CUDA_ERROR_PROFILER_DISABLED), C(CUDA_ERROR_PROFILER_NOT_INITIALIZED),
	C(CUDA_ERROR_PROFILER_ALREADY_STARTED), C(CUDA_ERROR_PROFILER_ALREADY_STOPPED),
	C(CUDA_ERROR_STUB_LIBRARY), C(CUDA_ERROR_CALL_REQUIRES_NEWER_DRIVER),
	C(CUDA_ERROR_DEVICE_UNAVAILABLE), C(CUDA_ERROR_NO_DEVICE),
	C(CUDA_ERROR_INVALID_DEVICE), C(CUDA_ERROR_DEVICE_NOT_LICENSED),
	C(CUDA_ERROR_INVALID_IMAGE), C(CUDA_ERROR_INVALID_CONTEXT),
	C(CUDA_ERROR_CONTEXT_ALREADY_CURRENT), C(CUDA_ERROR_MAP_FAILED),
	C(CUDA_ERROR_UNMAP_FAILED), C(CUDA_ERROR_ARRAY_IS_MAPPED),
	C(CUDA_ERROR_ALREADY_MAPPED), C(CUDA_ERROR_NO_BINARY_FOR_GPU),
	C(CUDA_ERROR_ALREADY_ACQUIRED), C(CUDA_ERROR_NOT_MAPPED),
	C(CUDA_ERROR_NOT_MAPPED_AS_ARRAY), C(CUDA_ERROR_NOT_MAPPED_AS_POINTER),
	C(CUDA_ERROR_ECC_UNCORRECTABLE), C(CUDA_ERROR_UNSUPPORTED_LIMIT),
	C(CUDA_ERROR_CONTEXT_ALREADY_IN_USE), C(CUDA_ERROR_PEER_ACCESS_UNSUPPORTED),
	C(CUDA_ERROR_INVALID_PTX), C(CUDA_ERROR_INVALID_GRAPHICS_CONTEXT),
	C(CUDA_ERROR_NVLINK_UNCORRECTABLE), C(CUDA_ERROR_JIT_COMPILER_NOT_FOUND),
	C(CUDA_ERROR_UNSUPPORTED_PTX_VERSION), C(CUDA_ERROR_JIT_COMPILATION_DISABLED),
	C(CUDA_ERROR_UNSUPPORTED_EXEC_AFFINITY), C(CUDA_ERROR_UNSUPPORTED_DEVSIDE_SYNC),
	C(CUDA_ERROR_CONTAINED), C(CUDA_ERROR_INVALID_SOURCE), C(CUDA_ERROR_FILE_NOT_FOUND),
	C(CUDA_ERROR_SHARED_OBJECT_SYMBOL_NOT_FOUND), C(CUDA_ERROR_SHARED_OBJECT_INIT_FAILED),
	C(CUDA_ERROR_OPERATING_SYSTEM), C(CUDA_ERROR_INVALID_HANDLE),
	C(CUDA_ERROR_ILLEGAL_STATE), C(CUDA_ERROR_LOSSY_QUERY), C(CUDA_ERROR_NOT_FOUND),
	C(CUDA_ERROR_NOT_READY), C(CUDA_ERROR_ILLEGAL_ADDRESS),
	C(CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES), C(CUDA_ERROR_LAUNCH_TIMEOUT),
	C(CUDA_ERROR_LAUNCH_INCOMPATIBLE_TEXTURING), C(CUDA_ERROR_PEER_ACCESS_ALREADY_ENABLED),
	C(CUDA_ERROR_PEER_ACCESS_NOT_ENABLED), C(CUDA_ERROR_PRIMARY_CONTEXT_ACTIVE),
	C(CUDA_ERROR_CONTEXT_IS_DESTROYED), C(CUDA_ERROR_ASSERT), C(CUDA_ERROR_TOO_MANY_PEERS),
	C(CUDA_ERROR_HOST_MEMORY_ALREADY_REGISTERED), C(CUDA_ERROR_HOST_MEMORY_NOT_REGISTERED),
	C(CUDA_ERROR_HARDWARE_STACK_ERROR), C(CUDA_ERROR_ILLEGAL_INSTRUCTION),
	C(CUDA_ERROR_MISALIGNED_ADDRESS), C(CUDA_ERROR_INVALID_ADDRESS_SPACE),
	C(CUDA_ERROR_INVALID_PC), C(CUDA_ERROR_LAUNCH_FAILED),
	C(CUDA_ERROR_COOPERATIVE_LAUNCH_TOO_LARGE), C(CUDA_ERROR_TENSOR_MEMORY_LEAK),
	C(CUDA_ERROR_NOT_PERMITTED), C(CUDA_ERROR_NOT_SUPPORTED),
	C(CUDA_ERROR_SYSTEM_NOT_READY), C(CUDA_ERROR_SYSTEM_DRIVER_MISMATCH),
	C(CUDA_ERROR_COMPAT_NOT_SUPPORTED_ON_DEVICE), C(CUDA_ERROR_MPS_CONNECTION_FAILED),
	C(CUDA_ERROR_MPS_RPC_FAILURE), C(CUDA_ERROR_MPS_SERVER_NOT_READY),
	C(CUDA_ERROR_MPS_MAX_CLIENTS_REACHED), C(CUDA_ERROR_MPS_MAX_CONNECTIONS_REACHED),
	C(CUDA_ERROR_MPS_CLIENT_TERMINATED), C(CUDA_ERROR_CDP_NOT_SUPPORTED),
	C(CUDA_ERROR_CDP_VERSION_MISMATCH), C(CUDA_ERROR_STREAM_CAPTURE_UNSUPPORTED),
	C(CUDA_ERROR_STREAM_CAPTURE_INVALIDATED), C(CUDA_ERROR_STREAM_CAPTURE_MERGE),
	C(CUDA_ERROR_STREAM_CAPTURE_UNMATCHED), C(CUDA_ERROR_STREAM_CAPTURE_UNJOINED),
	C(CUDA_ERROR_STREAM_CAPTURE_ISOLATION), C(CUDA_ERROR_STREAM_CAPTURE_IMPLICIT),
	C(CUDA_ERROR_CAPTURED_EVENT), C(CUDA_ERROR_STREAM_CAPTURE_WRONG_THREAD),
	C(CUDA_ERROR_TIMEOUT), C(CUDA_ERROR_GRAPH_EXEC_UPDATE_FAILURE),
	C(CUDA_ERROR_EXTERNAL_DEVICE), C(CUDA_ERROR_INVALID_CLUSTER_SIZE),
	C(CUDA_ERROR_FUNCTION_NOT_LOADED), C(CUDA_ERROR_INVALID_RESOURCE_TYPE),
	C(CUDA_ERROR_INVALID_RESOURCE_CONFIGURATION), C(CUDA_ERROR_KEY_ROTATION),
	C(CUDA_ERROR_UNKNOWN),
};
#undef C

/*
 * Every CUresult: its enumerator's name, and the runtime's string for the
 * same number (driver and runtime share the wording); anything else is
 * INVALID_VALUE with NULL. Needs no initialisation.
 */
TEST(error_names_and_strings)
{
	const char *s, *rs;
	unsigned int i, known;
	int v;

	ASSERT_EQ(101, sizeof(codes) / sizeof(codes[0]));
	for (i = 0; i < sizeof(codes) / sizeof(codes[0]); i++) {
		s = NULL;
		ASSERT_EQ(CUDA_SUCCESS, cuGetErrorName(codes[i].code, &s));
		EXPECT_STREQ(codes[i].name, s);
		s = NULL;
		ASSERT_EQ(CUDA_SUCCESS, cuGetErrorString(codes[i].code, &s));
		ASSERT_NE(NULL, s);
		rs = cudaGetErrorString((cudaError_t)codes[i].code);
		if (codes[i].code == CUDA_ERROR_CONTEXT_ALREADY_CURRENT)
			rs = "context already current";		/* no runtime twin */
		else if (codes[i].code == CUDA_ERROR_KEY_ROTATION)
			rs = "an error happened during the key rotation sequence";
		EXPECT_STREQ(rs, s) TH_LOG("%s", codes[i].name);
	}
	for (v = -2; v <= 1100; v++) {
		for (known = 0, i = 0; i < sizeof(codes) / sizeof(codes[0]); i++)
			known |= codes[i].code == (CUresult)v;
		if (known)
			continue;
		s = "x";
		EXPECT_EQ(CUDA_ERROR_INVALID_VALUE, cuGetErrorName((CUresult)v, &s));
		EXPECT_EQ(NULL, s);
		s = "x";
		EXPECT_EQ(CUDA_ERROR_INVALID_VALUE, cuGetErrorString((CUresult)v, &s));
		EXPECT_EQ(NULL, s);
	}
	EXPECT_EQ(CUDA_ERROR_INVALID_VALUE, cuGetErrorName(CUDA_SUCCESS, NULL));
	EXPECT_EQ(CUDA_ERROR_INVALID_VALUE, cuGetErrorString(CUDA_SUCCESS, NULL));
}

/* ---- 7. peer access ------------------------------------------------------------------------ */

TEST_F(drv, peer_access_runtime)
{
	int can = -1, d;

	for (d = 0; d < self->n; d++) {
		ASSERT_EQ(cudaSuccess, cudaDeviceCanAccessPeer(&can, d, d));
		EXPECT_EQ(0, can);	/* a device is not its own peer */
	}
	EXPECT_EQ(cudaErrorInvalidDevice, cudaDeviceCanAccessPeer(&can, 0, self->n));
	EXPECT_EQ(cudaErrorInvalidDevice, cudaDeviceCanAccessPeer(&can, -1, 0));
	EXPECT_EQ(cudaErrorInvalidValue, cudaDeviceCanAccessPeer(NULL, 0, 0));
	ASSERT_EQ(cudaSuccess, cudaSetDevice(0));
	EXPECT_EQ(cudaErrorInvalidDevice, cudaDeviceEnablePeerAccess(0, 0));	/* itself */
	EXPECT_EQ(cudaErrorInvalidDevice, cudaDeviceEnablePeerAccess(self->n, 0));
	EXPECT_EQ(cudaErrorInvalidDevice, cudaDeviceDisablePeerAccess(self->n));
	EXPECT_EQ(cudaErrorInvalidDevice, cudaGetLastError());
	if (self->n < 2)
		SKIP(return, "one device: no peers");
	ASSERT_EQ(cudaSuccess, cudaDeviceCanAccessPeer(&can, 0, 1));
	EXPECT_EQ(1, can);	/* the module copies and migrates between its devices */
	EXPECT_EQ(cudaErrorInvalidValue, cudaDeviceEnablePeerAccess(1, 1));
	EXPECT_EQ(cudaErrorPeerAccessNotEnabled, cudaDeviceDisablePeerAccess(1));
	EXPECT_EQ(cudaSuccess, cudaDeviceEnablePeerAccess(1, 0));
	EXPECT_EQ(cudaErrorPeerAccessAlreadyEnabled, cudaDeviceEnablePeerAccess(1, 0));
	EXPECT_EQ(cudaErrorPeerAccessAlreadyEnabled, cudaGetLastError());
	/* per context: device 1 has not enabled device 0 */
	ASSERT_EQ(cudaSuccess, cudaSetDevice(1));
	EXPECT_EQ(cudaErrorPeerAccessNotEnabled, cudaDeviceDisablePeerAccess(0));
	ASSERT_EQ(cudaSuccess, cudaSetDevice(0));
	EXPECT_EQ(cudaSuccess, cudaDeviceDisablePeerAccess(1));
	EXPECT_EQ(cudaErrorPeerAccessNotEnabled, cudaDeviceDisablePeerAccess(1));
	cudaGetLastError();
}

TEST_F(drv, peer_access_driver_and_data)
{
	const size_t n = 64 * KIB;
	unsigned char *src = malloc(n), *dst = malloc(n);
	CUcontext p0, p1, other;
	CUdeviceptr a = 0, b = 0;
	int can = -1;

	ASSERT_NE(NULL, src);
	ASSERT_NE(NULL, dst);
	ASSERT_EQ(CUDA_SUCCESS, cuDeviceCanAccessPeer(&can, 0, 0));
	EXPECT_EQ(0, can);
	EXPECT_EQ(CUDA_ERROR_INVALID_DEVICE, cuDeviceCanAccessPeer(&can, 0, self->n));
	EXPECT_EQ(CUDA_ERROR_INVALID_VALUE, cuDeviceCanAccessPeer(NULL, 0, 0));
	EXPECT_EQ(CUDA_ERROR_INVALID_CONTEXT, cuCtxEnablePeerAccess(primary(0), 0));	/* none current */
	if (self->n < 2)
		SKIP(return, "one device: no peers");
	ASSERT_EQ(CUDA_SUCCESS, cuDeviceCanAccessPeer(&can, 1, 0));
	EXPECT_EQ(1, can);
	ASSERT_EQ(CUDA_SUCCESS, cuDevicePrimaryCtxRetain(&p0, 0));
	ASSERT_EQ(CUDA_SUCCESS, cuDevicePrimaryCtxRetain(&p1, 1));
	ASSERT_EQ(CUDA_SUCCESS, cuCtxPushCurrent(p0));
	EXPECT_EQ(CUDA_ERROR_INVALID_VALUE, cuCtxEnablePeerAccess(p1, 1));
	EXPECT_EQ(CUDA_ERROR_INVALID_CONTEXT, cuCtxEnablePeerAccess(p0, 0));	/* itself */
	EXPECT_EQ(CUDA_ERROR_INVALID_CONTEXT, cuCtxEnablePeerAccess(NULL, 0));
	EXPECT_EQ(CUDA_ERROR_PEER_ACCESS_NOT_ENABLED, cuCtxDisablePeerAccess(p1));
	EXPECT_EQ(CUDA_SUCCESS, cuCtxEnablePeerAccess(p1, 0));
	EXPECT_EQ(CUDA_ERROR_PEER_ACCESS_ALREADY_ENABLED, cuCtxEnablePeerAccess(p1, 0));
	/* the runtime shares the primary context: enabled there too */
	EXPECT_EQ(cudaErrorPeerAccessAlreadyEnabled, cudaDeviceEnablePeerAccess(1, 0));
	cudaGetLastError();
	/* another context on device 0 is no peer of p0 */
	ASSERT_EQ(CUDA_SUCCESS, cuCtxCreate(&other, NULL, 0, 0));
	ASSERT_EQ(CUDA_SUCCESS, cuCtxPopCurrent(NULL));
	EXPECT_EQ(CUDA_ERROR_PEER_ACCESS_UNSUPPORTED, cuCtxEnablePeerAccess(other, 0));
	/* memory of both devices, copied both ways */
	pattern(src, n, 5);
	ASSERT_EQ(CUDA_SUCCESS, cuMemAlloc(&a, n));
	ASSERT_EQ(CUDA_SUCCESS, cuCtxSetCurrent(p1));
	ASSERT_EQ(CUDA_SUCCESS, cuMemAlloc(&b, n));
	ASSERT_EQ(CUDA_SUCCESS, cuMemcpyHtoD(a, src, n));
	ASSERT_EQ(CUDA_SUCCESS, cuMemcpyDtoD(b, a, n));
	ASSERT_EQ(CUDA_SUCCESS, cuMemcpyDtoH(dst, b, n));
	EXPECT_EQ(0, memcmp(src, dst, n));
	/* a destroyed peer is forgotten */
	ASSERT_EQ(CUDA_SUCCESS, cuCtxEnablePeerAccess(other, 0));
	ASSERT_EQ(CUDA_SUCCESS, cuCtxDestroy(other));
	EXPECT_EQ(CUDA_ERROR_CONTEXT_IS_DESTROYED, cuCtxDisablePeerAccess(other));
	ASSERT_EQ(CUDA_SUCCESS, cuCtxSetCurrent(p0));
	EXPECT_EQ(CUDA_SUCCESS, cuCtxDisablePeerAccess(p1));
	EXPECT_EQ(CUDA_ERROR_PEER_ACCESS_NOT_ENABLED, cuCtxDisablePeerAccess(p1));
	EXPECT_EQ(CUDA_SUCCESS, cuMemFree(a));
	EXPECT_EQ(CUDA_SUCCESS, cuMemFree(b));
	pop_all();
	EXPECT_EQ(CUDA_SUCCESS, cuDevicePrimaryCtxRelease(0));
	EXPECT_EQ(CUDA_SUCCESS, cuDevicePrimaryCtxRelease(1));
	free(src);
	free(dst);
}

/* ---- 8. device code: NOT_SUPPORTED, with the reason in the JIT error log --------------- */

TEST_F(drv, device_code_not_supported)
{
	CUjit_option opt[2] = { CU_JIT_ERROR_LOG_BUFFER, CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES };
	char log[256] = "";
	void *val[2] = { log, (void *)(uintptr_t)sizeof(log) };
	static const char image[] = "not a cubin";
	CUmodule m = NULL;
	CUfunction f = NULL;
	CUlinkState ls = NULL;
	CUdeviceptr g = 0;
	size_t bytes = 0;
	void *cubin = NULL;

	EXPECT_EQ(CUDA_ERROR_NOT_SUPPORTED, cuModuleLoad(&m, "kernel.cubin"));
	EXPECT_EQ(CUDA_ERROR_NOT_SUPPORTED, cuModuleLoadData(&m, image));
	EXPECT_EQ(CUDA_ERROR_NOT_SUPPORTED, cuModuleLoadFatBinary(&m, image));
	EXPECT_EQ(CUDA_ERROR_NOT_SUPPORTED, cuModuleLoadDataEx(&m, image, 2, opt, val));
	EXPECT_NE(NULL, strstr(log, "libuvm"));
	EXPECT_EQ(strlen(log) + 1, (size_t)(uintptr_t)val[1]);
	EXPECT_EQ(CUDA_ERROR_NOT_SUPPORTED, cuModuleLoadDataEx(&m, image, 0, NULL, NULL));
	EXPECT_EQ(NULL, m);
	EXPECT_EQ(CUDA_ERROR_NOT_SUPPORTED, cuModuleGetFunction(&f, m, "k"));
	EXPECT_EQ(CUDA_ERROR_NOT_SUPPORTED, cuModuleGetGlobal(&g, &bytes, m, "g"));
	EXPECT_EQ(CUDA_ERROR_NOT_SUPPORTED, cuModuleUnload(m));
	EXPECT_EQ(CUDA_ERROR_NOT_SUPPORTED, cuLaunchKernel(f, 1, 1, 1, 1, 1, 1, 0, 0, NULL, NULL));
	log[0] = 0;
	val[1] = (void *)(uintptr_t)8;	/* a short log: cut, NUL-terminated */
	EXPECT_EQ(CUDA_ERROR_NOT_SUPPORTED, cuLinkCreate(2, opt, val, &ls));
	EXPECT_EQ(7, strlen(log));
	EXPECT_EQ(CUDA_ERROR_NOT_SUPPORTED,
		  cuLinkAddData(ls, CU_JIT_INPUT_PTX, (void *)image, sizeof(image), "x", 0, NULL, NULL));
	EXPECT_EQ(CUDA_ERROR_NOT_SUPPORTED, cuLinkAddFile(ls, CU_JIT_INPUT_CUBIN, "x", 0, NULL, NULL));
	EXPECT_EQ(CUDA_ERROR_NOT_SUPPORTED, cuLinkComplete(ls, &cubin, &bytes));
	EXPECT_EQ(CUDA_ERROR_NOT_SUPPORTED, cuLinkDestroy(ls));
	EXPECT_EQ(NULL, ls);
	EXPECT_EQ(NULL, f);
	EXPECT_EQ(0, g);
}

/* ---- 9. cudaMalloc and cudaMallocHost memory: InvalidValue, as CUDA 13 (H100) ----------- */

TEST_F(drv, advise_prefetch_on_device_and_pinned_memory)
{
	struct cudaMemLocation dev0 = loc(cudaMemLocationTypeDevice, 0);
	struct cudaMemLocation host = loc(cudaMemLocationTypeHost, 0);
	void *d = NULL, *h = NULL;
	char *pg = malloc(2 * MIB);
	cudaError_t want;

	ASSERT_NE(NULL, pg);
	ASSERT_EQ(cudaSuccess, cudaMalloc(&d, MIB));
	ASSERT_EQ(cudaSuccess, cudaMallocHost(&h, MIB));
	EXPECT_EQ(cudaErrorInvalidValue, cudaMemAdvise(d, MIB, cudaMemAdviseSetReadMostly, dev0));
	EXPECT_EQ(cudaErrorInvalidValue,
		  cudaMemAdvise(d, MIB, cudaMemAdviseSetPreferredLocation, dev0));
	EXPECT_EQ(cudaErrorInvalidValue, cudaMemAdvise(h, MIB, cudaMemAdviseSetReadMostly, dev0));
	EXPECT_EQ(cudaErrorInvalidValue, cudaMemAdvise(h, MIB, cudaMemAdviseSetAccessedBy, dev0));
	EXPECT_EQ(cudaErrorInvalidValue, cudaMemPrefetchAsync(d, MIB, dev0, 0, 0));
	EXPECT_EQ(cudaErrorInvalidValue, cudaMemPrefetchAsync(d, MIB, host, 0, 0));
	EXPECT_EQ(cudaErrorInvalidValue, cudaGetLastError());
	/* the driver twins agree */
	EXPECT_EQ(CUDA_ERROR_INVALID_VALUE, cuMemAdvise((CUdeviceptr)d, MIB,
		  CU_MEM_ADVISE_SET_READ_MOSTLY, (CUmemLocation){ CU_MEM_LOCATION_TYPE_DEVICE, 0 }));
	EXPECT_EQ(CUDA_ERROR_INVALID_VALUE, cuMemPrefetchAsync((CUdeviceptr)d, MIB,
		  (CUmemLocation){ CU_MEM_LOCATION_TYPE_DEVICE, 0 }, 0, 0));
	/* pageable memory keeps its own answers (cuda_pageable_test.c) */
	memset(pg, 1, 2 * MIB);
	want = pageable_level_is("none") ? cudaErrorInvalidValue : cudaSuccess;
	EXPECT_EQ(want, cudaMemPrefetchAsync(pg, 2 * MIB, host, 0, 0));
	EXPECT_EQ(cudaSuccess, cudaStreamSynchronize(0));
	want = pageable_level_is("migrate") ? cudaSuccess :
	       pageable_level_is("mirror") ? cudaErrorNotSupported : cudaErrorInvalidValue;
	EXPECT_EQ(want, cudaMemAdvise(pg, 2 * MIB, cudaMemAdviseSetReadMostly, dev0));
	cudaGetLastError();
	EXPECT_EQ(cudaSuccess, cudaFree(d));
	EXPECT_EQ(cudaSuccess, cudaFreeHost(h));
	free(pg);
}

TEST_HARNESS_MAIN
