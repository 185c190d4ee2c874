// SPDX-License-Identifier: GPL-2.0
/*
 * DOC: Thrashing detection
 *
 * Every migration that moves a block's data to another processor (a
 * device, or the host) counts one move of the block; more than
 * thrash_threshold moves within thrash_window_us is thrashing. Detection
 * is counted (thrash_detected) and traced under every policy, none
 * included; the policy in force then decides what follows
 * (uvm_thrash_throttle.c, uvm_thrash_pin.c): the block's state says until
 * when a processor other than the one holding the data naps before its
 * fault moves it (throttle) or maps it where it is (pin).
 *
 * Moves are counted per 2 MiB block, the unit of residency tracking: two
 * processors working on different pages of one block move different
 * pages, but the block's data still goes back and forth between them.
 */
#include <linux/delay.h>
#include <linux/ktime.h>

#include "uvm_device.h"
#include "uvm_event_records.h"
#include "uvm_managed.h"
#include "uvm_thrash.h"
#include "uvm_trace.h"

static void none_detected(struct uvm_thrash *t, u64 now,
			  const struct uvm_thrash_conf *conf)
{
}

const struct uvm_thrash_policy uvm_thrash_none = {
	.name = "none",
	.detected = none_detected,
};

void uvm_thrash_init(struct uvm_thrash *t)
{
	*t = (struct uvm_thrash){ .owner = UVM_THRASH_NOWHERE };
}

/* Can the CPU map device @to's memory (a pinned block's)? */
static bool thrash_mappable(struct uvm_va_block *block, u8 to)
{
	struct uvm_block_dev *bd;

	if (to >= UVM_MAX_DEVICES)
		return false;
	bd = block->dev[to];
	return bd && (bd->udev->ops->caps & UVM_DEVICE_CAP_CPU_MAPPABLE);
}

/**
 * uvm_thrash_moved_locked() - the block's data just moved to @to.
 * @block: the block; caller holds its lock.
 * @to: a device id, or UVM_THRASH_HOST.
 *
 * Counts the move if @to is not where the data was, and on the move that
 * makes it thrashing hands the block to the policy in force.
 */
void uvm_thrash_moved_locked(struct uvm_va_block *block, u8 to)
{
	struct uvm_thrash *t = &block->thrash;
	const struct uvm_thrash_policy *pol;
	struct uvm_thrash_conf conf;
	u8 from = t->owner;
	u64 now;

	lockdep_assert_held(&block->lock);
	if (from == to)
		return;
	WRITE_ONCE(t->owner, to);
	WRITE_ONCE(t->owner_mappable, thrash_mappable(block, to));
	if (from == UVM_THRASH_NOWHERE)
		return;		/* first placed: not a move */
	now = ktime_get_ns();
	pol = uvm_perf_thrash(&block->mgd->perf, &conf);
	if (now - t->window_start > conf.window_ns) {
		t->window_start = now;
		t->moves = 0;
	}
	if (++t->moves <= conf.threshold)
		return;
	t->window_start = now;
	t->moves = 0;
	uvm_count(block->mgd, UVM_STAT_THRASH_DETECTED, 1);
	trace_uvm_thrash(block->start, to, conf.policy, false);
	uvm_event_thrash(block->mgd, block->start, UVM_EVENT_THRASH_DETECTED,
			 to, conf.policy, 0);
	pol->detected(t, now, &conf);
}

/**
 * uvm_thrash_pinned_elsewhere() - is the block pinned to a processor other
 * than @proc (then @proc maps the data where it is)?
 * @block: the block (its lock held, or a racy look is good enough).
 * @proc: the processor that wants the data.
 */
bool uvm_thrash_pinned_elsewhere(struct uvm_va_block *block, u8 proc)
{
	struct uvm_thrash *t = &block->thrash;

	return ktime_get_ns() < READ_ONCE(t->pin_until) &&
	       READ_ONCE(t->owner) != proc;
}

/* Until when must @proc nap before faulting on @block (0: no nap)? */
static u64 thrash_nap_until(struct uvm_va_block *block, u8 proc, u64 now)
{
	struct uvm_thrash *t = &block->thrash;
	u64 until = READ_ONCE(t->nap_until);

	if (now >= until || READ_ONCE(t->owner) == proc)
		return 0;
	/* Pinned: devices map it remotely, so does a CPU that can. */
	if (now < READ_ONCE(t->pin_until) &&
	    (proc != UVM_THRASH_HOST || READ_ONCE(t->owner_mappable)))
		return 0;
	return until;
}

/**
 * uvm_thrash_throttled() - must a fault of @proc nap before it moves
 * @block's data (see uvm_thrash_nap())?
 * @block: the block (a racy look).
 * @proc: the processor that wants the data.
 */
bool uvm_thrash_throttled(struct uvm_va_block *block, u8 proc)
{
	return thrash_nap_until(block, proc, ktime_get_ns());
}

/**
 * uvm_thrash_nap() - before a fault of @proc takes the block's lock: wait
 * out the block's nap if it is throttled and another processor has it.
 * @block: the block (not locked: the nap holds no block lock).
 * @proc: the processor that wants the data.
 *
 * A nap is at most thrash_nap_us (100 ms), short enough to need no signal
 * check.
 */
void uvm_thrash_nap(struct uvm_va_block *block, u8 proc)
{
	u64 now = ktime_get_ns(), until = thrash_nap_until(block, proc, now);

	if (!until)
		return;
	uvm_count(block->mgd, UVM_STAT_THRASH_THROTTLED, 1);
	trace_uvm_thrash(block->start, proc, UVM_THRASH_THROTTLE, true);
	uvm_event_thrash(block->mgd, block->start, UVM_EVENT_THRASH_THROTTLED,
			 proc, UVM_THRASH_THROTTLE, 0);
	fsleep(div_u64(until - now, NSEC_PER_USEC) + 1);
}
