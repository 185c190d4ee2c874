// SPDX-License-Identifier: MIT
/*
 * cuda_driver_core.c - the driver API's core: cuInit, versions, devices,
 * streams, events, and the device-code calls (modules, linking, launches),
 * which exist so programs link and answer CUDA_ERROR_NOT_SUPPORTED.
 *
 * Every call but cuInit, cuDriverGetVersion and cuGetErrorName/String
 * answers CUDA_ERROR_NOT_INITIALIZED until the driver API is initialised:
 * by cuInit(0), or by the runtime's own initialisation (libcudart calls
 * cuInit too). Streams and events are the runtime's (cuda_stream.c): the
 * handles of either API work in the other. Driver calls never touch the
 * runtime's last error.
 */
#include <stdio.h>
#include <string.h>

#include "cuda_memory.h"
#include "cuda_ptsz.h"

#undef cuDeviceTotalMem
#undef cuDeviceGetUuid
#undef cuStreamDestroy
#undef cuEventDestroy
#undef cuEventElapsedTime
#undef cuLinkCreate
#undef cuLinkAddData
#undef cuLinkAddFile
#undef cuModuleGetGlobal
#undef cuStreamQuery
#undef cuStreamSynchronize
#undef cuEventRecord
#undef cuEventRecordWithFlags
#undef cuLaunchKernel

CUresult cuDeviceTotalMem_v2(size_t *bytes, CUdevice dev);
CUresult cuDeviceGetUuid(CUuuid *uuid, CUdevice dev);
CUresult cuDeviceGetUuid_v2(CUuuid *uuid, CUdevice dev);
CUresult cuStreamDestroy_v2(CUstream hStream);
CUresult cuStreamQuery_ptsz(CUstream hStream);
CUresult cuStreamSynchronize_ptsz(CUstream hStream);
CUresult cuEventDestroy_v2(CUevent hEvent);
CUresult cuEventElapsedTime(float *pMilliseconds, CUevent hStart, CUevent hEnd);
CUresult cuEventElapsedTime_v2(float *pMilliseconds, CUevent hStart, CUevent hEnd);
CUresult cuEventRecord_ptsz(CUevent hEvent, CUstream hStream);
CUresult cuEventRecordWithFlags_ptsz(CUevent hEvent, CUstream hStream, unsigned int flags);
CUresult cuModuleGetGlobal_v2(CUdeviceptr *dptr, size_t *bytes, CUmodule hmod, const char *name);
CUresult cuLaunchKernel_ptsz(CUfunction f, unsigned int gridDimX, unsigned int gridDimY,
			     unsigned int gridDimZ, unsigned int blockDimX, unsigned int blockDimY,
			     unsigned int blockDimZ, unsigned int sharedMemBytes, CUstream hStream,
			     void **kernelParams, void **extra);
CUresult cuLinkCreate_v2(unsigned int numOptions, CUjit_option *options, void **optionValues,
			 CUlinkState *stateOut);
CUresult cuLinkAddData_v2(CUlinkState state, CUjitInputType type, void *data, size_t size,
			  const char *name, unsigned int numOptions, CUjit_option *options,
			  void **optionValues);
CUresult cuLinkAddFile_v2(CUlinkState state, CUjitInputType type, const char *path,
			  unsigned int numOptions, CUjit_option *options, void **optionValues);

/* Initialised, else CUDA_ERROR_NOT_INITIALIZED. */
static CUresult cu_ready(void)
{
	return uvm_cu_initialised() ? CUDA_SUCCESS : CUDA_ERROR_NOT_INITIALIZED;
}

/* ---- initialisation and versions --------------------------------------------- */

/*
 * Flags must be 0. Opens the module once per process, shared with the
 * runtime; a failure is the runtime's (no module: NOT_INITIALIZED, no
 * device: NO_DEVICE) and is returned by every later cuInit too.
 */
uvm_public CUresult cuInit(unsigned int Flags)
{
	cudaError_t e;

	if (Flags)
		return CUDA_ERROR_INVALID_VALUE;
	e = uvm_cuda_init();
	if (e)
		return uvm_cuda_to_cu(e);
	uvm_cu_set_initialised();
	return CUDA_SUCCESS;
}

/* Needs no initialisation, as CUDA's. */
uvm_public CUresult cuDriverGetVersion(int *driverVersion)
{
	if (!driverVersion)
		return CUDA_ERROR_INVALID_VALUE;
	*driverVersion = UVM_CUDA_VERSION;
	return CUDA_SUCCESS;
}

/* ---- devices ------------------------------------------------------------------ */

uvm_public CUresult cuDeviceGetCount(int *count)
{
	CUresult r = cu_ready();

	if (r)
		return r;
	if (!count)
		return CUDA_ERROR_INVALID_VALUE;
	*count = uvm_device_count(uvm_cuda_context());
	return CUDA_SUCCESS;
}

uvm_public CUresult cuDeviceGet(CUdevice *device, int ordinal)
{
	CUresult r = cu_ready();

	if (r)
		return r;
	if (!device)
		return CUDA_ERROR_INVALID_VALUE;
	if (uvm_cuda_check_device(ordinal))
		return CUDA_ERROR_INVALID_DEVICE;
	*device = ordinal;
	return CUDA_SUCCESS;
}

/* The module's device name, cut to @len - 1 bytes. */
uvm_public CUresult cuDeviceGetName(char *name, int len, CUdevice dev)
{
	CUresult r = cu_ready();

	if (r)
		return r;
	if (!name || len <= 0)
		return CUDA_ERROR_INVALID_VALUE;
	if (uvm_cuda_check_device(dev))
		return CUDA_ERROR_INVALID_DEVICE;
	snprintf(name, (size_t)len, "%s", uvm_cuda_device(dev)->info.name);
	return CUDA_SUCCESS;
}

static CUresult device_uuid(CUuuid *uuid, CUdevice dev)
{
	CUresult r = cu_ready();

	if (r)
		return r;
	if (!uuid)
		return CUDA_ERROR_INVALID_VALUE;
	if (uvm_cuda_check_device(dev))
		return CUDA_ERROR_INVALID_DEVICE;
	uvm_cuda_uuid(dev, uuid);
	return CUDA_SUCCESS;
}

uvm_public CUresult cuDeviceGetUuid_v2(CUuuid *uuid, CUdevice dev)
{
	return device_uuid(uuid, dev);
}

/* The older name; uvm devices have no MIG instances, so the same uuid. */
uvm_public CUresult cuDeviceGetUuid(CUuuid *uuid, CUdevice dev)
{
	return device_uuid(uuid, dev);
}

uvm_public CUresult cuDeviceTotalMem_v2(size_t *bytes, CUdevice dev)
{
	CUresult r = cu_ready();

	if (r)
		return r;
	if (!bytes)
		return CUDA_ERROR_INVALID_VALUE;
	if (uvm_cuda_check_device(dev))
		return CUDA_ERROR_INVALID_DEVICE;
	*bytes = uvm_cuda_device(dev)->info.mem_total;
	return CUDA_SUCCESS;
}

/* Order of checks as the runtime's: NULL, device, attribute. */
uvm_public CUresult cuDeviceGetAttribute(int *pi, CUdevice_attribute attrib, CUdevice dev)
{
	CUresult r = cu_ready();
	int v;

	if (r)
		return r;
	if (!pi)
		return CUDA_ERROR_INVALID_VALUE;
	if (uvm_cuda_check_device(dev))
		return CUDA_ERROR_INVALID_DEVICE;
	if (uvm_cu_device_attr(dev, (int)attrib, &v))
		return CUDA_ERROR_INVALID_VALUE;
	*pi = v;
	return CUDA_SUCCESS;
}

uvm_public CUresult cuDeviceGetPCIBusId(char *pciBusId, int len, CUdevice dev)
{
	CUresult r = cu_ready();

	if (r)
		return r;
	if (!pciBusId || len <= 0)
		return CUDA_ERROR_INVALID_VALUE;
	if (uvm_cuda_check_device(dev))
		return CUDA_ERROR_INVALID_DEVICE;
	uvm_cuda_pci_bus_id(dev, pciBusId, len);
	return CUDA_SUCCESS;
}

/* ---- streams -------------------------------------------------------------------- */

/* On the current context's device; flags ⊂ CU_STREAM_NON_BLOCKING. */
uvm_public CUresult cuStreamCreate(CUstream *phStream, unsigned int Flags)
{
	CUresult r = uvm_cu_ctx_enter();

	if (r)
		return r;
	if (!phStream)
		return CUDA_ERROR_INVALID_VALUE;
	return UVM_CU_FORWARD(cudaStreamCreateWithFlags((cudaStream_t *)phStream, Flags));
}

uvm_public CUresult cuStreamDestroy_v2(CUstream hStream)
{
	CUresult r = cu_ready();

	return r ? r : UVM_CU_FORWARD(cudaStreamDestroy(hStream));
}

uvm_public CUresult cuStreamQuery(CUstream hStream)
{
	CUresult r = cu_ready();

	return r ? r : UVM_CU_FORWARD(cudaStreamQuery(hStream));
}

uvm_public CUresult cuStreamQuery_ptsz(CUstream hStream)
{
	CUresult r = cu_ready();

	return r ? r : UVM_CU_FORWARD(cudaStreamQuery_ptsz(hStream));
}

uvm_public CUresult cuStreamSynchronize(CUstream hStream)
{
	CUresult r = cu_ready();

	return r ? r : UVM_CU_FORWARD(cudaStreamSynchronize(hStream));
}

uvm_public CUresult cuStreamSynchronize_ptsz(CUstream hStream)
{
	CUresult r = cu_ready();

	return r ? r : UVM_CU_FORWARD(cudaStreamSynchronize_ptsz(hStream));
}

/* ---- events ---------------------------------------------------------------------- */

uvm_public CUresult cuEventCreate(CUevent *phEvent, unsigned int Flags)
{
	CUresult r = uvm_cu_ctx_enter();

	if (r)
		return r;
	if (!phEvent)
		return CUDA_ERROR_INVALID_VALUE;
	return UVM_CU_FORWARD(cudaEventCreateWithFlags((cudaEvent_t *)phEvent, Flags));
}

uvm_public CUresult cuEventDestroy_v2(CUevent hEvent)
{
	CUresult r = cu_ready();

	return r ? r : UVM_CU_FORWARD(cudaEventDestroy(hEvent));
}

uvm_public CUresult cuEventRecord(CUevent hEvent, CUstream hStream)
{
	CUresult r = cu_ready();

	return r ? r : UVM_CU_FORWARD(cudaEventRecord(hEvent, hStream));
}

uvm_public CUresult cuEventRecord_ptsz(CUevent hEvent, CUstream hStream)
{
	CUresult r = cu_ready();

	return r ? r : UVM_CU_FORWARD(cudaEventRecord_ptsz(hEvent, hStream));
}

uvm_public CUresult cuEventRecordWithFlags(CUevent hEvent, CUstream hStream, unsigned int flags)
{
	CUresult r = cu_ready();

	return r ? r : UVM_CU_FORWARD(cudaEventRecordWithFlags(hEvent, hStream, flags));
}

uvm_public CUresult cuEventRecordWithFlags_ptsz(CUevent hEvent, CUstream hStream,
						unsigned int flags)
{
	CUresult r = cu_ready();

	return r ? r : UVM_CU_FORWARD(cudaEventRecordWithFlags_ptsz(hEvent, hStream, flags));
}

uvm_public CUresult cuEventQuery(CUevent hEvent)
{
	CUresult r = cu_ready();

	return r ? r : UVM_CU_FORWARD(cudaEventQuery(hEvent));
}

uvm_public CUresult cuEventSynchronize(CUevent hEvent)
{
	CUresult r = cu_ready();

	return r ? r : UVM_CU_FORWARD(cudaEventSynchronize(hEvent));
}

uvm_public CUresult cuEventElapsedTime_v2(float *pMilliseconds, CUevent hStart, CUevent hEnd)
{
	CUresult r = cu_ready();

	return r ? r : UVM_CU_FORWARD(cudaEventElapsedTime(pMilliseconds, hStart, hEnd));
}

/* The older name, same answer (event times are kept in nanoseconds). */
uvm_public CUresult cuEventElapsedTime(float *pMilliseconds, CUevent hStart, CUevent hEnd)
{
	return cuEventElapsedTime_v2(pMilliseconds, hStart, hEnd);
}

/* ---- device code: not supported ------------------------------------------------ */

#define UVM_NO_DEVICE_CODE \
	"libuvm: device code cannot be loaded or launched: uvm devices run no kernels (CUDA_ERROR_NOT_SUPPORTED)"

/*
 * The JIT options' error log is where CUDA reports why code failed to
 * load: write the reason there when the caller passed a buffer, and its
 * length (with the NUL) back into the size option, as CUDA does.
 */
static void jit_error_log(unsigned int n, const CUjit_option *options, void **values)
{
	size_t size = 0, len = strlen(UVM_NO_DEVICE_CODE) + 1;
	char *buf = NULL;
	int size_at = -1;
	unsigned int i;

	if (!options || !values)
		return;
	for (i = 0; i < n; i++) {
		if (options[i] == CU_JIT_ERROR_LOG_BUFFER) {
			buf = values[i];
		} else if (options[i] == CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES) {
			size = (size_t)(uintptr_t)values[i];
			size_at = (int)i;
		}
	}
	if (!buf || !size)
		return;
	snprintf(buf, size, "%s", UVM_NO_DEVICE_CODE);
	values[size_at] = (void *)(uintptr_t)(len < size ? len : size);
}

static CUresult no_device_code(void)
{
	CUresult r = cu_ready();

	return r ? r : CUDA_ERROR_NOT_SUPPORTED;
}

uvm_public CUresult cuModuleLoad(CUmodule *module, const char *fname)
{
	(void)module;
	(void)fname;
	return no_device_code();
}

uvm_public CUresult cuModuleLoadData(CUmodule *module, const void *image)
{
	(void)module;
	(void)image;
	return no_device_code();
}

uvm_public CUresult cuModuleLoadDataEx(CUmodule *module, const void *image, unsigned int numOptions,
				       CUjit_option *options, void **optionValues)
{
	CUresult r = no_device_code();

	(void)module;
	(void)image;
	if (r == CUDA_ERROR_NOT_SUPPORTED)
		jit_error_log(numOptions, options, optionValues);
	return r;
}

uvm_public CUresult cuModuleLoadFatBinary(CUmodule *module, const void *fatCubin)
{
	(void)module;
	(void)fatCubin;
	return no_device_code();
}

uvm_public CUresult cuModuleUnload(CUmodule hmod)
{
	(void)hmod;
	return no_device_code();
}

uvm_public CUresult cuModuleGetFunction(CUfunction *hfunc, CUmodule hmod, const char *name)
{
	(void)hfunc;
	(void)hmod;
	(void)name;
	return no_device_code();
}

uvm_public CUresult cuModuleGetGlobal_v2(CUdeviceptr *dptr, size_t *bytes, CUmodule hmod,
					 const char *name)
{
	(void)dptr;
	(void)bytes;
	(void)hmod;
	(void)name;
	return no_device_code();
}

static CUresult launch(CUfunction f, void **kernelParams, void **extra)
{
	(void)f;
	(void)kernelParams;
	(void)extra;
	return no_device_code();
}

uvm_public CUresult cuLaunchKernel(CUfunction f, unsigned int gridDimX, unsigned int gridDimY,
				   unsigned int gridDimZ, unsigned int blockDimX,
				   unsigned int blockDimY, unsigned int blockDimZ,
				   unsigned int sharedMemBytes, CUstream hStream,
				   void **kernelParams, void **extra)
{
	(void)gridDimX;
	(void)gridDimY;
	(void)gridDimZ;
	(void)blockDimX;
	(void)blockDimY;
	(void)blockDimZ;
	(void)sharedMemBytes;
	(void)hStream;
	return launch(f, kernelParams, extra);
}

uvm_public CUresult cuLaunchKernel_ptsz(CUfunction f, unsigned int gridDimX, unsigned int gridDimY,
					unsigned int gridDimZ, unsigned int blockDimX,
					unsigned int blockDimY, unsigned int blockDimZ,
					unsigned int sharedMemBytes, CUstream hStream,
					void **kernelParams, void **extra)
{
	(void)gridDimX;
	(void)gridDimY;
	(void)gridDimZ;
	(void)blockDimX;
	(void)blockDimY;
	(void)blockDimZ;
	(void)sharedMemBytes;
	(void)hStream;
	return launch(f, kernelParams, extra);
}

uvm_public CUresult cuLinkCreate_v2(unsigned int numOptions, CUjit_option *options,
				    void **optionValues, CUlinkState *stateOut)
{
	CUresult r = no_device_code();

	(void)stateOut;
	if (r == CUDA_ERROR_NOT_SUPPORTED)
		jit_error_log(numOptions, options, optionValues);
	return r;
}

uvm_public CUresult cuLinkAddData_v2(CUlinkState state, CUjitInputType type, void *data,
				     size_t size, const char *name, unsigned int numOptions,
				     CUjit_option *options, void **optionValues)
{
	(void)state;
	(void)type;
	(void)data;
	(void)size;
	(void)name;
	(void)numOptions;
	(void)options;
	(void)optionValues;
	return no_device_code();
}

uvm_public CUresult cuLinkAddFile_v2(CUlinkState state, CUjitInputType type, const char *path,
				     unsigned int numOptions, CUjit_option *options,
				     void **optionValues)
{
	(void)state;
	(void)type;
	(void)path;
	(void)numOptions;
	(void)options;
	(void)optionValues;
	return no_device_code();
}

uvm_public CUresult cuLinkComplete(CUlinkState state, void **cubinOut, size_t *sizeOut)
{
	(void)state;
	(void)cubinOut;
	(void)sizeOut;
	return no_device_code();
}

uvm_public CUresult cuLinkDestroy(CUlinkState state)
{
	(void)state;
	return no_device_code();
}
