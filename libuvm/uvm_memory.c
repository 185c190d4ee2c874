// SPDX-License-Identifier: MIT
/*
 * uvm_memory.c - native API for device, pinned and registered memory,
 * pointer queries, copies, fills, device accesses and discard
 * (include/uvm/uvm.h).
 *
 * DOC: Device and host allocations
 *
 * uvm_device_alloc()/uvm_host_alloc() are UVM_IOCTL_ALLOC_DEVICE/_HOST
 * followed by an mmap() of the context's /dev/uvm file at the returned
 * cookie: the VMA gives the allocation its unified address. uvm_mem_free()
 * asks the module what lives at the address (UVM_IOCTL_PTR_INFO), frees it
 * by address (UVM_IOCTL_FREE) and unmaps the then dead VMA. The library
 * keeps no table of these allocations: every question about a pointer is
 * answered by the module.
 */
#include <errno.h>
#include <sys/mman.h>

#include "uvm_kabi.h"

_Static_assert(UVM_POINTER_DEVICE == UVM_PTR_DEVICE, "ptr type");
_Static_assert(UVM_POINTER_HOST_ALLOC == UVM_PTR_HOST_ALLOC, "ptr type");
_Static_assert(UVM_POINTER_MANAGED == UVM_PTR_MANAGED, "ptr type");
_Static_assert(UVM_POINTER_HOST_REGISTERED == UVM_PTR_HOST_REGISTERED, "ptr type");
_Static_assert(UVM_HOST_ALLOC_FLAG_WRITECOMBINED == UVM_HOST_ALLOC_WRITECOMBINED, "flags");
_Static_assert(UVM_HOST_REGISTER_FLAG_READONLY == UVM_HOST_REGISTER_READONLY, "flags");
_Static_assert(sizeof(struct uvm_device_access_op) == sizeof(struct uvm_access), "access");
_Static_assert(offsetof(struct uvm_device_access_op, type) == offsetof(struct uvm_access, type),
	       "access");
_Static_assert(UVM_DEVICE_ACCESS_ATOMIC_ADD == UVM_ACCESS_ATOMIC_ADD, "access");

static int map_cookie(struct uvm_context *ctx, uint64_t offset, uint64_t size, void **out)
{
	void *p;

	p = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_SHARED, ctx->fd, (off_t)offset);
	if (p == MAP_FAILED)
		return -errno;
	*out = p;
	return 0;
}

/* An allocation that never got its VA: free it by handle. */
static void free_handle(struct uvm_context *ctx, uint64_t handle)
{
	struct uvm_free args;

	uvm_memclear(args);
	args.handle = handle;
	uvm_ioctl(ctx->fd, UVM_IOCTL_FREE, &args);
}

uvm_public int uvm_device_alloc(struct uvm_context *ctx, unsigned int device, size_t size,
				void **out)
{
	struct uvm_alloc_device args;
	int ret;

	if (!ctx || !out || !size)
		return -EINVAL;
	uvm_memclear(args);
	args.size = size;
	args.device = device;
	ret = uvm_ioctl(ctx->fd, UVM_IOCTL_ALLOC_DEVICE, &args);
	if (ret)
		return ret;
	ret = map_cookie(ctx, args.mmap_offset, args.map_size, out);
	if (ret)
		free_handle(ctx, args.handle);
	return ret;
}

uvm_public int uvm_host_alloc(struct uvm_context *ctx, size_t size, uint32_t flags, int numa_node,
			      void **out)
{
	struct uvm_alloc_host args;
	int ret;

	if (!ctx || !out || !size)
		return -EINVAL;
	uvm_memclear(args);
	args.size = size;
	args.flags = flags;
	args.numa_node = numa_node;
	ret = uvm_ioctl(ctx->fd, UVM_IOCTL_ALLOC_HOST, &args);
	if (ret)
		return ret;
	ret = map_cookie(ctx, args.mmap_offset, args.map_size, out);
	if (ret)
		free_handle(ctx, args.handle);
	return ret;
}

uvm_public int uvm_ptr_info(struct uvm_context *ctx, const void *ptr, struct uvm_pointer_info *info)
{
	struct uvm_ptr_info args;
	int ret;

	if (!ctx || !info)
		return -EINVAL;
	uvm_memclear(args);
	args.addr = (uintptr_t)ptr;
	ret = uvm_ioctl(ctx->fd, UVM_IOCTL_PTR_INFO, &args);
	if (ret)
		return ret;
	memset(info, 0, sizeof(*info));
	info->type = args.type;
	info->device = args.device;
	info->base = args.base;
	info->size = args.size;
	info->dev_addr = args.dev_addr;
	info->host_addr = args.host_addr;
	info->buffer_id = args.buffer_id;
	info->flags = args.alloc_flags;
	return 0;
}

uvm_public int uvm_mem_free(struct uvm_context *ctx, void *base)
{
	struct uvm_pointer_info pi;
	struct uvm_free args;
	int ret;

	if (!ctx)
		return -EINVAL;
	ret = uvm_ptr_info(ctx, base, &pi);
	if (ret)
		return ret;
	if (pi.type != UVM_POINTER_DEVICE && pi.type != UVM_POINTER_HOST_ALLOC)
		return -ENOENT;
	if (pi.base != (uintptr_t)base)
		return -EINVAL;
	uvm_memclear(args);
	args.addr = pi.base;
	ret = uvm_ioctl(ctx->fd, UVM_IOCTL_FREE, &args);
	if (ret)
		return ret;
	/* The VMA is dead now; removing it cannot fail for a whole VMA. */
	munmap(base, pi.size);
	return 0;
}

uvm_public int uvm_host_register(struct uvm_context *ctx, void *ptr, size_t size, uint32_t flags)
{
	struct uvm_host_register args;

	if (!ctx)
		return -EINVAL;
	uvm_memclear(args);
	args.addr = (uintptr_t)ptr;
	args.size = size;
	args.flags = flags;
	return uvm_ioctl(ctx->fd, UVM_IOCTL_HOST_REGISTER, &args);
}

uvm_public int uvm_host_unregister(struct uvm_context *ctx, void *ptr)
{
	struct uvm_host_unregister args;

	if (!ctx)
		return -EINVAL;
	uvm_memclear(args);
	args.addr = (uintptr_t)ptr;
	return uvm_ioctl(ctx->fd, UVM_IOCTL_HOST_UNREGISTER, &args);
}

uvm_public int uvm_memcpy(struct uvm_context *ctx, const struct uvm_copy_desc *d)
{
	struct uvm_memcpy args;

	if (!ctx || !d)
		return -EINVAL;
	uvm_memclear(args);
	args.dst = d->dst;
	args.src = d->src;
	args.dst_pitch = d->dst_pitch;
	args.src_pitch = d->src_pitch;
	args.width = d->width;
	args.height = d->height;
	args.depth = d->depth;
	args.dst_rows = d->dst_rows;
	args.src_rows = d->src_rows;
	return uvm_ioctl(ctx->fd, UVM_IOCTL_MEMCPY, &args);
}

uvm_public int uvm_memset(struct uvm_context *ctx, const struct uvm_fill_desc *d)
{
	struct uvm_memset args;

	if (!ctx || !d)
		return -EINVAL;
	uvm_memclear(args);
	args.dst = d->dst;
	args.pitch = d->pitch;
	args.width = d->width;
	args.height = d->height;
	args.depth = d->depth;
	args.rows = d->rows;
	args.value = d->value;
	args.elem_size = d->elem_size;
	return uvm_ioctl(ctx->fd, UVM_IOCTL_MEMSET, &args);
}

uvm_public int uvm_mem_counters(struct uvm_context *ctx, struct uvm_mem_counters_info *info)
{
	struct uvm_mem_counters args;
	int ret;

	if (!ctx || !info)
		return -EINVAL;
	uvm_memclear(args);
	ret = uvm_ioctl(ctx->fd, UVM_IOCTL_MEM_COUNTERS, &args);
	if (ret)
		return ret;
	memset(info, 0, sizeof(*info));
	info->pinned_pages = args.pinned_pages;
	info->host_alloc_pages = args.host_alloc_pages;
	info->ctx_pinned_pages = args.va_pinned_pages;
	info->ctx_host_alloc_pages = args.va_host_alloc_pages;
	info->ctx_device_bytes = args.va_device_bytes;
	return 0;
}

uvm_public int uvm_device_access(struct uvm_context *ctx, unsigned int device,
				 struct uvm_device_access_op *ops, unsigned int count,
				 unsigned int *faults)
{
	struct uvm_device_access args;
	int ret;

	if (!ctx || !ops)
		return -EINVAL;
	uvm_memclear(args);
	args.device = device;
	args.count = count;
	args.accesses = (uintptr_t)ops;
	ret = uvm_ioctl(ctx->fd, UVM_IOCTL_DEVICE_ACCESS, &args);
	if (!ret && faults)
		*faults = args.faults;
	return ret;
}

uvm_public int uvm_discard(struct uvm_context *ctx, const void *ptr, size_t len,
			   const struct uvm_mem_location *prefetch)
{
	struct uvm_discard args;

	if (!ctx)
		return -EINVAL;
	uvm_memclear(args);
	args.addr = (uintptr_t)ptr;
	args.length = len;
	if (prefetch) {
		args.flags = UVM_DISCARD_PREFETCH;
		args.dst.type = prefetch->type;
		args.dst.id = prefetch->id;
	}
	return uvm_ioctl(ctx->fd, UVM_IOCTL_DISCARD, &args);
}
