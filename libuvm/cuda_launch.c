// SPDX-License-Identifier: MIT
/*
 * cuda_launch.c - what nvcc's host code calls: fat binary and kernel
 * registration, the <<<...>>> call configuration, kernel launches
 * (docs/kernels.md, "Kernels by name").
 *
 * No device code runs here. A fat binary is only a handle; a registered
 * kernel is its host stub's address and its mangled name. A launch finds
 * the CPU implementation registered under that name (uvm_kernel_registry.c),
 * which fills a struct uvm_kernel from the launch's arguments, and queues
 * it on the stream through the launch path of uvmLaunchKernel().
 *
 * Registration runs in static constructors, before main(): it never
 * initialises the runtime. Kernel records live until their fat binary is
 * unregistered; handles (cudaKernel_t) are the records' addresses, checked
 * against the live list.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>

#include "cuda_memory.h"
#include "cuda_ptsz.h"
#include "cuda_stream.h"
#include "uvm_kernel_int.h"
#include "cuda_nvcc.h"

#define UVM_CFG_DEPTH		64	/* nested <<<...>>> of one thread */
#define UVM_DEFAULT_DYN_SMEM	49152	/* sharedMemPerBlock, no static shared */

struct uvm_fatbin {
	void *fat_cubin;		/* first: the handle is a void ** */
	struct uvm_fatbin *next;
};

struct CUkern_st {
	struct CUkern_st *next;
	struct uvm_fatbin *fb;
	const void *host_fun;
	char *name;
	uvm_kernel_impl_fn impl;	/* found at the first launch */
	struct uvm_func_attrs attrs;
};

static pthread_mutex_t fn_lock = PTHREAD_MUTEX_INITIALIZER;
static struct uvm_fatbin *fn_fatbins;	/* under fn_lock */
static struct CUkern_st *fn_list;

struct call_config {
	dim3 grid, block;
	size_t shared_mem;
	cudaStream_t stream;
};

static __thread struct call_config cfg_stack[UVM_CFG_DEPTH];
static __thread unsigned int cfg_depth;

/* ---- registration -------------------------------------------------------- */

/* Caller holds fn_lock. */
static struct uvm_fatbin *fatbin_find_locked(void **h)
{
	struct uvm_fatbin *fb;

	for (fb = fn_fatbins; fb; fb = fb->next)
		if ((void **)fb == h)
			return fb;
	return NULL;
}

/* The kernel whose host stub or handle is @func. Caller holds fn_lock. */
static struct CUkern_st *func_find_locked(const void *func)
{
	struct CUkern_st *f;

	if (!func)
		return NULL;
	for (f = fn_list; f; f = f->next)
		if (f->host_fun == func)
			return f;
	for (f = fn_list; f; f = f->next)
		if ((const void *)f == func)
			return f;
	return NULL;
}

uvm_public void **__cudaRegisterFatBinary(void *fatCubin)
{
	struct uvm_fatbin *fb = calloc(1, sizeof(*fb));

	if (!fb)
		return NULL;
	fb->fat_cubin = fatCubin;
	pthread_mutex_lock(&fn_lock);
	fb->next = fn_fatbins;
	fn_fatbins = fb;
	pthread_mutex_unlock(&fn_lock);
	return (void **)fb;
}

uvm_public void __cudaRegisterFatBinaryEnd(void **fatCubinHandle)
{
	(void)fatCubinHandle;	/* nothing to link: no device code is loaded */
}

uvm_public char __cudaInitModule(void **fatCubinHandle)
{
	bool known;

	pthread_mutex_lock(&fn_lock);
	known = fatbin_find_locked(fatCubinHandle) != NULL;
	pthread_mutex_unlock(&fn_lock);
	return known;
}

uvm_public void __cudaRegisterFunction(void **fatCubinHandle, const char *hostFun,
				       char *deviceFun, const char *deviceName,
				       int thread_limit, uint3 *tid, uint3 *bid, dim3 *bDim,
				       dim3 *gDim, int *wSize)
{
	const char *name = deviceName ? deviceName : deviceFun;
	struct CUkern_st *f;

	(void)thread_limit, (void)tid, (void)bid, (void)bDim, (void)gDim, (void)wSize;
	if (!hostFun || !name || !*name)
		return;
	f = calloc(1, sizeof(*f));
	if (f)
		f->name = strdup(name);
	if (!f || !f->name) {
		free(f);
		return;
	}
	f->host_fun = hostFun;
	f->attrs = (struct uvm_func_attrs){ UVM_DEFAULT_DYN_SMEM, cudaSharedmemCarveoutDefault,
					    cudaFuncCachePreferNone };
	pthread_mutex_lock(&fn_lock);
	f->fb = fatbin_find_locked(fatCubinHandle);
	if (f->fb && !func_find_locked(hostFun)) {
		f->next = fn_list;
		fn_list = f;
		f = NULL;
	}
	pthread_mutex_unlock(&fn_lock);
	if (f) {		/* unknown fat binary, or the stub is registered */
		free(f->name);
		free(f);
	}
}

uvm_public void __cudaUnregisterFatBinary(void **fatCubinHandle)
{
	struct CUkern_st **pp, *f, *dead = NULL;
	struct uvm_fatbin **fp, *fb = NULL;

	pthread_mutex_lock(&fn_lock);
	for (fp = &fn_fatbins; *fp; fp = &(*fp)->next) {
		if ((void **)*fp == fatCubinHandle) {
			fb = *fp;
			*fp = fb->next;
			break;
		}
	}
	for (pp = &fn_list; fb && *pp;) {
		f = *pp;
		if (f->fb != fb) {
			pp = &f->next;
			continue;
		}
		*pp = f->next;
		f->next = dead;
		dead = f;
	}
	pthread_mutex_unlock(&fn_lock);
	while (dead) {
		f = dead;
		dead = f->next;
		free(f->name);
		free(f);
	}
	free(fb);
}

/*
 * Does the kernel named @name have an implementation? A kernel without one
 * has, to CUDA, no image for the device: its attributes are refused as its
 * launches are (-ENOEXEC), as CUDA 13 answers (answers-h100.txt).
 */
static int func_runnable(uvm_kernel_impl_fn fn, const char *name)
{
	return fn || uvm_kernel_impl_find(name) ? 0 : -ENOEXEC;
}

int uvm_func_attrs_get(const void *func, struct uvm_func_attrs *a)
{
	struct CUkern_st *f;
	uvm_kernel_impl_fn fn = NULL;
	const char *name = NULL;

	pthread_mutex_lock(&fn_lock);
	f = func_find_locked(func);
	if (f) {
		*a = f->attrs;
		fn = f->impl;
		name = f->name;
	}
	pthread_mutex_unlock(&fn_lock);
	return f ? func_runnable(fn, name) : -ENOENT;
}

int uvm_func_attrs_set(const void *func, const struct uvm_func_attrs *a)
{
	struct uvm_func_attrs old;
	struct CUkern_st *f;
	int ret = uvm_func_attrs_get(func, &old);

	if (ret)
		return ret;
	pthread_mutex_lock(&fn_lock);
	f = func_find_locked(func);
	if (f)
		f->attrs = *a;
	pthread_mutex_unlock(&fn_lock);
	return f ? 0 : -ENOENT;
}

/* ---- the call configuration of <<<...>>> (a stack per thread) ---------- */

uvm_public unsigned int __cudaPushCallConfiguration(dim3 gridDim, dim3 blockDim,
						    size_t sharedMem,
						    struct CUstream_st *stream)
{
	if (cfg_depth == UVM_CFG_DEPTH) {
		uvm_cuda_set_error(cudaErrorMemoryAllocation);
		return 1;	/* the stub is not called */
	}
	cfg_stack[cfg_depth++] = (struct call_config){ gridDim, blockDim, sharedMem, stream };
	return 0;
}

uvm_public cudaError_t __cudaPopCallConfiguration(dim3 *gridDim, dim3 *blockDim,
						  size_t *sharedMem, void *stream)
{
	const struct call_config *c;

	if (!gridDim || !blockDim || !sharedMem || !stream)
		return uvm_cuda_set_error(cudaErrorInvalidValue);
	if (!cfg_depth)
		return uvm_cuda_set_error(cudaErrorMissingConfiguration);
	c = &cfg_stack[--cfg_depth];
	*gridDim = c->grid;
	*blockDim = c->block;
	*sharedMem = c->shared_mem;
	*(cudaStream_t *)stream = c->stream;
	return cudaSuccess;
}

/* ---- launches ------------------------------------------------------------ */

/*
 * The status of a function pointer that names no kernel, as CUDA 13 answers
 * (bench/nvidia/answers-h100.txt): NULL is cudaErrorInvalidDeviceFunction,
 * any other address (a host function, a freed handle)
 * cudaErrorInvalidResourceHandle.
 */
cudaError_t uvm_func_unknown(const void *func)
{
	return func ? cudaErrorInvalidResourceHandle : cudaErrorInvalidDeviceFunction;
}

static cudaError_t get_kernel(cudaKernel_t *kernel, const void *func)
{
	struct CUkern_st *f;

	if (!kernel)
		return cudaErrorInvalidValue;
	pthread_mutex_lock(&fn_lock);
	f = func_find_locked(func);
	pthread_mutex_unlock(&fn_lock);
	if (!f)
		return uvm_func_unknown(func);
	*kernel = f;
	return cudaSuccess;
}

uvm_public cudaError_t __cudaGetKernel(cudaKernel_t *kernel, const void *hostFun)
{
	return uvm_cuda_set_error(get_kernel(kernel, hostFun));
}

uvm_public cudaError_t cudaGetKernel(cudaKernel_t *kernelPtr, const void *entryFuncAddr)
{
	return uvm_cuda_set_error(get_kernel(kernelPtr, entryFuncAddr));
}

/*
 * The implementation of the kernel @func and its attributes; its name in
 * @name (valid while the kernel stays registered). 0, -ENOENT (not
 * registered) or -ENOEXEC (no implementation).
 */
static int func_impl(const void *func, const char **name, uvm_kernel_impl_fn *impl,
		     struct uvm_func_attrs *a)
{
	struct CUkern_st *f;
	uvm_kernel_impl_fn fn;

	pthread_mutex_lock(&fn_lock);
	f = func_find_locked(func);
	if (f) {
		*name = f->name;
		*a = f->attrs;
	}
	fn = f ? f->impl : NULL;
	pthread_mutex_unlock(&fn_lock);
	if (!f)
		return -ENOENT;
	if (fn) {
		*impl = fn;
		return 0;
	}
	fn = uvm_kernel_impl_find(*name);
	if (!fn)
		return -ENOEXEC;
	pthread_mutex_lock(&fn_lock);
	f = func_find_locked(func);
	if (f)
		f->impl = fn;
	pthread_mutex_unlock(&fn_lock);
	*impl = fn;
	return 0;
}

/* Can @device run a launch of this shape at all? */
static bool config_ok(int device, dim3 g, dim3 b, size_t shmem, const struct uvm_func_attrs *a)
{
	struct cudaDeviceProp p;

	uvm_cuda_props(device, &p);
	if (!g.x || !g.y || !g.z || !b.x || !b.y || !b.z)
		return false;
	if (g.x > (unsigned int)p.maxGridSize[0] || g.y > (unsigned int)p.maxGridSize[1] ||
	    g.z > (unsigned int)p.maxGridSize[2])
		return false;
	if (b.x > (unsigned int)p.maxThreadsDim[0] || b.y > (unsigned int)p.maxThreadsDim[1] ||
	    b.z > (unsigned int)p.maxThreadsDim[2])
		return false;
	if ((uint64_t)b.x * b.y * b.z > (uint64_t)p.maxThreadsPerBlock)
		return false;
	return shmem <= (size_t)a->max_dyn_smem;
}

static const struct uvm_kernel_stats no_stats;

/* Fill the kernel with @impl and queue it on @s; its state freed on failure. */
static cudaError_t run_impl(uvm_kernel_impl_fn impl, const struct uvm_kernel_launch *l,
			    struct CUstream_st *s)
{
	struct uvm_kernel k;
	cudaError_t e;
	int ret;

	memset(&k, 0, sizeof(k));
	ret = impl(l, &k);
	if (ret)
		return uvm_errno_to_cuda(ret < 0 ? ret : -EINVAL);
	e = uvm_kernel_queue(&k, l->device, s);
	if (e && k.done)
		k.done(k.arg, -ECANCELED, &no_stats);
	return e;
}

static cudaError_t launch(const void *func, dim3 grid, dim3 block, void **args,
			  size_t shmem, cudaStream_t stream, bool ptsz)
{
	struct uvm_kernel_launch l = {
		.grid = grid, .block = block, .shared_mem = shmem, .args = args,
	};
	struct uvm_func_attrs a;
	uvm_kernel_impl_fn impl = NULL;
	struct CUstream_st *s;
	cudaError_t e = uvm_cuda_init();
	int ret;

	if (e)
		return e;
	ret = func_impl(func, &l.name, &impl, &a);
	if (ret == -ENOENT)
		return uvm_func_unknown(func);
	if (ret) {
		if (uvm_kernel_warn_once(l.name))
			fprintf(stderr, "libuvm: no implementation of kernel %s (UVM_KERNELS)\n",
				l.name);
		return cudaErrorNoKernelImageForDevice;
	}
	e = uvm_stream_get(stream, ptsz, &s);
	if (e)
		return e;
	l.device = uvm_stream_device(s);
	if (!config_ok(l.device, grid, block, shmem, &a))
		e = cudaErrorInvalidValue;	/* CUDA 13's answer, not 9 */
	else
		e = run_impl(impl, &l, s);
	uvm_stream_put(s);
	return e;
}

uvm_public cudaError_t __cudaLaunchKernel(cudaKernel_t kernel, dim3 gridDim, dim3 blockDim,
					  void **args, size_t sharedMem, cudaStream_t stream)
{
	return uvm_cuda_set_error(launch(kernel, gridDim, blockDim, args, sharedMem, stream,
					 false));
}

uvm_public cudaError_t __cudaLaunchKernel_ptsz(cudaKernel_t kernel, dim3 gridDim,
					       dim3 blockDim, void **args, size_t sharedMem,
					       cudaStream_t stream)
{
	return uvm_cuda_set_error(launch(kernel, gridDim, blockDim, args, sharedMem, stream,
					 true));
}

uvm_public cudaError_t cudaLaunchKernel(const void *func, dim3 gridDim, dim3 blockDim,
					void **args, size_t sharedMem, cudaStream_t stream)
{
	return uvm_cuda_set_error(launch(func, gridDim, blockDim, args, sharedMem, stream,
					 false));
}

uvm_public cudaError_t cudaLaunchKernel_ptsz(const void *func, dim3 gridDim, dim3 blockDim,
					     void **args, size_t sharedMem, cudaStream_t stream)
{
	return uvm_cuda_set_error(launch(func, gridDim, blockDim, args, sharedMem, stream,
					 true));
}
