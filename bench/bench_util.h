/* SPDX-License-Identifier: GPL-2.0 */
/*
 * bench_util.h - what the device-side benchmarks share: timing, medians,
 * fatal ioctl errors, and the raw copy baseline (the fastest of three copy
 * loops, measured each time).
 *
 * Each benchmark defines BENCH_NAME and the globals uvm_fd before
 * including this file.
 */
#ifndef BENCH_UTIL_H
#define BENCH_UTIL_H

static void die(const char *what)
{
	fprintf(stderr, "%s: %s: %s\n", BENCH_NAME, what, strerror(errno));
	exit(1);
}

static void xioctl(unsigned long cmd, void *arg, const char *what)
{
	if (ioctl(uvm_fd, cmd, arg))
		die(what);
}

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec * 1e-9;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

static double median(double *v, int n)
{
	qsort(v, n, sizeof(*v), cmp_double);
	return v[n / 2];
}

/*
 * Raw copies through a mapping. Under TCG the speed of a copy depends on
 * the instructions (glibc's vector loops, rep movsb and a plain 8-byte
 * loop such as the kernel's memcpy differ by 2x and more), so raw is the
 * fastest of the three, measured each time: the most demanding baseline.
 */
#define RAW_METHODS	3
static const char *const raw_method[RAW_METHODS] = {
	"memcpy", "rep movsb", "8-byte loop",
};

static void copy_method(int m, void *d, const void *s, size_t n)
{
	volatile uint64_t *dw = d;
	const volatile uint64_t *sw = s;
	size_t i;

	switch (m) {
	case 0:
		memcpy(d, s, n);
		break;
	case 1:
		asm volatile("rep movsb" : "+D"(d), "+S"(s), "+c"(n) : : "memory");
		break;
	default:
		for (i = 0; i + 4 <= n / 8; i += 4) {
			uint64_t a = sw[i], b = sw[i + 1], c = sw[i + 2],
				 e = sw[i + 3];

			dw[i] = a;
			dw[i + 1] = b;
			dw[i + 2] = c;
			dw[i + 3] = e;
		}
		break;
	}
}

/* Seconds of the fastest method; *best: its index. */
static double raw_copy_secs(void *d, const void *s, size_t n, int *best)
{
	double tmin = 0;
	int m;

	*best = 0;
	for (m = 0; m < RAW_METHODS; m++) {
		double t = now();

		copy_method(m, d, s, n);
		t = now() - t;
		if (!m || t < tmin) {
			tmin = t;
			*best = m;
		}
	}
	return tmin;
}

#endif /* BENCH_UTIL_H */
