/* SPDX-License-Identifier: MIT */
/*
 * cuda_memory.h - shared by the tier B/C runtime calls (cuda_memory.c,
 * cuda_copy.c, cuda_array.c) and the driver twins (cuda_driver.c).
 */
#ifndef UVM_CUDA_MEMORY_H
#define UVM_CUDA_MEMORY_H

#include "uvm_internal.h"
#include "cuda_stream.h"

/*
 * What an address is, as the CUDA layer reports it. Device, pinned and
 * registered memory come from the module (UVM_IOCTL_PTR_INFO); managed
 * memory from the library's managed table (requested size, buffer id and
 * device current at allocation, which the module does not know).
 */
struct uvm_cptr {
	uint32_t type;		/* UVM_POINTER_* */
	int device;		/* device memory: its device; host/managed: current at
				 * allocation or registration; unregistered: -2 */
	uintptr_t base;
	size_t size;
	uint64_t buffer_id;	/* 0: none */
	uint32_t flags;		/* host alloc / register flags */
};

/* Classify @p (runtime initialised). 0 or -errno of the query. */
int uvm_cuda_ptr(const void *p, struct uvm_cptr *c);

/* Device current when the pinned allocation / registration at @base was
 * made (cuda_memory.c keeps this one fact the module does not). */
void uvm_hostdev_add(uintptr_t base, int device);
void uvm_hostdev_del(uintptr_t base);

/* cuda_mempool.c: is @base a stream-ordered allocation in use? cudaFree of
 * one (streams drained by the caller): InvalidValue if not, or its free is queued. */
bool uvm_mempool_owns(uintptr_t base);
cudaError_t uvm_mempool_free_now(void *ptr);

/* cudaError_t -> CUresult for the driver twins. */
CUresult uvm_cuda_to_cu(cudaError_t e);

/*
 * A driver call run through a runtime entry point: its status as a
 * CUresult, the thread's last runtime error left as it was (driver calls
 * never touch it).
 */
#define UVM_CU_FORWARD(call) ({						\
	cudaError_t __saved = uvm_cuda_swap_last_error(cudaSuccess);	\
	cudaError_t __e = (call);					\
	uvm_cuda_swap_last_error(__saved);				\
	uvm_cuda_to_cu(__e);						\
})

/* cuda_context.c: initialised and a live current context, else its error. */
CUresult uvm_cu_ctx_enter(void);

/* cuMemsetD8/16/32 (Async): @n elements of @elem (1, 2, 4) bytes of @value. */
cudaError_t uvm_cm_memset_elems(void *p, uint32_t value, size_t n, unsigned int elem,
				cudaStream_t stream, bool ptsz, bool async);

/* Shared implementations (return a cudaError_t, record nothing). */
cudaError_t uvm_cm_free(void *devPtr);
cudaError_t uvm_cm_host_alloc(void **p, size_t size, unsigned int flags);
cudaError_t uvm_cm_free_host(void *p);
cudaError_t uvm_cm_malloc(void **p, size_t size);
cudaError_t uvm_cm_mem_get_info(size_t *free_bytes, size_t *total);
cudaError_t uvm_cm_malloc_managed(void **devPtr, size_t size, unsigned int flags);

/* ---- copies (cuda_copy.c) ---- */

/* One copy, resolved to bytes (struct uvm_copy_desc layout). */
struct uvm_xfer {
	struct uvm_copy_desc d;
	bool src_array, dst_array;	/* array operands skip kind checks */
};

/* How a copy call waits. */
enum uvm_copy_mode {
	UVM_COPY_SYNC,		/* synchronous call: returns when done */
	UVM_COPY_ASYNC,		/* stream-ordered; waits only for pageable memory */
	UVM_COPY_ASYNC_WAIT,	/* stream-ordered, but done before return
				 * (cudaMemcpySrcAccessOrderDuringApiCall) */
};

/*
 * Validate and run (or queue) @n copies as one stream item. @kind is a
 * cudaMemcpyKind (0..4 already checked) tested against every pointer
 * operand; @stream/@ptsz pick the stream (a synchronous call passes 0 and
 * whether it came in through a _ptds name). Layout rules the CUDA entry
 * points report with their own codes (pitch, rows) are checked by them.
 */
cudaError_t uvm_copy_submit(struct uvm_xfer *x, size_t n, int kind, cudaStream_t stream,
			    bool ptsz, enum uvm_copy_mode mode);

/* A 3D extent's last byte + 1: 0 on overflow. */
uint64_t uvm_extent_end(uint64_t addr, uint64_t pitch, uint64_t rows, uint64_t w, uint64_t h,
			uint64_t d);

struct cudaArray;
/* A live array handle, or NULL (cuda_array.c). Arrays are freed only after
 * every queued stream item ran (cudaFreeArray drains the streams). */
struct cudaArray *uvm_array_lookup(const void *h);
size_t uvm_array_elem(const struct cudaArray *a);
/* cudaDeviceReset: destroy the arrays and mipmapped arrays on @device. */
void uvm_arrays_reset(int device);
/*
 * Place an array operand of a 3D copy: @pos and @ext in elements (ext
 * non-zero) -> @addr, @pitch, @rows of its backing memory. InvalidValue
 * if the region does not lie inside the array.
 */
cudaError_t uvm_array_side(const struct cudaArray *a, struct cudaPos pos, struct cudaExtent ext,
			   uint64_t *addr, uint64_t *pitch, uint64_t *rows);

/* Device properties (cuda_device.c), for limits. */
void uvm_cuda_props(int device, struct cudaDeviceProp *p);
/* cuda_device.c, for the driver API (valid @device). */
int uvm_cu_device_attr(int device, int attr, int *value);
void uvm_cuda_pci_bus_id(int device, char *buf, int len);
void uvm_cuda_uuid(int device, CUuuid *uuid);
/* CUDA 13.0, what these headers describe. */
#define UVM_CUDA_VERSION	13000

#endif /* UVM_CUDA_MEMORY_H */
