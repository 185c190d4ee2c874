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
 * kernel keeps them: every mapping of the context's /dev/uvm file in
 * /proc/self/maps whose start is an allocation's base. Mappings of other
 * opens of /dev/uvm are another VA space and are never touched.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>

#include "cuda_managed.h"
#include "cuda_memory.h"

/* Start addresses of the mappings of @fd's file: *n of them (malloc'd). */
static uintptr_t *uvm_file_mappings(int fd, size_t *n)
{
	unsigned long long start, ino;
	unsigned int maj, min;
	uintptr_t *v = NULL, *nv;
	size_t cap = 0;
	struct stat st;
	char line[512];
	FILE *f;

	*n = 0;
	if (fstat(fd, &st))
		return NULL;
	f = fopen("/proc/self/maps", "re");
	if (!f)
		return NULL;
	while (fgets(line, sizeof(line), f)) {
		if (sscanf(line, "%llx-%*x %*s %*x %x:%x %llu", &start, &maj, &min, &ino) != 4 ||
		    makedev(maj, min) != st.st_dev || ino != st.st_ino)
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

	v = uvm_file_mappings(uvm_context_fd(uvm_cuda_context()), &n);
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
