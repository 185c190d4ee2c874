// SPDX-License-Identifier: GPL-2.0
/*
 * Oversubscription: a 256 MiB working set swept by the device-access path
 * and by the CPU in alternation on devices with 64 MiB of memory, data
 * verified after every sweep; device memory returns to full at the end.
 * Group "oversub": --devices 64M --emulated 1 --emulated-mb 64.
 */
#include <stdio.h>

#include "kselftest_harness.h"
#include "uvm_test_util.h"

#define WS	(256 * MIB)
#define STEP	(4 * MIB)

static void sweep_device_write(struct __test_metadata *_metadata, int fd,
			       int dev, unsigned char *p, unsigned char *buf,
			       uint64_t seed)
{
	size_t off;

	for (off = 0; off < WS; off += STEP) {
		uvm_fill(buf, STEP, seed + off);
		ASSERT_EQ(0, uvm_dev_write(fd, dev, p + off, STEP, buf));
	}
}

static void sweep_device_check(struct __test_metadata *_metadata, int fd,
			       int dev, unsigned char *p, unsigned char *buf,
			       uint64_t seed)
{
	size_t off;

	for (off = 0; off < WS; off += STEP) {
		ASSERT_EQ(0, uvm_dev_read(fd, dev, p + off, STEP, buf));
		ASSERT_EQ(0, uvm_check(buf, STEP, seed + off)) TH_LOG("off %zu", off);
	}
}

static void run(struct __test_metadata *_metadata, int dev)
{
	int fd = uvm_open();
	unsigned char *p, *buf = malloc(STEP);
	uint64_t free0, ev0;
	size_t off;
	int round;

	ASSERT_LE(0, fd);
	free0 = uvm_dev_free(fd, dev);
	ASSERT_LE(free0, 64 * MIB) TH_LOG("device %d is not 64 MiB", dev);
	p = uvm_map(fd, WS);
	ASSERT_NE(NULL, p);
	ev0 = uvm_stat(fd, UVM_STAT_EVICTIONS, UVM_STATS_VA_SPACE);
	for (round = 0; round < 2; round++) {
		uint64_t seed = 1000 * round;

		sweep_device_write(_metadata, fd, dev, p, buf, seed);
		sweep_device_check(_metadata, fd, dev, p, buf, seed);
		for (off = 0; off < WS; off += STEP)	/* CPU sweep */
			ASSERT_EQ(0, uvm_check(p + off, STEP, seed + off));
		for (off = 0; off < WS; off += STEP)
			uvm_fill(p + off, STEP, seed + 7 + off);
		sweep_device_check(_metadata, fd, dev, p, buf, seed + 7);
	}
	EXPECT_LT(ev0, uvm_stat(fd, UVM_STAT_EVICTIONS, UVM_STATS_VA_SPACE));
	EXPECT_LT(0, uvm_stat(fd, UVM_STAT_EVICTED_BYTES, UVM_STATS_VA_SPACE));
	/* Prefetching it all to the device works too (LRU eviction). */
	ASSERT_EQ(0, uvm_prefetch(fd, p, WS, UVM_LOC_DEVICE, dev));
	EXPECT_EQ(0, uvm_check(p, STEP, 1007));
	munmap(p, WS);
	EXPECT_EQ(free0, uvm_dev_free(fd, dev));
	close(fd);
	free(buf);
}

/* Heavy under emulation: a generous timeout instead of the default 30 s. */
FIXTURE(big) {};
FIXTURE_SETUP(big) {}
FIXTURE_TEARDOWN(big) {}

TEST_F_TIMEOUT(big, pci_device_64mib, 600)
{
	int fd = uvm_open(), dev;

	ASSERT_LE(0, fd);
	dev = uvm_find_device(fd, UVM_BACKEND_PCI_BAR, 0);
	close(fd);
	if (dev < 0)
		SKIP(return, "no PCI device");
	run(_metadata, dev);
}

TEST_F_TIMEOUT(big, emulated_device_64mib, 600)
{
	int fd = uvm_open(), dev;

	ASSERT_LE(0, fd);
	dev = uvm_find_device(fd, UVM_BACKEND_EMULATED, 0);
	close(fd);
	if (dev < 0)
		SKIP(return, "no emulated device");
	run(_metadata, dev);
}

TEST_HARNESS_MAIN
