// SPDX-License-Identifier: MIT
/*
 * uvm_proc.c - scan /proc for users of /dev/uvm and the uvm render nodes.
 *
 * The module answers residency queries only for the VA space's own mm, so
 * another process's managed memory is seen two ways:
 *  - its VA-space counters (UVM_IOCTL_STATS, scope VA space) on a duplicate
 *    of its /dev/uvm file taken with pidfd_getfd(2) (needs ptrace access:
 *    root, or the same user when the Yama scope allows it). populated -
 *    freed is the number of host pages the VA space holds;
 *  - /proc/PID/numa_maps of its /dev/uvm mappings: pages mapped by the CPU,
 *    per NUMA node (unmapped but resident pages are not in it).
 * Device residency per process needs a module query (see
 * docs/observability.md, "Gaps").
 */
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "uvm_proc.h"

#ifndef SYS_pidfd_open
#define SYS_pidfd_open 434
#endif
#ifndef SYS_pidfd_getfd
#define SYS_pidfd_getfd 438
#endif

static void read_comm(int pid, char *buf, size_t len)
{
	char path[64];
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%d/comm", pid);
	buf[0] = 0;
	f = fopen(path, "re");
	if (!f)
		return;
	if (fgets(buf, (int)len, f))
		buf[strcspn(buf, "\n")] = 0;
	fclose(f);
}

/* Add where the managed memory of the VA space @fd lives to @p. */
static void add_va_summary(struct ut_proc *p, int fd)
{
	struct uvm_va_space_summary s;
	int i;

	memset(&s, 0, sizeof(s));
	if (ioctl(fd, UVM_IOCTL_VA_SPACE_SUMMARY, &s)) {
		p->summary_err = -errno;
		return;
	}
	p->managed_pages += s.managed_pages;
	for (i = 0; i < UT_MAX_NODES && i < UVM_SUMMARY_NODES; i++)
		p->host_pages[i] += s.host_pages[i];
	for (i = 0; i < UVM_MAX_DEVICES; i++)
		p->device_pages[i] += s.device_pages[i];
}

/* Add the VA-space counters and residency of the target's file @tfd. */
static void add_va_stats(struct ut_proc *p, int pidfd, int tfd)
{
	uint64_t v[UT_MAX_STATS];
	int fd, n, i;

	fd = pidfd < 0 ? -1 : (int)syscall(SYS_pidfd_getfd, pidfd, tfd, 0);
	if (fd < 0) {
		p->stats_err = pidfd < 0 ? p->stats_err : -errno;
		p->summary_err = p->stats_err;
		return;
	}
	add_va_summary(p, fd);
	n = ut_read_stats(fd, UVM_STATS_VA_SPACE, v, UT_MAX_STATS);
	close(fd);
	if (n < 0) {
		p->stats_err = n;
		return;
	}
	for (i = 0; i < n; i++)
		p->stats[i] += v[i];
	if (n > p->nstats)
		p->nstats = n;
}

/* Classify one fd: /dev/uvm or a render node. */
static void scan_fd(struct ut_proc *p, int pidfd, const char *fddir,
		    const char *name)
{
	char path[320], target[256];
	ssize_t n;
	unsigned int minor;

	snprintf(path, sizeof(path), "%s/%s", fddir, name);
	n = readlink(path, target, sizeof(target) - 1);
	if (n <= 0)
		return;
	target[n] = 0;
	if (!strcmp(target, "/dev/uvm")) {
		p->uvm_files++;
		add_va_stats(p, pidfd, atoi(name));
	} else if (sscanf(target, "/dev/dri/renderD%u", &minor) == 1 &&
		   minor >= 128 && minor < 192) {
		p->render_mask |= 1ULL << (minor - 128);
	}
}

/* Sum the N<node>=<pages> fields of the /dev/uvm lines of numa_maps. */
static void read_numa_maps(struct ut_proc *p)
{
	char path[64], line[1024], *tok, *save;
	unsigned int node;
	unsigned long pages;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%d/numa_maps", p->pid);
	f = fopen(path, "re");
	if (!f) {
		p->maps_err = -errno;
		return;
	}
	while (fgets(line, sizeof(line), f)) {
		if (!strstr(line, " file=/dev/uvm"))
			continue;
		for (tok = strtok_r(line, " \n", &save); tok;
		     tok = strtok_r(NULL, " \n", &save))
			if (sscanf(tok, "N%u=%lu", &node, &pages) == 2 &&
			    node < UT_MAX_NODES)
				p->mapped_pages[node] += pages;
	}
	fclose(f);
}

static struct ut_proc *list_add(struct ut_proc_list *l)
{
	struct ut_proc *np;

	if (l->n == l->cap) {
		l->cap = l->cap ? 2 * l->cap : 16;
		np = realloc(l->p, l->cap * sizeof(*np));
		if (!np)
			return NULL;
		l->p = np;
	}
	np = &l->p[l->n];
	memset(np, 0, sizeof(*np));
	return np;
}

/* Scan one process; returns 1 if it uses uvm, 0 if not, -1 if hidden. */
static int scan_pid(struct ut_proc *p, int pid)
{
	char fddir[64];
	struct dirent *de;
	int pidfd;
	DIR *d;

	snprintf(fddir, sizeof(fddir), "/proc/%d/fd", pid);
	d = opendir(fddir);
	if (!d)
		return errno == EACCES ? -1 : 0;
	p->pid = pid;
	pidfd = (int)syscall(SYS_pidfd_open, pid, 0);
	if (pidfd < 0)
		p->stats_err = -errno;
	while ((de = readdir(d)))
		if (isdigit((unsigned char)de->d_name[0]))
			scan_fd(p, pidfd, fddir, de->d_name);
	closedir(d);
	if (pidfd >= 0)
		close(pidfd);
	if (!p->uvm_files && !p->render_mask)
		return 0;
	read_comm(pid, p->comm, sizeof(p->comm));
	if (p->uvm_files)
		read_numa_maps(p);
	return 1;
}

/* Every process but this one with /dev/uvm or a render node open. */
int ut_scan_procs(struct ut_proc_list *l)
{
	struct dirent *de;
	struct ut_proc *p;
	DIR *d = opendir("/proc");
	int pid, r;

	memset(l, 0, sizeof(*l));
	if (!d)
		return -errno;
	while ((de = readdir(d))) {
		pid = atoi(de->d_name);
		if (pid <= 0 || pid == getpid())
			continue;
		p = list_add(l);
		if (!p)
			break;
		r = scan_pid(p, pid);
		if (r > 0)
			l->n++;
		else if (r < 0)
			l->hidden++;
	}
	closedir(d);
	return 0;
}

void ut_free_procs(struct ut_proc_list *l)
{
	free(l->p);
	memset(l, 0, sizeof(*l));
}

/*
 * Pages populated minus host pages freed, over the process's VA spaces:
 * the pages it holds while all of them are host pages (device-side
 * population and discard make it an estimate; see docs/observability.md).
 */
uint64_t ut_proc_pop_freed(const struct ut_proc *p)
{
	uint64_t pop = p->stats[UVM_STAT_PAGES_POPULATED];
	uint64_t freed = p->stats[UVM_STAT_PAGES_FREED];

	return pop > freed ? pop - freed : 0;
}
