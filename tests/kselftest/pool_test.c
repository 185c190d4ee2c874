// SPDX-License-Identifier: GPL-2.0
/*
 * The per-VA-space host page pool (kmod/uvm_pool.c): migrations reuse the
 * host pages earlier migrations freed, data stays byte-exact, zero-filled
 * pages never come from the pool, another VA space never sees a pooled
 * page, the shrinker empties the pools, host_pool_mb bounds them and 0
 * turns them off. Needs one device (any backend).
 */
#include <stdio.h>

#include "kselftest_harness.h"
#include "uvm_test_util.h"

#define POOL_PARAM	"/sys/module/uvm/parameters/host_pool_mb"
#define POOL_PAGES	"/sys/module/uvm/stats/pool_pages"

/* Ask every shrinker to free what it can (our pool's among them). */
static void drop_caches(void)
{
	uvm_write_str("/proc/sys/vm/drop_caches", "2");
}

FIXTURE(pool)
{
	int fd;
	int dev;
	int node;
	long saved_mb;
};

FIXTURE_SETUP(pool)
{
	self->fd = uvm_open();
	ASSERT_LE(0, self->fd);
	self->dev = uvm_find_device(self->fd, 0, 0);
	if (self->dev < 0)
		SKIP(return, "needs a device");
	self->saved_mb = uvm_read_long(POOL_PARAM);
	ASSERT_LE(0, self->saved_mb);
	self->node = 0;
	drop_caches();
}

FIXTURE_TEARDOWN(pool)
{
	if (self->saved_mb >= 0)
		uvm_write_long(POOL_PARAM, self->saved_mb);
	close(self->fd);
}

static uint64_t reused(int fd)
{
	return uvm_stat(fd, UVM_STAT_POOL_REUSED, UVM_STATS_VA_SPACE);
}

/* h2d frees host pages into the pool; d2h takes them back. */
TEST_F(pool, round_trip_reuses_pages_and_keeps_data)
{
	size_t len = 4 * MIB;
	char *p = uvm_map(self->fd, len);
	uint64_t r0 = reused(self->fd);
	int i;

	ASSERT_NE(NULL, p);
	ASSERT_EQ(0, uvm_prefetch(self->fd, p, len, UVM_LOC_HOST_NUMA,
				  self->node));
	for (i = 0; i < 3; i++) {
		uvm_fill(p, len, 40 + i);
		ASSERT_EQ(0, uvm_prefetch(self->fd, p, len, UVM_LOC_DEVICE,
					  self->dev));
		EXPECT_LE((long)(len / PAGE), uvm_read_long(POOL_PAGES));
		ASSERT_EQ(0, uvm_prefetch(self->fd, p, len, UVM_LOC_HOST_NUMA,
					  self->node));
		EXPECT_EQ(self->node, uvm_page_node(self->fd, p + len - PAGE));
		EXPECT_EQ(0, uvm_check(p, len, 40 + i));
	}
	EXPECT_LE(r0 + 3 * (len / PAGE), reused(self->fd));
	munmap(p, len);
}

/* Node-to-node moves recycle too, and only pages of the target node. */
TEST_F(pool, node_moves_reuse_pages_of_the_target_node)
{
	size_t len = 2 * MIB;
	char *p = uvm_map(self->fd, len);
	uint64_t r0;
	int i;

	ASSERT_NE(NULL, p);
	if (uvm_cpu_of_node(1) < 0)
		SKIP(return, "needs node 1");
	uvm_fill(p, len, 9);
	for (i = 0; i < 2; i++) {
		ASSERT_EQ(0, uvm_prefetch(self->fd, p, len, UVM_LOC_HOST_NUMA,
					  i & 1));
	}
	r0 = reused(self->fd);
	for (i = 0; i < 2; i++) {
		ASSERT_EQ(0, uvm_prefetch(self->fd, p, len, UVM_LOC_HOST_NUMA,
					  i & 1));
	}
	EXPECT_LE(r0 + 2 * (len / PAGE), reused(self->fd));
	EXPECT_EQ(1, uvm_page_node(self->fd, p));
	EXPECT_EQ(0, uvm_check(p, len, 9));
	munmap(p, len);
}

/* First touch and device population are zeroed, never pooled pages. */
TEST_F(pool, zero_fill_never_comes_from_the_pool)
{
	size_t len = 2 * MIB, i;
	char *p = uvm_map(self->fd, len), *q;
	uint64_t r0;

	ASSERT_NE(NULL, p);
	uvm_fill(p, len, 3);
	ASSERT_EQ(0, uvm_prefetch(self->fd, p, len, UVM_LOC_DEVICE, self->dev));
	ASSERT_LT(0, uvm_read_long(POOL_PAGES));
	r0 = reused(self->fd);
	q = uvm_map(self->fd, len);
	ASSERT_NE(NULL, q);
	for (i = 0; i < len; i++) {
		ASSERT_EQ(0, q[i]);
	}
	EXPECT_EQ(r0, reused(self->fd));
	munmap(q, len);
	munmap(p, len);
}

/* Another VA space (another open file) never gets this one's pages. */
TEST_F(pool, other_va_space_sees_only_zeroes)
{
	size_t len = 2 * MIB, i;
	int fd2 = uvm_open();
	char *p = uvm_map(self->fd, len), *q;

	ASSERT_LE(0, fd2);
	ASSERT_NE(NULL, p);
	uvm_fill(p, len, 5);
	ASSERT_EQ(0, uvm_prefetch(self->fd, p, len, UVM_LOC_DEVICE, self->dev));
	ASSERT_LT(0, uvm_read_long(POOL_PAGES));
	q = uvm_map(fd2, len);
	ASSERT_NE(NULL, q);
	/* Populated on the device (zeroed), then brought home. */
	ASSERT_EQ(0, uvm_prefetch(fd2, q, len, UVM_LOC_DEVICE, self->dev));
	ASSERT_EQ(0, uvm_prefetch(fd2, q, len, UVM_LOC_HOST_NUMA, self->node));
	EXPECT_EQ(0, reused(fd2));
	for (i = 0; i < len; i++) {
		ASSERT_EQ(0, q[i]);
	}
	munmap(q, len);
	close(fd2);
	munmap(p, len);
}

/* The shrinker gives pooled pages back; the data elsewhere is intact. */
TEST_F(pool, shrinker_empties_the_pool)
{
	size_t len = 4 * MIB;
	char *p = uvm_map(self->fd, len);

	ASSERT_NE(NULL, p);
	uvm_fill(p, len, 11);
	ASSERT_EQ(0, uvm_prefetch(self->fd, p, len, UVM_LOC_DEVICE, self->dev));
	ASSERT_LE((long)(len / PAGE), uvm_read_long(POOL_PAGES));
	drop_caches();
	EXPECT_EQ(0, uvm_read_long(POOL_PAGES));
	ASSERT_EQ(0, uvm_prefetch(self->fd, p, len, UVM_LOC_HOST_NUMA,
				  self->node));
	EXPECT_EQ(0, uvm_check(p, len, 11));
	munmap(p, len);
}

/* host_pool_mb bounds the pool; 0 turns it off; bad values change nothing. */
TEST_F(pool, host_pool_mb_bounds_and_disables)
{
	size_t len = 4 * MIB;
	char *p = uvm_map(self->fd, len);

	ASSERT_NE(NULL, p);
	EXPECT_EQ(-EINVAL, uvm_write_str(POOL_PARAM, "65537"));
	EXPECT_EQ(-EINVAL, uvm_write_str(POOL_PARAM, "-1"));
	EXPECT_EQ(self->saved_mb, uvm_read_long(POOL_PARAM));

	ASSERT_EQ(0, uvm_write_str(POOL_PARAM, "1"));
	uvm_fill(p, len, 12);
	ASSERT_EQ(0, uvm_prefetch(self->fd, p, len, UVM_LOC_DEVICE, self->dev));
	EXPECT_EQ((long)(MIB / PAGE), uvm_read_long(POOL_PAGES));
	ASSERT_EQ(0, uvm_prefetch(self->fd, p, len, UVM_LOC_HOST_NUMA,
				  self->node));
	EXPECT_EQ(0, uvm_check(p, len, 12));
	drop_caches();

	ASSERT_EQ(0, uvm_write_str(POOL_PARAM, "0"));
	ASSERT_EQ(0, uvm_prefetch(self->fd, p, len, UVM_LOC_DEVICE, self->dev));
	EXPECT_EQ(0, uvm_read_long(POOL_PAGES));
	ASSERT_EQ(0, uvm_prefetch(self->fd, p, len, UVM_LOC_HOST_NUMA,
				  self->node));
	EXPECT_EQ(0, uvm_check(p, len, 12));
	munmap(p, len);
}

/* munmap and process exit free to the system, not to the pool. */
TEST_F(pool, munmap_and_close_do_not_pool)
{
	size_t len = 2 * MIB;
	char *p = uvm_map(self->fd, len);
	int fd2 = uvm_open();
	char *q;

	ASSERT_NE(NULL, p);
	ASSERT_LE(0, fd2);
	memset(p, 1, len);
	munmap(p, len);
	EXPECT_EQ(0, uvm_read_long(POOL_PAGES));
	q = uvm_map(fd2, len);
	ASSERT_NE(NULL, q);
	memset(q, 2, len);
	ASSERT_EQ(0, uvm_prefetch(fd2, q, len, UVM_LOC_DEVICE, self->dev));
	EXPECT_LT(0, uvm_read_long(POOL_PAGES));
	munmap(q, len);
	close(fd2);
	EXPECT_EQ(0, uvm_read_long(POOL_PAGES));
}

TEST_HARNESS_MAIN
