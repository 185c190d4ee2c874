/* SPDX-License-Identifier: GPL-2.0 */
/*
 * uvm_hostreg.h - pinned host page sets (DMA-mapped for every PCI device)
 * and cudaHostRegister registrations.
 */
#ifndef __UVM_HOSTREG_H__
#define __UVM_HOSTREG_H__

#include <linux/mmu_notifier.h>
#include <linux/rwsem.h>
#include <linux/types.h>

#include "uvm_alloc.h"

struct uvm_va_space;
struct uvm_host_register;
struct uvm_host_unregister;

/**
 * struct uvm_hostreg - one registered range (cudaHostRegister).
 * @obj: address-table entry (kind UVM_OBJ_HOSTREG).
 * @lock: protects @dead and the validity of @hp.pages: readers (copies)
 *	hold it for read while they use the pages, the unmap notifier takes
 *	it for write to unpin.
 * @dead: the pages are unpinned (range unmapped or unregistered).
 * @hp: the pinned pages.
 * @notifier: unmap notifier on [start, start + size).
 * @as: the table it belongs to.
 * @dead_link: entry of @as->dead once unlinked by the notifier.
 */
struct uvm_hostreg {
	struct uvm_obj obj;
	struct rw_semaphore lock;	/* Protects dead, hp.pages validity */
	bool dead;
	struct uvm_host_pages hp;
	struct mmu_interval_notifier notifier;
	struct uvm_alloc_space *as;
	struct list_head dead_link;
};

int uvm_host_register_ioctl(struct uvm_va_space *va_space, void *data);
int uvm_host_unregister_ioctl(struct uvm_va_space *va_space, void *data);
/* Final put of a registration (from uvm_obj_put()); takes no uvm lock. */
void uvm_hostreg_release(struct uvm_hostreg *reg);
/* Registrations unlinked by munmap: remove their notifiers and free them. */
void uvm_hostreg_reap(struct uvm_alloc_space *as);

#endif /* __UVM_HOSTREG_H__ */
