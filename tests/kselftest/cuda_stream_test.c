// SPDX-License-Identifier: GPL-2.0
// LDLIBS: -luvm -lnuma -lpthread
/*
 * cuda_stream_test.c - streams and events of libuvm: creation, ordering,
 * legacy default stream semantics, per-thread streams, events and their
 * error codes, many threads. Needs the module (runtime initialisation);
 * the migration-based checks use node 1 when there are two NUMA nodes.
 */
#include "cuda_test_util.h"
#include "kselftest_harness.h"

FIXTURE(st) {
	struct uvm_context *ctx;
	int nodes;
};

FIXTURE_SETUP(st)
{
	int n;

	ASSERT_EQ(cudaSuccess, cudaGetDeviceCount(&n));
	ASSERT_EQ(0, uvm_runtime_context(&self->ctx));
	self->nodes = mem_nodes();
}

FIXTURE_TEARDOWN(st)
{
	EXPECT_EQ(cudaSuccess, cudaGetLastError());
}

TEST_F(st, create_destroy_errors)
{
	cudaStream_t s, nb;

	ASSERT_EQ(cudaSuccess, cudaStreamCreate(&s));
	ASSERT_EQ(cudaSuccess, cudaStreamCreateWithFlags(&nb, cudaStreamNonBlocking));
	EXPECT_EQ(cudaSuccess, cudaStreamQuery(s));
	EXPECT_EQ(cudaSuccess, cudaStreamSynchronize(nb));
	EXPECT_EQ(cudaErrorInvalidValue, cudaStreamCreateWithFlags(&s, 2));
	EXPECT_EQ(cudaErrorInvalidValue, cudaStreamCreate(NULL));
	EXPECT_EQ(cudaErrorInvalidValue, cudaGetLastError());
	EXPECT_EQ(cudaSuccess, cudaStreamDestroy(s));
	EXPECT_EQ(cudaErrorInvalidResourceHandle, cudaStreamDestroy(s));
	EXPECT_EQ(cudaErrorInvalidResourceHandle, cudaStreamSynchronize(s));
	EXPECT_EQ(cudaErrorInvalidResourceHandle, cudaStreamQuery(s));
	EXPECT_EQ(cudaErrorInvalidResourceHandle, cudaStreamDestroy(0));
	EXPECT_EQ(cudaErrorInvalidResourceHandle, cudaStreamDestroy(cudaStreamLegacy));
	EXPECT_EQ(cudaErrorInvalidResourceHandle, cudaStreamDestroy(cudaStreamPerThread));
	EXPECT_EQ(cudaSuccess, cudaStreamSynchronize(0));
	EXPECT_EQ(cudaSuccess, cudaStreamSynchronize(cudaStreamLegacy));
	EXPECT_EQ(cudaSuccess, cudaStreamSynchronize(cudaStreamPerThread));
	EXPECT_EQ(cudaSuccess, cudaStreamSynchronize_ptsz(0));
	EXPECT_EQ(cudaSuccess, cudaStreamDestroy(nb));
	cudaGetLastError();
}

TEST_F(st, events)
{
	cudaEvent_t a, b, nt;
	cudaStream_t s;
	float ms = -1;
	void *p;

	ASSERT_EQ(cudaSuccess, cudaStreamCreate(&s));
	ASSERT_EQ(cudaSuccess, cudaEventCreate(&a));
	ASSERT_EQ(cudaSuccess, cudaEventCreateWithFlags(&b, cudaEventBlockingSync));
	ASSERT_EQ(cudaSuccess, cudaEventCreateWithFlags(&nt, cudaEventDisableTiming));
	EXPECT_EQ(cudaSuccess, cudaEventQuery(a));	/* never recorded */
	EXPECT_EQ(cudaSuccess, cudaEventSynchronize(a));
	EXPECT_EQ(cudaErrorInvalidResourceHandle, cudaEventElapsedTime(&ms, a, b));
	ASSERT_EQ(cudaSuccess, cudaMallocManaged(&p, 4 * MIB, cudaMemAttachGlobal));
	ASSERT_EQ(cudaSuccess, cudaEventRecord(a, s));
	ASSERT_EQ(cudaSuccess, cudaMemPrefetchAsync(p, 4 * MIB,
						    loc(cudaMemLocationTypeHostNuma, self->nodes - 1), 0, s));
	ASSERT_EQ(cudaSuccess, cudaEventRecord(b, s));
	ASSERT_EQ(cudaSuccess, cudaEventRecord(nt, s));
	ASSERT_EQ(cudaSuccess, cudaEventSynchronize(b));
	EXPECT_EQ(cudaSuccess, cudaEventQuery(b));
	EXPECT_EQ(cudaSuccess, cudaEventQuery(a));
	/* b completed: the prefetch before it did too */
	EXPECT_TRUE(all_on_node(self->ctx, p, 4 * MIB, self->nodes - 1));
	ASSERT_EQ(cudaSuccess, cudaEventElapsedTime(&ms, a, b));
	EXPECT_GE(ms, 0.0f);
	EXPECT_EQ(cudaSuccess, cudaEventSynchronize(nt));
	EXPECT_EQ(cudaErrorInvalidResourceHandle, cudaEventElapsedTime(&ms, a, nt));
	EXPECT_EQ(cudaErrorInvalidValue, cudaEventElapsedTime(NULL, a, b));
	EXPECT_EQ(cudaErrorInvalidValue, cudaEventCreateWithFlags(&a, 0x10));
	EXPECT_EQ(cudaErrorInvalidValue, cudaEventCreateWithFlags(&a, cudaEventInterprocess));
	EXPECT_EQ(cudaErrorNotSupported,
		  cudaEventCreateWithFlags(&a, cudaEventInterprocess | cudaEventDisableTiming));
	EXPECT_EQ(cudaErrorInvalidValue, cudaEventCreate(NULL));
	EXPECT_EQ(cudaErrorInvalidValue, cudaEventRecordWithFlags(a, s, 2));
	EXPECT_EQ(cudaErrorInvalidValue, cudaStreamWaitEvent(s, a, 2));
	EXPECT_EQ(cudaSuccess, cudaEventRecordWithFlags(a, s, 0));
	EXPECT_EQ(cudaSuccess, cudaEventDestroy(a));
	EXPECT_EQ(cudaSuccess, cudaEventDestroy(b));
	EXPECT_EQ(cudaSuccess, cudaEventDestroy(nt));
	EXPECT_EQ(cudaErrorInvalidResourceHandle, cudaEventDestroy(a));
	EXPECT_EQ(cudaErrorInvalidResourceHandle, cudaEventRecord(a, s));
	EXPECT_EQ(cudaErrorInvalidResourceHandle, cudaEventQuery(a));
	EXPECT_EQ(cudaErrorInvalidResourceHandle, cudaEventSynchronize(a));
	EXPECT_EQ(cudaErrorInvalidResourceHandle, cudaStreamWaitEvent(s, a, 0));
	EXPECT_EQ(cudaSuccess, cudaFree(p));
	EXPECT_EQ(cudaSuccess, cudaStreamDestroy(s));
	cudaGetLastError();
}

/* s2 waits for an event recorded on s1 after a migration. */
TEST_F(st, wait_event_orders_streams)
{
	int node = self->nodes - 1;
	cudaStream_t s1, s2;
	cudaEvent_t e, done;
	void *p;

	ASSERT_EQ(cudaSuccess, cudaStreamCreateWithFlags(&s1, cudaStreamNonBlocking));
	ASSERT_EQ(cudaSuccess, cudaStreamCreateWithFlags(&s2, cudaStreamNonBlocking));
	ASSERT_EQ(cudaSuccess, cudaEventCreate(&e));
	ASSERT_EQ(cudaSuccess, cudaEventCreate(&done));
	ASSERT_EQ(cudaSuccess, cudaMallocManaged(&p, 8 * MIB, cudaMemAttachGlobal));
	fill(p, 8 * MIB, 3);
	ASSERT_EQ(cudaSuccess, cudaMemPrefetchAsync(p, 8 * MIB, loc(cudaMemLocationTypeHostNuma, node),
						    0, s1));
	ASSERT_EQ(cudaSuccess, cudaEventRecord(e, s1));
	ASSERT_EQ(cudaSuccess, cudaStreamWaitEvent(s2, e, 0));
	ASSERT_EQ(cudaSuccess, cudaEventRecord(done, s2));
	ASSERT_EQ(cudaSuccess, cudaEventSynchronize(done));
	EXPECT_EQ(cudaSuccess, cudaEventQuery(e));
	EXPECT_EQ(cudaSuccess, cudaStreamQuery(s1));
	EXPECT_TRUE(all_on_node(self->ctx, p, 8 * MIB, node));
	EXPECT_TRUE(check_fill(p, 8 * MIB, 3));
	EXPECT_EQ(cudaSuccess, cudaFree(p));
	cudaEventDestroy(e);
	cudaEventDestroy(done);
	cudaStreamDestroy(s1);
	cudaStreamDestroy(s2);
}

/* Work on the legacy stream waits for blocking streams; an event recorded
 * on the legacy stream completes only after their earlier work. */
TEST_F(st, legacy_stream_waits_for_blocking_streams)
{
	cudaStream_t blk;
	cudaEvent_t e;
	void *p;

	ASSERT_EQ(cudaSuccess, cudaStreamCreate(&blk));
	ASSERT_EQ(cudaSuccess, cudaEventCreate(&e));
	ASSERT_EQ(cudaSuccess, cudaMallocManaged(&p, 16 * MIB, cudaMemAttachGlobal));
	ASSERT_EQ(cudaSuccess, cudaMemPrefetchAsync(p, 16 * MIB,
						    loc(cudaMemLocationTypeHostNuma, self->nodes - 1),
						    0, blk));
	ASSERT_EQ(cudaSuccess, cudaEventRecord(e, 0));
	ASSERT_EQ(cudaSuccess, cudaEventSynchronize(e));
	EXPECT_EQ(cudaSuccess, cudaStreamQuery(blk));
	EXPECT_TRUE(all_on_node(self->ctx, p, 16 * MIB, self->nodes - 1));
	/* and the other way: blocking stream work waits for the legacy stream */
	ASSERT_EQ(cudaSuccess, cudaMemPrefetchAsync(p, 16 * MIB, loc(cudaMemLocationTypeHostNuma, 0),
						    0, cudaStreamLegacy));
	ASSERT_EQ(cudaSuccess, cudaEventRecord(e, blk));
	ASSERT_EQ(cudaSuccess, cudaEventSynchronize(e));
	EXPECT_TRUE(all_on_node(self->ctx, p, 16 * MIB, 0));
	EXPECT_EQ(cudaSuccess, cudaFree(p));
	cudaEventDestroy(e);
	cudaStreamDestroy(blk);
}

TEST_F(st, per_thread_stream_ptsz)
{
	size_t idx = 0, size = MIB;
	struct cudaMemLocation l = loc(cudaMemLocationTypeHostNuma, 0);
	void *p;

	ASSERT_EQ(cudaSuccess, cudaMallocManaged(&p, MIB, cudaMemAttachGlobal));
	/* batch: stream 0 is the legacy stream (rejected) except through _ptsz */
	EXPECT_EQ(cudaErrorInvalidValue, cudaMemPrefetchBatchAsync(&p, &size, 1, &l, &idx, 1, 0, 0));
	EXPECT_EQ(cudaErrorInvalidValue, cudaGetLastError());
	EXPECT_EQ(cudaSuccess, cudaMemPrefetchBatchAsync_ptsz(&p, &size, 1, &l, &idx, 1, 0, 0));
	EXPECT_EQ(cudaSuccess, cudaMemPrefetchAsync_ptsz(p, MIB, l, 0, 0));
	EXPECT_EQ(cudaSuccess, cudaStreamSynchronize_ptsz(0));
	EXPECT_EQ(cudaSuccess, cudaStreamQuery(cudaStreamPerThread));
	EXPECT_TRUE(all_on_node(self->ctx, p, MIB, 0));
	EXPECT_EQ(cudaSuccess, cudaFree(p));
}

/* Many threads: per-thread streams, events across threads, exit cleanup. */
#define NTHREADS 8

static void *thread_fn(void *arg)
{
	cudaEvent_t *ev = arg;
	long bad = 0;
	int i;

	for (i = 0; i < 50; i++) {
		bad += cudaEventRecord(*ev, cudaStreamPerThread) != cudaSuccess;
		bad += cudaStreamWaitEvent(cudaStreamPerThread, *ev, 0) != cudaSuccess;
		bad += cudaStreamSynchronize(cudaStreamPerThread) != cudaSuccess;
		bad += cudaEventQuery(*ev) != cudaSuccess;
	}
	return (void *)bad;
}

TEST_F(st, threads_per_thread_streams)
{
	cudaEvent_t ev[NTHREADS];
	pthread_t th[NTHREADS];
	void *ret;
	int i;

	for (i = 0; i < NTHREADS; i++) {
		ASSERT_EQ(cudaSuccess, cudaEventCreate(&ev[i]));
		ASSERT_EQ(0, pthread_create(&th[i], NULL, thread_fn, &ev[i]));
	}
	for (i = 0; i < NTHREADS; i++) {
		ASSERT_EQ(0, pthread_join(th[i], &ret));
		EXPECT_EQ(NULL, ret);
		EXPECT_EQ(cudaSuccess, cudaEventSynchronize(ev[i]));
		EXPECT_EQ(cudaSuccess, cudaEventDestroy(ev[i]));
	}
	EXPECT_EQ(cudaSuccess, cudaDeviceSynchronize());
}

TEST_HARNESS_MAIN
