// SPDX-License-Identifier: GPL-2.0
/*
 * uvm_stress - kill-stress of managed memory.
 *
 * A supervisor forks N worker processes. Each worker opens /dev/uvm (its
 * own VA space), maps managed regions and, from one or two threads, does
 * random operations on them: CPU write/verify sweeps and random pages,
 * device reads/writes through UVM_IOCTL_DEVICE_ACCESS (page runs and
 * per-page lists), prefetches to node 0/1/the host/each device (whole
 * regions too, so that more managed data than device memory makes eviction
 * run), advice (read-mostly, preferred location, accessed-by), discard,
 * managed-to-managed memcpy, registered-host-memory copies, cudaMalloc-style
 * device allocations (which evict managed data), munmap of parts of regions
 * and re-mmap of the holes (MAP_FIXED_NOREPLACE) or of whole regions.
 *
 * Every page carries data derived from (worker id, generation, page of
 * origin, write count): word 0 and 1 say whose write it is, the other words
 * are a hash of them. Each worker keeps the model of every page (which write
 * it must hold, or zero) in malloc'ed memory and checks every page it reads,
 * from the CPU or a device. The threads of a worker share regions and their
 * 2 MiB blocks, chunk by chunk (64 KiB each): a thread writes and checks
 * only its own chunks, but prefetches and advises whole runs.
 *
 * The supervisor SIGKILLs random workers at random moments, half of the
 * time while the victim is inside a chosen kind of operation, reaps each
 * within a bound (else FAIL, with /proc/PID/task/X/stack and wchan), and
 * starts it again with the next generation. A worker that finds bad data
 * prints the page, what it holds (whose write), its residency and its
 * thread's last operations, and exits 3. At the end every worker checks
 * all its pages once more (CPU and a device) and exits; then all device
 * memory must be free again. Kernel-side leaks and the kernel log are
 * checked by tests/vm/run after the module unloads.
 *
 * Deterministic per seed (per worker generation and thread; the kill
 * times are not). Options (environment, or arguments):
 *   --seconds S    UVM_STRESS_SECONDS   kill phase (default 45)
 *   --minutes M                         the same in minutes
 *   --seed N       UVM_STRESS_SEED      (default: time-based, printed)
 *   --workers N    UVM_STRESS_WORKERS   (default 6, at most 16)
 *   --reap S       UVM_STRESS_REAP_S    bound to reap a killed worker (10 times
 *                                       $UVM_TEST_TIMEOUT_SCALE)
 *   --hang S       UVM_STRESS_HANG_S    a worker without progress (180)
 *   --no-hostreg   UVM_STRESS_NO_HOSTREG=1  no HOST_REGISTER operations
 *   --hostreg-race UVM_STRESS_HOSTREG_RACE=1  also HOST_REGISTER racing a
 *                  munmap of the buffer (off: finding F3 panics the kernel)
 *   --kill-ms A,B  interval between kills, uniform in [A, B] ms (100,1500)
 *   --skip OPS     UVM_STRESS_SKIP      operations not to do, by name, e.g.
 *                  memcpy,hostreg,dalloc (the ones that use UVM_IOCTL_MEMCPY)
 *   --keep-going   UVM_STRESS_KEEP_GOING=1  go on after a data mismatch (the
 *                  worker starts again), to count them in long runs
 * Figures on the last lines: processes, kills, pages verified, minutes.
 * Group "stress" of tests/suite.list; `make stress MINUTES=10`.
 */
// LDLIBS:
#include <dirent.h>
#include <inttypes.h>
#include <stdarg.h>
#include <sys/wait.h>
#include <time.h>

#include "kselftest.h"
#include "alloc_util.h"
#include "uvm_time_scale.h"

#define MAXW		16
#define MAXT		2
#define NREG		4
#define CHUNK_PAGES	16
#define PG		4096UL
#define CHUNK		(CHUNK_PAGES * PG)
#define MAX_REG_PAGES	(16 * 256)	/* 16 MiB */
#define MAX_RUN_CHUNKS	64
#define MAXDEV		8
#define LOGN		1024

/* Operations (also the kinds the supervisor aims its kills at). */
enum op {
	OP_IDLE, OP_CPU_WRITE, OP_CPU_VERIFY, OP_CPU_RANDOM, OP_DEV_WRITE,
	OP_DEV_READ, OP_DEV_LIST, OP_PREFETCH, OP_PREFETCH_REGION, OP_ADVISE,
	OP_DISCARD, OP_MEMCPY, OP_HOSTREG, OP_DALLOC, OP_MUNMAP, OP_MAP,
	OP_VERIFY_ALL, OP_RESIDENCY, OP_HOSTREG_RACE, OP_FINAL, OP_NR
};

static const char *const op_name[OP_NR] = {
	"idle", "cpu_write", "cpu_verify", "cpu_random", "dev_write",
	"dev_read", "dev_list", "prefetch", "prefetch_region", "advise",
	"discard", "memcpy", "hostreg", "dalloc", "munmap", "map",
	"verify_all", "residency", "hostreg_race", "final",
};

/* Weights of the random choice. */
static const int op_weight[OP_NR] = {
	[OP_CPU_WRITE] = 12, [OP_CPU_VERIFY] = 12, [OP_CPU_RANDOM] = 10,
	[OP_DEV_WRITE] = 12, [OP_DEV_READ] = 12, [OP_DEV_LIST] = 8,
	[OP_PREFETCH] = 12, [OP_PREFETCH_REGION] = 3, [OP_ADVISE] = 6,
	[OP_DISCARD] = 3, [OP_MEMCPY] = 4, [OP_HOSTREG] = 3, [OP_DALLOC] = 2,
	[OP_MUNMAP] = 2, [OP_MAP] = 4, [OP_VERIFY_ALL] = 1, [OP_RESIDENCY] = 2,
	[OP_HOSTREG_RACE] = 1,
};

/* --- shared with the supervisor (MAP_SHARED anonymous) ------------------ */

struct wshared {
	int pid;
	uint32_t gen;
	uint64_t heartbeat_ms;
	uint32_t op[MAXT];		/* current operation per thread */
	uint32_t final_ok;		/* final verification passed */
	uint64_t ops[OP_NR];		/* over all generations */
	uint64_t pages_verified;
	uint64_t pages_written;
	uint64_t enospc;
	uint64_t errors;		/* unexpected ioctl/mmap results */
	uint64_t memcpy_eexist;		/* finding F1 (docs/reliability.md) */
	uint32_t memcpy_eexist_said;
	uint64_t final_pages;
};

struct shared {
	volatile int stop;
	uint32_t fail_claimed;		/* a worker's report is in fail_text */
	char fail_text[4096];		/* the first mismatch's report, again */
	uint32_t skip_mask;		/* operations not to do (--skip) */
	struct wshared w[MAXW];
};

static struct shared *sh;
static size_t tee_len;		/* > 0: say() also appends to sh->fail_text */

static uint64_t now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000ULL + ts.tv_nsec / 1000000;
}

#define ADD(field, v)	__atomic_add_fetch(&(field), (v), __ATOMIC_RELAXED)

/* One line to stderr in one write(), "# " first (TAP comment). */
static void say(const char *fmt, ...)
{
	char buf[1024];
	va_list ap;
	int n;

	strcpy(buf, "# ");
	va_start(ap, fmt);
	n = vsnprintf(buf + 2, sizeof(buf) - 3, fmt, ap);
	va_end(ap);
	n = n < 0 ? 2 : (n + 2 > (int)sizeof(buf) - 2 ? (int)sizeof(buf) - 2 : n + 2);
	buf[n++] = '\n';
	if (tee_len && tee_len + n < sizeof(sh->fail_text)) {
		memcpy(sh->fail_text + tee_len - 1, buf, n);
		tee_len += n;
	}
	if (write(2, buf, n) < 0)
		return;
}

static uint64_t mix64(uint64_t x)
{
	x ^= x >> 30;
	x *= 0xbf58476d1ce4e5b9ULL;
	x ^= x >> 27;
	x *= 0x94d049bb133111ebULL;
	x ^= x >> 31;
	return x;
}

static uint64_t rnd(uint64_t *s)
{
	return uvm_rand64(s);
}

static uint64_t rnd_n(uint64_t *s, uint64_t n)
{
	return n ? rnd(s) % n : 0;
}

/* --- the page model ----------------------------------------------------- */

enum pstate { P_UNMAPPED, P_ZERO, P_DATA, P_UNKNOWN };

struct pmodel {
	uint32_t next_wc;	/* next write count of this page (never reset) */
	uint32_t src;		/* page the data was written for (memcpy moves it) */
	uint32_t wc;		/* that write's count */
	uint8_t state;
};

struct region {
	pthread_rwlock_t lock;
	char *base;		/* NULL: nothing mapped */
	size_t npages;		/* size, a multiple of CHUNK_PAGES */
	uint8_t *chunk_mapped;
	struct pmodel *pm;
};

struct worker {
	int wid, nthreads, fd, ndev, nnodes;
	uint32_t gen;
	uint64_t seed;
	int dev[MAXDEV];
	struct region reg[NREG];
	int hostreg, hostreg_race;
	struct wshared *ws;
};

struct logent {
	uint32_t op, r, c0, nc;
	int32_t dst, ret;
};

struct thread {
	struct worker *w;
	int tid;
	uint64_t rng;
	unsigned char *buf;	/* MAX_RUN_CHUNKS chunks */
	unsigned char *buf2;
	struct uvm_access *acc;
	struct logent log[LOGN];
	unsigned int nlog;
};

static struct thread threads[MAXT];

static uint32_t page_src(int r, size_t i)
{
	return (uint32_t)(r * MAX_REG_PAGES + i);
}

static uint64_t word0(const struct worker *w)
{
	return (0x55ULL << 56) | ((uint64_t)(w->wid & 0xff) << 48) |
	       (w->gen & 0xffffffffffffULL);
}

static void fill_page(const struct worker *w, uint64_t *p, uint32_t src,
		      uint32_t wc)
{
	uint64_t w0 = word0(w), w1 = ((uint64_t)src << 32) | wc, key;
	size_t i;

	key = mix64(w0 ^ mix64(w1));
	p[0] = w0;
	p[1] = w1;
	for (i = 2; i < PG / 8; i++)
		p[i] = mix64(key + i);
}

struct mismatch {
	size_t word, nbad;
	uint64_t got, want, got0, got1;
};

/* 0 if the page at @p is what @m says, else 1 and @mm filled. */
static int check_page(const struct worker *w, const uint64_t *p,
		      const struct pmodel *m, struct mismatch *mm)
{
	uint64_t w0 = word0(w), w1, key, want;
	size_t i;

	memset(mm, 0, sizeof(*mm));
	if (m->state == P_UNKNOWN || m->state == P_UNMAPPED)
		return 0;
	w1 = ((uint64_t)m->src << 32) | m->wc;
	key = mix64(w0 ^ mix64(w1));
	for (i = 0; i < PG / 8; i++) {
		if (m->state == P_ZERO)
			want = 0;
		else
			want = i == 0 ? w0 : i == 1 ? w1 : mix64(key + i);
		if (p[i] != want) {
			if (!mm->nbad) {
				mm->word = i;
				mm->got = p[i];
				mm->want = want;
			}
			mm->nbad++;
		}
	}
	if (!mm->nbad)
		return 0;
	mm->got0 = p[0];
	mm->got1 = p[1];
	return 1;
}

static void log_op(struct thread *t, uint32_t op, int r, size_t c0, size_t nc,
		   int dst, int ret)
{
	struct logent *e = &t->log[t->nlog++ % LOGN];

	e->op = op;
	e->r = r;
	e->c0 = c0;
	e->nc = nc;
	e->dst = dst;
	e->ret = ret;
}

static int log_touches(const struct logent *e, int r, size_t chunk)
{
	if (r < 0 || (int)e->r != r)
		return 0;
	if (e->op == OP_MEMCPY)		/* c0: source chunk, nc: destination */
		return e->c0 == chunk || e->nc == chunk;
	if (e->op == OP_CPU_RANDOM)	/* any page of the region */
		return 1;
	return e->c0 <= chunk && chunk < e->c0 + e->nc;
}

/*
 * Each thread's last 12 operations, and (@r >= 0) every logged operation
 * that touched chunk @chunk of region @r (the last 48).
 */
static void dump_logs(int r, size_t chunk)
{
	unsigned int k, i, first, shown;

	for (k = 0; k < MAXT; k++) {
		struct thread *t = &threads[k];

		if (!t->w)
			continue;
		first = t->nlog > LOGN ? t->nlog - LOGN : 0;
		for (shown = 0, i = t->nlog; i > first && shown < 48; i--)
			if (log_touches(&t->log[(i - 1) % LOGN], r, chunk))
				shown++;
		for (; i < t->nlog; i++) {
			struct logent *e = &t->log[i % LOGN];

			if (i + 12 < t->nlog && !log_touches(e, r, chunk))
				continue;
			say("  t%u op %u: %s region %u chunks %u+%u dst %d ret %d%s",
			    k, i, op_name[e->op], e->r, e->c0, e->nc, e->dst,
			    e->ret, log_touches(e, r, chunk) ? "  <- this chunk" : "");
		}
	}
}

/* Bad data: say everything we know, then the process exits 3. */
static void __attribute__((noreturn))
data_fail(struct thread *t, const char *how, int r, size_t i,
	  const struct mismatch *mm)
{
	struct worker *w = t->w;
	struct region *g = &w->reg[r];
	struct pmodel *m = &g->pm[i];
	struct uvm_page_residency res;
	struct mismatch mm2;

	memset(&res, 0xff, sizeof(res));
	if (g->base)
		uvm_residency(w->fd, g->base + i * PG, 1, &res);
	/* The first report is said again at the end (logs keep the tail). */
	if (!__atomic_exchange_n(&sh->fail_claimed, 1, __ATOMIC_RELAXED))
		tee_len = 1;
	say("FAIL data mismatch: worker %d gen %u thread %d seed %#llx, read by %s",
	    w->wid, w->gen, t->tid, (unsigned long long)w->seed, how);
	say("  region %d page %zu (addr %p), model: state %u src %u wc %u",
	    r, i, g->base ? g->base + i * PG : NULL, m->state, m->src, m->wc);
	say("  %zu of 512 words bad, first word %zu: got %#" PRIx64 " want %#" PRIx64,
	    mm->nbad, mm->word, mm->got, mm->want);
	say("  page holds: word0 %#" PRIx64 " (worker %d gen %" PRIu64 ") word1 %#" PRIx64
	    " (src %u wc %u)", mm->got0, (int)((mm->got0 >> 48) & 0xff),
	    mm->got0 & 0xffffffffffffULL, mm->got1, (unsigned)(mm->got1 >> 32),
	    (unsigned)mm->got1);
	say("  residency: flags %#x cpu_node %d devices_resident %#llx devices_mapped %#llx",
	    res.flags, res.cpu_node, (unsigned long long)res.devices_resident,
	    (unsigned long long)res.devices_mapped);
	if (g->base) {
		struct uvm_range_attrs a;
		char *pa = g->base + i * PG;
		int k;

		if (!uvm_attrs(w->fd, pa, PG, &a))
			say("  policy: read_mostly %u preferred %u/%d last_prefetch %u/%d accessed_by devices %#llx host %u",
			    a.read_mostly, a.preferred.type, a.preferred.id,
			    a.last_prefetch.type, a.last_prefetch.id,
			    (unsigned long long)a.accessed_by_devices,
			    a.accessed_by_host);
		/* Once more, a moment later: lost for good, or a bad read? */
		usleep(200000);
		say("  CPU reads it again: %s", check_page(w, (uint64_t *)pa, m, &mm2) ?
		    "still bad" : "now good");
		for (k = 0; k < w->ndev; k++) {
			memset(t->buf2, 0xee, PG);
			if (uvm_dev_read(w->fd, w->dev[k], pa, PG, t->buf2))
				say("  device %d read: error", w->dev[k]);
			else
				say("  device %d reads it: %s (word1 %#" PRIx64 ")", w->dev[k],
				    check_page(w, (uint64_t *)t->buf2, m, &mm2) ?
				    "bad" : "good", ((uint64_t *)t->buf2)[1]);
		}
	}
	say("  operations of the worker (those on chunk %zu of region %d marked):",
	    i / CHUNK_PAGES, r);
	tee_len = 0;
	dump_logs(r, i / CHUNK_PAGES);
	_exit(3);
}

static void op_error(struct thread *t, const char *what, int ret)
{
	/*
	 * F1: the copy path pins user pages; GUP answers EEXIST for managed
	 * pages the CPU maps in place from a PCI BAR (no struct page); the
	 * tree's copy-path work of 20:06 answers EFAULT there instead. Counted
	 * apart, once per worker generation said.
	 */
	if ((ret == -EEXIST || ret == -EFAULT) && strstr(what, "memcpy")) {
		if (ADD(t->w->ws->memcpy_eexist, 1) > 1 && t->w->ws->memcpy_eexist_said == t->w->gen)
			return;
		t->w->ws->memcpy_eexist_said = t->w->gen;
	} else {
		ADD(t->w->ws->errors, 1);
	}
	say("ERROR worker %d gen %u thread %d seed %#llx: %s: %s", t->w->wid,
	    t->w->gen, t->tid, (unsigned long long)t->w->seed, what,
	    strerror(-ret));
	dump_logs(-1, 0);
}

static void heartbeat(struct thread *t)
{
	__atomic_store_n(&t->w->ws->heartbeat_ms, now_ms(), __ATOMIC_RELAXED);
}

static void set_op(struct thread *t, enum op op)
{
	__atomic_store_n(&t->w->ws->op[t->tid], op, __ATOMIC_RELAXED);
	heartbeat(t);
}

/* --- runs of chunks ------------------------------------------------------ */

static int own_chunk(const struct thread *t, size_t c)
{
	return (int)(c % t->w->nthreads) == t->tid;
}

/*
 * Pick a mapped region (read-locked on return, -1 if none) and a run of
 * mapped chunks [*c0, *c0 + *nc) in it, at most @max chunks.
 */
static int pick_run(struct thread *t, size_t max, size_t *c0, size_t *nc)
{
	struct worker *w = t->w;
	int k, r;

	for (k = 0; k < 2 * NREG; k++) {
		struct region *g;
		size_t nch, c, n, tries;

		r = rnd_n(&t->rng, NREG);
		g = &w->reg[r];
		pthread_rwlock_rdlock(&g->lock);
		if (!g->base) {
			pthread_rwlock_unlock(&g->lock);
			continue;
		}
		nch = g->npages / CHUNK_PAGES;
		for (tries = 0; tries < 8; tries++) {
			c = rnd_n(&t->rng, nch);
			if (g->chunk_mapped[c])
				break;
		}
		if (!g->chunk_mapped[c]) {
			pthread_rwlock_unlock(&g->lock);
			continue;
		}
		n = 1 + rnd_n(&t->rng, max);
		*c0 = c;
		for (*nc = 0; *nc < n && c + *nc < nch && g->chunk_mapped[c + *nc];
		     (*nc)++)
			;
		return r;
	}
	return -1;
}

static void unlock_region(struct worker *w, int r)
{
	pthread_rwlock_unlock(&w->reg[r].lock);
}

static char *page_addr(struct worker *w, int r, size_t i)
{
	return w->reg[r].base + i * PG;
}

/* The next write of page i: its model says so from now on. */
static void model_write(struct worker *w, int r, size_t i)
{
	struct pmodel *m = &w->reg[r].pm[i];

	m->wc = ++m->next_wc;
	m->src = page_src(r, i);
	m->state = P_DATA;
}

static void verify_mem(struct thread *t, const char *how, int r, size_t i,
		       const void *data)
{
	struct mismatch mm;

	if (check_page(t->w, data, &t->w->reg[r].pm[i], &mm))
		data_fail(t, how, r, i, &mm);
	ADD(t->w->ws->pages_verified, 1);
}

/* --- operations ---------------------------------------------------------- */

static void op_cpu_write(struct thread *t)
{
	struct worker *w = t->w;
	size_t c0, nc, c, p, step;
	int r = pick_run(t, MAX_RUN_CHUNKS, &c0, &nc);

	if (r < 0)
		return;
	step = rnd_n(&t->rng, 4) ? 1 : 1 + rnd_n(&t->rng, 5);
	for (c = c0; c < c0 + nc; c++) {
		if (!own_chunk(t, c))
			continue;
		heartbeat(t);
		for (p = c * CHUNK_PAGES; p < (c + 1) * CHUNK_PAGES; p += step) {
			model_write(w, r, p);
			fill_page(w, (uint64_t *)page_addr(w, r, p),
				  w->reg[r].pm[p].src, w->reg[r].pm[p].wc);
			ADD(w->ws->pages_written, 1);
		}
	}
	log_op(t, OP_CPU_WRITE, r, c0, nc, step, 0);
	unlock_region(w, r);
}

static void op_cpu_verify(struct thread *t)
{
	struct worker *w = t->w;
	size_t c0, nc, c, p;
	int r = pick_run(t, MAX_RUN_CHUNKS, &c0, &nc);

	if (r < 0)
		return;
	log_op(t, OP_CPU_VERIFY, r, c0, nc, -1, 0);
	for (c = c0; c < c0 + nc; c++) {
		if (!own_chunk(t, c))
			continue;
		heartbeat(t);
		for (p = c * CHUNK_PAGES; p < (c + 1) * CHUNK_PAGES; p++)
			verify_mem(t, "cpu sweep", r, p, page_addr(w, r, p));
	}
	unlock_region(w, r);
}

/* Random own pages of one region: written or checked by the CPU. */
static void op_cpu_random(struct thread *t)
{
	struct worker *w = t->w;
	size_t c0, nc, k, c, p;
	int r = pick_run(t, 1, &c0, &nc), n;
	struct region *g;

	if (r < 0)
		return;
	unlock_region(w, r);
	g = &w->reg[r];
	pthread_rwlock_rdlock(&g->lock);
	log_op(t, OP_CPU_RANDOM, r, 0, 0, -1, 0);
	for (k = 0, n = 0; g->base && k < 64; k++) {
		c = rnd_n(&t->rng, g->npages / CHUNK_PAGES);
		if (!g->chunk_mapped[c] || !own_chunk(t, c))
			continue;
		p = c * CHUNK_PAGES + rnd_n(&t->rng, CHUNK_PAGES);
		if (rnd_n(&t->rng, 2)) {
			model_write(w, r, p);
			fill_page(w, (uint64_t *)page_addr(w, r, p),
				  g->pm[p].src, g->pm[p].wc);
			ADD(w->ws->pages_written, 1);
		} else {
			verify_mem(t, "cpu random", r, p, page_addr(w, r, p));
		}
		n++;
	}
	pthread_rwlock_unlock(&g->lock);
}

static int pick_dev(struct thread *t)
{
	return t->w->dev[rnd_n(&t->rng, t->w->ndev)];
}

/*
 * Device writes or reads of the thread's chunks in a run: one access per
 * chunk, or one per page.
 */
static void op_dev_rw(struct thread *t, int write)
{
	struct worker *w = t->w;
	size_t c0, nc, c, p, n = 0, k, pages = 0;
	int r, dev, per_page, ret;
	struct uvm_device_access da = { 0 };

	if (!w->ndev)
		return;
	r = pick_run(t, MAX_RUN_CHUNKS, &c0, &nc);
	if (r < 0)
		return;
	dev = pick_dev(t);
	per_page = rnd_n(&t->rng, 3) == 0;
	for (c = c0; c < c0 + nc; c++) {
		if (!own_chunk(t, c))
			continue;
		if (per_page) {
			for (p = 0; p < CHUNK_PAGES; p++) {
				t->acc[n] = (struct uvm_access){
					.addr = (uintptr_t)page_addr(w, r, c * CHUNK_PAGES + p),
					.length = PG,
					.buf = (uintptr_t)(t->buf + pages * PG + p * PG),
					.type = write ? UVM_ACCESS_WRITE : UVM_ACCESS_READ,
				};
				n++;
			}
		} else {
			t->acc[n++] = (struct uvm_access){
				.addr = (uintptr_t)page_addr(w, r, c * CHUNK_PAGES),
				.length = CHUNK,
				.buf = (uintptr_t)(t->buf + pages * PG),
				.type = write ? UVM_ACCESS_WRITE : UVM_ACCESS_READ,
			};
		}
		for (p = 0; p < CHUNK_PAGES; p++) {
			size_t i = c * CHUNK_PAGES + p;

			if (write) {
				model_write(w, r, i);
				fill_page(w, (uint64_t *)(t->buf + (pages + p) * PG),
					  w->reg[r].pm[i].src, w->reg[r].pm[i].wc);
			} else {
				memset(t->buf + (pages + p) * PG, 0xee, PG);
			}
		}
		pages += CHUNK_PAGES;
	}
	if (!n) {
		unlock_region(w, r);
		return;
	}
	heartbeat(t);
	da.device = dev;
	da.count = n;
	da.accesses = (uintptr_t)t->acc;
	ret = uvm_ioctl(w->fd, UVM_IOCTL_DEVICE_ACCESS, &da);
	log_op(t, write ? OP_DEV_WRITE : OP_DEV_READ, r, c0, nc, dev, ret);
	if (ret) {
		op_error(t, write ? "device write" : "device read", ret);
		/* What the pages hold now is anyone's guess. */
		for (c = c0; write && c < c0 + nc; c++)
			if (own_chunk(t, c))
				for (p = 0; p < CHUNK_PAGES; p++)
					w->reg[r].pm[c * CHUNK_PAGES + p].state = P_UNKNOWN;
		unlock_region(w, r);
		return;
	}
	if (write) {
		ADD(w->ws->pages_written, pages);
	} else {
		for (k = 0, c = c0; c < c0 + nc; c++) {
			if (!own_chunk(t, c))
				continue;
			for (p = 0; p < CHUNK_PAGES; p++, k++)
				verify_mem(t, per_page ? "device read (pages)" :
					   "device read (chunks)", r,
					   c * CHUNK_PAGES + p, t->buf + k * PG);
		}
	}
	unlock_region(w, r);
}

/*
 * One list of per-page accesses in random order, reads and writes mixed,
 * some pages more than once: each read must see the list's last write
 * before it (or the model's data).
 */
static void op_dev_list(struct thread *t)
{
	struct worker *w = t->w;
	size_t c0, nc, c, n = 0, k, cand[MAX_RUN_CHUNKS * CHUNK_PAGES], ncand = 0;
	struct pmodel *exp;
	uint8_t *is_read;
	int r, dev, ret;
	struct uvm_device_access da = { 0 };

	if (!w->ndev)
		return;
	r = pick_run(t, 16, &c0, &nc);
	if (r < 0)
		return;
	for (c = c0; c < c0 + nc; c++)
		if (own_chunk(t, c))
			for (k = 0; k < CHUNK_PAGES; k++)
				cand[ncand++] = c * CHUNK_PAGES + k;
	if (!ncand) {
		unlock_region(w, r);
		return;
	}
	dev = pick_dev(t);
	exp = malloc(sizeof(*exp) * 256);
	is_read = malloc(256);
	for (n = 0; n < 256; n++) {
		size_t i = cand[rnd_n(&t->rng, ncand)];

		is_read[n] = rnd_n(&t->rng, 2);
		t->acc[n] = (struct uvm_access){
			.addr = (uintptr_t)page_addr(w, r, i), .length = PG,
			.buf = (uintptr_t)(t->buf + n * PG),
			.type = is_read[n] ? UVM_ACCESS_READ : UVM_ACCESS_WRITE,
		};
		if (is_read[n]) {
			exp[n] = w->reg[r].pm[i];
			memset(t->buf + n * PG, 0xee, PG);
		} else {
			model_write(w, r, i);
			fill_page(w, (uint64_t *)(t->buf + n * PG),
				  w->reg[r].pm[i].src, w->reg[r].pm[i].wc);
		}
	}
	heartbeat(t);
	da.device = dev;
	da.count = n;
	da.accesses = (uintptr_t)t->acc;
	ret = uvm_ioctl(w->fd, UVM_IOCTL_DEVICE_ACCESS, &da);
	log_op(t, OP_DEV_LIST, r, c0, nc, dev, ret);
	if (ret) {
		op_error(t, "device access list", ret);
		for (k = 0; k < ncand; k++)
			w->reg[r].pm[cand[k]].state = P_UNKNOWN;
	} else {
		for (k = 0; k < n; k++) {
			struct mismatch mm;
			size_t i = ((char *)(uintptr_t)t->acc[k].addr -
				    w->reg[r].base) / PG;

			if (!is_read[k]) {
				ADD(w->ws->pages_written, 1);
				continue;
			}
			if (check_page(w, (uint64_t *)(t->buf + k * PG), &exp[k], &mm)) {
				w->reg[r].pm[i] = exp[k];	/* for the report */
				data_fail(t, "device access list read", r, i, &mm);
			}
			ADD(w->ws->pages_verified, 1);
		}
	}
	free(exp);
	free(is_read);
	unlock_region(w, r);
}

/* A random destination: node 0/1, the host, HOST_NUMA_CURRENT or a device. */
static void pick_loc(struct thread *t, uint32_t *type, int32_t *id)
{
	struct worker *w = t->w;
	uint64_t k = rnd_n(&t->rng, 10);

	if (k < 4 && w->ndev) {
		*type = UVM_LOC_DEVICE;
		*id = pick_dev(t);
	} else if (k < 7) {
		*type = UVM_LOC_HOST_NUMA;
		*id = rnd_n(&t->rng, w->nnodes);
	} else if (k < 9) {
		*type = UVM_LOC_HOST;
		*id = 0;
	} else {
		*type = UVM_LOC_HOST_NUMA_CURRENT;
		*id = 0;
	}
}

static void op_prefetch(struct thread *t, int whole)
{
	struct worker *w = t->w;
	size_t c0, nc;
	uint32_t type;
	int32_t id;
	int r, ret;

	r = pick_run(t, whole ? MAX_REG_PAGES / CHUNK_PAGES : MAX_RUN_CHUNKS,
		     &c0, &nc);
	if (r < 0)
		return;
	pick_loc(t, &type, &id);
	if (whole && w->ndev) {
		type = UVM_LOC_DEVICE;
		id = pick_dev(t);
	}
	heartbeat(t);
	ret = uvm_prefetch(w->fd, page_addr(w, r, c0 * CHUNK_PAGES), nc * CHUNK,
			   type, id);
	log_op(t, whole ? OP_PREFETCH_REGION : OP_PREFETCH, r, c0, nc,
	       type == UVM_LOC_DEVICE ? id : -10 - (int)type * 10 - id, ret);
	if (ret == -ENOSPC)
		ADD(w->ws->enospc, 1);
	else if (ret)
		op_error(t, "prefetch", ret);
	unlock_region(w, r);
}

static void op_advise(struct thread *t)
{
	struct worker *w = t->w;
	uint32_t advice = 1 + rnd_n(&t->rng, 6), type = 0;
	int32_t id = 0;
	size_t c0, nc;
	int r, ret;

	r = pick_run(t, MAX_RUN_CHUNKS, &c0, &nc);
	if (r < 0)
		return;
	switch (advice) {
	case UVM_ADVISE_SET_PREFERRED_LOCATION:
		pick_loc(t, &type, &id);
		break;
	case UVM_ADVISE_SET_ACCESSED_BY:
	case UVM_ADVISE_UNSET_ACCESSED_BY:
		if (w->ndev && rnd_n(&t->rng, 3)) {
			type = UVM_LOC_DEVICE;
			id = pick_dev(t);
		} else {
			type = UVM_LOC_HOST;
		}
		break;
	}
	ret = uvm_advise(w->fd, page_addr(w, r, c0 * CHUNK_PAGES), nc * CHUNK,
			 advice, type, id);
	log_op(t, OP_ADVISE, r, c0, nc, advice * 100 + type * 10 + id, ret);
	if (ret)
		op_error(t, "advise", ret);
	unlock_region(w, r);
}

/* Discard the thread's own chunks of a run (chunk by chunk if shared). */
static void op_discard(struct thread *t)
{
	struct worker *w = t->w;
	size_t c0, nc, c, p;
	uint32_t flags = 0, type = 0;
	int32_t id = 0;
	int r, ret;

	r = pick_run(t, 16, &c0, &nc);
	if (r < 0)
		return;
	if (rnd_n(&t->rng, 2)) {
		flags = UVM_DISCARD_PREFETCH;
		pick_loc(t, &type, &id);
	}
	for (c = c0; c < c0 + nc; c++) {
		if (!own_chunk(t, c))
			continue;
		ret = uvm_discard(w->fd, page_addr(w, r, c * CHUNK_PAGES), CHUNK,
				  flags, flags ? type : UVM_LOC_NONE, flags ? id : 0);
		log_op(t, OP_DISCARD, r, c, 1, flags ? (int)type * 10 + id : -1, ret);
		if (ret == -ENOSPC) {
			ADD(w->ws->enospc, 1);
			ret = 0;	/* discarded, not prefetched */
		}
		if (ret) {
			op_error(t, "discard", ret);
			for (p = 0; p < CHUNK_PAGES; p++)
				w->reg[r].pm[c * CHUNK_PAGES + p].state = P_UNKNOWN;
			continue;
		}
		for (p = 0; p < CHUNK_PAGES; p++)
			w->reg[r].pm[c * CHUNK_PAGES + p].state = P_ZERO;
	}
	unlock_region(w, r);
}

/* Pick one own mapped chunk: region (read-locked) or -1. */
static int pick_own_chunk(struct thread *t, size_t *chunk)
{
	size_t c0, nc, c;
	int r, k;

	for (k = 0; k < 4; k++) {
		r = pick_run(t, 4, &c0, &nc);
		if (r < 0)
			return -1;
		for (c = c0; c < c0 + nc; c++)
			if (own_chunk(t, c)) {
				*chunk = c;
				return r;
			}
		unlock_region(t->w, r);
	}
	return -1;
}

/* UVM_IOCTL_MEMCPY of one own chunk onto another (managed to managed). */
static void op_memcpy(struct thread *t)
{
	struct worker *w = t->w;
	size_t ca, cb, p;
	int ra, rb, ret;

	ra = pick_own_chunk(t, &ca);
	if (ra < 0)
		return;
	/* A second region lock in index order only: same region or later. */
	rb = ra;
	cb = ca;
	for (p = 0; p < 8 && cb == ca; p++) {
		size_t n = w->reg[ra].npages / CHUNK_PAGES;
		size_t c = rnd_n(&t->rng, n);

		if (w->reg[ra].chunk_mapped[c] && own_chunk(t, c))
			cb = c;
	}
	if (cb == ca) {
		unlock_region(w, ra);
		return;
	}
	heartbeat(t);
	ret = mcpy(w->fd, page_addr(w, rb, cb * CHUNK_PAGES),
		   page_addr(w, ra, ca * CHUNK_PAGES), CHUNK);
	log_op(t, OP_MEMCPY, ra, ca, cb, -1, ret);
	if (ret) {
		op_error(t, "memcpy managed to managed", ret);
		for (p = 0; p < CHUNK_PAGES; p++)
			w->reg[rb].pm[cb * CHUNK_PAGES + p].state = P_UNKNOWN;
	} else {
		for (p = 0; p < CHUNK_PAGES; p++) {
			struct pmodel *d = &w->reg[rb].pm[cb * CHUNK_PAGES + p];
			const struct pmodel *s = &w->reg[ra].pm[ca * CHUNK_PAGES + p];

			d->src = s->src;
			d->wc = s->wc;
			d->state = s->state;
		}
		ADD(w->ws->pages_written, CHUNK_PAGES);
	}
	unlock_region(w, ra);
}

/*
 * Registered host memory: register an anonymous buffer, copy an own chunk
 * into it and check it, write new data there and copy it back, then
 * unregister (or just munmap, which unregisters).
 */
static void op_hostreg(struct thread *t)
{
	struct worker *w = t->w;
	size_t c, p;
	char *buf;
	int r, ret;

	if (!w->hostreg)
		return;
	r = pick_own_chunk(t, &c);
	if (r < 0)
		return;
	buf = mmap(NULL, CHUNK, PROT_READ | PROT_WRITE,
		   MAP_PRIVATE | MAP_ANONYMOUS | MAP_POPULATE, -1, 0);
	if (buf == MAP_FAILED) {
		unlock_region(w, r);
		return;
	}
	heartbeat(t);
	ret = hreg(w->fd, buf, CHUNK, 0);
	log_op(t, OP_HOSTREG, r, c, 1, -1, ret);
	if (ret) {
		op_error(t, "host register", ret);
		goto out;
	}
	ret = mcpy(w->fd, buf, page_addr(w, r, c * CHUNK_PAGES), CHUNK);
	if (ret) {
		op_error(t, "memcpy managed to registered", ret);
		goto out_unreg;
	}
	for (p = 0; p < CHUNK_PAGES; p++)
		verify_mem(t, "memcpy to registered memory", r,
			   c * CHUNK_PAGES + p, buf + p * PG);
	for (p = 0; p < CHUNK_PAGES; p++) {
		size_t i = c * CHUNK_PAGES + p;

		model_write(w, r, i);
		fill_page(w, (uint64_t *)(buf + p * PG), w->reg[r].pm[i].src,
			  w->reg[r].pm[i].wc);
	}
	ret = mcpy(w->fd, page_addr(w, r, c * CHUNK_PAGES), buf, CHUNK);
	if (ret) {
		op_error(t, "memcpy registered to managed", ret);
		for (p = 0; p < CHUNK_PAGES; p++)
			w->reg[r].pm[c * CHUNK_PAGES + p].state = P_UNKNOWN;
	} else {
		ADD(w->ws->pages_written, CHUNK_PAGES);
	}
out_unreg:
	if (rnd_n(&t->rng, 2)) {
		ret = hunreg(w->fd, buf);
		if (ret)
			op_error(t, "host unregister", ret);
	}
out:
	munmap(buf, CHUNK);
	unlock_region(w, r);
}

struct unmapper {
	char *buf;
	unsigned int delay_us;
};

static void *unmap_later(void *arg)
{
	struct unmapper *u = arg;

	usleep(u->delay_us);
	munmap(u->buf, CHUNK);
	return NULL;
}

/*
 * HOST_REGISTER racing munmap: a helper thread munmaps the buffer after a
 * random delay while it is being registered (and unregistered). Whichever
 * wins, the answer is 0 or EFAULT/ENOENT, and nothing may be left pinned.
 */
static void op_hostreg_race(struct thread *t)
{
	struct worker *w = t->w;
	struct unmapper u;
	pthread_t th;
	int ret, ret2 = 0;

	if (!w->hostreg || !w->hostreg_race)
		return;
	u.buf = mmap(NULL, CHUNK, PROT_READ | PROT_WRITE,
		     MAP_PRIVATE | MAP_ANONYMOUS | MAP_POPULATE, -1, 0);
	if (u.buf == MAP_FAILED)
		return;
	u.delay_us = rnd_n(&t->rng, 300);
	if (pthread_create(&th, NULL, unmap_later, &u)) {
		munmap(u.buf, CHUNK);
		return;
	}
	ret = hreg(w->fd, u.buf, CHUNK, rnd_n(&t->rng, 2) ?
		   UVM_HOST_REGISTER_READONLY : 0);
	if (!ret && rnd_n(&t->rng, 2))
		ret2 = hunreg(w->fd, u.buf);
	pthread_join(th, NULL);
	log_op(t, OP_HOSTREG_RACE, 0, u.delay_us, 0, ret2, ret);
	if (ret && ret != -EFAULT && ret != -ENOMEM)
		op_error(t, "host register racing munmap", ret);
	if (ret2 && ret2 != -ENOENT)
		op_error(t, "host unregister racing munmap", ret2);
}

/*
 * A cudaMalloc-style device allocation (never evicted, so it evicts managed
 * data, anyone's): copy an own chunk through it and check what comes back.
 */
static void op_dalloc(struct thread *t)
{
	struct worker *w = t->w;
	size_t c, p, size = (2 + rnd_n(&t->rng, 7)) * MIB;
	char *d;
	int r, dev, ret;

	if (!w->ndev)
		return;
	r = pick_own_chunk(t, &c);
	if (r < 0)
		return;
	dev = pick_dev(t);
	heartbeat(t);
	d = dalloc(w->fd, dev, size);
	log_op(t, OP_DALLOC, r, c, size / MIB, dev, d ? 0 : -errno);
	if (!d) {
		if (errno == ENOSPC)
			ADD(w->ws->enospc, 1);
		else
			op_error(t, "device allocation", -errno);
		unlock_region(w, r);
		return;
	}
	ret = mcpy(w->fd, d + size - CHUNK, page_addr(w, r, c * CHUNK_PAGES), CHUNK);
	if (!ret) {
		memset(t->buf2, 0xee, CHUNK);
		ret = mcpy(w->fd, t->buf2, d + size - CHUNK, CHUNK);
	}
	if (ret) {
		op_error(t, "memcpy through device allocation", ret);
	} else {
		for (p = 0; p < CHUNK_PAGES; p++)
			verify_mem(t, "memcpy through a device allocation", r,
				   c * CHUNK_PAGES + p, t->buf2 + p * PG);
	}
	if (rnd_n(&t->rng, 2)) {
		ret = ufree(w->fd, d);
		if (ret)
			op_error(t, "free device allocation", ret);
	}
	munmap(d, size);
	unlock_region(w, r);
}

/*
 * munmap the mapped chunks of [c0, c1), run by run: a hole may hold someone
 * else's mapping by now (another region, a buffer), which must stay.
 */
static int unmap_chunks(struct region *g, size_t c0, size_t c1)
{
	size_t a, b;

	for (a = c0; a < c1; a = b) {
		for (; a < c1 && !g->chunk_mapped[a]; a++)
			;
		for (b = a; b < c1 && g->chunk_mapped[b]; b++)
			;
		if (b > a && munmap(g->base + a * CHUNK, (b - a) * CHUNK))
			return -1;
	}
	return 0;
}

/* munmap a run of chunks (any thread's: the region is write-locked). */
static void op_munmap(struct thread *t)
{
	struct worker *w = t->w;
	int r = rnd_n(&t->rng, NREG), left = 0;
	struct region *g = &w->reg[r];
	size_t nch, c0, nc, c, p;

	pthread_rwlock_wrlock(&g->lock);
	if (!g->base)
		goto out;
	nch = g->npages / CHUNK_PAGES;
	if (rnd_n(&t->rng, 4) == 0) {
		c0 = 0;
		nc = nch;
	} else {
		c0 = rnd_n(&t->rng, nch);
		nc = 1 + rnd_n(&t->rng, nch - c0 < 64 ? nch - c0 : 64);
	}
	heartbeat(t);
	if (unmap_chunks(g, c0, c0 + nc)) {
		op_error(t, "munmap", -errno);
		goto out;
	}
	log_op(t, OP_MUNMAP, r, c0, nc, -1, 0);
	for (c = c0; c < c0 + nc; c++) {
		g->chunk_mapped[c] = 0;
		for (p = 0; p < CHUNK_PAGES; p++)
			g->pm[c * CHUNK_PAGES + p].state = P_UNMAPPED;
	}
	for (c = 0; c < nch; c++)
		left += g->chunk_mapped[c];
	if (!left)
		g->base = NULL;
out:
	pthread_rwlock_unlock(&g->lock);
}

/* Map a region that has nothing, or re-map one hole of a region. */
static void op_map(struct thread *t)
{
	struct worker *w = t->w;
	int r = rnd_n(&t->rng, NREG);
	struct region *g = &w->reg[r];
	size_t nch = g->npages / CHUNK_PAGES, c0, c1, c, p;
	char *want, *got;

	pthread_rwlock_wrlock(&g->lock);
	heartbeat(t);
	if (!g->base) {
		got = uvm_map(w->fd, g->npages * PG);
		log_op(t, OP_MAP, r, 0, nch, -1, got ? 0 : -errno);
		if (!got) {
			op_error(t, "mmap", -errno);
			goto out;
		}
		g->base = got;
		memset(g->chunk_mapped, 1, nch);
		for (p = 0; p < g->npages; p++)
			g->pm[p].state = P_ZERO;
		goto out;
	}
	for (c0 = rnd_n(&t->rng, nch), c = 0; c < nch; c++)
		if (!g->chunk_mapped[(c0 + c) % nch])
			break;
	if (c == nch)
		goto out;
	c0 = (c0 + c) % nch;
	for (c1 = c0; c1 < nch && !g->chunk_mapped[c1]; c1++)
		;
	want = g->base + c0 * CHUNK;
	got = mmap(want, (c1 - c0) * CHUNK, PROT_READ | PROT_WRITE,
		   MAP_SHARED | MAP_FIXED_NOREPLACE, w->fd, 0);
	log_op(t, OP_MAP, r, c0, c1 - c0, -1, got == MAP_FAILED ? -errno : 0);
	if (got == MAP_FAILED) {
		if (errno != EEXIST)	/* EEXIST: malloc took the hole */
			op_error(t, "mmap of a hole (MAP_FIXED_NOREPLACE)", -errno);
		goto out;
	}
	if (got != want) {
		say("ERROR worker %d: MAP_FIXED_NOREPLACE at %p mapped %p", w->wid,
		    want, got);
		ADD(w->ws->errors, 1);
		munmap(got, (c1 - c0) * CHUNK);
		goto out;
	}
	for (c = c0; c < c1; c++) {
		g->chunk_mapped[c] = 1;
		for (p = 0; p < CHUNK_PAGES; p++)
			g->pm[c * CHUNK_PAGES + p].state = P_ZERO;
	}
out:
	pthread_rwlock_unlock(&g->lock);
}

/* Every own page of every region: by the CPU, or by a device too. */
static size_t verify_all(struct thread *t, int with_device)
{
	struct worker *w = t->w;
	size_t c, p, n = 0;
	int r, ret;

	for (r = 0; r < NREG; r++) {
		struct region *g = &w->reg[r];

		pthread_rwlock_rdlock(&g->lock);
		for (c = 0; g->base && c < g->npages / CHUNK_PAGES; c++) {
			if (!g->chunk_mapped[c] || !own_chunk(t, c))
				continue;
			heartbeat(t);
			if (with_device && w->ndev) {
				int dev = pick_dev(t);

				memset(t->buf, 0xee, CHUNK);
				ret = uvm_dev_read(w->fd, dev, g->base + c * CHUNK,
						   CHUNK, t->buf);
				if (ret) {
					op_error(t, "final device read", ret);
				} else {
					for (p = 0; p < CHUNK_PAGES; p++)
						verify_mem(t, "final device read", r,
							   c * CHUNK_PAGES + p,
							   t->buf + p * PG);
					n += CHUNK_PAGES;
				}
			}
			for (p = 0; p < CHUNK_PAGES; p++)
				verify_mem(t, "final cpu sweep", r, c * CHUNK_PAGES + p,
					   page_addr(w, r, c * CHUNK_PAGES + p));
			n += CHUNK_PAGES;
		}
		pthread_rwlock_unlock(&g->lock);
	}
	return n;
}

/* Residency of own pages: a page with data must be backed somewhere. */
static void op_residency(struct thread *t)
{
	struct worker *w = t->w;
	struct uvm_page_residency res[CHUNK_PAGES];
	size_t c, p;
	int r, ret;

	r = pick_own_chunk(t, &c);
	if (r < 0)
		return;
	ret = uvm_residency(w->fd, page_addr(w, r, c * CHUNK_PAGES), CHUNK_PAGES,
			    res);
	log_op(t, OP_RESIDENCY, r, c, 1, -1, ret);
	if (ret) {
		op_error(t, "residency", ret);
	} else {
		for (p = 0; p < CHUNK_PAGES; p++) {
			const struct pmodel *m = &w->reg[r].pm[c * CHUNK_PAGES + p];

			if (m->state == P_DATA &&
			    (!(res[p].flags & UVM_PAGE_POPULATED) ||
			     (res[p].cpu_node < 0 && !res[p].devices_resident))) {
				say("ERROR worker %d: region %d page %zu has data but residency flags %#x cpu_node %d devices %#llx",
				    w->wid, r, c * CHUNK_PAGES + p, res[p].flags,
				    res[p].cpu_node,
				    (unsigned long long)res[p].devices_resident);
				ADD(w->ws->errors, 1);
			}
		}
	}
	unlock_region(w, r);
}

static enum op pick_op(struct thread *t)
{
	int total = 0, k, x;

	for (k = 0; k < OP_NR; k++)
		total += op_weight[k];
	x = rnd_n(&t->rng, total);
	for (k = 0; k < OP_NR; k++) {
		x -= op_weight[k];
		if (x < 0)
			break;
	}
	if (k == OP_NR || (sh->skip_mask & (1U << k)) ||
	    (k == OP_HOSTREG_RACE && !t->w->hostreg_race) ||
	    ((k == OP_HOSTREG || k == OP_HOSTREG_RACE) && !t->w->hostreg))
		return OP_CPU_VERIFY;
	return k;
}

static void do_op(struct thread *t, enum op op)
{
	set_op(t, op);
	switch (op) {
	case OP_CPU_WRITE: op_cpu_write(t); break;
	case OP_CPU_VERIFY: op_cpu_verify(t); break;
	case OP_CPU_RANDOM: op_cpu_random(t); break;
	case OP_DEV_WRITE: op_dev_rw(t, 1); break;
	case OP_DEV_READ: op_dev_rw(t, 0); break;
	case OP_DEV_LIST: op_dev_list(t); break;
	case OP_PREFETCH: op_prefetch(t, 0); break;
	case OP_PREFETCH_REGION: op_prefetch(t, 1); break;
	case OP_ADVISE: op_advise(t); break;
	case OP_DISCARD: op_discard(t); break;
	case OP_MEMCPY: op_memcpy(t); break;
	case OP_HOSTREG: op_hostreg(t); break;
	case OP_DALLOC: op_dalloc(t); break;
	case OP_MUNMAP: op_munmap(t); break;
	case OP_MAP: op_map(t); break;
	case OP_VERIFY_ALL: verify_all(t, 0); break;
	case OP_RESIDENCY: op_residency(t); break;
	case OP_HOSTREG_RACE: op_hostreg_race(t); break;
	default: break;
	}
	ADD(t->w->ws->ops[op], 1);
	set_op(t, OP_IDLE);
}

static void *thread_main(void *arg)
{
	struct thread *t = arg;
	size_t n;

	while (!__atomic_load_n(&sh->stop, __ATOMIC_RELAXED))
		do_op(t, pick_op(t));
	set_op(t, OP_FINAL);
	n = verify_all(t, 1);
	ADD(t->w->ws->final_pages, n);
	set_op(t, OP_IDLE);
	return NULL;
}

static int count_nodes(void)
{
	char path[64];
	int n;

	for (n = 0; n < 8; n++) {
		snprintf(path, sizeof(path), "/sys/devices/system/node/node%d", n);
		if (access(path, F_OK))
			break;
	}
	return n ? n : 1;
}

static void __attribute__((noreturn)) worker_main(int wid, uint32_t gen,
						  uint64_t seed, int hostreg)
{
	struct worker w = { .wid = wid, .gen = gen, .hostreg = hostreg & 1,
			    .hostreg_race = (hostreg & 2) != 0 };
	struct uvm_device_info info[UVM_MAX_DEVICES];
	pthread_t th[MAXT];
	uint64_t rng;
	int k, r, n;

	w.ws = &sh->w[wid];
	w.seed = seed;
	w.nthreads = wid % 3 == 2 ? 2 : 1;	/* a third share their blocks */
	rng = mix64(seed ^ ((uint64_t)wid << 32) ^ ((uint64_t)gen << 8)) | 1;
	w.fd = uvm_open();
	if (w.fd < 0) {
		say("ERROR worker %d: open /dev/uvm: %s", wid, strerror(errno));
		_exit(2);
	}
	n = uvm_devices(w.fd, info, UVM_MAX_DEVICES);
	for (k = 0; k < n && w.ndev < MAXDEV; k++)
		w.dev[w.ndev++] = info[k].id;
	w.nnodes = count_nodes();
	for (r = 0; r < NREG; r++) {
		struct region *g = &w.reg[r];

		pthread_rwlock_init(&g->lock, NULL);
		/* 2, 4, 8 or 16 MiB, plus a few chunks (not block-sized) */
		g->npages = (512UL << rnd_n(&rng, 4)) +
			    CHUNK_PAGES * rnd_n(&rng, 8);
		if (g->npages > MAX_REG_PAGES)
			g->npages = MAX_REG_PAGES;
		g->chunk_mapped = calloc(g->npages / CHUNK_PAGES, 1);
		g->pm = calloc(g->npages, sizeof(*g->pm));
		if (!g->chunk_mapped || !g->pm)
			_exit(2);
	}
	for (k = 0; k < w.nthreads; k++) {
		struct thread *t = &threads[k];

		t->w = &w;
		t->tid = k;
		t->rng = mix64(rng + k + 1) | 1;
		t->buf = malloc(MAX_RUN_CHUNKS * CHUNK);
		t->buf2 = malloc(CHUNK);
		t->acc = calloc(MAX_RUN_CHUNKS * CHUNK_PAGES, sizeof(*t->acc));
		if (!t->buf || !t->buf2 || !t->acc)
			_exit(2);
	}
	/* Start with one or two regions; OP_MAP grows the rest. */
	for (r = 0; r < 1 + (int)rnd_n(&rng, 2); r++) {
		struct region *g = &w.reg[r];

		g->base = uvm_map(w.fd, g->npages * PG);
		if (!g->base) {
			say("ERROR worker %d: mmap: %s", wid, strerror(errno));
			_exit(2);
		}
		memset(g->chunk_mapped, 1, g->npages / CHUNK_PAGES);
		for (k = 0; k < (int)g->npages; k++)
			g->pm[k].state = P_ZERO;
	}
	heartbeat(&threads[0]);
	for (k = 1; k < w.nthreads; k++)
		pthread_create(&th[k], NULL, thread_main, &threads[k]);
	thread_main(&threads[0]);
	for (k = 1; k < w.nthreads; k++)
		pthread_join(th[k], NULL);
	/* Half the time the regions go by munmap, else by exit. */
	if (rnd_n(&rng, 2))
		for (r = 0; r < NREG; r++)
			if (w.reg[r].base)
				unmap_chunks(&w.reg[r], 0,
					     w.reg[r].npages / CHUNK_PAGES);
	__atomic_store_n(&w.ws->final_ok, 1, __ATOMIC_RELEASE);
	_exit(0);
}

/* --- supervisor ------------------------------------------------------------ */

struct sup {
	int nworkers, reap_s, hang_s, hostreg, kill_min_ms, kill_max_ms;
	uint64_t seed, rng;
	double seconds;
	pid_t pid[MAXW];
	uint64_t killed_at[MAXW];	/* ms, 0: not being killed */
	unsigned long spawned, kills, kills_by_op[OP_NR], reap_slow, hangs;
	unsigned long data_fail, other_exit;
	uint64_t reap_max_ms;
	uint32_t killed_op[MAXW];	/* what the victim was doing */
	uint32_t reap_max_op;
	int fatal;
};

static void spawn(struct sup *s, int wid)
{
	pid_t pid;
	uint32_t gen = sh->w[wid].gen + 1;

	sh->w[wid].gen = gen;
	sh->w[wid].final_ok = 0;
	sh->w[wid].heartbeat_ms = now_ms();
	for (int k = 0; k < MAXT; k++)
		sh->w[wid].op[k] = OP_IDLE;
	fflush(stdout);
	fflush(stderr);
	pid = fork();
	if (pid < 0) {
		say("FAIL fork: %s", strerror(errno));
		s->fatal = 1;
		return;
	}
	if (!pid)
		worker_main(wid, gen, s->seed, s->hostreg);
	sh->w[wid].pid = pid;
	s->pid[wid] = pid;
	s->spawned++;
}

/* Print a /proc file line by line; the number of lines. */
static int dump_file(const char *path, const char *label)
{
	int lines = 0;
	char buf[4096];
	ssize_t n;
	int fd = open(path, O_RDONLY);
	char *line, *save = NULL;

	if (fd < 0)
		return 0;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0)
		return 0;
	buf[n] = 0;
	for (line = strtok_r(buf, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save), lines++)
		say("  %s: %s", label, line);
	return lines;
}

/* /proc/PID/task/T/{stack,wchan} and the state of every thread. */
static void dump_stacks(pid_t pid)
{
	char path[320], label[300];
	struct dirent *de;
	DIR *d;

	snprintf(path, sizeof(path), "/proc/%d/task", pid);
	d = opendir(path);
	if (!d) {
		say("  /proc/%d: gone", pid);
		return;
	}
	while ((de = readdir(d))) {
		if (de->d_name[0] == '.')
			continue;
		snprintf(label, sizeof(label), "pid %d task %s wchan", pid, de->d_name);
		snprintf(path, sizeof(path), "/proc/%d/task/%s/wchan", pid, de->d_name);
		{
			char wc[128] = "";
			int fd = open(path, O_RDONLY);

			if (fd >= 0) {
				ssize_t n = read(fd, wc, sizeof(wc) - 1);

				wc[n > 0 ? n : 0] = 0;
				close(fd);
			}
			say("  %s: %s", label, wc);
		}
		snprintf(label, sizeof(label), "pid %d task %s", pid, de->d_name);
		snprintf(path, sizeof(path), "/proc/%d/task/%s/stat", pid, de->d_name);
		dump_file(path, label);
		snprintf(path, sizeof(path), "/proc/%d/task/%s/syscall", pid, de->d_name);
		dump_file(path, label);
		/* A running task shows no stack: look a few times. */
		snprintf(path, sizeof(path), "/proc/%d/task/%s/stack", pid, de->d_name);
		for (int k = 0; k < 10 && !dump_file(path, label); k++)
			usleep(100000);
	}
	closedir(d);
}

static int worker_of(struct sup *s, pid_t pid)
{
	for (int i = 0; i < s->nworkers; i++)
		if (s->pid[i] == pid)
			return i;
	return -1;
}

/* A worker ended (status @st): account for it and start it again. */
static void reaped(struct sup *s, int i, int st, int restart)
{
	uint64_t t = now_ms();

	if (s->killed_at[i]) {
		uint64_t dt = t - s->killed_at[i];

		if (dt > s->reap_max_ms) {
			s->reap_max_ms = dt;
			s->reap_max_op = s->killed_op[i];
		}
		if (dt > 2000)
			say("slow reap: worker %d killed in %s, reaped after %llu ms",
			    i, op_name[s->killed_op[i] % OP_NR],
			    (unsigned long long)dt);
		s->killed_at[i] = 0;
		if (!(WIFSIGNALED(st) && WTERMSIG(st) == SIGKILL) &&
		    !(WIFEXITED(st) && WEXITSTATUS(st) == 0)) {
			/* it failed just before the kill */
			goto failed;
		}
	} else if (!(WIFEXITED(st) && WEXITSTATUS(st) == 0 && !restart)) {
failed:
		if (WIFEXITED(st) && WEXITSTATUS(st) == 3)
			s->data_fail++;
		else
			s->other_exit++;
		say("FAIL worker %d gen %u (pid %d) ended on its own: %s %d", i,
		    sh->w[i].gen, s->pid[i],
		    WIFEXITED(st) ? "exit" : "signal",
		    WIFEXITED(st) ? WEXITSTATUS(st) : WTERMSIG(st));
	}
	s->pid[i] = 0;
	if (restart && !s->fatal)
		spawn(s, i);
}

/* Reap whatever ended, without waiting. */
static void reap_any(struct sup *s, int restart)
{
	int st, i;
	pid_t pid;

	while ((pid = waitpid(-1, &st, WNOHANG)) > 0) {
		i = worker_of(s, pid);
		if (i >= 0)
			reaped(s, i, st, restart);
	}
}

/* SIGKILL worker @i and reap it within the bound (else FAIL, stacks). */
static void kill_worker(struct sup *s, int i, uint32_t op)
{
	uint64_t t0, limit;
	pid_t pid = s->pid[i];
	int st, slow = 0;

	t0 = now_ms();
	s->killed_at[i] = t0;
	s->killed_op[i] = op;
	kill(pid, SIGKILL);
	s->kills++;
	s->kills_by_op[op < OP_NR ? op : 0]++;
	limit = t0 + s->reap_s * 1000ULL;
	for (;;) {
		pid_t r = waitpid(pid, &st, WNOHANG);

		if (r == pid) {
			reaped(s, i, st, 1);
			return;
		}
		if (now_ms() > limit && !slow) {
			slow = 1;
			s->reap_slow++;
			say("FAIL worker %d (pid %d) not reaped %d s after SIGKILL (killed in %s; its threads were in %s / %s):",
			    i, pid, s->reap_s, op_name[op < OP_NR ? op : 0],
			    op_name[sh->w[i].op[0] % OP_NR],
			    op_name[sh->w[i].op[1] % OP_NR]);
			dump_stacks(pid);
			limit = t0 + 120000;	/* how long it takes after all */
		} else if (now_ms() > limit) {
			say("FAIL worker %d (pid %d) still not reaped after 120 s: unkillable",
			    i, pid);
			dump_stacks(pid);
			s->fatal = 1;
			return;
		}
		usleep(5000);
	}
}

/* Workers without a heartbeat for hang_s seconds: stacks, FAIL, kill. */
static void check_hangs(struct sup *s)
{
	uint64_t t = now_ms();

	for (int i = 0; i < s->nworkers; i++) {
		uint64_t hb = __atomic_load_n(&sh->w[i].heartbeat_ms, __ATOMIC_RELAXED);

		if (!s->pid[i] || t < hb + s->hang_s * 1000ULL)
			continue;
		s->hangs++;
		say("FAIL worker %d gen %u (pid %d) made no progress for %d s (in %s / %s):",
		    i, sh->w[i].gen, s->pid[i], s->hang_s, op_name[sh->w[i].op[0] % OP_NR],
		    op_name[sh->w[i].op[1] % OP_NR]);
		dump_stacks(s->pid[i]);
		kill_worker(s, i, sh->w[i].op[0]);
	}
}

static double opt_num(int argc, char **argv, const char *name, const char *env,
		      double def)
{
	const char *v = getenv(env);

	for (int i = 1; i < argc - 1; i++)
		if (!strcmp(argv[i], name))
			v = argv[i + 1];
	return v && *v ? strtod(v, NULL) : def;
}

static int has_flag(int argc, char **argv, const char *name)
{
	for (int i = 1; i < argc; i++)
		if (!strcmp(argv[i], name))
			return 1;
	return 0;
}

int main(int argc, char **argv)
{
	struct sup s = { 0 };
	struct uvm_device_info info[UVM_MAX_DEVICES];
	uint64_t t_start, t_end, next_kill, ev0 = 0, ev1 = 0, pv = 0, pw = 0;
	uint64_t enospc = 0, errors = 0, eexist = 0, final_pages = 0, ops[OP_NR] = { 0 };
	unsigned long final_bad = 0;
	int fd, ndev, i, k, mem_ok = 1;
	const char *v;
	double minutes;
	int keep_going;
	uint32_t skip_mask = 0;

	setvbuf(stdout, NULL, _IOLBF, 0);
	ksft_print_header();
	ksft_set_plan(7);

	s.seconds = opt_num(argc, argv, "--seconds", "UVM_STRESS_SECONDS", 45);
	if (opt_num(argc, argv, "--minutes", "UVM_STRESS_MINUTES", 0) > 0)
		s.seconds = 60 * opt_num(argc, argv, "--minutes", "UVM_STRESS_MINUTES", 0);
	s.nworkers = opt_num(argc, argv, "--workers", "UVM_STRESS_WORKERS", 6);
	if (s.nworkers < 1)
		s.nworkers = 1;
	if (s.nworkers > MAXW)
		s.nworkers = MAXW;
	s.reap_s = opt_num(argc, argv, "--reap", "UVM_STRESS_REAP_S",
			   10 * uvm_test_timeout_scale());
	s.hang_s = opt_num(argc, argv, "--hang", "UVM_STRESS_HANG_S", 180);
	s.hostreg = !has_flag(argc, argv, "--no-hostreg") &&
		    !(getenv("UVM_STRESS_NO_HOSTREG") &&
		      atoi(getenv("UVM_STRESS_NO_HOSTREG")));
	/* F3 (docs/reliability.md) takes the kernel down: opt-in until fixed */
	if (s.hostreg && (has_flag(argc, argv, "--hostreg-race") ||
			  (getenv("UVM_STRESS_HOSTREG_RACE") &&
			   atoi(getenv("UVM_STRESS_HOSTREG_RACE")))))
		s.hostreg |= 2;
	s.kill_min_ms = 100;
	s.kill_max_ms = 1500;
	v = getenv("UVM_STRESS_KILL_MS");
	for (i = 1; i < argc - 1; i++)
		if (!strcmp(argv[i], "--kill-ms"))
			v = argv[i + 1];
	if (v && sscanf(v, "%d,%d", &s.kill_min_ms, &s.kill_max_ms) != 2)
		s.kill_max_ms = s.kill_min_ms;
	if (s.kill_max_ms < s.kill_min_ms)
		s.kill_max_ms = s.kill_min_ms;
	keep_going = has_flag(argc, argv, "--keep-going") ||
		     (getenv("UVM_STRESS_KEEP_GOING") &&
		      atoi(getenv("UVM_STRESS_KEEP_GOING")));
	v = getenv("UVM_STRESS_SKIP");
	for (i = 1; i < argc - 1; i++)
		if (!strcmp(argv[i], "--skip"))
			v = argv[i + 1];
	if (v && *v) {
		char *list = strdup(v), *tok, *save = NULL;

		for (tok = strtok_r(list, ",", &save); tok;
		     tok = strtok_r(NULL, ",", &save)) {
			for (k = 1; k < OP_NR && strcmp(tok, op_name[k]); k++)
				;
			if (k == OP_NR)
				ksft_exit_fail_msg("--skip: no operation %s\n", tok);
			skip_mask |= 1U << k;
		}
		free(list);
	}
	v = getenv("UVM_STRESS_SEED");
	for (i = 1; i < argc - 1; i++)
		if (!strcmp(argv[i], "--seed"))
			v = argv[i + 1];
	s.seed = v && *v ? strtoull(v, NULL, 0) :
		 (uint64_t)time(NULL) ^ ((uint64_t)getpid() << 20);
	s.rng = mix64(s.seed) | 1;

	fd = uvm_open();
	if (fd < 0) {
		ksft_print_msg("no /dev/uvm: %s\n", strerror(errno));
		ksft_exit_skip("no /dev/uvm\n");
	}
	ndev = uvm_devices(fd, info, UVM_MAX_DEVICES);
	ev0 = uvm_stat(fd, UVM_STAT_EVICTIONS, UVM_STATS_GLOBAL);
	{
		uint64_t devmem = 0;

		for (k = 0; k < ndev; k++)
			devmem += info[k].mem_total;
		ksft_print_msg("seed %#llx (UVM_STRESS_SEED), %d workers, %.0f s, %d devices with %llu MiB, reap bound %d s, hostreg %s\n",
			       (unsigned long long)s.seed, s.nworkers, s.seconds,
			       ndev, (unsigned long long)(devmem / MIB), s.reap_s,
			       s.hostreg & 2 ? "on, racing munmap" :
			       s.hostreg ? "on" : "off");
	}
	close(fd);	/* the workers are forked without it */

	sh = mmap(NULL, sizeof(*sh), PROT_READ | PROT_WRITE,
		  MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (sh == MAP_FAILED)
		ksft_exit_fail_msg("mmap shared: %s\n", strerror(errno));
	memset(sh, 0, sizeof(*sh));
	sh->skip_mask = skip_mask;
	if (skip_mask || keep_going)
		ksft_print_msg("skipping operations %#x%s\n", skip_mask,
			       keep_going ? ", going on after data mismatches" : "");

	t_start = now_ms();
	t_end = t_start + (uint64_t)(s.seconds * 1000);
	for (i = 0; i < s.nworkers; i++)
		spawn(&s, i);
	next_kill = t_start + s.kill_min_ms +
		    rnd_n(&s.rng, s.kill_max_ms - s.kill_min_ms + 1);
	while (!s.fatal && now_ms() < t_end && (keep_going || !s.data_fail)) {
		reap_any(&s, 1);
		check_hangs(&s);
		if (now_ms() >= next_kill) {
			int victim = rnd_n(&s.rng, s.nworkers);
			uint32_t op;

			if (s.pid[victim]) {
				/*
				 * Half of the kills wait (up to 1 s) for the
				 * victim to be inside a chosen operation.
				 */
				if (rnd_n(&s.rng, 2)) {
					uint32_t want = 1 + rnd_n(&s.rng, OP_HOSTREG_RACE);
					uint64_t until = now_ms() + 1000;

					while (now_ms() < until &&
					       sh->w[victim].op[0] != want &&
					       sh->w[victim].op[1] != want)
						usleep(200);
				}
				op = sh->w[victim].op[0];
				if (op == OP_IDLE)
					op = sh->w[victim].op[1];
				kill_worker(&s, victim, op);
			}
			next_kill = now_ms() + s.kill_min_ms +
				    rnd_n(&s.rng, s.kill_max_ms - s.kill_min_ms + 1);
			if (s.kills % 50 == 0)
				ksft_print_msg("%.0f s: %lu kills, %lu processes\n",
					       (now_ms() - t_start) / 1000.0, s.kills,
					       s.spawned);
		}
		usleep(10000);
	}
	minutes = (now_ms() - t_start) / 60000.0;

	/* The end: every worker checks everything once more and exits. */
	sh->stop = 1;
	{
		uint64_t until = now_ms() + 600000;
		int left;

		do {
			reap_any(&s, 0);
			check_hangs(&s);
			for (left = 0, i = 0; i < s.nworkers; i++)
				left += s.pid[i] != 0;
			if (left)
				usleep(20000);
		} while (left && now_ms() < until && !s.fatal);
		if (left) {
			say("FAIL %d workers did not finish", left);
			for (i = 0; i < s.nworkers; i++)
				if (s.pid[i]) {
					dump_stacks(s.pid[i]);
					kill(s.pid[i], SIGKILL);
				}
			final_bad += left;
		}
	}
	for (i = 0; i < s.nworkers; i++) {
		if (!sh->w[i].final_ok)
			final_bad++;
		pv += sh->w[i].pages_verified;
		pw += sh->w[i].pages_written;
		enospc += sh->w[i].enospc;
		errors += sh->w[i].errors;
		eexist += sh->w[i].memcpy_eexist;
		final_pages += sh->w[i].final_pages;
		for (k = 0; k < OP_NR; k++)
			ops[k] += sh->w[i].ops[k];
	}

	/* All VA spaces are gone: every device must be all free again. */
	fd = uvm_open();
	if (fd >= 0) {
		struct uvm_device_info now[UVM_MAX_DEVICES];
		int n = uvm_devices(fd, now, UVM_MAX_DEVICES);

		ev1 = uvm_stat(fd, UVM_STAT_EVICTIONS, UVM_STATS_GLOBAL);
		for (k = 0; k < n; k++)
			if (now[k].mem_free != now[k].mem_total) {
				say("device %u: %llu of %llu bytes free after the run",
				    now[k].id, (unsigned long long)now[k].mem_free,
				    (unsigned long long)now[k].mem_total);
				mem_ok = 0;
			}
		close(fd);
	} else {
		mem_ok = 0;
	}
	{
		long dma = uvm_read_long("/sys/module/uvm/stats/dma_mapped_pages");

		if (dma > 0) {
			say("dma_mapped_pages %ld after the run", dma);
			mem_ok = 0;
		}
	}

	{
		char line[1024];
		int n = 0;

		for (k = 1; k < OP_NR; k++)
			if (ops[k])
				n += snprintf(line + n, sizeof(line) - n, " %s %llu",
					      op_name[k], (unsigned long long)ops[k]);
		ksft_print_msg("operations:%s\n", line);
		for (n = 0, k = 0; k < OP_NR; k++)
			if (s.kills_by_op[k])
				n += snprintf(line + n, sizeof(line) - n, " %s %lu",
					      op_name[k], s.kills_by_op[k]);
		ksft_print_msg("kills by operation:%s\n", line);
	}
	ksft_print_msg("figures: seed %#llx, processes %lu, kills %lu, pages verified %llu, pages written %llu, minutes %.2f, evictions %llu, final pages %llu, ENOSPC %llu, slowest reap %llu ms (killed in %s)\n",
		       (unsigned long long)s.seed, s.spawned, s.kills,
		       (unsigned long long)pv, (unsigned long long)pw, minutes,
		       (unsigned long long)(ev1 - ev0),
		       (unsigned long long)final_pages, (unsigned long long)enospc,
		       (unsigned long long)s.reap_max_ms,
		       op_name[s.reap_max_op % OP_NR]);

	if (__atomic_load_n(&sh->fail_claimed, __ATOMIC_RELAXED) && sh->fail_text[0]) {
		ksft_print_msg("the first data mismatch, as its worker said it:\n");
		fputs(sh->fail_text, stdout);
		fflush(stdout);
	}
	ksft_test_result(!s.data_fail, "survivors' data intact (%lu mismatches)\n",
			 s.data_fail);
	ksft_test_result(!s.reap_slow && !s.fatal,
			 "every SIGKILLed worker reaped within %d s (%lu kills, %lu slow)\n",
			 s.reap_s, s.kills, s.reap_slow);
	ksft_test_result(!s.hangs && !errors && !s.other_exit,
			 "no hang, no unexpected error or exit (%lu hangs, %llu errors, %lu exits)\n",
			 s.hangs, (unsigned long long)errors, s.other_exit);
	ksft_test_result(!eexist,
			 "memcpy of managed memory works wherever it lives (%llu EEXIST/EFAULT: F1 in docs/reliability.md)\n",
			 (unsigned long long)eexist);
	ksft_test_result(!final_bad, "final verification by every worker (%llu pages)\n",
			 (unsigned long long)final_pages);
	ksft_test_result(mem_ok, "device memory all free after the run\n");
	if (ev1 > ev0)
		ksft_test_result_pass("oversubscription: %llu evictions\n",
				      (unsigned long long)(ev1 - ev0));
	else
		ksft_test_result_skip("no eviction happened (not oversubscribed)\n");
	ksft_finished();
}
