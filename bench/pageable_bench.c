// SPDX-License-Identifier: GPL-2.0
// BENCH-KERNEL: sid debug
/*
 * Pageable memory at the migration level (issue 21) against Linux's own
 * peer, lib/test_hmm's dmirror, in the same VM run. It needs a kernel with
 * DEVICE_PRIVATE and test_hmm.ko: Debian's newest kernel (sid), for which
 * scripts/test-hmm builds test_hmm.ko from that kernel's source package,
 * and the debug kernel, which builds it (its checks, KASAN, lockdep, slow
 * both sides alike); scripts/bench runs the benchmarks naming a
 * BENCH-KERNEL on those kernels only. Both "devices" keep their memory in host RAM (our emulated device;
 * dmirror's pages each backed by a host page), so the figures compare the
 * two mechanisms:
 *
 *   pageable_to_device_<N>MiB   anonymous memory (populated by the CPU)
 *                               moved to the device: ours UVM_IOCTL_PREFETCH;
 *                               dmirror's HMM_DMIRROR_MIGRATE_TO_DEV, less
 *                               the read-back it does of every page (timed
 *                               alone right after, as HMM_DMIRROR_READ of
 *                               the same, now device-resident, pages). GB/s,
 *                               ours / dmirror's (goal >= 2)
 *   pageable_faultback_<N>MiB   the CPU reads one byte per page of memory
 *                               on the device: every CPU fault migrates it
 *                               home (ours the fault's aligned 64 KiB,
 *                               dmirror's a page). GB/s, ours / dmirror's
 *                               (goal >= 2)
 *   pageable_device_read_<N>MiB the device reads the device-resident range
 *                               into a user buffer (faults mapping it on
 *                               the first pass are not timed): ours
 *                               UVM_IOCTL_DEVICE_ACCESS, dmirror's
 *                               HMM_DMIRROR_READ. GB/s, informational
 *
 * Each figure is the median of RUNS runs after one warm-up run (dmirror
 * registers its device memory on its first migration); dmirror's and our
 * runs alternate, and NUMA balancing is off while they run (see below). Without
 * DEVICE_PRIVATE or test_hmm the benchmark prints why and reports nothing.
 */
#include <errno.h>
#include <stdbool.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <uapi/uvm.h>

#define BENCH_NAME "pageable_bench"
#include "bench_common.h"

#define RUNS	7
#define MIB	(1024UL * 1024)

/* lib/test_hmm_uapi.h (the kernel's, not installed) */
struct hmm_dmirror_cmd {
	uint64_t addr;
	uint64_t ptr;
	uint64_t npages;
	uint64_t cpages;
	uint64_t faults;
};

#define HMM_DMIRROR_READ		_IOWR('H', 0x00, struct hmm_dmirror_cmd)
#define HMM_DMIRROR_MIGRATE_TO_DEV	_IOWR('H', 0x02, struct hmm_dmirror_cmd)

static long page_size;
static int uvm_fd, hmm_fd;
static uint32_t dev_id;

static char *anon(size_t len)
{
	char *p = mmap(NULL, len, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	if (p == MAP_FAILED)
		die("mmap");
	madvise(p, len, MADV_NOHUGEPAGE);
	return p;
}

struct times {
	double to_dev;
	double back;
	double read;
};

static void dev_read(char *p, size_t len, char *out)
{
	struct uvm_access a = {
		.addr = (uintptr_t)p, .length = len, .buf = (uintptr_t)out,
		.type = UVM_ACCESS_READ,
	};
	struct uvm_device_access da = {
		.device = dev_id, .count = 1, .accesses = (uintptr_t)&a,
	};

	if (ioctl(uvm_fd, UVM_IOCTL_DEVICE_ACCESS, &da))
		die("UVM_IOCTL_DEVICE_ACCESS");
}

/* Ours: prefetch to the device; the device's read timed apart. */
static bool ours_to_device(char *p, size_t len, char *out, struct times *t)
{
	struct uvm_prefetch pf = {
		.addr = (uintptr_t)p, .length = len,
		.dst = { .type = UVM_LOC_DEVICE, .id = (int32_t)dev_id },
	};
	double t0 = now();

	if (ioctl(uvm_fd, UVM_IOCTL_PREFETCH, &pf))
		die("UVM_IOCTL_PREFETCH");
	t->to_dev = now() - t0;
	dev_read(p, len, out);		/* maps it: faults, not timed */
	t0 = now();
	dev_read(p, len, out);
	t->read = now() - t0;
	return true;
}

/*
 * One dmirror command; false for a MIGRATE_TO_DEV that failed with ENOENT:
 * dmirror reads every page back after migrating and fails when one did not
 * move (a page the kernel would not migrate just then): the run is redone.
 */
static bool hmm_cmd(unsigned long cmd, char *p, size_t len, char *out,
		    const char *what)
{
	struct hmm_dmirror_cmd c = {
		.addr = (uintptr_t)p, .ptr = (uintptr_t)out,
		.npages = len / page_size,
	};

	if (ioctl(hmm_fd, cmd, &c)) {
		if (cmd == HMM_DMIRROR_MIGRATE_TO_DEV && errno == ENOENT)
			return false;
		die(what);
	}
	if (cmd == HMM_DMIRROR_MIGRATE_TO_DEV && c.cpages != c.npages) {
		fprintf(stderr, "%s: dmirror migrated %llu of %llu pages\n",
			BENCH_NAME, (unsigned long long)c.cpages,
			(unsigned long long)c.npages);
		exit(1);
	}
	return true;
}

/* dmirror: migrate (with its read-back), then the read-back alone. */
static bool hmm_to_device(char *p, size_t len, char *out, struct times *t)
{
	double t0 = now();

	if (!hmm_cmd(HMM_DMIRROR_MIGRATE_TO_DEV, p, len, out,
		     "HMM_DMIRROR_MIGRATE_TO_DEV"))
		return false;
	t->to_dev = now() - t0;
	t0 = now();
	hmm_cmd(HMM_DMIRROR_READ, p, len, out, "HMM_DMIRROR_READ");
	t->read = now() - t0;
	t->to_dev = t->to_dev > t->read ? t->to_dev - t->read : t->to_dev;
	return true;
}

/* Move to the device and read it there; false: redo the run. */
typedef bool (*to_dev_fn)(char *p, size_t len, char *out, struct times *t);

/*
 * One run: populate, move to the device and read it there, check the data,
 * then fault it home with the CPU.
 */
static void one_run(to_dev_fn fn, size_t len, int seed, struct times *t)
{
	char *p = anon(len), *out = anon(len);
	volatile char sink = 0;
	int tries = 0;
	double t0;
	size_t i;

	memset(p, seed, len);
	memset(out, 0, len);
	while (!fn(p, len, out, t)) {
		munmap(p, len);
		if (++tries == 5)
			die("dmirror's MIGRATE_TO_DEV failed 5 times (ENOENT)");
		p = anon(len);
		memset(p, seed, len);
	}
	if (out[0] != (char)seed || out[len - 1] != (char)seed)
		die("data read back from the device");
	t0 = now();
	for (i = 0; i < len; i += page_size)
		sink += p[i];
	t->back = now() - t0;
	if (sink != (char)(seed * (len / page_size)))
		die("data faulted back");
	munmap(p, len);
	munmap(out, len);
}

/*
 * Median GB/s of the figures over RUNS runs of each side, after a warm-up
 * of each; the two sides' runs alternate, so a slow spell of the emulator
 * (the host is shared) falls on both.
 */
static void measure(size_t len, struct times *ours, struct times *hmm)
{
	static const to_dev_fn fns[2] = { hmm_to_device, ours_to_device };
	double to[2][RUNS], back[2][RUNS], rd[2][RUNS];
	struct times *gbs[2] = { hmm, ours };
	struct times t;
	int r, s;

	for (s = 0; s < 2; s++)
		one_run(fns[s], len, 1, &t);
	for (r = 0; r < RUNS; r++) {
		for (s = 0; s < 2; s++) {
			one_run(fns[s], len, r + 2, &t);
			to[s][r] = len / t.to_dev / 1e9;
			back[s][r] = len / t.back / 1e9;
			rd[s][r] = len / t.read / 1e9;
		}
	}
	for (s = 0; s < 2; s++) {
		gbs[s]->to_dev = median(to[s], RUNS);
		gbs[s]->back = median(back[s], RUNS);
		gbs[s]->read = median(rd[s], RUNS);
	}
}

/* The emulated device if there is one (RAM, like dmirror's), else the first. */
static int pick_device(void)
{
	struct uvm_device_info info[UVM_MAX_DEVICES];
	struct uvm_get_info gi = {
		.devices = (uintptr_t)info, .devices_count = UVM_MAX_DEVICES,
	};
	uint32_t i;

	if (ioctl(uvm_fd, UVM_IOCTL_GET_INFO, &gi))
		die("UVM_IOCTL_GET_INFO");
	if (!(gi.caps & UVM_CAP_PAGEABLE_MIGRATE)) {
		fprintf(stderr, "%s: no pageable migration on this kernel (DEVICE_PRIVATE): nothing to compare\n",
			BENCH_NAME);
		return -1;
	}
	if (!gi.num_devices)
		return -1;
	dev_id = info[0].id;
	for (i = 0; i < gi.num_devices && i < UVM_MAX_DEVICES; i++)
		if (info[i].backend == UVM_BACKEND_EMULATED)
			dev_id = info[i].id;
	return 0;
}

/*
 * NUMA balancing off for the run, restored after: its scan changes the
 * protection of the process's memory every second or so, and the
 * invalidation drops both sides' device mappings at random moments
 * (dmirror's MIGRATE_TO_DEV then fails reading its pages back, ENOENT).
 */
#define NUMA_BALANCING "/proc/sys/kernel/numa_balancing"

static int numa_balancing = -1;

static void numa_balancing_set(int v)
{
	FILE *f = fopen(NUMA_BALANCING, "r+");

	if (!f)
		return;		/* no NUMA balancing in this kernel */
	if (numa_balancing < 0 && fscanf(f, "%d", &numa_balancing) != 1)
		numa_balancing = -1;
	rewind(f);
	if (numa_balancing > 0)
		fprintf(f, "%d\n", v);
	fclose(f);
}

/*
 * test_hmm.ko, loaded here if it is not (the kernel's own module tree, or
 * what scripts/test-hmm built); its first device.
 */
static int open_dmirror(void)
{
	int st = system("modprobe test_hmm 2>/dev/null || "
			"insmod cache/test-hmm/$(uname -r)/test_hmm.ko");

	hmm_fd = open("/dev/hmm_dmirror0", O_RDWR);
	if (hmm_fd < 0) {
		fprintf(stderr, "%s: no lib/test_hmm on this kernel (modprobe: %d): nothing to compare\n",
			BENCH_NAME, st);
		return -1;
	}
	return 0;
}

int main(void)
{
	static const size_t sizes[] = { 8 * MIB, 32 * MIB };
	struct times o, h;
	char name[64];
	unsigned int i;

	page_size = sysconf(_SC_PAGESIZE);
	uvm_fd = open("/dev/uvm", O_RDWR);
	if (uvm_fd < 0)
		die("open /dev/uvm");
	if (pick_device() || open_dmirror())
		return 0;
	numa_balancing_set(0);
	for (i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++) {
		measure(sizes[i], &o, &h);
		snprintf(name, sizeof(name), "pageable_to_device_%zuMiB", sizes[i] / MIB);
		report(name, o.to_dev, "GB/s", "test_hmm dmirror", h.to_dev, ">= 2");
		snprintf(name, sizeof(name), "pageable_faultback_%zuMiB", sizes[i] / MIB);
		report(name, o.back, "GB/s", "test_hmm dmirror", h.back, ">= 2");
		snprintf(name, sizeof(name), "pageable_device_read_%zuMiB", sizes[i] / MIB);
		report(name, o.read, "GB/s", "test_hmm dmirror", h.read, "");
	}
	if (numa_balancing > 0)
		numa_balancing_set(numa_balancing);
	close(hmm_fd);
	close(uvm_fd);
	if (system("rmmod test_hmm"))
		fprintf(stderr, "%s: rmmod test_hmm failed\n", BENCH_NAME);
	return 0;
}
