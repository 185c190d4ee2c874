// SPDX-License-Identifier: GPL-2.0
// LDLIBS: -luvm -lnuma -lpthread
/*
 * cuda_kernel_test.c - device kernels on streams (uvmLaunchKernel,
 * uvmLaunchPattern; docs/kernels.md): launch-time errors, the accesses a
 * pattern makes, stream order against prefetches, events and the legacy
 * stream, errors reported at the next synchronisation (not sticky), and
 * the done() callback. Needs the module and a device.
 */
#include <errno.h>
#include <sys/mman.h>
#include <time.h>

#include "cuda_test_util.h"
#include "../../include/uvm/uvm_kernel.h"
#include "kselftest_harness.h"

#define LEN	(4 * MIB)

/*
 * Addresses nothing maps. (Plain host memory is pageable memory, which
 * kernels reach where the module mirrors it: cuda_pageable_test.c.)
 */
static void *hole(size_t len)
{
	void *p = mmap(NULL, len, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	munmap(p, len);
	return p;
}

FIXTURE(kn) {
	struct uvm_context *ctx;
	char *m;
};

FIXTURE_SETUP(kn)
{
	int n = 0;

	if (cudaGetDeviceCount(&n) != cudaSuccess || !n)
		SKIP(return, "no device");
	ASSERT_EQ(0, uvm_runtime_context(&self->ctx));
	ASSERT_EQ(cudaSuccess, cudaMallocManaged((void **)&self->m, LEN,
						 cudaMemAttachGlobal));
	memset(self->m, 0x11, LEN);
}

FIXTURE_TEARDOWN(kn)
{
	if (self->m)
		EXPECT_EQ(cudaSuccess, cudaFree(self->m));
	EXPECT_EQ(cudaSuccess, cudaGetLastError());
}

/* A kernel of one step writing 8 bytes at each of @n addresses. */
struct writer {
	uint64_t *addr[64];
	unsigned int n;
	uint64_t value;
	unsigned int sleep_ms;	/* before the step: a slow kernel */
	int fail;		/* emit returns this instead */
	int done_calls, done_status;
	struct uvm_kernel_stats st;
};

static int writer_emit(void *arg, uint64_t step, struct uvm_device_access_op *ops,
		       unsigned int max)
{
	struct writer *w = arg;
	unsigned int i;

	if (step)
		return 0;
	if (w->sleep_ms)
		usleep(w->sleep_ms * 1000);
	if (w->fail)
		return w->fail;
	for (i = 0; i < w->n && i < max; i++)
		ops[i] = (struct uvm_device_access_op){
			.addr = (uintptr_t)w->addr[i], .length = 8,
			.buf = (uintptr_t)&w->value, .type = UVM_DEVICE_ACCESS_WRITE,
		};
	return (int)i;
}

static void writer_done(void *arg, int status, const struct uvm_kernel_stats *st)
{
	struct writer *w = arg;

	w->done_calls++;
	w->done_status = status;
	w->st = *st;
}

static struct uvm_kernel writer_kernel(struct writer *w)
{
	return (struct uvm_kernel){ .emit = writer_emit, .arg = w, .done = writer_done };
}

/* A kernel of one step making the accesses @ops (copied). */
struct fixed {
	struct uvm_device_access_op ops[8];
	unsigned int n;
};

static int fixed_emit(void *arg, uint64_t step, struct uvm_device_access_op *ops,
		      unsigned int max)
{
	struct fixed *f = arg;

	if (step || f->n > max)
		return 0;
	memcpy(ops, f->ops, f->n * sizeof(*ops));
	return (int)f->n;
}

static void fixed_done(void *arg, int status, const struct uvm_kernel_stats *st)
{
	free(arg);
}

static cudaError_t launch_ops(const struct uvm_device_access_op *ops, unsigned int n)
{
	struct fixed *f = calloc(1, sizeof(*f));
	struct uvm_kernel k = { .emit = fixed_emit, .done = fixed_done };
	cudaError_t e;

	if (!f || n > 8) {
		free(f);
		return cudaErrorMemoryAllocation;
	}
	memcpy(f->ops, ops, n * sizeof(*ops));
	f->n = n;
	k.arg = f;
	e = uvmLaunchKernel(&k, 0, 0);
	if (e)
		free(f);
	return e;
}

/* Bit @dev of page @i's devices_resident. */
static int on_device(struct uvm_context *ctx, void *p, int dev)
{
	struct uvm_page_info pg;

	if (uvm_residency(ctx, p, 1, &pg))
		return -1;
	return !!(pg.devices_resident & (1ULL << dev));
}

TEST_F(kn, launch_errors_queue_nothing)
{
	struct writer w = { .n = 1, .value = 5 };
	struct uvm_kernel k = writer_kernel(&w);
	struct uvm_pattern p = {
		.kind = UVM_PATTERN_SEQUENTIAL, .access = UVM_DEVICE_ACCESS_READ,
		.base = self->m, .len = LEN,
	};
	struct uvm_pattern q;
	char *heap = hole(LEN);	/* plain host memory is pageable memory */
	cudaStream_t s;

	w.addr[0] = (uint64_t *)self->m;
	EXPECT_EQ(cudaErrorInvalidValue, uvmLaunchKernel(NULL, 0, 0));
	k.emit = NULL;
	EXPECT_EQ(cudaErrorInvalidValue, uvmLaunchKernel(&k, 0, 0));
	k = writer_kernel(&w);
	k.flags = 1;
	EXPECT_EQ(cudaErrorInvalidValue, uvmLaunchKernel(&k, 0, 0));
	k.flags = 0;
	k.reserved[6] = 1;
	EXPECT_EQ(cudaErrorInvalidValue, uvmLaunchKernel(&k, 0, 0));
	k.reserved[6] = 0;
	EXPECT_EQ(cudaErrorInvalidDevice, uvmLaunchKernel(&k, 99, 0));
	ASSERT_EQ(cudaSuccess, cudaStreamCreate(&s));
	ASSERT_EQ(cudaSuccess, cudaStreamDestroy(s));
	EXPECT_EQ(cudaErrorInvalidResourceHandle, uvmLaunchKernel(&k, 0, s));
	EXPECT_EQ(cudaErrorInvalidResourceHandle, cudaGetLastError());

	EXPECT_EQ(cudaErrorInvalidValue, uvmLaunchPattern(NULL, 0, 0));
	q = p, q.kind = 3;
	EXPECT_EQ(cudaErrorInvalidValue, uvmLaunchPattern(&q, 0, 0));
	q = p, q.access = UVM_DEVICE_ACCESS_ATOMIC_ADD;
	EXPECT_EQ(cudaErrorInvalidValue, uvmLaunchPattern(&q, 0, 0));
	q = p, q.granule = 8192;
	EXPECT_EQ(cudaErrorInvalidValue, uvmLaunchPattern(&q, 0, 0));
	q = p, q.granule = 128, q.stride = 64;
	EXPECT_EQ(cudaErrorInvalidValue, uvmLaunchPattern(&q, 0, 0));
	q = p, q.count = 5;
	EXPECT_EQ(cudaErrorInvalidValue, uvmLaunchPattern(&q, 0, 0));
	q = p, q.kind = UVM_PATTERN_RANDOM;
	EXPECT_EQ(cudaErrorInvalidValue, uvmLaunchPattern(&q, 0, 0));
	q = p, q.base = heap;
	EXPECT_EQ(cudaErrorInvalidValue, uvmLaunchPattern(&q, 0, 0));
	q = p, q.len = LEN + 1;
	EXPECT_EQ(cudaErrorInvalidValue, uvmLaunchPattern(&q, 0, 0));
	q = p, q.reserved[0] = 1;
	EXPECT_EQ(cudaErrorInvalidValue, uvmLaunchPattern(&q, 0, 0));
	EXPECT_EQ(cudaErrorInvalidValue, cudaGetLastError());

	/* Nothing ran: no write, no done(). */
	EXPECT_EQ(cudaSuccess, cudaDeviceSynchronize());
	EXPECT_EQ(0, w.done_calls);
	EXPECT_EQ(0x11, self->m[0]);
}

TEST_F(kn, a_pattern_writes_what_it_says_on_the_device)
{
	static const unsigned char data[64] = { [0 ... 63] = 0xab };
	struct uvm_pattern p = {
		.kind = UVM_PATTERN_SEQUENTIAL, .access = UVM_DEVICE_ACCESS_WRITE,
		.base = self->m, .len = LEN, .stride = 8192, .data = data,
	};
	size_t off;
	int bad = 0;

	ASSERT_EQ(cudaSuccess, uvmLaunchPattern(&p, 0, 0));
	ASSERT_EQ(cudaSuccess, cudaStreamSynchronize(0));
	EXPECT_EQ(1, on_device(self->ctx, self->m, 0));
	EXPECT_EQ(1, on_device(self->ctx, self->m + LEN - 8192, 0));
	for (off = 0; off < LEN; off += 4096) {
		unsigned char want = off % 8192 ? 0x11 : 0xab;

		bad += self->m[off] != (char)want || self->m[off + 63] != (char)want ||
		       self->m[off + 64] != 0x11;
	}
	EXPECT_EQ(0, bad);
}

/* A seeded random pattern touches the same pages every time. */
TEST_F(kn, a_random_pattern_repeats_itself_for_one_seed)
{
	struct uvm_pattern p = {
		.kind = UVM_PATTERN_RANDOM, .access = UVM_DEVICE_ACCESS_READ,
		.len = LEN / 2, .count = 64, .seed = 42,
	};
	struct uvm_page_info a[512], b[512];
	size_t i;
	int same = 1, touched = 0;

	p.base = self->m;
	ASSERT_EQ(cudaSuccess, uvmLaunchPattern(&p, 0, 0));
	p.base = self->m + LEN / 2;
	ASSERT_EQ(cudaSuccess, uvmLaunchPattern(&p, 0, 0));
	ASSERT_EQ(cudaSuccess, cudaDeviceSynchronize());
	ASSERT_EQ(0, uvm_residency(self->ctx, self->m, 512, a));
	ASSERT_EQ(0, uvm_residency(self->ctx, self->m + LEN / 2, 512, b));
	for (i = 0; i < 512; i++) {
		same &= !!a[i].devices_resident == !!b[i].devices_resident;
		touched += !!a[i].devices_resident;
	}
	EXPECT_EQ(1, same);
	EXPECT_LT(0, touched);
	EXPECT_GT(512, touched);
}

/*
 * A slow kernel, then a prefetch home and an event on the same stream:
 * the stream is busy while the kernel runs, the event completes after it,
 * and the prefetch moves what the kernel wrote (its data intact).
 */
TEST_F(kn, kernels_order_with_prefetches_and_events)
{
	struct writer w = { .n = 2, .value = 0x1234, .sleep_ms = 300 };
	struct uvm_kernel k = writer_kernel(&w);
	cudaStream_t s;
	cudaEvent_t ev;
	uint64_t v;

	w.addr[0] = (uint64_t *)self->m;
	w.addr[1] = (uint64_t *)(self->m + 2 * MIB);
	ASSERT_EQ(cudaSuccess, cudaStreamCreate(&s));
	ASSERT_EQ(cudaSuccess, cudaEventCreate(&ev));
	ASSERT_EQ(cudaSuccess, uvmLaunchKernel(&k, 0, s));
	ASSERT_EQ(cudaSuccess, cudaMemPrefetchAsync(self->m, LEN,
						    loc(cudaMemLocationTypeHost, 0), 0, s));
	ASSERT_EQ(cudaSuccess, cudaEventRecord(ev, s));
	EXPECT_EQ(cudaErrorNotReady, cudaStreamQuery(s));
	EXPECT_EQ(cudaErrorNotReady, cudaEventQuery(ev));
	ASSERT_EQ(cudaSuccess, cudaEventSynchronize(ev));
	EXPECT_EQ(1, w.done_calls);
	EXPECT_EQ(0, w.done_status);
	EXPECT_EQ(1, w.st.steps);
	EXPECT_EQ(2, w.st.accesses);
	EXPECT_LE(1, w.st.faults);
	/* The prefetch ran after the kernel: its pages are home again. */
	EXPECT_EQ(0, on_device(self->ctx, self->m, 0));
	EXPECT_EQ(0, on_device(self->ctx, self->m + 2 * MIB, 0));
	memcpy(&v, self->m, 8);
	EXPECT_EQ(0x1234, v);
	memcpy(&v, self->m + 2 * MIB, 8);
	EXPECT_EQ(0x1234, v);
	EXPECT_EQ(cudaSuccess, cudaEventDestroy(ev));
	EXPECT_EQ(cudaSuccess, cudaStreamDestroy(s));
}

/* A kernel on the legacy stream: a blocking stream's work waits for it. */
TEST_F(kn, the_legacy_stream_orders_kernels_with_blocking_streams)
{
	struct writer w = { .n = 1, .value = 77, .sleep_ms = 300 };
	struct uvm_kernel k = writer_kernel(&w);
	cudaStream_t s;
	uint64_t v;

	w.addr[0] = (uint64_t *)(self->m + 4096);
	ASSERT_EQ(cudaSuccess, cudaStreamCreate(&s));
	ASSERT_EQ(cudaSuccess, uvmLaunchKernel(&k, -1, 0));
	ASSERT_EQ(cudaSuccess, cudaMemPrefetchAsync(self->m, LEN,
						    loc(cudaMemLocationTypeHost, 0), 0, s));
	ASSERT_EQ(cudaSuccess, cudaStreamSynchronize(s));
	EXPECT_EQ(1, w.done_calls);
	EXPECT_EQ(0, on_device(self->ctx, self->m + 4096, 0));
	memcpy(&v, self->m + 4096, 8);
	EXPECT_EQ(77, v);
	EXPECT_EQ(cudaSuccess, cudaStreamDestroy(s));
}

/*
 * What fails inside a kernel is the next synchronisation's error, once:
 * an address nothing maps (cudaErrorIllegalAddress), a
 * malformed access, emit()'s own errno. The kernel stops there.
 */
TEST_F(kn, errors_come_at_the_next_synchronisation_once)
{
	uint64_t *heap = hole(64);
	struct writer w = { .n = 2, .value = 9 };
	struct uvm_kernel k = writer_kernel(&w);
	cudaStream_t s;

	ASSERT_EQ(cudaSuccess, cudaStreamCreate(&s));
	w.addr[0] = (uint64_t *)self->m;
	w.addr[1] = heap;
	ASSERT_EQ(cudaSuccess, uvmLaunchKernel(&k, 0, s));
	EXPECT_EQ(cudaErrorIllegalAddress, cudaStreamSynchronize(s));
	EXPECT_EQ(cudaSuccess, cudaStreamSynchronize(s));
	EXPECT_EQ(cudaErrorIllegalAddress, cudaGetLastError());
	EXPECT_EQ(1, w.done_calls);
	EXPECT_EQ(-EADDRNOTAVAIL, w.done_status);
	EXPECT_EQ(0, w.st.steps);
	/* the access before the hole was made, as on a GPU faulting mid-kernel */
	EXPECT_EQ(9, *(uint64_t *)self->m);

	w.fail = -ENOMEM;
	ASSERT_EQ(cudaSuccess, uvmLaunchKernel(&k, 0, s));
	EXPECT_EQ(cudaErrorMemoryAllocation, cudaStreamSynchronize(s));
	EXPECT_EQ(2, w.done_calls);
	EXPECT_EQ(-ENOMEM, w.done_status);

	w.fail = 0;
	w.n = 1;
	w.addr[0] = (uint64_t *)(self->m + 3);	/* fine for a write */
	ASSERT_EQ(cudaSuccess, uvmLaunchKernel(&k, 0, s));
	EXPECT_EQ(cudaSuccess, cudaStreamSynchronize(s));
	EXPECT_EQ(0, w.done_status);
	cudaGetLastError();
	EXPECT_EQ(cudaSuccess, cudaStreamDestroy(s));
}

/* Work behind a kernel that fails still runs, as behind a failed prefetch. */
TEST_F(kn, a_failed_kernel_does_not_stop_the_stream)
{
	struct writer bad = { .n = 1, .value = 1, .fail = -EIO };
	struct writer good = { .n = 1, .value = 2 };
	struct uvm_kernel kb = writer_kernel(&bad), kg = writer_kernel(&good);

	good.addr[0] = (uint64_t *)self->m;
	ASSERT_EQ(cudaSuccess, uvmLaunchKernel(&kb, 0, 0));
	ASSERT_EQ(cudaSuccess, uvmLaunchKernel(&kg, 0, 0));
	EXPECT_EQ(cudaErrorUnknown, cudaDeviceSynchronize());
	EXPECT_EQ(1, good.done_calls);
	EXPECT_EQ(2, *(uint64_t *)self->m);
	cudaGetLastError();
}

/*
 * Device memory and pinned host memory never fault: libuvm serves those
 * accesses itself (a copy through the module; the CPU's own copy) in the
 * same step as the managed ones the module performs.
 */
TEST_F(kn, kernels_reach_device_and_pinned_memory)
{
	uint64_t *d, *h, got = 0, one = 1, olds[3] = { 5, 5, 5 };
	struct writer w = { .n = 3, .value = 0x77 };
	struct uvm_kernel k = writer_kernel(&w);
	struct uvm_device_access_op *ops = calloc(3, sizeof(*ops));
	unsigned int i;

	ASSERT_NE(NULL, ops);
	ASSERT_EQ(cudaSuccess, cudaMalloc((void **)&d, 4096));
	ASSERT_EQ(cudaSuccess, cudaMallocHost((void **)&h, 4096));
	w.addr[0] = d + 3;
	w.addr[1] = h + 5;
	w.addr[2] = (uint64_t *)self->m;
	ASSERT_EQ(cudaSuccess, uvmLaunchKernel(&k, 0, 0));
	ASSERT_EQ(cudaSuccess, cudaDeviceSynchronize());
	EXPECT_EQ(0, w.done_status);
	EXPECT_EQ(3, w.st.accesses);
	ASSERT_EQ(cudaSuccess, cudaMemcpy(&got, d + 3, 8, cudaMemcpyDeviceToHost));
	EXPECT_EQ(0x77, got);
	EXPECT_EQ(0x77, h[5]);
	EXPECT_EQ(0x77, *(uint64_t *)self->m);

	/* atomics: the old value comes back in the buffer */
	for (i = 0; i < 3; i++) {
		olds[i] = one;
		ops[i] = (struct uvm_device_access_op){
			.addr = (uintptr_t)w.addr[i], .length = 8, .buf = (uintptr_t)&olds[i],
			.type = UVM_DEVICE_ACCESS_ATOMIC_ADD,
		};
	}
	ASSERT_EQ(cudaSuccess, launch_ops(ops, 3));
	ASSERT_EQ(cudaSuccess, cudaDeviceSynchronize());
	for (i = 0; i < 3; i++)
		EXPECT_EQ(0x77, olds[i]);
	ASSERT_EQ(cudaSuccess, cudaMemcpy(&got, d + 3, 8, cudaMemcpyDeviceToHost));
	EXPECT_EQ(0x78, got);
	EXPECT_EQ(0x78, h[5]);

	EXPECT_EQ(cudaSuccess, cudaFree(d));
	EXPECT_EQ(cudaSuccess, cudaFreeHost(h));
	free(ops);
}

TEST_HARNESS_MAIN
