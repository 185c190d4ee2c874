// SPDX-License-Identifier: GPL-2.0
/*
 * DOC: Node-to-node moves
 *
 * A block's host pages move to another NUMA node in two steps, so that a
 * prefetch can overlap one block's copy with its work on the blocks around
 * it, as it does for moves to a device (uvm_migrate.c):
 *
 * - uvm_block_to_node_begin_locked() brings device-only pages home, picks
 *   the host pages that are on another node and not pinned for DMA,
 *   allocates their new pages on the target node (one split high-order
 *   allocation per run where the node has it), zaps their CPU PTEs (one
 *   unmap_mapping_range() per run: one TLB flush for a whole block) and
 *   starts the copy on the copy engine (uvm_ce.c): the caller and up to
 *   copy_helpers other CPUs take 128 KiB pieces.
 * - uvm_block_to_node_end_locked() finishes the copy, puts the new pages in
 *   place, gives the old ones to the VA space's pool and populates what
 *   had no backing.
 *
 * A page someone else holds (get_user_pages() took a reference before the
 * zap: O_DIRECT, vmsplice, a MEMCPY) is tested right before its copy, on
 * whichever CPU copies it: once its PTEs are gone no new reference can
 * appear (a lookup faults and waits for the block lock), so a page found
 * unheld stays unheld, and one found held stays the copy of record, as
 * migrate_vma() skips such pages.
 */
#include <linux/highmem.h>
#include <linux/timekeeping.h>

#include "uvm_ce.h"
#include "uvm_event_records.h"
#include "uvm_managed.h"
#include "uvm_test.h"
#include "uvm_trace.h"

/* Copy piece @piece of @arg's move: its pages but those someone holds. */
static int to_node_piece(void *arg, unsigned int piece)
{
	struct uvm_to_node *op = arg;
	unsigned int start = op->lo + piece * op->piece_pages;
	unsigned int end = min(op->hi + 1, start + op->piece_pages);
	unsigned int i = start;
	struct page *old;

	for_each_set_bit_from(i, op->move, end) {
		old = op->block->cpu_pages[i];
		if (uvm_block_page_held(old)) {
			set_bit(i, op->kept);
			continue;
		}
		copy_highpage(op->new[i], old);
	}
	return 0;
}

static bool page_needs_move(struct uvm_va_block *block, unsigned int i,
			    int nid)
{
	struct page *page = block->cpu_pages[i];

	/* A page pinned for DMA (O_DIRECT, RDMA) stays where it is. */
	return page && page_to_nid(page) != nid &&
	       !folio_maybe_dma_pinned(page_folio(page));	/* cheap first check */
}

/* Give back the new pages of @op's runs before @stop (an allocation failed). */
static void to_node_free_new(struct uvm_to_node *op, unsigned int stop)
{
	unsigned int start, end;

	for_each_set_bitrange(start, end, op->move, stop)
		uvm_pool_give(&op->block->mgd->pool, &op->new[start],
			      end - start);
}

/* New pages on @op->nid for the pages of @op->move, a run at a time. */
static int to_node_alloc(struct uvm_to_node *op)
{
	unsigned int start, end;

	for_each_set_bitrange(start, end, op->move, UVM_BLOCK_PAGES) {
		if (uvm_block_alloc_pages(op->block->mgd, op->nid,
					  &op->new[start], end - start,
					  UVM_ALLOC_THISNODE)) {
			to_node_free_new(op, start);
			return -ENOMEM;
		}
	}
	return 0;
}

/* Zap the pages that move and start their copy on the copy engine. */
static void to_node_start(struct uvm_to_node *op)
{
	struct uvm_va_block *block = op->block;

	uvm_block_zap_mask_locked(block, op->move);
	if (block->nr_devs)	/* remote mappings hold the old pages' DMA addresses */
		uvm_block_unmap_host_targets_locked(block, op->move);
	op->lo = find_first_bit(op->move, UVM_BLOCK_PAGES);
	op->hi = find_last_bit(op->move, UVM_BLOCK_PAGES);
	op->piece_pages = bitmap_weight(op->move, UVM_BLOCK_PAGES) >=
			  2 * UVM_CE_PIECE_PAGES ? UVM_CE_PIECE_PAGES :
						   UVM_BLOCK_PAGES;
	op->t0 = ktime_get_ns();
	uvm_ce_start(&op->job, to_node_piece, op,
		     DIV_ROUND_UP(op->hi + 1 - op->lo, op->piece_pages));
	op->busy = true;
}

/**
 * uvm_block_to_node_begin_locked() - begin putting the host copies of
 * [@first, @last] on node @nid.
 * @op: the move, the caller's storage until uvm_block_to_node_end_locked().
 * @block: the block; caller holds @block->lock until the end.
 * @first: first page index.
 * @last: last page index (inclusive).
 * @nid: destination node (online, with memory).
 * @dup: pages whose device copies stay (read-mostly pages).
 *
 * Pages only on devices come home to @nid first (those in @dup keep their
 * device copies: read duplication). Between begin and end the caller may
 * work on other blocks (trylocked); the copy runs meanwhile.
 *
 * Return: 0 (end it), or -ENOMEM / -ENODEV: nothing to end, no host page
 * moved between nodes (device-only pages may have come home).
 */
int uvm_block_to_node_begin_locked(struct uvm_to_node *op,
				   struct uvm_va_block *block,
				   unsigned int first, unsigned int last,
				   int nid, const unsigned long *dup)
{
	unsigned int i;
	int ret;

	lockdep_assert_held(&block->lock);
	op->block = block;
	op->first = first;
	op->last = last;
	op->nid = nid;
	op->busy = false;
	bitmap_zero(op->move, UVM_BLOCK_PAGES);
	bitmap_zero(op->kept, UVM_BLOCK_PAGES);
	if (block->nr_devs) {
		bitmap_set(op->move, first, last - first + 1);
		ret = uvm_block_to_host_locked(block, nid, op->move, dup,
					       UVM_CAUSE_USER);
		bitmap_zero(op->move, UVM_BLOCK_PAGES);
		if (ret)
			return ret;
	}
	for (i = first; i <= last; i++)
		if (page_needs_move(block, i, nid))
			__set_bit(i, op->move);
	if (bitmap_empty(op->move, UVM_BLOCK_PAGES))
		return 0;
	ret = to_node_alloc(op);
	if (ret)
		return ret;
	to_node_start(op);
	return 0;
}

/* Account for the @moved pages of a move that took @copy_ns. */
static void to_node_count(struct uvm_to_node *op, unsigned int moved,
			  u64 copy_ns)
{
	struct uvm_va_block *block = op->block;
	unsigned long addr = block->start + ((unsigned long)op->first << PAGE_SHIFT);

	uvm_count(block->mgd, UVM_STAT_MIGRATE_H2H_PAGES, moved);
	uvm_count(block->mgd, UVM_STAT_MIGRATE_H2H_BYTES,
		  (u64)moved << PAGE_SHIFT);
	trace_uvm_migrate(addr, moved, NUMA_NO_NODE, UVM_TRACE_NONE, op->nid,
			  UVM_TRACE_NONE, UVM_CAUSE_USER, copy_ns);
	uvm_event_migrate(block->mgd, addr, moved, UVM_CAUSE_USER,
			  UVM_EVENT_LOC_HOST, NUMA_NO_NODE, UVM_EVENT_LOC_HOST,
			  op->nid, copy_ns);
}

/*
 * Wait for @op's copy, then put each copied page in place. @op->new ends
 * up holding, packed, the pages to give back: the old ones, and the new
 * ones of pages that stayed. Return: how many moved.
 */
static unsigned int to_node_swap(struct uvm_to_node *op, unsigned int *nr)
{
	struct uvm_va_block *block = op->block;
	unsigned int i, n = 0, moved = 0;
	struct page *spare;

	uvm_ce_finish(&op->job);	/* the pieces cannot fail */
	uvm_test_move_delay();
	for_each_set_bit(i, op->move, UVM_BLOCK_PAGES) {
		spare = op->new[i];
		if (!test_bit(i, op->kept)) {
			spare = block->cpu_pages[i];
			block->cpu_pages[i] = op->new[i];
			moved++;
		}
		op->new[n++] = spare;
	}
	*nr = n;
	return moved;
}

/**
 * uvm_block_to_node_end_locked() - end a move begun by
 * uvm_block_to_node_begin_locked(): the pages of its range are on its node
 * (but for those someone holds), and its unpopulated pages are populated
 * there, zeroed.
 * @op: the move.
 *
 * Return: 0 or -ENOMEM (the moves stand; some pages stay unpopulated).
 */
int uvm_block_to_node_end_locked(struct uvm_to_node *op)
{
	struct uvm_va_block *block = op->block;
	unsigned int moved, n;
	u64 copy_ns;

	lockdep_assert_held(&block->lock);
	if (op->busy) {
		moved = to_node_swap(op, &n);
		copy_ns = ktime_get_ns() - op->t0;
		if (n > moved)
			uvm_count(block->mgd, UVM_STAT_PINNED_SKIPS, n - moved);
		uvm_pool_give(&block->mgd->pool, op->new, n);
		if (moved)
			to_node_count(op, moved, copy_ns);
	}
	return uvm_block_populate_locked(block, op->first, op->last, op->nid,
					 true);
}
