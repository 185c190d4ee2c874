/* SPDX-License-Identifier: GPL-2.0 */
/*
 * bench_util.h - what the device-side benchmarks share: timing, medians,
 * fatal ioctl errors, and the raw copy baseline (the fastest of three copy
 * loops, measured each time).
 *
 * Each benchmark defines BENCH_NAME and the globals uvm_fd, dev_id and
 * dev_desc[] before including this file.
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

/*
 * Open /dev/uvm (uvm_fd) and pick the smallest device with id @want_dev
 * (-1: any) and backend @want_backend (0: any): sets dev_id and dev_desc.
 * Returns its memory size; exits with 1 if there is none.
 */
static uint64_t bench_pick_device(int want_dev, unsigned int want_backend)
{
	struct uvm_device_info info[UVM_MAX_DEVICES];
	struct uvm_get_info gi = { .devices = (uintptr_t)info,
				   .devices_count = UVM_MAX_DEVICES };
	uint64_t dev_mem = 0;
	unsigned int n, d;

	uvm_fd = open("/dev/uvm", O_RDWR | O_CLOEXEC);
	if (uvm_fd < 0)
		die("/dev/uvm");
	xioctl(UVM_IOCTL_GET_INFO, &gi, "UVM_IOCTL_GET_INFO");
	n = gi.num_devices < UVM_MAX_DEVICES ? gi.num_devices : UVM_MAX_DEVICES;
	dev_id = -1;
	for (d = 0; d < n; d++) {
		if (want_dev >= 0 ? (int)info[d].id != want_dev :
		    want_backend && info[d].backend != want_backend)
			continue;
		if (dev_id < 0 || info[d].mem_total < dev_mem) {
			dev_id = info[d].id;
			dev_mem = info[d].mem_total;
			snprintf(dev_desc, sizeof(dev_desc), "device %u, %s, %llu MiB",
				 info[d].id, info[d].backend == UVM_BACKEND_PCI_BAR ?
				 "PCI BAR" : "emulated",
				 (unsigned long long)(info[d].mem_total >> 20));
		}
	}
	if (dev_id < 0) {
		fprintf(stderr, "%s: no such device\n", BENCH_NAME);
		exit(1);
	}
	return dev_mem;
}

/* Both the raw mapping and the measured range live on the device. */
static size_t bench_cap_len(size_t len, uint64_t dev_mem)
{
	if (2 * len + 2 * MIB > dev_mem) {
		len = (dev_mem / 4) & ~(MIB - 1);
		fprintf(stderr, "%s: --size capped to %zu MiB\n", BENCH_NAME,
			len >> 20);
	}
	return len;
}

#endif /* BENCH_UTIL_H */
