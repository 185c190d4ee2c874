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
 */
#include <linux/bitmap.h>
#include <linux/bitops.h>

#include "uvm_managed.h"
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
