// SPDX-License-Identifier: MIT
/*
 * cuda_device.c - device management and version calls of the runtime API.
 *
 * DOC: Device properties and attributes
 *
 * One function, uvm_fill_props(), decides every value libuvm reports about a
 * device; cudaGetDeviceProperties() returns it and cudaDeviceGetAttribute()
 * reads the same fields, so the two can never disagree. Memory-model values
 * come from the module (memory size, NUMA node, PCI address) or describe
 * the memory model libuvm implements (managed memory with concurrent access,
 * no pageable-memory access: the H100-over-PCIe regime of the spec).
 * Compute limits are nominal compute capability 9.0 numbers: no kernels run
 * on these devices; see docs/libuvm.md for the table.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>

#include <cuda_profiler_api.h>

#include "cuda_memory.h"

#define UVM_CC_MAJOR		9
#define UVM_CC_MINOR		0
#define UVM_NOMINAL_CLOCK_KHZ	1000000

static void uvm_fill_uuid(const struct uvm_device_info *i, cudaUUID_t *uuid)
{
	unsigned char *b = (unsigned char *)uuid->bytes;

	/* Stable per device and machine slot: "uvm\0", PCI address, id. */
	memcpy(b, "uvm", 4);
	b[4] = i->pci_domain >> 24;
	b[5] = i->pci_domain >> 16;
	b[6] = i->pci_domain >> 8;
	b[7] = i->pci_domain;
	b[8] = i->pci_bus;
	b[9] = i->pci_dev;
	b[10] = i->pci_func;
	b[11] = i->backend;
	b[12] = i->id >> 24;
	b[13] = i->id >> 16;
	b[14] = i->id >> 8;
	b[15] = i->id;
}

static void uvm_fill_limits(struct cudaDeviceProp *p)
{
	static const struct cudaDeviceProp lim = {
		.sharedMemPerBlock = 49152,
		.regsPerBlock = 65536,
		.warpSize = 32,
		.memPitch = INT_MAX,
		.maxThreadsPerBlock = 1024,
		.maxThreadsDim = { 1024, 1024, 64 },
		.maxGridSize = { INT_MAX, 65535, 65535 },
		.totalConstMem = 65536,
		.textureAlignment = 512,
		.texturePitchAlignment = 32,
		.maxTexture1D = 131072,
		.maxTexture1DMipmap = 32768,
		.maxTexture2D = { 131072, 65536 },
		.maxTexture2DMipmap = { 32768, 32768 },
		.maxTexture2DLinear = { 131072, 65000, 2097120 },
		.maxTexture2DGather = { 32768, 32768 },
		.maxTexture3D = { 16384, 16384, 16384 },
		.maxTexture3DAlt = { 8192, 8192, 32768 },
		.maxTextureCubemap = 32768,
		.maxTexture1DLayered = { 32768, 2048 },
		.maxTexture2DLayered = { 32768, 32768, 2048 },
		.maxTextureCubemapLayered = { 32768, 2046 },
		.maxSurface1D = 32768,
		.maxSurface2D = { 131072, 65536 },
		.maxSurface3D = { 16384, 16384, 16384 },
		.maxSurface1DLayered = { 32768, 2048 },
		.maxSurface2DLayered = { 32768, 32768, 2048 },
		.maxSurfaceCubemap = 32768,
		.maxSurfaceCubemapLayered = { 32768, 2046 },
		.surfaceAlignment = 512,
		.maxThreadsPerMultiProcessor = 2048,
		.globalL1CacheSupported = 1,
		.localL1CacheSupported = 1,
		.sharedMemPerMultiprocessor = 233472,
		.regsPerMultiprocessor = 65536,
		.sharedMemPerBlockOptin = 232448,
		.maxBlocksPerMultiProcessor = 32,
		.reservedSharedMemPerBlock = 1024,
	};

	*p = lim;
}

static void uvm_fill_props(const struct uvm_device *dev, struct cudaDeviceProp *p)
{
	const struct uvm_device_info *i = &dev->info;

	uvm_fill_limits(p);
	snprintf(p->name, sizeof(p->name), "%s", i->name);
	uvm_fill_uuid(i, &p->uuid);
	p->totalGlobalMem = i->mem_total;
	p->major = UVM_CC_MAJOR;
	p->minor = UVM_CC_MINOR;
	p->multiProcessorCount = 1;
	p->pciBusID = i->pci_bus;
	p->pciDeviceID = i->pci_dev;
	p->pciDomainID = (int)i->pci_domain;
	p->asyncEngineCount = 1;
	p->memoryBusWidth = 64;
	p->multiGpuBoardGroupID = (int)i->id;

	/* The memory model (spec section 2.0). */
	p->integrated = 0;
	p->canMapHostMemory = 1;
	p->unifiedAddressing = 1;
	p->managedMemory = 1;
	p->concurrentManagedAccess = 1;
	/*
	 * Pageable memory: where the module mirrors the process's page table
	 * (HMM); the device keeps page tables of its own, as NVIDIA's driver
	 * on HMM (without ATS) reports.
	 */
	p->pageableMemoryAccess =
		!!(uvm_cuda_context()->module.caps & UVM_MODULE_PAGEABLE_MIRROR);
	p->pageableMemoryAccessUsesHostPageTables = 0;
	p->directManagedMemAccessFromHost = 0;
	p->hostNativeAtomicSupported = 0;
	p->canUseHostPointerForRegisteredMem = 1;
	p->hostRegisterSupported = 1;
	p->hostRegisterReadOnlySupported = 1;
	p->memoryPoolsSupported = 1;	/* cuda_mempool.c */
	p->sparseCudaArraySupported = 0;
	p->deferredMappingCudaArraySupported = 0;
	p->gpuDirectRDMASupported = 0;
	p->deviceNumaConfig = cudaDeviceNumaConfigNone;
	p->deviceNumaId = -1;
	p->hostNumaId = i->numa_node;
	p->gpuPciDeviceID = ((unsigned int)i->pci_device << 16) | i->pci_vendor;
	p->gpuPciSubsystemID = ((unsigned int)i->pci_subdevice << 16) | i->pci_subvendor;
}

void uvm_cuda_props(int device, struct cudaDeviceProp *p)
{
	uvm_fill_props(uvm_cuda_device(device), p);
}

/* Attributes that are not a field of cudaDeviceProp. */
static int uvm_extra_attr(enum cudaDeviceAttr attr, int *value)
{
	switch (attr) {
	case cudaDevAttrClockRate:
	case cudaDevAttrMemoryClockRate:
		*value = UVM_NOMINAL_CLOCK_KHZ;
		return 0;
	case cudaDevAttrGpuOverlap:
	case cudaDevAttrMemSyncDomainCount:
		*value = 1;
		return 0;
	case cudaDevAttrMaxTexture1DLinearWidth:
		*value = 268435456;
		return 0;
	case cudaDevAttrSingleToDoublePrecisionPerfRatio:
		*value = 2;
		return 0;
	case cudaDevAttrComputeMode:
		*value = cudaComputeModeDefault;
		return 0;
	case cudaDevAttrHostNumaMemoryPoolsSupported:	/* host pools: cuda_mempool.c */
	case cudaDevAttrHostMemoryPoolsSupported:
		*value = 1;
		return 0;
	case cudaDevAttrKernelExecTimeout:
	case cudaDevAttrCanFlushRemoteWrites:
	case cudaDevAttrD3D12CigSupported:
	case cudaDevAttrVulkanCigSupported:
	case cudaDevAttrOnlyPartialHostNativeAtomicSupported:
		*value = 0;
		return 0;
	default:
		return -EINVAL;
	}
}

/* 0 and *value, or -EINVAL for a value that is not a known attribute. */
static int uvm_device_attr(const struct uvm_device *dev, enum cudaDeviceAttr attr, int *value)
{
	struct cudaDeviceProp p;
	int v;

	uvm_fill_props(dev, &p);
	switch (attr) {
	case cudaDevAttrMaxThreadsPerBlock: v = p.maxThreadsPerBlock; break;
	case cudaDevAttrMaxBlockDimX: v = p.maxThreadsDim[0]; break;
	case cudaDevAttrMaxBlockDimY: v = p.maxThreadsDim[1]; break;
	case cudaDevAttrMaxBlockDimZ: v = p.maxThreadsDim[2]; break;
	case cudaDevAttrMaxGridDimX: v = p.maxGridSize[0]; break;
	case cudaDevAttrMaxGridDimY: v = p.maxGridSize[1]; break;
	case cudaDevAttrMaxGridDimZ: v = p.maxGridSize[2]; break;
	case cudaDevAttrMaxSharedMemoryPerBlock: v = (int)p.sharedMemPerBlock; break;
	case cudaDevAttrTotalConstantMemory: v = (int)p.totalConstMem; break;
	case cudaDevAttrWarpSize: v = p.warpSize; break;
	case cudaDevAttrMaxPitch: v = (int)p.memPitch; break;
	case cudaDevAttrMaxRegistersPerBlock: v = p.regsPerBlock; break;
	case cudaDevAttrTextureAlignment: v = (int)p.textureAlignment; break;
	case cudaDevAttrMultiProcessorCount: v = p.multiProcessorCount; break;
	case cudaDevAttrIntegrated: v = p.integrated; break;
	case cudaDevAttrCanMapHostMemory: v = p.canMapHostMemory; break;
	case cudaDevAttrMaxTexture1DWidth: v = p.maxTexture1D; break;
	case cudaDevAttrMaxTexture2DWidth: v = p.maxTexture2D[0]; break;
	case cudaDevAttrMaxTexture2DHeight: v = p.maxTexture2D[1]; break;
	case cudaDevAttrMaxTexture3DWidth: v = p.maxTexture3D[0]; break;
	case cudaDevAttrMaxTexture3DHeight: v = p.maxTexture3D[1]; break;
	case cudaDevAttrMaxTexture3DDepth: v = p.maxTexture3D[2]; break;
	case cudaDevAttrMaxTexture2DLayeredWidth: v = p.maxTexture2DLayered[0]; break;
	case cudaDevAttrMaxTexture2DLayeredHeight: v = p.maxTexture2DLayered[1]; break;
	case cudaDevAttrMaxTexture2DLayeredLayers: v = p.maxTexture2DLayered[2]; break;
	case cudaDevAttrSurfaceAlignment: v = (int)p.surfaceAlignment; break;
	case cudaDevAttrConcurrentKernels: v = p.concurrentKernels; break;
	case cudaDevAttrEccEnabled: v = p.ECCEnabled; break;
	case cudaDevAttrPciBusId: v = p.pciBusID; break;
	case cudaDevAttrPciDeviceId: v = p.pciDeviceID; break;
	case cudaDevAttrTccDriver: v = p.tccDriver; break;
	case cudaDevAttrGlobalMemoryBusWidth: v = p.memoryBusWidth; break;
	case cudaDevAttrL2CacheSize: v = p.l2CacheSize; break;
	case cudaDevAttrMaxThreadsPerMultiProcessor: v = p.maxThreadsPerMultiProcessor; break;
	case cudaDevAttrAsyncEngineCount: v = p.asyncEngineCount; break;
	case cudaDevAttrUnifiedAddressing: v = p.unifiedAddressing; break;
	case cudaDevAttrMaxTexture1DLayeredWidth: v = p.maxTexture1DLayered[0]; break;
	case cudaDevAttrMaxTexture1DLayeredLayers: v = p.maxTexture1DLayered[1]; break;
	case cudaDevAttrMaxTexture2DGatherWidth: v = p.maxTexture2DGather[0]; break;
	case cudaDevAttrMaxTexture2DGatherHeight: v = p.maxTexture2DGather[1]; break;
	case cudaDevAttrMaxTexture3DWidthAlt: v = p.maxTexture3DAlt[0]; break;
	case cudaDevAttrMaxTexture3DHeightAlt: v = p.maxTexture3DAlt[1]; break;
	case cudaDevAttrMaxTexture3DDepthAlt: v = p.maxTexture3DAlt[2]; break;
	case cudaDevAttrPciDomainId: v = p.pciDomainID; break;
	case cudaDevAttrTexturePitchAlignment: v = (int)p.texturePitchAlignment; break;
	case cudaDevAttrMaxTextureCubemapWidth: v = p.maxTextureCubemap; break;
	case cudaDevAttrMaxTextureCubemapLayeredWidth: v = p.maxTextureCubemapLayered[0]; break;
	case cudaDevAttrMaxTextureCubemapLayeredLayers: v = p.maxTextureCubemapLayered[1]; break;
	case cudaDevAttrMaxSurface1DWidth: v = p.maxSurface1D; break;
	case cudaDevAttrMaxSurface2DWidth: v = p.maxSurface2D[0]; break;
	case cudaDevAttrMaxSurface2DHeight: v = p.maxSurface2D[1]; break;
	case cudaDevAttrMaxSurface3DWidth: v = p.maxSurface3D[0]; break;
	case cudaDevAttrMaxSurface3DHeight: v = p.maxSurface3D[1]; break;
	case cudaDevAttrMaxSurface3DDepth: v = p.maxSurface3D[2]; break;
	case cudaDevAttrMaxSurface1DLayeredWidth: v = p.maxSurface1DLayered[0]; break;
	case cudaDevAttrMaxSurface1DLayeredLayers: v = p.maxSurface1DLayered[1]; break;
	case cudaDevAttrMaxSurface2DLayeredWidth: v = p.maxSurface2DLayered[0]; break;
	case cudaDevAttrMaxSurface2DLayeredHeight: v = p.maxSurface2DLayered[1]; break;
	case cudaDevAttrMaxSurface2DLayeredLayers: v = p.maxSurface2DLayered[2]; break;
	case cudaDevAttrMaxSurfaceCubemapWidth: v = p.maxSurfaceCubemap; break;
	case cudaDevAttrMaxSurfaceCubemapLayeredWidth: v = p.maxSurfaceCubemapLayered[0]; break;
	case cudaDevAttrMaxSurfaceCubemapLayeredLayers: v = p.maxSurfaceCubemapLayered[1]; break;
	case cudaDevAttrMaxTexture2DLinearWidth: v = p.maxTexture2DLinear[0]; break;
	case cudaDevAttrMaxTexture2DLinearHeight: v = p.maxTexture2DLinear[1]; break;
	case cudaDevAttrMaxTexture2DLinearPitch: v = p.maxTexture2DLinear[2]; break;
	case cudaDevAttrMaxTexture2DMipmappedWidth: v = p.maxTexture2DMipmap[0]; break;
	case cudaDevAttrMaxTexture2DMipmappedHeight: v = p.maxTexture2DMipmap[1]; break;
	case cudaDevAttrComputeCapabilityMajor: v = p.major; break;
	case cudaDevAttrComputeCapabilityMinor: v = p.minor; break;
	case cudaDevAttrMaxTexture1DMipmappedWidth: v = p.maxTexture1DMipmap; break;
	case cudaDevAttrStreamPrioritiesSupported: v = p.streamPrioritiesSupported; break;
	case cudaDevAttrGlobalL1CacheSupported: v = p.globalL1CacheSupported; break;
	case cudaDevAttrLocalL1CacheSupported: v = p.localL1CacheSupported; break;
	case cudaDevAttrMaxSharedMemoryPerMultiprocessor: v = (int)p.sharedMemPerMultiprocessor; break;
	case cudaDevAttrMaxRegistersPerMultiprocessor: v = p.regsPerMultiprocessor; break;
	case cudaDevAttrManagedMemory: v = p.managedMemory; break;
	case cudaDevAttrIsMultiGpuBoard: v = p.isMultiGpuBoard; break;
	case cudaDevAttrMultiGpuBoardGroupID: v = p.multiGpuBoardGroupID; break;
	case cudaDevAttrHostNativeAtomicSupported: v = p.hostNativeAtomicSupported; break;
	case cudaDevAttrPageableMemoryAccess: v = p.pageableMemoryAccess; break;
	case cudaDevAttrConcurrentManagedAccess: v = p.concurrentManagedAccess; break;
	case cudaDevAttrComputePreemptionSupported: v = p.computePreemptionSupported; break;
	case cudaDevAttrCanUseHostPointerForRegisteredMem: v = p.canUseHostPointerForRegisteredMem; break;
	case cudaDevAttrCooperativeLaunch: v = p.cooperativeLaunch; break;
	case cudaDevAttrMaxSharedMemoryPerBlockOptin: v = (int)p.sharedMemPerBlockOptin; break;
	case cudaDevAttrHostRegisterSupported: v = p.hostRegisterSupported; break;
	case cudaDevAttrPageableMemoryAccessUsesHostPageTables:
		v = p.pageableMemoryAccessUsesHostPageTables; break;
	case cudaDevAttrDirectManagedMemAccessFromHost: v = p.directManagedMemAccessFromHost; break;
	case cudaDevAttrMaxBlocksPerMultiprocessor: v = p.maxBlocksPerMultiProcessor; break;
	case cudaDevAttrMaxPersistingL2CacheSize: v = p.persistingL2CacheMaxSize; break;
	case cudaDevAttrMaxAccessPolicyWindowSize: v = p.accessPolicyMaxWindowSize; break;
	case cudaDevAttrReservedSharedMemoryPerBlock: v = (int)p.reservedSharedMemPerBlock; break;
	case cudaDevAttrSparseCudaArraySupported: v = p.sparseCudaArraySupported; break;
	case cudaDevAttrHostRegisterReadOnlySupported: v = p.hostRegisterReadOnlySupported; break;
	case cudaDevAttrTimelineSemaphoreInteropSupported: v = p.timelineSemaphoreInteropSupported; break;
	case cudaDevAttrMemoryPoolsSupported: v = p.memoryPoolsSupported; break;
	case cudaDevAttrGPUDirectRDMASupported: v = p.gpuDirectRDMASupported; break;
	case cudaDevAttrGPUDirectRDMAFlushWritesOptions: v = (int)p.gpuDirectRDMAFlushWritesOptions; break;
	case cudaDevAttrGPUDirectRDMAWritesOrdering: v = p.gpuDirectRDMAWritesOrdering; break;
	case cudaDevAttrMemoryPoolSupportedHandleTypes: v = (int)p.memoryPoolSupportedHandleTypes; break;
	case cudaDevAttrClusterLaunch: v = p.clusterLaunch; break;
	case cudaDevAttrDeferredMappingCudaArraySupported: v = p.deferredMappingCudaArraySupported; break;
	case cudaDevAttrIpcEventSupport: v = p.ipcEventSupported; break;
	case cudaDevAttrNumaConfig: v = p.deviceNumaConfig; break;
	case cudaDevAttrNumaId: v = p.deviceNumaId; break;
	case cudaDevAttrMpsEnabled: v = p.mpsEnabled; break;
	case cudaDevAttrHostNumaId: v = p.hostNumaId; break;
	case cudaDevAttrGpuPciDeviceId: v = (int)p.gpuPciDeviceID; break;
	case cudaDevAttrGpuPciSubsystemId: v = (int)p.gpuPciSubsystemID; break;
	case cudaDevAttrHostNumaMultinodeIpcSupported: v = p.hostNumaMultinodeIpcSupported; break;
	default:
		return uvm_extra_attr(attr, value);
	}
	*value = v;
	return 0;
}

/*
 * Attributes of the driver API that the runtime lacks or calls Reserved:
 * libuvm has none of these features (stream memory operations, virtual
 * memory management, export handles, compression, tensor maps, multicast),
 * so 0, except CAN_TEX2D_GATHER, which agrees with the 2D gather limits
 * reported.
 */
static bool uvm_driver_only_attr(int attr, int *value)
{
	switch (attr) {
	case CU_DEVICE_ATTRIBUTE_CAN_TEX2D_GATHER:
		*value = 1;
		return true;
	case CU_DEVICE_ATTRIBUTE_CAN_USE_STREAM_MEM_OPS_V1:
	case CU_DEVICE_ATTRIBUTE_CAN_USE_64_BIT_STREAM_MEM_OPS_V1:
	case CU_DEVICE_ATTRIBUTE_CAN_USE_STREAM_WAIT_VALUE_NOR_V1:
	case CU_DEVICE_ATTRIBUTE_COOPERATIVE_MULTI_DEVICE_LAUNCH:
	case CU_DEVICE_ATTRIBUTE_VIRTUAL_MEMORY_MANAGEMENT_SUPPORTED:
	case CU_DEVICE_ATTRIBUTE_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR_SUPPORTED:
	case CU_DEVICE_ATTRIBUTE_HANDLE_TYPE_WIN32_HANDLE_SUPPORTED:
	case CU_DEVICE_ATTRIBUTE_HANDLE_TYPE_WIN32_KMT_HANDLE_SUPPORTED:
	case CU_DEVICE_ATTRIBUTE_GENERIC_COMPRESSION_SUPPORTED:
	case CU_DEVICE_ATTRIBUTE_GPU_DIRECT_RDMA_WITH_CUDA_VMM_SUPPORTED:
	case CU_DEVICE_ATTRIBUTE_CAN_USE_64_BIT_STREAM_MEM_OPS:
	case CU_DEVICE_ATTRIBUTE_CAN_USE_STREAM_WAIT_VALUE_NOR:
	case CU_DEVICE_ATTRIBUTE_DMA_BUF_SUPPORTED:
	case CU_DEVICE_ATTRIBUTE_TENSOR_MAP_ACCESS_SUPPORTED:
	case CU_DEVICE_ATTRIBUTE_HANDLE_TYPE_FABRIC_SUPPORTED:
	case CU_DEVICE_ATTRIBUTE_UNIFIED_FUNCTION_POINTERS:
	case CU_DEVICE_ATTRIBUTE_MULTICAST_SUPPORTED:
	case CU_DEVICE_ATTRIBUTE_MEM_DECOMPRESS_ALGORITHM_MASK:
	case CU_DEVICE_ATTRIBUTE_MEM_DECOMPRESS_MAXIMUM_LENGTH:
	case CU_DEVICE_ATTRIBUTE_HOST_NUMA_VIRTUAL_MEMORY_MANAGEMENT_SUPPORTED:
	case CU_DEVICE_ATTRIBUTE_HOST_VIRTUAL_MEMORY_MANAGEMENT_SUPPORTED:
	case CU_DEVICE_ATTRIBUTE_HOST_ALLOC_DMA_BUF_SUPPORTED:
		*value = 0;
		return true;
	default:
		return false;
	}
}

/**
 * uvm_cu_device_attr() - cuDeviceGetAttribute's answer.
 * @device: a valid ordinal.
 * @attr: a CUdevice_attribute.
 * @value: the value.
 *
 * Every attribute the runtime knows has the same number in both enums and
 * the runtime's value; the driver-only ones are uvm_driver_only_attr's.
 *
 * Return: 0, or -EINVAL for a value that is not an attribute.
 */
int uvm_cu_device_attr(int device, int attr, int *value)
{
	if (uvm_driver_only_attr(attr, value))
		return 0;
	return uvm_device_attr(uvm_cuda_device(device), (enum cudaDeviceAttr)attr, value);
}

/* The module's PCI address (synthetic for emulated devices) as a bus id. */
void uvm_cuda_pci_bus_id(int device, char *buf, int len)
{
	const struct uvm_device_info *i = &uvm_cuda_device(device)->info;

	snprintf(buf, (size_t)len, "%04x:%02x:%02x.%x",
		 i->pci_domain, i->pci_bus, i->pci_dev, i->pci_func);
}

/* Device uuid, as cudaDeviceProp.uuid. */
void uvm_cuda_uuid(int device, CUuuid *uuid)
{
	_Static_assert(sizeof(CUuuid) == sizeof(cudaUUID_t), "uuid");
	uvm_fill_uuid(&uvm_cuda_device(device)->info, (cudaUUID_t *)uuid);
}

/* Every device call: sticky init status first, as CUDA does. */
#define UVM_CUDA_INIT_OR_RETURN()				\
	do {							\
		cudaError_t __e = uvm_cuda_init();		\
		if (__e != cudaSuccess)				\
			return uvm_cuda_set_error(__e);		\
	} while (0)

uvm_public cudaError_t cudaGetDeviceCount(int *count)
{
	UVM_CUDA_INIT_OR_RETURN();
	if (!count)
		return uvm_cuda_set_error(cudaErrorInvalidValue);
	*count = uvm_device_count(uvm_cuda_context());
	return cudaSuccess;
}

uvm_public cudaError_t cudaGetDevice(int *device)
{
	UVM_CUDA_INIT_OR_RETURN();
	if (!device)
		return uvm_cuda_set_error(cudaErrorInvalidValue);
	*device = uvm_cuda_current_device();
	return cudaSuccess;
}

uvm_public cudaError_t cudaSetDevice(int device)
{
	UVM_CUDA_INIT_OR_RETURN();
	if (uvm_cuda_check_device(device))
		return uvm_cuda_set_error(cudaErrorInvalidDevice);
	uvm_cuda_set_current_device(device);
	return cudaSuccess;
}

uvm_public cudaError_t cudaGetDeviceProperties(struct cudaDeviceProp *prop, int device)
{
	UVM_CUDA_INIT_OR_RETURN();
	if (!prop)
		return uvm_cuda_set_error(cudaErrorInvalidValue);
	if (uvm_cuda_check_device(device))
		return uvm_cuda_set_error(cudaErrorInvalidDevice);
	uvm_fill_props(uvm_cuda_device(device), prop);
	return cudaSuccess;
}

uvm_public cudaError_t cudaDeviceGetAttribute(int *value, enum cudaDeviceAttr attr, int device)
{
	int v;

	UVM_CUDA_INIT_OR_RETURN();
	if (!value)
		return uvm_cuda_set_error(cudaErrorInvalidValue);
	if (uvm_cuda_check_device(device))
		return uvm_cuda_set_error(cudaErrorInvalidDevice);
	if (uvm_device_attr(uvm_cuda_device(device), attr, &v))
		return uvm_cuda_set_error(cudaErrorInvalidValue);
	*value = v;
	return cudaSuccess;
}

uvm_public cudaError_t cudaDeviceGetPCIBusId(char *pciBusId, int len, int device)
{
	UVM_CUDA_INIT_OR_RETURN();
	if (!pciBusId || len <= 0)
		return uvm_cuda_set_error(cudaErrorInvalidValue);
	if (uvm_cuda_check_device(device))
		return uvm_cuda_set_error(cudaErrorInvalidDevice);
	uvm_cuda_pci_bus_id(device, pciBusId, len);
	return cudaSuccess;
}

uvm_public cudaError_t cudaSetDeviceFlags(unsigned int flags)
{
	UVM_CUDA_INIT_OR_RETURN();
	return uvm_cuda_set_error(uvm_ctx_set_device_flags(uvm_cuda_current_device(), flags));
}

uvm_public cudaError_t cudaGetDeviceFlags(unsigned int *flags)
{
	UVM_CUDA_INIT_OR_RETURN();
	if (!flags)
		return uvm_cuda_set_error(cudaErrorInvalidValue);
	*flags = uvm_ctx_device_flags(uvm_cuda_current_device());
	return cudaSuccess;
}

/* No profiler to start or stop: success once the runtime is initialised. */
uvm_public cudaError_t cudaProfilerStart(void)
{
	UVM_CUDA_INIT_OR_RETURN();
	return cudaSuccess;
}

uvm_public cudaError_t cudaProfilerStop(void)
{
	UVM_CUDA_INIT_OR_RETURN();
	return cudaSuccess;
}

/*
 * Without the module CUDA reports driver version 0 and success; with it,
 * the CUDA version the module + library implement.
 */
uvm_public cudaError_t cudaDriverGetVersion(int *driverVersion)
{
	cudaError_t e;

	if (!driverVersion)
		return uvm_cuda_set_error(cudaErrorInvalidValue);
	e = uvm_cuda_init();
	*driverVersion = e == cudaErrorInsufficientDriver ? 0 : UVM_CUDA_VERSION;
	return cudaSuccess;
}

uvm_public cudaError_t cudaRuntimeGetVersion(int *runtimeVersion)
{
	if (!runtimeVersion)
		return uvm_cuda_set_error(cudaErrorInvalidValue);
	*runtimeVersion = UVM_CUDA_VERSION;
	return cudaSuccess;
}
