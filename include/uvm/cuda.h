/* SPDX-License-Identifier: MIT */
/*
 * cuda.h - driver-API subset for libuvm (CUDA 13.0 names and numbers).
 *
 * Types, enumerations and the entry points libuvm implements: initialisation,
 * devices, contexts, memory, copies and sets, streams, events, peer access,
 * errors, unified addressing and managed memory; the module, link and launch
 * calls are declared and answer CUDA_ERROR_NOT_SUPPORTED (no device code runs
 * on uvm devices). Like CUDA 13's cuda.h, several names are
 * redirected to versioned symbols (cuMemAdvise -> cuMemAdvise_v2, ...), and
 * with CUDA_API_PER_THREAD_DEFAULT_STREAM the stream-ordered calls get the
 * _ptsz suffix, so objects built against these headers reference the same
 * linker names as objects built against the toolkit. Which entry points
 * libuvm exports today is listed in libuvm/symbols.txt.
 */
#ifndef UVM_CUDA_H
#define UVM_CUDA_H
/* The macro NVIDIA's header defines: programs test it to see what is included. */
#define __cuda_cuda_h__

#include <stddef.h>

#define CUDA_VERSION 13000

#if !defined(CUDAAPI)
#define CUDAAPI
#endif

#if defined(CUDA_API_PER_THREAD_DEFAULT_STREAM)
#define __CUDA_API_PER_THREAD_DEFAULT_STREAM
#define __CUDA_API_PTDS(api) api ## _ptds
#define __CUDA_API_PTSZ(api) api ## _ptsz
#else
#define __CUDA_API_PTDS(api) api
#define __CUDA_API_PTSZ(api) api
#endif

/* Versioned linker names used by CUDA 13 code. */
#define cuDeviceTotalMem			cuDeviceTotalMem_v2
#define cuMemGetInfo				cuMemGetInfo_v2
#define cuMemAlloc				cuMemAlloc_v2
#define cuMemFree				cuMemFree_v2
#define cuMemAllocHost				cuMemAllocHost_v2
#define cuMemHostGetDevicePointer		cuMemHostGetDevicePointer_v2
#define cuMemHostRegister			cuMemHostRegister_v2
#define cuMemAdvise				cuMemAdvise_v2
#define cuMemPrefetchAsync			__CUDA_API_PTSZ(cuMemPrefetchAsync_v2)
#define cuMemPrefetchBatchAsync			__CUDA_API_PTSZ(cuMemPrefetchBatchAsync)
#define cuMemDiscardBatchAsync			__CUDA_API_PTSZ(cuMemDiscardBatchAsync)
#define cuMemDiscardAndPrefetchBatchAsync	__CUDA_API_PTSZ(cuMemDiscardAndPrefetchBatchAsync)
#define cuCtxCreate				cuCtxCreate_v4
#define cuModuleGetGlobal			cuModuleGetGlobal_v2
#define cuCtxDestroy				cuCtxDestroy_v2
#define cuCtxPopCurrent				cuCtxPopCurrent_v2
#define cuCtxPushCurrent			cuCtxPushCurrent_v2
#define cuDevicePrimaryCtxRelease		cuDevicePrimaryCtxRelease_v2
#define cuDevicePrimaryCtxReset			cuDevicePrimaryCtxReset_v2
#define cuDevicePrimaryCtxSetFlags		cuDevicePrimaryCtxSetFlags_v2
#define cuDeviceGetUuid				cuDeviceGetUuid_v2
#define cuStreamDestroy				cuStreamDestroy_v2
#define cuEventDestroy				cuEventDestroy_v2
#define cuEventElapsedTime			cuEventElapsedTime_v2
#define cuLinkCreate				cuLinkCreate_v2
#define cuLinkAddData				cuLinkAddData_v2
#define cuLinkAddFile				cuLinkAddFile_v2
#define cuMemcpyHtoD				__CUDA_API_PTDS(cuMemcpyHtoD_v2)
#define cuMemcpyDtoH				__CUDA_API_PTDS(cuMemcpyDtoH_v2)
#define cuMemcpyDtoD				__CUDA_API_PTDS(cuMemcpyDtoD_v2)
#define cuMemcpyHtoDAsync			__CUDA_API_PTSZ(cuMemcpyHtoDAsync_v2)
#define cuMemcpyDtoHAsync			__CUDA_API_PTSZ(cuMemcpyDtoHAsync_v2)
#define cuMemcpyDtoDAsync			__CUDA_API_PTSZ(cuMemcpyDtoDAsync_v2)
#define cuMemsetD8				__CUDA_API_PTDS(cuMemsetD8_v2)
#define cuMemsetD16				__CUDA_API_PTDS(cuMemsetD16_v2)
#define cuMemsetD32				__CUDA_API_PTDS(cuMemsetD32_v2)
#define cuStreamQuery				__CUDA_API_PTSZ(cuStreamQuery)
#define cuStreamSynchronize			__CUDA_API_PTSZ(cuStreamSynchronize)
#define cuEventRecord				__CUDA_API_PTSZ(cuEventRecord)
#define cuEventRecordWithFlags			__CUDA_API_PTSZ(cuEventRecordWithFlags)
#define cuLaunchKernel				__CUDA_API_PTSZ(cuLaunchKernel)
#if defined(__CUDA_API_PER_THREAD_DEFAULT_STREAM)
#define cuMemcpy				__CUDA_API_PTDS(cuMemcpy)
#define cuMemcpyAsync				__CUDA_API_PTSZ(cuMemcpyAsync)
#define cuMemsetD8Async				__CUDA_API_PTSZ(cuMemsetD8Async)
#define cuMemsetD16Async			__CUDA_API_PTSZ(cuMemsetD16Async)
#define cuMemsetD32Async			__CUDA_API_PTSZ(cuMemsetD32Async)
#define cuStreamGetPriority			__CUDA_API_PTSZ(cuStreamGetPriority)
#define cuStreamGetFlags			__CUDA_API_PTSZ(cuStreamGetFlags)
#define cuStreamAddCallback			__CUDA_API_PTSZ(cuStreamAddCallback)
#define cuLaunchHostFunc			__CUDA_API_PTSZ(cuLaunchHostFunc)
#define cuMemFreeAsync				__CUDA_API_PTSZ(cuMemFreeAsync)
#define cuMemAllocAsync				__CUDA_API_PTSZ(cuMemAllocAsync)
#endif

/* ---- scalar and handle types ------------------------------------------ */
typedef unsigned long long CUdeviceptr_v2;
typedef CUdeviceptr_v2 CUdeviceptr;
typedef int CUdevice_v1;
typedef CUdevice_v1 CUdevice;
typedef struct CUctx_st *CUcontext;
typedef struct CUevent_st *CUevent;
typedef struct CUstream_st *CUstream;
typedef struct CUmemPoolHandle_st *CUmemoryPool;
typedef struct CUmod_st *CUmodule;
typedef struct CUfunc_st *CUfunction;
typedef struct CUlib_st *CUlibrary;
typedef struct CUkern_st *CUkernel;
typedef struct CUlinkState_st *CUlinkState;

#ifndef CU_UUID_HAS_BEEN_DEFINED
#define CU_UUID_HAS_BEEN_DEFINED
struct CUuuid_st {
	char bytes[16];
};
typedef struct CUuuid_st CUuuid;
#endif

/* ---- #define values ------------------------------------------------------ */
#define CU_STREAM_LEGACY		((CUstream)0x1)
#define CU_STREAM_PER_THREAD		((CUstream)0x2)

#define CU_MEMHOSTALLOC_PORTABLE	0x01
#define CU_MEMHOSTALLOC_DEVICEMAP	0x02
#define CU_MEMHOSTALLOC_WRITECOMBINED	0x04

#define CU_MEMHOSTREGISTER_PORTABLE	0x01
#define CU_MEMHOSTREGISTER_DEVICEMAP	0x02
#define CU_MEMHOSTREGISTER_IOMEMORY	0x04
#define CU_MEMHOSTREGISTER_READ_ONLY	0x08

#define CU_DEVICE_CPU			((CUdevice)-1)
#define CU_DEVICE_INVALID		((CUdevice)-2)

/* ---- enumerations -------------------------------------------------------- */

typedef enum CUctx_flags_enum {
	CU_CTX_SCHED_AUTO           = 0x00,
	CU_CTX_SCHED_SPIN           = 0x01,
	CU_CTX_SCHED_YIELD          = 0x02,
	CU_CTX_SCHED_BLOCKING_SYNC  = 0x04,
	CU_CTX_BLOCKING_SYNC        = 0x04,
	CU_CTX_SCHED_MASK           = 0x07,
	CU_CTX_MAP_HOST             = 0x08,
	CU_CTX_LMEM_RESIZE_TO_MAX   = 0x10,
	CU_CTX_COREDUMP_ENABLE      = 0x20,
	CU_CTX_USER_COREDUMP_ENABLE = 0x40,
	CU_CTX_SYNC_MEMOPS          = 0x80,
	CU_CTX_FLAGS_MASK           = 0xFF,
} CUctx_flags;

typedef enum CUstream_flags_enum {
	CU_STREAM_DEFAULT      = 0x0,
	CU_STREAM_NON_BLOCKING = 0x1,
} CUstream_flags;

typedef enum CUevent_flags_enum {
	CU_EVENT_DEFAULT        = 0x0,
	CU_EVENT_BLOCKING_SYNC  = 0x1,
	CU_EVENT_DISABLE_TIMING = 0x2,
	CU_EVENT_INTERPROCESS   = 0x4,
} CUevent_flags;

typedef enum CUevent_record_flags_enum {
	CU_EVENT_RECORD_DEFAULT  = 0x0,
	CU_EVENT_RECORD_EXTERNAL = 0x1,
} CUevent_record_flags;

typedef enum CUexecAffinityType_enum {
	CU_EXEC_AFFINITY_TYPE_SM_COUNT = 0,
	CU_EXEC_AFFINITY_TYPE_MAX,
} CUexecAffinityType;

typedef enum CUcigDataType_enum {
	CIG_DATA_TYPE_D3D12_COMMAND_QUEUE = 0x1,
	CIG_DATA_TYPE_NV_BLOB             = 0x2,
} CUcigDataType;

typedef enum CUjit_option_enum {
	CU_JIT_MAX_REGISTERS                    = 0,
	CU_JIT_THREADS_PER_BLOCK                = 1,
	CU_JIT_WALL_TIME                        = 2,
	CU_JIT_INFO_LOG_BUFFER                  = 3,
	CU_JIT_INFO_LOG_BUFFER_SIZE_BYTES       = 4,
	CU_JIT_ERROR_LOG_BUFFER                 = 5,
	CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES      = 6,
	CU_JIT_OPTIMIZATION_LEVEL               = 7,
	CU_JIT_TARGET_FROM_CUCONTEXT            = 8,
	CU_JIT_TARGET                           = 9,
	CU_JIT_FALLBACK_STRATEGY                = 10,
	CU_JIT_GENERATE_DEBUG_INFO              = 11,
	CU_JIT_LOG_VERBOSE                      = 12,
	CU_JIT_GENERATE_LINE_INFO               = 13,
	CU_JIT_CACHE_MODE                       = 14,
	CU_JIT_NEW_SM3X_OPT                     = 15,
	CU_JIT_FAST_COMPILE                     = 16,
	CU_JIT_GLOBAL_SYMBOL_NAMES              = 17,
	CU_JIT_GLOBAL_SYMBOL_ADDRESSES          = 18,
	CU_JIT_GLOBAL_SYMBOL_COUNT              = 19,
	CU_JIT_LTO                              = 20,
	CU_JIT_FTZ                              = 21,
	CU_JIT_PREC_DIV                         = 22,
	CU_JIT_PREC_SQRT                        = 23,
	CU_JIT_FMA                              = 24,
	CU_JIT_REFERENCED_KERNEL_NAMES          = 25,
	CU_JIT_REFERENCED_KERNEL_COUNT          = 26,
	CU_JIT_REFERENCED_VARIABLE_NAMES        = 27,
	CU_JIT_REFERENCED_VARIABLE_COUNT        = 28,
	CU_JIT_OPTIMIZE_UNUSED_DEVICE_VARIABLES = 29,
	CU_JIT_POSITION_INDEPENDENT_CODE        = 30,
	CU_JIT_MIN_CTA_PER_SM                   = 31,
	CU_JIT_MAX_THREADS_PER_BLOCK            = 32,
	CU_JIT_OVERRIDE_DIRECTIVE_VALUES        = 33,
	CU_JIT_SPLIT_COMPILE                    = 34,
	CU_JIT_NUM_OPTIONS,
} CUjit_option;

typedef enum CUjitInputType_enum {
	CU_JIT_INPUT_CUBIN     = 0,
	CU_JIT_INPUT_PTX       = 1,
	CU_JIT_INPUT_FATBINARY = 2,
	CU_JIT_INPUT_OBJECT    = 3,
	CU_JIT_INPUT_LIBRARY   = 4,
	CU_JIT_INPUT_NVVM      = 5,
	CU_JIT_NUM_INPUT_TYPES = 6,
} CUjitInputType;

typedef enum CUmemAttach_flags_enum {
	CU_MEM_ATTACH_GLOBAL = 0x1,
	CU_MEM_ATTACH_HOST   = 0x2,
	CU_MEM_ATTACH_SINGLE = 0x4,
} CUmemAttach_flags;

/* Compute modes (CU_DEVICE_ATTRIBUTE_COMPUTE_MODE). */
typedef enum CUcomputemode_enum {
	CU_COMPUTEMODE_DEFAULT			= 0,
	CU_COMPUTEMODE_PROHIBITED		= 2,
	CU_COMPUTEMODE_EXCLUSIVE_PROCESS	= 3,
} CUcomputemode;

typedef enum CUmemorytype_enum {
	CU_MEMORYTYPE_HOST    = 1,
	CU_MEMORYTYPE_DEVICE  = 2,
	CU_MEMORYTYPE_ARRAY   = 3,
	CU_MEMORYTYPE_UNIFIED = 4,
} CUmemorytype;

typedef enum CUpointer_attribute_enum {
	CU_POINTER_ATTRIBUTE_CONTEXT                    = 1,
	CU_POINTER_ATTRIBUTE_MEMORY_TYPE                = 2,
	CU_POINTER_ATTRIBUTE_DEVICE_POINTER             = 3,
	CU_POINTER_ATTRIBUTE_HOST_POINTER               = 4,
	CU_POINTER_ATTRIBUTE_P2P_TOKENS                 = 5,
	CU_POINTER_ATTRIBUTE_SYNC_MEMOPS                = 6,
	CU_POINTER_ATTRIBUTE_BUFFER_ID                  = 7,
	CU_POINTER_ATTRIBUTE_IS_MANAGED                 = 8,
	CU_POINTER_ATTRIBUTE_DEVICE_ORDINAL             = 9,
	CU_POINTER_ATTRIBUTE_IS_LEGACY_CUDA_IPC_CAPABLE = 10,
	CU_POINTER_ATTRIBUTE_RANGE_START_ADDR           = 11,
	CU_POINTER_ATTRIBUTE_RANGE_SIZE                 = 12,
	CU_POINTER_ATTRIBUTE_MAPPED                     = 13,
	CU_POINTER_ATTRIBUTE_ALLOWED_HANDLE_TYPES       = 14,
	CU_POINTER_ATTRIBUTE_IS_GPU_DIRECT_RDMA_CAPABLE = 15,
	CU_POINTER_ATTRIBUTE_ACCESS_FLAGS               = 16,
	CU_POINTER_ATTRIBUTE_MEMPOOL_HANDLE             = 17,
	CU_POINTER_ATTRIBUTE_MAPPING_SIZE               = 18,
	CU_POINTER_ATTRIBUTE_MAPPING_BASE_ADDR          = 19,
	CU_POINTER_ATTRIBUTE_MEMORY_BLOCK_ID            = 20,
	CU_POINTER_ATTRIBUTE_IS_HW_DECOMPRESS_CAPABLE   = 21,
} CUpointer_attribute;

typedef enum CUmem_advise_enum {
	CU_MEM_ADVISE_SET_READ_MOSTLY          = 1,
	CU_MEM_ADVISE_UNSET_READ_MOSTLY        = 2,
	CU_MEM_ADVISE_SET_PREFERRED_LOCATION   = 3,
	CU_MEM_ADVISE_UNSET_PREFERRED_LOCATION = 4,
	CU_MEM_ADVISE_SET_ACCESSED_BY          = 5,
	CU_MEM_ADVISE_UNSET_ACCESSED_BY        = 6,
} CUmem_advise;

typedef enum CUmem_range_attribute_enum {
	CU_MEM_RANGE_ATTRIBUTE_READ_MOSTLY                 = 1,
	CU_MEM_RANGE_ATTRIBUTE_PREFERRED_LOCATION          = 2,
	CU_MEM_RANGE_ATTRIBUTE_ACCESSED_BY                 = 3,
	CU_MEM_RANGE_ATTRIBUTE_LAST_PREFETCH_LOCATION      = 4,
	CU_MEM_RANGE_ATTRIBUTE_PREFERRED_LOCATION_TYPE     = 5,
	CU_MEM_RANGE_ATTRIBUTE_PREFERRED_LOCATION_ID       = 6,
	CU_MEM_RANGE_ATTRIBUTE_LAST_PREFETCH_LOCATION_TYPE = 7,
	CU_MEM_RANGE_ATTRIBUTE_LAST_PREFETCH_LOCATION_ID   = 8,
} CUmem_range_attribute;

typedef enum CUmemLocationType_enum {
	CU_MEM_LOCATION_TYPE_INVALID           = 0,
	CU_MEM_LOCATION_TYPE_NONE              = 0,
	CU_MEM_LOCATION_TYPE_DEVICE            = 1,
	CU_MEM_LOCATION_TYPE_HOST              = 2,
	CU_MEM_LOCATION_TYPE_HOST_NUMA         = 3,
	CU_MEM_LOCATION_TYPE_HOST_NUMA_CURRENT = 4,
	CU_MEM_LOCATION_TYPE_MAX               = 0x7fffffff,
} CUmemLocationType;

/*
 * Device attributes. Where the runtime's enum cudaDeviceAttr has the same
 * attribute it has the same number; the driver has attributes the runtime
 * lacks or calls Reserved (44, 92-94, 96, 102-105, 107, 110, 122-124,
 * 127-129, 132, 136, 137, 141, 145, 146).
 */
typedef enum CUdevice_attribute_enum {
	CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_BLOCK                         = 1,
	CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_X                               = 2,
	CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_Y                               = 3,
	CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_Z                               = 4,
	CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_X                                = 5,
	CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_Y                                = 6,
	CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_Z                                = 7,
	CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK                   = 8,
	CU_DEVICE_ATTRIBUTE_SHARED_MEMORY_PER_BLOCK                       = 8,
	CU_DEVICE_ATTRIBUTE_TOTAL_CONSTANT_MEMORY                         = 9,
	CU_DEVICE_ATTRIBUTE_WARP_SIZE                                     = 10,
	CU_DEVICE_ATTRIBUTE_MAX_PITCH                                     = 11,
	CU_DEVICE_ATTRIBUTE_MAX_REGISTERS_PER_BLOCK                       = 12,
	CU_DEVICE_ATTRIBUTE_REGISTERS_PER_BLOCK                           = 12,
	CU_DEVICE_ATTRIBUTE_CLOCK_RATE                                    = 13,
	CU_DEVICE_ATTRIBUTE_TEXTURE_ALIGNMENT                             = 14,
	CU_DEVICE_ATTRIBUTE_GPU_OVERLAP                                   = 15,
	CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT                          = 16,
	CU_DEVICE_ATTRIBUTE_KERNEL_EXEC_TIMEOUT                           = 17,
	CU_DEVICE_ATTRIBUTE_INTEGRATED                                    = 18,
	CU_DEVICE_ATTRIBUTE_CAN_MAP_HOST_MEMORY                           = 19,
	CU_DEVICE_ATTRIBUTE_COMPUTE_MODE                                  = 20,
	CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE1D_WIDTH                       = 21,
	CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE2D_WIDTH                       = 22,
	CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE2D_HEIGHT                      = 23,
	CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE3D_WIDTH                       = 24,
	CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE3D_HEIGHT                      = 25,
	CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE3D_DEPTH                       = 26,
	CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE2D_LAYERED_WIDTH               = 27,
	CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE2D_LAYERED_HEIGHT              = 28,
	CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE2D_LAYERED_LAYERS              = 29,
	CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE2D_ARRAY_WIDTH                 = 27,
	CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE2D_ARRAY_HEIGHT                = 28,
	CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE2D_ARRAY_NUMSLICES             = 29,
	CU_DEVICE_ATTRIBUTE_SURFACE_ALIGNMENT                             = 30,
	CU_DEVICE_ATTRIBUTE_CONCURRENT_KERNELS                            = 31,
	CU_DEVICE_ATTRIBUTE_ECC_ENABLED                                   = 32,
	CU_DEVICE_ATTRIBUTE_PCI_BUS_ID                                    = 33,
	CU_DEVICE_ATTRIBUTE_PCI_DEVICE_ID                                 = 34,
	CU_DEVICE_ATTRIBUTE_TCC_DRIVER                                    = 35,
	CU_DEVICE_ATTRIBUTE_MEMORY_CLOCK_RATE                             = 36,
	CU_DEVICE_ATTRIBUTE_GLOBAL_MEMORY_BUS_WIDTH                       = 37,
	CU_DEVICE_ATTRIBUTE_L2_CACHE_SIZE                                 = 38,
	CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_MULTIPROCESSOR                = 39,
	CU_DEVICE_ATTRIBUTE_ASYNC_ENGINE_COUNT                            = 40,
	CU_DEVICE_ATTRIBUTE_UNIFIED_ADDRESSING                            = 41,
	CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE1D_LAYERED_WIDTH               = 42,
	CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE1D_LAYERED_LAYERS              = 43,
	CU_DEVICE_ATTRIBUTE_CAN_TEX2D_GATHER                              = 44,
	CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE2D_GATHER_WIDTH                = 45,
	CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE2D_GATHER_HEIGHT               = 46,
	CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE3D_WIDTH_ALTERNATE             = 47,
	CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE3D_HEIGHT_ALTERNATE            = 48,
	CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE3D_DEPTH_ALTERNATE             = 49,
	CU_DEVICE_ATTRIBUTE_PCI_DOMAIN_ID                                 = 50,
	CU_DEVICE_ATTRIBUTE_TEXTURE_PITCH_ALIGNMENT                       = 51,
	CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURECUBEMAP_WIDTH                  = 52,
	CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURECUBEMAP_LAYERED_WIDTH          = 53,
	CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURECUBEMAP_LAYERED_LAYERS         = 54,
	CU_DEVICE_ATTRIBUTE_MAXIMUM_SURFACE1D_WIDTH                       = 55,
	CU_DEVICE_ATTRIBUTE_MAXIMUM_SURFACE2D_WIDTH                       = 56,
	CU_DEVICE_ATTRIBUTE_MAXIMUM_SURFACE2D_HEIGHT                      = 57,
	CU_DEVICE_ATTRIBUTE_MAXIMUM_SURFACE3D_WIDTH                       = 58,
	CU_DEVICE_ATTRIBUTE_MAXIMUM_SURFACE3D_HEIGHT                      = 59,
	CU_DEVICE_ATTRIBUTE_MAXIMUM_SURFACE3D_DEPTH                       = 60,
	CU_DEVICE_ATTRIBUTE_MAXIMUM_SURFACE1D_LAYERED_WIDTH               = 61,
	CU_DEVICE_ATTRIBUTE_MAXIMUM_SURFACE1D_LAYERED_LAYERS              = 62,
	CU_DEVICE_ATTRIBUTE_MAXIMUM_SURFACE2D_LAYERED_WIDTH               = 63,
	CU_DEVICE_ATTRIBUTE_MAXIMUM_SURFACE2D_LAYERED_HEIGHT              = 64,
	CU_DEVICE_ATTRIBUTE_MAXIMUM_SURFACE2D_LAYERED_LAYERS              = 65,
	CU_DEVICE_ATTRIBUTE_MAXIMUM_SURFACECUBEMAP_WIDTH                  = 66,
	CU_DEVICE_ATTRIBUTE_MAXIMUM_SURFACECUBEMAP_LAYERED_WIDTH          = 67,
	CU_DEVICE_ATTRIBUTE_MAXIMUM_SURFACECUBEMAP_LAYERED_LAYERS         = 68,
	CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE1D_LINEAR_WIDTH                = 69,
	CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE2D_LINEAR_WIDTH                = 70,
	CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE2D_LINEAR_HEIGHT               = 71,
	CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE2D_LINEAR_PITCH                = 72,
	CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE2D_MIPMAPPED_WIDTH             = 73,
	CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE2D_MIPMAPPED_HEIGHT            = 74,
	CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR                      = 75,
	CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR                      = 76,
	CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE1D_MIPMAPPED_WIDTH             = 77,
	CU_DEVICE_ATTRIBUTE_STREAM_PRIORITIES_SUPPORTED                   = 78,
	CU_DEVICE_ATTRIBUTE_GLOBAL_L1_CACHE_SUPPORTED                     = 79,
	CU_DEVICE_ATTRIBUTE_LOCAL_L1_CACHE_SUPPORTED                      = 80,
	CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_MULTIPROCESSOR          = 81,
	CU_DEVICE_ATTRIBUTE_MAX_REGISTERS_PER_MULTIPROCESSOR              = 82,
	CU_DEVICE_ATTRIBUTE_MANAGED_MEMORY                                = 83,
	CU_DEVICE_ATTRIBUTE_MULTI_GPU_BOARD                               = 84,
	CU_DEVICE_ATTRIBUTE_MULTI_GPU_BOARD_GROUP_ID                      = 85,
	CU_DEVICE_ATTRIBUTE_HOST_NATIVE_ATOMIC_SUPPORTED                  = 86,
	CU_DEVICE_ATTRIBUTE_SINGLE_TO_DOUBLE_PRECISION_PERF_RATIO         = 87,
	CU_DEVICE_ATTRIBUTE_PAGEABLE_MEMORY_ACCESS                        = 88,
	CU_DEVICE_ATTRIBUTE_CONCURRENT_MANAGED_ACCESS                     = 89,
	CU_DEVICE_ATTRIBUTE_COMPUTE_PREEMPTION_SUPPORTED                  = 90,
	CU_DEVICE_ATTRIBUTE_CAN_USE_HOST_POINTER_FOR_REGISTERED_MEM       = 91,
	CU_DEVICE_ATTRIBUTE_CAN_USE_STREAM_MEM_OPS_V1                     = 92,
	CU_DEVICE_ATTRIBUTE_CAN_USE_64_BIT_STREAM_MEM_OPS_V1              = 93,
	CU_DEVICE_ATTRIBUTE_CAN_USE_STREAM_WAIT_VALUE_NOR_V1              = 94,
	CU_DEVICE_ATTRIBUTE_COOPERATIVE_LAUNCH                            = 95,
	CU_DEVICE_ATTRIBUTE_COOPERATIVE_MULTI_DEVICE_LAUNCH               = 96,
	CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN             = 97,
	CU_DEVICE_ATTRIBUTE_CAN_FLUSH_REMOTE_WRITES                       = 98,
	CU_DEVICE_ATTRIBUTE_HOST_REGISTER_SUPPORTED                       = 99,
	CU_DEVICE_ATTRIBUTE_PAGEABLE_MEMORY_ACCESS_USES_HOST_PAGE_TABLES  = 100,
	CU_DEVICE_ATTRIBUTE_DIRECT_MANAGED_MEM_ACCESS_FROM_HOST           = 101,
	CU_DEVICE_ATTRIBUTE_VIRTUAL_ADDRESS_MANAGEMENT_SUPPORTED          = 102,
	CU_DEVICE_ATTRIBUTE_VIRTUAL_MEMORY_MANAGEMENT_SUPPORTED           = 102,
	CU_DEVICE_ATTRIBUTE_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR_SUPPORTED   = 103,
	CU_DEVICE_ATTRIBUTE_HANDLE_TYPE_WIN32_HANDLE_SUPPORTED            = 104,
	CU_DEVICE_ATTRIBUTE_HANDLE_TYPE_WIN32_KMT_HANDLE_SUPPORTED        = 105,
	CU_DEVICE_ATTRIBUTE_MAX_BLOCKS_PER_MULTIPROCESSOR                 = 106,
	CU_DEVICE_ATTRIBUTE_GENERIC_COMPRESSION_SUPPORTED                 = 107,
	CU_DEVICE_ATTRIBUTE_MAX_PERSISTING_L2_CACHE_SIZE                  = 108,
	CU_DEVICE_ATTRIBUTE_MAX_ACCESS_POLICY_WINDOW_SIZE                 = 109,
	CU_DEVICE_ATTRIBUTE_GPU_DIRECT_RDMA_WITH_CUDA_VMM_SUPPORTED       = 110,
	CU_DEVICE_ATTRIBUTE_RESERVED_SHARED_MEMORY_PER_BLOCK              = 111,
	CU_DEVICE_ATTRIBUTE_SPARSE_CUDA_ARRAY_SUPPORTED                   = 112,
	CU_DEVICE_ATTRIBUTE_READ_ONLY_HOST_REGISTER_SUPPORTED             = 113,
	CU_DEVICE_ATTRIBUTE_TIMELINE_SEMAPHORE_INTEROP_SUPPORTED          = 114,
	CU_DEVICE_ATTRIBUTE_MEMORY_POOLS_SUPPORTED                        = 115,
	CU_DEVICE_ATTRIBUTE_GPU_DIRECT_RDMA_SUPPORTED                     = 116,
	CU_DEVICE_ATTRIBUTE_GPU_DIRECT_RDMA_FLUSH_WRITES_OPTIONS          = 117,
	CU_DEVICE_ATTRIBUTE_GPU_DIRECT_RDMA_WRITES_ORDERING               = 118,
	CU_DEVICE_ATTRIBUTE_MEMPOOL_SUPPORTED_HANDLE_TYPES                = 119,
	CU_DEVICE_ATTRIBUTE_CLUSTER_LAUNCH                                = 120,
	CU_DEVICE_ATTRIBUTE_DEFERRED_MAPPING_CUDA_ARRAY_SUPPORTED         = 121,
	CU_DEVICE_ATTRIBUTE_CAN_USE_64_BIT_STREAM_MEM_OPS                 = 122,
	CU_DEVICE_ATTRIBUTE_CAN_USE_STREAM_WAIT_VALUE_NOR                 = 123,
	CU_DEVICE_ATTRIBUTE_DMA_BUF_SUPPORTED                             = 124,
	CU_DEVICE_ATTRIBUTE_IPC_EVENT_SUPPORTED                           = 125,
	CU_DEVICE_ATTRIBUTE_MEM_SYNC_DOMAIN_COUNT                         = 126,
	CU_DEVICE_ATTRIBUTE_TENSOR_MAP_ACCESS_SUPPORTED                   = 127,
	CU_DEVICE_ATTRIBUTE_HANDLE_TYPE_FABRIC_SUPPORTED                  = 128,
	CU_DEVICE_ATTRIBUTE_UNIFIED_FUNCTION_POINTERS                     = 129,
	CU_DEVICE_ATTRIBUTE_NUMA_CONFIG                                   = 130,
	CU_DEVICE_ATTRIBUTE_NUMA_ID                                       = 131,
	CU_DEVICE_ATTRIBUTE_MULTICAST_SUPPORTED                           = 132,
	CU_DEVICE_ATTRIBUTE_MPS_ENABLED                                   = 133,
	CU_DEVICE_ATTRIBUTE_HOST_NUMA_ID                                  = 134,
	CU_DEVICE_ATTRIBUTE_D3D12_CIG_SUPPORTED                           = 135,
	CU_DEVICE_ATTRIBUTE_MEM_DECOMPRESS_ALGORITHM_MASK                 = 136,
	CU_DEVICE_ATTRIBUTE_MEM_DECOMPRESS_MAXIMUM_LENGTH                 = 137,
	CU_DEVICE_ATTRIBUTE_VULKAN_CIG_SUPPORTED                          = 138,
	CU_DEVICE_ATTRIBUTE_GPU_PCI_DEVICE_ID                             = 139,
	CU_DEVICE_ATTRIBUTE_GPU_PCI_SUBSYSTEM_ID                          = 140,
	CU_DEVICE_ATTRIBUTE_HOST_NUMA_VIRTUAL_MEMORY_MANAGEMENT_SUPPORTED = 141,
	CU_DEVICE_ATTRIBUTE_HOST_NUMA_MEMORY_POOLS_SUPPORTED              = 142,
	CU_DEVICE_ATTRIBUTE_HOST_NUMA_MULTINODE_IPC_SUPPORTED             = 143,
	CU_DEVICE_ATTRIBUTE_HOST_MEMORY_POOLS_SUPPORTED                   = 144,
	CU_DEVICE_ATTRIBUTE_HOST_VIRTUAL_MEMORY_MANAGEMENT_SUPPORTED      = 145,
	CU_DEVICE_ATTRIBUTE_HOST_ALLOC_DMA_BUF_SUPPORTED                  = 146,
	CU_DEVICE_ATTRIBUTE_ONLY_PARTIAL_HOST_NATIVE_ATOMIC_SUPPORTED     = 147,
	CU_DEVICE_ATTRIBUTE_MAX                                           = 148,
} CUdevice_attribute;

/* Every status code of the CUDA 13.0 driver API. */
typedef enum cudaError_enum {
	CUDA_SUCCESS                              = 0,
	CUDA_ERROR_INVALID_VALUE                  = 1,
	CUDA_ERROR_OUT_OF_MEMORY                  = 2,
	CUDA_ERROR_NOT_INITIALIZED                = 3,
	CUDA_ERROR_DEINITIALIZED                  = 4,
	CUDA_ERROR_PROFILER_DISABLED              = 5,
	CUDA_ERROR_PROFILER_NOT_INITIALIZED       = 6,
	CUDA_ERROR_PROFILER_ALREADY_STARTED       = 7,
	CUDA_ERROR_PROFILER_ALREADY_STOPPED       = 8,
	CUDA_ERROR_STUB_LIBRARY                   = 34,
	CUDA_ERROR_CALL_REQUIRES_NEWER_DRIVER     = 36,
	CUDA_ERROR_DEVICE_UNAVAILABLE             = 46,
	CUDA_ERROR_NO_DEVICE                      = 100,
	CUDA_ERROR_INVALID_DEVICE                 = 101,
	CUDA_ERROR_DEVICE_NOT_LICENSED            = 102,
	CUDA_ERROR_INVALID_IMAGE                  = 200,
	CUDA_ERROR_INVALID_CONTEXT                = 201,
	CUDA_ERROR_CONTEXT_ALREADY_CURRENT        = 202,
	CUDA_ERROR_MAP_FAILED                     = 205,
	CUDA_ERROR_UNMAP_FAILED                   = 206,
	CUDA_ERROR_ARRAY_IS_MAPPED                = 207,
	CUDA_ERROR_ALREADY_MAPPED                 = 208,
	CUDA_ERROR_NO_BINARY_FOR_GPU              = 209,
	CUDA_ERROR_ALREADY_ACQUIRED               = 210,
	CUDA_ERROR_NOT_MAPPED                     = 211,
	CUDA_ERROR_NOT_MAPPED_AS_ARRAY            = 212,
	CUDA_ERROR_NOT_MAPPED_AS_POINTER          = 213,
	CUDA_ERROR_ECC_UNCORRECTABLE              = 214,
	CUDA_ERROR_UNSUPPORTED_LIMIT              = 215,
	CUDA_ERROR_CONTEXT_ALREADY_IN_USE         = 216,
	CUDA_ERROR_PEER_ACCESS_UNSUPPORTED        = 217,
	CUDA_ERROR_INVALID_PTX                    = 218,
	CUDA_ERROR_INVALID_GRAPHICS_CONTEXT       = 219,
	CUDA_ERROR_NVLINK_UNCORRECTABLE           = 220,
	CUDA_ERROR_JIT_COMPILER_NOT_FOUND         = 221,
	CUDA_ERROR_UNSUPPORTED_PTX_VERSION        = 222,
	CUDA_ERROR_JIT_COMPILATION_DISABLED       = 223,
	CUDA_ERROR_UNSUPPORTED_EXEC_AFFINITY      = 224,
	CUDA_ERROR_UNSUPPORTED_DEVSIDE_SYNC       = 225,
	CUDA_ERROR_CONTAINED                      = 226,
	CUDA_ERROR_INVALID_SOURCE                 = 300,
	CUDA_ERROR_FILE_NOT_FOUND                 = 301,
	CUDA_ERROR_SHARED_OBJECT_SYMBOL_NOT_FOUND = 302,
	CUDA_ERROR_SHARED_OBJECT_INIT_FAILED      = 303,
	CUDA_ERROR_OPERATING_SYSTEM               = 304,
	CUDA_ERROR_INVALID_HANDLE                 = 400,
	CUDA_ERROR_ILLEGAL_STATE                  = 401,
	CUDA_ERROR_LOSSY_QUERY                    = 402,
	CUDA_ERROR_NOT_FOUND                      = 500,
	CUDA_ERROR_NOT_READY                      = 600,
	CUDA_ERROR_ILLEGAL_ADDRESS                = 700,
	CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES        = 701,
	CUDA_ERROR_LAUNCH_TIMEOUT                 = 702,
	CUDA_ERROR_LAUNCH_INCOMPATIBLE_TEXTURING  = 703,
	CUDA_ERROR_PEER_ACCESS_ALREADY_ENABLED    = 704,
	CUDA_ERROR_PEER_ACCESS_NOT_ENABLED        = 705,
	CUDA_ERROR_PRIMARY_CONTEXT_ACTIVE         = 708,
	CUDA_ERROR_CONTEXT_IS_DESTROYED           = 709,
	CUDA_ERROR_ASSERT                         = 710,
	CUDA_ERROR_TOO_MANY_PEERS                 = 711,
	CUDA_ERROR_HOST_MEMORY_ALREADY_REGISTERED = 712,
	CUDA_ERROR_HOST_MEMORY_NOT_REGISTERED     = 713,
	CUDA_ERROR_HARDWARE_STACK_ERROR           = 714,
	CUDA_ERROR_ILLEGAL_INSTRUCTION            = 715,
	CUDA_ERROR_MISALIGNED_ADDRESS             = 716,
	CUDA_ERROR_INVALID_ADDRESS_SPACE          = 717,
	CUDA_ERROR_INVALID_PC                     = 718,
	CUDA_ERROR_LAUNCH_FAILED                  = 719,
	CUDA_ERROR_COOPERATIVE_LAUNCH_TOO_LARGE   = 720,
	CUDA_ERROR_TENSOR_MEMORY_LEAK             = 721,
	CUDA_ERROR_NOT_PERMITTED                  = 800,
	CUDA_ERROR_NOT_SUPPORTED                  = 801,
	CUDA_ERROR_SYSTEM_NOT_READY               = 802,
	CUDA_ERROR_SYSTEM_DRIVER_MISMATCH         = 803,
	CUDA_ERROR_COMPAT_NOT_SUPPORTED_ON_DEVICE = 804,
	CUDA_ERROR_MPS_CONNECTION_FAILED          = 805,
	CUDA_ERROR_MPS_RPC_FAILURE                = 806,
	CUDA_ERROR_MPS_SERVER_NOT_READY           = 807,
	CUDA_ERROR_MPS_MAX_CLIENTS_REACHED        = 808,
	CUDA_ERROR_MPS_MAX_CONNECTIONS_REACHED    = 809,
	CUDA_ERROR_MPS_CLIENT_TERMINATED          = 810,
	CUDA_ERROR_CDP_NOT_SUPPORTED              = 811,
	CUDA_ERROR_CDP_VERSION_MISMATCH           = 812,
	CUDA_ERROR_STREAM_CAPTURE_UNSUPPORTED     = 900,
	CUDA_ERROR_STREAM_CAPTURE_INVALIDATED     = 901,
	CUDA_ERROR_STREAM_CAPTURE_MERGE           = 902,
	CUDA_ERROR_STREAM_CAPTURE_UNMATCHED       = 903,
	CUDA_ERROR_STREAM_CAPTURE_UNJOINED        = 904,
	CUDA_ERROR_STREAM_CAPTURE_ISOLATION       = 905,
	CUDA_ERROR_STREAM_CAPTURE_IMPLICIT        = 906,
	CUDA_ERROR_CAPTURED_EVENT                 = 907,
	CUDA_ERROR_STREAM_CAPTURE_WRONG_THREAD    = 908,
	CUDA_ERROR_TIMEOUT                        = 909,
	CUDA_ERROR_GRAPH_EXEC_UPDATE_FAILURE      = 910,
	CUDA_ERROR_EXTERNAL_DEVICE                = 911,
	CUDA_ERROR_INVALID_CLUSTER_SIZE           = 912,
	CUDA_ERROR_FUNCTION_NOT_LOADED            = 913,
	CUDA_ERROR_INVALID_RESOURCE_TYPE          = 914,
	CUDA_ERROR_INVALID_RESOURCE_CONFIGURATION = 915,
	CUDA_ERROR_KEY_ROTATION                   = 916,
	CUDA_ERROR_UNKNOWN                        = 999,
} CUresult;

/* ---- structures ------------------------------------------------------------ */

typedef struct CUmemLocation_st {
	CUmemLocationType type;
	int id;
} CUmemLocation_v1;
typedef CUmemLocation_v1 CUmemLocation;

typedef struct CUexecAffinitySmCount_st {
	unsigned int val;
} CUexecAffinitySmCount_v1;
typedef CUexecAffinitySmCount_v1 CUexecAffinitySmCount;

typedef struct CUexecAffinityParam_st {
	CUexecAffinityType type;
	union {
		CUexecAffinitySmCount smCount;
	} param;
} CUexecAffinityParam_v1;
typedef CUexecAffinityParam_v1 CUexecAffinityParam;

typedef struct CUctxCigParam_st {
	CUcigDataType sharedDataType;
	void *sharedData;
} CUctxCigParam;

typedef struct CUctxCreateParams_st {
	CUexecAffinityParam *execAffinityParams;
	int numExecAffinityParams;
	CUctxCigParam *cigParams;
} CUctxCreateParams;

typedef struct CUDA_POINTER_ATTRIBUTE_P2P_TOKENS_st {
	unsigned long long p2pToken;
	unsigned int vaSpaceToken;
} CUDA_POINTER_ATTRIBUTE_P2P_TOKENS_v1;
typedef CUDA_POINTER_ATTRIBUTE_P2P_TOKENS_v1 CUDA_POINTER_ATTRIBUTE_P2P_TOKENS;

/* ---- entry points ------------------------------------------------------- */

#if defined(__cplusplus)
extern "C" {
#endif

CUresult CUDAAPI cuGetErrorString(CUresult error, const char **pStr);
CUresult CUDAAPI cuGetErrorName(CUresult error, const char **pStr);
CUresult CUDAAPI cuInit(unsigned int Flags);
CUresult CUDAAPI cuDriverGetVersion(int *driverVersion);
CUresult CUDAAPI cuDeviceGet(CUdevice *device, int ordinal);
CUresult CUDAAPI cuDeviceGetCount(int *count);
CUresult CUDAAPI cuDeviceGetName(char *name, int len, CUdevice dev);
CUresult CUDAAPI cuDeviceTotalMem(size_t *bytes, CUdevice dev);
CUresult CUDAAPI cuDeviceGetAttribute(int *pi, CUdevice_attribute attrib, CUdevice dev);
CUresult CUDAAPI cuDeviceGetUuid(CUuuid *uuid, CUdevice dev);
CUresult CUDAAPI cuDeviceGetPCIBusId(char *pciBusId, int len, CUdevice dev);
CUresult CUDAAPI cuDeviceCanAccessPeer(int *canAccessPeer, CUdevice dev, CUdevice peerDev);

CUresult CUDAAPI cuDevicePrimaryCtxRetain(CUcontext *pctx, CUdevice dev);
CUresult CUDAAPI cuDevicePrimaryCtxRelease(CUdevice dev);
CUresult CUDAAPI cuDevicePrimaryCtxSetFlags(CUdevice dev, unsigned int flags);
CUresult CUDAAPI cuDevicePrimaryCtxGetState(CUdevice dev, unsigned int *flags, int *active);
CUresult CUDAAPI cuDevicePrimaryCtxReset(CUdevice dev);
CUresult CUDAAPI cuCtxCreate(CUcontext *pctx, CUctxCreateParams *ctxCreateParams, unsigned int flags,
			     CUdevice dev);
CUresult CUDAAPI cuCtxDestroy(CUcontext ctx);
CUresult CUDAAPI cuCtxPushCurrent(CUcontext ctx);
CUresult CUDAAPI cuCtxPopCurrent(CUcontext *pctx);
CUresult CUDAAPI cuCtxSetCurrent(CUcontext ctx);
CUresult CUDAAPI cuCtxGetCurrent(CUcontext *pctx);
CUresult CUDAAPI cuCtxGetDevice(CUdevice *device);
CUresult CUDAAPI cuCtxGetFlags(unsigned int *flags);
CUresult CUDAAPI cuCtxSynchronize(void);
CUresult CUDAAPI cuCtxEnablePeerAccess(CUcontext peerContext, unsigned int Flags);
CUresult CUDAAPI cuCtxDisablePeerAccess(CUcontext peerContext);

CUresult CUDAAPI cuMemGetInfo(size_t *free, size_t *total);
CUresult CUDAAPI cuMemAlloc(CUdeviceptr *dptr, size_t bytesize);
CUresult CUDAAPI cuMemFree(CUdeviceptr dptr);
CUresult CUDAAPI cuMemAllocHost(void **pp, size_t bytesize);
CUresult CUDAAPI cuMemFreeHost(void *p);
CUresult CUDAAPI cuMemHostAlloc(void **pp, size_t bytesize, unsigned int Flags);
CUresult CUDAAPI cuMemHostGetDevicePointer(CUdeviceptr *pdptr, void *p, unsigned int Flags);
CUresult CUDAAPI cuMemHostRegister(void *p, size_t bytesize, unsigned int Flags);
CUresult CUDAAPI cuMemHostUnregister(void *p);
CUresult CUDAAPI cuMemAllocManaged(CUdeviceptr *dptr, size_t bytesize, unsigned int flags);

CUresult CUDAAPI cuMemcpy(CUdeviceptr dst, CUdeviceptr src, size_t ByteCount);
CUresult CUDAAPI cuMemcpyHtoD(CUdeviceptr dstDevice, const void *srcHost, size_t ByteCount);
CUresult CUDAAPI cuMemcpyDtoH(void *dstHost, CUdeviceptr srcDevice, size_t ByteCount);
CUresult CUDAAPI cuMemcpyDtoD(CUdeviceptr dstDevice, CUdeviceptr srcDevice, size_t ByteCount);
CUresult CUDAAPI cuMemcpyAsync(CUdeviceptr dst, CUdeviceptr src, size_t ByteCount, CUstream hStream);
CUresult CUDAAPI cuMemcpyHtoDAsync(CUdeviceptr dstDevice, const void *srcHost, size_t ByteCount,
				   CUstream hStream);
CUresult CUDAAPI cuMemcpyDtoHAsync(void *dstHost, CUdeviceptr srcDevice, size_t ByteCount,
				   CUstream hStream);
CUresult CUDAAPI cuMemcpyDtoDAsync(CUdeviceptr dstDevice, CUdeviceptr srcDevice, size_t ByteCount,
				   CUstream hStream);
CUresult CUDAAPI cuMemsetD8(CUdeviceptr dstDevice, unsigned char uc, size_t N);
CUresult CUDAAPI cuMemsetD16(CUdeviceptr dstDevice, unsigned short us, size_t N);
CUresult CUDAAPI cuMemsetD32(CUdeviceptr dstDevice, unsigned int ui, size_t N);
CUresult CUDAAPI cuMemsetD8Async(CUdeviceptr dstDevice, unsigned char uc, size_t N, CUstream hStream);
CUresult CUDAAPI cuMemsetD16Async(CUdeviceptr dstDevice, unsigned short us, size_t N, CUstream hStream);
CUresult CUDAAPI cuMemsetD32Async(CUdeviceptr dstDevice, unsigned int ui, size_t N, CUstream hStream);

CUresult CUDAAPI cuStreamCreate(CUstream *phStream, unsigned int Flags);
CUresult CUDAAPI cuStreamDestroy(CUstream hStream);
CUresult CUDAAPI cuStreamQuery(CUstream hStream);
CUresult CUDAAPI cuStreamSynchronize(CUstream hStream);
CUresult CUDAAPI cuEventCreate(CUevent *phEvent, unsigned int Flags);
CUresult CUDAAPI cuEventRecord(CUevent hEvent, CUstream hStream);
CUresult CUDAAPI cuEventRecordWithFlags(CUevent hEvent, CUstream hStream, unsigned int flags);
CUresult CUDAAPI cuEventQuery(CUevent hEvent);
CUresult CUDAAPI cuEventSynchronize(CUevent hEvent);
CUresult CUDAAPI cuEventDestroy(CUevent hEvent);
CUresult CUDAAPI cuEventElapsedTime(float *pMilliseconds, CUevent hStart, CUevent hEnd);

/* Host functions in stream order, stream queries, stream-ordered allocation. */
#if !defined(CUDA_CB)
#define CUDA_CB
#endif
typedef void (CUDA_CB *CUhostFn)(void *userData);
typedef void (CUDA_CB *CUstreamCallback)(CUstream hStream, CUresult status, void *userData);
CUresult CUDAAPI cuLaunchHostFunc(CUstream hStream, CUhostFn fn, void *userData);
CUresult CUDAAPI cuStreamAddCallback(CUstream hStream, CUstreamCallback callback, void *userData,
				     unsigned int flags);
CUresult CUDAAPI cuStreamGetFlags(CUstream hStream, unsigned int *flags);
CUresult CUDAAPI cuStreamGetPriority(CUstream hStream, int *priority);
CUresult CUDAAPI cuCtxGetStreamPriorityRange(int *leastPriority, int *greatestPriority);
CUresult CUDAAPI cuMemAllocAsync(CUdeviceptr *dptr, size_t bytesize, CUstream hStream);
CUresult CUDAAPI cuMemFreeAsync(CUdeviceptr dptr, CUstream hStream);

/* Device code: declared so programs link; every call is CUDA_ERROR_NOT_SUPPORTED. */
CUresult CUDAAPI cuModuleLoad(CUmodule *module, const char *fname);
CUresult CUDAAPI cuModuleLoadData(CUmodule *module, const void *image);
CUresult CUDAAPI cuModuleLoadDataEx(CUmodule *module, const void *image, unsigned int numOptions,
				    CUjit_option *options, void **optionValues);
CUresult CUDAAPI cuModuleLoadFatBinary(CUmodule *module, const void *fatCubin);
CUresult CUDAAPI cuModuleUnload(CUmodule hmod);
CUresult CUDAAPI cuModuleGetFunction(CUfunction *hfunc, CUmodule hmod, const char *name);
CUresult CUDAAPI cuModuleGetGlobal(CUdeviceptr *dptr, size_t *bytes, CUmodule hmod, const char *name);
CUresult CUDAAPI cuLaunchKernel(CUfunction f, unsigned int gridDimX, unsigned int gridDimY,
				unsigned int gridDimZ, unsigned int blockDimX, unsigned int blockDimY,
				unsigned int blockDimZ, unsigned int sharedMemBytes, CUstream hStream,
				void **kernelParams, void **extra);
CUresult CUDAAPI cuLinkCreate(unsigned int numOptions, CUjit_option *options, void **optionValues,
			      CUlinkState *stateOut);
CUresult CUDAAPI cuLinkAddData(CUlinkState state, CUjitInputType type, void *data, size_t size,
			       const char *name, unsigned int numOptions, CUjit_option *options,
			       void **optionValues);
CUresult CUDAAPI cuLinkAddFile(CUlinkState state, CUjitInputType type, const char *path,
			       unsigned int numOptions, CUjit_option *options, void **optionValues);
CUresult CUDAAPI cuLinkComplete(CUlinkState state, void **cubinOut, size_t *sizeOut);
CUresult CUDAAPI cuLinkDestroy(CUlinkState state);

CUresult CUDAAPI cuMemAdvise(CUdeviceptr devPtr, size_t count, CUmem_advise advice, CUmemLocation location);
CUresult CUDAAPI cuMemPrefetchAsync(CUdeviceptr devPtr, size_t count, CUmemLocation location,
				    unsigned int flags, CUstream hStream);
CUresult CUDAAPI cuMemPrefetchBatchAsync(CUdeviceptr *dptrs, size_t *sizes, size_t count,
					 CUmemLocation *prefetchLocs, size_t *prefetchLocIdxs,
					 size_t numPrefetchLocs, unsigned long long flags, CUstream hStream);
CUresult CUDAAPI cuMemDiscardBatchAsync(CUdeviceptr *dptrs, size_t *sizes, size_t count,
					unsigned long long flags, CUstream hStream);
CUresult CUDAAPI cuMemDiscardAndPrefetchBatchAsync(CUdeviceptr *dptrs, size_t *sizes, size_t count,
						   CUmemLocation *prefetchLocs, size_t *prefetchLocIdxs,
						   size_t numPrefetchLocs, unsigned long long flags,
						   CUstream hStream);
CUresult CUDAAPI cuMemRangeGetAttribute(void *data, size_t dataSize, CUmem_range_attribute attribute,
					CUdeviceptr devPtr, size_t count);
CUresult CUDAAPI cuMemRangeGetAttributes(void **data, size_t *dataSizes, CUmem_range_attribute *attributes,
					 size_t numAttributes, CUdeviceptr devPtr, size_t count);
CUresult CUDAAPI cuPointerGetAttribute(void *data, CUpointer_attribute attribute, CUdeviceptr ptr);
CUresult CUDAAPI cuPointerGetAttributes(unsigned int numAttributes, CUpointer_attribute *attributes,
					void **data, CUdeviceptr ptr);
CUresult CUDAAPI cuPointerSetAttribute(const void *value, CUpointer_attribute attribute, CUdeviceptr ptr);

#if defined(__cplusplus)
}
#endif

#endif /* UVM_CUDA_H */
