// SPDX-License-Identifier: MIT
/*
 * uvm-stat - run a command and print the uvm counters it caused, like
 * perf stat.
 *
 *   uvm-stat [-j|--json] [-a|--all] [-o FILE] [--] CMD [ARG...]
 *
 * The figures are deltas of the module's global counters (UVM_STATS_GLOBAL)
 * around the run: a VA space's own counters vanish with its last file, so
 * after the command exits only the global ones remain. Whatever other
 * processes did during the run is included; on a quiet machine that is
 * nothing. Exit status: the command's (128 + signal if it was killed), 2
 * when /dev/uvm cannot be opened, 64 usage, 127 the command could not run.
 */
#include <errno.h>
#include <getopt.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "uvm_tool.h"

struct stat_opts {
	int json;
	int all;		/* also print counters that did not change */
	const char *out;	/* default: stderr */
};

struct stat_run {
	uint64_t before[UT_MAX_STATS];
	uint64_t after[UT_MAX_STATS];
	int n;
	double seconds;
	int status;		/* waitpid status */
};

static void usage(FILE *f)
{
	fputs("usage: uvm-stat [-j|--json] [-a|--all] [-o FILE] [--] CMD [ARG...]\n"
	      "Runs CMD and prints the uvm counters it caused (global deltas).\n", f);
}

static int parse_args(int argc, char **argv, struct stat_opts *o)
{
	static const struct option lo[] = {
		{ "json", no_argument, NULL, 'j' },
		{ "all", no_argument, NULL, 'a' },
		{ "output", required_argument, NULL, 'o' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	int c;

	while ((c = getopt_long(argc, argv, "+jao:h", lo, NULL)) != -1) {
		switch (c) {
		case 'j': o->json = 1; break;
		case 'a': o->all = 1; break;
		case 'o': o->out = optarg; break;
		case 'h': usage(stdout); exit(UT_EXIT_OK);
		default: return -1;
		}
	}
	return optind < argc ? optind : -1;
}

/* fork + exec + wait; returns 0 or -errno (fork failure). */
static int run_command(char **argv, struct stat_run *r)
{
	double t = ut_now();
	pid_t pid = fork();

	if (pid < 0)
		return -errno;
	if (!pid) {
		execvp(argv[0], argv);
		fprintf(stderr, "uvm-stat: %s: %s\n", argv[0], strerror(errno));
		_exit(127);
	}
	signal(SIGINT, SIG_IGN);	/* the child gets it, as with perf stat */
	while (waitpid(pid, &r->status, 0) < 0 && errno == EINTR)
		;
	r->seconds = ut_now() - t;
	return 0;
}

static void cmdline(FILE *f, char **argv)
{
	int i;

	for (i = 0; argv[i]; i++)
		fprintf(f, "%s%s", i ? " " : "", argv[i]);
}

static void print_text(FILE *f, const struct stat_opts *o, char **argv,
		       const struct stat_run *r)
{
	char nb[32];
	int i, shown = 0;

	fprintf(f, "\n uvm counter deltas for '");
	cmdline(f, argv);
	fprintf(f, "' (module-wide):\n\n");
	for (i = 0; i < r->n; i++) {
		uint64_t d = r->after[i] - r->before[i];

		if (!d && !o->all)
			continue;
		fprintf(f, " %18llu      %-22s # %s\n", (unsigned long long)d,
			ut_stat_name(i, nb, sizeof(nb)), ut_stat_desc(i));
		shown++;
	}
	if (!shown)
		fprintf(f, " %18s      (no uvm activity)\n", "0");
	fprintf(f, "\n %18.6f      seconds time elapsed\n", r->seconds);
	fprintf(f, "\n note: global counters: activity of other processes during the"
		" run is included\n\n");
}

static void print_json(FILE *f, char **argv, const struct stat_run *r)
{
	char nb[32];
	int i;

	fprintf(f, "{\"command\":[");
	for (i = 0; argv[i]; i++) {
		if (i)
			fputc(',', f);
		ut_json_str(f, argv[i]);
	}
	fprintf(f, "],\"scope\":\"global\",\"seconds\":%.6f,\"exit_status\":%d,"
		"\"counters\":{", r->seconds,
		WIFEXITED(r->status) ? WEXITSTATUS(r->status) :
		128 + WTERMSIG(r->status));
	for (i = 0; i < r->n; i++)
		fprintf(f, "%s\"%s\":%llu", i ? "," : "", ut_stat_name(i, nb, sizeof(nb)),
			(unsigned long long)(r->after[i] - r->before[i]));
	fprintf(f, "}}\n");
}

static int report(const struct stat_opts *o, char **argv, const struct stat_run *r)
{
	FILE *f = o->out ? fopen(o->out, "we") : stderr;

	if (!f) {
		fprintf(stderr, "uvm-stat: %s: %s\n", o->out, strerror(errno));
		return -1;
	}
	if (o->json)
		print_json(f, argv, r);
	else
		print_text(f, o, argv, r);
	if (f != stderr)
		fclose(f);
	return 0;
}

int main(int argc, char **argv)
{
	struct stat_opts o = { 0 };
	struct stat_run r = { 0 };
	struct ut_module m;
	int first, ret;

	first = parse_args(argc, argv, &o);
	if (first < 0) {
		usage(stderr);
		return UT_EXIT_USAGE;
	}
	ret = ut_open(&m);
	if (ret)
		return ut_open_error("uvm-stat", ret);
	r.n = ut_read_stats(m.fd, UVM_STATS_GLOBAL, r.before, UT_MAX_STATS);
	/* No uvm file of ours open during the run (uvm-smi would list us). */
	ut_close(&m);
	ret = r.n < 0 ? r.n : run_command(argv + first, &r);
	if (!ret)
		ret = ut_open(&m);
	if (!ret) {
		ret = ut_read_stats(m.fd, UVM_STATS_GLOBAL, r.after, UT_MAX_STATS);
		ut_close(&m);
	}
	if (ret < 0) {
		fprintf(stderr, "uvm-stat: %s\n", strerror(-ret));
		return UT_EXIT_NO_MODULE;
	}
	if (ret < r.n)
		r.n = ret;
	if (report(&o, argv + first, &r))
		return UT_EXIT_USAGE;
	if (WIFSIGNALED(r.status))
		return 128 + WTERMSIG(r.status);
	return WEXITSTATUS(r.status);
}
