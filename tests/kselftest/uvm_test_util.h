/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Helpers shared by the uvm kselftests: open the VA space, map managed
 * memory, call the ioctls, query residency.
 */
#ifndef UVM_TEST_UTIL_H
#define UVM_TEST_UTIL_H

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <sched.h>
#include <setjmp.h>
#include <signal.h>
#include <stdio.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "../../include/uapi/uvm.h"

#define PAGE		((size_t)sysconf(_SC_PAGESIZE))
#define MIB		(1024UL * 1024UL)

static inline int uvm_open(void)
{
	return open("/dev/uvm", O_RDWR | O_CLOEXEC);
}

static inline void *uvm_map(int fd, size_t size)
{
	void *p = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);

	return p == MAP_FAILED ? NULL : p;
}

/* ioctl returning 0 or -errno */
static inline int uvm_ioctl(int fd, unsigned long cmd, void *arg)
{
	return ioctl(fd, cmd, arg) ? -errno : 0;
}

static inline int uvm_prefetch(int fd, void *p, size_t len, uint32_t type,
			       int32_t id)
{
	struct uvm_prefetch a = {
		.addr = (uintptr_t)p, .length = len,
		.dst = { .type = type, .id = id },
	};

	return uvm_ioctl(fd, UVM_IOCTL_PREFETCH, &a);
}

static inline int uvm_advise(int fd, void *p, size_t len, uint32_t advice,
			     uint32_t type, int32_t id)
{
	struct uvm_advise a = {
		.addr = (uintptr_t)p, .length = len, .advice = advice,
		.loc = { .type = type, .id = id },
	};

	return uvm_ioctl(fd, UVM_IOCTL_ADVISE, &a);
}

static inline int uvm_attrs(int fd, void *p, size_t len,
			    struct uvm_range_attrs *a)
{
	memset(a, 0, sizeof(*a));
	a->addr = (uintptr_t)p;
	a->length = len;
	return uvm_ioctl(fd, UVM_IOCTL_RANGE_ATTRS, a);
}

static inline int uvm_residency(int fd, void *p, size_t npages,
				struct uvm_page_residency *out)
{
	struct uvm_residency a = {
		.addr = (uintptr_t)p, .npages = npages,
		.pages = (uintptr_t)out,
	};

	return uvm_ioctl(fd, UVM_IOCTL_RESIDENCY, &a);
}

/* Node of the host copy of the page at p, -1 if none, -2 on error. */
static inline int uvm_page_node(int fd, void *p)
{
	struct uvm_page_residency r;

	if (uvm_residency(fd, p, 1, &r))
		return -2;
	return r.cpu_node;
}

static inline uint64_t uvm_stat(int fd, unsigned int stat, unsigned int scope)
{
	uint64_t v[UVM_STAT_COUNT] = { 0 };
	struct uvm_stats a = {
		.values = (uintptr_t)v, .count = UVM_STAT_COUNT, .scope = scope,
	};

	if (uvm_ioctl(fd, UVM_IOCTL_STATS, &a))
		return UINT64_MAX;
	return v[stat];
}

/* move_pages(2) in query mode: node of each page, or -errno. */
static inline long uvm_move_pages_query(void *p, int *status)
{
	void *pages[1] = { p };

	return syscall(SYS_move_pages, 0, 1UL, pages, NULL, status, 0);
}

static inline int uvm_pin_cpu(int cpu)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	return sched_setaffinity(0, sizeof(set), &set);
}

/* The CPU whose node is @node (first one), -1 if none. */
static inline int uvm_cpu_of_node(int node)
{
	char path[96];
	int cpu;

	for (cpu = 0; cpu < 256; cpu++) {
		snprintf(path, sizeof(path),
			 "/sys/devices/system/cpu/cpu%d/node%d", cpu, node);
		if (access(path, F_OK) == 0)
			return cpu;
	}
	return -1;
}

/* The number in a sysfs file (a module parameter, a gauge), or -1. */
static inline long uvm_read_long(const char *path)
{
	FILE *f = fopen(path, "r");
	long v = -1;

	if (f) {
		if (fscanf(f, "%ld", &v) != 1)
			v = -1;
		fclose(f);
	}
	return v;
}

/* Write @s to a sysfs or proc file: 0 or -errno (e.g. -EINVAL). */
static inline int uvm_write_str(const char *path, const char *s)
{
	FILE *f = fopen(path, "w");
	int ret;

	if (!f)
		return -errno;
	ret = fputs(s, f) < 0 ? -EIO : 0;
	if (fclose(f))
		ret = -errno;
	return ret;
}

/* Write the number @v (a saved parameter back): 0 or -errno. */
static inline int uvm_write_long(const char *path, long v)
{
	char buf[32];

	snprintf(buf, sizeof(buf), "%ld", v);
	return uvm_write_str(path, buf);
}

/* Read one byte of every page in order, as a CPU loop over an array would. */
static inline void uvm_sweep_read(const char *p, size_t len)
{
	volatile char c;
	size_t i;

	for (i = 0; i < len; i += PAGE)
		c = p[i];
	(void)c;
}

static inline uint64_t uvm_rand64(uint64_t *s)
{
	*s ^= *s << 13;
	*s ^= *s >> 7;
	*s ^= *s << 17;
	return *s;
}

static inline unsigned char uvm_pattern(uint64_t seed, size_t i)
{
	return (unsigned char)((seed + i * 131 + (i >> 12)) & 0xff);
}

static inline void uvm_fill(void *p, size_t len, uint64_t seed)
{
	unsigned char *c = p;
	size_t i;

	for (i = 0; i < len; i++)
		c[i] = uvm_pattern(seed, i);
}

/* Check base[off, off + len) against the pattern uvm_fill(base, .., seed)
 * wrote; 0 if it matches, else 1 + the index of the first mismatch.
 */
static inline size_t uvm_check_off(const void *base, size_t off, size_t len,
				   uint64_t seed)
{
	const unsigned char *c = base;
	size_t i;

	for (i = off; i < off + len; i++)
		if (c[i] != uvm_pattern(seed, i))
			return i + 1;
	return 0;
}

static inline size_t uvm_check(const void *p, size_t len, uint64_t seed)
{
	return uvm_check_off(p, 0, len, seed);
}

/* Does touching *p (read, or write if @write) raise SIGSEGV or SIGBUS? */
static sigjmp_buf uvm_touch_env;

static inline void uvm_touch_handler(int sig)
{
	siglongjmp(uvm_touch_env, sig);
}

static inline int uvm_touch_faults(volatile char *p, int write)
{
	struct sigaction sa = { .sa_handler = uvm_touch_handler }, o1, o2;
	int sig;

	sigaction(SIGSEGV, &sa, &o1);
	sigaction(SIGBUS, &sa, &o2);
	sig = sigsetjmp(uvm_touch_env, 1);
	if (!sig) {
		if (write)
			*p = 1;
		else
			(void)*p;
	}
	sigaction(SIGSEGV, &o1, NULL);
	sigaction(SIGBUS, &o2, NULL);
	return sig;
}


/* --- devices --------------------------------------------------------- */

/* Device info by id; returns the number of devices. */
static inline int uvm_devices(int fd, struct uvm_device_info *out, int max)
{
	struct uvm_get_info gi = { .devices = (uintptr_t)out,
				   .devices_count = max };

	if (ioctl(fd, UVM_IOCTL_GET_INFO, &gi))
		return -errno;
	return gi.num_devices < (unsigned int)max ? (int)gi.num_devices : max;
}

/* Id of the n-th device of @backend (0: any), -1 if none. */
static inline int uvm_find_device(int fd, unsigned int backend, int n)
{
	struct uvm_device_info info[UVM_MAX_DEVICES];
	int i, count = uvm_devices(fd, info, UVM_MAX_DEVICES);

	for (i = 0; i < count; i++)
		if ((!backend || info[i].backend == backend) && n-- == 0)
			return (int)info[i].id;
	return -1;
}

/* Two devices: *@a a PCI one if there is one, *@b another (-1: none). */
static inline void uvm_two_devices(int fd, int *a, int *b)
{
	*a = uvm_find_device(fd, UVM_BACKEND_PCI_BAR, 0);
	if (*a < 0)
		*a = uvm_find_device(fd, 0, 0);
	*b = uvm_find_device(fd, 0, 0) == *a ? uvm_find_device(fd, 0, 1) :
					       uvm_find_device(fd, 0, 0);
}

static inline uint64_t uvm_dev_free(int fd, int id)
{
	struct uvm_device_info info[UVM_MAX_DEVICES];
	int i, count = uvm_devices(fd, info, UVM_MAX_DEVICES);

	for (i = 0; i < count; i++)
		if ((int)info[i].id == id)
			return info[i].mem_free;
	return 0;
}

static inline uint64_t uvm_dev_total(int fd, int id)
{
	struct uvm_device_info info[UVM_MAX_DEVICES];
	int i, count = uvm_devices(fd, info, UVM_MAX_DEVICES);

	for (i = 0; i < count; i++)
		if ((int)info[i].id == id)
			return info[i].mem_total;
	return 0;
}

/* One device access; returns 0 or -errno. */
static inline int uvm_dev_access(int fd, int dev, void *addr, size_t len,
				 uint32_t type, void *buf)
{
	struct uvm_access a = {
		.addr = (uintptr_t)addr, .length = len, .buf = (uintptr_t)buf,
		.type = type,
	};
	struct uvm_device_access da = {
		.device = dev, .count = 1, .accesses = (uintptr_t)&a,
	};

	return uvm_ioctl(fd, UVM_IOCTL_DEVICE_ACCESS, &da);
}

static inline int uvm_dev_read(int fd, int dev, void *addr, size_t len,
			       void *buf)
{
	return uvm_dev_access(fd, dev, addr, len, UVM_ACCESS_READ, buf);
}

static inline int uvm_dev_write(int fd, int dev, void *addr, size_t len,
				const void *buf)
{
	return uvm_dev_access(fd, dev, addr, len, UVM_ACCESS_WRITE, (void *)buf);
}

/* Device @dev reads @len bytes at @p and finds pattern @seed (1) or not (0). */
static inline int uvm_dev_sees(int fd, int dev, void *p, size_t len,
			       uint64_t seed)
{
	unsigned char *buf = malloc(len);
	int ok;

	ok = buf && !uvm_dev_read(fd, dev, p, len, buf) &&
	     !uvm_check(buf, len, seed);
	free(buf);
	return ok;
}

/* Device @dev writes pattern @seed over [p, p + len): 0 or -errno. */
static inline int uvm_dev_fills(int fd, int dev, void *p, size_t len,
				uint64_t seed)
{
	unsigned char *buf = malloc(len);
	int ret = -ENOMEM;

	if (buf) {
		uvm_fill(buf, len, seed);
		ret = uvm_dev_write(fd, dev, p, len, buf);
	}
	free(buf);
	return ret;
}

static inline int uvm_discard(int fd, void *p, size_t len, uint32_t flags,
			      uint32_t type, int32_t id)
{
	struct uvm_discard a = {
		.addr = (uintptr_t)p, .length = len, .flags = flags,
		.dst = { .type = type, .id = id },
	};

	return uvm_ioctl(fd, UVM_IOCTL_DISCARD, &a);
}

/* Residency of one page. */
static inline struct uvm_page_residency uvm_res1(int fd, void *p)
{
	struct uvm_page_residency r;

	memset(&r, 0xff, sizeof(r));
	uvm_residency(fd, p, 1, &r);
	return r;
}

/*
 * A CPU thread writing counters: n slots, one every 8 pages (each block
 * has slots to lose).
 */
struct uvm_writer {
	char *base;
	size_t n;
	volatile int stop;
	uint64_t last;
};

static inline volatile uint64_t *uvm_writer_slot(struct uvm_writer *w, size_t i)
{
	return (volatile uint64_t *)(w->base + i * 8 * PAGE);
}

/*
 * Increment every slot in turn until told to stop: a lost write shows as a
 * slot behind the number of rounds (later increments build on it).
 */
static inline void *uvm_write_counters(void *arg)
{
	struct uvm_writer *w = arg;
	uint64_t rounds = 0;
	size_t i;

	while (!w->stop) {
		for (i = 0; i < w->n; i++)
			*uvm_writer_slot(w, i) += 1;
		rounds++;
	}
	w->last = rounds;
	return NULL;
}

/* Stop the writer: the first slot behind its rounds, or w->n if none. */
static inline size_t uvm_writer_stop(struct uvm_writer *w, pthread_t t)
{
	size_t i;

	w->stop = 1;
	pthread_join(t, NULL);
	for (i = 0; i < w->n && *uvm_writer_slot(w, i) == w->last; i++)
		;
	return i;
}

#endif /* UVM_TEST_UTIL_H */
