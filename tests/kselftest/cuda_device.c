// SPDX-License-Identifier: GPL-2.0
// LDLIBS: -luvm
/*
 * cuda_device.c - CUDA runtime device calls of libuvm against the loaded
 * uvm module (run in the VM). Without the module every test fails, by
 * design: the fixture requires cudaGetDeviceCount() to succeed.
 */
#include <errno.h>
#include <limits.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>

#include "../../include/uvm/cuda_runtime_api.h"
#include "../../include/uvm/uvm.h"
#include "cuda_test_util.h"
#include "kselftest_harness.h"

/* Does the module mirror pageable memory (docs/pageable-memory.md)? */
static int mirror_on(void)
{
	return pageable_level_is("mirror") || pageable_level_is("migrate");
}

FIXTURE(devices) {
	int count;
};

FIXTURE_SETUP(devices)
{
	ASSERT_EQ(cudaSuccess, cudaGetDeviceCount(&self->count));
	ASSERT_GT(self->count, 0);
}

FIXTURE_TEARDOWN(devices) {}

TEST_F(devices, count_matches_native_api)
{
	struct uvm_context *ctx;

	ASSERT_EQ(0, uvm_open(&ctx));
	EXPECT_EQ(self->count, uvm_device_count(ctx));
	uvm_close(ctx);
}

TEST_F(devices, set_get_device)
{
	int d = -1;

	EXPECT_EQ(cudaSuccess, cudaGetDevice(&d));
	EXPECT_EQ(0, d);
	EXPECT_EQ(cudaSuccess, cudaSetDevice(self->count - 1));
	EXPECT_EQ(cudaSuccess, cudaGetDevice(&d));
	EXPECT_EQ(self->count - 1, d);
	EXPECT_EQ(cudaErrorInvalidDevice, cudaSetDevice(self->count));
	EXPECT_EQ(cudaErrorInvalidDevice, cudaSetDevice(-1));
	EXPECT_EQ(cudaErrorInvalidDevice, cudaGetLastError());
	EXPECT_EQ(cudaSuccess, cudaGetLastError());	/* reset by the read */
	EXPECT_EQ(cudaErrorInvalidValue, cudaGetDevice(NULL));
	EXPECT_EQ(cudaErrorInvalidValue, cudaPeekAtLastError());
	EXPECT_EQ(cudaErrorInvalidValue, cudaPeekAtLastError());	/* peek keeps it */
	cudaGetLastError();
}

static void *other_thread(void *arg)
{
	int d = -1;

	cudaGetDevice(&d);
	*(int *)arg = d * 100 + (int)cudaGetLastError();
	return NULL;
}

TEST_F(devices, current_device_and_last_error_are_per_thread)
{
	pthread_t t;
	int r = -1;

	ASSERT_EQ(cudaSuccess, cudaSetDevice(self->count - 1));
	EXPECT_EQ(cudaErrorInvalidDevice, cudaSetDevice(INT_MAX));
	ASSERT_EQ(0, pthread_create(&t, NULL, other_thread, &r));
	pthread_join(t, NULL);
	EXPECT_EQ(0, r);	/* device 0, no error in the new thread */
	EXPECT_EQ(cudaErrorInvalidDevice, cudaGetLastError());
	cudaSetDevice(0);
}

TEST_F(devices, properties)
{
	struct cudaDeviceProp p;
	struct uvm_context *ctx;
	struct uvm_device_info di;
	int d;

	ASSERT_EQ(0, uvm_open(&ctx));
	for (d = 0; d < self->count; d++) {
		ASSERT_EQ(cudaSuccess, cudaGetDeviceProperties(&p, d));
		ASSERT_EQ(0, uvm_device_get_info(ctx, d, &di));
		EXPECT_STREQ(di.name, p.name);
		EXPECT_EQ(di.mem_total, p.totalGlobalMem);
		EXPECT_EQ(1, p.unifiedAddressing);
		EXPECT_EQ(1, p.managedMemory);
		EXPECT_EQ(1, p.concurrentManagedAccess);
		EXPECT_EQ(mirror_on(), p.pageableMemoryAccess);
		EXPECT_EQ(1, p.canMapHostMemory);
		EXPECT_EQ(0, p.integrated);
		EXPECT_EQ(9, p.major);
		EXPECT_EQ(0, p.minor);
		EXPECT_EQ((int)di.pci_bus, p.pciBusID);
		EXPECT_EQ((int)di.pci_dev, p.pciDeviceID);
		EXPECT_EQ((int)di.pci_domain, p.pciDomainID);
		EXPECT_EQ(di.numa_node, p.hostNumaId);
		if (di.backend == UVM_DEVICE_BACKEND_EMULATED)
			EXPECT_EQ(0xffff, p.pciDomainID);
	}
	uvm_close(ctx);
	EXPECT_EQ(cudaErrorInvalidDevice, cudaGetDeviceProperties(&p, self->count));
	EXPECT_EQ(cudaErrorInvalidValue, cudaGetDeviceProperties(NULL, 0));
	cudaGetLastError();
}

TEST_F(devices, attributes_agree_with_properties)
{
	static const struct { enum cudaDeviceAttr a; int want; } fixed[] = {
		{ cudaDevAttrManagedMemory, 1 },
		{ cudaDevAttrConcurrentManagedAccess, 1 },
		{ cudaDevAttrPageableMemoryAccessUsesHostPageTables, 0 },
		{ cudaDevAttrUnifiedAddressing, 1 },
		{ cudaDevAttrCanMapHostMemory, 1 },
		{ cudaDevAttrIntegrated, 0 },
		{ cudaDevAttrDirectManagedMemAccessFromHost, 0 },
		{ cudaDevAttrNumaConfig, 0 },
		{ cudaDevAttrNumaId, -1 },
		{ cudaDevAttrSparseCudaArraySupported, 0 },
		{ cudaDevAttrDeferredMappingCudaArraySupported, 0 },
		{ cudaDevAttrMaxPitch, INT_MAX },
		{ cudaDevAttrTexturePitchAlignment, 32 },
		{ cudaDevAttrTextureAlignment, 512 },
	};
	struct cudaDeviceProp p;
	unsigned int i;
	int v, d;

	for (d = 0; d < self->count; d++) {
		ASSERT_EQ(cudaSuccess, cudaGetDeviceProperties(&p, d));
		for (i = 0; i < sizeof(fixed) / sizeof(fixed[0]); i++) {
			v = -12345;
			EXPECT_EQ(cudaSuccess, cudaDeviceGetAttribute(&v, fixed[i].a, d));
			EXPECT_EQ(fixed[i].want, v);
		}
		EXPECT_EQ(cudaSuccess, cudaDeviceGetAttribute(&v, cudaDevAttrPageableMemoryAccess, d));
		EXPECT_EQ(mirror_on(), v);
		EXPECT_EQ(cudaSuccess, cudaDeviceGetAttribute(&v, cudaDevAttrHostNumaId, d));
		EXPECT_EQ(p.hostNumaId, v);
		EXPECT_EQ(cudaSuccess, cudaDeviceGetAttribute(&v, cudaDevAttrPciBusId, d));
		EXPECT_EQ(p.pciBusID, v);
	}
}

TEST_F(devices, attribute_errors)
{
	int v = 7;

	EXPECT_EQ(cudaErrorInvalidValue, cudaDeviceGetAttribute(NULL, cudaDevAttrManagedMemory, 0));
	EXPECT_EQ(cudaErrorInvalidDevice,
		  cudaDeviceGetAttribute(&v, cudaDevAttrManagedMemory, self->count));
	EXPECT_EQ(cudaErrorInvalidDevice, cudaDeviceGetAttribute(&v, cudaDevAttrManagedMemory, -1));
	EXPECT_EQ(cudaErrorInvalidValue, cudaDeviceGetAttribute(&v, (enum cudaDeviceAttr)0, 0));
	EXPECT_EQ(cudaErrorInvalidValue, cudaDeviceGetAttribute(&v, cudaDevAttrMax, 0));
	EXPECT_EQ(cudaErrorInvalidValue, cudaDeviceGetAttribute(&v, cudaDevAttrReserved92, 0));
	EXPECT_EQ(7, v);
	cudaGetLastError();
}

TEST_F(devices, pci_bus_id)
{
	struct cudaDeviceProp p;
	char want[32], bus[32], tiny[5];

	ASSERT_EQ(cudaSuccess, cudaGetDeviceProperties(&p, 0));
	ASSERT_EQ(cudaSuccess, cudaDeviceGetPCIBusId(bus, sizeof(bus), 0));
	snprintf(want, sizeof(want), "%04x:%02x:%02x.", p.pciDomainID, p.pciBusID, p.pciDeviceID);
	EXPECT_EQ(0, strncmp(want, bus, strlen(want)));
	EXPECT_EQ(cudaSuccess, cudaDeviceGetPCIBusId(tiny, sizeof(tiny), 0));
	EXPECT_EQ(4, strlen(tiny));
	EXPECT_EQ(cudaErrorInvalidValue, cudaDeviceGetPCIBusId(NULL, 32, 0));
	EXPECT_EQ(cudaErrorInvalidValue, cudaDeviceGetPCIBusId(bus, 0, 0));
	EXPECT_EQ(cudaErrorInvalidDevice, cudaDeviceGetPCIBusId(bus, 32, self->count));
	cudaGetLastError();
}

TEST_F(devices, versions)
{
	int v = 0;

	EXPECT_EQ(cudaSuccess, cudaDriverGetVersion(&v));
	EXPECT_EQ(13000, v);
	EXPECT_EQ(cudaSuccess, cudaRuntimeGetVersion(&v));
	EXPECT_EQ(13000, v);
}

TEST_HARNESS_MAIN
