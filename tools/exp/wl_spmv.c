// SPDX-License-Identifier: GPL-2.0
/*
 * wl_spmv.c - uvm-exp's workload "spmv" (docs/experiments.md).
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "exp_kernel.h"

/* ---- spmv: y = A x, A in CSR with power-law rows, uint64 wrapping ------- */

/*
 * Row lengths: a Pareto law, P(len >= L) = (8 / L)^2 for L >= 8, cut at
 * SPMV_CAP (floor(8 / sqrt(u)), u uniform in (0, 1]): mean about 15.
 * Column indices uniform over the columns, 32-bit.
 */
#define SPMV_XM		8.0
#define SPMV_CAP	256
#define SPMV_ROWS	8	/* rows are grouped by granules of y */
#define SPMV_PER	(GRANULE / 8)	/* uint64 a granule */
#define SPMV_PER32	(GRANULE / 4)	/* uint32 a granule */

struct spmv {
	struct chunked k;
	uint64_t *row_ptr;	/* nrows + 1 */
	uint32_t *col;		/* nnz */
	uint64_t *val, *x, *y;	/* nnz, ncols (= nrows), nrows */
	size_t nrows, nnz, ngroups;
	size_t *group;		/* first row of each chunk, ngroups + 1 */
	uint64_t *hrow;		/* row_ptr outside managed memory (the plan) */
	uint32_t *hcol;		/* col outside managed memory (the plan) */
	uint64_t srow[STEP_MAX / 4], sval[STEP_MAX], sx[STEP_MAX];	/* loaded */
	uint32_t scol[STEP_MAX];
	uint64_t sy[STEP_MAX];	/* computed */
	size_t r0, rn, e0;	/* the chunk: rows [r0, rn), first loaded element */
	char bad[96];		/* loaded structure not as set up, first */
};

static uint64_t spmv_val(uint64_t seed, size_t e)
{
	uint64_t s = seed ^ (e * 0x9e3779b97f4a7c15ull);

	return exp_rand(&s) & 0xffff;
}

static uint64_t spmv_x(uint64_t seed, size_t c)
{
	return spmv_val(~seed, c);
}

/* Granule loads of elements [first, end) of @arr (@esz bytes each) into @dst. */
static size_t spmv_span(const void *arr, size_t esz, size_t first, size_t end, void *dst,
			struct uvm_device_access_op *ops)
{
	size_t per = GRANULE / esz, g0 = first / per, g1 = (end + per - 1) / per, g;

	for (g = g0; g < g1; g++)
		ops[g - g0] = op((const char *)arr + g * GRANULE, GRANULE,
				 (char *)dst + (g - g0) * GRANULE, UVM_DEVICE_ACCESS_READ);
	return g1 - g0;
}

/* Loads of a group of rows, at most: spans of row_ptr, col and val, x[col]. */
static size_t spmv_loads(const struct spmv *s, size_t r0, size_t rn)
{
	size_t nz = s->hrow[rn] - s->hrow[r0];

	return (rn - r0 + 1) / SPMV_PER + 2 + nz / SPMV_PER32 + 2 + nz / SPMV_PER + 3 + nz;
}

static int spmv_reads(void *w, uint64_t chunk, struct uvm_device_access_op *ops)
{
	struct spmv *s = w;
	size_t k, e, e1;

	if (chunk >= s->ngroups)
		return 0;
	s->r0 = s->group[chunk];
	s->rn = s->group[chunk + 1];
	s->e0 = s->hrow[s->r0] / SPMV_PER32 * SPMV_PER32;	/* col's granule: val's 2 */
	e1 = s->hrow[s->rn];
	k = spmv_span(s->row_ptr, 8, s->r0, s->rn + 1, s->srow, ops);
	k += spmv_span(s->col, 4, s->e0, e1, s->scol, ops + k);
	k += spmv_span(s->val, 8, s->e0, e1, s->sval, ops + k);
	for (e = s->hrow[s->r0]; e < e1; e++)
		ops[k++] = op(s->x + s->hcol[e], 8, s->sx + e - s->e0,
			      UVM_DEVICE_ACCESS_READ);
	return (int)k;
}

/* Does the loaded structure say what the plan said? (First difference.) */
static void spmv_check(struct spmv *s)
{
	size_t rb = s->r0 / SPMV_PER * SPMV_PER, r, e;

	for (r = s->r0; r <= s->rn && !*s->bad; r++)
		if (s->srow[r - rb] != s->hrow[r])
			snprintf(s->bad, sizeof(s->bad), "row_ptr[%zu] loaded as %llu", r,
				 (unsigned long long)s->srow[r - rb]);
	for (e = s->hrow[s->r0]; e < s->hrow[s->rn] && !*s->bad; e++)
		if (s->scol[e - s->e0] != s->hcol[e])
			snprintf(s->bad, sizeof(s->bad), "col[%zu] loaded as %u", e,
				 s->scol[e - s->e0]);
}

static int spmv_writes(void *w, uint64_t chunk, struct uvm_device_access_op *ops)
{
	struct spmv *s = w;
	size_t r, e, g;

	(void)chunk;
	spmv_check(s);
	for (r = s->r0; r < s->rn; r++) {
		s->sy[r - s->r0] = 0;
		for (e = s->hrow[r]; e < s->hrow[r + 1]; e++)
			s->sy[r - s->r0] += s->sval[e - s->e0] * s->sx[e - s->e0];
	}
	for (g = 0; g < (s->rn - s->r0) / SPMV_PER; g++)
		ops[g] = op(s->y + s->r0 + g * SPMV_PER, GRANULE, s->sy + g * SPMV_PER,
			    UVM_DEVICE_ACCESS_WRITE);
	return (int)g;
}

/* Row lengths from the seed, then the groups: as many rows as fit a step. */
static int spmv_plan(struct exp_run *r, struct spmv *s)
{
	uint64_t rng = r->seed;
	size_t i, g = 0;

	s->hrow = malloc((s->nrows + 1) * sizeof(uint64_t));
	s->group = malloc((s->nrows / SPMV_ROWS + 1) * sizeof(size_t));
	if (!s->hrow || !s->group)
		return -ENOMEM;
	s->hrow[0] = 0;
	for (i = 0; i < s->nrows; i++) {
		double u = (double)((exp_rand(&rng) >> 11) + 1) * 0x1p-53;
		size_t len = (size_t)(SPMV_XM / sqrt(u));

		s->hrow[i + 1] = s->hrow[i] + (len < SPMV_CAP ? len : SPMV_CAP);
	}
	s->nnz = s->hrow[s->nrows];
	s->group[0] = 0;
	for (i = 0; i < s->nrows; i += SPMV_ROWS) {
		if (i > s->group[g] && (spmv_loads(s, s->group[g], i + SPMV_ROWS) > STEP_MAX ||
					i - s->group[g] >= STEP_MAX / 4 - SPMV_PER))
			s->group[++g] = i;
	}
	s->group[++g] = s->nrows;
	s->ngroups = g;
	return 0;
}

static int spmv_fill(struct exp_run *r, struct spmv *s)
{
	uint64_t rng = r->seed ^ 0xc01;
	size_t i;

	s->hcol = malloc(s->nnz * sizeof(uint32_t));
	s->row_ptr = s->hcol ? exp_managed(r, (s->nrows + 1) * sizeof(uint64_t)) : NULL;
	s->col = s->row_ptr ? exp_managed(r, s->nnz * sizeof(uint32_t)) : NULL;
	s->val = s->col ? exp_managed(r, s->nnz * sizeof(uint64_t)) : NULL;
	s->x = s->val ? exp_managed(r, s->nrows * sizeof(uint64_t)) : NULL;
	s->y = s->x ? exp_managed(r, s->nrows * sizeof(uint64_t)) : NULL;
	if (!s->y)
		return -ENOMEM;
	memcpy(s->row_ptr, s->hrow, (s->nrows + 1) * sizeof(uint64_t));
	for (i = 0; i < s->nnz; i++) {
		s->col[i] = s->hcol[i] = (uint32_t)(exp_rand(&rng) % s->nrows);
		s->val[i] = spmv_val(r->seed, i);
	}
	for (i = 0; i < s->nrows; i++) {
		s->x[i] = spmv_x(r->seed, i);
		s->y[i] = 0;
	}
	return 0;
}

/*
 * Rows: about 8 + 8 + 8 + 15 x (4 + 8) bytes each (row_ptr, x, y, a
 * row's col and val), 210: the five arrays come to about the set.
 */
static int spmv_setup(struct exp_run *r)
{
	struct spmv *s = calloc(1, sizeof(*s));
	int ret;

	if (!s)
		return -ENOMEM;
	r->priv = s;
	s->k.reads = spmv_reads;
	s->k.writes = spmv_writes;
	s->nrows = r->size / 210 / SPMV_ROWS * SPMV_ROWS;
	if (s->nrows < SPMV_ROWS || s->nrows > UINT32_MAX) {
		snprintf(r->error, sizeof(r->error), "size too small for spmv");
		return -EINVAL;
	}
	ret = spmv_plan(r, s);
	return ret ? ret : spmv_fill(r, s);
}

static int spmv_iterate(struct exp_run *r, unsigned int iter)
{
	(void)iter;
	return exp_launch(r, r->priv);
}

static int spmv_verify(struct exp_run *r)
{
	struct spmv *s = r->priv;
	size_t i, e;
	uint64_t want;

	if (*s->bad) {
		snprintf(r->error, sizeof(r->error), "spmv: %s", s->bad);
		return -EIO;
	}
	for (i = 0; i < s->nrows; i++) {
		for (want = 0, e = s->hrow[i]; e < s->hrow[i + 1]; e++)
			want += spmv_val(r->seed, e) * spmv_x(r->seed, s->hcol[e]);
		if (s->y[i] != want) {
			snprintf(r->error, sizeof(r->error), "spmv: y[%zu] = %#llx, want %#llx",
				 i, (unsigned long long)s->y[i], (unsigned long long)want);
			return -EIO;
		}
	}
	return 0;
}

static void spmv_teardown(struct exp_run *r)
{
	struct spmv *s = r->priv;

	if (!s)
		return;
	exp_release(s->row_ptr);
	exp_release(s->col);
	exp_release(s->val);
	exp_release(s->x);
	exp_release(s->y);
	free(s->hrow);
	free(s->hcol);
	free(s->group);
	free(s);
}

const struct exp_workload exp_wl_spmv = {
	.name = "spmv",
	.desc = "y = A x, A in CSR with power-law rows: 64-byte loads of row_ptr, "
		"col and val, random 8-byte loads of x[col], 64-byte stores of y",
	.setup = spmv_setup,
	.iterate = spmv_iterate,
	.verify = spmv_verify,
	.teardown = spmv_teardown,
};
