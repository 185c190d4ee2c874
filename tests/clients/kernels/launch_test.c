// SPDX-License-Identifier: MIT
/*
 * launch_test.c - the kernels cuda_launch_test loads through UVM_KERNELS
 * (tests/kselftest/cuda_launch_test.c), for the test's stand-in stubs:
 *
 *	__global__ void inc(uint64_t *p, size_t n)	 p[i] += 1, i < n
 *	__global__ void add(uint64_t *p, uint64_t v)	 atomicAdd(p, v), once
 */
#include "kn.h"

#define INC_PER	(KN_MAX / 2 * (KN_GRANULE / 8))

struct inc {
	struct kn_machine m;
	uint64_t *p;
	uint64_t n;
	uint64_t b[INC_PER];
};

static int inc_load(void *st, uint64_t chunk, struct kn_step *s)
{
	struct inc *t = st;
	uint64_t lo, hi;

	kn_range(t->n, INC_PER, chunk, &lo, &hi);
	return kn_read(s, t->p + lo, (hi - lo) * 8, t->b);
}

static int inc_store(void *st, uint64_t chunk, struct kn_step *s)
{
	struct inc *t = st;
	uint64_t lo, hi, i;

	kn_range(t->n, INC_PER, chunk, &lo, &hi);
	for (i = 0; i < hi - lo; i++)
		t->b[i]++;
	return kn_write(s, t->p + lo, (hi - lo) * 8, t->b);
}

static const kn_phase_fn inc_phases[] = { inc_load, inc_store, NULL };

static int inc(const struct uvm_kernel_launch *l, struct uvm_kernel *k)
{
	struct inc *t;

	if (!kn_args(l, 2))
		return -EINVAL;
	t = calloc(1, sizeof(*t));
	if (!t)
		return -ENOMEM;
	t->p = KN_ARG(l, 0, uint64_t *);
	t->n = KN_ARG(l, 1, size_t);
	t->m = (struct kn_machine){ .phases = inc_phases, .chunks = kn_chunks(t->n, INC_PER) };
	return kn_start(k, t);
}

struct add {
	struct kn_machine m;
	uint64_t *p;
	uint64_t v;
};

static int add_step(void *st, uint64_t chunk, struct kn_step *s)
{
	struct add *t = st;

	(void)chunk;
	return kn_atomic_add(s, t->p, &t->v);
}

static const kn_phase_fn add_phases[] = { add_step, NULL };

static int add(const struct uvm_kernel_launch *l, struct uvm_kernel *k)
{
	struct add *t;

	if (!kn_args(l, 2))
		return -EINVAL;
	t = calloc(1, sizeof(*t));
	if (!t)
		return -ENOMEM;
	t->p = KN_ARG(l, 0, uint64_t *);
	t->v = KN_ARG(l, 1, uint64_t);
	t->m = (struct kn_machine){ .phases = add_phases, .chunks = 1 };
	return kn_start(k, t);
}

const struct uvm_kernel_impl uvm_kernel_impls[] = {
	{ "_Z3incPmm", inc },
	{ "_Z3addPmm", add },
	{ NULL, NULL },
};
