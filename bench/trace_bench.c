// SPDX-License-Identifier: GPL-2.0
/*
 * Traces (docs/trace-format.md, docs/replay.md): what recording costs the
 * program recorded, what a record costs on disk, how fast a replay goes.
 * The program is uvm-exp's triad (32 MiB, 3 passes, 1.5x oversubscribed,
 * no prefetch: every pass faults, migrates and evicts); its own wall_s
 * (the passes) is the time compared, median of 3 runs of each kind,
 * interleaved, all in the same VM run.
 *
 *   trace_overhead_default   untraced time / time under `uvm-trace record`
 *                            (batch, migration, eviction... records: the
 *                            default set)                       (>= 0.95)
 *   trace_overhead_per_fault untraced time / time under `record --events
 *                            all` (one more record per distinct faulting
 *                            page: what per-fault records cost)
 *   trace_bytes_per_record   bytes of the --events all trace / its records;
 *                            baseline 128, a record unpacked
 *   replay_records_per_s     uvm-replay of that trace: records / wall_s;
 *                            baseline: the recorded run's records / wall_s
 */
#define BENCH_NAME "trace_bench"

#include <errno.h>
#include <inttypes.h>
#include <libgen.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "../bench/bench_common.h"

#define REPS	3
#define RUN	"run triad --size 32M --iters 3 --oversub 1.5 --policy prefetch=none,evict=lru"

static char tools[1024], tmp[64];

/* A number field of the one-line JSON in @path. */
static double json_num(const char *path, const char *key)
{
	char line[16384], want[64];
	FILE *f = fopen(path, "r");
	char *p;

	if (!f || !fgets(line, sizeof(line), f))
		die(path);
	fclose(f);
	snprintf(want, sizeof(want), "\"%s\":", key);
	p = strstr(line, want);
	if (!p) {
		fprintf(stderr, "%s: no %s in %s\n", BENCH_NAME, key, path);
		exit(1);
	}
	return strtod(p + strlen(want), NULL);
}

static void sh(const char *cmd)
{
	if (system(cmd)) {
		fprintf(stderr, "%s: failed: %s\n", BENCH_NAME, cmd);
		exit(1);
	}
}

/* One run of the program, traced with @events (NULL: untraced): its wall_s. */
static double run(const char *events)
{
	char cmd[8192];

	if (!events)
		snprintf(cmd, sizeof(cmd), "%s/uvm-exp " RUN " --json %s/run.json >/dev/null",
			 tools, tmp);
	else
		snprintf(cmd, sizeof(cmd), "%s/uvm-trace record %s -o %s/t.trace -- "
			 "%s/uvm-exp " RUN " --json %s/run.json >/dev/null 2>&1", tools,
			 events, tmp, tools, tmp);
	sh(cmd);
	return json_num(strcat(strcpy(cmd, tmp), "/run.json"), "wall_s");
}

/* The records a trace holds: its end block's `first` (the last 8 bytes). */
static double records_of(const char *path, double *bytes)
{
	uint64_t n = 0;
	struct stat st;
	FILE *f = fopen(path, "r");

	if (!f || stat(path, &st) || fseek(f, -8, SEEK_END) || fread(&n, 8, 1, f) != 1)
		die(path);
	fclose(f);
	*bytes = (double)st.st_size;
	return (double)n;
}

static void find_tools(void)
{
	char self[PATH_MAX];
	ssize_t n = readlink("/proc/self/exe", self, sizeof(self) - 1);

	if (n < 0)
		die("/proc/self/exe");
	self[n] = 0;
	if (snprintf(tools, sizeof(tools), "%s/../tools", dirname(self)) >= (int)sizeof(tools))
		die("path too long");
	strcpy(tmp, "/tmp/trace_bench.XXXXXX");
	if (!mkdtemp(tmp))
		die("mkdtemp");
}

int main(void)
{
	double plain[REPS], dflt[REPS], all[REPS], bytes, recs, all_wall;
	char cmd[8192];
	int i;

	find_tools();
	run(NULL);	/* warm up */
	for (i = 0; i < REPS; i++) {
		plain[i] = run(NULL);
		dflt[i] = run("");
		all[i] = run("--events all");
	}
	all_wall = all[REPS - 1];
	recs = records_of(strcat(strcpy(cmd, tmp), "/t.trace"), &bytes);
	report("trace_overhead_default", 1 / median(dflt, REPS), "1/s", "untraced",
	       1 / median(plain, REPS), ">= 0.95");
	report("trace_overhead_per_fault", 1 / median(all, REPS), "1/s", "untraced",
	       1 / median(plain, REPS), "informational");
	report("trace_bytes_per_record", bytes / recs, "B", "unpacked record", 128,
	       "informational");
	snprintf(cmd, sizeof(cmd), "%s/uvm-replay %s/t.trace --oversub 1.5 --policy "
		 "prefetch=none,evict=lru --json %s/replay.json >/dev/null", tools, tmp, tmp);
	sh(cmd);
	snprintf(cmd, sizeof(cmd), "%s/replay.json", tmp);
	report("replay_records_per_s", json_num(cmd, "trace_records") / json_num(cmd, "wall_s"),
	       "records/s", "recorded run", recs / all_wall, "informational");
	snprintf(cmd, sizeof(cmd), "rm -rf %s", tmp);
	sh(cmd);
	return 0;
}
