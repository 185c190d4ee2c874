// SPDX-License-Identifier: GPL-2.0
/*
 * Managed memory is charged to the memory cgroup of the process that owns
 * the VA space; a CPU fault that cannot be charged raises SIGBUS (never an
 * oops, never another process's memory).
 */
#include <stdio.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/wait.h>

#include "kselftest_harness.h"
#include "uvm_test_util.h"

#define CG_ROOT "/sys/fs/cgroup"

static int cg_write(const char *path, const char *val)
{
	int fd = open(path, O_WRONLY);
	ssize_t n;

	if (fd < 0)
		return -errno;
	n = write(fd, val, strlen(val));
	close(fd);
	return n == (ssize_t)strlen(val) ? 0 : -errno;
}

static long cg_read_long(const char *path)
{
	char buf[64] = { 0 };
	int fd = open(path, O_RDONLY);

	if (fd < 0 || read(fd, buf, sizeof(buf) - 1) <= 0)
		return -1;
	close(fd);
	return atol(buf);
}

/* A child cgroup with memory.max = @max bytes, or NULL if unavailable. */
static char *cg_make(char *dir, size_t len, long max)
{
	char path[256], val[32];

	if (access(CG_ROOT "/cgroup.controllers", F_OK))
		mount("none", CG_ROOT, "cgroup2", 0, NULL);
	cg_write(CG_ROOT "/cgroup.subtree_control", "+memory");
	snprintf(dir, len, CG_ROOT "/uvm-memcg-%d", getpid());
	if (mkdir(dir, 0755) && errno != EEXIST)
		return NULL;
	snprintf(path, sizeof(path), "%s/memory.max", dir);
	snprintf(val, sizeof(val), "%ld", max);
	if (cg_write(path, val)) {
		rmdir(dir);
		return NULL;
	}
	return dir;
}

static void cg_enter(const char *dir)
{
	char path[256], val[32];

	snprintf(path, sizeof(path), "%s/cgroup.procs", dir);
	snprintf(val, sizeof(val), "%d", getpid());
	if (cg_write(path, val))
		_exit(90);
}

TEST(pages_are_charged_to_the_owner)
{
	char dir[128], path[256];
	int status;
	pid_t pid;

	if (!cg_make(dir, sizeof(dir), 256 * MIB))
		SKIP(return, "no cgroup2 memory controller");
	snprintf(path, sizeof(path), "%s/memory.current", dir);
	pid = fork();
	ASSERT_LE(0, pid);
	if (!pid) {
		long before, after;
		int fd;
		char *p;

		cg_enter(dir);
		fd = uvm_open();
		p = uvm_map(fd, 32 * MIB);
		if (!p)
			_exit(91);
		before = cg_read_long(path);
		memset(p, 1, 32 * MIB);
		after = cg_read_long(path);
		_exit(after - before >= (long)(30 * MIB) ? 0 : 92);
	}
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	EXPECT_TRUE(WIFEXITED(status));
	EXPECT_EQ(0, WEXITSTATUS(status));
	rmdir(dir);
}

TEST(fault_beyond_the_limit_raises_sigbus)
{
	char dir[128];
	int status;
	pid_t pid;

	if (!cg_make(dir, sizeof(dir), 24 * MIB))
		SKIP(return, "no cgroup2 memory controller");
	pid = fork();
	ASSERT_LE(0, pid);
	if (!pid) {
		int fd;
		char *p;

		cg_enter(dir);
		fd = uvm_open();
		p = uvm_map(fd, 128 * MIB);
		if (!p)
			_exit(91);
		memset(p, 1, 128 * MIB);	/* must not get through */
		_exit(0);
	}
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	EXPECT_TRUE(WIFSIGNALED(status));
	if (WIFSIGNALED(status))
		EXPECT_EQ(SIGBUS, WTERMSIG(status));
	rmdir(dir);
}

TEST(prefetch_beyond_the_limit_fails_with_enomem)
{
	char dir[128];
	int status;
	pid_t pid;

	if (!cg_make(dir, sizeof(dir), 24 * MIB))
		SKIP(return, "no cgroup2 memory controller");
	pid = fork();
	ASSERT_LE(0, pid);
	if (!pid) {
		int fd, ret;
		char *p;

		cg_enter(dir);
		fd = uvm_open();
		p = uvm_map(fd, 128 * MIB);
		if (!p)
			_exit(91);
		ret = uvm_prefetch(fd, p, 128 * MIB, UVM_LOC_HOST_NUMA, 0);
		_exit(ret == -ENOMEM ? 0 : 92);
	}
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	EXPECT_TRUE(WIFEXITED(status));
	EXPECT_EQ(0, WEXITSTATUS(status));
	rmdir(dir);
}

/*
 * Host pages a migration freed stay pooled and charged to the owner's
 * cgroup; when the owner then needs memory the limit leaves no room for,
 * it gives its pool back first instead of failing.
 */
TEST(pooled_pages_do_not_starve_the_owner)
{
	char dir[128];
	int status, dev, fd0 = uvm_open();
	pid_t pid;

	ASSERT_LE(0, fd0);
	dev = uvm_find_device(fd0, 0, 0);
	close(fd0);
	if (dev < 0)
		SKIP(return, "needs a device");
	if (!cg_make(dir, sizeof(dir), 56 * MIB))
		SKIP(return, "no cgroup2 memory controller");
	pid = fork();
	ASSERT_LE(0, pid);
	if (!pid) {
		int fd;
		char *p, *q;

		cg_enter(dir);
		fd = uvm_open();
		p = uvm_map(fd, 32 * MIB);
		q = uvm_map(fd, 32 * MIB);
		if (!p || !q)
			_exit(91);
		memset(p, 1, 32 * MIB);
		if (uvm_prefetch(fd, p, 32 * MIB, UVM_LOC_DEVICE, dev))
			_exit(92);	/* 32 MiB now pooled, still charged */
		memset(q, 2, 32 * MIB);	/* needs the pool's memory */
		if (uvm_prefetch(fd, p, 32 * MIB, UVM_LOC_DEVICE, dev) ||
		    q[32 * MIB - 1] != 2)
			_exit(93);
		_exit(0);
	}
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	EXPECT_TRUE(WIFEXITED(status));
	if (WIFEXITED(status))
		EXPECT_EQ(0, WEXITSTATUS(status));
	rmdir(dir);
}

TEST_HARNESS_MAIN
