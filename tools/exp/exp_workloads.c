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
	&exp_wl_replay,
};

const unsigned int exp_nworkloads = sizeof(exp_workloads) / sizeof(exp_workloads[0]);

/* An ARG goes into JSON and file names: printable, no quote or backslash. */
static bool arg_ok(const char *arg)
{
	if (!*arg)
		return false;
	for (; *arg; arg++)
		if ((unsigned char)*arg < 0x20 || *arg == '"' || *arg == '\\' || *arg == 0x7f)
			return false;
	return true;
}

const struct exp_workload *exp_workload_find(const char *name)
{
	const char *colon = strchr(name, ':');
	size_t len = colon ? (size_t)(colon - name) : strlen(name);
	unsigned int i;

	for (i = 0; i < exp_nworkloads; i++) {
		const struct exp_workload *w = exp_workloads[i];

		if (strlen(w->name) == len && !strncmp(w->name, name, len))
			return !colon == !w->takes_arg && (!colon || arg_ok(colon + 1)) ?
			       w : NULL;
	}
	return NULL;
}

const char *exp_workload_arg(const char *name)
{
	const char *colon = strchr(name, ':');

	return colon ? colon + 1 : NULL;
}
