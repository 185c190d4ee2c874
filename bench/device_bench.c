// SPDX-License-Identifier: GPL-2.0
/*
 * Device-side managed-memory benchmarks (issue 4). Every figure is a ratio
 * to a baseline measured in the same run (under TCG only ratios mean
 * anything).
 *
 * "raw" is a CPU copy through the CPU mapping of the same device memory: a
 * managed range with preferred location = the device, prefetched there and
 * touched once by the CPU, so every CPU PTE points at the device memory
 * itself (the BAR, write-combined, for a PCI device; the backing RAM pages
 * for the emulated one; checked with UVM_STAT_CPU_DEVICE_MAPS). After that
 * a user-space copy into or out of that range moves bytes exactly as the
 * backend's copy does, with no uvm code on the way: raw h2d = copy(devmem,
 * host), raw d2h = copy(host, devmem), each the fastest of glibc memcpy,
 * rep movsb and an 8-byte loop (see raw_copy_secs()).
 *
 *   prefetch_h2d / _d2h      UVM_IOCTL_PREFETCH of a host-resident range to
 *                            the device and back / raw          (>= 0.9)
 *   device_fault_migrate     UVM_IOCTL_DEVICE_ACCESS sweep (one 64-byte
 *                            read per page, 4096 accesses per call) over
 *                            host-resident data: device faults migrate
 *                            every page / raw h2d               (>= 0.6)
 *   device_access_resident   the same sweep over device-resident data (no
 *                            faults): the access path's own cost
 *   cpu_faultback            CPU memcpy() out of a device-resident range
 *                            (CPU faults migrate it home) / raw d2h (>= 0.5)
 *   cpu_faultback_vs_home    the same / the same memcpy() repeated right
 *                            after (data home and mapped): what the faults
 *                            and migrations cost, apart from the copy loop
 *                            itself (informational)
 *   device_fault_latency     one isolated device fault (64-byte read of a
 *                            host-resident page alone in its 2 MiB block) /
 *                            one page memcpy()'d through the raw mapping
 *   device_access_latency    one device access without a fault (same call)
 *   cpu_faultback_latency    one isolated CPU read fault on a device-
 *                            resident page / one page copied raw
 *   oversub_sweep_2x         the device-access sweep over 2x the device's
 *                            memory (steady state: every pass evicts and
 *                            migrates) / the same sweep over half the
 *                            device's memory starting host-resident (every
 *                            page migrates once, no eviction)  (>= 0.5)
 *   oversub_sweep_2x_vs_resident  the same / repeated sweeps that fit (all
 *                            resident, no faults): informational
 *   oversub_<R>pct_<policy>  steady-state sweeps over R = 125 and 150 % of
 *                            the device's memory with the VA space's
 *                            eviction policy lru, fifo, lfu or random
 *                            (docs/policies.md) / the same sweep under lru:
 *                            informational (a cyclic sweep is every
 *                            policy's worst case but random's)
 *   fault_sweep_<policy>     the device_fault_migrate sweep under the VA
 *                            space's prefetch policy none, density (51 %)
 *                            or sequential (4096 pages ahead) / raw h2d
 *                            (sequential: >= 0.9)
 *   fault_sweep_sequential_vs_explicit  the sweep under sequential / the
 *                            same data prefetched to the device by the
 *                            program, then swept (>= 0.9)
 *   fault_batches_<policy>   the fault batches that sweep took / those it
 *                            took under none (sequential: <= 0.1)
 *   fault_stride2_<policy>   a sweep reading every other page of host-
 *                            resident data under each policy (GB/s of the
 *                            whole range) / the same under none:
 *                            informational (density's case)
 *   events_<what>_<figure>   the device_fault_migrate sweep and the
 *                            prefetch to the device with an event stream
 *                            open (what: "batch_migrate", fault batch and
 *                            migration records, read as they come; "all",
 *                            every type but individual faults) / the same
 *                            with no stream (>= 0.95)
 *
 * The device: the smallest one (--backend pci|emulated: the smallest of that
 * backend; --device N: that id). The oversubscription figures need a small
 * device (the bench VM runs with --emulated 1 --emulated-mb 64); on a device
 * larger than --max-oversub-mb (default 256) they are skipped.
 *
 * The benchmark runs on a CPU of node 0, the node its prefetches to the host
 * target: CPU faults place pages on the faulting CPU's node, so host data
 * stays on one node and the figures measure migration, not NUMA placement.
 *
 * Output: one JSON object per line on stdout; diagnostics on stderr. Any
 * failing ioctl ends the run with status 1.
 *
 * Usage: device_bench [--size MiB] [--reps N] [--device ID]
 *                     [--backend pci|emulated] [--max-oversub-mb M]
 */
// BENCH-RUNS: "--size 16 --reps 5" "--backend pci --size 16 --reps 5 --max-oversub-mb 0"
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
#include <time.h>
#include <unistd.h>

#include "../include/uapi/uvm.h"

#define MIB		(1024UL * 1024UL)
#define BLOCK		(2 * MIB)
#define TOUCH_BYTES	64
#define MAX_REPS	31

static size_t page_size;
static int uvm_fd;
#define BENCH_DEVICE
#define BENCH_NAME "device_bench"
static int dev_id;
static char dev_desc[128];

#include "bench_util.h"


static void prefetch(void *p, size_t len, uint32_t type, int32_t id)
{
	struct uvm_prefetch a = {
		.addr = (uintptr_t)p, .length = len, .dst = { type, id },
	};

	xioctl(UVM_IOCTL_PREFETCH, &a, "UVM_IOCTL_PREFETCH");
}

static void to_dev(void *p, size_t len)
{
	prefetch(p, len, UVM_LOC_DEVICE, dev_id);
}

static void to_host(void *p, size_t len)
{
	prefetch(p, len, UVM_LOC_HOST_NUMA, 0);
}

/* --- the device-access sweep ------------------------------------------ */

static struct uvm_access acc[UVM_ACCESS_MAX];
static char acc_buf[UVM_ACCESS_MAX * TOUCH_BYTES];

/*
 * One 64-byte device read per @stride-th page of [p, p + len),
 * UVM_ACCESS_MAX accesses per call; returns seconds, adds the device
 * faults to *faults.
 */
static double sweep_stride(char *p, size_t len, size_t stride,
			   uint64_t *faults)
{
	size_t npages = len / page_size, i = 0;
	double t = now();

	while (i < npages) {
		struct uvm_device_access da = { .device = dev_id,
						.accesses = (uintptr_t)acc };
		unsigned int n = 0;

		for (; i < npages && n < UVM_ACCESS_MAX; i += stride, n++) {
			acc[n].addr = (uintptr_t)(p + i * page_size);
			acc[n].length = TOUCH_BYTES;
			acc[n].buf = (uintptr_t)(acc_buf + n * TOUCH_BYTES);
			acc[n].type = UVM_ACCESS_READ;
			acc[n].pad = 0;
		}
		da.count = n;
		xioctl(UVM_IOCTL_DEVICE_ACCESS, &da, "UVM_IOCTL_DEVICE_ACCESS");
		if (faults)
			*faults += da.faults;
	}
	return now() - t;
}

/* One 64-byte device read per page of [p, p + len); see sweep_stride(). */
static double sweep(char *p, size_t len, uint64_t *faults)
{
	return sweep_stride(p, len, 1, faults);
}

static double access_one(char *p)
{
	struct uvm_access a = {
		.addr = (uintptr_t)p, .length = TOUCH_BYTES,
		.buf = (uintptr_t)acc_buf, .type = UVM_ACCESS_READ,
	};
	struct uvm_device_access da = { .device = dev_id, .count = 1,
					.accesses = (uintptr_t)&a };
	double t = now();

	xioctl(UVM_IOCTL_DEVICE_ACCESS, &da, "UVM_IOCTL_DEVICE_ACCESS");
	return now() - t;
}

/* --- raw: memcpy through the CPU mapping of the device's memory -------- */

static char *raw_map(size_t len)
{
	char *r = map_managed(len);
	uint64_t before = stat_get(UVM_STAT_CPU_DEVICE_MAPS);
	struct uvm_advise a = {
		.addr = (uintptr_t)r, .length = len,
		.advice = UVM_ADVISE_SET_PREFERRED_LOCATION,
		.loc = { UVM_LOC_DEVICE, dev_id },
	};

	xioctl(UVM_IOCTL_ADVISE, &a, "UVM_IOCTL_ADVISE");
	to_dev(r, len);
	touch(r, len, 1);
	if (stat_get(UVM_STAT_CPU_DEVICE_MAPS) - before < len / page_size) {
		fprintf(stderr, "device_bench: the CPU does not map device %d's "
			"memory: no raw baseline\n", dev_id);
		exit(1);
	}
	return r;
}

struct raw {
	char *dev;		/* CPU mapping of device memory */
	char *host;		/* anonymous, warm */
	size_t len;
};

static int raw_best[2][RAW_METHODS];

static double raw_copy(struct raw *r, int h2d)
{
	double t;
	int m;

	if (h2d)
		t = raw_copy_secs(r->dev, r->host, r->len, &m);
	else
		t = raw_copy_secs(r->host, r->dev, r->len, &m);
	raw_best[h2d][m]++;
	return r->len / t / 1e9;
}

/* Seconds to copy one page through the raw mapping (median of @n pages). */
static double raw_page(struct raw *r, int h2d, int n)
{
	double v[MAX_REPS];
	int i, m;

	if (n > MAX_REPS)
		n = MAX_REPS;
	for (i = 0; i < n; i++) {
		size_t off = (size_t)(i * 37 % (r->len / page_size)) * page_size;

		/* Both pages mapped and in the TLB: the copy alone. */
		*(volatile char *)(r->dev + off);
		*(volatile char *)(r->host + off);
		if (h2d)
			v[i] = raw_copy_secs(r->dev + off, r->host + off,
					     page_size, &m);
		else
			v[i] = raw_copy_secs(r->host + off, r->dev + off,
					     page_size, &m);
	}
	return median(v, n);
}

/* --- figures ----------------------------------------------------------- */

/* Returns the raw host->device copy rate (GB/s), the baseline of others. */
static double bench_throughput(size_t len, int reps)
{
	double pf_h2d[MAX_REPS], pf_d2h[MAX_REPS], raw_h2d[MAX_REPS],
	       raw_d2h[MAX_REPS], dfault[MAX_REPS], dres[MAX_REPS],
	       cpu_fb[MAX_REPS], cpu_home[MAX_REPS], rh2d, rd2h;
	struct raw r = { .len = len };
	char *m = map_managed(len), *h = map_anon_skewed(len);
	char base[256];
	uint64_t faults = 0, d2h0;
	int i;

	r.dev = raw_map(len);
	r.host = h;
	touch(h, len, 2);
	touch(m, len, 3);
	for (i = 0; i < reps; i++) {
		double t;

		raw_h2d[i] = raw_copy(&r, 1);
		raw_d2h[i] = raw_copy(&r, 0);

		/* prefetch host -> device -> host */
		t = now();
		to_dev(m, len);
		pf_h2d[i] = len / (now() - t) / 1e9;
		t = now();
		to_host(m, len);
		pf_d2h[i] = len / (now() - t) / 1e9;

		/* device faults over host-resident data, then resident */
		faults = 0;
		dfault[i] = len / sweep(m, len, &faults) / 1e9;
		if (faults < len / page_size)
			fprintf(stderr, "device_bench: sweep took %llu faults "
				"for %zu pages\n", (unsigned long long)faults,
				len / page_size);
		faults = 0;
		dres[i] = len / sweep(m, len, &faults) / 1e9;
		if (faults)
			fprintf(stderr, "device_bench: resident sweep took "
				"%llu faults\n", (unsigned long long)faults);

		/* CPU reads the device-resident range: fault-back */
		d2h0 = stat_get(UVM_STAT_MIGRATE_D2H_PAGES);
		tlb_cold();
		t = now();
		memcpy(h, m, len);
		cpu_fb[i] = len / (now() - t) / 1e9;
		if (stat_get(UVM_STAT_MIGRATE_D2H_PAGES) - d2h0 < len / page_size)
			fprintf(stderr, "device_bench: CPU fault-back moved only "
				"%llu pages\n", (unsigned long long)
				(stat_get(UVM_STAT_MIGRATE_D2H_PAGES) - d2h0));
		/* The same copy again, the data home and mapped. */
		tlb_cold();
		t = now();
		memcpy(h, m, len);
		cpu_home[i] = len / (now() - t) / 1e9;
		/* m is host-resident again for the next rep */
	}
	rh2d = median(raw_h2d, reps);
	rd2h = median(raw_d2h, reps);
	for (i = 0; i < RAW_METHODS; i++)
		fprintf(stderr, "device_bench: raw %s fastest h2d %d, d2h %d "
			"times\n", raw_method[i], raw_best[1][i], raw_best[0][i]);
	snprintf(base, sizeof(base), "raw: fastest CPU copy host->device "
		 "memory through its CPU mapping (%s)", dev_desc);
	report("prefetch_h2d", median(pf_h2d, reps), "GB/s", base, rh2d, ">= 0.9");
	report("device_fault_migrate", median(dfault, reps), "GB/s", base, rh2d,
	       ">= 0.6");
	snprintf(base, sizeof(base), "raw: fastest CPU copy device "
		 "memory->host through its CPU mapping (%s)", dev_desc);
	report("prefetch_d2h", median(pf_d2h, reps), "GB/s", base, rd2h, ">= 0.9");
	report("cpu_faultback", median(cpu_fb, reps), "GB/s", base, rd2h, ">= 0.5");
	report("cpu_faultback_vs_home", median(cpu_fb, reps), "GB/s",
	       "the same memcpy() right after, the data home and mapped",
	       median(cpu_home, reps), "informational");
	report("device_access_resident", median(dres, reps), "GB/s", base, rd2h,
	       "informational");

	/* Latencies: one page alone in each 2 MiB block. */
	{
		int n = 31;
		size_t vlen = n * BLOCK;
		char *l = map_managed(vlen);
		double df[MAX_REPS], da[MAX_REPS], cf[MAX_REPS], pg_h2d, pg_d2h;
		volatile char sink;

		for (i = 0; i < n; i++)
			l[i * BLOCK] = 4;	/* host-resident, CPU-mapped */
		for (i = 0; i < n; i++) {
			df[i] = access_one(l + i * BLOCK);	/* device fault */
			da[i] = access_one(l + i * BLOCK);	/* no fault */
		}
		for (i = 0; i < n; i++) {
			double t = now();

			sink = l[i * BLOCK];	/* CPU fault-back */
			cf[i] = now() - t;
		}
		(void)sink;
		pg_h2d = raw_page(&r, 1, n);
		pg_d2h = raw_page(&r, 0, n);
		snprintf(base, sizeof(base), "raw: one 4 KiB page copied host->"
			 "device memory through its CPU mapping (%s)", dev_desc);
		report("device_fault_latency", median(df, n) * 1e6, "us", base,
		       pg_h2d * 1e6, "informational");
		report("device_access_latency", median(da, n) * 1e6, "us", base,
		       pg_h2d * 1e6, "informational");
		snprintf(base, sizeof(base), "raw: one 4 KiB page copied device "
			 "memory->host through its CPU mapping (%s)", dev_desc);
		report("cpu_faultback_latency", median(cf, n) * 1e6, "us", base,
		       pg_d2h * 1e6, "informational");
		munmap(l, vlen);
	}
	munmap(m, len);
	munmap(h, len);
	munmap(r.dev, len);
	return rh2d;
}

static void bench_oversub(uint64_t dev_mem, int reps)
{
	size_t big = 2 * dev_mem, fit = dev_mem / 2;
	double cold[MAX_REPS], warm[MAX_REPS], over[MAX_REPS];
	uint64_t ev0, evb0, h2d0, rm0;
	char base[256];
	char *m;
	int i, passes = reps < 3 ? 3 : reps;

	/* Fits: each rep starts host-resident (every page migrates once),
	 * then one more pass with everything resident.
	 */
	m = map_managed(fit);
	touch(m, fit, 5);
	for (i = 0; i < reps; i++) {
		to_host(m, fit);
		cold[i] = fit / sweep(m, fit, NULL) / 1e9;
		warm[i] = fit / sweep(m, fit, NULL) / 1e9;
	}
	munmap(m, fit);

	/* 2x: steady-state passes (the first one only fills the device). */
	m = map_managed(big);
	touch(m, big, 6);
	sweep(m, big, NULL);
	ev0 = stat_get(UVM_STAT_EVICTIONS);
	evb0 = stat_get(UVM_STAT_EVICTED_BYTES);
	h2d0 = stat_get(UVM_STAT_MIGRATE_H2D_BYTES);
	rm0 = stat_get(UVM_STAT_REMOTE_MAPS);
	for (i = 0; i < passes; i++)
		over[i] = big / sweep(m, big, NULL) / 1e9;
	fprintf(stderr, "device_bench: oversubscribed, %d steady passes of %zu "
		"MiB: %llu evictions, %llu MiB evicted, %llu MiB migrated in, "
		"%llu pages mapped remotely\n", passes, big >> 20,
		(unsigned long long)(stat_get(UVM_STAT_EVICTIONS) - ev0),
		(unsigned long long)((stat_get(UVM_STAT_EVICTED_BYTES) - evb0) >> 20),
		(unsigned long long)((stat_get(UVM_STAT_MIGRATE_H2D_BYTES) - h2d0) >> 20),
		(unsigned long long)(stat_get(UVM_STAT_REMOTE_MAPS) - rm0));
	munmap(m, big);

	snprintf(base, sizeof(base), "same sweep over %zu MiB (fits), starting "
		 "host-resident (%s)", fit >> 20, dev_desc);
	report("oversub_sweep_2x", median(over, passes), "GB/s", base,
	       median(cold, reps), ">= 0.5");
	snprintf(base, sizeof(base), "same sweep over %zu MiB (fits), all "
		 "resident (%s)", fit >> 20, dev_desc);
	report("oversub_sweep_2x_vs_resident", median(over, passes), "GB/s", base,
	       median(warm, reps), "informational");
}

static void set_evict_policy(uint32_t policy)
{
	struct uvm_perf p = {
		.version = UVM_PERF_VERSION, .set = UVM_PERF_EVICT,
		.evict_policy = policy, .evict_seed = 1,
	};

	xioctl(UVM_IOCTL_PERF_SET, &p, "UVM_IOCTL_PERF_SET");
}

/* Steady-state sweeps over @pct % of the device under each eviction policy. */
static void bench_evict_policies(uint64_t dev_mem, int reps)
{
	static const char *const names[UVM_EVICT_COUNT] = {
		"lru", "fifo", "lfu", "random",
	};
	static const unsigned int pcts[] = { 125, 150 };
	double gbs[UVM_EVICT_COUNT], v[MAX_REPS];
	unsigned int k, pol;
	char name[64], base[256];
	size_t len;
	char *m;
	int i;

	for (k = 0; k < sizeof(pcts) / sizeof(pcts[0]); k++) {
		len = dev_mem / 100 * pcts[k] / page_size * page_size;
		for (pol = 0; pol < UVM_EVICT_COUNT; pol++) {
			set_evict_policy(pol);
			m = map_managed(len);
			touch(m, len, 7);
			sweep(m, len, NULL);	/* fills the device */
			for (i = 0; i < reps; i++)
				v[i] = len / sweep(m, len, NULL) / 1e9;
			gbs[pol] = median(v, reps);
			munmap(m, len);
		}
		for (pol = 0; pol < UVM_EVICT_COUNT; pol++) {
			snprintf(name, sizeof(name), "oversub_%upct_%s", pcts[k],
				 names[pol]);
			snprintf(base, sizeof(base), "the same sweep under lru (%s)",
				 dev_desc);
			report(name, gbs[pol], "GB/s", base, gbs[UVM_EVICT_LRU],
			       "informational");
		}
	}
	set_evict_policy(UVM_EVICT_LRU);
}

static void set_prefetch_policy(uint32_t policy)
{
	struct uvm_perf p = {
		.version = UVM_PERF_VERSION, .set = UVM_PERF_PREFETCH,
		.prefetch_policy = policy, .prefetch_threshold = 51,
		.prefetch_pages = 4096,
	};

	xioctl(UVM_IOCTL_PERF_SET, &p, "UVM_IOCTL_PERF_SET");
}

/* A device-fault sweep (@stride pages apart) of fresh host-resident data. */
static double prefetch_sweep(size_t len, size_t stride, uint64_t *batches)
{
	char *m = map_managed(len);
	uint64_t b0;
	double secs;

	touch(m, len, 4);
	b0 = stat_get(UVM_STAT_FAULT_BATCHES);
	secs = sweep_stride(m, len, stride, NULL);
	*batches = stat_get(UVM_STAT_FAULT_BATCHES) - b0;
	munmap(m, len);
	return len / secs / 1e9;
}

/*
 * What a program that prefetches explicitly gets: fresh host-resident
 * data prefetched to the device, then the same sweep over it (GB/s of the
 * whole, both timed).
 */
static double explicit_sweep(size_t len)
{
	char *m = map_managed(len);
	double t;

	touch(m, len, 4);
	t = now();
	to_dev(m, len);
	sweep(m, len, NULL);
	t = now() - t;
	munmap(m, len);
	return len / t / 1e9;
}

/* The device-fault sweeps under each prefetch policy. */
static void bench_prefetch_policies(size_t len, int reps, double rh2d)
{
	static const char *const names[UVM_PREFETCH_COUNT] = {
		"none", "density", "sequential",
	};
	static const char *const goals[UVM_PREFETCH_COUNT][2] = {
		{ "informational", "informational" },
		{ "informational", "informational" },
		{ ">= 0.9", "<= 0.1" },
	};
	double gbs[UVM_PREFETCH_COUNT], stride[UVM_PREFETCH_COUNT];
	double v[MAX_REPS], w[MAX_REPS], nb[MAX_REPS], x[MAX_REPS];
	double batches[UVM_PREFETCH_COUNT];
	unsigned int pol;
	char name[64], base[256];
	uint64_t b;
	int i;

	for (pol = 0; pol < UVM_PREFETCH_COUNT; pol++) {
		set_prefetch_policy(pol);
		for (i = 0; i < reps; i++) {
			v[i] = prefetch_sweep(len, 1, &b);
			nb[i] = (double)b;
			w[i] = prefetch_sweep(len, 2, &b);
			if (pol == UVM_PREFETCH_SEQUENTIAL)
				x[i] = explicit_sweep(len);
		}
		gbs[pol] = median(v, reps);
		batches[pol] = median(nb, reps);
		stride[pol] = median(w, reps);
	}
	set_prefetch_policy(UVM_PREFETCH_NONE);
	for (pol = 0; pol < UVM_PREFETCH_COUNT; pol++) {
		snprintf(name, sizeof(name), "fault_sweep_%s", names[pol]);
		snprintf(base, sizeof(base), "raw: fastest CPU copy host->device "
			 "memory through its CPU mapping (%s)", dev_desc);
		report(name, gbs[pol], "GB/s", base, rh2d, goals[pol][0]);
		snprintf(name, sizeof(name), "fault_batches_%s", names[pol]);
		snprintf(base, sizeof(base), "the batches of the same sweep "
			 "under none (%s)", dev_desc);
		report(name, batches[pol], "batches", base, batches[0],
		       goals[pol][1]);
		snprintf(name, sizeof(name), "fault_stride2_%s", names[pol]);
		snprintf(base, sizeof(base), "the same strided sweep under none "
			 "(%s)", dev_desc);
		report(name, stride[pol], "GB/s", base, stride[0],
		       "informational");
	}
	snprintf(base, sizeof(base), "the same data prefetched explicitly, "
		 "then swept (%s)", dev_desc);
	report("fault_sweep_sequential_vs_explicit",
	       gbs[UVM_PREFETCH_SEQUENTIAL], "GB/s", base, median(x, reps),
	       ">= 0.9");
}

/* Open an event stream on our VA space taking @types; fd. */
static int events_open(uint64_t types)
{
	struct uvm_events_open a = {
		.version = UVM_EVENTS_VERSION, .types = types,
		.ring_records = 65536,
	};

	xioctl(UVM_IOCTL_EVENTS_OPEN, &a, "UVM_IOCTL_EVENTS_OPEN");
	return a.fd;
}

/* Read what the stream holds (the reader keeps up between runs). */
static void events_drain(int fd)
{
	static struct uvm_event buf[1024];

	while (read(fd, buf, sizeof(buf)) > 0)
		;
}

/* One sweep and one prefetch of fresh host-resident data: GB/s each. */
static void events_run(size_t len, int fd, double *sweep_gbs, double *pf_gbs)
{
	char *m = map_managed(len);
	double t;

	touch(m, len, 5);
	*sweep_gbs = len / sweep(m, len, NULL) / 1e9;
	if (fd >= 0)
		events_drain(fd);
	to_host(m, len);
	t = now();
	to_dev(m, len);
	*pf_gbs = len / (now() - t) / 1e9;
	if (fd >= 0)
		events_drain(fd);
	munmap(m, len);
}

/* The device figures with an event stream open against none open. */
static void bench_events(size_t len, int reps)
{
	static const char *const what[2] = { "batch_migrate", "all" };
	const uint64_t types[2] = {
		(1ULL << UVM_EVENT_FAULT_BATCH) | (1ULL << UVM_EVENT_MIGRATE), 0,
	};
	double s0[MAX_REPS], p0[MAX_REPS], s1[MAX_REPS], p1[MAX_REPS];
	char name[64], base[256];
	unsigned int w;
	int i, fd;

	for (w = 0; w < 2; w++) {
		fd = events_open(types[w]);
		fcntl(fd, F_SETFL, O_NONBLOCK);
		for (i = 0; i < reps; i++) {	/* interleaved: same conditions */
			events_run(len, -1, &s0[i], &p0[i]);
			events_run(len, fd, &s1[i], &p1[i]);
		}
		close(fd);
		snprintf(base, sizeof(base), "the same with no event stream "
			 "open (%s)", dev_desc);
		snprintf(name, sizeof(name), "events_%s_fault_sweep", what[w]);
		report(name, median(s1, reps), "GB/s", base, median(s0, reps),
		       ">= 0.95");
		snprintf(name, sizeof(name), "events_%s_prefetch_h2d", what[w]);
		report(name, median(p1, reps), "GB/s", base, median(p0, reps),
		       ">= 0.95");
	}
}

int main(int argc, char **argv)
{
	size_t len = 16 * MIB, warm_len;
	unsigned int want_backend = 0;
	uint64_t max_oversub = 256 * MIB, dev_mem = 0;
	double rh2d;
	int reps = 5, want_dev = -1, i;
	char *warm;

	page_size = sysconf(_SC_PAGESIZE);
	for (i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--size") && i + 1 < argc)
			len = strtoul(argv[++i], NULL, 0) * MIB;
		else if (!strcmp(argv[i], "--reps") && i + 1 < argc)
			reps = atoi(argv[++i]);
		else if (!strcmp(argv[i], "--device") && i + 1 < argc)
			want_dev = atoi(argv[++i]);
		else if (!strcmp(argv[i], "--max-oversub-mb") && i + 1 < argc)
			max_oversub = strtoull(argv[++i], NULL, 0) * MIB;
		else if (!strcmp(argv[i], "--backend") && i + 1 < argc) {
			i++;
			want_backend = !strcmp(argv[i], "pci") ? UVM_BACKEND_PCI_BAR :
				       !strcmp(argv[i], "emulated") ?
				       UVM_BACKEND_EMULATED : 99;
		} else {
			fprintf(stderr, "usage: device_bench [--size MiB] [--reps N] "
				"[--device ID] [--backend pci|emulated] "
				"[--max-oversub-mb M]\n");
			return 2;
		}
	}
	if (reps < 1 || reps > MAX_REPS)
		reps = 5;
	if (!len)
		len = 16 * MIB;
	dev_mem = bench_pick_device(want_dev, want_backend);
	len = bench_cap_len(len, dev_mem);
	fprintf(stderr, "device_bench: %s, %zu MiB, %d reps\n", dev_desc,
		len >> 20, reps);
	pin_cpu(cpu_of_node(0));

	/* Back guest RAM on the host once so no figure pays for it. */
	warm_len = 4 * len;
	if (dev_mem <= max_oversub && 3 * dev_mem > warm_len)
		warm_len = 3 * dev_mem;
	warm = map_anon(warm_len);
	touch(warm, warm_len, 1);
	munmap(warm, warm_len);

	rh2d = bench_throughput(len, reps);
	bench_prefetch_policies(len, reps, rh2d);
	bench_events(len, reps);
	if (dev_mem <= max_oversub) {
		bench_oversub(dev_mem, reps);
		bench_evict_policies(dev_mem, reps);
	} else {
		fprintf(stderr, "device_bench: %s is larger than %llu MiB: no "
			"oversubscription figures (run the VM with --emulated 1 "
			"--emulated-mb 64)\n", dev_desc,
			(unsigned long long)(max_oversub >> 20));
	}
	return 0;
}
