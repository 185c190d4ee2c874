// SPDX-License-Identifier: GPL-2.0
/*
 * uvm_copy.c - copies and sets between any two unified addresses.
 */

#include <linux/highmem.h>
#include <linux/mm.h>
#include <linux/overflow.h>
#include <linux/sched/signal.h>
#include <linux/sizes.h>
#include <linux/slab.h>
#include <uapi/uvm.h>

#include <drm/drm_drv.h>

#include "uvm_alloc.h"
#include "uvm_ce.h"
#include "uvm_copy.h"
#include "uvm_device.h"
#include "uvm_hostreg.h"
#include "uvm_va_space.h"

/**
 * DOC: Copies and sets
 *
 * UVM_IOCTL_MEMCPY and UVM_IOCTL_MEMSET are synchronous: they return when
 * every byte has moved. Each operand's whole extent (all rows and slices) is
 * classified once through the address table: device allocation, pinned
 * host allocation, registered host memory, or none of them ("user":
 * pageable or managed memory). An extent that starts or ends inside an
 * allocation or registration but does not lie wholly inside it is
 * -EINVAL, and so are overlapping source and destination extents (CUDA:
 * they must not overlap). All of this is checked before any byte moves.
 *
 * The work goes row by row in chunks of at most 2 MiB. Device memory is
 * reached through the backend: every chunk becomes copy_to/copy_from
 * calls with a segment per host page (512 segments for 2 MiB), 32
 * segments a call, shared between the caller and the copy engine's
 * helper CPUs (uvm_ce.c), a peer copy
 * (copy_peer when both devices share a backend that has it, else a bounce
 * through host memory) or a fill. Pinned and registered host memory is
 * reached through its pages. User memory, pageable or managed, goes through
 * the CPU mapping of the calling process: pin_user_pages_fast() on the
 * chunk (FOLL_WRITE for the destination), which faults managed pages in
 * through the managed fault handler exactly as a CPU access would, so
 * managed data stays coherent without a second access path; then the pages
 * are used through the kernel mapping and unpinned. (When the device side
 * of managed memory lands, device-resident managed pages are migrated back
 * by that fault, as CUDA does for host-side copies.)
 *
 * Locks: none while pinning user pages (the fault handler takes the VA
 * space's locks). A registration's rw_semaphore is taken for read after the
 * user pages of the chunk are pinned and dropped before they are unpinned,
 * so an munmap (mmap_lock held for write, then the registration's lock in
 * the notifier) never waits on a copy that waits on mmap_lock.
 */

#define UVM_COPY_CHUNK		SZ_2M
#define UVM_COPY_PAGES		(UVM_COPY_CHUNK / PAGE_SIZE + 1)
#define UVM_COPY_SEGS		1024
#define UVM_COPY_BOUNCE		SZ_256K

/**
 * struct uvm_copy_side - one operand of a copy or set.
 * @obj: allocation or registration, NULL for user memory (referenced).
 * @udev: device of a device allocation.
 * @idx: drm_dev_enter() cookie while @udev is entered.
 * @entered: @idx is valid.
 * @write: destination.
 * @va0: page-aligned first address of the pinned chunk (user memory).
 * @npages: pages pinned in @pages (user memory).
 * @pages: the chunk's pages (user memory).
 * @reg_locked: the registration's lock is held for read.
 * @bounce: a chunk-sized buffer for user memory that cannot be pinned
 *	    (allocated on first need).
 * @bva: first address of the chunk in @bounce while @bounced.
 * @blen: its length.
 * @bounced: this chunk goes through @bounce: copied in from user memory
 *	     before (source), copied out after (destination).
 */
struct uvm_copy_side {
	struct uvm_obj *obj;
	struct uvm_device *udev;
	int idx;
	bool entered;
	bool write;
	unsigned long va0;
	unsigned int npages;
	struct page **pages;
	bool reg_locked;
	void *bounce;
	unsigned long bva;
	u64 blen;
	bool bounced;
};

/**
 * struct uvm_copy_ctx - one copy or set in progress.
 * @src: source (unused for a set).
 * @dst: destination.
 * @is_set: a memset: the source is @pattern.
 * @elem: memset element size.
 * @byte: memset value for elem == 1.
 * @pattern: a page filled with the memset pattern.
 * @segs: pending backend segments.
 * @nr_segs: number of @segs.
 * @seg_dev: device of the pending segments.
 * @seg_to: pending segments are host -> device.
 * @bounce: bounce buffer for device -> device without copy_peer.
 */
struct uvm_copy_ctx {
	struct uvm_copy_side src;
	struct uvm_copy_side dst;
	bool is_set;
	u32 elem;
	u8 byte;
	void *pattern;
	struct uvm_copy_seg *segs;
	unsigned int nr_segs;
	struct uvm_device *seg_dev;
	bool seg_to;
	void *bounce;
};

/**
 * struct uvm_extent - a pitched 3D region.
 * @addr: first byte.
 * @pitch: row stride.
 * @rows: rows per slice.
 * @span: bytes from @addr to the end of the last row.
 */
struct uvm_extent {
	u64 addr;
	u64 pitch;
	u64 rows;
	u64 span;
};

/* Validate and measure an extent of @height x @depth rows of @width. */
static int uvm_extent_init(struct uvm_extent *e, u64 width, u64 height,
			   u64 depth)
{
	u64 slice, last;

	if (!e->addr || !height || !depth)
		return -EINVAL;
	if ((height > 1 || depth > 1) && e->pitch < width)
		return -EINVAL;
	if (depth > 1 && e->rows < height)
		return -EINVAL;
	if (!width)
		return 0;
	if (height == 1 && depth == 1)
		e->pitch = width;
	if (depth == 1)
		e->rows = height;
	if (check_mul_overflow(e->pitch, e->rows, &slice) ||
	    check_mul_overflow(slice, depth - 1, &e->span) ||
	    check_mul_overflow(e->pitch, height - 1, &last) ||
	    check_add_overflow(e->span, last, &e->span) ||
	    check_add_overflow(e->span, width, &e->span) ||
	    check_add_overflow(e->addr, e->span - 1, &last) ||
	    last >= TASK_SIZE)
		return -EINVAL;
	return 0;
}

static void uvm_side_fini(struct uvm_copy_side *s)
{
	if (s->entered)
		drm_dev_exit(s->idx);
	if (s->obj)
		uvm_obj_put(s->obj);
	kfree(s->pages);
	kvfree(s->bounce);
}

/* Classify [e->addr, e->addr + e->span) and prepare the side. */
static int uvm_side_init(struct uvm_va_space *va_space, struct uvm_copy_side *s,
			 const struct uvm_extent *e, bool write)
{
	unsigned long last = e->addr + e->span - 1;
	struct uvm_obj *obj;

	s->write = write;
	obj = uvm_obj_find(&va_space->allocs, e->addr, last);
	if (!obj) {
		s->pages = kmalloc_array(UVM_COPY_PAGES, sizeof(*s->pages),
					 GFP_KERNEL);
		return s->pages ? 0 : -ENOMEM;
	}
	s->obj = obj;
	if (e->addr < obj->start || last > obj->start + obj->size - 1)
		return -EINVAL;
	if (write && obj->kind == UVM_OBJ_HOSTREG &&
	    (obj->flags & UVM_HOST_REGISTER_READONLY))
		return -EACCES;
	if (obj->kind != UVM_OBJ_DEVICE)
		return 0;
	s->udev = to_uvm_alloc(obj)->mem->udev;
	if (!drm_dev_enter(&s->udev->drm, &s->idx))
		return -ENODEV;
	s->entered = true;
	return 0;
}

/*
 * User memory that cannot be pinned: managed memory the CPU maps in place
 * on a device (special PTEs, which get_user_pages() refuses). The chunk
 * goes through a kernel buffer instead: copied in now (a source), or out
 * after the copy (a destination, uvm_side_bounce_out()). The CPU's own
 * accesses through the user mapping fault as usual. No lock is held here.
 */
static int uvm_side_bounce_in(struct uvm_copy_side *s, unsigned long va,
			      u64 n)
{
	if (!s->bounce) {
		s->bounce = kvmalloc(UVM_COPY_CHUNK + PAGE_SIZE,
				     GFP_KERNEL | __GFP_NOWARN);
		if (!s->bounce)
			return -ENOMEM;
	}
	s->bva = va;
	s->blen = n;
	s->bounced = true;
	if (!s->write && copy_from_user(s->bounce, (void __user *)va, n))
		return -EFAULT;
	return 0;
}

/* A bounced destination: out to user memory (no registration locked). */
static int uvm_side_bounce_out(struct uvm_copy_side *s)
{
	if (!s->bounced || !s->write)
		return 0;
	return copy_to_user((void __user *)s->bva, s->bounce, s->blen) ?
	       -EFAULT : 0;
}

/* Pin the user pages of [va, va + n), else bounce them (user memory). */
static int uvm_side_pin(struct uvm_copy_side *s, unsigned long va, u64 n)
{
	int ret;

	s->bounced = false;
	if (s->obj)
		return 0;
	s->va0 = round_down(va, PAGE_SIZE);
	s->npages = (round_up(va + n, PAGE_SIZE) - s->va0) >> PAGE_SHIFT;
	ret = pin_user_pages_fast(s->va0, s->npages, s->write ? FOLL_WRITE : 0,
				  s->pages);
	if (ret == s->npages)
		return 0;
	if (ret > 0)
		unpin_user_pages(s->pages, ret);
	s->npages = 0;
	if (ret == -EINTR || ret == -ENOMEM)
		return ret;
	/* -EEXIST, -EFAULT: a special PTE, or a hole (then EFAULT). */
	return uvm_side_bounce_in(s, va, n);
}

/* Lock a registration's pages for read (registrations only). */
static int uvm_side_lock_reg(struct uvm_copy_side *s, int subclass)
{
	struct uvm_hostreg *reg;

	if (!s->obj || s->obj->kind != UVM_OBJ_HOSTREG)
		return 0;
	reg = container_of(s->obj, struct uvm_hostreg, obj);
	down_read_nested(&reg->lock, subclass);
	s->reg_locked = true;
	return reg->dead ? -EFAULT : 0;
}

/*
 * Get both sides of a chunk: user pages are pinned first, since pinning
 * may take mmap_lock, under which the unmap notifier takes a
 * registration's lock for write. Then the registrations' locks, the lower
 * address first (a registration that is both sides: once).
 */
static int uvm_sides_get(struct uvm_copy_ctx *c, unsigned long dva,
			 unsigned long sva, u64 n)
{
	struct uvm_copy_side *lo = &c->dst, *hi = &c->src;
	int ret;

	ret = uvm_side_pin(&c->dst, dva, n);
	if (!ret && !c->is_set)
		ret = uvm_side_pin(&c->src, sva, n);
	if (ret)
		return ret;
	if (c->is_set)
		return uvm_side_lock_reg(&c->dst, 0);
	if (c->src.obj == c->dst.obj)
		return uvm_side_lock_reg(&c->dst, 0);
	if (c->src.obj && c->dst.obj && c->src.obj->start < c->dst.obj->start)
		swap(lo, hi);
	ret = uvm_side_lock_reg(lo, 0);
	return ret ?: uvm_side_lock_reg(hi, SINGLE_DEPTH_NESTING);
}

static void uvm_side_put_reg(struct uvm_copy_side *s)
{
	if (s->reg_locked)
		up_read(&container_of(s->obj, struct uvm_hostreg, obj)->lock);
	s->reg_locked = false;
}

static void uvm_side_put_user(struct uvm_copy_side *s)
{
	if (s->npages)
		unpin_user_pages_dirty_lock(s->pages, s->npages, s->write);
	s->npages = 0;
}

/* Kernel address (host) or device offset (device) of @va, bytes contiguous. */
static void *uvm_side_piece(struct uvm_copy_side *s, unsigned long va,
			    u64 *dev_off, u64 *len)
{
	struct uvm_host_pages *hp;
	struct page *page;

	*len = PAGE_SIZE - offset_in_page(va);
	if (s->obj && s->obj->kind == UVM_OBJ_DEVICE) {
		*dev_off = uvm_alloc_dev_offset(to_uvm_alloc(s->obj),
						va - s->obj->start, len);
		return NULL;
	}
	if (s->bounced) {
		*len = s->bva + s->blen - va;
		return s->bounce + (va - s->bva);
	}
	if (!s->obj) {
		page = s->pages[(va - s->va0) >> PAGE_SHIFT];
	} else {
		hp = s->obj->kind == UVM_OBJ_HOSTREG ?
			&container_of(s->obj, struct uvm_hostreg, obj)->hp :
			&to_uvm_alloc(s->obj)->hp;
		page = hp->pages[(va - s->obj->start) >> PAGE_SHIFT];
	}
	return page_address(page) + offset_in_page(va);
}

/* Piece @piece of the pending segments (one per page), on any CPU. */
static int uvm_copy_piece(void *arg, unsigned int piece)
{
	struct uvm_copy_ctx *c = arg;
	struct uvm_device *udev = c->seg_dev;
	unsigned int first = piece * UVM_CE_PIECE_PAGES;
	unsigned int n = min(c->nr_segs - first, UVM_CE_PIECE_PAGES);

	if (c->seg_to)
		return udev->ops->copy_to(udev, c->segs + first, n);
	return udev->ops->copy_from(udev, c->segs + first, n);
}

/* The pending segments, split over the copy engine's CPUs (uvm_ce.c). */
static int uvm_copy_flush(struct uvm_copy_ctx *c)
{
	int ret;

	if (!c->nr_segs)
		return 0;
	ret = uvm_ce_run(uvm_copy_piece, c,
			 DIV_ROUND_UP(c->nr_segs, UVM_CE_PIECE_PAGES), NULL);
	c->nr_segs = 0;
	return ret;
}

static int uvm_copy_add_seg(struct uvm_copy_ctx *c, struct uvm_device *udev,
			    bool to, u64 dev_off, void *host, u64 len)
{
	int ret = 0;

	if (c->nr_segs && (c->seg_dev != udev || c->seg_to != to ||
			   c->nr_segs == UVM_COPY_SEGS))
		ret = uvm_copy_flush(c);
	c->seg_dev = udev;
	c->seg_to = to;
	c->segs[c->nr_segs++] = (struct uvm_copy_seg) {
		.dev_offset = dev_off, .host = host, .size = len,
	};
	return ret;
}

/* Device to device: the backend's peer copy, else through @c->bounce. */
static int uvm_copy_d2d(struct uvm_copy_ctx *c, u64 doff, u64 soff, u64 len)
{
	struct uvm_device *dst = c->dst.udev, *src = c->src.udev;
	struct uvm_copy_seg seg;
	u64 n;
	int ret;

	ret = uvm_copy_flush(c);
	if (ret)
		return ret;
	if (dst->ops == src->ops && dst->ops->copy_peer)
		return dst->ops->copy_peer(dst, doff, src, soff, len);
	for (; len; len -= n, doff += n, soff += n) {
		n = min_t(u64, len, UVM_COPY_BOUNCE);
		seg = (struct uvm_copy_seg){ .dev_offset = soff,
					     .host = c->bounce, .size = n };
		ret = src->ops->copy_from(src, &seg, 1);
		seg.dev_offset = doff;
		if (!ret)
			ret = dst->ops->copy_to(dst, &seg, 1);
		if (ret)
			return ret;
	}
	return 0;
}

/* One piece of a set: @d is the destination's kernel address or NULL. */
static int uvm_set_piece(struct uvm_copy_ctx *c, void *d, u64 doff, u64 len)
{
	if (d) {
		if (c->elem == 1)
			memset(d, c->byte, len);
		else
			memcpy(d, c->pattern, len);
		return 0;
	}
	if (c->elem == 1) {
		int ret = uvm_copy_flush(c);

		return ret ? ret : c->dst.udev->ops->fill(c->dst.udev, doff,
							  len, c->byte);
	}
	for (; len; ) {
		u64 n = min_t(u64, len, PAGE_SIZE);
		int ret = uvm_copy_add_seg(c, c->dst.udev, true, doff,
					   c->pattern, n);

		if (ret)
			return ret;
		len -= n;
		doff += n;
	}
	return 0;
}

/* Copy or set [dva, dva + n) (from [sva, sva + n)), pages prepared. */
static int uvm_copy_chunk(struct uvm_copy_ctx *c, unsigned long dva,
			  unsigned long sva, u64 n)
{
	u64 doff = 0, soff = 0, dlen, slen, l;
	void *d, *s;
	int ret = 0;

	while (n && !ret) {
		d = uvm_side_piece(&c->dst, dva, &doff, &dlen);
		if (c->is_set) {
			l = min(n, dlen);
			ret = uvm_set_piece(c, d, doff, l);
			goto next;
		}
		s = uvm_side_piece(&c->src, sva, &soff, &slen);
		l = min3(n, dlen, slen);
		if (d && s)
			memcpy(d, s, l);
		else if (s)
			ret = uvm_copy_add_seg(c, c->dst.udev, true, doff, s, l);
		else if (d)
			ret = uvm_copy_add_seg(c, c->src.udev, false, soff, d, l);
		else
			ret = uvm_copy_d2d(c, doff, soff, l);
next:
		dva += l;
		sva += l;
		n -= l;
	}
	return ret ? ret : uvm_copy_flush(c);
}

static int uvm_copy_row(struct uvm_copy_ctx *c, unsigned long dva,
			unsigned long sva, u64 width)
{
	u64 n;
	int ret = 0;

	for (; width && !ret; width -= n, dva += n, sva += n) {
		n = min_t(u64, width, UVM_COPY_CHUNK - offset_in_page(dva));
		n = min_t(u64, n, UVM_COPY_CHUNK - offset_in_page(sva));
		if (fatal_signal_pending(current))
			return -EINTR;
		ret = uvm_sides_get(c, dva, sva, n);
		if (!ret)
			ret = uvm_copy_chunk(c, dva, sva, n);
		uvm_side_put_reg(&c->src);
		uvm_side_put_reg(&c->dst);
		if (!ret)
			ret = uvm_side_bounce_out(&c->dst);
		uvm_side_put_user(&c->src);
		uvm_side_put_user(&c->dst);
		cond_resched();
	}
	return ret;
}

/* Every row of the region; the source is ignored for a set. */
static int uvm_copy_rows(struct uvm_copy_ctx *c, const struct uvm_extent *de,
			 const struct uvm_extent *se, u64 width, u64 height,
			 u64 depth)
{
	u64 z, y;
	int ret;

	for (z = 0; z < depth; z++) {
		for (y = 0; y < height; y++) {
			ret = uvm_copy_row(c, de->addr + (z * de->rows + y) *
					   de->pitch,
					   se->addr + (z * se->rows + y) *
					   se->pitch, width);
			if (ret)
				return ret;
		}
	}
	return 0;
}

static int uvm_copy_ctx_alloc(struct uvm_copy_ctx *c)
{
	c->segs = kvmalloc_array(UVM_COPY_SEGS, sizeof(*c->segs),
				 GFP_KERNEL | __GFP_NOWARN);
	c->bounce = kvmalloc(UVM_COPY_BOUNCE, GFP_KERNEL | __GFP_NOWARN);
	c->pattern = (void *)__get_free_page(GFP_KERNEL);
	return c->segs && c->bounce && c->pattern ? 0 : -ENOMEM;
}

static void uvm_copy_ctx_free(struct uvm_copy_ctx *c)
{
	uvm_side_fini(&c->src);
	uvm_side_fini(&c->dst);
	kvfree(c->segs);
	kvfree(c->bounce);
	free_page((unsigned long)c->pattern);
}

static int uvm_memcpy_check(struct uvm_va_space *va_space,
			    struct uvm_memcpy *args, struct uvm_extent *de,
			    struct uvm_extent *se)
{
	int ret;

	if (args->flags || args->pad)
		return -EINVAL;
	*de = (struct uvm_extent){ .addr = args->dst,
				   .pitch = args->dst_pitch,
				   .rows = args->dst_rows };
	*se = (struct uvm_extent){ .addr = args->src,
				   .pitch = args->src_pitch,
				   .rows = args->src_rows };
	ret = uvm_extent_init(de, args->width, args->height, args->depth);
	if (!ret)
		ret = uvm_extent_init(se, args->width, args->height,
				      args->depth);
	if (ret)
		return ret;
	if (current->mm != va_space->mgd.mm)
		return -EPERM;
	if (args->width && de->addr < se->addr + se->span &&
	    se->addr < de->addr + de->span)
		return -EINVAL;
	return 0;
}

int uvm_memcpy_ioctl(struct uvm_va_space *va_space, void *data)
{
	struct uvm_memcpy *args = data;
	struct uvm_copy_ctx c = { };
	struct uvm_extent de, se;
	int ret;

	ret = uvm_memcpy_check(va_space, args, &de, &se);
	if (ret || !args->width)
		return ret;

	ret = uvm_side_init(va_space, &c.dst, &de, true);
	if (!ret)
		ret = uvm_side_init(va_space, &c.src, &se, false);
	if (!ret)
		ret = uvm_copy_ctx_alloc(&c);
	if (!ret)
		ret = uvm_copy_rows(&c, &de, &se, args->width, args->height,
				    args->depth);
	uvm_copy_ctx_free(&c);
	return ret;
}

static int uvm_memset_check(struct uvm_va_space *va_space,
			    struct uvm_memset *args, struct uvm_extent *de)
{
	u32 e = args->elem_size;

	if (args->flags || args->pad)
		return -EINVAL;
	if (e != 1 && e != 2 && e != 4)
		return -EINVAL;
	if (e < 4 && args->value >> (8 * e))
		return -EINVAL;
	if (!IS_ALIGNED(args->dst, e) || !IS_ALIGNED(args->width, e) ||
	    ((args->height > 1 || args->depth > 1) &&
	     !IS_ALIGNED(args->pitch, e)))
		return -EINVAL;
	*de = (struct uvm_extent){ .addr = args->dst, .pitch = args->pitch,
				   .rows = args->rows };
	if (uvm_extent_init(de, args->width, args->height, args->depth))
		return -EINVAL;
	return current->mm == va_space->mgd.mm ? 0 : -EPERM;
}

static void uvm_fill_pattern(struct uvm_copy_ctx *c, u32 value)
{
	unsigned int i;

	for (i = 0; i < PAGE_SIZE; i += c->elem)
		memcpy(c->pattern + i, &value, c->elem);
}

int uvm_memset_ioctl(struct uvm_va_space *va_space, void *data)
{
	struct uvm_memset *args = data;
	struct uvm_copy_ctx c = { .is_set = true };
	struct uvm_extent de;
	int ret;

	ret = uvm_memset_check(va_space, args, &de);
	if (ret || !args->width)
		return ret;

	c.elem = args->elem_size;
	c.byte = args->value;
	ret = uvm_side_init(va_space, &c.dst, &de, true);
	if (!ret)
		ret = uvm_copy_ctx_alloc(&c);
	if (!ret) {
		uvm_fill_pattern(&c, args->value);
		ret = uvm_copy_rows(&c, &de, &de, args->width, args->height,
				    args->depth);
	}
	uvm_copy_ctx_free(&c);
	return ret;
}
