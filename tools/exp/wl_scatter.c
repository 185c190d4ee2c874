// SPDX-License-Identifier: GPL-2.0
/*
 * wl_scatter.c - uvm-exp's workloads "scatter", "gather_zipf" and
 * "scatter_zipf" (docs/experiments.md): random read-modify-writes and
 * gathers whose indices are uniform or Zipf-distributed.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "exp_kernel.h"

/* ---- Zipf indices: YCSB's ZipfianGenerator, scrambled ------------------- */

/*
 * Gray et al., "Quickly generating billion-record synthetic databases"
 * (SIGMOD 1994), as YCSB's ZipfianGenerator: zeta(n) once, O(1) a draw.
 * Rank 0 is the most frequent; exponent 0.99 (YCSB's default).
 */
#define ZIPF_THETA	0.99

struct zipf {
	uint64_t n;
	double alpha, zetan, eta, half_theta;
	uint64_t mask;		/* 2^k - 1, the smallest 2^k >= n */
};

static void zipf_init(struct zipf *z, uint64_t n)
{
	double zeta2 = 1.0 + pow(0.5, ZIPF_THETA);
	uint64_t i;

	z->n = n;
	z->zetan = 0;
	for (i = n; i >= 1; i--)	/* smallest terms first: less rounding */
		z->zetan += pow((double)i, -ZIPF_THETA);
	z->alpha = 1.0 / (1.0 - ZIPF_THETA);
	z->half_theta = pow(0.5, ZIPF_THETA);
	z->eta = (1.0 - pow(2.0 / (double)n, 1.0 - ZIPF_THETA)) / (1.0 - zeta2 / z->zetan);
	for (z->mask = 1; z->mask < n - 1; z->mask = z->mask << 1 | 1)
		;
}

static uint64_t zipf_rank(const struct zipf *z, uint64_t *rng)
{
	double u = (double)(exp_rand(rng) >> 11) * 0x1p-53, uz = u * z->zetan;
	uint64_t rank;

	if (uz < 1.0)
		return 0;
	if (uz < 1.0 + z->half_theta)
		return 1;
	rank = (uint64_t)((double)z->n * pow(z->eta * u - z->eta + 1.0, z->alpha));
	return rank < z->n ? rank : z->n - 1;
}

/* A permutation of [0, mask]: odd multiplies and an xorshift, mod 2^k. */
static uint64_t zipf_mix(uint64_t x, uint64_t mask)
{
	x = (x * 0x9e3779b97f4a7c15ull) & mask;
	x ^= x >> 7;
	return (x * 0xbf58476d1ce4e5b9ull) & mask;
}

/*
 * Rank -> index: a bijection of [0, n) (the permutation of [0, 2^k),
 * walked until it lands below n), so the hot ranks spread over the
 * table's pages, as YCSB's ScrambledZipfianGenerator spreads them.
 */
static uint64_t zipf_index(const struct zipf *z, uint64_t *rng)
{
	uint64_t x = zipf_rank(z, rng);

	do
		x = zipf_mix(x, z->mask);
	while (x >= z->n);
	return x;
}

/* ---- the shared state: a table at random, an array in order ------------- */

#define RS_GATHER	STEP_MAX	/* gather: random 8-byte loads per chunk */
#define RS_SCATTER	3584		/* scatter: updates per chunk (+ 448 granules) */
#define RS_HASH		8192		/* a chunk's distinct indices, open addressing */
#define RS_U64		(GRANULE / sizeof(uint64_t))

struct rs {
	struct chunked k;
	uint64_t *table;	/* 3/4 of the set, accessed at random */
	uint64_t *seq;		/* 1/4: gather's output, scatter's addends */
	size_t ntable, nseq;	/* nseq: a multiple of RS_U64 */
	bool zipf;
	struct zipf z;
	uint64_t seed, rng;	/* rng: the chunk's draws, in order */
	uint64_t vals[RS_GATHER];	/* loaded: table values / addends */
	uint64_t cur[RS_SCATTER];	/* scatter: loaded, then updated values */
	uint64_t idx[RS_SCATTER];	/* scatter: the chunk's distinct indices */
	uint32_t slot[RS_SCATTER];	/* scatter: draw -> its distinct index */
	int32_t hash[RS_HASH];		/* index -> position in idx[], -1: none */
	size_t nd;			/* scatter: distinct indices in the chunk */
};

static uint64_t rs_value(uint64_t seed, size_t i)
{
	uint64_t s = seed ^ (i * 0x9e3779b97f4a7c15ull);

	return exp_rand(&s);
}

/* Scatter's addend j (the seq array), outside managed memory too. */
static uint64_t rs_addend(uint64_t seed, size_t j)
{
	return rs_value(~seed, j) & 0xffffffff;
}

static uint64_t rs_next(const struct rs *s, uint64_t *rng)
{
	return s->zipf ? zipf_index(&s->z, rng) : exp_rand(rng) % s->ntable;
}

/* ---- gather_zipf: out[j] = table[zipf] ---------------------------------- */

static int rsg_reads(void *w, uint64_t chunk, struct uvm_device_access_op *ops)
{
	struct rs *s = w;
	size_t n = chunk_len(s->nseq, chunk, RS_GATHER), i;

	if (!chunk)
		s->rng = s->seed;
	for (i = 0; i < n; i++)
		ops[i] = op(s->table + rs_next(s, &s->rng), sizeof(uint64_t), s->vals + i,
			    UVM_DEVICE_ACCESS_READ);
	return (int)n;
}

static int rsg_writes(void *w, uint64_t chunk, struct uvm_device_access_op *ops)
{
	struct rs *s = w;
	size_t n = chunk_len(s->nseq, chunk, RS_GATHER), i;

	for (i = 0; i < n / RS_U64; i++)
		ops[i] = op(s->seq + chunk * RS_GATHER + i * RS_U64, GRANULE,
			    s->vals + i * RS_U64, UVM_DEVICE_ACCESS_WRITE);
	return (int)(n / RS_U64);
}

/* ---- scatter: table[idx_j] += seq[j], a chunk's indices distinct -------- */

/* Position of @x among the chunk's distinct indices, added if new. */
static uint32_t rs_distinct(struct rs *s, uint64_t x, bool *added)
{
	size_t h = (size_t)((x * 0x9e3779b97f4a7c15ull) >> 51);	/* 13 bits */

	while (s->hash[h] >= 0 && s->idx[s->hash[h]] != x)
		h = (h + 1) % RS_HASH;
	*added = s->hash[h] < 0;
	if (*added) {
		s->hash[h] = (int32_t)s->nd;
		s->idx[s->nd++] = x;
	}
	return (uint32_t)s->hash[h];
}

/* The addends' granules, then one 8-byte load per distinct index. */
static int rss_reads(void *w, uint64_t chunk, struct uvm_device_access_op *ops)
{
	struct rs *s = w;
	size_t n = chunk_len(s->nseq, chunk, RS_SCATTER), g = n / RS_U64, k, i;
	bool added;

	if (!chunk)
		s->rng = s->seed;
	for (i = 0; i < g; i++)
		ops[i] = op(s->seq + chunk * RS_SCATTER + i * RS_U64, GRANULE,
			    s->vals + i * RS_U64, UVM_DEVICE_ACCESS_READ);
	k = g;
	memset(s->hash, 0xff, sizeof(s->hash));
	s->nd = 0;
	for (i = 0; i < n; i++) {
		s->slot[i] = rs_distinct(s, rs_next(s, &s->rng), &added);
		if (added)
			ops[k++] = op(s->table + s->idx[s->nd - 1], sizeof(uint64_t),
				      s->cur + s->nd - 1, UVM_DEVICE_ACCESS_READ);
	}
	return (int)k;
}

/* Each draw's addend onto its index (duplicates merged), then the stores. */
static int rss_writes(void *w, uint64_t chunk, struct uvm_device_access_op *ops)
{
	struct rs *s = w;
	size_t n = chunk_len(s->nseq, chunk, RS_SCATTER), i;

	for (i = 0; i < n; i++)
		s->cur[s->slot[i]] += s->vals[i];
	for (i = 0; i < s->nd; i++)
		ops[i] = op(s->table + s->idx[i], sizeof(uint64_t), s->cur + i,
			    UVM_DEVICE_ACCESS_WRITE);
	return (int)s->nd;
}

/* ---- set-up, check, teardown -------------------------------------------- */

static int rs_setup(struct exp_run *r, const char *name, bool scatter, bool zipf)
{
	struct rs *s = calloc(1, sizeof(*s));
	size_t i;

	if (!s)
		return -ENOMEM;
	r->priv = s;
	s->k.reads = scatter ? rss_reads : rsg_reads;
	s->k.writes = scatter ? rss_writes : rsg_writes;
	s->zipf = zipf;
	s->seed = r->seed;
	s->nseq = r->size / 4 / sizeof(uint64_t) / RS_U64 * RS_U64;
	s->ntable = (r->size - s->nseq * sizeof(uint64_t)) / sizeof(uint64_t);
	if (!s->nseq || s->ntable < 2) {
		snprintf(r->error, sizeof(r->error), "size too small for %s", name);
		return -EINVAL;
	}
	if (zipf)
		zipf_init(&s->z, s->ntable);
	s->table = exp_managed(r, s->ntable * sizeof(uint64_t));
	s->seq = s->table ? exp_managed(r, s->nseq * sizeof(uint64_t)) : NULL;
	if (!s->seq)
		return -ENOMEM;
	for (i = 0; i < s->ntable; i++)
		s->table[i] = rs_value(s->seed, i);
	for (i = 0; i < s->nseq; i++)
		s->seq[i] = scatter ? rs_addend(s->seed, i) : 0;
	return 0;
}

static int rs_iterate(struct exp_run *r, unsigned int iter)
{
	(void)iter;
	return exp_launch(r, r->priv);
}

static int rsg_verify(struct exp_run *r)
{
	const struct rs *s = r->priv;
	uint64_t rng = s->seed, want;
	size_t i, j;

	for (i = 0; i < s->nseq; i++) {
		j = rs_next(s, &rng);
		want = rs_value(s->seed, j);
		if (s->seq[i] != want) {
			snprintf(r->error, sizeof(r->error),
				 "gather_zipf: out[%zu] = %#llx, want table[%zu] = %#llx", i,
				 (unsigned long long)s->seq[i], j, (unsigned long long)want);
			return -EIO;
		}
	}
	return 0;
}

/* The same draws, pass after pass, on a copy outside managed memory. */
static int rss_verify(struct exp_run *r)
{
	const struct rs *s = r->priv;
	uint64_t *ref = malloc(s->ntable * sizeof(uint64_t)), rng;
	unsigned int p;
	size_t i;
	int ret = 0;

	if (!ref)
		return -ENOMEM;
	for (i = 0; i < s->ntable; i++)
		ref[i] = rs_value(s->seed, i);
	for (p = 0; p < r->iters; p++)
		for (rng = s->seed, i = 0; i < s->nseq; i++)
			ref[rs_next(s, &rng)] += rs_addend(s->seed, i);
	for (i = 0; i < s->ntable && !ret; i++) {
		if (s->table[i] != ref[i]) {
			snprintf(r->error, sizeof(r->error),
				 "%s: table[%zu] = %#llx, want %#llx",
				 s->zipf ? "scatter_zipf" : "scatter", i,
				 (unsigned long long)s->table[i], (unsigned long long)ref[i]);
			ret = -EIO;
		}
	}
	free(ref);
	return ret;
}

static void rs_teardown(struct exp_run *r)
{
	struct rs *s = r->priv;

	if (!s)
		return;
	exp_release(s->table);
	exp_release(s->seq);
	free(s);
}

static int scatter_setup(struct exp_run *r)
{
	return rs_setup(r, "scatter", true, false);
}

static int gather_zipf_setup(struct exp_run *r)
{
	return rs_setup(r, "gather_zipf", false, true);
}

static int scatter_zipf_setup(struct exp_run *r)
{
	return rs_setup(r, "scatter_zipf", true, true);
}

const struct exp_workload exp_wl_scatter = {
	.name = "scatter",
	.desc = "table[random] += add[j]: 64-byte loads of the addends, uniform "
		"random 8-byte loads then stores of a table of 3/4 of the set",
	.setup = scatter_setup,
	.iterate = rs_iterate,
	.verify = rss_verify,
	.teardown = rs_teardown,
};

const struct exp_workload exp_wl_gather_zipf = {
	.name = "gather_zipf",
	.desc = "out[j] = table[zipf]: Zipf(0.99) random 8-byte loads, hot "
		"elements scrambled over the table, sequential 64-byte stores",
	.setup = gather_zipf_setup,
	.iterate = rs_iterate,
	.verify = rsg_verify,
	.teardown = rs_teardown,
};

const struct exp_workload exp_wl_scatter_zipf = {
	.name = "scatter_zipf",
	.desc = "table[zipf] += add[j]: as scatter, the indices Zipf(0.99), hot "
		"elements scrambled over the table",
	.setup = scatter_zipf_setup,
	.iterate = rs_iterate,
	.verify = rss_verify,
	.teardown = rs_teardown,
};
