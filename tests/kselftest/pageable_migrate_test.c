// SPDX-License-Identifier: GPL-2.0
/*
 * Pageable memory, the migration level (kmod/uvm_devpriv.c,
 * kmod/uvm_pageable_migrate.c): anonymous memory moves to a device on a
 * device fault and on a prefetch, as device-private pages, and comes back
 * on a CPU fault, by eviction and when the device goes; file and shared
 * mappings stay home; data is exact throughout, across fork, after the fd
 * is closed and after exit. Skipped where the kernel has no DEVICE_PRIVATE.
 */
#include <fcntl.h>
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/syscall.h>
#include <sys/wait.h>

#include "kselftest_harness.h"
#include "uvm_test_util.h"

FIXTURE(pm)
{
	int fd;
	int ndev;
	bool ok;	/* set up: this harness runs a test after a SKIP in setup */
	struct uvm_device_info info[UVM_MAX_DEVICES];
};

FIXTURE_SETUP(pm)
{
	struct uvm_get_info gi = { 0 };

	self->fd = uvm_open();
	ASSERT_LE(0, self->fd);
	ASSERT_EQ(0, uvm_ioctl(self->fd, UVM_IOCTL_GET_INFO, &gi));
	if (!(gi.caps & UVM_CAP_PAGEABLE_MIGRATE))
		SKIP(return, "no DEVICE_PRIVATE in this kernel: mirror level only");
	self->ndev = uvm_devices(self->fd, self->info, UVM_MAX_DEVICES);
	if (self->ndev <= 0)
		SKIP(return, "needs a device");
	self->ok = true;
}

FIXTURE_TEARDOWN(pm)
{
	close(self->fd);
}

static uint64_t to_dev(int fd)
{
	return uvm_stat(fd, UVM_STAT_PAGEABLE_TO_DEV, UVM_STATS_GLOBAL);
}

static uint64_t to_host(int fd)
{
	return uvm_stat(fd, UVM_STAT_PAGEABLE_TO_HOST, UVM_STATS_GLOBAL);
}

static void *anon(size_t len)
{
	void *p = mmap(NULL, len, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	return p == MAP_FAILED ? NULL : p;
}

/* Device memory free on device @i, once freed chunks are given back. */
static uint64_t dev_free_settled(int fd, int i, uint64_t want)
{
	struct uvm_device_info info[UVM_MAX_DEVICES];
	int tries;

	for (tries = 0; tries < 200; tries++) {
		uvm_devices(fd, info, UVM_MAX_DEVICES);
		if (info[i].mem_free >= want)
			break;
		usleep(10000);
	}
	return info[i].mem_free;
}

TEST_F(pm, level_is_reported)
{
	char s[32] = "";
	FILE *f = fopen("/sys/module/uvm/parameters/pageable", "r");

	if (!self->ok)
		return;

	ASSERT_NE(NULL, f);
	ASSERT_NE(NULL, fgets(s, sizeof(s), f));
	fclose(f);
	EXPECT_STREQ("migrate\n", s);
}

TEST_F(pm, device_fault_migrates_and_cpu_fault_brings_home)
{
	size_t len = 4 * MIB;
	unsigned char *p = anon(len);
	uint64_t d0 = to_dev(self->fd), h0 = to_host(self->fd);
	uint32_t dev = self->info[0].id;

	if (!self->ok)
		return;

	ASSERT_NE(NULL, p);
	uvm_fill(p, len, 1);
	ASSERT_TRUE(uvm_dev_sees(self->fd, dev, p, len, 1));
	EXPECT_EQ(len / PAGE, to_dev(self->fd) - d0);
	ASSERT_EQ(0, uvm_dev_fills(self->fd, dev, p, len, 2));
	EXPECT_EQ(len / PAGE, to_dev(self->fd) - d0);	/* already there */
	EXPECT_EQ(0, to_host(self->fd) - h0);
	EXPECT_EQ(0, uvm_check(p, len, 2));		/* CPU faults */
	EXPECT_EQ(len / PAGE, to_host(self->fd) - h0);
	munmap(p, len);
}

TEST_F(pm, untouched_memory_migrates_as_zeroes)
{
	size_t len = 2 * MIB;
	unsigned char *p = anon(len), *buf = malloc(len), *z = calloc(1, len);
	uint64_t d0 = to_dev(self->fd);

	if (!self->ok)
		return;

	ASSERT_NE(NULL, p);
	ASSERT_EQ(0, uvm_dev_read(self->fd, self->info[0].id, p, len, buf));
	EXPECT_EQ(0, memcmp(buf, z, len));
	EXPECT_EQ(len / PAGE, to_dev(self->fd) - d0);
	EXPECT_EQ(0, memcmp(p, z, len));
	free(buf);
	free(z);
	munmap(p, len);
}

TEST_F(pm, prefetch_to_device_and_back_by_cpu_touch)
{
	size_t len = 3 * MIB;
	unsigned char *p = anon(len);
	uint64_t d0 = to_dev(self->fd), h0 = to_host(self->fd);
	uint32_t f0;
	int i;

	if (!self->ok)
		return;

	ASSERT_NE(NULL, p);
	for (i = 0; i < self->ndev; i++) {
		uvm_fill(p, len, 10 + i);
		ASSERT_EQ(0, uvm_prefetch(self->fd, p, len, UVM_LOC_DEVICE,
					  self->info[i].id));
		EXPECT_EQ((i + 1) * (len / PAGE), to_dev(self->fd) - d0);
		f0 = (uint32_t)uvm_stat(self->fd, UVM_STAT_PREFETCHES,
					UVM_STATS_VA_SPACE);
		ASSERT_TRUE(uvm_dev_sees(self->fd, self->info[i].id, p, len, 10 + i));
		EXPECT_EQ((i + 1) * (len / PAGE), to_dev(self->fd) - d0);
		EXPECT_EQ(0, uvm_check(p, len, 10 + i));
		EXPECT_EQ((i + 1) * (len / PAGE), to_host(self->fd) - h0);
		EXPECT_LT(0, f0);
	}
	munmap(p, len);
}

TEST_F(pm, second_device_takes_pages_from_the_first)
{
	size_t len = 1 * MIB;
	unsigned char *p = anon(len);

	if (!self->ok)
		return;

	if (self->ndev < 2)
		SKIP(return, "needs two devices");
	ASSERT_NE(NULL, p);
	uvm_fill(p, len, 3);
	ASSERT_EQ(0, uvm_dev_fills(self->fd, self->info[0].id, p, len, 4));
	ASSERT_TRUE(uvm_dev_sees(self->fd, self->info[1].id, p, len, 4));
	ASSERT_EQ(0, uvm_dev_fills(self->fd, self->info[1].id, p, len, 5));
	ASSERT_TRUE(uvm_dev_sees(self->fd, self->info[0].id, p, len, 5));
	EXPECT_EQ(0, uvm_check(p, len, 5));
	munmap(p, len);
}

TEST_F(pm, atomics_on_migrated_pages)
{
	uint64_t *p = anon(PAGE), old = 0, add = 5;
	struct uvm_access a = {
		.addr = (uintptr_t)&p[3], .length = 8, .buf = (uintptr_t)&add,
		.type = UVM_ACCESS_ATOMIC_ADD,
	};
	struct uvm_device_access da = {
		.device = self->info[0].id, .count = 1,
		.accesses = (uintptr_t)&a,
	};
	int i;

	if (!self->ok)
		return;

	ASSERT_NE(NULL, p);
	p[3] = 100;
	ASSERT_EQ(0, uvm_prefetch(self->fd, p, PAGE, UVM_LOC_DEVICE,
				  self->info[0].id));
	for (i = 0; i < 4; i++) {
		add = 5;
		ASSERT_EQ(0, uvm_ioctl(self->fd, UVM_IOCTL_DEVICE_ACCESS, &da));
		old = add;
		EXPECT_EQ(100 + 5 * i, old);
	}
	EXPECT_EQ(120, p[3]);
	munmap(p, PAGE);
}

TEST_F(pm, file_and_shared_mappings_stay_home)
{
	char path[] = "/tmp/uvm-pm-XXXXXX";
	size_t len = 1 * MIB;
	uint64_t d0 = to_dev(self->fd);
	unsigned char *s, *f;
	int tfd = mkstemp(path);

	if (!self->ok)
		return;

	ASSERT_LE(0, tfd);
	unlink(path);
	ASSERT_EQ(0, ftruncate(tfd, len));
	f = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE, tfd, 0);
	s = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS,
		 -1, 0);
	ASSERT_NE(MAP_FAILED, f);
	ASSERT_NE(MAP_FAILED, s);
	EXPECT_EQ(-EOPNOTSUPP, uvm_prefetch(self->fd, f, len, UVM_LOC_DEVICE,
					    self->info[0].id));
	EXPECT_EQ(-EOPNOTSUPP, uvm_prefetch(self->fd, s, len, UVM_LOC_DEVICE,
					    self->info[0].id));
	/* device faults map them remotely, with exact data */
	ASSERT_EQ(0, uvm_dev_fills(self->fd, self->info[0].id, s, len, 6));
	ASSERT_EQ(0, uvm_dev_fills(self->fd, self->info[0].id, f, len, 7));
	EXPECT_EQ(0, uvm_check(s, len, 6));
	EXPECT_EQ(0, uvm_check(f, len, 7));
	EXPECT_EQ(0, to_dev(self->fd) - d0);
	munmap(f, len);
	munmap(s, len);
	close(tfd);
}

TEST_F(pm, prefetch_bad_ranges)
{
	size_t len = 64 * 1024;
	unsigned char *p = anon(3 * len), *q;
	uint32_t dev = self->info[0].id;
	int fd2;

	if (!self->ok)
		return;

	ASSERT_NE(NULL, p);
	ASSERT_EQ(0, munmap(p + len, len));
	EXPECT_EQ(-EFAULT, uvm_prefetch(self->fd, p, 3 * len, UVM_LOC_DEVICE, dev));
	ASSERT_EQ(0, mprotect(p + 2 * len, len, PROT_NONE));
	EXPECT_EQ(-EFAULT, uvm_prefetch(self->fd, p + 2 * len, len,
					UVM_LOC_DEVICE, dev));
	EXPECT_EQ(-ENODEV, uvm_prefetch(self->fd, p, len, UVM_LOC_DEVICE, 77));
	/* driver memory: another VA space's managed range */
	fd2 = uvm_open();
	ASSERT_LE(0, fd2);
	q = uvm_map(fd2, len);
	ASSERT_NE(NULL, q);
	EXPECT_EQ(-EFAULT, uvm_prefetch(self->fd, q, len, UVM_LOC_DEVICE, dev));
	EXPECT_EQ(-EINVAL, uvm_advise(self->fd, q, len, UVM_ADVISE_SET_READ_MOSTLY,
				      UVM_LOC_NONE, 0));
	munmap(q, len);
	close(fd2);
	munmap(p, len);
	munmap(p + 2 * len, len);
}

TEST_F(pm, fork_after_migration_parent_and_child_keep_their_own_data)
{
	size_t len = 2 * MIB;
	unsigned char *p = anon(len);
	int status;
	pid_t pid;

	if (!self->ok)
		return;

	ASSERT_NE(NULL, p);
	ASSERT_EQ(0, uvm_dev_fills(self->fd, self->info[0].id, p, len, 8));
	pid = fork();
	ASSERT_LE(0, pid);
	if (pid == 0) {
		if (uvm_check(p, len, 8))
			_exit(1);
		uvm_fill(p, len, 9);
		_exit(uvm_check(p, len, 9) ? 2 : 0);
	}
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	EXPECT_EQ(0, WEXITSTATUS(status));
	ASSERT_TRUE(uvm_dev_sees(self->fd, self->info[0].id, p, len, 8));
	EXPECT_EQ(0, uvm_check(p, len, 8));
	munmap(p, len);
}

TEST_F(pm, pages_outlive_the_fd_and_come_home)
{
	size_t len = 2 * MIB;
	unsigned char *p = anon(len);
	int fd2 = uvm_open();

	if (!self->ok)
		return;

	ASSERT_NE(NULL, p);
	ASSERT_LE(0, fd2);
	ASSERT_EQ(0, uvm_dev_fills(fd2, self->info[0].id, p, len, 11));
	close(fd2);
	EXPECT_EQ(0, uvm_check(p, len, 11));
	munmap(p, len);
}

TEST_F(pm, exit_and_munmap_with_pages_on_device_give_memory_back)
{
	uint64_t free0 = dev_free_settled(self->fd, 0, 0);
	size_t len = 8 * MIB;
	unsigned char *p;
	int status;
	pid_t pid;

	if (!self->ok)
		return;

	pid = fork();
	ASSERT_LE(0, pid);
	if (pid == 0) {
		int fd = uvm_open();

		p = anon(len);
		_exit(!p || uvm_dev_fills(fd, self->info[0].id, p, len, 12));
	}
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	EXPECT_EQ(0, WEXITSTATUS(status));
	EXPECT_LE(free0, dev_free_settled(self->fd, 0, free0));

	p = anon(len);
	ASSERT_NE(NULL, p);
	ASSERT_EQ(0, uvm_dev_fills(self->fd, self->info[0].id, p, len, 13));
	EXPECT_GT(free0, dev_free_settled(self->fd, 0, free0));
	munmap(p, len);
	EXPECT_LE(free0, dev_free_settled(self->fd, 0, free0));
}

TEST_F_TIMEOUT(pm, more_than_the_device_holds_evicts_with_exact_data, 240)
{
	uint64_t total = self->info[0].mem_total, h0 = to_host(self->fd);
	size_t len = total + total / 2;
	unsigned char *p;
	size_t off, step = 4 * MIB;

	if (!self->ok)
		return;

	if (total > 128 * MIB)
		SKIP(return, "device too large for this test (group oversub runs it)");
	p = anon(len);
	ASSERT_NE(NULL, p);
	for (off = 0; off < len; off += step)
		ASSERT_EQ(0, uvm_dev_fills(self->fd, self->info[0].id, p + off,
				       step, 100 + off / step));
	EXPECT_LT(0, to_host(self->fd) - h0);	/* evicted */
	for (off = 0; off < len; off += step)
		ASSERT_TRUE(uvm_dev_sees(self->fd, self->info[0].id, p + off,
				     step, 100 + off / step));
	for (off = 0; off < len; off += step)
		ASSERT_EQ(0, uvm_check(p + off, step, 100 + off / step));
	munmap(p, len);
}

TEST_F(pm, advice_steers_device_faults)
{
	size_t len = 1 * MIB;
	unsigned char *p = anon(4 * len);
	uint32_t dev = self->info[0].id, other = dev + 1;
	uint64_t d0;

	if (!self->ok)
		return;

	ASSERT_NE(NULL, p);
	uvm_fill(p, 4 * len, 30);
	ASSERT_EQ(0, uvm_advise(self->fd, p, len, UVM_ADVISE_SET_PREFERRED_LOCATION,
				UVM_LOC_HOST, 0));
	ASSERT_EQ(0, uvm_advise(self->fd, p + len, len, UVM_ADVISE_SET_READ_MOSTLY,
				UVM_LOC_NONE, 0));
	ASSERT_EQ(0, uvm_advise(self->fd, p + 2 * len, len, UVM_ADVISE_SET_ACCESSED_BY,
				UVM_LOC_DEVICE, dev));
	ASSERT_EQ(0, uvm_advise(self->fd, p + 3 * len, len,
				UVM_ADVISE_SET_PREFERRED_LOCATION, UVM_LOC_DEVICE, dev));
	d0 = to_dev(self->fd);
	/* host, read-mostly, accessed-by: mapped where they are */
	ASSERT_TRUE(uvm_dev_sees(self->fd, dev, p, 3 * len, 30));
	EXPECT_EQ(0, to_dev(self->fd) - d0);
	/* preferred on the device: moved there */
	ASSERT_EQ(0, uvm_dev_fills(self->fd, dev, p + 3 * len, len, 31));
	EXPECT_EQ(len / PAGE, to_dev(self->fd) - d0);
	if (self->ndev > 1) {	/* preferred on another device: stays */
		other = self->info[1].id;
		d0 = to_dev(self->fd);
		ASSERT_TRUE(uvm_dev_sees(self->fd, other, p + 3 * len, len, 31));
		EXPECT_EQ(0, to_dev(self->fd) - d0);
	}
	/*
	 * unset: the next faults move it (mprotect drops the device's remote
	 * mappings; advice alone leaves them). The whole mapping: mprotect of
	 * part of a transparent huge page splits its PMD, and 6.12's
	 * migrate_vma skips PTE-mapped huge pages (they stay home).
	 */
	ASSERT_EQ(0, uvm_advise(self->fd, p, len, UVM_ADVISE_UNSET_PREFERRED_LOCATION,
				UVM_LOC_NONE, 0));
	ASSERT_EQ(0, mprotect(p, 4 * len, PROT_READ));
	ASSERT_EQ(0, mprotect(p, 4 * len, PROT_READ | PROT_WRITE));
	d0 = to_dev(self->fd);
	ASSERT_TRUE(uvm_dev_sees(self->fd, dev, p, len, 30));
	EXPECT_EQ(len / PAGE, to_dev(self->fd) - d0);
	EXPECT_EQ(0, uvm_check(p, 3 * len, 30));
	EXPECT_EQ(0, uvm_check(p + 3 * len, len, 31));
	munmap(p, 4 * len);
}

TEST_F(pm, range_attributes_advice_prefetch_and_munmap)
{
	size_t len = 1 * MIB;
	unsigned char *p = anon(2 * len), *q;
	struct uvm_range_attrs a;
	uint32_t dev = self->info[0].id;

	if (!self->ok)
		return;

	ASSERT_NE(NULL, p);
	ASSERT_EQ(0, uvm_attrs(self->fd, p, 2 * len, &a));
	EXPECT_EQ(UVM_LOC_NONE, a.preferred.type);
	EXPECT_EQ(UVM_LOC_NONE, a.last_prefetch.type);
	EXPECT_EQ(0, a.read_mostly);
	ASSERT_EQ(0, uvm_advise(self->fd, p, 2 * len, UVM_ADVISE_SET_READ_MOSTLY,
				UVM_LOC_NONE, 0));
	ASSERT_EQ(0, uvm_advise(self->fd, p, len, UVM_ADVISE_SET_PREFERRED_LOCATION,
				UVM_LOC_DEVICE, dev));
	ASSERT_EQ(0, uvm_advise(self->fd, p, 2 * len, UVM_ADVISE_SET_ACCESSED_BY,
				UVM_LOC_DEVICE, dev));
	ASSERT_EQ(0, uvm_prefetch(self->fd, p, len, UVM_LOC_DEVICE, dev));
	ASSERT_EQ(0, uvm_attrs(self->fd, p, len, &a));
	EXPECT_EQ(1, a.read_mostly);
	EXPECT_EQ(UVM_LOC_DEVICE, a.preferred.type);
	EXPECT_EQ(dev, (uint32_t)a.preferred.id);
	EXPECT_EQ(UVM_LOC_DEVICE, a.last_prefetch.type);
	EXPECT_EQ(1ULL << dev, a.accessed_by_devices);
	ASSERT_EQ(0, uvm_attrs(self->fd, p, 2 * len, &a));	/* halves disagree */
	EXPECT_EQ(UVM_LOC_NONE, a.preferred.type);
	EXPECT_EQ(UVM_LOC_NONE, a.last_prefetch.type);
	EXPECT_EQ(1, a.read_mostly);
	/* new memory at the same address starts with nothing set */
	q = mmap(p, len, PROT_READ | PROT_WRITE,
		 MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1, 0);
	ASSERT_EQ(p, q);
	ASSERT_EQ(0, uvm_attrs(self->fd, p, len, &a));
	EXPECT_EQ(0, a.read_mostly);
	EXPECT_EQ(UVM_LOC_NONE, a.preferred.type);
	EXPECT_EQ(UVM_LOC_NONE, a.last_prefetch.type);
	EXPECT_EQ(0, a.accessed_by_devices);
	ASSERT_EQ(0, uvm_attrs(self->fd, p + len, len, &a));	/* kept */
	EXPECT_EQ(1, a.read_mostly);
	/* a hole */
	munmap(p, len);
	EXPECT_EQ(-EFAULT, uvm_advise(self->fd, p, 2 * len, UVM_ADVISE_SET_READ_MOSTLY,
				      UVM_LOC_NONE, 0));
	EXPECT_EQ(-EFAULT, uvm_attrs(self->fd, p, 2 * len, &a));
	munmap(p + len, len);
}

/* Pages of [p, p + len) that move_pages(2) finds on a node other than @node. */
static unsigned int pages_not_on(unsigned char *p, size_t len, unsigned int node)
{
	unsigned long n = len / PAGE, i;
	unsigned int bad = 0;
	void **pages = calloc(n, sizeof(*pages));
	int *status = calloc(n, sizeof(*status));

	if (!pages || !status)
		return n;
	for (i = 0; i < n; i++)
		pages[i] = p + i * PAGE;
	if (syscall(SYS_move_pages, 0, n, pages, NULL, status, 0))
		bad = n;
	else
		for (i = 0; i < n; i++)
			bad += status[i] != (int)node;
	free(pages);
	free(status);
	return bad;
}

/* Take the mmap_lock for writing, over and over, until *@arg. */
static void *mapper(void *arg)
{
	volatile bool *stop = arg;
	void *q;

	while (!*stop) {
		q = anon(16 * PAGE);
		if (q) {
			*(volatile char *)q = 1;
			munmap(q, 16 * PAGE);
		}
	}
	return NULL;
}

/*
 * A CPU fault brings its aligned 256 KiB home in pieces that helper CPUs
 * move alongside (kmod/uvm_devpriv.c): pieces cut at both ends of a VMA
 * that starts and ends off that alignment, sweeps forwards and backwards,
 * and another thread taking the mmap_lock for writing throughout (a helper
 * then cannot take it and the faulting thread moves the piece): every page
 * comes home once with its own data, on the faulting CPU's node (the
 * default policy: helpers on other nodes allocate there, not locally).
 */
TEST_F(pm, cpu_faults_bring_windows_home_in_pieces)
{
	size_t len = 5 * MIB + 7 * PAGE, win = 256 * 1024, i;
	unsigned int cpu, node, elsewhere;
	unsigned char *base, *p;
	volatile bool stop = false;
	cpu_set_t one, all;
	uint64_t h0;
	pthread_t t;
	int round;

	if (!self->ok)
		return;

	ASSERT_EQ(0, sched_getaffinity(0, sizeof(all), &all));
	ASSERT_EQ(0, syscall(SYS_getcpu, &cpu, &node, NULL));
	CPU_ZERO(&one);
	CPU_SET(cpu, &one);
	ASSERT_EQ(0, sched_setaffinity(0, sizeof(one), &one));

	base = anon(len + 2 * win);
	ASSERT_NE(NULL, base);
	p = (unsigned char *)(((uintptr_t)base + win - 1) / win * win) + 3 * PAGE;
	ASSERT_EQ(0, munmap(base, p - base));
	ASSERT_EQ(0, munmap(p + len, base + len + 2 * win - (p + len)));
	ASSERT_EQ(0, pthread_create(&t, NULL, mapper, (void *)&stop));
	for (round = 0; round < 2; round++) {
		uvm_fill(p, len, 40 + round);
		ASSERT_EQ(0, uvm_prefetch(self->fd, p, len, UVM_LOC_DEVICE,
					  self->info[0].id));
		h0 = to_host(self->fd);
		for (i = 0; i < len; i += PAGE) {
			size_t at = round ? len - PAGE - i : i;

			EXPECT_EQ(uvm_pattern(40 + round, at), p[at]);
		}
		EXPECT_EQ(len / PAGE, to_host(self->fd) - h0);
		EXPECT_EQ(0, uvm_check(p, len, 40 + round));
		elsewhere = pages_not_on(p, len, node);
		EXPECT_EQ(0, elsewhere);
	}
	stop = true;
	pthread_join(t, NULL);
	sched_setaffinity(0, sizeof(all), &all);
	munmap(p, len);
}

TEST_HARNESS_MAIN
