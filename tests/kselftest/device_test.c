// SPDX-License-Identifier: GPL-2.0
/*
 * Managed memory, device side: device residency and migration (host <->
 * device, device <-> device), device faults through the device-access
 * path, CPU fault-back, read duplication, remote mapping (accessed-by,
 * preferred location), discard, atomics, process exit, concurrency.
 * Needs at least two devices (group "device": two ivshmem BARs + one
 * emulated device).
 */
#include <pthread.h>
#include <stdio.h>
#include <sys/wait.h>

#include "kselftest_harness.h"
#include "uvm_test_util.h"

FIXTURE(dev)
{
	int fd;
	int a, b;	/* two devices (a: PCI if any) */
	int ndev;
};

FIXTURE_SETUP(dev)
{
	struct uvm_device_info info[UVM_MAX_DEVICES];

	self->fd = uvm_open();
	ASSERT_LE(0, self->fd);
	self->ndev = uvm_devices(self->fd, info, UVM_MAX_DEVICES);
	if (self->ndev < 2)
		SKIP(return, "needs 2 devices");
	uvm_two_devices(self->fd, &self->a, &self->b);
}

FIXTURE_TEARDOWN(dev)
{
	close(self->fd);
}

static uint64_t st(int fd, unsigned int s)
{
	return uvm_stat(fd, s, UVM_STATS_VA_SPACE);
}

static int on_dev(int fd, void *p, int dev)
{
	struct uvm_page_residency r = uvm_res1(fd, p);

	return !!(r.devices_resident & (1ULL << dev));
}

TEST_F(dev, host_to_device_to_host_byte_exact)
{
	size_t len = 4 * MIB + 3 * PAGE;
	unsigned char *p = uvm_map(self->fd, len), *buf = malloc(len);
	uint64_t h2d = st(self->fd, UVM_STAT_MIGRATE_H2D_PAGES);
	uint64_t d2h = st(self->fd, UVM_STAT_MIGRATE_D2H_PAGES);
	int dev;

	ASSERT_NE(NULL, p);
	uvm_fill(p, len, 11);
	for (dev = 0; dev < self->ndev; dev++) {
		ASSERT_EQ(0, uvm_prefetch(self->fd, p, len, UVM_LOC_DEVICE, dev));
		EXPECT_TRUE(on_dev(self->fd, p, dev));
		EXPECT_TRUE(on_dev(self->fd, p + len - 1, dev));
		EXPECT_EQ(-1, uvm_page_node(self->fd, p + PAGE));
		memset(buf, 0, len);
		ASSERT_EQ(0, uvm_dev_read(self->fd, dev, p, len, buf));
		EXPECT_EQ(0, uvm_check(buf, len, 11));
		ASSERT_EQ(0, uvm_prefetch(self->fd, p, len, UVM_LOC_HOST_NUMA,
					  dev & 1));
		EXPECT_EQ(dev & 1, uvm_page_node(self->fd, p + len - 1));
		EXPECT_FALSE(on_dev(self->fd, p, dev));
		EXPECT_EQ(0, uvm_check(p, len, 11));
	}
	EXPECT_LE(h2d + self->ndev * (len / PAGE),
		  st(self->fd, UVM_STAT_MIGRATE_H2D_PAGES));
	EXPECT_LE(d2h + self->ndev * (len / PAGE),
		  st(self->fd, UVM_STAT_MIGRATE_D2H_PAGES));
	free(buf);
	munmap(p, len);
}

TEST_F(dev, device_to_device_byte_exact)
{
	size_t len = 6 * MIB;
	unsigned char *p = uvm_map(self->fd, len), *buf = malloc(len);
	uint64_t d2d = st(self->fd, UVM_STAT_MIGRATE_D2D_PAGES);

	ASSERT_NE(NULL, p);
	uvm_fill(p, len, 22);
	ASSERT_EQ(0, uvm_prefetch(self->fd, p, len, UVM_LOC_DEVICE, self->a));
	ASSERT_EQ(0, uvm_prefetch(self->fd, p, len, UVM_LOC_DEVICE, self->b));
	EXPECT_TRUE(on_dev(self->fd, p + 5 * MIB, self->b));
	EXPECT_FALSE(on_dev(self->fd, p + 5 * MIB, self->a));
	EXPECT_EQ(d2d + len / PAGE, st(self->fd, UVM_STAT_MIGRATE_D2D_PAGES));
	ASSERT_EQ(0, uvm_dev_read(self->fd, self->b, p, len, buf));
	EXPECT_EQ(0, uvm_check(buf, len, 22));
	ASSERT_EQ(0, uvm_prefetch(self->fd, p, len, UVM_LOC_DEVICE, self->a));
	EXPECT_EQ(0, uvm_check(p, len, 22));	/* CPU fault-back */
	free(buf);
	munmap(p, len);
}

TEST_F(dev, prefetch_to_device_populates_zeroed)
{
	size_t len = 2 * MIB;
	unsigned char *p = uvm_map(self->fd, len), *buf = malloc(len);
	size_t i;

	ASSERT_NE(NULL, p);
	ASSERT_EQ(0, uvm_prefetch(self->fd, p, len, UVM_LOC_DEVICE, self->a));
	EXPECT_TRUE(on_dev(self->fd, p, self->a));
	memset(buf, 0x5a, len);
	ASSERT_EQ(0, uvm_dev_read(self->fd, self->a, p, len, buf));
	for (i = 0; i < len; i += 999) {
		ASSERT_EQ(0, buf[i]);
	}
	for (i = 0; i < len; i += 999) {
		ASSERT_EQ(0, p[i]);
	}
	free(buf);
	munmap(p, len);
}

TEST_F(dev, cpu_fault_back_migrates_home)
{
	size_t len = 64 * PAGE;
	unsigned char *p = uvm_map(self->fd, len);
	uint64_t f0 = st(self->fd, UVM_STAT_CPU_FAULTS);

	ASSERT_NE(NULL, p);
	uvm_fill(p, len, 33);
	ASSERT_EQ(0, uvm_prefetch(self->fd, p, len, UVM_LOC_DEVICE, self->b));
	EXPECT_EQ(-1, uvm_page_node(self->fd, p + 7 * PAGE));
	EXPECT_EQ(uvm_pattern(33, 7 * PAGE + 5), p[7 * PAGE + 5]);
	EXPECT_LE(0, uvm_page_node(self->fd, p + 7 * PAGE));
	EXPECT_FALSE(on_dev(self->fd, p + 7 * PAGE, self->b));
	EXPECT_LT(f0, st(self->fd, UVM_STAT_CPU_FAULTS));
	EXPECT_EQ(0, uvm_check(p, len, 33));
	munmap(p, len);
}

TEST_F(dev, device_write_then_cpu_read)
{
	size_t len = 3 * MIB;
	unsigned char *p = uvm_map(self->fd, len), *buf = malloc(len);
	uint64_t df = st(self->fd, UVM_STAT_DEVICE_FAULTS);
	uint64_t batches = st(self->fd, UVM_STAT_FAULT_BATCHES);

	ASSERT_NE(NULL, p);
	uvm_fill(buf, len, 44);
	ASSERT_EQ(0, uvm_dev_write(self->fd, self->a, p, len, buf));
	EXPECT_TRUE(on_dev(self->fd, p + MIB, self->a));
	EXPECT_EQ(df + len / PAGE, st(self->fd, UVM_STAT_DEVICE_FAULTS));
	/* 768 faults with batches of at most 256 */
	EXPECT_LE(batches + 3, st(self->fd, UVM_STAT_FAULT_BATCHES));
	EXPECT_EQ(0, uvm_check(p, len, 44));
	EXPECT_FALSE(on_dev(self->fd, p + MIB, self->a));
	free(buf);
	munmap(p, len);
}

TEST_F(dev, read_mostly_duplicates_and_collapses)
{
	size_t len = 16 * PAGE;
	unsigned char *p = uvm_map(self->fd, len), buf[64];
	struct uvm_page_residency r;
	uint64_t dups = st(self->fd, UVM_STAT_READ_DUP_COPIES);
	uint64_t coll = st(self->fd, UVM_STAT_READ_DUP_COLLAPSES);

	ASSERT_NE(NULL, p);
	ASSERT_EQ(0, uvm_advise(self->fd, p, len, UVM_ADVISE_SET_READ_MOSTLY,
				0, 0));
	memset(p, 1, len);
	ASSERT_EQ(0, uvm_dev_read(self->fd, self->a, p, 64, buf));
	EXPECT_EQ(1, buf[63]);
	r = uvm_res1(self->fd, p);
	EXPECT_TRUE(r.devices_resident & (1ULL << self->a));
	EXPECT_LE(0, r.cpu_node);	/* both copies exist */
	EXPECT_LT(dups, st(self->fd, UVM_STAT_READ_DUP_COPIES));
	/* A second device gets its own copy too. */
	ASSERT_EQ(0, uvm_dev_read(self->fd, self->b, p, 64, buf));
	r = uvm_res1(self->fd, p);
	EXPECT_TRUE(r.devices_resident & (1ULL << self->b));
	EXPECT_TRUE(r.devices_resident & (1ULL << self->a));

	/* CPU write collapses to the host copy; devices then see it. */
	p[0] = 2;
	r = uvm_res1(self->fd, p);
	EXPECT_EQ(0, r.devices_resident);
	EXPECT_LT(coll, st(self->fd, UVM_STAT_READ_DUP_COLLAPSES));
	ASSERT_EQ(0, uvm_dev_read(self->fd, self->a, p, 64, buf));
	EXPECT_EQ(2, buf[0]);

	/* A device write collapses to that device; the CPU then sees it. */
	buf[0] = 3;
	ASSERT_EQ(0, uvm_dev_write(self->fd, self->b, p, 1, buf));
	r = uvm_res1(self->fd, p);
	EXPECT_EQ(1ULL << self->b, r.devices_resident);
	EXPECT_EQ(-1, r.cpu_node);
	EXPECT_EQ(3, p[0]);
	munmap(p, len);
}

/*
 * A device writing a page it holds a read duplicate of: the other copies
 * go (the write used to land in the device's copy alone, and the CPU kept
 * reading its stale one).
 */
TEST_F(dev, device_write_to_its_own_duplicate_collapses)
{
	size_t len = 4 * PAGE;
	unsigned char *p = uvm_map(self->fd, len), buf[64];
	struct uvm_page_residency r;

	ASSERT_NE(NULL, p);
	ASSERT_EQ(0, uvm_advise(self->fd, p, len, UVM_ADVISE_SET_READ_MOSTLY,
				0, 0));
	memset(p, 1, len);
	ASSERT_EQ(0, uvm_dev_read(self->fd, self->a, p, 64, buf));
	ASSERT_EQ(0, uvm_dev_read(self->fd, self->b, p, 64, buf));
	r = uvm_res1(self->fd, p);
	ASSERT_EQ((1ULL << self->a) | (1ULL << self->b), r.devices_resident);
	ASSERT_LE(0, r.cpu_node);
	memset(buf, 5, sizeof(buf));
	ASSERT_EQ(0, uvm_dev_write(self->fd, self->a, p + 8, 8, buf));
	r = uvm_res1(self->fd, p);
	EXPECT_EQ(1ULL << self->a, r.devices_resident);
	EXPECT_EQ(-1, r.cpu_node);
	EXPECT_EQ(5, p[8]);
	EXPECT_EQ(1, p[7]);
	ASSERT_EQ(0, uvm_dev_read(self->fd, self->b, p, 64, buf));
	EXPECT_EQ(5, buf[15]);
	munmap(p, len);
}

/*
 * A page a device wrote (mapped writable) gets a read duplicate, on the
 * CPU or on another device: the writer's mapping becomes read-only, so its
 * next write collapses the copies instead of changing one of them.
 */
TEST_F(dev, read_duplication_revokes_device_write_mappings)
{
	size_t len = 4 * PAGE;
	unsigned char *p = uvm_map(self->fd, len), buf[64], w[8];

	ASSERT_NE(NULL, p);
	ASSERT_EQ(0, uvm_advise(self->fd, p, len, UVM_ADVISE_SET_READ_MOSTLY,
				0, 0));
	memset(w, 1, sizeof(w));
	ASSERT_EQ(0, uvm_dev_write(self->fd, self->a, p, 8, w));
	EXPECT_EQ(1, p[0]);			/* CPU read: a host duplicate */
	EXPECT_LE(0, uvm_res1(self->fd, p).cpu_node);
	memset(w, 2, sizeof(w));
	ASSERT_EQ(0, uvm_dev_write(self->fd, self->a, p, 8, w));
	EXPECT_EQ(2, p[0]);			/* not the stale duplicate */

	ASSERT_EQ(0, uvm_dev_read(self->fd, self->b, p, 64, buf));
	EXPECT_EQ(2, buf[0]);			/* b: a duplicate */
	memset(w, 3, sizeof(w));
	ASSERT_EQ(0, uvm_dev_write(self->fd, self->a, p, 8, w));
	ASSERT_EQ(0, uvm_dev_read(self->fd, self->b, p, 64, buf));
	EXPECT_EQ(3, buf[0]);
	EXPECT_EQ(3, p[7]);
	munmap(p, len);
}

/*
 * A device mapping a host page remotely (accessed-by), the page then moves
 * to another device: the remote mapping goes with the host copy (it used
 * to point at the freed page: an oops, or another owner's data).
 */
TEST_F(dev, remote_mapping_goes_with_the_host_copy)
{
	size_t len = 4 * PAGE;
	unsigned char *p = uvm_map(self->fd, len), buf[64], w[64];

	ASSERT_NE(NULL, p);
	ASSERT_EQ(0, uvm_advise(self->fd, p, len, UVM_ADVISE_SET_ACCESSED_BY,
				UVM_LOC_DEVICE, self->b));
	memset(p, 'A', len);
	ASSERT_EQ(0, uvm_dev_read(self->fd, self->b, p, 64, buf));
	EXPECT_EQ('A', buf[0]);
	EXPECT_TRUE(uvm_res1(self->fd, p).devices_mapped & (1ULL << self->b));
	memset(w, 'B', sizeof(w));
	ASSERT_EQ(0, uvm_dev_write(self->fd, self->a, p, 64, w));
	EXPECT_TRUE(on_dev(self->fd, p, self->a));
	EXPECT_EQ(-1, uvm_res1(self->fd, p).cpu_node);
	EXPECT_FALSE(uvm_res1(self->fd, p).devices_mapped & (1ULL << self->b));
	ASSERT_EQ(0, uvm_dev_read(self->fd, self->b, p, 64, buf));
	EXPECT_EQ('B', buf[0]);
	EXPECT_EQ('B', p[63]);
	munmap(p, len);
}

TEST_F(dev, accessed_by_maps_remotely_without_migrating)
{
	size_t len = 32 * PAGE;
	unsigned char *p = uvm_map(self->fd, len), buf[PAGE];
	uint64_t h2d, rm = st(self->fd, UVM_STAT_REMOTE_MAPS);

	ASSERT_NE(NULL, p);
	ASSERT_EQ(0, uvm_advise(self->fd, p, len, UVM_ADVISE_SET_ACCESSED_BY,
				UVM_LOC_DEVICE, self->a));
	memset(p, 7, len);
	h2d = st(self->fd, UVM_STAT_MIGRATE_H2D_PAGES);
	ASSERT_EQ(0, uvm_dev_read(self->fd, self->a, p, PAGE, buf));
	EXPECT_EQ(7, buf[PAGE - 1]);
	memset(buf, 8, PAGE);
	ASSERT_EQ(0, uvm_dev_write(self->fd, self->a, p + PAGE, PAGE, buf));
	EXPECT_EQ(h2d, st(self->fd, UVM_STAT_MIGRATE_H2D_PAGES));
	EXPECT_LT(rm, st(self->fd, UVM_STAT_REMOTE_MAPS));
	EXPECT_FALSE(on_dev(self->fd, p, self->a));
	EXPECT_LE(0, uvm_page_node(self->fd, p + PAGE));
	EXPECT_EQ(8, p[PAGE + 100]);	/* CPU sees the device's write */
	munmap(p, len);
}

static long dma_mapped(void)
{
	return uvm_read_long("/sys/module/uvm/stats/dma_mapped_pages");
}

/*
 * A PCI device's remote mappings of host pages hold DMA mappings for
 * exactly as long as they exist: made on the device's first access, kept
 * through a write upgrade, dropped when the host pages move to another
 * node (the device faults and maps the new pages), on discard and munmap.
 */
TEST_F(dev, remote_mappings_hold_dma_mappings)
{
	size_t len = 32 * PAGE, half = len / 2;
	unsigned char *p = uvm_map(self->fd, len), *buf = malloc(len);
	struct uvm_device_info info[UVM_MAX_DEVICES];
	long g0 = dma_mapped(), per_page = 0;
	int i, node, n = uvm_devices(self->fd, info, UVM_MAX_DEVICES);

	ASSERT_NE(NULL, p);
	ASSERT_LE(0, g0);
	for (i = 0; i < n; i++)
		if ((int)info[i].id == self->a)
			per_page = info[i].backend == UVM_BACKEND_PCI_BAR;
	ASSERT_EQ(0, uvm_advise(self->fd, p, len, UVM_ADVISE_SET_ACCESSED_BY,
				UVM_LOC_DEVICE, self->a));
	memset(p, 3, len);
	ASSERT_EQ(0, uvm_dev_read(self->fd, self->a, p, len, buf));
	EXPECT_EQ(3, buf[len - 1]);
	EXPECT_EQ(g0 + per_page * 32, dma_mapped());
	memset(buf, 4, PAGE);
	ASSERT_EQ(0, uvm_dev_write(self->fd, self->a, p, PAGE, buf));
	EXPECT_EQ(g0 + per_page * 32, dma_mapped());
	EXPECT_EQ(4, p[PAGE - 1]);

	/* The host pages move to the other node: the mappings (and DMA) go. */
	node = 1 - uvm_page_node(self->fd, p);
	ASSERT_EQ(0, uvm_prefetch(self->fd, p, len, UVM_LOC_HOST_NUMA, node));
	EXPECT_EQ(node, uvm_page_node(self->fd, p));
	EXPECT_EQ(g0, dma_mapped());
	ASSERT_EQ(0, uvm_dev_read(self->fd, self->a, p, len, buf));
	EXPECT_EQ(4, buf[0]);
	EXPECT_EQ(3, buf[len - 1]);
	EXPECT_EQ(g0 + per_page * 32, dma_mapped());

	ASSERT_EQ(0, uvm_discard(self->fd, p + half, half, 0, UVM_LOC_NONE, 0));
	EXPECT_EQ(g0 + per_page * 16, dma_mapped());
	munmap(p, len);
	EXPECT_EQ(g0, dma_mapped());
	free(buf);
}

TEST_F(dev, preferred_location_steers_device_faults)
{
	size_t len = 8 * PAGE;
	unsigned char *p = uvm_map(self->fd, len), buf[PAGE];

	ASSERT_NE(NULL, p);
	/* Preferred host node 1: a device fault populates there, mapped remotely. */
	ASSERT_EQ(0, uvm_advise(self->fd, p, 4 * PAGE,
				UVM_ADVISE_SET_PREFERRED_LOCATION,
				UVM_LOC_HOST_NUMA, uvm_cpu_of_node(1) >= 0 ? 1 : 0));
	memset(buf, 9, PAGE);
	ASSERT_EQ(0, uvm_dev_write(self->fd, self->a, p, PAGE, buf));
	EXPECT_FALSE(on_dev(self->fd, p, self->a));
	EXPECT_EQ(uvm_cpu_of_node(1) >= 0 ? 1 : 0, uvm_page_node(self->fd, p));
	/* Preferred device b: a fault from device a populates on b. */
	ASSERT_EQ(0, uvm_advise(self->fd, p + 4 * PAGE, 4 * PAGE,
				UVM_ADVISE_SET_PREFERRED_LOCATION,
				UVM_LOC_DEVICE, self->b));
	ASSERT_EQ(0, uvm_dev_write(self->fd, self->a, p + 4 * PAGE, PAGE, buf));
	EXPECT_TRUE(on_dev(self->fd, p + 4 * PAGE, self->b));
	EXPECT_FALSE(on_dev(self->fd, p + 4 * PAGE, self->a));
	EXPECT_EQ(9, p[4 * PAGE + 1]);
	EXPECT_EQ(9, p[1]);
	munmap(p, len);
}

TEST_F(dev, cpu_maps_device_memory_when_accessed_by_cpu)
{
	size_t len = 4 * PAGE;
	unsigned char *p = uvm_map(self->fd, len);
	uint64_t maps = st(self->fd, UVM_STAT_CPU_DEVICE_MAPS);
	int d;

	ASSERT_NE(NULL, p);
	for (d = 0; d < 2; d++) {
		int dev = d ? self->b : self->a;

		memset(p, 0x10 + d, len);
		ASSERT_EQ(0, uvm_advise(self->fd, p, len,
					UVM_ADVISE_SET_ACCESSED_BY, UVM_LOC_HOST, 0));
		ASSERT_EQ(0, uvm_prefetch(self->fd, p, len, UVM_LOC_DEVICE, dev));
		EXPECT_EQ(0x10 + d, p[PAGE + 3]);	/* mapped in place */
		EXPECT_TRUE(on_dev(self->fd, p + PAGE, dev));
		p[PAGE + 4] = 0x77;			/* write in place */
		EXPECT_TRUE(on_dev(self->fd, p + PAGE, dev));
		ASSERT_EQ(0, uvm_prefetch(self->fd, p, len, UVM_LOC_HOST, 0));
		EXPECT_EQ(0x77, p[PAGE + 4]);
	}
	EXPECT_LE(maps + 2, st(self->fd, UVM_STAT_CPU_DEVICE_MAPS));
	munmap(p, len);
}

/*
 * The CPU maps a device's copy in place (read-only so far); the range turns
 * read-mostly and another device reads a duplicate; then the CPU writes.
 * The write must not land in one copy alone (the other device would keep
 * reading the old data, and a later collapse could drop the written copy):
 * the in-place mapping goes and the write faults the normal way.
 */
TEST_F(dev, cpu_write_in_place_after_duplication_collapses)
{
	size_t len = 4 * PAGE;
	unsigned char *p = uvm_map(self->fd, len), buf[64];
	int d;

	ASSERT_NE(NULL, p);
	for (d = 0; d < 2; d++) {
		int dev = d ? self->b : self->a, other = d ? self->a : self->b;

		ASSERT_EQ(0, uvm_advise(self->fd, p, len,
					UVM_ADVISE_UNSET_READ_MOSTLY, 0, 0));
		memset(p, 0x20 + d, len);
		ASSERT_EQ(0, uvm_advise(self->fd, p, len,
					UVM_ADVISE_SET_ACCESSED_BY, UVM_LOC_HOST, 0));
		ASSERT_EQ(0, uvm_prefetch(self->fd, p, len, UVM_LOC_DEVICE, dev));
		EXPECT_EQ(0x20 + d, p[PAGE + 3]);	/* mapped in place */
		ASSERT_EQ(0, uvm_advise(self->fd, p, len,
					UVM_ADVISE_SET_READ_MOSTLY, 0, 0));
		ASSERT_EQ(0, uvm_dev_read(self->fd, other, p + PAGE, 64, buf));
		EXPECT_TRUE(on_dev(self->fd, p + PAGE, other));	/* a duplicate */
		p[PAGE + 4] = 0x77;
		ASSERT_EQ(0, uvm_dev_read(self->fd, other, p + PAGE, 64, buf));
		EXPECT_EQ(0x77, buf[4]) TH_LOG("device %d", other);
		ASSERT_EQ(0, uvm_dev_read(self->fd, dev, p + PAGE, 64, buf));
		EXPECT_EQ(0x77, buf[4]) TH_LOG("device %d", dev);
		EXPECT_EQ(0x77, p[PAGE + 4]);
		ASSERT_EQ(0, uvm_advise(self->fd, p, len,
					UVM_ADVISE_UNSET_ACCESSED_BY, UVM_LOC_HOST, 0));
	}
	munmap(p, len);
}

TEST_F(dev, discard_drops_contents_keeps_policy)
{
	size_t len = 2 * MIB;
	unsigned char *p = uvm_map(self->fd, len);
	struct uvm_range_attrs a;
	struct uvm_page_residency r;

	ASSERT_NE(NULL, p);
	memset(p, 0xee, len);
	ASSERT_EQ(0, uvm_advise(self->fd, p, len, UVM_ADVISE_SET_READ_MOSTLY,
				0, 0));
	ASSERT_EQ(0, uvm_prefetch(self->fd, p, MIB, UVM_LOC_DEVICE, self->a));
	/* Partial first/last pages are kept. */
	ASSERT_EQ(0, uvm_discard(self->fd, p + 100, len - 200, 0, 0, 0));
	r = uvm_res1(self->fd, p + PAGE);
	EXPECT_EQ(0, r.flags & UVM_PAGE_POPULATED);
	EXPECT_EQ(0, r.devices_resident);
	EXPECT_EQ(0xee, p[0]);
	EXPECT_EQ(0xee, p[len - 1]);
	EXPECT_EQ(0, p[PAGE + 5]);	/* fresh zeroed page */
	ASSERT_EQ(0, uvm_attrs(self->fd, p, len, &a));
	EXPECT_EQ(1, a.read_mostly);
	/* Discard and prefetch to a device in one call. */
	ASSERT_EQ(0, uvm_discard(self->fd, p, len, UVM_DISCARD_PREFETCH,
				 UVM_LOC_DEVICE, self->b));
	EXPECT_TRUE(on_dev(self->fd, p + 3 * PAGE, self->b));
	EXPECT_EQ(0, p[3 * PAGE]);
	ASSERT_EQ(0, uvm_attrs(self->fd, p, len, &a));
	EXPECT_EQ(UVM_LOC_DEVICE, a.last_prefetch.type);
	EXPECT_EQ(self->b, a.last_prefetch.id);
	munmap(p, len);
}

TEST_F(dev, atomics_from_devices_and_cpu)
{
	uint64_t *p = uvm_map(self->fd, PAGE), v;
	int i;

	ASSERT_NE(NULL, p);
	p[1] = 100;
	for (i = 0; i < 10; i++) {
		v = 5;
		ASSERT_EQ(0, uvm_dev_access(self->fd, i & 1 ? self->a : self->b,
					    &p[1], 8, UVM_ACCESS_ATOMIC_ADD, &v));
		EXPECT_EQ(100 + 5 * (uint64_t)i, v);
		if (i == 4)
			__atomic_fetch_add(&p[1], 0, __ATOMIC_SEQ_CST);
	}
	EXPECT_EQ(150, p[1]);
	munmap(p, PAGE);
}

TEST_F(dev, process_exit_with_device_pages_frees_device_memory)
{
	uint64_t free0 = uvm_dev_free(self->fd, self->a);
	int status;
	pid_t pid = fork();

	ASSERT_LE(0, pid);
	if (!pid) {
		int fd = uvm_open();
		char *p = uvm_map(fd, 16 * MIB);

		if (!p)
			_exit(1);
		memset(p, 1, 16 * MIB);
		if (uvm_prefetch(fd, p, 16 * MIB, UVM_LOC_DEVICE, self->a))
			_exit(2);
		_exit(uvm_dev_free(fd, self->a) + 16 * MIB <= free0 ? 0 : 3);
	}
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	ASSERT_TRUE(WIFEXITED(status));
	EXPECT_EQ(0, WEXITSTATUS(status));
	EXPECT_EQ(free0, uvm_dev_free(self->fd, self->a));
}

/*
 * Device memory another process filled and left (its exit freed it) backs
 * this process's pages zeroed: prefetched unpopulated pages and pages that
 * never had data read zero from the device and from the CPU.
 */
TEST_F(dev, device_memory_of_an_exited_process_reads_zero)
{
	struct uvm_device_info info[UVM_MAX_DEVICES];
	int i, n = uvm_devices(self->fd, info, UVM_MAX_DEVICES), dev = -1;
	size_t len = 0, off;
	unsigned char *p, buf[64];
	int status;
	pid_t pid;

	for (i = 0; i < n; i++)	/* the smallest device: most reuse */
		if (dev < 0 || info[i].mem_total < len) {
			dev = (int)info[i].id;
			len = info[i].mem_total;
		}
	len = uvm_dev_free(self->fd, dev) / (2 * MIB) * (2 * MIB);
	if (len > 256 * MIB)
		len = 256 * MIB;
	ASSERT_LT(0, len);
	pid = fork();
	ASSERT_LE(0, pid);
	if (!pid) {
		int fd = uvm_open();
		char *c = uvm_map(fd, len);

		if (!c)
			_exit(1);
		memset(c, 0xab, len);
		_exit(uvm_prefetch(fd, c, len, UVM_LOC_DEVICE, dev) ? 2 : 0);
	}
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	ASSERT_TRUE(WIFEXITED(status));
	ASSERT_EQ(0, WEXITSTATUS(status));

	p = uvm_map(self->fd, len);
	ASSERT_NE(NULL, p);
	p[0] = 1;			/* one page with data */
	ASSERT_EQ(0, uvm_prefetch(self->fd, p, len, UVM_LOC_DEVICE, dev));
	for (off = PAGE; off < len; off += 61 * PAGE + 64) {
		ASSERT_EQ(0, uvm_dev_read(self->fd, dev, p + off, sizeof(buf),
					  buf));
		for (i = 0; i < (int)sizeof(buf); i++) {
			ASSERT_EQ(0, buf[i]) TH_LOG("device read at %zu", off);
		}
	}
	for (off = PAGE; off < len; off += 127 * PAGE + 8) {
		ASSERT_EQ(0, p[off]) TH_LOG("CPU read at %zu", off);
	}
	EXPECT_EQ(1, p[0]);
	munmap(p, len);
}

struct worker {
	int fd, dev, id, errors;
	unsigned char *p;
	size_t len;
};

/* Each thread owns a slice: writes it from CPU or device, checks it. */
static void *slice_worker(void *arg)
{
	struct worker *w = arg;
	size_t slice = w->len / 8, i;
	unsigned char *mine = w->p + w->id * slice, *buf = malloc(slice);
	uint64_t seed = w->id + 1;
	int it;

	for (it = 0; it < 6; it++) {
		unsigned char v = (unsigned char)(w->id * 16 + it);

		memset(buf, v, slice);
		if ((w->id + it) & 1)
			w->errors += !!uvm_dev_write(w->fd, w->dev, mine, slice, buf);
		else
			memset(mine, v, slice);
		if (uvm_prefetch(w->fd, w->p + (uvm_rand64(&seed) % 8) * slice,
				 slice, (it & 1) ? UVM_LOC_DEVICE : UVM_LOC_HOST,
				 (it & 1) ? w->dev : 0))
			w->errors++;
		memset(buf, 0, slice);
		if (uvm_dev_read(w->fd, w->dev, mine, slice, buf))
			w->errors++;
		for (i = 0; i < slice; i += 511)
			w->errors += buf[i] != v || mine[i] != v;
	}
	free(buf);
	return NULL;
}

TEST_F(dev, concurrent_cpu_device_prefetch_munmap)
{
	size_t len = 8 * MIB;
	unsigned char *p = uvm_map(self->fd, len);
	struct worker w[8];
	pthread_t t[8];
	int i;

	ASSERT_NE(NULL, p);
	for (i = 0; i < 8; i++) {
		w[i] = (struct worker){ self->fd, i & 1 ? self->a : self->b, i,
					0, p, len };
		ASSERT_EQ(0, pthread_create(&t[i], NULL, slice_worker, &w[i]));
	}
	/* Meanwhile, map and unmap other ranges with device residency. */
	for (i = 0; i < 8; i++) {
		char *q = uvm_map(self->fd, 2 * MIB);

		ASSERT_NE(NULL, q);
		memset(q, i, 2 * MIB);
		ASSERT_EQ(0, uvm_prefetch(self->fd, q, 2 * MIB, UVM_LOC_DEVICE,
					  self->a));
		ASSERT_EQ(0, munmap(q, 2 * MIB));
	}
	for (i = 0; i < 8; i++) {
		pthread_join(t[i], NULL);
		EXPECT_EQ(0, w[i].errors) TH_LOG("thread %d", i);
	}
	munmap(p, len);
}

TEST_F(dev, munmap_invalidates_device_mappings)
{
	unsigned char *p = uvm_map(self->fd, 4 * PAGE), buf[16];
	uint64_t free0 = uvm_dev_free(self->fd, self->a);

	ASSERT_NE(NULL, p);
	ASSERT_EQ(0, uvm_dev_write(self->fd, self->a, p, 16, "0123456789abcdef"));
	EXPECT_GT(free0, uvm_dev_free(self->fd, self->a));
	ASSERT_EQ(0, munmap(p, 4 * PAGE));
	EXPECT_EQ(free0, uvm_dev_free(self->fd, self->a));
	/* no longer managed: pageable memory, and nothing maps it */
	EXPECT_EQ(-EFAULT, uvm_dev_read(self->fd, self->a, p, 16, buf));
}

static int summary(int fd, struct uvm_va_space_summary *s)
{
	memset(s, 0, sizeof(*s));
	return uvm_ioctl(fd, UVM_IOCTL_VA_SPACE_SUMMARY, s);
}

/*
 * One call, many small accesses: runs of writes and reads in one block are
 * batched through one pass of the locks (uvm_device_access.c); runs break
 * at block boundaries, type changes and atomics. Every byte must land.
 */
TEST_F(dev, many_small_accesses_in_one_call)
{
	enum { N = 3072, SZ = 24 };
	size_t len = 6 * MIB, k;
	char *p = uvm_map(self->fd, len);
	static struct uvm_access acc[N];
	static unsigned char in[N][SZ], out[N][SZ];
	struct uvm_device_access da = {
		.device = self->a, .count = N, .accesses = (uintptr_t)acc,
	};
	uint64_t one = 1;

	ASSERT_NE(NULL, p);
	memset(p, 0, len);
	for (k = 0; k < N; k++) {	/* half a page apart, over 3 blocks */
		acc[k].addr = (uintptr_t)(p + k * 2048 + (k % 7) * 8);
		acc[k].length = SZ;
		acc[k].type = (k / 100) % 2 ? UVM_ACCESS_READ : UVM_ACCESS_WRITE;
		acc[k].buf = (uintptr_t)(acc[k].type == UVM_ACCESS_WRITE ?
					 in[k] : out[k]);
		memset(in[k], (int)(k % 251) + 1, SZ);
		memset(out[k], 0xee, SZ);
	}
	acc[500].type = UVM_ACCESS_ATOMIC_ADD;	/* an atomic in a run */
	acc[500].length = 8;
	acc[500].addr = (uintptr_t)(p + 3 * MIB);
	acc[500].buf = (uintptr_t)&one;
	ASSERT_EQ(0, uvm_ioctl(self->fd, UVM_IOCTL_DEVICE_ACCESS, &da));
	for (k = 0; k < N; k++) {
		const unsigned char *at = (const unsigned char *)(uintptr_t)acc[k].addr;

		if (k == 500)
			continue;
		if (acc[k].type == UVM_ACCESS_WRITE) {
			ASSERT_EQ(0, memcmp(at, in[k], SZ)) TH_LOG("write %zu", k);
		} else {
			ASSERT_EQ(0, memcmp(out[k], at, SZ)) TH_LOG("read %zu", k);
		}
	}
	EXPECT_EQ(1, *(uint64_t *)(p + 3 * MIB));
	munmap(p, len);
}

/*
 * A CPU thread keeps writing while the range moves between the host and a
 * device: no write may be lost (the CPU's writable mappings go before a
 * copy is taken, not after).
 */
TEST_F(dev, cpu_writes_during_migration_are_not_lost)
{
	size_t len = 4 * MIB;
	char *p = uvm_map(self->fd, len);
	struct uvm_writer w = { p, len / PAGE / 8, 0, 0 };
	pthread_t t;
	int k;

	ASSERT_NE(NULL, p);
	memset(p, 0, len);
	ASSERT_EQ(0, pthread_create(&t, NULL, uvm_write_counters, &w));
	for (k = 0; k < 20; k++) {
		ASSERT_EQ(0, uvm_prefetch(self->fd, p, len, UVM_LOC_DEVICE,
					  k & 1 ? self->b : self->a));
		ASSERT_EQ(0, uvm_prefetch(self->fd, p, len, UVM_LOC_HOST_NUMA, 0));
	}
	EXPECT_EQ(w.n, uvm_writer_stop(&w, t)) TH_LOG("a CPU write was lost");
	munmap(p, len);
}

/* The same while the CPU writes device memory in place (accessed-by CPU). */
TEST_F(dev, cpu_writes_in_device_memory_during_migration_are_not_lost)
{
	size_t len = 4 * MIB;
	char *p = uvm_map(self->fd, len);
	struct uvm_writer w = { p, len / PAGE / 8, 0, 0 };
	pthread_t t;
	int k;

	ASSERT_NE(NULL, p);
	memset(p, 0, len);
	ASSERT_EQ(0, uvm_advise(self->fd, p, len, UVM_ADVISE_SET_ACCESSED_BY,
				UVM_LOC_HOST, 0));
	ASSERT_EQ(0, uvm_prefetch(self->fd, p, len, UVM_LOC_DEVICE, self->a));
	ASSERT_EQ(0, pthread_create(&t, NULL, uvm_write_counters, &w));
	for (k = 0; k < 12; k++) {
		ASSERT_EQ(0, uvm_prefetch(self->fd, p, len, UVM_LOC_DEVICE,
					  k & 1 ? self->a : self->b));
		if (k % 3 == 2)
			ASSERT_EQ(0, uvm_prefetch(self->fd, p, len,
						  UVM_LOC_HOST_NUMA, 0));
	}
	EXPECT_EQ(w.n, uvm_writer_stop(&w, t)) TH_LOG("a CPU write was lost");
	munmap(p, len);
}

TEST_F(dev, va_space_summary_counts_pages_by_location)
{
	struct uvm_va_space_summary s;
	size_t len = 4 * MIB;
	unsigned char *p = uvm_map(self->fd, len);
	uint64_t host = 0;
	int n, status;
	pid_t pid;

	ASSERT_NE(NULL, p);
	memset(p, 1, len);
	ASSERT_EQ(0, uvm_prefetch(self->fd, p, 2 * MIB, UVM_LOC_DEVICE, self->a));
	ASSERT_EQ(0, summary(self->fd, &s));
	EXPECT_EQ(len / PAGE, s.managed_pages);
	for (n = 0; n < UVM_SUMMARY_NODES; n++)
		host += s.host_pages[n];
	EXPECT_EQ(2 * MIB / PAGE, host);
	EXPECT_EQ(2 * MIB / PAGE, s.device_pages[self->a]);
	EXPECT_EQ(0, s.device_pages[self->b]);

	/* Counts only: another process holding the file may read them. */
	pid = fork();
	ASSERT_LE(0, pid);
	if (!pid) {
		struct uvm_va_space_summary c;

		_exit(summary(self->fd, &c) || c.device_pages[self->a] !=
		      2 * MIB / PAGE ? 1 : 0);
	}
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0);

	s.flags = 1;
	EXPECT_EQ(-EINVAL, uvm_ioctl(self->fd, UVM_IOCTL_VA_SPACE_SUMMARY, &s));
	memset(&s, 0, sizeof(s));
	s.pad = 1;
	EXPECT_EQ(-EINVAL, uvm_ioctl(self->fd, UVM_IOCTL_VA_SPACE_SUMMARY, &s));
	munmap(p, len);
}

TEST_HARNESS_MAIN
