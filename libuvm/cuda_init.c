// SPDX-License-Identifier: MIT
/*
 * cuda_init.c - lazy, one-time initialisation of the CUDA runtime layer.
 *
 * The first runtime call that needs devices opens /dev/uvm (uvm_open) once
 * per process under pthread_once(). The outcome is fixed for the life of the
 * process, like CUDA's: a failure is returned by every later call.
 */
#include <errno.h>
#include <pthread.h>
#include <stdatomic.h>

#include "uvm_internal.h"

static pthread_once_t uvm_cuda_once = PTHREAD_ONCE_INIT;
static cudaError_t uvm_cuda_init_status;	/* written once, under uvm_cuda_once */
static struct uvm_context *uvm_cuda_ctx;	/* idem; never freed (CUDA keeps it too) */

/* Set once the driver API is initialised (cuInit, or the runtime's init). */
static atomic_bool uvm_cu_init_done;

/*
 * The calling thread's device when no context is current to it
 * (cudaSetDevice); 0 until set. A current context (cuda_context.c) wins.
 */
static __thread int uvm_thread_device;

/*
 * Why initialisation failed -> what the runtime reports. Absence of the
 * module (no /dev/uvm, a stale node, an ABI mismatch) is
 * cudaErrorInsufficientDriver, which is what CUDA 13's runtime returns on a
 * machine without the NVIDIA driver. A node we may not open is
 * cudaErrorNoDevice, as with CUDA when /dev/nvidia* is inaccessible.
 */
static cudaError_t uvm_init_errno_to_cuda(int err)
{
	switch (-err) {
	case ENOENT:
	case ENXIO:
	case ENODEV:
	case ENOTTY:
	case EPROTO:
		return cudaErrorInsufficientDriver;
	case EACCES:
	case EPERM:
		return cudaErrorNoDevice;
	case ENOMEM:
		return cudaErrorMemoryAllocation;
	default:
		return cudaErrorInitializationError;
	}
}

static void uvm_cuda_do_init(void)
{
	struct uvm_context *ctx;
	int ret;

	ret = uvm_open(&ctx);
	if (ret) {
		uvm_cuda_init_status = uvm_init_errno_to_cuda(ret);
		return;
	}
	if (uvm_device_count(ctx) <= 0) {
		uvm_close(ctx);
		uvm_cuda_init_status = cudaErrorNoDevice;
		return;
	}
	if (uvm_ctx_init((unsigned int)uvm_device_count(ctx))) {
		uvm_close(ctx);
		uvm_cuda_init_status = cudaErrorMemoryAllocation;
		return;
	}
	uvm_cuda_ctx = ctx;
	uvm_cuda_init_status = cudaSuccess;
	/* the runtime initialises the driver API, as libcudart calls cuInit */
	uvm_cu_set_initialised();
}

bool uvm_cu_initialised(void)
{
	return atomic_load(&uvm_cu_init_done);
}

void uvm_cu_set_initialised(void)
{
	atomic_store(&uvm_cu_init_done, true);
}

cudaError_t uvm_cuda_init(void)
{
	pthread_once(&uvm_cuda_once, uvm_cuda_do_init);
	return uvm_cuda_init_status;
}

struct uvm_context *uvm_cuda_context(void)
{
	return uvm_cuda_ctx;
}

cudaError_t uvm_cuda_check_device(int device)
{
	if (device < 0 || device >= uvm_device_count(uvm_cuda_ctx))
		return cudaErrorInvalidDevice;
	return cudaSuccess;
}

const struct uvm_device *uvm_cuda_device(int device)
{
	return &uvm_cuda_ctx->devices[device];
}

/*
 * The device of the thread's current context. With none current, the
 * runtime binds the primary context of the thread's device first, as
 * libcudart does: the runtime and the driver share primary contexts.
 */
int uvm_cuda_current_device(void)
{
	int d = uvm_ctx_current_device();

	if (d >= 0)
		return d;
	uvm_ctx_bind_default(uvm_thread_device);
	return uvm_thread_device;
}

/* cudaSetDevice: @device's primary context becomes the thread's current. */
void uvm_cuda_set_current_device(int device)
{
	uvm_thread_device = device;
	uvm_ctx_bind_primary(device);
}

/* The runtime's init outcome as the native API's -errno. */
static int uvm_cuda_status_to_errno(cudaError_t e)
{
	switch (e) {
	case cudaSuccess:
		return 0;
	case cudaErrorInsufficientDriver:
		return -ENOENT;
	case cudaErrorNoDevice:
		return -ENODEV;
	case cudaErrorMemoryAllocation:
		return -ENOMEM;
	default:
		return -EIO;
	}
}

uvm_public int uvm_runtime_context(struct uvm_context **ctx)
{
	int ret;

	if (!ctx)
		return -EINVAL;
	ret = uvm_cuda_status_to_errno(uvm_cuda_init());
	if (!ret)
		*ctx = uvm_cuda_ctx;
	return ret;
}
