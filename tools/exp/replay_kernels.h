/* SPDX-License-Identifier: GPL-2.0 */
/*
 * replay_kernels.h - a recording's kernel launches (the trace's own
 * kernel records, UVM_EVENT_KERNEL; or the FILE.kernels an earlier
 * record-nvidia wrote beside its trace: JSON Lines with name, start_ns
 * and end_ns on the trace's clock) and the replay's counts while it
 * redoes each kernel's records: what the cost model prices as that
 * kernel's time (docs/fidelity.md).
 */
#ifndef UVM_EXP_REPLAY_KERNELS_H
#define UVM_EXP_REPLAY_KERNELS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "exp_cost.h"

/* The counts of struct exp_cost_counts, as an array. */
enum { RPK_BATCHES, RPK_PAGES, RPK_H2D, RPK_D2H, RPK_D2D, RPK_CPU, RPK_EVICT, RPK_N };

struct rp_kernel {
	char name[128];
	uint64_t start, end;	/* ns, the trace's clock */
	uint64_t delta[RPK_N];	/* the replay's counts inside it */
};

struct rp_kernels {
	struct rp_kernel *v;
	size_t n, next;		/* next: the kernel being or to be counted */
	bool open;		/* inside v[next] */
	uint64_t begin[RPK_N];	/* the counts when it began */
};

/*
 * The kernel records of trace @trace (none: k->n 0); 0, or -1 with the
 * reason (file, record) in @err.
 */
int rpk_load_trace(struct rp_kernels *k, const char *trace, char *err, size_t len);
/*
 * Read @path: a trace (its kernel records, as rpk_load_trace()) or an old
 * FILE.kernels; 0, or -1 with the reason (file, line) in @err.
 */
int rpk_load(struct rp_kernels *k, const char *path, char *err, size_t len);
/* Does the record at @ts begin or end a kernel (then rpk_mark() it)? */
bool rpk_due(const struct rp_kernels *k, uint64_t ts);
/* A kernel begins or ends, with the counts @now. */
void rpk_mark(struct rp_kernels *k, const uint64_t *now);
/* The records are done: close the kernels left, with the counts @now. */
void rpk_finish(struct rp_kernels *k, const uint64_t *now);
/* The cost model's time of kernel @x's counts. */
double rpk_priced(const struct rp_kernel *x, const struct exp_cost *c);
/* Each kernel as a JSON array, priced by @c; malloc'd, or NULL. */
char *rpk_json(const struct rp_kernels *k, const struct exp_cost *c);
void rpk_free(struct rp_kernels *k);

#endif /* UVM_EXP_REPLAY_KERNELS_H */
