// SPDX-License-Identifier: MIT
/*
 * import_kfd.c - uvm-trace import kfd-smi: AMD KFD SMI event lines, as a
 * reader of the SMI event file descriptor (AMDKFD_IOC_SMI_EVENTS) gets
 * them, one event a line: "<event id, hex> <fields>", the fields printed by
 * the KFD_EVENT_FMT_* macros of include/uapi/linux/kfd_ioctl.h from
 * drivers/gpu/drm/amd/amdkfd/kfd_smi_events.c (Linux):
 *
 *   7 page fault start  <ns> -<pid> @<addr, pages hex>(<gpu_id hex>) <R|W>
 *   8 page fault end    <ns> -<pid> @<addr>(<gpu_id>) <M|U>
 *   5 migrate start     <ns> -<pid> @<start>(<pages hex>) <from>-><to> <prefetch>:<preferred> <trigger>
 *   6 migrate end       <ns> -<pid> @<start>(<pages>) <from>-><to> <trigger>[ <error>]
 *   9 queue eviction    <ns> -<pid> <gpu_id> <trigger>
 *   a queue restore     <ns> -<pid> <gpu_id>[ <R|0>]
 *   b unmap from GPU    <ns> -<pid> @<addr>(<pages>) <gpu_id> <trigger>
 *
 * (ns: CLOCK_BOOTTIME; from/to: a gpu_id, 0 for system memory.) Other
 * event ids (VM fault, thermal throttling, GPU reset, process start/end)
 * carry no memory events and are skipped. A stream: two passes, one batch.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "import.h"

enum {	/* enum kfd_smi_event */
	KFD_MIGRATE_START = 5, KFD_MIGRATE_END, KFD_FAULT_START, KFD_FAULT_END,
	KFD_QUEUE_EVICTION, KFD_QUEUE_RESTORE, KFD_UNMAP_FROM_GPU,
	KFD_EVENT_MAX = 13,	/* process start/end, the newest ids */
};

enum {	/* enum KFD_MIGRATE_TRIGGERS */
	KFD_TRIG_PREFETCH, KFD_TRIG_FAULT_GPU, KFD_TRIG_FAULT_CPU, KFD_TRIG_EVICTION,
};

struct kfd_ev {
	unsigned int id;
	unsigned long long ns, addr, pages;
	unsigned int pid, node, from, to, trigger;
	char c;
};

/* After sscanf's %n at @n: the end of the line, or later fields (ignored). */
static int kfd_tail(const char *s, int n)
{
	return n > 0 && (s[n] == 0 || s[n] == ' ');
}

static int kfd_fields(unsigned int id, const char *s, struct kfd_ev *e)
{
	unsigned int pf, pl;
	int n = -1;

	switch (id) {
	case KFD_FAULT_START:
	case KFD_FAULT_END:
		sscanf(s, "%llu -%u @%llx(%x) %c%n", &e->ns, &e->pid, &e->addr,
		       &e->node, &e->c, &n);
		break;
	case KFD_MIGRATE_START:
		sscanf(s, "%llu -%u @%llx(%llx) %x->%x %x:%x %u%n", &e->ns, &e->pid,
		       &e->addr, &e->pages, &e->from, &e->to, &pf, &pl, &e->trigger, &n);
		break;
	case KFD_MIGRATE_END:
		sscanf(s, "%llu -%u @%llx(%llx) %x->%x %u%n", &e->ns, &e->pid,
		       &e->addr, &e->pages, &e->from, &e->to, &e->trigger, &n);
		break;
	case KFD_QUEUE_EVICTION:
		sscanf(s, "%llu -%u %x %u%n", &e->ns, &e->pid, &e->node, &e->trigger, &n);
		break;
	case KFD_QUEUE_RESTORE:
		sscanf(s, "%llu -%u %x%n", &e->ns, &e->pid, &e->node, &n);
		break;
	case KFD_UNMAP_FROM_GPU:
		sscanf(s, "%llu -%u @%llx(%llx) %x %u%n", &e->ns, &e->pid, &e->addr,
		       &e->pages, &e->node, &e->trigger, &n);
		break;
	}
	return kfd_tail(s, n) ? 0 : -EINVAL;
}

/* One line into @e (e->id 0: nothing to do); an error names the line. */
static int kfd_parse(struct imp *im, const char *line, struct kfd_ev *e)
{
	char *end;

	memset(e, 0, sizeof(*e));
	e->id = (unsigned int)strtoul(line, &end, 16);
	if (end == line || *end != ' ' || !e->id || e->id > KFD_EVENT_MAX)
		return imp_error(im, "not a KFD SMI event line (\"<id> ...\", id 1..%x)",
				 KFD_EVENT_MAX);
	if (e->id < KFD_MIGRATE_START || e->id > KFD_UNMAP_FROM_GPU) {
		e->id = 0;
		return 0;
	}
	if (kfd_fields(e->id, end + 1, e))
		return imp_error(im, "malformed event %x: '%s'", e->id, end + 1);
	if ((e->id == KFD_FAULT_START && e->c != 'R' && e->c != 'W') ||
	    (e->id == KFD_FAULT_END && e->c != 'M' && e->c != 'U'))
		return imp_error(im, "event %x: unknown flag '%c'", e->id, e->c);
	if (e->id == KFD_MIGRATE_END && e->trigger > KFD_TRIG_EVICTION)
		return imp_error(im, "unknown migration trigger %u", e->trigger);
	return 0;
}

static int kfd_dev(struct imp *im, unsigned int gpu_id)
{
	char name[64];

	snprintf(name, sizeof(name), "kfd gpu_id 0x%x", gpu_id);
	return imp_device(im, gpu_id, name);
}

/* Pass 1: check the lines, register devices and touched pages. */
static int kfd_scan(struct imp *im, FILE *f, char **buf, size_t *cap)
{
	struct kfd_ev e;
	int ret;

	while ((ret = imp_line(im, f, buf, cap)) > 0) {
		ret = kfd_parse(im, *buf, &e);
		if (ret)
			return ret;
		if (!e.id)
			continue;
		imp_time_seen(im, e.ns);
		imp_pid(im, e.pid);
		if (e.id == KFD_FAULT_START && (ret = kfd_dev(im, e.node)) < 0)
			return ret;
		if (e.id == KFD_MIGRATE_END &&
		    ((e.from && (ret = kfd_dev(im, e.from)) < 0) ||
		     (e.to && (ret = kfd_dev(im, e.to)) < 0)))
			return ret;
		if (e.id == KFD_FAULT_START || e.id == KFD_MIGRATE_END) {
			ret = imp_touch(im, e.addr * IMP_PAGE, (e.pages ?: 1) * IMP_PAGE);
			if (ret)
				return ret;
		}
	}
	return ret;
}

static const uint32_t kfd_cause[] = {
	[KFD_TRIG_PREFETCH] = UVM_EVENT_CAUSE_USER,
	[KFD_TRIG_FAULT_GPU] = UVM_EVENT_CAUSE_DEVICE_FAULT,
	[KFD_TRIG_FAULT_CPU] = UVM_EVENT_CAUSE_CPU_FAULT,
	[KFD_TRIG_EVICTION] = UVM_EVENT_CAUSE_EVICTION,
};

/* A migration: a CPU fault before it if one caused it; a prefetch or an eviction after. */
static int kfd_migrate(struct imp *im, const struct kfd_ev *e)
{
	struct uvm_event_migrate m = {
		.addr = e->addr * IMP_PAGE, .bytes = e->pages * IMP_PAGE,
		.pages = (uint32_t)e->pages, .cause = kfd_cause[e->trigger],
		.src_type = e->from ? UVM_EVENT_LOC_DEVICE : UVM_EVENT_LOC_HOST,
		.src_id = e->from ? kfd_dev(im, e->from) : -1,
		.dst_type = e->to ? UVM_EVENT_LOC_DEVICE : UVM_EVENT_LOC_HOST,
		.dst_id = e->to ? kfd_dev(im, e->to) : -1,
	};
	int ret = 0;

	if (e->trigger == KFD_TRIG_FAULT_CPU)
		ret = imp_cpu_fault(im, e->ns, e->pid, 0, m.addr, 0, -1);
	if (!ret)
		ret = imp_migrate(im, e->ns, e->pid, &m);
	if (!ret && e->trigger == KFD_TRIG_PREFETCH)
		ret = imp_prefetch(im, e->ns, e->pid, m.addr, m.bytes,
				   e->to ? UVM_LOC_DEVICE : UVM_LOC_HOST, m.dst_id);
	if (!ret && e->trigger == KFD_TRIG_EVICTION && e->from)
		ret = imp_evict(im, e->ns, e->pid, m.addr, m.bytes, (uint32_t)m.src_id);
	return ret;
}

/* Pass 2: page fault starts become device faults, migration ends migrations. */
static int kfd_write(struct imp *im, FILE *f, char **buf, size_t *cap)
{
	struct kfd_ev e;
	int ret;

	while ((ret = imp_line(im, f, buf, cap)) > 0) {
		ret = kfd_parse(im, *buf, &e);
		if (!ret && e.id == KFD_FAULT_START)
			ret = imp_fault(im, e.ns, (uint32_t)kfd_dev(im, e.node),
					IMP_BATCH_GROUP, e.addr * IMP_PAGE, e.c == 'W', 1);
		if (!ret && e.id == KFD_MIGRATE_END)
			ret = kfd_migrate(im, &e);
		if (ret)
			return ret;
	}
	return ret;
}

static int kfd_pass(struct imp *im, FILE *f, char **buf, size_t *cap, int emit)
{
	int ret;

	if (emit)
		return kfd_write(im, f, buf, cap);
	ret = kfd_scan(im, f, buf, cap);
	if (!ret && !im->have_t0)
		ret = imp_error(im, "no page fault or migration event");
	return ret;
}

int imp_kfd(struct imp *im)
{
	return imp_text(im, kfd_pass);
}
