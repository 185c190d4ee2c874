/* SPDX-License-Identifier: MIT */
/*
 * dropin.S - the entry points of the drop-in libraries libcudart.so.13 and
 * libcuda.so.1 (libuvm/libuvm.mk builds them; docs/libuvm.md, "Drop-in
 * libraries").
 *
 * A drop-in holds no implementation: each of its exports is one jump to
 * the function of the same name in libuvm.so.0, so a process that loads
 * libuvm.so.0, libcudart.so.13 and libcuda.so.1 in any combination has
 * one runtime (one /dev/uvm context, one set of streams). The jump goes to
 * NAME@LIBUVM_0 (.symver): the dynamic linker never binds it to the
 * drop-in's own NAME, which carries another version (libcudart.so.13) or,
 * in libcuda.so.1, is never searched before libuvm.so.0 (libcuda.so.1 is a
 * filter on libuvm.so.0).
 *
 * DROPIN_LIST names a generated file of UVM_DROPIN(name) lines, one per
 * export (from libuvm/symbols.txt).
 */
#if defined(__x86_64__)
#define UVM_DROPIN_JUMP(t)	jmp t@PLT
#elif defined(__aarch64__)
#define UVM_DROPIN_JUMP(t)	b t
#else
#error "drop-in entry points: unsupported architecture"
#endif

#define UVM_DROPIN(name)					\
	.globl name;						\
	.type name, %function;					\
	.p2align 4;						\
name:								\
	UVM_DROPIN_JUMP(__uvm_dropin_##name);			\
	.size name, . - name;					\
	.symver __uvm_dropin_##name, name@LIBUVM_0;

	.text
#include DROPIN_LIST

	.section .note.GNU-stack, "", %progbits
