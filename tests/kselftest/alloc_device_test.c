// SPDX-License-Identifier: GPL-2.0
/*
 * alloc_device_test - UVM_IOCTL_ALLOC_DEVICE / FREE / PTR_INFO: device
 * allocations, their CPU-inaccessible VMAs, lifetime and every error path.
 * Needs at least one device (default VM: two ivshmem devices).
 */
#include "kselftest_harness.h"
#include "alloc_util.h"

FIXTURE(dev)
{
	int fd;
};

FIXTURE_SETUP(dev)
{
	self->fd = uvm_open();
	ASSERT_LE(0, self->fd);
	if (ndevices(self->fd) < 1)
		SKIP(return, "no device");
}

FIXTURE_TEARDOWN(dev)
{
	close(self->fd);
}

static struct uvm_alloc_device alloc_args(uint32_t dev, uint64_t size)
{
	struct uvm_alloc_device a = { .size = size, .device = dev };

	return a;
}

TEST_F(dev, fill_readback)
{
	size_t n = 3 * MIB + 123;
	unsigned char *src = malloc(n), *dst = malloc(n);
	char *d = dalloc(self->fd, 0, n);
	size_t i;

	ASSERT_NE(NULL, d);
	fill_random(src, n, 1);
	ASSERT_EQ(0, mset(self->fd, d, 0x5a, n));
	ASSERT_EQ(0, mcpy(self->fd, dst, d, n));
	for (i = 0; i < n; i++) {
		ASSERT_EQ(0x5a, dst[i]);
	}
	ASSERT_EQ(0, mcpy(self->fd, d, src, n));
	memset(dst, 0, n);
	ASSERT_EQ(0, mcpy(self->fd, dst, d, n));
	ASSERT_EQ(0, memcmp(src, dst, n));
	ASSERT_EQ(0, ufree_unmap(self->fd, d, n));
}

TEST_F(dev, ptr_info)
{
	struct uvm_ptr_info pi;
	char *d = dalloc(self->fd, 0, 2 * MIB);

	ASSERT_NE(NULL, d);
	ASSERT_EQ(0, ptrinfo(self->fd, d + 4097, &pi));
	EXPECT_EQ(UVM_PTR_DEVICE, pi.type);
	EXPECT_EQ((uintptr_t)d, pi.base);
	EXPECT_EQ(2 * MIB, pi.size);
	EXPECT_EQ(0, pi.device);
	EXPECT_EQ((uintptr_t)d + 4097, pi.dev_addr);
	EXPECT_EQ(0, pi.host_addr);
	EXPECT_NE(0, pi.buffer_id);
	ASSERT_EQ(0, ufree(self->fd, d));
	ASSERT_EQ(0, ptrinfo(self->fd, d, &pi));
	EXPECT_EQ(UVM_PTR_UNREGISTERED, pi.type);
	munmap(d, 2 * MIB);
}

TEST_F(dev, buffer_ids_unique)
{
	struct uvm_ptr_info a, b;
	char *p = dalloc(self->fd, 0, PAGE), *q;

	ASSERT_NE(NULL, p);
	ASSERT_EQ(0, ptrinfo(self->fd, p, &a));
	ufree_unmap(self->fd, p, PAGE);
	q = dalloc(self->fd, 0, PAGE);
	ASSERT_NE(NULL, q);
	ASSERT_EQ(0, ptrinfo(self->fd, q, &b));
	EXPECT_NE(a.buffer_id, b.buffer_id);
	ufree_unmap(self->fd, q, PAGE);
}

static void touch_read(void *p)
{
	(void)*(volatile char *)p;
}

static void touch_write(void *p)
{
	*(volatile char *)p = 1;
}

TEST_F(dev, cpu_touch_kills_only_toucher)
{
	char *d = dalloc(self->fd, 0, PAGE);
	int sig;

	ASSERT_NE(NULL, d);
	sig = child_signal(touch_read, d);
	EXPECT_TRUE(sig == SIGBUS || sig == SIGSEGV);
	sig = child_signal(touch_write, d);
	EXPECT_TRUE(sig == SIGBUS || sig == SIGSEGV);
	/* still alive and the allocation still works */
	EXPECT_EQ(0, mset(self->fd, d, 1, PAGE));
	EXPECT_EQ(0, ufree_unmap(self->fd, d, PAGE));
}

TEST_F(dev, munmap_frees)
{
	uint64_t before = counters(self->fd).va_device_bytes;
	char *d = dalloc(self->fd, 0, 4 * MIB);

	ASSERT_NE(NULL, d);
	EXPECT_EQ(before + 4 * MIB, counters(self->fd).va_device_bytes);
	ASSERT_EQ(0, munmap(d, 4 * MIB));
	EXPECT_EQ(before, counters(self->fd).va_device_bytes);
	EXPECT_EQ(-ENOENT, ufree(self->fd, d));
}

TEST_F(dev, free_releases_memory)
{
	uint64_t before = counters(self->fd).va_device_bytes;
	char *d = dalloc(self->fd, 0, 4 * MIB);

	ASSERT_NE(NULL, d);
	ASSERT_EQ(0, ufree(self->fd, d));
	EXPECT_EQ(before, counters(self->fd).va_device_bytes);
	/* the dead VMA: still no CPU access, no copies */
	EXPECT_EQ(-EFAULT, mset(self->fd, d, 0, PAGE));
	munmap(d, 4 * MIB);
}

TEST_F(dev, free_by_handle_unmapped)
{
	struct uvm_alloc_device a = alloc_args(0, PAGE);
	struct uvm_free f = { 0 };

	ASSERT_EQ(0, uvm_ioctl(self->fd, UVM_IOCTL_ALLOC_DEVICE, &a));
	f.handle = a.handle;
	EXPECT_EQ(0, uvm_ioctl(self->fd, UVM_IOCTL_FREE, &f));
	EXPECT_EQ(-ENOENT, uvm_ioctl(self->fd, UVM_IOCTL_FREE, &f));
	EXPECT_EQ(MAP_FAILED, mmap(NULL, PAGE, PROT_READ, MAP_SHARED, self->fd,
				   a.mmap_offset));
}

TEST_F(dev, close_frees_unmapped)
{
	struct uvm_alloc_device a = alloc_args(0, 8 * MIB);
	int fd2 = uvm_open();

	ASSERT_LE(0, fd2);
	ASSERT_EQ(0, uvm_ioctl(fd2, UVM_IOCTL_ALLOC_DEVICE, &a));
	EXPECT_EQ(8 * MIB, counters(fd2).va_device_bytes);
	close(fd2);
}

TEST_F(dev, fork_child_has_no_mapping)
{
	char *d = dalloc(self->fd, 0, PAGE);

	ASSERT_NE(NULL, d);
	EXPECT_EQ(SIGSEGV, child_signal(touch_read, d));
	ufree_unmap(self->fd, d, PAGE);
}

TEST_F(dev, free_interior)
{
	char *d = dalloc(self->fd, 0, 2 * PAGE);

	ASSERT_NE(NULL, d);
	EXPECT_EQ(-EINVAL, ufree(self->fd, d + PAGE));
	EXPECT_EQ(-EINVAL, ufree(self->fd, d + 1));
	EXPECT_EQ(0, ufree_unmap(self->fd, d, 2 * PAGE));
}

TEST_F(dev, free_non_device)
{
	char *p = anon(PAGE);

	EXPECT_EQ(-ENOENT, ufree(self->fd, p));
	munmap(p, PAGE);
}

TEST_F(dev, free_managed)
{
	char *p = uvm_map(self->fd, PAGE);

	ASSERT_NE(NULL, p);
	EXPECT_EQ(-ENOENT, ufree(self->fd, p));
	munmap(p, PAGE);
}

TEST_F(dev, double_free)
{
	char *d = dalloc(self->fd, 0, PAGE);

	ASSERT_NE(NULL, d);
	EXPECT_EQ(0, ufree(self->fd, d));
	EXPECT_EQ(-ENOENT, ufree(self->fd, d));
	munmap(d, PAGE);
}

TEST_F(dev, free_bad_args)
{
	struct uvm_free f = { .addr = 4096, .handle = 1 };

	EXPECT_EQ(-EINVAL, uvm_ioctl(self->fd, UVM_IOCTL_FREE, &f));
	f = (struct uvm_free){ 0 };
	EXPECT_EQ(-EINVAL, uvm_ioctl(self->fd, UVM_IOCTL_FREE, &f));
	f = (struct uvm_free){ .addr = 4096, .flags = 1 };
	EXPECT_EQ(-EINVAL, uvm_ioctl(self->fd, UVM_IOCTL_FREE, &f));
	f = (struct uvm_free){ .addr = 4096, .pad = 1 };
	EXPECT_EQ(-EINVAL, uvm_ioctl(self->fd, UVM_IOCTL_FREE, &f));
}

TEST_F(dev, alloc_flags)
{
	struct uvm_alloc_device a = alloc_args(0, PAGE);

	a.flags = 1;
	EXPECT_EQ(-EINVAL, uvm_ioctl(self->fd, UVM_IOCTL_ALLOC_DEVICE, &a));
}

TEST_F(dev, alloc_size_zero)
{
	struct uvm_alloc_device a = alloc_args(0, 0);

	EXPECT_EQ(-EINVAL, uvm_ioctl(self->fd, UVM_IOCTL_ALLOC_DEVICE, &a));
}

TEST_F(dev, alloc_size_overflow)
{
	struct uvm_alloc_device a = alloc_args(0, UINT64_MAX - 1);

	EXPECT_EQ(-EINVAL, uvm_ioctl(self->fd, UVM_IOCTL_ALLOC_DEVICE, &a));
}

TEST_F(dev, alloc_bad_device)
{
	struct uvm_alloc_device a = alloc_args(UVM_MAX_DEVICES, PAGE);

	EXPECT_EQ(-ENODEV, uvm_ioctl(self->fd, UVM_IOCTL_ALLOC_DEVICE, &a));
	a.device = ndevices(self->fd);
	EXPECT_EQ(-ENODEV, uvm_ioctl(self->fd, UVM_IOCTL_ALLOC_DEVICE, &a));
}

TEST_F(dev, alloc_larger_than_device)
{
	struct uvm_alloc_device a = alloc_args(0, 1ULL << 40);

	EXPECT_EQ(-ENOSPC, uvm_ioctl(self->fd, UVM_IOCTL_ALLOC_DEVICE, &a));
}

TEST_F(dev, out_of_memory_then_recover)
{
	struct uvm_alloc_device a;
	uint64_t handles[4096];
	int n = 0, ret = 0, i;
	struct uvm_free f = { 0 };

	while (n < 4096) {
		a = alloc_args(0, 64 * MIB);
		ret = uvm_ioctl(self->fd, UVM_IOCTL_ALLOC_DEVICE, &a);
		if (ret)
			break;
		handles[n++] = a.handle;
	}
	EXPECT_EQ(-ENOSPC, ret);
	EXPECT_LT(0, n);
	for (i = 0; i < n; i++) {
		f.handle = handles[i];
		EXPECT_EQ(0, uvm_ioctl(self->fd, UVM_IOCTL_FREE, &f));
	}
	a = alloc_args(0, 64 * MIB);
	EXPECT_EQ(0, uvm_ioctl(self->fd, UVM_IOCTL_ALLOC_DEVICE, &a));
}

TEST_F(dev, mmap_wrong_size)
{
	struct uvm_alloc_device a = alloc_args(0, 2 * PAGE);

	ASSERT_EQ(0, uvm_ioctl(self->fd, UVM_IOCTL_ALLOC_DEVICE, &a));
	errno = 0;
	EXPECT_EQ(MAP_FAILED, mmap(NULL, PAGE, PROT_NONE, MAP_SHARED, self->fd,
				   a.mmap_offset));
	EXPECT_EQ(EINVAL, errno);
}

TEST_F(dev, mmap_twice)
{
	struct uvm_alloc_device a = alloc_args(0, PAGE);
	void *p;

	ASSERT_EQ(0, uvm_ioctl(self->fd, UVM_IOCTL_ALLOC_DEVICE, &a));
	p = mmap(NULL, PAGE, PROT_NONE, MAP_SHARED, self->fd, a.mmap_offset);
	ASSERT_NE(MAP_FAILED, p);
	errno = 0;
	EXPECT_EQ(MAP_FAILED, mmap(NULL, PAGE, PROT_NONE, MAP_SHARED, self->fd,
				   a.mmap_offset));
	EXPECT_EQ(EBUSY, errno);
	munmap(p, PAGE);
}

TEST_F(dev, mmap_unknown_cookie)
{
	errno = 0;
	EXPECT_EQ(MAP_FAILED, mmap(NULL, PAGE, PROT_NONE, MAP_SHARED, self->fd,
				   12345 * PAGE));
	EXPECT_EQ(EINVAL, errno);
}

TEST_F(dev, mmap_private)
{
	struct uvm_alloc_device a = alloc_args(0, PAGE);

	ASSERT_EQ(0, uvm_ioctl(self->fd, UVM_IOCTL_ALLOC_DEVICE, &a));
	errno = 0;
	EXPECT_EQ(MAP_FAILED, mmap(NULL, PAGE, PROT_READ, MAP_PRIVATE, self->fd,
				   a.mmap_offset));
	EXPECT_EQ(EINVAL, errno);
}

TEST_F(dev, partial_munmap_refused)
{
	char *d = dalloc(self->fd, 0, 2 * PAGE);

	ASSERT_NE(NULL, d);
	EXPECT_EQ(-1, munmap(d + PAGE, PAGE));
	EXPECT_EQ(EINVAL, errno);
	EXPECT_EQ(-1, mprotect(d, PAGE, PROT_NONE));
	EXPECT_EQ(0, ufree_unmap(self->fd, d, 2 * PAGE));
}

TEST_F(dev, mremap_refused)
{
	char *d = dalloc(self->fd, 0, PAGE);

	ASSERT_NE(NULL, d);
	EXPECT_EQ(MAP_FAILED, mremap(d, PAGE, 2 * PAGE, MREMAP_MAYMOVE));
	EXPECT_EQ(0, ufree_unmap(self->fd, d, PAGE));
}

TEST_F(dev, counters_bad_args)
{
	struct uvm_mem_counters c = { .flags = 1 };

	EXPECT_EQ(-EINVAL, uvm_ioctl(self->fd, UVM_IOCTL_MEM_COUNTERS, &c));
	c = (struct uvm_mem_counters){ .pad = 1 };
	EXPECT_EQ(-EINVAL, uvm_ioctl(self->fd, UVM_IOCTL_MEM_COUNTERS, &c));
}

TEST_F(dev, ptr_info_kinds)
{
	struct uvm_ptr_info pi;
	char *m = uvm_map(self->fd, 3 * PAGE);
	char *p = anon(PAGE);

	ASSERT_NE(NULL, m);
	ASSERT_EQ(0, ptrinfo(self->fd, m + PAGE, &pi));
	EXPECT_EQ(UVM_PTR_MANAGED, pi.type);
	EXPECT_EQ((uintptr_t)m, pi.base);
	EXPECT_EQ(3 * PAGE, pi.size);
	EXPECT_EQ(-1, pi.device);
	ASSERT_EQ(0, ptrinfo(self->fd, p, &pi));
	EXPECT_EQ(UVM_PTR_UNREGISTERED, pi.type);
	ASSERT_EQ(0, ptrinfo(self->fd, NULL, &pi));
	EXPECT_EQ(UVM_PTR_UNREGISTERED, pi.type);
	pi.flags = 1;
	EXPECT_EQ(-EINVAL, uvm_ioctl(self->fd, UVM_IOCTL_PTR_INFO, &pi));
	munmap(m, 3 * PAGE);
	munmap(p, PAGE);
}

TEST_HARNESS_MAIN
