/* SPDX-License-Identifier: GPL-2.0 */
/*
 * uvm_va_space.h - a VA space: the state behind one open /dev/uvm.
 */
#ifndef __UVM_VA_SPACE_H__
#define __UVM_VA_SPACE_H__

#include <linux/rwsem.h>
#include <linux/xarray.h>

#include "uvm_alloc.h"
#include "uvm_managed.h"

/**
 * struct uvm_va_space - one open file of /dev/uvm.
 * @lock: protects membership of @test_allocs (insert, erase, lookup plus
 *	reference); will protect the managed range tree and per-device state.
 *	Read for lookups, write for changes. Never held across a user copy:
 *	the fault handler of a managed range will need it.
 * @test_allocs: handle -> struct uvm_test_alloc (uvm_test.c), handles
 *	1..U32_MAX.
 *
 * @mgd: managed memory (policies, blocks, the address_space of the VMAs);
 *	it has its own lock (see uvm_managed.h).
 * @allocs: device and pinned host allocations, host registrations, and
 *	their address table; it has its own lock (see uvm_alloc.h).
 */
struct uvm_va_space {
	struct rw_semaphore lock;
	struct xarray test_allocs;
	struct uvm_managed mgd;
	struct uvm_alloc_space allocs;
};

int uvm_va_space_init(void);
void uvm_va_space_exit(void);

#endif /* __UVM_VA_SPACE_H__ */
