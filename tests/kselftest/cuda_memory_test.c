// SPDX-License-Identifier: GPL-2.0
// LDLIBS: -luvm -lnuma -lpthread
/*
 * cuda_memory_test.c - device, pinned and registered memory through
 * libuvm's runtime and driver API: cudaMalloc/MallocPitch/Malloc3D/Free,
 * cudaMallocHost/HostAlloc/FreeHost, cudaHostRegister/Unregister/
 * GetDevicePointer/GetFlags, cudaMemGetInfo, pointer attributes, the cu*
 * twins, and every documented error. State is checked in the module
 * (uvm_ptr_info = UVM_IOCTL_PTR_INFO, uvm_mem_counters) on the runtime's
 * own context; data through the module's copy ioctl (uvm_memcpy).
 */
#include <sys/mman.h>

#include "cuda_test_util.h"
#include "kselftest_harness.h"

#define INV cudaErrorInvalidValue

FIXTURE(mem) {
	struct uvm_context *ctx;
	int ndev;
};

FIXTURE_SETUP(mem)
{
	ASSERT_EQ(cudaSuccess, cudaGetDeviceCount(&self->ndev));
	ASSERT_EQ(0, uvm_runtime_context(&self->ctx));
	cudaSetDevice(0);
}

FIXTURE_TEARDOWN(mem)
{
	cudaGetLastError();
}

static struct uvm_mem_counters_info counters(struct uvm_context *ctx)
{
	struct uvm_mem_counters_info c;

	memset(&c, 0, sizeof(c));
	uvm_mem_counters(ctx, &c);
	return c;
}

static struct uvm_pointer_info pinfo(struct uvm_context *ctx, const void *p)
{
	struct uvm_pointer_info i;

	memset(&i, 0xff, sizeof(i));
	uvm_ptr_info(ctx, p, &i);
	return i;
}

/* Read @len bytes at @p (any memory) through the module. */
static int peek(struct uvm_context *ctx, void *buf, const void *p, size_t len)
{
	struct uvm_copy_desc d = { .dst = (uintptr_t)buf, .src = (uintptr_t)p, .width = len,
				   .height = 1, .depth = 1 };

	return uvm_memcpy(ctx, &d);
}

static int poke(struct uvm_context *ctx, void *p, const void *buf, size_t len)
{
	struct uvm_copy_desc d = { .dst = (uintptr_t)p, .src = (uintptr_t)buf, .width = len,
				   .height = 1, .depth = 1 };

	return uvm_memcpy(ctx, &d);
}

TEST_F(mem, malloc_and_free_device)
{
	struct uvm_mem_counters_info c0, c1;
	struct uvm_pointer_info pi;
	char *buf = malloc(MIB), *back = malloc(MIB);
	void *p = (void *)1, *q;
	int dev = self->ndev - 1;

	ASSERT_NE(NULL, buf);
	c0 = counters(self->ctx);
	ASSERT_EQ(cudaSuccess, cudaSetDevice(dev));
	ASSERT_EQ(cudaSuccess, cudaMalloc(&p, MIB + 10));
	cudaSetDevice(0);
	c1 = counters(self->ctx);
	EXPECT_EQ(c0.ctx_device_bytes + MIB + PAGE_SZ, c1.ctx_device_bytes);
	pi = pinfo(self->ctx, (char *)p + 5000);
	EXPECT_EQ(UVM_POINTER_DEVICE, pi.type);
	EXPECT_EQ(dev, pi.device);
	EXPECT_EQ((uintptr_t)p, pi.base);
	EXPECT_EQ(MIB + PAGE_SZ, pi.size);
	EXPECT_EQ(0, pi.host_addr);
	/* device memory keeps what is written, byte-exact */
	fill(buf, MIB, 3);
	ASSERT_EQ(0, poke(self->ctx, p, buf, MIB));
	ASSERT_EQ(0, peek(self->ctx, back, p, MIB));
	EXPECT_TRUE(check_fill(back, MIB, 3));
	/* interior pointer, pageable and pinned memory are not cudaFree's */
	EXPECT_EQ(INV, cudaFree((char *)p + 4096));
	EXPECT_EQ(INV, cudaFree(buf));
	ASSERT_EQ(cudaSuccess, cudaMallocHost(&q, 4096));
	EXPECT_EQ(INV, cudaFree(q));
	EXPECT_EQ(cudaSuccess, cudaFreeHost(q));
	EXPECT_EQ(INV, cudaGetLastError());
	EXPECT_EQ(cudaSuccess, cudaFree(p));
	EXPECT_EQ(c0.ctx_device_bytes, counters(self->ctx).ctx_device_bytes);
	EXPECT_EQ(UVM_POINTER_UNREGISTERED, pinfo(self->ctx, p).type);
	EXPECT_EQ(INV, cudaFree(p));	/* double free */
	EXPECT_EQ(cudaSuccess, cudaFree(NULL));
	/* size 0: success and NULL, as CUDA */
	EXPECT_EQ(cudaSuccess, cudaMalloc(&p, 0));
	EXPECT_EQ(NULL, p);
	EXPECT_EQ(INV, cudaMalloc(NULL, 4096));
	EXPECT_EQ(cudaErrorMemoryAllocation, cudaMalloc(&q, (size_t)1 << 50));
	EXPECT_EQ(cudaErrorMemoryAllocation, cudaMalloc(&q, SIZE_MAX));
	free(buf);
	free(back);
}

TEST_F(mem, malloc_pitch_and_3d)
{
	struct cudaPitchedPtr pp;
	struct uvm_pointer_info pi;
	size_t pitch = 0;
	int align = 0;
	void *p;

	ASSERT_EQ(cudaSuccess, cudaDeviceGetAttribute(&align, cudaDevAttrTexturePitchAlignment, 0));
	ASSERT_EQ(cudaSuccess, cudaMallocPitch(&p, &pitch, 1000, 33));
	EXPECT_GE(pitch, 1000);
	EXPECT_EQ(0, pitch % align);
	EXPECT_LT(pitch, 1000 + align);
	pi = pinfo(self->ctx, p);
	EXPECT_EQ(UVM_POINTER_DEVICE, pi.type);
	EXPECT_GE(pi.size, pitch * 33);
	EXPECT_EQ(cudaSuccess, cudaFree(p));
	ASSERT_EQ(cudaSuccess, cudaMalloc3D(&pp, make_cudaExtent(100, 7, 5)));
	EXPECT_EQ(0, pp.pitch % align);
	EXPECT_EQ(100, pp.xsize);
	EXPECT_EQ(7, pp.ysize);
	EXPECT_GE(pinfo(self->ctx, pp.ptr).size, pp.pitch * 35);
	EXPECT_EQ(cudaSuccess, cudaFree(pp.ptr));
	EXPECT_EQ(INV, cudaMallocPitch(NULL, &pitch, 10, 10));
	EXPECT_EQ(INV, cudaMallocPitch(&p, NULL, 10, 10));
	EXPECT_EQ(INV, cudaMalloc3D(NULL, make_cudaExtent(1, 1, 1)));
	EXPECT_EQ(cudaErrorMemoryAllocation, cudaMallocPitch(&p, &pitch, 1 << 20, (size_t)1 << 40));
}

TEST_F(mem, mem_get_info)
{
	struct uvm_device_info di;
	size_t free0, total, free1;
	void *p;

	ASSERT_EQ(cudaSuccess, cudaMemGetInfo(&free0, &total));
	ASSERT_EQ(0, uvm_device_get_info(self->ctx, 0, &di));
	EXPECT_EQ(di.mem_total, total);
	EXPECT_LE(free0, total);
	ASSERT_EQ(cudaSuccess, cudaMalloc(&p, 16 * MIB));
	ASSERT_EQ(cudaSuccess, cudaMemGetInfo(&free1, &total));
	EXPECT_LE(free1 + 16 * MIB, free0 + 4 * MIB);	/* others may free meanwhile */
	EXPECT_EQ(cudaSuccess, cudaFree(p));
	EXPECT_EQ(INV, cudaMemGetInfo(NULL, &total));
	EXPECT_EQ(INV, cudaMemGetInfo(&free0, NULL));
}

TEST_F(mem, host_alloc)
{
	struct uvm_mem_counters_info c0 = counters(self->ctx);
	struct uvm_pointer_info pi;
	unsigned int flags = 0;
	void *p, *q, *dp = NULL;
	char back[64];

	ASSERT_EQ(cudaSuccess, cudaHostAlloc(&p, 3 * PAGE_SZ,
					     cudaHostAllocPortable | cudaHostAllocWriteCombined));
	ASSERT_EQ(cudaSuccess, cudaMallocHost(&q, 100));
	pi = pinfo(self->ctx, (char *)p + 10);
	EXPECT_EQ(UVM_POINTER_HOST_ALLOC, pi.type);
	EXPECT_EQ((uintptr_t)p, pi.base);
	EXPECT_EQ((uintptr_t)p + 10, pi.host_addr);
	EXPECT_EQ((uintptr_t)p + 10, pi.dev_addr);
	EXPECT_EQ(cudaHostAllocPortable | cudaHostAllocWriteCombined, pi.flags);
	EXPECT_EQ(c0.ctx_host_alloc_pages + 4, counters(self->ctx).ctx_host_alloc_pages);
	/* CPU-accessible, zeroed, and the module sees the CPU's writes */
	EXPECT_EQ(0, ((char *)q)[50]);
	memset(q, 0x3c, 100);
	ASSERT_EQ(0, peek(self->ctx, back, q, 64));
	EXPECT_EQ(0x3c, back[63]);
	EXPECT_EQ(cudaSuccess, cudaHostGetFlags(&flags, (char *)p + 8));
	EXPECT_EQ(cudaHostAllocPortable | cudaHostAllocWriteCombined | cudaHostAllocMapped, flags);
	EXPECT_EQ(cudaSuccess, cudaHostGetFlags(&flags, q));
	EXPECT_EQ(cudaHostAllocMapped, flags);
	EXPECT_EQ(cudaSuccess, cudaHostGetDevicePointer(&dp, (char *)q + 3, 0));
	EXPECT_EQ((char *)q + 3, dp);
	EXPECT_EQ(INV, cudaHostGetDevicePointer(&dp, q, 1));
	EXPECT_EQ(INV, cudaHostGetDevicePointer(NULL, q, 0));
	EXPECT_EQ(INV, cudaHostGetDevicePointer(&dp, back, 0));
	EXPECT_EQ(INV, cudaHostGetFlags(&flags, back));
	EXPECT_EQ(INV, cudaHostGetFlags(NULL, q));
	/* errors */
	EXPECT_EQ(INV, cudaHostAlloc(&dp, 4096, 8));
	EXPECT_EQ(INV, cudaHostAlloc(NULL, 4096, 0));
	EXPECT_EQ(INV, cudaMallocHost(NULL, 4096));
	EXPECT_EQ(cudaErrorMemoryAllocation, cudaMallocHost(&dp, (size_t)1 << 50));
	EXPECT_EQ(INV, cudaFreeHost((char *)q + 8));	/* interior */
	EXPECT_EQ(INV, cudaFreeHost(back));		/* pageable */
	EXPECT_EQ(cudaSuccess, cudaFreeHost(q));
	EXPECT_EQ(INV, cudaFreeHost(q));		/* double free */
	EXPECT_EQ(cudaSuccess, cudaFreeHost(p));
	EXPECT_EQ(cudaSuccess, cudaFreeHost(NULL));
	EXPECT_EQ(c0.ctx_host_alloc_pages, counters(self->ctx).ctx_host_alloc_pages);
	ASSERT_EQ(cudaSuccess, cudaMalloc(&p, 4096));
	EXPECT_EQ(INV, cudaFreeHost(p));		/* device memory */
	EXPECT_EQ(cudaSuccess, cudaFree(p));
}

TEST_F(mem, host_register)
{
	struct uvm_mem_counters_info c0 = counters(self->ctx);
	struct uvm_pointer_info pi;
	unsigned int flags;
	char *buf = malloc(5 * PAGE_SZ), *ro;
	void *dp = NULL, *d;
	char back[16];

	ASSERT_NE(NULL, buf);
	memset(buf, 0x11, 5 * PAGE_SZ);
	/* unaligned pointer and size: the pages around it are registered */
	ASSERT_EQ(cudaSuccess, cudaHostRegister(buf + 8, 2 * PAGE_SZ, cudaHostRegisterDefault));
	pi = pinfo(self->ctx, buf + 100);
	EXPECT_EQ(UVM_POINTER_HOST_REGISTERED, pi.type);
	EXPECT_EQ((uintptr_t)(buf + 8) & ~(PAGE_SZ - 1), pi.base);
	EXPECT_EQ(c0.ctx_pinned_pages + pi.size / PAGE_SZ, counters(self->ctx).ctx_pinned_pages);
	EXPECT_EQ(cudaSuccess, cudaHostGetDevicePointer(&dp, buf + 8, 0));
	EXPECT_EQ(buf + 8, dp);
	EXPECT_EQ(INV, cudaHostGetFlags(&flags, buf + 8));	/* not a cudaHostAlloc range */
	EXPECT_EQ(cudaErrorHostMemoryAlreadyRegistered, cudaHostRegister(buf + 8, 16, 0));
	EXPECT_EQ(cudaErrorHostMemoryAlreadyRegistered, cudaGetLastError());
	EXPECT_EQ(cudaErrorHostMemoryNotRegistered, cudaHostUnregister(buf + 2 * PAGE_SZ + 64));
	EXPECT_EQ(cudaSuccess, cudaHostUnregister(buf + 8));
	EXPECT_EQ(UVM_POINTER_UNREGISTERED, pinfo(self->ctx, buf + 100).type);
	EXPECT_EQ(c0.ctx_pinned_pages, counters(self->ctx).ctx_pinned_pages);
	EXPECT_EQ(cudaErrorHostMemoryNotRegistered, cudaHostUnregister(buf + 8));
	/* read-only registration of read-only memory: copies out work, in fail */
	ro = mmap(NULL, PAGE_SZ, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	ASSERT_NE(MAP_FAILED, ro);
	ASSERT_EQ(cudaSuccess, cudaHostRegister(ro, PAGE_SZ, cudaHostRegisterReadOnly));
	EXPECT_EQ(cudaSuccess, cudaMemcpy(back, ro, 16, cudaMemcpyDefault));
	EXPECT_EQ(0, back[3]);
	EXPECT_NE(cudaSuccess, cudaMemcpy(ro, back, 16, cudaMemcpyDefault));
	EXPECT_EQ(cudaSuccess, cudaHostUnregister(ro));
	munmap(ro, PAGE_SZ);
	/* errors */
	EXPECT_EQ(INV, cudaHostRegister(NULL, PAGE_SZ, 0));
	EXPECT_EQ(INV, cudaHostRegister(buf, 0, 0));
	EXPECT_EQ(INV, cudaHostRegister(buf, PAGE_SZ, 0x10));
	EXPECT_EQ(cudaErrorNotSupported, cudaHostRegister(buf, PAGE_SZ, cudaHostRegisterIoMemory));
	EXPECT_EQ(INV, cudaHostUnregister(NULL));
	ASSERT_EQ(cudaSuccess, cudaMalloc(&d, PAGE_SZ));
	EXPECT_EQ(INV, cudaHostRegister(d, PAGE_SZ, 0));	/* device memory */
	EXPECT_EQ(cudaSuccess, cudaFree(d));
	ASSERT_EQ(cudaSuccess, cudaMallocHost(&d, PAGE_SZ));
	EXPECT_EQ(cudaErrorHostMemoryAlreadyRegistered, cudaHostRegister(d, PAGE_SZ, 0));
	EXPECT_EQ(cudaErrorHostMemoryNotRegistered, cudaHostUnregister(d));
	EXPECT_EQ(cudaSuccess, cudaFreeHost(d));
	free(buf);
}

TEST_F(mem, pointer_attributes_all_kinds)
{
	struct cudaPointerAttributes pa;
	char *dev, *host, *reg = aligned_alloc(PAGE_SZ, PAGE_SZ), stack[8];
	void *man;

	ASSERT_EQ(cudaSuccess, cudaSetDevice(self->ndev - 1));
	ASSERT_EQ(cudaSuccess, cudaMalloc((void **)&dev, MIB));
	ASSERT_EQ(cudaSuccess, cudaMallocHost((void **)&host, PAGE_SZ));
	ASSERT_EQ(cudaSuccess, cudaHostRegister(reg, PAGE_SZ, 0));
	ASSERT_EQ(cudaSuccess, cudaMallocManaged(&man, PAGE_SZ, cudaMemAttachGlobal));
	cudaSetDevice(0);
	ASSERT_EQ(cudaSuccess, cudaPointerGetAttributes(&pa, dev + 16));
	EXPECT_EQ(cudaMemoryTypeDevice, pa.type);
	EXPECT_EQ(self->ndev - 1, pa.device);
	EXPECT_EQ(dev + 16, pa.devicePointer);
	EXPECT_EQ(NULL, pa.hostPointer);
	ASSERT_EQ(cudaSuccess, cudaPointerGetAttributes(&pa, host + 1));
	EXPECT_EQ(cudaMemoryTypeHost, pa.type);
	EXPECT_EQ(self->ndev - 1, pa.device);
	EXPECT_EQ(host + 1, pa.devicePointer);
	EXPECT_EQ(host + 1, pa.hostPointer);
	ASSERT_EQ(cudaSuccess, cudaPointerGetAttributes(&pa, reg));
	EXPECT_EQ(cudaMemoryTypeHost, pa.type);
	EXPECT_EQ(reg, pa.devicePointer);
	ASSERT_EQ(cudaSuccess, cudaPointerGetAttributes(&pa, man));
	EXPECT_EQ(cudaMemoryTypeManaged, pa.type);
	ASSERT_EQ(cudaSuccess, cudaPointerGetAttributes(&pa, stack));
	EXPECT_EQ(cudaMemoryTypeUnregistered, pa.type);
	EXPECT_EQ(INV, cudaPointerGetAttributes(NULL, dev));
	EXPECT_EQ(cudaSuccess, cudaPointerGetAttributes(&pa, NULL));
	EXPECT_EQ(cudaMemoryTypeUnregistered, pa.type);
	EXPECT_EQ(cudaSuccess, cudaFree(dev));
	ASSERT_EQ(cudaSuccess, cudaPointerGetAttributes(&pa, dev));
	EXPECT_EQ(cudaMemoryTypeUnregistered, pa.type);
	EXPECT_EQ(cudaSuccess, cudaFreeHost(host));
	EXPECT_EQ(cudaSuccess, cudaHostUnregister(reg));
	EXPECT_EQ(cudaSuccess, cudaFree(man));
	free(reg);
}

TEST_F(mem, device_attributes)
{
	int v;

	ASSERT_EQ(cudaSuccess, cudaDeviceGetAttribute(&v, cudaDevAttrHostRegisterSupported, 0));
	EXPECT_EQ(1, v);
	ASSERT_EQ(cudaSuccess, cudaDeviceGetAttribute(&v, cudaDevAttrCanUseHostPointerForRegisteredMem, 0));
	EXPECT_EQ(1, v);
	ASSERT_EQ(cudaSuccess, cudaDeviceGetAttribute(&v, cudaDevAttrHostRegisterReadOnlySupported, 0));
	EXPECT_EQ(1, v);
	ASSERT_EQ(cudaSuccess, cudaDeviceGetAttribute(&v, cudaDevAttrCanMapHostMemory, 0));
	EXPECT_EQ(1, v);
	ASSERT_EQ(cudaSuccess, cudaDeviceGetAttribute(&v, cudaDevAttrSparseCudaArraySupported, 0));
	EXPECT_EQ(0, v);
}

TEST_F(mem, driver_api)
{
	CUpointer_attribute at[4] = { CU_POINTER_ATTRIBUTE_MEMORY_TYPE,
		CU_POINTER_ATTRIBUTE_HOST_POINTER, CU_POINTER_ATTRIBUTE_BUFFER_ID,
		CU_POINTER_ATTRIBUTE_DEVICE_ORDINAL };
	unsigned int mtype = 0, one = 1, zero = 0;
	unsigned long long id = 0, id2 = 0;
	void *hp = (void *)1, *h;
	int ord = -5;
	void *data[4] = { &mtype, &hp, &id, &ord };
	CUdeviceptr d, m;
	void *dev;

	ASSERT_EQ(cudaSuccess, cudaMalloc(&dev, MIB));
	d = (CUdeviceptr)dev;
	EXPECT_EQ(CUDA_SUCCESS, cuPointerGetAttribute(&mtype, CU_POINTER_ATTRIBUTE_MEMORY_TYPE, d + 8));
	EXPECT_EQ(CU_MEMORYTYPE_DEVICE, mtype);
	EXPECT_EQ(CUDA_ERROR_INVALID_VALUE,
		  cuPointerGetAttribute(&hp, CU_POINTER_ATTRIBUTE_HOST_POINTER, d));
	EXPECT_EQ(CUDA_SUCCESS, cuPointerGetAttributes(4, at, data, d));
	EXPECT_EQ(NULL, hp);
	EXPECT_EQ(pinfo(self->ctx, dev).buffer_id, id);
	EXPECT_NE(0, id);
	EXPECT_EQ(0, ord);
	/* pinned via the driver API */
	ASSERT_EQ(CUDA_SUCCESS, cuMemHostAlloc(&h, 8192, CU_MEMHOSTALLOC_DEVICEMAP));
	EXPECT_EQ(UVM_POINTER_HOST_ALLOC, pinfo(self->ctx, h).type);
	EXPECT_EQ(CUDA_SUCCESS, cuPointerGetAttributes(4, at, data, (CUdeviceptr)h));
	EXPECT_EQ(CU_MEMORYTYPE_HOST, mtype);
	EXPECT_EQ(h, hp);
	EXPECT_EQ(pinfo(self->ctx, h).buffer_id, id);
	EXPECT_EQ(CUDA_ERROR_INVALID_VALUE, cuMemHostAlloc(&h, 8192, 0x10));
	EXPECT_EQ(CUDA_ERROR_INVALID_VALUE, cuMemHostAlloc(&hp, 0, 0));
	EXPECT_EQ(CUDA_ERROR_INVALID_VALUE, cuMemFreeHost(dev));
	EXPECT_EQ(CUDA_SUCCESS, cuMemFreeHost(h));
	/* SYNC_MEMOPS: 1 is what libuvm does, 0 is not available */
	EXPECT_EQ(CUDA_SUCCESS, cuPointerSetAttribute(&one, CU_POINTER_ATTRIBUTE_SYNC_MEMOPS, d));
	EXPECT_EQ(CUDA_ERROR_NOT_SUPPORTED,
		  cuPointerSetAttribute(&zero, CU_POINTER_ATTRIBUTE_SYNC_MEMOPS, d));
	EXPECT_EQ(CUDA_ERROR_INVALID_VALUE,
		  cuPointerSetAttribute(&one, CU_POINTER_ATTRIBUTE_BUFFER_ID, d));
	EXPECT_EQ(CUDA_ERROR_INVALID_VALUE,
		  cuPointerSetAttribute(&one, CU_POINTER_ATTRIBUTE_SYNC_MEMOPS, (CUdeviceptr)&one));
	EXPECT_EQ(CUDA_SUCCESS, cuPointerGetAttribute(&one, CU_POINTER_ATTRIBUTE_SYNC_MEMOPS, d));
	EXPECT_EQ(1, one);
	/* managed via the driver API; buffer ids never collide with the module's */
	ASSERT_EQ(CUDA_SUCCESS, cuMemAllocManaged(&m, MIB, CU_MEM_ATTACH_GLOBAL));
	EXPECT_EQ(CUDA_SUCCESS, cuPointerGetAttribute(&id2, CU_POINTER_ATTRIBUTE_BUFFER_ID, m));
	EXPECT_NE(id, id2);
	EXPECT_EQ(UVM_POINTER_MANAGED, pinfo(self->ctx, (void *)m).type);
	EXPECT_EQ(CUDA_ERROR_INVALID_VALUE, cuMemAllocManaged(&m, 0, CU_MEM_ATTACH_GLOBAL));
	EXPECT_EQ(CUDA_ERROR_INVALID_VALUE, cuMemAllocManaged(&m, 10, 7));
	EXPECT_EQ(CUDA_SUCCESS, cuMemFree((CUdeviceptr)m));
	EXPECT_EQ(CUDA_SUCCESS, cuMemFree(d));
	EXPECT_EQ(CUDA_ERROR_INVALID_VALUE, cuMemFree(d));
	EXPECT_EQ(CUDA_ERROR_INVALID_VALUE, cuMemFree(0));
}

TEST_HARNESS_MAIN
