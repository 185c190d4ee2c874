// SPDX-License-Identifier: GPL-2.0
/*
 * wl_triad.c - uvm-exp's workload "triad" (docs/experiments.md).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "exp_kernel.h"

/* ---- triad: a = b + s * c (BabelStream) ------------------------------ */

#define TRIAD_CHUNK	(STEP_MAX / 2)		/* granules of b and of c per chunk */
#define TRIAD_DBL	(GRANULE / sizeof(double))

struct triad {
	struct chunked k;
	double *a, *b, *c;
	size_t n;				/* elements, a multiple of TRIAD_DBL */
	double sb[TRIAD_CHUNK * TRIAD_DBL], sc[TRIAD_CHUNK * TRIAD_DBL];
	double sa[TRIAD_CHUNK * TRIAD_DBL];
};

static const double triad_s = 3.0;

static int triad_reads(void *w, uint64_t chunk, struct uvm_device_access_op *ops)
{
	struct triad *t = w;
	size_t g = chunk_len(t->n / TRIAD_DBL, chunk, TRIAD_CHUNK), i;
	size_t e0 = chunk * TRIAD_CHUNK * TRIAD_DBL;

	for (i = 0; i < g; i++) {
		ops[2 * i] = op(t->b + e0 + i * TRIAD_DBL, GRANULE, t->sb + i * TRIAD_DBL,
				UVM_DEVICE_ACCESS_READ);
		ops[2 * i + 1] = op(t->c + e0 + i * TRIAD_DBL, GRANULE,
				    t->sc + i * TRIAD_DBL, UVM_DEVICE_ACCESS_READ);
	}
	return (int)(2 * g);
}

static int triad_writes(void *w, uint64_t chunk, struct uvm_device_access_op *ops)
{
	struct triad *t = w;
	size_t g = chunk_len(t->n / TRIAD_DBL, chunk, TRIAD_CHUNK), i;
	size_t e0 = chunk * TRIAD_CHUNK * TRIAD_DBL;

	for (i = 0; i < g * TRIAD_DBL; i++)
		t->sa[i] = t->sb[i] + triad_s * t->sc[i];
	for (i = 0; i < g; i++)
		ops[i] = op(t->a + e0 + i * TRIAD_DBL, GRANULE, t->sa + i * TRIAD_DBL,
			    UVM_DEVICE_ACCESS_WRITE);
	return (int)g;
}

static int triad_setup(struct exp_run *r)
{
	struct triad *t = calloc(1, sizeof(*t));
	size_t i;

	if (!t)
		return -ENOMEM;
	r->priv = t;
	t->k.reads = triad_reads;
	t->k.writes = triad_writes;
	t->n = r->size / 3 / sizeof(double) / TRIAD_DBL * TRIAD_DBL;
	if (!t->n) {
		snprintf(r->error, sizeof(r->error), "size too small for triad");
		return -EINVAL;
	}
	t->a = exp_managed(r, t->n * sizeof(double));
	t->b = t->a ? exp_managed(r, t->n * sizeof(double)) : NULL;
	t->c = t->b ? exp_managed(r, t->n * sizeof(double)) : NULL;
	if (!t->c)
		return -ENOMEM;
	for (i = 0; i < t->n; i++) {
		t->a[i] = -1.0;
		t->b[i] = (double)(i % 1024);
		t->c[i] = (double)((i * 7 + r->seed) % 1024);
	}
	return 0;
}

static int triad_iterate(struct exp_run *r, unsigned int iter)
{
	(void)iter;
	return exp_launch(r, r->priv);
}

static int triad_verify(struct exp_run *r)
{
	const struct triad *t = r->priv;
	size_t i;

	for (i = 0; i < t->n; i++) {
		if (t->a[i] != t->b[i] + triad_s * t->c[i]) {
			snprintf(r->error, sizeof(r->error),
				 "triad: a[%zu] = %g, want %g", i, t->a[i],
				 t->b[i] + triad_s * t->c[i]);
			return -EIO;
		}
	}
	return 0;
}

static void triad_teardown(struct exp_run *r)
{
	struct triad *t = r->priv;

	if (!t)
		return;
	exp_release(t->a);
	exp_release(t->b);
	exp_release(t->c);
	free(t);
}

const struct exp_workload exp_wl_triad = {
	.name = "triad",
	.desc = "a = b + 3c over three arrays: 64-byte loads of b and c, stores "
		"of a, sequential",
	.setup = triad_setup,
	.iterate = triad_iterate,
	.verify = triad_verify,
	.teardown = triad_teardown,
};
