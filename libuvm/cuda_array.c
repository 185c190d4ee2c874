// SPDX-License-Identifier: MIT
/*
 * cuda_array.c - tier C: CUDA arrays, mipmapped arrays, array copies and
 * the symbol calls.
 *
 * DOC: Arrays
 *
 * There is no texture hardware, so a CUDA array is what the spec (2.13)
 * proposes: a device allocation (uvm_device_alloc on the current device)
 * plus its metadata. Layout, private to libuvm: row-major, element
 * (x + y + z + w) / 8 bytes, rows tightly packed (pitch = width * element),
 * height rows per slice (1 for 1D), depth slices (layers or cubemap faces
 * for layered and cubemap arrays, 1 for 1D/2D). Every copy to, from or
 * between arrays is a pitched copy into that layout through the module
 * (UVM_IOCTL_MEMCPY), so it is byte-exact and coherent with everything else.
 *
 * Supported formats: channel kinds Signed, Unsigned and Float, 1, 2 or 4
 * channels of 8, 16 or 32 bits (Float 16 or 32), all channels the same
 * size. NV12, the normalized and the block-compressed kinds need texture
 * hardware semantics: cudaErrorNotSupported. Shapes are checked against
 * the limits cudaDeviceGetAttribute reports (maxTexture*); the
 * SurfaceLoadStore, TextureGather and ColorAttachment flags are accepted
 * and recorded. Sparse and DeferredMapping arrays need cuMemCreate /
 * cuMemMapArrayAsync, which libuvm does not have (the device attributes
 * report 0): cudaErrorNotSupported. So no array is sparse or deferred,
 * and the queries defined only for those (sparse properties, memory
 * requirements) always return cudaErrorInvalidValue, as the spec says.
 *
 * Mipmapped arrays: one array per level, level l of extent
 * max(1, dim >> l) in each dimension that exists (layer and face counts do
 * not shrink), levels clamped to [1, 1 + floor(log2(largest dim))].
 *
 * Handles are checked against a list of live arrays: an unknown or freed
 * handle is cudaErrorInvalidValue (cudaErrorInvalidResourceHandle for the
 * mipmapped-array level query, as the spec proposes), never a crash.
 * Freeing waits for every queued stream item first.
 *
 * Symbols: no device code is ever registered with libuvm, so every symbol
 * is unknown: cudaErrorInvalidSymbol, outputs untouched.
 */
#include <errno.h>
#include <stdlib.h>

#include "cuda_memory.h"
#include "cuda_ptsz.h"

struct cudaArray {
	struct cudaArray *next;		/* uvm_arrays, under uvm_arrays_lock */
	struct cudaChannelFormatDesc desc;
	struct cudaExtent extent;	/* as created: 0 for an absent dimension */
	unsigned int flags;
	size_t elem, w, h, d, pitch;	/* layout: h, d >= 1 */
	void *mem;			/* device allocation */
	bool level;			/* owned by a mipmapped array */
};

struct cudaMipmappedArray {
	struct cudaMipmappedArray *next;	/* uvm_mipmaps, under uvm_arrays_lock */
	unsigned int levels;
	struct cudaArray *lv[];
};

static pthread_mutex_t uvm_arrays_lock = PTHREAD_MUTEX_INITIALIZER;
static struct cudaArray *uvm_arrays;		/* every live array */
static struct cudaMipmappedArray *uvm_mipmaps;	/* every live mipmapped array */

#define ARRAY_FLAGS_KNOWN (cudaArrayLayered | cudaArraySurfaceLoadStore | cudaArrayCubemap | \
			   cudaArrayTextureGather | cudaArrayColorAttachment | cudaArraySparse | \
			   cudaArrayDeferredMapping)

struct cudaArray *uvm_array_lookup(const void *h)
{
	struct cudaArray *a;

	pthread_mutex_lock(&uvm_arrays_lock);
	for (a = uvm_arrays; a && a != h; a = a->next)
		;
	pthread_mutex_unlock(&uvm_arrays_lock);
	return a;
}

size_t uvm_array_elem(const struct cudaArray *a)
{
	return a->elem;
}

/* Is [pos, pos + n) inside [0, lim)? */
static bool fits(size_t pos, size_t n, size_t lim)
{
	return n <= lim && pos <= lim - n;
}

cudaError_t uvm_array_side(const struct cudaArray *a, struct cudaPos pos, struct cudaExtent ext,
			   uint64_t *addr, uint64_t *pitch, uint64_t *rows)
{
	if (!fits(pos.x, ext.width, a->w) || !fits(pos.y, ext.height, a->h) ||
	    !fits(pos.z, ext.depth, a->d))
		return cudaErrorInvalidValue;
	*addr = (uintptr_t)a->mem + (pos.z * a->h + pos.y) * a->pitch + pos.x * a->elem;
	*pitch = a->pitch;
	*rows = a->h;
	return cudaSuccess;
}

/* ---- creation ---------------------------------------------------------------- */

static bool channel_bits_ok(int bits)
{
	return bits == 8 || bits == 16 || bits == 32;
}

/* Element size in bytes of @d, or a CUDA error. */
static cudaError_t desc_elem(const struct cudaChannelFormatDesc *d, size_t *elem)
{
	int n = 1;

	if (d->f == cudaChannelFormatKindNV12 ||
	    (d->f >= cudaChannelFormatKindUnsignedNormalized8X1 && d->f <= 31))
		return cudaErrorNotSupported;
	if (d->f != cudaChannelFormatKindSigned && d->f != cudaChannelFormatKindUnsigned &&
	    d->f != cudaChannelFormatKindFloat)
		return cudaErrorInvalidValue;
	if (!channel_bits_ok(d->x))
		return cudaErrorInvalidValue;
	if (d->y) {
		if (d->y != d->x)
			return cudaErrorInvalidValue;
		n = 2;
	}
	if (d->z || d->w) {
		if (n != 2 || d->z != d->x || d->w != d->x)
			return cudaErrorInvalidValue;
		n = 4;
	}
	if (d->f == cudaChannelFormatKindFloat && d->x == 8)
		return cudaErrorInvalidValue;
	*elem = (size_t)(n * d->x / 8);
	return cudaSuccess;
}

static bool within(size_t v, int lim)
{
	return v >= 1 && v <= (size_t)lim;
}

/* Shape rules (spec 2.13) against the device's texture limits. */
static cudaError_t shape_ok(struct cudaExtent e, unsigned int flags, const struct cudaDeviceProp *p)
{
	bool layered = flags & cudaArrayLayered, cube = flags & cudaArrayCubemap;
	bool ok;

	if ((flags & cudaArrayTextureGather) && (layered || cube || !e.height || e.depth))
		return cudaErrorInvalidValue;
	if (cube) {
		ok = e.width == e.height && (layered ? e.depth % 6 == 0 : e.depth == 6);
		ok = ok && within(e.width, layered ? p->maxTextureCubemapLayered[0] :
						     p->maxTextureCubemap);
		ok = ok && (!layered || within(e.depth, p->maxTextureCubemapLayered[1]));
	} else if (layered && !e.height) {
		ok = within(e.width, p->maxTexture1DLayered[0]) &&
		     within(e.depth, p->maxTexture1DLayered[1]);
	} else if (layered) {
		ok = within(e.width, p->maxTexture2DLayered[0]) &&
		     within(e.height, p->maxTexture2DLayered[1]) &&
		     within(e.depth, p->maxTexture2DLayered[2]);
	} else if (!e.height) {
		ok = !e.depth && within(e.width, p->maxTexture1D);
	} else if (!e.depth) {
		ok = within(e.width, (flags & cudaArrayTextureGather) ? p->maxTexture2DGather[0] :
								    p->maxTexture2D[0]) &&
		     within(e.height, (flags & cudaArrayTextureGather) ? p->maxTexture2DGather[1] :
								     p->maxTexture2D[1]);
	} else {
		ok = within(e.width, p->maxTexture3D[0]) && within(e.height, p->maxTexture3D[1]) &&
		     within(e.depth, p->maxTexture3D[2]);
	}
	return ok ? cudaSuccess : cudaErrorInvalidValue;
}

static cudaError_t array_check(const struct cudaChannelFormatDesc *desc, struct cudaExtent ext,
			       unsigned int flags, size_t *elem)
{
	struct cudaDeviceProp prop;
	cudaError_t e;

	if (flags & ~(unsigned int)ARRAY_FLAGS_KNOWN)
		return cudaErrorInvalidValue;
	e = desc_elem(desc, elem);
	if (e)
		return e;
	uvm_cuda_props(uvm_cuda_current_device(), &prop);
	e = shape_ok(ext, flags, &prop);
	if (e)
		return e;
	if (flags & (cudaArraySparse | cudaArrayDeferredMapping))
		return cudaErrorNotSupported;	/* no cuMemMapArrayAsync */
	return cudaSuccess;
}

/* Allocate an (already validated) array; not yet linked. */
static cudaError_t array_create(const struct cudaChannelFormatDesc *desc, struct cudaExtent ext,
				unsigned int flags, size_t elem, struct cudaArray **out)
{
	struct cudaArray *a = calloc(1, sizeof(*a));
	int ret;

	if (!a)
		return cudaErrorMemoryAllocation;
	a->desc = *desc;
	a->extent = ext;
	a->flags = flags;
	a->elem = elem;
	a->w = ext.width;
	a->h = ext.height ? ext.height : 1;
	a->d = ext.depth ? ext.depth : 1;
	a->pitch = a->w * elem;
	ret = uvm_device_alloc(uvm_cuda_context(), (unsigned int)uvm_cuda_current_device(),
			       a->pitch * a->h * a->d, &a->mem);
	if (ret) {
		free(a);
		return cudaErrorMemoryAllocation;
	}
	*out = a;
	return cudaSuccess;
}

static void array_destroy(struct cudaArray *a)
{
	uvm_mem_free(uvm_cuda_context(), a->mem);
	free(a);
}

static void array_link(struct cudaArray *a)
{
	pthread_mutex_lock(&uvm_arrays_lock);
	a->next = uvm_arrays;
	uvm_arrays = a;
	pthread_mutex_unlock(&uvm_arrays_lock);
}

/* Unlink @h if it is a live array (of @level kind): the array or NULL. */
static struct cudaArray *array_unlink(const void *h, bool level)
{
	struct cudaArray **pp, *a = NULL;

	pthread_mutex_lock(&uvm_arrays_lock);
	for (pp = &uvm_arrays; *pp; pp = &(*pp)->next) {
		if (*pp == h && (*pp)->level == level) {
			a = *pp;
			*pp = a->next;
			break;
		}
	}
	pthread_mutex_unlock(&uvm_arrays_lock);
	return a;
}

static cudaError_t malloc_3d_array(cudaArray_t *array, const struct cudaChannelFormatDesc *desc,
				   struct cudaExtent ext, unsigned int flags)
{
	struct cudaArray *a;
	size_t elem;
	cudaError_t e = uvm_cuda_init();

	if (e)
		return e;
	if (!array || !desc)
		return cudaErrorInvalidValue;
	e = array_check(desc, ext, flags, &elem);
	if (!e)
		e = array_create(desc, ext, flags, elem, &a);
	if (e)
		return e;
	array_link(a);
	*array = a;
	return cudaSuccess;
}

uvm_public cudaError_t cudaMalloc3DArray(cudaArray_t *array, const struct cudaChannelFormatDesc *desc,
					 struct cudaExtent extent, unsigned int flags)
{
	return uvm_cuda_set_error(malloc_3d_array(array, desc, extent, flags));
}

/* 1D (height 0) or 2D; Layered and Cubemap need cudaMalloc3DArray. */
uvm_public cudaError_t cudaMallocArray(cudaArray_t *array, const struct cudaChannelFormatDesc *desc,
				       size_t width, size_t height, unsigned int flags)
{
	cudaError_t e = uvm_cuda_init();

	if (!e && (flags & (cudaArrayLayered | cudaArrayCubemap)))
		e = cudaErrorInvalidValue;
	if (e)
		return uvm_cuda_set_error(e);
	return cudaMalloc3DArray(array, desc, (struct cudaExtent){ width, height, 0 }, flags);
}

static cudaError_t free_array(cudaArray_t array)
{
	struct cudaArray *a;
	cudaError_t e = uvm_cuda_init();

	if (e || !array)
		return e;
	a = array_unlink(array, false);
	if (!a)
		return cudaErrorInvalidValue;
	uvm_streams_drain(-1);
	array_destroy(a);
	return cudaSuccess;
}

uvm_public cudaError_t cudaFreeArray(cudaArray_t array)
{
	return uvm_cuda_set_error(free_array(array));
}

/* A descriptor: no validation, no initialisation (as CUDA's). */
uvm_public struct cudaChannelFormatDesc cudaCreateChannelDesc(int x, int y, int z, int w,
							     enum cudaChannelFormatKind f)
{
	struct cudaChannelFormatDesc d = { x, y, z, w, f };

	return d;
}

static cudaError_t array_get_info(struct cudaChannelFormatDesc *desc, struct cudaExtent *extent,
				  unsigned int *flags, cudaArray_t array)
{
	struct cudaArray *a;
	cudaError_t e = uvm_cuda_init();

	if (e)
		return e;
	a = uvm_array_lookup(array);
	if (!array || !a)
		return cudaErrorInvalidValue;
	if (desc)
		*desc = a->desc;
	if (extent)
		*extent = a->extent;
	if (flags)
		*flags = a->flags;
	return cudaSuccess;
}

uvm_public cudaError_t cudaArrayGetInfo(struct cudaChannelFormatDesc *desc, struct cudaExtent *extent,
					unsigned int *flags, cudaArray_t array)
{
	return uvm_cuda_set_error(array_get_info(desc, extent, flags, array));
}

/* Only multi-planar (NV12) arrays have planes, and libuvm has none. */
static cudaError_t array_get_plane(cudaArray_t *plane, cudaArray_t array, unsigned int idx)
{
	cudaError_t e = uvm_cuda_init();

	(void)idx;
	if (e)
		return e;
	if (!plane || !array || !uvm_array_lookup(array))
		return cudaErrorInvalidValue;
	return cudaErrorInvalidValue;	/* not a multi-planar array */
}

uvm_public cudaError_t cudaArrayGetPlane(cudaArray_t *pPlaneArray, cudaArray_t hArray,
					 unsigned int planeIdx)
{
	return uvm_cuda_set_error(array_get_plane(pPlaneArray, hArray, planeIdx));
}

static struct cudaMipmappedArray *mipmap_find(const void *h, bool unlink);

static bool handle_live(const void *h, bool mipmap)
{
	return h && (mipmap ? mipmap_find(h, false) != NULL : uvm_array_lookup(h) != NULL);
}

/* Deferred-mapping arrays do not exist here: always InvalidValue once the
 * arguments are valid. */
static cudaError_t array_mem_req(struct cudaArrayMemoryRequirements *req, const void *h,
				 bool mipmap, int device)
{
	cudaError_t e = uvm_cuda_init();

	if (e)
		return e;
	if (!req || !handle_live(h, mipmap))
		return cudaErrorInvalidValue;
	if (uvm_cuda_check_device(device))
		return cudaErrorInvalidDevice;
	return cudaErrorInvalidValue;	/* not a cudaArrayDeferredMapping array */
}

uvm_public cudaError_t cudaArrayGetMemoryRequirements(struct cudaArrayMemoryRequirements *memoryRequirements,
						      cudaArray_t array, int device)
{
	return uvm_cuda_set_error(array_mem_req(memoryRequirements, array, false, device));
}

uvm_public cudaError_t cudaMipmappedArrayGetMemoryRequirements(struct cudaArrayMemoryRequirements *memoryRequirements,
							       cudaMipmappedArray_t mipmap, int device)
{
	return uvm_cuda_set_error(array_mem_req(memoryRequirements, mipmap, true, device));
}

/* Sparse arrays do not exist here: InvalidValue (spec 2.13). */
static cudaError_t sparse_props(struct cudaArraySparseProperties *p, const void *h, bool mipmap)
{
	cudaError_t e = uvm_cuda_init();

	if (e)
		return e;
	(void)p, (void)h, (void)mipmap;
	/* NULL output, unknown handle, or a live array that is not sparse. */
	return cudaErrorInvalidValue;
}

uvm_public cudaError_t cudaArrayGetSparseProperties(struct cudaArraySparseProperties *sparseProperties,
						    cudaArray_t array)
{
	return uvm_cuda_set_error(sparse_props(sparseProperties, array, false));
}

uvm_public cudaError_t cudaMipmappedArrayGetSparseProperties(struct cudaArraySparseProperties *sparseProperties,
							     cudaMipmappedArray_t mipmap)
{
	return uvm_cuda_set_error(sparse_props(sparseProperties, mipmap, true));
}

/* ---- mipmapped arrays -------------------------------------------------------- */

static size_t shrink(size_t v, unsigned int l)
{
	if (!v)
		return 0;
	v = l >= sizeof(size_t) * 8 ? 0 : v >> l;
	return v ? v : 1;
}

static unsigned int max_levels(struct cudaExtent e, unsigned int flags)
{
	size_t m = e.width;
	unsigned int n = 1;

	if (e.height > m)
		m = e.height;
	if (!(flags & (cudaArrayLayered | cudaArrayCubemap)) && e.depth > m)
		m = e.depth;
	while (m >>= 1)
		n++;
	return n;
}

static void mipmap_destroy(struct cudaMipmappedArray *m)
{
	unsigned int l;

	for (l = 0; l < m->levels; l++) {
		if (m->lv[l] && array_unlink(m->lv[l], true))
			array_destroy(m->lv[l]);
	}
	free(m);
}

/* Device of an array's memory (the module's answer), -1 if unknown. */
static int array_device(const struct cudaArray *a)
{
	struct uvm_pointer_info pi;

	return uvm_ptr_info(uvm_cuda_context(), a->mem, &pi) ? -1 : pi.device;
}

/*
 * cudaDeviceReset: destroy the arrays and mipmapped arrays on @device (the
 * caller waited for the device's queued work).
 */
void uvm_arrays_reset(int device)
{
	struct cudaMipmappedArray **mp, *m, *mdead = NULL;
	struct cudaArray **pp, *a, *dead = NULL;

	pthread_mutex_lock(&uvm_arrays_lock);
	for (mp = &uvm_mipmaps; *mp;) {
		m = *mp;
		if (m->levels && m->lv[0] && array_device(m->lv[0]) == device) {
			*mp = m->next;
			m->next = mdead;
			mdead = m;
		} else {
			mp = &m->next;
		}
	}
	for (pp = &uvm_arrays; *pp;) {
		a = *pp;
		if (!a->level && array_device(a) == device) {
			*pp = a->next;
			a->next = dead;
			dead = a;
		} else {
			pp = &a->next;
		}
	}
	pthread_mutex_unlock(&uvm_arrays_lock);
	while (mdead) {
		m = mdead;
		mdead = m->next;
		mipmap_destroy(m);
	}
	while (dead) {
		a = dead;
		dead = a->next;
		array_destroy(a);
	}
}

static cudaError_t malloc_mipmap(cudaMipmappedArray_t *out, const struct cudaChannelFormatDesc *desc,
				 struct cudaExtent ext, unsigned int levels, unsigned int flags)
{
	struct cudaMipmappedArray *m;
	bool vol = !(flags & (cudaArrayLayered | cudaArrayCubemap));
	struct cudaExtent le;
	unsigned int l;
	size_t elem;
	cudaError_t e = uvm_cuda_init();

	if (e)
		return e;
	if (!out || !desc)
		return cudaErrorInvalidValue;
	e = array_check(desc, ext, flags, &elem);
	if (e)
		return e;
	levels = levels < 1 ? 1 : levels;
	if (levels > max_levels(ext, flags))
		levels = max_levels(ext, flags);
	m = calloc(1, sizeof(*m) + levels * sizeof(m->lv[0]));
	if (!m)
		return cudaErrorMemoryAllocation;
	m->levels = levels;
	for (l = 0; l < levels && !e; l++) {
		le = (struct cudaExtent){ shrink(ext.width, l), shrink(ext.height, l),
					  vol ? shrink(ext.depth, l) : ext.depth };
		e = array_create(desc, le, flags, elem, &m->lv[l]);
		if (!e) {
			m->lv[l]->level = true;
			array_link(m->lv[l]);
		}
	}
	if (e) {
		mipmap_destroy(m);
		return e;
	}
	pthread_mutex_lock(&uvm_arrays_lock);
	m->next = uvm_mipmaps;
	uvm_mipmaps = m;
	pthread_mutex_unlock(&uvm_arrays_lock);
	*out = m;
	return cudaSuccess;
}

uvm_public cudaError_t cudaMallocMipmappedArray(cudaMipmappedArray_t *mipmappedArray,
						const struct cudaChannelFormatDesc *desc,
						struct cudaExtent extent, unsigned int numLevels,
						unsigned int flags)
{
	return uvm_cuda_set_error(malloc_mipmap(mipmappedArray, desc, extent, numLevels, flags));
}

/* Unlink (@unlink) or just find a live mipmapped array. */
static struct cudaMipmappedArray *mipmap_find(const void *h, bool unlink)
{
	struct cudaMipmappedArray **pp, *m = NULL;

	pthread_mutex_lock(&uvm_arrays_lock);
	for (pp = &uvm_mipmaps; *pp; pp = &(*pp)->next) {
		if (*pp == h) {
			m = *pp;
			if (unlink)
				*pp = m->next;
			break;
		}
	}
	pthread_mutex_unlock(&uvm_arrays_lock);
	return m;
}

static cudaError_t get_level(cudaArray_t *out, cudaMipmappedArray_const_t h, unsigned int level)
{
	struct cudaMipmappedArray *m;
	cudaError_t e = uvm_cuda_init();

	if (e)
		return e;
	m = h ? mipmap_find(h, false) : NULL;
	if (!m)
		return cudaErrorInvalidResourceHandle;
	if (!out || level >= m->levels)
		return cudaErrorInvalidValue;
	*out = m->lv[level];
	return cudaSuccess;
}

uvm_public cudaError_t cudaGetMipmappedArrayLevel(cudaArray_t *levelArray,
						  cudaMipmappedArray_const_t mipmappedArray,
						  unsigned int level)
{
	return uvm_cuda_set_error(get_level(levelArray, mipmappedArray, level));
}

static cudaError_t free_mipmap(cudaMipmappedArray_t h)
{
	struct cudaMipmappedArray *m;
	cudaError_t e = uvm_cuda_init();

	if (e || !h)
		return e;
	m = mipmap_find(h, true);
	if (!m)
		return cudaErrorInvalidValue;
	uvm_streams_drain(-1);
	mipmap_destroy(m);
	return cudaSuccess;
}

uvm_public cudaError_t cudaFreeMipmappedArray(cudaMipmappedArray_t mipmappedArray)
{
	return uvm_cuda_set_error(free_mipmap(mipmappedArray));
}

/* ---- 2D copies with arrays ---------------------------------------------------- */

/*
 * An array operand of a 2D call: offsets and width in bytes. They must be
 * whole elements and the region must lie in the array's first slice.
 */
static cudaError_t array_2d(const void *h, size_t woff, size_t hoff, size_t width, size_t height,
			    uint64_t *addr, uint64_t *pitch)
{
	const struct cudaArray *a = uvm_array_lookup(h);

	if (!h || !a)
		return cudaErrorInvalidValue;
	if (woff % a->elem || width % a->elem || !fits(woff, width, a->pitch) ||
	    !fits(hoff, height, a->h))
		return cudaErrorInvalidValue;
	*addr = (uintptr_t)a->mem + hoff * a->pitch + woff;
	*pitch = a->pitch;
	return cudaSuccess;
}

static cudaError_t copy_2d_array(bool to_arr, bool from_arr,
				 const void *dsta, size_t dwoff, size_t dhoff, void *dst,
				 size_t dpitch, const void *srca, size_t swoff, size_t shoff,
				 const void *src, size_t spitch, size_t width, size_t height, int kind,
				 cudaStream_t stream, bool ptsz, bool async)
{
	struct uvm_xfer x;
	cudaError_t e = uvm_cuda_init();

	if (e)
		return e;
	if (kind < cudaMemcpyHostToHost || kind > cudaMemcpyDefault)
		return cudaErrorInvalidMemcpyDirection;
	memset(&x, 0, sizeof(x));
	x.src_array = from_arr;
	x.dst_array = to_arr;
	e = x.dst_array ? array_2d(dsta, dwoff, dhoff, width, height, &x.d.dst, &x.d.dst_pitch) :
			  cudaSuccess;
	if (!e && x.src_array)
		e = array_2d(srca, swoff, shoff, width, height, &x.d.src, &x.d.src_pitch);
	if (e)
		return e;
	if (!width || !height)
		return cudaSuccess;
	if (!x.dst_array) {
		if (!dst)
			return cudaErrorInvalidValue;
		if (dpitch < width || dpitch > INT32_MAX)
			return cudaErrorInvalidPitchValue;
		x.d.dst = (uintptr_t)dst;
		x.d.dst_pitch = dpitch;
	}
	if (!x.src_array) {
		if (!src)
			return cudaErrorInvalidValue;
		if (spitch < width || spitch > INT32_MAX)
			return cudaErrorInvalidPitchValue;
		x.d.src = (uintptr_t)src;
		x.d.src_pitch = spitch;
	}
	x.d.width = width;
	x.d.height = height;
	x.d.depth = 1;
	x.d.src_rows = x.d.dst_rows = height;
	return uvm_copy_submit(&x, 1, kind, stream, ptsz, async ? UVM_COPY_ASYNC : UVM_COPY_SYNC);
}

#define TO_ARRAY(ptsz, stream, async)							\
	uvm_cuda_set_error(copy_2d_array(true, false, dst, wOffset, hOffset, NULL, 0, NULL, 0, 0, src,	\
					 spitch, width, height, kind, stream, ptsz, async))
#define FROM_ARRAY(ptsz, stream, async)							\
	uvm_cuda_set_error(copy_2d_array(false, true, NULL, 0, 0, dst, dpitch, src, wOffset, hOffset,	\
					 NULL, 0, width, height, kind, stream, ptsz, async))

uvm_public cudaError_t cudaMemcpy2DToArray(cudaArray_t dst, size_t wOffset, size_t hOffset,
					   const void *src, size_t spitch, size_t width,
					   size_t height, enum cudaMemcpyKind kind)
{
	return TO_ARRAY(false, 0, false);
}

uvm_public cudaError_t cudaMemcpy2DToArray_ptds(cudaArray_t dst, size_t wOffset, size_t hOffset,
						const void *src, size_t spitch, size_t width,
						size_t height, enum cudaMemcpyKind kind)
{
	return TO_ARRAY(true, 0, false);
}

uvm_public cudaError_t cudaMemcpy2DToArrayAsync(cudaArray_t dst, size_t wOffset, size_t hOffset,
						const void *src, size_t spitch, size_t width,
						size_t height, enum cudaMemcpyKind kind,
						cudaStream_t stream)
{
	return TO_ARRAY(false, stream, true);
}

uvm_public cudaError_t cudaMemcpy2DToArrayAsync_ptsz(cudaArray_t dst, size_t wOffset,
						     size_t hOffset, const void *src, size_t spitch,
						     size_t width, size_t height,
						     enum cudaMemcpyKind kind, cudaStream_t stream)
{
	return TO_ARRAY(true, stream, true);
}

uvm_public cudaError_t cudaMemcpy2DFromArray(void *dst, size_t dpitch, cudaArray_const_t src,
					     size_t wOffset, size_t hOffset, size_t width,
					     size_t height, enum cudaMemcpyKind kind)
{
	return FROM_ARRAY(false, 0, false);
}

uvm_public cudaError_t cudaMemcpy2DFromArray_ptds(void *dst, size_t dpitch, cudaArray_const_t src,
						  size_t wOffset, size_t hOffset, size_t width,
						  size_t height, enum cudaMemcpyKind kind)
{
	return FROM_ARRAY(true, 0, false);
}

uvm_public cudaError_t cudaMemcpy2DFromArrayAsync(void *dst, size_t dpitch, cudaArray_const_t src,
						  size_t wOffset, size_t hOffset, size_t width,
						  size_t height, enum cudaMemcpyKind kind,
						  cudaStream_t stream)
{
	return FROM_ARRAY(false, stream, true);
}

uvm_public cudaError_t cudaMemcpy2DFromArrayAsync_ptsz(void *dst, size_t dpitch,
						       cudaArray_const_t src, size_t wOffset,
						       size_t hOffset, size_t width, size_t height,
						       enum cudaMemcpyKind kind, cudaStream_t stream)
{
	return FROM_ARRAY(true, stream, true);
}

static cudaError_t array_to_array(cudaArray_t dst, size_t dw, size_t dh, cudaArray_const_t src,
				  size_t sw, size_t sh, size_t width, size_t height, int kind,
				  bool ptsz)
{
	return copy_2d_array(true, true, dst, dw, dh, NULL, 0, src, sw, sh, NULL, 0, width, height, kind, 0,
			     ptsz, false);
}

uvm_public cudaError_t cudaMemcpy2DArrayToArray(cudaArray_t dst, size_t wOffsetDst, size_t hOffsetDst,
						cudaArray_const_t src, size_t wOffsetSrc,
						size_t hOffsetSrc, size_t width, size_t height,
						enum cudaMemcpyKind kind)
{
	return uvm_cuda_set_error(array_to_array(dst, wOffsetDst, hOffsetDst, src, wOffsetSrc,
						 hOffsetSrc, width, height, kind, false));
}

uvm_public cudaError_t cudaMemcpy2DArrayToArray_ptds(cudaArray_t dst, size_t wOffsetDst,
						     size_t hOffsetDst, cudaArray_const_t src,
						     size_t wOffsetSrc, size_t hOffsetSrc,
						     size_t width, size_t height,
						     enum cudaMemcpyKind kind)
{
	return uvm_cuda_set_error(array_to_array(dst, wOffsetDst, hOffsetDst, src, wOffsetSrc,
						 hOffsetSrc, width, height, kind, true));
}

/* ---- symbols ------------------------------------------------------------------------ */

/* No __device__/__constant__ variable is ever registered: every symbol is
 * unknown. NULL outputs are InvalidValue; nothing is written. */
static cudaError_t no_symbol(const void *out)
{
	cudaError_t e = uvm_cuda_init();

	if (e)
		return e;
	return out ? cudaErrorInvalidSymbol : cudaErrorInvalidValue;
}

uvm_public cudaError_t cudaGetSymbolAddress(void **devPtr, const void *symbol)
{
	(void)symbol;
	return uvm_cuda_set_error(no_symbol(devPtr));
}

uvm_public cudaError_t cudaGetSymbolSize(size_t *size, const void *symbol)
{
	(void)symbol;
	return uvm_cuda_set_error(no_symbol(size));
}

/* Symbol copies: the kind is checked first (To: HtoD/DtoD/Default, From:
 * DtoH/DtoD/Default -> else InvalidMemcpyDirection), then the symbol. */
static cudaError_t symbol_copy(int kind, bool to)
{
	cudaError_t e = uvm_cuda_init();

	if (e)
		return e;
	if (kind != cudaMemcpyDeviceToDevice && kind != cudaMemcpyDefault &&
	    kind != (to ? cudaMemcpyHostToDevice : cudaMemcpyDeviceToHost))
		return cudaErrorInvalidMemcpyDirection;
	return cudaErrorInvalidSymbol;
}

uvm_public cudaError_t cudaMemcpyToSymbol(const void *symbol, const void *src, size_t count,
					  size_t offset, enum cudaMemcpyKind kind)
{
	(void)symbol, (void)src, (void)count, (void)offset;
	return uvm_cuda_set_error(symbol_copy(kind, true));
}

uvm_public cudaError_t cudaMemcpyToSymbol_ptds(const void *symbol, const void *src, size_t count,
					       size_t offset, enum cudaMemcpyKind kind)
{
	(void)symbol, (void)src, (void)count, (void)offset;
	return uvm_cuda_set_error(symbol_copy(kind, true));
}

uvm_public cudaError_t cudaMemcpyFromSymbol(void *dst, const void *symbol, size_t count,
					    size_t offset, enum cudaMemcpyKind kind)
{
	(void)symbol, (void)dst, (void)count, (void)offset;
	return uvm_cuda_set_error(symbol_copy(kind, false));
}

uvm_public cudaError_t cudaMemcpyFromSymbol_ptds(void *dst, const void *symbol, size_t count,
						 size_t offset, enum cudaMemcpyKind kind)
{
	(void)symbol, (void)dst, (void)count, (void)offset;
	return uvm_cuda_set_error(symbol_copy(kind, false));
}

uvm_public cudaError_t cudaMemcpyToSymbolAsync(const void *symbol, const void *src, size_t count,
					       size_t offset, enum cudaMemcpyKind kind,
					       cudaStream_t stream)
{
	(void)symbol, (void)src, (void)count, (void)offset, (void)stream;
	return uvm_cuda_set_error(symbol_copy(kind, true));
}

uvm_public cudaError_t cudaMemcpyToSymbolAsync_ptsz(const void *symbol, const void *src,
						    size_t count, size_t offset,
						    enum cudaMemcpyKind kind, cudaStream_t stream)
{
	(void)symbol, (void)src, (void)count, (void)offset, (void)stream;
	return uvm_cuda_set_error(symbol_copy(kind, true));
}

uvm_public cudaError_t cudaMemcpyFromSymbolAsync(void *dst, const void *symbol, size_t count,
						 size_t offset, enum cudaMemcpyKind kind,
						 cudaStream_t stream)
{
	(void)symbol, (void)dst, (void)count, (void)offset, (void)stream;
	return uvm_cuda_set_error(symbol_copy(kind, false));
}

uvm_public cudaError_t cudaMemcpyFromSymbolAsync_ptsz(void *dst, const void *symbol, size_t count,
						      size_t offset, enum cudaMemcpyKind kind,
						      cudaStream_t stream)
{
	(void)symbol, (void)dst, (void)count, (void)offset, (void)stream;
	return uvm_cuda_set_error(symbol_copy(kind, false));
}
