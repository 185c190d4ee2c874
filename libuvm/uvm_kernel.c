// SPDX-License-Identifier: MIT
/*
 * uvm_kernel.c - device kernels on streams, and the built-in access
 * patterns (include/uvm/uvm_kernel.h, docs/kernels.md).
 *
 * A launch is one stream work item (cuda_stream.h): its run() asks the
 * kernel for a step of accesses, checks their form, performs them
 * (uvm_kernel_access.c: UVM_IOCTL_DEVICE_ACCESS, or the module's copies
 * for device, pinned and registered memory) and goes on until the kernel
 * says it is done or something fails; the failure is the item's result, so
 * the stream keeps it for the next synchronising call as it does for a
 * prefetch's. uvm_kernel_queue() is the one launch path: uvmLaunchKernel,
 * uvmLaunchPattern and the CUDA launches (cuda_launch.c) all queue there.
 */
#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <time.h>

#include "cuda_managed.h"
#include "cuda_stream.h"
#include "uvm_kernel_int.h"

struct uvm_kernel_work {
	struct uvm_work base;
	struct uvm_kernel k;
	unsigned int device;
	bool ran;
	int status;
	struct uvm_kernel_stats st;
	struct uvm_ka_cache ka;
};

/*
 * The accesses of a step: one buffer per stream worker thread (128 KiB,
 * allocated at its first kernel, freed when it exits), not per launch.
 */
static pthread_key_t ops_key;
static pthread_once_t ops_once = PTHREAD_ONCE_INIT;
static bool ops_key_ok;

static void ops_key_init(void)
{
	ops_key_ok = !pthread_key_create(&ops_key, free);
}

/* The calling worker's buffer; NULL without memory (the kernel: -ENOMEM). */
static struct uvm_device_access_op *worker_ops(void)
{
	struct uvm_device_access_op *ops;

	pthread_once(&ops_once, ops_key_init);
	if (!ops_key_ok)
		return NULL;
	ops = pthread_getspecific(ops_key);
	if (ops)
		return ops;
	ops = malloc(UVM_KERNEL_MAX_ACCESSES * sizeof(*ops));
	if (ops && pthread_setspecific(ops_key, ops)) {
		free(ops);
		ops = NULL;
	}
	return ops;
}

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* Is every access of a step well formed (what the module would refuse)? */
static bool ops_valid(const struct uvm_device_access_op *ops, unsigned int n)
{
	unsigned int i;

	for (i = 0; i < n; i++) {
		const struct uvm_device_access_op *a = &ops[i];

		if (a->pad || !a->length || !a->buf ||
		    a->type < UVM_DEVICE_ACCESS_READ ||
		    a->type > UVM_DEVICE_ACCESS_ATOMIC_ADD)
			return false;
		if (a->type == UVM_DEVICE_ACCESS_ATOMIC_ADD &&
		    (a->length != 8 || a->addr % 8))
			return false;
	}
	return true;
}

/* One step: emit, check, perform. 1: performed, 0: done, -errno. */
static int kernel_step(struct uvm_kernel_work *kw, struct uvm_device_access_op *ops)
{
	unsigned int faults = 0;
	int n, ret;

	n = kw->k.emit(kw->k.arg, kw->st.steps, ops, UVM_KERNEL_MAX_ACCESSES);
	if (n <= 0)
		return n;
	if (n > UVM_KERNEL_MAX_ACCESSES || !ops_valid(ops, (unsigned int)n))
		return -EINVAL;
	ret = uvm_kernel_access(&kw->ka, kw->device, ops, (unsigned int)n, &faults);
	if (ret)
		return ret;
	kw->st.steps++;
	kw->st.accesses += (unsigned int)n;
	kw->st.faults += faults;
	return 1;
}

static int kernel_run(struct uvm_work *w)
{
	struct uvm_kernel_work *kw = (struct uvm_kernel_work *)w;
	struct uvm_device_access_op *ops = worker_ops();
	uint64_t t0 = now_ns();
	int ret = -ENOMEM;

	kw->ran = true;
	while (ops && (ret = kernel_step(kw, ops)) > 0)
		;
	kw->st.ns = now_ns() - t0;
	kw->status = ret;
	return ret;
}

static void kernel_release(struct uvm_work *w)
{
	struct uvm_kernel_work *kw = (struct uvm_kernel_work *)w;

	if (kw->ran && kw->k.done)
		kw->k.done(kw->k.arg, kw->status, &kw->st);
	free(kw);
}

static bool zeroed(const uint32_t *v, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (v[i])
			return false;
	return true;
}

bool uvm_kernel_valid(const struct uvm_kernel *k)
{
	return k && k->emit && !k->flags && zeroed(k->reserved, UVM_ARRAY_SIZE(k->reserved));
}

cudaError_t uvm_kernel_queue(const struct uvm_kernel *k, int device, struct CUstream_st *s)
{
	struct uvm_kernel_work *kw;
	cudaError_t e;

	if (!uvm_kernel_valid(k))
		return cudaErrorInvalidValue;
	if (device < 0)
		device = uvm_stream_device(s);
	e = uvm_cuda_check_device(device);
	if (e)
		return e;
	kw = calloc(1, sizeof(*kw));
	if (!kw)
		return cudaErrorMemoryAllocation;
	kw->base.run = kernel_run;
	kw->base.release = kernel_release;
	kw->k = *k;
	kw->device = (unsigned int)device;
	return uvm_errno_to_cuda(uvm_stream_submit(s, &kw->base));
}

static cudaError_t launch(const struct uvm_kernel *k, int device, cudaStream_t stream,
			  bool ptsz)
{
	struct CUstream_st *s;
	cudaError_t e = uvm_cuda_init();

	if (e)
		return e;
	if (!uvm_kernel_valid(k))
		return cudaErrorInvalidValue;
	e = uvm_stream_get(stream, ptsz, &s);
	if (e)
		return e;
	e = uvm_kernel_queue(k, device, s);
	uvm_stream_put(s);
	return e;
}

uvm_public cudaError_t uvmLaunchKernel(const struct uvm_kernel *k, int device,
				       cudaStream_t stream)
{
	return uvm_cuda_set_error(launch(k, device, stream, false));
}

uvm_public cudaError_t uvmLaunchKernel_ptsz(const struct uvm_kernel *k, int device,
					    cudaStream_t stream)
{
	return uvm_cuda_set_error(launch(k, device, stream, true));
}

/* ---- built-in patterns ------------------------------------------------ */

struct pattern_state {
	struct uvm_pattern p;
	uint64_t total;		/* accesses */
	uint64_t rng;
	unsigned char buf[];	/* one granule: the reads' sink, the writes' data */
};

/* splitmix64: one 64-bit value per call, any seed. */
static uint64_t rng_next(uint64_t *s)
{
	uint64_t z = (*s += 0x9e3779b97f4a7c15ull);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

static int pattern_emit(void *arg, uint64_t step, struct uvm_device_access_op *ops,
			unsigned int max)
{
	struct pattern_state *ps = arg;
	const struct uvm_pattern *p = &ps->p;
	uint64_t first = step * max, slots = p->len / p->granule, off;
	unsigned int i, n;

	if (first >= ps->total)
		return 0;
	n = ps->total - first < max ? (unsigned int)(ps->total - first) : max;
	for (i = 0; i < n; i++) {
		if (p->kind == UVM_PATTERN_SEQUENTIAL)
			off = (first + i) * p->stride;
		else
			off = rng_next(&ps->rng) % slots * p->granule;
		ops[i] = (struct uvm_device_access_op){
			.addr = (uintptr_t)p->base + off, .length = p->granule,
			.buf = (uintptr_t)ps->buf, .type = p->access,
		};
	}
	return (int)n;
}

static void pattern_done(void *arg, int status, const struct uvm_kernel_stats *st)
{
	(void)status;
	(void)st;
	free(arg);
}

/* Check @p and fill in its defaults; cudaErrorInvalidValue if bad. */
static cudaError_t pattern_check(struct uvm_pattern *p, uint64_t *total)
{
	if (p->flags || !zeroed(p->reserved, UVM_ARRAY_SIZE(p->reserved)) ||
	    (p->access != UVM_DEVICE_ACCESS_READ && p->access != UVM_DEVICE_ACCESS_WRITE))
		return cudaErrorInvalidValue;
	if (!p->granule)
		p->granule = 64;
	if (!p->stride)
		p->stride = p->granule;
	if (p->granule > 4096 || p->stride < p->granule || p->len < p->granule ||
	    (!uvm_managed_covers(uvm_cuda_context(), (uintptr_t)p->base, p->len) &&
	     !uvm_cm_pageable(p->base, p->len)))
		return cudaErrorInvalidValue;
	switch (p->kind) {
	case UVM_PATTERN_SEQUENTIAL:
		if (p->count)
			return cudaErrorInvalidValue;
		*total = (p->len - p->granule) / p->stride + 1;
		return cudaSuccess;
	case UVM_PATTERN_RANDOM:
		if (!p->count)
			return cudaErrorInvalidValue;
		*total = p->count;
		return cudaSuccess;
	default:
		return cudaErrorInvalidValue;
	}
}

static cudaError_t launch_pattern(const struct uvm_pattern *p, int device,
				  cudaStream_t stream, bool ptsz)
{
	struct uvm_kernel k = { .emit = pattern_emit, .done = pattern_done };
	struct uvm_pattern q;
	struct pattern_state *ps;
	uint64_t total;
	cudaError_t e = uvm_cuda_init();

	if (e)
		return e;
	if (!p)
		return cudaErrorInvalidValue;
	q = *p;
	e = pattern_check(&q, &total);
	if (e)
		return e;
	ps = calloc(1, sizeof(*ps) + q.granule);
	if (!ps)
		return cudaErrorMemoryAllocation;
	ps->p = q;
	ps->total = total;
	ps->rng = q.seed;
	if (q.access == UVM_DEVICE_ACCESS_WRITE && q.data)
		memcpy(ps->buf, q.data, q.granule);
	k.arg = ps;
	e = launch(&k, device, stream, ptsz);
	if (e)
		free(ps);	/* done() is only called for a launched kernel */
	return e;
}

uvm_public cudaError_t uvmLaunchPattern(const struct uvm_pattern *p, int device,
					cudaStream_t stream)
{
	return uvm_cuda_set_error(launch_pattern(p, device, stream, false));
}

uvm_public cudaError_t uvmLaunchPattern_ptsz(const struct uvm_pattern *p, int device,
					     cudaStream_t stream)
{
	return uvm_cuda_set_error(launch_pattern(p, device, stream, true));
}
