// SPDX-License-Identifier: MIT
/*
 * uvm-trace - record a program's memory-system events to a trace file and
 * read traces (docs/trace-format.md).
 *
 *   uvm-trace record [-o FILE] [--events LIST] -- CMD [ARGS...]
 *   uvm-trace record [-o FILE] [--events LIST] -p PID
 *   uvm-trace record-nvidia [-o FILE] [--source S] [--raw CAP] -- CMD [ARGS...]
 *   uvm-trace show FILE
 *   uvm-trace export FILE --csv|--jsonl [-o OUT]
 *   uvm-trace import uvm-eval|nsys|kfd-smi|nvuvm|nvcupti|jsonl IN [-o OUT]
 *
 * Exit status: 0, 1 (an error: a bad trace, no module), 2 (a bad command
 * line, before anything runs); record exits with the command's status.
 */
#include <stdio.h>
#include <string.h>

#include "import.h"
#include "trace_format.h"

static int usage(FILE *f, int st)
{
	fprintf(f,
		"usage: uvm-trace record [-o FILE] [--events LIST] -- CMD [ARGS...]\n"
		"       uvm-trace record [-o FILE] [--events LIST] -p PID\n"
		"       uvm-trace record-nvidia [-o FILE] [--source S] [--raw CAP] -- CMD [ARGS...]\n"
		"       uvm-trace show FILE\n"
		"       uvm-trace export FILE --csv|--jsonl [-o OUT]\n"
		"       uvm-trace import uvm-eval|nsys|kfd-smi|nvuvm|nvcupti|jsonl IN [-o OUT]\n"
		"The format and every field: docs/trace-format.md; importers:\n"
		"docs/trace-import.md; recording on NVIDIA's driver: docs/fidelity.md.\n");
	return st;
}

int main(int argc, char **argv)
{
	if (argc < 2)
		return usage(stderr, TR_EXIT_USAGE);
	if (!strcmp(argv[1], "record"))
		return tr_record_main(argc - 1, argv + 1);
	if (!strcmp(argv[1], "record-nvidia"))
		return tr_record_nvidia_main(argc - 1, argv + 1);
	if (!strcmp(argv[1], "show"))
		return tr_show_main(argc - 1, argv + 1);
	if (!strcmp(argv[1], "export"))
		return tr_export_main(argc - 1, argv + 1);
	if (!strcmp(argv[1], "import"))
		return tr_import_main(argc - 1, argv + 1);
	if (!strcmp(argv[1], "help") || !strcmp(argv[1], "--help") || !strcmp(argv[1], "-h"))
		return usage(stdout, 0);
	fprintf(stderr, "uvm-trace: unknown command '%s'\n", argv[1]);
	return usage(stderr, TR_EXIT_USAGE);
}
