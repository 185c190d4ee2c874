// SPDX-License-Identifier: MIT
/*
 * cuda_abi.c - compile-time proof that include/uvm matches CUDA 13.0's ABI.
 * No code: a wrong enum value, size or offset in the headers fails the build.
 */
#include <stddef.h>

#include "uvm_internal.h"

#define UVM_ABI_VAL(n, v)	_Static_assert((long long)(n) == (long long)(v), "value of " #n);
#define UVM_ABI_SIZE(t, s)	_Static_assert(sizeof(t) == (s), "sizeof " #t);
#define UVM_ABI_ALIGN(t, a)	_Static_assert(_Alignof(t) == (a), "alignof " #t);
#define UVM_ABI_OFF(t, f, o)	_Static_assert(offsetof(t, f) == (o), "offset of " #t "." #f);
#include "cuda_abi_table.h"
