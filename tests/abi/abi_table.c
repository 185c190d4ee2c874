// SPDX-License-Identifier: MIT
/*
 * abi_table.c - the CUDA 13.0 ABI table (libuvm/cuda_abi_table.h) as
 * compile-time assertions. Built against include/uvm (C and C++) and against
 * the CUDA toolkit's own headers: both must compile, so both header sets
 * agree on every enum value, #define value, struct size and field offset.
 */
#include <stddef.h>
#include <cuda.h>
#include <cuda_runtime_api.h>

#if defined(__cplusplus)
#define ABI_ASSERT(c, m) static_assert(c, m)
#else
#define ABI_ASSERT(c, m) _Static_assert(c, m)
#endif

#define UVM_ABI_VAL(n, v)	ABI_ASSERT((long long)(n) == (long long)(v), "value of " #n);
#define UVM_ABI_SIZE(t, s)	ABI_ASSERT(sizeof(t) == (s), "sizeof " #t);
#define UVM_ABI_ALIGN(t, a)	ABI_ASSERT(alignof_(t) == (a), "alignof " #t);
#define UVM_ABI_OFF(t, f, o)	ABI_ASSERT(offsetof(t, f) == (o), "offset of " #t "." #f);

#if defined(__cplusplus)
#define alignof_(t) alignof(t)
#else
#define alignof_(t) _Alignof(t)
#endif

#include "../../libuvm/cuda_abi_table.h"

/* Handle types must be the same pointer types as CUDA's. */
#if !defined(__cplusplus)
ABI_ASSERT(_Generic((cudaStream_t)0, struct CUstream_st *: 1, default: 0), "cudaStream_t");
ABI_ASSERT(_Generic((CUstream)0, struct CUstream_st *: 1, default: 0), "CUstream");
ABI_ASSERT(_Generic((cudaEvent_t)0, struct CUevent_st *: 1, default: 0), "cudaEvent_t");
ABI_ASSERT(_Generic((cudaArray_t)0, struct cudaArray *: 1, default: 0), "cudaArray_t");
ABI_ASSERT(_Generic((cudaArray_const_t)0, const struct cudaArray *: 1, default: 0), "cudaArray_const_t");
ABI_ASSERT(_Generic((cudaMipmappedArray_t)0, struct cudaMipmappedArray *: 1, default: 0), "mipmap");
ABI_ASSERT(_Generic((CUdeviceptr)0, unsigned long long: 1, default: 0), "CUdeviceptr");
ABI_ASSERT(_Generic((CUdevice)0, int: 1, default: 0), "CUdevice");
#endif

int abi_table_dummy;
