/* SPDX-License-Identifier: MIT */
/*
 * vector_types.h - the few CUDA vector types libuvm's headers need.
 *
 * A subset: int2..int4, uint2..uint4, float2..float4 with CUDA's sizes and
 * alignments, and dim3 (the launch dimensions of cudaLaunchKernel and of
 * the kernels by name, docs/kernels.md).
 */
#ifndef UVM_CUDA_VECTOR_TYPES_H
#define UVM_CUDA_VECTOR_TYPES_H
/* The macro NVIDIA's header defines: programs test it to see what is included. */
#define __VECTOR_TYPES_H__

#if !defined(__device_builtin__)
#define __device_builtin__
#endif

#define UVM_VEC_ALIGN(n) __attribute__((aligned(n)))

struct __device_builtin__ UVM_VEC_ALIGN(8) int2 { int x, y; };
struct __device_builtin__ int3 { int x, y, z; };
struct __device_builtin__ UVM_VEC_ALIGN(16) int4 { int x, y, z, w; };
struct __device_builtin__ UVM_VEC_ALIGN(8) uint2 { unsigned int x, y; };
struct __device_builtin__ uint3 { unsigned int x, y, z; };
struct __device_builtin__ UVM_VEC_ALIGN(16) uint4 { unsigned int x, y, z, w; };
struct __device_builtin__ UVM_VEC_ALIGN(8) float2 { float x, y; };
struct __device_builtin__ float3 { float x, y, z; };
struct __device_builtin__ UVM_VEC_ALIGN(16) float4 { float x, y, z, w; };

typedef __device_builtin__ struct int2 int2;
typedef __device_builtin__ struct int3 int3;
typedef __device_builtin__ struct int4 int4;
typedef __device_builtin__ struct uint2 uint2;
typedef __device_builtin__ struct uint3 uint3;
typedef __device_builtin__ struct uint4 uint4;
typedef __device_builtin__ struct float2 float2;
typedef __device_builtin__ struct float3 float3;
typedef __device_builtin__ struct float4 float4;

/* Launch dimensions; unspecified components default to 1 in C++. */
struct __device_builtin__ dim3 {
	unsigned int x, y, z;
#if defined(__cplusplus)
	dim3(unsigned int vx = 1, unsigned int vy = 1, unsigned int vz = 1)
		: x(vx), y(vy), z(vz) {}
	dim3(uint3 v) : x(v.x), y(v.y), z(v.z) {}
	operator uint3() const { uint3 r = { x, y, z }; return r; }
#endif
};
typedef __device_builtin__ struct dim3 dim3;

#undef UVM_VEC_ALIGN

#endif /* UVM_CUDA_VECTOR_TYPES_H */
