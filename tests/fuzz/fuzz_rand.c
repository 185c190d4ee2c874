// SPDX-License-Identifier: GPL-2.0
/*
 * fuzz_rand.c - the per-thread PRNG and the "interesting values" every
 * generator draws from: lengths around pages, blocks and overflows, device
 * and node ids in and out of range, and addresses no write can reach.
 */
#include <stdint.h>

#include "fuzz.h"

/* splitmix64 of a ^ b: independent streams from one seed. */
uint64_t fz_mix(uint64_t a, uint64_t b)
{
	uint64_t z = a ^ (b * 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

uint64_t fz_rand(struct fz_thread *t)
{
	uint64_t x = t->rng;

	x ^= x << 13;
	x ^= x >> 7;
	x ^= x << 17;
	t->rng = x;
	return x;
}

uint64_t fz_below(struct fz_thread *t, uint64_t n)
{
	return n ? fz_rand(t) % n : 0;
}

int fz_chance(struct fz_thread *t, unsigned int percent)
{
	return fz_below(t, 100) < percent;
}

/* A length: mostly around @base (a region's length) or small, sometimes
 * one of the overflowing values.
 */
uint64_t fz_len(struct fz_thread *t, size_t base)
{
	static const uint64_t odd[] = {
		0, 1, FZ_PAGE - 1, FZ_PAGE + 1, 2 * FZ_MIB, 2 * FZ_MIB + FZ_PAGE,
		~0ULL, 1ULL << 63, FZ_TASK_SIZE, FZ_TASK_SIZE + FZ_PAGE,
		(1ULL << 47) - FZ_ARENA_BASE, 0x7fffffffULL, 0xffffffffULL,
		0x100000000ULL, ~0ULL - FZ_PAGE + 1,
	};

	switch (fz_below(t, 10)) {
	case 0:
		return odd[fz_below(t, FZ_ARRAY_SIZE(odd))];
	case 1:
		return base + FZ_PAGE;
	case 2:
		return base > FZ_PAGE ? base - FZ_PAGE : 1;
	case 3:
	case 4:
		return base ? base : FZ_PAGE;
	case 5:
		return 1 + fz_below(t, 64);
	default:
		return FZ_PAGE * (1 + fz_below(t, 16)) + (fz_chance(t, 20) ? fz_below(t, FZ_PAGE) : 0);
	}
}

uint32_t fz_u32(struct fz_thread *t)
{
	static const uint32_t odd[] = { 0, 1, 2, 3, 0x80000000U, ~0U, 0xffff, 64 };

	return fz_chance(t, 50) ? odd[fz_below(t, FZ_ARRAY_SIZE(odd))]
				: (uint32_t)fz_rand(t);
}

int32_t fz_dev_id(struct fz_thread *t)
{
	static const int32_t odd[] = { -1, 31, 32, 0x7fffffff, (int32_t)0x80000000 };
	int n = t->w->ndev ? t->w->ndev : 1;

	if (fz_chance(t, 85))
		return fz_below(t, n + 1);	/* n: one past the last */
	return odd[fz_below(t, FZ_ARRAY_SIZE(odd))];
}

int32_t fz_node_id(struct fz_thread *t)
{
	static const int32_t odd[] = { -1, 2, 63, 64, 1024, 0x7fffffff };

	if (fz_chance(t, 85))
		return fz_below(t, 2);
	return odd[fz_below(t, FZ_ARRAY_SIZE(odd))];
}

int fz_is_arena(uintptr_t a)
{
	return a >= FZ_ARENA_BASE && a < FZ_ARENA_BASE + FZ_ARENA_SIZE;
}

static const char fz_rodata[FZ_PAGE] __attribute__((aligned(4096))) = "uvm";

/* An address that no write can reach: unmapped, kernel, non-canonical,
 * read-only, or the arena's guard.
 */
uint64_t fz_wild_addr(struct fz_thread *t)
{
	static const uint64_t odd[] = {
		0, 1, FZ_PAGE, FZ_PAGE - 1, FZ_TASK_SIZE,
		FZ_TASK_SIZE + FZ_PAGE, 1ULL << 47, (1ULL << 47) - 1,
		0x800000000000ULL, 0xffff800000000000ULL, 0xffff888000000000ULL,
		0xffffffff81000000ULL, 0xffffffffff600000ULL, ~0ULL, ~0ULL - 7,
		FZ_ARENA_BASE + FZ_ARENA_SIZE, FZ_ARENA_BASE - FZ_PAGE,
		FZ_ARENA_BASE + FZ_ARENA_SIZE + FZ_GUARD - FZ_PAGE,
	};

	if (fz_chance(t, 15))
		return (uintptr_t)fz_rodata + fz_below(t, 64);
	return odd[fz_below(t, FZ_ARRAY_SIZE(odd))];
}

static uint64_t fz_any_region_addr(struct fz_thread *t)
{
	struct fz_region r;

	if (fz_pick_snapshot(t, FZ_ANY_SCRATCH, &r))
		return (uintptr_t)t->scratch + fz_below(t, FZ_SCRATCH_SIZE);
	return fz_region_addr(t, &r);
}

/* Address a kernel may read from. */
uint64_t fz_in_addr(struct fz_thread *t)
{
	if (fz_chance(t, 10))
		return fz_wild_addr(t);
	if (fz_chance(t, 20))
		return (uintptr_t)t->scratch + fz_below(t, FZ_SCRATCH_SIZE / 2);
	return fz_any_region_addr(t);
}

/* Address a kernel may write @len bytes to, @len clamped so the write
 * stays in the arena and its guard.
 */
uint64_t fz_out_addr(struct fz_thread *t, size_t *len)
{
	uint64_t a, room;

	if (fz_chance(t, 8)) {
		a = fz_wild_addr(t);
		if (*len > FZ_PAGE / 2)
			*len = FZ_PAGE / 2;
		return a;
	}
	if (fz_chance(t, 30))
		a = (uintptr_t)t->scratch + fz_below(t, FZ_SCRATCH_SIZE / 2);
	else
		a = fz_any_region_addr(t);
	if (!fz_is_arena(a))
		a = (uintptr_t)t->scratch;
	room = FZ_ARENA_BASE + FZ_ARENA_SIZE + FZ_GUARD - a;
	if (*len > room)
		*len = room;
	return a;
}
