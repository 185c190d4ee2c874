// SPDX-License-Identifier: GPL-2.0
/*
 * uvm_fuzz - the project's own fuzzer of /dev/uvm and its render nodes.
 *
 *   uvm_fuzz [--seed N] [--seconds N] [--workers N] [--threads N]
 *            [--skip op,op] [--only op,op] [--no-dofork] [--hwpoison]
 *            [--reap-timeout S] [--list]
 *
 * The supervisor (this process) never opens /dev/uvm. It runs three
 * phases, each in worker processes it forks (fuzz_worker.c):
 *
 *   ioctl_sweep  one worker, one thread: regions and every ioctl
 *   threads      one worker, --threads threads: every operation
 *   processes    --workers workers: every operation, forks, exits, and
 *                the supervisor SIGKILLs workers at random and respawns them
 *
 * and a fourth result, kernel_log. A phase fails on a kernel report in the
 * log (BUG, WARNING, lockdep, KASAN... read from /dev/kmsg as it comes), a
 * data-integrity error, a worker that dies of anything but SIGKILL, a
 * thread that makes no progress for 90 s, or a worker that is not reaped
 * within --reap-timeout seconds of its SIGKILL (its stack, wchan and the
 * operations in flight are printed). TAP output (kselftest.h).
 *
 * Defaults come from UVM_FUZZ_SEED / UVM_FUZZ_SECONDS / UVM_FUZZ_ARGS too;
 * the seed is a time-based one unless given, and always printed.
 */
#include <errno.h>
#include <getopt.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "kselftest.h"
#include "fuzz.h"
#include "fuzz_report.h"

#define FZ_STALL_S	90

struct fz_opts fz_opts = {
	.seconds = 120, .workers = 3, .threads = 3, .reap_timeout = 30,
};

struct fz_phase {
	const char *name;
	unsigned int seconds;
	int workers;
	int threads;
	int mode;
	int kills;		/* SIGKILL workers at random */
};

struct fz_run {
	struct fz_shared *sh;
	const struct fz_phase *ph;
	int kmsg;
	int failed;
	int kernel_report;
	pid_t stopped;		/* worker group stopped by SIGSTOP */
	double cont_at;		/* when it gets its SIGCONT */
	uint64_t rng;
	uint64_t last_ops[FZ_MAX_WORKERS][FZ_MAX_THREADS];
	double last_progress[FZ_MAX_WORKERS][FZ_MAX_THREADS];
};

static double fz_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static void fz_fail(struct fz_run *r, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
static void fz_fail(struct fz_run *r, const char *fmt, ...)
{
	va_list ap;

	printf("# %s: ", r->ph->name);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf("\n");
	fflush(stdout);
	r->failed = 1;
}

/* ---- workers ------------------------------------------------------------ */

static void fz_spawn(struct fz_run *r, int w)
{
	struct fz_wstat *ws = &r->sh->w[w];
	uint64_t seed;
	pid_t pid;

	seed = fz_mix(fz_mix(fz_opts.seed, (uint64_t)r->ph->mode << 8 | w), ws->gen);
	memset(ws->th, 0, sizeof(ws->th));
	ws->seed = seed;
	fflush(stdout);
	fflush(stderr);
	pid = fork();
	if (pid < 0) {
		ws->pid = 0;
		return;
	}
	if (!pid) {
		setpgid(0, 0);
		fz_worker_main(r->sh, w, seed, r->ph->threads, r->ph->mode);
	}
	setpgid(pid, pid);
	ws->pid = pid;
	if (fz_opts.verbose)
		printf("# %s: worker %d gen %u pid %d seed %#llx\n", r->ph->name,
		       w, ws->gen, pid, (unsigned long long)seed);
}

/* How a worker ended: SIGKILL, SIGALRM and exit 0 are normal. */
static void fz_check_exit(struct fz_run *r, int w, int status)
{
	if (WIFSIGNALED(status) && WTERMSIG(status) != SIGKILL &&
	    WTERMSIG(status) != SIGALRM) {
		printf("# %s: worker %d (seed %#llx) died of signal %d\n",
		       r->ph->name, w, (unsigned long long)r->sh->w[w].seed,
		       WTERMSIG(status));
		fz_dump_ops(r->sh, w, r->ph->threads);
		r->failed = 1;
	} else if (WIFEXITED(status) && WEXITSTATUS(status)) {
		printf("# %s: worker %d exited with %d\n", r->ph->name, w,
		       WEXITSTATUS(status));
		r->failed = 1;
	}
}

/* Reap what has ended; respawn workers while the phase runs. */
static void fz_reap(struct fz_run *r, int respawn)
{
	int status, w;
	pid_t pid;

	while ((pid = waitpid(-1, &status, WNOHANG)) > 0) {
		for (w = 0; w < r->ph->workers; w++)
			if (r->sh->w[w].pid == pid)
				break;
		if (w == r->ph->workers)
			continue;	/* an orphaned grandchild */
		fz_check_exit(r, w, status);
		r->sh->w[w].pid = 0;
		r->sh->w[w].gen++;
		if (respawn)
			fz_spawn(r, w);
	}
}

/* SIGKILL a random worker (and its children), or stop it for a while. */
static void fz_random_kill(struct fz_run *r, double now)
{
	int w = fz_mix(r->rng++, 7) % r->ph->workers;
	pid_t pid = r->sh->w[w].pid;

	if (pid <= 0)
		return;
	if (fz_mix(r->rng++, 3) % 10 < 3 && !r->stopped) {
		kill(-pid, SIGSTOP);
		r->stopped = pid;
		r->cont_at = now + 0.2 + (fz_mix(r->rng++, 4) % 600) / 1000.0;
		return;
	}
	kill(-pid, SIGKILL);
}

static void fz_continue(struct fz_run *r, double now)
{
	if (r->stopped && now >= r->cont_at) {
		kill(-r->stopped, SIGCONT);
		r->stopped = 0;
	}
}

/* A thread that made no progress for FZ_STALL_S seconds. */
static void fz_stall_check(struct fz_run *r, double now)
{
	int w, i;

	for (w = 0; w < r->ph->workers; w++) {
		for (i = 0; i < r->ph->threads; i++) {
			uint64_t ops = r->sh->w[w].th[i].ops;

			if (ops != r->last_ops[w][i] || !r->sh->w[w].pid) {
				r->last_ops[w][i] = ops;
				r->last_progress[w][i] = now;
			} else if (now - r->last_progress[w][i] > FZ_STALL_S) {
				fz_fail(r, "worker %d thread %d: no progress for %d s", w, i, FZ_STALL_S);
				fz_dump_ops(r->sh, w, r->ph->threads);
				fz_dump_task(r->sh->w[w].pid);
				r->last_progress[w][i] = now;
			}
		}
	}
}

/* ---- end of a phase: kill everything, reap it within the bound ------------ */

static int fz_kill_all(struct fz_run *r)
{
	pid_t kids[256];
	int w, n, i;

	for (w = 0; w < r->ph->workers; w++)
		if (r->sh->w[w].pid > 0)
			kill(-r->sh->w[w].pid, SIGKILL);
	n = fz_children(getpid(), kids, 256);
	for (i = 0; i < n; i++)
		kill(kids[i], SIGKILL);
	return n;
}

static void fz_hang_report(struct fz_run *r)
{
	pid_t kids[256];
	int n, i, w;
	FILE *f;

	n = fz_children(getpid(), kids, 256);
	fz_fail(r, "hang: %d task(s) not reaped %u s after SIGKILL", n,
		fz_opts.reap_timeout);
	r->sh->hangs++;
	for (i = 0; i < n; i++) {
		for (w = 0; w < r->ph->workers; w++)
			if (r->sh->w[w].pid == kids[i])
				fz_dump_ops(r->sh, w, r->ph->threads);
		fz_dump_task(kids[i]);
	}
	f = fopen("/proc/sysrq-trigger", "w");
	if (f) {
		fputs("w", f);	/* blocked tasks into the kernel log */
		fclose(f);
	}
}

static void fz_end_phase(struct fz_run *r)
{
	double t0;
	int status;
	pid_t pid;

	r->sh->stop = 1;
	t0 = fz_now();
	while (fz_now() - t0 < 1.0) {
		fz_reap(r, 0);
		usleep(50000);
	}
	fz_kill_all(r);
	t0 = fz_now();
	for (;;) {
		pid = waitpid(-1, &status, WNOHANG);
		if (pid < 0 && errno == ECHILD && !fz_children(getpid(), &pid, 1))
			break;
		if (pid > 0)
			continue;
		if (fz_now() - t0 > fz_opts.reap_timeout) {
			fz_hang_report(r);
			break;
		}
		fz_kill_all(r);
		usleep(100000);
	}
	for (int w = 0; w < r->ph->workers; w++)
		r->sh->w[w].pid = 0;
}

/* How often each operation succeeded and failed (an error is no failure:
 * it says what the generators reach).
 */
static void fz_print_op_stats(const struct fz_shared *sh)
{
	char line[160];
	unsigned int i, n;
	size_t len = 0;

	fz_op_get(0, &n);
	line[0] = 0;
	for (i = 0; i < n && i < FZ_MAX_OPS; i++) {
		if (!sh->op_ok[i] && !sh->op_err[i])
			continue;
		len += snprintf(line + len, sizeof(line) - len, " %s %llu/%llu",
				fz_op_get(i, NULL)->name,
				(unsigned long long)sh->op_ok[i],
				(unsigned long long)sh->op_err[i]);
		if (len > 100) {
			printf("#  ops ok/err:%s\n", line);
			len = 0;
			line[0] = 0;
		}
	}
	if (len)
		printf("#  ops ok/err:%s\n", line);
}

/* ---- a phase ------------------------------------------------------------------ */

static int fz_run_phase(struct fz_shared *sh, int kmsg, const struct fz_phase *ph)
{
	struct fz_run r = { .sh = sh, .ph = ph, .kmsg = kmsg, .rng = fz_opts.seed };
	double start = fz_now(), now, next_kill, next_scan = 0;
	uint64_t ops = 0;
	int w, i;

	memset(sh, 0, sizeof(*sh));
	for (w = 0; w < FZ_MAX_WORKERS; w++)
		for (i = 0; i < FZ_MAX_THREADS; i++)
			r.last_progress[w][i] = start;
	printf("# phase %s: %u s, %d worker(s) x %d thread(s)\n", ph->name,
	       ph->seconds, ph->workers, ph->threads);
	for (w = 0; w < ph->workers; w++)
		fz_spawn(&r, w);
	next_kill = start + 2 + fz_mix(r.rng++, 1) % 5;
	while ((now = fz_now()) - start < ph->seconds && !r.kernel_report) {
		usleep(100000);
		fz_reap(&r, 1);
		fz_continue(&r, now);
		if (ph->kills && now >= next_kill) {
			fz_random_kill(&r, now);
			next_kill = now + 1 + fz_mix(r.rng++, 2) % 6;
		}
		if (now >= next_scan) {
			if (fz_kmsg_scan(kmsg)) {
				fz_fail(&r, "kernel report at %.0f s; operations in flight:",
					now - start);
				r.kernel_report = 1;
				for (w = 0; w < ph->workers; w++)
					fz_dump_ops(sh, w, ph->threads);
			}
			fz_stall_check(&r, now);
			next_scan = now + 1;
		}
	}
	if (sh->data_errors)
		fz_fail(&r, "%llu data error(s)", (unsigned long long)sh->data_errors);
	for (w = 0; w < ph->workers; w++)
		for (i = 0; i < ph->threads; i++)
			ops += sh->w[w].th[i].ops;
	fz_end_phase(&r);
	if (fz_kmsg_scan(kmsg))
		fz_fail(&r, "kernel report while the workers were killed");
	if (sh->data_errors)
		printf("# first data error: %s\n", sh->data_msg);
	fz_print_op_stats(sh);
	printf("#  O_DIRECT: %s\n", sh->dio_dir[0] ? sh->dio_dir : "no file system takes it");
	printf("# phase %s: %.0f s, %llu operations (in the workers alive at its end)\n",
	       ph->name, fz_now() - start, (unsigned long long)ops);
	ksft_test_result(!r.failed, "%s\n", ph->name);
	return !r.failed;
}

/* ---- options ------------------------------------------------------------------ */

static void fz_usage(void)
{
	printf("usage: uvm_fuzz [--seed N] [--seconds N] [--workers N] [--threads N]\n"
	       "                [--skip op,op] [--only op,op] [--no-dofork] [--hwpoison]\n"
	       "                [--reap-timeout S] [--verbose] [--list]\n");
}

static void fz_list(void)
{
	unsigned int i, n;

	fz_op_get(0, &n);
	for (i = 0; i < n; i++)
		printf("%s\n", fz_op_get(i, NULL)->name);
	printf("(parts of operations) vmsplice odirect proc_mem fork_ioctl madv_<advice> io_<ioctl>\n");
}

static void fz_addlist(char *dst, size_t size, const char *list)
{
	size_t n = strlen(dst);

	if (!n)
		dst[n++] = ',';
	snprintf(dst + n, size - n, "%s,", list);
}

static int fz_parse(int argc, char **argv)
{
	static const struct option lo[] = {
		{ "seed", 1, NULL, 's' }, { "seconds", 1, NULL, 't' },
		{ "workers", 1, NULL, 'w' }, { "threads", 1, NULL, 'T' },
		{ "skip", 1, NULL, 'x' }, { "only", 1, NULL, 'o' },
		{ "no-dofork", 0, NULL, 'D' }, { "hwpoison", 0, NULL, 'H' },
		{ "reap-timeout", 1, NULL, 'r' }, { "verbose", 0, NULL, 'v' },
		{ "list", 0, NULL, 'l' }, { "help", 0, NULL, 'h' }, { 0 },
	};
	int c, hwpoison = 0;

	while ((c = getopt_long(argc, argv, "", lo, NULL)) != -1) {
		switch (c) {
		case 's':
			fz_opts.seed = strtoull(optarg, NULL, 0);
			break;
		case 't':
			fz_opts.seconds = atoi(optarg);
			break;
		case 'w':
			fz_opts.workers = atoi(optarg);
			break;
		case 'T':
			fz_opts.threads = atoi(optarg);
			break;
		case 'x':
			fz_addlist(fz_opts.skip, sizeof(fz_opts.skip), optarg);
			break;
		case 'o':
			fz_addlist(fz_opts.only, sizeof(fz_opts.only), optarg);
			break;
		case 'D':
			fz_addlist(fz_opts.skip, sizeof(fz_opts.skip), "madv_dofork");
			break;
		case 'H':
			hwpoison = 1;
			break;
		case 'r':
			fz_opts.reap_timeout = atoi(optarg);
			break;
		case 'v':
			fz_opts.verbose = 1;
			break;
		case 'l':
			fz_list();
			exit(0);
		default:
			fz_usage();
			exit(c == 'h' ? 0 : 2);
		}
	}
	if (!hwpoison)
		fz_addlist(fz_opts.skip, sizeof(fz_opts.skip),
			   "madv_hwpoison,madv_soft_offline");
	if (fz_opts.workers < 1 || fz_opts.workers > FZ_MAX_WORKERS ||
	    fz_opts.threads < 1 || fz_opts.threads > FZ_MAX_THREADS ||
	    fz_opts.seconds < 3) {
		fz_usage();
		exit(2);
	}
	return 0;
}

/* UVM_FUZZ_SEED, UVM_FUZZ_SECONDS, then the command line. */
static void fz_defaults(void)
{
	const char *s = getenv("UVM_FUZZ_SEED"), *t = getenv("UVM_FUZZ_SECONDS");
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	fz_opts.seed = s && *s ? strtoull(s, NULL, 0)
			       : (uint64_t)ts.tv_sec * 1000003 + ts.tv_nsec / 1000;
	if (t && *t)
		fz_opts.seconds = atoi(t);
}

int main(int argc, char **argv)
{
	struct fz_phase ph[3];
	struct fz_shared *sh;
	unsigned int s, i;
	int kmsg, ok = 1;

	fz_defaults();
	fz_parse(argc, argv);
	setvbuf(stdout, NULL, _IOLBF, 0);
	ksft_print_header();
	if (access("/dev/uvm", R_OK | W_OK))
		ksft_exit_skip("no /dev/uvm (module not loaded)\n");
	ksft_set_plan(4);
	printf("# seed %llu (rerun: uvm_fuzz --seed %llu --seconds %u --workers %u --threads %u%s%s%s%s)\n",
	       (unsigned long long)fz_opts.seed, (unsigned long long)fz_opts.seed,
	       fz_opts.seconds, fz_opts.workers, fz_opts.threads,
	       fz_opts.skip[0] ? " --skip " : "", fz_opts.skip,
	       fz_opts.only[0] ? " --only " : "", fz_opts.only);
	prctl(PR_SET_CHILD_SUBREAPER, 1);
	signal(SIGPIPE, SIG_IGN);
	sh = mmap(NULL, sizeof(*sh), PROT_READ | PROT_WRITE,
		  MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (sh == MAP_FAILED)
		ksft_exit_fail_msg("mmap: %s\n", strerror(errno));
	kmsg = fz_kmsg_open();
	s = fz_opts.seconds;
	ph[0] = (struct fz_phase){ "ioctl_sweep", s * 15 / 100 + 1, 1, 1, 0, 0 };
	ph[1] = (struct fz_phase){ "threads", s * 25 / 100 + 1, 1, fz_opts.threads, 1, 0 };
	ph[2] = (struct fz_phase){ "processes", s - ph[0].seconds - ph[1].seconds + 2,
				   fz_opts.workers, fz_opts.threads, 2, 1 };
	for (i = 0; i < 3; i++)
		ok &= fz_run_phase(sh, kmsg, &ph[i]);
	fz_kmsg_scan(kmsg);
	ksft_test_result(kmsg >= 0 && !fz_kmsg_total(), "kernel_log\n");
	if (kmsg < 0)
		printf("# /dev/kmsg: %s\n", strerror(errno));
	printf("# seed %llu: %s\n", (unsigned long long)fz_opts.seed,
	       ok ? "no failure" : "FAILED (rerun with the same seed)");
	return ok ? ksft_exit_pass() : ksft_exit_fail();
}
