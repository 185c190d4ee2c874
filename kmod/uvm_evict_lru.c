// SPDX-License-Identifier: GPL-2.0
/*
 * Eviction policy "lru": the least recently accessed chunk first. Device
 * accesses and migrations in move a chunk to the tail of its device's list,
 * so the list's order is the policy's: no rank, no scan.
 */
#include "uvm_evict_policy.h"

const struct uvm_evict_policy uvm_evict_lru = {
	.name = "lru",
};
