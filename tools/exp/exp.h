/* SPDX-License-Identifier: GPL-2.0 */
/*
 * exp.h - uvm-exp's workloads and what a run measures (docs/experiments.md).
 */
#ifndef UVM_EXP_H
#define UVM_EXP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "cuda_runtime_api.h"
#include "exp_cost.h"
#include "uvm.h"
#include "uvm_kernel.h"

/* One run's parameters and the workload's state. */
struct exp_run {
	size_t size;		/* working set, bytes of managed memory */
	unsigned int iters;	/* kernel passes */
	int device;
	uint64_t seed;
	cudaStream_t stream;
	uint64_t footprint;	/* 2 MiB blocks its allocations span, bytes */
	const char *arg;	/* NAME:ARG's ARG (a replay's trace), or NULL */
	bool allow_incomplete;	/* replay a trace whose recording lost records */
	const char *kernels;	/* replay: the recording's kernel launches, or NULL */
	const struct exp_cost *cost;	/* the run's cost model */
	char *kernels_json;	/* replay: each kernel priced, a JSON array (malloc) */
	void *priv;		/* the workload's */
	char error[160];	/* what failed, for the report */
	char extra[512];	/* the workload's JSON members ("k":v,...), or "" */
};

/*
 * A workload: managed data set up by the CPU, kernels launched on the
 * run's stream for each iteration, its result checked by the CPU. Each
 * returns 0 or -errno and says what went wrong in @r->error.
 */
struct exp_workload {
	const char *name;
	const char *desc;	/* its access stream, one line */
	bool takes_arg;		/* named NAME:ARG (replay:FILE) */
	int (*setup)(struct exp_run *r);
	int (*iterate)(struct exp_run *r, unsigned int iter);
	int (*verify)(struct exp_run *r);	/* after the stream is idle */
	void (*teardown)(struct exp_run *r);
};

extern const struct exp_workload *const exp_workloads[];
extern const unsigned int exp_nworkloads;

/* The workload @name names ("triad", "replay:FILE"), or NULL. */
const struct exp_workload *exp_workload_find(const char *name);
/* The ARG of "NAME:ARG", or NULL. */
const char *exp_workload_arg(const char *name);

/* `uvm-exp run ...` (uvm_exp.c); main() of uvm-exp and uvm-replay. */
int exp_cmd_run(int argc, char **argv);
/* replay:FILE's trace is readable and complete (or @allow): 0, or -1 said. */
int exp_replay_check(const char *path, bool allow);
int exp_main(int argc, char **argv);
/* @s as a JSON string, quotes included (uvm_exp.c). */
void exp_json_str(FILE *f, const char *s);

/* Wait for the run's stream: 0, or -EIO with the kernel's error said. */
int exp_sync(struct exp_run *r);

/* `uvm-exp sweep FILE [--out DIR]` (exp_sweep.c); @self: this program. */
int exp_sweep(const char *self, int argc, char **argv);

/* splitmix64: the workloads' generator (seeded, reproducible). */
static inline uint64_t exp_rand(uint64_t *s)
{
	uint64_t z = (*s += 0x9e3779b97f4a7c15ull);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

#endif /* UVM_EXP_H */
