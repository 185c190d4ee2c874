/* SPDX-License-Identifier: GPL-2.0 */
/*
 * uvm_thrash.h - thrashing detection and the thrashing policies: a block
 * whose data moves back and forth between processors too often is
 * throttled (the next processor that wants it waits) or pinned (it stays
 * where it is and the others map it remotely).
 */
#ifndef __UVM_THRASH_H__
#define __UVM_THRASH_H__

#include <linux/types.h>

struct uvm_managed;
struct uvm_perf_va;
struct uvm_va_block;

/* A processor: a device id, or UVM_THRASH_HOST. */
#define UVM_THRASH_HOST		0xffU
#define UVM_THRASH_NOWHERE	0xfeU

/**
 * struct uvm_thrash - a block's moves between processors.
 * @window_start: ktime (ns) the counting window began.
 * @nap_until: throttle: a processor other than @owner waits until then.
 * @pin_until: pin: the data stays with @owner until then.
 * @moves: moves to another processor in the window.
 * @owner: the processor the data last moved to (UVM_THRASH_NOWHERE before
 *	   it was first placed).
 * @owner_mappable: @owner is a device whose memory the CPU can map (a
 *		    pinned block is mapped there by CPU faults, not napped).
 *
 * @window_start and @moves change under the block's lock; @nap_until,
 * @pin_until and @owner are also read without it (READ_ONCE()) by a fault
 * deciding whether to nap before it takes the lock.
 */
struct uvm_thrash {
	u64 window_start;
	u64 nap_until;
	u64 pin_until;
	u16 moves;
	u8 owner;
	bool owner_mappable;
};

/**
 * struct uvm_thrash_conf - the thrashing policy in force for one decision.
 * @policy: UVM_THRASH_*.
 * @threshold: moves within @window_ns that are thrashing.
 * @window_ns: the window.
 * @nap_ns: throttle: the wait.
 * @pin_ns: pin: how long the data stays.
 */
struct uvm_thrash_conf {
	u32 policy;
	u32 threshold;
	u64 window_ns;
	u64 nap_ns;
	u64 pin_ns;
};

/**
 * struct uvm_thrash_policy - what a policy does about a block found
 * thrashing (uvm_thrash_throttle.c, uvm_thrash_pin.c).
 * @name: the module parameter's value.
 * @detected: the block just moved to @to once too often: set it up.
 */
struct uvm_thrash_policy {
	const char *name;
	void (*detected)(struct uvm_thrash *t, u64 now,
			 const struct uvm_thrash_conf *conf);
};

extern const struct uvm_thrash_policy uvm_thrash_none;
extern const struct uvm_thrash_policy uvm_thrash_throttle;
extern const struct uvm_thrash_policy uvm_thrash_pin;

void uvm_thrash_init(struct uvm_thrash *t);
void uvm_thrash_moved_locked(struct uvm_va_block *block, u8 to);
bool uvm_thrash_pinned_elsewhere(struct uvm_va_block *block, u8 proc);
bool uvm_thrash_throttled(struct uvm_va_block *block, u8 proc);
void uvm_thrash_nap(struct uvm_va_block *block, u8 proc);

#endif /* __UVM_THRASH_H__ */
