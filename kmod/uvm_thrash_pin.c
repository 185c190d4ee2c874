// SPDX-License-Identifier: GPL-2.0
/*
 * DOC: Pin thrashing
 *
 * A block found thrashing stays with the processor it just moved to for
 * thrash_pin_ms: a device fault from another processor maps the data
 * remotely (host memory, or a peer's device memory), a CPU fault maps the
 * device memory directly where the backend lets the CPU map it, and is
 * throttled otherwise (uvm_thrash_pinned_elsewhere(), uvm_thrash_nap()).
 */
#include <linux/compiler.h>

#include "uvm_thrash.h"

static void pin_detected(struct uvm_thrash *t, u64 now,
			 const struct uvm_thrash_conf *conf)
{
	WRITE_ONCE(t->pin_until, now + conf->pin_ns);
	/* A CPU that cannot map the device's memory naps instead. */
	WRITE_ONCE(t->nap_until, now + conf->nap_ns);
}

const struct uvm_thrash_policy uvm_thrash_pin = {
	.name = "pin",
	.detected = pin_detected,
};
