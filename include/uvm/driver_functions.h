/* SPDX-License-Identifier: MIT */
/*
 * driver_functions.h - inline constructors for the 3D memory structs.
 * Header-only: nothing here is exported by libuvm.
 */
#ifndef UVM_CUDA_DRIVER_FUNCTIONS_H
#define UVM_CUDA_DRIVER_FUNCTIONS_H
/* The macro NVIDIA's header defines: programs test it to see what is included. */
#define __DRIVER_FUNCTIONS_H__

#include "driver_types.h"

/* Pitched pointer from base @d, row stride @p (bytes), @xsz bytes x @ysz rows. */
static inline struct cudaPitchedPtr make_cudaPitchedPtr(void *d, size_t p,
							size_t xsz, size_t ysz)
{
	struct cudaPitchedPtr r;

	r.ptr = d;
	r.pitch = p;
	r.xsize = xsz;
	r.ysize = ysz;
	return r;
}

/* Position (elements for arrays, bytes in x for linear memory). */
static inline struct cudaPos make_cudaPos(size_t x, size_t y, size_t z)
{
	struct cudaPos r;

	r.x = x;
	r.y = y;
	r.z = z;
	return r;
}

/* Extent (elements for arrays, bytes in width for linear memory). */
static inline struct cudaExtent make_cudaExtent(size_t w, size_t h, size_t d)
{
	struct cudaExtent r;

	r.width = w;
	r.height = h;
	r.depth = d;
	return r;
}

#endif /* UVM_CUDA_DRIVER_FUNCTIONS_H */
