// SPDX-License-Identifier: MIT
/*
 * answers.c - the kernel of bench/nvidia/answers.cu, whose launches the
 * clients test runs on libuvm to compare its answers with CUDA 13's:
 *
 *	__global__ void k_add(const float *a, const float *b, float *c, int n)
 *
 * the same kernel as cuda-samples' vectorAdd, so vectorAdd's implementation
 * serves under k_add's name. k_big (static shared memory) is never
 * launched there; the sm_100-only kernel must have no implementation.
 */
#define uvm_kernel_impls vector_add_impls
#include "vectorAdd.c"
#undef uvm_kernel_impls

const struct uvm_kernel_impl uvm_kernel_impls[] = {
	{ "_Z5k_addPKfS0_Pfi", vector_add },
	{ NULL, NULL },
};
