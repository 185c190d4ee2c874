// SPDX-License-Identifier: GPL-2.0
/*
 * fuzz_report.c - what the supervisor reports: kernel log lines that mean
 * a kernel bug (the same patterns tests/vm/run checks, read from /dev/kmsg
 * as they come), and the state of a task that does not die: its stack,
 * wchan and the operations its threads were in.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fuzz.h"
#include "fuzz_report.h"

static const char *const fz_bad[] = {
	"BUG:", "WARNING:", "Oops", "KASAN", "UBSAN:", "possible circular locking",
	"INFO: task", "INFO: rcu", "blocked for more than", "general protection",
	"Call Trace", "kernel BUG", "list_add corruption", "list_del corruption",
	"soft lockup", "hard LOCKUP", "self-detected stall", "uvm: leak",
	"Bad page", "refcount_t:", "page dumped because",
};

#define FZ_CONTEXT_LINES	40

int fz_kmsg_open(void)
{
	int fd = open("/dev/kmsg", O_RDONLY | O_NONBLOCK | O_CLOEXEC);

	if (fd >= 0)
		lseek(fd, 0, SEEK_END);
	return fd;
}

static int fz_is_bad(const char *msg)
{
	unsigned int i;

	for (i = 0; i < FZ_ARRAY_SIZE(fz_bad); i++)
		if (strstr(msg, fz_bad[i]))
			return 1;
	return 0;
}

/* Read what the kernel logged since the last call; print the lines that
 * mean a bug and the ones after them. Returns the number of bad lines.
 */
static int fz_kmsg_bad;

int fz_kmsg_total(void)
{
	return fz_kmsg_bad;
}

int fz_kmsg_scan(int fd)
{
	static int context;
	char rec[2048], *msg, *nl;
	int bad = 0;
	ssize_t n;

	if (fd < 0)
		return 0;
	for (;;) {
		n = read(fd, rec, sizeof(rec) - 1);
		if (n < 0 && errno == EPIPE)
			continue;	/* overwritten records */
		if (n <= 0)
			break;
		rec[n] = 0;
		msg = strchr(rec, ';');
		msg = msg ? msg + 1 : rec;
		nl = strchr(msg, '\n');
		if (nl)
			*nl = 0;
		if (fz_is_bad(msg)) {
			bad++;
			fz_kmsg_bad++;
			context = FZ_CONTEXT_LINES;
		}
		if (context > 0) {
			context--;
			printf("# kmsg: %s\n", msg);
		}
	}
	fflush(stdout);
	return bad;
}

static void fz_print_file(const char *what, const char *path)
{
	char buf[4096];
	ssize_t n;
	int fd = open(path, O_RDONLY | O_CLOEXEC);

	if (fd < 0)
		return;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0)
		return;
	buf[n] = 0;
	for (char *l = strtok(buf, "\n"); l; l = strtok(NULL, "\n"))
		printf("#   %s: %s\n", what, l);
}

/* A task that outlived its SIGKILL: every thread's state, wchan, stack. */
void fz_dump_task(pid_t pid)
{
	struct dirent *de;
	char path[600], dir[64];
	DIR *d;

	snprintf(dir, sizeof(dir), "/proc/%d/task", pid);
	d = opendir(dir);
	printf("# task %d did not die:\n", pid);
	while (d && (de = readdir(d))) {
		if (de->d_name[0] == '.')
			continue;
		printf("#  thread %s\n", de->d_name);
		snprintf(path, sizeof(path), "%s/%s/stat", dir, de->d_name);
		fz_print_file("stat", path);
		snprintf(path, sizeof(path), "%s/%s/wchan", dir, de->d_name);
		fz_print_file("wchan", path);
		snprintf(path, sizeof(path), "%s/%s/stack", dir, de->d_name);
		fz_print_file("stack", path);
	}
	if (d)
		closedir(d);
	fflush(stdout);
}

/* The operations in flight in worker @w and the last ones it did. */
void fz_dump_ops(const struct fz_shared *sh, int w, int nthreads)
{
	const struct fz_tstat *st;
	char hist[FZ_HIST * 24];
	unsigned int k, n, pos;
	int i;

	for (i = 0; i < nthreads; i++) {
		st = &sh->w[w].th[i];
		hist[0] = 0;
		pos = st->hist_pos;
		for (k = pos > FZ_HIST ? pos - FZ_HIST : 0; k < pos; k++) {
			n = strlen(hist);
			snprintf(hist + n, sizeof(hist) - n, " %s",
				 fz_op_get(st->hist[k % FZ_HIST], NULL)->name);
		}
		printf("#  worker %d (pid %d, gen %u, seed %#llx) thread %d: %s after %llu ops; last:%s\n",
		       w, sh->w[w].pid, sh->w[w].gen,
		       (unsigned long long)sh->w[w].seed, i,
		       st->cur_op ? fz_op_get(st->cur_op - 1, NULL)->name : "idle",
		       (unsigned long long)st->ops, hist);
	}
	fflush(stdout);
}

/* Every process whose parent is @ppid (the orphans a subreaper gets). */
int fz_children(pid_t ppid, pid_t *out, int max)
{
	char path[300], buf[512], *p;
	struct dirent *de;
	int n = 0, fd, pp;
	DIR *d = opendir("/proc");
	ssize_t r;

	while (d && (de = readdir(d)) && n < max) {
		if (de->d_name[0] < '0' || de->d_name[0] > '9')
			continue;
		snprintf(path, sizeof(path), "/proc/%s/stat", de->d_name);
		fd = open(path, O_RDONLY | O_CLOEXEC);
		if (fd < 0)
			continue;
		r = read(fd, buf, sizeof(buf) - 1);
		close(fd);
		if (r <= 0)
			continue;
		buf[r] = 0;
		p = strrchr(buf, ')');
		if (p && sscanf(p + 2, "%*c %d", &pp) == 1 && pp == ppid)
			out[n++] = atoi(de->d_name);
	}
	if (d)
		closedir(d);
	return n;
}
