// SPDX-License-Identifier: GPL-2.0
/*
 * Device-fault prefetch policies (UVM_PERF_PREFETCH, module parameters
 * prefetch_policy, prefetch_threshold, prefetch_pages).
 *
 * density: one fault batch touching 60 % of a 2 MiB block, spread over
 * all of it, brings the whole block to the device in that batch; one
 * touching 40 % brings only its own pages. sequential with 4096 pages
 * ahead: an ascending sweep of 32 MiB takes at least 10x fewer fault
 * batches than under none; uniformly random accesses prefetch nothing and
 * take as many batches as under none. density64k: a device fault brings
 * its 64 KiB unit, and a CPU pass over a block on the device (or a CPU
 * first touch) faults 6 times, as on NVIDIA's driver. The data read is
 * right under every
 * policy, including while another thread switches policies. Bad input
 * changes nothing. Default group (ivshmem devices of 256 and 512 MiB).
 */
#include <pthread.h>
#include <stdio.h>

#include "kselftest_harness.h"
#include "alloc_util.h"

#define BLK		(2 * MIB)
#define BLK_PAGES	512
#define PARAM		"/sys/module/uvm/parameters/"
#define SWEEP		(32 * MIB)
#define SWEEP_PAGES	8192

/* A module parameter's value as read from sysfs ("" if unreadable). */
static const char *uvm_param(const char *name)
{
	static char buf[64];
	char path[128];
	FILE *f;

	snprintf(path, sizeof(path), PARAM "%s", name);
	buf[0] = 0;
	f = fopen(path, "r");
	if (f) {
		if (!fgets(buf, sizeof(buf), f))
			buf[0] = 0;
		fclose(f);
	}
	return buf;
}

static int perf_get(int fd, struct uvm_perf *p)
{
	memset(p, 0, sizeof(*p));
	p->version = UVM_PERF_VERSION;
	return uvm_ioctl(fd, UVM_IOCTL_PERF_GET, p);
}

static int perf_set_prefetch(int fd, uint32_t policy, uint32_t threshold,
			     uint32_t pages)
{
	struct uvm_perf p = {
		.version = UVM_PERF_VERSION, .set = UVM_PERF_PREFETCH,
		.prefetch_policy = policy, .prefetch_threshold = threshold,
		.prefetch_pages = pages,
	};

	return uvm_ioctl(fd, UVM_IOCTL_PERF_SET, &p);
}

static int perf_set_batch(int fd, uint32_t batch)
{
	struct uvm_perf p = {
		.version = UVM_PERF_VERSION, .set = UVM_PERF_FAULT_BATCH,
		.fault_batch = batch,
	};

	return uvm_ioctl(fd, UVM_IOCTL_PERF_SET, &p);
}

static uint64_t dstat(int fd, unsigned int stat)
{
	return uvm_stat(fd, stat, UVM_STATS_VA_SPACE);
}

/* Do the 8 bytes at @v hold what uvm_fill(.., @seed) put at offset @off? */
static int pattern_at(const void *v, size_t off, uint64_t seed)
{
	const unsigned char *c = v;
	int j;

	for (j = 0; j < 8; j++)
		if (c[j] != uvm_pattern(seed, off + j))
			return 0;
	return 1;
}

/*
 * Device reads of 8 bytes at each of @pages (page indices into @p) in
 * that order, UVM_ACCESS_MAX per call; each value is checked against the
 * pattern @seed. Return: 0, -errno of a call, or 1 on wrong data.
 */
static int read_pages(int fd, int dev, char *p, const uint32_t *pages,
		      size_t n, uint64_t seed)
{
	static struct uvm_access acc[UVM_ACCESS_MAX];
	static uint64_t out[UVM_ACCESS_MAX];
	size_t done, k, m;

	for (done = 0; done < n; done += m) {
		struct uvm_device_access da = { .device = dev };

		m = n - done < UVM_ACCESS_MAX ? n - done : UVM_ACCESS_MAX;
		for (k = 0; k < m; k++)
			acc[k] = (struct uvm_access){
				.addr = (uintptr_t)p + (size_t)pages[done + k] * PAGE,
				.length = 8, .buf = (uintptr_t)&out[k],
				.type = UVM_ACCESS_READ,
			};
		da.count = m;
		da.accesses = (uintptr_t)acc;
		if (uvm_ioctl(fd, UVM_IOCTL_DEVICE_ACCESS, &da))
			return -errno;
		for (k = 0; k < m; k++)
			if (!pattern_at(&out[k], (size_t)pages[done + k] * PAGE,
					seed))
				return 1;
	}
	return 0;
}

/* Pages of [@p, @p + @n pages) resident on @dev. */
static size_t resident_pages(int fd, char *p, size_t n, int dev)
{
	static struct uvm_page_residency r[BLK_PAGES];
	size_t i, count = 0;

	if (n > BLK_PAGES || uvm_residency(fd, p, n, r))
		return SIZE_MAX;
	for (i = 0; i < n; i++)
		count += !!(r[i].devices_resident & (1ULL << dev));
	return count;
}

FIXTURE(pf)
{
	int fd, dev;
	char *m;
	size_t len;
};

FIXTURE_SETUP(pf)
{
	self->fd = uvm_open();
	ASSERT_LE(0, self->fd);
	self->dev = uvm_find_device(self->fd, 0, 0);
	if (self->dev < 0)
		SKIP(return, "no device");
	self->len = SWEEP;
	self->m = uvm_map(self->fd, self->len);
	ASSERT_NE(NULL, self->m);
	ASSERT_EQ(0, (uintptr_t)self->m & (BLK - 1));
	uvm_fill(self->m, self->len, 5);
}

FIXTURE_TEARDOWN(pf)
{
	if (self->m)
		munmap(self->m, self->len);
	close(self->fd);
}

/*
 * Pages of one block whose index i has (i * 7) % 10 < @tenths: spread
 * evenly (every region of 4 pages or more holds about @tenths / 10).
 */
static size_t spread(uint32_t *pages, uint32_t base, int tenths)
{
	size_t n = 0;
	uint32_t i;

	for (i = 0; i < BLK_PAGES; i++)
		if ((i * 7) % 10 < (uint32_t)tenths)
			pages[n++] = base + i;
	return n;
}

TEST_F(pf, density_brings_the_block_a_batch_mostly_covers)
{
	uint32_t pages[BLK_PAGES];
	uint64_t b0, p0;
	size_t n;

	ASSERT_EQ(0, perf_set_prefetch(self->fd, UVM_PREFETCH_DENSITY, 51, 512));
	ASSERT_EQ(0, perf_set_batch(self->fd, BLK_PAGES));
	n = spread(pages, 0, 6);
	b0 = dstat(self->fd, UVM_STAT_FAULT_BATCHES);
	p0 = dstat(self->fd, UVM_STAT_FAULT_PREFETCH_PAGES);
	ASSERT_EQ(0, read_pages(self->fd, self->dev, self->m, pages, n, 5));
	EXPECT_EQ(1, dstat(self->fd, UVM_STAT_FAULT_BATCHES) - b0);
	EXPECT_EQ(BLK_PAGES, resident_pages(self->fd, self->m, BLK_PAGES,
					    self->dev));
	EXPECT_EQ(BLK_PAGES - n,
		  dstat(self->fd, UVM_STAT_FAULT_PREFETCH_PAGES) - p0);
	EXPECT_EQ(0, uvm_check(self->m, self->len, 5));
}

/*
 * Prefetch accuracy (UVM_STAT_PREFETCH_USED_PAGES): a prefetched page
 * counts once, at the first device access that uses it on the device it
 * was prefetched to; one that leaves the device first never counts.
 */
TEST_F(pf, prefetch_used_pages_count_first_uses_only)
{
	uint32_t pages[BLK_PAGES], rest[BLK_PAGES];
	uint64_t p0, u0, pre;
	size_t n, k = 0;
	uint32_t i;

	ASSERT_EQ(0, perf_set_prefetch(self->fd, UVM_PREFETCH_DENSITY, 51, 512));
	ASSERT_EQ(0, perf_set_batch(self->fd, BLK_PAGES));
	/* Block 0: 60 % faulted, the rest prefetched, then all read twice. */
	n = spread(pages, 0, 6);
	p0 = dstat(self->fd, UVM_STAT_FAULT_PREFETCH_PAGES);
	u0 = dstat(self->fd, UVM_STAT_PREFETCH_USED_PAGES);
	ASSERT_EQ(0, read_pages(self->fd, self->dev, self->m, pages, n, 5));
	pre = dstat(self->fd, UVM_STAT_FAULT_PREFETCH_PAGES) - p0;
	EXPECT_EQ(BLK_PAGES - n, pre);
	EXPECT_EQ(0, dstat(self->fd, UVM_STAT_PREFETCH_USED_PAGES) - u0);
	for (i = 0; i < BLK_PAGES; i++)
		if ((i * 7) % 10 >= 6)
			rest[k++] = i;
	ASSERT_EQ(BLK_PAGES - n, k);
	ASSERT_EQ(0, read_pages(self->fd, self->dev, self->m, rest, k / 2, 5));
	EXPECT_EQ(k / 2, dstat(self->fd, UVM_STAT_PREFETCH_USED_PAGES) - u0);
	ASSERT_EQ(0, read_pages(self->fd, self->dev, self->m, rest, k, 5));
	EXPECT_EQ(k, dstat(self->fd, UVM_STAT_PREFETCH_USED_PAGES) - u0);

	/* Block 1: prefetched pages sent home before any use never count. */
	n = spread(pages, BLK_PAGES, 6);
	ASSERT_EQ(0, read_pages(self->fd, self->dev, self->m, pages, n, 5));
	u0 = dstat(self->fd, UVM_STAT_PREFETCH_USED_PAGES);
	ASSERT_EQ(0, uvm_prefetch(self->fd, self->m + BLK, BLK, UVM_LOC_HOST_NUMA, 0));
	for (i = 0; i < k; i++)
		rest[i] += BLK_PAGES;
	ASSERT_EQ(0, read_pages(self->fd, self->dev, self->m, rest, k, 5));
	EXPECT_EQ(0, dstat(self->fd, UVM_STAT_PREFETCH_USED_PAGES) - u0);
	EXPECT_EQ(0, uvm_check(self->m, self->len, 5));
}

TEST_F(pf, density_leaves_the_block_a_batch_covers_less_than_threshold)
{
	uint32_t pages[BLK_PAGES];
	uint64_t p0;
	size_t n;

	ASSERT_EQ(0, perf_set_prefetch(self->fd, UVM_PREFETCH_DENSITY, 51, 512));
	ASSERT_EQ(0, perf_set_batch(self->fd, BLK_PAGES));
	n = spread(pages, BLK_PAGES, 4);
	p0 = dstat(self->fd, UVM_STAT_FAULT_PREFETCH_PAGES);
	ASSERT_EQ(0, read_pages(self->fd, self->dev, self->m, pages, n, 5));
	EXPECT_EQ(n, resident_pages(self->fd, self->m + BLK, BLK_PAGES,
				    self->dev));
	EXPECT_EQ(0, dstat(self->fd, UVM_STAT_FAULT_PREFETCH_PAGES) - p0);
	/* A lower threshold takes the same coverage as enough. */
	ASSERT_EQ(0, perf_set_prefetch(self->fd, UVM_PREFETCH_DENSITY, 30, 512));
	n = spread(pages, 2 * BLK_PAGES, 4);
	ASSERT_EQ(0, read_pages(self->fd, self->dev, self->m, pages, n, 5));
	EXPECT_EQ(BLK_PAGES, resident_pages(self->fd, self->m + 2 * BLK,
					    BLK_PAGES, self->dev));
	EXPECT_EQ(0, uvm_check(self->m, self->len, 5));
}

/*
 * density64k (NVIDIA's driver): a device fault brings its 64 KiB unit; a
 * CPU pass over a block on the device faults at 0, 64K, 128K, 256K, 512K
 * and 1M, each bringing a region twice the last, and nothing else moves
 * (no fault-ahead); a CPU first touch faults at the same 6 offsets.
 */
TEST_F(pf, density64k_grows_by_units_and_cpu_faults_by_density)
{
	uint32_t pages[BLK_PAGES], i;
	uint64_t c0, d0, p0;
	volatile char *v;
	char *fresh;
	int sum = 0;

	ASSERT_EQ(0, perf_set_prefetch(self->fd, UVM_PREFETCH_DENSITY_64K, 51, 512));
	ASSERT_EQ(0, perf_set_batch(self->fd, BLK_PAGES));
	pages[0] = 3 * BLK_PAGES + 20;	/* in the unit [16, 32) of block 3 */
	p0 = dstat(self->fd, UVM_STAT_FAULT_PREFETCH_PAGES);
	ASSERT_EQ(0, read_pages(self->fd, self->dev, self->m, pages, 1, 5));
	EXPECT_EQ(15, dstat(self->fd, UVM_STAT_FAULT_PREFETCH_PAGES) - p0);
	EXPECT_EQ(16, resident_pages(self->fd, self->m + 3 * BLK, BLK_PAGES,
				     self->dev));

	for (i = 0; i < BLK_PAGES; i++)
		pages[i] = BLK_PAGES + i;
	ASSERT_EQ(0, read_pages(self->fd, self->dev, self->m, pages, BLK_PAGES, 5));
	ASSERT_EQ(BLK_PAGES, resident_pages(self->fd, self->m + BLK, BLK_PAGES,
					    self->dev));
	c0 = dstat(self->fd, UVM_STAT_CPU_FAULTS);
	d0 = dstat(self->fd, UVM_STAT_MIGRATE_D2H_BYTES);
	for (v = self->m + BLK, i = 0; i < BLK_PAGES; i++)
		sum += v[(size_t)i * PAGE];
	EXPECT_EQ(6, dstat(self->fd, UVM_STAT_CPU_FAULTS) - c0);
	EXPECT_EQ(BLK, dstat(self->fd, UVM_STAT_MIGRATE_D2H_BYTES) - d0);
	EXPECT_EQ(0, uvm_check(self->m, self->len, 5));

	fresh = uvm_map(self->fd, BLK);
	ASSERT_NE(NULL, fresh);
	ASSERT_EQ(0, (uintptr_t)fresh & (BLK - 1));
	c0 = dstat(self->fd, UVM_STAT_CPU_FAULTS);
	for (i = 0; i < BLK_PAGES; i++)
		fresh[(size_t)i * PAGE] = (char)i;
	EXPECT_EQ(6, dstat(self->fd, UVM_STAT_CPU_FAULTS) - c0);
	munmap(fresh, BLK);
	(void)sum;
}

/* Fault batches of one pass over @pages under @policy, in a fresh space. */
static uint64_t batches_of(struct __test_metadata *_metadata, int dev,
			   uint32_t policy, const uint32_t *pages, size_t n,
			   uint64_t *prefetched)
{
	int fd = uvm_open();
	uint64_t b0, p0, b;
	char *m;

	m = uvm_map(fd, SWEEP);
	if (!m)
		return 0;
	uvm_fill(m, SWEEP, 9);
	EXPECT_EQ(0, perf_set_prefetch(fd, policy, 51, 4096));
	b0 = dstat(fd, UVM_STAT_FAULT_BATCHES);
	p0 = dstat(fd, UVM_STAT_FAULT_PREFETCH_PAGES);
	EXPECT_EQ(0, read_pages(fd, dev, m, pages, n, 9));
	b = dstat(fd, UVM_STAT_FAULT_BATCHES) - b0;
	*prefetched = dstat(fd, UVM_STAT_FAULT_PREFETCH_PAGES) - p0;
	EXPECT_EQ(0, uvm_check(m, SWEEP, 9));
	munmap(m, SWEEP);
	close(fd);
	return b;
}

TEST_F(pf, sequential_cuts_the_batches_of_a_sweep_tenfold)
{
	static uint32_t pages[SWEEP_PAGES];
	uint64_t none, seq, pf0, pf1;
	size_t i;

	for (i = 0; i < SWEEP_PAGES; i++)
		pages[i] = i;
	none = batches_of(_metadata, self->dev, UVM_PREFETCH_NONE, pages,
			  SWEEP_PAGES, &pf0);
	seq = batches_of(_metadata, self->dev, UVM_PREFETCH_SEQUENTIAL, pages,
			 SWEEP_PAGES, &pf1);
	TH_LOG("sweep of %d pages: %llu batches under none, %llu under sequential:4096 (%llu pages prefetched)",
	       SWEEP_PAGES, (unsigned long long)none, (unsigned long long)seq,
	       (unsigned long long)pf1);
	EXPECT_EQ(0, pf0);
	ASSERT_LT(0, seq);
	EXPECT_LE(10 * seq, none);
	EXPECT_LT(SWEEP_PAGES / 2, pf1);
}

/* Three arrays swept side by side (a = b + c): three streams. */
TEST_F(pf, sequential_follows_three_streams_at_once)
{
	static uint32_t pages[SWEEP_PAGES];
	const uint32_t third = SWEEP_PAGES / 3;
	uint64_t none, seq, pf0, pf1;
	size_t i;

	for (i = 0; i < 3 * third; i++)
		pages[i] = (i % 3) * third + i / 3;
	none = batches_of(_metadata, self->dev, UVM_PREFETCH_NONE, pages,
			  3 * third, &pf0);
	seq = batches_of(_metadata, self->dev, UVM_PREFETCH_SEQUENTIAL, pages,
			 3 * third, &pf1);
	TH_LOG("three streams: %llu batches under none, %llu under sequential",
	       (unsigned long long)none, (unsigned long long)seq);
	ASSERT_LT(0, seq);
	EXPECT_LE(10 * seq, none);
}

/* fault_batch 1: every batch is one page, and a sweep still is a stream. */
TEST_F(pf, sequential_follows_a_sweep_of_one_fault_batches)
{
	static uint32_t pages[1024];
	uint64_t b0, p0, b;
	size_t i;

	for (i = 0; i < 1024; i++)
		pages[i] = i;
	ASSERT_EQ(0, perf_set_prefetch(self->fd, UVM_PREFETCH_SEQUENTIAL, 51, 64));
	ASSERT_EQ(0, perf_set_batch(self->fd, 1));
	b0 = dstat(self->fd, UVM_STAT_FAULT_BATCHES);
	p0 = dstat(self->fd, UVM_STAT_FAULT_PREFETCH_PAGES);
	ASSERT_EQ(0, read_pages(self->fd, self->dev, self->m, pages, 1024, 5));
	b = dstat(self->fd, UVM_STAT_FAULT_BATCHES) - b0;
	TH_LOG("1024 pages, one fault a batch, 64 ahead: %llu batches",
	       (unsigned long long)b);
	EXPECT_GE(1024 / 10, b);
	EXPECT_LT(900, dstat(self->fd, UVM_STAT_FAULT_PREFETCH_PAGES) - p0);
}

TEST_F(pf, sequential_changes_nothing_on_random_accesses)
{
	static uint32_t pages[UVM_ACCESS_MAX];
	uint64_t none, seq, pf0, pf1, s = 77;
	size_t i;

	for (i = 0; i < UVM_ACCESS_MAX; i++)
		pages[i] = uvm_rand64(&s) % SWEEP_PAGES;
	none = batches_of(_metadata, self->dev, UVM_PREFETCH_NONE, pages,
			  UVM_ACCESS_MAX, &pf0);
	seq = batches_of(_metadata, self->dev, UVM_PREFETCH_SEQUENTIAL, pages,
			 UVM_ACCESS_MAX, &pf1);
	EXPECT_EQ(0, pf0);
	EXPECT_EQ(0, pf1);
	EXPECT_EQ(none, seq);
}

TEST_F(pf, module_parameters_are_the_default_and_refuse_bad_values)
{
	struct uvm_perf p;
	char old[32];

	snprintf(old, sizeof(old), "%s", uvm_param("prefetch_policy"));
	EXPECT_EQ(0, strcmp(old, "none\n"));
	EXPECT_EQ(-EINVAL, uvm_write_str(PARAM "prefetch_policy", "stride"));
	EXPECT_EQ(-EINVAL, uvm_write_str(PARAM "prefetch_threshold", "0"));
	EXPECT_EQ(-EINVAL, uvm_write_str(PARAM "prefetch_threshold", "101"));
	EXPECT_EQ(-EINVAL, uvm_write_str(PARAM "prefetch_pages", "0"));
	EXPECT_EQ(-EINVAL, uvm_write_str(PARAM "prefetch_pages", "16385"));
	EXPECT_EQ(0, strcmp(uvm_param("prefetch_threshold"), "51\n"));
	EXPECT_EQ(0, strcmp(uvm_param("prefetch_pages"), "512\n"));

	ASSERT_EQ(0, uvm_write_str(PARAM "prefetch_policy", "sequential"));
	ASSERT_EQ(0, uvm_write_str(PARAM "prefetch_pages", "64"));
	ASSERT_EQ(0, perf_get(self->fd, &p));
	EXPECT_EQ(UVM_PREFETCH_SEQUENTIAL, p.prefetch_policy);
	EXPECT_EQ(64, p.prefetch_pages);
	EXPECT_EQ(0, p.overrides & UVM_PERF_PREFETCH);
	EXPECT_EQ(0, uvm_write_str(PARAM "prefetch_pages", "512"));
	EXPECT_EQ(0, uvm_write_str(PARAM "prefetch_policy", "none"));
	ASSERT_EQ(0, perf_get(self->fd, &p));
	EXPECT_EQ(UVM_PREFETCH_NONE, p.prefetch_policy);
}

TEST_F(pf, override_and_reset)
{
	struct uvm_perf p, r = {
		.version = UVM_PERF_VERSION, .set = UVM_PERF_PREFETCH,
		.flags = UVM_PERF_RESET,
	};

	ASSERT_EQ(0, perf_set_prefetch(self->fd, UVM_PREFETCH_DENSITY, 70, 100));
	ASSERT_EQ(0, perf_get(self->fd, &p));
	EXPECT_EQ(UVM_PREFETCH_DENSITY, p.prefetch_policy);
	EXPECT_EQ(70, p.prefetch_threshold);
	EXPECT_EQ(100, p.prefetch_pages);
	EXPECT_EQ(UVM_PERF_PREFETCH, p.overrides & UVM_PERF_PREFETCH);
	ASSERT_EQ(0, uvm_ioctl(self->fd, UVM_IOCTL_PERF_SET, &r));
	ASSERT_EQ(0, perf_get(self->fd, &p));
	EXPECT_EQ(UVM_PREFETCH_NONE, p.prefetch_policy);
	EXPECT_EQ(51, p.prefetch_threshold);
	EXPECT_EQ(0, p.overrides & UVM_PERF_PREFETCH);
}

TEST_F(pf, bad_requests_change_nothing)
{
	struct uvm_perf bad[7], p;
	int i;

	ASSERT_EQ(0, perf_set_prefetch(self->fd, UVM_PREFETCH_SEQUENTIAL, 60, 200));
	for (i = 0; i < 7; i++)
		bad[i] = (struct uvm_perf){
			.version = UVM_PERF_VERSION, .set = UVM_PERF_PREFETCH,
			.prefetch_policy = UVM_PREFETCH_DENSITY,
			.prefetch_threshold = 51, .prefetch_pages = 8,
		};
	bad[0].prefetch_policy = UVM_PREFETCH_COUNT;
	bad[1].prefetch_threshold = 0;
	bad[2].prefetch_threshold = 101;
	bad[3].prefetch_pages = 0;
	bad[4].prefetch_pages = 16385;
	bad[5].pad = 1;
	bad[6].set |= UVM_PERF_FAULT_BATCH;	/* fault_batch 0: all refused */
	for (i = 0; i < 7; i++) {
		EXPECT_EQ(-EINVAL, uvm_ioctl(self->fd, UVM_IOCTL_PERF_SET, &bad[i]))
			TH_LOG("bad request %d", i);
	}
	ASSERT_EQ(0, perf_get(self->fd, &p));
	EXPECT_EQ(UVM_PREFETCH_SEQUENTIAL, p.prefetch_policy);
	EXPECT_EQ(60, p.prefetch_threshold);
	EXPECT_EQ(200, p.prefetch_pages);
}

struct flipper {
	int fd;
	volatile int stop;
};

static void *flip(void *arg)
{
	struct flipper *f = arg;
	unsigned int i = 0;

	while (!f->stop) {
		struct uvm_perf th = {
			.version = UVM_PERF_VERSION, .set = UVM_PERF_THRASH,
			.thrash_policy = i % UVM_THRASH_COUNT,
			.thrash_threshold = 1 + i % 4, .thrash_window_us = 100000,
			.thrash_nap_us = 1 + i % 500, .thrash_pin_ms = 1 + i % 20,
		};

		perf_set_prefetch(f->fd, i % 3, 20 + i % 60, 1 + (i * 97) % 4096);
		perf_set_batch(f->fd, 1 + (i * 31) % 512);
		uvm_ioctl(f->fd, UVM_IOCTL_PERF_SET, &th);
		i++;
		usleep(500);
	}
	return NULL;
}

/*
 * A thread switches the VA space's prefetch and thrashing policies and
 * its batch every 0.5 ms
 * while device writes and reads sweep, stride and jump over the range,
 * and the CPU checks it between rounds: every byte is right.
 */
TEST_F(pf, policies_switched_while_faulting_keep_the_data)
{
	static uint32_t pages[SWEEP_PAGES];
	struct flipper f = { .fd = self->fd };
	uint64_t s = 3, v;
	unsigned char buf[64];
	pthread_t t;
	size_t i, j;
	int round;

	ASSERT_EQ(0, pthread_create(&t, NULL, flip, &f));
	for (round = 0; round < 3; round++) {
		for (i = 0; i < SWEEP_PAGES; i++)
			pages[i] = round == 0 ? i :
				   round == 1 ? (i * 3) % SWEEP_PAGES :
				   uvm_rand64(&s) % SWEEP_PAGES;
		EXPECT_EQ(0, read_pages(self->fd, self->dev, self->m, pages,
					SWEEP_PAGES, 5));
		/* Device writes of the same pattern into every 8th page. */
		for (i = 0; i < SWEEP_PAGES; i += 8) {
			v = i * PAGE + 8 * (i % 500);
			for (j = 0; j < sizeof(buf); j++)
				buf[j] = uvm_pattern(5, v + j);
			EXPECT_EQ(0, uvm_dev_write(self->fd, self->dev,
						   self->m + v, sizeof(buf), buf));
		}
		EXPECT_EQ(0, uvm_check(self->m, self->len, 5));
	}
	f.stop = 1;
	pthread_join(t, NULL);
}

TEST_HARNESS_MAIN
