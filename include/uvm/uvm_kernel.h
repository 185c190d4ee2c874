/* SPDX-License-Identifier: MIT */
/*
 * uvm_kernel.h - device kernels on CUDA streams (docs/kernels.md).
 *
 * There is no code running on the devices here: a "kernel" is device work
 * expressed as the accesses it makes to managed memory, performed through
 * the device's page table by the module (device faults, migrations,
 * prefetching and eviction happen as on real hardware). A kernel is
 * launched on a stream like a CUDA kernel: it runs after the stream's
 * earlier work and before its later work (cudaMemPrefetchAsync, events,
 * cudaStreamWaitEvent, the legacy and per-thread default streams alike),
 * and what goes wrong while it runs is the stream's error, reported by
 * the next cudaStreamSynchronize, cudaStreamQuery or
 * cudaDeviceSynchronize.
 *
 * Launch-time errors are returned at once and nothing is queued.
 */
#ifndef UVM_UVM_KERNEL_H
#define UVM_UVM_KERNEL_H

#include <stdint.h>

#include "cuda_runtime_api.h"
#include "uvm.h"

#if defined(__cplusplus)
extern "C" {
#endif

/* Most accesses one step of a kernel may emit. */
#define UVM_KERNEL_MAX_ACCESSES		4096

/**
 * struct uvm_kernel_stats - what a kernel did (uvm_kernel.done).
 * @steps: steps emitted and performed.
 * @accesses: accesses performed.
 * @faults: device faults they took.
 * @ns: from the kernel's start in its stream to its end, CLOCK_MONOTONIC.
 */
struct uvm_kernel_stats {
	uint64_t steps;
	uint64_t accesses;
	uint64_t faults;
	uint64_t ns;
	uint64_t reserved[4];
};

/*
 * Emit step @step (0, 1, ...) of a kernel: write up to @max accesses to
 * @ops and return how many (1..@max); 0: the kernel is done; a negative
 * errno: the kernel fails with it. Called in the stream's worker thread,
 * one step at a time; the accesses' buffers must stay valid until the
 * step has been performed (the next call, or done()).
 */
typedef int (*uvm_kernel_emit_fn)(void *arg, uint64_t step,
				  struct uvm_device_access_op *ops,
				  unsigned int max);

/**
 * struct uvm_kernel - a kernel to launch (copied at launch).
 * @emit: its accesses, step by step (required).
 * @arg: passed to @emit and @done.
 * @done: called once in the stream's worker when the kernel has ended,
 *	  with 0 or the negative errno it failed with and what it did; may
 *	  free @arg. Optional. Not called when the launch itself fails.
 * @flags: zero.
 * @reserved: zero.
 */
struct uvm_kernel {
	uvm_kernel_emit_fn emit;
	void *arg;
	void (*done)(void *arg, int status, const struct uvm_kernel_stats *st);
	uint32_t flags;
	uint32_t reserved[7];
};

/*
 * Launch @k on device @device (-1: the stream's device) in @stream (0:
 * the legacy default stream, or the calling thread's when this is called
 * through uvmLaunchKernel_ptsz: CUDA_API_PER_THREAD_DEFAULT_STREAM).
 *
 * Returns at once: cudaErrorInvalidValue (NULL @k or @emit, non-zero
 * flags or reserved words), cudaErrorInvalidDevice, cudaErrorInvalidResourceHandle
 * (a destroyed stream), cudaErrorMemoryAllocation. While it runs: an
 * access outside managed memory is cudaErrorIllegalAddress, a malformed
 * access (type, pad, an unaligned atomic) cudaErrorInvalidValue, @emit's
 * own errno its usual status; the kernel stops at the failing step.
 */
cudaError_t uvmLaunchKernel(const struct uvm_kernel *k, int device,
			    cudaStream_t stream);
cudaError_t uvmLaunchKernel_ptsz(const struct uvm_kernel *k, int device,
				 cudaStream_t stream);

#if defined(CUDA_API_PER_THREAD_DEFAULT_STREAM)
#define uvmLaunchKernel uvmLaunchKernel_ptsz
#endif

/* ---- built-in access patterns */

/* struct uvm_pattern.kind */
#define UVM_PATTERN_SEQUENTIAL	1	/* base, base + stride, ... to the end */
#define UVM_PATTERN_RANDOM	2	/* @count granules, uniform, seeded */

/**
 * struct uvm_pattern - a kernel sweeping or sampling one range.
 * @kind: UVM_PATTERN_*.
 * @access: UVM_DEVICE_ACCESS_READ or _WRITE.
 * @base: the range (managed memory, or pageable memory where the module
 *	  mirrors it: docs/pageable-memory.md), @len bytes.
 * @len: bytes.
 * @granule: bytes per access, 1..4096 (0: 64, a warp's transaction).
 * @stride: SEQUENTIAL: bytes from one access to the next, at least
 *	    @granule (0: @granule).
 * @count: RANDOM: accesses (granule-aligned offsets); SEQUENTIAL: 0.
 * @seed: RANDOM: the generator's seed (the same seed, the same accesses).
 * @data: WRITE: @granule bytes written by every access (NULL: zeros).
 * @flags: zero.
 * @reserved: zero.
 */
struct uvm_pattern {
	uint32_t kind;
	uint32_t access;
	void *base;
	uint64_t len;
	uint32_t granule;
	uint32_t stride;
	uint64_t count;
	uint64_t seed;
	const void *data;
	uint32_t flags;
	uint32_t reserved[7];
};

/*
 * Launch the pattern @p as a kernel (copied at launch), as
 * uvmLaunchKernel(). Also cudaErrorInvalidValue for a bad kind, access,
 * granule, stride or count, or a range that is neither managed memory nor
 * reachable pageable memory.
 */
cudaError_t uvmLaunchPattern(const struct uvm_pattern *p, int device,
			     cudaStream_t stream);
cudaError_t uvmLaunchPattern_ptsz(const struct uvm_pattern *p, int device,
				  cudaStream_t stream);

#if defined(CUDA_API_PER_THREAD_DEFAULT_STREAM)
#define uvmLaunchPattern uvmLaunchPattern_ptsz
#endif

/* ---- kernels by name (docs/kernels.md, "Kernels by name") */

/**
 * struct uvm_kernel_launch - one launch of a kernel by name.
 * @name: the kernel's mangled name as nvcc registered it (what
 *	  __cudaRegisterFunction received), e.g. "_Z9vectorAddPKfS0_Pfi".
 * @grid: the launch's grid dimensions.
 * @block: its block dimensions.
 * @shared_mem: the dynamic shared memory it asked for, in bytes.
 * @args: its arguments as cudaLaunchKernel receives them: @args[i] points
 *	  at argument i; valid only during the implementation's call.
 * @device: the device it runs on.
 * @reserved: zero.
 */
struct uvm_kernel_launch {
	const char *name;
	dim3 grid;
	dim3 block;
	size_t shared_mem;
	void **args;
	int device;
	uint32_t reserved[7];
};

/*
 * A kernel's CPU implementation: fill @k (zeroed on entry) for launch @l:
 * @k->emit and the state @k->arg needs, copied from @l->args; @k->done
 * frees it. Called in the launching thread; the kernel then runs in the
 * stream like any uvmLaunchKernel() kernel. Returns 0, or a negative errno
 * with nothing allocated: the launch fails with its CUDA code (-EINVAL:
 * cudaErrorInvalidValue, -ENOMEM: cudaErrorMemoryAllocation). If the launch
 * fails after a successful fill, @k->done is called with -ECANCELED.
 */
typedef int (*uvm_kernel_impl_fn)(const struct uvm_kernel_launch *l,
				  struct uvm_kernel *k);

/**
 * struct uvm_kernel_impl - a kernel's implementation, keyed by its name.
 * @name: the mangled name (struct uvm_kernel_launch.name).
 * @launch: the implementation.
 */
struct uvm_kernel_impl {
	const char *name;
	uvm_kernel_impl_fn launch;
};

/*
 * A shared object named in UVM_KERNELS (a colon-separated list of paths,
 * loaded once, at the first kernel launch, lookup or uvmRegisterKernels()
 * call; a file that cannot be used is named on stderr with the reason and
 * nothing of it is registered) exports an array of this name, ended by an
 * entry whose @name is NULL:
 *
 *	const struct uvm_kernel_impl uvm_kernel_impls[] = {
 *		{ "_Z9vectorAddPKfS0_Pfi", vector_add },
 *		{ NULL, NULL },
 *	};
 */
#define UVM_KERNEL_IMPLS_SYMBOL	"uvm_kernel_impls"

/*
 * Register implementations from the program itself: @impls, ended by an
 * entry whose @name is NULL. A name already registered (here or by
 * UVM_KERNELS) is refused: cudaErrorInvalidValue, and none of @impls is
 * registered. Also cudaErrorInvalidValue for a NULL @impls, an empty
 * name or a NULL @launch. @impls is used in place: its names and
 * functions must stay valid for the life of the process.
 */
cudaError_t uvmRegisterKernels(const struct uvm_kernel_impl *impls);

#if defined(__cplusplus)
}
#endif

#endif /* UVM_UVM_KERNEL_H */
