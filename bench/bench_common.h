/* SPDX-License-Identifier: GPL-2.0 */
/*
 * bench_common.h - what every benchmark shares, libuvm-based ones too:
 * fatal errors, timing, medians and the JSON line of one figure (the
 * contract with bench/report). Define BENCH_NAME before including it.
 */
#ifndef BENCH_COMMON_H
#define BENCH_COMMON_H

static inline void die(const char *what)
{
	fprintf(stderr, "%s: %s: %s\n", BENCH_NAME, what, strerror(errno));
	exit(1);
}

static inline double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec * 1e-9;
}

static inline int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

static inline double median(double *v, int n)
{
	qsort(v, n, sizeof(*v), cmp_double);
	return v[n / 2];
}

/* One figure as a JSON line: the contract with bench/report. */
static inline void report(const char *name, double value, const char *unit,
			  const char *baseline, double base, const char *goal)
{
	printf("{\"name\":\"%s\",\"value\":%.6g,\"unit\":\"%s\",\"baseline\":\"%s\","
	       "\"baseline_value\":%.6g,\"ratio\":%.4f,\"goal\":\"%s\"}\n",
	       name, value, unit, baseline, base, value / base, goal);
	fflush(stdout);
}

#endif /* BENCH_COMMON_H */
