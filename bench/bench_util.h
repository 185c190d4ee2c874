/* SPDX-License-Identifier: GPL-2.0 */
/*
 * bench_util.h - what the benchmarks share: timing, medians, fatal errors,
 * the JSON line of one figure, mappings, counters; with BENCH_DEVICE also
 * device selection and the raw copy baseline (the fastest of three copy
 * loops, measured each time).
 *
 * Each benchmark defines BENCH_NAME and the globals page_size and uvm_fd
 * (with BENCH_DEVICE also dev_id and dev_desc[]) before including it.
 */
#ifndef BENCH_UTIL_H
#define BENCH_UTIL_H

#include "bench_common.h"

static inline void xioctl(unsigned long cmd, void *arg, const char *what)
{
	if (ioctl(uvm_fd, cmd, arg))
		die(what);
}

static inline void *xmmap(size_t len, int prot, int flags, int fd, off_t off,
			  const char *what)
{
	void *p = mmap(NULL, len, prot, flags, fd, off);

	if (p == MAP_FAILED)
		die(what);
	return p;
}

static inline void *map_managed(size_t len)
{
	return xmmap(len, PROT_READ | PROT_WRITE, MAP_SHARED, uvm_fd, 0,
		     "mmap /dev/uvm");
}

/* Anonymous memory in 4 KiB pages, like managed memory. */
static inline void *map_anon(size_t len)
{
	void *p = xmmap(len, PROT_READ | PROT_WRITE,
			MAP_PRIVATE | MAP_ANONYMOUS, -1, 0, "mmap anonymous");

	madvise(p, len, MADV_NOHUGEPAGE);
	return p;
}

/*
 * map_anon() starting @skew pages past a 2 MiB boundary, like a managed
 * range (@skew 0).
 */
static inline void *map_anon_at(size_t len, size_t skew)
{
	size_t align = 2 << 20, over = len + 2 * align;
	char *p = map_anon(over), *q;

	q = (char *)(((uintptr_t)p + align - 1) & ~(uintptr_t)(align - 1)) +
	    skew * page_size;
	if (q > p)
		munmap(p, q - p);
	munmap(q + len, p + over - (q + len));
	return q;
}

/*
 * The buffer at the host end of every timed user-space copy: 21 pages past
 * a 2 MiB boundary, while the other end (a managed range, map_anon_at(len,
 * 0)) starts on one. QEMU's TCG keeps a direct-mapped TLB of a power of two
 * entries (64 and up): two pages a multiple of that apart take the same
 * entry, and a copy loop touching both evicts its own translations at every
 * access. glibc's large memcpy() also interleaves four pages at a time, so
 * pages up to 3 entries apart are in use together. Measured in one VM (16
 * MiB, distance len + k pages): k = 0 ran memcpy() at 2.0 GB/s and an
 * 8-byte loop at 0.4, k = 1 memcpy() at 2.8, k = 21 (or anything not within
 * 3 of a multiple of 64) at 3.7 and 4.0. Every copy's source and
 * destination are now 512 m + 21 pages apart, the figures and their
 * baselines on equal terms.
 */
static inline void *map_anon_skewed(size_t len)
{
	return map_anon_at(len, 21);
}

/* Run on @cpu only (needs _GNU_SOURCE and <sched.h>); -1: anywhere. */
static inline void pin_cpu(int cpu)
{
	cpu_set_t set;

	if (cpu < 0)
		return;
	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	sched_setaffinity(0, sizeof(set), &set);
}

/* The first CPU of NUMA node @node, or -1. */
static inline int cpu_of_node(int node)
{
	char path[96];
	int cpu;

	for (cpu = 0; cpu < 256; cpu++) {
		snprintf(path, sizeof(path),
			 "/sys/devices/system/cpu/cpu%d/node%d", cpu, node);
		if (!access(path, F_OK))
			return cpu;
	}
	return -1;
}

/* Write @v to one byte of every page. */
static inline void touch(char *p, size_t len, char v)
{
	size_t i;

	for (i = 0; i < len; i += page_size)
		p[i] = v;
}

static inline uint64_t stat_get(unsigned int stat)
{
	uint64_t v[UVM_STAT_COUNT] = { 0 };
	struct uvm_stats a = {
		.values = (uintptr_t)v, .count = UVM_STAT_COUNT,
		.scope = UVM_STATS_VA_SPACE,
	};

	xioctl(UVM_IOCTL_STATS, &a, "UVM_IOCTL_STATS");
	return v[stat];
}

/*
 * Start the next timed copy with no translation cached: munmap() of more
 * than 33 populated pages makes x86 Linux flush this CPU's whole TLB (a CR3
 * write, which flushes every translation of QEMU's TCG). A copy of the same
 * 16 MiB repeated without a flush in between ran at up to 6 GB/s under TCG
 * once its TLB had grown past the 8192 pages of source and destination,
 * against 3.5-4.5 GB/s with a TLB refill per page, the state every
 * migration starts in (and any copy of this size on hardware, whose TLBs
 * hold a few thousand entries). Which of the two a baseline measured
 * depended on the TLB's size at that moment.
 */
static inline void tlb_cold(void)
{
	size_t len = 64 * page_size;
	char *p = xmmap(len, PROT_READ | PROT_WRITE,
			MAP_PRIVATE | MAP_ANONYMOUS | MAP_POPULATE, -1, 0,
			"mmap for a TLB flush");

	munmap(p, len);
}

#ifdef BENCH_DEVICE

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

static inline void copy_method(int m, void *d, const void *s, size_t n)
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
/*
 * Seconds for the fastest method to copy @n bytes; a copy of more than a
 * page starts with a cold TLB (tlb_cold()), a page-sized one (a latency
 * baseline) with a warm one.
 */
static inline double raw_copy_secs(void *d, const void *s, size_t n, int *best)
{
	double tmin = 0;
	int m;

	*best = 0;
	for (m = 0; m < RAW_METHODS; m++) {
		double t;

		if (n > page_size)
			tlb_cold();
		t = now();

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
static inline uint64_t bench_pick_device(int want_dev, unsigned int want_backend)
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
static inline size_t bench_cap_len(size_t len, uint64_t dev_mem)
{
	if (2 * len + 2 * MIB > dev_mem) {
		len = (dev_mem / 4) & ~(MIB - 1);
		fprintf(stderr, "%s: --size capped to %zu MiB\n", BENCH_NAME,
			len >> 20);
	}
	return len;
}
#endif /* BENCH_DEVICE */

#endif /* BENCH_UTIL_H */
