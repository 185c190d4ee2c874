/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The clock of a device fault batch's service: where its time went
 * (waiting, copying, mapping, unmapping, eviction) and what it caused
 * (pages migrated in, pages mapped remotely, evictions), for the batch's
 * event record (struct uvm_event_fault_batch).
 *
 * The clock partitions the thread's wall time: at each switch the time
 * since the previous one is charged to the phase that was running, so the
 * phases add up to the batch's duration (UVM_SVC_OTHER is the rest:
 * sorting, deciding, bookkeeping). Only the servicing thread touches its
 * clock; functions that may be called without one take a NULL clock and
 * charge nothing. A switch is one ktime_get_ns(), a few per 2 MiB block.
 */
#ifndef _UVM_SVC_CLOCK_H_
#define _UVM_SVC_CLOCK_H_

#include <linux/ktime.h>
#include <linux/string.h>
#include <linux/types.h>

enum uvm_svc_phase {
	UVM_SVC_OTHER,
	UVM_SVC_WAIT,	/* for copies other CPUs (a copy engine) run */
	UVM_SVC_COPY,	/* copying on this CPU, zeroing, issuing copies */
	UVM_SVC_MAP,	/* device mappings, remote ones included */
	UVM_SVC_UNMAP,	/* CPU PTE zaps, dropping other copies' mappings */
	UVM_SVC_EVICT,	/* getting device memory, evicting when full */
	UVM_SVC_NR,
};

/**
 * struct uvm_svc_clock - a fault batch's time split and effects.
 * @ns: time charged to each phase.
 * @last: when the running phase was last charged (ktime_get_ns()).
 * @phase: the running phase.
 * @migrated: pages copied to the faulting device (moves, read duplicates).
 * @remote: pages mapped remotely.
 * @evictions: chunks evicted to make room.
 */
struct uvm_svc_clock {
	u64 ns[UVM_SVC_NR];
	u64 last;
	enum uvm_svc_phase phase;
	unsigned int migrated;
	unsigned int remote;
	unsigned int evictions;
};

/* Start @clk from zero, in UVM_SVC_OTHER. */
static inline void uvm_svc_start(struct uvm_svc_clock *clk)
{
	memset(clk, 0, sizeof(*clk));
	clk->last = ktime_get_ns();
}

/*
 * Charge the running phase and switch @clk (may be NULL) to @phase.
 * Return: the phase that was running, to switch back to.
 */
static inline enum uvm_svc_phase uvm_svc_enter(struct uvm_svc_clock *clk,
					       enum uvm_svc_phase phase)
{
	enum uvm_svc_phase was;
	u64 now;

	if (!clk)
		return UVM_SVC_OTHER;
	now = ktime_get_ns();
	clk->ns[clk->phase] += now - clk->last;
	clk->last = now;
	was = clk->phase;
	clk->phase = phase;
	return was;
}

/* The total charged so far (after a final uvm_svc_enter()). */
static inline u64 uvm_svc_total(const struct uvm_svc_clock *clk)
{
	u64 sum = 0;
	int p;

	for (p = 0; p < UVM_SVC_NR; p++)
		sum += clk->ns[p];
	return sum;
}

#endif /* _UVM_SVC_CLOCK_H_ */
