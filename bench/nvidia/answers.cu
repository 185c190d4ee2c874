// SPDX-License-Identifier: MIT
/*
 * answers.cu - what NVIDIA's CUDA runtime answers where its documentation
 * is silent, for the calls libuvm implements (docs/libuvm.md cites the
 * results, kept beside this file as answers-<card>.txt). One line a
 * question: "call: status [values]". Run on a GPU with NVIDIA's driver:
 *
 *   nvcc -cudart shared -arch=sm_90 -o answers answers.cu \
 *        answers_sm100.cu (the same, -arch=sm_100 for that file: a kernel
 *        with no image for an sm_90 card)
 *
 * Each question runs in a fresh state where it matters (the reset and
 * flag questions come first); nothing here needs more than a few MiB.
 */
#include <cuda_runtime.h>
#include <cuda_profiler_api.h>
#include <stdio.h>
#include <string.h>

#define Q(label, call) do {						\
	cudaError_t e_ = (call);					\
	printf("%s: %d %s\n", label, (int)e_, cudaGetErrorName(e_));	\
	cudaGetLastError();						\
} while (0)

__global__ void k_add(const float *a, const float *b, float *c, int n)
{
	int i = blockDim.x * blockIdx.x + threadIdx.x;

	if (i < n)
		c[i] = a[i] + b[i];
}

__global__ void k_big(float *x)
{
	__shared__ float tile[12 * 1024];

	tile[threadIdx.x] = x[threadIdx.x];
	__syncthreads();
	x[threadIdx.x] = tile[(threadIdx.x + 1) % blockDim.x];
}

extern void launch_sm100_only(float *x);
extern const void *sm100_kernel(void);

static void host_fn(void *arg)
{
	*(int *)arg = 1;
}

static void CUDART_CB stream_cb(cudaStream_t s, cudaError_t st, void *arg)
{
	*(int *)arg = 2 + (int)st;
}

static void flags(void)
{
	unsigned int f = 0;

	Q("cudaGetDeviceFlags before any context", cudaGetDeviceFlags(&f));
	printf("  flags=%#x\n", f);
	Q("cudaSetDeviceFlags(0xffff)", cudaSetDeviceFlags(0xffff));
	Q("cudaSetDeviceFlags(ScheduleSpin|ScheduleYield)",
	  cudaSetDeviceFlags(cudaDeviceScheduleSpin | cudaDeviceScheduleYield));
	Q("cudaSetDeviceFlags(MapHost|ScheduleBlockingSync) before a context",
	  cudaSetDeviceFlags(cudaDeviceMapHost | cudaDeviceScheduleBlockingSync));
	Q("cudaGetDeviceFlags", cudaGetDeviceFlags(&f));
	printf("  flags=%#x\n", f);
	Q("cudaFree(0) (context made)", cudaFree(0));
	Q("cudaSetDeviceFlags(ScheduleSpin) with a context", cudaSetDeviceFlags(cudaDeviceScheduleSpin));
	Q("cudaGetDeviceFlags", cudaGetDeviceFlags(&f));
	printf("  flags=%#x\n", f);
	Q("cudaSetDeviceFlags(LmemResizeToMax)", cudaSetDeviceFlags(cudaDeviceLmemResizeToMax));
	Q("cudaGetDeviceFlags", cudaGetDeviceFlags(&f));
	printf("  flags=%#x\n", f);
	Q("cudaGetDeviceFlags(NULL)", cudaGetDeviceFlags(NULL));
}

static void p2p(void)
{
	int v = -1, n = 0;

	cudaGetDeviceCount(&n);
	printf("devices: %d\n", n);
	Q("cudaDeviceGetP2PAttribute(AccessSupported, 0, 0)",
	  cudaDeviceGetP2PAttribute(&v, cudaDevP2PAttrAccessSupported, 0, 0));
	printf("  value=%d\n", v);
	Q("cudaDeviceGetP2PAttribute(AccessSupported, 0, n)",
	  cudaDeviceGetP2PAttribute(&v, cudaDevP2PAttrAccessSupported, 0, n));
	Q("cudaDeviceGetP2PAttribute(NULL)", cudaDeviceGetP2PAttribute(NULL, cudaDevP2PAttrAccessSupported, 0, 1));
	Q("cudaDeviceGetP2PAttribute(attr 99, 0, 1)",
	  cudaDeviceGetP2PAttribute(&v, (cudaDeviceP2PAttr)99, 0, 1));
	if (n > 1) {
		Q("cudaDeviceGetP2PAttribute(AccessSupported, 0, 1)",
		  cudaDeviceGetP2PAttribute(&v, cudaDevP2PAttrAccessSupported, 0, 1));
		printf("  value=%d\n", v);
	}
}

static void channel(void)
{
	struct cudaChannelFormatDesc d = cudaCreateChannelDesc(32, 0, 0, 0, cudaChannelFormatKindFloat);

	printf("cudaCreateChannelDesc(32,0,0,0,Float): %d %d %d %d %d\n", d.x, d.y, d.z, d.w, (int)d.f);
	d = cudaCreateChannelDesc(-8, 3, 0, 0, (cudaChannelFormatKind)77);
	printf("cudaCreateChannelDesc(-8,3,0,0,77): %d %d %d %d %d\n", d.x, d.y, d.z, d.w, (int)d.f);
}

static void pool_attrs(const char *when, cudaMemPool_t pool)
{
	unsigned long long rc = 0, rh = 0, uc = 0, uh = 0, thr = 0;
	int follow = -1, opp = -1, internal = -1;

	cudaMemPoolGetAttribute(pool, cudaMemPoolAttrReservedMemCurrent, &rc);
	cudaMemPoolGetAttribute(pool, cudaMemPoolAttrReservedMemHigh, &rh);
	cudaMemPoolGetAttribute(pool, cudaMemPoolAttrUsedMemCurrent, &uc);
	cudaMemPoolGetAttribute(pool, cudaMemPoolAttrUsedMemHigh, &uh);
	cudaMemPoolGetAttribute(pool, cudaMemPoolAttrReleaseThreshold, &thr);
	cudaMemPoolGetAttribute(pool, cudaMemPoolReuseFollowEventDependencies, &follow);
	cudaMemPoolGetAttribute(pool, cudaMemPoolReuseAllowOpportunistic, &opp);
	cudaMemPoolGetAttribute(pool, cudaMemPoolReuseAllowInternalDependencies, &internal);
	printf("  pool %s: reserved %llu high %llu used %llu high %llu threshold %llu reuse %d %d %d\n",
	       when, rc, rh, uc, uh, thr, follow, opp, internal);
}

static void pools(void)
{
	cudaMemPool_t pool = NULL, cur = NULL, mine = NULL;
	cudaStream_t s;
	void *p = NULL, *q = NULL;
	unsigned long long v;
	struct cudaMemPoolProps props;
	struct cudaMemAccessDesc acc;
	cudaMemAccessFlags af;
	struct cudaMemLocation loc;

	cudaStreamCreate(&s);
	Q("cudaDeviceGetDefaultMemPool", cudaDeviceGetDefaultMemPool(&pool, 0));
	Q("cudaDeviceGetMemPool", cudaDeviceGetMemPool(&cur, 0));
	printf("  current==default: %d\n", cur == pool);
	Q("cudaDeviceGetDefaultMemPool(dev 99)", cudaDeviceGetDefaultMemPool(&pool, 99));
	pool_attrs("fresh", pool);
	Q("cudaMallocAsync(1 MiB)", cudaMallocAsync(&p, 1 << 20, s));
	pool_attrs("after 1 MiB", pool);
	Q("cudaMallocAsync(3 MiB + 1)", cudaMallocAsync(&q, (3 << 20) + 1, s));
	pool_attrs("after 3 MiB + 1", pool);
	Q("cudaMallocAsync(0)", cudaMallocAsync(&q, 0, s));
	printf("  ptr=%p\n", q);
	Q("cudaMallocAsync(NULL ptr)", cudaMallocAsync(NULL, 16, s));
	Q("cudaMallocAsync(1 TiB)", cudaMallocAsync(&q, 1ULL << 40, s));
	Q("cudaFreeAsync(1 MiB)", cudaFreeAsync(p, s));
	Q("cudaFreeAsync(NULL)", cudaFreeAsync(NULL, s));
	Q("cudaStreamSynchronize", cudaStreamSynchronize(s));
	pool_attrs("after free + sync", pool);
	Q("cudaFreeAsync(the same again)", cudaFreeAsync(p, s));
	Q("cudaStreamSynchronize", cudaStreamSynchronize(s));
	Q("cudaMemPoolTrimTo(0)", cudaMemPoolTrimTo(pool, 0));
	pool_attrs("after trim", pool);
	v = 1;
	Q("cudaMemPoolSetAttribute(ReservedMemHigh, 1)", cudaMemPoolSetAttribute(pool, cudaMemPoolAttrReservedMemHigh, &v));
	v = 0;
	Q("cudaMemPoolSetAttribute(ReservedMemHigh, 0)", cudaMemPoolSetAttribute(pool, cudaMemPoolAttrReservedMemHigh, &v));
	Q("cudaMemPoolSetAttribute(UsedMemCurrent, 0)", cudaMemPoolSetAttribute(pool, cudaMemPoolAttrUsedMemCurrent, &v));
	v = ~0ULL;
	Q("cudaMemPoolSetAttribute(ReleaseThreshold, max)", cudaMemPoolSetAttribute(pool, cudaMemPoolAttrReleaseThreshold, &v));
	pool_attrs("after threshold max", pool);
	memset(&props, 0, sizeof(props));
	props.allocType = cudaMemAllocationTypePinned;
	props.location.type = cudaMemLocationTypeDevice;
	props.location.id = 0;
	Q("cudaMemPoolCreate(device 0)", cudaMemPoolCreate(&mine, &props));
	pool_attrs("created", mine);
	props.location.id = 99;
	Q("cudaMemPoolCreate(device 99)", cudaMemPoolCreate(&pool, &props));
	props.location.id = 0;
	props.allocType = cudaMemAllocationTypeInvalid;
	Q("cudaMemPoolCreate(alloc type invalid)", cudaMemPoolCreate(&pool, &props));
	Q("cudaMallocFromPoolAsync", cudaMallocFromPoolAsync(&p, 4096, mine, s));
	Q("cudaMemPoolDestroy with an allocation", cudaMemPoolDestroy(mine));
	Q("cudaFreeAsync (pool destroyed)", cudaFreeAsync(p, s));
	Q("cudaStreamSynchronize", cudaStreamSynchronize(s));
	loc.type = cudaMemLocationTypeDevice;
	loc.id = 0;
	cudaDeviceGetDefaultMemPool(&pool, 0);
	Q("cudaMemPoolGetAccess(device 0)", cudaMemPoolGetAccess(&af, pool, &loc));
	printf("  flags=%d\n", (int)af);
	acc.location = loc;
	acc.flags = cudaMemAccessFlagsProtRead;
	Q("cudaMemPoolSetAccess(own device, read)", cudaMemPoolSetAccess(pool, &acc, 1));
	Q("cudaDeviceSetMemPool(default)", cudaDeviceSetMemPool(0, pool));
	Q("cudaMemPoolDestroy(default)", cudaMemPoolDestroy(pool));
	cudaStreamDestroy(s);
}

static void streams(void)
{
	cudaStream_t s, nb;
	unsigned int f = 77;
	int hits = 0, cb = 0;

	Q("cudaStreamGetFlags(0)", cudaStreamGetFlags(0, &f));
	printf("  flags=%u\n", f);
	Q("cudaStreamGetFlags(PerThread)", cudaStreamGetFlags(cudaStreamPerThread, &f));
	printf("  flags=%u\n", f);
	cudaStreamCreateWithFlags(&nb, cudaStreamNonBlocking);
	Q("cudaStreamGetFlags(non-blocking)", cudaStreamGetFlags(nb, &f));
	printf("  flags=%u\n", f);
	Q("cudaStreamGetFlags(NULL flags)", cudaStreamGetFlags(nb, NULL));
	cudaStreamCreate(&s);
	Q("cudaLaunchHostFunc(NULL fn)", cudaLaunchHostFunc(s, NULL, NULL));
	Q("cudaLaunchHostFunc", cudaLaunchHostFunc(s, host_fn, &hits));
	Q("cudaStreamAddCallback(flags 1)", cudaStreamAddCallback(s, stream_cb, &cb, 1));
	Q("cudaStreamAddCallback(NULL)", cudaStreamAddCallback(s, NULL, &cb, 0));
	Q("cudaStreamAddCallback", cudaStreamAddCallback(s, stream_cb, &cb, 0));
	Q("cudaStreamSynchronize", cudaStreamSynchronize(s));
	printf("  host fn ran %d, callback value %d\n", hits, cb);
	cudaStreamDestroy(s);
	cudaStreamDestroy(nb);
	Q("cudaProfilerStart", cudaProfilerStart());
	Q("cudaProfilerStop", cudaProfilerStop());
}

static void launches(void)
{
	struct cudaFuncAttributes a;
	float *x;
	void *args[4];
	int n = 1000, blocks = -1, mbs = -1, mgs = -1;
	size_t dyn = 0;

	cudaMalloc(&x, 3 * 4096 * sizeof(float));
	args[0] = &x;
	args[1] = &x;
	args[2] = &x;
	args[3] = &n;
	Q("cudaLaunchKernel(host function main)",
	  cudaLaunchKernel((const void *)flags, dim3(1), dim3(1), args, 0, 0));
	Q("cudaLaunchKernel(k_add 4x256)", cudaLaunchKernel((const void *)k_add, dim3(4), dim3(256), args, 0, 0));
	Q("cudaDeviceSynchronize", cudaDeviceSynchronize());
	Q("cudaLaunchKernel(grid 0)", cudaLaunchKernel((const void *)k_add, dim3(0), dim3(256), args, 0, 0));
	Q("cudaLaunchKernel(block 0)", cudaLaunchKernel((const void *)k_add, dim3(1), dim3(0), args, 0, 0));
	Q("cudaLaunchKernel(block 1025)", cudaLaunchKernel((const void *)k_add, dim3(1), dim3(1025), args, 0, 0));
	Q("cudaLaunchKernel(block 1024x2)", cudaLaunchKernel((const void *)k_add, dim3(1), dim3(1024, 2), args, 0, 0));
	Q("cudaLaunchKernel(block z 65)", cudaLaunchKernel((const void *)k_add, dim3(1), dim3(1, 1, 65), args, 0, 0));
	Q("cudaLaunchKernel(grid y 65536)", cudaLaunchKernel((const void *)k_add, dim3(1, 65536), dim3(1), args, 0, 0));
	Q("cudaLaunchKernel(grid x 2^31)", cudaLaunchKernel((const void *)k_add, dim3(1U << 31), dim3(1), args, 0, 0));
	Q("cudaLaunchKernel(shared 1 MiB)", cudaLaunchKernel((const void *)k_add, dim3(1), dim3(1), args, 1 << 20, 0));
	Q("cudaLaunchKernel(shared 100 KiB)", cudaLaunchKernel((const void *)k_add, dim3(1), dim3(1), args, 100 << 10, 0));
	Q("cudaLaunchKernel(NULL func)", cudaLaunchKernel(NULL, dim3(1), dim3(1), args, 0, 0));
	Q("cudaDeviceSynchronize", cudaDeviceSynchronize());
	Q("cudaFuncGetAttributes(k_add)", cudaFuncGetAttributes(&a, (const void *)k_add));
	printf("  shared %zu const %zu local %zu maxThreads %d regs %d ptx %d binary %d cacheModeCA %d maxDynShared %d carveout %d\n",
	       a.sharedSizeBytes, a.constSizeBytes, a.localSizeBytes, a.maxThreadsPerBlock, a.numRegs,
	       a.ptxVersion, a.binaryVersion, a.cacheModeCA, a.maxDynamicSharedSizeBytes,
	       a.preferredShmemCarveout);
	Q("cudaFuncGetAttributes(k_big)", cudaFuncGetAttributes(&a, (const void *)k_big));
	printf("  shared %zu maxThreads %d regs %d maxDynShared %d\n", a.sharedSizeBytes,
	       a.maxThreadsPerBlock, a.numRegs, a.maxDynamicSharedSizeBytes);
	Q("cudaFuncGetAttributes(host function)", cudaFuncGetAttributes(&a, (const void *)flags));
	Q("cudaFuncGetAttributes(NULL attr)", cudaFuncGetAttributes(NULL, (const void *)k_add));
	Q("cudaFuncSetAttribute(MaxDynamicSharedMemorySize, 100000)",
	  cudaFuncSetAttribute((const void *)k_add, cudaFuncAttributeMaxDynamicSharedMemorySize, 100000));
	Q("cudaFuncGetAttributes(k_add)", cudaFuncGetAttributes(&a, (const void *)k_add));
	printf("  maxDynShared %d\n", a.maxDynamicSharedSizeBytes);
	Q("cudaLaunchKernel(shared 100 KiB after the attribute)",
	  cudaLaunchKernel((const void *)k_add, dim3(1), dim3(1), args, 100 << 10, 0));
	Q("cudaFuncSetAttribute(MaxDynamicSharedMemorySize, 300000)",
	  cudaFuncSetAttribute((const void *)k_add, cudaFuncAttributeMaxDynamicSharedMemorySize, 300000));
	Q("cudaFuncSetAttribute(PreferredSharedMemoryCarveout, 50)",
	  cudaFuncSetAttribute((const void *)k_add, cudaFuncAttributePreferredSharedMemoryCarveout, 50));
	Q("cudaFuncSetAttribute(attr 99)", cudaFuncSetAttribute((const void *)k_add, (cudaFuncAttribute)99, 1));
	Q("cudaFuncSetCacheConfig(PreferL1)", cudaFuncSetCacheConfig((const void *)k_add, cudaFuncCachePreferL1));
	Q("cudaFuncSetCacheConfig(host function)", cudaFuncSetCacheConfig((const void *)flags, cudaFuncCachePreferL1));
	Q("cudaOccupancyMaxActiveBlocksPerMultiprocessor(k_add, 256, 0)",
	  cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, k_add, 256, 0));
	printf("  blocks=%d\n", blocks);
	Q("cudaOccupancyMaxActiveBlocksPerMultiprocessor(k_add, 1024, 0)",
	  cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, k_add, 1024, 0));
	printf("  blocks=%d\n", blocks);
	Q("cudaOccupancyMaxActiveBlocksPerMultiprocessor(k_add, 32, 0)",
	  cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, k_add, 32, 0));
	printf("  blocks=%d\n", blocks);
	Q("cudaOccupancyMaxActiveBlocksPerMultiprocessor(k_big, 256, 0)",
	  cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, k_big, 256, 0));
	printf("  blocks=%d\n", blocks);
	Q("cudaOccupancyMaxActiveBlocksPerMultiprocessor(k_add, 256, 64 KiB)",
	  cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, k_add, 256, 64 << 10));
	printf("  blocks=%d\n", blocks);
	Q("cudaOccupancyMaxActiveBlocksPerMultiprocessor(k_add, 0, 0)",
	  cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, k_add, 0, 0));
	printf("  blocks=%d\n", blocks);
	Q("cudaOccupancyMaxActiveBlocksPerMultiprocessor(k_add, 2048, 0)",
	  cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, k_add, 2048, 0));
	Q("cudaOccupancyMaxPotentialBlockSize(k_add)",
	  cudaOccupancyMaxPotentialBlockSize(&mgs, &mbs, k_add, 0, 0));
	printf("  grid=%d block=%d\n", mgs, mbs);
	Q("cudaOccupancyAvailableDynamicSMemPerBlock(k_add, 1, 256)",
	  cudaOccupancyAvailableDynamicSMemPerBlock(&dyn, k_add, 1, 256));
	printf("  bytes=%zu\n", dyn);
	Q("cudaFuncGetAttributes(sm_100-only kernel)", cudaFuncGetAttributes(&a, sm100_kernel()));
	launch_sm100_only(x);
	Q("launch of an sm_100-only kernel (cudaGetLastError)", cudaPeekAtLastError());
	Q("cudaDeviceSynchronize", cudaDeviceSynchronize());
	cudaFree(x);
}

static void reset(void)
{
	void *d = NULL, *h = NULL;
	size_t f0, f1, f2, t;
	struct cudaPointerAttributes pa;
	cudaStream_t s;

	cudaMemGetInfo(&f0, &t);
	cudaMalloc(&d, 64 << 20);
	cudaMallocHost(&h, 4096);
	cudaStreamCreate(&s);
	cudaMemGetInfo(&f1, &t);
	Q("cudaDeviceReset", cudaDeviceReset());
	cudaMemGetInfo(&f2, &t);
	printf("  free before %zu MiB, with 64 MiB %zu, after reset %zu\n", f0 >> 20, f1 >> 20, f2 >> 20);
	Q("cudaPointerGetAttributes(device ptr after reset)", cudaPointerGetAttributes(&pa, d));
	printf("  type %d\n", (int)pa.type);
	Q("cudaPointerGetAttributes(pinned ptr after reset)", cudaPointerGetAttributes(&pa, h));
	printf("  type %d\n", (int)pa.type);
	Q("cudaFree(device ptr after reset)", cudaFree(d));
	Q("cudaFreeHost(pinned ptr after reset)", cudaFreeHost(h));
	Q("cudaStreamSynchronize(stream after reset)", cudaStreamSynchronize(s));
	Q("cudaStreamDestroy(stream after reset)", cudaStreamDestroy(s));
	Q("cudaMalloc after reset", cudaMalloc(&d, 4096));
	Q("cudaFree", cudaFree(d));
}

int main(void)
{
	setvbuf(stdout, NULL, _IOLBF, 0);
	flags();
	p2p();
	channel();
	pools();
	streams();
	launches();
	reset();
	return 0;
}
