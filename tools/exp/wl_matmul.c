// SPDX-License-Identifier: GPL-2.0
/*
 * wl_matmul.c - uvm-exp's workload "matmul" (docs/experiments.md).
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "exp_kernel.h"

/* ---- matmul: C = A x B in T x T tiles, uint64 wrapping ------------------- */

#define MM_T		64			/* a tile's side */
#define MM_ROW		(MM_T * 8 / GRANULE)	/* granules of a tile's row: 8 */
#define MM_TILE		(MM_T * MM_ROW)		/* granules of a tile: 512 */
#define MM_KG		(STEP_MAX / (2 * MM_TILE))	/* k-tiles a chunk loads: 4 */

/*
 * Chunk (i, j, g): the A tiles (i, k) and B tiles (k, j) of the g-th
 * group of MM_KG k-tiles, then C's tile (i, j) with the sum so far (the
 * accumulator, kept between the chunks of a tile, is complete after the
 * last group). C's tiles in row-major order: A's row block i stays hot
 * while B is read whole for each i.
 */
struct matmul {
	struct chunked k;
	uint64_t *a, *b, *c;		/* N x N, row-major */
	size_t n, nt, ngroups;		/* nt: tiles a side */
	uint64_t ta[MM_KG][MM_T * MM_T], tb[MM_KG][MM_T * MM_T];
	uint64_t acc[MM_T * MM_T];
	uint64_t *ra, *rb;		/* A and B outside managed memory */
};

/* Chunk @chunk's tile (*i, *j) and k-group *g; false: no chunk left. */
static bool mm_chunk(const struct matmul *m, uint64_t chunk, size_t *i, size_t *j,
		     size_t *g)
{
	size_t t = chunk / m->ngroups;

	*g = chunk % m->ngroups;
	*i = t / m->nt;
	*j = t % m->nt;
	return *i < m->nt;
}

/* The tile at tile row @ti, column @tj of @mat: MM_T rows of MM_ROW granules. */
static size_t mm_tile(const struct matmul *m, uint64_t *mat, size_t ti, size_t tj,
		      uint64_t *dst, uint32_t type, struct uvm_device_access_op *ops)
{
	size_t r, g, k = 0, per = GRANULE / 8;

	for (r = 0; r < MM_T; r++)
		for (g = 0; g < MM_ROW; g++)
			ops[k++] = op(mat + (ti * MM_T + r) * m->n + tj * MM_T + g * per,
				      GRANULE, dst + r * MM_T + g * per, type);
	return k;
}

static size_t mm_group_len(const struct matmul *m, size_t g)
{
	return m->nt - g * MM_KG < MM_KG ? m->nt - g * MM_KG : MM_KG;
}

static int mm_reads(void *w, uint64_t chunk, struct uvm_device_access_op *ops)
{
	struct matmul *m = w;
	size_t i, j, g, q, k = 0;

	if (!mm_chunk(m, chunk, &i, &j, &g))
		return 0;
	for (q = 0; q < mm_group_len(m, g); q++) {
		k += mm_tile(m, m->a, i, g * MM_KG + q, m->ta[q], UVM_DEVICE_ACCESS_READ,
			     ops + k);
		k += mm_tile(m, m->b, g * MM_KG + q, j, m->tb[q], UVM_DEVICE_ACCESS_READ,
			     ops + k);
	}
	return (int)k;
}

/* acc += ta x tb (one pair of tiles). */
static void mm_tile_mul(uint64_t *acc, const uint64_t *ta, const uint64_t *tb)
{
	size_t r, q, c;

	for (r = 0; r < MM_T; r++)
		for (q = 0; q < MM_T; q++) {
			uint64_t v = ta[r * MM_T + q];

			for (c = 0; c < MM_T; c++)
				acc[r * MM_T + c] += v * tb[q * MM_T + c];
		}
}

static int mm_writes(void *w, uint64_t chunk, struct uvm_device_access_op *ops)
{
	struct matmul *m = w;
	size_t i, j, g, q;

	mm_chunk(m, chunk, &i, &j, &g);
	if (!g)
		memset(m->acc, 0, sizeof(m->acc));
	for (q = 0; q < mm_group_len(m, g); q++)
		mm_tile_mul(m->acc, m->ta[q], m->tb[q]);
	return (int)mm_tile(m, m->c, i, j, m->acc, UVM_DEVICE_ACCESS_WRITE, ops);
}

static int mm_setup(struct exp_run *r)
{
	struct matmul *m = calloc(1, sizeof(*m));
	size_t i, cells;

	if (!m)
		return -ENOMEM;
	r->priv = m;
	m->k.reads = mm_reads;
	m->k.writes = mm_writes;
	m->n = (size_t)sqrt((double)r->size / 24) / MM_T * MM_T;
	if (!m->n) {
		snprintf(r->error, sizeof(r->error),
			 "size too small for matmul (3 x %d x %d x 8 bytes at least)", MM_T,
			 MM_T);
		return -EINVAL;
	}
	m->nt = m->n / MM_T;
	m->ngroups = (m->nt + MM_KG - 1) / MM_KG;
	cells = m->n * m->n;
	m->ra = malloc(cells * 8);
	m->rb = malloc(cells * 8);
	m->a = m->ra && m->rb ? exp_managed(r, cells * 8) : NULL;
	m->b = m->a ? exp_managed(r, cells * 8) : NULL;
	m->c = m->b ? exp_managed(r, cells * 8) : NULL;
	if (!m->c)
		return -ENOMEM;
	for (i = 0; i < cells; i++) {
		uint64_t s = r->seed ^ (i * 0x9e3779b97f4a7c15ull);

		m->a[i] = m->ra[i] = exp_rand(&s) & 0xffff;
		m->b[i] = m->rb[i] = exp_rand(&s) & 0xffff;
		m->c[i] = 0;
	}
	return 0;
}

static int mm_iterate(struct exp_run *r, unsigned int iter)
{
	(void)iter;
	return exp_launch(r, r->priv);
}

/* Row @i of the reference A x B into @row (n cells). */
static void mm_ref_row(const struct matmul *m, size_t i, uint64_t *row)
{
	size_t q, c, n = m->n;

	memset(row, 0, n * 8);
	for (q = 0; q < n; q++) {
		uint64_t v = m->ra[i * n + q];

		for (c = 0; c < n; c++)
			row[c] += v * m->rb[q * n + c];
	}
}

static int mm_verify(struct exp_run *r)
{
	const struct matmul *m = r->priv;
	uint64_t *row = malloc(m->n * 8);
	size_t i, j, n = m->n;
	int ret = 0;

	if (!row)
		return -ENOMEM;
	for (i = 0; i < n && !ret; i++) {
		mm_ref_row(m, i, row);
		for (j = 0; j < n && !ret; j++) {
			if (m->c[i * n + j] == row[j])
				continue;
			snprintf(r->error, sizeof(r->error),
				 "matmul: C(%zu, %zu) = %#llx, want %#llx", i, j,
				 (unsigned long long)m->c[i * n + j],
				 (unsigned long long)row[j]);
			ret = -EIO;
		}
	}
	free(row);
	return ret;
}

static void mm_teardown(struct exp_run *r)
{
	struct matmul *m = r->priv;

	if (!m)
		return;
	exp_release(m->a);
	exp_release(m->b);
	exp_release(m->c);
	free(m->ra);
	free(m->rb);
	free(m);
}

const struct exp_workload exp_wl_matmul = {
	.name = "matmul",
	.desc = "C = A x B in 64 x 64 tiles: per C tile, the A tiles of its row "
		"and B tiles of its column loaded (64-byte rows), C stored",
	.setup = mm_setup,
	.iterate = mm_iterate,
	.verify = mm_verify,
	.teardown = mm_teardown,
};
