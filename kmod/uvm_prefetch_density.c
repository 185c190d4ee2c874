// SPDX-License-Identifier: GPL-2.0
/*
 * DOC: Density prefetch
 *
 * NVIDIA's heuristic (uvm_perf_prefetch.c): view the 2 MiB block as a tree
 * of aligned regions (512 pages, 256, ..., 2) and, for each faulted page,
 * bring in the largest region around it of which more than
 * prefetch_threshold percent is resident on the faulting device or
 * faulting in this batch. A block being filled page by page is brought in
 * whole once it is mostly there; a few scattered faults bring in nothing.
 *
 * density64k is the same tree as NVIDIA's driver runs it: a faulted page
 * first grows to its 64 KiB unit (the GPU's big page), and CPU faults ask
 * too: the faulting page's unit, and then the largest region around it
 * that the CPU mostly has, is what a CPU fault brings home (or populates).
 * A CPU pass over a block on the device then faults 6 times, at 0, 64K,
 * 128K, 256K, 512K and 1M, each bringing a region twice the last, as
 * measured on NVIDIA's driver (docs/fidelity.md).
 */
#include <linux/bitmap.h>
#include <linux/bitops.h>

#include "uvm_managed.h"
#include "uvm_perf.h"
#include "uvm_prefetch_policy.h"

/* Set bits of @map in the aligned region [@start, @start + @len). */
static unsigned int region_weight(const unsigned long *map, unsigned int start,
				  unsigned int len)
{
	unsigned int w = 0, i;

	if (len < BITS_PER_LONG)
		return hweight_long((map[BIT_WORD(start)] >>
				     (start % BITS_PER_LONG)) & (BIT(len) - 1));
	for (i = BIT_WORD(start); i < BIT_WORD(start + len); i++)
		w += hweight_long(map[i]);
	return w;
}

/**
 * uvm_prefetch_density_block() - the regions of one block to bring in.
 * @occupied: pages resident on the faulting device or faulting now.
 * @faults: the pages faulting now.
 * @threshold: percent, 1..100: a region goes whole above it.
 * @out: set: the pages of the chosen regions (faulted ones included).
 */
void uvm_prefetch_density_block(const unsigned long *occupied,
				const unsigned long *faults,
				unsigned int threshold, unsigned long *out)
{
	unsigned int i, len, start;

	for_each_set_bit(i, faults, UVM_BLOCK_PAGES) {
		if (test_bit(i, out))
			continue;	/* inside a region chosen already */
		for (len = UVM_BLOCK_PAGES; len > 1; len >>= 1) {
			start = round_down(i, len);
			if (region_weight(occupied, start, len) * 100 >
			    threshold * len) {
				bitmap_set(out, start, len);
				break;
			}
		}
	}
}

/**
 * uvm_prefetch_is_density() - does @pf's policy ask for density regions?
 * @pf: the prefetch policy in force.
 */
bool uvm_prefetch_is_density(const struct uvm_prefetch_conf *pf)
{
	return pf->policy == UVM_PREFETCH_DENSITY ||
	       pf->policy == UVM_PREFETCH_DENSITY_64K;
}

/**
 * uvm_prefetch_density_units() - the pages density counts as faulting.
 * @pf: the prefetch policy in force.
 * @faults: the pages faulting now.
 * @units: set: @faults, grown to whole 64 KiB units under density64k.
 */
void uvm_prefetch_density_units(const struct uvm_prefetch_conf *pf,
				const unsigned long *faults, unsigned long *units)
{
	unsigned int i;

	if (pf->policy != UVM_PREFETCH_DENSITY_64K) {
		bitmap_copy(units, faults, UVM_BLOCK_PAGES);
		return;
	}
	bitmap_zero(units, UVM_BLOCK_PAGES);
	for_each_set_bit(i, faults, UVM_BLOCK_PAGES)
		bitmap_set(units, round_down(i, UVM_PREFETCH_UNIT_PAGES),
			   UVM_PREFETCH_UNIT_PAGES);
}

/**
 * uvm_prefetch_has_cpu_region() - does @pf's policy decide what CPU faults
 * bring (uvm_prefetch_cpu_region())?
 * @pf: the prefetch policy in force.
 */
bool uvm_prefetch_has_cpu_region(const struct uvm_prefetch_conf *pf)
{
	return pf->policy == UVM_PREFETCH_DENSITY_64K;
}

/**
 * uvm_prefetch_cpu_region() - what a CPU fault on page @idx brings.
 * @pf: the prefetch policy in force.
 * @resident: the block's pages the CPU has.
 * @idx: the faulting page.
 * @first: set: the region's first page.
 * @last: set: its last page (inclusive).
 *
 * Return: false when the policy has no say on CPU faults (the fault path
 * then does what it does under every other policy).
 */
bool uvm_prefetch_cpu_region(const struct uvm_prefetch_conf *pf,
			     const unsigned long *resident, unsigned int idx,
			     unsigned int *first, unsigned int *last)
{
	DECLARE_BITMAP(faults, UVM_BLOCK_PAGES);
	DECLARE_BITMAP(occupied, UVM_BLOCK_PAGES);
	DECLARE_BITMAP(out, UVM_BLOCK_PAGES);
	unsigned int lo, hi;

	if (!uvm_prefetch_has_cpu_region(pf))
		return false;
	lo = round_down(idx, UVM_PREFETCH_UNIT_PAGES);
	bitmap_zero(faults, UVM_BLOCK_PAGES);
	bitmap_set(faults, lo, UVM_PREFETCH_UNIT_PAGES);
	bitmap_or(occupied, resident, faults, UVM_BLOCK_PAGES);
	bitmap_zero(out, UVM_BLOCK_PAGES);
	uvm_prefetch_density_block(occupied, faults, pf->threshold, out);
	/* the chosen region is aligned and holds the unit: widen to it */
	hi = lo + UVM_PREFETCH_UNIT_PAGES - 1;
	while (lo > 0 && test_bit(lo - 1, out))
		lo--;
	while (hi + 1 < UVM_BLOCK_PAGES && test_bit(hi + 1, out))
		hi++;
	*first = lo;
	*last = hi;
	return true;
}
