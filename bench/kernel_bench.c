// SPDX-License-Identifier: GPL-2.0
// LDLIBS: -luvm -lnuma -lpthread
/*
 * What launching device work on a stream costs (docs/kernels.md). Every
 * figure is a ratio to a baseline measured in the same run:
 *
 *   kernel_launch_<N>   kernels of N device accesses (64-byte reads of
 *                       device-resident managed memory, one per page)
 *                       launched on a stream with uvmLaunchKernel, the
 *                       stream synchronised at the end, in accesses per
 *                       second / the same accesses, generated the same
 *                       way, through uvm_device_access() directly, N at a
 *                       time (N = 4096: >= 0.9; 64: informational)
 *
 * Usage: kernel_bench [--reps N] [--kernels K]
 */
// BENCH-RUNS: "--reps 5"
#define _GNU_SOURCE
#include <errno.h>
#include <sched.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cuda_runtime_api.h"
#include "uvm.h"
#include "uvm_kernel.h"

#define BENCH_NAME "kernel_bench"
#include "bench_common.h"

#define MIB		(1024UL * 1024UL)
#define LEN		(16 * MIB)
#define MAX_REPS	32

static struct uvm_device_access_op ops[UVM_KERNEL_MAX_ACCESSES];
static char sink[64];
static char *range;
static size_t page;

/* @n reads, one per page of the range: what both ways generate. */
static void gen_ops(struct uvm_device_access_op *out, unsigned int n)
{
	unsigned int i;

	for (i = 0; i < n; i++)
		out[i] = (struct uvm_device_access_op){
			.addr = (uintptr_t)(range + (size_t)i * page % LEN),
			.length = 64, .buf = (uintptr_t)sink,
			.type = UVM_DEVICE_ACCESS_READ,
		};
}

/* A kernel of one step of *@arg accesses. */
static int emit_ops(void *arg, uint64_t step, struct uvm_device_access_op *out,
		    unsigned int max)
{
	unsigned int n = *(unsigned int *)arg;

	if (step || n > max)
		return 0;
	gen_ops(out, n);
	return (int)n;
}

/* Run here (and in threads created from now on) on CPU 0 only. */
static void pin_cpu0(void)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(0, &set);
	if (sched_setaffinity(0, sizeof(set), &set))
		die("sched_setaffinity");
}

/* Seconds for @k kernels of @n accesses, launched then synchronised. */
static double launched(unsigned int n, int k, cudaStream_t s)
{
	struct uvm_kernel kn = { .emit = emit_ops, .arg = &n };
	double t = now();
	int i;

	for (i = 0; i < k; i++)
		if (uvmLaunchKernel(&kn, 0, s) != cudaSuccess)
			die("uvmLaunchKernel");
	if (cudaStreamSynchronize(s) != cudaSuccess)
		die("cudaStreamSynchronize");
	return now() - t;
}

/* Seconds for the same accesses through uvm_device_access() directly. */
static double direct(struct uvm_context *ctx, unsigned int n, int k)
{
	double t = now();
	int i;

	for (i = 0; i < k; i++) {
		gen_ops(ops, n);
		if (uvm_device_access(ctx, 0, ops, n, NULL))
			die("uvm_device_access");
	}
	return now() - t;
}

static void bench_launch(struct uvm_context *ctx, unsigned int n, int kernels,
			 int reps, const char *goal)
{
	double a[MAX_REPS], b[MAX_REPS];
	char name[64], base[160];
	cudaStream_t s;
	int r;

	if (cudaStreamCreate(&s) != cudaSuccess)
		die("cudaStreamCreate");
	launched(n, 2, s);	/* the stream's worker exists */
	for (r = 0; r < reps; r++) {	/* interleaved */
		a[r] = (double)n * kernels / launched(n, kernels, s);
		b[r] = (double)n * kernels / direct(ctx, n, kernels);
	}
	cudaStreamDestroy(s);
	snprintf(name, sizeof(name), "kernel_launch_%u", n);
	snprintf(base, sizeof(base), "the same accesses through "
		 "uvm_device_access(), %u at a time", n);
	report(name, median(a, reps), "accesses/s", base, median(b, reps), goal);
}

int main(int argc, char **argv)
{
	struct cudaMemLocation dev0 = { .type = cudaMemLocationTypeDevice, .id = 0 };
	int reps = 5, kernels = 32, i, ndev = 0;
	struct uvm_context *ctx;
	char *m;

	for (i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--reps") && i + 1 < argc) {
			reps = atoi(argv[++i]);
		} else if (!strcmp(argv[i], "--kernels") && i + 1 < argc) {
			kernels = atoi(argv[++i]);
		} else {
			fprintf(stderr, "usage: kernel_bench [--reps N] [--kernels K]\n");
			return 2;
		}
	}
	if (reps < 1 || reps > MAX_REPS)
		reps = 5;
	if (kernels < 1)
		kernels = 32;
	if (cudaGetDeviceCount(&ndev) != cudaSuccess || !ndev) {
		fprintf(stderr, "kernel_bench: no device\n");
		return 1;
	}
	if (uvm_runtime_context(&ctx))
		die("uvm_runtime_context");
	pin_cpu0();	/* the streams' workers, created later, inherit it */
	if (cudaMallocManaged((void **)&m, LEN, cudaMemAttachGlobal) != cudaSuccess)
		die("cudaMallocManaged");
	memset(m, 1, LEN);
	if (cudaMemPrefetchAsync(m, LEN, dev0, 0, 0) != cudaSuccess ||
	    cudaDeviceSynchronize() != cudaSuccess)
		die("cudaMemPrefetchAsync");
	range = m;
	page = (size_t)sysconf(_SC_PAGESIZE);
	bench_launch(ctx, UVM_KERNEL_MAX_ACCESSES, kernels, reps, ">= 0.9");
	bench_launch(ctx, 64, kernels * 8, reps, "informational");
	cudaFree(m);
	return 0;
}
