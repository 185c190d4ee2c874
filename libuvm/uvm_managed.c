// SPDX-License-Identifier: MIT
/*
 * uvm_managed.c - native API for managed memory (include/uvm/uvm.h).
 *
 * DOC: Managed allocations
 *
 * A managed allocation is an mmap() of the context's /dev/uvm file; the
 * module owns every policy and residency bit of it (the library never
 * shadows kernel state). The library keeps one table per context of what
 * it mapped: base, requested and mapped size, the flags, the device current
 * at allocation and a process-unique buffer id that is never reused. The
 * table answers pointer queries and lets the CUDA layer validate ranges of
 * asynchronous operations before they are queued. It is a sorted array
 * under a rwlock: lookups are binary searches, inserts and removals are
 * rare compared with queries.
 */
#include <errno.h>
#include <numa.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>

#include "uvm_kabi.h"

_Static_assert(sizeof(struct uvm_page_info) == sizeof(struct uvm_page_residency), "page");
_Static_assert(offsetof(struct uvm_page_info, cpu_node) ==
	       offsetof(struct uvm_page_residency, cpu_node), "page");
_Static_assert(offsetof(struct uvm_page_info, devices_mapped) ==
	       offsetof(struct uvm_page_residency, devices_mapped), "page");
_Static_assert(UVM_PAGE_INFO_READ_DUPLICATED == UVM_PAGE_READ_DUPLICATED, "page flags");
_Static_assert(UVM_MEM_LOC_HOST_NUMA_CURRENT == UVM_LOC_HOST_NUMA_CURRENT, "loc");
_Static_assert(UVM_MEM_ADVISE_UNSET_ACCESSED_BY == UVM_ADVISE_UNSET_ACCESSED_BY, "advice");
_Static_assert(UVM_COUNTER_PAGES_FREED == UVM_STAT_PAGES_FREED, "counters");
_Static_assert(UVM_COUNTER_DISCARDED_PAGES == UVM_STAT_DISCARDED_PAGES, "counters");
_Static_assert(UVM_COUNTER_CPU_DEVICE_MAPS == UVM_STAT_CPU_DEVICE_MAPS, "counters");
_Static_assert(UVM_COUNTER_POOL_REUSED == UVM_STAT_POOL_REUSED, "counters");
_Static_assert(UVM_COUNTER_FAULT_AHEAD_PAGES == UVM_STAT_FAULT_AHEAD_PAGES, "counters");
_Static_assert(UVM_COUNTER_PINNED_SKIPS == UVM_STAT_PINNED_SKIPS, "counters");
_Static_assert(UVM_COUNTER_EVICT_BUSY == UVM_STAT_EVICT_BUSY, "counters");
_Static_assert(UVM_COUNTER_FAULT_PREFETCH_PAGES == UVM_STAT_FAULT_PREFETCH_PAGES,
	       "counters");
_Static_assert(UVM_COUNTER_THRASH_PINNED == UVM_STAT_THRASH_PINNED, "counters");
_Static_assert(UVM_COUNTER_PREFETCH_USED_PAGES == UVM_STAT_PREFETCH_USED_PAGES,
	       "counters");
_Static_assert(UVM_COUNTER_PAGEABLE_TO_HOST == UVM_STAT_PAGEABLE_TO_HOST,
	       "counters");
_Static_assert(UVM_STATS_SCOPE_GLOBAL == UVM_STATS_GLOBAL, "scope");

/*
 * Buffer ids are process-wide, start at 1 and are never reused. Bit 63 is
 * set so they never collide with the module's ids of device and pinned
 * allocations (which count up from 1 per module lifetime).
 */
#define UVM_MANAGED_BUFFER_ID_BIT	(1ULL << 63)
static atomic_uint_fast64_t uvm_next_buffer_id = 1;

size_t uvm_page_size(void)
{
	return (size_t)sysconf(_SC_PAGESIZE);
}

int uvm_alloc_table_init(struct uvm_alloc_table *t)
{
	t->v = NULL;
	t->n = t->cap = 0;
	return -pthread_rwlock_init(&t->lock, NULL);
}

/* Unmaps whatever is still allocated: the context goes away with it. */
void uvm_alloc_table_release(struct uvm_context *ctx)
{
	struct uvm_alloc_table *t = &ctx->allocs;
	size_t i;

	for (i = 0; i < t->n; i++)
		munmap((void *)t->v[i].base, t->v[i].map_size);
	free(t->v);
	pthread_rwlock_destroy(&t->lock);
}

/* Index of the first entry with base > addr. Caller holds the lock. */
static size_t alloc_upper_bound(const struct uvm_alloc_table *t, uintptr_t addr)
{
	size_t lo = 0, hi = t->n, mid;

	while (lo < hi) {
		mid = lo + (hi - lo) / 2;
		if (t->v[mid].base <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/* Entry containing @addr in its mapping, or NULL. Caller holds the lock. */
static struct uvm_alloc *alloc_find_locked(const struct uvm_alloc_table *t, uintptr_t addr)
{
	size_t i = alloc_upper_bound(t, addr);
	struct uvm_alloc *a;

	if (!i)
		return NULL;
	a = &t->v[i - 1];
	return addr - a->base < a->map_size ? a : NULL;
}

static int alloc_insert(struct uvm_alloc_table *t, const struct uvm_alloc *a)
{
	struct uvm_alloc *v;
	size_t i;
	int ret = 0;

	pthread_rwlock_wrlock(&t->lock);
	if (t->n == t->cap) {
		size_t cap = t->cap ? 2 * t->cap : 16;

		v = realloc(t->v, cap * sizeof(*v));
		if (!v) {
			ret = -ENOMEM;
			goto out_unlock;
		}
		t->v = v;
		t->cap = cap;
	}
	i = alloc_upper_bound(t, a->base);
	memmove(&t->v[i + 1], &t->v[i], (t->n - i) * sizeof(*v));
	t->v[i] = *a;
	t->n++;
out_unlock:
	pthread_rwlock_unlock(&t->lock);
	return ret;
}

/* Remove the entry based exactly at @base; its copy goes to @out. */
static int alloc_remove(struct uvm_alloc_table *t, uintptr_t base, struct uvm_alloc *out)
{
	struct uvm_alloc *a;
	size_t i;
	int ret = -EINVAL;

	pthread_rwlock_wrlock(&t->lock);
	a = alloc_find_locked(t, base);
	if (a && a->base == base) {
		*out = *a;
		i = (size_t)(a - t->v);
		memmove(a, a + 1, (t->n - i - 1) * sizeof(*a));
		t->n--;
		ret = 0;
	}
	pthread_rwlock_unlock(&t->lock);
	return ret;
}

/*
 * mmap() the context's file: anywhere (@at NULL), or exactly at @at
 * (MAP_FIXED_NOREPLACE: -EEXIST where anything is mapped there; a kernel
 * that takes the flag as a plain hint is checked too).
 */
static int managed_map(struct uvm_context *ctx, void *at, size_t size, size_t *map_size,
		       void **out)
{
	size_t page = uvm_page_size();
	void *p;

	/* Sizes whose page rounding overflows, or beyond any address space. */
	if (size > (size_t)PTRDIFF_MAX - page)
		return -ENOMEM;
	*map_size = (size + page - 1) & ~(page - 1);
	p = mmap(at, *map_size, PROT_READ | PROT_WRITE,
		 MAP_SHARED | (at ? MAP_FIXED_NOREPLACE : 0), ctx->fd, 0);
	if (p == MAP_FAILED)
		return errno == EEXIST ? -EEXIST : errno == EINVAL ? -EINVAL : -ENOMEM;
	if (at && p != at) {
		munmap(p, *map_size);
		return -EEXIST;
	}
	*out = p;
	return 0;
}

/* uvm_managed_alloc_dev(), at @at if not NULL. */
static int managed_alloc(struct uvm_context *ctx, void *at, size_t size, uint32_t flags,
			 int32_t device, void **out)
{
	struct uvm_alloc a = { .flags = flags ? flags : UVM_MANAGED_ATTACH_GLOBAL,
			       .device = device, .size = size };
	void *p;
	int ret;

	ret = managed_map(ctx, at, size, &a.map_size, &p);
	if (ret)
		return ret;
	a.base = (uintptr_t)p;
	a.attach = a.flags;
	a.buffer_id = UVM_MANAGED_BUFFER_ID_BIT | atomic_fetch_add(&uvm_next_buffer_id, 1);
	ret = alloc_insert(&ctx->allocs, &a);
	if (ret) {
		munmap(p, a.map_size);
		return ret;
	}
	*out = p;
	return 0;
}

int uvm_managed_alloc_dev(struct uvm_context *ctx, size_t size, uint32_t flags,
			  int32_t device, void **out)
{
	return managed_alloc(ctx, NULL, size, flags, device, out);
}

int uvm_managed_lookup(struct uvm_context *ctx, uintptr_t addr, struct uvm_alloc *out)
{
	struct uvm_alloc *a;
	int ret = -ENOENT;

	pthread_rwlock_rdlock(&ctx->allocs.lock);
	a = alloc_find_locked(&ctx->allocs, addr);
	if (a) {
		*out = *a;
		ret = 0;
	}
	pthread_rwlock_unlock(&ctx->allocs.lock);
	return ret;
}

bool uvm_managed_covers(struct uvm_context *ctx, uintptr_t addr, size_t len)
{
	size_t page = uvm_page_size();
	uintptr_t start = addr & ~(page - 1), end;
	struct uvm_alloc *a;
	bool ok = true;

	if (!len || addr + len < addr)
		return false;
	end = addr + len;
	pthread_rwlock_rdlock(&ctx->allocs.lock);
	while (ok && start < end) {
		a = alloc_find_locked(&ctx->allocs, start);
		ok = a != NULL;
		if (ok)
			start = a->base + a->map_size;
	}
	pthread_rwlock_unlock(&ctx->allocs.lock);
	return ok;
}

int uvm_managed_set_attach(struct uvm_context *ctx, uintptr_t base, uint32_t attach,
			   const void *stream)
{
	struct uvm_alloc *a;
	int ret = -ENOENT;

	pthread_rwlock_wrlock(&ctx->allocs.lock);
	a = alloc_find_locked(&ctx->allocs, base);
	if (a && a->base == base) {
		a->attach = attach;
		a->attach_stream = stream;
		ret = 0;
	}
	pthread_rwlock_unlock(&ctx->allocs.lock);
	return ret;
}

void uvm_managed_detach_stream(struct uvm_context *ctx, const void *stream)
{
	size_t i;

	pthread_rwlock_wrlock(&ctx->allocs.lock);
	for (i = 0; i < ctx->allocs.n; i++) {
		if (ctx->allocs.v[i].attach_stream == stream) {
			ctx->allocs.v[i].attach = ctx->allocs.v[i].flags;
			ctx->allocs.v[i].attach_stream = NULL;
		}
	}
	pthread_rwlock_unlock(&ctx->allocs.lock);
}

bool uvm_numa_node_valid(int node)
{
	if (node < 0)
		return false;
	if (numa_available() < 0)
		return node == 0;
	if (node > numa_max_node() || !numa_bitmask_isbitset(numa_nodes_ptr, (unsigned int)node))
		return false;
	return numa_node_size64(node, NULL) > 0;
}

/* ---- public entry points ----------------------------------------------- */

uvm_public int uvm_context_fd(struct uvm_context *ctx)
{
	return ctx ? ctx->fd : -EINVAL;
}

uvm_public int uvm_managed_alloc(struct uvm_context *ctx, size_t size, uint32_t flags, void **out)
{
	if (!ctx || !out || !size || flags > UVM_MANAGED_ATTACH_HOST)
		return -EINVAL;
	return uvm_managed_alloc_dev(ctx, size, flags, -1, out);
}

uvm_public int uvm_managed_alloc_at(struct uvm_context *ctx, void *addr, size_t size,
				    uint32_t flags, void **out)
{
	if (!ctx || !out || !size || !addr || (uintptr_t)addr % uvm_page_size() ||
	    flags > UVM_MANAGED_ATTACH_HOST)
		return -EINVAL;
	return managed_alloc(ctx, addr, size, flags, -1, out);
}

uvm_public int uvm_managed_free(struct uvm_context *ctx, void *ptr)
{
	struct uvm_alloc a;
	int ret;

	if (!ctx)
		return -EINVAL;
	ret = alloc_remove(&ctx->allocs, (uintptr_t)ptr, &a);
	if (ret)
		return ret;
	return munmap(ptr, a.map_size) ? -errno : 0;
}

uvm_public int uvm_managed_query(struct uvm_context *ctx, const void *ptr,
				 struct uvm_managed_info *info)
{
	struct uvm_alloc a;
	int ret;

	if (!ctx || !info)
		return -EINVAL;
	ret = uvm_managed_lookup(ctx, (uintptr_t)ptr, &a);
	if (ret)
		return ret;
	memset(info, 0, sizeof(*info));
	info->base = a.base;
	info->size = a.size;
	info->buffer_id = a.buffer_id;
	info->flags = a.flags;
	info->device = a.device;
	return 0;
}

static struct uvm_location loc_to_kernel(struct uvm_mem_location loc)
{
	return (struct uvm_location){ .type = loc.type, .id = loc.id };
}

static struct uvm_mem_location loc_from_kernel(struct uvm_location loc)
{
	return (struct uvm_mem_location){ .type = loc.type, .id = loc.id };
}

uvm_public int uvm_prefetch(struct uvm_context *ctx, const void *ptr, size_t len,
			    struct uvm_mem_location loc)
{
	struct uvm_prefetch args;

	if (!ctx)
		return -EINVAL;
	uvm_memclear(args);
	args.addr = (uintptr_t)ptr;
	args.length = len;
	args.dst = loc_to_kernel(loc);
	return uvm_ioctl(ctx->fd, UVM_IOCTL_PREFETCH, &args);
}

/*
 * uvm_prefetch() for a queued prefetch: HOST_NUMA_CURRENT comes resolved
 * by its caller (the node in @loc.id) and is recorded as HOST_NUMA_CURRENT;
 * any other location goes as it is.
 */
int uvm_prefetch_current(struct uvm_context *ctx, const void *ptr, size_t len,
			 struct uvm_mem_location loc)
{
	struct uvm_prefetch args;

	if (loc.type != UVM_MEM_LOC_HOST_NUMA_CURRENT)
		return uvm_prefetch(ctx, ptr, len, loc);
	if (!ctx)
		return -EINVAL;
	uvm_memclear(args);
	args.addr = (uintptr_t)ptr;
	args.length = len;
	args.dst = (struct uvm_location){ .type = UVM_LOC_HOST_NUMA, .id = loc.id };
	args.flags = UVM_PREFETCH_NUMA_CURRENT;
	return uvm_ioctl(ctx->fd, UVM_IOCTL_PREFETCH, &args);
}

uvm_public int uvm_advise(struct uvm_context *ctx, const void *ptr, size_t len, uint32_t advice,
			  struct uvm_mem_location loc)
{
	struct uvm_advise args;

	if (!ctx)
		return -EINVAL;
	uvm_memclear(args);
	args.addr = (uintptr_t)ptr;
	args.length = len;
	args.advice = advice;
	args.loc = loc_to_kernel(loc);
	return uvm_ioctl(ctx->fd, UVM_IOCTL_ADVISE, &args);
}

uvm_public int uvm_range_attrs(struct uvm_context *ctx, const void *ptr, size_t len,
			       struct uvm_range_info *info)
{
	struct uvm_range_attrs args;
	int ret;

	if (!ctx || !info)
		return -EINVAL;
	uvm_memclear(args);
	args.addr = (uintptr_t)ptr;
	args.length = len;
	ret = uvm_ioctl(ctx->fd, UVM_IOCTL_RANGE_ATTRS, &args);
	if (ret)
		return ret;
	memset(info, 0, sizeof(*info));
	info->read_mostly = args.read_mostly;
	info->accessed_by_host = args.accessed_by_host;
	info->preferred = loc_from_kernel(args.preferred);
	info->last_prefetch = loc_from_kernel(args.last_prefetch);
	info->accessed_by_devices = args.accessed_by_devices;
	return 0;
}

uvm_public int uvm_residency(struct uvm_context *ctx, const void *ptr, size_t npages,
			     struct uvm_page_info *pages)
{
	struct uvm_residency args;

	if (!ctx || !pages)
		return -EINVAL;
	uvm_memclear(args);
	args.addr = (uintptr_t)ptr;
	args.npages = npages;
	args.pages = (uintptr_t)pages;
	return uvm_ioctl(ctx->fd, UVM_IOCTL_RESIDENCY, &args);
}

uvm_public int uvm_stats(struct uvm_context *ctx, uint32_t scope, uint64_t *values,
			 unsigned int count)
{
	struct uvm_stats args;
	int ret;

	if (!ctx || (count && !values))
		return -EINVAL;
	uvm_memclear(args);
	args.values = (uintptr_t)values;
	args.count = count;
	args.scope = scope;
	ret = uvm_ioctl(ctx->fd, UVM_IOCTL_STATS, &args);
	return ret ? ret : (int)args.count;
}
