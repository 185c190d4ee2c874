// SPDX-License-Identifier: GPL-2.0
// LDLIBS: -luvm -lnuma -lpthread
/*
 * cuda_launch_test.c - kernels by name (docs/kernels.md, "Kernels by
 * name"), driven the way nvcc's generated host code drives them: a fat
 * binary and its kernels registered, <<<...>>> as push/pop of the call
 * configuration, __cudaGetKernel once, then __cudaLaunchKernel; the
 * implementations from uvmRegisterKernels() and from UVM_KERNELS
 * (build/tests/clients/kernels/launch_test.so). Launch errors (98, 209, 9,
 * bad arguments) queue nothing; results are in stream order; device and
 * pinned memory are reached; cudaFuncGetAttributes, cudaFuncSetAttribute,
 * cudaFuncSetCacheConfig and occupancy; unregistering; UVM_KERNELS naming
 * a missing file, a file without the symbol, a name twice.
 *
 * The harness runs every test in a fresh child process, so UVM_KERNELS,
 * read at the first lookup, is set by each test before anything else.
 */
#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <limits.h>
#include <stdlib.h>
#include <sys/wait.h>

#include "cuda_test_util.h"
#include "../../include/uvm/cuda_nvcc.h"
#include "../../include/uvm/uvm_kernel.h"
#include "kselftest_harness.h"

#define N		512	/* uint64 elements */

/* nvcc's host-code entry points: include/uvm/cuda_nvcc.h */
cudaError_t cudaLaunchKernel_ptsz(const void *func, dim3 gridDim, dim3 blockDim, void **args,
				  size_t sharedMem, cudaStream_t stream);

#define FILL	"_Z4fillPmmm"		/* uvmRegisterKernels() below */
#define INC	"_Z3incPmm"		/* launch_test.so */
#define ADD	"_Z3addPmm"		/* launch_test.so */
#define NOIMPL	"_Z6nowherev"		/* registered, implemented nowhere */

static const char fatbin[16];		/* what nvcc's __fatDeviceText would be */
static cudaError_t last_launch;		/* what the last stub's launch returned */

/* The stubs: what nvcc makes of a __global__ function's host side. */
static void launch_stub(const void *self, cudaKernel_t *handle, void **args)
{
	dim3 g, b;
	size_t sh;
	cudaStream_t s;

	if (!*handle)
		__cudaGetKernel(handle, self);
	if (__cudaPopCallConfiguration(&g, &b, &sh, &s) != cudaSuccess)
		return;
	last_launch = __cudaLaunchKernel(*handle, g, b, args, sh, s);
}

static void k_fill(uint64_t *p, size_t n, uint64_t v)
{
	static cudaKernel_t h;
	void *args[] = { &p, &n, &v };

	launch_stub((const void *)k_fill, &h, args);
}

static void k_inc(uint64_t *p, size_t n)
{
	static cudaKernel_t h;
	void *args[] = { &p, &n };

	launch_stub((const void *)k_inc, &h, args);
}

static void k_add(uint64_t *p, uint64_t v)
{
	static cudaKernel_t h;
	void *args[] = { &p, &v };

	launch_stub((const void *)k_add, &h, args);
}

static void k_nowhere(void)
{
	static cudaKernel_t h;

	launch_stub((const void *)k_nowhere, &h, NULL);
}

static void k_unregistered(void)
{
}

/* <<<grid, block, shmem, stream>>> */
#define LAUNCH(g, b, sh, s, call) \
	(__cudaPushCallConfiguration((g), (b), (sh), (s)) ? (void)0 : (void)(call))

static dim3 d3(unsigned int x, unsigned int y, unsigned int z)
{
	return (dim3){ x, y, z };
}

/* What nvcc's registration callback does (a static constructor). */
static void **register_all(void)
{
	void **h = __cudaRegisterFatBinary((void *)fatbin);

	__cudaRegisterFunction(h, (const char *)k_fill, (char *)FILL, FILL, -1, NULL, NULL, NULL,
			       NULL, NULL);
	__cudaRegisterFunction(h, (const char *)k_inc, (char *)INC, INC, -1, NULL, NULL, NULL,
			       NULL, NULL);
	__cudaRegisterFunction(h, (const char *)k_add, (char *)ADD, ADD, -1, NULL, NULL, NULL,
			       NULL, NULL);
	__cudaRegisterFunction(h, (const char *)k_nowhere, (char *)NOIMPL, NOIMPL, -1, NULL, NULL,
			       NULL, NULL, NULL);
	__cudaRegisterFatBinaryEnd(h);
	return h;
}

/* fill: one step writing v to p[0..n) (n <= 4096). */
struct fill_state {
	uint64_t *p;
	uint64_t n, v;
};

static int fill_emit(void *arg, uint64_t step, struct uvm_device_access_op *ops,
		     unsigned int max)
{
	struct fill_state *f = arg;
	unsigned int i;

	if (step)
		return 0;
	for (i = 0; i < f->n && i < max; i++)
		ops[i] = (struct uvm_device_access_op){
			.addr = (uintptr_t)(f->p + i), .length = 8, .buf = (uintptr_t)&f->v,
			.type = UVM_DEVICE_ACCESS_WRITE,
		};
	return (int)i;
}

static void fill_done(void *arg, int status, const struct uvm_kernel_stats *st)
{
	free(arg);
}

static int fill_impl(const struct uvm_kernel_launch *l, struct uvm_kernel *k)
{
	struct fill_state *f;

	if (!l->args || !l->args[0] || !l->args[1] || !l->args[2])
		return -EINVAL;
	f = malloc(sizeof(*f));
	if (!f)
		return -ENOMEM;
	f->p = *(uint64_t **)l->args[0];
	f->n = *(size_t *)l->args[1];
	f->v = *(uint64_t *)l->args[2];
	k->emit = fill_emit;
	k->arg = f;
	k->done = fill_done;
	return 0;
}

static const struct uvm_kernel_impl program_impls[] = {
	{ FILL, fill_impl },
	{ NULL, NULL },
};

/* build/tests/clients/kernels/@name beside this program (build/tests). */
static const char *kernels_path(const char *name)
{
	static char path[PATH_MAX + 64];
	char exe[PATH_MAX];
	ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);

	exe[n > 0 ? n : 0] = 0;
	snprintf(path, sizeof(path), "%s/clients/kernels/%s", dirname(exe), name);
	return path;
}

/* Everything libuvm writes on stderr while @fn runs, in @out. */
static void capture_stderr(void (*fn)(void *), void *arg, char *out, size_t len)
{
	char tmpl[] = "/tmp/cuda_launch_test.XXXXXX";
	int fd = mkstemp(tmpl), saved = dup(2);
	ssize_t n;

	unlink(tmpl);
	fflush(stderr);
	dup2(fd, 2);
	fn(arg);
	fflush(stderr);
	dup2(saved, 2);
	close(saved);
	n = pread(fd, out, len - 1, 0);
	out[n > 0 ? n : 0] = 0;
	close(fd);
}

static int count_lines(const char *s)
{
	int n = 0;

	for (; *s; s++)
		n += *s == '\n';
	return n;
}

FIXTURE(launch) {
	void **h;
	uint64_t *m;
	cudaStream_t s;
};

FIXTURE_SETUP(launch)
{
	int n = 0;

	setenv("UVM_KERNELS", kernels_path("launch_test.so"), 1);
	self->h = register_all();
	ASSERT_NE(NULL, self->h);
	if (cudaGetDeviceCount(&n) != cudaSuccess || !n)
		SKIP(return, "no device");
	ASSERT_EQ(cudaSuccess, uvmRegisterKernels(program_impls));
	ASSERT_EQ(cudaSuccess, cudaMallocManaged((void **)&self->m, N * 8, cudaMemAttachGlobal));
	memset(self->m, 0, N * 8);
	ASSERT_EQ(cudaSuccess, cudaStreamCreate(&self->s));
}

FIXTURE_TEARDOWN(launch)
{
	if (self->s)
		EXPECT_EQ(cudaSuccess, cudaStreamDestroy(self->s));
	if (self->m)
		EXPECT_EQ(cudaSuccess, cudaFree(self->m));
	__cudaUnregisterFatBinary(self->h);
}

static int all_equal(const uint64_t *p, size_t n, uint64_t v)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (p[i] != v)
			return 0;
	return 1;
}

/* Kernels from the program and from UVM_KERNELS, in stream order. */
TEST_F(launch, stream_order)
{
	unsigned int i;

	if (!self->s)
		return;	/* skipped in setup */
	LAUNCH(d3(2, 1, 1), d3(256, 1, 1), 0, self->s, k_fill(self->m, N, 40));
	EXPECT_EQ(cudaSuccess, last_launch);
	for (i = 0; i < 2; i++) {
		LAUNCH(d3(2, 1, 1), d3(256, 1, 1), 0, self->s, k_inc(self->m, N));
		EXPECT_EQ(cudaSuccess, last_launch);
	}
	LAUNCH(d3(1, 1, 1), d3(1, 1, 1), 0, self->s, k_add(self->m + 7, 100));
	EXPECT_EQ(cudaSuccess, last_launch);
	EXPECT_EQ(cudaSuccess, cudaStreamSynchronize(self->s));
	EXPECT_EQ(142, self->m[7]);
	self->m[7] = 42;
	EXPECT_TRUE(all_equal(self->m, N, 42));
	EXPECT_EQ(cudaSuccess, cudaGetLastError());
}

/* cudaLaunchKernel(host stub), its _ptsz twin, the legacy stream. */
TEST_F(launch, public_launch)
{
	uint64_t *p = self->m;
	size_t n = N;
	uint64_t v = 7;
	void *fargs[] = { &p, &n, &v }, *iargs[] = { &p, &n };
	cudaKernel_t k = NULL;

	if (!self->s)
		return;	/* skipped in setup */
	EXPECT_EQ(cudaSuccess, cudaLaunchKernel((const void *)k_fill, d3(1, 1, 1), d3(N, 1, 1),
						fargs, 0, 0));
	EXPECT_EQ(cudaSuccess, cudaLaunchKernel((const void *)k_inc, d3(1, 1, 1), d3(N, 1, 1),
						iargs, 0, self->s));
	EXPECT_EQ(cudaSuccess, cudaStreamSynchronize(self->s));
	EXPECT_TRUE(all_equal(self->m, N, 8));
	EXPECT_EQ(cudaSuccess, cudaLaunchKernel_ptsz((const void *)k_inc, d3(1, 1, 1),
						     d3(N, 1, 1), iargs, 0, 0));
	EXPECT_EQ(cudaSuccess, cudaStreamSynchronize(cudaStreamPerThread));
	EXPECT_TRUE(all_equal(self->m, N, 9));
	/* a cudaKernel_t passed as the function, and __cudaLaunchKernel_ptsz */
	ASSERT_EQ(cudaSuccess, cudaGetKernel(&k, (const void *)k_inc));
	EXPECT_EQ(cudaSuccess, cudaLaunchKernel((const void *)k, d3(1, 1, 1), d3(N, 1, 1),
						iargs, 0, 0));
	EXPECT_EQ(cudaSuccess, __cudaLaunchKernel_ptsz(k, d3(1, 1, 1), d3(N, 1, 1), iargs, 0,
						       0));
	EXPECT_EQ(cudaSuccess, cudaDeviceSynchronize());
	EXPECT_TRUE(all_equal(self->m, N, 11));
}

/* Kernels reach device memory and pinned host memory too. */
TEST_F(launch, device_and_pinned_memory)
{
	uint64_t *d, *pin, host[N];
	size_t n = N;
	uint64_t v = 5, one = 3;
	void *fargs[] = { &d, &n, &v }, *iargs[] = { &d, &n }, *aargs[] = { &d, &one };

	if (!self->s)
		return;	/* skipped in setup */
	ASSERT_EQ(cudaSuccess, cudaMalloc((void **)&d, N * 8));
	ASSERT_EQ(cudaSuccess, cudaMallocHost((void **)&pin, N * 8));
	EXPECT_EQ(cudaSuccess, cudaLaunchKernel((const void *)k_fill, d3(1, 1, 1), d3(N, 1, 1),
						fargs, 0, self->s));
	EXPECT_EQ(cudaSuccess, cudaLaunchKernel((const void *)k_inc, d3(1, 1, 1), d3(N, 1, 1),
						iargs, 0, self->s));
	EXPECT_EQ(cudaSuccess, cudaLaunchKernel((const void *)k_add, d3(1, 1, 1), d3(1, 1, 1),
						aargs, 0, self->s));
	EXPECT_EQ(cudaSuccess, cudaMemcpyAsync(host, d, N * 8, cudaMemcpyDeviceToHost, self->s));
	EXPECT_EQ(cudaSuccess, cudaStreamSynchronize(self->s));
	EXPECT_EQ(9, host[0]);
	host[0] = 6;
	EXPECT_TRUE(all_equal(host, N, 6));
	memset(pin, 0, N * 8);
	iargs[0] = &pin;
	EXPECT_EQ(cudaSuccess, cudaLaunchKernel((const void *)k_inc, d3(1, 1, 1), d3(N, 1, 1),
						iargs, 0, self->s));
	EXPECT_EQ(cudaSuccess, cudaStreamSynchronize(self->s));
	EXPECT_TRUE(all_equal(pin, N, 1));
	EXPECT_EQ(cudaSuccess, cudaFreeHost(pin));
	EXPECT_EQ(cudaSuccess, cudaFree(d));
}

static void launch_nowhere_twice(void *arg)
{
	cudaError_t *e = arg;

	LAUNCH(d3(1, 1, 1), d3(1, 1, 1), 0, 0, k_nowhere());
	e[0] = last_launch;
	LAUNCH(d3(1, 1, 1), d3(1, 1, 1), 0, 0, k_nowhere());
	e[1] = last_launch;
}

/* 98, 209 (and its one line), 9, bad handles and arguments: nothing queued. */
TEST_F(launch, launch_errors)
{
	uint64_t *p = self->m;
	size_t n = N;
	uint64_t v = 9;
	void *fargs[] = { &p, &n, &v };
	cudaError_t e[2];
	cudaKernel_t k = NULL;
	char err[1024];
	cudaStream_t dead, s;
	dim3 g, b;
	size_t sh;

	if (!self->s)
		return;	/* skipped in setup */
	EXPECT_EQ(cudaErrorInvalidResourceHandle,
		  cudaLaunchKernel((const void *)k_unregistered, d3(1, 1, 1), d3(1, 1, 1), fargs,
				   0, 0));
	EXPECT_EQ(cudaErrorInvalidResourceHandle, cudaGetLastError());
	EXPECT_EQ(cudaErrorInvalidDeviceFunction, cudaLaunchKernel(NULL, d3(1, 1, 1),
								   d3(1, 1, 1), fargs, 0, 0));
	EXPECT_EQ(cudaErrorInvalidResourceHandle,
		  __cudaGetKernel(&k, (const void *)k_unregistered));
	EXPECT_EQ(NULL, k);
	EXPECT_EQ(cudaErrorInvalidValue, __cudaGetKernel(NULL, (const void *)k_fill));
	EXPECT_EQ(cudaErrorInvalidResourceHandle,
		  __cudaLaunchKernel((cudaKernel_t)&k, d3(1, 1, 1), d3(1, 1, 1), fargs, 0, 0));
	EXPECT_EQ(cudaErrorInvalidDeviceFunction,
		  __cudaLaunchKernel(NULL, d3(1, 1, 1), d3(1, 1, 1), fargs, 0, 0));

	capture_stderr(launch_nowhere_twice, e, err, sizeof(err));
	EXPECT_EQ(cudaErrorNoKernelImageForDevice, e[0]);
	EXPECT_EQ(cudaErrorNoKernelImageForDevice, e[1]);
	EXPECT_EQ(1, count_lines(err));
	EXPECT_NE(NULL, strstr(err, NOIMPL));
	EXPECT_EQ(cudaErrorNoKernelImageForDevice, cudaGetLastError());

#define BAD_CONFIG(g, b, sh) \
	EXPECT_EQ(cudaErrorInvalidValue, cudaLaunchKernel((const void *)k_fill, (g), (b), \
							  fargs, (sh), 0))
	BAD_CONFIG(d3(0, 1, 1), d3(1, 1, 1), 0);
	BAD_CONFIG(d3(1, 1, 1), d3(0, 1, 1), 0);
	BAD_CONFIG(d3(1, 65536, 1), d3(1, 1, 1), 0);
	BAD_CONFIG(d3(1, 1, 65536), d3(1, 1, 1), 0);
	BAD_CONFIG(d3(1, 1, 1), d3(1025, 1, 1), 0);
	BAD_CONFIG(d3(1, 1, 1), d3(32, 32, 2), 0);
	BAD_CONFIG(d3(1, 1, 1), d3(1, 1, 65), 0);
	BAD_CONFIG(d3(1, 1, 1), d3(1, 1, 1), 49153);
	EXPECT_EQ(cudaErrorInvalidValue, cudaGetLastError());

	/* the implementation refuses missing arguments */
	EXPECT_EQ(cudaErrorInvalidValue, cudaLaunchKernel((const void *)k_fill, d3(1, 1, 1),
							  d3(1, 1, 1), NULL, 0, 0));
	ASSERT_EQ(cudaSuccess, cudaStreamCreate(&dead));
	ASSERT_EQ(cudaSuccess, cudaStreamDestroy(dead));
	EXPECT_EQ(cudaErrorInvalidResourceHandle,
		  cudaLaunchKernel((const void *)k_fill, d3(1, 1, 1), d3(1, 1, 1), fargs, 0, dead));

	/* the call configuration */
	EXPECT_EQ(cudaErrorMissingConfiguration, __cudaPopCallConfiguration(&g, &b, &sh, &s));
	EXPECT_EQ(0, __cudaPushCallConfiguration(d3(3, 2, 1), d3(4, 5, 6), 77, self->s));
	EXPECT_EQ(0, __cudaPushCallConfiguration(d3(9, 1, 1), d3(8, 1, 1), 0, 0));
	EXPECT_EQ(cudaErrorInvalidValue, __cudaPopCallConfiguration(&g, NULL, &sh, &s));
	EXPECT_EQ(cudaSuccess, __cudaPopCallConfiguration(&g, &b, &sh, &s));
	EXPECT_EQ(9, g.x);
	EXPECT_EQ(NULL, s);
	EXPECT_EQ(cudaSuccess, __cudaPopCallConfiguration(&g, &b, &sh, &s));
	EXPECT_EQ(3, g.x);
	EXPECT_EQ(2, g.y);
	EXPECT_EQ(6, b.z);
	EXPECT_EQ(77, sh);
	EXPECT_EQ(self->s, s);
	EXPECT_EQ(cudaSuccess, cudaDeviceSynchronize());
	EXPECT_TRUE(all_equal(self->m, N, 0));	/* nothing ran */
	cudaGetLastError();
}

TEST_F(launch, func_attributes)
{
	struct cudaFuncAttributes a;
	uint64_t *p = self->m;
	size_t n = N;
	uint64_t v = 3;
	void *fargs[] = { &p, &n, &v };

	if (!self->s)
		return;	/* skipped in setup */
	memset(&a, 0x5a, sizeof(a));
	ASSERT_EQ(cudaSuccess, cudaFuncGetAttributes(&a, (const void *)k_inc));
	EXPECT_EQ(0, a.sharedSizeBytes);
	EXPECT_EQ(0, a.constSizeBytes);
	EXPECT_EQ(0, a.localSizeBytes);
	EXPECT_EQ(1024, a.maxThreadsPerBlock);
	EXPECT_EQ(0, a.numRegs);
	EXPECT_EQ(90, a.ptxVersion);
	EXPECT_EQ(90, a.binaryVersion);
	EXPECT_EQ(49152, a.maxDynamicSharedSizeBytes);
	EXPECT_EQ(-1, a.preferredShmemCarveout);
	EXPECT_EQ(0, a.clusterDimMustBeSet);
	EXPECT_EQ(0, a.reserved[15]);
	EXPECT_EQ(cudaErrorInvalidValue, cudaFuncGetAttributes(NULL, (const void *)k_inc));
	EXPECT_EQ(cudaErrorInvalidResourceHandle,
		  cudaFuncGetAttributes(&a, (const void *)k_unregistered));

	EXPECT_EQ(cudaSuccess, cudaFuncSetAttribute((const void *)k_fill,
						    cudaFuncAttributeMaxDynamicSharedMemorySize,
						    65536));
	EXPECT_EQ(cudaSuccess, cudaFuncSetAttribute((const void *)k_fill,
						    cudaFuncAttributePreferredSharedMemoryCarveout,
						    50));
	ASSERT_EQ(cudaSuccess, cudaFuncGetAttributes(&a, (const void *)k_fill));
	EXPECT_EQ(65536, a.maxDynamicSharedSizeBytes);
	EXPECT_EQ(50, a.preferredShmemCarveout);
	EXPECT_EQ(cudaErrorInvalidValue,
		  cudaFuncSetAttribute((const void *)k_fill,
				       cudaFuncAttributeMaxDynamicSharedMemorySize, 232449));
	EXPECT_EQ(cudaErrorInvalidValue,
		  cudaFuncSetAttribute((const void *)k_fill,
				       cudaFuncAttributeMaxDynamicSharedMemorySize, -1));
	EXPECT_EQ(cudaErrorInvalidValue,
		  cudaFuncSetAttribute((const void *)k_fill,
				       cudaFuncAttributePreferredSharedMemoryCarveout, 101));
	EXPECT_EQ(cudaErrorNotSupported,
		  cudaFuncSetAttribute((const void *)k_fill, cudaFuncAttributeRequiredClusterWidth,
				       2));
	EXPECT_EQ(cudaErrorInvalidValue,
		  cudaFuncSetAttribute((const void *)k_fill, (enum cudaFuncAttribute)3, 0));
	EXPECT_EQ(cudaErrorInvalidResourceHandle,
		  cudaFuncSetAttribute((const void *)k_unregistered,
				       cudaFuncAttributeMaxDynamicSharedMemorySize, 0));
	ASSERT_EQ(cudaSuccess, cudaFuncGetAttributes(&a, (const void *)k_fill));
	EXPECT_EQ(65536, a.maxDynamicSharedSizeBytes);	/* unchanged by the refusals */

	/* a launch may now ask for 60000 bytes */
	EXPECT_EQ(cudaSuccess, cudaLaunchKernel((const void *)k_fill, d3(1, 1, 1), d3(1, 1, 1),
						fargs, 60000, 0));
	EXPECT_EQ(cudaErrorInvalidValue,
		  cudaLaunchKernel((const void *)k_fill, d3(1, 1, 1), d3(1, 1, 1), fargs, 65537,
				   0));
	EXPECT_EQ(cudaSuccess, cudaDeviceSynchronize());
	EXPECT_TRUE(all_equal(self->m, N, 3));

	EXPECT_EQ(cudaSuccess, cudaFuncSetCacheConfig((const void *)k_fill, cudaFuncCachePreferL1));
	EXPECT_EQ(cudaErrorInvalidValue,
		  cudaFuncSetCacheConfig((const void *)k_fill, (enum cudaFuncCache)4));
	EXPECT_EQ(cudaErrorInvalidResourceHandle,
		  cudaFuncSetCacheConfig((const void *)k_unregistered, cudaFuncCachePreferL1));
	cudaGetLastError();
}

TEST_F(launch, occupancy)
{
	const void *f = (const void *)k_inc;
	size_t smem = 1;
	int n = -1;

	if (!self->s)
		return;	/* skipped in setup */
	EXPECT_EQ(cudaSuccess, cudaOccupancyMaxActiveBlocksPerMultiprocessor(&n, f, 256, 0));
	EXPECT_EQ(8, n);	/* 2048 threads an SM */
	EXPECT_EQ(cudaSuccess, cudaOccupancyMaxActiveBlocksPerMultiprocessor(&n, f, 32, 0));
	EXPECT_EQ(32, n);	/* 32 blocks an SM */
	EXPECT_EQ(cudaSuccess, cudaOccupancyMaxActiveBlocksPerMultiprocessor(&n, f, 1024, 0));
	EXPECT_EQ(2, n);
	EXPECT_EQ(cudaSuccess, cudaOccupancyMaxActiveBlocksPerMultiprocessor(&n, f, 1025, 0));
	EXPECT_EQ(0, n);
	EXPECT_EQ(cudaSuccess, cudaOccupancyMaxActiveBlocksPerMultiprocessor(&n, f, 64, 40000));
	EXPECT_EQ(5, n);	/* 233472 / (40000 + 1024) */
	EXPECT_EQ(cudaSuccess, cudaOccupancyMaxActiveBlocksPerMultiprocessor(&n, f, 64, 60000));
	EXPECT_EQ(0, n);	/* over the kernel's 48 KiB */
	EXPECT_EQ(cudaSuccess, cudaOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(
				       &n, f, 256, 0, cudaOccupancyDisableCachingOverride));
	EXPECT_EQ(8, n);
	EXPECT_EQ(cudaErrorInvalidValue,
		  cudaOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(&n, f, 256, 0, 2));
	EXPECT_EQ(cudaErrorInvalidValue,
		  cudaOccupancyMaxActiveBlocksPerMultiprocessor(&n, f, 0, 0));
	EXPECT_EQ(cudaErrorInvalidValue,
		  cudaOccupancyMaxActiveBlocksPerMultiprocessor(NULL, f, 256, 0));
	EXPECT_EQ(cudaErrorInvalidResourceHandle,
		  cudaOccupancyMaxActiveBlocksPerMultiprocessor(&n, (const void *)k_unregistered,
								256, 0));
	EXPECT_EQ(cudaSuccess, cudaOccupancyAvailableDynamicSMemPerBlock(&smem, f, 2, 256));
	EXPECT_EQ(49152, smem);		/* 233472 / 2 - 1024, capped at the kernel's maximum */
	EXPECT_EQ(cudaSuccess, cudaOccupancyAvailableDynamicSMemPerBlock(&smem, f, 9, 256));
	EXPECT_EQ(0, smem);		/* 9 blocks of 256 do not fit */
	EXPECT_EQ(cudaErrorInvalidValue, cudaOccupancyAvailableDynamicSMemPerBlock(&smem, f, 0,
										   256));
	cudaGetLastError();
}

TEST_F(launch, unregister)
{
	uint64_t *p = self->m;
	size_t n = N;
	void *iargs[] = { &p, &n };
	struct cudaFuncAttributes a;
	cudaKernel_t k = NULL;
	void **h = self->h;

	if (!self->s)
		return;	/* skipped in setup */
	ASSERT_EQ(cudaSuccess, __cudaGetKernel(&k, (const void *)k_inc));
	EXPECT_EQ(1, __cudaInitModule(h));
	__cudaUnregisterFatBinary(h);
	self->h = NULL;
	EXPECT_EQ(0, __cudaInitModule(h));
	EXPECT_EQ(cudaErrorInvalidResourceHandle,
		  cudaLaunchKernel((const void *)k_inc, d3(1, 1, 1), d3(1, 1, 1), iargs, 0, 0));
	EXPECT_EQ(cudaErrorInvalidResourceHandle,
		  __cudaLaunchKernel(k, d3(1, 1, 1), d3(1, 1, 1), iargs, 0, 0));
	EXPECT_EQ(cudaErrorInvalidResourceHandle, cudaFuncGetAttributes(&a, (const void *)k_inc));
	__cudaUnregisterFatBinary(h);		/* unknown now: nothing happens */
	__cudaUnregisterFatBinary(NULL);
	__cudaRegisterFunction(h, (const char *)k_inc, (char *)INC, INC, -1, NULL, NULL, NULL,
			       NULL, NULL);	/* an unknown fat binary: ignored */
	EXPECT_EQ(cudaErrorInvalidResourceHandle, __cudaGetKernel(&k, (const void *)k_inc));
	/* registered again, it launches again */
	self->h = register_all();
	EXPECT_EQ(cudaSuccess,
		  cudaLaunchKernel((const void *)k_inc, d3(1, 1, 1), d3(1, 1, 1), iargs, 0, 0));
	EXPECT_EQ(cudaSuccess, cudaDeviceSynchronize());
	EXPECT_TRUE(all_equal(self->m, N, 1));
	cudaGetLastError();
}

static int bad_fn(const struct uvm_kernel_launch *l, struct uvm_kernel *k)
{
	return -EINVAL;
}

TEST_F(launch, register_kernels_bad_input)
{
	const struct uvm_kernel_impl empty_name[] = { { "", bad_fn }, { NULL, NULL } };
	const struct uvm_kernel_impl no_fn[] = { { "_Z1xv", NULL }, { NULL, NULL } };
	const struct uvm_kernel_impl twice[] = {
		{ NOIMPL, bad_fn }, { "_Z1yv", bad_fn }, { "_Z1yv", bad_fn }, { NULL, NULL },
	};
	const struct uvm_kernel_impl taken[] = { { NOIMPL, bad_fn }, { INC, bad_fn },
						 { NULL, NULL } };
	const struct uvm_kernel_impl none[] = { { NULL, NULL } };

	if (!self->s)
		return;	/* skipped in setup */
	EXPECT_EQ(cudaErrorInvalidValue, uvmRegisterKernels(NULL));
	EXPECT_EQ(cudaErrorInvalidValue, uvmRegisterKernels(empty_name));
	EXPECT_EQ(cudaErrorInvalidValue, uvmRegisterKernels(no_fn));
	EXPECT_EQ(cudaErrorInvalidValue, uvmRegisterKernels(twice));
	/* INC is launch_test.so's */
	EXPECT_EQ(cudaErrorInvalidValue, uvmRegisterKernels(taken));
	EXPECT_EQ(cudaErrorInvalidValue, uvmRegisterKernels(program_impls));	/* again */
	EXPECT_EQ(cudaErrorInvalidValue, cudaGetLastError());
	EXPECT_EQ(cudaSuccess, uvmRegisterKernels(none));
	/* none of the refused arrays registered anything: NOIMPL still has no kernel */
	LAUNCH(d3(1, 1, 1), d3(1, 1, 1), 0, 0, k_nowhere());
	EXPECT_EQ(cudaErrorNoKernelImageForDevice, last_launch);
	cudaGetLastError();
}

/*
 * UVM_KERNELS problems, each in a child of its own (UVM_KERNELS is read once
 * a process; the runtime is not initialised before the fork: the module
 * serves only the process that opened it): what it says, what still loads.
 */
struct env_case {
	char list[3 * PATH_MAX];
	cudaError_t inc_result;
	char err[2048];
};

static void env_launch(void *arg)
{
	struct env_case *c = arg;
	void **h;
	uint64_t *m = NULL;
	size_t n = 1;
	void *iargs[] = { &m, &n };
	int ndev = 0;

	setenv("UVM_KERNELS", c->list, 1);
	if (cudaGetDeviceCount(&ndev) != cudaSuccess || !ndev) {
		c->inc_result = cudaErrorNoDevice;
		return;
	}
	h = register_all();
	if (cudaMallocManaged((void **)&m, 4096, cudaMemAttachGlobal)) {
		c->inc_result = cudaErrorUnknown;
		return;
	}
	c->inc_result = cudaLaunchKernel((const void *)k_inc, d3(1, 1, 1), d3(1, 1, 1), iargs,
					 0, 0);
	cudaDeviceSynchronize();
	if (!c->inc_result && *m != 1)
		c->inc_result = cudaErrorUnknown;
	cudaFree(m);
	__cudaUnregisterFatBinary(h);
}

static void env_case_run(struct env_case *c)
{
	int fds[2];
	pid_t pid;

	if (pipe(fds))
		return;
	pid = fork();
	if (!pid) {
		close(fds[0]);
		capture_stderr(env_launch, c, c->err, sizeof(c->err));
		if (write(fds[1], c, sizeof(*c)) != sizeof(*c))
			_exit(1);
		_exit(0);
	}
	close(fds[1]);
	if (read(fds[0], c, sizeof(*c)) != sizeof(*c))
		c->inc_result = cudaErrorUnknown;
	close(fds[0]);
	waitpid(pid, NULL, 0);
}

TEST(uvm_kernels_env)
{
	char so[PATH_MAX + 64], exe_dir[PATH_MAX + 64], lib[PATH_MAX + 128];
	struct env_case c;

	snprintf(so, sizeof(so), "%s", kernels_path("launch_test.so"));
	snprintf(exe_dir, sizeof(exe_dir), "%s", kernels_path(""));
	/* libuvm itself: a shared object without uvm_kernel_impls */
	snprintf(lib, sizeof(lib), "%s/../../../libuvm/libuvm.so.0", exe_dir);

	memset(&c, 0, sizeof(c));
	snprintf(c.list, sizeof(c.list), "/nonexistent/kernels.so:%s", so);
	env_case_run(&c);
	if (c.inc_result == cudaErrorNoDevice)
		SKIP(return, "no device");
	EXPECT_EQ(cudaSuccess, c.inc_result);	/* the other file goes on */
	EXPECT_EQ(1, count_lines(c.err));
	EXPECT_NE(NULL, strstr(c.err, "/nonexistent/kernels.so"));

	memset(&c, 0, sizeof(c));
	snprintf(c.list, sizeof(c.list), "%s::%s", lib, so);
	env_case_run(&c);
	EXPECT_EQ(cudaSuccess, c.inc_result);
	EXPECT_EQ(1, count_lines(c.err));
	EXPECT_NE(NULL, strstr(c.err, "libuvm.so.0"));
	EXPECT_NE(NULL, strstr(c.err, "uvm_kernel_impls"));

	memset(&c, 0, sizeof(c));
	snprintf(c.list, sizeof(c.list), "%s:%s", so, so);
	env_case_run(&c);
	EXPECT_EQ(cudaSuccess, c.inc_result);	/* the first copy's kernels */
	EXPECT_EQ(1, count_lines(c.err));
	EXPECT_NE(NULL, strstr(c.err, "already registered"));
	EXPECT_NE(NULL, strstr(c.err, "_Z3incPmm"));

	memset(&c, 0, sizeof(c));
	snprintf(c.list, sizeof(c.list), "/nonexistent/kernels.so");
	env_case_run(&c);
	EXPECT_EQ(cudaErrorNoKernelImageForDevice, c.inc_result);
	EXPECT_EQ(2, count_lines(c.err));	/* the file, then the kernel */
	EXPECT_NE(NULL, strstr(c.err, "_Z3incPmm"));
}

TEST_HARNESS_MAIN
