/* SPDX-License-Identifier: MIT */
/*
 * cuda_runtime.h - C-compatible subset of CUDA's cuda_runtime.h for libuvm:
 * the runtime API plus the make_cuda* helpers. CUDA's C++ template
 * overloads and kernel-launch syntax support are not provided.
 */
#ifndef UVM_CUDA_RUNTIME_H
#define UVM_CUDA_RUNTIME_H
/* The macro NVIDIA's header defines: programs test it to see what is included. */
#define __CUDA_RUNTIME_H__

#include "cuda_runtime_api.h"
#include "driver_functions.h"

#endif /* UVM_CUDA_RUNTIME_H */
