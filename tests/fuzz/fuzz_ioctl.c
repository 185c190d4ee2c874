// SPDX-License-Identifier: GPL-2.0
/*
 * fuzz_ioctl.c - every ioctl of /dev/uvm and of the render nodes, with
 * fields drawn from the interesting values: live region edges, overflowing
 * lengths, device and node ids in and out of range, random flags and pads.
 * The argument struct itself sometimes lives in managed memory, a device
 * mapping or nowhere; output buffers point into managed memory, device
 * mappings, NULL and kernel addresses (fz_out_addr() keeps every write in
 * the arena).
 *
 * fz_set_state() puts a range in one of the residency states (host node
 * 0/1, device, read-duplicated, remote-mapped, discarded, device-written)
 * for the access operations.
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <unistd.h>

#include "fuzz.h"
#include "../../include/uapi/uvm_drm.h"

#define FZ_DA_BUF	(2 * FZ_MIB)	/* device-access buffers in scratch */

/* Mostly zero (flags, pads), sometimes not. */
static uint32_t fz_zero(struct fz_thread *t)
{
	return fz_chance(t, 92) ? 0 : fz_u32(t);
}

/* A guarded copy of @n bytes: 0, or the signal that stopped it. */
static int fz_copy_to(struct fz_thread *t, uintptr_t dst, const void *src,
		      size_t n)
{
	volatile char *d = (volatile char *)dst;
	const char *s = src;
	int sig;
	size_t i;

	sig = sigsetjmp(t->env, 1);
	if (sig) {
		t->guarded = 0;
		return sig;
	}
	t->guarded = 1;
	for (i = 0; i < n; i++)
		d[i] = s[i];
	t->guarded = 0;
	return 0;
}

/* Issue @cmd with @arg placed on the stack (mostly), in managed memory,
 * in a device mapping or at an address no one can touch.
 */
static int fz_call(struct fz_thread *t, int fd, unsigned long cmd, void *arg,
		   size_t size)
{
	struct fz_region r;
	uintptr_t where;

	if (fz_chance(t, 88))
		return ioctl(fd, cmd, arg) ? -errno : 0;
	if (fz_chance(t, 30))
		return ioctl(fd, cmd, (void *)fz_wild_addr(t)) ? -errno : 0;
	if (fz_pick_snapshot(t, fz_chance(t, 70) ? FZ_MANAGED : FZ_DEVICE, &r))
		return ioctl(fd, cmd, arg) ? -errno : 0;
	where = fz_region_addr(t, &r);
	if (!fz_is_arena(where) || !fz_is_arena(where + size))
		return 0;
	if (r.kind == FZ_MANAGED)
		fz_copy_to(t, where, arg, size);
	return ioctl(fd, cmd, (void *)where) ? -errno : 0;
}

/* A range: a piece of a live region of @kind (any when -1) or wild. */
static void fz_range(struct fz_thread *t, int kind, __u64 *a, __u64 *len)
{
	struct fz_region r;

	if (fz_chance(t, 8) || fz_pick_snapshot(t, kind, &r)) {
		*a = fz_chance(t, 50) ? fz_wild_addr(t) : fz_in_addr(t);
		*len = fz_len(t, FZ_PAGE);
		return;
	}
	*a = fz_region_addr(t, &r);
	if (fz_chance(t, 60)) {
		*a = r.addr + (fz_below(t, r.len) & ~(FZ_PAGE - 1));
		*len = FZ_PAGE * (1 + fz_below(t, (r.addr + r.len - *a) / FZ_PAGE));
	} else {
		*len = fz_len(t, r.len);
	}
}

static struct uvm_location fz_loc(struct fz_thread *t)
{
	struct uvm_location l = { .type = fz_below(t, 5), .id = 0 };

	if (fz_chance(t, 5))
		l.type = fz_u32(t);
	if (l.type == UVM_LOC_DEVICE)
		l.id = fz_dev_id(t);
	else if (l.type == UVM_LOC_HOST_NUMA)
		l.id = fz_node_id(t);
	if (fz_chance(t, 5))
		l.id = (int32_t)fz_u32(t);
	return l;
}

static int io_get_info(struct fz_thread *t, int fd)
{
	struct uvm_get_info a = { .flags = fz_zero(t) };
	size_t len;

	a.devices_count = fz_chance(t, 70) ? fz_below(t, 8) : fz_u32(t);
	len = (size_t)a.devices_count * sizeof(struct uvm_device_info);
	if (len > 64 * sizeof(struct uvm_device_info))
		len = 64 * sizeof(struct uvm_device_info);
	a.devices = fz_out_addr(t, &len);
	if (len < (size_t)t->w->ndev * sizeof(struct uvm_device_info) &&
	    a.devices_count > len / sizeof(struct uvm_device_info))
		a.devices_count = len / sizeof(struct uvm_device_info);
	return fz_call(t, fd, UVM_IOCTL_GET_INFO, &a, sizeof(a));
}

static int io_test_devmem(struct fz_thread *t, int fd)
{
	static __thread uint64_t handles[4];
	struct uvm_test_devmem a = {
		.op = fz_chance(t, 90) ? 1 + fz_below(t, 4) : fz_u32(t),
		.device = fz_dev_id(t),
		.handle = handles[fz_below(t, 4)],
		.size = fz_chance(t, 70) ? 1 + fz_below(t, 2 * FZ_PAGE) : fz_len(t, FZ_PAGE),
		.offset = fz_chance(t, 70) ? fz_below(t, FZ_PAGE) : fz_len(t, 0),
		.flags = fz_zero(t), .pad = fz_zero(t),
	};
	size_t len = a.size;
	int ret;

	if (a.op == UVM_TEST_DEVMEM_READ) {
		a.buf = fz_out_addr(t, &len);
		if (len < a.size)
			a.size = len ? len : 1;
	} else if (a.op == UVM_TEST_DEVMEM_WRITE) {
		a.buf = fz_in_addr(t);
	} else if (fz_chance(t, 5)) {
		a.buf = fz_in_addr(t);
	}
	if (fz_chance(t, 5))
		a.handle = fz_rand(t);
	ret = fz_call(t, fd, UVM_IOCTL_TEST_DEVMEM, &a, sizeof(a));
	if (!ret && a.op == UVM_TEST_DEVMEM_ALLOC)
		handles[fz_below(t, 4)] = a.handle;
	return ret;
}

static int io_prefetch(struct fz_thread *t, int fd)
{
	struct uvm_prefetch a = { .dst = fz_loc(t), .flags = fz_zero(t),
				  .pad = fz_zero(t) };

	fz_range(t, fz_chance(t, 85) ? FZ_MANAGED : -1, &a.addr, &a.length);
	return fz_call(t, fd, UVM_IOCTL_PREFETCH, &a, sizeof(a));
}

static int io_advise(struct fz_thread *t, int fd)
{
	struct uvm_advise a = { .advice = fz_chance(t, 95) ? fz_below(t, 8) : fz_u32(t),
				.flags = fz_zero(t), .loc = fz_loc(t) };

	if (fz_chance(t, 50) && (a.advice <= 2 || a.advice == 4))
		memset(&a.loc, 0, sizeof(a.loc));
	fz_range(t, fz_chance(t, 85) ? FZ_MANAGED : -1, &a.addr, &a.length);
	return fz_call(t, fd, UVM_IOCTL_ADVISE, &a, sizeof(a));
}

static int io_range_attrs(struct fz_thread *t, int fd)
{
	struct uvm_range_attrs a = { .flags = fz_zero(t), .pad = fz_zero(t) };

	fz_range(t, fz_chance(t, 85) ? FZ_MANAGED : -1, &a.addr, &a.length);
	return fz_call(t, fd, UVM_IOCTL_RANGE_ATTRS, &a, sizeof(a));
}

static int io_residency(struct fz_thread *t, int fd)
{
	static const uint64_t odd[] = { 0, 1 << 20, (1 << 20) + 1, ~0ULL, 1ULL << 59 };
	struct uvm_residency a = { .flags = fz_zero(t), .pad = fz_zero(t) };
	__u64 len;
	size_t out;

	fz_range(t, fz_chance(t, 85) ? FZ_MANAGED : -1, &a.addr, &len);
	a.npages = fz_chance(t, 90) ? 1 + fz_below(t, len / FZ_PAGE + 2)
				    : odd[fz_below(t, FZ_ARRAY_SIZE(odd))];
	out = a.npages <= (1 << 20) ? a.npages * sizeof(struct uvm_page_residency) : FZ_PAGE;
	a.pages = fz_out_addr(t, &out);
	if (a.npages <= (1 << 20) && out < a.npages * sizeof(struct uvm_page_residency))
		a.npages = out / sizeof(struct uvm_page_residency);
	return fz_call(t, fd, UVM_IOCTL_RESIDENCY, &a, sizeof(a));
}

static int io_stats(struct fz_thread *t, int fd)
{
	struct uvm_stats a = {
		.count = fz_chance(t, 80) ? fz_below(t, UVM_STAT_COUNT + 4) : fz_u32(t),
		.scope = fz_chance(t, 90) ? fz_below(t, 2) : fz_u32(t),
		.flags = fz_zero(t), .pad = fz_zero(t),
	};
	size_t out = 64 * 8;

	a.values = fz_out_addr(t, &out);
	if (out < 64 * 8 && a.count > out / 8)
		a.count = out / 8;
	return fz_call(t, fd, UVM_IOCTL_STATS, &a, sizeof(a));
}

/* One access: a managed address mostly, its buffer in or out. */
static void fz_access(struct fz_thread *t, struct uvm_access *x)
{
	int kind = -1;
	__u64 len;
	size_t out;

	/* managed memory, pageable memory (uvm_pageable.c), anything */
	if (fz_chance(t, 80))
		kind = FZ_MANAGED;
	else if (fz_chance(t, 60))
		kind = fz_chance(t, 50) ? FZ_ANON : FZ_FILE;
	fz_range(t, kind, &x->addr, &len);
	x->type = fz_chance(t, 95) ? 1 + fz_below(t, 3) : fz_u32(t);
	x->length = fz_chance(t, 80) ? 1 + fz_below(t, 2 * FZ_PAGE) : fz_len(t, len);
	x->pad = fz_zero(t);
	if (x->type == UVM_ACCESS_ATOMIC_ADD && fz_chance(t, 85)) {
		x->length = 8;
		x->addr &= ~7ULL;
	}
	if (x->type == UVM_ACCESS_WRITE) {
		x->buf = fz_in_addr(t);
		return;
	}
	out = x->length;
	x->buf = fz_out_addr(t, &out);
	if (out < x->length)
		x->length = out ? out : 1;
}

static int io_device_access(struct fz_thread *t, int fd)
{
	static const uint32_t odd[] = { 0, UVM_ACCESS_MAX, UVM_ACCESS_MAX + 1, ~0U };
	struct uvm_access *acc = (void *)(t->scratch + FZ_DA_BUF);
	struct uvm_device_access a = {
		.device = fz_dev_id(t), .flags = fz_zero(t),
		.count = fz_chance(t, 95) ? 1 + fz_below(t, 16)
					  : odd[fz_below(t, 4)],
		.accesses = (uintptr_t)acc,
	};
	unsigned int i, n = a.count < 64 ? a.count : 64;
	struct fz_region r;

	for (i = 0; i < n; i++)
		fz_access(t, &acc[i]);
	if (a.count > 64 && a.count <= UVM_ACCESS_MAX)
		a.count = 64;
	if (fz_chance(t, 10) && !fz_pick_snapshot(t, FZ_MANAGED, &r) &&
	    r.len >= n * sizeof(*acc) &&
	    !fz_copy_to(t, r.addr, acc, n * sizeof(*acc)))
		a.accesses = r.addr;	/* the list in managed memory */
	else if (fz_chance(t, 3))
		a.accesses = fz_wild_addr(t);
	return fz_call(t, fd, UVM_IOCTL_DEVICE_ACCESS, &a, sizeof(a));
}

static int io_discard(struct fz_thread *t, int fd)
{
	struct uvm_discard a = {
		.flags = fz_chance(t, 90) ? fz_below(t, 2) : fz_u32(t),
		.pad = fz_zero(t),
	};

	if (a.flags || fz_chance(t, 5))
		a.dst = fz_loc(t);
	fz_range(t, fz_chance(t, 85) ? FZ_MANAGED : -1, &a.addr, &a.length);
	return fz_call(t, fd, UVM_IOCTL_DISCARD, &a, sizeof(a));
}

static int io_summary(struct fz_thread *t, int fd)
{
	struct uvm_va_space_summary a = { .flags = fz_zero(t), .pad = fz_zero(t) };

	return fz_call(t, fd, UVM_IOCTL_VA_SPACE_SUMMARY, &a, sizeof(a));
}

/* The VA space's policies: mostly valid overrides and resets, some junk. */
static int io_perf(struct fz_thread *t, int fd)
{
	struct uvm_perf a = {
		.version = fz_chance(t, 95) ? UVM_PERF_VERSION : fz_u32(t),
		.set = fz_chance(t, 90) ? fz_below(t, UVM_PERF_ALL + 1) : fz_u32(t),
		.flags = fz_chance(t, 80) ? 0 : fz_below(t, 3),
		.evict_policy = fz_chance(t, 90) ? fz_below(t, UVM_EVICT_COUNT) : fz_u32(t),
		.fault_batch = fz_chance(t, 90) ? 1 + fz_below(t, 512) : fz_u32(t),
		.evict_seed = fz_u32(t),
		.prefetch_policy = fz_chance(t, 90) ? fz_below(t, UVM_PREFETCH_COUNT) : fz_u32(t),
		.prefetch_threshold = fz_chance(t, 90) ? 1 + fz_below(t, 100) : fz_u32(t),
		.prefetch_pages = fz_chance(t, 90) ? 1 + fz_below(t, 4096) : fz_u32(t),
		.pad = fz_chance(t, 97) ? 0 : fz_u32(t) | 1,
		.cap_device = fz_chance(t, 90) ? fz_below(t, 4) : fz_u32(t),
		.cap_bytes = fz_chance(t, 70) ? (uint64_t)fz_below(t, 65) << 21 :
			     (uint64_t)fz_u32(t) << fz_below(t, 33),
	};

	if (fz_chance(t, 50)) {
		a.thrash_policy = fz_chance(t, 90) ? fz_below(t, UVM_THRASH_COUNT) : fz_u32(t);
		a.thrash_threshold = fz_chance(t, 90) ? 1 + fz_below(t, 8) : fz_u32(t);
		a.thrash_window_us = fz_chance(t, 90) ? 1 + fz_below(t, 100000) : fz_u32(t);
		a.thrash_nap_us = fz_chance(t, 90) ? 1 + fz_below(t, 2000) : fz_u32(t);
		a.thrash_pin_ms = fz_chance(t, 90) ? 1 + fz_below(t, 100) : fz_u32(t);
	}
	if (fz_chance(t, 30)) {
		a.set = 0;
		a.flags = 0;
		return fz_call(t, fd, UVM_IOCTL_PERF_GET, &a, sizeof(a));
	}
	return fz_call(t, fd, UVM_IOCTL_PERF_SET, &a, sizeof(a));
}

static int io_alloc_device(struct fz_thread *t, int fd)
{
	struct uvm_alloc_device a = {
		.size = fz_chance(t, 70) ? FZ_PAGE * (1 + fz_below(t, 512)) : fz_len(t, 0),
		.device = fz_dev_id(t), .flags = fz_zero(t),
	};
	struct uvm_free f = { 0 };
	int ret = fz_call(t, fd, UVM_IOCTL_ALLOC_DEVICE, &a, sizeof(a));

	if (!ret && fz_chance(t, 85)) {
		f.handle = a.handle;
		ioctl(fd, UVM_IOCTL_FREE, &f);
	}
	return ret;
}

static int io_alloc_host(struct fz_thread *t, int fd)
{
	struct uvm_alloc_host a = {
		.size = fz_chance(t, 70) ? FZ_PAGE * (1 + fz_below(t, 64)) : fz_len(t, 0),
		.flags = fz_chance(t, 90) ? fz_below(t, 8) : fz_u32(t),
		.numa_node = fz_chance(t, 40) ? -1 : fz_node_id(t),
	};
	struct uvm_free f = { 0 };
	int ret = fz_call(t, fd, UVM_IOCTL_ALLOC_HOST, &a, sizeof(a));

	if (!ret && fz_chance(t, 85)) {
		f.handle = a.handle;
		ioctl(fd, UVM_IOCTL_FREE, &f);
	}
	return ret;
}

static int io_free(struct fz_thread *t, int fd)
{
	struct uvm_free a = { .flags = fz_zero(t), .pad = fz_zero(t) };
	struct fz_region r;

	if (!fz_pick_snapshot(t, fz_chance(t, 50) ? FZ_DEVICE : FZ_PINNED, &r)) {
		a.addr = fz_chance(t, 70) ? r.addr : fz_region_addr(t, &r);
		if (fz_chance(t, 10))
			a.handle = r.handle;
	} else if (fz_chance(t, 50)) {
		a.handle = fz_below(t, 64);
	} else {
		a.addr = fz_in_addr(t);
	}
	return fz_call(t, fd, UVM_IOCTL_FREE, &a, sizeof(a));
}

static int io_host_register(struct fz_thread *t, int fd)
{
	struct uvm_host_register a = {
		.flags = fz_chance(t, 90) ? fz_below(t, 16) : fz_u32(t),
		.pad = fz_zero(t),
	};

	fz_range(t, fz_chance(t, 60) ? FZ_ANON : -1, &a.addr, &a.size);
	return fz_call(t, fd, UVM_IOCTL_HOST_REGISTER, &a, sizeof(a));
}

static int io_host_unregister(struct fz_thread *t, int fd)
{
	struct uvm_host_unregister a = { .flags = fz_zero(t), .pad = fz_zero(t) };
	struct fz_region r;

	if (!fz_pick_snapshot(t, fz_chance(t, 70) ? FZ_REGISTERED : -1, &r))
		a.addr = fz_chance(t, 70) ? r.addr : fz_region_addr(t, &r);
	else
		a.addr = fz_in_addr(t);
	return fz_call(t, fd, UVM_IOCTL_HOST_UNREGISTER, &a, sizeof(a));
}

static int io_ptr_info(struct fz_thread *t, int fd)
{
	struct uvm_ptr_info a = { .addr = fz_in_addr(t), .flags = fz_zero(t) };

	return fz_call(t, fd, UVM_IOCTL_PTR_INFO, &a, sizeof(a));
}

/* End of a 3D extent; 0 if it overflows. */
static uint64_t fz_extent_end(uint64_t p, uint64_t pitch, uint64_t w,
			      uint64_t h, uint64_t d, uint64_t rows)
{
	uint64_t a, b, end;

	if (!h || !d)
		return p + w;
	if (__builtin_mul_overflow(pitch, rows, &a) ||
	    __builtin_mul_overflow(a, d - 1, &a) ||
	    __builtin_mul_overflow(pitch, h - 1, &b) ||
	    __builtin_add_overflow(a, b, &a) ||
	    __builtin_add_overflow(a, w, &a) ||
	    __builtin_add_overflow(a, p, &end))
		return 0;
	return end;
}

/* Keep a destination extent where a write is harmless: the arena and its
 * guard, or out of user space (the kernel refuses it whole).
 */
static void fz_clamp_dst(uint64_t dst, uint64_t pitch, __u64 *w, __u64 *h,
			 __u64 *d, uint64_t rows)
{
	uint64_t end = fz_extent_end(dst, pitch, *w, *h, *d, rows);
	uint64_t limit = FZ_ARENA_BASE + FZ_ARENA_SIZE + FZ_GUARD;

	if (!end || end > FZ_TASK_SIZE || !dst)
		return;
	if (fz_is_arena(dst) && end <= limit)
		return;
	*h = 1;
	*d = 1;
	if (!fz_is_arena(dst)) {
		if (*w > FZ_PAGE / 2)
			*w = FZ_PAGE / 2;
	} else if (dst + *w > limit) {
		*w = limit - dst;
	}
}

static uint64_t fz_dim(struct fz_thread *t)
{
	static const uint64_t odd[] = { 0, 1, 2, ~0ULL, 1ULL << 32, 1ULL << 62 };

	return fz_chance(t, 85) ? 1 + fz_below(t, 4) : odd[fz_below(t, 6)];
}

static int io_memcpy(struct fz_thread *t, int fd)
{
	struct uvm_memcpy a = { .flags = fz_zero(t), .pad = fz_zero(t) };
	size_t w = fz_chance(t, 80) ? 1 + fz_below(t, 4 * FZ_PAGE) : fz_len(t, 0);

	a.src = fz_in_addr(t);
	a.dst = fz_out_addr(t, &w);
	a.width = w;
	a.height = fz_dim(t);
	a.depth = fz_dim(t);
	a.src_pitch = fz_chance(t, 80) ? a.width + fz_below(t, 64) : fz_len(t, 0);
	a.dst_pitch = fz_chance(t, 80) ? a.width + fz_below(t, 64) : fz_len(t, 0);
	a.src_rows = fz_chance(t, 80) ? a.height + fz_below(t, 3) : fz_dim(t);
	a.dst_rows = fz_chance(t, 80) ? a.height + fz_below(t, 3) : fz_dim(t);
	fz_clamp_dst(a.dst, a.dst_pitch, &a.width, &a.height, &a.depth, a.dst_rows);
	return fz_call(t, fd, UVM_IOCTL_MEMCPY, &a, sizeof(a));
}

static int io_memset(struct fz_thread *t, int fd)
{
	static const uint32_t es[] = { 1, 2, 4, 0, 3, 8 };
	struct uvm_memset a = {
		.value = fz_u32(t), .elem_size = es[fz_below(t, 6)],
		.flags = fz_zero(t), .pad = fz_zero(t),
	};
	size_t w = fz_chance(t, 80) ? 1 + fz_below(t, 4 * FZ_PAGE) : fz_len(t, 0);

	a.dst = fz_out_addr(t, &w);
	a.width = w;
	if (fz_chance(t, 70) && a.elem_size && a.elem_size <= 4) {
		a.dst &= ~(uint64_t)(a.elem_size - 1);
		a.width &= ~(uint64_t)(a.elem_size - 1);
		a.value &= a.elem_size == 4 ? ~0U : (1U << (8 * a.elem_size)) - 1;
	}
	a.height = fz_dim(t);
	a.depth = fz_dim(t);
	a.pitch = fz_chance(t, 80) ? a.width + 4 * fz_below(t, 16) : fz_len(t, 0);
	a.rows = fz_chance(t, 80) ? a.height + fz_below(t, 3) : fz_dim(t);
	fz_clamp_dst(a.dst, a.pitch, &a.width, &a.height, &a.depth, a.rows);
	return fz_call(t, fd, UVM_IOCTL_MEMSET, &a, sizeof(a));
}

static int io_mem_counters(struct fz_thread *t, int fd)
{
	struct uvm_mem_counters a = { .flags = fz_zero(t), .pad = fz_zero(t) };

	return fz_call(t, fd, UVM_IOCTL_MEM_COUNTERS, &a, sizeof(a));
}

/* Any number, direction and size: the dispatcher's own checks. */
static int io_random(struct fz_thread *t, int fd)
{
	static const unsigned int nrs[] = {
		0x80, 0x81, 0x82, 0x83, 0x84, 0x85, 0x86, 0x87, 0x88, 0x89,
		0x90, 0x91, 0x92, 0x93, 0x94, 0x95, 0x96, 0x97, 0x98, 0x99,
		0xf0, 0x00, 0xff, 0x7f,
	};
	unsigned int dir = fz_below(t, 4), nr, type, size;
	uint64_t arg = (uintptr_t)t->scratch + FZ_DA_BUF - 16384;

	nr = fz_chance(t, 80) ? nrs[fz_below(t, FZ_ARRAY_SIZE(nrs))] : fz_below(t, 256);
	type = fz_chance(t, 90) ? UVM_IOCTL_BASE : fz_below(t, 256);
	size = fz_chance(t, 70) ? 8 * fz_below(t, 64) : fz_below(t, 1U << 14);
	if (fz_chance(t, 10))
		arg = fz_wild_addr(t);
	return ioctl(fd, _IOC(dir, type, nr, size), (void *)arg) ? -errno : 0;
}

/* The render nodes: DRM_IOCTL_UVM_INFO and numbers the driver lacks. */
static int io_drm(struct fz_thread *t, int fd)
{
	struct drm_uvm_info a = { .flags = fz_zero(t), .pad = fz_zero(t) };
	int dfd;

	(void)fd;
	if (!t->w->ndrm)
		return 0;
	dfd = t->w->drm[fz_below(t, t->w->ndrm)];
	if (fz_chance(t, 20))
		return ioctl(dfd, DRM_IOWR(DRM_COMMAND_BASE + fz_below(t, 0x60),
					   struct drm_uvm_info),
			     &a) ? -errno : 0;
	if (fz_chance(t, 10))
		return ioctl(dfd, DRM_IOCTL_UVM_INFO, (void *)fz_wild_addr(t)) ? -errno : 0;
	return fz_call(t, dfd, DRM_IOCTL_UVM_INFO, &a, sizeof(a));
}

/*
 * An event stream: mostly valid opens with random types and ring sizes,
 * some junk; a valid one is read (blocking never: O_NONBLOCK, buffers of
 * any size, some wild), polled and closed at once or left to the exit.
 */
static int io_events(struct fz_thread *t, int fd)
{
	struct uvm_events_open a = {
		.version = fz_chance(t, 95) ? UVM_EVENTS_VERSION : fz_u32(t),
		.flags = fz_chance(t, 85) ? 0 : fz_below(t, 4),
		.types = fz_chance(t, 90) ? fz_u32(t) & ((1u << UVM_EVENT_COUNT) - 1) :
			 (uint64_t)fz_u32(t) << fz_below(t, 40),
		.ring_records = fz_chance(t, 85) ? 16u << fz_below(t, 13) : fz_u32(t),
	};
	struct uvm_event buf[4];
	struct pollfd pfd;
	int ret = fz_call(t, fd, UVM_IOCTL_EVENTS_OPEN, &a, sizeof(a));

	if (ret || a.fd < 0)
		return ret;
	fcntl(a.fd, F_SETFL, O_NONBLOCK);
	if (fz_chance(t, 10))
		(void)!read(a.fd, (void *)fz_wild_addr(t), sizeof(buf));
	else
		(void)!read(a.fd, buf, fz_below(t, sizeof(buf) + 1));
	pfd = (struct pollfd){ .fd = a.fd, .events = POLLIN };
	poll(&pfd, 1, 0);
	if (fz_chance(t, 95))
		close(a.fd);
	return 0;
}

typedef int fz_io_fn(struct fz_thread *t, int fd);

static fz_io_fn *const fz_io[] = {
	io_prefetch, io_advise, io_range_attrs, io_residency, io_device_access,
	io_discard, io_stats, io_summary, io_get_info, io_test_devmem,
	io_alloc_device, io_alloc_host, io_free, io_host_register,
	io_host_unregister, io_ptr_info, io_memcpy, io_memset, io_mem_counters,
	io_random, io_drm, io_perf, io_events,
};

/* Their names for --skip / --only (parts of the ioctl operations). */
static const char *const fz_io_names[] = {
	"io_prefetch", "io_advise", "io_range_attrs", "io_residency",
	"io_device_access", "io_discard", "io_stats", "io_summary",
	"io_get_info", "io_test_devmem", "io_alloc_device", "io_alloc_host",
	"io_free", "io_host_register", "io_host_unregister", "io_ptr_info",
	"io_memcpy", "io_memset", "io_mem_counters", "io_random", "io_drm",
	"io_perf", "io_events",
};

/* Ioctl @which (any index: taken modulo the table) on @fd. */
int fz_ioctl_one(struct fz_thread *t, int fd, unsigned int which)
{
	_Static_assert(FZ_ARRAY_SIZE(fz_io) == FZ_ARRAY_SIZE(fz_io_names),
		       "one name per ioctl generator");
	which %= FZ_ARRAY_SIZE(fz_io);
	if (fz_skipped(fz_io_names[which]))
		return 0;
	return fz_io[which](t, fd);
}

static int op_ioctl(struct fz_thread *t)
{
	return fz_ioctl_one(t, fz_uvm_fd(t), fz_below(t, FZ_ARRAY_SIZE(fz_io)));
}

/* Managed-memory ioctls only (the ones that move data). */
static int op_ioctl_managed(struct fz_thread *t)
{
	return fz_ioctl_one(t, fz_uvm_fd(t), fz_below(t, 6));
}

/* Device reads or writes of up to 16 pages of [a, a + len). */
static int fz_device_touch(struct fz_thread *t, int fd, uintptr_t a,
			   size_t len, int dev, uint32_t type)
{
	struct uvm_access *acc = (void *)(t->scratch + FZ_DA_BUF);
	char *buf = t->scratch + FZ_DA_BUF + 64 * sizeof(*acc);
	struct uvm_device_access d = { .device = dev, .accesses = (uintptr_t)acc };
	size_t pages = (len + FZ_PAGE - 1) / FZ_PAGE;
	unsigned int i;

	d.count = pages < 16 ? pages : 16;
	for (i = 0; i < d.count; i++) {
		acc[i] = (struct uvm_access) {
			.addr = (a & ~7UL) + fz_below(t, pages) * FZ_PAGE,
			.length = 8, .type = type,
			.buf = (uintptr_t)(buf + i * 8),
		};
	}
	return ioctl(fd, UVM_IOCTL_DEVICE_ACCESS, &d) ? -errno : 0;
}

static int fz_advise(int fd, uintptr_t a, size_t len, uint32_t advice,
		     uint32_t type, int32_t id)
{
	struct uvm_advise ad = { .addr = a, .length = len, .advice = advice,
				 .loc = { type, id } };

	return ioctl(fd, UVM_IOCTL_ADVISE, &ad) ? -errno : 0;
}

static int fz_prefetch(int fd, uintptr_t a, size_t len, uint32_t type,
		       int32_t id)
{
	struct uvm_prefetch p = { .addr = a, .length = len, .dst = { type, id } };

	return ioctl(fd, UVM_IOCTL_PREFETCH, &p) ? -errno : 0;
}

/* Put [a, a + len) in residency state @state (see the top of the file). */
int fz_set_state(struct fz_thread *t, int fd, uintptr_t a, size_t len,
		 unsigned int state)
{
	int dev = t->w->ndev ? fz_below(t, t->w->ndev) : 0;
	struct uvm_discard dc = { .addr = a, .length = len };

	switch (state % 8) {
	case 0:
	case 1:
		return fz_prefetch(fd, a, len, UVM_LOC_HOST_NUMA, state % 8);
	case 2:
		return fz_prefetch(fd, a, len, UVM_LOC_DEVICE, dev);
	case 3:
		fz_advise(fd, a, len, UVM_ADVISE_SET_READ_MOSTLY, 0, 0);
		fz_device_touch(t, fd, a, len, dev, UVM_ACCESS_READ);
		fz_cpu_touch(t, a, len, 0);
		return 0;
	case 4:
		fz_advise(fd, a, len, UVM_ADVISE_SET_PREFERRED_LOCATION,
			  UVM_LOC_HOST_NUMA, fz_below(t, 2));
		fz_advise(fd, a, len, UVM_ADVISE_SET_ACCESSED_BY,
			  UVM_LOC_DEVICE, dev);
		return fz_device_touch(t, fd, a, len, dev, 1 + fz_below(t, 3));
	case 5:
		if (fz_chance(t, 30)) {
			dc.flags = UVM_DISCARD_PREFETCH;
			dc.dst = (struct uvm_location){ UVM_LOC_DEVICE, dev };
		}
		return ioctl(fd, UVM_IOCTL_DISCARD, &dc) ? -errno : 0;
	case 6:
		fz_advise(fd, a, len, UVM_ADVISE_UNSET_READ_MOSTLY, 0, 0);
		fz_advise(fd, a, len, UVM_ADVISE_UNSET_PREFERRED_LOCATION, 0, 0);
		return fz_advise(fd, a, len, UVM_ADVISE_UNSET_ACCESSED_BY,
				 UVM_LOC_DEVICE, dev);
	default:
		return fz_device_touch(t, fd, a, len, dev, UVM_ACCESS_WRITE);
	}
}

/* A piece of a managed region into a random state. */
static int op_state(struct fz_thread *t)
{
	struct fz_region r;
	uintptr_t a;
	size_t len;

	if (fz_pick_snapshot(t, FZ_MANAGED, &r))
		return 0;
	a = r.addr + (fz_below(t, r.len) & ~(FZ_PAGE - 1));
	len = FZ_PAGE * (1 + fz_below(t, (r.addr + r.len - a) / FZ_PAGE));
	return fz_set_state(t, r.fd, a, len, fz_below(t, 8));
}

const struct fz_op fz_ioctl_ops[] = {
	{ "ioctl", op_ioctl, 30 },
	{ "ioctl_managed", op_ioctl_managed, 15 },
	{ "state", op_state, 15 },
};

const unsigned int fz_ioctl_nops = FZ_ARRAY_SIZE(fz_ioctl_ops);
