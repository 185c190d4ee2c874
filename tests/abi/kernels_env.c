// SPDX-License-Identifier: MIT
/*
 * kernels_env.c - UVM_KERNELS without the module: uvmRegisterKernels()
 * reads it (the first registration, lookup or launch does), so what it
 * says on stderr and what it registered show here. Registers "_Z3incPmm"
 * and prints the cudaError_t: 0 if the name was free, 1 if UVM_KERNELS
 * had it. tests/abi/run runs it with good and bad lists.
 */
#include <errno.h>
#include <stdio.h>

#include "uvm_kernel.h"

static int nothing(const struct uvm_kernel_launch *l, struct uvm_kernel *k)
{
	(void)l;
	(void)k;
	return -EINVAL;
}

int main(void)
{
	const struct uvm_kernel_impl impls[] = { { "_Z3incPmm", nothing }, { NULL, NULL } };

	printf("%d\n", (int)uvmRegisterKernels(impls));
	return 0;
}
