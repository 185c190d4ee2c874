// SPDX-License-Identifier: GPL-2.0
/*
 * wl_stencil2d.c - uvm-exp's workload "stencil2d" (docs/experiments.md).
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "exp_kernel.h"

/* ---- stencil2d: 5-point sums, halo rows read, grids swapped ------------- */

struct stencil {
	struct chunked k;
	uint64_t *grid[2];	/* N x N each; pass p reads grid[p & 1] */
	size_t n;		/* a multiple of 8 */
	size_t band;		/* rows written per chunk */
	unsigned int pass;	/* of the kernel running (set at its launch) */
	unsigned int passes_launched;
	uint64_t *rows;		/* (band + 2) x n loaded */
	uint64_t *res;		/* band x n computed */
	uint64_t *ref[2];	/* the CPU's reference, outside managed memory */
};

static size_t stencil_rows(const struct stencil *s, uint64_t chunk, size_t *r0)
{
	*r0 = chunk * s->band;
	if (*r0 >= s->n)
		return 0;
	return s->n - *r0 < s->band ? s->n - *r0 : s->band;
}

static int stencil_reads(void *w, uint64_t chunk, struct uvm_device_access_op *ops)
{
	struct stencil *s = w;
	const uint64_t *in = s->grid[s->pass & 1];
	size_t r0, nr = stencil_rows(s, chunk, &r0), per = GRANULE / 8, k = 0, row, g;
	long r;

	if (!nr)
		return 0;
	for (r = (long)r0 - 1; r <= (long)(r0 + nr); r++) {
		row = (size_t)(r - ((long)r0 - 1));
		if (r < 0 || r >= (long)s->n) {
			memset(s->rows + row * s->n, 0, s->n * 8);
			continue;
		}
		for (g = 0; g < s->n / per; g++)
			ops[k++] = op(in + (size_t)r * s->n + g * per, GRANULE,
				      s->rows + row * s->n + g * per,
				      UVM_DEVICE_ACCESS_READ);
	}
	return (int)k;
}

/* One 5-point sum of row @i (of rows, with halo), column @j. */
static uint64_t stencil_point(const uint64_t *rows, size_t n, size_t i, size_t j)
{
	uint64_t v = rows[i * n + j] + rows[(i - 1) * n + j] + rows[(i + 1) * n + j];

	if (j)
		v += rows[i * n + j - 1];
	if (j + 1 < n)
		v += rows[i * n + j + 1];
	return v;
}

static int stencil_writes(void *w, uint64_t chunk, struct uvm_device_access_op *ops)
{
	struct stencil *s = w;
	uint64_t *out = s->grid[(s->pass + 1) & 1];
	size_t r0, nr = stencil_rows(s, chunk, &r0), per = GRANULE / 8, i, j, k = 0;

	for (i = 0; i < nr; i++)
		for (j = 0; j < s->n; j++)
			s->res[i * s->n + j] = stencil_point(s->rows, s->n, i + 1, j);
	for (i = 0; i < nr; i++)
		for (j = 0; j < s->n / per; j++)
			ops[k++] = op(out + (r0 + i) * s->n + j * per, GRANULE,
				      s->res + i * s->n + j * per,
				      UVM_DEVICE_ACCESS_WRITE);
	return (int)k;
}

static int stencil_setup(struct exp_run *r)
{
	struct stencil *s = calloc(1, sizeof(*s));
	size_t cells;

	if (!s)
		return -ENOMEM;
	r->priv = s;
	s->k.reads = stencil_reads;
	s->k.writes = stencil_writes;
	s->n = (size_t)sqrt((double)r->size / 16) / 8 * 8;
	if (s->n < 8) {
		snprintf(r->error, sizeof(r->error), "size too small for stencil2d");
		return -EINVAL;
	}
	/* A chunk loads band + 2 rows of n / 8 granules: at most STEP_MAX. */
	if (STEP_MAX / (s->n / 8) < 3) {
		snprintf(r->error, sizeof(r->error),
			 "stencil2d: a row of %zu cells is too wide", s->n);
		return -EINVAL;
	}
	s->band = STEP_MAX / (s->n / 8) - 2;
	if (s->band > s->n)
		s->band = s->n;
	cells = s->n * s->n;
	s->rows = malloc((s->band + 2) * s->n * 8);
	s->res = malloc(s->band * s->n * 8);
	s->ref[0] = malloc(cells * 8);
	s->ref[1] = malloc(cells * 8);
	if (!s->rows || !s->res || !s->ref[0] || !s->ref[1])
		return -ENOMEM;
	s->grid[0] = exp_managed(r, cells * 8);
	s->grid[1] = s->grid[0] ? exp_managed(r, cells * 8) : NULL;
	if (!s->grid[1])
		return -ENOMEM;
	exp_grid_init(r, s->grid[0], s->ref[0], s->grid[1], cells);
	return 0;
}

static int stencil_iterate(struct exp_run *r, unsigned int iter)
{
	struct stencil *s = r->priv;
	int ret = exp_launch_pass(r, &s->k, &s->pass, iter);

	if (!ret)
		s->passes_launched = iter + 1;
	return ret;
}

/* The same passes on the CPU, outside managed memory. */
static void stencil_reference(struct stencil *s)
{
	size_t n = s->n, i, j;
	unsigned int p;

	for (p = 0; p < s->passes_launched; p++) {
		const uint64_t *in = s->ref[p & 1];
		uint64_t *out = s->ref[(p + 1) & 1];

		for (i = 0; i < n; i++)
			for (j = 0; j < n; j++) {
				uint64_t v = in[i * n + j];

				v += i ? in[(i - 1) * n + j] : 0;
				v += i + 1 < n ? in[(i + 1) * n + j] : 0;
				v += j ? in[i * n + j - 1] : 0;
				v += j + 1 < n ? in[i * n + j + 1] : 0;
				out[i * n + j] = v;
			}
	}
}

static int stencil_verify(struct exp_run *r)
{
	struct stencil *s = r->priv;
	unsigned int last = s->passes_launched & 1;
	size_t i, cells = s->n * s->n;

	stencil_reference(s);
	for (i = 0; i < cells; i++) {
		if (s->grid[last][i] != s->ref[last][i]) {
			snprintf(r->error, sizeof(r->error),
				 "stencil2d: cell (%zu, %zu) = %#llx, want %#llx",
				 i / s->n, i % s->n,
				 (unsigned long long)s->grid[last][i],
				 (unsigned long long)s->ref[last][i]);
			return -EIO;
		}
	}
	return 0;
}

static void stencil_teardown(struct exp_run *r)
{
	struct stencil *s = r->priv;

	if (!s)
		return;
	exp_release(s->grid[0]);
	exp_release(s->grid[1]);
	free(s->rows);
	free(s->res);
	free(s->ref[0]);
	free(s->ref[1]);
	free(s);
}

const struct exp_workload exp_wl_stencil2d = {
	.name = "stencil2d",
	.desc = "5-point sums over an N x N grid: bands of rows loaded with a "
		"halo row above and below, stored to the other grid, grids "
		"swapped each pass",
	.setup = stencil_setup,
	.iterate = stencil_iterate,
	.verify = stencil_verify,
	.teardown = stencil_teardown,
};
