// SPDX-License-Identifier: GPL-2.0
/*
 * Copy and set benchmarks (issue 5): UVM_IOCTL_MEMCPY between a device
 * allocation (UVM_IOCTL_ALLOC_DEVICE) and each kind of host memory, and
 * UVM_IOCTL_MEMSET of a device allocation, as ratios to a raw copy measured
 * in the same run (under TCG only ratios mean anything).
 *
 * "raw" is memcpy()/memset() through the CPU mapping of the same device's
 * memory: a managed range with preferred location = the device, prefetched
 * there and touched once by the CPU, so every CPU PTE points at device
 * memory (the BAR, write-combined, for a PCI device; the backing RAM pages
 * for the emulated one; checked with UVM_STAT_CPU_DEVICE_MAPS). A
 * user-space copy into or out of it is a raw BAR copy: no uvm code runs.
 * Each raw figure is the fastest of glibc memcpy/memset, rep movsb/stos and
 * an 8-byte store loop (see raw_copy_secs()).
 *
 *   copy_<kind>_h2d / _d2h   MEMCPY <kind> -> device allocation and back,
 *                            <kind>: pinned (UVM_IOCTL_ALLOC_HOST),
 *                            registered (UVM_IOCTL_HOST_REGISTER on
 *                            anonymous memory), pageable (anonymous memory),
 *                            managed (host-resident managed memory)
 *                            / raw copy in the same direction
 *                            (pinned: >= 0.9; others informational, NVIDIA
 *                            on an H100: pageable ~0.16 of pinned)
 *   memset_d8 / memset_d32   MEMSET of the device allocation, 1- and 4-byte
 *                            patterns / raw fill through the mapping
 *
 * The device: the smallest one (--backend pci|emulated: the smallest of
 * that backend; --device N: that id).
 *
 * Output: one JSON object per line on stdout; diagnostics on stderr. Any
 * failing ioctl ends the run with status 1.
 *
 * Usage: copy_bench [--size MiB] [--reps N] [--device ID]
 *                   [--backend pci|emulated]
 */
// BENCH-RUNS: "--size 16 --reps 5" "--backend pci --size 16 --reps 5"
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
#define MAX_REPS	31

static size_t page_size;
static int uvm_fd;
#define BENCH_DEVICE
#define BENCH_NAME "copy_bench"
static int dev_id;
static char dev_desc[128];

#include "bench_util.h"


static void set_method(int m, void *d, uint32_t v, uint32_t elem, size_t n)
{
	uint64_t w = elem == 1 ? 0x0101010101010101ULL * (v & 0xff) :
			      0x0000000100000001ULL * v;
	volatile uint64_t *dw = d;
	size_t i;

	switch (m) {
	case 0:
		if (elem == 1) {
			memset(d, v, n);
		} else {
			uint32_t *p = d;

			for (i = 0; i < n / 4; i++)
				p[i] = v;
		}
		break;
	case 1:
		if (elem == 1) {
			asm volatile("rep stosb" : "+D"(d), "+c"(n) : "a"(v) : "memory");
		} else {
			n /= 4;
			asm volatile("rep stosl" : "+D"(d), "+c"(n) : "a"(v) : "memory");
		}
		break;
	default:
		for (i = 0; i + 4 <= n / 8; i += 4) {
			dw[i] = w;
			dw[i + 1] = w;
			dw[i + 2] = w;
			dw[i + 3] = w;
		}
		break;
	}
}

static double raw_set_secs(void *d, uint32_t v, uint32_t elem, size_t n)
{
	double tmin = 0;
	int m;

	for (m = 0; m < RAW_METHODS; m++) {
		double t;

		tlb_cold();
		t = now();
		set_method(m, d, v, elem, n);
		t = now() - t;
		if (!m || t < tmin)
			tmin = t;
	}
	return tmin;
}

/* CPU mapping of @len bytes of the device's memory (see the top). */
static char *raw_map(size_t len)
{
	char *r = xmmap(len, PROT_READ | PROT_WRITE, MAP_SHARED, uvm_fd, 0,
			"mmap /dev/uvm");
	uint64_t before = stat_get(UVM_STAT_CPU_DEVICE_MAPS);
	struct uvm_advise a = {
		.addr = (uintptr_t)r, .length = len,
		.advice = UVM_ADVISE_SET_PREFERRED_LOCATION,
		.loc = { UVM_LOC_DEVICE, dev_id },
	};
	struct uvm_prefetch pf = {
		.addr = (uintptr_t)r, .length = len,
		.dst = { UVM_LOC_DEVICE, dev_id },
	};

	xioctl(UVM_IOCTL_ADVISE, &a, "UVM_IOCTL_ADVISE");
	xioctl(UVM_IOCTL_PREFETCH, &pf, "UVM_IOCTL_PREFETCH");
	touch(r, len, 1);
	if (stat_get(UVM_STAT_CPU_DEVICE_MAPS) - before < len / page_size) {
		fprintf(stderr, "copy_bench: the CPU does not map device %d's "
			"memory: no raw baseline\n", dev_id);
		exit(1);
	}
	return r;
}

/* GB/s of one UVM_IOCTL_MEMCPY of @len bytes. */
static double uvm_copy(void *dst, const void *src, size_t len)
{
	struct uvm_memcpy mc = {
		.dst = (uintptr_t)dst, .src = (uintptr_t)src, .width = len,
		.height = 1, .depth = 1,
	};
	double t = now();

	xioctl(UVM_IOCTL_MEMCPY, &mc, "UVM_IOCTL_MEMCPY");
	return len / (now() - t) / 1e9;
}

static double uvm_set(void *dst, size_t len, uint32_t value, uint32_t elem)
{
	struct uvm_memset ms = {
		.dst = (uintptr_t)dst, .width = len, .height = 1, .depth = 1,
		.value = value, .elem_size = elem,
	};
	double t = now();

	xioctl(UVM_IOCTL_MEMSET, &ms, "UVM_IOCTL_MEMSET");
	return len / (now() - t) / 1e9;
}

static int raw_best[RAW_METHODS];

static double raw_copy(void *dst, const void *src, size_t len)
{
	double t;
	int m;

	t = raw_copy_secs(dst, src, len, &m);
	raw_best[m]++;
	return len / t / 1e9;
}

static double raw_set(void *dst, size_t len, uint32_t v, uint32_t elem)
{
	return len / raw_set_secs(dst, v, elem, len) / 1e9;
}

enum { PINNED, REGISTERED, PAGEABLE, MANAGED, NKINDS };
static const char *const kind_name[NKINDS] = {
	"pinned", "registered", "pageable", "managed",
};

static void bench(size_t len, int reps)
{
	double h2d[NKINDS][MAX_REPS], d2h[NKINDS][MAX_REPS], rh2d[MAX_REPS],
	       rd2h[MAX_REPS], s8[MAX_REPS], s32[MAX_REPS], r8[MAX_REPS],
	       r32[MAX_REPS], raw_h2d, raw_d2h;
	struct uvm_alloc_device ad = { .size = len, .device = dev_id };
	struct uvm_alloc_host ah = { .size = len, .numa_node = -1 };
	struct uvm_host_register hr = { .size = len };
	struct uvm_host_unregister hu = { 0 };
	struct uvm_free fr = { 0 };
	char *src[NKINDS], *dev, *raw, *host, *pat, name[64], base[256];
	int i, k;

	raw = raw_map(len);
	host = map_anon_skewed(len);
	touch(host, len, 2);

	xioctl(UVM_IOCTL_ALLOC_DEVICE, &ad, "UVM_IOCTL_ALLOC_DEVICE");
	dev = xmmap(ad.map_size, PROT_READ | PROT_WRITE, MAP_SHARED, uvm_fd,
		    ad.mmap_offset, "mmap device allocation");
	xioctl(UVM_IOCTL_ALLOC_HOST, &ah, "UVM_IOCTL_ALLOC_HOST");
	src[PINNED] = xmmap(ah.map_size, PROT_READ | PROT_WRITE, MAP_SHARED,
			    uvm_fd, ah.mmap_offset, "mmap pinned allocation");
	src[REGISTERED] = map_anon(len);
	touch(src[REGISTERED], len, 3);
	hr.addr = (uintptr_t)src[REGISTERED];
	xioctl(UVM_IOCTL_HOST_REGISTER, &hr, "UVM_IOCTL_HOST_REGISTER");
	src[PAGEABLE] = map_anon(len);
	src[MANAGED] = xmmap(len, PROT_READ | PROT_WRITE, MAP_SHARED, uvm_fd, 0,
			     "mmap /dev/uvm");
	pat = map_anon(len);
	for (i = 0; i < (int)(len / sizeof(uint32_t)); i++)
		((uint32_t *)pat)[i] = 0x9e3779b9u * (uint32_t)i;
	for (k = 0; k < NKINDS; k++)
		memcpy(src[k], pat, len);

	for (i = 0; i < reps; i++) {
		rh2d[i] = raw_copy(raw, host, len);
		rd2h[i] = raw_copy(host, raw, len);
		for (k = 0; k < NKINDS; k++) {
			h2d[k][i] = uvm_copy(dev, src[k], len);
			d2h[k][i] = uvm_copy(src[k], dev, len);
		}
		s8[i] = uvm_set(dev, len, 0x5a, 1);
		s32[i] = uvm_set(dev, len, 0x12345678, 4);
		r8[i] = raw_set(raw, len, 0x5a, 1);
		r32[i] = raw_set(raw, len, 0x12345678, 4);
	}
	/* Check the data: every round trip must have kept the pattern, and
	 * the device allocation holds the last memset's.
	 */
	for (k = 0; k < NKINDS; k++) {
		if (memcmp(src[k], pat, len)) {
			fprintf(stderr, "copy_bench: %s memory corrupted by the "
				"round trips\n", kind_name[k]);
			exit(1);
		}
	}
	uvm_copy(src[PAGEABLE], dev, len);
	for (i = 0; i < (int)(len / sizeof(uint32_t)); i++) {
		if (((uint32_t *)src[PAGEABLE])[i] != 0x12345678) {
			fprintf(stderr, "copy_bench: memset pattern wrong\n");
			exit(1);
		}
	}

	raw_h2d = median(rh2d, reps);
	raw_d2h = median(rd2h, reps);
	for (k = 0; k < RAW_METHODS; k++)
		fprintf(stderr, "copy_bench: raw copy: %s fastest %d times\n",
			raw_method[k], raw_best[k]);
	for (k = 0; k < NKINDS; k++) {
		const char *goal = k == PINNED ? ">= 0.9" : "informational";

		snprintf(base, sizeof(base), "raw: fastest CPU copy host->device "
			 "memory through its CPU mapping (%s)", dev_desc);
		snprintf(name, sizeof(name), "copy_%s_h2d", kind_name[k]);
		report(name, median(h2d[k], reps), "GB/s", base, raw_h2d, goal);
		snprintf(base, sizeof(base), "raw: fastest CPU copy device "
			 "memory->host through its CPU mapping (%s)", dev_desc);
		snprintf(name, sizeof(name), "copy_%s_d2h", kind_name[k]);
		report(name, median(d2h[k], reps), "GB/s", base, raw_d2h, goal);
	}
	snprintf(base, sizeof(base), "raw: fastest CPU byte fill of device "
		 "memory through its CPU mapping (%s)", dev_desc);
	report("memset_d8", median(s8, reps), "GB/s", base, median(r8, reps),
	       "informational");
	snprintf(base, sizeof(base), "raw: fastest CPU 32-bit pattern fill "
		 "of device memory through its CPU mapping (%s)", dev_desc);
	report("memset_d32", median(s32, reps), "GB/s", base, median(r32, reps),
	       "informational");

	hu.addr = hr.addr;
	xioctl(UVM_IOCTL_HOST_UNREGISTER, &hu, "UVM_IOCTL_HOST_UNREGISTER");
	fr.addr = (uintptr_t)dev;
	xioctl(UVM_IOCTL_FREE, &fr, "UVM_IOCTL_FREE");
	munmap(dev, ad.map_size);
	fr.addr = (uintptr_t)src[PINNED];
	xioctl(UVM_IOCTL_FREE, &fr, "UVM_IOCTL_FREE");
	munmap(src[PINNED], ah.map_size);
	for (k = REGISTERED; k < NKINDS; k++)
		munmap(src[k], len);
	munmap(raw, len);
	munmap(host, len);
	munmap(pat, len);
}

int main(int argc, char **argv)
{
	size_t len = 16 * MIB;
	unsigned int want_backend = 0;
	uint64_t dev_mem = 0;
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
		else if (!strcmp(argv[i], "--backend") && i + 1 < argc) {
			i++;
			want_backend = !strcmp(argv[i], "pci") ? UVM_BACKEND_PCI_BAR :
				       !strcmp(argv[i], "emulated") ?
				       UVM_BACKEND_EMULATED : 99;
		} else {
			fprintf(stderr, "usage: copy_bench [--size MiB] [--reps N] "
				"[--device ID] [--backend pci|emulated]\n");
			return 2;
		}
	}
	if (reps < 1 || reps > MAX_REPS)
		reps = 5;
	if (!len)
		len = 16 * MIB;
	dev_mem = bench_pick_device(want_dev, want_backend);
	len = bench_cap_len(len, dev_mem);
	fprintf(stderr, "copy_bench: %s, %zu MiB, %d reps\n", dev_desc,
		len >> 20, reps);

	/* Back guest RAM on the host once so no figure pays for it. */
	warm = map_anon(8 * len);
	touch(warm, 8 * len, 1);
	munmap(warm, 8 * len);

	bench(len, reps);
	return 0;
}
