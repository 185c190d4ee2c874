// SPDX-License-Identifier: GPL-2.0
/*
 * DOC: Device-access path
 *
 * There is no device executing code, so UVM_IOCTL_DEVICE_ACCESS plays the
 * part of a kernel running on a device, like test_hmm's dmirror READ/WRITE:
 * a list of reads, writes and 64-bit atomic adds to managed memory, each
 * translated through the device's page table (struct uvm_block_dev).
 *
 * The list is processed in windows: scan forward from the current position
 * collecting the pages whose mapping is missing or read-only (device
 * faults) until fault_batch of them are gathered; sort them, merge
 * duplicates (a write wins over a read) and service them block by block
 * (uvm_device_fault.c); then perform the window's accesses through the
 * mappings. A mapping can vanish between servicing and access (a CPU
 * fault, an eviction); the access then faults again, alone.
 *
 * Within a batch, the blocks are serviced in a pipeline (struct svc_pipe):
 * block k+1's migration is begun before block k's is ended. The prefetch
 * policy (uvm_prefetch_policy.h) adds pages to the batch: sequential runs'
 * next pages, across blocks, and density regions within a block.
 *
 * Windows are pipelined, as a device goes on running while its faults are
 * serviced: the migration of window k+1's last block is begun (its copy
 * runs on the copy engine's helpers, uvm_ce.c) before the accesses of
 * window k are performed, and ended after them. Meanwhile that block stays
 * locked (struct access_ctx.fly) and the VA space's lock stays held; an
 * access to one of its migrating pages, or one needing a fault, ends the
 * migration first; another block is only trylocked (block locks nest only
 * so), and when that fails the migration is ended and the block unlocked
 * first.
 *
 * User buffers are copied outside every uvm lock, through a bounce buffer:
 * they may be managed memory, whose CPU fault takes those locks. Inside the
 * pipeline they are copied with page faults disabled; a copy that would
 * fault ends the pipeline (every lock dropped) and is done again.
 */
#include <linux/module.h>
#include <linux/sched/signal.h>
#include <linux/sizes.h>
#include <linux/slab.h>
#include <linux/sort.h>
#include <linux/timekeeping.h>
#include <linux/uaccess.h>

#include "uvm_device.h"
#include "uvm_device_fault.h"
#include "uvm_drv.h"
#include "uvm_event_records.h"
#include "uvm_evict.h"
#include "uvm_managed.h"
#include "uvm_pageable.h"
#include "uvm_perf.h"
#include "uvm_prefetch_policy.h"
#include "uvm_svc_clock.h"
#include "uvm_thrash.h"
#include "uvm_trace.h"

unsigned int uvm_fault_batch = 256;

static struct uvm_param_range fault_batch_range = {
	.val = &uvm_fault_batch, .min = 1, .max = UVM_ACCESS_MAX,
};
module_param_cb(fault_batch, &uvm_param_range_ops, &fault_batch_range, 0644);
MODULE_PARM_DESC(fault_batch,
		 "Device faults gathered per batch: 1..4096 (default 256)");

/* Bytes of one access step (within one block). */
#define UVM_ACCESS_STEP		SZ_64K

struct access_pos {
	u32 idx;
	u64 off;
};

/*
 * Scratch memory of one ioctl: the access list, the fault batch, the bounce
 * buffer. Each VA space keeps one for its next call
 * (struct uvm_managed.access_scratch): allocating 224 KiB per call costs more
 * than a small access itself when the allocator zeroes memory
 * (init_on_alloc). Nothing is read from it that the same call did not
 * write, and it never leaves its VA space.
 */
struct uvm_access_scratch {
	struct uvm_access acc[UVM_ACCESS_MAX];
	unsigned long fault_va[UVM_ACCESS_MAX];
	u8 bounce[UVM_ACCESS_STEP];
	struct uvm_fault_op ops[2];
	DECLARE_BITMAP(pageable, UVM_ACCESS_MAX);
};

static struct uvm_access_scratch *scratch_get(struct uvm_managed *mgd)
{
	struct uvm_access_scratch *s = xchg(&mgd->access_scratch, NULL);

	return s ?: kvmalloc(sizeof(*s), GFP_KERNEL_ACCOUNT | __GFP_NOWARN);
}

static void scratch_put(struct uvm_managed *mgd, struct uvm_access_scratch *s)
{
	if (s && cmpxchg(&mgd->access_scratch, NULL, s))
		kvfree(s);
}

/**
 * uvm_device_access_fini() - free a VA space's cached scratch memory.
 * @mgd: managed state being torn down.
 */
void uvm_device_access_fini(struct uvm_managed *mgd)
{
	kvfree(mgd->access_scratch);
	mgd->access_scratch = NULL;
}

struct access_ctx {
	struct uvm_managed *mgd;
	struct uvm_device *udev;
	struct uvm_access *acc;
	u32 count;
	unsigned long *fault_va;	/* page address | 1 for a write */
	unsigned int nfaults;
	unsigned int batch;
	u32 faults_total;
	struct uvm_prefetch_conf pf;	/* the prefetch policy of this call */
	struct uvm_prefetch_range ranges[UVM_SEQ_STREAMS];
	unsigned int nranges;		/* sequential prefetch of the batch */
	unsigned int svc_blocks;	/* blocks the batch serviced */
	unsigned int svc_prefetched;	/* pages its prefetch policy added */
	struct uvm_svc_clock clk;	/* the batch's time split, effects */
	struct uvm_svc_clock *clkp;	/* &clk if a stream records batches */
	u8 *bounce;
	unsigned long *pageable;	/* accesses to pageable memory */
	struct uvm_fault_op *ops[2];	/* storage of the batch's pipeline */
	struct uvm_fault_op *fly_op;	/* the service in flight (one of ops) */
	struct uvm_va_block *fly;	/* its block, locked; or NULL */
	bool held;			/* mgd->lock held (read) by the pipeline */
};

static bool access_writes(const struct uvm_access *a)
{
	return a->type != UVM_ACCESS_READ;
}

static bool dev_mapped(struct uvm_va_block *block, u32 id, unsigned int i,
		       bool write)
{
	struct uvm_block_dev *bd = block->dev[id];

	return bd && test_bit(i, bd->mapped) &&
	       (!write || test_bit(i, bd->mapped_write));
}

/* End the migration in flight (see DOC); its block stays locked. */
static int access_fly_end(struct access_ctx *c)
{
	if (!c->fly || !c->fly_op->busy)
		return 0;
	lockdep_assert_held(&c->mgd->lock);
	return uvm_block_service_faults_end_locked(c->fly_op);
}

/* End the migration in flight and unlock its block. */
static int access_fly_release(struct access_ctx *c)
{
	int ret = access_fly_end(c);

	if (c->fly) {
		mutex_unlock(&c->fly->lock);
		c->fly = NULL;
	}
	return ret;
}

/* Leave the pipeline: its block, then the VA space's lock. */
static int access_fly_drop(struct access_ctx *c)
{
	int ret = access_fly_release(c);

	if (c->held) {
		up_read(&c->mgd->lock);
		c->held = false;
	}
	return ret;
}

/*
 * Pages [@first, @last] of @block are about to be accessed: if one of them
 * is migrating, or needs a fault, end the migration in flight.
 */
static int access_fly_check(struct access_ctx *c, struct uvm_va_block *block,
			    unsigned int first, unsigned int last, bool write)
{
	unsigned int i;

	if (block != c->fly || !c->fly_op->busy)
		return 0;
	lockdep_assert_held(&block->lock);
	for (i = first; i <= last; i++)
		if (test_bit(i, c->fly_op->mask) ||
		    !dev_mapped(block, c->udev->id, i, write))
			return access_fly_end(c);
	return 0;
}

static void access_lock(struct access_ctx *c)
{
	if (!c->held)
		down_read(&c->mgd->lock);
}

static void access_unlock(struct access_ctx *c)
{
	if (!c->held)
		up_read(&c->mgd->lock);
}

/*
 * Lock @block for accesses. Inside the pipeline only by trylock; when that
 * fails, the migration in flight is ended and its block unlocked first.
 *
 * Return: 0, or the error of that migration; @block is locked either way.
 */
static int access_block_lock(struct access_ctx *c, struct uvm_va_block *block)
{
	int ret;

	if (block == c->fly)
		return 0;
	if (c->fly && mutex_trylock(&block->lock))
		return 0;
	ret = access_fly_release(c);
	mutex_lock(&block->lock);
	return ret;
}

static void access_block_unlock(struct access_ctx *c,
				struct uvm_va_block *block)
{
	if (block != c->fly)
		mutex_unlock(&block->lock);
}

/*
 * The gather scan's view of one block: the block of the last page looked at
 * stays locked while the scan stays in it (a sweep looks at up to 512 pages
 * per block).
 */
struct gather_cursor {
	struct uvm_va_block *block;
	unsigned long index;
};

/* Is page @va mapped for @write? Caller holds mgd->lock (read). */
static bool access_page_mapped(struct access_ctx *c, struct gather_cursor *gc,
			       unsigned long va, bool write)
{
	unsigned long index = va >> UVM_BLOCK_SHIFT;

	if (!gc->block || gc->index != index) {
		if (gc->block)
			mutex_unlock(&gc->block->lock);
		gc->index = index;
		gc->block = xa_load(&c->mgd->blocks, index);
		if (!gc->block)
			return false;
		mutex_lock(&gc->block->lock);
	}
	return dev_mapped(gc->block, c->udev->id, uvm_block_index(va), write);
}

/* Collect faults from @pos on; *@end: where the window stops. */
static void access_gather(struct access_ctx *c, struct access_pos pos,
			  struct access_pos *end)
{
	struct gather_cursor gc = { NULL, 0 };
	const struct uvm_access *a;
	unsigned long va;

	c->nfaults = 0;
	*end = (struct access_pos){ c->count, 0 };
	for (; pos.idx < c->count; pos.idx++, pos.off = 0) {
		if (test_bit(pos.idx, c->pageable))
			continue;	/* faults of its own (uvm_pageable.c) */
		a = &c->acc[pos.idx];
		va = round_down(a->addr + pos.off, PAGE_SIZE);
		for (; va < a->addr + a->length; va += PAGE_SIZE) {
			if (access_page_mapped(c, &gc, va, access_writes(a)))
				continue;
			if (c->nfaults == c->batch) {
				end->idx = pos.idx;
				end->off = va > a->addr ? va - a->addr : 0;
				goto out_unlock;
			}
			c->fault_va[c->nfaults++] = va | access_writes(a);
		}
	}
out_unlock:
	if (gc.block)
		mutex_unlock(&gc.block->lock);
}

static int cmp_ulong(const void *a, const void *b)
{
	unsigned long x = *(const unsigned long *)a & PAGE_MASK;
	unsigned long y = *(const unsigned long *)b & PAGE_MASK;

	return x < y ? -1 : x > y;
}

/* Pages of the batch's prefetch ranges inside the block at @bstart. */
static void access_range_bits(struct access_ctx *c, unsigned long bstart,
			      unsigned long *bits)
{
	unsigned long lo, hi, bend = bstart + UVM_BLOCK_SIZE;
	unsigned int r;

	bitmap_zero(bits, UVM_BLOCK_PAGES);
	for (r = 0; r < c->nranges; r++) {
		lo = max(c->ranges[r].start, bstart);
		hi = min(c->ranges[r].end, bend);
		if (lo < hi)
			bitmap_set(bits, uvm_block_index(lo),
				   (hi - lo) >> PAGE_SHIFT);
	}
}

/*
 * The blocks of one batch are serviced in a pipeline, as a prefetch
 * migrates (uvm_migrate.c): the migration of block k+1 is begun (locked,
 * zapped, its copy started) before that of block k is ended, so the copy
 * engine always has the next copy. Block locks nest only by trylock: when
 * the next one is taken, the one in flight is ended and unlocked first.
 */
struct svc_pipe {
	struct uvm_va_block *prev;	/* begun and locked; or NULL */
	struct uvm_fault_op *prev_op;	/* its service */
	struct uvm_fault_op *next_op;	/* free storage */
	struct uvm_svc_clock *clk;	/* the batch's */
};

/* End the service in flight and unlock its block. */
static int pipe_end(struct svc_pipe *p)
{
	struct uvm_va_block *block = p->prev;
	int ret;

	if (!block)
		return 0;
	ret = uvm_block_service_faults_end_locked(p->prev_op);
	mutex_unlock(&block->lock);
	p->prev = NULL;
	return ret;
}

/* Lock @block behind the one in flight (see struct svc_pipe). */
static int pipe_lock(struct svc_pipe *p, struct uvm_va_block *block)
{
	enum uvm_svc_phase was;
	int ret;

	if (p->prev && mutex_trylock(&block->lock))
		return 0;
	ret = pipe_end(p);
	was = uvm_svc_enter(p->clk, UVM_SVC_WAIT);
	mutex_lock(&block->lock);
	uvm_svc_enter(p->clk, was);
	if (ret)
		mutex_unlock(&block->lock);
	return ret;
}

/*
 * Begin servicing the faults of the block at @bstart: [from, to) of the
 * sorted batch, and the prefetch ranges' pages in it; then end the block
 * before it. The block stays in flight in @p.
 */
static int access_service_block(struct access_ctx *c, struct svc_pipe *p,
				unsigned long bstart, unsigned int from,
				unsigned int to)
{
	DECLARE_BITMAP(faults, UVM_BLOCK_PAGES);
	DECLARE_BITMAP(write, UVM_BLOCK_PAGES);
	DECLARE_BITMAP(pf, UVM_BLOCK_PAGES);
	struct uvm_fault_op *op = p->next_op;
	struct uvm_va_block *block;
	unsigned int k, i;
	int ret, err;

	block = uvm_block_get(c->mgd, bstart);
	if (!block)
		return -ENOMEM;
	bitmap_zero(faults, UVM_BLOCK_PAGES);
	bitmap_zero(write, UVM_BLOCK_PAGES);
	for (k = from; k < to; k++) {
		i = uvm_block_index(c->fault_va[k]);
		set_bit(i, faults);
		if (c->fault_va[k] & 1)
			set_bit(i, write);
	}
	access_range_bits(c, bstart, pf);
	if (uvm_thrash_throttled(block, c->udev->id)) {	/* nap unlocked */
		ret = pipe_end(p);
		if (ret)
			return ret;
		uvm_svc_enter(c->clkp, UVM_SVC_WAIT);
		uvm_thrash_nap(block, c->udev->id);
		uvm_svc_enter(c->clkp, UVM_SVC_OTHER);
	}
	ret = pipe_lock(p, block);
	if (ret)
		return ret;
	op->clk = c->clkp;
	ret = uvm_block_service_faults_begin_locked(op, block, c->udev, faults,
						    write, pf, &c->pf);
	if (!ret) {
		c->svc_blocks++;
		c->svc_prefetched += op->prefetched;
	}
	err = pipe_end(p);
	if (!ret && err)
		ret = uvm_block_service_faults_end_locked(op) ?: err;
	else if (!ret)
		goto in_flight;
	mutex_unlock(&block->lock);
	return ret;

in_flight:
	p->prev = block;
	p->next_op = p->prev_op;
	p->prev_op = op;
	return 0;
}

/* Sort the batch's faults by page and merge duplicates (a write wins). */
static unsigned int access_sort_merge(struct access_ctx *c)
{
	unsigned int k, n = 0;

	/* A sweep gathers its faults in order: sort only when needed. */
	for (k = 1; k < c->nfaults; k++)
		if (cmp_ulong(&c->fault_va[k - 1], &c->fault_va[k]) > 0)
			break;
	if (k < c->nfaults)
		sort(c->fault_va, c->nfaults, sizeof(*c->fault_va), cmp_ulong,
		     NULL);
	for (k = 0; k < c->nfaults; k++) {
		if (n && (c->fault_va[n - 1] & PAGE_MASK) ==
			 (c->fault_va[k] & PAGE_MASK))
			c->fault_va[n - 1] |= c->fault_va[k];
		else
			c->fault_va[n++] = c->fault_va[k];
	}
	return n;
}

/*
 * Clip prefetch range @r to managed memory: it ends where the managed
 * ranges it starts in stop. Return: pages left.
 */
static unsigned long access_clip_range(struct access_ctx *c,
				       struct uvm_prefetch_range *r)
{
	const struct uvm_policy_extent *ext;
	unsigned long end = r->start;

	while (end < r->end) {
		ext = uvm_policy_extent_at(&c->mgd->policies, end);
		if (!ext)
			break;
		end = ext->end;
	}
	r->end = min(r->end, end);
	return (r->end - r->start) >> PAGE_SHIFT;
}

/* The sequential policy's ranges for the batch's @n merged faults. */
static void access_seq_ranges(struct access_ctx *c, unsigned int n)
{
	struct uvm_seq_state *seq = &c->mgd->perf.seq[c->udev->id];
	unsigned int r, nr;

	c->nranges = 0;
	if (c->pf.policy != UVM_PREFETCH_SEQUENTIAL)
		return;
	nr = uvm_prefetch_seq_batch(seq, c->fault_va, n, c->pf.pages,
				    c->ranges);
	for (r = 0; r < nr; r++)
		if (access_clip_range(c, &c->ranges[r]))
			c->ranges[c->nranges++] = c->ranges[r];
}

/* The first block at or after @pos with prefetch pages, or ULONG_MAX. */
static unsigned long access_range_block(struct access_ctx *c,
					unsigned long pos)
{
	unsigned int r;

	for (r = 0; r < c->nranges; r++)
		if (c->ranges[r].end > pos)
			return max(c->ranges[r].start, pos) >> UVM_BLOCK_SHIFT;
	return ULONG_MAX;
}

/*
 * Service the merged batch block by block, in address order: the faults'
 * blocks and the prefetch ranges' blocks; @fly: leave the last block's
 * migration in flight.
 */
static int access_service_blocks(struct access_ctx *c, unsigned int n,
				 bool fly)
{
	struct svc_pipe p = { NULL, c->ops[0], c->ops[1], c->clkp };
	unsigned long fb, rb, b, pos = 0;
	unsigned int from = 0, to;
	int ret = 0;

	while (!ret) {
		fb = from < n ? c->fault_va[from] >> UVM_BLOCK_SHIFT : ULONG_MAX;
		rb = access_range_block(c, pos);
		b = min(fb, rb);
		if (b == ULONG_MAX)
			break;
		if (fatal_signal_pending(current)) {
			ret = -EINTR;	/* a batch may span 256 blocks */
			break;
		}
		for (to = from; to < n && c->fault_va[to] >> UVM_BLOCK_SHIFT == b;)
			to++;
		pos = (b + 1) << UVM_BLOCK_SHIFT;
		ret = access_service_block(c, &p, b << UVM_BLOCK_SHIFT, from, to);
		from = to;
	}
	if (ret || !fly || !p.prev) {
		int err = pipe_end(&p);

		return ret ?: err;
	}
	c->fly = p.prev;	/* the last block stays in flight (see DOC) */
	c->fly_op = p.prev_op;
	return 0;
}

/* The batch's records: the batch, and its faults if a stream asked. */
static void access_batch_events(struct access_ctx *c, unsigned int n, u64 ns)
{
	const struct uvm_svc_clock *clk = &c->clk;
	struct uvm_event_fault_batch b = {
		.device = c->udev->id, .faults = c->nfaults, .pages = n,
		.duplicates = c->nfaults - n, .blocks = c->svc_blocks,
		.prefetched = c->svc_prefetched, .duration_ns = ns,
		.migrated = clk->migrated, .remote = clk->remote,
		.evictions = clk->evictions,
		.wait_ns = clk->ns[UVM_SVC_WAIT],
		.copy_ns = clk->ns[UVM_SVC_COPY],
		.map_ns = clk->ns[UVM_SVC_MAP],
		.unmap_ns = clk->ns[UVM_SVC_UNMAP],
		.evict_ns = clk->ns[UVM_SVC_EVICT],
	};
	struct uvm_event_list *ev = &c->mgd->events;
	unsigned int k;

	if (!uvm_event_wanted(ev, UVM_EVENT_FAULT_BATCH) &&
	    !uvm_event_wanted(ev, UVM_EVENT_DEVICE_FAULT))
		return;
	b.batch = atomic64_inc_return(&ev->batch);
	uvm_event_fault_batch(c->mgd, &b);
	if (!uvm_event_wanted(ev, UVM_EVENT_DEVICE_FAULT))
		return;
	for (k = 0; k < n; k++)
		uvm_event_device_fault(c->mgd, c->fault_va[k] & PAGE_MASK,
				       b.batch, c->udev->id,
				       c->fault_va[k] & 1);
}

/*
 * Sort, merge and service the gathered batch; @fly: leave the last block's
 * migration in flight. Caller holds mgd->lock.
 */
static int access_service(struct access_ctx *c, bool fly)
{
	unsigned int n;
	int ret;
	u64 ns;

	if (!c->nfaults)
		return 0;
	n = access_sort_merge(c);
	uvm_count_dev(c->mgd, c->udev, UVM_STAT_DEVICE_FAULTS, c->nfaults);
	uvm_count_dev(c->mgd, c->udev, UVM_STAT_FAULT_BATCHES, 1);
	uvm_count_dev(c->mgd, c->udev, UVM_STAT_FAULT_BATCH_PAGES, n);
	c->faults_total += c->nfaults;

	/* The clock only for a record: no stream, no cost (docs/events.md). */
	c->clkp = NULL;
	if (uvm_event_wanted(&c->mgd->events, UVM_EVENT_FAULT_BATCH))
		c->clkp = &c->clk;
	uvm_svc_start(&c->clk);
	c->svc_blocks = 0;
	c->svc_prefetched = 0;
	access_seq_ranges(c, n);
	ret = access_service_blocks(c, n, fly);
	ns = ktime_get_ns() - c->clk.last;
	if (c->clkp) {
		uvm_svc_enter(c->clkp, UVM_SVC_OTHER);
		ns = uvm_svc_total(c->clkp);
	}
	trace_uvm_device_fault_batch(c->udev->id, c->nfaults, n, ns);
	access_batch_events(c, n, ns);
	return ret;
}

/* Make pages [first, last] of @block mapped for @write: fault alone. */
static int access_refault_locked(struct access_ctx *c,
				 struct uvm_va_block *block, unsigned int first,
				 unsigned int last, bool write)
{
	DECLARE_BITMAP(faults, UVM_BLOCK_PAGES);
	DECLARE_BITMAP(wr, UVM_BLOCK_PAGES);
	unsigned int i, n = 0;

	bitmap_zero(faults, UVM_BLOCK_PAGES);
	bitmap_zero(wr, UVM_BLOCK_PAGES);
	for (i = first; i <= last; i++) {
		if (dev_mapped(block, c->udev->id, i, write))
			continue;
		set_bit(i, faults);
		if (write)
			set_bit(i, wr);
		n++;
	}
	if (!n)
		return 0;
	uvm_count_dev(c->mgd, c->udev, UVM_STAT_DEVICE_FAULTS, n);
	c->faults_total += n;
	return uvm_block_service_faults_locked(block, c->udev, faults, wr,
					       NULL, NULL);
}

/* An access to @block's chunk on the device counts (eviction policies). */
static void access_touch(struct access_ctx *c, struct uvm_va_block *block)
{
	struct uvm_block_dev *bd = block->dev[c->udev->id];

	if (bd && bd->chunk)
		uvm_lru_touch(bd);
}

/* Do one step (one block, at most UVM_ACCESS_STEP) through the mappings. */
static int access_step_locked(struct access_ctx *c, struct uvm_va_block *block,
			      const struct uvm_access *a, unsigned long va,
			      unsigned int n, u8 *buf)
{
	unsigned int first = uvm_block_index(va);
	unsigned int last = uvm_block_index(va + n - 1);
	unsigned int done = 0, chunk, i;
	int ret;

	ret = access_fly_check(c, block, first, last, access_writes(a)) ?:
	      access_refault_locked(c, block, first, last, access_writes(a));
	if (ret)
		return ret;
	uvm_block_prefetch_use_locked(block, c->udev, first, last);
	if (a->type == UVM_ACCESS_ATOMIC_ADD)
		return uvm_block_dev_atomic_add_locked(block, c->udev->id, first,
						       offset_in_page(va),
						       (u64 *)buf);
	for (i = first; i <= last; i++, done += chunk) {
		unsigned int off = offset_in_page(va + done);

		chunk = min_t(unsigned int, n - done, PAGE_SIZE - off);
		ret = uvm_block_dev_rw_locked(block, c->udev->id, i, off,
					      buf + done, chunk,
					      a->type == UVM_ACCESS_WRITE);
		if (ret)
			return ret;
	}
	access_touch(c, block);
	return 0;
}

static int access_step(struct access_ctx *c, const struct uvm_access *a,
		       u64 off, unsigned int n)
{
	void __user *ubuf = u64_to_user_ptr(a->buf + off);
	unsigned long va = a->addr + off;
	struct uvm_va_block *block;
	int ret;

	ret = access_fly_drop(c);
	if (ret)
		return ret;
	if (a->type != UVM_ACCESS_READ && copy_from_user(c->bounce, ubuf, n))
		return -EFAULT;
	down_read(&c->mgd->lock);
	if (!uvm_managed_covered_locked(c->mgd, round_down(va, PAGE_SIZE),
					round_up(va + n, PAGE_SIZE)))
		ret = -EFAULT;	/* unmapped meanwhile */
	block = ret ? NULL : uvm_block_get(c->mgd, va);
	if (!ret && !block)
		ret = -ENOMEM;
	if (block) {
		mutex_lock(&block->lock);
		ret = access_step_locked(c, block, a, va, n, c->bounce);
		mutex_unlock(&block->lock);
	}
	up_read(&c->mgd->lock);
	if (!ret && a->type != UVM_ACCESS_WRITE && copy_to_user(ubuf, c->bounce, n))
		ret = -EFAULT;
	return ret;
}

/*
 * Runs of small accesses (a sweep) share one pass through the locks: whole
 * reads or writes inside one block, their data side by side in the bounce
 * buffer. Atomics and larger accesses go step by step.
 */
struct access_batch {
	u32 first;
	u32 n;
	u32 bytes;
};

static bool access_batchable(const struct uvm_access *a)
{
	return a->type != UVM_ACCESS_ATOMIC_ADD &&
	       a->length <= UVM_ACCESS_STEP &&
	       a->addr >> UVM_BLOCK_SHIFT ==
	       (a->addr + a->length - 1) >> UVM_BLOCK_SHIFT;
}

/* Does @a join batch @b (if @b has accesses)? */
static bool access_batch_fits(struct access_ctx *c,
			      const struct access_batch *b,
			      const struct uvm_access *a)
{
	const struct uvm_access *f = &c->acc[b->first];

	return a->type == f->type && b->bytes + a->length <= UVM_ACCESS_STEP &&
	       a->addr >> UVM_BLOCK_SHIFT == f->addr >> UVM_BLOCK_SHIFT;
}

/* Is every access of @b still managed (a munmap may have run)? */
static bool access_batch_covered(struct access_ctx *c,
				 const struct access_batch *b)
{
	const struct uvm_access *a = &c->acc[b->first], *end = a + b->n;
	unsigned long lo = ULONG_MAX, hi = 0;

	for (; a < end; a++) {
		lo = min(lo, round_down(a->addr, PAGE_SIZE));
		hi = max(hi, round_up(a->addr + a->length, PAGE_SIZE));
	}
	if (uvm_managed_covered_locked(c->mgd, lo, hi))
		return true;
	for (a = &c->acc[b->first]; a < end; a++)
		if (!uvm_managed_covered_locked(c->mgd,
						round_down(a->addr, PAGE_SIZE),
						round_up(a->addr + a->length,
							 PAGE_SIZE)))
			return false;
	return true;
}

/*
 * copy_to_user() for the small pieces of a batch: 8-byte stores. From 64
 * bytes copy_to_user() is rep movsb on CPUs with ERMS, which emulators such
 * as QEMU's TCG run a byte at a time (0.65 GB/s against 4 for this loop).
 */
static int access_put_user(void __user *dst, const void *src, u32 n)
{
	u32 i = 0;
	u64 w;

	if (n > 256)
		return copy_to_user(dst, src, n) ? -EFAULT : 0;
	if (!user_write_access_begin(dst, n))
		return -EFAULT;
	for (; i + sizeof(w) <= n; i += sizeof(w)) {
		memcpy(&w, src + i, sizeof(w));
		unsafe_put_user(w, (u64 __user *)(dst + i), efault);
	}
	for (; i < n; i++)
		unsafe_put_user(((const u8 *)src)[i], (u8 __user *)(dst + i),
				efault);
	user_write_access_end();
	return 0;
efault:
	user_write_access_end();
	return -EFAULT;
}

/* copy_from_user() for the small pieces of a batch, as access_put_user(). */
static int access_get_user(void *dst, const void __user *src, u32 n)
{
	u32 i = 0;
	u64 w;
	u8 b;

	if (n > 256)
		return copy_from_user(dst, src, n) ? -EFAULT : 0;
	if (!user_read_access_begin(src, n))
		return -EFAULT;
	for (; i + sizeof(w) <= n; i += sizeof(w)) {
		unsafe_get_user(w, (const u64 __user *)(src + i), efault);
		memcpy(dst + i, &w, sizeof(w));
	}
	for (; i < n; i++) {
		unsafe_get_user(b, (const u8 __user *)(src + i), efault);
		((u8 *)dst)[i] = b;
	}
	user_read_access_end();
	return 0;
efault:
	user_read_access_end();
	return -EFAULT;
}

/*
 * A user copy of @n bytes (@out: @k to @u, else @u to @k). Inside the
 * pipeline without faulting; a copy that would fault leaves the pipeline
 * and is done again.
 */
static int access_user_copy(struct access_ctx *c, bool out, void __user *u,
			    void *k, u32 n)
{
	int ret;

	if (c->held) {
		pagefault_disable();
		ret = out ? access_put_user(u, k, n) : access_get_user(k, u, n);
		pagefault_enable();
		if (!ret)
			return 0;
		ret = access_fly_drop(c);
		if (ret)
			return ret;
	}
	return out ? access_put_user(u, k, n) : access_get_user(k, u, n);
}

/* Copy the user data of batch @b in (@out false) or out. */
static int access_batch_copy(struct access_ctx *c,
			     const struct access_batch *b, bool out)
{
	const struct uvm_access *a = &c->acc[b->first], *end = a + b->n;
	u32 off = 0;
	int ret;

	for (; a < end; off += a->length, a++) {
		ret = access_user_copy(c, out, u64_to_user_ptr(a->buf),
				       c->bounce + off, a->length);
		if (ret)
			return ret;
	}
	return 0;
}

/* Perform batch @b: user data in, one pass under the locks, data out. */
static int access_batch_run(struct access_ctx *c, const struct access_batch *b)
{
	const struct uvm_access *a, *first = &c->acc[b->first];
	bool write = first->type == UVM_ACCESS_WRITE;
	struct uvm_va_block *block = NULL;
	u32 off;
	int ret = 0;

	if (write) {
		ret = access_batch_copy(c, b, false);
		if (ret)
			return ret;
	}
	access_lock(c);
	if (!access_batch_covered(c, b))
		ret = -EFAULT;	/* unmapped meanwhile */
	else
		block = uvm_block_get(c->mgd, first->addr);
	if (!ret && !block)
		ret = -ENOMEM;
	if (block) {
		ret = access_block_lock(c, block);
		for (a = first, off = 0; !ret && a < first + b->n;
		     off += a->length, a++)
			ret = access_step_locked(c, block, a, a->addr, a->length,
						 c->bounce + off);
		access_block_unlock(c, block);
	}
	access_unlock(c);
	if (!ret && !write)
		ret = access_batch_copy(c, b, true);
	return ret;
}

/* Perform the part [from, stop) of access @a step by step. */
static int access_steps(struct access_ctx *c, const struct uvm_access *a,
			u64 from, u64 stop)
{
	u64 off, n;
	int ret;

	for (off = from; off < stop; off += n) {
		unsigned long va = a->addr + off;

		n = min3(stop - off, (u64)UVM_ACCESS_STEP,
			 (u64)(round_down(va, UVM_BLOCK_SIZE) +
			       UVM_BLOCK_SIZE - va));
		ret = access_step(c, a, off, n);
		if (!ret && fatal_signal_pending(current))
			ret = -EINTR;	/* one access may span many blocks */
		if (ret)
			return ret;
	}
	return 0;
}

/*
 * Perform access @a to pageable memory step by step, outside every uvm
 * lock (uvm_pageable.c has its own), through the bounce buffer.
 */
static int access_pageable(struct access_ctx *c, const struct uvm_access *a)
{
	struct uvm_pageable_io io = {
		.type = a->type, .buf = c->bounce, .pfns = c->fault_va,
		.batch = c->batch, .span_end = a->addr + a->length,
	};
	void __user *ubuf;
	u64 off;
	int ret;

	ret = access_fly_drop(c);
	for (off = 0; !ret && off < a->length; off += io.len) {
		io.addr = a->addr + off;
		io.len = min_t(u64, a->length - off, UVM_ACCESS_STEP);
		ubuf = u64_to_user_ptr(a->buf + off);
		if (a->type != UVM_ACCESS_READ &&
		    copy_from_user(c->bounce, ubuf, io.len))
			ret = -EFAULT;
		ret = ret ?: uvm_pageable_access(c->mgd, c->udev, &io);
		if (!ret && a->type != UVM_ACCESS_WRITE &&
		    copy_to_user(ubuf, c->bounce, io.len))
			ret = -EFAULT;
		if (!ret && fatal_signal_pending(current))
			ret = -EINTR;
	}
	c->faults_total += io.faults;
	return ret;
}

/* Run batch @b if it has accesses, and empty it. */
static int access_batch_flush(struct access_ctx *c, struct access_batch *b)
{
	int ret;

	if (!b->n)
		return 0;
	ret = access_batch_run(c, b);
	b->n = 0;
	b->bytes = 0;
	if (!ret && fatal_signal_pending(current))
		ret = -EINTR;
	return ret;
}

/* Perform the accesses of the window [from, to). */
static int access_perform(struct access_ctx *c, struct access_pos from,
			  struct access_pos to)
{
	struct access_batch b = { 0, 0, 0 };
	const struct uvm_access *a;
	u64 stop;
	int ret;

	for (; from.idx < c->count && from.idx <= to.idx; from.idx++, from.off = 0) {
		a = &c->acc[from.idx];
		if (test_bit(from.idx, c->pageable)) {
			ret = access_batch_flush(c, &b) ?: access_pageable(c, a);
			if (ret)
				return ret;
			continue;
		}
		stop = from.idx == to.idx ? to.off : a->length;
		if (!from.off && stop && stop == a->length && access_batchable(a)) {
			if (b.n && !access_batch_fits(c, &b, a)) {
				ret = access_batch_flush(c, &b);
				if (ret)
					return ret;
			}
			if (!b.n)
				b.first = from.idx;
			b.n++;
			b.bytes += a->length;
			continue;
		}
		ret = access_batch_flush(c, &b) ?: access_steps(c, a, from.off, stop);
		if (ret)
			return ret;
		if (fatal_signal_pending(current))
			return -EINTR;
	}
	return access_batch_flush(c, &b);
}

/*
 * A span verified managed, [*lo, *hi): a sweep's accesses fall in the span
 * its predecessors verified, so the policy tree is walked about twice per
 * block, not once per access.
 */
static bool access_covered(struct uvm_managed *mgd, unsigned long start,
			   unsigned long end, unsigned long *lo,
			   unsigned long *hi)
{
	unsigned long probe = ALIGN(end, UVM_BLOCK_SIZE);

	if (start >= *lo && end <= *hi)
		return true;
	if (!uvm_managed_covered_locked(mgd, start, end))
		return false;
	*lo = start;
	*hi = end;
	if (probe > end && uvm_managed_covered_locked(mgd, end, probe))
		*hi = probe;
	return true;
}

/*
 * Validate access @a: managed memory, or pageable memory (bit @k of
 * c->pageable) where this kernel has the mirror level.
 */
static int access_check_one(struct access_ctx *c, u32 k, unsigned long *lo,
			    unsigned long *hi)
{
	const struct uvm_access *a = &c->acc[k];
	struct uvm_managed *mgd = c->mgd;
	unsigned long start, end;
	int ret;

	if (a->pad || a->type < UVM_ACCESS_READ ||
	    a->type > UVM_ACCESS_ATOMIC_ADD)
		return -EINVAL;
	if (a->type == UVM_ACCESS_ATOMIC_ADD &&
	    (a->length != sizeof(u64) || !IS_ALIGNED(a->addr, sizeof(u64))))
		return -EINVAL;
	ret = uvm_managed_range_check(mgd, a->addr, a->length, &start, &end);
	if (ret)
		return ret;
	if (access_covered(mgd, start, end, lo, hi))
		return 0;
	if (uvm_pageable_level() == UVM_PAGEABLE_NONE ||
	    uvm_managed_any_locked(mgd, start, end))
		return -EINVAL;
	__set_bit(k, c->pageable);
	return 0;
}

/* Copy in and validate the access list: -EINVAL/-EFAULT, nothing done. */
static int access_load(struct access_ctx *c, const struct uvm_device_access *args)
{
	unsigned long lo = 0, hi = 0;
	u32 k;
	int ret = 0;

	if (copy_from_user(c->acc, u64_to_user_ptr(args->accesses),
			   array_size(args->count, sizeof(*c->acc))))
		return -EFAULT;
	bitmap_zero(c->pageable, args->count);
	down_read(&c->mgd->lock);
	for (k = 0; k < args->count && !ret; k++)
		ret = access_check_one(c, k, &lo, &hi);
	up_read(&c->mgd->lock);
	return ret;
}

/*
 * Window by window: gather and service window k, leaving its last block's
 * migration in flight while window k-1 is performed (see DOC).
 */
static int access_run(struct access_ctx *c)
{
	struct access_pos pos = { 0, 0 }, end, prev = { 0, 0 };
	bool pending = false;	/* [prev, pos) serviced, not performed */
	int ret, err;

	while (pos.idx < c->count) {
		down_read(&c->mgd->lock);
		c->held = true;
		access_gather(c, pos, &end);
		ret = access_service(c, pending);
		if (pending) {
			err = access_perform(c, prev, pos);
			ret = ret ?: err;
		}
		err = access_fly_drop(c);
		ret = ret ?: err;
		if (ret)
			return ret;
		prev = pos;
		pos = end;
		pending = true;
	}
	return pending ? access_perform(c, prev, pos) : 0;
}

int uvm_device_access_ioctl(struct uvm_managed *mgd,
			    struct uvm_device_access *args)
{
	struct access_ctx c = { .mgd = mgd, .count = args->count };
	struct uvm_access_scratch *scratch;
	int ret;

	if (args->flags || !args->count || args->count > UVM_ACCESS_MAX)
		return -EINVAL;
	c.udev = uvm_device_get(args->device);
	if (!c.udev)
		return -ENODEV;
	c.batch = uvm_perf_fault_batch(&mgd->perf);
	uvm_perf_prefetch(&mgd->perf, &c.pf);
	ret = -ENOMEM;
	scratch = scratch_get(mgd);
	if (!scratch)
		goto out_put_device;
	c.acc = scratch->acc;
	c.fault_va = scratch->fault_va;
	c.bounce = scratch->bounce;
	c.pageable = scratch->pageable;
	c.ops[0] = &scratch->ops[0];
	c.ops[1] = &scratch->ops[1];
	c.fly_op = c.ops[0];
	ret = access_load(&c, args);
	if (!ret)
		ret = access_run(&c);
	args->faults = c.faults_total;
	scratch_put(mgd, scratch);
out_put_device:
	uvm_device_put(c.udev);
	return ret;
}
