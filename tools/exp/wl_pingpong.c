// SPDX-License-Identifier: GPL-2.0
/*
 * wl_pingpong.c - uvm-exp's workload "pingpong" (docs/experiments.md).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "exp_kernel.h"

/* ---- pingpong: device increments everything, the CPU a quarter ----------- */

#define PP_CHUNK	(STEP_MAX / 2)	/* granules loaded, then stored */
#define PP_U64		(GRANULE / sizeof(uint64_t))
#define PP_CPU_ADD	1000

struct pingpong {
	struct chunked k;
	uint64_t *x;
	size_t n;		/* elements, a multiple of PP_U64 */
	size_t page_u64;	/* elements per CPU page */
	uint64_t scratch[PP_CHUNK * PP_U64];
};

static int pp_reads(void *w, uint64_t chunk, struct uvm_device_access_op *ops)
{
	struct pingpong *p = w;
	size_t g = chunk_len(p->n / PP_U64, chunk, PP_CHUNK), i;
	size_t e0 = chunk * PP_CHUNK * PP_U64;

	for (i = 0; i < g; i++)
		ops[i] = op(p->x + e0 + i * PP_U64, GRANULE, p->scratch + i * PP_U64,
			    UVM_DEVICE_ACCESS_READ);
	return (int)g;
}

static int pp_writes(void *w, uint64_t chunk, struct uvm_device_access_op *ops)
{
	struct pingpong *p = w;
	size_t g = chunk_len(p->n / PP_U64, chunk, PP_CHUNK), i;
	size_t e0 = chunk * PP_CHUNK * PP_U64;

	for (i = 0; i < g * PP_U64; i++)
		p->scratch[i]++;
	for (i = 0; i < g; i++)
		ops[i] = op(p->x + e0 + i * PP_U64, GRANULE, p->scratch + i * PP_U64,
			    UVM_DEVICE_ACCESS_WRITE);
	return (int)g;
}

/* Does the CPU phase touch element @i (every fourth page)? */
static bool pp_cpu_touches(const struct pingpong *p, size_t i)
{
	return (i / p->page_u64) % 4 == 0;
}

static int pp_setup(struct exp_run *r)
{
	struct pingpong *p = calloc(1, sizeof(*p));
	size_t i;

	if (!p)
		return -ENOMEM;
	r->priv = p;
	p->k.reads = pp_reads;
	p->k.writes = pp_writes;
	p->page_u64 = (size_t)sysconf(_SC_PAGESIZE) / sizeof(uint64_t);
	p->n = r->size / sizeof(uint64_t) / PP_U64 * PP_U64;
	p->x = exp_managed(r, p->n * sizeof(uint64_t));
	if (!p->x)
		return -ENOMEM;
	for (i = 0; i < p->n; i++)
		p->x[i] = i;
	return 0;
}

/* A kernel, then (once it is done) the CPU's phase on a quarter of pages. */
static int pp_iterate(struct exp_run *r, unsigned int iter)
{
	struct pingpong *p = r->priv;
	size_t i;
	int ret;

	(void)iter;
	ret = exp_launch(r, p);
	if (ret)
		return ret;
	ret = exp_sync(r);
	if (ret)
		return ret;
	for (i = 0; i < p->n; i += p->page_u64)
		if (pp_cpu_touches(p, i))
			for (size_t j = i; j < i + p->page_u64 && j < p->n; j++)
				p->x[j] += PP_CPU_ADD;
	return 0;
}

static int pp_verify(struct exp_run *r)
{
	const struct pingpong *p = r->priv;
	size_t i;

	for (i = 0; i < p->n; i++) {
		uint64_t want = i + r->iters +
				(pp_cpu_touches(p, i) ? (uint64_t)PP_CPU_ADD * r->iters : 0);

		if (p->x[i] != want) {
			snprintf(r->error, sizeof(r->error),
				 "pingpong: x[%zu] = %llu, want %llu", i,
				 (unsigned long long)p->x[i], (unsigned long long)want);
			return -EIO;
		}
	}
	return 0;
}

static void pp_teardown(struct exp_run *r)
{
	struct pingpong *p = r->priv;

	if (!p)
		return;
	exp_release(p->x);
	free(p);
}

const struct exp_workload exp_wl_pingpong = {
	.name = "pingpong",
	.desc = "x[i] += 1 on the device over the whole array (64-byte loads, "
		"then stores), then the CPU adds to every fourth page, each pass",
	.setup = pp_setup,
	.iterate = pp_iterate,
	.verify = pp_verify,
	.teardown = pp_teardown,
};
