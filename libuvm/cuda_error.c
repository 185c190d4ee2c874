// SPDX-License-Identifier: MIT
/*
 * cuda_error.c - CUDA status codes: names, strings, the thread-local last
 * error, and the one place where the library's -errno convention becomes
 * cudaError_t / CUresult.
 */
#include <errno.h>

#include "uvm_internal.h"

/* The calling thread's last error (cudaGetLastError/cudaPeekAtLastError). */
static __thread cudaError_t uvm_thread_last_error;

/*
 * -errno -> cudaError_t for everything after initialisation. The kernel's
 * errno meanings follow include/uapi/uvm.h: ENOENT lookup failed, ENOSPC out
 * of device memory, ENOMEM out of host memory, ENODEV device gone.
 */
cudaError_t uvm_errno_to_cuda(int err)
{
	switch (-err) {
	case 0:
		return cudaSuccess;
	case EINVAL:
	case ENOENT:
	case EFAULT:
	case ERANGE:
	case EOVERFLOW:
	case E2BIG:
		return cudaErrorInvalidValue;
	case ENOMEM:
	case ENOSPC:
		return cudaErrorMemoryAllocation;
	case ENODEV:
	case EBUSY:
		return cudaErrorDevicesUnavailable;
	case EPERM:
	case EACCES:
		return cudaErrorNotPermitted;
	case ENOTTY:
	case EOPNOTSUPP:
	case ENOSYS:
		return cudaErrorNotSupported;
	case EPROTO:
		return cudaErrorInsufficientDriver;
	case ETIMEDOUT:
		return cudaErrorTimeout;
	case EADDRNOTAVAIL:	/* a device kernel's access (uvm_kernel.c) */
		return cudaErrorIllegalAddress;
	default:
		return cudaErrorUnknown;
	}
}

/* The driver-API twin of uvm_errno_to_cuda(), same rows. */
CUresult uvm_errno_to_cu(int err)
{
	switch (-err) {
	case 0:
		return CUDA_SUCCESS;
	case EINVAL:
	case ENOENT:
	case EFAULT:
	case ERANGE:
	case EOVERFLOW:
	case E2BIG:
		return CUDA_ERROR_INVALID_VALUE;
	case ENOMEM:
	case ENOSPC:
		return CUDA_ERROR_OUT_OF_MEMORY;
	case ENODEV:
	case EBUSY:
		return CUDA_ERROR_DEVICE_UNAVAILABLE;
	case EPERM:
	case EACCES:
		return CUDA_ERROR_NOT_PERMITTED;
	case ENOTTY:
	case EOPNOTSUPP:
	case ENOSYS:
		return CUDA_ERROR_NOT_SUPPORTED;
	case EPROTO:
		return CUDA_ERROR_SYSTEM_DRIVER_MISMATCH;
	case ETIMEDOUT:
		return CUDA_ERROR_TIMEOUT;
	case EADDRNOTAVAIL:
		return CUDA_ERROR_ILLEGAL_ADDRESS;
	default:
		return CUDA_ERROR_UNKNOWN;
	}
}

cudaError_t uvm_cuda_swap_last_error(cudaError_t e)
{
	cudaError_t old = uvm_thread_last_error;

	uvm_thread_last_error = e;
	return old;
}

cudaError_t uvm_cuda_set_error(cudaError_t e)
{
	if (e != cudaSuccess)
		uvm_thread_last_error = e;
	return e;
}

/*
 * A failed initialisation is sticky, as with CUDA: it is reported by every
 * call, cudaGetLastError() included, and never reset. Otherwise the thread's
 * last error is returned and, for cudaGetLastError(), cleared.
 */
cudaError_t uvm_cuda_last_error(bool reset)
{
	cudaError_t e = uvm_cuda_init();

	if (e != cudaSuccess)
		return e;
	e = uvm_thread_last_error;
	if (reset)
		uvm_thread_last_error = cudaSuccess;
	return e;
}

#define UVM_UNRECOGNIZED "unrecognized error code"

static const char *uvm_cuda_error_name(cudaError_t e)
{
	switch (e) {
#define UVM_CUDA_ERROR(code, desc) case code: return #code;
#include "cuda_error_table.h"
#undef UVM_CUDA_ERROR
	default:
		return UVM_UNRECOGNIZED;
	}
}

static const char *uvm_cuda_error_string(cudaError_t e)
{
	switch (e) {
#define UVM_CUDA_ERROR(code, desc) case code: return desc;
#include "cuda_error_table.h"
#undef UVM_CUDA_ERROR
	default:
		return UVM_UNRECOGNIZED;
	}
}

uvm_public const char *cudaGetErrorName(cudaError_t error)
{
	return uvm_cuda_error_name(error);
}

uvm_public const char *cudaGetErrorString(cudaError_t error)
{
	return uvm_cuda_error_string(error);
}

uvm_public cudaError_t cudaGetLastError(void)
{
	return uvm_cuda_last_error(true);
}

uvm_public cudaError_t cudaPeekAtLastError(void)
{
	return uvm_cuda_last_error(false);
}

/* ---- driver API: names and strings of every CUresult ------------------------ */

static const char *uvm_cu_error_name(CUresult e)
{
	switch (e) {
#define UVM_CU_ERROR(code, desc) case code: return #code;
#include "cu_error_table.h"
#undef UVM_CU_ERROR
	default:
		return NULL;
	}
}

static const char *uvm_cu_error_string(CUresult e)
{
	switch (e) {
#define UVM_CU_ERROR(code, desc) case code: return desc;
#include "cu_error_table.h"
#undef UVM_CU_ERROR
	default:
		return NULL;
	}
}

/* Need no initialisation; an unknown code: *pStr = NULL, INVALID_VALUE. */
uvm_public CUresult cuGetErrorName(CUresult error, const char **pStr)
{
	if (!pStr)
		return CUDA_ERROR_INVALID_VALUE;
	*pStr = uvm_cu_error_name(error);
	return *pStr ? CUDA_SUCCESS : CUDA_ERROR_INVALID_VALUE;
}

uvm_public CUresult cuGetErrorString(CUresult error, const char **pStr)
{
	if (!pStr)
		return CUDA_ERROR_INVALID_VALUE;
	*pStr = uvm_cu_error_string(error);
	return *pStr ? CUDA_SUCCESS : CUDA_ERROR_INVALID_VALUE;
}
