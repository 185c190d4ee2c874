// SPDX-License-Identifier: GPL-2.0
/*
 * exp_fidelity.c - `uvm-exp fidelity [--out DIR] [--json FILE] [--policy P]
 * [--cost K=V,...] [--device D] [--allow-incomplete] TRACE...`
 * (docs/fidelity.md).
 *
 * For each recording of NVIDIA's driver (a trace, or its .xz): its own
 * records counted (exp_detail.c), then its replay on uvm.ko in a child
 * process of its own (`uvm-exp run replay:TRACE --iters 1 --policy P
 * --detail --kernels TRACE`: a fresh VA space, one pass; the kernels from the
 * trace's own kernel records, or an old TRACE.kernels), whose
 * JSON gives the same counts of what uvm.ko did and the cost model's time
 * of each recorded kernel. fidelity_report.c compares the two.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "fidelity.h"
#include "replay_kernels.h"
#include "trace/trace_format.h"

#define MAX_CASES	256

static void fid_usage(FILE *f)
{
	fprintf(f,
		"usage: uvm-exp fidelity [--out DIR] [--json FILE] [--policy P]\n"
		"                        [--cost K=V,...] [--device D] [--allow-incomplete]\n"
		"                        TRACE...\n"
		"  TRACE         a recording of NVIDIA's driver (uvm-trace record-nvidia),\n"
		"                or its .xz; its kernel records (or TRACE.kernels), and\n"
		"                CASE.untraced.json and CASE.resident.json beside it\n"
		"  --out DIR     the replays' JSON and logs, the plots (default fidelity)\n"
		"  --json FILE   the comparison as one JSON object (default DIR/fidelity.json)\n"
		"  --policy P    the policies to replay under (default preset=nvidia)\n"
		"  --cost P      cost model parameters (as uvm-exp run)\n"
		"  --device D    the device to replay on (default 0)\n"
		"  --allow-incomplete  compare recordings that lost records too\n");
}

__attribute__((format(printf, 1, 2)))
static int fid_bad(const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "uvm-exp fidelity: ");
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fprintf(stderr, "\n");
	fid_usage(stderr);
	return 2;
}

/* snprintf() into @buf; cut short if it does not fit. */
__attribute__((format(printf, 3, 4)))
static void put(char *buf, size_t len, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(buf, len, fmt, ap);
	va_end(ap);
}

static bool ends_with(const char *s, const char *tail)
{
	size_t n = strlen(s), t = strlen(tail);

	return n >= t && !strcmp(s + n - t, tail);
}

static bool exists(const char *path)
{
	struct stat st;

	return !stat(path, &st) && S_ISREG(st.st_mode);
}

/* Options, then the traces from *@first on; 0 or exit status 2. */
static int fid_parse(int argc, char **argv, struct fid_opts *o, int *first)
{
	const char *cbad;
	int i;

	*o = (struct fid_opts){ .out = "fidelity", .policy = "preset=nvidia" };
	exp_cost_default(&o->cost);
	for (i = 2; i < argc && argv[i][0] == '-'; i++) {
		const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;

		if (!strcmp(a, "--allow-incomplete")) {
			o->allow_incomplete = true;
			continue;
		}
		if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
			fid_usage(stdout);
			exit(0);
		}
		if (!v)
			return fid_bad("%s needs a value", a);
		i++;
		if (!strcmp(a, "--out"))
			o->out = v;
		else if (!strcmp(a, "--json"))
			o->json = v;
		else if (!strcmp(a, "--policy"))
			o->policy = v;
		else if (!strcmp(a, "--device") && strspn(v, "0123456789") == strlen(v) &&
			 *v && strlen(v) <= 2)
			o->device = v;
		else if (!strcmp(a, "--device"))
			return fid_bad("--device '%s': a device ordinal", v);
		else if (!strcmp(a, "--cost") && !exp_cost_parse(&o->cost, v, &cbad))
			o->cost_spec = v;
		else if (!strcmp(a, "--cost"))
			return fid_bad("--cost: bad item '%s'", cbad);
		else
			return fid_bad("unknown option '%s'", a);
	}
	if (i == argc)
		return fid_bad("no recording to compare");
	if (argc - i > MAX_CASES)
		return fid_bad("more than %d recordings", MAX_CASES);
	for (*first = i; i < argc; i++)
		if (!exists(argv[i]))
			return fid_bad("%s: no such file", argv[i]);
	return 0;
}

/* The case's name and the files beside its trace. */
static void fid_names(struct fid_case *c, const struct fid_opts *o, const char *src)
{
	char base[PATH_MAX], dir[PATH_MAX];
	const char *slash = strrchr(src, '/');
	size_t n;

	put(c->source, sizeof(c->source), "%s", src);
	snprintf(base, sizeof(base), "%s", src);
	if (ends_with(base, ".xz"))
		base[strlen(base) - 3] = 0;
	put(c->kernels, sizeof(c->kernels), "%s.kernels", base);
	if (!exists(c->kernels))
		c->kernels[0] = 0;
	n = slash ? (size_t)(slash - src) + 1 : 0;
	snprintf(dir, sizeof(dir), "%.*s", (int)n, src);
	put(c->name, sizeof(c->name), "%s", base + n);
	if (ends_with(c->name, ".trace"))
		c->name[strlen(c->name) - 6] = 0;
	put(c->untraced, sizeof(c->untraced), "%s%s.untraced.json", dir, c->name);
	if (!exists(c->untraced))
		c->untraced[0] = 0;
	put(c->resident, sizeof(c->resident), "%s%s.resident.json", dir, c->name);
	if (!exists(c->resident))
		c->resident[0] = 0;
	if (ends_with(src, ".xz"))
		put(c->trace, sizeof(c->trace), "%s/%s.trace", o->out, c->name);
	else
		put(c->trace, sizeof(c->trace), "%s", src);
}

/* Run @argv with stdout to @out (stderr too); its exit status, or -1. */
static int spawn_wait(char *const argv[], const char *out)
{
	int fd, st;
	pid_t pid;

	fflush(NULL);
	pid = fork();
	if (pid < 0)
		return -1;
	if (!pid) {
		fd = open(out, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
		if (fd < 0 || dup2(fd, 1) < 0 || (strcmp(argv[0], "xz") && dup2(fd, 2) < 0))
			_exit(127);
		execvp(argv[0], argv);
		_exit(127);
	}
	if (waitpid(pid, &st, 0) < 0)
		return -1;
	return WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
}

static int decompress(struct fid_case *c)
{
	char *argv[] = { "xz", "-dc", "--", c->source, NULL };

	if (!ends_with(c->source, ".xz"))
		return 0;
	if (spawn_wait(argv, c->trace)) {
		put(c->error, sizeof(c->error), "%s: xz -d failed (is xz installed?)",
			 c->source);
		unlink(c->trace);
		return -1;
	}
	return 0;
}

/* The recording's counts, and its own counts inside each kernel. */
static int read_recording(struct fid_case *c, const struct fid_opts *o,
			  struct rp_kernels *k)
{
	const struct uvm_event *e;
	struct tr_reader r;
	int ret;

	if (tr_open(&r, c->trace)) {
		put(c->error, sizeof(c->error), "%s: %s", c->trace, r.err);
		return -1;
	}
	if (r.info.h.completeness == TR_COMPLETE_NO && !o->allow_incomplete) {
		put(c->error, sizeof(c->error), "%s: an incomplete recording (%llu "
			 "records lost): --allow-incomplete compares the rest", c->source,
			 (unsigned long long)r.info.h.lost);
		tr_close(&r);
		return -1;
	}
	while ((ret = tr_next(&r, &e)) > 0) {
		fidk_take(c, k, e);
		if (exp_detail_take(&c->rec, e)) {
			put(c->error, sizeof(c->error), "out of memory");
			ret = -1;
			break;
		}
	}
	if (ret < 0 && !c->error[0])
		put(c->error, sizeof(c->error), "%s: %s", c->trace, r.err);
	tr_close(&r);
	return ret < 0 ? -1 : 0;
}

static char *slurp(const char *path)
{
	FILE *f = fopen(path, "re");
	char *buf;
	long n;

	if (!f)
		return NULL;
	if (fseek(f, 0, SEEK_END) || (n = ftell(f)) < 0 || fseek(f, 0, SEEK_SET)) {
		fclose(f);
		return NULL;
	}
	buf = malloc((size_t)n + 1);
	if (buf && fread(buf, 1, (size_t)n, f) != (size_t)n) {
		free(buf);
		buf = NULL;
	}
	if (buf)
		buf[n] = 0;
	fclose(f);
	return buf;
}

/* The @n numbers after each "@key": from @s on, into @v (stride @stride). */
static size_t numbers(const char *s, const char *key, double *v, size_t n,
		      size_t stride)
{
	size_t i = 0, klen = strlen(key);
	char *end;

	while (s && i < n && (s = strstr(s, key))) {
		s += klen;
		*(double *)((char *)v + i * stride) = strtod(s, &end);
		i++;
	}
	return i;
}

static void exec_replay(const char *self, const struct fid_opts *o,
			const struct fid_case *c, char *json)
{
	char name[PATH_MAX + 8];
	char *argv[24];
	int n = 0;

	snprintf(name, sizeof(name), "replay:%s", c->trace);
	argv[n++] = (char *)self;
	argv[n++] = "run";
	argv[n++] = name;
	argv[n++] = "--iters";
	argv[n++] = "1";
	argv[n++] = "--detail";
	argv[n++] = "--json";
	argv[n++] = json;
	argv[n++] = "--policy";
	argv[n++] = (char *)o->policy;
	if (c->kernels[0]) {
		argv[n++] = "--kernels";
		argv[n++] = (char *)c->kernels;
	}
	if (o->device) {
		argv[n++] = "--device";
		argv[n++] = (char *)o->device;
	}
	if (o->cost_spec) {
		argv[n++] = "--cost";
		argv[n++] = (char *)o->cost_spec;
	}
	if (o->allow_incomplete)
		argv[n++] = "--allow-incomplete";
	argv[n] = NULL;
	execv(self, argv);
	_exit(127);
}

/* Say why the replay failed: its exit status and its log's last line. */
static void replay_failed(struct fid_case *c, int st, const char *log)
{
	char *text = slurp(log), *line = NULL, *nl;

	if (text) {
		while ((nl = strrchr(text, '\n')) && !nl[1])
			*nl = 0;
		line = strrchr(text, '\n');
		line = line ? line + 1 : text;
	}
	put(c->error, sizeof(c->error), "the replay failed (exit %d): %s (%s)",
	    st < 0 ? -1 : WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st),
	    line && *line ? line : "no output", log);
	free(text);
}

/* Replay @c on uvm.ko and read what it did; 0 or -1 (said in c->error). */
static int replay(const char *self, const struct fid_opts *o, struct fid_case *c)
{
	char json[PATH_MAX + 16], log[PATH_MAX + 16];
	const char *det, *arr;
	char *buf;
	pid_t pid;
	int st, fd;
	size_t i;

	snprintf(json, sizeof(json), "%s/%s.replay.json", o->out, c->name);
	snprintf(log, sizeof(log), "%s/%s.replay.log", o->out, c->name);
	unlink(json);
	fflush(NULL);
	pid = fork();
	if (pid < 0)
		return -1;
	if (!pid) {
		fd = open(log, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
		if (fd < 0 || dup2(fd, 1) < 0 || dup2(fd, 2) < 0)
			_exit(127);
		exec_replay(self, o, c, json);
	}
	if (waitpid(pid, &st, 0) < 0)
		st = -1;
	buf = slurp(json);
	det = buf ? strstr(buf, "\"detail\":{") : NULL;
	if (st || !buf || !strstr(buf, "\"status\":\"ok\"") || !det ||
	    exp_detail_parse(det, &c->rep)) {
		replay_failed(c, st, log);
		free(buf);
		return -1;
	}
	numbers(buf, "\"modelled_s\":", &c->rep_modelled_s, 1, sizeof(double));
	arr = strstr(buf, "\"kernels\":[");
	if (arr && c->nk)
		numbers(arr, "\"modelled_s\":", &c->k[0].modelled_s, c->nk, sizeof(c->k[0]));
	for (i = 0; i < c->nk; i++)
		c->k[i].modelled_s += fidk_own(&c->k[i]);
	free(buf);
	return 0;
}

/* The recorded kernels, their times, and the recording's own counts priced. */
static int kernels_of(struct fid_case *c, struct rp_kernels *k)
{
	size_t i;

	if (c->kernels[0]) {	/* an old recording's TRACE.kernels */
		if (rpk_load(k, c->kernels, c->error, sizeof(c->error)))
			return -1;
	} else {		/* the trace's own kernel records */
		if (rpk_load_trace(k, c->trace, c->error, sizeof(c->error)))
			return -1;
		if (!k->n)
			return 0;
		put(c->kernels, sizeof(c->kernels), "%s", c->trace);
	}
	c->nk = k->n;
	c->k = calloc(k->n ? k->n : 1, sizeof(*c->k));
	if (!c->k) {
		put(c->error, sizeof(c->error), "out of memory");
		return -1;
	}
	for (i = 0; i < k->n; i++) {
		put(c->k[i].name, sizeof(c->k[i].name), "%s", k->v[i].name);
		c->k[i].recorded_s = (double)(k->v[i].end - k->v[i].start) * 1e-9;
	}
	return 0;
}

int fid_load(struct fid_case *c, const struct fid_opts *o, const char *src)
{
	struct exp_cost_counts n;
	struct rp_kernels k;
	size_t i;
	int ret = -1;

	memset(&k, 0, sizeof(k));
	fid_names(c, o, src);
	if (decompress(c) || kernels_of(c, &k) || read_recording(c, o, &k))
		goto out;
	fidk_times(c);
	for (i = 0; i < c->nk; i++) {
		fidk_counts(&c->k[i], &n);
		c->k[i].modelled_rec_s = fidk_own(&c->k[i]) + exp_cost_time(&o->cost, &n);
	}
	ret = 0;
out:
	rpk_free(&k);
	return ret;
}

static void one_case(const char *self, const struct fid_opts *o, struct fid_case *c,
		     const char *src)
{
	fprintf(stderr, "uvm-exp fidelity: %s: replaying under %s\n", src, o->policy);
	if (fid_load(c, o, src) || replay(self, o, c))
		goto out;
	c->ok = true;
	fid_judge(c);
out:
	if (!c->ok)
		fprintf(stderr, "uvm-exp fidelity: %s: %s\n", c->name, c->error);
}

void fid_free_cases(struct fid_case *c, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		exp_detail_free(&c[i].rec);
		free(c[i].k);
	}
	free(c);
}

int exp_fidelity(const char *self, int argc, char **argv)
{
	struct fid_case *c;
	char json[PATH_MAX + 16];
	struct fid_opts o;
	int first = 0, ret, i, st = 0;
	size_t n;

	ret = fid_parse(argc, argv, &o, &first);
	if (ret)
		return ret;
	if (mkdir(o.out, 0755) && errno != EEXIST) {
		fprintf(stderr, "uvm-exp fidelity: %s: %s\n", o.out, strerror(errno));
		return 1;
	}
	n = (size_t)(argc - first);
	c = calloc(n, sizeof(*c));
	if (!c)
		return 1;
	for (i = first; i < argc; i++)
		one_case(self, &o, &c[i - first], argv[i]);
	for (i = 0; i < (int)n; i++) {
		fid_table(stdout, &c[i]);
		st |= !c[i].ok;
	}
	fid_summary(stdout, c, n);
	snprintf(json, sizeof(json), "%s/fidelity.json", o.out);
	if (fid_json(o.json ? o.json : json, &o, c, n)) {
		fprintf(stderr, "uvm-exp fidelity: %s: %s\n", o.json ? o.json : json,
			strerror(errno));
		st = 1;
	}
	fid_plots(&o, c, n);
	fid_free_cases(c, n);
	return st;
}
