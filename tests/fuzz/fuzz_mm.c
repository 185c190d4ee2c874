// SPDX-License-Identifier: GPL-2.0
/*
 * fuzz_mm.c - the regions of a worker and the memory-management calls on
 * them: map (managed, device, pinned, registered, anonymous, file), unmap
 * whole or in part, mremap, mprotect, madvise (every advice), mlock, msync,
 * mincore and the NUMA calls.
 *
 * A slot is claimed (BUSY) under the worker's lock while it is created or
 * destroyed; every other operation reads a LIVE slot without the lock and
 * races with whatever the other threads do to it: that is the point.
 */
#include <errno.h>
#include <fcntl.h>
#include <numaif.h>
#include <pthread.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "fuzz.h"

#ifndef MREMAP_DONTUNMAP
#define MREMAP_DONTUNMAP	4
#endif
#ifndef MADV_SOFT_OFFLINE
#define MADV_SOFT_OFFLINE	101
#endif
#ifndef MADV_COLLAPSE
#define MADV_COLLAPSE		25
#endif

#define FZ_LIVE_MB_MAX		48

static pthread_mutex_t fz_slot_lock = PTHREAD_MUTEX_INITIALIZER;

static uintptr_t fz_slot_base(int i)
{
	return FZ_ARENA_BASE + (uintptr_t)i * FZ_SLOT_SIZE;
}

static int fz_placeholder(uintptr_t a, size_t len)
{
	void *p = mmap((void *)a, len, PROT_NONE,
		       MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED | MAP_NORESERVE,
		       -1, 0);

	return p == MAP_FAILED ? -errno : 0;
}

int fz_arena_init(struct fz_worker *w)
{
	void *p;
	int i;

	p = mmap((void *)FZ_ARENA_BASE, FZ_ARENA_SIZE + FZ_GUARD, PROT_NONE,
		 MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED_NOREPLACE | MAP_NORESERVE,
		 -1, 0);
	if (p == MAP_FAILED)
		return -errno;
	p = mmap((void *)FZ_PRIV_BASE, FZ_PRIV_SIZE * FZ_MAX_THREADS, PROT_NONE,
		 MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED_NOREPLACE | MAP_NORESERVE,
		 -1, 0);
	if (p == MAP_FAILED)
		return -errno;
	for (i = 0; i < w->nthreads; i++) {
		p = mmap((void *)fz_slot_base(i), FZ_SCRATCH_SIZE,
			 PROT_READ | PROT_WRITE,
			 MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1, 0);
		if (p == MAP_FAILED)
			return -errno;
		w->slots[i].state = FZ_SLOT_SCRATCH;
		w->slots[i].kind = FZ_ANON;
		w->slots[i].addr = (uintptr_t)p;
		w->slots[i].len = FZ_SCRATCH_SIZE;
		w->th[i].scratch = p;
		w->th[i].priv = (char *)(FZ_PRIV_BASE + (uintptr_t)i * FZ_PRIV_SIZE);
	}
	return 0;
}

/* A snapshot of a random LIVE slot of @kind (-1: any; FZ_ANY_SCRATCH: any,
 * the threads' scratch buffers too).
 */
int fz_pick_snapshot(struct fz_thread *t, int kind, struct fz_region *r)
{
	struct fz_worker *w = t->w;
	int i, n, st;

	/* 40%: the first live slot, a hot spot every thread hits */
	i = fz_chance(t, 40) ? (uint64_t)w->nthreads : fz_below(t, FZ_SLOTS);
	for (n = 0; n < FZ_SLOTS; n++, i = (i + 1) % FZ_SLOTS) {
		st = __atomic_load_n(&w->slots[i].state, __ATOMIC_ACQUIRE);
		if (st != FZ_SLOT_LIVE &&
		    !(st == FZ_SLOT_SCRATCH && kind == FZ_ANY_SCRATCH))
			continue;
		*r = w->slots[i];
		if (kind < 0 || r->kind == kind)
			return 0;
	}
	return -1;
}

/* An interesting address of a region: its edges and their neighbours. */
uint64_t fz_region_addr(struct fz_thread *t, const struct fz_region *r)
{
	uint64_t a = r->addr, end = r->addr + r->len;

	switch (fz_below(t, 10)) {
	case 0:
		return end - 1;
	case 1:
		return end;
	case 2:
		return a - FZ_PAGE;
	case 3:
		return end - FZ_PAGE;
	case 4:
		return a + 1 + fz_below(t, 7);
	case 5:
		return a + fz_below(t, r->len);
	case 6:
		return a + (fz_below(t, r->len) & ~(FZ_PAGE - 1));
	default:
		return a;
	}
}

static int fz_claim_free(struct fz_thread *t)
{
	struct fz_worker *w = t->w;
	int i, n, ret = -1;

	if (w->live_bytes_mb > FZ_LIVE_MB_MAX)
		return -1;
	pthread_mutex_lock(&fz_slot_lock);
	i = fz_below(t, FZ_SLOTS);
	for (n = 0; n < FZ_SLOTS; n++, i = (i + 1) % FZ_SLOTS) {
		if (w->slots[i].state == FZ_SLOT_FREE) {
			w->slots[i].state = FZ_SLOT_BUSY;
			ret = i;
			break;
		}
	}
	pthread_mutex_unlock(&fz_slot_lock);
	return ret;
}

static int fz_claim_live(struct fz_thread *t, int kind)
{
	struct fz_worker *w = t->w;
	int i, n, ret = -1;

	pthread_mutex_lock(&fz_slot_lock);
	i = fz_below(t, FZ_SLOTS);
	for (n = 0; n < FZ_SLOTS; n++, i = (i + 1) % FZ_SLOTS) {
		if (w->slots[i].state == FZ_SLOT_LIVE &&
		    (kind < 0 || w->slots[i].kind == kind)) {
			w->slots[i].state = FZ_SLOT_BUSY;
			ret = i;
			break;
		}
	}
	pthread_mutex_unlock(&fz_slot_lock);
	return ret;
}

static void fz_publish(struct fz_worker *w, int i, int kind, uintptr_t a,
		       size_t len)
{
	w->slots[i].kind = kind;
	w->slots[i].addr = a;
	w->slots[i].len = len;
	__atomic_add_fetch(&w->live_bytes_mb, (int)(len >> 20) + 1,
			   __ATOMIC_RELAXED);
	__atomic_store_n(&w->slots[i].state, FZ_SLOT_LIVE, __ATOMIC_RELEASE);
}

/* Give a slot its placeholder back and free it. */
static void fz_release(struct fz_worker *w, int i, int was_live)
{
	fz_placeholder(fz_slot_base(i), FZ_SLOT_SIZE);
	if (was_live)
		__atomic_sub_fetch(&w->live_bytes_mb,
				   (int)(w->slots[i].len >> 20) + 1,
				   __ATOMIC_RELAXED);
	__atomic_store_n(&w->slots[i].state, FZ_SLOT_FREE, __ATOMIC_RELEASE);
}

/* An own /dev/uvm file, sometimes another one (foreign, bogus). */
int fz_uvm_fd(struct fz_thread *t)
{
	struct fz_worker *w = t->w;
	int fd;

	if (fz_chance(t, 3))
		return fz_chance(t, 50) ? -1 : w->memfd;
	if (fz_chance(t, 5) && w->fds[FZ_FDS] >= 0)
		return w->fds[FZ_FDS];
	fd = w->fds[fz_chance(t, 80) ? 0 : fz_below(t, FZ_FDS)];
	return fd >= 0 ? fd : w->fds[0];
}

/* A region length: a few pages mostly, sometimes blocks and more. */
static size_t fz_region_len(struct fz_thread *t)
{
	switch (fz_below(t, 8)) {
	case 0:
		return 2 * FZ_MIB;
	case 1:
		return FZ_PAGE * (1 + fz_below(t, FZ_REGION_MAX / FZ_PAGE));
	case 2:
		return 2 * FZ_MIB + FZ_PAGE * (1 + fz_below(t, 16));
	default:
		return FZ_PAGE * (1 + fz_below(t, 64));
	}
}

/* Where in the slot: block-aligned mostly, else any page. */
static uintptr_t fz_place(struct fz_thread *t, int i)
{
	uintptr_t off = 0;

	if (fz_chance(t, 30))
		off = fz_below(t, 2 * FZ_MIB / FZ_PAGE) * FZ_PAGE;
	else if (fz_chance(t, 20))
		off = 2 * FZ_MIB;
	return fz_slot_base(i) + off;
}

static int fz_prot(struct fz_thread *t)
{
	static const int prots[] = {
		PROT_READ | PROT_WRITE, PROT_READ | PROT_WRITE, PROT_READ | PROT_WRITE,
		PROT_READ, PROT_NONE, PROT_WRITE, PROT_READ | PROT_EXEC,
		PROT_READ | PROT_WRITE | PROT_EXEC, PROT_READ | PROT_WRITE | 0x10,
	};

	return prots[fz_below(t, FZ_ARRAY_SIZE(prots))];
}

static void *fz_mmap_fd(struct fz_thread *t, uintptr_t a, size_t len, int fd,
			off_t off)
{
	int flags = MAP_SHARED | MAP_FIXED;

	if (fz_chance(t, 3))
		flags = MAP_PRIVATE | MAP_FIXED;
	if (fz_chance(t, 5))
		flags |= MAP_POPULATE;
	if (fz_chance(t, 3))
		flags |= MAP_LOCKED;
	if (fz_chance(t, 3))
		flags |= MAP_NORESERVE;
	return mmap((void *)a, len, fz_chance(t, 85) ? PROT_READ | PROT_WRITE
						       : fz_prot(t),
		    flags, fd, off);
}

static int op_map_managed(struct fz_thread *t)
{
	int i = fz_claim_free(t);
	size_t len = fz_region_len(t);
	uintptr_t a;
	int fd = fz_uvm_fd(t);
	void *p;

	if (i < 0)
		return 0;
	a = fz_place(t, i);
	p = fz_mmap_fd(t, a, len, fd, 0);
	if (p == MAP_FAILED) {
		fz_release(t->w, i, 0);
		return -errno;
	}
	t->w->slots[i].fd = fd;
	fz_publish(t->w, i, FZ_MANAGED, a, len);
	return 0;
}

/* Device or pinned allocation, mapped at its cookie (mostly). */
static int fz_map_alloc(struct fz_thread *t, int kind)
{
	int fd = fz_uvm_fd(t), i, ret;
	uint64_t handle, off, size;
	struct fz_region *r;
	uintptr_t a;
	void *p;

	if (kind == FZ_DEVICE) {
		struct uvm_alloc_device ad = {
			.size = fz_chance(t, 90) ? fz_region_len(t) : fz_len(t, 0),
			.device = fz_dev_id(t),
			.flags = fz_chance(t, 95) ? 0 : fz_u32(t),
		};

		ret = ioctl(fd, UVM_IOCTL_ALLOC_DEVICE, &ad);
		handle = ad.handle, off = ad.mmap_offset, size = ad.map_size;
	} else {
		struct uvm_alloc_host ah = {
			.size = fz_chance(t, 90) ? FZ_PAGE * (1 + fz_below(t, 64))
						 : fz_len(t, 0),
			.flags = fz_chance(t, 90) ? fz_below(t, 8) : fz_u32(t),
			.numa_node = fz_chance(t, 50) ? -1 : fz_node_id(t),
		};

		ret = ioctl(fd, UVM_IOCTL_ALLOC_HOST, &ah);
		handle = ah.handle, off = ah.mmap_offset, size = ah.map_size;
	}
	if (ret)
		return -errno;
	i = fz_claim_free(t);
	if (i < 0 || fz_chance(t, 5) || size > FZ_SLOT_SIZE - 2 * FZ_MIB) {
		struct uvm_free f = { .handle = handle };

		if (i >= 0)
			fz_release(t->w, i, 0);
		/* by handle, or left for close() */
		return fz_chance(t, 70) ? ioctl(fd, UVM_IOCTL_FREE, &f) : 0;
	}
	a = fz_place(t, i);
	p = fz_mmap_fd(t, a, fz_chance(t, 95) ? size : size + FZ_PAGE, fd,
		       fz_chance(t, 97) ? off : off + FZ_PAGE);
	if (p == MAP_FAILED) {
		fz_release(t->w, i, 0);
		return -errno;
	}
	r = &t->w->slots[i];
	r->fd = fd;
	r->handle = handle;
	fz_publish(t->w, i, kind, a, size);
	return 0;
}

static int op_map_device(struct fz_thread *t)
{
	return fz_map_alloc(t, FZ_DEVICE);
}

static int op_map_pinned(struct fz_thread *t)
{
	return fz_map_alloc(t, FZ_PINNED);
}

/* Anonymous or file memory, registered (HOST_REGISTER) or plain. */
static int fz_map_plain(struct fz_thread *t, int kind)
{
	int i = fz_claim_free(t), file = fz_chance(t, 25), ret;
	size_t len = fz_region_len(t);
	uintptr_t a;
	void *p;

	if (i < 0)
		return 0;
	a = fz_place(t, i);
	if (kind == FZ_FILE || (kind == FZ_REGISTERED && file))
		p = mmap((void *)a, len, PROT_READ | PROT_WRITE,
			 MAP_SHARED | MAP_FIXED, t->w->memfd,
			 fz_below(t, 16) * 2 * FZ_MIB);
	else
		p = mmap((void *)a, len, PROT_READ | PROT_WRITE,
			 (fz_chance(t, 80) ? MAP_PRIVATE : MAP_SHARED) |
			 MAP_ANONYMOUS | MAP_FIXED, -1, 0);
	if (p == MAP_FAILED) {
		fz_release(t->w, i, 0);
		return -errno;
	}
	if (kind == FZ_REGISTERED) {
		struct uvm_host_register hr = {
			.addr = a, .size = len,
			.flags = fz_chance(t, 90) ? fz_below(t, 16) & ~4U : fz_u32(t),
		};

		if (fz_chance(t, 60))
			fz_memset(t, p, 0x5a, len);
		t->w->slots[i].fd = fz_uvm_fd(t);
		ret = ioctl(t->w->slots[i].fd, UVM_IOCTL_HOST_REGISTER, &hr);
		if (ret)
			kind = FZ_ANON;
	}
	fz_publish(t->w, i, kind, a, len);
	return 0;
}

static int op_map_registered(struct fz_thread *t)
{
	return fz_map_plain(t, FZ_REGISTERED);
}

static int op_map_anon(struct fz_thread *t)
{
	return fz_map_plain(t, fz_chance(t, 50) ? FZ_ANON : FZ_FILE);
}

/* Undo what made the region (FREE, HOST_UNREGISTER) or not, then unmap. */
static int op_unmap(struct fz_thread *t)
{
	int i = fz_claim_live(t, -1), fd;
	struct fz_region *r;

	if (i < 0)
		return 0;
	r = &t->w->slots[i];
	fd = fz_chance(t, 90) ? r->fd : fz_uvm_fd(t);
	if ((r->kind == FZ_DEVICE || r->kind == FZ_PINNED) && fz_chance(t, 60)) {
		struct uvm_free f = { .addr = r->addr };

		if (fz_chance(t, 10))
			f.addr += fz_chance(t, 50) ? FZ_PAGE : 1;
		if (fz_chance(t, 5))
			f.handle = r->handle;
		ioctl(fd, UVM_IOCTL_FREE, &f);
	}
	if (r->kind == FZ_REGISTERED && fz_chance(t, 60)) {
		struct uvm_host_unregister u = { .addr = r->addr };

		if (fz_chance(t, 10))
			u.addr += FZ_PAGE;
		ioctl(fd, UVM_IOCTL_HOST_UNREGISTER, &u);
	}
	if (fz_chance(t, 30))
		munmap((void *)r->addr, r->len);
	fz_release(t->w, i, 1);
	return 0;
}

/* A random page-rounded piece of a live region (not claimed: racy). */
static int fz_piece(struct fz_thread *t, int kind, uintptr_t *a, size_t *len)
{
	struct fz_region r;
	size_t off;

	if (fz_pick_snapshot(t, kind, &r) || !r.len)
		return -1;
	off = fz_below(t, r.len / FZ_PAGE) * FZ_PAGE;
	*a = r.addr + off;
	*len = fz_chance(t, 30) ? r.len - off
				: FZ_PAGE * (1 + fz_below(t, (r.len - off) / FZ_PAGE));
	if (fz_chance(t, 10))
		*a = fz_region_addr(t, &r), *len = fz_len(t, r.len);
	return 0;
}

/* The same, cut to the region's slot: for the calls that take memory
 * away (munmap, mprotect, madvise), which must never reach a thread's
 * scratch buffer in a neighbouring slot.
 */
static int fz_slot_piece(struct fz_thread *t, int kind, uintptr_t *a,
			 size_t *len)
{
	uintptr_t base, end;
	struct fz_region r;

	if (fz_pick_snapshot(t, kind, &r) || !r.len)
		return -1;
	base = r.addr & ~(FZ_SLOT_SIZE - 1);
	end = base + FZ_SLOT_SIZE;
	*a = fz_region_addr(t, &r);
	*len = fz_chance(t, 50) ? fz_len(t, r.len)
				: FZ_PAGE * (1 + fz_below(t, r.len / FZ_PAGE));
	if (*a < base)
		*a = base;
	if (*a >= end)
		*a = end - FZ_PAGE;
	if (*len > end - *a)
		*len = end - *a;
	return 0;
}

/* munmap of a piece: the slot keeps its region (now partly gone). */
static int op_unmap_piece(struct fz_thread *t)
{
	uintptr_t a;
	size_t len;

	if (fz_slot_piece(t, fz_chance(t, 60) ? FZ_MANAGED : -1, &a, &len))
		return 0;
	a &= ~(FZ_PAGE - 1);
	if (!len)
		return 0;
	if (fz_chance(t, 50))
		munmap((void *)a, len);
	return fz_placeholder(a, len);
}

static int fz_mremap_move(struct fz_thread *t, int i)
{
	struct fz_region *r = &t->w->slots[i];
	int j = fz_claim_free(t), flags = MREMAP_MAYMOVE | MREMAP_FIXED;
	uintptr_t dst;
	void *p;

	if (j < 0)
		return 0;
	dst = fz_place(t, j);
	if (fz_chance(t, 20))
		flags |= MREMAP_DONTUNMAP;
	p = mremap((void *)r->addr, r->len, r->len, flags, (void *)dst);
	if (p == MAP_FAILED) {
		fz_release(t->w, j, 0);
		return -errno;
	}
	if (!(flags & MREMAP_DONTUNMAP))
		fz_placeholder(r->addr, r->len);	/* the hole it left */
	t->w->slots[j] = *r;
	t->w->slots[j].state = FZ_SLOT_BUSY;
	t->w->slots[j].addr = dst;
	__atomic_store_n(&t->w->slots[j].state, FZ_SLOT_LIVE, __ATOMIC_RELEASE);
	return 1;
}

/* Shrink, grow in place (into a hole made for it) or move to a free slot. */
static int op_mremap(struct fz_thread *t)
{
	int i = fz_claim_live(t, -1), ret = 0;
	struct fz_region *r;
	uintptr_t end, slot_end;
	size_t nlen;
	void *p;

	if (i < 0)
		return 0;
	r = &t->w->slots[i];
	end = r->addr + r->len;
	slot_end = fz_slot_base(i) + FZ_SLOT_SIZE;
	switch (fz_below(t, 3)) {
	case 0:
		nlen = FZ_PAGE * (1 + fz_below(t, r->len / FZ_PAGE));
		p = mremap((void *)r->addr, r->len, nlen, 0);
		if (p != MAP_FAILED && nlen < r->len) {
			fz_placeholder(r->addr + nlen, r->len - nlen);
			r->len = nlen;
		}
		break;
	case 1:
		nlen = r->len + FZ_PAGE * (1 + fz_below(t, (slot_end - end) / FZ_PAGE));
		if (r->addr + nlen > slot_end)
			break;
		munmap((void *)end, slot_end - end);
		p = mremap((void *)r->addr, r->len, nlen, 0);
		if (p != MAP_FAILED)
			r->len = nlen;
		fz_placeholder(r->addr + r->len, slot_end - r->addr - r->len);
		break;
	default:
		ret = fz_mremap_move(t, i);
		if (ret == 1) {
			__atomic_store_n(&r->state, FZ_SLOT_FREE, __ATOMIC_RELEASE);
			return 0;
		}
	}
	__atomic_store_n(&r->state, FZ_SLOT_LIVE, __ATOMIC_RELEASE);
	return ret;
}

static int op_mprotect(struct fz_thread *t)
{
	uintptr_t a;
	size_t len;

	if (fz_slot_piece(t, -1, &a, &len))
		return 0;
	return mprotect((void *)(a & ~(FZ_PAGE - 1)), len, fz_prot(t)) ? -errno : 0;
}

static const struct {
	int advice;
	const char *name;
} fz_advice[] = {
	{ MADV_NORMAL, "madv_normal" }, { MADV_RANDOM, "madv_random" },
	{ MADV_SEQUENTIAL, "madv_sequential" }, { MADV_WILLNEED, "madv_willneed" },
	{ MADV_DONTNEED, "madv_dontneed" }, { MADV_FREE, "madv_free" },
	{ MADV_REMOVE, "madv_remove" }, { MADV_DONTFORK, "madv_dontfork" },
	{ MADV_DOFORK, "madv_dofork" }, { MADV_MERGEABLE, "madv_mergeable" },
	{ MADV_UNMERGEABLE, "madv_unmergeable" }, { MADV_HUGEPAGE, "madv_hugepage" },
	{ MADV_NOHUGEPAGE, "madv_nohugepage" }, { MADV_DONTDUMP, "madv_dontdump" },
	{ MADV_DODUMP, "madv_dodump" }, { MADV_WIPEONFORK, "madv_wipeonfork" },
	{ MADV_KEEPONFORK, "madv_keeponfork" }, { MADV_COLD, "madv_cold" },
	{ MADV_PAGEOUT, "madv_pageout" }, { MADV_POPULATE_READ, "madv_populate_read" },
	{ MADV_POPULATE_WRITE, "madv_populate_write" },
	{ MADV_DONTNEED_LOCKED, "madv_dontneed_locked" },
	{ MADV_COLLAPSE, "madv_collapse" }, { MADV_HWPOISON, "madv_hwpoison" },
	{ MADV_SOFT_OFFLINE, "madv_soft_offline" }, { 5, "madv_invalid" },
	{ 26, "madv_invalid" }, { -1, "madv_invalid" },
};

static int op_madvise(struct fz_thread *t)
{
	unsigned int k = fz_below(t, FZ_ARRAY_SIZE(fz_advice));
	uintptr_t a;
	size_t len;

	if (fz_skipped(fz_advice[k].name))
		return 0;
	if (fz_slot_piece(t, fz_chance(t, 70) ? FZ_MANAGED : -1, &a, &len))
		return 0;
	if (fz_chance(t, 5))
		a |= 1;		/* unaligned: EINVAL */
	return madvise((void *)a, len, fz_advice[k].advice) ? -errno : 0;
}

static int op_mlock(struct fz_thread *t)
{
	uintptr_t a;
	size_t len;

	if (fz_piece(t, -1, &a, &len))
		return 0;
	switch (fz_below(t, 4)) {
	case 0:
		return mlock((void *)a, len) ? -errno : 0;
	case 1:
		return syscall(SYS_mlock2, a, len, 1 /* MLOCK_ONFAULT */) ? -errno : 0;
	default:
		return munlock((void *)a, len) ? -errno : 0;
	}
}

static int op_msync(struct fz_thread *t)
{
	static const int fl[] = { MS_SYNC, MS_ASYNC, MS_INVALIDATE,
				  MS_SYNC | MS_INVALIDATE, MS_SYNC | MS_ASYNC };
	uintptr_t a;
	size_t len;

	if (fz_piece(t, -1, &a, &len))
		return 0;
	return msync((void *)(a & ~(FZ_PAGE - 1)), len,
		     fl[fz_below(t, FZ_ARRAY_SIZE(fl))]) ? -errno : 0;
}

/* mincore(), /proc/self/pagemap: the kernel walks the page tables. */
static int op_mincore(struct fz_thread *t)
{
	uintptr_t a;
	size_t len, vlen;
	uint64_t vec;
	int fd;

	if (fz_piece(t, -1, &a, &len))
		return 0;
	vlen = len / FZ_PAGE + 1;
	vec = fz_out_addr(t, &vlen);
	if (len / FZ_PAGE + 1 > vlen)
		len = (vlen ? vlen - 1 : 0) * FZ_PAGE;
	if (fz_chance(t, 50))
		return mincore((void *)(a & ~(FZ_PAGE - 1)), len, (void *)vec) ? -errno : 0;
	fd = open("/proc/self/pagemap", O_RDONLY);
	if (fd < 0)
		return -errno;
	vlen = (len / FZ_PAGE + 1) * 8;
	vec = fz_out_addr(t, &vlen);
	if (pread(fd, (void *)vec, vlen, (a / FZ_PAGE) * 8) < 0)
		vlen = 0;
	close(fd);
	return 0;
}

/* mbind, move_pages, get_mempolicy on managed and other regions. */
static int op_numa(struct fz_thread *t)
{
	unsigned long mask = 1UL << fz_below(t, 2);
	void *pages[16];
	int nodes[16], status[16];
	uintptr_t a;
	size_t len;
	unsigned int i, n;

	if (fz_piece(t, fz_chance(t, 70) ? FZ_MANAGED : -1, &a, &len))
		return 0;
	a &= ~(FZ_PAGE - 1);
	switch (fz_below(t, 3)) {
	case 0:
		return syscall(SYS_mbind, a, len, fz_below(t, 6), &mask, 3,
			       fz_chance(t, 50) ? MPOL_MF_MOVE : 0) ? -errno : 0;
	case 1:
		n = 1 + fz_below(t, 16);
		for (i = 0; i < n; i++) {
			pages[i] = (void *)(a + (i % (len / FZ_PAGE + 1)) * FZ_PAGE);
			nodes[i] = fz_below(t, 2);
		}
		return syscall(SYS_move_pages, 0, n, pages,
			       fz_chance(t, 50) ? nodes : NULL, status,
			       fz_chance(t, 50) ? MPOL_MF_MOVE : 0) < 0 ? -errno : 0;
	default:
		return syscall(SYS_get_mempolicy, &i, &mask, 64, a,
			       MPOL_F_NODE | MPOL_F_ADDR) ? -errno : 0;
	}
}

/* mmap(NULL) of /dev/uvm (the module picks the address), used and
 * unmapped by this thread alone.
 */
static int op_managed_ephemeral(struct fz_thread *t)
{
	size_t len = fz_region_len(t);
	int fd = fz_uvm_fd(t);
	void *p;

	p = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	if (p == MAP_FAILED)
		return -errno;
	fz_cpu_touch(t, (uintptr_t)p, len, fz_chance(t, 50));
	fz_ioctl_one(t, fd, fz_below(t, 8));
	if (fz_chance(t, 30))
		fz_set_state(t, fd, (uintptr_t)p, len, fz_below(t, 8));
	fz_cpu_touch(t, (uintptr_t)p, len, fz_chance(t, 50));
	munmap(p, len);
	return 0;
}

struct fz_race {
	uintptr_t a;
	size_t len;
	unsigned int delay;
	int how;
};

static void *fz_race_unmap(void *arg)
{
	struct fz_race *r = arg;
	unsigned int i;

	for (i = 0; i < r->delay; i++)
		__asm__ volatile("" ::: "memory");
	if (r->how)
		munmap((void *)r->a, r->len);
	fz_placeholder(r->a, r->len);
	return NULL;
}

/* HOST_REGISTER of a buffer that another thread unmaps at the same time
 * (whole, or a piece), then HOST_UNREGISTER.
 */
static int op_hostreg_race(struct fz_thread *t)
{
	struct uvm_host_register hr = { .flags = fz_below(t, 16) & ~4U };
	struct uvm_host_unregister u = { 0 };
	int i = fz_claim_free(t), fd = fz_uvm_fd(t);
	struct fz_race r;
	pthread_t tid;
	void *p;

	if (i < 0)
		return 0;
	hr.size = fz_region_len(t);
	hr.addr = fz_place(t, i);
	p = mmap((void *)hr.addr, hr.size, PROT_READ | PROT_WRITE,
		 MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED |
		 (fz_chance(t, 50) ? MAP_POPULATE : 0), -1, 0);
	if (p == MAP_FAILED) {
		fz_release(t->w, i, 0);
		return -errno;
	}
	r.a = hr.addr + (fz_chance(t, 50) ? 0 : fz_below(t, hr.size / FZ_PAGE) * FZ_PAGE);
	r.len = hr.addr + hr.size - r.a;
	r.delay = fz_below(t, 200000);
	r.how = fz_chance(t, 50);
	if (pthread_create(&tid, NULL, fz_race_unmap, &r)) {
		fz_release(t->w, i, 0);
		return -EAGAIN;
	}
	ioctl(fd, UVM_IOCTL_HOST_REGISTER, &hr);
	pthread_join(tid, NULL);
	u.addr = hr.addr;
	ioctl(fd, UVM_IOCTL_HOST_UNREGISTER, &u);
	fz_release(t->w, i, 0);
	return 0;
}

const struct fz_op fz_mm_ops[] = {
	{ "map_managed", op_map_managed, 12 },
	{ "map_device", op_map_device, 5 },
	{ "map_pinned", op_map_pinned, 4 },
	{ "map_registered", op_map_registered, 4 },
	{ "map_anon", op_map_anon, 4 },
	{ "unmap", op_unmap, 20 },
	{ "unmap_piece", op_unmap_piece, 5 },
	{ "mremap", op_mremap, 4 },
	{ "mprotect", op_mprotect, 5 },
	{ "madvise", op_madvise, 10 },
	{ "mlock", op_mlock, 2 },
	{ "msync", op_msync, 2 },
	{ "mincore", op_mincore, 2 },
	{ "numa", op_numa, 3 },
	{ "managed_ephemeral", op_managed_ephemeral, 3 },
	{ "hostreg_race", op_hostreg_race, 2 },
};

const unsigned int fz_mm_nops = FZ_ARRAY_SIZE(fz_mm_ops);
