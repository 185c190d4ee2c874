// SPDX-License-Identifier: MIT
/*
 * answers_sm100.cu - part of answers.cu compiled for sm_100 only: a kernel
 * an sm_90 card has no image for.
 */
#include <cuda_runtime.h>

__global__ void k_sm100(float *x)
{
	x[threadIdx.x] += 1.0f;
}

void launch_sm100_only(float *x)
{
	k_sm100<<<1, 32>>>(x);
}

const void *sm100_kernel(void)
{
	return (const void *)k_sm100;
}
