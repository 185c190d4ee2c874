// SPDX-License-Identifier: GPL-2.0
/*
 * DOC: Device residency
 *
 * A block's pages live in device memory in 2 MiB chunks: the first page of a
 * block that becomes resident on a device allocates one contiguous
 * UVM_BLOCK_SIZE chunk from the device's buddy allocator, and page i of the
 * block is always at chunk offset i * PAGE_SIZE. So a block moves with one
 * batched copy per direction, peer copies of consecutive pages are one
 * call, and eviction frees whole chunks. The chunk is freed as soon as no
 * page of the block is resident on that device. Chunks are not cleared
 * when allocated: a page becomes resident only by a copy into it or by
 * zeroing it (block_fill_dev()), and nothing - device mapping, CPU mapping,
 * copy - ever reads a page that is not resident, so device memory never
 * shows another owner's data, and a block moving in is written once.
 *
 * A page has one copy (host page or device chunk) unless it is
 * read-duplicated; every transition that drops a copy first removes every
 * mapping of that copy: device mappings (bits in struct uvm_block_dev) and
 * the CPU PTE (zapped; host pages are locked across the zap, see
 * uvm_block.c).
 */
#include <linux/highmem.h>
#include <linux/mm.h>
#include <linux/pagemap.h>
#include <linux/slab.h>
#include <linux/timekeeping.h>

#include "uvm_ce.h"
#include "uvm_device.h"
#include "uvm_evict.h"
#include "uvm_event_records.h"
#include "uvm_managed.h"
#include "uvm_mem.h"
#include "uvm_svc_clock.h"
#include "uvm_test.h"
#include "uvm_trace.h"

/*
 * The tracepoint and record of @pages pages moved in @ns from (@sn, @sd)
 * to (@dn, @dd) (a node, or UVM_TRACE_NONE and a device), one per cause:
 * @pf of them prefetched, @coll collapsed, the rest @d->cause; the copy's
 * time shared by pages.
 */
static void block_trace_move(struct uvm_va_block *block,
			     const struct uvm_counters_delta *d,
			     unsigned int pages, unsigned int pf,
			     unsigned int coll, u64 ns, int sn, int sd, int dn,
			     int dd)
{
	unsigned int part[] = { pages - pf - coll, pf, coll };
	int cause[] = { d->cause, UVM_CAUSE_PREFETCH, UVM_CAUSE_COLLAPSE };
	u32 st = sd == UVM_TRACE_NONE ? UVM_EVENT_LOC_HOST : UVM_EVENT_LOC_DEVICE;
	u32 dt = dd == UVM_TRACE_NONE ? UVM_EVENT_LOC_HOST : UVM_EVENT_LOC_DEVICE;
	unsigned int k;
	u64 t;

	for (k = 0; k < ARRAY_SIZE(part); k++) {
		if (!part[k])
			continue;
		t = part[k] == pages ? ns : div_u64(ns * part[k], pages);
		trace_uvm_migrate(block->start, part[k], sn, sd, dn, dd,
				  cause[k], t);
		uvm_event_migrate(block->mgd, block->start, part[k], cause[k],
				  st, st == UVM_EVENT_LOC_HOST ? sn : sd,
				  dt, dt == UVM_EVENT_LOC_HOST ? dn : dd, t);
	}
}

/*
 * Count @d on the VA space, globally and on one device: the destination
 * of host->device and device->device moves (@to), the source of
 * device->host moves (@from). NULL is the host, on node @d->host_node.
 */
static void block_count_moves(struct uvm_va_block *block,
			      const struct uvm_counters_delta *d,
			      struct uvm_device *from, struct uvm_device *to)
{
	struct uvm_managed *mgd = block->mgd;
	int f = from ? from->id : UVM_TRACE_NONE;
	int t = to ? to->id : UVM_TRACE_NONE;
	int n = d->host_node;

	if (d->populated)
		uvm_count(mgd, UVM_STAT_PAGES_POPULATED, d->populated);
	if (d->h2d) {
		uvm_count_dev(mgd, to, UVM_STAT_MIGRATE_H2D_PAGES, d->h2d);
		uvm_count_dev(mgd, to, UVM_STAT_MIGRATE_H2D_BYTES,
			      (u64)d->h2d << PAGE_SHIFT);
		block_trace_move(block, d, d->h2d, d->h2d_pf, d->h2d_coll,
				 d->h2d_ns, n, UVM_TRACE_NONE, UVM_TRACE_NONE,
				 t);
	}
	if (d->d2h) {
		uvm_count_dev(mgd, from, UVM_STAT_MIGRATE_D2H_PAGES, d->d2h);
		uvm_count_dev(mgd, from, UVM_STAT_MIGRATE_D2H_BYTES,
			      (u64)d->d2h << PAGE_SHIFT);
		block_trace_move(block, d, d->d2h, 0, 0, d->d2h_ns,
				 UVM_TRACE_NONE, f, n, UVM_TRACE_NONE);
	}
	if (d->d2d) {
		uvm_count_dev(mgd, to, UVM_STAT_MIGRATE_D2D_PAGES, d->d2d);
		uvm_count_dev(mgd, to, UVM_STAT_MIGRATE_D2D_BYTES,
			      (u64)d->d2d << PAGE_SHIFT);
		block_trace_move(block, d, d->d2d, d->d2d_pf, d->d2d_coll,
				 d->d2d_ns, UVM_TRACE_NONE, f, UVM_TRACE_NONE,
				 t);
	}
}

/* Batched host <-> device copy inside drm_dev_enter(). */
static int uvm_dev_copy(struct uvm_device *udev, const struct uvm_copy_seg *segs,
			unsigned int n, bool to_dev)
{
	int idx, ret;

	if (!drm_dev_enter(&udev->drm, &idx))
		return -ENODEV;
	ret = to_dev ? udev->ops->copy_to(udev, segs, n) :
		       udev->ops->copy_from(udev, segs, n);
	drm_dev_exit(idx);
	return ret;
}

static int uvm_dev_fill(struct uvm_device *udev, u64 offset, u64 size)
{
	int idx, ret;

	if (!drm_dev_enter(&udev->drm, &idx))
		return -ENODEV;
	ret = udev->ops->fill(udev, offset, size, 0);
	drm_dev_exit(idx);
	return ret;
}

/* Device to device copy: direct when the backend can, else via the host. */
static int uvm_dev_peer_copy(struct uvm_device *dst, u64 dst_off,
			     struct uvm_device *src, u64 src_off, u64 size)
{
	struct uvm_copy_seg seg = { .size = PAGE_SIZE };
	int di, si, ret = -ENODEV;
	u64 done;

	if (!drm_dev_enter(&dst->drm, &di))
		return -ENODEV;
	if (!drm_dev_enter(&src->drm, &si))
		goto out_dst;
	if (dst->ops == src->ops && dst->ops->copy_peer) {
		ret = dst->ops->copy_peer(dst, dst_off, src, src_off, size);
		goto out_src;
	}
	ret = -ENOMEM;
	seg.host = (void *)__get_free_page(GFP_KERNEL);
	if (!seg.host)
		goto out_src;
	for (done = 0, ret = 0; !ret && done < size; done += PAGE_SIZE) {
		seg.dev_offset = src_off + done;
		ret = src->ops->copy_from(src, &seg, 1);
		seg.dev_offset = dst_off + done;
		if (!ret)
			ret = dst->ops->copy_to(dst, &seg, 1);
	}
	free_page((unsigned long)seg.host);
out_src:
	drm_dev_exit(si);
out_dst:
	drm_dev_exit(di);
	return ret;
}

/* on_device = the union of every device's resident pages. */
static void block_update_on_device(struct uvm_va_block *block)
{
	unsigned int d;

	bitmap_zero(block->on_device, UVM_BLOCK_PAGES);
	for (d = 0; d < UVM_MAX_DEVICES; d++)
		if (block->dev[d])
			bitmap_or(block->on_device, block->on_device,
				  block->dev[d]->resident, UVM_BLOCK_PAGES);
}

/* Free the chunk when nothing is resident, the state when nothing maps. */
static void block_dev_trim(struct uvm_va_block *block, unsigned int d)
{
	struct uvm_block_dev *bd = block->dev[d];

	if (!bd)
		return;
	if (bd->chunk && bitmap_empty(bd->resident, UVM_BLOCK_PAGES)) {
		uvm_lru_remove(bd);
		uvm_mem_free(bd->chunk);
		bd->chunk = NULL;
		atomic64_sub(UVM_BLOCK_SIZE, &block->mgd->perf.dev_bytes[d]);
	}
	if (!bd->chunk && bitmap_empty(bd->mapped, UVM_BLOCK_PAGES)) {
		block->dev[d] = NULL;
		block->nr_devs--;
		uvm_bd_list_del(bd);
		uvm_bd_dma_free(bd);
		uvm_device_put(bd->udev);
		kfree(bd);
	}
}

/**
 * uvm_block_dev_get_locked() - a device's state in a block (its chunk, if
 * any: block_dev_get_chunk() allocates one).
 * @block: the block; caller holds @block->lock.
 * @udev: the device (caller holds a reference).
 *
 * Return: the state, or ERR_PTR(-ENOMEM).
 */
struct uvm_block_dev *uvm_block_dev_get_locked(struct uvm_va_block *block,
					       struct uvm_device *udev)
{
	struct uvm_block_dev *bd = block->dev[udev->id];

	lockdep_assert_held(&block->lock);
	if (!bd) {
		bd = kzalloc(sizeof(*bd), GFP_KERNEL_ACCOUNT);
		if (!bd)
			return ERR_PTR(-ENOMEM);
		bd->block = block;
		bd->udev = udev;
		INIT_LIST_HEAD(&bd->lru);
		uvm_bd_list_add(bd);
		uvm_device_get_ref(udev);
		block->dev[udev->id] = bd;
		block->nr_devs++;
	}
	return bd;
}

/*
 * Give @bd a chunk if it has none, evicting other blocks' data when the
 * device is full (charged to @clk, may be NULL).
 *
 * Return: 0, -ENOMEM, -ENOSPC (device full, nothing evictable), -ENODEV
 * (device going away), -EINTR.
 */
static int block_dev_get_chunk(struct uvm_block_dev *bd,
			       struct uvm_svc_clock *clk)
{
	enum uvm_svc_phase was;
	int ret;

	if (bd->chunk)
		return 0;
	was = uvm_svc_enter(clk, UVM_SVC_EVICT);
	ret = uvm_evict_alloc_chunk(bd, clk);
	uvm_svc_enter(clk, was);
	if (ret)
		block_dev_trim(bd->block, bd->udev->id);
	return ret;
}

static u64 chunk_offset(struct uvm_block_dev *bd, unsigned int i)
{
	return bd->chunk->offset + ((u64)i << PAGE_SHIFT);
}

/**
 * uvm_block_unmap_devices_locked() - drop every device mapping of the pages
 * in @mask.
 * @block: the block; caller holds @block->lock.
 * @mask: pages.
 */
void uvm_block_unmap_devices_locked(struct uvm_va_block *block,
				    const unsigned long *mask)
{
	struct uvm_block_dev *bd;
	unsigned int d;

	lockdep_assert_held(&block->lock);
	for (d = 0; d < UVM_MAX_DEVICES; d++) {
		bd = block->dev[d];
		if (!bd)
			continue;
		uvm_bd_dma_unmap(bd, mask);
		bitmap_andnot(bd->mapped, bd->mapped, mask, UVM_BLOCK_PAGES);
		bitmap_andnot(bd->mapped_write, bd->mapped_write, mask,
			      UVM_BLOCK_PAGES);
		block_dev_trim(block, d);
	}
}

/**
 * uvm_block_unmap_dev_locked() - drop every mapping device @d has of the
 * block (its device went away) and, with nothing left, its state.
 * @block: the block; caller holds @block->lock.
 * @d: device id.
 */
void uvm_block_unmap_dev_locked(struct uvm_va_block *block, unsigned int d)
{
	struct uvm_block_dev *bd = block->dev[d];
	DECLARE_BITMAP(all, UVM_BLOCK_PAGES);

	lockdep_assert_held(&block->lock);
	if (!bd)
		return;
	bitmap_fill(all, UVM_BLOCK_PAGES);
	uvm_bd_dma_unmap(bd, all);
	bitmap_zero(bd->mapped, UVM_BLOCK_PAGES);
	bitmap_zero(bd->mapped_write, UVM_BLOCK_PAGES);
	block_dev_trim(block, d);
}

/* The smallest copy worth splitting over the copy engine's CPUs. */
#define UVM_CE_SPLIT_PAGES	(2 * UVM_CE_PIECE_PAGES)

/*
 * The device pages of @mask in [@start, @end), a run at a time: zeroed, or
 * copied from @c->peer.
 */
static int block_dev_span(const struct uvm_block_copy *c, unsigned int start,
			  unsigned int end)
{
	unsigned int i, j;
	u64 len;
	int ret;

	for (i = find_next_bit(c->mask, end, start); i < end;
	     i = find_next_bit(c->mask, end, j)) {
		j = find_next_zero_bit(c->mask, end, i);
		len = (u64)(j - i) << PAGE_SHIFT;
		if (c->peer)
			ret = uvm_dev_peer_copy(c->bd->udev,
						chunk_offset(c->bd, i),
						c->peer->udev,
						chunk_offset(c->peer, i), len);
		else
			ret = uvm_dev_fill(c->bd->udev, chunk_offset(c->bd, i),
					   len);
		if (ret)
			return ret;
	}
	return 0;
}

/*
 * Pages [@start, @end) of the copy in one backend call. Pages adjacent both
 * in the chunk and in the kernel's linear map (split high-order allocations
 * usually are) share a segment.
 */
static int block_copy_span(const struct uvm_block_copy *c, unsigned int start,
			   unsigned int end)
{
	struct uvm_copy_seg segs[UVM_CE_PIECE_PAGES], *last = NULL;
	unsigned int i, n = 0;
	void *host;
	u64 off;
	int ret;

	for (i = find_next_bit(c->mask, end, start); i < end;
	     i = find_next_bit(c->mask, end, i + 1)) {
		host = page_address(c->block->cpu_pages[i]);
		off = chunk_offset(c->bd, i);
		if (last && last->host + last->size == host &&
		    last->dev_offset + last->size == off) {
			last->size += PAGE_SIZE;
			continue;
		}
		if (n == ARRAY_SIZE(segs)) {
			ret = uvm_dev_copy(c->bd->udev, segs, n, c->to_dev);
			if (ret)
				return ret;
			n = 0;
		}
		last = &segs[n++];
		*last = (struct uvm_copy_seg){
			.dev_offset = off, .host = host, .size = PAGE_SIZE,
		};
	}
	return n ? uvm_dev_copy(c->bd->udev, segs, n, c->to_dev) : 0;
}

static int block_copy_range(const struct uvm_block_copy *c, unsigned int start,
			    unsigned int end)
{
	return c->zero || c->peer ? block_dev_span(c, start, end) :
				    block_copy_span(c, start, end);
}

static int block_copy_piece(void *arg, unsigned int piece)
{
	const struct uvm_block_copy *c = arg;
	unsigned int start = c->first + piece * c->piece_pages;

	return block_copy_range(c, start, min_t(unsigned int, UVM_BLOCK_PAGES,
						start + c->piece_pages));
}

static void block_copy_zap(void *arg)
{
	const struct uvm_block_copy *c = arg;

	if (c->zap)
		uvm_block_zap_mask_locked(c->block, c->zap);
}

/*
 * Start @c on @job: a large copy in pieces for the copy engine's CPUs
 * (uvm_ce.c), a small one as one piece for the caller; then zap the CPU
 * PTEs of @c->zap while the helpers copy.
 */
static void block_copy_start(struct uvm_block_copy *c, struct uvm_ce_job *job)
{
	unsigned int span = 0;

	c->first = find_first_bit(c->mask, UVM_BLOCK_PAGES);
	c->piece_pages = UVM_BLOCK_PAGES;
	if (c->first < UVM_BLOCK_PAGES) {
		span = find_last_bit(c->mask, UVM_BLOCK_PAGES) + 1 - c->first;
		if (bitmap_weight(c->mask, UVM_BLOCK_PAGES) >=
		    UVM_CE_SPLIT_PAGES)
			c->piece_pages = UVM_CE_PIECE_PAGES;
	}
	uvm_ce_start(job, block_copy_piece, c,
		     DIV_ROUND_UP(span, c->piece_pages));
	job->clk = c->clk;
	if (c->zap) {
		enum uvm_svc_phase was = uvm_svc_enter(c->clk, UVM_SVC_UNMAP);

		block_copy_zap(c);
		uvm_svc_enter(c->clk, was);
	}
}

/* Run @c, with the CPU PTEs of @c->zap zapped meanwhile. */
static int block_copy_run(struct uvm_block_copy *c)
{
	struct uvm_ce_job job;

	block_copy_start(c, &job);
	return uvm_ce_finish(&job);
}

/*
 * Host pages of @mask <-> @bd's chunk (@to_dev: host to device), the CPU
 * PTEs of @zap (may be NULL) zapped meanwhile.
 */
static int block_copy_host_dev(struct uvm_va_block *block,
			       struct uvm_block_dev *bd,
			       const unsigned long *mask, bool to_dev,
			       const unsigned long *zap)
{
	struct uvm_block_copy c = {
		.block = block, .bd = bd, .mask = mask, .zap = zap,
		.to_dev = to_dev,
	};

	return block_copy_run(&c);
}

/* Copy the pages of @mask from @src's chunk to @dst's (@clk: or NULL). */
static int block_copy_peer(struct uvm_block_dev *dst, struct uvm_block_dev *src,
			   const unsigned long *mask, struct uvm_svc_clock *clk)
{
	struct uvm_block_copy c = {
		.block = dst->block, .bd = dst, .peer = src, .mask = mask,
		.clk = clk,
	};

	return block_copy_run(&c);
}

/* Zero the pages of @mask in @bd's chunk (@clk: or NULL). */
static int block_zero_dev(struct uvm_va_block *block, struct uvm_block_dev *bd,
			  const unsigned long *mask, struct uvm_svc_clock *clk)
{
	struct uvm_block_copy c = {
		.block = block, .bd = bd, .mask = mask, .zero = true,
		.clk = clk,
	};

	return block_copy_run(&c);
}

/*
 * Give the pages of @mask a new (not zeroed) host page each, a run of
 * @mask at a time straight into cpu_pages[]. On -ENOMEM the pages of the
 * runs done so far stay (block_free_host_pages() undoes them).
 */
static int block_alloc_host_pages(struct uvm_va_block *block,
				  const unsigned long *mask, int nid)
{
	unsigned int start, end;
	int ret;

	for_each_set_bitrange(start, end, mask, UVM_BLOCK_PAGES) {
		ret = uvm_block_alloc_pages(block->mgd, nid,
					    &block->cpu_pages[start],
					    end - start, 0);
		if (ret) {	/* nothing of this run is allocated */
			memset(&block->cpu_pages[start], 0,
			       (end - start) * sizeof(block->cpu_pages[0]));
			return ret;
		}
		block->nr_cpu_pages += end - start;
	}
	return 0;
}

/* Undo block_alloc_host_pages() (the pages were never mapped). */
static void block_free_host_pages(struct uvm_va_block *block,
				  const unsigned long *mask)
{
	unsigned int i;

	for_each_set_bit(i, mask, UVM_BLOCK_PAGES) {
		if (!block->cpu_pages[i])
			continue;
		uvm_block_put_page(block->cpu_pages[i]);
		block->cpu_pages[i] = NULL;
		block->nr_cpu_pages--;
	}
}

/* The first device other than @skip holding each page of @mask. */
static struct uvm_block_dev *block_dev_source(struct uvm_va_block *block,
					      unsigned int skip,
					      const unsigned long *mask,
					      unsigned long *out)
{
	struct uvm_block_dev *bd;
	unsigned int d;

	for (d = 0; d < UVM_MAX_DEVICES; d++) {
		bd = block->dev[d];
		if (d == skip || !bd || !bd->chunk)
			continue;
		if (bitmap_and(out, mask, bd->resident, UVM_BLOCK_PAGES))
			return bd;
	}
	return NULL;
}

/*
 * Zap the CPU PTEs of the host pages of @mask. CPU faults install PTEs only
 * under the block lock, setting cpu_mapped first, and only a zap (under the
 * block lock too) clears it: a page whose bit is clear has no PTE.
 */
static void block_zap_host(struct uvm_va_block *block,
			   const unsigned long *mask)
{
	DECLARE_BITMAP(mapped, UVM_BLOCK_PAGES);

	if (bitmap_and(mapped, mask, block->cpu_mapped, UVM_BLOCK_PAGES))
		uvm_block_zap_mask_locked(block, mapped);
}

/*
 * The pages of @mask get another copy (read duplication): no device may
 * write one copy through a writable mapping. A device's next write faults
 * and collapses the copies.
 */
static void block_revoke_dev_writes(struct uvm_va_block *block,
				    const unsigned long *mask)
{
	unsigned int d;

	for (d = 0; d < UVM_MAX_DEVICES; d++)
		if (block->dev[d])
			bitmap_andnot(block->dev[d]->mapped_write,
				      block->dev[d]->mapped_write, mask,
				      UVM_BLOCK_PAGES);
}

/**
 * uvm_block_unmap_host_targets_locked() - drop the device mappings of the
 * pages of @mask that point at their host copy (a remote mapping:
 * accessed-by, preferred location elsewhere, or a device that was full),
 * before that copy goes away or moves.
 * @block: the block; caller holds @block->lock.
 * @mask: pages.
 */
void uvm_block_unmap_host_targets_locked(struct uvm_va_block *block,
					 const unsigned long *mask)
{
	DECLARE_BITMAP(drop, UVM_BLOCK_PAGES);
	struct uvm_block_dev *bd;
	unsigned int d, i;

	lockdep_assert_held(&block->lock);
	for (d = 0; d < UVM_MAX_DEVICES && block->nr_devs; d++) {
		bd = block->dev[d];
		if (!bd || !bitmap_and(drop, mask, bd->mapped, UVM_BLOCK_PAGES))
			continue;
		for_each_set_bit(i, drop, UVM_BLOCK_PAGES)
			if (bd->map_target[i] != UVM_MAP_HOST)
				__clear_bit(i, drop);
		uvm_bd_dma_unmap(bd, drop);
		bitmap_andnot(bd->mapped, bd->mapped, drop, UVM_BLOCK_PAGES);
		bitmap_andnot(bd->mapped_write, bd->mapped_write, drop,
			      UVM_BLOCK_PAGES);
		block_dev_trim(block, d);
	}
}

/*
 * Drop the host copies of @mask (other copies exist or the data is being
 * discarded): zap the CPU PTEs and the device mappings that point at them,
 * free.
 */
void uvm_block_drop_host_locked(struct uvm_va_block *block,
				const unsigned long *mask)
{
	lockdep_assert_held(&block->lock);
	block_zap_host(block, mask);
	uvm_block_unmap_host_targets_locked(block, mask);
	uvm_block_free_host_pages_locked(block, mask, true);
}

/* Drop device @d's copies of @mask and every mapping of them. */
void uvm_block_drop_dev_locked(struct uvm_va_block *block, unsigned int d,
			       const unsigned long *mask)
{
	struct uvm_block_dev *bd = block->dev[d];
	DECLARE_BITMAP(drop, UVM_BLOCK_PAGES);
	DECLARE_BITMAP(cpu, UVM_BLOCK_PAGES);

	lockdep_assert_held(&block->lock);
	if (!bd || !bitmap_and(drop, mask, bd->resident, UVM_BLOCK_PAGES))
		return;
	if (bitmap_and(cpu, drop, block->cpu_maps_dev, UVM_BLOCK_PAGES)) {
		uvm_block_zap_mask_locked(block, cpu);
		bitmap_andnot(block->cpu_maps_dev, block->cpu_maps_dev, cpu,
			      UVM_BLOCK_PAGES);
	}
	uvm_block_unmap_devices_locked(block, drop);
	bd = block->dev[d];	/* unmapping may not free it: it has a chunk */
	bitmap_andnot(bd->resident, bd->resident, drop, UVM_BLOCK_PAGES);
	bitmap_andnot(bd->prefetched, bd->prefetched, drop, UVM_BLOCK_PAGES);
	block_update_on_device(block);
	block_dev_trim(block, d);
}

/**
 * uvm_block_mark_prefetched_locked() - the pages of @mask now resident on
 * device @d came there by a prefetch policy's choice: the first device
 * access of each counts it used (uvm_block_prefetch_use_locked()).
 * @block: the block; caller holds @block->lock.
 * @d: device id.
 * @mask: pages.
 */
void uvm_block_mark_prefetched_locked(struct uvm_va_block *block, unsigned int d,
				      const unsigned long *mask)
{
	struct uvm_block_dev *bd = block->dev[d];
	DECLARE_BITMAP(tmp, UVM_BLOCK_PAGES);

	lockdep_assert_held(&block->lock);
	if (bd && bitmap_and(tmp, mask, bd->resident, UVM_BLOCK_PAGES))
		bitmap_or(bd->prefetched, bd->prefetched, tmp, UVM_BLOCK_PAGES);
}

/**
 * uvm_block_prefetch_use_locked() - a device access of pages [@first,
 * @last] on @udev: count the prefetched ones it is the first to use.
 * @block: the block; caller holds @block->lock.
 * @udev: the accessing device.
 * @first: first page index.
 * @last: last page index.
 */
void uvm_block_prefetch_use_locked(struct uvm_va_block *block,
				   struct uvm_device *udev, unsigned int first,
				   unsigned int last)
{
	struct uvm_block_dev *bd = block->dev[udev->id];
	unsigned int i, n = 0;

	lockdep_assert_held(&block->lock);
	if (!bd)
		return;
	for (i = find_next_bit(bd->prefetched, last + 1, first); i <= last;
	     i = find_next_bit(bd->prefetched, last + 1, i + 1)) {
		__clear_bit(i, bd->prefetched);
		n++;
	}
	if (n)
		uvm_count_dev(block->mgd, udev, UVM_STAT_PREFETCH_USED_PAGES, n);
}

/* Drop every device copy of @mask but @keep's (UVM_MAX_DEVICES: none). */
static void block_drop_devs_except(struct uvm_va_block *block,
				   unsigned int keep, const unsigned long *mask)
{
	unsigned int d;

	for (d = 0; d < UVM_MAX_DEVICES; d++)
		if (d != keep && block->dev[d])
			uvm_block_drop_dev_locked(block, d, mask);
}

/* The node of the host pages of @mask; NUMA_NO_NODE if several. */
static int block_host_node(struct uvm_va_block *block,
			   const unsigned long *mask)
{
	int nid = NUMA_NO_NODE;
	unsigned int i;

	for_each_set_bit(i, mask, UVM_BLOCK_PAGES) {
		if (nid == NUMA_NO_NODE)
			nid = page_to_nid(block->cpu_pages[i]);
		else if (page_to_nid(block->cpu_pages[i]) != nid)
			return NUMA_NO_NODE;
	}
	return nid;
}

/* Pages of @mask also in @why_mask (may be NULL). */
static unsigned int weight_and(const unsigned long *mask,
			       const unsigned long *why_mask)
{
	DECLARE_BITMAP(both, UVM_BLOCK_PAGES);

	if (!why_mask || !bitmap_and(both, mask, why_mask, UVM_BLOCK_PAGES))
		return 0;
	return bitmap_weight(both, UVM_BLOCK_PAGES);
}

/* Count @copied pages host->device (@h2d) or device->device by cause. */
static void block_count_fill(struct uvm_to_dev *op,
			     const unsigned long *copied, bool h2d)
{
	struct uvm_counters_delta *delta = &op->delta;
	unsigned int n = bitmap_weight(copied, UVM_BLOCK_PAGES);
	unsigned int pf = weight_and(copied, op->why->prefetched);
	unsigned int coll = weight_and(copied, op->why->collapse);

	if (h2d) {
		delta->h2d += n;
		delta->h2d_pf += pf;
		delta->h2d_coll += coll;
	} else {
		delta->d2d += n;
		delta->d2d_pf += pf;
		delta->d2d_coll += coll;
	}
	if (op->why->clk)
		op->why->clk->migrated += n;
}

/*
 * Begin filling @op->bd with the pages of @op->todo: from other devices
 * (done here), then from the host (started, the CPU PTEs of @op->zap
 * zapped meanwhile).
 */
static int block_fill_dev_begin(struct uvm_to_dev *op)
{
	struct uvm_svc_clock *clk = op->why->clk;
	struct uvm_va_block *block = op->block;
	struct uvm_counters_delta *delta = &op->delta;
	enum uvm_svc_phase was = uvm_svc_enter(clk, UVM_SVC_COPY);
	struct uvm_block_dev *src;
	unsigned int i;
	u64 t0;
	int ret = 0;

	while ((src = block_dev_source(block, op->udev->id, op->todo,
				       op->host))) {
		t0 = ktime_get_ns();
		ret = block_copy_peer(op->bd, src, op->host, clk);
		if (ret)
			goto out;
		delta->d2d_ns += ktime_get_ns() - t0;
		block_count_fill(op, op->host, false);
		bitmap_andnot(op->todo, op->todo, op->host, UVM_BLOCK_PAGES);
	}
	bitmap_zero(op->host, UVM_BLOCK_PAGES);
	for_each_set_bit(i, op->todo, UVM_BLOCK_PAGES)
		if (block->cpu_pages[i])
			set_bit(i, op->host);
	delta->host_node = block_host_node(block, op->host);
	op->copy = (struct uvm_block_copy){
		.block = block, .bd = op->bd, .mask = op->host, .zap = op->zap,
		.to_dev = true, .clk = clk,
	};
	op->t0 = ktime_get_ns();
	block_copy_start(&op->copy, &op->job);
	op->busy = true;
out:
	uvm_svc_enter(clk, was);
	return ret;
}

/*
 * End the fill: wait for the host copy, then populate (zero) the pages
 * that had no copy anywhere.
 */
static int block_fill_dev_end(struct uvm_to_dev *op)
{
	struct uvm_counters_delta *delta = &op->delta;
	int ret;

	ret = uvm_ce_finish(&op->job);
	if (ret)
		return ret;
	delta->h2d_ns = ktime_get_ns() - op->t0;
	uvm_test_move_delay();
	block_count_fill(op, op->host, true);
	bitmap_andnot(op->todo, op->todo, op->host, UVM_BLOCK_PAGES);
	delta->populated += bitmap_weight(op->todo, UVM_BLOCK_PAGES);
	return block_zero_dev(op->block, op->bd, op->todo, op->why->clk);
}

/*
 * Pages of @op->zap (moving to @op->udev) whose host page
 * get_user_pages() holds: an O_DIRECT read or a vmsplice may still write
 * it, so it becomes the only copy instead (every device copy goes, the
 * new one included, so a device may then map it writable remotely). Those
 * held when the move began (block_skip_held()) stay so, held or not now.
 * Take them out of @op->zap into @op->held.
 */
static void block_keep_held(struct uvm_va_block *block, struct uvm_to_dev *op)
{
	DECLARE_BITMAP(held, UVM_BLOCK_PAGES);
	unsigned int i, n = 0;

	bitmap_and(held, op->zap, op->held, UVM_BLOCK_PAGES);
	for_each_set_bit(i, op->zap, UVM_BLOCK_PAGES)
		if (!test_bit(i, held) && block->cpu_pages[i] &&
		    uvm_block_page_held(block->cpu_pages[i])) {
			set_bit(i, held);
			n++;
		}
	if (bitmap_empty(held, UVM_BLOCK_PAGES))
		return;
	block_drop_devs_except(block, UVM_MAX_DEVICES, held);
	bitmap_andnot(op->zap, op->zap, held, UVM_BLOCK_PAGES);
	bitmap_or(op->held, op->held, held, UVM_BLOCK_PAGES);
	uvm_count(block->mgd, UVM_STAT_PINNED_SKIPS, n);
}

/*
 * Moving pages of @op->todo whose host page get_user_pages() holds once
 * their writable CPU PTEs are gone (from then on no pin for writing can be
 * taken): the holder (a MEMCPY's pinned destination, O_DIRECT) may write
 * the page while the copy runs and let go before the move ends, where
 * block_keep_held() would no longer see it and the stale device copy
 * would win (kill-stress finding F5). They stay home: out of @op->todo
 * into @op->held. A read-only mapping still holds its own reference.
 */
static void block_skip_held(struct uvm_va_block *block, struct uvm_to_dev *op)
{
	DECLARE_BITMAP(moving, UVM_BLOCK_PAGES);
	unsigned int i, n = 0;

	bitmap_andnot(moving, op->todo, op->dup, UVM_BLOCK_PAGES);
	for_each_set_bit(i, moving, UVM_BLOCK_PAGES) {
		if (!block->cpu_pages[i] ||
		    !uvm_block_page_held_mapped(block->cpu_pages[i]))
			continue;
		set_bit(i, op->held);
		clear_bit(i, op->todo);
		n++;
	}
	if (n)
		uvm_count(block->mgd, UVM_STAT_PINNED_SKIPS, n);
}

/*
 * Read duplicates of @op->todo whose host page get_user_pages() holds (a
 * MEMCPY's pinned destination, O_DIRECT): their host copy stays mapped, so
 * a write through the pin would land in it alone and leave a device copy
 * stale (kill-stress finding F4). They get no device copy: out of
 * @op->todo into @op->held, which the caller maps remotely. (A pin taken
 * after the duplicate is made write-faults first, which collapses it.)
 */
static void block_skip_held_dups(struct uvm_va_block *block,
				 struct uvm_to_dev *op)
{
	DECLARE_BITMAP(dups, UVM_BLOCK_PAGES);
	unsigned int i;

	if (!bitmap_and(dups, op->todo, op->dup, UVM_BLOCK_PAGES))
		return;
	for_each_set_bit(i, dups, UVM_BLOCK_PAGES)
		if (block->cpu_pages[i] &&
		    uvm_block_page_held_mapped(block->cpu_pages[i]))
			set_bit(i, op->held);
	if (bitmap_empty(op->held, UVM_BLOCK_PAGES))
		return;
	bitmap_andnot(op->todo, op->todo, op->held, UVM_BLOCK_PAGES);
	uvm_count(block->mgd, UVM_STAT_PINNED_SKIPS,
		  bitmap_weight(op->held, UVM_BLOCK_PAGES));
}

/**
 * uvm_block_to_dev_begin_locked() - begin making the pages of @mask
 * resident on @udev.
 * @op: the move, caller's storage until uvm_block_to_dev_end_locked().
 * @block: the block; caller holds @block->lock until the end.
 * @udev: destination device.
 * @mask: pages to make resident (managed pages of the block).
 * @dup: pages whose other copies stay (read duplication); the rest move.
 * @why: the causes (for the uvm_migrate tracepoint and records) and the
 *	 fault batch's clock; the caller's until the end.
 *
 * Copies come from another device (peer copy, done here) or the host copy
 * (started here, with the CPU PTEs of the moving pages zapped meanwhile;
 * uvm_block_to_dev_end_locked() waits for it). Between the two the caller
 * keeps the block locked and may work on other blocks (trylocked), and
 * access pages of this block outside @mask through their existing device
 * mappings (the device-access pipeline, uvm_device_access.c).
 *
 * Return: 0 (end it), or a negative errno: nothing to end, no page moved.
 */
int uvm_block_to_dev_begin_locked(struct uvm_to_dev *op,
				  struct uvm_va_block *block,
				  struct uvm_device *udev,
				  const unsigned long *mask,
				  const unsigned long *dup,
				  const struct uvm_move_ctx *why)
{
	enum uvm_svc_phase was;
	struct uvm_block_dev *bd;
	int ret;

	lockdep_assert_held(&block->lock);
	op->block = block;
	op->udev = udev;
	op->mask = mask;
	op->dup = dup;
	op->why = why;
	op->busy = false;
	bitmap_zero(op->held, UVM_BLOCK_PAGES);
	op->delta = (struct uvm_counters_delta){
		.cause = why->cause, .host_node = NUMA_NO_NODE,
	};
	bd = uvm_block_dev_get_locked(block, udev);
	if (IS_ERR(bd))
		return PTR_ERR(bd);
	ret = block_dev_get_chunk(bd, why->clk);
	if (ret)
		return ret;
	op->bd = bd;
	bitmap_andnot(op->todo, mask, bd->resident, UVM_BLOCK_PAGES);
	block_skip_held_dups(block, op);
	if (bitmap_empty(op->todo, UVM_BLOCK_PAGES))
		return 0;

	/*
	 * No CPU write may land in a page once its copy is taken: its writable
	 * CPU mappings go first. The read-only ones of moving pages go while
	 * the copy runs (a CPU access in between faults and waits for the
	 * block lock); those of duplicated pages stay.
	 */
	was = uvm_svc_enter(why->clk, UVM_SVC_UNMAP);
	bitmap_and(op->zap, op->todo, block->cpu_writable, UVM_BLOCK_PAGES);
	block_zap_host(block, op->zap);
	if (bitmap_and(op->zap, op->todo, dup, UVM_BLOCK_PAGES))
		block_revoke_dev_writes(block, op->zap);
	uvm_svc_enter(why->clk, was);
	block_skip_held(block, op);
	if (bitmap_empty(op->todo, UVM_BLOCK_PAGES))
		return 0;
	bitmap_andnot(op->zap, op->todo, dup, UVM_BLOCK_PAGES);
	bitmap_and(op->zap, op->zap, block->cpu_mapped, UVM_BLOCK_PAGES);

	ret = block_fill_dev_begin(op);
	if (ret)
		block_dev_trim(block, udev->id);
	return ret;
}

/**
 * uvm_block_to_dev_end_locked() - end a move begun by
 * uvm_block_to_dev_begin_locked().
 * @op: the move.
 *
 * Moved pages lose their host copy and every mapping of their old copies;
 * CPU write access to duplicated pages is gone (their PTEs zapped). Pages
 * whose host page get_user_pages() holds stay on the host (@op->held).
 *
 * Return: 0 or a negative errno (-ENOSPC: device full and nothing
 * evictable); on error some pages may have moved, none is lost.
 */
int uvm_block_to_dev_end_locked(struct uvm_to_dev *op)
{
	struct uvm_va_block *block = op->block;
	struct uvm_device *udev = op->udev;
	struct uvm_block_dev *bd = op->bd;
	enum uvm_svc_phase was;
	int ret;

	lockdep_assert_held(&block->lock);
	if (op->busy) {
		ret = block_fill_dev_end(op);
		if (ret) {
			block_dev_trim(block, udev->id);
			return ret;
		}
		bitmap_andnot(op->todo, op->mask, bd->resident,
			      UVM_BLOCK_PAGES);
		bitmap_andnot(op->todo, op->todo, op->held, UVM_BLOCK_PAGES);
		bitmap_or(bd->resident, bd->resident, op->todo,
			  UVM_BLOCK_PAGES);
		bitmap_or(block->on_device, block->on_device, op->todo,
			  UVM_BLOCK_PAGES);
	}

	/*
	 * Moved (not duplicated) pages: drop the other copies, also of pages
	 * @udev already held (a read duplicate becoming the only copy), but
	 * for those whose host page someone else holds: they stay home.
	 */
	bitmap_andnot(op->zap, op->mask, op->dup, UVM_BLOCK_PAGES);
	block_keep_held(block, op);
	was = uvm_svc_enter(op->why->clk, UVM_SVC_UNMAP);
	block_drop_devs_except(block, udev->id, op->zap);
	uvm_block_drop_host_locked(block, op->zap);
	uvm_svc_enter(op->why->clk, was);
	if (op->busy)
		block_count_moves(block, &op->delta, NULL, udev);
	block_dev_trim(block, udev->id);	/* every page may have stayed home */
	if (block->dev[udev->id])
		uvm_lru_touch(block->dev[udev->id]);
	return 0;
}

/**
 * uvm_block_to_dev_locked() - make the pages of @mask resident on @udev:
 * uvm_block_to_dev_begin_locked() and uvm_block_to_dev_end_locked() at once.
 * @block: the block; caller holds @block->lock.
 * @udev: destination device.
 * @mask: pages to make resident (managed pages of the block).
 * @dup: pages whose other copies stay (read duplication); the rest move.
 * @why: the causes and clock (struct uvm_move_ctx).
 *
 * Return: 0 or a negative errno (-ENOSPC: device full and nothing
 * evictable); on error some pages may have moved, none is lost.
 */
int uvm_block_to_dev_locked(struct uvm_va_block *block,
			    struct uvm_device *udev, const unsigned long *mask,
			    const unsigned long *dup,
			    const struct uvm_move_ctx *why)
{
	struct uvm_to_dev op;
	int ret;

	ret = uvm_block_to_dev_begin_locked(&op, block, udev, mask, dup, why);
	return ret ?: uvm_block_to_dev_end_locked(&op);
}

/**
 * uvm_block_to_host_locked() - give the pages of @mask a host copy.
 * @block: the block; caller holds @block->lock.
 * @nid: node for new host pages.
 * @mask: pages.
 * @dup: pages whose device copies stay (read duplication).
 * @cause: UVM_CAUSE_*, for the uvm_migrate tracepoint.
 *
 * Pages with a host copy keep it where it is (node moves are
 * uvm_block_to_node_begin_locked()); pages only on devices are copied home
 * in one batch per device; unpopulated pages are populated zeroed.
 *
 * Return: 0 or -ENOMEM / -ENODEV.
 */
int uvm_block_to_host_locked(struct uvm_va_block *block, int nid,
			     const unsigned long *mask,
			     const unsigned long *dup, int cause)
{
	DECLARE_BITMAP(todo, UVM_BLOCK_PAGES);
	DECLARE_BITMAP(run, UVM_BLOCK_PAGES);
	struct uvm_counters_delta delta = { .cause = cause, .host_node = nid };
	struct uvm_block_dev *src;
	unsigned int i;
	u64 t0;
	int ret;

	lockdep_assert_held(&block->lock);
	bitmap_zero(todo, UVM_BLOCK_PAGES);
	for_each_set_bit(i, mask, UVM_BLOCK_PAGES)
		if (!block->cpu_pages[i] && test_bit(i, block->on_device))
			set_bit(i, todo);
	/* A CPU writing device memory in place must not write into a copy. */
	if (bitmap_and(run, todo, block->cpu_writable, UVM_BLOCK_PAGES))
		block_zap_host(block, run);
	/* Nor a device, into the copy it keeps. */
	if (bitmap_and(run, todo, dup, UVM_BLOCK_PAGES))
		block_revoke_dev_writes(block, run);

	while ((src = block_dev_source(block, UVM_MAX_DEVICES, todo, run))) {
		ret = block_alloc_host_pages(block, run, nid);
		t0 = ktime_get_ns();
		if (!ret)
			ret = block_copy_host_dev(block, src, run, false, NULL);
		if (ret) {
			block_free_host_pages(block, run);
			return ret;
		}
		/* Counted per source device, so one event per source. */
		delta.d2h_ns = ktime_get_ns() - t0;
		delta.d2h = bitmap_weight(run, UVM_BLOCK_PAGES);
		block_count_moves(block, &delta, src->udev, NULL);
		bitmap_andnot(todo, todo, run, UVM_BLOCK_PAGES);
		/*
		 * This run is home: its moved pages lose their device copies
		 * now, so a later run's failure leaves no page with two
		 * copies and a writable device mapping.
		 */
		bitmap_andnot(run, run, dup, UVM_BLOCK_PAGES);
		block_drop_devs_except(block, UVM_MAX_DEVICES, run);
	}
	/* Moved pages that had a host copy already: drop the device copies. */
	bitmap_andnot(run, mask, dup, UVM_BLOCK_PAGES);
	block_drop_devs_except(block, UVM_MAX_DEVICES, run);
	return uvm_block_populate_mask_locked(block, mask, nid);
}

/**
 * uvm_block_release_devs_locked() - free every device copy and mapping of
 * the pages of @mask (munmap, discard).
 * @block: the block; caller holds @block->lock.
 * @mask: pages.
 */
void uvm_block_release_devs_locked(struct uvm_va_block *block,
				   const unsigned long *mask)
{
	lockdep_assert_held(&block->lock);
	if (!block->nr_devs)
		return;
	uvm_block_unmap_devices_locked(block, mask);
	block_drop_devs_except(block, UVM_MAX_DEVICES, mask);
}

/*
 * Does every page of @mask have a copy at @target? A mapping without one
 * would read through a NULL page (fuzzer finding FZ7): refuse it, loudly.
 */
static bool block_map_has_copies(struct uvm_va_block *block,
				 const unsigned long *mask, u8 target)
{
	struct uvm_block_dev *t = NULL;
	unsigned int i;

	if (target != UVM_MAP_HOST)
		t = target < UVM_MAX_DEVICES ? block->dev[target] : NULL;
	for_each_set_bit(i, mask, UVM_BLOCK_PAGES) {
		if (t ? t->chunk && test_bit(i, t->resident) :
			target == UVM_MAP_HOST && block->cpu_pages[i])
			continue;
		pr_err_ratelimited("uvm: refusing to map page %u of block %#lx to target %u, which holds no copy\n",
				   i, block->start, target);
		return false;
	}
	return true;
}

/**
 * uvm_block_map_dev_locked() - map the pages of @mask in @udev's page table.
 * @block: the block; caller holds @block->lock.
 * @udev: the device.
 * @mask: pages, each with a copy at @target.
 * @target: device id of the copy mapped, or UVM_MAP_HOST.
 * @write: map writable (the caller made the target the only copy).
 *
 * Return: 0, -ENOMEM, or -EFAULT (a page of @mask has no copy at @target:
 * a bug, logged).
 */
int uvm_block_map_dev_locked(struct uvm_va_block *block,
			     struct uvm_device *udev, const unsigned long *mask,
			     u8 target, bool write)
{
	DECLARE_BITMAP(dma, UVM_BLOCK_PAGES);
	struct uvm_block_dev *bd;
	unsigned int i;
	int ret;

	lockdep_assert_held(&block->lock);
	if (!block_map_has_copies(block, mask, target))
		return -EFAULT;
	bd = uvm_block_dev_get_locked(block, udev);
	if (IS_ERR(bd))
		return PTR_ERR(bd);
	/* A host page stays DMA-mapped while its mapping does (uvm_dev_dma.c). */
	if (target == UVM_MAP_HOST) {
		bitmap_andnot(dma, mask, bd->dma_mapped, UVM_BLOCK_PAGES);
		ret = uvm_bd_dma_map(bd, dma);
		if (ret) {
			block_dev_trim(block, udev->id);
			return ret;
		}
	} else {
		uvm_bd_dma_unmap(bd, mask);
	}
	bitmap_or(bd->mapped, bd->mapped, mask, UVM_BLOCK_PAGES);
	if (write)
		bitmap_or(bd->mapped_write, bd->mapped_write, mask,
			  UVM_BLOCK_PAGES);
	else
		bitmap_andnot(bd->mapped_write, bd->mapped_write, mask,
			      UVM_BLOCK_PAGES);
	for_each_set_bit(i, mask, UVM_BLOCK_PAGES)
		bd->map_target[i] = target;
	return 0;
}

/**
 * uvm_block_evict_dev_locked() - move everything off @d's chunk.
 * @block: the block; caller holds @block->lock.
 * @d: device id; the caller holds a reference on the device.
 *
 * Pages only on the device go to host memory (the device's node), the
 * others just lose the device copy; the chunk is freed.
 *
 * Return: bytes of device memory freed, or a negative errno.
 */
s64 uvm_block_evict_dev_locked(struct uvm_va_block *block, unsigned int d)
{
	struct uvm_block_dev *bd = block->dev[d];
	DECLARE_BITMAP(only, UVM_BLOCK_PAGES);
	DECLARE_BITMAP(none, UVM_BLOCK_PAGES);
	u64 t0 = ktime_get_ns();
	struct uvm_device *udev;
	unsigned int i, pages;
	int ret;

	lockdep_assert_held(&block->lock);
	if (!bd || !bd->chunk)
		return 0;
	udev = bd->udev;	/* the caller's reference outlives @bd */
	pages = bitmap_weight(bd->resident, UVM_BLOCK_PAGES);
	bitmap_zero(none, UVM_BLOCK_PAGES);
	bitmap_zero(only, UVM_BLOCK_PAGES);
	for_each_set_bit(i, bd->resident, UVM_BLOCK_PAGES)
		if (!block->cpu_pages[i])
			set_bit(i, only);
	ret = uvm_block_to_host_locked(block, udev->numa_node, only, none,
				       UVM_CAUSE_EVICTION);
	if (ret)
		return ret;
	if (block->dev[d])	/* what is left is duplicated elsewhere */
		uvm_block_drop_dev_locked(block, d, block->dev[d]->resident);
	/*
	 * A chunk with nothing resident (a move whose every page stayed home)
	 * goes too: reporting it freed while it stayed allocated let a capped
	 * VA space's eviction loop for ever (fuzzer finding FZ10).
	 */
	block_dev_trim(block, d);
	if (block->dev[d] && block->dev[d]->chunk)
		return 0;
	uvm_count_dev(block->mgd, udev, UVM_STAT_EVICTIONS, 1);
	uvm_count_dev(block->mgd, udev, UVM_STAT_EVICTED_BYTES,
		      (u64)pages << PAGE_SHIFT);
	trace_uvm_evict(block->start, pages, d, ktime_get_ns() - t0);
	return UVM_BLOCK_SIZE;
}

/* Kernel address of the host copy, or the device holding page @i. */
static struct uvm_block_dev *block_dev_target(struct uvm_va_block *block,
					      unsigned int d, unsigned int i,
					      void **host)
{
	u8 t = block->dev[d]->map_target[i];

	*host = NULL;
	if (t == UVM_MAP_HOST) {
		if (block->cpu_pages[i])
			*host = page_address(block->cpu_pages[i]);
		return NULL;
	}
	return block->dev[t];
}

/*
 * A mapping whose target holds no copy breaks the rule that every path
 * dropping a copy unmaps it first, and uvm_block_map_dev_locked() refuses
 * to make one (fuzzer finding FZ7 was a read duplicate that found the
 * device full and mapped a host copy that did not exist). Should one ever
 * appear, fail the access, loudly, instead of reading through a NULL page.
 */
static int block_dev_target_gone(struct uvm_va_block *block, unsigned int d,
				 unsigned int i)
{
	u8 t = block->dev[d]->map_target[i];

	pr_err_ratelimited("uvm: device %u maps page %u of block %#lx to a copy that is gone (target %u, host %d, on_device %d, mapped_write %d)\n",
			   d, i, block->start, t, !!block->cpu_pages[i],
			   test_bit(i, block->on_device),
			   test_bit(i, block->dev[d]->mapped_write));
	return -EFAULT;
}

/**
 * uvm_block_dev_rw_locked() - a device access through device @d's mapping.
 * @block: the block; caller holds @block->lock.
 * @d: accessing device; page @i is mapped (writable for @write).
 * @i: page index.
 * @off: byte offset in the page.
 * @buf: kernel buffer.
 * @n: bytes (@off + @n <= PAGE_SIZE).
 * @write: @buf -> memory, else memory -> @buf.
 *
 * Return: 0, -ENODEV, or -EFAULT if the mapping's target is gone.
 */
int uvm_block_dev_rw_locked(struct uvm_va_block *block, unsigned int d,
			    unsigned int i, unsigned int off, void *buf,
			    unsigned int n, bool write)
{
	struct uvm_copy_seg seg = { .host = buf, .size = n };
	struct uvm_block_dev *bd;
	void *host;

	lockdep_assert_held(&block->lock);
	bd = block_dev_target(block, d, i, &host);
	if (host) {
		if (write)
			memcpy(host + off, buf, n);
		else
			memcpy(buf, host + off, n);
		return 0;
	}
	if (!bd || !bd->chunk)
		return block_dev_target_gone(block, d, i);
	seg.dev_offset = chunk_offset(bd, i) + off;
	return uvm_dev_copy(bd->udev, &seg, 1, write);
}

/**
 * uvm_block_dev_atomic_add_locked() - 64-bit fetch-and-add by device @d.
 * @block: the block; caller holds @block->lock (which serialises device
 *	   accesses; a host page is updated with a CPU atomic, so it is also
 *	   atomic against CPU threads mapping the same page).
 * @d: accessing device; page @i is mapped writable.
 * @i: page index.
 * @off: 8-byte aligned offset in the page.
 * @val: in: the addend; out: the old value.
 *
 * Return: 0 or -ENODEV.
 */
int uvm_block_dev_atomic_add_locked(struct uvm_va_block *block, unsigned int d,
				    unsigned int i, unsigned int off, u64 *val)
{
	u64 old;
	void *host;
	int ret;

	lockdep_assert_held(&block->lock);
	block_dev_target(block, d, i, &host);
	if (host) {
		*val = atomic64_fetch_add(*val, host + off);
		return 0;
	}
	ret = uvm_block_dev_rw_locked(block, d, i, off, &old, sizeof(old), false);
	if (ret)
		return ret;
	old += *val;
	ret = uvm_block_dev_rw_locked(block, d, i, off, &old, sizeof(old), true);
	*val = old - *val;
	return ret;
}
