// SPDX-License-Identifier: GPL-2.0
/*
 * Eviction policy "lfu": the chunk with the fewest device accesses goes
 * first. Counts age: every UVM_EVICT_AGING_EVICTIONS evictions on a device,
 * and whenever they average more than UVM_EVICT_AGING_MEAN a chunk, halve
 * them, so a chunk that was hot long ago does not stay forever (a tiled
 * multiply's finished tiles, hundreds of thousands of accesses each, kept
 * the chunk of the tile being filled losing for hundreds of evictions when
 * only evictions aged them). Ties go to the less recently accessed chunk
 * (the list's order).
 */
#include "uvm_evict_policy.h"

static u64 lfu_rank(const struct uvm_evict_info *info,
		    const struct uvm_evict_ctx *ctx)
{
	return uvm_evict_hits_now(info, ctx->epoch);
}

const struct uvm_evict_policy uvm_evict_lfu = {
	.name = "lfu",
	.rank = lfu_rank,
};
