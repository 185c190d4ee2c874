// SPDX-License-Identifier: GPL-2.0
/*
 * pte_cost - what mapping and unmapping a page costs against copying it,
 * on this CPU, from user space (no module needed): the calibration behind
 * docs/benchmarks.md's "Mapping after a prefetch to the host".
 *
 * copy:  memcpy() of prefaulted 4 KiB pages, one thread (copy_highpage()).
 * map:   MADV_POPULATE_READ of a MAP_SHARED mapping of a populated memfd:
 *        the kernel maps resident page-cache pages 16 at a time (fault
 *        around): per page a folio reference, an rmap and a counter update
 *        and a PTE store, as vm_insert_pages() does per page.
 * unmap: munmap() of that mapping: the zap, one TLB flush.
 * Prints ns per 4 KiB page for each, and map/copy, unmap/copy.
 *
 * Usage: pte_cost [MiB] (default 64); builds with cc -O2.
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#ifndef MADV_POPULATE_READ
#define MADV_POPULATE_READ 22
#endif

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec * 1e-9;
}

static int cmp(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

int main(int argc, char **argv)
{
	size_t mib = argc > 1 ? strtoul(argv[1], NULL, 0) : 64;
	size_t len = mib << 20, pages = len / 4096, i;
	double cp[7], mp[7], um[7], t;
	int fd, r;
	char *a = mmap(NULL, len, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	char *b = mmap(NULL, len, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	fd = memfd_create("pte_cost", 0);
	if (a == MAP_FAILED || b == MAP_FAILED || fd < 0 ||
	    ftruncate(fd, len)) {
		perror("pte_cost: setup");
		return 1;
	}
	madvise(a, len, MADV_NOHUGEPAGE);
	madvise(b, len, MADV_NOHUGEPAGE);
	memset(a, 1, len);
	memset(b, 2, len);
	for (r = 0; r < 7; r++) {
		char *m;

		t = now();
		for (i = 0; i < pages; i++)
			memcpy(b + i * 4096, a + i * 4096, 4096);
		cp[r] = (now() - t) / pages * 1e9;

		m = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
		if (m == MAP_FAILED) {
			perror("pte_cost: mmap");
			return 1;
		}
		if (r == 0)
			memset(m, 3, len);	/* populate the page cache */
		else if (madvise(m, len, MADV_POPULATE_READ))
			perror("pte_cost: MADV_POPULATE_READ");
		t = now();
		munmap(m, len);
		um[r] = (now() - t) / pages * 1e9;
		m = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
		t = now();
		if (madvise(m, len, MADV_POPULATE_READ))
			perror("pte_cost: MADV_POPULATE_READ");
		mp[r] = (now() - t) / pages * 1e9;
		munmap(m, len);
	}
	/* Rep 0 warmed up: medians of reps 1..6. */
	qsort(cp + 1, 6, sizeof(double), cmp);
	qsort(mp + 1, 6, sizeof(double), cmp);
	qsort(um + 1, 6, sizeof(double), cmp);
	printf("pte_cost: %zu MiB, ns per 4 KiB page (median of 6): copy %.0f, map %.0f, unmap %.0f; map/copy %.2f, unmap/copy %.2f\n",
	       mib, cp[3], mp[3], um[3], mp[3] / cp[3], um[3] / cp[3]);
	return 0;
}
