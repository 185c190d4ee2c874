// SPDX-License-Identifier: GPL-2.0
/*
 * devmem_test - UVM_IOCTL_TEST_DEVMEM: device memory allocator and backend
 * copies, on every device of every backend.
 *
 * VM options: --param enable_test_ioctls=1 for everything but
 * test_ioctl_disabled, which needs the parameter off (default VM). Run it
 * once with PCI devices (default VM) and once with --emulated 2. Fails when
 * the module is not loaded.
 */
#include <limits.h>

#include "kselftest_harness.h"
#include "uvm_dev_util.h"

FIXTURE(dm)
{
	int fd;
	int ndevs;
	struct uvm_device_info *devs;
};

FIXTURE_SETUP(dm)
{
	self->fd = uvm_open_va();
	ASSERT_LE(0, self->fd) TH_LOG("open /dev/uvm: %s (module not loaded?)",
				      strerror(errno));
	self->ndevs = uvm_get_devices(self->fd, &self->devs);
	ASSERT_LE(0, self->ndevs);
	if (!test_ioctls_enabled())
		SETUP_SKIP("needs enable_test_ioctls=1");
	if (!self->ndevs)
		SETUP_SKIP("no devices");
}

FIXTURE_TEARDOWN(dm)
{
	free(self->devs);
	close(self->fd);
}

/* A valid request on device 0 for the error-path tests to break. */
static struct uvm_test_devmem dm_req(FIXTURE_DATA(dm) *self, uint32_t op)
{
	struct uvm_test_devmem a = {
		.op = op, .device = self->devs[0].id, .size = 4096,
	};

	return a;
}

TEST(test_ioctl_disabled)
{
	struct uvm_test_devmem a = { .op = UVM_TEST_DEVMEM_ALLOC, .size = 4096 };
	int fd = uvm_open_va();

	ASSERT_LE(0, fd) TH_LOG("open /dev/uvm: %s", strerror(errno));
	if (test_ioctls_enabled())
		SKIP(close(fd); return, "needs enable_test_ioctls=0");
	EXPECT_EQ(-ENOTTY, xioctl(fd, UVM_IOCTL_TEST_DEVMEM, &a));
	close(fd);
}

TEST_F(dm, bad_arg_pointer)
{
	EXPECT_EQ(-EFAULT, xioctl(self->fd, UVM_IOCTL_TEST_DEVMEM, NULL));
}

TEST_F(dm, nonzero_flags)
{
	struct uvm_test_devmem a = dm_req(self, UVM_TEST_DEVMEM_ALLOC);

	a.flags = 1;
	EXPECT_EQ(-EINVAL, xioctl(self->fd, UVM_IOCTL_TEST_DEVMEM, &a));
}

TEST_F(dm, nonzero_pad)
{
	struct uvm_test_devmem a = dm_req(self, UVM_TEST_DEVMEM_ALLOC);

	a.pad = 1;
	EXPECT_EQ(-EINVAL, xioctl(self->fd, UVM_IOCTL_TEST_DEVMEM, &a));
}

TEST_F(dm, unknown_op)
{
	struct uvm_test_devmem a = dm_req(self, 0);

	EXPECT_EQ(-EINVAL, xioctl(self->fd, UVM_IOCTL_TEST_DEVMEM, &a));
	a.op = 5;
	EXPECT_EQ(-EINVAL, xioctl(self->fd, UVM_IOCTL_TEST_DEVMEM, &a));
}

TEST_F(dm, alloc_buf_must_be_zero)
{
	struct uvm_test_devmem a = dm_req(self, UVM_TEST_DEVMEM_ALLOC);

	a.buf = 4096;
	EXPECT_EQ(-EINVAL, xioctl(self->fd, UVM_IOCTL_TEST_DEVMEM, &a));
}

/* A device id that is no present device: -ENODEV. */
TEST_F(dm, bad_device_id)
{
	uint64_t h;

	EXPECT_EQ(-ENODEV, dm_alloc(self->fd, UVM_MAX_DEVICES - 1, 4096, &h, NULL));
	EXPECT_EQ(-ENODEV, dm_alloc(self->fd, UVM_MAX_DEVICES, 4096, &h, NULL));
	EXPECT_EQ(-ENODEV, dm_alloc(self->fd, ~0U, 4096, &h, NULL));
}

TEST_F(dm, alloc_size_zero)
{
	uint64_t h;

	EXPECT_EQ(-EINVAL, dm_alloc(self->fd, self->devs[0].id, 0, &h, NULL));
}

TEST_F(dm, alloc_size_overflow)
{
	uint64_t h;

	EXPECT_EQ(-EINVAL, dm_alloc(self->fd, self->devs[0].id, ~0ULL, &h, NULL));
}

TEST_F(dm, alloc_larger_than_device)
{
	uint64_t h;

	EXPECT_EQ(-ENOSPC, dm_alloc(self->fd, self->devs[0].id,
				    self->devs[0].mem_total + 4096, &h, NULL));
}

TEST_F(dm, rw_errors)
{
	uint32_t dev = self->devs[0].id;
	char buf[8192];
	uint64_t h;

	ASSERT_EQ(0, dm_alloc(self->fd, dev, 8192, &h, NULL));
	EXPECT_EQ(-EINVAL, dm_write(self->fd, dev, h, 0, buf, 0));
	EXPECT_EQ(-EINVAL, dm_read(self->fd, dev, h, 0, buf, 0));
	EXPECT_EQ(-EINVAL, dm_write(self->fd, dev, h, 1, buf, 8192));
	EXPECT_EQ(-EINVAL, dm_read(self->fd, dev, h, 8192, buf, 1));
	EXPECT_EQ(-EINVAL, dm_read(self->fd, dev, h, ~0ULL, buf, 2));
	EXPECT_EQ(-EINVAL, dm_read(self->fd, dev, h, 4096, buf, ~0ULL - 100));
	EXPECT_EQ(-EFAULT, dm_write(self->fd, dev, h, 0, (void *)8, 16));
	EXPECT_EQ(-EFAULT, dm_read(self->fd, dev, h, 0, (void *)8, 16));
	EXPECT_EQ(-ENOENT, dm_read(self->fd, dev, h + 1000, 0, buf, 16));
	EXPECT_EQ(-ENOENT, dm_read(self->fd, dev, 1ULL << 40, 0, buf, 16));
	EXPECT_EQ(-ENOENT, dm_read(self->fd, dev + 1, h, 0, buf, 16));
	EXPECT_EQ(0, dm_write(self->fd, dev, h, 8191, buf, 1));
	EXPECT_EQ(0, dm_free(self->fd, dev, h));
}

TEST_F(dm, free_errors)
{
	uint32_t dev = self->devs[0].id;
	struct uvm_test_devmem a;
	uint64_t h;

	ASSERT_EQ(0, dm_alloc(self->fd, dev, 4096, &h, NULL));
	a = dm_req(self, UVM_TEST_DEVMEM_FREE);
	a.handle = h;
	a.buf = 1;
	EXPECT_EQ(-EINVAL, xioctl(self->fd, UVM_IOCTL_TEST_DEVMEM, &a));
	EXPECT_EQ(-ENOENT, dm_free(self->fd, dev, 0));
	EXPECT_EQ(-ENOENT, dm_free(self->fd, dev, h + 1));
	EXPECT_EQ(-ENOENT, dm_free(self->fd, dev + 1, h));
	EXPECT_EQ(0, dm_free(self->fd, dev, h));
	EXPECT_EQ(-ENOENT, dm_free(self->fd, dev, h));	/* double free */
}

/* Handles are per VA space. */
TEST_F(dm, handles_are_per_va_space)
{
	uint32_t dev = self->devs[0].id;
	int fd2 = uvm_open_va();
	uint64_t h;

	ASSERT_LE(0, fd2);
	ASSERT_EQ(0, dm_alloc(self->fd, dev, 4096, &h, NULL));
	EXPECT_EQ(-ENOENT, dm_free(fd2, dev, h));
	EXPECT_EQ(0, dm_free(self->fd, dev, h));
	close(fd2);
}

static void fill_random(unsigned char *p, size_t n, unsigned int seed)
{
	size_t i;

	srandom(seed);
	for (i = 0; i < n; i++)
		p[i] = random();
}

static int all_zero(const unsigned char *p, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (p[i])
			return 0;
	return 1;
}

/*
 * Random data written and read back byte-exact on every device: whole
 * allocation, unaligned pieces across the 2 MiB chunk boundary, fresh
 * allocations (even reusing just-freed dirty memory) read back zero.
 */
TEST_F(dm, write_read_every_device)
{
	const size_t size = 3 * MIB + 12345;
	unsigned char *w = malloc(size), *r = malloc(size);
	uint64_t h, off, off2;
	int i;

	ASSERT_NE(NULL, w);
	ASSERT_NE(NULL, r);
	for (i = 0; i < self->ndevs; i++) {
		uint32_t dev = self->devs[i].id;

		ASSERT_EQ(0, dm_alloc(self->fd, dev, size, &h, &off));
		EXPECT_EQ(0, off % 4096);
		EXPECT_LE(off + size, self->devs[i].mem_total);
		memset(r, 0xff, size);
		ASSERT_EQ(0, dm_read(self->fd, dev, h, 0, r, size));
		EXPECT_TRUE(all_zero(r, size)) TH_LOG("device %u not zeroed", dev);

		fill_random(w, size, 1234 + i);
		ASSERT_EQ(0, dm_write(self->fd, dev, h, 0, w, size));
		memset(r, 0, size);
		ASSERT_EQ(0, dm_read(self->fd, dev, h, 0, r, size));
		EXPECT_EQ(0, memcmp(w, r, size)) TH_LOG("device %u", dev);

		/* unaligned piece straddling the 2 MiB boundary */
		fill_random(w, 8191, 99 + i);
		ASSERT_EQ(0, dm_write(self->fd, dev, h, 2 * MIB - 4001, w, 8191));
		memset(r, 0, 8191);
		ASSERT_EQ(0, dm_read(self->fd, dev, h, 2 * MIB - 4001, r, 8191));
		EXPECT_EQ(0, memcmp(w, r, 8191));
		ASSERT_EQ(0, dm_read(self->fd, dev, h, size - 1, r, 1));

		/* freed dirty memory comes back zeroed */
		ASSERT_EQ(0, dm_free(self->fd, dev, h));
		ASSERT_EQ(0, dm_alloc(self->fd, dev, size, &h, &off2));
		memset(r, 0xff, size);
		ASSERT_EQ(0, dm_read(self->fd, dev, h, 0, r, size));
		EXPECT_TRUE(all_zero(r, size))
			TH_LOG("device %u: reused memory not zeroed (off %llu/%llu)",
			       dev, (unsigned long long)off,
			       (unsigned long long)off2);
		ASSERT_EQ(0, dm_free(self->fd, dev, h));
		EXPECT_EQ(self->devs[i].mem_total, dev_mem_free(self->fd, dev));
	}
	free(w);
	free(r);
}

/* Allocations of one device do not alias another's. */
TEST_F(dm, devices_are_separate)
{
	unsigned char *buf = malloc(self->ndevs * 4096), r[4096];
	uint64_t h[UVM_MAX_DEVICES];
	int i;

	ASSERT_NE(NULL, buf);
	fill_random(buf, self->ndevs * 4096, 7);
	for (i = 0; i < self->ndevs; i++) {
		ASSERT_EQ(0, dm_alloc(self->fd, self->devs[i].id, 4096, &h[i], NULL));
		ASSERT_EQ(0, dm_write(self->fd, self->devs[i].id, h[i], 0,
				      buf + i * 4096, 4096));
	}
	for (i = 0; i < self->ndevs; i++) {
		ASSERT_EQ(0, dm_read(self->fd, self->devs[i].id, h[i], 0, r, 4096));
		EXPECT_EQ(0, memcmp(buf + i * 4096, r, 4096));
		EXPECT_EQ(0, dm_free(self->fd, self->devs[i].id, h[i]));
	}
	free(buf);
}

/* Fill each device until -ENOSPC; everything comes back after. */
TEST_F(dm, enospc_when_full)
{
	const uint64_t chunk = 16 * MIB;
	int i;

	for (i = 0; i < self->ndevs; i++) {
		uint32_t dev = self->devs[i].id;
		uint64_t total = self->devs[i].mem_total;
		uint64_t *h = calloc(total / chunk + 2, sizeof(*h));
		uint64_t n = 0, k, small;
		int ret;

		ASSERT_NE(NULL, h);
		while ((ret = dm_alloc(self->fd, dev, chunk, &h[n], NULL)) == 0)
			n++;
		EXPECT_EQ(-ENOSPC, ret);
		EXPECT_EQ(total / chunk, n);
		EXPECT_EQ(total % chunk, dev_mem_free(self->fd, dev));
		if (total % chunk == 0)
			EXPECT_EQ(-ENOSPC, dm_alloc(self->fd, dev, 4096, &small, NULL));
		for (k = 0; k < n; k++) {
			EXPECT_EQ(0, dm_free(self->fd, dev, h[k]));
		}
		EXPECT_EQ(total, dev_mem_free(self->fd, dev));
		free(h);
	}
}

/* A closed VA space gives its allocations back. */
TEST_F(dm, release_frees_allocations)
{
	uint32_t dev = self->devs[0].id;
	uint64_t h;
	int fd2 = uvm_open_va();

	ASSERT_LE(0, fd2);
	ASSERT_EQ(0, dm_alloc(fd2, dev, 4 * MIB, &h, NULL));
	ASSERT_EQ(0, dm_alloc(fd2, dev, 4096, &h, NULL));
	EXPECT_EQ(self->devs[0].mem_total - 4 * MIB - 4096,
		  dev_mem_free(self->fd, dev));
	close(fd2);
	EXPECT_EQ(self->devs[0].mem_total, dev_mem_free(self->fd, dev));
}

TEST_HARNESS_MAIN
