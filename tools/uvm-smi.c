// SPDX-License-Identifier: MIT
/*
 * uvm-smi - what the uvm module and its devices are doing right now.
 *
 *   uvm-smi [-j|--json] [-l|--loop SECONDS] [-n|--count N]
 *   uvm-smi watch [SECONDS]          same as -l SECONDS (default 1)
 *
 * Prints the module, its devices (backend, PCI id and address, BAR, memory
 * used/total, NUMA node, render node), each device's counters, the
 * processes that have /dev/uvm or a uvm render node open with their managed
 * memory, and the global counters. In loop mode each report also shows the counters' rates since
 * the previous one. Exit: 0, 1 no device, 2 no module, 64 usage.
 */
#include <errno.h>
#include <getopt.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "uvm_proc.h"
#include "uvm_tool.h"

struct smi_opts {
	int json;
	double interval;	/* 0: one report */
	long count;		/* reports in loop mode, 0: until interrupted */
};

/** struct smi_sample - one report's data. */
struct smi_sample {
	double t;
	int nstats;
	uint64_t stats[UT_MAX_STATS];
	struct ut_dev_stats dev[UVM_MAX_DEVICES];	/* as m->devs */
	struct ut_proc_list procs;
};

static volatile sig_atomic_t smi_stop;

static void smi_on_signal(int sig)
{
	(void)sig;
	smi_stop = 1;
}

static void usage(FILE *f)
{
	fputs("usage: uvm-smi [-j|--json] [-l|--loop SECONDS] [-n|--count N]\n"
	      "       uvm-smi watch [SECONDS]\n"
	      "Devices, processes and counters of the uvm module (man uvm-smi).\n", f);
}

static int parse_args(int argc, char **argv, struct smi_opts *o)
{
	static const struct option lo[] = {
		{ "json", no_argument, NULL, 'j' },
		{ "loop", required_argument, NULL, 'l' },
		{ "count", required_argument, NULL, 'n' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	int c;

	while ((c = getopt_long(argc, argv, "jl:n:h", lo, NULL)) != -1) {
		switch (c) {
		case 'j': o->json = 1; break;
		case 'l': o->interval = atof(optarg); break;
		case 'n': o->count = atol(optarg); break;
		case 'h': usage(stdout); exit(UT_EXIT_OK);
		default: return -1;
		}
	}
	if (optind < argc && !strcmp(argv[optind], "watch")) {
		o->interval = ++optind < argc ? atof(argv[optind++]) : 1.0;
		if (o->interval <= 0)
			return -1;
	}
	return optind == argc && o->interval >= 0 && o->count >= 0 ? 0 : -1;
}

/* ---- text ------------------------------------------------------------ */

static void pci_addr(const struct uvm_device_info *d, char *buf, size_t len)
{
	if (d->backend != UVM_BACKEND_PCI_BAR)
		snprintf(buf, len, "-");
	else
		snprintf(buf, len, "%04x:%02x:%02x.%x", d->pci_domain, d->pci_bus,
			 d->pci_dev, d->pci_func);
}

static void text_device(const struct uvm_device_info *d)
{
	char bus[32], id[16], bar[48], used[16], total[16], sz[16];
	uint64_t u = d->mem_total - d->mem_free;

	pci_addr(d, bus, sizeof(bus));
	snprintf(id, sizeof(id), d->pci_vendor ? "%04x:%04x" : "-",
		 d->pci_vendor, d->pci_device);
	if (d->bar_size)
		snprintf(bar, sizeof(bar), "BAR%u 0x%llx %s", d->bar,
			 (unsigned long long)d->bar_addr,
			 ut_bytes(d->bar_size, sz, sizeof(sz)));
	else
		snprintf(bar, sizeof(bar), "-");
	printf("  %-3u %-9s %-10s %-13s %-26s %9s / %-9s %4d  renderD%u\n",
	       d->id, ut_backend_name(d->backend), id, bus, bar,
	       ut_bytes(u, used, sizeof(used)),
	       ut_bytes(d->mem_total, total, sizeof(total)), d->numa_node,
	       d->render_minor);
}

static void text_devices(const struct ut_module *m)
{
	uint32_t i;

	printf("Devices: %u\n", m->info.num_devices);
	if (!m->info.num_devices) {
		printf("  (none: bind a PCI device to the 'uvm' driver or load with "
		       "emulated_devices=N)\n");
		return;
	}
	printf("  %-3s %-9s %-10s %-13s %-26s %21s %5s  %s\n", "ID", "BACKEND",
	       "PCI ID", "BUS", "BAR", "MEMORY USED / TOTAL", "NODE", "RENDER");
	for (i = 0; i < m->info.num_devices; i++)
		text_device(&m->devs[i]);
}

/* One row per counter the module keeps per device, one column per device. */
static void text_dev_stats(const struct ut_module *m, const struct smi_sample *s)
{
	const struct ut_dev_stats *ref = NULL;
	uint32_t i, n = m->info.num_devices;
	char col[16];
	int j;

	if (n > UVM_MAX_DEVICES)
		n = UVM_MAX_DEVICES;
	for (i = 0; i < n && !ref; i++)
		if (s->dev[i].n > 0)
			ref = &s->dev[i];
	if (!ref)
		return;
	printf("\nDevice counters (since module load):\n  %-22s", "COUNTER");
	for (i = 0; i < n; i++) {
		snprintf(col, sizeof(col), "DEV %u", m->devs[i].id);
		printf(" %14s", col);
	}
	putchar('\n');
	for (j = 0; j < ref->n; j++) {
		printf("  %-22s", ref->name[j]);
		for (i = 0; i < n; i++) {
			const struct ut_dev_stats *d = &s->dev[i];

			if (j < d->n && !strcmp(d->name[j], ref->name[j]))
				printf(" %14llu", (unsigned long long)d->val[j]);
			else
				printf(" %14s", "-");
		}
		putchar('\n');
	}
}

static void render_list(const struct ut_module *m, uint64_t mask, char *buf,
			size_t len)
{
	size_t off = 0;
	uint32_t i;

	buf[0] = 0;
	for (i = 0; i < m->info.num_devices && off < len; i++)
		if (mask & (1ULL << (m->devs[i].render_minor - 128)))
			off += snprintf(buf + off, len - off, "%s%u",
					off ? "," : "", m->devs[i].id);
	if (!off)
		snprintf(buf, len, "-");
}

static void mapped_list(const struct ut_proc *p, char *buf, size_t len)
{
	size_t off = 0;
	int n;

	buf[0] = 0;
	for (n = 0; n < UT_MAX_NODES && off < len; n++)
		if (p->mapped_pages[n])
			off += snprintf(buf + off, len - off, "%sN%d=%llu",
					off ? " " : "", n,
					(unsigned long long)p->mapped_pages[n]);
	if (!off)
		snprintf(buf, len, p->maps_err ? "n/a" : "0");
}

static void text_proc(const struct ut_module *m, const struct ut_proc *p)
{
	char dev[64], maps[128], host[32], faults[32];

	render_list(m, p->render_mask, dev, sizeof(dev));
	mapped_list(p, maps, sizeof(maps));
	if (!p->uvm_files || p->stats_err) {
		snprintf(host, sizeof(host), p->uvm_files ? "n/a" : "-");
		snprintf(faults, sizeof(faults), "%s", host);
	} else {
		snprintf(host, sizeof(host), "%llu",
			 (unsigned long long)ut_proc_pop_freed(p));
		snprintf(faults, sizeof(faults), "%llu",
			 (unsigned long long)p->stats[UVM_STAT_CPU_FAULTS]);
	}
	printf("  %-7d %-16s %4u  %-8s %11s %10s  %s\n", p->pid, p->comm,
	       p->uvm_files, dev, host, faults, maps);
}

/* Where each process's managed memory lives (pages, any copy counted). */
static void text_residency(const struct ut_proc_list *l)
{
	unsigned int i, k;
	const struct ut_proc *p;

	printf("\nManaged memory by location (pages):\n");
	for (i = 0; i < l->n; i++) {
		p = &l->p[i];
		if (!p->uvm_files)
			continue;
		if (p->summary_err) {
			printf("  %-7d n/a (%s)\n", p->pid, strerror(-p->summary_err));
			continue;
		}
		printf("  %-7d managed %llu", p->pid,
		       (unsigned long long)p->managed_pages);
		for (k = 0; k < UT_MAX_NODES; k++)
			if (p->host_pages[k])
				printf("  host N%u %llu", k,
				       (unsigned long long)p->host_pages[k]);
		for (k = 0; k < UVM_MAX_DEVICES; k++)
			if (p->device_pages[k])
				printf("  dev%u %llu", k,
				       (unsigned long long)p->device_pages[k]);
		putchar('\n');
	}
}

/* "managed_pages", "resident_pages": {"host": {node: n}, "devices": {id: n}} */
static void json_residency(const struct ut_proc *p)
{
	int n, first;

	if (!p->uvm_files || p->summary_err) {
		printf(",\"managed_pages\":null,\"resident_pages\":null");
		return;
	}
	printf(",\"managed_pages\":%llu,\"resident_pages\":{\"host\":{",
	       (unsigned long long)p->managed_pages);
	for (n = 0, first = 1; n < UT_MAX_NODES; n++)
		if (p->host_pages[n])
			printf("%s\"%d\":%llu", first ? "" : ",", n,
			       (unsigned long long)p->host_pages[n]), first = 0;
	printf("},\"devices\":{");
	for (n = 0, first = 1; n < UVM_MAX_DEVICES; n++)
		if (p->device_pages[n])
			printf("%s\"%d\":%llu", first ? "" : ",", n,
			       (unsigned long long)p->device_pages[n]), first = 0;
	printf("}}");
}

static void text_procs(const struct ut_module *m, const struct ut_proc_list *l)
{
	unsigned int i, nostats = 0;

	printf("\nProcesses: %u\n", l->n);
	if (l->n)
		printf("  %-7s %-16s %4s  %-8s %11s %10s  %s\n", "PID", "COMMAND",
		       "VAS", "DEVICES", "POP-FREED", "CPU FAULTS",
		       "CPU-MAPPED PAGES BY NODE");
	for (i = 0; i < l->n; i++) {
		text_proc(m, &l->p[i]);
		nostats += l->p[i].uvm_files && l->p[i].stats_err;
	}
	if (nostats)
		printf("  n/a: counters of other users' processes need ptrace access "
		       "(run as root)\n");
	if (l->hidden)
		printf("  (%u processes not inspectable by this user)\n", l->hidden);
	text_residency(l);
}

static void text_stats(const struct smi_sample *s, const struct smi_sample *prev)
{
	char nb[32];
	double dt = prev ? s->t - prev->t : 0;
	int i;

	printf("\nCounters (global, since module load)%s:\n",
	       dt > 0 ? ", rate over the last interval" : "");
	for (i = 0; i < s->nstats; i++) {
		printf("  %-22s %14llu", ut_stat_name(i, nb, sizeof(nb)),
		       (unsigned long long)s->stats[i]);
		if (dt > 0)
			printf(" %12.1f/s", (s->stats[i] - prev->stats[i]) / dt);
		printf("  %s\n", ut_stat_desc(i));
	}
}

/* What devices do with pageable memory (docs/pageable-memory.md). */
static const char *smi_pageable(const struct ut_module *m)
{
	if (m->info.caps & UVM_CAP_PAGEABLE_MIGRATE)
		return "migrate";
	return m->info.caps & UVM_CAP_PAGEABLE_MIRROR ? "mirror" : "none";
}

static void print_text(const struct ut_module *m, const struct smi_sample *s,
		       const struct smi_sample *prev)
{
	char ts[32];
	time_t now = time(NULL);

	strftime(ts, sizeof(ts), "%F %T", localtime(&now));
	printf("uvm-smi %s  module ABI %u, page %u B, block %u KiB, pageable memory: %s%s\n",
	       ts, m->info.abi_version, m->info.page_size, m->info.block_size / 1024,
	       smi_pageable(m), m->info.caps & UVM_CAP_TEST_IOCTLS ? ", test ioctls on" : "");
	text_devices(m);
	text_dev_stats(m, s);
	text_procs(m, &s->procs);
	text_stats(s, prev);
}

/* ---- JSON ------------------------------------------------------------ */

static void json_device(const struct uvm_device_info *d,
			const struct ut_dev_stats *ds)
{
	char bus[32];
	int j;

	pci_addr(d, bus, sizeof(bus));
	printf("{\"id\":%u,\"name\":", d->id);
	ut_json_str(stdout, d->name);
	printf(",\"backend\":\"%s\",\"pci_vendor\":%u,\"pci_device\":%u,"
	       "\"pci_address\":\"%s\",\"bar\":%u,\"bar_addr\":%llu,\"bar_size\":%llu,"
	       "\"mem_total\":%llu,\"mem_used\":%llu,\"mem_free\":%llu,"
	       "\"numa_node\":%d,\"render_node\":\"renderD%u\",\"caps\":%llu",
	       ut_backend_name(d->backend), d->pci_vendor, d->pci_device, bus,
	       d->bar, (unsigned long long)d->bar_addr,
	       (unsigned long long)d->bar_size, (unsigned long long)d->mem_total,
	       (unsigned long long)(d->mem_total - d->mem_free),
	       (unsigned long long)d->mem_free, d->numa_node, d->render_minor,
	       (unsigned long long)d->caps);
	if (ds->n < 0) {
		printf(",\"counters\":null}");
		return;
	}
	printf(",\"counters\":{");
	for (j = 0; j < ds->n; j++)
		printf("%s\"%s\":%llu", j ? "," : "", ds->name[j],
		       (unsigned long long)ds->val[j]);
	printf("}}");
}

static void json_counters(const uint64_t *v, int n)
{
	char nb[32];
	int i;

	putchar('{');
	for (i = 0; i < n; i++)
		printf("%s\"%s\":%llu", i ? "," : "", ut_stat_name(i, nb, sizeof(nb)),
		       (unsigned long long)v[i]);
	putchar('}');
}

static void json_proc(const struct ut_module *m, const struct ut_proc *p)
{
	uint32_t i;
	int n, first = 1;

	printf("{\"pid\":%d,\"comm\":", p->pid);
	ut_json_str(stdout, p->comm);
	printf(",\"va_spaces\":%u,\"devices\":[", p->uvm_files);
	for (i = 0; i < m->info.num_devices; i++)
		if (p->render_mask & (1ULL << (m->devs[i].render_minor - 128)))
			printf("%s%u", first ? "" : ",", m->devs[i].id), first = 0;
	printf("],\"cpu_mapped_pages_by_node\":{");
	for (n = 0, first = 1; n < UT_MAX_NODES; n++)
		if (p->mapped_pages[n])
			printf("%s\"%d\":%llu", first ? "" : ",", n,
			       (unsigned long long)p->mapped_pages[n]), first = 0;
	putchar('}');
	json_residency(p);
	if (p->uvm_files && !p->stats_err) {
		printf(",\"populated_minus_freed\":%llu,\"counters\":",
		       (unsigned long long)ut_proc_pop_freed(p));
		json_counters(p->stats, p->nstats);
	} else if (p->uvm_files) {
		printf(",\"populated_minus_freed\":null,\"counters\":null,\"error\":");
		ut_json_str(stdout, strerror(-p->stats_err));
	}
	printf(",\"device_pages\":null}");
}

static void print_json(const struct ut_module *m, const struct smi_sample *s)
{
	uint32_t i;

	printf("{\"time\":%.3f,\"module\":{\"abi_version\":%u,\"page_size\":%u,"
	       "\"block_size\":%u,\"caps\":%llu,\"pageable\":\"%s\"},\"devices\":[",
	       (double)time(NULL), m->info.abi_version, m->info.page_size, m->info.block_size,
	       (unsigned long long)m->info.caps, smi_pageable(m));
	for (i = 0; i < m->info.num_devices && i < UVM_MAX_DEVICES; i++) {
		if (i)
			putchar(',');
		json_device(&m->devs[i], &s->dev[i]);
	}
	printf("],\"processes\":[");
	for (i = 0; i < s->procs.n; i++) {
		if (i)
			putchar(',');
		json_proc(m, &s->procs.p[i]);
	}
	printf("],\"counters\":");
	json_counters(s->stats, s->nstats);
	printf("}\n");
}

/* ---- main ------------------------------------------------------------ */

static int take_sample(struct ut_module *m, struct smi_sample *s)
{
	int ret = ut_refresh_devices(m);
	uint32_t i;

	if (ret)
		return ret;
	for (i = 0; i < m->info.num_devices && i < UVM_MAX_DEVICES; i++)
		ut_read_dev_stats(&m->devs[i], &s->dev[i]);
	s->t = ut_now();
	s->nstats = ut_read_stats(m->fd, UVM_STATS_GLOBAL, s->stats, UT_MAX_STATS);
	if (s->nstats < 0)
		return s->nstats;
	return ut_scan_procs(&s->procs);
}

static int report_loop(struct ut_module *m, const struct smi_opts *o)
{
	struct smi_sample *s = calloc(2, sizeof(*s));
	long n = 0;
	int cur = 0, ret = 0;

	if (!s)
		return -ENOMEM;
	signal(SIGINT, smi_on_signal);
	signal(SIGTERM, smi_on_signal);
	for (;;) {
		ut_free_procs(&s[cur].procs);
		ret = take_sample(m, &s[cur]);
		if (ret)
			break;
		if (o->json)
			print_json(m, &s[cur]);
		else
			print_text(m, &s[cur], n ? &s[!cur] : NULL);
		fflush(stdout);
		n++;
		if (!o->interval || (o->count && n >= o->count) || smi_stop)
			break;
		if (!o->json)
			putchar('\n');
		cur = !cur;
		usleep((useconds_t)(o->interval * 1e6));
		if (smi_stop)
			break;
	}
	ut_free_procs(&s[0].procs);
	ut_free_procs(&s[1].procs);
	free(s);
	return ret;
}

int main(int argc, char **argv)
{
	struct smi_opts o = { 0 };
	struct ut_module m;
	int ret;

	if (parse_args(argc, argv, &o)) {
		usage(stderr);
		return UT_EXIT_USAGE;
	}
	ret = ut_open(&m);
	if (ret)
		return ut_open_error("uvm-smi", ret);
	ret = report_loop(&m, &o);
	if (ret) {
		fprintf(stderr, "uvm-smi: %s\n", strerror(-ret));
		ut_close(&m);
		return UT_EXIT_NO_MODULE;
	}
	if (!m.info.num_devices)
		fprintf(stderr, "uvm-smi: the uvm module is loaded but has no device\n");
	ret = m.info.num_devices ? UT_EXIT_OK : UT_EXIT_NO_DEVICE;
	ut_close(&m);
	return ret;
}
