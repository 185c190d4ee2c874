/* SPDX-License-Identifier: GPL-2.0 */
/*
 * uvm_mem.h - device memory allocator (a buddy allocator per device).
 */
#ifndef __UVM_MEM_H__
#define __UVM_MEM_H__

#include <linux/list.h>
#include <linux/mutex.h>
#include <linux/types.h>

#include "uvm_compat.h"

struct uvm_device;

/**
 * struct uvm_mem_pool - one device's allocator.
 * @lock: protects @mm (the buddy allocator does no locking of its own).
 * @mm: the buddy allocator, chunk size PAGE_SIZE.
 * @size: bytes managed.
 */
struct uvm_mem_pool {
	struct mutex lock;	/* Protects mm */
	struct uvm_buddy mm;
	u64 size;
};

/* uvm_mem_alloc() flags */
#define UVM_MEM_CONTIGUOUS	BIT(0)	/* one physically contiguous range */
/*
 * Skip zeroing: only for callers that never expose a byte they have not
 * written first (managed chunks: a page becomes resident only by a copy
 * into it or by zeroing it, uvm_block_dev.c).
 */
#define UVM_MEM_UNCLEARED	BIT(1)

/**
 * struct uvm_mem - one allocation of device memory.
 * @udev: device the memory belongs to; the allocation holds a reference.
 * @blocks: list of struct uvm_buddy_block (->link), in offset order for
 *	contiguous allocations, buddy order otherwise.
 * @size: bytes allocated (the request rounded up to PAGE_SIZE).
 * @offset: device offset of the first block (the whole allocation when
 *	UVM_MEM_CONTIGUOUS).
 * @flags: UVM_MEM_* flags it was allocated with.
 *
 * Immutable between uvm_mem_alloc() and uvm_mem_free(); users serialize
 * access to the contents themselves.
 */
struct uvm_mem {
	struct uvm_device *udev;
	struct list_head blocks;
	u64 size;
	u64 offset;
	u32 flags;
};

int uvm_mem_pool_init(struct uvm_device *udev, u64 size);

/* Takes pool->lock; zeroes through the backend inside drm_dev_enter(). */
struct uvm_mem *uvm_mem_alloc(struct uvm_device *udev, u64 size,
			      u64 min_block, u32 flags);
/* Takes pool->lock; may drop the last device reference. */
void uvm_mem_free(struct uvm_mem *mem);
/* Lockless snapshot. */
u64 uvm_mem_free_bytes(struct uvm_device *udev);

#endif /* __UVM_MEM_H__ */
