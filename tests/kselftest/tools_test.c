// SPDX-License-Identifier: GPL-2.0
/*
 * uvm-smi, uvm-stat and the sysfs counters, in the VM: uvm-smi lists the
 * devices GET_INFO reports, valid JSON, this process with its managed
 * memory, watch mode; uvm-stat counts what a child did and passes its exit
 * status on; /sys/module/uvm/stats/ and the per-device attributes agree
 * with the ioctls; the per-device counters move on the device an event
 * concerns and on no other; every counter the module has is named by the
 * tools and defined in docs/observability.md. Uses jq (make deps).
 */
#include <limits.h>
#include <stdio.h>
#include <sys/stat.h>

#include "kselftest_harness.h"
#include "uvm_test_util.h"

static char top[PATH_MAX];

/* The repository: this binary is <top>/build/tests/tools_test. */
static const char *repo(void)
{
	ssize_t n;
	char *s;

	if (top[0])
		return top;
	n = readlink("/proc/self/exe", top, sizeof(top) - 1);
	top[n > 0 ? n : 0] = 0;
	s = strstr(top, "/build/tests/");
	if (s)
		*s = 0;
	return top;
}

/* Run a shell command line; its stdout (first 64 KiB) into @out. */
static int run(char *out, size_t len, const char *fmt, ...)
{
	char cmd[2048];
	va_list ap;
	size_t n = 0;
	FILE *f;

	va_start(ap, fmt);
	vsnprintf(cmd, sizeof(cmd), fmt, ap);
	va_end(ap);
	f = popen(cmd, "r");
	if (!f)
		return -1;
	while (out && n < len - 1 && fgets(out + n, len - n, f))
		n += strlen(out + n);
	if (out)
		out[n] = 0;
	else
		while (fgetc(f) != EOF)
			;
	n = pclose(f);
	return WIFEXITED(n) ? WEXITSTATUS(n) : 128;
}

static long run_num(const char *fmt_cmd, const char *arg)
{
	char out[256];

	if (run(out, sizeof(out), fmt_cmd, repo(), arg) != 0)
		return -1000;
	return strtol(out, NULL, 0);
}

static unsigned int num_devices(int fd)
{
	struct uvm_get_info info = { 0 };

	if (ioctl(fd, UVM_IOCTL_GET_INFO, &info))
		return 0;
	return info.num_devices;
}

FIXTURE(tools)
{
	int fd;
	char out[65536];
};

FIXTURE_SETUP(tools)
{
	self->fd = uvm_open();
	ASSERT_LE(0, self->fd);
	ASSERT_EQ(0, access(repo(), F_OK));
}

FIXTURE_TEARDOWN(tools)
{
	close(self->fd);
}

TEST_F(tools, smi_text_lists_the_devices)
{
	char want[64];

	ASSERT_EQ(0, run(self->out, sizeof(self->out), "%s/build/tools/uvm-smi", repo()));
	snprintf(want, sizeof(want), "Devices: %u\n", num_devices(self->fd));
	EXPECT_NE(NULL, strstr(self->out, want)) TH_LOG("%s", self->out);
	EXPECT_NE(NULL, strstr(self->out, "cpu_faults"));
	/* the pageable-memory level, as the module parameter says it */
	EXPECT_EQ(1, run_num("%s/build/tools/uvm-smi | grep -c \"pageable memory: $(cat "
			     "/sys/module/uvm/parameters/pageable)\"", repo()))
		TH_LOG("%s", self->out);
	EXPECT_EQ(1, run_num("%s/build/tools/uvm-smi --json | jq -e \".module.pageable == "
			     "\\\"$(cat /sys/module/uvm/parameters/pageable)\\\"\" | grep -c true",
			     repo()));
}

TEST_F(tools, smi_json_devices_and_memory)
{
	EXPECT_EQ((long)num_devices(self->fd),
		  run_num("%s/build/tools/uvm-smi --json | jq -e '.devices | length'", ""));
	EXPECT_EQ(0, run_num("%s/build/tools/uvm-smi --json | jq '[.devices[] | "
			     "select(.mem_used + .mem_free != .mem_total)] | length'", ""));
}

TEST_F(tools, smi_shows_this_process)
{
	size_t len = 32 * PAGE;
	char *p = uvm_map(self->fd, len), sel[64];

	ASSERT_NE(NULL, p);
	memset(p, 1, len);
	snprintf(sel, sizeof(sel), ".processes[] | select(.pid == %d)", getpid());
	EXPECT_EQ(32, run_num("%s/build/tools/uvm-smi --json | jq -e '%s | .populated_minus_freed'", sel));
	EXPECT_EQ(32, run_num("%s/build/tools/uvm-smi --json | "
			      "jq -e '%s | [.cpu_mapped_pages_by_node[]] | add'", sel));
	EXPECT_EQ(1, run_num("%s/build/tools/uvm-smi --json | jq -e '%s | .va_spaces'", sel));
	munmap(p, len);
}

TEST_F(tools, smi_watch_mode)
{
	EXPECT_EQ(3, run_num("%s/build/tools/uvm-smi --json -l 0.1 -n 3 | wc -l", ""));
	EXPECT_EQ(2, run_num("%s/build/tools/uvm-smi -n 2 watch 0.1 | grep -c '^Devices:'", ""));
	EXPECT_EQ(64, run(NULL, 0, "%s/build/tools/uvm-smi --bogus 2>/dev/null", repo()));
}

TEST_F(tools, stat_counts_what_the_child_did)
{
	const char *j = "/tmp/uvm-stat.json";

	/* prefetch_vs_fault 1: 256 pages by faults, 256 by one prefetch. */
	ASSERT_EQ(0, run(NULL, 0, "%s/build/tools/uvm-stat -j -o %s -- "
			 "%s/build/examples/prefetch_vs_fault 1 >/dev/null", repo(), j, repo()));
	EXPECT_EQ(512, run_num("jq -e .counters.pages_populated %.0s/tmp/uvm-stat.json", ""));
	EXPECT_EQ(512, run_num("jq -e .counters.pages_freed %.0s/tmp/uvm-stat.json", ""));
	EXPECT_LE(1, run_num("jq -e .counters.cpu_faults %.0s/tmp/uvm-stat.json", ""));
	EXPECT_LE(1, run_num("jq -e .counters.prefetches %.0s/tmp/uvm-stat.json", ""));
	EXPECT_EQ(3, run(NULL, 0, "%s/build/tools/uvm-stat sh -c 'exit 3' 2>/dev/null", repo()));
	EXPECT_EQ(0, run_num("%s/build/tools/uvm-stat true 2>&1 | grep -c 'no uvm activity' "
			     "| grep -q 1; echo $?", ""));
	unlink(j);
}

TEST_F(tools, every_counter_named_and_documented)
{
	char *s, *e;
	int n = 0;

	ASSERT_EQ(0, run(self->out, sizeof(self->out),
			 "%s/build/tools/uvm-smi --json | jq -r '.counters | keys_unsorted[]'", repo()));
	for (s = self->out; (e = strchr(s, '\n')); s = e + 1, n++) {
		char name[64];

		*e = 0;
		snprintf(name, sizeof(name), "%.63s", s);
		EXPECT_NE(0, strncmp(name, "counter_", 8)) TH_LOG("counter %d has no name in tools/uvm_tool.c", n);
		EXPECT_EQ(0, run(NULL, 0, "grep -q '`%s`' %s/docs/observability.md", name, repo()))
			TH_LOG("%s is not defined in docs/observability.md", name);
	}
	EXPECT_EQ(UVM_STAT_COUNT, n);
}

TEST_F(tools, sysfs_global_counters)
{
	uint64_t v[UVM_STAT_COUNT];
	char path[128], *line, *save;
	int i, n = 0;

	if (access("/sys/module/uvm/stats", F_OK))
		SKIP(return, "no /sys/module/uvm/stats: uvm_sysfs_init() not called by module init");
	for (i = 0; i < UVM_STAT_COUNT; i++)
		v[i] = uvm_stat(self->fd, i, UVM_STATS_GLOBAL);
	ASSERT_EQ(0, run(self->out, sizeof(self->out), "cat /sys/module/uvm/stats/all"));
	for (line = strtok_r(self->out, "\n", &save); line; line = strtok_r(NULL, "\n", &save), n++) {
		char name[64];
		unsigned long long val;

		ASSERT_EQ(2, sscanf(line, "%63s %llu", name, &val));
		ASSERT_LT(n, UVM_STAT_COUNT);
		EXPECT_LE(v[n], val) TH_LOG("%s", name);
		snprintf(path, sizeof(path), "/sys/module/uvm/stats/%s", name);
		EXPECT_EQ(0, access(path, R_OK)) TH_LOG("%s", path);
	}
	EXPECT_EQ(UVM_STAT_COUNT, n);
	/* The same names as the tools. */
	EXPECT_EQ(0, run_num("cd /sys/module/uvm/stats && %s/build/tools/uvm-smi --json | "
			     "jq -r '.counters | keys[]' | while read -r c; do test -r $c || "
			     "echo $c; done | wc -l", ""));
}

TEST_F(tools, sysfs_device_attributes)
{
	EXPECT_EQ((long)num_devices(self->fd),
		  run_num("%.0sls -d /sys/class/drm/renderD*/device/uvm | wc -l", ""));
	EXPECT_EQ(0, run_num("%.0sfor d in /sys/class/drm/renderD*/device/uvm; do "
			     "[ $(cat $d/mem_used) = $(($(cat $d/mem_total) - $(cat $d/mem_free))) ] "
			     "|| echo $d; done | wc -l", ""));
}

/* Counter @name of device @id from its sysfs uvm/stats, -1 if absent. */
static long long dev_stat(int fd, int id, const char *name)
{
	struct uvm_device_info info[UVM_MAX_DEVICES];
	int i, n = uvm_devices(fd, info, UVM_MAX_DEVICES);
	char path[96], line[128], key[64];
	long long v, ret = -1;
	FILE *f = NULL;

	for (i = 0; i < n && !f; i++) {
		if ((int)info[i].id != id)
			continue;
		snprintf(path, sizeof(path),
			 "/sys/class/drm/renderD%u/device/uvm/stats",
			 info[i].render_minor);
		f = fopen(path, "re");
	}
	while (f && fgets(line, sizeof(line), f))
		if (sscanf(line, "%63s %lld", key, &v) == 2 && !strcmp(key, name))
			ret = v;
	if (f)
		fclose(f);
	return ret;
}

/*
 * A block read by device 0 (device faults, host -> device), then moved to
 * device 1 (device -> device) and touched by the CPU (device -> host): each
 * count lands on the device it concerns, the other's stays put.
 */
TEST_F(tools, sysfs_device_counters)
{
	enum { FAULTS, BATCHES, BPAGES, H2D, H2D_B, D2H, D2D, N };
	static const char names[N][24] = {
		"device_faults", "fault_batches", "fault_batch_pages",
		"migrate_h2d_pages", "migrate_h2d_bytes", "migrate_d2h_pages",
		"migrate_d2d_pages",
	};
	long long a[2][N], b[2][N], c[2][N];
	size_t len = 2 * MIB, pages = len / PAGE;
	char *p, *buf;
	int i, d;

	if (num_devices(self->fd) < 2)
		SKIP(return, "needs 2 devices");
	if (dev_stat(self->fd, 0, "device_faults") < 0)
		SKIP(return, "module without per-device counters");
	p = uvm_map(self->fd, len);
	buf = malloc(len);
	ASSERT_NE(NULL, p);
	ASSERT_NE(NULL, buf);
	memset(p, 5, len);
	for (d = 0; d < 2; d++)
		for (i = 0; i < N; i++)
			a[d][i] = dev_stat(self->fd, d, names[i]);
	ASSERT_EQ(0, uvm_dev_read(self->fd, 0, p, len, buf));
	for (d = 0; d < 2; d++)
		for (i = 0; i < N; i++)
			b[d][i] = dev_stat(self->fd, d, names[i]);
	EXPECT_EQ(uvm_stat(self->fd, UVM_STAT_DEVICE_FAULTS, UVM_STATS_VA_SPACE),
		  b[0][FAULTS] - a[0][FAULTS]);
	EXPECT_LE(1, b[0][BATCHES] - a[0][BATCHES]);
	EXPECT_EQ((long long)pages, b[0][BPAGES] - a[0][BPAGES]);
	EXPECT_EQ((long long)pages, b[0][H2D] - a[0][H2D]);
	EXPECT_EQ((long long)len, b[0][H2D_B] - a[0][H2D_B]);
	for (i = 0; i < N; i++) {
		EXPECT_EQ(a[1][i], b[1][i]) TH_LOG("device 1 %s moved", names[i]);
	}

	ASSERT_EQ(0, uvm_prefetch(self->fd, p, len, UVM_LOC_DEVICE, 1));
	memset(p, 6, len);	/* CPU faults bring it home from device 1 */
	for (d = 0; d < 2; d++)
		for (i = 0; i < N; i++)
			c[d][i] = dev_stat(self->fd, d, names[i]);
	EXPECT_EQ((long long)pages, c[1][D2D] - b[1][D2D]);
	EXPECT_EQ((long long)pages, c[1][D2H] - b[1][D2H]);
	EXPECT_EQ(b[0][D2D], c[0][D2D]);
	EXPECT_EQ(b[0][D2H], c[0][D2H]);
	EXPECT_EQ(b[1][FAULTS], c[1][FAULTS]);
	/* uvm-smi shows the same per device. */
	EXPECT_LE(c[1][D2D], run_num("%s/build/tools/uvm-smi --json | jq -e "
				     "'.devices[] | select(.id == 1) | .counters.migrate_d2d_pages'",
				     ""));
	EXPECT_EQ(0, run(NULL, 0, "%s/build/tools/uvm-smi | grep -q '^Device counters'",
			 repo()));
	free(buf);
	munmap(p, len);
}

TEST_HARNESS_MAIN
