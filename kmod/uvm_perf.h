/* SPDX-License-Identifier: GPL-2.0 */
/*
 * uvm_perf.h - the memory-management policies of a VA space: the module's
 * defaults (module parameters, writable at run time) and a VA space's
 * overrides (UVM_IOCTL_PERF_SET).
 */
#ifndef __UVM_PERF_H__
#define __UVM_PERF_H__

#include <linux/atomic.h>
#include <linux/spinlock.h>
#include <linux/types.h>
#include <uapi/uvm.h>

#include "uvm_prefetch_policy.h"
#include "uvm_thrash.h"

struct uvm_evict_policy;
struct uvm_perf;

/**
 * struct uvm_perf_va - a VA space's policies.
 * @lock: protects @overrides, @evict_policy, @evict_seed and @fault_batch
 *	  against a concurrent UVM_IOCTL_PERF_SET (readers of one field use
 *	  READ_ONCE() and need no lock).
 * @overrides: UVM_PERF_* bits: the policies set for this VA space; the
 *	       others follow the module parameters.
 * @evict_policy: UVM_EVICT_*, if overridden.
 * @evict_seed: the random policy's seed, if overridden.
 * @fault_batch: faults per device fault batch, if overridden.
 * @prefetch: UVM_PREFETCH_*, if overridden.
 * @prefetch_threshold: the density threshold (percent), if overridden.
 * @prefetch_pages: pages prefetched after a run, if overridden.
 * @thrash: the thrashing policy and its parameters, if overridden
 *	    (window, nap and pin in ns).
 * @cap: each device's cap on this VA space's managed chunks (bytes; 0:
 *	 none), set under @lock, read with READ_ONCE().
 * @dev_bytes: each device's bytes of chunks this VA space holds or is
 *	       allocating (reserved before the allocation, against @cap).
 * @seq: each device's sequential detector.
 * @evict_nth: victims this VA space's policy chose (the random policy's
 *	       sequence).
 * @chunk_seq: device chunks this VA space allocated (their order).
 */
struct uvm_perf_va {
	spinlock_t lock;	/* Protects the policy fields against PERF_SET */
	u32 overrides;
	u32 evict_policy;
	u64 evict_seed;
	u32 fault_batch;
	u32 prefetch;
	u32 prefetch_threshold;
	u32 prefetch_pages;
	struct uvm_thrash_conf thrash;
	atomic64_t evict_nth;
	atomic64_t chunk_seq;
	u64 cap[UVM_MAX_DEVICES];
	atomic64_t dev_bytes[UVM_MAX_DEVICES];
	struct uvm_seq_state seq[UVM_MAX_DEVICES];
};

/**
 * struct uvm_prefetch_conf - the prefetch policy in force for one batch.
 * @policy: UVM_PREFETCH_*.
 * @threshold: UVM_PREFETCH_DENSITY's percentage.
 * @pages: UVM_PREFETCH_SEQUENTIAL's pages ahead.
 */
struct uvm_prefetch_conf {
	u32 policy;
	u32 threshold;
	u32 pages;
};

void uvm_perf_va_init(struct uvm_perf_va *perf);
const struct uvm_evict_policy *uvm_perf_evict_policy(struct uvm_perf_va *perf,
						     u64 *seed);
unsigned int uvm_perf_fault_batch(struct uvm_perf_va *perf);
void uvm_perf_prefetch(struct uvm_perf_va *perf, struct uvm_prefetch_conf *conf);
const struct uvm_thrash_policy *uvm_perf_thrash(struct uvm_perf_va *perf,
						struct uvm_thrash_conf *conf);

/* The cap of @perf's VA space on device @id, in bytes (0: none). */
static inline u64 uvm_perf_cap(struct uvm_perf_va *perf, u32 id)
{
	return READ_ONCE(perf->cap[id]);
}

int uvm_perf_set(struct uvm_perf_va *perf, struct uvm_perf *args);
int uvm_perf_get(struct uvm_perf_va *perf, struct uvm_perf *args);

#endif /* __UVM_PERF_H__ */
