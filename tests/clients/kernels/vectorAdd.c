// SPDX-License-Identifier: MIT
/*
 * vectorAdd.c - the CPU implementation of cuda-samples' vectorAdd kernel
 * (Samples/0_Introduction/vectorAdd):
 *
 *	__global__ void vectorAdd(const float *A, const float *B, float *C,
 *				  int numElements)
 *	{
 *		int i = blockDim.x * blockIdx.x + threadIdx.x;
 *		if (i < numElements)
 *			C[i] = A[i] + B[i] + 0.0f;
 *	}
 *
 * Elements [0, min(numElements, gridDim.x * blockDim.x)) in chunks: read A
 * and B, then compute and write C. The same float additions, so C is
 * bit-identical to the GPU's.
 */
#include "kn.h"

#define VA_PER	(KN_MAX / 2 * (KN_GRANULE / sizeof(float)) - 32)	/* both reads fit */

struct vector_add {
	struct kn_machine m;
	const float *a, *b;
	float *c;
	uint64_t n;
	float ba[VA_PER], bb[VA_PER], bc[VA_PER];
};

static int va_load(void *st, uint64_t chunk, struct kn_step *s)
{
	struct vector_add *v = st;
	uint64_t lo, hi;
	int ret;

	kn_range(v->n, VA_PER, chunk, &lo, &hi);
	ret = kn_read(s, v->a + lo, (hi - lo) * sizeof(float), v->ba);
	return ret ? ret : kn_read(s, v->b + lo, (hi - lo) * sizeof(float), v->bb);
}

static int va_store(void *st, uint64_t chunk, struct kn_step *s)
{
	struct vector_add *v = st;
	uint64_t lo, hi, i;

	kn_range(v->n, VA_PER, chunk, &lo, &hi);
	for (i = 0; i < hi - lo; i++)
		v->bc[i] = v->ba[i] + v->bb[i] + 0.0f;
	return kn_write(s, v->c + lo, (hi - lo) * sizeof(float), v->bc);
}

static const kn_phase_fn va_phases[] = { va_load, va_store, NULL };

static int vector_add(const struct uvm_kernel_launch *l, struct uvm_kernel *k)
{
	struct vector_add *v;
	uint64_t threads = (uint64_t)l->grid.x * l->block.x;
	int n;

	if (!kn_args(l, 4))
		return -EINVAL;
	n = KN_ARG(l, 3, int);
	v = calloc(1, sizeof(*v));
	if (!v)
		return -ENOMEM;
	v->a = KN_ARG(l, 0, const float *);
	v->b = KN_ARG(l, 1, const float *);
	v->c = KN_ARG(l, 2, float *);
	v->n = n > 0 ? ((uint64_t)n < threads ? (uint64_t)n : threads) : 0;
	v->m = (struct kn_machine){ .phases = va_phases, .chunks = kn_chunks(v->n, VA_PER) };
	return kn_start(k, v);
}

const struct uvm_kernel_impl uvm_kernel_impls[] = {
	{ "_Z9vectorAddPKfS0_Pfi", vector_add },
	{ NULL, NULL },
};
