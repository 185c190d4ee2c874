/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Per-VA-space pool of recycled host pages (see uvm_pool.c).
 */
#ifndef _UVM_POOL_H_
#define _UVM_POOL_H_

#include <linux/list.h>
#include <linux/spinlock.h>
#include <linux/types.h>

struct page;

/**
 * struct uvm_page_pool - free host pages of one VA space, by NUMA node.
 * @lock: protects @lists and @nr.
 * @lists: nr_node_ids lists of pages (linked through page->lru).
 * @nr: pages in @lists.
 * @link: entry in the pool list the shrinker walks (under uvm_pools_lock).
 */
struct uvm_page_pool {
	spinlock_t lock;	/* Protects lists and nr */
	struct list_head *lists;
	unsigned long nr;
	struct list_head link;
};

int uvm_pool_init(struct uvm_page_pool *pool);
void uvm_pool_fini(struct uvm_page_pool *pool);
unsigned int uvm_pool_take(struct uvm_page_pool *pool, int nid,
			   struct page **pages, unsigned int n);
void uvm_pool_give(struct uvm_page_pool *pool, struct page **pages,
		   unsigned int n);
unsigned long uvm_pool_drain(struct uvm_page_pool *pool);

unsigned long uvm_pool_pages(void);
int uvm_pool_register(void);
void uvm_pool_unregister(void);

#endif /* _UVM_POOL_H_ */
