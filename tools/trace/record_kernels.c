// SPDX-License-Identifier: MIT
/*
 * record_kernels.c - kernel launches for the trace's kernel records
 * (UVM_EVENT_KERNEL, docs/trace-format.md): the files the CUPTI injection
 * library (cupti/nvrec_cupti.c) wrote, one per process, or a FILE.kernels
 * that an earlier record-nvidia wrote beside its trace (JSON Lines, one
 * kernel a line); by start time, on the trace's clock, as records that
 * the importer merges into the trace by time (docs/fidelity.md "Kernel
 * launches").
 */
#include <errno.h>
#include <glob.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "record_kernels.h"
#include "trace_format.h"

static int nvk_add(struct nvk_set *s, const struct nvk *k)
{
	if (s->n == s->cap) {
		size_t cap = s->cap ? 2 * s->cap : 1024;
		struct nvk *v = realloc(s->v, cap * sizeof(*v));

		if (!v)
			return -ENOMEM;
		s->v = v;
		s->cap = cap;
	}
	s->v[s->n++] = *k;
	return 0;
}

/* One line of a process's file: 0, or -EINVAL for a line that is not one. */
static int nvk_line(struct nvk_set *s, char *line, uint32_t pid)
{
	unsigned long long a, b, dropped;
	unsigned int dev, stream, corr;
	struct nvk k;
	int used = 0;

	line[strcspn(line, "\n")] = '\0';
	if (sscanf(line, "D %llu%n", &dropped, &used) == 1 && !line[used]) {
		s->dropped += dropped;
		return 0;
	}
	if (sscanf(line, "K %llu %llu %u %u %u %n", &a, &b, &dev, &stream, &corr,
		   &used) != 5 || !used || !line[used] || b < a)
		return -EINVAL;
	k = (struct nvk){ .start = a, .end = b, .pid = pid, .device = dev,
			  .stream = stream, .corr = corr, .name = strdup(line + used) };
	if (!k.name)
		return -ENOMEM;
	if (nvk_add(s, &k)) {
		free(k.name);
		return -ENOMEM;
	}
	return 0;
}

/* A process's file ($prefix.<pid>); it must end with its D line. */
static int nvk_file(struct nvk_set *s, const char *path, const char *prefix)
{
	uint32_t pid = (uint32_t)strtoul(path + strlen(prefix) + 1, NULL, 10);
	char *line = NULL;
	size_t cap = 0, no = 0;
	int ret = 0, ended = 0;
	FILE *f = fopen(path, "re");

	if (!f) {
		fprintf(stderr, "uvm-trace record-nvidia: %s: %s\n", path, strerror(errno));
		return -errno;
	}
	while (!ret && getline(&line, &cap, f) > 0) {
		no++;
		ended = line[0] == 'D';
		ret = nvk_line(s, line, pid);
		if (ret == -EINVAL)
			fprintf(stderr, "uvm-trace record-nvidia: %s: line %zu: not a kernel "
				"record\n", path, no);
	}
	if (!ret && !ended) {
		fprintf(stderr, "uvm-trace record-nvidia: %s: process %u's kernels end "
			"without their last line (it did not exit normally)\n", path, pid);
		ret = -EINVAL;
	}
	free(line);
	fclose(f);
	return ret;
}

/* By start; launches that start together by process and correlation id. */
static int nvk_cmp(const void *a, const void *b)
{
	const struct nvk *x = a, *y = b;

	if (x->start != y->start)
		return x->start < y->start ? -1 : 1;
	if (x->pid != y->pid)
		return x->pid < y->pid ? -1 : 1;
	return x->corr < y->corr ? -1 : x->corr > y->corr;
}

void nvk_free(struct nvk_set *s)
{
	size_t i;

	for (i = 0; i < s->n; i++)
		free(s->v[i].name);
	free(s->v);
	memset(s, 0, sizeof(*s));
}

/**
 * nvk_collect() - the per-process files $@prefix.<pid>, read and removed.
 * @s: out, their kernels by start (empty on an error).
 * @prefix: what UVM_NVREC_KERNELS said.
 *
 * Return: 0; -ENOENT if no process wrote a file (CUPTI was not loaded);
 * another -errno, said, on an error.
 */
int nvk_collect(struct nvk_set *s, const char *prefix)
{
	char pat[4200];
	glob_t g;
	size_t i;
	int ret = 0;

	memset(s, 0, sizeof(*s));
	snprintf(pat, sizeof(pat), "%s.[0-9]*", prefix);
	if (glob(pat, 0, NULL, &g))
		return -ENOENT;
	for (i = 0; i < g.gl_pathc && !ret; i++)
		ret = nvk_file(s, g.gl_pathv[i], prefix);
	for (i = 0; i < g.gl_pathc; i++)
		unlink(g.gl_pathv[i]);
	globfree(&g);
	if (ret)
		nvk_free(s);
	else
		qsort(s->v, s->n, sizeof(*s->v), nvk_cmp);
	return ret;
}

/* ---- FILE.kernels of an earlier record-nvidia ---- */

/* The number after "@key": in @line into *@v: 0, or -1. */
static int json_num(const char *line, const char *key, uint64_t max, uint64_t *v)
{
	const char *p = strstr(line, key);
	unsigned long long x;
	char *end;

	if (!p)
		return -1;
	p += strlen(key);
	if (*p < '0' || *p > '9')
		return -1;
	errno = 0;
	x = strtoull(p, &end, 10);
	if (errno || x > max || (*end != ',' && *end != '}'))
		return -1;
	*v = x;
	return 0;
}

/* The string after "name":, its escapes undone, into a new string; NULL if bad. */
static char *json_name(const char *line)
{
	const char *p = strstr(line, "\"name\":\"");
	char *out, *o;
	unsigned int c;

	if (!p)
		return NULL;
	p += 8;
	out = o = malloc(strlen(p) + 1);
	if (!out)
		return NULL;
	for (; *p && *p != '"'; p++) {
		if (*p != '\\') {
			*o++ = *p;
			continue;
		}
		p++;
		if (*p == '"' || *p == '\\' || *p == '/')
			*o++ = *p;
		else if (*p == 'u' && sscanf(p + 1, "%4x", &c) == 1 && c && c < 0x80 &&
			 strspn(p + 1, "0123456789abcdefABCDEF") >= 4) {
			*o++ = (char)c;
			p += 4;
		} else {
			break;
		}
	}
	*o = '\0';
	if (*p != '"' || o == out) {
		free(out);
		return NULL;
	}
	return out;
}

/* One line of a FILE.kernels: 0, or -EINVAL, -ENOMEM. */
static int nvk_json_line(struct nvk_set *s, const char *line)
{
	uint64_t pid, dev, stream, corr;
	struct nvk k = { 0 };

	if (json_num(line, "\"pid\":", UINT32_MAX, &pid) ||
	    json_num(line, "\"device\":", UINT32_MAX, &dev) ||
	    json_num(line, "\"stream\":", UINT32_MAX, &stream) ||
	    json_num(line, "\"correlation\":", UINT32_MAX, &corr) ||
	    json_num(line, "\"start_ns\":", UINT64_MAX, &k.start) ||
	    json_num(line, "\"end_ns\":", UINT64_MAX, &k.end) || k.end < k.start)
		return -EINVAL;
	k.pid = (uint32_t)pid;
	k.device = (uint32_t)dev;
	k.stream = (uint32_t)stream;
	k.corr = (uint32_t)corr;
	k.name = json_name(line);
	if (!k.name)
		return -EINVAL;
	if (nvk_add(s, &k)) {
		free(k.name);
		return -ENOMEM;
	}
	return 0;
}

/**
 * nvk_load() - a FILE.kernels (JSON Lines: pid, device, stream,
 * correlation, start_ns, end_ns, name), as record-nvidia wrote it beside
 * its trace before the trace had kernel records.
 * @s: out, its kernels by start (empty on an error).
 * @path: the file.
 *
 * Return: 0, or -errno with the file and line said.
 */
int nvk_load(struct nvk_set *s, const char *path)
{
	FILE *f = fopen(path, "re");
	char *line = NULL;
	size_t cap = 0, no = 0;
	int ret = 0;

	memset(s, 0, sizeof(*s));
	if (!f) {
		ret = -errno;
		fprintf(stderr, "uvm-trace: %s: %s\n", path, strerror(-ret));
		return ret;
	}
	while (!ret && getline(&line, &cap, f) > 0) {
		no++;
		ret = nvk_json_line(s, line);
	}
	if (ret == -EINVAL)
		fprintf(stderr, "uvm-trace: %s: line %zu: not a kernel launch of record-nvidia's "
			"(pid, device, stream, correlation, start_ns <= end_ns, name)\n", path, no);
	else if (ret)
		fprintf(stderr, "uvm-trace: %s: %s\n", path, strerror(-ret));
	free(line);
	fclose(f);
	if (ret)
		nvk_free(s);
	else
		qsort(s->v, s->n, sizeof(*s->v), nvk_cmp);
	return ret;
}

/* ---- as records ---- */

static void nvk_event(const struct nvk *k, struct uvm_event *ev)
{
	size_t len = strlen(k->name);

	memset(ev, 0, sizeof(*ev));
	ev->hdr.type = UVM_EVENT_KERNEL;
	ev->hdr.size = sizeof(*ev);
	ev->hdr.version = UVM_EVENTS_VERSION;
	ev->hdr.pid = k->pid;
	ev->hdr.timestamp_ns = k->start;
	ev->hdr.va_space = k->pid;
	ev->u.kernel.start_ns = k->start;
	ev->u.kernel.end_ns = k->end;
	ev->u.kernel.name_hash = tr_kernel_hash(k->name, len);
	ev->u.kernel.device = k->device;
	ev->u.kernel.stream = k->stream;
	ev->u.kernel.correlation = k->corr;
	ev->u.kernel.name_len = len > UINT32_MAX ? UINT32_MAX : (uint32_t)len;
	memcpy(ev->u.kernel.name, k->name,
	       len < UVM_EVENT_KERNEL_NAME ? len : UVM_EVENT_KERNEL_NAME);
}

/* @s's kernels as UVM_EVENT_KERNEL records, in its order: malloc'd, or NULL. */
struct uvm_event *nvk_events(const struct nvk_set *s)
{
	struct uvm_event *ev = malloc((s->n + 1) * sizeof(*ev));
	size_t i;

	if (!ev)
		return NULL;
	for (i = 0; i < s->n; i++)
		nvk_event(&s->v[i], &ev[i]);
	return ev;
}

/*
 * Remove what the processes wrote, PREFIX.<pid> (an error before the
 * merge): the kernel launches' files and the CUPTI source's alike.
 */
void nvk_discard(const char *prefix)
{
	char pat[4200];
	glob_t g;
	size_t i;

	snprintf(pat, sizeof(pat), "%s.[0-9]*", prefix);
	if (glob(pat, 0, NULL, &g))
		return;
	for (i = 0; i < g.gl_pathc; i++)
		unlink(g.gl_pathv[i]);
	globfree(&g);
}
