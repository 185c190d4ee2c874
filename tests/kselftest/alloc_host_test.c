// SPDX-License-Identifier: GPL-2.0
/*
 * alloc_host_test - UVM_IOCTL_ALLOC_HOST: pinned host allocations, flags,
 * write-combined mappings, NUMA placement, lifetime and error paths.
 */
// LDLIBS: -lnuma
#include <numaif.h>

#include "kselftest_harness.h"
#include "alloc_util.h"

FIXTURE(host)
{
	int fd;
};

FIXTURE_SETUP(host)
{
	self->fd = uvm_open();
	ASSERT_LE(0, self->fd);
}

FIXTURE_TEARDOWN(host)
{
	close(self->fd);
}

TEST_F(host, cpu_access_and_flags)
{
	uint32_t f;

	for (f = 0; f <= UVM_HOST_ALLOC_FLAGS; f++) {
		struct uvm_ptr_info pi;
		char *h = halloc(self->fd, 3 * PAGE + 5, f, -1);

		ASSERT_NE(NULL, h);
		EXPECT_EQ(0, h[0]);
		memset(h, 0x7e, 3 * PAGE + 5);
		EXPECT_EQ(0x7e, h[3 * PAGE + 4]);
		ASSERT_EQ(0, ptrinfo(self->fd, h + PAGE, &pi));
		EXPECT_EQ(UVM_PTR_HOST_ALLOC, pi.type);
		EXPECT_EQ(f, pi.alloc_flags);
		EXPECT_EQ((uintptr_t)h, pi.base);
		EXPECT_EQ(4 * PAGE, pi.size);
		EXPECT_EQ((uintptr_t)h + PAGE, pi.dev_addr);
		EXPECT_EQ((uintptr_t)h + PAGE, pi.host_addr);
		EXPECT_EQ(0, ufree_unmap(self->fd, h, 4 * PAGE));
	}
}

TEST_F(host, counters_return)
{
	struct uvm_mem_counters c0 = counters(self->fd);
	char *h = halloc(self->fd, 16 * PAGE, UVM_HOST_ALLOC_WRITECOMBINED, -1);

	ASSERT_NE(NULL, h);
	EXPECT_EQ(c0.host_alloc_pages + 16, counters(self->fd).host_alloc_pages);
	EXPECT_EQ(c0.va_host_alloc_pages + 16,
		  counters(self->fd).va_host_alloc_pages);
	ufree_unmap(self->fd, h, 16 * PAGE);
	EXPECT_EQ(c0.host_alloc_pages, counters(self->fd).host_alloc_pages);
}

static void touch(void *p)
{
	(void)*(volatile char *)p;
}

TEST_F(host, free_zaps_mapping)
{
	char *h = halloc(self->fd, PAGE, 0, -1);
	uint64_t before;

	ASSERT_NE(NULL, h);
	before = counters(self->fd).host_alloc_pages;
	ASSERT_EQ(0, ufree(self->fd, h));
	EXPECT_EQ(before - 1, counters(self->fd).host_alloc_pages);
	/* the dead VMA has no pages: copies from it fault */
	EXPECT_EQ(-EFAULT, mcpy(self->fd, &before, h, 8));
	munmap(h, PAGE);
}

TEST_F(host, munmap_frees)
{
	char *h = halloc(self->fd, PAGE, 0, -1);
	uint64_t before;

	ASSERT_NE(NULL, h);
	before = counters(self->fd).host_alloc_pages;
	munmap(h, PAGE);
	EXPECT_EQ(before - 1, counters(self->fd).host_alloc_pages);
	EXPECT_EQ(-ENOENT, ufree(self->fd, h));
}

TEST_F(host, numa_node)
{
	int nodes = getenv("UVM_VM_NODES") ? atoi(getenv("UVM_VM_NODES")) : 1, n, st;
	char *h;

	for (n = 0; n < nodes; n++) {
		h = halloc(self->fd, PAGE, 0, n);
		ASSERT_NE(NULL, h);
		st = -1;
		EXPECT_EQ(0, uvm_move_pages_query(h, &st));
		EXPECT_EQ(n, st);
		ufree_unmap(self->fd, h, PAGE);
	}
}

TEST_F(host, bad_flags)
{
	struct uvm_alloc_host a = { .size = PAGE, .flags = 8, .numa_node = -1 };

	EXPECT_EQ(-EINVAL, uvm_ioctl(self->fd, UVM_IOCTL_ALLOC_HOST, &a));
}

TEST_F(host, bad_node)
{
	struct uvm_alloc_host a = { .size = PAGE, .numa_node = 1000 };

	EXPECT_EQ(-EINVAL, uvm_ioctl(self->fd, UVM_IOCTL_ALLOC_HOST, &a));
	a.numa_node = -2;
	EXPECT_EQ(-EINVAL, uvm_ioctl(self->fd, UVM_IOCTL_ALLOC_HOST, &a));
}

TEST_F(host, size_zero)
{
	struct uvm_alloc_host a = { .size = 0, .numa_node = -1 };

	EXPECT_EQ(-EINVAL, uvm_ioctl(self->fd, UVM_IOCTL_ALLOC_HOST, &a));
}

TEST_F(host, too_large)
{
	struct uvm_alloc_host a = { .size = 1ULL << 45, .numa_node = -1 };

	EXPECT_EQ(-ENOMEM, uvm_ioctl(self->fd, UVM_IOCTL_ALLOC_HOST, &a));
	a.size = UINT64_MAX;
	EXPECT_EQ(-EINVAL, uvm_ioctl(self->fd, UVM_IOCTL_ALLOC_HOST, &a));
}

TEST_F(host, fork_child_has_no_mapping)
{
	char *h = halloc(self->fd, PAGE, 0, -1);

	ASSERT_NE(NULL, h);
	EXPECT_EQ(SIGSEGV, child_signal(touch, h));
	ufree_unmap(self->fd, h, PAGE);
}

TEST_HARNESS_MAIN
