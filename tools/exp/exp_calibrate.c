// SPDX-License-Identifier: GPL-2.0
/*
 * exp_calibrate.c - `uvm-exp calibrate [--json FILE] [--out DIR] [--all]
 * TRACE...` (docs/fidelity.md, "Calibrating the cost model").
 *
 * Fits the cost model's per-batch, per-page, per-copy and bandwidth terms
 * to the kernel times recorded on a GPU. Each recording (record-nvidia's
 * trace with its kernel launches, and nvwl's kernel times beside it, as it
 * ran and with its data resident) gives one equation: the time its kernels
 * took beyond their own work against what the recording did inside them:
 *
 *   measured - own = batches * batch_us + pages * page_us + copies * copy_us
 *                  + h2d_bytes / h2d_GBps + d2h_bytes / d2h_GBps
 *
 * solved by non-negative least squares on the relative error (each
 * equation divided by its measured time). The fit uses every other
 * recording by name (--all: every one) and reports the error of each, the
 * fitted and the held-out ones apart, so that a fit that only learns its
 * own recordings shows. A term no fitted recording exercises keeps its
 * default. Needs no module: it reads the recordings only.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "fidelity.h"

#define CAL_MAX		256
#define CAL_ITERS	20000
#define CAL_FREE_GBPS	1e4	/* a rate fitted to cost nothing: the largest */

/* The fitted terms: name, the cost parameter it sets, its unit in seconds. */
enum { T_BATCH, T_PAGE, T_COPY, T_H2D, T_D2H, T_N };

static const struct {
	const char *name;
	double unit;	/* seconds per count per unit of the parameter */
	bool rate;	/* the parameter is GB/s: its inverse is fitted */
} terms[T_N] = {
	[T_BATCH] = { "batch_us", 1e-6, false },
	[T_PAGE] = { "page_us", 1e-6, false },
	[T_COPY] = { "copy_us", 1e-6, false },
	[T_H2D] = { "h2d_GBps", 1e-9, true },
	[T_D2H] = { "d2h_GBps", 1e-9, true },
};

/* One recording, its kernels summed. */
struct cal_case {
	char name[64];
	bool usable, fit;
	char why[160];		/* not usable: why */
	double meas, own;	/* seconds */
	double x[T_N];		/* the counts */
	double model, err;	/* seconds; percent */
};

struct cal_opts {
	const char *json, *out;
	bool all;
	bool eval;		/* --eval: price with @cost, fit nothing */
	struct exp_cost cost;
};

static void cal_usage(FILE *f)
{
	fprintf(f,
		"usage: uvm-exp calibrate [--json FILE] [--out DIR] [--all | --eval [--cost P]]\n"
		"                         TRACE...\n"
		"  TRACE      a recording of NVIDIA's driver with its kernel launches\n"
		"             (uvm-trace record-nvidia; or its .xz), CASE.untraced.json\n"
		"             and CASE.resident.json beside it (bench/nvidia/time-kernels)\n"
		"  --json F   the fit as one JSON object\n"
		"  --out DIR  where .xz recordings are decompressed (default calibrate)\n"
		"  --all      fit on every recording (default: every other one by name,\n"
		"             the rest held out)\n"
		"  --eval     fit nothing: each recording's error under the defaults\n"
		"             (or --cost P, as uvm-exp run), all held out\n");
}

static int cal_parse(int argc, char **argv, struct cal_opts *o, int *first)
{
	struct stat st;
	int i;

	*o = (struct cal_opts){ .out = "calibrate" };
	exp_cost_default(&o->cost);
	for (i = 2; i < argc && argv[i][0] == '-'; i++) {
		const char *bad;

		if (!strcmp(argv[i], "--all")) {
			o->all = true;
		} else if (!strcmp(argv[i], "--eval")) {
			o->eval = true;
		} else if (!strcmp(argv[i], "--cost") && i + 1 < argc) {
			if (exp_cost_parse(&o->cost, argv[++i], &bad)) {
				fprintf(stderr, "uvm-exp calibrate: --cost: bad item '%s'\n", bad);
				return 2;
			}
		} else if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
			cal_usage(stdout);
			exit(0);
		} else if ((!strcmp(argv[i], "--json") || !strcmp(argv[i], "--out")) &&
			   i + 1 < argc) {
			*(argv[i][2] == 'j' ? &o->json : &o->out) = argv[i + 1];
			i++;
		} else {
			fprintf(stderr, "uvm-exp calibrate: bad option '%s'\n", argv[i]);
			cal_usage(stderr);
			return 2;
		}
	}
	if (o->all && o->eval) {
		fprintf(stderr, "uvm-exp calibrate: --all fits, --eval does not: one of them\n");
		return 2;
	}
	if (i == argc || argc - i > CAL_MAX) {
		fprintf(stderr, "uvm-exp calibrate: %s\n",
			i == argc ? "no recording" : "too many recordings");
		cal_usage(stderr);
		return 2;
	}
	for (*first = i; i < argc; i++)
		if (stat(argv[i], &st) || !S_ISREG(st.st_mode)) {
			fprintf(stderr, "uvm-exp calibrate: %s: no such file\n", argv[i]);
			return 2;
		}
	return 0;
}

/* Sum @f's kernels that were timed both ways into @c. */
static void cal_sum(struct cal_case *c, const struct fid_case *f)
{
	size_t i;

	snprintf(c->name, sizeof(c->name), "%s", f->name);
	if (!f->nk) {
		snprintf(c->why, sizeof(c->why), "no kernel launches recorded");
		return;
	}
	for (i = 0; i < f->nk; i++) {
		const struct fid_kernel *k = &f->k[i];

		if (k->measured_s < 0 || k->own_s < 0)
			continue;
		c->meas += k->measured_s;
		c->own += k->own_s;
		c->x[T_BATCH] += (double)k->rec[RPK_BATCHES];
		c->x[T_PAGE] += (double)k->rec[RPK_PAGES];
		c->x[T_COPY] += (double)k->rec[FIDK_COPIES];
		c->x[T_H2D] += (double)k->rec[RPK_H2D];
		c->x[T_D2H] += (double)k->rec[RPK_D2H];
		c->usable = true;
	}
	if (!c->usable)
		snprintf(c->why, sizeof(c->why), "no kernel timed as it ran and resident "
			 "(CASE.untraced.json, CASE.resident.json)");
}

/*
 * min |A p - b|^2 over p >= 0 (@m rows of T_N), by cyclic coordinate
 * descent on the normal equations; terms with an all-zero column stay 0
 * and are flagged in @used.
 */
static void nnls(const double (*a)[T_N], const double *b, size_t m, double *p, bool *used)
{
	double g[T_N][T_N] = { { 0 } }, h[T_N] = { 0 };
	size_t i, j, r, it;

	for (r = 0; r < m; r++)
		for (i = 0; i < T_N; i++) {
			h[i] += a[r][i] * b[r];
			for (j = 0; j < T_N; j++)
				g[i][j] += a[r][i] * a[r][j];
		}
	for (i = 0; i < T_N; i++) {
		p[i] = 0;
		used[i] = g[i][i] > 0;
	}
	for (it = 0; it < CAL_ITERS; it++)
		for (i = 0; i < T_N; i++) {
			double grad = -h[i];

			if (!used[i])
				continue;
			for (j = 0; j < T_N; j++)
				grad += g[i][j] * p[j];
			p[i] = fmax(0, p[i] - grad / g[i][i]);
		}
}

/* Fit on the cases marked fit: @sec[T] seconds per count; @used[T]. */
static void cal_fit(const struct cal_case *c, size_t n, double *sec, bool *used)
{
	double (*a)[T_N] = calloc(n ? n : 1, sizeof(*a)), *b = calloc(n ? n : 1, sizeof(*b));
	double scale[T_N] = { 0 };
	size_t i, m = 0, t;

	if (!a || !b)
		goto out;
	for (i = 0; i < n; i++)
		for (t = 0; t < T_N && c[i].usable && c[i].fit; t++)
			scale[t] = fmax(scale[t], c[i].x[t]);
	for (i = 0; i < n; i++) {
		if (!c[i].usable || !c[i].fit || c[i].meas <= 0)
			continue;
		for (t = 0; t < T_N; t++)	/* columns scaled to 1: conditioning */
			a[m][t] = scale[t] > 0 ? c[i].x[t] / scale[t] / c[i].meas : 0;
		b[m++] = (c[i].meas - c[i].own) / c[i].meas;
	}
	nnls((const double (*)[T_N])a, b, m, sec, used);
	for (t = 0; t < T_N; t++)
		sec[t] = scale[t] > 0 ? sec[t] / scale[t] : 0;
out:
	free(a);
	free(b);
}

/* --eval: @cost's seconds per count (the model has no per-copy term). */
static void cal_from_cost(const struct exp_cost *cost, double *sec, bool *used)
{
	unsigned int t, i;

	for (t = 0; t < T_N; t++) {
		sec[t] = 0;
		used[t] = false;
		for (i = 0; i < EXP_COST_PARAMS; i++)
			if (!strcmp(exp_cost_name(i), terms[t].name)) {
				sec[t] = terms[t].rate ? terms[t].unit / cost->v[i] :
					cost->v[i] * terms[t].unit;
				used[t] = true;
			}
	}
}

/* The fitted seconds per count as cost parameters, into @cost. */
static void cal_params(const double *sec, const bool *used, struct exp_cost *cost,
		       double *param)
{
	unsigned int t, i;

	exp_cost_default(cost);
	for (t = 0; t < T_N; t++) {
		param[t] = terms[t].rate ? (sec[t] > 0 ? terms[t].unit / sec[t] : CAL_FREE_GBPS) :
			sec[t] / terms[t].unit;
		for (i = 0; i < EXP_COST_PARAMS; i++)
			if (used[t] && !strcmp(exp_cost_name(i), terms[t].name))
				cost->v[i] = param[t];
	}
}

static double median(double *v, size_t n)
{
	size_t i, j;

	for (i = 1; i < n; i++)
		for (j = i; j > 0 && v[j - 1] > v[j]; j--) {
			double t = v[j];

			v[j] = v[j - 1];
			v[j - 1] = t;
		}
	return !n ? -1 : n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

/* Each case's modelled time and error; the medians (fit, held, all). */
static void cal_errors(struct cal_case *c, size_t n, const double *sec, double *med)
{
	double *v[3];
	size_t nv[3] = { 0 }, i, t;

	for (i = 0; i < 3; i++)
		v[i] = calloc(n ? n : 1, sizeof(double));
	for (i = 0; i < n; i++) {
		if (!c[i].usable)
			continue;
		c[i].model = c[i].own;
		for (t = 0; t < T_N; t++)
			c[i].model += c[i].x[t] * sec[t];
		c[i].err = c[i].meas > 0 ? fabs(c[i].model - c[i].meas) / c[i].meas * 100 : 0;
		if (v[0] && v[1] && v[2]) {
			v[c[i].fit ? 0 : 1][nv[c[i].fit ? 0 : 1]++] = c[i].err;
			v[2][nv[2]++] = c[i].err;
		}
	}
	for (i = 0; i < 3; i++) {
		med[i] = v[i] ? median(v[i], nv[i]) : -1;
		free(v[i]);
	}
}

static void cal_print(FILE *f, const struct cal_case *c, size_t n, const double *param,
		      const bool *used, const double *med, const struct exp_cost *cost,
		      bool fitted)
{
	unsigned int t, i;

	fprintf(f, "%-22s %-5s %10s %10s %10s %7s\n", "recording", "set", "measured",
		"own work", "modelled", "error");
	for (i = 0; i < n; i++) {
		if (!c[i].usable) {
			fprintf(f, "%-22s %-5s %s\n", c[i].name, "-", c[i].why);
			continue;
		}
		fprintf(f, "%-22s %-5s %8.2fms %8.2fms %8.2fms %6.1f%%\n", c[i].name,
			c[i].fit ? "fit" : "held", c[i].meas * 1e3, c[i].own * 1e3,
			c[i].model * 1e3, c[i].err);
	}
	fprintf(f, "median error:");
	for (i = 0; i < 3; i++)
		if (med[i] >= 0)
			fprintf(f, " %s %.1f %%", (const char *[]){ "fitted", "held out", "all" }[i],
				med[i]);
	fprintf(f, "\n");
	for (t = 0; t < T_N && fitted; t++)
		if (!used[t])
			fprintf(f, "%s: no data (no fitted recording has any): the default kept\n",
				terms[t].name);
		else
			fprintf(f, "fitted %s = %.4g\n", terms[t].name, param[t]);
	if (fitted && used[T_COPY] && param[T_COPY] > 0)
		fprintf(f, "note: the cost model has no per-copy term (uvm.ko reports a "
			"migration per block, not per copy): copy_us is not in --cost\n");
	fprintf(f, fitted ? "--cost " : "priced with --cost ");
	for (i = 0; i < EXP_COST_PARAMS; i++)
		fprintf(f, "%s%s=%.4g", i ? "," : "", exp_cost_name(i), cost->v[i]);
	fprintf(f, "\n");
}

static int cal_json(const char *path, const struct cal_case *c, size_t n,
		    const double *param, const bool *used, const double *med,
		    const struct exp_cost *cost)
{
	FILE *f = fopen(path, "we");
	unsigned int t;
	size_t i;

	if (!f)
		return -1;
	fprintf(f, "{\"terms\":{");
	for (t = 0; t < T_N; t++)
		fprintf(f, "%s\"%s\":{\"fitted\":%s,\"value\":%.6g}", t ? "," : "",
			terms[t].name, used[t] ? "true" : "false",
			used[t] ? param[t] : -1);
	fprintf(f, "},\"cost\":{");
	exp_cost_json(f, cost);
	fprintf(f, "},\"median_err_fit\":%.3f,\"median_err_held\":%.3f,"
		"\"median_err_all\":%.3f,\"cases\":[", med[0], med[1], med[2]);
	for (i = 0; i < n; i++) {
		fprintf(f, "%s{\"name\":\"%s\",\"usable\":%s", i ? "," : "", c[i].name,
			c[i].usable ? "true" : "false");
		if (c[i].usable)
			fprintf(f, ",\"set\":\"%s\",\"measured_s\":%.9f,\"own_s\":%.9f,"
				"\"modelled_s\":%.9f,\"err_pct\":%.3f", c[i].fit ? "fit" : "held",
				c[i].meas, c[i].own, c[i].model, c[i].err);
		fprintf(f, "}");
	}
	fprintf(f, "]}\n");
	return fclose(f);
}

static int by_name(const void *a, const void *b)
{
	return strcmp(((const struct cal_case *)a)->name, ((const struct cal_case *)b)->name);
}

/* Load the recordings into @c; 0, or 1 if one could not be read. */
static int cal_load(struct cal_case *c, int argc, char **argv, int first,
		    const struct cal_opts *co)
{
	struct fid_opts o = { .out = co->out, .policy = "" };
	struct fid_case *f = calloc((size_t)(argc - first), sizeof(*f));
	int i, st = 0;

	if (!f)
		return 1;
	exp_cost_default(&o.cost);
	for (i = first; i < argc; i++) {
		struct fid_case *x = &f[i - first];

		if (fid_load(x, &o, argv[i])) {
			fprintf(stderr, "uvm-exp calibrate: %s: %s\n", argv[i], x->error);
			st = 1;
			continue;
		}
		cal_sum(&c[i - first], x);
	}
	fid_free_cases(f, (size_t)(argc - first));
	return st;
}

int exp_calibrate(int argc, char **argv)
{
	double sec[T_N], param[T_N], med[3];
	struct exp_cost cost;
	struct cal_opts o;
	struct cal_case *c;
	bool used[T_N];
	int first = 0, st;
	size_t n, i, k = 0;

	st = cal_parse(argc, argv, &o, &first);
	if (st)
		return st;
	if (mkdir(o.out, 0755) && errno != EEXIST) {
		fprintf(stderr, "uvm-exp calibrate: %s: %s\n", o.out, strerror(errno));
		return 1;
	}
	n = (size_t)(argc - first);
	c = calloc(n, sizeof(*c));
	if (!c)
		return 1;
	st = cal_load(c, argc, argv, first, &o);
	qsort(c, n, sizeof(*c), by_name);
	for (i = 0; i < n; i++)
		if (c[i].usable)
			c[i].fit = !o.eval && (o.all || !(k++ % 2));
	if (o.eval) {
		k = n;
		cal_from_cost(&o.cost, sec, used);
		cost = o.cost;
		for (i = 0; i < T_N; i++)
			param[i] = terms[i].rate ? terms[i].unit / fmax(sec[i], 1e-30) :
				sec[i] / terms[i].unit;
	} else {
		cal_fit(c, n, sec, used);
		cal_params(sec, used, &cost, param);
	}
	cal_errors(c, n, sec, med);
	cal_print(stdout, c, n, param, used, med, &cost, !o.eval);
	if (o.json && cal_json(o.json, c, n, param, used, med, &cost)) {
		fprintf(stderr, "uvm-exp calibrate: %s: %s\n", o.json, strerror(errno));
		st = 1;
	}
	if (!k) {
		fprintf(stderr, "uvm-exp calibrate: no recording has kernels timed both ways\n");
		st = 1;
	}
	free(c);
	return st;
}
