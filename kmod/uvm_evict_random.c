// SPDX-License-Identifier: GPL-2.0
/*
 * Eviction policy "random": a pseudo-random chunk, reproducible: the rank
 * is a hash of the VA space's evict_seed, how many victims it chose before
 * and the chunk's allocation order within the VA space, so one program run
 * twice with one seed evicts the same chunks in the same order (as long as
 * no other process competes for the device).
 */
#include "uvm_evict_policy.h"

/* splitmix64's finaliser: every input bit moves every output bit. */
static u64 random_mix(u64 x)
{
	x ^= x >> 30;
	x *= 0xbf58476d1ce4e5b9ULL;
	x ^= x >> 27;
	x *= 0x94d049bb133111ebULL;
	return x ^ (x >> 31);
}

static u64 random_rank(const struct uvm_evict_info *info,
		       const struct uvm_evict_ctx *ctx)
{
	return random_mix(ctx->seed ^ random_mix(ctx->nth ^
						 random_mix(info->va_seq)));
}

const struct uvm_evict_policy uvm_evict_random = {
	.name = "random",
	.rank = random_rank,
};
