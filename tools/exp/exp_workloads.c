// SPDX-License-Identifier: GPL-2.0
/*
 * exp_workloads.c - uvm-exp's built-in workloads (docs/experiments.md).
 *
 * Each kernel works in chunks of two steps, as a GPU kernel's warps load,
 * compute and store: a read step gathers the chunk's inputs into a
 * scratch buffer (64-byte accesses, a warp's transaction), a write step
 * computes the outputs there and stores them. Data lives in managed
 * memory set up by the CPU; after the last pass the CPU checks every
 * output element, so a lost or stale byte anywhere fails the run.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "exp.h"

#define GRANULE		64
#define STEP_MAX	UVM_KERNEL_MAX_ACCESSES

/* ---- two-step chunks ------------------------------------------------ */

/*
 * A kernel of chunks: reads(chunk) emits the chunk's loads (0: no chunk
 * left, the kernel is done), writes(chunk) computes from them and emits
 * the stores (at least one). The state restarts at step 0, which runs
 * only once the stream's previous kernel (the last pass) has ended.
 */
struct chunked {
	int (*reads)(void *w, uint64_t chunk, struct uvm_device_access_op *ops);
	int (*writes)(void *w, uint64_t chunk, struct uvm_device_access_op *ops);
	uint64_t chunk;
	bool storing;
};

static int chunked_emit(void *arg, uint64_t step, struct uvm_device_access_op *ops,
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

/* Items of chunk @chunk when @total are cut in chunks of @per (0: none). */
static size_t chunk_len(size_t total, uint64_t chunk, size_t per)
{
	size_t first = chunk * per;

	if (first >= total)
		return 0;
	return total - first < per ? total - first : per;
}

static struct uvm_device_access_op op(const void *addr, uint64_t len, void *buf,
				      uint32_t type)
{
	return (struct uvm_device_access_op){
		.addr = (uintptr_t)addr, .length = len, .buf = (uintptr_t)buf,
		.type = type,
	};
}

static int launch(struct exp_run *r, void *w)
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

/* Managed memory; the run's footprint counts the 2 MiB blocks it spans. */
static void *managed(struct exp_run *r, size_t bytes)
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

static void release(void *p)
{
	if (p)
		cudaFree(p);
}

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
	t->a = managed(r, t->n * sizeof(double));
	t->b = t->a ? managed(r, t->n * sizeof(double)) : NULL;
	t->c = t->b ? managed(r, t->n * sizeof(double)) : NULL;
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
	return launch(r, r->priv);
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
	release(t->a);
	release(t->b);
	release(t->c);
	free(t);
}

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
	g->table = managed(r, g->ntable * sizeof(uint64_t));
	g->out = g->table ? managed(r, g->nout * sizeof(uint64_t)) : NULL;
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
	return launch(r, r->priv);
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
	release(g->table);
	release(g->out);
	free(g);
}

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

/* The kernel of pass @pass: its emit() learns the pass at step 0. */
struct stencil_pass {
	struct stencil *s;
	unsigned int pass;
};

static int stencil_emit(void *arg, uint64_t step, struct uvm_device_access_op *ops,
			unsigned int max)
{
	struct stencil_pass *p = arg;

	if (!step)
		p->s->pass = p->pass;
	return chunked_emit(p->s, step, ops, max);
}

static void stencil_pass_done(void *arg, int status, const struct uvm_kernel_stats *st)
{
	(void)status;
	(void)st;
	free(arg);
}

static int stencil_setup(struct exp_run *r)
{
	struct stencil *s = calloc(1, sizeof(*s));
	size_t i, cells;

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
	s->grid[0] = managed(r, cells * 8);
	s->grid[1] = s->grid[0] ? managed(r, cells * 8) : NULL;
	if (!s->grid[1])
		return -ENOMEM;
	for (i = 0; i < cells; i++) {
		uint64_t seed = r->seed + i;

		s->grid[0][i] = s->ref[0][i] = exp_rand(&seed) & 0xffff;
		s->grid[1][i] = 0;
	}
	return 0;
}

static int stencil_iterate(struct exp_run *r, unsigned int iter)
{
	struct stencil *s = r->priv;
	struct stencil_pass *p = calloc(1, sizeof(*p));
	struct uvm_kernel k = { .emit = stencil_emit, .done = stencil_pass_done };
	cudaError_t e;

	if (!p)
		return -ENOMEM;
	p->s = s;
	p->pass = iter;
	k.arg = p;
	e = uvmLaunchKernel(&k, r->device, r->stream);
	if (e) {
		free(p);
		snprintf(r->error, sizeof(r->error), "uvmLaunchKernel: %s",
			 cudaGetErrorString(e));
		return -EIO;
	}
	s->passes_launched = iter + 1;
	return 0;
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
	release(s->grid[0]);
	release(s->grid[1]);
	free(s->rows);
	free(s->res);
	free(s->ref[0]);
	free(s->ref[1]);
	free(s);
}

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
	p->x = managed(r, p->n * sizeof(uint64_t));
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
	ret = launch(r, p);
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
	release(p->x);
	free(p);
}

/* ---- the table ---------------------------------------------------------- */

int exp_sync(struct exp_run *r)
{
	cudaError_t e = cudaStreamSynchronize(r->stream);

	if (!e)
		return 0;
	snprintf(r->error, sizeof(r->error), "a kernel failed: %s",
		 cudaGetErrorString(e));
	return -EIO;
}


const struct exp_workload exp_workloads[] = {
	{ "triad", "a = b + 3c over three arrays: 64-byte loads of b and c, stores of a, "
		   "sequential", triad_setup, triad_iterate, triad_verify, triad_teardown },
	{ "gather", "out[j] = table[random]: uniform random 8-byte loads from a table of "
		    "3/4 of the set, sequential 64-byte stores", gather_setup, gather_iterate,
		    gather_verify, gather_teardown },
	{ "stencil2d", "5-point sums over an N x N grid: bands of rows loaded with a halo "
		       "row above and below, stored to the other grid, grids swapped "
		       "each pass", stencil_setup, stencil_iterate, stencil_verify,
		       stencil_teardown },
	{ "pingpong", "x[i] += 1 on the device over the whole array (64-byte loads, "
		      "then stores), then the CPU adds to every fourth page, each pass",
		      pp_setup, pp_iterate, pp_verify, pp_teardown },
};

const unsigned int exp_nworkloads = sizeof(exp_workloads) / sizeof(exp_workloads[0]);

const struct exp_workload *exp_workload_find(const char *name)
{
	unsigned int i;

	for (i = 0; i < exp_nworkloads; i++)
		if (!strcmp(exp_workloads[i].name, name))
			return &exp_workloads[i];
	return NULL;
}
