/* SPDX-License-Identifier: GPL-2.0 */
/*
 * exp_kernel.h - what uvm-exp's workloads share: kernels of two-step
 * chunks, the 64-byte access, managed allocations counted in the run's
 * footprint (docs/experiments.md).
 *
 * Each kernel works in chunks of two steps, as a GPU kernel's warps load,
 * compute and store: a read step gathers the chunk's inputs into a
 * scratch buffer (64-byte accesses, a warp's transaction), a write step
 * computes the outputs there and stores them. Data lives in managed
 * memory set up by the CPU; after the last pass the CPU checks every
 * output element, so a lost or stale byte anywhere fails the run.
 */
#ifndef UVM_EXP_KERNEL_H
#define UVM_EXP_KERNEL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "exp.h"

#define GRANULE		64
#define STEP_MAX	UVM_KERNEL_MAX_ACCESSES

/*
 * A kernel of chunks: reads(chunk) emits the chunk's loads (0: no chunk
 * left, the kernel is done), writes(chunk) computes from them and emits
 * the stores (at least one). The state restarts at step 0, which runs
 * only once the stream's previous kernel (the last pass) has ended. It is
 * the first member of every workload's state.
 */
struct chunked {
	int (*reads)(void *w, uint64_t chunk, struct uvm_device_access_op *ops);
	int (*writes)(void *w, uint64_t chunk, struct uvm_device_access_op *ops);
	uint64_t chunk;
	bool storing;
};

/* The emit() of struct uvm_kernel for a struct chunked. */
int chunked_emit(void *arg, uint64_t step, struct uvm_device_access_op *ops,
		 unsigned int max);

/* Items of chunk @chunk when @total are cut in chunks of @per (0: none). */
static inline size_t chunk_len(size_t total, uint64_t chunk, size_t per)
{
	size_t first = chunk * per;

	if (first >= total)
		return 0;
	return total - first < per ? total - first : per;
}

static inline struct uvm_device_access_op op(const void *addr, uint64_t len,
					     void *buf, uint32_t type)
{
	return (struct uvm_device_access_op){
		.addr = (uintptr_t)addr, .length = len, .buf = (uintptr_t)buf,
		.type = type,
	};
}

/* Launch the chunked kernel @w on the run's stream: 0 or -EIO (said). */
int exp_launch(struct exp_run *r, void *w);
/*
 * The same for a kernel of pass @pass of a workload whose kernels differ
 * by pass (grids swapped): *@slot becomes @pass at the kernel's step 0,
 * once the stream's previous kernel has ended. 0, -ENOMEM or -EIO (said).
 */
int exp_launch_pass(struct exp_run *r, struct chunked *k, unsigned int *slot,
		    unsigned int pass);
/* Cells of two grids and a reference copy: seeded 16-bit values, zeros. */
void exp_grid_init(const struct exp_run *r, uint64_t *grid0, uint64_t *ref0,
		   uint64_t *grid1, size_t cells);
/* Managed memory counted in @r->footprint; NULL (said) on failure. */
void *exp_managed(struct exp_run *r, size_t bytes);
void exp_release(void *p);

/* The workloads (one file each, wl_*.c). */
extern const struct exp_workload exp_wl_triad, exp_wl_gather, exp_wl_stencil2d,
	exp_wl_pingpong, exp_wl_scatter, exp_wl_gather_zipf, exp_wl_scatter_zipf,
	exp_wl_stencil3d, exp_wl_matmul, exp_wl_spmv, exp_wl_bfs, exp_wl_replay;

#endif /* UVM_EXP_KERNEL_H */
