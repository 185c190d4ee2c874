// SPDX-License-Identifier: MIT
/*
 * walkthrough - managed memory step by step, showing where the pages are
 * and what the module counted after each step.
 *
 *   walkthrough [MiB]        (default 8)
 *
 * Steps: allocate, touch from the CPU, prefetch to the other host NUMA
 * node, prefetch to device 0, access from device 1, read-mostly
 * duplication, oversubscription of device 0, discard. A step the module
 * does not support yet prints "(not yet supported by this module)" (the
 * runtime returned cudaErrorNotSupported) and the walk goes on.
 * Set UVM_SMI to the uvm-smi binary: it is shown after every step (devices,
 * processes and where their memory lives) and in full at the start and end.
 */
#include "example.h"

static uint64_t ctr[EX_COUNTERS];

static void step(int n, const char *what)
{
	printf("\n== step %d: %s\n", n, what);
}

static void show(const char *label, const void *p, size_t len)
{
	ex_where(label, p, len);
	ex_counters(ctr);
	ex_smi_brief();
}

static void cpu_touch(char *p, size_t len)
{
	size_t i;

	for (i = 0; i < len; i += 4096)
		p[i] = (char)i;
}

static void prefetch(const void *p, size_t len, struct cudaMemLocation loc)
{
	if (EX_TRY(cudaMemPrefetchAsync(p, len, loc, 0, 0)))
		EX_CHECK(cudaDeviceSynchronize());
}

static void read_mostly(char *p, size_t len, int ndev)
{
	volatile char sum = 0;
	size_t i;

	EX_CHECK(cudaMemAdvise(p, len, cudaMemAdviseSetReadMostly, ex_host_node(0)));
	for (i = 0; i < len; i += 4096)
		sum += p[i];
	(void)sum;
	if (ndev > 0)
		prefetch(p, len, ex_device(0));
	show("read-mostly, read by CPU and device 0", p, len);
	EX_CHECK(cudaMemAdvise(p, len, cudaMemAdviseUnsetReadMostly, ex_host_node(0)));
}

static void oversubscribe(int ndev)
{
	struct cudaDeviceProp prop;
	size_t len;
	char *big;

	if (!ndev) {
		printf("   (no device)\n");
		return;
	}
	EX_CHECK(cudaGetDeviceProperties(&prop, 0));
	len = prop.totalGlobalMem + prop.totalGlobalMem / 2;
	if (len > 768 * EX_MIB) {
		printf("   device 0 has %zu MiB: capping the walk at 768 MiB\n",
		       prop.totalGlobalMem / EX_MIB);
		len = 768 * EX_MIB;
	}
	printf("   %zu MiB managed for a %zu MiB device\n", len / EX_MIB,
	       prop.totalGlobalMem / EX_MIB);
	EX_CHECK(cudaMallocManaged((void **)&big, len, cudaMemAttachGlobal));
	prefetch(big, len, ex_device(0));
	show("oversubscribed", big, len);
	EX_CHECK(cudaFree(big));
}

static void discard(void *p, size_t len)
{
	void *ptrs[1] = { p };
	size_t sizes[1] = { len };
	cudaStream_t s;

	/* Batch calls refuse the legacy default stream: use a stream. */
	EX_CHECK(cudaStreamCreate(&s));
	if (EX_TRY(cudaMemDiscardBatchAsync(ptrs, sizes, 1, 0, s)))
		EX_CHECK(cudaStreamSynchronize(s));
	EX_CHECK(cudaStreamDestroy(s));
	show("discarded", p, len);
}

int main(int argc, char **argv)
{
	size_t len = (argc > 1 ? strtoul(argv[1], NULL, 0) : 8) * EX_MIB;
	int ndev = 0, nodes = ex_nodes(), other;
	char *p;

	EX_CHECK(cudaGetDeviceCount(&ndev));
	printf("walkthrough: %d device(s), %d host NUMA node(s), %zu MiB\n", ndev,
	       nodes, len / EX_MIB);
	ex_smi();

	step(1, "cudaMallocManaged: address space only, no memory yet");
	EX_CHECK(cudaMallocManaged((void **)&p, len, cudaMemAttachGlobal));
	show("allocated", p, len);

	step(2, "touch every page from the CPU: faults populate host memory");
	cpu_touch(p, len);
	show("CPU-touched", p, len);

	other = nodes > 1 ? !ex_node_of(p) : 0;
	printf("\n== step 3: cudaMemPrefetchAsync to host NUMA node %d: pages move node to node\n",
	       other);
	prefetch(p, len, ex_host_node(other));
	show("on the other node", p, len);

	step(4, "cudaMemPrefetchAsync to device 0");
	if (ndev > 0)
		prefetch(p, len, ex_device(0));
	show("prefetched to device 0", p, len);

	step(5, "access from device 1 (accessed-by device 1, then prefetch there)");
	if (ndev > 1) {
		EX_TRY(cudaMemAdvise(p, len, cudaMemAdviseSetAccessedBy, ex_device(1)));
		prefetch(p, len, ex_device(1));
	}
	show("device 1", p, len);

	step(6, "read-mostly: read copies on the CPU and device 0");
	read_mostly(p, len, ndev);

	step(7, "oversubscribe device 0 by 50%");
	oversubscribe(ndev);

	step(8, "discard: the data is not needed any more");
	discard(p, len);

	step(9, "cudaFree");
	EX_CHECK(cudaFree(p));
	ex_counters(ctr);
	ex_smi();
	printf("\nwalkthrough: done\n");
	return 0;
}
