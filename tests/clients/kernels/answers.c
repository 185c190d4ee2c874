// SPDX-License-Identifier: MIT
/*
 * answers.c - the kernel of bench/nvidia/answers.cu, whose launches the
 * clients test runs on libuvm to compare its answers with CUDA 13's:
 *
 *	__global__ void k_add(const float *a, const float *b, float *c, int n)
 *
 * the same kernel as cuda-samples' vectorAdd, so vectorAdd's implementation
 * serves under k_add's name; and
 *
 *	__global__ void k_big(float *x)	(12 Ki floats of static shared memory)
 *	{
 *		tile[threadIdx.x] = x[threadIdx.x];
 *		__syncthreads();
 *		x[threadIdx.x] = tile[(threadIdx.x + 1) % blockDim.x];
 *	}
 *
 * which answers.cu only asks attributes of (a kernel without an
 * implementation has none). The sm_100-only kernel must have none.
 */
#define uvm_kernel_impls vector_add_impls
#include "vectorAdd.c"
#undef uvm_kernel_impls

/* k_big: every block rotates its blockDim.x floats of x by one. */
struct big {
	struct kn_machine m;
	float *x;
	unsigned int n;
	float in[1024], out[1024];
};

static int big_load(void *st, uint64_t chunk, struct kn_step *s)
{
	struct big *b = st;

	(void)chunk;
	return kn_read(s, b->x, b->n * sizeof(float), b->in);
}

static int big_store(void *st, uint64_t chunk, struct kn_step *s)
{
	struct big *b = st;
	unsigned int i;

	(void)chunk;
	for (i = 0; i < b->n; i++)
		b->out[i] = b->in[(i + 1) % b->n];
	return kn_write(s, b->x, b->n * sizeof(float), b->out);
}

static const kn_phase_fn big_phases[] = { big_load, big_store, NULL };

static int k_big(const struct uvm_kernel_launch *l, struct uvm_kernel *k)
{
	struct big *b;

	if (!kn_args(l, 1) || l->block.x > 1024)
		return -EINVAL;
	b = calloc(1, sizeof(*b));
	if (!b)
		return -ENOMEM;
	b->x = KN_ARG(l, 0, float *);
	b->n = l->block.x;
	/* every block does the same to the same floats: once is the result */
	b->m = (struct kn_machine){ .phases = big_phases, .chunks = 1 };
	return kn_start(k, b);
}

const struct uvm_kernel_impl uvm_kernel_impls[] = {
	{ "_Z5k_addPKfS0_Pfi", vector_add },
	{ "_Z5k_bigPf", k_big },
	{ NULL, NULL },
};
