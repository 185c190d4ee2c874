// SPDX-License-Identifier: MIT
/*
 * cuda_memory.c - linear device memory, page-locked host memory and
 * pointer classification in the runtime API: cudaMalloc, cudaMallocPitch,
 * cudaMalloc3D, cudaFree, cudaMallocHost, cudaHostAlloc, cudaFreeHost,
 * cudaHostRegister/Unregister/GetDevicePointer/GetFlags, cudaMemGetInfo,
 * cudaPointerGetAttributes.
 *
 * DOC: Device and host memory
 *
 * Every allocation is the module's (uvm_device_alloc/uvm_host_alloc); every
 * question about a pointer goes to the module (UVM_IOCTL_PTR_INFO), except
 * for managed memory, whose requested size, buffer id and allocation device
 * the library's managed table holds. The one fact the library adds is the
 * device that was current when pinned memory was allocated or registered
 * (cudaPointerGetAttributes reports it), a small table keyed by base.
 *
 * Freeing (cudaFree, cudaFreeHost, cudaHostUnregister) first waits for
 * everything queued on every stream, as CUDA's frees synchronise: no queued
 * copy can find its memory gone.
 */
#include <errno.h>
#include <limits.h>
#include <stdlib.h>

#include "cuda_managed.h"
#include "cuda_memory.h"

/* ---- device of pinned memory ------------------------------------------- */

struct uvm_hostdev {
	uintptr_t base;
	int device;
};

static pthread_mutex_t uvm_hostdev_lock = PTHREAD_MUTEX_INITIALIZER;
static struct uvm_hostdev *uvm_hostdev_v;	/* under uvm_hostdev_lock */
static size_t uvm_hostdev_n, uvm_hostdev_cap;	/* under uvm_hostdev_lock */

/* Caller holds uvm_hostdev_lock. */
static struct uvm_hostdev *hostdev_find_locked(uintptr_t base)
{
	size_t i;

	for (i = 0; i < uvm_hostdev_n; i++) {
		if (uvm_hostdev_v[i].base == base)
			return &uvm_hostdev_v[i];
	}
	return NULL;
}

void uvm_hostdev_add(uintptr_t base, int device)
{
	struct uvm_hostdev *v, *h;

	pthread_mutex_lock(&uvm_hostdev_lock);
	h = hostdev_find_locked(base);
	if (!h && uvm_hostdev_n == uvm_hostdev_cap) {
		size_t cap = uvm_hostdev_cap ? 2 * uvm_hostdev_cap : 16;

		v = realloc(uvm_hostdev_v, cap * sizeof(*v));
		if (v) {
			uvm_hostdev_v = v;
			uvm_hostdev_cap = cap;
		}
	}
	if (!h && uvm_hostdev_n < uvm_hostdev_cap)
		h = &uvm_hostdev_v[uvm_hostdev_n++];
	if (h) {	/* without memory the query falls back to the current device */
		h->base = base;
		h->device = device;
	}
	pthread_mutex_unlock(&uvm_hostdev_lock);
}

void uvm_hostdev_del(uintptr_t base)
{
	struct uvm_hostdev *h;

	pthread_mutex_lock(&uvm_hostdev_lock);
	h = hostdev_find_locked(base);
	if (h)
		*h = uvm_hostdev_v[--uvm_hostdev_n];
	pthread_mutex_unlock(&uvm_hostdev_lock);
}

static int hostdev_get(uintptr_t base)
{
	struct uvm_hostdev *h;
	int dev;

	pthread_mutex_lock(&uvm_hostdev_lock);
	h = hostdev_find_locked(base);
	dev = h ? h->device : uvm_cuda_current_device();
	pthread_mutex_unlock(&uvm_hostdev_lock);
	return dev;
}

/* ---- classification ------------------------------------------------------ */

int uvm_cuda_ptr(const void *p, struct uvm_cptr *c)
{
	struct uvm_pointer_info pi;
	struct uvm_alloc a;
	int ret;

	memset(c, 0, sizeof(*c));
	if (!uvm_cm_lookup(p, &a)) {
		c->type = UVM_POINTER_MANAGED;
		c->device = a.device;
		c->base = a.base;
		c->size = a.size;
		c->buffer_id = a.buffer_id;
		return 0;
	}
	ret = uvm_ptr_info(uvm_cuda_context(), p, &pi);
	if (ret)
		return ret;
	c->type = pi.type;
	c->base = pi.base;
	c->size = pi.size;
	c->buffer_id = pi.buffer_id;
	c->flags = pi.flags;
	switch (pi.type) {
	case UVM_POINTER_DEVICE:
		c->device = pi.device;
		break;
	case UVM_POINTER_HOST_ALLOC:
	case UVM_POINTER_HOST_REGISTERED:
		c->device = hostdev_get(pi.base);
		break;
	case UVM_POINTER_MANAGED:	/* mapped by someone else (native API) */
		c->device = cudaInvalidDeviceId;
		break;
	default:
		c->type = UVM_POINTER_UNREGISTERED;
		c->device = cudaInvalidDeviceId;
		c->base = c->size = 0;
		break;
	}
	return 0;
}

/* ---- device memory ----------------------------------------------------- */

/* -errno of an allocation: a device that vanished is out of memory to CUDA. */
static cudaError_t alloc_errno(int err)
{
	if (err == -ENOSPC || err == -ENOMEM || err == -ENODEV || err == -EINVAL)
		return cudaErrorMemoryAllocation;
	return uvm_errno_to_cuda(err);
}

static cudaError_t device_alloc(void **p, size_t size)
{
	if (!size) {	/* CUDA: success and a NULL pointer */
		*p = NULL;
		return cudaSuccess;
	}
	if (size > (size_t)PTRDIFF_MAX)
		return cudaErrorMemoryAllocation;
	return alloc_errno(uvm_device_alloc(uvm_cuda_context(),
					    (unsigned int)uvm_cuda_current_device(), size, p));
}

cudaError_t uvm_cm_malloc(void **p, size_t size)
{
	cudaError_t e = uvm_cuda_init();

	if (e)
		return e;
	if (!p)
		return cudaErrorInvalidValue;
	return device_alloc(p, size);
}

uvm_public cudaError_t cudaMalloc(void **devPtr, size_t size)
{
	return uvm_cuda_set_error(uvm_cm_malloc(devPtr, size));
}

/* Row pitch of a pitched allocation: width rounded up to the device's
 * texturePitchAlignment (cudaDevAttrTexturePitchAlignment). */
static cudaError_t pitch_of(size_t width, size_t *pitch)
{
	struct cudaDeviceProp prop;
	size_t align;

	uvm_cuda_props(uvm_cuda_current_device(), &prop);
	align = prop.texturePitchAlignment;
	if (width > (size_t)prop.memPitch)
		return cudaErrorInvalidValue;
	*pitch = (width + align - 1) / align * align;
	return cudaSuccess;
}

static cudaError_t pitched_alloc(void **p, size_t *pitch, size_t width, size_t rows)
{
	cudaError_t e = pitch_of(width, pitch);

	if (e)
		return e;
	if (rows && *pitch > SIZE_MAX / rows)
		return cudaErrorMemoryAllocation;
	return device_alloc(p, *pitch * rows);
}

static cudaError_t malloc_pitch(void **devPtr, size_t *pitch, size_t width, size_t height)
{
	cudaError_t e = uvm_cuda_init();

	if (e)
		return e;
	if (!devPtr || !pitch)
		return cudaErrorInvalidValue;
	return pitched_alloc(devPtr, pitch, width, height);
}

uvm_public cudaError_t cudaMallocPitch(void **devPtr, size_t *pitch, size_t width, size_t height)
{
	return uvm_cuda_set_error(malloc_pitch(devPtr, pitch, width, height));
}

static cudaError_t malloc_3d(struct cudaPitchedPtr *pp, struct cudaExtent ext)
{
	cudaError_t e = uvm_cuda_init();
	size_t pitch, rows;
	void *p;

	if (e)
		return e;
	if (!pp)
		return cudaErrorInvalidValue;
	if (ext.depth && ext.height > SIZE_MAX / ext.depth)
		return cudaErrorMemoryAllocation;
	rows = ext.height * ext.depth;
	e = pitched_alloc(&p, &pitch, ext.width, rows);
	if (e)
		return e;
	pp->ptr = p;
	pp->pitch = pitch;
	pp->xsize = ext.width;
	pp->ysize = ext.height;
	return cudaSuccess;
}

uvm_public cudaError_t cudaMalloc3D(struct cudaPitchedPtr *pitchedDevPtr, struct cudaExtent extent)
{
	return uvm_cuda_set_error(malloc_3d(pitchedDevPtr, extent));
}

/*
 * cudaFree: managed memory (library table) or device memory (module), by
 * base only. Interior pointers, pinned host memory, pageable memory, freed
 * memory: cudaErrorInvalidValue (the one code CUDA 13 lists).
 */
cudaError_t uvm_cm_free(void *devPtr)
{
	struct uvm_cptr c;
	cudaError_t e = uvm_cuda_init();

	if (e || !devPtr)
		return e;
	if (uvm_mempool_owns((uintptr_t)devPtr)) {	/* cudaMallocAsync memory */
		uvm_streams_drain(-1);
		return uvm_mempool_free_now(devPtr);
	}
	if (uvm_cuda_ptr(devPtr, &c))
		return cudaErrorInvalidValue;
	if (c.base != (uintptr_t)devPtr)
		return cudaErrorInvalidValue;
	if (c.type == UVM_POINTER_MANAGED) {
		uvm_streams_drain(-1);
		return uvm_cm_free_managed(devPtr);
	}
	if (c.type != UVM_POINTER_DEVICE)
		return cudaErrorInvalidValue;
	uvm_streams_drain(-1);
	return uvm_errno_to_cuda(uvm_mem_free(uvm_cuda_context(), devPtr));
}

uvm_public cudaError_t cudaFree(void *devPtr)
{
	return uvm_cuda_set_error(uvm_cm_free(devPtr));
}

cudaError_t uvm_cm_mem_get_info(size_t *free_bytes, size_t *total)
{
	struct uvm_device_info di;
	cudaError_t e = uvm_cuda_init();
	int ret;

	if (e)
		return e;
	if (!free_bytes || !total)
		return cudaErrorInvalidValue;
	ret = uvm_device_get_info(uvm_cuda_context(), (unsigned int)uvm_cuda_current_device(), &di);
	if (ret)
		return uvm_errno_to_cuda(ret);
	*free_bytes = di.mem_free;
	*total = di.mem_total;
	return cudaSuccess;
}

uvm_public cudaError_t cudaMemGetInfo(size_t *free, size_t *total)
{
	return uvm_cuda_set_error(uvm_cm_mem_get_info(free, total));
}

/* ---- page-locked host memory ------------------------------------------- */

cudaError_t uvm_cm_host_alloc(void **p, size_t size, unsigned int flags)
{
	cudaError_t e = uvm_cuda_init();
	int ret;

	if (e)
		return e;
	if (!p || (flags & ~(unsigned int)(cudaHostAllocPortable | cudaHostAllocMapped |
					   cudaHostAllocWriteCombined)))
		return cudaErrorInvalidValue;
	if (!size) {
		*p = NULL;
		return cudaSuccess;
	}
	if (size > (size_t)PTRDIFF_MAX)
		return cudaErrorMemoryAllocation;
	ret = uvm_host_alloc(uvm_cuda_context(), size, flags, -1, p);
	if (ret)
		return alloc_errno(ret);
	uvm_hostdev_add((uintptr_t)*p, uvm_cuda_current_device());
	return cudaSuccess;
}

uvm_public cudaError_t cudaMallocHost(void **ptr, size_t size)
{
	return uvm_cuda_set_error(uvm_cm_host_alloc(ptr, size, cudaHostAllocDefault));
}

uvm_public cudaError_t cudaHostAlloc(void **pHost, size_t size, unsigned int flags)
{
	return uvm_cuda_set_error(uvm_cm_host_alloc(pHost, size, flags));
}

cudaError_t uvm_cm_free_host(void *p)
{
	struct uvm_cptr c;
	cudaError_t e = uvm_cuda_init();
	int ret;

	if (e || !p)
		return e;
	if (uvm_cuda_ptr(p, &c) || c.type != UVM_POINTER_HOST_ALLOC || c.base != (uintptr_t)p ||
	    uvm_mempool_owns(c.base))	/* a host pool's block: cudaFree/cudaFreeAsync */
		return cudaErrorInvalidValue;
	uvm_streams_drain(-1);
	ret = uvm_mem_free(uvm_cuda_context(), p);
	if (!ret)
		uvm_hostdev_del((uintptr_t)p);
	return uvm_errno_to_cuda(ret);
}

uvm_public cudaError_t cudaFreeHost(void *ptr)
{
	return uvm_cuda_set_error(uvm_cm_free_host(ptr));
}

/* -errno of HOST_REGISTER as CUDA reports it. */
static cudaError_t register_errno(int err)
{
	switch (-err) {
	case EEXIST:
		return cudaErrorHostMemoryAlreadyRegistered;
	case EOPNOTSUPP:
		return cudaErrorNotSupported;
	case ENOMEM:
		return cudaErrorMemoryAllocation;
	default:
		return uvm_errno_to_cuda(err);
	}
}

/*
 * The module registers whole pages; CUDA takes any pointer and size. The
 * range is rounded out to pages (as CUDA's driver does), so two buffers
 * sharing a page cannot both be registered (HostMemoryAlreadyRegistered).
 */
static cudaError_t host_register(void *ptr, size_t size, unsigned int flags)
{
	size_t page = uvm_page_size();
	uintptr_t start, end;
	cudaError_t e = uvm_cuda_init();
	int ret;

	if (e)
		return e;
	if (!ptr || !size || (flags & ~(unsigned int)(cudaHostRegisterPortable |
						      cudaHostRegisterMapped |
						      cudaHostRegisterIoMemory |
						      cudaHostRegisterReadOnly)))
		return cudaErrorInvalidValue;
	start = (uintptr_t)ptr & ~(page - 1);
	if ((uintptr_t)ptr + size < (uintptr_t)ptr || (uintptr_t)ptr + size > UINTPTR_MAX - page)
		return cudaErrorInvalidValue;
	end = ((uintptr_t)ptr + size + page - 1) & ~(page - 1);
	ret = uvm_host_register(uvm_cuda_context(), (void *)start, end - start, flags);
	if (ret)
		return register_errno(ret);
	uvm_hostdev_add(start, uvm_cuda_current_device());
	return cudaSuccess;
}

uvm_public cudaError_t cudaHostRegister(void *ptr, size_t size, unsigned int flags)
{
	return uvm_cuda_set_error(host_register(ptr, size, flags));
}

/*
 * Takes the pointer given to cudaHostRegister. The module knows the
 * page-rounded registration only, so any address in its first page that
 * is at or after its base names it; anything else is not registered.
 */
static cudaError_t host_unregister(void *ptr)
{
	struct uvm_cptr c;
	cudaError_t e = uvm_cuda_init();
	int ret;

	if (e)
		return e;
	if (!ptr)
		return cudaErrorInvalidValue;
	if (uvm_cuda_ptr(ptr, &c) || c.type != UVM_POINTER_HOST_REGISTERED ||
	    ((uintptr_t)ptr & ~(uvm_page_size() - 1)) != c.base)
		return cudaErrorHostMemoryNotRegistered;
	uvm_streams_drain(-1);
	ret = uvm_host_unregister(uvm_cuda_context(), (void *)c.base);
	if (ret == -ENOENT)
		return cudaErrorHostMemoryNotRegistered;
	if (!ret)
		uvm_hostdev_del(c.base);
	return uvm_errno_to_cuda(ret);
}

uvm_public cudaError_t cudaHostUnregister(void *ptr)
{
	return uvm_cuda_set_error(host_unregister(ptr));
}

static bool is_pinned(const struct uvm_cptr *c)
{
	return c->type == UVM_POINTER_HOST_ALLOC || c->type == UVM_POINTER_HOST_REGISTERED;
}

/* Device alias of pinned memory: the host address itself (every device has
 * CanUseHostPointerForRegisteredMem); interior pointers map to themselves. */
static cudaError_t host_get_device_pointer(void **pDevice, void *pHost, unsigned int flags)
{
	struct uvm_cptr c;
	cudaError_t e = uvm_cuda_init();

	if (e)
		return e;
	if (!pDevice || !pHost || flags)
		return cudaErrorInvalidValue;
	if (uvm_cuda_ptr(pHost, &c) || !is_pinned(&c))
		return cudaErrorInvalidValue;
	*pDevice = pHost;
	return cudaSuccess;
}

uvm_public cudaError_t cudaHostGetDevicePointer(void **pDevice, void *pHost, unsigned int flags)
{
	return uvm_cuda_set_error(host_get_device_pointer(pDevice, pHost, flags));
}

/* Flags of a cudaHostAlloc/cudaMallocHost range, with Mapped always set
 * (implicit under unified addressing, as CUDA reports it). Registered
 * memory is not a cudaHostAlloc range: InvalidValue. */
static cudaError_t host_get_flags(unsigned int *pFlags, void *pHost)
{
	struct uvm_cptr c;
	cudaError_t e = uvm_cuda_init();

	if (e)
		return e;
	if (!pFlags || !pHost)
		return cudaErrorInvalidValue;
	if (uvm_cuda_ptr(pHost, &c) || c.type != UVM_POINTER_HOST_ALLOC)
		return cudaErrorInvalidValue;
	*pFlags = c.flags | cudaHostAllocMapped;
	return cudaSuccess;
}

uvm_public cudaError_t cudaHostGetFlags(unsigned int *pFlags, void *pHost)
{
	return uvm_cuda_set_error(host_get_flags(pFlags, pHost));
}

/* ---- cudaPointerGetAttributes ------------------------------------------ */

static cudaError_t pointer_attrs(struct cudaPointerAttributes *attr, const void *ptr)
{
	struct uvm_cptr c;
	cudaError_t e = uvm_cuda_init();

	if (e)
		return e;
	if (!attr)
		return cudaErrorInvalidValue;
	/* NULL: unregistered, as real CUDA 13 answers (H100, driver 580). */
	if (!ptr)
		c = (struct uvm_cptr){ .type = UVM_POINTER_UNREGISTERED };
	else if (uvm_cuda_ptr(ptr, &c))
		return cudaErrorInvalidValue;
	memset(attr, 0, sizeof(*attr));
	attr->device = c.device;
	switch (c.type) {
	case UVM_POINTER_DEVICE:
		attr->type = cudaMemoryTypeDevice;
		attr->devicePointer = (void *)ptr;
		break;
	case UVM_POINTER_HOST_ALLOC:
	case UVM_POINTER_HOST_REGISTERED:
		attr->type = cudaMemoryTypeHost;
		attr->devicePointer = (void *)ptr;	/* device address == host address */
		attr->hostPointer = (void *)ptr;
		break;
	case UVM_POINTER_MANAGED:
		attr->type = cudaMemoryTypeManaged;
		attr->devicePointer = (void *)ptr;	/* every device has CMA */
		attr->hostPointer = (void *)ptr;
		break;
	default:
		/* Plain host memory (spec 2.6): not validated, no device alias. */
		attr->type = cudaMemoryTypeUnregistered;
		attr->device = cudaInvalidDeviceId;
		attr->hostPointer = (void *)ptr;
		break;
	}
	return cudaSuccess;
}

uvm_public cudaError_t cudaPointerGetAttributes(struct cudaPointerAttributes *attributes,
						const void *ptr)
{
	return uvm_cuda_set_error(pointer_attrs(attributes, ptr));
}
