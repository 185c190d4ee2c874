// SPDX-License-Identifier: GPL-2.0
/*
 * replay_main.c - uvm-replay: `uvm-exp run replay:FILE` under a name of its
 * own (docs/replay.md), one pass unless --iters says otherwise.
 *
 *   uvm-replay FILE [--device D] [--oversub R] [--policy K=V,...]
 *                   [--json OUT] [--iters N] [--cost K=V,...] [--timeline F]
 *                   [--allow-incomplete]
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "exp.h"

static void usage(FILE *f)
{
	fprintf(f,
		"usage: uvm-replay FILE [--device D] [--oversub R] [--policy K=V,...]\n"
		"                  [--json OUT] [--iters N] [--cost K=V,...] [--timeline F]\n"
		"                  [--allow-incomplete]\n"
		"  FILE          a trace (uvm-trace record, or uvm-trace import)\n"
		"  --device D    the device the trace's device becomes (default 0; a\n"
		"                trace of several devices keeps their numbers)\n"
		"  --oversub R   the trace's footprint / the device memory it may use\n"
		"  --policy P    the policies to replay under (UVM_POLICY syntax;\n"
		"                preset=nvidia: NVIDIA's driver's, docs/policies.md)\n"
		"  --iters N     replay the trace N times (default 1)\n"
		"  --allow-incomplete  replay a trace whose recording lost records (the\n"
		"                header or its overflow records say so); refused otherwise\n"
		"  the rest: as uvm-exp run (docs/experiments.md, docs/replay.md)\n");
}

int main(int argc, char **argv)
{
	char **args;
	char *name;
	int i, n = 0, ret;

	if (argc < 2 || argv[1][0] == '-') {
		if (argc >= 2 && (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h"))) {
			usage(stdout);
			return 0;
		}
		usage(stderr);
		return 2;
	}
	args = calloc((size_t)argc + 4, sizeof(*args));
	name = malloc(strlen(argv[1]) + sizeof("replay:"));
	if (!args || !name)
		return 1;
	strcpy(name, "replay:");
	strcat(name, argv[1]);
	args[n++] = argv[0];
	args[n++] = "run";
	args[n++] = name;
	args[n++] = "--iters";
	args[n++] = "1";
	for (i = 2; i < argc; i++)
		args[n++] = argv[i];
	ret = exp_cmd_run(n, args);
	free(name);
	free(args);
	return ret;
}
