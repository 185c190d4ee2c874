/* SPDX-License-Identifier: GPL-2.0 */
/*
 * uvm_hostreg.h - pinned host page sets (DMA-mapped for every PCI device)
 * and cudaHostRegister registrations.
 */
#ifndef __UVM_HOSTREG_H__
#define __UVM_HOSTREG_H__

#include <linux/mmu_notifier.h>
#include <linux/rwsem.h>
#include <linux/spinlock.h>
#include <linux/types.h>

#include "uvm_alloc.h"

struct uvm_va_space;
struct uvm_host_register;
struct uvm_host_unregister;

/**
 * struct uvm_hostreg - one registered range (cudaHostRegister).
 * @obj: address-table entry (kind UVM_OBJ_HOSTREG).
 * @seq_lock: protects the notifier's sequence (every invalidation bumps
 *	it; the pinning checks it before publishing).
 * @lock: protects @dead, @published, @charged and the validity of
 *	@hp.pages: readers (copies) hold it for read
 *	while they use the pages, the notifier takes it for write to unpin.
 *	Never held across an allocation or while taking mmap_lock (the
 *	notifier takes it under mmap_lock, and from reclaim).
 * @dead: an unmap unpinned the pages.
 * @published: linked and handed to the notifier: an unmap queues it on
 *	@as->dead for uvm_hostreg_reap().
 * @charged: @hp.npages are charged to @mm's pinned_vm.
 * @hp: the pinned pages (@hp.pages NULL until published by the pinning).
 * @notifier: invalidation notifier on [start, start + size).
 * @as: the table it belongs to.
 * @mm: the mm the pages are charged to (the VA space's, held by it).
 * @dead_link: entry of @as->dead (under @as->dead_lock), or of a private
 *	list of a holder of @as->lock (uvm_hostreg_unlink_dead_locked()).
 */
struct uvm_hostreg {
	struct uvm_obj obj;
	struct rw_semaphore lock;	/* Protects dead, published, charged, hp.pages */
	spinlock_t seq_lock;	/* Protects the notifier's sequence */
	bool dead;
	bool published;
	bool charged;
	struct uvm_host_pages hp;
	struct mmu_interval_notifier notifier;
	struct uvm_alloc_space *as;
	struct mm_struct *mm;
	struct list_head dead_link;
};

int uvm_host_register_ioctl(struct uvm_va_space *va_space, void *data);
int uvm_host_unregister_ioctl(struct uvm_va_space *va_space, void *data);
/* Final put of a registration (from uvm_obj_put()); takes no uvm lock. */
void uvm_hostreg_release(struct uvm_hostreg *reg);
/* Registrations an unmap killed: unlink them and drop the queue's reference. */
void uvm_hostreg_reap(struct uvm_alloc_space *as);
/* Table lock held: unlinks the queued dead registrations, puts nothing last. */
void uvm_hostreg_clear_dead_locked(struct uvm_alloc_space *as);

#endif /* __UVM_HOSTREG_H__ */
