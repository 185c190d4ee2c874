// SPDX-License-Identifier: GPL-2.0
/*
 * The event stream (UVM_IOCTL_EVENTS_OPEN): records of migrations, fault
 * batches, faults, evictions, thrashing and policy changes read through a
 * file descriptor. The records' page and byte totals equal the counters'
 * deltas; a full ring reports what it lost; read() and poll() behave;
 * bad requests create nothing; only the owner reads its VA space, and a
 * module-wide stream needs CAP_PERFMON. A fault batch's record splits its
 * time and counts what it caused; migrations tell their causes apart.
 * Default group.
 */
#include <fcntl.h>
#include <poll.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <linux/capability.h>

#include "kselftest_harness.h"
#include "alloc_util.h"

#define BLK		(2 * MIB)
#define MAXREC		65536

static struct uvm_event recs[MAXREC];

static int ev_open(int fd, uint32_t ring, uint64_t types, uint32_t flags)
{
	struct uvm_events_open a = {
		.version = UVM_EVENTS_VERSION, .flags = flags, .types = types,
		.ring_records = ring,
	};
	int ret = uvm_ioctl(fd, UVM_IOCTL_EVENTS_OPEN, &a);

	return ret ? ret : a.fd;
}

/* Read every record there is (non-blocking); return how many. */
static int ev_drain(int efd)
{
	int n = 0;
	ssize_t r;

	fcntl(efd, F_SETFL, fcntl(efd, F_GETFL) | O_NONBLOCK);
	while (n < MAXREC) {
		r = read(efd, &recs[n], (MAXREC - n) * sizeof(recs[0]) > 64 * sizeof(recs[0]) ?
			 64 * sizeof(recs[0]) : (MAXREC - n) * sizeof(recs[0]));
		if (r <= 0)
			break;
		n += r / sizeof(recs[0]);
	}
	return n;
}

static uint64_t st(int fd, unsigned int s)
{
	return uvm_stat(fd, s, UVM_STATS_VA_SPACE);
}

FIXTURE(ev)
{
	int fd, dev;
};

FIXTURE_SETUP(ev)
{
	self->fd = uvm_open();
	ASSERT_LE(0, self->fd);
	self->dev = uvm_find_device(self->fd, 0, 0);
	if (self->dev < 0)
		SKIP(return, "no device");
}

FIXTURE_TEARDOWN(ev)
{
	close(self->fd);
}

/* Device writes every 64 KiB of @m, then the CPU reads it all. */
static void work(struct __test_metadata *_metadata, int fd, int dev, char *m,
		 size_t len)
{
	uint64_t v = 7;
	size_t i;

	for (i = 0; i < len; i += 64 * 1024)
		ASSERT_EQ(0, uvm_dev_write(fd, dev, m + i, 8, &v));
	for (i = 0; i < len; i += PAGE)
		v += m[i];
	ASSERT_EQ(0, uvm_prefetch(fd, m, len / 2, UVM_LOC_DEVICE, dev));
	ASSERT_EQ(0, uvm_prefetch(fd, m, len / 2, UVM_LOC_HOST_NUMA, 0));
}

TEST_F(ev, record_totals_equal_counter_deltas)
{
	static const unsigned int c[] = {
		UVM_STAT_MIGRATE_H2D_PAGES, UVM_STAT_MIGRATE_H2D_BYTES,
		UVM_STAT_MIGRATE_D2H_PAGES, UVM_STAT_MIGRATE_D2H_BYTES,
		UVM_STAT_MIGRATE_D2D_PAGES, UVM_STAT_MIGRATE_D2D_BYTES,
		UVM_STAT_MIGRATE_H2H_PAGES, UVM_STAT_MIGRATE_H2H_BYTES,
		UVM_STAT_FAULT_BATCHES,
	};
	uint64_t before[9], rec[9] = { 0 }, cpu = 0;
	size_t len = 16 * MIB;
	int efd, n, i, k;
	char *m;

	efd = ev_open(self->fd, 4096, 0, 0);
	ASSERT_LE(0, efd);
	m = uvm_map(self->fd, len);
	ASSERT_NE(NULL, m);
	memset(m, 1, len);
	for (k = 0; k < 9; k++)
		before[k] = st(self->fd, c[k]);
	work(_metadata, self->fd, self->dev, m, len);
	n = ev_drain(efd);
	for (i = 0; i < n; i++) {
		struct uvm_event *e = &recs[i];
		struct uvm_event_migrate *mg = &e->u.migrate;
		int d = -1;

		ASSERT_EQ(sizeof(*e), e->hdr.size);
		ASSERT_EQ(UVM_EVENTS_VERSION, e->hdr.version);
		ASSERT_NE(UVM_EVENT_OVERFLOW, e->hdr.type);
		ASSERT_EQ((uint64_t)getpid(), e->hdr.va_space);
		if (e->hdr.type == UVM_EVENT_FAULT_BATCH)
			rec[8]++;
		if (e->hdr.type == UVM_EVENT_CPU_FAULT)
			cpu++;
		if (e->hdr.type != UVM_EVENT_MIGRATE)
			continue;
		ASSERT_EQ((uint64_t)mg->pages * PAGE, mg->bytes);
		if (mg->src_type == UVM_EVENT_LOC_HOST)
			d = mg->dst_type == UVM_EVENT_LOC_DEVICE ? 0 : 6;
		else
			d = mg->dst_type == UVM_EVENT_LOC_HOST ? 2 : 4;
		rec[d] += mg->pages;
		rec[d + 1] += mg->bytes;
	}
	TH_LOG("%d records: %llu pages h2d, %llu d2h, %llu h2h, %llu batches, %llu CPU faults",
	       n, (unsigned long long)rec[0], (unsigned long long)rec[2],
	       (unsigned long long)rec[6], (unsigned long long)rec[8],
	       (unsigned long long)cpu);
	for (k = 0; k < 9; k++)
		EXPECT_EQ(st(self->fd, c[k]) - before[k], rec[k])
			TH_LOG("counter %u", c[k]);
	EXPECT_LT(0, rec[0]);
	EXPECT_LT(0, rec[2]);
	EXPECT_LT(0, cpu);
	munmap(m, len);
	close(efd);
}

TEST_F(ev, a_full_ring_reports_what_it_lost)
{
	size_t len = 8 * MIB;
	uint64_t lost = 0, batches0 = st(self->fd, UVM_STAT_FAULT_BATCHES);
	int efd, n, i, migr = 0, batches = 0, over = 0;
	char *m = uvm_map(self->fd, len);
	uint64_t v = 1;

	ASSERT_NE(NULL, m);
	memset(m, 1, len);
	efd = ev_open(self->fd, 16, 1ULL << UVM_EVENT_FAULT_BATCH, 0);
	ASSERT_LE(0, efd);
	for (i = 0; i < (int)(len / BLK) * 16; i++) {	/* one batch each */
		ASSERT_EQ(0, uvm_dev_write(self->fd, self->dev,
					   m + (size_t)i * (BLK / 16), 8, &v));
	}
	n = ev_drain(efd);
	for (i = 0; i < n; i++) {
		if (recs[i].hdr.type == UVM_EVENT_OVERFLOW) {
			over++;
			lost += recs[i].u.overflow.lost;
		} else {
			ASSERT_EQ(UVM_EVENT_FAULT_BATCH, recs[i].hdr.type);
			batches++;
			migr += recs[i].u.batch.pages;
		}
	}
	TH_LOG("%d records read, %d overflow records, %llu lost", n, over,
	       (unsigned long long)lost);
	EXPECT_LE(1, over);
	EXPECT_GE(17, n);
	EXPECT_EQ(st(self->fd, UVM_STAT_FAULT_BATCHES) - batches0,
		  batches + lost);
	munmap(m, len);
	close(efd);
}

TEST_F(ev, read_and_poll)
{
	struct uvm_perf p = {
		.version = UVM_PERF_VERSION, .set = UVM_PERF_FAULT_BATCH,
		.fault_batch = 77,
	};
	struct uvm_event e[2];
	struct pollfd pfd;
	int efd;

	efd = ev_open(self->fd, 16, 0, 0);
	ASSERT_LE(0, efd);
	pfd = (struct pollfd){ .fd = efd, .events = POLLIN };
	EXPECT_EQ(0, poll(&pfd, 1, 0));
	fcntl(efd, F_SETFL, O_NONBLOCK);
	EXPECT_EQ(-1, read(efd, e, sizeof(e)));
	EXPECT_EQ(EAGAIN, errno);
	ASSERT_EQ(0, uvm_ioctl(self->fd, UVM_IOCTL_PERF_SET, &p));
	EXPECT_EQ(1, poll(&pfd, 1, 0));
	EXPECT_EQ(-1, read(efd, e, sizeof(e[0]) - 1));	/* too small */
	EXPECT_EQ(EINVAL, errno);
	ASSERT_EQ((ssize_t)sizeof(e[0]), read(efd, e, sizeof(e)));
	EXPECT_EQ(UVM_EVENT_POLICY, e[0].hdr.type);
	EXPECT_EQ(UVM_PERF_FAULT_BATCH, e[0].u.policy.set);
	EXPECT_EQ(77, e[0].u.policy.fault_batch);
	EXPECT_EQ((uint32_t)getpid(), e[0].hdr.pid);
	EXPECT_EQ(0, poll(&pfd, 1, 0));
	close(efd);
}

TEST_F(ev, bad_requests_open_nothing)
{
	struct uvm_events_open a;
	int i, fd0 = dup(0);

	close(fd0);	/* the next free descriptor */
	for (i = 0; i < 8; i++) {
		a = (struct uvm_events_open){
			.version = UVM_EVENTS_VERSION, .ring_records = 64,
		};
		switch (i) {
		case 0: a.version = 0; break;
		case 1: a.version = 2; break;
		case 2: a.flags = 2; break;
		case 3: a.types = 1ULL << UVM_EVENT_COUNT; break;
		case 4: a.ring_records = 0; break;
		case 5: a.ring_records = 8; break;
		case 6: a.ring_records = 100; break;
		case 7: a.ring_records = 131072; break;
		}
		EXPECT_EQ(-EINVAL, uvm_ioctl(self->fd, UVM_IOCTL_EVENTS_OPEN, &a))
			TH_LOG("case %d", i);
	}
	i = dup(0);
	EXPECT_EQ(fd0, i);	/* no descriptor was left behind */
	close(i);
}

/* Drop every capability (CAP_PERFMON and CAP_SYS_ADMIN included). */
static int drop_caps(void)
{
	struct __user_cap_header_struct h = {
		.version = _LINUX_CAPABILITY_VERSION_3,
	};
	struct __user_cap_data_struct d[2] = { { 0 } };

	return syscall(SYS_capset, &h, d);
}

TEST_F(ev, only_the_owner_and_perfmon_read)
{
	int efd, st, n, i, seen = 0, other;
	pid_t pid = fork();

	ASSERT_LE(0, pid);
	if (!pid) {
		/* The inherited file is not this process's VA space. */
		if (ev_open(self->fd, 16, 0, 0) != -EPERM)
			_exit(1);
		other = uvm_open();
		if (other < 0 || drop_caps())
			_exit(2);
		if (ev_open(other, 16, 0, UVM_EVENTS_ALL_SPACES) != -EPERM)
			_exit(3);
		_exit(0);
	}
	ASSERT_EQ(pid, waitpid(pid, &st, 0));
	EXPECT_EQ(0, WEXITSTATUS(st));

	/* Root: a module-wide stream sees another VA space's records. */
	efd = ev_open(self->fd, 1024, 1ULL << UVM_EVENT_POLICY,
		      UVM_EVENTS_ALL_SPACES);
	ASSERT_LE(0, efd);
	pid = fork();
	if (!pid) {
		struct uvm_perf p = {
			.version = UVM_PERF_VERSION,
			.set = UVM_PERF_FAULT_BATCH, .fault_batch = 99,
		};

		other = uvm_open();
		_exit(other < 0 || uvm_ioctl(other, UVM_IOCTL_PERF_SET, &p));
	}
	ASSERT_EQ(pid, waitpid(pid, &st, 0));
	ASSERT_EQ(0, WEXITSTATUS(st));
	n = ev_drain(efd);
	for (i = 0; i < n; i++)
		if (recs[i].hdr.type == UVM_EVENT_POLICY &&
		    recs[i].hdr.va_space == (uint64_t)pid &&
		    recs[i].u.policy.fault_batch == 99)
			seen++;
	EXPECT_EQ(1, seen);
	close(efd);
}

/* A VA space capped at 4 MiB sweeping 16 MiB: evictions of its own. */
TEST_F(ev, evictions_and_thrashing_are_recorded)
{
	struct uvm_perf cap = {
		.version = UVM_PERF_VERSION, .set = UVM_PERF_CAP | UVM_PERF_THRASH,
		.cap_device = self->dev, .cap_bytes = 4 * MIB,
		.thrash_policy = UVM_THRASH_PIN, .thrash_threshold = 3,
		.thrash_window_us = 10000000, .thrash_nap_us = 250,
		.thrash_pin_ms = 60000,
	};
	int efd, n, i, own = 0, detected = 0, pinned = 0;
	size_t len = 16 * MIB, off;
	uint64_t *m, v = 1;

	ASSERT_EQ(0, uvm_ioctl(self->fd, UVM_IOCTL_PERF_SET, &cap));
	efd = ev_open(self->fd, 4096, 0, 0);
	ASSERT_LE(0, efd);
	m = uvm_map(self->fd, len);
	ASSERT_NE(NULL, m);
	for (off = 0; off < len; off += BLK)
		ASSERT_EQ(0, uvm_dev_write(self->fd, self->dev,
					   (char *)m + off, 8, &v));
	for (i = 0; i < 12; i++) {	/* ping-pong one page */
		v = i;
		ASSERT_EQ(0, uvm_dev_write(self->fd, self->dev, m, 8, &v));
		ASSERT_EQ((uint64_t)i, m[0]);
		m[0] = i + 100;
	}
	n = ev_drain(efd);
	for (i = 0; i < n; i++) {
		struct uvm_event *e = &recs[i];

		if (e->hdr.type == UVM_EVENT_EVICT) {
			EXPECT_EQ(1, e->u.evict.own);
			EXPECT_NE(0, e->u.evict.addr);
			EXPECT_EQ(BLK, e->u.evict.bytes);
			own++;
		}
		if (e->hdr.type == UVM_EVENT_THRASH) {
			detected += e->u.thrash.kind == UVM_EVENT_THRASH_DETECTED;
			pinned += e->u.thrash.kind == UVM_EVENT_THRASH_PINNED;
		}
	}
	TH_LOG("%d evictions, thrashing detected %d, pinned %d", own,
	       detected, pinned);
	EXPECT_EQ(st(self->fd, UVM_STAT_EVICTIONS), own);
	EXPECT_LE(6, own);
	EXPECT_LE(1, detected);
	EXPECT_LE(1, pinned);
	munmap(m, len);
	close(efd);
}

/* Sums over fault batch records, and what other records say of them. */
struct batch_sums {
	uint64_t batches, migrated, remote, evictions;
	uint64_t ns, parts[5];
	uint64_t moved_in, remote_recs, evict_recs;
};

static void sum_batches(struct __test_metadata *_metadata, int n, int dev,
			struct batch_sums *b)
{
	int i, k;

	memset(b, 0, sizeof(*b));
	for (i = 0; i < n; i++) {
		const struct uvm_event *e = &recs[i];
		const struct uvm_event_fault_batch *f = &e->u.batch;
		const struct uvm_event_migrate *mg = &e->u.migrate;
		uint64_t p[5] = { f->wait_ns, f->copy_ns, f->map_ns,
				  f->unmap_ns, f->evict_ns }, sum = 0;

		switch (e->hdr.type) {
		case UVM_EVENT_FAULT_BATCH:
			b->batches++;
			b->migrated += f->migrated;
			b->remote += f->remote;
			b->evictions += f->evictions;
			b->ns += f->duration_ns;
			for (k = 0; k < 5; k++) {
				b->parts[k] += p[k];
				sum += p[k];
			}
			EXPECT_LE(sum, f->duration_ns);
			EXPECT_EQ(0, f->pad);
			break;
		case UVM_EVENT_MIGRATE:
			if (mg->dst_type == UVM_EVENT_LOC_DEVICE &&
			    mg->dst_id == dev &&
			    (mg->cause == UVM_EVENT_CAUSE_DEVICE_FAULT ||
			     mg->cause == UVM_EVENT_CAUSE_PREFETCH ||
			     mg->cause == UVM_EVENT_CAUSE_COLLAPSE))
				b->moved_in += mg->pages;
			break;
		case UVM_EVENT_REMOTE_MAP:
			b->remote_recs += e->u.remote_map.pages;
			break;
		case UVM_EVENT_EVICT:
			b->evict_recs++;
			break;
		}
	}
}

/*
 * A VA space capped at 4 MiB writes 16 MiB from the device (migrations,
 * evictions), then reads a region preferring the host (remote maps): each
 * batch's parts fit in its duration, and its counts add up to the
 * migration, eviction and remote-map records.
 */
TEST_F(ev, batch_records_split_their_time_and_count_their_effects)
{
	struct uvm_perf cap = {
		.version = UVM_PERF_VERSION, .set = UVM_PERF_CAP,
		.cap_device = self->dev, .cap_bytes = 4 * MIB,
	};
	static const char *const part[] = { "wait", "copy", "map", "unmap",
					    "evict" };
	size_t len = 16 * MIB, off;
	char buf[64 * 1024];
	struct batch_sums b;
	int efd, n, k;
	char *m;

	ASSERT_EQ(0, uvm_ioctl(self->fd, UVM_IOCTL_PERF_SET, &cap));
	efd = ev_open(self->fd, 4096, 0, 0);
	ASSERT_LE(0, efd);
	m = uvm_map(self->fd, len + BLK);
	ASSERT_NE(NULL, m);
	memset(m, 1, len + BLK);
	for (off = 0; off < len; off += BLK)
		ASSERT_EQ(0, uvm_dev_write(self->fd, self->dev, m + off,
					   sizeof(buf), buf));
	ASSERT_EQ(0, uvm_advise(self->fd, m + len, BLK,
				UVM_ADVISE_SET_PREFERRED_LOCATION,
				UVM_LOC_HOST_NUMA, 0));
	ASSERT_EQ(0, uvm_dev_read(self->fd, self->dev, m + len, sizeof(buf),
				  buf));
	n = ev_drain(efd);
	sum_batches(_metadata, n, self->dev, &b);
	TH_LOG("%llu batches: %llu pages in, %llu remote, %llu evictions, %llu ns",
	       (unsigned long long)b.batches, (unsigned long long)b.migrated,
	       (unsigned long long)b.remote, (unsigned long long)b.evictions,
	       (unsigned long long)b.ns);
	for (k = 0; k < 5; k++)
		TH_LOG("  %s %llu ns", part[k], (unsigned long long)b.parts[k]);
	EXPECT_EQ(9, b.batches);
	EXPECT_EQ(b.moved_in, b.migrated);
	EXPECT_EQ(8 * 16, b.migrated);
	EXPECT_EQ(b.remote_recs, b.remote);
	EXPECT_EQ(16, b.remote);
	EXPECT_EQ(b.evict_recs, b.evictions);
	EXPECT_LE(6, b.evictions);
	EXPECT_LT(0, b.parts[0] + b.parts[1]);	/* copies */
	for (k = 2; k < 5; k++)
		EXPECT_LT(0, b.parts[k]) TH_LOG("%s", part[k]);
	munmap(m, len + BLK);
	close(efd);
}

/* Pages of migration records of @cause into device @dev (-1: any place). */
static uint64_t cause_pages(int n, uint32_t cause, int dev)
{
	uint64_t pages = 0;
	int i;

	for (i = 0; i < n; i++) {
		const struct uvm_event_migrate *mg = &recs[i].u.migrate;

		if (recs[i].hdr.type != UVM_EVENT_MIGRATE || mg->cause != cause)
			continue;
		if (dev < 0 || (mg->dst_type == UVM_EVENT_LOC_DEVICE &&
				mg->dst_id == dev))
			pages += mg->pages;
	}
	return pages;
}

/*
 * A prefetch is the user's; a fault batch's own pages and those its
 * prefetch policy (density) adds are told apart; so are a CPU fault's,
 * and a write that takes a read-duplicated page from two copies.
 */
TEST_F(ev, migration_causes_are_told_apart)
{
	struct uvm_perf pf = {
		.version = UVM_PERF_VERSION, .set = UVM_PERF_PREFETCH,
		.prefetch_policy = UVM_PREFETCH_DENSITY,
		.prefetch_threshold = 51, .prefetch_pages = 512,
	};
	char buf[40 * PAGE];
	uint64_t before;
	int efd, n, a, b;
	char *m;

	uvm_two_devices(self->fd, &a, &b);
	ASSERT_EQ(0, uvm_ioctl(self->fd, UVM_IOCTL_PERF_SET, &pf));
	efd = ev_open(self->fd, 4096, 0, 0);
	ASSERT_LE(0, efd);
	m = uvm_map(self->fd, 3 * BLK);
	ASSERT_NE(NULL, m);
	memset(m, 1, 3 * BLK);
	before = st(self->fd, UVM_STAT_FAULT_PREFETCH_PAGES);
	ASSERT_EQ(0, uvm_prefetch(self->fd, m, BLK, UVM_LOC_DEVICE, a));
	/* 40 of the first 64 pages: more than 51 %, so all 64 come. */
	ASSERT_EQ(0, uvm_dev_read(self->fd, a, m + BLK, sizeof(buf), buf));
	EXPECT_EQ(1, m[BLK + 63 * PAGE]);	/* CPU fault: home again */
	if (b >= 0) {
		ASSERT_EQ(0, uvm_advise(self->fd, m + 2 * BLK, PAGE,
					UVM_ADVISE_SET_READ_MOSTLY, 0, 0));
		ASSERT_EQ(0, uvm_dev_read(self->fd, a, m + 2 * BLK, 8, buf));
		ASSERT_EQ(0, uvm_dev_write(self->fd, b, m + 2 * BLK, 8, buf));
	}
	n = ev_drain(efd);
	EXPECT_EQ(512, cause_pages(n, UVM_EVENT_CAUSE_USER, a));
	/* and the read duplicate on a, if there are two devices */
	EXPECT_EQ(40 + (b >= 0), cause_pages(n, UVM_EVENT_CAUSE_DEVICE_FAULT,
					     a));
	EXPECT_EQ(24, cause_pages(n, UVM_EVENT_CAUSE_PREFETCH, a));
	EXPECT_EQ(st(self->fd, UVM_STAT_FAULT_PREFETCH_PAGES) - before,
		  cause_pages(n, UVM_EVENT_CAUSE_PREFETCH, -1));
	EXPECT_LT(0, cause_pages(n, UVM_EVENT_CAUSE_CPU_FAULT, -1));
	EXPECT_EQ(0, cause_pages(n, UVM_EVENT_CAUSE_THRASHING, -1));
	if (b >= 0) {
		EXPECT_EQ(1, cause_pages(n, UVM_EVENT_CAUSE_COLLAPSE, b));
	} else {
		TH_LOG("one device: no collapse");
	}
	munmap(m, 3 * BLK);
	close(efd);
}

/*
 * A CPU fault's record says how many host pages it gave the block: a
 * first touch populates one granule (fault_granule_kb), a fault-back
 * brings the device's page home besides.
 */
TEST_F(ev, cpu_fault_records_count_their_pages)
{
	long gran = uvm_read_long("/sys/module/uvm/parameters/fault_granule_kb");
	uint64_t v = 5;
	int efd, n, i, k = 0;
	uint32_t pages[2] = { 0, 0 };
	volatile char *m;

	ASSERT_LT(0, gran);
	efd = ev_open(self->fd, 4096, 1ULL << UVM_EVENT_CPU_FAULT, 0);
	ASSERT_LE(0, efd);
	m = uvm_map(self->fd, BLK);
	ASSERT_NE(NULL, m);
	(void)m[0];
	ASSERT_EQ(0, uvm_dev_write(self->fd, self->dev, (char *)m + BLK / 2, 8, &v));
	(void)m[BLK / 2];
	n = ev_drain(efd);
	for (i = 0; i < n; i++) {
		if (recs[i].hdr.type != UVM_EVENT_CPU_FAULT)
			continue;
		EXPECT_EQ(0, recs[i].u.cpu_fault.pad);
		if (k < 2)
			pages[k] = recs[i].u.cpu_fault.pages;
		k++;
	}
	EXPECT_EQ(2, k);
	EXPECT_EQ(gran * 1024 / PAGE, pages[0]);
	EXPECT_LE(1, pages[1]);
	EXPECT_GE(gran * 1024 / PAGE + 1, pages[1]);
	munmap((void *)m, BLK);
	close(efd);
}

/* Find the first record of @type from @from on; its index or -1. */
static int find_rec(int n, int from, unsigned int type)
{
	for (; from < n; from++)
		if (recs[from].hdr.type == type)
			return from;
	return -1;
}

TEST_F(ev, allocations_prefetches_advice_and_frees_are_recorded)
{
	struct uvm_advise adv = {
		.advice = UVM_ADVISE_SET_PREFERRED_LOCATION,
		.loc = { .type = UVM_LOC_DEVICE, .id = self->dev },
	};
	size_t len = 4 * MIB;
	int efd, n, a, p, v, f, i;
	char *m;

	efd = ev_open(self->fd, 4096, 0, 0);
	ASSERT_LE(0, efd);
	m = uvm_map(self->fd, len);
	ASSERT_NE(NULL, m);
	memset(m, 1, len);	/* populated: the prefetch moves pages */
	ASSERT_EQ(0, uvm_prefetch(self->fd, m, len, UVM_LOC_DEVICE, self->dev));
	/* Refused before it looked at the range: not recorded. */
	ASSERT_GT(0, uvm_prefetch(self->fd, m, len, UVM_LOC_DEVICE, 99));
	adv.addr = (uintptr_t)m + MIB;
	adv.length = MIB;
	ASSERT_EQ(0, uvm_ioctl(self->fd, UVM_IOCTL_ADVISE, &adv));
	ASSERT_EQ(0, munmap(m + 2 * MIB, 2 * MIB));
	ASSERT_EQ(0, munmap(m, 2 * MIB));
	n = ev_drain(efd);

	a = find_rec(n, 0, UVM_EVENT_ALLOC);
	ASSERT_LE(0, a);
	EXPECT_EQ((uintptr_t)m, recs[a].u.alloc.addr);
	EXPECT_EQ(len, recs[a].u.alloc.bytes);
	p = find_rec(n, a, UVM_EVENT_PREFETCH);
	ASSERT_LT(a, p);
	EXPECT_EQ((uintptr_t)m, recs[p].u.prefetch.addr);
	EXPECT_EQ(len, recs[p].u.prefetch.bytes);
	EXPECT_EQ(UVM_LOC_DEVICE, recs[p].u.prefetch.dst_type);
	EXPECT_EQ(self->dev, recs[p].u.prefetch.dst_id);
	EXPECT_EQ(0, recs[p].u.prefetch.status);
	/* The pages it moved come before it. */
	for (i = a; i < p; i++)
		if (recs[i].hdr.type == UVM_EVENT_MIGRATE)
			break;
	EXPECT_LT(i, p);
	EXPECT_EQ(-1, find_rec(n, p + 1, UVM_EVENT_PREFETCH));
	v = find_rec(n, p + 1, UVM_EVENT_ADVISE);
	ASSERT_LT(p, v);
	EXPECT_EQ(adv.addr, recs[v].u.advise.addr);
	EXPECT_EQ(MIB, recs[v].u.advise.bytes);
	EXPECT_EQ(UVM_ADVISE_SET_PREFERRED_LOCATION, recs[v].u.advise.advice);
	EXPECT_EQ(UVM_LOC_DEVICE, recs[v].u.advise.loc_type);
	EXPECT_EQ(self->dev, recs[v].u.advise.loc_id);
	f = find_rec(n, v, UVM_EVENT_FREE);
	ASSERT_LT(v, f);
	EXPECT_EQ((uintptr_t)m + 2 * MIB, recs[f].u.free.addr);
	EXPECT_EQ(2 * MIB, recs[f].u.free.bytes);
	f = find_rec(n, f + 1, UVM_EVENT_FREE);
	ASSERT_LT(v, f);
	EXPECT_EQ((uintptr_t)m, recs[f].u.free.addr);
	EXPECT_EQ(2 * MIB, recs[f].u.free.bytes);
	close(efd);
}

TEST_HARNESS_MAIN
