// SPDX-License-Identifier: GPL-2.0
/*
 * Out of device memory with managed data present: a device allocation
 * (cudaMalloc) evicts managed data (which stays intact, now on the host);
 * device allocations are never evicted: once only they fill the device, the
 * next one fails with -ENOSPC. A prefetch larger than the device memory
 * left free goes through: each block evicts the one before (a prefetch
 * holds two blocks at a time, and must let go of the first when the second
 * needs its room). Group "oversub" (64 MiB devices).
 */
#include <stdio.h>

#include "kselftest_harness.h"
#include "alloc_util.h"

static void run(struct __test_metadata *_metadata, int dev)
{
	int fd = uvm_open(), n = 0, i;
	size_t mlen = 48 * MIB, dlen = 8 * MIB;
	unsigned char *m, *d[16], *buf = malloc(dlen);
	uint64_t ev0, free0;

	ASSERT_LE(0, fd);
	free0 = uvm_dev_free(fd, dev);
	m = uvm_map(fd, mlen);
	ASSERT_NE(NULL, m);
	uvm_fill(m, mlen, 5);
	ASSERT_EQ(0, uvm_prefetch(fd, m, mlen, UVM_LOC_DEVICE, dev));
	EXPECT_NE(0, uvm_res1(fd, m).devices_resident);
	ev0 = uvm_stat(fd, UVM_STAT_EVICTIONS, UVM_STATS_VA_SPACE);

	/* Device allocations until the device is full of them alone. */
	for (n = 0; n < 16; n++) {
		d[n] = dalloc(fd, dev, dlen);
		if (!d[n])
			break;
		memset(buf, 0x40 + n, dlen);
		ASSERT_EQ(0, mcpy(fd, d[n], buf, dlen));
	}
	EXPECT_EQ(ENOSPC, errno);
	EXPECT_LE(free0 / dlen - 1, (uint64_t)n);
	EXPECT_LT(ev0, uvm_stat(fd, UVM_STAT_EVICTIONS, UVM_STATS_VA_SPACE));
	EXPECT_EQ(0, uvm_res1(fd, m).devices_resident);

	/* Managed data survived eviction; device allocations are intact. */
	EXPECT_EQ(0, uvm_check(m, mlen, 5));
	for (i = 0; i < n; i++) {
		memset(buf, 0, dlen);
		ASSERT_EQ(0, mcpy(fd, buf, d[i], dlen));
		EXPECT_EQ(0x40 + i, buf[dlen - 1]);
		EXPECT_EQ(0x40 + i, buf[0]);
	}
	/* Managed data can no longer go to the device: it stays on the host. */
	EXPECT_EQ(-ENOSPC, uvm_prefetch(fd, m, 4 * MIB, UVM_LOC_DEVICE, dev));
	EXPECT_EQ(0, uvm_check(m, mlen, 5));
	for (i = 0; i < n; i++) {
		EXPECT_EQ(0, ufree_unmap(fd, d[i], dlen));
	}
	munmap(m, mlen);
	EXPECT_EQ(free0, uvm_dev_free(fd, dev));
	close(fd);
	free(buf);
}

/*
 * The device full of device allocations but one block's worth: an 8 MiB
 * prefetch still succeeds, each block evicting the previous one, the last
 * block ends on the device, and every byte survives.
 */
static void run_one_chunk(struct __test_metadata *_metadata, int dev)
{
	int fd = uvm_open(), n, i;
	size_t mlen = 8 * MIB, dlen = 2 * MIB;
	unsigned char *m, *d[64];
	uint64_t ev0, free0, left;

	ASSERT_LE(0, fd);
	free0 = uvm_dev_free(fd, dev);
	for (n = 0; n < 64; n++) {
		d[n] = dalloc(fd, dev, dlen);
		if (!d[n])
			break;
	}
	ASSERT_EQ(ENOSPC, errno);
	ASSERT_LT(0, n);
	left = uvm_dev_free(fd, dev);
	ASSERT_GT(dlen, left);
	ASSERT_EQ(0, ufree_unmap(fd, d[--n], dlen));
	ASSERT_EQ(left + dlen, uvm_dev_free(fd, dev));

	m = uvm_map(fd, mlen);
	ASSERT_NE(NULL, m);
	uvm_fill(m, mlen, 9);
	ev0 = uvm_stat(fd, UVM_STAT_EVICTIONS, UVM_STATS_VA_SPACE);
	EXPECT_EQ(0, uvm_prefetch(fd, m, mlen, UVM_LOC_DEVICE, dev));
	EXPECT_EQ(ev0 + mlen / dlen - 1,
		  uvm_stat(fd, UVM_STAT_EVICTIONS, UVM_STATS_VA_SPACE));
	EXPECT_EQ(0, uvm_res1(fd, m).devices_resident);
	EXPECT_NE(0, uvm_res1(fd, m + mlen - dlen).devices_resident);
	EXPECT_EQ(0, uvm_check(m, mlen, 9));
	munmap(m, mlen);
	for (i = 0; i < n; i++) {
		EXPECT_EQ(0, ufree_unmap(fd, d[i], dlen));
	}
	EXPECT_EQ(free0, uvm_dev_free(fd, dev));
	close(fd);
}

/* The first device of @backend, or -1. */
static int first_dev(struct __test_metadata *_metadata, int backend)
{
	int fd = uvm_open(), dev;

	ASSERT_LE(0, fd);
	dev = uvm_find_device(fd, backend, 0);
	close(fd);
	return dev;
}

/* Heavy under emulation: a generous timeout instead of the default 30 s. */
FIXTURE(big) {};
FIXTURE_SETUP(big) {}
FIXTURE_TEARDOWN(big) {}

TEST_F_TIMEOUT(big, pci_device, 600)
{
	int dev = first_dev(_metadata, UVM_BACKEND_PCI_BAR);

	if (dev < 0)
		SKIP(return, "no PCI device");
	run(_metadata, dev);
}

TEST_F_TIMEOUT(big, pci_device_one_free_chunk, 600)
{
	int dev = first_dev(_metadata, UVM_BACKEND_PCI_BAR);

	if (dev < 0)
		SKIP(return, "no PCI device");
	run_one_chunk(_metadata, dev);
}

TEST_F_TIMEOUT(big, emulated_device_one_free_chunk, 600)
{
	int dev = first_dev(_metadata, UVM_BACKEND_EMULATED);

	if (dev < 0)
		SKIP(return, "no emulated device");
	run_one_chunk(_metadata, dev);
}

TEST_F_TIMEOUT(big, emulated_device, 600)
{
	int dev = first_dev(_metadata, UVM_BACKEND_EMULATED);

	if (dev < 0)
		SKIP(return, "no emulated device");
	run(_metadata, dev);
}

TEST_HARNESS_MAIN
