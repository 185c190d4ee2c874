// SPDX-License-Identifier: GPL-2.0
/*
 * Per-VA-space device-memory caps (UVM_PERF_CAP): a VA space capped at
 * 16 MiB of a device never holds more of its managed data there, evicting
 * its own chunks, while another VA space keeps 128 MiB resident on the
 * same device untouched; the capped VA space's device query reports the
 * cap as the device's size; bad caps change nothing. Default group.
 */
#include <sys/uio.h>

#include "kselftest_harness.h"
#include "alloc_util.h"

#define BLK		(2 * MIB)
#define CAP		(16 * MIB)

static int cap_set(int fd, uint32_t dev, uint64_t bytes, uint32_t flags)
{
	struct uvm_perf p = {
		.version = UVM_PERF_VERSION, .set = UVM_PERF_CAP,
		.flags = flags, .cap_device = dev, .cap_bytes = bytes,
	};

	return uvm_ioctl(fd, UVM_IOCTL_PERF_SET, &p);
}

static uint64_t cap_get(int fd, uint32_t dev)
{
	struct uvm_perf p = {
		.version = UVM_PERF_VERSION, .cap_device = dev,
	};

	return uvm_ioctl(fd, UVM_IOCTL_PERF_GET, &p) ? UINT64_MAX : p.cap_bytes;
}

/* Bytes of [p, p + len) resident on @dev, a block at a time. */
static uint64_t resident_bytes(int fd, char *p, size_t len, int dev)
{
	static struct uvm_page_residency r[512];
	uint64_t n = 0;
	size_t off, i;

	for (off = 0; off < len; off += BLK) {
		if (uvm_residency(fd, p + off, BLK / PAGE, r))
			return UINT64_MAX;
		for (i = 0; i < BLK / PAGE; i++)
			n += !!(r[i].devices_resident & (1ULL << dev)) * PAGE;
	}
	return n;
}

FIXTURE(cap)
{
	int fd, dev;
};

FIXTURE_SETUP(cap)
{
	self->fd = uvm_open();
	ASSERT_LE(0, self->fd);
	self->dev = uvm_find_device(self->fd, 0, 0);
	if (self->dev < 0)
		SKIP(return, "no device");
}

FIXTURE_TEARDOWN(cap)
{
	close(self->fd);
}

TEST_F(cap, capped_space_evicts_its_own_and_spares_the_other)
{
	size_t len = 64 * MIB, other_len = 128 * MIB, i, j, max = 0, r;
	int other = uvm_open();
	char *m, *o, buf[64];

	ASSERT_LE(0, other);
	/* A device with room for the other VA space and the capped one. */
	for (i = 0; uvm_dev_total(self->fd, self->dev) < other_len + 2 * CAP; i++) {
		self->dev = uvm_find_device(self->fd, 0, i);
		if (self->dev < 0)
			SKIP(return, "no device of %zu MiB", (other_len + 2 * CAP) >> 20);
	}
	o = uvm_map(other, other_len);
	m = uvm_map(self->fd, len);
	ASSERT_NE(NULL, o);
	ASSERT_NE(NULL, m);
	uvm_fill(o, other_len, 3);
	uvm_fill(m, len, 4);
	ASSERT_EQ(0, uvm_prefetch(other, o, other_len, UVM_LOC_DEVICE, self->dev));
	ASSERT_EQ(other_len, resident_bytes(other, o, other_len, self->dev));

	ASSERT_EQ(0, cap_set(self->fd, self->dev, CAP, 0));
	EXPECT_EQ(CAP, cap_get(self->fd, self->dev));
	EXPECT_EQ(CAP, uvm_dev_total(self->fd, self->dev));
	EXPECT_GE(CAP, uvm_dev_free(self->fd, self->dev));
	for (i = 0; i < len; i += 256 * 1024) {	/* device reads */
		memset(buf, 0, sizeof(buf));
		ASSERT_EQ(0, uvm_dev_read(self->fd, self->dev, m + i, sizeof(buf), buf));
		for (j = 0; j < sizeof(buf); j++)
			ASSERT_EQ(uvm_pattern(4, i + j), (unsigned char)buf[j]);
		r = resident_bytes(self->fd, m, len, self->dev);
		max = r > max ? r : max;
	}
	EXPECT_EQ(0, uvm_prefetch(self->fd, m, len, UVM_LOC_DEVICE, self->dev));
	r = resident_bytes(self->fd, m, len, self->dev);
	max = r > max ? r : max;
	TH_LOG("capped at %d MiB: at most %zu MiB resident", (int)(CAP >> 20),
	       max >> 20);
	EXPECT_GE(CAP, max);
	EXPECT_LT(0, max);
	EXPECT_EQ(other_len, resident_bytes(other, o, other_len, self->dev));
	EXPECT_EQ(0, uvm_check(m, len, 4));
	EXPECT_EQ(0, uvm_check(o, other_len, 3));

	/* Reset: the cap goes, the device query is the device's again. */
	ASSERT_EQ(0, cap_set(self->fd, self->dev, 0, UVM_PERF_RESET));
	EXPECT_EQ(0, cap_get(self->fd, self->dev));
	EXPECT_LT(CAP, uvm_dev_total(self->fd, self->dev));
	munmap(m, len);
	munmap(o, other_len);
	close(other);
}

TEST_F(cap, bad_caps_change_nothing)
{
	uint64_t total = uvm_dev_total(self->fd, self->dev);

	ASSERT_EQ(0, cap_set(self->fd, self->dev, 32 * MIB, 0));
	EXPECT_EQ(-EINVAL, cap_set(self->fd, self->dev, total + BLK, 0));
	EXPECT_EQ(-EINVAL, cap_set(self->fd, self->dev, MIB, 0));
	EXPECT_EQ(-EINVAL, cap_set(self->fd, UVM_MAX_DEVICES, 32 * MIB, 0));
	EXPECT_EQ(-ENODEV, cap_set(self->fd, UVM_MAX_DEVICES - 1, 32 * MIB, 0));
	EXPECT_EQ(32 * MIB, cap_get(self->fd, self->dev));
	EXPECT_EQ(0, cap_set(self->fd, self->dev, 0, 0));	/* 0: no cap */
	EXPECT_EQ(0, cap_get(self->fd, self->dev));
	EXPECT_EQ(total, uvm_dev_total(self->fd, self->dev));
}

/*
 * FZ10 (docs/reliability.md): a move to a device whose every page stayed
 * home (get_user_pages() holds it: here a vmsplice) left its new chunk
 * allocated and empty, and eviction reported such a chunk freed without
 * freeing it: a VA space at its cap then evicted the same chunk for ever
 * (an RCU stall; only SIGKILL ended it). Now the empty chunk goes and the
 * next block fits under the cap. Runs in a child, bounded.
 */
static int held_move_then_capped(void *arg)
{
	int dev = *(int *)arg, fd = uvm_open(), pipefd[2];
	char *m = fd < 0 ? NULL : uvm_map(fd, 2 * BLK);
	struct iovec iov = { .iov_base = m, .iov_len = PAGE };

	if (!m || pipe(pipefd))
		return 10;
	uvm_fill(m, 2 * BLK, 5);
	if (vmsplice(pipefd[1], &iov, 1, 0) != (ssize_t)PAGE)
		return 11;
	if (cap_set(fd, dev, BLK, 0))
		return 12;
	if (uvm_prefetch(fd, m, PAGE, UVM_LOC_DEVICE, dev))
		return 13;
	if (uvm_res1(fd, m).devices_resident)
		return 14;	/* held: it stays home */
	if (uvm_prefetch(fd, m + BLK, BLK, UVM_LOC_DEVICE, dev))
		return 15;
	if (resident_bytes(fd, m + BLK, BLK, dev) != BLK)
		return 16;
	return uvm_check(m, 2 * BLK, 5) ? 17 : 0;
}

TEST_F_TIMEOUT(cap, a_move_that_left_every_page_home_frees_its_chunk, 90)
{
	EXPECT_EQ(0, run_bounded(held_move_then_capped, &self->dev, 30));
}

TEST_HARNESS_MAIN
