// SPDX-License-Identifier: MIT
/*
 * uvm_tool.c - see uvm_tool.h.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <time.h>
#include <unistd.h>

#include "uvm_tool.h"

/*
 * One name and one definition per UVM_STAT_* index (docs/observability.md
 * is the long form). Names are the file names under /sys/module/uvm/stats/.
 * Counters the module knows but this table does not are shown as
 * "counter_<index>", so a newer module never breaks an older tool.
 */
static const struct {
	const char *name;
	const char *desc;
} ut_stats[] = {
	[UVM_STAT_CPU_FAULTS] = { "cpu_faults", "CPU page faults serviced" },
	[UVM_STAT_CPU_MKWRITE] = { "cpu_mkwrite", "write upgrades of CPU-mapped pages" },
	[UVM_STAT_PAGES_POPULATED] = { "pages_populated", "pages given their first backing" },
	[UVM_STAT_PREFETCHES] = { "prefetches", "prefetch requests" },
	[UVM_STAT_MIGRATE_H2H_PAGES] = { "migrate_h2h_pages", "pages moved host node to host node" },
	[UVM_STAT_MIGRATE_H2H_BYTES] = { "migrate_h2h_bytes", "bytes moved host node to host node" },
	[UVM_STAT_ADVISES] = { "advises", "advise requests" },
	[UVM_STAT_PAGES_FREED] = { "pages_freed", "host pages released" },
	[UVM_STAT_DEVICE_FAULTS] = { "device_faults", "device faults (pages)" },
	[UVM_STAT_FAULT_BATCHES] = { "fault_batches", "device fault batches serviced" },
	[UVM_STAT_FAULT_BATCH_PAGES] = { "fault_batch_pages", "distinct pages over all fault batches" },
	[UVM_STAT_MIGRATE_H2D_PAGES] = { "migrate_h2d_pages", "pages moved host to device" },
	[UVM_STAT_MIGRATE_H2D_BYTES] = { "migrate_h2d_bytes", "bytes moved host to device" },
	[UVM_STAT_MIGRATE_D2H_PAGES] = { "migrate_d2h_pages", "pages moved device to host" },
	[UVM_STAT_MIGRATE_D2H_BYTES] = { "migrate_d2h_bytes", "bytes moved device to host" },
	[UVM_STAT_MIGRATE_D2D_PAGES] = { "migrate_d2d_pages", "pages moved device to device" },
	[UVM_STAT_MIGRATE_D2D_BYTES] = { "migrate_d2d_bytes", "bytes moved device to device" },
	[UVM_STAT_EVICTIONS] = { "evictions", "device chunks evicted" },
	[UVM_STAT_EVICTED_BYTES] = { "evicted_bytes", "bytes of data evicted from devices" },
	[UVM_STAT_READ_DUP_COPIES] = { "read_dup_copies", "read-only copies made (read-mostly)" },
	[UVM_STAT_READ_DUP_COLLAPSES] = { "read_dup_collapses", "pages whose read copies collapsed" },
	[UVM_STAT_REMOTE_MAPS] = { "remote_maps", "pages a device mapped remotely" },
	[UVM_STAT_DISCARDED_PAGES] = { "discarded_pages", "pages discarded" },
	[UVM_STAT_CPU_DEVICE_MAPS] = { "cpu_device_maps", "CPU PTEs to device memory" },
	[UVM_STAT_POOL_REUSED] = { "pool_reused", "host pages reused from the VA space's pool" },
	[UVM_STAT_FAULT_AHEAD_PAGES] = { "fault_ahead_pages", "pages fault-ahead brought home" },
	[UVM_STAT_PINNED_SKIPS] = { "pinned_skips", "pages migrations left where they were: held by get_user_pages()" },
	[UVM_STAT_EVICT_PICKS] = { "evict_picks", "victims the eviction policy chose" },
	[UVM_STAT_EVICT_BUSY] = { "evict_busy", "chosen victims skipped: their block was busy" },
	[UVM_STAT_FAULT_PREFETCH_PAGES] = { "fault_prefetch_pages", "pages device fault batches prefetched (prefetch policy)" },
	[UVM_STAT_THRASH_DETECTED] = { "thrash_detected", "blocks found thrashing" },
	[UVM_STAT_THRASH_THROTTLED] = { "thrash_throttled", "faults that napped before moving a thrashing block" },
	[UVM_STAT_THRASH_PINNED] = { "thrash_pinned", "pages mapped where they are: their block was pinned" },
	[UVM_STAT_PREFETCH_USED_PAGES] = { "prefetch_used_pages", "prefetched pages a device accessed before they left it" },
	[UVM_STAT_PAGEABLE_TO_DEV] = { "pageable_to_dev", "pageable (malloc) pages migrated to a device" },
	[UVM_STAT_PAGEABLE_TO_HOST] = { "pageable_to_host", "pageable pages migrated home from a device (CPU faults, eviction)" },
};

unsigned int ut_stat_known(void)
{
	return sizeof(ut_stats) / sizeof(ut_stats[0]);
}

const char *ut_stat_name(unsigned int idx, char *buf, size_t len)
{
	if (idx < ut_stat_known() && ut_stats[idx].name)
		return ut_stats[idx].name;
	snprintf(buf, len, "counter_%u", idx);
	return buf;
}

const char *ut_stat_desc(unsigned int idx)
{
	if (idx < ut_stat_known() && ut_stats[idx].desc)
		return ut_stats[idx].desc;
	return "(newer module: not described by this tool)";
}

static int ut_get_info(int fd, struct uvm_get_info *info,
		       struct uvm_device_info *devs, uint32_t count)
{
	memset(info, 0, sizeof(*info));
	info->devices = (uintptr_t)devs;
	info->devices_count = count;
	return ioctl(fd, UVM_IOCTL_GET_INFO, info) ? -errno : 0;
}

/* Re-read the device list (devices come and go with bind/unbind). */
int ut_refresh_devices(struct ut_module *m)
{
	uint32_t n;
	int ret;

	for (;;) {
		ret = ut_get_info(m->fd, &m->info, NULL, 0);
		if (ret)
			return ret;
		n = m->info.num_devices;
		free(m->devs);
		m->devs = calloc(n ? n : 1, sizeof(*m->devs));
		if (!m->devs)
			return -ENOMEM;
		ret = ut_get_info(m->fd, &m->info, m->devs, n);
		if (ret)
			return ret;
		if (m->info.num_devices <= n) {
			m->info.num_devices = m->info.num_devices < n ?
					      m->info.num_devices : n;
			return 0;
		}
	}
}

int ut_open(struct ut_module *m)
{
	int ret;

	memset(m, 0, sizeof(*m));
	m->fd = open("/dev/uvm", O_RDWR | O_CLOEXEC);
	if (m->fd < 0)
		return -errno;
	ret = ut_refresh_devices(m);
	if (!ret && m->info.abi_version != UVM_ABI_VERSION)
		ret = -EPROTO;
	if (ret)
		ut_close(m);
	return ret;
}

void ut_close(struct ut_module *m)
{
	if (m->fd >= 0)
		close(m->fd);
	free(m->devs);
	m->devs = NULL;
	m->fd = -1;
}

/* Print why /dev/uvm is unusable; returns the exit code to use. */
int ut_open_error(const char *prog, int err)
{
	switch (err) {
	case -ENOENT:
	case -ENODEV:
	case -ENXIO:
		fprintf(stderr, "%s: /dev/uvm not found: the uvm kernel module is not loaded "
			"(modprobe uvm)\n", prog);
		break;
	case -EACCES:
	case -EPERM:
		fprintf(stderr, "%s: /dev/uvm: permission denied (join group 'uvm', "
			"see docs/install.md)\n", prog);
		break;
	case -EPROTO:
		fprintf(stderr, "%s: the uvm module speaks another ABI than this tool "
			"(version %d)\n", prog, UVM_ABI_VERSION);
		break;
	default:
		fprintf(stderr, "%s: /dev/uvm: %s\n", prog, strerror(-err));
	}
	return UT_EXIT_NO_MODULE;
}

int ut_read_stats(int fd, unsigned int scope, uint64_t *vals, unsigned int cap)
{
	struct uvm_stats s = {
		.values = (uintptr_t)vals, .count = cap, .scope = scope,
	};

	memset(vals, 0, cap * sizeof(*vals));
	if (ioctl(fd, UVM_IOCTL_STATS, &s))
		return -errno;
	return s.count < cap ? (int)s.count : (int)cap;
}

/* /sys/class/drm/renderD<N>/device/uvm/stats; -ENOENT on an older module. */
int ut_read_dev_stats(const struct uvm_device_info *d, struct ut_dev_stats *s)
{
	char path[96], line[128];
	unsigned long long v;
	FILE *f;

	snprintf(path, sizeof(path), "/sys/class/drm/renderD%u/device/uvm/stats",
		 d->render_minor);
	s->n = 0;
	f = fopen(path, "re");
	if (!f)
		return s->n = -errno;
	while (s->n < UT_MAX_DEV_STATS && fgets(line, sizeof(line), f))
		if (sscanf(line, "%31s %llu", s->name[s->n], &v) == 2)
			s->val[s->n++] = v;
	fclose(f);
	return s->n;
}

void ut_json_str(FILE *f, const char *s)
{
	fputc('"', f);
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;

		if (c == '"' || c == '\\')
			fprintf(f, "\\%c", c);
		else if (c < 0x20)
			fprintf(f, "\\u%04x", c);
		else
			fputc(c, f);
	}
	fputc('"', f);
}

const char *ut_bytes(uint64_t v, char *buf, size_t len)
{
	static const char *const unit[] = { "B", "KiB", "MiB", "GiB", "TiB" };
	unsigned int u = 0;
	double d = (double)v;

	while (d >= 1024 && u < 4) {
		d /= 1024;
		u++;
	}
	if (u == 0 || d >= 100 || d == (uint64_t)d)
		snprintf(buf, len, "%.0f %s", d, unit[u]);
	else
		snprintf(buf, len, "%.1f %s", d, unit[u]);
	return buf;
}

const char *ut_backend_name(uint32_t backend)
{
	switch (backend) {
	case UVM_BACKEND_PCI_BAR:
		return "pci-bar";
	case UVM_BACKEND_EMULATED:
		return "emulated";
	default:
		return "unknown";
	}
}

double ut_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec * 1e-9;
}
