/* SPDX-License-Identifier: GPL-2.0 */
/*
 * exp_cost.h - uvm-exp's cost model: a run's counts priced as the time a
 * real PCIe GPU's driver would spend on them (docs/experiments.md,
 * "Modelled time"; the defaults fitted by `uvm-exp calibrate`).
 */
#ifndef UVM_EXP_COST_H
#define UVM_EXP_COST_H

#include <stdint.h>
#include <stdio.h>

/* The parameters, by name, in struct exp_cost's order. */
#define EXP_COST_PARAMS	7

struct exp_cost {
	double v[EXP_COST_PARAMS];
};

/* The counts it prices (a run's counter deltas). */
struct exp_cost_counts {
	uint64_t fault_batches, fault_batch_pages;
	uint64_t h2d_bytes, d2h_bytes, d2d_bytes;
	uint64_t cpu_faults, evictions;
};

/* The defaults (fitted to an H200's recordings, PCIe 5, driver 580). */
void exp_cost_default(struct exp_cost *c);
/*
 * Override from "name=value,..." (names as exp_cost_name()); 0, or -1
 * with *@bad pointing at the offending item.
 */
int exp_cost_parse(struct exp_cost *c, const char *spec, const char **bad);
const char *exp_cost_name(unsigned int i);
/* Seconds the counts cost. */
double exp_cost_time(const struct exp_cost *c, const struct exp_cost_counts *n);
/* The parameters as a JSON object's members ("cost_NAME":value,...). */
void exp_cost_json(FILE *f, const struct exp_cost *c);

#endif /* UVM_EXP_COST_H */
