// SPDX-License-Identifier: GPL-2.0
/*
 * Managed memory: every invalid input of the managed-memory ioctls gets
 * its errno and changes nothing (checked through the attribute query).
 */
#include <stdio.h>
#include <sys/wait.h>

#include "kselftest_harness.h"
#include "uvm_test_util.h"

FIXTURE(bad)
{
	int fd;
	char *p;
	size_t len;
};

FIXTURE_SETUP(bad)
{
	self->fd = uvm_open();
	ASSERT_LE(0, self->fd);
	self->len = 16 * PAGE;
	self->p = uvm_map(self->fd, self->len);
	ASSERT_NE(NULL, self->p);
}

FIXTURE_TEARDOWN(bad)
{
	munmap(self->p, self->len);
	close(self->fd);
}

/* Nothing changed: default policy and never prefetched. */
static int untouched(int fd, char *p, size_t len)
{
	struct uvm_range_attrs a;

	return !uvm_attrs(fd, p, len, &a) && !a.read_mostly &&
	       a.preferred.type == UVM_LOC_NONE &&
	       a.last_prefetch.type == UVM_LOC_NONE &&
	       !a.accessed_by_devices && !a.accessed_by_host;
}

#define PREFETCH(t, addr, len, type, id, fl, pd)			\
	({ struct uvm_prefetch _a = { (uintptr_t)(addr), (len),	\
		{ (type), (id) }, (fl), (pd) };				\
	   uvm_ioctl(self->fd, UVM_IOCTL_PREFETCH, &_a); })

TEST_F(bad, prefetch_zero_length)
{
	EXPECT_EQ(-EINVAL, PREFETCH(t, self->p, 0, UVM_LOC_HOST, 0, 0, 0));
}

TEST_F(bad, prefetch_wrapping_range)
{
	EXPECT_EQ(-EINVAL, PREFETCH(t, self->p, UINT64_MAX, UVM_LOC_HOST, 0, 0, 0));
	EXPECT_EQ(-EINVAL, PREFETCH(t, UINT64_MAX - PAGE, 2 * PAGE,
				    UVM_LOC_HOST, 0, 0, 0));
	EXPECT_TRUE(untouched(self->fd, self->p, self->len));
}

TEST_F(bad, prefetch_unknown_flags_and_pad)
{
	EXPECT_EQ(-EINVAL, PREFETCH(t, self->p, PAGE, UVM_LOC_HOST, 0, 1, 0));
	EXPECT_EQ(-EINVAL, PREFETCH(t, self->p, PAGE, UVM_LOC_HOST, 0, 0, 1));
	EXPECT_EQ(-EINVAL, PREFETCH(t, self->p, PAGE, UVM_LOC_HOST_NUMA, 0, 2, 0));
	/* UVM_PREFETCH_NUMA_CURRENT goes with HOST_NUMA only */
	EXPECT_EQ(-EINVAL, PREFETCH(t, self->p, PAGE, UVM_LOC_DEVICE, 0,
				    UVM_PREFETCH_NUMA_CURRENT, 0));
	EXPECT_EQ(-EINVAL, PREFETCH(t, self->p, PAGE, UVM_LOC_HOST_NUMA_CURRENT, 0,
				    UVM_PREFETCH_NUMA_CURRENT, 0));
	EXPECT_TRUE(untouched(self->fd, self->p, self->len));
}

TEST_F(bad, prefetch_bad_locations)
{
	EXPECT_EQ(-EINVAL, PREFETCH(t, self->p, PAGE, UVM_LOC_NONE, 0, 0, 0));
	EXPECT_EQ(-EINVAL, PREFETCH(t, self->p, PAGE, 99, 0, 0, 0));
	EXPECT_EQ(-EINVAL, PREFETCH(t, self->p, PAGE, UVM_LOC_HOST_NUMA, 64, 0, 0));
	EXPECT_EQ(-EINVAL, PREFETCH(t, self->p, PAGE, UVM_LOC_HOST_NUMA, -1, 0, 0));
	EXPECT_EQ(-EINVAL, PREFETCH(t, self->p, PAGE, UVM_LOC_HOST, 3, 0, 0));
	EXPECT_EQ(-EINVAL, PREFETCH(t, self->p, PAGE,
				    UVM_LOC_HOST_NUMA_CURRENT, 1, 0, 0));
	EXPECT_EQ(-ENODEV, PREFETCH(t, self->p, PAGE, UVM_LOC_DEVICE, 31, 0, 0));
	EXPECT_EQ(-ENODEV, PREFETCH(t, self->p, PAGE, UVM_LOC_DEVICE, -1, 0, 0));
	EXPECT_TRUE(untouched(self->fd, self->p, self->len));
}

TEST_F(bad, prefetch_range_crossing_into_unmanaged_memory)
{
	char *anon = mmap(NULL, PAGE, PROT_READ | PROT_WRITE,
			  MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	ASSERT_NE(MAP_FAILED, anon);
	EXPECT_EQ(-EINVAL, PREFETCH(t, self->p, self->len + PAGE,
				    UVM_LOC_HOST, 0, 0, 0));
	EXPECT_EQ(-EINVAL, PREFETCH(t, self->p - PAGE, 2 * PAGE,
				    UVM_LOC_HOST, 0, 0, 0));
	EXPECT_EQ(-EINVAL, PREFETCH(t, anon, PAGE, UVM_LOC_HOST, 0, 0, 0));
	EXPECT_EQ(-EINVAL, PREFETCH(t, NULL, PAGE, UVM_LOC_HOST, 0, 0, 0));
	EXPECT_TRUE(untouched(self->fd, self->p, self->len));
	munmap(anon, PAGE);
}

TEST_F(bad, range_of_another_va_space)
{
	int fd2 = uvm_open();
	char *q;
	struct uvm_range_attrs a;

	ASSERT_LE(0, fd2);
	q = uvm_map(fd2, PAGE);
	ASSERT_NE(NULL, q);
	EXPECT_EQ(-EINVAL, uvm_prefetch(self->fd, q, PAGE, UVM_LOC_HOST, 0));
	EXPECT_EQ(-EINVAL, uvm_advise(self->fd, q, PAGE,
				      UVM_ADVISE_SET_READ_MOSTLY, 0, 0));
	EXPECT_EQ(-EINVAL, uvm_attrs(self->fd, q, PAGE, &a));
	EXPECT_EQ(0, uvm_attrs(fd2, q, PAGE, &a));
	EXPECT_EQ(0, a.read_mostly);
	munmap(q, PAGE);
	close(fd2);
}

TEST_F(bad, foreign_process_gets_eperm)
{
	int status;
	pid_t pid = fork();

	ASSERT_LE(0, pid);
	if (!pid) {
		void *m;

		if (uvm_prefetch(self->fd, self->p, PAGE, UVM_LOC_HOST, 0) != -EPERM)
			_exit(1);
		m = mmap(NULL, PAGE, PROT_READ | PROT_WRITE, MAP_SHARED,
			 self->fd, 0);
		_exit(m == MAP_FAILED && errno == EPERM ? 0 : 2);
	}
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	EXPECT_TRUE(WIFEXITED(status));
	EXPECT_EQ(0, WEXITSTATUS(status));
}

TEST_F(bad, advise_unknown_advice)
{
	EXPECT_EQ(-EINVAL, uvm_advise(self->fd, self->p, PAGE, 0, 0, 0));
	EXPECT_EQ(-EINVAL, uvm_advise(self->fd, self->p, PAGE, 7, 0, 0));
	EXPECT_TRUE(untouched(self->fd, self->p, self->len));
}

TEST_F(bad, advise_flags_and_zero_length)
{
	struct uvm_advise a = {
		.addr = (uintptr_t)self->p, .length = PAGE,
		.advice = UVM_ADVISE_SET_READ_MOSTLY, .flags = 1,
	};

	EXPECT_EQ(-EINVAL, uvm_ioctl(self->fd, UVM_IOCTL_ADVISE, &a));
	EXPECT_EQ(-EINVAL, uvm_advise(self->fd, self->p, 0,
				      UVM_ADVISE_SET_READ_MOSTLY, 0, 0));
	EXPECT_TRUE(untouched(self->fd, self->p, self->len));
}

TEST_F(bad, advise_bad_locations)
{
	/* Read-mostly and unset-preferred take no location. */
	EXPECT_EQ(-EINVAL, uvm_advise(self->fd, self->p, PAGE,
				      UVM_ADVISE_SET_READ_MOSTLY, UVM_LOC_HOST, 0));
	EXPECT_EQ(-EINVAL, uvm_advise(self->fd, self->p, PAGE,
				      UVM_ADVISE_UNSET_PREFERRED_LOCATION,
				      UVM_LOC_HOST_NUMA, 0));
	EXPECT_EQ(-EINVAL, uvm_advise(self->fd, self->p, PAGE,
				      UVM_ADVISE_SET_PREFERRED_LOCATION,
				      UVM_LOC_NONE, 0));
	EXPECT_EQ(-EINVAL, uvm_advise(self->fd, self->p, PAGE,
				      UVM_ADVISE_SET_PREFERRED_LOCATION,
				      UVM_LOC_HOST_NUMA, 1000));
	EXPECT_EQ(-ENODEV, uvm_advise(self->fd, self->p, PAGE,
				      UVM_ADVISE_SET_PREFERRED_LOCATION,
				      UVM_LOC_DEVICE, 30));
	/* Accessed-by: device or host only. */
	EXPECT_EQ(-EINVAL, uvm_advise(self->fd, self->p, PAGE,
				      UVM_ADVISE_SET_ACCESSED_BY,
				      UVM_LOC_HOST_NUMA, 0));
	EXPECT_EQ(-EINVAL, uvm_advise(self->fd, self->p, PAGE,
				      UVM_ADVISE_SET_ACCESSED_BY,
				      UVM_LOC_HOST_NUMA_CURRENT, 0));
	EXPECT_TRUE(untouched(self->fd, self->p, self->len));
}

TEST_F(bad, advise_partly_unmanaged)
{
	EXPECT_EQ(-EINVAL, uvm_advise(self->fd, self->p + PAGE, self->len,
				      UVM_ADVISE_SET_READ_MOSTLY, 0, 0));
	EXPECT_TRUE(untouched(self->fd, self->p, self->len));
}

TEST_F(bad, attrs_flags_and_unmanaged)
{
	struct uvm_range_attrs a = {
		.addr = (uintptr_t)self->p, .length = PAGE, .flags = 1,
	};

	EXPECT_EQ(-EINVAL, uvm_ioctl(self->fd, UVM_IOCTL_RANGE_ATTRS, &a));
	EXPECT_EQ(-EINVAL, uvm_attrs(self->fd, self->p, 0, &a));
	EXPECT_EQ(-EINVAL, uvm_attrs(self->fd, self->p, self->len + 1, &a));
	EXPECT_EQ(-EFAULT, uvm_ioctl(self->fd, UVM_IOCTL_RANGE_ATTRS,
				     (void *)8));
}

TEST_F(bad, residency_bad_input)
{
	struct uvm_page_residency r[64];
	struct uvm_residency a = {
		.addr = (uintptr_t)self->p, .npages = 1, .pages = (uintptr_t)r,
	};

	a.flags = 1;
	EXPECT_EQ(-EINVAL, uvm_ioctl(self->fd, UVM_IOCTL_RESIDENCY, &a));
	a.flags = 0;
	a.pad = 1;
	EXPECT_EQ(-EINVAL, uvm_ioctl(self->fd, UVM_IOCTL_RESIDENCY, &a));
	a.pad = 0;
	a.npages = 0;
	EXPECT_EQ(-EINVAL, uvm_ioctl(self->fd, UVM_IOCTL_RESIDENCY, &a));
	a.npages = (1 << 20) + 1;
	EXPECT_EQ(-EINVAL, uvm_ioctl(self->fd, UVM_IOCTL_RESIDENCY, &a));
	a.npages = 17;		/* one page past the mapping: nothing written */
	memset(r, 0x5a, sizeof(r));
	EXPECT_EQ(-EINVAL, uvm_ioctl(self->fd, UVM_IOCTL_RESIDENCY, &a));
	EXPECT_EQ(0x5a5a5a5a, (uint32_t)r[0].flags);
	a.npages = 1;
	a.pages = 16;
	EXPECT_EQ(-EFAULT, uvm_ioctl(self->fd, UVM_IOCTL_RESIDENCY, &a));
}

TEST_F(bad, stats_bad_input)
{
	uint64_t v[UVM_STAT_COUNT];
	struct uvm_stats a = { .values = (uintptr_t)v, .count = 1, .scope = 2 };

	EXPECT_EQ(-EINVAL, uvm_ioctl(self->fd, UVM_IOCTL_STATS, &a));
	a.scope = 0;
	a.flags = 1;
	EXPECT_EQ(-EINVAL, uvm_ioctl(self->fd, UVM_IOCTL_STATS, &a));
	a.flags = 0;
	a.values = 8;
	EXPECT_EQ(-EFAULT, uvm_ioctl(self->fd, UVM_IOCTL_STATS, &a));
	a.count = 0;
	EXPECT_EQ(0, uvm_ioctl(self->fd, UVM_IOCTL_STATS, &a));
	EXPECT_EQ(UVM_STAT_COUNT, a.count);
}

TEST_F(bad, fault_granule_parameter_range)
{
	int fd = open("/sys/module/uvm/parameters/fault_granule_kb", O_RDWR);
	char buf[32] = { 0 };

	ASSERT_LE(0, fd);
	EXPECT_EQ(-1, write(fd, "3", 1));
	EXPECT_EQ(-1, write(fd, "4096", 4));
	EXPECT_EQ(-1, write(fd, "0", 1));
	ASSERT_LT(0, pread(fd, buf, sizeof(buf) - 1, 0));
	EXPECT_EQ(64, atoi(buf));
	close(fd);
}

TEST_HARNESS_MAIN
