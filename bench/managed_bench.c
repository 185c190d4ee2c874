// SPDX-License-Identifier: GPL-2.0
/*
 * Host-side managed-memory benchmarks. Every figure is reported as a ratio
 * to a baseline measured in the same run (under TCG only ratios mean
 * anything):
 *
 *   first_touch    managed CPU first touch per page / anonymous first touch
 *   prefetch_h2h   node-to-node prefetch throughput / move_pages(2) on the
 *                  same amount of anonymous memory, and / memcpy
 *   mmap_munmap    mmap+munmap of a 1 MiB managed range / anonymous
 *
 * Output: one JSON object per line (name, value, unit, baseline, ratio,
 * goal) on stdout, so runs can be collected and compared.
 *
 * Usage: managed_bench [--size MiB] [--reps N] [--sweep]
 *   --sweep  instead of the figures above: first touch and node-to-node
 *            prefetch for every size from 256 KiB to --size, doubling
 *            (names *_sweep_<KiB>kib; for plots)
 */
// BENCH-RUNS: "--size 64 --reps 5" "--sweep --size 64 --reps 3"
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "../include/uapi/uvm.h"

#define MIB (1024UL * 1024UL)

static size_t page_size;
static int uvm_fd;
#define BENCH_NAME "managed_bench"

#include "bench_util.h"


static double time_first_touch(size_t len, int managed)
{
	char *p = managed ? map_managed(len) : map_anon(len);
	double t = now();

	touch(p, len, 1);
	t = now() - t;
	munmap(p, len);
	return t / (len / page_size) * 1e9;	/* ns per page */
}

static void bench_first_touch(size_t len, int reps)
{
	double a[32], m[32];
	int i;

	for (i = 0; i < reps; i++) {
		a[i] = time_first_touch(len, 0);
		m[i] = time_first_touch(len, 1);
	}
	report("first_touch", median(m, reps), "ns/page",
	       "anonymous first touch", median(a, reps), "<= 0.75");
}

static int set_granule(unsigned int kb)
{
	char buf[16];
	int fd = open("/sys/module/uvm/parameters/fault_granule_kb", O_WRONLY);
	int n, ok;

	if (fd < 0)
		return -1;
	n = snprintf(buf, sizeof(buf), "%u", kb);
	ok = write(fd, buf, n) == n;
	close(fd);
	return ok ? 0 : -1;
}

static int prefetch(void *p, size_t len, int node)
{
	struct uvm_prefetch a = {
		.addr = (uintptr_t)p, .length = len,
		.dst = { .type = UVM_LOC_HOST_NUMA, .id = node },
	};

	return ioctl(uvm_fd, UVM_IOCTL_PREFETCH, &a);
}

static double time_move_pages(char *p, size_t len, int node)
{
	size_t n = len / page_size, i;
	void **pages = malloc(n * sizeof(*pages));
	int *nodes = malloc(n * sizeof(int)), *status = malloc(n * sizeof(int));
	double t;

	for (i = 0; i < n; i++) {
		pages[i] = p + i * page_size;
		nodes[i] = node;
	}
	t = now();
	if (syscall(SYS_move_pages, 0, n, pages, nodes, status, 0) < 0)
		perror("move_pages");
	t = now() - t;
	free(pages);
	free(nodes);
	free(status);
	return t;
}

/* Medians over @reps of prefetch, move_pages and memcpy, in GB/s. */
static void measure_prefetch(size_t len, int reps, double *pf_med,
			     double *mp_med, double *mc_med)
{
	double pf[32], mp[32], mc[32];
	char *m = map_managed(len), *a = map_anon_at(len, 0),
	     *b = map_anon_skewed(len);
	int i;

	pin_cpu(cpu_of_node(0));
	touch(m, len, 1);
	touch(a, len, 1);
	pin_cpu(cpu_of_node(1));
	touch(b, len, 1);
	for (i = 0; i < reps; i++) {
		double t = now();

		if (prefetch(m, len, (i + 1) & 1))
			perror("prefetch");
		pf[i] = len / (now() - t) / 1e9;
		mp[i] = len / time_move_pages(a, len, (i + 1) & 1) / 1e9;
		tlb_cold();
		t = now();
		memcpy((i & 1) ? a : b, (i & 1) ? b : a, len);
		mc[i] = len / (now() - t) / 1e9;
	}
	*pf_med = median(pf, reps);
	*mp_med = median(mp, reps);
	*mc_med = median(mc, reps);
	munmap(m, len);
	munmap(a, len);
	munmap(b, len);
}

static void bench_prefetch(size_t len, int reps)
{
	double pf, mp, mc;

	measure_prefetch(len, reps, &pf, &mp, &mc);
	report("prefetch_h2h_vs_move_pages", pf, "GB/s",
	       "move_pages(2)", mp, ">= 1.5");
	report("prefetch_h2h_vs_memcpy", pf, "GB/s",
	       "memcpy across nodes", mc, ">= 0.7");
}

/*
 * --sweep: node-to-node prefetch throughput for sizes 256 KiB .. --size,
 * doubling, one line per size ("prefetch_h2h_sweep_<KiB>kib"), baseline
 * move_pages(2) on the same size; and managed first touch per size
 * ("first_touch_sweep_<KiB>kib", baseline anonymous first touch).
 */
static void bench_sweep(size_t maxlen, int reps)
{
	double pf, mp, mc, a[32], m[32];
	char name[64];
	size_t len;
	int i;

	for (len = 256 * 1024; len <= maxlen; len *= 2) {
		for (i = 0; i < reps; i++) {
			a[i] = time_first_touch(len, 0);
			m[i] = time_first_touch(len, 1);
		}
		snprintf(name, sizeof(name), "first_touch_sweep_%zukib", len >> 10);
		report(name, median(m, reps), "ns/page", "anonymous first touch",
		       median(a, reps), "informational");
		if (cpu_of_node(1) < 0)
			continue;
		measure_prefetch(len, reps, &pf, &mp, &mc);
		snprintf(name, sizeof(name), "prefetch_h2h_sweep_%zukib", len >> 10);
		report(name, pf, "GB/s", "move_pages(2)", mp, "informational");
	}
}

static void bench_mmap(int iters)
{
	double tm, ta;
	int i;

	ta = now();
	for (i = 0; i < iters; i++)
		munmap(map_anon(MIB), MIB);
	ta = (now() - ta) / iters * 1e6;
	tm = now();
	for (i = 0; i < iters; i++)
		munmap(map_managed(MIB), MIB);
	tm = (now() - tm) / iters * 1e6;
	report("mmap_munmap_1mib", tm, "us", "anonymous mmap+munmap", ta,
	       "<= 5 us absolute on real hardware");
}

int main(int argc, char **argv)
{
	size_t len = 64 * MIB;
	int reps = 5, sweep = 0, i;
	char *warm;

	page_size = sysconf(_SC_PAGESIZE);
	for (i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--size") && i + 1 < argc)
			len = strtoul(argv[++i], NULL, 0) * MIB;
		else if (!strcmp(argv[i], "--reps") && i + 1 < argc)
			reps = atoi(argv[++i]);
		else if (!strcmp(argv[i], "--sweep"))
			sweep = 1;
	}
	if (reps < 1 || reps > 31)
		reps = 5;
	uvm_fd = open("/dev/uvm", O_RDWR | O_CLOEXEC);
	if (uvm_fd < 0) {
		perror("/dev/uvm");
		return 1;
	}
	/* Back guest RAM on the host once so no figure pays for it. */
	warm = map_anon(4 * len);
	touch(warm, 4 * len, 1);
	munmap(warm, 4 * len);

	if (sweep) {
		bench_sweep(len, reps);
		return 0;
	}
	bench_first_touch(len, reps);
	for (unsigned int kb = 4; kb <= 2048; kb *= 8) {
		char name[64];
		double a[32], m[32];

		if (set_granule(kb))
			break;
		for (i = 0; i < reps; i++) {
			a[i] = time_first_touch(len, 0);
			m[i] = time_first_touch(len, 1);
		}
		snprintf(name, sizeof(name), "first_touch_granule_%ukib", kb);
		report(name, median(m, reps), "ns/page", "anonymous first touch",
		       median(a, reps), "informational");
	}
	set_granule(64);
	if (cpu_of_node(1) >= 0)
		bench_prefetch(len, reps);
	bench_mmap(1000);
	return 0;
}
