// SPDX-License-Identifier: GPL-2.0
/*
 * wl_stencil3d.c - uvm-exp's workload "stencil3d" (docs/experiments.md).
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "exp_kernel.h"

/* ---- stencil3d: 7-point sums, halo planes and rows read, grids swapped --- */

/*
 * A chunk is a box of planes [z0, z0 + np) x rows [y0, y0 + nb): its
 * planes' rows y0 - 1 .. y0 + nb and the rows y0 .. y0 + nb - 1 of the
 * planes below and above. Slabs of whole planes (nb = n) where three
 * planes fit a step, else one plane cut in bands of rows.
 */
struct stencil3 {
	struct chunked k;
	uint64_t *grid[2];	/* N x N x N each; pass p reads grid[p & 1] */
	size_t n;		/* a multiple of 8 */
	size_t planes, band;	/* a box's planes and rows */
	unsigned int pass;	/* of the kernel running (set at its launch) */
	unsigned int passes_launched;
	uint64_t *box;		/* (planes + 2) x (band + 2) x n loaded */
	uint64_t *res;		/* planes x band x n computed */
	uint64_t *ref[2];	/* the CPU's reference, outside managed memory */
};

/* Chunk @chunk's box: planes from *z0, rows from *y0; 0 planes: done. */
static size_t s3_box(const struct stencil3 *s, uint64_t chunk, size_t *z0, size_t *y0,
		     size_t *nb)
{
	size_t bands = (s->n + s->band - 1) / s->band;

	*z0 = chunk / bands * s->planes;
	*y0 = chunk % bands * s->band;
	*nb = s->n - *y0 < s->band ? s->n - *y0 : s->band;
	if (*z0 >= s->n)
		return 0;
	return s->n - *z0 < s->planes ? s->n - *z0 : s->planes;
}

/* Row @y of plane @z into the box's (pz, ry): loads, or zeros outside. */
static size_t s3_row(struct stencil3 *s, const uint64_t *in, long z, long y, size_t pz,
		     size_t ry, struct uvm_device_access_op *ops)
{
	uint64_t *dst = s->box + (pz * (s->band + 2) + ry) * s->n;
	size_t per = GRANULE / 8, g;

	if (z < 0 || y < 0 || z >= (long)s->n || y >= (long)s->n) {
		memset(dst, 0, s->n * 8);
		return 0;
	}
	for (g = 0; g < s->n / per; g++)
		ops[g] = op(in + ((size_t)z * s->n + (size_t)y) * s->n + g * per, GRANULE,
			    dst + g * per, UVM_DEVICE_ACCESS_READ);
	return s->n / per;
}

static int s3_reads(void *w, uint64_t chunk, struct uvm_device_access_op *ops)
{
	struct stencil3 *s = w;
	const uint64_t *in = s->grid[s->pass & 1];
	size_t z0, y0, nb, np = s3_box(s, chunk, &z0, &y0, &nb), pz, ry, k = 0;
	bool halo;

	if (!np)
		return 0;
	for (pz = 0; pz < np + 2; pz++) {
		halo = pz == 0 || pz == np + 1;
		for (ry = halo; ry < nb + 2 - halo; ry++)
			k += s3_row(s, in, (long)(z0 + pz) - 1, (long)(y0 + ry) - 1, pz, ry,
				    ops + k);
	}
	return (int)k;
}

/* One 7-point sum at the box's plane @pz, row @ry (both with halo), column @x. */
static uint64_t s3_point(const struct stencil3 *s, size_t pz, size_t ry, size_t x)
{
	size_t n = s->n, row = n, plane = (s->band + 2) * n;
	const uint64_t *c = s->box + pz * plane + ry * row + x;
	uint64_t v = c[0] + c[-row] + c[row] + c[-plane] + c[plane];

	if (x)
		v += c[-1];
	if (x + 1 < n)
		v += c[1];
	return v;
}

static int s3_writes(void *w, uint64_t chunk, struct uvm_device_access_op *ops)
{
	struct stencil3 *s = w;
	uint64_t *out = s->grid[(s->pass + 1) & 1], *res;
	size_t z0, y0, nb, np = s3_box(s, chunk, &z0, &y0, &nb), n = s->n;
	size_t per = GRANULE / 8, pz, ry, x, k = 0;

	for (pz = 0; pz < np; pz++)
		for (ry = 0; ry < nb; ry++) {
			res = s->res + (pz * nb + ry) * n;
			for (x = 0; x < n; x++)
				res[x] = s3_point(s, pz + 1, ry + 1, x);
			for (x = 0; x < n / per; x++)
				ops[k++] = op(out + ((z0 + pz) * n + y0 + ry) * n + x * per,
					      GRANULE, res + x * per, UVM_DEVICE_ACCESS_WRITE);
		}
	return (int)k;
}

/*
 * Rows a step holds: a slab of p planes loads (p + 2) n rows, a band of
 * b rows of one plane 3b + 2: the largest box that fits STEP_MAX.
 */
static int s3_shape(struct exp_run *r, struct stencil3 *s)
{
	size_t rows = STEP_MAX / (s->n / 8);

	if (rows >= 3 * s->n) {
		s->band = s->n;
		s->planes = rows / s->n - 2;
		if (s->planes > s->n)
			s->planes = s->n;
		return 0;
	}
	if (rows < 5) {
		snprintf(r->error, sizeof(r->error),
			 "stencil3d: a row of %zu cells is too wide", s->n);
		return -EINVAL;
	}
	s->planes = 1;
	s->band = (rows - 2) / 3;
	return 0;
}

static int s3_alloc(struct exp_run *r, struct stencil3 *s)
{
	size_t cells = s->n * s->n * s->n;

	s->box = malloc((s->planes + 2) * (s->band + 2) * s->n * 8);
	s->res = malloc(s->planes * s->band * s->n * 8);
	s->ref[0] = malloc(cells * 8);
	s->ref[1] = malloc(cells * 8);
	if (!s->box || !s->res || !s->ref[0] || !s->ref[1])
		return -ENOMEM;
	s->grid[0] = exp_managed(r, cells * 8);
	s->grid[1] = s->grid[0] ? exp_managed(r, cells * 8) : NULL;
	return s->grid[1] ? 0 : -ENOMEM;
}

static int s3_setup(struct exp_run *r)
{
	struct stencil3 *s = calloc(1, sizeof(*s));
	size_t cells;
	int ret;

	if (!s)
		return -ENOMEM;
	r->priv = s;
	s->k.reads = s3_reads;
	s->k.writes = s3_writes;
	s->n = (size_t)cbrt((double)r->size / 16) / 8 * 8;
	while ((s->n + 8) * (s->n + 8) * (s->n + 8) * 16 <= r->size)
		s->n += 8;	/* cbrt() may round down past a cube */
	if (s->n < 8) {
		snprintf(r->error, sizeof(r->error), "size too small for stencil3d");
		return -EINVAL;
	}
	ret = s3_shape(r, s);
	if (!ret)
		ret = s3_alloc(r, s);
	if (ret)
		return ret;
	cells = s->n * s->n * s->n;
	exp_grid_init(r, s->grid[0], s->ref[0], s->grid[1], cells);
	return 0;
}

static int s3_iterate(struct exp_run *r, unsigned int iter)
{
	struct stencil3 *s = r->priv;
	int ret = exp_launch_pass(r, &s->k, &s->pass, iter);

	if (!ret)
		s->passes_launched = iter + 1;
	return ret;
}

/* Cell (z, y, x) of @g, 0 outside the grid. */
static uint64_t s3_at(const uint64_t *g, size_t n, long z, long y, long x)
{
	if (z < 0 || y < 0 || x < 0 || z >= (long)n || y >= (long)n || x >= (long)n)
		return 0;
	return g[((size_t)z * n + (size_t)y) * n + (size_t)x];
}

/* The same passes on the CPU, outside managed memory. */
static void s3_reference(struct stencil3 *s)
{
	long n = (long)s->n, z, y, x;
	unsigned int p;

	for (p = 0; p < s->passes_launched; p++) {
		const uint64_t *in = s->ref[p & 1];
		uint64_t *out = s->ref[(p + 1) & 1];

		for (z = 0; z < n; z++)
			for (y = 0; y < n; y++)
				for (x = 0; x < n; x++)
					out[(z * n + y) * n + x] = s3_at(in, s->n, z, y, x) +
						s3_at(in, s->n, z - 1, y, x) +
						s3_at(in, s->n, z + 1, y, x) +
						s3_at(in, s->n, z, y - 1, x) +
						s3_at(in, s->n, z, y + 1, x) +
						s3_at(in, s->n, z, y, x - 1) +
						s3_at(in, s->n, z, y, x + 1);
	}
}

static int s3_verify(struct exp_run *r)
{
	struct stencil3 *s = r->priv;
	unsigned int last = s->passes_launched & 1;
	size_t i, n = s->n, cells = n * n * n;

	s3_reference(s);
	for (i = 0; i < cells; i++) {
		if (s->grid[last][i] != s->ref[last][i]) {
			snprintf(r->error, sizeof(r->error),
				 "stencil3d: cell (%zu, %zu, %zu) = %#llx, want %#llx",
				 i / (n * n), i / n % n, i % n,
				 (unsigned long long)s->grid[last][i],
				 (unsigned long long)s->ref[last][i]);
			return -EIO;
		}
	}
	return 0;
}

static void s3_teardown(struct exp_run *r)
{
	struct stencil3 *s = r->priv;

	if (!s)
		return;
	exp_release(s->grid[0]);
	exp_release(s->grid[1]);
	free(s->box);
	free(s->res);
	free(s->ref[0]);
	free(s->ref[1]);
	free(s);
}

const struct exp_workload exp_wl_stencil3d = {
	.name = "stencil3d",
	.desc = "7-point sums over an N x N x N grid: slabs of planes (or bands of "
		"rows) loaded with halo planes and rows, stored to the other grid, "
		"grids swapped each pass",
	.setup = s3_setup,
	.iterate = s3_iterate,
	.verify = s3_verify,
	.teardown = s3_teardown,
};
