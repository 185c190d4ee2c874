// SPDX-License-Identifier: GPL-2.0
/*
 * wl_bfs.c - uvm-exp's workload "bfs" (docs/experiments.md).
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "exp_kernel.h"

/* ---- bfs: level-synchronous BFS over a power-law graph in CSR ----------- */

/*
 * Out-degrees: a Pareto law, P(deg >= D) = (4 / D)^2 for D >= 4, cut at
 * BFS_CAP: mean about 7.5; targets uniform over the vertices, 32-bit.
 * A level holds (pass << 32) | depth: a vertex whose pass is older is
 * unvisited in this pass, so each pass is a whole BFS with no reset.
 */
#define BFS_XM		4.0
#define BFS_CAP		256
#define BFS_VMAX	256		/* frontier vertices a chunk expands */
#define BFS_PER32	(GRANULE / 4)

struct bfs {
	struct chunked k;
	uint64_t *off;		/* nv + 1: vertex v's edges are [off[v], off[v + 1]) */
	uint32_t *adj;		/* ne edge targets */
	uint64_t *level;	/* nv */
	size_t nv, ne;
	uint64_t *hoff;		/* off and adj outside managed memory (the plan) */
	uint32_t *hadj;
	uint32_t *front, *next, *stamp;	/* stamp: the chunk that stored a vertex */
	size_t nfront, nnext, pos, f0, f1, nlev;
	uint64_t pass, depth;	/* pass: 1, 2, ...; the depth of the frontier */
	bool root;		/* the kernel that stores the root's level */
	uint64_t soff[BFS_VMAX * 16], slev[STEP_MAX], snew[STEP_MAX];
	uint32_t sadj[STEP_MAX * BFS_PER32];
	size_t at[BFS_VMAX];	/* where each vertex's edges start in sadj */
	uint32_t chunks;	/* chunks expanded, this run (stamps) */
	char bad[96];		/* loaded structure not as set up, first */
};

static size_t bfs_span(const void *arr, size_t esz, size_t first, size_t end, void *dst,
		       struct uvm_device_access_op *ops)
{
	size_t per = GRANULE / esz, g0 = first / per, g1 = (end + per - 1) / per, g;

	for (g = g0; g < g1; g++)
		ops[g - g0] = op((const char *)arr + g * GRANULE, GRANULE,
				 (char *)dst + (g - g0) * GRANULE, UVM_DEVICE_ACCESS_READ);
	return g1 - g0;
}

/* Frontier vertex @v's loads: its offsets, its edges, its neighbours' levels. */
static size_t bfs_vertex(struct bfs *b, uint32_t v, size_t slot, size_t *adj_used,
			 struct uvm_device_access_op *ops)
{
	size_t k, n, e, e0 = b->hoff[v], e1 = b->hoff[v + 1];

	k = bfs_span(b->off, 8, v, (size_t)v + 2, b->soff + slot * 16, ops);
	n = bfs_span(b->adj, 4, e0, e1, b->sadj + *adj_used, ops + k);
	b->at[slot] = *adj_used + e0 % BFS_PER32;
	*adj_used += n * BFS_PER32;
	k += n;
	for (e = e0; e < e1; e++)
		ops[k++] = op(b->level + b->hadj[e], 8, b->slev + b->nlev++,
			      UVM_DEVICE_ACCESS_READ);
	return k;
}

static int bfs_reads(void *w, uint64_t chunk, struct uvm_device_access_op *ops)
{
	struct bfs *b = w;
	size_t k = 0, adj_used = 0, d;

	if (b->root) {
		if (chunk)
			return 0;
		ops[0] = op(b->level, 8, b->slev, UVM_DEVICE_ACCESS_READ);
		return 1;
	}
	if (!chunk)
		b->pos = 0;
	b->f0 = b->pos;
	b->nlev = 0;
	while (b->pos < b->nfront && b->pos - b->f0 < BFS_VMAX) {
		d = b->hoff[b->front[b->pos] + 1] - b->hoff[b->front[b->pos]];
		if (b->pos > b->f0 && k + 2 + d / BFS_PER32 + 2 + d > STEP_MAX)
			break;
		k += bfs_vertex(b, b->front[b->pos], b->pos - b->f0, &adj_used, ops + k);
		b->pos++;
	}
	b->f1 = b->pos;
	return (int)k;
}

/* Does the loaded structure say what the plan said? (First difference.) */
static void bfs_check(struct bfs *b, uint32_t v, size_t slot)
{
	const uint64_t *o = b->soff + slot * 16 + v % 8;
	size_t e;

	if (!*b->bad && (o[0] != b->hoff[v] || o[1] != b->hoff[v + 1]))
		snprintf(b->bad, sizeof(b->bad), "off[%u] loaded as %llu", v,
			 (unsigned long long)o[0]);
	for (e = b->hoff[v]; e < b->hoff[v + 1] && !*b->bad; e++)
		if (b->sadj[b->at[slot] + e - b->hoff[v]] != b->hadj[e])
			snprintf(b->bad, sizeof(b->bad), "adj[%zu] loaded as %u", e,
				 b->sadj[b->at[slot] + e - b->hoff[v]]);
}

/* Store the next depth to each neighbour unvisited in this pass, once. */
static int bfs_writes(void *w, uint64_t chunk, struct uvm_device_access_op *ops)
{
	struct bfs *b = w;
	size_t i, e, l = 0, k = 0;
	uint32_t u;

	(void)chunk;
	if (b->root) {
		b->snew[0] = b->pass << 32;
		ops[0] = op(b->level, 8, b->snew, UVM_DEVICE_ACCESS_WRITE);
		return 1;
	}
	b->chunks++;
	for (i = b->f0; i < b->f1; i++) {
		bfs_check(b, b->front[i], i - b->f0);
		for (e = b->hoff[b->front[i]]; e < b->hoff[b->front[i] + 1]; e++, l++) {
			u = b->hadj[e];	/* as loaded, once checked */
			if (b->slev[l] >> 32 == b->pass || b->stamp[u] == b->chunks)
				continue;
			b->stamp[u] = b->chunks;
			b->snew[k] = b->pass << 32 | (b->depth + 1);
			ops[k] = op(b->level + u, 8, b->snew + k, UVM_DEVICE_ACCESS_WRITE);
			k++;
			b->next[b->nnext++] = u;
		}
	}
	if (!k) {	/* nothing new: a step stores, so the first vertex's own level */
		b->snew[0] = b->pass << 32 | b->depth;
		ops[k++] = op(b->level + b->front[b->f0], 8, b->snew, UVM_DEVICE_ACCESS_WRITE);
	}
	return (int)k;
}

/* Degrees from the seed, uniform targets. */
static int bfs_graph(struct exp_run *r, struct bfs *b)
{
	uint64_t rng = r->seed;
	size_t v, e;

	b->hoff = malloc((b->nv + 1) * sizeof(uint64_t));
	if (!b->hoff)
		return -ENOMEM;
	b->hoff[0] = 0;
	for (v = 0; v < b->nv; v++) {
		double u = (double)((exp_rand(&rng) >> 11) + 1) * 0x1p-53;
		size_t d = (size_t)(BFS_XM / sqrt(u));

		b->hoff[v + 1] = b->hoff[v] + (d < BFS_CAP ? d : BFS_CAP);
	}
	b->ne = b->hoff[b->nv];
	b->hadj = malloc(b->ne * sizeof(uint32_t));
	if (!b->hadj)
		return -ENOMEM;
	for (e = 0; e < b->ne; e++)
		b->hadj[e] = (uint32_t)(exp_rand(&rng) % b->nv);
	return 0;
}

static int bfs_alloc(struct exp_run *r, struct bfs *b)
{
	b->front = malloc(b->nv * sizeof(uint32_t));
	b->next = malloc(b->nv * sizeof(uint32_t));
	b->stamp = calloc(b->nv, sizeof(uint32_t));
	if (!b->front || !b->next || !b->stamp)
		return -ENOMEM;
	b->off = exp_managed(r, (b->nv + 1) * sizeof(uint64_t));
	b->adj = b->off ? exp_managed(r, b->ne * sizeof(uint32_t)) : NULL;
	b->level = b->adj ? exp_managed(r, b->nv * sizeof(uint64_t)) : NULL;
	if (!b->level)
		return -ENOMEM;
	memcpy(b->off, b->hoff, (b->nv + 1) * sizeof(uint64_t));
	memcpy(b->adj, b->hadj, b->ne * sizeof(uint32_t));
	memset(b->level, 0, b->nv * sizeof(uint64_t));
	return 0;
}

/* Vertices: about 8 + 8 + 7.5 x 4 bytes each (off, level, edges), 46. */
static int bfs_setup(struct exp_run *r)
{
	struct bfs *b = calloc(1, sizeof(*b));
	int ret;

	if (!b)
		return -ENOMEM;
	r->priv = b;
	b->k.reads = bfs_reads;
	b->k.writes = bfs_writes;
	b->nv = r->size / 46;
	if (b->nv < 2 || b->nv > UINT32_MAX) {
		snprintf(r->error, sizeof(r->error), "size too small for bfs");
		return -EINVAL;
	}
	ret = bfs_graph(r, b);
	return ret ? ret : bfs_alloc(r, b);
}

/* A kernel, waited for: the next one needs the frontier it found. */
static int bfs_kernel(struct exp_run *r, struct bfs *b)
{
	int ret = exp_launch(r, b);

	return ret ? ret : exp_sync(r);
}

/* One pass: the root's level, then one kernel per depth until none is new. */
static int bfs_iterate(struct exp_run *r, unsigned int iter)
{
	struct bfs *b = r->priv;
	uint32_t *t;
	int ret;

	b->pass = iter + 1;
	b->root = true;
	ret = bfs_kernel(r, b);
	b->root = false;
	b->front[0] = 0;
	b->nfront = 1;
	for (b->depth = 0; !ret && b->nfront; b->depth++) {
		b->nnext = 0;
		ret = bfs_kernel(r, b);
		t = b->front;
		b->front = b->next;
		b->next = t;
		b->nfront = b->nnext;
	}
	return ret;
}

/* The depths from vertex 0 on the CPU (~0: unreached), into @ref. */
static void bfs_reference(const struct bfs *b, uint64_t *ref, uint32_t *queue)
{
	size_t head = 0, tail = 0, e;
	uint32_t v;

	memset(ref, 0xff, b->nv * sizeof(uint64_t));
	ref[0] = 0;
	queue[tail++] = 0;
	while (head < tail) {
		v = queue[head++];
		for (e = b->hoff[v]; e < b->hoff[v + 1]; e++)
			if (ref[b->hadj[e]] == ~0ull) {
				ref[b->hadj[e]] = ref[v] + 1;
				queue[tail++] = b->hadj[e];
			}
	}
}

static int bfs_verify(struct exp_run *r)
{
	struct bfs *b = r->priv;
	uint64_t *ref = malloc(b->nv * sizeof(uint64_t)), want;
	size_t v;
	int ret = 0;

	if (!ref)
		return -ENOMEM;
	bfs_reference(b, ref, b->front);
	if (*b->bad) {
		snprintf(r->error, sizeof(r->error), "bfs: %s", b->bad);
		ret = -EIO;
	}
	for (v = 0; v < b->nv && !ret; v++) {
		want = ref[v] == ~0ull ? 0 : b->pass << 32 | ref[v];
		if (b->level[v] != want) {
			snprintf(r->error, sizeof(r->error),
				 "bfs: level[%zu] = %#llx, want %#llx (pass << 32 | depth)", v,
				 (unsigned long long)b->level[v], (unsigned long long)want);
			ret = -EIO;
		}
	}
	free(ref);
	return ret;
}

static void bfs_teardown(struct exp_run *r)
{
	struct bfs *b = r->priv;

	if (!b)
		return;
	exp_release(b->off);
	exp_release(b->adj);
	exp_release(b->level);
	free(b->hoff);
	free(b->hadj);
	free(b->front);
	free(b->next);
	free(b->stamp);
	free(b);
}

const struct exp_workload exp_wl_bfs = {
	.name = "bfs",
	.desc = "BFS from vertex 0 of a power-law graph, a kernel a depth: 64-byte "
		"loads of the frontier's offsets and edges, random 8-byte loads and "
		"stores of levels",
	.setup = bfs_setup,
	.iterate = bfs_iterate,
	.verify = bfs_verify,
	.teardown = bfs_teardown,
};
