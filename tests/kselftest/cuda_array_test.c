// SPDX-License-Identifier: GPL-2.0
// LDLIBS: -luvm -lnuma -lpthread
/*
 * cuda_array_test.c - tier C through libuvm: CUDA arrays as device
 * allocations with layout metadata (create, info, 2D/3D copies in and out
 * and between arrays, 3D batch with array operands, free), mipmapped
 * arrays, the honest errors (sparse, deferred mapping, planes), and the
 * symbol calls (cudaErrorInvalidSymbol). Round trips are byte-exact; the
 * backing memory is checked in the module (uvm_mem_counters).
 */
#include "cuda_test_util.h"
#include "kselftest_harness.h"

#define INV cudaErrorInvalidValue

FIXTURE(arr) {
	struct uvm_context *ctx;
};

FIXTURE_SETUP(arr)
{
	ASSERT_EQ(0, uvm_runtime_context(&self->ctx));
	cudaSetDevice(0);
}

FIXTURE_TEARDOWN(arr)
{
	cudaGetLastError();
}

static struct cudaChannelFormatDesc desc(int x, int y, int z, int w, enum cudaChannelFormatKind f)
{
	return (struct cudaChannelFormatDesc){ x, y, z, w, f };
}

static uint64_t dev_bytes(struct uvm_context *ctx)
{
	struct uvm_mem_counters_info c = { 0 };

	uvm_mem_counters(ctx, &c);
	return c.ctx_device_bytes;
}

TEST_F(arr, array_2d_round_trip)
{
	struct cudaChannelFormatDesc d = desc(32, 32, 0, 0, cudaChannelFormatKindFloat), dd;
	struct cudaExtent e;
	unsigned int flags = 99;
	uint64_t before = dev_bytes(self->ctx);
	size_t w = 100, h = 30, r;	/* elements of 8 bytes */
	unsigned char *src = malloc(1024 * h), *dst = calloc(1, 1024 * h);
	cudaArray_t a, b;
	void *dev;

	fill(src, 1024 * h, 5);
	ASSERT_EQ(cudaSuccess, cudaMallocArray(&a, &d, w, h, cudaArraySurfaceLoadStore));
	EXPECT_GE(dev_bytes(self->ctx), before + w * 8 * h);
	ASSERT_EQ(cudaSuccess, cudaArrayGetInfo(&dd, &e, &flags, a));
	EXPECT_EQ(0, memcmp(&d, &dd, sizeof(d)));
	EXPECT_EQ(w, e.width);
	EXPECT_EQ(h, e.height);
	EXPECT_EQ(0, e.depth);
	EXPECT_EQ(cudaArraySurfaceLoadStore, flags);
	EXPECT_EQ(cudaSuccess, cudaArrayGetInfo(NULL, NULL, NULL, a));
	/* host -> array (whole), array -> array (sub-rectangle), array -> host */
	ASSERT_EQ(cudaSuccess, cudaMemcpy2DToArray(a, 0, 0, src, 1024, w * 8, h,
						   cudaMemcpyHostToDevice));
	ASSERT_EQ(cudaSuccess, cudaMallocArray(&b, &d, w, h, 0));
	ASSERT_EQ(cudaSuccess, cudaMemcpy2DArrayToArray(b, 16, 2, a, 8, 1, 80, 10,
							cudaMemcpyDeviceToDevice));
	ASSERT_EQ(cudaSuccess, cudaMemcpy2DFromArray(dst, 1024, b, 16, 2, 80, 10,
						     cudaMemcpyDeviceToHost));
	for (r = 0; r < 10; r++) {
		EXPECT_EQ(0, memcmp(dst + r * 1024, src + (r + 1) * 1024 + 8, 80));
	}
	/* async, through device memory, with a wrong host kind corrected */
	ASSERT_EQ(cudaSuccess, cudaMalloc(&dev, 1024 * h));
	ASSERT_EQ(cudaSuccess, cudaMemcpy2DFromArrayAsync(dev, 1024, a, 0, 0, w * 8, h,
							  cudaMemcpyDeviceToDevice, 0));
	memset(dst, 0, 1024 * h);
	ASSERT_EQ(cudaSuccess, cudaMemcpy2DToArrayAsync(b, 0, 0, dev, 1024, w * 8, h,
							cudaMemcpyDefault, cudaStreamPerThread));
	ASSERT_EQ(cudaSuccess, cudaStreamSynchronize(cudaStreamPerThread));
	ASSERT_EQ(cudaSuccess, cudaMemcpy2DFromArray(dst, 1024, b, 0, 0, w * 8, h,
						     cudaMemcpyDefault));
	for (r = 0; r < h; r++) {
		EXPECT_EQ(0, memcmp(dst + r * 1024, src + r * 1024, w * 8));
	}
	/* errors */
	EXPECT_EQ(INV, cudaMemcpy2DToArray(a, 0, 0, src, 1024, w * 8 + 8, 1, cudaMemcpyDefault));
	EXPECT_EQ(INV, cudaMemcpy2DToArray(a, 0, h, src, 1024, 8, 1, cudaMemcpyDefault));
	EXPECT_EQ(INV, cudaMemcpy2DToArray(a, 4, 0, src, 1024, 8, 1, cudaMemcpyDefault));
	EXPECT_EQ(cudaErrorInvalidPitchValue,
		  cudaMemcpy2DToArray(a, 0, 0, src, 8, 16, 2, cudaMemcpyDefault));
	EXPECT_EQ(cudaErrorInvalidMemcpyDirection,
		  cudaMemcpy2DToArray(a, 0, 0, src, 1024, 8, 1, (enum cudaMemcpyKind)6));
	EXPECT_EQ(INV, cudaMemcpy2DToArray(a, 0, 0, dev, 1024, 8, 1, cudaMemcpyHostToDevice));
	EXPECT_EQ(INV, cudaMemcpy2DToArray((cudaArray_t)src, 0, 0, src, 1024, 8, 1,
					   cudaMemcpyDefault));
	EXPECT_EQ(cudaSuccess, cudaFree(dev));
	EXPECT_EQ(cudaSuccess, cudaFreeArray(a));
	EXPECT_EQ(cudaSuccess, cudaFreeArray(b));
	EXPECT_EQ(INV, cudaFreeArray(a));	/* double free */
	EXPECT_EQ(INV, cudaArrayGetInfo(&dd, &e, &flags, a));
	EXPECT_EQ(cudaSuccess, cudaFreeArray(NULL));
	EXPECT_EQ(before, dev_bytes(self->ctx));
	free(src);
	free(dst);
}

TEST_F(arr, array_3d_copies)
{
	struct cudaChannelFormatDesc d = desc(16, 0, 0, 0, cudaChannelFormatKindUnsigned);
	struct cudaMemcpy3DParms p;
	struct cudaMemcpy3DBatchOp op;
	size_t W = 40, H = 8, D = 6, x, y, z;	/* elements of 2 bytes */
	uint16_t *host = malloc(W * H * D * 2), *out = calloc(W * H * D, 2);
	struct cudaChannelFormatDesc d4 = desc(8, 8, 8, 8, cudaChannelFormatKindSigned);
	cudaArray_t a, l, c;
	cudaStream_t s;

	for (x = 0; x < W * H * D; x++)
		host[x] = (uint16_t)(x * 7 + 1);
	ASSERT_EQ(cudaSuccess, cudaMalloc3DArray(&a, &d, make_cudaExtent(W, H, D), 0));
	memset(&p, 0, sizeof(p));
	p.srcPtr = make_cudaPitchedPtr(host, W * 2, W, H);
	p.dstArray = a;
	p.extent = make_cudaExtent(W, H, D);
	p.kind = cudaMemcpyHostToHost;	/* corrected: arrays are device memory */
	ASSERT_EQ(cudaSuccess, cudaMemcpy3D(&p));
	/* a sub-box back out: (3, 2, 1) + (10, 4, 3) elements */
	memset(&p, 0, sizeof(p));
	p.srcArray = a;
	p.srcPos = make_cudaPos(3, 2, 1);
	p.dstPtr = make_cudaPitchedPtr(out, 64, 32, 4);
	p.extent = make_cudaExtent(10, 4, 3);
	p.kind = cudaMemcpyDeviceToHost;
	ASSERT_EQ(cudaSuccess, cudaMemcpy3DAsync(&p, 0));
	ASSERT_EQ(cudaSuccess, cudaDeviceSynchronize());
	for (z = 0; z < 3; z++) {
		for (y = 0; y < 4; y++) {
			for (x = 0; x < 10; x++) {
				ASSERT_EQ(host[((z + 1) * H + y + 2) * W + x + 3],
					  out[(z * 4 + y) * 32 + x]);
			}
		}
	}
	/* array -> array (layered 1D: 40 elements x 5 layers) through the batch */
	ASSERT_EQ(cudaSuccess, cudaMalloc3DArray(&l, &d, make_cudaExtent(W, 0, 5), cudaArrayLayered));
	ASSERT_EQ(cudaSuccess, cudaStreamCreate(&s));
	memset(&op, 0, sizeof(op));
	op.src.type = cudaMemcpyOperandTypeArray;
	op.src.op.array.array = a;
	op.src.op.array.offset = (struct cudaOffset3D){ 0, 0, 2 };
	op.dst.type = cudaMemcpyOperandTypeArray;
	op.dst.op.array.array = l;
	op.extent = make_cudaExtent(W, 1, 1);
	op.srcAccessOrder = cudaMemcpySrcAccessOrderStream;
	ASSERT_EQ(cudaSuccess, cudaMemcpy3DBatchAsync(1, &op, 0, s));
	/* and the layer back to a pointer operand */
	op.src = op.dst;
	op.dst.type = cudaMemcpyOperandTypePointer;
	op.dst.op.ptr.ptr = out;
	ASSERT_EQ(cudaSuccess, cudaMemcpy3DBatchAsync(1, &op, 0, s));
	ASSERT_EQ(cudaSuccess, cudaStreamSynchronize(s));
	EXPECT_EQ(0, memcmp(out, host + 2 * H * W, W * 2));
	/* errors: outside the array, mismatched element sizes, bad handle */
	memset(&p, 0, sizeof(p));
	p.srcArray = a;
	p.srcPos = make_cudaPos(35, 0, 0);
	p.dstPtr = make_cudaPitchedPtr(out, 64, 32, 4);
	p.extent = make_cudaExtent(10, 1, 1);
	p.kind = cudaMemcpyDefault;
	EXPECT_EQ(INV, cudaMemcpy3D(&p));
	p.srcPos = make_cudaPos(0, 0, 6);
	EXPECT_EQ(INV, cudaMemcpy3D(&p));
	p.srcPos = make_cudaPos(0, 0, 0);
	p.srcArray = (cudaArray_t)host;
	EXPECT_EQ(INV, cudaMemcpy3D(&p));
	ASSERT_EQ(cudaSuccess, cudaMallocArray(&c, &d4, 16, 0, 0));
	memset(&p, 0, sizeof(p));
	p.srcArray = a;
	p.dstArray = c;
	p.extent = make_cudaExtent(4, 1, 1);
	EXPECT_EQ(INV, cudaMemcpy3D(&p));
	EXPECT_EQ(cudaSuccess, cudaFreeArray(c));
	EXPECT_EQ(cudaSuccess, cudaStreamDestroy(s));
	EXPECT_EQ(cudaSuccess, cudaFreeArray(a));
	EXPECT_EQ(cudaSuccess, cudaFreeArray(l));
	free(host);
	free(out);
}

TEST_F(arr, array_shapes_and_honest_errors)
{
	struct cudaChannelFormatDesc f = desc(32, 0, 0, 0, cudaChannelFormatKindFloat);
	struct cudaArrayMemoryRequirements req;
	struct cudaArraySparseProperties sp;
	cudaArray_t a, plane;

	/* valid shapes */
	ASSERT_EQ(cudaSuccess, cudaMalloc3DArray(&a, &f, make_cudaExtent(64, 64, 6), cudaArrayCubemap));
	EXPECT_EQ(cudaSuccess, cudaFreeArray(a));
	ASSERT_EQ(cudaSuccess, cudaMalloc3DArray(&a, &f, make_cudaExtent(64, 64, 12),
						 cudaArrayCubemap | cudaArrayLayered));
	EXPECT_EQ(cudaSuccess, cudaFreeArray(a));
	ASSERT_EQ(cudaSuccess, cudaMallocArray(&a, &f, 256, 256, cudaArrayTextureGather));
	/* queries defined only for sparse / deferred / NV12 arrays */
	EXPECT_EQ(INV, cudaArrayGetSparseProperties(&sp, a));
	EXPECT_EQ(INV, cudaArrayGetMemoryRequirements(&req, a, 0));
	EXPECT_EQ(cudaErrorInvalidDevice, cudaArrayGetMemoryRequirements(&req, a, 99));
	EXPECT_EQ(INV, cudaArrayGetPlane(&plane, a, 0));
	EXPECT_EQ(cudaSuccess, cudaFreeArray(a));
	/* bad shapes, formats and flags */
	EXPECT_EQ(INV, cudaMalloc3DArray(&a, &f, make_cudaExtent(0, 4, 4), 0));
	EXPECT_EQ(INV, cudaMalloc3DArray(&a, &f, make_cudaExtent(4, 0, 4), 0));
	EXPECT_EQ(INV, cudaMalloc3DArray(&a, &f, make_cudaExtent(64, 32, 6), cudaArrayCubemap));
	EXPECT_EQ(INV, cudaMalloc3DArray(&a, &f, make_cudaExtent(64, 64, 7), cudaArrayCubemap));
	EXPECT_EQ(INV, cudaMalloc3DArray(&a, &f, make_cudaExtent(64, 64, 4), cudaArrayTextureGather));
	EXPECT_EQ(INV, cudaMalloc3DArray(&a, &f, make_cudaExtent(20000, 4, 4), 0));
	EXPECT_EQ(INV, cudaMallocArray(&a, &f, 64, 64, cudaArrayLayered));
	EXPECT_EQ(INV, cudaMallocArray(&a, &f, 64, 64, 0x100));
	EXPECT_EQ(INV, cudaMallocArray(NULL, &f, 64, 64, 0));
	EXPECT_EQ(INV, cudaMallocArray(&a, NULL, 64, 64, 0));
	EXPECT_EQ(cudaErrorNotSupported, cudaMallocArray(&a, &f, 64, 64, cudaArraySparse));
	EXPECT_EQ(cudaErrorNotSupported, cudaMallocArray(&a, &f, 64, 64, cudaArrayDeferredMapping));
	f = desc(8, 0, 0, 0, cudaChannelFormatKindFloat);
	EXPECT_EQ(INV, cudaMallocArray(&a, &f, 64, 64, 0));
	f = desc(8, 8, 8, 0, cudaChannelFormatKindUnsigned);	/* 3 channels */
	EXPECT_EQ(INV, cudaMallocArray(&a, &f, 64, 64, 0));
	f = desc(8, 16, 0, 0, cudaChannelFormatKindUnsigned);
	EXPECT_EQ(INV, cudaMallocArray(&a, &f, 64, 64, 0));
	f = desc(8, 8, 8, 0, cudaChannelFormatKindNV12);
	EXPECT_EQ(cudaErrorNotSupported, cudaMallocArray(&a, &f, 64, 64, 0));
	f = desc(8, 0, 0, 0, cudaChannelFormatKindNone);
	EXPECT_EQ(INV, cudaMallocArray(&a, &f, 64, 64, 0));
}

TEST_F(arr, mipmapped)
{
	struct cudaChannelFormatDesc f = desc(8, 8, 8, 8, cudaChannelFormatKindUnsigned);
	struct cudaArraySparseProperties sp;
	struct cudaArrayMemoryRequirements req;
	struct cudaExtent e;
	cudaMipmappedArray_t m;
	unsigned char *in = malloc(64 * 4 * 32), *out = calloc(1, 64 * 4 * 32);
	cudaArray_t lv;
	unsigned int l;

	fill(in, 64 * 4 * 32, 11);
	ASSERT_EQ(cudaSuccess, cudaMallocMipmappedArray(&m, &f, make_cudaExtent(64, 32, 0), 10, 0));
	/* clamped to 1 + log2(64) = 7 levels, each half the last */
	for (l = 0; l < 7; l++) {
		ASSERT_EQ(cudaSuccess, cudaGetMipmappedArrayLevel(&lv, m, l));
		ASSERT_EQ(cudaSuccess, cudaArrayGetInfo(NULL, &e, NULL, lv));
		EXPECT_EQ(64 >> l, e.width);
		EXPECT_EQ((32 >> l) ? (32 >> l) : 1, e.height);
	}
	EXPECT_EQ(INV, cudaGetMipmappedArrayLevel(&lv, m, 7));
	EXPECT_EQ(INV, cudaGetMipmappedArrayLevel(NULL, m, 0));
	EXPECT_EQ(cudaErrorInvalidResourceHandle, cudaGetMipmappedArrayLevel(&lv, NULL, 0));
	EXPECT_EQ(cudaErrorInvalidResourceHandle, cudaGetMipmappedArrayLevel(&lv, (void *)in, 0));
	/* level 1 (32 x 16 texels of 4 bytes) holds data */
	ASSERT_EQ(cudaSuccess, cudaGetMipmappedArrayLevel(&lv, m, 1));
	ASSERT_EQ(cudaSuccess, cudaMemcpy2DToArray(lv, 0, 0, in, 128, 128, 16, cudaMemcpyDefault));
	ASSERT_EQ(cudaSuccess, cudaMemcpy2DFromArray(out, 128, lv, 0, 0, 128, 16, cudaMemcpyDefault));
	EXPECT_EQ(0, memcmp(in, out, 128 * 16));
	EXPECT_EQ(INV, cudaFreeArray(lv));	/* levels belong to their mipmapped array */
	EXPECT_EQ(INV, cudaMipmappedArrayGetSparseProperties(&sp, m));
	EXPECT_EQ(INV, cudaMipmappedArrayGetMemoryRequirements(&req, m, 0));
	EXPECT_EQ(cudaSuccess, cudaFreeMipmappedArray(m));
	EXPECT_EQ(INV, cudaFreeMipmappedArray(m));
	EXPECT_EQ(cudaSuccess, cudaFreeMipmappedArray(NULL));
	EXPECT_EQ(INV, cudaArrayGetInfo(NULL, &e, NULL, lv));	/* freed with it */
	EXPECT_EQ(cudaErrorNotSupported,
		  cudaMallocMipmappedArray(&m, &f, make_cudaExtent(64, 32, 0), 2, cudaArraySparse));
	free(in);
	free(out);
}

TEST_F(arr, symbols)
{
	static int var = 5;
	void *p = (void *)1;
	size_t sz = 7;
	char buf[8];

	EXPECT_EQ(cudaErrorInvalidSymbol, cudaGetSymbolAddress(&p, &var));
	EXPECT_EQ((void *)1, p);
	EXPECT_EQ(cudaErrorInvalidSymbol, cudaGetSymbolSize(&sz, &var));
	EXPECT_EQ(7, sz);
	EXPECT_EQ(INV, cudaGetSymbolAddress(NULL, &var));
	EXPECT_EQ(cudaErrorInvalidSymbol, cudaMemcpyToSymbol(&var, buf, 4, 0, cudaMemcpyHostToDevice));
	EXPECT_EQ(cudaErrorInvalidSymbol, cudaMemcpyFromSymbol(buf, &var, 4, 0, cudaMemcpyDefault));
	EXPECT_EQ(cudaErrorInvalidSymbol,
		  cudaMemcpyToSymbolAsync(&var, buf, 4, 0, cudaMemcpyDeviceToDevice, 0));
	EXPECT_EQ(cudaErrorInvalidSymbol,
		  cudaMemcpyFromSymbolAsync(buf, &var, 4, 0, cudaMemcpyDeviceToHost, 0));
	EXPECT_EQ(cudaErrorInvalidMemcpyDirection,
		  cudaMemcpyToSymbol(&var, buf, 4, 0, cudaMemcpyDeviceToHost));
	EXPECT_EQ(cudaErrorInvalidMemcpyDirection,
		  cudaMemcpyFromSymbol(buf, &var, 4, 0, cudaMemcpyHostToDevice));
	EXPECT_EQ(5, var);
}

TEST_HARNESS_MAIN
