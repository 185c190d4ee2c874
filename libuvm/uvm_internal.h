/* SPDX-License-Identifier: MIT */
/*
 * uvm_internal.h - declarations shared inside libuvm; never installed.
 *
 * Error convention inside the library: 0 (or a count) for success, a
 * negative errno for failure. Only the CUDA layer turns these into
 * cudaError_t / CUresult, in exactly one place (cuda_error.c).
 */
#ifndef UVM_INTERNAL_H
#define UVM_INTERNAL_H

#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <uvm.h>
#include <cuda_runtime_api.h>
#include <cuda.h>

/* Everything is hidden (-fvisibility=hidden); this marks the exports. */
#define uvm_public __attribute__((visibility("default")))

#define UVM_ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

/* Zero an ioctl argument struct before filling it (libdrm's memclear). */
#define uvm_memclear(s) memset(&(s), 0, sizeof(s))

/* ioctl() that restarts on EINTR/EAGAIN; 0 or -errno. */
int uvm_ioctl(int fd, unsigned long request, void *arg);
int uvm_policy_from_env(struct uvm_context *ctx);

/* One device as the library keeps it. */
struct uvm_device {
	struct uvm_device_info info;	/* mem_total: capped if @cap */
	int render_fd;			/* -1 if the render node is unusable */
	uint64_t cap;			/* this context's cap (UVM_PERF_CAP), 0: none */
	uint64_t mem_size;		/* the device's own mem_total */
};

/* One managed allocation (uvm_managed.c). */
struct uvm_alloc {
	uintptr_t base;
	size_t size;			/* as requested */
	size_t map_size;		/* page-rounded length of the mapping */
	uint64_t buffer_id;
	uint32_t flags;			/* UVM_MANAGED_ATTACH_* at allocation */
	int32_t device;			/* device current at allocation, -1 */
	uint32_t attach;		/* current association (stream attach) */
	const void *attach_stream;	/* stream of a Single attach, else NULL */
};

/* The allocations of a context, sorted by base. */
struct uvm_alloc_table {
	pthread_rwlock_t lock;		/* Protects everything below */
	struct uvm_alloc *v;
	size_t n, cap;
};

/*
 * struct uvm_context: one open of /dev/uvm. Everything but @allocs is
 * immutable after uvm_open(); @allocs has its own lock.
 */
struct uvm_context {
	int fd;				/* /dev/uvm */
	struct uvm_module_info module;
	unsigned int num_devices;
	struct uvm_device *devices;	/* [num_devices], CUDA ordinal order */
	int numa_max_node;		/* -1 if libnuma is unavailable */
	struct uvm_alloc_table allocs;
};

/* uvm_managed.c: allocation table and managed-memory ioctls. */
int uvm_alloc_table_init(struct uvm_alloc_table *t);
void uvm_alloc_table_release(struct uvm_context *ctx);
/* uvm_managed_alloc() recording @device as the device current at allocation. */
int uvm_managed_alloc_dev(struct uvm_context *ctx, size_t size, uint32_t flags,
			  int32_t device, void **out);
/* The allocation containing @addr, copied to @out: 0 or -ENOENT. */
int uvm_managed_lookup(struct uvm_context *ctx, uintptr_t addr, struct uvm_alloc *out);
/* Is every page of [addr, addr + len) rounded out inside allocations? */
bool uvm_managed_covers(struct uvm_context *ctx, uintptr_t addr, size_t len);
int uvm_prefetch_current(struct uvm_context *ctx, const void *ptr, size_t len,
			 struct uvm_mem_location loc);
/* Set the association of the allocation based at @base: 0 or -ENOENT. */
int uvm_managed_set_attach(struct uvm_context *ctx, uintptr_t base, uint32_t attach,
			   const void *stream);
/* Every Single attach to @stream goes back to the allocation's own flags. */
void uvm_managed_detach_stream(struct uvm_context *ctx, const void *stream);
/* Is @node a host NUMA node with memory (libnuma)? */
bool uvm_numa_node_valid(int node);
size_t uvm_page_size(void);

/* uvm_discover.c: fill ctx->module and ctx->devices from an open /dev/uvm. */
int uvm_discover(struct uvm_context *ctx);
void uvm_discover_release(struct uvm_context *ctx);
int uvm_query_mem_free(struct uvm_context *ctx, unsigned int idx, uint64_t *mem_free);

/* cuda_error.c: the one mapping from -errno to CUDA status codes. */
cudaError_t uvm_errno_to_cuda(int err);
CUresult uvm_errno_to_cu(int err);
/* Record @e as the calling thread's last error (if not success); return @e. */
cudaError_t uvm_cuda_set_error(cudaError_t e);
cudaError_t uvm_cuda_last_error(bool reset);
/* Replace the thread's last runtime error with @e; return the old one. */
cudaError_t uvm_cuda_swap_last_error(cudaError_t e);

/* cuda_init.c: lazy one-time runtime initialisation. */
/* 0 on success, else the cudaError_t every call reports (sticky). */
cudaError_t uvm_cuda_init(void);
struct uvm_context *uvm_cuda_context(void);	/* valid after init succeeded */
/* Validate an ordinal: 0 or cudaErrorInvalidDevice. */
cudaError_t uvm_cuda_check_device(int device);
const struct uvm_device *uvm_cuda_device(int device);
int uvm_cuda_current_device(void);
void uvm_cuda_set_current_device(int device);
/* Has the driver API been initialised (cuInit, or the runtime's own init)? */
bool uvm_cu_initialised(void);
void uvm_cu_set_initialised(void);

/* cuda_context.c: driver contexts and the calling thread's context stack. */
/* The primary contexts of @ndev devices: 0 or -ENOMEM (runtime init). */
int uvm_ctx_init(unsigned int ndev);
/* Device of the thread's current context; -1 if none (or destroyed). */
int uvm_ctx_current_device(void);
/* Make @device's primary context current, replacing the top of the stack. */
void uvm_ctx_bind_primary(int device);
/* Bind @device's primary context if the thread has no current context. */
void uvm_ctx_bind_default(int device);
/* @device's primary context: retain count, flags and peers back to none. */
void uvm_ctx_primary_reset(int device);
/* cudaSetDeviceFlags / cudaGetDeviceFlags of @device (valid). */
cudaError_t uvm_ctx_set_device_flags(int device, unsigned int flags);
unsigned int uvm_ctx_device_flags(int device);

#endif /* UVM_INTERNAL_H */
