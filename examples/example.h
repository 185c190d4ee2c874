/* SPDX-License-Identifier: MIT */
/*
 * example.h - helpers shared by the examples: error checks that tell
 * "not supported by this module yet" apart from real errors, a one-line
 * view of where a range's pages are, the VA space's counters, and running
 * uvm-smi.
 *
 * The examples use the CUDA runtime API (cuda_runtime.h) for everything a
 * CUDA program would do, and libuvm's native API (uvm.h) only to look
 * inside: residency and counters of the runtime's own VA space.
 */
#ifndef UVM_EXAMPLE_H
#define UVM_EXAMPLE_H

#include <cuda_runtime.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <uvm.h>

#define EX_MIB		(1024UL * 1024UL)
#define EX_COUNTERS	64

/* Abort on a real error; report and go on when the module lacks a feature. */
#define EX_CHECK(call) ex_check((call), #call, __FILE__, __LINE__, 0)
#define EX_TRY(call) ex_check((call), #call, __FILE__, __LINE__, 1)

static inline int ex_check(cudaError_t e, const char *what, const char *file,
			   int line, int may_be_unsupported)
{
	if (e == cudaSuccess)
		return 1;
	if (may_be_unsupported && e == cudaErrorNotSupported) {
		printf("   -> %s: (not yet supported by this module)\n", what);
		return 0;
	}
	fprintf(stderr, "%s:%d: %s: %s (%s)\n", file, line, what,
		cudaGetErrorName(e), cudaGetErrorString(e));
	exit(1);
}

static inline struct cudaMemLocation ex_host_node(int node)
{
	struct cudaMemLocation l = { .type = cudaMemLocationTypeHostNuma, .id = node };

	return l;
}

static inline struct cudaMemLocation ex_device(int dev)
{
	struct cudaMemLocation l = { .type = cudaMemLocationTypeDevice, .id = dev };

	return l;
}

static inline struct uvm_context *ex_ctx(void)
{
	struct uvm_context *ctx = NULL;

	if (uvm_runtime_context(&ctx)) {
		fprintf(stderr, "no uvm runtime context\n");
		exit(1);
	}
	return ctx;
}

/* "where": pages per host node and per device, unpopulated pages. */
static inline void ex_where(const char *label, const void *p, size_t len)
{
	size_t n = (len + 4095) / 4096, i;
	struct uvm_page_info *pi = calloc(n, sizeof(*pi));
	unsigned long node[8] = { 0 }, dev[8] = { 0 }, none = 0, dup = 0;
	int k;

	if (!pi || uvm_residency(ex_ctx(), p, n, pi)) {
		printf("   [%s] residency query failed\n", label);
		free(pi);
		return;
	}
	for (i = 0; i < n; i++) {
		none += !(pi[i].flags & UVM_PAGE_INFO_POPULATED);
		dup += !!(pi[i].flags & UVM_PAGE_INFO_READ_DUPLICATED);
		if (pi[i].cpu_node >= 0 && pi[i].cpu_node < 8)
			node[pi[i].cpu_node]++;
		for (k = 0; k < 8; k++)
			dev[k] += !!(pi[i].devices_resident & (1ULL << k));
	}
	printf("   [%s] pages: unpopulated=%lu", label, none);
	for (k = 0; k < 8; k++)
		if (node[k])
			printf(" host-node%d=%lu", k, node[k]);
	for (k = 0; k < 8; k++)
		if (dev[k])
			printf(" device%d=%lu", k, dev[k]);
	if (dup)
		printf(" read-duplicated=%lu", dup);
	printf("\n");
	free(pi);
}

/* Host node of the page at @p, -1 if it has no host copy. */
static inline int ex_node_of(const void *p)
{
	struct uvm_page_info pi;

	if (uvm_residency(ex_ctx(), p, 1, &pi))
		return -1;
	return pi.cpu_node;
}

static const char *const ex_counter_names[] = {
	"cpu_faults", "cpu_mkwrite", "pages_populated", "prefetches",
	"migrate_h2h_pages", "migrate_h2h_bytes", "advises", "pages_freed",
	"device_faults", "fault_batches", "fault_batch_pages",
	"migrate_h2d_pages", "migrate_h2d_bytes", "migrate_d2h_pages",
	"migrate_d2h_bytes", "migrate_d2d_pages", "migrate_d2d_bytes",
	"evictions", "evicted_bytes", "read_dup_copies", "read_dup_collapses",
	"remote_maps", "discarded_pages", "cpu_device_maps", "pool_reused",
	"fault_ahead_pages", "pinned_skips",
};

/* Print the counters of this process's VA space that changed since *prev. */
static inline void ex_counters(uint64_t *prev)
{
	uint64_t v[EX_COUNTERS] = { 0 };
	int n = uvm_stats(ex_ctx(), UVM_STATS_SCOPE_CONTEXT, v, EX_COUNTERS), i, any = 0;

	printf("   [counters]");
	for (i = 0; i < n && i < EX_COUNTERS; i++) {
		if (v[i] == prev[i])
			continue;
		if (i < (int)(sizeof(ex_counter_names) / sizeof(ex_counter_names[0])))
			printf(" %s+%llu", ex_counter_names[i],
			       (unsigned long long)(v[i] - prev[i]));
		else
			printf(" counter_%d+%llu", i, (unsigned long long)(v[i] - prev[i]));
		any = 1;
	}
	printf("%s\n", any ? "" : " (no change)");
	memcpy(prev, v, sizeof(v));
}

/* Run uvm-smi ($UVM_SMI, else the one next to the build, else $PATH). */
static inline void ex_smi(void)
{
	const char *smi = getenv("UVM_SMI");
	char cmd[512];

	snprintf(cmd, sizeof(cmd), "%s 2>&1 | sed 's/^/   | /'", smi ? smi : "uvm-smi");
	fflush(stdout);
	if (system(cmd) != 0)
		printf("   (uvm-smi not available)\n");
}

/*
 * uvm-smi without its counter sections (the steps print counter deltas):
 * devices with memory used, the processes and where their memory lives.
 */
static inline void ex_smi_brief(void)
{
	const char *smi = getenv("UVM_SMI");
	char cmd[512];

	snprintf(cmd, sizeof(cmd),
		 "%s 2>&1 | awk '/^Device counters|^Counters/ { skip = 1; next }"
		 " /^Processes:|^Managed memory/ { skip = 0 } !skip && NF'"
		 " | sed 's/^/   | /'", smi ? smi : "uvm-smi");
	fflush(stdout);
	if (system(cmd) != 0)
		printf("   (uvm-smi not available)\n");
}

static inline double ex_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec * 1e-9;
}

static inline int ex_nodes(void)
{
	char path[64];
	int n = 0;
	FILE *f;

	for (;; n++) {
		snprintf(path, sizeof(path), "/sys/devices/system/node/node%d/meminfo", n);
		f = fopen(path, "r");
		if (!f)
			return n ? n : 1;
		fclose(f);
	}
}

#endif /* UVM_EXAMPLE_H */
