// SPDX-License-Identifier: MIT
/*
 * trace_sysinfo.c - what a trace's header says about the machine: the
 * module (GET_INFO, its srcversion), its devices, the host NUMA nodes, the
 * policies a new VA space follows (PERF_GET on the recorder's own one),
 * the clock.
 */
#include <dirent.h>
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <time.h>
#include <unistd.h>

#include "trace_format.h"
#include "uvm_tool.h"

#define TR_MAX_NODES		64

#ifndef UT_UVM_VERSION
#define UT_UVM_VERSION "unknown"
#endif

static uint64_t clock_ns(clockid_t id)
{
	struct timespec ts;

	clock_gettime(id, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

static void read_line(const char *path, char *buf, size_t len)
{
	FILE *f = fopen(path, "re");

	buf[0] = 0;
	if (!f)
		return;
	if (fgets(buf, (int)len, f))
		buf[strcspn(buf, "\n")] = 0;
	fclose(f);
}

static int get_devices(struct tr_info *info, const struct ut_module *m)
{
	unsigned int i, n = m->info.num_devices;

	info->devs = calloc(n + 1, sizeof(*info->devs));
	if (!info->devs)
		return -ENOMEM;
	for (i = 0; i < n; i++) {
		struct tr_device *d = &info->devs[i];

		d->id = m->devs[i].id;
		d->backend = m->devs[i].backend;
		d->numa_node = m->devs[i].numa_node;
		d->caps = m->devs[i].caps;
		d->mem_total = m->devs[i].mem_total;
		snprintf(d->name, sizeof(d->name), "%s", m->devs[i].name);
	}
	info->h.num_devices = n;
	return 0;
}

/* MemTotal of /sys/devices/system/node/node<n>/meminfo, in bytes. */
static uint64_t node_mem(int node)
{
	char path[96], line[256];
	uint64_t kb = 0;
	FILE *f;

	snprintf(path, sizeof(path), "/sys/devices/system/node/node%d/meminfo", node);
	f = fopen(path, "re");
	if (!f)
		return 0;
	while (fgets(line, sizeof(line), f)) {
		char *p = strstr(line, "MemTotal:");

		if (p) {
			kb = strtoull(p + 9, NULL, 10);
			break;
		}
	}
	fclose(f);
	return kb * 1024;
}

static int get_nodes(struct tr_info *info)
{
	DIR *d = opendir("/sys/devices/system/node");
	struct dirent *de;
	unsigned int n = 0;

	info->nodes = calloc(TR_MAX_NODES, sizeof(*info->nodes));
	if (!info->nodes) {
		if (d)
			closedir(d);
		return -ENOMEM;
	}
	while (d && (de = readdir(d)) && n < TR_MAX_NODES) {
		char *end;
		long id;

		if (strncmp(de->d_name, "node", 4))
			continue;
		id = strtol(de->d_name + 4, &end, 10);
		if (end == de->d_name + 4 || *end)
			continue;
		info->nodes[n].node = (int32_t)id;
		info->nodes[n++].mem_total = node_mem((int)id);
	}
	if (d)
		closedir(d);
	info->h.num_nodes = n;
	return 0;
}

static void get_policies(struct tr_header *h, int fd)
{
	struct uvm_perf p = { .version = UVM_PERF_VERSION };

	if (ioctl(fd, UVM_IOCTL_PERF_GET, &p))
		return;
	h->evict_policy = p.evict_policy;
	h->fault_batch = p.fault_batch;
	h->evict_seed = p.evict_seed;
	h->prefetch_policy = p.prefetch_policy;
	h->prefetch_threshold = p.prefetch_threshold;
	h->prefetch_pages = p.prefetch_pages;
	h->thrash_policy = p.thrash_policy;
	h->thrash_threshold = p.thrash_threshold;
	h->thrash_window_us = p.thrash_window_us;
	h->thrash_nap_us = p.thrash_nap_us;
	h->thrash_pin_ms = p.thrash_pin_ms;
}

/**
 * tr_sysinfo() - fill @info's header (all but the recording's own fields:
 * types, pid, mode, command, policy_env) and tables.
 * @info: zeroed; its tables are allocated here (the caller frees them).
 * @uvm_fd: the recorder's /dev/uvm (unused if the module is absent).
 *
 * Return: 0 or -errno.
 */
int tr_sysinfo(struct tr_info *info, int uvm_fd)
{
	struct tr_header *h = &info->h;
	struct ut_module m;
	int ret;

	ret = ut_open(&m);
	if (ret)
		return ret;
	h->abi_version = m.info.abi_version;
	h->page_size = m.info.page_size;
	h->block_size = m.info.block_size;
	h->module_caps = m.info.caps;
	ret = get_devices(info, &m);
	ut_close(&m);
	if (ret)
		return ret;
	ret = get_nodes(info);
	if (ret)
		return ret;
	get_policies(h, uvm_fd);
	read_line("/sys/module/uvm/srcversion", h->module_version,
		  sizeof(h->module_version));
	snprintf(h->tool_version, sizeof(h->tool_version), "%s", UT_UVM_VERSION);
	gethostname(h->hostname, sizeof(h->hostname) - 1);
	h->clock_id = CLOCK_MONOTONIC;
	h->start_ns = clock_ns(CLOCK_MONOTONIC);
	h->start_realtime_ns = clock_ns(CLOCK_REALTIME);
	return 0;
}
