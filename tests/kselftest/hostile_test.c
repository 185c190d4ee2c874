// SPDX-License-Identifier: GPL-2.0
/*
 * hostile_test - what a local user can do to the module on purpose or by
 * bad luck: fork with MADV_DOFORK, kernel-mode writes into managed memory,
 * another process holding the file. Each test is the regression test of a
 * defect found by hand or by the fuzzer (docs/reliability.md).
 */
#include <linux/capability.h>
#include <pthread.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <sys/wait.h>
#include <time.h>

#include "kselftest_harness.h"
#include "alloc_util.h"

#define LEN	(4 * MIB)

FIXTURE(hostile)
{
	int fd;
	char *p;
};

FIXTURE_SETUP(hostile)
{
	self->fd = uvm_open();
	ASSERT_LE(0, self->fd);
	self->p = uvm_map(self->fd, LEN);
	ASSERT_NE(NULL, self->p);
	uvm_fill(self->p, LEN, 42);
}

FIXTURE_TEARDOWN(hostile)
{
	munmap(self->p, LEN);
	close(self->fd);
}

struct child_arg {
	char *p;
	int fd;
	void *q;
};

/* The child of a MADV_DOFORK fork: its touch of the range is SIGBUS. */
static int child_touches(void *a)
{
	struct child_arg *c = a;

	if (uvm_touch_faults(c->p, 0) != SIGBUS)
		return 1;
	if (uvm_touch_faults(c->p + LEN - 1, 1) != SIGBUS)
		return 2;
	return 0;
}

/*
 * MADV_DOFORK on a range: 0 when the kernel lets it (6.1, 6.12), 1 when it
 * refuses it with EINVAL (sid's 7.2 does for these mappings: then fork
 * never copies them and the attack cannot happen), -1 otherwise.
 */
static int dofork(void *p, size_t len)
{
	if (!madvise(p, len, MADV_DOFORK))
		return 0;
	return errno == EINVAL ? 1 : -1;
}

#define DOFORK_REFUSED	"the kernel refuses MADV_DOFORK here: nothing to copy"

/*
 * MADV_DOFORK clears VM_DONTCOPY, so fork() copies the VMA into the child:
 * the copy must neither see the parent's pages nor, when the child exits,
 * punch the parent's range (it did: prefetch then failed with EINVAL and
 * the data was gone).
 */
TEST_F_TIMEOUT(hostile, dofork_child_neither_sees_nor_destroys_the_range, 120)
{
	struct child_arg c = { .p = self->p, .fd = self->fd };
	int r = dofork(self->p, LEN);

	if (r == 1)
		SKIP(return, DOFORK_REFUSED);
	ASSERT_EQ(0, r);
	EXPECT_EQ(0, run_bounded(child_touches, &c, 60));
	EXPECT_EQ(0, uvm_prefetch(self->fd, self->p, LEN, UVM_LOC_HOST_NUMA, 1));
	EXPECT_EQ(0, uvm_prefetch(self->fd, self->p, LEN, UVM_LOC_HOST_NUMA, 0));
	EXPECT_EQ(0, uvm_check(self->p, LEN, 42));
	/* A second generation: the child's disowned VMA is not copied on. */
	EXPECT_EQ(0, run_bounded(child_touches, &c, 60));
	EXPECT_EQ(0, uvm_check(self->p, LEN, 42));
}

/* The child munmaps its copy: nothing of the parent's goes. */
static int child_unmaps(void *a)
{
	struct child_arg *c = a;

	return munmap(c->p, LEN) ? 1 : 0;
}

TEST_F_TIMEOUT(hostile, dofork_child_munmap_keeps_the_parent_range, 120)
{
	struct child_arg c = { .p = self->p, .fd = self->fd };
	int r = dofork(self->p, LEN);

	if (r == 1)
		SKIP(return, DOFORK_REFUSED);
	ASSERT_EQ(0, r);
	EXPECT_EQ(0, run_bounded(child_unmaps, &c, 60));
	EXPECT_EQ(0, uvm_prefetch(self->fd, self->p, LEN, UVM_LOC_HOST_NUMA, 1));
	EXPECT_EQ(0, uvm_check(self->p, LEN, 42));
}

/*
 * After the child of a MADV_DOFORK fork exited, a kernel-mode write into
 * the parent's range (copy_to_user() of UVM_IOCTL_STATS' output) looped
 * for ever in ->page_mkwrite on a stale read-only PTE: an unkillable task.
 * It must finish (the write lands or the ioctl fails with EFAULT).
 */
static int kernel_write_into_range(void *a)
{
	struct child_arg *c = a;
	struct uvm_stats s = {
		.values = (uintptr_t)c->p, .count = 4,
		.scope = UVM_STATS_VA_SPACE,
	};
	int ret = uvm_ioctl(c->fd, UVM_IOCTL_STATS, &s);

	return ret == 0 || ret == -EFAULT ? 0 : 1;
}

/* The parent side, forked itself so a hang cannot take the test down. */
static int dofork_then_kernel_write(void *a)
{
	struct child_arg *c = a;
	int fd = uvm_open();
	char *p;

	if (fd < 0)
		return 10;
	p = uvm_map(fd, LEN);
	if (!p)
		return 11;
	uvm_sweep_read(p, LEN);			/* read-only PTEs ... */
	switch (dofork(p, LEN)) {
	case 0:
		break;
	case 1:
		return 99;
	default:
		return 12;
	}
	c->p = p;
	c->fd = fd;
	if (run_bounded(child_unmaps, c, 60))
		return 13;
	return kernel_write_into_range(c);	/* ... then a kernel write */
}

TEST_F_TIMEOUT(hostile, kernel_write_after_dofork_child_exit_finishes, 120)
{
	struct child_arg c = { 0 };
	int r = run_bounded(dofork_then_kernel_write, &c, 60);

	if (r == 99)
		SKIP(return, DOFORK_REFUSED);
	EXPECT_EQ(0, r);
}

/* The same for pinned host memory and device memory allocations. */
static int child_exits(void *a)
{
	struct child_arg *c = a;

	if (uvm_touch_faults(c->q, 0) != SIGBUS)
		return 1;
	return 0;
}

TEST_F_TIMEOUT(hostile, dofork_child_exit_keeps_pinned_allocations, 120)
{
	static const uint32_t flags[] = { 0, UVM_HOST_ALLOC_WRITECOMBINED };
	struct child_arg c = { .fd = self->fd };
	struct uvm_ptr_info pi;
	unsigned int i;
	char *q;
	int r;

	for (i = 0; i < 2; i++) {
		q = halloc(self->fd, 16 * PAGE, flags[i], -1);
		ASSERT_NE(NULL, q);
		memset(q, 0x5a, 16 * PAGE);
		r = dofork(q, 16 * PAGE);
		if (r == 1) {
			EXPECT_EQ(0, ufree_unmap(self->fd, q, 16 * PAGE));
			SKIP(return, DOFORK_REFUSED);
		}
		ASSERT_EQ(0, r);
		c.q = q;
		EXPECT_EQ(0, run_bounded(child_exits, &c, 60));
		ASSERT_EQ(0, ptrinfo(self->fd, q, &pi));
		EXPECT_EQ(UVM_PTR_HOST_ALLOC, pi.type);
		EXPECT_EQ(0x5a, q[0]);
		EXPECT_EQ(0x5a, q[16 * PAGE - 1]);
		EXPECT_EQ(0, ufree_unmap(self->fd, q, 16 * PAGE));
	}
}

/*
 * Another process holding the file (a forked child) may not free,
 * unregister, copy or read the counters of the owner's memory: EPERM.
 */
static int foreign_ioctls(void *a)
{
	struct child_arg *c = a;
	struct uvm_free f = { .addr = (uintptr_t)c->q };
	struct uvm_host_unregister u = { .addr = (uintptr_t)c->p };
	struct uvm_mem_counters m = { 0 };
	struct uvm_get_info gi = { 0 };
	uint64_t v[4];
	struct uvm_stats s = { .values = (uintptr_t)v, .count = 4 };

	if (uvm_ioctl(c->fd, UVM_IOCTL_FREE, &f) != -EPERM)
		return 1;
	if (uvm_ioctl(c->fd, UVM_IOCTL_HOST_UNREGISTER, &u) != -EPERM)
		return 2;
	if (uvm_ioctl(c->fd, UVM_IOCTL_MEM_COUNTERS, &m) != -EPERM)
		return 3;
	if (uvm_prefetch(c->fd, c->p, PAGE, UVM_LOC_HOST, 0) != -EPERM)
		return 4;
	if (uvm_ioctl(c->fd, UVM_IOCTL_GET_INFO, &gi))
		return 5;		/* module-wide: anyone may ask */
	if (uvm_ioctl(c->fd, UVM_IOCTL_STATS, &s))
		return 6;		/* counts: uvm-smi reads them */
	return 0;
}

TEST_F_TIMEOUT(hostile, foreign_process_cannot_free_or_unregister, 120)
{
	struct child_arg c = { .fd = self->fd };
	struct uvm_ptr_info pi;
	char *reg = anon(16 * PAGE);

	ASSERT_NE(NULL, reg);
	ASSERT_EQ(0, hreg(self->fd, reg, 16 * PAGE, 0));
	c.p = reg;
	c.q = halloc(self->fd, 16 * PAGE, 0, -1);
	ASSERT_NE(NULL, c.q);
	EXPECT_EQ(0, run_bounded(foreign_ioctls, &c, 60));
	ASSERT_EQ(0, ptrinfo(self->fd, reg, &pi));
	EXPECT_EQ(UVM_PTR_HOST_REGISTERED, pi.type);
	ASSERT_EQ(0, ptrinfo(self->fd, c.q, &pi));
	EXPECT_EQ(UVM_PTR_HOST_ALLOC, pi.type);
	EXPECT_EQ(16 * PAGE / PAGE, counters(self->fd).va_pinned_pages);
	EXPECT_EQ(0, hunreg(self->fd, reg));
	EXPECT_EQ(0, ufree_unmap(self->fd, c.q, 16 * PAGE));
	munmap(reg, 16 * PAGE);
}

/*
 * A CPU mapping of device memory is a special PTE on every backend: an
 * emulated device's pages had ordinary PTEs, so vmsplice, O_DIRECT or the
 * module's own MEMCPY could pin one, and the pin outlived the migration
 * that freed the chunk to another process.
 */
TEST_F_TIMEOUT(hostile, device_memory_mapped_by_the_cpu_cannot_be_pinned, 120)
{
	static const unsigned int backends[] = {
		UVM_BACKEND_EMULATED, UVM_BACKEND_PCI_BAR,
	};
	uint64_t maps0 = uvm_stat(self->fd, UVM_STAT_CPU_DEVICE_MAPS,
				  UVM_STATS_VA_SPACE);
	struct iovec iov = { .iov_base = self->p, .iov_len = PAGE };
	char *reg = anon(PAGE), *save = anon(PAGE), *q;
	unsigned int i, tried = 0;
	int pipefd[2], dev;

	ASSERT_EQ(0, pipe(pipefd));
	for (i = 0; i < 2; i++) {
		dev = uvm_find_device(self->fd, backends[i], 0);
		if (dev < 0)
			continue;
		tried++;
		q = self->p + i * MIB;
		iov.iov_base = q;
		ASSERT_EQ(0, uvm_advise(self->fd, q, MIB,
					UVM_ADVISE_SET_PREFERRED_LOCATION,
					UVM_LOC_DEVICE, dev));
		ASSERT_EQ(0, uvm_advise(self->fd, q, MIB,
					UVM_ADVISE_SET_ACCESSED_BY,
					UVM_LOC_HOST, 0));
		ASSERT_EQ(0, uvm_prefetch(self->fd, q, MIB, UVM_LOC_DEVICE,
					  dev));
		EXPECT_EQ(uvm_pattern(42, i * MIB), (unsigned char)q[0]);
		/* GUP says EFAULT or EEXIST (a special PTE) */
		EXPECT_EQ(-1, vmsplice(pipefd[1], &iov, 1, 0));
		/* Copies reach it through the CPU mapping instead. */
		EXPECT_EQ(0, mcpy(self->fd, reg, q, PAGE));
		EXPECT_EQ(0, memcmp(reg, q, PAGE));
		memcpy(save, q + PAGE, PAGE);
		EXPECT_EQ(0, mcpy(self->fd, q + PAGE, q, PAGE));
		EXPECT_EQ(0, memcmp(q + PAGE, q, PAGE));
		EXPECT_EQ(0, mcpy(self->fd, q + PAGE, save, PAGE));
		EXPECT_EQ(0, memcmp(q + PAGE, save, PAGE));
		EXPECT_EQ(-EINVAL, hreg(self->fd, q, PAGE, 0));
	}
	if (!tried)
		SKIP(return, "no device");
	EXPECT_LT(maps0, uvm_stat(self->fd, UVM_STAT_CPU_DEVICE_MAPS,
				  UVM_STATS_VA_SPACE));
	EXPECT_EQ(0, uvm_check(self->p, LEN, 42));
	close(pipefd[0]);
	close(pipefd[1]);
	munmap(reg, PAGE);
	munmap(save, PAGE);
}

/*
 * A page get_user_pages() holds (here a vmsplice into a pipe; O_DIRECT
 * and RDMA alike) was migrated anyway: later writes by the program (the
 * CPU or a device) went to the new copy, the holder kept the orphaned old
 * page, and an O_DIRECT read landing there was lost. Now such a page stays
 * where it is (counted in pinned_skips): a device maps it remotely, so
 * the holder and the program see the same bytes.
 */
TEST_F_TIMEOUT(hostile, migration_leaves_pages_that_gup_holds, 120)
{
	uint64_t skips = uvm_stat(self->fd, UVM_STAT_PINNED_SKIPS,
				  UVM_STATS_VA_SPACE);
	struct iovec iov = { .iov_base = self->p, .iov_len = PAGE };
	static const char msg[8] = "device!";
	char buf[64];
	int pipefd[2], dev, node;

	ASSERT_EQ(0, pipe(pipefd));
	ASSERT_EQ((ssize_t)PAGE, vmsplice(pipefd[1], &iov, 1, 0));
	/* Node to node: the page stays, the CPU's write is the holder's. */
	node = uvm_page_node(self->fd, self->p);
	ASSERT_LE(0, node);
	ASSERT_EQ(0, uvm_prefetch(self->fd, self->p, 2 * MIB,
				  UVM_LOC_HOST_NUMA, !node));
	EXPECT_EQ(node, uvm_page_node(self->fd, self->p));
	EXPECT_EQ(!node, uvm_page_node(self->fd, self->p + PAGE));
	self->p[0] = 'c';
	dev = uvm_find_device(self->fd, 0, 0);
	if (dev >= 0) {
		/* To a device: it stays home, the device writes it there. */
		ASSERT_EQ(0, uvm_prefetch(self->fd, self->p, 2 * MIB,
					  UVM_LOC_DEVICE, dev));
		EXPECT_EQ(0, uvm_res1(self->fd, self->p).devices_resident);
		EXPECT_NE(0, uvm_res1(self->fd, self->p + PAGE).devices_resident);
		ASSERT_EQ(0, uvm_dev_write(self->fd, dev, self->p + 1,
					   sizeof(msg), msg));
	}
	ASSERT_EQ((ssize_t)sizeof(buf), read(pipefd[0], buf, sizeof(buf)));
	EXPECT_EQ('c', buf[0]);
	if (dev >= 0)
		EXPECT_EQ(0, memcmp(buf + 1, msg, sizeof(msg)));
	EXPECT_EQ(0, memcmp(buf, self->p, sizeof(buf)));
	EXPECT_LT(skips, uvm_stat(self->fd, UVM_STAT_PINNED_SKIPS,
				  UVM_STATS_VA_SPACE));
	close(pipefd[0]);
	close(pipefd[1]);
	/* Nothing holds it any more: it moves. */
	EXPECT_EQ(0, uvm_prefetch(self->fd, self->p, PAGE, UVM_LOC_HOST_NUMA,
				  !node));
	EXPECT_EQ(!node, uvm_page_node(self->fd, self->p));
	EXPECT_EQ(0, uvm_check_off(self->p, sizeof(buf), LEN - sizeof(buf),
				   42));
}

/*
 * A read-mostly page whose host page get_user_pages() holds gets no
 * device copy: a write through the holder's reference (a MEMCPY into
 * managed memory pins its destination, O_DIRECT alike) lands in the host
 * page only, and a device copy made meanwhile kept the old bytes
 * (kill-stress finding F4: devices read stale data). The device reads
 * the page remotely instead (counted in pinned_skips); once nothing holds
 * it, it is duplicated as usual.
 */
TEST_F_TIMEOUT(hostile, read_duplicate_of_a_held_page_stays_home, 120)
{
	uint64_t skips = uvm_stat(self->fd, UVM_STAT_PINNED_SKIPS,
				  UVM_STATS_VA_SPACE);
	struct iovec iov = { .iov_base = self->p, .iov_len = PAGE };
	unsigned char buf[64];
	int pipefd[2], dev = uvm_find_device(self->fd, 0, 0);

	if (dev < 0)
		SKIP(return, "needs a device");
	ASSERT_EQ(0, uvm_advise(self->fd, self->p, 2 * MIB,
				UVM_ADVISE_SET_READ_MOSTLY, 0, 0));
	ASSERT_EQ(0, pipe(pipefd));
	ASSERT_EQ((ssize_t)PAGE, vmsplice(pipefd[1], &iov, 1, 0));
	ASSERT_EQ(0, uvm_dev_read(self->fd, dev, self->p, sizeof(buf), buf));
	EXPECT_EQ(uvm_pattern(42, 0), buf[0]);
	EXPECT_EQ(0, uvm_res1(self->fd, self->p).devices_resident);
	EXPECT_LT(skips, uvm_stat(self->fd, UVM_STAT_PINNED_SKIPS,
				  UVM_STATS_VA_SPACE));
	/* Its neighbour, held by no one, is duplicated. */
	ASSERT_EQ(0, uvm_dev_read(self->fd, dev, self->p + PAGE, sizeof(buf),
				  buf));
	EXPECT_NE(0, uvm_res1(self->fd, self->p + PAGE).devices_resident);
	close(pipefd[0]);
	close(pipefd[1]);
	/* Nothing holds it any more: the next prefetch duplicates it. */
	ASSERT_EQ(0, uvm_prefetch(self->fd, self->p, PAGE, UVM_LOC_DEVICE,
				  dev));
	EXPECT_NE(0, uvm_res1(self->fd, self->p).devices_resident);
	EXPECT_EQ(0, uvm_check(self->p, LEN, 42));
}

struct mover {
	int fd, dev;
	char *p;
	size_t len;
	volatile int go;	/* round the MEMCPY thread is starting */
	volatile int stop;
	int moves;
};

/*
 * At each round the MEMCPY thread starts, prefetch the range to the
 * device (or, with no device, to node 0 and node 1 in turn) a random
 * while (0..511 us) later: somewhere inside the MEMCPY; the move then
 * lasts test_move_delay_us past its copy.
 */
static void *to_device(void *a)
{
	struct mover *m = a;
	unsigned int seed = 1;
	int seen = 0;

	while (!m->stop) {
		if (m->go == seen) {
			sched_yield();
			continue;
		}
		seen = m->go;
		usleep(rand_r(&seed) % 512);
		if (m->dev >= 0 ?
		    uvm_prefetch(m->fd, m->p, m->len, UVM_LOC_DEVICE, m->dev) :
		    uvm_prefetch(m->fd, m->p, m->len, UVM_LOC_HOST_NUMA,
				 m->moves & 1))
			break;
		m->moves++;
	}
	return NULL;
}

/*
 * A MEMCPY pins its managed destination, writes it through the pin and
 * lets go. A move to a device that began while the pin was held copied
 * the page before (or while) it was written; its end found the pin gone
 * and dropped the host page, so the stale device copy won and the
 * MEMCPY's data was lost (kill-stress finding F5: a chunk copied onto
 * another still held its own older data). A page held when a move
 * begins now stays home whatever the holder does until the end. The
 * module's test_move_delay_us (2 ms) keeps each move open past the
 * MEMCPY's end, so a move begun inside one hits the window every time.
 */
/*
 * MEMCPYs into @dst while another thread moves it (struct mover: to
 * device @dev, or between the nodes if @dev < 0), the move kept open
 * past its copy by test_move_delay_us. Return: the rounds whose data was
 * lost.
 */
static int memcpy_racing_moves(struct __test_metadata *_metadata, int fd,
			       char *dst, int dev)
{
	static const char knob[] = "/sys/module/uvm/parameters/test_move_delay_us";
	struct mover m = { .fd = fd, .len = 2 * MIB, .dev = dev, .p = dst };
	char *src[2];
	int round, lost = 0, k;
	time_t end;
	size_t off;
	pthread_t t;

	src[0] = uvm_map(fd, 2 * MIB);
	src[1] = uvm_map(fd, 2 * MIB);
	ASSERT_NE(NULL, src[0]);
	ASSERT_NE(NULL, src[1]);
	uvm_fill(src[0], 2 * MIB, 7);
	uvm_fill(src[1], 2 * MIB, 8);
	/* The knob refuses what is out of range, and changes nothing. */
	EXPECT_EQ(-EINVAL, uvm_write_str(knob, "100001"));
	EXPECT_EQ(-EINVAL, uvm_write_str(knob, "-1"));
	EXPECT_EQ(0, uvm_read_long(knob));
	ASSERT_EQ(0, uvm_write_long(knob, 2000));
	ASSERT_EQ(0, pthread_create(&t, NULL, to_device, &m));
	end = time(NULL) + 20;
	for (round = 1; round < 500 && time(NULL) < end; round++) {
		k = round & 1;
		/* Home and writable: the MEMCPY pins without faulting. */
		for (off = 0; off < 2 * MIB; off += PAGE)
			dst[off] = 0;
		m.go = round;
		ASSERT_EQ(0, mcpy(fd, dst, src[k], 2 * MIB));
		for (off = 0; off < 2 * MIB; off += PAGE)
			if (memcmp(dst + off, src[k] + off, 64)) {
				lost++;
				break;
			}
	}
	m.stop = 1;
	pthread_join(t, NULL);
	uvm_write_long(knob, 0);
	TH_LOG("%d rounds, %d moves, %d with lost data", round, m.moves, lost);
	EXPECT_LT(0, m.moves);
	munmap(src[0], 2 * MIB);
	munmap(src[1], 2 * MIB);
	return lost;
}

TEST_F_TIMEOUT(hostile, memcpy_racing_moves_to_a_device_loses_nothing, 300)
{
	int dev = uvm_find_device(self->fd, 0, 0);

	if (dev < 0)
		SKIP(return, "needs a device");
	EXPECT_EQ(0, memcpy_racing_moves(_metadata, self->fd, self->p, dev));
}

/*
 * The same race with node-to-node prefetches: their copies run on the
 * copy engine's helpers, each page tested for a holder right before it is
 * copied, on whichever CPU copies it; a page held then stays, one not held
 * then cannot be pinned again before the move ends.
 */
TEST_F_TIMEOUT(hostile, memcpy_racing_moves_between_nodes_loses_nothing, 300)
{
	EXPECT_EQ(0, memcpy_racing_moves(_metadata, self->fd, self->p, -1));
}

/* --- registrations ------------------------------------------------ */

#define REG_LEN	(32 * MIB)

struct race {
	int fd;
	char *p;
	volatile int stop;
	int iters;
};

/* Unmap and map back the middle of the range, over and over. */
static void *unmapper(void *a)
{
	struct race *r = a;
	char *mid = r->p + REG_LEN / 2;

	while (!r->stop) {
		munmap(mid, 16 * PAGE);
		if (mmap(mid, 16 * PAGE, PROT_READ | PROT_WRITE,
			 MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1, 0) != mid)
			break;
		memset(mid, 1, 16 * PAGE);
		usleep(100);
	}
	return NULL;
}

/* Register [p, p + REG_LEN) again and again while another thread unmaps. */
static int register_while_unmapping(void *a)
{
	struct race *r = a;
	struct uvm_ptr_info pi;
	pthread_t t;
	int i, ret, ok = 0;

	r->fd = uvm_open();	/* the child's own VA space */
	if (r->fd < 0)
		return 99;
	pthread_create(&t, NULL, unmapper, r);
	for (i = 0; i < r->iters; i++) {
		ret = hreg(r->fd, r->p, REG_LEN, 0);
		if (ret && ret != -EFAULT)
			return 100 - ret;
		ptrinfo(r->fd, r->p, &pi);
		if (!ret && hunreg(r->fd, r->p) && hunreg(r->fd, r->p) != -ENOENT)
			return 2;
		ok += !ret;
	}
	r->stop = 1;
	pthread_join(t, NULL);
	/* Every registration is gone again: nothing stays pinned. */
	if (counters(r->fd).va_pinned_pages)
		return 3;
	return 0;
}

/*
 * HOST_REGISTER inserted its unmap notifier before it filled the page
 * array: an unmap meanwhile unpinned and freed the array under the pinning
 * loop (a use-after-free KASAN reports on the debug kernel). Now the pages
 * are published only if no invalidation ran, else pinned again or -EFAULT.
 */
TEST_F_TIMEOUT(hostile, register_races_munmap, 300)
{
	struct race r = { .iters = 40 };

	r.p = anon(REG_LEN);
	ASSERT_NE(NULL, r.p);
	memset(r.p, 3, REG_LEN);
	EXPECT_EQ(0, run_bounded(register_while_unmapping, &r, 240));
	munmap(r.p, REG_LEN);
}

/*
 * MEMCPY into a registration held the registration's lock while it pinned
 * the user source (mmap_lock); munmap of the registration takes mmap_lock,
 * then the lock in the notifier: an ABBA deadlock. The source pages are
 * never touched before, so pinning them takes the slow path (mmap_lock).
 */
static void *reg_unmapper(void *a)
{
	struct race *r = a;

	while (!r->stop) {
		char *q = anon(16 * PAGE);

		if (!q)
			break;
		memset(q, 2, 16 * PAGE);
		if (!hreg(r->fd, q, 16 * PAGE, 0))
			munmap(q, 16 * PAGE);	/* the notifier unpins */
		else
			munmap(q, 16 * PAGE);
	}
	return NULL;
}

static int copy_while_unmapping(void *a)
{
	struct race *r = a;
	char *dst = anon(16 * PAGE), *src;
	pthread_t t;
	int i, ret;

	r->fd = uvm_open();	/* the child's own VA space */
	if (!dst || r->fd < 0)
		return 1;
	i = hreg(r->fd, dst, 16 * PAGE, 0);
	if (i)
		return 100 - i;
	pthread_create(&t, NULL, reg_unmapper, r);
	for (i = 0; i < r->iters; i++) {
		src = anon(16 * PAGE);	/* untouched: slow-path pinning */
		if (!src)
			return 2;
		ret = mcpy(r->fd, dst, src, 16 * PAGE);
		if (ret)
			return 200 - ret;
		munmap(src, 16 * PAGE);
	}
	r->stop = 1;
	pthread_join(t, NULL);
	return hunreg(r->fd, dst) ? 3 : 0;
}

TEST_F_TIMEOUT(hostile, memcpy_into_registration_races_munmap, 300)
{
	struct race r = { .iters = 500 };

	EXPECT_EQ(0, run_bounded(copy_while_unmapping, &r, 240));
}

/* Drop CAP_IPC_LOCK from the effective and permitted sets. */
static int drop_ipc_lock(void)
{
	struct __user_cap_header_struct h = {
		.version = _LINUX_CAPABILITY_VERSION_3,
	};
	struct __user_cap_data_struct d[2];

	if (syscall(SYS_capget, &h, d))
		return -1;
	d[CAP_IPC_LOCK / 32].effective &= ~(1U << (CAP_IPC_LOCK % 32));
	d[CAP_IPC_LOCK / 32].permitted &= ~(1U << (CAP_IPC_LOCK % 32));
	return syscall(SYS_capset, &h, d);
}

/*
 * Registered pages count against RLIMIT_MEMLOCK (pinned_vm) unless the
 * caller has CAP_IPC_LOCK; a registration larger than memory fails
 * cleanly (a 1 TiB PROT_NONE reservation reached a WARN in kvcalloc()).
 */
static int memlock_limited(void *a)
{
	struct rlimit rl = { 256 * 1024, 256 * 1024 };
	int fd = uvm_open();
	char *p = anon(MIB), *huge;

	if (fd < 0 || !p || drop_ipc_lock() || setrlimit(RLIMIT_MEMLOCK, &rl))
		return 10;
	memset(p, 1, MIB);
	if (hreg(fd, p, MIB, 0) != -ENOMEM)
		return 1;
	if (hreg(fd, p, 128 * 1024, 0))
		return 2;
	if (hreg(fd, p + 128 * 1024, 256 * 1024, 0) != -ENOMEM)
		return 3;			/* 128 + 256 KiB > 256 KiB */
	if (counters(fd).va_pinned_pages != 128 * 1024 / PAGE)
		return 4;
	if (hunreg(fd, p))
		return 5;
	if (hreg(fd, p, 256 * 1024, 0) || hunreg(fd, p))
		return 6;			/* the charge went back */
	huge = mmap(NULL, 1UL << 40, PROT_NONE,
		    MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
	if (huge == MAP_FAILED)
		return 11;
	if (hreg(fd, huge, 1UL << 40, 0) != -ENOMEM)
		return 7;
	return 0;
}

static int huge_unlimited(void *a)
{
	int fd = uvm_open();
	char *huge = mmap(NULL, 1UL << 40, PROT_NONE,
			  MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
	int ret;

	if (fd < 0 || huge == MAP_FAILED)
		return 10;
	ret = hreg(fd, huge, 1UL << 40, 0);
	if (ret != -ENOMEM)
		return 1;
	ret = hreg(fd, huge, 64 * MIB, 0);	/* PROT_NONE: nothing to pin */
	return ret == -EFAULT ? 0 : 2;
}

TEST_F_TIMEOUT(hostile, registration_counts_against_memlock, 300)
{
	EXPECT_EQ(0, run_bounded(memlock_limited, NULL, 60));
	EXPECT_EQ(0, run_bounded(huge_unlimited, NULL, 60));
}

/*
 * Fill device @dev with device allocations (never evicted); they go into
 * @d[] with their sizes in @sz[]. Returns how many.
 */
static int fill_device(int fd, int dev, void **d, size_t *sz, int max)
{
	size_t size = 64 * MIB;
	int n = 0;

	while (n < max && size >= 2 * MIB) {
		d[n] = dalloc(fd, dev, size);
		if (d[n])
			sz[n++] = size;
		else
			size /= 2;
	}
	return n;
}

/*
 * A device read of an unpopulated read-mostly page on a device full of
 * device allocations: the read duplicate found no room and fell back to a
 * remote mapping of a host copy that did not exist (fuzzer finding FZ7: a
 * GPF in memcpy from a NULL page on the emulated backend). Now the page is
 * populated on the host first and the device reads zeros.
 */
TEST_F_TIMEOUT(hostile, read_duplicate_on_a_full_device_reads_zeros, 300)
{
	static const unsigned int backends[] = {
		UVM_BACKEND_EMULATED, UVM_BACKEND_PCI_BAR,
	};
	unsigned char *buf = malloc(PAGE), *zero = calloc(1, PAGE), *q;
	unsigned int b, tried = 0;
	void *d[256];
	size_t sz[256];
	int dev, n, i;

	ASSERT_NE(NULL, buf);
	ASSERT_NE(NULL, zero);
	for (b = 0; b < 2; b++) {
		dev = uvm_find_device(self->fd, backends[b], 0);
		if (dev < 0)
			continue;
		tried++;
		q = uvm_map(self->fd, 2 * MIB);
		ASSERT_NE(NULL, q);
		ASSERT_EQ(0, uvm_advise(self->fd, q, 2 * MIB,
					UVM_ADVISE_SET_READ_MOSTLY, 0, 0));
		n = fill_device(self->fd, dev, d, sz, 256);
		ASSERT_LT(0, n);
		memset(buf, 0x5a, PAGE);
		EXPECT_EQ(0, uvm_dev_read(self->fd, dev, q + 3 * PAGE, PAGE,
					  buf));
		EXPECT_EQ(0, memcmp(buf, zero, PAGE));
		EXPECT_EQ(0, q[3 * PAGE]);
		for (i = 0; i < n; i++)
			EXPECT_EQ(0, ufree_unmap(self->fd, d[i], sz[i]));
		munmap(q, 2 * MIB);
	}
	free(buf);
	free(zero);
	if (!tried)
		SKIP(return, "no device");
	EXPECT_EQ(0, uvm_check(self->p, LEN, 42));
}

/*
 * One host page mapped remotely by two PCI devices at once (accessed-by
 * both): each device DMA-maps the page. Both mappings synced the CPU
 * caches, which the DMA API's debug checks report as overlapping mappings
 * (a WARNING on the debug kernel, found by the fuzzer there); the second
 * mapping now skips the sync. Data stays right either way.
 */
TEST_F_TIMEOUT(hostile, two_devices_map_one_host_page_remotely, 120)
{
	int a = uvm_find_device(self->fd, UVM_BACKEND_PCI_BAR, 0);
	int b = uvm_find_device(self->fd, UVM_BACKEND_PCI_BAR, 1);
	unsigned char buf[64];
	int dev, i;

	if (a < 0 || b < 0)
		SKIP(return, "needs two PCI devices");
	for (i = 0; i < 2; i++) {
		dev = i ? b : a;
		ASSERT_EQ(0, uvm_advise(self->fd, self->p, 2 * MIB,
					UVM_ADVISE_SET_ACCESSED_BY,
					UVM_LOC_DEVICE, dev));
	}
	for (i = 0; i < 4; i++) {
		dev = i % 2 ? b : a;
		memset(buf, 0, sizeof(buf));
		ASSERT_EQ(0, uvm_dev_read(self->fd, dev, self->p + PAGE,
					  sizeof(buf), buf));
		EXPECT_EQ(uvm_pattern(42, PAGE), buf[0]);
		EXPECT_EQ(uvm_pattern(42, PAGE + 63), buf[63]);
	}
	EXPECT_EQ(0, uvm_res1(self->fd, self->p + PAGE).devices_resident);
	EXPECT_EQ(0, uvm_check(self->p, LEN, 42));
}

/*
 * One memfd page registered through two mappings: each registration
 * DMA-maps the same page for every PCI device, and each mapping synced
 * the CPU caches, which the debug kernel's DMA API checks report as
 * overlapping mappings (found by the fuzz group there). Mappings skip the
 * sync now and sync explicitly. Both registrations see the same bytes.
 */
TEST_F_TIMEOUT(hostile, one_page_registered_through_two_mappings, 120)
{
	int mfd = memfd_create("uvm-hostile", 0);
	char *a, *b;

	ASSERT_LE(0, mfd);
	ASSERT_EQ(0, ftruncate(mfd, 16 * PAGE));
	a = mmap(NULL, 16 * PAGE, PROT_READ | PROT_WRITE, MAP_SHARED, mfd, 0);
	b = mmap(NULL, 16 * PAGE, PROT_READ | PROT_WRITE, MAP_SHARED, mfd, 0);
	ASSERT_NE(MAP_FAILED, a);
	ASSERT_NE(MAP_FAILED, b);
	memset(a, 0x3c, 16 * PAGE);
	ASSERT_EQ(0, hreg(self->fd, a, 16 * PAGE, 0));
	ASSERT_EQ(0, hreg(self->fd, b, 16 * PAGE, 0));
	EXPECT_EQ(0, mcpy(self->fd, a, self->p, PAGE));
	EXPECT_EQ(0, memcmp(b, self->p, PAGE));
	EXPECT_EQ(0x3c, b[16 * PAGE - 1]);
	EXPECT_EQ(0, hunreg(self->fd, a));
	EXPECT_EQ(0, hunreg(self->fd, b));
	munmap(a, 16 * PAGE);
	munmap(b, 16 * PAGE);
	close(mfd);
}

TEST_HARNESS_MAIN
