// SPDX-License-Identifier: GPL-2.0
/*
 * hostreg_lifecycle_test - UVM_IOCTL_HOST_REGISTER / UNREGISTER: pinning,
 * counters, unmap and exit while registered, every error path.
 */
#include <pthread.h>

#include "kselftest_harness.h"
#include "alloc_util.h"

FIXTURE(reg)
{
	int fd;
	char *p;
};

#define N	(64 * 4096)

FIXTURE_SETUP(reg)
{
	self->fd = uvm_open();
	ASSERT_LE(0, self->fd);
	self->p = anon(N);
	ASSERT_NE(NULL, self->p);
}

FIXTURE_TEARDOWN(reg)
{
	munmap(self->p, N);
	close(self->fd);
}

/* Module-wide pinned pages back to @want within ~2 s. */
static int pinned_settles(int fd, uint64_t want)
{
	int i;

	for (i = 0; i < 200; i++) {
		if (counters(fd).pinned_pages == want)
			return 1;
		usleep(10000);
	}
	return 0;
}

TEST_F(reg, register_unregister)
{
	struct uvm_host_register a = { .addr = (uintptr_t)self->p, .size = N };
	uint64_t before = counters(self->fd).pinned_pages;
	struct uvm_ptr_info pi;

	ASSERT_EQ(0, uvm_ioctl(self->fd, UVM_IOCTL_HOST_REGISTER, &a));
	EXPECT_EQ((uintptr_t)self->p, a.dev_addr);
	EXPECT_EQ(before + N / PAGE, counters(self->fd).pinned_pages);
	EXPECT_EQ(N / PAGE, counters(self->fd).va_pinned_pages);
	ASSERT_EQ(0, ptrinfo(self->fd, self->p + 5, &pi));
	EXPECT_EQ(UVM_PTR_HOST_REGISTERED, pi.type);
	EXPECT_EQ((uintptr_t)self->p, pi.base);
	EXPECT_EQ(N, pi.size);
	EXPECT_EQ((uintptr_t)self->p + 5, pi.dev_addr);
	ASSERT_EQ(0, hunreg(self->fd, self->p));
	EXPECT_EQ(before, counters(self->fd).pinned_pages);
	ASSERT_EQ(0, ptrinfo(self->fd, self->p, &pi));
	EXPECT_EQ(UVM_PTR_UNREGISTERED, pi.type);
}

TEST_F(reg, flags_reported)
{
	struct uvm_ptr_info pi;

	ASSERT_EQ(0, hreg(self->fd, self->p, N, UVM_HOST_REGISTER_PORTABLE |
			  UVM_HOST_REGISTER_MAPPED));
	ASSERT_EQ(0, ptrinfo(self->fd, self->p, &pi));
	EXPECT_EQ(UVM_HOST_REGISTER_PORTABLE | UVM_HOST_REGISTER_MAPPED,
		  pi.alloc_flags);
	hunreg(self->fd, self->p);
}

TEST_F(reg, copies_see_cpu_data)
{
	char *q = anon(N);

	memset(self->p, 0x31, N);
	ASSERT_EQ(0, hreg(self->fd, self->p, N, 0));
	ASSERT_EQ(0, mcpy(self->fd, q, self->p, N));
	EXPECT_EQ(0, memcmp(q, self->p, N));
	memset(q, 0x42, N);
	ASSERT_EQ(0, mcpy(self->fd, self->p, q, N));
	EXPECT_EQ(0x42, self->p[N - 1]);
	hunreg(self->fd, self->p);
	munmap(q, N);
}

TEST_F(reg, readonly_copy_from_works)
{
	char *q = anon(PAGE);

	memset(self->p, 9, PAGE);
	ASSERT_EQ(0, hreg(self->fd, self->p, PAGE, UVM_HOST_REGISTER_READONLY));
	EXPECT_EQ(0, mcpy(self->fd, q, self->p, PAGE));
	EXPECT_EQ(9, q[PAGE - 1]);
	hunreg(self->fd, self->p);
	munmap(q, PAGE);
}

TEST_F(reg, readonly_of_readonly_mapping)
{
	char *ro = mmap(NULL, PAGE, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS,
			-1, 0);

	EXPECT_EQ(-EFAULT, hreg(self->fd, ro, PAGE, 0));
	EXPECT_EQ(0, hreg(self->fd, ro, PAGE, UVM_HOST_REGISTER_READONLY));
	EXPECT_EQ(0, hunreg(self->fd, ro));
	munmap(ro, PAGE);
}

TEST_F(reg, munmap_unpins)
{
	uint64_t before = counters(self->fd).pinned_pages;
	char *q = anon(N);

	ASSERT_EQ(0, hreg(self->fd, q, N, 0));
	EXPECT_EQ(before + N / PAGE, counters(self->fd).pinned_pages);
	ASSERT_EQ(0, munmap(q + PAGE, PAGE));
	EXPECT_TRUE(pinned_settles(self->fd, before));
	EXPECT_EQ(-ENOENT, hunreg(self->fd, q));
	munmap(q, N);
}

/*
 * A buffer registered, then unmapped without unregistering; new memory at
 * the same address registers at once (the lookup reaps the registration
 * the unmap killed first; docs/reliability.md F6 is the concurrent case).
 */
TEST_F(reg, register_again_where_an_unmap_killed_one)
{
	char *q = anon(N), *r;

	ASSERT_NE(NULL, q);
	ASSERT_EQ(0, hreg(self->fd, q, N, 0));
	ASSERT_EQ(0, munmap(q, N));
	r = mmap(q, N, PROT_READ | PROT_WRITE,
		 MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED_NOREPLACE | MAP_POPULATE,
		 -1, 0);
	ASSERT_EQ(q, r);
	EXPECT_EQ(0, hreg(self->fd, r, N, 0));
	EXPECT_EQ(0, hunreg(self->fd, r));
	munmap(r, N);
}

/*
 * F6 (docs/reliability.md): one thread reaps a long queue of registrations
 * a munmap killed while another registers fresh memory at the address of
 * the last one queued. The second thread's lookup finds the queue already
 * emptied by the first; before the fix the first unlinked the entries one
 * by one afterwards, so the second met the dead registration (EEXIST).
 */
#define F6_REGS		1024
#define F6_ROUNDS	8

struct f6_reaper {
	int fd;
	volatile int go;
};

static void *f6_reap(void *arg)
{
	struct f6_reaper *r = arg;

	while (!r->go)
		;
	hunreg(r->fd, NULL);	/* a lookup: reaps the queue, then ENOENT */
	return NULL;
}

TEST_F_TIMEOUT(reg, register_while_another_thread_reaps, 180)
{
	size_t len = (size_t)F6_REGS * PAGE;
	int round, i, eexist = 0;

	for (round = 0; round < F6_ROUNDS; round++) {
		struct f6_reaper r = { .fd = self->fd };
		char *q = anon(len), *last;
		pthread_t t;
		int ret;

		ASSERT_NE(NULL, q);
		for (i = 0; i < F6_REGS; i++)
			ASSERT_EQ(0, hreg(self->fd, q + (size_t)i * PAGE, PAGE, 0));
		ASSERT_EQ(0, munmap(q, len));	/* kills all: queued dead */
		last = q + len - PAGE;
		ASSERT_EQ(last, mmap(last, PAGE, PROT_READ | PROT_WRITE,
				     MAP_PRIVATE | MAP_ANONYMOUS |
				     MAP_FIXED_NOREPLACE | MAP_POPULATE, -1, 0));
		ASSERT_EQ(0, pthread_create(&t, NULL, f6_reap, &r));
		r.go = 1;
		usleep(round * 150);	/* land inside the reaper's loop */
		ret = hreg(self->fd, last, PAGE, 0);
		pthread_join(t, NULL);
		if (ret == -EEXIST)
			eexist++;
		else
			EXPECT_EQ(0, ret);
		hunreg(self->fd, last);
		munmap(last, PAGE);
	}
	EXPECT_EQ(0, eexist);
}

/*
 * F7 (docs/reliability.md): a registered buffer is unmapped, and a host or
 * device allocation is mapped at its address before anything looked a
 * registration up (the reaper had not run): before the fix the mmap()
 * failed with EEXIST, the killed registration still holding the range.
 */
static void *map_alloc_at(int fd, void *at, size_t size, int dev)
{
	struct uvm_alloc_device d = { .size = size, .device = dev };
	struct uvm_alloc_host h = { .size = size, .numa_node = -1 };
	uint64_t off;
	void *p;

	if (dev < 0 ? ioctl(fd, UVM_IOCTL_ALLOC_HOST, &h) :
		      ioctl(fd, UVM_IOCTL_ALLOC_DEVICE, &d))
		return MAP_FAILED;
	off = dev < 0 ? h.mmap_offset : d.mmap_offset;
	p = mmap(at, size, PROT_READ | PROT_WRITE,
		 MAP_SHARED | MAP_FIXED_NOREPLACE, fd, off);
	return p;
}

TEST_F(reg, map_an_allocation_where_an_unmap_killed_one)
{
	int round, dev, rounds = ndevices(self->fd) > 0 ? 16 : 8;

	for (round = 0; round < rounds; round++) {
		char *q = anon(N), *p;

		dev = round & 1 ? 0 : -1;	/* host, then device */
		ASSERT_NE(NULL, q);
		memset(q, 0x5a, N);
		ASSERT_EQ(0, hreg(self->fd, q, N, 0));
		ASSERT_EQ(0, munmap(q, N));	/* kills it: queued dead */
		p = map_alloc_at(self->fd, q, N, dev);
		ASSERT_EQ(q, p) TH_LOG("round %d (%s): %s", round,
				       dev < 0 ? "host" : "device",
				       strerror(errno));
		ASSERT_EQ(0, mset(self->fd, p, 0x33, N));
		ASSERT_EQ(0, mcpy(self->fd, self->p, p, N));
		EXPECT_EQ(0x33, self->p[N - 1]);
		EXPECT_EQ(-ENOENT, hunreg(self->fd, q));
		EXPECT_EQ(0, ufree_unmap(self->fd, p, N));
	}
}

TEST_F(reg, exit_while_registered)
{
	uint64_t before = counters(self->fd).pinned_pages;
	pid_t pid = fork();
	int st;

	if (!pid) {
		int fd = uvm_open();
		char *q = anon(N);

		memset(q, 1, N);
		_exit(hreg(fd, q, N, 0) ? 1 : 0);
	}
	waitpid(pid, &st, 0);
	EXPECT_EQ(0, WEXITSTATUS(st));
	EXPECT_TRUE(pinned_settles(self->fd, before));
}

TEST_F(reg, close_unpins)
{
	int fd2 = uvm_open();
	uint64_t before = counters(self->fd).pinned_pages;

	ASSERT_EQ(0, hreg(fd2, self->p, N, 0));
	EXPECT_EQ(before + N / PAGE, counters(self->fd).pinned_pages);
	close(fd2);
	EXPECT_EQ(before, counters(self->fd).pinned_pages);
}

TEST_F(reg, overlap_exact) { ASSERT_EQ(0, hreg(self->fd, self->p, N, 0)); EXPECT_EQ(-EEXIST, hreg(self->fd, self->p, N, 0)); hunreg(self->fd, self->p); }
TEST_F(reg, overlap_partial)
{
	ASSERT_EQ(0, hreg(self->fd, self->p + PAGE, 2 * PAGE, 0));
	EXPECT_EQ(-EEXIST, hreg(self->fd, self->p, 2 * PAGE, 0));
	EXPECT_EQ(-EEXIST, hreg(self->fd, self->p + 2 * PAGE, 4 * PAGE, 0));
	EXPECT_EQ(0, hreg(self->fd, self->p + 3 * PAGE, PAGE, 0));
	hunreg(self->fd, self->p + PAGE);
	hunreg(self->fd, self->p + 3 * PAGE);
}
TEST_F(reg, unregister_unknown) { EXPECT_EQ(-ENOENT, hunreg(self->fd, self->p)); }
TEST_F(reg, unregister_interior)
{
	ASSERT_EQ(0, hreg(self->fd, self->p, N, 0));
	EXPECT_EQ(-ENOENT, hunreg(self->fd, self->p + PAGE));
	EXPECT_EQ(0, hunreg(self->fd, self->p));
}
TEST_F(reg, unregister_twice)
{
	ASSERT_EQ(0, hreg(self->fd, self->p, N, 0));
	EXPECT_EQ(0, hunreg(self->fd, self->p));
	EXPECT_EQ(-ENOENT, hunreg(self->fd, self->p));
}
TEST_F(reg, unregister_flags)
{
	struct uvm_host_unregister u = { .addr = (uintptr_t)self->p, .flags = 1 };

	EXPECT_EQ(-EINVAL, uvm_ioctl(self->fd, UVM_IOCTL_HOST_UNREGISTER, &u));
}
TEST_F(reg, unaligned_addr) { EXPECT_EQ(-EINVAL, hreg(self->fd, self->p + 1, PAGE, 0)); }
TEST_F(reg, unaligned_size) { EXPECT_EQ(-EINVAL, hreg(self->fd, self->p, PAGE + 1, 0)); }
TEST_F(reg, size_zero) { EXPECT_EQ(-EINVAL, hreg(self->fd, self->p, 0, 0)); }
TEST_F(reg, null) { EXPECT_EQ(-EINVAL, hreg(self->fd, NULL, PAGE, 0)); }
TEST_F(reg, wraps) { EXPECT_EQ(-EINVAL, hreg(self->fd, self->p, UINT64_MAX & ~(PAGE - 1), 0)); }
TEST_F(reg, bad_flags) { EXPECT_EQ(-EINVAL, hreg(self->fd, self->p, PAGE, 0x10)); }
TEST_F(reg, pad)
{
	struct uvm_host_register a = { .addr = (uintptr_t)self->p, .size = PAGE, .pad = 1 };

	EXPECT_EQ(-EINVAL, uvm_ioctl(self->fd, UVM_IOCTL_HOST_REGISTER, &a));
}
TEST_F(reg, iomemory_unsupported) { EXPECT_EQ(-EOPNOTSUPP, hreg(self->fd, self->p, PAGE, UVM_HOST_REGISTER_IOMEMORY)); }
TEST_F(reg, unmapped)
{
	char *q = anon(3 * PAGE);

	munmap(q + PAGE, PAGE);
	EXPECT_EQ(-EFAULT, hreg(self->fd, q, 3 * PAGE, 0));
	EXPECT_EQ(0, counters(self->fd).va_pinned_pages);
	munmap(q, 3 * PAGE);
}
TEST_F(reg, managed_memory)
{
	char *m = uvm_map(self->fd, N);

	ASSERT_NE(NULL, m);
	EXPECT_EQ(-EINVAL, hreg(self->fd, m, N, 0));
	munmap(m, N);
}
TEST_F(reg, device_memory)
{
	char *d;

	if (ndevices(self->fd) < 1)
		SKIP(return, "no device");
	d = dalloc(self->fd, 0, PAGE);
	ASSERT_NE(NULL, d);
	EXPECT_EQ(-EINVAL, hreg(self->fd, d, PAGE, 0));
	ufree_unmap(self->fd, d, PAGE);
}
TEST_F(reg, pinned_host_memory)
{
	char *h = halloc(self->fd, PAGE, 0, -1);

	ASSERT_NE(NULL, h);
	EXPECT_EQ(-EEXIST, hreg(self->fd, h, PAGE, 0));
	ufree_unmap(self->fd, h, PAGE);
}

TEST_HARNESS_MAIN
