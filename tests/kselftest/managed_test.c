// SPDX-License-Identifier: GPL-2.0
/*
 * Managed memory, host side: driver-owned VMAs, CPU faults, host NUMA
 * placement and migration, prefetch, advice, range attributes, residency.
 * Runs in the VM with 2 NUMA nodes.
 */
#include <pthread.h>
#include <stdio.h>
#include <sys/wait.h>

#include "kselftest_harness.h"
#include "uvm_test_util.h"

FIXTURE(va)
{
	int fd;
};

FIXTURE_SETUP(va)
{
	self->fd = uvm_open();
	ASSERT_LE(0, self->fd) TH_LOG("open /dev/uvm: %s", strerror(errno));
}

FIXTURE_TEARDOWN(va)
{
	close(self->fd);
}

TEST_F(va, map_sizes_zero_fill_and_data)
{
	static const size_t sizes[] = { 1, 3, 17, 512, 513, 4096 };
	unsigned int i;

	for (i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++) {
		size_t len = sizes[i] * PAGE;
		unsigned char *p = uvm_map(self->fd, len);
		size_t j;

		ASSERT_NE(NULL, p);
		for (j = 0; j < len; j += 997) {
			ASSERT_EQ(0, p[j]);
		}
		uvm_fill(p, len, i);
		ASSERT_EQ(0, uvm_check(p, len, i));
		ASSERT_EQ(0, munmap(p, len));
	}
}

TEST_F(va, large_ranges_are_2mib_aligned)
{
	size_t len = 64 * MIB + PAGE;
	char *p = uvm_map(self->fd, len);

	ASSERT_NE(NULL, p);
	EXPECT_EQ(0, (uintptr_t)p % (2 * MIB));
	p[len - 1] = 7;
	EXPECT_EQ(7, p[len - 1]);
	ASSERT_EQ(0, munmap(p, len));
}

TEST_F(va, private_mapping_and_offset_rejected)
{
	void *p;

	p = mmap(NULL, PAGE, PROT_READ | PROT_WRITE, MAP_PRIVATE, self->fd, 0);
	EXPECT_EQ(MAP_FAILED, p);
	EXPECT_EQ(EINVAL, errno);
	p = mmap(NULL, PAGE, PROT_READ | PROT_WRITE, MAP_SHARED, self->fd, PAGE);
	EXPECT_EQ(MAP_FAILED, p);
	EXPECT_EQ(EINVAL, errno);
}

TEST_F(va, mremap_cannot_move_or_grow_but_can_shrink)
{
	size_t len = 8 * PAGE;
	char *p = uvm_map(self->fd, len), *q;

	ASSERT_NE(NULL, p);
	memset(p, 3, len);
	q = mremap(p, len, 16 * PAGE, MREMAP_MAYMOVE);
	EXPECT_EQ(MAP_FAILED, q);
	q = mremap(p, len, 4 * PAGE, 0);
	ASSERT_EQ(p, q);
	EXPECT_EQ(3, p[4 * PAGE - 1]);
	EXPECT_EQ(SIGSEGV, uvm_touch_faults(p + 4 * PAGE, 0));
	ASSERT_EQ(0, munmap(p, 4 * PAGE));
}

TEST_F(va, fork_child_does_not_inherit)
{
	char *p = uvm_map(self->fd, PAGE);
	int status;
	pid_t pid;

	ASSERT_NE(NULL, p);
	p[0] = 1;
	pid = fork();
	ASSERT_LE(0, pid);
	if (!pid) {
		volatile char c = p[0];	/* VM_DONTCOPY: no mapping here */

		(void)c;
		_exit(0);
	}
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	EXPECT_TRUE(WIFSIGNALED(status));
	EXPECT_EQ(SIGSEGV, WTERMSIG(status));
	EXPECT_EQ(1, p[0]);
}

TEST_F(va, mprotect_is_honoured)
{
	char *p = uvm_map(self->fd, 2 * PAGE);

	ASSERT_NE(NULL, p);
	p[0] = 5;
	ASSERT_EQ(0, mprotect(p, 2 * PAGE, PROT_READ));
	EXPECT_EQ(SIGSEGV, uvm_touch_faults(p, 1));
	EXPECT_EQ(SIGSEGV, uvm_touch_faults(p + PAGE, 1));
	EXPECT_EQ(0, uvm_touch_faults(p + PAGE, 0));
	ASSERT_EQ(0, mprotect(p, 2 * PAGE, PROT_NONE));
	EXPECT_EQ(SIGSEGV, uvm_touch_faults(p, 0));
	ASSERT_EQ(0, mprotect(p, 2 * PAGE, PROT_READ | PROT_WRITE));
	EXPECT_EQ(5, p[0]);
	p[PAGE] = 6;
	EXPECT_EQ(6, p[PAGE]);
	munmap(p, 2 * PAGE);
}

TEST_F(va, partial_munmap_in_the_middle)
{
	size_t n = 1024, len = n * PAGE;
	char *p = uvm_map(self->fd, len);
	uint64_t freed0 = uvm_stat(self->fd, UVM_STAT_PAGES_FREED,
				   UVM_STATS_VA_SPACE);
	struct uvm_range_attrs a;

	ASSERT_NE(NULL, p);
	uvm_fill(p, len, 42);
	ASSERT_EQ(0, munmap(p + 100 * PAGE, 600 * PAGE));
	EXPECT_EQ(600, uvm_stat(self->fd, UVM_STAT_PAGES_FREED,
				UVM_STATS_VA_SPACE) - freed0);
	EXPECT_EQ(0, uvm_check(p, 100 * PAGE, 42));
	EXPECT_EQ(0, uvm_check_off(p, 700 * PAGE, 324 * PAGE, 42));
	EXPECT_EQ(SIGSEGV, uvm_touch_faults(p + 100 * PAGE, 0));
	EXPECT_EQ(-EINVAL, uvm_attrs(self->fd, p, len, &a));
	EXPECT_EQ(0, uvm_attrs(self->fd, p + 700 * PAGE, 324 * PAGE, &a));
	EXPECT_EQ(-EINVAL, uvm_prefetch(self->fd, p + 99 * PAGE, 2 * PAGE,
					UVM_LOC_HOST, 0));
	munmap(p, 100 * PAGE);
	munmap(p + 700 * PAGE, 324 * PAGE);
}

static int numa_nodes_with_cpus(void)
{
	return uvm_cpu_of_node(1) >= 0 ? 2 : 1;
}

TEST_F(va, first_touch_follows_cpu_node_then_preferred)
{
	size_t len = 64 * PAGE;
	char *p = uvm_map(self->fd, len);
	int node, status;

	ASSERT_NE(NULL, p);
	if (numa_nodes_with_cpus() < 2)
		SKIP(return, "needs 2 NUMA nodes with CPUs");
	for (node = 0; node < 2; node++) {
		char *q = p + node * 32 * PAGE;

		ASSERT_EQ(0, uvm_pin_cpu(uvm_cpu_of_node(node)));
		q[0] = 1;
		EXPECT_EQ(node, uvm_page_node(self->fd, q));
		ASSERT_EQ(0, uvm_move_pages_query(q, &status));
		EXPECT_EQ(node, status);
	}
	/* Preferred location node 1 wins over the faulting CPU on node 0. */
	ASSERT_EQ(0, uvm_pin_cpu(uvm_cpu_of_node(0)));
	char *r = uvm_map(self->fd, len);

	ASSERT_NE(NULL, r);
	ASSERT_EQ(0, uvm_advise(self->fd, r, len,
				UVM_ADVISE_SET_PREFERRED_LOCATION,
				UVM_LOC_HOST_NUMA, 1));
	r[5 * PAGE] = 1;
	EXPECT_EQ(1, uvm_page_node(self->fd, r + 5 * PAGE));
	munmap(r, len);
	munmap(p, len);
}

TEST_F(va, prefetch_between_nodes_is_byte_exact)
{
	size_t len = 8 * MIB;
	unsigned char *p = uvm_map(self->fd, len);
	uint64_t seed = 0x1234567, h2h0;
	int round, status;

	ASSERT_NE(NULL, p);
	if (numa_nodes_with_cpus() < 2)
		SKIP(return, "needs 2 NUMA nodes");
	/* Leave some pages unpopulated: fill only every other 256 KiB. */
	for (size_t off = 0; off < len; off += 512 * 1024)
		uvm_fill(p + off, 256 * 1024, off);
	h2h0 = uvm_stat(self->fd, UVM_STAT_MIGRATE_H2H_PAGES, UVM_STATS_VA_SPACE);
	for (round = 0; round < 12; round++) {
		size_t off = uvm_rand64(&seed) % len;
		size_t n = 1 + uvm_rand64(&seed) % (len - off);
		int node = round & 1;
		size_t i;

		ASSERT_EQ(0, uvm_prefetch(self->fd, p + off, n,
					  UVM_LOC_HOST_NUMA, node));
		for (i = off & ~(PAGE - 1); i < off + n; i += 61 * PAGE) {
			EXPECT_EQ(node, uvm_page_node(self->fd, p + i));
		}
		ASSERT_EQ(0, uvm_move_pages_query(p + (off & ~(PAGE - 1)), &status));
		EXPECT_TRUE(status == node || status == -ENOENT);
	}
	for (size_t off = 0; off < len; off += 512 * 1024) {
		EXPECT_EQ(0, uvm_check(p + off, 256 * 1024, off));
		for (size_t i = 256 * 1024; i < 512 * 1024; i += 4096) {
			ASSERT_EQ(0, p[off + i]);
		}
	}
	EXPECT_LT(h2h0, uvm_stat(self->fd, UVM_STAT_MIGRATE_H2H_PAGES,
				 UVM_STATS_VA_SPACE));
	munmap(p, len);
}

TEST_F(va, prefetch_populates_unpopulated_pages_at_destination)
{
	size_t n = 700, len = n * PAGE;
	struct uvm_page_residency *r = calloc(n, sizeof(*r));
	char *p = uvm_map(self->fd, len);
	size_t i;

	ASSERT_NE(NULL, p);
	ASSERT_NE(NULL, r);
	ASSERT_EQ(0, uvm_residency(self->fd, p, n, r));
	for (i = 0; i < n; i++) {
		EXPECT_EQ(0, r[i].flags);
		EXPECT_EQ(-1, r[i].cpu_node);
	}
	ASSERT_EQ(0, uvm_prefetch(self->fd, p + 1, len - 2,
				  UVM_LOC_HOST_NUMA, 1));
	ASSERT_EQ(0, uvm_residency(self->fd, p, n, r));
	for (i = 0; i < n; i++) {
		EXPECT_TRUE(r[i].flags & UVM_PAGE_POPULATED);
		EXPECT_EQ(1, r[i].cpu_node);
		/* Mapped by the prefetch, as CUDA does. */
		EXPECT_TRUE(r[i].flags & UVM_PAGE_CPU_MAPPED);
	}
	for (i = 0; i < len; i += 509) {
		ASSERT_EQ(0, p[i]);
	}
	free(r);
	munmap(p, len);
}

/*
 * Real CUDA maps every page it moves to the CPU: after a prefetch to Host,
 * HostNuma or HostNumaCurrent, move_pages(2) reports each page's node (not
 * -ENOENT) and the CPU's touch takes no fault.
 */
TEST_F(va, prefetch_to_host_maps_the_pages)
{
	static const uint32_t types[] = {
		UVM_LOC_HOST_NUMA, UVM_LOC_HOST_NUMA_CURRENT, UVM_LOC_HOST,
	};
	size_t len = 3 * MIB, i;
	char *p = uvm_map(self->fd, len);
	uint64_t faults;
	unsigned int t;
	int status;

	ASSERT_NE(NULL, p);
	uvm_fill(p, len, 9);
	for (t = 0; t < 3; t++) {
		/* The other node first: every page moves. */
		ASSERT_EQ(0, uvm_prefetch(self->fd, p, len, UVM_LOC_HOST_NUMA,
					  types[t] != UVM_LOC_HOST_NUMA));
		ASSERT_EQ(0, uvm_prefetch(self->fd, p, len, types[t],
					  types[t] == UVM_LOC_HOST_NUMA));
		faults = uvm_stat(self->fd, UVM_STAT_CPU_FAULTS,
				  UVM_STATS_VA_SPACE);
		for (i = 0; i < len; i += PAGE) {
			status = -100;
			ASSERT_EQ(0, uvm_move_pages_query(p + i, &status));
			ASSERT_LE(0, status) TH_LOG("page %zu: %d", i / PAGE,
						    status);
		}
		EXPECT_EQ(0, uvm_check(p, len, 9));
		p[0] ^= 1;		/* writable too */
		p[0] ^= 1;
		EXPECT_EQ(faults, uvm_stat(self->fd, UVM_STAT_CPU_FAULTS,
					   UVM_STATS_VA_SPACE));
	}
	munmap(p, len);
}

TEST_F(va, residency_reports_cpu_mapping_and_write)
{
	char *p = uvm_map(self->fd, 4 * PAGE);
	struct uvm_page_residency r[4];
	volatile char c;

	ASSERT_NE(NULL, p);
	c = p[0];
	(void)c;
	p[2 * PAGE] = 1;
	ASSERT_EQ(0, uvm_residency(self->fd, p, 4, r));
	EXPECT_TRUE(r[0].flags & UVM_PAGE_CPU_MAPPED);
	EXPECT_FALSE(r[0].flags & UVM_PAGE_CPU_WRITABLE);
	EXPECT_TRUE(r[2].flags & UVM_PAGE_CPU_WRITABLE);
	munmap(p, 4 * PAGE);
}

TEST_F(va, advice_on_sub_ranges_and_mixed_attributes)
{
	size_t len = 256 * PAGE, half = len / 2;
	char *p = uvm_map(self->fd, len);
	struct uvm_range_attrs a;

	ASSERT_NE(NULL, p);
	ASSERT_EQ(0, uvm_attrs(self->fd, p, len, &a));
	EXPECT_EQ(0, a.read_mostly);
	EXPECT_EQ(UVM_LOC_NONE, a.preferred.type);
	EXPECT_EQ(UVM_LOC_NONE, a.last_prefetch.type);
	EXPECT_EQ(0, a.accessed_by_devices);
	EXPECT_EQ(0, a.accessed_by_host);

	ASSERT_EQ(0, uvm_advise(self->fd, p, half,
				UVM_ADVISE_SET_PREFERRED_LOCATION,
				UVM_LOC_HOST_NUMA, 1));
	ASSERT_EQ(0, uvm_attrs(self->fd, p, half, &a));
	EXPECT_EQ(UVM_LOC_HOST_NUMA, a.preferred.type);
	EXPECT_EQ(1, a.preferred.id);
	ASSERT_EQ(0, uvm_attrs(self->fd, p, len, &a));
	EXPECT_EQ(UVM_LOC_NONE, a.preferred.type);
	ASSERT_EQ(0, uvm_advise(self->fd, p + half, half,
				UVM_ADVISE_SET_PREFERRED_LOCATION,
				UVM_LOC_HOST_NUMA, 1));
	ASSERT_EQ(0, uvm_attrs(self->fd, p, len, &a));
	EXPECT_EQ(UVM_LOC_HOST_NUMA, a.preferred.type);
	ASSERT_EQ(0, uvm_advise(self->fd, p + 3, 1,
				UVM_ADVISE_UNSET_PREFERRED_LOCATION, 0, 0));
	ASSERT_EQ(0, uvm_attrs(self->fd, p, PAGE, &a));
	EXPECT_EQ(UVM_LOC_NONE, a.preferred.type);
	ASSERT_EQ(0, uvm_attrs(self->fd, p + PAGE, len - PAGE, &a));
	EXPECT_EQ(UVM_LOC_HOST_NUMA, a.preferred.type);

	/* Read-mostly on a middle slice only. */
	ASSERT_EQ(0, uvm_advise(self->fd, p + 10 * PAGE, 20 * PAGE,
				UVM_ADVISE_SET_READ_MOSTLY, 0, 0));
	ASSERT_EQ(0, uvm_attrs(self->fd, p + 10 * PAGE, 20 * PAGE, &a));
	EXPECT_EQ(1, a.read_mostly);
	ASSERT_EQ(0, uvm_attrs(self->fd, p + 9 * PAGE, 20 * PAGE, &a));
	EXPECT_EQ(0, a.read_mostly);
	ASSERT_EQ(0, uvm_advise(self->fd, p, len,
				UVM_ADVISE_UNSET_READ_MOSTLY, 0, 0));
	ASSERT_EQ(0, uvm_attrs(self->fd, p + 10 * PAGE, 20 * PAGE, &a));
	EXPECT_EQ(0, a.read_mostly);

	/* Accessed-by the CPU on part, then all. */
	ASSERT_EQ(0, uvm_advise(self->fd, p, half, UVM_ADVISE_SET_ACCESSED_BY,
				UVM_LOC_HOST, 0));
	ASSERT_EQ(0, uvm_attrs(self->fd, p, len, &a));
	EXPECT_EQ(0, a.accessed_by_host);
	ASSERT_EQ(0, uvm_attrs(self->fd, p, half, &a));
	EXPECT_EQ(1, a.accessed_by_host);
	ASSERT_EQ(0, uvm_advise(self->fd, p, len, UVM_ADVISE_UNSET_ACCESSED_BY,
				UVM_LOC_HOST, 0));
	ASSERT_EQ(0, uvm_attrs(self->fd, p, half, &a));
	EXPECT_EQ(0, a.accessed_by_host);

	/* Last prefetch: uniform, then mixed; HOST vs HOST_NUMA distinct. */
	ASSERT_EQ(0, uvm_prefetch(self->fd, p, len, UVM_LOC_HOST, 0));
	ASSERT_EQ(0, uvm_attrs(self->fd, p, len, &a));
	EXPECT_EQ(UVM_LOC_HOST, a.last_prefetch.type);
	ASSERT_EQ(0, uvm_prefetch(self->fd, p, PAGE, UVM_LOC_HOST_NUMA, 0));
	ASSERT_EQ(0, uvm_attrs(self->fd, p, len, &a));
	EXPECT_EQ(UVM_LOC_NONE, a.last_prefetch.type);
	ASSERT_EQ(0, uvm_attrs(self->fd, p, PAGE, &a));
	EXPECT_EQ(UVM_LOC_HOST_NUMA, a.last_prefetch.type);
	EXPECT_EQ(0, a.last_prefetch.id);
	munmap(p, len);
}

TEST_F(va, host_numa_current_resolves_to_callers_node)
{
	char *p = uvm_map(self->fd, 4 * PAGE);
	struct uvm_range_attrs a;
	int node = numa_nodes_with_cpus() - 1;

	ASSERT_NE(NULL, p);
	ASSERT_EQ(0, uvm_pin_cpu(uvm_cpu_of_node(node)));
	ASSERT_EQ(0, uvm_prefetch(self->fd, p, 4 * PAGE,
				  UVM_LOC_HOST_NUMA_CURRENT, 0));
	ASSERT_EQ(0, uvm_attrs(self->fd, p, 4 * PAGE, &a));
	/* recorded as asked, with the node it resolved to */
	EXPECT_EQ(UVM_LOC_HOST_NUMA_CURRENT, a.last_prefetch.type);
	EXPECT_EQ(node, a.last_prefetch.id);
	EXPECT_EQ(node, uvm_page_node(self->fd, p + 3 * PAGE));
	munmap(p, 4 * PAGE);
}

struct hammer {
	int fd;
	unsigned char *p;
	size_t len;
	int id;
	int errors;
};

static void *hammer_thread(void *arg)
{
	struct hammer *h = arg;
	uint64_t seed = 0x9e3779b97f4a7c15ULL * (h->id + 1);
	size_t slice = h->len / 8, i, it;
	unsigned char *mine = h->p + h->id * slice;

	for (it = 0; it < 24; it++) {
		size_t off = uvm_rand64(&seed) % h->len;
		size_t n = 1 + uvm_rand64(&seed) % (h->len - off);

		if (uvm_prefetch(h->fd, h->p + off, n, UVM_LOC_HOST_NUMA,
				 (int)(uvm_rand64(&seed) & 1)))
			h->errors++;
		for (i = 0; i < slice; i += PAGE / 2)
			mine[i] = (unsigned char)(h->id * 31 + it + i / PAGE);
		for (i = 0; i < slice; i += PAGE / 2)
			if (mine[i] != (unsigned char)(h->id * 31 + it + i / PAGE))
				h->errors++;
		/* Read the neighbours' slices too: faults on shared blocks. */
		for (i = 0; i < h->len; i += 3 * PAGE)
			(void)*(volatile unsigned char *)(h->p + i);
	}
	return NULL;
}

TEST_F(va, eight_threads_fault_and_prefetch_one_range)
{
	size_t len = 16 * MIB;
	unsigned char *p = uvm_map(self->fd, len);
	struct hammer h[8];
	pthread_t t[8];
	int i;

	ASSERT_NE(NULL, p);
	for (i = 0; i < 8; i++) {
		h[i] = (struct hammer){ self->fd, p, len, i, 0 };
		ASSERT_EQ(0, pthread_create(&t[i], NULL, hammer_thread, &h[i]));
	}
	for (i = 0; i < 8; i++) {
		pthread_join(t[i], NULL);
		EXPECT_EQ(0, h[i].errors) TH_LOG("thread %d", i);
	}
	munmap(p, len);
}

/* The fault granule in pages (module parameter fault_granule_kb). */
static size_t granule_pages(void)
{
	long kb = uvm_read_long("/sys/module/uvm/parameters/fault_granule_kb");

	return (kb > 0 ? kb : 64) * 1024 / PAGE;
}

/* A write fault maps its whole granule writable: the rest of it is free. */
TEST_F(va, write_fault_maps_granule_writable)
{
	size_t g = granule_pages(), i;
	char *p = uvm_map(self->fd, 2 * MIB);
	struct uvm_page_residency r[512];
	uint64_t f0, m0;

	ASSERT_NE(NULL, p);
	ASSERT_LE(g, 512);
	p[0] = 1;
	f0 = uvm_stat(self->fd, UVM_STAT_CPU_FAULTS, UVM_STATS_VA_SPACE);
	m0 = uvm_stat(self->fd, UVM_STAT_CPU_MKWRITE, UVM_STATS_VA_SPACE);
	for (i = 1; i < g; i++)
		p[i * PAGE] = (char)i;
	EXPECT_EQ(f0, uvm_stat(self->fd, UVM_STAT_CPU_FAULTS,
			       UVM_STATS_VA_SPACE));
	EXPECT_EQ(m0, uvm_stat(self->fd, UVM_STAT_CPU_MKWRITE,
			       UVM_STATS_VA_SPACE));
	ASSERT_EQ(0, uvm_residency(self->fd, p, g + 1, r));
	for (i = 0; i < g; i++) {
		EXPECT_TRUE(r[i].flags & UVM_PAGE_CPU_WRITABLE);
	}
	if (g < 512)	/* the next granule is untouched */
		EXPECT_FALSE(r[g].flags & UVM_PAGE_POPULATED);
	for (i = 1; i < g; i++) {
		ASSERT_EQ((char)i, p[i * PAGE]);
	}
	munmap(p, 2 * MIB);
}

/* MADV_DONTNEED drops PTEs only: a shared mapping keeps its data. */
TEST_F(va, madv_dontneed_keeps_data)
{
	size_t len = 64 * PAGE;
	char *p = uvm_map(self->fd, len);

	ASSERT_NE(NULL, p);
	uvm_fill(p, len, 7);
	ASSERT_EQ(0, madvise(p, len, MADV_DONTNEED));
	EXPECT_EQ(0, uvm_check(p, len, 7));
	uvm_fill(p, len, 8);
	ASSERT_EQ(0, madvise(p + 8 * PAGE, 8 * PAGE, MADV_DONTNEED));
	EXPECT_EQ(0, uvm_check(p, len, 8));
	munmap(p, len);
}

/* The VmFlags of the VMA at @p in /proc/self/smaps, into @flags. */
static int vma_flags(const void *p, char *flags, size_t size)
{
	unsigned long start, end, want = (unsigned long)p;
	FILE *f = fopen("/proc/self/smaps", "r");
	char line[512];
	bool in = false;

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f)) {
		if (sscanf(line, "%lx-%lx ", &start, &end) == 2)
			in = start <= want && want < end;
		else if (in && !strncmp(line, "VmFlags:", 8)) {
			snprintf(flags, size, "%s", line + 8);
			fclose(f);
			return 0;
		}
	}
	fclose(f);
	return -1;
}

/*
 * Managed VMAs carry VM_SEQ_READ ("sr"), so zaps skip the access
 * recency of pages that are on no LRU; a user's MADV_NORMAL clears it and
 * changes nothing but speed.
 */
TEST_F(va, vma_has_no_recency_and_madv_normal_is_harmless)
{
	size_t len = 64 * PAGE;
	char *p = uvm_map(self->fd, len), flags[512];

	ASSERT_NE(NULL, p);
	ASSERT_EQ(0, vma_flags(p, flags, sizeof(flags)));
	EXPECT_NE(NULL, strstr(flags, " sr")) TH_LOG("VmFlags:%s", flags);
	uvm_fill(p, len, 3);
	ASSERT_EQ(0, madvise(p, len, MADV_NORMAL));
	ASSERT_EQ(0, vma_flags(p, flags, sizeof(flags)));
	EXPECT_EQ(NULL, strstr(flags, " sr")) TH_LOG("VmFlags:%s", flags);
	EXPECT_EQ(0, uvm_prefetch(self->fd, p, len, UVM_LOC_HOST_NUMA, 1));
	EXPECT_EQ(0, uvm_check(p, len, 3));
	munmap(p, len);
}

TEST_F(va, stats_count_faults_and_population)
{
	uint64_t f0 = uvm_stat(self->fd, UVM_STAT_CPU_FAULTS, UVM_STATS_VA_SPACE);
	uint64_t p0 = uvm_stat(self->fd, UVM_STAT_PAGES_POPULATED,
			       UVM_STATS_VA_SPACE);
	char *p = uvm_map(self->fd, 32 * PAGE);
	uint64_t g;

	ASSERT_NE(NULL, p);
	memset(p, 1, 32 * PAGE);
	EXPECT_LT(f0, uvm_stat(self->fd, UVM_STAT_CPU_FAULTS, UVM_STATS_VA_SPACE));
	EXPECT_EQ(32, uvm_stat(self->fd, UVM_STAT_PAGES_POPULATED,
			       UVM_STATS_VA_SPACE) - p0);
	g = uvm_stat(self->fd, UVM_STAT_PAGES_POPULATED, UVM_STATS_GLOBAL);
	EXPECT_LE(32, g);
	munmap(p, 32 * PAGE);
}

TEST_F(va, process_exit_frees_everything)
{
	uint64_t freed0 = uvm_stat(self->fd, UVM_STAT_PAGES_FREED, UVM_STATS_GLOBAL);
	int status;
	pid_t pid = fork();

	ASSERT_LE(0, pid);
	if (!pid) {
		int fd = uvm_open();
		char *p = uvm_map(fd, 4 * MIB);

		if (!p)
			_exit(1);
		memset(p, 9, 4 * MIB);
		_exit(0);	/* no munmap, no close */
	}
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	ASSERT_TRUE(WIFEXITED(status));
	ASSERT_EQ(0, WEXITSTATUS(status));
	EXPECT_LE(1024, uvm_stat(self->fd, UVM_STAT_PAGES_FREED,
				 UVM_STATS_GLOBAL) - freed0);
}

TEST_HARNESS_MAIN
