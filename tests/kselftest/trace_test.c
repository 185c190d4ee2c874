// SPDX-License-Identifier: GPL-2.0
/*
 * Tracepoints: enables the uvm events through tracefs (mounting it at
 * /sys/kernel/tracing if needed), triggers them through /dev/uvm and checks
 * that they fire with the right fields: uvm_cpu_fault (pid, addr, write,
 * nid, duration_ns), uvm_populate (pid, addr, npages, nid), uvm_migrate
 * (pid, addr, npages, from_node, from_dev, to_node, to_dev, cause,
 * duration_ns). Also checks each
 * event's format file, which is what perf and bpftrace read. Runs in the VM
 * as root, 2 NUMA nodes.
 */
#include <stdio.h>
#include <sys/mount.h>
#include <sys/stat.h>

#include "kselftest_harness.h"
#include "uvm_test_util.h"

#define TRACEFS		"/sys/kernel/tracing"
#define UVM_CAUSE_USER		0	/* kmod/uvm_trace.h */
#define UVM_CAUSE_CPU_FAULT	1

/* One parsed event line. */
struct ev {
	int pid, nid, from_node, from_dev, to_node, to_dev, cause, write;
	unsigned long addr;
	unsigned int npages;
	long duration_ns;	/* -1000 if the event has none */
};

static int tfs_write(const char *file, const char *val)
{
	char path[256];
	int fd, ok;

	snprintf(path, sizeof(path), TRACEFS "/%s", file);
	fd = open(path, O_WRONLY | O_TRUNC | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	ok = write(fd, val, strlen(val)) == (ssize_t)strlen(val);
	close(fd);
	return ok ? 0 : -EIO;
}

static int tfs_mount(void)
{
	if (!access(TRACEFS "/events", F_OK))
		return 0;
	if (mount("tracefs", TRACEFS, "tracefs", 0, NULL))
		return -errno;
	return access(TRACEFS "/events", F_OK) ? -ENOENT : 0;
}

/* Read the trace buffer; returns a malloc'ed string. */
static char *tfs_read_trace(void)
{
	size_t cap = 1 << 20, len = 0;
	char *buf = malloc(cap + 1);
	int fd = open(TRACEFS "/trace", O_RDONLY | O_CLOEXEC);
	ssize_t n;

	if (!buf || fd < 0) {
		free(buf);
		if (fd >= 0)
			close(fd);
		return NULL;
	}
	while ((n = read(fd, buf + len, cap - len)) > 0) {
		len += n;
		if (len == cap) {
			char *nb = realloc(buf, 2 * cap + 1);

			if (!nb)
				break;
			buf = nb;
			cap *= 2;
		}
	}
	close(fd);
	buf[len] = 0;
	return buf;
}

/* Parse one "key=value" of an event line (0 if absent). */
static long field(const char *line, const char *key, int base)
{
	char pat[32];
	const char *p;

	snprintf(pat, sizeof(pat), " %s=", key);
	p = strstr(line, pat);
	return p ? strtol(p + strlen(pat), NULL, base) : -1000;
}

/*
 * The events named @name of process @pid with an address in [lo, hi):
 * fills up to @max into @out, returns how many matched.
 */
static int find_events(const char *trace, const char *name, int pid,
		       unsigned long lo, unsigned long hi, struct ev *out,
		       int max)
{
	char tag[64];
	const char *l = trace;
	int n = 0;

	snprintf(tag, sizeof(tag), " %s:", name);
	for (; l && *l; l = strchr(l, '\n'), l = l ? l + 1 : NULL) {
		const char *e = strstr(l, tag), *nl = strchr(l, '\n');
		struct ev v;

		if (!e || (nl && e > nl))
			continue;
		v.pid = field(e, "pid", 10);
		v.addr = strtoul(strstr(e, " addr=0x") ? strstr(e, " addr=0x") + 8 : "0",
				 NULL, 16);
		v.npages = field(e, "npages", 10);
		v.nid = field(e, "nid", 10);
		v.from_node = field(e, "from_node", 10);
		v.from_dev = field(e, "from_dev", 10);
		v.to_node = field(e, "to_node", 10);
		v.to_dev = field(e, "to_dev", 10);
		v.cause = field(e, "cause", 10);
		v.duration_ns = field(e, "duration_ns", 10);
		v.write = !!strstr(e, " write ");
		if (v.pid != pid || v.addr < lo || v.addr >= hi)
			continue;
		if (n < max)
			out[n] = v;
		n++;
	}
	return n;
}

FIXTURE(tr)
{
	int fd;
	char *trace;
};

FIXTURE_SETUP(tr)
{
	int ret;

	self->trace = NULL;
	if (geteuid())
		SKIP(return, "needs root (tracefs)");
	ret = tfs_mount();
	ASSERT_EQ(0, ret) TH_LOG("tracefs: %s", strerror(-ret));
	ASSERT_EQ(0, access(TRACEFS "/events/uvm", F_OK))
		TH_LOG("no uvm events: is the module loaded?");
	ASSERT_EQ(0, tfs_write("tracing_on", "0"));
	ASSERT_EQ(0, tfs_write("trace", ""));
	ASSERT_EQ(0, tfs_write("buffer_size_kb", "4096"));
	ASSERT_EQ(0, tfs_write("events/uvm/enable", "1"));
	ASSERT_EQ(0, tfs_write("tracing_on", "1"));
	self->fd = uvm_open();
	ASSERT_LE(0, self->fd);
}

FIXTURE_TEARDOWN(tr)
{
	if (geteuid())
		return;
	tfs_write("tracing_on", "0");
	tfs_write("events/uvm/enable", "0");
	close(self->fd);
	free(self->trace);
}

/* Stop tracing and take the buffer. */
static char *stop_and_read(void)
{
	tfs_write("tracing_on", "0");
	return tfs_read_trace();
}

TEST_F(tr, format_files_have_the_fields)
{
	static const char *const want[][10] = {
		{ "uvm_cpu_fault", "pid", "addr", "write", "nid", "duration_ns" },
		{ "uvm_populate", "pid", "addr", "npages", "nid" },
		{ "uvm_migrate", "pid", "addr", "npages", "from_node", "from_dev",
		  "to_node", "to_dev", "cause", "duration_ns" },
	};
	char path[128], buf[4096], pat[48];
	unsigned int i, j;
	ssize_t n;
	int fd;

	for (i = 0; i < sizeof(want) / sizeof(want[0]); i++) {
		snprintf(path, sizeof(path), TRACEFS "/events/uvm/%s/format", want[i][0]);
		fd = open(path, O_RDONLY);
		ASSERT_LE(0, fd) TH_LOG("%s", path);
		n = read(fd, buf, sizeof(buf) - 1);
		close(fd);
		ASSERT_LT(0, n);
		buf[n] = 0;
		for (j = 1; j < 8 && want[i][j]; j++) {
			snprintf(pat, sizeof(pat), " %s;", want[i][j]);
			EXPECT_NE(NULL, strstr(buf, pat)) TH_LOG("%s: no field %s", want[i][0], want[i][j]);
		}
	}
}

TEST_F(tr, cpu_fault_and_populate)
{
	size_t len = 16 * PAGE;
	char *p = uvm_map(self->fd, len);
	unsigned long lo = (unsigned long)p, hi = lo + len;
	struct ev f[64], pop[64];
	unsigned int total = 0;
	int nf, np, i, node;

	ASSERT_NE(NULL, p);
	p[0] = 1;			/* write fault on page 0 */
	(void)*(volatile char *)(p + 8 * PAGE);	/* read fault further on */
	node = uvm_page_node(self->fd, p);
	self->trace = stop_and_read();
	ASSERT_NE(NULL, self->trace);
	nf = find_events(self->trace, "uvm_cpu_fault", getpid(), lo, hi, f, 64);
	np = find_events(self->trace, "uvm_populate", getpid(), lo, hi, pop, 64);
	ASSERT_LE(1, nf) TH_LOG("no uvm_cpu_fault for [%#lx, %#lx)", lo, hi);
	ASSERT_LE(1, np) TH_LOG("no uvm_populate for [%#lx, %#lx)", lo, hi);
	EXPECT_EQ(lo, f[0].addr);
	EXPECT_EQ(1, f[0].write);
	EXPECT_EQ(node, f[0].nid);
	EXPECT_LT(0, f[0].duration_ns);
	EXPECT_GT(10000000000L, f[0].duration_ns);	/* < 10 s */
	for (i = 0; i < np && i < 64; i++) {
		EXPECT_LE(1, pop[i].npages);
		EXPECT_LE(pop[i].addr + pop[i].npages * PAGE, hi);
		EXPECT_LE(0, pop[i].nid);
		total += pop[i].npages;
	}
	EXPECT_EQ(total, uvm_stat(self->fd, UVM_STAT_PAGES_POPULATED, UVM_STATS_VA_SPACE));
	munmap(p, len);
}

TEST_F(tr, prefetch_populate_and_migrate)
{
	size_t len = 64 * PAGE;
	char *p = uvm_map(self->fd, len);
	unsigned long lo = (unsigned long)p, hi = lo + len;
	struct ev m[64], pop[64];
	unsigned int moved = 0;
	int nm, np, i;

	ASSERT_NE(NULL, p);
	if (uvm_cpu_of_node(1) < 0)
		SKIP(return, "needs 2 NUMA nodes");
	/* Populate the first half on node 0, then move everything to node 1. */
	ASSERT_EQ(0, uvm_prefetch(self->fd, p, len / 2, UVM_LOC_HOST_NUMA, 0));
	ASSERT_EQ(0, uvm_prefetch(self->fd, p, len, UVM_LOC_HOST_NUMA, 1));
	self->trace = stop_and_read();
	ASSERT_NE(NULL, self->trace);
	np = find_events(self->trace, "uvm_populate", getpid(), lo, hi, pop, 64);
	nm = find_events(self->trace, "uvm_migrate", getpid(), lo, hi, m, 64);
	ASSERT_LE(2, np) TH_LOG("populate on node 0 and on node 1 expected");
	EXPECT_EQ(0, pop[0].nid);
	EXPECT_EQ(1, pop[np - 1].nid);
	ASSERT_LE(1, nm) TH_LOG("no uvm_migrate for [%#lx, %#lx)", lo, hi);
	for (i = 0; i < nm && i < 64; i++) {
		EXPECT_EQ(1, m[i].to_node);
		EXPECT_EQ(-1, m[i].to_dev);
		EXPECT_EQ(-1, m[i].from_dev);
		EXPECT_EQ(UVM_CAUSE_USER, m[i].cause);
		EXPECT_TRUE(m[i].from_node == 0 || m[i].from_node == -1)
			TH_LOG("from_node=%d", m[i].from_node);
		EXPECT_LT(0, m[i].duration_ns);
		EXPECT_GT(10000000000L, m[i].duration_ns);
		moved += m[i].npages;
	}
	EXPECT_EQ(len / 2 / PAGE, moved);
	EXPECT_EQ(moved, uvm_stat(self->fd, UVM_STAT_MIGRATE_H2H_PAGES, UVM_STATS_VA_SPACE));
	munmap(p, len);
}

/* Device-side events, when the module has them. */
TEST_F(tr, device_event_formats)
{
	static const char *const want[][6] = {
		{ "uvm_device_fault_batch", "pid", "device", "faults", "pages",
		  "duration_ns" },
		{ "uvm_evict", "pid", "addr", "npages", "device", "duration_ns" },
	};
	char path[128], buf[4096], pat[48];
	unsigned int i, j;
	ssize_t n;
	int fd;

	if (access(TRACEFS "/events/uvm/uvm_evict", F_OK))
		SKIP(return, "module without device-side tracepoints");
	for (i = 0; i < sizeof(want) / sizeof(want[0]); i++) {
		snprintf(path, sizeof(path), TRACEFS "/events/uvm/%s/format", want[i][0]);
		fd = open(path, O_RDONLY);
		ASSERT_LE(0, fd) TH_LOG("%s", path);
		n = read(fd, buf, sizeof(buf) - 1);
		close(fd);
		ASSERT_LT(0, n);
		buf[n] = 0;
		for (j = 1; j < 6; j++) {
			snprintf(pat, sizeof(pat), " %s;", want[i][j]);
			EXPECT_NE(NULL, strstr(buf, pat)) TH_LOG("%s: no field %s", want[i][0], want[i][j]);
		}
	}
}

/*
 * A prefetch to device 0, then a CPU read of the block: uvm_migrate from a
 * host node to device 0 caused by the prefetch, then from device 0 to a
 * host node caused by a CPU fault, each for the whole 2 MiB block (device
 * events may carry the block's address).
 */
TEST_F(tr, device_round_trip_migrates)
{
	size_t len = 2 * MIB;
	char *p = uvm_map(self->fd, len);
	unsigned long lo = (unsigned long)p, hi = lo + len;
	unsigned int to_dev = 0, to_host = 0;
	volatile char c;
	struct ev m[64];
	int nm, i, ret;

	ASSERT_NE(NULL, p);
	memset(p, 7, len);
	ret = uvm_prefetch(self->fd, p, len, UVM_LOC_DEVICE, 0);
	if (ret == -EOPNOTSUPP || ret == -ENODEV)
		SKIP(return, "no device residency (%s)", strerror(-ret));
	ASSERT_EQ(0, ret);
	c = p[0];
	ASSERT_EQ(7, c);
	self->trace = stop_and_read();
	ASSERT_NE(NULL, self->trace);
	nm = find_events(self->trace, "uvm_migrate", getpid(), lo, hi, m, 64);
	ASSERT_LE(2, nm) TH_LOG("%d uvm_migrate for [%#lx, %#lx)", nm, lo, hi);
	for (i = 0; i < nm && i < 64; i++) {
		EXPECT_LT(0, m[i].duration_ns);
		EXPECT_GT(10000000000L, m[i].duration_ns);
		if (m[i].to_dev == 0) {
			EXPECT_EQ(-1, m[i].from_dev);
			EXPECT_LE(0, m[i].from_node);	/* memset: one node */
			EXPECT_EQ(-1, m[i].to_node);
			EXPECT_EQ(UVM_CAUSE_USER, m[i].cause);
			to_dev += m[i].npages;
		} else {
			EXPECT_EQ(0, m[i].from_dev);
			EXPECT_EQ(-1, m[i].from_node);
			EXPECT_EQ(-1, m[i].to_dev);
			EXPECT_EQ(uvm_page_node(self->fd, p), m[i].to_node);
			EXPECT_EQ(UVM_CAUSE_CPU_FAULT, m[i].cause);
			to_host += m[i].npages;
		}
	}
	EXPECT_EQ(len / PAGE, to_dev);
	EXPECT_EQ(len / PAGE, to_host);
	munmap(p, len);
}

/* The first line of event @name for our pid and @addr; NULL if none. */
static const char *event_line(const char *trace, const char *name,
			      unsigned long addr)
{
	char tag[64], a[32];
	const char *l = trace, *e, *nl;

	snprintf(tag, sizeof(tag), " %s:", name);
	snprintf(a, sizeof(a), " addr=0x%lx", addr);
	for (; l && *l; l = nl ? nl + 1 : NULL) {
		nl = strchr(l, '\n');
		e = strstr(l, tag);
		if (!e || (nl && e > nl))
			continue;
		if (field(e, "pid", 10) != getpid())
			continue;
		e = strstr(e, a);
		if (e && (!nl || e < nl))
			return l;
	}
	return NULL;
}

/* Prefetch, read duplication (copy and collapse), remote map, discard. */
TEST_F(tr, policy_events_fire)
{
	unsigned char *p = uvm_map(self->fd, 2 * MIB), buf[64];
	const char *l;
	int dev = uvm_find_device(self->fd, 0, 0);

	ASSERT_NE(NULL, p);
	if (dev < 0)
		SKIP(return, "needs a device");
	ASSERT_EQ(0, uvm_prefetch(self->fd, p, PAGE, UVM_LOC_HOST_NUMA, 0));
	/* Read-mostly page: a device read copies, a CPU write collapses. */
	ASSERT_EQ(0, uvm_advise(self->fd, p, PAGE, UVM_ADVISE_SET_READ_MOSTLY, 0, 0));
	p[0] = 1;
	ASSERT_EQ(0, uvm_dev_read(self->fd, dev, p, 64, buf));
	p[1] = 2;
	/* Accessed-by page: the device maps the host page remotely. */
	ASSERT_EQ(0, uvm_advise(self->fd, p + MIB, PAGE, UVM_ADVISE_SET_ACCESSED_BY,
				UVM_LOC_DEVICE, dev));
	p[MIB] = 3;
	ASSERT_EQ(0, uvm_dev_read(self->fd, dev, p + MIB, 64, buf));
	ASSERT_EQ(0, uvm_discard(self->fd, p + MIB, PAGE, 0, 0, 0));
	self->trace = stop_and_read();
	ASSERT_NE(NULL, self->trace);

	l = event_line(self->trace, "uvm_prefetch", (unsigned long)p);
	ASSERT_NE(NULL, l);
	EXPECT_EQ(PAGE, field(strstr(l, "uvm_prefetch"), "length", 10));
	EXPECT_EQ(UVM_LOC_HOST_NUMA, field(strstr(l, "uvm_prefetch"), "type", 10));
	EXPECT_LE(0, field(strstr(l, "uvm_prefetch"), "duration_ns", 10));

	l = event_line(self->trace, "uvm_read_dup", (unsigned long)p);
	ASSERT_NE(NULL, l) TH_LOG("no uvm_read_dup copy");
	EXPECT_EQ(dev, field(strstr(l, "uvm_read_dup"), "device", 10));
	EXPECT_EQ(0, field(strstr(l, "uvm_read_dup"), "collapse", 10));
	l = strstr(self->trace, "collapse=1");
	EXPECT_NE(NULL, l) TH_LOG("no uvm_read_dup collapse");

	l = event_line(self->trace, "uvm_remote_map", (unsigned long)p + MIB);
	ASSERT_NE(NULL, l);
	EXPECT_EQ(dev, field(strstr(l, "uvm_remote_map"), "device", 10));
	EXPECT_EQ(-1, field(strstr(l, "uvm_remote_map"), "target", 10));

	l = event_line(self->trace, "uvm_discard", (unsigned long)p + MIB);
	ASSERT_NE(NULL, l);
	EXPECT_EQ(1, field(strstr(l, "uvm_discard"), "npages", 10));
	munmap(p, 2 * MIB);
}

TEST_HARNESS_MAIN
