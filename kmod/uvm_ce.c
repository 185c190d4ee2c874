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
 * the caller alone still finishes the job. Each CPU has one helper (a work
 * item on the module's own per-CPU workqueue "uvm_ce", WQ_CPU_INTENSIVE:
 * a helper copies and spins, and must neither hold up the other work
 * items of its CPU, as a concurrency-managed system_wq item would, nor be
 * reported as a CPU hog by 6.5+ kernels); a caller posts its job to the helpers of other CPUs,
 * and once it has taken the last piece it takes back the posts no helper
 * has started and waits for the helpers that did, so when uvm_ce_finish()
 * returns every piece is done and the job, in the caller's storage, is no
 * longer used. uvm_ce_start() and uvm_ce_finish() are apart so that a
 * caller can work on while the helpers copy: a prefetch locks and zaps the
 * next block meanwhile (uvm_migrate.c); uvm_ce_run() is both at once.
 * Helpers take no lock, so a caller may hold any (a block lock, the VA
 * space lock) while it waits for them; a piece that needs a lock its
 * caller holds shared takes it by trylock and, when that fails, leaves the
 * piece to the caller (a CPU fault's pieces and the mmap_lock,
 * uvm_devpriv.c).
 *
 * A helper lingers for 200 us after a job, spinning, while no other task
 * wants its CPU: the next block of a migration then finds it running
 * instead of waking an idle CPU again (measured under TCG: prefetch to a
 * device 3.5 to 4.3 GB/s, back 5.3 to 6.8). The spin is bounded: a helper
 * gives its CPU back after 2 ms of jobs, and another task becoming
 * runnable there (single_task_running(), need_resched()) ends its waiting
 * at once. Within a job the backends' copies call cond_resched() between
 * bounded steps, so a helper never holds its CPU for long either. For the
 * same reason a caller that has run out of pieces spins up to 100 us for
 * its helpers to finish before it sleeps (need_resched() ends that too):
 * a sleeping caller costs the wake-up of an idle CPU when they do.
 *
 * The pieces of a job are disjoint and unordered; the completion the
 * caller waits on orders the helpers' stores before its return. A failed
 * piece stops new pieces from starting and its error is returned.
 *
 * Helpers are kernel workers: their CPU time is not charged to the
 * caller's CPU cgroup, as a DMA engine's copies would not be either.
 * copy_helpers=0 keeps every copy on the calling thread.
 */
#include <linux/atomic.h>
#include <linux/completion.h>
#include <linux/minmax.h>
#include <linux/moduleparam.h>
#include <linux/percpu.h>
#include <linux/sched.h>
#include <linux/sched/clock.h>
#include <linux/sched/stat.h>
#include <linux/topology.h>
#include <linux/workqueue.h>

#include "uvm_ce.h"
#include "uvm_compat.h"
#include "uvm_drv.h"

static unsigned int uvm_copy_helpers = 3;

static struct uvm_param_range copy_helpers_range = {
	.val = &uvm_copy_helpers, .min = 0, .max = UVM_CE_MAX_HELPERS,
};
module_param_cb(copy_helpers, &uvm_param_range_ops, &copy_helpers_range, 0644);
MODULE_PARM_DESC(copy_helpers,
		 "other CPUs that help with one large migration copy: 0..7 (default 3, 0: the caller copies alone)");

/* How long a helper that ran out of pieces waits for another job. */
#define UVM_CE_LINGER_NS	(200 * NSEC_PER_USEC)
/* A helper's work item returns after this much time, between jobs. */
#define UVM_CE_BUDGET_NS	(2 * NSEC_PER_MSEC)
/* How long a caller done with its pieces spins for its helpers' end. */
#define UVM_CE_SPIN_NS		(100 * NSEC_PER_USEC)

/**
 * struct uvm_ce_slot - the helper of one CPU.
 * @work: runs the helper on that CPU (uvm_ce_wq).
 * @cpu: that CPU.
 * @active: 1 while @work is queued or running.
 * @job: a job posted to the helper and not yet started, or NULL. Changed
 *	 only by xchg()/cmpxchg(): a caller posts its job (NULL -> job), the
 *	 helper takes it (-> NULL) or the caller, done with every piece
 *	 first, takes it back (job -> NULL). A job's address is unique while
 *	 it is started and not finished, so taking back cannot take another's.
 */
struct uvm_ce_slot {
	struct work_struct work;
	atomic_t active;
	struct uvm_ce_job *job;
	int cpu;
};

static DEFINE_PER_CPU(struct uvm_ce_slot, ce_slots);

/* The helpers' workqueue: per CPU, not concurrency managed. */
static struct workqueue_struct *uvm_ce_wq;

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

/* Drop a reference to @job; the caller's stack frame may go at once. */
static void ce_job_put(struct uvm_ce_job *job)
{
	if (atomic_dec_and_test(&job->refs))
		complete(&job->done);
}

/*
 * Run the jobs posted to @slot, waiting up to UVM_CE_LINGER_NS for the
 * next one after each while nothing else wants this CPU. Returns when it
 * waited in vain or its time budget is spent.
 */
static void ce_slot_run(struct uvm_ce_slot *slot)
{
	u64 start = local_clock(), until = start + UVM_CE_LINGER_NS, now;
	struct uvm_ce_job *job;

	for (;;) {
		job = xchg(&slot->job, NULL);
		if (job) {
			ce_pull(job);
			ce_job_put(job);
			now = local_clock();
			if (now - start > UVM_CE_BUDGET_NS || need_resched())
				return;
			until = now + UVM_CE_LINGER_NS;
			continue;
		}
		if (local_clock() > until || !single_task_running() ||
		    need_resched())
			return;
		cpu_relax();
	}
}

/*
 * A helper. It lingers after each job, so the jobs of a multi-block
 * migration find it running instead of waking an idle CPU for each block
 * (tens to hundreds of microseconds under emulators, against 30 for a
 * 32-page piece). A job posted while it was giving up is not lost: either
 * the poster sees @active clear and queues the work again, or the helper
 * sees the job after clearing @active.
 */
static void ce_slot_work(struct work_struct *work)
{
	struct uvm_ce_slot *slot = container_of(work, struct uvm_ce_slot, work);

	ce_slot_run(slot);
	atomic_set(&slot->active, 0);
	smp_mb__after_atomic();	/* pairs with the full barrier of ce_post() */
	if (READ_ONCE(slot->job) && atomic_cmpxchg(&slot->active, 0, 1) == 0)
		queue_work_on(slot->cpu, uvm_ce_wq, work);
}

/* Post @job to @cpu's helper, starting it if needed; false if it is busy. */
static bool ce_post(int cpu, struct uvm_ce_job *job)
{
	struct uvm_ce_slot *slot = per_cpu_ptr(&ce_slots, cpu);

	atomic_inc(&job->refs);
	if (cmpxchg(&slot->job, NULL, job)) {
		atomic_dec(&job->refs);	/* another job waits there */
		return false;
	}
	if (atomic_cmpxchg(&slot->active, 0, 1) == 0)
		queue_work_on(cpu, uvm_ce_wq, &slot->work);
	return true;
}

/*
 * Wait for the helpers that took pieces of @job: spin a while first, as
 * long as nothing else wants this CPU, since a sleeping caller is woken by
 * an IPI to an idle CPU (tens to hundreds of microseconds under
 * emulators, and a C-state exit on hardware) when the last piece ends.
 */
static void ce_wait(struct uvm_ce_job *job)
{
	u64 until = local_clock() + UVM_CE_SPIN_NS;

	while (!completion_done(&job->done) && local_clock() < until &&
	       !need_resched())
		cpu_relax();
	wait_for_completion(&job->done);
}

/* Take @job back from @cpu's helper if it has not started it. */
static void ce_take_back(int cpu, struct uvm_ce_job *job)
{
	struct uvm_ce_slot *slot = per_cpu_ptr(&ce_slots, cpu);

	if (cmpxchg(&slot->job, job, NULL) == job)
		ce_job_put(job);
}

/**
 * uvm_ce_start() - start @job: pieces 0 .. @nr_pieces - 1 of @fn, posted to
 * helper CPUs; uvm_ce_finish() takes the rest and waits.
 * @job: the job; caller's storage, in use until uvm_ce_finish() returns.
 * @fn: does one piece; may sleep, must not take locks the caller holds.
 * @arg: passed to @fn.
 * @nr_pieces: pieces; the job is posted to one helper per piece beyond
 *	       the first, up to copy_helpers.
 *
 * Between the two calls the caller may do other work, or start and finish
 * other jobs; the helpers run their jobs in the order they were posted.
 */
void uvm_ce_start(struct uvm_ce_job *job, uvm_ce_piece_fn fn, void *arg,
		  unsigned int nr_pieces)
{
	unsigned int i, n = 0;

	*job = (struct uvm_ce_job){
		.fn = fn, .arg = arg, .nr_pieces = nr_pieces,
		.next = ATOMIC_INIT(0), .err = ATOMIC_INIT(0),
		.refs = ATOMIC_INIT(1),
	};
	init_completion(&job->done);
	/* Background work (fault-ahead...) is another CPU's helper already. */
	if (nr_pieces > 1 && !(current->flags & PF_WQ_WORKER))
		n = uvm_pick_cpus(numa_node_id(), job->cpus,
				  min(READ_ONCE(uvm_copy_helpers),
				      nr_pieces - 1));
	for (i = 0; i < n; i++)
		if (ce_post(job->cpus[i], job))
			job->cpus[job->posted++] = job->cpus[i];
}

/**
 * uvm_ce_finish() - do the pieces of @job no helper took, and wait for the
 * helpers that did.
 * @job: a job from uvm_ce_start().
 *
 * Return: 0, or the first error of a piece (later pieces not started).
 */
int uvm_ce_finish(struct uvm_ce_job *job)
{
	enum uvm_svc_phase was = uvm_svc_enter(job->clk, UVM_SVC_COPY);
	unsigned int i;

	ce_pull(job);
	for (i = 0; i < job->posted; i++)
		ce_take_back(job->cpus[i], job);
	uvm_svc_enter(job->clk, UVM_SVC_WAIT);
	if (!atomic_dec_and_test(&job->refs))
		ce_wait(job);
	uvm_svc_enter(job->clk, was);
	return atomic_read(&job->err);
}

/**
 * uvm_ce_run() - run @fn on pieces 0 .. @nr_pieces - 1, here and on helper
 * CPUs, and wait for all of them.
 * @fn: does one piece; may sleep, must not take locks the caller holds.
 * @arg: passed to @fn.
 * @nr_pieces: pieces (see uvm_ce_start()).
 * @meanwhile: if not NULL, called with @arg on this CPU once the job is
 *	       posted, before it takes pieces itself: work of the
 *	       caller's that may overlap the pieces.
 *
 * Return: 0, or the first error of a piece (later pieces not started).
 */
int uvm_ce_run(uvm_ce_piece_fn fn, void *arg, unsigned int nr_pieces,
	       void (*meanwhile)(void *arg))
{
	struct uvm_ce_job job;

	uvm_ce_start(&job, fn, arg, nr_pieces);
	if (meanwhile)
		meanwhile(arg);
	return uvm_ce_finish(&job);
}

/* Module load: the helpers' workqueue and slots. */
int uvm_ce_init(void)
{
	int cpu;

	uvm_ce_wq = alloc_workqueue("uvm_ce", WQ_CPU_INTENSIVE | UVM_WQ_PERCPU, 0);
	if (!uvm_ce_wq)
		return -ENOMEM;
	for_each_possible_cpu(cpu) {
		struct uvm_ce_slot *slot = per_cpu_ptr(&ce_slots, cpu);

		INIT_WORK(&slot->work, ce_slot_work);
		atomic_set(&slot->active, 0);
		slot->job = NULL;
		slot->cpu = cpu;
	}
	return 0;
}

/* Module unload, no caller left: lingering helpers end within 200 us. */
void uvm_ce_exit(void)
{
	int cpu;

	for_each_possible_cpu(cpu)
		cancel_work_sync(&per_cpu_ptr(&ce_slots, cpu)->work);
	destroy_workqueue(uvm_ce_wq);
}
