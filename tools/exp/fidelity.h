/* SPDX-License-Identifier: GPL-2.0 */
/*
 * fidelity.h - `uvm-exp fidelity`: recordings of NVIDIA's driver replayed
 * on uvm.ko under a preset, side by side (docs/fidelity.md). exp_fidelity.c
 * gathers both sides, fidelity_report.c compares them against the goals
 * and writes the table, the JSON and the plots.
 */
#ifndef UVM_EXP_FIDELITY_H
#define UVM_EXP_FIDELITY_H

#include <limits.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "exp_cost.h"
#include "exp_detail.h"
#include "replay_kernels.h"

/* struct fid_kernel.rec[]: RPK_*, then the migration records (copies). */
#define FIDK_COPIES	RPK_N
#define FIDK_N		(RPK_N + 1)
#define MAX_FID_TIMED	64	/* timed sections read of one nvwl run */

/* One kernel: measured on the GPU, recorded, and priced by the model. */
struct fid_kernel {
	char name[128];
	double measured_s;	/* without the recorder (CUDA events); < 0: none */
	double own_s;		/* the same with its data resident; < 0: none */
	double recorded_s;	/* under the recorder (CUPTI) */
	double modelled_s;	/* own work + the replay's counts inside it, priced */
	double modelled_rec_s;	/* own work + the recording's counts inside it, priced */
	uint64_t rec[FIDK_N];	/* the recording's counts inside it */
};

/* struct fid_case.goal[] */
enum { G_DIRECTION, G_CAUSE, G_OPS, G_CPU_BLOCK, G_KTIME, G_NR };

struct fid_goal {
	bool applies;		/* the workload has what the goal measures */
	bool met;
	double err;		/* percent (worst of its parts); G_CPU_BLOCK: faults per block */
	char why[320];		/* a miss: what differs and why */
};

/* One recording and its replay. */
struct fid_case {
	char name[64];
	char source[PATH_MAX];	/* as given */
	char trace[PATH_MAX];	/* the trace read (decompressed into --out) */
	char kernels[PATH_MAX];	/* its kernel launches, or "" */
	char untraced[PATH_MAX];	/* its kernel times without the recorder, or "" */
	char resident[PATH_MAX];	/* and with the data resident, or "" */
	bool ok;		/* both sides there */
	char error[400];
	struct exp_detail rec, rep;
	double rep_modelled_s;	/* the whole replay, priced */
	struct fid_kernel *k;
	size_t nk;
	struct fid_goal goal[G_NR];
};

struct fid_opts {
	const char *out;
	const char *json;
	const char *policy;
	const char *cost_spec;
	const char *device;	/* --device, or NULL (the replay's default) */
	struct exp_cost cost;
	bool allow_incomplete;
};

extern const char *const fid_goal_names[G_NR];

/* `uvm-exp fidelity TRACE...` (exp_fidelity.c); @self: this program. */
int exp_fidelity(const char *self, int argc, char **argv);
/*
 * The recording @src (a trace or its .xz, decompressed into o->out) and
 * what is beside it: its counts, its kernels with their counts and times,
 * priced by o->cost; 0, or -1 with the reason in c->error.
 */
/* `uvm-exp calibrate TRACE...` (exp_calibrate.c). */
int exp_calibrate(int argc, char **argv);
int fid_load(struct fid_case *c, const struct fid_opts *o, const char *src);
void fid_free_cases(struct fid_case *c, size_t n);

/* fidelity_kernels.c: count record @e into the kernel it falls in. */
void fidk_take(struct fid_case *c, const struct rp_kernels *k, const struct uvm_event *e);
/* Each kernel's measured_s and own_s: medians of CASE.untraced/resident.json. */
void fidk_times(struct fid_case *c);
/* A kernel's own work in seconds (0 where not measured). */
double fidk_own(const struct fid_kernel *k);
/* A kernel's recorded counts, as the cost model takes them. */
void fidk_counts(const struct fid_kernel *k, struct exp_cost_counts *n);

/* Judge @c against the goals (fills c->goal). */
void fid_judge(struct fid_case *c);
/* The side-by-side table of @c, to @f. */
void fid_table(FILE *f, const struct fid_case *c);
/* Every case's goals, one line each, and the median kernel-time error. */
void fid_summary(FILE *f, const struct fid_case *c, size_t n);
/* Everything as one JSON object; 0 or -1 (errno). */
int fid_json(const char *path, const struct fid_opts *o, const struct fid_case *c,
	     size_t n);
/* DIR/NAME.dat and .gp per case, and the plots if gnuplot is there. */
void fid_plots(const struct fid_opts *o, const struct fid_case *c, size_t n);

#endif /* UVM_EXP_FIDELITY_H */
