/* SPDX-License-Identifier: GPL-2.0 */
/*
 * uvm_prefetch_policy.h - device-fault prefetch policies: what a fault
 * batch brings to the faulting device besides the faulted pages.
 *
 * The fault path asks the policy in force twice per batch: once for the
 * batch (uvm_prefetch_seq_batch(): pages after runs of ascending faults,
 * across blocks) and once per block (uvm_prefetch_density_block(): regions
 * of the block that are mostly there already). A CPU fault on a block asks
 * it once (uvm_prefetch_cpu_region(): the region of the block to bring
 * home, or populate, for it; only density64k has one). A policy only proposes
 * pages; the fault path keeps those that are managed, not resident on the
 * device yet, and whose placement policy lets them migrate there
 * (uvm_device_fault.c), and migrates them in the same pass as the faults.
 */
#ifndef __UVM_PREFETCH_POLICY_H__
#define __UVM_PREFETCH_POLICY_H__

#include <linux/sizes.h>
#include <linux/spinlock.h>
#include <linux/types.h>

/* Streams a device's sequential detector follows at once (a = b + c: 3). */
#define UVM_SEQ_STREAMS		4
/* Ascending faults in a row that make a run worth prefetching after. */
#define UVM_SEQ_MIN_RUN		4
/* Prefetched pages per batch at most, over all streams. */
#define UVM_PREFETCH_BATCH_MAX	16384U
/* density64k's unit: a faulted page brings its 64 KiB (a GPU's big page). */
#define UVM_PREFETCH_UNIT_PAGES	(SZ_64K >> PAGE_SHIFT)

struct uvm_prefetch_conf;

/**
 * struct uvm_seq_stream - one run of ascending faults a device follows.
 * @from: the page after the run's last faulted page.
 * @next: the page after its prefetched pages (@from if none).
 * @len: pages of the run faulted so far.
 * @stamp: the batch that last extended it (the oldest is replaced).
 */
struct uvm_seq_stream {
	unsigned long from;
	unsigned long next;
	unsigned long len;
	u64 stamp;
};

/**
 * struct uvm_seq_state - a device's sequential detector in one VA space.
 * @lock: protects @streams and @stamp (fault batches of several threads).
 * @streams: the runs followed.
 * @stamp: batches seen.
 */
struct uvm_seq_state {
	spinlock_t lock;	/* Protects streams, stamp */
	struct uvm_seq_stream streams[UVM_SEQ_STREAMS];
	u64 stamp;
};

/**
 * struct uvm_prefetch_range - pages [@start, @end) to bring in.
 * @start: first page address.
 * @end: page address after the last.
 */
struct uvm_prefetch_range {
	unsigned long start;
	unsigned long end;
};

void uvm_seq_state_init(struct uvm_seq_state *seq);
unsigned int uvm_prefetch_seq_batch(struct uvm_seq_state *seq,
				    const unsigned long *va, unsigned int n,
				    unsigned int pages,
				    struct uvm_prefetch_range *out);
void uvm_prefetch_density_block(const unsigned long *occupied,
				const unsigned long *faults,
				unsigned int threshold, unsigned long *out);
bool uvm_prefetch_is_density(const struct uvm_prefetch_conf *pf);
void uvm_prefetch_density_units(const struct uvm_prefetch_conf *pf,
				const unsigned long *faults, unsigned long *units);
bool uvm_prefetch_has_cpu_region(const struct uvm_prefetch_conf *pf);
bool uvm_prefetch_cpu_region(const struct uvm_prefetch_conf *pf,
			     const unsigned long *resident, unsigned int idx,
			     unsigned int *first, unsigned int *last);

#endif /* __UVM_PREFETCH_POLICY_H__ */
