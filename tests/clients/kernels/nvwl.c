// SPDX-License-Identifier: MIT
/*
 * nvwl.c - CPU implementations of the __global__ kernels of the fidelity
 * workloads, bench/nvidia/nvwl.cu: the same arithmetic on the same
 * elements, the same arrays read and written, in the order the grid sweeps
 * them (element order; tiles block by block), through the module's device
 * accesses, so faults and migrations are the real ones.
 *
 * Grid-stride loops cover every element once, whatever the grid, so they
 * run over the elements in chunks. Where each GPU thread ends with an
 * atomicAdd of its partial result (k_sum, k_check), the kernel adds the
 * whole result once at its end: the same sum (up to the order of a
 * floating-point sum, which nvwl checks within 1e-6), one access instead
 * of one per thread. k_sum's double add is a read and a write (the
 * module's atomics are 64-bit integer adds).
 */
#include <math.h>

#include "kn.h"

#define PER_DBL		(KN_MAX * (KN_GRANULE / 8) - 8)	/* one array read a step */
#define PER_DBL2	(KN_MAX / 2 * (KN_GRANULE / 8) - 8)	/* two arrays */
#define PER_RAND	KN_MAX				/* one 8-byte access each */

static uint64_t mix64(uint64_t x)
{
	x += 0x9e3779b97f4a7c15ULL;
	x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
	x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
	return x ^ (x >> 31);
}

static size_t zipf_rank(uint64_t h, size_t n)
{
	double u = (double)(h >> 11) / 9007199254740992.0;
	double r = pow(u * pow((double)n, 0.01), 100.0);
	size_t k = (size_t)r;

	return k < n ? k : n - 1;
}

static size_t pick(uint64_t seed, size_t i, size_t nt, int zipf)
{
	uint64_t h = mix64(seed ^ i);

	return zipf ? zipf_rank(h, nt) : h % nt;
}

/* Allocate a machine of @size bytes with @phases over @chunks. */
static void *machine(size_t size, const kn_phase_fn *phases, uint64_t chunks)
{
	struct kn_machine *m = calloc(1, size);

	if (m)
		*m = (struct kn_machine){ .phases = phases, .chunks = chunks };
	return m;
}

/* ---- k_inc, k_fill, k_triad: element-wise over double arrays ------------ */

struct ew {
	struct kn_machine m;
	double *x;
	const double *b, *c;
	uint64_t n;
	double v;
	double bx[PER_DBL], bb[PER_DBL2], bc[PER_DBL2];
};

static int inc_load(void *st, uint64_t chunk, struct kn_step *s)
{
	struct ew *w = st;
	uint64_t lo, hi;

	kn_range(w->n, PER_DBL, chunk, &lo, &hi);
	return kn_read(s, w->x + lo, (hi - lo) * 8, w->bx);
}

static int inc_store(void *st, uint64_t chunk, struct kn_step *s)
{
	struct ew *w = st;
	uint64_t lo, hi, i;

	kn_range(w->n, PER_DBL, chunk, &lo, &hi);
	for (i = 0; i < hi - lo; i++)
		w->bx[i] += 1.0;
	return kn_write(s, w->x + lo, (hi - lo) * 8, w->bx);
}

static const kn_phase_fn inc_phases[] = { inc_load, inc_store, NULL };

static int k_inc(const struct uvm_kernel_launch *l, struct uvm_kernel *k)
{
	uint64_t n;
	struct ew *w;

	if (!kn_args(l, 2))
		return -EINVAL;
	n = kn_threads(l) ? KN_ARG(l, 1, size_t) : 0;
	w = machine(sizeof(*w), inc_phases, kn_chunks(n, PER_DBL));
	if (!w)
		return -ENOMEM;
	w->x = KN_ARG(l, 0, double *);
	w->n = n;
	return kn_start(k, w);
}

static int fill_store(void *st, uint64_t chunk, struct kn_step *s)
{
	struct ew *w = st;
	uint64_t lo, hi, i;

	kn_range(w->n, PER_DBL, chunk, &lo, &hi);
	for (i = lo; i < hi; i++)
		w->bx[i - lo] = w->v + (double)i;
	return kn_write(s, w->x + lo, (hi - lo) * 8, w->bx);
}

static const kn_phase_fn fill_phases[] = { fill_store, NULL };

static int k_fill(const struct uvm_kernel_launch *l, struct uvm_kernel *k)
{
	uint64_t n;
	struct ew *w;

	if (!kn_args(l, 3))
		return -EINVAL;
	n = kn_threads(l) ? KN_ARG(l, 1, size_t) : 0;
	w = machine(sizeof(*w), fill_phases, kn_chunks(n, PER_DBL));
	if (!w)
		return -ENOMEM;
	w->x = KN_ARG(l, 0, double *);
	w->n = n;
	w->v = KN_ARG(l, 2, double);
	return kn_start(k, w);
}

static int triad_load(void *st, uint64_t chunk, struct kn_step *s)
{
	struct ew *w = st;
	uint64_t lo, hi;
	int ret;

	kn_range(w->n, PER_DBL2, chunk, &lo, &hi);
	ret = kn_read(s, w->b + lo, (hi - lo) * 8, w->bb);
	return ret ? ret : kn_read(s, w->c + lo, (hi - lo) * 8, w->bc);
}

static int triad_store(void *st, uint64_t chunk, struct kn_step *s)
{
	struct ew *w = st;
	uint64_t lo, hi, i;

	kn_range(w->n, PER_DBL2, chunk, &lo, &hi);
	for (i = 0; i < hi - lo; i++)
		w->bx[i] = fma(w->v, w->bc[i], w->bb[i]);	/* b + s * c */
	return kn_write(s, w->x + lo, (hi - lo) * 8, w->bx);
}

static const kn_phase_fn triad_phases[] = { triad_load, triad_store, NULL };

static int k_triad(const struct uvm_kernel_launch *l, struct uvm_kernel *k)
{
	uint64_t n;
	struct ew *w;

	if (!kn_args(l, 5))
		return -EINVAL;
	n = kn_threads(l) ? KN_ARG(l, 3, size_t) : 0;
	w = machine(sizeof(*w), triad_phases, kn_chunks(n, PER_DBL2));
	if (!w)
		return -ENOMEM;
	w->x = KN_ARG(l, 0, double *);
	w->b = KN_ARG(l, 1, const double *);
	w->c = KN_ARG(l, 2, const double *);
	w->n = n;
	w->v = KN_ARG(l, 4, double);
	return kn_start(k, w);
}

/* ---- k_sum, k_check: a reduction, added once at the end ----------------- */

struct red {
	struct kn_machine m;
	const double *x;
	uint64_t n, nchunks;
	double add, sum, out;
	uint64_t bad;
	bool is_sum;
	void *dst;		/* k_sum: double *out; k_check: unsigned long long *bad */
	double bx[PER_DBL];
};

static int red_load(void *st, uint64_t chunk, struct kn_step *s)
{
	struct red *r = st;
	uint64_t lo, hi;

	if (chunk == r->nchunks)	/* the end: k_sum reads *out */
		return r->is_sum ? kn_read(s, r->dst, 8, &r->out) : 0;
	kn_range(r->n, PER_DBL, chunk, &lo, &hi);
	return kn_read(s, r->x + lo, (hi - lo) * 8, r->bx);
}

static int sum_add(void *st, uint64_t chunk, struct kn_step *s)
{
	struct red *r = st;
	uint64_t lo, hi, i;

	if (chunk == r->nchunks) {
		r->out += r->sum;
		return kn_write(s, r->dst, 8, &r->out);
	}
	kn_range(r->n, PER_DBL, chunk, &lo, &hi);
	for (i = 0; i < hi - lo; i++)
		r->sum += r->bx[i];
	return 0;
}

static const kn_phase_fn sum_phases[] = { red_load, sum_add, NULL };

static int check_count(void *st, uint64_t chunk, struct kn_step *s)
{
	struct red *r = st;
	uint64_t lo, hi, i;

	if (chunk == r->nchunks)
		return r->bad ? kn_atomic_add(s, r->dst, &r->bad) : 0;
	kn_range(r->n, PER_DBL, chunk, &lo, &hi);
	for (i = lo; i < hi; i++)
		r->bad += r->bx[i - lo] != (double)i + r->add;
	return 0;
}

static const kn_phase_fn check_phases[] = { red_load, check_count, NULL };

static int reduction(const struct uvm_kernel_launch *l, struct uvm_kernel *k,
		     const kn_phase_fn *phases, unsigned int n_arg, unsigned int dst_arg)
{
	uint64_t n, nchunks;
	struct red *r;

	if (!kn_args(l, dst_arg + 1))
		return -EINVAL;
	n = kn_threads(l) ? KN_ARG(l, n_arg, size_t) : 0;
	nchunks = kn_chunks(n, PER_DBL);
	r = machine(sizeof(*r), phases, nchunks + 1);
	if (!r)
		return -ENOMEM;
	r->x = KN_ARG(l, 0, const double *);
	r->n = n;
	r->nchunks = nchunks;
	r->dst = KN_ARG(l, dst_arg, void *);
	return kn_start(k, r);
}

static int k_sum(const struct uvm_kernel_launch *l, struct uvm_kernel *k)
{
	int ret = reduction(l, k, sum_phases, 1, 2);

	if (!ret)
		((struct red *)k->arg)->is_sum = true;
	return ret;
}

static int k_check(const struct uvm_kernel_launch *l, struct uvm_kernel *k)
{
	int ret = reduction(l, k, check_phases, 1, 3);

	if (!ret)
		((struct red *)k->arg)->add = KN_ARG(l, 2, double);
	return ret;
}

/* ---- k_gather, k_scatter: random 8-byte accesses ------------------------- */

struct rnd {
	struct kn_machine m;
	uint64_t *table;
	uint64_t *io;		/* gather: out; scatter: add */
	uint64_t nt, n, seed;
	int zipf;
	uint64_t buf[PER_RAND];
};

static int gather_load(void *st, uint64_t chunk, struct kn_step *s)
{
	struct rnd *g = st;
	uint64_t lo, hi, i;
	int ret = 0;

	kn_range(g->n, PER_RAND, chunk, &lo, &hi);
	for (i = lo; i < hi && !ret; i++)
		ret = kn_op(s, UVM_DEVICE_ACCESS_READ, g->table + pick(g->seed, i, g->nt, g->zipf),
			    8, &g->buf[i - lo]);
	return ret;
}

static int gather_store(void *st, uint64_t chunk, struct kn_step *s)
{
	struct rnd *g = st;
	uint64_t lo, hi;

	kn_range(g->n, PER_RAND, chunk, &lo, &hi);
	return kn_write(s, g->io + lo, (hi - lo) * 8, g->buf);
}

static const kn_phase_fn gather_phases[] = { gather_load, gather_store, NULL };

static int scatter_load(void *st, uint64_t chunk, struct kn_step *s)
{
	struct rnd *g = st;
	uint64_t lo, hi;

	kn_range(g->n, PER_RAND, chunk, &lo, &hi);
	return kn_read(s, g->io + lo, (hi - lo) * 8, g->buf);
}

static int scatter_add(void *st, uint64_t chunk, struct kn_step *s)
{
	struct rnd *g = st;
	uint64_t lo, hi, i;
	int ret = 0;

	kn_range(g->n, PER_RAND, chunk, &lo, &hi);
	for (i = lo; i < hi && !ret; i++)
		ret = kn_atomic_add(s, g->table + pick(g->seed, i, g->nt, g->zipf),
				    &g->buf[i - lo]);
	return ret;
}

static const kn_phase_fn scatter_phases[] = { scatter_load, scatter_add, NULL };

/* (table, nt, io, n, seed, zipf): both kernels' arguments. */
static int random_kernel(const struct uvm_kernel_launch *l, struct uvm_kernel *k,
			 const kn_phase_fn *phases)
{
	uint64_t n, nt;
	struct rnd *g;

	if (!kn_args(l, 6))
		return -EINVAL;
	n = kn_threads(l) ? KN_ARG(l, 3, size_t) : 0;
	nt = KN_ARG(l, 1, size_t);
	if (n && !nt)
		return -EINVAL;	/* h % 0 */
	g = machine(sizeof(*g), phases, kn_chunks(n, PER_RAND));
	if (!g)
		return -ENOMEM;
	g->table = KN_ARG(l, 0, uint64_t *);
	g->nt = nt;
	g->io = KN_ARG(l, 2, uint64_t *);
	g->n = n;
	g->seed = KN_ARG(l, 4, uint64_t);
	g->zipf = KN_ARG(l, 5, int);
	return kn_start(k, g);
}

static int k_gather(const struct uvm_kernel_launch *l, struct uvm_kernel *k)
{
	return random_kernel(l, k, gather_phases);
}

static int k_scatter(const struct uvm_kernel_launch *l, struct uvm_kernel *k)
{
	return random_kernel(l, k, scatter_phases);
}

/* ---- k_stencil2d, k_stencil3d -------------------------------------------- */

#define ST_PER		6000	/* cells a chunk: five windows fit a step */

/* A window of @in read for a chunk: cells [lo, hi) clamped to the grid. */
struct win {
	uint64_t lo, hi;
	double v[ST_PER + 2];
};

struct stencil {
	struct kn_machine m;
	const double *in;
	double *out;
	uint64_t n, cells;
	unsigned int dims;
	struct win w[5];	/* the row itself (+-1), -n, +n, -n*n, +n*n */
	double res[ST_PER];
};

static int win_read(struct kn_step *s, const double *in, struct win *w, int64_t lo,
		    int64_t hi, uint64_t cells)
{
	w->lo = lo < 0 ? 0 : (uint64_t)lo;
	w->hi = hi > (int64_t)cells ? cells : (uint64_t)(hi < 0 ? 0 : hi);
	if (w->hi <= w->lo) {
		w->hi = w->lo;
		return 0;
	}
	return kn_read(s, in + w->lo, (w->hi - w->lo) * 8, w->v);
}

static double win_at(const struct win *w, uint64_t c)
{
	return w->v[c - w->lo];
}

static int stencil_load(void *st, uint64_t chunk, struct kn_step *s)
{
	struct stencil *t = st;
	int64_t off[5] = { 0, -(int64_t)t->n, (int64_t)t->n, -(int64_t)(t->n * t->n),
			   (int64_t)(t->n * t->n) };
	uint64_t lo, hi;
	unsigned int i;
	int ret = 0;

	kn_range(t->cells, ST_PER, chunk, &lo, &hi);
	ret = win_read(s, t->in, &t->w[0], (int64_t)lo - 1, (int64_t)hi + 1, t->cells);
	for (i = 1; i < 1 + 2 * (t->dims - 1) && !ret; i++)
		ret = win_read(s, t->in, &t->w[i], (int64_t)lo + off[i], (int64_t)hi + off[i],
			       t->cells);
	return ret;
}

static double stencil_cell(const struct stencil *t, uint64_t c)
{
	uint64_t n = t->n, p = n * n, x = c % n, y = c / n % n, z = c / p;
	double s = win_at(&t->w[0], c);

	s += x ? win_at(&t->w[0], c - 1) : 0;
	s += x + 1 < n ? win_at(&t->w[0], c + 1) : 0;
	s += y ? win_at(&t->w[1], c - n) : 0;
	s += y + 1 < n ? win_at(&t->w[2], c + n) : 0;
	if (t->dims == 2)
		return s;
	s += z ? win_at(&t->w[3], c - p) : 0;
	s += z + 1 < n ? win_at(&t->w[4], c + p) : 0;
	return s;
}

static int stencil_store(void *st, uint64_t chunk, struct kn_step *s)
{
	struct stencil *t = st;
	uint64_t lo, hi, c;

	kn_range(t->cells, ST_PER, chunk, &lo, &hi);
	for (c = lo; c < hi; c++)
		t->res[c - lo] = stencil_cell(t, c);
	return kn_write(s, t->out + lo, (hi - lo) * 8, t->res);
}

static const kn_phase_fn stencil_phases[] = { stencil_load, stencil_store, NULL };

static int stencil(const struct uvm_kernel_launch *l, struct uvm_kernel *k, unsigned int dims)
{
	uint64_t n, cells;
	struct stencil *t;

	if (!kn_args(l, 3))
		return -EINVAL;
	n = KN_ARG(l, 2, size_t);
	cells = kn_threads(l) ? (dims == 2 ? n * n : n * n * n) : 0;
	t = machine(sizeof(*t), stencil_phases, kn_chunks(cells, ST_PER));
	if (!t)
		return -ENOMEM;
	t->in = KN_ARG(l, 0, const double *);
	t->out = KN_ARG(l, 1, double *);
	t->n = n;
	t->cells = cells;
	t->dims = dims;
	return kn_start(k, t);
}

static int k_stencil2d(const struct uvm_kernel_launch *l, struct uvm_kernel *k)
{
	return stencil(l, k, 2);
}

static int k_stencil3d(const struct uvm_kernel_launch *l, struct uvm_kernel *k)
{
	return stencil(l, k, 3);
}

/* ---- k_matmul: 16 x 16 tiles, block by block ----------------------------- */

#define MT		16
#define MT_TILES	((KN_MAX - 3 * MT) / (6 * MT))	/* a step's tiles, worst alignment */

struct matmul {
	struct kn_machine m;
	const double *a, *b;
	double *c;
	uint64_t n, ntiles, ngroups, gx;
	double ta[MT_TILES][MT][MT], tb[MT_TILES][MT][MT];
	double acc[MT][MT];
};

static void mt_chunk(const struct matmul *t, uint64_t chunk, uint64_t *row0, uint64_t *col0,
		     uint64_t *g)
{
	uint64_t blk = chunk / t->ngroups;

	*g = chunk % t->ngroups;
	*col0 = blk % t->gx * MT;
	*row0 = blk / t->gx * MT;
}

static int mt_load(void *st, uint64_t chunk, struct kn_step *s)
{
	struct matmul *t = st;
	uint64_t row0, col0, g, lo, hi, i, y;
	int ret = 0;

	mt_chunk(t, chunk, &row0, &col0, &g);
	kn_range(t->ntiles, MT_TILES, g, &lo, &hi);
	for (i = lo; i < hi && !ret; i++) {
		for (y = 0; y < MT && !ret; y++) {
			ret = kn_read(s, t->a + (row0 + y) * t->n + i * MT, MT * 8,
				      t->ta[i - lo][y]);
			if (!ret)
				ret = kn_read(s, t->b + (i * MT + y) * t->n + col0, MT * 8,
					      t->tb[i - lo][y]);
		}
	}
	return ret;
}

static int mt_compute(void *st, uint64_t chunk, struct kn_step *s)
{
	struct matmul *t = st;
	uint64_t row0, col0, g, lo, hi, i, y, x, k;
	int ret = 0;

	mt_chunk(t, chunk, &row0, &col0, &g);
	kn_range(t->ntiles, MT_TILES, g, &lo, &hi);
	if (!g)
		memset(t->acc, 0, sizeof(t->acc));
	for (i = 0; i < hi - lo; i++)
		for (y = 0; y < MT; y++)
			for (x = 0; x < MT; x++)
				for (k = 0; k < MT; k++)
					t->acc[y][x] = fma(t->ta[i][y][k], t->tb[i][k][x],
							   t->acc[y][x]);
	if (g + 1 < t->ngroups)
		return 0;
	for (y = 0; y < MT && !ret; y++)
		ret = kn_write(s, t->c + (row0 + y) * t->n + col0, MT * 8, t->acc[y]);
	return ret;
}

static const kn_phase_fn mt_phases[] = { mt_load, mt_compute, NULL };

static int k_matmul(const struct uvm_kernel_launch *l, struct uvm_kernel *k)
{
	struct matmul *t;
	uint64_t n, ntiles, ngroups;

	if (!kn_args(l, 4))
		return -EINVAL;
	if (l->block.x != MT || l->block.y != MT || l->block.z != 1)
		return -EINVAL;	/* the kernel's shared tiles are 16 x 16 */
	n = KN_ARG(l, 3, size_t);
	ntiles = kn_chunks(n, MT);	/* t = 0, 16, ... < n */
	ngroups = kn_chunks(ntiles, MT_TILES);
	t = machine(sizeof(*t), mt_phases, (uint64_t)l->grid.x * l->grid.y * l->grid.z * ngroups);
	if (!t)
		return -ENOMEM;
	t->a = KN_ARG(l, 0, const double *);
	t->b = KN_ARG(l, 1, const double *);
	t->c = KN_ARG(l, 2, double *);
	t->n = n;
	t->ntiles = ntiles;
	t->ngroups = ngroups ? ngroups : 1;
	t->gx = l->grid.x;
	if (!ngroups)
		t->m.chunks = 0;
	return kn_start(k, t);
}

/* ---- k_spmv: CSR rows, their entries, the gathered x ---------------------- */

#define SP_ROWS		4096	/* rows a chunk */
#define SP_ENTRIES	4000	/* entries an inner round */

struct spmv {
	struct kn_machine m;
	const uint64_t *row_ptr, *val, *x;
	const uint32_t *col;
	uint64_t *y;
	uint64_t nrows;
	uint64_t rp[SP_ROWS + 1];
	uint64_t e, e1;		/* the round's first entry, its end */
	uint64_t row;		/* the row entry e belongs to (index in the chunk) */
	bool start;		/* the chunk's first round is next */
	uint32_t cb[SP_ENTRIES];
	uint64_t vb[SP_ENTRIES], xb[SP_ENTRIES];
	uint64_t sum[SP_ROWS];
};

static int spmv_rows(void *st, uint64_t chunk, struct kn_step *s)
{
	struct spmv *p = st;
	uint64_t lo, hi;

	kn_range(p->nrows, SP_ROWS, chunk, &lo, &hi);
	p->start = true;
	return kn_read(s, p->row_ptr + lo, (hi - lo + 1) * 8, p->rp);
}

static int spmv_entries(void *st, uint64_t chunk, struct kn_step *s)
{
	struct spmv *p = st;
	uint64_t lo, hi, end;
	int ret;

	kn_range(p->nrows, SP_ROWS, chunk, &lo, &hi);
	if (p->start) {
		p->start = false;
		p->e1 = p->rp[0];
		p->row = 0;
		memset(p->sum, 0, sizeof(p->sum));
	}
	p->e = p->e1;
	end = p->rp[hi - lo];
	p->e1 = end - p->e > SP_ENTRIES ? p->e + SP_ENTRIES : end;
	if (p->e1 == p->e)
		return 0;
	ret = kn_read(s, p->col + p->e, (p->e1 - p->e) * 4, p->cb);
	return ret ? ret : kn_read(s, p->val + p->e, (p->e1 - p->e) * 8, p->vb);
}

static int spmv_gather(void *st, uint64_t chunk, struct kn_step *s)
{
	struct spmv *p = st;
	uint64_t e;
	int ret = 0;

	(void)chunk;
	for (e = p->e; e < p->e1 && !ret; e++)
		ret = kn_op(s, UVM_DEVICE_ACCESS_READ, p->x + p->cb[e - p->e], 8,
			    &p->xb[e - p->e]);
	return ret;
}

static int spmv_store(void *st, uint64_t chunk, struct kn_step *s)
{
	struct spmv *p = st;
	uint64_t lo, hi, e;

	kn_range(p->nrows, SP_ROWS, chunk, &lo, &hi);
	for (e = p->e; e < p->e1; e++) {
		while (e >= p->rp[p->row + 1])
			p->row++;
		p->sum[p->row] += p->vb[e - p->e] * p->xb[e - p->e];
	}
	if (p->e1 < p->rp[hi - lo]) {
		s->next = 1;	/* the chunk's next round of entries */
		return 0;
	}
	return kn_write(s, p->y + lo, (hi - lo) * 8, p->sum);
}

static const kn_phase_fn spmv_phases[] = { spmv_rows, spmv_entries, spmv_gather, spmv_store,
					   NULL };

static int k_spmv(const struct uvm_kernel_launch *l, struct uvm_kernel *k)
{
	struct spmv *p;
	uint64_t nrows;

	if (!kn_args(l, 6))
		return -EINVAL;
	nrows = kn_threads(l) ? KN_ARG(l, 5, size_t) : 0;
	p = machine(sizeof(*p), spmv_phases, kn_chunks(nrows, SP_ROWS));
	if (!p)
		return -ENOMEM;
	p->row_ptr = KN_ARG(l, 0, const uint64_t *);
	p->col = KN_ARG(l, 1, const uint32_t *);
	p->val = KN_ARG(l, 2, const uint64_t *);
	p->x = KN_ARG(l, 3, const uint64_t *);
	p->y = KN_ARG(l, 4, uint64_t *);
	p->nrows = nrows;
	return kn_start(k, p);
}

/* ---- k_bfs: one level of a level-synchronous BFS --------------------------- */

#define BFS_V		4096	/* vertices a chunk */
#define BFS_E		4096	/* edges a round */

struct bfs {
	struct kn_machine m;
	const uint64_t *off;
	const uint32_t *adj;
	unsigned long long *level;
	int *more;
	uint64_t nv, nchunks, mine, pass;
	bool found;
	int one;
	unsigned long long lv[BFS_V];
	uint64_t ob[BFS_V + 1];
	uint64_t fv;		/* the next frontier vertex to expand (index in the chunk) */
	uint64_t fe;		/* its next edge */
	uint32_t tb[BFS_E];	/* a round's targets */
	unsigned long long tl[BFS_E], nl[BFS_E];
	unsigned int ne;
};

static int bfs_load(void *st, uint64_t chunk, struct kn_step *s)
{
	struct bfs *b = st;
	uint64_t lo, hi;
	int ret;

	if (chunk == b->nchunks) {	/* the end: *more = 1 if any vertex was reached */
		b->one = 1;
		return b->found ? kn_write(s, b->more, sizeof(int), &b->one) : 0;
	}
	kn_range(b->nv, BFS_V, chunk, &lo, &hi);
	b->fv = 0;
	b->fe = UINT64_MAX;
	ret = kn_read(s, b->level + lo, (hi - lo) * 8, b->lv);
	return ret ? ret : kn_read(s, b->off + lo, (hi - lo + 1) * 8, b->ob);
}

/* The next round's edges of the chunk's frontier: read their targets. */
static int bfs_edges(void *st, uint64_t chunk, struct kn_step *s)
{
	struct bfs *b = st;
	uint64_t lo, hi, end, take;
	int ret = 0;

	b->ne = 0;
	if (chunk == b->nchunks)
		return 0;
	kn_range(b->nv, BFS_V, chunk, &lo, &hi);
	while (b->fv < hi - lo && b->ne < BFS_E && !ret) {
		if (b->lv[b->fv] != b->mine) {
			b->fv++;
			continue;
		}
		if (b->fe == UINT64_MAX)
			b->fe = b->ob[b->fv];
		end = b->ob[b->fv + 1];
		take = end - b->fe < BFS_E - b->ne ? end - b->fe : BFS_E - b->ne;
		if (take)
			ret = kn_read(s, b->adj + b->fe, take * 4, &b->tb[b->ne]);
		b->ne += (unsigned int)take;
		b->fe += take;
		if (b->fe == end) {
			b->fv++;
			b->fe = UINT64_MAX;
		}
	}
	return ret;
}

static int bfs_targets(void *st, uint64_t chunk, struct kn_step *s)
{
	struct bfs *b = st;
	unsigned int i;
	int ret = 0;

	(void)chunk;
	for (i = 0; i < b->ne && !ret; i++)
		ret = kn_op(s, UVM_DEVICE_ACCESS_READ, &b->level[b->tb[i]], 8, &b->tl[i]);
	return ret;
}

static int bfs_visit(void *st, uint64_t chunk, struct kn_step *s)
{
	struct bfs *b = st;
	uint64_t lo, hi;
	unsigned int i;
	int ret = 0;

	if (chunk == b->nchunks)
		return 0;
	for (i = 0; i < b->ne && !ret; i++) {
		if ((b->tl[i] >> 32) >= b->pass)
			continue;
		b->nl[i] = b->mine + 1;
		b->found = true;
		ret = kn_op(s, UVM_DEVICE_ACCESS_WRITE, &b->level[b->tb[i]], 8, &b->nl[i]);
	}
	kn_range(b->nv, BFS_V, chunk, &lo, &hi);
	if (!ret && b->fv < hi - lo)
		s->next = 1;	/* more of the frontier's edges */
	return ret;
}

static const kn_phase_fn bfs_phases[] = { bfs_load, bfs_edges, bfs_targets, bfs_visit, NULL };

static int k_bfs(const struct uvm_kernel_launch *l, struct uvm_kernel *k)
{
	uint64_t nv, nchunks;
	struct bfs *b;

	if (!kn_args(l, 7))
		return -EINVAL;
	nv = kn_threads(l) ? KN_ARG(l, 3, size_t) : 0;
	nchunks = kn_chunks(nv, BFS_V);
	b = machine(sizeof(*b), bfs_phases, nchunks + 1);
	if (!b)
		return -ENOMEM;
	b->off = KN_ARG(l, 0, const uint64_t *);
	b->adj = KN_ARG(l, 1, const uint32_t *);
	b->level = KN_ARG(l, 2, unsigned long long *);
	b->nv = nv;
	b->nchunks = nchunks;
	b->pass = KN_ARG(l, 4, uint64_t);
	b->mine = (b->pass << 32) | KN_ARG(l, 5, uint64_t);
	b->more = KN_ARG(l, 6, int *);
	return kn_start(k, b);
}

const struct uvm_kernel_impl uvm_kernel_impls[] = {
	{ "_Z5k_incPdm", k_inc },
	{ "_Z6k_fillPdmd", k_fill },
	{ "_Z5k_sumPKdmPd", k_sum },
	{ "_Z7k_triadPdPKdS1_md", k_triad },
	{ "_Z8k_gatherPKmmPmmmi", k_gather },
	{ "_Z9k_scatterPymPKmmmi", k_scatter },
	{ "_Z11k_stencil2dPKdPdm", k_stencil2d },
	{ "_Z11k_stencil3dPKdPdm", k_stencil3d },
	{ "_Z8k_matmulPKdS0_Pdm", k_matmul },
	{ "_Z7k_checkPKdmdPy", k_check },
	{ "_Z6k_spmvPKmPKjS0_S0_Pmm", k_spmv },
	{ "_Z5k_bfsPKmPKjPymmmPi", k_bfs },
	{ NULL, NULL },
};
