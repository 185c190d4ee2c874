// SPDX-License-Identifier: GPL-2.0
// LDLIBS: -luvm -lnuma -lpthread
/*
 * cuda_copy_test.c - cudaMemcpy* and cudaMemset* through libuvm: every
 * direction between device, pinned, registered, pageable and managed
 * memory in 1D, 2D and 3D, synchronous and Async; memset 1D/2D/3D; peer
 * copies between two devices; the two batch calls; every documented error.
 * Contents are checked byte-exact through the module's own copy ioctl
 * (uvm_memcpy on the runtime's context), never through the call under test.
 */
#include "cuda_test_util.h"
#include "kselftest_harness.h"

#define INV cudaErrorInvalidValue
#define SZ (256 * 1024)

enum kind { K_DEV, K_PINNED, K_REG, K_PAGEABLE, K_MANAGED, K_NR };
static const char *const kname[K_NR] = { "device", "pinned", "registered", "pageable", "managed" };

FIXTURE(cp) {
	struct uvm_context *ctx;
	int ndev;
	void *mem[K_NR][2];
	unsigned char *pat, *back;
};

static void *kalloc(enum kind k, size_t size, int dev)
{
	void *p = NULL;

	cudaSetDevice(dev);
	switch (k) {
	case K_DEV:
		cudaMalloc(&p, size);
		break;
	case K_PINNED:
		cudaMallocHost(&p, size);
		break;
	case K_REG:
		p = aligned_alloc(PAGE_SZ, size);
		if (p && cudaHostRegister(p, size, 0) != cudaSuccess) {
			free(p);
			p = NULL;
		}
		break;
	case K_PAGEABLE:
		p = malloc(size);
		break;
	case K_MANAGED:
		cudaMallocManaged(&p, size, cudaMemAttachGlobal);
		break;
	default:
		break;
	}
	cudaSetDevice(0);
	return p;
}

static void kfree(enum kind k, void *p)
{
	switch (k) {
	case K_DEV:
	case K_MANAGED:
		cudaFree(p);
		break;
	case K_PINNED:
		cudaFreeHost(p);
		break;
	case K_REG:
		cudaHostUnregister(p);
		free(p);
		break;
	default:
		free(p);
	}
}

FIXTURE_SETUP(cp)
{
	int k, i;

	ASSERT_EQ(cudaSuccess, cudaGetDeviceCount(&self->ndev));
	ASSERT_EQ(0, uvm_runtime_context(&self->ctx));
	for (k = 0; k < K_NR; k++) {
		for (i = 0; i < 2; i++) {
			self->mem[k][i] = kalloc(k, SZ, i % self->ndev);
			ASSERT_NE(NULL, self->mem[k][i]);
		}
	}
	self->pat = malloc(SZ);
	self->back = malloc(SZ);
	ASSERT_NE(NULL, self->back);
	fill(self->pat, SZ, 42);
}

FIXTURE_TEARDOWN(cp)
{
	int k, i;

	for (k = 0; k < K_NR; k++)
		for (i = 0; i < 2; i++)
			kfree(k, self->mem[k][i]);
	free(self->pat);
	free(self->back);
	cudaGetLastError();
}

static int mcopy(struct uvm_context *ctx, void *dst, const void *src, size_t len)
{
	struct uvm_copy_desc d = { .dst = (uintptr_t)dst, .src = (uintptr_t)src, .width = len,
				   .height = 1, .depth = 1 };

	return uvm_memcpy(ctx, &d);
}

/* Set @p (any kind) to @seed's pattern / zero, through the module. */
static int prime(struct uvm_context *ctx, void *p, unsigned int seed)
{
	unsigned char *b = malloc(SZ);
	int ret;

	if (seed)
		fill(b, SZ, seed);
	else
		memset(b, 0, SZ);
	ret = mcopy(ctx, p, b, SZ);
	free(b);
	return ret;
}

static int explicit_kind(enum kind src, enum kind dst)
{
	bool sd = src == K_DEV, dd = dst == K_DEV;

	if (sd && dd)
		return cudaMemcpyDeviceToDevice;
	if (sd)
		return cudaMemcpyDeviceToHost;
	if (dd)
		return cudaMemcpyHostToDevice;
	return src == K_PAGEABLE || dst == K_PAGEABLE ? cudaMemcpyHostToHost : cudaMemcpyDefault;
}

/* 1D, 2D, 3D, sync and async, for every src x dst kind pair. */
TEST_F(cp, all_directions)
{
	struct cudaMemcpy3DParms p3;
	unsigned char *exp = malloc(SZ);
	cudaStream_t s;
	int sk, dk, fails = 0;
	size_t r, z;

	ASSERT_EQ(cudaSuccess, cudaStreamCreate(&s));
	for (sk = 0; sk < K_NR; sk++) {
		for (dk = 0; dk < K_NR; dk++) {
			void *src = self->mem[sk][0], *dst = self->mem[dk][1];
			int kind = explicit_kind(sk, dk);
			int ok = 1;

			/* 1D, explicit kind, interior offsets */
			ASSERT_EQ(0, prime(self->ctx, src, 7 + sk));
			ASSERT_EQ(0, prime(self->ctx, dst, 0));
			ok &= cudaMemcpy((char *)dst + 4, (char *)src + 8, SZ / 2 + 3, kind) == 0;
			ASSERT_EQ(0, mcopy(self->ctx, self->back, dst, SZ));
			fill(exp, SZ, 7 + sk);
			ok &= !memcmp(self->back + 4, exp + 8, SZ / 2 + 3);
			ok &= self->back[3] == 0 && self->back[SZ / 2 + 7] == 0;
			/* 2D Default: 100 rows of 700 bytes, pitches 1024 / 2048 */
			ASSERT_EQ(0, prime(self->ctx, dst, 0));
			ok &= cudaMemcpy2D(dst, 2048, src, 1024, 700, 100, cudaMemcpyDefault) == 0;
			ASSERT_EQ(0, mcopy(self->ctx, self->back, dst, SZ));
			for (r = 0; r < 100; r++)
				ok &= !memcmp(self->back + r * 2048, exp + r * 1024, 700) &&
				      self->back[r * 2048 + 700] == 0;
			/* 3D async: 4 slices of 10 rows of 300 bytes at (5, 2, 1) */
			ASSERT_EQ(0, prime(self->ctx, dst, 0));
			memset(&p3, 0, sizeof(p3));
			p3.srcPtr = make_cudaPitchedPtr(src, 512, 400, 16);
			p3.srcPos = make_cudaPos(5, 2, 1);
			p3.dstPtr = make_cudaPitchedPtr(dst, 1024, 400, 12);
			p3.extent = make_cudaExtent(300, 10, 4);
			p3.kind = kind;
			ok &= cudaMemcpy3DAsync(&p3, s) == 0;
			ok &= cudaStreamSynchronize(s) == 0;
			ASSERT_EQ(0, mcopy(self->ctx, self->back, dst, SZ));
			for (z = 0; z < 4; z++)
				for (r = 0; r < 10; r++)
					ok &= !memcmp(self->back + (z * 12 + r) * 1024,
						      exp + ((z + 1) * 16 + r + 2) * 512 + 5, 300);
			/* 1D async, whole buffer */
			ASSERT_EQ(0, prime(self->ctx, dst, 0));
			ok &= cudaMemcpyAsync(dst, src, SZ, cudaMemcpyDefault, s) == 0;
			ok &= cudaStreamSynchronize(s) == 0;
			ASSERT_EQ(0, mcopy(self->ctx, self->back, dst, SZ));
			ok &= !memcmp(self->back, exp, SZ);
			if (!ok) {
				TH_LOG("%s -> %s failed", kname[sk], kname[dk]);
				fails++;
			}
		}
	}
	EXPECT_EQ(0, fails);
	EXPECT_EQ(cudaSuccess, cudaStreamDestroy(s));
	free(exp);
}

/* Async copies really run in stream order on the stream's worker. */
TEST_F(cp, async_stream_order)
{
	void *d = self->mem[K_DEV][0], *h = self->mem[K_PINNED][0];
	cudaEvent_t ev;
	cudaStream_t s;
	int i;

	ASSERT_EQ(cudaSuccess, cudaStreamCreate(&s));
	ASSERT_EQ(cudaSuccess, cudaEventCreate(&ev));
	/* chain: set, copy, set, copy; the last copy must see the last set */
	for (i = 1; i <= 20; i++) {
		ASSERT_EQ(cudaSuccess, cudaMemsetAsync(d, i, SZ, s));
		ASSERT_EQ(cudaSuccess, cudaMemcpyAsync(h, d, SZ, cudaMemcpyDeviceToHost, s));
	}
	ASSERT_EQ(cudaSuccess, cudaEventRecord(ev, s));
	ASSERT_EQ(cudaSuccess, cudaEventSynchronize(ev));
	EXPECT_EQ(20, ((unsigned char *)h)[SZ - 1]);
	EXPECT_EQ(20, ((unsigned char *)h)[0]);
	/* the legacy stream orders a synchronous copy after blocking streams */
	ASSERT_EQ(cudaSuccess, cudaMemsetAsync(d, 0x77, SZ, s));
	ASSERT_EQ(cudaSuccess, cudaMemcpy(self->back, d, SZ, cudaMemcpyDeviceToHost));
	EXPECT_EQ(0x77, self->back[SZ / 2]);
	EXPECT_EQ(cudaSuccess, cudaEventDestroy(ev));
	EXPECT_EQ(cudaSuccess, cudaStreamDestroy(s));
}

TEST_F(cp, memset_1d_2d_3d)
{
	static const enum kind kinds[] = { K_DEV, K_PINNED, K_REG, K_MANAGED };
	struct cudaPitchedPtr pp;
	size_t i, r, z;
	int ok;

	for (i = 0; i < 4; i++) {
		void *d = self->mem[kinds[i]][0];

		ok = 1;
		ASSERT_EQ(0, prime(self->ctx, d, 0));
		ok &= cudaMemset((char *)d + 1, 0x1ab, 1000) == 0;	/* byte of value */
		ok &= cudaMemset2D((char *)d + 4096, 256, 0x22, 100, 8) == 0;
		pp = make_cudaPitchedPtr((char *)d + 16384, 512, 512, 4);
		ok &= cudaMemset3DAsync(pp, 0x33, make_cudaExtent(50, 3, 5), 0) == 0;
		ok &= cudaDeviceSynchronize() == 0;
		ASSERT_EQ(0, mcopy(self->ctx, self->back, d, SZ));
		ok &= self->back[0] == 0 && self->back[1] == 0xab && self->back[1000] == 0xab &&
		      self->back[1001] == 0;
		for (r = 0; r < 8; r++)
			ok &= self->back[4096 + r * 256] == 0x22 &&
			      self->back[4096 + r * 256 + 99] == 0x22 &&
			      self->back[4096 + r * 256 + 100] == 0;
		for (z = 0; z < 5; z++)
			for (r = 0; r < 4; r++)
				ok &= self->back[16384 + (z * 4 + r) * 512 + 49] == (r < 3 ? 0x33 : 0);
		if (!ok)
			TH_LOG("memset of %s memory failed", kname[kinds[i]]);
		EXPECT_TRUE(ok);
	}
	/* sync forms and a per-thread-stream async */
	ok = cudaMemsetAsync(self->mem[K_DEV][0], 5, 10, cudaStreamPerThread) == 0 &&
	     cudaStreamSynchronize(cudaStreamPerThread) == 0;
	EXPECT_TRUE(ok);
	EXPECT_EQ(cudaSuccess, cudaMemset3D(make_cudaPitchedPtr(self->mem[K_DEV][0], 64, 64, 2), 9,
					    make_cudaExtent(64, 2, 2)));
	EXPECT_EQ(cudaSuccess, cudaMemset2DAsync(self->mem[K_DEV][0], 64, 9, 64, 2, 0));
	ASSERT_EQ(0, mcopy(self->ctx, self->back, self->mem[K_DEV][0], 256));
	EXPECT_EQ(9, self->back[255]);
	/* errors */
	EXPECT_EQ(INV, cudaMemset(self->mem[K_PAGEABLE][0], 0, 10));
	EXPECT_EQ(INV, cudaMemset(NULL, 0, 10));
	EXPECT_EQ(cudaSuccess, cudaMemset(NULL, 0, 0));
	EXPECT_EQ(INV, cudaMemset(self->mem[K_DEV][0], 0, SZ + 1));	/* past the end */
	EXPECT_EQ(INV, cudaMemset2D(self->mem[K_DEV][0], 10, 0, 20, 2));	/* pitch < width */
	EXPECT_EQ(INV, cudaMemset3D(make_cudaPitchedPtr(self->mem[K_DEV][0], 64, 64, 1), 0,
				    make_cudaExtent(64, 2, 2)));		/* ysize < height */
	EXPECT_EQ(cudaErrorInvalidResourceHandle,
		  cudaMemsetAsync(self->mem[K_DEV][0], 0, 10, (cudaStream_t)0x1234));
}

TEST_F(cp, peer_copies)
{
	struct cudaMemcpy3DPeerParms pp;
	void *d0, *d1;
	cudaStream_t s;

	if (self->ndev < 2)
		SKIP(return, "needs two devices");
	d0 = self->mem[K_DEV][0];
	d1 = self->mem[K_DEV][1];
	ASSERT_EQ(0, prime(self->ctx, d0, 5));
	ASSERT_EQ(0, prime(self->ctx, d1, 0));
	EXPECT_EQ(UVM_POINTER_DEVICE, ({ struct uvm_pointer_info pi;
		uvm_ptr_info(self->ctx, d1, &pi); pi.device == 1 ? pi.type : 99; }));
	ASSERT_EQ(cudaSuccess, cudaMemcpyPeer(d1, 1, d0, 0, SZ));
	ASSERT_EQ(0, mcopy(self->ctx, self->back, d1, SZ));
	EXPECT_TRUE(check_fill(self->back, SZ, 5));
	ASSERT_EQ(0, prime(self->ctx, d0, 0));
	ASSERT_EQ(cudaSuccess, cudaStreamCreate(&s));
	ASSERT_EQ(cudaSuccess, cudaMemcpyPeerAsync(d0, 0, d1, 1, SZ, s));
	ASSERT_EQ(cudaSuccess, cudaStreamSynchronize(s));
	ASSERT_EQ(0, mcopy(self->ctx, self->back, d0, SZ));
	EXPECT_TRUE(check_fill(self->back, SZ, 5));
	/* 3D peer: rows of 100 bytes, 3 rows x 2 slices */
	ASSERT_EQ(0, prime(self->ctx, d1, 0));
	memset(&pp, 0, sizeof(pp));
	pp.srcPtr = make_cudaPitchedPtr(d0, 256, 256, 4);
	pp.srcDevice = 0;
	pp.dstPtr = make_cudaPitchedPtr(d1, 128, 128, 3);
	pp.dstDevice = 1;
	pp.extent = make_cudaExtent(100, 3, 2);
	ASSERT_EQ(cudaSuccess, cudaMemcpy3DPeer(&pp));
	ASSERT_EQ(cudaSuccess, cudaMemcpy3DPeerAsync(&pp, s));
	ASSERT_EQ(cudaSuccess, cudaStreamSynchronize(s));
	ASSERT_EQ(0, mcopy(self->ctx, self->back, d1, SZ));
	fill(self->pat, SZ, 5);
	EXPECT_EQ(0, memcmp(self->back + (3 + 2) * 128, self->pat + (4 + 2) * 256, 100));
	EXPECT_EQ(0, self->back[100]);
	/* errors */
	EXPECT_EQ(cudaErrorInvalidDevice, cudaMemcpyPeer(d1, 7, d0, 0, 10));
	EXPECT_EQ(cudaErrorInvalidDevice, cudaMemcpyPeerAsync(d1, 1, d0, -1, 10, s));
	pp.srcDevice = 9;
	EXPECT_EQ(cudaErrorInvalidDevice, cudaMemcpy3DPeer(&pp));
	EXPECT_EQ(INV, cudaMemcpy3DPeer(NULL));
	EXPECT_EQ(INV, cudaMemcpyPeer(self->mem[K_PAGEABLE][0], 1, d0, 0, 10));
	EXPECT_EQ(cudaSuccess, cudaStreamDestroy(s));
}

TEST_F(cp, batches)
{
	struct cudaMemcpyAttributes at[2];
	struct cudaMemcpy3DBatchOp op[2];
	void *dsts[3], *srcs[3];
	size_t sizes[3] = { 1000, 2000, 3000 }, idx[2] = { 0, 1 };
	unsigned char stackbuf[4096];
	cudaStream_t s;
	int i;

	ASSERT_EQ(cudaSuccess, cudaStreamCreate(&s));
	memset(at, 0, sizeof(at));
	at[0].srcAccessOrder = cudaMemcpySrcAccessOrderStream;
	at[1].srcAccessOrder = cudaMemcpySrcAccessOrderDuringApiCall;
	fill(stackbuf, sizeof(stackbuf), 9);
	dsts[0] = self->mem[K_DEV][0];
	srcs[0] = self->mem[K_PINNED][0];
	dsts[1] = self->mem[K_MANAGED][0];
	srcs[1] = stackbuf;			/* a stack temporary: DuringApiCall */
	dsts[2] = self->mem[K_REG][0];
	srcs[2] = self->mem[K_DEV][1];
	ASSERT_EQ(0, prime(self->ctx, srcs[0], 1));
	ASSERT_EQ(0, prime(self->ctx, srcs[2], 3));
	ASSERT_EQ(cudaSuccess, cudaMemcpyBatchAsync(dsts, (const void *const *)srcs, sizes, 3, at,
						    idx, 2, s));
	memset(stackbuf, 0, sizeof(stackbuf));	/* already read */
	ASSERT_EQ(cudaSuccess, cudaStreamSynchronize(s));
	ASSERT_EQ(0, mcopy(self->ctx, self->back, dsts[0], 1000));
	EXPECT_TRUE(check_fill(self->back, 1000, 1));
	EXPECT_TRUE(check_fill(dsts[1], 2000, 9));
	EXPECT_TRUE(check_fill(dsts[2], 3000, 3));
	/* 3D batch of pointer operands: 4 rows of 64 bytes, rowLength 128 / 64 */
	memset(op, 0, sizeof(op));
	for (i = 0; i < 2; i++) {
		op[i].src.type = cudaMemcpyOperandTypePointer;
		op[i].src.op.ptr.ptr = (char *)self->mem[K_DEV][1] + i * 8192;
		op[i].src.op.ptr.rowLength = 128;
		op[i].dst.type = cudaMemcpyOperandTypePointer;
		op[i].dst.op.ptr.ptr = (char *)self->mem[K_PINNED][1] + i * 8192;
		op[i].extent = make_cudaExtent(64, 4, 1);
		op[i].srcAccessOrder = cudaMemcpySrcAccessOrderStream;
	}
	ASSERT_EQ(0, prime(self->ctx, self->mem[K_PINNED][1], 0));
	ASSERT_EQ(cudaSuccess, cudaMemcpy3DBatchAsync(2, op, 0, s));
	ASSERT_EQ(cudaSuccess, cudaStreamSynchronize(s));
	fill(self->pat, SZ, 3);
	EXPECT_EQ(0, memcmp((char *)self->mem[K_PINNED][1] + 8192 + 3 * 64,
			    self->pat + 8192 + 3 * 128, 64));
	/* errors */
	EXPECT_EQ(INV, cudaMemcpyBatchAsync(dsts, (const void *const *)srcs, sizes, 3, at, idx, 2, 0));
	EXPECT_EQ(INV, cudaMemcpyBatchAsync(dsts, (const void *const *)srcs, sizes, 0, at, idx, 2, s));
	EXPECT_EQ(INV, cudaMemcpyBatchAsync(NULL, (const void *const *)srcs, sizes, 3, at, idx, 2, s));
	EXPECT_EQ(INV, cudaMemcpyBatchAsync(dsts, (const void *const *)srcs, sizes, 3, at, idx, 4, s));
	idx[1] = 0;
	EXPECT_EQ(INV, cudaMemcpyBatchAsync(dsts, (const void *const *)srcs, sizes, 3, at, idx, 2, s));
	idx[1] = 1;
	at[1].srcAccessOrder = cudaMemcpySrcAccessOrderInvalid;
	EXPECT_EQ(INV, cudaMemcpyBatchAsync(dsts, (const void *const *)srcs, sizes, 3, at, idx, 2, s));
	at[1].srcAccessOrder = cudaMemcpySrcAccessOrderAny;
	at[1].flags = 2;
	EXPECT_EQ(INV, cudaMemcpyBatchAsync(dsts, (const void *const *)srcs, sizes, 3, at, idx, 2, s));
	EXPECT_EQ(INV, cudaMemcpy3DBatchAsync(2, op, 1, s));
	EXPECT_EQ(INV, cudaMemcpy3DBatchAsync(2, op, 0, cudaStreamLegacy));
	EXPECT_EQ(INV, cudaMemcpy3DBatchAsync(0, op, 0, s));
	op[1].extent.depth = 0;
	EXPECT_EQ(INV, cudaMemcpy3DBatchAsync(2, op, 0, s));
	op[1].extent.depth = 1;
	op[1].src.op.ptr.rowLength = 10;	/* < extent.width */
	EXPECT_EQ(INV, cudaMemcpy3DBatchAsync(2, op, 0, s));
	op[1].src.op.ptr.rowLength = 0;
	op[1].src.type = 7;
	EXPECT_EQ(INV, cudaMemcpy3DBatchAsync(2, op, 0, s));
	EXPECT_EQ(cudaSuccess, cudaStreamDestroy(s));
}

TEST_F(cp, copy_errors)
{
	struct cudaMemcpy3DParms p3;
	void *d = self->mem[K_DEV][0], *h = self->mem[K_PAGEABLE][0];

	EXPECT_EQ(cudaErrorInvalidMemcpyDirection, cudaMemcpy(d, h, 10, (enum cudaMemcpyKind)5));
	EXPECT_EQ(cudaErrorInvalidMemcpyDirection, cudaGetLastError());
	EXPECT_EQ(cudaErrorInvalidMemcpyDirection,
		  cudaMemcpyAsync(d, h, 10, (enum cudaMemcpyKind)-1, 0));
	/* kinds that contradict the memory */
	EXPECT_EQ(INV, cudaMemcpy(d, h, 10, cudaMemcpyDeviceToHost));	/* swapped */
	EXPECT_EQ(INV, cudaMemcpy(h, d, 10, cudaMemcpyHostToDevice));
	EXPECT_EQ(INV, cudaMemcpy(d, d, 10, cudaMemcpyHostToHost));
	EXPECT_EQ(INV, cudaMemcpy(h, self->mem[K_PAGEABLE][1], 10, cudaMemcpyDeviceToDevice));
	/* pinned/registered/managed are both host- and device-accessible */
	EXPECT_EQ(cudaSuccess, cudaMemcpy(self->mem[K_PINNED][0], self->mem[K_MANAGED][0], 10,
					  cudaMemcpyDeviceToDevice));
	EXPECT_EQ(cudaSuccess, cudaMemcpy(self->mem[K_REG][0], self->mem[K_PINNED][1], 10,
					  cudaMemcpyHostToHost));
	/* past the end of an allocation, overlap, NULL, size 0 */
	EXPECT_EQ(INV, cudaMemcpy(d, h, SZ + 1, cudaMemcpyDefault));
	EXPECT_EQ(INV, cudaMemcpy(d, (char *)d + 10, 100, cudaMemcpyDefault));
	EXPECT_EQ(INV, cudaMemcpy(NULL, h, 10, cudaMemcpyDefault));
	EXPECT_EQ(INV, cudaMemcpy(d, NULL, 10, cudaMemcpyDefault));
	EXPECT_EQ(cudaSuccess, cudaMemcpy(NULL, NULL, 0, cudaMemcpyDefault));
	/* freed device memory */
	EXPECT_EQ(cudaSuccess, cudaMalloc(&d, 4096));
	EXPECT_EQ(cudaSuccess, cudaFree(d));
	EXPECT_EQ(INV, cudaMemcpy(h, d, 10, cudaMemcpyDeviceToHost));
	d = self->mem[K_DEV][0];
	/* pitches */
	EXPECT_EQ(cudaErrorInvalidPitchValue, cudaMemcpy2D(d, 10, h, 100, 20, 2, cudaMemcpyDefault));
	EXPECT_EQ(cudaErrorInvalidPitchValue, cudaMemcpy2D(d, 100, h, 10, 20, 2, cudaMemcpyDefault));
	EXPECT_EQ(cudaErrorInvalidPitchValue,
		  cudaMemcpy2DAsync(d, (size_t)1 << 32, h, 100, 20, 2, cudaMemcpyDefault, 0));
	EXPECT_EQ(cudaSuccess, cudaMemcpy2D(d, 10, h, 100, 0, 2, cudaMemcpyDefault));
	/* 3D parameter rules */
	memset(&p3, 0, sizeof(p3));
	p3.kind = cudaMemcpyDefault;
	p3.extent = make_cudaExtent(10, 2, 2);
	EXPECT_EQ(INV, cudaMemcpy3D(&p3));			/* no operands */
	p3.srcPtr = make_cudaPitchedPtr(h, 64, 64, 2);
	p3.dstPtr = make_cudaPitchedPtr(d, 64, 64, 1);		/* ysize < height */
	EXPECT_EQ(INV, cudaMemcpy3D(&p3));
	p3.dstPtr = make_cudaPitchedPtr(d, 8, 64, 2);		/* pitch < width */
	EXPECT_EQ(cudaErrorInvalidPitchValue, cudaMemcpy3D(&p3));
	p3.dstPtr = make_cudaPitchedPtr(d, 64, 64, 2);
	p3.dstArray = (cudaArray_t)&p3;				/* both array and pointer */
	EXPECT_EQ(INV, cudaMemcpy3D(&p3));
	p3.dstArray = NULL;
	EXPECT_EQ(cudaSuccess, cudaMemcpy3D(&p3));
	p3.kind = (enum cudaMemcpyKind)9;
	EXPECT_EQ(cudaErrorInvalidMemcpyDirection, cudaMemcpy3D(&p3));
	EXPECT_EQ(INV, cudaMemcpy3D(NULL));
	EXPECT_EQ(cudaErrorInvalidResourceHandle,
		  cudaMemcpyAsync(d, h, 10, cudaMemcpyDefault, (cudaStream_t)0x1234));
}

TEST_HARNESS_MAIN
