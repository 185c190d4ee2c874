// SPDX-License-Identifier: GPL-2.0
/*
 * Thrashing detection and policies (UVM_PERF_THRASH, module parameters
 * thrash_policy, thrash_threshold, thrash_window_us, thrash_nap_us,
 * thrash_pin_ms).
 *
 * A device and the CPU (or two devices) take turns writing one page: the
 * block's data moves on every turn. Under none the moves go on and are
 * detected as thrashing (counted); under pin the block stays where it was
 * when detected and the other side maps it, so the moves stop; under
 * throttle the side that wants the data next naps first. Every value read
 * is the last one written, by whichever side. Bad input changes nothing.
 * Default group (two ivshmem devices).
 */
#include <stdio.h>
#include <time.h>

#include "kselftest_harness.h"
#include "alloc_util.h"

#define BLK		(2 * MIB)
#define PARAM		"/sys/module/uvm/parameters/"

static int thrash_set(int fd, uint32_t policy, uint32_t nap_us, uint32_t pin_ms)
{
	struct uvm_perf p = {
		.version = UVM_PERF_VERSION, .set = UVM_PERF_THRASH,
		.thrash_policy = policy, .thrash_threshold = 3,
		.thrash_window_us = 10000000, .thrash_nap_us = nap_us,
		.thrash_pin_ms = pin_ms,
	};

	return uvm_ioctl(fd, UVM_IOCTL_PERF_SET, &p);
}

static uint64_t st(int fd, unsigned int stat)
{
	return uvm_stat(fd, stat, UVM_STATS_VA_SPACE);
}

/* Pages that moved between processors so far. */
static uint64_t moves(int fd)
{
	return st(fd, UVM_STAT_MIGRATE_H2D_PAGES) +
	       st(fd, UVM_STAT_MIGRATE_D2H_PAGES) +
	       st(fd, UVM_STAT_MIGRATE_D2D_PAGES);
}

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

FIXTURE(th)
{
	int fd, dev[2], ndev;
	uint64_t *m;
};

FIXTURE_SETUP(th)
{
	struct uvm_device_info info[UVM_MAX_DEVICES];

	self->fd = uvm_open();
	ASSERT_LE(0, self->fd);
	self->ndev = uvm_devices(self->fd, info, UVM_MAX_DEVICES);
	if (self->ndev < 1)
		SKIP(return, "no device");
	self->dev[0] = info[0].id;
	self->dev[1] = self->ndev > 1 ? (int)info[1].id : -1;
	self->m = uvm_map(self->fd, BLK);
	ASSERT_NE(NULL, self->m);
	self->m[0] = 0;
}

FIXTURE_TEARDOWN(th)
{
	if (self->m)
		munmap(self->m, BLK);
	close(self->fd);
}

/*
 * @rounds turns: device @a writes round*2+1 into the page, then the CPU
 * (@b < 0) or device @b reads it and writes round*2+2. 0, or the round + 1
 * whose read saw the wrong value.
 */
static int ping_pong(int fd, uint64_t *m, int a, int b, int rounds)
{
	uint64_t v;
	int r;

	for (r = 0; r < rounds; r++) {
		v = 2 * r + 1;
		if (uvm_dev_write(fd, a, m, 8, &v))
			return r + 1;
		if (b < 0) {
			if (m[0] != v)
				return r + 1;
			m[0] = v + 1;
			continue;
		}
		if (uvm_dev_read(fd, b, m, 8, &v) || v != 2 * (uint64_t)r + 1)
			return r + 1;
		v++;
		if (uvm_dev_write(fd, b, m, 8, &v))
			return r + 1;
		if (uvm_dev_read(fd, a, m, 8, &v) || v != 2 * (uint64_t)r + 2)
			return r + 1;
	}
	return 0;
}

TEST_F(th, none_detects_and_moves_on)
{
	uint64_t d0 = st(self->fd, UVM_STAT_THRASH_DETECTED), m0 = moves(self->fd);

	ASSERT_EQ(0, thrash_set(self->fd, UVM_THRASH_NONE, 250, 300));
	ASSERT_EQ(0, ping_pong(self->fd, self->m, self->dev[0], -1, 24));
	TH_LOG("none: %llu pages moved, thrashing detected %llu times",
	       (unsigned long long)(moves(self->fd) - m0),
	       (unsigned long long)(st(self->fd, UVM_STAT_THRASH_DETECTED) - d0));
	EXPECT_LE(40, moves(self->fd) - m0);
	EXPECT_LE(8, st(self->fd, UVM_STAT_THRASH_DETECTED) - d0);
	EXPECT_EQ(0, st(self->fd, UVM_STAT_THRASH_PINNED));
	EXPECT_EQ(0, st(self->fd, UVM_STAT_THRASH_THROTTLED));
}

TEST_F(th, pin_stops_a_device_and_the_cpu_moving_one_page)
{
	uint64_t m0 = moves(self->fd), moved;

	ASSERT_EQ(0, thrash_set(self->fd, UVM_THRASH_PIN, 250, 60000));
	ASSERT_EQ(0, ping_pong(self->fd, self->m, self->dev[0], -1, 24));
	moved = moves(self->fd) - m0;
	TH_LOG("pin: %llu pages moved in 48 turns, %llu accesses in place",
	       (unsigned long long)moved,
	       (unsigned long long)st(self->fd, UVM_STAT_THRASH_PINNED));
	EXPECT_LE(1, st(self->fd, UVM_STAT_THRASH_DETECTED));
	/* Mapped in place once, the page faults no more. */
	EXPECT_LE(1, st(self->fd, UVM_STAT_THRASH_PINNED));
	/* Four moves to detect it, then none while it is pinned. */
	EXPECT_GE(6, moved);
}

TEST_F(th, pin_stops_two_devices_moving_one_page)
{
	uint64_t m0 = moves(self->fd), moved;

	if (self->dev[1] < 0)
		SKIP(return, "one device");
	ASSERT_EQ(0, thrash_set(self->fd, UVM_THRASH_PIN, 250, 60000));
	ASSERT_EQ(0, ping_pong(self->fd, self->m, self->dev[0], self->dev[1], 16));
	moved = moves(self->fd) - m0;
	TH_LOG("pin, two devices: %llu pages moved in 32 turns", (unsigned long long)moved);
	EXPECT_LE(1, st(self->fd, UVM_STAT_THRASH_DETECTED));
	EXPECT_GE(6, moved);
	EXPECT_EQ(32, self->m[0]);	/* the CPU sees the last write too */
}

TEST_F(th, throttle_makes_the_next_processor_nap)
{
	uint64_t t0 = st(self->fd, UVM_STAT_THRASH_THROTTLED), naps;
	double start = now_s(), secs;

	ASSERT_EQ(0, thrash_set(self->fd, UVM_THRASH_THROTTLE, 20000, 300));
	ASSERT_EQ(0, ping_pong(self->fd, self->m, self->dev[0], -1, 16));
	secs = now_s() - start;
	naps = st(self->fd, UVM_STAT_THRASH_THROTTLED) - t0;
	TH_LOG("throttle: %llu naps of 20 ms in %.3f s",
	       (unsigned long long)naps, secs);
	EXPECT_LE(4, naps);
	EXPECT_LE(naps * 0.02 * 0.99, secs);
	EXPECT_LE(1, st(self->fd, UVM_STAT_THRASH_DETECTED));
}

TEST_F(th, bad_requests_and_parameters_change_nothing)
{
	struct uvm_perf bad[8], p;
	int i;

	ASSERT_EQ(0, thrash_set(self->fd, UVM_THRASH_PIN, 100, 50));
	for (i = 0; i < 8; i++)
		bad[i] = (struct uvm_perf){
			.version = UVM_PERF_VERSION, .set = UVM_PERF_THRASH,
			.thrash_policy = UVM_THRASH_THROTTLE,
			.thrash_threshold = 3, .thrash_window_us = 500,
			.thrash_nap_us = 250, .thrash_pin_ms = 300,
		};
	bad[0].thrash_policy = UVM_THRASH_COUNT;
	bad[1].thrash_threshold = 0;
	bad[2].thrash_threshold = 1001;
	bad[3].thrash_window_us = 0;
	bad[4].thrash_window_us = 10000001;
	bad[5].thrash_nap_us = 100001;
	bad[6].thrash_pin_ms = 0;
	bad[7].thrash_pin_ms = 60001;
	for (i = 0; i < 8; i++) {
		EXPECT_EQ(-EINVAL, uvm_ioctl(self->fd, UVM_IOCTL_PERF_SET, &bad[i]))
			TH_LOG("bad request %d", i);
	}
	memset(&p, 0, sizeof(p));
	p.version = UVM_PERF_VERSION;
	ASSERT_EQ(0, uvm_ioctl(self->fd, UVM_IOCTL_PERF_GET, &p));
	EXPECT_EQ(UVM_THRASH_PIN, p.thrash_policy);
	EXPECT_EQ(100, p.thrash_nap_us);
	EXPECT_EQ(50, p.thrash_pin_ms);
	EXPECT_EQ(10000000, p.thrash_window_us);
	EXPECT_EQ(UVM_PERF_THRASH, p.overrides & UVM_PERF_THRASH);

	EXPECT_EQ(-EINVAL, uvm_write_str(PARAM "thrash_policy", "evict"));
	EXPECT_EQ(-EINVAL, uvm_write_str(PARAM "thrash_threshold", "0"));
	EXPECT_EQ(-EINVAL, uvm_write_str(PARAM "thrash_window_us", "0"));
	EXPECT_EQ(-EINVAL, uvm_write_str(PARAM "thrash_nap_us", "100001"));
	EXPECT_EQ(-EINVAL, uvm_write_str(PARAM "thrash_pin_ms", "60001"));
	ASSERT_EQ(0, uvm_write_str(PARAM "thrash_policy", "throttle"));
	memset(&p, 0, sizeof(p));
	p.version = UVM_PERF_VERSION;
	p.flags = UVM_PERF_RESET;
	p.set = UVM_PERF_THRASH;
	ASSERT_EQ(0, uvm_ioctl(self->fd, UVM_IOCTL_PERF_SET, &p));
	memset(&p, 0, sizeof(p));
	p.version = UVM_PERF_VERSION;
	ASSERT_EQ(0, uvm_ioctl(self->fd, UVM_IOCTL_PERF_GET, &p));
	EXPECT_EQ(UVM_THRASH_THROTTLE, p.thrash_policy);	/* the module's */
	EXPECT_EQ(3, p.thrash_threshold);
	EXPECT_EQ(500, p.thrash_window_us);
	EXPECT_EQ(250, p.thrash_nap_us);
	EXPECT_EQ(300, p.thrash_pin_ms);
	EXPECT_EQ(0, uvm_write_str(PARAM "thrash_policy", "none"));
}

TEST_HARNESS_MAIN
