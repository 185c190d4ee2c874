// SPDX-License-Identifier: MIT
/*
 * trace_show.c - uvm-trace show FILE: the header, record counts per type,
 * the time span, bytes moved per direction and cause, fault batches,
 * kernel launches.
 */
#include <inttypes.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "trace_format.h"
#include "uvm_tool.h"

/* Directions of a MIGRATE record: host/device to host/device. */
enum { DIR_H2H, DIR_H2D, DIR_D2H, DIR_D2D, DIR_COUNT };
static const char *const dir_names[DIR_COUNT] = { "h2h", "h2d", "d2h", "d2d" };
#define CAUSES		7
static const char *const cause_names[CAUSES] = {
	"user", "cpu_fault", "device_fault", "eviction", "prefetch", "thrashing", "collapse",
};

struct summary {
	uint64_t count[TR_TYPES];
	uint64_t first_ns, last_ns;
	uint64_t bytes[DIR_COUNT], pages[DIR_COUNT];
	uint64_t cause_bytes[CAUSES];
	struct uvm_event_fault_batch b;	/* batches' sums (batch: the last number) */
	uint64_t cpu_ns, cpu_pages, evict_bytes, lost;
	uint64_t kernel_ns;	/* the kernel launches' time, summed */
};

static void add_batch(struct summary *s, const struct uvm_event_fault_batch *b)
{
	s->b.faults += b->faults;
	s->b.pages += b->pages;
	s->b.duplicates += b->duplicates;
	s->b.blocks += b->blocks;
	s->b.prefetched += b->prefetched;
	s->b.migrated += b->migrated;
	s->b.remote += b->remote;
	s->b.evictions += b->evictions;
	s->b.duration_ns += b->duration_ns;
	s->b.wait_ns += b->wait_ns;
	s->b.copy_ns += b->copy_ns;
	s->b.map_ns += b->map_ns;
	s->b.unmap_ns += b->unmap_ns;
	s->b.evict_ns += b->evict_ns;
}

static void add_migrate(struct summary *s, const struct uvm_event_migrate *m)
{
	int dir = (m->src_type == UVM_EVENT_LOC_DEVICE ? 2 : 0) +
		  (m->dst_type == UVM_EVENT_LOC_DEVICE ? 1 : 0);

	s->bytes[dir] += m->bytes;
	s->pages[dir] += m->pages;
	if (m->cause < CAUSES)
		s->cause_bytes[m->cause] += m->bytes;
}

static void add(struct summary *s, const struct uvm_event *ev)
{
	if (!s->first_ns || ev->hdr.timestamp_ns < s->first_ns)
		s->first_ns = ev->hdr.timestamp_ns;
	if (ev->hdr.timestamp_ns > s->last_ns)
		s->last_ns = ev->hdr.timestamp_ns;
	s->count[ev->hdr.type]++;
	switch (ev->hdr.type) {
	case UVM_EVENT_FAULT_BATCH:
		add_batch(s, &ev->u.batch);
		break;
	case UVM_EVENT_MIGRATE:
		add_migrate(s, &ev->u.migrate);
		break;
	case UVM_EVENT_CPU_FAULT:
		s->cpu_ns += ev->u.cpu_fault.duration_ns;
		s->cpu_pages += ev->u.cpu_fault.pages;
		break;
	case UVM_EVENT_EVICT:
		s->evict_bytes += ev->u.evict.bytes;
		break;
	case UVM_EVENT_OVERFLOW:
		s->lost += ev->u.overflow.lost;
		break;
	case UVM_EVENT_KERNEL:
		s->kernel_ns += ev->u.kernel.end_ns - ev->u.kernel.start_ns;
		break;
	}
}

static void types_list(uint64_t types, char *buf, size_t len)
{
	size_t n = 0;
	unsigned int t;

	buf[0] = 0;
	for (t = 0; t < TR_TYPES && n < len; t++)
		if (types & (1ULL << t))
			n += (size_t)snprintf(buf + n, len - n, "%s%s", n ? "," : "",
					      tr_types[t].name);
}

static void show_machine(const struct tr_info *in)
{
	const struct tr_header *h = &in->h;
	char sz[32];
	unsigned int i;

	printf("devices: %u\n", h->num_devices);
	for (i = 0; i < h->num_devices; i++)
		printf("  %u  %-24s %-8s %10s  node %d\n", in->devs[i].id, in->devs[i].name,
		       ut_backend_name(in->devs[i].backend),
		       ut_bytes(in->devs[i].mem_total, sz, sizeof(sz)), in->devs[i].numa_node);
	printf("host nodes: %u\n", h->num_nodes);
	for (i = 0; i < h->num_nodes; i++)
		printf("  node %d  %s\n", in->nodes[i].node,
		       ut_bytes(in->nodes[i].mem_total, sz, sizeof(sz)));
	if (h->mode == TR_MODE_NVIDIA) {
		printf("policies: NVIDIA's driver %s (its own; fault batch %u)\n",
		       h->driver_version, h->fault_batch);
		return;
	}
	printf("policies: evict=%s prefetch=%s (threshold %u%%, pages %u) thrash=%s "
	       "(threshold %u in %u us, nap %u us, pin %u ms) fault_batch=%u\n",
	       tr_policy_name(0, h->evict_policy), tr_policy_name(1, h->prefetch_policy),
	       h->prefetch_threshold, h->prefetch_pages, tr_policy_name(2, h->thrash_policy),
	       h->thrash_threshold, h->thrash_window_us, h->thrash_nap_us, h->thrash_pin_ms,
	       h->fault_batch);
	printf("UVM_POLICY: %s\n", h->policy_env[0] ? h->policy_env : "(unset)");
}

static const char *clock_name(uint32_t id)
{
	switch (id) {
	case 1: return "CLOCK_MONOTONIC";
	case 4: return "CLOCK_MONOTONIC_RAW";
	}
	return "clock ?";
}

static const char *mode_name(uint32_t mode)
{
	switch (mode) {
	case TR_MODE_ATTACH: return ", attached";
	case TR_MODE_IMPORT: return ", imported";
	case TR_MODE_NVIDIA: return ", recorded on NVIDIA's driver";
	}
	return "";
}

/* What the recorder checked: nothing lost, records lost (by NVIDIA type), unknown. */
static void show_completeness(const struct tr_header *h)
{
	static const char *const nv[TR_NV_TYPES] = {
		"?", "cpu_fault", "migration", "gpu_fault", "gpu_fault_replay",
		"fault_buffer_overflow", "fatal_fault", "read_duplicate",
		"read_duplicate_invalidate", "page_size_change", "thrashing",
		"throttling_start", "throttling_end", "map_remote", "eviction", "?",
	};
	const char *sep = " (NVIDIA's drops: ";
	unsigned int i;

	if (h->completeness == TR_COMPLETE_YES) {
		printf("complete: yes (the recorder checked: nothing lost)\n");
		return;
	}
	if (h->completeness == TR_COMPLETE_UNKNOWN) {
		printf("complete: unknown (%s)\n", h->version == 1 ?
		       "a format 1 file" : "not checked by its source");
		return;
	}
	printf("complete: NO: %" PRIu64 " records lost", h->lost);
	for (i = 0; i < TR_NV_TYPES; i++) {
		if (!h->nv_dropped[i])
			continue;
		printf("%s%s %" PRIu64, sep, nv[i], h->nv_dropped[i]);
		sep = ", ";
	}
	printf("%s\n", sep[0] == ',' ? ")" : "");
}

static void show_header(const char *path, const struct tr_info *in)
{
	const struct tr_header *h = &in->h;
	time_t t = (time_t)(h->start_realtime_ns / 1000000000ull);
	char when[64], types[160];
	struct tm tm;

	strftime(when, sizeof(when), "%Y-%m-%d %H:%M:%S %z", localtime_r(&t, &tm));
	types_list(h->types, types, sizeof(types));
	printf("trace: %s (format %u, records of event version %u, %s blocks)\n", path,
	       h->version, h->event_version,
	       h->compression == TR_COMP_ZLIB ? "zlib" : "uncompressed");
	printf("command: %s (pid %u%s)\n", h->command, h->pid, mode_name(h->mode));
	printf("host: %s, module ABI %u (srcversion %s), uvm-trace %s, page %u, block %u\n",
	       h->hostname, h->abi_version, h->module_version[0] ? h->module_version : "-",
	       h->tool_version, h->page_size, h->block_size);
	printf("started: %s (%s %" PRIu64 " ns)\n", when, clock_name(h->clock_id),
	       h->start_ns);
	printf("types recorded: %s\n", types);
	show_completeness(h);
	show_machine(in);
}

static void show_batches(const struct summary *s)
{
	uint64_t n = s->count[UVM_EVENT_FAULT_BATCH];
	const struct uvm_event_fault_batch *b = &s->b;

	printf("fault batches: %" PRIu64 "\n", n);
	if (!n)
		return;
	printf("  faults %u, pages %u, duplicates %u, blocks %u, prefetched %u\n",
	       b->faults, b->pages, b->duplicates, b->blocks, b->prefetched);
	printf("  migrated %u, remote %u, evictions %u\n", b->migrated, b->remote,
	       b->evictions);
	printf("  time %.3f ms (mean %.1f us): wait %.3f copy %.3f map %.3f unmap %.3f "
	       "evict %.3f ms\n", b->duration_ns / 1e6, b->duration_ns / 1e3 / (double)n,
	       b->wait_ns / 1e6, b->copy_ns / 1e6, b->map_ns / 1e6, b->unmap_ns / 1e6,
	       b->evict_ns / 1e6);
}

static void show_summary(const struct summary *s, uint64_t records,
			 const struct tr_header *h, long long file_bytes)
{
	uint64_t start = h->start_ns;
	unsigned int i;

	printf("records: %" PRIu64 " (%lld bytes on disk, %.1f bytes a record)\n", records,
	       file_bytes, records ? (double)file_bytes / (double)records : 0.0);
	for (i = 0; i < TR_TYPES; i++)
		if (s->count[i])
			printf("  %-14s %" PRIu64 "\n", tr_types[i].name, s->count[i]);
	if (records)
		printf("time span: %.6f s (first record at +%.6f s, last at +%.6f s)\n",
		       (s->last_ns - s->first_ns) / 1e9, ((int64_t)(s->first_ns - start)) / 1e9,
		       ((int64_t)(s->last_ns - start)) / 1e9);
	printf("bytes moved:\n");
	for (i = 0; i < DIR_COUNT; i++)
		printf("  %s  %" PRIu64 " bytes, %" PRIu64 " pages\n", dir_names[i], s->bytes[i],
		       s->pages[i]);
	for (i = 0; i < CAUSES; i++)
		if (s->cause_bytes[i])
			printf("  cause %-12s %" PRIu64 " bytes\n", cause_names[i],
			       s->cause_bytes[i]);
	show_batches(s);
	printf("cpu faults: %" PRIu64 " (%.3f ms, %" PRIu64 " pages)\n",
	       s->count[UVM_EVENT_CPU_FAULT], s->cpu_ns / 1e6, s->cpu_pages);
	printf("evictions: %" PRIu64 " (%" PRIu64 " bytes)\n", s->count[UVM_EVENT_EVICT],
	       s->evict_bytes);
	if (h->types & (1ULL << UVM_EVENT_KERNEL))
		printf("kernel launches: %" PRIu64 " (%.3f ms, summed)\n",
		       s->count[UVM_EVENT_KERNEL], s->kernel_ns / 1e6);
	printf("lost: %" PRIu64 " records\n", s->lost);
}

int tr_show_main(int argc, char **argv)
{
	static struct tr_reader r;
	struct summary s = { 0 };
	const struct uvm_event *ev;
	struct stat st;
	int ret;

	if (argc != 2 || argv[1][0] == '-') {
		fprintf(stderr, "usage: uvm-trace show FILE\n");
		return TR_EXIT_USAGE;
	}
	if (tr_open(&r, argv[1]))
		goto fail;
	while ((ret = tr_next(&r, &ev)) > 0)
		add(&s, ev);
	if (ret < 0)
		goto fail;
	show_header(argv[1], &r.info);
	show_summary(&s, r.index, &r.info.h,
		     stat(argv[1], &st) ? -1LL : (long long)st.st_size);
	tr_close(&r);
	return 0;

fail:
	fprintf(stderr, "uvm-trace: %s: %s\n", argv[1], r.err);
	tr_close(&r);
	return 1;
}
