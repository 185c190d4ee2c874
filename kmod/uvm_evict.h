/* SPDX-License-Identifier: GPL-2.0 */
/*
 * uvm_evict.h - make room in device memory.
 */
#ifndef __UVM_EVICT_H__
#define __UVM_EVICT_H__

#include <linux/types.h>

struct uvm_device;
struct uvm_managed;
struct uvm_svc_clock;

/*
 * uvm_evict_device_memory - evict managed data from @udev until at least
 * @bytes are free (or nothing evictable is left).
 *
 * Implemented in uvm_evict.c (managed memory eviction). Called with no uvm
 * lock held. Returns 0 if it freed anything, else a negative errno
 * (-ENOSPC: nothing to evict, -EINTR: fatal signal).
 */
int uvm_evict_device_memory(struct uvm_device *udev, u64 bytes,
			    struct uvm_managed *mgd);

struct uvm_block_dev;

/* Take everything off a device being unregistered (no locks held). */
void uvm_evict_all(struct uvm_device *udev);
/* Give @bd a chunk of device memory, evicting if needed (block locked). */
int uvm_evict_alloc_chunk(struct uvm_block_dev *bd, struct uvm_svc_clock *clk);
/* LRU bookkeeping of chunks (block locked). */
void uvm_lru_touch(struct uvm_block_dev *bd);
void uvm_bd_list_add(struct uvm_block_dev *bd);
void uvm_bd_list_del(struct uvm_block_dev *bd);
void uvm_evict_unmap_all(struct uvm_device *udev);
void uvm_lru_remove(struct uvm_block_dev *bd);

#endif /* __UVM_EVICT_H__ */
