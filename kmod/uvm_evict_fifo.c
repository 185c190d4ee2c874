// SPDX-License-Identifier: GPL-2.0
/*
 * Eviction policy "fifo": the chunk allocated first goes first, however
 * often it was used since: allocation order, what NVIDIA's driver does in
 * effect (its eviction list is not reordered by accesses).
 */
#include "uvm_evict_policy.h"

static u64 fifo_rank(const struct uvm_evict_info *info,
		     const struct uvm_evict_ctx *ctx)
{
	return info->alloc_seq;
}

const struct uvm_evict_policy uvm_evict_fifo = {
	.name = "fifo",
	.rank = fifo_rank,
};
