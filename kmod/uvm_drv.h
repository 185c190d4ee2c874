/* SPDX-License-Identifier: GPL-2.0 */
/*
 * uvm_drv.h - module-wide parameters and object accounting.
 */
#ifndef __UVM_DRV_H__
#define __UVM_DRV_H__

#include <linux/atomic.h>
#include <linux/moduleparam.h>
#include <linux/types.h>

/**
 * struct uvm_accounting - live object counts, checked for leaks at module exit.
 * @va_spaces: open /dev/uvm files.
 * @devices: struct uvm_device alive (registered or not, until last put).
 * @devmem_bytes: device memory bytes allocated, all devices together.
 * @pages: host pages the module allocated (emulated device memory...).
 * @pinned_pages: user pages pinned by host registrations (uvm_hostreg.c).
 * @host_alloc_pages: pages of pinned host allocations (uvm_alloc.c).
 * @dma_pages: managed host pages DMA-mapped for a device's remote mapping
 *	       (uvm_block_dev.c), counted once per device.
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
	atomic_long_t dma_pages;
};

extern struct uvm_accounting uvm_acct;

/* Module parameters (read-only after load, see uvm_drv.c for ranges). */
extern bool uvm_enable_test_ioctls;

/**
 * struct uvm_param_range - an unsigned module parameter that may change at
 * run time, and its range.
 * @val: the variable (read with READ_ONCE()).
 * @min: smallest value accepted.
 * @max: largest value accepted.
 */
struct uvm_param_range {
	unsigned int *val;
	unsigned int min;
	unsigned int max;
};

/*
 * Ops for module_param_cb() with a struct uvm_param_range as argument: a
 * write out of range (at load or in /sys/module/uvm/parameters/) fails
 * with -EINVAL and changes nothing.
 */
extern const struct kernel_param_ops uvm_param_range_ops;

unsigned int uvm_pick_cpus(int nid, int *cpus, unsigned int n);
int uvm_helper_cpu(int nid);

#endif /* __UVM_DRV_H__ */
