// SPDX-License-Identifier: GPL-2.0
/*
 * exp_workloads.c - the table of uvm-exp's built-in workloads, one file
 * each (wl_*.c; docs/experiments.md says what each one's access stream is).
 */
#include <string.h>

#include "exp_kernel.h"

const struct exp_workload *const exp_workloads[] = {
	&exp_wl_triad,
	&exp_wl_gather,
	&exp_wl_stencil2d,
	&exp_wl_pingpong,
	&exp_wl_scatter,
	&exp_wl_gather_zipf,
	&exp_wl_scatter_zipf,
	&exp_wl_stencil3d,
	&exp_wl_matmul,
	&exp_wl_spmv,
	&exp_wl_bfs,
};

const unsigned int exp_nworkloads = sizeof(exp_workloads) / sizeof(exp_workloads[0]);

const struct exp_workload *exp_workload_find(const char *name)
{
	unsigned int i;

	for (i = 0; i < exp_nworkloads; i++)
		if (!strcmp(exp_workloads[i]->name, name))
			return exp_workloads[i];
	return NULL;
}
