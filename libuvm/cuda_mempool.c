// SPDX-License-Identifier: MIT
/*
 * cuda_mempool.c - stream-ordered allocation: cudaMallocAsync,
 * cudaMallocFromPoolAsync, cudaFreeAsync, memory pools and their driver
 * twins cuMemAllocAsync/cuMemFreeAsync.
 *
 * DOC: Memory pools
 *
 * A pool hands out memory of the module (uvm_device_alloc for a device
 * pool, uvm_host_alloc for a host or host-NUMA pool), one module allocation
 * per block. The allocation is made in the caller, so it is valid for
 * everything queued after the call on any stream. A free is one stream
 * item: when the stream reaches it the block goes back to its pool, which
 * keeps it for reuse ("reserved" but not "used"). A later allocation reuses
 * a kept block only once its free has run, so no queued work can still use
 * it; with cudaMemPoolReuseAllowOpportunistic off only blocks freed on the
 * allocating stream are reused. After a synchronisation (stream, event,
 * device) each pool gives kept blocks back to the module until its reserved
 * memory is at most its release threshold (default 0), as CUDA does; an
 * allocation that finds the device full first gives back every kept block
 * of the device's pools and tries again.
 *
 * Pools are never freed: a destroyed pool is a tombstone (a few hundred
 * bytes) whose handle answers cudaErrorInvalidValue; its blocks still in
 * use are released to the module when they are freed. Access descriptors
 * (cudaMemPoolSetAccess) are bookkeeping: every device reaches every
 * allocation through the module.
 *
 * Locking: uvm_pool_lock protects every pool, block and the device tables.
 * Module calls that free memory are made without it.
 */
#include <errno.h>
#include <stdlib.h>

#include "cuda_memory.h"
#include "cuda_ptsz.h"

#undef cuMemAllocAsync
#undef cuMemFreeAsync

CUresult cuMemAllocAsync_ptsz(CUdeviceptr *dptr, size_t bytesize, CUstream hStream);
CUresult cuMemFreeAsync_ptsz(CUdeviceptr dptr, CUstream hStream);

#define UVM_POOL_MAX_DEVICES	32

struct uvm_pool_block {
	struct uvm_pool_block *next;
	uintptr_t base;
	size_t size;			/* as the module allocated it (pages) */
	const void *freed_on;		/* stream of the free that returned it */
	bool freeing;			/* a cudaFreeAsync is queued */
	struct CUmemPoolHandle_st *pool;
};

struct CUmemPoolHandle_st {
	struct CUmemPoolHandle_st *next;	/* every pool, tombstones too */
	struct cudaMemPoolProps props;
	bool is_default, destroyed;
	int reuse[3];			/* attributes 1..3 */
	uint64_t threshold;
	uint64_t reserved, reserved_high, used, used_high;
	struct uvm_pool_block *kept;	/* freed blocks kept for reuse */
	unsigned char access[UVM_POOL_MAX_DEVICES];	/* cudaMemAccessFlags */
};

static pthread_mutex_t uvm_pool_lock = PTHREAD_MUTEX_INITIALIZER;
static struct CUmemPoolHandle_st *uvm_pools;			/* under uvm_pool_lock */
static struct CUmemPoolHandle_st *uvm_default_pool[UVM_POOL_MAX_DEVICES];
static struct CUmemPoolHandle_st *uvm_current_pool[UVM_POOL_MAX_DEVICES];
static struct uvm_pool_block *uvm_live;		/* blocks in use */
static bool uvm_pools_used;			/* any pool ever made (read unlocked) */

/* ---- pools ---------------------------------------------------------------- */

static int device_count(void)
{
	int n = uvm_device_count(uvm_cuda_context());

	return n < UVM_POOL_MAX_DEVICES ? n : UVM_POOL_MAX_DEVICES;
}

static bool pool_is_device(const struct CUmemPoolHandle_st *p)
{
	return p->props.location.type == cudaMemLocationTypeDevice;
}

/* Caller holds uvm_pool_lock. */
static struct CUmemPoolHandle_st *pool_new_locked(const struct cudaMemPoolProps *props)
{
	struct CUmemPoolHandle_st *p = calloc(1, sizeof(*p));

	if (!p)
		return NULL;
	p->props = *props;
	p->reuse[0] = p->reuse[1] = p->reuse[2] = 1;	/* CUDA's defaults */
	if (pool_is_device(p))
		p->access[props->location.id] = cudaMemAccessFlagsProtReadWrite;
	p->next = uvm_pools;
	uvm_pools = p;
	__atomic_store_n(&uvm_pools_used, true, __ATOMIC_RELAXED);
	return p;
}

/* The default pool of @device (valid), made on first use. Caller holds the lock. */
static struct CUmemPoolHandle_st *default_pool_locked(int device)
{
	struct cudaMemPoolProps props = {
		.allocType = cudaMemAllocationTypePinned,
		.location = { cudaMemLocationTypeDevice, device },
	};

	if (!uvm_default_pool[device]) {
		uvm_default_pool[device] = pool_new_locked(&props);
		if (uvm_default_pool[device])
			uvm_default_pool[device]->is_default = true;
	}
	return uvm_default_pool[device];
}

static struct CUmemPoolHandle_st *current_pool_locked(int device)
{
	return uvm_current_pool[device] ? uvm_current_pool[device] : default_pool_locked(device);
}

/* A live pool handle, or NULL. Caller holds the lock. */
static struct CUmemPoolHandle_st *pool_find_locked(const void *h)
{
	struct CUmemPoolHandle_st *p;

	for (p = uvm_pools; p; p = p->next) {
		if (p == h)
			return p->destroyed ? NULL : p;
	}
	return NULL;
}

static void pool_account(struct CUmemPoolHandle_st *p, int64_t reserved, int64_t used)
{
	p->reserved += (uint64_t)reserved;
	p->used += (uint64_t)used;
	if (p->reserved > p->reserved_high)
		p->reserved_high = p->reserved;
	if (p->used > p->used_high)
		p->used_high = p->used;
}

/* ---- blocks ---------------------------------------------------------------- */

static void block_release(struct uvm_pool_block *b)
{
	uvm_mem_free(uvm_cuda_context(), (void *)b->base);
	free(b);
}

static void blocks_release(struct uvm_pool_block *list)
{
	struct uvm_pool_block *b;

	while (list) {
		b = list;
		list = b->next;
		block_release(b);
	}
}

/* Unlink kept blocks of @p until its reserved memory is at most @keep. */
static struct uvm_pool_block *pool_trim_locked(struct CUmemPoolHandle_st *p, uint64_t keep)
{
	struct uvm_pool_block *out = NULL, *b;

	while (p->kept && p->reserved > keep && p->reserved - p->kept->size >= keep) {
		b = p->kept;
		p->kept = b->next;
		p->reserved -= b->size;
		b->next = out;
		out = b;
	}
	return out;
}

/* Everything kept by the pools of @device (-1: all pools) goes back. */
static void pools_trim_all(int device, bool to_threshold)
{
	struct uvm_pool_block *out = NULL, *list, *last;
	struct CUmemPoolHandle_st *p;

	pthread_mutex_lock(&uvm_pool_lock);
	for (p = uvm_pools; p; p = p->next) {
		if (device >= 0 && (!pool_is_device(p) || p->props.location.id != device))
			continue;
		list = pool_trim_locked(p, to_threshold ? p->threshold : 0);
		for (last = list; last && last->next; last = last->next)
			;
		if (last) {
			last->next = out;
			out = list;
		}
	}
	pthread_mutex_unlock(&uvm_pool_lock);
	blocks_release(out);
}

void uvm_mempool_sync_trim(void)
{
	if (__atomic_load_n(&uvm_pools_used, __ATOMIC_RELAXED))
		pools_trim_all(-1, true);
}

/* A kept block of @p for @size bytes freed where @stream may reuse it. */
static struct uvm_pool_block *block_reuse_locked(struct CUmemPoolHandle_st *p, size_t size,
						 const void *stream)
{
	struct uvm_pool_block **pp, *b;

	for (pp = &p->kept; *pp; pp = &(*pp)->next) {
		b = *pp;
		if (b->size < size || b->size / 2 >= size)
			continue;
		if (!p->reuse[cudaMemPoolReuseAllowOpportunistic - 1] && b->freed_on != stream)
			continue;
		*pp = b->next;
		return b;
	}
	return NULL;
}

static int pool_module_alloc(const struct CUmemPoolHandle_st *p, size_t size, void **out)
{
	struct uvm_context *ctx = uvm_cuda_context();
	const struct cudaMemLocation *loc = &p->props.location;

	if (loc->type == cudaMemLocationTypeDevice)
		return uvm_device_alloc(ctx, (unsigned int)loc->id, size, out);
	return uvm_host_alloc(ctx, size, 0, loc->type == cudaMemLocationTypeHostNuma ? loc->id : -1,
			      out);
}

/* A new block from the module (the lock is not held). */
static cudaError_t block_new(struct CUmemPoolHandle_st *p, size_t size, struct uvm_pool_block **out)
{
	size_t page = uvm_page_size();
	struct uvm_pool_block *b;
	void *mem;
	int ret;

	if (size > (size_t)PTRDIFF_MAX - page)
		return cudaErrorMemoryAllocation;
	b = calloc(1, sizeof(*b));
	if (!b)
		return cudaErrorMemoryAllocation;
	b->size = (size + page - 1) & ~(page - 1);
	ret = pool_module_alloc(p, b->size, &mem);
	if (ret == -ENOSPC || ret == -ENOMEM) {
		pools_trim_all(pool_is_device(p) ? p->props.location.id : -1, false);
		ret = pool_module_alloc(p, b->size, &mem);
	}
	if (ret) {
		free(b);
		return cudaErrorMemoryAllocation;
	}
	b->base = (uintptr_t)mem;
	*out = b;
	return cudaSuccess;
}

/* Make @b (new or reused) a live block of @p. Caller holds the lock. */
static void block_use_locked(struct CUmemPoolHandle_st *p, struct uvm_pool_block *b, bool fresh)
{
	b->pool = p;
	b->freeing = false;
	b->next = uvm_live;
	uvm_live = b;
	pool_account(p, fresh ? (int64_t)b->size : 0, (int64_t)b->size);
}

static bool pool_full_locked(const struct CUmemPoolHandle_st *p, size_t size)
{
	return p->props.maxSize && p->reserved + size > p->props.maxSize;
}

static cudaError_t pool_alloc(struct CUmemPoolHandle_st *p, size_t size, const void *stream,
			      void **out)
{
	struct uvm_pool_block *b;
	cudaError_t e;

	pthread_mutex_lock(&uvm_pool_lock);
	b = block_reuse_locked(p, size, stream);
	if (b)
		block_use_locked(p, b, false);
	else if (pool_full_locked(p, size))
		p = NULL;
	pthread_mutex_unlock(&uvm_pool_lock);
	if (!p)
		return cudaErrorMemoryAllocation;
	if (!b) {
		e = block_new(p, size, &b);
		if (e)
			return e;
		pthread_mutex_lock(&uvm_pool_lock);
		block_use_locked(p, b, true);
		pthread_mutex_unlock(&uvm_pool_lock);
	}
	*out = (void *)b->base;
	return cudaSuccess;
}

/* The live block based at @base. Caller holds the lock. */
static struct uvm_pool_block *live_find_locked(uintptr_t base, struct uvm_pool_block ***where)
{
	struct uvm_pool_block **pp;

	for (pp = &uvm_live; *pp; pp = &(*pp)->next) {
		if ((*pp)->base == base) {
			if (where)
				*where = pp;
			return *pp;
		}
	}
	return NULL;
}

/*
 * Give back a live block (unlinked): kept by its pool, or released to the
 * module if the pool was destroyed (or @release). Returns what to release.
 */
static struct uvm_pool_block *block_return_locked(struct uvm_pool_block *b, const void *stream,
						  bool release)
{
	struct CUmemPoolHandle_st *p = b->pool;

	p->used -= b->size;
	if (release || p->destroyed) {
		p->reserved -= b->size;
		return b;
	}
	b->freed_on = stream;
	b->next = p->kept;
	p->kept = b;
	return NULL;
}

bool uvm_mempool_owns(uintptr_t base)
{
	struct uvm_pool_block *b;

	if (!__atomic_load_n(&uvm_pools_used, __ATOMIC_RELAXED))
		return false;
	pthread_mutex_lock(&uvm_pool_lock);
	b = live_find_locked(base, NULL);
	pthread_mutex_unlock(&uvm_pool_lock);
	return b != NULL;
}

/* cudaFree of a pool allocation: released now (the caller drained the streams). */
cudaError_t uvm_mempool_free_now(void *ptr)
{
	struct uvm_pool_block **pp, *b;

	pthread_mutex_lock(&uvm_pool_lock);
	b = live_find_locked((uintptr_t)ptr, &pp);
	if (b && !b->freeing) {
		*pp = b->next;
		b = block_return_locked(b, NULL, true);
	} else {
		b = NULL;
	}
	pthread_mutex_unlock(&uvm_pool_lock);
	if (!b)
		return cudaErrorInvalidValue;
	block_release(b);
	return cudaSuccess;
}

/* ---- the stream item of a free ---------------------------------------------- */

struct uvm_free_work {
	struct uvm_work base;
	uintptr_t addr;
	const void *stream;
	bool pool;			/* a pool block, else cudaMalloc memory */
};

static int free_run(struct uvm_work *w)
{
	struct uvm_free_work *fw = (struct uvm_free_work *)w;
	struct uvm_pool_block **pp, *b;

	if (!fw->pool)
		return uvm_mem_free(uvm_cuda_context(), (void *)fw->addr);
	pthread_mutex_lock(&uvm_pool_lock);
	b = live_find_locked(fw->addr, &pp);
	if (b) {
		*pp = b->next;
		b = block_return_locked(b, fw->stream, false);
	}
	pthread_mutex_unlock(&uvm_pool_lock);
	if (b)
		block_release(b);
	return 0;
}

static void free_release(struct uvm_work *w)
{
	free(w);
}

/* Mark the free of @addr as queued: a pool block (*pool), or cudaMalloc memory. */
static cudaError_t free_claim(uintptr_t addr, bool *pool)
{
	struct uvm_pool_block *b;
	struct uvm_cptr c;
	bool claimed = false;

	pthread_mutex_lock(&uvm_pool_lock);
	b = live_find_locked(addr, NULL);
	if (b && !b->freeing)
		claimed = b->freeing = true;
	pthread_mutex_unlock(&uvm_pool_lock);
	*pool = b != NULL;
	if (b)	/* a second free of the block: InvalidValue */
		return claimed ? cudaSuccess : cudaErrorInvalidValue;
	if (uvm_cuda_ptr((void *)addr, &c) || c.type != UVM_POINTER_DEVICE || c.base != addr)
		return cudaErrorInvalidValue;
	return cudaSuccess;
}

static void free_unclaim(uintptr_t addr)
{
	struct uvm_pool_block *b;

	pthread_mutex_lock(&uvm_pool_lock);
	b = live_find_locked(addr, NULL);
	if (b)
		b->freeing = false;
	pthread_mutex_unlock(&uvm_pool_lock);
}

static cudaError_t free_async(void *ptr, cudaStream_t h, bool ptsz)
{
	struct uvm_free_work *fw;
	struct CUstream_st *s;
	cudaError_t e = uvm_cuda_init();
	bool pool;
	int ret;

	if (e)
		return e;
	if (!ptr)
		return cudaSuccess;	/* nothing to free, as CUDA 13 (answers-h100.txt) */
	e = uvm_stream_get(h, ptsz, &s);
	if (e)
		return e;
	fw = calloc(1, sizeof(*fw));
	e = fw ? free_claim((uintptr_t)ptr, &pool) : cudaErrorMemoryAllocation;
	if (e) {
		free(fw);
		uvm_stream_put(s);
		return e;
	}
	fw->base.run = free_run;
	fw->base.release = free_release;
	fw->addr = (uintptr_t)ptr;
	fw->stream = s;
	fw->pool = pool;
	ret = uvm_stream_submit(s, &fw->base);
	if (ret && pool)
		free_unclaim((uintptr_t)ptr);
	uvm_stream_put(s);
	return uvm_errno_to_cuda(ret);
}

/* ---- allocation entry points ------------------------------------------------- */

/*
 * Allocate from @pool (NULL: the current pool of the stream's device).
 * Size 0 gives NULL and success, as cudaMalloc.
 */
static cudaError_t malloc_async(void **ptr, size_t size, cudaMemPool_t h, cudaStream_t hs,
				bool ptsz)
{
	struct CUmemPoolHandle_st *p;
	struct CUstream_st *s;
	cudaError_t e = uvm_cuda_init();

	if (e)
		return e;
	if (!ptr)
		return cudaErrorInvalidValue;
	e = uvm_stream_get(hs, ptsz, &s);
	if (e)
		return e;
	if (!h && uvm_stream_device(s) >= UVM_POOL_MAX_DEVICES) {
		uvm_stream_put(s);
		return cudaErrorNotSupported;
	}
	pthread_mutex_lock(&uvm_pool_lock);
	p = h ? pool_find_locked(h) : current_pool_locked(uvm_stream_device(s));
	pthread_mutex_unlock(&uvm_pool_lock);
	if (!p)
		e = h ? cudaErrorInvalidValue : cudaErrorMemoryAllocation;
	else if (!size)
		*ptr = NULL;
	else
		e = pool_alloc(p, size, s, ptr);
	uvm_stream_put(s);
	return e;
}

uvm_public cudaError_t cudaMallocAsync(void **devPtr, size_t size, cudaStream_t hStream)
{
	return uvm_cuda_set_error(malloc_async(devPtr, size, NULL, hStream, false));
}

uvm_public cudaError_t cudaMallocAsync_ptsz(void **devPtr, size_t size, cudaStream_t hStream)
{
	return uvm_cuda_set_error(malloc_async(devPtr, size, NULL, hStream, true));
}

static cudaError_t malloc_from_pool(void **ptr, size_t size, cudaMemPool_t pool,
				    cudaStream_t stream, bool ptsz)
{
	cudaError_t e = uvm_cuda_init();

	if (e)
		return e;
	return pool ? malloc_async(ptr, size, pool, stream, ptsz) : cudaErrorInvalidValue;
}

uvm_public cudaError_t cudaMallocFromPoolAsync(void **ptr, size_t size, cudaMemPool_t memPool,
					       cudaStream_t stream)
{
	return uvm_cuda_set_error(malloc_from_pool(ptr, size, memPool, stream, false));
}

uvm_public cudaError_t cudaMallocFromPoolAsync_ptsz(void **ptr, size_t size,
						    cudaMemPool_t memPool, cudaStream_t stream)
{
	return uvm_cuda_set_error(malloc_from_pool(ptr, size, memPool, stream, true));
}

uvm_public cudaError_t cudaFreeAsync(void *devPtr, cudaStream_t hStream)
{
	return uvm_cuda_set_error(free_async(devPtr, hStream, false));
}

uvm_public cudaError_t cudaFreeAsync_ptsz(void *devPtr, cudaStream_t hStream)
{
	return uvm_cuda_set_error(free_async(devPtr, hStream, true));
}

/* ---- pools: create, destroy, per device -------------------------------------- */

static bool bytes_zero(const unsigned char *b, size_t n)
{
	while (n--) {
		if (*b++)
			return false;
	}
	return true;
}

static cudaError_t props_check(const struct cudaMemPoolProps *pp)
{
	const struct cudaMemLocation *loc = &pp->location;

	if (pp->allocType == cudaMemAllocationTypeManaged)
		return cudaErrorNotSupported;	/* managed pools: not implemented */
	if (pp->allocType != cudaMemAllocationTypePinned || pp->win32SecurityAttributes ||
	    !bytes_zero(pp->reserved, sizeof(pp->reserved)))
		return cudaErrorInvalidValue;
	if (pp->usage & ~(unsigned int)cudaMemPoolCreateUsageHwDecompress)
		return cudaErrorInvalidValue;
	switch (loc->type) {
	case cudaMemLocationTypeDevice:
		if (uvm_cuda_check_device(loc->id) || loc->id >= UVM_POOL_MAX_DEVICES)
			return cudaErrorInvalidValue;
		break;
	case cudaMemLocationTypeHostNuma:
		if (!uvm_numa_node_valid(loc->id))
			return cudaErrorInvalidValue;
		/* fall through */
	case cudaMemLocationTypeHost:
		if (pp->handleTypes)
			return cudaErrorInvalidValue;
		break;
	default:
		return cudaErrorInvalidValue;
	}
	if (pp->handleTypes || pp->usage)
		return cudaErrorNotSupported;	/* no IPC export, no decompression */
	return cudaSuccess;
}

static cudaError_t pool_create(cudaMemPool_t *pool, const struct cudaMemPoolProps *props)
{
	struct cudaMemPoolProps pp;
	cudaError_t e = uvm_cuda_init();

	if (e)
		return e;
	if (!pool || !props)
		return cudaErrorInvalidValue;
	e = props_check(props);
	if (e)
		return e;
	pp = *props;
	if (pp.location.type == cudaMemLocationTypeHost)
		pp.location.id = 0;	/* ignored for such pools */
	pthread_mutex_lock(&uvm_pool_lock);
	*pool = pool_new_locked(&pp);
	pthread_mutex_unlock(&uvm_pool_lock);
	return *pool ? cudaSuccess : cudaErrorMemoryAllocation;
}

uvm_public cudaError_t cudaMemPoolCreate(cudaMemPool_t *memPool,
					 const struct cudaMemPoolProps *poolProps)
{
	return uvm_cuda_set_error(pool_create(memPool, poolProps));
}

static cudaError_t pool_destroy(cudaMemPool_t h)
{
	struct CUmemPoolHandle_st *p;
	struct uvm_pool_block *kept = NULL;
	cudaError_t e = uvm_cuda_init();
	int d;

	if (e)
		return e;
	pthread_mutex_lock(&uvm_pool_lock);
	p = pool_find_locked(h);
	if (p && !p->is_default) {
		p->destroyed = true;
		for (d = 0; d < UVM_POOL_MAX_DEVICES; d++) {
			if (uvm_current_pool[d] == p)
				uvm_current_pool[d] = NULL;
		}
		kept = pool_trim_locked(p, 0);
	}
	pthread_mutex_unlock(&uvm_pool_lock);
	if (!p || p->is_default)
		return cudaErrorInvalidValue;
	blocks_release(kept);
	return cudaSuccess;
}

uvm_public cudaError_t cudaMemPoolDestroy(cudaMemPool_t memPool)
{
	return uvm_cuda_set_error(pool_destroy(memPool));
}

static cudaError_t device_pool(cudaMemPool_t *out, int device, bool current)
{
	cudaError_t e = uvm_cuda_init();

	if (e)
		return e;
	if (!out)
		return cudaErrorInvalidValue;
	if (uvm_cuda_check_device(device) || device >= UVM_POOL_MAX_DEVICES)
		return cudaErrorInvalidDevice;
	pthread_mutex_lock(&uvm_pool_lock);
	*out = current ? current_pool_locked(device) : default_pool_locked(device);
	pthread_mutex_unlock(&uvm_pool_lock);
	return *out ? cudaSuccess : cudaErrorMemoryAllocation;
}

uvm_public cudaError_t cudaDeviceGetDefaultMemPool(cudaMemPool_t *memPool, int device)
{
	return uvm_cuda_set_error(device_pool(memPool, device, false));
}

uvm_public cudaError_t cudaDeviceGetMemPool(cudaMemPool_t *memPool, int device)
{
	return uvm_cuda_set_error(device_pool(memPool, device, true));
}

static cudaError_t device_set_pool(int device, cudaMemPool_t h)
{
	struct CUmemPoolHandle_st *p;
	cudaError_t e = uvm_cuda_init();

	if (e)
		return e;
	if (uvm_cuda_check_device(device) || device >= UVM_POOL_MAX_DEVICES)
		return cudaErrorInvalidDevice;
	pthread_mutex_lock(&uvm_pool_lock);
	p = pool_find_locked(h);
	if (p && pool_is_device(p) && p->props.location.id == device)
		uvm_current_pool[device] = p;
	else
		e = cudaErrorInvalidValue;	/* unknown, or not local to @device */
	pthread_mutex_unlock(&uvm_pool_lock);
	return e;
}

uvm_public cudaError_t cudaDeviceSetMemPool(int device, cudaMemPool_t memPool)
{
	return uvm_cuda_set_error(device_set_pool(device, memPool));
}

/* ---- attributes, trimming, access -------------------------------------------- */

static cudaError_t pool_get_attr(struct CUmemPoolHandle_st *p, enum cudaMemPoolAttr attr,
				 void *value)
{
	uint64_t v;

	switch (attr) {
	case cudaMemPoolReuseFollowEventDependencies:
	case cudaMemPoolReuseAllowOpportunistic:
	case cudaMemPoolReuseAllowInternalDependencies:
		*(int *)value = p->reuse[attr - 1];
		return cudaSuccess;
	case cudaMemPoolAttrReleaseThreshold: v = p->threshold; break;
	case cudaMemPoolAttrReservedMemCurrent: v = p->reserved; break;
	case cudaMemPoolAttrReservedMemHigh: v = p->reserved_high; break;
	case cudaMemPoolAttrUsedMemCurrent: v = p->used; break;
	case cudaMemPoolAttrUsedMemHigh: v = p->used_high; break;
	default:
		return cudaErrorInvalidValue;
	}
	*(uint64_t *)value = v;
	return cudaSuccess;
}

/* High watermarks can only be reset (value 0): they restart from the current use. */
static cudaError_t pool_set_attr(struct CUmemPoolHandle_st *p, enum cudaMemPoolAttr attr,
				 const void *value)
{
	switch (attr) {
	case cudaMemPoolReuseFollowEventDependencies:
	case cudaMemPoolReuseAllowOpportunistic:
	case cudaMemPoolReuseAllowInternalDependencies:
		p->reuse[attr - 1] = *(const int *)value != 0;
		return cudaSuccess;
	case cudaMemPoolAttrReleaseThreshold:
		p->threshold = *(const uint64_t *)value;
		return cudaSuccess;
	case cudaMemPoolAttrReservedMemHigh:
		if (*(const uint64_t *)value)
			return cudaErrorInvalidValue;
		p->reserved_high = p->reserved;
		return cudaSuccess;
	case cudaMemPoolAttrUsedMemHigh:
		if (*(const uint64_t *)value)
			return cudaErrorInvalidValue;
		p->used_high = p->used;
		return cudaSuccess;
	default:	/* the current values are read-only */
		return cudaErrorInvalidValue;
	}
}

static cudaError_t pool_attr(cudaMemPool_t h, enum cudaMemPoolAttr attr, void *value, bool set)
{
	struct CUmemPoolHandle_st *p;
	cudaError_t e = uvm_cuda_init();

	if (e)
		return e;
	if (!value)
		return cudaErrorInvalidValue;
	pthread_mutex_lock(&uvm_pool_lock);
	p = pool_find_locked(h);
	if (!p)
		e = cudaErrorInvalidValue;
	else
		e = set ? pool_set_attr(p, attr, value) : pool_get_attr(p, attr, value);
	pthread_mutex_unlock(&uvm_pool_lock);
	return e;
}

uvm_public cudaError_t cudaMemPoolSetAttribute(cudaMemPool_t memPool, enum cudaMemPoolAttr attr,
					       void *value)
{
	return uvm_cuda_set_error(pool_attr(memPool, attr, value, true));
}

uvm_public cudaError_t cudaMemPoolGetAttribute(cudaMemPool_t memPool, enum cudaMemPoolAttr attr,
					       void *value)
{
	return uvm_cuda_set_error(pool_attr(memPool, attr, value, false));
}

static cudaError_t pool_trim_to(cudaMemPool_t h, size_t keep)
{
	struct CUmemPoolHandle_st *p;
	struct uvm_pool_block *out = NULL;
	cudaError_t e = uvm_cuda_init();

	if (e)
		return e;
	pthread_mutex_lock(&uvm_pool_lock);
	p = pool_find_locked(h);
	if (p)
		out = pool_trim_locked(p, keep);
	pthread_mutex_unlock(&uvm_pool_lock);
	if (!p)
		return cudaErrorInvalidValue;
	blocks_release(out);
	return cudaSuccess;
}

uvm_public cudaError_t cudaMemPoolTrimTo(cudaMemPool_t memPool, size_t minBytesToKeep)
{
	return uvm_cuda_set_error(pool_trim_to(memPool, minBytesToKeep));
}

static bool access_flags_ok(enum cudaMemAccessFlags f)
{
	return f == cudaMemAccessFlagsProtNone || f == cudaMemAccessFlagsProtRead ||
	       f == cudaMemAccessFlagsProtReadWrite;
}

/*
 * Can the pool's access be set as @d says? A valid device ordinal and
 * flags; the pool's own device keeps read-write access: anything else for
 * it is cudaErrorNotSupported, as CUDA 13 answers (answers-h100.txt).
 */
static cudaError_t access_desc_check(const struct CUmemPoolHandle_st *p,
				     const struct cudaMemAccessDesc *d)
{
	if (d->location.type != cudaMemLocationTypeDevice || !access_flags_ok(d->flags) ||
	    uvm_cuda_check_device(d->location.id) || d->location.id >= device_count())
		return cudaErrorInvalidValue;
	if (pool_is_device(p) && d->location.id == p->props.location.id &&
	    d->flags != cudaMemAccessFlagsProtReadWrite)
		return cudaErrorNotSupported;
	return cudaSuccess;
}

static cudaError_t pool_set_access(cudaMemPool_t h, const struct cudaMemAccessDesc *map,
				   size_t count)
{
	struct CUmemPoolHandle_st *p;
	cudaError_t e = uvm_cuda_init();
	size_t i;

	if (e)
		return e;
	if (!map && count)
		return cudaErrorInvalidValue;
	pthread_mutex_lock(&uvm_pool_lock);
	p = pool_find_locked(h);
	if (!p)
		e = cudaErrorInvalidValue;
	for (i = 0; !e && i < count; i++)	/* all checked before any is applied */
		e = access_desc_check(p, &map[i]);
	for (i = 0; !e && i < count; i++)
		p->access[map[i].location.id] = (unsigned char)map[i].flags;
	pthread_mutex_unlock(&uvm_pool_lock);
	return e;
}

uvm_public cudaError_t cudaMemPoolSetAccess(cudaMemPool_t memPool,
					    const struct cudaMemAccessDesc *descList, size_t count)
{
	return uvm_cuda_set_error(pool_set_access(memPool, descList, count));
}

static cudaError_t pool_get_access(enum cudaMemAccessFlags *flags, cudaMemPool_t h,
				   const struct cudaMemLocation *loc)
{
	struct CUmemPoolHandle_st *p;
	cudaError_t e = uvm_cuda_init();

	if (e)
		return e;
	if (!flags || !loc)
		return cudaErrorInvalidValue;
	pthread_mutex_lock(&uvm_pool_lock);
	p = pool_find_locked(h);
	if (!p)
		e = cudaErrorInvalidValue;
	else if (loc->type == cudaMemLocationTypeDevice && !uvm_cuda_check_device(loc->id) &&
		 loc->id < UVM_POOL_MAX_DEVICES)
		*flags = (enum cudaMemAccessFlags)p->access[loc->id];
	else if (loc->type == cudaMemLocationTypeHost || loc->type == cudaMemLocationTypeHostNuma)
		*flags = pool_is_device(p) ? cudaMemAccessFlagsProtNone :
					     cudaMemAccessFlagsProtReadWrite;
	else
		e = cudaErrorInvalidValue;
	pthread_mutex_unlock(&uvm_pool_lock);
	return e;
}

uvm_public cudaError_t cudaMemPoolGetAccess(enum cudaMemAccessFlags *flags, cudaMemPool_t memPool,
					    struct cudaMemLocation *location)
{
	return uvm_cuda_set_error(pool_get_access(flags, memPool, location));
}

/* ---- driver twins ---------------------------------------------------------------- */

static CUresult cu_alloc_async(CUdeviceptr *dptr, size_t bytesize, CUstream h, bool ptsz)
{
	CUresult r = uvm_cu_ctx_enter();
	void *p = NULL;

	if (r)
		return r;
	if (!dptr || !bytesize)
		return CUDA_ERROR_INVALID_VALUE;
	r = UVM_CU_FORWARD(malloc_async(&p, bytesize, NULL, h, ptsz));
	if (!r)
		*dptr = (CUdeviceptr)(uintptr_t)p;
	return r;
}

uvm_public CUresult cuMemAllocAsync(CUdeviceptr *dptr, size_t bytesize, CUstream hStream)
{
	return cu_alloc_async(dptr, bytesize, hStream, false);
}

uvm_public CUresult cuMemAllocAsync_ptsz(CUdeviceptr *dptr, size_t bytesize, CUstream hStream)
{
	return cu_alloc_async(dptr, bytesize, hStream, true);
}

static CUresult cu_free_async(CUdeviceptr dptr, CUstream h, bool ptsz)
{
	CUresult r = uvm_cu_initialised() ? CUDA_SUCCESS : CUDA_ERROR_NOT_INITIALIZED;

	return r ? r : UVM_CU_FORWARD(free_async((void *)(uintptr_t)dptr, h, ptsz));
}

uvm_public CUresult cuMemFreeAsync(CUdeviceptr dptr, CUstream hStream)
{
	return cu_free_async(dptr, hStream, false);
}

uvm_public CUresult cuMemFreeAsync_ptsz(CUdeviceptr dptr, CUstream hStream)
{
	return cu_free_async(dptr, hStream, true);
}
