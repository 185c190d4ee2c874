// SPDX-License-Identifier: GPL-2.0
/*
 * exp_kernel.c - the chunked kernels, launches and managed allocations
 * uvm-exp's workloads share (exp_kernel.h).
 */
#include <errno.h>
#include <stdio.h>

#include "exp_kernel.h"

int chunked_emit(void *arg, uint64_t step, struct uvm_device_access_op *ops,
		 unsigned int max)
{
	struct chunked *c = arg;	/* first member of every workload */
	int n;

	(void)max;	/* every chunk fits STEP_MAX accesses */
	if (!step) {
		c->chunk = 0;
		c->storing = false;
	}
	if (!c->storing) {
		n = c->reads(arg, c->chunk, ops);
		c->storing = n > 0;
		return n;
	}
	n = c->writes(arg, c->chunk, ops);
	c->chunk++;
	c->storing = false;
	return n;
}

int exp_launch(struct exp_run *r, void *w)
{
	struct uvm_kernel k = { .emit = chunked_emit, .arg = w };
	cudaError_t e = uvmLaunchKernel(&k, r->device, r->stream);

	if (e) {
		snprintf(r->error, sizeof(r->error), "uvmLaunchKernel: %s",
			 cudaGetErrorString(e));
		return -EIO;
	}
	return 0;
}

/* The run's footprint counts the 2 MiB blocks the allocation spans. */
void *exp_managed(struct exp_run *r, size_t bytes)
{
	const uint64_t block = 2ull << 20;
	void *p = NULL;
	uint64_t first;

	if (cudaMallocManaged(&p, bytes, cudaMemAttachGlobal)) {
		snprintf(r->error, sizeof(r->error),
			 "cudaMallocManaged of %zu bytes failed", bytes);
		return NULL;
	}
	first = (uintptr_t)p / block;
	r->footprint += (((uintptr_t)p + bytes - 1) / block - first + 1) * block;
	return p;
}

void exp_release(void *p)
{
	if (p)
		cudaFree(p);
}

int exp_sync(struct exp_run *r)
{
	cudaError_t e = cudaStreamSynchronize(r->stream);

	if (!e)
		return 0;
	snprintf(r->error, sizeof(r->error), "a kernel failed: %s",
		 cudaGetErrorString(e));
	return -EIO;
}
