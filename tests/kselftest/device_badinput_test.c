// SPDX-License-Identifier: GPL-2.0
/*
 * Device side: every invalid input of UVM_IOCTL_DEVICE_ACCESS and
 * UVM_IOCTL_DISCARD gets its errno and changes nothing.
 */
#include <stdio.h>

#include "kselftest_harness.h"
#include "uvm_test_util.h"

FIXTURE(bad)
{
	int fd, dev;
	unsigned char *p;
	size_t len;
};

FIXTURE_SETUP(bad)
{
	self->fd = uvm_open();
	ASSERT_LE(0, self->fd);
	self->dev = uvm_find_device(self->fd, 0, 0);
	if (self->dev < 0)
		SKIP(return, "needs a device");
	self->len = 16 * PAGE;
	self->p = uvm_map(self->fd, self->len);
	ASSERT_NE(NULL, self->p);
	memset(self->p, 0x3c, self->len);
}

FIXTURE_TEARDOWN(bad)
{
	munmap(self->p, self->len);
	close(self->fd);
}

static int access_n(int fd, uint32_t dev, struct uvm_access *a, uint32_t n,
		    uint32_t flags)
{
	struct uvm_device_access da = {
		.device = dev, .count = n, .accesses = (uintptr_t)a,
		.flags = flags,
	};

	return uvm_ioctl(fd, UVM_IOCTL_DEVICE_ACCESS, &da);
}

/* Nothing moved: still on the host, no device fault counted. */
static int untouched(int fd, unsigned char *p, size_t len)
{
	struct uvm_page_residency r = uvm_res1(fd, p);

	return !r.devices_resident && r.cpu_node >= 0 && p[len - 1] == 0x3c &&
	       uvm_stat(fd, UVM_STAT_DEVICE_FAULTS, UVM_STATS_VA_SPACE) == 0;
}

TEST_F(bad, unknown_device)
{
	char buf[8];

	EXPECT_EQ(-ENODEV, uvm_dev_read(self->fd, 31, self->p, 8, buf));
	EXPECT_EQ(-ENODEV, uvm_dev_read(self->fd, 1000, self->p, 8, buf));
	EXPECT_TRUE(untouched(self->fd, self->p, self->len));
}

TEST_F(bad, count_and_flags)
{
	char buf[8];
	struct uvm_access a = { (uintptr_t)self->p, 8, (uintptr_t)buf,
				UVM_ACCESS_READ, 0 };

	EXPECT_EQ(-EINVAL, access_n(self->fd, self->dev, &a, 0, 0));
	EXPECT_EQ(-EINVAL, access_n(self->fd, self->dev, &a, UVM_ACCESS_MAX + 1, 0));
	EXPECT_EQ(-EINVAL, access_n(self->fd, self->dev, &a, 1, 1));
	EXPECT_TRUE(untouched(self->fd, self->p, self->len));
}

TEST_F(bad, access_type_pad_and_zero_length)
{
	char buf[8];
	struct uvm_access a = { (uintptr_t)self->p, 8, (uintptr_t)buf, 0, 0 };

	EXPECT_EQ(-EINVAL, access_n(self->fd, self->dev, &a, 1, 0));
	a.type = 4;
	EXPECT_EQ(-EINVAL, access_n(self->fd, self->dev, &a, 1, 0));
	a.type = UVM_ACCESS_READ;
	a.pad = 1;
	EXPECT_EQ(-EINVAL, access_n(self->fd, self->dev, &a, 1, 0));
	a.pad = 0;
	a.length = 0;
	EXPECT_EQ(-EINVAL, access_n(self->fd, self->dev, &a, 1, 0));
	EXPECT_TRUE(untouched(self->fd, self->p, self->len));
}

TEST_F(bad, atomic_misaligned_or_wrong_size)
{
	uint64_t v = 1;

	EXPECT_EQ(-EINVAL, uvm_dev_access(self->fd, self->dev, self->p + 4, 8,
					  UVM_ACCESS_ATOMIC_ADD, &v));
	EXPECT_EQ(-EINVAL, uvm_dev_access(self->fd, self->dev, self->p, 4,
					  UVM_ACCESS_ATOMIC_ADD, &v));
	EXPECT_TRUE(untouched(self->fd, self->p, self->len));
}

TEST_F(bad, outside_managed_memory_and_overflow)
{
	char *anon = mmap(NULL, PAGE, PROT_READ | PROT_WRITE,
			  MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	struct uvm_access a[2] = {
		{ (uintptr_t)self->p, 8, (uintptr_t)anon, UVM_ACCESS_WRITE, 0 },
		{ (uintptr_t)anon, 8, (uintptr_t)anon, UVM_ACCESS_READ, 0 },
	};

	/*
	 * The second access is bad: the first must not happen either. (An
	 * access wholly outside managed memory is one to pageable memory,
	 * pageable_test.c.)
	 */
	a[1].addr = (uintptr_t)self->p + self->len - 4;
	EXPECT_EQ(-EINVAL, access_n(self->fd, self->dev, a, 2, 0));
	a[1].addr = UINT64_MAX - 4;
	a[1].length = 16;
	EXPECT_EQ(-EINVAL, access_n(self->fd, self->dev, a, 2, 0));
	EXPECT_TRUE(untouched(self->fd, self->p, self->len));
	munmap(anon, PAGE);
}

TEST_F(bad, bad_user_pointers)
{
	struct uvm_device_access da = { .device = self->dev, .count = 1,
					.accesses = 8 };

	EXPECT_EQ(-EFAULT, uvm_ioctl(self->fd, UVM_IOCTL_DEVICE_ACCESS, &da));
	EXPECT_EQ(-EFAULT, uvm_ioctl(self->fd, UVM_IOCTL_DEVICE_ACCESS,
				     (void *)16));
	/* A data buffer that faults: -EFAULT, managed data unchanged. */
	EXPECT_EQ(-EFAULT, uvm_dev_write(self->fd, self->dev, self->p, 64,
					 (void *)24));
	EXPECT_EQ(0x3c, self->p[10]);
}

/*
 * Data buffers that fault part way (small accesses are copied 8 bytes at a
 * time, then byte by byte): a read into a read-only page or one running
 * into an unmapped page, a write from one running into an unmapped page.
 */
TEST_F(bad, data_buffers_that_fault_part_way)
{
	char *two = mmap(NULL, 2 * PAGE, PROT_READ | PROT_WRITE,
			 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	char *ro = mmap(NULL, PAGE, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS,
			-1, 0);

	ASSERT_NE(MAP_FAILED, two);
	ASSERT_NE(MAP_FAILED, ro);
	ASSERT_EQ(0, munmap(two + PAGE, PAGE));
	memset(two, 0x5a, PAGE);
	EXPECT_EQ(-EFAULT, uvm_dev_read(self->fd, self->dev, self->p, 64, ro));
	EXPECT_EQ(-EFAULT, uvm_dev_read(self->fd, self->dev, self->p, 13,
					two + PAGE - 5));
	EXPECT_EQ(-EFAULT, uvm_dev_read(self->fd, self->dev, self->p, 64,
					two + PAGE - 24));
	EXPECT_EQ(-EFAULT, uvm_dev_write(self->fd, self->dev, self->p, 13,
					 two + PAGE - 5));
	EXPECT_EQ(-EFAULT, uvm_dev_write(self->fd, self->dev, self->p, 64,
					 two + PAGE - 24));
	EXPECT_EQ(0x3c, self->p[0]);
	EXPECT_EQ(0x3c, self->p[63]);
	/* The same buffers, whole: the accesses work. */
	EXPECT_EQ(0, uvm_dev_read(self->fd, self->dev, self->p, 13,
				  two + PAGE - 13));
	EXPECT_EQ(0x3c, two[PAGE - 1]);
	munmap(two, PAGE);
	munmap(ro, PAGE);
}

TEST_F(bad, discard_bad_input)
{
	EXPECT_EQ(-EINVAL, uvm_discard(self->fd, self->p, 0, 0, 0, 0));
	EXPECT_EQ(-EINVAL, uvm_discard(self->fd, self->p, PAGE, 2, 0, 0));
	EXPECT_EQ(-EINVAL, uvm_discard(self->fd, self->p, PAGE, 0,
				       UVM_LOC_HOST, 0));
	EXPECT_EQ(-ENODEV, uvm_discard(self->fd, self->p, PAGE,
				       UVM_DISCARD_PREFETCH, UVM_LOC_DEVICE, 31));
	EXPECT_EQ(-EINVAL, uvm_discard(self->fd, self->p, self->len + PAGE, 0,
				       0, 0));
	EXPECT_EQ(-EINVAL, uvm_discard(self->fd, self->p - PAGE, PAGE, 0, 0,
				       0));
	{
		struct uvm_discard d = { (uintptr_t)self->p, PAGE, { 0, 0 }, 0, 1 };

		EXPECT_EQ(-EINVAL, uvm_ioctl(self->fd, UVM_IOCTL_DISCARD, &d));
	}
	EXPECT_TRUE(untouched(self->fd, self->p, self->len));
}

TEST_F(bad, fault_batch_parameter_range)
{
	int fd = open("/sys/module/uvm/parameters/fault_batch", O_RDWR);
	char buf[32] = { 0 };

	ASSERT_LE(0, fd);
	EXPECT_EQ(-1, write(fd, "0", 1));
	EXPECT_EQ(-1, write(fd, "4097", 4));
	ASSERT_LT(0, pread(fd, buf, sizeof(buf) - 1, 0));
	EXPECT_EQ(256, atoi(buf));
	close(fd);
}

TEST_HARNESS_MAIN
