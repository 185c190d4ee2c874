// SPDX-License-Identifier: MIT
/*
 * cuda_copy.c - cudaMemcpy*, cudaMemset* (1D/2D/3D, Async, Peer, batch)
 * on UVM_IOCTL_MEMCPY / UVM_IOCTL_MEMSET.
 *
 * DOC: Copies and sets
 *
 * Every copy or set is one item of a stream (struct uvm_mem_work) whose
 * worker runs the module's synchronous ioctl:
 *
 *  - synchronous calls (cudaMemcpy, cudaMemset, ...) queue on the default
 *    stream (legacy; the per-thread one through a _ptds name) and wait for
 *    their item, so they are ordered after earlier work exactly as CUDA's;
 *    the item's error is the call's return value;
 *  - Async calls queue on their stream and return; errors the module finds
 *    later surface at the next synchronisation, like a prefetch's. If an
 *    operand is pageable memory, the call also waits for its item (CUDA
 *    stages pageable memory during the call: the caller may reuse the
 *    buffer once the call returns), and so does a batch with a
 *    DuringApiCall source access order.
 *
 * Before queueing, the caller checks everything it can: kinds against what
 * the module says the pointers are (UVM_IOCTL_PTR_INFO), each operand's
 * extent inside its allocation, source and destination not overlapping.
 *
 * cudaMemcpyKind: Default infers everything (unified addressing). An
 * explicit kind must agree with the memory: the side it calls "device"
 * must be device-accessible (device, managed, pinned or registered memory;
 * pageable memory there is cudaErrorInvalidValue), the side it calls
 * "host" must be host-accessible (device memory there is
 * cudaErrorInvalidValue). Kinds outside 0..4: InvalidMemcpyDirection.
 * Array operands are device memory; a kind that says otherwise for them
 * is silently corrected, as CUDA does.
 */
#include <errno.h>
#include <limits.h>
#include <stdlib.h>

#include "cuda_managed.h"
#include "cuda_memory.h"
#include "cuda_ptsz.h"

/* ---- work items ------------------------------------------------------------ */

struct uvm_mem_op {
	bool fill;
	struct uvm_copy_desc c;
	struct uvm_fill_desc f;
};

struct uvm_mem_work {
	struct uvm_work base;
	size_t n;
	struct uvm_mem_op ops[];
};

static int mem_run(struct uvm_work *w)
{
	struct uvm_mem_work *mw = (struct uvm_mem_work *)w;
	struct uvm_context *ctx = uvm_cuda_context();
	int ret = 0, r;
	size_t i;

	/* Inside one batch there is no order; the first error wins. */
	for (i = 0; i < mw->n; i++) {
		r = mw->ops[i].fill ? uvm_memset(ctx, &mw->ops[i].f) : uvm_memcpy(ctx, &mw->ops[i].c);
		if (r && !ret)
			ret = r;
	}
	return ret;
}

static void mem_release(struct uvm_work *w)
{
	free(w);
}

static struct uvm_mem_work *mem_work_alloc(size_t n)
{
	struct uvm_mem_work *mw = calloc(1, sizeof(*mw) + n * sizeof(mw->ops[0]));

	if (!mw)
		return NULL;
	mw->base.run = mem_run;
	mw->base.release = mem_release;
	return mw;
}

/* -errno of a copy or set as CUDA reports it. */
static cudaError_t copy_errno(int err)
{
	switch (-err) {
	case EACCES:	/* destination registered read-only */
	case EFAULT:	/* unmapped or freed memory */
		return cudaErrorInvalidValue;
	default:
		return uvm_errno_to_cuda(err);
	}
}

/* Queue @mw on the stream; wait for it when @wait. Takes @mw. */
static cudaError_t mem_submit(struct uvm_mem_work *mw, cudaStream_t stream, bool ptsz, bool wait)
{
	struct CUstream_st *s;
	cudaError_t e;
	int ret;

	if (!mw->n) {
		free(mw);
		return cudaSuccess;
	}
	e = uvm_stream_get(stream, ptsz, &s);
	if (e) {
		free(mw);
		return e;
	}
	if (wait)
		ret = uvm_stream_submit_wait(s, &mw->base);
	else
		ret = uvm_stream_submit(s, &mw->base);
	uvm_stream_put(s);
	return copy_errno(ret);
}

/* ---- validation -------------------------------------------------------------- */

uint64_t uvm_extent_end(uint64_t addr, uint64_t pitch, uint64_t rows, uint64_t w, uint64_t h,
			uint64_t d)
{
	unsigned __int128 rows_total, end;

	if (h > 1 || d > 1) {
		rows_total = (unsigned __int128)(d - 1) * rows + (h - 1);
		end = (unsigned __int128)addr + rows_total * pitch + w;
	} else {
		end = (unsigned __int128)addr + w;
	}
	return end > UINT64_MAX ? 0 : (uint64_t)end;
}

static bool host_accessible(uint32_t type)
{
	return type != UVM_POINTER_DEVICE;
}

static bool device_accessible(uint32_t type)
{
	return type != UVM_POINTER_UNREGISTERED;
}

/* Does @kind agree with the memory of a side? @dst: the destination side. */
static bool kind_ok(int kind, bool dst, uint32_t type)
{
	bool dev_side;

	switch (kind) {
	case cudaMemcpyHostToHost:
		dev_side = false;
		break;
	case cudaMemcpyHostToDevice:
		dev_side = dst;
		break;
	case cudaMemcpyDeviceToHost:
		dev_side = !dst;
		break;
	case cudaMemcpyDeviceToDevice:
		dev_side = true;
		break;
	default:
		return true;	/* Default: inferred */
	}
	return dev_side ? device_accessible(type) : host_accessible(type);
}

/*
 * One operand: classify it, check the kind and that its extent stays in
 * its allocation (pageable and managed memory have no such bound: the
 * module checks them). *pageable is set for pageable memory.
 */
static cudaError_t side_check(uint64_t addr, uint64_t end, bool is_array, int kind, bool dst,
			      bool *pageable)
{
	struct uvm_cptr c;

	if (!addr || !end)
		return cudaErrorInvalidValue;
	if (is_array)
		return cudaSuccess;
	if (uvm_cuda_ptr((const void *)(uintptr_t)addr, &c))
		return cudaErrorInvalidValue;
	if (!kind_ok(kind, dst, c.type))
		return cudaErrorInvalidValue;
	if (c.type == UVM_POINTER_UNREGISTERED)
		*pageable = true;
	else if (c.type != UVM_POINTER_MANAGED && end > c.base + c.size)
		return cudaErrorInvalidValue;
	return cudaSuccess;
}

static bool empty(const struct uvm_copy_desc *d)
{
	return !d->width || !d->height || !d->depth;
}

static cudaError_t copy_check(const struct uvm_xfer *x, int kind, bool *pageable)
{
	const struct uvm_copy_desc *d = &x->d;
	uint64_t se, de;
	cudaError_t e;

	se = uvm_extent_end(d->src, d->src_pitch, d->src_rows, d->width, d->height, d->depth);
	de = uvm_extent_end(d->dst, d->dst_pitch, d->dst_rows, d->width, d->height, d->depth);
	e = side_check(d->src, se, x->src_array, kind, false, pageable);
	if (!e)
		e = side_check(d->dst, de, x->dst_array, kind, true, pageable);
	if (!e && d->src < de && d->dst < se)
		e = cudaErrorInvalidValue;	/* overlap: the module refuses it */
	return e;
}

cudaError_t uvm_copy_submit(struct uvm_xfer *x, size_t n, int kind, cudaStream_t stream,
			    bool ptsz, enum uvm_copy_mode mode)
{
	struct uvm_mem_work *mw;
	bool pageable = false;
	cudaError_t e = cudaSuccess;
	size_t i;

	mw = mem_work_alloc(n);
	if (!mw)
		return cudaErrorMemoryAllocation;
	for (i = 0; i < n && !e; i++) {
		if (empty(&x[i].d))
			continue;
		e = copy_check(&x[i], kind, &pageable);
		mw->ops[mw->n++].c = x[i].d;
	}
	if (e) {
		free(mw);
		return e;
	}
	return mem_submit(mw, stream, ptsz, mode != UVM_COPY_ASYNC || pageable);
}

static cudaError_t fill_submit(const struct uvm_fill_desc *f, cudaStream_t stream, bool ptsz,
			       bool async)
{
	struct uvm_mem_work *mw;
	struct uvm_cptr c;
	uint64_t end;

	if (!f->width || !f->height || !f->depth)
		return cudaSuccess;
	end = uvm_extent_end(f->dst, f->pitch, f->rows, f->width, f->height, f->depth);
	if (!f->dst || !end || uvm_cuda_ptr((const void *)(uintptr_t)f->dst, &c))
		return cudaErrorInvalidValue;
	/* CUDA sets device-accessible memory only; pageable: InvalidValue. */
	if (c.type == UVM_POINTER_UNREGISTERED)
		return cudaErrorInvalidValue;
	if (c.type != UVM_POINTER_MANAGED && end > c.base + c.size)
		return cudaErrorInvalidValue;
	mw = mem_work_alloc(1);
	if (!mw)
		return cudaErrorMemoryAllocation;
	mw->ops[0].fill = true;
	mw->ops[0].f = *f;
	mw->n = 1;
	return mem_submit(mw, stream, ptsz, !async);
}

static cudaError_t check_kind(int kind)
{
	return kind < cudaMemcpyHostToHost || kind > cudaMemcpyDefault ?
	       cudaErrorInvalidMemcpyDirection : cudaSuccess;
}

/* Row pitches of a 2D copy/set: >= width and <= cudaDevAttrMaxPitch. */
static bool pitch_ok(size_t pitch, size_t width)
{
	return pitch >= width && pitch <= INT_MAX;
}

/* ---- 1D / 2D copies ------------------------------------------------------- */

static void desc_2d(struct uvm_xfer *x, void *dst, size_t dpitch, const void *src, size_t spitch,
		    size_t width, size_t height)
{
	memset(x, 0, sizeof(*x));
	x->d.dst = (uintptr_t)dst;
	x->d.src = (uintptr_t)src;
	x->d.dst_pitch = dpitch;
	x->d.src_pitch = spitch;
	x->d.width = width;
	x->d.height = height;
	x->d.depth = 1;
	x->d.dst_rows = x->d.src_rows = height;
}

static cudaError_t memcpy_2d(void *dst, size_t dpitch, const void *src, size_t spitch,
			     size_t width, size_t height, int kind, cudaStream_t stream,
			     bool ptsz, enum uvm_copy_mode mode)
{
	struct uvm_xfer x;
	cudaError_t e = uvm_cuda_init();

	if (e)
		return e;
	e = check_kind(kind);
	if (e)
		return e;
	if (!width || !height)
		return cudaSuccess;
	if (!dst || !src)
		return cudaErrorInvalidValue;
	if (!pitch_ok(dpitch, width) || !pitch_ok(spitch, width))
		return cudaErrorInvalidPitchValue;
	desc_2d(&x, dst, dpitch, src, spitch, width, height);
	return uvm_copy_submit(&x, 1, kind, stream, ptsz, mode);
}

static cudaError_t memcpy_1d(void *dst, const void *src, size_t count, int kind,
			     cudaStream_t stream, bool ptsz, enum uvm_copy_mode mode)
{
	return memcpy_2d(dst, count, src, count, count, 1, kind, stream, ptsz, mode);
}

uvm_public cudaError_t cudaMemcpy(void *dst, const void *src, size_t count, enum cudaMemcpyKind kind)
{
	return uvm_cuda_set_error(memcpy_1d(dst, src, count, kind, 0, false, UVM_COPY_SYNC));
}

uvm_public cudaError_t cudaMemcpy_ptds(void *dst, const void *src, size_t count,
				       enum cudaMemcpyKind kind)
{
	return uvm_cuda_set_error(memcpy_1d(dst, src, count, kind, 0, true, UVM_COPY_SYNC));
}

uvm_public cudaError_t cudaMemcpyAsync(void *dst, const void *src, size_t count,
				       enum cudaMemcpyKind kind, cudaStream_t stream)
{
	return uvm_cuda_set_error(memcpy_1d(dst, src, count, kind, stream, false, UVM_COPY_ASYNC));
}

uvm_public cudaError_t cudaMemcpyAsync_ptsz(void *dst, const void *src, size_t count,
					    enum cudaMemcpyKind kind, cudaStream_t stream)
{
	return uvm_cuda_set_error(memcpy_1d(dst, src, count, kind, stream, true, UVM_COPY_ASYNC));
}

uvm_public cudaError_t cudaMemcpy2D(void *dst, size_t dpitch, const void *src, size_t spitch,
				    size_t width, size_t height, enum cudaMemcpyKind kind)
{
	return uvm_cuda_set_error(memcpy_2d(dst, dpitch, src, spitch, width, height, kind, 0, false,
					    UVM_COPY_SYNC));
}

uvm_public cudaError_t cudaMemcpy2D_ptds(void *dst, size_t dpitch, const void *src, size_t spitch,
					 size_t width, size_t height, enum cudaMemcpyKind kind)
{
	return uvm_cuda_set_error(memcpy_2d(dst, dpitch, src, spitch, width, height, kind, 0, true,
					    UVM_COPY_SYNC));
}

uvm_public cudaError_t cudaMemcpy2DAsync(void *dst, size_t dpitch, const void *src, size_t spitch,
					 size_t width, size_t height, enum cudaMemcpyKind kind,
					 cudaStream_t stream)
{
	return uvm_cuda_set_error(memcpy_2d(dst, dpitch, src, spitch, width, height, kind, stream,
					    false, UVM_COPY_ASYNC));
}

uvm_public cudaError_t cudaMemcpy2DAsync_ptsz(void *dst, size_t dpitch, const void *src,
					      size_t spitch, size_t width, size_t height,
					      enum cudaMemcpyKind kind, cudaStream_t stream)
{
	return uvm_cuda_set_error(memcpy_2d(dst, dpitch, src, spitch, width, height, kind, stream,
					    true, UVM_COPY_ASYNC));
}

/* ---- peer copies ------------------------------------------------------------ */

/*
 * With unified addressing the pointers name the memory; the device
 * arguments must be valid ordinals (InvalidDevice) and both operands
 * device-accessible (DeviceToDevice rules). The synchronous form first
 * waits for the work queued on both devices (CUDA serialises it against
 * them) and then runs on the current device's default stream.
 */
static cudaError_t memcpy_peer(void *dst, int dstDevice, const void *src, int srcDevice,
			       size_t count, cudaStream_t stream, bool async)
{
	struct uvm_xfer x;
	cudaError_t e = uvm_cuda_init();

	if (e)
		return e;
	if (uvm_cuda_check_device(dstDevice) || uvm_cuda_check_device(srcDevice))
		return cudaErrorInvalidDevice;
	if (!count)
		return cudaSuccess;
	if (!dst || !src)
		return cudaErrorInvalidValue;
	if (!async) {
		uvm_streams_drain(srcDevice);
		uvm_streams_drain(dstDevice);
	}
	desc_2d(&x, dst, count, src, count, count, 1);
	return uvm_copy_submit(&x, 1, cudaMemcpyDeviceToDevice, stream, false,
			       async ? UVM_COPY_ASYNC : UVM_COPY_SYNC);
}

uvm_public cudaError_t cudaMemcpyPeer(void *dst, int dstDevice, const void *src, int srcDevice,
				      size_t count)
{
	return uvm_cuda_set_error(memcpy_peer(dst, dstDevice, src, srcDevice, count, 0, false));
}

uvm_public cudaError_t cudaMemcpyPeerAsync(void *dst, int dstDevice, const void *src, int srcDevice,
					   size_t count, cudaStream_t stream)
{
	return uvm_cuda_set_error(memcpy_peer(dst, dstDevice, src, srcDevice, count, stream, true));
}

/* ---- 3D copies ----------------------------------------------------------------- */

/* A pitched-pointer operand at @pos (bytes in x) of a region @wb bytes wide. */
static cudaError_t ptr_side(struct cudaPitchedPtr pp, struct cudaPos pos, struct cudaExtent ext,
			    size_t wb, uint64_t *addr, uint64_t *pitch, uint64_t *rows)
{
	unsigned __int128 off;

	if (!pp.ptr)
		return cudaErrorInvalidValue;
	if ((ext.height > 1 || ext.depth > 1 || pos.y || pos.z) && !pitch_ok(pp.pitch, wb))
		return cudaErrorInvalidPitchValue;
	if ((ext.height > 1 || ext.depth > 1 || pos.y || pos.z) && pos.x + wb > pp.pitch)
		return cudaErrorInvalidValue;
	if ((ext.depth > 1 || pos.z) && pp.ysize < pos.y + ext.height)
		return cudaErrorInvalidValue;
	off = ((unsigned __int128)pos.z * pp.ysize + pos.y) * pp.pitch + pos.x;
	if (off + (uintptr_t)pp.ptr > UINT64_MAX)
		return cudaErrorInvalidValue;
	*addr = (uint64_t)(off + (uintptr_t)pp.ptr);
	*pitch = pp.pitch;
	*rows = pp.ysize;
	return cudaSuccess;
}

/* One operand of a cudaMemcpy3D(Peer)Parms: exactly one of array/pointer. */
struct uvm_operand {
	const void *array;
	struct cudaPos pos;
	struct cudaPitchedPtr ptr;
};

static cudaError_t operand_array(const struct uvm_operand *o, const struct cudaArray **a)
{
	*a = NULL;
	if (!!o->array == !!o->ptr.ptr)
		return cudaErrorInvalidValue;
	if (o->array && !(*a = uvm_array_lookup(o->array)))
		return cudaErrorInvalidValue;
	return cudaSuccess;
}

static cudaError_t operand_place(const struct uvm_operand *o, const struct cudaArray *a,
				 struct cudaExtent ext, size_t elem, uint64_t *addr,
				 uint64_t *pitch, uint64_t *rows)
{
	if (a)
		return uvm_array_side(a, o->pos, ext, addr, pitch, rows);
	return ptr_side(o->ptr, o->pos, ext, ext.width * elem, addr, pitch, rows);
}

/*
 * Build one copy from two operands and an extent in elements (bytes unless
 * an array takes part). *x->d.width == 0 when there is nothing to copy.
 */
static cudaError_t build_3d(const struct uvm_operand *src, const struct uvm_operand *dst,
			    struct cudaExtent ext, struct uvm_xfer *x)
{
	const struct cudaArray *sa, *da;
	size_t elem = 1;
	cudaError_t e;

	memset(x, 0, sizeof(*x));
	e = operand_array(src, &sa);
	if (!e)
		e = operand_array(dst, &da);
	if (e)
		return e;
	if (sa && da && uvm_array_elem(sa) != uvm_array_elem(da))
		return cudaErrorInvalidValue;
	if (sa || da)
		elem = uvm_array_elem(sa ? sa : da);
	if (!ext.width || !ext.height || !ext.depth)
		return cudaSuccess;	/* nothing to copy */
	if (ext.width > SIZE_MAX / elem)
		return cudaErrorInvalidValue;
	e = operand_place(src, sa, ext, elem, &x->d.src, &x->d.src_pitch, &x->d.src_rows);
	if (!e)
		e = operand_place(dst, da, ext, elem, &x->d.dst, &x->d.dst_pitch, &x->d.dst_rows);
	x->d.width = ext.width * elem;
	x->d.height = ext.height;
	x->d.depth = ext.depth;
	x->src_array = sa != NULL;
	x->dst_array = da != NULL;
	return e;
}

static cudaError_t memcpy_3d(const struct cudaMemcpy3DParms *p, cudaStream_t stream, bool ptsz,
			     enum uvm_copy_mode mode)
{
	struct uvm_operand src, dst;
	struct uvm_xfer x;
	cudaError_t e = uvm_cuda_init();

	if (e)
		return e;
	if (!p)
		return cudaErrorInvalidValue;
	e = check_kind(p->kind);
	if (e)
		return e;
	src = (struct uvm_operand){ p->srcArray, p->srcPos, p->srcPtr };
	dst = (struct uvm_operand){ p->dstArray, p->dstPos, p->dstPtr };
	e = build_3d(&src, &dst, p->extent, &x);
	if (e || !x.d.width)
		return e;
	return uvm_copy_submit(&x, 1, p->kind, stream, ptsz, mode);
}

uvm_public cudaError_t cudaMemcpy3D(const struct cudaMemcpy3DParms *p)
{
	return uvm_cuda_set_error(memcpy_3d(p, 0, false, UVM_COPY_SYNC));
}

uvm_public cudaError_t cudaMemcpy3D_ptds(const struct cudaMemcpy3DParms *p)
{
	return uvm_cuda_set_error(memcpy_3d(p, 0, true, UVM_COPY_SYNC));
}

uvm_public cudaError_t cudaMemcpy3DAsync(const struct cudaMemcpy3DParms *p, cudaStream_t stream)
{
	return uvm_cuda_set_error(memcpy_3d(p, stream, false, UVM_COPY_ASYNC));
}

uvm_public cudaError_t cudaMemcpy3DAsync_ptsz(const struct cudaMemcpy3DParms *p,
					      cudaStream_t stream)
{
	return uvm_cuda_set_error(memcpy_3d(p, stream, true, UVM_COPY_ASYNC));
}

static cudaError_t memcpy_3d_peer(const struct cudaMemcpy3DPeerParms *p, cudaStream_t stream,
				  bool ptsz, bool async)
{
	struct uvm_operand src, dst;
	struct uvm_xfer x;
	cudaError_t e = uvm_cuda_init();

	if (e)
		return e;
	if (!p)
		return cudaErrorInvalidValue;
	if (uvm_cuda_check_device(p->srcDevice) || uvm_cuda_check_device(p->dstDevice))
		return cudaErrorInvalidDevice;
	src = (struct uvm_operand){ p->srcArray, p->srcPos, p->srcPtr };
	dst = (struct uvm_operand){ p->dstArray, p->dstPos, p->dstPtr };
	e = build_3d(&src, &dst, p->extent, &x);
	if (e || !x.d.width)
		return e;
	if (!async) {
		uvm_streams_drain(p->srcDevice);
		uvm_streams_drain(p->dstDevice);
	}
	return uvm_copy_submit(&x, 1, cudaMemcpyDefault, stream, ptsz,
			       async ? UVM_COPY_ASYNC : UVM_COPY_SYNC);
}

uvm_public cudaError_t cudaMemcpy3DPeer(const struct cudaMemcpy3DPeerParms *p)
{
	return uvm_cuda_set_error(memcpy_3d_peer(p, 0, false, false));
}

uvm_public cudaError_t cudaMemcpy3DPeer_ptds(const struct cudaMemcpy3DPeerParms *p)
{
	return uvm_cuda_set_error(memcpy_3d_peer(p, 0, true, false));
}

uvm_public cudaError_t cudaMemcpy3DPeerAsync(const struct cudaMemcpy3DPeerParms *p,
					     cudaStream_t stream)
{
	return uvm_cuda_set_error(memcpy_3d_peer(p, stream, false, true));
}

uvm_public cudaError_t cudaMemcpy3DPeerAsync_ptsz(const struct cudaMemcpy3DPeerParms *p,
						  cudaStream_t stream)
{
	return uvm_cuda_set_error(memcpy_3d_peer(p, stream, true, true));
}

/* ---- batches ----------------------------------------------------------------- */

static bool access_order_ok(int order)
{
	return order == cudaMemcpySrcAccessOrderStream ||
	       order == cudaMemcpySrcAccessOrderDuringApiCall ||
	       order == cudaMemcpySrcAccessOrderAny;
}

/* Batch streams: never the legacy stream. */
static cudaError_t batch_stream(cudaStream_t stream, bool ptsz)
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

/* Attributes of a 1D batch; *wait when any source is DuringApiCall. */
static cudaError_t batch_attrs(const struct cudaMemcpyAttributes *attrs, const size_t *idxs,
			       size_t nattrs, size_t count, bool *wait)
{
	size_t k;

	if (!attrs || uvm_check_batch_loc_idxs(count, idxs, nattrs))
		return cudaErrorInvalidValue;
	for (k = 0; k < nattrs; k++) {
		if (!access_order_ok(attrs[k].srcAccessOrder) ||
		    (attrs[k].flags & ~(unsigned int)cudaMemcpyFlagPreferOverlapWithCompute))
			return cudaErrorInvalidValue;
		*wait |= attrs[k].srcAccessOrder == cudaMemcpySrcAccessOrderDuringApiCall;
	}
	return cudaSuccess;
}

/*
 * Location hints are used by CUDA only for managed memory on CMA devices;
 * libuvm's copies of managed memory go through the CPU mapping, so the
 * hints have no effect (they are hints).
 */
static cudaError_t memcpy_batch(void *const *dsts, const void *const *srcs, const size_t *sizes,
				size_t count, const struct cudaMemcpyAttributes *attrs,
				const size_t *idxs, size_t nattrs, cudaStream_t stream, bool ptsz)
{
	struct uvm_xfer *x;
	bool wait = false;
	cudaError_t e = uvm_cuda_init();
	size_t i;

	if (e)
		return e;
	if (!dsts || !srcs || !sizes || !count || !nattrs || nattrs > count)
		return cudaErrorInvalidValue;
	e = batch_attrs(attrs, idxs, nattrs, count, &wait);
	if (!e)
		e = batch_stream(stream, ptsz);
	if (e)
		return e;
	x = calloc(count, sizeof(*x));
	if (!x)
		return cudaErrorMemoryAllocation;
	for (i = 0; i < count && !e; i++) {
		if (sizes[i] && (!dsts[i] || !srcs[i]))
			e = cudaErrorInvalidValue;
		desc_2d(&x[i], dsts[i], sizes[i], srcs[i], sizes[i], sizes[i], 1);
	}
	if (!e)
		e = uvm_copy_submit(x, count, cudaMemcpyDefault, stream, ptsz,
				    wait ? UVM_COPY_ASYNC_WAIT : UVM_COPY_ASYNC);
	free(x);
	return e;
}

uvm_public cudaError_t cudaMemcpyBatchAsync(void *const *dsts, const void *const *srcs,
					    const size_t *sizes, size_t count,
					    struct cudaMemcpyAttributes *attrs, size_t *attrsIdxs,
					    size_t numAttrs, cudaStream_t stream)
{
	return uvm_cuda_set_error(memcpy_batch(dsts, srcs, sizes, count, attrs, attrsIdxs, numAttrs,
					       stream, false));
}

uvm_public cudaError_t cudaMemcpyBatchAsync_ptsz(void *const *dsts, const void *const *srcs,
						 const size_t *sizes, size_t count,
						 struct cudaMemcpyAttributes *attrs,
						 size_t *attrsIdxs, size_t numAttrs,
						 cudaStream_t stream)
{
	return uvm_cuda_set_error(memcpy_batch(dsts, srcs, sizes, count, attrs, attrsIdxs, numAttrs,
					       stream, true));
}

/* A 3D batch operand -> the cudaMemcpy3DParms form (pitch, rows in bytes/rows). */
static cudaError_t batch_operand(const struct cudaMemcpy3DOperand *o, struct cudaExtent ext,
				 struct uvm_operand *out, size_t *elem)
{
	const struct cudaArray *a;

	memset(out, 0, sizeof(*out));
	switch (o->type) {
	case cudaMemcpyOperandTypeArray:
		a = uvm_array_lookup(o->op.array.array);
		if (!a)
			return cudaErrorInvalidValue;
		out->array = o->op.array.array;
		out->pos = (struct cudaPos){ o->op.array.offset.x, o->op.array.offset.y,
					     o->op.array.offset.z };
		*elem = uvm_array_elem(a);
		return cudaSuccess;
	case cudaMemcpyOperandTypePointer:
		if (!o->op.ptr.ptr)
			return cudaErrorInvalidValue;
		if ((o->op.ptr.rowLength && o->op.ptr.rowLength < ext.width) ||
		    (o->op.ptr.layerHeight && o->op.ptr.layerHeight < ext.height))
			return cudaErrorInvalidValue;
		out->ptr.ptr = o->op.ptr.ptr;
		out->ptr.pitch = o->op.ptr.rowLength ? o->op.ptr.rowLength : ext.width;
		out->ptr.ysize = o->op.ptr.layerHeight ? o->op.ptr.layerHeight : ext.height;
		return cudaSuccess;
	default:
		return cudaErrorInvalidValue;
	}
}

static cudaError_t batch_op_3d(const struct cudaMemcpy3DBatchOp *op, struct uvm_xfer *x, bool *wait)
{
	struct uvm_operand src, dst;
	size_t se = 1, de = 1, elem;
	cudaError_t e;

	if (!op->extent.width || !op->extent.height || !op->extent.depth ||
	    !access_order_ok(op->srcAccessOrder) ||
	    (op->flags & ~(unsigned int)cudaMemcpyFlagPreferOverlapWithCompute))
		return cudaErrorInvalidValue;
	*wait |= op->srcAccessOrder == cudaMemcpySrcAccessOrderDuringApiCall;
	e = batch_operand(&op->src, op->extent, &src, &se);
	if (!e)
		e = batch_operand(&op->dst, op->extent, &dst, &de);
	if (e)
		return e;
	/* Pointer row lengths are in elements of the array taking part. */
	elem = src.array ? se : de;
	if (!src.array && (op->extent.width > SIZE_MAX / elem || src.ptr.pitch > SIZE_MAX / elem))
		return cudaErrorInvalidValue;
	if (!dst.array && (op->extent.width > SIZE_MAX / elem || dst.ptr.pitch > SIZE_MAX / elem))
		return cudaErrorInvalidValue;
	if (!src.array)
		src.ptr.pitch *= elem;
	if (!dst.array)
		dst.ptr.pitch *= elem;
	return build_3d(&src, &dst, op->extent, x);
}

static cudaError_t memcpy_3d_batch(size_t n, const struct cudaMemcpy3DBatchOp *ops,
				   unsigned long long flags, cudaStream_t stream, bool ptsz)
{
	struct uvm_xfer *x;
	bool wait = false;
	cudaError_t e = uvm_cuda_init();
	size_t i;

	if (e)
		return e;
	if (!n || !ops || flags)
		return cudaErrorInvalidValue;
	e = batch_stream(stream, ptsz);
	if (e)
		return e;
	x = calloc(n, sizeof(*x));
	if (!x)
		return cudaErrorMemoryAllocation;
	for (i = 0; i < n && !e; i++)
		e = batch_op_3d(&ops[i], &x[i], &wait);
	if (!e)
		e = uvm_copy_submit(x, n, cudaMemcpyDefault, stream, ptsz,
				    wait ? UVM_COPY_ASYNC_WAIT : UVM_COPY_ASYNC);
	free(x);
	return e;
}

uvm_public cudaError_t cudaMemcpy3DBatchAsync(size_t numOps, struct cudaMemcpy3DBatchOp *opList,
					      unsigned long long flags, cudaStream_t stream)
{
	return uvm_cuda_set_error(memcpy_3d_batch(numOps, opList, flags, stream, false));
}

uvm_public cudaError_t cudaMemcpy3DBatchAsync_ptsz(size_t numOps, struct cudaMemcpy3DBatchOp *opList,
						   unsigned long long flags, cudaStream_t stream)
{
	return uvm_cuda_set_error(memcpy_3d_batch(numOps, opList, flags, stream, true));
}

/* ---- memset -------------------------------------------------------------------- */

static cudaError_t memset_3d(struct cudaPitchedPtr pp, int value, struct cudaExtent ext,
			     cudaStream_t stream, bool ptsz, bool async)
{
	struct uvm_fill_desc f;
	cudaError_t e = uvm_cuda_init();

	if (e)
		return e;
	if (!ext.width || !ext.height || !ext.depth)
		return cudaSuccess;
	if (!pp.ptr)
		return cudaErrorInvalidValue;
	if ((ext.height > 1 || ext.depth > 1) && !pitch_ok(pp.pitch, ext.width))
		return cudaErrorInvalidValue;
	if (ext.depth > 1 && pp.ysize < ext.height)
		return cudaErrorInvalidValue;
	memset(&f, 0, sizeof(f));
	f.dst = (uintptr_t)pp.ptr;
	f.pitch = pp.pitch;
	f.width = ext.width;
	f.height = ext.height;
	f.depth = ext.depth;
	f.rows = pp.ysize;
	f.value = (unsigned char)value;
	f.elem_size = 1;
	return fill_submit(&f, stream, ptsz, async);
}

static cudaError_t memset_2d(void *p, size_t pitch, int value, size_t width, size_t height,
			     cudaStream_t stream, bool ptsz, bool async)
{
	return memset_3d((struct cudaPitchedPtr){ p, pitch, width, height }, value,
			 (struct cudaExtent){ width, height, 1 }, stream, ptsz, async);
}

uvm_public cudaError_t cudaMemset(void *devPtr, int value, size_t count)
{
	return uvm_cuda_set_error(memset_2d(devPtr, count, value, count, 1, 0, false, false));
}

uvm_public cudaError_t cudaMemset_ptds(void *devPtr, int value, size_t count)
{
	return uvm_cuda_set_error(memset_2d(devPtr, count, value, count, 1, 0, true, false));
}

uvm_public cudaError_t cudaMemsetAsync(void *devPtr, int value, size_t count, cudaStream_t stream)
{
	return uvm_cuda_set_error(memset_2d(devPtr, count, value, count, 1, stream, false, true));
}

uvm_public cudaError_t cudaMemsetAsync_ptsz(void *devPtr, int value, size_t count,
					    cudaStream_t stream)
{
	return uvm_cuda_set_error(memset_2d(devPtr, count, value, count, 1, stream, true, true));
}

uvm_public cudaError_t cudaMemset2D(void *devPtr, size_t pitch, int value, size_t width,
				    size_t height)
{
	return uvm_cuda_set_error(memset_2d(devPtr, pitch, value, width, height, 0, false, false));
}

uvm_public cudaError_t cudaMemset2D_ptds(void *devPtr, size_t pitch, int value, size_t width,
					 size_t height)
{
	return uvm_cuda_set_error(memset_2d(devPtr, pitch, value, width, height, 0, true, false));
}

uvm_public cudaError_t cudaMemset2DAsync(void *devPtr, size_t pitch, int value, size_t width,
					 size_t height, cudaStream_t stream)
{
	return uvm_cuda_set_error(memset_2d(devPtr, pitch, value, width, height, stream, false,
					    true));
}

uvm_public cudaError_t cudaMemset2DAsync_ptsz(void *devPtr, size_t pitch, int value, size_t width,
					      size_t height, cudaStream_t stream)
{
	return uvm_cuda_set_error(memset_2d(devPtr, pitch, value, width, height, stream, true,
					    true));
}

uvm_public cudaError_t cudaMemset3D(struct cudaPitchedPtr pitchedDevPtr, int value,
				    struct cudaExtent extent)
{
	return uvm_cuda_set_error(memset_3d(pitchedDevPtr, value, extent, 0, false, false));
}

uvm_public cudaError_t cudaMemset3D_ptds(struct cudaPitchedPtr pitchedDevPtr, int value,
					 struct cudaExtent extent)
{
	return uvm_cuda_set_error(memset_3d(pitchedDevPtr, value, extent, 0, true, false));
}

uvm_public cudaError_t cudaMemset3DAsync(struct cudaPitchedPtr pitchedDevPtr, int value,
					 struct cudaExtent extent, cudaStream_t stream)
{
	return uvm_cuda_set_error(memset_3d(pitchedDevPtr, value, extent, stream, false, true));
}

uvm_public cudaError_t cudaMemset3DAsync_ptsz(struct cudaPitchedPtr pitchedDevPtr, int value,
					      struct cudaExtent extent, cudaStream_t stream)
{
	return uvm_cuda_set_error(memset_3d(pitchedDevPtr, value, extent, stream, true, true));
}

/* The driver's element sets: @dst aligned to @elem, @n elements. */
cudaError_t uvm_cm_memset_elems(void *p, uint32_t value, size_t n, unsigned int elem,
				cudaStream_t stream, bool ptsz, bool async)
{
	struct uvm_fill_desc f;
	cudaError_t e = uvm_cuda_init();

	if (e)
		return e;
	if (!n)
		return cudaSuccess;
	if (!p || (uintptr_t)p % elem || n > SIZE_MAX / elem)
		return cudaErrorInvalidValue;
	memset(&f, 0, sizeof(f));
	f.dst = (uintptr_t)p;
	f.pitch = n * elem;
	f.width = n * elem;
	f.height = 1;
	f.depth = 1;
	f.rows = 1;
	f.value = value;
	f.elem_size = elem;
	return fill_submit(&f, stream, ptsz, async);
}
