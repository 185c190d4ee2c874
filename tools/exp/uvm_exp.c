// SPDX-License-Identifier: GPL-2.0
/*
 * uvm-exp - run managed-memory workloads as device kernels under chosen
 * policies and oversubscription, and report what the memory system did
 * (docs/experiments.md).
 *
 *   uvm-exp list
 *   uvm-exp run WORKLOAD [--size S] [--iters N] [--device D] [--oversub R]
 *                        [--policy K=V,...] [--seed N] [--json FILE]
 *   uvm-exp sweep FILE [--out DIR]
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
#include <time.h>
#include <unistd.h>

#include "exp.h"
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
};

/* The event reader: batch-size histogram and thrashing, while it runs. */
struct reader {
	int fd;
	volatile int stop;
	uint64_t hist[HIST_BUCKETS];
	uint64_t batches, lost, thrash;
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
};
#define NCOUNTERS (sizeof(counters) / sizeof(counters[0]))

static void usage(FILE *f)
{
	fprintf(f,
		"usage: uvm-exp list\n"
		"       uvm-exp run WORKLOAD [--size S] [--iters N] [--device D]\n"
		"                            [--oversub R] [--policy K=V,...] [--seed N]\n"
		"                            [--json FILE]\n"
		"       uvm-exp sweep FILE [--out DIR]   (docs/experiments.md)\n"
		"  --size S      working set, bytes with K, M or G (default 32M)\n"
		"  --iters N     kernel passes, 1..100000 (default 3)\n"
		"  --device D    device ordinal (default 0)\n"
		"  --oversub R   working set / the device memory it may use, 1..16\n"
		"                (a per-process cap; default 1: the set fits exactly)\n"
		"  --policy P    UVM_POLICY syntax: evict=lru|fifo|lfu|random[:SEED],\n"
		"                batch=N, prefetch=none|density[:PCT]|sequential[:PAGES],\n"
		"                thrash=none|throttle[:US]|pin[:MS]\n"
		"  --seed N      the workload's data and access seed (default 1)\n"
		"  --json FILE   the run as one JSON object\n");
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

	*o = (struct opts){ .size = 32 * MIB, .iters = 3, .oversub = 1.0, .seed = 1 };
	if (argc < 3)
		return bad("run needs a workload (uvm-exp list names them)");
	o->workload = argv[2];
	if (!exp_workload_find(o->workload))
		return bad("unknown workload '%s' (uvm-exp list names them)", o->workload);
	for (i = 3; i < argc; i++) {
		const char *a = argv[i], *v1 = i + 1 < argc ? argv[i + 1] : NULL;

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

static void reader_take(struct reader *rd, const struct uvm_event *e, int n)
{
	int i;

	for (i = 0; i < n; i++) {
		switch (e[i].hdr.type) {
		case UVM_EVENT_FAULT_BATCH:
			rd->batches++;
			rd->hist[bucket(e[i].u.batch.pages)]++;
			break;
		case UVM_EVENT_THRASH:
			rd->thrash++;
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

static int reader_start(struct uvm_context *ctx, struct reader *rd)
{
	uint64_t types = (1ULL << UVM_EVENT_FAULT_BATCH) | (1ULL << UVM_EVENT_THRASH);

	memset(rd, 0, sizeof(*rd));
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
	uint64_t footprint;
	uint64_t cap;
	uint64_t delta[NCOUNTERS];
	struct reader rd;
	const char *status;	/* "ok", or what failed */
	char error[192];
};

static void print_json(FILE *f, const struct opts *o, const struct result *r)
{
	unsigned int i;

	fprintf(f, "{\"workload\":\"%s\",\"size\":%" PRIu64 ",\"iters\":%u,\"device\":%d,"
		"\"oversub\":%.4g,\"footprint_bytes\":%" PRIu64 ",\"cap_bytes\":%" PRIu64
		",\"policy\":\"%s\",\"seed\":%" PRIu64
		",\"status\":\"%s\",\"error\":\"%s\",\"wall_s\":%.6f", o->workload, o->size,
		o->iters, o->device, o->oversub, r->footprint, r->cap, o->policy ? o->policy : "",
		o->seed, r->status, r->error, r->wall);
	for (i = 0; i < NCOUNTERS; i++)
		fprintf(f, ",\"%s\":%" PRIu64, counters[i].name, r->delta[i]);
	fprintf(f, ",\"duplicate_faults\":%" PRIu64 ",\"batch_pages_hist\":[",
		r->delta[0] - r->delta[2]);
	for (i = 0; i < HIST_BUCKETS; i++)
		fprintf(f, "%s%" PRIu64, i ? "," : "", r->rd.hist[i]);
	fprintf(f, "],\"events_lost\":%" PRIu64 "}\n", r->rd.lost);
}

static void print_text(const struct opts *o, const struct result *r)
{
	unsigned int i;

	printf("%s: %" PRIu64 " MiB x %u passes on device %d at %.2fx (cap %" PRIu64
	       " MiB)%s%s: %s, %.3f s\n", o->workload, o->size >> 20, o->iters, o->device,
	       o->oversub, r->cap >> 20, o->policy ? ", policy " : "",
	       o->policy ? o->policy : "", r->status, r->wall);
	for (i = 0; i < NCOUNTERS; i++)
		printf("  %-18s %" PRIu64 "\n", counters[i].name, r->delta[i]);
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

static int cmd_run(int argc, char **argv)
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
	FILE *jf;
	double t0;

	ret = parse_args(argc, argv, &o);
	if (ret)
		return ret;
	w = exp_workload_find(o.workload);
	if (cudaSetDevice(o.device) != cudaSuccess || uvm_runtime_context(&ctx)) {
		fprintf(stderr, "uvm-exp: no device %d (is the module loaded?)\n", o.device);
		return 2;
	}
	if (o.policy && uvm_policy_apply(ctx, o.policy, &perr)) {
		fprintf(stderr, "uvm-exp: --policy: bad item '%s'\n", perr ? perr : o.policy);
		return 2;
	}
	er.size = o.size;
	er.iters = o.iters;
	er.device = o.device;
	er.seed = o.seed;
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
	if (!ret && reader_start(ctx, &r.rd))
		ret = 1;
	if (ret) {
		w->teardown(&er);
		return ret;
	}
	read_counters(ctx, before);
	t0 = now();
	ret = run_passes(w, &er, &o);
	r.wall = now() - t0;
	read_counters(ctx, after);
	reader_stop(&r.rd);
	for (i = 0; i < NCOUNTERS; i++)
		r.delta[i] = after[i] - before[i];
	if (!ret)
		ret = w->verify(&er);
	if (ret) {
		r.status = "failed";
		snprintf(r.error, sizeof(r.error), "%s", *er.error ? er.error : strerror(-ret));
		st = 1;
	}
	w->teardown(&er);
	cudaStreamDestroy(er.stream);
	print_text(&o, &r);
	if (o.json) {
		jf = fopen(o.json, "w");
		if (!jf) {
			fprintf(stderr, "uvm-exp: %s: %s\n", o.json, strerror(errno));
			return 1;
		}
		print_json(jf, &o, &r);
		fclose(jf);
	}
	return st;
}

int main(int argc, char **argv)
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
		return cmd_run(argc, argv);
	if (!strcmp(argv[1], "sweep"))
		return exp_sweep("/proc/self/exe", argc, argv);
	if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h")) {
		usage(stdout);
		return 0;
	}
	fprintf(stderr, "uvm-exp: unknown command '%s'\n", argv[1]);
	usage(stderr);
	return 2;
}
