// SPDX-License-Identifier: GPL-2.0
/*
 * DOC: Copy engine
 *
 * Neither backend has a DMA engine: device memory is copied by CPUs. One
 * CPU copying a 2 MiB block leaves the others idle while the migration
 * waits for it, so the large copies of migration are cut into pieces that
 * the caller and up to copy_helpers other CPUs take from one counter, as
 * the channels of a GPU's copy engines share a migration's copies.
 *
 * Pulling pieces, not splitting the work up front, balances itself: a
 * helper CPU that is busy, or slow to wake, just takes fewer pieces, and
 * the caller alone still finishes the job. The caller waits for its helpers
 * before it returns: cancel_work_sync() takes a helper that never started
 * off its queue and waits for one that did, so when uvm_ce_run() returns
 * every piece is done and the job, on the caller's stack, is no longer
 * used. Helpers take no lock, so a caller may hold any (a block lock, the
 * VA space lock) while it waits for them.
 *
 * The pieces of a job are disjoint and unordered; the completion of a work
 * item orders its stores before the caller's return. A failed piece stops
 * new pieces from starting and its error is returned.
 *
 * Helpers are kernel workers: their CPU time is not charged to the
 * caller's CPU cgroup, as a DMA engine's copies would not be either.
 * copy_helpers=0 keeps every copy on the calling thread.
 */
#include <linux/atomic.h>
#include <linux/cpumask.h>
#include <linux/minmax.h>
#include <linux/moduleparam.h>
#include <linux/sched.h>
#include <linux/topology.h>
#include <linux/workqueue.h>

#include "uvm_ce.h"
#include "uvm_drv.h"

#define UVM_CE_MAX_HELPERS	7

static unsigned int uvm_copy_helpers = 3;

static struct uvm_param_range copy_helpers_range = {
	.val = &uvm_copy_helpers, .min = 0, .max = UVM_CE_MAX_HELPERS,
};
module_param_cb(copy_helpers, &uvm_param_range_ops, &copy_helpers_range, 0644);
MODULE_PARM_DESC(copy_helpers,
		 "other CPUs that help with one large migration copy: 0..7 (default 3, 0: the caller copies alone)");

struct uvm_ce_job {
	uvm_ce_piece_fn fn;
	void *arg;
	unsigned int nr_pieces;
	atomic_t next;
	atomic_t err;
};

struct uvm_ce_helper {
	struct work_struct work;
	struct uvm_ce_job *job;
};

static void ce_pull(struct uvm_ce_job *job)
{
	unsigned int piece;
	int ret;

	while (!atomic_read(&job->err)) {
		piece = atomic_fetch_inc(&job->next);
		if (piece >= job->nr_pieces)
			return;
		ret = job->fn(job->arg, piece);
		if (ret)
			atomic_cmpxchg(&job->err, 0, ret);
	}
}

static void ce_helper_work(struct work_struct *work)
{
	ce_pull(container_of(work, struct uvm_ce_helper, work)->job);
}

/* Up to @n online CPUs other than this one, this node's first. */
static unsigned int ce_pick_cpus(int *cpus, unsigned int n)
{
	int this = raw_smp_processor_id(), nid = cpu_to_node(this), cpu;
	unsigned int nr = 0;

	for_each_cpu_and(cpu, cpumask_of_node(nid), cpu_online_mask)
		if (cpu != this && nr < n)
			cpus[nr++] = cpu;
	for_each_online_cpu(cpu)
		if (cpu_to_node(cpu) != nid && nr < n)
			cpus[nr++] = cpu;
	return nr;
}

/**
 * uvm_ce_run() - run @fn on pieces 0 .. @nr_pieces - 1, here and on helper
 * CPUs, and wait for all of them.
 * @fn: does one piece; may sleep, must not take locks the caller holds.
 * @arg: passed to @fn.
 * @nr_pieces: pieces; one helper is started per piece beyond the first,
 *	       up to copy_helpers.
 * @meanwhile: if not NULL, called with @arg on this CPU once the helpers
 *	       are started, before it takes pieces itself: work of the
 *	       caller's that may overlap the pieces.
 *
 * Return: 0, or the first error of a piece (later pieces not started).
 */
int uvm_ce_run(uvm_ce_piece_fn fn, void *arg, unsigned int nr_pieces,
	       void (*meanwhile)(void *arg))
{
	struct uvm_ce_helper helpers[UVM_CE_MAX_HELPERS];
	struct uvm_ce_job job = {
		.fn = fn, .arg = arg, .nr_pieces = nr_pieces,
		.next = ATOMIC_INIT(0), .err = ATOMIC_INIT(0),
	};
	int cpus[UVM_CE_MAX_HELPERS];
	unsigned int i, n = 0;

	/* Background work (fault-ahead...) is another CPU's helper already. */
	if (nr_pieces > 1 && !(current->flags & PF_WQ_WORKER))
		n = ce_pick_cpus(cpus, min(READ_ONCE(uvm_copy_helpers),
					   nr_pieces - 1));
	for (i = 0; i < n; i++) {
		INIT_WORK_ONSTACK(&helpers[i].work, ce_helper_work);
		helpers[i].job = &job;
		queue_work_on(cpus[i], system_wq, &helpers[i].work);
	}
	if (meanwhile)
		meanwhile(arg);
	ce_pull(&job);
	for (i = 0; i < n; i++) {
		cancel_work_sync(&helpers[i].work);
		destroy_work_on_stack(&helpers[i].work);
	}
	return atomic_read(&job.err);
}
