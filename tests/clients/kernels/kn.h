/* SPDX-License-Identifier: MIT */
/*
 * kn.h - helpers for CPU implementations of CUDA kernels, loaded by libuvm
 * from UVM_KERNELS (docs/kernels.md, "Kernels by name").
 *
 * A kernel is written as a state machine over chunks of its work: each
 * chunk runs a fixed list of phases, and each phase emits one step of
 * device accesses (reads into the state's buffers, writes from them,
 * atomics) after computing from what the previous steps read. A phase may
 * emit nothing (the machine goes on to the next phase at once) or jump
 * back to an earlier phase of the same chunk (a loop: a spin, a frontier).
 * Accesses are cut at 64-byte boundaries, a warp's transaction, as the
 * project's other workloads make them.
 *
 *	static const kn_phase_fn phases[] = { load, store, NULL };
 *	...
 *	st->m = (struct kn_machine){ .phases = phases, .chunks = n };
 *	return kn_start(k, st);
 */
#ifndef KN_H
#define KN_H

#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "uvm_kernel.h"

#define KN_GRANULE	64
#define KN_MAX		UVM_KERNEL_MAX_ACCESSES

/* Argument @i of launch @l, of type @T (args[i] points at it). */
#define KN_ARG(l, i, T)	(*(T *)(l)->args[i])

/* One step being emitted. */
struct kn_step {
	struct uvm_device_access_op *ops;
	unsigned int n, max;
	int next;		/* -1: the next phase; else that phase of the chunk */
};

typedef int (*kn_phase_fn)(void *st, uint64_t chunk, struct kn_step *s);

/* The first member of every kernel's state. */
struct kn_machine {
	const kn_phase_fn *phases;	/* NULL-terminated */
	uint64_t chunks;		/* the kernel ends after the last */
	uint64_t chunk;
	unsigned int phase;
};

/* Are the launch's first @n arguments there? */
static inline bool kn_args(const struct uvm_kernel_launch *l, unsigned int n)
{
	unsigned int i;

	if (!l->args)
		return !n;
	for (i = 0; i < n; i++)
		if (!l->args[i])
			return false;
	return true;
}

/* Threads of the launch (the grid-stride loops' stride). */
static inline uint64_t kn_threads(const struct uvm_kernel_launch *l)
{
	return (uint64_t)l->grid.x * l->grid.y * l->grid.z *
	       l->block.x * l->block.y * l->block.z;
}

/* One access of @len bytes (no cutting): -ENOSPC if the step is full. */
static inline int kn_op(struct kn_step *s, uint32_t type, const void *addr, uint64_t len,
			void *buf)
{
	if (s->n == s->max)
		return -ENOSPC;
	s->ops[s->n++] = (struct uvm_device_access_op){
		.addr = (uintptr_t)addr, .length = len, .buf = (uintptr_t)buf, .type = type,
	};
	return 0;
}

/* Accesses covering [addr, addr + len), cut at 64-byte boundaries. */
static inline int kn_span(struct kn_step *s, uint32_t type, const void *addr, size_t len,
			  void *buf)
{
	uintptr_t a = (uintptr_t)addr;
	char *b = buf;
	int ret;

	while (len) {
		size_t piece = KN_GRANULE - a % KN_GRANULE;

		if (piece > len)
			piece = len;
		ret = kn_op(s, type, (const void *)a, piece, b);
		if (ret)
			return ret;
		a += piece;
		b += piece;
		len -= piece;
	}
	return 0;
}

static inline int kn_read(struct kn_step *s, const void *addr, size_t len, void *buf)
{
	return kn_span(s, UVM_DEVICE_ACCESS_READ, addr, len, buf);
}

static inline int kn_write(struct kn_step *s, void *addr, size_t len, const void *buf)
{
	return kn_span(s, UVM_DEVICE_ACCESS_WRITE, addr, len, (void *)buf);
}

/* *addr += *inout (8 bytes, atomic); the old value lands in *inout. */
static inline int kn_atomic_add(struct kn_step *s, void *addr, uint64_t *inout)
{
	return kn_op(s, UVM_DEVICE_ACCESS_ATOMIC_ADD, addr, 8, inout);
}

/* Granules [0, 64) of [addr, addr + len): how many accesses kn_span makes. */
static inline size_t kn_granules(const void *addr, size_t len)
{
	uintptr_t a = (uintptr_t)addr;

	if (!len)
		return 0;
	return (a + len - 1) / KN_GRANULE - a / KN_GRANULE + 1;
}

/* The emit() of every kn kernel: the phases of each chunk, in order. */
static inline int kn_emit(void *arg, uint64_t step, struct uvm_device_access_op *ops,
			  unsigned int max)
{
	struct kn_machine *m = arg;
	struct kn_step s = { .ops = ops, .max = max };
	int ret;

	(void)step;
	while (m->chunk < m->chunks) {
		s.n = 0;
		s.next = -1;
		ret = m->phases[m->phase](arg, m->chunk, &s);
		if (ret < 0)
			return ret;
		if (s.next >= 0) {
			m->phase = (unsigned int)s.next;
		} else if (!m->phases[++m->phase]) {
			m->phase = 0;
			m->chunk++;
		}
		if (s.n)
			return (int)s.n;
	}
	return 0;
}

static inline void kn_done(void *arg, int status, const struct uvm_kernel_stats *st)
{
	(void)status;
	(void)st;
	free(arg);
}

/* Launch the machine that begins @st (allocated with malloc/calloc). */
static inline int kn_start(struct uvm_kernel *k, void *st)
{
	k->emit = kn_emit;
	k->arg = st;
	k->done = kn_done;
	return 0;
}

/* Chunks of @per items over @total. */
static inline uint64_t kn_chunks(uint64_t total, uint64_t per)
{
	return (total + per - 1) / per;
}

/* Items of chunk @chunk: [*lo, *hi). */
static inline void kn_range(uint64_t total, uint64_t per, uint64_t chunk, uint64_t *lo,
			    uint64_t *hi)
{
	*lo = chunk * per;
	*hi = *lo + per < total ? *lo + per : total;
}

#endif /* KN_H */
