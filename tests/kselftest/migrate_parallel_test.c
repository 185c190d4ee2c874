// SPDX-License-Identifier: GPL-2.0
/*
 * The parallel parts of migration: the CPU copy engine (kmod/uvm_ce.c: one
 * block's copy split into pieces over several CPUs, module parameter
 * copy_helpers), with the CPU's read-only mappings of the moving pages
 * zapped while the helpers copy. Data stays exact for every copy_helpers
 * value, device to device, for ranges that start and end inside blocks and
 * for sparse ones;
 * mapped pages end unmapped; CPU readers and writers racing with
 * prefetches see only right data and lose no write; concurrent migrations
 * share the helpers while copy_helpers changes; bad parameter values are
 * refused.
 * Needs one device (any backend).
 */
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>

#include "kselftest_harness.h"
#include "uvm_test_util.h"

#define HELPERS_PARAM	"/sys/module/uvm/parameters/copy_helpers"
#define LEN		(16 * MIB)
#define BLOCK		(2 * MIB)

FIXTURE(par)
{
	int fd;
	int dev;
	long saved;
	char *p;
};

FIXTURE_SETUP(par)
{
	self->fd = uvm_open();
	ASSERT_LE(0, self->fd);
	self->p = NULL;
	self->saved = -1;
	self->dev = uvm_find_device(self->fd, 0, 0);
	if (self->dev < 0)
		SKIP(return, "needs a device");
	self->saved = uvm_read_long(HELPERS_PARAM);
	ASSERT_LE(0, self->saved);
	self->p = uvm_map(self->fd, LEN);
	ASSERT_NE(NULL, self->p);
}

FIXTURE_TEARDOWN(par)
{
	if (self->p)
		munmap(self->p, LEN);
	if (self->saved >= 0)
		uvm_write_long(HELPERS_PARAM, self->saved);
	close(self->fd);
}

/* Host -> device -> host with copy_helpers = @h: every byte survives. */
static int round_trip(int fd, int dev, char *p, size_t len, const char *h,
		      uint64_t seed)
{
	if (uvm_write_str(HELPERS_PARAM, h))
		return -1;
	uvm_fill(p, len, seed);
	if (uvm_prefetch(fd, p, len, UVM_LOC_DEVICE, dev))
		return -2;
	if (uvm_res1(fd, p + len / 2).devices_resident == 0)
		return -3;
	if (uvm_prefetch(fd, p, len, UVM_LOC_HOST_NUMA, 0))
		return -4;
	return uvm_check(p, len, seed) ? -5 : 0;
}

TEST_F(par, every_helper_count_copies_exactly)
{
	EXPECT_EQ(0, round_trip(self->fd, self->dev, self->p, LEN, "0", 1));
	EXPECT_EQ(0, round_trip(self->fd, self->dev, self->p, LEN, "1", 2));
	EXPECT_EQ(0, round_trip(self->fd, self->dev, self->p, LEN, "7", 3));
}

/*
 * Device to device along every device in turn (BAR to BAR directly, across
 * backends through the host), with and without helpers.
 */
TEST_F(par, peer_copies_exactly)
{
	const char *h[] = { "0", "3" };
	unsigned int i;
	int n, d;

	if (uvm_find_device(self->fd, 0, 1) < 0)
		SKIP(return, "needs two devices");
	for (i = 0; i < 2; i++) {
		ASSERT_EQ(0, uvm_write_str(HELPERS_PARAM, h[i]));
		uvm_fill(self->p, LEN, 10 + i);
		for (n = 0; (d = uvm_find_device(self->fd, 0, n)) >= 0; n++) {
			ASSERT_EQ(0, uvm_prefetch(self->fd, self->p, LEN,
						  UVM_LOC_DEVICE, d));
			EXPECT_EQ(1ULL << d, uvm_res1(self->fd, self->p + LEN / 2)
					     .devices_resident);
		}
		EXPECT_EQ(0, uvm_check(self->p, LEN, 10 + i));
	}
}

/* Pieces cut across a range that starts and ends inside blocks. */
TEST_F(par, unaligned_range_copies_exactly)
{
	char *q = self->p + 3 * PAGE;
	size_t len = 5 * MIB + 7 * PAGE;

	uvm_fill(self->p, LEN, 9);
	EXPECT_EQ(0, round_trip(self->fd, self->dev, q, len, "3", 4));
	/* Outside the range nothing moved or changed. */
	EXPECT_EQ(0, uvm_check_off(self->p, 0, 3 * PAGE, 9));
	EXPECT_EQ(0, uvm_check_off(self->p, 3 * PAGE + len,
				   LEN - 3 * PAGE - len, 9));
}

/* Every third page populated: the rest are populated zeroed on the device. */
TEST_F(par, sparse_range_copies_exactly)
{
	size_t i;
	int bad = 0;

	ASSERT_EQ(0, uvm_write_str(HELPERS_PARAM, "3"));
	for (i = 0; i < LEN; i += 3 * PAGE)
		memset(self->p + i, (int)(i / PAGE) | 1, PAGE);
	ASSERT_EQ(0, uvm_prefetch(self->fd, self->p, LEN, UVM_LOC_DEVICE,
				  self->dev));
	ASSERT_EQ(0, uvm_prefetch(self->fd, self->p, LEN, UVM_LOC_HOST_NUMA, 0));
	for (i = 0; i < LEN; i += PAGE) {
		char want = i % (3 * PAGE) ? 0 : (char)((i / PAGE) | 1);

		bad += self->p[i] != want || self->p[i + PAGE - 1] != want;
	}
	EXPECT_EQ(0, bad);
}

/* Read-only CPU mappings: zapped while the copy runs, data exact. */
TEST_F(par, mapped_pages_move_and_end_unmapped)
{
	uvm_fill(self->p, LEN, 5);
	uvm_sweep_read(self->p, LEN);	/* host-resident, mapped read-only */
	ASSERT_NE(0, uvm_res1(self->fd, self->p + LEN - PAGE).flags &
		     UVM_PAGE_CPU_MAPPED);
	ASSERT_EQ(0, uvm_prefetch(self->fd, self->p, LEN, UVM_LOC_DEVICE,
				  self->dev));
	EXPECT_EQ(0, uvm_res1(self->fd, self->p).flags & UVM_PAGE_CPU_MAPPED);
	EXPECT_EQ(0, uvm_res1(self->fd, self->p + LEN - PAGE).flags &
		     UVM_PAGE_CPU_MAPPED);
	EXPECT_NE(0, uvm_res1(self->fd, self->p + LEN / 2).devices_resident);
	EXPECT_EQ(0, uvm_check(self->p, LEN, 5));
}

/* @n prefetches of [p, p + LEN) to the device and back to node 0. */
static int ping_pong(int fd, int dev, char *p, unsigned int n)
{
	int ret = 0;

	while (n-- && !ret) {
		ret = uvm_prefetch(fd, p, LEN, UVM_LOC_DEVICE, dev);
		if (!ret)
			ret = uvm_prefetch(fd, p, LEN, UVM_LOC_HOST_NUMA, 0);
	}
	return ret;
}

struct reader {
	const char *p;
	atomic_int *stop;
	size_t bad;
	size_t reads;
};

/* Check one byte per page against the pattern until told to stop. */
static void *reader_run(void *arg)
{
	struct reader *r = arg;
	size_t i;

	while (!atomic_load(r->stop)) {
		for (i = 0; i < LEN; i += PAGE + 8) {
			r->bad += (unsigned char)r->p[i] != uvm_pattern(7, i);
			r->reads++;
		}
	}
	return NULL;
}

/* Readers racing with prefetches both ways only ever see the data. */
TEST_F(par, racing_readers_see_only_the_data)
{
	struct reader r[2];
	pthread_t t[2];
	atomic_int stop = 0;
	unsigned int k;

	uvm_fill(self->p, LEN, 7);
	for (k = 0; k < 2; k++) {
		r[k] = (struct reader){ .p = self->p, .stop = &stop };
		ASSERT_EQ(0, pthread_create(&t[k], NULL, reader_run, &r[k]));
	}
	ASSERT_EQ(0, ping_pong(self->fd, self->dev, self->p, 6));
	atomic_store(&stop, 1);
	for (k = 0; k < 2; k++) {
		pthread_join(t[k], NULL);
		EXPECT_EQ(0, r[k].bad);
		EXPECT_LT(0, r[k].reads);
	}
	EXPECT_EQ(0, uvm_check(self->p, LEN, 7));
}

struct writer {
	volatile uint64_t *p;	/* first word of each page it owns */
	size_t stride;		/* in words */
	unsigned int pages;
	atomic_int *stop;
	uint64_t last;
};

static void *writer_run(void *arg)
{
	struct writer *w = arg;
	uint64_t v = 0;
	unsigned int i;

	while (!atomic_load(w->stop)) {
		v++;
		for (i = 0; i < w->pages; i++)
			w->p[i * w->stride] = v;
	}
	w->last = v;
	return NULL;
}

/* Writers racing with prefetches both ways: the last write always wins. */
TEST_F(par, racing_writers_lose_nothing)
{
	size_t words = PAGE / sizeof(uint64_t);
	struct writer w[2];
	pthread_t t[2];
	atomic_int stop = 0;
	unsigned int i, k;
	int bad = 0;

	uvm_fill(self->p, LEN, 8);
	for (k = 0; k < 2; k++) {
		/* Writer k: one page in 8 of every block, offset by k. */
		w[k] = (struct writer){
			.p = (volatile uint64_t *)(self->p + k * PAGE),
			.stride = 8 * words, .pages = LEN / PAGE / 8,
			.stop = &stop,
		};
		ASSERT_EQ(0, pthread_create(&t[k], NULL, writer_run, &w[k]));
	}
	ASSERT_EQ(0, ping_pong(self->fd, self->dev, self->p, 6));
	atomic_store(&stop, 1);
	for (k = 0; k < 2; k++)
		pthread_join(t[k], NULL);
	for (k = 0; k < 2; k++)
		for (i = 0; i < w[k].pages; i++)
			bad += w[k].p[i * w[k].stride] != w[k].last;
	EXPECT_EQ(0, bad);
	/* The rest of each written page and the other pages are intact. */
	for (i = 0; i < LEN / PAGE; i++) {
		size_t off = (size_t)i * PAGE;

		if (i % 8 < 2)
			bad += uvm_check_off(self->p, off + 8, PAGE - 8, 8) != 0;
		else
			bad += uvm_check_off(self->p, off, PAGE, 8) != 0;
	}
	EXPECT_EQ(0, bad);
}

struct mover {
	int fd, dev, bad;
	char *p;
	size_t len;
	uint64_t seed;
};

/* Round trips of its own range, data checked after each. */
static void *mover_run(void *arg)
{
	struct mover *m = arg;
	int i;

	for (i = 0; i < 16; i++) {
		uvm_fill(m->p, m->len, m->seed + i);
		m->bad += !!uvm_prefetch(m->fd, m->p, m->len, UVM_LOC_DEVICE,
					 m->dev);
		m->bad += !!uvm_prefetch(m->fd, m->p, m->len,
					 UVM_LOC_HOST_NUMA, 0);
		m->bad += uvm_check(m->p, m->len, m->seed + i) != 0;
	}
	return NULL;
}

/*
 * Eight threads migrate their own ranges at once, more copy jobs than CPUs,
 * while copy_helpers changes under them: jobs are posted to busy helpers,
 * taken back and run by lingering ones, and every byte still lands.
 */
TEST_F(par, concurrent_migrations_share_helpers)
{
	static const char *const vals[] = { "3", "0", "7", "1", "2" };
	struct mover m[8];
	pthread_t t[8];
	unsigned int k, flips = 0;
	int bad = 0;

	for (k = 0; k < 8; k++) {
		m[k] = (struct mover){ self->fd, self->dev, 0,
				       self->p + k * (LEN / 8), LEN / 8,
				       100 * (k + 1) };
		ASSERT_EQ(0, pthread_create(&t[k], NULL, mover_run, &m[k]));
	}
	for (k = 0; k < 8; k++) {
		void *done = NULL;

		while (pthread_tryjoin_np(t[k], &done) == EBUSY) {
			bad += !!uvm_write_str(HELPERS_PARAM,
					       vals[flips++ % 5]);
			usleep(2000);
		}
		EXPECT_EQ(0, m[k].bad) TH_LOG("thread %u", k);
	}
	EXPECT_EQ(0, bad);
	EXPECT_LT(0, flips);
}

TEST_F(par, bad_values_are_refused)
{
	ASSERT_EQ(0, uvm_write_str(HELPERS_PARAM, "2"));
	EXPECT_EQ(-EINVAL, uvm_write_str(HELPERS_PARAM, "8"));
	EXPECT_EQ(-EINVAL, uvm_write_str(HELPERS_PARAM, "-1"));
	EXPECT_EQ(-EINVAL, uvm_write_str(HELPERS_PARAM, "x"));
	EXPECT_EQ(2, uvm_read_long(HELPERS_PARAM));
}

TEST_HARNESS_MAIN
