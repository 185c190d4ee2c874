// SPDX-License-Identifier: GPL-2.0
/*
 * DOC: Throttle thrashing
 *
 * A block found thrashing makes the next processor other than the one
 * that has it wait thrash_nap_us before its fault moves the data again
 * (uvm_thrash_nap(), before the fault takes the block's lock), so the
 * processor holding the data gets that long to use it.
 */
#include <linux/compiler.h>

#include "uvm_thrash.h"

static void throttle_detected(struct uvm_thrash *t, u64 now,
			      const struct uvm_thrash_conf *conf)
{
	WRITE_ONCE(t->nap_until, now + conf->nap_ns);
}

const struct uvm_thrash_policy uvm_thrash_throttle = {
	.name = "throttle",
	.detected = throttle_detected,
};
