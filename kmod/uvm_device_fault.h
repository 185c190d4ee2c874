/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Device faults and the device-access path (what a kernel running on a
 * device does to managed memory).
 */
#ifndef _UVM_DEVICE_FAULT_H_
#define _UVM_DEVICE_FAULT_H_

#include <linux/types.h>

#include "uvm_managed.h"
#include "uvm_perf.h"

struct uvm_device;
struct uvm_managed;
struct uvm_va_block;
struct uvm_device_access;

extern unsigned int uvm_fault_batch;

/**
 * struct uvm_fault_op - a device's faults on one block being serviced:
 * begun by uvm_block_service_faults_begin_locked(), its migration (if any)
 * perhaps still copying, until uvm_block_service_faults_end_locked().
 * @block: the block, locked from begin to end.
 * @udev: the faulting device.
 * @to_dev: the migration of @mask.
 * @mask: faulted pages that migrate to @udev.
 * @dup: faulted pages that get a read-only copy on @udev.
 * @remote: faulted pages mapped where they are.
 * @write: faulted pages written.
 * @pf: pages of @mask the prefetch policy added (no fault).
 * @coll: pages of @mask whose read duplicates collapse.
 * @none: scratch (an empty @dup for @to_dev).
 * @why: the causes of @to_dev's pages (its prefetched and collapsed ones).
 * @clk: the fault batch's clock (uvm_svc_clock.h), or NULL: set by the
 *	 caller before uvm_block_service_faults_begin_locked().
 * @busy: @to_dev was begun and not ended.
 * @prefetched: pages of @pf the migration was begun with.
 */
struct uvm_fault_op {
	struct uvm_va_block *block;
	struct uvm_device *udev;
	struct uvm_to_dev to_dev;
	DECLARE_BITMAP(mask, UVM_BLOCK_PAGES);
	DECLARE_BITMAP(dup, UVM_BLOCK_PAGES);
	DECLARE_BITMAP(remote, UVM_BLOCK_PAGES);
	DECLARE_BITMAP(write, UVM_BLOCK_PAGES);
	DECLARE_BITMAP(pf, UVM_BLOCK_PAGES);
	DECLARE_BITMAP(coll, UVM_BLOCK_PAGES);
	DECLARE_BITMAP(none, UVM_BLOCK_PAGES);
	struct uvm_move_ctx why;
	struct uvm_svc_clock *clk;
	bool busy;
	unsigned int prefetched;
};

/* Caller holds block->lock and the VA space's lock (read). */
int uvm_block_service_faults_begin_locked(struct uvm_fault_op *op,
					  struct uvm_va_block *block,
					  struct uvm_device *udev,
					  const unsigned long *faults,
					  const unsigned long *write,
					  const unsigned long *prefetch,
					  const struct uvm_prefetch_conf *pf);
int uvm_block_service_faults_end_locked(struct uvm_fault_op *op);
int uvm_block_service_faults_locked(struct uvm_va_block *block,
				    struct uvm_device *udev,
				    const unsigned long *faults,
				    const unsigned long *write,
				    const unsigned long *prefetch,
				    const struct uvm_prefetch_conf *pf);

int uvm_device_access_ioctl(struct uvm_managed *mgd,
			    struct uvm_device_access *args);

#endif /* _UVM_DEVICE_FAULT_H_ */
