// SPDX-License-Identifier: GPL-2.0
/*
 * uvm-exp - run managed-memory workloads as device kernels under chosen
 * policies and oversubscription, and report what the memory system did
 * (docs/experiments.md).
 *
 *   uvm-exp list
 *   uvm-exp run WORKLOAD [--size S] [--iters N] [--device D] [--oversub R]
 *                        [--policy K=V,...] [--seed N] [--json FILE]
 *                        [--cost K=V,...] [--timeline FILE] [--allow-incomplete]
 *                        [--detail] [--kernels FILE]
 *   uvm-exp sweep FILE [--out DIR]
 *   uvm-exp fidelity [--out DIR] [--json FILE] [--policy P] TRACE...
 *   uvm-exp calibrate [--json FILE] [--out DIR] [--all] TRACE...
 *
 * Exit status: 0 the run finished and its data checked out; 1 it failed
 * (a kernel's error, wrong data); 2 bad usage (nothing ran).
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

#include "exp.h"
#include "exp_cost.h"
#include "exp_detail.h"
#include "fidelity.h"
#include "uapi/uvm_events.h"

#define MIB		(1024ULL * 1024ULL)
#define BLOCK		(2 * MIB)
#define HIST_BUCKETS	14	/* pages per batch: 1, 2-3, ..., 4096-8191 */

struct opts {
	const char *workload;
	uint64_t size;
	unsigned int iters;
	int device;
	double oversub;
	const char *policy;
	uint64_t seed;
	const char *json;
	const char *timeline;
	struct exp_cost cost;
	bool allow_incomplete;
	bool detail;		/* --detail */
	const char *kernels;	/* --kernels */
};

/*
 * The event reader: batch-size histogram and thrashing, while it runs;
 * with @timeline, every migration and eviction as a CSV line.
 */
struct reader {
	int fd;
	volatile int stop;
	FILE *timeline;
	uint64_t t0_ns;
	uint64_t hist[HIST_BUCKETS];
	uint64_t batches, lost, thrash;
	struct exp_detail *detail;	/* --detail: every record counted, or NULL */
	int detail_err;
	pthread_t thread;
};

/* Counters a run reports: deltas of the VA space's. */
static const struct {
	const char *name;
	unsigned int idx;
} counters[] = {
	{ "device_faults", UVM_COUNTER_DEVICE_FAULTS },
	{ "fault_batches", UVM_COUNTER_FAULT_BATCHES },
	{ "fault_batch_pages", UVM_COUNTER_FAULT_BATCH_PAGES },
	{ "prefetched_pages", UVM_COUNTER_FAULT_PREFETCH_PAGES },
	{ "h2d_pages", UVM_COUNTER_MIGRATE_H2D_PAGES },
	{ "h2d_bytes", UVM_COUNTER_MIGRATE_H2D_BYTES },
	{ "d2h_pages", UVM_COUNTER_MIGRATE_D2H_PAGES },
	{ "d2h_bytes", UVM_COUNTER_MIGRATE_D2H_BYTES },
	{ "d2d_pages", UVM_COUNTER_MIGRATE_D2D_PAGES },
	{ "d2d_bytes", UVM_COUNTER_MIGRATE_D2D_BYTES },
	{ "evictions", UVM_COUNTER_EVICTIONS },
	{ "evicted_bytes", UVM_COUNTER_EVICTED_BYTES },
	{ "remote_maps", UVM_COUNTER_REMOTE_MAPS },
	{ "read_dup_copies", UVM_COUNTER_READ_DUP_COPIES },
	{ "thrash_detected", UVM_COUNTER_THRASH_DETECTED },
	{ "thrash_throttled", UVM_COUNTER_THRASH_THROTTLED },
	{ "thrash_pinned", UVM_COUNTER_THRASH_PINNED },
	{ "cpu_faults", UVM_COUNTER_CPU_FAULTS },
	{ "prefetch_used_pages", UVM_COUNTER_PREFETCH_USED_PAGES },
};

/* Indexes of counters[] the figures below are computed from. */
enum {
	C_FAULTS, C_BATCHES, C_BATCH_PAGES, C_PREFETCHED, C_H2D_PAGES, C_H2D_BYTES,
	C_D2H_PAGES, C_D2H_BYTES, C_D2D_PAGES, C_D2D_BYTES, C_EVICTIONS,
	C_CPU_FAULTS = 17, C_PREFETCH_USED,
};
#define NCOUNTERS (sizeof(counters) / sizeof(counters[0]))

static void usage(FILE *f)
{
	fprintf(f,
		"usage: uvm-exp list\n"
		"       uvm-exp run WORKLOAD [--size S] [--iters N] [--device D]\n"
		"                            [--oversub R] [--policy K=V,...] [--seed N]\n"
		"                            [--json FILE] [--cost K=V,...] [--timeline FILE]\n"
		"                            [--allow-incomplete] [--detail] [--kernels FILE]\n"
		"       uvm-exp sweep FILE [--out DIR]   (docs/experiments.md)\n"
		"       uvm-exp fidelity [--out DIR] [--json FILE] [--policy P] TRACE...\n"
		"                        (docs/fidelity.md)\n"
		"       uvm-exp calibrate [--json FILE] [--all] TRACE...\n"
		"                        (the cost model fitted to recorded kernel times)\n"
		"  WORKLOAD      a name of `uvm-exp list`, or replay:FILE (a trace,\n"
		"                docs/replay.md)\n"
		"  --size S      working set, bytes with K, M or G (default 32M)\n"
		"  --iters N     kernel passes, 1..100000 (default 3)\n"
		"  --device D    device ordinal (default 0)\n"
		"  --oversub R   working set / the device memory it may use, 1..16\n"
		"                (a per-process cap; default 1: the set fits exactly)\n"
		"  --policy P    UVM_POLICY syntax: preset=nvidia, evict=lru|fifo|lfu|random[:SEED],\n"
		"                batch=N, prefetch=none|density[:PCT]|sequential[:PAGES]|\n"
		"                density64k[:PCT],\n"
		"                thrash=none|throttle[:US]|pin[:MS]\n"
		"  --seed N      the workload's data and access seed (default 1)\n"
		"  --json FILE   the run as one JSON object\n"
		"  --cost P      cost model parameters, NAME=VALUE,... (batch_us,\n"
		"                page_us, h2d_GBps, d2h_GBps, d2d_GBps, cpu_fault_us,\n"
		"                evict_us; defaults measured on an H100)\n"
		"  --timeline F  every migration and eviction as CSV lines\n"
		"  --allow-incomplete  replay a trace whose recording lost records\n"
		"  --detail      count migrations by direction, cause and size, CPU faults\n"
		"                per 2 MiB block, thrashing and remote maps (JSON \"detail\")\n"
		"  --kernels F   replay: the recording's kernel launches (record-nvidia's\n"
		"                FILE.kernels): each kernel's part priced (JSON \"kernels\")\n");
}

/* A usage error: say it, return exit status 2. */
__attribute__((format(printf, 1, 2)))
static int bad(const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "uvm-exp: ");
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fprintf(stderr, "\n");
	return 2;
}

/* "32M", "1G", "4096": bytes, or 0 if malformed. */
static uint64_t parse_size(const char *s)
{
	char *end;
	unsigned long long v;

	errno = 0;
	v = strtoull(s, &end, 10);
	if (errno || end == s || *s == '-')
		return 0;
	switch (*end) {
	case 'K': case 'k': v <<= 10; end++; break;
	case 'M': case 'm': v <<= 20; end++; break;
	case 'G': case 'g': v <<= 30; end++; break;
	}
	return *end || v > (1ULL << 40) ? 0 : v;
}

static int parse_uint(const char *s, unsigned long long max, unsigned long long *out)
{
	char *end;

	errno = 0;
	*out = strtoull(s, &end, 0);
	return !errno && end != s && !*end && *s != '-' && *out <= max ? 0 : -1;
}

static int parse_args(int argc, char **argv, struct opts *o)
{
	unsigned long long v;
	char *end;
	int i;

	const char *cbad = NULL;

	*o = (struct opts){ .size = 32 * MIB, .iters = 3, .oversub = 1.0, .seed = 1 };
	exp_cost_default(&o->cost);
	if (argc < 3)
		return bad("run needs a workload (uvm-exp list names them)");
	o->workload = argv[2];
	if (!exp_workload_find(o->workload))
		return bad("unknown workload '%s' (uvm-exp list names them; replay:FILE "
			   "replays a trace)", o->workload);
	for (i = 3; i < argc; i++) {
		const char *a = argv[i], *v1 = i + 1 < argc ? argv[i + 1] : NULL;

		if (!strcmp(a, "--allow-incomplete")) {
			o->allow_incomplete = true;
			continue;
		}
		if (!strcmp(a, "--detail")) {
			o->detail = true;
			continue;
		}
		if (!v1)
			return bad("%s needs a value", a);
		i++;
		if (!strcmp(a, "--size")) {
			o->size = parse_size(v1);
			if (o->size < 64 * 1024)
				return bad("--size '%s': bytes with K, M or G, 64K..1T", v1);
		} else if (!strcmp(a, "--iters")) {
			if (parse_uint(v1, 100000, &v) || !v)
				return bad("--iters '%s': 1..100000", v1);
			o->iters = (unsigned int)v;
		} else if (!strcmp(a, "--device")) {
			if (parse_uint(v1, 63, &v))
				return bad("--device '%s': a device ordinal", v1);
			o->device = (int)v;
		} else if (!strcmp(a, "--oversub")) {
			errno = 0;
			o->oversub = strtod(v1, &end);
			if (errno || end == v1 || *end || !(o->oversub >= 1.0) ||
			    o->oversub > 16.0)
				return bad("--oversub '%s': a ratio, 1..16", v1);
		} else if (!strcmp(a, "--policy")) {
			o->policy = v1;
		} else if (!strcmp(a, "--seed")) {
			if (parse_uint(v1, UINT64_MAX, &v))
				return bad("--seed '%s': a number", v1);
			o->seed = v;
		} else if (!strcmp(a, "--json")) {
			o->json = v1;
		} else if (!strcmp(a, "--timeline")) {
			o->timeline = v1;
		} else if (!strcmp(a, "--kernels")) {
			if (!exp_workload_find(o->workload)->takes_arg)
				return bad("--kernels: only a replay has a recording's kernels");
			o->kernels = v1;
		} else if (!strcmp(a, "--cost")) {
			if (exp_cost_parse(&o->cost, v1, &cbad))
				return bad("--cost: bad item '%s' (NAME=VALUE: batch_us, "
					   "page_us, h2d_GBps, d2h_GBps, d2d_GBps, "
					   "cpu_fault_us, evict_us; positive)", cbad);
		} else {
			return bad("unknown option '%s'", a);
		}
	}
	return 0;
}

static unsigned int bucket(uint32_t pages)
{
	unsigned int b = 0;

	while (pages > 1 && b < HIST_BUCKETS - 1) {
		pages >>= 1;
		b++;
	}
	return b;
}

static const char *const causes[] = {
	"user", "cpu_fault", "device_fault", "eviction", "prefetch", "thrashing",
	"collapse",
};

/* Where a migration went: h2d, d2h, d2d or h2h. */
static const char *direction(const struct uvm_event_migrate *m)
{
	static const char *const dir[2][2] = { { "h2h", "h2d" }, { "d2h", "d2d" } };

	return dir[m->src_type == UVM_EVENT_LOC_DEVICE][m->dst_type == UVM_EVENT_LOC_DEVICE];
}

/* t_s,kind,cause,bytes,duration_us: one migration or eviction. */
static void timeline_line(struct reader *rd, const struct uvm_event *e)
{
	double t;

	if (!rd->timeline || e->hdr.timestamp_ns < rd->t0_ns)
		return;
	t = (double)(e->hdr.timestamp_ns - rd->t0_ns) * 1e-9;
	if (e->hdr.type == UVM_EVENT_EVICT)
		fprintf(rd->timeline, "%.6f,evict,eviction,%" PRIu64 ",%.1f\n", t,
			(uint64_t)e->u.evict.bytes, e->u.evict.duration_ns / 1e3);
	else
		fprintf(rd->timeline, "%.6f,%s,%s,%" PRIu64 ",%.1f\n", t,
			direction(&e->u.migrate),
			e->u.migrate.cause < sizeof(causes) / sizeof(causes[0]) ?
			causes[e->u.migrate.cause] : "other",
			(uint64_t)e->u.migrate.bytes, e->u.migrate.duration_ns / 1e3);
}

static void reader_take(struct reader *rd, const struct uvm_event *e, int n)
{
	int i;

	for (i = 0; i < n; i++) {
		if (rd->detail && !rd->detail_err)
			rd->detail_err = exp_detail_take(rd->detail, &e[i]);
		switch (e[i].hdr.type) {
		case UVM_EVENT_FAULT_BATCH:
			rd->batches++;
			rd->hist[bucket(e[i].u.batch.pages)]++;
			break;
		case UVM_EVENT_THRASH:
			rd->thrash++;
			break;
		case UVM_EVENT_MIGRATE:
		case UVM_EVENT_EVICT:
			timeline_line(rd, &e[i]);
			break;
		case UVM_EVENT_OVERFLOW:
			rd->lost += e[i].u.overflow.lost;
			break;
		}
	}
}

/* Drain what is there (the descriptor is non-blocking). */
static void reader_drain(struct reader *rd)
{
	static struct uvm_event buf[256];
	int n;

	while ((n = uvm_events_read(rd->fd, buf, 256)) > 0)
		reader_take(rd, buf, n);
}

static void *reader_main(void *arg)
{
	struct reader *rd = arg;

	while (!rd->stop) {
		reader_drain(rd);
		usleep(2000);
	}
	reader_drain(rd);
	return NULL;
}

static int reader_start(struct uvm_context *ctx, struct reader *rd, FILE *timeline,
			uint64_t t0_ns, struct exp_detail *detail)
{
	uint64_t types = (1ULL << UVM_EVENT_FAULT_BATCH) | (1ULL << UVM_EVENT_THRASH);

	memset(rd, 0, sizeof(*rd));
	rd->timeline = timeline;
	rd->detail = detail;
	if (detail)
		types |= (1ULL << UVM_EVENT_MIGRATE) | (1ULL << UVM_EVENT_CPU_FAULT) |
			 (1ULL << UVM_EVENT_REMOTE_MAP) | (1ULL << UVM_EVENT_EVICT);
	rd->t0_ns = t0_ns;		/* the timeline's zero */
	if (timeline) {
		types |= (1ULL << UVM_EVENT_MIGRATE) | (1ULL << UVM_EVENT_EVICT);
		fprintf(timeline, "t_s,kind,cause,bytes,duration_us\n");
	}
	rd->fd = uvm_events_open(ctx, types, 65536, 0);
	if (rd->fd < 0)
		return rd->fd;
	fcntl(rd->fd, F_SETFL, fcntl(rd->fd, F_GETFL) | O_NONBLOCK);
	if (pthread_create(&rd->thread, NULL, reader_main, rd)) {
		close(rd->fd);
		return -EAGAIN;
	}
	return 0;
}

static void reader_stop(struct reader *rd)
{
	rd->stop = 1;
	pthread_join(rd->thread, NULL);
	close(rd->fd);
}

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec * 1e-9;
}

/*
 * Cap the device at the footprint (the 2 MiB blocks the workload's data
 * spans) / oversub, in whole blocks; 0 or an exit status.
 */
static int set_cap(struct uvm_context *ctx, const struct opts *o,
		   uint64_t footprint, uint64_t *cap)
{
	struct uvm_device_info info;
	int ret;

	*cap = (uint64_t)((double)footprint / o->oversub) / BLOCK * BLOCK;
	if (*cap < BLOCK)
		*cap = BLOCK;
	ret = uvm_device_get_info(ctx, (unsigned int)o->device, &info);
	if (ret) {
		fprintf(stderr, "uvm-exp: device %d: %s\n", o->device, strerror(-ret));
		return 2;
	}
	if (*cap > info.mem_total) {
		fprintf(stderr, "uvm-exp: %" PRIu64 " MiB at %.2fx needs %" PRIu64
			" MiB of device %d, which has %" PRIu64 " MiB\n", footprint >> 20,
			o->oversub, *cap >> 20, o->device, info.mem_total >> 20);
		return 2;
	}
	ret = uvm_policy_cap_set(ctx, (unsigned int)o->device, *cap);
	if (ret) {
		fprintf(stderr, "uvm-exp: cap: %s\n", strerror(-ret));
		return 2;
	}
	return 0;
}

struct result {
	double wall;
	double modelled;
	uint64_t footprint;
	uint64_t cap;
	uint64_t delta[NCOUNTERS];
	struct reader rd;
	const char *status;	/* "ok", or what failed */
	char error[192];
	char extra[512];	/* the workload's JSON members */
	char *kernels;		/* the replay's kernels, a JSON array, or NULL */
	struct exp_detail detail;
};

/* The most memory this process has had resident, KiB. */
static long max_rss_kib(void)
{
	struct rusage ru;

	return getrusage(RUSAGE_SELF, &ru) ? -1 : ru.ru_maxrss;
}

/* @s as a JSON string, quotes included. */
/* exp_json_str: @s as a JSON string. */
void exp_json_str(FILE *f, const char *s)
{
	fputc('"', f);
	for (; *s; s++) {
		if (*s == '"' || *s == '\\')
			fprintf(f, "\\%c", *s);
		else if ((unsigned char)*s < 0x20)
			fprintf(f, "\\u%04x", (unsigned char)*s);
		else
			fputc(*s, f);
	}
	fputc('"', f);
}

static void print_json(FILE *f, const struct opts *o, const struct result *r)
{
	unsigned int i;

	fprintf(f, "{\"workload\":");
	exp_json_str(f, o->workload);
	fprintf(f, ",\"size\":%" PRIu64 ",\"iters\":%u,\"device\":%d,"
		"\"oversub\":%.4g,\"footprint_bytes\":%" PRIu64 ",\"cap_bytes\":%" PRIu64
		",\"policy\":", o->size, o->iters, o->device, o->oversub, r->footprint, r->cap);
	exp_json_str(f, o->policy ? o->policy : "");
	fprintf(f, ",\"seed\":%" PRIu64 ",\"status\":\"%s\",\"error\":", o->seed,
		r->status);
	exp_json_str(f, r->error);
	fprintf(f, ",\"wall_s\":%.6f,\"max_rss_kib\":%ld", r->wall, max_rss_kib());
	if (*r->extra)
		fprintf(f, ",%s", r->extra);
	for (i = 0; i < NCOUNTERS; i++)
		fprintf(f, ",\"%s\":%" PRIu64, counters[i].name, r->delta[i]);
	fprintf(f, ",\"duplicate_faults\":%" PRIu64 ",\"batch_pages_hist\":[",
		r->delta[0] - r->delta[2]);
	for (i = 0; i < HIST_BUCKETS; i++)
		fprintf(f, "%s%" PRIu64, i ? "," : "", r->rd.hist[i]);
	fprintf(f, "],\"events_lost\":%" PRIu64 ",\"modelled_s\":%.9f,", r->rd.lost,
		r->modelled);
	if (r->delta[C_PREFETCHED])
		fprintf(f, "\"prefetch_accuracy\":%.6f,",
			(double)r->delta[C_PREFETCH_USED] / r->delta[C_PREFETCHED]);
	else
		fprintf(f, "\"prefetch_accuracy\":null,");
	exp_cost_json(f, &o->cost);
	if (r->kernels)
		fprintf(f, ",\"kernels\":%s", r->kernels);
	if (o->detail) {
		fprintf(f, ",\"detail\":");
		exp_detail_json(f, &r->detail);
	}
	fprintf(f, "}\n");
}

static void print_text(const struct opts *o, const struct result *r)
{
	unsigned int i;

	printf("%s: %" PRIu64 " MiB x %u passes on device %d at %.2fx (cap %" PRIu64
	       " MiB)%s%s: %s, %.3f s\n", o->workload, o->size >> 20, o->iters, o->device,
	       o->oversub, r->cap >> 20, o->policy ? ", policy " : "",
	       o->policy ? o->policy : "", r->status, r->wall);
	for (i = 0; i < NCOUNTERS; i++)
		printf("  %-20s %" PRIu64 "\n", counters[i].name, r->delta[i]);
	printf("  modelled_s           %.6f\n", r->modelled);
	if (r->delta[C_PREFETCHED])
		printf("  prefetch_accuracy    %.3f\n",
		       (double)r->delta[C_PREFETCH_USED] / r->delta[C_PREFETCHED]);
	printf("  batch pages (log2 buckets from 1):");
	for (i = 0; i < HIST_BUCKETS; i++)
		printf(" %" PRIu64, r->rd.hist[i]);
	printf("\n");
	if (*r->error)
		printf("  error: %s\n", r->error);
}

/* The VA space's counters of the table above. */
static void read_counters(struct uvm_context *ctx, uint64_t *out)
{
	uint64_t all[64] = { 0 };
	unsigned int i;

	uvm_stats(ctx, UVM_STATS_SCOPE_CONTEXT, all, 64);
	for (i = 0; i < NCOUNTERS; i++)
		out[i] = all[counters[i].idx];
}

/*
 * The counters once the module's background work for the run is done: the
 * CPU fault-ahead worker may still be moving blocks the last pass's CPU
 * sweep asked for. Read until two reads 20 ms apart agree (at most 2 s),
 * so that how far it got by the end of the passes does not change the
 * counts (a replay compares them with its recording's).
 */
static void settle(struct uvm_context *ctx, uint64_t *out)
{
	uint64_t prev[NCOUNTERS];
	const struct timespec nap = { 0, 20 * 1000 * 1000 };
	int i;

	read_counters(ctx, out);
	for (i = 0; i < 100; i++) {
		memcpy(prev, out, sizeof(prev));
		nanosleep(&nap, NULL);
		read_counters(ctx, out);
		if (!memcmp(prev, out, sizeof(prev)))
			return;
	}
}

/* The run's counts priced by the cost model. */
static double modelled(const struct opts *o, const uint64_t *d)
{
	struct exp_cost_counts n = {
		.fault_batches = d[C_BATCHES], .fault_batch_pages = d[C_BATCH_PAGES],
		.h2d_bytes = d[C_H2D_BYTES], .d2h_bytes = d[C_D2H_BYTES],
		.d2d_bytes = d[C_D2D_BYTES], .cpu_faults = d[C_CPU_FAULTS],
		.evictions = d[C_EVICTIONS],
	};

	return exp_cost_time(&o->cost, &n);
}

/* The measured part: every pass on the stream, then wait for it. */
static int run_passes(const struct exp_workload *w, struct exp_run *er,
		      const struct opts *o)
{
	unsigned int i;
	int ret;

	for (i = 0; i < o->iters; i++) {
		ret = w->iterate(er, i);
		if (ret)
			return ret;
	}
	return exp_sync(er);
}

int exp_cmd_run(int argc, char **argv)
{
	const struct exp_workload *w;
	uint64_t before[NCOUNTERS], after[NCOUNTERS];
	struct exp_run er = { 0 };
	struct result r = { .status = "ok" };
	struct uvm_context *ctx;
	const char *perr = NULL;
	struct opts o;
	unsigned int i;
	int ret, st = 0;
	FILE *jf, *tl = NULL;
	double t0;

	ret = parse_args(argc, argv, &o);
	if (ret)
		return ret;
	w = exp_workload_find(o.workload);
	/* a trace is checked before the device is touched */
	if (w->takes_arg && exp_replay_check(exp_workload_arg(o.workload), o.allow_incomplete))
		return 1;
	if (cudaSetDevice(o.device) != cudaSuccess || uvm_runtime_context(&ctx)) {
		fprintf(stderr, "uvm-exp: no device %d (is the module loaded?)\n", o.device);
		return 2;
	}
	if (o.policy && uvm_policy_apply(ctx, o.policy, &perr)) {
		fprintf(stderr, "uvm-exp: --policy: bad item '%s'\n", perr ? perr : o.policy);
		return 2;
	}
	er.size = o.size;
	er.arg = exp_workload_arg(o.workload);
	er.iters = o.iters;
	er.device = o.device;
	er.seed = o.seed;
	er.allow_incomplete = o.allow_incomplete;
	er.kernels = o.kernels;
	er.cost = &o.cost;
	if (cudaStreamCreate(&er.stream) != cudaSuccess) {
		fprintf(stderr, "uvm-exp: cudaStreamCreate failed\n");
		return 1;
	}
	ret = w->setup(&er);
	if (ret) {
		fprintf(stderr, "uvm-exp: %s: setup: %s\n", o.workload,
			*er.error ? er.error : strerror(-ret));
		w->teardown(&er);
		return ret == -EINVAL ? 2 : 1;
	}
	r.footprint = er.footprint;
	ret = set_cap(ctx, &o, er.footprint, &r.cap);
	if (!ret && o.timeline) {
		tl = fopen(o.timeline, "w");
		if (!tl) {
			fprintf(stderr, "uvm-exp: %s: %s\n", o.timeline, strerror(errno));
			ret = 2;
		}
	}
	if (!ret && reader_start(ctx, &r.rd, tl, (uint64_t)(now() * 1e9),
				 o.detail ? &r.detail : NULL))
		ret = 1;
	if (ret) {
		if (tl)
			fclose(tl);
		w->teardown(&er);
		return ret;
	}
	read_counters(ctx, before);
	t0 = now();
	ret = run_passes(w, &er, &o);
	r.wall = now() - t0;
	settle(ctx, after);
	reader_stop(&r.rd);
	if (tl)
		fclose(tl);
	for (i = 0; i < NCOUNTERS; i++)
		r.delta[i] = after[i] - before[i];
	r.modelled = modelled(&o, r.delta);
	if (!ret)
		ret = w->verify(&er);
	if (ret) {
		r.status = "failed";
		snprintf(r.error, sizeof(r.error), "%s", *er.error ? er.error : strerror(-ret));
		st = 1;
	}
	if (!ret && r.rd.detail_err) {
		r.status = "failed";
		snprintf(r.error, sizeof(r.error), "--detail: out of memory");
		st = 1;
	}
	memcpy(r.extra, er.extra, sizeof(r.extra));
	r.kernels = er.kernels_json;
	w->teardown(&er);
	cudaStreamDestroy(er.stream);
	print_text(&o, &r);
	if (o.json) {
		jf = fopen(o.json, "w");
		if (!jf) {
			fprintf(stderr, "uvm-exp: %s: %s\n", o.json, strerror(errno));
			st = 1;
		} else if (print_json(jf, &o, &r), fclose(jf)) {
			fprintf(stderr, "uvm-exp: %s: %s\n", o.json, strerror(errno));
			st = 1;
		}
	}
	free(r.kernels);
	exp_detail_free(&r.detail);
	return st;
}

int exp_main(int argc, char **argv)
{
	unsigned int i;

	if (argc < 2) {
		usage(stderr);
		return 2;
	}
	if (!strcmp(argv[1], "list")) {
		for (i = 0; i < exp_nworkloads; i++)
			printf("%-10s %s\n", exp_workloads[i]->name, exp_workloads[i]->desc);
		return 0;
	}
	if (!strcmp(argv[1], "run"))
		return exp_cmd_run(argc, argv);
	if (!strcmp(argv[1], "sweep"))
		return exp_sweep("/proc/self/exe", argc, argv);
	if (!strcmp(argv[1], "fidelity"))
		return exp_fidelity("/proc/self/exe", argc, argv);
	if (!strcmp(argv[1], "calibrate"))
		return exp_calibrate(argc, argv);
	if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h")) {
		usage(stdout);
		return 0;
	}
	fprintf(stderr, "uvm-exp: unknown command '%s'\n", argv[1]);
	usage(stderr);
	return 2;
}
