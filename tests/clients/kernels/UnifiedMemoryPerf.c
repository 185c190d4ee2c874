// SPDX-License-Identifier: MIT
/*
 * UnifiedMemoryPerf.c - CPU implementations of the kernels of cuda-samples'
 * UnifiedMemoryPerf (Samples/6_Performance/UnifiedMemoryPerf):
 *
 * matrixMultiplyKernel(float *C, float *A, float *B, unsigned int matrixDim)
 *	32 x 32 blocks, each a 32 x 32 tile of C: for every tile step the
 *	block loads a 32 x 32 tile of A (its rows) and of B (its columns) and
 *	each thread accumulates As[ty][k] * Bs[k][tx], k = 0..31, as a fused
 *	multiply-add (what nvcc makes of it); the same index expressions, the
 *	same order, so every run gives the same bits.
 * spinWhileLessThanOne(volatile unsigned int *latch)
 *	reads the latch until it is at least 1, as the GPU's thread does, for
 *	as long as it takes (the program's own timeout bounds it); 50 us
 *	between reads, so the host thread that sets it gets the CPU.
 */
#include <math.h>
#include <unistd.h>

#include "kn.h"

#define MM_B		32				/* BLOCK_SIZE */
#define MM_TILES	((KN_MAX - 2 * MM_B) / (4 * MM_B + 2 * MM_B))	/* per step */

struct mm {
	struct kn_machine m;
	float *c;
	const float *a, *b;
	unsigned int dim, gx, ntiles, ngroups;
	float as[MM_TILES][MM_B][MM_B], bs[MM_TILES][MM_B][MM_B];
	float acc[MM_B][MM_B];
};

/* Chunk @chunk: block (*bx, *by), its tile group *g. */
static void mm_chunk(const struct mm *t, uint64_t chunk, unsigned int *bx, unsigned int *by,
		     unsigned int *g)
{
	uint64_t blk = chunk / t->ngroups;

	*g = (unsigned int)(chunk % t->ngroups);
	*bx = (unsigned int)(blk % t->gx);
	*by = (unsigned int)(blk / t->gx);
}

/* Tiles [*lo, *hi) of group @g. */
static void mm_group(const struct mm *t, unsigned int g, unsigned int *lo, unsigned int *hi)
{
	*lo = g * MM_TILES;
	*hi = *lo + MM_TILES < t->ntiles ? *lo + MM_TILES : t->ntiles;
}

static int mm_load(void *st, uint64_t chunk, struct kn_step *s)
{
	struct mm *t = st;
	unsigned int bx, by, g, lo, hi, i, ty;
	int ret = 0;

	mm_chunk(t, chunk, &bx, &by, &g);
	mm_group(t, g, &lo, &hi);
	for (i = lo; i < hi && !ret; i++) {
		int a = (int)(t->dim * MM_B * by) + (int)(MM_B * i);
		int b = (int)(MM_B * bx) + (int)(MM_B * t->dim * i);

		for (ty = 0; ty < MM_B && !ret; ty++) {
			ret = kn_read(s, t->a + a + t->dim * ty, MM_B * sizeof(float),
				      t->as[i - lo][ty]);
			if (!ret)
				ret = kn_read(s, t->b + b + t->dim * ty, MM_B * sizeof(float),
					      t->bs[i - lo][ty]);
		}
	}
	return ret;
}

static int mm_compute(void *st, uint64_t chunk, struct kn_step *s)
{
	struct mm *t = st;
	unsigned int bx, by, g, lo, hi, i, ty, tx, k;
	int c;

	mm_chunk(t, chunk, &bx, &by, &g);
	mm_group(t, g, &lo, &hi);
	if (!g)
		memset(t->acc, 0, sizeof(t->acc));
	for (i = 0; i < hi - lo; i++)
		for (ty = 0; ty < MM_B; ty++)
			for (tx = 0; tx < MM_B; tx++)
				for (k = 0; k < MM_B; k++)
					t->acc[ty][tx] = fmaf(t->as[i][ty][k], t->bs[i][k][tx],
							      t->acc[ty][tx]);
	if (g + 1 < t->ngroups)
		return 0;
	c = (int)(t->dim * MM_B * by + MM_B * bx);
	for (ty = 0; ty < MM_B; ty++) {
		int ret = kn_write(s, t->c + c + t->dim * ty, MM_B * sizeof(float), t->acc[ty]);

		if (ret)
			return ret;
	}
	return 0;
}

static const kn_phase_fn mm_phases[] = { mm_load, mm_compute, NULL };

static int matrix_multiply(const struct uvm_kernel_launch *l, struct uvm_kernel *k)
{
	struct mm *t;

	if (!kn_args(l, 4))
		return -EINVAL;
	if (l->block.x != MM_B || l->block.y != MM_B || l->block.z != 1)
		return -EINVAL;	/* the kernel's shared tiles are 32 x 32 */
	t = calloc(1, sizeof(*t));
	if (!t)
		return -ENOMEM;
	t->c = KN_ARG(l, 0, float *);
	t->a = KN_ARG(l, 1, float *);
	t->b = KN_ARG(l, 2, float *);
	t->dim = KN_ARG(l, 3, unsigned int);
	t->gx = l->grid.x;
	t->ntiles = (t->dim + MM_B - 1) / MM_B;	/* a = aBegin .. aEnd by 32 */
	t->ngroups = t->ntiles ? (t->ntiles + MM_TILES - 1) / MM_TILES : 0;
	t->m = (struct kn_machine){
		.phases = mm_phases,
		.chunks = (uint64_t)l->grid.x * l->grid.y * t->ngroups,
	};
	return kn_start(k, t);
}

/* ---- spinWhileLessThanOne ------------------------------------------------ */

struct spin {
	struct kn_machine m;
	volatile unsigned int *latch;
	unsigned int v;
	bool polled;
};

static int spin_read(void *st, uint64_t chunk, struct kn_step *s)
{
	struct spin *p = st;

	(void)chunk;
	if (p->polled)
		usleep(50);
	p->polled = true;
	return kn_op(s, UVM_DEVICE_ACCESS_READ, (const void *)p->latch, sizeof(p->v), &p->v);
}

static int spin_check(void *st, uint64_t chunk, struct kn_step *s)
{
	struct spin *p = st;

	(void)chunk;
	if (p->v < 1)
		s->next = 0;
	return 0;
}

static const kn_phase_fn spin_phases[] = { spin_read, spin_check, NULL };

static int spin_while_less_than_one(const struct uvm_kernel_launch *l, struct uvm_kernel *k)
{
	struct spin *p;

	if (!kn_args(l, 1))
		return -EINVAL;
	p = calloc(1, sizeof(*p));
	if (!p)
		return -ENOMEM;
	p->latch = KN_ARG(l, 0, volatile unsigned int *);
	p->m = (struct kn_machine){ .phases = spin_phases, .chunks = 1 };
	return kn_start(k, p);
}

const struct uvm_kernel_impl uvm_kernel_impls[] = {
	{ "_Z20matrixMultiplyKernelPfS_S_j", matrix_multiply },
	{ "_Z20spinWhileLessThanOnePVj", spin_while_less_than_one },
	{ NULL, NULL },
};
