// SPDX-License-Identifier: GPL-2.0
/*
 * wl_gather.c - uvm-exp's workload "gather" (docs/experiments.md).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "exp_kernel.h"

/* ---- gather: out[j] = table[random] (uniform) --------------------------- */

#define GATHER_CHUNK	STEP_MAX	/* random 8-byte loads per chunk */

struct gather {
	struct chunked k;
	uint64_t *table, *out;
	size_t ntable, nout;	/* nout: a multiple of 8 */
	uint64_t seed, rng;	/* rng: the chunk's generator, in order */
	uint64_t scratch[GATHER_CHUNK];
};

static uint64_t gather_value(uint64_t seed, size_t i)
{
	uint64_t s = seed ^ (i * 0x9e3779b97f4a7c15ull);

	return exp_rand(&s);
}

static int gather_reads(void *w, uint64_t chunk, struct uvm_device_access_op *ops)
{
	struct gather *g = w;
	size_t n = chunk_len(g->nout, chunk, GATHER_CHUNK), i;

	if (!chunk)
		g->rng = g->seed;
	for (i = 0; i < n; i++) {
		size_t j = exp_rand(&g->rng) % g->ntable;

		ops[i] = op(g->table + j, sizeof(uint64_t), g->scratch + i,
			    UVM_DEVICE_ACCESS_READ);
	}
	return (int)n;
}

static int gather_writes(void *w, uint64_t chunk, struct uvm_device_access_op *ops)
{
	struct gather *g = w;
	size_t n = chunk_len(g->nout, chunk, GATHER_CHUNK), i;
	size_t per = GRANULE / sizeof(uint64_t);

	for (i = 0; i < n / per; i++)
		ops[i] = op(g->out + chunk * GATHER_CHUNK + i * per, GRANULE,
			    g->scratch + i * per, UVM_DEVICE_ACCESS_WRITE);
	return (int)(n / per);
}

static int gather_setup(struct exp_run *r)
{
	struct gather *g = calloc(1, sizeof(*g));
	size_t i;

	if (!g)
		return -ENOMEM;
	r->priv = g;
	g->k.reads = gather_reads;
	g->k.writes = gather_writes;
	g->seed = r->seed;
	g->nout = r->size / 4 / sizeof(uint64_t) / 8 * 8;
	g->ntable = (r->size - g->nout * sizeof(uint64_t)) / sizeof(uint64_t);
	if (!g->nout || !g->ntable) {
		snprintf(r->error, sizeof(r->error), "size too small for gather");
		return -EINVAL;
	}
	g->table = exp_managed(r, g->ntable * sizeof(uint64_t));
	g->out = g->table ? exp_managed(r, g->nout * sizeof(uint64_t)) : NULL;
	if (!g->out)
		return -ENOMEM;
	for (i = 0; i < g->ntable; i++)
		g->table[i] = gather_value(g->seed, i);
	memset(g->out, 0, g->nout * sizeof(uint64_t));
	return 0;
}

static int gather_iterate(struct exp_run *r, unsigned int iter)
{
	(void)iter;
	return exp_launch(r, r->priv);
}

static int gather_verify(struct exp_run *r)
{
	const struct gather *g = r->priv;
	uint64_t rng = g->seed;
	size_t i;

	for (i = 0; i < g->nout; i++) {
		size_t j = exp_rand(&rng) % g->ntable;

		if (g->out[i] != gather_value(g->seed, j)) {
			snprintf(r->error, sizeof(r->error),
				 "gather: out[%zu] = %#llx, want table[%zu] = %#llx", i,
				 (unsigned long long)g->out[i], j,
				 (unsigned long long)gather_value(g->seed, j));
			return -EIO;
		}
	}
	return 0;
}

static void gather_teardown(struct exp_run *r)
{
	struct gather *g = r->priv;

	if (!g)
		return;
	exp_release(g->table);
	exp_release(g->out);
	free(g);
}

const struct exp_workload exp_wl_gather = {
	.name = "gather",
	.desc = "out[j] = table[random]: uniform random 8-byte loads from a table"
		" of 3/4 of the set, sequential 64-byte stores",
	.setup = gather_setup,
	.iterate = gather_iterate,
	.verify = gather_verify,
	.teardown = gather_teardown,
};
