// SPDX-License-Identifier: GPL-2.0
/*
 * Pageable memory, the mirror level (kmod/uvm_pageable.c): devices read
 * and write the process's own memory (malloc, stack, MAP_SHARED, files)
 * through UVM_IOCTL_DEVICE_ACCESS with exact data; COW at fork, munmap,
 * mprotect and MADV_DONTNEED drop the device's mappings; bad addresses get
 * their errno. Every device of the VM: PCI ones DMA-map what they map.
 */
#include <stdio.h>
#include <sys/stat.h>
#include <sys/wait.h>

#include "kselftest_harness.h"
#include "uvm_test_util.h"

FIXTURE(pg)
{
	int fd;
	int ndev;
	int dev[UVM_MAX_DEVICES];
};

FIXTURE_SETUP(pg)
{
	struct uvm_device_info info[UVM_MAX_DEVICES];
	struct uvm_get_info gi = { 0 };
	int i;

	self->fd = uvm_open();
	ASSERT_LE(0, self->fd);
	ASSERT_EQ(0, uvm_ioctl(self->fd, UVM_IOCTL_GET_INFO, &gi));
	if (!(gi.caps & UVM_CAP_PAGEABLE_MIRROR))
		SKIP(return, "no HMM mirror in this kernel");
	self->ndev = uvm_devices(self->fd, info, UVM_MAX_DEVICES);
	if (self->ndev <= 0)
		SKIP(return, "needs a device");
	for (i = 0; i < self->ndev; i++)
		self->dev[i] = (int)info[i].id;
}

FIXTURE_TEARDOWN(pg)
{
	close(self->fd);
}

/* One access; the faults it took in *@faults (if not NULL). */
static int dev_access(int fd, int dev, void *addr, size_t len, uint32_t type,
		      void *buf, uint32_t *faults)
{
	struct uvm_access a = {
		.addr = (uintptr_t)addr, .length = len, .buf = (uintptr_t)buf,
		.type = type,
	};
	struct uvm_device_access da = {
		.device = dev, .count = 1, .accesses = (uintptr_t)&a,
	};
	int ret = uvm_ioctl(fd, UVM_IOCTL_DEVICE_ACCESS, &da);

	if (faults)
		*faults = da.faults;
	return ret;
}

TEST_F(pg, level_is_reported)
{
	char s[32] = "";
	FILE *f = fopen("/sys/module/uvm/parameters/pageable", "r");

	ASSERT_NE(NULL, f);
	ASSERT_NE(NULL, fgets(s, sizeof(s), f));
	fclose(f);
	/* migrate where the kernel has DEVICE_PRIVATE (pageable_migrate_test) */
	if (strcmp(s, "migrate\n"))
		EXPECT_STREQ("mirror\n", s);
}

TEST_F(pg, malloc_read_write_exact_data_on_every_device)
{
	size_t len = 3 * MIB + 123;
	unsigned char *p = malloc(len), buf[PAGE];
	uint32_t faults = 0;
	int i;

	ASSERT_NE(NULL, p);
	for (i = 0; i < self->ndev; i++) {
		uvm_fill(p, len, 10 + i);
		ASSERT_TRUE(uvm_dev_sees(self->fd, self->dev[i], p, len, 10 + i));
		ASSERT_EQ(0, uvm_dev_fills(self->fd, self->dev[i], p, len, 20 + i));
		/* mapped now: a second pass takes no fault */
		ASSERT_EQ(0, dev_access(self->fd, self->dev[i], p, PAGE,
					UVM_ACCESS_READ, buf, &faults));
		EXPECT_EQ(0, faults);
		EXPECT_EQ(0, uvm_check(p, len, 20 + i));
	}
	EXPECT_LT(0, uvm_stat(self->fd, UVM_STAT_DEVICE_FAULTS,
			      UVM_STATS_VA_SPACE));
	free(p);
}

TEST_F(pg, first_touch_faults_are_batched)
{
	size_t len = 4 * MIB;
	char *p = mmap(NULL, len, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	char *buf = malloc(len);
	uint32_t faults = 0;
	uint64_t b0 = uvm_stat(self->fd, UVM_STAT_FAULT_BATCHES,
			       UVM_STATS_VA_SPACE);

	ASSERT_NE(MAP_FAILED, p);
	memset(buf, 0x5a, len);
	ASSERT_EQ(0, dev_access(self->fd, self->dev[0], p, len,
				UVM_ACCESS_WRITE, buf, &faults));
	EXPECT_EQ(len / PAGE, faults);	/* every page once */
	/* fault_batch (256) pages a batch, not one each */
	EXPECT_GE(len / PAGE / 16, uvm_stat(self->fd, UVM_STAT_FAULT_BATCHES,
					    UVM_STATS_VA_SPACE) - b0);
	EXPECT_EQ(0x5a, p[len - 1]);
	munmap(p, len);
	free(buf);
}

TEST_F(pg, stack_memory)
{
	unsigned char local[3 * 4096 + 100];
	unsigned char buf[sizeof(local)];
	uint64_t v = 5;

	uvm_fill(local, sizeof(local), 3);
	ASSERT_EQ(0, uvm_dev_read(self->fd, self->dev[0], local, sizeof(local), buf));
	EXPECT_EQ(0, uvm_check(buf, sizeof(local), 3));
	uvm_fill(buf, sizeof(buf), 4);
	ASSERT_EQ(0, uvm_dev_write(self->fd, self->dev[0], local, sizeof(local), buf));
	EXPECT_EQ(0, uvm_check(local, sizeof(local), 4));
	/* a 64-bit atomic add returns the old value */
	memcpy(local + 64, &(uint64_t){ 100 }, 8);
	ASSERT_EQ(0, uvm_dev_access(self->fd, self->dev[0], local + 64, 8,
				    UVM_ACCESS_ATOMIC_ADD, &v));
	EXPECT_EQ(100, v);
	EXPECT_EQ(105, *(uint64_t *)(local + 64));
}

TEST_F(pg, map_shared_anonymous_seen_by_a_child)
{
	size_t len = MIB;
	char *p = mmap(NULL, len, PROT_READ | PROT_WRITE,
		       MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	int status;
	pid_t pid;

	ASSERT_NE(MAP_FAILED, p);
	ASSERT_EQ(0, uvm_dev_fills(self->fd, self->dev[0], p, len, 7));
	pid = fork();
	ASSERT_LE(0, pid);
	if (!pid)
		_exit(!uvm_check(p, len, 7) ? 0 : 1);
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	EXPECT_EQ(0, status);
	munmap(p, len);
}

/* A file of @len bytes of pattern @seed, mapped @flags; its fd in *@fdp. */
static char *file_map(size_t len, uint64_t seed, int flags, int *fdp)
{
	char path[] = "/dev/shm/uvm-pageable-XXXXXX";
	char *buf = malloc(len), *p;
	int fd = mkstemp(path);

	if (fd < 0 || !buf)
		return MAP_FAILED;
	unlink(path);
	uvm_fill(buf, len, seed);
	if (pwrite(fd, buf, len, 0) != (ssize_t)len)
		return MAP_FAILED;
	free(buf);
	p = mmap(NULL, len, PROT_READ | PROT_WRITE, flags, fd, 0);
	*fdp = fd;
	return p;
}

TEST_F(pg, file_backed_shared_and_private)
{
	size_t len = MIB;
	char *back = malloc(len), *p2;
	int fd, fd2;
	char *p = file_map(len, 30, MAP_SHARED, &fd);
	char *q = file_map(len, 31, MAP_PRIVATE, &fd2);

	ASSERT_NE(MAP_FAILED, p);
	ASSERT_NE(MAP_FAILED, q);
	/* shared: the device reads the file and its writes reach the file */
	ASSERT_TRUE(uvm_dev_sees(self->fd, self->dev[0], p, len, 30));
	ASSERT_EQ(0, uvm_dev_fills(self->fd, self->dev[0], p, len, 32));
	ASSERT_EQ(0, msync(p, len, MS_SYNC));
	ASSERT_EQ((ssize_t)len, pread(fd, back, len, 0));
	EXPECT_EQ(0, uvm_check(back, len, 32));
	/* the same pages at a second address: one DMA mapping each, shared */
	p2 = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	ASSERT_NE(MAP_FAILED, p2);
	ASSERT_TRUE(uvm_dev_sees(self->fd, self->dev[0], p2, len, 32));
	ASSERT_EQ(0, uvm_dev_fills(self->fd, self->dev[0], p2, len, 34));
	EXPECT_TRUE(uvm_dev_sees(self->fd, self->dev[0], p, len, 34));
	munmap(p2, len);
	/* private: the device's writes are the process's copy only */
	ASSERT_TRUE(uvm_dev_sees(self->fd, self->dev[0], q, len, 31));
	ASSERT_EQ(0, uvm_dev_fills(self->fd, self->dev[0], q, len, 33));
	EXPECT_EQ(0, uvm_check(q, len, 33));
	ASSERT_EQ((ssize_t)len, pread(fd2, back, len, 0));
	EXPECT_EQ(0, uvm_check(back, len, 31));
	munmap(p, len);
	munmap(q, len);
	close(fd);
	close(fd2);
	free(back);
}

TEST_F(pg, fork_cow_parent_and_child_keep_their_own_data)
{
	size_t len = 256 * 1024;
	char *p = mmap(NULL, len, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	int go[2], status;
	pid_t pid;

	ASSERT_NE(MAP_FAILED, p);
	uvm_fill(p, len, 40);
	ASSERT_TRUE(uvm_dev_sees(self->fd, self->dev[0], p, len, 40));
	ASSERT_EQ(0, pipe(go));
	pid = fork();
	ASSERT_LE(0, pid);
	if (!pid) {
		int cfd = uvm_open(), bad = 0;
		char c;

		/* wait for the parent's device write, then check our copy */
		bad |= read(go[0], &c, 1) != 1;
		bad |= uvm_check(p, len, 40) != 0;
		uvm_fill(p, len, 42);
		bad |= cfd < 0 || !uvm_dev_sees(cfd, self->dev[0], p, len, 42);
		_exit(bad);
	}
	/* the parent's device write breaks COW: the child keeps seed 40 */
	ASSERT_EQ(0, uvm_dev_fills(self->fd, self->dev[0], p, len, 41));
	ASSERT_EQ(1, write(go[1], "g", 1));
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	EXPECT_EQ(0, status);
	EXPECT_EQ(0, uvm_check(p, len, 41));
	EXPECT_TRUE(uvm_dev_sees(self->fd, self->dev[0], p, len, 41));
	close(go[0]);
	close(go[1]);
	munmap(p, len);
}

TEST_F(pg, munmap_mprotect_and_dontneed_drop_device_mappings)
{
	size_t len = 64 * 1024;
	char *p = mmap(NULL, len, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	char buf[64 * 1024];

	ASSERT_NE(MAP_FAILED, p);
	ASSERT_EQ(0, uvm_dev_fills(self->fd, self->dev[0], p, len, 50));
	/* MADV_DONTNEED: zero-fill on the next touch, by the device too */
	ASSERT_EQ(0, madvise(p, len, MADV_DONTNEED));
	ASSERT_EQ(0, uvm_dev_read(self->fd, self->dev[0], p, len, buf));
	EXPECT_EQ(0, buf[0]);
	EXPECT_EQ(0, buf[len - 1]);
	/* read-only: reads work, writes are refused and change nothing */
	ASSERT_EQ(0, uvm_dev_fills(self->fd, self->dev[0], p, len, 51));
	ASSERT_EQ(0, mprotect(p, len, PROT_READ));
	EXPECT_TRUE(uvm_dev_sees(self->fd, self->dev[0], p, len, 51));
	EXPECT_EQ(-EPERM, uvm_dev_fills(self->fd, self->dev[0], p, len, 52));
	EXPECT_EQ(0, uvm_check(p, len, 51));
	/* PROT_NONE, then unmapped: -EFAULT */
	ASSERT_EQ(0, mprotect(p, len, PROT_NONE));
	EXPECT_EQ(-EFAULT, uvm_dev_read(self->fd, self->dev[0], p, len, buf));
	ASSERT_EQ(0, munmap(p, len));
	EXPECT_EQ(-EFAULT, uvm_dev_read(self->fd, self->dev[0], p, len, buf));
	EXPECT_EQ(-EFAULT, uvm_dev_write(self->fd, self->dev[0], p, 8, buf));
}

struct unmapper {
	char *p;
	size_t len;
	volatile int stop;
};

static void *unmap_loop(void *arg)
{
	struct unmapper *u = arg;

	while (!u->stop) {
		usleep(20000);
		munmap(u->p, u->len);
		mmap(u->p, u->len, PROT_READ | PROT_WRITE,
		     MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED_NOREPLACE, -1, 0);
	}
	return NULL;
}

TEST_F(pg, munmap_while_devices_access)
{
	struct unmapper u = { .len = 64 * 1024 };
	char *buf = malloc(MIB);
	int i, ret, ok = 0, gone = 0;
	pthread_t t;

	u.p = mmap(NULL, u.len, PROT_READ | PROT_WRITE,
		   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	ASSERT_NE(MAP_FAILED, u.p);
	ASSERT_EQ(0, pthread_create(&t, NULL, unmap_loop, &u));
	for (i = 0; i < 100; i++) {
		ret = i & 1 ? uvm_dev_read(self->fd, self->dev[0], u.p, u.len, buf)
			    : uvm_dev_write(self->fd, self->dev[0], u.p, u.len, buf);
		ok += !ret;
		gone += ret == -EFAULT;
		ASSERT_TRUE(!ret || ret == -EFAULT) TH_LOG("ret %d", ret);
	}
	u.stop = 1;
	pthread_join(t, NULL);
	TH_LOG("%d accesses completed, %d found the range unmapped", ok, gone);
	munmap(u.p, u.len);
	free(buf);
}

TEST_F(pg, not_pageable_memory_is_refused)
{
	struct uvm_alloc_device ad = { .device = self->dev[0], .size = MIB };
	int fd2 = uvm_open();
	char *m = uvm_map(self->fd, 2 * MIB), *other = uvm_map(fd2, MIB);
	char *anon = mmap(m + 2 * MIB, PAGE, PROT_READ | PROT_WRITE,
			  MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED_NOREPLACE, -1, 0);
	char buf[16] = "";
	void *dptr;

	ASSERT_NE(NULL, m);
	ASSERT_NE(NULL, other);
	/* straddling managed and pageable memory */
	if (anon != MAP_FAILED)
		EXPECT_EQ(-EINVAL, uvm_dev_read(self->fd, self->dev[0],
						m + 2 * MIB - 8, 16, buf));
	/* another VA space's managed range: VM_MIXEDMAP */
	EXPECT_EQ(-EFAULT, uvm_dev_read(self->fd, self->dev[0], other, 8, buf));
	/* device memory mapped to the CPU: VM_IO */
	ASSERT_EQ(0, uvm_ioctl(self->fd, UVM_IOCTL_ALLOC_DEVICE, &ad));
	dptr = mmap(NULL, ad.map_size, PROT_READ | PROT_WRITE, MAP_SHARED,
		    self->fd, ad.mmap_offset);
	if (dptr != MAP_FAILED) {
		EXPECT_EQ(-EFAULT, uvm_dev_read(self->fd, self->dev[0], dptr, 8, buf));
		munmap(dptr, ad.map_size);
	}
	/* unmapped, the NULL page (address 0 once read a NULL struct page), kernel addresses */
	EXPECT_EQ(-EFAULT, uvm_dev_read(self->fd, self->dev[0], NULL, 8, buf));
	EXPECT_EQ(-EFAULT, uvm_dev_read(self->fd, self->dev[0], (void *)PAGE, 8, buf));
	EXPECT_EQ(-EINVAL, uvm_dev_read(self->fd, self->dev[0],
					(void *)0xffff888000000000ULL, 8, buf));
	/* read-only text: a write is refused */
	EXPECT_EQ(-EPERM, uvm_dev_write(self->fd, self->dev[0], (void *)dev_access, 8, buf));
	if (anon != MAP_FAILED)
		munmap(anon, PAGE);
	munmap(m, 2 * MIB);
	munmap(other, MIB);
	close(fd2);
}

TEST_F(pg, foreign_process_cannot_use_the_fd)
{
	char *p = malloc(PAGE);
	int status;
	pid_t pid;

	ASSERT_NE(NULL, p);
	pid = fork();
	ASSERT_LE(0, pid);
	if (!pid) {
		char b[8];

		_exit(uvm_dev_read(self->fd, self->dev[0], p, 8, b) == -EPERM ? 0 : 1);
	}
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	EXPECT_EQ(0, status);
	free(p);
}

TEST_F(pg, exit_with_device_mappings_leaves_nothing)
{
	int status;
	pid_t pid = fork();

	ASSERT_LE(0, pid);
	if (!pid) {
		size_t len = 2 * MIB;
		char *p = malloc(len);
		int fd = uvm_open(), i, bad = fd < 0 || !p;

		for (i = 0; !bad && i < self->ndev; i++)
			bad = uvm_dev_fills(fd, self->dev[i], p, len, 60 + i) != 0;
		_exit(bad);	/* with every device's mappings in place */
	}
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	EXPECT_EQ(0, status);
}

TEST_HARNESS_MAIN
