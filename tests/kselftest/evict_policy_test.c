// SPDX-License-Identifier: GPL-2.0
/*
 * Eviction policies and per-VA-space policies (UVM_IOCTL_PERF_SET/GET,
 * module parameters evict_policy and evict_seed).
 *
 * A crafted reuse pattern on a device filled by one VA space, block by
 * block in address order (allocation order 0, 1, 2, ...): block 1 is then
 * read five times, blocks 3.. once each, then block 0, then block 2. The
 * first victim is block 1 under lru (least recently accessed), block 0
 * under fifo (allocated first) and block 3 under lfu (fewest accesses; ties
 * go to the less recently accessed). The random policy evicts the same
 * blocks in the same order for one seed, and another order for another
 * seed. Every byte survives every eviction. Bad input changes nothing.
 * Group "oversub" (64 MiB devices).
 */
#include <pthread.h>
#include <stdio.h>
#include <sys/wait.h>
#include <time.h>

#include "kselftest_harness.h"
#include "alloc_util.h"

#define BLK		(2 * MIB)
#define NVICT		4
#define PARAM		"/sys/module/uvm/parameters/"

static int perf_get(int fd, struct uvm_perf *p)
{
	memset(p, 0, sizeof(*p));
	p->version = UVM_PERF_VERSION;
	return uvm_ioctl(fd, UVM_IOCTL_PERF_GET, p);
}

static int perf_set_evict(int fd, uint32_t policy, uint64_t seed)
{
	struct uvm_perf p = {
		.version = UVM_PERF_VERSION, .set = UVM_PERF_EVICT,
		.evict_policy = policy, .evict_seed = seed,
	};

	return uvm_ioctl(fd, UVM_IOCTL_PERF_SET, &p);
}

static int resident_on(int fd, char *p, int dev)
{
	return !!(uvm_res1(fd, p).devices_resident & (1ULL << dev));
}

/*
 * Fill device @dev with one VA space's blocks, apply the reuse pattern,
 * then bring NVICT more blocks in; @victims gets the block each one
 * evicted (-1: none, -2: more than one). Returns 0 or -1 (setup failed).
 */
static int run_pattern(struct __test_metadata *_metadata, uint32_t policy,
		       uint64_t seed, int *victims)
{
	int fd = uvm_open(), dev, n, i, v, k;
	char evicted[512];
	unsigned char buf[64];
	char *m;
	size_t len;

	if (fd < 0 || (dev = uvm_find_device(fd, 0, 0)) < 0)
		return -1;
	n = uvm_dev_free(fd, dev) / BLK;
	len = (size_t)(n + NVICT) * BLK;
	m = uvm_map(fd, len);
	if (!m || ((uintptr_t)m & (BLK - 1)) || n < 8 || n + NVICT > 512)
		return -1;
	EXPECT_EQ(0, perf_set_evict(fd, policy, seed));
	uvm_fill(m, len, 7 + policy);
	for (i = 0; i < n; i++)
		EXPECT_EQ(0, uvm_prefetch(fd, m + (size_t)i * BLK, BLK,
					  UVM_LOC_DEVICE, dev));
	for (k = 0; k < 5; k++)
		EXPECT_EQ(0, uvm_dev_read(fd, dev, m + BLK, sizeof(buf), buf));
	for (i = 3; i < n; i++)
		EXPECT_EQ(0, uvm_dev_read(fd, dev, m + (size_t)i * BLK,
					  sizeof(buf), buf));
	EXPECT_EQ(0, uvm_dev_read(fd, dev, m, sizeof(buf), buf));
	EXPECT_EQ(0, uvm_dev_read(fd, dev, m + 2 * BLK, sizeof(buf), buf));
	for (i = 0; i < n; i++)
		EXPECT_TRUE(resident_on(fd, m + (size_t)i * BLK, dev));

	memset(evicted, 0, sizeof(evicted));
	for (v = 0; v < NVICT; v++) {
		EXPECT_EQ(0, uvm_prefetch(fd, m + (size_t)(n + v) * BLK, BLK,
					  UVM_LOC_DEVICE, dev));
		victims[v] = -1;
		for (i = 0; i < n + v; i++) {
			if (evicted[i] || resident_on(fd, m + (size_t)i * BLK, dev))
				continue;
			evicted[i] = 1;
			victims[v] = victims[v] == -1 ? i : -2;
		}
		EXPECT_LE(0, victims[v]);
	}
	EXPECT_LE(NVICT, uvm_stat(fd, UVM_STAT_EVICT_PICKS, UVM_STATS_VA_SPACE));
	EXPECT_EQ(0, uvm_check(m, len, 7 + policy));
	munmap(m, len);
	close(fd);
	return 0;
}

static void victims_of(struct __test_metadata *_metadata, uint32_t policy,
		       uint64_t seed, int *victims)
{
	ASSERT_EQ(0, run_pattern(_metadata, policy, seed, victims));
	TH_LOG("policy %u seed %llu: victims %d %d %d %d", policy,
	       (unsigned long long)seed, victims[0], victims[1], victims[2],
	       victims[3]);
}

TEST(lru_evicts_the_least_recently_accessed_block)
{
	int v[NVICT];

	victims_of(_metadata, UVM_EVICT_LRU, 0, v);
	EXPECT_EQ(1, v[0]);
	EXPECT_EQ(3, v[1]);
}

TEST(fifo_evicts_the_block_allocated_first)
{
	int v[NVICT];

	victims_of(_metadata, UVM_EVICT_FIFO, 0, v);
	EXPECT_EQ(0, v[0]);
	EXPECT_EQ(1, v[1]);
	EXPECT_EQ(2, v[2]);
}

TEST(lfu_evicts_the_least_accessed_block)
{
	int v[NVICT];

	victims_of(_metadata, UVM_EVICT_LFU, 0, v);
	EXPECT_EQ(3, v[0]);
	EXPECT_NE(1, v[1]);
}

TEST(random_repeats_itself_for_one_seed)
{
	int a[NVICT], b[NVICT], c[NVICT], seed, differs = 0;

	victims_of(_metadata, UVM_EVICT_RANDOM, 42, a);
	victims_of(_metadata, UVM_EVICT_RANDOM, 42, b);
	EXPECT_EQ(0, memcmp(a, b, sizeof(a)));
	for (seed = 43; seed < 46 && !differs; seed++) {
		victims_of(_metadata, UVM_EVICT_RANDOM, seed, c);
		differs = memcmp(a, c, sizeof(a)) != 0;
	}
	EXPECT_TRUE(differs);
}

TEST(module_parameter_sets_the_default_and_refuses_bad_names)
{
	struct uvm_perf p;
	char old[32] = "";
	FILE *f = fopen(PARAM "evict_policy", "r");
	int fd = uvm_open();

	ASSERT_NE(NULL, f);
	ASSERT_NE(NULL, fgets(old, sizeof(old), f));
	fclose(f);
	ASSERT_LE(0, fd);
	EXPECT_EQ(-EINVAL, uvm_write_str(PARAM "evict_policy", "mru"));
	EXPECT_EQ(-EINVAL, uvm_write_str(PARAM "evict_policy", "\n"));
	ASSERT_EQ(0, perf_get(fd, &p));
	EXPECT_EQ(UVM_EVICT_LRU, p.evict_policy);
	ASSERT_EQ(0, uvm_write_str(PARAM "evict_policy", "fifo"));
	ASSERT_EQ(0, perf_get(fd, &p));
	EXPECT_EQ(UVM_EVICT_FIFO, p.evict_policy);	/* not overridden: follows */
	EXPECT_EQ(0u, p.overrides);
	ASSERT_EQ(0, uvm_write_str(PARAM "evict_seed", "12345"));
	ASSERT_EQ(0, perf_get(fd, &p));
	EXPECT_EQ(12345u, p.evict_seed);
	EXPECT_EQ(-EINVAL, uvm_write_str(PARAM "evict_seed", "x"));
	EXPECT_EQ(0, uvm_write_str(PARAM "evict_seed", "0"));
	EXPECT_EQ(0, uvm_write_str(PARAM "evict_policy", old));
	ASSERT_EQ(0, perf_get(fd, &p));
	EXPECT_EQ(UVM_EVICT_LRU, p.evict_policy);
	close(fd);
}

TEST(override_and_reset)
{
	struct uvm_perf p, r = {
		.version = UVM_PERF_VERSION, .set = UVM_PERF_ALL,
		.flags = UVM_PERF_RESET,
	};
	int fd = uvm_open();

	ASSERT_LE(0, fd);
	ASSERT_EQ(0, perf_set_evict(fd, UVM_EVICT_LFU, 9));
	ASSERT_EQ(0, perf_get(fd, &p));
	EXPECT_EQ(UVM_EVICT_LFU, p.evict_policy);
	EXPECT_EQ(9u, p.evict_seed);
	EXPECT_EQ(UVM_PERF_EVICT, p.overrides);
	EXPECT_EQ(256u, p.fault_batch);
	ASSERT_EQ(0, uvm_ioctl(fd, UVM_IOCTL_PERF_SET, &r));
	ASSERT_EQ(0, perf_get(fd, &p));
	EXPECT_EQ(UVM_EVICT_LRU, p.evict_policy);
	EXPECT_EQ(0u, p.overrides);
	close(fd);
}

/* Every bad request answers EINVAL and changes nothing. */
TEST(bad_input_changes_nothing)
{
	struct uvm_perf before, after, p;
	int fd = uvm_open(), i;

	ASSERT_LE(0, fd);
	ASSERT_EQ(0, perf_set_evict(fd, UVM_EVICT_FIFO, 5));
	ASSERT_EQ(0, perf_get(fd, &before));
	for (i = 0; i < 12; i++) {
		memset(&p, 0, sizeof(p));
		p.version = UVM_PERF_VERSION;
		p.set = UVM_PERF_EVICT | UVM_PERF_FAULT_BATCH;
		p.evict_policy = UVM_EVICT_RANDOM;
		p.fault_batch = 8;
		switch (i) {
		case 0: p.version = 0; break;
		case 1: p.version = 2; break;
		case 2: p.set |= 1U << 7; break;
		case 3: p.flags = 2; break;
		case 4: p.pad = 1; break;
		case 5: p.set |= UVM_PERF_THRASH; break;	/* its fields 0 */
		case 6: p.evict_policy = UVM_EVICT_COUNT; break;
		case 7: p.evict_policy = ~0U; break;
		case 8: p.fault_batch = 0; break;
		case 9: p.fault_batch = UVM_ACCESS_MAX + 1; break;
		case 10: p.overrides = UVM_PERF_EVICT; break;
		case 11: p.set = 1U << 31; break;
		}
		EXPECT_EQ(-EINVAL, uvm_ioctl(fd, UVM_IOCTL_PERF_SET, &p)) {
			TH_LOG("case %d", i);
		}
		ASSERT_EQ(0, perf_get(fd, &after));
		EXPECT_EQ(0, memcmp(&before, &after, sizeof(before))) {
			TH_LOG("case %d changed something", i);
		}
	}
	/* GET: in-fields must be zero. */
	memset(&p, 0, sizeof(p));
	p.version = UVM_PERF_VERSION;
	p.set = UVM_PERF_EVICT;
	EXPECT_EQ(-EINVAL, uvm_ioctl(fd, UVM_IOCTL_PERF_GET, &p));
	p.set = 0;
	p.cap_bytes = 1;
	EXPECT_EQ(-EINVAL, uvm_ioctl(fd, UVM_IOCTL_PERF_GET, &p));
	p.cap_bytes = 0;
	p.version = 0;
	EXPECT_EQ(-EINVAL, uvm_ioctl(fd, UVM_IOCTL_PERF_GET, &p));
	close(fd);
}

/* Another process (a forked child) may read the policies, not set them. */
TEST(only_the_owner_sets_policies)
{
	int fd = uvm_open(), st;
	pid_t pid;

	ASSERT_LE(0, fd);
	pid = fork();
	ASSERT_LE(0, pid);
	if (!pid) {
		struct uvm_perf p;

		if (perf_set_evict(fd, UVM_EVICT_FIFO, 0) != -EPERM)
			_exit(1);
		_exit(perf_get(fd, &p) ? 2 : 0);
	}
	ASSERT_EQ(pid, waitpid(pid, &st, 0));
	EXPECT_TRUE(WIFEXITED(st));
	EXPECT_EQ(0, WEXITSTATUS(st));
	close(fd);
}

/* A VA space's fault batch: 1 makes every device fault a batch of its own. */
TEST(fault_batch_per_va_space)
{
	struct uvm_perf p = {
		.version = UVM_PERF_VERSION, .set = UVM_PERF_FAULT_BATCH,
		.fault_batch = 1,
	};
	struct uvm_access acc[16];
	struct uvm_device_access da = { .count = 16 };
	unsigned char buf[16][64];
	int fd = uvm_open(), dev, round, i;
	uint64_t b0, batches[2];
	char *m;

	ASSERT_LE(0, fd);
	dev = uvm_find_device(fd, 0, 0);
	ASSERT_LE(0, dev);
	m = uvm_map(fd, 2 * 16 * 65536);
	ASSERT_NE(NULL, m);
	memset(m, 1, 2 * 16 * 65536);
	for (round = 0; round < 2; round++) {
		if (round)
			ASSERT_EQ(0, uvm_ioctl(fd, UVM_IOCTL_PERF_SET, &p));
		for (i = 0; i < 16; i++)
			acc[i] = (struct uvm_access){
				.addr = (uintptr_t)(m + (round * 16 + i) * 65536),
				.length = 64, .buf = (uintptr_t)buf[i],
				.type = UVM_ACCESS_READ,
			};
		da.device = dev;
		da.accesses = (uintptr_t)acc;
		b0 = uvm_stat(fd, UVM_STAT_FAULT_BATCHES, UVM_STATS_VA_SPACE);
		ASSERT_EQ(0, uvm_ioctl(fd, UVM_IOCTL_DEVICE_ACCESS, &da));
		batches[round] = uvm_stat(fd, UVM_STAT_FAULT_BATCHES,
					  UVM_STATS_VA_SPACE) - b0;
	}
	EXPECT_GE(2u, batches[0]);
	EXPECT_LE(16u, batches[1]);
	ASSERT_EQ(0, perf_get(fd, &p));
	EXPECT_EQ(1u, p.fault_batch);
	EXPECT_EQ(UVM_PERF_FAULT_BATCH, p.overrides);
	munmap(m, 2 * 16 * 65536);
	close(fd);
}

struct flipper {
	int fd;
	volatile int stop;
	unsigned long flips;
};

/* Change the VA space's policy and the module's default, round and round. */
static void *flip_policies(void *arg)
{
	static const char *const names[] = { "fifo", "lfu", "random", "lru" };
	struct flipper *f = arg;
	unsigned int i = 0;

	while (!f->stop) {
		perf_set_evict(f->fd, i % UVM_EVICT_COUNT, i);
		uvm_write_str(PARAM "evict_policy", names[i % 4]);
		if (i % 3 == 0) {
			struct uvm_perf r = {
				.version = UVM_PERF_VERSION,
				.set = UVM_PERF_EVICT, .flags = UVM_PERF_RESET,
			};

			uvm_ioctl(f->fd, UVM_IOCTL_PERF_SET, &r);
		}
		i++;
		f->flips++;
		usleep(2000);
	}
	return NULL;
}

/*
 * Policies changed while another thread's device accesses evict: every
 * byte the device reads and every byte the CPU reads afterwards is right.
 */
TEST(policies_change_while_a_thread_evicts)
{
	struct flipper f = { .fd = uvm_open() };
	unsigned char *buf = malloc(64 * 1024);
	int dev, pass, bad = 0;
	pthread_t t;
	size_t len, off, i;
	char *m;

	ASSERT_LE(0, f.fd);
	ASSERT_NE(NULL, buf);
	dev = uvm_find_device(f.fd, 0, 0);
	ASSERT_LE(0, dev);
	len = uvm_dev_free(f.fd, dev) / BLK * BLK * 3 / 2;
	m = uvm_map(f.fd, len);
	ASSERT_NE(NULL, m);
	uvm_fill(m, len, 99);
	ASSERT_EQ(0, pthread_create(&t, NULL, flip_policies, &f));
	for (pass = 0; pass < 3; pass++) {
		for (off = 0; off < len; off += 64 * 1024) {
			ASSERT_EQ(0, uvm_dev_read(f.fd, dev, m + off, 64 * 1024,
						  buf));
			for (i = 0; i < 64 * 1024; i++)
				bad += buf[i] != uvm_pattern(99, off + i);
		}
	}
	f.stop = 1;
	pthread_join(t, NULL);
	EXPECT_EQ(0, bad);
	EXPECT_LT(0u, f.flips);
	EXPECT_LT(0u, uvm_stat(f.fd, UVM_STAT_EVICTIONS, UVM_STATS_VA_SPACE));
	EXPECT_EQ(0, uvm_check(m, len, 99));
	EXPECT_EQ(0, uvm_write_str(PARAM "evict_policy", "lru"));
	munmap(m, len);
	close(f.fd);
	free(buf);
}

TEST_HARNESS_MAIN
