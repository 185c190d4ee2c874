// SPDX-License-Identifier: GPL-2.0
/*
 * Fault-ahead (kmod/uvm_fault_ahead.c): a CPU sweep over device-resident
 * data brings the next blocks home in the background (counted), data stays
 * exact, every page comes home, a write sweep is mapped writable; policies
 * that keep data on the device are left alone; fault_ahead_blocks=0 turns
 * it off and bad values are refused; munmap and exit while the worker runs
 * are safe.
 * Needs one device (any backend).
 */
#include <stdio.h>
#include <sys/wait.h>

#include "kselftest_harness.h"
#include "uvm_test_util.h"

#define AHEAD_PARAM	"/sys/module/uvm/parameters/fault_ahead_blocks"
#define LEN		(16 * MIB)
#define BLOCK		(2 * MIB)

static long read_param(void)
{
	return uvm_read_long(AHEAD_PARAM);
}

static int write_param(const char *s)
{
	return uvm_write_str(AHEAD_PARAM, s);
}

FIXTURE(ahead)
{
	int fd;
	int dev;
	long saved;
	char *p;
};

FIXTURE_SETUP(ahead)
{
	self->fd = uvm_open();
	ASSERT_LE(0, self->fd);
	self->p = NULL;
	self->dev = uvm_find_device(self->fd, 0, 0);
	if (self->dev < 0)
		SKIP(return, "needs a device");
	self->saved = read_param();
	ASSERT_LE(0, self->saved);
	ASSERT_EQ(0, write_param("4"));
	self->p = uvm_map(self->fd, LEN);
	ASSERT_NE(NULL, self->p);
	uvm_fill(self->p, LEN, 21);
	ASSERT_EQ(0, uvm_prefetch(self->fd, self->p, LEN, UVM_LOC_DEVICE,
				  self->dev));
}

FIXTURE_TEARDOWN(ahead)
{
	if (self->p)
		munmap(self->p, LEN);
	if (self->saved >= 0)
		uvm_write_long(AHEAD_PARAM, self->saved);
	close(self->fd);
}

static uint64_t st(int fd, unsigned int stat)
{
	return uvm_stat(fd, stat, UVM_STATS_VA_SPACE);
}

TEST_F(ahead, sweep_brings_blocks_home_ahead)
{
	uint64_t a0 = st(self->fd, UVM_STAT_FAULT_AHEAD_PAGES);
	uint64_t d0 = st(self->fd, UVM_STAT_MIGRATE_D2H_PAGES);
	struct uvm_page_residency r;
	int ms;

	/*
	 * The first fault starts the worker; wait for it (bounded) before the
	 * sweep, which would otherwise race it for the same blocks (on a
	 * loaded machine the sweep can win every one).
	 */
	uvm_sweep_read(self->p, PAGE);
	for (ms = 0; ms < 20000; ms++) {
		if (st(self->fd, UVM_STAT_FAULT_AHEAD_PAGES) > a0)
			break;
		usleep(1000);
	}
	uvm_sweep_read(self->p, LEN);
	EXPECT_LT(a0, st(self->fd, UVM_STAT_FAULT_AHEAD_PAGES));
	EXPECT_EQ(LEN / PAGE, st(self->fd, UVM_STAT_MIGRATE_D2H_PAGES) - d0);
	r = uvm_res1(self->fd, self->p + LEN - PAGE);
	EXPECT_EQ(0, r.devices_resident);
	EXPECT_LE(0, r.cpu_node);
	EXPECT_EQ(0, uvm_check(self->p, LEN, 21));
}

TEST_F(ahead, write_sweep_maps_writable_and_keeps_data)
{
	uint64_t m0 = st(self->fd, UVM_STAT_CPU_MKWRITE);
	size_t i;

	for (i = 0; i < LEN; i += PAGE)
		self->p[i] = (char)(i / PAGE);
	for (i = 0; i < LEN; i += PAGE) {
		ASSERT_EQ((char)(i / PAGE), self->p[i]);
		ASSERT_EQ(0, uvm_check_off(self->p, i + 1, PAGE - 1, 21));
	}
	/* Blocks of a write sweep are mapped writable: no upgrade faults. */
	EXPECT_GT(LEN / PAGE / 4, st(self->fd, UVM_STAT_CPU_MKWRITE) - m0);
}

TEST_F(ahead, off_means_one_fault_per_block)
{
	uint64_t f0, a0;

	ASSERT_EQ(0, write_param("0"));
	f0 = st(self->fd, UVM_STAT_CPU_FAULTS);
	a0 = st(self->fd, UVM_STAT_FAULT_AHEAD_PAGES);
	uvm_sweep_read(self->p, LEN);
	EXPECT_LE(LEN / BLOCK, st(self->fd, UVM_STAT_CPU_FAULTS) - f0);
	EXPECT_EQ(a0, st(self->fd, UVM_STAT_FAULT_AHEAD_PAGES));
	EXPECT_EQ(0, uvm_check(self->p, LEN, 21));
}

TEST_F(ahead, bad_values_are_refused)
{
	EXPECT_EQ(-EINVAL, write_param("65"));
	EXPECT_EQ(-EINVAL, write_param("x"));
	EXPECT_EQ(4, read_param());
}

/* Accessed-by the CPU: the CPU maps device memory, nothing comes home. */
TEST_F(ahead, accessed_by_cpu_keeps_data_on_the_device)
{
	uint64_t d0;

	ASSERT_EQ(0, uvm_advise(self->fd, self->p, LEN,
				UVM_ADVISE_SET_ACCESSED_BY, UVM_LOC_HOST, 0));
	d0 = st(self->fd, UVM_STAT_MIGRATE_D2H_PAGES);
	uvm_sweep_read(self->p, LEN);
	EXPECT_EQ(0, uvm_check(self->p, LEN, 21));
	if (st(self->fd, UVM_STAT_CPU_DEVICE_MAPS))	/* CPU-mappable backend */
		EXPECT_EQ(d0, st(self->fd, UVM_STAT_MIGRATE_D2H_PAGES));
}

/* munmap of the rest of the range while the worker brings it home. */
TEST_F(ahead, munmap_during_fault_ahead)
{
	uvm_sweep_read(self->p, PAGE);	/* fault-back of block 0 kicks the worker */
	munmap(self->p + 2 * MIB, LEN - 2 * MIB);
	EXPECT_EQ(0, uvm_check(self->p, 2 * MIB, 21));
	munmap(self->p, 2 * MIB);
	self->p = NULL;
}

/* Process exit while the worker runs frees everything (checked at rmmod). */
TEST_F(ahead, exit_during_fault_ahead)
{
	pid_t pid = fork();
	int status;

	ASSERT_LE(0, pid);
	if (!pid) {
		int fd = uvm_open();
		char *q = uvm_map(fd, LEN);

		uvm_fill(q, LEN, 3);
		uvm_prefetch(fd, q, LEN, UVM_LOC_DEVICE, self->dev);
		uvm_sweep_read(q, 2 * MIB + PAGE);
		_exit(0);
	}
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	EXPECT_TRUE(WIFEXITED(status) && !WEXITSTATUS(status));
}

TEST_HARNESS_MAIN
