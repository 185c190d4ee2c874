// SPDX-License-Identifier: GPL-2.0
/*
 * fault_inject_test - allocation failures injected into the module's main
 * paths (failslab and fail_page_alloc, CONFIG_FAULT_INJECTION: the debug
 * kernel only; elsewhere every test SKIPs).
 *
 * Each test runs in a bounded child (a hang fails the test): it sets up
 * valid state (managed data with a known pattern, part of it on a device or
 * another node), keeps a model of every byte in plain memory, then runs one
 * operation over and over with injection armed for its own thread only:
 *
 *  1. a systematic sweep: /proc/thread-self/fail-nth = 1, 2, 3, ...: the
 *     n-th allocation the operation makes fails, until the operation makes
 *     fewer than n three times in a row (every allocation on that path has
 *     failed once);
 *  2. a random phase: make-it-fail=1 with task-filter=Y and varying
 *     probability, interval, space and times, on failslab, fail_page_alloc
 *     or both.
 *
 * The window is exactly the operation: the thread's flag is set just before
 * the ioctl or CPU access and cleared right after it. Every operation must
 * end in 0 or a clean errno (ENOMEM, EFAULT, EINTR, ENOSPC, EAGAIN), a CPU
 * access in data or SIGBUS; after disarming, every byte must match the
 * model (a failed write may have landed or not, per access, never torn
 * otherwise), the residency must be consistent, a final prefetch and a full
 * check must succeed, and once the child's VA space is gone the module's
 * pinned-memory counters and every device's free memory are back where they
 * were. The kernel log of the test must show no BUG/WARNING/KASAN/lockdep/
 * leak line (the VM harness checks that too).
 *
 * Sites: slab allocations that failed are recorded by the kmem:kmalloc and
 * kmem:kmem_cache_alloc trace events (filter ptr == 0, this child's pid,
 * with stack traces), silently; each test prints "# sites: ..." (the
 * innermost module function on each stack). With FAULTINJ_VERBOSE=2 the
 * injection itself logs a stack per failure (fail_page_alloc's too, except
 * for __GFP_NOWARN allocations, which the kernel never reports); those are
 * parsed from /dev/kmsg as well. That mode fails the VM harness's kernel log
 * check (it prints "Call Trace") and is for hand runs: docs/reliability.md.
 *
 * Environment: FAULTINJ_ITERS (random-phase iterations, default 40; make
 * soak SOAK=faultinj runs more),
 * FAULTINJ_NTH (most fail-nth steps, default 48), FAULTINJ_SEED,
 * FAULTINJ_VERBOSE (0, 1 or 2), FAULTINJ_ONLY=name,name (the others
 * SKIP), FAULTINJ_BUDDY=1 and FAULTINJ_FI2=1 (inject where findings FI-1
 * and FI-2 crash the kernel), FAULTINJ_DRYRUN=1 (no injection: the
 * checks alone, on any kernel).
 */
#include <ctype.h>
#include <dirent.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>

#include "kselftest_harness.h"
#include "alloc_util.h"

#define FS	"/sys/kernel/debug/failslab/"
#define FP	"/sys/kernel/debug/fail_page_alloc/"

/* --- environment --------------------------------------------------------- */

static long env_long(const char *name, long def)
{
	const char *s = getenv(name);

	return s && *s ? strtol(s, NULL, 0) : def;
}

static int fi_verbose(void)
{
	return (int)env_long("FAULTINJ_VERBOSE", 0);
}

/* Is fault injection there (mount debugfs if it is not mounted)? */
static int fi_available(void)
{
	if (access(FS, F_OK))
		mount("none", "/sys/kernel/debug", "debugfs", 0, NULL);
	return access(FS, F_OK) == 0 && access(FP, F_OK) == 0 &&
	       access("/proc/self/fail-nth", F_OK) == 0;
}

static int attr_set(const char *dir, const char *name, long v)
{
	char path[128];

	snprintf(path, sizeof(path), "%s%s", dir, name);
	return uvm_write_long(path, v);
}

static int attr_set_str(const char *dir, const char *name, const char *v)
{
	char path[128];

	snprintf(path, sizeof(path), "%s%s", dir, name);
	return uvm_write_str(path, v);
}

static long attr_get(const char *dir, const char *name)
{
	char path[128];

	snprintf(path, sizeof(path), "%s%s", dir, name);
	return uvm_read_long(path);
}

static void slab_filter(int on);

/*
 * Both attributes: only flagged tasks, every gfp (GFP_KERNEL reclaims,
 * GFP_HIGHUSER is highmem, the module's pages are order 0), probability 0
 * until a random phase sets it.
 */
static int fi_setup(void)
{
	static const char *const dirs[] = { FS, FP };
	int i, ret = 0;

	for (i = 0; i < 2; i++) {
		ret |= attr_set(dirs[i], "probability", 0);
		ret |= attr_set_str(dirs[i], "task-filter", "Y");
		ret |= attr_set_str(dirs[i], "ignore-gfp-wait", "N");
		ret |= attr_set(dirs[i], "interval", 1);
		ret |= attr_set(dirs[i], "times", -1);
		ret |= attr_set(dirs[i], "space", 0);
		ret |= attr_set(dirs[i], "verbose", fi_verbose());
	}
	ret |= attr_set_str(FP, "ignore-gfp-highmem", "N");
	ret |= attr_set(FP, "min-order", 0);
	attr_set_str(FS, "cache-filter", "N");
	slab_filter(1);
	/*
	 * From here on the allocator's reports of injected failures
	 * (warn_alloc) are expected: the VM harness's log check skips them
	 * after this line (tests/vm/guest.sh), as kmsg_scan() does.
	 */
	uvm_write_str("/dev/kmsg",
		      "uvm-faultinj: armed: allocation failures from here on are injected");
	return ret;
}

/*
 * Finding FI-1 (docs/reliability.md): a failed allocation of a
 * gpu_buddy_block in the kernel's DRM/GPU buddy allocator (split_block(),
 * under uvm_mem_alloc()) frees a block that is still in the free tree: a
 * use-after-free, then BUG_ON in __gpu_buddy_alloc_blocks() and a panic.
 * Unless FAULTINJ_BUDDY=1, failslab fails every slab cache but that one
 * (cache-filter, /sys/kernel/slab/<cache>/failslab; the debug kernel does
 * not merge caches, so each can be chosen).
 */
static void slab_filter(int on)
{
	int buddy = env_long("FAULTINJ_BUDDY", 0);
	char path[300];
	struct dirent *e;
	DIR *d;

	if (buddy && on)
		return;
	d = opendir("/sys/kernel/slab");
	while (d && (e = readdir(d))) {
		if (e->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), "/sys/kernel/slab/%s/failslab",
			 e->d_name);
		uvm_write_str(path, on && strcmp(e->d_name, "gpu_buddy_block") &&
				    strcmp(e->d_name, "drm_buddy_block") ? "1" : "0");
	}
	if (d)
		closedir(d);
	attr_set_str(FS, "cache-filter", on ? "Y" : "N");
}

/* Back to the kernel's defaults (probability 0: nothing fails). */
static void fi_restore(void)
{
	static const char *const dirs[] = { FS, FP };
	int i;

	for (i = 0; i < 2; i++) {
		attr_set(dirs[i], "probability", 0);
		attr_set(dirs[i], "times", 1);
		attr_set(dirs[i], "space", 0);
		attr_set(dirs[i], "interval", 1);
		attr_set(dirs[i], "verbose", 2);
		attr_set_str(dirs[i], "task-filter", "N");
		attr_set_str(dirs[i], "ignore-gfp-wait", "Y");
	}
	attr_set_str(FP, "ignore-gfp-highmem", "Y");
	attr_set(FP, "min-order", 1);
	slab_filter(0);
}

/* --- arming: this thread only ------------------------------------------ */

enum { FI_OFF, FI_NTH, FI_RANDOM };

static struct {
	int nth_fd, mif_fd;
	int mode;
	unsigned int left;	/* FI_NTH: allocations still to pass + 1 */
	int consumed;		/* FI_NTH: the n-th allocation failed */
	long times;		/* FI_RANDOM: the times we set, or -1 */
} fi;

static int fi_open(void)
{
	fi.nth_fd = open("/proc/thread-self/fail-nth", O_RDWR | O_CLOEXEC);
	fi.mif_fd = open("/proc/thread-self/make-it-fail", O_RDWR | O_CLOEXEC);
	return fi.nth_fd < 0 || fi.mif_fd < 0 ? -1 : 0;
}

static void put_num(int fd, unsigned long v)
{
	char b[24];
	int n = snprintf(b, sizeof(b), "%lu", v);

	if (fd < 0)
		return;		/* FAULTINJ_DRYRUN */
	if (pwrite(fd, b, n, 0) != n)
		abort();
}

static unsigned long get_num(int fd)
{
	char b[24] = { 0 };

	if (fd < 0)
		return 1;	/* FAULTINJ_DRYRUN: never consumed */
	if (pread(fd, b, sizeof(b) - 1, 0) <= 0)
		abort();
	return strtoul(b, NULL, 10);
}

/* Nothing between these two but the operation (and no allocation here). */
static void fi_arm(void)
{
	if (fi.mode == FI_NTH && fi.left)
		put_num(fi.nth_fd, fi.left);
	else if (fi.mode == FI_RANDOM)
		put_num(fi.mif_fd, 1);
}

static void fi_disarm(void)
{
	int e = errno;

	if (fi.mode == FI_NTH && fi.left) {
		fi.left = get_num(fi.nth_fd);
		put_num(fi.nth_fd, 0);
		if (!fi.left)
			fi.consumed = 1;
	} else if (fi.mode == FI_RANDOM) {
		put_num(fi.mif_fd, 0);
	}
	errno = e;
}

/* --- the test context and its model ------------------------------------ */

struct stats {
	unsigned long ops, ok, enomem, efault, eintr, enospc, eagain, sigbus;
	unsigned long nth_steps, nth_injected, rnd_slab, rnd_page;
	unsigned long page_only_failed;	/* ops failed with only fail_page_alloc on */
};

struct tc {
	const char *name;
	int fd;
	char *p;		/* managed range */
	size_t len;
	unsigned char *m;	/* its model */
	int dev[UVM_MAX_DEVICES], ndev, pci, nodes;
	uint64_t rng;
	struct stats s;
	int bad;		/* check failures */
	int touches;		/* armed CPU accesses: bounded times */
	int devalloc;		/* armed ops allocate device memory (FI-1) */
	int page_only;		/* this op: only fail_page_alloc armed */
	unsigned long fails;	/* ops that failed (errno or SIGBUS) */
	int (*op)(struct tc *t, unsigned int it);
	void *priv;
};

#define BAD(t, fmt, ...) do {						\
	(t)->bad++;							\
	if ((t)->bad <= 20)						\
		printf("# %s: FAIL: " fmt "\n", (t)->name, ##__VA_ARGS__); \
	fflush(stdout);							\
} while (0)

static uint64_t rnd(struct tc *t, uint64_t n)
{
	return n ? uvm_rand64(&t->rng) % n : 0;
}

/* Count an operation's outcome; 1 if it is not a clean one. */
static int outcome(struct tc *t, const char *what, int ret)
{
	t->s.ops++;
	switch (ret) {
	case 0: t->s.ok++; return 0;
	}
	t->fails++;
	switch (ret) {
	case -ENOMEM: t->s.enomem++; return 0;
	case -EFAULT: t->s.efault++; return 0;
	case -EINTR: t->s.eintr++; return 0;
	case -ENOSPC: t->s.enospc++; return 0;
	case -EAGAIN: t->s.eagain++; return 0;
	}
	BAD(t, "%s: unexpected result %d (%s)", what, ret, strerror(-ret));
	return 1;
}

/* Reads that may SIGBUS (a bug when disarmed) */
static sigjmp_buf touch_env;

static void touch_handler(int sig)
{
	siglongjmp(touch_env, sig);
}

static void handlers(int on)
{
	static struct sigaction o1, o2;
	struct sigaction sa = { .sa_handler = touch_handler };

	if (on) {
		sigaction(SIGSEGV, &sa, &o1);
		sigaction(SIGBUS, &sa, &o2);
	} else {
		sigaction(SIGSEGV, &o1, NULL);
		sigaction(SIGBUS, &o2, NULL);
	}
}

/* Armed CPU access of one byte; the signal (0: it happened). */
static int armed_touch(volatile unsigned char *q, int write, unsigned char v,
		       unsigned char *out)
{
	int sig;

	handlers(1);
	sig = sigsetjmp(touch_env, 1);
	if (!sig) {
		fi_arm();
		if (write)
			*q = v;
		else
			*out = *q;
		fi_disarm();
	} else {
		fi_disarm();
	}
	handlers(0);
	return sig;
}

/* Disarmed copy out of managed memory: 0 or the signal. */
static int safe_copy(void *dst, const void *src, size_t n)
{
	int sig;

	handlers(1);
	sig = sigsetjmp(touch_env, 1);
	if (!sig)
		memcpy(dst, src, n);
	handlers(0);
	return sig;
}

/* Compare [off, off + len) of the range with the model (CPU reads). */
static int verify(struct tc *t, size_t off, size_t len, const char *what)
{
	unsigned char *buf = malloc(len);
	size_t i;
	int sig;

	if (!buf)
		abort();
	sig = safe_copy(buf, t->p + off, len);
	if (sig) {
		BAD(t, "%s: signal %d reading +%#zx..%#zx disarmed", what, sig,
		    off, off + len);
		free(buf);
		return 1;
	}
	for (i = 0; i < len; i++)
		if (buf[i] != t->m[off + i])
			break;
	if (i < len) {
		struct uvm_page_residency r = uvm_res1(t->fd, t->p + off + i);

		BAD(t, "%s: data lost at +%#zx: %#x, model %#x (flags %#x node %d devs %#llx)",
		    what, off + i, buf[i], t->m[off + i], r.flags, r.cpu_node,
		    (unsigned long long)r.devices_resident);
	}
	free(buf);
	return i < len;
}

/* Location helpers */
static int to_host(struct tc *t, size_t off, size_t len, int node)
{
	return uvm_prefetch(t->fd, t->p + off, len, UVM_LOC_HOST_NUMA, node);
}

static int to_dev(struct tc *t, size_t off, size_t len, int dev)
{
	return uvm_prefetch(t->fd, t->p + off, len, UVM_LOC_DEVICE, dev);
}

/* Every page of [off, off + len) is populated somewhere (it has data). */
static void check_populated(struct tc *t, size_t off, size_t len,
			    const char *what)
{
	size_t n = len / PAGE, i;
	struct uvm_page_residency *r = calloc(n, sizeof(*r));

	if (!r || uvm_residency(t->fd, t->p + off, n, r)) {
		BAD(t, "%s: RESIDENCY failed", what);
		free(r);
		return;
	}
	for (i = 0; i < n; i++)
		if (!(r[i].flags & UVM_PAGE_POPULATED) ||
		    (r[i].cpu_node < 0 && !r[i].devices_resident)) {
			BAD(t, "%s: page +%#zx has data but no copy (flags %#x node %d devs %#llx)",
			    what, off + i * PAGE, r[i].flags, r[i].cpu_node,
			    (unsigned long long)r[i].devices_resident);
			break;
		}
	free(r);
}

static int setup_range(struct tc *t, size_t len)
{
	struct uvm_device_info info[UVM_MAX_DEVICES];
	int i, n;

	t->fd = uvm_open();
	if (t->fd < 0)
		return 1;
	n = uvm_devices(t->fd, info, UVM_MAX_DEVICES);
	t->ndev = 0;
	t->pci = -1;
	for (i = 0; i < n; i++) {
		if (info[i].backend == UVM_BACKEND_PCI_BAR && t->pci < 0)
			t->pci = info[i].id;
		t->dev[t->ndev++] = info[i].id;
	}
	t->nodes = access("/sys/devices/system/node/node1", F_OK) ? 1 : 2;
	if (!len)
		return 0;
	t->len = len;
	t->p = uvm_map(t->fd, len);
	t->m = malloc(len);
	if (!t->p || !t->m)
		return 2;
	uvm_fill(t->m, len, t->rng);
	memcpy(t->p, t->m, len);
	return 0;
}

/* A random page-aligned window: offset and length (1 page .. max). */
static void window(struct tc *t, size_t max, size_t *off, size_t *len)
{
	size_t pages = t->len / PAGE;
	size_t n = 1 + rnd(t, max / PAGE);

	if (rnd(t, 4) == 0)
		n = max / PAGE;		/* sometimes a whole block or more */
	if (n > pages)
		n = pages;
	*off = rnd(t, pages - n + 1) * PAGE;
	*len = n * PAGE;
}

static int a_device(struct tc *t)
{
	return t->dev[rnd(t, t->ndev)];
}

/* --- the driver ---------------------------------------------------------- */

static void random_attrs(struct tc *t)
{
	static const int probs[] = { 10, 30, 60, 100 };
	int which = rnd(t, 3);	/* 0 slab, 1 page, 2 both */

	/*
	 * FI-1 again: a failed slab page of the gpu_buddy_block cache fails
	 * the buddy's split like a failed object. Where armed operations
	 * allocate device memory, the random phase fails slab objects only
	 * (the fail-nth sweep still fails pages, one at a time).
	 */
	if (t->devalloc && !env_long("FAULTINJ_BUDDY", 0))
		which = 0;
	const char *dirs[2] = { FS, FP };
	int i;

	/*
	 * A CPU fault that fails for want of a page table or PTE is retried by
	 * the core for ever (VM_FAULT_OOM): armed CPU accesses get a bounded
	 * number of failures.
	 */
	fi.times = rnd(t, 3) && !t->touches ? 100000 : 1 + rnd(t, 3);
	t->page_only = which == 1;
	for (i = 0; i < 2; i++) {
		int on = which == 2 || which == i;

		attr_set(dirs[i], "probability", on ? probs[rnd(t, 4)] : 0);
		attr_set(dirs[i], "interval", 1 + rnd(t, 3));
		attr_set(dirs[i], "space", rnd(t, 2) ? 0 : rnd(t, i ? 64 : 8192));
		attr_set(dirs[i], "times", fi.times);
	}
}

static void random_count(struct tc *t)
{
	long s = attr_get(FS, "times"), p = attr_get(FP, "times");

	if (fi.times > 0 && s >= 0 && p >= 0) {
		t->s.rnd_slab += fi.times - s;
		t->s.rnd_page += fi.times - p;
	}
	attr_set(FS, "probability", 0);
	attr_set(FP, "probability", 0);
}

/*
 * The systematic sweep (fail-nth 1, 2, ... until the operation makes fewer
 * allocations), then the random phase.
 */
static void drive(struct tc *t)
{
	unsigned int nmax = env_long("FAULTINJ_NTH", 48);
	unsigned int iters = env_long("FAULTINJ_ITERS", 40);
	unsigned int n, i;

	unsigned int misses = 0;

	/* ops pick their parameters at random: 3 misses in a row end it */
	for (n = 1; n <= nmax && !t->bad; n++) {
		fi.mode = FI_NTH;
		fi.left = n;
		fi.consumed = 0;
		t->op(t, n);
		fi.mode = FI_OFF;
		t->s.nth_steps++;
		if (!fi.consumed) {
			if (++misses == 3)
				break;	/* fewer than n allocations: swept */
			continue;
		}
		misses = 0;
		t->s.nth_injected++;
	}
	if (n > nmax)
		printf("# %s: fail-nth sweep stopped at %u (more allocations)\n",
		       t->name, nmax);
	for (i = 0; i < iters && !t->bad; i++) {
		unsigned long f0 = t->fails;

		random_attrs(t);
		fi.mode = FI_RANDOM;
		t->op(t, 1000 + i);
		fi.mode = FI_OFF;
		random_count(t);
		if (t->page_only && t->fails != f0)
			t->s.page_only_failed++;
	}
}

static void report(struct tc *t)
{
	struct stats *s = &t->s;

	printf("# %s: %lu ops: %lu ok, %lu ENOMEM, %lu EFAULT, %lu EINTR, %lu ENOSPC, %lu EAGAIN, %lu SIGBUS; fail-nth %lu steps (%lu injected), random: %lu slab + %lu page failures (%lu ops failed with only fail_page_alloc armed)\n",
	       t->name, s->ops, s->ok, s->enomem, s->efault, s->eintr,
	       s->enospc, s->eagain, s->sigbus, s->nth_steps, s->nth_injected,
	       s->rnd_slab, s->rnd_page, s->page_only_failed);
}

/* The end of every managed test: all of it home, all of it right. */
static int finish(struct tc *t)
{
	struct uvm_va_space_summary sum = { 0 };
	size_t i;
	uint64_t host = 0;

	if (t->p) {
		int ret = to_host(t, 0, t->len, 0);

		if (ret)
			BAD(t, "final prefetch home: %d", ret);
		verify(t, 0, t->len, "final");
		check_populated(t, 0, t->len, "final");
		if (uvm_ioctl(t->fd, UVM_IOCTL_VA_SPACE_SUMMARY, &sum))
			BAD(t, "VA_SPACE_SUMMARY failed");
		for (i = 0; i < UVM_SUMMARY_NODES; i++)
			host += sum.host_pages[i];
		if (host != t->len / PAGE || sum.host_pages[0] != t->len / PAGE)
			BAD(t, "summary: %llu host pages (%llu on node 0), want %zu",
			    (unsigned long long)host,
			    (unsigned long long)sum.host_pages[0], t->len / PAGE);
		for (i = 0; i < UVM_MAX_DEVICES; i++)
			if (sum.device_pages[i])
				BAD(t, "summary: %llu pages left on device %zu",
				    (unsigned long long)sum.device_pages[i], i);
		if (munmap(t->p, t->len))
			BAD(t, "munmap: %s", strerror(errno));
	}
	report(t);
	close(t->fd);
	return t->bad ? 1 : 0;
}

/* --- sites: trace events and the kernel log -------------------------- */

static const char *tracefs(void)
{
	if (access("/sys/kernel/tracing/events/kmem", F_OK) == 0)
		return "/sys/kernel/tracing/";
	mount("nodev", "/sys/kernel/tracing", "tracefs", 0, NULL);
	if (access("/sys/kernel/tracing/events/kmem", F_OK) == 0)
		return "/sys/kernel/tracing/";
	if (access("/sys/kernel/debug/tracing/events/kmem", F_OK) == 0)
		return "/sys/kernel/debug/tracing/";
	return NULL;
}

static const char *const slab_events[] = {
	"events/kmem/kmalloc/", "events/kmem/kmem_cache_alloc/",
};

/* In the child: record this task's failed slab allocations, with stacks. */
static void trace_start(void)
{
	const char *tf = tracefs();
	char filter[64];
	int i;

	if (!tf)
		return;
	snprintf(filter, sizeof(filter), "ptr == 0 && common_pid == %d",
		 getpid());
	attr_set(tf, "tracing_on", 0);
	attr_set_str(tf, "trace", "");
	attr_set(tf, "buffer_size_kb", 2048);
	attr_set(tf, "options/stacktrace", 1);
	for (i = 0; i < 2; i++) {
		char path[128];

		snprintf(path, sizeof(path), "%sfilter", slab_events[i]);
		if (attr_set_str(tf, path, filter))
			printf("# trace filter \"%s\" refused by %s\n", filter, path);
		snprintf(path, sizeof(path), "%senable", slab_events[i]);
		attr_set(tf, path, 1);
	}
	attr_set(tf, "tracing_on", 1);
}

struct sites {
	char name[64][64];
	unsigned int count[64];
	int n;
};

static void site_add(struct sites *s, const char *frame)
{
	char name[64];
	int i;

	for (i = 0; i < 63 && frame[i] && (isalnum((unsigned char)frame[i]) ||
					   frame[i] == '_' || frame[i] == '.'); i++)
		name[i] = frame[i];
	name[i] = 0;
	if (!i)
		return;
	for (i = 0; i < s->n; i++)
		if (!strcmp(s->name[i], name)) {
			s->count[i]++;
			return;
		}
	if (s->n < 64) {
		strcpy(s->name[s->n], name);
		s->count[s->n++] = 1;
	}
}

static void sites_print(const char *test, const char *what, struct sites *s)
{
	int i;

	printf("# %s: sites (%s):%s", test, what, s->n ? "" : " none");
	for (i = 0; i < s->n; i++)
		printf("%s %s x%u", i ? "," : "", s->name[i], s->count[i]);
	printf("\n");
}

/* In the parent: stop tracing; the innermost [uvm] frame of each stack. */
static void trace_collect(const char *test)
{
	const char *tf = tracefs();
	struct sites s = { .n = 0 };
	char path[128], line[512];
	int in_stack = 0, found = 0, i;
	unsigned int events = 0;
	FILE *f;

	if (!tf)
		return;
	attr_set(tf, "tracing_on", 0);
	for (i = 0; i < 2; i++) {
		snprintf(path, sizeof(path), "%senable", slab_events[i]);
		attr_set(tf, path, 0);
		snprintf(path, sizeof(path), "%sfilter", slab_events[i]);
		attr_set(tf, path, 0);
	}
	attr_set(tf, "options/stacktrace", 0);
	attr_set(tf, "options/sym-offset", 1);	/* "name+off/len [uvm]" */
	snprintf(path, sizeof(path), "%strace", tf);
	f = fopen(path, "r");
	while (f && fgets(line, sizeof(line), f)) {
		char *arrow = strstr(line, " => ");

		if (strstr(line, "<stack trace>")) {
			in_stack = 1;
			found = 0;
			events++;
			continue;
		}
		if (!arrow) {
			in_stack = 0;
			continue;
		}
		if (in_stack && !found && strstr(arrow, "[uvm]")) {
			site_add(&s, arrow + 4);
			found = 1;
		}
	}
	if (f)
		fclose(f);
	attr_set(tf, "options/sym-offset", 0);
	attr_set_str(tf, "trace", "");
	printf("# %s: %u failed slab allocations traced\n", test, events);
	sites_print(test, "slab", &s);
}

static const char *const bad_log[] = {
	"BUG:", "WARNING:", "Oops", "KASAN", "UBSAN:",
	"possible circular locking", "inconsistent lock state",
	"blocked for more than", "soft lockup", "unreferenced object",
	"sleeping function called", "general protection", "Call Trace",
	"kernel BUG", "list_add corruption", "list_del corruption", "INFO:",
	"uvm: leak",
};

/*
 * The kernel log since @fd was opened: lines inside a fault injection
 * report or an allocation-failure warning (warn_alloc: "page allocation
 * failure", "vmalloc error") are expected; their [uvm] frames are sites.
 * Every other line matching the VM harness's patterns is a failure.
 */
static int kmsg_scan(const char *test, int fd)
{
	struct sites s = { .n = 0 };
	char rec[2048];
	int block = 0, bad = 0, warn_allocs = 0;
	unsigned int i;
	ssize_t n;

	if (fd < 0)
		return 0;
	for (;;) {
		char *msg;

		n = read(fd, rec, sizeof(rec) - 1);
		if (n < 0 && errno == EPIPE)
			continue;	/* overwritten records */
		if (n <= 0)
			break;
		rec[n] = 0;
		msg = strchr(rec, ';');
		msg = msg ? msg + 1 : rec;
		if (strchr(msg, '\n'))
			*strchr(msg, '\n') = 0;
		if (strstr(msg, "FAULT_INJECTION: forcing a failure")) {
			block = 1;
			continue;
		}
		if (strstr(msg, "page allocation failure") ||
		    strstr(msg, "vmalloc error:")) {
			block = 2;
			warn_allocs++;
			if (warn_allocs <= 3)
				printf("# %s: kernel: %s\n", test, msg);
			continue;
		}
		if (block) {
			if (strstr(msg, "[uvm]") && block == 1)
				site_add(&s, msg + strspn(msg, " ?"));
			if (strstr(msg, "</TASK>"))
				block = 0;
			continue;
		}
		for (i = 0; i < sizeof(bad_log) / sizeof(bad_log[0]); i++)
			if (strstr(msg, bad_log[i])) {
				if (++bad <= 40)
					printf("# %s: kernel log: %s\n", test, msg);
				break;
			}
	}
	close(fd);
	if (warn_allocs)
		printf("# %s: %d allocation-failure warnings (warn_alloc) in the kernel log\n",
		       test, warn_allocs);
	if (fi_verbose() > 1)
		sites_print(test, "injection stacks", &s);
	return bad;
}

/* --- per test: skip, set up, run bounded, check what the child left --- */

struct global {
	uint64_t dev_free[UVM_MAX_DEVICES];
	int ndev;
	struct uvm_mem_counters c;
};

static struct global global_state(void)
{
	struct uvm_device_info info[UVM_MAX_DEVICES];
	struct global g = { .ndev = 0 };
	int fd = uvm_open(), i;

	if (fd < 0)
		return g;
	g.ndev = uvm_devices(fd, info, UVM_MAX_DEVICES);
	for (i = 0; i < g.ndev; i++)
		g.dev_free[i] = info[i].mem_free;
	g.c = counters(fd);
	close(fd);
	return g;
}

static int child_main(void *arg)
{
	struct tc *t = arg;

	if (fi_open() && !env_long("FAULTINJ_DRYRUN", 0))
		return 90;
	trace_start();
	return t->op(t, 0);	/* it 0: the test's own main */
}

#define POOL "/sys/module/uvm/parameters/host_pool_mb"

/*
 * @nopool: host_pool_mb=0 while the test runs, so that every population
 * and migration to host memory allocates its pages (the pool would serve
 * most of them without an allocation).
 */
static void run_case_pool(struct __test_metadata *_metadata, const char *name,
			  int (*main_fn)(struct tc *t, unsigned int it),
			  int secs, int nopool);

static void run_case(struct __test_metadata *_metadata, const char *name,
		     int (*main_fn)(struct tc *t, unsigned int it), int secs)
{
	run_case_pool(_metadata, name, main_fn, secs, 0);
}

static void run_case_pool(struct __test_metadata *_metadata, const char *name,
			  int (*main_fn)(struct tc *t, unsigned int it),
			  int secs, int nopool)
{
	long pool = uvm_read_long(POOL);
	struct tc t = { .name = name, .op = main_fn };
	struct global g0, g1;
	int kfd, ret, i, tries;
	time_t t0 = time(NULL);

	if (!fi_available() && !env_long("FAULTINJ_DRYRUN", 0))
		SKIP(return, "no fault injection (CONFIG_FAULT_INJECTION_DEBUG_FS, FAILSLAB, FAIL_PAGE_ALLOC: the debug kernel)");
	if (access("/dev/uvm", F_OK))
		SKIP(return, "no /dev/uvm");
	if (getenv("FAULTINJ_ONLY") && !strstr(getenv("FAULTINJ_ONLY"), name))
		SKIP(return, "not in FAULTINJ_ONLY");
	t.rng = env_long("FAULTINJ_SEED", time(NULL)) ^ (uintptr_t)name[0] << 32;
	t.rng |= 1;
	printf("# %s: seed %llu\n", name, (unsigned long long)t.rng);
	g0 = global_state();
	if (!env_long("FAULTINJ_DRYRUN", 0))
		ASSERT_EQ(0, fi_setup());
	kfd = open("/dev/kmsg", O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	if (kfd >= 0)
		lseek(kfd, 0, SEEK_END);
	if (nopool && pool > 0)
		uvm_write_long(POOL, 0);
	ret = run_bounded(child_main, &t, secs);
	if (nopool && pool > 0)
		uvm_write_long(POOL, pool);
	if (ret)
		printf("# %s: child returned %d\n", name, ret);
	fi_restore();
	trace_collect(name);
	EXPECT_EQ(0, kmsg_scan(name, kfd));
	EXPECT_EQ(0, ret);
	/* The VA space is gone: its device memory and pins with it. */
	for (tries = 0; tries < 50; tries++) {
		g1 = global_state();
		for (i = 0; i < g1.ndev && g1.dev_free[i] == g0.dev_free[i]; i++)
			;
		if (i == g1.ndev && g1.c.pinned_pages == g0.c.pinned_pages &&
		    g1.c.host_alloc_pages == g0.c.host_alloc_pages)
			break;
		usleep(100000);
	}
	EXPECT_EQ(g0.ndev, g1.ndev);
	for (i = 0; i < g1.ndev; i++)
		EXPECT_EQ(g0.dev_free[i], g1.dev_free[i]);
	EXPECT_EQ(g0.c.pinned_pages, g1.c.pinned_pages);
	EXPECT_EQ(g0.c.host_alloc_pages, g1.c.host_alloc_pages);
	printf("# %s: %ld s\n", name, (long)(time(NULL) - t0));
	fflush(stdout);
}

FIXTURE(finj)
{
	int unused;
};

FIXTURE_SETUP(finj)
{
}

FIXTURE_TEARDOWN(finj)
{
}

#define MAIN(t, it, setup) \
	do { if (!(it)) { int _r = (setup); if (_r) return 80 + _r; drive(t); return finish(t); } } while (0)

/* --- CPU fault: first touch ------------------------------------------ */

/*
 * Discard a page (it reads zero again) and touch it: the fault populates a
 * window of fresh pages (fault_granule_kb) around it.
 */
static int op_first_touch(struct tc *t, unsigned int it)
{
	size_t off, pg;
	unsigned char v = (unsigned char)(it * 7 + 1), got = 0;
	int write, sig, ret;

	t->touches = 1;
	MAIN(t, it, setup_range(t, 4 * MIB));
	pg = rnd(t, t->len / PAGE) * PAGE;
	off = pg + rnd(t, PAGE);
	write = rnd(t, 2);
	ret = uvm_discard(t->fd, t->p + pg, PAGE, 0, 0, 0);
	if (ret)
		BAD(t, "discard (disarmed): %d", ret);
	memset(t->m + pg, 0, PAGE);
	sig = armed_touch((unsigned char *)t->p + off, write, v, &got);
	t->s.ops++;
	if (sig == SIGBUS)
		t->s.sigbus++, t->fails++;
	else if (sig)
		BAD(t, "first touch: signal %d", sig);
	else if (write)
		t->m[off] = v;
	else if (got != t->m[off])
		BAD(t, "first touch read %#x, model %#x", got, t->m[off]);
	if (!sig)
		t->s.ok++;
	return verify(t, pg, PAGE, "first touch");
}

TEST_F_TIMEOUT(finj, cpu_fault_first_touch, 1800)
{
	run_case_pool(_metadata, "cpu_fault_first_touch", op_first_touch, 900, 1);
}

/* --- CPU fault back from a device ------------------------------------ */

static int op_fault_back(struct tc *t, unsigned int it)
{
	size_t off, len, at;
	unsigned char v = (unsigned char)(it * 5 + 3), got = 0;
	int write, sig, ret, dev;

	t->touches = 1;
	MAIN(t, it, setup_range(t, 4 * MIB));
	if (!t->ndev)
		return 0;
	dev = a_device(t);
	window(t, 2 * MIB, &off, &len);
	ret = to_dev(t, off, len, dev);
	if (ret)
		BAD(t, "prefetch to device %d (disarmed): %d", dev, ret);
	at = off + rnd(t, len);
	write = rnd(t, 2);
	sig = armed_touch((unsigned char *)t->p + at, write, v, &got);
	t->s.ops++;
	if (sig == SIGBUS)
		t->s.sigbus++, t->fails++;
	else if (sig)
		BAD(t, "fault back: signal %d", sig);
	else if (write)
		t->m[at] = v;
	else if (got != t->m[at])
		BAD(t, "fault back read %#x, model %#x", got, t->m[at]);
	if (!sig)
		t->s.ok++;
	check_populated(t, off, len, "fault back");
	return verify(t, off, len, "fault back");
}

TEST_F_TIMEOUT(finj, cpu_fault_back_from_device, 1800)
{
	run_case_pool(_metadata, "cpu_fault_back_from_device", op_fault_back, 900, 1);
}

/* --- prefetch, each way ----------------------------------------------- */

enum { H2D, D2H, N2N, D2D };

static int op_prefetch(struct tc *t, unsigned int it, int way)
{
	size_t off, len;
	int ret, a, b, node = 0;

	t->devalloc = way == H2D || way == D2D;
	MAIN(t, it, setup_range(t, 6 * MIB));
	if ((way != N2N && !t->ndev) || (way == N2N && t->nodes < 2) ||
	    (way == D2D && t->ndev < 2))
		return 0;
	window(t, 3 * MIB, &off, &len);
	a = t->ndev ? (int)rnd(t, t->ndev) : 0;
	b = t->ndev ? t->dev[(a + 1 + rnd(t, t->ndev - 1)) % t->ndev] : 0;
	a = t->ndev ? t->dev[a] : 0;
	node = rnd(t, t->nodes);
	/* prepare the source side, disarmed */
	ret = way == H2D || way == N2N ? to_host(t, off, len, node) : to_dev(t, off, len, a);
	if (ret)
		BAD(t, "prepare prefetch (disarmed): %d", ret);
	fi_arm();
	switch (way) {
	case H2D: ret = to_dev(t, off, len, a); break;
	case D2H: ret = to_host(t, off, len, rnd(t, t->nodes)); break;
	case N2N: ret = to_host(t, off, len, !node); break;
	case D2D: ret = to_dev(t, off, len, b); break;
	}
	fi_disarm();
	outcome(t, "prefetch", ret);
	check_populated(t, off, len, "prefetch");
	/* the data, through a device sometimes, then by the CPU */
	if (t->ndev && rnd(t, 2)) {
		unsigned char *buf = malloc(len);
		int dev = a_device(t);

		ret = uvm_dev_read(t->fd, dev, t->p + off, len, buf);
		if (ret)
			BAD(t, "device read (disarmed): %d", ret);
		else if (memcmp(buf, t->m + off, len))
			BAD(t, "device %d reads wrong data after prefetch", dev);
		free(buf);
	}
	return verify(t, off, len, "prefetch");
}

static int op_h2d(struct tc *t, unsigned int it) { return op_prefetch(t, it, H2D); }
static int op_d2h(struct tc *t, unsigned int it) { return op_prefetch(t, it, D2H); }
static int op_n2n(struct tc *t, unsigned int it) { return op_prefetch(t, it, N2N); }
static int op_d2d(struct tc *t, unsigned int it) { return op_prefetch(t, it, D2D); }

TEST_F_TIMEOUT(finj, prefetch_host_to_device, 1800)
{
	run_case(_metadata, "prefetch_host_to_device", op_h2d, 900);
}

TEST_F_TIMEOUT(finj, prefetch_device_to_host, 1800)
{
	run_case_pool(_metadata, "prefetch_device_to_host", op_d2h, 900, 1);
}

TEST_F_TIMEOUT(finj, prefetch_node_to_node, 1800)
{
	run_case_pool(_metadata, "prefetch_node_to_node", op_n2n, 900, 1);
}

TEST_F_TIMEOUT(finj, prefetch_device_to_device, 1800)
{
	run_case(_metadata, "prefetch_device_to_device", op_d2d, 900);
}

/* --- eviction: a range larger than the smallest device ------------------ */

static int evict_setup(struct tc *t)
{
	uint64_t best = UINT64_MAX, tot;
	int i, r = setup_range(t, 0), dev = -1;

	if (r)
		return r;
	for (i = 0; i < t->ndev; i++) {
		tot = uvm_dev_total(t->fd, t->dev[i]);
		if (tot < best) {
			best = tot;
			dev = t->dev[i];
		}
	}
	if (dev < 0 || best > 128 * MIB) {
		printf("# %s: SKIP: no device of 128 MiB or less\n", t->name);
		t->ndev = 0;
		return 0;
	}
	t->priv = (void *)(intptr_t)dev;
	t->len = best + 8 * MIB;
	t->p = uvm_map(t->fd, t->len);
	t->m = malloc(t->len);
	if (!t->p || !t->m)
		return 2;
	uvm_fill(t->m, t->len, t->rng);
	memcpy(t->p, t->m, t->len);
	/* fill the device: most of the range lives there */
	for (i = 0; i + 2 * MIB <= best; i += 2 * MIB)
		to_dev(t, i, 2 * MIB, dev);
	return 0;
}

static int op_evict(struct tc *t, unsigned int it)
{
	size_t off, len;
	int ret, dev;

	t->devalloc = 1;
	MAIN(t, it, evict_setup(t));
	if (!t->ndev)
		return 0;
	dev = (int)(intptr_t)t->priv;
	off = rnd(t, t->len / (2 * MIB)) * 2 * MIB;
	len = (1 + rnd(t, 2)) * 2 * MIB;
	if (off + len > t->len)
		off = t->len - len;
	fi_arm();
	ret = to_dev(t, off, len, dev);
	fi_disarm();
	outcome(t, "evicting prefetch", ret);
	check_populated(t, 0, t->len, "eviction");
	/* a sample of the data, by a device read (no migration) */
	{
		size_t o = rnd(t, t->len / PAGE) * PAGE;
		unsigned char buf[256];

		ret = uvm_dev_read(t->fd, dev, t->p + o, sizeof(buf), buf);
		if (ret)
			BAD(t, "device read (disarmed): %d", ret);
		else if (memcmp(buf, t->m + o, sizeof(buf)))
			BAD(t, "device read +%#zx: data lost", o);
	}
	if (it % 16 == 0)
		return verify(t, off, len, "eviction");
	return 0;
}

TEST_F_TIMEOUT(finj, eviction, 1800)
{
	run_case(_metadata, "eviction", op_evict, 900);
}

/* --- device access: reads, writes, atomics, with device faults ---------- */

/* Half the range mapped remotely from host memory (DMA maps on PCI). */
static int devaccess_setup(struct tc *t)
{
	int r = setup_range(t, 4 * MIB);

	if (r || !t->ndev)
		return r;
	uvm_advise(t->fd, t->p, 2 * MIB, UVM_ADVISE_SET_PREFERRED_LOCATION,
		   UVM_LOC_HOST_NUMA, 0);
	uvm_advise(t->fd, t->p, 2 * MIB, UVM_ADVISE_SET_ACCESSED_BY,
		   UVM_LOC_DEVICE, t->pci >= 0 ? t->pci : t->dev[0]);
	return 0;
}

#define NACC	8

static int op_devaccess(struct tc *t, unsigned int it)
{
	struct uvm_access acc[NACC];
	struct uvm_device_access da = { 0 };
	unsigned char buf[NACC][256], old[NACC][256], now[256];
	uint64_t addend[NACC];
	size_t pages = 0, used[NACC];
	int i, j, n, ret, dev;

	t->devalloc = 1;
	MAIN(t, it, devaccess_setup(t));
	if (!t->ndev)
		return 0;
	dev = rnd(t, 2) && t->pci >= 0 ? t->pci : a_device(t);
	pages = t->len / PAGE;
	/* where the data is: host, device, another device, left alone */
	if (rnd(t, 3) == 0) {
		size_t off, len;

		window(t, 2 * MIB, &off, &len);
		if (rnd(t, 2))
			to_dev(t, off, len, a_device(t));
		else
			to_host(t, off, len, rnd(t, t->nodes));
	}
	n = 1 + rnd(t, NACC);
	for (i = 0; i < n; i++) {
		size_t pg;

		do {	/* distinct pages */
			pg = rnd(t, pages);
			for (j = 0; j < i && used[j] != pg; j++)
				;
		} while (j < i);
		used[i] = pg;
		memset(&acc[i], 0, sizeof(acc[i]));
		acc[i].type = 1 + rnd(t, 3);
		acc[i].length = acc[i].type == UVM_ACCESS_ATOMIC_ADD ? 8 :
				1 + rnd(t, 256);
		acc[i].addr = (uintptr_t)t->p + pg * PAGE +
			      (acc[i].type == UVM_ACCESS_ATOMIC_ADD ?
			       rnd(t, PAGE / 8) * 8 : rnd(t, PAGE - 256));
		acc[i].buf = (uintptr_t)buf[i];
		for (j = 0; j < 256; j++)
			buf[i][j] = (unsigned char)rnd(t, 256);
		memcpy(old[i], t->m + (acc[i].addr - (uintptr_t)t->p), acc[i].length);
		if (acc[i].type == UVM_ACCESS_ATOMIC_ADD)
			buf[i][7] = 0;	/* small addends */
		memcpy(&addend[i], buf[i], 8);
	}
	da.device = dev;
	da.count = n;
	da.accesses = (uintptr_t)acc;
	fi_arm();
	ret = uvm_ioctl(t->fd, UVM_IOCTL_DEVICE_ACCESS, &da);
	fi_disarm();
	outcome(t, "device access", ret);
	/* each access: all done or not done at all (failed call) */
	for (i = 0; i < n; i++) {
		size_t off = acc[i].addr - (uintptr_t)t->p, len = acc[i].length;
		unsigned char neu[256];

		if (acc[i].type == UVM_ACCESS_READ) {
			if (!ret && memcmp(buf[i], old[i], len))
				BAD(t, "device read +%#zx: wrong data", off);
			continue;
		}
		if (acc[i].type == UVM_ACCESS_WRITE) {
			memcpy(neu, buf[i], len);
		} else {
			uint64_t o, r;

			memcpy(&o, old[i], 8);
			if (!ret) {	/* buf holds the old value now */
				memcpy(&r, buf[i], 8);
				if (r != o)
					BAD(t, "atomic at +%#zx returned %#llx, model %#llx",
					    off, (unsigned long long)r,
					    (unsigned long long)o);
			}
			if (safe_copy(now, t->p + off, 8)) {
				BAD(t, "atomic: page unreadable");
				continue;
			}
			memcpy(&r, now, 8);
			if (r != o + addend[i] && (!ret || r != o))
				BAD(t, "atomic at +%#zx (ret %d): %#llx, neither %#llx nor + %#llx",
				    off, ret, (unsigned long long)r,
				    (unsigned long long)o,
				    (unsigned long long)addend[i]);
			memcpy(t->m + off, now, 8);	/* landed or not */
			continue;
		}
		if (safe_copy(now, t->p + off, len)) {
			BAD(t, "device write: page unreadable");
			continue;
		}
		if (!memcmp(now, neu, len))
			memcpy(t->m + off, neu, len);
		else if (ret && !memcmp(now, old[i], len))
			;	/* not done */
		else
			BAD(t, "device write +%#zx len %zu (ret %d): torn or lost",
			    off, len, ret);
	}
	if (it % 8 == 0)
		return verify(t, 0, t->len, "device access");
	return 0;
}

TEST_F_TIMEOUT(finj, device_access, 1800)
{
	run_case(_metadata, "device_access", op_devaccess, 900);
}

/*
 * Atomics make the model above depend on the CPU read of the result; the
 * atomic's returned old value is checked against the model, the new value
 * is whatever is there (old + addend or old).
 */

/* --- allocations: ALLOC_HOST, ALLOC_DEVICE, their mmap and FREE ------ */

struct allocs {
	char *host, *devp;		/* long-lived, with patterns */
	size_t hlen, dlen;
	unsigned char *hm, *dm;
};

static int alloc_setup(struct tc *t)
{
	struct allocs *a = calloc(1, sizeof(*a));
	int r = setup_range(t, 2 * MIB);

	if (r || !a)
		return 1;
	t->priv = a;
	a->hlen = 64 * PAGE;
	a->host = halloc(t->fd, a->hlen, 0, -1);
	a->hm = malloc(a->hlen);
	if (!a->host || !a->hm)
		return 2;
	fill_random(a->hm, a->hlen, 1);
	memcpy(a->host, a->hm, a->hlen);
	if (t->ndev) {
		a->dlen = 64 * PAGE;
		a->devp = dalloc(t->fd, t->dev[0], a->dlen);
		a->dm = malloc(a->dlen);
		if (!a->devp || !a->dm)
			return 3;
		fill_random(a->dm, a->dlen, 2);
		if (mcpy(t->fd, a->devp, a->dm, a->dlen))
			return 4;
	}
	return 0;
}

static int op_alloc(struct tc *t, unsigned int it)
{
	struct allocs *a;
	int device, ret, mapped = 0;
	size_t size;
	char *q = MAP_FAILED;
	uint64_t handle, msize, moff;

	t->devalloc = 1;
	MAIN(t, it, alloc_setup(t));
	a = t->priv;
	device = t->ndev && rnd(t, 2);
	size = (1 + rnd(t, 512)) * PAGE / (rnd(t, 2) ? 1 : 4);
	if (device) {
		struct uvm_alloc_device d = { .size = size, .device = a_device(t) };

		fi_arm();
		ret = uvm_ioctl(t->fd, UVM_IOCTL_ALLOC_DEVICE, &d);
		fi_disarm();
		handle = d.handle, msize = d.map_size, moff = d.mmap_offset;
	} else {
		struct uvm_alloc_host h = {
			.size = size, .numa_node = rnd(t, 2) ? -1 : (int)rnd(t, t->nodes),
			.flags = rnd(t, 2) ? UVM_HOST_ALLOC_WRITECOMBINED : 0,
		};

		/*
		 * Finding FI-2: when the page array's kvcalloc() fails (a
		 * failed slab object or slab page), the error path dereferences
		 * the NULL array (uvm_alloc_free_host_pages()): a kernel oops.
		 * Unless FAULTINJ_FI2=1, ALLOC_HOST itself runs disarmed (its
		 * mmap, copies and FREE stay armed).
		 */
		int fi2 = env_long("FAULTINJ_FI2", 0);

		if (fi2)
			fi_arm();
		ret = uvm_ioctl(t->fd, UVM_IOCTL_ALLOC_HOST, &h);
		if (fi2)
			fi_disarm();
		handle = h.handle, msize = h.map_size, moff = h.mmap_offset;
	}
	if (outcome(t, device ? "ALLOC_DEVICE" : "ALLOC_HOST", ret) || ret)
		goto check;
	if (rnd(t, 4)) {
		fi_arm();
		q = mmap(NULL, msize, PROT_READ | PROT_WRITE, MAP_SHARED,
			 t->fd, moff);
		fi_disarm();
		if (q == MAP_FAILED)
			outcome(t, "mmap of an allocation", -errno);
		else
			mapped = 1;
	}
	if (mapped) {
		unsigned char *z = calloc(1, msize), *pat = malloc(msize);

		/* zeroed, then it holds what is written */
		if (device) {
			if (mcpy(t->fd, pat, q, msize) || memcmp(pat, z, msize))
				BAD(t, "new device allocation not zeroed");
		} else if (safe_copy(pat, q, msize) || memcmp(pat, z, msize)) {
			BAD(t, "new pinned allocation not zeroed or unreadable");
		}
		fill_random(pat, msize, it);
		fi_arm();
		ret = mcpy(t->fd, q, pat, msize);
		fi_disarm();
		outcome(t, "MEMCPY into the allocation", ret);
		if (!ret) {
			memset(z, 0, msize);
			if (mcpy(t->fd, z, q, msize) || memcmp(z, pat, msize))
				BAD(t, "allocation reads back wrong");
		}
		free(z);
		free(pat);
		fi_arm();
		ret = ufree(t->fd, q);
		fi_disarm();
		outcome(t, "FREE", ret);
		if (ret && ufree(t->fd, q))
			BAD(t, "FREE (disarmed) after a failed FREE");
		munmap(q, msize);
	} else {
		struct uvm_free f = { .handle = handle };

		fi_arm();
		ret = uvm_ioctl(t->fd, UVM_IOCTL_FREE, &f);
		fi_disarm();
		outcome(t, "FREE by handle", ret);
		if (ret && uvm_ioctl(t->fd, UVM_IOCTL_FREE, &f))
			BAD(t, "FREE by handle (disarmed) after a failed FREE");
	}
check:
	/* only the long-lived allocations are left, intact */
	{
		struct uvm_mem_counters c = counters(t->fd);

		if (c.va_host_alloc_pages != a->hlen / PAGE)
			BAD(t, "va_host_alloc_pages %llu, want %zu",
			    (unsigned long long)c.va_host_alloc_pages, a->hlen / PAGE);
		if (c.va_device_bytes != a->dlen)
			BAD(t, "va_device_bytes %llu, want %zu",
			    (unsigned long long)c.va_device_bytes, a->dlen);
	}
	if (it % 8 == 0) {
		unsigned char *b = malloc(a->dlen + a->hlen);

		if (memcmp(a->host, a->hm, a->hlen))
			BAD(t, "long-lived pinned allocation changed");
		if (a->dlen && (mcpy(t->fd, b, a->devp, a->dlen) ||
				memcmp(b, a->dm, a->dlen)))
			BAD(t, "long-lived device allocation changed");
		free(b);
		verify(t, 0, t->len, "allocations");
	}
	return 0;
}

TEST_F_TIMEOUT(finj, alloc_host_and_device, 1800)
{
	run_case(_metadata, "alloc_host_and_device", op_alloc, 900);
}

/* --- host registration --------------------------------------------- */

struct reg {
	char *buf, *fresh;
	unsigned char *bm;
	size_t len;
};

static int reg_setup(struct tc *t)
{
	struct reg *r = calloc(1, sizeof(*r));
	int ret = setup_range(t, 2 * MIB);

	if (ret || !r)
		return 1;
	t->priv = r;
	r->len = 2 * MIB;
	r->buf = anon(r->len);
	r->bm = malloc(r->len);
	if (!r->buf || !r->bm)
		return 2;
	fill_random(r->bm, r->len, 3);
	memcpy(r->buf, r->bm, r->len);
	return 0;
}

static int op_register(struct tc *t, unsigned int it)
{
	struct reg *r;
	size_t off, len;
	int ret, fresh, ro;
	char *base;
	struct uvm_ptr_info pi;

	MAIN(t, it, reg_setup(t));
	r = t->priv;
	fresh = rnd(t, 3) == 0;	/* never touched: pinning allocates pages */
	ro = rnd(t, 3) == 0;
	len = (1 + rnd(t, r->len / PAGE)) * PAGE;
	off = rnd(t, (r->len - len) / PAGE + 1) * PAGE;
	base = fresh ? anon(len) : r->buf + off;
	fi_arm();
	ret = hreg(t->fd, base, len, ro ? UVM_HOST_REGISTER_READONLY : 0);
	fi_disarm();
	outcome(t, "HOST_REGISTER", ret);
	if (!ret) {
		if (ptrinfo(t->fd, base, &pi) || pi.type != UVM_PTR_HOST_REGISTERED)
			BAD(t, "registered range not reported as such");
		/* a copy out of it, armed too */
		fi_arm();
		ret = mcpy(t->fd, t->p, base, len < t->len ? len : t->len);
		fi_disarm();
		outcome(t, "MEMCPY from a registration", ret);
		if (!ret && memcmp(t->p, base, len < t->len ? len : t->len))
			BAD(t, "MEMCPY from the registration copied wrong data");
		memcpy(t->m, t->p, t->len < len ? t->len : len);
		fi_arm();
		ret = hunreg(t->fd, base);
		fi_disarm();
		outcome(t, "HOST_UNREGISTER", ret);
		if (ret && hunreg(t->fd, base))
			BAD(t, "HOST_UNREGISTER (disarmed) after a failed one");
	} else if (ptrinfo(t->fd, base, &pi) || pi.type != UVM_PTR_UNREGISTERED) {
		BAD(t, "a failed HOST_REGISTER left a registration (type %u)", pi.type);
		hunreg(t->fd, base);
	}
	if (counters(t->fd).va_pinned_pages)
		BAD(t, "pages still pinned after unregistering: %llu",
		    (unsigned long long)counters(t->fd).va_pinned_pages);
	if (fresh)
		munmap(base, len);
	if (memcmp(r->buf, r->bm, r->len))
		BAD(t, "registered memory changed");
	return 0;
}

/*
 * The regression test of finding FI-1: device allocations with failslab on
 * every cache, the DRM/GPU buddy's gpu_buddy_block included. Panics the
 * kernel (use-after-free in the buddy's free tree) until the buddy is
 * fixed: run it by hand with FAULTINJ_BUDDY=1.
 */
TEST_F_TIMEOUT(finj, device_alloc_buddy_split_fi1, 1800)
{
	if (!env_long("FAULTINJ_BUDDY", 0))
		SKIP(return, "finding FI-1: a failed gpu_buddy_block allocation in split_block() corrupts the kernel's GPU buddy allocator (use-after-free, BUG, panic); FAULTINJ_BUDDY=1 runs it");
	run_case(_metadata, "device_alloc_buddy_split_fi1", op_alloc, 900);
}

TEST_F_TIMEOUT(finj, host_register, 1800)
{
	run_case(_metadata, "host_register", op_register, 900);
}

/* --- MEMCPY and MEMSET between every kind of memory -------------------- */

#define CLEN	(2 * MIB)

struct bufs {
	char *b[K_NR];
	unsigned char *m[K_NR];
	int have[K_NR];
};

static int rd(struct tc *t, int k, void *dst, const char *src, size_t n)
{
	if (k == K_DEVICE)
		return mcpy(t->fd, dst, src, n);
	if (k == K_MANAGED)
		return safe_copy(dst, src, n) ? -EFAULT : 0;
	memcpy(dst, src, n);
	return 0;
}

static int copy_setup(struct tc *t)
{
	struct bufs *b = calloc(1, sizeof(*b));
	int k, ret = setup_range(t, CLEN);

	if (ret || !b)
		return 1;
	t->priv = b;
	for (k = 0; k < K_NR; k++) {
		if (k == K_MANAGED) {
			b->b[k] = t->p;
			b->m[k] = t->m;
			b->have[k] = 1;
			continue;
		}
		if (k == K_DEVICE && !t->ndev)
			continue;
		b->b[k] = kalloc(t->fd, k, CLEN);
		b->m[k] = malloc(CLEN);
		if (!b->b[k] || !b->m[k])
			return 2;
		fill_random(b->m[k], CLEN, 10 + k);
		if (kwrite(t->fd, k, b->b[k], b->m[k], CLEN))
			return 3;
		b->have[k] = 1;
	}
	return 0;
}

static int op_copy(struct tc *t, unsigned int it)
{
	struct bufs *b;
	int s, d, ret, i;
	size_t so, dof, n;
	unsigned char *now, *src;

	t->devalloc = 1;
	MAIN(t, it, copy_setup(t));
	b = t->priv;
	do {
		s = rnd(t, K_NR);
		d = rnd(t, K_NR);
	} while (!b->have[s] || !b->have[d] || s == d);
	n = 1 + rnd(t, CLEN / 2);
	so = rnd(t, CLEN - n + 1);
	dof = rnd(t, CLEN - n + 1);
	/* managed data partly on a device */
	if (t->ndev && rnd(t, 2))
		to_dev(t, rnd(t, CLEN / PAGE) * PAGE & ~(64 * 1024 - 1),
		       64 * 1024, a_device(t));
	if (rnd(t, 4) == 0) {
		uint8_t v = (uint8_t)rnd(t, 256);

		fi_arm();
		ret = mset(t->fd, b->b[d] + dof, v, n);
		fi_disarm();
		outcome(t, "MEMSET", ret);
		src = malloc(n);
		memset(src, v, n);
	} else {
		fi_arm();
		ret = mcpy(t->fd, b->b[d] + dof, b->b[s] + so, n);
		fi_disarm();
		outcome(t, "MEMCPY", ret);
		src = malloc(n);
		memcpy(src, b->m[s] + so, n);
	}
	now = malloc(n);
	if (rd(t, d, now, b->b[d] + dof, n)) {
		BAD(t, "destination unreadable after %s (disarmed)", kind_name[d]);
		goto out;
	}
	for (i = 0; i < (int)n; i++)
		if (now[i] != src[i] && now[i] != b->m[d][dof + i])
			break;
	if (!ret && memcmp(now, src, n))
		BAD(t, "%s -> %s: copy succeeded but data differs", kind_name[s],
		    kind_name[d]);
	else if (i < (int)n)
		BAD(t, "%s -> %s (ret %d): byte %d neither old nor new",
		    kind_name[s], kind_name[d], ret, i);
	memcpy(b->m[d] + dof, now, n);	/* what landed, landed */
	/* the source side is never touched */
	if (it % 8 == 0) {
		unsigned char *all = malloc(CLEN);

		for (i = 0; i < K_NR; i++)
			if (b->have[i] && (rd(t, i, all, b->b[i], CLEN) ||
					   memcmp(all, b->m[i], CLEN)))
				BAD(t, "%s buffer differs from its model", kind_name[i]);
		free(all);
	}
out:
	free(now);
	free(src);
	return 0;
}

TEST_F_TIMEOUT(finj, memcpy_memset, 1800)
{
	run_case(_metadata, "memcpy_memset", op_copy, 900);
}

/* --- policies: advise splits and munmap of parts ----------------------- */

static int op_advise(struct tc *t, unsigned int it)
{
	static const unsigned int adv[] = {
		UVM_ADVISE_SET_READ_MOSTLY, UVM_ADVISE_UNSET_READ_MOSTLY,
		UVM_ADVISE_SET_PREFERRED_LOCATION,
		UVM_ADVISE_UNSET_PREFERRED_LOCATION,
		UVM_ADVISE_SET_ACCESSED_BY, UVM_ADVISE_UNSET_ACCESSED_BY,
	};
	size_t off, len;
	unsigned int a;
	int ret, type = 0, id = 0;
	struct uvm_range_attrs at;

	MAIN(t, it, setup_range(t, 4 * MIB));
	t->len = 3 * MIB;	/* windows in the first 3 MiB: no hole there */
	window(t, 2 * MIB, &off, &len);
	t->len = 4 * MIB;
	a = adv[rnd(t, 6)];
	if (a >= UVM_ADVISE_SET_PREFERRED_LOCATION &&
	    a != UVM_ADVISE_UNSET_PREFERRED_LOCATION) {
		if (t->ndev && rnd(t, 2)) {
			type = UVM_LOC_DEVICE;
			id = a_device(t);
		} else {
			type = UVM_LOC_HOST_NUMA;
			id = rnd(t, t->nodes);
			if (a != UVM_ADVISE_SET_PREFERRED_LOCATION)
				type = UVM_LOC_HOST, id = 0;
		}
	}
	fi_arm();
	ret = uvm_advise(t->fd, t->p + off, len, a, type, id);
	fi_disarm();
	outcome(t, "ADVISE", ret);
	if (uvm_attrs(t->fd, t->p + off, len, &at))
		BAD(t, "RANGE_ATTRS failed after ADVISE");
	if (!ret && a == UVM_ADVISE_SET_READ_MOSTLY && !at.read_mostly)
		BAD(t, "read-mostly set but not reported");
	/* device reads of read-mostly data duplicate it */
	if (t->ndev && rnd(t, 2)) {
		unsigned char buf[512];
		size_t o = off + rnd(t, len - sizeof(buf));

		fi_arm();
		ret = uvm_dev_read(t->fd, a_device(t), t->p + o, sizeof(buf), buf);
		fi_disarm();
		outcome(t, "device read", ret);
		if (!ret && memcmp(buf, t->m + o, sizeof(buf)))
			BAD(t, "device read after advice: wrong data");
	}
	/* munmap of a page in the middle and a fresh mapping there */
	if (rnd(t, 8) == 0) {
		size_t pg = 3 * MIB + (1 + rnd(t, MIB / PAGE - 2)) * PAGE;

		fi_arm();
		ret = munmap(t->p + pg, PAGE) ? -errno : 0;
		fi_disarm();
		outcome(t, "munmap of a page", ret);
		if (!ret) {
			/* it is gone for good: the model says zero afterwards */
			char *q = mmap(t->p + pg, PAGE, PROT_READ | PROT_WRITE,
				       MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED,
				       -1, 0);

			if (q != t->p + pg)
				BAD(t, "cannot map the hole again");
			memcpy(q, t->m + pg, PAGE);	/* anonymous now */
		}
	}
	return verify(t, off, len, "advise");
}

/*
 * After a partial munmap the range is several VMAs and the final
 * whole-range prefetch in finish() would be EINVAL: the advise test checks
 * its data itself and ends with the pieces.
 */
static int advise_main(struct tc *t, unsigned int it)
{
	if (it)
		return op_advise(t, it);
	if (setup_range(t, 4 * MIB))
		return 81;
	t->devalloc = 1;
	t->op = op_advise;
	drive(t);
	verify(t, 0, t->len, "advise final");
	munmap(t->p, t->len);
	t->p = NULL;
	return finish(t);
}

static int op_advise_entry(struct tc *t, unsigned int it)
{
	if (!it) {
		/* drive() calls t->op; op_advise's MAIN would set up again */
		return advise_main(t, 0);
	}
	return op_advise(t, it);
}

TEST_F_TIMEOUT(finj, advise_and_munmap, 1800)
{
	run_case(_metadata, "advise_and_munmap", op_advise_entry, 900);
}

TEST_HARNESS_MAIN
