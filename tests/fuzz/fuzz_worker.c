// SPDX-License-Identifier: GPL-2.0
/*
 * fuzz_worker.c - a worker process: its files (own VA spaces, another
 * worker's through pidfd_getfd(), render nodes, a tmpfs file, an O_DIRECT
 * file when one can be had), its threads and their operation loop, and the
 * process-level operations: fork (the child touches ranges, calls ioctls
 * on the inherited files and exits), reopen, exit.
 *
 * Every thread's PRNG comes from the run's seed, the worker index, its
 * generation (respawns) and the thread index.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "fuzz.h"

static struct fz_worker fz_w;
static unsigned int fz_mode;	/* 0: ioctl sweep, 1: everything */

/* Names that are parts of operations, not operations (--only keeps them). */
static int fz_subfeature(const char *name)
{
	static const char *const sub[] = {
		"vmsplice", "odirect", "proc_mem", "fork_ioctl",
	};
	unsigned int i;

	if (!strncmp(name, "madv_", 5) || !strncmp(name, "io_", 3))
		return 1;
	for (i = 0; i < FZ_ARRAY_SIZE(sub); i++)
		if (!strcmp(name, sub[i]))
			return 1;
	return 0;
}

int fz_skipped(const char *name)
{
	char key[80];

	snprintf(key, sizeof(key), ",%s,", name);
	if (strstr(fz_opts.skip, key))
		return 1;
	return fz_opts.only[0] && !strstr(fz_opts.only, key) &&
	       !fz_subfeature(name);
}

void fz_data_error(struct fz_thread *t, const char *fmt, ...)
{
	struct fz_shared *sh = t->w->sh;
	char msg[200];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	if (__atomic_fetch_add(&sh->data_errors, 1, __ATOMIC_RELAXED) == 0)
		snprintf(sh->data_msg, sizeof(sh->data_msg), "worker %d thread %d: %s",
			 t->w->idx, t->idx, msg);
	fprintf(stderr, "# data error: worker %d thread %d: %s\n", t->w->idx,
		t->idx, msg);
}

/* ---- process-level operations ---------------------------------------- */

/* The child of a fork: a few touches and ioctls, then it goes. */
static void fz_child(struct fz_thread *t) __attribute__((noreturn));
static void fz_child(struct fz_thread *t)
{
	struct fz_region r;
	int i, n = 1 + fz_below(t, 8);

	alarm(10);
	t->rng = fz_mix(t->rng, getpid());
	for (i = 0; i < n; i++) {
		switch (fz_below(t, 4)) {
		case 0:
			if (!fz_skipped("fork_ioctl"))
				fz_ioctl_one(t, fz_uvm_fd(t), fz_rand(t));
			break;
		case 1:
			if (!fz_pick_snapshot(t, -1, &r) && fz_chance(t, 30))
				munmap((void *)r.addr, r.len);
			break;
		default:
			if (!fz_pick_snapshot(t, -1, &r))
				fz_cpu_touch(t, r.addr, r.len, fz_chance(t, 50));
		}
	}
	if (fz_chance(t, 10))
		raise(SIGKILL);
	_exit(0);
}

static int op_fork(struct fz_thread *t)
{
	pid_t pid = fork();
	int status;

	if (pid < 0)
		return -errno;
	if (!pid)
		fz_child(t);
	if (fz_chance(t, 20))
		kill(pid, SIGKILL);
	return waitpid(pid, &status, 0) < 0 ? -errno : 0;
}

/* A new VA space in place of one of the extra files. */
static int op_reopen(struct fz_thread *t)
{
	int k = 1 + fz_below(t, FZ_FDS - 1), fd, old;

	fd = open("/dev/uvm", O_RDWR | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	old = __atomic_exchange_n(&t->w->fds[k], fd, __ATOMIC_ACQ_REL);
	if (old >= 0 && fz_chance(t, 90))
		close(old);
	return 0;
}

/* Another worker's VA space, through pidfd_getfd(); and an mmap of it. */
static int op_foreign(struct fz_thread *t)
{
	struct fz_shared *sh = t->w->sh;
	unsigned int j = fz_below(t, FZ_MAX_WORKERS);
	int pidfd, fd, old;
	void *p;

	if (fz_skipped("foreign") || !sh->w[j].pid || (int)j == t->w->idx)
		return 0;
	pidfd = syscall(SYS_pidfd_open, sh->w[j].pid, 0);
	if (pidfd < 0)
		return -errno;
	fd = syscall(SYS_pidfd_getfd, pidfd, sh->w[j].uvm_fd, 0);
	close(pidfd);
	if (fd < 0)
		return -errno;
	old = __atomic_exchange_n(&t->w->fds[FZ_FDS], fd, __ATOMIC_ACQ_REL);
	if (old >= 0)
		close(old);
	p = mmap(t->priv, FZ_PAGE, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_FIXED,
		 fd, 0);
	if (p != MAP_FAILED) {
		fz_cpu_touch(t, (uintptr_t)p, FZ_PAGE, 1);
		mmap(t->priv, FZ_PAGE, PROT_NONE,
		     MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED | MAP_NORESERVE, -1, 0);
	}
	return 0;
}

static int op_exit(struct fz_thread *t)
{
	if (fz_chance(t, 97))
		return 0;
	if (fz_chance(t, 50))
		raise(SIGKILL);
	_exit(0);
}

/* The module's run-time parameters, to values in and out of range. */
static int op_params(struct fz_thread *t)
{
	static const char *const names[] = {
		"fault_granule_kb", "fault_batch", "fault_ahead_blocks",
		"host_pool_mb", "copy_helpers", "bar_read_method",
	};
	static const char *const vals[] = {
		"0", "1", "2", "4", "8", "16", "64", "256", "2048", "4096", "4097",
		"-1", "x", "99999999999", "3", "",
	};
	const char *v = vals[fz_below(t, FZ_ARRAY_SIZE(vals))];
	char path[128];
	ssize_t n;
	int fd;

	snprintf(path, sizeof(path), "/sys/module/uvm/parameters/%s",
		 names[fz_below(t, FZ_ARRAY_SIZE(names))]);
	fd = open(path, O_WRONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	n = write(fd, v, strlen(v) + fz_chance(t, 20));
	close(fd);
	return n < 0 ? -errno : 0;
}

static const struct fz_op fz_proc_ops[] = {
	{ "fork", op_fork, 3 },
	{ "reopen", op_reopen, 2 },
	{ "foreign", op_foreign, 2 },
	{ "exit", op_exit, 1 },
	{ "params", op_params, 1 },
};

/* ---- the operation table ----------------------------------------------- */

static const struct {
	const struct fz_op *ops;
	const unsigned int *n;
} fz_tables[] = {
	{ fz_mm_ops, &fz_mm_nops },
	{ fz_ioctl_ops, &fz_ioctl_nops },
	{ fz_access_ops, &fz_access_nops },
	{ fz_owner_ops, &fz_owner_nops },
};

static const unsigned int fz_proc_nops = FZ_ARRAY_SIZE(fz_proc_ops);

/* Operation @i of all of them (NULL past the end); *@nops: how many. */
const struct fz_op *fz_op_get(unsigned int i, unsigned int *nops)
{
	unsigned int k, total = fz_proc_nops;
	const struct fz_op *op = i < fz_proc_nops ? &fz_proc_ops[i] : NULL;

	i -= fz_proc_nops;
	for (k = 0; k < FZ_ARRAY_SIZE(fz_tables); k++) {
		if (!op && i < *fz_tables[k].n)
			op = &fz_tables[k].ops[i];
		i -= *fz_tables[k].n;
		total += *fz_tables[k].n;
	}
	if (nops)
		*nops = total;
	return op;
}

static unsigned int fz_enabled[128], fz_cum[128], fz_nenabled, fz_total;

static void fz_ops_init(void)
{
	unsigned int i, n;
	const struct fz_op *op;

	fz_op_get(0, &n);
	for (i = 0; i < n && fz_nenabled < FZ_ARRAY_SIZE(fz_enabled); i++) {
		op = fz_op_get(i, NULL);
		if (fz_skipped(op->name))
			continue;
		if (fz_mode == 0 && strncmp(op->name, "map_", 4) &&
		    strcmp(op->name, "unmap") && strcmp(op->name, "ioctl") &&
		    strcmp(op->name, "state"))
			continue;
		fz_total += op->weight;
		fz_enabled[fz_nenabled] = i;
		fz_cum[fz_nenabled++] = fz_total;
	}
}

static unsigned int fz_choose(struct fz_thread *t)
{
	uint64_t x = fz_below(t, fz_total);
	unsigned int i;

	for (i = 0; i < fz_nenabled; i++)
		if (x < fz_cum[i])
			return fz_enabled[i];
	return fz_enabled[0];
}

static void *fz_thread_main(void *arg)
{
	struct fz_thread *t = arg;
	struct fz_tstat *st = t->st;
	unsigned int i;

	fz_thread_bind(t);
	while (!t->w->sh->stop && fz_nenabled) {
		i = fz_choose(t);
		st->hist[st->hist_pos++ % FZ_HIST] = i;
		st->cur_op = i + 1;
		if (fz_op_get(i, NULL)->fn(t) < 0)
			__atomic_add_fetch(&t->w->sh->op_err[i], 1, __ATOMIC_RELAXED);
		else
			__atomic_add_fetch(&t->w->sh->op_ok[i], 1, __ATOMIC_RELAXED);
		st->cur_op = 0;
		st->ops++;
	}
	return NULL;
}

/* ---- set-up ---------------------------------------------------------------- */

/* A file that takes O_DIRECT, in the first directory that has one. */
static int fz_dio_open(struct fz_shared *sh)
{
	const char *dirs[] = { getenv("UVM_FUZZ_DIO_DIR"), "/var/tmp", "/tmp",
			       "build", "." };
	char path[4096];
	unsigned int i;
	void *buf;
	int fd;

	buf = mmap(NULL, FZ_PAGE, PROT_READ | PROT_WRITE,
		   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	for (i = 0; i < FZ_ARRAY_SIZE(dirs); i++) {
		if (!dirs[i])
			continue;
		snprintf(path, sizeof(path), "%s/.uvm-fuzz-dio.%d", dirs[i], getpid());
		fd = open(path, O_RDWR | O_CREAT | O_EXCL | O_DIRECT | O_CLOEXEC, 0600);
		if (fd < 0)
			continue;
		unlink(path);
		if (!ftruncate(fd, FZ_FILE_SIZE) &&
		    pwrite(fd, buf, FZ_PAGE, 0) == (ssize_t)FZ_PAGE) {
			munmap(buf, FZ_PAGE);
			snprintf(sh->dio_dir, sizeof(sh->dio_dir), "%s", dirs[i]);
			return fd;
		}
		close(fd);
	}
	munmap(buf, FZ_PAGE);
	return -1;
}

static void fz_drm_open(struct fz_worker *w)
{
	struct dirent *de;
	char path[300];
	DIR *d = opendir("/dev/dri");

	while (d && (de = readdir(d)) && w->ndrm < FZ_MAX_DEVICES) {
		if (strncmp(de->d_name, "renderD", 7))
			continue;
		snprintf(path, sizeof(path), "/dev/dri/%s", de->d_name);
		w->drm[w->ndrm] = open(path, O_RDWR | O_CLOEXEC);
		if (w->drm[w->ndrm] >= 0)
			w->ndrm++;
	}
	if (d)
		closedir(d);
}

static int fz_worker_setup(struct fz_worker *w)
{
	struct uvm_get_info gi = { 0 };
	int i;

	for (i = 0; i < FZ_FDS; i++)
		w->fds[i] = open("/dev/uvm", O_RDWR | O_CLOEXEC);
	w->fds[FZ_FDS] = -1;
	if (w->fds[0] < 0)
		return -errno;
	w->sh->w[w->idx].uvm_fd = w->fds[0];
	if (!ioctl(w->fds[0], UVM_IOCTL_GET_INFO, &gi))
		w->ndev = gi.num_devices;
	fz_drm_open(w);
	w->memfd = memfd_create("uvm-fuzz", MFD_CLOEXEC);
	if (w->memfd < 0 || ftruncate(w->memfd, FZ_FILE_SIZE))
		return -errno;
	w->dio_fd = fz_dio_open(w->sh);
	w->proc_mem = open("/proc/self/mem", O_RDWR | O_CLOEXEC);
	return fz_arena_init(w);
}

static int fz_thread_setup(struct fz_worker *w, int i)
{
	struct fz_thread *t = &w->th[i];

	t->w = w;
	t->idx = i;
	t->rng = fz_mix(w->seed, i + 1) | 1;
	t->st = &w->sh->w[w->idx].th[i];
	if (pipe2(t->pipe, O_NONBLOCK | O_CLOEXEC))
		return -errno;
	return 0;
}

void fz_worker_main(struct fz_shared *sh, int idx, uint64_t seed,
		    int nthreads, int mode)
{
	struct fz_worker *w = &fz_w;
	pthread_t tid[FZ_MAX_THREADS];
	int i, ret;

	w->idx = idx;
	w->seed = seed;
	w->sh = sh;
	w->nthreads = nthreads;
	fz_mode = mode;
	fz_guard_install();
	ret = fz_worker_setup(w);
	for (i = 0; !ret && i < nthreads; i++)
		ret = fz_thread_setup(w, i);
	if (ret) {
		fprintf(stderr, "# worker %d: set-up failed: %s\n", idx, strerror(-ret));
		_exit(3);
	}
	fz_ops_init();
	for (i = 1; i < nthreads; i++)
		if (pthread_create(&tid[i], NULL, fz_thread_main, &w->th[i]))
			nthreads = i;
	fz_thread_main(&w->th[0]);
	for (i = 1; i < nthreads; i++)
		pthread_join(tid[i], NULL);
	_exit(0);
}
