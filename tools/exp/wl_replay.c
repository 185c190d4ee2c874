// SPDX-License-Identifier: GPL-2.0
/*
 * wl_replay.c - the replay workload, `replay:FILE` (docs/replay.md): the
 * accesses of a trace redone against the module. Allocations, frees,
 * prefetches and advice happen where the trace had them; each recorded
 * device fault batch becomes one device access call of its pages (a write
 * where the fault was a write), in the trace's order; each CPU fault a
 * CPU touch of its page. Every write leaves a pattern of its own in the
 * page, every read checks the pattern the last write left (zeros before
 * any), and at the end the CPU checks every page still mapped.
 *
 * setup() reads the whole trace once without touching memory: it checks
 * every record (addresses inside live allocations, the devices there
 * are) and finds the footprint, so a bad trace fails before anything is
 * allocated, and the device cap is known before the run. iterate() reads
 * it again and does it. Memory stays bounded by the footprint: records
 * are streamed, block by block.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "exp_kernel.h"
#include "replay.h"
#include "replay_kernels.h"
#include "replay_table.h"

#define GROUP_MAX	STEP_MAX
#define MAX_TRACE_DEV	64

struct replay {
	struct rp_source *src;
	struct rp_info info;
	struct rp_table tab;
	struct rp_table implicit;	/* reconstructed extents, scanned */
	struct uvm_context *ctx;
	bool scanning;			/* setup's pass: no memory */
	uint64_t devs;			/* bit d: the trace used device d */
	int devmap[MAX_TRACE_DEV];
	/* the device accesses being gathered: one recorded batch */
	struct uvm_device_access_op ops[GROUP_MAX];
	uint64_t buf[GROUP_MAX], want[GROUP_MAX], rec_of[GROUP_MAX];
	unsigned int nops;
	uint32_t gdev;
	uint64_t gbatch;
	/* what the trace holds */
	uint64_t peak, records, batches, device_faults, cpu_faults, prefetches,
		 advises, allocs, frees, lost;
	uint64_t placed;		/* allocations mapped at their recorded address */
	struct rp_kernels kern;		/* the recording's kernels (--kernels) */
};

__attribute__((format(printf, 3, 4)))
static int fail(struct exp_run *r, int err, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(r->error, sizeof(r->error), fmt, ap);
	va_end(ap);
	return err;
}

/*
 * Addresses of no allocation are reconstructed (docs/replay.md) where the
 * trace may lack the records of its allocations: recorded by attaching to
 * a running process, or holding none (so far).
 */
static bool implicit_ok(const struct replay *rp)
{
	return rp->info.attached || !rp->allocs;
}

static void release(struct rp_alloc *a)
{
	cudaFree(a->base);
	a->base = NULL;
}

/* ---- allocations */

static uint64_t host_bytes(void)
{
	long pages = sysconf(_SC_PHYS_PAGES), size = sysconf(_SC_PAGESIZE);

	return pages > 0 && size > 0 ? (uint64_t)pages * (uint64_t)size : UINT64_MAX;
}

static int do_alloc(struct exp_run *r, struct replay *rp, const struct rp_rec *x,
		    bool implicit)
{
	uint64_t end = x->addr + x->bytes;
	struct rp_alloc *a;
	int ret;

	if (!x->bytes || x->addr % RP_PAGE || x->bytes % RP_PAGE || end < x->addr)
		return fail(r, -EBADMSG, "record %" PRIu64 ": allocation 0x%" PRIx64
			    " of %" PRIu64 " bytes is not whole pages", x->index, x->addr,
			    x->bytes);
	if (rp->scanning && rp->tab.span + rpt_span(x->addr, end) > host_bytes())
		return fail(r, -ENOMEM, "record %" PRIu64 ": the trace needs %" PRIu64
			    " MiB of memory, this host has %" PRIu64 " MiB", x->index,
			    (rp->tab.span + rpt_span(x->addr, end)) >> 20, host_bytes() >> 20);
	ret = rpt_add(&rp->tab, x->addr, end, implicit);
	if (ret == -EEXIST)
		return fail(r, -EBADMSG, "record %" PRIu64 ": allocation 0x%" PRIx64
			    "..0x%" PRIx64 " overlaps a live one", x->index, x->addr, end);
	if (ret)
		return fail(r, ret, "out of memory");
	if (rp->tab.span > rp->peak)
		rp->peak = rp->tab.span;
	if (rp->scanning)
		return 0;
	a = rpt_find(&rp->tab, x->addr);
	/*
	 * Where the recording had it, if that range is free here: blocks are
	 * 2 MiB of address space, so allocations then share blocks (and
	 * device chunks) as they did, and eviction sees the same blocks.
	 */
	if (!uvm_managed_alloc_at(rp->ctx, (void *)(uintptr_t)x->addr, x->bytes,
				  UVM_MANAGED_ATTACH_GLOBAL, (void **)&a->base)) {
		rp->placed++;
		return 0;
	}
	if (cudaMallocManaged((void **)&a->base, x->bytes, cudaMemAttachGlobal) != cudaSuccess) {
		rpt_remove(&rp->tab, (size_t)(a - rp->tab.v));
		return fail(r, -ENOMEM, "record %" PRIu64 ": cudaMallocManaged(%" PRIu64
			    ") failed", x->index, x->bytes);
	}
	return 0;
}

/* Unmap the pages of @a in [start, end); drop @a once none is left. */
static void free_part(struct replay *rp, struct rp_alloc *a, uint64_t start, uint64_t end)
{
	uint64_t p;

	for (p = (start - a->start) / RP_PAGE; p < (end - a->start) / RP_PAGE; p++) {
		if (a->gen[p] != RP_DEAD) {
			a->gen[p] = RP_DEAD;
			a->live--;
		}
	}
	if (!a->live) {
		if (a->base)
			release(a);
		rpt_remove(&rp->tab, (size_t)(a - rp->tab.v));
	} else if (a->base) {
		munmap(a->base + (start - a->start), end - start);
	}
}

static int do_free(struct exp_run *r, struct replay *rp, const struct rp_rec *x)
{
	uint64_t end = x->addr + x->bytes, at = x->addr;
	bool any = false;
	size_t i;

	while ((i = rpt_first_after(&rp->tab, at)) < rp->tab.n &&
	       rp->tab.v[i].start < end) {
		struct rp_alloc *a = &rp->tab.v[i];
		uint64_t s = a->start > at ? a->start : at;
		uint64_t e = a->end < end ? a->end : end;

		at = a->end;
		if (a->implicit)	/* lives to the end (docs/replay.md) */
			continue;
		any = true;
		free_part(rp, a, s, e);
	}
	if (!any && !implicit_ok(rp))
		return fail(r, -EBADMSG, "record %" PRIu64 ": free of 0x%" PRIx64
			    " which no allocation holds", x->index, x->addr);
	return 0;
}

/*
 * The live page of the trace's @addr: its allocation, or NULL. Scanning a
 * trace that allows it, an address of no allocation gets its 2 MiB block
 * as an implicit one.
 */
static struct rp_alloc *page_of(struct exp_run *r, struct replay *rp, uint64_t index,
				uint64_t addr, int *err)
{
	struct rp_alloc *a = rpt_find(&rp->tab, addr);
	struct rp_rec blk;

	if (!a && rp->scanning && implicit_ok(rp)) {
		blk = (struct rp_rec){
			.index = index, .addr = addr & ~(RP_BLOCK - 1), .bytes = RP_BLOCK,
		};
		/* Up to the neighbours: never overlap a recorded one. */
		*err = do_alloc(r, rp, &blk, true);
		if (*err == -EBADMSG) {
			blk.addr = addr & ~(RP_PAGE - 1);
			blk.bytes = RP_PAGE;
			*err = do_alloc(r, rp, &blk, true);
		}
		if (*err)
			return NULL;
		a = rpt_find(&rp->tab, addr);
	}
	if (!a || a->gen[(addr - a->start) / RP_PAGE] == RP_DEAD) {
		*err = fail(r, -EBADMSG, "record %" PRIu64 ": address 0x%" PRIx64
			    " is outside every allocation", index, addr);
		return NULL;
	}
	return a;
}

/* ---- devices */

static int note_device(struct exp_run *r, struct replay *rp, uint64_t index, uint32_t d)
{
	if (d >= MAX_TRACE_DEV)
		return fail(r, -EBADMSG, "record %" PRIu64 ": device %u", index, d);
	rp->devs |= 1ULL << d;
	return 0;
}

/* Map the trace's devices: the one it used to --device, else each to itself. */
static int map_devices(struct exp_run *r, struct replay *rp)
{
	int count = 0;
	unsigned int d;

	cudaGetDeviceCount(&count);
	for (d = 0; d < MAX_TRACE_DEV; d++) {
		rp->devmap[d] = (int)d;
		if (!(rp->devs & (1ULL << d)))
			continue;
		if (__builtin_popcountll(rp->devs) == 1)
			rp->devmap[d] = r->device;
		else if ((int)d >= count)
			return fail(r, -ENODEV, "the trace uses device %u; this host has %d",
				    d, count);
	}
	return 0;
}

static struct uvm_mem_location loc_of(const struct replay *rp, const struct rp_rec *x)
{
	struct uvm_mem_location l = { .type = x->loc_type, .id = x->loc_id };

	if (l.type == UVM_MEM_LOC_DEVICE && l.id >= 0 && l.id < MAX_TRACE_DEV)
		l.id = rp->devmap[l.id];
	return l;
}

/* ---- device accesses */

static int flush(struct exp_run *r, struct replay *rp)
{
	unsigned int i, n = rp->nops;
	int ret;

	if (!n)
		return 0;
	rp->nops = 0;
	ret = uvm_device_access(rp->ctx, (unsigned int)rp->devmap[rp->gdev], rp->ops, n, NULL);
	if (ret)
		return fail(r, -EIO, "record %" PRIu64 ": device access: %s",
			    rp->rec_of[0], strerror(-ret));
	for (i = 0; i < n; i++) {
		if (rp->ops[i].type == UVM_DEVICE_ACCESS_READ && rp->buf[i] != rp->want[i])
			return fail(r, -EIO, "record %" PRIu64 ": device read %#" PRIx64
				    ", expected %#" PRIx64, rp->rec_of[i], rp->buf[i],
				    rp->want[i]);
	}
	return 0;
}

static int device_fault(struct exp_run *r, struct replay *rp, const struct rp_rec *x)
{
	uint64_t page = x->addr & ~(RP_PAGE - 1), p;
	unsigned int n;
	struct rp_alloc *a;
	int err = 0;

	if (note_device(r, rp, x->index, x->device))
		return -EBADMSG;
	a = page_of(r, rp, x->index, page, &err);
	if (!a)
		return err;
	rp->device_faults++;
	if (rp->scanning)
		return 0;
	if (rp->nops && (rp->nops == GROUP_MAX || x->device != rp->gdev ||
			 x->batch != rp->gbatch)) {
		err = flush(r, rp);
		if (err)
			return err;
	}
	rp->gdev = x->device;
	rp->gbatch = x->batch;
	n = rp->nops++;
	p = (page - a->start) / RP_PAGE;
	if (x->write) {
		a->gen[p]++;
		rp->buf[n] = rpt_tag(a, p);
	} else {
		rp->want[n] = rpt_tag(a, p);
		rp->buf[n] = ~rp->want[n];
	}
	rp->rec_of[n] = x->index;
	rp->ops[n] = op(a->base + (page - a->start), sizeof(uint64_t), &rp->buf[n],
			x->write ? UVM_DEVICE_ACCESS_WRITE : UVM_DEVICE_ACCESS_READ);
	return 0;
}

static int cpu_fault(struct exp_run *r, struct replay *rp, const struct rp_rec *x)
{
	uint64_t page = x->addr & ~(RP_PAGE - 1), p, v;
	volatile uint64_t *q;
	struct rp_alloc *a;
	int err = 0;

	a = page_of(r, rp, x->index, page, &err);
	if (!a)
		return err;
	rp->cpu_faults++;
	if (rp->scanning)
		return 0;
	p = (page - a->start) / RP_PAGE;
	q = (volatile uint64_t *)(a->base + (page - a->start));
	if (x->write) {
		a->gen[p]++;
		*q = rpt_tag(a, p);
		return 0;
	}
	v = *q;
	if (v != rpt_tag(a, p))
		return fail(r, -EIO, "record %" PRIu64 ": CPU read %#" PRIx64 ", expected %#"
			    PRIx64, x->index, v, rpt_tag(a, p));
	return 0;
}

/* ---- prefetches and advice: per allocation the range covers */

static int range_op(struct exp_run *r, struct replay *rp, const struct rp_rec *x)
{
	uint64_t start = x->addr & ~(RP_PAGE - 1), end = x->addr + x->bytes, at;
	struct rp_alloc *a;
	int err = 0, ret;

	if (!x->bytes || end < x->addr)
		return fail(r, -EBADMSG, "record %" PRIu64 ": empty range", x->index);
	if (x->loc_type == UVM_MEM_LOC_DEVICE && note_device(r, rp, x->index, (uint32_t)x->loc_id))
		return -EBADMSG;
	for (at = start; at < end; at = a->end) {
		a = page_of(r, rp, x->index, at, &err);
		if (!a)
			return err;
		if (rp->scanning)
			continue;
		ret = x->kind == RP_PREFETCH ?
		      uvm_prefetch(rp->ctx, a->base + (at - a->start),
				   (a->end < end ? a->end : end) - at, loc_of(rp, x)) :
		      uvm_advise(rp->ctx, a->base + (at - a->start),
				 (a->end < end ? a->end : end) - at, x->advice, loc_of(rp, x));
		if (ret)
			return fail(r, -EIO, "record %" PRIu64 ": %s: %s", x->index,
				    x->kind == RP_PREFETCH ? "prefetch" : "advise",
				    strerror(-ret));
	}
	return 0;
}

/* ---- the records */

static int one(struct exp_run *r, struct replay *rp, const struct rp_rec *x)
{
	int ret;

	rp->records++;
	if (x->kind != RP_DEVICE_FAULT && x->kind != RP_OTHER && !rp->scanning) {
		ret = flush(r, rp);
		if (ret)
			return ret;
	}
	switch (x->kind) {
	case RP_ALLOC:
		rp->allocs++;
		return do_alloc(r, rp, x, false);
	case RP_FREE:
		rp->frees++;
		return do_free(r, rp, x);
	case RP_BATCH:
		rp->batches++;
		return note_device(r, rp, x->index, x->device);
	case RP_DEVICE_FAULT:
		return device_fault(r, rp, x);
	case RP_CPU_FAULT:
		return cpu_fault(r, rp, x);
	case RP_PREFETCH:
		rp->prefetches++;
		return range_op(r, rp, x);
	case RP_ADVISE:
		rp->advises++;
		return range_op(r, rp, x);
	case RP_OVERFLOW:
		rp->lost += x->bytes;
		return 0;
	case RP_OTHER:
		return 0;
	}
	return 0;
}

/* The counts the cost model prices, now. */
static void counts_now(struct replay *rp, uint64_t *now)
{
	static const unsigned int idx[RPK_N] = {
		[RPK_BATCHES] = UVM_COUNTER_FAULT_BATCHES,
		[RPK_PAGES] = UVM_COUNTER_FAULT_BATCH_PAGES,
		[RPK_H2D] = UVM_COUNTER_MIGRATE_H2D_BYTES,
		[RPK_D2H] = UVM_COUNTER_MIGRATE_D2H_BYTES,
		[RPK_D2D] = UVM_COUNTER_MIGRATE_D2D_BYTES,
		[RPK_CPU] = UVM_COUNTER_CPU_FAULTS,
		[RPK_EVICT] = UVM_COUNTER_EVICTIONS,
	};
	uint64_t all[64] = { 0 };
	unsigned int i;

	uvm_stats(rp->ctx, UVM_STATS_SCOPE_CONTEXT, all, 64);
	for (i = 0; i < RPK_N; i++)
		now[i] = all[idx[i]];
}

/* The record at @ts begins or ends recorded kernels: count up to here. */
static int kernel_marks(struct exp_run *r, struct replay *rp, uint64_t ts)
{
	uint64_t now[RPK_N];
	int ret;

	while (!rp->scanning && rpk_due(&rp->kern, ts)) {
		ret = flush(r, rp);
		if (ret)
			return ret;
		counts_now(rp, now);
		rpk_mark(&rp->kern, now);
	}
	return 0;
}

/* Each kernel priced, for the run's JSON; the last ones end here. */
static int kernels_done(struct exp_run *r, struct replay *rp)
{
	uint64_t now[RPK_N];

	if (rp->scanning || !rp->kern.n)
		return 0;
	counts_now(rp, now);
	rpk_finish(&rp->kern, now);
	free(r->kernels_json);
	r->kernels_json = rpk_json(&rp->kern, r->cost);
	return r->kernels_json ? 0 : fail(r, -ENOMEM, "out of memory");
}

/* Every record of the source, then the last batch. */
static int pass(struct exp_run *r, struct replay *rp)
{
	struct rp_rec x;
	int ret;

	rp->records = rp->batches = rp->device_faults = rp->cpu_faults = 0;
	rp->prefetches = rp->advises = rp->allocs = rp->frees = rp->lost = 0;
	rp->placed = 0;
	rp->kern.next = 0;
	rp->kern.open = false;
	while ((ret = rp_next(rp->src, &x, r->error, sizeof(r->error))) > 0) {
		ret = kernel_marks(r, rp, x.ts) ?: one(r, rp, &x);
		if (ret)
			return ret;
	}
	if (ret < 0)
		return -EBADMSG;
	return rp->scanning ? 0 : flush(r, rp) ?: kernels_done(r, rp);
}

static int reopen(struct exp_run *r, struct replay *rp)
{
	rp_close(rp->src);
	rp->src = rp_open(r->arg, &rp->info, r->error, sizeof(r->error));
	return rp->src ? 0 : -EBADMSG;
}

/* ---- the workload */

/* Give the reconstructed extents memory, before the first record. */
static int map_implicit(struct exp_run *r, struct replay *rp)
{
	struct rp_rec x = { .kind = RP_ALLOC };
	size_t i;
	int ret;

	for (i = 0; i < rp->implicit.n; i++) {
		x.addr = rp->implicit.v[i].start;
		x.bytes = rp->implicit.v[i].end - x.addr;
		ret = do_alloc(r, rp, &x, true);
		if (ret)
			return ret;
	}
	return 0;
}

/* Keep the scan's implicit extents, merged; forget the rest. */
static int keep_implicit(struct replay *rp)
{
	size_t i;

	rpt_merge_implicit(&rp->tab);
	for (i = 0; i < rp->tab.n; i++) {
		if (rp->tab.v[i].implicit &&
		    rpt_add(&rp->implicit, rp->tab.v[i].start, rp->tab.v[i].end, true))
			return -ENOMEM;
	}
	rpt_clear(&rp->tab, NULL);
	return 0;
}

/*
 * A recording that lost records (its header says so, or its overflow
 * records do) would be replayed as a different program: refused unless
 * the user asks for the rest (--allow-incomplete).
 */
static int incomplete(const char *path, const struct rp_info *info, uint64_t lost,
		      bool allow, char *err, size_t len)
{
	uint64_t n = info->lost > lost ? info->lost : lost;

	if (!info->incomplete && !lost)
		return 0;
	if (allow) {
		fprintf(stderr, "uvm-exp: replay: %s: the recording lost %" PRIu64
			" records; replaying the rest (--allow-incomplete)\n", path, n);
		return 0;
	}
	snprintf(err, len, "%s: an incomplete recording: %" PRIu64 " records lost%s%s%s: "
		 "its replay would be another program's; --allow-incomplete replays "
		 "the rest", path, n, info->lost_why[0] ? " (" : "", info->lost_why,
		 info->lost_why[0] ? ")" : "");
	return -1;
}

int exp_replay_check(const char *path, bool allow)
{
	struct rp_info info;
	struct rp_source *s;
	char err[400];
	int ret;

	if (!path || !*path)
		return 0;	/* the workload says what is missing */
	s = rp_open(path, &info, err, sizeof(err));
	if (!s) {
		fprintf(stderr, "uvm-exp: replay: %s\n", err);
		return -1;
	}
	ret = incomplete(path, &info, 0, allow, err, sizeof(err));
	rp_close(s);
	if (ret)
		fprintf(stderr, "uvm-exp: replay: %s\n", err);
	return ret;
}

static int check_trace(struct exp_run *r, struct replay *rp)
{
	if (rp->batches && !rp->device_faults)
		return fail(r, -EBADMSG, "%s: %" PRIu64 " fault batches but no device_fault "
			    "records (--events left them out): record with uvm-trace "
			    "record's default events to replay it", r->arg, rp->batches);
	if (incomplete(r->arg, &rp->info, rp->lost, r->allow_incomplete, r->error,
		       sizeof(r->error)))
		return -EBADMSG;
	return map_devices(r, rp);
}

static int replay_setup(struct exp_run *r)
{
	struct replay *rp;
	int ret;

	rp = calloc(1, sizeof(*rp));
	if (!rp)
		return -ENOMEM;
	r->priv = rp;
	if (!r->arg || !*r->arg)
		return fail(r, -EINVAL, "replay needs a trace: replay:FILE");
	ret = uvm_runtime_context(&rp->ctx);
	if (ret)
		return fail(r, -ENODEV, "no context: %s", strerror(-ret));
	rp->src = rp_open(r->arg, &rp->info, r->error, sizeof(r->error));
	if (!rp->src)
		return -EBADMSG;
	if (r->kernels && rpk_load(&rp->kern, r->kernels, r->error, sizeof(r->error)))
		return -EINVAL;
	rp->scanning = true;
	ret = pass(r, rp);
	if (ret)
		return ret;
	ret = keep_implicit(rp);
	if (ret)
		return ret;
	r->footprint = rp->peak;
	ret = check_trace(r, rp);
	if (ret)
		return ret;
	rp->scanning = false;
	return reopen(r, rp);
}

/* What the trace held, for the run's JSON. */
static void describe(struct exp_run *r, const struct replay *rp)
{
	snprintf(r->extra, sizeof(r->extra),
		 "\"trace_records\":%" PRIu64 ",\"trace_batches\":%" PRIu64
		 ",\"trace_device_faults\":%" PRIu64 ",\"trace_cpu_faults\":%" PRIu64
		 ",\"trace_allocs\":%" PRIu64 ",\"trace_frees\":%" PRIu64
		 ",\"trace_prefetches\":%" PRIu64 ",\"trace_advises\":%" PRIu64
		 ",\"trace_lost\":%" PRIu64 ",\"allocs_placed\":%" PRIu64, rp->records,
		 rp->batches, rp->device_faults, rp->cpu_faults, rp->allocs, rp->frees,
		 rp->prefetches, rp->advises, rp->lost, rp->placed);
}

static int replay_iterate(struct exp_run *r, unsigned int iter)
{
	struct replay *rp = r->priv;
	int ret;

	if (iter) {	/* again: what the last pass left is dropped first */
		rpt_clear(&rp->tab, release);
		ret = reopen(r, rp);
		if (ret)
			return ret;
	}
	ret = map_implicit(r, rp);
	if (!ret)
		ret = pass(r, rp);
	describe(r, rp);
	return ret;
}

/* The CPU reads every page still mapped: the last write's pattern, or zeros. */
static int replay_verify(struct exp_run *r)
{
	struct replay *rp = r->priv;
	uint64_t p, v;
	size_t i;

	for (i = 0; i < rp->tab.n; i++) {
		struct rp_alloc *a = &rp->tab.v[i];

		for (p = 0; p < (a->end - a->start) / RP_PAGE; p++) {
			if (a->gen[p] == RP_DEAD)
				continue;
			v = *(volatile uint64_t *)(a->base + p * RP_PAGE);
			if (v != rpt_tag(a, p))
				return fail(r, -EIO, "page 0x%" PRIx64 " of the trace holds %#"
					    PRIx64 ", expected %#" PRIx64,
					    (uint64_t)(a->start + p * RP_PAGE), v, rpt_tag(a, p));
		}
	}
	return 0;
}

static void replay_teardown(struct exp_run *r)
{
	struct replay *rp = r->priv;

	if (!rp)
		return;
	rpt_clear(&rp->tab, release);
	rpt_clear(&rp->implicit, NULL);
	rpk_free(&rp->kern);
	rp_close(rp->src);
	free(rp);
	r->priv = NULL;
}

const struct exp_workload exp_wl_replay = {
	.name = "replay",
	.desc = "replay:FILE - a trace's allocations, faults, prefetches and advice (docs/replay.md)",
	.takes_arg = true,
	.setup = replay_setup,
	.iterate = replay_iterate,
	.verify = replay_verify,
	.teardown = replay_teardown,
};
