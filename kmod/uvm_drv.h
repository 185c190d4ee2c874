/* SPDX-License-Identifier: GPL-2.0 */
/*
 * uvm_drv.h - module-wide parameters and object accounting.
 */
#ifndef __UVM_DRV_H__
#define __UVM_DRV_H__

#include <linux/atomic.h>
#include <linux/types.h>

/**
 * struct uvm_accounting - live object counts, checked for leaks at module exit.
 * @va_spaces: open /dev/uvm files.
 * @devices: struct uvm_device alive (registered or not, until last put).
 * @devmem_bytes: device memory bytes allocated, all devices together.
 * @pages: host pages the module allocated (emulated device memory...).
 * @pinned_pages: user pages pinned by host registrations (uvm_hostreg.c).
 * @host_alloc_pages: pages of pinned host allocations (uvm_alloc.c).
 *
 * Atomics, no lock: each counter is independent and only compared to zero
 * once everything is torn down.
 */
struct uvm_accounting {
	atomic_t va_spaces;
	atomic_t devices;
	atomic64_t devmem_bytes;
	atomic_long_t pages;
	atomic_long_t pinned_pages;
	atomic_long_t host_alloc_pages;
};

extern struct uvm_accounting uvm_acct;

/* Module parameters (read-only after load, see uvm_drv.c for ranges). */
extern bool uvm_enable_test_ioctls;

#endif /* __UVM_DRV_H__ */
