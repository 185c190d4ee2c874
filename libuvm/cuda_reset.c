// SPDX-License-Identifier: MIT
/*
 * cuda_reset.c - cudaDeviceReset.
 *
 * DOC: Device reset
 *
 * cudaDeviceReset waits for the work queued on the current device, then
 * destroys what the process made there: its streams and events (the
 * legacy and per-thread streams stay, empty), its arrays and mipmapped
 * arrays, and the memory of cudaMalloc/cudaMallocPitch/cudaMalloc3D on the
 * device, cudaMallocHost/cudaHostAlloc and cudaMallocManaged made while it
 * was current. As CUDA documents, stream-ordered allocations
 * (cudaMallocAsync, cudaMallocFromPoolAsync) survive, and so do
 * registrations (cudaHostRegister). Its primary context goes back to no
 * flags and no peers. Any later call simply uses the device again.
 *
 * The library keeps no list of device and pinned allocations (the module
 * answers every question about a pointer), so they are found where the
 * kernel keeps them: each one is a mapping, so every mapping start in
 * /proc/self/maps is asked about (UVM_IOCTL_PTR_INFO on the runtime's VA
 * space, which knows only its own allocations; managed memory from the
 * library's table), and acted on if it is an allocation's base.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>

#include "cuda_managed.h"
#include "cuda_memory.h"

/* Start addresses of the process's mappings: *n of them (malloc'd). */
static uintptr_t *uvm_mapping_starts(size_t *n)
{
	uintptr_t *v = NULL, *nv;
	unsigned long long start;
	char line[512];
	size_t cap = 0;
	FILE *f;

	*n = 0;
	f = fopen("/proc/self/maps", "re");
	if (!f)
		return NULL;
	while (fgets(line, sizeof(line), f)) {
		bool whole = strchr(line, '\n') != NULL;

		/* a long pathname: the line's rest is no mapping */
		while (!whole && fgets(line + 1, sizeof(line) - 1, f))
			whole = strchr(line + 1, '\n') != NULL;
		if (sscanf(line, "%llx-", &start) != 1)
			continue;
		if (*n == cap) {
			cap = cap ? 2 * cap : 64;
			nv = realloc(v, cap * sizeof(*v));
			if (!nv)
				break;
			v = nv;
		}
		v[(*n)++] = (uintptr_t)start;
	}
	fclose(f);
	return v;
}

/* Free the allocation based at @base if it belongs to @device's reset. */
static void reset_one(uintptr_t base, int device)
{
	struct uvm_cptr c;

	if (uvm_cuda_ptr((void *)base, &c) || c.base != base || c.device != device ||
	    uvm_mempool_owns(base))
		return;
	switch (c.type) {
	case UVM_POINTER_MANAGED:
		uvm_cm_free_managed((void *)base);
		break;
	case UVM_POINTER_DEVICE:
		uvm_mem_free(uvm_cuda_context(), (void *)base);
		break;
	case UVM_POINTER_HOST_ALLOC:
		if (!uvm_mem_free(uvm_cuda_context(), (void *)base))
			uvm_hostdev_del(base);
		break;
	default:
		break;
	}
}

static void reset_memory(int device)
{
	uintptr_t *v;
	size_t n, i;

	v = uvm_mapping_starts(&n);
	for (i = 0; i < n; i++)
		reset_one(v[i], device);
	free(v);
}

uvm_public cudaError_t cudaDeviceReset(void)
{
	cudaError_t e = uvm_cuda_init();
	int device;

	if (e)
		return uvm_cuda_set_error(e);
	device = uvm_cuda_current_device();
	uvm_streams_reset(device);
	uvm_arrays_reset(device);
	reset_memory(device);
	uvm_ctx_primary_reset(device);
	return cudaSuccess;
}
