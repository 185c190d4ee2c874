// SPDX-License-Identifier: GPL-2.0
/*
 * fuzz_access.c - CPU and kernel-mode accesses to the regions: loads,
 * stores and atomics (SIGSEGV and SIGBUS are caught: legal outcomes),
 * read(2)/write(2) of a pipe or a tmpfs file into/from them, vmsplice,
 * O_DIRECT (when some file system of the VM has it), process_vm_readv/
 * writev and /proc/self/mem; each after putting the range in a residency
 * state sometimes. op_integrity checks that the kernel-mode paths (GUP
 * pins included) lose no data across migrations, on private buffers no
 * other operation targets.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/uio.h>
#include <sys/wait.h>
#include <unistd.h>

#include "fuzz.h"

#define FZ_IO_MAX	(64 * 1024)
#define FZ_INTEG_PAGES	16

static __thread struct fz_thread *fz_cur;

static void fz_fault_handler(int sig)
{
	struct fz_thread *t = fz_cur;

	if (t && t->guarded) {
		t->guarded = 0;
		t->faults++;
		siglongjmp(t->env, sig);
	}
	signal(sig, SIG_DFL);	/* unexpected: die of it, the supervisor says so */
}

void fz_guard_install(void)
{
	struct sigaction sa = { .sa_handler = fz_fault_handler,
				.sa_flags = SA_NODEFER };

	sigaction(SIGSEGV, &sa, NULL);
	sigaction(SIGBUS, &sa, NULL);
	signal(SIGPIPE, SIG_IGN);
}

void fz_thread_bind(struct fz_thread *t)
{
	fz_cur = t;
}

/* Touch up to 64 pages of [a, a + len): a byte, a word or an atomic add. */
void fz_cpu_touch(struct fz_thread *t, uintptr_t a, size_t len, int write)
{
	size_t step = len / 64 > FZ_PAGE ? len / 64 : FZ_PAGE;
	volatile size_t i = 0;
	int atomic = write && fz_chance(t, 20);

	if (sigsetjmp(t->env, 1))
		i += step;
	t->guarded = 1;
	for (; i < len; i += step) {
		volatile uint64_t *p = (volatile uint64_t *)((a + i) & ~7UL);

		if (atomic)
			__atomic_fetch_add((uint64_t *)p, 1, __ATOMIC_SEQ_CST);
		else if (write)
			*p = i;
		else
			(void)*p;
	}
	t->guarded = 0;
}

/*
 * Guarded memset: another thread may unmap or mprotect the range at any
 * moment (wild munmap, mremap onto it), which is a legal outcome.
 * Returns 0, or the signal that stopped it.
 */
int fz_memset(struct fz_thread *t, void *p, int c, size_t n)
{
	volatile char *d = p;
	volatile size_t i = 0;
	int sig;

	sig = sigsetjmp(t->env, 1);
	if (sig)
		return sig;
	t->guarded = 1;
	for (; i < n; i++)
		d[i] = (char)c;
	t->guarded = 0;
	return 0;
}

/* A target for an access: a piece of a region (managed mostly). */
static int fz_target(struct fz_thread *t, uintptr_t *a, size_t *len)
{
	struct fz_region r;

	if (fz_pick_snapshot(t, fz_chance(t, 70) ? FZ_MANAGED : -1, &r))
		return -1;
	*a = fz_region_addr(t, &r);
	*len = 1 + fz_below(t, r.len < FZ_IO_MAX ? r.len : FZ_IO_MAX);
	if (fz_chance(t, 5))
		*a = fz_wild_addr(t);
	if (!fz_is_arena(*a) && *len > FZ_PAGE / 2)
		*len = FZ_PAGE / 2;
	if (fz_is_arena(*a) && *a + *len > FZ_ARENA_BASE + FZ_ARENA_SIZE)
		*len = FZ_ARENA_BASE + FZ_ARENA_SIZE - *a;
	return 0;
}

static void fz_drain(struct fz_thread *t)
{
	while (read(t->pipe[0], t->scratch + FZ_MIB, FZ_IO_MAX) > 0)
		;
}

/* One kernel- or user-mode access of [a, a + len); @kind picks which. */
static int fz_access(struct fz_thread *t, unsigned int kind, uintptr_t a,
		     size_t len)
{
	struct fz_worker *w = t->w;
	struct iovec local = { t->scratch + FZ_MIB, len }, remote = { (void *)a, len };
	ssize_t n = 0;

	switch (kind % 11) {
	case 0:
	case 1:
		fz_cpu_touch(t, a, len, kind % 11);
		return 0;
	case 2:		/* the kernel reads it */
		n = write(t->pipe[1], (void *)a, len);
		fz_drain(t);
		break;
	case 3:		/* the kernel writes it */
		if (write(t->pipe[1], t->scratch + FZ_MIB, len) > 0)
			n = read(t->pipe[0], (void *)a, len);
		fz_drain(t);
		break;
	case 4:
		n = pwrite(w->memfd, (void *)a, len, fz_below(t, 64) * FZ_PAGE);
		break;
	case 5:
		n = pread(w->memfd, (void *)a, len, fz_below(t, 64) * FZ_PAGE);
		break;
	case 6:
		if (fz_skipped("vmsplice"))
			return 0;
		n = vmsplice(t->pipe[1], &remote, 1,
			     SPLICE_F_NONBLOCK | (fz_chance(t, 30) ? SPLICE_F_GIFT : 0));
		if (fz_chance(t, 50))
			fz_set_state(t, fz_uvm_fd(t), a & ~(FZ_PAGE - 1),
				     (len + FZ_PAGE) & ~(FZ_PAGE - 1), fz_below(t, 8));
		fz_drain(t);
		break;
	case 7:
		if (w->dio_fd < 0 || fz_skipped("odirect"))
			return 0;
		a &= ~(FZ_PAGE - 1);
		len = (len + FZ_PAGE - 1) & ~(FZ_PAGE - 1);
		remote.iov_base = (void *)a;
		remote.iov_len = len;
		if (fz_chance(t, 50))
			n = pwrite(w->dio_fd, (void *)a, len, fz_below(t, 64) * FZ_PAGE);
		else
			n = pread(w->dio_fd, (void *)a, len, fz_below(t, 64) * FZ_PAGE);
		break;
	case 8:
		n = process_vm_readv(getpid(), &local, 1, &remote, 1, 0);
		break;
	case 9:
		n = process_vm_writev(getpid(), &local, 1, &remote, 1, 0);
		break;
	default:
		if (!fz_is_arena(a) || fz_skipped("proc_mem"))
			return 0;
		n = fz_chance(t, 50) ? pread(w->proc_mem, t->scratch + FZ_MIB, len, a)
				     : pwrite(w->proc_mem, t->scratch + FZ_MIB, len, a);
	}
	return n < 0 ? -errno : 0;
}

static int op_access(struct fz_thread *t)
{
	uintptr_t a;
	size_t len;

	if (fz_target(t, &a, &len))
		return 0;
	return fz_access(t, fz_below(t, 11), a, len);
}

/* A managed piece into a residency state, then one access of it. */
static int op_state_access(struct fz_thread *t)
{
	struct fz_region r;
	uintptr_t a;
	size_t len;

	if (fz_pick_snapshot(t, FZ_MANAGED, &r))
		return 0;
	a = r.addr + (fz_below(t, r.len) & ~(FZ_PAGE - 1));
	len = FZ_PAGE * (1 + fz_below(t, (r.addr + r.len - a) / FZ_PAGE));
	if (len > FZ_IO_MAX)
		len = FZ_IO_MAX;
	fz_set_state(t, r.fd, a, len, fz_below(t, 8));
	return fz_access(t, fz_below(t, 11), a + fz_below(t, 64), len);
}

static unsigned char fz_pat(uint64_t seed, size_t i)
{
	return (unsigned char)fz_mix(seed, i / 8) ^ (unsigned char)i;
}

/* Guarded compare of @n bytes at @p against the pattern: index + 1 of
 * the first difference, 0 if none, -1 if the read faulted.
 */
static long fz_check(struct fz_thread *t, const char *p, size_t n,
		     uint64_t seed)
{
	volatile size_t i = 0;

	if (sigsetjmp(t->env, 1))
		return -1;
	t->guarded = 1;
	for (; i < n; i++)
		if ((unsigned char)p[i] != fz_pat(seed, i))
			break;
	t->guarded = 0;
	return i < n ? (long)i + 1 : 0;
}

static void fz_fill(char *p, size_t n, uint64_t seed)
{
	size_t i;

	for (i = 0; i < n; i++)
		p[i] = fz_pat(seed, i);
}

/* Data-preserving states: host nodes, device, read-duplicated, unset. */
static void fz_move(struct fz_thread *t, int fd, char *p, size_t len)
{
	static const unsigned int keep[] = { 0, 1, 2, 3, 6 };

	fz_set_state(t, fd, (uintptr_t)p, len, keep[fz_below(t, 5)]);
}

/* Pinned by vmsplice, moved, read back through the pipe. */
static int fz_integ_vmsplice(struct fz_thread *t, int fd, char *p, size_t len,
			     uint64_t seed, char *out)
{
	struct iovec v = { p, len };
	ssize_t n, got = 0;

	if (fz_skipped("vmsplice"))
		return -1;
	fz_drain(t);
	n = vmsplice(t->pipe[1], &v, 1, SPLICE_F_NONBLOCK);
	if (n <= 0)
		return -1;
	fz_move(t, fd, p, len);
	fz_move(t, fd, p, len);
	while (got < n) {
		ssize_t r = read(t->pipe[0], out + got, n - got);

		if (r <= 0)
			break;
		got += r;
	}
	return fz_check(t, out, got, seed) > 0 ? 1 : 0;
}

/* Written to a file by O_DIRECT (or a plain write) from one state, read
 * back into another buffer in another state.
 */
static int fz_integ_file(struct fz_thread *t, int fd, char *p, char *q,
			 size_t len, uint64_t seed)
{
	int dio = t->w->dio_fd >= 0 && !fz_skipped("odirect") && fz_chance(t, 70);
	int f = dio ? t->w->dio_fd : t->w->memfd;
	off_t off = FZ_INTEG_OFF + t->idx * FZ_INTEG_PAGES * FZ_PAGE;

	if (pwrite(f, p, len, off) != (ssize_t)len)
		return -1;
	fz_move(t, fd, q, len);
	if (pread(f, q, len, off) != (ssize_t)len)
		return -1;
	fz_move(t, fd, q, len);
	return fz_check(t, q, len, seed) > 0 ? 2 : 0;
}

/* process_vm_writev into device-resident memory, pipe read into it. */
static int fz_integ_remote(struct fz_thread *t, int fd, char *p, char *q,
			   size_t len, uint64_t seed)
{
	struct iovec l = { p, len }, r = { q, len };

	fz_move(t, fd, q, len);
	if (process_vm_writev(getpid(), &l, 1, &r, 1, 0) != (ssize_t)len)
		return -1;
	fz_move(t, fd, q, len);
	if (fz_check(t, q, len, seed) > 0)
		return 3;
	fz_move(t, fd, q, len);
	if (write(t->pipe[1], p, len) != (ssize_t)len)
		return -1;
	if (read(t->pipe[0], q, len) != (ssize_t)len)
		return -1;
	fz_move(t, fd, q, len);
	return fz_check(t, q, len, seed) > 0 ? 4 : 0;
}

/* fork with the buffer under MADV_DOFORK, DONTFORK, WIPEONFORK or none:
 * the child reads it and, sometimes, calls the managed ioctls on it
 * through the inherited file (which must refuse them: EPERM), then exits;
 * the parent's data stays.
 */
static int fz_integ_fork(struct fz_thread *t, int fd, char *p, size_t len,
			 uint64_t seed)
{
	static const int adv[] = { MADV_DOFORK, MADV_DONTFORK, MADV_WIPEONFORK, -1 };
	int a = adv[fz_below(t, FZ_ARRAY_SIZE(adv))], status, i;
	int ioctls = fz_chance(t, 50) && !fz_skipped("fork_ioctl");
	pid_t pid;

	if (a == MADV_DOFORK && fz_skipped("madv_dofork"))
		a = -1;
	if (a >= 0)
		madvise(p, len, a);
	pid = fork();
	if (pid < 0)
		return -1;
	if (!pid) {
		alarm(10);
		fz_cpu_touch(t, (uintptr_t)p, len, 0);
		for (i = 0; i < 4 && ioctls; i++)
			fz_set_state(t, fd, (uintptr_t)p, len, fz_below(t, 8));
		_exit(0);
	}
	waitpid(pid, &status, 0);
	fz_move(t, fd, p, len);
	if (!fz_check(t, p, len, seed))
		return 0;
	snprintf(t->note, sizeof(t->note), "madvise %d, child %s ioctls", a,
		 ioctls ? "with" : "without");
	return 6;
}

/* Map a private buffer, fill it, run check @kind, report a difference. */
static int fz_integrity(struct fz_thread *t, unsigned int kind)
{
	static const char *const what[] = {
		"", "vmsplice+migrate", "file/O_DIRECT+migrate",
		"process_vm_writev", "pipe read", "source buffer after migrations",
		"fork + ioctls in the child + child exit",
	};
	size_t len = FZ_PAGE * (1 + fz_below(t, FZ_INTEG_PAGES / 2));
	int fd = t->w->fds[0], bad = 0;
	uint64_t seed = fz_rand(t);
	char *p, *q;

	p = mmap(t->priv, 2 * len, PROT_READ | PROT_WRITE,
		 MAP_SHARED | MAP_FIXED, fd, 0);
	if (p == MAP_FAILED)
		return -errno;
	q = p + len;
	fz_move(t, fd, p, 2 * len);
	fz_fill(p, len, seed);
	fz_move(t, fd, p, len);
	switch (kind) {
	case 0:
		bad = fz_integ_vmsplice(t, fd, p, len, seed, t->scratch + FZ_MIB);
		break;
	case 1:
		bad = fz_integ_file(t, fd, p, q, len, seed);
		break;
	case 2:
		bad = fz_integ_fork(t, fd, p, len, seed);
		break;
	default:
		bad = fz_integ_remote(t, fd, p, q, len, seed);
	}
	if (!bad && fz_check(t, p, len, seed) > 0)
		bad = 5;
	if (bad > 0)
		fz_data_error(t, "%s: data lost (%zu bytes, pattern seed %#llx)%s%s",
			      what[bad], len, (unsigned long long)seed,
			      t->note[0] ? ": " : "", t->note);
	t->note[0] = 0;
	mmap(t->priv, FZ_PRIV_SIZE, PROT_NONE,
	     MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED | MAP_NORESERVE, -1, 0);
	fz_drain(t);
	return bad < 0 ? -EAGAIN : 0;	/* -EAGAIN: could not check */
}

static int op_integrity_vmsplice(struct fz_thread *t)
{
	return fz_integrity(t, 0);
}

static int op_integrity_file(struct fz_thread *t)
{
	return fz_integrity(t, 1);
}

static int op_integrity_fork(struct fz_thread *t)
{
	return fz_integrity(t, 2);
}

static int op_integrity_remote(struct fz_thread *t)
{
	return fz_integrity(t, 3);
}

const struct fz_op fz_access_ops[] = {
	{ "access", op_access, 25 },
	{ "state_access", op_state_access, 15 },
	{ "integrity_vmsplice", op_integrity_vmsplice, 2 },
	{ "integrity_file", op_integrity_file, 2 },
	{ "integrity_fork", op_integrity_fork, 2 },
	{ "integrity_remote", op_integrity_remote, 2 },
};

const unsigned int fz_access_nops = FZ_ARRAY_SIZE(fz_access_ops);
