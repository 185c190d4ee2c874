// SPDX-License-Identifier: MIT
/*
 * cuda_managed.c - managed memory in the runtime API: cudaMallocManaged,
 * cudaMemAdvise, cudaMemPrefetch(Batch)Async, the discard batches,
 * cudaMemRangeGetAttribute(s), cudaStreamAttachMemAsync, and the managed
 * half of cudaFree (cuda_memory.c dispatches).
 *
 * DOC: Prefetch
 *
 * cudaMemPrefetchAsync validates everything in the caller (flags, range
 * against the allocation table, location, device ordinal, NUMA node) and
 * returns; the stream's worker runs UVM_IOCTL_PREFETCH when the stream
 * reaches the item, so the data moves in stream order and asynchronously.
 * HostNumaCurrent is resolved to the caller's node at call time (the worker
 * runs on some other CPU). The module records the last prefetch location
 * when the ioctl runs; so that range queries still report what was
 * *requested* at call time (spec 2.3, point 8), a query of attributes 4, 7
 * or 8 first waits until every prefetch queued before it that overlaps its
 * range has run (uvm_pf_drain). The only difference left from CUDA: two
 * overlapping prefetches queued on different streams with no order between
 * them are recorded in the order they run, not the order they were asked.
 * cudaFree waits the same way for prefetches of the freed range.
 *
 * Device targets go to the module like host targets (it has device
 * residency); a device that runs out of memory evicts other managed data.
 *
 * Discard batches: UVM_IOCTL_DISCARD per range, run by the stream's worker
 * like a prefetch batch (one stream item, no order inside). The module
 * discards only the pages wholly inside each range (bytes the caller kept
 * in a partial first/last page survive); discard-and-prefetch then
 * prefetches the page-rounded range in the same ioctl
 * (UVM_DISCARD_PREFETCH), so the destination is populated without copying
 * the old contents. Those ranges are tracked like prefetches, so a query
 * of the last prefetch location waits for them too.
 */
#include <errno.h>
#include <numa.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdlib.h>

#include "cuda_managed.h"
#include "cuda_memory.h"
#include "cuda_ptsz.h"
#include "cuda_stream.h"

/* ---- pending prefetch ranges --------------------------------------------- */

struct uvm_pf_range {
	uintptr_t start, end;
	uint64_t seq;
	struct uvm_pf_range *prev, *next;
};

static pthread_mutex_t uvm_pf_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t uvm_pf_cond = PTHREAD_COND_INITIALIZER;	/* a range finished */
static struct uvm_pf_range *uvm_pf_head;	/* queued, not finished; under uvm_pf_lock */
static uint64_t uvm_pf_seq;			/* under uvm_pf_lock */

static void pf_track(struct uvm_pf_range *r, size_t n)
{
	size_t i;

	pthread_mutex_lock(&uvm_pf_lock);
	for (i = 0; i < n; i++) {
		r[i].seq = ++uvm_pf_seq;
		r[i].prev = NULL;
		r[i].next = uvm_pf_head;
		if (uvm_pf_head)
			uvm_pf_head->prev = &r[i];
		uvm_pf_head = &r[i];
	}
	pthread_mutex_unlock(&uvm_pf_lock);
}

static void pf_untrack(struct uvm_pf_range *r, size_t n)
{
	size_t i;

	pthread_mutex_lock(&uvm_pf_lock);
	for (i = 0; i < n; i++) {
		if (r[i].prev)
			r[i].prev->next = r[i].next;
		else
			uvm_pf_head = r[i].next;
		if (r[i].next)
			r[i].next->prev = r[i].prev;
	}
	pthread_cond_broadcast(&uvm_pf_cond);
	pthread_mutex_unlock(&uvm_pf_lock);
}

/* Caller holds uvm_pf_lock. */
static bool pf_pending_locked(uintptr_t start, uintptr_t end, uint64_t before)
{
	struct uvm_pf_range *r;

	for (r = uvm_pf_head; r; r = r->next) {
		if (r->seq <= before && r->start < end && start < r->end)
			return true;
	}
	return false;
}

/* Wait for the prefetches queued so far that overlap [start, end). */
static void pf_drain(uintptr_t start, uintptr_t end)
{
	uint64_t before;

	pthread_mutex_lock(&uvm_pf_lock);
	before = uvm_pf_seq;
	while (pf_pending_locked(start, end, before))
		pthread_cond_wait(&uvm_pf_cond, &uvm_pf_lock);
	pthread_mutex_unlock(&uvm_pf_lock);
}

/* ---- prefetch work --------------------------------------------------------- */

enum uvm_pf_kind {
	UVM_PF_PREFETCH, UVM_PF_DISCARD, UVM_PF_DISCARD_PREFETCH,
	UVM_PF_PAGEABLE_HOST,	/* pageable memory to the host (cuda_pageable.c) */
};

struct uvm_pf_op {
	struct uvm_pf_range range;	/* page-rounded, for pf_drain */
	const void *ptr;
	size_t len;
	struct uvm_mem_location loc;
	enum uvm_pf_kind kind;
};

struct uvm_prefetch_work {
	struct uvm_work base;
	size_t n;
	struct uvm_pf_op ops[];
};

static int prefetch_run(struct uvm_work *w)
{
	struct uvm_prefetch_work *pw = (struct uvm_prefetch_work *)w;
	struct uvm_context *ctx = uvm_cuda_context();
	int ret = 0, r;
	size_t i;

	/* Inside one batch there is no order; the first error wins. */
	for (i = 0; i < pw->n; i++) {
		const struct uvm_pf_op *op = &pw->ops[i];
		struct uvm_mem_location loc = op->loc;

		if (loc.type == UVM_MEM_LOC_HOST_NUMA_CURRENT)
			loc.type = UVM_MEM_LOC_HOST_NUMA;	/* resolved at the call */
		if (op->kind == UVM_PF_PREFETCH)
			r = uvm_prefetch_current(ctx, op->ptr, op->len, op->loc);
		else if (op->kind == UVM_PF_PAGEABLE_HOST)
			r = uvm_pageable_prefetch_host(op->ptr, op->len, loc);
		else
			r = uvm_discard(ctx, op->ptr, op->len,
					op->kind == UVM_PF_DISCARD_PREFETCH ? &loc : NULL);
		if (r && !ret)
			ret = r;
	}
	return ret;
}

static void prefetch_release(struct uvm_work *w)
{
	struct uvm_prefetch_work *pw = (struct uvm_prefetch_work *)w;
	size_t i;

	for (i = 0; i < pw->n; i++)
		pf_untrack(&pw->ops[i].range, 1);
	free(pw);
}

static struct uvm_prefetch_work *prefetch_work_alloc(size_t n)
{
	struct uvm_prefetch_work *pw;

	pw = calloc(1, sizeof(*pw) + n * sizeof(pw->ops[0]));
	if (!pw)
		return NULL;
	pw->base.run = prefetch_run;
	pw->base.release = prefetch_release;
	pw->n = n;
	return pw;
}

static void pf_op_set(struct uvm_pf_op *op, const void *ptr, size_t len, struct uvm_mem_location loc)
{
	size_t page = uvm_page_size();

	op->ptr = ptr;
	op->len = len;
	op->loc = loc;
	op->range.start = (uintptr_t)ptr & ~(page - 1);
	op->range.end = ((uintptr_t)ptr + len + page - 1) & ~(page - 1);
}

/* Track every op, then queue: the work untracks them when released. */
static cudaError_t prefetch_submit(struct uvm_prefetch_work *pw, cudaStream_t stream, bool ptsz)
{
	struct CUstream_st *s;
	cudaError_t e;
	size_t i;

	e = uvm_stream_get(stream, ptsz, &s);
	if (e) {
		free(pw);
		return e;
	}
	for (i = 0; i < pw->n; i++)
		pf_track(&pw->ops[i].range, 1);
	e = uvm_errno_to_cuda(uvm_stream_submit(s, &pw->base));
	uvm_stream_put(s);
	return e;
}

/* ---- validation ---------------------------------------------------------- */

static int current_numa_node(void)
{
	int cpu = sched_getcpu();
	int node = (cpu >= 0 && numa_available() >= 0) ? numa_node_of_cpu(cpu) : 0;

	return node < 0 ? 0 : node;
}

/* Location of a prefetch, normalised for the module (ids the CUDA text says
 * are ignored become 0; HostNumaCurrent is resolved here, in the caller). */
static cudaError_t prefetch_loc(struct cudaMemLocation in, struct uvm_mem_location *out)
{
	switch (in.type) {
	case cudaMemLocationTypeDevice:
		if (uvm_cuda_check_device(in.id))
			return cudaErrorInvalidDevice;
		*out = (struct uvm_mem_location){ UVM_MEM_LOC_DEVICE, in.id };
		return cudaSuccess;
	case cudaMemLocationTypeHost:
		*out = (struct uvm_mem_location){ UVM_MEM_LOC_HOST, 0 };
		return cudaSuccess;
	case cudaMemLocationTypeHostNuma:
		if (!uvm_numa_node_valid(in.id))
			return cudaErrorInvalidValue;
		*out = (struct uvm_mem_location){ UVM_MEM_LOC_HOST_NUMA, in.id };
		return cudaSuccess;
	case cudaMemLocationTypeHostNumaCurrent:
		/* Resolved now; recorded as asked (uvm_prefetch_current()). */
		*out = (struct uvm_mem_location){ UVM_MEM_LOC_HOST_NUMA_CURRENT,
						  current_numa_node() };
		return cudaSuccess;
	default:
		return cudaErrorInvalidValue;
	}
}

/* Location of an advice (spec 2.2 table). */
static cudaError_t advise_loc(int advice, struct cudaMemLocation in, struct uvm_mem_location *out)
{
	bool accessed_by = advice == cudaMemAdviseSetAccessedBy ||
			   advice == cudaMemAdviseUnsetAccessedBy;

	*out = (struct uvm_mem_location){ UVM_MEM_LOC_NONE, 0 };
	if (advice < cudaMemAdviseSetReadMostly || advice > cudaMemAdviseUnsetAccessedBy)
		return cudaErrorInvalidValue;
	if (advice != cudaMemAdviseSetPreferredLocation && !accessed_by)
		return cudaSuccess;	/* location ignored */

	switch (in.type) {
	case cudaMemLocationTypeDevice:
		/* Real CUDA 13 (H100, driver 580): InvalidValue, not InvalidDevice. */
		if (uvm_cuda_check_device(in.id))
			return cudaErrorInvalidValue;
		*out = (struct uvm_mem_location){ UVM_MEM_LOC_DEVICE, in.id };
		return cudaSuccess;
	case cudaMemLocationTypeHost:
		*out = (struct uvm_mem_location){ UVM_MEM_LOC_HOST, 0 };
		return cudaSuccess;
	case cudaMemLocationTypeHostNuma:
		if (accessed_by || !uvm_numa_node_valid(in.id))
			return cudaErrorInvalidValue;
		*out = (struct uvm_mem_location){ UVM_MEM_LOC_HOST_NUMA, in.id };
		return cudaSuccess;
	case cudaMemLocationTypeHostNumaCurrent:
		if (accessed_by)
			return cudaErrorInvalidValue;
		*out = (struct uvm_mem_location){ UVM_MEM_LOC_HOST_NUMA_CURRENT, 0 };
		return cudaSuccess;
	default:
		return cudaErrorInvalidValue;
	}
}

/* -errno of an advise/range ioctl: -ENODEV means "no such device" here. */
static cudaError_t managed_errno(int err)
{
	return err == -ENODEV ? cudaErrorInvalidDevice : uvm_errno_to_cuda(err);
}

/* Does the module keep advice for pageable memory (the migration level)? */
static bool pageable_policies(void)
{
	return uvm_cuda_context()->module.caps & UVM_MODULE_PAGEABLE_MIGRATE;
}

static bool range_managed(const void *ptr, size_t count)
{
	return uvm_managed_covers(uvm_cuda_context(), (uintptr_t)ptr, count);
}

/*
 * Does [ptr, ptr + count) start or end in device or pinned memory
 * (cudaMalloc, cudaMallocHost)? Such memory is neither managed nor
 * pageable: advice and prefetch answer cudaErrorInvalidValue, as real
 * CUDA 13 does (H100, driver 580), although its pages are mapped.
 */
static bool range_cuda_alloc(const void *ptr, size_t count)
{
	const void *last = (const char *)ptr + count - 1;
	struct uvm_cptr c;

	if (!uvm_cuda_ptr(ptr, &c) &&
	    (c.type == UVM_POINTER_DEVICE || c.type == UVM_POINTER_HOST_ALLOC))
		return true;
	return count > 1 && !uvm_cuda_ptr(last, &c) &&
	       (c.type == UVM_POINTER_DEVICE || c.type == UVM_POINTER_HOST_ALLOC);
}

/* Batch streams: never the legacy stream (handle 0 outside _ptsz too). */
static cudaError_t batch_stream_check(cudaStream_t stream, bool ptsz)
{
	struct CUstream_st *s;
	cudaError_t e;
	bool legacy;

	e = uvm_stream_get(stream, ptsz, &s);
	if (e)
		return e;
	legacy = uvm_stream_is_legacy(s);
	uvm_stream_put(s);
	return legacy ? cudaErrorInvalidValue : cudaSuccess;
}

static cudaError_t batch_ranges_check(void *const *dptrs, const size_t *sizes, size_t count)
{
	size_t i;

	if (!dptrs || !sizes || !count)
		return cudaErrorInvalidValue;
	for (i = 0; i < count; i++) {
		if (!range_managed(dptrs[i], sizes[i]))
			return cudaErrorInvalidValue;
	}
	return cudaSuccess;
}

/* ---- the shared implementations ---------------------------------------- */

cudaError_t uvm_cm_advise(const void *ptr, size_t count, int advice, struct cudaMemLocation loc)
{
	struct uvm_mem_location l;
	cudaError_t e = uvm_cuda_init();

	if (e)
		return e;
	e = advise_loc(advice, loc, &l);
	if (e)
		return e;
	if (!count)
		return cudaErrorInvalidValue;
	if (!range_managed(ptr, count) && range_cuda_alloc(ptr, count))
		return cudaErrorInvalidValue;
	if (!range_managed(ptr, count) && uvm_cm_pageable(ptr, count) && !pageable_policies())
		return cudaErrorNotSupported;	/* no advice kept (cuda_pageable.c) */
	return managed_errno(uvm_advise(uvm_cuda_context(), ptr, count, (uint32_t)advice, l));
}

cudaError_t uvm_cm_prefetch(const void *ptr, size_t count, struct cudaMemLocation loc,
			    unsigned long long flags, cudaStream_t stream, bool ptsz)
{
	struct uvm_prefetch_work *pw;
	struct uvm_mem_location l;
	cudaError_t e = uvm_cuda_init();
	bool pageable;

	if (e)
		return e;
	if (flags)
		return cudaErrorInvalidValue;
	pageable = !range_managed(ptr, count);
	if (pageable && (range_cuda_alloc(ptr, count) || !uvm_cm_pageable(ptr, count)))
		return cudaErrorInvalidValue;
	e = prefetch_loc(loc, &l);
	if (e)
		return e;
	if (pageable && l.type == UVM_MEM_LOC_DEVICE &&
	    !(uvm_cuda_context()->module.caps & UVM_MODULE_PAGEABLE_MIGRATE))
		return cudaErrorNotSupported;	/* see cuda_pageable.c */
	pw = prefetch_work_alloc(1);
	if (!pw)
		return cudaErrorMemoryAllocation;
	pf_op_set(&pw->ops[0], ptr, count, l);
	if (pageable && l.type != UVM_MEM_LOC_DEVICE)
		pw->ops[0].kind = UVM_PF_PAGEABLE_HOST;
	return prefetch_submit(pw, stream, ptsz);
}

static cudaError_t batch_locs(const struct cudaMemLocation *locs, size_t nlocs,
			      struct uvm_mem_location *out)
{
	cudaError_t e = cudaSuccess;
	size_t k;

	for (k = 0; k < nlocs && !e; k++)
		e = prefetch_loc(locs[k], &out[k]);
	return e;
}

/* Every rule of a prefetch batch, then the resolved locations in @out. */
static cudaError_t batch_validate(void *const *dptrs, const size_t *sizes, size_t count,
				  const struct cudaMemLocation *locs, const size_t *idxs,
				  size_t nlocs, unsigned long long flags, cudaStream_t stream,
				  bool ptsz, struct uvm_mem_location *out)
{
	cudaError_t e;

	if (flags || !locs || uvm_check_batch_loc_idxs(count, idxs, nlocs))
		return cudaErrorInvalidValue;
	e = batch_ranges_check(dptrs, sizes, count);
	if (!e)
		e = batch_stream_check(stream, ptsz);
	if (!e)
		e = batch_locs(locs, nlocs, out);
	return e;
}

cudaError_t uvm_cm_prefetch_batch(void *const *dptrs, const size_t *sizes, size_t count,
				  const struct cudaMemLocation *locs, const size_t *idxs,
				  size_t nlocs, unsigned long long flags, cudaStream_t stream,
				  bool ptsz, bool discard)
{
	struct uvm_prefetch_work *pw;
	struct uvm_mem_location *l;
	cudaError_t e = uvm_cuda_init();
	size_t i;

	if (e)
		return e;
	if (!count || nlocs > count)
		return cudaErrorInvalidValue;
	l = calloc(nlocs ? nlocs : 1, sizeof(*l));
	if (!l)
		return cudaErrorMemoryAllocation;
	e = batch_validate(dptrs, sizes, count, locs, idxs, nlocs, flags, stream, ptsz, l);
	pw = e ? NULL : prefetch_work_alloc(count);
	if (!e && !pw)
		e = cudaErrorMemoryAllocation;
	for (i = 0; !e && i < count; i++) {
		pf_op_set(&pw->ops[i], dptrs[i], sizes[i], l[uvm_batch_loc_of(idxs, nlocs, i)]);
		pw->ops[i].kind = discard ? UVM_PF_DISCARD_PREFETCH : UVM_PF_PREFETCH;
	}
	free(l);
	return e ? e : prefetch_submit(pw, stream, ptsz);
}

cudaError_t uvm_cm_discard_batch(void *const *dptrs, const size_t *sizes, size_t count,
				 unsigned long long flags, cudaStream_t stream, bool ptsz)
{
	struct uvm_prefetch_work *pw;
	cudaError_t e = uvm_cuda_init();
	size_t i;

	if (e)
		return e;
	if (flags)
		return cudaErrorInvalidValue;
	e = batch_ranges_check(dptrs, sizes, count);
	if (!e)
		e = batch_stream_check(stream, ptsz);
	if (e)
		return e;
	pw = prefetch_work_alloc(count);
	if (!pw)
		return cudaErrorMemoryAllocation;
	for (i = 0; i < count; i++) {
		pf_op_set(&pw->ops[i], dptrs[i], sizes[i],
			  (struct uvm_mem_location){ UVM_MEM_LOC_NONE, 0 });
		pw->ops[i].kind = UVM_PF_DISCARD;
	}
	return prefetch_submit(pw, stream, ptsz);
}

static bool attr_needs_drain(int attr)
{
	return attr == cudaMemRangeAttributeLastPrefetchLocation ||
	       attr == cudaMemRangeAttributeLastPrefetchLocationType ||
	       attr == cudaMemRangeAttributeLastPrefetchLocationId;
}

cudaError_t uvm_cm_range_attrs(void **data, const size_t *sizes, const int *attrs, size_t n,
			       const void *ptr, size_t count)
{
	struct uvm_range_info info;
	bool drain = false;
	cudaError_t e = uvm_cuda_init();
	size_t i;

	if (e)
		return e;
	if (!data || !sizes || !attrs || !n || !count)
		return cudaErrorInvalidValue;
	for (i = 0; i < n; i++) {
		if (!data[i] || uvm_check_range_attr_size(attrs[i], sizes[i]))
			return cudaErrorInvalidValue;
		drain |= attr_needs_drain(attrs[i]);
	}
	if (drain)
		pf_drain((uintptr_t)ptr, (uintptr_t)ptr + count);
	if (!range_managed(ptr, count) && uvm_cm_pageable(ptr, count) && !pageable_policies())
		uvm_pageable_range_info(&info);
	else
		e = managed_errno(uvm_range_attrs(uvm_cuda_context(), ptr, count, &info));
	for (i = 0; !e && i < n; i++)
		uvm_range_attr_value(attrs[i], &info, data[i], sizes[i]);
	return e;
}

cudaError_t uvm_cm_lookup(const void *ptr, struct uvm_alloc *a)
{
	return uvm_managed_lookup(uvm_cuda_context(), (uintptr_t)ptr, a) ?
	       cudaErrorInvalidValue : cudaSuccess;
}

/* ---- runtime entry points ------------------------------------------------ */

cudaError_t uvm_cm_malloc_managed(void **devPtr, size_t size, unsigned int flags)
{
	cudaError_t e = uvm_cuda_init();

	if (e)
		return e;
	if (!devPtr || !size || (flags != cudaMemAttachGlobal && flags != cudaMemAttachHost))
		return cudaErrorInvalidValue;
	return uvm_errno_to_cuda(uvm_managed_alloc_dev(uvm_cuda_context(), size, flags,
						       uvm_cuda_current_device(), devPtr));
}

uvm_public cudaError_t cudaMallocManaged(void **devPtr, size_t size, unsigned int flags)
{
	return uvm_cuda_set_error(uvm_cm_malloc_managed(devPtr, size, flags));
}

/* Caller checked that @devPtr is the base of a managed allocation. */
cudaError_t uvm_cm_free_managed(void *devPtr)
{
	struct uvm_alloc a;

	if (uvm_cm_lookup(devPtr, &a) || a.base != (uintptr_t)devPtr)
		return cudaErrorInvalidValue;
	pf_drain(a.base, a.base + a.map_size);
	return uvm_errno_to_cuda(uvm_managed_free(uvm_cuda_context(), devPtr));
}

uvm_public cudaError_t cudaMemAdvise(const void *devPtr, size_t count, enum cudaMemoryAdvise advice,
				     struct cudaMemLocation location)
{
	return uvm_cuda_set_error(uvm_cm_advise(devPtr, count, advice, location));
}

uvm_public cudaError_t cudaMemPrefetchAsync(const void *devPtr, size_t count,
					    struct cudaMemLocation location, unsigned int flags,
					    cudaStream_t stream)
{
	return uvm_cuda_set_error(uvm_cm_prefetch(devPtr, count, location, flags, stream, false));
}

uvm_public cudaError_t cudaMemPrefetchAsync_ptsz(const void *devPtr, size_t count,
						 struct cudaMemLocation location, unsigned int flags,
						 cudaStream_t stream)
{
	return uvm_cuda_set_error(uvm_cm_prefetch(devPtr, count, location, flags, stream, true));
}

uvm_public cudaError_t cudaMemPrefetchBatchAsync(void **dptrs, size_t *sizes, size_t count,
						 struct cudaMemLocation *prefetchLocs,
						 size_t *prefetchLocIdxs, size_t numPrefetchLocs,
						 unsigned long long flags, cudaStream_t stream)
{
	return uvm_cuda_set_error(uvm_cm_prefetch_batch(dptrs, sizes, count, prefetchLocs,
							prefetchLocIdxs, numPrefetchLocs, flags,
							stream, false, false));
}

uvm_public cudaError_t cudaMemPrefetchBatchAsync_ptsz(void **dptrs, size_t *sizes, size_t count,
						      struct cudaMemLocation *prefetchLocs,
						      size_t *prefetchLocIdxs, size_t numPrefetchLocs,
						      unsigned long long flags, cudaStream_t stream)
{
	return uvm_cuda_set_error(uvm_cm_prefetch_batch(dptrs, sizes, count, prefetchLocs,
							prefetchLocIdxs, numPrefetchLocs, flags,
							stream, true, false));
}

uvm_public cudaError_t cudaMemDiscardBatchAsync(void **dptrs, size_t *sizes, size_t count,
						unsigned long long flags, cudaStream_t stream)
{
	return uvm_cuda_set_error(uvm_cm_discard_batch(dptrs, sizes, count, flags, stream, false));
}

uvm_public cudaError_t cudaMemDiscardBatchAsync_ptsz(void **dptrs, size_t *sizes, size_t count,
						     unsigned long long flags, cudaStream_t stream)
{
	return uvm_cuda_set_error(uvm_cm_discard_batch(dptrs, sizes, count, flags, stream, true));
}

uvm_public cudaError_t cudaMemDiscardAndPrefetchBatchAsync(void **dptrs, size_t *sizes, size_t count,
							   struct cudaMemLocation *prefetchLocs,
							   size_t *prefetchLocIdxs,
							   size_t numPrefetchLocs,
							   unsigned long long flags,
							   cudaStream_t stream)
{
	return uvm_cuda_set_error(uvm_cm_prefetch_batch(dptrs, sizes, count, prefetchLocs,
							prefetchLocIdxs, numPrefetchLocs, flags,
							stream, false, true));
}

uvm_public cudaError_t cudaMemDiscardAndPrefetchBatchAsync_ptsz(void **dptrs, size_t *sizes,
								size_t count,
								struct cudaMemLocation *prefetchLocs,
								size_t *prefetchLocIdxs,
								size_t numPrefetchLocs,
								unsigned long long flags,
								cudaStream_t stream)
{
	return uvm_cuda_set_error(uvm_cm_prefetch_batch(dptrs, sizes, count, prefetchLocs,
							prefetchLocIdxs, numPrefetchLocs, flags,
							stream, true, true));
}

uvm_public cudaError_t cudaMemRangeGetAttribute(void *data, size_t dataSize,
						enum cudaMemRangeAttribute attribute,
						const void *devPtr, size_t count)
{
	int attr = attribute;

	return uvm_cuda_set_error(uvm_cm_range_attrs(&data, &dataSize, &attr, 1, devPtr, count));
}

uvm_public cudaError_t cudaMemRangeGetAttributes(void **data, size_t *dataSizes,
						 enum cudaMemRangeAttribute *attributes,
						 size_t numAttributes, const void *devPtr, size_t count)
{
	_Static_assert(sizeof(enum cudaMemRangeAttribute) == sizeof(int), "enum size");
	return uvm_cuda_set_error(uvm_cm_range_attrs(data, dataSizes, (const int *)attributes,
						     numAttributes, devPtr, count));
}

/* ---- cudaStreamAttachMemAsync -------------------------------------------- */

struct uvm_attach_work {
	struct uvm_work base;
	uintptr_t base_addr;
	uint32_t flags;
	const void *stream;
};

static int attach_run(struct uvm_work *w)
{
	struct uvm_attach_work *aw = (struct uvm_attach_work *)w;

	/* The allocation may be gone by now; then there is nothing to attach. */
	uvm_managed_set_attach(uvm_cuda_context(), aw->base_addr, aw->flags,
			       aw->flags == cudaMemAttachSingle ? aw->stream : NULL);
	return 0;
}

static void attach_release(struct uvm_work *w)
{
	free(w);
}

static cudaError_t attach_check(struct CUstream_st *s, const void *ptr, size_t length,
				unsigned int flags, struct uvm_alloc *a)
{
	if (flags != cudaMemAttachGlobal && flags != cudaMemAttachHost &&
	    flags != cudaMemAttachSingle)
		return cudaErrorInvalidValue;
	if (flags == cudaMemAttachSingle && uvm_stream_is_legacy(s))
		return cudaErrorInvalidValue;
	if (uvm_cm_lookup(ptr, a) || a->base != (uintptr_t)ptr)
		return cudaErrorInvalidValue;
	if (length && length != a->size)
		return cudaErrorInvalidValue;
	return cudaSuccess;
}

static cudaError_t attach_mem(cudaStream_t stream, void *ptr, size_t length, unsigned int flags,
			      bool ptsz)
{
	struct uvm_attach_work *aw;
	struct CUstream_st *s;
	struct uvm_alloc a;
	cudaError_t e = uvm_cuda_init();

	if (e)
		return e;
	e = uvm_stream_get(stream, ptsz, &s);
	if (e)
		return e;
	e = attach_check(s, ptr, length, flags, &a);
	aw = e ? NULL : calloc(1, sizeof(*aw));
	if (!e && !aw)
		e = cudaErrorMemoryAllocation;
	if (!e) {
		aw->base.run = attach_run;
		aw->base.release = attach_release;
		aw->base_addr = a.base;
		aw->flags = flags;
		aw->stream = s;
		e = uvm_errno_to_cuda(uvm_stream_submit(s, &aw->base));
	}
	uvm_stream_put(s);
	return e;
}

uvm_public cudaError_t cudaStreamAttachMemAsync(cudaStream_t stream, void *devPtr, size_t length,
						unsigned int flags)
{
	return uvm_cuda_set_error(attach_mem(stream, devPtr, length, flags, false));
}

uvm_public cudaError_t cudaStreamAttachMemAsync_ptsz(cudaStream_t stream, void *devPtr,
						     size_t length, unsigned int flags)
{
	return uvm_cuda_set_error(attach_mem(stream, devPtr, length, flags, true));
}
