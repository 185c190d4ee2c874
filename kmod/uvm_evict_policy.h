/* SPDX-License-Identifier: GPL-2.0 */
/*
 * uvm_evict_policy.h - the order in which eviction takes a device's chunks.
 *
 * uvm_evict.c keeps every chunk holding managed data on its device's list
 * (struct uvm_device.lru) in access order, least recent first, and keeps
 * per chunk what a policy may rank it by (struct uvm_evict_info). When a
 * VA space needs device memory, its eviction policy ranks the chunks and
 * the lowest rank goes first (ties: the less recently accessed). A policy
 * is a file of its own (uvm_evict_<name>.c) with one struct uvm_evict_policy;
 * a new one is a new file and a line in uvm_evict_policies[].
 */
#ifndef __UVM_EVICT_POLICY_H__
#define __UVM_EVICT_POLICY_H__

#include <linux/types.h>

/**
 * struct uvm_evict_info - what eviction knows of one chunk (struct
 * uvm_block_dev.evict), under its device's lru_lock.
 * @alloc_seq: the device's allocation counter when the chunk was
 *	       allocated (allocation order across VA spaces).
 * @va_seq: the VA space's own allocation counter then (allocation order
 *	    within the VA space: the same in every run of a program).
 * @hits: device accesses and migrations in, halved once per aging epoch
 *	  that passed since @epoch.
 * @epoch: the device's aging epoch when @hits was last brought up to date.
 */
struct uvm_evict_info {
	u64 alloc_seq;
	u64 va_seq;
	u32 hits;
	u32 epoch;
};

/**
 * struct uvm_evict_ctx - one choice of a victim.
 * @seed: the requesting VA space's evict_seed.
 * @nth: how many victims that VA space's policy chose before this one.
 * @epoch: the device's aging epoch now.
 */
struct uvm_evict_ctx {
	u64 seed;
	u64 nth;
	u32 epoch;
};

/**
 * struct uvm_evict_policy - an eviction order.
 * @name: its name (module parameter evict_policy, UVM_POLICY).
 * @rank: the chunk's rank, lower goes first; called under the device's
 *	  lru_lock, must not sleep. NULL: the list's order (least recently
 *	  accessed first), which needs no scan.
 */
struct uvm_evict_policy {
	const char *name;
	u64 (*rank)(const struct uvm_evict_info *info,
		    const struct uvm_evict_ctx *ctx);
};

extern const struct uvm_evict_policy uvm_evict_lru;
extern const struct uvm_evict_policy uvm_evict_fifo;
extern const struct uvm_evict_policy uvm_evict_lfu;
extern const struct uvm_evict_policy uvm_evict_random;

/* Indexed by UVM_EVICT_* (uvm_perf.c). */
extern const struct uvm_evict_policy *const uvm_evict_policies[];

/*
 * Access counts (LFU) halve every this many evictions on a device, and
 * whenever they average more than UVM_EVICT_AGING_MEAN a chunk: a count
 * is then a decaying frequency, and a chunk hot long ago (a finished tile
 * of a blocked multiply) cannot outweigh one being filled now.
 */
#define UVM_EVICT_AGING_EVICTIONS	16
#define UVM_EVICT_AGING_MEAN		256

/* @info's access count as of @epoch. */
static inline u32 uvm_evict_hits_now(const struct uvm_evict_info *info,
				     u32 epoch)
{
	u32 age = epoch - info->epoch;

	return age >= 32 ? 0 : info->hits >> age;
}

#endif /* __UVM_EVICT_POLICY_H__ */
