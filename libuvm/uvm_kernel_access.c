// SPDX-License-Identifier: MIT
/*
 * uvm_kernel_access.c - performing one step of a kernel's accesses
 * (uvm_kernel_int.h, docs/kernels.md).
 *
 * Managed memory and pageable memory are reached through the device's page
 * table (UVM_IOCTL_DEVICE_ACCESS: faults, migrations). Device memory
 * (cudaMalloc), pinned host memory (cudaMallocHost) and registered memory
 * are not on that path: the module maps them to the CPU as driver memory,
 * which the device-access ioctl refuses. A device reaches them without
 * faults, so their accesses are the module's copies (UVM_IOCTL_MEMCPY)
 * between the memory and the access's buffer; an 8-byte atomic add on them
 * is a read and a write under one lock of the library's, atomic against
 * every other kernel's atomics. Consecutive accesses of one kind are one
 * call, in the step's order; consecutive reads (writes) of contiguous bytes
 * into (from) a contiguous buffer are one copy.
 */
#include <errno.h>
#include <unistd.h>

#include "uvm_kernel_int.h"

static pthread_mutex_t ka_atomic_lock = PTHREAD_MUTEX_INITIALIZER;

/*
 * The cached kind of [addr, addr + len): 1 copy, 0 access, -1 not cached;
 * the end of its range in *@hi.
 */
static int ka_cached(const struct uvm_ka_cache *c, uintptr_t addr, uint64_t len,
		     uintptr_t *hi)
{
	unsigned int i;

	for (i = 0; i < UVM_KA_RANGES; i++) {
		if (addr >= c->r[i].lo && addr - c->r[i].lo < c->r[i].hi - c->r[i].lo &&
		    len <= c->r[i].hi - addr) {
			*hi = c->r[i].hi;
			return c->r[i].copy;
		}
	}
	return -1;
}

static void ka_remember(struct uvm_ka_cache *c, uintptr_t lo, uintptr_t hi, bool copy)
{
	unsigned int i = c->next++ % UVM_KA_RANGES;

	c->r[i].lo = lo;
	c->r[i].hi = hi;
	c->r[i].copy = copy;
}

/*
 * Does the access at @addr go through a copy (device, pinned, registered
 * memory)? If so, *@hi is the end of its allocation.
 */
static bool ka_is_copy(struct uvm_ka_cache *c, uintptr_t addr, uint64_t len, uintptr_t *hi)
{
	struct uvm_context *ctx = uvm_cuda_context();
	struct uvm_pointer_info pi;
	struct uvm_alloc a;
	uintptr_t page = (uintptr_t)uvm_page_size();
	int k = ka_cached(c, addr, len, hi);

	if (k >= 0)
		return k;
	if (!uvm_managed_lookup(ctx, addr, &a)) {
		ka_remember(c, a.base, a.base + a.map_size, false);
		return false;
	}
	if (!uvm_ptr_info(ctx, (const void *)addr, &pi) &&
	    (pi.type == UVM_POINTER_DEVICE || pi.type == UVM_POINTER_HOST_ALLOC ||
	     pi.type == UVM_POINTER_HOST_REGISTERED)) {
		ka_remember(c, pi.base, pi.base + pi.size, true);
		*hi = pi.base + pi.size;
		return true;
	}
	/* Pageable memory, or nothing: the module decides, page by page. */
	ka_remember(c, addr & ~(page - 1), (addr & ~(page - 1)) + page, false);
	return false;
}

static int ka_copy(struct uvm_context *ctx, uint64_t dst, uint64_t src, uint64_t len)
{
	struct uvm_copy_desc d = {
		.dst = dst, .src = src, .dst_pitch = len, .src_pitch = len,
		.width = len, .height = 1, .depth = 1, .dst_rows = 1, .src_rows = 1,
	};

	return uvm_memcpy(ctx, &d);
}

static int ka_atomic_add(struct uvm_context *ctx, const struct uvm_device_access_op *a)
{
	uint64_t old, sum;
	int ret;

	pthread_mutex_lock(&ka_atomic_lock);
	ret = ka_copy(ctx, (uintptr_t)&old, a->addr, 8);
	if (!ret) {
		memcpy(&sum, (const void *)(uintptr_t)a->buf, 8);
		sum += old;
		ret = ka_copy(ctx, a->addr, (uintptr_t)&sum, 8);
	}
	pthread_mutex_unlock(&ka_atomic_lock);
	if (!ret)
		memcpy((void *)(uintptr_t)a->buf, &old, 8);
	return ret;
}

/* Does @b continue @a: the same kind, the next bytes of memory and buffer? */
static bool ka_follows(const struct uvm_device_access_op *a, const struct uvm_device_access_op *b)
{
	return a->type == b->type && a->type != UVM_DEVICE_ACCESS_ATOMIC_ADD &&
	       b->addr == a->addr + a->length && b->buf == a->buf + a->length;
}

/*
 * The @n accesses @ops to device, pinned or registered memory, each
 * following the one before (ka_follows()), inside one allocation: one copy.
 */
static int ka_copies(struct uvm_context *ctx, const struct uvm_device_access_op *ops,
		     unsigned int n)
{
	const struct uvm_device_access_op *last = &ops[n - 1];
	uint64_t len = last->addr + last->length - ops[0].addr;

	switch (ops[0].type) {
	case UVM_DEVICE_ACCESS_READ:
		return ka_copy(ctx, ops[0].buf, ops[0].addr, len);
	case UVM_DEVICE_ACCESS_WRITE:
		return ka_copy(ctx, ops[0].addr, ops[0].buf, len);
	default:
		return ka_atomic_add(ctx, &ops[0]);
	}
}

/* The module refuses the address (the form was checked): an illegal address. */
static int ka_errno(int ret)
{
	if (ret == -EINVAL || ret == -EFAULT || ret == -EPERM || ret == -EACCES)
		return -EADDRNOTAVAIL;
	return ret;
}

int uvm_kernel_access(struct uvm_ka_cache *c, unsigned int device,
		      struct uvm_device_access_op *ops, unsigned int n, unsigned int *faults)
{
	struct uvm_context *ctx = uvm_cuda_context();
	unsigned int i = 0, j, f;
	uintptr_t hi;
	int ret;

	*faults = 0;
	while (i < n) {
		if (ka_is_copy(c, ops[i].addr, ops[i].length, &hi)) {
			for (j = i + 1; j < n && ka_follows(&ops[j - 1], &ops[j]) &&
			     ops[j].addr + ops[j].length <= hi; j++)
				;
			ret = ka_copies(ctx, ops + i, j - i);
			if (ret)
				return ka_errno(ret);
			i = j;
			continue;
		}
		for (j = i + 1; j < n && !ka_is_copy(c, ops[j].addr, ops[j].length, &hi); j++)
			;
		f = 0;
		ret = uvm_device_access(ctx, device, ops + i, j - i, &f);
		if (ret)
			return ka_errno(ret);
		*faults += f;
		i = j;
	}
	return 0;
}
