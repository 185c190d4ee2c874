// SPDX-License-Identifier: GPL-2.0
/*
 * exp_cost.c - the cost model of uvm-exp's modelled time (exp_cost.h).
 *
 *   modelled = fault_batches * batch_us + fault_batch_pages * page_us
 *            + h2d_bytes / h2d_GBps + d2h_bytes / d2h_GBps
 *            + d2d_bytes / d2d_GBps + cpu_faults * cpu_fault_us
 *            + evictions * evict_us
 *
 * The defaults: batch_us, page_us and h2d_GBps fitted by `uvm-exp
 * calibrate` to the kernel times of the H200 recordings
 * (bench/nvidia/cost-fit.json, `make calibrate`); the rest, which no
 * recorded kernel exercises, measured one microbenchmark at a time
 * (bench/calib/uvm_costs.cu on an H100). docs/experiments.md, "Modelled
 * time", says how to do either on another machine.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "exp_cost.h"

static const struct {
	const char *name;
	double def;
	double min, max;
} params[EXP_COST_PARAMS] = {
	{ "batch_us", 16.11, 0, 1e6 },		/* per fault batch (fitted) */
	{ "page_us", 1.524, 0, 1e6 },		/* per faulted page (fitted) */
	{ "h2d_GBps", 21.35, 1e-3, 1e4 },	/* host to device, fault-driven (fitted) */
	{ "d2h_GBps", 10.3, 1e-3, 1e4 },	/* link, device to host */
	{ "d2d_GBps", 47.7, 1e-3, 1e4 },	/* device to device */
	{ "cpu_fault_us", 7.0, 0, 1e6 },	/* per CPU fault */
	{ "evict_us", 60.0, 0, 1e6 },		/* per chunk evicted */
};

enum { BATCH, PAGE, H2D, D2H, D2D, CPU, EVICT };

void exp_cost_default(struct exp_cost *c)
{
	unsigned int i;

	for (i = 0; i < EXP_COST_PARAMS; i++)
		c->v[i] = params[i].def;
}

const char *exp_cost_name(unsigned int i)
{
	return i < EXP_COST_PARAMS ? params[i].name : NULL;
}

/* One "name=value" of @len bytes; 0 or -1. */
static int cost_item(struct exp_cost *c, const char *s, size_t len)
{
	char buf[64], *end, *eq;
	unsigned int i;
	double v;

	if (len >= sizeof(buf))
		return -1;
	memcpy(buf, s, len);
	buf[len] = 0;
	eq = strchr(buf, '=');
	if (!eq)
		return -1;
	*eq = 0;
	for (i = 0; i < EXP_COST_PARAMS; i++)
		if (!strcmp(buf, params[i].name))
			break;
	if (i == EXP_COST_PARAMS)
		return -1;
	errno = 0;
	v = strtod(eq + 1, &end);
	if (errno || end == eq + 1 || *end || !(v >= params[i].min) ||
	    v > params[i].max)
		return -1;
	c->v[i] = v;
	return 0;
}

int exp_cost_parse(struct exp_cost *c, const char *spec, const char **bad)
{
	const char *s = spec, *comma;
	size_t len;

	for (;;) {
		comma = strchr(s, ',');
		len = comma ? (size_t)(comma - s) : strlen(s);
		if (cost_item(c, s, len)) {
			*bad = s;
			return -1;
		}
		if (!comma)
			return 0;
		s = comma + 1;
	}
}

double exp_cost_time(const struct exp_cost *c, const struct exp_cost_counts *n)
{
	const double us = 1e-6, gb = 1e9;

	return n->fault_batches * c->v[BATCH] * us +
	       n->fault_batch_pages * c->v[PAGE] * us +
	       n->h2d_bytes / (c->v[H2D] * gb) + n->d2h_bytes / (c->v[D2H] * gb) +
	       n->d2d_bytes / (c->v[D2D] * gb) + n->cpu_faults * c->v[CPU] * us +
	       n->evictions * c->v[EVICT] * us;
}

void exp_cost_json(FILE *f, const struct exp_cost *c)
{
	unsigned int i;

	for (i = 0; i < EXP_COST_PARAMS; i++)
		fprintf(f, "%s\"cost_%s\":%.6g", i ? "," : "", params[i].name, c->v[i]);
}
