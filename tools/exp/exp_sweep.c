// SPDX-License-Identifier: GPL-2.0
/*
 * exp_sweep.c - `uvm-exp sweep FILE [--out DIR]`: a matrix of runs
 * (docs/experiments.md). Each run is `uvm-exp run ...` in a child process
 * of its own (a fresh VA space: no policy or cap carries over), its JSON
 * line appended to DIR/results.jsonl; runs already there are skipped, so
 * an interrupted sweep resumes where it stopped.
 */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "exp.h"
#include "exp_cost.h"

#define MAX_VALUES	16
#define MAX_LINE	1024

/* One key of the experiment file and its values. */
struct axis {
	const char *key;
	char *v[MAX_VALUES];
	unsigned int n;
};

enum { AX_WORKLOADS, AX_SIZES, AX_OVERSUB, AX_POLICIES, AX_BATCH, AX_REPS,
       AX_ITERS, AX_DEVICE, AX_COST, AX_TIMELINES, AX_NR };

static struct axis axes[AX_NR] = {
	[AX_WORKLOADS] = { "workloads" }, [AX_SIZES] = { "sizes" },
	[AX_OVERSUB] = { "oversub" }, [AX_POLICIES] = { "policies" },
	[AX_BATCH] = { "batch" }, [AX_REPS] = { "reps" },
	[AX_ITERS] = { "iters" }, [AX_DEVICE] = { "device" },
	[AX_COST] = { "cost" }, [AX_TIMELINES] = { "timelines" },
};

static int file_error(const char *file, unsigned int line, const char *what,
		      const char *item)
{
	fprintf(stderr, "uvm-exp: %s:%u: %s%s%s%s\n", file, line, what,
		item ? " '" : "", item ? item : "", item ? "'" : "");
	return 2;
}

/* Is @v a valid value of axis @a (what `run` would accept)? */
static bool value_ok(int a, const char *v)
{
	const char *cbad;
	struct exp_cost c;
	char *end;
	double d;
	long l;

	switch (a) {
	case AX_COST:
		exp_cost_default(&c);
		return !exp_cost_parse(&c, v, &cbad);
	case AX_TIMELINES:
		return !strcmp(v, "all") || !strcmp(v, "highest") || !strcmp(v, "none");
	case AX_WORKLOADS:
		return exp_workload_find(v);
	case AX_OVERSUB:
		d = strtod(v, &end);
		return end != v && !*end && d >= 1.0 && d <= 16.0;
	case AX_BATCH:
	case AX_REPS:
	case AX_ITERS:
	case AX_DEVICE:
		l = strtol(v, &end, 10);
		return end != v && !*end && l >= (a == AX_DEVICE ? 0 : 1) &&
		       l <= (a == AX_BATCH ? 4096 : a == AX_REPS ? 100 : 100000);
	default:
		return *v;	/* sizes, policies: `run` checks them */
	}
}

/* "key = v1 v2 ..." into its axis; 0 or an exit status. */
static int parse_line(const char *file, unsigned int ln, char *line)
{
	char *eq = strchr(line, '='), *key = line, *tok, *save;
	int a;

	if (!eq)
		return file_error(file, ln, "expected KEY = VALUES", NULL);
	*eq = 0;
	key = strtok_r(key, " \t", &save);
	if (!key || strtok_r(NULL, " \t", &save))
		return file_error(file, ln, "expected KEY = VALUES", NULL);
	for (a = 0; a < AX_NR && strcmp(axes[a].key, key); a++)
		;
	if (a == AX_NR)
		return file_error(file, ln, "unknown key", key);
	if (axes[a].n)
		return file_error(file, ln, "key given twice", key);
	for (tok = strtok_r(eq + 1, " \t\n", &save); tok;
	     tok = strtok_r(NULL, " \t\n", &save)) {
		if (axes[a].n == MAX_VALUES)
			return file_error(file, ln, "more than 16 values of", key);
		if (!value_ok(a, tok))
			return file_error(file, ln, "bad value", tok);
		axes[a].v[axes[a].n] = strdup(tok);
		if (!axes[a].v[axes[a].n++])
			return 1;
	}
	if (!axes[a].n)
		return file_error(file, ln, "no values for", key);
	return 0;
}

static int parse_file(const char *file)
{
	static char *defaults[AX_NR] = {
		[AX_SIZES] = "32M", [AX_OVERSUB] = "1", [AX_POLICIES] = "",
		[AX_BATCH] = "256", [AX_REPS] = "1", [AX_ITERS] = "3", [AX_DEVICE] = "0",
		[AX_COST] = "", [AX_TIMELINES] = "highest",
	};
	char line[MAX_LINE], *p;
	unsigned int ln = 0;
	FILE *f = fopen(file, "r");
	int a, ret = 0;

	if (!f) {
		fprintf(stderr, "uvm-exp: %s: %s\n", file, strerror(errno));
		return 2;
	}
	while (!ret && fgets(line, sizeof(line), f)) {
		ln++;
		if (!strchr(line, '\n') && !feof(f)) {
			ret = file_error(file, ln, "line longer than 1023 bytes", NULL);
			break;
		}
		p = line + strspn(line, " \t");
		if (*p == '#' || *p == '\n' || !*p)
			continue;
		ret = parse_line(file, ln, p);
	}
	fclose(f);
	if (ret)
		return ret;
	if (!axes[AX_WORKLOADS].n)
		return file_error(file, ln, "no workloads (workloads = NAME ...)", NULL);
	if (axes[AX_REPS].n > 1)
		return file_error(file, ln, "reps takes one value", NULL);
	if (axes[AX_COST].n > 1)
		return file_error(file, ln, "cost takes one value", NULL);
	if (axes[AX_TIMELINES].n > 1)
		return file_error(file, ln, "timelines takes one value", NULL);
	for (a = 0; a < AX_NR; a++)
		if (!axes[a].n && defaults[a])
			axes[a].v[axes[a].n++] = defaults[a];
	return 0;
}

/*
 * Does the run at @ix write a timeline (timelines = all, or highest: the
 * runs at the file's highest ratio, the ones the report plots)? A
 * timeline of random access under oversubscription takes about 40 bytes
 * a migration: 100 MB for a 16 MiB run at 1.25x.
 */
static bool wants_timeline(const unsigned int *ix)
{
	const char *mode = axes[AX_TIMELINES].v[0];
	double mine = strtod(axes[AX_OVERSUB].v[ix[AX_OVERSUB]], NULL);
	unsigned int i;

	if (strcmp(mode, "highest"))
		return !strcmp(mode, "all");
	for (i = 0; i < axes[AX_OVERSUB].n; i++)
		if (strtod(axes[AX_OVERSUB].v[i], NULL) > mine)
			return false;
	return true;
}

/*
 * The run's timeline file, named after its key (every parameter), so
 * sweeps of different files into one directory never share one.
 */
static void timeline_name(char *buf, size_t len, const char *key)
{
	size_t i, n = strlen("timelines/");

	snprintf(buf, len, "timelines/%s.csv", key);
	for (i = n; buf[i] && i + 4 < strlen(buf); i++)
		if (!isalnum((unsigned char)buf[i]) && buf[i] != '.' && buf[i] != '-')
			buf[i] = '_';
}

/* The run's id in results.jsonl: every parameter, one string. */
static void run_key(char *buf, size_t len, const unsigned int *ix, unsigned int rep)
{
	const char *cost = axes[AX_COST].v[0];

	snprintf(buf, len, "%s|%s|%s|%s|%s|%s|%s|%u%s%s",
		 axes[AX_WORKLOADS].v[ix[AX_WORKLOADS]], axes[AX_SIZES].v[ix[AX_SIZES]],
		 axes[AX_OVERSUB].v[ix[AX_OVERSUB]], axes[AX_POLICIES].v[ix[AX_POLICIES]],
		 axes[AX_BATCH].v[ix[AX_BATCH]], axes[AX_ITERS].v[ix[AX_ITERS]],
		 axes[AX_DEVICE].v[ix[AX_DEVICE]], rep, *cost ? "|" : "", cost);
}

/* Is a run of @key already in @results (a line with "key":"KEY")? */
static bool done_before(const char *results, const char *key)
{
	char line[8192], want[700];
	bool found = false;
	FILE *f = fopen(results, "r");

	if (!f)
		return false;
	snprintf(want, sizeof(want), "\"key\":\"%s\"", key);
	while (!found && fgets(line, sizeof(line), f))
		found = strstr(line, want);
	fclose(f);
	return found;
}

/* The child: `uvm-exp run` of the configuration at @ix. Does not return. */
static void exec_run(const char *self, const unsigned int *ix, char *policy,
		     char *seed, char *json, char *timeline)
{
	const char *cost = axes[AX_COST].v[0];
	char *argv[24] = {
		(char *)self, "run", axes[AX_WORKLOADS].v[ix[AX_WORKLOADS]],
		"--size", axes[AX_SIZES].v[ix[AX_SIZES]],
		"--oversub", axes[AX_OVERSUB].v[ix[AX_OVERSUB]],
		"--iters", axes[AX_ITERS].v[ix[AX_ITERS]],
		"--device", axes[AX_DEVICE].v[ix[AX_DEVICE]],
		"--policy", policy, "--seed", seed, "--json", json,
	};
	int n = 17;	/* the options above; room for two more pairs */

	if (*cost) {
		argv[n++] = "--cost";
		argv[n++] = (char *)cost;
	}
	if (timeline) {
		argv[n++] = "--timeline";
		argv[n++] = timeline;
	}
	if (freopen("/dev/null", "w", stdout))
		execv(self, argv);
	_exit(127);
}

/* `uvm-exp run` of one configuration; its JSON line appended. 0: ok. */
static int run_one(const char *self, const char *dir, const unsigned int *ix,
		   const char *key, unsigned int rep)
{
	char policy[512], json[512], results[512], seed[24], line[8192];
	char timeline[1024], name[600];
	bool tl;
	const char *pol = axes[AX_POLICIES].v[ix[AX_POLICIES]];
	struct timespec t0, t1;
	FILE *in, *out;
	int st;
	pid_t pid;

	snprintf(policy, sizeof(policy), "%s%sbatch=%s", pol, *pol ? "," : "",
		 axes[AX_BATCH].v[ix[AX_BATCH]]);
	snprintf(json, sizeof(json), "%s/run.json", dir);
	snprintf(results, sizeof(results), "%s/results.jsonl", dir);
	snprintf(seed, sizeof(seed), "%u", rep + 1);
	timeline_name(name, sizeof(name), key);
	snprintf(timeline, sizeof(timeline), "%s/%s", dir, name);
	tl = wants_timeline(ix);
	clock_gettime(CLOCK_MONOTONIC, &t0);
	pid = fork();
	if (pid < 0)
		return -errno;
	if (!pid)
		exec_run(self, ix, policy, seed, json, tl ? timeline : NULL);
	if (waitpid(pid, &st, 0) < 0)
		return -errno;
	clock_gettime(CLOCK_MONOTONIC, &t1);
	in = fopen(json, "r");
	if (!in || !fgets(line, sizeof(line), in)) {
		if (in)
			fclose(in);
		fprintf(stderr, "uvm-exp: run %s left no result (exit %d)\n", key,
			WIFEXITED(st) ? WEXITSTATUS(st) : -1);
		return -EIO;
	}
	fclose(in);
	unlink(json);
	line[strcspn(line, "\n")] = 0;
	if (line[0] != '{')
		return -EIO;
	out = fopen(results, "a");
	if (!out)
		return -errno;
	/* The key first, then the run's own fields. */
	/* run_s: the whole configuration (set-up, passes, check), as the sweep saw it. */
	fprintf(out, "{\"key\":\"%s\",\"rep\":%u,\"run_s\":%.3f,", key, rep,
		(double)(t1.tv_sec - t0.tv_sec) + (t1.tv_nsec - t0.tv_nsec) * 1e-9);
	if (tl)
		fprintf(out, "\"timeline\":\"%s\",", name);
	fprintf(out, "%s\n", line + 1);
	fclose(out);
	return WIFEXITED(st) && !WEXITSTATUS(st) ? 0 : -EIO;
}

/* Advance the odometer @ix over every axis; false when it wraps. */
static bool next_config(unsigned int *ix)
{
	int a;

	for (a = AX_NR - 1; a >= 0; a--) {
		if (a == AX_REPS)
			continue;
		if (++ix[a] < axes[a].n)
			return true;
		ix[a] = 0;
	}
	return false;
}

static unsigned int total_runs(void)
{
	unsigned int a, t = 1;

	for (a = 0; a < AX_NR; a++)
		t *= a == AX_REPS ? (unsigned int)atoi(axes[a].v[0]) : axes[a].n;
	return t;
}

int exp_sweep(const char *self, int argc, char **argv)
{
	unsigned int ix[AX_NR] = { 0 }, reps, rep, total, k = 0, failed = 0, ran = 0;
	const char *file, *dir = "exp-results";
	char key[600], results[512];
	time_t t0 = time(NULL);
	int ret;

	if (argc < 3)
		return fprintf(stderr, "uvm-exp: sweep needs an experiment file\n"), 2;
	file = argv[2];
	if (argc == 5 && !strcmp(argv[3], "--out"))
		dir = argv[4];
	else if (argc != 3)
		return fprintf(stderr, "uvm-exp: usage: uvm-exp sweep FILE [--out DIR]\n"), 2;
	ret = parse_file(file);
	if (ret)
		return ret;
	snprintf(results, sizeof(results), "%s/timelines", dir);
	if ((mkdir(dir, 0755) && errno != EEXIST) ||
	    (mkdir(results, 0755) && errno != EEXIST)) {
		fprintf(stderr, "uvm-exp: %s: %s\n", results, strerror(errno));
		return 2;
	}
	snprintf(results, sizeof(results), "%s/results.jsonl", dir);
	reps = (unsigned int)atoi(axes[AX_REPS].v[0]);
	total = total_runs();
	do {
		for (rep = 0; rep < reps; rep++, k++) {
			run_key(key, sizeof(key), ix, rep);
			if (done_before(results, key))
				continue;
			ret = run_one(self, dir, ix, key, rep);
			failed += ret != 0;
			ran++;
			fprintf(stderr, "\ruvm-exp: %u/%u runs (%u failed), about %lds left ",
				k + 1, total, failed,
				(long)((time(NULL) - t0) * (total - k - 1) / ran));
		}
	} while (next_config(ix));
	fprintf(stderr, "\nuvm-exp: %u runs this time, %u failed; results in %s\n",
		ran, failed, results);
	return failed ? 1 : 0;
}
