// SPDX-License-Identifier: GPL-2.0
/*
 * exp_kernel.c - the chunked kernels, launches and managed allocations
 * uvm-exp's workloads share (exp_kernel.h).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>

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

/* A chunked kernel of one pass (exp_launch_pass()). */
struct pass_kernel {
	struct chunked *k;
	unsigned int *slot;
	unsigned int pass;
};

static int pass_emit(void *arg, uint64_t step, struct uvm_device_access_op *ops,
		     unsigned int max)
{
	struct pass_kernel *p = arg;

	if (!step)
		*p->slot = p->pass;
	return chunked_emit(p->k, step, ops, max);
}

static void pass_done(void *arg, int status, const struct uvm_kernel_stats *st)
{
	(void)status;
	(void)st;
	free(arg);
}

int exp_launch_pass(struct exp_run *r, struct chunked *k, unsigned int *slot,
		    unsigned int pass)
{
	struct pass_kernel *p = calloc(1, sizeof(*p));
	struct uvm_kernel uk = { .emit = pass_emit, .done = pass_done, .arg = p };
	cudaError_t e;

	if (!p)
		return -ENOMEM;
	*p = (struct pass_kernel){ .k = k, .slot = slot, .pass = pass };
	e = uvmLaunchKernel(&uk, r->device, r->stream);
	if (e) {
		free(p);
		snprintf(r->error, sizeof(r->error), "uvmLaunchKernel: %s",
			 cudaGetErrorString(e));
		return -EIO;
	}
	return 0;
}

void exp_grid_init(const struct exp_run *r, uint64_t *grid0, uint64_t *ref0,
		   uint64_t *grid1, size_t cells)
{
	size_t i;

	for (i = 0; i < cells; i++) {
		uint64_t seed = r->seed + i;

		grid0[i] = ref0[i] = exp_rand(&seed) & 0xffff;
		grid1[i] = 0;
	}
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
