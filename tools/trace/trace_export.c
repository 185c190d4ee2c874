// SPDX-License-Identifier: MIT
/*
 * trace_export.c - uvm-trace export FILE --csv|--jsonl [-o OUT]: every
 * record, every field, one line each, with the names of
 * docs/trace-format.md. CSV has a header line and one column per field
 * name (the union over the types; a field a record's type lacks is empty);
 * JSON Lines has one object a record with its type's fields only. A
 * string (a kernel's name) is quoted: CSV's way (a quote doubled) or
 * JSON's (escapes).
 */
#include <errno.h>
#include <inttypes.h>
#include <string.h>

#include "trace_format.h"

#define MAX_COLS	64

struct columns {
	const char *name[MAX_COLS];
	unsigned int n;
	/* col[type][i]: the column of field i of the type */
	unsigned char col[TR_TYPES][MAX_COLS];
};

static unsigned int column_of(struct columns *c, const char *name)
{
	unsigned int i;

	for (i = 0; i < c->n; i++)
		if (!strcmp(c->name[i], name))
			return i;
	c->name[c->n] = name;
	return c->n++;
}

/* index, type, the header's fields, then each type's new names in turn. */
static void build_columns(struct columns *c)
{
	unsigned int t, i;

	c->n = 0;
	column_of(c, "index");
	column_of(c, "type");
	for (i = 0; i < tr_hdr_nfields; i++)
		column_of(c, tr_hdr_fields[i].name);
	for (t = 0; t < TR_TYPES; t++)
		for (i = 0; i < tr_types[t].nfields; i++)
			c->col[t][i] = (unsigned char)column_of(c, tr_types[t].fields[i].name);
}

static void csv_head(FILE *out, const struct columns *c)
{
	unsigned int i;

	for (i = 0; i < c->n; i++)
		fprintf(out, "%s%s", i ? "," : "", c->name[i]);
	fputc('\n', out);
}

/* A field in CSV: a number, or a string in quotes (a quote doubled). */
static void csv_field(FILE *out, const struct uvm_event *ev, const struct tr_field *f)
{
	char str[256], *p;

	if (!f->is_string) {
		tr_field_print(out, ev, f);
		return;
	}
	tr_field_str(ev, f, str);
	fputc('"', out);
	for (p = str; *p; p++) {
		if (*p == '"')
			fputc('"', out);
		fputc(*p, out);
	}
	fputc('"', out);
}

static void csv_line(FILE *out, const struct columns *c, uint64_t index,
		     const struct uvm_event *ev)
{
	const struct tr_type *t = &tr_types[ev->hdr.type];
	const struct tr_field *f[MAX_COLS] = { NULL };
	unsigned int i;

	for (i = 0; i < t->nfields; i++)
		f[c->col[ev->hdr.type][i]] = &t->fields[i];
	fprintf(out, "%" PRIu64 ",%s", index, t->name);
	for (i = 0; i < tr_hdr_nfields; i++) {
		fputc(',', out);
		tr_field_print(out, ev, &tr_hdr_fields[i]);
	}
	for (i = 2 + tr_hdr_nfields; i < c->n; i++) {
		fputc(',', out);
		if (f[i])
			csv_field(out, ev, f[i]);
	}
	fputc('\n', out);
}

static void fields_json(FILE *out, const struct uvm_event *ev, const struct tr_field *f,
			unsigned int n)
{
	unsigned int i;

	for (i = 0; i < n; i++) {
		fprintf(out, ",\"%s\":", f[i].name);
		tr_field_print(out, ev, &f[i]);
	}
}

static void json_line(FILE *out, uint64_t index, const struct uvm_event *ev)
{
	const struct tr_type *t = &tr_types[ev->hdr.type];

	fprintf(out, "{\"index\":%" PRIu64 ",\"type\":\"%s\"", index, t->name);
	fields_json(out, ev, tr_hdr_fields, tr_hdr_nfields);
	fields_json(out, ev, t->fields, t->nfields);
	fputs("}\n", out);
}

static int export_usage(const char *why)
{
	fprintf(stderr, "uvm-trace export: %s\n"
		"usage: uvm-trace export FILE --csv|--jsonl [-o OUT]\n", why);
	return TR_EXIT_USAGE;
}

struct export_opts {
	const char *in, *out;
	int csv, jsonl;
};

static int parse_export(int argc, char **argv, struct export_opts *o)
{
	int i;

	for (i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--csv"))
			o->csv = 1;
		else if (!strcmp(argv[i], "--jsonl"))
			o->jsonl = 1;
		else if (!strcmp(argv[i], "-o") && i + 1 < argc)
			o->out = argv[++i];
		else if (!strcmp(argv[i], "-o"))
			return export_usage("-o needs a value");
		else if (argv[i][0] == '-')
			return export_usage("unknown option");
		else if (o->in)
			return export_usage("one trace at a time");
		else
			o->in = argv[i];
	}
	if (!o->in)
		return export_usage("no trace named");
	if (o->csv + o->jsonl != 1)
		return export_usage("give one of --csv and --jsonl");
	return 0;
}

/* Every record to @out; 0, or 1 with the reader's error printed. */
static int export_records(struct tr_reader *r, FILE *out, const struct export_opts *o)
{
	static struct columns c;
	const struct uvm_event *ev;
	int ret;

	if (o->csv) {
		build_columns(&c);
		csv_head(out, &c);
	}
	while ((ret = tr_next(r, &ev)) > 0) {
		uint64_t index = r->index + r->pos - 1;

		if (o->csv)
			csv_line(out, &c, index, ev);
		else
			json_line(out, index, ev);
	}
	if (ret < 0) {
		fprintf(stderr, "uvm-trace: %s: %s\n", o->in, r->err);
		return 1;
	}
	return 0;
}

int tr_export_main(int argc, char **argv)
{
	static struct tr_reader r;
	struct export_opts o = { 0 };
	FILE *out = stdout;
	int ret;

	ret = parse_export(argc, argv, &o);
	if (ret)
		return ret;
	ret = 1;
	if (tr_open(&r, o.in)) {
		fprintf(stderr, "uvm-trace: %s: %s\n", o.in, r.err);
		goto close_trace;
	}
	if (o.out) {
		out = fopen(o.out, "we");
		if (!out) {
			fprintf(stderr, "uvm-trace: %s: %s\n", o.out, strerror(errno));
			goto close_trace;
		}
	}
	ret = export_records(&r, out, &o);
	if (fflush(out) || ferror(out)) {
		fprintf(stderr, "uvm-trace: %s: write error\n", o.out ? o.out : "stdout");
		ret = 1;
	}
	if (out != stdout)
		fclose(out);
close_trace:
	tr_close(&r);
	return ret;
}
