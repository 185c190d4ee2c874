// SPDX-License-Identifier: MIT
/*
 * cuda_pageable.c - the CUDA memory calls on pageable (system-allocated)
 * memory: malloc, the stack, file mappings.
 *
 * Where the module mirrors the process's page table for its devices
 * (UVM_MODULE_PAGEABLE_MIRROR: cudaDevAttrPageableMemoryAccess = 1),
 * devices access such memory in place (kmod/uvm_pageable.c), and:
 * - cudaMemPrefetchAsync to Host populates the range; to HostNuma or
 *   HostNumaCurrent it also migrates its pages there with move_pages(2),
 *   the kernel's own migration, queued on the stream like any prefetch;
 * - to a device: where the module migrates pageable memory
 *   (UVM_MODULE_PAGEABLE_MIGRATE: kernels with DEVICE_PRIVATE) the module's
 *   prefetch moves anonymous memory there, on the stream; a file or shared
 *   mapping, which cannot move, fails on the stream with
 *   cudaErrorNotSupported. Without migration the call answers
 *   cudaErrorNotSupported at once;
 * - cudaMemAdvise: where the module migrates pageable memory, the module
 *   keeps the advice per range and it steers device faults as for managed
 *   memory (kmod/uvm_pageable_policy.c); at the mirror level it answers
 *   cudaErrorNotSupported (no advice kept);
 * - cudaMemRangeGetAttribute: at the migration level the module's record
 *   (advice, the last prefetch to a device); at the mirror level what
 *   holds: not read-mostly, no preferred location, no accessed-by device,
 *   no last prefetch location recorded (Invalid).
 * Without the mirror every one of them answers cudaErrorInvalidValue, as
 * real CUDA 13 does where cudaDevAttrPageableMemoryAccess is 0 (H100,
 * driver 580).
 */
#include <errno.h>
#include <numa.h>
#include <numaif.h>
#include <stdint.h>
#include <stdlib.h>
#include <sys/mman.h>

#include "cuda_managed.h"

#ifndef MADV_POPULATE_READ
#define MADV_POPULATE_READ 22
#endif

/* Pages moved by one move_pages(2) call. */
#define PAGEABLE_MOVE_BATCH	512

static void page_round(const void *ptr, size_t len, uintptr_t *start, uintptr_t *end)
{
	size_t page = uvm_page_size();

	*start = (uintptr_t)ptr & ~(page - 1);
	*end = ((uintptr_t)ptr + len + page - 1) & ~(page - 1);
}

/*
 * Is [ptr, ptr + count) pageable memory devices can reach: the mirror is
 * on, the range is mapped (msync() says ENOMEM for a hole) and starts and
 * ends outside managed memory (the module refuses a mixed access anyway).
 */
bool uvm_cm_pageable(const void *ptr, size_t count)
{
	struct uvm_context *ctx = uvm_cuda_context();
	struct uvm_alloc a;
	uintptr_t start, end;

	if (!ctx || !(ctx->module.caps & UVM_MODULE_PAGEABLE_MIRROR) || !ptr || !count ||
	    (uintptr_t)ptr + count < (uintptr_t)ptr)
		return false;
	if (!uvm_managed_lookup(ctx, (uintptr_t)ptr, &a) ||
	    !uvm_managed_lookup(ctx, (uintptr_t)ptr + count - 1, &a))
		return false;
	page_round(ptr, count, &start, &end);
	return msync((void *)start, end - start, MS_ASYNC) == 0;
}

/* move_pages(2) of [start, end) to @node, a batch at a time. */
static int pageable_move(uintptr_t start, uintptr_t end, int node)
{
	size_t page = uvm_page_size(), n, i;
	void *pages[PAGEABLE_MOVE_BATCH];
	int nodes[PAGEABLE_MOVE_BATCH], status[PAGEABLE_MOVE_BATCH];

	while (start < end) {
		n = (end - start) / page;
		if (n > PAGEABLE_MOVE_BATCH)
			n = PAGEABLE_MOVE_BATCH;
		for (i = 0; i < n; i++) {
			pages[i] = (void *)(start + i * page);
			nodes[i] = node;
		}
		/* per-page failures (a zero page, a page in use) stay put */
		if (numa_move_pages(0, n, pages, nodes, status, MPOL_MF_MOVE) < 0 &&
		    errno != ENOENT)
			return -errno;
		start += n * page;
	}
	return 0;
}

/**
 * uvm_pageable_prefetch_host() - prefetch pageable memory to the host.
 * @ptr: start.
 * @len: bytes.
 * @loc: HOST, HOST_NUMA or HOST_NUMA_CURRENT (the node resolved in @loc.id).
 *
 * Return: 0 or -errno.
 */
int uvm_pageable_prefetch_host(const void *ptr, size_t len, struct uvm_mem_location loc)
{
	uintptr_t start, end;

	page_round(ptr, len, &start, &end);
	if (madvise((void *)start, end - start, MADV_POPULATE_READ) && errno != EINVAL)
		return -errno;	/* EINVAL: a kernel before 5.14, or PROT_NONE */
	if (loc.type == UVM_MEM_LOC_HOST)
		return 0;
	return pageable_move(start, end, loc.id);
}

/* The range attributes of pageable memory (see the top of this file). */
void uvm_pageable_range_info(struct uvm_range_info *info)
{
	*info = (struct uvm_range_info){ 0 };
	info->preferred.type = UVM_MEM_LOC_NONE;
	info->last_prefetch.type = UVM_MEM_LOC_NONE;
}
